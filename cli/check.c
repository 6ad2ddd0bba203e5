/*
 * Verdicts: check, compare, changes, alerts, baseline.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "detect/detect.h"
#include "cli.h"

/*
 * Percent v as it is printed to one decimal: a change that rounds to
 * nothing (7489 against 7489.5) is +0.0, as no change is, not -0.0.
 */
static double
pct_shown(double v)
{
	return fabs(v) < 0.05 ? 0.0 : v;
}

/*
 * Percent v with decimals decimals, or from a million on with three
 * significant digits and an exponent: a change against a level near 0
 * (1e-200 to 5) is 5e+202%, whose digits overran the buffer and lost
 * the "%" too.
 */
static void
fmt_pct_num(char *buf, size_t len, double v, int decimals)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%+.3g", v);
	else
		snprintf(buf, len, "%+.*f", decimals, pct_shown(v));
}

/*
 * A percentage for a table: "+2.3%", "+250%", or "-" when absent.  From
 * 99.95 on, which one decimal rounds to 100.0, no decimal: 99.96 read
 * "+100.0%" beside a "+100%".
 */
void
cli_fmt_pct(char *buf, size_t len, double v)
{
	char	num[32];

	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else {
		fmt_pct_num(num, sizeof(num), v, fabs(v) >= 99.95 ? 0 : 1);
		snprintf(buf, len, "%s%%", num);
	}
}

/*
 * A change in percent for out: for a person as cli_fmt_pct gives it, for
 * a program (CSV) the number --json gives under change_pct, every digit
 * and neither sign nor "%".
 */
static void
fmt_change(char *buf, size_t len, double v, enum cli_output out)
{
	if (out == OUT_CSV)
		cli_fmt_figure(buf, len, v, out);
	else
		cli_fmt_pct(buf, len, v);
}

/* An interval for a table: "[-3.1, +0.4]". */
static void
fmt_ci(char *buf, size_t len, double lo, double hi)
{
	char	a[20], b[20];

	if (isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi))
		snprintf(buf, len, "-");
	else {
		fmt_pct_num(a, sizeof(a), lo, 1);
		fmt_pct_num(b, sizeof(b), hi, 1);
		snprintf(buf, len, "[%s, %s]", a, b);
	}
}

/*
 * A p or q value: for a person two digits, and "<1e-4" below that; for a
 * program (CSV) the value itself, every digit, as --json gives it.
 */
static void
fmt_p(char *buf, size_t len, double p, enum cli_output out)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (out == OUT_CSV)
		store_format_double(buf, len, p);
	else if (p < 1e-4)
		snprintf(buf, len, "<1e-4");
	else
		snprintf(buf, len, "%.2g", p);
}

/* Detection parameters from the configuration. */
static void
check_params(struct cli *c, struct detect_params *p)
{
	detect_params_default(p);
	if (c->cfg != NULL)
		detect_params_config(p, c->cfg);
}

/*
 * Say why a judgement failed, cause its message: a store that failed or
 * was busy (f) is named by its path, and busy ends in the advice to try
 * again unless no_retry (a bisection stops rather than waits).  Returns
 * the exit status: 75 busy, 74 a full disk, 70 failed, else none.
 */
static int
check_failed(struct store *st, enum store_failure f, const char *cause,
    int none, int no_retry)
{
	if (f == STORE_FOUND_NONE)
		fprintf(stderr, "perfwatch: %s\n", cause);
	else
		fprintf(stderr, "perfwatch: %s: %s%s\n", store_path(st), cause,
		    f == STORE_BUSY && !no_retry ? " (another process holds "
		    "the store locked); try again" : "");
	return cli_failure_status(f, none);
}

/*
 * The metrics a check decides on: those whose workload matches one of
 * the --workload globs and whose name one of the --metric globs (either
 * list empty: any).  The globs are borrowed from argv.
 */
struct check_select {
	char		**workloads;
	size_t		  nworkloads;
	char		**metrics;
	size_t		  nmetrics;
	size_t		  run_metrics;	/* the run's metrics, selected
					   or not: the family of its
					   stored verdicts */
};

/*
 * The selection as JSON: the globs given and how many metrics the run
 * has; null for none.
 */
static json_t *
check_select_json(const struct check_select *s)
{
	json_t	*o, *a;
	size_t	 i;

	if (s == NULL || s->nworkloads + s->nmetrics == 0)
		return json_null();
	o = pwjson_object();
	a = pwjson_array();
	for (i = 0; i < s->nworkloads; i++)
		pwjson_append(a, pwjson_str(s->workloads[i]));
	pwjson_set(o, "workloads", a);
	a = pwjson_array();
	for (i = 0; i < s->nmetrics; i++)
		pwjson_append(a, pwjson_str(s->metrics[i]));
	pwjson_set(o, "metrics", a);
	pwjson_set_int(o, "run_metrics", (int64_t)s->run_metrics);
	return o;
}

/*
 * The result of a check as JSON; "alerts" lists every open alert.  sel is
 * the metrics the check decided on, or NULL for every metric.
 */
static json_t *
check_result_json(const struct detect_result *r,
    const struct check_select *sel)
{
	const struct detect_verdict	*v;
	const struct detect_event	*e;
	const struct detect_unjudged	*u;
	json_t				*o, *arr, *vo, *al, *ma;
	size_t				 i, j;

	o = pwjson_object();
	pwjson_set_str(o, "run", r->run.label);
	pwjson_set_str(o, "host", r->run.host_name);
	pwjson_set_str(o, "baseline", r->baseline);
	pwjson_set_bool(o, "alerts_advanced", r->alerts);
	view_busy_json(o, &r->run);
	pwjson_set_int(o, "regressions", (int64_t)r->regressions);
	pwjson_set_int(o, "improvements", (int64_t)r->improvements);
	pwjson_set_int(o, "inconclusive", (int64_t)r->inconclusive);
	pwjson_set(o, "selection", check_select_json(sel));
	arr = pwjson_array();
	for (i = 0; i < r->nv; i++) {
		v = &r->v[i];
		vo = pwjson_object();
		pwjson_set_str(vo, "workload", v->metric.workload);
		pwjson_set_str(vo, "metric", v->metric.metric);
		pwjson_set_str(vo, "unit", v->metric.unit);
		pwjson_set_str(vo, "better",
		    better_name(v->metric.better));
		pwjson_set_str(vo, "verdict", detect_kind_name(v->kind));
		pwjson_set_num(vo, "change_pct", v->change_pct);
		pwjson_set_num(vo, "ci_low", v->ci_low);
		pwjson_set_num(vo, "ci_high", v->ci_high);
		pwjson_set_num(vo, "p", v->p);
		pwjson_set_num(vo, "q", v->q);
		pwjson_set_num(vo, "current", v->current);
		pwjson_set_num(vo, "baseline_level", v->reference);
		/*
		 * The between-run noise: null, not 0, without two baseline
		 * runs (the one run's own spread was given, which baseline
		 * show, by the same name, calls none).
		 */
		pwjson_set_num(vo, "noise", v->noise_runs >= 2 ? v->noise :
		    NAN);
		pwjson_set_int(vo, "baseline_runs",
		    (int64_t)v->baseline_runs);
		pwjson_set_int(vo, "noise_runs", (int64_t)v->noise_runs);
		pwjson_set_int(vo, "noise_moved", (int64_t)v->noise_moved);
		pwjson_set_int(vo, "noise_left_out",
		    (int64_t)v->noise_left_out);
		pwjson_set_int(vo, "samples", (int64_t)v->samples);
		if (v->alert != 0)
			pwjson_set_int(vo, "alert", v->alert);
		else
			pwjson_set(vo, "alert", json_null());
		pwjson_set_str(vo, "alert_state", v->alert_state);
		pwjson_append(arr, vo);
	}
	pwjson_set(o, "verdicts", arr);
	arr = pwjson_array();
	for (i = 0; i < r->nunj; i++) {
		u = &r->unj[i];
		vo = pwjson_object();
		pwjson_set_str(vo, "workload", u->workload);
		pwjson_set_str(vo, "status", u->status);
		pwjson_set_str(vo, "error", u->error);
		ma = pwjson_array();
		for (j = 0; j < u->nmetrics; j++)
			pwjson_append(ma, pwjson_str(u->metrics[j].metric));
		pwjson_set(vo, "metrics", ma);
		pwjson_append(arr, vo);
	}
	pwjson_set(o, "not_judged", arr);
	arr = pwjson_array();
	for (i = 0; i < r->nev; i++) {
		e = &r->ev[i];
		vo = pwjson_object();
		pwjson_set_int(vo, "alert", e->alert);
		pwjson_set_str(vo, "workload",
		    r->v[e->verdict].metric.workload);
		pwjson_set_str(vo, "metric",
		    r->v[e->verdict].metric.metric);
		pwjson_set_str(vo, "from", e->from);
		pwjson_set_str(vo, "to", e->to);
		pwjson_set_str(vo, "direction", e->direction);
		pwjson_set_num(vo, "change_pct", e->change_pct);
		pwjson_append(arr, vo);
	}
	pwjson_set(o, "events", arr);
	al = pwjson_array();
	for (i = 0; i < r->nv; i++) {
		v = &r->v[i];
		if (v->alert == 0)
			continue;
		vo = pwjson_object();
		/* An alert: its number is "id", as alerts --json has it. */
		pwjson_set_int(vo, "id", v->alert);
		pwjson_set_str(vo, "workload", v->metric.workload);
		pwjson_set_str(vo, "metric", v->metric.metric);
		pwjson_set_str(vo, "state", v->alert_state);
		/* A young baseline confirms nothing (alert.c, alert_held). */
		pwjson_set(vo, "can_confirm", json_boolean(v->can_confirm));
		pwjson_append(al, vo);
	}
	pwjson_set(o, "alerts", al);
	return o;
}

/*
 * Whether v's alert is a suspicion that its young rolling baseline keeps
 * from being confirmed (alert.c, alert_held).
 */
static int
check_held(const struct detect_verdict *v)
{
	return v->alert != 0 && v->alert_state != NULL &&
	    strcmp(v->alert_state, "suspected") == 0 && !v->can_confirm;
}

/*
 * The most runs with a metric of r's in its baseline: 0 when the
 * baseline measured none of the run's metrics.
 */
static size_t
check_base_most(const struct detect_result *r)
{
	size_t	i, most = 0;

	for (i = 0; i < r->nv; i++)
		if (r->v[i].baseline_runs > most)
			most = r->v[i].baseline_runs;
	return most;
}

/*
 * Whether event e of r opened or confirmed a regression alert of a
 * metric whose verdict is not a regression: the runs since the shift
 * pooled found it where the run alone does not show it (a first run
 * just short of significance, or the runs of a shift recorded unchecked
 * that the rolling baseline took in as a step before the latest was
 * checked).
 */
static int
check_alert_only(const struct detect_result *r, const struct detect_event *e)
{
	return strcmp(e->direction, VERDICT_REGRESSION) == 0 &&
	    (e->from == NULL || strcmp(e->to, ALERT_CONFIRMED) == 0) &&
	    r->v[e->verdict].kind != DETECT_REGRESSION;
}

/* Say why event e of r makes the exit status 1 (check_alert_only). */
static void
check_alert_only_say(FILE *fp, const char *lead,
    const struct detect_result *r, const struct detect_event *e)
{
	const struct detect_verdict	*v = &r->v[e->verdict];

	fprintf(fp, "%s%s %s: %s alone, a regression pooled with the runs "
	    "before it (alert #%lld)\n", lead, cli_show(v->metric.workload),
	    cli_show(v->metric.metric), detect_kind_name(v->kind),
	    (long long)e->alert);
}

/*
 * Whether the check of r found a regression (exit 1): a verdict, or an
 * alert the check opened or confirmed.  By verdicts alone, a check that
 * confirmed a regression alert exited 0, as if nothing were worse.
 */
static int
check_regressed(const struct detect_result *r)
{
	size_t	i;

	if (r->regressions > 0)
		return 1;
	for (i = 0; i < r->nev; i++)
		if (check_alert_only(r, &r->ev[i]))
			return 1;
	return 0;
}

static char	*check_select_text(const struct check_select *);

/*
 * The result of a check as a table (or CSV) on stdout; sel as for
 * check_result_json.
 */
