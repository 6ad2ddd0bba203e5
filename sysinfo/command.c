/*
 * Running a helper program (rpm, pkg, cc) for its output: fork and exec
 * without a shell, on a fixed PATH and in the C locale (PERFWATCH_PATH),
 * with no descriptor of ours beyond stdin, stdout and stderr,
 * read its stdout through a pipe with poll() against a
 * deadline, and bound what it may write.  An exec failure comes back to
 * the parent through a second close-on-exec pipe, so "rpm: No such file or
 * directory" is told apart from a program that ran and failed.
 *
 * This runs in the run child (never in perfwatchd's event loop): blocking
 * here for at most timeout_ms is fine.
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

/* Wait for pid, retrying on EINTR; the exit code or 128 + signal. */
static int
command_reap(pid_t pid)
{
	int	st;

	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR)
			return -1;
	}
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
	int		 outp[2], errp[2], e, rc, failed = 0;

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
	if (failed)
		kill(pid, SIGKILL);
	rc = command_reap(pid);

	/* An errno in the error pipe means exec never happened. */
	while ((r = read(errp[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(errp[0]);
	if (!failed && r == (ssize_t)sizeof(e)) {
		xasprintf(cause, "%s: %s", argv[0], strerror(e));
		failed = 1;
	}
	if (!failed && rc == -1) {
		xasprintf(cause, "%s: wait: %s", argv[0], strerror(errno));
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
