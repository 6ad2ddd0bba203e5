/*
 * bench/detect: how well the verdict engine finds shifts in noisy
 * histories, beside two reference detectors.
 *
 * A generator makes synthetic histories of one metric (a time, lower is
 * better, level 100) under eight kinds of noise: normal sample noise of
 * 1, 3 and 8%; 3% noise with 5% of the samples slowed 1.3 to 2 times;
 * two performance modes (a run lands in the slow mode, +6%, three times
 * in ten); run-to-run offsets of 3% over a sample noise of 1%; and, beyond
 * the list, a slowly wandering level (AR(1) run offsets, lag-1
 * correlation 0.7, sd 2%) over 1% sample noise, and busy nights: 3%
 * sample noise where a spell of 1 to 3 runs 10 to 50% slower starts on a
 * quiet night 3 times in 100 (about 6% of the runs), each run of it
 * marked busy as `perfwatch run` marks one measured on a busy machine
 * (-B leaves them unmarked; their "run sd" is that of the quiet runs,
 * the noise the engine judges by when it skips the marked ones, and the
 * reference detectors, which know nothing of the marks, see them all).
 * Each history has no
 * change, a step of 2, 5, 10 or 25% in either direction, or a one-run
 * spike of +10 or +25%, after 90 to 99 runs, and runs on for 15 more.
 *
 * Each history is replayed run by run into a fresh store (in memory) and
 * judged after every run by detect_check(), the function "perfwatch check
 * --latest" calls, in process: that is the same code path, minus a fork.
 * Beside it, on the same run medians, three reference detectors:
 *   fixed-5%    a run more than 5% off the median of the 10 before it
 *               alerts at once (Phoronix-style bands);
 *   perfherder  Mozilla's: Welch t over the 12 runs before and the 12
 *               after a split, alert when t > 7;
 *   cusum       Page's two-sided CUSUM of the runs standardised by the 60
 *               before, k 1 sd, h 3.6 (-H): the textbook quickest
 *               detector of a step in normal noise, its h set so that
 *               its false alarms on the normal noises are at the goal's
 *               1 per 1000 checks.  It alarms on one run where perfwatch
 *               must confirm on a second, and it has no defence against
 *               noise that is not normal: a yardstick for recall, not a
 *               candidate (bench/README.md).
 *
 * It prints, per noise: the between-run noise (sd of run medians, from a
 * 2000-run history), the false confirmed alerts per 1000 run-checks (an
 * alert confirmed by a check before the change, the checks counted, or
 * one confirmed after it pointing the other way), once the history has
 * 60 runs (a noise window of 60 runs or more: the engine's is 90 now)
 * and, apart, while it is younger; per
 * step: the recall within 3 runs (confirmed by the third run at the new
 * level; perfherder's within 14, as its t needs the 11 runs after its
 * split: see RECALL_RUNS) and the median delay (runs from the first run
 * at the new level to the confirming one, the first counting 1); where
 * the alerts that found a step put its first bad run (the machine diff
 * is taken there);
 * per spike: how often a spike ended in a confirmed alert.  An alert of
 * fixed-5% is false when a check before the change raised it, as ours;
 * one of perfherder (which sees 12 runs past its split) when its split
 * lies three or more runs before the change.  Then it checks the issue's
 * goals: at most
 * 1 false confirmed alert per 1000 run-checks for every noise, recall of
 * 95% or more within 3 runs for every step of three between-run sds or
 * more.
 *
 * With -S DB it also times "check --latest" on a store made by
 * bench/store (build/bench/store -d DIR keeps DIR/bench.db): in process,
 * and through the perfwatch binary (-p; ../bin/perfwatch beside this
 * bench, else perfwatch in PATH), exiting 1 if that failed every time.
 * Note that this writes verdicts into that store.
 *
 * usage: detect [-Bv] [-h HISTORIES] [-i ITERATIONS] [-j JOBS] [-s SEED]
 *               [-a ALPHA] [-C CONFIRM_RUNS] [-c CLIP] [-F FDR] [-f FLOOR]
 *               [-N RUNS] [-n NOISE_RUNS] [-L LEVEL_RUNS] [-Q TAIL]
 *               [-W WINDOW] [-A 0|1] [-H CUSUM_H] [-o NOISE[,NOISE...]]
 *               [-P spike|step]
 *        detect -t NOISE,CHANGE,HISTORY [...]   (replay one, verbosely)
 *        detect -S DB [-p PERFWATCH] [-r REPEAT]
 * -o runs only the noises listed (their numbers, 0 to 7, as -t takes
 * them), with the same seeds as a full run; -v also names, on stderr,
 * every history whose false alert was confirmed, every step found with
 * its first bad run off the step, and each history's outcome, with the
 * -t argument that replays it (with the same -h and -s, from which a
 * history's seed follows, and the same engine options).  -L RUNS gives
 * the pooled evidence its level from that many runs (by default the engine
 * picks 10 to 60 by the baseline's lag-1 correlation); -Q the baseline
 * quantile the tail check measures a stretch against (0.95).  -P puts
 * an event into every history long before its change: "spike", run 40
 * 40% faster; "step", the level 12% faster from run 12 on, while the
 * history is too young to confirm it.  Each lies in the noise window of
 * the checks that follow it: what they measure is whether the engine
 * judges later runs by the noise of the runs or by the event.
 * The defaults (-h 32, 2 jobs) take about 4 minutes on two cores; the
 * engine's parameters default to perfwatch's own.
 * Figures are printed, never asserted: the machine is shared and noisy.
 */
#include <sys/wait.h>

#include <errno.h>
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
#include "xmalloc.h"
#include "detect/detect.h"
#include "store/store.h"

