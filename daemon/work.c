/*
 * The one thing perfwatchd does at a time: a build of a watched
 * repository or a battery (`perfwatch run` as a child), and the queue of
 * what comes next.
 *
 * Triggers call work_want_run() with a reason.  Reasons wait in one
 * pending battery: when it starts they are merged, the first reason's
 * trigger naming the run, the details joined, the workloads the union of
 * theirs (any reason without workloads means the whole profile) and the
 * git commits the union too.  Builds go first, since a finished build
 * adds its commit's reason to the pending battery; but not a build of a
 * tree whose commit that battery records, which would replace the build
 * the battery is to measure.  Nothing starts while paused or stopping; a
 * battery in progress is never interrupted except by shutdown.
 *
 * When a battery ends, its JSON report (stdout) says how it went; the
 * report's "alerts" (if the run judged itself) with state "suspected"
 * are re-run at once, just those workloads, unless the battery was itself
 * a rerun, so that a rerun never asks for another.  A package change or
 * a new kernel queued while it ran, but seen before it started, was
 * measured by it if it measured the whole battery: that reason is
 * dropped (work_drop_measured()).
 *
 * A child that cannot be started at all (fork or pipe failed: the
 * service's process limit, or memory, or descriptors, for the moment)
 * loses nothing: its reasons or its build stay queued, and the queue is
 * tried again after WORK_RETRY_FIRST seconds, twice as long after each
 * failure in a row, at most WORK_RETRY_MAX.  Dropped, a package upgrade's
 * battery was never run, and nothing but the log said so.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "json.h"
#include "log.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "store/store.h"
#include "daemon.h"

#define WORK_MAX_PENDING	64	/* reasons waiting */
#define WORK_MAX_DETAIL		1000	/* bytes of the merged detail */
#define WORK_PROGRESS_PREFIX	"perfwatch-progress "
/*
 * The longest wait for a quiet machine a progress line may announce: a
 * week, past [quiet] max_wait's day; a longer one (or a number that
 * overflowed the wait's end) is no end known.
 */
#define WORK_MAX_WAIT		(7 * 24 * 3600)
#define WORK_RETRY_FIRST	10	/* seconds before the first retry */
#define WORK_RETRY_MAX		600	/* and the longest wait */
#define WORK_CLOSE_WAIT_MS	200	/* marking a killed run aborted */

static void	work_start_next(struct daemon *);

void
reason_clear(struct reason *r)
{
	size_t	i;

	free(r->trigger);
	free(r->detail);
	for (i = 0; i < r->nglobs; i++)
		free(r->globs[i]);
	free(r->globs);
	free(r->git_name);
	free(r->git_commit);
	memset(r, 0, sizeof(*r));
}

void
work_init(struct daemon *d)
{
	memset(&d->work, 0, sizeof(d->work));
	TAILQ_INIT(&d->work.builds);
}

/* Whether reasons r[0..n) hold one of the schedule's. */
static int
reasons_schedule(const struct reason *r, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(r[i].trigger, "schedule") == 0)
			return 1;
	return 0;
}

/* Whether two reasons are for the same battery: trigger and workloads. */
static int
reason_same_battery(const struct reason *a, const struct reason *b)
{
	size_t	i;

	if (!same_str(a->trigger, b->trigger) ||
	    (a->globs == NULL) != (b->globs == NULL) ||
	    a->nglobs != b->nglobs)
		return 0;
	for (i = 0; i < a->nglobs; i++)
		if (strcmp(a->globs[i], b->globs[i]) != 0)
			return 0;
	return 1;
}

/* Whether two reasons ask for exactly the same thing. */
static int
reason_equal(const struct reason *a, const struct reason *b)
{
	return reason_same_battery(a, b) && same_str(a->detail, b->detail) &&
	    same_str(a->git_name, b->git_name) &&
	    same_str(a->git_commit, b->git_commit);
}

/*
 * Whether b is a newer commit of the repository that a's commit is of,
 * for the same battery: then b takes a's place in the queue, as a newer
 * commit takes a queued build's (only the newest is measured).
 */
static int
reason_same_repo(const struct reason *a, const struct reason *b)
{
	return a->git_name != NULL && b->git_name != NULL &&
	    strcmp(a->git_name, b->git_name) == 0 &&
	    reason_same_battery(a, b);
}

/* Give a (queued) b's commit and detail, b being newer. */
static void
reason_take_commit(struct reason *a, const struct reason *b)
{
	free(a->git_commit);
	a->git_commit = b->git_commit != NULL ? xstrdup(b->git_commit) : NULL;
	free(a->detail);
	a->detail = b->detail != NULL ? xstrdup(b->detail) : NULL;
}

/*
 * Queue a battery for trigger (with detail, which may be NULL): of the
 * workloads matching globs (globs NULL: the whole profile), recording
 * git_name's commit if given.  Return 0, or -1 if the queue is full.
 * Nothing is started here: see work_want_run().
 */
static int
work_queue_run(struct daemon *d, const char *trigger, const char *detail,
    char *const *globs, size_t nglobs, const char *git_name,
    const char *git_commit)
{
	struct work	*w = &d->work;
	struct reason	 r;
	size_t		 i;

	memset(&r, 0, sizeof(r));
	r.trigger = xstrdup(trigger);
	r.detail = detail != NULL ? xstrdup(detail) : NULL;
	if (globs != NULL) {
		r.globs = xcalloc(nglobs + 1, sizeof(char *));
		for (i = 0; i < nglobs; i++)
			r.globs[i] = xstrdup(globs[i]);
		r.nglobs = nglobs;
	}
	if (git_name != NULL && git_commit != NULL) {
		r.git_name = xstrdup(git_name);
		r.git_commit = xstrdup(git_commit);
	}
	for (i = 0; i < w->npending; i++) {
		if (reason_equal(&w->pending[i], &r)) {
			log_debug("%s: already queued", trigger);
			reason_clear(&r);
			return 0;
		}
		/*
		 * A newer commit of a repository already queued replaces
		 * it: commits that came one by one were a reason each, and
		 * past the queue's 64 the newest, the one that matters, was
		 * dropped.
		 */
		if (reason_same_repo(&w->pending[i], &r)) {
			reason_take_commit(&w->pending[i], &r);
			log_info("queued battery (%s): %s now at %.12s",
			    trigger, git_name, git_commit);
			reason_clear(&r);
			return 0;
		}
	}
	/* At or past it: a requeue (below) may have put it past. */
	if (w->npending >= WORK_MAX_PENDING) {
		log_warnx("%s: %d reasons already queued; this one is dropped",
		    trigger, WORK_MAX_PENDING);
		reason_clear(&r);
		return -1;
	}
	w->pending = xreallocarray(w->pending, w->npending + 1,
	    sizeof(*w->pending));
	w->pending[w->npending++] = r;
	log_info("queued a battery: %s%s%s", trigger, detail != NULL ? ": " :
	    "", detail != NULL ? detail : "");
	return 0;
}

