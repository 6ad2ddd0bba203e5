/*
 * Import and export of sample histories: CSV with the header
 *   run,time,workload,metric,value,unit,better[,host][,iteration]
 *   [,status][,trigger][,busy][,duration][,workload_status]
 * (the optional columns in any order after the required ones), and JSON
 * Lines with the same keys.  status, trigger and busy are what decide
 * whether a run counts in a baseline (complete, not a bisection's, not
 * measured on a busy machine): without them every run imported is
 * complete, of trigger import and quiet, and an aborted or busy run moved
 * from one store to another would count where it did not.
 * workload_status does the same for a workload of a complete run that
 * did not complete (failed, timeout, ...): the samples its first
 * iterations left are no measure, and histories leave them out (a row
 * of run_workloads); empty or absent, the workload completed.  duration is
 * the run's length in whole seconds, 0 included, as long as its end is
 * a time (up to 9999-12-31T23:59:59Z); a run without one is stored with
 * no end (its length unknown), never with a 0.
 *
 * An import is one transaction: the first bad row rolls everything back,
 * so a failed import leaves the store exactly as it was; so does a stop
 * asked for by a signal (store_import_stop), at the next row.  Errors name
 * file:row:column as the file shows them: the row is the line in the file
 * (blank lines counted), the column the CSV field number, or for JSON
 * Lines the byte column of the offending key (of the object's '{' when
 * the key is missing).  JSON Lines reads each line on its own: a JSON
 * array or an object spread over lines is said to be no JSON Lines, not
 * left to Jansson's "near end of file".  A leading UTF-8 byte order mark
 * is dropped in either format and takes no column.
 *
 * Rows with the same host, run and workload/metric are that metric's
 * iterations, numbered in the order they appear unless an iteration
 * column says otherwise.  A run's start time is its first row's time.
 * Export writes runs in start order, metrics by name, iterations in order,
 * always with the host, iteration, status and trigger columns (and busy,
 * empty in a CSV and left out of JSON Lines for a quiet run, duration,
 * the same where unknown, and workload_status, the same for a workload
 * that completed), so that import -> export -> import -> export is
 * byte-identical.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "csv.h"
#include "hmap.h"
#include "lines.h"
#include "log.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"
#include "store.h"
#include "store_int.h"

enum col {
	COL_RUN,
	COL_TIME,
	COL_WORKLOAD,
	COL_METRIC,
	COL_VALUE,
	COL_UNIT,
	COL_BETTER,
	COL_HOST,
	COL_ITERATION,
	COL_STATUS,
	COL_TRIGGER,
	COL_BUSY,
	COL_DURATION,
	COL_WORKLOAD_STATUS,
	COL_MAX
};

/* The last iteration of a metric in a run, given or numbered. */
#define IMPORT_ITERATION_MAX	1000000

static const char *const col_names[COL_MAX] = {
	"run", "time", "workload", "metric", "value", "unit", "better",
	"host", "iteration", "status", "trigger", "busy", "duration",
	"workload_status"
};

/*
 * How a workload can end, as the runner records it in run_workloads (the
 * table's CHECK): what a workload_status column may say.  Complete is
 * first: index 0 is a workload that completed, and has no row.
 */
static const char *const wl_statuses[] = {
	"complete", "failed", "timeout", "aborted", "skipped"
};

/* One row, whatever format it came in. */
struct import_row {
	const char	*field[COL_MAX];	/* NULL when absent */
	size_t		 colpos[COL_MAX];	/* for error messages */
	double		 value;
	int64_t		 time;
	long		 iteration;		/* 0: not given */
	int64_t		 duration;		/* -1: not given */
	char		 durtext[24];		/* duration as a number, or "" */
	int		 wl_status;		/* in wl_statuses; 0 not given */
	enum better	 better;
};

struct import_state {
	struct store		*st;
	const char		*name;
	int			 replace;
	int64_t			 local_host;
	struct hmap		*hosts;		/* host name -> id */
	struct hmap		*runs;		/* host id/label -> run id */
	struct hmap		*run_times;	/* host id/label -> its time */
	struct hmap		*metrics;	/* name/unit/better -> id */
	struct hmap		*iters;		/* run/metric -> last iteration */
	struct hmap		*run_attrs;	/* host id/label -> index in attrs */
	struct hmap		*wl_status;	/* run id/workload -> wl_statuses */
	char			**attrs;	/* a run's status, trigger, busy */
	size_t			 nattrs;
	char			*key;
	size_t			 keycap;
	int64_t			 last_run, last_metric;
	long			 last_iter;
	int			 store_failed;	/* the store's fault, not the input's */
	int			 store_busy;	/* locked by another process */
	int			 read_error;	/* errno of a read that failed */
	int			 read_failed;	/* the input could not be read */
	int			 stopped;	/* asked to stop */
	int			 run_live;	/* a run to replace records */
	struct store_import_stats stats;
};

/*
 * Append s to the state's key at byte at, after its length and a ':',
 * so that no name can pass for two (a workload "a\x1fb" of metric "c"
 * and a workload "a" of metric "b\x1fc" are two keys); the key's length.
 */
static size_t
import_key_add(struct import_state *is, size_t at, const char *s)
{
	size_t	len = strlen(s), v = len, n = 0;
	char	digits[24];

	/* By hand: snprintf() made a 500000-row import a tenth slower. */
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	if (at + n + len + 2 > is->keycap) {
		is->keycap = at + n + len + 64;
		is->key = xreallocarray(is->key, is->keycap, 1);
	}
	while (n > 0)
		is->key[at++] = digits[--n];
	is->key[at++] = ':';
	memcpy(is->key + at, s, len + 1);
	return at + len;
}

/* Build the key of a and b into the state's key buffer. */
static const char *
import_key(struct import_state *is, const char *a, const char *b)
{
	import_key_add(is, import_key_add(is, 0, a), b);
	return is->key;
}

/* Append a and b to the key built by import_key(). */
static const char *
import_key2(struct import_state *is, const char *a, const char *b)
{
	import_key_add(is, import_key_add(is, strlen(is->key), a), b);
	return is->key;
}

/* Format an error at the row and column of c. */
static int
import_error(struct import_state *is, size_t row, const struct import_row *r,
    enum col c, char **cause, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int
import_error(struct import_state *is, size_t row, const struct import_row *r,
    enum col c, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	xasprintf(cause, "%s:%zu:%zu: %s", is->name, row,
	    r != NULL ? r->colpos[c] : 1, msg);
	free(msg);
	return -1;
}

/*
 * Whether SQLite's last failure was the store's own: the disk full, an I/O
 * error, a file that cannot be written or read, not anything in a row.
 */
static int
import_store_failure(struct store *st)
{
	switch (sqlite3_errcode(st->db) & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_NOMEM:
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return 1;
	default:
		return 0;
	}
}

/*
 * SQLite's reason for a failure of the store; for an I/O error with the
 * system's, since "disk I/O error" alone does not say which.
 */
static char *
import_store_reason(struct store *st)
{
	char	*why;
	int	 code = sqlite3_errcode(st->db) & 0xff;
	int	 err = sqlite3_system_errno(st->db);

	if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN) && err != 0)
		xasprintf(&why, "%s: %s", sqlite3_errmsg(st->db),
		    strerror(err));
	else
		why = xstrdup(sqlite3_errmsg(st->db));
	return why;
}

