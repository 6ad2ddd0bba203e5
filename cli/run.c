/*
 * perfwatch run: measure the battery now and record it as a run.
 *
 *   run [--profile P] [--workload GLOB]... [--iterations N] [--label L]
 *       [--trigger T] [--detail TEXT] [--json] [--no-check]
 *       [--git-commit NAME=ID]... [--progress]
 *
 * The workloads are the [workload "name"] sections of the profile file
 * (etc/profiles/NAME.conf) and the configuration's commands of its own;
 * the configuration wins key by key, and its section of a battery
 * workload tunes it only where the profile runs it.  The run takes a machine snapshot, checks that the machine is
 * quiet (the [quiet] policy), then runs the plan of workloads/ (warm-ups,
 * then iteration 1 of every workload, then 2 ...), committing each
 * iteration's samples as it finishes.  SIGINT, SIGTERM or SIGHUP (SIGINT
 * and SIGHUP unless ignored, as for a command started with & by a shell
 * without job control, or under nohup) stops the child and marks the run
 * aborted, keeping what was measured.  At the end the
 * run is judged by the same code as `perfwatch check`.
 */
#include <sys/file.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "hmap.h"
#include "json.h"
#include "log.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "workloads/workloads.h"
#include "cli.h"

struct run_job {
	char				*name;	/* workload name in the store */
	const struct wl_workload	*wl;
	struct wl_params		 params;
	int				 enabled;
	enum wl_status			 status;
	char				*error;
	double				 wall;
	double				 cpu;
	int				 done;	/* timed iterations stored */
	char				**notes;	/* distinct '#' lines */
	size_t				 nnotes;
	size_t				 notes_room;
};

struct run_opts {
	const char	 *profile;
	char		**globs;
	size_t		  nglobs;
	int		  iterations;	/* 0: as configured */
	const char	 *label;
	const char	 *trigger;
	const char	 *detail;
	int		  json;
	int		  check;
	/* For perfwatchd: see run_git_commit() and run_progress(). */
	json_t		 *git_commits;
	int		  progress;
};

static volatile sig_atomic_t run_signal;

static void
run_on_signal(int sig)
{
	run_signal = sig;
	wl_abort();
}

/*
 * Catch SIGINT, SIGTERM and SIGHUP in run_signal, keeping the actions
 * they had.  The terminal going away aborts the run as Ctrl-C does,
 * rather than killing it with the run left running; unless SIGHUP is
 * ignored (nohup): then the run goes on.  So does a run started with
 * SIGINT ignored, as a shell without job control starts a command with
 * & (sh -c 'perfwatch run & ...'): the terminal's Ctrl-C is for the
 * foreground, not for it.
 */
static void
run_catch(struct sigaction *oldint, struct sigaction *oldterm,
    struct sigaction *oldhup)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, oldterm);
	cli_catch(SIGINT, &sa, oldint);
	cli_catch(SIGHUP, &sa, oldhup);
}

/* Give the signals run_catch() caught their actions back. */
static void
run_release(const struct sigaction *oldint, const struct sigaction *oldterm,
    const struct sigaction *oldhup)
{
	sigaction(SIGINT, oldint, NULL);
	sigaction(SIGTERM, oldterm, NULL);
	sigaction(SIGHUP, oldhup, NULL);
}

/*
 * Options for perfwatchd, which starts this command as its child.
 *
 * --git-commit NAME=ID (repeatable) records the commit of a watched
 * repository that the run measures, in the run's git_commits as a JSON
 * object {"NAME": "ID", ...}.  --progress writes one line to stderr when
 * the run is created and before each step:
 *
 *   perfwatch-progress {"run":"LABEL","step":3,"steps":10,
 *       "workload":"sys.pipe","iteration":2,"count":5,"warmup":false}
 *
 * (step 0 at creation, without workload), and one when the [quiet]
 * policy makes it wait for the machine, before the run is created:
 *
 *   perfwatch-progress {"waiting":"WHY","max_wait":600}
 *
 * so that the daemon can say what its child is doing.
 */
#define RUN_PROGRESS_PREFIX	"perfwatch-progress "
/* How long a run that has measured waits for the store's lock, ms. */
#define RUN_STORE_WAIT_MS	(10 * 60 * 1000)
/*
 * What a run says of a write the store refused because another process
 * held it locked past the wait: a temporary failure (75), to be tried
 * again, as every write of the run says it.
 */
#define RUN_STORE_BUSY_SAY	" (another process holds the store locked)"

/*
 * How long a run that has measured waits for the store's lock, ms: the
 * tests shorten it with PERFWATCH_TEST_STORE_WAIT_MS (the store waits at
 * least its own busy timeout whatever is asked).  Not for users: a lock
 * held longer than this is for them to look at, not to wait less for.
 */
static int
run_store_wait_ms(void)
{
	const char	*env = getenv("PERFWATCH_TEST_STORE_WAIT_MS");
	char		*end;
	long		 ms;

	if (env == NULL || *env == '\0')
		return RUN_STORE_WAIT_MS;
	errno = 0;
	ms = strtol(env, &end, 10);
	if (errno != 0 || *end != '\0' || ms <= 0 || ms > RUN_STORE_WAIT_MS)
		return RUN_STORE_WAIT_MS;
	return (int)ms;
}

/* Add one --git-commit NAME=ID to the run's commits. */
static int
run_git_commit(struct run_opts *o, const char *arg)
{
	const char	*eq = strchr(arg, '=');
	char		*name;
	size_t		 i, n;

	if (eq == NULL || eq == arg || eq[1] == '\0') {
		fprintf(stderr, "perfwatch: --git-commit: expected NAME=ID, got "
		    "\"%s\"\n", arg);
		return -1;
	}
	n = strlen(eq + 1);
	for (i = 0; i < n; i++)
		if (strchr("0123456789abcdef", eq[1 + i]) == NULL)
			break;
	if (n < 4 || n > 64 || i < n) {
		fprintf(stderr, "perfwatch: --git-commit: \"%s\" is not a "
		    "commit id (4 to 64 lowercase hex digits)\n", eq + 1);
		return -1;
	}
	if (o->git_commits == NULL)
		o->git_commits = json_object();
	name = xstrndup(arg, eq - arg);
	/* Two commits of one tree: the last one won, without a word. */
	if (json_object_get(o->git_commits, name) != NULL) {
		fprintf(stderr, "perfwatch: --git-commit: %s is named twice\n",
		    name);
		free(name);
		return -1;
	}
	json_object_set_new(o->git_commits, name, json_string(eq + 1));
	free(name);
	return 0;
}

