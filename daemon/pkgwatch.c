/*
 * Machine changes that call for a run: the package database, and a new
 * kernel at start.
 *
 * Packages.  The database of the machine's package manager is watched
 * (the same one sysinfo reads: dpkg's status file and its updates/
 * journal in dpkg_admin_dir, else pacman's local directory, else rpm's
 * database; pkg's local.sqlite on FreeBSD) with inotify on Linux,
 * kqueue on FreeBSD, and a stat() poll every PKG_POLL seconds where
 * neither can be had.  Every change restarts the settle timer
 * ([triggers] package_settle), so that a whole upgrade is one trigger.
 * With inotify, a watched directory gone (removed, moved away) is
 * watched again when it is back at its path: at once if it is, else
 * looked for every package_settle or PKG_POLL, whichever is sooner.
 * When the settle timer expires, a child reads the package list
 * (sysinfo_packages_read(), which may run rpm or pkg) and the daemon
 * diffs it against the list read at start or after the last change; the
 * run's detail is the diff's summary.  A database rewritten without a
 * package changing does not call for a run.  The run is asked for with
 * the time of the last change seen: a battery that started after it and
 * measured (see below) has the change in its snapshot, and the run,
 * queued while that battery ran, is dropped when it ends
 * (work_want_change()).  dpkg_admin_dir's status file missing at start
 * is waited for (pkg_absent): the list read once it is there is the one
 * to diff against, as the one read at start is.
 *
 * Packages changed while the daemon was down (an upgrade with it
 * stopped, or the upgrade that restarted it) are found at start: when
 * the list then differs from the packages of this host's last run that
 * measured (complete, on a quiet machine), that is a change, which
 * settles as any other, and the run's detail is the diff against that
 * run, read again when the change has settled, so that a run since the
 * start that measured them (the schedule's catch-up) leaves none to do.
 *
 * Kernel.  At start, if the running kernel is not the one of this host's
 * last run that measured (else its last run with a snapshot), a run is
 * asked for once the machine has been up for [triggers] boot_settle,
 * unless a run since (the schedule's catch-up, one by hand) has
 * measured the running kernel by then, complete and on a quiet machine;
 * one still running then drops the kernel run when it has measured.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif
#ifdef __FreeBSD__
#include <sys/event.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "store/store.h"
#include "sysinfo/sysinfo.h"
#include "daemon.h"

#define PKG_POLL	60	/* seconds between stat() polls */
#define PKG_SUMMARY	8	/* changes named in the detail */
#define PKG_MAX_WATCH	3

/* What is watched: a directory, and the names in it that matter. */
struct pkg_watch {
	char		*dir;
	const char	*names[4];	/* NULL-terminated; none: any name */
	char		*file;		/* kqueue: the file itself */
	int		 wd;		/* inotify's watch, -1: none now */
	int		 optional;	/* not there: none, nothing said */
};

static struct pkg_watch	pkg_watches[PKG_MAX_WATCH];
static size_t		pkg_nwatches;
static const char	*pkg_manager = "none";
static int		pkg_phase_after;	/* the read is after a change */
static int		pkg_check_last;		/* at start: against the last run */
static int		pkg_since_run;		/* the change is since that run */
static int		pkg_absent;	/* dpkg_admin_dir's status not there yet */
static int		pkg_phase_first;	/* the read is its first list */
static double		pkg_seen;	/* the last change seen (mono) */
static double		kernel_seen;	/* the new kernel found */
#ifdef __linux__
static struct event	*pkg_retry;	/* looks for a directory gone */
#endif
#ifdef __FreeBSD__
static int		pkg_kq_fds[2 * PKG_MAX_WATCH];
static size_t		pkg_nkq_fds;
static int		pkg_kq_missing;	/* a file was not there to open */
#endif

static void	pkgwatch_read_start(struct daemon *);
static struct snapshot *last_run_snapshot(struct daemon *, int);

/* Add a directory to watch, with the names of interest (NULL: any). */
static struct pkg_watch *
pkg_add(const char *dir, const char *n1, const char *n2, const char *n3)
{
	struct pkg_watch	*w = &pkg_watches[pkg_nwatches++];

	w->dir = xstrdup(dir);
	w->names[0] = n1;
	w->names[1] = n2;
	w->names[2] = n3;
	w->names[3] = NULL;
	if (n1 != NULL)
		xasprintf(&w->file, "%s/%s", dir, n1);
	return w;
}

static int
path_exists(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0;
}

/*
 * Watch dpkg's status file in the admin directory dpkg, and its journal:
 * dpkg records each package it changes in updates/NNNN and folds them
 * into status only now and then, and sysinfo reads both.  The updates
 * directory may be missing (made by dpkg when it needs it): its name in
 * dpkg is watched too, so that it is watched once it is made.
 */
static void
pkg_watch_dpkg(const char *dpkg)
{
	char	*updates;

	pkg_manager = "dpkg";
	pkg_add(dpkg, "status", "updates", NULL);
	xasprintf(&updates, "%s/updates", dpkg);
	pkg_add(updates, NULL, NULL, NULL)->optional = 1;
	free(updates);
}

/*
 * Choose what to watch, as sysinfo chooses what to read; with
 * dpkg_admin_dir set, dpkg's database there, watched for while it has no
 * status file (said once, with complain): return -1 then, else 0.  An
 * empty dpkg database (an rpm or pacman system's dpkg tool) is watched
 * only when there is nothing else.
 */
