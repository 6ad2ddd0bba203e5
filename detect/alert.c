/*
 * The alert state machine and the notifications it queues.
 *
 *   (none) --regression verdict--------------> suspected
 *   (none) --pooled look-back significant------> confirmed
 *   suspected --pooled evidence significant----> confirmed
 *   suspected --back within noise, or window---> resolved (cleared;
 *                                                 not by the window while
 *                                                 only a young baseline
 *                                                 keeps a regression from
 *                                                 confirming)
 *   confirmed --confirm_runs runs within noise-> resolved
 *   confirmed --a further shift its way---------> resolved, superseded by
 *                                                 a new confirmed alert
 *   suspected, confirmed --perfwatch alerts ack-> acknowledged
 *
 * The evidence is worked out by detect.c; this file only decides, writes
 * the alert and queues one outbox row per sink that wants the change, in
 * the caller's transaction.  A change is worth telling a sink when its
 * level reaches the sink's min_state: a suspicion or a cleared suspicion
 * is level "suspected", a confirmation or the acknowledgement of a
 * confirmed alert "confirmed", the resolution of a confirmed alert
 * "resolved"; improvements are level "suspected" whatever their state.
 * Unless a [sink] of type log is configured, every change also gets a row
 * for the built-in sink "log" (DESIGN.md: a log line always).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "sysinfo/sysinfo.h"
#include "log.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "detect_int.h"

/* The name of the built-in sink that logs every change. */
#define DETECT_LOG_SINK	"log"

/*
 * A suspicion is cleared by a run back within noise only if the pooled
 * evidence since its first run is weak too (one-sided p above this): a
 * real step whose second run dips is kept.
 */
#define ALERT_CLEAR_P	0.01

/* Changes named in an attribution's one-line summary. */
#define ALERT_SUMMARY_ITEMS	10

/* The static name of an alert state, for events that outlive the row. */
static const char *
alert_state_name(const char *s)
{
	static const char *const names[] = { ALERT_SUSPECTED, ALERT_CONFIRMED,
	    ALERT_ACKNOWLEDGED, ALERT_RESOLVED };
	size_t	i;

	if (s == NULL)
		return NULL;
	for (i = 0; i < nitems(names); i++)
		if (strcmp(s, names[i]) == 0)
			return names[i];
	return NULL;
}

/* The sign of the value change an alert is about: +1 up, -1 down. */
static int
alert_sign(const char *direction, enum better better)
{
	int	regression = strcmp(direction, VERDICT_REGRESSION) == 0;

	if (better == BETTER_HIGHER)
		return regression ? -1 : 1;
	return regression ? 1 : -1;
}

/* The direction of a value change of sign for a metric. */
static const char *
alert_direction(int sign, enum better better)
{
	if ((sign > 0) == (better == BETTER_HIGHER))
		return VERDICT_IMPROVEMENT;
	return VERDICT_REGRESSION;
}

/* How much a change to state `to` is worth telling (enum detect_level). */
static enum detect_level
alert_level(const struct store_alert *a, const char *to)
{
	if (strcmp(a->direction, VERDICT_IMPROVEMENT) == 0 ||
	    strcmp(to, ALERT_SUSPECTED) == 0)
		return DETECT_LEVEL_SUSPECTED;
	if (strcmp(to, ALERT_CONFIRMED) == 0)
		return DETECT_LEVEL_CONFIRMED;
	if (a->confirmed_run == 0)
		return DETECT_LEVEL_SUSPECTED;	/* a cleared suspicion */
	if (strcmp(to, ALERT_ACKNOWLEDGED) == 0)
		return DETECT_LEVEL_CONFIRMED;
	return DETECT_LEVEL_RESOLVED;
}

/*
 * Queue payload (consumed) for every sink that wants alert a's change to
 * a->state, and for the built-in log sink unless a log sink is
 * configured.
 */
int
detect_outbox_queue(struct store *st, const struct detect_params *p,
    const struct store_alert *a, json_t *payload)
{
	enum detect_level	 level;
	int64_t			 now;
	char			*text;
	size_t			 i;
	int			 logged = 0, rc = 0;

	level = alert_level(a, a->state);
	now = p->now != 0 ? p->now : (int64_t)time(NULL);
	text = pwjson_dumps(payload, PWJSON_COMPACT);
	json_decref(payload);
	for (i = 0; i < p->nsinks && rc == 0; i++) {
		if (strcmp(p->sinks[i].type, "log") == 0)
			logged = 1;
		if (level < p->sinks[i].min_state)
			continue;
		if (store_outbox_add(st, a->id, p->sinks[i].name, text,
		    now) == -1)
			rc = -1;
	}
	if (rc == 0 && !logged &&
	    store_outbox_add(st, a->id, DETECT_LOG_SINK, text, now) == -1)
		rc = -1;
	free(text);
	return rc;
}