enum noise {
	N_NORMAL1,
	N_NORMAL3,
	N_NORMAL8,
	N_OUTLIERS,
	N_MODES,
	N_OFFSETS,
	N_DRIFT,
	N_BUSY,
	N_MAX
};

static const char *const noise_names[N_MAX] = {
	"normal 1%", "normal 3%", "normal 8%", "outliers 5%", "two modes",
	"run offsets", "AR(1) drift", "busy nights"
};

/* The changes: none, steps (percent, + is slower), spikes. */
enum change_kind { C_NONE, C_STEP, C_SPIKE };

struct change {
	enum change_kind kind;
	double		 pct;
	const char	*name;
};

static const struct change changes[] = {
	{ C_NONE, 0, "none" },
	{ C_STEP, 2, "+2%" }, { C_STEP, -2, "-2%" },
	{ C_STEP, 5, "+5%" }, { C_STEP, -5, "-5%" },
	{ C_STEP, 10, "+10%" }, { C_STEP, -10, "-10%" },
	{ C_STEP, 25, "+25%" }, { C_STEP, -25, "-25%" },
	{ C_SPIKE, 10, "spike +10%" }, { C_SPIKE, 25, "spike +25%" },
};
#define N_CHANGES	nitems(changes)

enum detector { D_PERFWATCH, D_FIXED, D_PERFHERDER, D_CUSUM, D_MAX };

static const char *const detector_names[D_MAX] = {
	"perfwatch", "fixed-5%", "perfherder", "cusum"
};

#define WARMUP		90	/* runs before the earliest change */
#define SETTLED		60	/* runs before "settled" (60-run window) */
#define SPREAD		10	/* changes fall at WARMUP .. WARMUP+SPREAD-1 */
#define AFTER		15	/* runs after the change */
#define MAXDELAY	64

/*
 * The recall is of the steps found within RECALL_RUNS runs of the first
 * run at the new level.  perfherder judges a split by the PH_SIDE runs
 * from it on, so it alerts PH_SIDE - 1 runs after its split at the
 * earliest (a delay of 10 for a split two runs early, the earliest it
 * counts as found): within 3 runs it can find nothing, and its column
 * is of the steps it found within RECALL_RUNS + PH_SIDE - 1, its split
 * by the third run at the new level.
 */
#define RECALL_RUNS	3
#define PH_SIDE		12

/*
 * Where perfwatch put the first bad run of a step it found: two or more
 * runs before the step, one before, at it, one after, two or more after.
 */
enum place { P_EARLY2, P_EARLY1, P_EXACT, P_LATE1, P_LATE2, PLACE_MAX };

/* What one (noise, change) case adds up to, per detector. */
struct tally {
	long	histories;
	long	null_checks[2];		/* run-checks before the change:
					   young (runs 11-60), settled */
	long	suspected[2];		/* of those, perfwatch's verdict
					   names a suspected alert */
	long	false_alerts[D_MAX][2];	/* confirmed before it, or the
					   wrong way after it */
	long	place[PLACE_MAX];	/* perfwatch's first bad run of
					   the steps found, against it */
	long	detected[D_MAX];	/* right direction, at or after it */
	long	within[D_MAX];		/* by recall_runs(d) */
	long	delay[D_MAX][MAXDELAY];	/* histogram of delays */
	double	seconds;		/* time in detect_check */
	long	checks;
};

static struct tally tallies[N_MAX][N_CHANGES];

static int	iterations = 5;
static int	trace;		/* -t: print every check of the history */
static int	verbose;	/* -v: a line per history on stderr */
static unsigned	only_noises;	/* -o: bit set of the noises to run, 0: all */

static int	busy_unmarked;	/* -B: busy nights' runs not marked */

/*
 * -P: an event long before the change, as real histories have them
 * (TigerBeetle's in etc/examples): a run 40% faster at run 40, or the
 * whole level 12% faster from run 12 on, while the history is young.
 * Either leaves the noise window of every check before the change.
 */
enum prior { PRIOR_NONE, PRIOR_SPIKE, PRIOR_STEP };
static enum prior	prior;
#define PRIOR_SPIKE_AT	39	/* 0-based: run 40 */
#define PRIOR_STEP_AT	11	/* run 12 */
#define PRIOR_FACTOR_SPIKE	0.6
#define PRIOR_FACTOR_STEP	0.88

/* The run-level state of a noise process. */
struct gen {
	gsl_rng		*rng;
	enum noise	 noise;
	double		 ar;		/* AR(1) offset */
	int		 busy_left;	/* busy nights still to come */
	int		 busy;		/* this run was measured busy */
};

/* Busy nights: a spell of 1-3 starts on a quiet night 3 times in 100. */
#define BUSY_START	0.03
#define BUSY_LONGEST	3

/*
 * Fill v[0..iterations) with the samples of one run at level (100 times
 * the change factor) under g's noise.
 */
static void
gen_run(struct gen *g, double factor, double *v)
{
	double	level = 100 * factor, within = 0.01;
	int	i;

	g->busy = 0;
	switch (g->noise) {
	case N_NORMAL1:
		within = 0.01;
		break;
	case N_NORMAL3:
	case N_OUTLIERS:
		within = 0.03;
		break;
	case N_NORMAL8:
		within = 0.08;
		break;
	case N_MODES:
		if (gsl_rng_uniform(g->rng) < 0.3)
			level *= 1.06;
		break;
	case N_OFFSETS:
		level *= 1 + gsl_ran_gaussian(g->rng, 0.03);
		break;
	case N_DRIFT:
		g->ar = 0.7 * g->ar + sqrt(1 - 0.49) *
		    gsl_ran_gaussian(g->rng, 0.02);
		level *= 1 + g->ar;
		break;
	case N_BUSY:
		within = 0.03;
		if (g->busy_left == 0 && gsl_rng_uniform(g->rng) < BUSY_START)
			g->busy_left = 1 + (int)gsl_rng_uniform_int(g->rng,
			    BUSY_LONGEST);
		if (g->busy_left > 0) {
			g->busy_left--;
			g->busy = 1;
			level *= gsl_ran_flat(g->rng, 1.1, 1.5);
		}
		break;
	default:
		break;
	}
	for (i = 0; i < iterations; i++) {
		v[i] = level * (1 + gsl_ran_gaussian(g->rng, within));
		if (g->noise == N_OUTLIERS && gsl_rng_uniform(g->rng) < 0.05)
			v[i] *= gsl_ran_flat(g->rng, 1.3, 2.0);
	}
}

