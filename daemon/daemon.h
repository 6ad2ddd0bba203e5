/*
 * perfwatchd: the daemon that decides when to measure.
 *
 * It is thin: it never benchmarks in its own process.  It starts the same
 * `perfwatch run` a person can type as a child, reads the child's output
 * through bufferevents and keeps serving its control socket meanwhile.
 *
 * Design notes.
 *
 * One libevent base drives everything; signals are events.  Work that
 * disturbs a measurement (a battery, a build) is done one thing at a time
 * by work.c, which holds the queue: builds of watched repositories first,
 * then at most one pending battery into which every trigger that arrives
 * is merged (the union of the reasons and of the workloads).  Light work
 * that must not block the loop (reading the package database) runs in
 * its own short-lived child beside it (job.c).
 *
 * The triggers only ask work.c for a run: schedule.c (cron or interval,
 * jitter, catch-up), pkgwatch.c (the package database, and the kernel at
 * start), gitwatch.c (watched branches) and control.c (the socket).
 * notifier.c delivers the alerts a run queued, through `perfwatch notify
 * flush` as a child, after each battery and when a retry falls due.
 *
 * Every run reads the configuration the daemon has loaded: on start and
 * on each successful SIGHUP its text is copied to state_dir/run.conf and
 * the child is started with -c on that copy, so that a broken edit of the
 * file neither reaches the daemon nor its runs until it is fixed.
 *
 * Invariants: at most one work child (d->work.job) at a time; the store
 * is only read here, except for the settings the daemon keeps and a run
 * its child could not close (aborted); nothing runs as root unless the
 * configuration says allow_root.
 */
#ifndef PERFWATCH_DAEMON_H
#define PERFWATCH_DAEMON_H

#include <sys/types.h>
#include <sys/queue.h>

#include <stdint.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "config.h"
#include "cron.h"

struct store;
struct snapshot;
struct job;
struct setting_kept;

/* Bounds of the control protocol and of what is kept of a child. */
#define CONTROL_MAX_LINE	4096
#define CONTROL_MAX_CLIENTS	32
#define CONTROL_TIMEOUT		30		/* seconds idle */
#define JOB_MAX_OUTPUT		(8 * 1024 * 1024)
#define JOB_MAX_LINE		4096
#define JOB_TAIL_LINES		8		/* stderr lines kept */

/* How long a child has after SIGTERM before SIGKILL, on shutdown. */
#define DAEMON_STOP_GRACE	7

/* One reason to run the battery. */
struct reason {
	char	 *trigger;	/* schedule package kernel git manual rerun */
	char	 *detail;	/* or NULL */
	char	**globs;	/* workloads; NULL: the whole profile */
	size_t	  nglobs;
	char	 *git_name;	/* a watched repository's commit, or NULL */
	char	 *git_commit;
	double	  seen;		/* a package or kernel change: when it was
				   seen (perfwatch_mono()); else 0 */
};

/* A build of a watched repository waiting for its turn. */
struct build {
	char			*repo;
	char			*commit;
	TAILQ_ENTRY(build)	 entry;
};
TAILQ_HEAD(builds, build);

enum work_kind {
	WORK_NONE = 0,
	WORK_BUILD,
	WORK_BATTERY,
};

/* What the daemon is doing now, and what it will do next. */
struct work {
	enum work_kind	 kind;
	struct job	*job;
	time_t		 started;
	double		 started_mono;	/* its durations: not the wall's */
	/* The battery in progress. */
	char		*trigger;
	char		*detail;
	char		*label;		/* from the child's progress */
	char		*workload;
	int64_t		 step;
	int64_t		 steps;
	int		 iteration;
	int		 count;
	int		 warmup;
	int		 rerun_ok;	/* may ask for a rerun afterwards */
	char		*waiting;	/* for a quiet machine: why; or NULL */
	time_t		 wait_since;
	time_t		 wait_until;	/* at the latest */
	char		**gits;		/* its git commits, "NAME=COMMIT" */
	size_t		 ngits;
	/*
	 * The reasons the battery in progress was started for, kept until
	 * it has run: one that could not record its run (the store locked
	 * by another process) is queued again from them.
	 */
	struct reason	*started_for;
	size_t		 nstarted_for;
	int		 started_delay;	/* retry_delay when it started */
	int		 skipped;	/* the run said [quiet] skipped it */
	int		 schedule_dropped; /* work_stop() dropped one */
	/* The build in progress. */
	struct build	*build;