/*
 * Format a failure of SQLite at row: when the store failed (see above),
 * the database and the reason, with where the import stopped; otherwise
 * an error of the row at column c, what: SQLite's reason.
 */
static int
import_db_error(struct import_state *is, size_t row,
    const struct import_row *r, enum col c, char **cause, const char *what)
{
	char	*why;

	if (import_store_failure(is->st)) {
		is->store_failed = 1;
		is->store_busy = store_failure(is->st) == STORE_BUSY;
		why = import_store_reason(is->st);
		xasprintf(cause, "%s: %s (importing %s, row %zu)",
		    is->st->path, why, is->name, row);
		free(why);
		return -1;
	}
	return import_error(is, row, r, c, cause, "%s: %s", what,
	    sqlite3_errmsg(is->st->db));
}

/*
 * Parse a finite number; the whole string must be the number.  -1 for
 * what is not one, -2 for a number a double cannot hold: beyond its range
 * (1e400), or so near 0 that it would be stored as 0 (1e-400).  A number
 * that is only read as a denormal (1e-310) keeps the digits it can.
 */
static int
parse_number(const char *s, double *out)
{
	char	*end;

	if (*s == '\0')
		return -1;
	/* strtod would take hexadecimal too, which no benchmark prints. */
	if (strpbrk(s, "xX") != NULL)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (*end != '\0' || !isfinite(*out))
		return errno == ERANGE && *end == '\0' ? -2 : -1;
	if (errno == ERANGE && *out == 0)
		return -2;
	return 0;
}

/* Check and convert the fields of r; -1 with *cause on a bad value. */
static int
import_check_row(struct import_state *is, size_t row, struct import_row *r,
    char **cause)
{
	const char	*why = NULL;
	enum col	 c;
	double		 it;
	size_t		 bad, i;

	/* JSON output and JSON Lines exports can carry nothing else. */
	for (c = COL_RUN; c < COL_MAX; c++)
		if (r->field[c] != NULL && utf8_check(r->field[c], &bad) == -1)
			return import_error(is, row, r, c, cause,
			    "%s: not valid UTF-8 (byte 0x%02x at offset %zu)",
			    col_names[c],
			    (unsigned char)r->field[c][bad], bad);
	for (c = COL_RUN; c <= COL_BETTER; c++) {
		if (r->field[c] == NULL)
			return import_error(is, row, r, c, cause,
			    "%s: missing", col_names[c]);
		if (r->field[c][0] == '\0' && c != COL_UNIT)
			return import_error(is, row, r, c, cause,
			    "%s: empty", col_names[c]);
	}
	/*
	 * A name of blanks alone shows as nothing in a table, and run --label
	 * refuses one; an empty host is this machine, a blank one no host.
	 */
	for (c = COL_RUN; c < COL_MAX; c++)
		if ((c == COL_RUN || c == COL_WORKLOAD || c == COL_METRIC ||
		    c == COL_HOST) && r->field[c] != NULL &&
		    r->field[c][0] != '\0' &&
		    r->field[c][strspn(r->field[c], " \t")] == '\0')
			return import_error(is, row, r, c, cause,
			    "%s: blank", col_names[c]);
	/*
	 * A number is the field's whole text, as every other column's text
	 * is its value: " 12.5" was taken for 12.5 (strtod skips blanks), a
	 * time " 1700000000" refused.  An export writes no blank.
	 */
	for (c = COL_RUN; c < COL_MAX; c++)
		if ((c == COL_VALUE || c == COL_ITERATION ||
		    c == COL_DURATION) && r->field[c] != NULL &&
		    r->field[c][0] != '\0' &&
		    (isspace((unsigned char)r->field[c][0]) ||
		    isspace((unsigned char)r->field[c][strlen(r->field[c]) -
		    1])))
			return import_error(is, row, r, c, cause,
			    "%s: \"%s\" has a blank before or after the "
			    "number", col_names[c], r->field[c]);
	switch (parse_number(r->field[COL_VALUE], &r->value)) {
	case -1:
		return import_error(is, row, r, COL_VALUE, cause,
		    "value: \"%s\" is not a finite number",
		    r->field[COL_VALUE]);
	case -2:
		if (r->value == 0)
			return import_error(is, row, r, COL_VALUE, cause,
			    "value: \"%s\" is too near 0 for a double, which "
			    "would store it as 0", r->field[COL_VALUE]);
		return import_error(is, row, r, COL_VALUE, cause,
		    "value: \"%s\" is beyond a double's range (%.2g)",
		    r->field[COL_VALUE], DBL_MAX);
	}
	if (better_parse(r->field[COL_BETTER], &r->better) == -1)
		return import_error(is, row, r, COL_BETTER, cause,
		    "better: \"%s\" is not higher or lower",
		    r->field[COL_BETTER]);
	if (timefmt_parse(r->field[COL_TIME], &r->time, &why) == -1)
		return import_error(is, row, r, COL_TIME, cause,
		    "time: \"%s\": %s (epoch seconds or RFC 3339 expected)",
		    r->field[COL_TIME], why != NULL ? why : "invalid");
	if (r->field[COL_STATUS] != NULL && r->field[COL_STATUS][0] != '\0' &&
	    strcmp(r->field[COL_STATUS], RUN_COMPLETE) != 0 &&
	    strcmp(r->field[COL_STATUS], RUN_ABORTED) != 0 &&
	    strcmp(r->field[COL_STATUS], RUN_FAILED) != 0 &&
	    strcmp(r->field[COL_STATUS], RUN_RUNNING) != 0)
		return import_error(is, row, r, COL_STATUS, cause,
		    "status: \"%s\" is not complete, aborted, failed or "
		    "running", r->field[COL_STATUS]);
	if (r->field[COL_TRIGGER] != NULL &&
	    r->field[COL_TRIGGER][0] != '\0' &&
	    !store_trigger_known(r->field[COL_TRIGGER]))
		return import_error(is, row, r, COL_TRIGGER, cause,
		    "trigger: \"%s\" is not one perfwatch records",
		    r->field[COL_TRIGGER]);
	/* Empty or absent: the workload completed, as before the column. */
	r->wl_status = 0;
	if (r->field[COL_WORKLOAD_STATUS] != NULL &&
	    r->field[COL_WORKLOAD_STATUS][0] != '\0') {
		for (i = 0; i < nitems(wl_statuses); i++)
			if (strcmp(r->field[COL_WORKLOAD_STATUS],
			    wl_statuses[i]) == 0)
				break;
		if (i == nitems(wl_statuses))
			return import_error(is, row, r, COL_WORKLOAD_STATUS,
			    cause, "workload_status: \"%s\" is not complete, "
			    "failed, timeout, aborted or skipped",
			    r->field[COL_WORKLOAD_STATUS]);
		r->wl_status = (int)i;
	}
	/*
	 * Read as a value is (parse_number), which refuses hexadecimal:
	 * strtod alone took "0x2" for iteration 2.
	 */
	r->iteration = 0;
	if (r->field[COL_ITERATION] != NULL &&
	    r->field[COL_ITERATION][0] != '\0') {
		if (parse_number(r->field[COL_ITERATION], &it) != 0 || it < 1 ||
		    it > IMPORT_ITERATION_MAX || it != floor(it))
			return import_error(is, row, r, COL_ITERATION, cause,
			    "iteration: \"%s\" is not a whole number from 1 "
			    "to %d", r->field[COL_ITERATION],
			    IMPORT_ITERATION_MAX);
		r->iteration = (long)it;
	}
	/*
	 * Any length whose end is a time: a run whose clock jumped while it
	 * ran (a machine without a clock, booted in 1970, then set by NTP)
	 * lasted decades, and export writes it as it is; a cap of a year
	 * refused that export.
	 */
	r->duration = -1;
	if (r->field[COL_DURATION] != NULL &&
	    r->field[COL_DURATION][0] != '\0') {
		if (parse_number(r->field[COL_DURATION], &it) != 0 || it < 0 ||
		    it > (double)(TIMEFMT_MAX - r->time) || it != floor(it))
			return import_error(is, row, r, COL_DURATION, cause,
			    "duration: \"%s\" is not a whole number of seconds "
			    "from 0 to %lld, which ends the run at "
			    "9999-12-31T23:59:59Z", r->field[COL_DURATION],
			    (long long)(TIMEFMT_MAX - r->time));
		r->duration = (int64_t)it;
	}
	/* "60" and "60.0" are one duration, as in JSON Lines. */
	r->durtext[0] = '\0';
	if (r->duration >= 0)
		snprintf(r->durtext, sizeof(r->durtext), "%lld",
		    (long long)r->duration);
	return 0;
}