static int
pkg_choose(struct daemon *d, int complain)
{
	const char	*dpkg;
	char		*path;
	int		 err, set, have;

	dpkg = config_get_str(d->cfg, "triggers", "dpkg_admin_dir");
	set = config_is_set(d->cfg, "triggers", "dpkg_admin_dir");
	xasprintf(&path, "%s/status", dpkg);
	have = path_exists(path);
	err = errno;
	if (have && (set || sysinfo_dpkg_in_use(dpkg))) {
		free(path);
		pkg_watch_dpkg(dpkg);
		return 0;
	}
	if (set) {
		/*
		 * Not there yet (a chroot or a restore still being made):
		 * its directory is watched, or looked for as one gone is,
		 * so that the trigger starts once the file is there.
		 */
		if (complain)
			log_warnx("packages: %s: %s (dpkg_admin_dir); watching "
			    "for it", path, strerror(err));
		free(path);
		pkg_watch_dpkg(dpkg);
		return -1;
	}
	free(path);
#ifdef __FreeBSD__
	if (path_exists("/var/db/pkg/local.sqlite")) {
		pkg_manager = "pkg";
		pkg_add("/var/db/pkg", "local.sqlite", NULL, NULL);
		return 0;
	}
#else
	if (path_exists("/var/lib/pacman/local")) {
		pkg_manager = "pacman";
		pkg_add("/var/lib/pacman/local", NULL, NULL, NULL);
		return 0;
	}
	if (path_exists("/var/lib/rpm/rpmdb.sqlite") ||
	    path_exists("/var/lib/rpm/Packages") ||
	    path_exists("/var/lib/rpm/Packages.db")) {
		pkg_manager = "rpm";
		pkg_add("/var/lib/rpm", "rpmdb.sqlite", "Packages",
		    "Packages.db");
		return 0;
	}
	if (path_exists("/usr/lib/sysimage/rpm")) {
		pkg_manager = "rpm";
		pkg_add("/usr/lib/sysimage/rpm", "rpmdb.sqlite", "Packages",
		    "Packages.db");
		return 0;
	}
#endif
	if (have)
		pkg_watch_dpkg(dpkg);
	else
		pkg_manager = "none";
	return 0;
}

/* Whether a name in a watched directory matters. */
static int
pkg_name_matters(const struct pkg_watch *w, const char *name)
{
	size_t	i;

	if (w->names[0] == NULL)
		return 1;
	for (i = 0; w->names[i] != NULL; i++)
		if (strcmp(w->names[i], name) == 0)
			return 1;
	return 0;
}

/* The database changed: (re)start the settle timer. */
static void
pkg_changed(struct daemon *d, const char *what)
{
	struct timeval	tv = { 0, 0 };
	int64_t		settle;

	/*
	 * The list read once this settles has the changes made by now: a
	 * battery that starts after this has them in its snapshot, and the
	 * run asked for them is then dropped (work_want_change()).
	 */
	pkg_seen = perfwatch_mono();
	settle = config_get_duration(d->cfg, "triggers", "package_settle");
	if (!d->pkg_changed && pkg_absent)
		log_info("packages: %s changed; reading it once it has been "
		    "still for %llds", what, (long long)settle);
	else if (!d->pkg_changed)
		log_info("packages: %s changed; running once it has been "
		    "still for %llds", what, (long long)settle);
	else
		log_debug("packages: %s changed again", what);
	d->pkg_changed = 1;
	tv.tv_sec = (time_t)settle;
	evtimer_add(d->pkg_settle, &tv);
}

#ifdef __linux__
#define PKG_INOTIFY_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | \
	IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVE_SELF | IN_DELETE_SELF | \
	IN_ONLYDIR)

/*
 * How often a directory gone is looked for: every package_settle, from
 * 1 s to PKG_POLL.
 */
static time_t
pkg_retry_seconds(const struct daemon *d)
{
	int64_t	settle;

	settle = config_get_duration(d->cfg, "triggers", "package_settle");
	return (time_t)(settle < 1 ? 1 : settle > PKG_POLL ? PKG_POLL : settle);
}

/*
 * Watch again each directory whose watch is gone (it was moved away or
 * removed), at its path; with complain, say which cannot be.  Return
 * the last one watched again, or NULL.
 */
static struct pkg_watch *
pkg_inotify_rewatch(struct daemon *d, int complain)
{
	struct pkg_watch	*back = NULL;
	size_t			 i;

	for (i = 0; i < pkg_nwatches; i++) {
		if (pkg_watches[i].wd != -1)
			continue;
		pkg_watches[i].wd = inotify_add_watch(d->pkg_fd,
		    pkg_watches[i].dir, PKG_INOTIFY_MASK);
		if (pkg_watches[i].wd == -1 && complain &&
		    !pkg_watches[i].optional)
			log_warn("packages: %s is gone; looking for it every "
			    "%llds", pkg_watches[i].dir,
			    (long long)pkg_retry_seconds(d));
		else if (pkg_watches[i].wd != -1) {
			log_info("packages: watching %s again",
			    pkg_watches[i].dir);
			back = &pkg_watches[i];
		}
	}
	return back;
}

/*
 * Look for the directories gone again later, if there are any; an
 * optional one is seen made in the directory above it.
 */
