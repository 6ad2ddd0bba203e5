/*
 * Child processes of perfwatchd: a run, a build, a read of the package
 * database.
 *
 * Each child gets its own process group (so that a last-resort SIGKILL
 * reaches whatever it started), /dev/null as stdin, and pipes as stdout
 * and stderr that the daemon reads through bufferevents: stdout is kept
 * (up to JOB_MAX_OUTPUT), stderr is handed over line by line and its last
 * lines are kept for error messages.  Those three are all a child keeps
 * of the daemon's descriptors: the rest are closed before an exec (every
 * one the daemon opens is close-on-exec as well) or before a forked
 * function runs, so that no child, however long it lives, holds a
 * client's connection, a listening socket or the store.
 *
 * On Linux (and FreeBSD) a child gets SIGTERM if the daemon dies, so
 * that a run left behind marks itself aborted instead of racing a
 * restarted daemon.
 *
 * SIGCHLD is an event; job_reap() collects every child that exited,
 * reads what is left in its pipes without waiting (a grandchild may hold
 * them open) and calls the job's done callback.  The job is freed when
 * the callback returns.
 */
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#ifdef __FreeBSD__
#include <sys/procctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "daemon.h"

/*
 * The most a child that has exited can have left unread in a pipe: what
 * a pipe holds at most (Linux's pipe-max-size, the largest F_SETPIPE_SZ
 * an unprivileged process may ask for; FreeBSD's pipes hold less).  More
 * is a grandchild's, written since.
 */
#define JOB_PIPE_REST	(1024 * 1024)

struct job {
	struct daemon		*d;
	char			*what;
	pid_t			 pid;
	int			 status;	/* wait status */
	int			 exited;
	struct bufferevent	*out;
	struct bufferevent	*err;
	struct evbuffer		*output;
	size_t			 max_output;	/* bytes of stdout kept */
	size_t			 noutput;
	int			 nul_added;
	int			 truncated;
	char			*tail[JOB_TAIL_LINES];
	size_t			 ntail;		/* lines seen */
	int			(*line_cb)(struct job *, const char *, void *);
	void			(*done_cb)(struct job *, void *);
	void			*arg;
	LIST_ENTRY(job)		 entry;
};

/*
 * Hand a line of stderr to the job's owner, and keep it for error
 * messages unless the owner took it as something else (1).
 */
static void
job_line(struct job *j, const char *line)
{
	size_t	 slot;

	if (j->line_cb != NULL) {
		if (j->line_cb(j, line, j->arg) == 1)
			return;
	} else
		log_debug("%s: %s", j->what, line);
	slot = j->ntail++ % JOB_TAIL_LINES;
	free(j->tail[slot]);
	j->tail[slot] = xstrdup(line);
}

/* A line from a forked function's stderr is one of its errors. */
static int
job_warn_line(struct job *j, const char *line, void *arg)
{
	(void)arg;
	log_warnx("%s: %s", j->what, line);
	return 0;
}

/* Hand over a line of n bytes, in pieces of at most JOB_MAX_LINE. */
static void
job_line_pieces(struct job *j, const char *line, size_t n)
{
	char	*piece;
	size_t	 off = 0, k;

	do {
		k = n - off > JOB_MAX_LINE ? JOB_MAX_LINE : n - off;
		piece = xstrndup(line + off, k);
		job_line(j, piece);
		free(piece);
		off += k;
	} while (off < n);
}

/*
 * Cut the stderr buffer into lines, a long one into pieces of
 * JOB_MAX_LINE bytes whether or not its end has arrived; at EOF the rest
 * is a line too.
 */
static void
job_err_lines(struct job *j, struct evbuffer *in, int eof)
{
	char	*line;
	size_t	 n;

	while ((line = evbuffer_readln(in, &n, EVBUFFER_EOL_LF)) != NULL) {
		job_line_pieces(j, line, n);
		free(line);
	}
	while (evbuffer_get_length(in) >= JOB_MAX_LINE ||
	    (eof && evbuffer_get_length(in) > 0)) {
		n = evbuffer_get_length(in);
		if (n > JOB_MAX_LINE)
			n = JOB_MAX_LINE;
		line = xmalloc(n + 1);
		evbuffer_remove(in, line, n);
		line[n] = '\0';
		job_line(j, line);
		free(line);
	}
}

/* Keep stdout, up to j->max_output bytes. */
static void
job_out_take(struct job *j, struct evbuffer *in)
{
	size_t	have = evbuffer_get_length(j->output);
	size_t	n = evbuffer_get_length(in);

	if (have + n <= j->max_output) {
		evbuffer_add_buffer(j->output, in);
		return;
	}
	evbuffer_remove_buffer(in, j->output, j->max_output - have);
	evbuffer_drain(in, evbuffer_get_length(in));
	if (!j->truncated)
		log_warnx("%s: more than %zu bytes of output; the rest is "
		    "dropped", j->what, j->max_output);
	j->truncated = 1;
}

