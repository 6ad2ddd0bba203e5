/*
 * Baselines, verdicts, alerts and the outbox: every SQL statement of the
 * verdict engine (detect/).
 *
 * The engine calls these inside its own transaction (store_begin ...
 * store_commit), so that the verdicts of a run, the alert changes they
 * cause and the outbox rows that tell about them are written together or
 * not at all.  Nothing here begins or commits, except store_baseline_set
 * and store_baseline_delete, each a transaction of its own.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "log.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

/*
 * Persistent statement slots, taken from the top of the table so that
 * they never meet the named ones that grow from the bottom.
 */
enum verdicts_stmt {
	VST_BASELINE_FIND,
	VST_BASELINE_RUNS,
	VST_VERDICT_DELETE,
	VST_VERDICT_INSERT,
	VST_ALERT_INSERT,
	VST_ALERT_UPDATE,
	VST_ALERT_GET,
	VST_ALERTS_METRIC,
	VST_OUTBOX_INSERT,
	VST_MAX
};
#define VST_SLOT(k)	((enum store_stmt_id)(STMT_MAX - VST_MAX + (k)))

_Static_assert(STMT_MAX - VST_MAX >= STMT_MAX_BASE,
    "store_int.h: not enough free statement slots for verdicts.c");

#define ALERT_COLUMNS \
	"id, host, metric, first_bad_run, last_good_run, last_run, " \
	"opened_run, confirmed_run, state, direction, change_pct, opened, " \
	"updated, attribution"
#define ALERT_COLUMNS_BUT_ATTRIBUTION \
	"id, host, metric, first_bad_run, last_good_run, last_run, " \
	"opened_run, confirmed_run, state, direction, change_pct, opened, " \
	"updated"

/* Bind a double, or NULL for NAN. */
static void
bind_real(sqlite3_stmt *stmt, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(stmt, col);
	else
		sqlite3_bind_double(stmt, col, v);
}

/* Bind a row id, or NULL for 0. */
static void
bind_id(sqlite3_stmt *stmt, int col, int64_t id)
{
	if (id == 0)
		sqlite3_bind_null(stmt, col);
	else
		sqlite3_bind_int64(stmt, col, id);
}

/* Bind text, or NULL. */
static void
bind_str(sqlite3_stmt *stmt, int col, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(stmt, col);
	else
		sqlite3_bind_text(stmt, col, s, -1, SQLITE_STATIC);
}

/* A real column, NAN for NULL. */
static double
col_real(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(stmt, col);
}

