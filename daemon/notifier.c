/*
 * Delivery of alerts: the outbox rows a run's judgement queued are sent
 * by `perfwatch notify flush --json` (notify/), started as a child after
 * each battery, at start-up, and when its report says a retry falls due
 * (next_due: RFC 3339, as perfwatch(1) gives every time to a person; the
 * times are whole seconds, so nothing is lost reading it back).  One
 * flush at a time; a request during a flush runs another one after it.
 * It runs even without a [sink] section: the built-in log sink has rows
 * too, and they must not pile up.
 *
 * A flush that ends without a report (another flush held the lock, the
 * store was busy, it crashed or could not start) says nothing of when
 * the rows are due: it is tried again after NOTIFIER_RETRY_FIRST
 * seconds, doubling up to NOTIFIER_RETRY_MAX while it keeps failing.  A
 * flush still running after NOTIFIER_FLUSH_LIMIT seconds is killed with
 * its process group: the rows it claimed are retried by a later one.
 *
 * The flush's standard error is logged as warnings: in the foreground
 * the built-in log sink writes its lines there, and they must reach the
 * daemon's log whatever its level (with --syslog they go to syslog).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "log.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "daemon.h"

#define NOTIFY_MAX_WAIT	(24 * 3600)	/* re-check at least daily */
#ifndef NOTIFIER_RETRY_FIRST
#define NOTIFIER_RETRY_FIRST	60	/* seconds after a failed flush */
#endif
#define NOTIFIER_RETRY_MAX	3600
#ifndef NOTIFIER_FLUSH_LIMIT
#define NOTIFIER_FLUSH_LIMIT	(30 * 60)	/* seconds a flush may take */
#endif

static void
notifier_timer(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	notifier_kick(arg);
}

/* The flush took too long: kill it (notifier_done() follows). */
static void
notifier_kill(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	if (d->notify_job == NULL)
		return;
	log_warnx("notify flush: still running after %d s; killing it",
	    NOTIFIER_FLUSH_LIMIT);
	job_kill_group(d->notify_job);
}

/* A line of the flush's standard error: a log sink line or a warning. */
static int
notifier_line(struct job *j, const char *line, void *arg)
{
	(void)j;
	(void)arg;
	if (strncmp(line, "perfwatch: ", 11) == 0)
		line += 11;
	log_warnx("notify: %s", line);
	return 0;
}

/* No report from a flush: try again later, later each time in a row. */
static void
notifier_retry(struct daemon *d)
{
	struct timeval	tv = { NOTIFIER_RETRY_FIRST, 0 };
	int		i;

	if (d->stopping || d->notify_timer == NULL)
		return;
	for (i = 0; i < d->notify_failures && tv.tv_sec < NOTIFIER_RETRY_MAX;
	    i++)
		tv.tv_sec *= 2;
	if (tv.tv_sec > NOTIFIER_RETRY_MAX)
		tv.tv_sec = NOTIFIER_RETRY_MAX;
	d->notify_failures++;
	log_info("notify: the next flush in %lld s", (long long)tv.tv_sec);
	evtimer_add(d->notify_timer, &tv);
}

/*
 * When a flush's report says the next retry falls due: 1 and *due set,
 * 0 when nothing is (next_due null), or -1 after a warning when
 * next_due is neither null nor a time in RFC 3339.
 */
static int
notifier_report_due(const json_t *rep, int64_t *due)
{
	const json_t	*next = json_object_get(rep, "next_due");
	const char	*why = "expected RFC 3339 text or null";

	if (json_is_null(next))
		return 0;
	if (json_is_string(next) && timefmt_parse_rfc3339(
	    json_string_value(next), due, &why) == 0)
		return 1;
	log_warnx("notify flush: the report's next_due is no time: %s", why);
	return -1;
}

