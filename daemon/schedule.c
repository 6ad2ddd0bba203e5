/*
 * The schedule: [schedule] cron (local time) or interval, plus a random
 * jitter, and the catch-up of a run missed while the daemon was down.
 *
 * The store's setting "schedule:last" holds the last nominal fire time
 * (epoch seconds, without jitter) that the daemon has accounted for: the
 * last time it fired, or the time it started.  At start, if the schedule
 * had a fire after that time and before now, a run was missed; with
 * catch_up it is run once, at once, however many were missed.  Interval
 * schedules count their periods from that time too.  A reload misses
 * nothing: it keeps the next fire of a schedule it does not change,
 * even one whose nominal time has passed and that waits for its jitter.
 * The time is followed by the schedule it was accounted under ("cron 30
 * 2 * * *", "interval 3600", "none"), and a start whose schedule is
 * another judges what was missed by that one: the fires of a cron
 * expression the file no longer has are not the new one's (a new "0 3"
 * after a last fire at 02:30 is no run missed).  A value of a bare time,
 * from before the schedule was kept with it, is taken as the schedule in
 * force.
 *
 * A run the schedule queued and that has not run yet (the daemon paused,
 * or busy with another battery) is kept in the setting "schedule:queued"
 * too, its detail ("due 2026-12-08 02:30 (cron 30 2 * * *)"), until a
 * battery with it has run (schedule_ran(), from work.c).  A restart that
 * finds it queues it again, whatever catch_up says: it was not missed
 * while the daemon was down, but accepted and then dropped with the
 * queue, and the fires it stands for are accounted for already.  Before,
 * a nightly run that waited for a resume was lost to a restart.
 *
 * A restart misses nothing either when it comes between a run's nominal
 * time and its start with jitter: the armed run's nominal time and
 * start, with the schedule it was armed under, are kept in the setting
 * "schedule:armed" ("1781051400 1781051712 cron 30 2 * * *").  A start
 * that finds its nominal time to be the first fire after the last one
 * accounted for, under the schedule now in force, no fire after it due
 * yet, and its start still to come, keeps that start (cut to a jitter
 * made shorter since, and due at once if that cut puts it before now,
 * as a reload does): the run's time has not come, so nothing was
 * missed.  Before, "schedule:last" alone said that a nominal time had
 * passed unaccounted for: a quick restart (a package upgrade) dropped
 * the night's run as missed, or with catch_up started it at once,
 * without its jitter.  A start that came during the downtime was missed,
 * as before.
 *
 * The timer never sleeps longer than SCHEDULE_MAX_SLEEP: it wakes up,
 * looks at the wall clock and goes back to sleep, so that a suspend or a
 * clock step forward delays a fire by at most that much.  The fire that
 * comes late stands for every one due since, and accounts for them all.
 * A step back (date -s, an NTP step) is seen at the wake-up too: the
 * wall clock reads less than the monotonic clock says has passed since
 * the timer was set.  Left alone, the next fire, worked out on the clock
 * before, would wait for the clock to come back to it: a day late after
 * a step of a day.  So an interval's times are moved back by the step
 * (its periods keep their length in real time), and a cron schedule set
 * back by more than SCHEDULE_MAX_SLEEP is armed again from the time the
 * clock reads now, its fires being readings of the wall clock; a smaller
 * step is waited out, so that a run just started does not start again
 * when the clock reads its time a second time.
 *
 * The time zone.  cron is read in local time, and the C library reads
 * the zone once and keeps it: a daemon that did nothing more would fire
 * on the old zone after the administrator changed it (timedatectl
 * set-timezone replaces the /etc/localtime link) until restarted.  So
 * the file the C library reads the zone from (schedule_tz_file() says
 * which, after tzset(3)) is watched: its directory, for the name being
 * replaced (inotify on Linux, kqueue on FreeBSD), and at each wake-up a
 * stat() of it, which also sees the file the link points to rewritten
 * (a tzdata upgrade) and covers the systems with neither.  When the file
 * is another, the zone is read again (schedule_tz_reload() says how) and
 * a cron schedule's next fire is worked out again in it, from the time
 * the one it replaces was worked out from: a time that the change made
 * the local clock jump over fires at once, as cron.h says of a jump
 * forward, and a run due already that waits for its jitter is left as it
 * is.  A zone file gone (between the removal of a link and its new one)
 * changes nothing.
 */
#include <sys/types.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif
#ifdef __FreeBSD__
#include <sys/event.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "xmalloc.h"
#include "store/store.h"
#include "daemon.h"

