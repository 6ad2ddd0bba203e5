/*
 * Statistical primitives for perfwatch's detector.
 *
 * Design notes
 * ------------
 * Benchmark samples are few (a handful of iterations per run, tens of runs
 * per baseline), non-normal and often tied (integer counters), so the
 * primitives here are the rank-based ones DESIGN.md asks for, plus the
 * classical ones a reference detector needs.  Each one reproduces a named
 * reference implementation, and the unit tests pin it to that reference's
 * numbers:
 *
 *   quantile        numpy.quantile default (Hyndman-Fan type 7)
 *   mad             scipy.stats.median_abs_deviation(scale='normal'):
 *                   the factor is 1 / Phi^-1(3/4) = 1.482602..., not 1.4826
 *   mwu             scipy.stats.mannwhitneyu (1.10): U is the U of x (pairs
 *                   with x > y, ties counting one half); the asymptotic
 *                   p-value uses average ranks, the tie-corrected variance
 *                   and a continuity correction of 1/2 toward the mean; the
 *                   exact p-value sums the exact null distribution of U.
 *   welch           scipy.stats.ttest_ind(equal_var=False)
 *   bh              scipy.stats.false_discovery_control(method='bh'), which
 *                   SciPy 1.10 lacks: the tests cite the numpy formula
 *   lag-1 autocorr  statsmodels' acf(nlags=1) (biased, mean-centred)
 *
 * Exact Mann-Whitney.  SciPy 1.10's 'auto' rule, read from its source
 * (_mwu_choose_method, not its docstring, which says "less than 8"): the
 * asymptotic method when both samples have more than 8 values or when the
 * pooled sample has ties, the exact method otherwise, i.e. when the smaller
 * sample has at most 8 values and there are no ties.  We follow it with one
 * addition: when the exact table would cost more than MWU_EXACT_WORK steps
 * (a sample of 8 against ~1800 or more) 'auto' takes the asymptotic method,
 * where the normal approximation is excellent anyway.
 *
 * The exact null distribution is computed in probabilities, never counts,
 * with the recurrence p(m, n, k) = m/(m+n) p(m-1, n, k-n) + n/(m+n)
 * p(m, n-1, k) (Mann and Whitney 1947; the largest pooled value is an x
 * with probability m/(m+n) and then beats all n ys).  Every term is
 * positive, so there is no cancellation and no overflow; only the lower
 * tail up to the needed k is kept, so the cost is O(m n k) and the memory
 * O(m k).
 *
 * Hodges-Lehmann shift and Moses interval.  The estimate of the shift from
 * x to y is the median of the m n differences y_j - x_i.  The interval is
 * [D(k), D(mn + 1 - k)] over the sorted differences, k the smallest q
 * with P(U <= q) >= alpha/2 (and at least 1), so that the coverage is
 * 1 - 2 P(U <= k - 1) >= 1 - alpha (Moses 1953; Hollander and Wolfe,
 * Nonparametric Statistical Methods, 2nd ed., section 4.3).  That is what
 * R's wilcox.test(y, x, conf.int = TRUE) returns when it is exact (both
 * samples under 50 and no ties).  Differences from R: we use the exact
 * critical value whenever both samples are under 50, ties or not (the
 * interval stays distribution-free for continuous data; with ties it is
 * slightly conservative), whereas R switches to a normal approximation
 * solved with uniroot whose estimate is then not the median of the
 * differences.  For larger samples we use the textbook approximation
 * k = round(mn/2 - z(1 - alpha/2) sqrt(mn(m + n + 1)/12)).
 *
 * Bootstrap of the ratio of medians.  Percentile bootstrap (Efron): x and
 * y are resampled independently with replacement, the ratio
 * median(y*)/median(x*) taken reps times, and the interval is the type-7
 * quantiles alpha/2 and 1 - alpha/2 of the ratios.  The generator is GSL's
 * MT19937 seeded by the caller, so a verdict re-computed over old data
 * gives the same interval.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "log.h"
#include "xmalloc.h"
#include "stats.h"

/* Most steps 'auto' spends on an exact Mann-Whitney table. */
#define MWU_EXACT_WORK	1e8

/* Limits of an exact table asked for: cells kept, steps spent. */
#define MWU_EXACT_CELLS		(1 << 24)
#define MWU_EXACT_MAXWORK	1e10

/* Samples of this size or more get the normal Moses interval. */
#define HL_EXACT_MAX	50

/*
 * Most differences the Hodges-Lehmann shift sorts (32 MiB); beyond, the
 * order statistics it needs are selected without holding them: two runs
 * of 30000 samples each asked for 7.2 GB.
 */
#define HL_SORT_MAX	(1 << 22)