/* Write j as a --progress line, and free it. */
static void
run_progress_emit(json_t *j)
{
	char	*text;

	text = pwjson_dumps(j, PWJSON_COMPACT);
	fprintf(stderr, RUN_PROGRESS_PREFIX "%s\n", text);
	fflush(stderr);
	free(text);
	json_decref(j);
}

/* Write a --progress line: waiting up to max_wait seconds, and why. */
static void
run_progress_wait(const struct run_opts *o, const char *why,
    int64_t max_wait)
{
	json_t	*j;

	if (!o->progress)
		return;
	j = pwjson_object();
	pwjson_set_str(j, "waiting", why);
	pwjson_set_int(j, "max_wait", max_wait);
	run_progress_emit(j);
}

/*
 * Write a --progress line saying the [quiet] policy skipped the run, and
 * why: perfwatchd tells that 75 from one of a store locked by another
 * process, which it tries again.
 */
static void
run_progress_skipped(const struct run_opts *o, const char *why)
{
	json_t	*j;

	if (!o->progress)
		return;
	j = pwjson_object();
	pwjson_set_str(j, "skipped", why != NULL ? why : "the machine was busy");
	run_progress_emit(j);
}

/* Write a --progress line: the run and, for a step, what it measures. */
static void
run_progress(const struct run_opts *o, const char *label, size_t step,
    size_t nsteps, const char *workload, const struct wl_step *s)
{
	json_t	*j;

	if (!o->progress)
		return;
	j = pwjson_object();
	pwjson_set_str(j, "run", label);
	pwjson_set_int(j, "step", (int64_t)step);
	pwjson_set_int(j, "steps", (int64_t)nsteps);
	if (workload != NULL && s != NULL) {
		pwjson_set_str(j, "workload", workload);
		pwjson_set_int(j, "iteration", s->iteration);
		pwjson_set_int(j, "count", s->count);
		pwjson_set_bool(j, "warmup", s->warmup);
	}
	run_progress_emit(j);
}

/*
 * Find a profile: a path, or NAME.conf in the profile directories.  NULL
 * when there is none, with the directories looked in, "A, B and C", in
 * *looked and the profiles it is likely a typo of in *hint (NULL: none;
 * both allocated) for the message.
 */
static char *
profile_path(struct cli *c, const char *name, char **looked, char **hint)
{
	const char	*env, *conf, *slash;
	char		*p, *dir, *t;
	size_t		 i, k;
	const char	*dirs[4];

	*looked = *hint = NULL;
	if (strchr(name, '/') != NULL)
		return xstrdup(name);
	i = 0;
	if ((env = getenv("PERFWATCH_PROFILE_DIR")) != NULL && *env != '\0')
		dirs[i++] = env;
	dir = NULL;
	if ((conf = config_file(c->cfg)) != NULL) {
		if ((slash = strrchr(conf, '/')) != NULL)
			xasprintf(&dir, "%.*s/profiles", (int)(slash - conf),
			    conf);
		else
			dir = xstrdup("profiles");
		dirs[i++] = dir;
	}
	dirs[i++] = SYSCONFDIR "/perfwatch/profiles";
	dirs[i++] = PROFILEDIR;
	for (k = 0; k < i; k++) {
		xasprintf(&p, "%s/%s.conf", dirs[k], name);
		if (access(p, R_OK) == 0) {
			free(dir);
			return p;
		}
		free(p);
	}
	*hint = wl_profile_hint(dirs, i, name);
	*looked = xstrdup(dirs[0]);
	for (k = 1; k < i; k++) {
		xasprintf(&t, "%s%s%s", *looked, k + 1 < i ? ", " : " and ",
		    dirs[k]);
		free(*looked);
		*looked = t;
	}
	free(dir);
	return NULL;
}

/*
 * Apply every key written in section of cfg to job's parameters.  With
 * cause NULL a bad key is passed over: only the names are wanted.
 */
static int
job_apply(struct run_job *j, const struct config *cfg, const char *section,
    char **cause)
{
	char	*err = NULL;

	/* err names the file and line already. */
	if (wl_params_apply(&j->params, j->wl, cfg, section, &err) == -1) {
		if (cause == NULL) {
			free(err);
			return 0;
		}
		*cause = err;
		return -1;
	}
	return 0;
}

/*
 * Say why job j cannot run (why from wl_params_check), at the header of
 * its section: the configuration's when it has one, else the profile's.
 */
static void
job_check_error(const struct config *cfg, const struct config *prof,
    const struct run_job *j, const char *why)
{
	const struct config	*where = prof;
	char			*section, *cause;

	xasprintf(&section, "workload %s", j->name);
	if (config_file(cfg) != NULL && config_section_line(cfg, section) > 0)
		where = cfg;
	cause = wl_check_cause(config_file(where), config_section_line(where,
	    section), j->name, j->wl, &j->params, why);
	fprintf(stderr, "perfwatch: %s\n", cause);
	free(cause);
	free(section);
}

/* Does name pass the --workload globs? */
static int
job_selected(const struct run_opts *o, const char *name)
{
	size_t	i;

	if (o->nglobs == 0)
		return 1;
	for (i = 0; i < o->nglobs; i++)
		if (fnmatch(o->globs[i], name, 0) == 0)
			return 1;
	return 0;
}

static void
job_clear(struct run_job *j)
{
	size_t	k;

	for (k = 0; k < j->nnotes; k++)
		free(j->notes[k]);
	free(j->notes);
	free(j->name);
	free(j->error);
	wl_params_clear(&j->params);
}

/*
 * Add the workloads named in cfg's sections to jobs, merging by name.
 * With tune (the configuration after the profile), a section of a battery
 * workload the profile does not run is checked and then left out: it
 * tunes that workload where a profile runs it, and a CPU-only profile
 * does not gain a disk.bonnie because the configuration sizes its file.
 */