/*
 * What a row says of its run: status (complete when not said; a run
 * exported while it ran is aborted, as nothing will end it where it
 * goes), trigger (import when not said), the reason it was busy ("" for
 * a quiet machine) and its duration (the number, "" when not said).
 */
static const char *
import_attr(const struct import_row *r, enum col c)
{
	const char	*v = r->field[c];

	if (c == COL_BUSY)
		return v == NULL || v[strspn(v, " \t")] == '\0' ? "" : v;
	if (c == COL_DURATION)
		return r->durtext;
	if (v == NULL || v[0] == '\0')
		return c == COL_STATUS ? RUN_COMPLETE : RUN_TRIGGER_IMPORT;
	if (c == COL_STATUS && strcmp(v, RUN_RUNNING) == 0)
		return RUN_ABORTED;
	return v;
}

/* Mark run busy with the reason why, as perfwatch run does. */
static int
import_set_busy(struct store *st, int64_t run, const char *why)
{
	json_t	*q;
	char	*text;
	int	 rc;

	q = json_pack("{s:b, s:s}", "busy", 1, "why", why);
	if (q == NULL)
		return -1;
	text = json_dumps(q, JSON_COMPACT);
	json_decref(q);
	if (text == NULL)
		return -1;
	rc = store_run_set_quiet(st, run, text);
	free(text);
	return rc;
}

/*
 * Whether row r says other than the run's first row of its status,
 * trigger or busy reason (recorded at attrs[at]): a run has one of each.
 */
static int
import_attrs_differ(struct import_state *is, size_t row,
    const struct import_row *r, size_t at, char **cause)
{
	static const enum col	 cols[] = { COL_STATUS, COL_TRIGGER, COL_BUSY,
	    COL_DURATION };
	size_t			 i;

	for (i = 0; i < nitems(cols); i++) {
		if (strcmp(import_attr(r, cols[i]), is->attrs[at + i]) == 0)
			continue;
		import_error(is, row, r, cols[i], cause, "%s: \"%s\", where "
		    "run \"%s\" has \"%s\" in an earlier row (a run has one "
		    "%s)", col_names[cols[i]], r->field[cols[i]] != NULL ?
		    r->field[cols[i]] : "", r->field[COL_RUN],
		    is->attrs[at + i], col_names[cols[i]]);
		return 1;
	}
	return 0;
}

/*
 * Record that workload did not complete in run, ending as status: the
 * row of run_workloads that the runner writes, its times and error
 * unknown (NULL, as for a workload that a killed run cut short).
 */