#define SCHEDULE_MAX_SLEEP	(15 * 60)
#define SCHEDULE_SETTING	"schedule:last"
#define SCHEDULE_QUEUED		"schedule:queued"
#define SCHEDULE_ARMED		"schedule:armed"
/*
 * Late cron fires counted one by one, at most: a week of a fire a
 * minute, a few milliseconds of cron_next().
 */
#define SCHEDULE_COUNT_MAX	10000
/* The zone when TZ is unset: tzfile(5)'s TZDEFAULT on glibc and FreeBSD. */
#define SCHEDULE_TZ_DEFAULT	"/etc/localtime"
/* Where a zone named without a path is: tzfile(5)'s TZDIR. */
#define SCHEDULE_TZ_DIR		"/usr/share/zoneinfo"

/* "2026-12-01 02:30" in local time. */
static void
schedule_local(time_t t, char *buf, size_t len)
{
	struct tm	tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, len, "@%lld", (long long)t);
}

/* The first nominal fire strictly after t, or 0 if there is none. */
static time_t
schedule_after(const struct daemon *d, time_t t)
{
	time_t	next;
	int64_t	k;

	if (d->use_cron) {
		if (cron_next(&d->cron, t, &next) == -1)
			return 0;
		return next;
	}
	if (d->interval <= 0)
		return 0;
	if (t < d->anchor)
		return d->anchor + d->interval;
	k = (int64_t)(t - d->anchor) / d->interval + 1;
	return d->anchor + (time_t)(k * d->interval);
}

/* Remember the fires accounted for, up to t, under d->sched_spec. */
static void
schedule_save(struct daemon *d, time_t t)
{
	char	*buf;

	if (d->sched_spec != NULL)
		xasprintf(&buf, "%lld %s", (long long)t, d->sched_spec);
	else
		xasprintf(&buf, "%lld", (long long)t);
	if (daemon_setting_set(d, SCHEDULE_SETTING, buf) == -1)
		log_warnx("schedule: cannot save %s: %s", SCHEDULE_SETTING,
		    store_errmsg(d->st));
	free(buf);
}

/* Remember the run armed, for a restart before it starts. */
static void
schedule_save_armed(struct daemon *d)
{
	char	*buf;

	xasprintf(&buf, "%lld %lld %s", (long long)d->nominal,
	    (long long)d->fire_at, d->sched_spec != NULL ? d->sched_spec :
	    "none");
	if (daemon_setting_set(d, SCHEDULE_ARMED, buf) == -1)
		log_warnx("schedule: cannot save %s: %s", SCHEDULE_ARMED,
		    store_errmsg(d->st));
	free(buf);
}

/*
 * Queue the schedule's run of detail (why, if not NULL, is the reason's
 * detail instead), and remember it until it has run (see the top of the
 * file).
 */
static void
schedule_queue(struct daemon *d, const char *detail, const char *why)
{
	size_t	i;

	/*
	 * One of the schedule's runs waiting (paused, or behind a battery)
	 * stands for this one too, as one run does for the fires a suspend
	 * missed: a second in the queue made the battery's detail list them
	 * all, and one queued again at a start was listed beside the next.
	 */
	for (i = 0; i < d->work.npending; i++)
		if (strcmp(d->work.pending[i].trigger, "schedule") == 0) {
			log_info("schedule: %s: one with the run queued "
			    "already (%s)", detail, d->work.pending[i].detail !=
			    NULL ? d->work.pending[i].detail : "schedule");
			return;
		}
	if (work_want_run(d, "schedule", why != NULL ? why : detail, NULL, 0,
	    NULL, NULL) == -1)
		return;
	if (daemon_setting_set(d, SCHEDULE_QUEUED, detail) == -1)
		log_warnx("schedule: cannot save %s: %s", SCHEDULE_QUEUED,
		    store_errmsg(d->st));
}

/*
 * A battery with the schedule's run has run, and the queue holds no
 * other of its runs: a restart has none to queue again.
 */
void
schedule_ran(struct daemon *d)
{
	if (daemon_setting_set(d, SCHEDULE_QUEUED, NULL) == -1)
		log_warnx("schedule: cannot save %s: %s", SCHEDULE_QUEUED,
		    store_errmsg(d->st));
}

/*
 * The first fire strictly after t of the schedule spec (as
 * d->sched_spec has it), its periods counted from anchor; 0 if it has
 * none, or if spec cannot be read.
 */
