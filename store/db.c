/*
 * Opening the store, schema migrations and transactions.
 *
 * Invariants:
 * - PRAGMA user_version is the number of the last migration applied; a
 *   file whose number is above STORE_SCHEMA_VERSION was written by a newer
 *   perfwatch and is refused before anything is written to it (not even
 *   the WAL switch, which rewrites the header).
 * - PRAGMA application_id marks the file as ours; a non-empty database
 *   without it is somebody else's and is refused too.
 * - A process that keeps the store open (perfwatchd) reads the version
 *   again in each store_begin(), under the write lock, and writes nothing
 *   to a file that a newer perfwatch has migrated since.
 * - Each migration runs in its own transaction together with the
 *   user_version bump, so a crash leaves the file at a whole version.
 * - A file that is read-only to this user (SQLite opens it read-only
 *   without a word) is read as it is, WAL or not: nothing is written to
 *   it, and one that would need a migration is refused.  On a read-only
 *   file system, where no -shm can be made, one whose log is empty is
 *   read as immutable: nothing can change it there.
 * - On a full file system, where the -shm cannot be given its size, a
 *   command that only reads (store_open_reader) reads with SQLite's
 *   exclusive lock on the file, which keeps its log's index in the
 *   process's own memory: it is taken only while no other process has
 *   the file open, and keeps them all out until it closes, so nothing
 *   can change under the read.  Such a connection writes nothing, not
 *   even the checkpoint at its close.
 * - Several processes may open (and so migrate) one file at once: the
 *   version a migration starts from is read under the write lock, so no
 *   migration runs twice.
 */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "log.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

#define STORE_APPLICATION_ID	0x50577463	/* "PWtc" */
#define STORE_APPLICATION_ID_STR	"1347908707"	/* the same, decimal */
#define STORE_BUSY_MS		5000	/* how long to wait for a lock */
/*
 * The size a write-ahead log is cut down to when it has grown past it:
 * about SQLite's automatic checkpoint (1000 pages of 4 KiB).
 */
#define STORE_WAL_LIMIT		(4 * 1024 * 1024)
#define STORE_WAL_LIMIT_STR	"4194304"	/* the same, for the pragma */

static enum store_failure store_code_failure(int);
static int	store_busy_handler(void *, int);

/*
 * Migration N takes a database from version N-1 to N.  Never edit one that
 * has been released: add a new one.
 */