/* Median of n doubles (n small), through a copy. */
static double
median_of(const double *x, size_t n)
{
	double	m;

	if (stats_median(x, n, &m) == -1)
		fatalx("median of nothing");
	return m;
}

/* The between-run sd of a noise, in percent: sd of 2000 run medians. */
static double
noise_sd(enum noise noise, unsigned long seed)
{
	struct gen	 g;
	double		*med, *v, sd, mean;
	size_t		 i, n = 2000;

	memset(&g, 0, sizeof(g));
	g.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g.rng, seed);
	g.noise = noise;
	med = xcalloc(n, sizeof(*med));
	v = xcalloc((size_t)iterations, sizeof(*v));
	for (i = 0; i < n;) {
		gen_run(&g, 1, v);
		if (!g.busy)	/* the noise of the quiet runs */
			med[i++] = median_of(v, (size_t)iterations);
	}
	stats_mean(med, n, &mean);
	stats_stddev(med, n, &sd);
	free(med);
	free(v);
	gsl_rng_free(g.rng);
	return sd / mean * 100;
}

/* The delay within which a detector's find counts for its recall. */
static long
recall_runs(enum detector d)
{
	return d == D_PERFHERDER ? RECALL_RUNS + PH_SIDE - 1 : RECALL_RUNS;
}

/* Record a detection of a change with delay d (runs, first = 1). */
static void
tally_detect(struct tally *t, enum detector d, long delay)
{
	t->detected[d]++;
	if (delay <= recall_runs(d))
		t->within[d]++;
	if (delay < 1)
		delay = 1;
	if (delay >= MAXDELAY)
		delay = MAXDELAY - 1;
	t->delay[d][delay]++;
}

/*
 * The CUSUM reference: Page's two-sided CUSUM of the run medians, each
 * standardised by the mean and sd of the CUSUM_BASE runs before the
 * current excursion began (so a shift's own runs stay out of its
 * baseline), reference value k = CUSUM_K sds, alarm at h = cusum_h, both
 * sums reset after an alarm.  With the mean and sd known, CUSUM is the
 * detector of a step of 2k sds in independent normal runs with the least
 * worst-case delay for its rate of false alarms (Lorden, Moustakides);
 * h 3.6 puts its false alarms on this bench's normal noises at 0.99 to
 * 1.09 per 1000 settled checks, the goal's budget (for that rate a
 * simulation of independent normal runs needs h 3.0 with the mean and
 * sd known, 3.25 with them from the 60 runs before each check; a
 * baseline that stops where the excursion began needs more).  So its
 * recall is about what any detector can buy with that budget when the
 * noise is normal.
 */
#define CUSUM_K		1.0
#define CUSUM_BASE	60

static double	cusum_h = 3.6;	/* -H */

/*
 * The reference detectors over run medians med[0..n), with the change at
 * index at (n when none) of sign dir (+1 slower, -1 faster, 0 none).
 */
static void
reference_detectors(struct tally *t, const double *med, size_t n, size_t at,
    int dir, enum change_kind kind)
{
	double	base, pc, mb, ma, vb, va, tt, sp = 0, sn = 0, z, np, nn;
	size_t	i, j, last_split = 0, sp0 = 0, sn0 = 0, end;
	int	flagged = 0, found_fixed = 0, found_ph = 0, found_cu = 0, f;

	/* fixed-5%: a run more than 5% off the median of the 10 before. */
	for (i = 10; i < n; i++) {
		base = median_of(med + i - 10, 10);
		pc = (med[i] - base) / base * 100;
		f = fabs(pc) > 5;
		if (f && !flagged) {
			if (i < at)
				t->false_alerts[D_FIXED][i >= SETTLED]++;
			else if (kind == C_STEP && !found_fixed &&
			    (pc > 0) == (dir > 0)) {
				tally_detect(t, D_FIXED, (long)(i - at + 1));
				found_fixed = 1;
			}
		}
		flagged = f;
	}

	/* perfherder: 12 before and 12 after the split j = i - 11. */
	for (i = 2 * PH_SIDE - 1; i < n; i++) {
		j = i - (PH_SIDE - 1);
		if (last_split != 0 && j < last_split + PH_SIDE)
			continue;
		stats_mean(med + j - PH_SIDE, PH_SIDE, &mb);
		stats_mean(med + j, PH_SIDE, &ma);
		stats_stddev(med + j - PH_SIDE, PH_SIDE, &vb);
		stats_stddev(med + j, PH_SIDE, &va);
		vb *= vb;
		va *= va;
		if (vb + va == 0)
			continue;
		tt = (ma - mb) / sqrt(vb / PH_SIDE + va / PH_SIDE);
		if (fabs(tt) <= 7)
			continue;
		last_split = j;
		if (j + 2 < at)
			t->false_alerts[D_PERFHERDER][j >= SETTLED]++;
		else if (kind == C_STEP && !found_ph && (tt > 0) == (dir > 0) &&
		    j <= at + 2) {
			tally_detect(t, D_PERFHERDER, (long)(i - at + 1));
			found_ph = 1;
		}
	}

	/* cusum: see CUSUM_K. */
	for (i = CUSUM_BASE; i < n; i++) {
		end = i;
		if (sp > 0 && sp0 < end)
			end = sp0;
		if (sn > 0 && sn0 < end)
			end = sn0;
		if (end < CUSUM_BASE)
			end = CUSUM_BASE;
		stats_mean(med + end - CUSUM_BASE, CUSUM_BASE, &mb);
		stats_stddev(med + end - CUSUM_BASE, CUSUM_BASE, &vb);
		if (vb == 0)
			continue;
		z = (med[i] - mb) / vb;
		np = sp + z - CUSUM_K;
		nn = sn - z - CUSUM_K;
		if (sp == 0 && np > 0)
			sp0 = i;
		if (sn == 0 && nn > 0)
			sn0 = i;
		sp = np > 0 ? np : 0;
		sn = nn > 0 ? nn : 0;
		if (sp <= cusum_h && sn <= cusum_h)
			continue;
		f = sp > cusum_h ? 1 : -1;
		sp = sn = 0;
		if (i < at || f != dir)
			t->false_alerts[D_CUSUM][i >= SETTLED]++;
		else if (kind == C_STEP && !found_cu) {
			tally_detect(t, D_CUSUM, (long)(i - at + 1));
			found_cu = 1;
		} else if (kind == C_SPIKE && !found_cu) {
			t->detected[D_CUSUM]++;
			found_cu = 1;
		}
	}
}

