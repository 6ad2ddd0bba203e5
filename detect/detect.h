/*
 * detect/: the verdict engine.  It reads runs and samples from the store
 * and writes back verdicts, alerts and outbox rows, in one transaction per
 * checked run.  The statistical primitives it builds on are in stats.h;
 * the method and its invariants are in the notes at the top of detect.c.
 */
#ifndef PERFWATCH_DETECT_H
#define PERFWATCH_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "detect/stats.h"
#include "store/store.h"

struct config;

/* The rolling baseline's name, and the setting "baseline use" writes. */
#define DETECT_ROLLING		"rolling"
#define DETECT_SETTING_BASELINE	"detect.baseline"

/* The trigger of runs that measure a bisection's commits, not the host. */
#define DETECT_TRIGGER_BISECT	"bisect"

/* Fewest baseline runs for a verdict; with fewer it is inconclusive. */
#define DETECT_MIN_BASE	3

/*
 * Fewest rolling baseline runs whose noise pooled evidence may be judged
 * by: fewer say too little about the spread (and nothing about its
 * shape) to confirm a shift.  A young history, or one whose runs were
 * mostly taken by earlier alerts, waits (a pinned baseline is taken as
 * the user chose it).
 */
#define DETECT_MIN_POOL_BASE	20

enum detect_kind {
	DETECT_UNCHANGED = 0,
	DETECT_REGRESSION,
	DETECT_IMPROVEMENT,
	DETECT_INCONCLUSIVE,
};

/* A sink to queue notifications for, and the least state it wants. */
enum detect_level {
	DETECT_LEVEL_SUSPECTED = 0,
	DETECT_LEVEL_CONFIRMED,
	DETECT_LEVEL_RESOLVED,
};

struct detect_sink {
	char			*name;
	char			*type;		/* email, webhook, log */
	enum detect_level	 min_state;
};

struct detect_params {
	size_t		 baseline_runs;	/* N of the rolling baseline (10) */
	size_t		 noise_runs;	/* runs measuring noise (0: 9N) */
	double		 min_change;	/* practical floor, percent (2) */
	double		 fdr;		/* BH level of a run's verdicts (0.05) */
	size_t		 confirm_runs;	/* fewest runs that confirm (2) */
	size_t		 window;	/* most runs an alert stays suspected,
					   and starts looked back at (4) */
	double		 confirm_alpha;	/* BH level of the pooled test (5e-4) */
	double		 clip;		/* one run's share cap, in sds (3) */
	double		 tail;		/* baseline quantile a stretch's
					   median run must pass (0.95) */
	int		 autocorr;	/* widen noise by lag-1 autocorr. (1) */
	size_t		 pool_level;	/* runs giving the pooled evidence its
					   level; 0: by the baseline's lag-1
					   correlation (see detect.c) */
	char		*baseline;	/* this check only: pinned name, or
					   NULL for the baseline in use */
	char		*config_baseline; /* [detect] baseline; NULL: rolling */
	char		*config_baseline_at; /* its "file:line", or NULL */
	int		 alerts;	/* advance alerts, queue outbox (1) */
	struct detect_sink *sinks;	/* configured [sink] sections */
	size_t		 nsinks;
	int64_t		 now;		/* clock for alerts and outbox; 0: now */
};

/* The verdict on one metric of the checked run. */
struct detect_verdict {
	struct store_metric	 metric;
	enum detect_kind	 kind;
	double			 change_pct;	/* NAN when the level is 0 */
	double			 ci_low;	/* 95% interval, percent */
	double			 ci_high;
	double			 p;		/* NAN when inconclusive */
	double			 q;		/* BH over the run's metrics */
	double			 current;	/* the run's level (biweight) */
	double			 reference;	/* baseline level */
	double			 noise;		/* between-run sd, metric unit */
	double			 z;		/* (current - reference) / sd */
	size_t			 baseline_runs;
	size_t			 noise_runs;	/* runs measuring the noise */
	size_t			 noise_moved;	/* of them, moved across a
						   clear step */
	size_t			 noise_left_out; /* wild runs left out */
	int			 can_confirm;	/* baseline may confirm an alert:
						   pinned, or noise_runs at
						   least DETECT_MIN_POOL_BASE */
	size_t			 samples;
	int64_t			 alert;		/* open alert after the check */
	const char		*alert_state;	/* its state, or NULL */
};

/* An alert state change made by one check. */
struct detect_event {
	int64_t		 alert;
	size_t		 verdict;	/* index into the result's verdicts */
	const char	*from;		/* NULL for a new alert */
	const char	*to;
	const char	*direction;	/* regression or improvement */
	double		 change_pct;
};

/*
 * A workload that did not complete in the run (failed, timeout, aborted,
 * skipped) and whose metrics the host's run of it before had: they have
 * no verdict, and a check that said nothing of them would pass for one
 * that found them unchanged.
 */
struct detect_unjudged {
	char			*workload;
	char			*status;	/* run_workloads' */
	char			*error;		/* or NULL */
	struct store_metric	*metrics;	/* the ones lost */
	size_t			 nmetrics;
};

