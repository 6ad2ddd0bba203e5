/*
 * The JSON views of the store that perfwatch --json prints and the
 * dashboard serves (view.h).  Moved here from cli/ when the daemon came
 * to serve them too: one shape, one builder.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "detect/detect.h"
#include "detect/stats.h"
#include "store/store.h"
#include "view.h"

void
view_time(char *buf, size_t len, long long t)
{
	if (timefmt_format(t, buf, len) == -1)
		snprintf(buf, len, "%lld", t);
}

char *
view_busy_why(const struct store_run *r)
{
	json_t		*q;
	const char	*why;
	char		*s;

	if (!r->busy)
		return NULL;
	q = r->quiet != NULL ? json_loads(r->quiet, 0, NULL) : NULL;
	why = json_string_value(json_object_get(q, "why"));
	s = xstrdup(why != NULL ? why : "no reason stored");
	json_decref(q);
	return s;
}

void
view_busy_json(json_t *o, const struct store_run *r)
{
	char	*why;

	pwjson_set_bool(o, "busy", r->busy);
	why = view_busy_why(r);
	pwjson_set_str(o, "busy_why", why);	/* null for a quiet run */
	free(why);
}

int
view_run_timed(const struct store_run *r)
{
	return store_run_timed(r);
}

json_t *
view_run_json(const struct store_run *r)
{
	char	 tbuf[32];
	json_t	*o;

	view_time(tbuf, sizeof(tbuf), r->started);
	o = pwjson_object();
	pwjson_set_str(o, "run", r->label);
	pwjson_set_int(o, "id", r->id);
	pwjson_set_str(o, "host", r->host_name);
	pwjson_set_str(o, "time", tbuf);
	pwjson_set_str(o, "trigger", r->trigger);
	pwjson_set_str(o, "status", r->status);
	view_busy_json(o, r);
	/* Null where there is none, as every key without a value. */
	pwjson_set_str(o, "profile", r->profile);
	pwjson_set_str(o, "trigger_detail", r->trigger_detail);
	/* Its length: null while running and where an import gave none. */
	if (view_run_timed(r))
		pwjson_set_int(o, "duration", r->ended - r->started);
	else
		pwjson_set(o, "duration", json_null());
	return o;
}

/*
 * The workloads of run that did not complete, [{"workload", "status"}]:
 * a run whose status is "complete" can have lost a workload.
 */
static int
view_run_incomplete(struct store *st, int64_t run, json_t **out)
{
	struct store_run_workload	*w;
	json_t				*o;
	size_t				 nw, i;

	if (store_run_workloads(st, run, &w, &nw) == -1)
		return -1;
	*out = pwjson_array();
	for (i = 0; i < nw; i++) {
		if (strcmp(w[i].status, "complete") == 0)
			continue;
		o = pwjson_object();
		pwjson_set_str(o, "workload", w[i].workload);
		pwjson_set_str(o, "status", w[i].status);
		pwjson_append(*out, o);
	}
	store_run_workloads_free(w, nw);
	return 0;
}

char *
view_incomplete_text(const json_t *inc)
{
	const json_t	*o;
	size_t		 i;
	char		*s = NULL, *t;

	for (i = 0; i < json_array_size(inc); i++) {
		o = json_array_get(inc, i);
		xasprintf(&t, "%s%s%s %s", s != NULL ? s : "",
		    s != NULL ? ", " : "",
		    json_string_value(json_object_get(o, "workload")),
		    json_string_value(json_object_get(o, "status")));
		free(s);
		s = t;
	}
	return s;
}

/* runs --json of the runs given into *out: 0, or -1 (store_failure()). */
static int
view_runs_get(struct store *st, const struct store_run *runs, size_t n,
    json_t **out)
{
	json_t	*arr, *o, *inc;
	size_t	 i;

	arr = pwjson_array();
	for (i = 0; i < n; i++) {
		if (view_run_incomplete(st, runs[i].id, &inc) == -1) {
			json_decref(arr);
			return -1;
		}
		o = view_run_json(&runs[i]);
		pwjson_set(o, "incomplete", inc);
		pwjson_append(arr, o);
	}
	*out = arr;
	return 0;
}

int
view_runs_list(struct store *st, const struct store_run_filter *f,
    struct store_run **runs, size_t *n, json_t **out)
{
	int	began;