/* Reject an empty, too small or non-finite sample, naming the caller. */
static int
stats_check(const char *fn, const double *x, size_t n, size_t min_n)
{
	size_t	i;

	if (n < min_n || (n > 0 && x == NULL)) {
		log_warnx("%s: need at least %zu value%s, got %zu", fn, min_n,
		    min_n == 1 ? "" : "s", n);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			log_warnx("%s: value %zu is not finite", fn, i);
			return (-1);
		}
	}
	return (0);
}

/* Order doubles ascending for qsort. */
static int
stats_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/* Return a sorted copy of x; the caller frees it. */
static double *
stats_sorted(const double *x, size_t n)
{
	double	*s;

	s = xreallocarray(NULL, n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp);
	return (s);
}

/*
 * Return quantile p of the sorted array s (n >= 1) by linear interpolation
 * between order statistics: h = (n - 1) p, the value at floor(h) plus the
 * fraction of the step to the next (type 7, numpy's default).
 */
double
stats_quantile_sorted(const double *s, size_t n, double p)
{
	double	h, lo;
	size_t	i;

	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return (s[n - 1]);
	return (s[i] + (h - lo) * (s[i + 1] - s[i]));
}

/* Return the median of the sorted array s (n >= 1). */
double
stats_median_sorted(const double *s, size_t n)
{
	if (n % 2 == 1)
		return (s[n / 2]);
	return (s[n / 2 - 1] / 2 + s[n / 2] / 2);
}

/*
 * A power of two within a factor 2 of the largest |x_i| (not above it:
 * 2^1024 overflows): values divided by it sum without overflow (1 when
 * there is nothing to scale).
 */
static double
stats_abs_scale(const double *x, size_t n)
{
	double	big = 0;
	size_t	i;
	int	e;

	for (i = 0; i < n; i++)
		if (fabs(x[i]) > big)
			big = fabs(x[i]);
	if (big == 0 || !isfinite(big))
		return (1);
	(void)frexp(big, &e);
	return (ldexp(1, e - 1));
}

/*
 * Return the mean of n >= 1 checked values.  A sum that overflows (two
 * values near 1.7e308) is taken again in units of a power of two near
 * the largest, which is exact.
 */
static double
stats_mean_of(const double *x, size_t n)
{
	double	sum = 0, sc;
	size_t	i;

	for (i = 0; i < n; i++)
		sum += x[i];
	if (isfinite(sum))
		return (sum / (double)n);
	sc = stats_abs_scale(x, n);
	for (sum = 0, i = 0; i < n; i++)
		sum += x[i] / sc;
	return (sum / (double)n * sc);
}

/*
 * A power of two within a factor 2 of the largest |x_i - m| (at most it:
 * 2^1024 overflows), by which deviations are divided before they are
 * squared: a metric in units of 1e200 squares to infinity and one in
 * units of 1e-200 to 0, where the scaled squares stay near 1.  Dividing
 * by a power of two is exact, so values of any ordinary size give the
 * same bits as without it.  1 when there is nothing to scale.
 */
static double
stats_dev_scale(const double *x, size_t n, double m)
{
	double	big = 0, d;
	size_t	i;
	int	e;

	for (i = 0; i < n; i++) {
		d = fabs(x[i] - m);
		if (d > big)
			big = d;
	}
	if (big == 0 || !isfinite(big))
		return (1);
	(void)frexp(big, &e);
	return (ldexp(1, e - 1));
}

/*
 * Return the sample standard deviation of n >= 2 checked values.  The
 * mean is refined once by the mean of the deviations from it: sum / n
 * is not x of n equal values x (three 0.1s give 0.10000000000000002),
 * and every deviation from it then was not 0, so equal samples had a
 * spread of 1.7e-17, which show and history printed as noise.  A
 * correction that overflows (values near DBL_MAX of both signs) is not
 * made.
 */
static double
stats_sd_of(const double *x, size_t n)
{
	double	mean, sc, d, ss = 0, corr = 0;
	size_t	i;

	mean = stats_mean_of(x, n);
	for (i = 0; i < n; i++)
		corr += x[i] - mean;
	if (isfinite(corr))
		mean += corr / (double)n;
	sc = stats_dev_scale(x, n, mean);
	for (i = 0; i < n; i++) {
		d = (x[i] - mean) / sc;
		ss += d * d;
	}
	return (sqrt(ss / (double)(n - 1)) * sc);
}

/* Store the arithmetic mean in *out. */
int
stats_mean(const double *x, size_t n, double *out)
{
	if (stats_check("stats_mean", x, n, 1) == -1)
		return (-1);
	*out = stats_mean_of(x, n);
	return (0);
}

/* Store the sample standard deviation (divisor n - 1); needs n >= 2. */
int
stats_stddev(const double *x, size_t n, double *out)
{
	if (stats_check("stats_stddev", x, n, 2) == -1)
		return (-1);
	*out = stats_sd_of(x, n);
	return (0);
}

/*
 * Reorder x[0..n) so that x[k] is its k-th smallest value, everything
 * before it no larger and everything after no smaller (Hoare's
 * selection, pivot the median of three): O(n) on average where a sort is
 * O(n log n).  x holds no NaN.
 */
