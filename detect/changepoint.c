/*
 * Change points over a history of run medians.
 *
 * Design notes
 * ------------
 * Input: one value per run (the run's median), oldest first.  Output: where
 * the level changed (a step: the new level lasts) and which runs stood out
 * and came back (a spike: one or two runs).  Each change carries the index
 * of its first run, the median levels before and after, the change in
 * percent and a family-wise p-value.
 *
 * Why this method.  Run histories are not normal and not stationary: they
 * carry outliers (a run at half speed), slow drifts (a filling disk, the
 * season) and real steps.  Three choices follow:
 *
 * 1. A rank test, not a mean test.  A candidate split t is judged by the
 *    Mann-Whitney U test between the window of up to `window` runs before
 *    t and the window after (stats_mwu, 'auto' method: exact for short
 *    windows without ties).  One wild run moves a rank sum by one rank, so
 *    spikes do not make steps.
 *
 * 2. Local windows and a practical floor.  Over a whole history a drift
 *    of 0.03% a run adds up to a "significant" difference between any two
 *    halves; compared over `window` runs on each side it does not reach
 *    the floor `min_change` (a median-to-median change in percent), while
 *    a real step does.  Windows never cross an accepted step, so a small
 *    shift next to a large one is measured against its own neighbours.
 *
 * 3. Multiple testing.  A scan tries every split of a segment; the p-value
 *    of a split is Bonferroni-adjusted by the number of splits scanned in
 *    its segment (the windows overlap, so this is conservative).  Under a
 *    series of independent, identically distributed runs every split has
 *    a valid p-value, so the chance of a false step is at most alpha.
 *
 * Search: forward selection with backward elimination.  Forward: among
 * all splits of all segments that pass both tests (adjusted p < alpha,
 * |change| >= min_change), accept the one with the smallest p (then the
 * largest change).  Rank statistics saturate (every split with complete
 * separation has the same p), so the first pick may be the wrong one of
 * two nearby shifts; backward elimination repairs that: every accepted
 * step is re-tested between its neighbouring steps, and the weakest that
 * fails is dropped, until all pass; then forward again.  Both phases use
 * the same test, so the loop settles; it is bounded all the same.
 *
 * Excursions.  A split's windows cannot see a level that moved and came
 * back within half a window: 10 runs 15% slow among 100 leave the median
 * of both windows of every split at the old level, and nothing was
 * reported.  So the forward step also tries every excursion [u, u + len),
 * len from min_seg to window, its runs against the up to `window` runs
 * before and after it together (the two-change test of circular binary
 * segmentation, in local windows), Bonferroni-adjusted over the
 * excursions of the segment.  One stronger than every split adds both
 * ends at once, and only if both pass the split test between their new
 * neighbours, so backward elimination keeps what forward adds.  Rank
 * tests take autocorrelation for change, and excursions, being short,
 * most of all: on AR(1) noise of phi 0.5 they raised the series with a
 * false step from 12 to 90 of 500 (bench/changes).  So an excursion's z
 * is divided by the AR(1) widening (stats_ar1_inflation) of the noise's
 * lag-1 correlation, estimated from
 * the first differences (whose own lag-1 correlation is -(1 - phi) / 2),
 * without those beyond 3 MADs (the steps themselves) and less one
 * standard error (cp_noise_phi).  The ends of the excursion taken are
 * then placed by least absolute deviations among the candidates that
 * passed around it (cp_place_excursion), which a rank test cannot do
 * where complete separations saturate; so are two splits of a segment
 * whose tests tie (cp_place_split: a step's edge run beyond every run
 * of the other window separates the windows a run off as well, and 3%
 * of clean 12-25% steps were put a run early or late), and the split
 * taken among its passing neighbours (cp_refine_split: the rank test's
 * p favours even windows, so a step with few runs after it was put
 * early: a 12% step at 1% noise with 8 runs after it at its first run in
 * 899 of 1000 series, with 4 in 877; now 999 and 1000), walking on
 * while the best lies at the edge of that look (cp_walk_split).  Once
 * the search has settled, every step is placed again so between its
 * final neighbours (cp_polish): a split placed before the next step was
 * found weighed a stretch with three levels in it.  Two steps one after
 * the other in a short history (as the bonnie runs of Red Hat, SCO HTFS
 * and SCO EAFS) came out both at their first runs in 769 of 1000 series,
 * with one of them lost in 171; now 1000 (bench/changes, staircases).
 * Every U
 * comes from prefix sums of the pairwise comparisons (cp_ctx below), O(1)
 * a test, and its p from the exact distribution when its tail is short: the
 * normal approximation overstates the p of a short range wholly above
 * the rest, which would let a shorter candidate beat the right one.
 *
 * Spikes are found after the steps, inside each segment: one or two runs
 * whose mean lies far from their neighbours (up to `window` runs each
 * side, at least one after, none across a step), by a two-sided
 * prediction t statistic (x - mean) / (sd sqrt(1/k + 1/n)) with n - 1
 * degrees of freedom, Bonferroni-adjusted over every candidate tested,
 * each run beyond min_change in the same direction, and the level back
 * on each side taken alone (cp_spike_back()).  Accepted spikes are
 * taken out of the others' neighbourhoods.  Under normal noise this
 * p-value is exact; heavy tails make it liberal, which the floor tempers.
 * Spikes that touch and lean the same way are then one (three slow runs
 * were a spike of two and one of one); an excursion of 3 to about 6 runs
 * is thus a spike of that many runs, one longer two steps.
 *
 * What we measured (defaults: window 30, min_seg 3, alpha 0.01,
 * min_change 5%; tests/unit/test_stats.c asserts the first two, on the
 * first 200 of the noise seeds, where 2 of 200 series have a change, and
 * the excursions; bench/changes prints the rest, bench/README.md has its
 * tables before and after the excursions):
 *   - Excursions of 15%, 150 runs, 100 series a length (bench/changes):
 *     at 1% noise, 8 to 30 runs are two steps at exactly their first run
 *     and the run after in 100 of 100 series, 5 and 6 runs in 88 and 96
 *     (the rest one spike), 3 runs one spike of three in 100; at 3%
 *     noise 8 to 30 runs 94-100 of 100.  Before: 8 to 12 runs gave
 *     nothing in 79-100 of 100, 15 to 25 runs two steps in 22-44 (the
 *     rest misplaced), 3 to 6 runs a spike of two and more.
 *   - TigerBeetle's 365 demo results (Apache Otava's test data): steps at
 *     15 (26745 -> 23677.5, -11.5%, p 1e-5 with the exact tail, 2e-4
 *     from the normal one) and 71 (+19.5%, p 6e-15), a
 *     spike at 10 (-41%), nothing else; 363 (+8.7%) just misses as a
 *     spike (adjusted p 0.013).  The shifts at 61-63 (+3.5%) and 95 (-4%)
 *     are significant but under the floor, as in Otava with its 5%
 *     magnitude; with the floor at 0 they are reported, with drift steps
 *     at 114, 131 and 192, and runs 142-147 (+3.4%) as an excursion.
 *   - No change, 500 series of 200 runs (bench/changes, seeds
 *     1000..1499), a change of any kind / a step / a step with the floor
 *     at 0: independent N(100, 10) 3 / 2 / 2 (before the excursions
 *     2 / 1 / 1), so the tests alone hold the rate under alpha; Student
 *     t3 (scale 3) 415 / 0 / 1, the same before: its tails are outliers
 *     by a normal yardstick, and spikes; AR(1) of phi 0.5 (sd 3) 48 / 16
 *     / 152 (44 / 12 / 141 before; 110 / 90 / 254 without the
 *     excursions' AR(1) widening): rank tests take autocorrelation for
 *     change, so on drifting histories the floor does the work (the
 *     verdict engine widens its noise with stats_ar1_inflation instead);
 *     AR(1) of phi 0.8: 234 / 191 / 470 (231 / 188 / 467).  In one
 *     series of those 500 the search used to cycle until its 4n rounds
 *     ran out, before and after the excursions; a set of steps met again
 *     now ends it, and every figure of bench/changes stayed the same.
 *   - Speed: `perfwatch changes` over bench/store's 200 metrics of
 *     3650 runs, 3.0-3.3 s (16.0 G instructions, 7.4 G of them in
 *     cp_detect), where it took 7.2-7.4 s (37.1 G, 28.6 G) before every
 *     U came from prefix sums, the p that surely fail and the levels
 *     nobody reads were skipped, spike candidates gated by a sliding
 *     median, and the exact tables shared by the metrics; 21.4-25.4 s
 *     before medians were selected rather than sorted and the samples
 *     read run by run (bench/README.md).
 *
 * Invariants: steps are sorted, at least min_seg runs apart and from both
 * ends; a spike never spans a step; input is never modified.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"
#include "stats.h"

/* How far either side of a split cp_refine_split() looks, in runs. */
#define CP_PLACE_RUNS	4