/* A flush ended: log what it did, sleep until its next retry. */
static void
notifier_done(struct job *j, void *arg)
{
	struct daemon	*d = arg;
	struct timeval	 tv = { 0, 0 };
	json_error_t	 err;
	json_t		*rep;
	const char	*out;
	size_t		 n;
	time_t		 now = time(NULL);
	int64_t		 due = 0;
	int		 k = 0;

	d->notify_job = NULL;
	if (d->notify_kill != NULL)
		evtimer_del(d->notify_kill);
	out = job_output(j, &n);
	rep = n > 0 ? json_loadb(out, n, 0, &err) : NULL;
	if (!json_is_object(rep)) {
		char *tail = job_tail(j);

		log_warnx("notify flush: no report (wait status %d)%s%s",
		    job_status(j), tail != NULL ? ": " : "",
		    tail != NULL ? tail : "");
		free(tail);
		if (!d->notify_again)
			notifier_retry(d);
	} else {
		log_info("notify: %lld delivered, %lld to retry, %lld failed",
		    (long long)json_integer_value(json_object_get(rep,
		    "delivered")), (long long)json_integer_value(
		    json_object_get(rep, "retrying")), (long long)
		    json_integer_value(json_object_get(rep, "failed")));
		if ((k = notifier_report_due(rep, &due)) == -1) {
			/* Rows may wait, with no time said to retry them. */
			if (!d->notify_again)
				notifier_retry(d);
		} else
			d->notify_failures = 0;
		if (k == 1 && d->notify_timer != NULL && !d->stopping) {
			/* Compared before the subtraction, which a time far
			 * off either way would overflow. */
			if (due <= (int64_t)now)
				due = 1;
			else if (due - (int64_t)now > NOTIFY_MAX_WAIT)
				due = NOTIFY_MAX_WAIT;
			else
				due -= (int64_t)now;
			tv.tv_sec = (time_t)due;
			evtimer_add(d->notify_timer, &tv);
		}
	}
	json_decref(rep);
	if (d->stopping) {
		daemon_exit_if_done(d);
		return;
	}
	if (d->notify_again) {
		d->notify_again = 0;
		notifier_kick(d);
	}
}

/* Flush the outbox now (or right after the flush in progress). */
void
notifier_kick(struct daemon *d)
{
	struct timeval	 tv = { NOTIFIER_FLUSH_LIMIT, 0 };
	char		*argv[10];
	int		 i = 0;

	if (d->stopping)
		return;
	if (d->notify_timer == NULL)
		d->notify_timer = evtimer_new(d->base, notifier_timer, d);
	if (d->notify_kill == NULL)
		d->notify_kill = evtimer_new(d->base, notifier_kill, d);
	if (d->notify_job != NULL) {
		d->notify_again = 1;
		return;
	}
	evtimer_del(d->notify_timer);
	argv[i++] = d->perfwatch;
	argv[i++] = (char *)"-c";
	argv[i++] = d->run_conf;
	argv[i++] = (char *)"-D";
	argv[i++] = d->db_path;
	argv[i++] = (char *)"notify";
	argv[i++] = (char *)"flush";
	argv[i++] = (char *)"--json";
	if (!d->foreground)
		argv[i++] = (char *)"--syslog";
	argv[i] = NULL;
	d->notify_job = job_exec(d, "notify flush", argv, NULL, JOB_NOSIGPIPE,
	    notifier_line, notifier_done, d);
	if (d->notify_job == NULL) {
		log_warnx("notify flush: could not start");
		notifier_retry(d);
		return;
	}
	evtimer_add(d->notify_kill, &tv);
}

void
notifier_stop(struct daemon *d)
{
	if (d->notify_timer != NULL) {
		event_free(d->notify_timer);
		d->notify_timer = NULL;
	}
	if (d->notify_kill != NULL) {
		event_free(d->notify_kill);
		d->notify_kill = NULL;
	}
	/* A flush in progress finishes (or meets the hard stop): it is
	 * short, and a row half sent is retried by the next one anyway. */
	d->notify_again = 0;
}
