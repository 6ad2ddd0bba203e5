/*
 * Comparisons of runs and groups of runs, and change points over a
 * metric's history.
 *
 * A comparison puts groups side by side (a group is one run or several)
 * and judges each against the first.  The run stays the unit of noise:
 * when both groups have two or more runs with the metric, the test is a
 * Mann-Whitney U over their run medians, the change the Hodges-Lehmann
 * shift of the run medians with its Moses 95% interval, in percent of the
 * first group's level (the median of its run medians); the change shown
 * is that of the levels.  With one run on
 * either side there is no between-run spread to judge by, so the test
 * falls back to the two runs' samples (marked as such: it speaks only for
 * these two runs), and with fewer than three samples each there is no
 * test.  So it does when the runs are too few for their test to reach
 * fdr at all (two against three, three against four), and a cell whose
 * test cannot reach it either is inconclusive (cmp_cell).  The p-values
 * of each column are adjusted by Benjamini-Hochberg across the metrics
 * tested, and a change counts when q <= fdr and its interval reaches the
 * floor, as for a check.
 *
 * The index of a group is 1000 times the geometric mean, over the metrics
 * every group has, of the ratio of its level to the first group's, turned
 * so that above 1000 is better (first / group for lower-is-better).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"
#include "detect_int.h"

/* The run medians and samples of one metric in one group. */
struct cmp_acc {
	double	*medians;
	size_t	 nmed;
	double	*samples;
	size_t	 nsamp;
};

/* One metric seen in any group. */
struct cmp_metric {
	struct store_metric	 m;
	struct cmp_acc		*acc;		/* per group */
};

/* Find or add metric m in the list; returns its index. */
static size_t
cmp_metric_index(struct cmp_metric **ms, size_t *n, size_t ngroups,
    const struct store_metric *m)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if ((*ms)[i].m.id == m->id)
			return i;
	*ms = xreallocarray(*ms, *n + 1, sizeof(**ms));
	(*ms)[*n].m.id = m->id;
	(*ms)[*n].m.workload = xstrdup(m->workload);
	(*ms)[*n].m.metric = xstrdup(m->metric);
	(*ms)[*n].m.unit = xstrdup(m->unit);
	(*ms)[*n].m.better = m->better;
	(*ms)[*n].acc = xcalloc(ngroups, sizeof(struct cmp_acc));
	return (*n)++;
}

/* Add one run's samples of a metric to a group's accumulator. */
static void
cmp_acc_add(struct cmp_acc *a, const double *v, size_t n)
{
	double	med;
	size_t	i;

	if (n == 0 || stats_median(v, n, &med) == -1)
		return;
	a->medians = xreallocarray(a->medians, a->nmed + 1, sizeof(double));
	a->medians[a->nmed++] = med;
	a->samples = xreallocarray(a->samples, a->nsamp + n, sizeof(double));
	for (i = 0; i < n; i++)
		a->samples[a->nsamp++] = v[i];
}

/* Order metrics by workload, then metric name, numbers by value. */
static int
cmp_metric_cmp(const void *a, const void *b)
{
	const struct cmp_metric	*x = a, *y = b;
	int			 c;

	if ((c = name_cmp(x->m.workload, y->m.workload)) != 0)
		return c;
	return name_cmp(x->m.metric, y->m.metric);
}

/*
 * Judge group g against the first group a0, whose level is level0, into
 * cell c: the test, the HL shift as a change in percent of level0, its
 * interval and p.  *up is set to the sign of the shift.
 *
 * The runs' medians are tested when each side has two or more and their
 * number lets the test reach fdr; else the samples, when each side has
 * three or more and theirs does.  When neither can, the runs' (or the
 * samples') test is still made and shown, but the cell is inconclusive,
 * not unchanged: two runs against three that differ by 20% were
 * "unchanged" by a test that could not have said otherwise.
 */