/* Queue a battery (work_queue_run()) and start it if nothing runs. */
int
work_want_run(struct daemon *d, const char *trigger, const char *detail,
    char *const *globs, size_t nglobs, const char *git_name,
    const char *git_commit)
{
	int	rc;

	rc = work_queue_run(d, trigger, detail, globs, nglobs, git_name,
	    git_commit);
	if (rc == 0) {
		work_kick(d);
		daemon_status(d);
	}
	return rc;
}

/*
 * Queue a battery of the whole profile for a change of the machine (a
 * package change, a new kernel) seen at seen (perfwatch_mono()), and
 * start it if nothing runs.  A battery that started after seen and
 * measured the whole battery has measured the change: work_run_done()
 * then drops the reason (work_drop_measured()).  The same reason queued
 * already takes the later time: the change may have come back since.
 */
int
work_want_change(struct daemon *d, const char *trigger, const char *detail,
    double seen)
{
	struct work	*w = &d->work;
	struct reason	*r;
	size_t		 i;

	if (work_queue_run(d, trigger, detail, NULL, 0, NULL, NULL) == -1)
		return -1;
	for (i = 0; i < w->npending; i++) {
		r = &w->pending[i];
		if (strcmp(r->trigger, trigger) == 0 &&
		    same_str(r->detail, detail) && r->globs == NULL &&
		    r->git_name == NULL && r->seen < seen)
			r->seen = seen;
	}
	work_kick(d);
	daemon_status(d);
	return 0;
}

/* Queue a build of repo at commit; a newer commit replaces a queued one. */
void
work_want_build(struct daemon *d, const char *repo, const char *commit)
{
	struct build	*b;

	TAILQ_FOREACH(b, &d->work.builds, entry) {
		if (strcmp(b->repo, repo) == 0) {
			free(b->commit);
			b->commit = xstrdup(commit);
			log_info("build %s: now at %.12s", repo, commit);
			return;
		}
	}
	b = xcalloc(1, sizeof(*b));
	b->repo = xstrdup(repo);
	b->commit = xstrdup(commit);
	TAILQ_INSERT_TAIL(&d->work.builds, b, entry);
	log_info("queued a build of %s at %.12s", repo, commit);
	work_kick(d);
	daemon_status(d);
}

/*
 * Start the next thing if nothing runs and the daemon may work.  While
 * the daemon starts, the reasons found then (a catch-up, a new kernel, a
 * commit made while it was down) gather into one battery.
 */
void
work_kick(struct daemon *d)
{
	if (d->stopping || d->paused || d->starting ||
	    d->work.kind != WORK_NONE || d->work.retry_at != 0)
		return;
	if (TAILQ_EMPTY(&d->work.builds) && d->work.npending == 0)
		return;
	work_start_next(d);
}

int
work_idle(const struct daemon *d)
{
	return d->work.kind == WORK_NONE;
}

/*
 * Whether alerts are to wait for the work in hand before they go out: a
 * battery running (the flush after it sends them), or a rerun queued
 * while not paused (it confirms or clears the battery's suspicions
 * before anyone is told; see work_battery_done).
 */
int
work_holds_alerts(const struct daemon *d)
{
	size_t	i;

	if (d->work.kind == WORK_BATTERY)
		return 1;
	for (i = 0; !d->paused && i < d->work.npending; i++) {
		if (strcmp(d->work.pending[i].trigger, "rerun") == 0)
			return 1;
	}
	return 0;
}

static void
work_retry_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	d->work.retry_at = 0;
	work_kick(d);
	daemon_status(d);
}

/*
 * The child for what could not start: keep the queue as it is, say so,
 * and try it again later.  why: what went wrong, "could not start" if
 * NULL.
 */
static void
work_retry_later(struct daemon *d, const char *what, const char *why)
{
	struct work	*w = &d->work;
	struct timeval	 tv;

	if (w->retry_delay == 0)
		w->retry_delay = WORK_RETRY_FIRST;
	else if ((w->retry_delay *= 2) > WORK_RETRY_MAX)
		w->retry_delay = WORK_RETRY_MAX;
	if (w->retry_timer == NULL)
		w->retry_timer = evtimer_new(d->base, work_retry_timer, d);
	tv.tv_sec = w->retry_delay;
	tv.tv_usec = 0;
	evtimer_add(w->retry_timer, &tv);
	w->retry_at = time(NULL) + w->retry_delay;
	w->retry_short = why == NULL ? "could not start a child" :
	    "a run could not record itself";
	if (why == NULL)
		why = "could not start";
	log_warnx("%s %s; trying again in %d s", what, why, w->retry_delay);
	free(w->last_error);
	xasprintf(&w->last_error, "%s %s; trying again in %d s", what, why,
	    w->retry_delay);
}

/*
 * The last line of a child's tail (job_tail joins them with " | "),
 * without the program's name and a closing "; try again", which the
 * daemon says its own way; in place.
 */
static const char *
work_last_words(char *tail)
{
	char	*p, *last = tail;
	size_t	 len;

	while ((p = strstr(last, " | ")) != NULL)
		last = p + 3;
	if (strncmp(last, "perfwatch: ", 11) == 0)
		last += 11;
	len = strlen(last);
	if (len > 11 && strcmp(last + len - 11, "; try again") == 0)
		last[len - 11] = '\0';
	return last;
}

/*
 * The battery that just ended did not run (its run could not be
 * recorded): its reasons go back to the head of the queue.  One queued
 * meanwhile that asks for the same is one with it, and a newer commit of
 * a repository it had takes that one's place; what is left may be more
 * than the queue takes (work_queue_run then refuses new ones until it
 * is less), as none of them may be lost.
 */
static void
work_requeue(struct work *w)
{
	struct reason	*all;
	size_t		 n = 0, i, k;

	all = xreallocarray(NULL, w->nstarted_for + w->npending + 1,
	    sizeof(*all));
	for (i = 0; i < w->nstarted_for; i++)
		all[n++] = w->started_for[i];
	for (i = 0; i < w->npending; i++) {
		for (k = 0; k < n; k++)
			if (reason_equal(&all[k], &w->pending[i]) ||
			    reason_same_repo(&all[k], &w->pending[i]))
				break;
		if (k == n) {
			all[n++] = w->pending[i];
			continue;
		}
		if (!reason_equal(&all[k], &w->pending[i]))
			reason_take_commit(&all[k], &w->pending[i]);
		/* A change seen again: measured only by a later battery. */
		if (all[k].seen < w->pending[i].seen)
			all[k].seen = w->pending[i].seen;
		reason_clear(&w->pending[i]);
	}
	free(w->pending);
	free(w->started_for);
	w->pending = all;
	w->npending = n;
	w->started_for = NULL;
	w->nstarted_for = 0;
}