	/* Queued. */
	struct reason	*pending;
	size_t		 npending;
	struct builds	 builds;

	/* The last battery the daemon ran. */
	char		*last_label;
	char		*last_status;
	char		*last_error;

	struct event	*kill_timer;	/* SIGKILL after the grace period */
	struct event	*build_timer;	/* the build's build_timeout */
	int		 build_over;	/* it ran out: killed */

	/* A child that could not start (fork or pipe failed): tried again. */
	struct event	*retry_timer;
	int		 retry_delay;	/* seconds, doubling to a limit */
	time_t		 retry_at;	/* when, or 0 */
	const char	*retry_short;	/* why, for systemd's STATUS */
};

/* A watched git repository ([git "name"]). */
struct gitwatch {
	char			*name;
	char			*path;
	char			*ref;		/* refs/heads/BRANCH */
	char			*build;		/* or NULL */
	int64_t			 build_timeout;	/* seconds */
	char			**globs;	/* NULL: every workload */
	size_t			 nglobs;
	char			 seen[65];	/* commit id, hex; "" unknown */
	int			 seen_kept;	/* the store keeps seen as dealt
						   with since it was seen */
	char			 inplace[65];	/* whose build the tree holds */
	char			 built[65];	/* the last built, as the store
						   keeps it ("git:NAME:built");
						   "" unknown */
	int			 looked;	/* read once by this process */
	int			 failing;	/* the last look failed */
	char			*error;		/* why, while failing */
	time_t			 failing_since;
	time_t			 checked;	/* the last look */
	LIST_ENTRY(gitwatch)	 entry;
};
LIST_HEAD(gitwatches, gitwatch);

struct control_client;
LIST_HEAD(control_clients, control_client);
struct evhttp;
struct evbuffer;
struct bufferevent;
struct http_build;
struct http_conn;

struct daemon {
	struct event_base	*base;
	struct config		*cfg;
	struct config		*start_cfg;	/* as started: what a restart
						   alone changes comes from it */
	char			*conf_path;
	int			 foreground;
	int			 verbose;	/* -v count */

	/* Fixed at start; a reload that changes them is told to restart. */
	char			*state_dir;
	char			*socket_path;
	char			*db_path;
	char			*run_conf;	/* state_dir/run.conf */
	char			*perfwatch;	/* the perfwatch binary */
	int			 lock_fd;
	int			 listen_fd;

	struct store		*st;
	dev_t			 db_dev;	/* of the file opened */
	ino_t			 db_ino;	/* 0: not known */
	int64_t			 host;
	int			 paused;
	int			 starting;	/* start-up: reasons gather */
	int			 stopping;
	int			 exit_status;	/* of main(), once stopped */

	/* setting.c: writes the store's lock held back */
	struct setting_kept	*kept;
	size_t			 nkept;
	struct event		*kept_timer;

	struct event		*ev_term;
	struct event		*ev_int;
	struct event		*ev_hup;
	struct event		*ev_chld;

	LIST_HEAD(, job)	 jobs;
	struct work		 work;

	/* schedule.c */
	struct cron		 cron;
	int			 use_cron;	/* else interval */
	int64_t			 interval;
	time_t			 anchor;	/* interval: periods count
						   from it */
	time_t			 nominal;	/* next fire without jitter */
	time_t			 fire_at;	/* with jitter; 0: none */
	time_t			 armed_from;	/* nominal is the first fire
						   after it */
	char			*sched_spec;	/* "cron SPEC", "interval N",
						   "none": what it counts */
	struct event		*sched_timer;
	time_t			 slept_wall;	/* the clocks when the timer */
	double			 slept_mono;	/* was last set */
	struct event		*tz_event;	/* the zone's directory
						   watched (its fd), or NULL */
	char			*tz_stamp;	/* the zone file as seen */
	char			*tz_desc;	/* the zone, for the log */

