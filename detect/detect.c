/*
 * The verdict engine: baselines, verdicts and the evidence for alerts.
 *
 * Design notes
 * ------------
 * A metric of a run is judged against a baseline: by default the last N
 * complete runs of the same host before it ("rolling", N = [detect]
 * baseline_runs), or a pinned, named set of runs (perfwatch baseline).
 * Everything is computed from the samples in the store, so a check can be
 * repeated at any time over old data and gives the same answer.
 *
 * 1. The run is the unit of noise (DESIGN.md, principle 2).  Iterations
 *    of one run share its conditions, so the question is never "do these
 *    samples differ from those?" but "is this run's level outside the
 *    spread of the baseline's runs?".  Each run is reduced to its level
 *    m_i, Tukey's biweight location of its samples (scale: their MAD,
 *    c = 4.685), and to the standard error of that level from its own
 *    spread, se_i = 1.026 MAD_i / sqrt(n_i).  The biweight is 95% as
 *    efficient as the mean for normal samples where the median of five
 *    is about 70%, and a sample more than 4.7 MADs out counts for
 *    nothing where the median still leans toward it.  On bench/detect
 *    (100 histories a case) against the median: recall of 3-4 sd steps
 *    within 3 runs normal 3% -5% 92 -> 96%, outliers -10% 94 -> 95%;
 *    false alerts per 1000 checks two modes 0.76 -> 0.63, drift 1.06 ->
 *    0.96, normal 3% 0.28 -> 0.33.  Huber's location (c = 1.345) gained
 *    as much on normal noise but let each 1.3-2x outlier lean on the
 *    level by c MADs / n: the outliers' false alerts went 0.46 -> 1.22.
 *    (Fewer than three samples: the median, se 0.)  The baseline's level
 *    is the Hodges-Lehmann location (median of the Walsh averages) of
 *    the levels of its newest N runs: nearly as precise as their mean
 *    (variance pi/3 s^2/N) and hardly moved by one wild run.  Its
 *    between-run noise is measured over a longer stretch, the newest
 *    9N eligible runs (noise_runs), because a 10-run sd is too noisy to
 *    judge by and misses a slow mode that turns up once in a while.
 *    9N rather than the 6N of before: the sd of 90 runs is uncertain by
 *    7.5% where 60 runs' is by 9%, its t has 89 degrees of freedom, and
 *    the pooled level below takes up to all of them.  On bench/detect at
 *    300 histories a case (its changes come after 90-99 runs, so the
 *    window held 80-90 of them) the recall within 3 runs of the steps
 *    of 3.1-3.6 sds went from 94.0/94.7% to 95.3/95.7% (normal 3%
 *    +-5%), 94.7/95.3% to 98.3/95.7% (two modes +-10%) and 91.7/93.7% to
 *    94.7/94.7% (run offsets +-10%); false alerts per 1000 settled
 *    checks 0.37 -> 0.44, 0.62 -> 0.47 and 0.56 -> 0.51, and at 100
 *    histories none of the seven noises above 0.84 (the drift, 0.96
 *    before).  It costs a check about 1.4 times the time (95 against
 *    67 ms in process on bench/store's 7.3 M samples: the Walsh
 *    averages of a 90-run level, the resampled sums) and a history 90
 *    runs to reach it:
 *
 *        s = max(sd(m_1..m_k) * AR1(r), median(se_i))
 *
 *    where AR1(r) = sqrt((1 + r) / (1 - r)) widens the noise of runs
 *    whose medians are autocorrelated (lag-1 r over the same k runs,
 *    clamped to [0, 0.9]: a slow drift is not a regression, principle 5;
 *    r is taken as estimated, not one standard error lower as the
 *    change points take theirs: that gained run offsets' 3.3 sd steps a
 *    point of recall and took the drift's false alerts from 0.84 to
 *    1.32 per 1000 checks, bench/README.md), and the within-run floor
 *    keeps a baseline whose medians happen to agree from looking quieter
 *    than its own samples.  A run's own se
 *    counts against it (detect_run_sd) only beyond what the baseline's
 *    runs show: times the median over the 95th percentile of their se.
 *    An se from five samples is uncertain by half; taken raw, a run in
 *    two that happened to spread had its share cut by up to half, and
 *    with it the verdict and tail check of many a step's first run.
 *
 * 2. The verdict test.  The run's deviation d = m - level is a prediction
 *    error: its sd is sqrt(max(s, se')^2 + s^2 pi / (3N)) (se' the run's
 *    se as scaled in note 1), and d / sd is
 *    referred to Student's t with k - 1 degrees of freedom.  When the run
 *    has three or more samples a Mann-Whitney U test of its samples
 *    against the samples of the N baseline runs is made as well, and p is
 *    the larger of the two p-values (an intersection-union test: valid
 *    whenever either test is; it rejects only when samples and runs both
 *    say the run is off).  With single-iteration runs the run test alone
 *    decides.  The p-values of all the run's metrics are adjusted
 *    together by Benjamini and Hochberg (principle 3).  The change is d
 *    over the level, in percent, with the 95% interval d +- t(0.975) sd.
 *
 *    A verdict is a regression or an improvement (by the metric's
 *    `better`) when q <= fdr and the change is practically relevant: the
 *    interval's far end lies beyond the floor min_change (principle 4).
 *    This is the complement of an equivalence test: a change is dismissed
 *    as negligible only when it is shown to be smaller than the floor, so
 *    a true change at the floor is not lost half the time to the noise of
 *    its estimate.  Since q <= fdr needs |d| > 2 sd, a reported change
 *    always exceeds the measured between-run noise as well.  With fewer
 *    than three baseline runs the verdict is inconclusive.
 *
 *    Why the median shift and not Hodges-Lehmann's two-sample shift: the
 *    run test has one median on one side, where HL reduces to m minus a
 *    location of the other side; the group comparison (compare.c), with
 *    several runs on both sides, uses the HL shift and Moses' interval.
 *
 * 3. Alerts (alert.c) pool the evidence of the runs since a shift began,
 *    a CUSUM-like sum.  Run medians are often autocorrelated (a level
 *    that wanders), and widening the noise by AR1(r), as the verdict
 *    does, would cost a real step most of its weight.  So the pooled
 *    evidence is whitened instead: each run j of the stretch is predicted
 *    from the run before it by the baseline's lag-1 r (clamped to
 *    [0, 0.9]), e_j = (m_j - c) - r (m_(j-1) - c), and the prediction
 *    errors are measured against their own sd s_e over the k noise runs,
 *    widened by AR1 of the errors' own lag-1 correlation (an estimate of
 *    r below the truth, as a short window's is, leaves some behind: on
 *    the drift of bench/detect, 1.60 false alerts per 1000 checks without
 *    this, 1.37 with it, at 100 histories a case).
 *    A step of size D adds D to the first run's error and D (1 - r) to
 *    each later one, so with weights w = (1, 1 - r, 1 - r, ...)
 *
 *        T = sum_j w_j clip(e_j / s_e) / sqrt(sum w_j^2 + (sum w_j)^2 cvar)
 *
 *    (cvar = pi / (3L), the level's own error: for r = 0 this is the
 *    mean share over sqrt(1/M + pi/(3L))), referred to t(k - 1).  On
 *    bench/detect's AR(1) drift (r 0.7) this took the recall of 10%
 *    steps within 3 runs from about 60% to about 85%.  A pinned baseline
 *    is not the runs just before the stretch: there r = 0 and s_e = s.  The
 *    level c of the pooled evidence comes from the newest L runs, more
 *    than the verdict's N when the runs look independent: all k noise
 *    runs while the baseline's lag-1 r is 0, N once r reaches two
 *    standard errors of an estimate from independent runs (2 / sqrt(k),
 *    0.26 for k 60), in proportion between.  A 3.1 sd step pooled over
 *    3 runs scores 4.7 against a 10-run level and 5.2 against a 60-run
 *    one.  A correlated level keeps the short window: an r from 60 runs
 *    is biased low, and what the whitening leaves of a wandering level a
 *    local level offsets and a long one does not (on the drift of
 *    bench/detect a level from 16-20 runs took false alerts from 1.37 to
 *    2.38 per 1000 checks).  A precise level also makes the t test say
 *    what the resampling, tail and precedent checks below say (they
 *    measure the stretch against the baseline's runs whatever the
 *    level), so together they filter less: confirm_alpha went from
 *    0.001 to 0.0005 with it (bench/README.md has the figures).
 *    The clip caps a run's share at C = 3 sds, or at twice the largest
 *    share of the other runs if that is more, so one wild run can never
 *    carry a stretch alone while a large shift seen by every run keeps
 *    its full weight.  Three more checks, each aimed at a way the t
 *    test's normal model fails, must agree:
 *    - resampling: the chance that M runs drawn with replacement from the
 *      baseline's own (clipped) errors sum as high, with the same
 *      weights, is computed exactly (meet in the middle over k^M
 *      draws; a stretch of more than 6 runs, or whose draws are too
 *      many to hold, as from a baseline_runs of 100, is left to the t
 *      test), and the larger of it and the
 *      t test's p counts: a skewed or two-mode baseline speaks for itself;
 *    - tail: the stretch's lower median run must lie beyond the 95th
 *      percentile (detect_params.tail) of the baseline's runs: a level
 *      the baseline has held before (a slow mode, however many runs in
 *      a row) is not new;
 *    - precedent: no stretch of M runs in a row in the baseline may score
 *      as high: the drift of a wandering level has been seen before.
 *    A run whose verdict is a regression or an improvement opens a
 *    `suspected` alert; it is `confirmed` when the stretch from its first
 *    bad run (at least confirm_runs runs) passes at confirm_alpha after
 *    Benjamini-Hochberg across the run's metrics, beyond the floor, and
 *    the newest run leans the same way, and a rolling baseline has at
 *    least DETECT_MIN_POOL_BASE (20) noise runs: with fewer, s and r say
 *    too little, and runs taken by earlier alerts (a two-mode metric
 *    whose fast runs all went into alerts) left a baseline of a handful
 *    of one mode's runs that confirmed alert after alert.  While
 *    suspected, the first bad run is re-placed by a least-squares split
 *    of the stretch (a run that only happened to lean the same way just
 *    before the shift is not its first).  So that a shift whose first
 *    run fell just short of significance is not lost, a check with no
 *    alert open also looks back: the stretches of 2 .. `window` runs
 *    ending with it are pooled against the baselines before them (p
 *    times the starts tried; a stretch that passes the other checks is
 *    preferred to one with a lower p that does not), and one that passes
 *    opens the alert `confirmed` at once.  Its first bad run is where
 *    the split of the runs since the newest run of the stretch's
 *    rolling baseline puts the shift: a run before the stretch that the
 *    baseline left out as wild may be the shift's first (a shift
 *    imported unchecked, five runs old when one was checked, had its
 *    second run named as the first bad one, and the run before its
 *    first as the last good).  A suspicion is cleared
 *    (`resolved`) when a run is back within noise (less than one sd, or
 *    half the floor, from the old level) and the pooled evidence is weak
 *    (one-sided p > 0.01), or after `window` runs unless it is a
 *    regression that only a young baseline keeps from confirming (fewer
 *    than DETECT_MIN_POOL_BASE noise runs, while its stretch passes
 *    everything else a confirmation asks): cleared, its runs would join
 *    the baseline, which would then take the worse level as the norm
 *    and never tell of it (bonnie's 64% drop in block write, checked run
 *    by run after seven runs, was cleared three runs on); it stays
 *    suspected until a run is back or it is acknowledged.  A confirmed
 *    alert is resolved when confirm_runs runs in a row are back within
 *    noise.
 *    Later runs update the open alert; they do not open new ones, with
 *    two exceptions.  A run that clears a suspicion, or resolves a
 *    confirmed alert, while it is itself a regression or improvement
 *    the other way (a slow mode's run, then a real speed-up) opens a
 *    suspicion of its own at once, where before the shift lost a run
 *    (two modes' -10% steps found within 3 runs 92 -> 95% on
 *    bench/detect; a confirmed alert's resolution by a shift back past
 *    its old level was added later, and let that shift be confirmed by
 *    its third run rather than its fourth).  And a second shift the same
 *    way while an alert is confirmed (3% slower, then 25% slower) is a
 *    shift of its own: each check of a confirmed alert also pools the
 *    stretches of confirm_runs .. window runs ending with it against
 *    the alert's own level (its runs before the stretch, at least
 *    confirm_runs of them), with the baseline's noise and its runs
 *    moved to that level for the resampling, tail and precedent checks,
 *    p times the stretches tried and in the run's BH family
 *    (detect_further).  A stretch that passes what a confirmation must
 *    pass resolves the alert, its payload naming the new one
 *    (`superseded_by`), and opens a confirmed alert from the stretch's
 *    first run, whose machine diff is taken from the run before
 *    it.  Without this the second shift only moved the old alert's
 *    change figure and told no one: on bench/detect 1 in 300 histories
 *    of normal 3% with a -25% step had a false alert of a 3% speed-up
 *    confirmed and not yet resolved when the step came, and the step
 *    was never reported.  A return to the old level is not a further
 *    shift (it resolves the alert), nor is a shift back past it (see
 *    the first exception).
 *
 * 4. Which runs a rolling baseline skips.  Runs inside a confirmed alert
 *    of the metric (from where it opened to the run that resolved it, or
 *    to now while it is open) are skipped, and so are the runs of a
 *    suspected alert while it is suspected, so that later runs are judged
 *    against the level before the shift.  A suspicion that is cleared
 *    gives its runs back: excluding every run that once looked odd would
 *    make the baseline ever quieter.  Runs of trigger `bisect` are
 *    skipped too: they measure the commits of a bisection (half of them
 *    bad), not the host as it is.  So are runs measured on a busy
 *    machine (their [quiet] record says busy: the policy measured
 *    anyway, or another run held the measuring lock), and such a run,
 *    when it is checked, opens and advances no alert: its figures are
 *    the machine's and its load's.  Taken as runs like any other, a
 *    busy night of a few in a row confirmed a false alert, and widened
 *    the noise later steps were judged by: on bench/detect's busy
 *    nights (3% noise, a spell of 1-3 runs 10-50% slower starting on 3
 *    quiet nights in 100), false alerts per 1000 settled checks 15.5
 *    -> 0.35 and recall of 10% steps within 3 runs 55/45% -> 97/94%
 *    (bench/README.md).  What it costs is a busy run's say: a step
 *    whose first runs are busy is found from its first quiet one.
 *    Acknowledging an alert accepts its
 *    level: runs checked after the acknowledgement are judged against the
 *    runs since the shift only (inconclusive until there are three),
 *    until an alert the other way opens after it (the accepted level
 *    left, as when the regression is mended): from its first run on the
 *    accepted runs are skipped as a resolved alert's, and the runs
 *    before the shift count again.  The cut kept for ever mixed the
 *    accepted runs with the mended ones, whose improvement, too young
 *    to confirm, was let go, and a 15% regression after them was not
 *    told (detect_back_from).  An alert opened by the checked run itself
 *    (from a look-back) skips its runs before that run, as it does for
 *    every later run, so that the run checked again is judged as the
 *    alert was.
 *
 * 5. Which runs measure the noise.  The sd of 90 run levels is not
 *    robust: one run 40% off among 71 made TigerBeetle's noise eleven
 *    times its runs' spread (r-0011, etc/examples), and a step too young
 *    to confirm, or an improvement let go, does the same; nothing after
 *    it was seen for 90 runs.  So from DETECT_MIN_POOL_BASE runs on,
 *    detect_clear moves the runs before a clear step to the level after
 *    the newest one (a least absolute deviations split, 5+ runs a side,
 *    the sides' medians 6 within-side sds apart, at most one run of
 *    each side past their midpoint; each side searched again, and a
 *    split that is large but mixed is judged again between the clear
 *    steps its sides hold: two steps, the second back part of the
 *    way, as bonnie's getc_kps goes 9900, 14700, 6650), takes
 *    the verdict's samples only from after it, and leaves out a run 10
 *    sds (normalized MAD) from the rest while at most one in 30 lies
 *    half as far (with a MAD of 0, runs that mostly tie, any run off
 *    their level).  Only what no noise of bench/detect makes by chance
 *    is cut: a two-mode metric's slow runs recur (its sides mix, and
 *    too many lie half as far), a drift never spans 6 of its own sds
 *    with clean sides.  Cutting more (the change-point scan, tried
 *    first) made false alerts.  And a confirmed alert with 20 runs of
 *    its own judges a further shift by their level and noise
 *    (detect_further), since a level may settle wider than the one
 *    before it.  Figures: bench/README.md, "Clear steps and wild runs".
 *
 * Invariants:
 * - Re-checking a run gives the same verdicts and changes no alert: an
 *   alert's exclusion applies to a run only when the alert was opened by
 *   an earlier run (alerts record the run that opened them and the run
 *   that confirmed them; a span starts where the alert opened, so moving
 *   a suspicion's first bad run later changes no earlier judgement), and
 *   an alert advances only on a run newer than the last run it has seen.
 *   Outbox rows are written only by a state change, in the transaction
 *   that writes the verdicts.
 * - Alerts advance only for complete runs judged against the baseline in
 *   use; a one-off --baseline, a bisect run or a busy run writes
 *   verdicts only.
 * - Nothing here speaks SQL; the store does.
 *
 * What this buys and what it costs is measured by bench/detect, which
 * replays synthetic histories run by run through the store and this
 * check; its table and the figures behind the defaults are in
 * bench/README.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "log.h"
#include "xmalloc.h"
#include "detect_int.h"

/* Runs fetched per store query while walking back through a history. */
#define DETECT_CHUNK	16

