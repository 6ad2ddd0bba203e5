/*
 * bench/bisect: how often `perfwatch bisect`'s decisions find the right
 * commit, and with how many runs, on simulated noise.
 *
 * A line of N commits (100) whose first bad one is drawn at random; a
 * run's level is the good level 100, or the bad level 100 - gap, plus
 * noise of sd 1.  The driver's decisions are replayed as cli/bisect.c
 * makes them, with the same functions: both ends measured R runs each
 * (3), then a run more of each while their t is under BISECT_ENDS_T,
 * up to BISECT_ENDS_MAX; nothing to bisect unless the ends differ
 * (Student's t, p <= 0.01); the noise from the ends' runs
 * (bisect_noise), each commit judged by the sequential test
 * (bisect_sprt_decide, Student's t likelihoods with BISECT_T_DF; -D 0
 * for normal ones) with up to M runs (8) and skipped when still
 * undecided, the next commit from bisect_next.  Beside it, a plain
 * search of one run a commit, each called good or bad by the nearer of
 * the ends' mean levels: what a
 * `git bisect run` script with a threshold halfway does.
 *
 * Noise: normal; Student's t with 3 degrees of freedom scaled to sd 1
 * (heavy tails); and "disturbed": normal, but one run in 20 is moved
 * half the gap toward the bad level (a host that slowed down for a
 * while); and "shift": normal, but the machine moves by the gap, slower
 * or faster, at a run among the first 12 after the ends' first runs,
 * and stays there (a host whose speed changed during the search).  Gaps
 * of 1.5 to 10 sds.
 *
 * For each case and method: the searches that named the first bad
 * commit itself, that named a range of skipped commits holding it, that
 * were wrong (the answer leaves it out), that refused (ends not apart);
 * the mean runs of the commits between and the mean commits measured.
 * Then the side-by-side check of the answer (bisect_side_decide, pairs
 * of runs of the last good and the first bad commit, up to M): the
 * searches whose wrong answer it rejected ("caught"), those whose right
 * answer it rejected ("lost"), and its mean pairs.
 *
 * usage: bisect [-t TRIALS] [-n COMMITS] [-r END_RUNS] [-R MOST_END_RUNS]
 *               [-T ENDS_T] [-D DF] [-m MAX_RUNS] [-k SEED]
 * Seeds are fixed (SEED + trial), so two builds compare trial by trial.
 * Figures are printed, never asserted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bench.h"
#include "bisect/bisect.h"

enum noise { N_NORMAL, N_T3, N_DISTURBED, N_SHIFT, N_KINDS };
static const char *const noise_name[] = { "normal", "t3", "disturbed",
    "shift" };

struct outcome {
	long	exact, range, wrong, refused;
	long	runs, measured, end_runs;
	long	caught, lost, pairs;	/* the side-by-side check */
};

/* The shift noise's machine: the runs so far, and when it moves by how much. */
static long	run_no, shift_at;
static double	shift_by;

static double	tmin = BISECT_ENDS_T;	/* -T: the ends' t to reach */
static double	t_df = BISECT_T_DF;	/* -D: the likelihood's df, 0 normal */
static int	end_max = BISECT_ENDS_MAX; /* -R: most runs at each end */

/* One run's level at a commit that is bad or not. */
static double
run_level(gsl_rng *r, enum noise k, int bad, double gap)
{
	double	level = bad ? 100 - gap : 100;

	if (k == N_SHIFT && run_no++ >= shift_at)
		level += shift_by;
	switch (k) {
	case N_T3:
		/* t3 has variance 3: scaled to sd 1. */
		return level + gsl_ran_tdist(r, 3) / sqrt(3);
	case N_DISTURBED:
		level += gsl_ran_gaussian(r, 1);
		if (gsl_rng_uniform(r) < 0.05)
			level -= gap / 2;
		return level;
	default:
		return level + gsl_ran_gaussian(r, 1);
	}
}

static void
tally(struct outcome *o, size_t first, size_t last, size_t truth)
{
	if (first == last && first == truth)
		o->exact++;
	else if (first <= truth && truth <= last)
		o->range++;
	else
		o->wrong++;
}

