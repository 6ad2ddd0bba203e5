/*
 * What the unit tests of daemon/ share, included after daemon/job.c: a
 * struct daemon with its own event base and a SIGCHLD event that reaps
 * the jobs, as perfwatchd's loop does.
 */
#ifndef PERFWATCH_TEST_DAEMON_HARNESS_H
#define PERFWATCH_TEST_DAEMON_HARNESS_H

static void
harness_on_chld(evutil_socket_t sig, short ev, void *arg)
{
	(void)sig;
	(void)ev;
	job_reap(arg);
}

/* Make d an empty daemon on a new event base; the SIGCHLD event. */
static struct event *
harness_daemon_init(struct daemon *d)
{
	struct event	*chld;

	memset(d, 0, sizeof(*d));
	LIST_INIT(&d->jobs);
	d->base = event_base_new();
	assert_non_null(d->base);
	chld = evsignal_new(d->base, SIGCHLD, harness_on_chld, d);
	assert_non_null(chld);
	evsignal_add(chld, NULL);
	return chld;
}

/* Undo harness_daemon_init. */
static void
harness_daemon_free(struct daemon *d, struct event *chld)
{
	event_free(chld);
	event_base_free(d->base);
}

#endif