void
stats_select(double *x, size_t n, size_t k)
{
	double	pivot, t;
	size_t	lo = 0, hi = n - 1, i, j, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		/* x[lo] <= x[mid] <= x[hi] */
		if (x[mid] < x[lo]) {
			t = x[mid]; x[mid] = x[lo]; x[lo] = t;
		}
		if (x[hi] < x[lo]) {
			t = x[hi]; x[hi] = x[lo]; x[lo] = t;
		}
		if (x[hi] < x[mid]) {
			t = x[hi]; x[hi] = x[mid]; x[mid] = t;
		}
		pivot = x[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				t = x[i]; x[i] = x[j]; x[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		/* Now x[lo..j] <= pivot <= x[i..hi], and j < i. */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;		/* between: equal to the pivot */
	}
}

/*
 * Return the median of x[0..n) (n >= 1, no NaN), reordering x: the value
 * stats_median_sorted() gives for the sorted array, by selection.
 */
double
stats_median_inplace(double *x, size_t n)
{
	double	lower;
	size_t	i;

	stats_select(x, n, n / 2);
	if (n % 2 == 1)
		return (x[n / 2]);
	/* The other middle value: the largest of the lower half. */
	for (lower = x[0], i = 1; i < n / 2; i++)
		if (x[i] > lower)
			lower = x[i];
	return (lower / 2 + x[n / 2] / 2);
}

/* Store the median in *out; x is left as it was. */
int
stats_median(const double *x, size_t n, double *out)
{
	double	*s;

	if (stats_check("stats_median", x, n, 1) == -1)
		return (-1);
	s = xreallocarray(NULL, n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	*out = stats_median_inplace(s, n);
	free(s);
	return (0);
}

/* Store quantile p in [0, 1], type 7 as numpy.quantile, in *out. */
int
stats_quantile(const double *x, size_t n, double p, double *out)
{
	double	*s;

	if (stats_check("stats_quantile", x, n, 1) == -1)
		return (-1);
	if (!(p >= 0 && p <= 1)) {
		log_warnx("stats_quantile: probability %g not in [0, 1]", p);
		return (-1);
	}
	s = stats_sorted(x, n);
	*out = stats_quantile_sorted(s, n, p);
	free(s);
	return (0);
}

/*
 * The normalized median absolute deviation of x[0..n) (n >= 1) from med,
 * its median: an estimate of sigma for normal data.
 */
static double
stats_mad_about(const double *x, size_t n, double med)
{
	double	*d, mad;
	size_t	i;

	d = xreallocarray(NULL, n, sizeof(*d));
	for (i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	mad = stats_median_inplace(d, n) / gsl_cdf_ugaussian_Pinv(0.75);
	free(d);
	return (mad);
}

/*
 * Tukey's biweight M-estimate of location of x[0..n) with tuning
 * constant c, the scale held at the normalized MAD: the root of
 * sum psi((x_i - mu) / s) = 0 nearest the median, psi(u) = u (1 -
 * (u/c)^2)^2 within c and 0 beyond, by iteratively reweighted means from
 * the median.  A value more than c scales out does not count at all.
 * At c = 4.685 it is 95% as efficient as the mean for normal data.
 * With a zero MAD the median is returned.  *scale gets the MAD used (may
 * be NULL).
 */
int
stats_biweight(const double *x, size_t n, double c, double *loc,
    double *scale)
{
	double	mu, s, num, den, u, w, next, sc;
	size_t	i;
	int	iter;

	if (stats_median(x, n, &mu) == -1)
		return (-1);
	s = stats_mad_about(x, n, mu);
	if (scale != NULL)
		*scale = s;
	/* The weighted sum in units of sc, exact: values near 1e308 overflow. */
	sc = stats_abs_scale(x, n);
	if (s > 0 && c > 0) {
		for (iter = 0; iter < 100; iter++) {
			num = den = 0;
			for (i = 0; i < n; i++) {
				u = (x[i] - mu) / (c * s);
				if (fabs(u) >= 1)
					continue;
				w = (1 - u * u) * (1 - u * u);
				num += w * (x[i] / sc);
				den += w;
			}
			if (den <= 0)
				break;
			next = num / den * sc;
			if (fabs(next - mu) <= 1e-12 * (fabs(mu) + s)) {
				mu = next;
				break;
			}
			mu = next;
		}
	}
	*loc = mu;
	return (0);
}

/*
 * Store the median absolute deviation from the median, multiplied by
 * 1 / Phi^-1(3/4) so that it estimates sigma for normal data.
 */
int
stats_mad(const double *x, size_t n, double *out)
{
	double	med;

	if (stats_median(x, n, &med) == -1)
		return (-1);
	*out = stats_mad_about(x, n, med);
	return (0);
}

/* Store the smallest and the largest value. */
int
stats_minmax(const double *x, size_t n, double *min, double *max)
{
	size_t	i;

	if (stats_check("stats_minmax", x, n, 1) == -1)
		return (-1);
	*min = *max = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < *min)
			*min = x[i];
		if (x[i] > *max)
			*max = x[i];
	}
	return (0);
}

/* Fill s with every descriptive statistic of x; needs n >= 1. */
int
stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	if (stats_check("stats_summarize", x, n, 1) == -1)
		return (-1);
	s->n = n;
	s->mean = stats_mean_of(x, n);
	s->stddev = n >= 2 ? stats_sd_of(x, n) : NAN;
	if (stats_median(x, n, &s->median) == -1 ||
	    stats_mad(x, n, &s->mad) == -1 ||
	    stats_minmax(x, n, &s->min, &s->max) == -1)
		return (-1);
	return (0);
}