/* How much more than the clip a run may weigh, relative to the others. */
#define DETECT_CLIP_RATIO	2

/* Tukey's biweight for a run's level: c in MADs, efficiency at normal. */
#define DETECT_BIWEIGHT_C	4.685
#define DETECT_BIWEIGHT_EFF	0.95

/* The quantile of the baseline runs' se beyond which a run's own counts. */
#define DETECT_SE_HIGH		0.95
/* A clear step in a rolling baseline (see the design notes, 5). */
#define DETECT_CLEAR_SIDE	5	/* fewest runs either side of it */
#define DETECT_CLEAR_STEP	6	/* its size in within-side sds */
#define DETECT_WILD_RUN		10	/* a wild run: this many sds out */
#define DETECT_WILD_SHARE	30	/* at most one in this many runs
					   half as far */
#define DETECT_MAD_SD		1.482602218505602	/* 1 / Phi^-1(3/4) */

/* Longest stretch resampled (exactly, over k^m draws: k^(m/2) memory). */
#define DETECT_MAX_RESAMPLE	6

/*
 * Most sums one side of the resampling's meet in the middle may hold
 * (k^ceil(m/2), 8 MiB): 90 noise runs, the default, take 729000 for a
 * stretch of 5 or 6.  A baseline_runs of 100 (900 noise runs) took
 * 729 million for 5 runs, 11 GB and three minutes a check, or died of
 * it (exit 1, "regression").
 */
#define DETECT_RESAMPLE_SUMS	(1 << 20)

/*
 * Samples a check keeps of the runs its metrics share (store_cache):
 * 20 bytes each, 20 MiB at most.  bench/store's 90-odd runs of 200
 * metrics of 10 samples take 190 k.
 */
#define DETECT_CACHE_SAMPLES	(1024 * 1024)

/* Runs that measure the noise of a rolling baseline. */
size_t
detect_noise_runs(const struct detect_params *p)
{
	size_t	n;

	n = p->noise_runs >= p->baseline_runs ? p->noise_runs :
	    9 * p->baseline_runs;
	/* Fewer could never confirm (alert_confirms): baseline_runs 3. */
	return n < DETECT_MIN_POOL_BASE ? DETECT_MIN_POOL_BASE : n;
}

/* Fill p with the defaults documented in detect.h. */
void
detect_params_default(struct detect_params *p)
{
	memset(p, 0, sizeof(*p));
	p->baseline_runs = 10;
	p->min_change = 2;
	p->fdr = 0.05;
	p->confirm_runs = 2;
	p->window = 4;
	p->confirm_alpha = 5e-4;
	p->clip = 3;
	p->tail = 0.95;
	p->autocorr = 1;
	p->alerts = 1;
}

/* Parse a sink's min_state. */
static enum detect_level
detect_level_parse(const char *s)
{
	if (s != NULL && strcmp(s, "suspected") == 0)
		return DETECT_LEVEL_SUSPECTED;
	if (s != NULL && strcmp(s, "resolved") == 0)
		return DETECT_LEVEL_RESOLVED;
	return DETECT_LEVEL_CONFIRMED;
}

/*
 * Say that there is no baseline name.  One that nobody typed, named by
 * [detect] baseline, is said to be the configuration's, at its line, or
 * every check and every run would fail on a name the user never gave.
 */
static void
detect_baseline_unknown(const struct detect_params *p, const char *name,
    char **cause)
{
	if (p->baseline != NULL || p->config_baseline == NULL ||
	    strcmp(name, p->config_baseline) != 0) {
		xasprintf(cause, "no baseline \"%s\"", name);
		return;
	}
	xasprintf(cause, "no baseline \"%s\", which [detect] baseline names"
	    "%s%s: pin one so named with perfwatch baseline set, or name "
	    "another there", name, p->config_baseline_at != NULL ? " at " :
	    " in the configuration", p->config_baseline_at != NULL ?
	    p->config_baseline_at : "");
}

/*
 * Take the [detect] keys and the [sink] sections of cfg into p (which
 * holds the defaults or earlier settings).
 */
void
detect_params_config(struct detect_params *p, const struct config *cfg)
{
	const char	*name, *s;
	char		*sec;
	size_t		 i;

	p->baseline_runs = (size_t)config_get_int(cfg, "detect",
	    "baseline_runs");
	p->min_change = config_get_number(cfg, "detect", "min_change");
	p->fdr = config_get_number(cfg, "detect", "fdr");
	p->confirm_runs = (size_t)config_get_int(cfg, "detect",
	    "confirm_runs");
	if (p->window < p->confirm_runs + 1)
		p->window = p->confirm_runs + 1;
	free(p->config_baseline);
	free(p->config_baseline_at);
	p->config_baseline = p->config_baseline_at = NULL;
	s = config_get_str(cfg, "detect", "baseline");
	if (s != NULL && *s != '\0' && strcmp(s, DETECT_ROLLING) != 0) {
		p->config_baseline = xstrdup(s);
		if (config_file(cfg) != NULL)
			xasprintf(&p->config_baseline_at, "%s:%d",
			    config_file(cfg), config_key_line(cfg, "detect",
			    "baseline"));
	}
	for (i = 0; i < p->nsinks; i++) {
		free(p->sinks[i].name);
		free(p->sinks[i].type);
	}
	free(p->sinks);
	p->sinks = NULL;
	p->nsinks = 0;
	for (i = 0; (name = config_sections(cfg, "sink", i)) != NULL; i++) {
		xasprintf(&sec, "sink %s", name);
		p->sinks = xreallocarray(p->sinks, p->nsinks + 1,
		    sizeof(*p->sinks));
		p->sinks[p->nsinks].name = xstrdup(name);
		s = config_get_str(cfg, sec, "type");
		p->sinks[p->nsinks].type = xstrdup(s != NULL ? s : "log");
		p->sinks[p->nsinks].min_state = detect_level_parse(
		    config_get_str(cfg, sec, "min_state"));
		p->nsinks++;
		free(sec);
	}
}

/* Free what detect_params_config and the caller allocated in p. */
void
detect_params_clear(struct detect_params *p)
{
	size_t	i;

	for (i = 0; i < p->nsinks; i++) {
		free(p->sinks[i].name);
		free(p->sinks[i].type);
	}
	free(p->sinks);
	free(p->baseline);
	free(p->config_baseline);
	free(p->config_baseline_at);
	memset(p, 0, sizeof(*p));
}

const char *
detect_kind_name(enum detect_kind k)
{
	switch (k) {
	case DETECT_REGRESSION:
		return VERDICT_REGRESSION;
	case DETECT_IMPROVEMENT:
		return VERDICT_IMPROVEMENT;
	case DETECT_INCONCLUSIVE:
		return VERDICT_INCONCLUSIVE;
	default:
		return VERDICT_UNCHANGED;
	}
}

/*
 * The name of the baseline in use when no --baseline is given: the one
 * "perfwatch baseline use" stored, else [detect] baseline, else rolling.
 * *name is allocated.  -1 when the setting could not be read (the store
 * failed or was busy: store_failure says which).
 */
int
detect_baseline_in_use(struct store *st, const struct detect_params *p,
    char **name)
{
	char	*v = NULL;

	if (store_setting_get(st, DETECT_SETTING_BASELINE, &v) == 0 &&
	    v != NULL) {
		*name = v;
		return 0;
	}
	/* A setting that could not be read is not "none": no fallback. */
	if (store_failure(st) != STORE_FOUND_NONE)
		return -1;
	*name = xstrdup(p->config_baseline != NULL ? p->config_baseline :
	    DETECT_ROLLING);
	return 0;
}

/* Order id/position pairs by id for qsort and bsearch. */
static int
detect_idpos_cmp(const void *a, const void *b)
{
	const struct detect_idpos	*x = a, *y = b;

	return ((x->id > y->id) - (x->id < y->id));
}

/* Order ids for bsearch. */
static int
detect_id_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return ((x > y) - (x < y));
}

/* Load the runs of host (by name) in start order. */
static int
detect_host_load(struct store *st, const char *host, struct detect_host *h)
{
	struct store_run_filter	f;
	size_t			i;

	memset(h, 0, sizeof(*h));
	memset(&f, 0, sizeof(f));
	f.host = host;
	if (store_runs_list(st, &f, &h->runs, &h->nruns) == -1)
		return -1;
	h->byid = xcalloc(h->nruns + 1, sizeof(*h->byid));
	for (i = 0; i < h->nruns; i++) {
		h->byid[i].id = h->runs[i].id;
		h->byid[i].pos = i;
	}
	qsort(h->byid, h->nruns, sizeof(*h->byid), detect_idpos_cmp);
	h->cache = store_cache_new(DETECT_CACHE_SAMPLES);
	return 0;
}