/* The longest tail of U summed exactly (cp_u_p()). */
#define CP_EXACT_TAIL	64

/* The test of one candidate (a split, an excursion or a spike). */
struct cp_eval {
	double	p;		/* adjusted */
	double	before;
	double	after;
	double	change_pct;
	int	ok;		/* significant and large enough */
};

/* Fill p with the defaults documented in stats.h. */
void
cp_params_default(struct cp_params *p)
{
	p->window = 30;
	p->min_seg = 3;
	p->alpha = 0.01;
	p->min_change = 5.0;
	p->spikes = 1;
}

/* Name a change kind for output. */
const char *
cp_kind_name(enum cp_kind kind)
{
	return (kind == CP_SPIKE ? "spike" : "step");
}

/* Return the change from before to after in percent of |before|. */
static double
cp_pct(double before, double after)
{
	if (before == 0)
		return (after == 0 ? 0 : copysign(HUGE_VAL, after));
	return ((after - before) / fabs(before) * 100);
}

/* Return the median of x[lo..hi), hi > lo. */
static double
cp_median(const double *x, size_t lo, size_t hi)
{
	double	m;

	if (stats_median(x + lo, hi - lo, &m) == -1)
		fatalx("cp_median: empty range");
	return (m);
}

/*
 * Where a p surely fails its family's test, so that it need not be
 * computed.  A scan asks of most of its candidates only whether they
 * pass, and most do not; the normal distribution function (GSL's, with
 * an exp) of each one's p was half the time of a scan.  A p passes only
 * if p m < alpha: under the normal approximation, if z > zc =
 * -Phi^-1(alpha / 2m), for an excursion zc times its AR(1) widening.  So
 * with g.z = zc - CP_GATE_MARGIN (widened), a z at most g.z fails, and
 * so does an exact p at least g.p = 2 Phi(-g.z): 0.001 in z is at least
 * 0.001 of p, where Phi and its inverse round at 1e-15.  A candidate the
 * gate lets through has its p computed as before, bit for bit.
 */
struct cp_gate {
	size_t	m;		/* the family's size; 0 not set */
	int	sure;		/* 0: alpha / 2m too small to tell */
	double	z;
	double	p;
};

#define CP_GATE_MARGIN	1e-3

/*
 * The exact distributions of U, by sample sizes: tables[small * large_cap
 * + large] holds P(U <= k) for k up to min(small large - 1, CP_EXACT_TAIL),
 * or NULL until asked for.  They depend on the sizes alone, so a caller
 * that scans many series keeps one set for all (cp_detect_with()):
 * `perfwatch changes` computed the same tables for each of its 200
 * metrics, a fifth of a scan once the rest was fast.
 */
struct cp_tables {
	double	**t;
	size_t	  small_cap;
	size_t	  large_cap;
};

/*
 * What the rank tests of one series share.  A split or an excursion
 * compares the runs of one range with those around it, up to a window
 * each side; its U is the sum, over the pairs of an inside run i and an
 * outside run j, of whether x[i] exceeds x[j], in halves (a tie is one).
 * Those pairs are a rectangle of the matrix of pairwise comparisons, a
 * band of it (|i - j| <= 2 window): so the context keeps that matrix's
 * two-dimensional prefix sums, G(i, k) = the halves of the pairs i' < i,
 * j < k, within R = 2 window + 1 of the diagonal, for k from i - R to
 * i + R + 1, and any U is eight lookups, O(1) (it was a sum over the
 * inside runs, O(len), and before that a sort of the pooled runs,
 * O((len + 2 window) log)).  A tie counts a half in U as in the rank-sum
 * form; its p is taken without the tie correction (which only narrows
 * the null's sd, so this errs on the side of no change), and its exact
 * tail from the no-tie distribution at U rounded away from the middle.
 * The tables of the exact distribution are kept by sample sizes.  A
 * series too long for a band of this window takes the slow way
 * (stats_mwu(), tie corrected), without excursions.
 */
struct cp_ctx {
	const double		*x;
	size_t			 n;
	const struct cp_params	*par;
	size_t			 radius;	/* R */
	size_t			 width;		/* 2R + 2 entries a run */
	uint32_t		*pre;		/* G, n + 1 rows; or NULL */
	struct cp_tables	*tables;	/* the caller's, or own */
	struct cp_tables	*own;
	size_t			 exact_small;	/* sizes looked up: below */
	size_t			 exact_large;
	double			*buf;		/* 2 window + 1 values */
	double			 inflate;	/* excursions' AR(1) widening */
	struct cp_gate		 gate[2];	/* splits', excursions' */
};

/*
 * The most band entries a series may take (4 bytes each, 2 when they
 * were per-run counts): 32 MB, 66000 runs at the default window.  Beyond
 * it, splits sort their windows (stats_mwu()) and excursions are not
 * looked for: sorted that way, each costs O((len + 2 window) log) and
 * there are window times the runs of them (a window of 600 on 3650 runs,
 * past this bound, took 12.8 s for its splits alone).
 */
#define CP_BAND_MAX	(8u << 20)

/*
 * The lag-1 autocorrelation of a series' noise, hardly moved by its
 * steps and spikes: from the first differences, whose own lag-1
 * correlation is -(1 - phi) / 2 for AR(1) noise of phi (-1/2 for
 * independent runs).  A step is one wild difference, a spike two: those
 * beyond 3 MADs of the median difference are set to it, so that they
 * add nothing (clipped, a 10-run excursion of 15% in 1% noise still put
 * phi at 0.14 on average over 500 series of 150 runs, 0.41 at the 97.5th
 * percentile).  The
 * estimate is uncertain by 1.41 / sqrt(n) (Bartlett's variance of the
 * lag-1 correlation of differenced white noise, 0.5 / n, doubled): one
 * standard error is taken off, so that independent runs are seldom
 * judged correlated.  0 for series of fewer than 10 runs.
 */
static double
cp_noise_phi(const double *x, size_t n)
{
	double	*d, med, mad, rho, phi;
	size_t	 i;

	if (n < 10)
		return (0);
	d = xreallocarray(NULL, n - 1, sizeof(*d));
	for (i = 0; i + 1 < n; i++)
		d[i] = x[i + 1] - x[i];
	phi = 0;
	if (stats_median(d, n - 1, &med) == 0 &&
	    stats_mad(d, n - 1, &mad) == 0 && mad > 0) {
		for (i = 0; i + 1 < n; i++)
			if (fabs(d[i] - med) > 3 * mad)
				d[i] = med;
		if (stats_lag1_autocorr(d, n - 1, &rho) == 0)
			phi = 1 + 2 * rho - 1.41 / sqrt((double)(n - 1));
	}
	free(d);
	return (phi < 0 ? 0 : phi > 0.9 ? 0.9 : phi);
}

