/*
 * store/: the SQLite store.  The only module that speaks SQL.
 *
 * A database file is created and brought up to date by numbered migrations
 * (PRAGMA user_version).  A file written by a newer perfwatch is refused and
 * never modified.  Every statement is prepared with bound parameters.
 */
#ifndef PERFWATCH_STORE_H
#define PERFWATCH_STORE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "perfwatch.h"

#define STORE_SCHEMA_VERSION	7

struct store;

/* Run status and trigger names as stored. */
#define RUN_RUNNING	"running"
#define RUN_COMPLETE	"complete"
#define RUN_ABORTED	"aborted"
#define RUN_FAILED	"failed"
#define RUN_TRIGGER_IMPORT "import"	/* an imported run */
/* Whether name is a trigger the runs table takes (import among them). */
int	store_trigger_known(const char *name);

struct store_run {
	int64_t		 id;
	int64_t		 host;
	char		*host_name;
	char		*label;
	int64_t		 snapshot;	/* 0 when none */
	char		*trigger;
	char		*trigger_detail;
	char		*profile;
	int64_t		 started;	/* epoch seconds */
	int64_t		 ended;		/* epoch seconds, when has_end */
	int		 has_end;	/* its length is known (ended NOT
					   NULL): not while running, nor for
					   an import that gave none */
	char		*status;
	char		*git_commits;	/* JSON text or NULL */
	char		*quiet;		/* JSON text or NULL */
	int		 busy;		/* quiet says it measured a busy
					   machine (read only) */
};

struct store_metric {
	int64_t		 id;
	char		*workload;
	char		*metric;
	char		*unit;
	enum better	 better;
};

/* The samples of one metric in one run, in iteration order. */
struct store_series {
	struct store_metric	 metric;
	int64_t			 run;
	double			*values;
	int			*iterations;
	size_t			 n;
};

struct store_run_filter {
	const char	*host;		/* host name, NULL for all */
	const char	*status;	/* NULL for all */
	const char	*trigger;	/* NULL for all */
	int64_t		 before_run;	/* runs started before this run, 0: any */
	size_t		 limit;		/* 0: all */
};

/* db.c */
struct store	*store_open(const char *path, char **cause);
struct store	*store_open_readonly(const char *path, char **cause);
struct store	*store_open_reader(const char *path, char **cause);
void		 store_close(struct store *);
int		 store_remove_unused(struct store *);
int		 store_begin(struct store *);
int		 store_newer_schema(struct store *);
int		 store_commit(struct store *);
int		 store_rollback(struct store *);
int		 store_read_begin(struct store *);
void		 store_read_end(struct store *, int began);
int		 store_user_version(struct store *);
int		 store_migrate_to(struct store *, int version, char **cause);
const char	*store_errmsg(struct store *);
/*
 * Why the store's last call failed, for one that returned -1 where that
 * also means "not found": STORE_FOUND_NONE when nothing failed (there is
 * no such thing), STORE_BUSY when another process held the store locked
 * for longer than the busy timeout (try again later), STORE_FULL when the
 * file could not grow ("database or disk is full": output that cannot be
 * written, as perfwatch(1) counts it), STORE_FAILED for any other error
 * (store_errmsg() says which).
 */
enum store_failure {
	STORE_FOUND_NONE = 0,
	STORE_BUSY,
	STORE_FULL,
	STORE_FAILED,
};
enum store_failure store_failure(struct store *);
int		 store_busy(struct store *);
void		 store_busy_wait(struct store *, int ms,
		    const volatile sig_atomic_t *stop);
int		 store_busy_limit(struct store *, int ms);
int		 store_writable(struct store *);
const char	*store_path(struct store *);
int		 store_integrity_check(struct store *, char **cause);

/* runs.c */
int64_t		 store_host_ensure(struct store *, const char *name,
		    const char *machine_id);
int64_t		 store_host_local(struct store *);
const char	*store_host_local_name(char *, size_t);
int		 store_host_find(struct store *, const char *name, int64_t *);
int		 store_host_names(struct store *, char ***, size_t *);
void		 store_host_names_free(char **, size_t);
/*
 * A rule a new metric must keep, given by the caller, which knows what
 * the store does not: the workloads perfwatch measures itself.  0, or -1
 * with *cause.
 */
typedef int	(*store_metric_rule)(const char *workload, const char *metric,
		    const char *unit, enum better, char **cause);
void		 store_metric_rule_set(store_metric_rule);
int64_t		 store_metric_ensure(struct store *, const char *workload,
		    const char *metric, const char *unit, enum better,
		    char **cause);
int		 store_metric_find(struct store *, const char *workload,
		    const char *metric, struct store_metric *);