/* The driver's search: SPRT per commit, skips, the ends first. */
static void
search_sprt(gsl_rng *r, enum noise k, double gap, size_t n, size_t truth,
    int end_runs, int max_runs, struct outcome *o)
{
	enum bisect_mark	*m = calloc(n, sizeof(*m)), mark;
	double			 g[64], b[64], lv[16], t, p;
	struct bisect_sprt	 s;
	size_t			 first, last, i;
	long			 c;
	int			 j;

	for (j = 0; j < end_runs; j++) {
		g[j] = run_level(r, k, 0, gap);
		b[j] = run_level(r, k, 1, gap);
	}
	for (;;) {
		int	eligible;

		if (bisect_ends_test(g, (size_t)j, b, (size_t)j, 0, &t,
		    &p) == -1)
			abort();
		/* The driver's rule; one metric, its q its p. */
		eligible = p <= BISECT_ENDS_Q && t < 0;
		if (!bisect_ends_more((size_t)j, (size_t)end_max, eligible, -t,
		    tmin, t >= 0 ? 1 : p))
			break;
		g[j] = run_level(r, k, 0, gap);
		b[j] = run_level(r, k, 1, gap);
		j++;
	}
	o->end_runs += j;
	if (p > BISECT_ENDS_Q || t >= 0) {
		o->refused++;
		free(m);
		return;
	}
	memset(&s, 0, sizeof(s));
	end_runs = j;
	for (j = 0, s.good = s.bad = 0; j < end_runs; j++) {
		s.good += g[j] / end_runs;
		s.bad += b[j] / end_runs;
	}
	s.alpha = BISECT_ALPHA;
	s.beta = BISECT_BETA;
	s.df = t_df;
	bisect_noise(g, (size_t)end_runs, b, (size_t)end_runs, 0, &s.sd);
	m[n - 1] = BISECT_BAD;
	while ((c = bisect_next(m, n, &first, &last)) != -1) {
		double	llr;

		m[c] = BISECT_UNTESTED;
		for (i = 0; i < (size_t)max_runs; i++) {
			lv[i] = run_level(r, k, (size_t)c >= truth, gap);
			o->runs++;
			m[c] = bisect_sprt_decide(&s, lv, i + 1, &llr);
			if (m[c] != BISECT_UNTESTED)
				break;
		}
		if (m[c] == BISECT_UNTESTED)
			m[c] = BISECT_SKIP;
		o->measured++;
	}
	tally(o, first, last, truth);
	/*
	 * The side-by-side check, as cli/bisect.c makes it: pairs of runs
	 * of the last good commit (the good end when first is 0) and the
	 * first bad one, one right after the other, up to max_runs.  (The
	 * driver counts the ends' own pairs first; here every pair is new.)
	 */
	mark = BISECT_UNTESTED;
	for (i = 0; i < (size_t)max_runs && mark == BISECT_UNTESTED; i++) {
		double	lg, lb, llr;

		lg = run_level(r, k, first > 0 && first - 1 >= truth, gap);
		lb = run_level(r, k, last >= truth, gap);
		lv[i] = lb - lg;
		o->pairs++;
		mark = bisect_side_decide(&s, lv, i + 1, &llr);
	}
	if (mark == BISECT_GOOD) {
		if (first <= truth && truth <= last)
			o->lost++;
		else
			o->caught++;
	}
	free(m);
}

/* One run a commit, good or bad by the nearer end. */
static void
search_plain(gsl_rng *r, enum noise k, double gap, size_t n, size_t truth,
    int end_runs, struct outcome *o)
{
	enum bisect_mark	*m = calloc(n, sizeof(*m));
	double			 gm = 0, bm = 0, x;
	size_t			 first, last;
	long			 c;
	int			 j;

	for (j = 0; j < end_runs; j++) {
		gm += run_level(r, k, 0, gap) / end_runs;
		bm += run_level(r, k, 1, gap) / end_runs;
	}
	m[n - 1] = BISECT_BAD;
	while ((c = bisect_next(m, n, &first, &last)) != -1) {
		x = run_level(r, k, (size_t)c >= truth, gap);
		m[c] = fabs(x - bm) < fabs(x - gm) ? BISECT_BAD : BISECT_GOOD;
		o->runs++;
		o->measured++;
	}
	tally(o, first, last, truth);
	free(m);
}

/*
 * The shift noise: the machine moves by the gap, slower or faster at
 * random, at a run drawn among the first 12 after the ends' first
 * runs, and stays there.  The other noises draw nothing here, so their
 * searches are those of before.
 */
static void
shift_plan(gsl_rng *r, enum noise k, double gap, int end_runs)
{
	run_no = 0;
	shift_at = 0;
	shift_by = 0;
	if (k != N_SHIFT)
		return;
	shift_at = 2 * end_runs + (long)gsl_rng_uniform_int(r, 12);
	shift_by = gsl_rng_uniform(r) < 0.5 ? -gap : gap;
}