/* Step a statement that returns no rows; 0 when it completed. */
static int
step_done(struct store *st, sqlite3_stmt *stmt, const char *what)
{
	int	rc;

	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* The runs of baseline id, in run start order, into b. */
static int
baseline_load_runs(struct store *st, struct store_baseline *b)
{
	sqlite3_stmt	*stmt;
	size_t		 cap = 0;
	int		 rc;

	stmt = store_stmt(st, VST_SLOT(VST_BASELINE_RUNS),
	    "SELECT br.run FROM baseline_runs br JOIN runs r ON r.id = br.run"
	    " WHERE br.baseline = ? ORDER BY r.started, r.id");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, b->id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (b->nruns == cap) {
			cap = cap ? cap * 2 : 16;
			b->runs = xreallocarray(b->runs, cap, sizeof(*b->runs));
		}
		b->runs[b->nruns++] = sqlite3_column_int64(stmt, 0);
	}
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Create or replace the baseline called name with runs[0..nruns), in one
 * transaction.  A run that does not exist is an error (*cause set).
 */
int
store_baseline_set(struct store *st, const char *name, const int64_t *runs,
    size_t nruns, int64_t created, char **cause)
{
	sqlite3_stmt	*stmt = NULL;
	int64_t		 id;
	size_t		 i;

	if (store_begin(st) == -1) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	if (sqlite3_prepare_v2(st->db, "DELETE FROM baselines WHERE name = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	if (sqlite3_prepare_v2(st->db, "INSERT INTO baselines (name, created)"
	    " VALUES (?, ?)", -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, created);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	id = sqlite3_last_insert_rowid(st->db);
	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO baseline_runs"
	    " (baseline, run) VALUES (?, ?)", -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	for (i = 0; i < nruns; i++) {
		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, id);
		sqlite3_bind_int64(stmt, 2, runs[i]);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (store_commit(st) == -1)
		goto fail;
	return 0;

fail:
	xasprintf(cause, "baseline %s: %s", name, sqlite3_errmsg(st->db));
	sqlite3_finalize(stmt);
	store_rollback(st);
	return -1;
}

/* Load the baseline called name with its runs into b. */
int
store_baseline_get(struct store *st, const char *name,
    struct store_baseline *b)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(b, 0, sizeof(*b));
	stmt = store_stmt(st, VST_SLOT(VST_BASELINE_FIND),
	    "SELECT id, name, created FROM baselines WHERE name = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		b->id = sqlite3_column_int64(stmt, 0);
		b->name = store_col_strdup(stmt, 1);
		b->created = sqlite3_column_int64(stmt, 2);
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_ROW)
		return -1;
	if (baseline_load_runs(st, b) == -1) {
		store_baseline_clear(b);
		return -1;
	}
	return 0;
}

/* Every baseline with its runs, by name. */
int
store_baselines_list(struct store *st, struct store_baseline **out,
    size_t *nout)
{
	struct store_baseline	*bs = NULL;
	sqlite3_stmt		*stmt;
	size_t			 n = 0, cap = 0, i;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT id, name, created FROM"
	    " baselines ORDER BY name", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			bs = xreallocarray(bs, cap, sizeof(*bs));
		}
		memset(&bs[n], 0, sizeof(bs[n]));
		bs[n].id = sqlite3_column_int64(stmt, 0);
		bs[n].name = store_col_strdup(stmt, 1);
		bs[n].created = sqlite3_column_int64(stmt, 2);
		n++;
	}
	sqlite3_finalize(stmt);
	for (i = 0; rc == SQLITE_DONE && i < n; i++)
		if (baseline_load_runs(st, &bs[i]) == -1)
			rc = SQLITE_ERROR;
	if (rc != SQLITE_DONE) {
		store_baselines_free(bs, n);
		return -1;
	}
	*out = bs;
	*nout = n;
	return 0;
}

/*
 * Delete the baseline called name and, when the setting key (the
 * baseline in use) names it, that setting, in one transaction: the
 * setting was cleared in a second step whose failure went unseen, and
 * checks then judged against a baseline that was gone.  0 when deleted.
 * -1 with *cause NULL when there is none, or when the transaction could
 * not begin (store_failure() tells which: busy, or another error); -1
 * with *cause set when it failed later and nothing was deleted.
 */