static const char *const store_migrations[] = {
	/* 1: the data model of DESIGN.md. */
	"CREATE TABLE hosts ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  machine_id TEXT"
	");"
	"CREATE TABLE package_sets ("
	"  id INTEGER PRIMARY KEY,"
	"  hash TEXT NOT NULL UNIQUE,"
	"  count INTEGER NOT NULL"
	");"
	"CREATE TABLE packages ("
	"  package_set INTEGER NOT NULL REFERENCES package_sets(id)"
	"    ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  arch TEXT NOT NULL DEFAULT '',"
	"  version TEXT NOT NULL,"
	"  PRIMARY KEY (package_set, name, arch)"
	") WITHOUT ROWID;"
	"CREATE TABLE snapshots ("
	"  id INTEGER PRIMARY KEY,"
	"  hash TEXT NOT NULL UNIQUE,"
	"  taken INTEGER NOT NULL,"
	"  kernel TEXT,"
	"  cpu_model TEXT,"
	"  package_set INTEGER REFERENCES package_sets(id),"
	"  fields TEXT NOT NULL"
	");"
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  host INTEGER NOT NULL REFERENCES hosts(id),"
	"  label TEXT NOT NULL,"
	"  snapshot INTEGER REFERENCES snapshots(id),"
	"  trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'package',"
	"    'kernel', 'git', 'manual', 'rerun', 'bisect', 'import')),"
	"  trigger_detail TEXT,"
	"  profile TEXT,"
	"  started INTEGER NOT NULL,"
	"  ended INTEGER,"
	"  status TEXT NOT NULL CHECK (status IN ('running', 'complete',"
	"    'aborted', 'failed')),"
	"  git_commits TEXT,"
	"  UNIQUE (host, label)"
	");"
	"CREATE INDEX runs_by_time ON runs (host, started);"
	"CREATE TABLE metrics ("
	"  id INTEGER PRIMARY KEY,"
	"  workload TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('higher', 'lower')),"
	"  UNIQUE (workload, metric)"
	");"
	/*
	 * Keyed by run first: a run's samples are written together and read
	 * together, and deleting a run is a range delete.
	 */
	"CREATE TABLE samples ("
	"  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  metric INTEGER NOT NULL REFERENCES metrics(id),"
	"  iteration INTEGER NOT NULL,"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY (run, metric, iteration)"
	") WITHOUT ROWID;"
	"CREATE TABLE baselines ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL"
	");"
	"CREATE TABLE baseline_runs ("
	"  baseline INTEGER NOT NULL REFERENCES baselines(id)"
	"    ON DELETE CASCADE,"
	"  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  PRIMARY KEY (baseline, run)"
	") WITHOUT ROWID;"
	"CREATE TABLE verdicts ("
	"  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  metric INTEGER NOT NULL REFERENCES metrics(id),"
	"  verdict TEXT NOT NULL CHECK (verdict IN ('regression',"
	"    'improvement', 'unchanged', 'inconclusive')),"
	"  change_pct REAL,"
	"  ci_low REAL,"
	"  ci_high REAL,"
	"  p REAL,"
	"  q REAL,"
	"  baseline TEXT,"
	"  PRIMARY KEY (run, metric)"
	") WITHOUT ROWID;"
	"CREATE TABLE alerts ("
	"  id INTEGER PRIMARY KEY,"
	"  metric INTEGER NOT NULL REFERENCES metrics(id),"
	"  host INTEGER NOT NULL REFERENCES hosts(id),"
	"  first_bad_run INTEGER NOT NULL REFERENCES runs(id),"
	"  last_good_run INTEGER REFERENCES runs(id),"
	"  last_run INTEGER NOT NULL REFERENCES runs(id),"
	"  state TEXT NOT NULL CHECK (state IN ('suspected', 'confirmed',"
	"    'acknowledged', 'resolved')),"
	"  change_pct REAL,"
	"  opened INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  attribution TEXT"
	");"
	"CREATE INDEX alerts_open ON alerts (metric, state);"
	"CREATE TABLE outbox ("
	"  id INTEGER PRIMARY KEY,"
	"  alert INTEGER REFERENCES alerts(id),"
	"  sink TEXT NOT NULL,"
	"  payload TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL,"
	"  delivered_at INTEGER,"
	"  failed_at INTEGER,"
	"  last_error TEXT"
	");"
	"CREATE INDEX outbox_pending ON outbox (next_attempt)"
	"  WHERE delivered_at IS NULL AND failed_at IS NULL;",

	/*
	 * 2: per-workload outcome of a run (a failed or timed-out workload is
	 * recorded, the run goes on), what the quiet-machine check saw, and
	 * small named settings (the index reference run, the baseline in use).
	 */
	"CREATE TABLE run_workloads ("
	"  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  workload TEXT NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('complete', 'failed',"
	"    'timeout', 'aborted', 'skipped')),"
	"  wall REAL,"
	"  cpu REAL,"
	"  error TEXT,"
	"  PRIMARY KEY (run, workload)"
	") WITHOUT ROWID;"
	"ALTER TABLE runs ADD COLUMN quiet TEXT;"
	"CREATE TABLE settings ("
	"  key TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL"
	") WITHOUT ROWID;",

	/*
	 * 3: what the verdict engine (detect/) needs to replay its decisions.
	 * An alert records the run that opened it and the run that confirmed
	 * it (its span of excluded runs depends on both) and its direction;
	 * a verdict keeps the medians and the noise it was judged on.  alerts
	 * and outbox are rebuilt (nothing wrote them before this version) so
	 * that deleting a run deletes its alerts and their pending outbox
	 * rows instead of failing on a foreign key.
	 */
	"CREATE TABLE alerts3 ("
	"  id INTEGER PRIMARY KEY,"
	"  metric INTEGER NOT NULL REFERENCES metrics(id),"
	"  host INTEGER NOT NULL REFERENCES hosts(id),"
	"  first_bad_run INTEGER NOT NULL REFERENCES runs(id)"
	"    ON DELETE CASCADE,"
	"  last_good_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  last_run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  state TEXT NOT NULL CHECK (state IN ('suspected', 'confirmed',"
	"    'acknowledged', 'resolved')),"
	"  change_pct REAL,"
	"  opened INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  attribution TEXT,"
	"  opened_run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  confirmed_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  direction TEXT NOT NULL DEFAULT 'regression' CHECK (direction IN"
	"    ('regression', 'improvement'))"
	");"
	"INSERT INTO alerts3 (id, metric, host, first_bad_run, last_good_run,"
	"  last_run, state, change_pct, opened, updated, attribution,"
	"  opened_run) SELECT id, metric, host, first_bad_run, last_good_run,"
	"  last_run, state, change_pct, opened, updated, attribution,"
	"  first_bad_run FROM alerts;"
	"CREATE TABLE outbox3 ("
	"  id INTEGER PRIMARY KEY,"
	"  alert INTEGER REFERENCES alerts3(id) ON DELETE CASCADE,"
	"  sink TEXT NOT NULL,"
	"  payload TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL,"
	"  delivered_at INTEGER,"
	"  failed_at INTEGER,"
	"  last_error TEXT"
	");"
	"INSERT INTO outbox3 SELECT * FROM outbox;"
	"DROP TABLE outbox;"
	"DROP TABLE alerts;"
	"ALTER TABLE alerts3 RENAME TO alerts;"
	"ALTER TABLE outbox3 RENAME TO outbox;"
	"CREATE INDEX alerts_open ON alerts (metric, state);"
	"CREATE INDEX alerts_by_metric ON alerts (host, metric, id);"
	"CREATE INDEX outbox_pending ON outbox (next_attempt)"
	"  WHERE delivered_at IS NULL AND failed_at IS NULL;"
	"CREATE INDEX outbox_by_alert ON outbox (alert);"
	"ALTER TABLE verdicts ADD COLUMN current REAL;"
	"ALTER TABLE verdicts ADD COLUMN reference REAL;"
	"ALTER TABLE verdicts ADD COLUMN noise REAL;"
	"ALTER TABLE verdicts ADD COLUMN baseline_runs INTEGER;",

	/*
	 * 4: a package set keeps every version of one name and arch (rpm's
	 * install-only kernels, a gpg-pubkey per key); the key of version 1
	 * kept the first and dropped the others.  A set that lost some is
	 * renamed out of the way, with its snapshots, so that the next
	 * snapshot of that machine stores the whole list again instead of
	 * finding the short one by its hash.
	 */
	"CREATE TABLE packages4 ("
	"  package_set INTEGER NOT NULL REFERENCES package_sets(id)"
	"    ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  arch TEXT NOT NULL DEFAULT '',"
	"  version TEXT NOT NULL,"
	"  PRIMARY KEY (package_set, name, arch, version)"
	") WITHOUT ROWID;"
	"INSERT INTO packages4 (package_set, name, arch, version)"
	"  SELECT package_set, name, arch, version FROM packages;"
	"DROP TABLE packages;"
	"ALTER TABLE packages4 RENAME TO packages;"
	"CREATE TEMP TABLE short_sets AS SELECT id FROM package_sets"
	"  WHERE count != (SELECT count(*) FROM packages"
	"  WHERE package_set = package_sets.id);"
	"UPDATE snapshots SET hash = hash || '/incomplete'"
	"  WHERE package_set IN (SELECT id FROM short_sets);"
	"UPDATE package_sets SET hash = hash || '/incomplete'"
	"  WHERE id IN (SELECT id FROM short_sets);"
	"DROP TABLE short_sets;",

	/*
	 * 5: whom an outbox row is for.  recipients is NULL for the sink's
	 * own list (every row detect/ queues), or a JSON array of the
	 * addresses the row has still to reach: an SMTP server that took
	 * a message for some recipients and said "later" (4xx) to others
	 * leaves a row for those others, with the payload and creation
	 * time of the first; split_from is the row whose message it
	 * carries (the message names that row), so that the retry is the
	 * same message, byte for byte.
	 */
	("ALTER TABLE outbox ADD COLUMN recipients TEXT;"
	"ALTER TABLE outbox ADD COLUMN split_from INTEGER;"),

	/*
	 * 6: a run whose length is unknown has no end (NULL), and every
	 * end is a length, 0 s included.  Up to 5 a reader took for
	 * unknown, besides NULL, a running run, an end at or before the
	 * epoch, and an import whose end is its start (what an import
	 * that gave no length recorded before the duration column): an
	 * import measured in 0 s could not be told from one that did not
	 * say.  Such a file cannot tell them apart either, so what that
	 * rule read as unknown becomes NULL, and every run reads as it
	 * did; a 0 s import comes back only by importing it again.  An
	 * aborted run whose end is its start is, but for one stopped in
	 * its first second, one a sweep found left running by a dead
	 * process and gave its start as its end, a length it never had:
	 * NULL too.
	 */
	("UPDATE runs SET ended = NULL WHERE ended IS NOT NULL AND"
	"  (ended <= 0 OR status = 'running' OR (ended = started AND"
	"  (trigger = 'import' OR status = 'aborted')));"),

	/*
	 * 7: an alert's number and an outbox row's are never given twice.
	 * They name a delivery to its receivers (the event id, the
	 * Message-ID, X-Perfwatch-Delivery), who drop one they have taken
	 * before; an INTEGER PRIMARY KEY hands the highest number out again
	 * once its row is gone, and import --replace of the newest runs
	 * deletes their alerts with their rows, delivered ones included:
	 * the next alert of the same metric had the same ids, and a
	 * receiver that followed perfwatch(1) dropped it as a duplicate.
	 * AUTOINCREMENT keeps the highest number ever given
	 * (sqlite_sequence), which the copy below sets from the rows kept.
	 */
	("CREATE TABLE alerts7 ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  metric INTEGER NOT NULL REFERENCES metrics(id),"
	"  host INTEGER NOT NULL REFERENCES hosts(id),"
	"  first_bad_run INTEGER NOT NULL REFERENCES runs(id)"
	"    ON DELETE CASCADE,"
	"  last_good_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  last_run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  state TEXT NOT NULL CHECK (state IN ('suspected', 'confirmed',"
	"    'acknowledged', 'resolved')),"
	"  change_pct REAL,"
	"  opened INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  attribution TEXT,"
	"  opened_run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  confirmed_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
	"  direction TEXT NOT NULL DEFAULT 'regression' CHECK (direction IN"
	"    ('regression', 'improvement'))"
	");"
	"INSERT INTO alerts7 (id, metric, host, first_bad_run, last_good_run,"
	"  last_run, state, change_pct, opened, updated, attribution,"
	"  opened_run, confirmed_run, direction) SELECT id, metric, host,"
	"  first_bad_run, last_good_run, last_run, state, change_pct, opened,"
	"  updated, attribution, opened_run, confirmed_run, direction"
	"  FROM alerts;"
	"CREATE TABLE outbox7 ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  alert INTEGER REFERENCES alerts7(id) ON DELETE CASCADE,"
	"  sink TEXT NOT NULL,"
	"  payload TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL,"
	"  delivered_at INTEGER,"
	"  failed_at INTEGER,"
	"  last_error TEXT,"
	"  recipients TEXT,"
	"  split_from INTEGER"
	");"
	"INSERT INTO outbox7 (id, alert, sink, payload, created, attempts,"
	"  next_attempt, delivered_at, failed_at, last_error, recipients,"
	"  split_from) SELECT id, alert, sink, payload, created, attempts,"
	"  next_attempt, delivered_at, failed_at, last_error, recipients,"
	"  split_from FROM outbox;"
	"DROP TABLE outbox;"
	"DROP TABLE alerts;"
	"ALTER TABLE alerts7 RENAME TO alerts;"
	"ALTER TABLE outbox7 RENAME TO outbox;"
	"CREATE INDEX alerts_open ON alerts (metric, state);"
	"CREATE INDEX alerts_by_metric ON alerts (host, metric, id);"
	"CREATE INDEX outbox_pending ON outbox (next_attempt)"
	"  WHERE delivered_at IS NULL AND failed_at IS NULL;"
	"CREATE INDEX outbox_by_alert ON outbox (alert);"),
};

