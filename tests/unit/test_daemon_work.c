/*
 * Unit tests of daemon/work.c, included chrony-style to reach its
 * statics: how the reasons waiting for a battery are merged into the one
 * `perfwatch run` started (perfwatchd(8): the first reason's trigger,
 * the details joined, the union of the workloads, every git commit), and
 * the cut of a detail too long.  job_exec() is a stand-in that keeps the
 * command line; nothing is started.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfwatch.h"
#include "../../daemon/work.c"

/* The command line of the battery started, NULL-terminated. */
static char	*test_argv[64];
static size_t	 test_argc;
static int	 test_job;	/* a job to hand out */

struct job *
job_exec(struct daemon *d, const char *what, char *const argv[],
    const char *cwd, int flags, int (*line_cb)(struct job *, const char *,
    void *), void (*done_cb)(struct job *, void *), void *arg)
{
	size_t	i;

	(void)d;
	(void)cwd;
	(void)flags;
	(void)line_cb;
	(void)done_cb;
	(void)arg;
	assert_string_equal(what, "run");
	for (i = 0; argv[i] != NULL; i++) {
		assert_true(i + 1 < nitems(test_argv));
		test_argv[i] = xstrdup(argv[i]);
	}
	test_argc = i;
	return (struct job *)&test_job;
}

pid_t
job_pid(const struct job *j)
{
	(void)j;
	return 12345;
}

/* What a battery that only starts does not reach. */
void
job_kill_group(struct job *j)
{
	(void)j;
	fail();
}

void
job_kill_leftovers(struct job *j)
{
	(void)j;
	fail();
}

void
job_signal(struct job *j, int sig)
{
	(void)j;
	(void)sig;
	fail();
}

void
job_signal_group(struct job *j, int sig)
{
	(void)j;
	(void)sig;
	fail();
}

int
job_status(const struct job *j)
{
	(void)j;
	fail();
	return 0;
}

int
job_truncated(const struct job *j)
{
	(void)j;
	fail();
	return 0;
}

char *
job_tail(const struct job *j)
{
	(void)j;
	fail();
	return NULL;
}

void
notifier_kick(struct daemon *d)
{
	(void)d;
	fail();
}

void
daemon_exit_if_done(struct daemon *d)
{
	(void)d;
	fail();
}

void
gitwatch_done(struct daemon *d, const char *name,
    const char *commit)
{
	(void)d;
	(void)name;
	(void)commit;
	fail();
}

void
store_run_clear(struct store_run *r)
{
	(void)r;
	fail();
}

const char *
store_errmsg(struct store *st)
{
	(void)st;
	return "";
}

const char *
job_output(struct job *j, size_t *len)
{
	(void)j;
	*len = 0;
	fail();
	return "";
}

int
store_run_finish(struct store *st, int64_t id, const char *status,
    int64_t ended)
{
	(void)st;
	(void)id;
	(void)status;
	(void)ended;
	fail();
	return -1;
}

int
daemon_store_begin(struct daemon *d)
{
	(void)d;
	fail();
	return -1;
}

int
daemon_store_same(struct daemon *d)
{
	(void)d;
	fail();
	return -1;
}

void
schedule_ran(struct daemon *d)
{
	(void)d;
	fail();
}

int
pkgwatch_run_measured(struct daemon *d, const char *label)
{
	(void)d;
	(void)label;
	fail();
	return 0;
}

int
store_commit(struct store *st)
{
	(void)st;
	fail();
	return -1;
}

int
store_rollback(struct store *st)
{
	(void)st;
	fail();
	return -1;
}

int
store_run_get(struct store *st, int64_t id, struct store_run *r)
{
	(void)st;
	(void)id;
	(void)r;
	fail();
	return -1;
}

int
store_run_lookup(struct store *st, int64_t host, const char *label,
    int64_t *id)
{
	(void)st;
	(void)host;
	(void)label;
	(void)id;
	fail();
	return -1;
}

void
daemon_status(struct daemon *d)
{
	(void)d;
}

struct gitwatch *
gitwatch_find(struct daemon *d, const char *name)
{
	(void)d;
	(void)name;
	return NULL;
}

/* The host a status names the battery's run with. */
const char *
daemon_host_name(void)
{
	return "box";
}

static struct daemon	test_daemon;

static int
setup(void **state)
{
	struct daemon	*d = &test_daemon;

	(void)state;
	memset(d, 0, sizeof(*d));
	work_init(d);
	LIST_INIT(&d->gits);
	d->perfwatch = xstrdup("/usr/bin/perfwatch");
	d->run_conf = xstrdup("/var/lib/perfwatch/run.conf");
	d->db_path = xstrdup("/var/lib/perfwatch/perfwatch.db");
	d->paused = 1;		/* queue, start when the test says */
	return 0;
}

static int
teardown(void **state)
{
	struct daemon	*d = &test_daemon;
	size_t		 i;

	(void)state;
	d->work.job = NULL;
	work_free(d);
	free(d->perfwatch);
	free(d->run_conf);
	free(d->db_path);
	for (i = 0; i < test_argc; i++)
		free(test_argv[i]);
	test_argc = 0;
	return 0;
}

/* Start what is queued; the command line is in test_argv. */
static void
start(void)
{
	test_daemon.paused = 0;
	work_kick(&test_daemon);
	assert_int_equal(test_daemon.work.kind, WORK_BATTERY);
	assert_true(test_argc > 0);
}