static void
cmp_cell(const struct cmp_acc *a0, const struct cmp_acc *g, double level0,
    double fdr, struct detect_cell *c, int *up)
{
	struct stats_interval	 hl;
	struct stats_mwu	 mwu;
	const double		*x, *y;
	size_t			 nx, ny;
	int			 runs, samples;

	c->change_pct = c->shift_pct = c->ci_low = c->ci_high = NAN;
	c->p = c->q = NAN;
	c->test = DETECT_TEST_NONE;
	c->kind = DETECT_INCONCLUSIVE;
	*up = 0;
	if (a0->nmed > 0 && g->nmed > 0 && level0 != 0 && !isnan(level0) &&
	    !isnan(c->level))
		c->change_pct = (c->level - level0) / fabs(level0) * 100;
	runs = a0->nmed >= 2 && g->nmed >= 2;
	samples = a0->nmed > 0 && g->nmed > 0 && a0->nsamp >= 3 &&
	    g->nsamp >= 3;
	if (runs && (stats_mwu_min_p(a0->nmed, g->nmed) <= fdr || !samples ||
	    stats_mwu_min_p(a0->nsamp, g->nsamp) > fdr)) {
		x = a0->medians;
		nx = a0->nmed;
		y = g->medians;
		ny = g->nmed;
		c->test = DETECT_TEST_RUNS;
	} else if (samples) {
		x = a0->samples;
		nx = a0->nsamp;
		y = g->samples;
		ny = g->nsamp;
		c->test = DETECT_TEST_SAMPLES;
	} else
		return;
	if (stats_mwu(y, ny, x, nx, STATS_TWO_SIDED, STATS_MWU_AUTO,
	    &mwu) == -1 || stats_hl_shift(x, nx, y, ny, 0.95, &hl) == -1) {
		c->test = DETECT_TEST_NONE;
		return;
	}
	/*
	 * No split of the runs gives less than the permutation's least p
	 * (perfwatch(1) says so); with ties the normal approximation went
	 * below it: four runs of 3 against four of 4, an integer counter,
	 * reached p 0.013 where four against four cannot go under 0.029,
	 * and "worse" where the same runs untied were inconclusive.
	 */
	c->p = mwu.exact || mwu.p >= stats_mwu_min_p(nx, ny) ? mwu.p :
	    stats_mwu_min_p(nx, ny);
	if (stats_mwu_min_p(nx, ny) <= fdr)
		c->kind = DETECT_UNCHANGED;
	*up = (hl.estimate > 0) - (hl.estimate < 0);
	if (level0 != 0 && !isnan(level0)) {
		c->shift_pct = hl.estimate / fabs(level0) * 100;
		c->ci_low = hl.lo / fabs(level0) * 100;
		c->ci_high = hl.hi / fabs(level0) * 100;
	}
}

/*
 * Add the index row of workload (NULL: every metric) to c: the geometric
 * mean of the better-is-higher level ratios against the first group, over
 * the metrics that every group has with a positive level, times 1000.  No
 * row is added when no metric qualifies.
 */
static void
cmp_index(struct detect_comparison *c, const char *workload)
{
	struct detect_index	*row;
	const struct detect_cell *cell;
	double			*lsum;
	size_t			 mi, i, n = 0;
	int			 ok;

	lsum = xcalloc(c->ngroups, sizeof(*lsum));
	for (mi = 0; mi < c->nmetrics; mi++) {
		if (workload != NULL &&
		    strcmp(c->metrics[mi].workload, workload) != 0)
			continue;
		ok = 1;
		for (i = 0; i < c->ngroups; i++) {
			cell = &c->cells[mi * c->ngroups + i];
			if (cell->runs == 0 || !(cell->level > 0))
				ok = 0;
		}
		if (!ok)
			continue;
		for (i = 0; i < c->ngroups; i++) {
			cell = &c->cells[mi * c->ngroups + i];
			if (c->metrics[mi].better == BETTER_HIGHER)
				lsum[i] += log(cell->level /
				    c->cells[mi * c->ngroups].level);
			else
				lsum[i] += log(c->cells[mi * c->ngroups].level /
				    cell->level);
		}
		n++;
	}
	if (n == 0) {
		free(lsum);
		return;
	}
	c->index = xreallocarray(c->index, c->nindex + 1, sizeof(*c->index));
	row = &c->index[c->nindex++];
	row->workload = workload != NULL ? xstrdup(workload) : NULL;
	row->metrics = n;
	row->value = lsum;
	for (i = 0; i < c->ngroups; i++)
		row->value[i] = 1000 * exp(lsum[i] / (double)n);
}

