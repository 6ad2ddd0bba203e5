/*
 * Unit tests of daemon/job.c, included chrony-style to reach its statics:
 * children started with job_fork() and job_exec(), their stdout kept and
 * their stderr cut into lines, their exit status, their process group,
 * and the case that once lost a report: the child has exited before the
 * loop read its pipe, so job_reap() must read what is left itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfwatch.h"
#include "../../daemon/job.c"
#include "daemon_harness.h"

#define BIG	50000	/* fits a pipe, so the child exits unread */

struct outcome {
	int	 done;
	int	 status;
	char	*output;
	size_t	 len;
	char	*tail;
	char	*lines[16];
	size_t	 nlines;
};

static struct daemon	test_daemon;

static int
setup(void **state)
{
	(void)state;
	*state = harness_daemon_init(&test_daemon);
	return 0;
}

static int
teardown(void **state)
{
	harness_daemon_free(&test_daemon, *state);
	return 0;
}

static void
done_cb(struct job *j, void *arg)
{
	struct outcome	*o = arg;
	const char	*out;

	out = job_output(j, &o->len);
	o->output = xmalloc(o->len + 1);
	memcpy(o->output, out, o->len + 1);
	o->status = job_status(j);
	o->tail = job_tail(j);
	o->done = 1;
}

/* Keep every line; "one" is taken as not an error (out of the tail). */
static int
line_cb(struct job *j, const char *line, void *arg)
{
	struct outcome	*o = arg;

	(void)j;
	if (o->nlines < nitems(o->lines))
		o->lines[o->nlines++] = xstrdup(line);
	return strcmp(line, "one") == 0;
}

static void
outcome_free(struct outcome *o)
{
	size_t	i;

	free(o->output);
	free(o->tail);
	for (i = 0; i < o->nlines; i++)
		free(o->lines[i]);
}

/* Run the loop until the job is done. */
static void
run_until_done(struct outcome *o)
{
	while (!o->done)
		event_base_loop(test_daemon.base, EVLOOP_ONCE);
}

/* The forked function: BIG bytes of a pattern, and one error line. */
static int
write_big(void *arg)
{
	size_t	i;

	(void)arg;
	for (i = 0; i < BIG; i++)
		putchar('a' + (int)(i % 26));
	fprintf(stderr, "a warning from the child\n");
	return 0;
}

static void
test_reap_before_read(void **state)
{
	struct outcome	 o;
	struct job	*j;
	siginfo_t	 si;
	size_t		 i;

	(void)state;
	memset(&o, 0, sizeof(o));
	j = job_fork(&test_daemon, "big", write_big, NULL, done_cb, &o);
	assert_non_null(j);
	/* Wait for its exit without reaping it and without the loop. */
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PID, (id_t)job_pid(j), &si,
	    WEXITED | WNOWAIT), 0);
	job_reap(&test_daemon);
	assert_true(o.done);
	assert_true(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	assert_int_equal(o.len, BIG);
	for (i = 0; i < BIG; i++)
		if (o.output[i] != 'a' + (int)(i % 26))
			fail_msg("byte %zu is %c", i, o.output[i]);
	assert_int_equal(o.output[BIG], '\0');
	assert_string_equal(o.tail, "a warning from the child");
	assert_true(LIST_EMPTY(&test_daemon.jobs));
	outcome_free(&o);
}

static void
test_exec_lines_and_status(void **state)
{
	struct outcome	 o;
	struct job	*j;
	char *const	 argv[] = { (char *)"/bin/sh", (char *)"-c",
			    (char *)"pwd; printf 'one\\ntwo\\n' >&2; "
			    "printf '%5000s' x >&2; printf '\\nlast' >&2; "
			    "exit 3", NULL };
	char		 want[5001];

	(void)state;
	memset(&o, 0, sizeof(o));
	j = job_exec(&test_daemon, "sh", argv, "/", 0, line_cb, done_cb, &o);
	assert_non_null(j);
	run_until_done(&o);
	assert_true(WIFEXITED(o.status));
	assert_int_equal(WEXITSTATUS(o.status), 3);
	assert_string_equal(o.output, "/\n");
	/* A line longer than JOB_MAX_LINE comes in pieces. */
	assert_int_equal(o.nlines, 5);
	assert_string_equal(o.lines[0], "one");
	assert_string_equal(o.lines[1], "two");
	memset(want, ' ', 4999);
	want[4999] = 'x';
	want[5000] = '\0';
	assert_int_equal(strlen(o.lines[2]), JOB_MAX_LINE);
	assert_memory_equal(o.lines[2], want, JOB_MAX_LINE);
	assert_string_equal(o.lines[3], want + JOB_MAX_LINE);
	/* The last line needs no newline. */
	assert_string_equal(o.lines[4], "last");
	/* The error lines kept: all but the one the callback took. */
	assert_non_null(strstr(o.tail, "two | "));
	assert_null(strstr(o.tail, "one"));
	assert_true(strlen(o.tail) > 5000 && strcmp(o.tail + strlen(o.tail) -
	    7, " | last") == 0);
	outcome_free(&o);
}