/* The value after option opt on the command line, the n-th (0) one. */
static const char *
arg_of(const char *opt, int n)
{
	size_t	i;

	for (i = 0; i + 1 < test_argc; i++)
		if (strcmp(test_argv[i], opt) == 0 && n-- == 0)
			return test_argv[i + 1];
	return NULL;
}

/* Reasons merged: the first one's trigger, all details, the union. */
static void
test_merge(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*sys[] = { "sys.*" }, *two[] = { "disk.*", "sys.*" };

	(void)state;
	work_want_run(d, "git", "abc123", sys, 1, "app", "abc123");
	work_want_run(d, "rerun", "suspected in run r1: disk.seq", two, 2,
	    NULL, NULL);
	/* The same reason again is not queued twice. */
	work_want_run(d, "git", "abc123", sys, 1, "app", "abc123");
	/*
	 * A later commit of the same tree takes the queued one's place (its
	 * detail too): only the newest is measured, and one a commit had
	 * filled the queue with 64 reasons and dropped the newest.
	 */
	work_want_run(d, "git", "def456", sys, 1, "app", "def456");
	assert_int_equal(d->work.npending, 2);
	start();
	assert_string_equal(arg_of("--trigger", 0), "git");
	assert_string_equal(arg_of("--detail", 0), "git: def456; rerun: "
	    "suspected in run r1: disk.seq");
	assert_string_equal(arg_of("--workload", 0), "sys.*");
	assert_string_equal(arg_of("--workload", 1), "disk.*");
	assert_null(arg_of("--workload", 2));
	/* A later commit of the same tree wins. */
	assert_string_equal(arg_of("--git-commit", 0), "app=def456");
	assert_null(arg_of("--git-commit", 1));
	/* A rerun among them: no rerun after it. */
	assert_int_equal(d->work.rerun_ok, 0);
}

/* A reason without workloads: the whole profile. */
static void
test_merge_whole(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*sys[] = { "sys.*" };

	(void)state;
	work_want_run(d, "git", "abc123", sys, 1, "app", "abc123");
	work_want_run(d, "schedule", NULL, NULL, 0, NULL, NULL);
	start();
	assert_string_equal(arg_of("--detail", 0), "git: abc123; schedule");
	assert_null(arg_of("--workload", 0));
	assert_int_equal(d->work.rerun_ok, 1);
}

/*
 * A detail longer than WORK_MAX_DETAIL bytes is cut on a character
 * boundary and ends with "...", WORK_MAX_DETAIL bytes in all, whatever
 * its length (one byte over it too, which the cut once wrote past).
 */
static void
test_detail_cut(void **state)
{
	static const size_t	 lens[] = { WORK_MAX_DETAIL + 1,
				    WORK_MAX_DETAIL + 2, 3 * WORK_MAX_DETAIL };
	struct daemon		*d = &test_daemon;
	const char		*got;
	char			*detail;
	size_t			 i, k, len;

	for (i = 0; i < nitems(lens); i++) {
		/* "é" is two bytes: a cut between them is not allowed. */
		detail = xcalloc(1, lens[i] + 1);
		for (k = 0; k + 1 < lens[i]; k += 2)
			memcpy(detail + k, "\xc3\xa9", 2);
		if (k < lens[i])
			detail[k] = 'x';
		work_want_run(d, "package", detail, NULL, 0, NULL, NULL);
		free(detail);
		start();
		got = arg_of("--detail", 0);
		assert_non_null(got);
		len = strlen(got);
		assert_true(len <= WORK_MAX_DETAIL);
		assert_true(len >= WORK_MAX_DETAIL - 4);
		assert_string_equal(got + len - 3, "...");
		/* Whole characters before the "...". */
		assert_int_equal((len - 3) % 2, 0);
		teardown(state);
		setup(state);
	}
	/* Exactly WORK_MAX_DETAIL bytes: as it is. */
	detail = xcalloc(1, WORK_MAX_DETAIL + 1);
	memset(detail, 'y', WORK_MAX_DETAIL);
	work_want_run(d, "package", detail, NULL, 0, NULL, NULL);
	start();
	assert_string_equal(arg_of("--detail", 0), detail);
	free(detail);
}

/*
 * A progress line's wait for a quiet machine ends max_wait seconds after
 * it began; one that would end past a week (found by
 * tests/fuzz/fuzz_child: 9223372036854775807 overflowed the end, which
 * came before the start) has no end known.
 */
static void
test_progress_wait(void **state)
{
	struct work	*w = &test_daemon.work;

	(void)state;
	work_run_line(NULL, "perfwatch-progress {\"waiting\":\"load 3.1\","
	    "\"max_wait\":600}", &test_daemon);
	assert_string_equal(w->waiting, "load 3.1");
	assert_int_equal(w->wait_until - w->wait_since, 600);
	work_run_line(NULL, "perfwatch-progress {\"waiting\":\"load\","
	    "\"max_wait\":9223372036854775807}", &test_daemon);
	assert_string_equal(w->waiting, "load");
	assert_true(w->wait_since > 0);
	assert_int_equal(w->wait_until, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_merge_whole, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_detail_cut, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_progress_wait, setup,
		    teardown),
	};

	log_init("test_daemon_work", 1, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