/* Replay one history into a fresh store, checking after every run. */
static void
run_history(enum noise noise, size_t ci, long h, unsigned long seed,
    const struct detect_params *par)
{
	const struct change	*c = &changes[ci];
	struct tally		*t = &tallies[noise][ci];
	struct detect_result	 res;
	struct store_alert	 a;
	struct store_run	 r;
	struct store		*st;
	struct gen		 g;
	char			*cause = NULL, label[32];
	double			*v, *med, factor, t0;
	int64_t			 host, metric, *ids;
	size_t			 at, n, i, k, fb;
	int			 dir, found = 0, it, way;
	long			 delay = 0;

	memset(&g, 0, sizeof(g));
	g.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g.rng, seed);
	g.noise = noise;
	at = WARMUP + gsl_rng_uniform_int(g.rng, SPREAD);
	n = at + AFTER;
	if (c->kind == C_NONE)
		at = n;
	dir = c->pct > 0 ? 1 : (c->pct < 0 ? -1 : 0);

	if ((st = store_open(":memory:", &cause)) == NULL)
		fatalx("%s", cause);
	host = store_host_ensure(st, "bench", NULL);
	metric = store_metric_ensure(st, "bench", "time", "s", BETTER_LOWER,
	    &cause);
	if (host == -1 || metric == -1)
		fatalx("bench store: %s", cause != NULL ? cause : "?");
	v = xcalloc((size_t)iterations, sizeof(*v));
	med = xcalloc(n, sizeof(*med));
	ids = xcalloc(n, sizeof(*ids));
	t->histories++;
	for (i = 0; i < n; i++) {
		factor = 1;
		if (c->kind == C_STEP && i >= at)
			factor = 1 + c->pct / 100;
		else if (c->kind == C_SPIKE && i == at)
			factor = 1 + c->pct / 100;
		if (prior == PRIOR_SPIKE && i == PRIOR_SPIKE_AT)
			factor *= PRIOR_FACTOR_SPIKE;
		else if (prior == PRIOR_STEP && i >= PRIOR_STEP_AT)
			factor *= PRIOR_FACTOR_STEP;
		gen_run(&g, factor, v);
		med[i] = median_of(v, (size_t)iterations);

		memset(&r, 0, sizeof(r));
		snprintf(label, sizeof(label), "r-%04zu", i + 1);
		r.host = host;
		r.label = label;
		r.trigger = "schedule";
		r.started = 1700000000 + (int64_t)i * 86400;
		r.ended = r.started + 600;
		r.has_end = 1;
		r.status = RUN_COMPLETE;
		if (g.busy && !busy_unmarked)
			r.quiet = "{\"busy\":true,\"why\":\"a busy night\"}";
		if (store_begin(st) == -1 ||
		    (ids[i] = store_run_create(st, &r, &cause)) < 0)
			fatalx("bench store: run %zu", i);
		for (it = 0; it < iterations; it++)
			if (store_sample_add(st, ids[i], metric, it + 1,
			    v[it]) == -1)
				fatalx("bench store: sample");
		if (store_commit(st) == -1)
			fatalx("bench store: commit");

		t0 = bench_now();
		if (detect_check(st, ids[i], par, &res, &cause) == -1)
			fatalx("detect_check: %s", cause);
		t->seconds += bench_now() - t0;
		t->checks++;
		if (trace && res.nv == 1)
			printf("%3zu%s%s %8.3f %-12s z %6.2f p %8.2g q %8.2g "
			    "base %8.3f noise %6.3f n%zu%s%s\n", i,
			    i == at ? "*" : " ", g.busy ? "b" : " ", med[i],
			    detect_kind_name(res.v[0].kind), res.v[0].z,
			    res.v[0].p, res.v[0].q, res.v[0].reference,
			    res.v[0].noise, res.v[0].baseline_runs,
			    res.nev > 0 ? " -> " : "",
			    res.nev > 0 ? res.ev[0].to : "");
		if (i >= 10 && i < at) {
			t->null_checks[i >= SETTLED]++;
			if (res.nv == 1 && res.v[0].alert_state != NULL &&
			    strcmp(res.v[0].alert_state, ALERT_SUSPECTED) == 0)
				t->suspected[i >= SETTLED]++;
		}
		for (k = 0; k < res.nev; k++) {
			if (strcmp(res.ev[k].to, ALERT_CONFIRMED) != 0)
				continue;
			if (store_alert_get(st, res.ev[k].alert, &a) == -1)
				fatalx("alert %lld", (long long)res.ev[k].alert);
			for (fb = 0; fb < n && ids[fb] != a.first_bad_run; fb++)
				;
			store_alert_clear(&a);
			way = (res.ev[k].change_pct > 0) - (res.ev[k].change_pct < 0);
			if (i < at || way != dir) {
				/*
				 * Confirmed with nothing behind it: before the
				 * change, or against it.
				 */
				t->false_alerts[D_PERFWATCH][i >= SETTLED]++;
				if (verbose)
					fprintf(stderr, "%s, %s, -t %d,%zu,%ld: "
					    "false alert confirmed at run %zu, "
					    "first bad run %zu\n",
					    noise_names[noise], c->name,
					    (int)noise, ci, h, i + 1, fb + 1);
			} else if (c->kind == C_SPIKE && !found) {
				/*
				 * Once a history: a second alert confirmed
				 * the spike's way later on is no second
				 * spike, as cusum's found_cu keeps it.
				 */
				t->detected[D_PERFWATCH]++;
				found = 1;
			} else if (c->kind == C_STEP && !found) {
				delay = (long)(i - at + 1);
				tally_detect(t, D_PERFWATCH, delay);
				t->place[fb + 2 <= at ? P_EARLY2 :
				    fb + 1 == at ? P_EARLY1 : fb == at ? P_EXACT :
				    fb == at + 1 ? P_LATE1 : P_LATE2]++;
				found = 1;
				if (verbose && fb != at)
					fprintf(stderr, "%s, %s, -t %d,%zu,%ld: "
					    "step at run %zu confirmed at run "
					    "%zu, first bad run %zu\n",
					    noise_names[noise], c->name,
					    (int)noise, ci, h, at + 1, i + 1,
					    fb + 1);
			}
		}
		detect_result_free(&res);
	}
	if (verbose)
		fprintf(stderr, "%s, %s, -t %d,%zu,%ld: change at run %zu, "
		    "%s (%ld)\n", noise_names[noise], c->name, (int)noise, ci,
		    h, at + 1,
		    c->kind != C_STEP ? "-" : found ? "found" : "missed",
		    found ? delay : 0L);
	reference_detectors(t, med, n, at, dir, c->kind);
	store_close(st);
	free(v);
	free(med);
	free(ids);
	gsl_rng_free(g.rng);
}