static void
check_result_print(struct cli *c, const struct detect_result *r,
    const struct check_select *sel)
{
	/*
	 * For a program the interval is two fields, its ends in percent,
	 * and the alert two, its number and its state; each column is
	 * named as --json names the verdict's key.  The unit of baseline
	 * and current last, then the alert's state, so that the columns
	 * before them stay where they were.
	 */
	static const char *const hdr[] = { "workload", "metric", "baseline",
	    "current", "change", "95% CI", "q", "verdict", "alert", "unit" };
	static const char *const csv_hdr[] = { "workload", "metric",
	    "baseline_level", "current", "change_pct", "ci_low", "ci_high",
	    "q", "verdict", "alert", "unit", "alert_state" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT };
	const int			 csv = c->out == OUT_CSV;
	const struct detect_verdict	*v;
	const struct detect_event	*e;
	const struct detect_unjudged	*u;
	struct table			*t;
	char				 b1[32], b2[32], b3[48], b4[32], *why;
	size_t				 i, j, most, ninc, nheld, nsep;
	int				 same;

	if (c->out == OUT_TABLE) {
		printf("run %s on %s, baseline %s%s\n", cli_show(r->run.label),
		    cli_show(r->run.host_name), cli_show(r->baseline),
		    r->alerts ? "" :
		    " (alerts not advanced)");
		if ((why = view_busy_why(&r->run)) != NULL)
			printf("measured on a busy machine: %s; its verdicts "
			    "move no alert and no baseline\n", cli_show(why));
		free(why);
		if (sel != NULL && sel->nworkloads + sel->nmetrics > 0) {
			why = check_select_text(sel);
			printf("selected: %s; q and verdicts over these "
			    "metrics alone (the stored verdicts and alerts: "
			    "over the run's %zu)\n", why, sel->run_metrics);
			free(why);
		}
		putchar('\n');
	}
	t = csv ? table_new(nitems(csv_hdr), csv_hdr, NULL) :
	    table_new(nitems(hdr), hdr, al);
	for (i = 0; i < r->nv; i++) {
		v = &r->v[i];
		cli_fmt_figure(b1, sizeof(b1), v->reference, c->out);
		cli_fmt_figure(b2, sizeof(b2), v->current, c->out);
		fmt_p(b4, sizeof(b4), v->q, c->out);
		table_addf(t, 0, "%s", v->metric.workload);
		table_addf(t, 1, "%s", v->metric.metric);
		table_addf(t, 2, "%s", b1);
		table_addf(t, 3, "%s", b2);
		if (csv) {
			/* The numbers --json gives: no sign, no "%". */
			fmt_change(b1, sizeof(b1), v->change_pct, c->out);
			table_addf(t, 4, "%s", b1);
			cli_fmt_figure(b3, sizeof(b3), v->ci_low, c->out);
			table_addf(t, 5, "%s", b3);
			cli_fmt_figure(b3, sizeof(b3), v->ci_high, c->out);
			table_addf(t, 6, "%s", b3);
		} else {
			fmt_change(b1, sizeof(b1), v->change_pct, c->out);
			table_addf(t, 4, "%s", b1);
			fmt_ci(b3, sizeof(b3), v->ci_low, v->ci_high);
			table_addf(t, 5, "%s", b3);
		}
		table_addf(t, 6 + csv, "%s", b4);
		table_addf(t, 7 + csv, "%s", detect_kind_name(v->kind));
		if (csv) {
			/* No alert: "-", --json's null. */
			if (v->alert != 0)
				table_addf(t, 9, "%lld", (long long)v->alert);
			else
				table_addf(t, 9, "-");
			table_addf(t, 11, "%s", v->alert_state != NULL ?
			    v->alert_state : "-");
		} else if (v->alert != 0)
			table_addf(t, 8, "#%lld %s", (long long)v->alert,
			    v->alert_state);
		table_addf(t, 9 + csv, "%s", v->metric.unit);
		table_end_row(t);
	}
	table_print(t, stdout, c->out);
	table_free(t);
	/*
	 * The CSV has no room for them: said on standard error, or a
	 * header alone read as a run with nothing changed.
	 */
	for (i = 0; c->out == OUT_CSV && i < r->nunj; i++) {
		u = &r->unj[i];
		fprintf(stderr, "perfwatch: not judged, its workload did not "
		    "complete: %s ", cli_show(u->workload));
		for (j = 0; j < u->nmetrics; j++)
			fprintf(stderr, "%s%s", j == 0 ? "" : ", ",
			    cli_show(u->metrics[j].metric));
		fprintf(stderr, " (%s%s%s)\n", cli_show(u->status),
		    u->error != NULL ? ": " : "",
		    u->error != NULL ? cli_show(u->error) : "");
	}
	/* Nor for a regression that only an alert found (exit 1). */
	for (i = 0; c->out == OUT_CSV && i < r->nev; i++)
		if (check_alert_only(r, &r->ev[i]))
			check_alert_only_say(stderr, "perfwatch: ", r,
			    &r->ev[i]);
	if (c->out == OUT_TABLE) {
		/* An empty table is not "nothing changed" either. */
		if (sel != NULL && sel->nworkloads + sel->nmetrics > 0 &&
		    r->nv == 0 && r->nunj == 0) {
			why = check_select_text(sel);
			printf("\nthe run measured no metric that %s selects\n",
			    why);
			free(why);
		}
		/*
		 * The metrics that have no row above because their workload
		 * did not complete: said, so that silence is not taken for
		 * "unchanged".
		 */
		for (i = 0; i < r->nunj; i++) {
			u = &r->unj[i];
			printf("%s  %s ", i == 0 ? "\nnot judged, their "
			    "workload did not complete:\n" : "",
			    cli_show(u->workload));
			for (j = 0; j < u->nmetrics; j++)
				printf("%s%s", j == 0 ? "" : ", ",
				    cli_show(u->metrics[j].metric));
			printf(" (%s%s%s)\n", cli_show(u->status),
			    u->error != NULL ? ": " : "",
			    u->error != NULL ? cli_show(u->error) : "");
		}
		/* Why a verdict could not be given: its baseline's runs. */
		for (i = 0, most = 0, ninc = 0, same = 1; i < r->nv; i++) {
			if (r->v[i].kind != DETECT_INCONCLUSIVE)
				continue;
			if (ninc++ > 0 && r->v[i].baseline_runs != most)
				same = 0;
			if (ninc == 1 || r->v[i].baseline_runs > most)
				most = r->v[i].baseline_runs;
		}
		if (ninc > 0)
			printf("\ninconclusive: a verdict needs %d runs with "
			    "the metric in the baseline, which has %s%zu\n",
			    DETECT_MIN_BASE, same ? "" : "at most ", most);
		/*
		 * Why a suspicion is not confirmed however long it lasts: a
		 * young rolling baseline (alert.c, alert_held).
		 */
		for (i = 0, most = 0, nheld = 0, same = 1; i < r->nv; i++) {
			v = &r->v[i];
			if (!check_held(v))
				continue;
			if (nheld++ > 0 && v->noise_runs != most)
				same = 0;
			if (nheld == 1 || v->noise_runs > most)
				most = v->noise_runs;
		}
		if (nheld > 0) {
			printf("\nsuspected, not confirmed:");
			for (i = 0, nsep = 0; i < r->nv; i++) {
				v = &r->v[i];
				if (!check_held(v))
					continue;
				printf("%s#%lld", nsep++ == 0 ? " " : ", ",
				    (long long)v->alert);
			}
			printf("\nconfirming needs %d runs before the shift, "
			    "and there %s %s%zu;\n\"perfwatch alerts ack ID\" "
			    "accepts a new level\n", DETECT_MIN_POOL_BASE,
			    most == 1 && same ? "is" : "are",
			    same ? "" : "at most ", most);
		}
		/* What the noise was measured without (detect.c, note 5). */
		for (i = 0, nsep = 0; i < r->nv; i++) {
			v = &r->v[i];
			if (v->noise_moved == 0 && v->noise_left_out == 0)
				continue;
			printf("%snoise of %s %s: %zu runs", nsep++ == 0 ?
			    "\n" : "", cli_show(v->metric.workload),
			    cli_show(v->metric.metric), v->noise_runs);
			if (v->noise_moved > 0)
				printf("; %zu moved across a step",
				    v->noise_moved);
			if (v->noise_left_out > 0)
				printf("%s %zu wild run%s left out",
				    v->noise_moved > 0 ? "," : ";",
				    v->noise_left_out,
				    v->noise_left_out == 1 ? "" : "s");
			printf("\n");
		}
		for (i = 0; i < r->nev; i++) {
			e = &r->ev[i];
			cli_fmt_pct(b1, sizeof(b1), e->change_pct);
			printf("%salert #%lld %s %s: %s%s%s (%s %s)\n",
			    i == 0 ? "\n" : "", (long long)e->alert,
			    cli_show(r->v[e->verdict].metric.workload),
			    cli_show(r->v[e->verdict].metric.metric),
			    e->from != NULL ? e->from : "new",
			    " -> ", e->to, e->direction, b1);
		}
		/* Why the exit status is 1 where no verdict says regression. */
		for (i = 0, nsep = 0; i < r->nev; i++)
			if (check_alert_only(r, &r->ev[i]))
				check_alert_only_say(stdout, nsep++ == 0 ?
				    "\n" : "", r, &r->ev[i]);
	}
}

/* The runs of one host in a baseline, for the messages below. */
struct bl_host {
	char	*host;
	char	*labels;	/* the first few, then "and N more" */
	size_t	 nruns;
};

/* How many labels a message names on each host before "and N more". */
#define BL_HOST_LABELS	4

/*
 * Group the complete runs of ids[0 .. n) by host, in the order the hosts
 * first appear: those a check judges by (an older baseline may hold an
 * aborted run, which detect_check leaves out).  Returns how many hosts,
 * with *hosts allocated (bl_hosts_free).
 */
static size_t
bl_hosts(struct store *st, const int64_t *ids, size_t n,
    struct bl_host **hosts)
{
	struct store_run	 r;
	struct bl_host		*h = NULL;
	char			*s;
	size_t			 nh = 0, i, j;

	for (i = 0; i < n; i++) {
		if (store_run_get(st, ids[i], &r) == -1)
			continue;
		if (strcmp(r.status, RUN_COMPLETE) != 0) {
			store_run_clear(&r);
			continue;
		}
		for (j = 0; j < nh && strcmp(h[j].host, r.host_name) != 0; j++)
			continue;
		if (j == nh) {
			h = xreallocarray(h, nh + 1, sizeof(*h));
			h[nh].host = xstrdup(r.host_name);
			h[nh].labels = NULL;
			h[nh++].nruns = 0;
		}
		if (h[j].nruns < BL_HOST_LABELS) {
			xasprintf(&s, "%s%s%s", h[j].labels != NULL ?
			    h[j].labels : "", h[j].labels != NULL ? ", " : "",
			    r.label);
			free(h[j].labels);
			h[j].labels = s;
		}
		h[j].nruns++;
		store_run_clear(&r);
	}
	*hosts = h;
	return nh;
}

static void
bl_hosts_free(struct bl_host *h, size_t nh)
{
	size_t	i;

	for (i = 0; i < nh; i++) {
		free(h[i].host);
		free(h[i].labels);
	}
	free(h);
}

/* "boxa (r-01, r-02), boxb (r-03 and 5 more)": who holds which runs. */
static char *
bl_hosts_text(const struct bl_host *h, size_t nh)
{
	char	*s = xstrdup(""), *more, *t;
	size_t	 i;

	for (i = 0; i < nh; i++) {
		more = NULL;
		if (h[i].nruns > BL_HOST_LABELS)
			xasprintf(&more, " and %zu more",
			    h[i].nruns - BL_HOST_LABELS);
		xasprintf(&t, "%s%s%s (%s%s)", s, i > 0 ? ", " : "",
		    cli_show(h[i].host), cli_show(h[i].labels),
		    more != NULL ? more : "");
		free(more);
		free(s);
		s = t;
	}
	return s;
}

/*
 * Refuse a baseline of runs ids[0 .. n) that are of more than one host:
 * its level would be a mean of machines, and a check of either host's
 * run would measure the other machine as much as a regression.  Named
 * is the baseline's name, for a baseline that holds such runs already
 * (set before this was refused), or NULL for the runs of baseline set.
 * Returns 0 for runs of one host (or none), else -1 with the message
 * printed.
 */
static int
bl_one_host(struct store *st, const char *named, const int64_t *ids,
    size_t n)
{
	struct bl_host	*h;
	char		*text;
	size_t		 nh;

	if ((nh = bl_hosts(st, ids, n, &h)) <= 1) {
		bl_hosts_free(h, nh);
		return 0;
	}
	text = bl_hosts_text(h, nh);
	if (named != NULL)
		fprintf(stderr, "perfwatch: baseline %s holds runs of %zu "
		    "hosts: %s; a baseline is of one host's runs: set it "
		    "again with those of one\n", cli_show(named), nh, text);
	else
		fprintf(stderr, "perfwatch: a baseline is of one host's "
		    "runs, and these are of %zu hosts: %s; name a host's "
		    "runs as host:label\n", nh, text);
	free(text);
	bl_hosts_free(h, nh);
	return -1;
}

/*
 * Whether run may be judged against the baseline a check would use (p's
 * --baseline, else the one in use): a pinned baseline judges the runs of
 * its own host only, as the rolling baseline is always the run's host's.
 * An unknown baseline is left to detect_check to name.  Returns 0 when
 * it may, else -1 with the reason printed.
 */
static int
check_baseline_host(struct store *st, const struct detect_params *p,
    const struct store_run *run)
{
	struct store_baseline	 bl;
	struct bl_host		*h;
	char			*name = NULL, *text;
	size_t			 nh;
	int			 rc = 0;

	if (p->baseline != NULL)
		name = xstrdup(p->baseline);
	else if (detect_baseline_in_use(st, p, &name) == -1)
		return 0;
	if (strcmp(name, DETECT_ROLLING) == 0 ||
	    store_baseline_get(st, name, &bl) == -1) {
		free(name);
		return 0;
	}
	if (bl_one_host(st, bl.name, bl.runs, bl.nruns) == -1)
		rc = -1;
	else if ((nh = bl_hosts(st, bl.runs, bl.nruns, &h)) == 1 &&
	    strcmp(h[0].host, run->host_name) != 0) {
		text = bl_hosts_text(h, nh);
		fprintf(stderr, "perfwatch: run %s is of host %s, and "
		    "baseline %s of %s: a baseline judges its own host's "
		    "runs only; check it with --baseline rolling or a "
		    "baseline of %s's runs\n", cli_show(run->label),
		    cli_show(run->host_name), cli_show(bl.name), text,
		    cli_show(run->host_name));
		free(text);
		bl_hosts_free(h, nh);
		rc = -1;
	} else
		bl_hosts_free(h, nh);
	store_baseline_clear(&bl);
	free(name);
	return rc;
}