static int
jobs_from_config(struct run_job **jobs, size_t *njobs,
    const struct config *cfg, int tune, const struct run_opts *o,
    char **cause)
{
	const char	*name;
	char		*section;
	size_t		 i, k;
	struct run_job	*j, scratch;
	int		 rc;

	for (i = 0; (name = config_sections(cfg, "workload", i)) != NULL;
	    i++) {
		if (!job_selected(o, name))
			continue;
		for (k = 0; k < *njobs; k++)
			if (strcmp((*jobs)[k].name, name) == 0)
				break;
		if (k == *njobs && tune && wl_battery_find(name) != NULL) {
			memset(&scratch, 0, sizeof(scratch));
			scratch.name = xstrdup(name);
			scratch.wl = wl_find(name);
			wl_params_init(&scratch.params, scratch.wl);
			xasprintf(&section, "workload %s", name);
			rc = job_apply(&scratch, cfg, section, cause);
			free(section);
			job_clear(&scratch);
			if (rc == -1)
				return -1;
			continue;
		}
		if (k == *njobs) {
			*jobs = xreallocarray(*jobs, *njobs + 1,
			    sizeof(**jobs));
			j = &(*jobs)[(*njobs)++];
			memset(j, 0, sizeof(*j));
			j->name = xstrdup(name);
			j->enabled = 1;
			if ((j->wl = wl_find(name)) == NULL)
				j->wl = wl_find("command");
			wl_params_init(&j->params, j->wl);
			j->params.name = xstrdup(name);
		}
		j = &(*jobs)[k];
		xasprintf(&section, "workload %s", name);
		if (job_apply(j, cfg, section, cause) == -1) {
			free(section);
			return -1;
		}
		/* The configuration wins over the profile here too. */
		if (config_is_set(cfg, section, "enabled"))
			j->enabled = config_get_bool(cfg, section, "enabled");
		free(section);
	}
	return 0;
}

/*
 * Keep the notes of an iteration that the job has not said yet, in the
 * order said.  A command may print any number of '#' lines: each
 * compared with every note kept, and the array grown by one, 135000
 * distinct ones cost 18 s of CPU.  So the notes kept are looked up in a
 * hash, and the array doubles.
 */
static void
job_notes(struct run_job *j, const struct wl_result *res)
{
	struct hmap	*seen;
	size_t		 i;
	int64_t		 at;

	if (res->nnotes == 0)
		return;
	seen = hmap_new();
	for (i = 0; i < j->nnotes; i++)
		hmap_put(seen, j->notes[i], (int64_t)i);
	for (i = 0; i < res->nnotes; i++) {
		if (hmap_get(seen, res->notes[i], &at) == 0)
			continue;
		if (j->nnotes == j->notes_room) {
			j->notes_room = j->notes_room > 0 ?
			    j->notes_room * 2 : 16;
			j->notes = xreallocarray(j->notes, j->notes_room,
			    sizeof(char *));
		}
		hmap_put(seen, res->notes[i], (int64_t)j->nnotes);
		j->notes[j->nnotes++] = xstrdup(res->notes[i]);
	}
	hmap_free(seen);
}

static void
jobs_free(struct run_job *jobs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		job_clear(&jobs[i]);
	free(jobs);
}

/* Drop the jobs that enabled = no turned off: they are not run at all. */
static void
jobs_drop_disabled(struct run_job *jobs, size_t *njobs)
{
	size_t	i, n = 0;

	for (i = 0; i < *njobs; i++) {
		if (jobs[i].enabled)
			jobs[n++] = jobs[i];
		else
			job_clear(&jobs[i]);
	}
	*njobs = n;
}

/*
 * Every enabled workload that profile prof runs with c's configuration,
 * whatever --workload picks, a bad key passed over (the run says it of
 * the workloads it runs).
 */
static void
jobs_all(struct cli *c, const struct config *prof, struct run_job **jobs,
    size_t *njobs)
{
	struct run_opts	 all;

	memset(&all, 0, sizeof(all));
	*jobs = NULL;
	*njobs = 0;
	(void)jobs_from_config(jobs, njobs, prof, 0, &all, NULL);
	if (config_file(c->cfg) != NULL)
		(void)jobs_from_config(jobs, njobs, c->cfg, 1, &all, NULL);
	jobs_drop_disabled(*jobs, njobs);
}

/*
 * Put in so the own work directories of the workloads profile prof runs,
 * for the machine snapshot to describe their filesystems.  Of every
 * enabled one, not only those --workload picks: the runs of a profile
 * then describe the same machine however few workloads each measures,
 * and one of a single workload is not taken for another machine by the
 * alerts of the others, nor by the bisection that started it.
 */
static void
run_workdirs(struct cli *c, const struct config *prof,
    struct sysinfo_opts *so)
{
	struct sysinfo_workdir	*w;
	struct run_job		*jobs;
	size_t			 njobs, i;

	jobs_all(c, prof, &jobs, &njobs);
	for (i = 0; i < njobs; i++) {
		if (jobs[i].params.work_dir == NULL)
			continue;
		so->workdirs = xreallocarray(so->workdirs, so->nworkdirs + 1,
		    sizeof(*so->workdirs));
		w = &so->workdirs[so->nworkdirs++];
		w->name = xstrdup(jobs[i].name);
		w->dir = xstrdup(jobs[i].params.work_dir);
	}
	jobs_free(jobs, njobs);
}

/*
 * The same for profile (NULL: the configuration's), as a run of it puts
 * them: for a bisection, whose runs' snapshots must be the one it took,
 * and for env's "now".  A profile that cannot be read puts none, said
 * (the run says why it cannot run).
 */
void
cli_sysinfo_workdirs(struct cli *c, const char *profile,
    struct sysinfo_opts *so)
{
	struct config	*prof = NULL;
	char		*path, *looked, *hint, *cause = NULL;
	int		 named = profile != NULL;

	if (c->cfg == NULL)
		return;
	if (profile == NULL) {
		profile = config_get_str(c->cfg, "perfwatch", "profile");
		named = config_key_line(c->cfg, "perfwatch", "profile") > 0;
	}
	if ((path = profile_path(c, profile, &looked, &hint)) == NULL) {
		/*
		 * The default profile, not installed, is no one's: env show
		 * needed no profile, and said nothing of one.
		 */
		if (named)
			log_warnx("profile \"%s\" not found: the snapshot "
			    "leaves out the filesystems of its workloads' "
			    "work_dir", profile);
		free(looked);
		free(hint);
		return;
	}
	if ((prof = config_load(path, &cause)) == NULL ||
	    config_only_sections(prof, "workload", WL_PROFILE_ONLY,
	    &cause) == -1) {
		log_warnx("%s; the snapshot leaves out the filesystems of "
		    "its workloads' work_dir", cause);
		free(cause);
	} else
		run_workdirs(c, prof, so);
	config_free(prof);
	free(path);
}

