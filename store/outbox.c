/*
 * The outbox, delivery side: every SQL statement of notify/.
 *
 * detect/ queues rows (verdicts.c, store_outbox_add) in the transaction
 * that writes its verdicts; a flush (notify/) takes the rows that are
 * due, claims each one, hands it to its sink and records the outcome.
 *
 * Invariants:
 * - A row is pending while delivered_at and failed_at are both NULL; it
 *   leaves that state once, by store_outbox_delivered or
 *   store_outbox_fail, and never comes back.
 * - A claim is one UPDATE that counts the attempt and moves next_attempt
 *   on before anything is sent, so a flush that dies in the middle of a
 *   delivery leaves a row that is retried later, never one that is lost
 *   or retried in a tight loop; two flushes cannot both claim a row for
 *   the same due time.
 * - Each function is one statement in autocommit mode: nothing here holds
 *   the write lock while a sink talks to a server.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "log.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

#define OUTBOX_COLUMNS \
	"id, alert, sink, payload, created, attempts, next_attempt, " \
	"delivered_at, failed_at, last_error"

/* An integer column, 0 for NULL. */
static int64_t
outbox_col_id(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return 0;
	return sqlite3_column_int64(stmt, col);
}

/* Fill o from a row of OUTBOX_COLUMNS. */
static void
outbox_from_row(sqlite3_stmt *stmt, struct store_outbox *o)
{
	o->id = sqlite3_column_int64(stmt, 0);
	o->alert = outbox_col_id(stmt, 1);
	o->sink = store_col_strdup(stmt, 2);
	o->payload = store_col_strdup(stmt, 3);
	o->created = sqlite3_column_int64(stmt, 4);
	o->attempts = sqlite3_column_int(stmt, 5);
	o->next_attempt = sqlite3_column_int64(stmt, 6);
	o->delivered_at = outbox_col_id(stmt, 7);
	o->failed_at = outbox_col_id(stmt, 8);
	o->last_error = store_col_strdup(stmt, 9);
}

/* Collect the rows of a prepared query into *out, then finalize it. */
static int
outbox_collect(struct store *st, sqlite3_stmt *stmt,
    struct store_outbox **out, size_t *nout)
{
	struct store_outbox	*o = NULL;
	size_t			 n = 0, cap = 0;
	int			 rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			o = xreallocarray(o, cap, sizeof(*o));
		}
		memset(&o[n], 0, sizeof(o[n]));
		outbox_from_row(stmt, &o[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: outbox: %s", st->path, sqlite3_errmsg(st->db));
		store_outbox_free(o, n);
		return -1;
	}
	*out = o;
	*nout = n;
	return 0;
}

/* Prepare sql, or log why not. */
static sqlite3_stmt *
outbox_prepare(struct store *st, const char *sql)
{
	sqlite3_stmt	*stmt;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		log_warnx("%s: outbox: %s", st->path, sqlite3_errmsg(st->db));
		return NULL;
	}
	return stmt;
}

/*
 * Run an UPDATE that was prepared and bound; 0 if it changed a row, 1 if
 * it changed none, -1 on error.
 */
static int
outbox_update(struct store *st, sqlite3_stmt *stmt, const char *what)
{
	int	rc, changed;

	rc = sqlite3_step(stmt);
	changed = sqlite3_changes(st->db);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: outbox: %s: %s", st->path, what,
		    sqlite3_errmsg(st->db));
		return -1;
	}
	return changed > 0 ? 0 : 1;
}

/*
 * The pending rows whose next attempt is at or before due (INT64_MAX:
 * every pending row), in the order they became due, then queued.
 */
int
store_outbox_due(struct store *st, int64_t due, struct store_outbox **out,
    size_t *nout)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "SELECT " OUTBOX_COLUMNS " FROM outbox"
	    " WHERE delivered_at IS NULL AND failed_at IS NULL"
	    " AND next_attempt <= ? ORDER BY next_attempt, id");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, due);
	return outbox_collect(st, stmt, out, nout);
}

/*
 * Claim pending row id for one attempt if it is due by due: count the
 * attempt and move its next attempt to next_attempt, which is when it is
 * tried again should this attempt never report back.  0 when claimed, 1
 * when the row is no longer pending or not due (another flush has it),
 * -1 on error.
 */