/*
 * Judge run as `perfwatch check RUN` does, for `perfwatch run`: print the
 * verdicts, or with into, add them to that JSON report as "check" and the
 * open alerts as "alerts".  Returns 1 when a regression was found, 0 when
 * none, EXIT_DATAERR when the run could not be judged.
 */
int
cli_check_run(struct cli *c, int64_t run, json_t *into)
{
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_run	 r;
	char			*cause = NULL;
	json_t			*o, *al;
	int			 k, rc;

	check_params(c, &p);
	if (store_run_get(c->st, run, &r) == 0) {
		k = check_baseline_host(c->st, &p, &r);
		store_run_clear(&r);
		if (k == -1) {
			detect_params_clear(&p);
			return EXIT_DATAERR;
		}
	}
	if (detect_check(c->st, run, &p, &res, &cause) == -1) {
		/* The store named where it failed, as check names it. */
		if (res.failure != STORE_FOUND_NONE)
			log_warnx("judging the run: %s: %s",
			    store_path(c->st), cause);
		else
			log_warnx("judging the run: %s", cause);
		free(cause);
		detect_params_clear(&p);
		return cli_failure_status(res.failure, EXIT_DATAERR);
	}
	if (res.nev > 0)
		cli_notify_daemon(c);
	if (into != NULL) {
		o = check_result_json(&res, NULL);
		al = json_object_get(o, "alerts");
		json_object_set(into, "alerts", al);
		json_object_del(o, "alerts");
		json_object_set_new(into, "check", o);
	} else {
		printf("\n");
		check_result_print(c, &res, NULL);
	}
	rc = check_regressed(&res);
	detect_result_free(&res);
	detect_params_clear(&p);
	return rc;
}

/*
 * A usage error of check (arg the word it does not take, if getopt has not
 * named it): 64, or under --bisect what stops a bisection.
 */
static int
check_usage(int bisect, const char *arg)
{
	int	rc;

	rc = arg != NULL ? cli_bad_arg("check", arg) : cli_usage("check");
	return bisect ? EXIT_BISECT_ABORT : rc;
}

/* Whether globs g[0 .. n) take name: one matches it, or there is none. */
static int
check_globs_take(char *const *g, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (fnmatch(g[i], name, 0) == 0)
			return 1;
	return n == 0;
}

/* Whether s selects workload's metric. */
static int
check_selects(const struct check_select *s, const char *workload,
    const char *metric)
{
	return check_globs_take(s->workloads, s->nworkloads, workload) &&
	    check_globs_take(s->metrics, s->nmetrics, metric);
}

/* The selection as its options: "--workload pipe --metric 'lps'". */
static char *
check_select_text(const struct check_select *s)
{
	char	*t = xstrdup(""), *u;
	size_t	 i;

	for (i = 0; i < s->nworkloads + s->nmetrics; i++) {
		xasprintf(&u, "%s%s--%s %s", t, i > 0 ? " " : "",
		    i < s->nworkloads ? "workload" : "metric",
		    cli_show(i < s->nworkloads ? s->workloads[i] :
		    s->metrics[i - s->nworkloads]));
		free(t);
		t = u;
	}
	return t;
}

/*
 * Add name to the list *names ("a, b") unless it is there; at most a
 * few names, then "...".
 */
static void
check_names_add(char **names, size_t *n, const char *name)
{
	char	*t, *at;
	size_t	 len;

	if (*names != NULL) {
		len = strlen(name);
		for (at = *names; (at = strstr(at, name)) != NULL; at += len)
			if ((at == *names || at[-1] == ' ') &&
			    (at[len] == ',' || at[len] == '\0'))
				return;
	}
	if (++*n > 8) {
		if (*n == 9) {
			xasprintf(&t, "%s, ...", *names);
			free(*names);
			*names = t;
		}
		return;
	}
	xasprintf(&t, "%s%s%s", *names != NULL ? *names : "",
	    *names != NULL ? ", " : "", cli_show(name));
	free(*names);
	*names = t;
}

/*
 * Refuse a selection s that can decide nothing about run, before the
 * check writes a verdict (the store stays as it was): a glob that no
 * metric of the store matches (a name mistyped), globs that match no
 * metric together, or a glob whose metrics' workloads the run did not
 * run at all (a run of another profile: every commit's run would lack
 * them).  A workload the run ran that lacks the metric (it failed, or
 * the metric is renamed at this commit) is not refused: that run
 * cannot tell, as check --bisect says after judging it.  Returns 0, -1
 * after a message for a selection refused, or an exit status for a
 * store that failed.
 */
static int
check_select_valid(struct cli *c, struct store *st,
    const struct check_select *s, const struct store_run *run)
{
	struct store_metric		*ms = NULL;
	struct store_series		*ser = NULL;
	struct store_run_workload	*rw = NULL;
	struct name_hint		 h;
	const char			*glob, *name;
	char				*names, *text, *ran, *hint;
	size_t				 nms = 0, nser = 0, nrw = 0;
	size_t				 nnames, nsel, i, j, k;
	int				 rc = -1, isw, any;

	if (store_metrics_list(st, NULL, NULL, &ms, &nms) == -1 ||
	    store_run_series(st, run->id, &ser, &nser) == -1 ||
	    store_run_workloads(st, run->id, &rw, &nrw) == -1) {
		if ((rc = cli_store_failed(st)) == 0)
			rc = EXIT_SOFTWARE;
		goto out;
	}
	/* Each glob on its own: a name the store has never seen. */
	for (k = 0; k < s->nworkloads + s->nmetrics; k++) {
		isw = k < s->nworkloads;
		glob = isw ? s->workloads[k] : s->metrics[k - s->nworkloads];
		names = NULL;
		nnames = 0;
		name_hint_init(&h, glob);
		for (i = 0; i < nms; i++) {
			name = isw ? ms[i].workload : ms[i].metric;
			if (fnmatch(glob, name, 0) == 0)
				break;
			check_names_add(&names, &nnames, name);
			name_hint_add(&h, name);
		}
		if (i == nms) {
			hint = name_hint_text(&h);
			fprintf(stderr, "perfwatch: --%s %s: no metric in %s "
			    "matches it%s%s%s; %s%s\n", isw ? "workload" :
			    "metric", cli_show(glob), c->db_path, hint ?
			    " (did you mean " : "", hint ? cli_show(hint) :
			    "", hint ? "?)" : "", names == NULL ?
			    "it has none" : isw ? "its workloads are " :
			    "its metrics are ", names != NULL ? names : "");
			free(hint);
			free(names);
			goto out;
		}
		free(names);
	}
	/* Together: each matches, but no metric has both names. */
	for (i = 0, nsel = 0; i < nms; i++)
		nsel += check_selects(s, ms[i].workload, ms[i].metric);
	if (nsel == 0) {
		text = check_select_text(s);
		fprintf(stderr, "perfwatch: %s: no metric in %s matches them "
		    "all\n", text, c->db_path);
		free(text);
		goto out;
	}
	/*
	 * Each glob against the run: of the metrics it selects, one at
	 * least of a workload the run ran (measured, or did not complete).
	 */
	for (k = 0; k < s->nworkloads + s->nmetrics; k++) {
		isw = k < s->nworkloads;
		glob = isw ? s->workloads[k] : s->metrics[k - s->nworkloads];
		names = NULL;
		nnames = 0;
		for (i = 0, any = 0, nsel = 0; i < nms && !any; i++) {
			if (!check_selects(s, ms[i].workload, ms[i].metric) ||
			    fnmatch(glob, isw ? ms[i].workload : ms[i].metric,
			    0) != 0)
				continue;
			nsel++;
			for (j = 0; j < nser && !any; j++)
				any = strcmp(ser[j].metric.workload,
				    ms[i].workload) == 0;
			for (j = 0; j < nrw && !any; j++)
				any = strcmp(rw[j].workload,
				    ms[i].workload) == 0;
			check_names_add(&names, &nnames, ms[i].workload);
		}
		/*
		 * A glob whose metrics the others leave out (pipe of
		 * --workload pipe --workload spawn --metric forks) adds
		 * nothing to the selection, and asks nothing of the run.
		 */
		if (!any && nsel > 0) {
			text = check_select_text(s);
			ran = NULL;
			nnames = 0;
			for (j = 0; j < nrw; j++)
				check_names_add(&ran, &nnames, rw[j].workload);
			for (j = 0; j < nser; j++)
				check_names_add(&ran, &nnames,
				    ser[j].metric.workload);
			fprintf(stderr, "perfwatch: run %s did not run "
			    "workload%s %s, which --%s %s selects%s%s%s; "
			    "it ran %s\n", cli_show(run->label),
			    strchr(names, ',') != NULL ? "s" : "", names,
			    isw ? "workload" : "metric", cli_show(glob),
			    s->nworkloads + s->nmetrics > 1 ? " (of " : "",
			    s->nworkloads + s->nmetrics > 1 ? text : "",
			    s->nworkloads + s->nmetrics > 1 ? ")" : "",
			    ran != NULL ? ran : "none");
			free(ran);
			free(text);
			free(names);
			goto out;
		}
		free(names);
	}
	rc = 0;
out:
	store_metrics_free(ms, nms);
	store_series_free(ser, nser);
	store_run_workloads_free(rw, nrw);
	return rc;
}

/*
 * Keep of r what s selects: its verdicts, the events of their alerts,
 * and the metrics not judged; then give the verdicts kept q of their own
 * and their kinds again, and count them.
 *
 * Why the q of the selection, not of the whole run: Benjamini-Hochberg
 * over the run's metrics guards a check that looks at all of them for
 * whichever moved, where each more metric is one more chance of a false
 * alarm.  A developer who named the metric before looking (a bisection
 * of the pipe throughput that fell) asks one question, and a single
 * question asked in advance has no others to be corrected for: its p is
 * its q.  Judged by the run's q, the metric would be held to a level
 * that depends on how many unrelated workloads the profile happens to
 * measure (among 20 that did not move, p = 0.01 gives q = 0.2 and
 * "unchanged"), so that adding a workload to a profile would change a
 * bisection's answers.  Several metrics named together are one family, adjusted
 * among themselves.  The verdicts stored and the alerts stay those of
 * the whole run, as a check without a selection gives them: they answer
 * the host's question, which is every metric.
 */
static int
check_select_apply(const struct check_select *s,
    const struct detect_params *p, struct detect_result *r)
{
	struct detect_unjudged	*u;
	size_t			*at, i, n, k, m;

	at = xcalloc(r->nv + 1, sizeof(*at));
	for (i = 0, n = 0; i < r->nv; i++) {
		if (!check_selects(s, r->v[i].metric.workload,
		    r->v[i].metric.metric)) {
			store_metric_clear(&r->v[i].metric);
			at[i] = SIZE_MAX;
			continue;
		}
		at[i] = n;
		if (n != i)
			r->v[n] = r->v[i];
		n++;
	}
	r->nv = n;
	for (i = 0, n = 0; i < r->nev; i++) {
		if (at[r->ev[i].verdict] == SIZE_MAX)
			continue;
		r->ev[n] = r->ev[i];
		r->ev[n++].verdict = at[r->ev[i].verdict];
	}
	r->nev = n;
	free(at);
	for (i = 0, n = 0; i < r->nunj; i++) {
		u = &r->unj[i];
		for (k = 0, m = 0; k < u->nmetrics; k++) {
			if (check_selects(s, u->workload,
			    u->metrics[k].metric)) {
				if (m != k) {
					u->metrics[m] = u->metrics[k];
					memset(&u->metrics[k], 0,
					    sizeof(u->metrics[k]));
				}
				m++;
			} else
				store_metric_clear(&u->metrics[k]);
		}
		u->nmetrics = m;
		if (m == 0) {
			free(u->workload);
			free(u->status);
			free(u->error);
			store_metrics_free(u->metrics, k);
			continue;
		}
		if (n != i)
			r->unj[n] = *u;
		n++;
	}
	r->nunj = n;
	return detect_result_readjust(p, r);
}

/*
 * Whether word w asks for --bisect as getopt_long() reads it: the word
 * or an abbreviation of it that no other option of check shares ("--bi"
 * on: "--b" is --baseline's too).  main() asks it too, of the words it
 * refuses before check runs.
 */
int
check_bisect_word(const char *w)
{
	/* "--bis=1" too: getopt_long() takes it for --bisect, and refuses. */
	size_t	n = strcspn(w, "=");

	return n >= 4 && n <= 8 && strncmp(w, "--bisect", n) == 0;
}

/*
 * perfwatch check [RUN|--latest] [--json] [--baseline NAME] [--bisect]
 *     [--workload GLOB]... [--metric GLOB]...
 */