/* Free what cli_sysinfo_workdirs() put in so. */
void
cli_sysinfo_workdirs_free(struct sysinfo_opts *so)
{
	size_t	i;

	for (i = 0; i < so->nworkdirs; i++) {
		free(so->workdirs[i].name);
		free(so->workdirs[i].dir);
	}
	free(so->workdirs);
	so->workdirs = NULL;
	so->nworkdirs = 0;
}

/*
 * Whether each --workload glob of o matches a workload the profile
 * (prof, at path, then the configuration) runs: a glob that matches
 * nothing is a mistake (a typo beside a glob that does match ran only
 * that one, without a word).  0, or -1 after saying which and what there
 * is, as perfwatchd says it of a [git] section's workloads.
 */
static int
run_globs_check(struct cli *c, const struct config *prof,
    const struct run_opts *o, const char *path)
{
	struct run_job	 *jobs;
	char		**names, *cause = NULL;
	size_t		  njobs, i;
	int		  rc = 0;

	/*
	 * Every workload, a bad key of one the globs leave out passed over
	 * (cause NULL): stopping there skipped this check, and a typo
	 * beside a glob that matches ran that one alone, without a word.
	 */
	jobs_all(c, prof, &jobs, &njobs);
	names = xcalloc(njobs > 0 ? njobs : 1, sizeof(*names));
	for (i = 0; i < njobs; i++)
		names[i] = jobs[i].name;
	if (wl_globs_check(names, njobs, o->globs, o->nglobs, &cause) == -1) {
		fprintf(stderr, "perfwatch: --workload %s; the profile is %s\n",
		    cause, path);
		free(cause);
		rc = -1;
	}
	free(names);
	jobs_free(jobs, njobs);
	return rc;
}

/*
 * How a job ended, for run_workloads.  A workload that the run's abort
 * cut short of its iterations is "aborted" even if those it ran were
 * stored: "complete" means every planned iteration was.
 */
static const char *
job_outcome(const struct run_job *j, int aborted)
{
	switch (j->status) {
	case WL_OK:
		if (j->done >= j->params.iterations)
			return "complete";
		return aborted ? "aborted" : "skipped";
	case WL_TIMEOUT:
		return "timeout";
	case WL_ABORTED:
		return "aborted";
	case WL_FAILED:
		break;
	}
	return "failed";
}

/*
 * Remove what a killed run left in job i's work directory (the runner's
 * unlocked iteration directories), once per directory.
 */
static void
run_sweep(const struct run_job *jobs, size_t i)
{
	const char	*dir = jobs[i].params.work_dir;
	size_t		 k;
	int		 n;

	for (k = 0; k < i; k++)
		if (strcmp(jobs[k].params.work_dir, dir) == 0)
			return;
	if ((n = wl_sweep_work_dir(dir)) > 0)
		log_warnx("%s: removed %d iteration director%s left by a "
		    "killed run", dir, n, n == 1 ? "y" : "ies");
}

/* A label from the start time, unique on this host. */
static char *
run_label(struct store *st, int64_t host, time_t t)
{
	struct tm	 tm;
	char		 buf[32], *label;
	int64_t		 id;
	int		 n;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &tm);
	label = xstrdup(buf);
	for (n = 2; store_run_lookup(st, host, label, &id) == 0; n++) {
		free(label);
		xasprintf(&label, "%s-%d", buf, n);
	}
	return label;
}

/* A duration as the configuration writes it (1m, 30m), for messages. */
static void
run_duration(int64_t seconds, char *buf, size_t size)
{
	if (timefmt_format_duration(seconds, buf, size) == -1)
		snprintf(buf, size, "%llds", (long long)seconds);
}

/*
 * The measuring lock.  Two batteries measuring at once spoil each
 * other's figures, and the quiet look cannot be trusted to see the other
 * one (it may be in a disk workload's settle pause, idle).  So every run
 * holds an exclusive flock(2) on one file of the machine while it
 * measures, whichever database or user it runs for: $PERFWATCH_LOCK, else
 * [quiet] lock.  The file is opened read-only (flock needs no more, and a
 * sandboxed service may see its directory read-only), made 0444 when it
 * is missing, never written.  Returns the descriptor, holding the lock;
 * -1 with *busy set when another run holds it after waiting up to
 * max_wait seconds; -1 with *busy clear when the file cannot be had
 * (said once: the run goes on without it).
 */
static int
run_lock(struct cli *c, const struct run_opts *o, int64_t max_wait,
    int *busy, double *waited)
{
	struct timespec	 pause = { 0, 200 * 1000 * 1000 };
	struct stat	 sb;
	const char	*path = getenv("PERFWATCH_LOCK");
	char		 d[TIMEFMT_DURATION_LEN];
	double		 t0 = perfwatch_mono();
	/*
	 * Without blocking: the file is in a directory anyone may write
	 * (/run/lock, /tmp), and a FIFO made there held the open, and every
	 * run and perfwatchd's queue with it, for good.
	 */
	int		 fd, flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
			    O_NONBLOCK;

	*busy = 0;
	*waited = 0;
	if (path == NULL || *path == '\0')
		path = config_get_str(c->cfg, "quiet", "lock");
	if ((fd = open(path, flags)) == -1 && errno == ENOENT) {
		if ((fd = open(path, flags | O_CREAT | O_EXCL, 0444)) != -1)
			(void)fchmod(fd, 0444);	/* whatever the umask */
		else if (errno == EEXIST)
			fd = open(path, flags);
	}
	if (fd == -1) {
		log_warn("measuring lock %s: measuring without it", path);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		log_warnx("measuring lock %s: not a regular file; measuring "
		    "without it", path);
		close(fd);
		return -1;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			log_warn("measuring lock %s: measuring without it",
			    path);
			close(fd);
			return -1;
		}
		if (*waited == 0 && max_wait > 0) {
			run_duration(max_wait, d, sizeof(d));
			log_warnx("another perfwatch run is measuring this "
			    "machine (it holds %s); waiting up to %s for it "
			    "([quiet] policy = wait)", path, d);
			run_progress_wait(o, "another perfwatch run is "
			    "measuring this machine", max_wait);
		}
		if ((*waited = perfwatch_mono() - t0) >= (double)max_wait) {
			*busy = 1;
			close(fd);
			return -1;
		}
		nanosleep(&pause, NULL);
	}
	*waited = perfwatch_mono() - t0;
	if (*waited >= 1)
		log_warnx("the other run finished after %.0f s", *waited);
	return fd;
}

