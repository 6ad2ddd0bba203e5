/*
 * Delivery of alerts: the outbox rows a run's judgement queued are sent
 * by `perfwatch notify flush --json` (notify/), started as a child after
 * each battery, at start-up, and when its report says a retry falls due
 * (next_due_epoch).  One flush at a time; a request during a flush runs
 * another one after it.  It runs even without a [sink] section: the
 * built-in log sink has rows too, and they must not pile up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "log.h"
#include "perfwatch.h"
#include "daemon.h"

#define NOTIFY_MAX_WAIT	(24 * 3600)	/* re-check at least daily */

static void
notifier_timer(evutil_socket_t fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	notifier_kick(arg);
}

/* A flush ended: log what it did, sleep until its next retry. */
static void
notifier_done(struct job *j, void *arg)
{
	struct daemon	*d = arg;
	struct timeval	 tv = { 0, 0 };
	json_error_t	 err;
	json_t		*rep, *next;
	const char	*out;
	size_t		 n;
	time_t		 now = time(NULL);
	json_int_t	 due;

	d->notify_job = NULL;
	out = job_output(j, &n);
	rep = n > 0 ? json_loadb(out, n, 0, &err) : NULL;
	if (!json_is_object(rep)) {
		char *tail = job_tail(j);

		log_warnx("notify flush: no report (wait status %d)%s%s",
		    job_status(j), tail != NULL ? ": " : "",
		    tail != NULL ? tail : "");
		free(tail);
	} else {
		log_info("notify: %lld delivered, %lld to retry, %lld failed",
		    (long long)json_integer_value(json_object_get(rep,
		    "delivered")), (long long)json_integer_value(
		    json_object_get(rep, "retrying")), (long long)
		    json_integer_value(json_object_get(rep, "failed")));
		next = json_object_get(rep, "next_due_epoch");
		if (json_is_integer(next) && d->notify_timer != NULL &&
		    !d->stopping) {
			due = json_integer_value(next) - (json_int_t)now;
			if (due < 1)
				due = 1;
			if (due > NOTIFY_MAX_WAIT)
				due = NOTIFY_MAX_WAIT;
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
	char	*argv[10];
	int	 i = 0;

	if (d->stopping)
		return;
	if (d->notify_timer == NULL)
		d->notify_timer = evtimer_new(d->base, notifier_timer, d);
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
	    NULL, notifier_done, d);
}

void
notifier_stop(struct daemon *d)
{
	if (d->notify_timer != NULL) {
		event_free(d->notify_timer);
		d->notify_timer = NULL;
	}
	/* A flush in progress finishes: it is short, and a row half sent
	 * is retried by the next one anyway. */
	d->notify_again = 0;
}
