/*
 * The workload battery and its runner.
 *
 * A workload is named by a descriptor (struct wl_workload) and tuned by a
 * parameter block (struct wl_params).  wl_run_iteration() runs one
 * iteration in a forked child: its own process group, a clean environment
 * (LC_ALL=C, fixed PATH, umask 022, HOME and TMPDIR in a fresh directory
 * inside the work directory that is also its cwd and is removed
 * afterwards), a wall-clock limit, and its CPU cost from wait4().
 *
 * A workload reports metrics as lines "metric value unit [higher|lower]"
 * (or, for user commands, one JSON object); wl_parse_output() is the one
 * parser for both.  Lines starting with '#' are notes, kept as text.
 *
 * Call the runner from a single-threaded process: the child of a native
 * workload continues in the forked copy of the caller.
 */
#ifndef PERFWATCH_WORKLOADS_H
#define PERFWATCH_WORKLOADS_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfwatch.h"

#define WL_NAME_MAX	64		/* metric name, with its NUL */
#define WL_UNIT_MAX	16		/* unit, with its NUL */
#define WL_THREADS_MAX	16		/* entries of a thread-count sweep */
#define WL_OUTPUT_MAX	(1024 * 1024)	/* result bytes a child may print */
#define WL_PATH		PERFWATCH_PATH	/* perfwatch.h */

/*
 * How long the flush before an iteration (settle, wl_flush()) is waited
 * for, in seconds.  Long enough for a healthy disk: at the kernel's
 * default dirty limit (vm.dirty_ratio, 20 % of the memory) a machine of
 * 64 GiB may hold 13 GiB to write back, 2 minutes for a disk of 100 MiB/s,
 * and a benchmark leaves far less, its own writes fsynced.  Not longer:
 * 120 s is when Linux's hung-task watchdog (hung_task_timeout_secs)
 * takes a task blocked in the kernel for hung, as a flush to a dead NFS
 * server is.
 */
#define WL_FLUSH_WAIT	120

/* Keys of a [workload "name"] section; a workload accepts some of them. */
#define WL_K_ITERATIONS		0x00001
#define WL_K_WARMUP		0x00002
#define WL_K_TIMEOUT		0x00004
#define WL_K_GRACE		0x00008
#define WL_K_WORK_DIR		0x00010
#define WL_K_FILE_LIMIT		0x00020
#define WL_K_SIZE		0x00040
#define WL_K_DURATION		0x00080
#define WL_K_FSYNC_EVERY	0x00100
#define WL_K_DIRECT		0x00200
#define WL_K_DEVICE		0x00400
#define WL_K_DESTROY_DATA	0x00800
#define WL_K_THREADS		0x01000
#define WL_K_TABLE_SIZE		0x02000
#define WL_K_SEEKS		0x04000
#define WL_K_SEEKERS		0x08000
#define WL_K_COMMAND		0x10000
#define WL_K_MEASURE		0x20000
#define WL_K_SETTLE		0x40000
#define WL_K_CHAR_SIZE		0x80000
#define WL_K_COMMON		(WL_K_ITERATIONS | WL_K_WARMUP | WL_K_TIMEOUT | \
				 WL_K_GRACE | WL_K_WORK_DIR | WL_K_FILE_LIMIT | \
				 WL_K_SETTLE)

enum wl_measure {
	WL_MEASURE_OUTPUT = 0,	/* the command prints its metrics */
	WL_MEASURE_TIME,	/* the runner times it: wall, user, sys */
};

/*
 * How to run a workload.  Strings are owned (wl_params_clear frees them);
 * sizes are bytes, times seconds.  Which fields a workload reads is given
 * by its descriptor's keys.
 */
struct wl_params {
	int		 iterations;	/* timed iterations */
	int		 warmup;	/* untimed iterations before them */
	double		 timeout;	/* wall-clock limit of one iteration */
	double		 grace;		/* SIGTERM to SIGKILL */
	char		*work_dir;	/* NULL: /var/tmp */
	uint64_t	 file_limit;	/* RLIMIT_FSIZE of the child; 0 none */
	double		 settle;	/* flush, then this long idle, before each */
	double		 flush_wait;	/* for that flush at most; 0: WL_FLUSH_WAIT
					   (not a key: for tests and benches) */

	uint64_t	 size;		/* bonnie, stream: file size */
	double		 size_ram;	/* > 0: size is this many times RAM */
	double		 duration;	/* sys.*, db.oltp per thread count */
	uint64_t	 fsync_every;	/* stream: bytes between fsyncs */
	int		 direct;	/* stream: O_DIRECT */
	char		*device;	/* stream: raw block device */
	int		 destroy_data;	/* stream: permission to use device */
	int		 threads[WL_THREADS_MAX];	/* oltp sweep */
	size_t		 nthreads;	/* 0: 1, 2, 4 ... >= 2 x CPUs */
	uint64_t	 table_size;	/* oltp rows */
	int		 seeks;		/* bonnie: total random seeks */
	int		 seekers;	/* bonnie: seeking processes */
	uint64_t	 char_size;	/* bonnie: per-char phases' bytes;
					   0: the file size */

	char		*command;	/* command: run by /bin/sh -c */
	enum wl_measure	 measure;

