/*
 * The runner: one iteration of one workload in a child process.
 *
 * Design notes.
 *
 * - A guard process is forked first and leads a new process group; the
 *   child joins it, so everything the child starts can be signalled at
 *   once.  The guard holds nothing but the read end of a pipe whose only
 *   writer is the runner: when the runner dies, even by SIGKILL or with
 *   the whole group of `perfwatch run` killed (perfwatchd's last resort),
 *   the guard reads end of file and kills its group, so no workload
 *   outlives the process that times it (a process that left the group,
 *   below, does: only the runner knows of it).  The child itself also
 *   gets SIGKILL when its parent dies (PR_SET_PDEATHSIG, FreeBSD's
 *   PROC_PDEATHSIG_CTL), in case it could not join the group.
 * - The caller's signal handlers must not run in the child: every signal
 *   is blocked across fork() and unblocked in the child only once each
 *   has its default action, so a SIGTERM sent at the child's start ends
 *   it instead of running the caller's handler there.  The child's
 *   environment is built from nothing: LC_ALL=C, PATH=WL_PATH, and HOME,
 *   TMPDIR and the cwd all in a fresh directory <work_dir>/perfwatch-
 *   <name>.XXXXXX; umask 022; stdin is /dev/null; every signal has its
 *   default action and none is blocked; no descriptor but 0-2 (and 3, the
 *   result pipe of a native workload) stays open.
 * - The parent watches three things with poll(): the result pipe (bounded
 *   by WL_OUTPUT_MAX), the stderr pipe (of which it keeps what the error
 *   message quotes, struct errlines) and a self-pipe that wl_abort()
 *   writes, plus on Linux a pidfd that becomes readable the moment the
 *   child exits, which keeps the measured wall time exact without a
 *   SIGCHLD handler: the runner never installs or blocks a signal, that
 *   belongs to its caller.
 * - Over time (or on abort, or on too much output) the whole group gets
 *   SIGTERM and, grace seconds later, SIGKILL; a child that SIGKILL does
 *   not end either (stuck in the kernel) is given up CHILD_WAIT_SECONDS
 *   later, not waited for.  Once the child is reaped,
 *   whatever is left of its group gets SIGKILL too, and the runner waits
 *   (bounded) until the group is empty, so no benchmark process outlives
 *   its iteration.
 * - A process that calls setsid() leaves the group: a server that a
 *   user's command starts (`memcached -d`, `pg_ctl start`) and never
 *   stops would outlive the iteration and load every one after it.  So
 *   the runner makes itself a subreaper (Linux PR_SET_CHILD_SUBREAPER,
 *   FreeBSD PROC_REAP_ACQUIRE): an orphan of the workload becomes its
 *   child, not init's.  Once the group is gone, every child the runner
 *   has that it did not have before the iteration is such an escapee;
 *   each is killed with the group it leads and reaped, and again for
 *   the orphans that leaves, and the log says how many there were.  On
 *   other systems an escapee still outlives its iteration.
 * - The wall time runs from the moment the child has made its clean room
 *   and calls the workload (for a command, just before its exec) to the
 *   child's exit: the child writes its clock to a page it shares with the
 *   runner.  The fork and the set-up are perfwatch's, not the workload's,
 *   and cost a few milliseconds on a machine whose system calls are slow
 *   (bench/command).  The time limit counts from the mark too, once the
 *   child has written it, and from the fork until then (a child stuck
 *   in its set-up is still stopped).
 * - CPU time is the child's rusage from wait4(), which includes every
 *   descendant it waited for; the child's own set-up is in it too
 *   (78 system calls under strace, 62 of them resetting signal actions).
 * - The iteration directory is removed whatever happened.  The runner
 *   holds an flock(2) on it meanwhile, so that wl_sweep_work_dir() can
 *   tell the directory of a killed runner (unlocked) from one in use.
 *   It also holds an empty file, DIR_MARK, made before the workload
 *   starts: the sweep removes only a directory holding it, so that a
 *   user's own perfwatch-src.backup in a shared work directory is not
 *   taken for a killed runner's (the name alone cannot tell them apart).
 *   The mark is removed last, once all the rest is gone: a directory
 *   that could not be removed whole is left for a later sweep.
 * - With settle set (the disk workloads' default), the runner flushes the
 *   filesystem of the work directory and waits that long before it
 *   forks, abortable, outside the timing: every iteration starts from a
 *   machine that has written back and put away what the one before it
 *   left (see WL_DISK_SETTLE).  Not sync(): it writes back every
 *   filesystem of the machine, and on one with a hung NFS mount it never
 *   returns, in an uninterruptible sleep that not even SIGKILL ends, and
 *   with it would hang the run and the daemon's battery.  So a child
 *   does the flush (wl_flush()), syncfs(2) of the work directory on
 *   Linux, and the runner waits for it at most WL_FLUSH_WAIT seconds (or
 *   until wl_abort()); a flush still going then is named in the log and
 *   left behind, and the workload runs without it.  While one is left
 *   behind no other is started: it would hang as well, one more process
 *   stuck per iteration.
 */
#include <sys/types.h>
#include <sys/file.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#ifdef __FreeBSD__
#include <sys/procctl.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

#define ERR_LINE_MAX		240	/* bytes kept of one stderr line */
#define TAIL_LINES		3	/* last stderr lines in an error */
#define GROUP_WAIT_SECONDS	2.0	/* for a killed group to vanish */
#define DRAIN_READS		16	/* reads of a pipe per wake-up */
#define REMOVE_DEPTH_MAX	256
#define DEFAULT_WORK_DIR	"/var/tmp"
#define DIR_PREFIX		"perfwatch-"	/* iteration directories */
#define DIR_SUFFIX_LEN		7		/* ".XXXXXX" of mkdtemp */
#define DIR_TRIES		3
#define DIR_MARK		".perfwatch-iteration"	/* in each of them */
#define DEEP_PREFIX		".perfwatch-deep."	/* see struct remove */
#define ESCAPE_ROUNDS		32	/* of killing escapees' orphans */
#ifndef CHILD_WAIT_SECONDS
#define CHILD_WAIT_SECONDS	2.0	/* for the SIGKILLed child to end */
#endif
#ifndef ESCAPE_WAIT_SECONDS
#define ESCAPE_WAIT_SECONDS	2.0	/* for killed escapees to end */
#endif

static volatile sig_atomic_t	 wl_abort_flag;
static int			 wl_abort_pipe[2] = { -1, -1 };

/*
 * What an error quotes of a child's stderr, read as it streams: its
 * first line, the first later line that looks like a cause (a tool like
 * dd says what went wrong, then prints its counts), and the last
 * TAIL_LINES lines, each cut to ERR_LINE_MAX bytes.  Blank lines are not
 * counted; a carriage return starts the line again, as on a terminal, so
 * a progress meter leaves only its last state.
 */