/*
 * The quiet-machine check before the run, by the [quiet] policy: first
 * the measuring lock (*lockfd: held, or -1), then the machine's load.
 */
static int
run_quiet(struct cli *c, const struct run_opts *o, json_t *quiet, int *skip,
    int *lockfd)
{
	struct quiet_limits	 lim;
	struct quiet		 seen;
	const char		*policy;
	char			*why = NULL;
	double			 waited = 0, left;
	int64_t			 max;
	int			 busy, locked;

	*skip = 0;
	policy = config_get_str(c->cfg, "quiet", "policy");
	max = config_get_duration(c->cfg, "quiet", "max_wait");
	*lockfd = run_lock(c, o, strcmp(policy, "wait") == 0 ? max : 0,
	    &locked, &waited);
	if (locked) {
		json_object_set_new(quiet, "policy", json_string(policy));
		json_object_set_new(quiet, "waited", json_real(waited));
		json_object_set_new(quiet, "busy", json_true());
		json_object_set_new(quiet, "why", json_string("another perfwatch "
		    "run was measuring"));
		/* No look was taken: null, as perfwatch(1) says of a key. */
		json_object_set_new(quiet, "seen", json_null());
		log_warnx("machine busy: another perfwatch run is measuring%s",
		    strcmp(policy, "skip") == 0 ? "; skipping the run" :
		    strcmp(policy, "wait") == 0 ? "; measuring anyway, marked" :
		    "; measuring, marked");
		if (strcmp(policy, "skip") == 0)
			*skip = 1;
		return 0;
	}
	/* What is left of max_wait, to the second's fraction. */
	left = (double)max - waited;
	sysinfo_quiet_limits_default(&lim);
	/*
	 * max_load is per CPU (perfwatch.conf(5)): online CPU of the machine,
	 * whose load it is (sysinfo_quiet_limits_default says why).
	 */
	if (config_is_set(c->cfg, "quiet", "max_load"))
		lim.max_load1 = config_get_number(c->cfg, "quiet", "max_load") *
		    (double)sysconf(_SC_NPROCESSORS_ONLN);
	if (config_is_set(c->cfg, "quiet", "max_cpu_busy"))
		lim.max_cpu_busy = config_get_number(c->cfg, "quiet",
		    "max_cpu_busy") / 100.0;
	/* Per CPU too, rounded down; one other task is always allowed. */
	if (config_is_set(c->cfg, "quiet", "max_runnable")) {
		lim.max_runnable = (int)(config_get_number(c->cfg, "quiet",
		    "max_runnable") * (double)sysconf(_SC_NPROCESSORS_ONLN));
		if (lim.max_runnable < 1)
			lim.max_runnable = 1;
	}
	if (config_is_set(c->cfg, "quiet", "max_swap_pages"))
		lim.max_swap_pages = (uint64_t)config_get_int(c->cfg, "quiet",
		    "max_swap_pages");
	if (config_is_set(c->cfg, "quiet", "min_mem_available"))
		lim.min_mem_available = config_get_number(c->cfg, "quiet",
		    "min_mem_available") / 100.0;
	if (config_is_set(c->cfg, "quiet", "max_throttle_events"))
		lim.max_throttle_events = (uint64_t)config_get_int(c->cfg,
		    "quiet", "max_throttle_events");
	if (config_is_set(c->cfg, "quiet", "look"))
		lim.interval_ms = (unsigned int)(config_get_number(c->cfg,
		    "quiet", "look") * 1000 + 0.5);
	if (sysinfo_quiet_sample(&seen, lim.interval_ms, NULL) == -1)
		return -1;
	busy = sysinfo_quiet_judge(&seen, &lim, &why);
	if (busy > 0 && strcmp(policy, "wait") == 0 && left > 0) {
		char	d[TIMEFMT_DURATION_LEN];
		double	w = 0;

		run_duration((int64_t)ceil(left), d, sizeof(d));
		log_warnx("machine busy: %s; waiting up to %s for it to "
		    "settle ([quiet] policy = wait)", why, d);
		run_progress_wait(o, why, (int64_t)ceil(left));
		free(why);
		why = NULL;
		busy = sysinfo_quiet_wait(&lim, left, &seen, &w, &why);
		if (busy == -1) {
			/*
			 * As at the first look: a machine known busy was
			 * recorded quiet, busy -1 being no "busy > 0".
			 */
			log_warnx("quiet: %s", why);
			free(why);
			return -1;
		}
		if (busy == 0)
			log_warnx("machine quiet after %.0f s", w);
		waited += w;
	}
	json_object_set_new(quiet, "policy", json_string(policy));
	json_object_set_new(quiet, "seen", sysinfo_quiet_json(&seen));
	json_object_set_new(quiet, "waited", json_real(waited));
	json_object_set_new(quiet, "busy", json_boolean(busy > 0));
	json_object_set_new(quiet, "why", busy > 0 ? json_string(why) :
	    json_null());
	if (busy > 0) {
		log_warnx("machine busy: %s%s", why,
		    strcmp(policy, "skip") == 0 ? "; skipping the run" :
		    strcmp(policy, "wait") == 0 ? "; measuring anyway, marked" :
		    "; measuring, marked");
		if (strcmp(policy, "skip") == 0)
			*skip = 1;
	}
	free(why);
	return 0;
}

/*
 * Store one iteration's metrics in its own transaction; 0, or -1 with
 * *cause saying why nothing of it was stored.
 */
static int
store_iteration(struct store *st, int64_t run, struct run_job *j,
    int iteration, const struct wl_result *res, char **cause)
{
	char	*err = NULL;
	int64_t	 m;
	size_t	 i;

	if (store_begin(st) == -1) {
		*cause = xstrdup(store_errmsg(st));
		return -1;
	}
	for (i = 0; i < res->nmetrics; i++) {
		m = store_metric_ensure(st, j->name, res->metrics[i].name,
		    res->metrics[i].unit, res->metrics[i].better, &err);
		if (m == -1 || store_sample_add(st, run, m, iteration,
		    res->metrics[i].value) == -1) {
			*cause = err != NULL ? err : xstrdup(store_errmsg(st));
			store_rollback(st);
			return -1;
		}
	}
	if (store_commit(st) == -1) {
		*cause = xstrdup(store_errmsg(st));
		return -1;
	}
	return 0;
}

