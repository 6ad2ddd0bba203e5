/*
 * perfwatchd: start-up, privileges, signals, reload and shutdown.
 *
 *   perfwatchd [-dnvV] [-f file]
 *
 * Start-up, in this order: load the configuration and check its profile
 * as -n does (errors as file:line, exit 78); if root, resolve [perfwatch] user and group and create the
 * state, work and socket directories for them; take the lock
 * state_dir/perfwatchd.lock (one daemon per state directory; it holds the
 * pid, so that rc.d can use it as the pidfile); bind the dashboard's
 * address ([perfwatch] http, if any) and the control socket;
 * detach unless -d or started by systemd (NOTIFY_SOCKET); drop to the
 * user; open the store and mark this host's runs left "running" as
 * aborted; then arm the schedule and the triggers and tell systemd
 * READY=1.
 *
 * Root.  Workloads never run as root: started as root, the daemon becomes
 * [perfwatch] user before it opens the store or starts anything, and it
 * refuses a user with uid 0 unless [perfwatch] allow_root says yes (for a
 * throwaway CI machine; the packaged service runs as its own user through
 * systemd's User= and never starts as root).  Started as another user it
 * stays that user and [perfwatch] user is not used.
 *
 * Signals are events: SIGHUP reloads (an invalid file, or one whose
 * profile -n would refuse, is logged with its errors and the
 * configuration in use is kept), SIGTERM and SIGINT stop
 * the battery in progress (the run marks itself aborted) and exit within
 * DAEMON_STOP_GRACE seconds and a little, SIGCHLD collects children.
 */
#include <sys/types.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <git2.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "store/store.h"
#include "workloads/workloads.h"
#include "daemon.h"

#ifndef BINDIR
#define BINDIR		"/usr/local/bin"
#endif
#ifndef PROFILEDIR
#define PROFILEDIR	"/usr/local/share/perfwatch/profiles"
#endif

/*
 * The configuration's size: room is left for the two lines of comment
 * (one names the file, up to PATH_MAX) that run.conf, the copy its runs
 * read, adds under the limit of every reader's, 1 MiB.
 */
#define DAEMON_CONF_MAX	(1024 * 1024 - 8192)
#define DAEMON_HARD_STOP (DAEMON_STOP_GRACE + 2)	/* seconds */

static struct daemon	 daemon_state;
static char		*daemon_conf_text;
static size_t		 daemon_conf_len;

static const struct option daemon_longopts[] = {
	{ "help",	no_argument,	NULL,	'h' },
	{ "version",	no_argument,	NULL,	'V' },
	{ NULL,		0,		NULL,	0 }
};

/*
 * Exit with rc once what went to standard output is written, or with 74
 * and why when it is not (-n, -V or -h > /dev/full): a check whose
 * report was lost must not say all is well.
 */
static void __attribute__((noreturn))
stdout_exit(int rc)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "perfwatchd: standard output: %s\n",
		    strerror(errno));
		exit(EXIT_IOERR);
	}
	exit(rc);
}

/*
 * The usage line, and when asked for (-h) the options too, on stdout with
 * status 0; else the line alone, as an error.
 */
static void __attribute__((noreturn))
usage(int asked)
{
	fprintf(asked ? stdout : stderr,
	    "usage: perfwatchd [-dhnvV] [-f file]\n");
	if (asked)
		printf("  -d         stay in the foreground, log to stderr\n"
		    "  -f file    the configuration (default %s)\n"
		    "  -h, --help this help\n"
		    "  -n         check the configuration and exit (-v: "
		    "print every value)\n"
		    "  -v         log more (twice: debugging)\n"
		    "  -V, --version\n"
		    "             print the version and exit\n"
		    "See perfwatchd(8) and perfwatch.conf(5).\n",
		    CONFIG_DEFAULT_PATH);
	if (asked)
		stdout_exit(0);
	exit(EXIT_USAGE);
}

/*
 * The path made absolute from the directory perfwatchd was started in,
 * its symbolic links left as they are; NULL (errno set) if that
 * directory cannot be had.  The daemon and its runs work in /, where a
 * relative path would name another file.
 */
static char *
daemon_absolute(const char *path)
{
	char	 cwd[PATH_MAX], *abs;

	if (*path == '/')
		return xstrdup(path);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return NULL;
	xasprintf(&abs, "%s/%s", cwd, path);
	return abs;
}

/* Make the path in environment variable name absolute (daemon_absolute()). */
static void
daemon_env_absolute(const char *name)
{
	const char	*v = getenv(name);
	char		*abs;

	if (v == NULL || *v == '\0' || *v == '/')
		return;
	if ((abs = daemon_absolute(v)) == NULL) {
		log_warn("%s=%s: the current directory", name, v);
		return;
	}
	if (setenv(name, abs, 1) == -1)
		log_warn("%s", name);
	free(abs);
}

/* This host's name as the store knows it (store_host_local()). */
const char *
daemon_host_name(void)
{
	static char	name[256];

	if (name[0] == '\0') {
		if (gethostname(name, sizeof(name)) == -1 || name[0] == '\0')
			snprintf(name, sizeof(name), "localhost");
		name[sizeof(name) - 1] = '\0';
	}
	return name;
}

/*
 * Read a configuration file whole, up to DAEMON_CONF_MAX bytes: a
 * regular file (a FIFO would block the start, or a reload, for ever).
 */