static int
check_command(struct cli *c, int argc, char **argv, struct check_select *sel)
{
	static const struct option opts[] = {
		{ "latest", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "bisect", no_argument, NULL, 'B' },
		{ "workload", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_run	 run;
	struct store		*st;
	const char		*what = NULL;
	char			*cause = NULL;
	json_t			*o;
	size_t			 most;
	int			 ch, k, latest = 0, bisect = 0, rc, err;

	/*
	 * Under git bisect run a usage error must stop the bisection, not
	 * mark the commit bad (64 would), so --bisect is looked for before
	 * an unknown option can end the parse.
	 */
	for (k = 1; k < argc && strcmp(argv[k], "--") != 0; k++)
		if (check_bisect_word(argv[k]))
			bisect = 1;
	/* Nor may running out of memory: 70 would say "bad" too. */
	if (bisect)
		log_set_fatal_status(EXIT_BISECT_ABORT);
	check_params(c, &p);
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			latest = 1;
			break;
		case 'w':
		case 'm':
			if (cli_blank_opt(ch == 'w' ? "--workload" :
			    "--metric", optarg)) {
				detect_params_clear(&p);
				return check_usage(bisect, NULL);
			}
			if (ch == 'w')
				sel->workloads[sel->nworkloads++] = optarg;
			else
				sel->metrics[sel->nmetrics++] = optarg;
			break;
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'C':
			c->out = OUT_CSV;
			break;
		case 'b':
			if (cli_blank_opt("--baseline", optarg)) {
				detect_params_clear(&p);
				return check_usage(bisect, NULL);
			}
			free(p.baseline);
			p.baseline = xstrdup(optarg);
			break;
		case 'B':
			bisect = 1;
			break;
		default:
			detect_params_clear(&p);
			return check_usage(bisect, NULL);
		}
	}
	if (argc - optind > 1) {
		detect_params_clear(&p);
		return check_usage(bisect, argv[optind + 1]);
	}
	if (latest && argc - optind == 1) {
		detect_params_clear(&p);
		cli_usage_why(NULL, "a RUN or --latest, not both");
		return check_usage(bisect, NULL);
	}
	if (argc - optind == 1)
		what = argv[optind];
	err = bisect ? EXIT_BISECT_ABORT : EXIT_DATAERR;
	c->writes = 1;		/* the verdicts, the alerts */
	if ((st = cli_store(c)) == NULL) {
		detect_params_clear(&p);
		return bisect ? EXIT_BISECT_ABORT : cli_store_none(c);
	}
	memset(&run, 0, sizeof(run));
	/*
	 * Under git bisect run the newest run is the commit's own: one that
	 * did not complete (failed, aborted, or left running by a run that
	 * was killed) cannot be told (125), and an older complete run,
	 * another commit's, must not be judged in its place.
	 */
	if (bisect && what == NULL &&
	    (k = cli_run_latest(c, NULL, &run)) != 0 &&
	    k != CLI_LATEST_EMPTY) {
		detect_params_clear(&p);
		return EXIT_BISECT_ABORT;
	}
	if (bisect && what == NULL && k == 0) {
		if (strcmp(run.status, RUN_COMPLETE) != 0) {
			fprintf(stderr, "perfwatch: the newest run, %s, is %s: "
			    "cannot tell\n", cli_show(run.label), run.status);
			store_run_clear(&run);
			detect_params_clear(&p);
			return EXIT_BISECT_SKIP;
		}
		store_run_clear(&run);
	}
	if (what != NULL) {
		if (store_run_resolve(st, what, &run, &cause) == -1) {
			fprintf(stderr, "perfwatch: %s\n", cause);
			free(cause);
			detect_params_clear(&p);
			/*
			 * Busy: to be tried again; failed: not a bad run.
			 * Under bisect, either stops it (err).
			 */
			return bisect ? err : cli_store_status(st, err);
		}
		/*
		 * A run named that did not complete measured the commit in
		 * part, if at all: it cannot tell, as the newest run cannot
		 * above, where it was judged and called good.
		 */
		if (bisect && strcmp(run.status, RUN_COMPLETE) != 0) {
			fprintf(stderr, "perfwatch: run %s is %s: cannot "
			    "tell\n", cli_show(run.label), run.status);
			store_run_clear(&run);
			detect_params_clear(&p);
			return EXIT_BISECT_SKIP;
		}
	} else if ((k = cli_run_latest(c, RUN_COMPLETE, &run)) != 0) {
		detect_params_clear(&p);
		/*
		 * A commit whose run failed cannot be told (125); a store
		 * with no run at all is the wrong store, or none: stop.
		 */
		if (k == CLI_LATEST_EMPTY) {
			fprintf(stderr, "perfwatch: no run at all in %s\n",
			    c->db_path);
			return err;
		}
		if (k == CLI_LATEST_NONE) {
			fprintf(stderr, "perfwatch: no complete run of this "
			    "host in %s\n", c->db_path);
			return bisect ? EXIT_BISECT_SKIP : EXIT_DATAERR;
		}
		return bisect ? EXIT_BISECT_ABORT : k;
	}
	if (check_baseline_host(st, &p, &run) == -1) {
		store_run_clear(&run);
		detect_params_clear(&p);
		return err;
	}
	/*
	 * A selection that can decide nothing is refused before a verdict
	 * is written; under bisect it stops the bisection, as a name
	 * mistyped would be mistyped at every commit.
	 */
	if (sel->nworkloads + sel->nmetrics > 0 &&
	    (k = check_select_valid(c, st, sel, &run)) != 0) {
		store_run_clear(&run);
		detect_params_clear(&p);
		return bisect || k == -1 ? err : k;
	}
	if (detect_check(st, run.id, &p, &res, &cause) == -1) {
		/*
		 * Busy: to be tried again; the store failed: 70 (74 on a
		 * full disk), not the 65 of a run that cannot be judged
		 * (under bisect: stop).
		 */
		k = check_failed(st, res.failure, cause, err, bisect);
		free(cause);
		store_run_clear(&run);
		detect_params_clear(&p);
		return bisect ? err : k;
	}
	store_run_clear(&run);
	if (res.nev > 0)
		cli_notify_daemon(c);
	sel->run_metrics = res.nv;
	if (sel->nworkloads + sel->nmetrics > 0 &&
	    check_select_apply(sel, &p, &res) == -1) {
		detect_result_free(&res);
		detect_params_clear(&p);
		return bisect ? EXIT_BISECT_ABORT : EXIT_SOFTWARE;
	}

	if (c->out == OUT_JSON) {
		o = check_result_json(&res, sel);
		cli_json_print(o);
		json_decref(o);
	} else
		check_result_print(c, &res, sel);

	if (bisect) {
		if (res.run.busy) {
			/* Its figures are the machine's and its load's. */
			fprintf(stderr, "perfwatch: run %s was measured on a "
			    "busy machine: cannot tell\n",
			    cli_show(res.run.label));
			rc = EXIT_BISECT_SKIP;
		} else if (res.regressions > 0)
			rc = 1;
		else if (res.nunj > 0) {
			/*
			 * The commit's run did not measure a workload that
			 * was measured before (it failed or timed out at
			 * this commit): the metric bisected may be one of
			 * its, and "good" would say it did not get worse.
			 */
			fprintf(stderr, "perfwatch: run %s: workload %s did "
			    "not complete (%s): cannot tell\n",
			    cli_show(res.run.label),
			    cli_show(res.unj[0].workload),
			    cli_show(res.unj[0].status));
			rc = EXIT_BISECT_SKIP;
		} else if (res.nv > 0 && res.inconclusive == res.nv &&
		    (most = check_base_most(&res)) > 0) {
			/*
			 * The baseline measured the run's metrics, too few
			 * times for a verdict: so it will at every commit,
			 * and 125 made git bisect run build and measure
			 * each, skip each, and end with nothing found.
			 */
			fprintf(stderr, "perfwatch: baseline %s has %zu "
			    "run%s with the metric%s, a verdict needs %d: "
			    "every commit would be skipped; stopping\n",
			    cli_show(res.baseline), most, most == 1 ? "" :
			    "s", res.nv == 1 ? "" : "s", DETECT_MIN_BASE);
			rc = EXIT_BISECT_ABORT;
		} else if (res.nv > 0 && res.inconclusive == res.nv &&
		    res.base_total == 0) {
			/*
			 * No run at all: a rolling baseline whose runs are
			 * all a bisection's (as measure.sh records them), a
			 * pinned one emptied.  It stays so at every commit.
			 */
			fprintf(stderr, "perfwatch: baseline %s has no runs: "
			    "every commit would be skipped; stopping\n",
			    cli_show(res.baseline));
			rc = EXIT_BISECT_ABORT;
		} else if (res.nv == 0 || res.inconclusive == res.nv) {
			if (res.nv > 0)
				fprintf(stderr, "perfwatch: run %s: baseline "
				    "%s has no run with its metrics: cannot "
				    "tell\n", cli_show(res.run.label),
				    cli_show(res.baseline));
			else if (sel->nworkloads + sel->nmetrics > 0) {
				/*
				 * Its workloads ran (check_select_valid)
				 * and measured none of the metrics: one
				 * renamed at this commit, say.
				 */
				cause = check_select_text(sel);
				fprintf(stderr, "perfwatch: run %s measured "
				    "no metric that %s selects: cannot "
				    "tell\n", cli_show(res.run.label), cause);
				free(cause);
			}
			rc = EXIT_BISECT_SKIP;
		} else
			rc = 0;
	} else
		rc = check_regressed(&res);
	detect_result_free(&res);
	detect_params_clear(&p);
	return rc;
}

/* perfwatch check: check_command with room for the selection's globs. */
int
cmd_check(struct cli *c, int argc, char **argv)
{
	struct check_select	sel;
	int			rc;

	memset(&sel, 0, sizeof(sel));
	sel.workloads = xcalloc((size_t)argc + 1, sizeof(*sel.workloads));
	sel.metrics = xcalloc((size_t)argc + 1, sizeof(*sel.metrics));
	rc = check_command(c, argc, argv, &sel);
	free(sel.workloads);
	free(sel.metrics);
	return rc;
}

/* Whether s has glob characters. */
static int
is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Add run id to g unless it is there already: a run counts once. */
static void
group_put(struct detect_group *g, int64_t id)
{
	size_t	i;

	for (i = 0; i < g->nruns; i++)
		if (g->runs[i] == id)
			return;
	g->runs = xreallocarray(g->runs, g->nruns + 1, sizeof(*g->runs));
	g->runs[g->nruns++] = id;
}

/*
 * Add the runs that pattern names to g: one run as store_run_resolve
 * reads it, else a glob over labels (or host:label).  With
 * complete_only (a pinned baseline), a run named alone must be complete,
 * and one measured on a busy machine is taken with a warning; a glob
 * passes over the runs that did not complete, counted in skipped[0],
 * and over those measured on a busy machine, in skipped[1], as the
 * rolling baseline does.
 */
static int
group_add(struct store *st, const struct store_run *all, size_t nall,
    const char *pattern, int complete_only, size_t skipped[2],
    struct detect_group *g)
{
	struct store_run	 r;
	char			*cause = NULL, *qual, *why;
	size_t			 i, matched = 0;
	int			 hosted;

	/*
	 * A word that names a run is that run, glob characters or not: the
	 * label "r[1]" was read as a glob, which matched the run "r1".
	 */
	if (store_run_resolve(st, pattern, &r, &cause) == -1) {
		/* A store that failed is no glob to try instead. */
		if (!is_glob(pattern) ||
		    store_failure(st) != STORE_FOUND_NONE) {
			fprintf(stderr, "perfwatch: %s\n", cause);
			free(cause);
			return -1;
		}
		free(cause);
	} else {
		if (complete_only && strcmp(r.status, RUN_COMPLETE) != 0) {
			fprintf(stderr, "perfwatch: run %s is %s: a baseline "
			    "takes complete runs only\n", pattern, r.status);
			store_run_clear(&r);
			return -1;
		}
		if (complete_only && (why = view_busy_why(&r)) != NULL) {
			fprintf(stderr, "perfwatch: run %s was measured on a "
			    "busy machine (%s); taken, as it is named\n",
			    pattern, why);
			free(why);
		}
		group_put(g, r.id);
		store_run_clear(&r);
		return 0;
	}
	/*
	 * host:label only for a glob with a colon: "*" matches one too, and
	 * "v6*" took every run of the host v6-builder, the regressed runs
	 * of a pinned baseline among them.
	 */
	hosted = strchr(pattern, ':') != NULL;
	for (i = 0; i < nall; i++) {
		xasprintf(&qual, "%s:%s", all[i].host_name, all[i].label);
		if (fnmatch(pattern, all[i].label, 0) == 0 ||
		    (hosted && fnmatch(pattern, qual, 0) == 0)) {
			if (complete_only &&
			    strcmp(all[i].status, RUN_COMPLETE) != 0)
				skipped[0]++;
			else if (complete_only && all[i].busy)
				skipped[1]++;
			else {
				group_put(g, all[i].id);
				matched++;
			}
		}
		free(qual);
	}
	if (matched == 0) {
		fprintf(stderr, "perfwatch: no %srun matches \"%s\"\n",
		    complete_only ? "complete, quiet " : "", pattern);
		return -1;
	}
	return 0;
}

/*
 * Parse one comparison argument into g: NAME=PAT,PAT,... or one PAT (a
 * label, host:label, #id or a glob).
 */