static int
import_workload_set(struct store *st, int64_t run, const char *workload,
    const char *status)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (sqlite3_prepare_v2(st->db, "INSERT INTO run_workloads (run,"
	    " workload, status) VALUES (?, ?, ?)", -1, &stmt,
	    NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, run);
	sqlite3_bind_text(stmt, 2, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, status, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Whether run id, which --replace is to delete for row r, may be deleted:
 * not while it is "running" and a perfwatch run holds the store's run
 * lock, as it may be that run's.  Deleted, its number went to the run
 * imported in its place (runs.id is reused), and the live run wrote the
 * samples and the end it had yet to write into that one.  A run left
 * running by a process that is gone may be replaced.  0, or -1 with
 * *cause.
 */
static int
import_replace_check(struct import_state *is, size_t row,
    const struct import_row *r, int64_t id, char **cause)
{
	struct store_run	 old;
	char			*why = NULL;
	int			 running;

	if (store_run_get(is->st, id, &old) == -1)
		return import_db_error(is, row, r, COL_RUN, cause,
		    "looking up the run");
	running = strcmp(old.status, RUN_RUNNING) == 0;
	store_run_clear(&old);
	if (!running)
		return 0;
	switch (store_runs_live(is->st, &why)) {
	case 0:
		return 0;
	case 1:
		is->run_live = 1;
		return import_error(is, row, r, COL_RUN, cause, "run \"%s\" "
		    "is running, and a perfwatch run is recording into %s: "
		    "not replaced while it may be that run's (import again "
		    "once it has ended)", r->field[COL_RUN], is->st->path);
	default:
		is->store_failed = 1;
		xasprintf(cause, "%s (replacing run \"%s\", which is "
		    "running, at %s row %zu)", why, r->field[COL_RUN],
		    is->name, row);
		free(why);
		return -1;
	}
}

/* Store one checked row. */
static int
import_store_row(struct import_state *is, size_t row, struct import_row *r,
    char **cause)
{
	struct store_run	 run;
	const char		*host = r->field[COL_HOST];
	char			*err = NULL, idbuf[48];
	int64_t			 hostid, runid, metricid, old;
	long			 iter;

	/* A signal asked the import to stop: the rollback undoes it all. */
	if (is->st->import_stop != NULL && *is->st->import_stop) {
		is->stopped = 1;
		xasprintf(cause, "%s: stopped at row %zu", is->name, row);
		return -1;
	}

	/* Host. */
	if (host == NULL || host[0] == '\0')
		hostid = is->local_host;
	else if (hmap_get(is->hosts, host, &hostid) == -1) {
		if ((hostid = store_host_ensure(is->st, host, NULL)) == -1)
			return import_db_error(is, row, r, COL_HOST, cause,
			    "host");
		hmap_put(is->hosts, host, hostid);
	}

	/* Run: new in this import, or existing (an error without replace). */
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)hostid);
	if (hmap_get(is->runs, import_key(is, idbuf, r->field[COL_RUN]),
	    &runid) == -1) {
		if (store_run_lookup(is->st, hostid, r->field[COL_RUN],
		    &old) == 0) {
			if (!is->replace)
				return import_error(is, row, r, COL_RUN, cause,
				    "run \"%s\" is in the store already (use "
				    "--replace to replace it)",
				    r->field[COL_RUN]);
			if (import_replace_check(is, row, r, old, cause) == -1)
				return -1;
			if (store_run_delete(is->st, old) == -1)
				return import_db_error(is, row, r, COL_RUN,
				    cause, "replacing the run");
		} else if (store_failure(is->st) != STORE_FOUND_NONE)
			/* Not "not there": the INSERT would say "UNIQUE". */
			return import_db_error(is, row, r, COL_RUN, cause,
			    "looking up the run");
		memset(&run, 0, sizeof(run));
		run.host = hostid;
		run.label = (char *)r->field[COL_RUN];
		run.trigger = (char *)import_attr(r, COL_TRIGGER);
		/* The file it came from, where the trigger says "import". */
		if (strcmp(run.trigger, RUN_TRIGGER_IMPORT) == 0)
			run.trigger_detail = (char *)is->name;
		run.started = r->time;
		/* Unknown unless said: no end (NULL), shown as "-". */
		run.has_end = r->duration >= 0;
		run.ended = run.has_end ? r->time + r->duration : 0;
		run.status = (char *)import_attr(r, COL_STATUS);
		if ((runid = store_run_create(is->st, &run, &err)) < 0) {
			if (import_store_failure(is->st))
				import_db_error(is, row, r, COL_RUN, cause,
				    "run");
			else
				import_error(is, row, r, COL_RUN, cause,
				    "run: %s", err);
			free(err);
			return -1;
		}
		if (import_attr(r, COL_BUSY)[0] != '\0' &&
		    import_set_busy(is->st, runid,
		    import_attr(r, COL_BUSY)) == -1)
			return import_db_error(is, row, r, COL_BUSY, cause,
			    "busy");
		hmap_put(is->runs, import_key(is, idbuf, r->field[COL_RUN]),
		    runid);
		hmap_put(is->run_times, is->key, r->time);
		hmap_put(is->run_attrs, is->key, (int64_t)is->nattrs);
		is->attrs = xreallocarray(is->attrs, is->nattrs + 4,
		    sizeof(*is->attrs));
		is->attrs[is->nattrs++] = xstrdup(import_attr(r, COL_STATUS));
		is->attrs[is->nattrs++] = xstrdup(import_attr(r, COL_TRIGGER));
		is->attrs[is->nattrs++] = xstrdup(import_attr(r, COL_BUSY));
		is->attrs[is->nattrs++] = xstrdup(import_attr(r,
		    COL_DURATION));
		is->stats.runs++;
	} else if (hmap_get(is->run_attrs, is->key, &old) == 0 &&
	    import_attrs_differ(is, row, r, (size_t)old, cause))
		return -1;
	else if (hmap_get(is->run_times, is->key, &old) == 0 &&
	    old != r->time) {
		char	tnew[TIMEFMT_RFC3339_LEN], told[TIMEFMT_RFC3339_LEN];
		int	same;

		/*
		 * A run has one time: two would leave one of them unsaid.
		 * Both are said as times, whichever way the file wrote them.
		 */
		if (timefmt_format(r->time, tnew, sizeof(tnew)) == -1)
			snprintf(tnew, sizeof(tnew), "%lld", (long long)r->time);
		if (timefmt_format(old, told, sizeof(told)) == -1)
			snprintf(told, sizeof(told), "%lld", (long long)old);
		same = strcmp(r->field[COL_TIME], tnew) == 0;
		return import_error(is, row, r, COL_TIME, cause,
		    "time: \"%s\"%s%s%s, where run \"%s\" has %s in an "
		    "earlier row (a run has one time)", r->field[COL_TIME],
		    same ? "" : " (", same ? "" : tnew, same ? "" : ")",
		    r->field[COL_RUN], told);
	}

	/*
	 * How the row's workload ended in the run, one status for all its
	 * rows.  One that did not complete is recorded as the runner records
	 * it, so that the samples it left count in no baseline or changes
	 * here either, as in the store they were exported from.
	 */
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)runid);
	if (hmap_get(is->wl_status, import_key(is, idbuf,
	    r->field[COL_WORKLOAD]), &old) == -1) {
		hmap_put(is->wl_status, is->key, r->wl_status);
		if (r->wl_status != 0 && import_workload_set(is->st, runid,
		    r->field[COL_WORKLOAD], wl_statuses[r->wl_status]) == -1)
			return import_db_error(is, row, r, COL_WORKLOAD_STATUS,
			    cause, "workload_status");
	} else if (old != r->wl_status)
		return import_error(is, row, r, COL_WORKLOAD_STATUS, cause,
		    "workload_status: \"%s\", where workload \"%s\" of run "
		    "\"%s\" has \"%s\" in an earlier row (a workload has one "
		    "status in a run)", r->field[COL_WORKLOAD_STATUS] != NULL ?
		    r->field[COL_WORKLOAD_STATUS] : "", r->field[COL_WORKLOAD],
		    r->field[COL_RUN], wl_statuses[old]);

	/*
	 * Metric: the map is keyed by name, unit and direction together, so
	 * a row that changes either misses it and meets the check below.
	 */
	import_key(is, r->field[COL_WORKLOAD], r->field[COL_METRIC]);
	import_key2(is, r->field[COL_UNIT], r->field[COL_BETTER]);
	if (hmap_get(is->metrics, is->key, &metricid) == -1) {
		struct store_metric m;

		if (store_metric_find(is->st, r->field[COL_WORKLOAD],
		    r->field[COL_METRIC], &m) == 0) {
			int bad = 1;

			if (strcmp(m.unit, r->field[COL_UNIT]) != 0)
				import_error(is, row, r, COL_UNIT, cause,
				    "unit of %s %s changes from \"%s\" to "
				    "\"%s\"", m.workload, m.metric, m.unit,
				    r->field[COL_UNIT]);
			else if (m.better != r->better)
				import_error(is, row, r, COL_BETTER, cause,
				    "%s %s is better %s, not %s", m.workload,
				    m.metric, better_name(m.better),
				    r->field[COL_BETTER]);
			else
				bad = 0;
			metricid = m.id;
			store_metric_clear(&m);
			if (bad)
				return -1;
		} else if (store_failure(is->st) != STORE_FOUND_NONE)
			return import_db_error(is, row, r, COL_METRIC, cause,
			    "looking up the metric");
		else {
			metricid = store_metric_ensure(is->st,
			    r->field[COL_WORKLOAD], r->field[COL_METRIC],
			    r->field[COL_UNIT], r->better, &err);
			if (metricid == -1) {
				if (import_store_failure(is->st))
					import_db_error(is, row, r, COL_METRIC,
					    cause, "metric");
				else
					import_error(is, row, r, COL_METRIC,
					    cause, "%s", err);
				free(err);
				return -1;
			}
			is->stats.metrics++;
		}
		import_key(is, r->field[COL_WORKLOAD], r->field[COL_METRIC]);
		import_key2(is, r->field[COL_UNIT], r->field[COL_BETTER]);
		hmap_put(is->metrics, is->key, metricid);
	}

	/* Iteration. */
	if (runid == is->last_run && metricid == is->last_metric)
		iter = is->last_iter + 1;
	else {
		char	mbuf[48];
		int64_t	last;

		snprintf(idbuf, sizeof(idbuf), "%lld", (long long)runid);
		snprintf(mbuf, sizeof(mbuf), "%lld", (long long)metricid);
		if (is->last_run != 0) {
			char	lr[48], lm[48];

			snprintf(lr, sizeof(lr), "%lld",
			    (long long)is->last_run);
			snprintf(lm, sizeof(lm), "%lld",
			    (long long)is->last_metric);
			hmap_put(is->iters, import_key(is, lr, lm),
			    is->last_iter);
		}
		iter = hmap_get(is->iters, import_key(is, idbuf, mbuf),
		    &last) == 0 ? (long)last + 1 : 1;
	}
	if (r->iteration > 0)
		iter = r->iteration;
	/*
	 * Numbered after the row before it, an iteration can pass the bound
	 * a given one is held to: stored, it was exported, and the export
	 * refused on import.
	 */
	if (iter > IMPORT_ITERATION_MAX)
		return import_error(is, row, r, r->field[COL_ITERATION] != NULL ?
		    COL_ITERATION : COL_METRIC, cause, "iteration %ld of %s %s "
		    "in run \"%s\" is beyond %d", iter, r->field[COL_WORKLOAD],
		    r->field[COL_METRIC], r->field[COL_RUN],
		    IMPORT_ITERATION_MAX);
	if (store_sample_add(is->st, runid, metricid, (int)iter,
	    r->value) == -1) {
		if (sqlite3_extended_errcode(is->st->db) ==
		    SQLITE_CONSTRAINT_PRIMARYKEY)
			return import_error(is, row, r, r->iteration > 0 ?
			    COL_ITERATION : COL_METRIC, cause, "iteration %ld "
			    "of %s %s in run \"%s\" appears twice", iter,
			    r->field[COL_WORKLOAD], r->field[COL_METRIC],
			    r->field[COL_RUN]);
		return import_db_error(is, row, r, COL_VALUE, cause, "value");
	}
	is->last_run = runid;
	is->last_metric = metricid;
	is->last_iter = iter;
	is->stats.samples++;
	if (is->st->import_progress != NULL &&
	    is->stats.samples % STORE_IMPORT_PROGRESS == 0)
		is->st->import_progress(&is->stats, is->st->import_progress_arg);
	return 0;
}