	char		*name;		/* as the run calls it ([workload
					   "NAME"]), for messages and its
					   iteration directory; NULL: the
					   battery's name (wl_params_name) */
};

/* A workload of the battery, or "command" for a user's own. */
struct wl_workload {
	const char	*name;
	const char	*summary;
	unsigned int	 keys;		/* WL_K_* it accepts */
	int		 flags;
#define WL_F_COMMAND	0x1		/* exec'd; results on its stdout */
#define WL_F_INDEX	0x2		/* counts in the system index */
	const char	*index_metric;	/* its metric in the index */
	const char	*index_unit;	/* that metric's unit (higher is
					   better, as every test's) */
	void		(*defaults)(struct wl_params *);
	/* One iteration, in the child: result lines to fd; 0 or -1. */
	int		(*run)(const struct wl_params *, int, char **);
};

struct wl_metric {
	char		name[WL_NAME_MAX];
	char		unit[WL_UNIT_MAX];
	double		value;
	enum better	better;
};

enum wl_status {
	WL_OK = 0,
	WL_FAILED,
	WL_TIMEOUT,
	WL_ABORTED,
};

/* What one iteration gave.  wl_result_clear() frees it. */
struct wl_result {
	enum wl_status	  status;
	struct wl_metric *metrics;
	size_t		  nmetrics;
	char		**notes;	/* '#' lines, without the '#' */
	size_t		  nnotes;
	double		  wall;		/* seconds, child set up to reap */
	double		  user;		/* CPU seconds from wait4() */
	double		  sys;
	double		  cpu_pct;	/* (user + sys) / wall x 100 */
	int		  wait_status;	/* as wait4() gave it */
	pid_t		  pgid;		/* the child's process group */
	char		 *error;	/* why it is not WL_OK */
};

/* One step of a run's plan. */
struct wl_step {
	size_t		 job;		/* index into the caller's array */
	int		 warmup;	/* an untimed warm-up iteration */
	int		 iteration;	/* 1 ... count */
	int		 count;		/* iterations (or warm-ups) of job */
};

struct wl_progress;

/* workloads.c: the battery and its parameters. */
const struct wl_workload *wl_find(const char *);
const struct wl_workload *wl_battery_find(const char *);
char		*wl_profile_hint(const char *const *, size_t, const char *);
int		 wl_globs_check(char *const *names, size_t n,
		    char *const *globs, size_t nglobs, char **cause);
const struct wl_workload *wl_list(size_t *);
int		 wl_metric_rule(const char *, const char *, const char *,
		    enum better, char **);
void		 wl_params_init(struct wl_params *, const struct wl_workload *);
void		 wl_params_copy(struct wl_params *, const struct wl_params *);
void		 wl_params_clear(struct wl_params *);
const char	*wl_params_name(const struct wl_params *,
		    const struct wl_workload *);
int		 wl_params_set(struct wl_params *, const struct wl_workload *,
		     const char *, const char *, char **);
int		 wl_params_check(const struct wl_params *,
		     const struct wl_workload *, char **);
uint64_t	 wl_params_size(const struct wl_params *);
size_t		 wl_params_threads(const struct wl_params *, int *, size_t);
const char	*wl_key_name(unsigned int);
unsigned int	 wl_key_parse(const char *);
struct config;
int		 wl_params_apply(struct wl_params *,
		     const struct wl_workload *, const struct config *,
		     const char *, char **);
int		 wl_config_check(const struct config *, char **);
int		 wl_config_dump(const struct config *, const struct config *,
		     FILE *);
char		*wl_check_cause(const char *, int, const char *,
		     const struct wl_workload *, const struct wl_params *,
		     const char *);
/* Why a profile's section other than [workload] is refused. */
#define WL_PROFILE_ONLY	"a profile holds [workload] sections only; this " \
			"one belongs in the configuration (perfwatch.conf(5))"

/* runner.c: one iteration in a child. */
int		 wl_run_iteration(const struct wl_workload *,
		     const struct wl_params *, struct wl_result *, char **);
void		 wl_abort(void);
int		 wl_flush(const char *, const char *, double);
int		 wl_aborted(void);
void		 wl_abort_clear(void);
void		 wl_result_clear(struct wl_result *);
const char	*wl_status_name(enum wl_status);
int		 wl_remove_tree(const char *);
int		 wl_sweep_work_dir(const char *);
/* Whether a command's word is plain: executed directly, not by sh -c. */
int		 wl_command_plain_word(const char *);

/* output.c: the result protocol. */
int		 wl_parse_output(const char *, size_t, struct wl_result *,
		     char **);

/* plan.c: order, progress and the system index. */
struct wl_step	*wl_plan(const struct wl_params *const *, size_t, size_t *);
struct wl_progress *wl_progress_new(const struct wl_step *, size_t, size_t);
void		 wl_progress_done(struct wl_progress *, size_t, double);
void		 wl_progress_drop(struct wl_progress *, size_t);
double		 wl_progress_remaining(const struct wl_progress *, size_t);
int		 wl_progress_format(const struct wl_progress *, size_t,
		     const char *, double, char *, size_t);
void		 wl_progress_show(const struct wl_progress *, size_t,
		     const char *);
void		 wl_progress_free(struct wl_progress *);
double		 wl_index(const double *, const double *, size_t);

#endif
