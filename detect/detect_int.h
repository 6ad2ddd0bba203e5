/*
 * Internals shared by detect.c (statistics and the check), alert.c (the
 * alert state machine and the outbox) and compare.c.  Nothing outside
 * detect/ includes this header.
 */
#ifndef PERFWATCH_DETECT_INT_H
#define PERFWATCH_DETECT_INT_H

#include <json.h>

#include "detect.h"

/* One run of one metric. */
struct detect_runstat {
	int64_t		 run;
	size_t		 pos;		/* in the host's run order */
	double		 level;		/* biweight location (see detect.c) */
	double		 se;		/* of the level, from within-run spread */
	const double	*values;	/* borrowed from a store_series */
	size_t		 n;
	int		 in_alert;	/* inside the open alert being updated */
};

/* What a set of baseline runs says about one metric. */
struct detect_base {
	size_t		 k;		/* runs measuring the noise */
	size_t		 kc;		/* the newest of them: the level */
	double		 center;	/* HL location of those kc medians */
	double		 cvar;		/* its variance in noise units: pi/3kc */
	double		 sd;		/* sd of the k medians */
	double		 r1;		/* lag-1 autocorrelation used */
	double		 noise;		/* effective between-run sd */
	double		 se_scale;	/* median / 95th percentile of the
					   runs' se: a run's own se counts
					   times this (detect_run_sd) */
	double		 rw;		/* lag-1 r the pooled evidence whitens
					   by, in [0, 0.9]; 0: none */
	double		 inoise;	/* sd of a run's prediction error
					   from the run before it (by rw) */
	double		 df;		/* k - 1 */
	double		 wsd;		/* median sd of one sample, se sqrt(n),
					   of the runs of three or more */
	int		 pinned;	/* a named set of runs, not rolling */
	int64_t		 last_good;	/* the newest baseline run, 0: none */
	const double	**values;	/* every run's samples, for Mann-Whitney */
	const size_t	*nvalues;
};

/* The runs since a shift began, pooled against the baseline before it. */
struct detect_pool {
	int		 ok;		/* computed */
	size_t		 start;		/* index of its first run */
	size_t		 first_bad;	/* index of the run the shift began
					   with: start, or a run before it
					   that the baseline left out
					   (detect_metric's look-back) */
	size_t		 m;		/* runs pooled */
	double		 t;		/* clipped, standardized */
	double		 p;		/* two-sided, the larger of the t test's
					   and p_resample, times the starts */
	double		 p_resample;	/* against the baseline's runs drawn
					   with replacement, two-sided */
	double		 q;		/* BH over the run's metrics */
	int		 unprecedented;	/* beyond every stretch of as many
					   runs in the baseline */
	int		 in_tail;	/* its median run beyond the baseline
					   runs' 95th percentile */
	double		 change_pct;	/* unclipped mean change */
	double		 ci_low;
	double		 ci_high;
	int		 sign;		/* of the mean change: -1, 0, +1 */
	int		 latest_sign;	/* of the newest run's change */
	int		 relevant;	/* beyond the practical floor */
	struct detect_base base;
};

/* Everything the check works out for one metric of the run. */
struct detect_work {
	struct detect_verdict	*v;
	struct store_series	*cur;		/* the run's samples */
	struct store_series	*hist;		/* fetched history, owned */
	size_t			 nhist;
	struct detect_runstat	*rs;		/* oldest first; last: the run */
	size_t			 nrs;
	struct detect_runstat	*moved;		/* rolling baseline runs moved
						   across a clear step
						   (detect_rolling), nrs */
	size_t			 nmoved;	/* the last detect_rolling's */
	size_t			 nleft_out;	/* its wild runs */
	struct detect_base	 base;		/* the verdict's baseline */
	struct store_alert	*alerts;	/* of this metric and host */
	size_t			 nalerts;
	struct store_alert	*open;		/* open alert to update, or NULL */
	int			 can_open;	/* the run may open an alert */
	const struct store_alert *accepted;	/* pinned baseline: the
						   newest alert, when it
						   was acknowledged */
	size_t			 first_start;	/* earliest look-back start */
	struct detect_pool	 pool;
	struct detect_pool	 further;	/* a further shift beyond a
						   confirmed alert's level
						   (detect_further) */
};

/* The host's runs in start order, for positions and labels. */
struct detect_host {
	struct store_run	*runs;
	size_t			 nruns;
	struct detect_idpos	*byid;		/* sorted by run id */
	struct store_cache	*cache;		/* the runs' samples, for the
						   metrics after the first */
	int64_t			*judged_after;	/* metrics a newer counting
						   run's check judged,
						   ascending (detect_check) */
	size_t			 njudged_after;
};

struct detect_idpos {
	int64_t		 id;
	size_t		 pos;
};

/* detect.c */
int		 detect_host_pos(const struct detect_host *, int64_t id,
		    size_t *pos);
const char	*detect_host_label(const struct detect_host *, int64_t id);
void		 detect_runstat_fill(struct detect_runstat *, const double *,
		    size_t);
void		 detect_base_compute(struct detect_runstat *const *, size_t,
		    size_t, int autocorr, struct detect_base *);
int		 detect_within_noise(const struct detect_base *,
		    const struct detect_runstat *, int sign, double floor_pct);
int		 detect_pool_passes(const struct detect_pool *);
double		 detect_pct(double x, double level);
int		 detect_relevant(double change, double lo, double hi,
		    double floor_pct);
int		 detect_beyond_accepted(const struct detect_params *,
		    const struct detect_work *, double change_pct, double t,
		    double df, double alpha);

/* alert.c */
int		 detect_alerts_advance(struct store *,
		    const struct detect_params *, const struct detect_host *,
		    struct detect_result *, struct detect_work *, size_t,
		    char **cause);
int		 detect_outbox_queue(struct store *,
		    const struct detect_params *, const struct store_alert *,
		    json_t *payload);

#endif