/* Make room in tb for sizes below small and large, keeping its tables. */
static void
cp_tables_fit(struct cp_tables *tb, size_t small, size_t large)
{
	double	**t;
	size_t	  i, j;

	if (small <= tb->small_cap && large <= tb->large_cap)
		return;
	if (small < tb->small_cap)
		small = tb->small_cap;
	if (large < tb->large_cap)
		large = tb->large_cap;
	t = xcalloc(small * large, sizeof(*t));
	for (i = 0; i < tb->small_cap; i++)
		for (j = 0; j < tb->large_cap; j++)
			t[i * large + j] = tb->t[i * tb->large_cap + j];
	free(tb->t);
	tb->t = t;
	tb->small_cap = small;
	tb->large_cap = large;
}

/* A set of exact tables for cp_detect_with(), empty. */
struct cp_tables *
cp_tables_new(void)
{
	return (xcalloc(1, sizeof(struct cp_tables)));
}

void
cp_tables_free(struct cp_tables *tb)
{
	size_t	i;

	if (tb == NULL)
		return;
	for (i = 0; i < tb->small_cap * tb->large_cap; i++)
		free(tb->t[i]);
	free(tb->t);
	free(tb);
}

/* Set up c for series x[0..n), with tables (NULL: its own). */
static void
cp_ctx_init(struct cp_ctx *c, const double *x, size_t n,
    const struct cp_params *par, struct cp_tables *tables)
{
	uint32_t f;
	size_t	 i, k, j, kend, last;

	memset(c, 0, sizeof(*c));
	c->x = x;
	c->n = n;
	c->par = par;
	c->buf = xreallocarray(NULL, 2 * par->window + 1, sizeof(*c->buf));
	c->exact_small = par->window + 1;
	c->exact_large = 2 * par->window + 1;
	if (tables == NULL)
		tables = c->own = cp_tables_new();
	cp_tables_fit(tables, c->exact_small, c->exact_large);
	c->tables = tables;
	c->inflate = stats_ar1_inflation(cp_noise_phi(x, n));
	c->radius = 2 * par->window + 1;
	c->width = 2 * c->radius + 2;
	if (c->width > CP_BAND_MAX / n)
		return;
	/* Row 0 is 0; each row after is written whole from the one before. */
	c->pre = xreallocarray(NULL, (n + 1) * c->width, sizeof(*c->pre));
	memset(c->pre, 0, c->width * sizeof(*c->pre));
	last = c->width - 1;
	for (i = 0; i < n; i++) {
		const uint32_t	*g = c->pre + i * c->width;
		uint32_t	*h = c->pre + (i + 1) * c->width;

		/*
		 * h[k] = G(i + 1, i + 1 - R + k): g's entry for that column
		 * plus f, the halves of row i before it, of runs
		 * j = i - R + k' for k' <= k inside [0, n).  Past g's last
		 * column every earlier row's band has ended: its last.
		 */
		k = i < c->radius ? c->radius - i : 0;
		for (j = 0; j < k; j++)
			h[j] = g[j + 1];
		kend = n + c->radius - i < last ? n + c->radius - i : last;
		for (f = 0; k < kend; k++) {
			j = i + k - c->radius;
			f += (x[i] > x[j]) + (x[i] >= x[j]);
			h[k] = g[k + 1] + f;
		}
		for (; k < last; k++)
			h[k] = g[k + 1] + f;
		if (i + c->radius + 1 < n) {
			j = i + c->radius + 1;
			f += (x[i] > x[j]) + (x[i] >= x[j]);
		}
		h[last] = g[last] + f;
	}
}

static void
cp_ctx_free(struct cp_ctx *c)
{
	cp_tables_free(c->own);
	free(c->pre);
	free(c->buf);
}

/* G(i, k) of the context's prefix sums, |k - i| <= R. */
static uint32_t
cp_pre(const struct cp_ctx *c, size_t i, size_t k)
{
	return (c->pre[i * c->width + (k + c->radius - i)]);
}

/*
 * Twice the U of runs [p, q) against [lo, p) and [q, hi), by the prefix
 * sums: the rectangles [p, q) x [lo, p) and [p, q) x [q, hi).  The ranges
 * of a test lie within a window of each other, so every corner is in the
 * band.  Unsigned arithmetic wraps, and the sum is exact.
 */
static size_t
cp_pre_u2(const struct cp_ctx *c, size_t lo, size_t p, size_t q, size_t hi)
{
	uint32_t	u2;

	u2 = (cp_pre(c, q, p) - cp_pre(c, p, p)) -
	    (cp_pre(c, q, lo) - cp_pre(c, p, lo)) +
	    (cp_pre(c, q, hi) - cp_pre(c, p, hi)) -
	    (cp_pre(c, q, q) - cp_pre(c, p, q));
	return (u2);
}

/*
 * Two-sided p of a U of samples of nx and ny values without ties, or 1
 * for one that gate g (NULL: none) says fails.  The
 * normal approximation overstates how rare a sample wholly above or below
 * the other is (3 runs above 60: 0.0037 where the exact p is 5e-5; 10
 * above 60: 5e-7 against 5e-12), and by more the shorter the sample,
 * which would make a short candidate beat the right, longer one.  So when
 * the shorter tail of U is at most CP_EXACT_TAIL the exact tail counts;
 * beyond it p is far from any threshold (a tail of 64 is z 3.4 for 8
 * values against 60, more for larger samples).
 */
static double
cp_u_p(struct cp_ctx *c, size_t nx, size_t ny, double u,
    const struct cp_gate *g)
{
	double	mn, lo, z, p, **t;
	size_t	small, large, kmax, k;

	mn = (double)nx * (double)ny;
	lo = u < mn - u ? u : mn - u;
	small = nx < ny ? nx : ny;
	large = nx < ny ? ny : nx;
	if (lo <= CP_EXACT_TAIL && small < c->exact_small &&
	    large < c->exact_large) {
		t = &c->tables->t[small * c->tables->large_cap + large];
		kmax = mn - 1 < CP_EXACT_TAIL ? (size_t)mn - 1 : CP_EXACT_TAIL;
		if (*t == NULL) {
			*t = xreallocarray(NULL, kmax + 1, sizeof(**t));
			if (stats_mwu_cdf_table(small, large, kmax, *t) == -1)
				fatalx("cp_u_p: no exact table");
		}
		k = (size_t)ceil(lo);
		p = k <= kmax ? 2 * (*t)[k] : 1;
		if (g != NULL && p >= g->p)
			return (1);
	} else {
		z = ((mn - lo) - mn / 2 - 0.5) /
		    sqrt(mn / 12 * ((double)(nx + ny) + 1));
		if (g != NULL && z <= g->z)
			return (1);
		p = 2 * stats_norm_cdf(-z);
	}
	return (p > 1 ? 1 : p);
}

/*
 * The gate of a family of m splits (exc 0) or excursions (exc 1) of c
 * (struct cp_gate), set anew when m changes; NULL, no gate, where alpha
 * / 2m is too near the smallest double for its quantile to be sure.
 */
static const struct cp_gate *
cp_gate(struct cp_ctx *c, int exc, size_t m)
{
	struct cp_gate	*g = &c->gate[exc];
	double		 q, zc;

	if (m == 0)
		return (NULL);
	if (g->m != m) {
		g->m = m;
		q = c->par->alpha / (2 * (double)m);
		if (!(g->sure = q > 1e-280))
			return (NULL);
		zc = -stats_norm_quantile(q);
		g->z = (zc - CP_GATE_MARGIN) *
		    (exc && c->inflate > 1 ? c->inflate : 1);
		g->p = 2 * stats_norm_cdf(-g->z);
	}
	return (g->sure ? g : NULL);
}

/*
 * Two-sided Mann-Whitney p of runs [p, q) against [lo, p) and [q, hi):
 * by the prefix sums, or with ties by stats_mwu() (normal, tie corrected,
 * as the exact distribution assumes none); 1 where gate g (NULL: none)
 * says it fails.
 */