	*runs = NULL;
	*n = 0;
	*out = NULL;
	if ((began = store_read_begin(st)) == -1) {
		log_warnx("%s: %s", store_path(st), store_errmsg(st));
		return -1;
	}
	/* store_runs_list says why itself; view_runs_get does not. */
	if (store_runs_list(st, f, runs, n) == 0) {
		if (view_runs_get(st, *runs, *n, out) == 0) {
			store_read_end(st, began);
			return 0;
		}
		log_warnx("%s: %s", store_path(st), store_errmsg(st));
		store_runs_free(*runs, *n);
		*runs = NULL;
		*n = 0;
	}
	/* Ended by a rollback, which keeps why for store_failure(). */
	if (began == 1)
		(void)store_rollback(st);
	return -1;
}

json_t *
view_series_json(const struct store_series *s)
{
	struct stats_summary	 sum;
	json_t			*o, *vals;
	size_t			 i;

	o = pwjson_object();
	pwjson_set_str(o, "workload", s->metric.workload);
	pwjson_set_str(o, "metric", s->metric.metric);
	pwjson_set_str(o, "unit", s->metric.unit);
	pwjson_set_str(o, "better", better_name(s->metric.better));
	pwjson_set_int(o, "samples", (int64_t)s->n);
	if (s->n > 0 && stats_summarize(s->values, s->n, &sum) == 0) {
		pwjson_set_num(o, "median", sum.median);
		pwjson_set_num(o, "min", sum.min);
		pwjson_set_num(o, "max", sum.max);
		pwjson_set_num(o, "stddev", s->n > 1 ? sum.stddev : NAN);
	}
	vals = pwjson_array();
	for (i = 0; i < s->n; i++)
		pwjson_append(vals, pwjson_num(s->values[i]));
	return pwjson_set(o, "values", vals);
}

int
view_run_label_get(struct store *st, int64_t id, char **label)
{
	struct store_run	 r;

	*label = NULL;
	if (id == 0) {
		*label = xstrdup("-");
		return 0;
	}
	if (store_run_get(st, id, &r) == -1) {
		if (store_failure(st) != STORE_FOUND_NONE)
			return -1;
		*label = xstrdup("-");
		return 0;
	}
	*label = r.label;
	r.label = NULL;
	store_run_clear(&r);
	return 0;
}

int
view_alert_host(struct store *st, const struct store_alert *a, char **host)
{
	struct store_run	 r;

	*host = NULL;
	if (store_run_get(st, a->first_bad_run, &r) == -1) {
		if (store_failure(st) != STORE_FOUND_NONE)
			return -1;
		*host = xstrdup("-");
		return 0;
	}
	*host = r.host_name;
	r.host_name = NULL;
	store_run_clear(&r);
	return 0;
}

int
view_alert_get(struct store *st, const struct store_alert *a, json_t **out)
{
	struct store_metric	 m;
	struct store_run	 bad;
	json_t			*o, *attr;
	char			*l1 = NULL, *l2 = NULL, *l3 = NULL, *host = NULL;
	char			 tbuf[32];
	int			 rc = -1;

	*out = NULL;
	memset(&m, 0, sizeof(m));
	if (store_metric_get(st, a->metric, &m) == -1) {
		if (store_failure(st) != STORE_FOUND_NONE)
			return -1;
		m.workload = xstrdup("?");
		m.metric = xstrdup("?");
		m.unit = xstrdup("?");
	}
	/* The first bad run read once, for its label and its host. */
	if (a->first_bad_run != 0 && store_run_get(st, a->first_bad_run,
	    &bad) == 0) {
		l1 = bad.label;
		host = bad.host_name;
		bad.label = NULL;
		bad.host_name = NULL;
		store_run_clear(&bad);
	} else if (a->first_bad_run != 0 &&
	    store_failure(st) != STORE_FOUND_NONE)
		goto out;
	else {
		l1 = xstrdup("-");
		host = xstrdup("-");
	}
	if (view_run_label_get(st, a->last_good_run, &l2) == -1 ||
	    view_run_label_get(st, a->last_run, &l3) == -1)
		goto out;
	view_time(tbuf, sizeof(tbuf), a->updated);
	o = pwjson_object();
	pwjson_set_int(o, "id", a->id);
	pwjson_set_str(o, "host", host);
	pwjson_set_str(o, "state", a->state);
	pwjson_set_str(o, "direction", a->direction);
	pwjson_set_str(o, "workload", m.workload);
	pwjson_set_str(o, "metric", m.metric);
	pwjson_set_str(o, "unit", m.unit);
	pwjson_set_num(o, "change_pct", a->change_pct);
	pwjson_set_str(o, "first_bad_run", l1);
	pwjson_set_str(o, "last_good_run", a->last_good_run ? l2 : NULL);
	pwjson_set_str(o, "last_run", l3);
	pwjson_set_str(o, "updated", tbuf);
	attr = a->attribution != NULL ? json_loads(a->attribution, 0, NULL) :
	    NULL;
	/* Its runs named as every --json names one, however old the alert. */
	detect_attribution_upgrade(attr, host);
	pwjson_set(o, "attribution", attr != NULL ? attr : json_null());
	*out = o;
	rc = 0;
out:
	free(host);
	free(l1);
	free(l2);
	free(l3);
	store_metric_clear(&m);
	return rc;
}