/* Return the standard normal distribution function at z. */
double
stats_norm_cdf(double z)
{
	return (gsl_cdf_ugaussian_P(z));
}

/* Return the standard normal quantile of p in (0, 1). */
double
stats_norm_quantile(double p)
{
	return (gsl_cdf_ugaussian_Pinv(p));
}

/* Return Student's t distribution function with df degrees of freedom. */
double
stats_t_cdf(double t, double df)
{
	return (gsl_cdf_tdist_P(t, df));
}

/* Return Student's t quantile of p in (0, 1). */
double
stats_t_quantile(double p, double df)
{
	return (gsl_cdf_tdist_Pinv(p, df));
}

/*
 * Fill cdf[0..kmax] with P(U <= k) under the null hypothesis for samples
 * of m and n values without ties.  The recurrence runs over the larger
 * sample and keeps one row per size of the smaller one.
 */
static void
stats_mwu_table(size_t m, size_t n, size_t kmax, double *cdf)
{
	double	*f, *row, *prev;
	size_t	 i, j, k, t, w = kmax + 1;

	if (m > n) {
		t = m;
		m = n;
		n = t;
	}
	f = xcalloc((m + 1) * w, sizeof(*f));
	for (j = 0; j <= m; j++)
		f[j * w] = 1;		/* n' = 0: U is 0 for sure */
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			row = f + j * w;
			prev = f + (j - 1) * w;	/* already at n' = i */
			for (k = 0; k < w; k++) {
				row[k] = ((double)i * row[k] +
				    (k >= i ? (double)j * prev[k - i] : 0)) /
				    (double)(i + j);
			}
		}
	}
	row = f + m * w;
	cdf[0] = row[0];
	for (k = 1; k < w; k++)
		cdf[k] = cdf[k - 1] + row[k];
	free(f);
}

/*
 * Fill cdf[0..kmax] with P(U <= k) for samples of m and n values without
 * ties, kmax < m n: the table stats_mwu_cdf() sums, for callers that ask
 * for many u of the same sizes.  Refused on the same bounds.
 */
int
stats_mwu_cdf_table(size_t m, size_t n, size_t kmax, double *cdf)
{
	double	mn;
	size_t	small;

	mn = (double)m * (double)n;
	if (m == 0 || n == 0 || (double)kmax >= mn) {
		log_warnx("stats_mwu_cdf_table: bad arguments");
		return (-1);
	}
	small = m < n ? m : n;
	if (((double)small + 1) * ((double)kmax + 1) > MWU_EXACT_CELLS ||
	    mn * ((double)kmax + 1) > MWU_EXACT_MAXWORK) {
		log_warnx("stats_mwu_cdf: samples of %zu and %zu values are "
		    "too large for the exact distribution", m, n);
		return (-1);
	}
	stats_mwu_table(m, n, kmax, cdf);
	return (0);
}

/*
 * Store P(U <= u) for the Mann-Whitney U of samples of m and n values
 * without ties (u is floored).  Costs O(m n k) time and O(min(m, n) k)
 * memory, k the shorter tail: refused beyond MWU_EXACT_CELLS and
 * MWU_EXACT_MAXWORK, where the normal approximation is the tool.
 */
int
stats_mwu_cdf(size_t m, size_t n, double u, double *out)
{
	double	*cdf, mn;
	size_t	 k;

	if (m == 0 || n == 0 || !isfinite(u)) {
		log_warnx("stats_mwu_cdf: bad arguments");
		return (-1);
	}
	mn = (double)m * (double)n;
	if (u < 0) {
		*out = 0;
		return (0);
	}
	if (u >= mn) {
		*out = 1;
		return (0);
	}
	/*
	 * Sum the shorter tail, U being symmetric about mn / 2: above the
	 * middle P(U <= u) = 1 - P(U >= u + 1) = 1 - P(U <= mn - u - 1).
	 */
	if (u < mn / 2)
		k = (size_t)floor(u);
	else
		k = (size_t)mn - (size_t)floor(u) - 1;
	cdf = xreallocarray(NULL, k + 1, sizeof(*cdf));
	if (stats_mwu_cdf_table(m, n, k, cdf) == -1) {
		free(cdf);
		return (-1);
	}
	*out = u < mn / 2 ? cdf[k] : 1 - cdf[k];
	free(cdf);
	return (0);
}