static time_t
schedule_after_spec(const char *spec, time_t anchor, time_t t)
{
	struct cron	 c;
	char		*cause = NULL, *end;
	long long	 n;
	time_t		 next;

	if (strncmp(spec, "cron ", 5) == 0) {
		if (cron_parse(spec + 5, &c, &cause) == -1) {
			free(cause);
			return 0;
		}
		return cron_next(&c, t, &next) == 0 ? next : 0;
	}
	if (strncmp(spec, "interval ", 9) != 0)
		return 0;
	errno = 0;
	n = strtoll(spec + 9, &end, 10);
	if (errno != 0 || *end != '\0' || n <= 0)
		return 0;
	if (t < anchor)
		return anchor + (time_t)n;
	return anchor + (time_t)(((long long)(t - anchor) / n + 1) * n);
}

static void	schedule_timer(evutil_socket_t, short, void *);

/* Sleep until fire_at, or SCHEDULE_MAX_SLEEP at most. */
static void
schedule_sleep(struct daemon *d, time_t now)
{
	struct timeval	tv = { 0, 0 };
	time_t		left = d->fire_at - now;

	if (left < 0)
		left = 0;
	tv.tv_sec = left > SCHEDULE_MAX_SLEEP ? SCHEDULE_MAX_SLEEP : left;
	evtimer_add(d->sched_timer, &tv);
	d->slept_wall = time(NULL);
	d->slept_mono = perfwatch_mono();
}

/*
 * The longest jitter of the run due at nominal.  It stays short of the
 * nominal time after it: a longer one would pass over that run (interval
 * = 5m with the default jitter of 15m would run every 12 minutes or so,
 * not every 5).
 */
static int64_t
schedule_jitter(const struct daemon *d, time_t nominal)
{
	int64_t	jitter;
	time_t	following;

	jitter = config_get_duration(d->cfg, "schedule", "jitter");
	following = jitter > 0 ? schedule_after(d, nominal) : 0;
	if (following > nominal && jitter >= following - nominal)
		jitter = following - nominal - 1;
	return jitter;
}

/*
 * Work out the next fire after from, with a fresh jitter, and sleep from
 * now.
 */
static void
schedule_arm(struct daemon *d, time_t from, time_t now)
{
	int64_t	jitter;
	char	when[32];

	d->armed_from = from;
	d->nominal = schedule_after(d, from);
	if (d->nominal == 0) {
		d->fire_at = 0;
		log_warnx("schedule: no fire time found; nothing is scheduled");
		return;
	}
	jitter = schedule_jitter(d, d->nominal);
	d->fire_at = d->nominal;
	if (jitter > 0)
		d->fire_at += (time_t)perfwatch_random_below((uint32_t)jitter + 1);
	schedule_save_armed(d);
	schedule_local(d->fire_at, when, sizeof(when));
	log_info("schedule: next run %s", when);
	schedule_sleep(d, now);
}

/*
 * The last nominal fire from d->nominal up to now, and how many after
 * d->nominal that is.  Fires pile up only while the timer could not
 * wake: the machine suspended, or its clock stepped forward.  A cron
 * schedule that fell due very often for very long is accounted for up
 * to now without counting further (*more is then SCHEDULE_COUNT_MAX + 1,
 * "more than"): it has no phase to keep.
 */
static time_t
schedule_due_upto(const struct daemon *d, time_t now, unsigned *more)
{
	time_t		upto = d->nominal, next;
	int64_t		k;

	*more = 0;
	if (!d->use_cron) {
		if (d->interval <= 0 || now <= upto)
			return upto;
		k = (int64_t)(now - upto) / d->interval;
		*more = k > UINT_MAX ? UINT_MAX : (unsigned)k;
		return upto + (time_t)(k * d->interval);
	}
	while ((next = schedule_after(d, upto)) != 0 && next <= now) {
		if (*more == SCHEDULE_COUNT_MAX) {
			(*more)++;
			return now;
		}
		upto = next;
		(*more)++;
	}
	return upto;
}

/*
 * Queue the run due at d->nominal, and account for it and for every fire
 * due after it until now: one run stands for all that fell due while
 * the machine slept, as one catch-up does for the daemon's downtime, so
 * that a restart does not catch them up once more.
 */
