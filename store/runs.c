/*
 * Hosts, metrics, runs and their samples.
 *
 * A run's end (runs.ended) is NULL while it runs and when its length is
 * not known (an import that gave no duration, a run whose process died
 * and a later sweep marked aborted), and set otherwise: its
 * length is its end minus its start, 0 s included.  Nothing else says
 * "unknown", neither a 0 nor an end equal to the start.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

/* Whether run r was measured on a busy machine: 1, else 0. */
#define RUN_BUSY \
	"coalesce(CASE WHEN json_valid(r.quiet) THEN " \
	"json_extract(r.quiet, '$.busy') END, 0)"

#define RUN_COLUMNS \
	"r.id, r.host, h.name, r.label, r.snapshot, r.trigger, " \
	"r.trigger_detail, r.profile, r.started, r.ended, r.status, " \
	"r.git_commits, r.quiet, " RUN_BUSY

/* Copy a text column, NULL for SQL NULL. */
char *
store_col_strdup(sqlite3_stmt *stmt, int col)
{
	const unsigned char	*s = sqlite3_column_text(stmt, col);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

/* Find the host called name; 0 and *id set when found, -1 otherwise. */
int
store_host_find(struct store *st, const char *name, int64_t *id)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_HOST_FIND,
	    "SELECT id FROM hosts WHERE name = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(stmt, 0);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * The names of the store's hosts, in name order, for a message that says
 * which of them a name given was likely meant to be: 0 with *names (n
 * strings, the array and each freed by the caller), -1 on a store error.
 */
int
store_host_names(struct store *st, char ***names, size_t *n)
{
	sqlite3_stmt	*stmt;
	char		**v = NULL;
	size_t		  nv = 0;
	int		  rc;

	*names = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT name FROM hosts ORDER BY name",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		v = xreallocarray(v, nv + 1, sizeof(*v));
		v[nv++] = store_col_strdup(stmt, 0);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_host_names_free(v, nv);
		return -1;
	}
	*names = v;
	*n = nv;
	return 0;
}

void
store_host_names_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Return the id of the host called name, adding it if new; -1 on error. */
int64_t
store_host_ensure(struct store *st, const char *name, const char *machine_id)
{
	sqlite3_stmt	*stmt;
	int64_t		 id;

	if (store_host_find(st, name, &id) == 0)
		return id;
	/*
	 * A lookup that failed (busy, an I/O error) is no host not there:
	 * the INSERT tried then failed on its own, for a host that was
	 * there ("UNIQUE constraint failed"), and named the wrong thing.
	 */
	if (store_failure(st) != STORE_FOUND_NONE) {
		log_warnx("%s: looking up host %s: %s", st->path, name,
		    store_errmsg(st));
		return -1;
	}
	/*
	 * Another process (perfwatchd's first run beside a perfwatch run on
	 * a new store) may add the same host between the lookup and the
	 * INSERT, which failed then with "UNIQUE constraint failed": the
	 * row it added is the answer, looked up again.
	 */
	stmt = store_stmt(st, STMT_HOST_INSERT,
	    "INSERT INTO hosts (name, machine_id) VALUES (?, ?)"
	    " ON CONFLICT (name) DO NOTHING");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (machine_id != NULL)
		sqlite3_bind_text(stmt, 2, machine_id, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE) {
		log_warnx("%s: adding host %s: %s", st->path, name,
		    sqlite3_errmsg(st->db));
		sqlite3_reset(stmt);
		return -1;
	}
	sqlite3_reset(stmt);
	if (sqlite3_changes(st->db) > 0)
		return sqlite3_last_insert_rowid(st->db);
	if (store_host_find(st, name, &id) == -1) {
		log_warnx("%s: looking up host %s: %s", st->path, name,
		    store_failure(st) == STORE_FOUND_NONE ? "not there" :
		    store_errmsg(st));
		return -1;
	}
	return id;
}

/*
 * The name of the host this process runs on, as its runs are recorded
 * under: its host name, or "localhost" when it has none.  Returns buf.
 */
const char *
store_host_local_name(char *buf, size_t len)
{
	if (gethostname(buf, len) == -1 || buf[0] == '\0')
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
	return buf;
}

/* The host this process runs on: its host name and /etc/machine-id. */
int64_t
store_host_local(struct store *st)
{
	char	 name[256], mid[64];
	FILE	*f;

	store_host_local_name(name, sizeof(name));
	mid[0] = '\0';
	if ((f = fopen("/etc/machine-id", "r")) != NULL) {
		if (fgets(mid, sizeof(mid), f) == NULL)
			mid[0] = '\0';
		mid[strcspn(mid, "\r\n")] = '\0';
		fclose(f);
	}
	return store_host_ensure(st, name, mid[0] != '\0' ? mid : NULL);
}

/* Fill m from the current row of a metrics query (id, workload, ...). */
static void
store_metric_from_row(sqlite3_stmt *stmt, int col, struct store_metric *m)
{
	const char	*better;

	m->id = sqlite3_column_int64(stmt, col);
	m->workload = store_col_strdup(stmt, col + 1);
	m->metric = store_col_strdup(stmt, col + 2);
	m->unit = store_col_strdup(stmt, col + 3);
	better = (const char *)sqlite3_column_text(stmt, col + 4);
	m->better = (better != NULL && strcmp(better, "lower") == 0) ?
	    BETTER_LOWER : BETTER_HIGHER;
}

void
store_metric_clear(struct store_metric *m)
{
	free(m->workload);
	free(m->metric);
	free(m->unit);
	memset(m, 0, sizeof(*m));
}

/* Look a metric up by name; 0 when found (m filled), -1 otherwise. */
int
store_metric_find(struct store *st, const char *workload, const char *metric,
    struct store_metric *m)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_METRIC_FIND,
	    "SELECT id, workload, metric, unit, better FROM metrics "
	    "WHERE workload = ? AND metric = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, metric, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		store_metric_from_row(stmt, 0, m);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Look a metric up by id; 0 when found. */
int
store_metric_get(struct store *st, int64_t id, struct store_metric *m)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_METRIC_GET,
	    "SELECT id, workload, metric, unit, better FROM metrics "
	    "WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		store_metric_from_row(stmt, 0, m);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

static store_metric_rule	store_rule;

/* The rule every metric added from now on must keep (NULL: none). */
void
store_metric_rule_set(store_metric_rule rule)
{
	store_rule = rule;
}

/*
 * Return the id of workload/metric, adding it if new.  A metric keeps its
 * unit and direction for life: a different one is an error (*cause set).
 * A new one keeps the rule of store_metric_rule_set() too.
 */
int64_t
store_metric_ensure(struct store *st, const char *workload,
    const char *metric, const char *unit, enum better better, char **cause)
{
	struct store_metric	 m;
	sqlite3_stmt		*stmt;
	int64_t			 id;

	if (store_metric_find(st, workload, metric, &m) == 0) {
		id = m.id;
		if (strcmp(m.unit, unit) != 0) {
			xasprintf(cause, "unit of %s %s is \"%s\" in the store, "
			    "not \"%s\"", workload, metric, m.unit, unit);
			id = -1;
		} else if (m.better != better) {
			xasprintf(cause, "%s %s is better %s in the store, not "
			    "%s", workload, metric, better_name(m.better),
			    better_name(better));
			id = -1;
		}
		store_metric_clear(&m);
		return id;
	}
	/* As for a host: a lookup that failed is no metric not there. */
	if (store_failure(st) != STORE_FOUND_NONE) {
		xasprintf(cause, "looking up metric %s %s: %s", workload,
		    metric, store_errmsg(st));
		return -1;
	}
	if (store_rule != NULL && store_rule(workload, metric, unit, better,
	    cause) == -1)
		return -1;
	stmt = store_stmt(st, STMT_METRIC_INSERT,
	    "INSERT INTO metrics (workload, metric, unit, better) "
	    "VALUES (?, ?, ?, ?)");
	if (stmt == NULL) {
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return -1;
	}
	sqlite3_bind_text(stmt, 1, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, unit, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, better_name(better), -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_DONE) {
		xasprintf(cause, "adding metric %s %s: %s", workload, metric,
		    sqlite3_errmsg(st->db));
		sqlite3_reset(stmt);
		return -1;
	}
	sqlite3_reset(stmt);
	return sqlite3_last_insert_rowid(st->db);
}