static int
parse_run_opts(struct run_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "workload", required_argument, NULL, 'w' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "label", required_argument, NULL, 'l' },
		{ "trigger", required_argument, NULL, 't' },
		{ "detail", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-check", no_argument, NULL, 'N' },
		{ "git-commit", required_argument, NULL, 'g' },
		{ "progress", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	long long	 n;
	int		 ch;

	memset(o, 0, sizeof(*o));
	o->trigger = "manual";
	o->check = 1;
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (cli_blank_opt("--profile", optarg))
				return -1;
			o->profile = optarg;
			break;
		case 'w':
			if (cli_blank_opt("--workload", optarg))
				return -1;
			o->globs = xreallocarray(o->globs, o->nglobs + 1,
			    sizeof(char *));
			o->globs[o->nglobs++] = optarg;
			break;
		case 'n':
			if (cli_parse_count(optarg, 1, 100000, &n) == -1) {
				fprintf(stderr, "perfwatch: --iterations: \"%s\""
				    " is not a count from 1 to 100000\n",
				    optarg);
				return -1;
			}
			o->iterations = (int)n;
			break;
		case 'l':
			if (utf8_check(optarg, NULL) == -1) {
				fprintf(stderr, "perfwatch: --label: not valid "
				    "UTF-8\n");
				return -1;
			}
			/* A blank label cannot be named, nor imported back. */
			if (optarg[strspn(optarg, " \t")] == '\0') {
				fprintf(stderr, "perfwatch: --label: blank\n");
				return -1;
			}
			o->label = optarg;
			break;
		case 't':
			if (!store_trigger_known(optarg) ||
			    strcmp(optarg, RUN_TRIGGER_IMPORT) == 0) {
				fprintf(stderr, "perfwatch: --trigger: \"%s\" is "
				    "not schedule, package, kernel, git, "
				    "manual, rerun or bisect\n", optarg);
				return -1;
			}
			o->trigger = optarg;
			break;
		case 'd':
			if (utf8_check(optarg, NULL) == -1) {
				fprintf(stderr, "perfwatch: --detail: not valid "
				    "UTF-8\n");
				return -1;
			}
			/* A detail that says nothing shows as a blank. */
			if (cli_blank_opt("--detail", optarg))
				return -1;
			o->detail = optarg;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'N':
			o->check = 0;
			break;
		case 'g':
			if (run_git_commit(o, optarg) == -1)
				return -1;
			break;
		case 'P':
			o->progress = 1;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc) {
		cli_bad_arg(NULL, argv[optind]);
		return -1;
	}
	return 0;
}