/* Forget the battery or build that just ended. */
static void
work_clear_current(struct work *w)
{
	size_t	i;

	free(w->trigger);
	free(w->detail);
	free(w->label);
	free(w->workload);
	free(w->waiting);
	w->waiting = NULL;
	w->wait_since = w->wait_until = 0;
	if (w->build != NULL) {
		free(w->build->repo);
		free(w->build->commit);
		free(w->build);
	}
	for (i = 0; i < w->ngits; i++)
		free(w->gits[i]);
	free(w->gits);
	w->gits = NULL;
	w->ngits = 0;
	w->trigger = w->detail = w->label = w->workload = NULL;
	w->build = NULL;
	w->kind = WORK_NONE;
	w->job = NULL;
	w->started = 0;
	w->started_mono = 0;
	w->step = w->steps = 0;
	w->iteration = w->count = w->warmup = 0;
	w->rerun_ok = 0;
	for (i = 0; i < w->nstarted_for; i++)
		reason_clear(&w->started_for[i]);
	free(w->started_for);
	w->started_for = NULL;
	w->nstarted_for = 0;
	w->skipped = 0;
	if (w->kill_timer != NULL) {
		event_free(w->kill_timer);
		w->kill_timer = NULL;
	}
	if (w->build_timer != NULL) {
		event_free(w->build_timer);
		w->build_timer = NULL;
	}
	w->build_over = 0;
}

static void
set_str(char **p, const char *s)
{
	free(*p);
	*p = s != NULL ? xstrdup(s) : NULL;
}

/* A --progress line of the run: what it measures now. */
static void
work_progress(struct daemon *d, const char *text)
{
	struct work	*w = &d->work;
	json_error_t	 err;
	json_t		*j, *v;

	if ((j = json_loads(text, 0, &err)) == NULL || !json_is_object(j)) {
		log_debug("run: unreadable progress: %s", text);
		json_decref(j);
		return;
	}
	/* The [quiet] policy skipped the run: nothing to try again. */
	if ((v = json_object_get(j, "skipped")) != NULL && json_is_string(v)) {
		w->skipped = 1;
		json_decref(j);
		return;
	}
	/* The [quiet] policy waits for the machine before the run starts. */
	if ((v = json_object_get(j, "waiting")) != NULL && json_is_string(v)) {
		set_str(&w->waiting, json_string_value(v));
		w->wait_since = time(NULL);
		v = json_object_get(j, "max_wait");
		w->wait_until = json_is_integer(v) && json_integer_value(v) >
		    0 && json_integer_value(v) <= WORK_MAX_WAIT ?
		    w->wait_since + (time_t)json_integer_value(v) : 0;
		json_decref(j);
		daemon_status(d);
		return;
	}
	set_str(&w->waiting, NULL);
	w->wait_since = w->wait_until = 0;
	if ((v = json_object_get(j, "run")) != NULL && json_is_string(v) &&
	    !same_str(w->label, json_string_value(v)))
		set_str(&w->label, json_string_value(v));
	if ((v = json_object_get(j, "step")) != NULL && json_is_integer(v))
		w->step = json_integer_value(v);
	if ((v = json_object_get(j, "steps")) != NULL && json_is_integer(v))
		w->steps = json_integer_value(v);
	v = json_object_get(j, "workload");
	set_str(&w->workload, json_is_string(v) ? json_string_value(v) :
	    NULL);
	if ((v = json_object_get(j, "iteration")) != NULL &&
	    json_is_integer(v))
		w->iteration = (int)json_integer_value(v);
	if ((v = json_object_get(j, "count")) != NULL && json_is_integer(v))
		w->count = (int)json_integer_value(v);
	w->warmup = json_is_true(json_object_get(j, "warmup"));
	json_decref(j);
	if (w->step == 0)
		log_info("run %s started (%s)", w->label, w->trigger);
	daemon_status(d);
}

/* A line of the run's stderr: its progress (1), or a message (0). */
static int
work_run_line(struct job *j, const char *line, void *arg)
{
	struct daemon	*d = arg;

	(void)j;
	if (strncmp(line, WORK_PROGRESS_PREFIX,
	    strlen(WORK_PROGRESS_PREFIX)) == 0) {
		work_progress(d, line + strlen(WORK_PROGRESS_PREFIX));
		return 1;
	}
	log_info("run: %s", line);
	return 0;
}

/*
 * Close a run its child left running (the child was killed): mark it
 * aborted, as a restart would.  Return the run's status as it now
 * stands (one the child recorded before a late signal stopped it is
 * kept), or NULL when the run cannot be read.
 *
 * The mark waits at most WORK_CLOSE_WAIT_MS for the store's lock, not
 * its usual 5 s: this is the event loop, and the lock a killed run
 * meets is most often a long import's.  A mark the lock refuses is not
 * lost: the run stays "running" in the store with no process behind
 * it, and the next run's sweep, or perfwatchd's at its next start,
 * marks it aborted (store_runs_sweep).  The run is aborted all the
 * same, and so it is reported.
 */
static const char *
work_close_run(struct daemon *d, const char *label)
{
	struct store_run	 r;
	const char		*status = NULL;
	int64_t			 id;
	int			 was;

	if (label == NULL || d->st == NULL ||
	    store_run_lookup(d->st, d->host, label, &id) == -1)
		return NULL;
	if (store_run_get(d->st, id, &r) == -1)
		return NULL;
	if (strcmp(r.status, RUN_RUNNING) == 0) {
		was = store_busy_limit(d->st, WORK_CLOSE_WAIT_MS);
		if (daemon_store_begin(d) == -1 ||
		    store_run_finish(d->st, id, RUN_ABORTED,
		    (int64_t)time(NULL)) == -1 || store_commit(d->st) == -1) {
			(void)store_rollback(d->st);
			if (store_busy(d->st))
				log_warnx("run %s: its process was killed; "
				    "%s is locked by another process, so the "
				    "next run, or perfwatchd's next start, "
				    "marks it aborted", label, d->db_path);
			else
				log_warnx("run %s: cannot mark it aborted: %s",
				    label, store_errmsg(d->st));
		} else
			log_warnx("run %s: its process was killed; marked "
			    "aborted", label);
		(void)store_busy_limit(d->st, was);
		/* Marked or not, it is: the sweep marks what is left. */
		status = RUN_ABORTED;
	} else if (strcmp(r.status, RUN_COMPLETE) == 0)
		status = RUN_COMPLETE;
	else if (strcmp(r.status, RUN_FAILED) == 0)
		status = RUN_FAILED;
	else if (strcmp(r.status, RUN_ABORTED) == 0)
		status = RUN_ABORTED;
	store_run_clear(&r);
	return status;
}