/*
 * Compare groups g[0..ng) (each one run or more) metric by metric against
 * the first; out holds a cell per metric and group and each group's
 * index (detect_comparison_free).  On -1, out->failure says whether the
 * store failed (or was busy) reading a run's samples.
 */
int
detect_compare(struct store *st, struct detect_group *g, size_t ng,
    const struct detect_params *p, struct detect_comparison *out,
    char **cause)
{
	struct store_series	*ser;
	struct cmp_metric	*ms = NULL;
	struct detect_cell	*c;
	const struct cmp_acc	*a0, *ai;
	double			*pv, *qv;
	size_t			 nms = 0, nser, i, j, k, mi, np, ntested;
	int			 up;

	memset(out, 0, sizeof(*out));
	if (ng < 2) {
		xasprintf(cause, "a comparison needs two runs or groups");
		return -1;
	}
	for (i = 0; i < ng; i++) {
		for (j = 0; j < g[i].nruns; j++) {
			if (store_run_series(st, g[i].runs[j], &ser,
			    &nser) == -1) {
				out->failure = store_failure(st);
				xasprintf(cause, "%s", store_errmsg(st));
				goto fail;
			}
			for (k = 0; k < nser; k++) {
				mi = cmp_metric_index(&ms, &nms, ng,
				    &ser[k].metric);
				cmp_acc_add(&ms[mi].acc[i], ser[k].values,
				    ser[k].n);
			}
			store_series_free(ser, nser);
		}
	}
	if (nms > 1)
		qsort(ms, nms, sizeof(*ms), cmp_metric_cmp);

	out->groups = g;
	out->ngroups = ng;
	out->nmetrics = nms;
	out->metrics = xcalloc(nms + 1, sizeof(*out->metrics));
	out->cells = xcalloc(nms * ng + 1, sizeof(*out->cells));
	out->ups = xcalloc(nms * ng + 1, sizeof(*out->ups));
	for (mi = 0; mi < nms; mi++) {
		out->metrics[mi] = ms[mi].m;
		for (i = 0; i < ng; i++) {
			c = &out->cells[mi * ng + i];
			c->runs = ms[mi].acc[i].nmed;
			c->samples = ms[mi].acc[i].nsamp;
			c->level = NAN;
			if (c->runs > 0)
				stats_median(ms[mi].acc[i].medians, c->runs,
				    &c->level);
		}
		for (i = 1; i < ng; i++) {
			cmp_cell(&ms[mi].acc[0], &ms[mi].acc[i],
			    out->cells[mi * ng].level, p->fdr,
			    &out->cells[mi * ng + i], &out->ups[mi * ng + i]);
			out->cells[mi * ng + i].judged =
			    ms[mi].acc[0].nmed > 0 && ms[mi].acc[i].nmed > 0;
		}
		c = &out->cells[mi * ng];
		c->change_pct = c->shift_pct = c->ci_low = c->ci_high = NAN;
		c->p = c->q = NAN;
		c->test = DETECT_TEST_NONE;
		c->kind = DETECT_UNCHANGED;
	}

	/*
	 * BH per column, over the cells whose test could reach fdr (which
	 * their sizes alone decide), then the verdicts.  A cell whose q
	 * misses fdr, and whose test could not have reached it among as
	 * many (its smallest p times their number, BH's bound for the
	 * smallest of them), is inconclusive: four runs against four
	 * reach p 0.029, which among two metrics is q 0.057 at best, and
	 * a 15% shift of non-overlapping runs was "unchanged", where the
	 * stricter fdr 0.01 tested the samples and found it.
	 */
	pv = xcalloc(nms + 1, sizeof(*pv));
	qv = xcalloc(nms + 1, sizeof(*qv));
	for (i = 1; i < ng; i++) {
		for (mi = 0, np = 0; mi < nms; mi++)
			if (out->cells[mi * ng + i].kind == DETECT_UNCHANGED)
				pv[np++] = out->cells[mi * ng + i].p;
		if (np > 0)
			stats_bh(pv, np, qv);
		ntested = np;
		for (mi = 0, np = 0; mi < nms; mi++) {
			c = &out->cells[mi * ng + i];
			if (c->kind != DETECT_UNCHANGED)
				continue;
			c->q = qv[np++];
			a0 = &ms[mi].acc[0];
			ai = &ms[mi].acc[i];
			if (c->q > p->fdr && (c->test == DETECT_TEST_RUNS ?
			    stats_mwu_min_p(a0->nmed, ai->nmed) :
			    stats_mwu_min_p(a0->nsamp, ai->nsamp)) *
			    (double)ntested > p->fdr) {
				c->kind = DETECT_INCONCLUSIVE;
				continue;
			}
			up = out->ups[mi * ng + i];
			if (c->q > p->fdr || up == 0 || !detect_relevant(
			    c->shift_pct, c->ci_low, c->ci_high,
			    p->min_change))
				continue;
			c->kind = (up > 0) == (out->metrics[mi].better ==
			    BETTER_HIGHER) ? DETECT_IMPROVEMENT :
			    DETECT_REGRESSION;
		}
	}
	free(pv);
	free(qv);

	/* The index rows: each workload, then all metrics. */
	for (mi = 0; mi < nms; mi++) {
		if (mi > 0 && strcmp(out->metrics[mi].workload,
		    out->metrics[mi - 1].workload) == 0)
			continue;
		cmp_index(out, out->metrics[mi].workload);
	}
	if (out->nindex != 1)
		cmp_index(out, NULL);
	else {
		free(out->index[0].workload);
		out->index[0].workload = NULL;
	}
	for (mi = 0; mi < nms; mi++) {
		for (i = 0; i < ng; i++) {
			free(ms[mi].acc[i].medians);
			free(ms[mi].acc[i].samples);
		}
		free(ms[mi].acc);
	}
	free(ms);
	return 0;

fail:
	for (mi = 0; mi < nms; mi++) {
		for (i = 0; i < ng; i++) {
			free(ms[mi].acc[i].medians);
			free(ms[mi].acc[i].samples);
		}
		free(ms[mi].acc);
		store_metric_clear(&ms[mi].m);
	}
	free(ms);
	return -1;
}

