/*
 * Unit tests of common/log.c: what reaches syslog when the daemon is
 * detached, at each verbosity ([perfwatch] log_level).  log.c is included
 * so that its syslog() and openlog() calls come here instead.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

static void	test_syslog(int, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	test_openlog(const char *, int, int);

#undef syslog
#undef openlog
#define syslog	test_syslog
#define openlog	test_openlog
#include "../../common/log.c"
#undef syslog
#undef openlog

static char	logged[4096];	/* each message as "PRI text\n" */

static void
test_syslog(int pri, const char *fmt, ...)
{
	char	msg[1024];
	size_t	n = strlen(logged);
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(logged + n, sizeof(logged) - n, "%d %s\n", pri, msg);
}

static void
test_openlog(const char *ident, int option, int facility)
{
	(void)ident;
	(void)option;
	(void)facility;
}

/* Log one message of each kind, detached at verbosity v; what syslog got. */
static const char *
log_each(int v)
{
	logged[0] = '\0';
	log_init("test", 0, v);
	log_warnx("a warning");
	log_info("some info");
	log_debug("a detail");
	return logged;
}

static void
test_detached_levels(void **state)
{
	char	want[256];

	(void)state;
	/* log_level = warning (or error): the warnings alone. */
	snprintf(want, sizeof(want), "%d a warning\n", LOG_WARNING);
	assert_string_equal(log_each(0), want);
	/* info, the default. */
	snprintf(want, sizeof(want), "%d a warning\n%d some info\n",
	    LOG_WARNING, LOG_INFO);
	assert_string_equal(log_each(1), want);
	/* debug. */
	snprintf(want, sizeof(want), "%d a warning\n%d some info\n"
	    "%d a detail\n", LOG_WARNING, LOG_INFO, LOG_DEBUG);
	assert_string_equal(log_each(2), want);
}

/* How a child that calls fatalx() ends, with the status set or not. */
static int
fatal_status(int status)
{
	pid_t	pid;
	int	st;

	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		log_init("test", 1, 0);
		if (status != -1)
			log_set_fatal_status(status);
		fatalx("out of something");
	}
	while (waitpid(pid, &st, 0) == -1)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/*
 * fatal() exits 1 unless told otherwise: perfwatch says 70, and check
 * --bisect 128, where 1 would be a regression or a bad commit.
 */
static void
test_fatal_status(void **state)
{
	(void)state;
	assert_int_equal(fatal_status(-1), 1);
	assert_int_equal(fatal_status(70), 70);
	assert_int_equal(fatal_status(128), 128);
}

/*
 * A newline, a carriage return or an escape sequence in what a message
 * names is escaped, to syslog and to stderr alike: the message stays one
 * line, and no line of it reads as another message of ours.
 */
static void
test_control_escaped(void **state)
{
	const char	*forged = "r1\nperfwatchd: run r2: complete\r\x1b[2J\x7f";
	char		 want[256], err[256];
	FILE		*tmp;
	ssize_t		 n;
	int		 saved;

	(void)state;
	logged[0] = '\0';
	log_init("test", 0, 0);
	log_warnx("run %s: aborted\tnow", forged);
	snprintf(want, sizeof(want), "%d run r1\\nperfwatchd: run r2: "
	    "complete\\r\\x1b[2J\\x7f: aborted\tnow\n", LOG_WARNING);
	assert_string_equal(logged, want);

	/* In the foreground, on stderr. */
	assert_non_null(tmp = tmpfile());
	assert_true((saved = dup(STDERR_FILENO)) != -1);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) != -1);
	log_init("test", 1, 0);
	log_warnx("run %s: aborted", forged);
	assert_true(dup2(saved, STDERR_FILENO) != -1);
	close(saved);
	n = pread(fileno(tmp), err, sizeof(err) - 1, 0);
	assert_true(n > 0);
	err[n] = '\0';
	fclose(tmp);
	assert_string_equal(err, "test: run r1\\nperfwatchd: run r2: "
	    "complete\\r\\x1b[2J\\x7f: aborted\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detached_levels),
		cmocka_unit_test(test_fatal_status),
		cmocka_unit_test(test_control_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