/*
 * Ask for a rerun of the workloads whose alerts the report says are
 * suspected, and could be confirmed: on a history too young to confirm
 * anything a suspicion may stay open for many runs (detect/alert.c), and
 * a rerun after each would only measure it again.  The report's "alerts"
 * may be absent: then nothing is.  Returns whether a rerun was asked for.
 */
static int
work_rerun_suspected(struct daemon *d, const char *label, json_t *report)
{
	json_t		*alerts, *a, *state, *wl;
	char		**globs = NULL, *detail, *list = NULL, *tmp;
	size_t		 i, k, n = 0;

	alerts = json_object_get(report, "alerts");
	if (!json_is_array(alerts))
		return 0;
	json_array_foreach(alerts, i, a) {
		state = json_object_get(a, "state");
		wl = json_object_get(a, "workload");
		if (!json_is_string(state) || !json_is_string(wl) ||
		    strcmp(json_string_value(state), "suspected") != 0 ||
		    json_is_false(json_object_get(a, "can_confirm")))
			continue;
		for (k = 0; k < n; k++)
			if (strcmp(globs[k], json_string_value(wl)) == 0)
				break;
		if (k < n)
			continue;
		globs = xreallocarray(globs, n + 1, sizeof(char *));
		globs[n++] = xstrdup(json_string_value(wl));
		if (list == NULL)
			list = xstrdup(json_string_value(wl));
		else {
			xasprintf(&tmp, "%s, %s", list,
			    json_string_value(wl));
			free(list);
			list = tmp;
		}
	}
	if (n == 0)
		return 0;
	xasprintf(&detail, "suspected in run %s: %s", label, list);
	log_info("run %s: suspected regressions in %s; re-running them",
	    label, list);
	work_want_run(d, "rerun", detail, globs, n, NULL, NULL);
	free(detail);
	free(list);
	for (k = 0; k < n; k++)
		free(globs[k]);
	free(globs);
	return 1;
}

/*
 * The battery has measured its git commits (or failed by itself, which
 * a restart would not mend): keep each as its repository's last, so
 * that a restart does not queue it again.
 */
static void
work_git_done(struct daemon *d)
{
	struct work	*w = &d->work;
	char		*eq;
	size_t		 i;

	for (i = 0; i < w->ngits; i++) {
		if ((eq = strchr(w->gits[i], '=')) == NULL)
			continue;
		*eq = '\0';
		gitwatch_done(d, w->gits[i], eq + 1);
		*eq = '=';
	}
}

/*
 * Warn of the metrics the run's check could not judge: their workload
 * failed, timed out or was cut short where the host's run before had
 * measured them (check's "not_judged").  The workload's own error line
 * comes in at info level with the run's other output; without this
 * warning a benchmark broken by an upgrade reads, in a log kept at
 * warning level, as a night when nothing changed.
 */