static void
detect_host_free(struct detect_host *h)
{
	store_runs_free(h->runs, h->nruns);
	free(h->byid);
	store_cache_free(h->cache);
	free(h->judged_after);
	memset(h, 0, sizeof(*h));
}

/* The position of run id among the host's runs; -1 if it is not one. */
int
detect_host_pos(const struct detect_host *h, int64_t id, size_t *pos)
{
	struct detect_idpos	 key, *f;

	key.id = id;
	f = bsearch(&key, h->byid, h->nruns, sizeof(*h->byid),
	    detect_idpos_cmp);
	if (f == NULL)
		return -1;
	*pos = f->pos;
	return 0;
}

/* The label of run id of the host, or NULL. */
const char *
detect_host_label(const struct detect_host *h, int64_t id)
{
	size_t	pos;

	if (id == 0 || detect_host_pos(h, id, &pos) == -1)
		return NULL;
	return h->runs[pos].label;
}

/*
 * Reduce one run's samples to its level and the standard error of that
 * level (0 with fewer than three samples).  With three or more samples
 * the level is Tukey's biweight location (scale: the samples' MAD; see
 * the notes, 1) and its se 1.026 MAD / sqrt(n) (its variance for normal
 * samples is 1/0.95 of the mean's); with fewer, the median, se 0; when
 * half the samples agree exactly (MAD 0), the median, se 0.
 */
void
detect_runstat_fill(struct detect_runstat *r, const double *v, size_t n)
{
	double	mad;

	r->values = v;
	r->n = n;
	r->level = NAN;
	r->se = 0;
	if (n < 3) {
		if (n > 0)
			stats_median(v, n, &r->level);
		return;
	}
	if (stats_biweight(v, n, DETECT_BIWEIGHT_C, &r->level, &mad) == -1)
		return;
	if (mad > 0)
		r->se = sqrt(1 / DETECT_BIWEIGHT_EFF) * mad / sqrt((double)n);
}

/* A run's level and its standard error, as a verdict reduces the run. */
void
detect_run_level(const double *v, size_t n, double *level, double *se)
{
	struct detect_runstat	r;

	detect_runstat_fill(&r, v, n);
	*level = r.level;
	*se = r.se;
}

/* Forward: the baseline's figures and pinning, defined below. */
static void	detect_base_pinned(struct detect_base *);

/*
 * What a check against a pinned baseline of these runs works with (see
 * detect_metric): each run's level, the baseline's level over all of
 * them and its between-run noise.  NAN for no run, a noise of NAN for
 * one (nothing measured it).
 */
void
detect_pinned_level(const double *const *v, const size_t *n, size_t k,
    const struct detect_params *p, double *level, double *noise)
{
	struct detect_runstat	 *rs, **b;
	struct detect_base	  base;
	size_t			  i;

	*level = *noise = NAN;
	if (k == 0)
		return;
	rs = xcalloc(k, sizeof(*rs));
	b = xcalloc(k, sizeof(*b));
	for (i = 0; i < k; i++) {
		detect_runstat_fill(&rs[i], v[i], n[i]);
		b[i] = &rs[i];
	}
	detect_base_compute(b, k, k, p->autocorr, &base);
	detect_base_pinned(&base);
	*level = base.center;
	if (k >= 2)
		*noise = base.noise;
	free(rs);
	free(b);
}

/* Order doubles ascending for qsort. */
static int
detect_dbl_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/*
 * The Hodges-Lehmann location of x[0..n): the median of the n(n + 1)/2
 * Walsh averages (x_i + x_j) / 2, i <= j.  Nearly as efficient as the
 * mean for normal data (3/pi), and a wild value moves it little.  The
 * median is selected, not sorted for: with the pooled level from 60
 * runs (1830 averages) sorting them was half of `check --latest`.
 */
static double
detect_hl_location(const double *x, size_t n)
{
	double	*w, m, up;
	size_t	 i, j, k = 0;

	w = xreallocarray(NULL, n * (n + 1) / 2, sizeof(*w));
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			/* Halved first: two levels near 1e308 overflow. */
			w[k++] = x[i] / 2 + x[j] / 2;
	stats_select(w, k, k / 2);
	m = w[k / 2];
	if (k % 2 == 0) {
		/* The other middle value: the largest of the lower half. */
		for (up = w[0], i = 1; i < k / 2; i++)
			if (w[i] > up)
				up = w[i];
		m = up / 2 + m / 2;
	}
	free(w);
	return m;
}

/*
 * The level and between-run noise of baseline runs b[0..k), oldest
 * first: the level from the newest kc of them, the noise from all k.
 */
void
detect_base_compute(struct detect_runstat *const *b, size_t k, size_t kc,
    int autocorr, struct detect_base *out)
{
	double	*m, *se, r, floor_se, se_high, mean;
	size_t	 i, n3;

	memset(out, 0, sizeof(*out));
	if (kc > k)
		kc = k;
	out->k = k;
	out->kc = kc;
	out->center = NAN;
	if (kc == 0)
		return;
	m = xreallocarray(NULL, k, sizeof(*m));
	se = xreallocarray(NULL, k, sizeof(*se));
	for (i = 0; i < k; i++) {
		m[i] = b[i]->level;
		se[i] = b[i]->se;
	}
	out->center = detect_hl_location(m + (k - kc), kc);
	out->cvar = M_PI / 3 / (double)kc;
	if (k >= 2 && stats_stddev(m, k, &out->sd) == -1)
		out->sd = 0;
	if (autocorr && k >= 4 && out->sd > 0 &&
	    stats_lag1_autocorr(m, k, &r) == 0)
		out->r1 = r;
	/* se is a copy, reused below: sort it in place for both figures. */
	qsort(se, k, sizeof(*se), detect_dbl_cmp);
	floor_se = stats_median_sorted(se, k);
	se_high = stats_quantile_sorted(se, k, DETECT_SE_HIGH);
	out->se_scale = se_high > floor_se ? floor_se / se_high : 1;
	out->noise = out->sd * stats_ar1_inflation(out->r1);
	if (floor_se > out->noise)
		out->noise = floor_se;
	out->inoise = out->noise;
	if (out->r1 > 0 && k >= 4) {
		/* The prediction errors of the k runs, from the run before. */
		out->rw = out->r1 > 0.9 ? 0.9 : out->r1;
		if (stats_mean(m, k, &mean) == -1)
			mean = 0;
		for (i = 1; i < k; i++)
			se[i - 1] = (m[i] - mean) - out->rw * (m[i - 1] - mean);
		if (stats_stddev(se, k - 1, &out->inoise) == -1)
			out->inoise = 0;
		/* What the whitening left: an r under the truth leaves some. */
		if (k >= 5 && out->inoise > 0 &&
		    stats_lag1_autocorr(se, k - 1, &r) == 0)
			out->inoise *= stats_ar1_inflation(r);
		if (floor_se * sqrt(1 + out->rw * out->rw) > out->inoise)
			out->inoise = floor_se * sqrt(1 + out->rw * out->rw);
	}
	out->df = k > 1 ? (double)(k - 1) : 1;
	out->last_good = b[k - 1]->run;
	/* The spread of one sample, from the runs that have an se (m reused). */
	for (i = 0, n3 = 0; i < k; i++)
		if (b[i]->n >= 3)
			m[n3++] = b[i]->se * sqrt((double)b[i]->n);
	if (n3 > 0) {
		qsort(m, n3, sizeof(*m), detect_dbl_cmp);
		out->wsd = stats_median_sorted(m, n3);
	}
	free(m);
	free(se);
}

/*
 * Give the pooled evidence's baseline b (from runs br[0..b->k), oldest
 * first) its level from the newest `level` runs, or, when level is 0,
 * from as many as its lag-1 correlation allows: all k while the runs
 * look independent, the newest n once the correlation is clearly there
 * (rw at two standard errors of an estimate from independent runs,
 * 2 / sqrt(k)), in proportion between (see the design notes, 3).  A
 * pinned baseline keeps all its runs.
 */
static void
detect_base_relevel(struct detect_base *b, struct detect_runstat *const *br,
    size_t n, size_t level)
{
	double	*m, f;
	size_t	 i, kc;

	if (b->pinned || b->k < DETECT_MIN_BASE)
		return;
	if (level == 0) {
		f = 1 - b->rw * sqrt((double)b->k) / 2;
		if (f < 0)
			f = 0;
		kc = n + (size_t)lround((double)(b->k > n ? b->k - n : 0) * f);
	} else
		kc = level;
	if (kc > b->k)
		kc = b->k;
	if (kc < DETECT_MIN_BASE || kc == b->kc)
		return;
	m = xreallocarray(NULL, kc, sizeof(*m));
	for (i = 0; i < kc; i++)
		m[i] = br[b->k - kc + i]->level;
	b->center = detect_hl_location(m, kc);
	b->kc = kc;
	b->cvar = M_PI / 3 / (double)kc;
	free(m);
}

/*
 * Whether a change [lo, hi] around change (percent) reaches the floor:
 * the interval's end on the change's side lies at or beyond it.  A change
 * without a percentage (a level of 0) always counts.  The floor leaves
 * out what is shown to be smaller than it; it does not ask the estimate
 * to pass it, which would miss half the steps of just the floor (2%
 * steps on normal 1% noise, 3.7 between-run sds, found 98% of the time
 * within 3 runs on bench/detect).
 */
int
detect_relevant(double change, double lo, double hi, double floor_pct)
{
	if (isnan(change))
		return 1;
	if (isnan(lo) || isnan(hi))
		return fabs(change) >= floor_pct;
	if (change >= 0)
		return hi >= floor_pct;
	return lo <= -floor_pct;
}

/* Change of x from level in percent; NAN when the level is 0. */
double
detect_pct(double x, double level)
{
	if (level == 0 || isnan(level))
		return NAN;
	return x / fabs(level) * 100;
}

/*
 * The sd of run r's level against baseline b: the between-run noise, or
 * more when the run's own samples are spread further than the baseline
 * runs' ever are (its se beyond their 95th percentile, scaled to their
 * median), or when it has too few samples to say (below).  A median's se from five samples is itself uncertain by half:
 * taken raw it shrank the share of a run in two that happened to spread,
 * and with it the verdicts and tail checks of every step.
 */
static double
detect_run_sd(const struct detect_base *b, const struct detect_runstat *r)
{
	double	se = r->se * b->se_scale;

	/*
	 * A run of one or two samples has no se of its own (its level is
	 * their median): it was taken as exact, and a single sample within
	 * one baseline run's own range was a regression, q near 0, in 12 of
	 * 30 runs drawn from the baseline's distribution.  Its level is
	 * uncertain by a sample's spread over sqrt(n), the baseline runs'
	 * (wsd, 0 when none of them has three samples: then their levels
	 * were single samples too, and the between-run noise holds it).
	 */
	if (r->n > 0 && r->n < 3 && b->wsd / sqrt((double)r->n) > se)
		se = b->wsd / sqrt((double)r->n);
	return b->noise > se ? b->noise : se;
}

/*
 * Whether run r is back within the noise of baseline b, seen from a shift
 * of sign: less than one noise sd, or half the floor, toward the shift.
 */
int
detect_within_noise(const struct detect_base *b,
    const struct detect_runstat *r, int sign, double floor_pct)
{
	double	d, s1, pc;

	d = (r->level - b->center) * sign;
	s1 = detect_run_sd(b, r);
	if (d < s1)
		return 1;
	pc = detect_pct(d, b->center);
	return !isnan(pc) && pc < floor_pct / 2;
}

/* The prediction sd of one run against baseline b. */
static double
detect_pred_sd(const struct detect_base *b, const struct detect_runstat *r)
{
	double	s1;

	s1 = detect_run_sd(b, r);
	/* hypot: squared, the sds of a metric near 1e200 overflow. */
	return hypot(s1, b->noise * sqrt(b->cvar));
}

/* Two-sided p of a t statistic; exact 0 or 1 for a zero sd. */
static double
detect_t_p(double d, double sd, double df)
{
	if (sd <= 0)
		return d == 0 ? 1 : 0;
	return 2 * stats_t_cdf(-fabs(d / sd), df);
}

/*
 * Judge run r against baseline b into v: change, interval, p (run test,
 * and Mann-Whitney over samples when r has three or more).
 */
static void
detect_judge(const struct detect_base *b, const struct detect_runstat *r,
    struct detect_verdict *v)
{
	struct stats_mwu	 mwu;
	double			*pool, sd, d, tq;
	size_t			 i, j, n = 0;

