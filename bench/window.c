/*
 * bench/window: the ceiling behind bench/detect's hardest cell, a step
 * of about 3.3 between-run sds (run offsets' +10%), for a detector that
 * knows everything bench/detect's noise leaves to chance but the
 * estimates: runs independent and normal, the step right after a clean
 * baseline, no outliers, modes or drift to guard against.
 *
 * The detector is the simplest that confirms on pooled evidence: at each
 * run t, the standardised runs z_j = (m_j - level) / sd of the windows of
 * 2 .. W runs ending with t are summed, each sum over sqrt(w + w^2 / B)
 * (its sd, with the level's own error from B runs), and the largest in
 * absolute value alarms when it passes c.  The level and sd are the mean
 * and sd of the B runs before the checks (-o: known, 0 and 1).
 *
 * False alarms: H histories of B runs and then up to 100 checks without a
 * change, the first alarm ending a history; per 1000 checks, both
 * directions.  Recall: H histories of B runs and then a step of D sds
 * whose runs have an sd of G (run offsets' noise is relative, so a +10%
 * step widens it by 1.1), the share with an alarm the right way within
 * 3 runs (the step's: downward for D under 0; either way for D = 0).
 * The defaults are run offsets' +10%: D = 10 / 3.04, G = 1.1.
 *
 * usage: window [-o] [-B RUNS] [-W WINDOW] [-d STEP] [-g SD] [-n HISTORIES]
 *               [-k SEED] [C ...]
 * Seeds are fixed, so two runs compare.  Figures are printed, never
 * asserted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "xmalloc.h"

#define CHECKS		100	/* checks of a no-change history */
#define WITHIN		3	/* recall: an alarm by this run of the step */

struct params {
	int		 oracle;
	int		 base;		/* B */
	int		 window;	/* W */
	double		 step;		/* D */
	double		 after_sd;	/* G */
	long		 histories;	/* H */
	unsigned long	 seed;
};

/*
 * The largest |pooled sum| of the windows of 2 .. W runs of z ending at
 * z[t] (t >= 1), the sign of the largest in *sign.
 */
static double
window_score(const struct params *p, const double *z, int t, int *sign)
{
	double	sum = z[t], best = 0, s;
	int	w;

	*sign = 0;
	for (w = 2; w <= p->window && t - w + 1 >= 0; w++) {
		sum += z[t - w + 1];
		s = sum / sqrt(w + (p->oracle ? 0 : (double)w * w / p->base));
		if (fabs(s) > best) {
			best = fabs(s);
			*sign = s > 0 ? 1 : -1;
		}
	}
	return best;
}

/* Draw B baseline runs; their level and sd (or the truth, -o). */
static void
baseline(const struct params *p, gsl_rng *r, double *x, double *level,
    double *sd)
{
	double	m = 0, ss = 0;
	int	i;

	for (i = 0; i < p->base; i++) {
		x[i] = gsl_ran_gaussian(r, 1);
		m += x[i];
	}
	m /= p->base;
	for (i = 0; i < p->base; i++)
		ss += (x[i] - m) * (x[i] - m);
	*level = p->oracle ? 0 : m;
	*sd = p->oracle ? 1 : sqrt(ss / (p->base - 1));
}

/*
 * False alarms per 1000 checks and recall within 3 runs at threshold c.
 *
 * Every c must see the same histories, so that the rows differ by c
 * alone: each phase starts from its own seed, and each history is drawn
 * whole before it is checked, so that where its first alarm ends it
 * does not move the draws of the next.  Drawn as they were checked, the
 * recall phase followed however many draws the false alarms had taken at
 * that c, and at -n 2000 recall rose from 95.65% at c 3.7 to 95.90% at
 * 3.8.  Now both columns can only fall as c rises.
 */
static void
measure(const struct params *p, double c, double *fa, double *recall)
{
	gsl_rng	*r;
	double	*x, z[CHECKS], level, sd;
	long	 h, alarms = 0, checks = 0, found = 0;
	int	 t, sign, way;

	r = gsl_rng_alloc(gsl_rng_mt19937);
	x = xcalloc((size_t)p->base, sizeof(*x));
	gsl_rng_set(r, p->seed);
	for (h = 0; h < p->histories; h++) {
		baseline(p, r, x, &level, &sd);
		for (t = 0; t < CHECKS; t++)
			z[t] = (gsl_ran_gaussian(r, 1) - level) / sd;
		/* From the second run: confirming takes 2. */
		for (t = 1; t < CHECKS; t++) {
			checks++;
			if (window_score(p, z, t, &sign) > c) {
				alarms++;
				break;
			}
		}
	}
	/*
	 * The right way is the step's: a step down (-d under 0) is found
	 * by an alarm downward.  A step of 0 has none, and an alarm either
	 * way counts: what chance alone gives within 3 runs.
	 */
	way = p->step > 0 ? 1 : p->step < 0 ? -1 : 0;
	gsl_rng_set(r, p->seed + 1);
	for (h = 0; h < p->histories; h++) {
		baseline(p, r, x, &level, &sd);
		for (t = 0; t < WITHIN; t++)
			z[t] = (p->step + gsl_ran_gaussian(r, p->after_sd) -
			    level) / sd;
		for (t = 1; t < WITHIN; t++) {
			if (window_score(p, z, t, &sign) > c &&
			    (way == 0 || sign == way)) {
				found++;
				break;
			}
		}
	}
	free(x);
	gsl_rng_free(r);
	*fa = 1000.0 * (double)alarms / (double)checks;
	*recall = 100.0 * (double)found / (double)p->histories;
}

static void
usage(void)
{
	fprintf(stderr, "usage: window [-o] [-B RUNS] [-W WINDOW] [-d STEP] "
	    "[-g SD] [-n HISTORIES] [-k SEED] [C ...]\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	static const double	 defaults[] = { 3.4, 3.5, 3.6, 3.7, 3.8, 3.9 };
	struct params		 p = { 0, 90, 4, 3.29, 1.1, 20000, 1 };
	double			 c, fa, recall;
	int			 ch, i, n;

	while ((ch = getopt(argc, argv, "oB:W:d:g:n:k:")) != -1) {
		switch (ch) {
		case 'o':
			p.oracle = 1;
			break;
		case 'B':
			p.base = atoi(optarg);
			break;
		case 'W':
			p.window = atoi(optarg);
			break;
		case 'd':
			p.step = strtod(optarg, NULL);
			break;
		case 'g':
			p.after_sd = strtod(optarg, NULL);
			break;
		case 'n':
			p.histories = atol(optarg);
			break;
		case 'k':
			p.seed = strtoul(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (p.base < 3 || p.window < 2 || p.window > CHECKS ||
	    p.histories < 1 || p.after_sd <= 0)
		usage();
	printf("windowed test: windows of 2-%d runs, level and sd %s; "
	    "step %.2f sds, its runs' sd %.3f; %ld histories a figure\n",
	    p.window, p.oracle ? "known" : "from the runs before",
	    p.step, p.after_sd, p.histories);
	if (!p.oracle)
		printf("(the level and sd from %d runs)\n", p.base);
	printf("%6s  %22s  %22s\n", "c", "false alarms per 1000",
	    "recall within 3 runs");
	n = argc > 0 ? argc : (int)(sizeof(defaults) / sizeof(defaults[0]));
	for (i = 0; i < n; i++) {
		c = argc > 0 ? strtod(argv[i], NULL) : defaults[i];
		if (!(c > 0))
			usage();
		measure(&p, c, &fa, &recall);
		printf("%6.2f  %22.3f  %21.2f%%\n", c, fa, recall);
	}
	return 0;
}