/* Bind text or NULL. */
static void
bind_text_or_null(sqlite3_stmt *stmt, int col, const char *s)
{
	if (s != NULL)
		sqlite3_bind_text(stmt, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(stmt, col);
}

/* Whether name is a trigger the runs table takes (its CHECK). */
int
store_trigger_known(const char *name)
{
	static const char *const triggers[] = { "schedule", "package",
	    "kernel", "git", "manual", "rerun", "bisect", RUN_TRIGGER_IMPORT };
	size_t	i;

	for (i = 0; i < sizeof(triggers) / sizeof(triggers[0]); i++)
		if (strcmp(name, triggers[i]) == 0)
			return 1;
	return 0;
}

/*
 * Record a new run (host, label, trigger, started, status and the optional
 * fields of r); returns its id, or with *cause set STORE_RUN_EXISTS when
 * the host has a run of that label (the caller's mistake), -1 when the
 * store could not take it (a full disk).
 */
int64_t
store_run_create(struct store *st, const struct store_run *r, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_INSERT,
	    "INSERT INTO runs (host, label, snapshot, trigger, trigger_detail,"
	    " profile, started, ended, status, git_commits, quiet) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	if (stmt == NULL) {
		xasprintf(cause, "%s", sqlite3_errmsg(st->db));
		return -1;
	}
	sqlite3_bind_int64(stmt, 1, r->host);
	sqlite3_bind_text(stmt, 2, r->label, -1, SQLITE_STATIC);
	if (r->snapshot > 0)
		sqlite3_bind_int64(stmt, 3, r->snapshot);
	else
		sqlite3_bind_null(stmt, 3);
	sqlite3_bind_text(stmt, 4, r->trigger, -1, SQLITE_STATIC);
	bind_text_or_null(stmt, 5, r->trigger_detail);
	bind_text_or_null(stmt, 6, r->profile);
	sqlite3_bind_int64(stmt, 7, r->started);
	if (r->has_end)
		sqlite3_bind_int64(stmt, 8, r->ended);
	else
		sqlite3_bind_null(stmt, 8);
	sqlite3_bind_text(stmt, 9, r->status, -1, SQLITE_STATIC);
	bind_text_or_null(stmt, 10, r->git_commits);
	bind_text_or_null(stmt, 11, r->quiet);
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_DONE) {
		if (rc == SQLITE_CONSTRAINT_UNIQUE) {
			xasprintf(cause, "run \"%s\" exists already", r->label);
			sqlite3_reset(stmt);
			return STORE_RUN_EXISTS;
		}
		xasprintf(cause, "adding run %s: %s", r->label,
		    sqlite3_errmsg(st->db));
		sqlite3_reset(stmt);
		return -1;
	}
	sqlite3_reset(stmt);
	return sqlite3_last_insert_rowid(st->db);
}

/*
 * Record as aborted each workload with samples in the runs that runs (an
 * SQL expression of ?1: a run's id, or a select of them) selects and no
 * outcome of its own: the workloads a run killed, or cut short by a
 * signal, was measuring, which never came to write how they ended.  A
 * check then judges none of their metrics, as for a workload that
 * failed.
 */
static int
store_run_workloads_cut(struct store *st, const char *runs, int64_t arg)
{
	sqlite3_stmt	*stmt;
	char		*sql;
	int		 rc;

	xasprintf(&sql, "INSERT OR IGNORE INTO run_workloads (run, workload,"
	    " status) SELECT DISTINCT s.run, m.workload, 'aborted'"
	    " FROM samples s JOIN metrics m ON m.id = s.metric"
	    " WHERE s.run IN (%s)", runs);
	rc = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, arg);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Set a run's final status and end time. */
int
store_run_finish(struct store *st, int64_t run, const char *status,
    int64_t ended)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (strcmp(status, RUN_ABORTED) == 0 &&
	    store_run_workloads_cut(st, "?1", run) == -1) {
		log_warnx("%s: finishing run %lld: %s", st->path,
		    (long long)run, sqlite3_errmsg(st->db));
		return -1;
	}

	stmt = store_stmt(st, STMT_RUN_FINISH,
	    "UPDATE runs SET status = ?, ended = ? WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 2, ended);
	sqlite3_bind_int64(stmt, 3, run);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: finishing run %lld: %s", st->path,
		    (long long)run, sqlite3_errmsg(st->db));
		return -1;
	}
	return 0;
}

int
store_run_set_snapshot(struct store *st, int64_t run, int64_t snapshot)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_SNAPSHOT,
	    "UPDATE runs SET snapshot = ? WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, snapshot);
	sqlite3_bind_int64(stmt, 2, run);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

int
store_run_set_quiet(struct store *st, int64_t run, const char *json)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_QUIET,
	    "UPDATE runs SET quiet = ? WHERE id = ?");
	if (stmt == NULL)
		return -1;
	bind_text_or_null(stmt, 1, json);
	sqlite3_bind_int64(stmt, 2, run);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Delete a run and, by cascade, its samples, verdicts and outcomes, and
 * the settings that name it (the reference of a host's system index,
 * "index_reference:HOST"): a run import --replace makes in its place may
 * have its number, and was taken for the one pinned.
 */