/* Done with rd: keep why a read failed, for store_import to say. */
static void
import_csv_free(struct import_state *is, struct csv_reader *rd)
{
	if (rd->in.error != 0)
		is->read_error = rd->in.error;
	csv_reader_free(rd);
}

/* Import CSV: the header names the columns. */
static int
import_csv(struct import_state *is, FILE *f, const char *held, size_t heldlen,
    char **cause)
{
	struct csv_reader	 rd;
	struct import_row	 r;
	int			 map[COL_MAX], rc, c;
	size_t			 i, need;
	char			*err = NULL;

	csv_reader_init(&rd, f, held, heldlen);
	if ((rc = csv_read(&rd, &err)) != 1) {
		if (rc == 0)
			xasprintf(cause, "%s: empty file", is->name);
		else {
			xasprintf(cause, "%s:%s", is->name, err);
			free(err);
		}
		import_csv_free(is, &rd);
		return -1;
	}
	for (c = 0; c < COL_MAX; c++)
		map[c] = -1;
	for (i = 0; i < rd.nfields; i++) {
		const char *h = rd.fields[i];

		for (c = 0; c < COL_MAX; c++)
			if (strcmp(h, col_names[c]) == 0)
				break;
		if (c == COL_MAX || map[c] != -1 ||
		    (c <= COL_BETTER && (size_t)c != i)) {
			xasprintf(cause, "%s:%zu:%zu: header: expected \"run,"
			    "time,workload,metric,value,unit,better\" then "
			    "optionally host, iteration, status, trigger, "
			    "busy, duration and workload_status; found "
			    "\"%s\"",
			    is->name, rd.row, i + 1, h);
			import_csv_free(is, &rd);
			return -1;
		}
		map[c] = (int)i;
	}
	if (rd.nfields < COL_BETTER + 1) {
		xasprintf(cause, "%s:%zu:%zu: header: expected \"run,time,"
		    "workload,metric,value,unit,better\"", is->name, rd.row,
		    rd.nfields + 1);
		import_csv_free(is, &rd);
		return -1;
	}
	need = rd.nfields;
	while ((rc = csv_read(&rd, &err)) == 1) {
		if (rd.nfields != need) {
			xasprintf(cause, "%s:%zu:%zu: expected %zu fields, "
			    "found %zu", is->name, rd.row,
			    rd.nfields < need ? rd.nfields + 1 : need + 1, need,
			    rd.nfields);
			import_csv_free(is, &rd);
			return -1;
		}
		memset(&r, 0, sizeof(r));
		for (c = 0; c < COL_MAX; c++) {
			if (map[c] == -1)
				continue;
			r.field[c] = rd.fields[map[c]];
			r.colpos[c] = (size_t)map[c] + 1;
		}
		if (import_check_row(is, rd.row, &r, cause) == -1 ||
		    import_store_row(is, rd.row, &r, cause) == -1) {
			import_csv_free(is, &rd);
			return -1;
		}
	}
	import_csv_free(is, &rd);
	if (rc == -1) {
		xasprintf(cause, "%s:%s", is->name, err);
		free(err);
		return -1;
	}
	return 0;
}

/* Is the JSON string literal at s (n bytes, quotes included) key? */
static int
jsonl_string_is(const char *s, size_t n, const char *key)
{
	json_error_t	 jerr;
	json_t		*v;
	int		 same;

	if (memchr(s, '\\', n) == NULL)
		return n - 2 == strlen(key) && memcmp(s + 1, key, n - 2) == 0;
	/* Escapes: let Jansson decode it. */
	if ((v = json_loadb(s, n, JSON_DECODE_ANY, &jerr)) == NULL)
		return 0;
	same = json_is_string(v) && strcmp(json_string_value(v), key) == 0;
	json_decref(v);
	return same;
}

/*
 * Byte column (1-based) of the member key in the object on line (len
 * bytes), for error messages: the key itself, never the same text inside
 * a value or a nested object.  A key that is not there gives the column
 * of the object's '{'.
 */
static size_t
jsonl_key_column(const char *line, size_t len, const char *key)
{
	size_t	 i, j, start, open = 0;
	int	 depth = 0;

	for (i = 0; i < len; i++) {
		switch (line[i]) {
		case '"':
			start = i;
			for (i++; i < len && line[i] != '"'; i++)
				if (line[i] == '\\')
					i++;
			if (depth != 1 || i >= len)
				break;
			for (j = i + 1; j < len && strchr(" \t\r", line[j]) != NULL;
			    j++)
				;
			if (j < len && line[j] == ':' &&
			    jsonl_string_is(line + start, i + 1 - start, key))
				return start + 1;
			break;
		case '{':
		case '[':
			if (depth++ == 0)
				open = i;
			break;
		case '}':
		case ']':
			depth--;
			break;
		}
	}
	return open + 1;
}

/*
 * The text of the number that is the value of the key whose opening quote
 * is at column col of line (len bytes), or NULL.  The value column reads
 * it as a CSV's field is read: Jansson reads 1e-400 as 0, and the number
 * it gives back cannot tell that from a 0 written as such.
 */
static char *
jsonl_number_text(const char *line, size_t len, size_t col)
{
	size_t	 i = col - 1, start;

	if (col == 0 || i >= len || line[i] != '"')
		return NULL;
	for (i++; i < len && line[i] != '"'; i++)
		if (line[i] == '\\')
			i++;
	for (i++; i < len && strchr(" \t\r", line[i]) != NULL; i++)
		;
	if (i >= len || line[i] != ':')
		return NULL;
	for (i++; i < len && strchr(" \t\r", line[i]) != NULL; i++)
		;
	for (start = i; i < len && strchr("+-.0123456789eE", line[i]) !=
	    NULL; i++)
		;
	if (i == start)
		return NULL;
	return xstrndup(line + start, i - start);
}

/*
 * Copy into buf (size bytes) the text of the number that is the value of
 * the key at column col of line, as jsonl_number_text() finds it: any
 * number with any, else only an integer (digits, a sign): 0, or -1 when
 * there is none, or it does not fit.
 */