static char *
daemon_read_file(const char *path, size_t *len, char **cause)
{
	struct stat	 sb;
	FILE		*f;
	char		*buf;
	size_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1 ||
	    fstat(fd, &sb) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	buf = xmalloc(DAEMON_CONF_MAX + 1);
	n = fread(buf, 1, DAEMON_CONF_MAX + 1, f);
	if (ferror(f) || n > DAEMON_CONF_MAX) {
		if (ferror(f))
			xasprintf(cause, "%s: %s", path, strerror(errno));
		else
			xasprintf(cause, "%s: larger than %d bytes, the most "
			    "perfwatchd takes (its runs read a copy of it "
			    "with two lines before, under 1 MiB)", path,
			    DAEMON_CONF_MAX);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * Load the file and check its workloads as every run would read them, so
 * that a mistake is refused here rather than by each run; on success the
 * text it came from is kept too.
 */
static struct config *
daemon_load(const char *path, char **text, size_t *len, char **cause)
{
	struct config	*cfg;
	char		*buf;
	size_t		 n;

	if ((buf = daemon_read_file(path, &n, cause)) == NULL)
		return NULL;
	if ((cfg = config_load_buffer(path, buf, n, cause)) == NULL) {
		free(buf);
		return NULL;
	}
	if (wl_config_check(cfg, cause) == -1) {
		config_free(cfg);
		free(buf);
		return NULL;
	}
	*text = buf;
	*len = n;
	return cfg;
}

static int	daemon_profile_check(const struct config *, const char *,
		    char **);

/* The verbosity that [perfwatch] log_level asks for, at least -v's. */
static void
daemon_log_level(struct daemon *d)
{
	const char	*lvl = config_get_str(d->cfg, "perfwatch", "log_level");
	int		 v = 0;

	if (strcmp(lvl, "info") == 0)
		v = 1;
	else if (strcmp(lvl, "debug") == 0)
		v = 2;
	log_set_verbose(v > d->verbose ? v : d->verbose);
}

/*
 * Write the configuration in force to state_dir/run.conf, which the runs
 * read: through a temporary file and rename, so a run never sees half.
 */
static int
daemon_write_run_conf(struct daemon *d)
{
	const char	*text;
	char		*tmp, *shown, *p;
	FILE		*f;
	size_t		 len;
	int		 fd, rc = 0;

	xasprintf(&tmp, "%s.tmp", d->run_conf);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd == -1 || (f = fdopen(fd, "w")) == NULL) {
		log_warn("%s", tmp);
		if (fd != -1)
			close(fd);
		free(tmp);
		return -1;
	}
	/* A path with a line break would end the comment early. */
	shown = xstrdup(d->conf_path);
	for (p = shown; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r')
			*p = '?';
	fprintf(f, "# The configuration perfwatchd loaded from %s; its runs "
	    "read this copy.\n# Edit that file and send SIGHUP, not this "
	    "one.\n", shown);
	free(shown);
	/*
	 * A byte order mark is taken at the start of a file only: behind
	 * the two lines above it would be text of the third, refused.
	 */
	text = daemon_conf_text;
	len = daemon_conf_len;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	if (len > 0 && fwrite(text, 1, len, f) != len)
		rc = -1;
	if (fflush(f) == EOF || fsync(fileno(f)) == -1)
		rc = -1;
	if (fclose(f) == EOF)
		rc = -1;
	if (rc == 0 && rename(tmp, d->run_conf) == -1)
		rc = -1;
	if (rc == -1) {
		log_warn("%s", d->run_conf);
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

/*
 * Give a directory we have just created its mode, whatever the umask
 * took from it, and, unless uid is -1, to uid:gid.  Its parent may be
 * writable by others, who could have put something else in its place
 * since: open it without following a symbolic link, check that it is
 * still a directory of ours, and change the descriptor, not the path.
 */
static void
daemon_own_dir(const char *path, mode_t mode, uid_t uid, gid_t gid)
{
	struct stat	sb;
	int		fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1) {
		log_warn("chmod %s", path);
		return;
	}
	if (fstat(fd, &sb) == -1)
		log_warn("chmod %s", path);
	else if (!S_ISDIR(sb.st_mode) || sb.st_uid != geteuid())
		log_warnx("chmod %s: replaced since it was created; left "
		    "as it is", path);
	else if (fchmod(fd, mode) == -1)
		log_warn("chmod %s", path);
	else if (uid != (uid_t)-1 && fchown(fd, uid, gid) == -1)
		log_warn("chown %s", path);
	close(fd);
}

/*
 * mkdir -p of path, which [perfwatch] key names (the directory of socket);
 * the last directory, if created, gets mode and, unless uid is -1, goes
 * to uid:gid.  One already there is left as it is.  A failure names the
 * key and its file:line.
 */
static int
daemon_mkdirs(const struct daemon *d, const char *key, const char *path,
    mode_t mode, uid_t uid, gid_t gid)
{
	char	*s = xstrdup(path), *p, *where;
	int	 rc = 0, saved;

	for (p = s + 1; *p != '\0' && rc == 0; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(s, 0755) == -1 && errno != EEXIST)
			rc = -1;
		else
			*p = '/';
	}
	if (rc == 0 && mkdir(s, mode) == 0)
		daemon_own_dir(s, mode, uid, gid);
	else if (rc == -1 || errno != EEXIST) {
		saved = errno;
		where = daemon_key_where(d->cfg, d->conf_path, key);
		errno = saved;
		log_warn("%s: [perfwatch] %s: mkdir %s", where, key, s);
		free(where);
		rc = -1;
	}
	free(s);
	return rc;
}

/*
 * Take the lock of the state directory or exit; keep its fd.  This runs
 * as root before the privileges are dropped, in a directory that the
 * service's user owns: that user could have left a symbolic link, a hard
 * link or a FIFO under the lock's name, to have root give away or
 * overwrite another file.  So a link is not followed, and anything but a
 * regular file with a single name is refused.
 */
static int
daemon_lock(const char *state_dir, uid_t uid, gid_t gid)
{
	struct stat	 sb;
	char		*path, buf[32];
	ssize_t		 n;
	int		 fd;

	xasprintf(&path, "%s/perfwatchd.lock", state_dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK |
	    O_CLOEXEC, 0644);
	if (fd == -1) {
		if (errno == ELOOP)
			fatalx("%s: a symbolic link; remove it", path);
		fatal("%s", path);
	}
	if (fstat(fd, &sb) == -1)
		fatal("%s", path);
	if (!S_ISREG(sb.st_mode) || sb.st_nlink != 1)
		fatalx("%s: not a regular file with a single link; remove it",
		    path);
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK)
			fatal("%s: flock", path);
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		log_warnx("another perfwatchd%s%s%s uses %s (lock %s)",
		    buf[0] != '\0' ? " (pid " : "", buf,
		    buf[0] != '\0' ? ")" : "", state_dir, path);
		free(path);
		exit(1);
	}
	if (uid != (uid_t)-1 && fchown(fd, uid, gid) == -1)
		log_warn("chown %s", path);
	free(path);
	return fd;
}

/* Write our pid into the lock file of state_dir (it is the pidfile too). */
static void
daemon_write_pid(int fd, const char *state_dir)
{
	char	buf[32];
	int	n;

	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || pwrite(fd, buf, (size_t)n, 0) != n)
		log_warn("%s/perfwatchd.lock: cannot write the pid", state_dir);
}

/* Become uid:gid for good, and check that root cannot come back. */
static void
daemon_drop(uid_t uid, gid_t gid, const char *user)
{
	struct passwd	*pw;

	if (setgroups(1, &gid) == -1)
		fatal("setgroups");
	if (setresgid(gid, gid, gid) == -1)
		fatal("setresgid %ld", (long)gid);
	if (setresuid(uid, uid, uid) == -1)
		fatal("setresuid %ld", (long)uid);
	if (getuid() != uid || geteuid() != uid || getgid() != gid ||
	    getegid() != gid)
		fatalx("the change to user %s did not take", user);
	if (uid != 0 && (setuid(0) != -1 || seteuid(0) != -1))
		fatalx("could become root again after dropping to %s", user);
	log_debug("running as %s (uid %ld, gid %ld)", user, (long)uid,
	    (long)gid);
	/*
	 * Its own HOME, as su(1) gives: libgit2 refused every watched tree
	 * while HOME named root's directory, which it cannot read ("failed
	 * to stat '/root/.gitconfig'"), and builds ran with it.
	 */
	if ((pw = getpwuid(uid)) != NULL && pw->pw_dir != NULL &&
	    pw->pw_dir[0] == '/')
		setenv("HOME", pw->pw_dir, 1);
	else
		setenv("HOME", "/", 1);
	setenv("USER", user, 1);
	setenv("LOGNAME", user, 1);
}