static void
pkg_inotify_retry_arm(struct daemon *d)
{
	struct timeval	tv = { 0, 0 };
	size_t		i;

	for (i = 0; i < pkg_nwatches; i++) {
		if (pkg_watches[i].wd == -1 && !pkg_watches[i].optional) {
			tv.tv_sec = pkg_retry_seconds(d);
			evtimer_add(pkg_retry, &tv);
			return;
		}
	}
}

/*
 * A directory gone for longer than package_settle: watch it once it is
 * back at its path, and read the list then, as after any change (it
 * may come back from a backup, or with an upgrade made meanwhile).
 */
static void
pkg_inotify_retry(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon		*d = arg;
	struct pkg_watch	*back;

	(void)fd;
	(void)ev;
	if ((back = pkg_inotify_rewatch(d, 0)) != NULL)
		pkg_changed(d, back->dir);
	pkg_inotify_retry_arm(d);
}

/* The watched directory of an inotify watch, or NULL. */
static struct pkg_watch *
pkg_inotify_watch(int wd)
{
	size_t	i;

	for (i = 0; i < pkg_nwatches; i++)
		if (pkg_watches[i].wd == wd)
			return &pkg_watches[i];
	return NULL;
}

/*
 * A watched directory gone: the watches of directories in it are of
 * what moved away with it (or went with it), no longer at their paths.
 */
static void
pkg_inotify_drop_under(int fd, const struct pkg_watch *w)
{
	size_t	i, len = strlen(w->dir);

	for (i = 0; i < pkg_nwatches; i++) {
		if (pkg_watches[i].wd == -1 ||
		    strncmp(pkg_watches[i].dir, w->dir, len) != 0 ||
		    pkg_watches[i].dir[len] != '/')
			continue;
		inotify_rm_watch(fd, pkg_watches[i].wd);
		pkg_watches[i].wd = -1;
	}
}

/*
 * inotify: read the events, note a change if one matters.  A watched
 * directory moved away or removed is a change, and the directory then at
 * its path is watched instead (rpm --rebuilddb renames the old database
 * directory away and a new one into its place).
 */
static void
pkg_inotify_read(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon			*d = arg;
	char				 buf[8192]
					    __attribute__((aligned(8)));
	const struct inotify_event	*ie;
	struct pkg_watch		*w;
	ssize_t				 n;
	size_t				 off;
	const char			*hit = NULL;
	int				 gone = 0;

	(void)ev;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (off = 0; off + sizeof(*ie) <= (size_t)n;
		    off += sizeof(*ie) + ie->len) {
			ie = (const struct inotify_event *)(buf + off);
			if (ie->mask & IN_Q_OVERFLOW) {
				hit = "the package database";
				continue;
			}
			/* A watch given up already says nothing more. */
			if ((w = pkg_inotify_watch(ie->wd)) == NULL)
				continue;
			if (ie->mask & (IN_MOVE_SELF | IN_DELETE_SELF |
			    IN_IGNORED)) {
				if (ie->mask & IN_MOVE_SELF)
					inotify_rm_watch(fd, w->wd);
				w->wd = -1;
				pkg_inotify_drop_under(fd, w);
				hit = w->dir;
				gone = 1;
				continue;
			}
			if (ie->len > 0 && pkg_name_matters(w, ie->name))
				hit = w->dir;
		}
	}
	/*
	 * Not there yet (between two renames): again once it settles.  A
	 * change may be an optional directory made (dpkg's updates).
	 */
	if (gone || hit != NULL)
		pkg_inotify_rewatch(d, 0);
	if (hit != NULL)
		pkg_changed(d, hit);
}