struct errlines {
	char		 cur[ERR_LINE_MAX];	/* the line being read */
	size_t		 curlen;
	int		 curcut;		/* it was longer */
	int		 cr;			/* '\r' just read */
	size_t		 nlines;		/* non-blank lines ended */
	char		 first[ERR_LINE_MAX];
	char		 cause[ERR_LINE_MAX];
	size_t		 causeno;		/* its number, 2...; 0 none */
	char		 last[TAIL_LINES][ERR_LINE_MAX];	/* a ring */
};

/* What the parent gathers from one child. */
struct watch {
	pid_t		 pid;
	pid_t		 pgid;		/* the guard's group */
	int		 fd_out;
	int		 fd_err;
	int		 fd_pid;
	char		*out;
	size_t		 outlen;
	int		 out_over;
	struct errlines	 err;	/* of stderr */
	const char	*name;	/* the workload's, for the log */
	int		 unreaped;	/* SIGKILL did not end it in time */
};

/*
 * Ask the current iteration to stop: its group is killed and it returns
 * WL_ABORTED, as does every later one until wl_abort_clear().  Safe to
 * call from a signal handler.
 */
void
wl_abort(void)
{
	int	saved = errno;
	ssize_t	n;

	wl_abort_flag = 1;
	if (wl_abort_pipe[1] != -1) {
		n = write(wl_abort_pipe[1], "x", 1);
		(void)n;
	}
	errno = saved;
}

/* Has wl_abort() been called? */
int
wl_aborted(void)
{
	return wl_abort_flag != 0;
}

/* Forget an abort, so iterations run again. */
void
wl_abort_clear(void)
{
	char	buf[64];

	wl_abort_flag = 0;
	if (wl_abort_pipe[0] != -1) {
		while (read(wl_abort_pipe[0], buf, sizeof(buf)) > 0)
			;
	}
}

/*
 * The flush child wl_flush() left behind, still going when its wait
 * ended, and the directory it flushes; -1 for none.
 */
static pid_t	 flush_pid = -1;
static char	*flush_dir;
static double	 flush_start;

/*
 * In the flush child: write back the filesystem that holds dir, and exit
 * 0, or with the errno of what failed.  A work directory not made yet
 * (the runner makes it next) is on the filesystem of the nearest parent
 * that is there.  Every descriptor is closed first: one left stuck
 * would otherwise hold the caller's pipes open (perfwatchd reads a run's
 * stderr to its end).  On Linux syncfs(2) writes back that one
 * filesystem and waits for it.  Elsewhere (FreeBSD, the other BSDs)
 * there is no call for one filesystem, and sync(2), the portable one,
 * writes back all of them; FreeBSD's may return before the writes are
 * done.  Either way it is this child, not the runner, that waits.
 */
static void __attribute__((noreturn))
flush_main(const char *dir)
{
	char	path[PATH_MAX], *slash;
	int	fd, rc = 0;

	perfwatch_closefrom(0);
	if (strlen(dir) >= sizeof(path))
		_exit(ENAMETOOLONG);
	memcpy(path, dir, strlen(dir) + 1);
	while ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 &&
	    errno == ENOENT && strcmp(path, "/") != 0 &&
	    strcmp(path, ".") != 0) {
		/* "/a/b" to "/a", "/a" to "/", "a" to ".". */
		if ((slash = strrchr(path, '/')) == NULL)
			memcpy(path, ".", 2);
		else
			slash[slash == path ? 1 : 0] = '\0';
	}
	if (fd == -1)
		_exit(errno > 0 && errno < 256 ? errno : EIO);
#ifdef __linux__
	if (syncfs(fd) == -1)
		rc = errno > 0 && errno < 256 ? errno : EIO;
#else
	sync();
#endif
	close(fd);
	_exit(rc);
}

/*
 * Wait for the flush child until the monotonic time until, or
 * wl_abort(), looking at the abort flag every FLUSH_LOOK seconds: as
 * perfwatch_reap_until(), 1 once reaped, 0 if not yet.
 */
#define FLUSH_LOOK	0.05
static int
flush_reap(double until, int *status)
{
	double	next;
	int	r;

	for (;;) {
		next = wl_now() + FLUSH_LOOK;
		if (next > until)
			next = until;
		r = perfwatch_reap_until(flush_pid, status, next);
		if (r != 0 || wl_abort_flag || wl_now() >= until)
			return r;
	}
}

/*
 * Write back the filesystem that holds dir (see the notes at the top), in
 * a child, waiting for it at most wait seconds (WL_FLUSH_WAIT if 0 or
 * less) or until wl_abort().  Returns 0 once it is done; -1 if it failed,
 * is still going (then left behind), or a flush left behind before is
 * still going (then none is started), each said in the log with name in
 * front; -1 too, without a word, on wl_abort().
 */
int
wl_flush(const char *name, const char *dir, double wait)
{
	sigset_t	all, old;
	int		status, r;

	if (wait <= 0)
		wait = WL_FLUSH_WAIT;
	if (flush_pid != -1) {
		r = perfwatch_reap_until(flush_pid, NULL, 0);
		if (r == 0) {
			log_warnx("%s: the flush of the filesystem of %s, "
			    "process %ld, is still going after %.0f s; the "
			    "workload runs without a flush", name, flush_dir,
			    (long)flush_pid, wl_now() - flush_start);
			return -1;
		}
		flush_pid = -1;
		free(flush_dir);
		flush_dir = NULL;
	}

	/* No handler of the caller's may run in the child. */
	sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	if ((flush_pid = fork()) == 0)
		flush_main(dir);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (flush_pid == -1) {
		log_warn("%s: fork for the flush of %s", name, dir);
		return -1;
	}
	flush_start = wl_now();
	if ((r = flush_reap(flush_start + wait, &status)) == 0) {
		/* Left behind: a later call reaps it. */
		flush_dir = xstrdup(dir);
		if (!wl_abort_flag)
			log_warnx("%s: the flush of the filesystem of %s, "
			    "process %ld, did not end in %.0f s; not waiting "
			    "for it, the workload runs without it", name, dir,
			    (long)flush_pid, wait);
		return -1;
	}
	flush_pid = -1;
	if (r == -1) {
		log_warn("%s: wait for the flush of %s", name, dir);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		log_warnx("%s: cannot flush the filesystem of %s: %s", name,
		    dir, strerror(WEXITSTATUS(status)));
	else
		log_warnx("%s: the flush of the filesystem of %s was killed "
		    "by signal %d", name, dir, WTERMSIG(status));
	return -1;
}

/*
 * Flush the filesystem of the work directory (wl_flush()), then stay
 * idle for p->settle seconds, unless wl_abort() is called; returns -1 if
 * it was.  The workload runs after a flush that failed or did not end.
 */
static int
settle(const struct wl_workload *wl, const struct wl_params *p)
{
	struct pollfd	pfd;
	double		end, left;

	(void)wl_flush(wl_params_name(p, wl), p->work_dir != NULL ?
	    p->work_dir : DEFAULT_WORK_DIR, p->flush_wait);
	end = wl_now() + p->settle;
	while (!wl_abort_flag && (left = end - wl_now()) > 0) {
		pfd.fd = wl_abort_pipe[0];
		pfd.events = POLLIN;
		(void)poll(&pfd, 1, (int)(left * 1000) + 1);
	}
	return wl_abort_flag ? -1 : 0;
}

/* Create the self-pipe wl_abort() writes, once. */
static int
abort_pipe_init(void)
{
	int	fds[2];

	if (wl_abort_pipe[0] != -1)
		return 0;
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == -1)
		return -1;
	wl_abort_pipe[0] = fds[0];
	wl_abort_pipe[1] = fds[1];
	return 0;
}