int		 store_metric_get(struct store *, int64_t id,
		    struct store_metric *);
void		 store_metric_clear(struct store_metric *);
#define STORE_RUN_EXISTS	(-2)	/* store_run_create: label taken */
int64_t		 store_run_create(struct store *, const struct store_run *,
		    char **cause);
int		 store_run_finish(struct store *, int64_t run,
		    const char *status, int64_t ended);
int		 store_run_set_snapshot(struct store *, int64_t run,
		    int64_t snapshot);
int		 store_run_set_quiet(struct store *, int64_t run,
		    const char *json);
int		 store_run_delete(struct store *, int64_t run);
int		 store_run_lookup(struct store *, int64_t host,
		    const char *label, int64_t *run);
int		 store_run_resolve(struct store *, const char *label,
		    struct store_run *, char **cause);
int		 store_run_get(struct store *, int64_t id, struct store_run *);
int		 store_run_latest(struct store *, const char *status,
		    struct store_run *);
int		 store_run_latest_of(struct store *, int64_t host,
		    const char *status, struct store_run *);
void		 store_run_clear(struct store_run *);
int		 store_run_timed(const struct store_run *);
int		 store_runs_list(struct store *, const struct store_run_filter *,
		    struct store_run **, size_t *);
int		 store_metric_runs(struct store *, int64_t metric,
		    const char *host, size_t limit, struct store_run **,
		    size_t *);
int		 store_metric_hosts(struct store *, int64_t metric,
		    size_t max, size_t *);
void		 store_runs_free(struct store_run *, size_t);
int		 store_runs_mark_stale(struct store *, int64_t host,
		    size_t *marked);
int		 store_runs_sweep(struct store *, int64_t host, int hold,
		    size_t *marked, char **cause);
int		 store_runs_live(struct store *, char **cause);
int		 store_sample_add(struct store *, int64_t run, int64_t metric,
		    int iteration, double value);
int		 store_run_workload_set(struct store *, int64_t run,
		    const char *workload, const char *status, double wall,
		    double cpu, const char *error);

/* How one workload of a run ended (table run_workloads). */
struct store_run_workload {
	char	*workload;
	char	*status;
	double	 wall;
	double	 cpu;
	char	*error;
};

int		 store_run_workloads(struct store *, int64_t run,
		    struct store_run_workload **, size_t *);
void		 store_run_workloads_free(struct store_run_workload *, size_t);
int		 store_run_last_covering(struct store *, int64_t host,
		    const char *const *workloads, size_t n, int64_t *run);
int		 store_run_first_with(struct store *, int64_t host,
		    const char *const *workloads, const char *const *metrics,
		    size_t n, int64_t *run);
int		 store_setting_get(struct store *, const char *key,
		    char **value);
int		 store_setting_set(struct store *, const char *key,
		    const char *value);

/* Samples of a run, one series per metric, ordered by workload, metric. */
int		 store_run_series(struct store *, int64_t run,
		    struct store_series **, size_t *);
/* Samples of one metric in the given runs (same order as runs[]). */
int		 store_metric_series(struct store *, int64_t metric,
		    const int64_t *runs, size_t nruns,
		    struct store_series **, size_t *);
/*
 * For a reader that asks for many metrics of the same runs: a run asked
 * for twice is read whole, once, and its later metrics come from memory,
 * up to max_samples kept.  The caller keeps the runs' samples unchanged
 * while the cache lives (detect's check, inside its transaction).
 */
struct store_cache;
struct store_cache *store_cache_new(size_t max_samples);
void		 store_cache_free(struct store_cache *);
int		 store_metric_series_cached(struct store *,
		    struct store_cache *, int64_t metric, const int64_t *runs,
		    size_t nruns, struct store_series **, size_t *);
/*
 * The samples of runs[] run by run, for the metrics whose id lies in
 * [lo, hi]: fn(arg, i, metric, values, n) once for each metric of
 * runs[i] with samples, in metric id order, the values by iteration.
 * 0, or -1 on a store error.
 */
typedef void	(*store_samples_fn)(void *, size_t, int64_t, const double *,
		    size_t);
int		 store_runs_samples(struct store *, const int64_t *runs,
		    size_t nruns, int64_t lo, int64_t hi, store_samples_fn,
		    void *);
/* Every metric that matches the workload/metric names (NULL: any). */
int		 store_metrics_list(struct store *, const char *workload,
		    const char *metric, struct store_metric **, size_t *);
void		 store_metrics_free(struct store_metric *, size_t);
/* The names likely meant by a workload or metric that ms lacks. */
void		 store_metrics_hint(const struct store_metric *, size_t,
		    const char *workload, const char *metric, char **whint,
		    char **mhint);