static int
jsonl_number_copy(const char *line, size_t len, size_t col, int any,
    char *buf, size_t size)
{
	char	*t;
	int	 rc = -1;

	if ((t = jsonl_number_text(line, len, col)) == NULL)
		return -1;
	if (strlen(t) < size && (any || t[strspn(t, "+-0123456789")] ==
	    '\0')) {
		memcpy(buf, t, strlen(t) + 1);
		rc = 0;
	}
	free(t);
	return rc;
}

/* Import JSON Lines: one object a line with the CSV's keys. */
static int
import_jsonl(struct import_state *is, FILE *f, const char *held,
    size_t heldlen, char **cause)
{
	struct lines		 in;
	struct import_row	 r;
	json_error_t		 jerr;
	json_t			*obj, *v;
	char			*line, numbuf[COL_MAX][64], *raw = NULL;
	const char		*key, *p;
	size_t			 row = 0, first, bad;
	ssize_t			 len;
	enum col		 c;
	int			 rc = 0, reread;

	lines_init(&in, f, held, heldlen);
	while ((len = lines_next(&in)) != -1) {
		line = in.line;
		row++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strspn(line, " \t") == (size_t)len)
			continue;
		obj = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES,
		    &jerr);
		/*
		 * An integer beyond 64 bits is a number all the same (a byte
		 * counter), as in a CSV: read the line again with every
		 * number a real.
		 */
		reread = obj == NULL && strncmp(jerr.text, "too big ", 8) == 0;
		if (reread)
			obj = json_loadb(line, (size_t)len,
			    JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL,
			    &jerr);
		/*
		 * A line Jansson refuses for a byte that is not UTF-8: its
		 * position leaves that byte out, one column early, so the
		 * byte is looked for here (on a refused line only: Jansson
		 * has checked every line it took).
		 */
		if (obj == NULL && strncmp(jerr.text, "unable to decode byte",
		    21) == 0 && strlen(line) == (size_t)len &&
		    utf8_check(line, &bad) == -1) {
			xasprintf(cause, "%s:%zu:%zu: not valid UTF-8 (byte "
			    "0x%02x)", is->name, row, bad + 1,
			    (unsigned char)line[bad]);
			rc = -1;
			break;
		}
		first = strspn(line, " \t");
		if (obj == NULL && line[first] == '[') {
			/*
			 * A JSON array, whole on its line or spread over
			 * several: what Jansson says of either ("']' expected
			 * near end of file") does not tell what is wrong.
			 */
			xasprintf(cause, "%s:%zu:%zu: a JSON array, where JSON "
			    "Lines (one object a line) is expected",
			    is->name, row, first + 1);
			rc = -1;
			break;
		}
		if (obj == NULL && jerr.position >= len &&
		    (p = strstr(jerr.text, " near end of file")) != NULL) {
			/*
			 * The line ended inside the object: one cut short, or
			 * one spread over lines (pretty-printed JSON), each of
			 * whose lines is read on its own.  It is the line's
			 * end, not the file's, that came too soon.
			 */
			xasprintf(cause, "%s:%zu:%zu: %.*s at the end of the "
			    "line: JSON Lines holds each object whole on one "
			    "line", is->name, row, (size_t)len + 1,
			    (int)(p - jerr.text), jerr.text);
			rc = -1;
			break;
		}
		if (obj == NULL) {
			/*
			 * jansson's column counts characters; ours, bytes.
			 * What follows an object on its line is no "end of
			 * file" either.
			 */
			xasprintf(cause, "%s:%zu:%zu: %s%s", is->name, row,
			    jerr.position > 0 ? (size_t)jerr.position : 1,
			    strstr(jerr.text, "JSON_ALLOW_NUL") != NULL ?
			    "\\u0000 in a string" :
			    strncmp(jerr.text, "end of file ", 12) == 0 ?
			    "end of the line " : jerr.text,
			    strncmp(jerr.text, "end of file ", 12) == 0 ?
			    jerr.text + 12 : "");
			rc = -1;
			break;
		}
		if (json_is_array(obj)) {
			xasprintf(cause, "%s:%zu:%zu: a JSON array, where JSON "
			    "Lines (one object a line) is expected",
			    is->name, row, first + 1);
			json_decref(obj);
			rc = -1;
			break;
		}
		if (!json_is_object(obj)) {
			xasprintf(cause, "%s:%zu:1: expected a JSON object",
			    is->name, row);
			json_decref(obj);
			rc = -1;
			break;
		}
		memset(&r, 0, sizeof(r));
		/* A key that is missing is reported at the object's '{'. */
		for (c = 0; c < COL_MAX; c++)
			r.colpos[c] = strspn(line, " \t\r") + 1;
		json_object_foreach(obj, key, v) {
			for (c = 0; c < COL_MAX; c++)
				if (strcmp(key, col_names[c]) == 0)
					break;
			if (c == COL_MAX) {
				xasprintf(cause, "%s:%zu:%zu: unknown key "
				    "\"%s\"", is->name, row,
				    jsonl_key_column(line, (size_t)len, key), key);
				rc = -1;
				break;
			}
			r.colpos[c] = jsonl_key_column(line, (size_t)len, key);
			if (json_is_string(v))
				r.field[c] = json_string_value(v);
			/*
			 * An integer is a label ("run": 5) as "5" is, but
			 * not a reason: "busy": 0 would mark the run busy.
			 */
			else if (json_is_integer(v) && c != COL_VALUE &&
			    c != COL_BUSY) {
				snprintf(numbuf[c], sizeof(numbuf[c]), "%lld",
				    (long long)json_integer_value(v));
				r.field[c] = numbuf[c];
			} else if (json_is_number(v) && c == COL_VALUE &&
			    (raw = jsonl_number_text(line, (size_t)len,
			    r.colpos[c])) != NULL) {
				r.field[c] = raw;
			} else if (json_is_real(v) && reread && c != COL_BUSY &&
			    jsonl_number_copy(line, (size_t)len, r.colpos[c],
			    c == COL_TIME || c == COL_ITERATION ||
			    c == COL_DURATION, numbuf[c],
			    sizeof(numbuf[c])) == 0) {
				/*
				 * A line read again for an integer beyond 64
				 * bits: each integer is read as written, not
				 * as the real it became (1e+20 was quoted for
				 * a time of 100000000000000000000).
				 */
				r.field[c] = numbuf[c];
			} else if (json_is_number(v) && (c == COL_VALUE ||
			    c == COL_TIME || c == COL_ITERATION ||
			    c == COL_DURATION)) {
				/* 2.0 is iteration 2, as "2.0" is in a CSV. */
				store_format_double(numbuf[c], sizeof(numbuf[c]),
				    json_number_value(v));
				r.field[c] = numbuf[c];
			} else {
				xasprintf(cause, "%s:%zu:%zu: %s: expected %s",
				    is->name, row, r.colpos[c], key,
				    c == COL_VALUE ? "a number" :
				    c == COL_ITERATION || c == COL_DURATION ?
				    "a whole number" :
				    c == COL_TIME ? "a string or a number" :
				    c == COL_BUSY ? "a string, why the run was "
				    "busy (a quiet run has no busy key)" :
				    "a string");
				rc = -1;
				break;
			}
		}
		if (rc == 0 && (import_check_row(is, row, &r, cause) == -1 ||
		    import_store_row(is, row, &r, cause) == -1))
			rc = -1;
		json_decref(obj);
		free(raw);
		raw = NULL;
		if (rc == -1)
			break;
	}
	if (in.error != 0)
		is->read_error = in.error;
	lines_free(&in);
	return rc;
}