const char *
wl_status_name(enum wl_status status)
{
	switch (status) {
	case WL_OK:
		return "ok";
	case WL_FAILED:
		return "failed";
	case WL_TIMEOUT:
		return "timeout";
	case WL_ABORTED:
		return "aborted";
	}
	return "unknown";
}

/* Free what a result holds and zero it. */
void
wl_result_clear(struct wl_result *res)
{
	size_t	i;

	free(res->metrics);
	for (i = 0; i < res->nnotes; i++)
		free(res->notes[i]);
	free(res->notes);
	free(res->error);
	memset(res, 0, sizeof(*res));
	res->pgid = -1;
}

/*
 * A removal by remove_tree_at().  remove_at() recurses, holding a
 * directory open at each level, so a tree is cut REMOVE_DEPTH_MAX levels
 * down: a directory deeper than that is moved up into the top directory,
 * as DEEP_PREFIX and a number, and removed from there.  A workload may
 * leave a tree of any depth (mkdir -p of 300 levels); cut there, it was
 * left behind.
 */
struct remove {
	int	top;		/* the directory removed, open */
	dev_t	dev;		/* its file system's */
	size_t	moved;		/* names DEEP_PREFIX 0... given out */
	int	said;		/* a directory that could not be moved up */
};

static int	remove_at(int, const char *, int, struct remove *);

/* Move directory name under parent, too deep, up into the top one. */
static int
remove_move_up(int parent, const char *name, struct remove *rm)
{
	char	to[sizeof(DEEP_PREFIX) + 24];
	int	try;

	/* The workload may have made such a name: another one. */
	for (try = 0; try < DIR_TRIES; try++) {
		snprintf(to, sizeof(to), DEEP_PREFIX "%zu", rm->moved++);
		if (renameat(parent, name, rm->top, to) == 0)
			return 0;
		if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
			break;
	}
	/* One line, not one for each sibling that fails so too. */
	if (!rm->said)
		log_warn("remove %s: nested more than %d deep, and cannot "
		    "be moved up", name, REMOVE_DEPTH_MAX);
	rm->said = 1;
	return -1;
}

/*
 * Remove name under parent and, if it is a directory, all it holds; in
 * the top directory (depth 0) DIR_MARK goes last, when all the rest has
 * gone, so that a directory left half removed can still be swept.  What
 * could not be removed is said once, not again at every directory above
 * it ("Directory not empty").  A directory on another file system than
 * the top's is a mount point a workload left: not entered, as rm
 * --one-file-system does (a bind mount's source would have been emptied
 * through it), and the tree is left for a sweep once it is unmounted.
 */
static int
remove_at(int parent, const char *name, int depth, struct remove *rm)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*d;
	size_t		 k;
	int		 fd, rc = 0, pass, left;
	char		 deep[sizeof(DEEP_PREFIX) + 24];

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT)
			return 0;
		log_warn("stat %s", name);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(parent, name, 0) == -1 && errno != ENOENT) {
			log_warn("unlink %s", name);
			return -1;
		}
		return 0;
	}
	if (depth == 0)
		rm->dev = st.st_dev;
	else if (st.st_dev != rm->dev) {
		log_warnx("remove %s: a file system is mounted there; left "
		    "as it is", name);
		return -1;
	}
	/*
	 * A workload may leave a directory without search permission (or,
	 * for a move up, without write permission, which the move of its
	 * ".." needs).  Not through a link: another user who owns a
	 * directory within may put one in its place after the look above,
	 * and root's chmod then set a file outside the tree to 0700 (a
	 * security review's race).
	 */
	if ((st.st_mode & S_IRWXU) != S_IRWXU &&
	    fchmodat(parent, name, S_IRWXU, AT_SYMLINK_NOFOLLOW) == -1)
		log_warn("chmod %s", name);
	if (depth > REMOVE_DEPTH_MAX)
		return remove_move_up(parent, name, rm);
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1) {
		log_warn("open %s", name);
		return -1;
	}
	if ((d = fdopendir(fd)) == NULL) {
		log_warn("fdopendir %s", name);
		close(fd);
		return -1;
	}
	if (depth == 0)
		rm->top = fd;
	/* Entries removed while reading may hide others: read again. */
	for (pass = 0; pass < 3; pass++) {
		left = 0;
		rewinddir(d);
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    (depth == 0 && strcmp(de->d_name, DIR_MARK) == 0))
				continue;
			left = 1;
			if (remove_at(fd, de->d_name, depth + 1, rm) == -1)
				rc = -1;
		}
		if (!left || rc == -1)
			break;
	}
	if (depth == 0) {
		/* What was moved up, and what that moved up in turn. */
		for (k = 0; rc == 0 && k < rm->moved; k++) {
			snprintf(deep, sizeof(deep), DEEP_PREFIX "%zu", k);
			rc = remove_at(fd, deep, 1, rm);
		}
		/* A file, or whatever the workload made of it. */
		if (rc == 0)
			rc = remove_at(fd, DIR_MARK, 1, rm);
	}
	closedir(d);
	if (rc == 0 && unlinkat(parent, name, AT_REMOVEDIR) == -1 &&
	    errno != ENOENT) {
		log_warn("rmdir %s", name);
		rc = -1;
	}
	return rc;
}

/* Remove name under parent as remove_at() does, from its top. */
static int
remove_tree_at(int parent, const char *name)
{
	struct remove	rm;

	memset(&rm, 0, sizeof(rm));
	rm.top = -1;
	return remove_at(parent, name, 0, &rm);
}

/* Remove a file or a directory tree, like rm -rf; 0 or -1 (logged). */
int
wl_remove_tree(const char *path)
{
	return remove_tree_at(AT_FDCWD, path);
}

/*
 * Open dir and take its flock without waiting: the descriptor, or -1
 * with errno when another process holds it (EWOULDBLOCK), dir is gone
 * (ENOENT: a sweep removed it) or cannot be opened.
 */