static double
cp_range_p(struct cp_ctx *c, size_t lo, size_t p, size_t q, size_t hi,
    const struct cp_gate *g)
{
	struct stats_mwu	mwu;
	size_t			nout = 0, j;

	if (c->pre != NULL)
		return (cp_u_p(c, q - p, (p - lo) + (hi - q),
		    (double)cp_pre_u2(c, lo, p, q, hi) / 2, g));
	for (j = lo; j < p; j++)
		c->buf[nout++] = c->x[j];
	for (j = q; j < hi; j++)
		c->buf[nout++] = c->x[j];
	if (stats_mwu(c->x + p, q - p, c->buf, nout, STATS_TWO_SIDED,
	    STATS_MWU_ASYMPTOTIC, &mwu) == -1)
		fatalx("cp_range_p: bad samples");
	if (!mwu.ties)
		return (cp_u_p(c, q - p, nout, mwu.u, g));
	return (mwu.p);
}

/*
 * Test the split at t of segment [a, b): the window of up to par->window
 * runs before t against the one after, both inside the segment.  The
 * caller guarantees min_seg runs on each side.  With levels 0 the medians
 * are taken only if p passes: the caller asks whether the split passes,
 * and one whose p does not cannot (the scans of every split, where
 * selecting two medians a split cost more than its rank test).
 */
static void
cp_eval_split(struct cp_ctx *c, size_t a, size_t b, size_t t, int levels,
    struct cp_eval *ev)
{
	const struct cp_params	*par = c->par;
	size_t			 lo, hi, m;

	lo = t - a > par->window ? t - par->window : a;
	hi = b - t > par->window ? t + par->window : b;
	m = (b - a) - 2 * par->min_seg + 1;
	ev->p = cp_range_p(c, lo, t, hi, hi, levels ? NULL :
	    cp_gate(c, 0, m)) * (double)m;
	if (ev->p > 1)
		ev->p = 1;
	if (!levels && !(ev->p < par->alpha)) {
		ev->before = ev->after = ev->change_pct = 0;
		ev->ok = 0;
		return;
	}
	ev->before = cp_median(c->x, lo, t);
	ev->after = cp_median(c->x, t, hi);
	ev->change_pct = cp_pct(ev->before, ev->after);
	ev->ok = ev->p < par->alpha && fabs(ev->change_pct) >= par->min_change;
}

/* Tell whether e is stronger than f: smaller p, then larger change. */
static int
cp_stronger(const struct cp_eval *e, const struct cp_eval *f)
{
	if (e->p != f->p)
		return (e->p < f->p);
	return (fabs(e->change_pct) > fabs(f->change_pct));
}

/*
 * The number of excursions [u, u + len) that cp_forward() tries in
 * segment [a, b): len from min_seg to window, with min_seg runs of the
 * segment on each side.
 */
static size_t
cp_excursions(size_t a, size_t b, const struct cp_params *par)
{
	size_t	len, m = 0, room;

	if (b - a < 3 * par->min_seg)
		return (0);
	room = b - a - 2 * par->min_seg;
	for (len = par->min_seg; len <= par->window && len <= room; len++)
		m += room - len + 1;
	return (m);
}

/*
 * The p of runs [u, u + len) of segment [a, b) as an excursion, in a
 * family of m (cp_eval_excursion()), or 1 where its gate says it fails.
 */
static double
cp_excursion_p(struct cp_ctx *c, size_t a, size_t b, size_t u, size_t len,
    size_t m)
{
	const struct cp_params	*par = c->par;
	double			 p;
	size_t			 lo, hi, v = u + len;

	lo = u - a > par->window ? u - par->window : a;
	hi = b - v > par->window ? v + par->window : b;
	p = cp_range_p(c, lo, u, v, hi, cp_gate(c, 1, m));
	if (c->inflate > 1 && p > 0 && p < 1)
		p = 2 * stats_norm_cdf(stats_norm_quantile(p / 2) /
		    c->inflate);
	p *= (double)m;
	return (p > 1 ? 1 : p);
}

/*
 * Mark in may[(len - min_seg) (b - a) + u - a] whether each excursion
 * [u, u + len) that cp_forward() tries in segment [a, b) (a family of m)
 * may pass: whether its p does.  Run by run, each length in turn, so
 * that the prefix rows a test reads stay in the cache from one run to
 * the next, where the scan's own order (each length over the whole
 * segment) read all of them again for each length, from memory.
 */
static void
cp_excursion_scan(struct cp_ctx *c, size_t a, size_t b, size_t m,
    unsigned char *may)
{
	const struct cp_params	*par = c->par;
	size_t			 u, len;

	for (u = a + par->min_seg; u + 2 * par->min_seg <= b; u++)
		for (len = par->min_seg; len <= par->window &&
		    u + len + par->min_seg <= b; len++)
			may[(len - par->min_seg) * (b - a) + (u - a)] =
			    !(cp_excursion_p(c, a, b, u, len, m) >=
			    par->alpha);
}

/*
 * Test runs [u, u + len) of segment [a, b) as an excursion, in a family
 * of m: against the up to par->window runs before u and after u + len
 * inside the segment, together.  The levels only when p passes.
 */
static void
cp_eval_excursion(struct cp_ctx *c, size_t a, size_t b, size_t u,
    size_t len, size_t m, struct cp_eval *ev)
{
	const struct cp_params	*par = c->par;
	size_t			 lo, hi, v = u + len, nout = 0, j;

	memset(ev, 0, sizeof(*ev));
	ev->p = cp_excursion_p(c, a, b, u, len, m);
	if (ev->p >= par->alpha)
		return;
	lo = u - a > par->window ? u - par->window : a;
	hi = b - v > par->window ? v + par->window : b;
	for (j = lo; j < u; j++)
		c->buf[nout++] = c->x[j];
	for (j = v; j < hi; j++)
		c->buf[nout++] = c->x[j];
	if (stats_median(c->buf, nout, &ev->before) == -1)
		fatalx("cp_eval_excursion: no neighbours");
	ev->after = cp_median(c->x, u, v);
	ev->change_pct = cp_pct(ev->before, ev->after);
	ev->ok = fabs(ev->change_pct) >= par->min_change;
}

/*
 * Test step i of s[0..ns) between its neighbouring steps (levels as
 * cp_eval_split()).
 */
static void
cp_eval_step(struct cp_ctx *c, const size_t *s, size_t ns, size_t i,
    int levels, struct cp_eval *ev)
{
	size_t	a, b;

	a = i == 0 ? 0 : s[i - 1];
	b = i + 1 == ns ? c->n : s[i + 1];
	cp_eval_split(c, a, b, s[i], levels, ev);
}

/*
 * Whether both ends of excursion [u, v) in segment seg of the steps
 * s[0..ns) pass as steps once inserted (into t, room for ns + 2).
 */
static int
cp_excursion_holds(struct cp_ctx *c, const size_t *s, size_t ns, size_t seg,
    size_t u, size_t v, size_t *t)
{
	struct cp_eval	ev;

	memcpy(t, s, seg * sizeof(*t));
	t[seg] = u;
	t[seg + 1] = v;
	memcpy(t + seg + 2, s + seg, (ns - seg) * sizeof(*t));
	cp_eval_step(c, t, ns + 2, seg, 0, &ev);
	if (!ev.ok)
		return (0);
	cp_eval_step(c, t, ns + 2, seg + 1, 0, &ev);
	return (ev.ok);
}

/* The sum of |x[i] - median| over x[0..n), n > 0 (x is reordered). */
static double
cp_l1(double *x, size_t n)
{
	double	m, sum = 0;
	size_t	i;

	if (stats_median(x, n, &m) == -1)
		fatalx("cp_l1: empty");
	for (i = 0; i < n; i++)
		sum += fabs(x[i] - m);
	return (sum);
}

/*
 * The cost of splitting runs [lo, hi) at t: the absolute deviations of
 * each side from its own median.  buf holds hi - lo values.
 */