/* t as --json gives a time: RFC 3339 in UTC (the number if out of range). */
static void
alert_time(char *buf, size_t len, int64_t t)
{
	if (timefmt_format(t, buf, len) == -1)
		snprintf(buf, len, "%lld", (long long)t);
}

/*
 * A run as JSON for an attribution, named as every --json names a run:
 * its label ("run"), its host, its start ("time") and its snapshot.
 */
static json_t *
alert_run_json(struct store *st, int64_t id)
{
	struct store_run	 r;
	json_t			*o;
	char			 tbuf[32];

	if (id == 0 || store_run_get(st, id, &r) == -1)
		return json_null();
	alert_time(tbuf, sizeof(tbuf), r.started);
	o = pwjson_object();
	pwjson_set_str(o, "run", r.label);
	pwjson_set_str(o, "host", r.host_name);
	pwjson_set_str(o, "time", tbuf);
	if (r.snapshot != 0)
		pwjson_set_int(o, "snapshot", r.snapshot);
	else
		pwjson_set(o, "snapshot", json_null());
	store_run_clear(&r);
	return o;
}

/*
 * Put the machine diff between snapshots good and bad (ids, 0 for none)
 * into o: "diff" as sysinfo_diff_json and a one-line "summary", or, when
 * a run has no snapshot (imported runs) or one cannot be read, a null
 * diff and a summary that says why.
 */