static int
group_parse(struct store *st, const struct store_run *all, size_t nall,
    const char *arg, int named_run, struct detect_group *g)
{
	const char	*eq;
	char		*list, *tok, *save = NULL;
	int		 rc = 0;

	memset(g, 0, sizeof(*g));
	if (!named_run && (eq = strchr(arg, '=')) != NULL && eq != arg) {
		g->name = xstrndup(arg, (size_t)(eq - arg));
		list = xstrdup(eq + 1);
		for (tok = strtok_r(list, ",", &save); tok != NULL && rc == 0;
		    tok = strtok_r(NULL, ",", &save))
			rc = group_add(st, all, nall, tok, 0, NULL, g);
		free(list);
		if (rc == 0 && g->nruns == 0) {
			fprintf(stderr, "perfwatch: group %s has no run\n",
			    g->name);
			rc = -1;
		}
		return rc;
	}
	g->name = xstrdup(arg);
	return group_add(st, all, nall, arg, 0, NULL, g);
}

/*
 * Whether comparison word w is a run's label as written (LABEL or
 * HOST:LABEL) among all[0 .. nall): "opt=1" is then that run, as the
 * manual says a word that names a run is, not the group "opt" of run 1.
 */
static int
compare_names_run(const struct store_run *all, size_t nall, const char *w)
{
	size_t	i, n;

	if (strchr(w, '=') == NULL)
		return 1;
	for (i = 0; i < nall; i++) {
		n = strlen(all[i].host_name);
		if (strcmp(all[i].label, w) == 0 ||
		    (strncmp(w, all[i].host_name, n) == 0 && w[n] == ':' &&
		    strcmp(w + n + 1, all[i].label) == 0))
			return 1;
	}
	return 0;
}

/*
 * The length of the column name of comparison word w: NAME of
 * NAME=RUN,..., else (or when it names a run) the whole word, as
 * group_parse() takes it.
 */
static size_t
compare_name_len(const char *w, int named_run)
{
	const char	*eq;

	if (!named_run && (eq = strchr(w, '=')) != NULL && eq != w)
		return (size_t)(eq - w);
	return strlen(w);
}

/*
 * An index value for a table: a whole number ("1009"), or one too large
 * or too small for that with an exponent, where %.0f printed the 200
 * digits of 1e+200 (and "inf" past a double's range: "-"); for a program
 * (CSV) every digit, as --json gives it.
 */
static void
fmt_index(char *buf, size_t len, double v, enum cli_output out)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (out == OUT_CSV)
		store_format_double(buf, len, v);
	else if (v >= 1e15 || (v > 0 && v < 0.5))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/*
 * Whether word k of words[1 .. k] names a column as an earlier word, or
 * the table's own first columns, do: its header and a CSV field's name
 * would then say two things.
 */
static int
compare_name_taken(char **words, const int *isrun, size_t k)
{
	static const char *const fixed[] = { "workload", "metric", "unit" };
	size_t	 len, i;

	len = compare_name_len(words[k], isrun[k]);
	for (i = 0; i < nitems(fixed); i++)
		if (strlen(fixed[i]) == len &&
		    strncmp(fixed[i], words[k], len) == 0)
			return 1;
	for (i = 1; i < k; i++)
		if (compare_name_len(words[i], isrun[i]) == len &&
		    strncmp(words[i], words[k], len) == 0)
			return 1;
	return 0;
}

/*
 * The columns of comparison cell col for a table: the level, then for
 * every column after the first the change against the first and the
 * verdict.  For a person the verdict is a mark ("worse", "better", with
 * "~" when only the samples were tested, "?" when too few were there for
 * a test to tell, else empty);
 * for a program it is the q, the verdict's name and the test's.
 */
/*
 * The name of the test a cell of a group after the first was judged by,
 * and its verdict's, for --csv and --json; NULL for a metric the group
 * lacks, which is not judged (the table's blank mark).
 */
static const char *
compare_test_name(const struct detect_cell *cell)
{
	if (!cell->judged)
		return NULL;
	return cell->test == DETECT_TEST_RUNS ? "runs" :
	    cell->test == DETECT_TEST_SAMPLES ? "samples" : "none";
}

static const char *
compare_verdict_name(const struct detect_cell *cell)
{
	return !cell->judged ? NULL : detect_kind_name(cell->kind);
}

static void
compare_cell_columns(struct table *t, size_t first,
    const struct detect_cell *cell, size_t col, enum cli_output out)
{
	char		 v[32], pc[32];
	const char	*mark = "";

	cli_fmt_figure(v, sizeof(v), cell->runs > 0 ? cell->level : NAN, out);
	table_addf(t, first, "%s", v);
	if (col == 0)
		return;
	if (!cell->judged) {
		/* Not judged: no run of either column, or of the first. */
		table_addf(t, first + 1, "-");
		return;
	}
	fmt_change(pc, sizeof(pc), cell->change_pct, out);
	table_addf(t, first + 1, "%s", pc);
	if (out == OUT_CSV) {
		fmt_p(v, sizeof(v), cell->q, out);
		table_addf(t, first + 2, "%s", v);
		table_addf(t, first + 3, "%s", compare_verdict_name(cell));
		table_addf(t, first + 4, "%s", compare_test_name(cell));
		return;
	}
	if (cell->kind == DETECT_REGRESSION)
		mark = cell->test == DETECT_TEST_RUNS ? "worse" : "worse~";
	else if (cell->kind == DETECT_IMPROVEMENT)
		mark = cell->test == DETECT_TEST_RUNS ? "better" : "better~";
	else if (cell->kind == DETECT_INCONCLUSIVE)
		mark = "?";
	table_addf(t, first + 2, "%s", mark);
}

/*
 * The first table column of group i: after workload and metric, the first
 * group's level, then per columns for each other group.
 */
static size_t
compare_column(size_t i, size_t per)
{
	return (i == 0 ? 2 : 3 + (i - 1) * per);
}

/*
 * A run as runs --json names it (label, host, time), for the lists of
 * runs in compare's and baseline show's JSON: a label alone is ambiguous
 * in a store of several hosts.
 */
static json_t *
run_ref_json(const struct store_run *r)
{
	char	tbuf[32];

	fmt_time(tbuf, sizeof(tbuf), r->started);
	return pwjson_set_str(pwjson_set_str(pwjson_set_str(pwjson_object(),
	    "run", r->label), "host", r->host_name), "time", tbuf);
}

/* perfwatch compare RUN|GROUP RUN|GROUP [...] */
int
cmd_compare(struct cli *c, int argc, char **argv)
{
	struct detect_params	 p;
	struct detect_comparison cmp;
	struct detect_group	*g = NULL;
	struct detect_cell	*cell;
	struct store_run	*all = NULL;
	struct store_run_filter	 f;
	struct store		*st;
	struct table		*t = NULL;
	const char		**hdr = NULL;
	enum table_align	*al = NULL;
	char			*cause = NULL, **names = NULL, lbl[64];
	json_t			*o, *arr, *mo, *cells, *co, *runs;
	size_t			 ng = 0, nwords = 0, nall = 0, i, j, mi, per, col;
	size_t			 ncols = 0;
	int			 k, opt, rc = 0, ended = 0, ref, *isrun = NULL;

	/* The words move to argv[1 .. nwords], in their order. */
	for (k = 1; k < argc; k++) {
		if ((opt = cli_option_word(argv[k], &ended)) == -1)
			continue;
		if (opt && cli_output_option(c, argv[k]))
			continue;
		if (opt)
			return cli_bad_arg("compare", argv[k]);
		argv[++nwords] = argv[k];
	}
	if (nwords < 2)
		return cli_usage_why("compare", "two runs or groups are needed, "
		    "%zu given", nwords);
	/*
	 * Two columns of one name are a usage error, said before the store
	 * is opened (or found missing), unless a word with "=" that names a
	 * run, which only the store can tell, keeps them apart.
	 */
	isrun = xcalloc(nwords + 1, sizeof(*isrun));
	for (k = 1; (size_t)k <= nwords; k++)
		if (compare_name_taken(argv, isrun, (size_t)k))
			break;
	if ((size_t)k <= nwords && !cli_store_exists(c)) {
		rc = cli_usage_why("compare", "two columns named '%.*s'",
		    (int)compare_name_len(argv[k], 0), argv[k]);
		free(isrun);
		return rc;
	}
	if ((st = cli_store(c)) == NULL) {
		free(isrun);
		return cli_store_none(c);
	}
	memset(&f, 0, sizeof(f));
	if (store_runs_list(st, &f, &all, &nall) == -1) {
		free(isrun);
		return (k = cli_store_failed(st)) != 0 ? k : EXIT_SOFTWARE;
	}
	for (k = 1; (size_t)k <= nwords; k++)
		isrun[k] = compare_names_run(all, nall, argv[k]);
	for (k = 1; (size_t)k <= nwords; k++)
		if (compare_name_taken(argv, isrun, (size_t)k)) {
			rc = cli_usage_why("compare", "two columns named "
			    "'%.*s'", (int)compare_name_len(argv[k],
			    isrun[k]), argv[k]);
			store_runs_free(all, nall);
			free(isrun);
			return rc;
		}
	g = xcalloc(nwords, sizeof(*g));
	for (k = 1; (size_t)k <= nwords; k++) {
		if (group_parse(st, all, nall, argv[k], isrun[k],
		    &g[ng]) == -1) {
			ng++;
			/* A run whose lookup failed is no run not there. */
			rc = cli_store_status(st, EXIT_DATAERR);
			goto out;
		}
		ng++;
	}
	check_params(c, &p);
	if (detect_compare(st, g, ng, &p, &cmp, &cause) == -1) {
		/* A run's samples that cannot be read are no bad data. */
		rc = check_failed(st, cmp.failure, cause, EXIT_DATAERR, 0);
		free(cause);
		detect_params_clear(&p);
		goto out;
	}

	if (c->out == OUT_JSON) {
		o = pwjson_object();
		arr = pwjson_array();
		for (i = 0; i < ng; i++) {
			mo = pwjson_object();
			pwjson_set_str(mo, "name", g[i].name);
			runs = pwjson_array();
			for (j = 0; j < g[i].nruns; j++)
				for (mi = 0; mi < nall; mi++)
					if (all[mi].id == g[i].runs[j])
						pwjson_append(runs,
						    run_ref_json(&all[mi]));
			pwjson_set(mo, "runs", runs);
			pwjson_append(arr, mo);
		}
		pwjson_set(o, "groups", arr);
		arr = pwjson_array();
		for (mi = 0; mi < cmp.nmetrics; mi++) {
			mo = pwjson_object();
			pwjson_set_str(mo, "workload", cmp.metrics[mi].workload);
			pwjson_set_str(mo, "metric", cmp.metrics[mi].metric);
			pwjson_set_str(mo, "unit", cmp.metrics[mi].unit);
			pwjson_set_str(mo, "better",
			    better_name(cmp.metrics[mi].better));
			cells = pwjson_array();
			for (i = 0; i < ng; i++) {
				cell = &cmp.cells[mi * ng + i];
				co = pwjson_object();
				pwjson_set_int(co, "runs", (int64_t)cell->runs);
				pwjson_set_int(co, "samples",
				    (int64_t)cell->samples);
				pwjson_set_num(co, "level", cell->runs > 0 ?
				    cell->level : NAN);
				/*
				 * The first column is what the others are
				 * judged against: its change and test are
				 * null, the keys there as in the others'.
				 */
				ref = i == 0;
				pwjson_set_num(co, "change_pct", ref ? NAN :
				    cell->change_pct);
				pwjson_set_num(co, "shift_pct", ref ? NAN :
				    cell->shift_pct);
				pwjson_set_num(co, "ci_low", ref ? NAN :
				    cell->ci_low);
				pwjson_set_num(co, "ci_high", ref ? NAN :
				    cell->ci_high);
				pwjson_set_num(co, "p", ref ? NAN : cell->p);
				pwjson_set_num(co, "q", ref ? NAN : cell->q);
				pwjson_set_str(co, "test", ref ? NULL :
				    compare_test_name(cell));
				pwjson_set_str(co, "verdict", ref ? NULL :
				    compare_verdict_name(cell));
				pwjson_append(cells, co);
			}
			pwjson_set(mo, "cells", cells);
			pwjson_append(arr, mo);
		}
		pwjson_set(o, "metrics", arr);
		arr = pwjson_array();
		for (j = 0; j < cmp.nindex; j++) {
			mo = pwjson_object();
			pwjson_set_str(mo, "workload", cmp.index[j].workload);
			/* A count: "metrics" is a list in every --json. */
			pwjson_set_int(mo, "metric_count",
			    (int64_t)cmp.index[j].metrics);
			cells = pwjson_array();
			for (i = 0; i < ng; i++)
				pwjson_append(cells,
				    pwjson_num(cmp.index[j].value[i]));
			pwjson_set(mo, "values", cells);
			pwjson_append(arr, mo);
		}
		pwjson_set(o, "index", arr);
		cli_json_print(o);
		json_decref(o);
	} else {
		/*
		 * The first group's level, then each other group's level,
		 * change and verdict (a mark for a person; the q, the
		 * verdict's and the test's names for a program, each column
		 * named after its group and the key of --json's cell, as
		 * "GROUP change_pct"), and last the metric's unit, which
		 * every level is in.
		 */
		per = c->out == OUT_CSV ? 5 : 3;
		ncols = 3 + (ng - 1) * per + 1;
		hdr = xcalloc(ncols, sizeof(*hdr));
		al = xcalloc(ncols, sizeof(*al));
		names = xcalloc(ncols, sizeof(*names));
		hdr[0] = "workload";
		hdr[1] = "metric";
		hdr[ncols - 1] = "unit";
		for (i = 0; i < ng; i++) {
			col = compare_column(i, per);
			hdr[col] = g[i].name;
			al[col] = ALIGN_RIGHT;
			if (i == 0)
				continue;
			al[col + 1] = ALIGN_RIGHT;
			if (per == 3) {
				hdr[col + 1] = "change";
				hdr[col + 2] = "";
				continue;
			}
			/* As --json names a cell's keys. */
			xasprintf(&names[col + 1], "%s change_pct", g[i].name);
			xasprintf(&names[col + 2], "%s q", g[i].name);
			xasprintf(&names[col + 3], "%s verdict", g[i].name);
			xasprintf(&names[col + 4], "%s test", g[i].name);
			for (k = 1; k <= 4; k++)
				hdr[col + (size_t)k] = names[col + (size_t)k];
		}
		t = table_new(ncols, hdr, al);
		for (mi = 0; mi < cmp.nmetrics; mi++) {
			table_addf(t, 0, "%s", cmp.metrics[mi].workload);
			table_addf(t, 1, "%s", cmp.metrics[mi].metric);
			for (i = 0; i < ng; i++)
				compare_cell_columns(t, compare_column(i, per),
				    &cmp.cells[mi * ng + i], i, c->out);
			table_addf(t, ncols - 1, "%s", cmp.metrics[mi].unit);
			table_end_row(t);
		}
		for (j = 0; j < cmp.nindex; j++) {
			snprintf(lbl, sizeof(lbl), "index (%zu metric%s)",
			    cmp.index[j].metrics,
			    cmp.index[j].metrics == 1 ? "" : "s");
			table_addf(t, 0, "%s", cmp.index[j].workload != NULL ?
			    cmp.index[j].workload : "all");
			table_addf(t, 1, "%s", lbl);
			for (i = 0; i < ng; i++) {
				fmt_index(lbl, sizeof(lbl),
				    cmp.index[j].value[i], c->out);
				table_addf(t, compare_column(i, per), "%s",
				    lbl);
			}
			table_end_row(t);
		}
		table_print(t, stdout, c->out);
		if (c->out == OUT_TABLE) {
			printf("\nlevel: median of the run medians; change: "
			    "against %s; worse/better: Mann-Whitney over\nrun "
			    "medians, q <= %g and the Hodges-Lehmann interval "
			    "beyond %g%% (worse~/better~: too few\nruns for "
			    "that, judged over their samples only; ?: too few "
			    "runs and samples for a\ntest to tell, among as "
			    "many metrics)", g[0].name,
			    p.fdr, p.min_change);
			/* No index row (no metric above 0 in every group). */
			if (cmp.nindex > 0)
				printf("; index: geometric mean of the level "
				    "ratios, better is higher, %s = 1000",
				    g[0].name);
			printf("\n");
		}
	}
	detect_comparison_free(&cmp);
	detect_params_clear(&p);
out:
	table_free(t);
	free(hdr);
	free(al);
	for (i = 0; names != NULL && i < ncols; i++)
		free(names[i]);
	free(names);
	for (i = 0; i < ng; i++) {
		free(g[i].name);
		free(g[i].runs);
	}
	free(g);
	free(isrun);
	store_runs_free(all, nall);
	return rc;
}