/* A pooled value and whether it came from x. */
struct stats_obs {
	double	v;
	int	from_x;
};

/* Order pooled observations by value for qsort. */
static int
stats_obs_cmp(const void *a, const void *b)
{
	const struct stats_obs	*oa = a, *ob = b;

	return ((oa->v > ob->v) - (oa->v < ob->v));
}

/*
 * The smallest two-sided p a Mann-Whitney test of nx against ny values
 * can give, that of two samples apart: 2 / C(nx + ny, nx), or 1 when that
 * is more (ties only raise it).  Two against three cannot go below 0.2,
 * three against four 0.057, three against three 0.1.
 */
double
stats_mwu_min_p(size_t nx, size_t ny)
{
	double	ways = 1;
	size_t	i;

	for (i = 1; i <= nx && ways < 1e300; i++)
		ways = ways * (double)(ny + i) / (double)i;
	return ways > 2 ? 2 / ways : 1;
}

/*
 * Run the Mann-Whitney U test of x against y.  res->u is SciPy's statistic,
 * the U of x; res->p is the p-value for alt ("greater": x tends to exceed
 * y), from the method asked for, 'auto' choosing as SciPy 1.10 does (see
 * the notes above).  The exact method refuses tied samples.  Two constant,
 * equal samples give p = 1.
 */
int
stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
    enum stats_alt alt, enum stats_mwu_method method, struct stats_mwu *res)
{
	struct stats_obs	*o;
	double			 r1 = 0, tie = 0, mu, sd, n, mn, u1, u2, u;
	double			 rank, t, z, p, cdf;
	size_t			 i, j, k, nn = nx + ny, small;

	if (stats_check("stats_mwu", x, nx, 1) == -1 ||
	    stats_check("stats_mwu", y, ny, 1) == -1)
		return (-1);
	o = xreallocarray(NULL, nn, sizeof(*o));
	for (i = 0; i < nx; i++) {
		o[i].v = x[i];
		o[i].from_x = 1;
	}
	for (i = 0; i < ny; i++) {
		o[nx + i].v = y[i];
		o[nx + i].from_x = 0;
	}
	qsort(o, nn, sizeof(*o), stats_obs_cmp);
	/* Average ranks over each run of equal values. */
	for (i = 0; i < nn; i = j) {
		for (j = i + 1; j < nn && o[j].v == o[i].v; j++)
			;
		rank = ((double)i + 1 + (double)j) / 2;
		t = (double)(j - i);
		for (k = i; k < j; k++)
			if (o[k].from_x)
				r1 += rank;
		tie += t * t * t - t;
	}
	free(o);

	n = (double)nn;
	mn = (double)nx * (double)ny;
	u1 = r1 - (double)nx * ((double)nx + 1) / 2;
	u2 = mn - u1;
	mu = mn / 2;
	sd = sqrt(mn / 12 * ((n + 1) - tie / (n * (n - 1))));
	res->u = u1;
	res->ties = tie > 0;
	res->z = sd > 0 ? (u1 - mu) / sd : 0;

	switch (alt) {
	case STATS_GREATER:
		u = u1;
		break;
	case STATS_LESS:
		u = u2;
		break;
	default:
		u = u1 > u2 ? u1 : u2;
		break;
	}

	small = nx < ny ? nx : ny;
	if (method == STATS_MWU_AUTO) {
		method = STATS_MWU_ASYMPTOTIC;
		if (small <= 8 && !res->ties &&
		    mn * (mn / 2 + 1) <= MWU_EXACT_WORK)
			method = STATS_MWU_EXACT;
	}
	if (method == STATS_MWU_EXACT) {
		if (res->ties) {
			log_warnx("stats_mwu: exact p-value asked for tied "
			    "samples");
			return (-1);
		}
		/* P(U >= u) = P(U <= mn - u) by symmetry. */
		if (stats_mwu_cdf(nx, ny, mn - u, &cdf) == -1)
			return (-1);
		p = cdf;
		res->exact = 1;
	} else {
		if (sd == 0)
			p = 1;
		else {
			z = (u - mu - 0.5) / sd;
			p = gsl_cdf_ugaussian_Q(z);
		}
		res->exact = 0;
	}
	if (alt == STATS_TWO_SIDED)
		p *= 2;
	res->p = p > 1 ? 1 : (p < 0 ? 0 : p);
	return (0);
}

/* The differences y_j - x_i of two samples, sorted or to select from. */
struct stats_diffs {
	double	*d;		/* all of them, sorted; or NULL */
	double	*x, *y;		/* else both samples, sorted */
	size_t	 nx, ny;
	size_t	*lo, *hi, *lt, *le;	/* scratch, nx each */
};