static int
pkg_inotify_start(struct daemon *d)
{
	size_t	i;
	int	fd;

	if ((fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1) {
		log_warn("packages: inotify_init1");
		return -1;
	}
	for (i = 0; i < pkg_nwatches; i++) {
		if ((pkg_watches[i].wd = inotify_add_watch(fd,
		    pkg_watches[i].dir, PKG_INOTIFY_MASK)) == -1) {
			/*
			 * Gone for the moment (a reload while it is moved
			 * away): looked for, as one gone while watched is.
			 */
			if (errno == ENOENT) {
				if (!pkg_watches[i].optional)
					log_warn("packages: %s is not there; "
					    "looking for it every %llds",
					    pkg_watches[i].dir,
					    (long long)pkg_retry_seconds(d));
				continue;
			}
			log_warn("packages: inotify_add_watch %s",
			    pkg_watches[i].dir);
			close(fd);
			return -1;
		}
	}
	d->pkg_fd = fd;
	d->pkg_event = event_new(d->base, fd, EV_READ | EV_PERSIST,
	    pkg_inotify_read, d);
	event_add(d->pkg_event, NULL);
	pkg_retry = evtimer_new(d->base, pkg_inotify_retry, d);
	pkg_inotify_retry_arm(d);
	return 0;
}
#endif /* __linux__ */

#ifdef __FreeBSD__
/*
 * kqueue: (re)open the directory and the file and register them.  A file
 * not there (caught between the removal of the old one and the rename of
 * the new one) is noted: the directory's event for the new name then
 * registers it, where it would otherwise be left unwatched for good.
 */
static int
pkg_kqueue_register(struct daemon *d)
{
	struct kevent	kev;
	size_t		i;
	int		fd;

	while (pkg_nkq_fds > 0)
		close(pkg_kq_fds[--pkg_nkq_fds]);
	pkg_kq_missing = 0;
	for (i = 0; i < pkg_nwatches; i++) {
		const char *paths[2] = { pkg_watches[i].dir,
		    pkg_watches[i].file };
		size_t k;

		for (k = 0; k < 2; k++) {
			if (paths[k] == NULL)
				continue;
			fd = open(paths[k], O_RDONLY | O_CLOEXEC);
			if (fd == -1) {
				/*
				 * The file may be being replaced; an optional
				 * directory may be made later.
				 */
				if (k == 1 || pkg_watches[i].optional)
					pkg_kq_missing = 1;
				continue;
			}
			EV_SET(&kev, fd, EVFILT_VNODE, EV_ADD | EV_CLEAR,
			    NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE |
			    NOTE_RENAME | NOTE_ATTRIB, 0, NULL);
			if (kevent(d->pkg_fd, &kev, 1, NULL, 0, NULL) == -1) {
				log_warn("packages: kevent %s", paths[k]);
				close(fd);
				continue;
			}
			pkg_kq_fds[pkg_nkq_fds++] = fd;
		}
	}
	return pkg_nkq_fds > 0 ? 0 : -1;
}

static void
pkg_kqueue_read(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	struct kevent	 kevs[8];
	struct timespec	 zero = { 0, 0 };
	int		 n, i, replaced = 0;

	(void)ev;
	n = kevent(fd, NULL, 0, kevs, 8, &zero);
	for (i = 0; i < n; i++)
		if (kevs[i].fflags & (NOTE_DELETE | NOTE_RENAME))
			replaced = 1;
	if (replaced || pkg_kq_missing)
		pkg_kqueue_register(d);
	if (n > 0)
		pkg_changed(d, pkg_watches[0].dir);
}

static int
pkg_kqueue_start(struct daemon *d)
{
	if ((d->pkg_fd = kqueue()) == -1) {
		log_warn("packages: kqueue");
		return -1;
	}
	if (pkg_kqueue_register(d) == -1) {
		close(d->pkg_fd);
		d->pkg_fd = -1;
		return -1;
	}
	d->pkg_event = event_new(d->base, d->pkg_fd, EV_READ | EV_PERSIST,
	    pkg_kqueue_read, d);
	event_add(d->pkg_event, NULL);
	return 0;
}
#endif /* __FreeBSD__ */

/* Append what a stat() of path says to *out. */
static void
pkg_stamp_add(char **out, const char *path)
{
	struct stat	 st;
	char		*tmp;

	if (stat(path, &st) == -1)
		xasprintf(&tmp, "%s%s:-;", *out, path);
	else
		xasprintf(&tmp, "%s%s:%lld.%09ld:%lld:%llu;", *out, path,
		    (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
		    (long long)st.st_size, (unsigned long long)st.st_ino);
	free(*out);
	*out = tmp;
}

/*
 * What a stat() of the watched paths says, to compare poll to poll: each
 * name of interest in a directory (rpm's database is one of three, by
 * its backend), or the directory itself.
 */
static char *
pkg_stamp(void)
{
	const struct pkg_watch	*w;
	char			*out = xstrdup(""), *path;
	size_t			 i, k;

	for (i = 0; i < pkg_nwatches; i++) {
		w = &pkg_watches[i];
		if (w->names[0] == NULL) {
			pkg_stamp_add(&out, w->dir);
			continue;
		}
		for (k = 0; w->names[k] != NULL; k++) {
			xasprintf(&path, "%s/%s", w->dir, w->names[k]);
			pkg_stamp_add(&out, path);
			free(path);
		}
	}
	return out;
}

static void
pkg_poll(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	char		*now = pkg_stamp();

	(void)fd;
	(void)ev;
	if (d->pkg_stamp != NULL && strcmp(now, d->pkg_stamp) != 0)
		pkg_changed(d, pkg_watches[0].dir);
	free(d->pkg_stamp);
	d->pkg_stamp = now;
}

static int
pkg_poll_start(struct daemon *d)
{
	struct timeval	tv = { PKG_POLL, 0 };

	d->pkg_stamp = pkg_stamp();
	d->pkg_event = event_new(d->base, -1, EV_PERSIST, pkg_poll, d);
	event_add(d->pkg_event, &tv);
	log_info("packages: polling every %d s", PKG_POLL);
	return 0;
}

/* In the child: write the package list as JSON to stdout. */
static int
pkgwatch_read(void *arg)
{
	struct daemon		*d = arg;
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	json_t			*j;
	char			*cause = NULL;
	int			 rc;

	sysinfo_opts_init(&o);
	o.dpkg_admindir = config_get_str(d->cfg, "triggers",
	    "dpkg_admin_dir");
	/*
	 * The manager watched, not the one found now: a database missing for
	 * a moment is a list that cannot be read, not an empty one of
	 * another manager (every package removed).
	 */
	if (sysinfo_pkgmgr_parse(pkg_manager, &o.pkgmgr) == -1)
		o.pkgmgr = SYSINFO_PKG_AUTO;
	s = sysinfo_snapshot_new();
	if (sysinfo_packages_read(s, &o, &cause) == -1) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		sysinfo_snapshot_free(s);
		return -1;
	}
	j = sysinfo_snapshot_json(s, SYSINFO_ALL);
	rc = json_dumpf(j, stdout, JSON_COMPACT);
	json_decref(j);
	sysinfo_snapshot_free(s);
	return rc;
}

/*
 * The summary of what packages changed from before to now, or NULL when
 * none did (the fields a full snapshot has beside them do not count).
 */
static char *
pkg_changes(const struct snapshot *before, const struct snapshot *now)
{
	struct snapshot_diff	*diff, pk;
	char			*summary = NULL;

	diff = sysinfo_diff(before, now);
	if (diff->nchanges > diff->nfields) {
		pk = *diff;
		pk.changes += diff->nfields;
		pk.nchanges -= diff->nfields;
		pk.nfields = 0;
		summary = sysinfo_diff_summary(&pk, PKG_SUMMARY);
	}
	sysinfo_diff_free(diff);
	return summary;
}

/*
 * At start: whether the packages differ from those of this host's last
 * run that measured; if so, a change to settle before its run.
 */
static void
pkg_against_last_run(struct daemon *d)
{
	struct snapshot	*last;
	struct timeval	 tv = { 0, 0 };
	char		*summary;

	if ((last = last_run_snapshot(d, 1)) == NULL)
		return;
	summary = last->npackages > 0 ? pkg_changes(last, d->pkg_before) :
	    NULL;
	sysinfo_snapshot_free(last);
	if (summary == NULL)
		return;
	tv.tv_sec = (time_t)config_get_duration(d->cfg, "triggers",
	    "package_settle");
	log_info("packages: %s: %s since the last run; running once it has "
	    "been still for %llds", pkg_manager, summary,
	    (long long)tv.tv_sec);
	free(summary);
	pkg_since_run = 1;
	pkg_seen = perfwatch_mono();
	d->pkg_changed = 1;
	evtimer_add(d->pkg_settle, &tv);
}

/* The list arrived: keep it, or diff it and ask for a run. */
static void
pkgwatch_read_done(struct job *j, void *arg)
{
	struct daemon		*d = arg;
	struct snapshot		*now = NULL, *last;
	const char		*out;
	char			*cause = NULL, *summary, *detail;
	size_t			 n;
	int			 after = pkg_phase_after;
	int			 first = pkg_phase_first;

	d->pkg_job = NULL;
	out = job_output(j, &n);
	if (job_status(j) != 0 || job_truncated(j) ||
	    (now = sysinfo_snapshot_load(out, &cause)) == NULL) {
		if (cause == NULL)
			cause = job_tail(j);	/* what the child said */
		log_warnx("packages: cannot read the package list%s%s",
		    cause != NULL ? ": " : "", cause != NULL ? cause : "");
		free(cause);
	}
	if (first) {
		/*
		 * The status file missing at start is there: the list to
		 * compare with, not a change, as there is none before it.
		 * Not read, it is still waited for.
		 */
		if (now != NULL) {
			log_info("packages: %s is there; the list to "
			    "compare with", pkg_watches[0].file);
			log_debug("packages: %zu packages (%s)",
			    now->npackages, pkg_manager);
			pkg_absent = 0;
			sysinfo_snapshot_free(d->pkg_before);
			d->pkg_before = now;
		}
	} else if (!after) {
		sysinfo_snapshot_free(d->pkg_before);
		d->pkg_before = now;
		if (now != NULL)
			log_debug("packages: %zu packages (%s)",
			    now->npackages, pkg_manager);
		if (now != NULL && pkg_check_last && !d->stopping)
			pkg_against_last_run(d);
		pkg_check_last = 0;
	} else if (now != NULL && pkg_since_run) {
		/* Against the last run that measured, as it is now. */
		pkg_since_run = 0;
		last = last_run_snapshot(d, 1);
		summary = last != NULL ? pkg_changes(last, now) : NULL;
		if (last != NULL && summary == NULL)
			log_info("packages: a run since the start measured "
			    "these packages; no package run");
		else if (!d->stopping) {
			if (summary == NULL)
				summary = pkg_changes(d->pkg_before, now);
			xasprintf(&detail, "%s: %s", pkg_manager,
			    summary != NULL ? summary :
			    "changed since the last run");
			work_want_change(d, "package", detail, pkg_seen);
			free(detail);
		}
		free(summary);
		sysinfo_snapshot_free(last);
		sysinfo_snapshot_free(d->pkg_before);
		d->pkg_before = now;
	} else if (now == NULL) {
		if (!d->stopping)
			work_want_run(d, "package", "the package database "
			    "changed (the new list could not be read)", NULL,
			    0, NULL, NULL);
	} else if (d->pkg_before == NULL) {
		if (!d->stopping)
			work_want_run(d, "package", "the package database "
			    "changed (no earlier list to compare)", NULL, 0,
			    NULL, NULL);
		d->pkg_before = now;
	} else {
		if ((summary = pkg_changes(d->pkg_before, now)) == NULL) {
			log_info("packages: the database was rewritten; no "
			    "package changed, no run");
		} else {
			xasprintf(&detail, "%s: %s", pkg_manager, summary);
			if (!d->stopping)
				work_want_change(d, "package", detail,
				    pkg_seen);
			free(summary);
			free(detail);
		}
		sysinfo_snapshot_free(d->pkg_before);
		d->pkg_before = now;
	}
	if (after || first)
		d->pkg_changed = 0;
#ifdef __GLIBC__
	/* Parsing the list's JSON grew the heap; give it back while idle. */
	malloc_trim(0);
#endif
	if (d->pkg_reread && !d->stopping) {
		d->pkg_reread = 0;
		pkgwatch_read_start(d);
	}
	if (d->stopping)
		daemon_exit_if_done(d);
}

/* Start a child reading the package list. */
static void
pkgwatch_read_start(struct daemon *d)
{
	if (d->pkg_job != NULL) {
		d->pkg_reread = 1;
		return;
	}
	pkg_phase_first = pkg_absent;
	pkg_phase_after = !pkg_absent &&
	    (d->pkg_before != NULL || d->pkg_changed);
	d->pkg_job = job_fork(d, "package list", pkgwatch_read, d,
	    pkgwatch_read_done, d);
	if (d->pkg_job == NULL)
		log_warnx("packages: cannot start reading the package list");
}

static void
pkg_settled(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
#ifdef __linux__
	if (d->pkg_event != NULL && d->pkg_fd != -1) {
		pkg_inotify_rewatch(d, pkg_absent == 0);
		pkg_inotify_retry_arm(d);
	}
#endif
	/* Still waited for: its directory made, say, but no status yet. */
	if (pkg_absent && !path_exists(pkg_watches[0].file)) {
		log_debug("packages: %s is not there yet",
		    pkg_watches[0].file);
		d->pkg_changed = 0;
		return;
	}
	log_info("packages: the database has settled; reading it");
	pkgwatch_read_start(d);
}

/* Watch the chosen paths: inotify or kqueue, else the stat() poll. */
static void
pkgwatch_watch(struct daemon *d)
{
	int	rc = -1;

#ifdef __linux__
	rc = pkg_inotify_start(d);
#elif defined(__FreeBSD__)
	rc = pkg_kqueue_start(d);
#endif
	if (rc == -1)
		pkg_poll_start(d);
	log_info("packages: watching %s (%s)", pkg_watches[0].dir,
	    pkg_manager);
}

/* Stop watching the database; what was read and what settles stays. */
static void
pkgwatch_unwatch(struct daemon *d)
{
	size_t	i;

	if (d->pkg_event != NULL) {
		event_free(d->pkg_event);
		d->pkg_event = NULL;
	}
	if (d->pkg_fd != -1) {
		close(d->pkg_fd);
		d->pkg_fd = -1;
	}
#ifdef __linux__
	if (pkg_retry != NULL) {
		event_free(pkg_retry);
		pkg_retry = NULL;
	}
#endif
#ifdef __FreeBSD__
	while (pkg_nkq_fds > 0)
		close(pkg_kq_fds[--pkg_nkq_fds]);
#endif
	for (i = 0; i < pkg_nwatches; i++) {
		free(pkg_watches[i].dir);
		free(pkg_watches[i].file);
	}
	memset(pkg_watches, 0, sizeof(pkg_watches));
	pkg_nwatches = 0;
	free(d->pkg_stamp);
	d->pkg_stamp = NULL;
}

/* Watch the package database if [triggers] packages says so. */
void
pkgwatch_start(struct daemon *d)
{
	d->pkg_fd = -1;
	if (!config_get_bool(d->cfg, "triggers", "packages"))
		return;
	pkg_absent = pkg_choose(d, 1) == -1;
	if (pkg_nwatches == 0) {
		if (!config_is_set(d->cfg, "triggers", "dpkg_admin_dir"))
			log_info("packages: no package database found; not "
			    "watched");
		return;
	}
	d->pkg_settle = evtimer_new(d->base, pkg_settled, d);
	pkgwatch_watch(d);
	/* Nothing to read yet: the first list is read once it is there. */
	if (pkg_absent)
		return;
	/* The list before any change, to diff against. */
	pkg_phase_after = 0;
	pkg_check_last = d->starting;
	pkg_since_run = 0;
	d->pkg_job = job_fork(d, "package list", pkgwatch_read, d,
	    pkgwatch_read_done, d);
}

/*
 * SIGHUP: watch as the new configuration says.  While it is the same
 * database, the list read before a change, a change still settling and a
 * read in progress are kept: an upgrade that a reload interrupts still
 * gets its run, diffed against the list from before it.  A change still
 * settling waits a new package_settle from now.
 */
void
pkgwatch_reload(struct daemon *d, const struct config *old)
{
	struct timeval	 tv = { 0, 0 };
	int64_t		 settle;

	char		*was = NULL;

	if (pkg_nwatches > 0)
		was = xstrdup(pkg_watches[0].dir);
	pkgwatch_unwatch(d);
	if (was != NULL && config_get_bool(d->cfg, "triggers", "packages")) {
		/*
		 * dpkg's database at dpkg_admin_dir, gone for the moment (moved
		 * away while a backup is put back), is the same database,
		 * looked for as before, compared with the list from before
		 * it went (pkg_absent is as it was).
		 */
		(void)pkg_choose(d, 0);
		if (pkg_nwatches > 0 && strcmp(was, pkg_watches[0].dir) == 0) {
			pkgwatch_watch(d);
			settle = config_get_duration(d->cfg, "triggers",
			    "package_settle");
			if (d->pkg_changed && evtimer_pending(d->pkg_settle,
			    NULL) && settle != config_get_duration(old,
			    "triggers", "package_settle")) {
				log_info("packages: a change is still "
				    "settling; running once it has been still "
				    "for %llds", (long long)settle);
				tv.tv_sec = (time_t)settle;
				evtimer_add(d->pkg_settle, &tv);
			} else if (d->pkg_changed)
				log_info("packages: a change is still settling");
			free(was);
			return;
		}
		pkgwatch_unwatch(d);
	}
	free(was);
	/* Another database, or none: start afresh. */
	pkgwatch_stop(d);
	pkgwatch_start(d);
}

void
pkgwatch_stop(struct daemon *d)
{
	pkgwatch_unwatch(d);
	if (d->pkg_settle != NULL) {
		event_free(d->pkg_settle);
		d->pkg_settle = NULL;
	}
	if (d->pkg_job != NULL) {
		job_forget(d->pkg_job);
		d->pkg_job = NULL;
	}
	sysinfo_snapshot_free(d->pkg_before);
	d->pkg_before = NULL;
	d->pkg_changed = d->pkg_reread = 0;
	pkg_absent = 0;
}

/* Seconds since boot. */
static int64_t
kernel_uptime(void)
{
	struct timespec	ts;

#if defined(CLOCK_BOOTTIME)
	if (clock_gettime(CLOCK_BOOTTIME, &ts) == 0)
		return ts.tv_sec;
#elif defined(CLOCK_UPTIME)
	if (clock_gettime(CLOCK_UPTIME, &ts) == 0)
		return ts.tv_sec;
#endif
	if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		return ts.tv_sec;
	return 0;
}

/*
 * The id of this host's last run that measured the battery (see
 * last_run_snapshot()): 0 and *id, or -1 if there is none.
 */
static int
last_measured_run(struct daemon *d, int64_t *id)
{
	char	*cause = NULL, **names = NULL;
	size_t	 nnames = 0;
	int	 rc;

	/* No battery to be had: the last run that measured. */
	if (daemon_workloads(d->cfg, d->conf_path, &names, &nnames,
	    &cause) == -1) {
		log_debug("the battery: %s", cause);
		free(cause);
	}
	rc = store_run_last_covering(d->st, d->host,
	    (const char *const *)names, nnames, id);
	daemon_workloads_free(names, nnames);
	return rc;
}

/*
 * Whether run label of this host is its last run that measured the
 * battery, as a start judges a package change or a kernel measured
 * (last_run_snapshot(d, 1)): complete, on a quiet machine, of the
 * battery's workloads.
 */
int
pkgwatch_run_measured(struct daemon *d, const char *label)
{
	int64_t	id, last;

	if (store_run_lookup(d->st, d->host, label, &id) == -1 ||
	    last_measured_run(d, &last) == -1)
		return 0;
	return id == last;
}

/*
 * The snapshot of this host's last run that has one; with measured, of
 * its last complete run not measured on a busy machine that ran the
 * whole battery, of the battery's workloads that some such run of the
 * host has measured (store_run_last_covering()).  A battery of some
 * workloads (a watched tree's, a rerun of suspected ones, perfwatch run
 * --workload) has not measured the others on the new packages or
 * kernel: one made while a package change settled counted as the
 * package run, which then never came.  A workload just added has no
 * run, and is not asked for: no run counted then, and packages upgraded
 * while the daemon was down were compared with nothing.  NULL if none.
 */
static struct snapshot *
last_run_snapshot(struct daemon *d, int measured)
{
	struct store_run_filter	 f;
	struct store_run	*runs = NULL, r;
	struct snapshot		*s = NULL;
	char			*cause = NULL;
	size_t			 n = 0, i;
	int64_t			 id = 0;

	if (measured) {
		if (last_measured_run(d, &id) == -1 ||
		    store_run_get(d->st, id, &r) == -1)
			return NULL;
		if (r.snapshot > 0 && (s = store_snapshot_get(d->st,
		    r.snapshot, &cause)) == NULL) {
			log_warnx("the last run's snapshot: %s", cause);
			free(cause);
		}
		store_run_clear(&r);
		return s;
	}
	memset(&f, 0, sizeof(f));
	f.host = daemon_host_name();
	f.limit = 20;
	if (store_runs_list(d->st, &f, &runs, &n) == -1)
		return NULL;
	for (i = n; i > 0; i--) {
		if (runs[i - 1].snapshot <= 0)
			continue;
		if ((s = store_snapshot_get(d->st, runs[i - 1].snapshot,
		    &cause)) == NULL) {
			log_warnx("the last run's snapshot: %s", cause);
			free(cause);
		}
		break;
	}
	store_runs_free(runs, n);
	return s;
}

/* Blank runs as one space, none at the ends, in place. */
static char *
kernel_squeeze(char *v)
{
	char	*r, *w;
	int	 blank = 0;

	for (r = w = v; *r != '\0'; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			blank = 1;
			continue;
		}
		if (blank && w != v)
			*w++ = ' ';
		blank = 0;
		*w++ = *r;
	}
	*w = '\0';
	return v;
}