struct detect_result {
	struct store_run	 run;
	char			*baseline;	/* "rolling" or a pinned name */
	int			 alerts;	/* 1 if alerts were advanced */
	struct detect_verdict	*v;
	size_t			 nv;
	struct detect_event	*ev;
	size_t			 nev;
	size_t			 regressions;
	size_t			 improvements;
	size_t			 inconclusive;
	struct detect_unjudged	*unj;
	size_t			 nunj;
	size_t			 base_total;	/* runs the baseline holds,
						   whatever their metrics
						   (rolling: the host's runs
						   before this one that count) */
	enum store_failure	 failure;	/* why detect_check failed:
						   STORE_FOUND_NONE when the
						   store did not fail */
};

/* One column of a comparison: a run, or a group of runs. */
struct detect_group {
	char		*name;
	int64_t		*runs;
	size_t		 nruns;
};

enum detect_test {
	DETECT_TEST_NONE = 0,	/* too little to test */
	DETECT_TEST_RUNS,	/* Mann-Whitney over run medians */
	DETECT_TEST_SAMPLES,	/* one run each: over their samples */
};

/* One metric of one group against the first group. */
struct detect_cell {
	size_t		 runs;		/* runs with samples of the metric */
	size_t		 samples;
	double		 level;		/* median of the run medians */
	double		 change_pct;	/* of the level, against the first */
	double		 shift_pct;	/* Hodges-Lehmann shift, percent */
	double		 ci_low;		/* its Moses 95% interval */
	double		 ci_high;
	double		 p;
	double		 q;
	enum detect_test test;
	enum detect_kind kind;
	int		 judged;	/* both it and the first column
					   have runs of the metric */
};

/* An index row: per workload, then one over every metric (NULL). */
struct detect_index {
	char			*workload;	/* NULL: all metrics */
	size_t			 metrics;	/* metrics that went in */
	double			*value;		/* per group */
};

struct detect_comparison {
	struct detect_group	*groups;	/* borrowed from the caller */
	size_t			 ngroups;
	struct store_metric	*metrics;
	size_t			 nmetrics;
	struct detect_cell	*cells;		/* nmetrics * ngroups */
	int			*ups;		/* sign of each cell's shift */
	struct detect_index	*index;
	size_t			 nindex;
	enum store_failure	 failure;	/* why detect_compare failed:
						   STORE_FOUND_NONE when the
						   store did not fail */
};

/* A change point in one metric's history of run medians. */
struct detect_change {
	struct store_metric	 metric;
	char			*host;
	char			*run;		/* label of its first run */
	char			*last_run;	/* label of its last run */
	size_t			 index;		/* in the metric's history */
	size_t			 history;	/* runs in the history */
	struct cp_change	 cp;
};

/* detect.c */
void		 detect_params_default(struct detect_params *);
/* The runs that measure a rolling baseline's noise under p. */
size_t		 detect_noise_runs(const struct detect_params *);
void		 detect_params_config(struct detect_params *,
		    const struct config *);
void		 detect_params_clear(struct detect_params *);
int		 detect_check(struct store *, int64_t run,
		    const struct detect_params *, struct detect_result *,
		    char **cause);
void		 detect_result_free(struct detect_result *);
int		 detect_result_readjust(const struct detect_params *,
		    struct detect_result *);
int		 detect_baseline_in_use(struct store *,
		    const struct detect_params *, char **name);
const char	*detect_kind_name(enum detect_kind);
int		 detect_run_counts(const struct store_run *);
/* A run's level (biweight location of its samples) and its se. */
void		 detect_run_level(const double *, size_t, double *level,
		    double *se);
/*
 * The level and noise a check judges by against a pinned baseline whose
 * runs (oldest first) have the samples v[i][0..n[i]), i < k.
 */
void		 detect_pinned_level(const double *const *v, const size_t *n,
		    size_t k, const struct detect_params *, double *level,
		    double *noise);

/* alert.c */
/*
 * The watched git trees whose commit differs from run good to run bad:
 * a JSON array of {"name", "from", "to"} (empty when none or unknown).
 */
json_t		*detect_git_moved(struct store *, int64_t good, int64_t bad);
int		 detect_alert_ack(struct store *, int64_t alert,
		    const struct detect_params *, char **cause);
char		*detect_attribution(struct store *, const struct store_alert *);
/*
 * Name the runs of attribution attr (a JSON object, or NULL) as today's
 * detect_attribution() does: an alert confirmed by a version before
 * called a run's label "label" and its start "started", in epoch
 * seconds, where every --json says "run" and "time" (RFC 3339); host,
 * unless NULL, is the one they lacked; a "same_snapshot" left out (as
 * it was when a run had no snapshot) is null.
 */
void		 detect_attribution_upgrade(json_t *attr, const char *host);

/* compare.c */
int		 detect_compare(struct store *, struct detect_group *, size_t,
		    const struct detect_params *, struct detect_comparison *,
		    char **cause);
void		 detect_comparison_free(struct detect_comparison *);
int		 detect_changes(struct store *, const char *host,
		    const char *workload, const char *metric,
		    const struct cp_params *, struct detect_change **,
		    size_t *, char **cause);
void		 detect_changes_free(struct detect_change *, size_t);
void		 detect_change_push(struct detect_change **, size_t *,
		    const struct store_metric *, const char *host,
		    const char *run, const char *last_run, size_t history,
		    const struct cp_change *);
/* Tests: hold at most n run levels at once in detect_changes (0: 32 MiB). */
void		 detect_changes_block(size_t n);

#endif