int
store_run_delete(struct store *st, int64_t run)
{
	sqlite3_stmt	*stmt;
	char		 id[32];
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_DELETE, "DELETE FROM runs WHERE id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc == SQLITE_DONE) {
		snprintf(id, sizeof(id), "%lld", (long long)run);
		if (sqlite3_prepare_v2(st->db, "DELETE FROM settings WHERE"
		    " key LIKE 'index\\_reference:%' ESCAPE '\\' AND"
		    " value = ?", -1, &stmt, NULL) != SQLITE_OK)
			rc = SQLITE_ERROR;
		else {
			sqlite3_bind_text(stmt, 1, id, -1, SQLITE_STATIC);
			rc = sqlite3_step(stmt);
			sqlite3_finalize(stmt);
		}
	}
	if (rc != SQLITE_DONE) {
		log_warnx("%s: deleting run %lld: %s", st->path,
		    (long long)run, sqlite3_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* Find the run labelled label on host; 0 when found. */
int
store_run_lookup(struct store *st, int64_t host, const char *label,
    int64_t *run)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_LOOKUP,
	    "SELECT id FROM runs WHERE host = ? AND label = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, host);
	sqlite3_bind_text(stmt, 2, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*run = sqlite3_column_int64(stmt, 0);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Fill r from a row of RUN_COLUMNS starting at column 0. */
static void
store_run_from_row(sqlite3_stmt *stmt, struct store_run *r)
{
	r->id = sqlite3_column_int64(stmt, 0);
	r->host = sqlite3_column_int64(stmt, 1);
	r->host_name = store_col_strdup(stmt, 2);
	r->label = store_col_strdup(stmt, 3);
	r->snapshot = sqlite3_column_int64(stmt, 4);
	r->trigger = store_col_strdup(stmt, 5);
	r->trigger_detail = store_col_strdup(stmt, 6);
	r->profile = store_col_strdup(stmt, 7);
	r->started = sqlite3_column_int64(stmt, 8);
	r->has_end = sqlite3_column_type(stmt, 9) != SQLITE_NULL;
	r->ended = r->has_end ? sqlite3_column_int64(stmt, 9) : 0;
	r->status = store_col_strdup(stmt, 10);
	r->git_commits = store_col_strdup(stmt, 11);
	r->quiet = store_col_strdup(stmt, 12);
	r->busy = sqlite3_column_int(stmt, 13) != 0;
}

/*
 * Whether run r's length is known: it has an end, which a run has not
 * while it runs, nor an import that gave no duration.  An end equal to
 * the start is a run of 0 s (schema version 6 cleared the ends that
 * said "unknown" otherwise).  An end before the start is not a length
 * either: the wall clock was set back while the run ran (start and end
 * are time(3)), and a negative duration would be exported where import
 * refuses it.
 */
int
store_run_timed(const struct store_run *r)
{
	return r->has_end && r->ended >= r->started;
}

void
store_run_clear(struct store_run *r)
{
	free(r->host_name);
	free(r->label);
	free(r->trigger);
	free(r->trigger_detail);
	free(r->profile);
	free(r->status);
	free(r->git_commits);
	free(r->quiet);
	memset(r, 0, sizeof(*r));
}

/* Load run id into r; 0 when found. */
int
store_run_get(struct store *st, int64_t id, struct store_run *r)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_GET, "SELECT " RUN_COLUMNS
	    " FROM runs r JOIN hosts h ON h.id = r.host WHERE r.id = ?");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		store_run_from_row(stmt, r);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * The run labelled label (on host, when not NULL) into r: the number of
 * runs found (r is filled when it is 1), or -1 with *cause.
 */
static int
store_run_by_label(struct store *st, const char *host, const char *label,
    struct store_run *r, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found = 0, rc;

	if (sqlite3_prepare_v2(st->db, "SELECT " RUN_COLUMNS
	    " FROM runs r JOIN hosts h ON h.id = r.host WHERE r.label = ?1"
	    " AND (?2 IS NULL OR h.name = ?2) ORDER BY r.id LIMIT 2", -1,
	    &stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	sqlite3_bind_text(stmt, 1, label, -1, SQLITE_STATIC);
	bind_text_or_null(stmt, 2, host);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (found++ == 0)
			store_run_from_row(stmt, r);
	}
	/*
	 * A store locked by another process, or that cannot be read, is
	 * not a run that is not there: "no run" sent the user looking for
	 * a typo.
	 */
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		sqlite3_finalize(stmt);
		if (found > 0)
			store_run_clear(r);
		return -1;
	}
	sqlite3_finalize(stmt);
	if (found > 1)
		store_run_clear(r);
	return found;
}

/*
 * Resolve what a person typed to name a run, trying in turn:
 * - #id, when a run has that id;
 * - the whole text as a label (unique on one host), so that a label may
 *   hold ':' or start with '#';
 * - host:label, split at a ':' that leaves a host and a run of it: the
 *   first ':' for a host name from hostname(3), a later one for an
 *   imported host that has some ("fe80::1:r1"); two splits that both name
 *   a run are refused as ambiguous.
 * 0 and r filled, or -1 with *cause.
 */
int
store_run_resolve(struct store *st, const char *what, struct store_run *r,
    char **cause)
{
	struct store_run	 r2;
	const char		*colon, *next;
	char			*host, *end;
	long long		 id;
	int			 found, other;

	memset(r, 0, sizeof(*r));
	/*
	 * #id as runs prints it: digits, the first not 0.  strtoll alone
	 * took "#01", "#+1" and "# 1" for #1, so that a run labelled "#01"
	 * was shadowed by run #1.
	 */
	if (what[0] == '#' && what[1] >= '1' && what[1] <= '9' &&
	    what[1 + strspn(what + 1, "0123456789")] == '\0') {
		errno = 0;
		id = strtoll(what + 1, &end, 10);
		if (errno == 0 && store_run_get(st, id, r) == 0)
			return 0;
		/*
		 * A read that failed is no run that is not there: "no run
		 * "#5"" sent the user looking for a typo.
		 */
		if (store_failure(st) != STORE_FOUND_NONE) {
			xasprintf(cause, "%s: %s", st->path,
			    sqlite3_errmsg(st->db));
			return -1;
		}
	}
	if ((found = store_run_by_label(st, NULL, what, r, cause)) == -1)
		return -1;
	for (colon = strchr(what, ':'); found == 0 && colon != NULL;
	    colon = strchr(colon + 1, ':')) {
		host = xstrndup(what, colon - what);
		found = store_run_by_label(st, host, colon + 1, r, cause);
		free(host);
		if (found == -1)
			return -1;
		/* A run found: no later split may name another. */
		for (next = strchr(colon + 1, ':'); found == 1 && next != NULL;
		    next = strchr(next + 1, ':')) {
			host = xstrndup(what, next - what);
			other = store_run_by_label(st, host, next + 1, &r2,
			    cause);
			free(host);
			if (other == -1) {
				store_run_clear(r);
				return -1;
			}
			if (other >= 1) {
				if (other == 1)
					store_run_clear(&r2);
				store_run_clear(r);
				xasprintf(cause, "\"%s\" names runs of two "
				    "hosts; say #ID", what);
				return -1;
			}
		}
	}
	if (found == 0)
		xasprintf(cause, "no run \"%s\"", what);
	else if (found > 1)
		xasprintf(cause, "run \"%s\" exists on several hosts; say "
		    "HOST:%s", what, what);
	return found == 1 ? 0 : -1;
}

/* The newest run (by start time) with the given status (NULL: any). */
int
store_run_latest(struct store *st, const char *status, struct store_run *r)
{
	return store_run_latest_of(st, 0, status, r);
}

/*
 * The newest run of host (0: of any) with the given status (NULL: any);
 * 0 when there is one.
 */
int
store_run_latest_of(struct store *st, int64_t host, const char *status,
    struct store_run *r)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT " RUN_COLUMNS
	    " FROM runs r JOIN hosts h ON h.id = r.host"
	    " WHERE (?1 IS NULL OR r.status = ?1)"
	    " AND (?2 = 0 OR r.host = ?2)"
	    " ORDER BY r.started DESC, r.id DESC LIMIT 1", -1, &stmt,
	    NULL) != SQLITE_OK)
		return -1;
	bind_text_or_null(stmt, 1, status);
	sqlite3_bind_int64(stmt, 2, host);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		store_run_from_row(stmt, r);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Read every run row of prepared stmt (RUN_COLUMNS first) into *out and
 * finalize it.  0, or -1 (logged) with nothing kept.
 */
static int
store_runs_collect(struct store *st, sqlite3_stmt *stmt,
    struct store_run **out, size_t *nout)
{
	struct store_run	*runs = NULL;
	size_t			 n = 0, cap = 0;
	int			 rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			runs = xreallocarray(runs, cap, sizeof(*runs));
		}
		memset(&runs[n], 0, sizeof(runs[n]));
		store_run_from_row(stmt, &runs[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		store_runs_free(runs, n);
		return -1;
	}
	*out = runs;
	*nout = n;
	return 0;
}

/*
 * List runs in start order (oldest first) matching f; with a limit, the
 * newest limit runs, still oldest first.
 *
 * A host named is looked up first so that runs_by_time, whose entries
 * end in the run's id, gives (started, id) order without a sort; without
 * a limit there is one ORDER BY, not two.  detect lists every run of a
 * host for each check, 3650 on bench/store's history, where two sorts of
 * whole rows were a tenth of the check.
 */
int
store_runs_list(struct store *st, const struct store_run_filter *f,
    struct store_run **out, size_t *nout)
{
	sqlite3_stmt	*stmt;
	char		*sql;
	const char	*where;
	int		 limited, rc;