/* History's JSON object for metric m on host (NULL: none), its runs empty. */
static json_t *
view_history_series(json_t *arr, const struct store_metric *m,
    const char *host)
{
	json_t	*o, *hist;

	o = pwjson_object();
	pwjson_set_str(o, "workload", m->workload);
	pwjson_set_str(o, "metric", m->metric);
	if (host != NULL)
		pwjson_set_str(o, "host", host);
	else
		pwjson_set(o, "host", json_null());
	pwjson_set_str(o, "unit", m->unit);
	pwjson_set_str(o, "better", better_name(m->better));
	hist = pwjson_array();
	/* o keeps a reference: hist stays valid in it. */
	pwjson_set(o, "runs", hist);
	pwjson_append(arr, o);
	return hist;
}

/* A host's history being scanned for change points as it is built. */
struct view_scan {
	const struct cp_params	 *cpp;
	struct detect_change	 *ch;		/* found so far */
	size_t			  nch;
	double			 *x;		/* the counting runs' medians */
	const char		**labels;	/* and their labels */
	size_t			  n;
};

/*
 * Scan the host's counting runs gathered in sc, as detect_changes()
 * scans a host's history, and empty it.  0, or -1 if the scan failed.
 */
static int
view_scan_host(struct view_scan *sc, const struct store_metric *m,
    const char *host)
{
	struct cp_change	*cp = NULL;
	size_t			 ncp = 0, i, n = sc->n;

	if (sc->cpp == NULL || n == 0)
		return 0;
	sc->n = 0;
	if (cp_detect(sc->x, n, sc->cpp, &cp, &ncp) == -1)
		return -1;
	if (ncp == 0) {
		free(cp);
		return 0;
	}
	for (i = 0; i < ncp; i++)
		detect_change_push(&sc->ch, &sc->nch, m, host,
		    sc->labels[cp[i].index],
		    sc->labels[cp[i].index + cp[i].length - 1], n, &cp[i]);
	free(cp);
	return 0;
}