static void
work_log_unjudged(const char *label, json_t *report)
{
	json_t		*arr, *u, *ms, *m;
	const char	*wl, *status, *error;
	char		*names, *more, *p;
	size_t		 i, k;

	arr = json_object_get(json_object_get(report, "check"), "not_judged");
	if (!json_is_array(arr))
		return;
	json_array_foreach(arr, i, u) {
		wl = json_string_value(json_object_get(u, "workload"));
		status = json_string_value(json_object_get(u, "status"));
		error = json_string_value(json_object_get(u, "error"));
		ms = json_object_get(u, "metrics");
		if (wl == NULL || status == NULL || !json_is_array(ms))
			continue;
		names = xstrdup("");
		json_array_foreach(ms, k, m) {
			if (!json_is_string(m))
				continue;
			xasprintf(&more, "%s%s%s", names, *names != '\0' ?
			    ", " : "", json_string_value(m));
			free(names);
			names = more;
		}
		xasprintf(&more, "run %s: %s %s%s%s; not judged: %s", label,
		    wl, status, error != NULL ? ": " : "",
		    error != NULL ? error : "", names);
		/* The error is a workload's words: one line, no controls. */
		for (p = more; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = ' ';
		log_warnx("%s", more);
		free(more);
		free(names);
	}
}

/*
 * Whole seconds since the work in progress started, by the monotonic
 * clock: a step of the wall clock meanwhile (date -s, NTP) made a
 * battery's log line say it took a day, or minus a day.
 */
static long long
work_elapsed(const struct work *w)
{
	return (long long)(perfwatch_mono() - w->started_mono + 0.5);
}

/*
 * The run label recorded itself but was not judged (it exited why, with
 * no "check" in its report: a pinned baseline that [detect] baseline
 * names and the store lacks, a store error): no alert can come of it,
 * nor of any battery after it while the cause stays.  Say so, and keep
 * it as the problem perfwatch status shows, until a run is judged.
 */
static void
work_run_unjudged(struct work *w, const struct job *j, const char *label,
    const char *why)
{
	const char	*words = why;
	char		*tail;

	if ((tail = job_tail(j)) != NULL) {
		words = work_last_words(tail);
		/* cli_check_run()'s words before the reason. */
		if (strncmp(words, "judging the run: ", 17) == 0)
			words += 17;
	}
	log_warnx("run %s was not judged (%s): %s", label, why, words);
	free(w->last_error);
	xasprintf(&w->last_error, "run %s not judged: %s", label, words);
	free(tail);
}

/*
 * The battery that ended, run label, completed on a quiet machine: drop
 * the package and kernel reasons queued while it ran whose change was
 * seen before it started, if it measured the whole battery as the start's
 * rule has it (pkgwatch_run_measured()).  Its snapshot has the change
 * already; each was judged when it was queued, a battery then running,
 * and ran the whole battery again for nothing.  One of some workloads
 * (a rerun, a watched tree's) measured no change.
 */
static void
work_drop_measured(struct daemon *d, const char *label)
{
	struct work	*w = &d->work;
	struct reason	*r;
	size_t		 i, n = 0;
	int		 measured = -1;

	for (i = 0; i < w->npending; i++) {
		r = &w->pending[i];
		if (r->seen > 0 && r->seen < w->started_mono &&
		    (strcmp(r->trigger, "package") == 0 ||
		    strcmp(r->trigger, "kernel") == 0)) {
			/* The store is asked once, and only when it matters. */
			if (measured == -1)
				measured = pkgwatch_run_measured(d, label);
			if (measured) {
				log_info("%s change (%s) measured by run %s; "
				    "not run again", r->trigger,
				    r->detail != NULL ? r->detail : "",
				    label);
				reason_clear(r);
				continue;
			}
		}
		w->pending[n++] = w->pending[i];
	}
	w->npending = n;
}

/* The battery's child exited: read its report, maybe ask for a rerun. */
static void
work_run_done(struct job *j, void *arg)
{
	struct daemon	*d = arg;
	struct work	*w = &d->work;
	json_t		*report = NULL, *v;
	json_error_t	 err;
	const char	*out, *label = NULL, *status = NULL, *busy = NULL;
	const char	*closed = NULL;
	char		*tail, why[64], *again = NULL, *what = NULL;
	size_t		 n;
	int		 ws = job_status(j), rerun = 0, complete;

	out = job_output(j, &n);
	if (n > 0 && !job_truncated(j))
		report = json_loadb(out, n, 0, &err);
	if (report != NULL && json_is_object(report)) {
		v = json_object_get(report, "run");
		label = json_is_string(v) ? json_string_value(v) : NULL;
		v = json_object_get(report, "status");
		status = json_is_string(v) ? json_string_value(v) : NULL;
		if (json_is_true(json_object_get(report, "busy"))) {
			v = json_object_get(report, "busy_why");
			busy = json_is_string(v) ? json_string_value(v) :
			    "no reason given";
		}
	}
	if (WIFSIGNALED(ws))
		snprintf(why, sizeof(why), "killed by signal %d",
		    WTERMSIG(ws));
	else
		snprintf(why, sizeof(why), "exit %d", WEXITSTATUS(ws));

	/*
	 * Its git commits are dealt with unless shutdown stopped it first,
	 * it did not run for a busy machine, or it was cut short (killed by
	 * a signal, the OOM killer's say, or aborted by one sent to it):
	 * then a restart measures them.  A killed battery was kept as the
	 * commit's, which then was never measured.
	 */
	if ((status != NULL && strcmp(status, RUN_COMPLETE) == 0) ||
	    (!d->stopping && !WIFSIGNALED(ws) &&
	    !(WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_TEMPFAIL &&
	    label == NULL) &&
	    !(status != NULL && strcmp(status, RUN_ABORTED) == 0)))
		work_git_done(d);
	if (label != NULL && status != NULL) {
		log_info("run %s: %s (%s), %lld s", label, status, w->trigger,
		    work_elapsed(w));
		if (busy != NULL)
			log_warnx("run %s was measured on a busy machine (%s): "
			    "its verdicts move no alert and no baseline",
			    label, busy);
		work_log_unjudged(label, report);
		set_str(&w->last_label, label);
		set_str(&w->last_status, status);
		set_str(&w->last_error, NULL);
		/* An aborted run is not judged, by design: status says it. */
		if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0 &&
		    strcmp(status, RUN_ABORTED) != 0 &&
		    !json_is_object(json_object_get(report, "check")))
			work_run_unjudged(w, j, label, why);
		if (w->rerun_ok && !d->stopping &&
		    config_get_bool(d->cfg, "triggers", "rerun_suspected"))
			rerun = work_rerun_suspected(d, label, report);
	} else if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_TEMPFAIL &&
	    !w->skipped && !d->stopping) {
		/*
		 * Not the [quiet] policy, which says so first: the run could
		 * not record itself, the store locked by another process
		 * past the busy timeout (a long import, a backup).  Its
		 * reasons are queued again and tried later, as those of a
		 * child that could not start are: dropped, a package
		 * upgrade's battery was lost to an import.
		 */
		tail = job_tail(j);
		xasprintf(&again, "could not record its run: %s",
		    tail != NULL ? work_last_words(tail) : why);
		free(tail);
		xasprintf(&what, "the battery (%s)", w->trigger);
		work_requeue(w);
	} else if (WIFEXITED(ws) && WEXITSTATUS(ws) == EXIT_TEMPFAIL) {
		log_warnx("battery (%s) skipped: the machine was busy",
		    w->trigger);
		set_str(&w->last_status, "skipped");
		/* Why it was busy is what the run said last (logged above). */
		tail = job_tail(j);
		set_str(&w->last_error, tail != NULL ? tail :
		    "the machine was busy");
		free(tail);
	} else {
		tail = job_tail(j);
		if (w->label != NULL)
			closed = work_close_run(d, w->label);
		if (d->stopping)
			log_info("run %s (%s) stopped, %s",
			    w->label != NULL ? w->label : "(not started)",
			    w->trigger, why);
		else
			log_warnx("run %s (%s) ended without a report, %s%s%s",
			    w->label != NULL ? w->label : "(not started)",
			    w->trigger, why, tail != NULL ? ": " : "",
			    tail != NULL ? tail : "");
		set_str(&w->last_label, w->label);
		set_str(&w->last_status, closed != NULL ? closed :
		    w->label != NULL ? RUN_ABORTED : RUN_FAILED);
		set_str(&w->last_error, tail != NULL ? tail : why);
		free(tail);
	}
	/* label and status point into the report. */
	complete = status != NULL && strcmp(status, RUN_COMPLETE) == 0;
	if (complete && label != NULL && busy == NULL && !d->stopping)
		work_drop_measured(d, label);
	json_decref(report);
	/*
	 * The schedule's run has run, unless its reasons are queued again
	 * or shutdown stopped it (or dropped another of the schedule's from
	 * the queue): then a restart queues it again (schedule.c).
	 */
	if (reasons_schedule(w->started_for, w->nstarted_for) &&
	    again == NULL && !reasons_schedule(w->pending, w->npending) &&
	    (!d->stopping || (complete && !w->schedule_dropped)))
		schedule_ran(d);
	if (d->stopping)
		job_kill_leftovers(j);
	work_clear_current(w);
	if (again != NULL) {
		/* The delay goes on doubling from the start's. */
		w->retry_delay = w->started_delay;
		work_retry_later(d, what, again);
		free(what);
		free(again);
	}
	if (d->stopping)
		daemon_exit_if_done(d);
	else if (daemon_store_same(d) == 0) {
		/*
		 * A rerun confirms or clears the suspicions before anyone is
		 * told: the rows of this run go out after it, with its own
		 * (unless paused, when the rerun waits and they must not).
		 * Not on a database removed or replaced since the start: the
		 * daemon stops, for a start on the new one.
		 */
		if (!rerun || d->paused)
			notifier_kick(d);
		work_kick(d);
	}
	daemon_status(d);
}