	limited = f != NULL && f->limit > 0;
	where = f != NULL && f->host != NULL ?
	    " WHERE r.host = (SELECT id FROM hosts WHERE name = ?1)" :
	    " WHERE ?1 IS NULL";
	xasprintf(&sql, "%sSELECT " RUN_COLUMNS
	    " FROM runs r JOIN hosts h ON h.id = r.host%s"
	    " AND (?2 IS NULL OR r.status = ?2)"
	    " AND (?3 = 0 OR (r.started, r.id) < (SELECT started, id FROM runs"
	    "   WHERE id = ?3))"
	    " AND (?5 IS NULL OR r.trigger = ?5)%s",
	    limited ? "SELECT * FROM (" : "", where, limited ?
	    " ORDER BY r.started DESC, r.id DESC LIMIT ?4) ORDER BY 9, 1" :
	    " ORDER BY r.started, r.id");
	rc = sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	bind_text_or_null(stmt, 1, f != NULL ? f->host : NULL);
	bind_text_or_null(stmt, 2, f != NULL ? f->status : NULL);
	sqlite3_bind_int64(stmt, 3, f != NULL ? f->before_run : 0);
	if (limited)
		sqlite3_bind_int64(stmt, 4, (int64_t)f->limit);
	bind_text_or_null(stmt, 5, f != NULL ? f->trigger : NULL);
	return store_runs_collect(st, stmt, out, nout);
}

/*
 * The runs with samples of metric, on host (NULL: each host), by host
 * name and then in start order (oldest first); with a limit, the newest
 * limit of them on each host.  The limit counts the metric's own runs on
 * that host, not the store's: a metric last measured long ago, or on a
 * host that runs less often, still shows its history.
 *
 * Host by host, newest first down runs_by_time with a LIMIT, so that the
 * search for the metric's samples stops at the limit: a window numbering
 * every run of each host first looked up the metric in each run of the
 * store, 3650 page reads a metric on bench/store's history.
 */
int
store_metric_runs(struct store *st, int64_t metric, const char *host,
    size_t limit, struct store_run **out, size_t *nout)
{
	sqlite3_stmt		*hosts, *stmt;
	struct store_run	*runs, *all = NULL, tmp;
	int64_t			*ids = NULL;
	size_t			 n, nall = 0, nids = 0, i, k;
	int			 rc;

	*out = NULL;
	*nout = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT id FROM hosts"
	    " WHERE ?1 IS NULL OR name = ?1 ORDER BY name", -1, &hosts,
	    NULL) != SQLITE_OK) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	bind_text_or_null(hosts, 1, host);
	while ((rc = sqlite3_step(hosts)) == SQLITE_ROW) {
		ids = xreallocarray(ids, nids + 1, sizeof(*ids));
		ids[nids++] = sqlite3_column_int64(hosts, 0);
	}
	/*
	 * The hosts first, their statement done with before the runs are
	 * read: its finalize after a failed read of runs left no error
	 * behind, for the caller to tell a failure from "none".
	 */
	sqlite3_finalize(hosts);
	if (rc != SQLITE_DONE) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		free(ids);
		return -1;
	}
	for (k = 0; k < nids; k++) {
		if (sqlite3_prepare_v2(st->db, "SELECT " RUN_COLUMNS
		    " FROM runs r JOIN hosts h ON h.id = r.host"
		    " WHERE r.host = ?1 AND EXISTS (SELECT 1 FROM samples s"
		    "   WHERE s.run = r.id AND s.metric = ?2)"
		    " ORDER BY r.started DESC, r.id DESC LIMIT ?3", -1, &stmt,
		    NULL) != SQLITE_OK) {
			log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
			break;
		}
		sqlite3_bind_int64(stmt, 1, ids[k]);
		sqlite3_bind_int64(stmt, 2, metric);
		sqlite3_bind_int64(stmt, 3, limit > 0 ? (int64_t)limit : -1);
		if (store_runs_collect(st, stmt, &runs, &n) == -1)
			break;
		if (n == 0)
			continue;
		/* Oldest first. */
		for (i = 0; i < n / 2; i++) {
			tmp = runs[i];
			runs[i] = runs[n - 1 - i];
			runs[n - 1 - i] = tmp;
		}
		all = xreallocarray(all, nall + n, sizeof(*all));
		memcpy(all + nall, runs, n * sizeof(*all));
		nall += n;
		free(runs);
	}
	free(ids);
	if (k < nids) {
		store_runs_free(all, nall);
		return -1;
	}
	*out = all;
	*nout = nall;
	return 0;
}

/*
 * How many hosts have runs with samples of metric, counted up to max + 1
 * only (0: all), for a caller that takes at most max of them: 0 with *n,
 * or -1.  Host by host down runs_by_time, as store_metric_runs() goes.
 */
int
store_metric_hosts(struct store *st, int64_t metric, size_t max, size_t *n)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	*n = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM"
	    " (SELECT h.id FROM hosts h WHERE EXISTS (SELECT 1 FROM runs r"
	    "   WHERE r.host = h.id AND EXISTS (SELECT 1 FROM samples s"
	    "     WHERE s.run = r.id AND s.metric = ?1))"
	    "  LIMIT ?2)", -1, &stmt, NULL) != SQLITE_OK) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		return -1;
	}
	sqlite3_bind_int64(stmt, 1, metric);
	sqlite3_bind_int64(stmt, 2, max > 0 ? (int64_t)max + 1 : -1);
	if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) {
		log_warnx("%s: %s", st->path, sqlite3_errmsg(st->db));
		sqlite3_finalize(stmt);
		return -1;
	}
	*n = (size_t)sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return 0;
}

void
store_runs_free(struct store_run *runs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_run_clear(&runs[i]);
	free(runs);
}

/*
 * Mark the runs of host still "running" as aborted, live or not: see
 * store_runs_sweep(), which calls it only when none can be in flight.
 * Their end stays unknown (NULL): the process that knew it is gone.
 */
