/*
 * Unit tests of daemon/notifier.c (with daemon/job.c), included
 * chrony-style, with a retry after one second and a flush time limit of
 * one second.  The flush is a shell script standing in for perfwatch: a
 * flush that ends without a report is tried again, later each time in a
 * row, until one reports; a flush that does not end is killed with its
 * process group and tried again too.  A report's next_due is RFC 3339
 * text, as perfwatch(1) gives it to a person.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perfwatch.h"
#include "timefmt.h"
#define NOTIFIER_RETRY_FIRST	1
#define NOTIFIER_FLUSH_LIMIT	1
#include "../../daemon/job.c"
#include "../../daemon/notifier.c"
#include "daemon_harness.h"

static struct daemon	test_daemon;
static char		test_dir[] = "/tmp/pw-test-notifier.XXXXXX";

void
daemon_exit_if_done(struct daemon *d)
{
	(void)d;
}

static int
setup(void **state)
{
	*state = harness_daemon_init(&test_daemon);
	test_daemon.run_conf = (char *)"run.conf";
	test_daemon.db_path = (char *)"perfwatch.db";
	test_daemon.foreground = 1;
	return 0;
}

static int
teardown(void **state)
{
	notifier_stop(&test_daemon);
	harness_daemon_free(&test_daemon, *state);
	return 0;
}

static int
group_setup(void **state)
{
	(void)state;
	return mkdtemp(test_dir) == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	char	*cmd;
	int	 rc;

	(void)state;
	xasprintf(&cmd, "rm -rf %s", test_dir);
	rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

/* A script in the test's directory standing in for perfwatch. */
static char *
script(const char *name, const char *body)
{
	FILE	*f;
	char	*path;

	xasprintf(&path, "%s/%s", test_dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0700), 0);
	return path;
}

/* How many lines a file has (0 if it does not exist). */
static int
lines(const char *path)
{
	FILE	*f;
	int	 c, n = 0;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Run the loop until the count file has n lines and no flush runs. */
static void
run_until_flushes(const char *count, int n)
{
	time_t	limit = time(NULL) + 20;

	while (lines(count) < n || test_daemon.notify_job != NULL) {
		if (time(NULL) > limit)
			fail_msg("no %d flushes within 20 s", n);
		event_base_loop(test_daemon.base, EVLOOP_ONCE);
	}
}

/* No report: tried again, and again, until a flush reports. */
static void
test_retry_without_report(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*count, *fails, *reports, *body;

	(void)state;
	xasprintf(&count, "%s/count", test_dir);
	xasprintf(&body, "echo >>%s\necho 'perfwatch: notify flush: "
	    "another notify flush is running' >&2\nexit 75", count);
	fails = script("fails", body);
	free(body);
	xasprintf(&body, "echo >>%s\necho '{\"delivered\": 0, \"retrying\": "
	    "0, \"failed\": 0, \"next_due\": null}'", count);
	reports = script("reports", body);
	free(body);

	d->perfwatch = fails;
	notifier_kick(d);
	run_until_flushes(count, 1);
	assert_int_equal(d->notify_failures, 1);
	assert_true(evtimer_pending(d->notify_timer, NULL));
	/* The timer starts the second flush, which fails too. */
	run_until_flushes(count, 2);
	assert_int_equal(d->notify_failures, 2);
	assert_true(evtimer_pending(d->notify_timer, NULL));
	/* The third reports, and says nothing is due: no timer. */
	d->perfwatch = reports;
	run_until_flushes(count, 3);
	assert_int_equal(d->notify_failures, 0);
	assert_false(evtimer_pending(d->notify_timer, NULL));
	assert_false(evtimer_pending(d->notify_kill, NULL));
	free(count);
	free(fails);
	free(reports);
}

/*
 * A report's next_due is waited for: one a minute ahead is a minute
 * away, one long past is due now, one far ahead is looked at again
 * within a day (the earliest and latest times RFC 3339 writes: the
 * epoch seconds before them overflowed the subtraction of now).
 */
static void
test_report_due(void **state)
{
	static const char *const due[] = {
		NULL, "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"1970-01-01T00:00:00Z",
	};
	static const long	 wait[] = { 60, 1, 24 * 3600, 1 };
	struct daemon		*d = &test_daemon;
	struct timeval		 tv, now;
	char			*count, *name, *body, soon[TIMEFMT_RFC3339_LEN];
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(due); i++) {
		assert_int_equal(timefmt_format((int64_t)time(NULL) + 60, soon,
		    sizeof(soon)), 0);
		xasprintf(&count, "%s/count-due%zu", test_dir, i);
		xasprintf(&name, "due%zu", i);
		xasprintf(&body, "echo >>%s\necho '{\"delivered\": 0, "
		    "\"retrying\": 1, \"failed\": 0, \"next_due\": \"%s\"}'",
		    count, due[i] != NULL ? due[i] : soon);
		d->perfwatch = script(name, body);
		notifier_kick(d);
		run_until_flushes(count, 1);
		assert_int_equal(d->notify_failures, 0);
		assert_true(evtimer_pending(d->notify_timer, &tv));
		gettimeofday(&now, NULL);
		assert_true(tv.tv_sec - now.tv_sec >= wait[i] - 2 &&
		    tv.tv_sec - now.tv_sec <= wait[i]);
		free(d->perfwatch);
		free(body);
		free(name);
		free(count);
	}
}

