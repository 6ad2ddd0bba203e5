/*
 * Statistical primitives and change-point detection over plain arrays of
 * doubles: no store, no allocation kept between calls (but the tables a
 * caller of cp_detect_with() holds).  The verdict engine (detect.h) builds
 * on these.
 *
 * Every function taking samples returns 0 on success and -1 (logged with
 * log_warnx) on an empty or too small sample, a non-finite value or an
 * argument out of range; inputs are never modified.  Each primitive is
 * checked against SciPy in tests/unit/test_stats.c.
 */
#ifndef PERFWATCH_STATS_H
#define PERFWATCH_STATS_H

#include <stddef.h>

/* Alternative hypothesis, in SciPy's sense: GREATER means x > y. */
enum stats_alt {
	STATS_TWO_SIDED = 0,
	STATS_LESS,
	STATS_GREATER,
};

/* How the Mann-Whitney p-value is computed. */
enum stats_mwu_method {
	STATS_MWU_AUTO = 0,	/* SciPy 1.10's 'auto' rule, see stats.c */
	STATS_MWU_EXACT,	/* exact null distribution; no ties allowed */
	STATS_MWU_ASYMPTOTIC,	/* normal, tie and continuity corrected */
};

struct stats_summary {
	size_t	n;
	double	mean;
	double	stddev;		/* sample (n - 1); NAN when n < 2 */
	double	median;
	double	mad;		/* scaled to sigma for normal data */
	double	min;
	double	max;
};

struct stats_mwu {
	double	u;		/* U of x: pairs with x > y, ties count 1/2 */
	double	z;		/* (U - mn/2) / sd, tie corrected, no c.c. */
	double	p;
	int	exact;		/* 1 if p came from the exact distribution */
	int	ties;		/* 1 if the pooled sample has ties */
};

/* A point estimate with a confidence interval [lo, hi]. */
struct stats_interval {
	double	estimate;
	double	lo;
	double	hi;
	double	conf;		/* coverage achieved (exact) or asked for */
	int	exact;
};

struct stats_ttest {
	double	t;
	double	df;
	double	p;
};

/* Descriptive statistics. */
int	stats_mean(const double *, size_t, double *);
int	stats_stddev(const double *, size_t, double *);
int	stats_median(const double *, size_t, double *);
double	stats_median_inplace(double *, size_t);
void	stats_select(double *, size_t, size_t);
int	stats_quantile(const double *, size_t, double, double *);
double	stats_quantile_sorted(const double *, size_t, double);
double	stats_median_sorted(const double *, size_t);
int	stats_mad(const double *, size_t, double *);
int	stats_biweight(const double *, size_t, double, double *, double *);
int	stats_minmax(const double *, size_t, double *, double *);
int	stats_summarize(const double *, size_t, struct stats_summary *);

/* Distributions (GSL underneath). */
double	stats_norm_cdf(double);
double	stats_norm_quantile(double);
double	stats_t_cdf(double, double);
double	stats_t_quantile(double, double);

/* Tests and intervals. */
int	stats_mwu(const double *, size_t, const double *, size_t,
	    enum stats_alt, enum stats_mwu_method, struct stats_mwu *);
int	stats_mwu_cdf(size_t, size_t, double, double *);
double	stats_mwu_min_p(size_t, size_t);
int	stats_mwu_cdf_table(size_t, size_t, size_t, double *);
int	stats_hl_shift(const double *, size_t, const double *, size_t,
	    double, struct stats_interval *);
int	stats_bh(const double *, size_t, double *);
int	stats_welch(const double *, size_t, const double *, size_t,
	    enum stats_alt, struct stats_ttest *);
int	stats_lag1_autocorr(const double *, size_t, double *);
double	stats_ar1_inflation(double);
int	stats_bootstrap_median_ratio(const double *, size_t, const double *,
	    size_t, size_t, double, unsigned long, struct stats_interval *);

/*
 * Change points over a history of run medians (changepoint.c).
 */
enum cp_kind {
	CP_STEP = 0,		/* a sustained shift of level */
	CP_SPIKE,		/* one or two runs that came back */
};

struct cp_params {
	size_t	window;		/* runs compared on each side (30) */
	size_t	min_seg;	/* fewest runs on either side of a step (3) */
	double	alpha;		/* family-wise level, Bonferroni (0.01) */
	double	min_change;	/* smallest |change| in percent (5.0) */
	int	spikes;		/* also look for spikes (1) */
};

struct cp_change {
	size_t		index;	/* first run of the new level or the spike */
	size_t		length;	/* spike: 1 or 2; step: runs to the next step */
	enum cp_kind	kind;
	double		before;	/* median level before */
	double		after;	/* median level after (of the spike runs) */
	double		change_pct;
	double		p;	/* Bonferroni-adjusted over the positions */
};

/*
 * The exact distributions of U that cp_detect() looks up depend on sample
 * sizes alone: a caller that scans many series keeps one set for all of
 * them (cp_detect_with()), and frees it after.
 */
struct cp_tables;

void		 cp_params_default(struct cp_params *);
int		 cp_detect(const double *, size_t, const struct cp_params *,
		    struct cp_change **, size_t *);
struct cp_tables *cp_tables_new(void);
void		 cp_tables_free(struct cp_tables *);
int		 cp_detect_with(const double *, size_t,
		    const struct cp_params *, struct cp_tables *,
		    struct cp_change **, size_t *);
const char	*cp_kind_name(enum cp_kind);

#endif