static void
schedule_fire(struct daemon *d, const struct config *cfg, time_t now)
{
	time_t	 nominal = d->nominal, upto;
	unsigned more;
	char	 when[32], *detail, *late = NULL;

	upto = schedule_due_upto(d, now, &more);
	schedule_local(nominal, when, sizeof(when));
	if (more > 0) {
		xasprintf(&late, "; %s%u more fell due before it could start "
		    "(a suspend or a clock step)", more > SCHEDULE_COUNT_MAX ?
		    "over " : "", more > SCHEDULE_COUNT_MAX ?
		    SCHEDULE_COUNT_MAX : more);
		log_info("schedule: the run due %s starts late, with %s%u "
		    "more due since; it runs once for all", when,
		    more > SCHEDULE_COUNT_MAX ? "over " : "",
		    more > SCHEDULE_COUNT_MAX ? SCHEDULE_COUNT_MAX : more);
	}
	if (d->use_cron)
		xasprintf(&detail, "due %s (cron %s)%s", when,
		    config_get_str(cfg, "schedule", "cron"),
		    late != NULL ? late : "");
	else
		xasprintf(&detail, "due %s (every %llds)%s", when,
		    (long long)d->interval, late != NULL ? late : "");
	schedule_save(d, upto);
	if (!d->use_cron)
		d->anchor = upto;
	schedule_queue(d, detail, NULL);
	free(late);
	free(detail);
}

/*
 * The name TZ gives the zone without a path ("Europe/Paris" of
 * TZ=":Europe/Paris"), or NULL if it gives a path or no name at all.
 */
static const char *
schedule_tz_name(void)
{
	const char	*tz = getenv("TZ");

	if (tz == NULL)
		return NULL;
	if (*tz == ':')
		tz++;
	return *tz != '\0' && *tz != '/' ? tz : NULL;
}

/*
 * The file the C library reads the zone in force from (free it), as
 * tzset(3) says: with TZ unset, /etc/localtime; with TZ empty none (UTC);
 * else TZ without the ':' it may begin with, a path if it begins with
 * '/', else a name under the zoneinfo directory: $TZDIR if set and not
 * empty, as glibc reads it, else /usr/share/zoneinfo (FreeBSD's libc and
 * musl do not look at TZDIR).  glibc tries that file for any TZ, and
 * only reads TZ as a POSIX rule ("JST-9") when there is no such file:
 * then the file is absent, and should one appear, the zone is read from
 * it, as glibc would at its next tzset().
 */
static char *
schedule_tz_file(void)
{
	const char	*tz = getenv("TZ"), *dir = NULL, *name;
	char		*path;

	if (tz == NULL)
		return xstrdup(SCHEDULE_TZ_DEFAULT);
	if ((name = schedule_tz_name()) == NULL) {
		if (*tz == ':')
			tz++;
		return *tz == '/' ? xstrdup(tz) : NULL;
	}
#ifdef __GLIBC__
	dir = getenv("TZDIR");
#endif
	if (dir == NULL || *dir == '\0')
		dir = SCHEDULE_TZ_DIR;
	xasprintf(&path, "%s/%s", dir, name);
	return path;
}

/*
 * What a look at the zone's file finds: where the link points, and the
 * identity and time of the file it reaches; NULL if there is none.
 */