	v->current = r->level;
	v->reference = b->center;
	v->noise = b->noise;
	v->baseline_runs = b->kc;
	v->noise_runs = b->k;
	v->can_confirm = b->pinned || b->k >= DETECT_MIN_POOL_BASE;
	v->samples = r->n;
	v->p = v->q = NAN;
	v->ci_low = v->ci_high = NAN;
	d = r->level - b->center;
	v->change_pct = detect_pct(d, b->center);
	if (b->kc < DETECT_MIN_BASE) {
		v->kind = DETECT_INCONCLUSIVE;
		v->z = NAN;
		return;
	}
	sd = detect_pred_sd(b, r);
	v->z = sd > 0 ? d / sd : (d == 0 ? 0 : copysign(INFINITY, d));
	v->p = detect_t_p(d, sd, b->df);
	tq = stats_t_quantile(0.975, b->df);
	v->ci_low = detect_pct(d - tq * sd, b->center);
	v->ci_high = detect_pct(d + tq * sd, b->center);

	if (r->n >= 3 && b->values != NULL) {
		for (i = 0; i < b->kc; i++)
			n += b->nvalues[i];
		if (n >= 3) {
			pool = xreallocarray(NULL, n, sizeof(*pool));
			for (i = 0, n = 0; i < b->kc; i++)
				for (j = 0; j < b->nvalues[i]; j++)
					pool[n++] = b->values[i][j];
			if (stats_mwu(r->values, r->n, pool, n, STATS_TWO_SIDED,
			    STATS_MWU_AUTO, &mwu) == 0 && mwu.p > v->p)
				v->p = mwu.p;
			free(pool);
		}
	}
}

/*
 * Mark b as pinned.  Its runs are not the ones just before the checked
 * runs: nothing to predict a run from, so its pooled evidence is not
 * whitened (the noise stays widened by the autocorrelation instead).
 */
static void
detect_base_pinned(struct detect_base *b)
{
	b->pinned = 1;
	b->rw = 0;
	b->inoise = b->noise;
}

/* Point b's sample arrays at the runs of its level. */
static void
detect_base_samples(struct detect_base *b, struct detect_runstat *const *rs,
    const double **vals, size_t *nvals)
{
	size_t	i;

	for (i = 0; i < b->kc; i++) {
		vals[i] = rs[b->k - b->kc + i]->values;
		nvals[i] = rs[b->k - b->kc + i]->n;
	}
	b->values = vals;
	b->nvalues = nvals;
}

/*
 * One run's deviation from baseline b in noise sds (its own standard
 * error if that is larger).
 */
static double
detect_share(const struct detect_base *b, const struct detect_runstat *r)
{
	double	d, s1;

	d = r->level - b->center;
	s1 = detect_run_sd(b, r);
	if (s1 > 0)
		return d / s1;
	return d == 0 ? 0 : copysign(INFINITY, d);
}

/*
 * The pooled sum of the shares u[0..m), weighted by w[0..m) (NULL: all
 * 1), each clipped to +-cap where cap is clip, or DETECT_CLIP_RATIO
 * times the largest other share if that is more: a run can weigh much
 * more than clip only when another run backs it up, so one wild run
 * never carries a stretch, while a large shift seen by every run keeps
 * its full weight.  clip <= 0: no clipping.
 */
static double
detect_clip_sum(const double *u, const double *w, size_t m, double clip)
{
	double	sum = 0, other, cap, v;
	size_t	i, j;

	for (i = 0; i < m; i++) {
		v = u[i];
		if (clip > 0) {
			for (j = 0, other = 0; j < m; j++)
				if (j != i && fabs(u[j]) > other)
					other = fabs(u[j]);
			cap = DETECT_CLIP_RATIO * other;
			if (cap < clip)
				cap = clip;
			if (v > cap)
				v = cap;
			else if (v < -cap)
				v = -cap;
		}
		sum += w != NULL ? w[i] * v : v;
	}
	return sum;
}

/*
 * The standardized prediction errors of a stretch of run medians
 * x[0..m) against baseline b, into u: each run predicted from the one
 * before it (prev before x[0]; NAN: none) by the baseline's lag-1
 * correlation, u_j = ((x_j - c) - rw (x_(j-1) - c)) / inoise, and their
 * weights w: 1 for the first, 1 - rw for the others, which is what a
 * step from x[0] on adds to each error.  With rw = 0 these are the runs'
 * shares, all of weight 1.  Whitened so, a slowly wandering level (whose
 * runs are each predictable from the last) keeps a step's full weight in
 * its first run, where widening the noise by the autocorrelation would
 * lose most of it.
 */
static void
detect_errors(const struct detect_base *b, double prev, const double *x,
    size_t m, double *u, double *w)
{
	double	before, e, s;
	size_t	j;

	s = b->inoise;
	for (j = 0; j < m; j++) {
		before = j > 0 ? x[j - 1] : prev;
		e = x[j] - b->center;
		if (!isnan(before))
			e -= b->rw * (before - b->center);
		if (s > 0)
			u[j] = e / s;
		else
			u[j] = e == 0 ? 0 : copysign(INFINITY, e);
		w[j] = j == 0 ? 1 : 1 - b->rw;
	}
}

/* The sd of a weighted sum of m errors, level error included. */
static double
detect_wscale(const struct detect_base *b, const double *w, size_t m)
{
	double	s1 = 0, s2 = 0;
	size_t	j;

	for (j = 0; j < m; j++) {
		s1 += w[j];
		s2 += w[j] * w[j];
	}
	return sqrt(s2 + s1 * s1 * b->cvar);
}

/*
 * Where a shift among runs rs[from..to] most likely began: the start s
 * that leaves the least squared error when the runs before it sit at the
 * baseline's level and those from it at their own mean.  The earliest
 * best start wins a tie.
 */
static size_t
detect_split(const struct detect_base *b, const struct detect_runstat *rs,
    size_t from, size_t to)
{
	double	sse, before = 0, mean, best_sse = INFINITY, sc = 0, d;
	size_t	s, i, best = from;
	int	e;

	/*
	 * The errors are squared in units of a power of two near the
	 * largest deviation, which is exact: in the metric's own units the
	 * squares of a metric near 1e200 overflow and every split ties.
	 */
	for (i = from; i <= to; i++)
		if (fabs(rs[i].level - b->center) > sc)
			sc = fabs(rs[i].level - b->center);
	if (sc > 0 && isfinite(sc)) {
		(void)frexp(sc, &e);
		sc = ldexp(1, e - 1);
	} else
		sc = 1;
	for (s = from; s <= to; s++) {
		mean = 0;
		for (i = s; i <= to; i++)
			mean += rs[i].level / (double)(to - s + 1);
		sse = before;
		for (i = s; i <= to; i++) {
			d = (rs[i].level - mean) / sc;
			sse += d * d;
		}
		if (sse < best_sse * (1 - 1e-12)) {
			best_sse = sse;
			best = s;
		}
		d = (rs[s].level - b->center) / sc;
		before += d * d;
	}
	return best;
}

/*
 * All sums of k values drawn with replacement from u[0..n), the i-th
 * draw weighted by w[i], n^k of them.
 */
static double *
detect_draw_sums(const double *u, size_t n, size_t k, const double *w,
    size_t *count)
{
	double	*s, *t;
	size_t	 len = 1, i, j, r;

	s = xcalloc(1, sizeof(*s));
	for (r = 0; r < k; r++) {
		t = xreallocarray(NULL, len * n, sizeof(*t));
		for (i = 0; i < len; i++)
			for (j = 0; j < n; j++)
				t[i * n + j] = s[i] + w[r] * u[j];
		free(s);
		s = t;
		len *= n;
	}
	*count = len;
	return s;
}

/*
 * The chance that the weighted sum (weights w[0..m)) of m values drawn at
 * random, with replacement, from u[0..n) reaches target: exact, over all
 * n^m draws, by meeting in the middle (the sums of m/2 draws against the
 * sorted sums of the rest).  This is the bootstrap p-value of a pooled
 * stretch against the baseline's own runs: it knows the shape of their
 * variation (a second mode, a skew) where the t test assumes a normal
 * one.  m is at most DETECT_MAX_RESAMPLE.
 */
static double
detect_resample_p(const double *u, size_t n, size_t m, const double *w,
    double target)
{
	double	*a, *b, need, hits = 0;
	size_t	 na, nb, i, lo, hi, mid;

	if (n == 0 || m == 0)
		return 1;
	a = detect_draw_sums(u, n, m / 2, w, &na);
	b = detect_draw_sums(u, n, m - m / 2, w + m / 2, &nb);
	qsort(b, nb, sizeof(*b), detect_dbl_cmp);
	for (i = 0; i < na; i++) {
		need = target - a[i];
		/*
		 * A stretch against a baseline of no noise (a metric whose
		 * runs all tie) scores inf: only a draw of inf reaches it,
		 * where inf - inf made every draw count and p 1.
		 */
		if (isnan(need))
			need = -INFINITY;
		else if (isfinite(need))
			need -= 1e-9 * (fabs(need) + 1);
		/* First b at or above need. */
		for (lo = 0, hi = nb; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (b[mid] < need)
				lo = mid + 1;
			else
				hi = mid;
		}
		hits += (double)(nb - lo);
	}
	free(a);
	free(b);
	return hits / ((double)na * (double)nb);
}

/*
 * Whether resampling m runs from k holds at most DETECT_RESAMPLE_SUMS
 * sums a side (detect_resample_p).
 */
static int
detect_resample_fits(size_t k, size_t m)
{
	double	sums = 1;
	size_t	i;

	for (i = 0; i < m - m / 2; i++)
		sums *= (double)k;
	return sums <= DETECT_RESAMPLE_SUMS;
}

/*
 * Pool runs rs[from..to] (inclusive) against baseline b into pl: the
 * clipped, weighted sum of the runs' standardized prediction errors
 * (detect_errors) over its sd as a t statistic, and the unclipped mean
 * change with its interval.  clip <= 0 turns clipping off.  When the t
 * test's p is above cutoff the stretch cannot confirm, and the
 * resampling, tail and precedent checks are skipped (left failed).
 */
static void
detect_pool_runs(const struct detect_base *b, struct detect_runstat *const *br,
    struct detect_runstat *rs, size_t from, size_t to, double clip,
    double floor_pct, double cutoff, double tail, struct detect_pool *pl)
{
	double	d, su, sd_sum = 0, m, scale, tq, mean, half, ub, *y, *u, *w;
	double	q95, mid, *x, *bx, *bw, prev;
	size_t	i;

	memset(pl, 0, sizeof(*pl));
	pl->base = *b;
	pl->start = pl->first_bad = from;
	pl->m = to - from + 1;
	pl->p = 1;
	if (b->kc < DETECT_MIN_BASE || isnan(b->center))
		return;
	m = (double)pl->m;
	u = xreallocarray(NULL, pl->m, sizeof(*u));
	w = xreallocarray(NULL, pl->m, sizeof(*w));
	x = xreallocarray(NULL, pl->m, sizeof(*x));
	for (i = from; i <= to; i++) {
		d = rs[i].level - b->center;
		x[i - from] = rs[i].level;
		sd_sum += d;
		if (i == to)
			pl->latest_sign = (d > 0) - (d < 0);
	}
	prev = from > 0 ? rs[from - 1].level : NAN;
	detect_errors(b, prev, x, pl->m, u, w);
	su = detect_clip_sum(u, w, pl->m, clip);
	scale = detect_wscale(b, w, pl->m);
	pl->t = su / scale;
	if (isinf(pl->t) || isnan(pl->t))
		pl->p = su == 0 ? 1 : 0;
	else
		pl->p = 2 * stats_t_cdf(-fabs(pl->t), b->df);
	mean = sd_sum / m;
	pl->sign = (mean > 0) - (mean < 0);
	tq = stats_t_quantile(0.975, b->df);
	half = tq * b->noise * sqrt(1 / m + b->cvar);
	pl->change_pct = detect_pct(mean, b->center);
	pl->ci_low = detect_pct(mean - half, b->center);
	pl->ci_high = detect_pct(mean + half, b->center);
	pl->relevant = detect_relevant(pl->change_pct, pl->ci_low,
	    pl->ci_high, floor_pct);
	pl->p_resample = NAN;
	if (pl->p > cutoff || b->k == 0) {
		/* It cannot confirm: spare the checks below. */
		free(u);
		free(w);
		free(x);
		pl->ok = 1;
		return;
	}

	/* The baseline's runs' own prediction errors. */
	bx = xreallocarray(NULL, b->k, sizeof(*bx));
	y = xreallocarray(NULL, b->k, sizeof(*y));
	bw = xreallocarray(NULL, b->k, sizeof(*bw));
	for (i = 0; i < b->k; i++)
		bx[i] = br[i]->level;
	detect_errors(b, NAN, bx, b->k, y, bw);

	/*
	 * The same stretch against the baseline's own errors, resampled.  A
	 * stretch longer than DETECT_MAX_RESAMPLE runs is left to the t
	 * test: there the resampled p of a real shift is nil anyway.  So is
	 * one whose draws from a long baseline are too many to hold
	 * (DETECT_RESAMPLE_SUMS), where the t test's noise is measured
	 * over hundreds of runs.  Each draw counts as a lone run (clipped
	 * at clip).
	 */
	if (pl->sign != 0 && pl->m <= DETECT_MAX_RESAMPLE &&
	    detect_resample_fits(b->k, pl->m)) {
		double	*yc;

		yc = xreallocarray(NULL, b->k, sizeof(*yc));
		for (i = 0; i < b->k; i++) {
			yc[i] = pl->sign * y[i];
			if (clip > 0 && yc[i] > clip)
				yc[i] = clip;
			else if (clip > 0 && yc[i] < -clip)
				yc[i] = -clip;
		}
		pl->p_resample = 2 * detect_resample_p(yc, b->k, pl->m, w,
		    pl->sign * su);
		free(yc);
		if (pl->p_resample > pl->p)
			pl->p = pl->p_resample > 1 ? 1 : pl->p_resample;
	}

	/*
	 * Is this stretch unprecedented?  Every stretch of m runs in a row
	 * among the baseline's, scored the same way, must fall short of it:
	 * a level the recent history has already held for m runs (a slow
	 * mode, a drift) is not a new shift, whatever the t test says.
	 */
	pl->unprecedented = 1;
	for (i = 0; i + pl->m <= b->k && pl->unprecedented; i++) {
		detect_errors(b, i > 0 ? bx[i - 1] : NAN, bx + i, pl->m, u,
		    bw);
		ub = detect_clip_sum(u, bw, pl->m, clip);
		if (pl->sign * ub >= pl->sign * su)
			pl->unprecedented = 0;
	}

	/*
	 * And is it off the baseline's runs themselves?  Its lower median
	 * run (of two, the less extreme) must lie beyond the 95th
	 * percentile of their shares: a slow mode that the baseline has
	 * held before, however many runs in a row, is not a new level, and
	 * a wild run with an ordinary one is not a stretch.  Under any
	 * noise of exchangeable runs this alone is rare (two of three runs
	 * beyond the 95th percentile: under 1%).
	 */
	pl->in_tail = 0;
	if (pl->sign != 0) {
		for (i = 0; i < b->k; i++)
			y[i] = pl->sign * detect_share(b, br[i]);
		for (i = 0; i < pl->m; i++)
			u[i] = pl->sign * detect_share(b, &rs[from + i]);
		/* The lower median: of two runs, the less extreme. */
		qsort(u, pl->m, sizeof(*u), detect_dbl_cmp);
		mid = u[(pl->m - 1) / 2];
		if (stats_quantile(y, b->k, tail, &q95) == 0)
			pl->in_tail = mid > q95;
	}
	free(y);
	free(bx);
	free(bw);
	free(u);
	free(w);
	free(x);
	pl->ok = 1;
}