static int
lock_dir(int parent, const char *dir)
{
	struct stat	st;
	int		fd, saved;

	fd = openat(parent, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == -1 || fstat(fd, &st) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	if (st.st_nlink == 0) {
		close(fd);
		errno = ENOENT;
		return -1;
	}
	return fd;
}

/*
 * Create the iteration's directory, locked (*lock is the descriptor that
 * holds the flock); its absolute path or NULL.
 */
static char *
make_iteration_dir(const struct wl_workload *wl, const struct wl_params *p,
    int *lock, char **cause)
{
	const char	*work_dir;
	char		*tmpl, *name, *s, *path;
	int		 try, fd, saved;

	work_dir = p->work_dir != NULL ? p->work_dir : DEFAULT_WORK_DIR;
	if (mkdir(work_dir, 0755) == -1 && errno != EEXIST) {
		xasprintf(cause, "work directory %s: %s", work_dir,
		    strerror(errno));
		return NULL;
	}
	name = xstrdup(wl_params_name(p, wl));
	for (s = name; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' &&
		    *s != '-')
			*s = '_';
	}
	xasprintf(&tmpl, "%s/" DIR_PREFIX "%s.XXXXXX", work_dir, name);
	free(name);
	/*
	 * Another run's sweep may hold a new directory's lock for a moment:
	 * make another.  One that cannot be locked has no mark yet, so no
	 * sweep will ever remove it: it is removed here.
	 */
	for (try = 0, *lock = -1; try < DIR_TRIES && *lock == -1; try++) {
		memcpy(tmpl + strlen(tmpl) - 6, "XXXXXX", 6);
		if (mkdtemp(tmpl) == NULL) {
			xasprintf(cause, "work directory %s: %s", work_dir,
			    strerror(errno));
			free(tmpl);
			return NULL;
		}
		if ((*lock = lock_dir(AT_FDCWD, tmpl)) == -1) {
			saved = errno;
			(void)rmdir(tmpl);
			errno = saved;
		}
	}
	if (*lock == -1) {
		xasprintf(cause, "%s: cannot lock it: %s", tmpl,
		    strerror(errno));
		free(tmpl);
		return NULL;
	}
	if ((fd = openat(*lock, DIR_MARK, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0644)) == -1 ||
	    (path = realpath(tmpl, NULL)) == NULL) {
		xasprintf(cause, "%s: %s", tmpl, strerror(errno));
		if (fd != -1)
			close(fd);
		(void)unlinkat(*lock, DIR_MARK, 0);
		(void)rmdir(tmpl);
		close(*lock);
		*lock = -1;
		free(tmpl);
		return NULL;
	}
	close(fd);
	free(tmpl);
	return path;
}

/* Is name one of the runner's iteration directories? */
static int
iteration_dir_name(const char *name)
{
	size_t	len = strlen(name), i;

	if (strncmp(name, DIR_PREFIX, strlen(DIR_PREFIX)) != 0 ||
	    len < strlen(DIR_PREFIX) + 1 + DIR_SUFFIX_LEN ||
	    name[len - DIR_SUFFIX_LEN] != '.')
		return 0;
	for (i = len - DIR_SUFFIX_LEN + 1; i < len; i++) {
		if (!isalnum((unsigned char)name[i]))
			return 0;
	}
	return 1;
}

/*
 * Remove the iteration directories that a killed runner left in
 * work_dir: directories named perfwatch-NAME.XXXXXX, owned by this user,
 * holding the runner's mark, that no runner holds locked.  Returns how
 * many were removed (-1 if work_dir cannot be read; a missing one has
 * none).
 */
int
wl_sweep_work_dir(const char *work_dir)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	int		 n = 0, fd;

	if ((d = opendir(work_dir)) == NULL) {
		if (errno == ENOENT)
			return 0;
		log_warn("%s", work_dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!iteration_dir_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		if ((fd = lock_dir(dirfd(d), de->d_name)) == -1)
			continue;	/* a live runner's */
		if (fstatat(fd, DIR_MARK, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
			close(fd);	/* not the runner's */
			continue;
		}
		if (remove_tree_at(dirfd(d), de->d_name) == 0)
			n++;
		close(fd);
	}
	closedir(d);
	return n;
}

/* Write a message to the child's stderr and leave. */
static void __attribute__((noreturn))
child_fail(const char *what, const char *arg)
{
	dprintf(STDERR_FILENO, "%s %s: %s\n", what, arg, strerror(errno));
	_exit(1);
}

/*
 * The guard: lead the workload's process group and, when the runner dies
 * (end of file on fd), kill that group.  Only SIGKILL ends it otherwise.
 * Never returns.
 */
static void __attribute__((noreturn))
guard_main(int fd)
{
	sigset_t	set;
	char		c;
	int		sig, null;

	(void)setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		(void)signal(sig, SIG_DFL);
	/* The runner's SIGTERM to the group is for the workload. */
	(void)signal(SIGTERM, SIG_IGN);
	(void)signal(SIGINT, SIG_IGN);
	(void)signal(SIGHUP, SIG_IGN);
	(void)signal(SIGQUIT, SIG_IGN);
	/* Hold nothing of the runner's, above all its pipes' write ends. */
	if (dup2(fd, STDIN_FILENO) == -1 ||
	    (null = open("/dev/null", O_WRONLY)) == -1 ||
	    dup2(null, STDOUT_FILENO) == -1 || dup2(null, STDERR_FILENO) == -1)
		_exit(1);
	perfwatch_closefrom(STDERR_FILENO + 1);
	sigemptyset(&set);
	(void)sigprocmask(SIG_SETMASK, &set, NULL);
	while (read(STDIN_FILENO, &c, 1) == -1 && errno == EINTR)
		;
	(void)kill(0, SIGKILL);
	_exit(0);
}

/* Have the kernel SIGKILL this process when its parent dies. */
static int
die_with_parent(pid_t parent)
{
#if defined(__linux__)
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return -1;
#elif defined(__FreeBSD__)
	int	sig = SIGKILL;

	if (procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig) == -1)
		return -1;
#endif
	/* The parent may have died before the call. */
	return getppid() == parent ? 0 : -1;
}

/*
 * The child: join the guard's group, make the clean room described at
 * the top, then run the workload.  Never returns.
 */
static void __attribute__((noreturn))
child_main(const struct wl_workload *wl, const struct wl_params *p,
    const char *dir, pid_t pgid, pid_t parent, int outw, int errw,
    volatile double *mark)
{
	struct rlimit	 rl;
	sigset_t	 set;
	char		*cause = NULL;
	int		 null, sig, native, rc;

	/* Outside the group, the runner's signals would miss it. */
	if (setpgid(0, pgid) == -1 || die_with_parent(parent) == -1)
		_exit(1);
	native = !(wl->flags & WL_F_COMMAND);

	/* Move the pipe ends clear of 0-3 before dup2() onto them. */
	if ((outw = fcntl(outw, F_DUPFD, 10)) == -1 ||
	    (errw = fcntl(errw, F_DUPFD, 10)) == -1)
		_exit(1);
	if ((null = open("/dev/null", O_RDWR)) == -1)
		_exit(1);
	if (dup2(null, STDIN_FILENO) == -1 ||
	    dup2(!native && p->measure == WL_MEASURE_OUTPUT ? outw : null,
	    STDOUT_FILENO) == -1 ||
	    dup2(errw, STDERR_FILENO) == -1 ||
	    (native && dup2(outw, 3) == -1))
		_exit(1);
	perfwatch_closefrom(native ? 4 : 3);

	for (sig = 1; sig < NSIG; sig++)
		(void)signal(sig, SIG_DFL);
	sigemptyset(&set);
	(void)sigprocmask(SIG_SETMASK, &set, NULL);

	if (clearenv() != 0 ||
	    setenv("PATH", WL_PATH, 1) == -1 ||
	    setenv("LC_ALL", "C", 1) == -1 ||
	    setenv("HOME", dir, 1) == -1 ||
	    setenv("PWD", dir, 1) == -1 ||
	    setenv("TMPDIR", dir, 1) == -1)
		child_fail("setenv", "");
	umask(022);
	if (chdir(dir) == -1)
		child_fail("chdir", dir);
	if (p->file_limit > 0) {
		/* Past the limit, write() fails with EFBIG: a clear error. */
		(void)signal(SIGXFSZ, SIG_IGN);
		rl.rlim_cur = rl.rlim_max = p->file_limit;
		if (setrlimit(RLIMIT_FSIZE, &rl) == -1)
			child_fail("setrlimit", "RLIMIT_FSIZE");
	}

	if (mark != NULL)
		*mark = wl_now();
	rc = wl->run(p, native ? 3 : STDOUT_FILENO, &cause);
	if (rc == -1) {
		dprintf(STDERR_FILENO, "%s\n",
		    cause != NULL ? cause : "failed");
	}
	_exit(rc == 0 ? 0 : 1);
}