static char *
schedule_tz_stamp(void)
{
	struct stat	 sb;
	char		 target[PATH_MAX], *path, *stamp;
	ssize_t		 n;

	if ((path = schedule_tz_file()) == NULL)
		return NULL;
	if (stat(path, &sb) == -1) {
		free(path);
		return NULL;
	}
	if ((n = readlink(path, target, sizeof(target) - 1)) == -1)
		n = 0;
	target[n] = '\0';
	free(path);
	xasprintf(&stamp, "%s|%llu:%llu:%lld.%09ld:%lld", target,
	    (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino,
	    (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec,
	    (long long)sb.st_size);
	return stamp;
}

/*
 * The zone as the log names it: the name its link gives, from below
 * "zoneinfo/", else the one TZ gives, and what the clock reads in it
 * now ("Asia/Tokyo (JST +0900)").
 */
static char *
schedule_tz_desc(time_t now)
{
	const char	*name = schedule_tz_name(), *p;
	struct tm	 tm;
	char		 target[PATH_MAX], zone[64], *path, *desc;
	ssize_t		 n;

	if (localtime_r(&now, &tm) == NULL ||
	    strftime(zone, sizeof(zone), "%Z %z", &tm) == 0)
		snprintf(zone, sizeof(zone), "?");
	if ((path = schedule_tz_file()) != NULL &&
	    (n = readlink(path, target, sizeof(target) - 1)) > 0) {
		target[n] = '\0';
		name = target;
		if ((p = strstr(target, "zoneinfo/")) != NULL)
			name = p + strlen("zoneinfo/");
	}
	free(path);
	if (name != NULL)
		xasprintf(&desc, "%s (%s)", name, zone);
	else
		xasprintf(&desc, "%s", zone);
	return desc;
}

/*
 * Make the C library read the zone again.  tzset() alone does not do it
 * everywhere: glibc reads the file again only when TZ is unset (it then
 * looks whether /etc/localtime is another file), not when TZ is set and
 * has kept its value, even TZ=":/etc/localtime", which is set to spare
 * that look; musl, and FreeBSD's tzcode unless built to look, do not
 * read it again while TZ keeps its value or stays unset.  Each compares
 * TZ with the value it last read, so TZ is given another value for one
 * tzset() and then its own back for another: every one of them reads
 * the zone afresh.  The daemon has one thread and forks nothing in
 * between, so no one sees the other value.
 */
static void
schedule_tz_reload(void)
{
	const char	*tz = getenv("TZ");
	char		*was = tz != NULL ? xstrdup(tz) : NULL;

	if (setenv("TZ", was != NULL && strcmp(was, "UTC0") == 0 ? "GMT0" :
	    "UTC0", 1) == -1) {
		log_warn("schedule: setenv TZ");
		free(was);
		return;
	}
	tzset();
	if (was != NULL ? setenv("TZ", was, 1) == -1 : unsetenv("TZ") == -1)
		log_warn("schedule: TZ");
	tzset();
	free(was);
}

/*
 * Whether the zone's file is another than the one seen last; if so,
 * read the zone again and work out the next fire in it (see the top of
 * the file).
 */
static void
schedule_tz_check(struct daemon *d, time_t now)
{
	char	*stamp, *was, *path, when[32];
	time_t	 nominal = d->nominal;

	if ((stamp = schedule_tz_stamp()) == NULL)
		return;		/* gone, or none: the zone stays */
	if (d->tz_stamp != NULL && strcmp(stamp, d->tz_stamp) == 0) {
		free(stamp);
		return;
	}
	free(d->tz_stamp);
	d->tz_stamp = stamp;
	schedule_tz_reload();
	was = d->tz_desc;
	d->tz_desc = schedule_tz_desc(now);
	if (d->use_cron && d->fire_at != 0 && d->nominal > now) {
		d->nominal = schedule_after(d, d->armed_from);
		if (d->nominal != 0 && d->nominal <= now) {
			schedule_local(d->nominal, when, sizeof(when));
			log_info("schedule: in time zone %s the run due %s "
			    "has come with the change; it starts now",
			    d->tz_desc, when);
			schedule_fire(d, d->cfg, now);
		}
		if (d->nominal <= now || d->nominal != nominal)
			schedule_arm(d, now, now);
		else
			d->nominal = nominal;
	}
	schedule_local(d->fire_at, when, sizeof(when));
	if (was != NULL && strcmp(was, d->tz_desc) != 0)
		log_info("schedule: time zone changed: %s -> %s, next battery "
		    "at %s", was, d->tz_desc, when);
	else if (was != NULL && d->nominal != nominal)
		log_info("schedule: the time zone file changed (%s), next "
		    "battery at %s", d->tz_desc, when);
	else {
		path = schedule_tz_file();
		log_debug("schedule: the time zone file %s changed; the zone "
		    "is the same", path != NULL ? path : "?");
		free(path);
	}
	free(was);
	daemon_status(d);
}

#ifdef __linux__
/* inotify: something in the zone's directory; look at the zone's name. */
static void
schedule_tz_read(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon			*d = arg;
	char				 buf[4096]
					    __attribute__((aligned(8)));
	const struct inotify_event	*ie;
	char				*path, *base;
	ssize_t				 n;
	size_t				 off;
	int				 hit = 0;

	(void)ev;
	if ((path = schedule_tz_file()) == NULL)
		return;
	base = basename(path);
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (off = 0; off + sizeof(*ie) <= (size_t)n;
		    off += sizeof(*ie) + ie->len) {
			ie = (const struct inotify_event *)(buf + off);
			if ((ie->mask & IN_Q_OVERFLOW) || (ie->len > 0 &&
			    strcmp(ie->name, base) == 0))
				hit = 1;
		}
	}
	free(path);
	if (hit)
		schedule_tz_check(d, time(NULL));
}

/* An inotify descriptor on the directory of path, or -1. */
static int
schedule_tz_open(const char *dir)
{
	int	fd;

	if ((fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1)
		return -1;
	if (inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO |
	    IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB |
	    IN_ONLYDIR) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}
#elif defined(__FreeBSD__)
static int	schedule_tz_dir_fd = -1;	/* the directory kqueue watches */

/* kqueue: the zone's directory was written (a name came or went). */
static void
schedule_tz_read(evutil_socket_t fd, short ev, void *arg)
{
	struct kevent	kevs[4];
	struct timespec	zero = { 0, 0 };

	(void)ev;
	if (kevent(fd, NULL, 0, kevs, 4, &zero) > 0)
		schedule_tz_check(arg, time(NULL));
}

/* A kqueue watching the directory dir for writes, or -1. */
static int
schedule_tz_open(const char *dir)
{
	struct kevent	kev;
	int		kq, fd;

	if ((kq = kqueue()) == -1)
		return -1;
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		close(kq);
		return -1;
	}
	EV_SET(&kev, fd, EVFILT_VNODE, EV_ADD | EV_CLEAR, NOTE_WRITE |
	    NOTE_DELETE | NOTE_RENAME, 0, NULL);
	if (kevent(kq, &kev, 1, NULL, 0, NULL) == -1) {
		close(fd);
		close(kq);
		return -1;
	}
	schedule_tz_dir_fd = fd;
	return kq;
}
#endif

/*
 * Watch the zone's directory, where the system can; the zone read as it
 * is now.  Without a watch, the wake-ups look at the file alone.
 */
static void
schedule_tz_watch(struct daemon *d, time_t now)
{
	char		*path, *copy;
	int		 fd = -1;

	if (d->tz_stamp == NULL && (d->tz_stamp = schedule_tz_stamp()) != NULL)
		schedule_tz_reload();
	if (d->tz_desc == NULL)
		d->tz_desc = schedule_tz_desc(now);
	if (d->tz_event != NULL || (path = schedule_tz_file()) == NULL)
		return;
	copy = xstrdup(path);
#if defined(__linux__) || defined(__FreeBSD__)
	if ((fd = schedule_tz_open(dirname(copy))) == -1)
		log_debug("schedule: cannot watch the directory of %s: %s; "
		    "looked at every %d s", path, strerror(errno),
		    SCHEDULE_MAX_SLEEP);
	else {
		d->tz_event = event_new(d->base, fd, EV_READ | EV_PERSIST,
		    schedule_tz_read, d);
		event_add(d->tz_event, NULL);
	}
#endif
	(void)fd;
	free(copy);
	log_debug("schedule: time zone %s, from %s", d->tz_desc, path);
	free(path);
}

/*
 * Whether the wall clock was set back since the timer was set, and if
 * so by how much is more than rounding (see the top of the file): move
 * an interval's times back by as much, arm a cron schedule set back by
 * more than SCHEDULE_MAX_SLEEP again from now.
 */
static void
schedule_clock_back(struct daemon *d, time_t now)
{
	double	behind;
	time_t	step;
	char	when[32];

	if (d->fire_at == 0)
		return;
	behind = (double)d->slept_wall + (perfwatch_mono() - d->slept_mono) -
	    (double)now;
	if (behind < 2.0)
		return;
	step = (time_t)(behind + 0.5);
	if (!d->use_cron) {
		d->anchor -= step;
		d->armed_from -= step;
		d->nominal -= step;
		d->fire_at -= step;
		schedule_save(d, d->anchor);
		schedule_save_armed(d);
	} else if (step > SCHEDULE_MAX_SLEEP && d->nominal > now) {
		schedule_save(d, now);
		schedule_arm(d, now, now);
	}
	schedule_local(d->fire_at, when, sizeof(when));
	log_info("schedule: the clock went back %llds; next battery at %s",
	    (long long)step, when);
	daemon_status(d);
}

static void
schedule_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	time_t		 now = time(NULL), nominal, from;

	(void)fd;
	(void)ev;
	schedule_clock_back(d, now);
	schedule_tz_check(d, now);
	nominal = d->nominal;
	if (now < d->fire_at) {
		schedule_sleep(d, now);
		return;
	}
	schedule_fire(d, d->cfg, now);
	from = now > nominal ? now : nominal;
	schedule_arm(d, from, from);
	daemon_status(d);
}

