/*
 * Running a helper program (rpm, pkg, cc) for its output: fork and exec
 * without a shell, on a fixed PATH and in the C locale (PERFWATCH_PATH),
 * with no descriptor of ours beyond stdin, stdout and stderr,
 * read its stdout through a pipe with poll() against a
 * deadline, and bound what it may write.  An exec failure comes back to
 * the parent through a second close-on-exec pipe, so "rpm: No such file or
 * directory" is told apart from a program that ran and failed.
 *
 * The same deadline bounds the wait for its exit once its output ends:
 * a helper that closes its stdout and keeps running is killed when time
 * is up, not waited for.  One that SIGKILL does not end either (stuck in
 * the kernel) is left behind after COMMAND_KILL_WAIT_MS.
 *
 * This runs in the run child (never in perfwatchd's event loop): blocking
 * here for at most timeout_ms (and COMMAND_KILL_WAIT_MS) is fine.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

#ifndef COMMAND_KILL_WAIT_MS
#define COMMAND_KILL_WAIT_MS	2000	/* for a SIGKILLed helper to end */
#endif

/* Milliseconds on the monotonic clock. */
static int64_t
command_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* In the child: wire the descriptors and exec; report errno on failure. */
static void __attribute__((noreturn))
command_child(const char *const argv[], int outfd, int errpipe,
    int with_stderr)
{
	int	null, e;

	if ((null = open("/dev/null", O_RDWR)) == -1)
		goto fail;
	if (dup2(null, STDIN_FILENO) == -1 ||
	    dup2(outfd, STDOUT_FILENO) == -1 ||
	    dup2(with_stderr ? outfd : null, STDERR_FILENO) == -1)
		goto fail;
	/*
	 * Nothing else of ours goes with it: whatever the caller holds
	 * without close-on-exec (a descriptor it inherited, a workload's
	 * file) is not the helper's to keep open.  The error pipe moves to
	 * 3, close-on-exec, so that it alone survives until the exec.
	 */
	if (errpipe != 3) {
		if (dup2(errpipe, 3) == -1)
			goto fail;
		errpipe = 3;
	}
	if (fcntl(errpipe, F_SETFD, FD_CLOEXEC) == -1)
		goto fail;
	perfwatch_closefrom(4);
	signal(SIGPIPE, SIG_DFL);
	/* The machine's helpers, in C, whoever asks (perfwatch.h). */
	if (setenv("PATH", PERFWATCH_PATH, 1) == -1 ||
	    setenv("LC_ALL", "C", 1) == -1)
		goto fail;
	execvp(argv[0], (char *const *)argv);
fail:
	e = errno;
	(void)!write(errpipe, &e, sizeof(e));
	_exit(127);
}

/* A wait status as the exit code, or 128 + signal; -1 if neither. */
static int
command_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

int
sysinfo_command(const char *const argv[], int timeout_ms, size_t max_out,
    int with_stderr, char **out, size_t *len, int *status, char **cause)
{
	struct pollfd	 pfd;
	char		*buf = NULL;
	size_t		 n = 0, alloc = 0;
	ssize_t		 r;
	int64_t		 deadline, left;
	pid_t		 pid;
	int		 outp[2], errp[2], e, rc = -1, st = 0, reaped = 0;
	int		 failed = 0;

	*out = NULL;
	if (pipe2(outp, O_CLOEXEC) == -1) {
		xasprintf(cause, "%s: pipe: %s", argv[0], strerror(errno));
		return -1;
	}
	if (pipe2(errp, O_CLOEXEC) == -1) {
		xasprintf(cause, "%s: pipe: %s", argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	switch (pid = fork()) {
	case -1:
		xasprintf(cause, "%s: fork: %s", argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		return -1;
	case 0:
		close(outp[0]);
		close(errp[0]);
		command_child(argv, outp[1], errp[1], with_stderr);
	}
	close(outp[1]);
	close(errp[1]);

	deadline = command_now_ms() + timeout_ms;
	pfd.fd = outp[0];
	pfd.events = POLLIN;
	for (;;) {
		left = deadline - command_now_ms();
		if (left <= 0) {
			xasprintf(cause, "%s: timed out after %d ms", argv[0],
			    timeout_ms);
			failed = 1;
			break;
		}
		rc = poll(&pfd, 1, (int)left);
		if (rc == -1) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "%s: poll: %s", argv[0],
			    strerror(errno));
			failed = 1;
			break;
		}
		if (rc == 0)
			continue;
		if (n + 4096 + 1 > alloc) {
			alloc = alloc == 0 ? 8192 : alloc * 2;
			buf = xreallocarray(buf, alloc, 1);
		}
		r = read(outp[0], buf + n, alloc - n - 1);
		if (r == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			xasprintf(cause, "%s: read: %s", argv[0],
			    strerror(errno));
			failed = 1;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max_out) {
			xasprintf(cause, "%s: more than %zu bytes of output",
			    argv[0], max_out);
			failed = 1;
			break;
		}
	}
	close(outp[0]);
	if (!failed) {
		/* Its output ended: its exit is due by the same deadline. */
		left = deadline - command_now_ms();
		reaped = perfwatch_reap_until(pid, &st,
		    perfwatch_mono() + (left > 0 ? left : 0) / 1000.0);
		if (reaped == 0) {
			xasprintf(cause, "%s: closed its output but did not "
			    "exit within %d ms", argv[0], timeout_ms);
			failed = 1;
		} else if (reaped == -1) {
			xasprintf(cause, "%s: wait: %s", argv[0],
			    strerror(errno));
			failed = 1;
		}
	}
	if (failed && reaped != 1) {
		kill(pid, SIGKILL);
		reaped = perfwatch_reap_until(pid, &st,
		    perfwatch_mono() + COMMAND_KILL_WAIT_MS / 1000.0);
		if (reaped == 0)
			log_warnx("%s: process %ld still there %d ms after "
			    "SIGKILL; not waiting for it", argv[0], (long)pid,
			    COMMAND_KILL_WAIT_MS);
	}

	/*
	 * An errno in the error pipe means exec never happened.  Read only
	 * from a helper reaped: one still there might hold the pipe open.
	 */
	r = 0;
	while (reaped == 1 &&
	    (r = read(errp[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(errp[0]);
	if (!failed && r == (ssize_t)sizeof(e)) {
		xasprintf(cause, "%s: %s", argv[0], strerror(e));
		failed = 1;
	}
	if (!failed && (rc = command_status(st)) == -1) {
		xasprintf(cause, "%s: wait: unexpected status %#x", argv[0],
		    st);
		failed = 1;
	}
	if (failed) {
		free(buf);
		return -1;
	}
	if (buf == NULL)
		buf = xstrdup("");
	else
		buf[n] = '\0';
	*out = buf;
	if (len != NULL)
		*len = n;
	*status = rc;
	return 0;
}