/* Parse a number option for changes. */
static int
parse_number(const char *opt, const char *s, double lo, double hi,
    double *out)
{
	if (cli_parse_real(s, lo, hi, out) == -1) {
		fprintf(stderr, "perfwatch: %s: \"%s\" is not a number from %g "
		    "to %g\n", opt, s, lo, hi);
		return -1;
	}
	return 0;
}

/*
 * The smallest p a step may have with windows of w runs a side: the rank
 * test's best, times the splits a segment of the two windows alone holds
 * (the scan's Bonferroni factor, which a longer history only raises).
 */
static double
changes_best_p(const struct cp_params *cpp, size_t w)
{
	size_t	m = 2 * w > 2 * cpp->min_seg ? 2 * w - 2 * cpp->min_seg + 1 : 1;

	return stats_mwu_min_p(w, w) * (double)m;
}

/* perfwatch changes [--workload W] [--metric M] [--host H] [...] */
int
cmd_changes(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, 'm' },
		{ "host", required_argument, NULL, 'H' },
		{ "min-change", required_argument, NULL, 'c' },
		{ "window", required_argument, NULL, 'n' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	/* The unit last, so that the columns before it stay where they were. */
	static const char *const hdr[] = { "host", "workload", "metric",
	    "run", "kind", "before", "after", "change", "p", "runs", "unit" };
	/*
	 * For a program each column is named as --json names it, and has
	 * what --json has: after the unit, so that the columns before it
	 * stay where they were, where the change ends (the last run of a
	 * spike, or of the new level before the next change) and where it
	 * begins in the history.
	 */
	static const char *const csv_hdr[] = { "host", "workload", "metric",
	    "run", "kind", "before", "after", "change_pct", "p", "runs",
	    "unit", "last_run", "index" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT };
	struct cp_params	 cpp;
	struct detect_change	*ch = NULL;
	struct store_metric	*ms = NULL;
	struct store		*st;
	struct table		*t;
	const char		*workload = NULL, *metric = NULL, *host = NULL;
	char			*cause = NULL, b1[32], b2[32], b3[32], b4[32];
	json_t			*arr;
	long long		 v;
	size_t			 n = 0, i, nms = 0;
	int			 opt;

	cp_params_default(&cpp);
	cli_getopt_reset();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
		case 'm':
		case 'H':
			if (cli_blank_opt(opt == 'w' ? "--workload" : opt ==
			    'm' ? "--metric" : "--host", optarg))
				return cli_usage("changes");
			if (opt == 'w')
				workload = optarg;
			else if (opt == 'm')
				metric = optarg;
			else
				host = optarg;
			break;
		case 'c':
			if (parse_number("--min-change", optarg, 0, 100,
			    &cpp.min_change) == -1)
				return cli_usage("changes");
			break;
		case 'n':
			/* Runs: a whole number, where 10.7 was taken as 10. */
			if (cli_parse_count(optarg, 3, 1000, &v) == -1) {
				fprintf(stderr, "perfwatch: --window: \"%s\" is "
				    "not a whole number from 3 to 1000\n",
				    optarg);
				return cli_usage("changes");
			}
			cpp.window = (size_t)v;
			break;
		case 'a':
			if (parse_number("--alpha", optarg, 1e-9, 0.5,
			    &cpp.alpha) == -1)
				return cli_usage("changes");
			break;
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'C':
			c->out = OUT_CSV;
			break;
		default:
			return cli_usage("changes");
		}
	}
	if (optind != argc)
		return cli_bad_arg("changes", argv[optind]);
	/*
	 * Two windows too short for their rank test to reach alpha even
	 * once (three runs a side: p 0.1 at best) could never report a
	 * step, and "no changes" would say what nobody looked for.  The
	 * scan multiplies a split's p by the splits of its segment, at
	 * fewest those of a segment of the two windows alone: five runs a
	 * side, p 0.0079 at best, is 0.04 so, and never passed 0.01.
	 */
	if (changes_best_p(&cpp, cpp.window) >= cpp.alpha) {
		for (i = cpp.window; changes_best_p(&cpp, i) >= cpp.alpha; i++)
			continue;
		fprintf(stderr, "perfwatch: --window: %zu runs a side cannot "
		    "reach --alpha %g (p %.2g at best, over the splits of "
		    "two windows alone); %zu or more can, and more on a "
		    "long history\n", cpp.window, cpp.alpha,
		    changes_best_p(&cpp, cpp.window), i);
		return cli_usage("changes");
	}
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if ((host != NULL || workload != NULL || metric != NULL) &&
	    (opt = cli_metrics_match(st, host, workload, metric, &ms,
	    &nms)) != 0)
		return opt;
	store_metrics_free(ms, nms);
	if (detect_changes(st, host, workload, metric, &cpp, &ch, &n,
	    &cause) == -1) {
		/* A history that cannot be read is no bad data. */
		opt = check_failed(st, store_failure(st), cause, EXIT_DATAERR,
		    0);
		free(cause);
		return opt;
	}
	if (c->out == OUT_JSON) {
		arr = view_changes_json(ch, n);
		cli_json_print(arr);
		json_decref(arr);
	} else {
		_Static_assert(nitems(hdr) + 2 == nitems(csv_hdr) &&
		    nitems(al) == nitems(csv_hdr), "changes: CSV header");
		t = c->out == OUT_CSV ? table_new(nitems(csv_hdr), csv_hdr,
		    al) : table_new(nitems(hdr), hdr, al);
		for (i = 0; i < n; i++) {
			cli_fmt_figure(b1, sizeof(b1), ch[i].cp.before,
			    c->out);
			cli_fmt_figure(b2, sizeof(b2), ch[i].cp.after, c->out);
			fmt_change(b3, sizeof(b3), ch[i].cp.change_pct,
			    c->out);
			fmt_p(b4, sizeof(b4), ch[i].cp.p, c->out);
			table_addf(t, 0, "%s", ch[i].host);
			table_addf(t, 1, "%s", ch[i].metric.workload);
			table_addf(t, 2, "%s", ch[i].metric.metric);
			table_addf(t, 3, "%s", ch[i].run);
			table_addf(t, 4, "%s", cp_kind_name(ch[i].cp.kind));
			table_addf(t, 5, "%s", b1);
			table_addf(t, 6, "%s", b2);
			table_addf(t, 7, "%s", b3);
			table_addf(t, 8, "%s", b4);
			table_addf(t, 9, "%zu", ch[i].cp.length);
			table_addf(t, 10, "%s", ch[i].metric.unit);
			if (c->out == OUT_CSV) {
				table_addf(t, 11, "%s", ch[i].last_run);
				table_addf(t, 12, "%zu", ch[i].index);
			}
			table_end_row(t);
		}
		if (n == 0 && c->out == OUT_TABLE)
			printf("no change points (floor %g%%, window %zu, "
			    "alpha %g)\n", cpp.min_change, cpp.window,
			    cpp.alpha);
		else
			table_print(t, stdout, c->out);
		table_free(t);
	}
	detect_changes_free(ch, n);
	return 0;
}

/* What alerts_row adds each alert of a listing to. */
struct alerts_listing {
	struct cli	*c;
	struct store	*st;
	FILE		*json;	/* --json: the array so far (alerts_spool) */
	const char	*name;	/* the command's, for messages */
	const char	*dir;	/* the directory json is in */
	int		 werr;	/* errno of a write to json that failed */
	struct table	*t;	/* else */
	size_t		 n;	/* alerts added */
};

/* Say that command name's temporary file in dir failed with errno err. */
static void
alerts_spool_warn(const char *name, const char *dir, int err)
{
	fprintf(stderr, "%s: a temporary file in %s: %s\n", name, dir,
	    strerror(err));
}

/*
 * A file for alerts --json to write its array to before printing it: an
 * unlinked temporary one in $TMPDIR (else /tmp), so that what was read
 * is on disk rather than in memory, and nothing reaches standard output
 * unless the whole listing was read.  The file, or NULL with the reason
 * told (*dir says where it was to be).
 */
static FILE *
alerts_spool(const char *name, const char **dir)
{
	const char	*d;
	char		*path;
	FILE		*f;
	int		 fd;

	if ((d = getenv("TMPDIR")) == NULL || *d == '\0')
		d = "/tmp";
	*dir = d;
	xasprintf(&path, "%s/perfwatch-alerts.XXXXXX", d);
	if ((fd = mkstemp(path)) == -1) {
		alerts_spool_warn(name, d, errno);
		free(path);
		return NULL;
	}
	/* Gone once closed, whatever ends the command. */
	(void)unlink(path);
	if ((f = fdopen(fd, "w+")) == NULL) {
		alerts_spool_warn(name, d, errno);
		close(fd);
	}
	free(path);
	return f;
}

/*
 * Write alert object o to the array in file f as the element after n
 * others, as cli_json_print writes an element of an array.  0, or -1
 * with errno when the write failed.
 */
static int
alerts_spool_add(FILE *f, const json_t *o, size_t n)
{
	fputs(n > 0 ? ",\n  " : "[\n  ", f);
	pwjson_write_at(f, o, PWJSON_PRETTY, 1);
	/* Each alert is a few hundred KiB at most: a flush is cheap. */
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}

/*
 * Close the array of n alerts in file f and copy it to standard output.
 * 0, or -1 with errno when f could not be written or read back; a write
 * error on standard output shows when main() checks it at the end.
 */
static int
alerts_spool_print(FILE *f, size_t n)
{
	char	buf[65536];
	size_t	len;

	fputs(n > 0 ? "\n]\n" : "[]\n", f);
	if (fflush(f) == EOF || ferror(f) || fseek(f, 0, SEEK_SET) == -1)
		return -1;
	while ((len = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, len, stdout) != len)
			break;
	if (ferror(f))
		return -1;
	return 0;
}

/*
 * Add alert a to the listing: its JSON (view.h's, the one the dashboard
 * serves), or its row, the machine change its attribution's summary
 * (read alone: STORE_ALERT_SUMMARY).  0, or -1 when its metric or runs
 * cannot be read: "?" and "-" are for a metric or run not there, and
 * one that cannot be read is the store's error, not an empty value.
 */
