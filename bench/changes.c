/*
 * bench/changes: what `perfwatch changes` (cp_detect()) reports on
 * synthetic histories of run medians, and how long it takes.
 *
 * 1. False changes: S series of 200 runs without any change, of each
 *    noise: independent normal (mean 100, sd 10), Student t with 3
 *    degrees of freedom (scale 3: heavy tails), and AR(1) noise of lag-1
 *    correlation 0.5 and 0.8 (sd 3: a level that wanders).  For each, the
 *    series with any change reported, with a step, and with a step once
 *    the practical floor is set to 0 (the tests alone).  A search that
 *    did not settle is not counted here: cp_detect() says so itself, on
 *    stderr ("cp_detect: search did not settle in N rounds"), and ends
 *    a search that comes back to a set of steps it has met (see
 *    cp_detect_with in detect/changepoint.c).
 * 2. Excursions: a level LEN runs long, 15% above the rest, then back,
 *    in 150 runs of normal noise of 1% and 3%, at run 40 + (series mod
 *    10); for each LEN the series where it came out as two steps at
 *    exactly its first run and the run after its last, as one spike over
 *    exactly its runs, as something else, or as nothing.
 * 3. Steps: a level 5, 12 or 25% higher for the last 60, 8 or 4 runs of
 *    120 (a step long past, and one of last week: the window after it
 *    short), in normal noise of 1% and 3%; the series where it came out
 *    as one step at exactly its first run, one a run early or late,
 *    something else, or nothing.
 * 4. Staircases: two steps down one after the other, as the bonnie runs
 *    of Red Hat, SCO HTFS and SCO EAFS make (7, 9 and 9 runs): a short
 *    history of 7-10, 8-12 and 8-12 runs, and a long one of 60, 8-20
 *    and 30, in normal noise of 1% and 3%, falling 60% then 20% more, or
 *    12% then 12%; the series where both steps came out at exactly their
 *    first runs, where both came out but not both there, where one or
 *    none did, and where something else came out.
 * 5. Time: cp_detect() on one series of 3650 runs (ten years nightly)
 *    with a 10-run excursion, the median of R calls.
 *
 * usage: changes [-s SERIES] [-r REPEAT] [-k SEED]
 * Seeds are fixed (SEED + series), so two builds compare case by case.
 * Figures are printed, never asserted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bench.h"
#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "detect/stats.h"

#define NRUNS		200	/* a no-change series */
#define XRUNS		150	/* an excursion series */
#define SRUNS		120	/* a step series */
#define BIGRUNS		3650	/* the timed series */

enum noise { N_NORMAL, N_T3, N_AR5, N_AR8, N_MAX };

static const char *noise_names[N_MAX] = {
	"normal sd 10", "t3 scale 3", "AR(1) 0.5 sd 3", "AR(1) 0.8 sd 3",
};

/* Fill x with n runs of noise kind around 100. */
static void
noise_series(gsl_rng *rng, enum noise kind, double *x, size_t n)
{
	double	e = 0, phi;
	size_t	i;

	for (i = 0; i < n; i++) {
		switch (kind) {
		case N_NORMAL:
			x[i] = 100 + gsl_ran_gaussian(rng, 10);
			break;
		case N_T3:
			x[i] = 100 + 3 * gsl_ran_tdist(rng, 3);
			break;
		default:
			/* Stationary sd 3 whatever phi. */
			phi = kind == N_AR5 ? 0.5 : 0.8;
			e = phi * e + gsl_ran_gaussian(rng,
			    3 * sqrt(1 - phi * phi));
			if (i == 0)
				e = gsl_ran_gaussian(rng, 3);
			x[i] = 100 + e;
			break;
		}
	}
}

/* Whether any of c[0..n) is a step. */
static int
has_step(const struct cp_change *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (c[i].kind == CP_STEP)
			return 1;
	return 0;
}

static void
false_changes(int series, unsigned long seed)
{
	struct cp_params	 par;
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[NRUNS];
	size_t			 nc;
	int			 s, any, step, step0;
	enum noise		 k;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	printf("false changes: %d series of %d runs without a change, "
	    "seeds %lu..%lu\n", series, NRUNS, seed, seed + series - 1);
	printf("%-16s %10s %10s %18s\n", "noise", "any", "a step",
	    "a step, floor 0");
	for (k = 0; k < N_MAX; k++) {
		any = step = step0 = 0;
		for (s = 0; s < series; s++) {
			gsl_rng_set(rng, seed + (unsigned long)s);
			noise_series(rng, k, x, NRUNS);
			cp_params_default(&par);
			if (cp_detect(x, NRUNS, &par, &c, &nc) == -1)
				fatalx("cp_detect failed");
			any += nc > 0;
			step += has_step(c, nc);
			free(c);
			par.min_change = 0;
			if (cp_detect(x, NRUNS, &par, &c, &nc) == -1)
				fatalx("cp_detect failed");
			step0 += has_step(c, nc);
			free(c);
		}
		printf("%-16s %5d %3.1f%% %5d %3.1f%% %11d %5.1f%%\n",
		    noise_names[k], any, 100.0 * any / series, step,
		    100.0 * step / series, step0, 100.0 * step0 / series);
	}
	gsl_rng_free(rng);
}