int
cmd_run(struct cli *c, int argc, char **argv)
{
	struct run_opts		 o;
	struct run_job		*jobs = NULL;
	const struct wl_params	**pp = NULL;
	struct wl_step		*steps = NULL;
	struct wl_progress	*pr = NULL;
	struct sysinfo_opts	 so;
	struct snapshot		*snap = NULL;
	struct config		*prof = NULL;
	struct store_run	 r;
	struct store		*st;
	struct sigaction	 oldint, oldterm, oldhup;
	struct wl_result	 res;
	json_t			*quiet = NULL;
	char			*cause = NULL, *path = NULL, *label = NULL;
	char			*qtext, *work = NULL, *note, *looked, *hint;
	char			*where;
	const char		*status = RUN_COMPLETE;
	size_t			 njobs = 0, nsteps = 0, i, ok = 0, marked;
	int64_t			 run = -1, host, snapid;
	int			 rc = 0, skip = 0, lockfd = -1, busy, lost = 0;
	int			 finished, full = 0, held = 0, line;
	sig_atomic_t		 aborted;
	time_t			 started;

	if (parse_run_opts(&o, argc, argv) == -1) {
		free(o.globs);
		json_decref(o.git_commits);
		return cli_usage("run");
	}
	/*
	 * SIGCHLD ignored by whoever started us (an ignored signal stays so
	 * across exec) has the kernel reap every child as it exits: wait4()
	 * then finds none, and every workload failed as "killed by signal
	 * 9", its CPU time lost, the snapshot's helpers failing too.
	 */
	(void)signal(SIGCHLD, SIG_DFL);
	/*
	 * A profile the configuration names is an error at its line, as
	 * perfwatch.conf(5) says and perfwatchd -n says it; one given with
	 * --profile is the command line's.
	 */
	where = NULL;
	if (o.profile == NULL) {
		o.profile = config_get_str(c->cfg, "perfwatch", "profile");
		if (config_file(c->cfg) != NULL && (line =
		    config_key_line(c->cfg, "perfwatch", "profile")) > 0)
			xasprintf(&where, "%s:%d: [perfwatch]",
			    config_file(c->cfg), line);
	}
	if ((path = profile_path(c, o.profile, &looked, &hint)) == NULL) {
		fprintf(stderr, "%s profile \"%s\"%s%s%s not found "
		    "(looked for %s.conf in %s)\n", where != NULL ? where :
		    "perfwatch:", o.profile, hint ? " (did you mean " : "",
		    hint ? cli_show(hint) : "", hint ? "?)" : "", o.profile,
		    looked);
		free(hint);
		free(where);
		/* A file here by that name is meant, but is no name. */
		if (access(o.profile, F_OK) == 0)
			fprintf(stderr, "perfwatch: %s is a file here; a file "
			    "is given with a slash: --profile ./%s\n",
			    o.profile, o.profile);
		free(looked);
		rc = EXIT_CONFIG;
		goto out;
	}
	free(where);
	if ((prof = config_load(path, &cause)) == NULL ||
	    config_only_sections(prof, "workload", WL_PROFILE_ONLY,
	    &cause) == -1) {
		fprintf(stderr, "%s\n", cause);
		rc = EXIT_CONFIG;
		goto out;
	}
	if (jobs_from_config(&jobs, &njobs, prof, 0, &o, &cause) == -1 ||
	    (config_file(c->cfg) != NULL &&
	    jobs_from_config(&jobs, &njobs, c->cfg, 1, &o, &cause) == -1)) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		rc = EXIT_CONFIG;
		goto out;
	}
	/* Every job gets the work directory and, if asked, an iteration count. */
	work = xstrdup(cli_work_dir(c));
	if (cli_work_dir_make(c) == -1) {
		rc = EXIT_CANTCREAT;
		goto out;
	}
	jobs_drop_disabled(jobs, &njobs);
	if (o.nglobs > 0 && run_globs_check(c, prof, &o, path) == -1) {
		rc = EXIT_USAGE;
		goto out;
	}
	pp = xcalloc(njobs > 0 ? njobs : 1, sizeof(*pp));
	for (i = 0; i < njobs; i++) {
		if (jobs[i].params.work_dir == NULL)
			jobs[i].params.work_dir = xstrdup(work);
		/*
		 * A workload's own work_dir, made with the directories
		 * above it as that of [perfwatch] it stands instead of:
		 * made by the runner at each iteration, by its last name
		 * alone, it failed every one.  Shared as that one is (see
		 * cli_work_dir_make()): made 0755, it locked every other
		 * user's runs of the workload out.
		 */
		else if (cli_dir_make(jobs[i].params.work_dir, 01777) == -1) {
			rc = EXIT_CANTCREAT;
			goto out;
		}
		run_sweep(jobs, i);
		if (o.iterations > 0)
			jobs[i].params.iterations = o.iterations;
		if (wl_params_check(&jobs[i].params, jobs[i].wl,
		    &cause) == -1) {
			job_check_error(c->cfg, prof, &jobs[i], cause);
			rc = EXIT_CONFIG;
			goto out;
		}
		pp[i] = &jobs[i].params;
	}
	if ((steps = wl_plan(pp, njobs, &nsteps)) == NULL) {
		fprintf(stderr, "perfwatch: no workload to run (profile %s%s)\n",
		    path, o.nglobs ? ", --workload" : "");
		rc = EXIT_USAGE;
		goto out;
	}

	if ((st = cli_store(c)) == NULL) {
		rc = cli_store_none(c);
		goto out;
	}
	if ((host = store_host_local(st)) == -1) {
		/*
		 * Adding this host (a store of other machines' runs, or of
		 * this one under its old name): 75 when another process
		 * held the store locked, 74 for a full disk, as below.
		 */
		rc = cli_store_status(st, EXIT_SOFTWARE);
		goto out;
	}
	/*
	 * A label this host has is refused now, before the snapshot and the
	 * quiet wait (up to max_wait), not when the run is recorded after
	 * them.  The store's unique label still decides a race.
	 */
	if (o.label != NULL && store_run_lookup(st, host, o.label, &run) == 0) {
		fprintf(stderr, "perfwatch: run \"%s\" exists already\n",
		    o.label);
		rc = EXIT_DATAERR;
		goto out;
	}
	/* Hold the run lock; close runs whose process is gone. */
	if (store_runs_sweep(st, host, 1, &marked, &cause) == -1) {
		log_warnx("%s; a perfwatchd started during this run would "
		    "take it for a dead one", cause);
		free(cause);
		cause = NULL;
	} else if (marked > 0)
		log_warnx("%zu run%s left running by a process that is gone: "
		    "marked aborted", marked, marked == 1 ? "" : "s");
	cli_sysinfo_opts(c, &so);
	run_workdirs(c, prof, &so);
	snap = sysinfo_snapshot_take(work, &so, &cause);
	cli_sysinfo_workdirs_free(&so);
	if (snap == NULL ||
	    (snapid = store_snapshot_put(st, snap, &cause)) == -1) {
		/*
		 * A store locked by another process past the busy timeout
		 * is to be tried again (75), as for the measuring lock; a
		 * full disk is output that cannot be written (74), as for
		 * the run's own row: 70 had a bisect script skip every
		 * commit on a disk that was as full at each of them.
		 */
		busy = snap != NULL && store_failure(st) == STORE_BUSY;
		fprintf(stderr, "perfwatch: machine snapshot: %s%s\n", cause,
		    busy ? RUN_STORE_BUSY_SAY "; try again" : "");
		rc = snap != NULL ? cli_store_status(st, EXIT_SOFTWARE) :
		    EXIT_SOFTWARE;
		goto out;
	}
	quiet = json_object();
	if (run_quiet(c, &o, quiet, &skip, &lockfd) == -1) {
		rc = EXIT_SOFTWARE;
		goto out;
	}
	if (skip) {
		run_progress_skipped(&o, json_string_value(json_object_get(quiet,
		    "why")));
		rc = EXIT_TEMPFAIL;
		goto out;
	}

	started = time(NULL);
	label = o.label != NULL ? xstrdup(o.label) :
	    run_label(st, host, started);
	memset(&r, 0, sizeof(r));
	r.host = host;
	r.label = label;
	r.snapshot = snapid;
	r.trigger = (char *)o.trigger;
	r.trigger_detail = (char *)o.detail;
	r.profile = (char *)o.profile;
	r.started = started;
	r.status = RUN_RUNNING;
	qtext = json_dumps(quiet, JSON_COMPACT | JSON_SORT_KEYS);
	r.quiet = qtext;
	if (o.git_commits != NULL)
		r.git_commits = json_dumps(o.git_commits, JSON_COMPACT |
		    JSON_SORT_KEYS);
	/*
	 * From before the run is in the store until it is recorded as
	 * ended, a signal is caught: one that killed perfwatch there would
	 * leave the run "running" with no end, for the next run's sweep.
	 */
	run_catch(&oldint, &oldterm, &oldhup);
	run = store_run_create(st, &r, &cause);
	free(qtext);
	free(r.git_commits);
	if (run < 0) {
		run_release(&oldint, &oldterm, &oldhup);
		/*
		 * A label taken is the caller's; a full disk is not (74); a
		 * lock held is to be tried again (75), as the snapshot says.
		 */
		busy = store_failure(st) == STORE_BUSY;
		if (run == STORE_RUN_EXISTS)
			fprintf(stderr, "perfwatch: %s\n", cause);
		else
			fprintf(stderr, "perfwatch: %s: %s%s\n", c->db_path,
			    cause, busy ? RUN_STORE_BUSY_SAY "; try again" : "");
		rc = run == STORE_RUN_EXISTS ? EXIT_DATAERR :
		    busy ? EXIT_TEMPFAIL : EXIT_IOERR;
		goto out;
	}
	/*
	 * From here on what the store refuses is measured and lost: wait
	 * out another process's lock (a long import holds it for the whole
	 * file) rather than SQLite's few seconds.  Before, a run that finds
	 * the store busy exits 75, and perfwatchd tries it again.
	 */
	store_busy_wait(st, run_store_wait_ms(), &run_signal);
	log_info("run %s: %zu workloads, %zu steps", label, njobs, nsteps);
	run_progress(&o, label, 0, nsteps, NULL, NULL);

	pr = wl_progress_new(steps, nsteps, njobs);
	for (i = 0; i < nsteps && !run_signal; i++) {
		struct run_job	*j = &jobs[steps[i].job];

		if (j->status != WL_OK)
			continue;	/* failed once: not again this run */
		/* The progress line says which iteration: just the name. */
		wl_progress_show(pr, i, j->name);
		run_progress(&o, label, i + 1, nsteps, j->name, &steps[i]);
		/* res says how it ended (timeout, aborted ...) in every case. */
		(void)wl_run_iteration(j->wl, &j->params, &res, NULL);
		wl_progress_done(pr, i, res.wall + j->params.settle);
		j->wall += res.wall;
		j->cpu += res.user + res.sys;
		if (res.status != WL_OK) {
			j->status = res.status;
			wl_progress_drop(pr, steps[i].job);
			free(j->error);
			/*
			 * An abort's "aborted" says its status again (show
			 * printed "aborted: aborted"): no error, as for the
			 * workloads the abort stopped between iterations.
			 */
			j->error = NULL;
			if (res.status != WL_ABORTED) {
				j->error = xstrdup(res.error != NULL ?
				    res.error : wl_status_name(res.status));
				/* It quotes the workload's output: escaped. */
				log_warnx("%s: %s", j->name,
				    cli_show(j->error));
			}
		} else if (!steps[i].warmup) {
			if (j->done == 0)	/* the first iteration's say */
				job_notes(j, &res);
			if (store_iteration(st, run, j, steps[i].iteration,
			    &res, &cause) == 0)
				j->done++;
			else {
				full |= store_failure(st) == STORE_FULL;
				held |= store_failure(st) == STORE_BUSY;
				/* Not measured as far as the store knows. */
				j->status = WL_FAILED;
				wl_progress_drop(pr, steps[i].job);
				free(j->error);
				xasprintf(&j->error, "iteration %d not stored: "
				    "%s", steps[i].iteration, cause);
				/* It may quote an imported unit: escaped. */
				log_warnx("%s: %s", j->name,
				    cli_show(j->error));
				free(cause);
				cause = NULL;
			}
		}
		wl_result_clear(&res);
	}
	/*
	 * A signal from here on came once everything was measured: the run
	 * is recorded as it ended, then left unjudged.
	 */
	aborted = run_signal;
	/* A run the signal stopped is not done, whatever step it reached. */
	if (!aborted)
		wl_progress_show(pr, nsteps, NULL);

	for (i = 0; i < njobs; i++) {
		const char *ws = job_outcome(&jobs[i], aborted != 0);

		if (jobs[i].status == WL_OK && jobs[i].done > 0)
			ok++;
		/* Lost, a failed workload would leave no trace in the run. */
		if (store_run_workload_set(st, run, jobs[i].name, ws,
		    jobs[i].wall, jobs[i].cpu, jobs[i].error) == -1) {
			fprintf(stderr, "perfwatch: run %s: how %s ended (%s) "
			    "could not be recorded: %s\n", label, jobs[i].name,
			    ws, store_errmsg(st));
			full |= store_failure(st) == STORE_FULL;
			held |= store_failure(st) == STORE_BUSY;
			lost = 1;
		}
	}
	if (aborted)
		status = RUN_ABORTED;
	else if (ok == 0)
		status = RUN_FAILED;
	finished = store_run_finish(st, run, status, (int64_t)time(NULL));
	run_release(&oldint, &oldterm, &oldhup);
	if (finished == -1) {
		/*
		 * Still "running" in the store, with no end: no report to
		 * print or judge.  Its samples stay; the next run's sweep
		 * marks it aborted.  A lock that another process held past
		 * the whole wait is a temporary failure: 75, and the run is
		 * to be made again (perfwatchd does), not 70, which said
		 * perfwatch was at fault.
		 */
		busy = store_failure(st) == STORE_BUSY;
		held |= busy;
		fprintf(stderr, "perfwatch: run %s could not be recorded as "
		    "%s%s; the samples stored are kept, and the next run "
		    "marks it aborted%s\n", label, status, busy ?
		    RUN_STORE_BUSY_SAY : "", busy ? "; try again" : "");
		if (!run_signal) {
			/* A full disk is output that cannot be written. */
			rc = full || store_failure(st) == STORE_FULL ?
			    EXIT_IOERR : held ? EXIT_TEMPFAIL : EXIT_SOFTWARE;
			goto out;
		}
	}

	if (aborted) {
		fprintf(stderr, "perfwatch: run %s aborted by signal %d; what "
		    "was measured is kept\n", label, (int)aborted);
		rc = 128 + (int)aborted;
		goto out;
	}
	if (run_signal) {
		if (finished == 0)
			fprintf(stderr, "perfwatch: run %s recorded as %s; "
			    "stopped by signal %d before it was judged "
			    "(perfwatch check %s judges it)\n", label, status,
			    (int)run_signal, label);
		rc = 128 + (int)run_signal;
		goto out;
	}
	/* A note is the command's text: escaped as a table's cell is. */
	for (i = 0; i < njobs; i++)
		for (size_t k = 0; k < jobs[i].nnotes; k++) {
			note = table_display(jobs[i].notes[k], NULL);
			fprintf(o.json ? stderr : stdout, "%s: note: %s\n",
			    jobs[i].name, note);
			free(note);
		}
	if (!o.json && njobs > 0)
		fflush(stdout);
	/* The run judges itself (DESIGN.md): exit 1 on a regression. */
	rc = cli_run_report(c, run, o.json, o.check &&
	    strcmp(status, RUN_COMPLETE) == 0);
	/*
	 * What the store could not take for a full disk is 74, as for the
	 * run's row: 70 would have a bisect script skip the commit, and
	 * every commit after it on the same full disk.
	 */
	if (rc == 0 && (strcmp(status, RUN_FAILED) == 0 || lost))
		rc = full ? EXIT_IOERR : held ? EXIT_TEMPFAIL : EXIT_SOFTWARE;

out:
	if (lockfd != -1)
		close(lockfd);
	wl_progress_free(pr);
	free(steps);
	free(pp);
	jobs_free(jobs, njobs);
	config_free(prof);
	sysinfo_snapshot_free(snap);
	json_decref(quiet);
	free(o.globs);
	json_decref(o.git_commits);
	free(path);
	free(label);
	free(work);
	free(cause);
	return rc;
}