/*
 * Whether pooled stretch pl passes every check but the level of its p
 * and the baseline's size (alert.c's alert_confirms adds those).
 */
int
detect_pool_passes(const struct detect_pool *pl)
{
	return pl->ok && pl->sign != 0 && pl->latest_sign == pl->sign &&
	    pl->unprecedented && pl->in_tail && pl->relevant;
}

/*
 * Whether look-back candidate c is a better start than best: one that
 * passes the other checks before one that does not, then the lower p.
 * (p is multiplied by the starts tried whichever wins, so choosing among
 * those that pass keeps the error rate.)
 */
static int
detect_pool_better(const struct detect_pool *c, const struct detect_pool *best)
{
	if (!c->ok)
		return 0;
	if (!best->ok)
		return 1;
	if (detect_pool_passes(c) != detect_pool_passes(best))
		return detect_pool_passes(c);
	return c->p < best->p;
}

/*
 * Where the shift of look-back stretch pl (of w->rs, ending with the
 * checked run) began: its start, or a run before it that its rolling
 * baseline left out, as the split over the runs since that baseline's
 * newest run places it.  The stretches reach back `window` runs at most,
 * and a shift whose first runs were recorded unchecked (an import, run
 * --no-check) can be older than that: its first runs, too few to be a
 * step of the baseline, are wild runs of it.  Never before first_start,
 * where no look-back may start; a pinned baseline's runs were all tried.
 */
static size_t
detect_shift_start(const struct detect_work *w, const struct detect_pool *pl)
{
	size_t	from, s;

	if (pl->base.pinned || pl->base.last_good == 0)
		return pl->start;
	for (from = pl->start; from > 0; from--)
		if (w->rs[from - 1].run == pl->base.last_good ||
		    w->rs[from - 1].pos < w->first_start)
			break;
	if (from == 0 || from == pl->start)
		return pl->start;
	s = detect_split(&pl->base, w->rs, from, w->nrs - 1);
	return s < pl->start ? s : pl->start;
}

/*
 * Where the level that acknowledged alert a accepted was left the other
 * way: the position of the first run of the earliest alert of the
 * metric opened after a's last run e and before t, in the direction
 * opposite a's (an improvement after an accepted regression, which is
 * where its fix came), or 0 when none is.
 */
static size_t
detect_back_from(const struct detect_host *h, const struct detect_work *w,
    const struct store_alert *a, size_t e, size_t t)
{
	const struct store_alert	*n;
	size_t				 i, o, f, best = 0;

	for (i = 0; i < w->nalerts; i++) {
		n = &w->alerts[i];
		if (n == a || strcmp(n->direction, a->direction) == 0 ||
		    detect_host_pos(h, n->opened_run, &o) == -1 ||
		    detect_host_pos(h, n->first_bad_run, &f) == -1 ||
		    o <= e || o >= t)
			continue;
		if (f > o)
			f = o;
		if (f <= e)
			f = e + 1;
		if (best == 0 || f < best)
			best = f;
	}
	return best;
}

/*
 * Whether the alerts of the metric exclude host position pos from the
 * baseline of a run at position t (see the notes: "which runs a rolling
 * baseline skips").  The alert being updated is not counted here.
 */
static int
detect_excluded(const struct detect_host *h, const struct detect_work *w,
    size_t pos, size_t t)
{
	const struct store_alert	*a;
	size_t				 i, o, f, e, b;
	int				 closed, acked;

	for (i = 0; i < w->nalerts; i++) {
		a = &w->alerts[i];
		if (a == w->open)
			continue;
		if (detect_host_pos(h, a->opened_run, &o) == -1 ||
		    detect_host_pos(h, a->first_bad_run, &f) == -1 ||
		    detect_host_pos(h, a->last_run, &e) == -1)
			continue;
		acked = strcmp(a->state, ALERT_ACKNOWLEDGED) == 0;
		closed = acked || strcmp(a->state, ALERT_RESOLVED) == 0;
		/*
		 * An alert opened after t is not t's concern; one opened by t
		 * itself, from a look-back, holds runs before t that t's
		 * baseline skips, as it does every later run's: checked
		 * again, the run that confirmed a regression was judged
		 * against runs of the regressed level, "unchanged".
		 */
		if (o > t)
			continue;
		if (acked && t > e) {
			/*
			 * The accepted level: only the runs since the shift,
			 * until the level moves back the other way (the
			 * accepted regression mended): then the accepted
			 * level's runs are skipped as a resolved alert's are,
			 * and the runs before it count again.  Cut at the
			 * shift for ever, a baseline mixed the accepted
			 * level's runs with the mended ones, whose
			 * improvement, too young to confirm, was let go:
			 * its noise was twelve times the runs' and a 15%
			 * regression after it went untold.
			 */
			if ((b = detect_back_from(h, w, a, e, t)) != 0) {
				if (pos >= f && pos < b)
					return 1;
				continue;
			}
			if (pos < f)
				return 1;
			continue;
		}
		if (o < f)
			f = o;		/* a suspicion's start moved on */
		if (closed && a->confirmed_run == 0 && t > e)
			continue;
		if (pos >= f && (!closed || pos <= e))
			return 1;
	}
	return 0;
}

/* Whether an alert state is open (it can still change by itself). */
static int
detect_state_open(const char *state)
{
	return strcmp(state, ALERT_SUSPECTED) == 0 ||
	    strcmp(state, ALERT_CONFIRMED) == 0;
}

/*
 * Decide which alert of w the run at position t may update (the newest
 * open one, if it has not seen this run yet), whether the run may open a
 * new alert, and from where a look-back may start.
 */
static void
detect_work_alerts(const struct detect_host *h, struct detect_work *w,
    size_t t, int advance)
{
	struct store_alert	*a;
	size_t			 i, e, f, from;
	int			 newer = 1, open = 0;

	w->open = NULL;
	w->can_open = 0;
	w->first_start = 0;
	for (i = 0; i < w->nalerts; i++) {
		a = &w->alerts[i];
		if (detect_host_pos(h, a->last_run, &e) == -1 ||
		    detect_host_pos(h, a->first_bad_run, &f) == -1)
			continue;
		if (e >= t)
			newer = 0;
		/*
		 * A later shift is looked for after a confirmed alert's
		 * runs, but a cleared suspicion only blocks its first run:
		 * a step whose second run happened to look normal must
		 * still be found from its next runs.
		 */
		from = a->confirmed_run != 0 ||
		    strcmp(a->state, ALERT_ACKNOWLEDGED) == 0 ? e + 1 : f + 1;
		if (from > w->first_start)
			w->first_start = from;
		if (detect_state_open(a->state)) {
			open = 1;
			if (e < t)
				w->open = a;
		}
	}
	if (!advance) {
		w->open = NULL;
		return;
	}
	w->can_open = newer && !open;
	if (w->open != NULL && !newer)
		w->open = NULL;
}

/*
 * A run checked only after a newer run of the host was (a check that
 * failed busy, a run recorded with --no-check) may not open an alert of
 * a metric the newer run's check has judged: what followed it has been
 * judged already, and an alert opened now would announce, say, a night
 * that the runs after it showed to be one night's.  The metrics so
 * judged, once a check, into h.  0, or -1 on a store error.
 */
static int
detect_judged_after(struct store *st, struct detect_host *h, size_t t)
{
	int64_t	*ids;
	size_t	 q, n = 0;
	int	 rc = 0;

	if (t + 1 >= h->nruns)
		return 0;
	ids = xcalloc(h->nruns - t - 1, sizeof(*ids));
	for (q = t + 1; q < h->nruns; q++)
		if (detect_run_counts(&h->runs[q]))
			ids[n++] = h->runs[q].id;
	if (n > 0)
		rc = store_verdict_metrics(st, ids, n, &h->judged_after,
		    &h->njudged_after);
	free(ids);
	return rc;
}

/* Append the fetched series ser[0..n) with samples to w->rs, newest first. */
static void
detect_work_take(struct detect_work *w, struct store_series *ser, size_t n,
    const size_t *pos, const int *in_alert, size_t *eligible,
    size_t *alert_runs)
{
	struct detect_runstat	*r;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (ser[i].n == 0)
			continue;
		w->rs = xreallocarray(w->rs, w->nrs + 1, sizeof(*w->rs));
		r = &w->rs[w->nrs++];
		memset(r, 0, sizeof(*r));
		r->run = ser[i].run;
		r->pos = pos[i];
		r->in_alert = in_alert[i];
		detect_runstat_fill(r, ser[i].values, ser[i].n);
		if (in_alert[i])
			(*alert_runs)++;
		else
			(*eligible)++;
	}
}

/*
 * Whether a run is part of the host's history (note 4): complete, not a
 * bisection's, and not measured on a busy machine.
 */
int
detect_run_counts(const struct store_run *r)
{
	return strcmp(r->status, RUN_COMPLETE) == 0 &&
	    (r->trigger == NULL ||
	    strcmp(r->trigger, DETECT_TRIGGER_BISECT) != 0) && !r->busy;
}

/* Keep a fetched series array alive in w until the check ends. */
static void
detect_work_keep(struct detect_work *w, struct store_series *ser, size_t n)
{
	size_t	i;

	w->hist = xreallocarray(w->hist, w->nhist + n, sizeof(*w->hist));
	for (i = 0; i < n; i++)
		w->hist[w->nhist++] = ser[i];
	free(ser);
}

/*
 * Fetch the history the metric needs, walking back from the run at
 * position t through complete runs: the runs of the open alert being
 * updated, and enough runs outside any exclusion for the baselines of
 * the verdict and of every look-back start (rolling: N before the
 * earliest start; pinned: the look-back runs only).  w->rs ends up oldest
 * first with the checked run last.
 */
static int
detect_work_history(struct store *st, const struct detect_params *p,
    const struct detect_host *h, size_t t, int pinned,
    struct detect_work *w)
{
	struct store_series	*ser;
	struct detect_runstat	 tmp;
	int64_t			 ids[DETECT_CHUNK];
	size_t			 pos[DETECT_CHUNK], nser, nc = 0, i, f = 0, o;
	size_t			 eligible = 0, alert_runs = 0, need, look;
	int			 in_alert[DETECT_CHUNK], inside, done = 0;
	size_t			 q;

