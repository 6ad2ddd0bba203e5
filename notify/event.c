/*
 * The event of an outbox row: its payload (what detect/ wrote), and what
 * the store keeps about the runs the payload names.
 *
 * Everything loaded here is fixed once the runs it names are checked: the
 * verdicts of the checked run (re-checking a run gives the same ones),
 * the samples of the runs up to it, and the machine snapshots of the last
 * good and the first bad run.  So a retry renders the same message (but
 * for the runs' host in its commands, should another host's runs with
 * the same labels be imported in between).  What the store no longer
 * has (a deleted run, an imported run without a snapshot) is left out
 * and said so, never guessed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "log.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "detect/detect.h"
#include "detect/stats.h"
#include "sysinfo/sysinfo.h"
#include "notify.h"

/* How many runs the chart of a metric shows, the checked one included. */
#define NOTIFY_HISTORY	24

/* A string member of o, or "" (NULL with null_ok and a null member). */
static const char *
event_str(const json_t *o, const char *key, int null_ok)
{
	const json_t	*v = json_object_get(o, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (null_ok && (v == NULL || json_is_null(v)))
		return NULL;
	return "";
}

/* A number member of o, or NAN. */
static double
event_num(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Give member from of object o the name to, unless o has a member to. */
static void
event_rename(json_t *o, const char *from, const char *to)
{
	json_t	*v;

	if (!json_is_object(o) || json_object_get(o, to) != NULL ||
	    (v = json_object_get(o, from)) == NULL)
		return;
	pwjson_set(o, to, json_incref(v));
	json_object_del(o, from);
}

/*
 * Give a payload queued by an older version what today's has: its time
 * in epoch seconds as RFC 3339 (UTC), as every --json gives a time, and
 * the keys it left out without a value (superseded_by, a missing
 * baseline's figures) as null.
 */
static void
event_upgrade(json_t *payload, json_t *baseline)
{
	static const char *const figures[] = { "level", "noise", "runs" };
	json_t	*v;
	char	 tbuf[32];
	size_t	 i;

	v = json_object_get(payload, "time");
	if (json_is_integer(v) && timefmt_format(json_integer_value(v), tbuf,
	    sizeof(tbuf)) == 0)
		pwjson_set_str(payload, "time", tbuf);
	/* A test's made-up alert has none of an alert change's keys. */
	if (json_object_get(payload, "alert") != NULL &&
	    json_object_get(payload, "superseded_by") == NULL)
		pwjson_set(payload, "superseded_by", json_null());
	if (!json_is_object(baseline))
		return;
	for (i = 0; i < nitems(figures); i++)
		if (json_object_get(baseline, figures[i]) == NULL)
			pwjson_set(baseline, figures[i], json_null());
}

/* The alert's own metric line, from the payload. */
static void
event_own_metric(struct notify_event *ev)
{
	struct notify_metric	*m;

	ev->metrics = xcalloc(1, sizeof(*ev->metrics));
	ev->nmetrics = 1;
	m = &ev->metrics[0];
	m->workload = xstrdup(ev->workload);
	m->metric = xstrdup(ev->metric);
	m->unit = xstrdup(ev->unit);
	m->better = ev->better;
	m->own = 1;
	m->baseline = ev->baseline;
	m->noise = ev->noise;
	m->current = ev->current;
	m->change_pct = ev->change_pct;
	m->ci_low = ev->ci_low;
	m->ci_high = ev->ci_high;
	m->q = ev->q;
}

/*
 * Fill ev from the JSON payload of outbox row `outbox` created at
 * `created`.  The payload must be an object with at least a state, a
 * host, a workload and a metric.  0, or -1 with *cause.
 */
int
notify_event_parse(struct notify_event *ev, int64_t outbox,
    const char *payload, int64_t created, char **cause)
{
	json_t		*b;
	const char	*need[] = { "state", "host", "workload", "metric" };
	char		*err = NULL;
	size_t		 i;

	memset(ev, 0, sizeof(*ev));
	ev->outbox = outbox;
	ev->created = created;
	if ((ev->payload = pwjson_parse(payload, strlen(payload),
	    &err)) == NULL) {
		xasprintf(cause, "outbox row %lld: payload: %s",
		    (long long)outbox, err);
		free(err);
		return -1;
	}
	if (!json_is_object(ev->payload)) {
		xasprintf(cause, "outbox row %lld: payload is not an object",
		    (long long)outbox);
		notify_event_clear(ev);
		return -1;
	}
	for (i = 0; i < nitems(need); i++) {
		if (!json_is_string(json_object_get(ev->payload, need[i]))) {
			xasprintf(cause, "outbox row %lld: payload has no %s",
			    (long long)outbox, need[i]);
			notify_event_clear(ev);
			return -1;
		}
	}
	ev->alert = json_integer_value(json_object_get(ev->payload, "alert"));
	ev->state = event_str(ev->payload, "state", 0);
	ev->previous = event_str(ev->payload, "previous", 1);
	ev->direction = event_str(ev->payload, "direction", 0);
	ev->host = event_str(ev->payload, "host", 0);
	ev->workload = event_str(ev->payload, "workload", 0);
	ev->metric = event_str(ev->payload, "metric", 0);
	ev->unit = event_str(ev->payload, "unit", 0);
	ev->run = event_str(ev->payload, "run", 0);
	ev->first_bad_run = event_str(ev->payload, "first_bad_run", 0);
	ev->last_good_run = event_str(ev->payload, "last_good_run", 0);
	ev->better = strcmp(event_str(ev->payload, "better", 0), "lower") == 0 ?
	    BETTER_LOWER : BETTER_HIGHER;
	ev->change_pct = event_num(ev->payload, "change_pct");
	ev->ci_low = event_num(ev->payload, "ci_low");
	ev->ci_high = event_num(ev->payload, "ci_high");
	ev->q = event_num(ev->payload, "q");
	ev->current = event_num(ev->payload, "current");
	b = json_object_get(ev->payload, "baseline");
	ev->baseline_name = event_str(b, "name", 0);
	/*
	 * Rows queued by older versions name the baseline's figures as
	 * they were then: "median" before 50a6579, "spread" before
	 * c7ce751 (the name --json gives it).  They are given today's
	 * names in the payload itself, so that a webhook's copy of it says
	 * "level" and "noise" whatever version queued the row.
	 */
	event_rename(b, "median", "level");
	event_rename(b, "spread", "noise");
	event_upgrade(ev->payload, b);
	/* And the attribution's runs "run", "host" and "time" (RFC 3339). */
	detect_attribution_upgrade(json_object_get(ev->payload, "attribution"),
	    ev->host);
	ev->baseline = event_num(b, "level");
	ev->noise = event_num(b, "noise");
	ev->baseline_runs = json_integer_value(json_object_get(b, "runs"));
	ev->superseded_by = json_integer_value(json_object_get(ev->payload,
	    "superseded_by"));
	event_own_metric(ev);
	return 0;
}

/* A test message's event: made up, and said to be so everywhere. */
void
notify_event_test(struct notify_event *ev, const char *host,
    const char *sink, int64_t now)
{
	char	*err = NULL, *text;
	json_t	*o;

	memset(ev, 0, sizeof(*ev));
	o = pwjson_object();
	pwjson_set_str(o, "state", "test");
	pwjson_set_str(o, "host", host);
	pwjson_set_str(o, "workload", "perfwatch");
	pwjson_set_str(o, "metric", "notify test");
	pwjson_set_str(o, "sink", sink);
	pwjson_set_int(o, "time", now);	/* RFC 3339 once parsed */
	text = pwjson_dumps(o, PWJSON_COMPACT);
	json_decref(o);
	if (notify_event_parse(ev, 0, text, now, &err) == -1)
		fatalx("notify_event_test: %s", err);
	free(text);
	ev->test = 1;
	ev->diff_note = xstrdup("a test message carries no machine diff");
}

/* Whether the event tells of a regression that is (still) open. */
static int
event_is_open_regression(const struct notify_event *ev)
{
	return strcmp(ev->direction, "regression") == 0 &&
	    (strcmp(ev->state, "suspected") == 0 ||
	    strcmp(ev->state, "confirmed") == 0);
}

/* Add the other metrics the checked run regressed in. */
static void
event_other_regressions(struct notify_event *ev, struct store *st,
    int64_t run, int64_t own)
{
	struct store_verdict	*v;
	struct store_metric	 sm;
	struct notify_metric	*m;
	size_t			 nv, i;

	if (store_verdicts_get(st, run, &v, &nv) == -1)
		return;
	for (i = 0; i < nv; i++) {
		if (v[i].metric == own ||
		    strcmp(v[i].verdict, "regression") != 0 ||
		    store_metric_get(st, v[i].metric, &sm) == -1)
			continue;
		ev->metrics = xreallocarray(ev->metrics, ev->nmetrics + 1,
		    sizeof(*ev->metrics));
		m = &ev->metrics[ev->nmetrics++];
		memset(m, 0, sizeof(*m));
		m->workload = xstrdup(sm.workload);
		m->metric = xstrdup(sm.metric);
		m->unit = xstrdup(sm.unit);
		m->better = sm.better;
		m->baseline = v[i].reference;
		m->noise = v[i].noise;
		m->current = v[i].current;
		m->change_pct = v[i].change_pct;
		m->ci_low = v[i].ci_low;
		m->ci_high = v[i].ci_high;
		m->q = v[i].q;
		store_metric_clear(&sm);
	}
	store_verdicts_free(v, nv);
}

/*
 * The complete runs of host up to and including run, oldest first, at
 * most NOTIFY_HISTORY of them.
 */
static int
event_history_runs(struct store *st, const char *host, int64_t run,
    struct store_run **out, size_t *nout)
{
	struct store_run_filter	 f;
	struct store_run	*runs;
	size_t			 n;

	memset(&f, 0, sizeof(f));
	f.host = host;
	f.status = RUN_COMPLETE;
	f.before_run = run;
	f.limit = NOTIFY_HISTORY - 1;
	if (store_runs_list(st, &f, &runs, &n) == -1)
		return -1;
	runs = xreallocarray(runs, n + 1, sizeof(*runs));
	if (store_run_get(st, run, &runs[n]) == -1) {
		store_runs_free(runs, n);
		return -1;
	}
	*out = runs;
	*nout = n + 1;
	return 0;
}

/* Fill m's chart with its medians in runs[0..n). */
static void
event_metric_history(struct notify_event *ev, struct store *st,
    struct notify_metric *m, const struct store_run *runs, size_t n)
{
	struct store_metric	 sm;
	struct store_series	*ser;
	int64_t			*ids;
	size_t			 nser, i;

	if (store_metric_find(st, m->workload, m->metric, &sm) == -1)
		return;
	ids = xcalloc(n, sizeof(*ids));
	for (i = 0; i < n; i++)
		ids[i] = runs[i].id;
	if (store_metric_series(st, sm.id, ids, n, &ser, &nser) == 0) {
		m->runs = xcalloc(nser, sizeof(*m->runs));
		m->medians = xcalloc(nser, sizeof(*m->medians));
		m->nruns = nser;
		m->first_bad = nser;
		for (i = 0; i < nser; i++) {
			m->runs[i] = xstrdup(runs[i].label);
			if (ser[i].n == 0 || stats_median(ser[i].values,
			    ser[i].n, &m->medians[i]) == -1)
				m->medians[i] = NAN;
			if (m->first_bad == nser &&
			    strcmp(runs[i].label, ev->first_bad_run) == 0)
				m->first_bad = i;
		}
		store_series_free(ser, nser);
	}
	free(ids);
	store_metric_clear(&sm);
}

/* The snapshot id of host's run label: 0 and a note when there is none. */
static int64_t
event_run_snapshot(struct store *st, int64_t host, const char *label,
    char **note)
{
	struct store_run	 r;
	int64_t			 id, snap;

	if (*label == '\0') {
		if (*note == NULL)
			*note = xstrdup("there is no last good run to compare "
			    "with");
		return 0;
	}
	if (store_run_lookup(st, host, label, &id) == -1 ||
	    store_run_get(st, id, &r) == -1) {
		if (*note == NULL)
			xasprintf(note, "run %s is no longer in the store",
			    label);
		return 0;
	}
	snap = r.snapshot;
	store_run_clear(&r);
	if (snap <= 0 && *note == NULL)
		xasprintf(note, "run %s has no machine snapshot (imported runs "
		    "have none)", label);
	return snap;
}

/* The machine diff from the last good run to the first bad one. */
static void
event_diff(struct notify_event *ev, struct store *st, int64_t host)
{
	struct snapshot	*a = NULL, *b = NULL;
	int64_t		 good, bad;
	char		*cause = NULL;

	good = event_run_snapshot(st, host, ev->last_good_run, &ev->diff_note);
	bad = event_run_snapshot(st, host, ev->first_bad_run, &ev->diff_note);
	if (good <= 0 || bad <= 0)
		return;
	if (good == bad) {
		ev->diff = xcalloc(1, sizeof(*ev->diff));
		return;
	}
	if ((a = store_snapshot_get(st, good, &cause)) == NULL ||
	    (b = store_snapshot_get(st, bad, &cause)) == NULL) {
		xasprintf(&ev->diff_note, "the machine snapshots cannot be "
		    "read: %s", cause);
		free(cause);
	} else
		ev->diff = sysinfo_diff(a, b);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/*
 * The watched git trees whose commit differs from the last good run to
 * the first bad one (perfwatchd records them in every battery, a
 * bisection in its runs): what `perfwatch bisect --git NAME GOOD..BAD`
 * searches.
 */
static void
event_git(struct notify_event *ev, struct store *st, int64_t host)
{
	json_t	*arr, *e;
	int64_t	 good, bad;
	size_t	 i;

	if (*ev->last_good_run == '\0' || *ev->first_bad_run == '\0' ||
	    store_run_lookup(st, host, ev->last_good_run, &good) == -1 ||
	    store_run_lookup(st, host, ev->first_bad_run, &bad) == -1)
		return;
	arr = detect_git_moved(st, good, bad);
	ev->git = xcalloc(json_array_size(arr) + 1, sizeof(*ev->git));
	json_array_foreach(arr, i, e) {
		ev->git[i].name = xstrdup(json_string_value(json_object_get(e,
		    "name")));
		ev->git[i].good = xstrdup(json_string_value(json_object_get(e,
		    "from")));
		ev->git[i].bad = xstrdup(json_string_value(json_object_get(e,
		    "to")));
	}
	ev->ngit = json_array_size(arr);
	json_decref(arr);
}

/*
 * Whether the command line that names run label of host must say
 * HOST:label: the label alone names no run, or another host's, or runs
 * on several hosts (a database that imported other machines' histories).
 */
static int
event_label_ambiguous(struct store *st, int64_t host, const char *label)
{
	struct store_run	 r;
	char			*cause = NULL;
	int			 other;

	if (*label == '\0')
		return 0;
	if (store_run_resolve(st, label, &r, &cause) == -1) {
		free(cause);
		return 1;
	}
	other = r.host != host;
	store_run_clear(&r);
	return other;
}

/*
 * Fill ev from outbox row o and the store: the payload, the other metrics
 * the checked run regressed in (for an open regression), the last runs of
 * each metric, the machine diff, the git trees that moved and whether
 * the run labels need their host on a command line.  Only a payload
 * that cannot be read is an error (-1 with *cause); what the store lacks
 * is left out.
 */
int
notify_event_load(struct notify_event *ev, struct store *st,
    const struct store_outbox *o, char **cause)
{
	struct store_metric	 own;
	struct store_run	*runs = NULL;
	int64_t			 host, run = 0, own_id = 0;
	size_t			 nruns = 0, i;

	/* The rest of a row's recipients get that row's message. */
	if (notify_event_parse(ev, o->split_from != 0 ? o->split_from : o->id,
	    o->payload, o->created, cause) == -1)
		return -1;
	if (store_host_find(st, ev->host, &host) == -1) {
		xasprintf(&ev->diff_note, "host %s is no longer in the store",
		    ev->host);
		return 0;
	}
	if (store_metric_find(st, ev->workload, ev->metric, &own) == 0) {
		own_id = own.id;
		store_metric_clear(&own);
	}
	if (*ev->run != '\0' && store_run_lookup(st, host, ev->run,
	    &run) == 0) {
		if (event_is_open_regression(ev))
			event_other_regressions(ev, st, run, own_id);
		if (event_history_runs(st, ev->host, run, &runs,
		    &nruns) == 0) {
			for (i = 0; i < ev->nmetrics; i++)
				event_metric_history(ev, st, &ev->metrics[i],
				    runs, nruns);
			store_runs_free(runs, nruns);
		}
	}
	event_diff(ev, st, host);
	event_git(ev, st, host);
	ev->qualify = event_label_ambiguous(st, host, ev->last_good_run) ||
	    event_label_ambiguous(st, host, ev->first_bad_run);
	return 0;
}

void
notify_event_clear(struct notify_event *ev)
{
	struct notify_metric	*m;
	size_t			 i, j;

	for (i = 0; i < ev->nmetrics; i++) {
		m = &ev->metrics[i];
		free(m->workload);
		free(m->metric);
		free(m->unit);
		for (j = 0; j < m->nruns; j++)
			free(m->runs[j]);
		free(m->runs);
		free(m->medians);
	}
	free(ev->metrics);
	if (ev->diff != NULL)
		sysinfo_diff_free(ev->diff);
	free(ev->diff_note);
	for (i = 0; i < ev->ngit; i++) {
		free(ev->git[i].name);
		free(ev->git[i].good);
		free(ev->git[i].bad);
	}
	free(ev->git);
	json_decref(ev->payload);
	memset(ev, 0, sizeof(*ev));
}