static int
alerts_row(void *arg, const struct store_alert *a)
{
	struct alerts_listing	*l = arg;
	struct store_metric	 m;
	char			*l1, *l2, *l3, *host;
	char			 b1[32], tbuf[32];
	json_t			*o;

	if (l->json != NULL) {
		if (view_alert_get(l->st, a, &o) == -1)
			return -1;
		if (alerts_spool_add(l->json, o, l->n) == -1) {
			l->werr = errno;
			json_decref(o);
			return -1;
		}
		json_decref(o);
		l->n++;
		return 0;
	}
	memset(&m, 0, sizeof(m));
	l1 = l2 = l3 = host = NULL;
	if (store_metric_get(l->st, a->metric, &m) == -1) {
		if (store_failure(l->st) != STORE_FOUND_NONE)
			return -1;
		m.workload = xstrdup("?");
		m.metric = xstrdup("?");
		m.unit = xstrdup("?");
	}
	if (view_run_label_get(l->st, a->first_bad_run, &l1) == -1 ||
	    view_run_label_get(l->st, a->last_good_run, &l2) == -1 ||
	    view_run_label_get(l->st, a->last_run, &l3) == -1 ||
	    view_alert_host(l->st, a, &host) == -1) {
		free(l1);
		free(l2);
		free(l3);
		store_metric_clear(&m);
		return -1;
	}
	fmt_time(tbuf, sizeof(tbuf), a->updated);
	/* change_pct in CSV is --json's number, with no % sign. */
	if (l->c->out == OUT_CSV)
		cli_fmt_figure(b1, sizeof(b1), a->change_pct, l->c->out);
	else
		cli_fmt_pct(b1, sizeof(b1), a->change_pct);
	table_addf(l->t, 0, "%lld", (long long)a->id);
	table_addf(l->t, 1, "%s", a->state);
	table_addf(l->t, 2, "%s", a->direction);
	table_addf(l->t, 3, "%s", m.workload);
	table_addf(l->t, 4, "%s", m.metric);
	table_addf(l->t, 5, "%s", b1);
	table_addf(l->t, 6, "%s", l1);
	table_addf(l->t, 7, "%s", l2);
	table_addf(l->t, 8, "%s", l3);
	table_addf(l->t, 9, "%s", tbuf);
	/* A confirmed alert's machine diff, in one line. */
	table_addf(l->t, 10, "%s", a->summary != NULL ? a->summary : "-");
	table_addf(l->t, 11, "%s", host);
	table_end_row(l->t);
	l->n++;
	free(host);
	free(l1);
	free(l2);
	free(l3);
	store_metric_clear(&m);
	return 0;
}

/*
 * Option name of a command that reads its words by hand, given as
 * "name value" or "name=value": its value, argv[*k] moved past it, or
 * NULL when argv[*k] is not it (or lacks its value).
 */
static const char *
alerts_option(int argc, char **argv, int *k, const char *name)
{
	size_t	len = strlen(name);

	if (strncmp(argv[*k], name, len) != 0)
		return NULL;
	if (argv[*k][len] == '=')
		return argv[*k] + len + 1;
	if (argv[*k][len] != '\0' || *k + 1 >= argc)
		return NULL;
	return argv[++*k];
}

/*
 * perfwatch alerts [--all] [--limit N] [--before ID] [--json|--csv]
 * | alerts ack ID
 */
int
cmd_alerts(struct cli *c, int argc, char **argv)
{
	static const char *const hdr[] = { "id", "state", "direction",
	    "workload", "metric", "change", "first bad", "last good",
	    "last run", "updated", "machine change", "host" };
	/*
	 * For a program each column is named as --json names it, the
	 * machine change as the attribution's "summary".
	 */
	static const char *const csv_hdr[] = { "id", "state", "direction",
	    "workload", "metric", "change_pct", "first_bad_run",
	    "last_good_run", "last_run", "updated", "summary", "host" };
	/* The host last, so that the columns before it stay where they were. */
	static const enum table_align al[] = { ALIGN_RIGHT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT };
	struct detect_params	 p;
	struct alerts_listing	 l;
	struct store		*st;
	struct table		*t;
	const char		*v;
	char			*cause = NULL;
	long long		 id, before = 0;
	size_t			 limit = 0;
	int			 k, more, all = 0;

	if (argc >= 2 && strcmp(argv[1], "ack") == 0) {
		cli_name(argv + 1, "alerts", "ack");
		if (argc > 2 && argv[2][0] == '-' && argv[2][1] != '\0')
			return cli_bad_arg("alerts", argv[2]);
		if (argc > 3)
			return cli_bad_arg("alerts", argv[3]);
		if (argc != 3)
			return cli_usage_why("alerts", "needs an alert ID");
		if (cli_parse_count(argv[2] + (argv[2][0] == '#'), 1,
		    LLONG_MAX, &id) == -1)
			return cli_usage_why("alerts", "\"%s\" is not an alert "
			    "ID", argv[2]);
		c->writes = 1;
		if ((st = cli_store(c)) == NULL)
			return cli_store_none(c);
		check_params(c, &p);
		if (detect_alert_ack(st, id, &p, &cause) == -1) {
			/* A store that failed is 70, not "no alert" and 65. */
			k = check_failed(st, store_failure(st), cause,
			    EXIT_DATAERR, 0);
			free(cause);
			detect_params_clear(&p);
			return k;
		}
		detect_params_clear(&p);
		cli_notify_daemon(c);
		if (c->out == OUT_TABLE)
			printf("alert #%lld acknowledged\n", id);
		return 0;
	}
	for (k = 1; k < argc; k++) {
		if (cli_output_option(c, argv[k]))
			continue;
		if (strcmp(argv[k], "--all") == 0) {
			all = 1;
			continue;
		}
		/* --limit N or --limit=N, --before ID or --before=ID. */
		if ((v = alerts_option(argc, argv, &k, "--limit")) != NULL) {
			if (cli_parse_limit(v, &limit) == -1)
				return cli_usage("alerts");
		} else if ((v = alerts_option(argc, argv, &k,
		    "--before")) != NULL) {
			if (cli_parse_count(v + (v[0] == '#'), 1, INT64_MAX,
			    &before) == -1)
				return cli_usage_why("alerts", "--before: \"%s\" "
				    "is not an alert ID", v);
		} else if (strcmp(argv[k], "--limit") == 0 ||
		    strcmp(argv[k], "--before") == 0)
			return cli_usage_why("alerts", "%s needs a value",
			    argv[k]);
		else
			return cli_bad_arg("alerts", argv[k]);
	}
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	memset(&l, 0, sizeof(l));
	/*
	 * --json: every alert whole, each with its attribution (after a
	 * large upgrade, some 170 KB stored, 290 KB printed), thousands of
	 * them in a store.  Gathered into one document, 2000 such alerts
	 * took 3 GiB; spooled alert by alert to a file, 16 MiB.
	 */
	l.name = argv[0];
	if (c->out == OUT_JSON && (l.json = alerts_spool(l.name,
	    &l.dir)) == NULL)
		return EXIT_IOERR;
	_Static_assert(nitems(hdr) == nitems(csv_hdr), "alerts: CSV header");
	t = table_new(nitems(hdr), c->out == OUT_CSV ? csv_hdr : hdr, al);
	l.c = c;
	l.st = st;
	l.t = t;
	/*
	 * A page (--limit, --before) reads only the alerts it prints; the
	 * table and CSV print of each attribution its summary alone, and
	 * read no more of it (after a large upgrade, some 170 KB an alert).
	 */
	if (store_alerts_page(st, all, (int64_t)before, limit, l.json !=
	    NULL ? STORE_ALERT_WHOLE : STORE_ALERT_SUMMARY, alerts_row, &l,
	    &more) == -1) {
		/*
		 * Nothing printed: a list with holes would pass for whole.
		 * 75 for a busy store, as for the alerts' metrics and runs;
		 * 74 for a full disk under the spool.
		 */
		if (l.werr != 0) {
			alerts_spool_warn(l.name, l.dir, l.werr);
			k = EXIT_IOERR;
		} else if ((k = cli_store_failed(st)) == 0) {
			log_warnx("%s", store_errmsg(st));
			k = EXIT_SOFTWARE;
		}
		if (l.json != NULL)
			fclose(l.json);
		table_free(t);
		return k;
	}
	if (l.json != NULL) {
		if ((k = alerts_spool_print(l.json, l.n)) == -1)
			alerts_spool_warn(l.name, l.dir, errno);
		fclose(l.json);
		if (k == -1) {
			table_free(t);
			return EXIT_IOERR;
		}
	} else if (l.n == 0 && c->out == OUT_TABLE) {
		/* Past the last page is not "none": say where it looked. */
		if (before > 0)
			printf("no %salerts before #%lld\n", all ? "" : "open ",
			    (long long)before);
		else
			printf("no %salerts\n", all ? "" : "open ");
	} else
		table_print(t, stdout, c->out);
	table_free(t);
	return 0;
}

/* One metric of a baseline, for baseline show: each run's samples. */
struct bl_metric {
	struct store_metric	 m;
	double			**v;
	size_t			 *nv;
	size_t			  n;
};

/* Free what a bl_metric holds. */
static void
bl_metric_clear(struct bl_metric *bm)
{
	size_t	j;

	store_metric_clear(&bm->m);
	for (j = 0; j < bm->n; j++)
		free(bm->v[j]);
	free(bm->v);
	free(bm->nv);
}

/*
 * Print baseline name's runs and each metric's level and spread: those a
 * check against it judges by (detect_pinned_level), where this printed
 * the median and sd of the run medians, a level other than the one
 * check then printed for the same baseline.
 */
static int
baseline_show(struct cli *c, struct store *st, const char *name)
{
	/* The between-run noise, "noise" as --json and check call it. */
	static const char *const hdr[] = { "workload", "metric", "runs",
	    "level", "noise", "unit" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_LEFT };
	struct store_baseline	 bl;
	struct store_series	*ser;
	struct store_run	 r;
	struct bl_metric	*ms = NULL;
	struct detect_params	 p;
	struct table		*t;
	json_t			*o, *runs, *arr, *mo, *ro;
	const char		*status;
	double			 lvl, sd;
	char			 b1[32], b2[32], tbuf[32];
	size_t			 nms = 0, nser, i, j;
	int			 k;

	if (store_baseline_get(st, name, &bl) == -1) {
		if ((k = cli_store_failed(st)) != 0)
			return k;
		fprintf(stderr, "perfwatch: no baseline \"%s\"\n",
		    cli_show(name));
		return EXIT_DATAERR;
	}
	runs = pwjson_array();
	for (i = 0; i < bl.nruns; i++) {
		if (store_run_get(st, bl.runs[i], &r) == -1) {
			/* A run that cannot be read is no run not there. */
			if (store_failure(st) != STORE_FOUND_NONE)
				break;
			continue;
		}
		ro = run_ref_json(&r);
		pwjson_set_str(ro, "status", r.status);
		pwjson_append(runs, ro);
		/*
		 * A run that did not complete (in a baseline set before
		 * they were refused) is listed, but check leaves it out
		 * (detect_pinned_complete), and so do the levels below.
		 */
		if (strcmp(r.status, RUN_COMPLETE) != 0) {
			store_run_clear(&r);
			continue;
		}
		if (store_run_series(st, r.id, &ser, &nser) == 0) {
			for (j = 0; j < nser; j++) {
				size_t	mi;

				if (ser[j].n == 0)
					continue;
				for (mi = 0; mi < nms; mi++)
					if (ms[mi].m.id == ser[j].metric.id)
						break;
				if (mi == nms) {
					ms = xreallocarray(ms, nms + 1,
					    sizeof(*ms));
					memset(&ms[nms], 0, sizeof(ms[nms]));
					ms[nms].m = ser[j].metric;
					memset(&ser[j].metric, 0,
					    sizeof(ser[j].metric));
					nms++;
				}
				ms[mi].v = xreallocarray(ms[mi].v,
				    ms[mi].n + 1, sizeof(*ms[mi].v));
				ms[mi].nv = xreallocarray(ms[mi].nv,
				    ms[mi].n + 1, sizeof(*ms[mi].nv));
				ms[mi].v[ms[mi].n] = ser[j].values;
				ms[mi].nv[ms[mi].n++] = ser[j].n;
				ser[j].values = NULL;
				ser[j].n = 0;
			}
			store_series_free(ser, nser);
		} else {
			store_run_clear(&r);
			break;
		}
		store_run_clear(&r);
	}
	if (i < bl.nruns) {
		/*
		 * Nothing printed: without a run's samples the table lacked
		 * its metrics (every one, exit 0) and said nothing of why.
		 */
		if ((k = cli_store_failed(st)) == 0)
			k = EXIT_SOFTWARE;
		for (i = 0; i < nms; i++)
			bl_metric_clear(&ms[i]);
		free(ms);
		json_decref(runs);
		store_baseline_clear(&bl);
		return k;
	}
	if (c->out == OUT_TABLE) {
		printf("baseline %s, %zu run%s:\n", cli_show(bl.name), bl.nruns,
		    bl.nruns == 1 ? "" : "s");
		json_array_foreach(runs, j, ro) {
			status = json_string_value(json_object_get(ro,
			    "status"));
			printf("  %s:%s  %s", cli_show(json_string_value(
			    json_object_get(ro, "host"))), cli_show(
			    json_string_value(json_object_get(ro, "run"))),
			    json_string_value(json_object_get(ro, "time")));
			if (strcmp(status, RUN_COMPLETE) != 0)
				printf("  (%s: left out, as check leaves it "
				    "out)", status);
			putchar('\n');
		}
	}
	t = table_new(nitems(hdr), hdr, al);
	arr = pwjson_array();
	check_params(c, &p);
	for (i = 0; i < nms; i++) {
		detect_pinned_level((const double *const *)ms[i].v, ms[i].nv,
		    ms[i].n, &p, &lvl, &sd);
		mo = pwjson_object();
		pwjson_set_str(mo, "workload", ms[i].m.workload);
		pwjson_set_str(mo, "metric", ms[i].m.metric);
		pwjson_set_str(mo, "unit", ms[i].m.unit);
		pwjson_set_int(mo, "runs", (int64_t)ms[i].n);
		pwjson_set_num(mo, "level", lvl);
		pwjson_set_num(mo, "noise", sd);
		pwjson_append(arr, mo);
		cli_fmt_figure(b1, sizeof(b1), lvl, c->out);
		cli_fmt_figure(b2, sizeof(b2), sd, c->out);
		table_addf(t, 0, "%s", ms[i].m.workload);
		table_addf(t, 1, "%s", ms[i].m.metric);
		table_addf(t, 2, "%zu", ms[i].n);
		table_addf(t, 3, "%s", b1);
		table_addf(t, 4, "%s", b2);
		table_addf(t, 5, "%s", ms[i].m.unit);
		table_end_row(t);
		bl_metric_clear(&ms[i]);
	}
	free(ms);
	detect_params_clear(&p);
	if (c->out == OUT_JSON) {
		o = pwjson_object();
		pwjson_set_str(o, "name", bl.name);
		/* A time, as baseline list and every other command give it. */
		fmt_time(tbuf, sizeof(tbuf), bl.created);
		pwjson_set_str(o, "created", tbuf);
		pwjson_set(o, "runs", runs);
		pwjson_set(o, "metrics", arr);
		cli_json_print(o);
		json_decref(o);
	} else {
		if (c->out == OUT_TABLE)
			putchar('\n');
		table_print(t, stdout, c->out);
		json_decref(runs);
		json_decref(arr);
	}
	table_free(t);
	store_baseline_clear(&bl);
	return 0;
}