/*
 * Whether two kernel build strings, blanks squeezed, are one build: equal,
 * or one the other's start up to a blank, or now's whole length when
 * uname cut it short (cut).  FreeBSD's snapshot keeps the
 * first line of kern.version where uname(3) gives all of it, its
 * newlines made blanks ("... 2023" against "... 2023 root@host:/usr/obj
 * ..."), and cuts a long one short at its buffer; Linux's two are equal.
 */
static int
kernel_version_same(const char *was, const char *now, int cut)
{
	size_t	lw = strlen(was), ln = strlen(now);

	if (lw == ln)
		return strcmp(was, now) == 0;
	if (lw < ln)
		return strncmp(was, now, lw) == 0 && now[lw] == ' ';
	/* Now the shorter: cut short by uname's buffer (cut), or at a word. */
	return strncmp(was, now, ln) == 0 && (cut || was[ln] == ' ');
}

/*
 * Whether the kernel of last_run_snapshot(d, measured) is not the running
 * one: its release, and its build (uname -v, a kernel built again with
 * the same release) when the snapshot has it, as far as uname's buffer
 * holds it (FreeBSD cuts a long kern.version short).  1 with *detail
 * ("kernel OLD → NEW", with the builds when only they differ), 0 if the
 * same, -1 if there is no such run or no kernel to compare.
 */
