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
 * - Each function is one statement in autocommit mode, or one short
 *   transaction (store_outbox_split): nothing here holds the write lock
 *   while a sink talks to a server.
 * - A row is for the sink's recipients (recipients NULL) or for a list
 *   of its own.  An SMTP server that takes a message for some recipients
 *   and says "later" to others makes two rows of one: the first is
 *   delivered, and a new one, for the others only, carries the same
 *   payload, creation time and message (split_from), with attempts and
 *   backoff of its own, in the transaction that marks the first
 *   delivered: those recipients are neither lost nor sent it twice.
 * - A sink hears of an alert's states in the order they were queued: a
 *   row waits while a row queued before it for the same alert and sink
 *   is pending (OUTBOX_HELD).  One failed attempt put the "suspected" of
 *   an alert behind its backoff while its "confirmed" and "resolved"
 *   went out, and a receiver ended on "suspected".  A split row stands
 *   where the row it came from stood, and holds nothing back: only some
 *   recipients wait for it, and the others heard of that state.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "log.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

/*
 * The rows that hold pending row outbox back, so that its sink hears of
 * an earlier state of its alert first: the pending rows of the same
 * alert and sink, not splits, queued before the state outbox carries
 * (its split_from's, for a split).  more narrows them further.
 */
#define OUTBOX_HOLDERS(more) \
	"FROM outbox p WHERE p.alert = outbox.alert" \
	" AND p.sink = outbox.sink AND p.split_from IS NULL" \
	" AND p.id < coalesce(outbox.split_from, outbox.id)" \
	" AND p.delivered_at IS NULL AND p.failed_at IS NULL" more

/* Whether pending row outbox waits for an earlier state of its alert. */
#define OUTBOX_HELD	"EXISTS (SELECT 1 " OUTBOX_HOLDERS("") ")"

/*
 * The last column, held_by, is the first row that holds this one back
 * (NULL when none): it is what a listing says the row waits for.
 */
#define OUTBOX_COLUMNS \
	"id, alert, sink, payload, created, attempts, next_attempt, " \
	"delivered_at, failed_at, last_error, recipients, split_from, " \
	"(SELECT min(p.id) " OUTBOX_HOLDERS("") ")"

/* An integer column, 0 for NULL. */
static int64_t
outbox_col_id(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return 0;
	return sqlite3_column_int64(stmt, col);
}

/*
 * The recipients column: a JSON array of addresses, or NULL for the
 * sink's list.  A value that is not one (nothing but this file writes
 * it) is said and read as NULL.
 */
static char **
outbox_recipients_parse(struct store *st, int64_t id, const char *text)
{
	json_t	*a, *v;
	char	**out;
	size_t	 i;

	if (text == NULL)
		return NULL;
	a = json_loads(text, 0, NULL);
	if (!json_is_array(a)) {
		log_warnx("%s: outbox row %lld: recipients are not a list; "
		    "the sink's are used", st->path, (long long)id);
		json_decref(a);
		return NULL;
	}
	out = xcalloc(json_array_size(a) + 1, sizeof(*out));
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			log_warnx("%s: outbox row %lld: a recipient is not a "
			    "string; the sink's are used", st->path,
			    (long long)id);
			store_outbox_recipients_free(out);
			json_decref(a);
			return NULL;
		}
		out[i] = xstrdup(json_string_value(v));
	}
	json_decref(a);
	return out;
}

/* A list of recipients as the recipients column keeps it. */
static char *
outbox_recipients_text(char *const *list)
{
	json_t	*a;
	char	*text;
	size_t	 i;

	a = json_array();
	for (i = 0; list[i] != NULL; i++)
		json_array_append_new(a, json_string(list[i]));
	if ((text = json_dumps(a, JSON_COMPACT)) == NULL)
		fatalx("json_dumps failed");
	json_decref(a);
	return text;
}

void
store_outbox_recipients_free(char **list)
{
	size_t	i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		free(list[i]);
	free(list);
}

/* Fill o from a row of OUTBOX_COLUMNS. */
static void
outbox_from_row(struct store *st, sqlite3_stmt *stmt, struct store_outbox *o)
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
	o->recipients = outbox_recipients_parse(st, o->id,
	    (const char *)sqlite3_column_text(stmt, 10));
	o->split_from = outbox_col_id(stmt, 11);
	/* Only a pending row waits. */
	if (o->delivered_at == 0 && o->failed_at == 0)
		o->held_by = outbox_col_id(stmt, 12);
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
		outbox_from_row(st, stmt, &o[n++]);
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
 * every pending row), in the order their states were queued.  A row held
 * behind an earlier one that is not due is left out; one held behind an
 * earlier one that is due comes after it, and its claim waits for that
 * one's outcome (store_outbox_claim).
 */
int
store_outbox_due(struct store *st, int64_t due, struct store_outbox **out,
    size_t *nout)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "SELECT " OUTBOX_COLUMNS " FROM outbox"
	    " WHERE delivered_at IS NULL AND failed_at IS NULL"
	    " AND next_attempt <= ?1 AND NOT EXISTS (SELECT 1 "
	    OUTBOX_HOLDERS(" AND p.next_attempt > ?1") ")"
	    " ORDER BY coalesce(split_from, id), id");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, due);
	return outbox_collect(st, stmt, out, nout);
}

