/*
 * Unit tests of detect/stats.c and detect/changepoint.c.
 *
 * Reference values come from SciPy 1.10.1 / NumPy 1.24.2 (Debian 12); the
 * exact Python call is in the comment above each constant, with
 *   import numpy as np, scipy.stats as st
 * Where SciPy has no function (Moses interval, BH in 1.10, lag-1
 * autocorrelation) the comment gives the textbook formula in NumPy.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "perfwatch.h"
#include "detect/stats.h"

/* Its statics (the structures of the scans) are tested below. */
#include "../../detect/changepoint.c"

/* Fail unless got is within rel (relative) of want. */
static void
close_to(double got, double want, double rel, const char *what, int line)
{
	double	tol = rel * fabs(want);

	if (tol < 1e-300)
		tol = rel;
	if (!(fabs(got - want) <= tol)) {
		print_error("line %d: %s = %.17g, want %.17g (rel %g)\n", line,
		    what, got, want, rel);
		fail();
	}
}
#define CLOSE(got, want, rel)	close_to((got), (want), (rel), #got, __LINE__)

/* Samples with ties (scipy.stats.mannwhitneyu docs style). */
static const double tie_x[] = { 12, 15, 11, 18, 15, 14, 20, 15, 13 };
static const double tie_y[] = { 16, 19, 15, 22, 17, 21, 15, 18, 24, 20 };

/* Small samples without ties. */
static const double ex_x[] = { 3.1, 4.7, 2.2, 5.9, 4.1 };
static const double ex_y[] = { 6.3, 5.2, 7.8, 4.9, 6.6, 8.1, 5.5 };

static const double q_x[] = { 3.2, 1.5, 7.7, 4.4, 2.9, 9.1, 4.4, 0.3 };

static void
test_descriptive(void **state)
{
	double		 v, lo, hi, copy[nitems(q_x)];
	struct stats_summary s;

	(void)state;
	memcpy(copy, q_x, sizeof(copy));
	/* np.mean(q) */
	assert_int_equal(stats_mean(copy, nitems(copy), &v), 0);
	CLOSE(v, 4.1875, 1e-15);
	/* np.std(q, ddof=1) */
	assert_int_equal(stats_stddev(copy, nitems(copy), &v), 0);
	CLOSE(v, 2.964763300597778, 1e-14);
	/* np.median(q) */
	assert_int_equal(stats_median(copy, nitems(copy), &v), 0);
	CLOSE(v, 3.8000000000000003, 1e-15);
	/* The input is left as it was. */
	assert_memory_equal(copy, q_x, sizeof(copy));
	/* np.quantile(q, [0, 0.1, 0.25, 0.5, 0.9, 1]) */
	assert_int_equal(stats_quantile(copy, nitems(copy), 0, &v), 0);
	CLOSE(v, 0.3, 1e-15);
	assert_int_equal(stats_quantile(copy, nitems(copy), 0.1, &v), 0);
	CLOSE(v, 1.1400000000000001, 1e-14);
	assert_int_equal(stats_quantile(copy, nitems(copy), 0.25, &v), 0);
	CLOSE(v, 2.55, 1e-14);
	assert_int_equal(stats_quantile(copy, nitems(copy), 0.5, &v), 0);
	CLOSE(v, 3.8000000000000003, 1e-15);
	assert_int_equal(stats_quantile(copy, nitems(copy), 0.9, &v), 0);
	CLOSE(v, 8.12, 1e-14);
	assert_int_equal(stats_quantile(copy, nitems(copy), 1, &v), 0);
	CLOSE(v, 9.1, 1e-15);
	assert_memory_equal(copy, q_x, sizeof(copy));
	assert_int_equal(stats_quantile(copy, nitems(copy), 1.5, &v), -1);
	assert_int_equal(stats_quantile(copy, nitems(copy), NAN, &v), -1);
	/* st.median_abs_deviation(q, scale='normal') */
	assert_int_equal(stats_mad(copy, nitems(copy), &v), 0);
	CLOSE(v, 2.3721635496089637, 1e-12);
	assert_int_equal(stats_minmax(copy, nitems(copy), &lo, &hi), 0);
	CLOSE(lo, 0.3, 0);
	CLOSE(hi, 9.1, 0);

	assert_int_equal(stats_summarize(copy, nitems(copy), &s), 0);
	assert_int_equal(s.n, nitems(copy));
	CLOSE(s.mean, 4.1875, 1e-15);
	CLOSE(s.stddev, 2.964763300597778, 1e-14);
	CLOSE(s.median, 3.8000000000000003, 1e-15);
	CLOSE(s.mad, 2.3721635496089637, 1e-12);
	CLOSE(s.min, 0.3, 0);
	CLOSE(s.max, 9.1, 0);
}