static int
kernel_differs(struct daemon *d, int measured, const struct utsname *u,
    char **detail)
{
	struct snapshot	*s;
	const char	*rel, *ver;
	char		*was = NULL, *now;
	int		 rc = -1;

	*detail = NULL;
	if ((s = last_run_snapshot(d, measured)) == NULL)
		return -1;
	if ((rel = sysinfo_snapshot_get(s, "kernel.release")) != NULL) {
		now = kernel_squeeze(xstrdup(u->version));
		if ((ver = sysinfo_snapshot_get(s, "kernel.version")) != NULL)
			was = kernel_squeeze(xstrdup(ver));
		if (strcmp(rel, u->release) != 0) {
			xasprintf(detail, "kernel %s → %s", rel, u->release);
			rc = 1;
		} else if (was != NULL && !kernel_version_same(was, now,
		    strlen(u->version) + 1 >= sizeof(u->version))) {
			xasprintf(detail, "kernel %s (%s) → %s (%s)", rel, was,
			    u->release, now);
			rc = 1;
		} else
			rc = 0;
		free(was);
		free(now);
	}
	sysinfo_snapshot_free(s);
	return rc;
}

/*
 * Whether the running kernel is not the one of this host's last run that
 * measured (complete, on a quiet machine), or of its last run at all if
 * none of the latest did: 1 with *detail, else 0 (the same, no run, or
 * no kernel to compare).  A run on this kernel that did not measure it
 * (the kernel run cut short by a reboot or a stop, a run on a machine
 * busy with its boot) leaves it new, as it does while boot_settle runs.
 */