/* Words that mark a line of stderr as saying what went wrong. */
static const char *const err_words[] = {
	"error", "fatal", "failed", "cannot", "can't", "unable", "denied",
	"no such", "no space", "not found", "not permitted", "too large",
	"too many", NULL
};

/* Does a line look like it says what went wrong?  Case is ignored. */
static int
err_is_cause(const char *line)
{
	char	low[ERR_LINE_MAX];
	size_t	i;

	for (i = 0; line[i] != '\0' && i < sizeof(low) - 1; i++)
		low[i] = tolower((unsigned char)line[i]);
	low[i] = '\0';
	for (i = 0; err_words[i] != NULL; i++) {
		if (strstr(low, err_words[i]) != NULL)
			return 1;
	}
	return 0;
}

/* End the line being read and keep it where it belongs, if not blank. */
static void
errlines_end(struct errlines *e)
{
	const char	*s = e->cur;
	char		*keep;
	size_t		 len = e->curlen;
	int		 cut = e->curcut;

	e->curlen = 0;
	e->curcut = 0;
	e->cr = 0;
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return;
	e->nlines++;
	keep = e->last[(e->nlines - 1) % TAIL_LINES];
	if (cut || len > ERR_LINE_MAX - 1)
		snprintf(keep, ERR_LINE_MAX, "%.*s...", ERR_LINE_MAX - 4, s);
	else
		snprintf(keep, ERR_LINE_MAX, "%.*s", (int)len, s);
	/*
	 * A first line that looks like a cause is quoted as the first, and
	 * a later cause still looked for: "fatal error in setup" did not
	 * say it all, and hid the "Permission denied" that did.
	 */
	if (e->nlines == 1)
		memcpy(e->first, keep, ERR_LINE_MAX);
	else if (e->causeno == 0 && err_is_cause(keep)) {
		memcpy(e->cause, keep, ERR_LINE_MAX);
		e->causeno = e->nlines;
	}
}

/* Read n more bytes of stderr into e. */
static void
errlines_feed(struct errlines *e, const char *buf, size_t n)
{
	size_t	i;
	char	c;

	for (i = 0; i < n; i++) {
		c = buf[i];
		if (e->cr) {
			/* "\r\n" ends a line; a lone '\r' starts it again. */
			e->cr = 0;
			if (c != '\n') {
				e->curlen = 0;
				e->curcut = 0;
			}
		}
		if (c == '\n') {
			errlines_end(e);
			continue;
		}
		if (c == '\r') {
			e->cr = 1;
			continue;
		}
		if (e->curlen < sizeof(e->cur))
			e->cur[e->curlen++] = c == '\0' ? ' ' : c;
		else
			e->curcut = 1;
	}
}

/*
 * Read what a pipe has now, at most DRAIN_READS reads so that a child
 * that writes without end cannot keep the watcher from its clock; close
 * the pipe at end of file or on error.
 */
static void
drain(struct watch *w, int *fdp)
{
	char	buf[65536];
	ssize_t	n;
	size_t	room;
	int	reads;

	for (reads = 0; *fdp != -1 && reads < DRAIN_READS; reads++) {
		n = read(*fdp, buf, sizeof(buf));
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			log_warn("read from workload");
		}
		if (n <= 0) {
			close(*fdp);
			*fdp = -1;
			return;
		}
		if (fdp == &w->fd_err) {
			errlines_feed(&w->err, buf, n);
			continue;
		}
		room = WL_OUTPUT_MAX - w->outlen;
		if ((size_t)n > room) {
			w->out_over = 1;
			n = room;
		}
		if (n > 0) {
			memcpy(w->out + w->outlen, buf, n);
			w->outlen += n;
		}
	}
}

/*
 * What the error quotes of the child's stderr, on one line (see struct
 * errlines), "..." where lines were left out; NULL if it wrote nothing.
 */
static char *
errlines_text(struct errlines *e)
{
	const char	*text[2 + TAIL_LINES];
	size_t		 no[2 + TAIL_LINES], n = 0, i, k, len, at;
	char		*out;

	if (e->curlen > 0)
		errlines_end(e);	/* no newline at the end */
	if (e->nlines == 0)
		return NULL;
	no[n] = 1;
	text[n++] = e->first;
	if (e->causeno > 1 && e->causeno + TAIL_LINES <= e->nlines) {
		no[n] = e->causeno;
		text[n++] = e->cause;
	}
	k = e->nlines > TAIL_LINES ? e->nlines - TAIL_LINES + 1 : 2;
	for (; k <= e->nlines; k++) {
		no[n] = k;
		text[n++] = e->last[(k - 1) % TAIL_LINES];
	}
	len = 1;
	for (i = 0; i < n; i++)
		len += strlen(text[i]) + sizeof("; ...; ");
	out = xmalloc(len);
	for (i = 0, at = 0; i < n; i++) {
		at += snprintf(out + at, len - at, "%s%s",
		    i == 0 ? "" : no[i] > no[i - 1] + 1 ? "; ...; " : "; ",
		    text[i]);
	}
	for (i = 0; i < at; i++) {
		if (!isprint((unsigned char)out[i]))
			out[i] = '?';
	}
	return out;
}

/* Open a descriptor that polls readable when pid exits; -1 if none. */
static int
exit_fd(pid_t pid)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
	int	fd;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd != -1)
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

/* Milliseconds until t (from now), clamped to [0, cap]. */
static int
ms_until(double t, double now, int cap)
{
	double	ms;

	ms = ceil((t - now) * 1000.0);
	if (ms < 0)
		return 0;
	return ms > cap ? cap : (int)ms;
}

/*
 * Kill what is left of a group, its guard included, reap the guard and
 * the group's orphans (a zombie still counts as a member, and as the
 * subreaper this process is the parent of every orphan of the group) and
 * wait, bounded, until the group is gone.
 */