int
store_runs_mark_stale(struct store *st, int64_t host, size_t *marked)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (store_run_workloads_cut(st, "SELECT id FROM runs WHERE host = ?1"
	    " AND status = 'running'", host) == -1)
		return -1;
	if (sqlite3_prepare_v2(st->db, "UPDATE runs SET status = 'aborted'"
	    " WHERE host = ? AND status = 'running'", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, host);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (marked != NULL)
		*marked = (size_t)sqlite3_changes(st->db);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* How long a run waits for the run lock to be free of sweeps, seconds. */
#define STORE_RUNLOCK_WAIT	10

/*
 * flock(fd, op) without waiting: 0 when taken, 1 when another holds it,
 * -1 with *cause on an error.
 */
static int
store_runlock_try(int fd, int op, const char *path, char **cause)
{
	while (flock(fd, op | LOCK_NB) == -1) {
		if (errno == EINTR)
			continue;
		if (errno == EWOULDBLOCK)
			return 1;
		xasprintf(cause, "%s: flock: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Runs left "running" by a process that is gone, and the lock that tells.
 *
 * The database's "running" rows do not say whether their process lives:
 * a perfwatch run killed by SIGKILL, the OOM killer or a power cut leaves
 * its run "running" for ever, and perfwatchd, which used to mark every
 * such run aborted when it started, also marked a run that a person had
 * started by hand and that was still going.  So every perfwatch run holds
 * a shared flock(2) on DB.run from before it records its run until
 * it exits; the kernel drops the lock however the process ends (once its
 * forked workload children, which share the descriptor, are gone too).
 * Whoever gets the lock exclusively knows that no run of this database is
 * being recorded on this machine, and marks this host's running runs
 * aborted.  The lock file is opened read-only (flock needs no more), so
 * one made by root serves the service user too, without following a
 * symbolic link, and only if it is a regular file.
 *
 * With hold, the lock is then kept shared, for the run the caller is
 * about to record, until store_close().  Returns 0 when it swept (*marked
 * says how many), 1 when a live run holds the lock (nothing is marked:
 * which runs are stale cannot be told), 2 when another process held the
 * store locked past the busy timeout (nothing is marked, the lock is
 * held as for 0), -1 with *cause on an error (with
 * hold, the caller's run then goes unguarded: a perfwatchd started
 * meanwhile would mark it aborted).
 */
int
store_runs_sweep(struct store *st, int64_t host, int hold, size_t *marked,
    char **cause)
{
	struct timespec	 pause = { 0, 50 * 1000 * 1000 };
	struct stat	 sb;
	char		*path;
	int		 fd, busy, tries, rc;

	*marked = 0;
	if (st->runlock_fd != -1) {
		xasprintf(cause, "%s: the run lock is already held", st->path);
		return -1;
	}
	xasprintf(&path, "%s.run", st->path);
	fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC, 0644);
	if (fd == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_nlink != 1) {
		xasprintf(cause, "%s: not a regular file with one name",
		    path);
		goto fail;
	}
	if ((busy = store_runlock_try(fd, LOCK_EX, path, cause)) == -1)
		goto fail;
	/*
	 * A store that another process holds locked past the busy timeout
	 * (a long import) is no reason to drop the lock: the run the caller
	 * is about to record needs it all the same, and the next sweep marks
	 * what this one could not.
	 */
	if (!busy && store_runs_mark_stale(st, host, marked) == -1) {
		if (store_failure(st) != STORE_BUSY) {
			xasprintf(cause, "%s: %s", st->path, store_errmsg(st));
			goto fail;
		}
		busy = 2;
	}
	if (!hold) {
		close(fd);
		free(path);
		return busy;
	}
	/*
	 * Shared from now on.  flock converts by dropping the exclusive lock
	 * first; another sweep may get in between, but finds no run of ours
	 * yet.  A sweep holds it exclusively for a moment; one that holds it
	 * for STORE_RUNLOCK_WAIT seconds is not a sweep (a lock file in a
	 * shared directory that someone else holds), and is not waited for.
	 */
	for (tries = 0; (rc = store_runlock_try(fd, LOCK_SH, path, cause)) != 0;
	    tries++) {
		if (rc == -1)
			goto fail;
		if (tries == STORE_RUNLOCK_WAIT * 20) {
			xasprintf(cause, "%s: held exclusively for %d s",
			    path, STORE_RUNLOCK_WAIT);
			goto fail;
		}
		nanosleep(&pause, NULL);
	}
	st->runlock_fd = fd;
	free(path);
	return busy;
fail:
	close(fd);
	free(path);
	return -1;
}

/*
 * Whether a perfwatch run may be recording into this store now: 1 when
 * one holds the run lock (see store_runs_sweep(); which of the running
 * runs it records cannot be told), 0 when none does (every run still
 * "running" was left so by a process that is gone), -1 with *cause on an
 * error.  The lock is tried exclusively, as a sweep takes it, and let go
 * at once; a sweep that holds it in that moment counts as a run.
 */
int
store_runs_live(struct store *st, char **cause)
{
	char	*path;
	int	 fd, rc;

	xasprintf(&path, "%s.run", st->path);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1) {
		/* Made by the first run: none has been recorded here. */
		rc = errno == ENOENT ? 0 : -1;
		if (rc == -1)
			xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	rc = store_runlock_try(fd, LOCK_EX, path, cause);
	close(fd);
	free(path);
	return rc;
}

/* Add one sample; on error the caller reports store_errmsg(). */
int
store_sample_add(struct store *st, int64_t run, int64_t metric, int iteration,
    double value)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_SAMPLE_INSERT,
	    "INSERT INTO samples (run, metric, iteration, value) "
	    "VALUES (?, ?, ?, ?)");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	sqlite3_bind_int64(stmt, 2, metric);
	sqlite3_bind_int(stmt, 3, iteration);
	sqlite3_bind_double(stmt, 4, value);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Record how one workload of a run ended. */
int
store_run_workload_set(struct store *st, int64_t run, const char *workload,
    const char *status, double wall, double cpu, const char *error)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	stmt = store_stmt(st, STMT_RUN_WORKLOAD,
	    "INSERT OR REPLACE INTO run_workloads (run, workload, status, wall,"
	    " cpu, error) VALUES (?, ?, ?, ?, ?, ?)");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	sqlite3_bind_text(stmt, 2, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, status, -1, SQLITE_STATIC);
	sqlite3_bind_double(stmt, 4, wall);
	sqlite3_bind_double(stmt, 5, cpu);
	bind_text_or_null(stmt, 6, error);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Append a value to the series s, growing it. */
static void
series_push(struct store_series *s, size_t *cap, int iteration, double v)
{
	if (s->n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		s->values = xreallocarray(s->values, *cap, sizeof(double));
		s->iterations = xreallocarray(s->iterations, *cap,
		    sizeof(int));
	}
	s->values[s->n] = v;
	s->iterations[s->n++] = iteration;
}

/* The samples of run, one series per metric, by workload then metric. */
int
store_run_series(struct store *st, int64_t run, struct store_series **out,
    size_t *nout)
{
	sqlite3_stmt		*stmt;
	struct store_series	*ser = NULL, *cur = NULL;
	size_t			 n = 0, cap = 0, scap = 0;
	int64_t			 mid;
	int			 rc;

	stmt = store_stmt(st, STMT_RUN_SERIES,
	    "SELECT m.id, m.workload, m.metric, m.unit, m.better, s.iteration,"
	    " s.value FROM samples s JOIN metrics m ON m.id = s.metric"
	    " WHERE s.run = ? ORDER BY m.workload COLLATE name,"
	    " m.metric COLLATE name, s.iteration");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		mid = sqlite3_column_int64(stmt, 0);
		if (cur == NULL || cur->metric.id != mid) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				ser = xreallocarray(ser, cap, sizeof(*ser));
			}
			cur = &ser[n++];
			memset(cur, 0, sizeof(*cur));
			store_metric_from_row(stmt, 0, &cur->metric);
			cur->run = run;
			scap = 0;
		}
		series_push(cur, &scap, sqlite3_column_int(stmt, 5),
		    sqlite3_column_double(stmt, 6));
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		store_series_free(ser, n);
		return -1;
	}
	*out = ser;
	*nout = n;
	return 0;
}

/*
 * The metrics of the workloads that did not complete in run (failed,
 * timed out, aborted, skipped), by id ascending, into *ids (free it) and
 * *n: the samples some of their iterations left are no run's measure,
 * and what judges or scans a history leaves them out.  Nearly always
 * none, found in the run's few rows of run_workloads.  0, or -1.
 */
static int
run_undone_metrics(struct store *st, int64_t run, int64_t **ids, size_t *n)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	*ids = NULL;
	*n = 0;
	stmt = store_stmt(st, STMT_RUN_UNDONE,
	    "SELECT m.id FROM run_workloads w JOIN metrics m"
	    " ON m.workload = w.workload WHERE w.run = ?1"
	    " AND w.status <> 'complete' ORDER BY m.id");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(stmt, 0);
	}
	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* Whether metric is among ids[0..n) (ascending). */
static int
id_among(const int64_t *ids, size_t n, int64_t metric)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ids[mid] < metric)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == metric;
}

static int	metric_series(struct store *, struct store_cache *, int64_t,
		    const int64_t *, size_t, int, struct store_series **,
		    size_t *);

/*
 * The samples of one metric in each of runs[] (one series per run, in the
 * order given; a run without samples gives an empty series): every one
 * stored, those of a workload that did not complete in its run too.
 */
int
store_metric_series(struct store *st, int64_t metric, const int64_t *runs,
    size_t nruns, struct store_series **out, size_t *nout)
{
	return metric_series(st, NULL, metric, runs, nruns, 0, out, nout);
}