void
detect_comparison_free(struct detect_comparison *c)
{
	size_t	i;

	for (i = 0; i < c->nmetrics; i++)
		store_metric_clear(&c->metrics[i]);
	free(c->metrics);
	free(c->cells);
	free(c->ups);
	for (i = 0; i < c->nindex; i++) {
		free(c->index[i].workload);
		free(c->index[i].value);
	}
	free(c->index);
	memset(c, 0, sizeof(*c));
}

/*
 * Append change point cp of metric m on host to *out: history runs
 * scanned, the change from run to last_run.
 */
void
detect_change_push(struct detect_change **out, size_t *n,
    const struct store_metric *m, const char *host, const char *run,
    const char *last_run, size_t history, const struct cp_change *cp)
{
	struct detect_change	*c;

	*out = xreallocarray(*out, *n + 1, sizeof(**out));
	c = &(*out)[(*n)++];
	memset(c, 0, sizeof(*c));
	c->metric.id = m->id;
	c->metric.workload = xstrdup(m->workload);
	c->metric.metric = xstrdup(m->metric);
	c->metric.unit = xstrdup(m->unit);
	c->metric.better = m->better;
	c->host = xstrdup(host);
	c->run = xstrdup(run);
	c->last_run = xstrdup(last_run);
	c->index = cp->index;
	c->history = history;
	c->cp = *cp;
}

/* Most run levels held at once while reading a host's history: 32 MiB. */
#define CHANGES_LEVELS_MAX	((size_t)1 << 22)

static size_t	changes_levels_max = CHANGES_LEVELS_MAX;

/*
 * Hold at most n run levels at once (0: the default), so that a test can
 * make a small history take several blocks.
 */
void
detect_changes_block(size_t n)
{
	changes_levels_max = n > 0 ? n : CHANGES_LEVELS_MAX;
}

/* A block of metrics being read run by run (store_runs_samples). */
struct changes_block {
	const int64_t	*ids;		/* its metrics' ids, ascending */
	size_t		 nids;
	size_t		 nruns;
	double		*lv;		/* [metric slot * nruns + run]: the
					   run's median, NAN if none */
};