static double
cp_split_cost(const struct cp_ctx *c, size_t lo, size_t t, size_t hi,
    double *buf)
{
	double	cost;
	size_t	i, n;

	for (i = lo, n = 0; i < t; i++)
		buf[n++] = c->x[i];
	cost = cp_l1(buf, n);
	for (i = t, n = 0; i < hi; i++)
		buf[n++] = c->x[i];
	return (cost + cp_l1(buf, n));
}

/*
 * Of splits t1 < t2 of segment [a, b) whose rank tests tie, the one whose
 * runs lie closer to their own side's median (least absolute deviations,
 * over one stretch around both); a tie keeps t1.  The tie is that of two
 * windows wholly apart: a run at a step's edge that happens to lie beyond
 * every run of the other window leaves U at 0 one run early (or late) as
 * well, the same smallest p, and the larger change of the medians, which
 * used to decide, does not see where that run belongs.  A 12% step at 1%
 * noise with the run before it the highest of the 30 before was put a run
 * early (about one step in 30 each way, at any size beyond the noise).
 */
static size_t
cp_place_split(struct cp_ctx *c, size_t a, size_t b, size_t t1, size_t t2)
{
	const struct cp_params	*par = c->par;
	double			*buf, cost[2];
	size_t			 lo, hi;

	lo = t1 - a > par->window ? t1 - par->window : a;
	hi = b - t2 > par->window ? t2 + par->window : b;
	buf = xreallocarray(NULL, hi - lo, sizeof(*buf));
	cost[0] = cp_split_cost(c, lo, t1, hi, buf);
	cost[1] = cp_split_cost(c, lo, t2, hi, buf);
	free(buf);
	return (cost[1] < cost[0] ? t2 : t1);
}

/*
 * Where the split t of segment [a, b) that won goes: of it and the splits
 * up to CP_PLACE_RUNS runs either side that pass as well, the one whose
 * runs lie closest to their own side's median (least absolute deviations
 * over one stretch around them all); a tie keeps t.  The rank test says
 * that the level moved; its p also grows with the balance of the two
 * windows, so near the end of a history, where the window after a step is
 * short, a split early that puts some of the old level's runs among the
 * new ones can have the smaller p: a 15% step at 1% noise with 8 runs
 * after it was put a run early (U 1 of 19 x 9 pairs, one-sided p 2.9e-7
 * before adjustment, beat U 0 of 20 x 8, 3.2e-7), and the step of last
 * week is the one users read.
 */
static size_t
cp_refine_split(struct cp_ctx *c, size_t a, size_t b, size_t t)
{
	const struct cp_params	*par = c->par;
	struct cp_eval		 ev;
	double			*buf, cost, best = HUGE_VAL;
	size_t			 lo, hi, u, first, last, cur = t;

	first = t - a >= par->min_seg + CP_PLACE_RUNS ? t - CP_PLACE_RUNS :
	    a + par->min_seg;
	last = b - t >= par->min_seg + CP_PLACE_RUNS ? t + CP_PLACE_RUNS :
	    b - par->min_seg;
	lo = first - a > par->window ? first - par->window : a;
	hi = b - last > par->window ? last + par->window : b;
	buf = xreallocarray(NULL, hi - lo, sizeof(*buf));
	for (u = first; u <= last; u++) {
		if (u != t) {
			cp_eval_split(c, a, b, u, 0, &ev);
			if (!ev.ok)
				continue;
		}
		cost = cp_split_cost(c, lo, u, hi, buf);
		if (cost < best || (cost == best && u == t)) {
			best = cost;
			cur = u;
		}
	}
	free(buf);
	return (cur);
}

/*
 * cp_refine_split() again and again, while it moves the split the same
 * way: it looks CP_PLACE_RUNS runs either side, and a split that won by
 * balance can lie further than that from the step.  Where a history has
 * three levels falling one after the other, every split between the two
 * steps separates its windows completely, and the rank test's p is
 * smallest at the most balanced of them: the Red Hat and SCO bonnie runs
 * (7 at 18,100 K/sec of block write, 9 at 6,500, 9 at 5,400) gave the
 * split at run 12, which one look put at 8, a run after the step, and
 * the step at 7 could then never be proposed (runs 7 and 8 are closer
 * than min_seg).  Each move lowers the cost over a stretch that takes
 * in the next, and the moves go one way only, so the walk ends within
 * the segment.
 */
static size_t
cp_walk_split(struct cp_ctx *c, size_t a, size_t b, size_t t)
{
	size_t	next;
	int	dir = 0;

	for (;;) {
		next = cp_refine_split(c, a, b, t);
		if (next == t || (dir != 0 && (next < t ? -1 : 1) != dir))
			return (t);
		dir = next < t ? -1 : 1;
		t = next;
	}
}

/*
 * Place every step again between its neighbours, once the search has
 * settled.  A split was placed when it won, among the steps found until
 * then; where a step still to be found lay within a window of it, the
 * stretch its placement weighed took in a third level and could pull it
 * a run or two off: 12% and 12% more 8 to 20 runs later, at 1% noise,
 * put the first step a run or two late in 77 of 1000 histories
 * (bench/changes, staircases).  Between its neighbours the two-level
 * cost is the right one.  Each step walks (cp_walk_split()) in turn,
 * over passes until none moves; a set in which some step no longer
 * passes its test between its new neighbours is not taken.
 */
static void
cp_polish(struct cp_ctx *c, size_t *s, size_t ns)
{
	struct cp_eval	 ev;
	size_t		*was, i, a, b, t, pass;
	int		 moved = 1;

	if (ns == 0)
		return;
	was = xreallocarray(NULL, ns, sizeof(*was));
	memcpy(was, s, ns * sizeof(*s));
	for (pass = 0; moved && pass < 2 * ns + 2; pass++) {
		moved = 0;
		for (i = 0; i < ns; i++) {
			a = i == 0 ? 0 : s[i - 1];
			b = i + 1 == ns ? c->n : s[i + 1];
			if ((t = cp_walk_split(c, a, b, s[i])) != s[i]) {
				s[i] = t;
				moved = 1;
			}
		}
	}
	for (i = 0; i < ns; i++) {
		cp_eval_step(c, s, ns, i, 0, &ev);
		if (!ev.ok) {
			memcpy(s, was, ns * sizeof(*s));
			break;
		}
	}
	free(was);
}

/* An excursion that passed its rank test: [u, v) of segment seg. */
struct cp_cand {
	size_t	seg;
	size_t	u;
	size_t	v;
};

/*
 * Where the ends of the excursion that won go.  A rank test finds that
 * a level moved and came back but cannot place it: a candidate one run
 * longer that takes in a neighbour higher than most of the outside has a
 * U just short of complete separation and, with one more run, a smaller
 * p than the excursion itself (15% over 10 runs at 1% noise: one run off
 * in 16 of 100 series; on TigerBeetle's series with the floor at 0 a step
 * down put 2 runs late).  So of the candidates of that segment that
 * passed and overlap the winner [*u, *v), and pass as steps, the one
 * whose runs before, inside and after lie closest to their own three
 * medians (least absolute deviations, over one stretch around them all)
 * is taken.
 */