	look = p->window > 1 ? p->window - 1 : 0;
	if (w->open != NULL && (detect_host_pos(h, w->open->first_bad_run,
	    &f) == -1 || detect_host_pos(h, w->open->opened_run, &o) == -1))
		w->open = NULL;
	if (w->open != NULL && o < f)
		f = o;		/* the span starts where the alert opened */
	need = pinned ? look : detect_noise_runs(p) + look;
	for (q = t; q-- > 0 && !done;) {
		if (!detect_run_counts(&h->runs[q]))
			continue;
		inside = w->open != NULL && q >= f;
		if (!inside && (detect_excluded(h, w, q, t) ||
		    (!w->can_open && w->open == NULL && pinned)))
			continue;
		if (!inside && w->can_open && q < w->first_start && pinned)
			continue;
		ids[nc] = h->runs[q].id;
		pos[nc] = q;
		in_alert[nc] = inside;
		nc++;
		if (nc < DETECT_CHUNK && q > 0)
			continue;
		if (store_metric_series_cached(st, h->cache, w->cur->metric.id,
		    ids, nc, &ser, &nser) == -1)
			return -1;
		detect_work_take(w, ser, nser, pos, in_alert, &eligible,
		    &alert_runs);
		detect_work_keep(w, ser, nser);
		nc = 0;
		if (w->open != NULL)
			done = q < f && (pinned ||
			    eligible >= detect_noise_runs(p));
		else
			done = eligible >= need;
	}
	if (nc > 0) {
		if (store_metric_series_cached(st, h->cache, w->cur->metric.id,
		    ids, nc, &ser, &nser) == -1)
			return -1;
		detect_work_take(w, ser, nser, pos, in_alert, &eligible,
		    &alert_runs);
		detect_work_keep(w, ser, nser);
	}
	/* Newest first so far: reverse, then the checked run last. */
	for (i = 0; i < w->nrs / 2; i++) {
		tmp = w->rs[i];
		w->rs[i] = w->rs[w->nrs - 1 - i];
		w->rs[w->nrs - 1 - i] = tmp;
	}
	w->rs = xreallocarray(w->rs, w->nrs + 1, sizeof(*w->rs));
	memset(&w->rs[w->nrs], 0, sizeof(w->rs[w->nrs]));
	w->rs[w->nrs].run = w->cur->run;
	w->rs[w->nrs].pos = t;
	detect_runstat_fill(&w->rs[w->nrs], w->cur->values, w->cur->n);
	w->nrs++;
	return 0;
}

/* The sum of the absolute deviations of x[a..e) from m, in index order. */
static double
detect_abs_dev(const double *x, size_t a, size_t e, double m)
{
	double	c = 0;
	size_t	i;

	for (i = a; i < e; i++)
		c += fabs(x[i] - m);
	return c;
}

/*
 * The cost of one side x[a..e) of a split: the absolute deviations from
 * its median, into *med.  s is scratch for e - a values.
 */
static double
detect_side_cost(const double *x, size_t a, size_t e, double *s, double *med)
{
	memcpy(s, x + a, (e - a) * sizeof(*s));
	*med = stats_median_inplace(s, e - a);
	return detect_abs_dev(x, a, e, *med);
}

/*
 * Insert v into the ascending srt[0..n) and return the median of the
 * n + 1 values, as stats_median_inplace() gives it (the mean of the two
 * middle ones, each halved first, when n + 1 is even).
 */