/* Metrics the host's last run of workload had and this run lacks. */
int		 store_metrics_not_judged(struct store *, int64_t run,
		    const char *workload, struct store_metric **, size_t *);
void		 store_series_free(struct store_series *, size_t);

/* snapshots.c: machine snapshots, stored once per distinct content. */
struct snapshot;
int64_t		 store_snapshot_put(struct store *, const struct snapshot *,
		    char **cause);
struct snapshot	*store_snapshot_get(struct store *, int64_t id,
		    char **cause);
int		 store_snapshot_usage(struct store *, int64_t *snapshots,
		    int64_t *sets, int64_t *packages);

/* import.c: CSV / JSON Lines in the format of README.md. */
enum store_format {
	STORE_FORMAT_AUTO = 0,
	STORE_FORMAT_CSV,
	STORE_FORMAT_JSONL,
};

struct store_import_stats {
	size_t	runs;
	size_t	metrics;
	size_t	samples;
	int	store_failed;	/* on error: the store's (a full disk) */
	int	store_busy;	/* and it was locked by another process */
	int	read_failed;	/* on error: the input could not be read */
	int	stopped;	/* on error: asked to stop (a signal) */
	int	run_live;	/* on error: --replace met a run recording */
};

int		 store_import(struct store *, FILE *, const char *name,
		    enum store_format, int replace,
		    struct store_import_stats *, char **cause);
/*
 * Have store_import call fn(what is read so far, arg) every
 * STORE_IMPORT_PROGRESS samples, for a progress line (fn NULL: never).
 */
#define STORE_IMPORT_PROGRESS	8192
typedef void	(*store_import_progress_fn)(const struct store_import_stats *,
		    void *);
void		 store_import_progress(struct store *, store_import_progress_fn,
		    void *arg);
/*
 * Have store_import stop, importing nothing, at the first row read once
 * *stop is set (by a signal); NULL: never.
 */
void		 store_import_stop(struct store *,
		    const volatile sig_atomic_t *stop);
int		 store_export(struct store *, FILE *, enum store_format,
		    const char *const *labels, size_t nlabels, char **cause);
/*
 * Have store_export stop, failing, at the first sample once *stop is set
 * (by a signal); NULL: never.
 */
void		 store_export_stop(struct store *,
		    const volatile sig_atomic_t *stop);
/* The format a file's name says (.csv; .jsonl, .ndjson, .json), or AUTO. */
enum store_format store_format_of_name(const char *);

/* Format a double so that strtod() gives the same value back. */
void		 store_format_double(char *, size_t, double);

/*
 * verdicts.c: baselines, verdicts, alerts, outbox
 *
 * What detect/ decides, kept so that it can be replayed: named pinned
 * baselines, one verdict per run and metric, the alerts (one per shift of
 * a metric on a host) and the outbox rows that tell about their changes.
 * Lookups return 0 when found and -1 when not found or on error.
 */
#define VERDICT_REGRESSION	"regression"
#define VERDICT_IMPROVEMENT	"improvement"
#define VERDICT_UNCHANGED	"unchanged"
#define VERDICT_INCONCLUSIVE	"inconclusive"

#define ALERT_SUSPECTED		"suspected"
#define ALERT_CONFIRMED		"confirmed"
#define ALERT_ACKNOWLEDGED	"acknowledged"
#define ALERT_RESOLVED		"resolved"

/* A named, pinned set of runs. */
struct store_baseline {
	int64_t		 id;
	char		*name;
	int64_t		 created;	/* epoch seconds */
	int64_t		*runs;		/* in run start order */
	size_t		 nruns;
};

/* The verdict on one metric of one run; NAN for an absent number. */
struct store_verdict {
	int64_t		 run;
	int64_t		 metric;
	char		*verdict;	/* VERDICT_* */
	double		 change_pct;
	double		 ci_low;	/* percent */
	double		 ci_high;
	double		 p;
	double		 q;
	char		*baseline;	/* "rolling" or a pinned name */
	double		 current;	/* the run's median */
	double		 reference;	/* the baseline's level */
	double		 noise;		/* between-run sd, metric's unit */
	int		 baseline_runs;
};

struct store_alert {
	int64_t		 id;
	int64_t		 host;
	int64_t		 metric;
	int64_t		 first_bad_run;
	int64_t		 last_good_run;	/* 0 when none */
	int64_t		 last_run;	/* the last run the alert has seen */
	int64_t		 opened_run;	/* the run whose check opened it */
	int64_t		 confirmed_run;	/* 0 until confirmed */
	char		*state;		/* ALERT_* */
	char		*direction;	/* VERDICT_REGRESSION or _IMPROVEMENT */
	double		 change_pct;
	int64_t		 opened;	/* epoch seconds */
	int64_t		 updated;
	char		*attribution;	/* JSON text or NULL */
	char		*summary;	/* STORE_ALERT_SUMMARY's, else NULL */
};