int
store_baseline_delete(struct store *st, const char *name, const char *key,
    char **cause)
{
	sqlite3_stmt	*stmt = NULL;
	int		 found;

	*cause = NULL;
	/* A lock held by another process is met here, kept for the caller. */
	if (store_begin(st) == -1)
		return -1;
	if (sqlite3_prepare_v2(st->db, "DELETE FROM baselines WHERE name = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(stmt);
	stmt = NULL;
	if ((found = sqlite3_changes(st->db) > 0)) {
		if (sqlite3_prepare_v2(st->db, "DELETE FROM settings WHERE"
		    " key = ? AND value = ?", -1, &stmt, NULL) != SQLITE_OK)
			goto fail;
		sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			goto fail;
		sqlite3_finalize(stmt);
		stmt = NULL;
	}
	/*
	 * None: the rollback leaves no error behind, for store_failure()
	 * to say so (or its own, should it fail).
	 */
	if (!found) {
		store_rollback(st);
		return -1;
	}
	if (store_commit(st) == -1)
		goto fail;
	return 0;

fail:
	xasprintf(cause, "baseline %s: %s", name, sqlite3_errmsg(st->db));
	sqlite3_finalize(stmt);
	store_rollback(st);
	return -1;
}

void
store_baseline_clear(struct store_baseline *b)
{
	free(b->name);
	free(b->runs);
	memset(b, 0, sizeof(*b));
}

void
store_baselines_free(struct store_baseline *bs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_baseline_clear(&bs[i]);
	free(bs);
}

/*
 * Replace the verdicts of run with v[0..n): the old ones are deleted
 * first, so re-checking a run leaves exactly one verdict per metric.
 */
int
store_verdicts_replace(struct store *st, int64_t run,
    const struct store_verdict *v, size_t n)
{
	sqlite3_stmt	*stmt;
	size_t		 i;

	stmt = store_stmt(st, VST_SLOT(VST_VERDICT_DELETE),
	    "DELETE FROM verdicts WHERE run = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	if (step_done(st, stmt, "deleting verdicts") == -1)
		return -1;
	for (i = 0; i < n; i++) {
		stmt = store_stmt(st, VST_SLOT(VST_VERDICT_INSERT),
		    "INSERT INTO verdicts (run, metric, verdict, change_pct,"
		    " ci_low, ci_high, p, q, baseline, current, reference,"
		    " noise, baseline_runs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
		    " ?, ?, ?, ?)");
		if (stmt == NULL)
			return -1;
		sqlite3_bind_int64(stmt, 1, run);
		sqlite3_bind_int64(stmt, 2, v[i].metric);
		sqlite3_bind_text(stmt, 3, v[i].verdict, -1, SQLITE_STATIC);
		bind_real(stmt, 4, v[i].change_pct);
		bind_real(stmt, 5, v[i].ci_low);
		bind_real(stmt, 6, v[i].ci_high);
		bind_real(stmt, 7, v[i].p);
		bind_real(stmt, 8, v[i].q);
		bind_str(stmt, 9, v[i].baseline);
		bind_real(stmt, 10, v[i].current);
		bind_real(stmt, 11, v[i].reference);
		bind_real(stmt, 12, v[i].noise);
		sqlite3_bind_int(stmt, 13, v[i].baseline_runs);
		if (step_done(st, stmt, "adding a verdict") == -1)
			return -1;
	}
	return 0;
}

static int
store_id_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The metrics with a verdict stored for any of runs[0..n), ascending and
 * each once, into *out (free it) and *nout.  0, or -1 on a store error.
 */
int
store_verdict_metrics(struct store *st, const int64_t *runs, size_t n,
    int64_t **out, size_t *nout)
{
	sqlite3_stmt	*stmt;
	char		*sql, *list;
	int64_t		*m = NULL;
	size_t		 i, k, chunk, nm = 0, cap = 0;
	int		 rc;

	for (i = 0; i < n; i += chunk) {
		chunk = n - i < 256 ? n - i : 256;
		list = xmalloc(chunk * 2);
		for (k = 0; k < chunk; k++) {
			list[2 * k] = '?';
			list[2 * k + 1] = k + 1 < chunk ? ',' : '\0';
		}
		xasprintf(&sql, "SELECT DISTINCT metric FROM verdicts"
		    " WHERE run IN (%s)", list);
		free(list);
		rc = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL);
		free(sql);
		if (rc != SQLITE_OK) {
			free(m);
			return -1;
		}
		for (k = 0; k < chunk; k++)
			sqlite3_bind_int64(stmt, (int)k + 1, runs[i + k]);
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			if (nm == cap) {
				cap = cap ? cap * 2 : 64;
				m = xreallocarray(m, cap, sizeof(*m));
			}
			m[nm++] = sqlite3_column_int64(stmt, 0);
		}
		sqlite3_finalize(stmt);
		if (rc != SQLITE_DONE) {
			free(m);
			return -1;
		}
	}
	/* Each chunk's are distinct; across chunks they may repeat. */
	if (nm > 0)
		qsort(m, nm, sizeof(*m), store_id_cmp);
	for (i = k = 0; i < nm; i++)
		if (k == 0 || m[k - 1] != m[i])
			m[k++] = m[i];
	*out = m;
	*nout = k;
	return 0;
}

/* The stored verdicts of run, by metric id. */
int
store_verdicts_get(struct store *st, int64_t run, struct store_verdict **out,
    size_t *nout)
{
	struct store_verdict	*v = NULL;
	sqlite3_stmt		*stmt;
	size_t			 n = 0, cap = 0;
	int			 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT run, metric, verdict,"
	    " change_pct, ci_low, ci_high, p, q, baseline, current, reference,"
	    " noise, baseline_runs FROM verdicts WHERE run = ? ORDER BY metric",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].run = sqlite3_column_int64(stmt, 0);
		v[n].metric = sqlite3_column_int64(stmt, 1);
		v[n].verdict = store_col_strdup(stmt, 2);
		v[n].change_pct = col_real(stmt, 3);
		v[n].ci_low = col_real(stmt, 4);
		v[n].ci_high = col_real(stmt, 5);
		v[n].p = col_real(stmt, 6);
		v[n].q = col_real(stmt, 7);
		v[n].baseline = store_col_strdup(stmt, 8);
		v[n].current = col_real(stmt, 9);
		v[n].reference = col_real(stmt, 10);
		v[n].noise = col_real(stmt, 11);
		v[n].baseline_runs = sqlite3_column_int(stmt, 12);
		n++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_verdicts_free(v, n);
		return -1;
	}
	*out = v;
	*nout = n;
	return 0;
}