static void
test_edge_cases(void **state)
{
	const double		 one[] = { 7.5 };
	const double		 same[] = { 3, 3, 3, 3 };
	const double		 bad[] = { 1, NAN, 3 };
	const double		 inf[] = { 1, INFINITY, 3 };
	double			 v, lo, hi, q[1];
	struct stats_summary	 s;
	struct stats_mwu	 mwu;
	struct stats_interval	 iv;
	struct stats_ttest	 tt;
	struct cp_change	*cp;
	size_t			 ncp;

	(void)state;
	/* Empty input is an error everywhere. */
	assert_int_equal(stats_mean(one, 0, &v), -1);
	assert_int_equal(stats_stddev(one, 0, &v), -1);
	assert_int_equal(stats_median(one, 0, &v), -1);
	assert_int_equal(stats_quantile(one, 0, 0.5, &v), -1);
	assert_int_equal(stats_mad(one, 0, &v), -1);
	assert_int_equal(stats_minmax(one, 0, &lo, &hi), -1);
	assert_int_equal(stats_summarize(one, 0, &s), -1);
	assert_int_equal(stats_mwu(one, 0, one, 1, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), -1);
	assert_int_equal(stats_mwu(one, 1, one, 0, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), -1);
	assert_int_equal(stats_hl_shift(one, 0, one, 1, 0.95, &iv), -1);
	assert_int_equal(stats_bh(one, 0, q), -1);
	assert_int_equal(stats_welch(one, 0, same, 4, STATS_TWO_SIDED, &tt),
	    -1);
	assert_int_equal(stats_lag1_autocorr(one, 0, &v), -1);
	assert_int_equal(stats_bootstrap_median_ratio(one, 0, one, 1, 100,
	    0.95, 1, &iv), -1);
	assert_int_equal(stats_mwu_cdf(0, 3, 1, &v), -1);
	assert_int_equal(cp_detect(one, 0, NULL, &cp, &ncp), -1);

	/* Non-finite values are refused. */
	assert_int_equal(stats_median(bad, 3, &v), -1);
	assert_int_equal(stats_mean(inf, 3, &v), -1);
	assert_int_equal(stats_mwu(bad, 3, one, 1, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), -1);
	assert_int_equal(cp_detect(bad, 3, NULL, &cp, &ncp), -1);

	/* n = 1. */
	assert_int_equal(stats_median(one, 1, &v), 0);
	CLOSE(v, 7.5, 0);
	assert_int_equal(stats_quantile(one, 1, 0.3, &v), 0);
	CLOSE(v, 7.5, 0);
	assert_int_equal(stats_mean(one, 1, &v), 0);
	CLOSE(v, 7.5, 0);
	assert_int_equal(stats_mad(one, 1, &v), 0);
	CLOSE(v, 0, 0);
	assert_int_equal(stats_stddev(one, 1, &v), -1);
	assert_int_equal(stats_summarize(one, 1, &s), 0);
	assert_true(isnan(s.stddev));
	CLOSE(s.median, 7.5, 0);
	assert_int_equal(stats_welch(one, 1, same, 4, STATS_TWO_SIDED, &tt),
	    -1);
	assert_int_equal(stats_lag1_autocorr(same, 2, &v), -1);
	/* st.mannwhitneyu([5], [5]) -> U 0.5, p 1.0 */
	assert_int_equal(stats_mwu(one, 1, one, 1, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 0.5, 0);
	CLOSE(mwu.p, 1, 0);
	/* st.mannwhitneyu([1], [2], method='exact') -> U 0, p 1.0 */
	{
		const double a[] = { 1 }, b[] = { 2 };

		assert_int_equal(stats_mwu(a, 1, b, 1, STATS_TWO_SIDED,
		    STATS_MWU_EXACT, &mwu), 0);
		CLOSE(mwu.u, 0, 0);
		CLOSE(mwu.p, 1, 0);
		assert_int_equal(mwu.exact, 1);
	}
	/* HL with one value each: the difference, with 0% coverage. */
	{
		const double a[] = { 1 }, b[] = { 2.5 };

		assert_int_equal(stats_hl_shift(a, 1, b, 1, 0.95, &iv), 0);
		CLOSE(iv.estimate, 1.5, 0);
		CLOSE(iv.lo, 1.5, 0);
		CLOSE(iv.hi, 1.5, 0);
		CLOSE(iv.conf, 0, 0);
	}
	/* BH of one p-value is itself. */
	q[0] = 0;
	v = 0.3;
	assert_int_equal(stats_bh(&v, 1, q), 0);
	CLOSE(q[0], 0.3, 0);

	/* All-equal samples. */
	assert_int_equal(stats_stddev(same, 4, &v), 0);
	CLOSE(v, 0, 0);
	/*
	 * Equal samples whose sum / n is not the sample: 0, not 1.7e-17
	 * and 2.7e-16.  statistics.stdev([0.1] * 3) -> 0.0,
	 * statistics.stdev([0.1, 0.2]) -> 0.07071067811865475 (exact
	 * arithmetic; ours within 2 units in the last place).
	 */
	{
		static const double	tenth[] = { 0.1, 0.1, 0.1 };
		static const double	odd[] = { 1.56669, 1.56669, 1.56669 };
		static const double	two[] = { 0.1, 0.2 };

		assert_int_equal(stats_stddev(tenth, 3, &v), 0);
		CLOSE(v, 0, 0);
		assert_int_equal(stats_stddev(odd, 3, &v), 0);
		CLOSE(v, 0, 0);
		assert_int_equal(stats_stddev(two, 2, &v), 0);
		CLOSE(v, 0.07071067811865475, 1e-15);
	}
	assert_int_equal(stats_mad(same, 4, &v), 0);
	CLOSE(v, 0, 0);
	/* st.mannwhitneyu([3,3,3], [3,3,3,3]) -> U 6.0, p 1.0 */
	assert_int_equal(stats_mwu(same, 3, same, 4, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 6, 0);
	CLOSE(mwu.p, 1, 0);
	assert_int_equal(mwu.ties, 1);
	assert_int_equal(mwu.exact, 0);
	assert_int_equal(stats_mwu(same, 3, same, 4, STATS_TWO_SIDED,
	    STATS_MWU_EXACT, &mwu), -1);
	assert_int_equal(stats_hl_shift(same, 3, same, 4, 0.95, &iv), 0);
	CLOSE(iv.estimate, 0, 0);
	CLOSE(iv.lo, 0, 0);
	CLOSE(iv.hi, 0, 0);
	assert_int_equal(stats_welch(same, 4, same, 3, STATS_TWO_SIDED, &tt),
	    -1);
	assert_int_equal(stats_lag1_autocorr(same, 4, &v), -1);
	assert_int_equal(cp_detect(same, 4, NULL, &cp, &ncp), 0);
	assert_int_equal(ncp, 0);
	assert_null(cp);
	/* Ratio of medians of identical samples is exactly 1. */
	assert_int_equal(stats_bootstrap_median_ratio(same, 4, same, 3, 50,
	    0.9, 3, &iv), 0);
	CLOSE(iv.estimate, 1, 0);
	CLOSE(iv.lo, 1, 0);
	CLOSE(iv.hi, 1, 0);
	/* A zero baseline median has no ratio. */
	{
		const double zero[] = { 0, 0, 1 };

		assert_int_equal(stats_bootstrap_median_ratio(zero, 3, same, 3,
		    50, 0.9, 3, &iv), -1);
	}
}

/* Order doubles ascending for qsort. */
static int
dbl_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/*
 * Selection against a sort: for arrays of 1 to 70 values, with and
 * without ties (values drawn from 5 levels), every k-th smallest of
 * stats_select and the median of stats_median_inplace must be the very
 * value the sorted array gives (the median bit for bit, as it was when
 * stats_median sorted), and the array a permutation of what it was.
 */
static void
test_select(void **state)
{
	gsl_rng	*rng;
	double	 x[70], s[70], w[70], t[70];
	size_t	 n, k, i, trial;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	for (trial = 0; trial < 400; trial++) {
		n = 1 + trial % 70;
		for (i = 0; i < n; i++)
			x[i] = trial % 2 ? (double)gsl_rng_uniform_int(rng, 5) :
			    gsl_ran_gaussian(rng, 1);
		memcpy(s, x, n * sizeof(*x));
		qsort(s, n, sizeof(*s), dbl_cmp);
		for (k = 0; k < n; k++) {
			memcpy(w, x, n * sizeof(*x));
			stats_select(w, n, k);
			assert_true(w[k] == s[k]);
			for (i = 0; i < k; i++)
				assert_true(w[i] <= w[k]);
			for (i = k + 1; i < n; i++)
				assert_true(w[i] >= w[k]);
			memcpy(t, w, n * sizeof(*w));
			qsort(t, n, sizeof(*t), dbl_cmp);
			assert_memory_equal(t, s, n * sizeof(*s));
		}
		memcpy(w, x, n * sizeof(*x));
		assert_true(stats_median_inplace(w, n) ==
		    stats_median_sorted(s, n));
	}
	gsl_rng_free(rng);
}

/*
 * Tukey's biweight location, scale held at the normalized MAD, c = 4.685:
 * SciPy finds the root of the estimating equation nearest the median (by
 * bracketing within one MAD of it), an independent route from the
 * reweighted means of stats_biweight:
 *   from scipy.optimize import brentq
 *   s = st.median_abs_deviation(x, scale='normal'); m = np.median(x)
 *   def f(mu):
 *       u = (x - mu) / (4.685 * s)
 *       return np.sum(np.where(abs(u) < 1, u * (1 - u * u) ** 2, 0))
 *   brentq(f, m - s, m + s, xtol=1e-14)
 */
static void
test_biweight(void **state)
{
	static const double a[] = { 100.2, 99.1, 101.3, 98.7, 100.9 };
	static const double b[] = { 10.0, 10.4, 9.8, 10.1, 17.5 };
	static const double c[] = { 3.0, 3.1, 2.9, 3.05, 5.9, 6.2 };
	static const double d[] = { 1, 2, 3, 4, 100 };
	static const double e[] = { 5.0, 5.1, 5.3, 4.8, 5.2, 5.6, 9.0 };
	static const double same[] = { 7, 7, 7, 9 };
	double	loc, scale;

	(void)state;
	assert_int_equal(stats_biweight(a, nitems(a), 4.685, &loc, &scale),
	    0);
	CLOSE(loc, 100.04445356464058, 1e-10);
	CLOSE(scale, 1.6308624403561538, 1e-12);
	/* The wild 17.5 counts for nothing. */
	assert_int_equal(stats_biweight(b, nitems(b), 4.685, &loc, &scale),
	    0);
	CLOSE(loc, 10.073414980998658, 1e-10);
	CLOSE(scale, 0.444780665551679, 1e-12);
	assert_int_equal(stats_biweight(c, nitems(c), 4.685, &loc, NULL), 0);
	CLOSE(loc, 3.012981434494216, 1e-10);
	assert_int_equal(stats_biweight(d, nitems(d), 4.685, &loc, NULL), 0);
	CLOSE(loc, 2.5, 1e-10);
	assert_int_equal(stats_biweight(e, nitems(e), 4.685, &loc, NULL), 0);
	CLOSE(loc, 5.160899938478077, 1e-10);
	/* A zero MAD: the median. */
	assert_int_equal(stats_biweight(same, nitems(same), 4.685, &loc,
	    &scale), 0);
	CLOSE(loc, 7.0, 1e-15);
	CLOSE(scale, 0.0, 1e-15);
	assert_int_equal(stats_biweight(a, 0, 4.685, &loc, NULL), -1);
}

static void
test_distributions(void **state)
{
	(void)state;
	/* st.norm.cdf(1.3) */
	CLOSE(stats_norm_cdf(1.3), 0.9031995154143897, 1e-13);
	/* st.norm.ppf(0.975) */
	CLOSE(stats_norm_quantile(0.975), 1.959963984540054, 1e-12);
	/* st.t.cdf(-2.1, 7.5) */
	CLOSE(stats_t_cdf(-2.1, 7.5), 0.03561853572903902, 1e-10);
	/* st.t.ppf(0.95, 12) */
	CLOSE(stats_t_quantile(0.95, 12), 1.782287555649159, 1e-10);
}

static void
test_mwu_ties(void **state)
{
	struct stats_mwu	mwu;

	(void)state;
	/* st.mannwhitneyu(x, y, alternative='two-sided',
	 *     method='asymptotic', use_continuity=True)
	 *   -> (14.0, 0.011913458621922087) */
	assert_int_equal(stats_mwu(tie_x, nitems(tie_x), tie_y, nitems(tie_y),
	    STATS_TWO_SIDED, STATS_MWU_ASYMPTOTIC, &mwu), 0);
	CLOSE(mwu.u, 14, 0);
	CLOSE(mwu.p, 0.011913458621922087, 1e-10);
	assert_int_equal(mwu.ties, 1);
	assert_int_equal(mwu.exact, 0);
	assert_true(mwu.z < 0);
	/* Ties force 'auto' to the asymptotic method. */
	assert_int_equal(stats_mwu(tie_x, nitems(tie_x), tie_y, nitems(tie_y),
	    STATS_TWO_SIDED, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.p, 0.011913458621922087, 1e-10);
	assert_int_equal(mwu.exact, 0);
	/* ... alternative='less' -> 0.005956729310961043 */
	assert_int_equal(stats_mwu(tie_x, nitems(tie_x), tie_y, nitems(tie_y),
	    STATS_LESS, STATS_MWU_ASYMPTOTIC, &mwu), 0);
	CLOSE(mwu.p, 0.005956729310961043, 1e-10);
	/* ... alternative='greater' -> 0.9952999089019741 */
	assert_int_equal(stats_mwu(tie_x, nitems(tie_x), tie_y, nitems(tie_y),
	    STATS_GREATER, STATS_MWU_ASYMPTOTIC, &mwu), 0);
	CLOSE(mwu.u, 14, 0);
	CLOSE(mwu.p, 0.9952999089019741, 1e-12);
	/* Exact is refused with ties. */
	assert_int_equal(stats_mwu(tie_x, nitems(tie_x), tie_y, nitems(tie_y),
	    STATS_TWO_SIDED, STATS_MWU_EXACT, &mwu), -1);
}

/* Six against twenty, no ties: SciPy 1.10's 'auto' takes exact here. */
static const double six[] = {
	10.346, 10.822, 10.33, 8.697, 10.905, 10.446,
};
static const double twenty[] = {
	10.463, 11.581, 11.365, 11.294, 11.028, 11.547, 10.264, 10.837,
	10.518, 11.599, 11.04, 10.708, 10.218, 10.743, 11.008, 10.724,
	12.294, 12.007, 8.289, 9.111,
};

static void
test_mwu_exact(void **state)
{
	struct stats_mwu	mwu;
	const double		c[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9.5 };
	const double		d[] = { 4.5, 6.5, 8.5, 9.7, 10, 11, 12, 13,
				    14 };

	(void)state;
	/* st.mannwhitneyu(ex_x, ex_y, method='exact')
	 *   -> (3.0, 0.01767676767676768) */
	assert_int_equal(stats_mwu(ex_x, nitems(ex_x), ex_y, nitems(ex_y),
	    STATS_TWO_SIDED, STATS_MWU_EXACT, &mwu), 0);
	CLOSE(mwu.u, 3, 0);
	CLOSE(mwu.p, 0.01767676767676768, 1e-12);
	assert_int_equal(mwu.exact, 1);
	assert_int_equal(mwu.ties, 0);
	/* ... method='auto' gives the same (5 and 7 values, no ties). */
	assert_int_equal(stats_mwu(ex_x, nitems(ex_x), ex_y, nitems(ex_y),
	    STATS_TWO_SIDED, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.p, 0.01767676767676768, 1e-12);
	assert_int_equal(mwu.exact, 1);
	/* ... alternative='less' -> 0.00883838383838384 */
	assert_int_equal(stats_mwu(ex_x, nitems(ex_x), ex_y, nitems(ex_y),
	    STATS_LESS, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.p, 0.00883838383838384, 1e-12);
	/* ... alternative='greater' -> 0.9949494949494948 */
	assert_int_equal(stats_mwu(ex_x, nitems(ex_x), ex_y, nitems(ex_y),
	    STATS_GREATER, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.p, 0.9949494949494948, 1e-12);
	/* Swapping the samples gives U = mn - U. */
	assert_int_equal(stats_mwu(ex_y, nitems(ex_y), ex_x, nitems(ex_x),
	    STATS_TWO_SIDED, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 32, 0);
	CLOSE(mwu.p, 0.01767676767676768, 1e-12);

	/* st.mannwhitneyu(six, twenty, method='auto')
	 *   -> (32.0, 0.09490509490509488), the exact value */
	assert_int_equal(stats_mwu(six, nitems(six), twenty, nitems(twenty),
	    STATS_TWO_SIDED, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 32, 0);
	CLOSE(mwu.p, 0.09490509490509488, 1e-12);
	assert_int_equal(mwu.exact, 1);
	/* ... method='asymptotic' -> 0.09420988683387359 */
	assert_int_equal(stats_mwu(six, nitems(six), twenty, nitems(twenty),
	    STATS_TWO_SIDED, STATS_MWU_ASYMPTOTIC, &mwu), 0);
	CLOSE(mwu.p, 0.09420988683387359, 1e-10);

	/* Nine against nine: 'auto' is asymptotic.
	 * st.mannwhitneyu(c, d, method='auto') -> (9.0, 0.006193318174044277)
	 * st.mannwhitneyu(c, d, method='exact') -> 0.0039901275195392836 */
	assert_int_equal(stats_mwu(c, nitems(c), d, nitems(d),
	    STATS_TWO_SIDED, STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 9, 0);
	CLOSE(mwu.p, 0.006193318174044277, 1e-10);
	assert_int_equal(mwu.exact, 0);
	assert_int_equal(stats_mwu(c, nitems(c), d, nitems(d),
	    STATS_TWO_SIDED, STATS_MWU_EXACT, &mwu), 0);
	CLOSE(mwu.p, 0.0039901275195392836, 1e-12);
}

static void
test_mwu_cdf(void **state)
{
	double	v;

	(void)state;
	/* Exact null distribution of U for m = 5, n = 7, by enumerating
	 * every choice of the ranks of x:
	 *   cnt = Counter(sum(c) - 15 for c in
	 *       itertools.combinations(range(1, 13), 5))
	 *   np.cumsum([cnt[k] / math.comb(12, 5) for k in range(36)])
	 * -> [3] 0.00883838383838384, [17] 0.5, [30] 0.9848484848484848 */
	assert_int_equal(stats_mwu_cdf(5, 7, 3, &v), 0);
	CLOSE(v, 0.00883838383838384, 1e-12);
	assert_int_equal(stats_mwu_cdf(5, 7, 17, &v), 0);
	CLOSE(v, 0.5, 1e-12);
	assert_int_equal(stats_mwu_cdf(7, 5, 30, &v), 0);
	CLOSE(v, 0.9848484848484848, 1e-12);
	assert_int_equal(stats_mwu_cdf(5, 7, 30.5, &v), 0);
	CLOSE(v, 0.9848484848484848, 1e-12);
	assert_int_equal(stats_mwu_cdf(5, 7, -1, &v), 0);
	CLOSE(v, 0, 0);
	assert_int_equal(stats_mwu_cdf(5, 7, 35, &v), 0);
	CLOSE(v, 1, 0);
	/* P(U <= 0) = 1 / C(12, 5) */
	assert_int_equal(stats_mwu_cdf(5, 7, 0, &v), 0);
	CLOSE(v, 1.0 / 792, 1e-12);
	/* Too large for an exact table: refused, not attempted. */
	assert_int_equal(stats_mwu_cdf(2000, 2000, 1e6, &v), -1);
}

static void
test_mwu_unbalanced(void **state)
{
	struct stats_mwu	 mwu;
	double			*x, *y;
	size_t			 i;

	(void)state;
	x = calloc(8, sizeof(*x));
	y = calloc(1000, sizeof(*y));
	assert_non_null(x);
	assert_non_null(y);
	for (i = 0; i < 8; i++)
		x[i] = 500.25 + (double)i;
	for (i = 0; i < 1000; i++)
		y[i] = 0.5 + (double)i;
	/* x = np.arange(500, 508) + 0.25; y = np.arange(1000) + 0.5
	 * st.mannwhitneyu(x, y, method='auto')  (8 values: exact)
	 *   -> (4028.0, 0.973757362593825) */
	assert_int_equal(stats_mwu(x, 8, y, 1000, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), 0);
	CLOSE(mwu.u, 4028, 0);
	CLOSE(mwu.p, 0.973757362593825, 1e-12);
	assert_int_equal(mwu.exact, 1);
	/* The exact method for 2000 against 2000 is refused. */
	x = realloc(x, 2000 * sizeof(*x));
	y = realloc(y, 2000 * sizeof(*y));
	assert_non_null(x);
	assert_non_null(y);
	for (i = 0; i < 2000; i++) {
		x[i] = 0.25 + (double)i;
		y[i] = 0.5 + (double)i;
	}
	assert_int_equal(stats_mwu(x, 2000, y, 2000, STATS_TWO_SIDED,
	    STATS_MWU_EXACT, &mwu), -1);
	assert_int_equal(stats_mwu(x, 2000, y, 2000, STATS_TWO_SIDED,
	    STATS_MWU_AUTO, &mwu), 0);
	assert_int_equal(mwu.exact, 0);
	free(x);
	free(y);
}

/*
 * Reference for the Moses interval (Hollander and Wolfe, section 4.3), in
 * Python, with the exact U distribution by enumeration:
 *
 *   def moses(x, y, conf):
 *       m, n = len(x), len(y); N = m * n; a = 1 - conf
 *       d = np.sort(np.subtract.outer(y, x).ravel())
 *       if m < 50 and n < 50:
 *           cnt = Counter(sum(c) - m*(m+1)//2 for c in
 *               itertools.combinations(range(1, m+n+1), m))
 *           pm = np.cumsum([cnt[k] / math.comb(m+n, m)
 *               for k in range(N + 1)])
 *           q = 0
 *           while q < N // 2 and pm[q] < a / 2: q += 1
 *           q = max(q, 1); ach = 1 - 2 * pm[q - 1]
 *       else:
 *           sd = math.sqrt(N * (m + n + 1) / 12)
 *           q = max(1, math.floor(N/2 - st.norm.isf(a/2) * sd + 0.5))
 *           ach = conf
 *       q = min(q, (N + 1) // 2)
 *       return np.median(d), d[q - 1], d[N - q], ach
 *
 * With no ties this is R's wilcox.test(y, x, conf.int=TRUE).
 */
static const double hl_x[] = {
	1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30,
};
static const double hl_y[] = {
	2.878, 2.647, 2.598, 4.05, 3.07, 3.29, 2.16, 4.14, 3.39, 2.71,
};

/* rng = np.random.default_rng(7); np.round(rng.normal(100, 5, 60), 2) */
static const double big_x[] = {
	100.01, 101.49, 98.63, 95.55, 97.73, 95.04, 100.3, 106.7, 97.54,
	96.9, 102.45, 101.78, 100.53, 95.35, 99.85, 103.48, 93.28, 97.71,
	90.49, 93.55, 90.79, 98.82, 93.66, 101.36, 100.78, 99.07, 87.42,
	97.31, 99.76, 100.57, 92.35, 97.61, 95.11, 95.96, 105.3, 95.96,
	99.84, 104.42, 97.08, 99.44, 100.55, 100.32, 93.87, 100.38, 106.79,
	92.26, 104.3, 100.6, 96.79, 110.0, 103.81, 94.0, 100.37, 102.88,
	99.06, 103.41, 99.67, 103.34, 107.19, 96.62,
};
/* then np.round(rng.normal(104, 5, 55), 2) */
static const double big_y[] = {
	105.02, 101.68, 104.64, 98.06, 101.1, 103.02, 108.49, 109.73, 97.38,
	100.03, 107.23, 94.04, 101.68, 103.51, 110.29, 107.45, 102.36,
	102.16, 102.75, 111.62, 101.86, 102.48, 105.76, 103.4, 103.01,
	98.43, 103.94, 101.78, 109.83, 107.27, 103.88, 107.34, 102.3,
	109.26, 103.97, 106.92, 97.55, 105.73, 95.56, 93.82, 102.48, 99.5,
	104.82, 115.22, 99.84, 100.88, 105.03, 106.47, 103.12, 102.97,
	107.51, 106.6, 98.83, 103.6, 104.18,
};

static void
test_hodges_lehmann(void **state)
{
	struct stats_interval	iv;

	(void)state;
	/* moses(hl_x, hl_y, 0.95)
	 *   -> (1.278, 0.7669999999999999, 2.098, 0.9565264456905324) */
	assert_int_equal(stats_hl_shift(hl_x, nitems(hl_x), hl_y,
	    nitems(hl_y), 0.95, &iv), 0);
	CLOSE(iv.estimate, 1.278, 1e-12);
	CLOSE(iv.lo, 0.7669999999999999, 1e-12);
	CLOSE(iv.hi, 2.098, 1e-12);
	CLOSE(iv.conf, 0.9565264456905324, 1e-10);
	assert_int_equal(iv.exact, 1);
	/* moses(hl_x, hl_y, 0.90)
	 *   -> (1.278, 0.8300000000000001, 1.77, 0.905280478035896) */
	assert_int_equal(stats_hl_shift(hl_x, nitems(hl_x), hl_y,
	    nitems(hl_y), 0.90, &iv), 0);
	CLOSE(iv.lo, 0.8300000000000001, 1e-12);
	CLOSE(iv.hi, 1.77, 1e-12);
	CLOSE(iv.conf, 0.905280478035896, 1e-10);
	/* moses(ex_x, ex_y, 0.95) -> (2.2, 0.5, 4.1, 0.952020202020202) */
	assert_int_equal(stats_hl_shift(ex_x, nitems(ex_x), ex_y,
	    nitems(ex_y), 0.95, &iv), 0);
	CLOSE(iv.estimate, 2.2, 1e-12);
	CLOSE(iv.lo, 0.5, 1e-12);
	CLOSE(iv.hi, 4.1, 1e-12);
	CLOSE(iv.conf, 0.952020202020202, 1e-10);
	/* Normal approximation: moses(big_x, big_y, 0.95)
	 *   -> (4.515000000000001, 3.0200000000000102, 6.230000000000004,
	 *       0.95) */
	assert_int_equal(stats_hl_shift(big_x, nitems(big_x), big_y,
	    nitems(big_y), 0.95, &iv), 0);
	CLOSE(iv.estimate, 4.515000000000001, 1e-12);
	CLOSE(iv.lo, 3.0200000000000102, 1e-12);
	CLOSE(iv.hi, 6.230000000000004, 1e-12);
	CLOSE(iv.conf, 0.95, 0);
	assert_int_equal(iv.exact, 0);
	assert_int_equal(stats_hl_shift(hl_x, nitems(hl_x), hl_y,
	    nitems(hl_y), 1.0, &iv), -1);
}

/*
 * Samples whose differences are too many to sort (above HL_SORT_MAX) get
 * the same estimate and interval, to the bit, from selection: checked
 * against all the differences sorted, on tied and on continuous samples.
 * Before, they were all held: two runs of 30000 samples took 7.2 GB.
 */
static void
test_hodges_lehmann_select(void **state)
{
	struct stats_interval	 iv;
	gsl_rng			*rng;
	double			*x, *y, *d, mn, sd, k, want;
	size_t			 nx = 2100, ny = 2050, i, j, nd, q;
	int			 round;

	(void)state;
	nd = nx * ny;
	assert_true(nd > (1 << 22));	/* stats.c's HL_SORT_MAX */
	x = xreallocarray(NULL, nx, sizeof(*x));
	y = xreallocarray(NULL, ny, sizeof(*y));
	d = xreallocarray(NULL, nd, sizeof(*d));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 17);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < nx; i++)
			x[i] = round == 0 ? (double)gsl_rng_uniform_int(rng, 7) :
			    100 + gsl_ran_gaussian(rng, 3);
		for (j = 0; j < ny; j++)
			y[j] = round == 0 ? 0.5 * (double)gsl_rng_uniform_int(
			    rng, 15) : 103 + gsl_ran_gaussian(rng, 3);
		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				d[i * ny + j] = y[j] - x[i];
		qsort(d, nd, sizeof(*d), dbl_cmp);
		assert_int_equal(stats_hl_shift(x, nx, y, ny, 0.95, &iv), 0);
		want = nd % 2 == 1 ? d[nd / 2] : d[nd / 2 - 1] / 2 + d[nd / 2] / 2;
		assert_true(iv.estimate == want);
		/* The textbook normal critical value, as in the notes. */
		mn = (double)nd;
		sd = sqrt(mn * ((double)nx + (double)ny + 1) / 12);
		k = floor(mn / 2 - gsl_cdf_ugaussian_Qinv(0.025) * sd + 0.5);
		q = (size_t)k;
		assert_true(iv.lo == d[q - 1]);
		assert_true(iv.hi == d[nd - q]);
		assert_int_equal(iv.exact, 0);
	}
	gsl_rng_free(rng);
	free(d);
	free(y);
	free(x);
}

static void
test_bh(void **state)
{
	/* Unsorted, with a tie of three at 0.04. */
	const double	p[] = { 0.01, 0.04, 0.03, 0.04, 0.2, 0.001, 0.5, 0.04,
			    0.9 };
	/* SciPy 1.10 has no false_discovery_control; its formula:
	 *   o = np.argsort(p); n = len(p)
	 *   q = np.minimum.accumulate((p[o] * n / np.arange(1, n+1))[::-1])
	 *   out = np.empty(n); out[o] = np.minimum(q[::-1], 1)
	 * -> [0.045, 0.06, 0.06, 0.06, 0.25714286, 0.009, 0.5625, 0.06, 0.9]
	 * (st.false_discovery_control(p, method='bh') in SciPy >= 1.11) */
	const double	want[] = { 0.045, 0.06, 0.06, 0.06, 0.9 * 2 / 7,
			    0.009, 0.5625, 0.06, 0.9 };
	const double	big[] = { 0.9, 0.95, 0.99 };
	const double	out_of_range[] = { 0.1, 1.5 };
	double		q[nitems(p)];
	size_t		i;

	(void)state;
	assert_int_equal(stats_bh(p, nitems(p), q), 0);
	for (i = 0; i < nitems(p); i++)
		CLOSE(q[i], want[i], 1e-12);
	/* Capped at 1 and monotone in p. */
	assert_int_equal(stats_bh(big, nitems(big), q), 0);
	CLOSE(q[0], 0.99, 1e-15);
	CLOSE(q[1], 0.99, 1e-15);
	CLOSE(q[2], 0.99, 1e-15);
	{
		const double cap[] = { 0.6, 0.7 };

		/* [0.6*2/1, 0.7*2/2] -> min from the end: [0.7, 0.7] */
		assert_int_equal(stats_bh(cap, 2, q), 0);
		CLOSE(q[0], 0.7, 1e-15);
		CLOSE(q[1], 0.7, 1e-15);
	}
	assert_int_equal(stats_bh(out_of_range, 2, q), -1);
}

static void
test_welch(void **state)
{
	const double x[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
	    21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double y[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
	    24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4, 25.0, 20.1 };
	struct stats_ttest	tt;

	(void)state;
	/* st.ttest_ind(x, y, equal_var=False)
	 *   -> (-2.416715927149742, 0.023228139586204587)
	 * Welch-Satterthwaite df (numpy): 25.19172023690308 */
	assert_int_equal(stats_welch(x, nitems(x), y, nitems(y),
	    STATS_TWO_SIDED, &tt), 0);
	CLOSE(tt.t, -2.416715927149742, 1e-12);
	CLOSE(tt.df, 25.19172023690308, 1e-12);
	CLOSE(tt.p, 0.023228139586204587, 1e-9);
	/* ... alternative='less' -> 0.011614069793102293 */
	assert_int_equal(stats_welch(x, nitems(x), y, nitems(y), STATS_LESS,
	    &tt), 0);
	CLOSE(tt.p, 0.011614069793102293, 1e-9);
	/* ... alternative='greater' -> 0.9883859302068977 */
	assert_int_equal(stats_welch(x, nitems(x), y, nitems(y),
	    STATS_GREATER, &tt), 0);
	CLOSE(tt.p, 0.9883859302068977, 1e-11);
}

/*
 * The spread of values far from 1 in magnitude: their deviations squared
 * overflowed (1e200: an sd of inf, the show table's "inf", and a check
 * that never saw a 30% step) or underflowed (1e-200: an sd of 0), and
 * near 1.5e308 their sums overflowed too.  The figures are those of the
 * same values near 1, scaled.
 */
static void
test_extreme_scales(void **state)
{
	const double base[] = { 1.01, 1.02, 1.03, 1.05, 1.04, 1.02 };
	const double scales[] = { 1e200, 1e300, 1.5e308, 1e-200, 1e-300 };
	double x[nitems(base)], sd1, r1, m1, b1, v, mad;
	struct stats_summary s;
	size_t i, j;

	(void)state;
	assert_int_equal(stats_stddev(base, nitems(base), &sd1), 0);
	assert_int_equal(stats_lag1_autocorr(base, nitems(base), &r1), 0);
	assert_int_equal(stats_mean(base, nitems(base), &m1), 0);
	assert_int_equal(stats_biweight(base, nitems(base), 4.685, &b1, &mad),
	    0);
	for (j = 0; j < nitems(scales); j++) {
		for (i = 0; i < nitems(base); i++)
			x[i] = base[i] * scales[j];
		assert_int_equal(stats_stddev(x, nitems(x), &v), 0);
		CLOSE(v / scales[j], sd1, 1e-9);
		assert_int_equal(stats_summarize(x, nitems(x), &s), 0);
		CLOSE(s.stddev / scales[j], sd1, 1e-9);
		assert_int_equal(stats_lag1_autocorr(x, nitems(x), &v), 0);
		CLOSE(v, r1, 1e-9);
		/* Near 1.5e308 the plain sums overflow. */
		assert_int_equal(stats_mean(x, nitems(x), &v), 0);
		CLOSE(v / scales[j], m1, 1e-9);
		assert_int_equal(stats_biweight(x, nitems(x), 4.685, &v, &mad),
		    0);
		CLOSE(v / scales[j], b1, 1e-9);
	}
}

static void
test_autocorr(void **state)
{
	const double s[] = { 5.1, 5.3, 5.2, 5.6, 5.8, 5.7, 5.4, 5.0, 4.9, 5.2,
	    5.5, 5.9, 6.1, 5.8 };
	const double alt[] = { 1, -1, 1, -1, 1, -1 };
	double v;

	(void)state;
	/* d = s - s.mean(); (d[:-1] * d[1:]).sum() / (d * d).sum()
	 * (= statsmodels.tsa.stattools.acf(s, nlags=1)[1])
	 *   -> 0.6433873343151694 */
	assert_int_equal(stats_lag1_autocorr(s, nitems(s), &v), 0);
	CLOSE(v, 0.6433873343151694, 1e-12);
	/* Alternating signs: -5/6. */
	assert_int_equal(stats_lag1_autocorr(alt, nitems(alt), &v), 0);
	CLOSE(v, -5.0 / 6, 1e-12);
	/* sqrt((1 + r) / (1 - r)), r clamped to [0, 0.9]. */
	CLOSE(stats_ar1_inflation(0.6433873343151694),
	    sqrt(1.6433873343151694 / 0.3566126656848306), 1e-12);
	CLOSE(stats_ar1_inflation(-0.5), 1, 0);
	CLOSE(stats_ar1_inflation(0.99), sqrt(19), 1e-12);
}

static void
test_bootstrap(void **state)
{
	const double x[] = { 101.2, 99.8, 100.5, 102.3, 98.9, 100.1, 101.7,
	    99.5, 100.9, 100.3, 99.2, 101.1, 100.0, 102.0, 99.7 };
	const double y[] = { 106.1, 104.9, 105.8, 107.2, 104.1, 105.5, 106.6,
	    105.0, 103.9, 106.3, 105.2, 104.6 };
	struct stats_interval	a, b;

	(void)state;
	/* st.bootstrap((x, y), lambda a, b, axis=-1: np.median(b, axis=axis)
	 *     / np.median(a, axis=axis), method='percentile',
	 *     n_resamples=200000, vectorized=True, random_state=1..3)
	 *   -> estimate 1.0503489531405783, interval
	 *      [1.0385756676557865, 1.061] for all three seeds.
	 * Another generator: equal within Monte Carlo error. */
	assert_int_equal(stats_bootstrap_median_ratio(x, nitems(x), y,
	    nitems(y), 20000, 0.95, 42, &a), 0);
	CLOSE(a.estimate, 1.0503489531405783, 1e-14);
	CLOSE(a.lo, 1.0385756676557865, 1e-3);
	CLOSE(a.hi, 1.061, 1e-3);
	assert_true(a.lo < a.estimate && a.estimate < a.hi);
	CLOSE(a.conf, 0.95, 0);
	/* Same seed, same interval. */
	assert_int_equal(stats_bootstrap_median_ratio(x, nitems(x), y,
	    nitems(y), 20000, 0.95, 42, &b), 0);
	CLOSE(b.lo, a.lo, 0);
	CLOSE(b.hi, a.hi, 0);
	/* A narrower level gives a narrower interval. */
	assert_int_equal(stats_bootstrap_median_ratio(x, nitems(x), y,
	    nitems(y), 20000, 0.5, 42, &b), 0);
	assert_true(b.lo > a.lo && b.hi < a.hi);
	assert_int_equal(stats_bootstrap_median_ratio(x, nitems(x), y,
	    nitems(y), 1, 0.95, 42, &b), -1);
}

/* Read the value column of the TigerBeetle history into x (at most max). */
static size_t
read_tigerbeetle(double *x, size_t max)
{
	const char	*top;
	char		*path, line[512], *p;
	FILE		*f;
	size_t		 n = 0;
	int		 field;

	if ((top = getenv("PERFWATCH_TOP")) == NULL || *top == '\0')
		top = ".";
	if (asprintf(&path, "%s/etc/examples/tigerbeetle-otava.csv",
	    top) == -1)
		fail();
	f = fopen(path, "r");
	if (f == NULL)
		print_error("%s: %s\n", path, strerror(errno));
	assert_non_null(f);
	free(path);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_memory_equal(line, "run,time,workload,metric,value", 30);
	while (fgets(line, sizeof(line), f) != NULL && n < max) {
		p = line;
		for (field = 0; field < 4 && p != NULL; field++) {
			if ((p = strchr(p, ',')) != NULL)
				p++;
		}
		assert_non_null(p);
		x[n++] = strtod(p, NULL);
	}
	fclose(f);
	return (n);
}

static void
test_cp_tigerbeetle(void **state)
{
	double			 x[400];
	struct cp_change	*c;
	size_t			 n, nc, i;
	int			 seen15 = 0, seen71 = 0;

	(void)state;
	n = read_tigerbeetle(x, nitems(x));
	assert_int_equal(n, 365);
	CLOSE(x[0], 26705, 0);
	CLOSE(x[364], 28915, 0);
	assert_int_equal(cp_detect(x, n, NULL, &c, &nc), 0);
	for (i = 0; i < nc; i++) {
		printf("tigerbeetle: %zu %s %.1f -> %.1f (%+.2f%%) p %.3g\n",
		    c[i].index, cp_kind_name(c[i].kind), c[i].before,
		    c[i].after, c[i].change_pct, c[i].p);
		assert_true(c[i].p < 0.01);
		if (c[i].index == 15) {
			/* 26745 -> 23677.5 (medians of 15 and 30 runs). */
			assert_int_equal(c[i].kind, CP_STEP);
			CLOSE(c[i].before, 26745, 1e-12);
			CLOSE(c[i].after, 23677.5, 1e-12);
			assert_true(c[i].change_pct < -11 &&
			    c[i].change_pct > -12);
			assert_int_equal(c[i].length, 71 - 15);
			seen15 = 1;
		} else if (c[i].index == 71) {
			assert_int_equal(c[i].kind, CP_STEP);
			assert_true(c[i].change_pct > 15 &&
			    c[i].change_pct < 20);
			assert_int_equal(c[i].length, 365 - 71);
			seen71 = 1;
		} else if (c[i].index == 10 || c[i].index == 11) {
			assert_int_equal(c[i].kind, CP_SPIKE);
			assert_true(c[i].length <= 2);
		} else {
			assert_int_equal(c[i].index, 363);
			assert_int_equal(c[i].kind, CP_SPIKE);
		}
	}
	assert_true(seen15 && seen71);
	free(c);

	/* With the floor at 0 the smaller shifts at 61-63 and 95 appear. */
	{
		struct cp_params	par;
		int			seen95 = 0;

		cp_params_default(&par);
		par.min_change = 0;
		assert_int_equal(cp_detect(x, n, &par, &c, &nc), 0);
		assert_true(nc > 3);
		for (i = 0; i < nc; i++) {
			if (c[i].index == 95 && c[i].kind == CP_STEP)
				seen95 = 1;
			if (i > 0)
				assert_true(c[i].index > c[i - 1].index);
		}
		assert_true(seen95);
		free(c);
	}
}

/* Fill x[0..n) with N(mean, sd) from rng. */
static void
normal_series(gsl_rng *rng, double *x, size_t n, double mean, double sd)
{
	size_t	i;

	for (i = 0; i < n; i++)
		x[i] = mean + gsl_ran_gaussian(rng, sd);
}

static void
test_cp_noise(void **state)
{
	struct cp_params	 par;
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[200];
	size_t			 nc;
	int			 s, bad = 0, bad0 = 0, series = 200;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	cp_params_default(&par);
	for (s = 0; s < series; s++) {
		gsl_rng_set(rng, 1000 + (unsigned long)s);
		normal_series(rng, x, nitems(x), 100, 10);
		par.min_change = 5;
		assert_int_equal(cp_detect(x, nitems(x), &par, &c, &nc), 0);
		bad += nc > 0;
		free(c);
		/* The tests alone, without the practical floor. */
		par.min_change = 0;
		assert_int_equal(cp_detect(x, nitems(x), &par, &c, &nc), 0);
		bad0 += nc > 0;
		free(c);
	}
	gsl_rng_free(rng);
	printf("noise N(100,10) x 200 runs: false change in %d of %d series "
	    "(%.1f%%), %d without the floor\n", bad, series,
	    100.0 * bad / series, bad0);
	assert_true(bad * 20 < series);
	assert_true(bad0 * 20 < series);
}

/*
 * A step whose edge run ties the rank test: the run before a 12% step is
 * the highest of the 30 before it (and, apart, the first run after it the
 * lowest of the 30 after), so both windows are wholly apart one run early
 * (late) as well.  The step is placed at its first run either way, in
 * 200 random series of each.
 */
static void
test_cp_tied_split(void **state)
{
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[120], hi;
	size_t			 i, nc, trial, side;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 11);
	for (trial = 0; trial < 400; trial++) {
		side = trial % 2;
		normal_series(rng, x, nitems(x), 1000, 10);
		for (i = 60; i < nitems(x); i++)
			x[i] += 120;
		if (side == 0) {
			/* Run 59 above runs 29..58. */
			for (hi = x[29], i = 30; i < 59; i++)
				if (x[i] > hi)
					hi = x[i];
			x[59] = hi + 1;
		} else {
			/* Run 60 below runs 61..90. */
			for (hi = x[61], i = 62; i < 91; i++)
				if (x[i] < hi)
					hi = x[i];
			x[60] = hi - 1;
		}
		assert_int_equal(cp_detect(x, nitems(x), NULL, &c, &nc), 0);
		assert_int_equal(nc, 1);
		assert_int_equal(c[0].kind, CP_STEP);
		if (c[0].index != 60)
			fail_msg("series %zu: step at %zu, not 60", trial,
			    c[0].index);
		free(c);
	}
	gsl_rng_free(rng);
}

/*
 * A recent step, with few runs after it: 12% up for the last 8 (or 4)
 * runs of 100, the run before it the second highest of the 30 before.
 * A split a run early has one pair of runs out of order but the more
 * even windows, and so the smaller p; it used to be taken.  The step is
 * placed at its first run in 200 random series of each.
 */
static void
test_cp_recent_step(void **state)
{
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[100], hi, second;
	size_t			 i, nc, trial, from;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 12);
	for (trial = 0; trial < 400; trial++) {
		from = trial % 2 ? 96 : 92;
		normal_series(rng, x, nitems(x), 1000, 10);
		for (i = from; i < nitems(x); i++)
			x[i] += 120;
		/* Run from-1 just under the highest of the 29 before it. */
		for (hi = x[from - 30], i = from - 29; i < from - 1; i++)
			if (x[i] > hi)
				hi = x[i];
		for (second = -HUGE_VAL, i = from - 30; i < from - 1; i++)
			if (x[i] < hi && x[i] > second)
				second = x[i];
		x[from - 1] = (hi + second) / 2;
		assert_int_equal(cp_detect(x, nitems(x), NULL, &c, &nc), 0);
		assert_int_equal(nc, 1);
		assert_int_equal(c[0].kind, CP_STEP);
		if (c[0].index != from)
			fail_msg("series %zu: step at %zu, not %zu", trial,
			    c[0].index, from);
		free(c);
	}
	gsl_rng_free(rng);
}

/*
 * The newest runs of a history at a new level are no spike: the level has
 * not come back.  40 runs about 100 (1% noise), then 2 or 3 at +30%: the
 * first of them (or the first two) were a spike, with the last, at the
 * same level, as its only neighbour after; and the mirror, 2 runs at +30%
 * before the 40.  Nothing is reported until there are runs enough for a
 * step (4 at the end).  A spike with runs back at the level
 * on both sides is one still, with the floor at 0 too, and one run off
 * at the end of a history is none.
 */
static void
test_cp_spike_back(void **state)
{
	struct cp_change	*c;
	struct cp_params	 par;
	gsl_rng			*rng;
	double			 x[44];
	size_t			 nc, k, i;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 7);
	cp_params_default(&par);
	for (k = 1; k <= 4; k++) {
		normal_series(rng, x, 40 + k, 100, 1);
		for (i = 40; i < 40 + k; i++)
			x[i] *= 1.3;
		assert_int_equal(cp_detect(x, 40 + k, &par, &c, &nc), 0);
		if (k < 4 && nc != 0)
			fail_msg("%zu runs at +30%% at the end: a %s at %zu",
			    k, c[0].kind == CP_SPIKE ? "spike" : "step",
			    c[0].index);
		if (k == 4) {
			assert_int_equal(nc, 1);
			assert_int_equal(c[0].kind, CP_STEP);
			assert_int_equal(c[0].index, 40);
		}
		free(c);
	}
	normal_series(rng, x, 42, 100, 1);
	x[0] *= 1.3;
	x[1] *= 1.3;
	assert_int_equal(cp_detect(x, 42, &par, &c, &nc), 0);
	assert_int_equal(nc, 0);
	free(c);
	/* Back on both sides: a spike, at the default floor and at 0. */
	for (k = 0; k < 2; k++) {
		par.min_change = k == 0 ? 5 : 0;
		normal_series(rng, x, 42, 100, 1);
		x[40] *= 1.3;
		assert_int_equal(cp_detect(x, 42, &par, &c, &nc), 0);
		assert_int_equal(nc, 1);
		assert_int_equal(c[0].kind, CP_SPIKE);
		assert_int_equal(c[0].index, 40);
		assert_int_equal(c[0].length, 1);
		free(c);
	}
	gsl_rng_free(rng);
}

/*
 * Three levels falling one after the other, in a history shorter than
 * the window.  Every split between the two steps separates its windows
 * completely, so the rank test's p is smallest at the most balanced one;
 * its placement looked only 4 runs either side and put the first step a
 * run or more late, and the step itself could then never be proposed.
 * The real case: block write of the bonnie runs of Red Hat 6.2 ext2 (7),
 * SCO 5.0.5 HTFS (9) and EAFS (9), K/sec, in the order of tests/data/
 * reference/bonnie-linux-vs-sco.csv: the step was put at HTFS run 2.
 * Then 300 random staircases like it, 1% noise, 100 -> 40 -> 32, of 7 to
 * 10 runs, 8 to 12 and 8 to 12 (fewer are not significant).
 */
static void
test_cp_staircase(void **state)
{
	static const double	 bonnie[] = { 19004, 18689, 16404, 18053,
	    18483, 17927, 18116, 6589, 6467, 6604, 6575, 6557, 6452, 6452,
	    6453, 6434, 5383, 5418, 5455, 5350, 5060, 5342, 5363, 5414, 5309 };
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[40];
	size_t			 i, nc, trial, n1, n2, n, steps, at[2];

	(void)state;
	assert_int_equal(cp_detect(bonnie, nitems(bonnie), NULL, &c, &nc), 0);
	assert_int_equal(nc, 2);
	assert_int_equal(c[0].index, 7);
	assert_int_equal(c[1].index, 16);
	assert_float_equal(c[0].before, 18116, 1e-9);
	assert_float_equal(c[0].after, 6467, 1e-9);
	assert_true(c[0].p < 0.01 && c[1].p < 0.01);
	free(c);

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 3);
	for (trial = 0; trial < 300; trial++) {
		n1 = 7 + gsl_rng_uniform_int(rng, 4);
		n2 = n1 + 8 + gsl_rng_uniform_int(rng, 5);
		n = n2 + 8 + gsl_rng_uniform_int(rng, 5);
		normal_series(rng, x, n, 100, 1);
		for (i = n1; i < n; i++)
			x[i] *= i < n2 ? 0.4 : 0.32;
		assert_int_equal(cp_detect(x, n, NULL, &c, &nc), 0);
		/* The steps; a spike of the noise may come with them. */
		for (i = 0, steps = 0; i < nc; i++)
			if (c[i].kind == CP_STEP && steps++ < 2)
				at[steps - 1] = c[i].index;
		if (steps != 2 || at[0] != n1 || at[1] != n2)
			fail_msg("series %zu: %zu steps, at %zu and %zu, "
			    "not at %zu and %zu", trial, steps,
			    steps > 0 ? at[0] : 0, steps > 1 ? at[1] : 0, n1,
			    n2);
		free(c);
	}
	gsl_rng_free(rng);
}

static void
test_cp_synthetic(void **state)
{
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[150];
	size_t			 i, nc;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 5);
	/* A 10% step at run 100 in 1% noise, and a two-run spike at 40. */
	normal_series(rng, x, nitems(x), 1000, 10);
	for (i = 100; i < nitems(x); i++)
		x[i] += 100;
	x[40] += 300;
	x[41] += 280;
	gsl_rng_free(rng);
	assert_int_equal(cp_detect(x, nitems(x), NULL, &c, &nc), 0);
	assert_int_equal(nc, 2);
	assert_int_equal(c[0].index, 40);
	assert_int_equal(c[0].kind, CP_SPIKE);
	assert_int_equal(c[0].length, 2);
	assert_true(c[0].change_pct > 25 && c[0].change_pct < 35);
	assert_int_equal(c[1].index, 100);
	assert_int_equal(c[1].kind, CP_STEP);
	assert_int_equal(c[1].length, 50);
	assert_true(c[1].change_pct > 8 && c[1].change_pct < 12);
	assert_true(c[1].p < 1e-6);
	free(c);

	/* Without spike search only the step remains. */
	{
		struct cp_params	par;

		cp_params_default(&par);
		par.spikes = 0;
		assert_int_equal(cp_detect(x, nitems(x), &par, &c, &nc), 0);
		assert_int_equal(nc, 1);
		assert_int_equal(c[0].index, 100);
		free(c);
		/* Bad parameters are refused. */
		par.window = 2;
		assert_int_equal(cp_detect(x, nitems(x), &par, &c, &nc), -1);
		cp_params_default(&par);
		par.alpha = 0;
		assert_int_equal(cp_detect(x, nitems(x), &par, &c, &nc), -1);
	}
	/* Too short for anything. */
	assert_int_equal(cp_detect(x, 4, NULL, &c, &nc), 0);
	assert_int_equal(nc, 0);
	assert_string_equal(cp_kind_name(CP_STEP), "step");
	assert_string_equal(cp_kind_name(CP_SPIKE), "spike");
}

/*
 * A level that changed and came back: 150 runs of 1% noise, runs 40 ..
 * 40 + len 15% slower.  A split alone saw nothing of 8 or 10 such runs
 * (every window's median stayed at the old level) and put the end of 20
 * three runs late; three were a spike of two and one of one.  Now: from
 * 8 runs on, a step at 40 and one back at 40 + len; three runs, one spike
 * of three.  The exact tail of U also agrees with the direct
 * stats_mwu_cdf() on the sizes the scan uses.
 */
static void
test_cp_excursion(void **state)
{
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[150], p;
	size_t			 i, nc, k, lens[] = { 8, 10, 20, 25 };

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	for (k = 0; k < nitems(lens); k++) {
		gsl_rng_set(rng, 11);
		normal_series(rng, x, nitems(x), 1000, 10);
		for (i = 40; i < 40 + lens[k]; i++)
			x[i] += 150;
		assert_int_equal(cp_detect(x, nitems(x), NULL, &c, &nc), 0);
		assert_int_equal(nc, 2);
		assert_int_equal(c[0].kind, CP_STEP);
		assert_int_equal(c[0].index, 40);
		assert_int_equal(c[0].length, lens[k]);
		assert_true(c[0].change_pct > 13 && c[0].change_pct < 17);
		assert_int_equal(c[1].kind, CP_STEP);
		assert_int_equal(c[1].index, 40 + lens[k]);
		assert_true(c[1].change_pct < -11 && c[1].change_pct > -15);
		assert_true(c[0].p < 0.01 && c[1].p < 0.01);
		free(c);
	}
	/* Three runs: one spike of three, at their mean. */
	gsl_rng_set(rng, 11);
	normal_series(rng, x, nitems(x), 1000, 10);
	for (i = 40; i < 43; i++)
		x[i] += 150;
	assert_int_equal(cp_detect(x, nitems(x), NULL, &c, &nc), 0);
	assert_int_equal(nc, 1);
	assert_int_equal(c[0].kind, CP_SPIKE);
	assert_int_equal(c[0].index, 40);
	assert_int_equal(c[0].length, 3);
	assert_true(fabs(c[0].after - (x[40] + x[41] + x[42]) / 3) < 1e-9);
	free(c);
	gsl_rng_free(rng);

	/*
	 * The table against the direct sum, and against counting: 3 values
	 * all above 60 are one of comb(63, 3) equally likely orders, so the
	 * two-sided exact p is 2 / comb(63, 3) = 5.0364e-05 (Python's
	 * math.comb); the table's P(U <= 0) is half of it.
	 */
	{
		double	t[65];

		assert_int_equal(stats_mwu_cdf_table(3, 60, 64, t), 0);
		assert_true(fabs(2 * t[0] - 5.0364e-05) < 1e-8);
		for (i = 0; i <= 64; i++) {
			assert_int_equal(stats_mwu_cdf(3, 60, (double)i, &p),
			    0);
			assert_true(fabs(t[i] - p) < 1e-15);
		}
		assert_int_equal(stats_mwu_cdf_table(3, 60, 180, t), -1);
	}
}

/* Twice the U of runs [p, q) of x against [lo, p) and [q, hi), pair by pair. */
static size_t
naive_u2(const double *x, size_t lo, size_t p, size_t q, size_t hi)
{
	size_t	i, j, u2 = 0;

	for (i = p; i < q; i++)
		for (j = lo; j < hi; j++) {
			if (j >= p && j < q)
				continue;
			u2 += x[i] > x[j] ? 2 : x[i] == x[j] ? 1 : 0;
		}
	return (u2);
}

/*
 * The prefix sums of cp_ctx give every U a split or an excursion can ask
 * for as counting the pairs does: random series with many ties (values
 * of 0 to 5); windows of 3 and 7, every range a test can take (the
 * outside up to a window each side of an inside of up to a window), and
 * a window of 30, 100000 such ranges drawn at random.
 */
static void
test_cp_prefix_u2(void **state)
{
	struct cp_params	 par;
	struct cp_ctx		 c;
	gsl_rng			*rng;
	double			 x[150];
	size_t			 w, ws[] = { 3, 7, 30 }, n, lo, p, q, hi, i;
	size_t			 checked = 0;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 5);
	for (w = 0; w < nitems(ws); w++) {
		cp_params_default(&par);
		par.window = ws[w];
		n = ws[w] == 30 ? 150 : 60;
		for (i = 0; i < n; i++)
			x[i] = (double)gsl_rng_uniform_int(rng, 6);
		cp_ctx_init(&c, x, n, &par, NULL);
		assert_non_null(c.pre);
		for (p = 0; ws[w] < 30 && p <= n; p++)
			for (q = p + 1; q <= n && q - p <= par.window; q++)
				for (lo = p - (p < par.window ? p :
				    par.window); lo <= p; lo++)
					for (hi = q; hi <= n &&
					    hi - q <= par.window; hi++) {
						assert_int_equal(
						    cp_pre_u2(&c, lo, p, q, hi),
						    naive_u2(x, lo, p, q, hi));
						checked++;
					}
		for (i = 0; ws[w] == 30 && i < 100000; i++) {
			p = gsl_rng_uniform_int(rng, n);
			q = p + 1 + gsl_rng_uniform_int(rng, par.window);
			if (q > n)
				q = n;
			lo = p - gsl_rng_uniform_int(rng, (p < par.window ?
			    p : par.window) + 1);
			hi = q + gsl_rng_uniform_int(rng, (n - q <
			    par.window ? n - q : par.window) + 1);
			assert_int_equal(cp_pre_u2(&c, lo, p, q, hi),
			    naive_u2(x, lo, p, q, hi));
			checked++;
		}
		cp_ctx_free(&c);
	}
	assert_true(checked > 100000 + 20000);
	gsl_rng_free(rng);
}

/*
 * A sorted window that slides gives the median stats_median() gives for
 * the same values, bit for bit: windows of 1 to 61 values of a random
 * walk over few levels (ties), sliding over 2000 values with its size
 * drifting.
 */
static void
test_cp_sorted_median(void **state)
{
	struct cp_sorted	 s;
	gsl_rng			*rng;
	double			 x[2000], want, got;
	size_t			 i, lo = 0, hi = 0, cap = 61, round;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 9);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < nitems(x); i++)
			x[i] = round == 0 ?
			    (double)gsl_rng_uniform_int(rng, 7) - 3 :
			    gsl_ran_gaussian(rng, 1e3);
		s.v = xreallocarray(NULL, cap, sizeof(*s.v));
		s.n = 0;
		for (lo = hi = 0; hi < nitems(x);) {
			/* Grow, or shrink from the left, at random. */
			if (hi - lo < cap && (hi == lo ||
			    gsl_rng_uniform(rng) < 0.55))
				cp_sorted_add(&s, x[hi++]);
			else
				cp_sorted_del(&s, x[lo++]);
			assert_int_equal(s.n, hi - lo);
			for (i = 1; i < s.n; i++)
				assert_true(s.v[i - 1] <= s.v[i]);
			if (s.n == 0)
				continue;
			assert_int_equal(stats_median(x + lo, hi - lo, &want),
			    0);
			got = cp_sorted_median(&s);
			assert_memory_equal(&got, &want, sizeof(got));
		}
		free(s.v);
	}
	gsl_rng_free(rng);
}

