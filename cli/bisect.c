/*
 * perfwatch bisect: find the commit that made a metric worse.
 *
 *   perfwatch bisect [--git NAME | --repo DIR] [--build CMD]
 *       [--workload GLOB]... [--metric GLOB]... [--profile P] [--iterations N]
 *       [--runs N] [--max-runs N] [--no-side-check] [--json|--csv]
 *       GOOD..BAD
 *   perfwatch bisect --list-git [--json|--csv]
 *
 * Each commit measured is checked out in the repository (bisect/range.c),
 * built with the build command in it, and measured by a child `perfwatch
 * run --trigger bisect --git-commit NAME=ID` of the workloads, as a
 * person would measure it; so its runs are in the store like any other,
 * kept out of rolling baselines and change points by their trigger.
 * Runs a commit already has there (an earlier bisection, one stopped
 * half way, perfwatchd's runs of the watched tree) are used again when
 * they measured the machine as it is now (the same snapshot) built by
 * the same build command, of the same workloads (bisect_stored_runs),
 * so a bisection started again goes on where it stopped; one whose machine
 * changed under it stops (75).  A run measured on a busy machine (the
 * [quiet] policy measured anyway) is not counted: another is made in its
 * place, and BISECT_BUSY_MAX of them in a row stop the bisection (75),
 * its runs kept.
 *
 * Both ends are measured first: --runs each (3), then a run more of
 * each while the metric found is less than BISECT_ENDS_T standard
 * errors apart, up to BISECT_ENDS_MAX, since the two levels are what
 * every commit between is judged by.  With no metric found, a run more
 * each while one might yet be: a metric worse at the bad end, not
 * clearly unchanged (q under 0.5) and not shown to be worse by less than
 * [detect] min_change (the upper 99% bound of its worsening under it);
 * so ends that differ by a real but small amount say so after a few
 * runs, not BISECT_ENDS_MAX.  The metric bisected is the one
 * that got worse from the good end to the bad one by the most standard
 * errors (or --metric), and the commits between are then judged as
 * looking like one end or the other (bisect/search.c), with up to
 * --max-runs runs each (8).  bench/bisect measures how often that finds
 * the right commit, beside a search of one run a commit.  The answer is
 * then checked side by side (bisect_side_check): every commit was
 * judged by the ends' levels of the start, so a machine whose speed
 * changed during the search (seen on a shared VM: a loop 20% slower for
 * minutes) made the search follow the machine, and name a commit the
 * code did not slow.  The last good and the first bad commit measured
 * one right after the other share the machine's state; when their pairs
 * show no step, the answer does not hold and it exits 75
 * (--no-side-check leaves it out, where builds are dear and the machine
 * is steady).  At
 * the end the working tree and HEAD are put back as they were, also on
 * Ctrl-C.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "json.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"
#include "bisect/bisect.h"
#include "detect/detect.h"
#include "detect/stats.h"
#include "sysinfo/sysinfo.h"
#include "cli.h"

#define BISECT_BUILD_TAIL	20	/* lines of a failed build shown */
#define BISECT_BUSY_MAX		3	/* busy runs in a row that stop it */

struct bisect_opts {
	const char	 *git;
	const char	 *repo;
	const char	 *build;
	char		**globs;
	size_t		  nglobs;
	int		  own_globs;	/* --workload, not [git]'s */
	char		**conf_globs;	/* [git] workloads, owned */
	const char	 *git_build;	/* [git] build: perfwatchd's runs' */
	char		**metrics;	/* --metric globs, as check's */
	size_t		  nmetrics;
	const char	 *profile;
	int		  iterations;
	int		  runs;
	int		  max_runs;
	char		 *good;
	char		 *bad;
	int		  list_git;	/* --list-git: the [git] trees */
	int		  no_side;	/* --no-side-check */
};

/* Why a commit was skipped. */
enum bisect_skip {
	SKIP_NONE,
	SKIP_FAILED,		/* its build or a run failed */
	SKIP_NO_METRIC,		/* its runs lacked the metric */
	SKIP_UNDECIDED		/* --max-runs runs, still undecided */
};

/* A commit and what was measured of it. */
struct bisect_point {
	struct bisect_commit	*c;		/* borrowed */
	int64_t			*runs;
	size_t			 nruns;
	int			 built;		/* -1: build or run failed */
	double			*levels;	/* the metric's, by run */
	double			*se;
	size_t			 nlevels;
	double			 llr;
	enum bisect_mark	 mark;
	int			 lost;		/* runs without the metric */
	int			 failed;	/* a run in which the metric's
						   workload failed */
	enum bisect_skip	 skip;		/* why, when skipped */
};

struct bisect_ctx {
	struct cli		*c;
	struct bisect_opts	*o;
	struct store		*st;
	int64_t			 host;
	struct bisect_tree	*tree;
	char			*self;		/* the perfwatch to start */
	char			*key;		/* the git_commits name */
	char			*detail;	/* "bisect RANGE" + tail */
	char			*tail;		/* " of REPO, workloads: W,
						   build: CMD" */
	/* The commit checked out, and the one whose build is in the tree. */
	char			 current[BISECT_OID_HEX];
	char			 built[BISECT_OID_HEX];
	int64_t			 snapshot;	/* the machine as it is */
	int			 busy;		/* runs in a row measured on
						   a busy machine */
	/* The metric, once chosen. */
	char			*workload;
	char			*metric;
	char			*unit;
	enum better		 better;
};

/*
 * The answer checked side by side: the last good commit and the first
 * bad one measured one right after the other, pair by pair.
 */
struct bisect_side {
	int			 checked;	/* 0: --no-side-check */
	enum bisect_mark	 mark;	/* BAD: it holds; GOOD: it does not;
					   UNTESTED: undecided */
	size_t			 pairs;
	double			 llr;
	double			 diff;	/* mean of bad - good over the pairs */
};

static volatile sig_atomic_t bisect_signal;

static void
bisect_on_signal(int sig)
{
	bisect_signal = sig;
}

/* A child's end has only to wake bisect_wait's sigsuspend(). */
static void
bisect_on_child(int sig)
{
	(void)sig;
}

/* Whether a revision is read from HEAD: HEAD~3, @, @{-1}, HEAD^2 ... */
static int
bisect_names_head(const char *rev)
{
	return strstr(rev, "HEAD") != NULL || strchr(rev, '@') != NULL;
}

/*
 * Block the signals bisect_wait() waits for, before a fork, into *old.
 * A signal to stop that comes while a build or run is being started then
 * waits for the check in bisect_wait(), where it could otherwise come
 * just after it and go unseen until the child ended; and a child that
 * bisect_wait() signals before the child's exec keeps it pending until
 * bisect_child_signals(), where the handler the child inherited would
 * have taken it and the child gone on (a build that never stopped).
 */