/*
 * Read [schedule] into d: cron or interval.  1 if something is
 * scheduled, 0 for none, -1 with *cause if the cron expression is
 * unusable.
 */
static int
schedule_parse(struct daemon *d, char **cause)
{
	const char	*spec;

	d->use_cron = 0;
	d->interval = config_get_duration(d->cfg, "schedule", "interval");
	spec = config_get_str(d->cfg, "schedule", "cron");
	free(d->sched_spec);
	d->sched_spec = NULL;
	if (d->interval <= 0 && spec != NULL) {
		if (cron_parse(spec, &d->cron, cause) == -1)
			return -1;
		d->use_cron = 1;
		xasprintf(&d->sched_spec, "cron %s", spec);
	} else if (d->interval > 0)
		xasprintf(&d->sched_spec, "interval %lld",
		    (long long)d->interval);
	d->fire_at = d->nominal = 0;
	if (!d->use_cron && d->interval <= 0) {
		d->sched_spec = xstrdup("none");
		log_info("schedule: none (cron = none, interval = none)");
		return 0;
	}
	if (d->sched_timer == NULL)
		d->sched_timer = evtimer_new(d->base, schedule_timer, d);
	schedule_tz_watch(d, time(NULL));
	return 1;
}

/*
 * The fires accounted for (SCHEDULE_SETTING), or 0 if unknown; *spec
 * the schedule they were accounted under (free it), or NULL if the
 * setting does not say.
 */
