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
 *
 * The timer never sleeps longer than SCHEDULE_MAX_SLEEP: it wakes up,
 * looks at the wall clock and goes back to sleep, so that a suspend or a
 * clock step delays a fire by at most that much.  The fire that comes
 * late stands for every one due since, and accounts for them all.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "log.h"
#include "xmalloc.h"
#include "store/store.h"
#include "daemon.h"

#define SCHEDULE_MAX_SLEEP	(15 * 60)
#define SCHEDULE_SETTING	"schedule:last"
/*
 * Late cron fires counted one by one, at most: a week of a fire a
 * minute, a few milliseconds of cron_next().
 */
#define SCHEDULE_COUNT_MAX	10000

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

/* Remember the fires accounted for, up to t. */
static void
schedule_save(struct daemon *d, time_t t)
{
	char	buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)t);
	if (store_setting_set(d->st, SCHEDULE_SETTING, buf) == -1)
		log_warnx("schedule: cannot save %s: %s", SCHEDULE_SETTING,
		    store_errmsg(d->st));
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
}

/*
 * Work out the next fire after now, with a fresh jitter, and sleep.  The
 * jitter stays short of the nominal time after it: a longer one would
 * pass over that run (interval = 5m with the default jitter of 15m would
 * run every 12 minutes or so, not every 5).
 */
static void
schedule_arm(struct daemon *d, time_t now)
{
	int64_t	jitter;
	time_t	following;
	char	when[32];

	d->nominal = schedule_after(d, now);
	if (d->nominal == 0) {
		d->fire_at = 0;
		log_warnx("schedule: no fire time found; nothing is scheduled");
		return;
	}
	jitter = config_get_duration(d->cfg, "schedule", "jitter");
	following = jitter > 0 ? schedule_after(d, d->nominal) : 0;
	if (following > d->nominal && jitter >= following - d->nominal)
		jitter = following - d->nominal - 1;
	d->fire_at = d->nominal;
	if (jitter > 0)
		d->fire_at += (time_t)perfwatch_random_below((uint32_t)jitter + 1);
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
	work_want_run(d, "schedule", detail, NULL, 0, NULL, NULL);
	free(late);
	free(detail);
}

static void
schedule_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	time_t		 now = time(NULL), nominal = d->nominal;

	(void)fd;
	(void)ev;
	if (now < d->fire_at) {
		schedule_sleep(d, now);
		return;
	}
	schedule_fire(d, d->cfg, now);
	schedule_arm(d, now > nominal ? now : nominal);
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
	if (d->interval <= 0 && spec != NULL) {
		if (cron_parse(spec, &d->cron, cause) == -1)
			return -1;
		d->use_cron = 1;
	}
	d->fire_at = d->nominal = 0;
	if (!d->use_cron && d->interval <= 0) {
		log_info("schedule: none (cron = none, interval = none)");
		return 0;
	}
	if (d->sched_timer == NULL)
		d->sched_timer = evtimer_new(d->base, schedule_timer, d);
	return 1;
}

/* The fires accounted for (SCHEDULE_SETTING), or 0 if unknown. */
static time_t
schedule_last(struct daemon *d, time_t now)
{
	char		*text = NULL, *end;
	long long	 v;
	time_t		 last = 0;

	if (store_setting_get(d->st, SCHEDULE_SETTING, &text) == 0) {
		errno = 0;
		v = strtoll(text, &end, 10);
		if (errno == 0 && *end == '\0' && v > 0 && v <= (long long)now)
			last = (time_t)v;
		free(text);
	}
	return last;
}

/*
 * At start: read [schedule], catch up a run missed while the daemon was
 * down if asked to, and arm the timer.  Return -1 with *cause if the
 * cron expression is unusable.
 */
int
schedule_start(struct daemon *d, char **cause)
{
	char		 when[32];
	time_t		 now = time(NULL), last, missed;
	int		 rc;

	if ((rc = schedule_parse(d, cause)) <= 0)
		return rc;
	if ((last = schedule_last(d, now)) == 0) {
		/* First start (or a clock gone back): nothing was missed. */
		schedule_save(d, now);
		last = now;
	}
	d->anchor = last;
	missed = schedule_after(d, last);
	if (missed != 0 && missed <= now) {
		schedule_local(missed, when, sizeof(when));
		if (config_get_bool(d->cfg, "schedule", "catch_up")) {
			char *detail;

			xasprintf(&detail, "catch-up of the run due %s, "
			    "missed while perfwatchd was down", when);
			log_info("schedule: the run due %s was missed; "
			    "catching up", when);
			work_want_run(d, "schedule", detail, NULL, 0, NULL,
			    NULL);
			free(detail);
		} else
			log_info("schedule: the run due %s was missed "
			    "(catch_up = no)", when);
		schedule_save(d, now);
		d->anchor = now;
	}
	schedule_arm(d, now);
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
	time_t	now = time(NULL), last;
	int	rc;

	if (schedule_same(old, d->cfg))
		return 0;
	if (d->fire_at != 0 && d->nominal <= now)
		schedule_fire(d, old, now);
	schedule_stop(d);
	if ((rc = schedule_parse(d, cause)) <= 0)
		return rc;
	if ((last = schedule_last(d, now)) == 0)
		last = now;
	d->anchor = last;
	schedule_arm(d, now);
	return 0;
}

void
schedule_stop(struct daemon *d)
{
	if (d->sched_timer != NULL) {
		event_free(d->sched_timer);
		d->sched_timer = NULL;
	}
	d->fire_at = d->nominal = 0;
}

/* When the next scheduled run starts (with its jitter), or 0. */
time_t
schedule_next(const struct daemon *d)
{
	return d->fire_at;
}