/*
 * The k-th smallest (from 0) of the differences y_j - x_i of sorted x
 * and y, none of them held: row i holds y_j - x_i in the order of j, and
 * each row's candidates [lo, hi) close in on the answer by the counts
 * below and at a pivot drawn from them (Monahan's algorithm for the
 * Hodges-Lehmann estimate).  A difference is computed as for the sort,
 * so the value has the same bits as the sorted array's k-th.
 */
static double
stats_diffs_select(struct stats_diffs *sd, size_t k)
{
	const double	*x = sd->x, *y = sd->y;
	double		 v, *c;
	size_t		 i, j, n, left, below, pick, nlt, nle;
	uint64_t	 seed = 1;

	for (i = 0; i < sd->nx; i++) {
		sd->lo[i] = 0;
		sd->hi[i] = sd->ny;
	}
	for (;;) {
		for (i = 0, left = below = 0; i < sd->nx; i++) {
			left += sd->hi[i] - sd->lo[i];
			below += sd->lo[i];
		}
		if (left <= 4096) {
			c = xreallocarray(NULL, left, sizeof(*c));
			for (i = 0, n = 0; i < sd->nx; i++)
				for (j = sd->lo[i]; j < sd->hi[i]; j++)
					c[n++] = y[j] - x[i];
			qsort(c, n, sizeof(*c), stats_cmp);
			v = c[k - below];
			free(c);
			return v;
		}
		/* A pivot among the candidates, by a fixed generator. */
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		pick = (size_t)((seed >> 20) % left);
		for (i = 0; pick >= sd->hi[i] - sd->lo[i]; i++)
			pick -= sd->hi[i] - sd->lo[i];
		v = y[sd->lo[i] + pick] - x[i];
		/* Per row, those below v and those at most v: x rising, more. */
		nlt = nle = 0;
		for (i = 0, sd->lt[0] = sd->le[0] = 0; i < sd->nx; i++) {
			if (i > 0) {
				sd->lt[i] = sd->lt[i - 1];
				sd->le[i] = sd->le[i - 1];
			}
			while (sd->lt[i] < sd->ny && y[sd->lt[i]] - x[i] < v)
				sd->lt[i]++;
			while (sd->le[i] < sd->ny && y[sd->le[i]] - x[i] <= v)
				sd->le[i]++;
			nlt += sd->lt[i];
			nle += sd->le[i];
		}
		if (k >= nlt && k < nle)
			return v;
		for (i = 0; i < sd->nx; i++) {
			if (k < nlt && sd->lt[i] < sd->hi[i])
				sd->hi[i] = sd->lt[i] > sd->lo[i] ? sd->lt[i] :
				    sd->lo[i];
			else if (k >= nle && sd->le[i] > sd->lo[i])
				sd->lo[i] = sd->le[i] < sd->hi[i] ? sd->le[i] :
				    sd->hi[i];
		}
	}
}

/* The k-th smallest difference. */
static double
stats_diffs_at(struct stats_diffs *sd, size_t k)
{
	return sd->d != NULL ? sd->d[k] : stats_diffs_select(sd, k);
}

/*
 * Estimate the Hodges-Lehmann shift from x to y (median of every
 * y_j - x_i) with its Moses confidence interval at level conf (e.g.
 * 0.95), exact below HL_EXACT_MAX values per sample and normal above (see
 * the notes above).  res->conf is the coverage achieved when exact.
 * Memory is nx * ny doubles up to HL_SORT_MAX of them, beyond that a few
 * words per value (stats_diffs_select).
 */