static void
group_reap(pid_t pgid, pid_t guard)
{
	struct timespec	ts = { 0, 2 * 1000 * 1000 };
	double		until;

	(void)killpg(pgid, SIGKILL);
	until = wl_now() + GROUP_WAIT_SECONDS;
	while (wl_now() < until) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;
		if (guard != -1 && waitpid(guard, NULL, WNOHANG) != 0)
			guard = -1;
		if (guard == -1 && kill(-pgid, 0) == -1 && errno == ESRCH)
			return;
		nanosleep(&ts, NULL);
	}
	log_warnx("process group %ld still has members after SIGKILL",
	    (long)pgid);
	if (guard != -1)
		(void)waitpid(guard, NULL, 0);	/* SIGKILLed: it ends */
}

/*
 * Make this process the reaper of its orphaned descendants (see the
 * notes at the top), once.  Without it an escapee is init's.
 */
static void
reaper_acquire(void)
{
	static int	done;

	if (done)
		return;
	done = 1;
#if defined(__linux__)
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1)
		log_warn("prctl PR_SET_CHILD_SUBREAPER");
#elif defined(__FreeBSD__)
	if (procctl(P_PID, getpid(), PROC_REAP_ACQUIRE, NULL) == -1 &&
	    errno != EBUSY)
		log_warn("procctl PROC_REAP_ACQUIRE");
#endif
}

/* Add pid to the list *v of *n. */
static void
pid_push(pid_t **v, size_t *n, pid_t pid)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = pid;
}

#if defined(__linux__)
/*
 * The children of this process, from the parent each /proc/PID/stat
 * names (/proc/PID/task/TID/children needs CONFIG_PROC_CHILDREN).
 */
static size_t
children_list(pid_t **out)
{
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		 path[64], buf[1024], *paren, *end;
	pid_t		 self = getpid();
	long		 pid, ppid;
	size_t		 n = 0, len;

	*out = NULL;
	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		pid = strtol(de->d_name, &end, 10);
		if (*end != '\0' || pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		/* "pid (comm) state ppid ...", comm may hold ')'. */
		if ((paren = strrchr(buf, ')')) == NULL ||
		    sscanf(paren + 1, " %*c %ld", &ppid) != 1)
			continue;
		if (ppid == self)
			pid_push(out, &n, (pid_t)pid);
	}
	closedir(d);
	return n;
}
#elif defined(__FreeBSD__)
/* The children of this process, the reaper, from its list. */
static size_t
children_list(pid_t **out)
{
	struct procctl_reaper_status	 rs;
	struct procctl_reaper_pids	 rp;
	struct procctl_reaper_pidinfo	*pi;
	size_t				 i, n = 0;

	*out = NULL;
	memset(&rs, 0, sizeof(rs));
	if (procctl(P_PID, getpid(), PROC_REAP_STATUS, &rs) == -1 ||
	    rs.rs_descendants == 0)
		return 0;
	pi = xcalloc(rs.rs_descendants, sizeof(*pi));
	memset(&rp, 0, sizeof(rp));
	rp.rp_count = rs.rs_descendants;
	rp.rp_pids = pi;
	if (procctl(P_PID, getpid(), PROC_REAP_GETPIDS, &rp) == 0) {
		for (i = 0; i < rs.rs_descendants; i++)
			if ((pi[i].pi_flags & REAPER_PIDINFO_VALID) &&
			    (pi[i].pi_flags & REAPER_PIDINFO_CHILD))
				pid_push(out, &n, pi[i].pi_pid);
	}
	free(pi);
	return n;
}
#else
static size_t
children_list(pid_t **out)
{
	*out = NULL;
	return 0;
}
#endif

/* Whether pid is one of v[0..n). */
static int
pid_in(const pid_t *v, size_t n, pid_t pid)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i] == pid)
			return 1;
	}
	return 0;
}

/*
 * Kill and reap every child of this process not in before[0..nbefore),
 * each with the group it leads, round after round while their orphans
 * come back to it.  Each round waits at most ESCAPE_WAIT_SECONDS for
 * those it killed: one that SIGKILL does not end (stuck in the kernel,
 * or held by a tracer) is named in the log and left behind, not waited
 * for, nor killed again.  Returns how many there were.
 */
static size_t
escapees_reap(const char *name, const pid_t *before, size_t nbefore)
{
	pid_t	*now, *kill_list = NULL, *left = NULL;
	size_t	 n, i, nkill, nleft = 0, total = 0, round;
	double	 until;

	for (round = 0; round < ESCAPE_ROUNDS; round++) {
		n = children_list(&now);
		nkill = 0;
		for (i = 0; i < n; i++) {
			if (!pid_in(before, nbefore, now[i]) &&
			    !pid_in(left, nleft, now[i]))
				pid_push(&kill_list, &nkill, now[i]);
		}
		free(now);
		for (i = 0; i < nkill; i++) {
			(void)kill(-kill_list[i], SIGKILL);
			(void)kill(kill_list[i], SIGKILL);
		}
		/* Once reaped, each one's orphans are ours. */
		until = wl_now() + ESCAPE_WAIT_SECONDS;
		for (i = 0; i < nkill; i++) {
			if (perfwatch_reap_until(kill_list[i], NULL,
			    until) != 0)
				continue;
			log_warnx("%s: process %ld that left the workload's "
			    "process group did not end %.1f s after SIGKILL; "
			    "not waiting for it", name, (long)kill_list[i],
			    ESCAPE_WAIT_SECONDS);
			pid_push(&left, &nleft, kill_list[i]);
		}
		free(kill_list);
		kill_list = NULL;
		total += nkill;
		if (nkill == 0)
			break;
	}
	free(left);
	return total;
}

/*
 * Signal the iteration: its group, and the workload process itself,
 * which is a member of the guard's group and not its leader, so that it
 * can leave with setsid(2) (`setsid prog` does, without a fork) and the
 * group's signal would miss it.  It is the caller's child and not yet
 * reaped, so its pid cannot name another process (a zombie's getpgid
 * still answers).
 */
static void
watch_signal(const struct watch *w, int sig)
{
	(void)killpg(w->pgid, sig);
	/* Not twice to one still in the group: its handler would see both. */
	if (getpgid(w->pid) != w->pgid)
		(void)kill(w->pid, sig);
}

/*
 * Watch the child until it is reaped, enforcing the time limit and the
 * abort flag.  Returns the status it had to impose (WL_OK if none); the
 * wait status, rusage and end time come back through the pointers.  A
 * child still there CHILD_WAIT_SECONDS after SIGKILL (stuck in the
 * kernel, or held by a tracer) is named in the log and left behind, with
 * w->unreaped set, as if SIGKILL had ended it, and no CPU time.
 */