static double
detect_sorted_add(double *srt, size_t n, double v)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (srt[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(srt + lo + 1, srt + lo, (n - lo) * sizeof(*srt));
	srt[lo] = v;
	n++;
	return n % 2 == 1 ? srt[n / 2] : srt[n / 2 - 1] / 2 + srt[n / 2] / 2;
}

/*
 * Whether the split of x[a..e) at `at` is a clear step: the two sides'
 * medians lie DETECT_CLEAR_STEP within-side sds apart and at most one
 * run of each side lies past their midpoint.  *big gets whether the
 * first holds, whatever the second.  s is scratch for e - a values.
 */
static int
detect_clear_split(const double *x, size_t a, size_t at, size_t e,
    double *s, int *big)
{
	double	ml, mr, mid, sw, dir;
	size_t	i, wrong_l = 0, wrong_r = 0;

	*big = 0;
	(void)detect_side_cost(x, a, at, s, &ml);
	(void)detect_side_cost(x, at, e, s, &mr);
	if (ml == mr)
		return 0;
	/* The within-side sd: the normalized MAD about each side's median. */
	for (i = a; i < e; i++)
		s[i - a] = fabs(x[i] - (i < at ? ml : mr));
	sw = stats_median_inplace(s, e - a) * DETECT_MAD_SD;
	mid = ml / 2 + mr / 2;
	dir = mr > ml ? 1 : -1;
	for (i = a; i < e; i++) {
		if (i < at && (x[i] - mid) * dir > 0)
			wrong_l++;
		else if (i >= at && (x[i] - mid) * dir < 0)
			wrong_r++;
	}
	*big = fabs(mr - ml) > DETECT_CLEAR_STEP * sw;
	return *big && wrong_l <= 1 && wrong_r <= 1;
}

/*
 * Mark in step[] the first index of each clear step in x[a..e) (see the
 * design notes, 5): the least absolute deviations split, kept when it is
 * clear (detect_clear_split); then each side again.  A split that is
 * large but whose sides mix levels may be one of two steps, the second
 * back part of the way (100, then 120, then 105: the 105s lie past the
 * first split's midpoint): each side is searched, and the split is
 * judged again between the clear steps next to it.  s is scratch for
 * e - a values.
 */
static void
detect_clear_steps(const double *x, size_t a, size_t e, double *s,
    char *step)
{
	double	c, best = INFINITY, *lmed, *rmed;
	size_t	j, at = 0, a2, e2;
	int	big;

	if (e - a < 2 * DETECT_CLEAR_SIDE)
		return;
	/*
	 * Every split's two medians, each side grown one run at a time in
	 * sorted order: selecting them afresh for each split (about k^2
	 * values for k baseline runs) was a third of a check's time.
	 */
	lmed = xreallocarray(NULL, e - a + 1, sizeof(*lmed));
	rmed = xreallocarray(NULL, e - a + 1, sizeof(*rmed));
	for (j = a; j < e; j++)
		lmed[j + 1 - a] = detect_sorted_add(s, j - a, x[j]);
	for (j = e; j-- > a;)
		rmed[j - a] = detect_sorted_add(s, e - 1 - j, x[j]);
	for (j = a + DETECT_CLEAR_SIDE; j + DETECT_CLEAR_SIDE <= e; j++) {
		c = detect_abs_dev(x, a, j, lmed[j - a]) +
		    detect_abs_dev(x, j, e, rmed[j - a]);
		if (c < best) {
			best = c;
			at = j;
		}
	}
	free(lmed);
	free(rmed);
	if (detect_clear_split(x, a, at, e, s, &big))
		step[at] = 1;
	else if (!big)
		return;
	detect_clear_steps(x, a, at, s, step);
	detect_clear_steps(x, at, e, s, step);
	if (step[at])
		return;
	for (a2 = at - 1; a2 > a && !step[a2]; a2--)
		;
	for (e2 = at + 1; e2 < e && !step[e2]; e2++)
		;
	if ((a2 != a || e2 != e) && at - a2 >= DETECT_CLEAR_SIDE &&
	    e2 - at >= DETECT_CLEAR_SIDE &&
	    detect_clear_split(x, a2, at, e2, s, &big))
		step[at] = 1;
}

/*
 * Take the clear steps and wild runs out of the rolling baseline b[0..k)
 * (see the design notes, 5): the runs before a clear step are moved to
 * the level after the newest one (copies in w->moved), and a run
 * DETECT_WILD_RUN sds from the others is left out while no more than
 * one in DETECT_WILD_SHARE runs lies half as far.  Returns the runs
 * left; *fresh gets how many of them come after the newest clear step.
 */
static size_t
detect_clear(struct detect_work *w, struct detect_runstat **b, size_t k,
    size_t *fresh)
{
	double	*x, *s, med, sd, off, newest;
	char	*step;
	size_t	 i, j, e, far, left, n, first_fresh, moved_end = 0;

	*fresh = k;
	w->nmoved = w->nleft_out = 0;
	if (k < DETECT_MIN_POOL_BASE)
		return k;
	x = xreallocarray(NULL, k, sizeof(*x));
	s = xreallocarray(NULL, k, sizeof(*s));
	step = xcalloc(k, 1);
	for (i = 0; i < k; i++)
		x[i] = b[i]->level;
	detect_clear_steps(x, 0, k, s, step);

	/* Each stretch before a step, newest first, to the newest level. */
	for (e = k; e > 0 && !step[e - 1]; e--)
		;
	if (e > 0) {
		moved_end = e - 1;
		*fresh = k - moved_end;
		(void)detect_side_cost(x, e - 1, k, s, &newest);
		for (e--; e > 0; e = i) {
			for (i = e - 1; i > 0 && !step[i]; i--)
				;
			(void)detect_side_cost(x, i, e, s, &med);
			off = newest - med;
			log_debug("baseline: runs %zu..%zu of %zu moved by %g "
			    "to the level after a clear step", i + 1, e, k,
			    off);
			w->nmoved += e - i;
			for (j = i; j < e; j++) {
				w->moved[j] = *b[j];
				w->moved[j].level += off;
				x[j] += off;
				b[j] = &w->moved[j];
			}
		}
	}

	/* Wild runs: far out, and few runs even half as far. */
	memcpy(s, x, k * sizeof(*s));
	med = stats_median_inplace(s, k);
	if (stats_mad(x, k, &sd) == -1)
		sd = 0;
	for (i = 0, far = 0; i < k; i++)
		if (fabs(x[i] - med) > DETECT_WILD_RUN / 2 * sd)
			far++;
	n = k;
	first_fresh = k - *fresh;
	/*
	 * A MAD of 0 is a metric whose runs mostly tie (a counter): a run
	 * off their level is as many sds out as can be, and among so few
	 * such runs wild.  Kept, one run of 30 among runs of 3 set a noise
	 * of 300% for the next 90 runs, and a step to 4 went unseen.
	 */
	if (far <= (k / DETECT_WILD_SHARE > 1 ? k / DETECT_WILD_SHARE : 1)) {
		for (i = 0, left = 0; i < k; i++) {
			if (fabs(x[i] - med) > DETECT_WILD_RUN * sd) {
				log_debug("baseline: run %lld left out, %g "
				    "from the others, %.1f sds",
				    (long long)b[i]->run, fabs(x[i] - med),
				    sd > 0 ? fabs(x[i] - med) / sd : INFINITY);
				if (i >= first_fresh)
					(*fresh)--;
				if (i < moved_end)
					w->nmoved--;
				w->nleft_out++;
				continue;
			}
			b[left++] = b[i];
		}
		n = left;
	}
	free(x);
	free(s);
	free(step);
	return n;
}

/*
 * The rolling baseline before index end of w->rs: the last noise_runs
 * runs there outside the open alert, into b, oldest first, with clear
 * steps and wild runs taken out (detect_clear; b points into w->rs and
 * w->moved).  Returns their number; *level gets how many of the newest
 * give the level: N, or fewer when a clear step is nearer.
 */
static size_t
detect_rolling(const struct detect_params *p, struct detect_work *w,
    size_t end, struct detect_runstat **b, size_t *level)
{
	size_t	i, k = 0, nr = detect_noise_runs(p), fresh;

	for (i = end; i-- > 0 && k < nr;) {
		if (!w->rs[i].in_alert)
			b[k++] = &w->rs[i];
	}
	/* Oldest first. */
	for (i = 0; i < k / 2; i++) {
		struct detect_runstat *tmp = b[i];

		b[i] = b[k - 1 - i];
		b[k - 1 - i] = tmp;
	}
	k = detect_clear(w, b, k, &fresh);
	*level = fresh < p->baseline_runs ? fresh : p->baseline_runs;
	return k;
}

/* Everything a pinned baseline gives one metric. */
struct detect_pinned {
	struct store_series	*ser;
	size_t			 nser;
	struct detect_runstat	*rs;
	struct detect_runstat	**ptr;
	size_t			 k;
};

/*
 * Keep only the complete runs of a pinned baseline: an aborted or failed
 * run's samples are never half-counted (baseline set refuses them, but a
 * baseline may predate that).
 */
static void
detect_pinned_complete(struct store *st, struct store_baseline *bl)
{
	struct store_run	r;
	size_t			i, k = 0;

	for (i = 0; i < bl->nruns; i++) {
		if (store_run_get(st, bl->runs[i], &r) == -1)
			continue;
		if (strcmp(r.status, RUN_COMPLETE) == 0)
			bl->runs[k++] = bl->runs[i];
		store_run_clear(&r);
	}
	bl->nruns = k;
}

/* The pinned runs with samples of the metric, other than the run. */
static int
detect_pinned_load(struct store *st, const struct detect_host *h,
    const struct store_baseline *bl, int64_t metric, int64_t run,
    struct detect_pinned *pn)
{
	size_t	i;

	memset(pn, 0, sizeof(*pn));
	if (store_metric_series_cached(st, h->cache, metric, bl->runs,
	    bl->nruns, &pn->ser, &pn->nser) == -1)
		return -1;
	pn->rs = xcalloc(pn->nser + 1, sizeof(*pn->rs));
	pn->ptr = xcalloc(pn->nser + 1, sizeof(*pn->ptr));
	for (i = 0; i < pn->nser; i++) {
		if (pn->ser[i].n == 0 || pn->ser[i].run == run)
			continue;
		pn->rs[pn->k].run = pn->ser[i].run;
		detect_runstat_fill(&pn->rs[pn->k], pn->ser[i].values,
		    pn->ser[i].n);
		pn->ptr[pn->k] = &pn->rs[pn->k];
		pn->k++;
	}
	return 0;
}

static void
detect_pinned_free(struct detect_pinned *pn)
{
	store_series_free(pn->ser, pn->nser);
	free(pn->rs);
	free(pn->ptr);
	memset(pn, 0, sizeof(*pn));
}

/*
 * A further shift the way of the confirmed alert w->open, whose runs in
 * w->rs start at first: the stretches of confirm_runs .. window runs
 * ending with the checked one, each pooled against the alert's own level
 * (the HL location of its runs before the stretch, at least confirm_runs
 * of them; cvar by their count) with the noise of base, the baseline
 * before the alert.  base's runs br[0..k) are moved to that level for the
 * resampling, tail and precedent checks, which thereby ask of the new
 * stretch what they ask of any: is it off the noise the metric has shown.
 * The best stretch goes to w->further, its p times the stretches tried,
 * its change and interval restated against base's level (what the alert
 * it opens reports), its relevance kept as judged from the alert's level.
 */
static void
detect_further(const struct detect_params *p, const struct detect_base *base,
    struct detect_runstat *const *br, size_t k, struct detect_work *w,
    size_t first)
{
	struct detect_runstat	 *moved, **mp;
	struct detect_base	  b2;
	struct detect_pool	  c, *f = &w->further;
	double			 *lv, delta, mean = 0, half;
	size_t			  last = w->nrs - 1, need, m, i, j, n;
	size_t			  nr = detect_noise_runs(p), tries = 0;

	memset(f, 0, sizeof(*f));
	need = p->confirm_runs > 1 ? p->confirm_runs : 2;
	if (k == 0 || base->kc < DETECT_MIN_BASE || isnan(base->center))
		return;
	moved = xreallocarray(NULL, k, sizeof(*moved));
	mp = xreallocarray(NULL, k > w->nrs ? k : w->nrs, sizeof(*mp));
	lv = xreallocarray(NULL, w->nrs, sizeof(*lv));
	for (m = need; m <= p->window && m <= last; m++) {
		i = last - m + 1;
		if (i < first + need)
			break;
		if (i - first >= DETECT_MIN_POOL_BASE) {
			/*
			 * The alert has runs enough of its own: they measure
			 * the noise of the level they hold, as a rolling
			 * baseline does.
			 */
			n = i - first < nr ? i - first : nr;
			for (j = 0; j < n; j++)
				mp[j] = &w->rs[i - n + j];
			detect_base_compute(mp, n, p->baseline_runs,
			    p->autocorr, &b2);
			detect_base_relevel(&b2, mp, p->baseline_runs,
			    p->pool_level);
			detect_pool_runs(&b2, mp, w->rs, i, last, p->clip,
			    p->min_change, p->confirm_alpha, p->tail, &c);
			tries++;
			if (detect_pool_better(&c, f))
				*f = c;
			continue;
		}
		for (j = first; j < i; j++)
			lv[j - first] = w->rs[j].level;
		b2 = *base;
		b2.center = detect_hl_location(lv, i - first);
		b2.cvar = M_PI / 3 / (double)(i - first);
		delta = b2.center - base->center;
		for (j = 0; j < k; j++) {
			moved[j] = *br[j];
			moved[j].level += delta;
			mp[j] = &moved[j];
		}
		detect_pool_runs(&b2, mp, w->rs, i, last, p->clip,
		    p->min_change, p->confirm_alpha, p->tail, &c);
		tries++;
		if (detect_pool_better(&c, f))
			*f = c;
	}
	if (f->ok) {
		f->p *= (double)tries;
		if (f->p > 1)
			f->p = 1;
		for (j = f->start; j <= last; j++)
			mean += w->rs[j].level - base->center;
		mean /= (double)f->m;
		half = stats_t_quantile(0.975, base->df) * base->noise *
		    sqrt(1 / (double)f->m + base->cvar);
		f->change_pct = detect_pct(mean, base->center);
		f->ci_low = detect_pct(mean - half, base->center);
		f->ci_high = detect_pct(mean + half, base->center);
	}
	free(moved);
	free(mp);
	free(lv);
}

/*
 * detect_beyond_accepted() for run r alone, judged against the verdict's
 * (pinned) baseline at the verdicts' level.
 */
static int
detect_run_beyond_accepted(const struct detect_params *p,
    const struct detect_work *w, const struct detect_runstat *r)
{
	double	d = r->level - w->base.center, sd;

	sd = detect_pred_sd(&w->base, r);
	return detect_beyond_accepted(p, w, detect_pct(d, w->base.center),
	    sd > 0 ? d / sd : NAN, w->base.df, p->fdr);
}

/*
 * Work out one metric: its history, the verdict's baseline and test, and
 * the pooled evidence for its alert.
 */
static int
detect_metric(struct store *st, const struct detect_params *p,
    const struct detect_host *h, size_t t, const struct store_baseline *bl,
    int advance, struct detect_work *w)
{
	struct detect_pinned	  pn;
	struct detect_runstat	**b;
	struct detect_base	  base;
	struct detect_pool	 *cand;
	const double		**vals;
	size_t			 *nvals, k, kc, i, m, last, first, span, fb;
	size_t			  tries = 0;
	int			  rc = -1;

	memset(&pn, 0, sizeof(pn));
	if (store_alerts_metric(st, h->runs[t].host, w->cur->metric.id,
	    &w->alerts, &w->nalerts) == -1)
		return -1;
	detect_work_alerts(h, w, t, advance);
	/* bsearch() of no array is undefined, whatever its count says. */
	if (w->can_open && h->njudged_after > 0 && bsearch(&w->cur->metric.id,
	    h->judged_after, h->njudged_after, sizeof(*h->judged_after),
	    detect_id_cmp) != NULL)
		w->can_open = 0;
	w->accepted = NULL;
	if (bl != NULL && w->can_open && w->nalerts > 0 &&
	    strcmp(w->alerts[w->nalerts - 1].state, ALERT_ACKNOWLEDGED) == 0)
		w->accepted = &w->alerts[w->nalerts - 1];	/* none since */
	if (detect_work_history(st, p, h, t, bl != NULL, w) == -1)
		return -1;
	if (bl != NULL && detect_pinned_load(st, h, bl, w->cur->metric.id,
	    w->cur->run, &pn) == -1)
		return -1;
	b = xcalloc(w->nrs + pn.k + 1, sizeof(*b));
	vals = xcalloc(w->nrs + pn.k + 1, sizeof(*vals));
	nvals = xcalloc(w->nrs + pn.k + 1, sizeof(*nvals));
	w->moved = xcalloc(w->nrs, sizeof(*w->moved));
	last = w->nrs - 1;

	/* The verdict. */
	if (bl != NULL) {
		k = kc = pn.k;
		memcpy(b, pn.ptr, k * sizeof(*b));
	} else
		k = detect_rolling(p, w, last, b, &kc);
	detect_base_compute(b, k, kc, p->autocorr, &w->base);
	if (bl != NULL)
		detect_base_pinned(&w->base);
	log_debug("baseline: %zu runs (level %zu), sd %g, r1 %g, noise %g, "
	    "prediction error sd %g", w->base.k, w->base.kc, w->base.sd,
	    w->base.r1, w->base.noise, w->base.inoise);
	detect_base_samples(&w->base, b, vals, nvals);
	detect_judge(&w->base, &w->rs[last], w->v);
	if (bl == NULL) {
		w->v->noise_moved = w->nmoved;
		w->v->noise_left_out = w->nleft_out;
	}
	w->base.values = NULL;
	w->base.nvalues = NULL;

	/* The pooled evidence. */
	if (w->open != NULL) {
		/*
		 * The baseline is the one before the alert's span; the pool
		 * starts at its first bad run, which the split may move on
		 * while it is only suspected.
		 */
		if (detect_host_pos(h, w->open->first_bad_run, &fb) == -1)
			fb = 0;
		for (span = 0; span < last && !w->rs[span].in_alert; span++)
			;
		for (first = span; first < last && (!w->rs[first].in_alert ||
		    w->rs[first].pos < fb); first++)
			;
		if (bl != NULL) {
			k = kc = pn.k;
			memcpy(b, pn.ptr, k * sizeof(*b));
		} else
			k = detect_rolling(p, w, span, b, &kc);
		detect_base_compute(b, k, kc, p->autocorr, &base);
		if (bl != NULL)
			detect_base_pinned(&base);
		detect_base_relevel(&base, b, p->baseline_runs, p->pool_level);
		if (strcmp(w->open->state, ALERT_SUSPECTED) == 0)
			first = detect_split(&base, w->rs, first, last);
		detect_pool_runs(&base, b, w->rs, first, last,
		    p->confirm_runs > 1 ? p->clip : 0, p->min_change,
		    p->confirm_alpha, p->tail, &w->pool);
		if (strcmp(w->open->state, ALERT_CONFIRMED) == 0)
			detect_further(p, &base, b, k, w, first);
	} else if (w->can_open) {
		/* Starts: pools of 2 .. window runs ending with this one. */
		cand = xcalloc(p->window + 2, sizeof(*cand));
		for (m = 2; m <= p->window && m <= w->nrs; m++) {
			i = w->nrs - m;
			if (w->rs[i].pos < w->first_start)
				break;
			if (m < p->confirm_runs)
				continue;
			/* A stretch starts off the accepted level, if any. */
			if (w->accepted != NULL &&
			    !detect_run_beyond_accepted(p, w, &w->rs[i]))
				continue;
			if (bl != NULL) {
				k = kc = pn.k;
				memcpy(b, pn.ptr, k * sizeof(*b));
			} else
				k = detect_rolling(p, w, i, b, &kc);
			detect_base_compute(b, k, kc, p->autocorr, &base);
			if (bl != NULL)
				detect_base_pinned(&base);
			detect_base_relevel(&base, b, p->baseline_runs,
			    p->pool_level);
			detect_pool_runs(&base, b, w->rs, i, last,
			    p->confirm_runs > 1 ? p->clip : 0,
			    p->min_change, p->confirm_alpha, p->tail,
			    &cand[m]);
			tries++;
			if (detect_pool_better(&cand[m], &w->pool))
				w->pool = cand[m];
		}
		if (p->confirm_runs <= 1) {
			/* A single run may confirm: it is a start too. */
			if (bl != NULL) {
				k = pn.k;
				memcpy(b, pn.ptr, k * sizeof(*b));
			} else
				k = detect_rolling(p, w, last, b, &kc);
			detect_pool_runs(&w->base, b, w->rs, last, last, 0,
			    p->min_change, p->confirm_alpha, p->tail,
			    &cand[1]);
			tries++;
			if (detect_pool_better(&cand[1], &w->pool))
				w->pool = cand[1];
		}
		/*
		 * The strongest start may reach back past the shift into a
		 * run that only happened to lean its way: start where the
		 * split puts it, if that start was tried.
		 */
		if (w->pool.ok) {
			i = detect_split(&w->pool.base, w->rs, w->pool.start,
			    last);
			m = last - i + 1;
			if (i != w->pool.start && m <= p->window + 1 &&
			    cand[m].ok)
				w->pool = cand[m];
			else if (i != w->pool.start)
				w->pool.ok = 0;
		}
		if (w->pool.ok) {
			/*
			 * The alert names where the shift began, which may
			 * be before the stretch (its numbers stay the
			 * stretch's): its machine diff and the bisection it
			 * suggests are between that run and the last good.
			 */
			w->pool.first_bad = detect_shift_start(w, &w->pool);
			w->pool.p *= (double)tries;
			if (w->pool.p > 1)
				w->pool.p = 1;
		}
		free(cand);
	}
	rc = 0;
	free(b);
	free(vals);
	free(nvals);
	free(w->moved);
	w->moved = NULL;
	detect_pinned_free(&pn);
	return rc;
}

/*
 * Set a verdict's kind from its q, change and the metric's direction
 * (an inconclusive one stays so).
 */
static void
detect_classify(const struct detect_params *p, struct detect_verdict *v)
{
	int	up;

	if (v->kind == DETECT_INCONCLUSIVE)
		return;
	v->kind = DETECT_UNCHANGED;
	if (!(v->q <= p->fdr) || !detect_relevant(v->change_pct, v->ci_low,
	    v->ci_high, p->min_change))
		return;
	if (v->current == v->reference)
		return;
	up = v->current > v->reference;
	if (up == (v->metric.better == BETTER_HIGHER))
		v->kind = DETECT_IMPROVEMENT;
	else
		v->kind = DETECT_REGRESSION;
}

/*
 * Under a pinned baseline whose newest alert of the metric was
 * acknowledged (w->accepted), whether a change of change_pct from the
 * pinned level, t standard errors from it (df degrees of freedom), is
 * also off the level the acknowledgement accepted, its way: by the
 * practical floor, and at level alpha.  A person who acknowledges an
 * alert accepts the new level; a rolling baseline is then the runs since
 * the shift (detect_excluded), but a pinned one stays where it was, and
 * every run at the accepted level opened its alert again, and notified
 * again.  So such a run opens none, and one further off still does.
 */
int
detect_beyond_accepted(const struct detect_params *p,
    const struct detect_work *w, double change_pct, double t, double df,
    double alpha)
{
	const struct store_alert	*a = w->accepted;
	double				 extra;

	if (a == NULL || isnan(a->change_pct) || isnan(change_pct) ||
	    change_pct == 0 || isnan(t))
		return 1;
	extra = change_pct - a->change_pct;
	if ((extra > 0) != (change_pct > 0) || fabs(extra) < p->min_change)
		return 0;
	return 2 * stats_t_cdf(-fabs(t * extra / change_pct), df) <= alpha;
}

/* Set the kind of each of res's verdicts, and count the kinds. */
static void
detect_result_classify(const struct detect_params *p,
    struct detect_result *res)
{
	size_t	i;

	res->regressions = res->improvements = res->inconclusive = 0;
	for (i = 0; i < res->nv; i++) {
		detect_classify(p, &res->v[i]);
		if (res->v[i].kind == DETECT_REGRESSION)
			res->regressions++;
		else if (res->v[i].kind == DETECT_IMPROVEMENT)
			res->improvements++;
		else if (res->v[i].kind == DETECT_INCONCLUSIVE)
			res->inconclusive++;
	}
}

/*
 * Judge res's verdicts again as one family of their own: q by
 * Benjamini-Hochberg over their p alone, then their kinds and counts.
 * For check's selection of a run's metrics (cli/check.c says why); the
 * verdicts stored and the alerts are left as detect_check() made them.
 */
int
detect_result_readjust(const struct detect_params *p,
    struct detect_result *res)
{
	double	*pv, *qv;
	size_t	 i, m = 0;

	pv = xcalloc(res->nv + 1, sizeof(*pv));
	qv = xcalloc(res->nv + 1, sizeof(*qv));
	for (i = 0; i < res->nv; i++)
		if (!isnan(res->v[i].p))
			pv[m++] = res->v[i].p;
	if (m > 0 && stats_bh(pv, m, qv) == -1) {
		free(pv);
		free(qv);
		return -1;
	}
	for (i = 0, m = 0; i < res->nv; i++)
		if (!isnan(res->v[i].p))
			res->v[i].q = qv[m++];
	free(pv);
	free(qv);
	detect_result_classify(p, res);
	return 0;
}

/* BH over the verdicts' p and over the pooled p of the works. */
static int
detect_adjust(struct detect_work *w, size_t n)
{
	double	*p, *q;
	size_t	 i, m = 0;

	if (n == 0)
		return 0;
	p = xcalloc(n, sizeof(*p));
	q = xcalloc(n, sizeof(*q));
	for (i = 0; i < n; i++)
		if (!isnan(w[i].v->p))
			p[m++] = w[i].v->p;
	if (m > 0 && stats_bh(p, m, q) == -1)
		goto fail;
	for (i = 0, m = 0; i < n; i++)
		if (!isnan(w[i].v->p))
			w[i].v->q = q[m++];
	/*
	 * The pooled tests of all metrics are one family, and so is a
	 * further shift's test where one was made (a metric with a
	 * confirmed alert open).
	 */
	for (i = 0, m = 0; i < n; i++)
		m += w[i].further.ok;
	p = xreallocarray(p, n + m, sizeof(*p));
	q = xreallocarray(q, n + m, sizeof(*q));
	for (i = 0, m = n; i < n; i++) {
		p[i] = w[i].pool.ok ? w[i].pool.p : 1;
		if (w[i].further.ok)
			p[m++] = w[i].further.p;
	}
	if (stats_bh(p, m, q) == -1)
		goto fail;
	for (i = 0, m = n; i < n; i++) {
		w[i].pool.q = q[i];
		if (w[i].further.ok)
			w[i].further.q = q[m++];
	}
	free(p);
	free(q);
	return 0;
fail:
	free(p);
	free(q);
	return -1;
}

/* Copy verdict v of run into the store's form. */
static void
detect_store_verdict(const struct detect_verdict *v, int64_t run,
    const char *baseline, struct store_verdict *sv)
{
	memset(sv, 0, sizeof(*sv));
	sv->run = run;
	sv->metric = v->metric.id;
	sv->verdict = (char *)detect_kind_name(v->kind);
	sv->change_pct = v->change_pct;
	sv->ci_low = v->ci_low;
	sv->ci_high = v->ci_high;
	sv->p = v->p;
	sv->q = v->q;
	sv->baseline = (char *)baseline;
	sv->current = v->current;
	sv->reference = v->reference;
	sv->noise = v->noise;
	sv->baseline_runs = (int)v->baseline_runs;
}

/*
 * The workloads of run that did not complete, with their metrics that
 * the run holds or the host's run of each before had (struct
 * detect_unjudged).  0, or -1 on a store error.
 */
static int
detect_unjudged_load(struct store *st, int64_t run, struct detect_result *res)
{
	struct store_run_workload	*rw = NULL;
	struct store_metric		*ms;
	struct detect_unjudged		*u;
	size_t				 nrw = 0, nms, i;
	int				 rc = -1;

	if (store_run_workloads(st, run, &rw, &nrw) == -1)
		return -1;
	for (i = 0; i < nrw; i++) {
		if (strcmp(rw[i].status, "complete") == 0)
			continue;
		if (store_metrics_not_judged(st, run, rw[i].workload, &ms,
		    &nms) == -1)
			goto out;
		if (nms == 0) {
			free(ms);
			continue;
		}
		res->unj = xreallocarray(res->unj, res->nunj + 1,
		    sizeof(*res->unj));
		u = &res->unj[res->nunj++];
		u->workload = xstrdup(rw[i].workload);
		u->status = xstrdup(rw[i].status);
		u->error = rw[i].error != NULL ? xstrdup(rw[i].error) : NULL;
		u->metrics = ms;
		u->nmetrics = nms;
	}
	rc = 0;
out:
	store_run_workloads_free(rw, nrw);
	return rc;
}

/*
 * Leave out of ser[0..n) the metrics of the workloads that did not
 * complete (res->unj): the samples of some of their iterations are no
 * run's measure.  Returns how many are left, at the front.
 */
static size_t
detect_judged_only(const struct detect_result *res, struct store_series *ser,
    size_t n)
{
	size_t	i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < res->nunj; j++)
			if (strcmp(ser[i].metric.workload,
			    res->unj[j].workload) == 0)
				break;
		if (j < res->nunj) {
			store_metric_clear(&ser[i].metric);
			free(ser[i].values);
			free(ser[i].iterations);
			continue;
		}
		ser[k++] = ser[i];
	}
	return k;
}