void
store_verdicts_free(struct store_verdict *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].verdict);
		free(v[i].baseline);
	}
	free(v);
}

/* Fill a from a row of ALERT_COLUMNS. */
static void
alert_from_row(sqlite3_stmt *stmt, struct store_alert *a)
{
	a->id = sqlite3_column_int64(stmt, 0);
	a->host = sqlite3_column_int64(stmt, 1);
	a->metric = sqlite3_column_int64(stmt, 2);
	a->first_bad_run = sqlite3_column_int64(stmt, 3);
	a->last_good_run = sqlite3_column_int64(stmt, 4);
	a->last_run = sqlite3_column_int64(stmt, 5);
	a->opened_run = sqlite3_column_int64(stmt, 6);
	a->confirmed_run = sqlite3_column_int64(stmt, 7);
	a->state = store_col_strdup(stmt, 8);
	a->direction = store_col_strdup(stmt, 9);
	a->change_pct = col_real(stmt, 10);
	a->opened = sqlite3_column_int64(stmt, 11);
	a->updated = sqlite3_column_int64(stmt, 12);
	a->attribution = store_col_strdup(stmt, 13);
	a->summary = NULL;
}

/* Add an alert; returns its id, or -1. */
int64_t
store_alert_add(struct store *st, const struct store_alert *a)
{
	sqlite3_stmt	*stmt;

	stmt = store_stmt(st, VST_SLOT(VST_ALERT_INSERT),
	    "INSERT INTO alerts (host, metric, first_bad_run, last_good_run,"
	    " last_run, opened_run, confirmed_run, state, direction,"
	    " change_pct, opened, updated, attribution)"
	    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, a->host);
	sqlite3_bind_int64(stmt, 2, a->metric);
	sqlite3_bind_int64(stmt, 3, a->first_bad_run);
	bind_id(stmt, 4, a->last_good_run);
	sqlite3_bind_int64(stmt, 5, a->last_run);
	sqlite3_bind_int64(stmt, 6, a->opened_run);
	bind_id(stmt, 7, a->confirmed_run);
	sqlite3_bind_text(stmt, 8, a->state, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 9, a->direction, -1, SQLITE_STATIC);
	bind_real(stmt, 10, a->change_pct);
	sqlite3_bind_int64(stmt, 11, a->opened);
	sqlite3_bind_int64(stmt, 12, a->updated);
	bind_str(stmt, 13, a->attribution);
	if (step_done(st, stmt, "adding an alert") == -1)
		return -1;
	return sqlite3_last_insert_rowid(st->db);
}