int
stats_hl_shift(const double *x, size_t nx, const double *y, size_t ny,
    double conf, struct stats_interval *res)
{
	struct stats_diffs	 df;
	double			*cdf, alpha, mn, k, sd;
	size_t			 i, j, nd, kmax, q;

	if (stats_check("stats_hl_shift", x, nx, 1) == -1 ||
	    stats_check("stats_hl_shift", y, ny, 1) == -1)
		return (-1);
	if (!(conf > 0 && conf < 1)) {
		log_warnx("stats_hl_shift: confidence %g not in (0, 1)", conf);
		return (-1);
	}
	nd = nx * ny;
	if (nd / ny != nx) {
		log_warnx("stats_hl_shift: samples too large");
		return (-1);
	}
	memset(&df, 0, sizeof(df));
	if (nd <= HL_SORT_MAX) {
		df.d = xreallocarray(NULL, nd, sizeof(*df.d));
		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				df.d[i * ny + j] = y[j] - x[i];
		qsort(df.d, nd, sizeof(*df.d), stats_cmp);
		res->estimate = stats_median_sorted(df.d, nd);
	} else {
		df.x = stats_sorted(x, nx);
		df.y = stats_sorted(y, ny);
		df.nx = nx;
		df.ny = ny;
		df.lo = xreallocarray(NULL, nx, sizeof(*df.lo));
		df.hi = xreallocarray(NULL, nx, sizeof(*df.hi));
		df.lt = xreallocarray(NULL, nx, sizeof(*df.lt));
		df.le = xreallocarray(NULL, nx, sizeof(*df.le));
		/* As stats_median_sorted() takes it. */
		if (nd % 2 == 1)
			res->estimate = stats_diffs_select(&df, nd / 2);
		else
			res->estimate = stats_diffs_select(&df, nd / 2 - 1) /
			    2 + stats_diffs_select(&df, nd / 2) / 2;
	}

	alpha = 1 - conf;
	mn = (double)nd;
	if (nx < HL_EXACT_MAX && ny < HL_EXACT_MAX) {
		/* k = min q with P(U <= q) >= alpha / 2; q <= mn / 2. */
		kmax = nd / 2;
		cdf = xreallocarray(NULL, kmax + 1, sizeof(*cdf));
		stats_mwu_table(nx, ny, kmax, cdf);
		for (q = 0; q < kmax && cdf[q] < alpha / 2; q++)
			;
		if (q == 0)
			q = 1;
		res->conf = 1 - 2 * cdf[q - 1];
		res->exact = 1;
		free(cdf);
	} else {
		sd = sqrt(mn * ((double)nx + (double)ny + 1) / 12);
		k = floor(mn / 2 - gsl_cdf_ugaussian_Qinv(alpha / 2) * sd +
		    0.5);
		q = k < 1 ? 1 : (size_t)k;
		res->conf = conf;
		res->exact = 0;
	}
	if (q > (nd + 1) / 2)
		q = (nd + 1) / 2;
	res->lo = stats_diffs_at(&df, q - 1);
	res->hi = stats_diffs_at(&df, nd - q);
	free(df.d);
	free(df.x);
	free(df.y);
	free(df.lo);
	free(df.hi);
	free(df.lt);
	free(df.le);
	return (0);
}

/* A p-value and where it was in the input. */
struct stats_pidx {
	double	p;
	size_t	i;
};

/* Order p-values ascending for qsort. */
static int
stats_pidx_cmp(const void *a, const void *b)
{
	const struct stats_pidx	*pa = a, *pb = b;

	return ((pa->p > pb->p) - (pa->p < pb->p));
}

/*
 * Store the Benjamini-Hochberg adjusted p-values (q-values) of p[0..n-1]
 * in q[0..n-1], in the input's order: q of the i-th smallest is the least
 * p(j) n / j over j >= i, capped at 1.  Ties get equal q-values whatever
 * their order.
 */
int
stats_bh(const double *p, size_t n, double *q)
{
	struct stats_pidx	*ord;
	size_t			 i;
	double			 run, v;

	if (stats_check("stats_bh", p, n, 1) == -1)
		return (-1);
	for (i = 0; i < n; i++) {
		if (p[i] < 0 || p[i] > 1) {
			log_warnx("stats_bh: p-value %zu (%g) not in [0, 1]",
			    i, p[i]);
			return (-1);
		}
	}
	ord = xreallocarray(NULL, n, sizeof(*ord));
	for (i = 0; i < n; i++) {
		ord[i].p = p[i];
		ord[i].i = i;
	}
	qsort(ord, n, sizeof(*ord), stats_pidx_cmp);
	run = 1;
	for (i = n; i-- > 0;) {
		v = ord[i].p * (double)n / (double)(i + 1);
		if (v < run)
			run = v;
		q[ord[i].i] = run;
	}
	free(ord);
	return (0);
}

/*
 * Run Welch's unequal-variance t test of mean(x) against mean(y), as
 * scipy.stats.ttest_ind(x, y, equal_var=False, alternative=...).  Both
 * samples need two values, and at least one must vary.
 */
int
stats_welch(const double *x, size_t nx, const double *y, size_t ny,
    enum stats_alt alt, struct stats_ttest *res)
{
	double	mx, my, sx, sy, vx, vy, se2;

	if (stats_check("stats_welch", x, nx, 2) == -1 ||
	    stats_check("stats_welch", y, ny, 2) == -1)
		return (-1);
	mx = stats_mean_of(x, nx);
	my = stats_mean_of(y, ny);
	sx = stats_sd_of(x, nx);
	sy = stats_sd_of(y, ny);
	vx = sx * sx / (double)nx;
	vy = sy * sy / (double)ny;
	se2 = vx + vy;
	if (se2 == 0) {
		log_warnx("stats_welch: both samples are constant");
		return (-1);
	}
	res->t = (mx - my) / sqrt(se2);
	res->df = se2 * se2 / (vx * vx / (double)(nx - 1) +
	    vy * vy / (double)(ny - 1));
	switch (alt) {
	case STATS_GREATER:
		res->p = gsl_cdf_tdist_Q(res->t, res->df);
		break;
	case STATS_LESS:
		res->p = gsl_cdf_tdist_P(res->t, res->df);
		break;
	default:
		res->p = 2 * gsl_cdf_tdist_Q(fabs(res->t), res->df);
		break;
	}
	if (res->p > 1)
		res->p = 1;
	return (0);
}