/*
 * Claim pending row id for one attempt if it is due by due and not held
 * behind an earlier state of its alert (OUTBOX_HELD): count the attempt
 * and move its next attempt to next_attempt, which is when it is tried
 * again should this attempt never report back.  0 when claimed, 1 when
 * the row is no longer pending, not due (another flush has it) or held
 * (the earlier row's attempt failed), -1 on error.
 */
int
store_outbox_claim(struct store *st, int64_t id, int64_t due,
    int64_t next_attempt)
{
	sqlite3_stmt	*stmt;

	stmt = outbox_prepare(st, "UPDATE outbox SET attempts = attempts + 1,"
	    " next_attempt = ?1 WHERE id = ?2 AND delivered_at IS NULL AND"
	    " failed_at IS NULL AND next_attempt <= ?3 AND NOT " OUTBOX_HELD);
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
 * (or why there was none) and next_attempt when to try again.  With
 * recipients, the row is for those from now on (the others refused it
 * for good); NULL leaves its list as it is.  0, 1 if the row was not
 * pending, or -1.
 */
int
store_outbox_retry(struct store *st, int64_t id, int64_t next_attempt,
    const char *error, char *const *recipients)
{
	sqlite3_stmt	*stmt;
	char		*list = NULL;
	int		 rc;

	stmt = outbox_prepare(st, "UPDATE outbox SET next_attempt = ?1,"
	    " last_error = ?2, recipients = coalesce(?4, recipients)"
	    " WHERE id = ?3 AND delivered_at IS NULL AND failed_at IS NULL");
	if (stmt == NULL)
		return -1;
	if (recipients != NULL)
		list = outbox_recipients_text(recipients);
	sqlite3_bind_int64(stmt, 1, next_attempt);
	sqlite3_bind_text(stmt, 2, error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 3, id);
	if (list != NULL)
		sqlite3_bind_text(stmt, 4, list, -1, SQLITE_STATIC);
	rc = outbox_update(st, stmt, "recording a failed attempt");
	free(list);
	return rc;
}

/*
 * Mark pending row id delivered at when to some of its recipients, and
 * queue a row for the others (left, not empty), which said "later":
 * the same alert, sink, payload and creation time, the message of id
 * (its split_from, or id), one attempt made, the next at next_attempt,
 * error (their answer) as its last error.  One transaction: both or
 * neither.  0 with *newid set, 1 if id was not pending (nothing is
 * done), -1 on error.
 */
int
store_outbox_split(struct store *st, int64_t id, int64_t when,
    char *const *left, int64_t next_attempt, const char *error,
    int64_t *newid)
{
	sqlite3_stmt	*stmt;
	char		*list;
	int		 rc;

	if (store_begin(st) == -1)
		return -1;
	stmt = outbox_prepare(st, "UPDATE outbox SET delivered_at = ?1"
	    " WHERE id = ?2 AND delivered_at IS NULL AND failed_at IS NULL");
	if (stmt == NULL) {
		store_rollback(st);
		return -1;
	}
	sqlite3_bind_int64(stmt, 1, when);
	sqlite3_bind_int64(stmt, 2, id);
	if ((rc = outbox_update(st, stmt, "marking delivered")) != 0) {
		store_rollback(st);
		return rc;
	}
	stmt = outbox_prepare(st, "INSERT INTO outbox (alert, sink, payload,"
	    " created, attempts, next_attempt, last_error, recipients,"
	    " split_from) SELECT alert, sink, payload, created, 1, ?1, ?2, ?3,"
	    " coalesce(split_from, id) FROM outbox WHERE id = ?4");
	if (stmt == NULL) {
		store_rollback(st);
		return -1;
	}
	list = outbox_recipients_text(left);
	sqlite3_bind_int64(stmt, 1, next_attempt);
	sqlite3_bind_text(stmt, 2, error, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, list, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 4, id);
	rc = outbox_update(st, stmt, "queueing the recipients left");
	free(list);
	if (rc != 0) {
		store_rollback(st);
		return -1;
	}
	*newid = sqlite3_last_insert_rowid(st->db);
	if (store_commit(st) == -1) {
		log_warnx("%s: outbox: %s", st->path, sqlite3_errmsg(st->db));
		store_rollback(st);
		return -1;
	}
	return 0;
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
		outbox_from_row(st, stmt, o);
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
 * nothing is pending, -1 on error.  A row held behind an earlier state
 * of its alert is due when that one is (a held row past its time would
 * wake a flush that can do nothing, again and again).
 */
int
store_outbox_next_due(struct store *st, int64_t *when)
{
	sqlite3_stmt	*stmt;
	int		 rc, found = 0;

	stmt = outbox_prepare(st, "SELECT min(next_attempt) FROM outbox"
	    " WHERE delivered_at IS NULL AND failed_at IS NULL"
	    " AND NOT " OUTBOX_HELD);
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
	store_outbox_recipients_free(o->recipients);
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