/* The name of user or group id (group: 1), or its number; free it. */
static char *
daemon_id_name(unsigned long id, int group)
{
	struct passwd	*pw;
	struct group	*gr;
	char		*name;

	if (!group && (pw = getpwuid((uid_t)id)) != NULL)
		return xstrdup(pw->pw_name);
	if (group && (gr = getgrgid((gid_t)id)) != NULL)
		return xstrdup(gr->gr_name);
	xasprintf(&name, "%lu", id);
	return name;
}

/*
 * Whether this process, as the user it runs as now, may write state_dir
 * and the database files in it: 0, or -1 with *cause naming the first
 * it may not, its owner, and how to give it to the user.  A perfwatch
 * run by hand as root makes state_dir and the database root's; the
 * daemon dropped to its user then stopped with SQLite's refusal, worded
 * for a reader ("read-only to this user, and reading it needs its -shm
 * file") or "unable to open database file", which named neither the
 * owner nor the user.  Only a lack of permission is said so: anything
 * else (a read-only file system) is left to store_open().
 */
static int
daemon_state_writable(const struct daemon *d, char **cause)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	struct stat	 sb;
	char		*path = NULL, *owner, *user, *group;
	size_t		 i;

	/* state_dir, then each file of the database that is there. */
	for (i = 0; i <= nitems(suffix); i++) {
		if (i == 0)
			path = xstrdup(d->state_dir);
		else
			xasprintf(&path, "%s%s", d->db_path, suffix[i - 1]);
		if (access(path, W_OK) == -1 && errno == EACCES &&
		    stat(path, &sb) == 0)
			break;
		free(path);
		path = NULL;
	}
	if (path == NULL)
		return 0;
	owner = daemon_id_name(sb.st_uid, 0);
	user = daemon_id_name(getuid(), 0);
	group = daemon_id_name(getgid(), 1);
	/* Its owner lacks the right: a chown would not give it. */
	if (sb.st_uid == getuid())
		xasprintf(cause, "%s%s: not writable by its owner, user %s, "
		    "which perfwatchd runs as: chmod u+w %s", i == 0 ?
		    "state_dir " : "", path, user, path);
	else
		xasprintf(cause, "%s%s: owned by %s, not writable by user %s, "
		    "which perfwatchd runs as: chown -R %s:%s %s", i == 0 ?
		    "state_dir " : "", path, owner, user, user, group,
		    d->state_dir);
	free(owner);
	free(user);
	free(group);
	free(path);
	return -1;
}

/*
 * daemon_profile_check() as the account uid:gid, when root will become
 * it: the profile may be found in state_dir/profiles, which that account
 * writes, and root must not read there what the account may not (a link
 * to /etc/shadow put its first line in the error, on stderr and syslog).
 */
static int
daemon_profile_check_as(const struct config *cfg, const char *conf_path,
    uid_t uid, gid_t gid, char **cause)
{
	gid_t	*groups, egid = getegid();
	int	 ng, rc;

	if (geteuid() != 0 || uid == (uid_t)-1 || uid == 0)
		return daemon_profile_check(cfg, conf_path, cause);
	if ((ng = getgroups(0, NULL)) == -1)
		fatal("getgroups");
	groups = xcalloc((size_t)ng + 1, sizeof(*groups));
	if (getgroups(ng, groups) == -1)
		fatal("getgroups");
	if (setgroups(1, &gid) == -1 || setegid(gid) == -1 ||
	    seteuid(uid) == -1)
		fatal("cannot become uid %ld to read the profile", (long)uid);
	rc = daemon_profile_check(cfg, conf_path, cause);
	if (seteuid(0) == -1 || setegid(egid) == -1 ||
	    setgroups((size_t)ng, groups) == -1)
		fatal("cannot become root again after reading the profile");
	free(groups);
	return rc;
}

/* Tell systemd (STATUS=) what the daemon does, when that changes. */
void
daemon_status(struct daemon *d)
{
	static char	 last[512];
	char		 now[512], when[32], *work;
	struct tm	 tm;
	time_t		 next;

	if (!sdnotify_enabled())
		return;
	work = work_status_line(d);
	if (d->stopping)
		snprintf(now, sizeof(now), "stopping");
	else if (work != NULL)
		snprintf(now, sizeof(now), "%s%s", work, d->paused ?
		    " (paused after this)" : "");
	else if (d->paused)
		snprintf(now, sizeof(now), "paused; %zu queued",
		    d->work.npending);
	else if (d->work.retry_at != 0 &&
	    localtime_r(&d->work.retry_at, &tm) != NULL &&
	    strftime(when, sizeof(when), "%H:%M:%S", &tm) > 0)
		snprintf(now, sizeof(now), "%s; trying again at %s",
		    d->work.retry_short != NULL ? d->work.retry_short :
		    "could not start a child", when);
	else if ((next = schedule_next(d)) > 0 &&
	    localtime_r(&next, &tm) != NULL &&
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm) > 0)
		snprintf(now, sizeof(now), "idle; next run %s", when);
	else
		snprintf(now, sizeof(now), "idle; nothing scheduled");
	free(work);
	if (strcmp(now, last) == 0)
		return;
	snprintf(last, sizeof(last), "%s", now);
	sdnotify("STATUS=%s", now);
}

/* When stopping: leave the loop once no child is left. */
void
daemon_exit_if_done(struct daemon *d)
{
	if (d->stopping && work_idle(d) && LIST_EMPTY(&d->jobs))
		event_base_loopexit(d->base, NULL);
}

static void
daemon_hard_stop(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	log_warnx("children still running after %d s; exiting anyway",
	    DAEMON_HARD_STOP);
	job_kill_all(d, SIGKILL);
	event_base_loopexit(d->base, NULL);
}

/* Stop the work in progress and the triggers; leave once all is done. */
static void
daemon_stop(struct daemon *d)
{
	struct timeval	 tv = { DAEMON_HARD_STOP, 0 };

	d->stopping = 1;
	sdnotify("STOPPING=1");
	daemon_status(d);
	control_stop(d);
	http_stop(d);
	schedule_stop(d);
	kernel_stop(d);
	gitwatch_stop(d);
	pkgwatch_stop(d);
	notifier_stop(d);
	work_stop(d);
	event_base_once(d->base, -1, EV_TIMEOUT, daemon_hard_stop, d, &tv);
	daemon_exit_if_done(d);
}