/* Add a copy of s to a NULL-terminated argument list. */
static void
argv_add(char ***argv, size_t *argc, const char *s)
{
	*argv = xreallocarray(*argv, *argc + 2, sizeof(char *));
	(*argv)[(*argc)++] = xstrdup(s);
	(*argv)[*argc] = NULL;
}

/* The index of tree name's "NAME=ID" among gits, or n. */
static size_t
gits_find(char *const *gits, size_t n, const char *name)
{
	size_t	k, len = strlen(name);

	for (k = 0; k < n; k++)
		if (strncmp(gits[k], name, len) == 0 && gits[k][len] == '=')
			break;
	return k;
}

/* Merge the pending reasons into one battery and start it. */
static void
work_start_battery(struct daemon *d)
{
	struct work	*w = &d->work;
	struct reason	*r;
	struct gitwatch	*g;
	char		**argv = NULL, *detail = NULL, *tmp, *piece;
	char		**globs = NULL, **gits = NULL;
	size_t		 argc = 0, i, k, nglobs = 0, ngits = 0;
	int		 all = 0, rerun = 0;

	for (i = 0; i < w->npending; i++) {
		r = &w->pending[i];
		if (strcmp(r->trigger, "rerun") == 0)
			rerun = 1;
		/* The detail: alone, or "trigger: detail; ..." when merged. */
		if (w->npending == 1)
			piece = r->detail != NULL ? xstrdup(r->detail) : NULL;
		else if (r->detail != NULL)
			xasprintf(&piece, "%s: %s", r->trigger, r->detail);
		else
			piece = xstrdup(r->trigger);
		if (piece != NULL) {
			if (detail == NULL)
				detail = piece;
			else {
				xasprintf(&tmp, "%s; %s", detail, piece);
				free(detail);
				free(piece);
				detail = tmp;
			}
		}
		if (r->globs == NULL)
			all = 1;
		for (k = 0; !all && k < r->nglobs; k++) {
			size_t m;

			for (m = 0; m < nglobs; m++)
				if (strcmp(globs[m], r->globs[k]) == 0)
					break;
			if (m == nglobs) {
				globs = xreallocarray(globs, nglobs + 1,
				    sizeof(char *));
				globs[nglobs++] = r->globs[k];
			}
		}
		if (r->git_name != NULL) {
			/* A later commit of the same tree wins. */
			k = gits_find(gits, ngits, r->git_name);
			xasprintf(&tmp, "%s=%s", r->git_name, r->git_commit);
			if (k < ngits) {
				free(gits[k]);
				gits[k] = tmp;
			} else {
				gits = xreallocarray(gits, ngits + 1,
				    sizeof(char *));
				gits[ngits++] = tmp;
			}
		}
	}
	if (detail != NULL && strlen(detail) > WORK_MAX_DETAIL) {
		/*
		 * Cut on a UTF-8 character boundary, and say so: the "..."
		 * and its NUL fit within the first WORK_MAX_DETAIL + 1 bytes.
		 */
		k = WORK_MAX_DETAIL - 3;
		while (k > 0 && ((unsigned char)detail[k] & 0xc0) == 0x80)
			k--;
		memcpy(detail + k, "...", 4);
	}

	argv_add(&argv, &argc, d->perfwatch);
	argv_add(&argv, &argc, "-c");
	argv_add(&argv, &argc, d->run_conf);
	argv_add(&argv, &argc, "-D");
	argv_add(&argv, &argc, d->db_path);
	argv_add(&argv, &argc, "run");
	argv_add(&argv, &argc, "--json");
	argv_add(&argv, &argc, "--progress");
	argv_add(&argv, &argc, "--trigger");
	argv_add(&argv, &argc, w->pending[0].trigger);
	if (detail != NULL) {
		argv_add(&argv, &argc, "--detail");
		argv_add(&argv, &argc, detail);
	}
	for (i = 0; !all && i < nglobs; i++) {
		argv_add(&argv, &argc, "--workload");
		argv_add(&argv, &argc, globs[i]);
	}
	for (i = 0; i < ngits; i++) {
		argv_add(&argv, &argc, "--git-commit");
		argv_add(&argv, &argc, gits[i]);
	}
	/* The other watched trees: the commit whose build each holds. */
	LIST_FOREACH(g, &d->gits, entry) {
		if (g->inplace[0] == '\0' ||
		    gits_find(gits, ngits, g->name) < ngits)
			continue;
		xasprintf(&tmp, "%s=%s", g->name, g->inplace);
		argv_add(&argv, &argc, "--git-commit");
		argv_add(&argv, &argc, tmp);
		free(tmp);
	}

	assert(w->kind == WORK_NONE && w->job == NULL);
	w->kind = WORK_BATTERY;
	w->trigger = xstrdup(w->pending[0].trigger);
	w->detail = detail;
	w->gits = gits;
	w->ngits = ngits;
	w->rerun_ok = !rerun;
	w->started = time(NULL);
	w->started_mono = perfwatch_mono();
	w->job = job_exec(d, "run", argv, NULL, JOB_NOSIGPIPE, work_run_line,
	    work_run_done, d);
	if (w->job == NULL) {
		/* Its reasons stay pending, to be merged again. */
		xasprintf(&tmp, "the battery (%s)", w->trigger);
		work_clear_current(w);
		work_retry_later(d, tmp, NULL);
		free(tmp);
	} else {
		log_info("battery started (%s%s%s), pid %ld", w->trigger,
		    detail != NULL ? ": " : "", detail != NULL ? detail : "",
		    (long)job_pid(w->job));
		/* Started at last: the retry's message is no problem now. */
		if (w->retry_delay != 0)
			set_str(&w->last_error, NULL);
		w->started_delay = w->retry_delay;
		w->retry_delay = 0;
		/* Kept until it has run (work_run_done). */
		w->started_for = w->pending;
		w->nstarted_for = w->npending;
		w->pending = NULL;
		w->npending = 0;
	}
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	free(globs);
}

/* A build's output goes to the debug log; its last lines to errors. */
static int
work_build_line(struct job *j, const char *line, void *arg)
{
	(void)j;
	(void)arg;
	log_debug("build: %s", line);
	return 0;
}

