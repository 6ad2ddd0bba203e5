/*
 * The bisection's decisions: which commit to measure next, and whether
 * a commit's runs put it at the good end's level or the bad end's.
 *
 * Design notes
 * ------------
 * 1. The search is git bisect's over a line of commits: the first bad
 *    one lies after the newest good commit and at or before the oldest
 *    bad one after it, and the next commit measured is the one nearest
 *    the middle of that stretch.  A commit that cannot be measured (its
 *    build failed, or its runs could not tell) is skipped, and the
 *    commit nearest the middle among the others is taken instead; when
 *    only skipped commits are left between the two, the answer is that
 *    stretch, as git bisect gives it.
 *
 * 2. A commit is not judged by a significance test against the good end
 *    alone (perfwatch check's question, "is this run outside the good
 *    runs' noise?"), because a bisection knows more: both ends have been
 *    measured, and every commit between is at one level or the other.
 *    So it is a choice between two simple hypotheses, and Wald's
 *    sequential probability ratio test makes it with the fewest runs on
 *    average for given error rates: a commit far from the middle of the
 *    two levels is decided by its first run, one near it gets more runs,
 *    and one still undecided after the most runs allowed is skipped
 *    rather than guessed.  With alpha = beta = 0.01 the sum of log
 *    likelihood ratios must reach +-4.6; for two levels 6 sds apart one
 *    run at either level scores 18 under a normal model, 5.8 under the
 *    t model below.
 *
 *    Each run's level is taken as Student's t with 4 degrees of freedom
 *    about its end's level (BISECT_T_DF), not as normal: benchmark runs
 *    have heavy tails (a host that slowed down for a while), and under
 *    the normal model one such run far past the middle decides a commit
 *    alone.  On bench/bisect the t likelihood cut the wrong answers at
 *    3 sds between the levels from 1.5 to 0.3% (normal noise), 4.3 to
 *    0.5% (t3 noise) and 1.4 to 0.5% (one run in 20 disturbed), for 23
 *    runs a search of 100 commits instead of 18.
 *
 * 3. The noise sd is pooled from the runs at both ends.  From three runs
 *    a side its estimate has 4 degrees of freedom and is below the truth
 *    a third of the time, and a low sd makes the test overconfident, so
 *    the upper end of its one-sided 90% interval is used: sd times
 *    sqrt(df / chi2_0.10(df)), 1.94 for 4 degrees of freedom.  Under
 *    the normal model a run whose level lies far outside both levels
 *    adds no more than a run one gap beyond the nearer level would;
 *    under the t model it adds next to nothing.  And runs whose mean
 *    level lies in the middle half between the two levels decide
 *    nothing, however small the noise: the ends' few runs may not have
 *    seen how far a disturbed run can stray, and a level a quarter of
 *    the gap from the middle is one the test may take for the wrong end
 *    with an sd underrated by half.  Such a commit gets more runs, and
 *    is skipped if they stay there (a change in two steps of half the
 *    gap each puts the commit between them at the middle: the answer
 *    is then the range around it, not a guess).
 */
#include <math.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "bisect.h"

/* The newest good commit (-1: the good end) and the oldest bad after it. */
static void
bisect_bounds(const enum bisect_mark *m, size_t n, long *lo, long *hi)
{
	size_t	i;

	*lo = -1;
	for (i = 0; i < n; i++)
		if (m[i] == BISECT_GOOD)
			*lo = (long)i;
	*hi = (long)n - 1;	/* the bad end, whatever it is marked */
	for (i = (size_t)(*lo + 1); i < n; i++)
		if (m[i] == BISECT_BAD) {
			*hi = (long)i;
			break;
		}
}

long
bisect_next(const enum bisect_mark *m, size_t n, size_t *first,
    size_t *last)
{
	long	lo, hi, mid, d, k;

	if (n == 0)
		return -1;
	bisect_bounds(m, n, &lo, &hi);
	*first = (size_t)(lo + 1);
	*last = (size_t)hi;
	mid = lo + (hi - lo) / 2;
	/* Outward from the middle: mid, mid - 1, mid + 1, mid - 2 ... */
	for (d = 0; d < hi - lo; d++) {
		k = mid + d;
		if (k > lo && k < hi && m[k] == BISECT_UNTESTED)
			return k;
		k = mid - d - 1;
		if (k > lo && k < hi && m[k] == BISECT_UNTESTED)
			return k;
	}
	return -1;
}

int
bisect_ends_more(size_t runs, size_t most, int found, double t,
    double t_enough, double q_near)
{
	if (runs < 2)
		return 1;
	if (runs >= most)
		return 0;
	return found ? t < t_enough : q_near < 0.5;
}

unsigned
bisect_steps_left(const enum bisect_mark *m, size_t n)
{
	long		lo, hi, i;
	unsigned	steps = 0;
	size_t		left = 0;

	if (n == 0)
		return 0;
	bisect_bounds(m, n, &lo, &hi);
	for (i = lo + 1; i < hi; i++)
		if (m[i] == BISECT_UNTESTED)
			left++;
	/* Each step halves what is left, down to none. */
	while (left > 0) {
		steps++;
		left /= 2;
	}
	return steps;
}