static time_t
schedule_last(struct daemon *d, time_t now, char **spec)
{
	char		*text = NULL, *end;
	long long	 v;
	time_t		 last = 0;

	*spec = NULL;
	if (daemon_setting_get(d, SCHEDULE_SETTING, &text) == 0) {
		errno = 0;
		v = strtoll(text, &end, 10);
		if (errno == 0 && (*end == '\0' || *end == ' ') && v > 0 &&
		    v <= (long long)now) {
			last = (time_t)v;
			if (*end == ' ' && end[1] != '\0')
				*spec = xstrdup(end + 1);
		}
		free(text);
	}
	return last;
}

/*
 * At start, when missed, the first fire after the last one accounted
 * for, has come: whether it is the run armed before the stop, under the
 * schedule now in force, and it still waits for its start (see the top
 * of the file).  If so, sleep until that start and return 1; else 0, the
 * run missed.  The start is cut to the jitter now in force: a shorter
 * one would have started the run already.
 */
static int
schedule_keep_armed(struct daemon *d, time_t missed, time_t now)
{
	char		*text = NULL, *end, *p, when[32], start[32];
	long long	 nominal, fire_at = 0;
	time_t		 following;
	int64_t		 jitter;
	int		 ok;

	if (daemon_setting_get(d, SCHEDULE_ARMED, &text) == -1)
		return 0;
	errno = 0;
	nominal = strtoll(text, &end, 10);
	if ((ok = errno == 0 && end != text && *end == ' ')) {
		p = end + 1;
		fire_at = strtoll(p, &end, 10);
		ok = errno == 0 && end != p && *end == ' ' &&
		    d->sched_spec != NULL &&
		    strcmp(end + 1, d->sched_spec) == 0;
	}
	free(text);
	if (!ok || nominal != (long long)missed)
		return 0;
	/* A fire after it that came during the downtime was missed. */
	following = schedule_after(d, missed);
	if (following != 0 && following <= now)
		return 0;
	if (fire_at <= (long long)now)
		return 0;	/* its start came during the downtime */
	/*
	 * A jitter made shorter while down may put the start before now:
	 * it is then due at once, as a reload makes it, not missed (the
	 * daemon was down at neither time).
	 */
	jitter = schedule_jitter(d, missed);
	if (jitter < 0)
		jitter = 0;
	if (fire_at > (long long)missed + jitter)
		fire_at = (long long)missed + jitter;
	if (fire_at < (long long)now)
		fire_at = (long long)now;
	d->armed_from = d->anchor;
	d->nominal = missed;
	d->fire_at = (time_t)fire_at;
	schedule_local(missed, when, sizeof(when));
	schedule_local(d->fire_at, start, sizeof(start));
	log_info("schedule: the run due %s waits for its jitter, as armed "
	    "before the stop; next run %s", when, start);
	schedule_sleep(d, now);
	return 1;
}

/*
 * At start: read [schedule], catch up a run missed while the daemon was
 * down if asked to, and arm the timer, or keep the start of a run armed
 * before the stop that still waits for its jitter.  What was missed is
 * judged by the schedule the last fires were accounted under, when it is
 * not the one now in force (see the top of the file).  Return -1 with
 * *cause if the cron expression is unusable.
 */