/* SIGTERM, SIGINT: stop the work in progress, then leave. */
static void
daemon_on_stop(evutil_socket_t sig, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)ev;
	if (d->stopping) {
		log_info("signal %d again: killing the children now",
		    (int)sig);
		job_kill_all(d, SIGKILL);
		return;
	}
	log_info("signal %d: stopping", (int)sig);
	daemon_stop(d);
}

static void
daemon_stop_later(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	if (!d->stopping)
		daemon_stop(d);
}

/*
 * Stop, exiting EXIT_TEMPFAIL once the children are gone (see
 * daemon_store_begin() for why exit), after saying why once.
 */
static void
daemon_stop_tempfail(struct daemon *d, const char *why)
{
	struct timeval	 tv = { 0, 0 };

	if (d->exit_status != 0)
		return;
	log_warnx("%s", why);
	d->exit_status = EXIT_TEMPFAIL;
	/* Not from here: the caller (a control request) goes on. */
	if (!d->stopping)
		event_base_once(d->base, -1, EV_TIMEOUT, daemon_stop_later, d,
		    &tv);
}

/*
 * Whether the database file is still the one perfwatchd opened: one
 * removed, or replaced (a backup put back with mv), left the daemon on
 * the old file for good, while its runs, which open the path, wrote the
 * new one; status showed the old, and a pause went into the removed file
 * and was lost at the next start.  When it is not, the daemon stops
 * (75), for the supervisor to start it on the file there now.  0, or -1
 * (said once) when it is another.
 */
int
daemon_store_same(struct daemon *d)
{
	struct stat	 sb;
	char		*why;
	int		 gone;

	if (d->db_ino == 0)
		return 0;
	gone = stat(d->db_path, &sb) == -1;
	if (!gone && sb.st_dev == d->db_dev && sb.st_ino == d->db_ino)
		return 0;
	xasprintf(&why, "%s: %s since perfwatchd opened it: stopping, for a "
	    "start on the file there now", d->db_path, gone ? "removed" :
	    "replaced");
	daemon_stop_tempfail(d, why);
	free(why);
	return -1;
}

/*
 * Begin a write transaction on the store, as store_begin(): every write
 * of the daemon's own goes through here.  When a newer perfwatch has
 * migrated the store since it was opened (the package was upgraded, and
 * its `perfwatch` run, before perfwatchd was restarted), the daemon
 * writes nothing more and stops, exiting EXIT_TEMPFAIL (75) once its
 * children are gone.  Why exit, not re-exec: the daemon has dropped root
 * and cannot take again what start-up took as root (the directories, a
 * privileged address); the supervisor starts the new binary the way it
 * started this one.  systemd's Restart=on-failure restarts on 75, which
 * RestartPreventExitStatus= does not name; 75 says "try again", where a
 * configuration error (78) would not be restarted.
 */
int
daemon_store_begin(struct daemon *d)
{
	char	*why;
	int	 version;

	if (daemon_store_same(d) == -1)
		return -1;
	if (store_begin(d->st) == 0)
		return 0;
	if ((version = store_newer_schema(d->st)) == 0)
		return -1;
	xasprintf(&why, "%s: the store was migrated to schema %d by a newer "
	    "perfwatch; this perfwatchd knows %d: restart it", d->db_path,
	    version, STORE_SCHEMA_VERSION);
	daemon_stop_tempfail(d, why);
	free(why);
	return -1;
}

/*
 * A key that only a restart can change: say so if the file reloaded now
 * differs from the value in use, the one perfwatchd started with.
 */
static void
daemon_fixed_key(struct daemon *d, struct config *next, const char *key)
{
	const char	*a = config_get_str(d->start_cfg, "perfwatch", key);
	const char	*b = config_get_str(next, "perfwatch", key);

	if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0))
		log_warnx("%s: [perfwatch] %s changed: restart perfwatchd to "
		    "apply it", d->conf_path, key);
}

