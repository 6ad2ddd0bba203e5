/*
 * Machine snapshots and package sets, each stored once per distinct
 * content.
 *
 * A package set is keyed by sysinfo_packages_hash() and its items are
 * rows of `packages`; a snapshot is keyed by its fields hash joined with
 * its package set's hash, and keeps its fields as the canonical JSON of
 * sysinfo (SYSINFO_FIELDS only).  Two runs on an unchanged machine point
 * at the same snapshot row, so a nightly history costs one row a change.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "log.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "store.h"
#include "store_int.h"

/*
 * Find a row id by a text key with the given statement: 0 when found, 1
 * when no row has it, -1 when the lookup failed (the connection's error
 * says why).  A failed lookup is no row not there: the INSERT that
 * followed failed on its own ("UNIQUE constraint failed") and named the
 * wrong thing.
 */
static int
find_by_hash(struct store *st, enum store_stmt_id id, const char *sql,
    const char *hash, int64_t *out)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = store_stmt(st, id, sql)) == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(stmt, 0);
	sqlite3_reset(stmt);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : -1;
}

/*
 * Store the package set of s unless it is there; its id, or -1.  Called
 * inside store_snapshot_put()'s transaction only, so that its lookup and
 * its INSERT are one step for every other writer.
 */
static int64_t
package_set_put(struct store *st, const struct snapshot *s, char **cause)
{
	sqlite3_stmt	*stmt;
	char		 hash[SYSINFO_HASH_LEN + 1];
	int64_t		 id;
	size_t		 i;
	int		 rc;

	sysinfo_packages_hash(s, hash);
	if ((rc = find_by_hash(st, STMT_PKGSET_FIND,
	    "SELECT id FROM package_sets WHERE hash = ?", hash, &id)) == 0)
		return id;
	if (rc == -1) {
		xasprintf(cause, "%s: looking up a package set: %s", st->path,
		    sqlite3_errmsg(st->db));
		return -1;
	}
	if ((stmt = store_stmt(st, STMT_PKGSET_INSERT,
	    "INSERT INTO package_sets (hash, count) VALUES (?, ?)")) == NULL)
		goto fail;
	sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, (int64_t)s->npackages);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		goto fail;
	id = sqlite3_last_insert_rowid(st->db);
	if ((stmt = store_stmt(st, STMT_PACKAGE_INSERT,
	    "INSERT OR IGNORE INTO packages (package_set, name, arch, version)"
	    " VALUES (?, ?, ?, ?)")) == NULL)
		goto fail;
	for (i = 0; i < s->npackages; i++) {
		const struct snapshot_package *p = &s->packages[i];

		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, id);
		sqlite3_bind_text(stmt, 2, p->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, p->arch != NULL ? p->arch : "", -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, p->version, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_reset(stmt);
	return id;

fail:
	xasprintf(cause, "%s: storing a package set: %s", st->path,
	    sqlite3_errmsg(st->db));
	return -1;
}

/*
 * Find the snapshot keyed key: 0 and *id set when found, 1 when no row
 * has it, -1 with *cause when the lookup failed.
 */
static int
snapshot_find(struct store *st, const char *key, int64_t *id, char **cause)
{
	int	rc;

	rc = find_by_hash(st, STMT_SNAPSHOT_FIND,
	    "SELECT id FROM snapshots WHERE hash = ?", key, id);
	if (rc == -1)
		xasprintf(cause, "%s: looking up a snapshot: %s", st->path,
		    sqlite3_errmsg(st->db));
	return rc;
}

/*
 * Store snapshot s, once per distinct content, inside one transaction of
 * its own unless the caller holds one.  Returns its id or -1 with *cause.
 *
 * A machine that has not changed finds its row without taking the write
 * lock.  One that has looks again once it holds the lock (BEGIN
 * IMMEDIATE): another perfwatch (a bisect beside perfwatchd's nightly
 * run, say) may have stored the same snapshot in between, and the INSERT
 * then failed with "UNIQUE constraint failed" where the other's id was
 * the answer.
 */