/* Order int64_t ascending for qsort and bsearch. */
static int
changes_id_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* store_runs_samples: keep the median of one metric of one run. */
static void
changes_level(void *arg, size_t run, int64_t metric, const double *v,
    size_t n)
{
	struct changes_block	*b = arg;
	const int64_t		*slot;
	double			 m;

	slot = bsearch(&metric, b->ids, b->nids, sizeof(*b->ids),
	    changes_id_cmp);
	/* Not wanted (between two that are), or not a number: no level. */
	if (slot != NULL && stats_median(v, n, &m) == 0)
		b->lv[(size_t)(slot - b->ids) * b->nruns + run] = m;
}

/* Order metric indices by their metric's id (qsort_r is not portable). */
static const struct store_metric *changes_sort_ms;

static int
changes_ms_cmp(const void *a, const void *b)
{
	int64_t	x = changes_sort_ms[*(const size_t *)a].id;
	int64_t	y = changes_sort_ms[*(const size_t *)b].id;

	return (x > y) - (x < y);
}

/*
 * The change points of metrics ms[0..nms) over runs[0..nruns) (the
 * host's complete runs, oldest first), appended to *out in ms order.
 * The history is read run by run for blocks of metrics (by id), each
 * run's levels of a block in one range of the store, where reading it
 * metric by metric took a seek per metric and run: over bench/store's
 * 200 metrics x 3650 runs that reading was half of `perfwatch changes`.
 */
static int
changes_host(struct store *st, const struct store_metric *ms, size_t nms,
    const struct store_run *runs, size_t nruns, const char *host,
    const struct cp_params *cpp, struct detect_change **out, size_t *nout,
    char **cause)
{
	struct changes_block	  b;
	struct cp_change	 *cp;
	struct cp_tables	 *tables;
	struct detect_change	**per;
	const char		**labels;
	double			 *x;
	int64_t			 *ids, *bids;
	size_t			 *order, *nper, bmax, b0, nb, k, i, n, ncp, mi;
	int			  rc = -1;

	if (nruns == 0 || nms == 0)
		return 0;
	ids = xreallocarray(NULL, nruns, sizeof(*ids));
	for (i = 0; i < nruns; i++)
		ids[i] = runs[i].id;
	order = xreallocarray(NULL, nms, sizeof(*order));
	for (mi = 0; mi < nms; mi++)
		order[mi] = mi;
	changes_sort_ms = ms;
	qsort(order, nms, sizeof(*order), changes_ms_cmp);
	bmax = changes_levels_max / nruns;
	if (bmax == 0)
		bmax = 1;
	bids = xreallocarray(NULL, bmax < nms ? bmax : nms, sizeof(*bids));
	b.lv = xreallocarray(NULL, (bmax < nms ? bmax : nms) * nruns,
	    sizeof(*b.lv));
	x = xreallocarray(NULL, nruns, sizeof(*x));
	labels = xreallocarray(NULL, nruns, sizeof(*labels));
	per = xcalloc(nms, sizeof(*per));
	nper = xcalloc(nms, sizeof(*nper));
	/* The exact tables of U, the same for every metric's scan. */
	tables = cp_tables_new();
	for (b0 = 0; b0 < nms; b0 += nb) {
		nb = nms - b0 < bmax ? nms - b0 : bmax;
		for (k = 0; k < nb; k++)
			bids[k] = ms[order[b0 + k]].id;
		for (i = 0; i < nb * nruns; i++)
			b.lv[i] = NAN;
		b.ids = bids;
		b.nids = nb;
		b.nruns = nruns;
		if (store_runs_samples(st, ids, nruns, bids[0], bids[nb - 1],
		    changes_level, &b) == -1) {
			xasprintf(cause, "%s", store_errmsg(st));
			goto out;
		}
		for (k = 0; k < nb; k++) {
			mi = order[b0 + k];
			for (i = 0, n = 0; i < nruns; i++) {
				if (isnan(b.lv[k * nruns + i]))
					continue;
				x[n] = b.lv[k * nruns + i];
				labels[n++] = runs[i].label;
			}
			if (n == 0)
				continue;
			if (cp_detect_with(x, n, cpp, tables, &cp,
			    &ncp) == -1) {
				xasprintf(cause, "%s %s: change-point detection "
				    "failed", ms[mi].workload, ms[mi].metric);
				goto out;
			}
			for (i = 0; i < ncp; i++)
				detect_change_push(&per[mi], &nper[mi],
				    &ms[mi], host, labels[cp[i].index],
				    labels[cp[i].index + cp[i].length - 1],
				    n, &cp[i]);
			free(cp);
		}
	}
	for (mi = 0; mi < nms; mi++) {
		if (nper[mi] == 0)
			continue;
		*out = xreallocarray(*out, *nout + nper[mi], sizeof(**out));
		memcpy(*out + *nout, per[mi], nper[mi] * sizeof(**out));
		*nout += nper[mi];
		free(per[mi]);
		per[mi] = NULL;
		nper[mi] = 0;
	}
	rc = 0;
out:
	cp_tables_free(tables);
	for (mi = 0; mi < nms; mi++)
		detect_changes_free(per[mi], nper[mi]);
	free(per);
	free(nper);
	free(labels);
	free(x);
	free(b.lv);
	free(bids);
	free(order);
	free(ids);
	return rc;
}