static void
excursions(int series, unsigned long seed)
{
	static const size_t	 lens[] = { 1, 2, 3, 4, 5, 6, 8, 10, 12, 15,
				    20, 25, 30 };
	static const double	 sds[] = { 10, 30 };
	struct cp_change	*c;
	gsl_rng			*rng;
	double			 x[XRUNS];
	size_t			 li, si, i, nc, at;
	int			 s, steps, spike, other, none;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	printf("\nexcursions: %d series of %d runs a case, 15%% up for LEN "
	    "runs from run 40..49, then back\n", series, XRUNS);
	printf("%-6s %5s %12s %12s %12s %12s\n", "noise", "len",
	    "two steps", "one spike", "other", "nothing");
	for (si = 0; si < nitems(sds); si++) {
		for (li = 0; li < nitems(lens); li++) {
			steps = spike = other = none = 0;
			for (s = 0; s < series; s++) {
				gsl_rng_set(rng, seed + (unsigned long)s);
				for (i = 0; i < XRUNS; i++)
					x[i] = 1000 + gsl_ran_gaussian(rng,
					    sds[si]);
				at = 40 + (size_t)s % 10;
				for (i = at; i < at + lens[li]; i++)
					x[i] += 150;
				if (cp_detect(x, XRUNS, NULL, &c, &nc) == -1)
					fatalx("cp_detect failed");
				if (nc == 0)
					none++;
				else if (nc == 2 && c[0].kind == CP_STEP &&
				    c[1].kind == CP_STEP && c[0].index == at &&
				    c[1].index == at + lens[li])
					steps++;
				else if (nc == 1 && c[0].kind == CP_SPIKE &&
				    c[0].index == at &&
				    c[0].length == lens[li])
					spike++;
				else
					other++;
				free(c);
			}
			printf("%3.0f%% %8zu %6d %4.1f%% %6d %4.1f%% "
			    "%6d %4.1f%% %6d %4.1f%%\n", sds[si] / 10,
			    lens[li], steps, 100.0 * steps / series, spike,
			    100.0 * spike / series, other,
			    100.0 * other / series, none,
			    100.0 * none / series);
		}
	}
	gsl_rng_free(rng);
}

/* One case of steps(): where a step of size% by the run from came out. */
static void
step_case(gsl_rng *rng, int series, unsigned long seed, double sd,
    double size, size_t from)
{
	struct cp_change	*c;
	double			 x[SRUNS];
	size_t			 i, nc;
	int			 s, at = 0, early = 0, late = 0, other = 0;
	int			 none = 0;

	for (s = 0; s < series; s++) {
		gsl_rng_set(rng, seed + (unsigned long)s);
		for (i = 0; i < SRUNS; i++)
			x[i] = 1000 + gsl_ran_gaussian(rng, sd) +
			    (i >= from ? size * 10 : 0);
		if (cp_detect(x, SRUNS, NULL, &c, &nc) == -1)
			fatalx("cp_detect failed");
		if (nc == 0)
			none++;
		else if (nc != 1 || c[0].kind != CP_STEP)
			other++;
		else if (c[0].index == from)
			at++;
		else if (c[0].index + 1 == from)
			early++;
		else if (c[0].index == from + 1)
			late++;
		else
			other++;
		free(c);
	}
	printf("%3.0f%% %4.0f%% %5zu %6d %4.1f%% %6d %4.1f%% %6d %4.1f%% "
	    "%6d %4.1f%% %6d %4.1f%%\n", sd / 10, size, SRUNS - from, at,
	    100.0 * at / series, early, 100.0 * early / series, late,
	    100.0 * late / series, other, 100.0 * other / series, none,
	    100.0 * none / series);
}

static void
steps(int series, unsigned long seed)
{
	static const double	 sizes[] = { 5, 12, 25 }, sds[] = { 10, 30 };
	static const size_t	 afters[] = { SRUNS / 2, 8, 4 };
	gsl_rng			*rng;
	size_t			 zi, si, ai;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	printf("\nsteps: %d series of %d runs a case, up by SIZE for the "
	    "last AFTER runs\n", series, SRUNS);
	printf("%-6s %5s %5s %12s %12s %12s %12s %12s\n", "noise", "size",
	    "after", "at it", "a run early", "a run late", "other",
	    "nothing");
	for (ai = 0; ai < nitems(afters); ai++)
		for (si = 0; si < nitems(sds); si++)
			for (zi = 0; zi < nitems(sizes); zi++)
				step_case(rng, series, seed, sds[si],
				    sizes[zi], SRUNS - afters[ai]);
	gsl_rng_free(rng);
}