static void
test_exec_missing(void **state)
{
	struct outcome	 o;
	char *const	 argv[] = { (char *)"/nonexistent/perfwatch", NULL };

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_non_null(job_exec(&test_daemon, "missing", argv, NULL, 0, NULL,
	    done_cb, &o));
	run_until_done(&o);
	assert_true(WIFEXITED(o.status));
	assert_int_equal(WEXITSTATUS(o.status), 127);
	assert_string_equal(o.tail,
	    "/nonexistent/perfwatch: No such file or directory");
	assert_int_equal(o.len, 0);
	outcome_free(&o);
}

#ifdef __linux__
/* The child's process group, and whether it ignores SIGPIPE. */
static void
check_child(int flags, int ignores)
{
	struct outcome	 o;
	struct job	*j;
	char *const	 argv[] = { (char *)"/bin/sh", (char *)"-c",
			    (char *)"cut -d' ' -f5 /proc/$$/stat; "
			    "grep ^SigIgn: /proc/$$/status", NULL };
	unsigned long	 mask;
	long		 pgid, pid;

	memset(&o, 0, sizeof(o));
	j = job_exec(&test_daemon, "sh", argv, NULL, flags, NULL, done_cb,
	    &o);
	assert_non_null(j);
	pid = (long)job_pid(j);		/* j is freed once reaped */
	pgid = -1;
	run_until_done(&o);
	assert_int_equal(sscanf(o.output, "%ld\nSigIgn: %lx", &pgid, &mask),
	    2);
	/* Its own group, so that a SIGKILL of the group reaches it all. */
	assert_int_equal(pgid, pid);
	assert_int_equal((mask >> (SIGPIPE - 1)) & 1, ignores);
	outcome_free(&o);
}

static void
test_exec_group_and_sigpipe(void **state)
{
	(void)state;
	/* The daemon itself ignores SIGPIPE; a child gets it back. */
	signal(SIGPIPE, SIG_IGN);
	check_child(0, 0);
	check_child(JOB_NOSIGPIPE, 1);
	signal(SIGPIPE, SIG_DFL);
}
#endif

#ifdef __linux__
/*
 * A process the child left behind that goes on writing to its stderr:
 * once the child has exited, job_reap() reads what the child left in
 * the pipe, not what comes after, else it would read for as long as the
 * other writes and hold the loop meanwhile.  Here the other writer is
 * the test, through a second write end of the pipe: a line for each line
 * read, so that the pipe is never empty.
 */
struct leftover {
	int	 wfd;
	size_t	 lines;
	int	 done;
};

#define LEFTOVER_LINE	"leftover\n"
#define LEFTOVER_STOP	(4 * JOB_PIPE_REST / (sizeof(LEFTOVER_LINE) - 1))

static int
leftover_line(struct job *j, const char *line, void *arg)
{
	struct leftover	*l = arg;

	(void)j;
	(void)line;
	l->lines++;
	/* Fed for ever, it would never stop: give up well past the bound. */
	if (l->wfd != -1 && (l->lines >= LEFTOVER_STOP ||
	    write(l->wfd, LEFTOVER_LINE, sizeof(LEFTOVER_LINE) - 1) == -1)) {
		close(l->wfd);
		l->wfd = -1;
	}
	return 1;
}

static void
leftover_done(struct job *j, void *arg)
{
	struct leftover	*l = arg;

	(void)j;
	l->done = 1;
}