static enum wl_status
watch_child(struct watch *w, const struct wl_params *p, double start,
    const volatile double *mark, int *wstatus, struct rusage *ru,
    double *end)
{
	struct pollfd	 pfd[4];
	enum wl_status	 imposed = WL_OK;
	double		 now, deadline, kill_at = 0, next;
	int		 signalled = 0, n, cap, i, timeout;
	pid_t		 r;
	char		 buf[64];

	deadline = p->timeout > 0 ? start + p->timeout : 0;
	for (;;) {
		r = wait4(w->pid, wstatus, WNOHANG, ru);
		now = wl_now();
		/* The limit is the workload's own time, as the wall is. */
		if (deadline > 0 && mark != NULL && *mark > start)
			deadline = *mark + p->timeout;
		if (r == w->pid)
			break;
		if (r == -1 && errno != EINTR) {
			/* Someone else reaped it: nothing more to learn. */
			log_warn("wait4 %ld", (long)w->pid);
			*wstatus = W_EXITCODE(0, SIGKILL);
			memset(ru, 0, sizeof(*ru));
			break;
		}

		if (signalled == 0) {
			if (wl_abort_flag)
				imposed = WL_ABORTED;
			else if (deadline > 0 && now >= deadline)
				imposed = WL_TIMEOUT;
			else if (w->out_over)
				imposed = WL_FAILED;
			if (imposed != WL_OK) {
				watch_signal(w, SIGTERM);
				signalled = 1;
				kill_at = now + (p->grace > 0 ? p->grace : 0);
			}
		}
		if (signalled == 1 && now >= kill_at) {
			watch_signal(w, SIGKILL);
			signalled = 2;
		}
		if (signalled == 2 && now >= kill_at + CHILD_WAIT_SECONDS) {
			log_warnx("%s: workload process %ld did not end %.1f s "
			    "after SIGKILL; not waiting for it", w->name,
			    (long)w->pid, CHILD_WAIT_SECONDS);
			w->unreaped = 1;
			*wstatus = W_EXITCODE(0, SIGKILL);
			memset(ru, 0, sizeof(*ru));
			break;
		}

		n = 0;
		if (w->fd_out != -1) {
			pfd[n].fd = w->fd_out;
			pfd[n++].events = POLLIN;
		}
		if (w->fd_err != -1) {
			pfd[n].fd = w->fd_err;
			pfd[n++].events = POLLIN;
		}
		if (w->fd_pid != -1) {
			pfd[n].fd = w->fd_pid;
			pfd[n++].events = POLLIN;
		}
		pfd[n].fd = wl_abort_pipe[0];
		pfd[n++].events = POLLIN;

		if (w->fd_pid != -1)
			cap = 1000;
		else if (w->fd_out == -1 && w->fd_err == -1)
			cap = 2;
		else
			cap = 20;
		next = 0;
		if (signalled == 0 && deadline > 0)
			next = deadline;
		else if (signalled == 1)
			next = kill_at;
		else if (signalled == 2)
			next = kill_at + CHILD_WAIT_SECONDS;
		timeout = next > 0 ? ms_until(next, now, cap) : cap;

		if (poll(pfd, n, timeout) == -1) {
			if (errno != EINTR)
				log_warn("poll");
			continue;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0)
				continue;
			if (pfd[i].fd == w->fd_out)
				drain(w, &w->fd_out);
			else if (pfd[i].fd == w->fd_err)
				drain(w, &w->fd_err);
			else if (pfd[i].fd == wl_abort_pipe[0]) {
				while (read(wl_abort_pipe[0], buf,
				    sizeof(buf)) > 0)
					;
			} else if (pfd[i].fd == w->fd_pid) {
				/*
				 * It has exited: wait4() above reaps it, or,
				 * if a tracer holds it, the readable pidfd
				 * would spin this loop until it lets go.
				 */
				close(w->fd_pid);
				w->fd_pid = -1;
			}
		}
	}
	*end = now;
	/* What the child wrote before it exited is still in the pipes. */
	drain(w, &w->fd_out);
	drain(w, &w->fd_err);
	return imposed;
}

/* Set the final status and error; returns 0 for WL_OK, else -1. */
static int
finish(struct wl_result *res, enum wl_status status, char *error,
    char **cause)
{
	res->status = status;
	res->error = error;
	if (status == WL_OK)
		return 0;
	if (cause != NULL)
		*cause = xstrdup(error != NULL ? error : "failed");
	return -1;
}

/* Judge a reaped child: exit status, then its output. */
static int
judge(const struct wl_workload *wl, const struct wl_params *p,
    struct watch *w, enum wl_status imposed, struct wl_result *res,
    char **cause)
{
	char	*tail, *error = NULL;
	int	 ws = res->wait_status, sig;

	switch (imposed) {
	case WL_TIMEOUT:
		/* What it said before it hung may say what it waited for. */
		tail = errlines_text(&w->err);
		xasprintf(&error, "timed out after %g s%s%s", p->timeout,
		    tail != NULL ? "; on standard error: " : "",
		    tail != NULL ? tail : "");
		free(tail);
		return finish(res, WL_TIMEOUT, error, cause);
	case WL_ABORTED:
		return finish(res, WL_ABORTED, xstrdup("aborted"), cause);
	case WL_FAILED:
	case WL_OK:
		break;
	}
	/*
	 * Too much output fails the iteration whether or not the watcher saw
	 * it in time to stop the child: the child may have exited first, or
	 * the last drain found it.  What was cut off must not be parsed.
	 */
	tail = errlines_text(&w->err);
	if (w->out_over) {
		/*
		 * How it ended comes first, with what it wrote on stderr:
		 * a command that failed and then poured out a dump said
		 * only how much it printed.  A signal is its own only when
		 * the runner had sent none (imposed is still WL_OK).
		 */
		if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0)
			xasprintf(&error, "exited with status %d and printed "
			    "more than %d bytes of results%s%s",
			    WEXITSTATUS(ws), WL_OUTPUT_MAX, tail != NULL ?
			    "; on standard error: " : "", tail != NULL ?
			    tail : "");
		else if (WIFSIGNALED(ws) && imposed == WL_OK)
			xasprintf(&error, "killed by signal %d (%s) and "
			    "printed more than %d bytes of results%s%s",
			    WTERMSIG(ws), strsignal(WTERMSIG(ws)),
			    WL_OUTPUT_MAX, tail != NULL ? "; on standard "
			    "error: " : "", tail != NULL ? tail : "");
		else
			xasprintf(&error, "printed more than %d bytes of "
			    "results", WL_OUTPUT_MAX);
		free(tail);
		return finish(res, WL_FAILED, error, cause);
	}
	if (WIFSIGNALED(ws)) {
		sig = WTERMSIG(ws);
		xasprintf(&error, "killed by signal %d (%s)%s%s", sig,
		    strsignal(sig), tail != NULL ? ": " : "",
		    tail != NULL ? tail : "");
	} else if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0) {
		xasprintf(&error, "exited with status %d%s%s",
		    WEXITSTATUS(ws), tail != NULL ? ": " : "",
		    tail != NULL ? tail : "");
	}
	if (error != NULL) {
		free(tail);
		return finish(res, WL_FAILED, error, cause);
	}

	if ((wl->flags & WL_F_COMMAND) && p->measure == WL_MEASURE_TIME) {
		res->metrics = xcalloc(3, sizeof(*res->metrics));
		res->nmetrics = 3;
		snprintf(res->metrics[0].name, WL_NAME_MAX, "wall");
		res->metrics[0].value = res->wall;
		snprintf(res->metrics[1].name, WL_NAME_MAX, "user");
		res->metrics[1].value = res->user;
		snprintf(res->metrics[2].name, WL_NAME_MAX, "sys");
		res->metrics[2].value = res->sys;
		for (sig = 0; sig < 3; sig++) {
			snprintf(res->metrics[sig].unit, WL_UNIT_MAX, "s");
			res->metrics[sig].better = BETTER_LOWER;
		}
		free(tail);
		return finish(res, WL_OK, NULL, cause);
	}
	if (wl_parse_output(w->out, w->outlen, res, &error) == -1) {
		free(tail);
		return finish(res, WL_FAILED, error, cause);
	}
	if (res->nmetrics == 0) {
		/*
		 * What it wrote on stderr may be the results, sent there by
		 * mistake (time(1) writes there), or say why there are none.
		 */
		xasprintf(&error, "printed no metrics%s%s", tail != NULL ?
		    "; on standard error: " : "", tail != NULL ? tail : "");
		free(tail);
		return finish(res, WL_FAILED, error, cause);
	}
	free(tail);
	return finish(res, WL_OK, NULL, cause);
}