/*
 * A report whose next_due is not a time says nothing of when the rows
 * are due: it is a flush without a report, tried again after a second,
 * not rows left waiting until the next run.
 */
static void
test_report_due_unreadable(void **state)
{
	static const char *const due[] = {
		"\"tomorrow\"", "1765000000", "\"2026-13-01T00:00:00Z\"",
	};
	struct daemon		*d = &test_daemon;
	struct timeval		 tv, now;
	char			*count, *name, *body;
	size_t			 i;

	(void)state;
	for (i = 0; i < nitems(due); i++) {
		xasprintf(&count, "%s/count-bad%zu", test_dir, i);
		xasprintf(&name, "bad%zu", i);
		xasprintf(&body, "echo >>%s\necho '{\"delivered\": 0, "
		    "\"retrying\": 1, \"failed\": 0, \"next_due\": %s}'",
		    count, due[i]);
		d->perfwatch = script(name, body);
		d->notify_failures = 0;
		notifier_kick(d);
		run_until_flushes(count, 1);
		assert_int_equal(d->notify_failures, 1);
		assert_true(evtimer_pending(d->notify_timer, &tv));
		gettimeofday(&now, NULL);
		assert_true(tv.tv_sec - now.tv_sec >= NOTIFIER_RETRY_FIRST - 1 &&
		    tv.tv_sec - now.tv_sec <= NOTIFIER_RETRY_FIRST);
		evtimer_del(d->notify_timer);
		free(d->perfwatch);
		free(body);
		free(name);
		free(count);
	}
}

/* A flush that does not end is killed with its group, then retried. */
static void
test_kill_hung_flush(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*count, *pidfile, *hangs, *body, *cmd;
	pid_t		 pid;
	FILE		*f;
	long		 v;

	(void)state;
	xasprintf(&count, "%s/count-hung", test_dir);
	xasprintf(&pidfile, "%s/pid", test_dir);
	xasprintf(&body, "sleep 60 &\necho $! >%s\necho >>%s\nwait",
	    pidfile, count);
	hangs = script("hangs", body);
	free(body);
	d->perfwatch = hangs;
	notifier_kick(d);
	run_until_flushes(count, 1);
	assert_int_equal(d->notify_failures, 1);
	assert_true(evtimer_pending(d->notify_timer, NULL));
	/* The child of the flush went with it. */
	assert_non_null(f = fopen(pidfile, "r"));
	assert_int_equal(fscanf(f, "%ld", &v), 1);
	fclose(f);
	pid = (pid_t)v;
	xasprintf(&cmd, "i=0; while [ $i -lt 50 ] && kill -0 %ld 2>/dev/null "
	    "&& ! grep -q '^State:.*Z' /proc/%ld/status 2>/dev/null; do "
	    "sleep 0.1; i=$((i + 1)); done; ! kill -0 %ld 2>/dev/null || "
	    "grep -q '^State:.*Z' /proc/%ld/status", (long)pid, (long)pid,
	    (long)pid, (long)pid);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(count);
	free(pidfile);
	free(hangs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_retry_without_report,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_due, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_report_due_unreadable,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_hung_flush, setup,
		    teardown),
	};

	log_init("test_daemon_notifier", 1, 0);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