/* SIGHUP: load the file again; keep the old configuration if it fails. */
static void
daemon_on_hup(evutil_socket_t sig, short ev, void *arg)
{
	struct daemon	*d = arg;
	struct config	*next, *old;
	char		*cause = NULL, *text, *line, *save = NULL, *old_text;
	size_t		 len, old_len;

	(void)sig;
	(void)ev;
	if (d->stopping)
		return;
	next = daemon_load(d->conf_path, &text, &len, &cause);
	if (next != NULL && daemon_profile_check(next, d->conf_path,
	    &cause) == -1) {
		config_free(next);
		free(text);
		next = NULL;
	}
	if (next == NULL) {
		log_warnx("%s: not reloaded; the configuration in use is "
		    "kept:", d->conf_path);
		for (line = strtok_r(cause, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			log_warnx("%s", line);
		free(cause);
		return;
	}
	/*
	 * The runs read the copy: one that cannot be written (a full
	 * state_dir) keeps the configuration in use, or the daemon would
	 * go by the new one and its runs by the old, while the log said
	 * "reloaded".
	 */
	old_text = daemon_conf_text;
	old_len = daemon_conf_len;
	daemon_conf_text = text;
	daemon_conf_len = len;
	if (daemon_write_run_conf(d) == -1) {
		daemon_conf_text = old_text;
		daemon_conf_len = old_len;
		free(text);
		config_free(next);
		log_warnx("%s: not reloaded; the configuration in use is "
		    "kept: cannot write %s, which its runs read", d->conf_path,
		    d->run_conf);
		return;
	}
	free(old_text);
	daemon_fixed_key(d, next, "state_dir");
	daemon_fixed_key(d, next, "socket");
	daemon_fixed_key(d, next, "user");
	daemon_fixed_key(d, next, "group");
	daemon_fixed_key(d, next, "allow_root");
	old = d->cfg;
	d->cfg = next;
	daemon_log_level(d);
	if (schedule_reload(d, old, &cause) == -1) {
		log_warnx("schedule: %s", cause);
		free(cause);
	}
	kernel_reload(d, old);
	pkgwatch_reload(d, old);
	http_reload(d);
	if (old != d->start_cfg)
		config_free(old);
	gitwatch_reload(d);
	log_info("reloaded %s", d->conf_path);
	daemon_status(d);
}

static void
daemon_on_chld(evutil_socket_t sig, short ev, void *arg)
{
	(void)sig;
	(void)ev;
	job_reap(arg);
	daemon_exit_if_done(arg);
}

char *
daemon_key_where(const struct config *cfg, const char *conf_path,
    const char *key)
{
	char	*s;
	int	 line = config_key_line(cfg, "perfwatch", key);

	if (line > 0)
		xasprintf(&s, "%s:%d", conf_path, line);
	else
		s = xstrdup(conf_path);
	return s;
}

/*
 * Resolve [perfwatch] user and group as root does: 0 and the ids, or -1
 * and *cause if either does not exist, or if the user is root without
 * allow_root.  perfwatchd -n asks the same, so that a configuration it
 * passes does not stop the daemon at start.
 */
static int
daemon_account_find(struct config *cfg, const char *conf_path, uid_t *uid,
    gid_t *gid, char **cause)
{
	const char	*user, *group;
	struct passwd	*pw;
	struct group	*gr;
	char		*where;

	user = config_get_str(cfg, "perfwatch", "user");
	group = config_get_str(cfg, "perfwatch", "group");
	if ((pw = getpwnam(user)) == NULL) {
		where = daemon_key_where(cfg, conf_path, "user");
		xasprintf(cause, "%s: [perfwatch] user %s does not exist; "
		    "create it (systemd-sysusers, pw useradd) or name another",
		    where, user);
		free(where);
		return -1;
	}
	if ((gr = getgrnam(group)) == NULL) {
		where = daemon_key_where(cfg, conf_path, "group");
		xasprintf(cause, "%s: [perfwatch] group %s does not exist",
		    where, group);
		free(where);
		return -1;
	}
	if (pw->pw_uid == 0 && !config_get_bool(cfg, "perfwatch",
	    "allow_root")) {
		where = daemon_key_where(cfg, conf_path, "user");
		xasprintf(cause, "%s: [perfwatch] user %s is root: workloads "
		    "never run as root; name an unprivileged user, or set "
		    "allow_root = yes on a throwaway machine", where, user);
		free(where);
		return -1;
	}
	*uid = pw->pw_uid;
	*gid = gr->gr_gid;
	return 0;
}

/*
 * The profile the runs will measure ([perfwatch] profile), looked for
 * where they look (cli/run.c, profile_path()): a name with a slash is a
 * file, else NAME.conf in the PERFWATCH_PROFILE_DIR the daemon gives them
 * (its own, else the profiles directory beside conf_path), beside their
 * configuration (state_dir/run.conf), in SYSCONFDIR and in the installed
 * examples; then loaded and its workloads checked as a run does.  So
 * perfwatchd -n finds a misspelt profile, which every battery would
 * otherwise stop on (exit 78).  The profile, or NULL and *cause.
 */
static struct config *
daemon_profile_load(const struct config *cfg, const char *conf_path,
    char **cause)
{
	const char	*name = config_get_str(cfg, "perfwatch", "profile");
	const char	*env = getenv("PERFWATCH_PROFILE_DIR");
	struct config	*prof;
	char		*dirs[4], *dir, *path = NULL, *err = NULL, *where;
	char		*hint;
	size_t		 i;

	if (strchr(name, '/') != NULL) {
		/*
		 * The runs start in / (and so does the daemon, once it has
		 * started): a relative file would be looked for there.
		 */
		if (name[0] != '/') {
			where = daemon_key_where(cfg, conf_path, "profile");
			xasprintf(cause, "%s: [perfwatch] profile \"%s\": a "
			    "file is named by its absolute path (perfwatchd "
			    "and its runs work in /)", where, name);
			free(where);
			return NULL;
		}
		path = xstrdup(name);
	} else {
		if (env != NULL && *env != '\0')
			dirs[0] = xstrdup(env);
		else {
			dir = xstrdup(conf_path);
			xasprintf(&dirs[0], "%s/profiles", dirname(dir));
			free(dir);
		}
		xasprintf(&dirs[1], "%s/profiles", config_get_str(cfg,
		    "perfwatch", "state_dir"));
		dirs[2] = xstrdup(SYSCONFDIR "/perfwatch/profiles");
		dirs[3] = xstrdup(PROFILEDIR);
		for (i = 0; i < nitems(dirs) && path == NULL; i++) {
			xasprintf(&path, "%s/%s.conf", dirs[i], name);
			if (access(path, R_OK) == -1) {
				free(path);
				path = NULL;
			}
		}
		if (path == NULL) {
			where = daemon_key_where(cfg, conf_path, "profile");
			hint = wl_profile_hint((const char *const *)dirs,
			    nitems(dirs), name);
			xasprintf(cause, "%s: [perfwatch] profile \"%s\"%s%s%s "
			    "not found (looked in %s, %s, %s and %s)", where,
			    name, hint ? " (did you mean " : "", hint ? hint :
			    "", hint ? "?)" : "", dirs[0], dirs[1], dirs[2],
			    dirs[3]);
			free(hint);
			free(where);
		}
		for (i = 0; i < nitems(dirs); i++)
			free(dirs[i]);
		if (path == NULL)
			return NULL;
	}
	if ((prof = config_load(path, &err)) == NULL ||
	    config_only_sections(prof, "workload", WL_PROFILE_ONLY,
	    &err) == -1 || wl_config_check(prof, &err) == -1) {
		where = daemon_key_where(cfg, conf_path, "profile");
		xasprintf(cause, "%s: [perfwatch] profile \"%s\":\n%s",
		    where, name, err);
		free(where);
		free(err);
		config_free(prof);
		free(path);
		return NULL;
	}
	free(path);
	return prof;
}

/* Add name to the list unless it is there; its index. */
static size_t
daemon_name_add(char ***names, int **on, size_t *n, const char *name)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if (strcmp((*names)[i], name) == 0)
			return i;
	*names = xreallocarray(*names, *n + 1, sizeof(**names));
	*on = xreallocarray(*on, *n + 1, sizeof(**on));
	(*names)[*n] = xstrdup(name);
	(*on)[*n] = 1;
	return (*n)++;
}

/*
 * Whether workload name can run as a battery reads it: its section of the
 * profile, then the configuration's over it, checked whole, as cli/run.c
 * checks each job before it measures anything.  Each file alone may be
 * right where the two together are not (a command the profile leaves to
 * a configuration that has none, a profile's duration that the
 * configuration's timeout leaves no room for), and then every battery
 * would stop at its start.  0, or -1 and *cause in the run's words, at
 * the header of the configuration's section when it has one.
 */
static int
daemon_workload_check(const struct config *prof, const struct config *cfg,
    const char *name, char **cause)
{
	const struct config		*from[2], *where = prof;
	const struct wl_workload	*wl;
	struct wl_params		 p;
	char				*section, *why;
	size_t				 f;
	int				 rc = 0;

	if ((wl = wl_find(name)) == NULL)
		wl = wl_find("command");
	wl_params_init(&p, wl);
	xasprintf(&section, "workload %s", name);
	from[0] = prof;
	from[1] = cfg;
	for (f = 0; f < nitems(from) && rc == 0; f++) {
		if (config_file(from[f]) == NULL ||
		    config_section_line(from[f], section) == 0)
			continue;
		where = from[f];
		rc = wl_params_apply(&p, wl, from[f], section, cause);
	}
	if (rc == 0 && wl_params_check(&p, wl, &why) == -1) {
		*cause = wl_check_cause(config_file(where),
		    config_section_line(where, section), name, wl, &p, why);
		free(why);
		rc = -1;
	}
	free(section);
	wl_params_clear(&p);
	return rc;
}

/*
 * The workloads a battery of the whole profile runs, as cli/run.c picks
 * them: the profile's [workload] sections, and those of the configuration
 * that are not battery workloads (a battery workload the profile leaves
 * out is only tuned there, never added), less those that enabled = no
 * turns off, the configuration's word over the profile's.  0 with the
 * names (free with daemon_workloads_free()), or -1 and *cause when the
 * profile cannot be had or a workload could not run (see
 * daemon_workload_check()).
 */
int
daemon_workloads(const struct config *cfg, const char *conf_path,
    char ***names, size_t *n, char **cause)
{
	const struct config	*from[2];
	struct config		*prof;
	const char		*name;
	char			*section;
	int			*on = NULL;
	size_t			 i, k, f, kept;

	*names = NULL;
	*n = 0;
	if ((prof = daemon_profile_load(cfg, conf_path, cause)) == NULL)
		return -1;
	from[0] = prof;
	from[1] = cfg;
	for (f = 0; f < nitems(from); f++) {
		for (i = 0; (name = config_sections(from[f], "workload",
		    i)) != NULL; i++) {
			for (k = 0; k < *n; k++)
				if (strcmp((*names)[k], name) == 0)
					break;
			if (k == *n && f == 1 && wl_battery_find(name) != NULL)
				continue;
			k = daemon_name_add(names, &on, n, name);
			xasprintf(&section, "workload %s", name);
			if (config_is_set(from[f], section, "enabled"))
				on[k] = config_get_bool(from[f], section,
				    "enabled");
			free(section);
		}
	}
	for (i = kept = 0; i < *n; i++) {
		if (on[i])
			(*names)[kept++] = (*names)[i];
		else
			free((*names)[i]);
	}
	*n = kept;
	free(on);
	for (i = 0; i < *n; i++) {
		if (daemon_workload_check(prof, cfg, (*names)[i],
		    cause) == -1) {
			daemon_workloads_free(*names, *n);
			*names = NULL;
			*n = 0;
			config_free(prof);
			return -1;
		}
	}
	config_free(prof);
	return 0;
}

void
daemon_workloads_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * What the configuration asks of the profile: that it can be had (see
 * daemon_profile_load()), that it has a workload to run, and that each
 * [git] section's workloads match some of them, since a battery that
 * selects nothing fails (exit 64) and its commit would count as measured.
 * perfwatchd -n, the start and each reload ask it.  0, or -1 and *cause.
 */
static int
daemon_profile_check(const struct config *cfg, const char *conf_path,
    char **cause)
{
	const char	*name;
	char		**names, **globs, *section, *why;
	size_t		 n, i, ng;
	int		 rc = 0;

	if (daemon_workloads(cfg, conf_path, &names, &n, cause) == -1)
		return -1;
	if (n == 0) {
		why = daemon_key_where(cfg, conf_path, "profile");
		xasprintf(cause, "%s: [perfwatch] profile \"%s\": no workload "
		    "to run (every one has enabled = no)", why,
		    config_get_str(cfg, "perfwatch", "profile"));
		free(why);
		daemon_workloads_free(names, n);
		return -1;
	}
	for (i = 0; rc == 0 && (name = config_sections(cfg, "git", i)) !=
	    NULL; i++) {
		xasprintf(&section, "git %s", name);
		globs = config_get_list(cfg, section, "workloads");
		for (ng = 0; globs[ng] != NULL; ng++)
			;
		if (wl_globs_check(names, n, globs, ng, &why) == -1) {
			xasprintf(cause, "%s:%d: [git \"%s\"] workloads: %s",
			    conf_path, config_key_line(cfg, section,
			    "workloads"), name, why);
			free(why);
			rc = -1;
		}
		config_list_free(globs);
		free(section);
	}
	daemon_workloads_free(names, n);
	return rc;
}

/*
 * -n: load the file as the daemon does, say why not on stderr (as the
 * start does), exit 0 or 78.  Without -f (path NULL) a missing default
 * file is every key at its default, as it is for the daemon.
 */
static int __attribute__((noreturn))
daemon_check(const char *path, int verbose)
{
	struct config	*cfg, *prof;
	char		*text = NULL, *cause;
	size_t		 len;
	uid_t		 uid = (uid_t)-1;
	gid_t		 gid = (gid_t)-1;

	if (path == NULL && access(CONFIG_DEFAULT_PATH, F_OK) == -1)
		cfg = config_default();
	else {
		if (path == NULL)
			path = CONFIG_DEFAULT_PATH;
		if ((cfg = daemon_load(path, &text, &len, &cause)) == NULL) {
			fprintf(stderr, "%s\n", cause);
			free(cause);
			exit(EXIT_CONFIG);
		}
	}
	/* Root drops to the account: it must exist now, not at start. */
	if (geteuid() == 0 && daemon_account_find(cfg, path != NULL ? path :
	    CONFIG_DEFAULT_PATH, &uid, &gid, &cause) == -1) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		exit(EXIT_CONFIG);
	}
	if (daemon_profile_check_as(cfg, path != NULL ? path :
	    CONFIG_DEFAULT_PATH, uid, gid, &cause) == -1) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		exit(EXIT_CONFIG);
	}
	/*
	 * With -v the values follow, as a configuration a user may save
	 * as it is: there the verdict is a comment, which reads back.
	 */
	if (path != NULL)
		printf("%s%s: configuration OK\n", verbose ? "# " : "", path);
	else
		printf("%s%s: not found; every key at its default: "
		    "configuration OK\n", verbose ? "# " : "",
		    CONFIG_DEFAULT_PATH);
	/*
	 * Each [workload] key as the profile's section and then the
	 * configuration's give it, else at its workload's default, not its
	 * kind's: as a run reads them.  The profile was read just now.
	 */
	if (verbose) {
		if ((prof = daemon_profile_load(cfg, path != NULL ? path :
		    CONFIG_DEFAULT_PATH, &cause)) == NULL) {
			fprintf(stderr, "%s\n", cause);
			free(cause);
			exit(EXIT_CONFIG);
		}
		config_dump_except(cfg, stdout, "workload");
		wl_config_dump(prof, cfg, stdout);
		config_free(prof);
	}
	config_free(cfg);
	free(text);
	stdout_exit(0);
}