/*
 * The cache of whole runs.  Its reason: detect's check asks each of a
 * run's metrics for the same 90-odd runs before it, and the samples are
 * keyed by run first, so each ask was a seek of its own (19200 of them
 * for the 200 metrics of bench/store's history, a third of the check).
 * A run asked for a second time is read in one range and kept; a run
 * only one metric wants (an old alert's span) stays a seek, so that no
 * whole run is read for one metric of it.  Runs are found by open
 * addressing on their id (ids are never 0, the empty slot).
 */
struct cache_run {
	int64_t		 run;
	unsigned	 asked;
	int		 whole;
	size_t		 n;
	int64_t		*metric;	/* by metric, then iteration */
	int		*iteration;
	double		*value;
};

struct store_cache {
	struct cache_run	*slot;
	size_t			 cap;		/* a power of 2 */
	size_t			 used;
	size_t			 samples, max_samples;
};

struct store_cache *
store_cache_new(size_t max_samples)
{
	struct store_cache	*c;

	c = xcalloc(1, sizeof(*c));
	c->cap = 256;
	c->slot = xcalloc(c->cap, sizeof(*c->slot));
	c->max_samples = max_samples;
	return c;
}

void
store_cache_free(struct store_cache *c)
{
	size_t	i;

	if (c == NULL)
		return;
	for (i = 0; i < c->cap; i++) {
		free(c->slot[i].metric);
		free(c->slot[i].iteration);
		free(c->slot[i].value);
	}
	free(c->slot);
	free(c);
}

static struct cache_run *
cache_find(struct store_cache *c, int64_t run)
{
	size_t	i;

	i = (size_t)(((uint64_t)run * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
	for (i &= c->cap - 1; c->slot[i].run != 0; i = (i + 1) & (c->cap - 1))
		if (c->slot[i].run == run)
			return &c->slot[i];
	return &c->slot[i];
}

/* The run's entry, added when new. */
static struct cache_run *
cache_get(struct store_cache *c, int64_t run)
{
	struct cache_run	*old, *e;
	size_t			 i, ocap;

	e = cache_find(c, run);
	if (e->run == run)
		return e;
	if ((c->used + 1) * 2 > c->cap) {
		old = c->slot;
		ocap = c->cap;
		c->cap *= 2;
		c->slot = xcalloc(c->cap, sizeof(*c->slot));
		for (i = 0; i < ocap; i++)
			if (old[i].run != 0)
				*cache_find(c, old[i].run) = old[i];
		free(old);
		e = cache_find(c, run);
	}
	e->run = run;
	c->used++;
	return e;
}

/*
 * Read every sample of e's run into e, but those of the workloads that
 * did not complete in it (the cache serves store_metric_series_cached).
 */
static int
cache_read(struct store *st, struct store_cache *c, struct cache_run *e)
{
	sqlite3_stmt	*stmt;
	int64_t		*undone;
	size_t		 cap = 0, nundone;
	int		 rc;

	if (run_undone_metrics(st, e->run, &undone, &nundone) == -1)
		return -1;
	stmt = store_stmt(st, STMT_RUN_SAMPLES_ALL,
	    "SELECT metric, iteration, value FROM samples WHERE run = ?"
	    " ORDER BY metric, iteration");
	if (stmt == NULL) {
		free(undone);
		return -1;
	}
	sqlite3_bind_int64(stmt, 1, e->run);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (nundone > 0 && id_among(undone, nundone,
		    sqlite3_column_int64(stmt, 0)))
			continue;
		if (e->n == cap) {
			cap = cap ? cap * 2 : 256;
			e->metric = xreallocarray(e->metric, cap,
			    sizeof(*e->metric));
			e->iteration = xreallocarray(e->iteration, cap,
			    sizeof(*e->iteration));
			e->value = xreallocarray(e->value, cap,
			    sizeof(*e->value));
		}
		e->metric[e->n] = sqlite3_column_int64(stmt, 0);
		e->iteration[e->n] = sqlite3_column_int(stmt, 1);
		e->value[e->n++] = sqlite3_column_double(stmt, 2);
	}
	sqlite3_reset(stmt);
	free(undone);
	if (rc != SQLITE_DONE) {
		free(e->metric);
		free(e->iteration);
		free(e->value);
		e->metric = NULL;
		e->iteration = NULL;
		e->value = NULL;
		e->n = 0;
		return -1;
	}
	e->whole = 1;
	c->samples += e->n;
	return 0;
}

/* Copy metric's samples from e's whole run into s. */
static void
cache_series(const struct cache_run *e, int64_t metric,
    struct store_series *s)
{
	size_t	lo = 0, hi = e->n, mid, n;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e->metric[mid] < metric)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo + n < e->n && e->metric[lo + n] == metric; n++)
		continue;
	if (n == 0)
		return;
	s->values = xreallocarray(NULL, n, sizeof(*s->values));
	s->iterations = xreallocarray(NULL, n, sizeof(*s->iterations));
	memcpy(s->values, e->value + lo, n * sizeof(*s->values));
	memcpy(s->iterations, e->iteration + lo, n * sizeof(*s->iterations));
	s->n = n;
}

/*
 * As store_metric_series(), through the cache c (NULL: none), but that
 * a run whose metric's workload did not complete in it gives an empty
 * series: the measures that detect judges by.
 */
int
store_metric_series_cached(struct store *st, struct store_cache *c,
    int64_t metric, const int64_t *runs, size_t nruns,
    struct store_series **out, size_t *nout)
{
	return metric_series(st, c, metric, runs, nruns, 1, out, nout);
}

/*
 * store_metric_series() with done 0, store_metric_series_cached() with
 * done 1.  The second statement's test of run_workloads does not look at
 * the sample, and SQLite runs it once a run.
 */
static int
metric_series(struct store *st, struct store_cache *c, int64_t metric,
    const int64_t *runs, size_t nruns, int done, struct store_series **out,
    size_t *nout)
{
	sqlite3_stmt		*stmt;
	struct store_series	*ser;
	struct store_metric	 m;
	struct cache_run	*e;
	size_t			 i, cap;
	int			 rc;

	/* The cache holds only what done asks for. */
	assert(c == NULL || done);
	if (store_metric_get(st, metric, &m) == -1)
		return -1;
	if (done)
		stmt = store_stmt(st, STMT_METRIC_SERIES_DONE,
		    "SELECT iteration, value FROM samples WHERE run = ?1"
		    " AND metric = ?2 AND NOT EXISTS (SELECT 1 FROM"
		    " run_workloads WHERE run = ?1 AND workload = ?3 AND"
		    " status <> 'complete') ORDER BY iteration");
	else
		stmt = store_stmt(st, STMT_METRIC_SERIES,
		    "SELECT iteration, value FROM samples WHERE run = ?"
		    " AND metric = ? ORDER BY iteration");
	if (stmt == NULL) {
		store_metric_clear(&m);
		return -1;
	}
	ser = xcalloc(nruns > 0 ? nruns : 1, sizeof(*ser));
	for (i = 0; i < nruns; i++) {
		ser[i].run = runs[i];
		ser[i].metric.id = m.id;
		ser[i].metric.workload = xstrdup(m.workload);
		ser[i].metric.metric = xstrdup(m.metric);
		ser[i].metric.unit = xstrdup(m.unit);
		ser[i].metric.better = m.better;
		e = c != NULL ? cache_get(c, runs[i]) : NULL;
		if (e != NULL && !e->whole && ++e->asked >= 2 &&
		    c->samples < c->max_samples &&
		    cache_read(st, c, e) == -1)
			goto fail;
		if (e != NULL && e->whole) {
			cache_series(e, metric, &ser[i]);
			continue;
		}
		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, runs[i]);
		sqlite3_bind_int64(stmt, 2, metric);
		if (done)
			sqlite3_bind_text(stmt, 3, m.workload, -1,
			    SQLITE_STATIC);
		cap = 0;
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
			series_push(&ser[i], &cap, sqlite3_column_int(stmt, 0),
			    sqlite3_column_double(stmt, 1));
		if (rc != SQLITE_DONE)
			goto fail;
	}
	sqlite3_reset(stmt);
	store_metric_clear(&m);
	*out = ser;
	*nout = nruns;
	return 0;