/*
 * The format a file name says, or STORE_FORMAT_AUTO: what import reads a
 * file as, and export writes one as, without --format.
 */
enum store_format
store_format_of_name(const char *name)
{
	const char	*dot = strrchr(name, '.');

	if (dot != NULL) {
		if (strcmp(dot, ".csv") == 0)
			return STORE_FORMAT_CSV;
		if (strcmp(dot, ".jsonl") == 0 || strcmp(dot, ".ndjson") == 0 ||
		    strcmp(dot, ".json") == 0)
			return STORE_FORMAT_JSONL;
	}
	return STORE_FORMAT_AUTO;
}

/*
 * Start reading f: drop a UTF-8 byte order mark, and when the format is
 * to be guessed (from the name, else from the first character that is not
 * white space), read up to that character.  The bytes read, but for the
 * mark, go to *held for the reader to read again, so that rows and
 * columns count as in the file (the mark, invisible in an editor, takes
 * no column).
 */
static enum store_format
import_start(FILE *f, const char *name, enum store_format format,
    char **held, size_t *len)
{
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
	size_t	 n = 0, cap = 64;
	char	*buf = xmalloc(cap);
	int	 ch = EOF;

	while (n < sizeof(bom) && (ch = getc(f)) != EOF) {
		buf[n++] = (char)ch;
		if ((unsigned char)ch != bom[n - 1])
			break;
	}
	if (n == sizeof(bom) && memcmp(buf, bom, n) == 0)
		n = 0;
	if (format == STORE_FORMAT_AUTO)
		format = store_format_of_name(name);
	if (format == STORE_FORMAT_AUTO) {
		if (n > 0)
			ch = (unsigned char)buf[n - 1];
		while (ch != EOF && (n == 0 || isspace(ch))) {
			if ((ch = getc(f)) == EOF)
				break;
			if (n == cap)
				buf = xreallocarray(buf, cap *= 2, 1);
			buf[n++] = (char)ch;
		}
		format = ch == '{' ? STORE_FORMAT_JSONL : STORE_FORMAT_CSV;
	}
	*held = buf;
	*len = n;
	return format;
}

void
store_import_progress(struct store *st, store_import_progress_fn fn,
    void *arg)
{
	st->import_progress = fn;
	st->import_progress_arg = arg;
}

void
store_import_stop(struct store *st, const volatile sig_atomic_t *stop)
{
	st->import_stop = stop;
}

/*
 * Import the history in f (called name in messages) in one transaction.
 * On error, nothing is changed and *cause says file:row:column: what, or,
 * when the store failed (a full disk) rather than the input, the database
 * and why, with stats->store_failed set, or when the input could not be
 * read, the file and why, with stats->read_failed set.
 */
int
store_import(struct store *st, FILE *f, const char *name,
    enum store_format format, int replace, struct store_import_stats *stats,
    char **cause)
{
	struct import_state	 is;
	char			*held, *why;
	size_t			 heldlen, i;
	int			 rc;

	memset(&is, 0, sizeof(is));
	is.st = st;
	is.name = name;
	is.replace = replace;
	if (stats != NULL)
		memset(stats, 0, sizeof(*stats));
	if (store_begin(st) == -1) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		if (stats != NULL) {
			stats->store_failed = 1;
			stats->store_busy = store_failure(st) == STORE_BUSY;
		}
		return -1;
	}
	if ((is.local_host = store_host_local(st)) == -1) {
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
		if (stats != NULL) {
			stats->store_failed = 1;
			stats->store_busy = store_failure(st) == STORE_BUSY;
		}
		store_rollback(st);
		return -1;
	}
	is.hosts = hmap_new();
	is.runs = hmap_new();
	is.run_times = hmap_new();
	is.metrics = hmap_new();
	is.iters = hmap_new();
	is.run_attrs = hmap_new();
	is.wl_status = hmap_new();
	format = import_start(f, name, format, &held, &heldlen);
	if (format == STORE_FORMAT_CSV)
		rc = import_csv(&is, f, held, heldlen, cause);
	else
		rc = import_jsonl(&is, f, held, heldlen, cause);
	free(held);
	/*
	 * A read error is the cause, whatever the rows read said, and with
	 * the system's reason: the input could not be read, which is no
	 * fault of its data.
	 */
	/*
	 * A read that a signal cut short is the signal's doing too, and so
	 * is an end of file then (the caller may end the input), or any
	 * signal before the commit: nothing of it is kept.
	 */
	if (!is.stopped && st->import_stop != NULL && *st->import_stop) {
		if (rc == -1)
			free(*cause);
		xasprintf(cause, "%s: stopped", name);
		is.stopped = 1;
		rc = -1;
	}
	if (ferror(f) && !is.stopped) {
		if (rc == -1)
			free(*cause);
		xasprintf(cause, "%s: %s", name, strerror(is.read_error != 0 ?
		    is.read_error : EIO));
		is.read_failed = 1;
		rc = -1;
	}
	if (rc == 0 && is.stats.samples == 0) {
		xasprintf(cause, "%s: no samples", name);
		rc = -1;
	}
	if (rc == 0 && store_commit(st) == -1) {
		why = import_store_reason(st);
		xasprintf(cause, "%s: %s (importing %s, at its commit)",
		    st->path, why, name);
		free(why);
		is.store_failed = 1;
		is.store_busy = store_failure(st) == STORE_BUSY;
		rc = -1;
	}
	if (rc == -1) {
		store_rollback(st);
		if (stats != NULL) {
			stats->store_failed = is.store_failed;
			stats->store_busy = is.store_busy;
			stats->read_failed = is.read_failed;
			stats->stopped = is.stopped;
			stats->run_live = is.run_live;
		}
	} else if (stats != NULL)
		*stats = is.stats;
	hmap_free(is.hosts);
	hmap_free(is.runs);
	hmap_free(is.run_times);
	hmap_free(is.metrics);
	hmap_free(is.iters);
	hmap_free(is.run_attrs);
	hmap_free(is.wl_status);
	for (i = 0; i < is.nattrs; i++)
		free(is.attrs[i]);
	free(is.attrs);
	free(is.key);
	return rc;
}

/*
 * Shortest "%g" form that reads back as the same double: the one that
 * JSON output writes too (perfwatch_format_double).
 */
void
store_format_double(char *buf, size_t len, double v)
{
	perfwatch_format_double(buf, len, v);
}

/*
 * Write a JSON string with the escapes JSON needs.  A byte that is not
 * UTF-8 (only in a store written before imports checked) becomes U+FFFD,
 * as in pwjson_str(), so that the export can be imported again.
 */