/* One case of staircases(). */
static void
staircase_case(gsl_rng *rng, int series, unsigned long seed, double sd,
    const double drop[2], int longer)
{
	struct cp_change	*c;
	double			 x[SRUNS];
	size_t			 i, nc, n1, n2, n, steps, at[2];
	int			 s, exact = 0, placed = 0, fewer = 0, other = 0;

	for (s = 0; s < series; s++) {
		gsl_rng_set(rng, seed + (unsigned long)s);
		if (longer) {
			n1 = 60;
			n2 = n1 + 8 + gsl_rng_uniform_int(rng, 13);
			n = n2 + 30;
		} else {
			n1 = 7 + gsl_rng_uniform_int(rng, 4);
			n2 = n1 + 8 + gsl_rng_uniform_int(rng, 5);
			n = n2 + 8 + gsl_rng_uniform_int(rng, 5);
		}
		for (i = 0; i < n; i++)
			x[i] = (1000 + gsl_ran_gaussian(rng, sd)) *
			    (i < n1 ? 1 : i < n2 ? 1 - drop[0] / 100 :
			    (1 - drop[0] / 100) * (1 - drop[1] / 100));
		if (cp_detect(x, n, NULL, &c, &nc) == -1)
			fatalx("cp_detect failed");
		for (i = 0, steps = 0; i < nc; i++)
			if (c[i].kind == CP_STEP && steps++ < 2)
				at[steps - 1] = c[i].index;
		if (steps > 2 || steps != nc)
			other++;
		else if (steps < 2)
			fewer++;
		else if (at[0] == n1 && at[1] == n2)
			exact++;
		else
			placed++;
		free(c);
	}
	printf("%-5s %3.0f%% %3.0f%%,%3.0f%% %6d %4.1f%% %6d %4.1f%% "
	    "%6d %4.1f%% %6d %4.1f%%\n", longer ? "long" : "short", sd / 10,
	    drop[0], drop[1], exact, 100.0 * exact / series, placed,
	    100.0 * placed / series, fewer, 100.0 * fewer / series, other,
	    100.0 * other / series);
}

static void
staircases(int series, unsigned long seed)
{
	static const double	 drops[][2] = { { 60, 20 }, { 12, 12 } };
	static const double	 sds[] = { 10, 30 };
	gsl_rng			*rng;
	size_t			 di, si;
	int			 longer;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	printf("\nstaircases: %d series a case, down by DROP twice\n",
	    series);
	printf("%-5s %4s %8s %12s %12s %12s %12s\n", "runs", "noise",
	    "drop", "both at", "misplaced", "fewer", "other");
	for (longer = 0; longer <= 1; longer++)
		for (si = 0; si < nitems(sds); si++)
			for (di = 0; di < nitems(drops); di++)
				staircase_case(rng, series, seed, sds[si],
				    drops[di], longer);
	gsl_rng_free(rng);
}

static void
timing(int repeat, unsigned long seed)
{
	struct cp_change	*c;
	gsl_rng			*rng;
	double			*x, *t, t0;
	size_t			 i, nc = 0;
	int			 r;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	x = xreallocarray(NULL, BIGRUNS, sizeof(*x));
	t = xreallocarray(NULL, (size_t)repeat, sizeof(*t));
	for (i = 0; i < BIGRUNS; i++)
		x[i] = 1000 + gsl_ran_gaussian(rng, 30);
	for (i = 1000; i < 1010; i++)
		x[i] += 150;
	for (r = 0; r < repeat; r++) {
		t0 = bench_now();
		if (cp_detect(x, BIGRUNS, NULL, &c, &nc) == -1)
			fatalx("cp_detect failed");
		t[r] = bench_now() - t0;
		free(c);
	}
	qsort(t, (size_t)repeat, sizeof(*t), bench_cmp_double);
	/* Of an even -r, the mean of the middle two, not the upper one. */
	printf("\ntime: cp_detect on %d runs (a 10-run excursion at 1000, 3%% "
	    "noise): median %.1f ms of %d (min %.1f, max %.1f), %zu changes\n",
	    BIGRUNS, stats_median_sorted(t, (size_t)repeat) * 1e3, repeat,
	    t[0] * 1e3, t[repeat - 1] * 1e3, nc);
	free(t);
	free(x);
	gsl_rng_free(rng);
}

int
main(int argc, char **argv)
{
	unsigned long	seed = 1000;
	int		ch, series = 500, repeat = 5;

	log_init("bench-changes", 1, 0);
	while ((ch = getopt(argc, argv, "s:r:k:")) != -1) {
		switch (ch) {
		case 's':
			series = atoi(optarg);
			break;
		case 'r':
			repeat = atoi(optarg);
			break;
		case 'k':
			seed = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: changes [-s SERIES] "
			    "[-r REPEAT] [-k SEED]\n");
			return 64;
		}
	}
	if (series < 1 || repeat < 1) {
		fprintf(stderr, "changes: -s and -r take a count of 1 or "
		    "more\n");
		return 64;
	}
	false_changes(series, seed);
	excursions(series / 5 > 10 ? series / 5 : 10, seed);
	steps(series * 2, seed);
	staircases(series * 2, seed);
	timing(repeat, seed);
	return 0;
}