/* A build ended: on success its commit's battery is queued. */
static void
work_build_done(struct job *j, void *arg)
{
	struct daemon	*d = arg;
	struct work	*w = &d->work;
	struct build	*b = w->build;
	struct gitwatch	*g;
	char		*tail, *cause = NULL;
	const char	*branch;
	int		 ws = job_status(j), held;

	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
		log_info("build %s at %.12s: done in %lld s", b->repo,
		    b->commit, work_elapsed(w));
		g = gitwatch_find(d, b->repo);
		if (g != NULL && (held = gitwatch_holds(d, g, b->commit,
		    &cause)) < 0) {
			/*
			 * Another branch checked out there was built: its
			 * battery would be recorded as this commit.  Or what
			 * the tree holds cannot be told (the build left its
			 * HEAD unborn).  Dealt with as a failed build is, not
			 * tried again.
			 */
			branch = strncmp(g->ref, "refs/heads/", 11) == 0 ?
			    g->ref + 11 : g->ref;
			if (held == -1)
				log_warnx("git %s: %s, the commit of %s: not "
				    "measured; check out %s there", b->repo,
				    cause, branch, branch);
			else
				log_warnx("git %s: after the build of %.12s, "
				    "%s: not measured, as after a failed build",
				    b->repo, b->commit, cause);
			free(w->last_error);
			xasprintf(&w->last_error, "git %s: %s: not measured",
			    b->repo, cause);
			free(cause);
			if (!d->stopping)
				gitwatch_done(d, b->repo, b->commit);
		} else {
			if (g != NULL)
				gitwatch_built(d, g, b->commit);
			if (!d->stopping && g != NULL)
				work_want_run(d, "git", b->commit, g->globs,
				    g->nglobs, b->repo, b->commit);
		}
	} else {
		tail = job_tail(j);
		log_warnx("build %s at %.12s failed (%s %d%s)%s%s; no run",
		    b->repo, b->commit, WIFSIGNALED(ws) ? "signal" : "exit",
		    WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws),
		    w->build_over ? ": over its build_timeout" : "",
		    tail != NULL ? ": " : "", tail != NULL ? tail : "");
		free(w->last_error);
		xasprintf(&w->last_error, "build %s at %.12s %s", b->repo,
		    b->commit, w->build_over ? "ran over its build_timeout" :
		    "failed");
		free(tail);
		/* Not built is dealt with, unless shutdown stopped it. */
		if (!d->stopping)
			gitwatch_done(d, b->repo, b->commit);
	}
	if (d->stopping)
		job_kill_leftovers(j);
	work_clear_current(w);
	if (d->stopping)
		daemon_exit_if_done(d);
	else
		work_kick(d);
	daemon_status(d);
}

/*
 * The build ran over its repository's build_timeout: kill its whole
 * process group (a hung build would hold back every battery after it);
 * work_build_done() then takes it as failed, the commit dealt with.
 */
static void
work_build_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	struct work	*w = &d->work;

	(void)fd;
	(void)ev;
	if (w->kind != WORK_BUILD || w->job == NULL)
		return;
	log_warnx("build %s at %.12s still running after %lld s "
	    "(build_timeout); killing it", w->build->repo, w->build->commit,
	    work_elapsed(w));
	w->build_over = 1;
	job_kill_group(w->job);
}

/*
 * Whether a pending battery records a commit of tree repo: that commit's
 * build is what the tree holds until the tree's next build.
 */
static int
work_pending_git(const struct work *w, const char *repo)
{
	size_t	i;

	for (i = 0; i < w->npending; i++)
		if (same_str(w->pending[i].git_name, repo))
			return 1;
	return 0;
}

/*
 * Start the first queued build whose repository is still watched.  A
 * repository that no longer has a build command gets its battery queued,
 * not started: this runs inside work_kick(), and must start one thing at
 * most.  A build of a tree whose commit a pending battery records waits
 * for that battery: built first, the battery measured the newer build
 * (or what a failed one left) and recorded it as the older commit.
 */
static int
work_start_build(struct daemon *d)
{
	struct work	*w = &d->work;
	struct build	*b, *next;
	struct gitwatch	*g;
	struct timeval	 tv = { 0, 0 };
	char		*argv[4], what[128];

	for (b = TAILQ_FIRST(&w->builds); b != NULL; b = next) {
		next = TAILQ_NEXT(b, entry);
		if (work_pending_git(w, b->repo))
			continue;
		TAILQ_REMOVE(&w->builds, b, entry);
		g = gitwatch_find(d, b->repo);
		if (g == NULL) {
			log_info("build %s dropped: no longer watched",
			    b->repo);
		} else if (g->build == NULL) {
			work_queue_run(d, "git", b->commit, g->globs,
			    g->nglobs, b->repo, b->commit);
		} else {
			argv[0] = (char *)"/bin/sh";
			argv[1] = (char *)"-c";
			argv[2] = g->build;
			argv[3] = NULL;
			assert(w->kind == WORK_NONE && w->job == NULL);
			w->kind = WORK_BUILD;
			w->build = b;
			w->started = time(NULL);
			w->started_mono = perfwatch_mono();
			snprintf(what, sizeof(what), "build %s", b->repo);
			w->job = job_exec(d, what, argv, g->path, 0,
			    work_build_line, work_build_done, d);
			if (w->job != NULL) {
				log_info("build %s at %.12s started: %s",
				    b->repo, b->commit, g->build);
				tv.tv_sec = (time_t)g->build_timeout;
				w->build_timer = evtimer_new(d->base,
				    work_build_timer, d);
				evtimer_add(w->build_timer, &tv);
				if (w->retry_delay != 0)
					set_str(&w->last_error, NULL);
				w->retry_delay = 0;
				return 1;
			}
			/* Back to the head of the queue, for the retry. */
			w->build = NULL;
			TAILQ_INSERT_HEAD(&w->builds, b, entry);
			work_clear_current(w);
			work_retry_later(d, what, NULL);
			return 1;
		}
		free(b->repo);
		free(b->commit);
		free(b);
	}
	return 0;
}

static void
work_start_next(struct daemon *d)
{
	if (work_start_build(d))
		return;
	if (d->work.kind == WORK_NONE && d->work.npending > 0)
		work_start_battery(d);
	daemon_status(d);
}

/* Forget every queued reason and build. */
static void
work_drop_queue(struct work *w)
{
	struct build	*b;
	size_t		 i;

	for (i = 0; i < w->npending; i++)
		reason_clear(&w->pending[i]);
	free(w->pending);
	w->pending = NULL;
	w->npending = 0;
	while ((b = TAILQ_FIRST(&w->builds)) != NULL) {
		TAILQ_REMOVE(&w->builds, b, entry);
		free(b->repo);
		free(b->commit);
		free(b);
	}
}