/*
 * cp_spike_gate() marks exactly the candidates whose runs lie beyond the
 * floor on one side of the median of their neighbours as
 * cp_neighbours() gathers them: random series with spikes and ties,
 * random runs masked, segments cut anywhere, windows of 3 and 30.
 */
static void
test_cp_spike_gate(void **state)
{
	struct cp_params	 par;
	struct cp_sorted	 s;
	gsl_rng			*rng;
	unsigned char		 mask[120], can[120];
	double			 x[120], nb[60], med, pc;
	size_t			 round, a, b, i, j, k, nn, marked = 0;
	int			 side, want;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 13);
	s.v = xreallocarray(NULL, 60, sizeof(*s.v));
	for (round = 0; round < 400; round++) {
		cp_params_default(&par);
		par.window = round % 2 ? 30 : 3;
		par.min_change = round % 3 ? 5 : 0;
		for (i = 0; i < nitems(x); i++) {
			x[i] = 100 + (double)gsl_rng_uniform_int(rng, 5);
			if (gsl_rng_uniform(rng) < 0.1)
				x[i] *= gsl_rng_uniform(rng) < 0.5 ? 0.8 : 1.2;
			mask[i] = gsl_rng_uniform(rng) < 0.05 * (round % 4);
		}
		a = gsl_rng_uniform_int(rng, 40);
		b = nitems(x) - gsl_rng_uniform_int(rng, 40);
		for (k = 1; k <= 2; k++) {
			memset(can, 0xff, sizeof(can));
			cp_spike_gate(x, mask, a, b, k, &par, &s, can);
			for (i = a; i + k < b; i++) {
				want = 0;
				nn = mask[i] || mask[i + k - 1] ? 0 :
				    cp_neighbours(x, mask, a, b, i, k, &par,
				    nb);
				if (nn > 0) {
					assert_int_equal(stats_median(nb, nn,
					    &med), 0);
					for (j = i, side = 0; j < i + k; j++) {
						pc = cp_pct(med, x[j]);
						if (fabs(pc) < par.min_change ||
						    pc == 0 || (side != 0 &&
						    (pc > 0) != (side > 0)))
							break;
						side = pc > 0 ? 1 : -1;
					}
					want = j == i + k;
				}
				assert_int_equal(!!(can[i] & (1u << (k - 1))),
				    want);
				marked += want;
			}
		}
	}
	/* Both answers came up often. */
	assert_true(marked > 1000);
	free(s.v);
	gsl_rng_free(rng);
}