int64_t
store_snapshot_put(struct store *st, const struct snapshot *s, char **cause)
{
	sqlite3_stmt	*stmt;
	char		 fh[SYSINFO_HASH_LEN + 1], ph[SYSINFO_HASH_LEN + 1];
	char		 key[2 * SYSINFO_HASH_LEN + 2], *fields = NULL;
	int64_t		 id = -1, set;
	int		 own = sqlite3_get_autocommit(st->db), rc;

	sysinfo_fields_hash(s, fh);
	sysinfo_packages_hash(s, ph);
	snprintf(key, sizeof(key), "%s/%s", fh, ph);
	if ((rc = snapshot_find(st, key, &id, cause)) != 1)
		return rc == 0 ? id : -1;
	if (own && store_begin(st) == -1) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	if (own && (rc = snapshot_find(st, key, &id, cause)) != 1) {
		if (rc == -1)
			id = -1;
		goto out;
	}
	if ((set = package_set_put(st, s, cause)) == -1)
		goto out;
	fields = sysinfo_snapshot_dump(s, SYSINFO_FIELDS);
	if ((stmt = store_stmt(st, STMT_SNAPSHOT_INSERT,
	    "INSERT INTO snapshots (hash, taken, kernel, cpu_model,"
	    " package_set, fields) VALUES (?, ?, ?, ?, ?, ?)")) == NULL) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		goto out;
	}
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, (int64_t)time(NULL));
	if (sysinfo_snapshot_get(s, "kernel.release") != NULL)
		sqlite3_bind_text(stmt, 3, sysinfo_snapshot_get(s,
		    "kernel.release"), -1, SQLITE_STATIC);
	if (sysinfo_snapshot_get(s, "cpu.model") != NULL)
		sqlite3_bind_text(stmt, 4, sysinfo_snapshot_get(s,
		    "cpu.model"), -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 5, set);
	sqlite3_bind_text(stmt, 6, fields, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE) {
		xasprintf(cause, "%s: storing a snapshot: %s", st->path,
		    sqlite3_errmsg(st->db));
		sqlite3_reset(stmt);
		goto out;
	}
	sqlite3_reset(stmt);
	id = sqlite3_last_insert_rowid(st->db);
out:
	free(fields);
	if (own) {
		if (id != -1 && store_commit(st) == -1) {
			xasprintf(cause, "%s: %s", st->path,
			    sqlite3_errmsg(st->db));
			id = -1;
		}
		if (id == -1)
			store_rollback(st);
	}
	return id;
}

/* Load snapshot id with its packages; NULL with *cause if absent. */
struct snapshot *
store_snapshot_get(struct store *st, int64_t id, char **cause)
{
	sqlite3_stmt	*stmt;
	struct snapshot	*s;
	int64_t		 set;
	int		 rc;

	if ((stmt = store_stmt(st, STMT_SNAPSHOT_GET,
	    "SELECT fields, package_set FROM snapshots WHERE id = ?")) == NULL) {
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return NULL;
	}
	sqlite3_bind_int64(stmt, 1, id);
	if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) {
		sqlite3_reset(stmt);
		/* A read that failed (store_failure() says so) is no "no". */
		if (rc != SQLITE_DONE)
			xasprintf(cause, "%s: %s", st->path,
			    sqlite3_errmsg(st->db));
		else
			xasprintf(cause, "no snapshot %lld", (long long)id);
		return NULL;
	}
	s = sysinfo_snapshot_load((const char *)sqlite3_column_text(stmt, 0),
	    cause);
	set = sqlite3_column_int64(stmt, 1);
	sqlite3_reset(stmt);
	if (s == NULL)
		return NULL;
	if ((stmt = store_stmt(st, STMT_PACKAGES_GET,
	    "SELECT name, version, arch FROM packages WHERE package_set = ?"
	    " ORDER BY name, arch")) == NULL) {
		sysinfo_snapshot_free(s);
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return NULL;
	}
	sqlite3_bind_int64(stmt, 1, set);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		sysinfo_snapshot_add_package(s,
		    (const char *)sqlite3_column_text(stmt, 0),
		    (const char *)sqlite3_column_text(stmt, 1),
		    (const char *)sqlite3_column_text(stmt, 2));
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		sysinfo_snapshot_free(s);
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return NULL;
	}
	return s;
}

/* Counts for bench/snapshot: rows and bytes of the snapshot tables. */
int
store_snapshot_usage(struct store *st, int64_t *snapshots, int64_t *sets,
    int64_t *packages)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT (SELECT count(*) FROM "
	    "snapshots), (SELECT count(*) FROM package_sets), (SELECT "
	    "count(*) FROM packages)", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*snapshots = sqlite3_column_int64(stmt, 0);
		*sets = sqlite3_column_int64(stmt, 1);
		*packages = sqlite3_column_int64(stmt, 2);
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}