static void
usage(void)
{
	fprintf(stderr, "usage: bisect [-t TRIALS] [-n COMMITS] [-r END_RUNS] "
	    "[-R MOST_END_RUNS]\n    [-T ENDS_T] [-D DF] [-m MAX_RUNS] "
	    "[-k SEED]\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	static const double gaps[] = { 1.5, 2, 3, 4, 6, 10 };
	long		 trials = 2000, tr;
	size_t		 n = 100, truth, gi;
	int		 end_runs = 3, max_runs = 8, ch, k;
	unsigned long	 seed = 1;
	gsl_rng		*r;
	double		 t0 = bench_now();

	while ((ch = getopt(argc, argv, "t:n:r:m:k:T:R:D:")) != -1) {
		switch (ch) {
		case 'T':
			tmin = atof(optarg);
			break;
		case 'D':
			t_df = atof(optarg);
			break;
		case 'R':
			end_max = atoi(optarg);
			break;
		case 't':
			trials = atol(optarg);
			break;
		case 'n':
			n = (size_t)atol(optarg);
			break;
		case 'r':
			end_runs = atoi(optarg);
			break;
		case 'm':
			max_runs = atoi(optarg);
			break;
		case 'k':
			seed = strtoul(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	if (end_max < end_runs)
		end_max = end_runs;
	if (end_max > 64)
		usage();
	if (trials < 1 || n < 2 || end_runs < 2 || end_max > 64 ||
	    max_runs < 1 || max_runs > 16)
		usage();
	r = gsl_rng_alloc(gsl_rng_mt19937);
	printf("%ld searches a case over %zu commits, the first bad one at "
	    "random; ends %d runs each, at most %d runs a commit between\n",
	    trials, n, end_runs, max_runs);
	printf("%-10s %5s  %-6s %7s %7s %7s %7s %7s %9s %5s %7s %7s %5s\n",
	    "noise", "gap", "method", "exact", "range", "wrong", "refused",
	    "runs", "measured", "ends", "caught", "lost", "pairs");
	for (k = 0; k < N_KINDS; k++)
		for (gi = 0; gi < sizeof(gaps) / sizeof(gaps[0]); gi++) {
			struct outcome	s, p;

			memset(&s, 0, sizeof(s));
			memset(&p, 0, sizeof(p));
			for (tr = 0; tr < trials; tr++) {
				gsl_rng_set(r, seed + (unsigned long)tr);
				truth = gsl_rng_uniform_int(r, n);
				shift_plan(r, (enum noise)k, gaps[gi], end_runs);
				search_sprt(r, (enum noise)k, gaps[gi], n,
				    truth, end_runs, max_runs, &s);
				gsl_rng_set(r, seed + (unsigned long)tr);
				truth = gsl_rng_uniform_int(r, n);
				shift_plan(r, (enum noise)k, gaps[gi], end_runs);
				search_plain(r, (enum noise)k, gaps[gi], n,
				    truth, end_runs, &p);
			}
			printf("%-10s %5.1f  %-6s %6.1f%% %6.1f%% %6.1f%% "
			    "%6.1f%% %7.2f %9.2f %5.1f %6.1f%% %6.1f%% "
			    "%5.2f\n", noise_name[k],
			    gaps[gi], "sprt", 100.0 * s.exact / trials,
			    100.0 * s.range / trials, 100.0 * s.wrong / trials,
			    100.0 * s.refused / trials, trials > s.refused ?
			    (double)s.runs / (double)(trials - s.refused) : 0,
			    trials > s.refused ? (double)s.measured /
			    (double)(trials - s.refused) : 0,
			    (double)s.end_runs / (double)trials,
			    100.0 * s.caught / trials, 100.0 * s.lost / trials,
			    trials > s.refused ? (double)s.pairs /
			    (double)(trials - s.refused) : 0);
			printf("%-10s %5.1f  %-6s %6.1f%% %6.1f%% %6.1f%% "
			    "%6.1f%% %7.2f %9.2f %5d\n", "", gaps[gi], "plain",
			    100.0 * p.exact / trials, 100.0 * p.range / trials,
			    100.0 * p.wrong / trials, 0.0,
			    (double)p.runs / (double)trials,
			    (double)p.measured / (double)trials, end_runs);
		}
	printf("%.1f s\n", bench_now() - t0);
	gsl_rng_free(r);
	return 0;
}