	/* pkgwatch.c */
	int			 pkg_fd;	/* inotify or kqueue; -1 */
	struct event		*pkg_event;	/* readable, or the poll */
	struct event		*pkg_settle;
	struct job		*pkg_job;
	struct snapshot		*pkg_before;	/* packages before a change */
	int			 pkg_changed;	/* a change is settling */
	int			 pkg_reread;	/* changed during the read */
	char			*pkg_stamp;	/* stat poll: what was seen */
	struct event		*kernel_timer;
	char			*kernel_detail;

	/* gitwatch.c */
	struct gitwatches	 gits;
	struct event		*git_timer;
	int			 git_ready;	/* libgit2 initialised */

	/* notifier.c */
	struct job		*notify_job;
	struct event		*notify_timer;	/* the next flush */
	struct event		*notify_kill;	/* a flush that takes too long */
	int			 notify_again;	/* flush once more after */
	int			 notify_failures; /* flushes in a row without
						    a report */

	/* control.c */
	struct event		*listen_event;
	struct event		*listen_pause;	/* out of descriptors */
	struct control_clients	 clients;
	size_t			 nclients;

	/* http.c: the dashboard, [perfwatch] http */
	struct evhttp		*http;
	int			 http_fd;	/* bound, not yet served; -1 */
	char			*http_addr;	/* the address served, or NULL */
	struct http_build	*http_build;	/* /api/changes being built */
	time_t			 http_build_secs; /* how long the last took */
	int			 http_built;	/* a build has ended */
	size_t			 http_sending;	/* built answers being sent */
	struct http_conn	*http_conns;	/* the connections served */
	size_t			 http_nconns;
	struct bufferevent	**http_new;	/* accepted, not yet counted */
	size_t			 http_nnew;
	struct event		*http_count;	/* counts them, after evhttp */
	struct event		*http_deadline;	/* for a request to arrive */
	size_t			 http_refused;	/* closed since the cap hit */
};

/* setting.c */
int		 daemon_setting_set(struct daemon *, const char *,
		     const char *);
int		 daemon_setting_get(struct daemon *, const char *, char **);
void		 daemon_settings_end(struct daemon *);

/* perfwatchd.c */
void		 daemon_status(struct daemon *);
void		 daemon_exit_if_done(struct daemon *);
int		 daemon_store_begin(struct daemon *);
int		 daemon_store_same(struct daemon *);
const char	*daemon_host_name(void);
/*
 * "FILE:LINE" of [perfwatch] key in cfg (read from conf_path), or "FILE"
 * when the file leaves it at its default; allocated.  For messages.
 */
char		*daemon_key_where(const struct config *cfg, const char *conf_path,
		    const char *key);
int		 daemon_workloads(const struct config *, const char *conf_path,
		    char ***names, size_t *n, char **cause);
void		 daemon_workloads_free(char **, size_t);

/*
 * job.c: child processes, their output read through bufferevents.
 * JOB_NOSIGPIPE: the child ignores SIGPIPE, so that a child that must
 * close its work in the store (a run) does so even when the daemon that
 * read its output is gone.
 */
#define JOB_NOSIGPIPE	0x1

struct job	*job_exec(struct daemon *, const char *what,
		    char *const argv[], const char *cwd, int flags,
		    int (*line_cb)(struct job *, const char *, void *),
		    void (*done_cb)(struct job *, void *), void *arg);
struct job	*job_exec_to(struct daemon *, const char *what,
		    char *const argv[], const char *cwd, int flags, int file,
		    int (*line_cb)(struct job *, const char *, void *),
		    void (*done_cb)(struct job *, void *), void *arg);
struct job	*job_fork(struct daemon *, const char *what,
		    int (*fn)(void *), void *fn_arg,
		    void (*done_cb)(struct job *, void *), void *arg);
void		 job_reap(struct daemon *);
void		 job_signal(struct job *, int sig);
void		 job_signal_group(struct job *, int sig);
void		 job_kill_group(struct job *);
void		 job_kill_leftovers(struct job *);
pid_t		 job_pid(const struct job *);
int		 job_status(const struct job *);
const char	*job_output(struct job *, size_t *len);
void		 job_max_output(struct job *, size_t);
int		 job_truncated(const struct job *);
char		*job_tail(const struct job *);
void		 job_forget(struct job *);
void		 job_kill_all(struct daemon *, int sig);