static void
detect_work_free(struct detect_work *w)
{
	store_series_free(w->hist, w->nhist);
	store_alerts_free(w->alerts, w->nalerts);
	free(w->rs);
	memset(w, 0, sizeof(*w));
}

/*
 * Judge every metric of run against the baseline (p->baseline if set,
 * else the one in use), store the verdicts, advance the alerts and queue
 * their notifications, all in one transaction.  res is filled for the
 * caller (detect_result_free).  On error returns -1 with *cause set and
 * the store unchanged.
 */
int
detect_check(struct store *st, int64_t run, const struct detect_params *p,
    struct detect_result *res, char **cause)
{
	struct detect_host	 h;
	struct store_baseline	 bl, *blp = NULL;
	struct store_series	*ser = NULL;
	struct store_verdict	*sv = NULL;
	struct detect_work	*w = NULL;
	size_t			 nser = 0, i, t;
	enum store_failure	 failure = STORE_FOUND_NONE;
	int			 advance, rc = -1, began = 0;

	memset(res, 0, sizeof(*res));
	memset(&h, 0, sizeof(h));
	memset(&bl, 0, sizeof(bl));
	if (p->baseline_runs < DETECT_MIN_BASE || p->window < 2 ||
	    p->confirm_runs < 1 || p->window < p->confirm_runs) {
		xasprintf(cause, "bad detection parameters");
		return -1;
	}
	if (store_run_get(st, run, &res->run) == -1) {
		if ((res->failure = store_failure(st)) == STORE_FOUND_NONE)
			xasprintf(cause, "no run #%lld", (long long)run);
		else
			xasprintf(cause, "reading run #%lld: %s", (long long)run,
			    store_errmsg(st));
		return -1;
	}
	if (p->baseline != NULL)
		res->baseline = xstrdup(p->baseline);
	else if (detect_baseline_in_use(st, p, &res->baseline) == -1)
		goto fail_store;
	if (strcmp(res->baseline, DETECT_ROLLING) != 0) {
		if (store_baseline_get(st, res->baseline, &bl) == -1) {
			if ((failure = store_failure(st)) != STORE_FOUND_NONE)
				goto fail_store;
			detect_baseline_unknown(p, res->baseline, cause);
			goto out;
		}
		detect_pinned_complete(st, &bl);
		blp = &bl;
	}
	advance = p->alerts && p->baseline == NULL &&
	    detect_run_counts(&res->run);

	if (store_begin(st) == -1)
		goto fail_store;
	began = 1;
	if (detect_host_load(st, res->run.host_name, &h) == -1 ||
	    detect_host_pos(&h, run, &t) == -1 ||
	    (advance && detect_judged_after(st, &h, t) == -1))
		goto fail_store;
	if (blp != NULL)
		res->base_total = blp->nruns;
	else
		for (i = 0; i < t; i++)
			res->base_total += detect_run_counts(&h.runs[i]);
	if (store_run_series(st, run, &ser, &nser) == -1 ||
	    detect_unjudged_load(st, run, res) == -1)
		goto fail_store;
	nser = detect_judged_only(res, ser, nser);
	res->alerts = advance;
	res->v = xcalloc(nser + 1, sizeof(*res->v));
	res->nv = nser;
	w = xcalloc(nser + 1, sizeof(*w));
	for (i = 0; i < nser; i++) {
		w[i].v = &res->v[i];
		w[i].cur = &ser[i];
		res->v[i].metric = ser[i].metric;
		memset(&ser[i].metric, 0, sizeof(ser[i].metric));
		ser[i].metric.id = res->v[i].metric.id;
		if (detect_metric(st, p, &h, t, blp, advance, &w[i]) == -1)
			goto fail_store;
	}
	if (detect_adjust(w, nser) == -1)
		goto fail_store;
	detect_result_classify(p, res);
	sv = xcalloc(nser + 1, sizeof(*sv));
	for (i = 0; i < nser; i++)
		detect_store_verdict(&res->v[i], run, res->baseline, &sv[i]);
	if (store_verdicts_replace(st, run, sv, nser) == -1)
		goto fail_store;
	if (detect_alerts_advance(st, p, &h, res, w, nser, cause) == -1) {
		if ((failure = store_failure(st)) == STORE_FOUND_NONE)
			failure = STORE_FAILED;
		goto out;
	}
	if (store_commit(st) == -1)
		goto fail_store;
	began = 0;
	rc = 0;
	goto out;

fail_store:
	/*
	 * Kept in res->failure: the caller tells busy from failed by it
	 * after detect_result_free and whatever else it asks of the store.
	 */
	if ((failure = store_failure(st)) == STORE_FOUND_NONE)
		failure = STORE_FAILED;
	xasprintf(cause, "checking run %s: %s", res->run.label != NULL ?
	    res->run.label : "?", store_errmsg(st));
out:
	if (began)
		store_rollback(st);
	for (i = 0; w != NULL && i < nser; i++)
		detect_work_free(&w[i]);
	free(w);
	free(sv);
	store_series_free(ser, nser);
	store_baseline_clear(&bl);
	detect_host_free(&h);
	if (rc == -1) {
		detect_result_free(res);
		res->failure = failure;
	}
	return rc;
}

void
detect_result_free(struct detect_result *res)
{
	size_t	i;

	for (i = 0; i < res->nv; i++)
		store_metric_clear(&res->v[i].metric);
	free(res->v);
	free(res->ev);
	free(res->baseline);
	for (i = 0; i < res->nunj; i++) {
		free(res->unj[i].workload);
		free(res->unj[i].status);
		free(res->unj[i].error);
		store_metrics_free(res->unj[i].metrics, res->unj[i].nmetrics);
	}
	free(res->unj);
	store_run_clear(&res->run);
	memset(res, 0, sizeof(*res));
}