static void
test_reap_leftover_writer(void **state)
{
	struct leftover	 l;
	struct job	*j;
	siginfo_t	 si;
	char		 path[64];
	char *const	 argv[] = { (char *)"/bin/true", NULL };
	size_t		 i;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	memset(&l, 0, sizeof(l));
	j = job_exec(&test_daemon, "true", argv, NULL, 0, leftover_line,
	    leftover_done, &l);
	assert_non_null(j);
	snprintf(path, sizeof(path), "/proc/self/fd/%d",
	    bufferevent_getfd(j->err));
	l.wfd = open(path, O_WRONLY | O_CLOEXEC);
	assert_int_not_equal(l.wfd, -1);
	for (i = 0; i < 1000; i++)
		assert_int_equal(write(l.wfd, LEFTOVER_LINE,
		    sizeof(LEFTOVER_LINE) - 1), sizeof(LEFTOVER_LINE) - 1);
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PID, (id_t)job_pid(j), &si,
	    WEXITED | WNOWAIT), 0);
	job_reap(&test_daemon);
	assert_true(l.done);
	/*
	 * What was there, and then no more than JOB_PIPE_REST bytes (and
	 * the rest of the read, of 16 KiB, that reached it).
	 */
	assert_true(l.lines >= 1000);
	assert_true(l.lines <= (JOB_PIPE_REST + 16384) /
	    (sizeof(LEFTOVER_LINE) - 1) + 1);
	assert_true(LIST_EMPTY(&test_daemon.jobs));
	if (l.wfd != -1)
		close(l.wfd);
	signal(SIGPIPE, SIG_DFL);
}
#endif

/*
 * A signal sent to a child at once, before it has set up its signals:
 * the child must not take it with the daemon's handler (libevent's,
 * inherited by fork), which would hand it to the daemon, through the
 * descriptor both share, as if the daemon had got it.  A SIGTERM so
 * passed on reads as a request to stop perfwatchd, and the child would
 * go on as if it had got none.
 */
static void
count_signal(evutil_socket_t sig, short ev, void *arg)
{
	(void)sig;
	(void)ev;
	(*(int *)arg)++;
}

static void
test_signal_at_once(void **state)
{
	struct outcome	 o;
	struct event	*term;
	struct job	*j;
	char *const	 argv[] = { (char *)"/bin/sleep", (char *)"0.2", NULL };
	int		 terms = 0, killed = 0, i;

	(void)state;
	term = evsignal_new(test_daemon.base, SIGTERM, count_signal, &terms);
	assert_non_null(term);
	assert_int_equal(evsignal_add(term, NULL), 0);
	for (i = 0; i < 20; i++) {
		memset(&o, 0, sizeof(o));
		j = job_exec(&test_daemon, "sleep", argv, NULL, 0, NULL,
		    done_cb, &o);
		assert_non_null(j);
		assert_int_equal(kill(job_pid(j), SIGTERM), 0);
		run_until_done(&o);
		if (WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGTERM)
			killed++;
		outcome_free(&o);
	}
	event_free(term);
	/* Not the daemon's: each child's, and each child died of it. */
	assert_int_equal(terms, 0);
	assert_int_equal(killed, 20);
}

static void
test_forget(void **state)
{
	struct outcome	 o;
	struct job	*j;
	char *const	 argv[] = { (char *)"/bin/sleep", (char *)"30", NULL };

	(void)state;
	memset(&o, 0, sizeof(o));
	j = job_exec(&test_daemon, "sleep", argv, NULL, 0, NULL, done_cb, &o);
	assert_non_null(j);
	/* Forgotten: killed, reaped, freed, and its callback never runs. */
	job_forget(j);
	while (!LIST_EMPTY(&test_daemon.jobs))
		event_base_loop(test_daemon.base, EVLOOP_ONCE);
	assert_false(o.done);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reap_before_read),
		cmocka_unit_test(test_exec_lines_and_status),
		cmocka_unit_test(test_exec_missing),
#ifdef __linux__
		cmocka_unit_test(test_exec_group_and_sigpipe),
		cmocka_unit_test(test_reap_leftover_writer),
#endif
		cmocka_unit_test(test_signal_at_once),
		cmocka_unit_test(test_forget),
	};

	log_init("test_daemon_job", 1, 0);
	return cmocka_run_group_tests(tests, setup, teardown);
}