/* history --json for m, and its change points when sc->cpp is set. */
static int
view_history(struct store *st, const struct store_metric *m,
    const char *host, size_t limit, json_t *arr, struct view_scan *sc)
{
	struct store_run	*runs = NULL;
	struct store_series	*ser;
	json_t			*o, *hist = NULL, *sj;
	int64_t			*ids;
	size_t			 nruns = 0, nser, j;
	char			 tbuf[32];
	double			 med;
	int			 rc = 0;

	if (store_metric_runs(st, m->id, host, limit, &runs, &nruns) == -1)
		return -1;
	ids = xcalloc(nruns > 0 ? nruns : 1, sizeof(*ids));
	for (j = 0; j < nruns; j++)
		ids[j] = runs[j].id;
	if (store_metric_series(st, m->id, ids, nruns, &ser, &nser) == -1) {
		free(ids);
		store_runs_free(runs, nruns);
		return -1;
	}
	if (sc->cpp != NULL) {
		sc->x = xcalloc(nser > 0 ? nser : 1, sizeof(*sc->x));
		sc->labels = xcalloc(nser > 0 ? nser : 1,
		    sizeof(*sc->labels));
		sc->n = 0;
	}
	/* A metric with no run (on host) still says that it has none. */
	if (nruns == 0)
		view_history_series(arr, m, host);
	for (j = 0; j < nser; j++) {
		/* The runs come host by host: a new host, a new series. */
		if (j == 0 || runs[j].host != runs[j - 1].host) {
			if (j > 0 && view_scan_host(sc, m,
			    runs[j - 1].host_name) == -1) {
				rc = -1;
				break;
			}
			hist = view_history_series(arr, m, runs[j].host_name);
		}
		if (ser[j].n == 0)
			continue;
		/* The runs that `perfwatch changes` scans, at its level. */
		if (sc->cpp != NULL && detect_run_counts(&runs[j]) &&
		    stats_median(ser[j].values, ser[j].n, &med) == 0) {
			sc->x[sc->n] = med;
			sc->labels[sc->n++] = runs[j].label;
		}
		view_time(tbuf, sizeof(tbuf), runs[j].started);
		sj = view_series_json(&ser[j]);
		o = pwjson_object();
		pwjson_set_str(o, "run", runs[j].label);
		pwjson_set_str(o, "time", tbuf);
		pwjson_set_bool(o, "busy", runs[j].busy);
		json_object_del(sj, "workload");
		json_object_del(sj, "metric");
		json_object_del(sj, "unit");
		json_object_del(sj, "better");
		if (json_object_update(o, sj) == -1)
			fatalx("jansson: cannot merge objects");
		json_decref(sj);
		pwjson_append(hist, o);
	}
	if (rc == 0 && nser > 0 && view_scan_host(sc, m,
	    runs[nser - 1].host_name) == -1)
		rc = -1;
	free(sc->x);
	free(sc->labels);
	sc->x = NULL;
	sc->labels = NULL;
	store_series_free(ser, nser);
	free(ids);
	store_runs_free(runs, nruns);
	return rc;
}

int
view_history_json(struct store *st, const struct store_metric *m,
    const char *host, size_t limit, json_t *arr)
{
	struct view_scan	sc;

	memset(&sc, 0, sizeof(sc));
	return view_history(st, m, host, limit, arr, &sc);
}

int
view_history_changes(struct store *st, const struct store_metric *m,
    const char *host, size_t limit, const struct cp_params *cpp,
    json_t *arr, struct detect_change **ch, size_t *nch)
{
	struct view_scan	sc;

	memset(&sc, 0, sizeof(sc));
	sc.cpp = cpp;
	if (view_history(st, m, host, limit, arr, &sc) == -1) {
		detect_changes_free(sc.ch, sc.nch);
		return -1;
	}
	*ch = xreallocarray(*ch, *nch + sc.nch > 0 ? *nch + sc.nch : 1,
	    sizeof(**ch));
	if (sc.nch > 0)
		memcpy(*ch + *nch, sc.ch, sc.nch * sizeof(**ch));
	*nch += sc.nch;
	free(sc.ch);
	return 0;
}

json_t *
view_changes_json(const struct detect_change *ch, size_t n)
{
	json_t	*arr, *o;
	size_t	 i;

	arr = pwjson_array();
	for (i = 0; i < n; i++) {
		o = pwjson_object();
		pwjson_set_str(o, "host", ch[i].host);
		pwjson_set_str(o, "workload", ch[i].metric.workload);
		pwjson_set_str(o, "metric", ch[i].metric.metric);
		pwjson_set_str(o, "unit", ch[i].metric.unit);
		pwjson_set_str(o, "run", ch[i].run);
		pwjson_set_str(o, "last_run", ch[i].last_run);
		pwjson_set_int(o, "index", (int64_t)ch[i].index);
		pwjson_set_str(o, "kind", cp_kind_name(ch[i].cp.kind));
		pwjson_set_num(o, "before", ch[i].cp.before);
		pwjson_set_num(o, "after", ch[i].cp.after);
		pwjson_set_num(o, "change_pct", ch[i].cp.change_pct);
		pwjson_set_num(o, "p", ch[i].cp.p);
		pwjson_set_int(o, "runs", (int64_t)ch[i].cp.length);
		pwjson_append(arr, o);
	}
	return arr;
}