fail:
	sqlite3_reset(stmt);
	store_series_free(ser, nruns);
	store_metric_clear(&m);
	return -1;
}

/*
 * Read run by run, where store_metric_series reads metric by metric: the
 * samples are keyed by run first, so one range of each run is read once
 * for all the metrics wanted, rather than a seek per metric and run.
 */
int
store_runs_samples(struct store *st, const int64_t *runs, size_t nruns,
    int64_t lo, int64_t hi, store_samples_fn fn, void *arg)
{
	sqlite3_stmt	*stmt;
	double		*v = NULL;
	size_t		 i, n, cap = 0, nundone;
	int64_t		 metric, cur, *undone;
	int		 rc;

	stmt = store_stmt(st, STMT_RUNS_SAMPLES,
	    "SELECT metric, value FROM samples WHERE run = ?1 AND metric"
	    " BETWEEN ?2 AND ?3 ORDER BY metric, iteration");
	if (stmt == NULL)
		return -1;
	for (i = 0; i < nruns; i++) {
		/* The other statement first: this one is reset meanwhile. */
		sqlite3_reset(stmt);
		if (run_undone_metrics(st, runs[i], &undone, &nundone) == -1) {
			free(v);
			return -1;
		}
		sqlite3_bind_int64(stmt, 1, runs[i]);
		sqlite3_bind_int64(stmt, 2, lo);
		sqlite3_bind_int64(stmt, 3, hi);
		n = 0;
		cur = 0;
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			metric = sqlite3_column_int64(stmt, 0);
			if (nundone > 0 && id_among(undone, nundone, metric))
				continue;
			if (n > 0 && metric != cur) {
				fn(arg, i, cur, v, n);
				n = 0;
			}
			cur = metric;
			if (n == cap) {
				cap = cap == 0 ? 64 : 2 * cap;
				v = xreallocarray(v, cap, sizeof(*v));
			}
			v[n++] = sqlite3_column_double(stmt, 1);
		}
		free(undone);
		if (rc != SQLITE_DONE) {
			sqlite3_reset(stmt);
			free(v);
			return -1;
		}
		if (n > 0)
			fn(arg, i, cur, v, n);
	}
	sqlite3_reset(stmt);
	free(v);
	return 0;
}

void
store_series_free(struct store_series *ser, size_t n)
{
	size_t	i;

	if (ser == NULL)
		return;
	for (i = 0; i < n; i++) {
		store_metric_clear(&ser[i].metric);
		free(ser[i].values);
		free(ser[i].iterations);
	}
	free(ser);
}

/*
 * Step stmt, whose columns are a metric's (store_metric_from_row), to its
 * end and finalize it: 0 with *out and *nout (none: NULL and 0), or -1
 * on a store error with nothing for the caller to free.
 */
static int
store_metrics_rows(sqlite3_stmt *stmt, struct store_metric **out,
    size_t *nout)
{
	struct store_metric	*ms = NULL;
	size_t			 n = 0, cap = 0;
	int			 rc;

	*out = NULL;
	*nout = 0;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			ms = xreallocarray(ms, cap, sizeof(*ms));
		}
		store_metric_from_row(stmt, 0, &ms[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_metrics_free(ms, n);
		return -1;
	}
	*out = ms;
	*nout = n;
	return 0;
}

/* Metrics matching workload and metric (NULL matches any), by name. */
int
store_metrics_list(struct store *st, const char *workload, const char *metric,
    struct store_metric **out, size_t *nout)
{
	sqlite3_stmt	*stmt;

	if (sqlite3_prepare_v2(st->db, "SELECT id, workload, metric, unit,"
	    " better FROM metrics WHERE (?1 IS NULL OR workload = ?1)"
	    " AND (?2 IS NULL OR metric = ?2)"
	    " ORDER BY workload COLLATE name, metric COLLATE name", -1,
	    &stmt, NULL) != SQLITE_OK)
		return -1;
	bind_text_or_null(stmt, 1, workload);
	bind_text_or_null(stmt, 2, metric);
	return store_metrics_rows(stmt, out, nout);
}

/*
 * The metrics of workload that run holds, and those this host measured in
 * its latest complete run before run to hold any (in start order, as
 * detect orders runs): what a check of run does not judge, when its
 * workload failed, timed out or was cut short there (what samples it has
 * are of iterations only some of).  0 with *out (none is 0 with *nout 0),
 * -1 on a store error.
 */
int
store_metrics_not_judged(struct store *st, int64_t run, const char *workload,
    struct store_metric **out, size_t *nout)
{
	sqlite3_stmt	*stmt;