int
store_outbox_claim(struct store *st, int64_t id, int64_t due,
    int64_t next_attempt)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "UPDATE outbox SET attempts = attempts + 1,"
	    " next_attempt = ?1 WHERE id = ?2 AND delivered_at IS NULL AND"
	    " failed_at IS NULL AND next_attempt <= ?3");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, next_attempt);
	sqlite3_bind_int64(stmt, 2, id);
	sqlite3_bind_int64(stmt, 3, due);
	return outbox_update(st, stmt, "claim");
}

/*
 * Mark pending row id delivered at when; last_error keeps the answer of
 * the last failed attempt, if any.  0, 1 if the row was not pending, or
 * -1.
 */
int
store_outbox_delivered(struct store *st, int64_t id, int64_t when)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "UPDATE outbox SET delivered_at = ?1"
	    " WHERE id = ?2 AND delivered_at IS NULL AND failed_at IS NULL");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, when);
	sqlite3_bind_int64(stmt, 2, id);
	return outbox_update(st, stmt, "marking delivered");
}

/*
 * Record a failed attempt of pending row id: error is the server's answer
 * (or why there was none) and next_attempt when to try again.  0, 1 if
 * the row was not pending, or -1.
 */
int
store_outbox_retry(struct store *st, int64_t id, int64_t next_attempt,
    const char *error)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "UPDATE outbox SET next_attempt = ?1,"
	    " last_error = ?2 WHERE id = ?3 AND delivered_at IS NULL AND"
	    " failed_at IS NULL");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, next_attempt);
	sqlite3_bind_text(stmt, 2, error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 3, id);
	return outbox_update(st, stmt, "recording a failed attempt");
}

/*
 * Give up on pending row id at when, keeping error (the server's last
 * answer).  0, 1 if the row was not pending, or -1.
 */
int
store_outbox_fail(struct store *st, int64_t id, int64_t when,
    const char *error)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "UPDATE outbox SET failed_at = ?1,"
	    " last_error = ?2 WHERE id = ?3 AND delivered_at IS NULL AND"
	    " failed_at IS NULL");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, when);
	sqlite3_bind_text(stmt, 2, error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 3, id);
	return outbox_update(st, stmt, "marking failed");
}

/* Load row id into o; -1 when there is none. */
int
store_outbox_get(struct store *st, int64_t id, struct store_outbox *o)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(o, 0, sizeof(*o));
	stmt = outbox_prepare(st, "SELECT " OUTBOX_COLUMNS " FROM outbox"
	    " WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		outbox_from_row(stmt, o);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * The outbox for a listing: the pending rows by next attempt, or with
 * all every row, newest first; limit 0 for no limit.
 */
int
store_outbox_list(struct store *st, int all, size_t limit,
    struct store_outbox **out, size_t *nout)
{
	sqlite3_stmt	*stmt;

	if (all)
		stmt = outbox_prepare(st, "SELECT " OUTBOX_COLUMNS " FROM outbox"
		    " ORDER BY id DESC LIMIT ?");
	else
		stmt = outbox_prepare(st, "SELECT " OUTBOX_COLUMNS " FROM outbox"
		    " WHERE delivered_at IS NULL AND failed_at IS NULL"
		    " ORDER BY next_attempt, id LIMIT ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, limit > 0 && limit <= INT64_MAX ?
	    (int64_t)limit : -1);
	return outbox_collect(st, stmt, out, nout);
}

/*
 * When the earliest pending row is next due: 0 with *when set, 1 when
 * nothing is pending, -1 on error.
 */
int
store_outbox_next_due(struct store *st, int64_t *when)
{
	sqlite3_stmt	*stmt;
	int		 rc, found = 0;

	stmt = outbox_prepare(st, "SELECT min(next_attempt) FROM outbox"
	    " WHERE delivered_at IS NULL AND failed_at IS NULL");
	if (stmt == NULL)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
		*when = sqlite3_column_int64(stmt, 0);
		found = 1;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW) {
		log_warnx("%s: outbox: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	return found ? 0 : 1;
}

void
store_outbox_clear(struct store_outbox *o)
{
	free(o->sink);
	free(o->payload);
	free(o->last_error);
	memset(o, 0, sizeof(*o));
}

void
store_outbox_free(struct store_outbox *o, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_outbox_clear(&o[i]);
	free(o);
}