/* Order host names for qsort. */
static int
changes_host_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The change points of every metric matching workload and metric (NULL:
 * any) on host (NULL: each host in turn), over the medians of its
 * complete runs but a bisection's, oldest first, with cp_detect() and
 * parameters cp (NULL: its defaults).  *out is sorted by host, metric and
 * run.
 */
int
detect_changes(struct store *st, const char *host, const char *workload,
    const char *metric, const struct cp_params *cpp,
    struct detect_change **out, size_t *nout, char **cause)
{
	struct store_run_filter	 f;
	struct store_run	*all = NULL, *runs = NULL;
	struct store_metric	*ms = NULL;
	const char		**hosts = NULL;
	size_t			 nall = 0, nruns = 0, nms = 0, nh = 0;
	size_t			 hi, i, j;
	int			 rc = -1, began;

	*out = NULL;
	*nout = 0;
	/* One snapshot for the whole history: thousands of reads. */
	if ((began = store_read_begin(st)) == -1) {
		xasprintf(cause, "%s", store_errmsg(st));
		return -1;
	}
	if (store_metrics_list(st, workload, metric, &ms, &nms) == -1) {
		xasprintf(cause, "%s", store_errmsg(st));
		goto out;
	}
	memset(&f, 0, sizeof(f));
	f.host = host;
	if (store_runs_list(st, &f, &all, &nall) == -1) {
		xasprintf(cause, "%s", store_errmsg(st));
		goto out;
	}
	for (i = 0; i < nall; i++) {
		for (j = 0; j < nh; j++)
			if (strcmp(hosts[j], all[i].host_name) == 0)
				break;
		if (j == nh) {
			hosts = xreallocarray(hosts, nh + 1, sizeof(*hosts));
			hosts[nh++] = all[i].host_name;
		}
	}
	/* By name, as history lists them: they came in order of first run. */
	qsort(hosts, nh, sizeof(*hosts), changes_host_cmp);
	for (hi = 0; hi < nh; hi++) {
		f.host = hosts[hi];
		f.status = RUN_COMPLETE;
		if (store_runs_list(st, &f, &runs, &nruns) == -1) {
			xasprintf(cause, "%s", store_errmsg(st));
			goto out;
		}
		/*
		 * A bisection's runs measure its commits, not the host's
		 * history, and a busy machine's runs measure the machine
		 * and whatever else it ran: left out, as from the rolling
		 * baseline.  Their indices are kept in ids' order, so runs[]
		 * is compacted.
		 */
		for (i = 0, j = 0; i < nruns; i++) {
			if (!detect_run_counts(&runs[i])) {
				store_run_clear(&runs[i]);
				continue;
			}
			if (j != i)
				runs[j] = runs[i];
			j++;
		}
		nruns = j;
		if (changes_host(st, ms, nms, runs, nruns, hosts[hi], cpp, out,
		    nout, cause) == -1)
			goto out;
		store_runs_free(runs, nruns);
		runs = NULL;
		nruns = 0;
	}
	rc = 0;
out:
	if (rc == -1) {
		detect_changes_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	store_runs_free(runs, nruns);
	store_runs_free(all, nall);
	store_metrics_free(ms, nms);
	free(hosts);
	store_read_end(st, began);
	return rc;
}

void
detect_changes_free(struct detect_change *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		store_metric_clear(&c[i].metric);
		free(c[i].host);
		free(c[i].run);
		free(c[i].last_run);
	}
	free(c);
}