static void
cp_place_excursion(struct cp_ctx *c, const size_t *s, size_t ns,
    const struct cp_cand *cand, size_t ncand, size_t seg, size_t *u,
    size_t *v, size_t *tmp)
{
	const struct cp_params	*par = c->par;
	double			*buf, cost, best = HUGE_VAL;
	size_t			 a, b, lo, hi, i, k, n0, n1, n2;
	size_t			 umin = *u, vmax = *v, bu = *u, bv = *v;

	a = seg == 0 ? 0 : s[seg - 1];
	b = seg == ns ? c->n : s[seg];
	for (k = 0; k < ncand; k++) {
		if (cand[k].seg != seg || cand[k].u >= *v || cand[k].v <= *u)
			continue;
		if (cand[k].u < umin)
			umin = cand[k].u;
		if (cand[k].v > vmax)
			vmax = cand[k].v;
	}
	lo = umin - a > par->window ? umin - par->window : a;
	hi = b - vmax > par->window ? vmax + par->window : b;
	buf = xreallocarray(NULL, hi - lo, sizeof(*buf));
	for (k = 0; k < ncand; k++) {
		if (cand[k].seg != seg || cand[k].u >= *v || cand[k].v <= *u)
			continue;
		for (i = lo, n0 = 0; i < cand[k].u; i++)
			buf[n0++] = c->x[i];
		cost = cp_l1(buf, n0);
		for (i = cand[k].u, n1 = 0; i < cand[k].v; i++)
			buf[n1++] = c->x[i];
		cost += cp_l1(buf, n1);
		for (i = cand[k].v, n2 = 0; i < hi; i++)
			buf[n2++] = c->x[i];
		cost += cp_l1(buf, n2);
		/* A tie keeps the rank test's pick. */
		if (cost > best || (cost == best && (cand[k].u != *u ||
		    cand[k].v != *v)))
			continue;
		if ((cand[k].u != *u || cand[k].v != *v) &&
		    !cp_excursion_holds(c, s, ns, seg, cand[k].u, cand[k].v,
		    tmp))
			continue;
		best = cost;
		bu = cand[k].u;
		bv = cand[k].v;
	}
	free(buf);
	*u = bu;
	*v = bv;
}

/*
 * Forward step: find the strongest passing split over every segment that
 * the sorted steps s[0..ns) cut [0, n) into and insert it into s.  Return
 * 1 if one was added, 0 if none passes.
 *
 * A split alone cannot see a level that changed and came back within
 * half a window: 10 runs 15% slower among 100 leave both windows of
 * every split with the old median (measured: nothing was reported for
 * excursions of 8 and 10 runs at 1% noise, and one of 20 runs was put
 * 3 runs late).  So excursions are tried too, every [u, u + len) with
 * len from min_seg to window, its runs against the runs around it (the
 * rank test of circular binary segmentation, in local windows), with p
 * times the number of excursions of the segment.  One that is stronger
 * than every split adds both its ends, if both pass as steps between
 * their new neighbours, so that the backward step keeps them.
 */
static int
cp_forward(struct cp_ctx *c, size_t *s, size_t *ns)
{
	const struct cp_params	*par = c->par;
	struct cp_eval		 ev, best;
	struct cp_cand		*cand = NULL;
	size_t			 seg, a, b, t, len, m, best_t = 0;
	size_t			 best_seg = 0, best_v = 0, *tmp, ncand = 0;
	unsigned char		*may;
	int			 found = 0;

	memset(&best, 0, sizeof(best));
	for (seg = 0; seg <= *ns; seg++) {
		a = seg == 0 ? 0 : s[seg - 1];
		b = seg == *ns ? c->n : s[seg];
		if (b - a < 2 * par->min_seg)
			continue;
		for (t = a + par->min_seg; t + par->min_seg <= b; t++) {
			cp_eval_split(c, a, b, t, 0, &ev);
			if (!ev.ok)
				continue;
			if (found && seg == best_seg && ev.p == best.p &&
			    t - best_t <= par->window) {
				/* Tied ranks: placed by the runs' values. */
				if (cp_place_split(c, a, b, best_t, t) == t) {
					best = ev;
					best_t = t;
				}
				continue;
			}
			if (found && !cp_stronger(&ev, &best))
				continue;
			best = ev;
			best_t = t;
			best_seg = seg;
			found = 1;
		}
	}
	tmp = xreallocarray(NULL, *ns + 2, sizeof(*tmp));
	may = xreallocarray(NULL, par->window, c->n);
	for (seg = 0; seg <= *ns; seg++) {
		a = seg == 0 ? 0 : s[seg - 1];
		b = seg == *ns ? c->n : s[seg];
		if (c->pre == NULL || (m = cp_excursions(a, b, par)) == 0)
			continue;
		cp_excursion_scan(c, a, b, m, may);
		for (len = par->min_seg; len <= par->window; len++) {
			for (t = a + par->min_seg;
			    t + len + par->min_seg <= b; t++) {
				if (!may[(len - par->min_seg) * (b - a) +
				    (t - a)])
					continue;
				cp_eval_excursion(c, a, b, t, len, m, &ev);
				if (!ev.ok)
					continue;
				cand = xreallocarray(cand, ncand + 1,
				    sizeof(*cand));
				cand[ncand].seg = seg;
				cand[ncand].u = t;
				cand[ncand++].v = t + len;
				if ((found && !cp_stronger(&ev, &best)) ||
				    !cp_excursion_holds(c, s, *ns, seg, t,
				    t + len, tmp))
					continue;
				best = ev;
				best_t = t;
				best_v = t + len;
				best_seg = seg;
				found = 1;
			}
		}
	}
	free(may);
	if (!found) {
		free(cand);
		free(tmp);
		return (0);
	}
	if (best_v != 0) {
		cp_place_excursion(c, s, *ns, cand, ncand, best_seg, &best_t,
		    &best_v, tmp);
		free(cand);
		free(tmp);
		memmove(s + best_seg + 2, s + best_seg,
		    (*ns - best_seg) * sizeof(*s));
		s[best_seg] = best_t;
		s[best_seg + 1] = best_v;
		*ns += 2;
		return (1);
	}
	free(cand);
	free(tmp);
	best_t = cp_walk_split(c, best_seg == 0 ? 0 : s[best_seg - 1],
	    best_seg == *ns ? c->n : s[best_seg], best_t);
	memmove(s + best_seg + 1, s + best_seg,
	    (*ns - best_seg) * sizeof(*s));
	s[best_seg] = best_t;
	(*ns)++;
	return (1);
}

/*
 * Backward step: re-test every step between its neighbours and drop the
 * weakest that fails.  Return 1 if one was dropped.
 */
static int
cp_backward(struct cp_ctx *c, size_t *s, size_t *ns)
{
	struct cp_eval	ev, worst;
	size_t		i, worst_i = 0;
	int		found = 0;

	memset(&worst, 0, sizeof(worst));
	for (i = 0; i < *ns; i++) {
		cp_eval_step(c, s, *ns, i, 1, &ev);
		if (ev.ok || (found && !cp_stronger(&worst, &ev)))
			continue;
		worst = ev;
		worst_i = i;
		found = 1;
	}
	if (!found)
		return (0);
	memmove(s + worst_i, s + worst_i + 1,
	    (*ns - worst_i - 1) * sizeof(*s));
	(*ns)--;
	return (1);
}

/*
 * Gather into nb the unmasked neighbours of runs [i, i + k) inside segment
 * [a, b): up to par->window before and after.  Return their number, or 0
 * when there is none on one side or too few overall.
 */
static size_t
cp_neighbours(const double *x, const unsigned char *mask, size_t a,
    size_t b, size_t i, size_t k, const struct cp_params *par, double *nb)
{
	size_t	j, nbefore = 0, nafter = 0, nn = 0;

	for (j = i; j-- > a && nbefore < par->window;) {
		if (!mask[j]) {
			nb[nn++] = x[j];
			nbefore++;
		}
	}
	for (j = i + k; j < b && nafter < par->window; j++) {
		if (!mask[j]) {
			nb[nn++] = x[j];
			nafter++;
		}
	}
	if (nbefore == 0 || nafter == 0 || nn < 2 * par->min_seg)
		return (0);
	return (nn);
}

/*
 * Test runs [i, i + k) as a spike against the neighbours nb[0..nn) (left
 * reordered), with m candidates in the family.  Each run must lie beyond
 * the floor on the same side of the neighbours' median.
 */