/* Run one pragma or statement that returns nothing of interest. */
static int
store_exec(struct store *st, const char *sql)
{
	char	*err = NULL;
	int	 rc;

	if ((rc = sqlite3_exec(st->db, sql, NULL, NULL, &err)) != SQLITE_OK) {
		/*
		 * A lock that a caller of store_busy_limit() waits for
		 * briefly is one it tries again, and it says so itself.
		 */
		if ((rc & 0xff) == SQLITE_BUSY && st->busy_ms < STORE_BUSY_MS)
			log_debug("%s: %s", st->path, err != NULL ? err : "?");
		else
			log_warnx("%s: %s", st->path, err != NULL ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* Read an integer pragma. */
static int
store_pragma_int(struct store *st, const char *pragma, int *out)
{
	sqlite3_stmt	*stmt;
	char		 sql[64];
	int		 rc;

	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Count the objects in the schema: 0 means an empty (new) file. */
static int
store_schema_objects(struct store *st, int *count)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*count = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Fail migration to version: *cause with SQLite's message, taken before
 * the rollback replaces it.
 */
static int
store_migrate_fail(struct store *st, int version, char **cause)
{
	xasprintf(cause, "%s: migration to schema version %d failed: %s",
	    st->path, version, sqlite3_errmsg(st->db));
	store_rollback(st);
	return -1;
}

/*
 * Apply the migrations after the current version up to target, each in its
 * own transaction.  Another process may be migrating the same file: the
 * version is read again under the write lock (BEGIN IMMEDIATE), and what
 * it has applied meanwhile is not applied twice.
 */
int
store_migrate_to(struct store *st, int target, char **cause)
{
	int	 version;
	char	 sql[64];

	if (target > (int)nitems(store_migrations))
		target = (int)nitems(store_migrations);
	if (store_pragma_int(st, "user_version", &version) == -1) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	while (version < target) {
		if (store_exec(st, "BEGIN IMMEDIATE") == -1)
			return store_migrate_fail(st, version + 1, cause);
		if (store_pragma_int(st, "user_version", &version) == -1)
			return store_migrate_fail(st, version + 1, cause);
		if (version >= target) {
			/* Somebody else got there first. */
			if (store_exec(st, "COMMIT") == -1)
				return store_migrate_fail(st, version, cause);
			break;
		}
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
		    version + 1);
		if (store_exec(st, store_migrations[version]) == -1 ||
		    store_exec(st, sql) == -1 ||
		    (version == 0 && store_exec(st, "PRAGMA application_id = "
		    STORE_APPLICATION_ID_STR) == -1) ||
		    store_exec(st, "COMMIT") == -1)
			return store_migrate_fail(st, version + 1, cause);
		version++;
		log_debug("%s: migrated to schema version %d", st->path,
		    version);
	}
	return 0;
}

/*
 * Switch to WAL.  On a file still in rollback mode the switch needs the
 * exclusive lock, and SQLite answers SQLITE_BUSY at once, without the busy
 * handler, while another process holds a lock on it (as when several
 * processes open a new file together): try again for as long as the busy
 * timeout would have waited.
 */
static int
store_wal(struct store *st)
{
	char	*err = NULL;
	int	 rc, waited;

	for (waited = 0;; waited += 10) {
		rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL,
		    NULL, &err);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= STORE_BUSY_MS)
			break;
		sqlite3_free(err);
		err = NULL;
		sqlite3_sleep(10);
	}
	if (rc != SQLITE_OK) {
		log_warnx("%s: %s", st->path, err != NULL ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/*
 * Cut the write-ahead log down to nothing when it has grown past
 * STORE_WAL_LIMIT: what a large import leaves, whether it ended (its
 * rows are in the log until a checkpoint copies them) or was killed
 * (they never counted).  SQLite removes the log only when the last
 * connection closes, which never comes while perfwatchd has the store
 * open, and journal_size_limit cuts it only at the first commit after
 * the log starts over.  A TRUNCATE checkpoint copies what was committed
 * into the file first, so nothing is lost.  It waits for nobody: while
 * another process writes (an import under way) or reads an older
 * snapshot, the log is in use and stays; that process, or the next
 * perfwatch, cuts it later.  Failing here costs only disk space, so a
 * failure is logged and no more.
 */
static void
store_wal_shrink(struct store *st)
{
	struct stat	 sb;
	sqlite3_stmt	*stmt;
	char		*wal;
	int		 rc, busy = -1;

	assert(!st->readonly);
	if (!sqlite3_get_autocommit(st->db))
		return;
	xasprintf(&wal, "%s-wal", st->path);
	rc = stat(wal, &sb);
	free(wal);
	if (rc == -1 || sb.st_size <= STORE_WAL_LIMIT)
		return;
	sqlite3_busy_handler(st->db, NULL, NULL);
	if (sqlite3_prepare_v2(st->db, "PRAGMA wal_checkpoint(TRUNCATE)", -1,
	    &stmt, NULL) == SQLITE_OK) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			busy = sqlite3_column_int(stmt, 0);
		sqlite3_finalize(stmt);
	}
	if (busy == -1)
		log_warnx("%s: cannot checkpoint its write-ahead log of %jd "
		    "bytes: %s", st->path, (intmax_t)sb.st_size,
		    sqlite3_errmsg(st->db));
	else
		log_debug("%s: write-ahead log of %jd bytes %s", st->path,
		    (intmax_t)sb.st_size, busy ? "in use by another process, "
		    "left as it is" : "checkpointed and cut");
	sqlite3_busy_handler(st->db, store_busy_handler, st);
}

/*
 * SQLite's busy handler: another process holds the lock this call needs.
 * Wait for it in short sleeps, up to st->busy_ms from the first call of
 * this wait (count 0); return 0 to give up, and the call fails busy.  A
 * wait longer than the default says so once, on the first such wait: a
 * writer that waits minutes without a word looks hung.
 */
static int
store_busy_handler(void *arg, int count)
{
	struct store	*st = arg;
	double		 now = perfwatch_mono(), waited;

	if (count == 0)
		st->busy_since = now;
	waited = (now - st->busy_since) * 1000;
	if (waited >= (st->busy_stop != NULL && *st->busy_stop ?
	    STORE_BUSY_MS : st->busy_ms))
		return 0;
	if (waited >= STORE_BUSY_MS && !st->busy_said) {
		st->busy_said = 1;
		log_warnx("%s: another process holds it locked; waiting up to "
		    "%d s for it to let go", st->path, st->busy_ms / 1000);
	}
	sqlite3_sleep(count < 10 ? 1 + count * 2 : 25);
	return 1;
}

/*
 * Wait up to ms, not the default STORE_BUSY_MS, for a lock that another
 * process holds: for a writer with something it cannot make again, as a
 * run's samples once measured, which a long import (one transaction for
 * the whole file) would otherwise see refused.  Once *stop (NULL: never)
 * is set, by a signal to end, the default wait is back: the writer has
 * been asked to be done.
 */
void
store_busy_wait(struct store *st, int ms, const volatile sig_atomic_t *stop)
{
	st->busy_ms = ms > STORE_BUSY_MS ? ms : STORE_BUSY_MS;
	st->busy_stop = stop;
}

/*
 * Wait at most ms (0: not at all) for a lock that another process holds,
 * in place of the wait in force, which is returned for the caller to put
 * back.  For a caller that must not stall and can try again later:
 * perfwatchd's event loop, behind an import that may hold the write lock
 * for minutes.
 */
int
store_busy_limit(struct store *st, int ms)
{
	int	was = st->busy_ms;

	st->busy_ms = ms > 0 ? ms : 0;
	return was;
}

/*
 * SQLite starts a statement: a failure kept by store_rollback() is no
 * longer the connection's last.
 */
static int
store_stmt_starts(unsigned int type, void *arg, void *stmt, void *sql)
{
	struct store	*st = arg;

	(void)type;
	(void)stmt;
	(void)sql;
	st->kept_code = 0;
	return 0;
}

/* SQLite's side of name_cmp: COLLATE name, for lists a reader reads. */
static int
store_collate_name(void *arg, int la, const void *a, int lb, const void *b)
{
	(void)arg;
	return name_ncmp(a, (size_t)la, b, (size_t)lb);
}

/*
 * Whether path lies on a file system mounted read-only (a snapshot, a
 * backup mounted to be looked at): nothing can write it, this process
 * nor any other.
 */
static int
store_on_rdonly_fs(const char *path)
{
	struct statvfs	sv;

	return statvfs(path, &sv) == 0 && (sv.f_flag & ST_RDONLY) != 0;
}

/*
 * Whether the write-ahead log and the rollback journal beside path are
 * absent or empty: the file itself holds the whole database, and no
 * transaction cut short is to be undone in it.
 */
static int
store_logs_empty(const char *path)
{
	static const char *const side[] = { "-wal", "-journal" };
	struct stat	 sb;
	char		*log;
	size_t		 i;
	int		 empty = 1;

	for (i = 0; i < nitems(side) && empty; i++) {
		xasprintf(&log, "%s%s", path, side[i]);
		empty = stat(log, &sb) == -1 ? errno == ENOENT :
		    sb.st_size == 0;
		free(log);
	}
	return empty;
}

/*
 * The URI that opens path as immutable: SQLite takes no lock and makes
 * no -shm, and reads a WAL-mode file where neither can be made.  Every
 * byte but the unreserved ones and '/' is %-escaped.  Allocated.
 */
static char *
store_immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	char		*uri, *q;

	uri = xmalloc(strlen(path) * 3 + sizeof("file:?immutable=1"));
	q = uri + sprintf(uri, "file:");
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("-._~/", *p) != NULL)
			*q++ = (char)*p;
		else {
			*q++ = '%';
			*q++ = hex[*p >> 4];
			*q++ = hex[*p & 15];
		}
	}
	strcpy(q, "?immutable=1");
	return uri;
}