static void
bisect_block(sigset_t *old)
{
	sigset_t	set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * In the child, before anything else: the default actions back, then the
 * mask as it was, so that a signal already sent to it ends it now.
 */
static void
bisect_child_signals(const sigset_t *old)
{
	struct sigaction	dfl, was;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
	/* Ignored as by nohup, they stay so: the runs go on too. */
	cli_catch(SIGINT, &dfl, &was);
	cli_catch(SIGHUP, &dfl, &was);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/*
 * A line of progress on stderr: "bisect: ...".  Escaped as a table's
 * cells are (table_display): its workload and metric names come from a
 * profile or a custom workload's output and its commit subjects from the
 * repository, and their control characters reached the terminal as they
 * were.
 */
static void __attribute__((format(printf, 1, 2)))
bisect_progress(const char *fmt, ...)
{
	va_list	 ap;
	char	*line, *shown;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	shown = table_display(line, NULL);
	fprintf(stderr, "bisect: %s\n", shown);
	free(shown);
	free(line);
}

/*
 * Wait for a child forked with the signals blocked (bisect_block: old is
 * the mask from before, restored here); pass on a signal the parent
 * alone was sent, to the child's process group with group (a build:
 * what its shell started would go on writing in the tree once it is put
 * back).  The flag is checked with the signals blocked, and sigsuspend()
 * unblocks them and waits in one step, so none comes unseen between.
 */
static int
bisect_wait(pid_t pid, int group, int *status, const sigset_t *old)
{
	sigset_t	wait_mask = *old;
	pid_t		r;
	int		sent = 0, rc = -1;

	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGHUP);
	sigdelset(&wait_mask, SIGCHLD);
	for (;;) {
		if (bisect_signal && !sent) {
			kill(group ? -pid : pid, bisect_signal);
			sent = 1;
		}
		if ((r = waitpid(pid, status, WNOHANG)) == pid) {
			rc = 0;
			break;
		}
		if (r == -1 && errno != EINTR)
			break;
		if (r == 0)
			sigsuspend(&wait_mask);
	}
	sigprocmask(SIG_SETMASK, old, NULL);
	return rc;
}

/*
 * Whether a stored run measured what this bisection measures: every
 * workload it ran matches a --workload glob (any, without globs).
 */
static int
bisect_run_fits(struct bisect_ctx *x, int64_t run)
{
	struct store_run_workload	*w;
	size_t				 n, i, k;
	int				 fits = 1;

	if (x->o->nglobs == 0)
		return 1;
	if (store_run_workloads(x->st, run, &w, &n) == -1)
		return 0;
	for (i = 0; i < n && fits; i++) {
		for (k = 0; k < x->o->nglobs; k++)
			if (fnmatch(x->o->globs[k], w[i].workload, 0) == 0)
				break;
		fits = k < x->o->nglobs;
	}
	store_run_workloads_free(w, n);
	return fits && n > 0;
}

/*
 * Whether a bisection run's detail, "bisect GOOD..BAD" and a tail, has
 * this bisection's tail: the same repository, workloads (and profile and
 * iterations) and build command.
 */
static int
bisect_detail_fits(const struct bisect_ctx *x, const char *detail)
{
	const char	*range;
	size_t		 len;

	if (detail == NULL || strncmp(detail, "bisect ", 7) != 0)
		return 0;
	range = detail + 7;
	len = strcspn(range, " ");
	return strcmp(range + len, x->tail) == 0;
}

/* Append to a detail's tail. */
static void __attribute__((format(printf, 2, 3)))
bisect_tail_add(char **tail, const char *fmt, ...)
{
	va_list	 ap;
	char	*more, *s;

	va_start(ap, fmt);
	if (vasprintf(&more, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	xasprintf(&s, "%s%s", *tail, more);
	free(*tail);
	free(more);
	*tail = s;
}

/*
 * The runs of a commit the store has, oldest first: a bisection's, or
 * perfwatchd's of the watched tree (trigger git: the ends of a range
 * taken from an alert usually have some), on this host, on the machine
 * as it is now (its snapshot: a run from before a kernel or package
 * change measured another machine), and not on a busy machine.  A git
 * run counts only when it was queued for this commit (its detail names
 * it): perfwatchd records in every battery the commit each watched tree
 * holds, so a run queued for another tree's new commit names this one
 * too, and measured both.  And each was built and measured as this
 * bisection builds and measures: a bisection's run by the same build
 * command, of the same --workload globs, --profile and --iterations (its
 * detail's tail names them), perfwatchd's only when the build and the
 * workloads are its [git] section's and its profile and iterations the
 * configuration's; a build command mended (a flag forgotten) must not
 * find the runs of the old, nor a bisection of every workload the runs
 * of one of a single workload, which never measured the others (it
 * found nothing to bisect in what they did measure).
 */
static int
bisect_stored_runs(struct bisect_ctx *x, const char *id, int64_t **out,
    size_t *nout)
{
	struct store_run_filter	 f;
	struct store_run	*runs;
	json_t			*gc;
	const char		*v;
	size_t			 n, i;

	*out = NULL;
	*nout = 0;
	memset(&f, 0, sizeof(f));
	f.status = RUN_COMPLETE;
	if (store_runs_list(x->st, &f, &runs, &n) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (runs[i].host != x->host ||
		    runs[i].snapshot != x->snapshot || runs[i].busy ||
		    runs[i].trigger == NULL ||
		    (strcmp(runs[i].trigger, "bisect") != 0 &&
		    strcmp(runs[i].trigger, "git") != 0) ||
		    runs[i].git_commits == NULL)
			continue;
		if (strcmp(runs[i].trigger, "git") == 0 &&
		    (runs[i].trigger_detail == NULL ||
		    strstr(runs[i].trigger_detail, id) == NULL ||
		    !same_str(x->o->build, x->o->git_build) ||
		    x->o->own_globs || x->o->profile != NULL ||
		    x->o->iterations > 0))
			continue;
		if (strcmp(runs[i].trigger, "bisect") == 0 &&
		    !bisect_detail_fits(x, runs[i].trigger_detail))
			continue;
		if ((gc = json_loads(runs[i].git_commits, 0, NULL)) == NULL)
			continue;
		v = json_string_value(json_object_get(gc, x->key));
		if (v != NULL && strcmp(v, id) == 0 &&
		    bisect_run_fits(x, runs[i].id)) {
			*out = xreallocarray(*out, *nout + 1, sizeof(**out));
			(*out)[(*nout)++] = runs[i].id;
		}
		json_decref(gc);
	}
	store_runs_free(runs, n);
	return 0;
}

/* Print the last lines of a build's log, read from its start. */
static void
bisect_log_tail(FILE *f)
{
	char	*lines[BISECT_BUILD_TAIL] = { 0 }, *line = NULL;
	size_t	 cap = 0, n = 0, i;

	rewind(f);
	while (getline(&line, &cap, f) != -1) {
		free(lines[n % BISECT_BUILD_TAIL]);
		lines[n % BISECT_BUILD_TAIL] = xstrdup(line);
		n++;
	}
	free(line);
	for (i = n > BISECT_BUILD_TAIL ? n - BISECT_BUILD_TAIL : 0; i < n;
	    i++)
		fprintf(stderr, "    | %s", lines[i % BISECT_BUILD_TAIL]);
	for (i = 0; i < BISECT_BUILD_TAIL; i++)
		free(lines[i]);
}

/*
 * Run the build command in the repository, its output into an unnamed
 * temporary file whose tail is shown if it fails: 0 built, 1 failed,
 * -1 error.
 */
static int
bisect_build(struct bisect_ctx *x, const struct bisect_commit *c)
{
	FILE		*log;
	sigset_t	 old;
	pid_t		 pid;
	int		 status, rc = -1;

	if ((log = tmpfile()) == NULL) {
		log_warn("a temporary file for the build's output");
		return -1;
	}
	fflush(NULL);
	bisect_block(&old);
	if ((pid = fork()) == -1) {
		log_warn("fork");
		sigprocmask(SIG_SETMASK, &old, NULL);
		goto out;
	}
	if (pid == 0) {
		int	null;

		bisect_child_signals(&old);
		null = open("/dev/null", O_RDONLY);
		setpgid(0, 0);
		if (null != -1)
			dup2(null, STDIN_FILENO);
		dup2(fileno(log), STDOUT_FILENO);
		dup2(fileno(log), STDERR_FILENO);
		/* The build has 0-2 of ours, and no other descriptor. */
		if (null > STDERR_FILENO)
			close(null);
		if (fileno(log) > STDERR_FILENO)
			close(fileno(log));
		if (chdir(x->o->repo) == -1) {
			fprintf(stderr, "%s: %s\n", x->o->repo,
			    strerror(errno));
			_exit(127);
		}
		execl("/bin/sh", "sh", "-c", x->o->build, (char *)NULL);
		fprintf(stderr, "/bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	/* Its own group, before a signal can come to be passed on. */
	setpgid(pid, pid);
	if (bisect_wait(pid, 1, &status, &old) == -1) {
		log_warn("waitpid");
		goto out;
	}
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	if (rc == 1 && !bisect_signal) {
		if (WIFEXITED(status))
			log_warnx("build at %.12s failed (exit %d): %s", c->id,
			    WEXITSTATUS(status), x->o->build);
		else
			log_warnx("build at %.12s killed by signal %d: %s",
			    c->id, WTERMSIG(status), x->o->build);
		bisect_log_tail(log);
	}
out:
	fclose(log);
	return rc;
}

/*
 * One run of the workloads at the checked-out commit, by a child
 * `perfwatch run`.  0 and *run, 1 when the run failed (the commit's
 * doing: the workloads did not run), or the exit status to stop with.
 */
static int
bisect_run_child(struct bisect_ctx *x, const struct bisect_commit *c,
    int64_t *run)
{
	const char	**argv;
	char		 *label = NULL, *commit, iters[16];
	size_t		  argc = 0, i, k;
	sigset_t	  old;
	pid_t		  pid;
	int		  status, rc;

	for (k = 1; label == NULL || store_run_lookup(x->st, x->host, label,
	    run) == 0; k++) {
		free(label);
		xasprintf(&label, "bisect-%.12s-%zu", c->id, k);
	}
	xasprintf(&commit, "%s=%s", x->key, c->id);
	argv = xcalloc(24 + 2 * x->o->nglobs, sizeof(*argv));
	argv[argc++] = x->self;
	if (x->c->conf_path != NULL) {
		argv[argc++] = "-c";
		argv[argc++] = x->c->conf_path;
	}
	argv[argc++] = "-D";
	argv[argc++] = x->c->db_path;
	argv[argc++] = "run";
	argv[argc++] = "--trigger";
	argv[argc++] = "bisect";
	argv[argc++] = "--no-check";
	argv[argc++] = "--label";
	argv[argc++] = label;
	argv[argc++] = "--detail";
	argv[argc++] = x->detail;
	argv[argc++] = "--git-commit";
	argv[argc++] = commit;
	if (x->o->profile != NULL) {
		argv[argc++] = "--profile";
		argv[argc++] = x->o->profile;
	}
	if (x->o->iterations > 0) {
		snprintf(iters, sizeof(iters), "%d", x->o->iterations);
		argv[argc++] = "--iterations";
		argv[argc++] = iters;
	}
	for (i = 0; i < x->o->nglobs; i++) {
		argv[argc++] = "--workload";
		argv[argc++] = x->o->globs[i];
	}
	argv[argc] = NULL;
	fflush(NULL);
	bisect_block(&old);
	if ((pid = fork()) == -1) {
		log_warn("fork");
		sigprocmask(SIG_SETMASK, &old, NULL);
		rc = EXIT_SOFTWARE;
		goto out;
	}
	if (pid == 0) {
		int	null;

		bisect_child_signals(&old);
		null = open("/dev/null", O_RDWR);

		/* The run's report is not ours to print; its errors are. */
		if (null != -1) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execv(x->self, (char *const *)argv);
		fprintf(stderr, "perfwatch: %s: %s\n", x->self,
		    strerror(errno));
		_exit(127);
	}
	if (bisect_wait(pid, 0, &status, &old) == -1) {
		log_warn("waitpid");
		rc = EXIT_SOFTWARE;
		goto out;
	}
	if (bisect_signal) {
		rc = 128 + bisect_signal;
		goto out;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "perfwatch: the run at %.12s was killed by "
		    "signal %d\n", c->id, WTERMSIG(status));
		rc = 128 + WTERMSIG(status);
		goto out;
	}
	switch (WEXITSTATUS(status)) {
	case 0:
		rc = store_run_lookup(x->st, x->host, label, run) == 0 ? 0 :
		    EXIT_SOFTWARE;
		break;
	case EXIT_USAGE:
	case EXIT_CONFIG:
	case EXIT_CANTCREAT:
	case EXIT_IOERR:
	case EXIT_TEMPFAIL:
	case 127:
		/*
		 * Not the commit's doing: every commit would meet it.  A
		 * full disk (74) was taken for a commit that cannot be
		 * measured: 65 at an end, every commit skipped between.
		 */
		fprintf(stderr, "perfwatch: the run at %.12s exited %d; "
		    "stopping (its runs so far are kept and used again)\n",
		    c->id, WEXITSTATUS(status));
		rc = WEXITSTATUS(status) == 127 ? EXIT_SOFTWARE :
		    WEXITSTATUS(status);
		break;
	default:
		log_warnx("the run at %.12s failed (exit %d)", c->id,
		    WEXITSTATUS(status));
		rc = 1;
		break;
	}
out:
	free(argv);
	free(commit);
	free(label);
	return rc;
}

/* The level and se of workload's metric among a run's series; 0 if none. */
static int
bisect_series_level(const struct store_series *ser, size_t n,
    const char *workload, const char *metric, double *level, double *se)
{
	size_t	k;

	for (k = 0; k < n; k++)
		if (strcmp(ser[k].metric.workload, workload) == 0 &&
		    strcmp(ser[k].metric.metric, metric) == 0 && ser[k].n > 0) {
			detect_run_level(ser[k].values, ser[k].n, level, se);
			return isfinite(*level);
		}
	return 0;
}

/*
 * Whether the chosen metric's workload failed or ran out of time in a
 * run (its run_workloads status): the commit's doing, as a run that
 * fails outright is, and what every run of it would meet.  Aborted (by
 * a signal) or skipped is not the commit's.
 */
static int
bisect_run_failed(struct bisect_ctx *x, int64_t run)
{
	struct store_run_workload	*w;
	size_t				 n, i;
	int				 failed = 0;

	if (store_run_workloads(x->st, run, &w, &n) == -1)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(w[i].workload, x->workload) == 0 &&
		    (strcmp(w[i].status, "failed") == 0 ||
		    strcmp(w[i].status, "timeout") == 0))
			failed = 1;
	store_run_workloads_free(w, n);
	return failed;
}

/*
 * The chosen metric's level in each of the point's runs.  The runs
 * without it are forgotten (a run stored by an earlier bisection of
 * other workloads), so that they are not counted as measurements; one
 * in which its workload failed sets p->failed.
 */
static void
bisect_levels(struct bisect_ctx *x, struct bisect_point *p)
{
	struct store_series	*ser;
	size_t			 nser, i, kept = 0;
	int			 found;

	free(p->levels);
	free(p->se);
	p->levels = xcalloc(p->nruns + 1, sizeof(*p->levels));
	p->se = xcalloc(p->nruns + 1, sizeof(*p->se));
	for (i = 0; i < p->nruns; i++) {
		if (store_run_series(x->st, p->runs[i], &ser, &nser) == -1)
			continue;
		found = bisect_series_level(ser, nser, x->workload, x->metric,
		    &p->levels[kept], &p->se[kept]);
		store_series_free(ser, nser);
		if (found)
			p->runs[kept++] = p->runs[i];
		else if (bisect_run_failed(x, p->runs[i]))
			p->failed = 1;
	}
	p->nruns = p->nlevels = kept;
}

/*
 * Have at least want runs of a commit: those stored, then new ones.  0,
 * 1 when the commit cannot be measured (build or run failed), or the
 * exit status to stop with.
 */
static int
bisect_measure(struct bisect_ctx *x, struct bisect_point *p, size_t want)
{
	struct store_run r;
	char	*cause = NULL, *why;
	int64_t	 run;
	int	 rc, changed;

	if (p->runs == NULL &&
	    bisect_stored_runs(x, p->c->id, &p->runs, &p->nruns) == -1)
		return EXIT_SOFTWARE;
	while (p->nruns < want) {
		if (bisect_signal)	/* before this build or run began */
			return 128 + bisect_signal;
		if (p->built == -1)
			return 1;
		if (strcmp(x->current, p->c->id) != 0) {
			if (bisect_tree_checkout(x->tree, p->c->id,
			    &cause) == -1) {
				fprintf(stderr, "perfwatch: %s\n", cause);
				free(cause);
				return EXIT_SOFTWARE;
			}
			snprintf(x->current, sizeof(x->current), "%s",
			    p->c->id);
		}
		/*
		 * The tree holds the output of the last build, whichever
		 * commit that was: back at a commit built before (another
		 * run of an end), it is built again.
		 */
		if (x->o->build != NULL && strcmp(x->built, p->c->id) != 0) {
			bisect_progress("building %.12s", p->c->id);
			x->built[0] = '\0';
			if ((rc = bisect_build(x, p->c)) == -1)
				return EXIT_SOFTWARE;
			if (bisect_signal)
				return 128 + bisect_signal;
			if (rc != 0) {
				p->built = -1;
				return 1;
			}
			snprintf(x->built, sizeof(x->built), "%s", p->c->id);
		}
		if ((rc = bisect_run_child(x, p->c, &run)) != 0) {
			if (rc == 1)
				p->built = -1;	/* no more tries */
			return rc;
		}
		if (store_run_get(x->st, run, &r) == -1)
			return EXIT_SOFTWARE;
		changed = r.snapshot != x->snapshot;
		if (changed)
			fprintf(stderr, "perfwatch: the machine changed during "
			    "the bisection (run %s has snapshot %lld, the "
			    "bisection began on %lld; perfwatch env diff says "
			    "how); start it again to measure the machine as it "
			    "is now\n", r.label, (long long)r.snapshot,
			    (long long)x->snapshot);
		if (!changed && (why = view_busy_why(&r)) != NULL) {
			/* Its figures are the machine's and its load's. */
			x->busy++;
			bisect_progress("run %s at %.12s was measured on a busy "
			    "machine (%s): not counted%s", r.label, p->c->id,
			    why, x->busy < BISECT_BUSY_MAX ?
			    ", measuring again" : "");
			free(why);
			store_run_clear(&r);
			if (x->busy < BISECT_BUSY_MAX)
				continue;
			fprintf(stderr, "perfwatch: %d runs in a row were "
			    "measured on a busy machine; stopping (its runs "
			    "so far are kept and used again)\n", x->busy);
			return EXIT_TEMPFAIL;
		}
		store_run_clear(&r);
		if (changed)
			return EXIT_TEMPFAIL;
		x->busy = 0;
		p->runs = xreallocarray(p->runs, p->nruns + 1,
		    sizeof(*p->runs));
		p->runs[p->nruns++] = run;
	}
	return 0;
}

/*
 * The change from the good end's level to level in percent of the good
 * level's size, as check has it (-5 to -8 is -60%, not +60%); NaN when
 * the good level is 0 (no percentage of it), as check's is.
 */
static double
bisect_pct(double level, double good)
{
	if (good == 0 || !isfinite(good) || !isfinite(level))
		return NAN;
	return (level - good) / fabs(good) * 100;
}


/* The mean of a point's levels; NaN when it has none. */
static double
bisect_mean(const double *v, size_t n)
{
	double	m;

	return n > 0 && stats_mean(v, n, &m) == 0 ? m : NAN;
}

/* The median se of the runs at both ends: the noise's floor. */
static double
bisect_se_floor(const double *g, size_t ng, const double *b, size_t nb)
{
	double	*v, m;

	if (ng + nb == 0)
		return 0;
	v = xcalloc(ng + nb, sizeof(*v));
	memcpy(v, g, ng * sizeof(*v));
	memcpy(v + ng, b, nb * sizeof(*v));
	m = stats_median_inplace(v, ng + nb);
	free(v);
	return m;
}

/* Every run's series of a point, read once for the metric's choice. */
struct bisect_series {
	struct store_series	*ser;
	size_t			 n;
};

/* The levels and ses of workload's metric in the runs read; how many. */
static size_t
bisect_levels_of(const struct bisect_series *rs, size_t nruns,
    const char *workload, const char *metric, double *level, double *se)
{
	size_t	i, n = 0;

	for (i = 0; i < nruns; i++)
		n += bisect_series_level(rs[i].ser, rs[i].n, workload, metric,
		    &level[n], &se[n]);
	return n;
}

/* Read the series of a point's runs; NULL on a store error. */
static struct bisect_series *
bisect_series_read(struct bisect_ctx *x, const struct bisect_point *p)
{
	struct bisect_series	*rs;
	size_t			 i;

	rs = xcalloc(p->nruns + 1, sizeof(*rs));
	for (i = 0; i < p->nruns; i++)
		if (store_run_series(x->st, p->runs[i], &rs[i].ser,
		    &rs[i].n) == -1) {
			while (i-- > 0)
				store_series_free(rs[i].ser, rs[i].n);
			free(rs);
			return NULL;
		}
	return rs;
}

static void
bisect_series_free(struct bisect_series *rs, size_t n)
{
	size_t	i;

	for (i = 0; rs != NULL && i < n; i++)
		store_series_free(rs[i].ser, rs[i].n);
	free(rs);
}

/* Whether the --metric globs take metric: one matches it, or none given. */
static int
bisect_metric_take(const struct bisect_opts *o, const char *metric)
{
	size_t	i;

	for (i = 0; i < o->nmetrics; i++)
		if (fnmatch(o->metrics[i], metric, 0) == 0)
			return 1;
	return o->nmetrics == 0;
}

/* The --metric globs as they were given: "--metric a --metric 'b*'". */
static char *
bisect_metric_text(const struct bisect_opts *o)
{
	char	*t = xstrdup(""), *u;
	size_t	 i;

	for (i = 0; i < o->nmetrics; i++) {
		xasprintf(&u, "%s%s--metric %s", t, i > 0 ? " " : "",
		    cli_show(o->metrics[i]));
		free(t);
		t = u;
	}
	return t;
}

/*
 * Whether the good end's first run has a metric that glob matches: 1,
 * or 0 and in *names the metrics it has ("lat, ops") and in *hint those
 * glob is likely a typo of (name_hint, NULL: none), -1 on a store
 * error.
 */
static int
bisect_metric_known(struct bisect_ctx *x, const struct bisect_point *g,
    const char *glob, char **names, char **hint)
{
	struct bisect_series	*gs;
	struct name_hint	 h;
	char			*s;
	const char		*m;
	size_t			 i, k;
	int			 found = 0;

	*names = *hint = NULL;
	if ((gs = bisect_series_read(x, g)) == NULL)
		return -1;
	name_hint_init(&h, glob);
	for (i = 0; g->nruns > 0 && i < gs[0].n && !found; i++) {
		m = gs[0].ser[i].metric.metric;
		found = fnmatch(glob, m, 0) == 0;
		for (k = 0; k < i; k++)
			if (strcmp(gs[0].ser[k].metric.metric, m) == 0)
				break;
		if (k < i)
			continue;	/* another workload's, named */
		name_hint_add(&h, m);
		xasprintf(&s, "%s%s%s", *names != NULL ? *names : "",
		    *names != NULL ? ", " : "", m);
		free(*names);
		*names = s;
	}
	/* h points into gs: its text first. */
	if (!found)
		*hint = name_hint_text(&h);
	bisect_series_free(gs, g->nruns);
	if (found) {
		free(*names);
		*names = NULL;
	}
	return found;
}

struct bisect_candidate {
	struct store_metric	 m;
	double			 change;	/* % from good to bad */
	double			 t;
	double			 p;
	double			 q;
	double			 bound;		/* % worse at most */
	int			 within;	/* bound under the floor */
	int			 from_zero;	/* good level 0, bad not */
};

/*
 * The metric to bisect: of the metrics the good end's first run has,
 * those worse at the bad end beyond the floor with q <= 0.01 across
 * them (Student's t over run levels), the one with the largest t (in
 * *t_best); the metrics --metric selects only, and q across those: the
 * family is what the user asked about, as check --metric has it.
 * *q_near is the q of the metric worse at the bad end by the largest t,
 * eligible or not, of those not shown to be worse by less than the
 * floor (1 when every one is).  0 and the choice in x, 1 when there is
 * none (*why says what came nearest), -1 on a store error.
 */
static int
bisect_choose(struct bisect_ctx *x, struct bisect_point *g,
    struct bisect_point *b, double min_change, char **why, double *t_best,
    double *q_near)
{
	struct bisect_series	*gs, *bs;
	struct store_series	*ser;
	struct bisect_candidate	*cand = NULL, *best = NULL, *near = NULL;
	struct bisect_candidate	*open = NULL;
	double			*p, *q, *gl, *gse, *bl, *bse, floor;
	char			 pct[32], *sel;
	size_t			 nser, ncand = 0, i, ng, nb;
	int			 worse, rc;

	free(*why);
	*why = NULL;
	*t_best = 0;
	*q_near = 1;
	free(x->workload);
	free(x->metric);
	free(x->unit);
	x->workload = x->metric = x->unit = NULL;
	gs = bisect_series_read(x, g);
	bs = bisect_series_read(x, b);
	if (gs == NULL || bs == NULL || g->nruns == 0) {
		bisect_series_free(gs, g->nruns);
		bisect_series_free(bs, b->nruns);
		return -1;
	}
	ser = gs[0].ser;
	nser = gs[0].n;
	gl = xcalloc(g->nruns + 1, sizeof(*gl));
	gse = xcalloc(g->nruns + 1, sizeof(*gse));
	bl = xcalloc(b->nruns + 1, sizeof(*bl));
	bse = xcalloc(b->nruns + 1, sizeof(*bse));
	cand = xcalloc(nser + 1, sizeof(*cand));
	for (i = 0; i < nser; i++) {
		struct bisect_candidate	*k = &cand[ncand];
		const char		*w = ser[i].metric.workload;
		const char		*m = ser[i].metric.metric;

		if (!bisect_metric_take(x->o, m))
			continue;
		ng = bisect_levels_of(gs, g->nruns, w, m, gl, gse);
		nb = bisect_levels_of(bs, b->nruns, w, m, bl, bse);
		floor = bisect_se_floor(gse, ng, bse, nb);
		if (bisect_ends_test(gl, ng, bl, nb, floor, &k->t,
		    &k->p) == -1)
			continue;
		k->m = ser[i].metric;
		k->change = bisect_pct(bisect_mean(bl, nb),
		    bisect_mean(gl, ng));
		/* From 0 there is no percentage, but any change is beyond it. */
		k->from_zero = bisect_mean(gl, ng) == 0 &&
		    bisect_mean(bl, nb) != 0;
		k->within = bisect_ends_worse_bound(gl, ng, bl, nb, floor,
		    k->m.better == BETTER_HIGHER, BISECT_ENDS_Q, &k->bound) ==
		    0 && k->bound < min_change;
		ncand++;
	}
	p = xcalloc(ncand + 1, sizeof(*p));
	q = xcalloc(ncand + 1, sizeof(*q));
	for (i = 0; i < ncand; i++)
		p[i] = cand[i].p;
	if (ncand > 0)
		stats_bh(p, ncand, q);
	for (i = 0; i < ncand; i++) {
		cand[i].q = q[i];
		worse = cand[i].m.better == BETTER_HIGHER ? cand[i].t < 0 :
		    cand[i].t > 0;
		if (!worse)
			continue;
		if (near == NULL || fabs(cand[i].t) > fabs(near->t))
			near = &cand[i];
		if (!cand[i].within && (open == NULL ||
		    fabs(cand[i].t) > fabs(open->t)))
			open = &cand[i];
		if (cand[i].q > BISECT_ENDS_Q || (!cand[i].from_zero &&
		    !(fabs(cand[i].change) >= min_change)))
			continue;
		if (best == NULL || fabs(cand[i].t) > fabs(best->t))
			best = &cand[i];
	}
	if (open != NULL)
		*q_near = open->q;
	if (best != NULL) {
		*t_best = fabs(best->t);
		x->workload = xstrdup(best->m.workload);
		x->metric = xstrdup(best->m.metric);
		x->unit = xstrdup(best->m.unit != NULL ? best->m.unit : "");
		x->better = best->m.better;
	} else if (ncand == 0 || near == NULL) {
		sel = bisect_metric_text(x->o);
		if (ncand == 0)
			xasprintf(why, "the good end's runs have no metric%s%s"
			    "%s", x->o->nmetrics > 0 ? " that " : "", sel,
			    x->o->nmetrics > 0 ? " selects" : "");
		else
			xasprintf(why, "no metric%s%s%s is worse at the bad "
			    "end", x->o->nmetrics > 0 ? " that " : "", sel,
			    x->o->nmetrics > 0 ? " selects" : "");
		free(sel);
	} else if (open == NULL) {
		cli_fmt_pct(pct, sizeof(pct), near->change);
		xasprintf(why, "every metric worse at the bad end is worse by "
		    "less than the floor of %g%%: the nearest, %s %s, "
		    "changed %s, at most %.1f%% worse (%g%% confidence)",
		    min_change, near->m.workload, near->m.metric, pct,
		    near->bound, 100 * (1 - BISECT_ENDS_Q));
	} else {
		if (isfinite(near->change))
			cli_fmt_pct(pct, sizeof(pct), near->change);
		else
			snprintf(pct, sizeof(pct), "from 0");
		xasprintf(why, "the metric nearest to it, %s %s, changed "
		    "%s with q %.3g (a bisection needs a change beyond "
		    "%g%% with q <= %g)", near->m.workload, near->m.metric,
		    pct, near->q, min_change, BISECT_ENDS_Q);
	}
	rc = best != NULL ? 0 : 1;
	free(p);
	free(q);
	free(cand);
	free(gl);
	free(gse);
	free(bl);
	free(bse);
	bisect_series_free(gs, g->nruns);
	bisect_series_free(bs, b->nruns);
	return rc;
}

/* A copy of a point with runs, levels and ses of its own. */
static void
bisect_point_copy(struct bisect_point *to, const struct bisect_point *from)
{
	*to = *from;
	to->runs = xcalloc(from->nruns + 1, sizeof(*to->runs));
	if (from->nruns > 0)
		memcpy(to->runs, from->runs, from->nruns * sizeof(*to->runs));
	to->levels = to->se = NULL;
	to->nlevels = 0;
}

static void
bisect_point_free(struct bisect_point *p)
{
	free(p->runs);
	free(p->levels);
	free(p->se);
}

/*
 * The differences bad - good of the pairs of runs of g and b measured
 * one right after the other (b's run the next the store recorded after
 * g's) into d, room for g->nlevels; how many.  The ends give some (the
 * good end's last run of the first --runs and the bad end's first, then
 * the runs made of each in turn), as do the runs bisect_side_check()
 * makes.
 */
static size_t
bisect_pairs(const struct bisect_point *g, const struct bisect_point *b,
    double *d)
{
	size_t	i, k, n = 0;

	for (i = 0; i < g->nlevels; i++)
		for (k = 0; k < b->nlevels; k++)
			if (b->runs[k] == g->runs[i] + 1) {
				d[n++] = b->levels[k] - g->levels[i];
				break;
			}
	return n;
}

/*
 * Check the answer side by side.  Every commit was judged against the
 * ends' levels, measured at the start: a machine that sped up or slowed
 * down during the search (a host's other guests, a thermal limit) moves
 * every level after it, and the search then follows the machine, not the
 * code.  Measured one right after the other, the last good commit g and
 * the first bad one b share the machine's state, and their difference is
 * the step alone: Wald's test between no step and the ends' gap
 * (bisect_side_decide), a pair at a time up to most pairs, the pairs the
 * store has first (a bisection started again asks no new ones).  0 and
 * *side, or the exit status to stop with.
 */
static int
bisect_side_check(struct bisect_ctx *x, const struct bisect_point *good,
    const struct bisect_point *bad, const struct bisect_sprt *s,
    size_t most, struct bisect_side *side)
{
	struct bisect_point	 pg, pb, *g = &pg, *b = &pb;
	double			*d;
	size_t			 tries, i;
	int			 r = 0;

	/*
	 * Copies: the report gives the runs the search judged by, and the
	 * pairs apart.
	 */
	bisect_point_copy(g, good);
	bisect_point_copy(b, bad);
	memset(side, 0, sizeof(*side));
	side->checked = 1;
	for (tries = 0;; tries++) {
		bisect_levels(x, g);
		bisect_levels(x, b);
		d = xcalloc(g->nlevels + 1, sizeof(*d));
		side->pairs = bisect_pairs(g, b, d);
		side->mark = side->pairs == 0 ? BISECT_UNTESTED :
		    bisect_side_decide(s, d, side->pairs, &side->llr);
		side->diff = 0;
		for (i = 0; i < side->pairs; i++)
			side->diff += d[i] / (double)side->pairs;
		free(d);
		/* Not a run more than most pairs, however many were lost. */
		if (side->mark != BISECT_UNTESTED || side->pairs >= most ||
		    tries >= most)
			break;
		if (tries == 0)
			bisect_progress("checking the answer side by side: "
			    "%.12s then %.12s, a pair of runs at a time",
			    g->c->id, b->c->id);
		if ((r = bisect_measure(x, g, g->nruns + 1)) != 0 ||
		    (r = bisect_measure(x, b, b->nruns + 1)) != 0) {
			if (r == 1)
				r = 0;	/* cannot be measured: undecided */
			break;
		}
	}
	bisect_point_free(g);
	bisect_point_free(b);
	return r;
}

static const char *
bisect_mark_name(enum bisect_mark m)
{
	switch (m) {
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_SKIP:
		return "skip";
	default:
		return "untested";
	}
}

/* GOOD..BAD into its two revisions. */
static int
bisect_parse_range(struct bisect_opts *o, const char *arg)
{
	const char	*dots = strstr(arg, "..");

	if (dots == NULL || dots == arg || dots[2] == '\0' || dots[2] == '.')
		return -1;
	o->good = xstrndup(arg, (size_t)(dots - arg));
	o->bad = xstrdup(dots + 2);
	return 0;
}

/*
 * Whether option opt's value is not valid UTF-8, said if so: the build
 * command, the --workload globs and --profile are in the detail of every
 * run (bisect_ctx.detail), which a run refuses when it is not UTF-8, as
 * JSON carries nothing else; the bisection stopped at its first run
 * with that run's usage error ("--detail: not valid UTF-8"), an option
 * the user never gave.
 */
static int
bisect_utf8_opt(const char *opt, const char *value)
{
	if (utf8_check(value, NULL) == 0)
		return 0;
	fprintf(stderr, "perfwatch: %s: not valid UTF-8 (each run records "
	    "it, and what a run records must be UTF-8)\n", opt);
	return 1;
}

static int
bisect_parse(struct cli *c, struct bisect_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "git", required_argument, NULL, 'g' },
		{ "repo", required_argument, NULL, 'r' },
		{ "build", required_argument, NULL, 'b' },
		{ "workload", required_argument, NULL, 'w' },
		{ "metric", required_argument, NULL, 'm' },
		{ "profile", required_argument, NULL, 'p' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'n' },
		{ "max-runs", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "list-git", no_argument, NULL, 'L' },
		{ "no-side-check", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*other = NULL;
	long long	 v;
	int		 ch, k;

	memset(o, 0, sizeof(*o));
	o->runs = 3;
	o->max_runs = 8;
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		/* The first option of a bisection, which --list-git is not. */
		for (k = 0; other == NULL && opts[k].name != NULL; k++)
			if (opts[k].val == ch && strchr("jcL", ch) == NULL)
				other = opts[k].name;
		switch (ch) {
		case 'g':
			if (cli_blank_opt("--git", optarg))
				return -1;
			o->git = optarg;
			break;
		case 'r':
			if (cli_blank_opt("--repo", optarg))
				return -1;
			o->repo = optarg;
			break;
		case 'b':
			if (cli_blank_opt("--build", optarg) ||
			    bisect_utf8_opt("--build", optarg))
				return -1;
			o->build = optarg;
			break;
		case 'w':
			if (cli_blank_opt("--workload", optarg) ||
			    bisect_utf8_opt("--workload", optarg))
				return -1;
			o->globs = xreallocarray(o->globs, o->nglobs + 1,
			    sizeof(*o->globs));
			o->globs[o->nglobs++] = optarg;
			o->own_globs = 1;
			break;
		case 'm':
			if (cli_blank_opt("--metric", optarg))
				return -1;
			o->metrics = xreallocarray(o->metrics,
			    o->nmetrics + 1, sizeof(*o->metrics));
			o->metrics[o->nmetrics++] = optarg;
			break;
		case 'p':
			if (cli_blank_opt("--profile", optarg) ||
			    bisect_utf8_opt("--profile", optarg))
				return -1;
			o->profile = optarg;
			break;
		case 'i':
		case 'n':
		case 'x':
			if (cli_parse_count(optarg, 1, ch == 'i' ? 100000 :
			    100, &v) == -1) {
				fprintf(stderr, "perfwatch: --%s: \"%s\" is "
				    "not a count from 1 to %d\n", ch == 'i' ?
				    "iterations" : ch == 'n' ? "runs" :
				    "max-runs", optarg, ch == 'i' ? 100000 :
				    100);
				return -1;
			}
			if (ch == 'i')
				o->iterations = (int)v;
			else if (ch == 'n')
				o->runs = (int)v;
			else
				o->max_runs = (int)v;
			break;
		case 'j':
			c->out = OUT_JSON;
			break;
		case 'c':
			c->out = OUT_CSV;
			break;
		case 'L':
			o->list_git = 1;
			break;
		case 'S':
			o->no_side = 1;
			break;
		default:
			return -1;
		}
	}
	if (o->list_git && optind < argc) {
		cli_bad_arg(NULL, argv[optind]);
		return -1;
	}
	/* It was ignored: bisect --list-git --workload x listed. */
	if (o->list_git && other != NULL) {
		cli_usage_why(NULL, "--list-git takes no --%s", other);
		return -1;
	}
	if (o->list_git)
		return 0;
	if (optind + 1 < argc) {
		cli_bad_arg(NULL, argv[optind + 1]);
		return -1;
	}
	if (optind == argc) {
		cli_usage_why(NULL, "no range GOOD..BAD given");
		return -1;
	}
	if (bisect_parse_range(o, argv[optind]) == -1) {
		cli_usage_why(NULL, "'%s' is not a range GOOD..BAD",
		    argv[optind]);
		return -1;
	}
	if (o->git != NULL && o->repo != NULL) {
		fprintf(stderr, "perfwatch: --git and --repo: one or the "
		    "other\n");
		return -1;
	}
	return 0;
}

/*
 * --list-git: the [git] sections of the configuration that --git names,
 * each with its path, a row each (or JSON).
 */
static void
bisect_list_git(struct cli *c)
{
	static const char *const hdr[] = { "git", "path" };
	/* For a program each column is named as --json names it. */
	static const char *const csv_hdr[] = { "name", "path" };
	struct table	*t;
	const char	*name, *path;
	char		*section;
	json_t		*arr, *o;
	size_t		 i;

	arr = c->out == OUT_JSON ? pwjson_array() : NULL;
	_Static_assert(nitems(hdr) == nitems(csv_hdr),
	    "bisect --list-git: CSV header");
	t = table_new(nitems(hdr), c->out == OUT_CSV ? csv_hdr : hdr, NULL);
	for (i = 0; c->cfg != NULL &&
	    (name = config_sections(c->cfg, "git", i)) != NULL; i++) {
		xasprintf(&section, "git %s", name);
		path = config_get_str(c->cfg, section, "path");
		if (arr != NULL) {
			o = pwjson_object();
			pwjson_set_str(o, "name", name);
			pwjson_set_str(o, "path", path);
			pwjson_append(arr, o);
		} else {
			table_addf(t, 0, "%s", name);
			table_addf(t, 1, "%s", path != NULL ? path : "");
			table_end_row(t);
		}
		free(section);
	}
	if (arr != NULL) {
		cli_json_print(arr);
		json_decref(arr);
	} else
		table_print(t, stdout, c->out);
	table_free(t);
}

/* --git NAME: the repository, build and workloads of a [git] section. */
static int
bisect_from_config(struct cli *c, struct bisect_opts *o)
{
	const char	*name;
	char		*section, **list;
	size_t		 i, n;

	for (i = 0; (name = config_sections(c->cfg, "git", i)) != NULL; i++)
		if (strcmp(name, o->git) == 0)
			break;
	if (name == NULL) {
		fprintf(stderr, "perfwatch: --git %s: the configuration%s%s "
		    "has no [git \"%s\"] section\n", o->git,
		    config_file(c->cfg) != NULL ? " " : "",
		    config_file(c->cfg) != NULL ? config_file(c->cfg) : "",
		    o->git);
		return -1;
	}
	xasprintf(&section, "git %s", name);
	o->repo = config_get_str(c->cfg, section, "path");
	o->git_build = config_get_str(c->cfg, section, "build");
	if (o->build == NULL)
		o->build = o->git_build;
	if (o->nglobs == 0) {
		list = config_get_list(c->cfg, section, "workloads");
		for (n = 0; list[n] != NULL; n++)
			;
		o->conf_globs = list;
		if (n > 0) {
			o->globs = xreallocarray(NULL, n, sizeof(*o->globs));
			memcpy(o->globs, list, n * sizeof(*o->globs));
			o->nglobs = n;
		}
	}
	free(section);
	return 0;
}

/* Why skipped commit p was, for a person: in buf. */
static const char *
bisect_skip_why(const struct bisect_ctx *x, const struct bisect_point *p,
    char *buf, size_t len)
{
	switch (p->skip) {
	case SKIP_FAILED:
		snprintf(buf, len, "its build or run failed");
		break;
	case SKIP_NO_METRIC:
		snprintf(buf, len, "%d runs without %s %s", p->lost,
		    x->workload, x->metric);
		break;
	default:
		snprintf(buf, len, "undecided after %zu run%s, --max-runs %d",
		    p->nlevels, p->nlevels == 1 ? "" : "s", x->o->max_runs);
		break;
	}
	return buf;
}

static json_t *
bisect_point_json(const struct bisect_point *p, double good_level, int end)
{
	json_t	*o;
	double	 level = bisect_mean(p->levels, p->nlevels);

	o = pwjson_object();
	pwjson_set_str(o, "id", p->c->id);
	pwjson_set_str(o, "summary", p->c->summary);
	pwjson_set_str(o, "verdict", bisect_mark_name(p->mark));
	pwjson_set_int(o, "runs", (int64_t)p->nlevels);
	pwjson_set_num(o, "level", level);
	pwjson_set_num(o, "change_pct", bisect_pct(level, good_level));
	/*
	 * A commit skipped for a failed build or runs without the metric
	 * was never judged: no ratio (the table's "-"), not a 0 that reads
	 * as runs at the middle between the ends.
	 */
	pwjson_set_num(o, "llr", end || (p->mark == BISECT_SKIP &&
	    p->skip != SKIP_UNDECIDED) ? NAN : p->llr);
	/* Null for a commit that was not skipped, as a key without value. */
	pwjson_set_str(o, "skipped", p->mark != BISECT_SKIP ? NULL :
	    p->skip == SKIP_FAILED ? "failed" : p->skip == SKIP_NO_METRIC ?
	    "no_metric" : "undecided");
	return o;
}

/*
 * The report's columns; the table has all but the last two (its first
 * line names the metric and its unit, which the CSV's rows say).  The
 * CSV names each as --json names the same value, the table for a
 * person.
 */
static const char *const bisect_hdr[] = { "verdict", "commit", "runs",
    "level", "change", "llr", "summary", "first_bad", "unit" };
static const char *const bisect_csv_hdr[] = { "verdict", "id", "runs",
    "level", "change_pct", "llr", "summary", "first_bad", "unit" };
_Static_assert(nitems(bisect_hdr) == nitems(bisect_csv_hdr),
    "bisect: CSV header");

/*
 * A report end with no metric chosen: its commit, verdict and runs, and
 * every other key of bisect_point_json()'s null (they were left out).
 */
static json_t *
bisect_end_json(const struct bisect_point *p, const char *verdict)
{
	json_t	*o;

	o = pwjson_object();
	pwjson_set_str(o, "id", p->c->id);
	pwjson_set_str(o, "summary", p->c->summary);
	pwjson_set_str(o, "verdict", verdict);
	pwjson_set_int(o, "runs", (int64_t)p->nruns);
	pwjson_set(o, "level", json_null());
	pwjson_set(o, "change_pct", json_null());
	pwjson_set(o, "llr", json_null());
	pwjson_set(o, "skipped", json_null());
	return o;
}

/*
 * --json when there is nothing to bisect: the report's keys, no metric,
 * no first bad commit and no candidates, and why.  --csv: the report's
 * header and the two ends, with their runs and no level (no metric was
 * chosen), so that a program reading the CSV of every bisection finds a
 * table in each.
 */
static void
bisect_report_none(struct bisect_ctx *x, const struct bisect_point *gp,
    const struct bisect_point *bp, size_t n, const char *why)
{
	json_t				*o;
	struct table			*t;
	const struct bisect_point	*p;
	int				 i;

	if (x->c->out == OUT_CSV) {
		t = table_new(nitems(bisect_csv_hdr), bisect_csv_hdr, NULL);
		for (i = 0; i < 2; i++) {
			p = i == 0 ? gp : bp;
			table_addf(t, 0, "%s", i == 0 ? "good" : "bad");
			table_addf(t, 1, "%s", p->c->id);
			table_addf(t, 2, "%zu", p->nruns);
			table_addf(t, 3, "-");
			table_addf(t, 4, "-");
			table_addf(t, 5, "-");
			table_addf(t, 6, "%s", p->c->summary);
			table_addf(t, 7, "%s", "");
			/* No metric chosen: no unit either. */
			table_end_row(t);
		}
		table_print(t, stdout, OUT_CSV);
		table_free(t);
		return;
	}
	o = pwjson_object();
	/* The working tree: "path", as --list-git and status name it. */
	pwjson_set_str(o, "path", x->o->repo);
	pwjson_set(o, "metric", json_null());
	/* Every key of bisect_report()'s, null without a value. */
	pwjson_set(o, "noise", json_null());
	pwjson_set_int(o, "commits", (int64_t)n);
	pwjson_set_int(o, "measured", 0);
	pwjson_set(o, "good", bisect_end_json(gp, "good"));
	pwjson_set(o, "bad", bisect_end_json(bp, "bad"));
	pwjson_set(o, "tested", pwjson_array());
	pwjson_set(o, "first_bad", json_null());
	pwjson_set(o, "candidates", pwjson_array());
	pwjson_set(o, "side_by_side", json_null());
	pwjson_set(o, "merged_branch", json_null());
	pwjson_set_str(o, "nothing_to_bisect", why);
	cli_json_print(o);
	json_decref(o);
}

/* The side-by-side check's verdict in a word. */
static const char *
bisect_side_name(const struct bisect_side *side)
{
	switch (side->mark) {
	case BISECT_BAD:
		return "holds";
	case BISECT_GOOD:
		return "does not hold";
	default:
		return "undecided";
	}
}

/*
 * The side-by-side check for --json: its verdict, pairs, log likelihood
 * ratio and the pairs' mean change from the good end, in percent.
 */
static json_t *
bisect_side_json(const struct bisect_side *side, double g)
{
	json_t	*o;
	double	 pct = bisect_pct(g + side->diff, g);

	o = pwjson_object();
	pwjson_set_str(o, "verdict", side->mark == BISECT_BAD ? "holds" :
	    side->mark == BISECT_GOOD ? "does_not_hold" : "undecided");
	pwjson_set_int(o, "pairs", (int64_t)side->pairs);
	if (side->pairs > 0) {
		pwjson_set_num(o, "llr", side->llr);
		pwjson_set(o, "change_pct", isfinite(pct) ?
		    pwjson_num(pct) : json_null());
	} else {
		pwjson_set(o, "llr", json_null());
		pwjson_set(o, "change_pct", json_null());
	}
	return o;
}

/* The report: a table, or JSON. */
static void
bisect_report(struct bisect_ctx *x, struct bisect_point *gp,
    struct bisect_point *pts, size_t n, size_t first, size_t last,
    double sd, size_t tested, const struct bisect_side *side)
{
	/* One for each of bisect_csv_hdr: table_new() reads as many. */
	static const enum table_align al[] = { ALIGN_LEFT, ALIGN_LEFT,
	    ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_RIGHT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_LEFT };
	_Static_assert(nitems(al) == nitems(bisect_csv_hdr),
	    "a column without its alignment");
	int		 csv = x->c->out == OUT_CSV;
	struct table	*t;
	json_t		*o, *arr, *m;
	double		 g = bisect_mean(gp->levels, gp->nlevels), level, pct;
	char		 buf[96], gbuf[32], lbuf[32];
	char		 base[BISECT_OID_HEX], tip[BISECT_OID_HEX];
	char		*cause = NULL;
	size_t		 i;
	int		 merge = 0;

	if (first == last && (merge = bisect_merged_branch(x->o->repo,
	    pts[first].c->id, base, tip, &cause)) == -1) {
		log_warnx("%s", cause);
		free(cause);
	}
	if (x->c->out == OUT_JSON) {
		o = pwjson_object();
		/* The working tree: "path", as --list-git and status name it. */
		pwjson_set_str(o, "path", x->o->repo);
		m = pwjson_object();
		pwjson_set_str(m, "workload", x->workload);
		pwjson_set_str(m, "metric", x->metric);
		pwjson_set_str(m, "unit", x->unit);
		pwjson_set_str(m, "better", better_name(x->better));
		pwjson_set(o, "metric", m);
		pwjson_set_num(o, "noise", sd);
		pwjson_set_int(o, "commits", (int64_t)n);
		pwjson_set_int(o, "measured", (int64_t)tested);
		pwjson_set(o, "good", bisect_point_json(gp, g, 1));
		pwjson_set(o, "bad", bisect_point_json(&pts[n - 1], g, 1));
		arr = pwjson_array();
		for (i = 0; i + 1 < n; i++)
			if (pts[i].mark != BISECT_UNTESTED)
				pwjson_append(arr, bisect_point_json(&pts[i],
				    g, 0));
		pwjson_set(o, "tested", arr);
		if (first == last)
			pwjson_set(o, "first_bad", bisect_point_json(
			    &pts[first], g, first == n - 1));
		else
			pwjson_set(o, "first_bad", json_null());
		arr = pwjson_array();
		for (i = first; i <= last; i++)
			pwjson_append(arr, pwjson_str(pts[i].c->id));
		pwjson_set(o, "candidates", arr);
		pwjson_set(o, "side_by_side", side->checked ?
		    bisect_side_json(side, g) : json_null());
		if (merge == 1) {
			m = pwjson_object();
			pwjson_set_str(m, "good", base);
			pwjson_set_str(m, "bad", tip);
			pwjson_set(o, "merged_branch", m);
		} else
			pwjson_set(o, "merged_branch", json_null());
		/* Every key of bisect_report_none()'s, as it has every one. */
		pwjson_set(o, "nothing_to_bisect", json_null());
		cli_json_print(o);
		json_decref(o);
		return;
	}
	if (!csv)
		printf("%s %s%s%s (%s is better), %zu commit%s of %s: %zu "
		    "measured\n", cli_show(x->workload), cli_show(x->metric),
		    *x->unit != '\0' ? " in " : "", cli_show(x->unit),
		    better_name(x->better), n, n == 1 ? "" : "s", x->o->repo,
		    tested);
	/*
	 * CSV: the full ids, which is the first bad one (or may be), and
	 * the unit of the levels.
	 */
	t = csv ? table_new(nitems(bisect_csv_hdr), bisect_csv_hdr, al) :
	    table_new(nitems(bisect_hdr) - 2, bisect_hdr, al);
	for (i = 0; i <= n; i++) {
		const struct bisect_point *p = i == 0 ? gp : &pts[i - 1];

		if (i > 0 && p->mark == BISECT_UNTESTED)
			continue;
		level = bisect_mean(p->levels, p->nlevels);
		table_addf(t, 0, "%s", i == 0 ? "good" : i == n ? "bad" :
		    bisect_mark_name(p->mark));
		table_addf(t, 1, "%.*s", csv ? 40 : 12, p->c->id);
		table_addf(t, 2, "%zu", p->nlevels);
		cli_fmt_figure(buf, sizeof(buf), level, x->c->out);
		table_addf(t, 3, "%s", buf);
		/*
		 * CSV: the number --json gives, no "+" nor "%", the good
		 * end's too (0); the table leaves the good end's out.
		 */
		pct = bisect_pct(level, g);
		if (csv)
			cli_fmt_figure(buf, sizeof(buf), pct == 0 ? 0.0 : pct,
			    x->c->out);
		else if (i == 0)
			snprintf(buf, sizeof(buf), "-");
		else
			cli_fmt_pct(buf, sizeof(buf), pct);
		table_addf(t, 4, "%s", buf);
		if (i == 0 || i == n || (p->mark == BISECT_SKIP &&
		    p->skip != SKIP_UNDECIDED))
			table_addf(t, 5, "-");
		else if (csv) {
			store_format_double(buf, sizeof(buf), p->llr);
			table_addf(t, 5, "%s", buf);
		} else
			table_addf(t, 5, "%.1f", fabs(p->llr) < 0.05 ? 0.0 :
			    p->llr);
		table_addf(t, 6, "%s", p->c->summary);
		if (csv)
			table_addf(t, 7, "%s", i == 0 || i - 1 < first ||
			    i - 1 > last ? "" : first == last ? "yes" :
			    "maybe");
		if (csv)
			table_addf(t, 8, "%s", x->unit);
		table_end_row(t);
	}
	table_print(t, stdout, csv ? OUT_CSV : OUT_TABLE);
	table_free(t);
	if (csv)
		return;
	fmt_value(buf, sizeof(buf), sd);
	printf("noise of a run: %s %s (both ends' runs, upper 90%% bound); "
	    "error rates %g each way\n", buf, x->unit, BISECT_ALPHA);
	cli_fmt_pct(gbuf, sizeof(gbuf), bisect_pct(g + side->diff, g));
	if (!side->checked)
		printf("side by side: not checked (--no-side-check)\n");
	else
		printf("side by side (the last good and the first bad, one "
		    "right after the other): %s, %zu pair%s%s%s\n",
		    bisect_side_name(side), side->pairs, side->pairs == 1 ?
		    "" : "s", side->pairs > 0 ? ", " : "", side->pairs > 0 ?
		    gbuf : "");
	if (first == last) {
		level = bisect_mean(pts[first].levels, pts[first].nlevels);
		if (isfinite(bisect_pct(level, g)))
			cli_fmt_pct(buf, sizeof(buf), bisect_pct(level, g));
		else {
			/* No percentage of 0: the two levels. */
			fmt_value(gbuf, sizeof(gbuf), g);
			fmt_value(lbuf, sizeof(lbuf), level);
			snprintf(buf, sizeof(buf), "%s to %s%s%s", gbuf, lbuf,
			    *x->unit != '\0' ? " " : "", x->unit);
		}
		printf("%s: %s %s (%s)\n", side->mark == BISECT_GOOD ?
		    "the search's first bad commit, which does not hold" :
		    "first bad commit", pts[first].c->id,
		    cli_show(pts[first].c->summary), buf);
		/*
		 * git bisect would go on into the merged branch; the search
		 * here keeps to the first parents (bisect/range.c), so it
		 * says where to go on.
		 */
		if (side->mark != BISECT_GOOD && merge == 1)
			printf("it is a merge: the change came in with the "
			    "branch it merged, or with the merge itself; "
			    "bisect the branch next: %.12s..%.12s (the merge "
			    "base to the branch's tip)\n", base, tip);
	} else {
		printf("the first bad commit is one of these %zu (skipped "
		    "commits hide it):\n", last - first + 1);
		for (i = first; i <= last; i++)
			if (pts[i].mark == BISECT_SKIP)
				printf("  %s %s (skipped: %s)\n", pts[i].c->id,
				    cli_show(pts[i].c->summary),
				    bisect_skip_why(x, &pts[i], buf,
				    sizeof(buf)));
			else
				printf("  %s %s\n", pts[i].c->id,
				    cli_show(pts[i].c->summary));
	}
}

int
cmd_bisect(struct cli *c, int argc, char **argv)
{
	struct bisect_opts	 o;
	struct bisect_ctx	 x;
	struct bisect_commit	*commits = NULL, good;
	struct bisect_point	*pts = NULL, gp;
	struct bisect_sprt	 sprt;
	struct bisect_side	 side;
	struct sigaction	 sa, oldint, oldterm, oldhup, oldchld;
	struct sysinfo_opts	 so;
	struct snapshot		*snap = NULL;
	enum bisect_mark	*marks = NULL;
	char			*cause = NULL, *why = NULL, *repo_abs = NULL;
	char			*hint;
	const char		*left_at, *back;
	size_t			 n = 0, i, first = 0, last = 0, tested = 0;
	size_t			 step = 0, want, ends_max;
	unsigned		 left;
	time_t			 search_start;
	char			 eta[48], dur[32], pct[32], buf[128];
	double			 t_best = 0, q_near = 1, min_change;
	long			 k;
	int			 rc = 0, r, signals = 0;

	memset(&x, 0, sizeof(x));
	memset(&gp, 0, sizeof(gp));
	memset(&good, 0, sizeof(good));
	if (bisect_parse(c, &o, argc, argv) == -1) {
		rc = cli_usage("bisect");
		goto out;
	}
	if (o.list_git) {
		bisect_list_git(c);
		goto out;
	}
	if (o.git != NULL && bisect_from_config(c, &o) == -1) {
		rc = EXIT_CONFIG;
		goto out;
	}
	if (o.repo == NULL)
		o.repo = ".";
	if ((repo_abs = realpath(o.repo, NULL)) == NULL) {
		log_warn("%s", o.repo);
		rc = EXIT_NOINPUT;
		goto out;
	}
	o.repo = repo_abs;
	/* Its path is in every run's detail too (bisect_utf8_opt). */
	if (utf8_check(o.repo, NULL) == -1) {
		fprintf(stderr, "perfwatch: %s: the repository's path is not "
		    "valid UTF-8, and each run records it, where what a run "
		    "records must be UTF-8: bisect a clone of it at a path "
		    "that is\n", cli_show(o.repo));
		rc = EXIT_USAGE;
		goto out;
	}
	min_change = c->cfg != NULL ?
	    config_get_number(c->cfg, "detect", "min_change") : 2;
	x.c = c;
	x.o = &o;
	x.key = xstrdup(o.git != NULL ? o.git : "bisect");
	/*
	 * The range and the tree first: a revision mistyped, or a tree with
	 * changes, leaves no new database behind.
	 */
	if (bisect_range(o.repo, o.good, o.bad, &commits, &n, &good,
	    &cause) == -1) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		rc = EXIT_DATAERR;
		goto out;
	}
	/*
	 * A checkout leaves what is checked out in a submodule as it is:
	 * every commit would be built with the submodules of now, and a
	 * change a submodule's update brought in found nowhere, with
	 * nothing to say why.
	 */
	if ((r = bisect_range_submodules(o.repo, good.id, commits[n - 1].id,
	    &why, &cause)) == -1) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		rc = EXIT_DATAERR;
		goto out;
	}
	if (r > 0)
		bisect_progress("submodule%s %s change%s between the ends; "
		    "checking out a commit does not move a submodule (nor "
		    "does git checkout): each commit is built with %s as "
		    "%s now, unless the build command runs `git submodule "
		    "update`", r == 1 ? "" : "s", why, r == 1 ? "s" : "",
		    r == 1 ? "it" : "them", r == 1 ? "it is" : "they are");
	free(why);
	why = NULL;
	if ((x.tree = bisect_tree_open(o.repo, &r, &cause)) == NULL) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		/* Another bisection of the tree: to be tried once it ends. */
		rc = r ? EXIT_TEMPFAIL : EXIT_DATAERR;
		goto out;
	}
	if ((left_at = bisect_tree_left_at(x.tree)) != NULL) {
		back = bisect_tree_head(x.tree);
		if (strncmp(back, "refs/heads/", 11) == 0)
			back += 11;
		/*
		 * The range was read with HEAD where the bisection left
		 * it, not where the user had it: another range than meant.
		 */
		if (bisect_names_head(o.good) || bisect_names_head(o.bad)) {
			fprintf(stderr, "perfwatch: HEAD is at %.12s, where "
			    "a bisection that did not end left it, not at "
			    "%s: name the range without HEAD, or check out "
			    "%s first\n", left_at, back, back);
			rc = EXIT_DATAERR;
			goto out;
		}
		bisect_progress("HEAD is at %.12s, where a bisection that "
		    "did not end left it: it goes back to %s", left_at,
		    back);
		bisect_tree_restore(x.tree);
	}
	if ((x.st = cli_store(c)) == NULL) {
		rc = cli_store_none(c);
		goto out;
	}
	if ((x.host = store_host_local(x.st)) == -1) {
		/*
		 * Adding this host (a store of other machines' runs, or of
		 * this one under its old name): 75 when another process
		 * held the store locked, 74 for a full disk, as below.
		 */
		rc = cli_store_status(x.st, EXIT_SOFTWARE);
		goto out;
	}
	/*
	 * The machine as it is, as a run would record it, in the work
	 * directory that the run makes when there is none: its filesystem
	 * is in the snapshot, which failed ("No such file or directory")
	 * on a machine that had not run perfwatch yet.
	 */
	if (cli_work_dir_make(c) == -1) {
		rc = EXIT_CANTCREAT;
		goto out;
	}
	cli_sysinfo_opts(c, &so);
	/* Its runs' workloads' own work directories, as each run takes them. */
	cli_sysinfo_workdirs(c, o.profile, &so);
	snap = sysinfo_snapshot_take(cli_work_dir(c), &so, &cause);
	cli_sysinfo_workdirs_free(&so);
	if (snap == NULL ||
	    (x.snapshot = store_snapshot_put(x.st, snap, &cause)) == -1) {
		/*
		 * As for a run: a store locked by another process is to be
		 * tried again (75), a full disk cannot be written (74).
		 */
		r = snap != NULL && store_busy(x.st);
		fprintf(stderr, "perfwatch: machine snapshot: %s%s\n", cause,
		    r ? " (another process holds the store locked); try "
		    "again" : "");
		rc = snap != NULL ? cli_store_status(x.st, EXIT_SOFTWARE) :
		    EXIT_SOFTWARE;
		goto out;
	}
	x.self = perfwatch_path(cli_argv0);
	/*
	 * The tail names what makes a run this bisection's to use again:
	 * the repository, what the runs measure and how it is built.
	 */
	xasprintf(&x.tail, " of %s, ", o.repo);
	if (o.nglobs == 0)
		bisect_tail_add(&x.tail, "%s", "every workload");
	for (i = 0; i < o.nglobs; i++)
		bisect_tail_add(&x.tail, "%s%s", i == 0 ? "workloads: " : " ",
		    o.globs[i]);
	if (o.profile != NULL)
		bisect_tail_add(&x.tail, ", profile: %s", o.profile);
	if (o.iterations > 0)
		bisect_tail_add(&x.tail, ", iterations: %d", o.iterations);
	if (o.build != NULL)
		bisect_tail_add(&x.tail, ", build: %s", o.build);
	else
		bisect_tail_add(&x.tail, "%s", ", no build");
	xasprintf(&x.detail, "bisect %.12s..%.12s%s", good.id,
	    commits[n - 1].id, x.tail);
	pts = xcalloc(n, sizeof(*pts));
	marks = xcalloc(n, sizeof(*marks));
	for (i = 0; i < n; i++)
		pts[i].c = &commits[i];
	gp.c = &good;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bisect_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &oldterm);
	/*
	 * Ctrl-C and the terminal going away; unless ignored (started
	 * with & by a shell without job control, nohup): then the
	 * bisection, its builds and its runs go on.
	 */
	cli_catch(SIGINT, &sa, &oldint);
	cli_catch(SIGHUP, &sa, &oldhup);
	sa.sa_handler = bisect_on_child;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, &oldchld);
	signals = 1;

	bisect_progress("%zu commit%s after %.12s up to %.12s (first "
	    "parents); measuring both ends, %d run%s each", n, n == 1 ? "" :
	    "s", good.id, commits[n - 1].id, o.runs, o.runs == 1 ? "" : "s");
	/*
	 * The ends: --runs each, then a run more of each while the metric
	 * found is less than BISECT_ENDS_T standard errors apart (its
	 * levels decide every commit between), up to BISECT_ENDS_MAX.
	 */
	ends_max = o.runs > BISECT_ENDS_MAX ? (size_t)o.runs :
	    BISECT_ENDS_MAX;
	/*
	 * A --metric the workloads do not have (a typo) is known after a
	 * run of the good end, not after every run of both.
	 */
	if (o.nmetrics > 0 && (r = bisect_measure(&x, &gp, 1)) != 1) {
		/* 1, the good end not measured, is said below. */
		if (r != 0) {
			rc = r;
			goto out;
		}
		/* Each glob: one mistyped beside one right is mistyped. */
		for (i = 0; i < o.nmetrics; i++) {
			free(why);
			why = NULL;
			if ((r = bisect_metric_known(&x, &gp, o.metrics[i],
			    &why, &hint)) == -1) {
				rc = EXIT_SOFTWARE;
				goto out;
			}
			if (r == 0) {
				fprintf(stderr, "perfwatch: --metric %s: the "
				    "runs of the workloads have no such "
				    "metric%s%s%s; they have %s\n",
				    cli_show(o.metrics[i]), hint ?
				    " (did you mean " : "", hint ?
				    cli_show(hint) : "", hint ? "?)" : "",
				    why != NULL ? cli_show(why) : "none");
				free(hint);
				rc = EXIT_DATAERR;
				goto out;
			}
		}
	}
	for (want = (size_t)o.runs;; want++) {
		if ((r = bisect_measure(&x, &gp, want)) != 0 ||
		    (r = bisect_measure(&x, &pts[n - 1], want)) != 0) {
			if (r == 1)
				fprintf(stderr, "perfwatch: the %s end (%.12s) "
				    "cannot be measured\n", gp.built == -1 ?
				    "good" : "bad", gp.built == -1 ? good.id :
				    commits[n - 1].id);
			rc = r == 1 ? EXIT_DATAERR : r;
			goto out;
		}
		r = bisect_choose(&x, &gp, &pts[n - 1], min_change, &why,
		    &t_best, &q_near);
		if (r == -1 || !bisect_ends_more(want, ends_max, r == 0,
		    t_best, BISECT_ENDS_T, q_near))
			break;
		if (want < 2)
			;	/* one run a side says nothing of the noise */
		else if (r == 0)
			bisect_progress("%s %s: the ends are %.1f standard "
			    "errors apart, not yet %g: a run more of each",
			    x.workload, x.metric, t_best, BISECT_ENDS_T);
		else
			bisect_progress("no metric clearly worse yet (q %.2g): "
			    "a run more of each end", q_near);
	}
	if (r == -1) {
		rc = EXIT_SOFTWARE;
		goto out;
	}
	if (r == 1) {
		fprintf(stderr, "perfwatch: nothing to bisect between %.12s "
		    "and %.12s: %s\n", good.id, commits[n - 1].id,
		    cli_show(why));
		if (c->out != OUT_TABLE)
			bisect_report_none(&x, &gp, &pts[n - 1], n, why);
		rc = 1;
		goto out;
	}
	bisect_levels(&x, &gp);
	bisect_levels(&x, &pts[n - 1]);
	gp.mark = BISECT_GOOD;
	pts[n - 1].mark = marks[n - 1] = BISECT_BAD;
	memset(&sprt, 0, sizeof(sprt));
	sprt.good = bisect_mean(gp.levels, gp.nlevels);
	sprt.bad = bisect_mean(pts[n - 1].levels, pts[n - 1].nlevels);
	sprt.alpha = BISECT_ALPHA;
	sprt.beta = BISECT_BETA;
	sprt.df = BISECT_T_DF;
	if (bisect_noise(gp.levels, gp.nlevels, pts[n - 1].levels,
	    pts[n - 1].nlevels, bisect_se_floor(gp.se, gp.nlevels,
	    pts[n - 1].se, pts[n - 1].nlevels), &sprt.sd) == -1 ||
	    !(sprt.sd > 0))
		sprt.sd = fabs(sprt.bad - sprt.good) / 1e6;
	cli_fmt_pct(pct, sizeof(pct), bisect_pct(sprt.bad, sprt.good));
	bisect_progress("%s %s: %.6g at the good end, %.6g at the bad "
	    "(%s); about %u step%s", x.workload, x.metric, sprt.good,
	    sprt.bad, pct,
	    bisect_steps_left(marks, n), bisect_steps_left(marks, n) == 1 ?
	    "" : "s");

	search_start = time(NULL);
	while ((k = bisect_next(marks, n, &first, &last)) != -1) {
		struct bisect_point	*p = &pts[k];

		step++;
		/* What is left, at the pace of the steps so far. */
		left = bisect_steps_left(marks, n);
		eta[0] = '\0';
		if (step > 1 && timefmt_format_duration((int64_t)((double)
		    (time(NULL) - search_start) / (double)(step - 1) * left),
		    dur, sizeof(dur)) == 0)
			snprintf(eta, sizeof(eta), ", about %s", dur);
		bisect_progress("step %zu (%u left at most%s): %.12s %s",
		    step, left, eta, p->c->id, p->c->summary);
		p->mark = BISECT_UNTESTED;
		/* One run at a time (those stored first) until it decides. */
		want = 1;
		while (want <= (size_t)o.max_runs) {
			if ((r = bisect_measure(&x, p, want)) == 1)
				break;
			if (r != 0) {
				rc = r;
				goto out;
			}
			bisect_levels(&x, p);
			if (p->nlevels < want) {
				/*
				 * A run lacked the metric because its workload
				 * failed or timed out (another workload of the
				 * run ran, so the run did not fail outright):
				 * skipped as a commit whose run failed is,
				 * after that run.  It was run --max-runs times
				 * and more, each a whole battery that failed
				 * the same way.  Not when another run of it
				 * measured the metric: a workload that fails
				 * now and then is measured again.
				 */
				if (p->failed && p->nlevels == 0) {
					p->built = -1;
					break;
				}
				/* The new run lacked the metric: another. */
				if (++p->lost > o.max_runs)
					break;
				continue;
			}
			p->mark = bisect_sprt_decide(&sprt, p->levels,
			    p->nlevels, &p->llr);
			if (p->mark != BISECT_UNTESTED)
				break;
			want = p->nlevels + 1;
		}
		if (p->mark == BISECT_UNTESTED) {
			p->mark = BISECT_SKIP;
			p->skip = p->built == -1 ? SKIP_FAILED :
			    p->lost > o.max_runs ? SKIP_NO_METRIC :
			    SKIP_UNDECIDED;
		}
		marks[k] = p->mark;
		tested++;
		if (p->mark == BISECT_SKIP)
			bisect_progress("%.12s is skipped: %s", p->c->id,
			    bisect_skip_why(&x, p, buf, sizeof(buf)));
		else
			bisect_progress("%.12s is %s (%zu run%s, llr %.1f)",
			    p->c->id, bisect_mark_name(p->mark), p->nlevels,
			    p->nlevels == 1 ? "" : "s", p->llr);
	}
	memset(&side, 0, sizeof(side));
	side.mark = BISECT_UNTESTED;
	if (!o.no_side && (rc = bisect_side_check(&x, first == 0 ? &gp :
	    &pts[first - 1], &pts[last], &sprt, (size_t)o.max_runs,
	    &side)) != 0)
		goto out;
	cli_fmt_pct(pct, sizeof(pct), bisect_pct(sprt.good + side.diff,
	    sprt.good));
	if (side.mark == BISECT_BAD)
		bisect_progress("the answer holds side by side: %zu pair%s, "
		    "%s (llr %.1f)", side.pairs, side.pairs == 1 ? "" : "s",
		    pct, side.llr);
	else if (side.checked && side.mark == BISECT_UNTESTED)
		bisect_progress("the answer is undecided side by side after "
		    "%zu pair%s (%s): it stands on the search alone",
		    side.pairs, side.pairs == 1 ? "" : "s", side.pairs > 0 ?
		    pct : "none measured");
	bisect_report(&x, &gp, pts, n, first, last, sprt.sd, tested, &side);
	if (side.mark == BISECT_GOOD) {
		fflush(stdout);
		cli_fmt_pct(buf, sizeof(buf), bisect_pct(sprt.bad,
		    sprt.good));
		fprintf(stderr, "perfwatch: the answer does not hold side by "
		    "side: %.12s and %.12s, measured one right after the "
		    "other (%zu pair%s), differ by %s where the ends differ "
		    "by %s; the machine's speed changed during the search, "
		    "and each commit was judged by the ends' levels of "
		    "before: nothing is concluded\n",
		    first == 0 ? good.id : pts[first - 1].c->id,
		    pts[last].c->id, side.pairs, side.pairs == 1 ? "" : "s",
		    pct, buf);
		rc = EXIT_TEMPFAIL;
	}