/* Write back the mutable fields of alert a->id. */
int
store_alert_update(struct store *st, const struct store_alert *a)
{
	sqlite3_stmt	*stmt;

	stmt = store_stmt(st, VST_SLOT(VST_ALERT_UPDATE),
	    "UPDATE alerts SET first_bad_run = ?, last_good_run = ?,"
	    " last_run = ?, confirmed_run = ?, state = ?, change_pct = ?,"
	    " updated = ?, attribution = ? WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, a->first_bad_run);
	bind_id(stmt, 2, a->last_good_run);
	sqlite3_bind_int64(stmt, 3, a->last_run);
	bind_id(stmt, 4, a->confirmed_run);
	sqlite3_bind_text(stmt, 5, a->state, -1, SQLITE_STATIC);
	bind_real(stmt, 6, a->change_pct);
	sqlite3_bind_int64(stmt, 7, a->updated);
	bind_str(stmt, 8, a->attribution);
	sqlite3_bind_int64(stmt, 9, a->id);
	if (step_done(st, stmt, "updating an alert") == -1)
		return -1;
	return sqlite3_changes(st->db) == 1 ? 0 : -1;
}

/* Load alert id into a. */
int
store_alert_get(struct store *st, int64_t id, struct store_alert *a)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(a, 0, sizeof(*a));
	stmt = store_stmt(st, VST_SLOT(VST_ALERT_GET),
	    "SELECT " ALERT_COLUMNS " FROM alerts WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		alert_from_row(stmt, a);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Collect the rows of an alerts query into *out. */
static int
alerts_collect(sqlite3_stmt *stmt, struct store_alert **out, size_t *nout)
{
	struct store_alert	*a = NULL;
	size_t			 n = 0, cap = 0;
	int			 rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			a = xreallocarray(a, cap, sizeof(*a));
		}
		alert_from_row(stmt, &a[n++]);
	}
	if (rc != SQLITE_DONE) {
		store_alerts_free(a, n);
		return -1;
	}
	*out = a;
	*nout = n;
	return 0;
}

/* Every alert of one metric on one host, oldest first. */
int
store_alerts_metric(struct store *st, int64_t host, int64_t metric,
    struct store_alert **out, size_t *nout)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, VST_SLOT(VST_ALERTS_METRIC),
	    "SELECT " ALERT_COLUMNS " FROM alerts WHERE host = ? AND"
	    " metric = ? ORDER BY id");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, host);
	sqlite3_bind_int64(stmt, 2, metric);
	rc = alerts_collect(stmt, out, nout);
	sqlite3_reset(stmt);
	return rc;
}

/*
 * The open alerts, those that can still change by themselves (all: every
 * alert), newest first.  An acknowledged alert is settled: listing it
 * for ever would bury the next one.
 */