/* perfwatch baseline set|list|use|show|delete */
int
cmd_baseline(struct cli *c, int argc, char **argv)
{
	static const char *const hdr[] = { "name", "runs", "created",
	    "in use", "host" };
	/* For a program each column is named as --json names it. */
	static const char *const csv_hdr[] = { "name", "runs", "created",
	    "in_use", "host" };
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_RIGHT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT };
	/* The words of each subcommand, itself included, after "baseline". */
	static const struct {
		const char	*name;
		int		 min, max;
	} subs[] = {
		{ "set", 4, INT_MAX }, { "use", 3, 3 }, { "show", 3, 3 },
		{ "delete", 3, 3 }, { "list", 2, 2 }, { "index", 3, 3 },
	};
	struct detect_params	 p;
	struct detect_group	 g;
	struct store_baseline	*bs = NULL, bl;
	struct store_run	*all = NULL;
	struct store_run_filter	 f;
	struct store		*st;
	struct table		*t;
	struct bl_host		*h;
	const char		*sub, *bad = NULL;
	char			*cause = NULL, *inuse = NULL, *hosts, tbuf[32];
	json_t			*arr, *o;
	size_t			 n = 0, nall = 0, i, j, nh;
	size_t			 skipped[2] = { 0, 0 };
	int			 k, opt, rc = 0, ended = 0;

	if (argc < 2)
		return cli_usage_why("baseline", "a subcommand: set, list, "
		    "show, use, delete or index");
	sub = argv[1];
	/*
	 * Output options may stand anywhere after the subcommand; the words
	 * stay, and so does an option not known, to be refused below.
	 */
	for (k = 2, i = 2; k < argc; k++) {
		if ((opt = cli_option_word(argv[k], &ended)) == -1)
			continue;
		if (opt && cli_output_option(c, argv[k]))
			continue;
		if (opt && bad == NULL)
			bad = argv[k];
		argv[i++] = argv[k];
	}
	argc = (int)i;
	/* Each subcommand's words are counted before the store opens. */
	for (i = 0; i < nitems(subs) && strcmp(subs[i].name, sub) != 0; i++)
		continue;
	if (i == nitems(subs))
		return cli_bad_sub("baseline", sub);
	cli_name(argv + 1, "baseline", subs[i].name);
	if (bad != NULL)
		return cli_bad_arg("baseline", bad);
	if (argc > subs[i].max)
		return cli_bad_arg("baseline", argv[subs[i].max]);
	if (argc < subs[i].min)
		return cli_usage_why("baseline", "needs %s",
		    subs[i].min > 3 ? "a NAME and a RUN or more" :
		    strcmp(sub, "index") == 0 ? "a RUN" : "a NAME");
	c->writes = strcmp(sub, "list") != 0 && strcmp(sub, "show") != 0;
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if (strcmp(sub, "set") == 0) {
		if (utf8_check(argv[2], NULL) == -1 ||
		    argv[2][strspn(argv[2], " \t")] == '\0') {
			fprintf(stderr, "perfwatch: a baseline name must be "
			    "valid UTF-8 and not blank\n");
			return EXIT_USAGE;
		}
		if (strcmp(argv[2], DETECT_ROLLING) == 0) {
			fprintf(stderr, "perfwatch: \"%s\" names the rolling "
			    "baseline\n", DETECT_ROLLING);
			return EXIT_USAGE;
		}
		memset(&f, 0, sizeof(f));
		if (store_runs_list(st, &f, &all, &nall) == -1)
			return (k = cli_store_failed(st)) != 0 ? k :
			    EXIT_SOFTWARE;
		memset(&g, 0, sizeof(g));
		for (k = 3; k < argc && rc == 0; k++)
			if (group_add(st, all, nall, argv[k], 1, skipped,
			    &g) == -1)
				rc = cli_store_status(st, EXIT_DATAERR);
		if (rc == 0 && bl_one_host(st, NULL, g.runs, g.nruns) == -1)
			rc = EXIT_DATAERR;
		if (rc == 0 && skipped[0] > 0)
			fprintf(stderr, "perfwatch: left out %zu run%s that "
			    "did not complete\n", skipped[0],
			    skipped[0] == 1 ? "" : "s");
		if (rc == 0 && skipped[1] > 0)
			fprintf(stderr, "perfwatch: left out %zu run%s "
			    "measured on a busy machine\n", skipped[1],
			    skipped[1] == 1 ? "" : "s");
		if (rc == 0 && store_baseline_set(st, argv[2], g.runs, g.nruns,
		    (int64_t)time(NULL), &cause) == -1) {
			/*
			 * A store busy is to be tried again, not a bad run;
			 * one that failed is no bad run either (its error
			 * outlives the rollback).
			 */
			rc = cli_store_status(st, EXIT_DATAERR);
			fprintf(stderr, "perfwatch: %s%s\n", cause,
			    rc == EXIT_TEMPFAIL ? " (another process holds "
			    "the store locked); try again" : "");
			free(cause);
		}
		if (rc == 0 && c->out == OUT_TABLE)
			printf("baseline %s: %zu run%s\n", cli_show(argv[2]),
			    g.nruns, g.nruns == 1 ? "" : "s");
		free(g.runs);
		store_runs_free(all, nall);
		return rc;
	}
	if (strcmp(sub, "use") == 0) {
		if (strcmp(argv[2], DETECT_ROLLING) != 0) {
			if (store_baseline_get(st, argv[2], &bl) == -1) {
				if ((k = cli_store_failed(st)) != 0)
					return k;
				fprintf(stderr, "perfwatch: no baseline \"%s\"\n",
				    cli_show(argv[2]));
				return EXIT_DATAERR;
			}
			/* Every check against it would be refused. */
			k = bl_one_host(st, bl.name, bl.runs, bl.nruns);
			store_baseline_clear(&bl);
			if (k == -1)
				return EXIT_DATAERR;
		}
		/*
		 * "rolling" is stored as it is, not as no setting: without
		 * a setting, [detect] baseline in the config would rule.
		 */
		if (store_setting_set(st, DETECT_SETTING_BASELINE,
		    argv[2]) == -1)
			return (k = cli_store_failed(st)) != 0 ? k :
			    EXIT_SOFTWARE;
		if (c->out == OUT_TABLE)
			printf("checks now judge against baseline %s\n",
			    cli_show(argv[2]));
		return 0;
	}
	if (strcmp(sub, "show") == 0) {
		return baseline_show(c, st, argv[2]);
	}
	if (strcmp(sub, "index") == 0) {
		/*
		 * The reference of the host's system index, chosen: the
		 * first that measured is the default, which a first run of
		 * the wrong kind may not be.
		 */
		struct store_run	r;

		if (store_run_resolve(st, argv[2], &r, &cause) == -1) {
			fprintf(stderr, "perfwatch: %s\n", cause);
			free(cause);
			return cli_store_status(st, EXIT_DATAERR);
		}
		if (cli_index_pin(st, &r, &cause) == -1) {
			fprintf(stderr, "perfwatch: %s\n", cause);
			free(cause);
			k = cli_store_status(st, EXIT_DATAERR);
			store_run_clear(&r);
			return k;
		}
		if (c->out == OUT_TABLE)
			printf("the system index of %s is now against run %s\n",
			    cli_show(r.host_name), cli_show(r.label));
		store_run_clear(&r);
		return 0;
	}
	if (strcmp(sub, "delete") == 0) {
		check_params(c, &p);
		k = p.config_baseline != NULL &&
		    strcmp(p.config_baseline, argv[2]) == 0;
		detect_params_clear(&p);
		if (k) {
			/* Every check would then fail: say so instead. */
			fprintf(stderr, "perfwatch: baseline \"%s\" is named "
			    "by [detect] baseline in the configuration; "
			    "change that first\n", argv[2]);
			return EXIT_DATAERR;
		}
		if (store_baseline_delete(st, argv[2],
		    DETECT_SETTING_BASELINE, &cause) == -1) {
			if (cause != NULL) {
				/* Nothing deleted: the baseline is kept. */
				fprintf(stderr, "perfwatch: %s: %s; nothing "
				    "deleted\n", store_path(st), cause);
				free(cause);
				return EXIT_SOFTWARE;
			}
			if ((k = cli_store_failed(st)) != 0)
				return k;
			fprintf(stderr, "perfwatch: no baseline \"%s\"\n",
			    cli_show(argv[2]));
			return EXIT_DATAERR;
		}
		if (c->out == OUT_TABLE)
			printf("baseline %s deleted\n", cli_show(argv[2]));
		return 0;
	}
	if (store_baselines_list(st, &bs, &n) == -1)
		return (k = cli_store_failed(st)) != 0 ? k : EXIT_SOFTWARE;
	check_params(c, &p);
	k = detect_baseline_in_use(st, &p, &inuse);
	detect_params_clear(&p);
	if (k == -1) {
		/* "in use: rolling" of a setting not read would be a guess. */
		store_baselines_free(bs, n);
		return (k = cli_store_failed(st)) != 0 ? k : EXIT_SOFTWARE;
	}
	arr = pwjson_array();
	_Static_assert(nitems(hdr) == nitems(csv_hdr), "baseline: CSV header");
	t = table_new(nitems(hdr), c->out == OUT_CSV ? csv_hdr : hdr, al);
	for (i = 0; i < n; i++) {
		fmt_time(tbuf, sizeof(tbuf), bs[i].created);
		/* Whose runs it judges: a baseline is of one host's. */
		nh = bl_hosts(st, bs[i].runs, bs[i].nruns, &h);
		for (j = 0, hosts = xstrdup(nh == 0 ? "-" : ""); j < nh; j++) {
			xasprintf(&cause, "%s%s%s", hosts, j > 0 ? ", " : "",
			    h[j].host);
			free(hosts);
			hosts = cause;
		}
		cause = NULL;
		o = pwjson_object();
		pwjson_set_str(o, "name", bs[i].name);
		pwjson_set_int(o, "runs", (int64_t)bs[i].nruns);
		pwjson_set_str(o, "created", tbuf);
		pwjson_set_bool(o, "in_use", strcmp(inuse, bs[i].name) == 0);
		/* null with no run, or with several hosts' (set before). */
		pwjson_set_str(o, "host", nh == 1 ? h[0].host : NULL);
		pwjson_append(arr, o);
		table_addf(t, 0, "%s", bs[i].name);
		table_addf(t, 1, "%zu", bs[i].nruns);
		table_addf(t, 2, "%s", tbuf);
		/* For a program "no" too, as runs --csv gives busy. */
		table_addf(t, 3, "%s", strcmp(inuse, bs[i].name) == 0 ?
		    "yes" : c->out == OUT_CSV ? "no" : "");
		table_addf(t, 4, "%s", hosts);
		table_end_row(t);
		free(hosts);
		bl_hosts_free(h, nh);
	}
	if (c->out == OUT_JSON) {
		o = pwjson_object();
		pwjson_set_str(o, "in_use", inuse);
		pwjson_set(o, "baselines", arr);
		cli_json_print(o);
		json_decref(o);
	} else {
		json_decref(arr);
		/* A name set by baseline set can hold a control character. */
		if (c->out == OUT_TABLE)
			printf("in use: %s\n%s", cli_show(inuse), n > 0 ?
			    "\n" : "");
		if (n > 0 || c->out == OUT_CSV)
			table_print(t, stdout, c->out);
	}
	table_free(t);
	free(inuse);
	store_baselines_free(bs, n);
	return 0;
}