/*
 * Whether the open of st failed for want of space on the file system: a
 * -shm file it could not give its size (or a -wal it could not make).
 * A quota reached is the same.
 */
static int
store_no_space(struct store *st)
{
	int	code = sqlite3_errcode(st->db) & 0xff;
	int	err = sqlite3_system_errno(st->db);

	if (code != SQLITE_IOERR && code != SQLITE_FULL &&
	    code != SQLITE_CANTOPEN)
		return 0;
#ifdef EDQUOT
	if (err == EDQUOT)
		return 1;
#endif
	return err == ENOSPC;
}

/* How store_open_flags opens a file. */
enum store_how {
	STORE_SHARED,		/* as SQLite does: -shm shared by all */
	STORE_READER,		/* the same, else STORE_EXCLUSIVE if full */
	STORE_IMMUTABLE,	/* read-only, no lock, no -shm */
	STORE_EXCLUSIVE		/* an exclusive lock and no -shm; no writes */
};

/*
 * Open path with the given SQLite flags and check what the file is;
 * how says in which way (enum store_how).
 */
static struct store *store_open_flags(const char *, int, enum store_how,
		    char **);

static struct store *
store_open_once(const char *path, int flags, enum store_how how,
    char **cause, int *moved)
{
	struct store	*st;
	char		*uri = NULL;
	int		 version, appid, objects, err, busy, writer = 0;
	int		 immutable = how == STORE_IMMUTABLE, gone = 0;

	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	if (immutable) {
		flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
		uri = store_immutable_uri(path);
	}
	st->readonly = (flags & SQLITE_OPEN_READONLY) != 0;
	st->runlock_fd = -1;
	/*
	 * A store is used by one thread only (db.oltp's workers open their
	 * own connections), so SQLite's per-call mutexes are pure cost: a
	 * tenth of check --latest's instructions on bench/store's history.
	 */
	err = sqlite3_open_v2(uri != NULL ? uri : path, &st->db,
	    flags | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (err != SQLITE_OK) {
		/* "unable to open database file": the system says why. */
		err = st->db != NULL ? sqlite3_system_errno(st->db) : 0;
		xasprintf(cause, "%s: cannot open database: %s%s%s", path,
		    st->db != NULL ? sqlite3_errmsg(st->db) : "out of memory",
		    err != 0 ? ": " : "", err != 0 ? strerror(err) : "");
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	st->busy_ms = STORE_BUSY_MS;
	sqlite3_busy_handler(st->db, store_busy_handler, st);
	if (sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, store_stmt_starts,
	    st) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	if (sqlite3_create_collation(st->db, "name", SQLITE_UTF8, NULL,
	    store_collate_name) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	/*
	 * Exclusive before the first read, so that SQLite keeps the log's
	 * index in this process: the lock is taken at that read, and only
	 * while nobody else has the file open (each holds a shared lock on
	 * it as long as it does).  The checkpoint at close would write.
	 */
	if (how == STORE_EXCLUSIVE && (sqlite3_db_config(st->db,
	    SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL) != SQLITE_OK ||
	    store_exec(st, "PRAGMA locking_mode = EXCLUSIVE") == -1)) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}

	/*
	 * Look before writing anything: this may not be ours to touch.  One
	 * read transaction, so that another process creating the schema
	 * meanwhile cannot show us its tables without its application_id.
	 */
	if (store_exec(st, "BEGIN") == -1 ||
	    store_pragma_int(st, "user_version", &version) == -1 ||
	    store_pragma_int(st, "application_id", &appid) == -1 ||
	    store_schema_objects(st, &objects) == -1 ||
	    store_exec(st, "COMMIT") == -1) {
		/*
		 * A WAL-mode file on a read-only file system cannot be read
		 * the usual way, its -shm cannot be made; but nothing can
		 * write it either, so while its log holds nothing, it is
		 * read as immutable.  The commands that write are refused
		 * as for any file read-only to them.
		 */
		if (!immutable && ((sqlite3_errcode(st->db) & 0xff) ==
		    SQLITE_CANTOPEN ||
		    (sqlite3_errcode(st->db) & 0xff) == SQLITE_READONLY) &&
		    store_on_rdonly_fs(path) && store_logs_empty(path)) {
			store_close(st);
			return store_open_flags(path, flags, STORE_IMMUTABLE,
			    cause);
		}
		/*
		 * A full file system: the -shm cannot be given its size.  A
		 * command that only reads can do without, by keeping every
		 * other process out while it reads.
		 */
		if (how == STORE_READER && store_no_space(st)) {
			store_close(st);
			return store_open_flags(path, flags, STORE_EXCLUSIVE,
			    cause);
		}
		/*
		 * A WAL file that is read-only to us (a member of perfwatchd's
		 * group) can be read only through a -shm file that exists
		 * already: one perfwatchd keeps while it has the file open.
		 */
		if (store_failure(st) == STORE_BUSY)
			/* Not the file's fault: it said "not a readable". */
			xasprintf(cause, "%s: busy, locked by another "
			    "process (%s); try again", path,
			    sqlite3_errmsg(st->db));
		else if (!immutable && ((sqlite3_errcode(st->db) & 0xff) ==
		    SQLITE_CANTOPEN ||
		    (sqlite3_errcode(st->db) & 0xff) == SQLITE_READONLY) &&
		    store_on_rdonly_fs(path))
			/* Not immutable: a log or journal has rows. */
			xasprintf(cause, "%s: on a read-only file system, with "
			    "rows in its write-ahead log or journal beside it, "
			    "which can be read only where files can be made: "
			    "copy the database and the files beside it to a "
			    "writable place", path);
		else if ((sqlite3_extended_errcode(st->db) ==
		    SQLITE_READONLY_DIRECTORY ||
		    sqlite3_extended_errcode(st->db) ==
		    SQLITE_READONLY_CANTINIT) && access(path, W_OK) == 0)
			/*
			 * The file is ours to write, its directory is not:
			 * the -wal and -shm beside it cannot be made, which
			 * a file installed into a directory of root's meets.
			 */
			xasprintf(cause, "%s: this user may write the file "
			    "but not its directory, where its -wal and -shm "
			    "files must be made: let it write the directory",
			    path);
		else if (sqlite3_extended_errcode(st->db) ==
		    SQLITE_READONLY_DIRECTORY ||
		    sqlite3_extended_errcode(st->db) == SQLITE_READONLY_CANTINIT)
			xasprintf(cause, "%s: read-only to this user, and "
			    "reading it needs its -shm file, which only a "
			    "writer can create: read it while perfwatchd "
			    "has it open, or as its owner", path);
		else if (how != STORE_EXCLUSIVE && store_no_space(st))
			/* Only a command that reads can do without. */
			xasprintf(cause, "%s: no space left on its file system "
			    "for the -shm file that its writers share: make "
			    "room", path);
		else if ((sqlite3_errcode(st->db) & 0xff) == SQLITE_IOERR ||
		    (sqlite3_errcode(st->db) & 0xff) == SQLITE_FULL)
			/* The file may be fine: its -shm could not grow. */
			xasprintf(cause, "%s: cannot read it: %s%s%s", path,
			    sqlite3_errmsg(st->db),
			    sqlite3_system_errno(st->db) != 0 ? ": " : "",
			    sqlite3_system_errno(st->db) != 0 ?
			    strerror(sqlite3_system_errno(st->db)) : "");
		else
			xasprintf(cause, "%s: not a readable SQLite database: "
			    "%s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	/*
	 * A file removed while this waited for its first lock (a refused
	 * import undoing the store it made, store_remove_unused) is no
	 * longer the path's: what would be written to it would be lost.
	 */
	if (!immutable && sqlite3_file_control(st->db, "main",
	    SQLITE_FCNTL_HAS_MOVED, &gone) == SQLITE_OK && gone) {
		*moved = 1;
		store_close(st);
		return NULL;
	}
	if (objects > 0 && appid != STORE_APPLICATION_ID) {
		xasprintf(cause, "%s: not a perfwatch database (application_id "
		    "%d); refusing to touch it", path, appid);
		goto fail;
	}
	if (version > STORE_SCHEMA_VERSION) {
		xasprintf(cause, "%s: written by a newer perfwatch (schema "
		    "version %d; this perfwatch knows up to %d); refusing to "
		    "modify it: upgrade perfwatch", path, version,
		    STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (st->readonly) {
		if (version < STORE_SCHEMA_VERSION) {
			xasprintf(cause, "%s: schema version %d is older than "
			    "%d; open it once read-write to migrate it", path,
			    version, STORE_SCHEMA_VERSION);
			goto fail;
		}
	} else if (sqlite3_db_readonly(st->db, "main") == 1) {
		/*
		 * Read-only to this user (or on a read-only file system),
		 * which SQLite opens read-only without a word: read it as it
		 * is.  The switch to WAL is a write, which failed every read
		 * of a file in rollback mode (a copy made by VACUUM INTO) as
		 * "attempt to write a readonly database"; a migration would
		 * fail as one too.
		 */
		if (version < STORE_SCHEMA_VERSION) {
			xasprintf(cause, "%s: read-only to this user, and its "
			    "schema version %d is older than %d: open it once "
			    "as its owner to migrate it", path, version,
			    STORE_SCHEMA_VERSION);
			goto fail;
		}
	} else {
		if (store_wal(st) == -1 ||
		    store_exec(st, "PRAGMA synchronous = NORMAL") == -1 ||
		    store_exec(st, "PRAGMA journal_size_limit = "
		    STORE_WAL_LIMIT_STR) == -1) {
			xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
			goto fail;
		}
		writer = 1;
	}
	if (store_exec(st, "PRAGMA foreign_keys = ON") == -1) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	if (!st->readonly && store_migrate_to(st, STORE_SCHEMA_VERSION, cause) == -1)
		goto fail;
	if (how == STORE_EXCLUSIVE) {
		/* Read, and written by nobody, this process included. */
		if (store_exec(st, "PRAGMA query_only = 1") == -1) {
			xasprintf(cause, "%s: %s", path, sqlite3_errmsg(st->db));
			goto fail;
		}
		log_warnx("%s: no space left on its file system for the -shm "
		    "file readers share: read with other processes kept out",
		    path);
		return st;
	}
	/* Ours, current and writable: a large log left beside it is cut. */
	if (writer) {
		st->wal_shrink = 1;
		store_wal_shrink(st);
	}
	return st;

fail:
	busy = st->db != NULL && store_failure(st) == STORE_BUSY;
	store_close(st);
	errno = busy ? EBUSY : 0;
	return NULL;
}

/*
 * Open path as store_open_once() does, again while the file it opened
 * was removed before it could read it (a few times: each removal is of a
 * file made and then given up by another command).
 */
static struct store *
store_open_flags(const char *path, int flags, enum store_how how,
    char **cause)
{
	struct store	*st;
	int		 tries, moved;

	for (tries = 0;; tries++) {
		moved = 0;
		st = store_open_once(path, flags, how, cause, &moved);
		if (!moved)
			return st;
		if (tries == 3) {
			xasprintf(cause, "%s: removed each time it was opened",
			    path);
			errno = 0;
			return NULL;
		}
	}
}

/*
 * Open (creating if needed) the database at path and migrate it to the
 * current schema.  On error returns NULL with *cause set, and errno
 * EBUSY when another process held the database locked past the busy
 * timeout (to be tried again), else 0.
 */
struct store *
store_open(const char *path, char **cause)
{
	return store_open_flags(path,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, STORE_SHARED, cause);
}

/*
 * Open an existing database as store_open() does, for a command that
 * will only read it.  Where the file system is full and SQLite cannot
 * make the -shm file a WAL database is read through, it is read with an
 * exclusive lock instead (said on stderr), and fails busy while another
 * process has it open; the connection then writes nothing.  Not for a
 * process that keeps the store open (perfwatchd): that lock would keep
 * every other one out for as long.
 */
struct store *
store_open_reader(const char *path, char **cause)
{
	return store_open_flags(path, SQLITE_OPEN_READWRITE, STORE_READER,
	    cause);
}

/* Open an existing, current database for reading only. */
struct store *
store_open_readonly(const char *path, char **cause)
{
	return store_open_flags(path, SQLITE_OPEN_READONLY, STORE_SHARED,
	    cause);
}

void
store_close(struct store *st)
{
	size_t	i;

	if (st == NULL)
		return;
	for (i = 0; i < nitems(st->stmts); i++)
		sqlite3_finalize(st->stmts[i]);
	/*
	 * What this process wrote, a large import, is not left in a log as
	 * large beside the store while perfwatchd keeps it open.
	 */
	if (st->wal_shrink)
		store_wal_shrink(st);
	sqlite3_close(st->db);
	if (st->runlock_fd != -1)
		close(st->runlock_fd);
	free(st->kept_msg);
	free(st->path);
	free(st);
}

/*
 * Remove the database st has open, and the files beside it, if no other
 * process has it open and it holds no run; close st either way.  For a
 * command that made the file and then added nothing (an import refused):
 * another that opened the file meanwhile (an import or a run waiting for
 * the write lock) would otherwise commit its runs into a file taken from
 * the directory, and lose them.  Each WAL connection holds a shared lock
 * on the file while it has it open, so the exclusive lock taken here, at
 * once or not at all, says nobody else has; a process that opened the
 * file just before and waits for its first lock finds it moved, and opens
 * the path again (store_open_flags).  Returns 1 when the files were
 * removed, 0 when kept.
 */
int
store_remove_unused(struct store *st)
{
	static const char *const side[] = { "-wal", "-shm", "-journal" };
	sqlite3_stmt	*stmt;
	char		*p;
	size_t		 i;
	int		 runs = 1, removed = 0;

	st->wal_shrink = 0;
	store_busy_limit(st, 0);
	if (sqlite3_db_config(st->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
	    (int *)NULL) != SQLITE_OK ||
	    store_exec(st, "PRAGMA locking_mode = EXCLUSIVE") == -1 ||
	    store_exec(st, "BEGIN EXCLUSIVE") == -1)
		goto out;
	if (sqlite3_prepare_v2(st->db, "SELECT EXISTS (SELECT 1 FROM runs)",
	    -1, &stmt, NULL) == SQLITE_OK) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			runs = sqlite3_column_int(stmt, 0);
		sqlite3_finalize(stmt);
	}
	if (runs == 0) {
		/*
		 * Removed under the lock; the close then writes nothing
		 * back and removes nothing by name (no checkpoint), which
		 * could be another process's new file by then.
		 */
		if (unlink(st->path) == -1 && errno != ENOENT)
			log_warn("%s", st->path);
		for (i = 0; i < nitems(side); i++) {
			xasprintf(&p, "%s%s", st->path, side[i]);
			if (unlink(p) == -1 && errno != ENOENT)
				log_warn("%s", p);
			free(p);
		}
		removed = 1;
	}
out:
	store_close(st);
	return removed;
}

/*
 * Return the prepared statement number id, preparing it from sql the first
 * time.  Statements are reset before they are handed out again.
 */
sqlite3_stmt *
store_stmt(struct store *st, enum store_stmt_id id, const char *sql)
{
	sqlite3_stmt	*stmt = st->stmts[id];

	if (stmt == NULL) {
		if (sqlite3_prepare_v3(st->db, sql, -1,
		    SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK) {
			log_warnx("%s: prepare: %s", st->path,
			    sqlite3_errmsg(st->db));
			return NULL;
		}
		st->stmts[id] = stmt;
	} else {
		sqlite3_reset(stmt);
		sqlite3_clear_bindings(stmt);
	}
	return stmt;
}

/*
 * Begin a write transaction, under the write lock.  A long-lived process
 * (perfwatchd) may find that a newer perfwatch migrated the file since it
 * opened it (an upgrade that replaced the binaries before the daemon was
 * restarted): the schema it would write is then not the file's.  The
 * version is read here, under the lock, so that no migration can come
 * between the look and the write; reading it costs a look at page 1,
 * which the lock has just checked for change anyway.  Such a store is
 * not written again: the transaction is rolled back, -1 returned with
 * the reason in store_errmsg() and the version in store_newer_schema().
 * A lock that another process held past the busy timeout is not logged
 * here: every caller says so itself, with what it was doing and "try
 * again" (store_busy()), and the store's bare "database is locked" came
 * out before each such message.
 */
int
store_begin(struct store *st)
{
	char	*err = NULL;
	int	 version, rc;

	if ((rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL,
	    &err)) != SQLITE_OK) {
		if ((rc & 0xff) == SQLITE_BUSY)
			log_debug("%s: %s", st->path, err != NULL ? err : "?");
		else
			log_warnx("%s: %s", st->path, err != NULL ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	if (store_pragma_int(st, "user_version", &version) == -1) {
		(void)store_rollback(st);
		return -1;
	}
	if (version <= STORE_SCHEMA_VERSION)
		return 0;
	(void)store_exec(st, "ROLLBACK");
	st->newer_schema = version;
	free(st->kept_msg);
	xasprintf(&st->kept_msg, "the store was migrated to schema %d by a "
	    "newer perfwatch; this one knows %d", version,
	    STORE_SCHEMA_VERSION);
	st->kept_code = SQLITE_ERROR;
	return -1;
}

/*
 * The schema version, above this perfwatch's, that store_begin() found
 * the store migrated to; 0 while none was found.
 */
int
store_newer_schema(struct store *st)
{
	return st->newer_schema;
}

/*
 * Commit, without a word: every caller says why it failed, with what it
 * was committing (the import, the run checked), and the bare reason
 * logged here first said it twice.
 */
int
store_commit(struct store *st)
{
	return sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ?
	    0 : -1;
}

/*
 * Roll back the open transaction, if any.  A caller rolls back after a
 * statement failed and reads why (store_failure(), store_errmsg()) after
 * it returns; ROLLBACK would leave "not an error" in its place, and a
 * busy store would not be told from a broken one.  That failure is kept
 * until the next statement starts.  Should the ROLLBACK fail, its own
 * error is the one that stands.
 */
int
store_rollback(struct store *st)
{
	char	*msg = NULL;
	int	 code;

	if (sqlite3_get_autocommit(st->db))
		return 0;
	code = sqlite3_extended_errcode(st->db);
	if (store_code_failure(code) != STORE_FOUND_NONE)
		msg = xstrdup(sqlite3_errmsg(st->db));
	if (store_exec(st, "ROLLBACK") == -1) {
		free(msg);
		return -1;
	}
	if (msg != NULL) {
		free(st->kept_msg);
		st->kept_msg = msg;
		st->kept_code = code;
	}
	return 0;
}

/*
 * Open a read transaction for a long series of queries, unless one is
 * open already: each query then sees the same snapshot, and SQLite takes
 * its shared lock and checks its cache once, where a query on its own
 * does both every time (a quarter of `perfwatch changes` over a long
 * history was spent so).  In WAL mode a reader blocks no writer.  Return
 * 1 when it began one (pass that to store_read_end), 0 when one was open,
 * -1 on error.
 */
int
store_read_begin(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		return 0;
	return store_exec(st, "BEGIN") == -1 ? -1 : 1;
}

/*
 * End the read transaction store_read_begin began, if it did.  A read
 * whose last statement failed ends with a rollback, which keeps why for
 * the caller (store_failure(), store_errmsg()): COMMIT would leave "not
 * an error" in its place, and a store that failed would be told as a
 * history with nothing to find.  A read has nothing to lose by it.
 */
void
store_read_end(struct store *st, int began)
{
	if (began != 1 || sqlite3_get_autocommit(st->db))
		return;
	if (store_code_failure(sqlite3_extended_errcode(st->db)) !=
	    STORE_FOUND_NONE) {
		(void)store_rollback(st);
		return;
	}
	if (store_exec(st, "COMMIT") == -1)
		log_warnx("%s: ending a read: %s", st->path,
		    sqlite3_errmsg(st->db));
}

int
store_user_version(struct store *st)
{
	int	v;

	if (store_pragma_int(st, "user_version", &v) == -1)
		return -1;
	return v;
}

/*
 * Whether the failure a rollback kept is the last: no statement has
 * started since, nor failed to prepare (which starts none).
 */
static int
store_kept(struct store *st)
{
	return st->kept_code != 0 && sqlite3_errcode(st->db) == SQLITE_OK;
}

const char *
store_errmsg(struct store *st)
{
	return store_kept(st) ? st->kept_msg : sqlite3_errmsg(st->db);
}

/*
 * SQLite keeps the outcome of a statement's last step until the next call
 * on the connection: a lookup ends with the reset or finalize of its
 * statement, which leaves SQLITE_OK behind when the step found no row,
 * and the error when it failed.  A lookup must therefore make no other
 * call on the connection after its statement when it returns -1; a
 * function that rolls back after a failure may (store_rollback keeps it).
 */
enum store_failure
store_failure(struct store *st)
{
	return store_code_failure(store_kept(st) ? st->kept_code :
	    sqlite3_errcode(st->db));
}

/* What SQLite's (extended) result code says of a call. */
static enum store_failure
store_code_failure(int code)
{
	switch (code & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return STORE_FOUND_NONE;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_BUSY;
	case SQLITE_FULL:
		return STORE_FULL;
	default:
		return STORE_FAILED;
	}
}

/*
 * Whether the last statement failed because another connection held a
 * lock on the database past the busy timeout: a condition that passes,
 * for the caller to try again later, not a fault of the store.
 */
int
store_busy(struct store *st)
{
	return store_failure(st) == STORE_BUSY;
}

/*
 * Whether the store can be written: SQLite opens a file that is
 * read-only to this user read-only, without a word, and says so only at
 * the first write.
 */
int
store_writable(struct store *st)
{
	return sqlite3_db_readonly(st->db, "main") == 0;
}

const char *
store_path(struct store *st)
{
	return st->path;
}

/* Run PRAGMA integrity_check; 0 when the answer is "ok". */
int
store_integrity_check(struct store *st, char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*res;
	int		 rc = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA integrity_check", -1, &stmt,
	    NULL) != SQLITE_OK) {
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return -1;
	}
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		res = (const char *)sqlite3_column_text(stmt, 0);
		if (res != NULL && strcmp(res, "ok") == 0)
			rc = 0;
		else
			xasprintf(cause, "%s", res != NULL ? res : "?");
	} else
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
	sqlite3_finalize(stmt);
	return rc;
}