/*
 * Run one iteration of a workload in a child (see the notes at the top).
 * res is filled in every case; returns 0 when res->status is WL_OK, else
 * -1 with *cause (if cause is not NULL) a copy of res->error.
 */
int
wl_run_iteration(const struct wl_workload *wl, const struct wl_params *p,
    struct wl_result *res, char **cause)
{
	struct watch	 w;
	struct rusage	 ru;
	sigset_t	 all, old;
	enum wl_status	 imposed;
	volatile double	*mark;
	double		 start, end;
	char		*dir, *error = NULL;
	int		 outp[2], errp[2], guardp[2], wstatus = 0, lock;
	pid_t		 guard, self = getpid(), *before;
	size_t		 nbefore, escaped;

	memset(res, 0, sizeof(*res));
	res->pgid = -1;
	if (wl_abort_flag)
		return finish(res, WL_ABORTED, xstrdup("aborted"), cause);
	if (wl_params_check(p, wl, &error) == -1)
		return finish(res, WL_FAILED, error, cause);
	if (abort_pipe_init() == -1) {
		xasprintf(&error, "pipe: %s", strerror(errno));
		return finish(res, WL_FAILED, error, cause);
	}
	if (p->settle > 0 && settle(wl, p) == -1)
		return finish(res, WL_ABORTED, xstrdup("aborted"), cause);
	if ((dir = make_iteration_dir(wl, p, &lock, &error)) == NULL)
		return finish(res, WL_FAILED, error, cause);
	if (pipe2(outp, O_CLOEXEC) == -1) {
		xasprintf(&error, "pipe: %s", strerror(errno));
		goto fail;
	}
	if (pipe2(errp, O_CLOEXEC) == -1) {
		xasprintf(&error, "pipe: %s", strerror(errno));
		close(outp[0]);
		close(outp[1]);
		goto fail;
	}
	if (pipe2(guardp, O_CLOEXEC) == -1) {
		xasprintf(&error, "pipe: %s", strerror(errno));
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		goto fail;
	}

	memset(&w, 0, sizeof(w));
	w.out = xmalloc(WL_OUTPUT_MAX);
	reaper_acquire();
	nbefore = children_list(&before);
	/* No handler of the caller's may run in a child (see the top). */
	sigfillset(&all);
	(void)sigprocmask(SIG_BLOCK, &all, &old);
	if ((guard = fork()) == 0)
		guard_main(guardp[0]);
	close(guardp[0]);
	if (guard == -1) {
		xasprintf(&error, "fork: %s", strerror(errno));
		(void)sigprocmask(SIG_SETMASK, &old, NULL);
		close(guardp[1]);
		goto fail_pipes;
	}
	/* Both sides set the group, so neither can signal it too early. */
	(void)setpgid(guard, guard);
	/* Without the shared page, wall and limit count from the fork. */
	mark = mmap(NULL, sizeof(*mark), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mark == MAP_FAILED)
		mark = NULL;
	start = wl_now();
	if ((w.pid = fork()) == 0) {
		close(outp[0]);
		close(errp[0]);
		child_main(wl, p, dir, guard, self, outp[1], errp[1], mark);
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (w.pid == -1) {
		xasprintf(&error, "fork: %s", strerror(errno));
		close(guardp[1]);
		group_reap(guard, guard);
		if (mark != NULL)
			(void)munmap((void *)mark, sizeof(*mark));
		goto fail_pipes;
	}
	(void)setpgid(w.pid, guard);
	w.pgid = guard;
	res->pgid = guard;
	close(outp[1]);
	close(errp[1]);
	w.fd_out = outp[0];
	w.fd_err = errp[0];
	(void)fcntl(w.fd_out, F_SETFL, O_NONBLOCK);
	(void)fcntl(w.fd_err, F_SETFL, O_NONBLOCK);
	w.fd_pid = exit_fd(w.pid);

	w.name = wl_params_name(p, wl);
	imposed = watch_child(&w, p, start, mark, &wstatus, &ru, &end);
	group_reap(w.pgid, guard);
	/* Left behind, it is not an escapee to kill and wait for again. */
	if (w.unreaped)
		pid_push(&before, &nbefore, w.pid);
	if ((escaped = escapees_reap(w.name, before, nbefore)) > 0)
		log_warnx("%s: killed %zu process%s that left the workload's "
		    "process group (setsid) and outlived it", w.name,
		    escaped, escaped == 1 ? "" : "es");
	free(before);
	close(guardp[1]);
	if (w.fd_out != -1)
		close(w.fd_out);
	if (w.fd_err != -1)
		close(w.fd_err);
	if (w.fd_pid != -1)
		close(w.fd_pid);

	res->wait_status = wstatus;
	/* The child's mark, if it got that far (see the top). */
	if (mark != NULL && *mark >= start && *mark <= end)
		start = *mark;
	if (mark != NULL)
		(void)munmap((void *)mark, sizeof(*mark));
	res->wall = end - start;
	res->user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	res->sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	res->cpu_pct = res->wall > 0 ?
	    (res->user + res->sys) / res->wall * 100.0 : 0;
	(void)judge(wl, p, &w, imposed, res, NULL);
	free(w.out);
	if (wl_remove_tree(dir) == -1)
		log_warnx("%s: could not remove all of it", dir);
	close(lock);
	free(dir);
	if (res->status == WL_OK)
		return 0;
	if (cause != NULL)
		*cause = xstrdup(res->error);
	return -1;

fail_pipes:
	close(outp[0]);
	close(outp[1]);
	close(errp[0]);
	close(errp[1]);
	free(w.out);
	free(before);
fail:
	if (wl_remove_tree(dir) == -1)
		log_warnx("%s: could not remove all of it", dir);
	close(lock);
	free(dir);
	return finish(res, WL_FAILED, error, cause);
}