/* The mean of the levels, each clipped to [lo, hi]. */
static double
mean_x(const double *levels, size_t n, double lo, double hi)
{
	double	sum = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		sum += fmin(fmax(levels[i], lo), hi);
	return sum / (double)n;
}

enum bisect_mark
bisect_sprt_decide(const struct bisect_sprt *t, const double *levels,
    size_t n, double *llr)
{
	double	gap = t->bad - t->good, mid = (t->good + t->bad) / 2;
	double	lo = fmin(t->good, t->bad) - fabs(gap);
	double	hi = fmax(t->good, t->bad) + fabs(gap);
	double	sum = 0, x, dg, db, var = t->sd * t->sd;
	size_t	i;

	*llr = 0;
	if (!(var > 0) || gap == 0 || n == 0)
		return BISECT_UNTESTED;
	for (i = 0; i < n; i++) {
		if (t->df > 0) {
			/* Student's t: a wild run says little either way. */
			dg = levels[i] - t->good;
			db = levels[i] - t->bad;
			sum += (t->df + 1) / 2 *
			    (log1p(dg * dg / (t->df * var)) -
			    log1p(db * db / (t->df * var)));
		} else {
			x = fmin(fmax(levels[i], lo), hi);
			sum += gap * (x - mid) / var;
		}
	}
	*llr = sum;
	/* Runs whose mean lies in the middle half decide nothing. */
	if (fabs(mean_x(levels, n, lo, hi) - mid) < fabs(gap) / 4)
		return BISECT_UNTESTED;
	if (sum >= log((1 - t->beta) / t->alpha))
		return BISECT_BAD;
	if (sum <= log(t->beta / (1 - t->alpha)))
		return BISECT_GOOD;
	return BISECT_UNTESTED;
}

enum bisect_mark
bisect_side_decide(const struct bisect_sprt *t, const double *diffs,
    size_t n, double *llr)
{
	struct bisect_sprt	pair = *t;

	pair.good = 0;
	pair.bad = t->bad - t->good;
	pair.sd = t->sd * sqrt(2.0);
	return bisect_sprt_decide(&pair, diffs, n, llr);
}

/*
 * The two groups' means, their pooled sd and its degrees of freedom; -1
 * with fewer than three values in all.
 */
static int
bisect_pooled(const double *good, size_t ng, const double *bad, size_t nb,
    double *mg, double *mb, double *sd, double *df)
{
	double	ss = 0;
	size_t	i;

	if (ng == 0 || nb == 0 || ng + nb < 3)
		return -1;
	*mg = *mb = 0;
	for (i = 0; i < ng; i++)
		*mg += good[i] / (double)ng;
	for (i = 0; i < nb; i++)
		*mb += bad[i] / (double)nb;
	for (i = 0; i < ng; i++)
		ss += (good[i] - *mg) * (good[i] - *mg);
	for (i = 0; i < nb; i++)
		ss += (bad[i] - *mb) * (bad[i] - *mb);
	*df = (double)(ng + nb - 2);
	*sd = sqrt(ss / *df);
	return 0;
}

int
bisect_noise(const double *good, size_t ng, const double *bad, size_t nb,
    double floor, double *sd)
{
	double	df, mg, mb;

	if (bisect_pooled(good, ng, bad, nb, &mg, &mb, sd, &df) == -1)
		return -1;
	*sd *= sqrt(df / gsl_cdf_chisq_Pinv(0.10, df));
	if (!(*sd >= floor))
		*sd = floor;
	return 0;
}

/* The ends' means, the standard error of their difference and its df. */
static int
bisect_ends_se(const double *good, size_t ng, const double *bad, size_t nb,
    double floor, double *mg, double *mb, double *se, double *df)
{
	double	sd;

	if (bisect_pooled(good, ng, bad, nb, mg, mb, &sd, df) == -1)
		return -1;
	if (!(sd >= floor))
		sd = floor;
	*se = sd * sqrt(1 / (double)ng + 1 / (double)nb);
	return 0;
}

int
bisect_ends_test(const double *good, size_t ng, const double *bad,
    size_t nb, double floor, double *t, double *p)
{
	double	df, mg, mb, se;

	if (bisect_ends_se(good, ng, bad, nb, floor, &mg, &mb, &se, &df) == -1)
		return -1;
	if (se > 0) {
		*t = (mb - mg) / se;
		*p = 2 * gsl_cdf_tdist_Q(fabs(*t), df);
	} else {
		*t = mb == mg ? 0 : mb > mg ? INFINITY : -INFINITY;
		*p = mb == mg ? 1 : 0;
	}
	return 0;
}

int
bisect_ends_worse_bound(const double *good, size_t ng, const double *bad,
    size_t nb, double floor, int higher_better, double alpha, double *bound)
{
	double	df, mg, mb, se, worse;

	if (bisect_ends_se(good, ng, bad, nb, floor, &mg, &mb, &se, &df) ==
	    -1 || mg == 0 || !(alpha > 0 && alpha < 1))
		return -1;
	worse = higher_better ? mg - mb : mb - mg;
	*bound = 100 * (worse + gsl_cdf_tdist_Qinv(alpha, df) * se) / fabs(mg);
	return 0;
}