/*
 * Store the lag-1 autocorrelation of the series x: the sum of
 * (x_t - m)(x_t+1 - m) over the sum of (x_t - m)^2, m the mean (the
 * biased estimator of statsmodels' acf).  Needs three values and a series
 * that varies.
 */
int
stats_lag1_autocorr(const double *x, size_t n, double *out)
{
	double	m, sc, d, num = 0, den = 0;
	size_t	i;

	if (stats_check("stats_lag1_autocorr", x, n, 3) == -1)
		return (-1);
	m = stats_mean_of(x, n);
	sc = stats_dev_scale(x, n, m);
	for (i = 0; i < n; i++) {
		d = (x[i] - m) / sc;
		den += d * d;
		if (i + 1 < n)
			num += d * ((x[i + 1] - m) / sc);
	}
	if (den == 0) {
		log_warnx("stats_lag1_autocorr: constant series");
		return (-1);
	}
	*out = num / den;
	return (0);
}

/*
 * Return the factor by which to widen a noise estimate taken from a series with
 * lag-1 autocorrelation r: for an AR(1) process the standard error of a
 * mean of n values is sigma / sqrt(n) * sqrt((1 + r) / (1 - r)), i.e. the
 * series holds n (1 - r) / (1 + r) independent values.  r is clamped to
 * [0, 0.9]: a negative estimate never narrows, and a near-unit one (a
 * trend, not noise) is not allowed to blow the factor up past ~4.4.
 */
double
stats_ar1_inflation(double r)
{
	if (!(r > 0))
		r = 0;
	if (r > 0.9)
		r = 0.9;
	return (sqrt((1 + r) / (1 - r)));
}

/* Return the median of n values drawn with replacement from x. */
static double
stats_resample_median(gsl_rng *rng, const double *x, size_t n, double *buf)
{
	size_t	i;

	for (i = 0; i < n; i++)
		buf[i] = x[gsl_rng_uniform_int(rng, n)];
	qsort(buf, n, sizeof(*buf), stats_cmp);
	return (stats_median_sorted(buf, n));
}

/*
 * Compute the percentile-bootstrap interval at level conf of
 * median(y) / median(x) (the "after / before" ratio of a change), with reps resamples
 * from MT19937 seeded by seed: the same inputs always give the same
 * interval.  Fails when a median of x (original or resampled) is zero.
 */
int
stats_bootstrap_median_ratio(const double *x, size_t nx, const double *y,
    size_t ny, size_t reps, double conf, unsigned long seed,
    struct stats_interval *res)
{
	gsl_rng	*rng;
	double	*ratio, *buf, mx, my;
	size_t	 b;
	int	 rc = -1;

	if (stats_check("stats_bootstrap_median_ratio", x, nx, 1) == -1 ||
	    stats_check("stats_bootstrap_median_ratio", y, ny, 1) == -1)
		return (-1);
	if (!(conf > 0 && conf < 1) || reps < 2) {
		log_warnx("stats_bootstrap_median_ratio: bad confidence %g or "
		    "%zu resamples", conf, reps);
		return (-1);
	}
	if (stats_median(x, nx, &mx) == -1 || stats_median(y, ny, &my) == -1)
		return (-1);
	if (mx == 0) {
		log_warnx("stats_bootstrap_median_ratio: median of x is 0");
		return (-1);
	}
	res->estimate = my / mx;

	if ((rng = gsl_rng_alloc(gsl_rng_mt19937)) == NULL) {
		log_warnx("stats_bootstrap_median_ratio: gsl_rng_alloc");
		return (-1);
	}
	gsl_rng_set(rng, seed);
	ratio = xreallocarray(NULL, reps, sizeof(*ratio));
	buf = xreallocarray(NULL, nx > ny ? nx : ny, sizeof(*buf));
	for (b = 0; b < reps; b++) {
		mx = stats_resample_median(rng, x, nx, buf);
		my = stats_resample_median(rng, y, ny, buf);
		if (mx == 0) {
			log_warnx("stats_bootstrap_median_ratio: a resampled "
			    "median of x is 0");
			goto out;
		}
		ratio[b] = my / mx;
	}
	qsort(ratio, reps, sizeof(*ratio), stats_cmp);
	res->lo = stats_quantile_sorted(ratio, reps, (1 - conf) / 2);
	res->hi = stats_quantile_sorted(ratio, reps, (1 + conf) / 2);
	res->conf = conf;
	res->exact = 0;
	rc = 0;
out:
	free(buf);
	free(ratio);
	gsl_rng_free(rng);
	return (rc);
}