static void
work_kill_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	if (d->work.job != NULL) {
		log_warnx("the %s did not stop within %d s; killing it",
		    d->work.kind == WORK_BUILD ? "build" : "run",
		    DAEMON_STOP_GRACE);
		job_kill_group(d->work.job);
	}
}

/*
 * Shutdown: drop the queue and ask the child in progress to stop: a run
 * gets SIGTERM (it marks itself aborted), a build's whole process group
 * does (the shell alone would leave make and the compilers running).
 * After DAEMON_STOP_GRACE seconds its whole group is killed; so is what
 * is left of it when the child exits first (work_run_done(),
 * work_build_done()).  A second call kills at once.
 */
void
work_stop(struct daemon *d)
{
	struct work	*w = &d->work;
	struct timeval	 tv = { DAEMON_STOP_GRACE, 0 };

	if (reasons_schedule(w->pending, w->npending))
		w->schedule_dropped = 1;
	work_drop_queue(w);
	if (w->retry_timer != NULL) {
		event_free(w->retry_timer);
		w->retry_timer = NULL;
		w->retry_at = 0;
	}
	if (w->job == NULL)
		return;
	if (w->kill_timer != NULL) {
		job_kill_group(w->job);
		return;
	}
	log_info("stopping the %s in progress",
	    w->kind == WORK_BUILD ? "build" : "run");
	if (w->kind == WORK_BUILD)
		job_signal_group(w->job, SIGTERM);
	else
		job_signal(w->job, SIGTERM);
	w->kill_timer = evtimer_new(d->base, work_kill_timer, d);
	evtimer_add(w->kill_timer, &tv);
}

/* "schedule battery: tiny 2/5 (step 3 of 10)" or NULL when idle. */
char *
work_status_line(struct daemon *d)
{
	struct work	*w = &d->work;
	char		*s;

	switch (w->kind) {
	case WORK_BUILD:
		xasprintf(&s, "building %s at %.12s", w->build->repo,
		    w->build->commit);
		return s;
	case WORK_BATTERY:
		if (w->workload != NULL)
			xasprintf(&s, "%s battery: %s %s%d/%d (step %lld of "
			    "%lld)", w->trigger, w->workload, w->warmup ?
			    "warm-up " : "", w->iteration, w->count,
			    (long long)w->step, (long long)w->steps);
		else if (w->waiting != NULL)
			xasprintf(&s, "%s battery: waiting for a quiet "
			    "machine (%s)", w->trigger, w->waiting);
		else
			xasprintf(&s, "%s battery: starting", w->trigger);
		return s;
	case WORK_NONE:
		break;
	}
	return NULL;
}

/*
 * A build's [git] section in o: its "name" and its working tree's "path",
 * the keys of [git], --list-git and status's "git" (they were
 * "repository", which held the name); the path null once a reload has
 * dropped the section.
 */
static json_t *
work_build_json(struct daemon *d, json_t *o, const struct build *b)
{
	struct gitwatch	*g = gitwatch_find(d, b->repo);

	pwjson_set_str(o, "name", b->repo);
	pwjson_set_str(o, "path", g != NULL ? g->path : NULL);
	pwjson_set_str(o, "commit", b->commit);
	return o;
}

/* The "work" and "pending" members of a status reply. */
json_t *
work_status_json(struct daemon *d)
{
	struct work	*w = &d->work;
	struct build	*b;
	json_t		*o = json_object(), *cur, *arr, *builds;
	char		 t[32];
	size_t		 i;

	if (w->kind == WORK_NONE)
		json_object_set_new(o, "work", json_null());
	else {
		cur = json_object();
		json_object_set_new(cur, "kind", json_string(
		    w->kind == WORK_BUILD ? "build" : "battery"));
		json_object_set_new(cur, "pid", json_integer(
		    w->job != NULL ? job_pid(w->job) : 0));
		/* A key without a value is null, as in every --json. */
		pwjson_set_str(cur, "started", w->started > 0 &&
		    timefmt_format(w->started, t, sizeof(t)) == 0 ? t : NULL);
		if (w->kind == WORK_BUILD)
			work_build_json(d, cur, w->build);
		else {
			pwjson_set_str(cur, "trigger", w->trigger);
			pwjson_set_str(cur, "trigger_detail", w->detail);
			pwjson_set_str(cur, "run", w->label);
			/*
			 * A run is named with its host everywhere; the
			 * battery's is this machine's, null as its run until
			 * the run has begun.
			 */
			pwjson_set_str(cur, "host", w->label != NULL ?
			    daemon_host_name() : NULL);
			pwjson_set_str(cur, "workload", w->workload);
			json_object_set_new(cur, "step", json_integer(w->step));
			json_object_set_new(cur, "steps",
			    json_integer(w->steps));
			json_object_set_new(cur, "iteration",
			    json_integer(w->iteration));
			json_object_set_new(cur, "count",
			    json_integer(w->count));
			json_object_set_new(cur, "warmup",
			    json_boolean(w->warmup));
			pwjson_set_str(cur, "waiting", w->waiting);
			pwjson_set_str(cur, "waiting_since",
			    w->waiting != NULL && timefmt_format(w->wait_since,
			    t, sizeof(t)) == 0 ? t : NULL);
			pwjson_set_str(cur, "wait_until", w->waiting != NULL &&
			    w->wait_until > 0 && timefmt_format(w->wait_until,
			    t, sizeof(t)) == 0 ? t : NULL);
		}
		json_object_set_new(o, "work", cur);
	}
	arr = json_array();
	for (i = 0; i < w->npending; i++)
		pwjson_append(arr, pwjson_set_str(pwjson_set_str(
		    pwjson_object(), "trigger", w->pending[i].trigger),
		    "trigger_detail", w->pending[i].detail));
	json_object_set_new(o, "pending", arr);
	builds = json_array();
	TAILQ_FOREACH(b, &w->builds, entry)
		pwjson_append(builds, work_build_json(d, pwjson_object(), b));
	json_object_set_new(o, "builds", builds);
	if (w->retry_at != 0 && timefmt_format(w->retry_at, t,
	    sizeof(t)) == 0)
		json_object_set_new(o, "retry_at", json_string(t));
	else
		json_object_set_new(o, "retry_at", json_null());
	return o;
}

void
work_free(struct daemon *d)
{
	struct work	*w = &d->work;

	work_drop_queue(w);
	work_clear_current(w);
	if (w->retry_timer != NULL)
		event_free(w->retry_timer);
	w->retry_timer = NULL;
	w->retry_at = 0;
	free(w->last_label);
	free(w->last_status);
	free(w->last_error);
	w->last_label = w->last_status = w->last_error = NULL;
}