int
schedule_start(struct daemon *d, char **cause)
{
	char		 when[32], *was, *detail, *under = NULL, *queued;
	time_t		 now = time(NULL), last, missed;
	int		 rc, changed;

	if ((rc = schedule_parse(d, cause)) < 0)
		return rc;
	if (daemon_setting_get(d, SCHEDULE_QUEUED, &queued) == 0) {
		if (rc == 0) {
			log_info("schedule: the run %s, queued when perfwatchd "
			    "stopped, is dropped: [schedule] has none now",
			    queued);
			schedule_ran(d);
		} else {
			log_info("schedule: the run %s was queued when "
			    "perfwatchd stopped; queued again", queued);
			xasprintf(&detail, "%s, queued when perfwatchd stopped",
			    queued);
			schedule_queue(d, queued, detail);
			free(detail);
		}
		free(queued);
	}
	if ((last = schedule_last(d, now, &was)) == 0) {
		/* First start (or a clock gone back): nothing was missed. */
		schedule_save(d, now);
		last = now;
	}
	changed = was != NULL && strcmp(was, d->sched_spec) != 0;
	if (rc == 0) {
		/* Nothing scheduled: nothing is missed from now on. */
		if (was == NULL || changed)
			schedule_save(d, now);
		free(was);
		return 0;
	}
	d->anchor = last;
	if (changed) {
		missed = schedule_after_spec(was, last, last);
		xasprintf(&under, " (under the schedule then, %s)", was);
	} else
		missed = schedule_after(d, last);
	if (!changed && missed != 0 && missed <= now &&
	    schedule_keep_armed(d, missed, now)) {
		free(was);
		return 0;
	}
	if (missed != 0 && missed <= now) {
		schedule_local(missed, when, sizeof(when));
		if (config_get_bool(d->cfg, "schedule", "catch_up")) {
			xasprintf(&detail, "catch-up of the run due %s%s, "
			    "missed while perfwatchd was down", when,
			    under != NULL ? under : "");
			log_info("schedule: the run due %s%s was missed; "
			    "catching up", when, under != NULL ? under : "");
			schedule_queue(d, detail, NULL);
			free(detail);
		} else
			log_info("schedule: the run due %s%s was missed "
			    "(catch_up = no)", when, under != NULL ? under : "");
		schedule_save(d, now);
		d->anchor = now;
	} else if (changed) {
		log_info("schedule: %s since the last fire accounted for, "
		    "under %s, which missed none; counted from now",
		    d->sched_spec, was);
		schedule_save(d, now);
		d->anchor = now;
	}
	free(under);
	free(was);
	schedule_arm(d, now, now);
	return 0;
}

/* Whether [schedule] says when to run alike in a and b. */
static int
schedule_same(const struct config *a, const struct config *b)
{
	const char	*ca = config_get_str(a, "schedule", "cron");
	const char	*cb = config_get_str(b, "schedule", "cron");

	if ((ca == NULL) != (cb == NULL) || (ca != NULL && strcmp(ca, cb) != 0))
		return 0;
	return config_get_duration(a, "schedule", "interval") ==
	    config_get_duration(b, "schedule", "interval") &&
	    config_get_duration(a, "schedule", "jitter") ==
	    config_get_duration(b, "schedule", "jitter");
}

/*
 * SIGHUP: d->cfg is the configuration just loaded, old the one it
 * replaces.  Nothing is missed while the daemon runs, so a reload never
 * catches up.  An unchanged schedule keeps its next fire as it is,
 * jitter and all: its nominal time may have passed already, the run
 * waiting for its jitter.  A changed one first starts a run whose
 * nominal time has passed, then is armed afresh from now.  Return -1
 * with *cause, nothing scheduled, if the cron expression is unusable.
 */
int
schedule_reload(struct daemon *d, const struct config *old, char **cause)
{
	time_t	 now = time(NULL), last;
	char	*was;
	int	 rc;

	if (schedule_same(old, d->cfg))
		return 0;
	if (d->fire_at != 0 && d->nominal <= now)
		schedule_fire(d, old, now);
	schedule_stop(d);
	if ((rc = schedule_parse(d, cause)) < 0)
		return rc;
	/*
	 * Saved under the new schedule: a cron expression is armed from
	 * now, and the old one's fires are accounted for up to now; an
	 * interval counts its periods from the last fire accounted for.
	 */
	last = schedule_last(d, now, &was);
	free(was);
	d->anchor = last != 0 ? last : now;
	schedule_save(d, rc == 1 && !d->use_cron ? d->anchor : now);
	if (rc == 0)
		return 0;
	schedule_arm(d, now, now);
	return 0;
}

void
schedule_stop(struct daemon *d)
{
	int	fd;

	if (d->sched_timer != NULL) {
		event_free(d->sched_timer);
		d->sched_timer = NULL;
	}
	d->fire_at = d->nominal = 0;
	if (d->tz_event != NULL) {
		fd = event_get_fd(d->tz_event);
		event_free(d->tz_event);
		d->tz_event = NULL;
		close(fd);
	}
#ifdef __FreeBSD__
	if (schedule_tz_dir_fd != -1) {
		close(schedule_tz_dir_fd);
		schedule_tz_dir_fd = -1;
	}
#endif
	free(d->tz_stamp);
	d->tz_stamp = NULL;
	free(d->tz_desc);
	d->tz_desc = NULL;
	free(d->sched_spec);
	d->sched_spec = NULL;
}

/* When the next scheduled run starts (with its jitter), or 0. */
time_t
schedule_next(const struct daemon *d)
{
	return d->fire_at;
}