int
store_alerts_list(struct store *st, int all, struct store_alert **out,
    size_t *nout)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT " ALERT_COLUMNS " FROM alerts"
	    " WHERE ?1 OR state IN ('suspected', 'confirmed')"
	    " ORDER BY id DESC", -1, &stmt,
	    NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(stmt, 1, all != 0);
	rc = alerts_collect(stmt, out, nout);
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * The page of open alerts (all: of every alert) older than alert before
 * (0: from the newest), newest first: fn(arg, a) for each of the first
 * limit of them (0: each of them), a cleared once fn returns.  fn returns
 * 0 for the next one, 1 to stop there (the caller's page is full), or
 * -1 on an error of its own, which ends the page and is returned.  *more
 * says whether an older alert is left after the last one fn was given
 * (1 as well when fn stopped early).
 *
 * Whether one is left is asked apart (alerts_older), not by a row beyond
 * the page: SQLite works out a row's columns as it steps to it, and the
 * attribution of an alert opened by a large upgrade is hundreds of KiB,
 * in a store that can hold thousands, so that only the rows shown are
 * read whole.
 * With STORE_ALERT_SUMMARY, the attribution is not read into a at all:
 * its "summary" (a string, else NULL) comes in a->summary, taken out by
 * SQLite, and a stored text that is not JSON (which jansson would not
 * read either) gives none rather than failing the page.  With
 * STORE_ALERT_BARE, neither: for a count by state or host.
 */
/* Whether an alert (open, or any with all) older than alert id is there. */
static int
alerts_older(struct store *st, int all, int64_t id, int *more)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT EXISTS (SELECT 1 FROM alerts"
	    " WHERE (?1 OR state IN ('suspected', 'confirmed')) AND id < ?2)",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(stmt, 1, all != 0);
	sqlite3_bind_int64(stmt, 2, id);
	if ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		*more = sqlite3_column_int(stmt, 0) != 0;
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

int
store_alerts_page(struct store *st, int all, int64_t before, size_t limit,
    int what, store_alert_fn fn, void *arg, int *more)
{
	struct store_alert	 a;
	sqlite3_stmt		*stmt;
	size_t			 n = 0;
	int64_t			 last = 0;
	int			 rc, code, stop = 0;

	/* More than a table can hold is all of it (--limit's LLONG_MAX). */
	if (limit >= (size_t)INT64_MAX)
		limit = 0;
	*more = 0;
	if (sqlite3_prepare_v2(st->db, what == STORE_ALERT_BARE ?
	    "SELECT " ALERT_COLUMNS_BUT_ATTRIBUTION ", NULL FROM alerts"
	    " WHERE (?1 OR state IN ('suspected', 'confirmed'))"
	    " AND (?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT ?3" :
	    what == STORE_ALERT_SUMMARY ?
	    "SELECT " ALERT_COLUMNS_BUT_ATTRIBUTION ", CASE WHEN"
	    " json_valid(attribution) THEN CASE json_type(attribution,"
	    " '$.summary') WHEN 'text' THEN json_extract(attribution,"
	    " '$.summary') END END FROM alerts"
	    " WHERE (?1 OR state IN ('suspected', 'confirmed'))"
	    " AND (?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT ?3" :
	    "SELECT " ALERT_COLUMNS " FROM alerts"
	    " WHERE (?1 OR state IN ('suspected', 'confirmed'))"
	    " AND (?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT ?3",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(stmt, 1, all != 0);
	sqlite3_bind_int64(stmt, 2, before > 0 ? before : 0);
	/* LIMIT -1: no limit. */
	sqlite3_bind_int64(stmt, 3, limit > 0 ? (sqlite3_int64)limit : -1);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		alert_from_row(stmt, &a);
		if (what == STORE_ALERT_SUMMARY) {
			/* Column 13 is the summary, not the attribution. */
			a.summary = a.attribution;
			a.attribution = NULL;
		}
		last = a.id;
		stop = fn(arg, &a);
		store_alert_clear(&a);
		if (stop != 0)
			break;
		n++;
	}
	if (stop == -1) {
		/*
		 * fn's failure is the store's, most often (a metric or run
		 * that cannot be read): the finalize below would leave "not
		 * an error" in its place, so it is kept for the caller, as
		 * store_rollback keeps one.
		 */
		code = sqlite3_extended_errcode(st->db);
		if (code != SQLITE_OK && code != SQLITE_ROW &&
		    code != SQLITE_DONE) {
			free(st->kept_msg);
			st->kept_msg = xstrdup(sqlite3_errmsg(st->db));
			st->kept_code = code;
		}
	}
	sqlite3_finalize(stmt);
	if (stop == -1)
		return -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	if (stop == 1)
		*more = 1;
	else if (limit > 0 && n == limit)
		return alerts_older(st, all, last, more);
	return 0;
}

/* How many alerts are open (all: how many there are). */
int
store_alerts_count(struct store *st, int all, size_t *n)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM alerts"
	    " WHERE ?1 OR state IN ('suspected', 'confirmed')", -1, &stmt,
	    NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(stmt, 1, all != 0);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

void
store_alert_clear(struct store_alert *a)
{
	free(a->state);
	free(a->direction);
	free(a->attribution);
	free(a->summary);
	memset(a, 0, sizeof(*a));
}

void
store_alerts_free(struct store_alert *a, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_alert_clear(&a[i]);
	free(a);
}

/*
 * Queue a notification about alert for sink, due now; returns the row's
 * id, or -1.
 */
int64_t
store_outbox_add(struct store *st, int64_t alert, const char *sink,
    const char *payload, int64_t now)
{
	sqlite3_stmt	*stmt;

	stmt = store_stmt(st, VST_SLOT(VST_OUTBOX_INSERT),
	    "INSERT INTO outbox (alert, sink, payload, created, next_attempt)"
	    " VALUES (?, ?, ?, ?, ?)");
	if (stmt == NULL)
		return -1;
	bind_id(stmt, 1, alert);
	sqlite3_bind_text(stmt, 2, sink, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, payload, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 4, now);
	sqlite3_bind_int64(stmt, 5, now);
	if (step_done(st, stmt, "queueing a notification") == -1)
		return -1;
	return sqlite3_last_insert_rowid(st->db);
}

/* How many outbox rows alert has (0: every row). */
int
store_outbox_count(struct store *st, int64_t alert, size_t *n)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM outbox WHERE"
	    " ?1 = 0 OR alert = ?1", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, alert);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}