static void
cp_eval_spike(const double *x, size_t i, size_t k, double *nb,
    size_t nn, size_t m, const struct cp_params *par, struct cp_eval *ev)
{
	double	mean_s = 0, t, pc, mean, sd = NAN;
	size_t	j;
	int	side = 0;

	memset(ev, 0, sizeof(*ev));
	if (stats_mean(nb, nn, &mean) == -1 ||
	    (nn >= 2 && stats_stddev(nb, nn, &sd) == -1))
		fatalx("cp_eval_spike: no neighbours");
	/* Selected in place (nb is this candidate's scratch): no sort. */
	ev->before = stats_median_inplace(nb, nn);
	for (j = i; j < i + k; j++) {
		pc = cp_pct(ev->before, x[j]);
		if (fabs(pc) < par->min_change || pc == 0)
			return;
		if (side != 0 && (pc > 0) != (side > 0))
			return;
		side = pc > 0 ? 1 : -1;
		mean_s += x[j] / (double)k;
	}
	ev->after = mean_s;
	ev->change_pct = cp_pct(ev->before, ev->after);
	if (sd == 0)
		ev->p = mean_s == mean ? 1 : 0;
	else {
		t = (mean_s - mean) /
		    (sd * sqrt(1 / (double)k + 1 / (double)nn));
		ev->p = 2 * stats_t_cdf(-fabs(t), (double)(nn - 1));
	}
	ev->p *= (double)m;
	if (ev->p > 1)
		ev->p = 1;
	ev->ok = ev->p < par->alpha;
}

/* Append change c to the growing array *out of *nout entries. */
static void
cp_push(struct cp_change **out, size_t *nout, const struct cp_change *c)
{
	*out = xreallocarray(*out, *nout + 1, sizeof(**out));
	(*out)[(*nout)++] = *c;
}

/*
 * A multiset of values kept sorted, for the median of a window that
 * slides: a value joins or leaves by a binary search and a move of the
 * values above it, where selecting the median of each window anew took
 * a copy and a partition of all of it.
 */
struct cp_sorted {
	double	*v;
	size_t	 n;
};