	if (sqlite3_prepare_v2(st->db,
	    "WITH prev AS (SELECT r.id FROM runs r, runs cur"
	    "  WHERE cur.id = ?1 AND r.host = cur.host"
	    "  AND (r.started < cur.started OR"
	    "   (r.started = cur.started AND r.id < cur.id))"
	    "  AND r.status = 'complete' AND EXISTS (SELECT 1 FROM samples s"
	    "   JOIN metrics pm ON pm.id = s.metric"
	    "   WHERE s.run = r.id AND pm.workload = ?2)"
	    "  ORDER BY r.started DESC, r.id DESC LIMIT 1)"
	    " SELECT m.id, m.workload, m.metric, m.unit, m.better"
	    " FROM metrics m WHERE m.workload = ?2"
	    " AND (EXISTS (SELECT 1 FROM samples s, prev"
	    "  WHERE s.run = prev.id AND s.metric = m.id)"
	    " OR EXISTS (SELECT 1 FROM samples s"
	    "  WHERE s.run = ?1 AND s.metric = m.id))"
	    " ORDER BY m.metric COLLATE name", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	sqlite3_bind_text(stmt, 2, workload, -1, SQLITE_STATIC);
	return store_metrics_rows(stmt, out, nout);
}

void
store_metrics_free(struct store_metric *ms, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_metric_clear(&ms[i]);
	free(ms);
}

/*
 * What a workload or metric that no metric of ms[0..nms) matches was
 * likely meant to be (name_hint()), for the command's message and the
 * dashboard's 404 alike: *whint for a workload that no metric has, else
 * *mhint for the metric among those of the workload (of every one
 * without workload).  Each NULL without a hint; the caller frees them.
 */
void
store_metrics_hint(const struct store_metric *ms, size_t nms,
    const char *workload, const char *metric, char **whint, char **mhint)
{
	struct name_hint	h;
	size_t			i;

	*whint = *mhint = NULL;
	for (i = 0; workload != NULL && i < nms; i++)
		if (strcmp(ms[i].workload, workload) == 0)
			break;
	if (workload != NULL && i == nms) {
		name_hint_init(&h, workload);
		for (i = 0; i < nms; i++)
			name_hint_add(&h, ms[i].workload);
		*whint = name_hint_text(&h);
		return;
	}
	if (metric == NULL)
		return;
	name_hint_init(&h, metric);
	for (i = 0; i < nms; i++)
		if (workload == NULL || strcmp(ms[i].workload, workload) == 0)
			name_hint_add(&h, ms[i].metric);
	*mhint = name_hint_text(&h);
}

/* A named setting; 0 and *value (allocated) when set, -1 otherwise. */
int
store_setting_get(struct store *st, const char *key, char **value)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = store_stmt(st, STMT_SETTING_GET,
	    "SELECT value FROM settings WHERE key = ?")) == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*value = store_col_strdup(stmt, 0);
	sqlite3_reset(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Set (or with value NULL, delete) a named setting. */
int
store_setting_set(struct store *st, const char *key, const char *value)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (value == NULL)
		stmt = store_stmt(st, STMT_SETTING_DEL,
		    "DELETE FROM settings WHERE key = ?");
	else
		stmt = store_stmt(st, STMT_SETTING_SET,
		    "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)");
	if (stmt == NULL)
		return -1;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	if (value != NULL)
		sqlite3_bind_text(stmt, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A run that measured: complete, with a snapshot, not on a busy machine. */
#define RUN_MEASURED \
	"r.status = 'complete' AND r.snapshot IS NOT NULL AND " RUN_BUSY " = 0"

/*
 * The host's newest run that measured (RUN_MEASURED) and ran each of the
 * workloads[0..n) that any run of the host that measured ran, whatever
 * became of each (run_workloads): a workload no run has measured yet (one
 * just added) is not asked for.  0 and *run, or -1 when there is none
 * (store_failure() says whether the store failed).
 */
int
store_run_last_covering(struct store *st, int64_t host,
    const char *const *workloads, size_t n, int64_t *run)
{
	sqlite3_stmt	*stmt = NULL;
	char		*sql = NULL, *list = NULL, *tmp;
	size_t		 i, k = 0;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM run_workloads w JOIN"
	    " runs r ON r.id = w.run WHERE r.host = ?1 AND w.workload = ?2"
	    " AND " RUN_MEASURED " LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, host);
		sqlite3_bind_text(stmt, 2, workloads[i], -1, SQLITE_TRANSIENT);
		if ((rc = sqlite3_step(stmt)) == SQLITE_DONE)
			continue;
		if (rc != SQLITE_ROW)
			goto fail;
		/*
		 * Quoted by SQLite (%Q): a workload's name is any text.  (Its
		 * printf knows no %zu.)
		 */
		tmp = sqlite3_mprintf("%s%s%Q", list != NULL ? list : "",
		    list != NULL ? ", " : "", workloads[i]);
		sqlite3_free(list);
		if ((list = tmp) == NULL)
			fatalx("%s: out of memory", __func__);
		k++;
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (k == 0)
		sql = sqlite3_mprintf("SELECT r.id FROM runs r WHERE"
		    " r.host = ?1 AND " RUN_MEASURED " ORDER BY r.started DESC,"
		    " r.id DESC LIMIT 1");
	else
		sql = sqlite3_mprintf("SELECT r.id FROM runs r WHERE"
		    " r.host = ?1 AND " RUN_MEASURED " AND (SELECT count(DISTINCT"
		    " w.workload) FROM run_workloads w WHERE w.run = r.id AND"
		    " w.workload IN (%s)) = %d ORDER BY r.started DESC,"
		    " r.id DESC LIMIT 1", list, (int)k);
	sqlite3_free(list);
	list = NULL;
	if (sql == NULL)
		fatalx("%s: out of memory", __func__);
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_int64(stmt, 1, host);
	if ((rc = sqlite3_step(stmt)) != SQLITE_ROW)
		goto fail;
	*run = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_free(sql);
	return 0;
fail:
	sqlite3_finalize(stmt);
	sqlite3_free(sql);
	sqlite3_free(list);
	return -1;
}

/*
 * The host's first complete run (by start, then id) to be the reference
 * of the n metrics workloads[i]/metrics[i] (the system index's tests):
 * of the runs that measured (not on a busy machine) and are no
 * bisection's, the first with a sample of each of them the store knows,
 * else the first with one of any; failing those, the first complete run
 * with each, else with one of any.  A busy first run, or a bisection's,
 * was the reference of every later index, and so was a first run of one
 * test, which left every later score partial: on a machine always busy
 * too, where every run is.  0 and *run set when there is one, else -1
 * (store_failure() says whether the store failed).
 */
int
store_run_first_with(struct store *st, int64_t host,
    const char *const *workloads, const char *const *metrics, size_t n,
    int64_t *run)
{
	/* Measured and no bisection's, with each; with one; any, so. */
#define RUN_CLEAN	RUN_BUSY " = 0 AND r.trigger != 'bisect'"
	static const struct {
		const char	*where;
		int		 each;
	} pass[] = {
		{ RUN_CLEAN, 1 }, { RUN_CLEAN, 0 }, { "1", 1 }, { "1", 0 }
	};
	sqlite3_stmt	*stmt = NULL;
	char		*ids = NULL, *tmp, *sql;
	size_t		 i, k = 0;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "SELECT id FROM metrics WHERE"
	    " workload = ?1 AND metric = ?2", -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_reset(stmt);
		sqlite3_bind_text(stmt, 1, workloads[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, metrics[i], -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(stmt)) == SQLITE_DONE)
			continue;
		if (rc != SQLITE_ROW) {
			sqlite3_finalize(stmt);
			sqlite3_free(ids);
			return -1;
		}
		tmp = sqlite3_mprintf("%s%s%lld", ids != NULL ? ids : "",
		    ids != NULL ? ", " : "",
		    (long long)sqlite3_column_int64(stmt, 0));
		sqlite3_free(ids);
		if ((ids = tmp) == NULL)
			fatalx("%s: out of memory", __func__);
		k++;
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (k == 0)
		return -1;
	rc = SQLITE_DONE;
	for (i = 0; i < nitems(pass) && rc == SQLITE_DONE; i++) {
		/* SQLite's printf knows no %zu. */
		sql = sqlite3_mprintf("SELECT r.id FROM runs r WHERE"
		    " r.host = ?1 AND r.status = 'complete' AND %s AND (SELECT"
		    " count(DISTINCT s.metric) FROM samples s WHERE"
		    " s.run = r.id AND s.metric IN (%s)) >= %d"
		    " ORDER BY r.started, r.id LIMIT 1", pass[i].where, ids,
		    pass[i].each ? (int)k : 1);
		if (sql == NULL)
			fatalx("%s: out of memory", __func__);
		if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) !=
		    SQLITE_OK) {
			sqlite3_free(sql);
			sqlite3_free(ids);
			return -1;
		}
		sqlite3_free(sql);
		sqlite3_bind_int64(stmt, 1, host);
		if ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
			*run = sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
	}
	sqlite3_free(ids);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * How each workload of a run ended, in name order: 0 and *out, or -1 with
 * *out NULL and *nout 0.
 */
int
store_run_workloads(struct store *st, int64_t run,
    struct store_run_workload **out, size_t *nout)
{
	sqlite3_stmt			*stmt;
	struct store_run_workload	*w = NULL;
	size_t				 n = 0;
	int				 rc;

	*out = NULL;
	*nout = 0;
	/* Kept prepared: the runs list asks it once per run it shows. */
	if ((stmt = store_stmt(st, STMT_RUN_WORKLOADS, "SELECT workload,"
	    " status, wall, cpu, error FROM run_workloads WHERE run = ?"
	    " ORDER BY workload")) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		w = xreallocarray(w, n + 1, sizeof(*w));
		w[n].workload = store_col_strdup(stmt, 0);
		w[n].status = store_col_strdup(stmt, 1);
		w[n].wall = sqlite3_column_double(stmt, 2);
		w[n].cpu = sqlite3_column_double(stmt, 3);
		w[n].error = store_col_strdup(stmt, 4);
		n++;
	}
	sqlite3_reset(stmt);
	/* On error, nothing for the caller to free. */
	if (rc != SQLITE_DONE) {
		store_run_workloads_free(w, n);
		w = NULL;
		n = 0;
	}
	*out = w;
	*nout = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

void
store_run_workloads_free(struct store_run_workload *w, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(w[i].workload);
		free(w[i].status);
		free(w[i].error);
	}
	free(w);
}