/* Resolve [perfwatch] user and group when root; exit 78 if they will not do. */
static void
daemon_account(struct daemon *d, uid_t *uid, gid_t *gid, const char **user)
{
	char	*cause;

	if (daemon_account_find(d->cfg, d->conf_path, uid, gid, &cause) == -1) {
		log_warnx("%s", cause);
		free(cause);
		exit(EXIT_CONFIG);
	}
	*user = config_get_str(d->cfg, "perfwatch", "user");
}

int
main(int argc, char **argv)
{
	struct daemon	*d = &daemon_state;
	struct stat	 sb;
	const char	*conf_opt = NULL, *user = NULL, *group;
	const char	*argv0 = argv[0];
	char		*cause = NULL, *dir, *env, *value;
	struct group	*gr;
	sigset_t	 stopset;
	uid_t		 uid = (uid_t)-1;
	gid_t		 gid = (gid_t)-1;
	size_t		 marked = 0;
	int		 ch, check = 0;

	/*
	 * SIGHUP, SIGTERM and SIGINT wait until the event loop's handlers
	 * are there (below): a start can take seconds (a store another
	 * process holds locked), and a reload sent in that time (a script
	 * that restarts, then reloads) killed the daemon by the signal's
	 * default action, with no word and its socket left behind.  A
	 * child's mask is cleared (job_child_setup()).
	 */
	sigemptyset(&stopset);
	sigaddset(&stopset, SIGHUP);
	sigaddset(&stopset, SIGTERM);
	sigaddset(&stopset, SIGINT);
	sigprocmask(SIG_BLOCK, &stopset, NULL);

	/*
	 * What we were started with beyond 0-2 (a shell's or a service
	 * manager's descriptor without close-on-exec) is not ours: kept,
	 * a forked child would hold it too.  Closed before anything is
	 * opened; systemd's readiness socket is opened from NOTIFY_SOCKET
	 * (sdnotify.c), and no socket is passed to us (no LISTEN_FDS).
	 */
	perfwatch_closefrom(STDERR_FILENO + 1);
	/*
	 * And 0-2 open: started with one closed (`perfwatchd -d >&-`), the
	 * first file opened (the lock, the store) would take its number,
	 * and log lines or a child's output meant for it would land there.
	 */
	for (ch = STDIN_FILENO; ch <= STDERR_FILENO; ch++)
		if (fcntl(ch, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", ch == STDIN_FILENO ? O_RDONLY :
		    O_WRONLY) != ch)
			return 71;	/* EX_OSERR: nowhere to say it */
	memset(d, 0, sizeof(*d));
	d->lock_fd = d->listen_fd = d->pkg_fd = d->http_fd = -1;
	LIST_INIT(&d->jobs);
	LIST_INIT(&d->gits);
	LIST_INIT(&d->clients);
	/*
	 * getopt_long() begins its messages with argv[0], on glibc the path
	 * we were started by ("/usr/local/sbin/perfwatchd: invalid option"):
	 * the name every other message begins with instead.  The path itself
	 * is kept, to find perfwatch beside us.
	 */
	argv[0] = (char *)"perfwatchd";
	while ((ch = getopt_long(argc, argv, "df:hnvV", daemon_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			d->foreground = 1;
			break;
		case 'f':
			conf_opt = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'v':
			d->verbose++;
			break;
		case 'V':
			printf("perfwatchd %s\n", PERFWATCH_VERSION);
			stdout_exit(0);
		case 'h':
			usage(1);
		default:
			usage(0);
		}
	}
	if (optind != argc) {
		/* perfwatchd takes no words: say which one, as getopt does. */
		fprintf(stderr, "perfwatchd: unexpected argument '%s'\n",
		    argv[optind]);
		usage(0);
	}
	log_init("perfwatchd", d->foreground || check, d->verbose);
	daemon_env_absolute("PERFWATCH");
	daemon_env_absolute("PERFWATCH_PROFILE_DIR");
	daemon_env_absolute("PERFWATCH_LOCK");	/* read by the runs */
	if (check)
		daemon_check(conf_opt, d->verbose);

	/* The configuration, its text kept for the runs. */
	if (conf_opt == NULL && access(CONFIG_DEFAULT_PATH, F_OK) == -1) {
		log_info("%s: not found; using the defaults",
		    CONFIG_DEFAULT_PATH);
		d->cfg = config_default();
		d->conf_path = xstrdup(CONFIG_DEFAULT_PATH);
		daemon_conf_text = xstrdup("");
	} else {
		if (conf_opt == NULL)
			conf_opt = CONFIG_DEFAULT_PATH;
		/*
		 * Not resolved (realpath()): a reload reads the file the
		 * path names then, a link switched to a new target as
		 * configuration managers replace files, and the profiles
		 * are looked for beside the path, as -n looks for them.
		 * Errors on standard error as daemon_load()'s are: without
		 * -d the log is syslog, and a mistyped -f exited 78 with
		 * nothing said where it was started.
		 */
		if ((d->conf_path = daemon_absolute(conf_opt)) == NULL) {
			ch = errno;
			fprintf(stderr, "%s: the current directory: %s\n",
			    conf_opt, strerror(ch));
			if (!d->foreground)
				log_warnx("%s: the current directory: %s",
				    conf_opt, strerror(ch));
			return EXIT_CONFIG;
		}
		d->cfg = daemon_load(d->conf_path, &daemon_conf_text,
		    &daemon_conf_len, &cause);
		if (d->cfg == NULL) {
			fprintf(stderr, "%s\n", cause);
			if (!d->foreground)
				log_warnx("%s", cause);
			free(cause);
			return EXIT_CONFIG;
		}
	}
	/* Root: the account to become (exit 78 if it will not do). */
	if (geteuid() == 0)
		daemon_account(d, &uid, &gid, &user);
	/* What -n refuses of the profile, the start refuses too. */
	if (daemon_profile_check_as(d->cfg, d->conf_path, uid, gid,
	    &cause) == -1) {
		fprintf(stderr, "%s\n", cause);
		if (!d->foreground)
			log_warnx("%s", cause);
		free(cause);
		return EXIT_CONFIG;
	}
	d->start_cfg = d->cfg;
	daemon_log_level(d);
	sdnotify_init();
	/*
	 * Started from a shell (or rc.d), not yet detached: what stops the
	 * start (another perfwatchd, a port in use) is said there too.
	 * Under systemd stderr is the journal, where syslog goes already.
	 */
	if (!d->foreground && !sdnotify_enabled())
		log_stderr_also(1);

	d->state_dir = xstrdup(config_get_str(d->cfg, "perfwatch",
	    "state_dir"));
	d->socket_path = xstrdup(config_get_str(d->cfg, "perfwatch",
	    "socket"));
	xasprintf(&d->db_path, "%s/perfwatch.db", d->state_dir);
	xasprintf(&d->run_conf, "%s/run.conf", d->state_dir);

	/*
	 * Root: directories the account can write.  work_dir is shared with
	 * the runs people start by hand on the same file (perfwatch.conf(5)):
	 * sticky and writable by all, as /var/tmp, and not given to the
	 * user, as tmpfiles.d makes it; each iteration works in a directory
	 * of its own, mode 0700.
	 */
	if (daemon_mkdirs(d, "state_dir", d->state_dir, 0750, uid,
	    gid) == -1 || daemon_mkdirs(d, "work_dir",
	    config_get_str(d->cfg, "perfwatch", "work_dir"), 01777,
	    (uid_t)-1, (gid_t)-1) == -1)
		return EXIT_CANTCREAT;
	dir = xstrdup(d->socket_path);
	if (daemon_mkdirs(d, "socket", dirname(dir), 0750, uid, gid) == -1) {
		free(dir);
		return EXIT_CANTCREAT;
	}
	free(dir);
	d->lock_fd = daemon_lock(d->state_dir, uid, gid);

	/*
	 * The dashboard's address, bound now, as root if started so: a port
	 * under 1024 can be had only before the drop (http.c).
	 */
	if (http_listen(d, &cause) == -1) {
		log_warnx("%s", cause);
		free(cause);
		return 1;
	}

	/* The socket, owned by the service's group. */
	if (uid == (uid_t)-1) {
		group = config_get_str(d->cfg, "perfwatch", "group");
		if ((gr = getgrnam(group)) != NULL && gr->gr_gid != getegid())
			gid = gr->gr_gid;
	}
	d->listen_fd = control_listen(d->socket_path, uid, gid, &cause);
	if (d->listen_fd == -1 && uid == (uid_t)-1 && gid != (gid_t)-1) {
		/* Not root and not in that group: keep our own group. */
		free(cause);
		cause = NULL;
		log_debug("socket: cannot give it to group %s",
		    config_get_str(d->cfg, "perfwatch", "group"));
		d->listen_fd = control_listen(d->socket_path, (uid_t)-1,
		    (gid_t)-1, &cause);
	}
	if (d->listen_fd == -1) {
		log_warnx("%s", cause);
		free(cause);
		return 1;
	}

	if (!d->foreground && !sdnotify_enabled() && daemon(0, 0) == -1)
		fatal("daemon");
	log_stderr_also(0);
	daemon_write_pid(d->lock_fd, d->state_dir);
	if (uid != (uid_t)-1) {
		if (uid != 0)
			daemon_drop(uid, gid, user);
		else
			log_warnx("running as root (allow_root = yes): so do "
			    "the workloads");
	}
	if (chdir("/") == -1)
		fatal("chdir /");
	signal(SIGPIPE, SIG_IGN);

	/* The store: this host, and runs a dead daemon left running. */
	if (daemon_state_writable(d, &cause) == -1 ||
	    (d->st = store_open(d->db_path, &cause)) == NULL) {
		log_warnx("%s", cause);
		free(cause);
		return 1;
	}
	/* The file opened, to tell it from one put in its place. */
	if (stat(d->db_path, &sb) == 0) {
		d->db_dev = sb.st_dev;
		d->db_ino = sb.st_ino;
	}
	if ((d->host = store_host_local(d->st)) == -1)
		fatalx("%s: cannot record this host: %s", d->db_path,
		    store_errmsg(d->st));
	switch (store_runs_sweep(d->st, d->host, 0, &marked, &cause)) {
	case -1:
		log_warnx("%s", cause);
		free(cause);
		break;
	case 1:
		log_info("a perfwatch run is in progress: runs left running "
		    "are looked at by the next run");
		break;
	case 2:
		log_info("%s: busy, locked by another process: runs left "
		    "running are looked at by the next run", d->db_path);
		break;
	default:
		if (marked > 0)
			log_warnx("%zu run%s left running by a process that "
			    "is gone: marked aborted", marked,
			    marked == 1 ? "" : "s");
		break;
	}
	if (store_setting_get(d->st, "daemon:paused", &value) == 0) {
		d->paused = strcmp(value, "yes") == 0;
		free(value);
	} else if (store_failure(d->st) == STORE_FAILED) {
		/*
		 * A store that cannot say (a spoiled page): paused, rather
		 * than batteries that a pause kept off (a bisection of the
		 * kernel) starting on it; a busy store is said, as before.
		 */
		log_warnx("%s: cannot read whether perfwatchd is paused: %s; "
		    "starting paused (perfwatch resume resumes)", d->db_path,
		    store_errmsg(d->st));
		d->paused = 1;
	} else if (store_failure(d->st) == STORE_BUSY)
		log_warnx("%s: cannot read whether perfwatchd is paused: %s; "
		    "starting as not paused", d->db_path, store_errmsg(d->st));
	if (daemon_write_run_conf(d) == -1)
		fatalx("cannot write %s", d->run_conf);
	d->perfwatch = perfwatch_path(argv0);
	/* The runs read a copy: let them find the profiles next to it. */
	if ((env = getenv("PERFWATCH_PROFILE_DIR")) == NULL || *env == '\0') {
		dir = xstrdup(d->conf_path);
		xasprintf(&env, "%s/profiles", dirname(dir));
		setenv("PERFWATCH_PROFILE_DIR", env, 1);
		free(env);
		free(dir);
	}

	if ((d->base = event_base_new()) == NULL)
		fatalx("event_base_new");
	d->ev_term = evsignal_new(d->base, SIGTERM, daemon_on_stop, d);
	d->ev_int = evsignal_new(d->base, SIGINT, daemon_on_stop, d);
	d->ev_hup = evsignal_new(d->base, SIGHUP, daemon_on_hup, d);
	d->ev_chld = evsignal_new(d->base, SIGCHLD, daemon_on_chld, d);
	evsignal_add(d->ev_term, NULL);
	evsignal_add(d->ev_int, NULL);
	evsignal_add(d->ev_hup, NULL);
	evsignal_add(d->ev_chld, NULL);
	/* One that came meanwhile is the loop's now. */
	sigprocmask(SIG_UNBLOCK, &stopset, NULL);

	work_init(d);
	control_start(d);
	http_start(d);
	/* What calls for a run at start is one battery: work_kick() below. */
	d->starting = 1;
	if (schedule_start(d, &cause) == -1)
		fatalx("schedule: %s", cause);
	pkgwatch_start(d);
	kernel_check(d);
	gitwatch_start(d);
	d->starting = 0;
	log_info("perfwatchd %s ready: %s, socket %s, runs with %s%s",
	    PERFWATCH_VERSION, d->conf_path, d->socket_path, d->perfwatch,
	    d->paused ? " (paused)" : "");
	sdnotify("READY=1\nMAINPID=%ld", (long)getpid());
	daemon_status(d);
	notifier_kick(d);
	work_kick(d);

	event_base_dispatch(d->base);

	log_info("stopped");
	control_stop(d);
	http_stop(d);
	schedule_stop(d);
	kernel_stop(d);
	gitwatch_stop(d);
	pkgwatch_stop(d);
	notifier_stop(d);
	work_free(d);
	daemon_settings_end(d);
	event_free(d->ev_term);
	event_free(d->ev_int);
	event_free(d->ev_hup);
	event_free(d->ev_chld);
	event_base_free(d->base);
	store_close(d->st);
	if (d->git_ready)
		git_libgit2_shutdown();
	if (d->start_cfg != d->cfg)
		config_free(d->start_cfg);
	config_free(d->cfg);
	free(daemon_conf_text);
	free(d->state_dir);
	free(d->socket_path);
	free(d->db_path);
	free(d->run_conf);
	free(d->perfwatch);
	free(d->conf_path);
	close(d->lock_fd);
	return d->exit_status;
}