out:
	if (x.tree != NULL && bisect_tree_close(x.tree, &cause) == -1) {
		fprintf(stderr, "perfwatch: %s; the tree is left at %.12s\n",
		    cause, x.current);
		if (rc == 0)
			rc = EXIT_SOFTWARE;
	}
	if (signals) {
		sigaction(SIGINT, &oldint, NULL);
		sigaction(SIGTERM, &oldterm, NULL);
		sigaction(SIGHUP, &oldhup, NULL);
		sigaction(SIGCHLD, &oldchld, NULL);
	}
	if (bisect_signal) {
		fprintf(stderr, "perfwatch: bisection stopped by signal %d; "
		    "its runs are kept and used again\n", (int)bisect_signal);
		rc = 128 + bisect_signal;
	}
	for (i = 0; pts != NULL && i < n; i++) {
		free(pts[i].runs);
		free(pts[i].levels);
		free(pts[i].se);
	}
	free(pts);
	free(marks);
	free(gp.runs);
	free(gp.levels);
	free(gp.se);
	bisect_commits_free(commits, n);
	sysinfo_snapshot_free(snap);
	bisect_commit_clear(&good);
	free(x.self);
	free(x.key);
	free(x.detail);
	free(x.tail);
	free(x.workload);
	free(x.metric);
	free(x.unit);
	free(why);
	free(cause);
	free(o.good);
	free(o.bad);
	free(repo_abs);
	config_list_free(o.conf_globs);
	free(o.globs);
	free(o.metrics);
	return rc;
}