static void
alert_diff_json(struct store *st, int64_t good, int64_t bad, json_t *o)
{
	struct snapshot		*a = NULL, *b = NULL;
	struct snapshot_diff	*d;
	char			*cause = NULL, *text;

	if (good == 0 || bad == 0) {
		pwjson_set(o, "diff", json_null());
		pwjson_set_str(o, "summary", good == 0 && bad == 0 ?
		    "no machine snapshot of either run (imported?)" :
		    good == 0 ? "no machine snapshot of the last good run" :
		    "no machine snapshot of the first bad run");
		return;
	}
	if ((a = store_snapshot_get(st, good, &cause)) == NULL ||
	    (b = store_snapshot_get(st, bad, &cause)) == NULL) {
		log_warnx("attribution: %s", cause != NULL ? cause : "?");
		pwjson_set(o, "diff", json_null());
		xasprintf(&text, "snapshot unreadable: %s", cause != NULL ?
		    cause : "?");
		pwjson_set_str(o, "summary", text);
		free(text);
		free(cause);
		sysinfo_snapshot_free(a);
		return;
	}
	d = sysinfo_diff(a, b);
	pwjson_set(o, "diff", sysinfo_diff_json(d));
	text = sysinfo_diff_summary(d, ALERT_SUMMARY_ITEMS);
	pwjson_set_str(o, "summary", text);
	free(text);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/* A run's git_commits object, or NULL. */
static json_t *
alert_run_commits(struct store *st, int64_t id)
{
	struct store_run	 r;
	json_t			*o = NULL;

	if (id == 0 || store_run_get(st, id, &r) == -1)
		return NULL;
	if (r.git_commits != NULL)
		o = json_loads(r.git_commits, 0, NULL);
	store_run_clear(&r);
	if (o != NULL && !json_is_object(o)) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

json_t *
detect_git_moved(struct store *st, int64_t good, int64_t bad)
{
	json_t		*g, *b, *v, *arr, *e;
	const char	*name, *from, *to;

	g = alert_run_commits(st, good);
	b = alert_run_commits(st, bad);
	arr = pwjson_array();
	if (g != NULL && b != NULL) {
		json_object_foreach(b, name, v) {
			to = json_string_value(v);
			from = json_string_value(json_object_get(g, name));
			if (to == NULL || from == NULL || strcmp(from, to) == 0)
				continue;
			e = pwjson_object();
			pwjson_set_str(e, "name", name);
			pwjson_set_str(e, "from", from);
			pwjson_set_str(e, "to", to);
			pwjson_append(arr, e);
		}
	}
	json_decref(g);
	json_decref(b);
	return arr;
}

/*
 * Put the watched git trees whose commit differs between runs good and
 * bad into o ("git"), and name them first in its "summary": a change of
 * commit is a change of the machine's software that no snapshot shows.
 */
static void
alert_git_json(struct store *st, int64_t good, int64_t bad, json_t *o)
{
	json_t		*arr, *e;
	const char	*sum;
	char		*text = NULL, *next;
	size_t		 i;

	arr = detect_git_moved(st, good, bad);
	json_array_foreach(arr, i, e) {
		xasprintf(&next, "%s%sgit %s %.12s..%.12s", text != NULL ?
		    text : "", text != NULL ? ", " : "",
		    json_string_value(json_object_get(e, "name")),
		    json_string_value(json_object_get(e, "from")),
		    json_string_value(json_object_get(e, "to")));
		free(text);
		text = next;
	}
	pwjson_set(o, "git", arr);
	if (text != NULL) {
		sum = json_string_value(json_object_get(o, "summary"));
		xasprintf(&next, "%s; %s", text, sum != NULL ? sum : "");
		pwjson_set_str(o, "summary", next);
		free(next);
		free(text);
	}
}

void
detect_attribution_upgrade(json_t *attr, const char *host)
{
	static const char *const runs[] = { "last_good_run", "first_bad_run" };
	json_t	*o, *v;
	char	 tbuf[32];
	size_t	 i;

	/* Stored before every key without a value was null: left out. */
	if (json_is_object(attr) && json_object_get(attr,
	    "same_snapshot") == NULL)
		pwjson_set(attr, "same_snapshot", json_null());
	for (i = 0; i < nitems(runs); i++) {
		if (!json_is_object(o = json_object_get(attr, runs[i])))
			continue;
		if (json_object_get(o, "run") == NULL &&
		    (v = json_object_get(o, "label")) != NULL)
			pwjson_set(o, "run", json_incref(v));
		json_object_del(o, "label");
		if (json_object_get(o, "host") == NULL && host != NULL)
			pwjson_set_str(o, "host", host);
		v = json_object_get(o, "started");
		if (json_object_get(o, "time") == NULL && json_is_integer(v)) {
			alert_time(tbuf, sizeof(tbuf), json_integer_value(v));
			pwjson_set_str(o, "time", tbuf);
		}
		json_object_del(o, "started");
	}
}

/*
 * What changed between alert a's last good run and its first bad one, as
 * JSON text (allocated): the two runs (run, host, time, snapshot id), whether
 * they ran on the same machine snapshot, the machine diff between their
 * snapshots ("diff": fields and packages), the watched git trees that
 * moved ("git") and a one-line "summary" of both.
 */
char *
detect_attribution(struct store *st, const struct store_alert *a)
{
	json_t	*o, *good, *bad, *gs, *bs;
	char	*text;
	int64_t	 gid = 0, bid = 0;

	o = pwjson_object();
	good = alert_run_json(st, a->last_good_run);
	bad = alert_run_json(st, a->first_bad_run);
	gs = json_is_object(good) ? json_object_get(good, "snapshot") : NULL;
	bs = json_is_object(bad) ? json_object_get(bad, "snapshot") : NULL;
	if (json_is_integer(gs))
		gid = json_integer_value(gs);
	if (json_is_integer(bs))
		bid = json_integer_value(bs);
	/* Null, not left out, when a run has no snapshot to compare. */
	if (gid != 0 && bid != 0)
		pwjson_set_bool(o, "same_snapshot", gid == bid);
	else
		pwjson_set(o, "same_snapshot", json_null());
	pwjson_set(o, "last_good_run", good);
	pwjson_set(o, "first_bad_run", bad);
	alert_diff_json(st, gid, bid, o);
	alert_git_json(st, a->last_good_run, a->first_bad_run, o);
	text = pwjson_dumps(o, PWJSON_COMPACT);
	json_decref(o);
	return text;
}

/* The numbers of a notification about alert a. */
struct alert_numbers {
	const char		*run;		/* label of the checked run */
	double			 change_pct;
	double			 ci_low;
	double			 ci_high;
	double			 q;
	double			 current;
	const struct detect_base *base;
	const char		*baseline;
	int64_t			 superseded_by;	/* 0: none */
};

/* Take n's change, interval and q from pooled evidence pl. */
static void
alert_numbers_pool(struct alert_numbers *n, const struct detect_pool *pl)
{
	n->change_pct = pl->change_pct;
	n->ci_low = pl->ci_low;
	n->ci_high = pl->ci_high;
	n->q = pl->q;
}

/* Take n's change, interval and q from verdict v. */
static void
alert_numbers_verdict(struct alert_numbers *n, const struct detect_verdict *v)
{
	n->change_pct = v->change_pct;
	n->ci_low = v->ci_low;
	n->ci_high = v->ci_high;
	n->q = v->q;
}

/* Build the payload of alert a's change from `from` to a->state. */
static json_t *
alert_payload(const struct store_alert *a, const char *from,
    const char *host, const struct store_metric *m, const char *first_bad,
    const char *last_good, const struct alert_numbers *n, int64_t now)
{
	json_t	*o, *b, *attr = NULL;
	char	 tbuf[32];

	o = pwjson_object();
	pwjson_set_int(o, "alert", a->id);
	pwjson_set_str(o, "state", a->state);
	pwjson_set_str(o, "previous", from);
	pwjson_set_str(o, "direction", a->direction);
	pwjson_set_str(o, "host", host);
	pwjson_set_str(o, "workload", m->workload);
	pwjson_set_str(o, "metric", m->metric);
	pwjson_set_str(o, "unit", m->unit);
	pwjson_set_str(o, "better", better_name(m->better));
	pwjson_set_str(o, "run", n->run);
	pwjson_set_str(o, "first_bad_run", first_bad);
	pwjson_set_str(o, "last_good_run", last_good);
	pwjson_set_num(o, "change_pct", n->change_pct);
	pwjson_set_num(o, "ci_low", n->ci_low);
	pwjson_set_num(o, "ci_high", n->ci_high);
	pwjson_set_num(o, "q", n->q);
	pwjson_set_num(o, "current", n->current);
	b = pwjson_object();
	pwjson_set_str(b, "name", n->baseline);
	/* Every key there, null without a baseline, as in every --json. */
	pwjson_set_num(b, "level", n->base != NULL ? n->base->center : NAN);
	pwjson_set_num(b, "noise", n->base != NULL ? n->base->noise : NAN);
	if (n->base != NULL)
		pwjson_set_int(b, "runs", (int64_t)n->base->k);
	else
		pwjson_set(b, "runs", json_null());
	pwjson_set(o, "baseline", b);
	if (a->attribution != NULL)
		attr = json_loads(a->attribution, 0, NULL);
	/* One confirmed by an older version is stored as it named its runs. */
	detect_attribution_upgrade(attr, host);
	pwjson_set(o, "attribution", attr != NULL ? attr : json_null());
	if (n->superseded_by > 0)
		pwjson_set_int(o, "superseded_by", n->superseded_by);
	else
		pwjson_set(o, "superseded_by", json_null());
	/* A time as every --json gives one: RFC 3339, UTC. */
	alert_time(tbuf, sizeof(tbuf), now);
	pwjson_set_str(o, "time", tbuf);
	return o;
}

/* Record an event in res. */
static void
alert_event(struct detect_result *res, const struct store_alert *a,
    size_t verdict, const char *from, double change)
{
	struct detect_event	*e;

	res->ev = xreallocarray(res->ev, res->nev + 1, sizeof(*res->ev));
	e = &res->ev[res->nev++];
	e->alert = a->id;
	e->verdict = verdict;
	e->from = alert_state_name(from);
	e->to = alert_state_name(a->state);
	e->direction = strcmp(a->direction, VERDICT_IMPROVEMENT) == 0 ?
	    VERDICT_IMPROVEMENT : VERDICT_REGRESSION;
	e->change_pct = change;
}

/*
 * Whether pooled evidence pl passes everything a confirmation of a shift
 * of sign asks but the size of its baseline.
 */
static int
alert_passes(const struct detect_params *p, const struct detect_pool *pl,
    int sign)
{
	return detect_pool_passes(pl) && pl->sign == sign &&
	    pl->m >= p->confirm_runs && pl->q <= p->confirm_alpha;
}

/* Whether pl's baseline is a rolling one too short to confirm anything. */
static int
alert_young(const struct detect_pool *pl)
{
	return !pl->base.pinned && pl->base.k < DETECT_MIN_POOL_BASE;
}

/* Whether pooled evidence pl confirms a shift of sign. */
static int
alert_confirms(const struct detect_params *p, const struct detect_pool *pl,
    int sign)
{
	if (pl->ok)
		log_debug("pooled %zu runs from #%zu: t %.2f p %.3g "
		    "(resampled %.3g) q %.3g, %sprecedented, %sin the tail, "
		    "change %+.2f%% [%+.2f, %+.2f], sign %d/%d", pl->m,
		    pl->start, pl->t, pl->p, pl->p_resample, pl->q,
		    pl->unprecedented ? "un" : "", pl->in_tail ? "" : "not ",
		    pl->change_pct, pl->ci_low, pl->ci_high, pl->sign,
		    pl->latest_sign);
	return alert_passes(p, pl, sign) && !alert_young(pl);
}

/*
 * Whether suspected regression a, with pooled evidence pl, would be
 * confirmed but for its rolling baseline, too short to confirm anything:
 * a young history.  Such a suspicion is not cleared when its window runs
 * out.  Its runs are still off, by more than the baseline's noise can
 * explain, and clearing it would hand them to the baseline, which then
 * takes the worse level as the norm: a 64% drop in bonnie's block write
 * after seven runs was "resolved" three runs on and never told again.
 * It stays suspected until a run is back within noise, or a person
 * acknowledges it, which accepts the new level.  An improvement is let
 * go as before: held, it would keep the worse level as the baseline, and
 * a later slide back to it would only resolve the improvement.
 */
static int
alert_held(const struct detect_params *p, const struct store_alert *a,
    const struct detect_pool *pl, int sign)
{
	return strcmp(a->direction, VERDICT_REGRESSION) == 0 &&
	    alert_passes(p, pl, sign) && alert_young(pl);
}

/* Replace a's state. */
static void
alert_set_state(struct store_alert *a, const char *state)
{
	free(a->state);
	a->state = xstrdup(state);
}

/*
 * Whether the last confirm_runs runs of the open alert (ending with the
 * checked run) are all back within noise.
 */
static int
alert_back(const struct detect_params *p, const struct detect_work *w,
    int sign)
{
	size_t	i, seen = 0;

	for (i = w->nrs; i-- > 0 && seen < p->confirm_runs;) {
		if (i + 1 != w->nrs && !w->rs[i].in_alert)
			break;
		if (!detect_within_noise(&w->pool.base, &w->rs[i], sign,
		    p->min_change))
			return 0;
		seen++;
	}
	return seen == p->confirm_runs;
}

/* Write a's change, its event and its notifications. */
static int
alert_tell(struct store *st, const struct detect_params *p,
    const struct detect_host *h, struct detect_result *res,
    struct store_alert *a, const char *from, size_t vi,
    const struct alert_numbers *n, int64_t now)
{
	const struct detect_verdict	*v = &res->v[vi];
	json_t				*payload;

	alert_event(res, a, vi, from, n->change_pct);
	payload = alert_payload(a, from, res->run.host_name, &v->metric,
	    detect_host_label(h, a->first_bad_run),
	    detect_host_label(h, a->last_good_run), n, now);
	return detect_outbox_queue(st, p, a, payload);
}

/* Advance the open alert of work w with the checked run. */
static int
alert_update(struct store *st, const struct detect_params *p,
    const struct detect_host *h, struct detect_result *res,
    struct detect_work *w, size_t vi, int64_t now)
{
	struct store_alert	*a = w->open;
	struct alert_numbers	 n;
	const char		*from, *to;
	int			 sign;

	from = alert_state_name(a->state);
	sign = alert_sign(a->direction, w->v->metric.better);
	to = from;
	if (strcmp(a->state, ALERT_SUSPECTED) == 0 && w->pool.ok &&
	    w->pool.sign == sign &&
	    w->rs[w->pool.start].run != a->first_bad_run) {
		/*
		 * The shift began later than the run that raised it (and
		 * goes its way: a stretch turned the other way says nothing
		 * of where this one began).
		 */
		a->first_bad_run = w->rs[w->pool.start].run;
		a->last_good_run = w->rs[w->pool.start - 1].run;
	}
	if (strcmp(a->state, ALERT_SUSPECTED) == 0) {
		if (alert_confirms(p, &w->pool, sign)) {
			to = ALERT_CONFIRMED;
			a->confirmed_run = res->run.id;
			free(a->attribution);
			a->attribution = detect_attribution(st, a);
		} else if (!w->pool.ok || (w->pool.m >= p->window &&
		    !alert_held(p, a, &w->pool, sign)) ||
		    (detect_within_noise(&w->pool.base, &w->rs[w->nrs - 1],
		    sign, p->min_change) && stats_t_cdf(-w->pool.t * sign,
		    w->pool.base.df) > ALERT_CLEAR_P))
			to = ALERT_RESOLVED;
	} else if (alert_back(p, w, sign))
		to = ALERT_RESOLVED;
	a->last_run = res->run.id;
	/*
	 * The size of the shift: a run back within noise (the one that
	 * resolves the alert, or a dip) would water it down.
	 */
	if (w->pool.ok && !detect_within_noise(&w->pool.base,
	    &w->rs[w->nrs - 1], sign, p->min_change))
		a->change_pct = w->pool.change_pct;
	a->updated = now;
	alert_set_state(a, to);
	if (store_alert_update(st, a) == -1)
		return -1;
	/*
	 * A resolved alert is none the verdict names: both null, as
	 * perfwatch(1) has a verdict without an alert (its CSV said "-" and
	 * "resolved"); the line under the table says it was resolved.
	 */
	if (strcmp(to, ALERT_RESOLVED) == 0) {
		w->v->alert = 0;
		w->v->alert_state = NULL;
	} else {
		w->v->alert = a->id;
		w->v->alert_state = alert_state_name(to);
	}
	if (strcmp(to, from) == 0)
		return 0;
	memset(&n, 0, sizeof(n));
	n.run = res->run.label;
	n.current = w->v->current;
	n.base = &w->pool.base;
	n.baseline = res->baseline;
	if (strcmp(to, ALERT_CONFIRMED) == 0) {
		alert_numbers_pool(&n, &w->pool);
	} else
		alert_numbers_verdict(&n, w->v);
	return alert_tell(st, p, h, res, a, from, vi, &n, now);
}

/*
 * The confirmed alert of work w has been left behind by a further shift
 * its way (w->further confirms one, see detect_further): open a confirmed
 * alert for it, from the run where it began (the machine diff is taken
 * there, inside the old alert), and resolve the old one as superseded by
 * it.  The old alert's numbers no longer describe the metric, and one
 * alert per shift means the second shift gets its own.
 */
static int
alert_supersede(struct store *st, const struct detect_params *p,
    const struct detect_host *h, struct detect_result *res,
    struct detect_work *w, size_t vi, int64_t now)
{
	struct store_alert	*old = w->open, a;
	struct alert_numbers	 n;
	const struct detect_pool *f = &w->further;
	const char		*from;
	double			 sum;
	size_t			 i;
	int			 rc = -1;

	memset(&a, 0, sizeof(a));
	memset(&n, 0, sizeof(n));
	a.host = res->run.host;
	a.metric = w->v->metric.id;
	a.last_run = a.opened_run = a.confirmed_run = res->run.id;
	a.opened = a.updated = now;
	a.first_bad_run = w->rs[f->start].run;
	a.last_good_run = w->rs[f->start - 1].run;
	a.state = xstrdup(ALERT_CONFIRMED);
	a.direction = xstrdup(old->direction);
	a.change_pct = f->change_pct;
	a.attribution = detect_attribution(st, &a);
	if ((a.id = store_alert_add(st, &a)) == -1)
		goto out;
	n.run = res->run.label;
	n.current = w->v->current;
	n.baseline = res->baseline;
	alert_numbers_pool(&n, f);
	n.base = &w->pool.base;
	if (alert_tell(st, p, h, res, &a, NULL, vi, &n, now) == -1)
		goto out;

	from = alert_state_name(old->state);
	old->last_run = res->run.id;
	old->updated = now;
	/*
	 * Its change is its own shift's: the mean change of its runs before
	 * the further shift's first, against its baseline.  w->pool runs on
	 * through the second shift (as did the checks of the runs before
	 * this one), and gave a size that was neither: +17% of a +15% shift
	 * that two runs of +32% followed.
	 */
	if (w->pool.ok && f->start > w->pool.start) {
		for (sum = 0, i = w->pool.start; i < f->start; i++)
			sum += w->rs[i].level - w->pool.base.center;
		old->change_pct = detect_pct(sum /
		    (double)(f->start - w->pool.start), w->pool.base.center);
	}
	alert_set_state(old, ALERT_RESOLVED);
	if (store_alert_update(st, old) == -1)
		goto out;
	alert_numbers_verdict(&n, w->v);
	n.superseded_by = a.id;
	if (alert_tell(st, p, h, res, old, from, vi, &n, now) == -1)
		goto out;
	w->v->alert = a.id;
	w->v->alert_state = alert_state_name(a.state);
	rc = 0;
out:
	store_alert_clear(&a);
	return rc;
}

/*
 * The last good run before the shift whose first run is w->rs[start],
 * judged against baseline b: the newest run of a rolling baseline (the
 * runs before the shift that no alert holds), but the run before the
 * shift under a pinned one, whose newest run may be of any age: the
 * machine diff and the bisection an alert suggests are between those
 * two runs.
 */
static int64_t
alert_last_good(const struct detect_work *w, const struct detect_base *b,
    size_t start)
{
	if (b->pinned && start > 0)
		return w->rs[start - 1].run;
	return b->last_good;
}

/*
 * Where a shift began that turns an open alert back and beyond (a run off
 * the other way resolving it): the first of the runs that resolved it
 * (the last confirm_runs, ending with the checked run) from which each
 * is off the new way too.  The run before is at the old alert's level:
 * the last good one of the new shift.
 */
static size_t
alert_turn_start(const struct detect_params *p, const struct detect_work *w,
    int sign)
{
	size_t	i = w->nrs - 1, seen = 1;

	while (i > 0 && seen < p->confirm_runs && w->rs[i - 1].in_alert &&
	    !detect_within_noise(&w->base, &w->rs[i - 1], sign,
	    p->min_change)) {
		i--;
		seen++;
	}
	return i;
}

/*
 * Open a new alert for work w if its evidence says so: confirmed at once
 * by the pooled look-back (unless only_suspect), else suspected by the
 * run's verdict.
 */
static int
alert_open(struct store *st, const struct detect_params *p,
    const struct detect_host *h, struct detect_result *res,
    struct detect_work *w, size_t vi, int only_suspect, int64_t now)
{
	struct store_alert	 a;
	struct alert_numbers	 n;
	struct detect_verdict	*v = w->v;
	size_t			 i;
	int			 sign, rc;

	memset(&a, 0, sizeof(a));
	memset(&n, 0, sizeof(n));
	a.host = res->run.host;
	a.metric = v->metric.id;
	a.last_run = a.opened_run = res->run.id;
	a.opened = a.updated = now;
	n.run = res->run.label;
	n.current = v->current;
	n.baseline = res->baseline;
	sign = w->pool.sign;
	if (!only_suspect && alert_confirms(p, &w->pool, sign) &&
	    detect_beyond_accepted(p, w, w->pool.change_pct, w->pool.t,
	    w->pool.base.df, p->confirm_alpha)) {
		a.first_bad_run = w->rs[w->pool.first_bad].run;
		a.last_good_run = alert_last_good(w, &w->pool.base,
		    w->pool.first_bad);
		a.confirmed_run = res->run.id;
		a.state = xstrdup(ALERT_CONFIRMED);
		a.change_pct = w->pool.change_pct;
		alert_numbers_pool(&n, &w->pool);
		n.base = &w->pool.base;
	} else if ((v->kind == DETECT_REGRESSION ||
	    v->kind == DETECT_IMPROVEMENT) && detect_beyond_accepted(p, w,
	    v->change_pct, v->z, w->base.df, p->confirm_alpha)) {
		sign = v->current > v->reference ? 1 : -1;
		i = only_suspect ? alert_turn_start(p, w, sign) : w->nrs - 1;
		a.first_bad_run = w->rs[i].run;
		/*
		 * Turned from a confirmed alert, the run before is the last
		 * at its level; a suspicion cleared was one wild run or two,
		 * which the baseline's newest run skips.
		 */
		if (only_suspect && i > 0 && w->open != NULL &&
		    w->open->confirmed_run != 0)
			a.last_good_run = w->rs[i - 1].run;
		else
			a.last_good_run = alert_last_good(w, &w->base, i);
		a.state = xstrdup(ALERT_SUSPECTED);
		a.change_pct = v->change_pct;
		alert_numbers_verdict(&n, v);
		n.base = &w->base;
	} else
		return 0;
	a.direction = xstrdup(alert_direction(sign, v->metric.better));
	if (a.confirmed_run != 0)
		a.attribution = detect_attribution(st, &a);
	rc = -1;
	if ((a.id = store_alert_add(st, &a)) == -1)
		goto out;
	v->alert = a.id;
	v->alert_state = alert_state_name(a.state);
	rc = alert_tell(st, p, h, res, &a, NULL, vi, &n, now);
out:
	store_alert_clear(&a);
	return rc;
}

/*
 * A run checked again has seen its alerts already, and advances none;
 * its verdict still names the open alert whose stretch holds it (from the
 * first bad run to the last run seen), as that alert stands now.
 */
static void
alert_covering(const struct detect_host *h, int64_t run,
    struct detect_work *w)
{
	const struct store_alert	*a;
	size_t				 i, t, f, e;

	if (w->v->alert != 0 || detect_host_pos(h, run, &t) == -1)
		return;
	for (i = w->nalerts; i-- > 0;) {
		a = &w->alerts[i];
		if (strcmp(a->state, ALERT_SUSPECTED) != 0 &&
		    strcmp(a->state, ALERT_CONFIRMED) != 0)
			continue;
		if (detect_host_pos(h, a->first_bad_run, &f) == -1 ||
		    detect_host_pos(h, a->last_run, &e) == -1 ||
		    t < f || t > e)
			continue;
		w->v->alert = a->id;
		w->v->alert_state = alert_state_name(a->state);
		return;
	}
}

/*
 * Advance the alerts of every metric of the checked run (works w[0..n))
 * and queue their notifications, in the caller's transaction.
 */
int
detect_alerts_advance(struct store *st, const struct detect_params *p,
    const struct detect_host *h, struct detect_result *res,
    struct detect_work *w, size_t n, char **cause)
{
	enum detect_kind kind;
	int64_t		 now;
	size_t		 i;
	int		 rc;

	if (!res->alerts)
		return 0;
	now = p->now != 0 ? p->now : (int64_t)time(NULL);
	for (i = 0; i < n; i++) {
		if (w[i].open != NULL &&
		    strcmp(w[i].open->state, ALERT_CONFIRMED) == 0 &&
		    alert_confirms(p, &w[i].further,
		    alert_sign(w[i].open->direction, w[i].v->metric.better)))
			rc = alert_supersede(st, p, h, res, &w[i], i, now);
		else if (w[i].open != NULL) {
			rc = alert_update(st, p, h, res, &w[i], i, now);
			/*
			 * A suspicion cleared, or a confirmed alert resolved,
			 * by a run that is itself off the other way: that
			 * run raises its own suspicion.
			 */
			kind = w[i].v->kind;
			if (rc == 0 && w[i].v->alert == 0 &&
			    (kind == DETECT_REGRESSION ||
			    kind == DETECT_IMPROVEMENT) &&
			    strcmp(detect_kind_name(kind),
			    w[i].open->direction) != 0)
				rc = alert_open(st, p, h, res, &w[i], i, 1,
				    now);
		} else if (w[i].can_open)
			rc = alert_open(st, p, h, res, &w[i], i, 0, now);
		else {
			alert_covering(h, res->run.id, &w[i]);
			rc = 0;
		}
		if (rc == -1) {
			xasprintf(cause, "writing alerts of %s %s: %s",
			    w[i].v->metric.workload, w[i].v->metric.metric,
			    store_errmsg(st));
			return -1;
		}
	}
	return 0;
}

/*
 * Acknowledge alert id: a person has seen it and accepts the new level:
 * later runs are judged against the runs since the shift.  The change is
 * queued for the sinks in the same transaction.  On -1, store_failure()
 * tells a store that failed (or was busy) from an alert that is not
 * there or not open.
 */
int
detect_alert_ack(struct store *st, int64_t id, const struct detect_params *p,
    char **cause)
{
	struct store_alert	 a;
	struct store_metric	 m;
	struct store_run	 bad, good, last;
	struct alert_numbers	 n;
	const char		*from;
	int64_t			 now;
	int			 rc = -1;

	memset(&m, 0, sizeof(m));
	memset(&bad, 0, sizeof(bad));
	memset(&good, 0, sizeof(good));
	memset(&last, 0, sizeof(last));
	if (store_begin(st) == -1) {
		xasprintf(cause, "%s", store_errmsg(st));
		return -1;
	}
	if (store_alert_get(st, id, &a) == -1) {
		/* One that cannot be read is no alert not there. */
		if (store_failure(st) == STORE_FOUND_NONE)
			xasprintf(cause, "no alert %lld", (long long)id);
		else
			xasprintf(cause, "alert %lld: %s", (long long)id,
			    store_errmsg(st));
		store_rollback(st);
		return -1;
	}
	from = alert_state_name(a.state);
	if (from == NULL || (strcmp(from, ALERT_SUSPECTED) != 0 &&
	    strcmp(from, ALERT_CONFIRMED) != 0)) {
		xasprintf(cause, "alert %lld is %s already", (long long)id,
		    a.state);
		goto out;
	}
	if (store_metric_get(st, a.metric, &m) == -1 ||
	    store_run_get(st, a.first_bad_run, &bad) == -1 ||
	    store_run_get(st, a.last_run, &last) == -1 ||
	    (a.last_good_run != 0 &&
	    store_run_get(st, a.last_good_run, &good) == -1)) {
		xasprintf(cause, "alert %lld: %s", (long long)id,
		    store_errmsg(st));
		goto out;
	}
	now = p->now != 0 ? p->now : (int64_t)time(NULL);
	alert_set_state(&a, ALERT_ACKNOWLEDGED);
	a.updated = now;
	if (store_alert_update(st, &a) == -1) {
		xasprintf(cause, "alert %lld: %s", (long long)id,
		    store_errmsg(st));
		goto out;
	}
	memset(&n, 0, sizeof(n));
	n.run = last.label;
	n.change_pct = a.change_pct;
	n.ci_low = n.ci_high = n.q = n.current = NAN;
	n.baseline = NULL;
	if (detect_outbox_queue(st, p, &a, alert_payload(&a, from,
	    bad.host_name, &m, bad.label, good.label, &n, now)) == -1 ||
	    store_commit(st) == -1) {
		xasprintf(cause, "alert %lld: %s", (long long)id,
		    store_errmsg(st));
		goto out;
	}
	rc = 0;
out:
	if (rc == -1)
		store_rollback(st);
	store_alert_clear(&a);
	store_metric_clear(&m);
	store_run_clear(&bad);
	store_run_clear(&good);
	store_run_clear(&last);
	return rc;
}