/*
 * Exact tables kept for many series (cp_detect_with(), as `perfwatch
 * changes` scans its metrics) change nothing: series of 8 to 300 runs
 * with steps, excursions and spikes, windows of 30, 10 and 45 in turn
 * (the set grows, and holds tables of sizes the next window does not
 * look up), each scanned with the shared set and with its own, the
 * changes the same bit for bit.
 */
static void
test_cp_shared_tables(void **state)
{
	struct cp_tables	*tb;
	struct cp_params	 par;
	struct cp_change	*c1, *c2;
	gsl_rng			*rng;
	double			 x[300];
	size_t			 round, n, i, nc1, nc2, ws[] = { 30, 10, 45 };
	size_t			 total = 0;

	(void)state;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	assert_non_null(rng);
	gsl_rng_set(rng, 17);
	tb = cp_tables_new();
	for (round = 0; round < 30; round++) {
		cp_params_default(&par);
		par.window = ws[round % nitems(ws)];
		n = round % 5 == 0 ? 8 + round : 300;
		normal_series(rng, x, n, 100, 1);
		for (i = n / 3; i < n; i++)
			x[i] += 12;
		for (i = n / 2; i < n / 2 + 6 && i < n; i++)
			x[i] -= 20;
		x[n - 2] += 30 * (round % 2);
		assert_int_equal(cp_detect_with(x, n, &par, tb, &c1, &nc1), 0);
		assert_int_equal(cp_detect(x, n, &par, &c2, &nc2), 0);
		assert_int_equal(nc1, nc2);
		for (i = 0; i < nc1; i++) {
			assert_int_equal(c1[i].index, c2[i].index);
			assert_int_equal(c1[i].length, c2[i].length);
			assert_int_equal(c1[i].kind, c2[i].kind);
			assert_memory_equal(&c1[i].before, &c2[i].before,
			    sizeof(double));
			assert_memory_equal(&c1[i].after, &c2[i].after,
			    sizeof(double));
			assert_memory_equal(&c1[i].p, &c2[i].p, sizeof(double));
		}
		total += nc1;
		free(c1);
		free(c2);
	}
	assert_true(total >= 60);
	cp_tables_free(tb);
	cp_tables_free(NULL);
	gsl_rng_free(rng);
}