/* Whether noise ni is among those run (-o). */
static int
noise_run(int ni)
{
	return only_noises == 0 || (only_noises & (1U << ni)) != 0;
}

/* The median delay of a histogram, or -1 when empty. */
static long
median_delay(const long *h)
{
	long	total = 0, acc = 0;
	int	d;

	for (d = 0; d < MAXDELAY; d++)
		total += h[d];
	if (total == 0)
		return -1;
	for (d = 0; d < MAXDELAY; d++) {
		acc += h[d];
		if (2 * acc >= total)
			return d;
	}
	return MAXDELAY - 1;
}

/* Add a worker's tallies (read from fd) to ours. */
static void
tally_merge(int fd)
{
	struct tally	 in[N_MAX][N_CHANGES];
	struct tally	*a, *b;
	size_t		 got = 0;
	ssize_t		 r;
	int		 ni, d, k;
	size_t		 ci;

	while (got < sizeof(in)) {
		r = read(fd, (char *)in + got, sizeof(in) - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			fatalx("a worker died");
		got += (size_t)r;
	}
	for (ni = 0; ni < N_MAX; ni++) {
		for (ci = 0; ci < N_CHANGES; ci++) {
			a = &tallies[ni][ci];
			b = &in[ni][ci];
			a->histories += b->histories;
			a->null_checks[0] += b->null_checks[0];
			a->null_checks[1] += b->null_checks[1];
			a->suspected[0] += b->suspected[0];
			a->suspected[1] += b->suspected[1];
			a->seconds += b->seconds;
			a->checks += b->checks;
			for (k = 0; k < PLACE_MAX; k++)
				a->place[k] += b->place[k];
			for (d = 0; d < D_MAX; d++) {
				a->false_alerts[d][0] += b->false_alerts[d][0];
				a->false_alerts[d][1] += b->false_alerts[d][1];
				a->detected[d] += b->detected[d];
				a->within[d] += b->within[d];
				for (k = 0; k < MAXDELAY; k++)
					a->delay[d][k] += b->delay[d][k];
			}
		}
	}
}

/*
 * Time check --latest on a bench/store database, in process and by CLI;
 * -1 if the CLI failed every time (nothing timed through it).
 */
static int
time_store(const char *db, const char *pw, int repeat)
{
	struct detect_params	 par;
	struct detect_result	 res;
	struct store_run	 r;
	struct store		*st;
	char			*cause = NULL, *cmd;
	double			*tin, *tcli, t0, t, med, lo, hi;
	int64_t			 id = 0;
	int			 i, rc, ran = 0;

	tin = xcalloc((size_t)repeat, sizeof(*tin));
	tcli = xcalloc((size_t)repeat, sizeof(*tcli));
	detect_params_default(&par);
	for (i = 0; i < repeat; i++) {
		t0 = bench_now();
		if ((st = store_open(db, &cause)) == NULL)
			fatalx("%s", cause);
		if (store_run_latest(st, RUN_COMPLETE, &r) == -1)
			fatalx("%s: no complete run", db);
		if (detect_check(st, r.id, &par, &res, &cause) == -1)
			fatalx("detect_check: %s", cause);
		tin[i] = bench_now() - t0;
		if (i == 0)
			printf("check --latest on %s: run %s, %zu metrics, "
			    "%zu regressions\n", db, r.label, res.nv,
			    res.regressions);
		id = r.id;
		detect_result_free(&res);
		store_run_clear(&r);
		store_close(st);
	}
	/*
	 * The run by its id: --latest takes this host's newest run, and
	 * bench/store's runs are of host "bench".
	 */
	xasprintf(&cmd, "%s -D %s check '#%lld' >/dev/null", pw, db,
	    (long long)id);
	/* Only the runs that checked: a failure's time is not check's. */
	for (i = 0; i < repeat; i++) {
		t0 = bench_now();
		rc = system(cmd);
		t = bench_now() - t0;
		if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) > 1)
			fprintf(stderr, "bench-detect: \"%s\" failed\n", cmd);
		else
			tcli[ran++] = t;
	}
	free(cmd);
	stats_median(tin, (size_t)repeat, &med);
	stats_minmax(tin, (size_t)repeat, &lo, &hi);
	printf("  in process (open, check, close)  median %7.1f ms  "
	    "min %7.1f ms  (%d times)\n", med * 1e3, lo * 1e3, repeat);
	if (ran > 0) {
		stats_median(tcli, (size_t)ran, &med);
		stats_minmax(tcli, (size_t)ran, &lo, &hi);
		printf("  %s check #%lld (the newest)  median %7.1f ms  "
		    "min %7.1f ms  (goal < 250 ms)", pw, (long long)id,
		    med * 1e3, lo * 1e3);
		if (ran < repeat)
			printf("  (%d of %d times; the rest failed)", ran,
			    repeat);
		printf("\n");
	} else
		printf("  %s check #%lld (the newest)  failed  (%d times)\n",
		    pw, (long long)id, repeat);
	free(tin);
	free(tcli);
	return ran > 0 ? 0 : -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: detect [-h HISTORIES] [-i ITERATIONS] "
	    "[-j JOBS] [-s SEED] [-t NOISE,CHANGE,HISTORY]\n"
	    "              [-Bv] [-a ALPHA] [-C RUNS] [-c CLIP] [-F FDR] "
	    "[-f FLOOR] [-N RUNS]\n"
	    "              [-n NOISE_RUNS] [-L LEVEL_RUNS] [-Q TAIL] "
	    "[-W WINDOW] [-A 0|1] [-H CUSUM_H]\n"
	    "              [-o NOISE[,NOISE...]] [-P spike|step]\n"
	    "       detect -S DB [-p PERFWATCH] [-r REPEAT]\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	struct detect_params	 par;
	struct tally		*t;
	const char		*db = NULL;
	double			 sd[N_MAX], t0, elapsed, rate, secs = 0;
	unsigned long		 seed = 1;
	long			 h, nh = 32, checks = 0, md, th = 0;
	size_t			 ci, tci = 0;
	pid_t			*pids;
	int			 ch, jobs = 2, j, ni, d, fds[2], *rfd;
	int			 repeat = 5, ok_fa = 1, ok_recall = 1, job;
	int			 tni = 0, ret;
	char			 cell[64], *cp, *ep, *pw = NULL;

	log_init("bench-detect", 1, 0);
	detect_params_default(&par);
	while ((ch = getopt(argc, argv,
	    "A:a:BC:c:F:f:H:h:i:j:L:N:n:o:P:p:Q:r:S:s:t:vW:")) != -1) {
		switch (ch) {
		case 'A':
			par.autocorr = atoi(optarg);
			break;
		case 'a':
			par.confirm_alpha = strtod(optarg, NULL);
			break;
		case 'B':
			busy_unmarked = 1;
			break;
		case 'C':
			par.confirm_runs = (size_t)atol(optarg);
			break;
		case 'c':
			par.clip = strtod(optarg, NULL);
			break;
		case 'F':
			par.fdr = strtod(optarg, NULL);
			break;
		case 'f':
			par.min_change = strtod(optarg, NULL);
			break;
		case 'L':
			par.pool_level = (size_t)atol(optarg);
			break;
		case 'Q':
			par.tail = strtod(optarg, NULL);
			break;
		case 'N':
			par.baseline_runs = (size_t)atol(optarg);
			break;
		case 'n':
			par.noise_runs = (size_t)atol(optarg);
			break;
		case 'o':
			/* NOISE[,NOISE...]: run only these noises. */
			for (cp = optarg; *cp != '\0'; cp = ep) {
				ni = (int)strtol(cp, &ep, 10);
				if (ep == cp || ni < 0 || ni >= N_MAX)
					usage();
				only_noises |= 1U << ni;
				if (*ep == ',')
					ep++;
			}
			break;
		case 'P':
			if (strcmp(optarg, "spike") == 0)
				prior = PRIOR_SPIKE;
			else if (strcmp(optarg, "step") == 0)
				prior = PRIOR_STEP;
			else
				usage();
			break;
		case 'v':
			verbose = 1;
			break;
		case 'W':
			par.window = (size_t)atol(optarg);
			break;
		case 'H':
			cusum_h = strtod(optarg, NULL);
			break;
		case 'h':
			nh = atol(optarg);
			break;
		case 'i':
			iterations = atoi(optarg);
			break;
		case 'j':
			jobs = atoi(optarg);
			break;
		case 'p':
			free(pw);
			pw = xstrdup(optarg);
			break;
		case 'r':
			repeat = atoi(optarg);
			break;
		case 'S':
			db = optarg;
			break;
		case 's':
			seed = strtoul(optarg, NULL, 10);
			break;
		case 't':
			/*
			 * NOISE,CHANGE,HISTORY: replay that one, verbosely.
			 * Variables of its own: -o parses into ni.
			 */
			if (sscanf(optarg, "%d,%zu,%ld", &tni, &tci, &th) != 3 ||
			    tni < 0 || tni >= N_MAX || tci >= N_CHANGES || th < 0)
				usage();
			trace = 1;
			log_set_verbose(2);
			setvbuf(stdout, NULL, _IOLBF, 0);
			break;
		default:
			usage();
		}
	}
	if (nh < 1 || iterations < 1 || jobs < 1 || repeat < 1 ||
	    optind != argc)
		usage();
	if (db != NULL) {
		/*
		 * Not "build/bin/perfwatch", which held only from the top
		 * of the tree: from anywhere else no run of it timed.
		 */
		if (pw == NULL)
			pw = bench_perfwatch(argv[0]);
		ret = time_store(db, pw, repeat) == 0 ? 0 : 1;
		free(pw);
		return ret;
	}
	if (trace) {
		printf("%s, %s, history %ld\n", noise_names[tni],
		    changes[tci].name, th);
		run_history((enum noise)tni, tci, th, seed * 1000003UL +
		    (unsigned long)(((long)tni * (long)N_CHANGES + (long)tci) *
		    nh + th), &par);
		return 0;
	}
	if (par.pool_level == 0)
		snprintf(cell, sizeof(cell), "by lag-1 r");
	else
		snprintf(cell, sizeof(cell), "%zu runs", par.pool_level);
	for (ni = 0; ni < N_MAX; ni++)
		sd[ni] = noise_run(ni) ? noise_sd((enum noise)ni,
		    seed + 7919 * (ni + 1)) : NAN;

	printf("bench/detect: %ld histories per case, %d iterations a run, "
	    "changes after %d-%d runs, %d runs after;\n%d noises x %zu "
	    "changes; perfwatch defaults (N %zu, floor %g%%, fdr %g, "
	    "confirm %zu, window %zu, alpha %g, clip %g, noise runs %zu,\n"
	    "pool level %s)\n\n",
	    nh, iterations, WARMUP, WARMUP + SPREAD - 1, AFTER, N_MAX,
	    N_CHANGES, par.baseline_runs, par.min_change, par.fdr,
	    par.confirm_runs, par.window, par.confirm_alpha, par.clip,
	    detect_noise_runs(&par), cell);
	if (prior == PRIOR_SPIKE)
		printf("Before the change, run %d is %.0f%% faster "
		    "(-P spike).\n\n", PRIOR_SPIKE_AT + 1,
		    (1 - PRIOR_FACTOR_SPIKE) * 100);
	else if (prior == PRIOR_STEP)
		printf("Before the change, the level is %.0f%% faster from "
		    "run %d on (-P step).\n\n", (1 - PRIOR_FACTOR_STEP) * 100,
		    PRIOR_STEP_AT + 1);
	fflush(stdout);

	t0 = bench_now();
	pids = xcalloc((size_t)jobs, sizeof(*pids));
	rfd = xcalloc((size_t)jobs, sizeof(*rfd));
	for (job = 0; job < jobs; job++) {
		if (pipe(fds) == -1)
			fatal("pipe");
		if ((pids[job] = fork()) == -1)
			fatal("fork");
		if (pids[job] == 0) {
			close(fds[0]);
			j = 0;
			for (ni = 0; ni < N_MAX; ni++)
				for (ci = 0; ci < N_CHANGES; ci++)
					for (h = 0; h < nh; h++, j++) {
						if (j % jobs != job ||
						    !noise_run(ni))
							continue;
						run_history((enum noise)ni, ci,
						    h, seed * 1000003UL +
						    (unsigned long)j, &par);
					}
			if (write(fds[1], tallies, sizeof(tallies)) !=
			    (ssize_t)sizeof(tallies))
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		rfd[job] = fds[0];
	}
	for (job = 0; job < jobs; job++) {
		tally_merge(rfd[job]);
		close(rfd[job]);
		waitpid(pids[job], NULL, 0);
	}
	elapsed = bench_now() - t0;

	printf("false confirmed alerts per 1000 run-checks before the "
	    "change: settled (runs %d on, a noise\nwindow of %d runs or "
	    "more) | young (runs 11-%d)\n", SETTLED + 1, SETTLED, SETTLED);
	printf("%-12s %7s %7s %10s %10s %10s %10s | %6s %9s %9s %9s %9s\n",
	    "noise", "run sd", "checks", detector_names[0], detector_names[1],
	    detector_names[2], detector_names[3], "checks", detector_names[0],
	    detector_names[1], detector_names[2], detector_names[3]);
	for (ni = 0; ni < N_MAX; ni++) {
		long	fa[D_MAX][2], nck[2] = { 0, 0 };
		int	y;

		if (!noise_run(ni))
			continue;
		memset(fa, 0, sizeof(fa));
		for (ci = 0; ci < N_CHANGES; ci++) {
			t = &tallies[ni][ci];
			for (y = 0; y < 2; y++) {
				nck[y] += t->null_checks[y];
				for (d = 0; d < D_MAX; d++)
					fa[d][y] += t->false_alerts[d][y];
			}
			checks += t->checks;
			secs += t->seconds;
		}
		printf("%-12s %6.2f%% %7ld", noise_names[ni], sd[ni], nck[1]);
		for (d = 0; d < D_MAX; d++) {
			rate = nck[1] > 0 ? 1000.0 * (double)fa[d][1] /
			    (double)nck[1] : 0;
			printf(" %10.2f", rate);
			if (d == D_PERFWATCH && rate > 1)
				ok_fa = 0;
		}
		printf(" | %6ld", nck[0]);
		for (d = 0; d < D_MAX; d++) {
			if (d == D_CUSUM)	/* it checks from run 61 */
				printf(" %9s", "-");
			else
				printf(" %9.2f", nck[0] > 0 ? 1000.0 *
				    (double)fa[d][0] / (double)nck[0] : 0);
		}
		putchar('\n');
	}

	/*
	 * What a person sees of a suspicion that is not confirmed: the
	 * same checks, those whose verdict names a suspected alert.
	 */
	printf("\nrun-checks before the change whose verdict names a "
	    "suspected alert, per 1000:\nsettled | young\n");
	for (ni = 0; ni < N_MAX; ni++) {
		long	sus[2] = { 0, 0 }, nck[2] = { 0, 0 };
		int	y;

		if (!noise_run(ni))
			continue;
		for (ci = 0; ci < N_CHANGES; ci++)
			for (y = 0; y < 2; y++) {
				nck[y] += tallies[ni][ci].null_checks[y];
				sus[y] += tallies[ni][ci].suspected[y];
			}
		printf("%-12s %7.1f | %7.1f\n", noise_names[ni],
		    nck[1] > 0 ? 1000.0 * (double)sus[1] / (double)nck[1] : 0,
		    nck[0] > 0 ? 1000.0 * (double)sus[0] / (double)nck[0] : 0);
	}

	printf("\nrecall within %d runs (perfherder's within %ld: its t needs "
	    "the %d runs after its split), median\ndelay in runs (first run "
	    "at the new level = 1); * marks steps of at least 3 between-run "
	    "sds,\nwhere the goal is >= 95%%\n", RECALL_RUNS,
	    recall_runs(D_PERFHERDER), PH_SIDE - 1);
	snprintf(cell, sizeof(cell), "%s<=%ld", detector_names[D_PERFHERDER],
	    recall_runs(D_PERFHERDER));
	printf("%-12s %-6s %6s  %-15s %-15s %-15s %-15s\n", "noise", "step",
	    "/sd", detector_names[0], detector_names[1], cell,
	    detector_names[3]);
	for (ni = 0; ni < N_MAX; ni++) {
		if (!noise_run(ni))
			continue;
		for (ci = 0; ci < N_CHANGES; ci++) {
			int	req;

			if (changes[ci].kind != C_STEP)
				continue;
			t = &tallies[ni][ci];
			req = fabs(changes[ci].pct) >= 3 * sd[ni];
			printf("%-12s %-6s %5.1f%s", noise_names[ni],
			    changes[ci].name, fabs(changes[ci].pct) / sd[ni],
			    req ? "*" : " ");
			for (d = 0; d < D_MAX; d++) {
				rate = 100.0 * (double)t->within[d] /
				    (double)t->histories;
				md = median_delay(t->delay[d]);
				if (md < 0)
					snprintf(cell, sizeof(cell), "%5.1f%% (-)",
					    rate);
				else
					snprintf(cell, sizeof(cell),
					    "%5.1f%% (%ld)", rate, md);
				printf("  %-15s", cell);
				if (d == D_PERFWATCH && req && rate < 95)
					ok_recall = 0;
			}
			putchar('\n');
		}
	}

	printf("\nwhere perfwatch put the first bad run of the steps it "
	    "found (steps of at least 3 sds),\nagainst the step: the machine "
	    "diff of the alert is from the run before it\n");
	printf("%-12s %6s %8s %8s %8s %8s %8s\n", "noise", "found", "<=-2",
	    "-1", "at it", "+1", ">=+2");
	for (ni = 0; ni < N_MAX; ni++) {
		long	pl[PLACE_MAX], tot = 0;
		int	q;

		if (!noise_run(ni))
			continue;
		memset(pl, 0, sizeof(pl));
		for (ci = 0; ci < N_CHANGES; ci++) {
			if (changes[ci].kind != C_STEP ||
			    fabs(changes[ci].pct) < 3 * sd[ni])
				continue;
			for (q = 0; q < PLACE_MAX; q++) {
				pl[q] += tallies[ni][ci].place[q];
				tot += tallies[ni][ci].place[q];
			}
		}
		printf("%-12s %6ld", noise_names[ni], tot);
		for (q = 0; q < PLACE_MAX; q++)
			printf(" %7.1f%%", tot > 0 ? 100.0 * (double)pl[q] /
			    (double)tot : 0.0);
		putchar('\n');
	}

	printf("\none-run spikes that ended in a confirmed alert of "
	    "perfwatch (an alarm of cusum)\n");
	for (ni = 0; ni < N_MAX; ni++) {
		if (!noise_run(ni))
			continue;
		printf("%-12s", noise_names[ni]);
		for (ci = 0; ci < N_CHANGES; ci++) {
			if (changes[ci].kind != C_SPIKE)
				continue;
			t = &tallies[ni][ci];
			printf("  %s: %ld (%ld) of %ld", changes[ci].name,
			    t->detected[D_PERFWATCH], t->detected[D_CUSUM],
			    t->histories);
		}
		putchar('\n');
	}

	printf("\n%ld run-checks in %.1f s (%d jobs); detect_check %.2f ms a "
	    "check on average\n", checks, elapsed, jobs,
	    checks > 0 ? secs / (double)checks * 1e3 : 0.0);
	printf("goal: <= 1 false confirmed alert per 1000 run-checks, every "
	    "noise (settled): %s%s\n", ok_fa ? "met" : "NOT MET",
	    only_noises != 0 ? " (of the noises run)" : "");
	printf("goal: recall >= 95%% within 3 runs, every step >= 3 sds: "
	    "%s%s\n", ok_recall ? "met" : "NOT MET",
	    only_noises != 0 ? " (of the noises run)" : "");
	free(pids);
	free(rfd);
	return 0;
}