int		 store_baseline_set(struct store *, const char *name,
		    const int64_t *runs, size_t nruns, int64_t created,
		    char **cause);
int		 store_baseline_get(struct store *, const char *name,
		    struct store_baseline *);
int		 store_baselines_list(struct store *, struct store_baseline **,
		    size_t *);
int		 store_baseline_delete(struct store *, const char *name,
		    const char *inuse_key, char **cause);
void		 store_baseline_clear(struct store_baseline *);
void		 store_baselines_free(struct store_baseline *, size_t);

int		 store_verdicts_replace(struct store *, int64_t run,
		    const struct store_verdict *, size_t);
int		 store_verdict_metrics(struct store *, const int64_t *runs,
		    size_t n, int64_t **, size_t *);
int		 store_verdicts_get(struct store *, int64_t run,
		    struct store_verdict **, size_t *);
void		 store_verdicts_free(struct store_verdict *, size_t);

int64_t		 store_alert_add(struct store *, const struct store_alert *);
int		 store_alert_update(struct store *, const struct store_alert *);
int		 store_alert_get(struct store *, int64_t id, struct store_alert *);
int		 store_alerts_metric(struct store *, int64_t host, int64_t metric,
		    struct store_alert **, size_t *);
int		 store_alerts_list(struct store *, int all,
		    struct store_alert **, size_t *);
/*
 * One page of the alerts, newest first, handed to fn one at a time
 * (store_alerts_page: see verdicts.c), each read whole or, with
 * STORE_ALERT_SUMMARY, with its attribution's summary alone, or with
 * STORE_ALERT_BARE, without either.
 */
#define STORE_ALERT_WHOLE	0
#define STORE_ALERT_SUMMARY	1
#define STORE_ALERT_BARE	2
typedef int	(*store_alert_fn)(void *, const struct store_alert *);
int		 store_alerts_page(struct store *, int all, int64_t before,
		    size_t limit, int what, store_alert_fn, void *,
		    int *more);
int		 store_alerts_count(struct store *, int all, size_t *);
void		 store_alert_clear(struct store_alert *);
void		 store_alerts_free(struct store_alert *, size_t);

int64_t		 store_outbox_add(struct store *, int64_t alert,
		    const char *sink, const char *payload, int64_t now);
int		 store_outbox_count(struct store *, int64_t alert, size_t *);

/*
 * outbox.c: delivery
 *
 * What notify/ reads and writes of the outbox that verdicts.c fills.  A
 * row is pending until it is delivered or given up (failed); see the
 * notes at the top of outbox.c.  Times are epoch seconds.
 */
struct store_outbox {
	int64_t		 id;
	int64_t		 alert;		/* 0 when none */
	char		*sink;		/* [sink "name"], or "log" */
	char		*payload;	/* JSON text written by detect/ */
	int64_t		 created;
	int		 attempts;	/* attempts begun (claims) */
	int64_t		 next_attempt;
	int64_t		 delivered_at;	/* 0 until delivered */
	int64_t		 failed_at;	/* 0 unless given up */
	char		*last_error;	/* last failed attempt's answer */
	char		**recipients;	/* NULL: the sink's list; else the
					   addresses it is for, NULL-
					   terminated */
	int64_t		 split_from;	/* the row whose message it carries
					   to the recipients that row left;
					   0: its own */
	int64_t		 held_by;	/* a pending row's first earlier
					   state of its alert for its sink
					   still pending, which goes out
					   first; 0: none */
};

int		 store_outbox_due(struct store *, int64_t due,
		    struct store_outbox **, size_t *);
int		 store_outbox_claim(struct store *, int64_t id, int64_t due,
		    int64_t next_attempt);
int		 store_outbox_delivered(struct store *, int64_t id,
		    int64_t when);
int		 store_outbox_retry(struct store *, int64_t id,
		    int64_t next_attempt, const char *error,
		    char *const *recipients);
int		 store_outbox_split(struct store *, int64_t id, int64_t when,
		    char *const *left, int64_t next_attempt, const char *error,
		    int64_t *newid);
int		 store_outbox_fail(struct store *, int64_t id, int64_t when,
		    const char *error);
int		 store_outbox_get(struct store *, int64_t id,
		    struct store_outbox *);
int		 store_outbox_list(struct store *, int all, size_t limit,
		    struct store_outbox **, size_t *);
int		 store_outbox_next_due(struct store *, int64_t *when);
void		 store_outbox_clear(struct store_outbox *);
void		 store_outbox_recipients_free(char **);
void		 store_outbox_free(struct store_outbox *, size_t);

#endif