/*
 * stats_mwu_min_p(): the p of two samples apart, 2 / C(nx + ny, nx), is
 * what the exact test gives for them (SciPy: mannwhitneyu([1, 2],
 * [3, 4, 5], method="exact").pvalue == 0.2, [1, 2, 3] against [4, 5, 6]
 * 0.1), and no pair of sizes gives less.
 */
static void
test_mwu_min_p(void **state)
{
	struct stats_mwu	 r;
	double			 x[8], y[8];
	size_t			 nx, ny, i;

	(void)state;
	assert_true(fabs(stats_mwu_min_p(2, 3) - 0.2) < 1e-15);
	assert_true(fabs(stats_mwu_min_p(3, 3) - 0.1) < 1e-15);
	assert_true(fabs(stats_mwu_min_p(3, 4) - 2.0 / 35) < 1e-15);
	assert_true(fabs(stats_mwu_min_p(5, 5) - 2.0 / 252) < 1e-15);
	assert_true(stats_mwu_min_p(1, 1) == 1);
	assert_true(stats_mwu_min_p(0, 4) == 1);
	assert_true(stats_mwu_min_p(30, 30) < 1e-15);
	for (nx = 1; nx <= 7; nx++)
		for (ny = 1; ny <= 7; ny++) {
			for (i = 0; i < nx; i++)
				x[i] = (double)i;
			for (i = 0; i < ny; i++)
				y[i] = 100.0 + (double)i;
			assert_int_equal(stats_mwu(x, nx, y, ny,
			    STATS_TWO_SIDED, STATS_MWU_EXACT, &r), 0);
			assert_true(fabs(r.p - stats_mwu_min_p(nx, ny)) <
			    1e-12 * stats_mwu_min_p(nx, ny));
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_biweight),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_mwu_ties),
		cmocka_unit_test(test_mwu_exact),
		cmocka_unit_test(test_mwu_min_p),
		cmocka_unit_test(test_mwu_cdf),
		cmocka_unit_test(test_mwu_unbalanced),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_hodges_lehmann_select),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_autocorr),
		cmocka_unit_test(test_extreme_scales),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_cp_tigerbeetle),
		cmocka_unit_test(test_cp_noise),
		cmocka_unit_test(test_cp_synthetic),
		cmocka_unit_test(test_cp_tied_split),
		cmocka_unit_test(test_cp_recent_step),
		cmocka_unit_test(test_cp_spike_back),
		cmocka_unit_test(test_cp_staircase),
		cmocka_unit_test(test_cp_excursion),
		cmocka_unit_test(test_cp_prefix_u2),
		cmocka_unit_test(test_cp_sorted_median),
		cmocka_unit_test(test_cp_spike_gate),
		cmocka_unit_test(test_cp_shared_tables),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