/* work.c: one battery or build at a time, and the queue. */
void		 work_init(struct daemon *);
int		 work_want_run(struct daemon *, const char *trigger,
		    const char *detail, char *const *globs, size_t nglobs,
		    const char *git_name, const char *git_commit);
int		 work_want_change(struct daemon *, const char *trigger,
		    const char *detail, double seen);
void		 work_want_build(struct daemon *, const char *repo,
		    const char *commit);
void		 work_kick(struct daemon *);
void		 work_stop(struct daemon *);
int		 work_idle(const struct daemon *);
int		 work_holds_alerts(const struct daemon *);
json_t		*work_status_json(struct daemon *);
char		*work_status_line(struct daemon *);
void		 work_free(struct daemon *);
void		 reason_clear(struct reason *);

/* schedule.c */
int		 schedule_start(struct daemon *, char **cause);
void		 schedule_ran(struct daemon *);
int		 schedule_reload(struct daemon *, const struct config *old,
		    char **cause);
void		 schedule_stop(struct daemon *);
time_t		 schedule_next(const struct daemon *);

/* pkgwatch.c: the package database, and the kernel at start. */
void		 pkgwatch_start(struct daemon *);
void		 pkgwatch_reload(struct daemon *, const struct config *old);
void		 pkgwatch_stop(struct daemon *);
int		 pkgwatch_run_measured(struct daemon *, const char *label);
void		 kernel_check(struct daemon *);
void		 kernel_reload(struct daemon *, const struct config *old);
void		 kernel_stop(struct daemon *);

/* gitwatch.c */
void		 gitwatch_start(struct daemon *);
void		 gitwatch_reload(struct daemon *);
void		 gitwatch_stop(struct daemon *);
void		 gitwatch_done(struct daemon *, const char *name,
		    const char *commit);
void		 gitwatch_built(struct daemon *, struct gitwatch *,
		    const char *commit);
int		 gitwatch_holds(struct daemon *, struct gitwatch *,
		    const char *commit, char **cause);
struct gitwatch	*gitwatch_find(struct daemon *, const char *name);
json_t		*gitwatch_status_json(struct daemon *);

/* notifier.c: `perfwatch notify flush` after runs and when a retry is due. */
void		 notifier_kick(struct daemon *);
void		 notifier_stop(struct daemon *);

/* control.c */
int		 control_listen(const char *path, uid_t, gid_t, char **cause);
void		 control_start(struct daemon *);
void		 control_stop(struct daemon *);
json_t		*control_handle(struct daemon *, const char *line, size_t len);

/*
 * http.c: the read-only web dashboard.  http_listen() binds [perfwatch]
 * http of cfg (at start, before the privileges are dropped), into
 * d->http_fd: 0, or -1 and *cause; 0 too when it is none.
 * http_start() serves it on the event base; http_reload() binds the
 * address again when a reload changed it.
 */
int		 http_listen(struct daemon *, char **cause);
void		 http_start(struct daemon *);
void		 http_reload(struct daemon *);
void		 http_stop(struct daemon *);

/* html.c: escaping and the SVG chart of the dashboard. */
struct html_span {
	size_t		 first;		/* index of the first run shaded */
	size_t		 last;		/* and of the last */
	const char	*title;
};

/* A change point: where a new level or a spike began. */
struct html_mark {
	size_t		 at;		/* index of its first run */
	int		 spike;		/* a spike, not a step */
	const char	*title;
};

struct html_chart {
	const double		*values;	/* run medians, oldest first */
	const char *const	*labels;	/* their runs' labels */
	size_t			 n;
	const struct html_span	*spans;		/* alerts */
	size_t			 nspans;
	const struct html_mark	*marks;		/* change points */
	size_t			 nmarks;
};

void		 html_escape(struct evbuffer *, const char *);
void		 html_range(const double *, size_t, double *lo, double *hi);
double		 html_scale(double v, double lo, double hi, double px0,
		    double px1);
void		 html_chart(struct evbuffer *, const struct html_chart *);

/* sdnotify.c: the NOTIFY_SOCKET datagram protocol of systemd. */
void		 sdnotify_init(void);
void		 sdnotify(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2)));
int		 sdnotify_enabled(void);

#endif