static void
job_out_read(struct bufferevent *bev, void *arg)
{
	job_out_take(arg, bufferevent_get_input(bev));
}

static void
job_err_read(struct bufferevent *bev, void *arg)
{
	job_err_lines(arg, bufferevent_get_input(bev), 0);
}

/*
 * Read what is left in a pipe without blocking, then close it.  Called
 * at EOF, and when the child has exited (a grandchild may still hold the
 * pipe open: what it writes later is not waited for, nor read past
 * JOB_PIPE_REST bytes).
 */
static void
job_close_pipe(struct job *j, struct bufferevent **bevp)
{
	struct bufferevent	*bev = *bevp;
	struct evbuffer		*rest;
	char			 buf[16384];
	ssize_t			 n;
	size_t			 total = 0;
	int			 fd;

	if (bev == NULL)
		return;
	/*
	 * A socket bufferevent keeps the end of its input buffer frozen
	 * outside its own callbacks: take what it holds, then read the
	 * pipe into a buffer of our own.
	 */
	if ((rest = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", j->what);
	evbuffer_add_buffer(rest, bufferevent_get_input(bev));
	fd = bufferevent_getfd(bev);
	for (;;) {
		/*
		 * A grandchild that writes faster than this reads would
		 * keep the pipe from ever being empty, and the loop here.
		 */
		if (total >= JOB_PIPE_REST) {
			log_debug("%s: a process it left behind still writes; "
			    "the rest is not read", j->what);
			break;
		}
		n = read(fd, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		evbuffer_add(rest, buf, (size_t)n);
		if (bev == j->out)
			job_out_take(j, rest);
		else
			job_err_lines(j, rest, 0);
	}
	if (bev == j->out)
		job_out_take(j, rest);
	else
		job_err_lines(j, rest, 1);
	evbuffer_free(rest);
	bufferevent_free(bev);
	*bevp = NULL;
}

static void
job_pipe_event(struct bufferevent *bev, short what, void *arg)
{
	struct job	*j = arg;

	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	job_close_pipe(j, bev == j->out ? &j->out : &j->err);
}

static void
job_free(struct job *j)
{
	size_t	i;

	if (j->out != NULL)
		bufferevent_free(j->out);
	if (j->err != NULL)
		bufferevent_free(j->err);
	evbuffer_free(j->output);
	for (i = 0; i < JOB_TAIL_LINES; i++)
		free(j->tail[i]);
	free(j->what);
	free(j);
}

/*
 * In the child: its own group, default signals (blocked by job_start()
 * until they are), the pipes as 1 and 2.
 */
static void
job_child_setup(pid_t parent, int out, int err)
{
	sigset_t	set;
	int		fd;

	setpgid(0, 0);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#elif defined(__FreeBSD__)
	{
		int	sig = SIGTERM;

		procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig);
	}
#endif
	if (getppid() != parent)
		_exit(1);	/* the daemon died before we could ask */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, STDIN_FILENO);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (dup2(out, STDOUT_FILENO) == -1 || dup2(err, STDERR_FILENO) == -1)
		_exit(1);
}

/*
 * Fork with two pipes, or one when stdout is to be file (not -1): the
 * child writes there, and the job keeps no output.  In the parent return
 * the job (pid set, pipes read through bufferevents); in the child return
 * NULL with stdout and stderr on the pipes (or file).  On failure log,
 * and return NULL in the parent with *failed set.
 */
static struct job *
job_start(struct daemon *d, const char *what, int file, int *failed)
{
	struct job	*j;
	sigset_t	 all, old;
	int		 out[2], err[2];
	pid_t		 parent = getpid(), pid;

	*failed = 0;
	out[0] = out[1] = -1;
	if (file == -1 && pipe2(out, O_CLOEXEC) == -1) {
		log_warn("%s: pipe", what);
		*failed = 1;
		return NULL;
	}
	if (pipe2(err, O_CLOEXEC) == -1) {
		log_warn("%s: pipe", what);
		if (file == -1) {
			close(out[0]);
			close(out[1]);
		}
		*failed = 1;
		return NULL;
	}
	fflush(NULL);
	/*
	 * Until the child has set its signals to their defaults, one sent
	 * to it would run the daemon's handler (libevent's), which hands
	 * it to the daemon through the descriptor they share: a SIGTERM
	 * meant for the child would stop the daemon, and the child would
	 * go on.  Blocked, it waits for job_child_setup() to unblock it.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if ((pid = fork()) == -1) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		log_warn("%s: fork", what);
		if (file == -1) {
			close(out[0]);
			close(out[1]);
		}
		close(err[0]);
		close(err[1]);
		*failed = 1;
		return NULL;
	}
	if (pid == 0) {
		job_child_setup(parent, file == -1 ? out[1] : file, err[1]);
		return NULL;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* Both sides set the group, so neither races the other. */
	setpgid(pid, pid);
	if (file == -1)
		close(out[1]);
	close(err[1]);
	j = xcalloc(1, sizeof(*j));
	j->d = d;
	j->what = xstrdup(what);
	j->pid = pid;
	j->output = evbuffer_new();
	j->max_output = JOB_MAX_OUTPUT;
	evutil_make_socket_nonblocking(err[0]);
	j->err = bufferevent_socket_new(d->base, err[0], BEV_OPT_CLOSE_ON_FREE);
	if (j->output == NULL || j->err == NULL)
		fatalx("%s: out of memory for its pipes", what);
	if (file == -1) {
		evutil_make_socket_nonblocking(out[0]);
		j->out = bufferevent_socket_new(d->base, out[0],
		    BEV_OPT_CLOSE_ON_FREE);
		if (j->out == NULL)
			fatalx("%s: out of memory for its pipes", what);
		bufferevent_setcb(j->out, job_out_read, NULL, job_pipe_event,
		    j);
		bufferevent_enable(j->out, EV_READ);
	}
	bufferevent_setcb(j->err, job_err_read, NULL, job_pipe_event, j);
	bufferevent_enable(j->err, EV_READ);
	LIST_INSERT_HEAD(&d->jobs, j, entry);
	log_debug("%s: started, pid %ld", what, (long)pid);
	return j;
}

/*
 * Start argv (argv[0] a path, not searched) in cwd (NULL: the daemon's),
 * with flags (JOB_NOSIGPIPE).  line_cb gets each stderr line and returns
 * 1 if the line is not an error, to leave it out of job_tail() (NULL:
 * lines are logged at debug level); done_cb is called once the child has
 * exited.  Return NULL if it could not start.
 */
struct job *
job_exec(struct daemon *d, const char *what, char *const argv[],
    const char *cwd, int flags,
    int (*line_cb)(struct job *, const char *, void *),
    void (*done_cb)(struct job *, void *), void *arg)
{
	return job_exec_to(d, what, argv, cwd, flags, -1, line_cb, done_cb,
	    arg);
}

/*
 * job_exec() with the child's stdout on file (a descriptor of the
 * daemon's, which it keeps; -1: a pipe, kept as the job's output), for
 * an output too large to hold in memory.
 */
struct job *
job_exec_to(struct daemon *d, const char *what, char *const argv[],
    const char *cwd, int flags, int file,
    int (*line_cb)(struct job *, const char *, void *),
    void (*done_cb)(struct job *, void *), void *arg)
{
	struct job	*j;
	int		 failed;

	j = job_start(d, what, file, &failed);
	if (j == NULL && failed)
		return NULL;
	if (j == NULL) {
		if (flags & JOB_NOSIGPIPE)
			signal(SIGPIPE, SIG_IGN);
		perfwatch_closefrom(3);
		if (cwd != NULL && chdir(cwd) == -1) {
			fprintf(stderr, "%s: %s\n", cwd, strerror(errno));
			_exit(127);
		}
		execv(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	j->line_cb = line_cb;
	j->done_cb = done_cb;
	j->arg = arg;
	return j;
}

/*
 * Run fn(fn_arg) in a child; what it writes to stdout is the job's
 * output, each line it writes to stderr is logged as a warning.  The
 * child exits 0 if fn returns 0, else 1.  The child has only stdin,
 * stdout and stderr: every other descriptor of the daemon is closed
 * before fn runs, so it must not touch the event base or the store.
 */
struct job *
job_fork(struct daemon *d, const char *what, int (*fn)(void *),
    void *fn_arg, void (*done_cb)(struct job *, void *), void *arg)
{
	struct job	*j;
	int		 failed, rc;

	j = job_start(d, what, -1, &failed);
	if (j == NULL && failed)
		return NULL;
	if (j == NULL) {
		/*
		 * Nothing is exec'd to shed the daemon's descriptors: without
		 * this, the child would hold every client's connection (the
		 * dashboard's, the control socket's), and the peer of one the
		 * daemon closes would not see it closed until the child ends.
		 * syslog's socket goes too: closed first, so that a line the
		 * child logs reopens it rather than lands on a reused number.
		 */
		closelog();
		perfwatch_closefrom(3);
		rc = fn(fn_arg);
		if (fflush(stdout) == EOF)
			rc = -1;
		fflush(stderr);
		_exit(rc == 0 ? 0 : 1);
	}
	j->line_cb = job_warn_line;
	j->done_cb = done_cb;
	j->arg = arg;
	return j;
}

/* Collect every child that exited and finish its job. */
void
job_reap(struct daemon *d)
{
	struct job	*j;
	pid_t		 pid;
	int		 status;

	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid == -1 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		LIST_FOREACH(j, &d->jobs, entry)
			if (j->pid == pid)
				break;
		if (j == NULL)
			continue;
		j->exited = 1;
		j->status = status;
		job_close_pipe(j, &j->out);
		job_close_pipe(j, &j->err);
		LIST_REMOVE(j, entry);
		if (WIFSIGNALED(status))
			log_debug("%s: pid %ld killed by signal %d", j->what,
			    (long)pid, WTERMSIG(status));
		else
			log_debug("%s: pid %ld exited %d", j->what, (long)pid,
			    WEXITSTATUS(status));
		if (j->done_cb != NULL)
			j->done_cb(j, j->arg);
		job_free(j);
	}
}

/* Send sig to the job's process (not its group). */
void
job_signal(struct job *j, int sig)
{
	if (!j->exited && kill(j->pid, sig) == -1 && errno != ESRCH)
		log_warn("%s: kill %ld", j->what, (long)j->pid);
}

/* Send sig to the job's whole process group. */
void
job_signal_group(struct job *j, int sig)
{
	if (!j->exited && kill(-j->pid, sig) == -1 && errno != ESRCH)
		log_warn("%s: kill -%ld", j->what, (long)j->pid);
}

/*
 * SIGKILL what is left of the process group of a job whose process has
 * exited (from its done callback): its group outlives it while a process
 * it started is still in it, and its id is not reused meanwhile.
 */
void
job_kill_leftovers(struct job *j)
{
	if (!j->exited)
		return;
	if (kill(-j->pid, SIGKILL) == 0)
		log_info("%s: killed what was left of its process group",
		    j->what);
	else if (errno != ESRCH)
		log_warn("%s: kill -%ld", j->what, (long)j->pid);
}

/* SIGKILL the job's whole process group: the last resort. */
void
job_kill_group(struct job *j)
{
	if (!j->exited && kill(-j->pid, SIGKILL) == -1 && errno != ESRCH)
		log_warn("%s: kill -%ld", j->what, (long)j->pid);
}

/* Drop interest in a job: it is killed, and freed once reaped. */
void
job_forget(struct job *j)
{
	j->line_cb = NULL;
	j->done_cb = NULL;
	j->arg = NULL;
	job_kill_group(j);
}

/* Signal every job still running (their groups with SIGKILL). */
void
job_kill_all(struct daemon *d, int sig)
{
	struct job	*j;

	LIST_FOREACH(j, &d->jobs, entry) {
		if (sig == SIGKILL)
			job_kill_group(j);
		else
			job_signal(j, sig);
	}
}

pid_t
job_pid(const struct job *j)
{
	return j->pid;
}

int
job_status(const struct job *j)
{
	return j->status;
}

/* What the child wrote to stdout, NUL-terminated (once it has exited). */
const char *
job_output(struct job *j, size_t *len)
{
	if (!j->nul_added) {
		j->noutput = evbuffer_get_length(j->output);
		evbuffer_add(j->output, "", 1);
		j->nul_added = 1;
	}
	if (len != NULL)
		*len = j->noutput;
	return (const char *)evbuffer_pullup(j->output, -1);
}

/*
 * Keep up to max bytes of stdout rather than JOB_MAX_OUTPUT: set before
 * the loop runs again, while nothing has been read.
 */
void
job_max_output(struct job *j, size_t max)
{
	j->max_output = max;
}

int
job_truncated(const struct job *j)
{
	return j->truncated;
}

/* The last lines of stderr, joined by " | ", or NULL if there were none. */
char *
job_tail(const struct job *j)
{
	char	*out = NULL, *tmp;
	size_t	 i, first;

	first = j->ntail > JOB_TAIL_LINES ? j->ntail - JOB_TAIL_LINES : 0;
	for (i = first; i < j->ntail; i++) {
		const char *line = j->tail[i % JOB_TAIL_LINES];

		if (out == NULL)
			out = xstrdup(line);
		else {
			xasprintf(&tmp, "%s | %s", out, line);
			free(out);
			out = tmp;
		}
	}
	return out;
}