static int
kernel_moved(struct daemon *d, char **detail)
{
	struct utsname	 u;
	int		 rc;

	*detail = NULL;
	if (uname(&u) == -1) {
		log_warn("uname");
		return 0;
	}
	if ((rc = kernel_differs(d, 1, &u, detail)) == -1)
		rc = kernel_differs(d, 0, &u, detail);
	return rc == 1;
}

/*
 * Up for boot_settle: ask for the run, unless a run since the start (by
 * hand, the schedule's catch-up, a package change) has measured the
 * running kernel already: complete, on a quiet machine.  One still
 * running, or measured on a machine still busy with its boot, does not
 * count.
 */
static void
kernel_settled(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	struct utsname	 u;
	char		*detail = NULL;

	(void)fd;
	(void)ev;
	if (d->kernel_detail == NULL) {
		kernel_stop(d);
		return;
	}
	if (uname(&u) == 0 && kernel_differs(d, 1, &u, &detail) == 0)
		log_info("kernel: a run since the start measured kernel %s; "
		    "no kernel run", u.release);
	else
		work_want_change(d, "kernel", d->kernel_detail, kernel_seen);
	free(detail);
	kernel_stop(d);
}

/* At start: a new kernel since the last run asks for a run. */
void
kernel_check(struct daemon *d)
{
	struct timeval	 tv = { 0, 0 };
	char		*detail;
	int64_t		 settle, up;

	if (!config_get_bool(d->cfg, "triggers", "kernel"))
		return;
	if (!kernel_moved(d, &detail))
		return;
	free(d->kernel_detail);
	d->kernel_detail = detail;
	/* It has run since the boot: a battery from now on measures it. */
	kernel_seen = perfwatch_mono();
	settle = config_get_duration(d->cfg, "triggers", "boot_settle");
	up = kernel_uptime();
	if (up >= settle && d->starting) {
		/* At once: one battery with the other reasons of the start. */
		log_info("%s since the last run", d->kernel_detail);
		work_want_change(d, "kernel", d->kernel_detail, kernel_seen);
		kernel_stop(d);
		return;
	}
	tv.tv_sec = (time_t)(up < settle ? settle - up : 0);
	log_info("%s since the last run; running in %lld s", d->kernel_detail,
	    (long long)tv.tv_sec);
	if (d->kernel_timer == NULL)
		d->kernel_timer = evtimer_new(d->base, kernel_settled, d);
	evtimer_add(d->kernel_timer, &tv);
}

/*
 * SIGHUP: kernel = no drops a kernel run still waiting for boot_settle; a
 * new boot_settle re-arms it; kernel turned on compares the kernel with
 * the last run's as a start would.
 */
void
kernel_reload(struct daemon *d, const struct config *old)
{
	if (!config_get_bool(d->cfg, "triggers", "kernel")) {
		if (d->kernel_timer != NULL)
			log_info("kernel: kernel = no; the run for %s is "
			    "dropped", d->kernel_detail);
		kernel_stop(d);
		return;
	}
	if (!config_get_bool(old, "triggers", "kernel") ||
	    (d->kernel_timer != NULL &&
	    config_get_duration(old, "triggers", "boot_settle") !=
	    config_get_duration(d->cfg, "triggers", "boot_settle")))
		kernel_check(d);
}

void
kernel_stop(struct daemon *d)
{
	if (d->kernel_timer != NULL) {
		event_free(d->kernel_timer);
		d->kernel_timer = NULL;
	}
	free(d->kernel_detail);
	d->kernel_detail = NULL;
}