static void
jsonl_write_string(FILE *f, const char *s)
{
	const unsigned char	*p;
	size_t			 n = strlen(s), k;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++, n--) {
		if (*p >= 0x80) {
			if ((k = utf8_seq_len(p, n)) == 0)
				fputs("\xef\xbf\xbd", f);
			else {
				fwrite(p, 1, k, f);
				p += k - 1;
				n -= k - 1;
			}
		} else if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/*
 * Write a CSV field, a byte that is not UTF-8 made U+FFFD as
 * jsonl_write_string() makes it: import refuses such a byte, so the
 * export of an old store could not be read back.
 */
static void
csv_write_utf8(FILE *f, const char *s)
{
	const unsigned char	*p;
	char			*fixed, *q;
	size_t			 n = strlen(s), k;

	if (utf8_check(s, NULL) == 0) {
		csv_write_field(f, s);
		return;
	}
	/* Each bad byte grows to three. */
	q = fixed = xreallocarray(NULL, 3, n + 1);
	for (p = (const unsigned char *)s; *p != '\0'; p += k, n -= k) {
		if (*p < 0x80)
			k = 1;
		else if ((k = utf8_seq_len(p, n)) == 0) {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
			k = 1;
			continue;
		}
		memcpy(q, p, k);
		q += k;
	}
	*q = '\0';
	csv_write_field(f, fixed);
	free(fixed);
}

/*
 * Why run measured a busy machine, as its quiet record says ("busy" when
 * it does not say), or "" when it did not.
 */
static char *
export_busy(const struct store_run *run)
{
	json_t		*q, *why;
	char		*text;

	if (!run->busy)
		return xstrdup("");
	q = run->quiet != NULL ? json_loads(run->quiet, 0, NULL) : NULL;
	why = q != NULL ? json_object_get(q, "why") : NULL;
	text = xstrdup(json_is_string(why) && json_string_value(why)[0] !=
	    '\0' ? json_string_value(why) : "busy");
	json_decref(q);
	return text;
}

/*
 * How workload ended in a run, of the run's rows of run_workloads w[0..n):
 * its status when it did not complete, "" when it did or has no row.
 */
static const char *
export_workload_status(const struct store_run_workload *w, size_t n,
    const char *workload)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(w[i].workload, workload) == 0)
			return strcmp(w[i].status, "complete") == 0 ? "" :
			    w[i].status;
	return "";
}

/* Write the samples of one run: 0, -1 on an error, 1 when asked to stop. */
static int
export_run(struct store *st, FILE *f, enum store_format format,
    const struct store_run *run)
{
	struct store_series	*ser;
	struct store_run_workload *w;
	size_t			 n, nw, i, j;
	char			 tbuf[TIMEFMT_RFC3339_LEN], vbuf[40], *busy;
	char			 dbuf[24];
	const char		*ws;

	if (store_run_series(st, run->id, &ser, &n) == -1)
		return -1;
	/* A workload that did not complete: its samples count nowhere. */
	if (store_run_workloads(st, run->id, &w, &nw) == -1) {
		store_series_free(ser, n);
		return -1;
	}
	busy = export_busy(run);
	/* An end no time can say would not import again: unknown. */
	dbuf[0] = '\0';
	if (store_run_timed(run) && run->ended <= TIMEFMT_MAX)
		snprintf(dbuf, sizeof(dbuf), "%lld",
		    (long long)(run->ended - run->started));
	if (timefmt_format(run->started, tbuf, sizeof(tbuf)) == -1)
		snprintf(tbuf, sizeof(tbuf), "%lld", (long long)run->started);
	for (i = 0; i < n; i++) {
		const struct store_metric *m = &ser[i].metric;

		ws = export_workload_status(w, nw, m->workload);
		for (j = 0; j < ser[i].n; j++) {
			if (st->export_stop != NULL && *st->export_stop) {
				free(busy);
				store_run_workloads_free(w, nw);
				store_series_free(ser, n);
				return 1;
			}
			store_format_double(vbuf, sizeof(vbuf),
			    ser[i].values[j]);
			if (format == STORE_FORMAT_CSV) {
				csv_write_utf8(f, run->label);
				fprintf(f, ",%s,", tbuf);
				csv_write_utf8(f, m->workload);
				fputc(',', f);
				csv_write_utf8(f, m->metric);
				fprintf(f, ",%s,", vbuf);
				csv_write_utf8(f, m->unit);
				fprintf(f, ",%s,", better_name(m->better));
				csv_write_utf8(f, run->host_name);
				fprintf(f, ",%d,%s,%s,", ser[i].iterations[j],
				    run->status, run->trigger);
				csv_write_utf8(f, busy);
				fprintf(f, ",%s,%s\n", dbuf, ws);
			} else {
				fputs("{\"run\":", f);
				jsonl_write_string(f, run->label);
				fprintf(f, ",\"time\":\"%s\",\"workload\":",
				    tbuf);
				jsonl_write_string(f, m->workload);
				fputs(",\"metric\":", f);
				jsonl_write_string(f, m->metric);
				fprintf(f, ",\"value\":%s,\"unit\":", vbuf);
				jsonl_write_string(f, m->unit);
				fprintf(f, ",\"better\":\"%s\",\"host\":",
				    better_name(m->better));
				jsonl_write_string(f, run->host_name);
				fprintf(f, ",\"iteration\":%d,\"status\":\"%s\","
				    "\"trigger\":\"%s\"", ser[i].iterations[j],
				    run->status, run->trigger);
				if (busy[0] != '\0') {
					fputs(",\"busy\":", f);
					jsonl_write_string(f, busy);
				}
				if (dbuf[0] != '\0')
					fprintf(f, ",\"duration\":%s", dbuf);
				if (ws[0] != '\0')
					fprintf(f, ",\"workload_status\":\"%s\"",
					    ws);
				fputs("}\n", f);
			}
		}
	}
	free(busy);
	store_run_workloads_free(w, nw);
	store_series_free(ser, n);
	return 0;
}

void
store_export_stop(struct store *st, const volatile sig_atomic_t *stop)
{
	st->export_stop = stop;
}

/*
 * Export the runs named in labels (all runs when nlabels is 0) to f.  The
 * runs are looked up first: a name that is not a run writes nothing.  A
 * run named more than once (r1, HOST:r1, #1) is written once, where it
 * was first named: written twice, the export would not import again.
 * Asked to stop (store_export_stop), it fails at the next sample, what
 * it wrote being no whole export.
 */
int
store_export(struct store *st, FILE *f, enum store_format format,
    const char *const *labels, size_t nlabels, char **cause)
{
	struct store_run	*runs = NULL;
	size_t			 n = 0, i, k;
	int			 rc = 0;

	if (format == STORE_FORMAT_AUTO)
		format = STORE_FORMAT_CSV;
	if (nlabels == 0) {
		if (store_runs_list(st, NULL, &runs, &n) == -1) {
			xasprintf(cause, "%s: %s", st->path,
			    sqlite3_errmsg(st->db));
			return -1;
		}
	} else {
		runs = xcalloc(nlabels, sizeof(*runs));
		for (k = 0; k < nlabels; k++) {
			if (store_run_resolve(st, labels[k], &runs[n],
			    cause) == -1) {
				store_runs_free(runs, n);
				return -1;
			}
			for (i = 0; i < n; i++)
				if (runs[i].id == runs[n].id)
					break;
			if (i < n)
				store_run_clear(&runs[n]);
			else
				n++;
		}
	}
	if (format == STORE_FORMAT_CSV)
		fputs("run,time,workload,metric,value,unit,better,host,"
		    "iteration,status,trigger,busy,duration,workload_status\n",
		    f);
	for (i = 0; i < n && rc == 0; i++)
		rc = export_run(st, f, format, &runs[i]);
	store_runs_free(runs, n);
	if (rc == 1) {
		xasprintf(cause, "export stopped");
		rc = -1;
	} else if (rc == -1)
		xasprintf(cause, "%s: %s", st->path, sqlite3_errmsg(st->db));
	else if (fflush(f) == EOF || ferror(f)) {
		xasprintf(cause, "writing the export: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}