/* Add x to s (room for it is the caller's). */
static void
cp_sorted_add(struct cp_sorted *s, double x)
{
	size_t	lo = 0, hi = s->n, mid;

	/* After every value not above x. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	s->v[lo] = x;
	s->n++;
}

/* Take a value equal to x (one there is) out of s. */
static void
cp_sorted_del(struct cp_sorted *s, double x)
{
	size_t	lo = 0, hi = s->n, mid;

	/* The first value not below x. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->n || s->v[lo] != x)
		fatalx("cp_sorted_del: %g is not there", x);
	memmove(s->v + lo, s->v + lo + 1, (s->n - lo - 1) * sizeof(*s->v));
	s->n--;
}

/*
 * The median of s (not empty), as stats_median() has it: the same value
 * for the same values, whatever their order (a zero's sign aside, which
 * no use here can see).
 */
static double
cp_sorted_median(const struct cp_sorted *s)
{
	return (stats_median_sorted(s->v, s->n));
}

/*
 * Which spikes of k runs in segment [a, b) could pass, given the masked
 * runs: bit k - 1 of can[i] is set for a candidate [i, i + k) whose runs
 * all lie beyond the floor on one side of its neighbours' median (what
 * cp_eval_spike() asks first), and cleared otherwise.  The neighbours of
 * i, the nearest par->window unmasked runs before it and after the
 * candidate (cp_neighbours()), slide with i: a run joins and a run
 * leaves on each side, kept sorted in nb (room for 2 window values).
 * A candidate that fails here fails there, with the same median, so
 * only those marked need the t test, and most runs of a series are not
 * beyond the floor.
 */
static void
cp_spike_gate(const double *x, const unsigned char *mask, size_t a,
    size_t b, size_t k, const struct cp_params *par, struct cp_sorted *nb,
    unsigned char *can)
{
	double	med, pc;
	size_t	i, j, bs = a, ae = a + k, nbef = 0, naft = 0;
	int	side;

	nb->n = 0;
	for (i = a; i + k < b; i++) {
		if (i > a) {
			/* Run i - 1 joins those before, i + k - 1 leaves. */
			if (!mask[i - 1] && ++nbef > par->window) {
				while (mask[bs])
					bs++;
				cp_sorted_del(nb, x[bs++]);
				nbef--;
			}
			if (!mask[i - 1])
				cp_sorted_add(nb, x[i - 1]);
			if (i + k - 1 < ae && !mask[i + k - 1]) {
				cp_sorted_del(nb, x[i + k - 1]);
				naft--;
			}
		}
		if (ae < i + k)
			ae = i + k;
		for (; naft < par->window && ae < b; ae++) {
			if (!mask[ae]) {
				cp_sorted_add(nb, x[ae]);
				naft++;
			}
		}
		can[i] &= ~(1u << (k - 1));
		if (mask[i] || mask[i + k - 1] || nbef == 0 || naft == 0 ||
		    nbef + naft < 2 * par->min_seg)
			continue;
		med = cp_sorted_median(nb);
		for (j = i, side = 0; j < i + k; j++) {
			pc = cp_pct(med, x[j]);
			if (fabs(pc) < par->min_change || pc == 0 ||
			    (side != 0 && (pc > 0) != (side > 0)))
				break;
			side = pc > 0 ? 1 : -1;
		}
		if (j == i + k)
			can[i] |= 1u << (k - 1);
	}
}

/*
 * Whether the level came back on both sides of spike [i, i + k) of
 * segment [a, b): the median of the unmasked neighbours (up to window)
 * on each side, taken alone, lies short of the floor, or of half the
 * spike's change, on the spike's side of ev->before.  Taken together, as
 * the test takes them, the many runs before outvote the few after: the
 * last two runs of a history at a new level were a spike of the first,
 * whose only neighbour after, at the same level, came back to nothing.
 * A side without neighbours has nothing to say.  nb is scratch.
 */
static int
cp_spike_back(const double *x, const unsigned char *mask, size_t a,
    size_t b, size_t i, size_t k, const struct cp_params *par,
    const struct cp_eval *ev, double *nb)
{
	double	limit, pc;
	size_t	j, nn;
	int	side;

	limit = fabs(ev->change_pct) / 2;
	if (limit < par->min_change)
		limit = par->min_change;
	for (side = 0; side < 2; side++) {
		nn = 0;
		if (side == 0) {
			for (j = i; j-- > a && nn < par->window;)
				if (!mask[j])
					nb[nn++] = x[j];
		} else {
			for (j = i + k; j < b && nn < par->window; j++)
				if (!mask[j])
					nb[nn++] = x[j];
		}
		if (nn == 0)
			continue;
		pc = cp_pct(ev->before, stats_median_inplace(nb, nn));
		if (fabs(pc) >= limit && (pc > 0) == (ev->change_pct > 0))
			return (0);
	}
	return (1);
}

/*
 * Find spikes in each segment that the steps s[0..ns) cut [0, n) into and
 * append them to *out.  The family is every (run, length) candidate with
 * neighbours on both sides; the strongest passing one is taken, its runs
 * masked, and the search repeated.
 */
static void
cp_spikes(const double *x, size_t n, const struct cp_params *par,
    const size_t *s, size_t ns, struct cp_change **out, size_t *nout)
{
	struct cp_change	 c;
	struct cp_eval		 ev, best;
	struct cp_sorted	 sorted;
	unsigned char		*mask, *can;
	double			*nb;
	size_t			 seg, a, b, i, k, nn, m, best_i = 0, best_k = 0;
	size_t			 nbef, naft;
	int			 found;

	mask = xcalloc(n, 1);
	can = xcalloc(n, 1);
	nb = xreallocarray(NULL, 2 * par->window, sizeof(*nb));
	sorted.v = xreallocarray(NULL, 2 * par->window, sizeof(*sorted.v));
	sorted.n = 0;
	/*
	 * Pass 0 counts the family: nothing is masked yet, so a candidate's
	 * neighbours are as many runs as the segment has up to a window on
	 * each side.  Pass 1 onwards searches it.
	 */
	m = 0;
	for (seg = 0; seg <= ns; seg++) {
		a = seg == 0 ? 0 : s[seg - 1];
		b = seg == ns ? n : s[seg];
		for (i = a; i < b; i++) {
			for (k = 1; k <= 2 && i + k < b; k++) {
				nbef = i - a < par->window ? i - a :
				    par->window;
				naft = b - (i + k) < par->window ?
				    b - (i + k) : par->window;
				if (nbef > 0 && naft > 0 &&
				    nbef + naft >= 2 * par->min_seg)
					m++;
			}
		}
	}
	while (m > 0) {
		found = 0;
		memset(&best, 0, sizeof(best));
		for (seg = 0; seg <= ns; seg++) {
			a = seg == 0 ? 0 : s[seg - 1];
			b = seg == ns ? n : s[seg];
			for (k = 1; k <= 2; k++)
				cp_spike_gate(x, mask, a, b, k, par, &sorted,
				    can);
			for (i = a; i < b; i++) {
				for (k = 1; k <= 2 && i + k < b; k++) {
					if (!(can[i] & (1u << (k - 1))))
						continue;
					nn = cp_neighbours(x, mask, a, b, i, k,
					    par, nb);
					if (nn == 0)
						fatalx("cp_spikes: alone");
					cp_eval_spike(x, i, k, nb, nn, m, par,
					    &ev);
					if (ev.ok && !cp_spike_back(x, mask, a,
					    b, i, k, par, &ev, nb))
						continue;
					if (!ev.ok || (found &&
					    !cp_stronger(&ev, &best)))
						continue;
					best = ev;
					best_i = i;
					best_k = k;
					found = 1;
				}
			}
		}
		if (!found)
			break;
		memset(&c, 0, sizeof(c));
		c.index = best_i;
		c.length = best_k;
		c.kind = CP_SPIKE;
		c.before = best.before;
		c.after = best.after;
		c.change_pct = best.change_pct;
		c.p = best.p;
		cp_push(out, nout, &c);
		for (k = 0; k < best_k; k++)
			mask[best_i + k] = 1;
	}
	free(sorted.v);
	free(can);
	free(nb);
	free(mask);
}

/* Order changes by index for qsort. */
static int
cp_change_cmp(const void *a, const void *b)
{
	const struct cp_change	*ca = a, *cb = b;

	return ((ca->index > cb->index) - (ca->index < cb->index));
}

/*
 * Spikes that touch, off the same way, are one excursion: three runs
 * 15% slow among a hundred were reported as a spike of two runs and one
 * of one (the second found once the first was taken out of its
 * neighbours).  Merged, they keep the first's neighbours' level, the mean
 * of all their runs and the larger p.  A step between them cannot be:
 * spikes never reach across one.  out[0..*nout) is sorted by index.
 */
static void
cp_merge_spikes(const double *x, struct cp_change *out, size_t *nout)
{
	struct cp_change	*a, *b;
	double			 sum;
	size_t			 i, j, k;

	for (i = 0, j = 0; i < *nout; i++) {
		b = &out[i];
		a = j > 0 ? &out[j - 1] : NULL;
		if (a != NULL && a->kind == CP_SPIKE && b->kind == CP_SPIKE &&
		    a->index + a->length == b->index &&
		    (a->change_pct > 0) == (b->change_pct > 0)) {
			a->length += b->length;
			for (k = a->index, sum = 0; k < a->index + a->length;
			    k++)
				sum += x[k];
			a->after = sum / (double)a->length;
			a->change_pct = cp_pct(a->before, a->after);
			if (b->p > a->p)
				a->p = b->p;
			continue;
		}
		out[j++] = *b;
	}
	*nout = j;
}

/* A hash of the steps s[0..ns) (FNV-1a over their indices). */
static uint64_t
cp_steps_hash(const size_t *s, size_t ns)
{
	uint64_t	h = 14695981039346656037ULL;
	size_t		i, k;

	for (i = 0; i < ns; i++)
		for (k = 0; k < sizeof(s[i]); k++) {
			h ^= (s[i] >> (8 * k)) & 0xff;
			h *= 1099511628211ULL;
		}
	return (h ^ ns);
}

/*
 * Find the steps and spikes of the series x[0..n) (run medians, oldest
 * first) with parameters par (NULL for the defaults).  On success *out is
 * an allocated array of *nout changes sorted by index (NULL when there is
 * none; the caller frees it).  Fails on an empty or non-finite series and
 * on bad parameters.
 */
int
cp_detect(const double *x, size_t n, const struct cp_params *par,
    struct cp_change **out, size_t *nout)
{
	return (cp_detect_with(x, n, par, NULL, out, nout));
}

/*
 * cp_detect(), with the exact tables of tables (from cp_tables_new(); NULL:
 * its own for this call), which it fills as it needs them: the same
 * changes, for less work over many series.
 */
int
cp_detect_with(const double *x, size_t n, const struct cp_params *par,
    struct cp_tables *tables, struct cp_change **out, size_t *nout)
{
	struct cp_params	 def, clamped;
	struct cp_ctx		 ctx;
	uint64_t		*seen, h;
	size_t			 nseen = 0;
	struct cp_change	 c;
	struct cp_eval		 ev;
	size_t			*s, ns = 0, i, rounds;
	double			 mn, mx;

	*out = NULL;
	*nout = 0;
	if (par == NULL) {
		cp_params_default(&def);
		par = &def;
	}
	if (par->min_seg == 0 || par->window < par->min_seg ||
	    !(par->alpha > 0 && par->alpha < 1) || !(par->min_change >= 0)) {
		log_warnx("cp_detect: bad parameters");
		return (-1);
	}
	if (n == 0) {
		log_warnx("cp_detect: empty series");
		return (-1);
	}
	if (stats_minmax(x, n, &mn, &mx) == -1)
		return (-1);
	/* Windows and segments never need to be longer than the series. */
	clamped = *par;
	if (clamped.min_seg > n)
		clamped.min_seg = n;
	if (clamped.window > n)
		clamped.window = n;
	par = &clamped;

	s = xreallocarray(NULL, n / par->min_seg + 2, sizeof(*s));
	/*
	 * Each forward step adds a step and each backward step removes one;
	 * 4n rounds is far more than a settling search needs.  It can cycle
	 * all the same: on a wandering level a forward step may add back
	 * the step a backward one has just dropped (1 series of 500 of
	 * bench/changes' AR(1) 0.8 noise; on 3650 runs 4n is 14600 rounds,
	 * each a scan of every split and excursion).  So each set of steps
	 * that passes the backward test is remembered (as a hash); one met
	 * again ends the search there.
	 */
	cp_ctx_init(&ctx, x, n, par, tables);
	seen = xreallocarray(NULL, 4 * n + 1, sizeof(*seen));
	for (rounds = 0; rounds < 4 * n; rounds++) {
		if (cp_backward(&ctx, s, &ns))
			continue;
		h = cp_steps_hash(s, ns);
		for (i = 0; i < nseen && seen[i] != h; i++)
			;
		if (i < nseen) {
			log_debug("cp_detect: the search came back to a set of "
			    "%zu steps after %zu rounds; kept", ns, rounds);
			break;
		}
		seen[nseen++] = h;
		if (!cp_forward(&ctx, s, &ns))
			break;
	}
	free(seen);
	if (rounds == 4 * n)
		log_warnx("cp_detect: search did not settle in %zu rounds",
		    rounds);
	cp_polish(&ctx, s, ns);

	for (i = 0; i < ns; i++) {
		cp_eval_step(&ctx, s, ns, i, 1, &ev);
		memset(&c, 0, sizeof(c));
		c.index = s[i];
		c.length = (i + 1 == ns ? n : s[i + 1]) - s[i];
		c.kind = CP_STEP;
		c.before = ev.before;
		c.after = ev.after;
		c.change_pct = ev.change_pct;
		c.p = ev.p;
		cp_push(out, nout, &c);
	}
	cp_ctx_free(&ctx);
	if (par->spikes)
		cp_spikes(x, n, par, s, ns, out, nout);
	free(s);
	if (*nout > 1)
		qsort(*out, *nout, sizeof(**out), cp_change_cmp);
	cp_merge_spikes(x, *out, nout);
	return (0);
}
