/*
 * Unit tests of daemon/schedule.c, included chrony-style to reach its
 * statics.  The store's settings and the work queue are stand-ins that
 * keep what they are given.  Covered: the catch-up of a run missed while
 * the daemon was down, and a reload (SIGHUP) between a run's nominal time
 * and its jittered start, which must neither drop that run nor start it
 * early as a catch-up, nor must a restart there; and a fire that comes
 * late, after a suspend, which runs once for every fire missed and
 * accounts for them all; and the zone file watched for each form of TZ.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfwatch.h"
#include "../../daemon/schedule.c"

/*
 * The settings of the store: the fires accounted for, the run queued,
 * the run armed.
 */
static char	*test_last;
static char	*test_queued;
static char	*test_armed;

/* The runs asked for. */
static char	*test_details[8];
static size_t	 test_nruns;

int
daemon_setting_get(struct daemon *d, const char *key, char **value)
{
	char	*v;

	(void)d;
	if (strcmp(key, SCHEDULE_QUEUED) == 0)
		v = test_queued;
	else if (strcmp(key, SCHEDULE_ARMED) == 0)
		v = test_armed;
	else {
		assert_string_equal(key, SCHEDULE_SETTING);
		v = test_last;
	}
	if (v == NULL)
		return -1;
	*value = xstrdup(v);
	return 0;
}

int
daemon_setting_set(struct daemon *d, const char *key, const char *value)
{
	char	**v;

	(void)d;
	if (strcmp(key, SCHEDULE_QUEUED) == 0)
		v = &test_queued;
	else if (strcmp(key, SCHEDULE_ARMED) == 0)
		v = &test_armed;
	else {
		assert_string_equal(key, SCHEDULE_SETTING);
		v = &test_last;
	}
	free(*v);
	*v = value != NULL ? xstrdup(value) : NULL;
	return 0;
}

const char *
store_errmsg(struct store *st)
{
	(void)st;
	return "no error";
}

int
work_want_run(struct daemon *d, const char *trigger, const char *detail,
    char *const *globs, size_t nglobs, const char *git_name,
    const char *git_commit)
{
	(void)d;
	(void)globs;
	(void)nglobs;
	(void)git_name;
	(void)git_commit;
	assert_string_equal(trigger, "schedule");
	assert_true(test_nruns < nitems(test_details));
	test_details[test_nruns++] = xstrdup(detail);
	return 0;
}

void
daemon_status(struct daemon *d)
{
	(void)d;
}

static struct daemon	test_daemon;

static struct config *
conf(const char *text)
{
	struct config	*cfg;
	char		*cause = NULL;

	cfg = config_load_buffer("test.conf", text, strlen(text), &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	return cfg;
}

static void
set_last(time_t t)
{
	free(test_last);
	xasprintf(&test_last, "%lld", (long long)t);
}

static int
setup(void **state)
{
	(void)state;
	memset(&test_daemon, 0, sizeof(test_daemon));
	test_daemon.base = event_base_new();
	assert_non_null(test_daemon.base);
	return 0;
}

static int
teardown(void **state)
{
	size_t	i;

	(void)state;
	schedule_stop(&test_daemon);
	config_free(test_daemon.cfg);
	event_base_free(test_daemon.base);
	for (i = 0; i < test_nruns; i++)
		free(test_details[i]);
	test_nruns = 0;
	free(test_last);
	test_last = NULL;
	free(test_queued);
	test_queued = NULL;
	free(test_armed);
	test_armed = NULL;
	return 0;
}

#define HOURLY	"[schedule]\ninterval = 1h\njitter = 1h\ncatch_up = %s\n"

/*
 * The daemon as it is once it fired at t0 and armed the next run: due an
 * hour later, 5 s ago, and waiting for its jitter 10 minutes more.
 */
static time_t
armed_and_due(const char *catch_up)
{
	struct daemon	*d = &test_daemon;
	char		*text, *cause = NULL;
	time_t		 now = time(NULL), t0 = now - 3600 - 5;

	xasprintf(&text, HOURLY, catch_up);
	d->cfg = conf(text);
	free(text);
	set_last(now);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, 0);
	set_last(t0);
	d->anchor = t0;
	d->nominal = t0 + 3600;
	d->fire_at = now + 600;
	return t0;
}

/* Reload d with the same text as before (catch_up as given). */
static void
reload_same(const char *catch_up)
{
	struct daemon	*d = &test_daemon;
	struct config	*old = d->cfg;
	char		*text, *cause = NULL;

	xasprintf(&text, HOURLY, catch_up);
	d->cfg = conf(text);
	free(text);
	assert_int_equal(schedule_reload(d, old, &cause), 0);
	config_free(old);
}

/* Start-up after downtime: one catch-up run, however many were missed. */
static void
test_start_catch_up(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*cause = NULL;
	time_t		 now = time(NULL);

	(void)state;
	d->cfg = conf("[schedule]\ninterval = 1h\njitter = 0\n"
	    "catch_up = yes\n");
	set_last(now - 3 * 3600 - 60);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, 1);
	assert_non_null(strstr(test_details[0], "catch-up of the run due "));
	assert_true(d->nominal > now);
	assert_int_equal(d->fire_at, d->nominal);
}

/*
 * A run the schedule queued before a stop is queued again at start, with
 * catch_up = no too, and stays remembered until it has run; one missed
 * while the daemon was down is caught up beside it.  With nothing
 * scheduled now, it is dropped.
 */
static void
test_start_queued(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*cause = NULL;
	time_t		 now = time(NULL);

	(void)state;
	d->cfg = conf("[schedule]\ninterval = 1h\njitter = 0\n"
	    "catch_up = no\n");
	set_last(now - 60);
	test_queued = xstrdup("due 2026-12-07 02:30 (every 3600s)");
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, 1);
	assert_string_equal(test_details[0], "due 2026-12-07 02:30 "
	    "(every 3600s), queued when perfwatchd stopped");
	assert_string_equal(test_queued, "due 2026-12-07 02:30 (every 3600s)");
	schedule_ran(d);
	assert_null(test_queued);
	schedule_stop(d);
	config_free(d->cfg);

	/* And beside a catch-up: the newest is remembered. */
	d->cfg = conf("[schedule]\ninterval = 1h\njitter = 0\n"
	    "catch_up = yes\n");
	set_last(now - 3 * 3600 - 60);
	test_queued = xstrdup("due 2026-12-07 02:30 (every 3600s)");
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, 3);
	assert_non_null(strstr(test_details[1], "queued when perfwatchd"));
	assert_non_null(strstr(test_details[2], "catch-up of the run due "));
	assert_string_equal(test_queued, test_details[2]);
	schedule_stop(d);
	config_free(d->cfg);

	d->cfg = conf("[schedule]\ncron = none\n");
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, 3);
	assert_null(test_queued);
}

/*
 * Start d with [schedule] interval = 1h, jitter as given, catch_up = yes,
 * after a stop when the run armed was armed, and the runs queued before
 * had run.
 */
static void
start_armed(const char *jitter, const char *armed)
{
	struct daemon	*d = &test_daemon;
	char		*text, *cause = NULL;

	schedule_stop(d);
	config_free(d->cfg);
	xasprintf(&text, "[schedule]\ninterval = 1h\njitter = %s\n"
	    "catch_up = yes\n", jitter);
	d->cfg = conf(text);
	free(text);
	free(test_armed);
	test_armed = xstrdup(armed);
	free(test_queued);
	test_queued = NULL;
	assert_int_equal(schedule_start(d, &cause), 0);
}

/*
 * A restart between a run's nominal time and its start with jitter: the
 * run keeps its start, with catch_up too, when it was armed under the
 * schedule in force and its start (cut to the jitter in force) is still
 * to come; else it was missed, and caught up.
 */
static void
test_start_armed(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*armed;
	time_t		 now = time(NULL), t0 = now - 3600 - 5;

	(void)state;
	set_last(t0);
	xasprintf(&armed, "%lld %lld interval 3600", (long long)(t0 + 3600),
	    (long long)(now + 600));
	start_armed("1h", armed);
	assert_int_equal(test_nruns, 0);
	assert_int_equal(d->nominal, t0 + 3600);
	assert_int_equal(d->fire_at, now + 600);
	assert_int_equal(strtoll(test_last, NULL, 10), t0);
	/* Another restart keeps it still. */
	start_armed("1h", armed);
	assert_int_equal(test_nruns, 0);
	assert_int_equal(d->fire_at, now + 600);

	/* Its start comes: it runs as the run due then. */
	d->fire_at = time(NULL);
	schedule_timer(-1, 0, d);
	assert_int_equal(test_nruns, 1);
	assert_null(strstr(test_details[0], "catch-up"));
	assert_int_equal(strtoll(test_last, NULL, 10), t0 + 3600);
	/* And the next run armed is saved. */
	free(armed);
	xasprintf(&armed, "%lld %lld interval 3600", (long long)d->nominal,
	    (long long)d->fire_at);
	assert_string_equal(test_armed, armed);
	free(armed);

	/* A jitter made shorter meanwhile cuts the start. */
	set_last(t0);
	xasprintf(&armed, "%lld %lld interval 3600", (long long)(t0 + 3600),
	    (long long)(now + 600));
	start_armed("5m", armed);
	assert_int_equal(test_nruns, 1);
	assert_int_equal(d->fire_at, t0 + 3600 + 300);
	/*
	 * Cut to before now: due at once, as a reload makes it, not missed
	 * (it was caught up as "missed while perfwatchd was down").
	 */
	start_armed("1s", armed);
	assert_int_equal(test_nruns, 1);
	assert_int_equal(d->nominal, t0 + 3600);
	assert_true(d->fire_at >= now && d->fire_at <= time(NULL));
	schedule_timer(-1, 0, d);
	assert_int_equal(test_nruns, 2);
	assert_null(strstr(test_details[1], "catch-up"));
	free(armed);

	/* Armed under another schedule: missed, and caught up. */
	set_last(t0);
	xasprintf(&armed, "%lld %lld interval 7200", (long long)(t0 + 3600),
	    (long long)(now + 600));
	start_armed("1h", armed);
	assert_int_equal(test_nruns, 3);
	assert_non_null(strstr(test_details[2], "catch-up of the run due "));
	free(armed);

	/* Its start came during the downtime: missed. */
	set_last(t0);
	xasprintf(&armed, "%lld %lld interval 3600", (long long)(t0 + 3600),
	    (long long)(now - 1));
	start_armed("1h", armed);
	assert_int_equal(test_nruns, 4);
	assert_non_null(strstr(test_details[3], "catch-up of the run due "));
	free(armed);
}

/* catch_up = no: the reload keeps the due run, which fires as due. */
static void
test_reload_keeps_due_run(void **state)
{
	struct daemon	*d = &test_daemon;
	time_t		 t0, now = time(NULL);

	(void)state;
	t0 = armed_and_due("no");
	reload_same("no");
	assert_int_equal(test_nruns, 0);
	assert_int_equal(d->nominal, t0 + 3600);
	assert_true(d->fire_at >= now + 600);
	assert_int_equal(strtoll(test_last, NULL, 10), t0);

	/* Its jittered time comes: it starts, as the run due then. */
	d->fire_at = time(NULL);
	schedule_timer(-1, 0, d);
	assert_int_equal(test_nruns, 1);
	assert_non_null(strstr(test_details[0], "due "));
	assert_null(strstr(test_details[0], "catch-up"));
	assert_int_equal(strtoll(test_last, NULL, 10), t0 + 3600);
	assert_true(d->nominal > t0 + 3600);
}

/* catch_up = yes: the reload starts nothing early as a catch-up. */
static void
test_reload_no_early_catch_up(void **state)
{
	struct daemon	*d = &test_daemon;
	time_t		 t0;

	(void)state;
	t0 = armed_and_due("yes");
	reload_same("yes");
	assert_int_equal(test_nruns, 0);
	assert_int_equal(d->nominal, t0 + 3600);
	assert_int_equal(strtoll(test_last, NULL, 10), t0);
}

/* A changed schedule: the run already due starts, then the new one. */
static void
test_reload_changed(void **state)
{
	struct daemon	*d = &test_daemon;
	struct config	*old;
	char		*cause = NULL;
	time_t		 t0, now = time(NULL);

	(void)state;
	t0 = armed_and_due("no");
	old = d->cfg;
	d->cfg = conf("[schedule]\ninterval = 2h\njitter = 0\n"
	    "catch_up = no\n");
	assert_int_equal(schedule_reload(d, old, &cause), 0);
	config_free(old);
	assert_int_equal(test_nruns, 1);
	assert_non_null(strstr(test_details[0], "due "));
	assert_non_null(strstr(test_details[0], "(every 3600s)"));
	assert_int_equal(strtoll(test_last, NULL, 10), t0 + 3600);
	/* Every two hours from the run just started. */
	assert_int_equal(d->nominal, t0 + 3600 + 7200);
	assert_int_equal(d->fire_at, d->nominal);
	assert_true(d->nominal > now);
}

/*
 * A jitter as long as the period, or longer, stays short of the next
 * nominal time: interval = 5m with jitter = 1h runs every 5 minutes,
 * each start within its own 5 minutes.  Likewise for cron.
 */
static void
test_jitter_within_period(void **state)
{
	static const char	*texts[] = {
		"[schedule]\ninterval = 5m\njitter = 1h\n",
		"[schedule]\ncron = */5 * * * *\njitter = 1h\n",
		"[schedule]\ninterval = 5m\njitter = 5m\n",
	};
	struct daemon		*d = &test_daemon;
	char			*cause = NULL;
	time_t			 now = time(NULL), nominal;
	size_t			 t;
	int			 i;

	(void)state;
	for (t = 0; t < nitems(texts); t++) {
		config_free(d->cfg);
		schedule_stop(d);
		d->cfg = conf(texts[t]);
		now = time(NULL);
		set_last(now);
		assert_int_equal(schedule_start(d, &cause), 0);
		/* The first within 5 minutes of the start (now, or later). */
		assert_true(d->nominal > now &&
		    d->nominal <= time(NULL) + 300);
		for (i = 0; i < 50; i++) {
			nominal = d->nominal;
			assert_true(d->fire_at >= nominal);
			assert_true(d->fire_at < nominal + 300);
			/* Its time comes: the next is one period on. */
			d->fire_at = time(NULL);
			schedule_timer(-1, 0, d);
			assert_int_equal(test_nruns, 1);
			free(test_details[0]);
			test_nruns = 0;
			schedule_ran(d);	/* its battery has run */
			assert_int_equal(d->nominal, nominal + 300);
			now = nominal;
		}
	}
	/* A jitter shorter than the period is kept as it is. */
	config_free(d->cfg);
	schedule_stop(d);
	d->cfg = conf("[schedule]\ninterval = 1h\njitter = 30m\n");
	now = time(NULL);
	set_last(now);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_true(d->fire_at - d->nominal <= 1800);
}

/* The run count in a late fire's detail ("; N more fell due ..."). */
static unsigned
late_count(const char *detail)
{
	const char	*p = strstr(detail, "; ");
	unsigned	 n;

	if (p == NULL || sscanf(p, "; %u more fell due", &n) != 1)
		return 0;
	return n;
}

/*
 * A restart right after: nothing is caught up (catch_up = yes), since
 * the late fire accounted for all that fell due.
 */
static void
restart_catches_nothing(const char *text)
{
	struct daemon	*d = &test_daemon;
	char		*cause = NULL;
	size_t		 before = test_nruns;

	schedule_ran(d);	/* the late fire's battery has run */
	schedule_stop(d);
	config_free(d->cfg);
	d->cfg = conf(text);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(test_nruns, before);
}

/*
 * The machine slept (or its clock stepped) over five hourly fires: the
 * timer wakes late, and one run goes for all five, as a catch-up does
 * for downtime.  All are accounted for, the period keeps its phase, and
 * a restart does not catch them up a second time.
 */
static void
test_late_fire_interval(void **state)
{
	static const char	*text = "[schedule]\ninterval = 1h\n"
	    "jitter = 0\ncatch_up = yes\n";
	struct daemon		*d = &test_daemon;
	char			*cause = NULL;
	time_t			 now = time(NULL), t0 = now - 5 * 3600 - 100;

	(void)state;
	d->cfg = conf(text);
	set_last(now);
	assert_int_equal(schedule_start(d, &cause), 0);
	set_last(t0);
	d->anchor = t0;
	d->nominal = d->fire_at = t0 + 3600;

	schedule_timer(-1, 0, d);
	now = time(NULL);
	assert_int_equal(test_nruns, 1);
	assert_null(strstr(test_details[0], "catch-up"));
	assert_non_null(strstr(test_details[0], "(every 3600s)"));
	assert_int_equal(late_count(test_details[0]), 4);
	assert_int_equal(strtoll(test_last, NULL, 10), t0 + 5 * 3600);
	assert_int_equal(d->anchor, t0 + 5 * 3600);
	assert_int_equal(d->nominal, t0 + 6 * 3600);
	assert_true(d->nominal > now);

	restart_catches_nothing(text);

	/* On time, a fire says nothing of being late. */
	d->anchor = now - 3600 - 10;
	d->nominal = d->fire_at = now - 10;
	schedule_timer(-1, 0, d);
	assert_int_equal(test_nruns, 2);
	assert_null(strstr(test_details[1], "more fell due"));
	assert_int_equal(strtoll(test_last, NULL, 10), now - 10);
}

/* Likewise for cron: every 5 minutes, asleep for an hour. */
static void
test_late_fire_cron(void **state)
{
	static const char	*text = "[schedule]\ncron = */5 * * * *\n"
	    "jitter = 0\ncatch_up = yes\n";
	struct daemon		*d = &test_daemon;
	char			*cause = NULL;
	time_t			 now = time(NULL), nominal, saved, next;

	(void)state;
	d->cfg = conf(text);
	set_last(now);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(cron_next(&d->cron, now - 3600, &nominal), 0);
	set_last(nominal - 1);
	d->nominal = d->fire_at = nominal;

	schedule_timer(-1, 0, d);
	now = time(NULL);
	assert_int_equal(test_nruns, 1);
	assert_non_null(strstr(test_details[0], "(cron */5 * * * *)"));
	saved = (time_t)strtoll(test_last, NULL, 10);
	/* The last fire due by now, every one after the first counted. */
	assert_true(saved > nominal && saved <= now);
	assert_int_equal(cron_next(&d->cron, saved, &next), 0);
	assert_true(next > now);
	assert_int_equal(d->nominal, next);
	assert_int_equal(late_count(test_details[0]),
	    (unsigned)((saved - nominal) / 300));
	assert_true(late_count(test_details[0]) >= 11);

	restart_catches_nothing(text);
}

/*
 * A fire a minute, asleep for 8 days: counted up to 10000, then
 * accounted for up to now, and the detail says "over".
 */
static void
test_late_fire_cron_many(void **state)
{
	static const char	*text = "[schedule]\ncron = * * * * *\n"
	    "jitter = 0\ncatch_up = yes\n";
	struct daemon		*d = &test_daemon;
	char			*cause = NULL;
	time_t			 before, after, nominal, saved;

	(void)state;
	/*
	 * Not in a minute's last seconds: the restart at the end must come
	 * in the minute of the late fire, or the next minute's fire is due
	 * and rightly caught up (1 run in 300 failed so).
	 */
	while (time(NULL) % 60 >= 50)
		sleep(1);
	d->cfg = conf(text);
	before = time(NULL);
	set_last(before);
	assert_int_equal(schedule_start(d, &cause), 0);
	assert_int_equal(cron_next(&d->cron, before - 8 * 86400, &nominal),
	    0);
	set_last(nominal - 1);
	d->nominal = d->fire_at = nominal;

	schedule_timer(-1, 0, d);
	after = time(NULL);
	assert_int_equal(test_nruns, 1);
	assert_non_null(strstr(test_details[0],
	    "; over 10000 more fell due before it could start"));
	saved = (time_t)strtoll(test_last, NULL, 10);
	assert_true(saved >= before && saved <= after);
	assert_true(d->nominal > saved && d->nominal <= after + 60);

	restart_catches_nothing(text);
}

/* Set the variable name to value, or unset it for NULL. */
static void
test_env(const char *name, const char *value)
{
	if (value != NULL)
		assert_int_equal(setenv(name, value, 1), 0);
	else
		assert_int_equal(unsetenv(name), 0);
}

/*
 * The zone file the daemon watches is the one the C library reads, for
 * each form of TZ tzset(3) knows: unset, empty, a path with or without
 * ':', and a name without a path, looked for under $TZDIR (glibc) or
 * the zoneinfo directory, which the daemon watched none of.
 */
static void
test_tz_file(void **state)
{
	static const struct {
		const char	*tz;
		const char	*tzdir;
		const char	*file;
	} t[] = {
		{ NULL, NULL, "/etc/localtime" },
		{ NULL, "/srv/zones", "/etc/localtime" },
		{ "", NULL, NULL },
		{ ":", NULL, NULL },
		{ "/srv/tz/here", NULL, "/srv/tz/here" },
		{ ":/etc/localtime", "/srv/zones", "/etc/localtime" },
		{ "Europe/Paris", NULL, "/usr/share/zoneinfo/Europe/Paris" },
		{ ":Europe/Paris", "", "/usr/share/zoneinfo/Europe/Paris" },
		{ "UTC", NULL, "/usr/share/zoneinfo/UTC" },
#ifdef __GLIBC__
		{ "Europe/Paris", "/srv/zones", "/srv/zones/Europe/Paris" },
		{ ":Asia/Tokyo", "/srv/zones", "/srv/zones/Asia/Tokyo" },
#else
		{ "Europe/Paris", "/srv/zones",
		    "/usr/share/zoneinfo/Europe/Paris" },
#endif
	};
	char	*tz, *tzdir, *file;
	size_t	 i;

	(void)state;
	tz = getenv("TZ") != NULL ? xstrdup(getenv("TZ")) : NULL;
	tzdir = getenv("TZDIR") != NULL ? xstrdup(getenv("TZDIR")) : NULL;
	for (i = 0; i < nitems(t); i++) {
		test_env("TZ", t[i].tz);
		test_env("TZDIR", t[i].tzdir);
		file = schedule_tz_file();
		if (t[i].file == NULL && file != NULL)
			fail_msg("TZ=%s: %s, want none", t[i].tz, file);
		if (t[i].file != NULL && (file == NULL ||
		    strcmp(file, t[i].file) != 0))
			fail_msg("TZ=%s TZDIR=%s: %s, want %s", t[i].tz,
			    t[i].tzdir != NULL ? t[i].tzdir : "(unset)",
			    file != NULL ? file : "none", t[i].file);
		free(file);
	}
	test_env("TZ", tz);
	test_env("TZDIR", tzdir);
	free(tzdir);
	free(tz);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_start_catch_up, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_start_queued, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_start_armed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reload_keeps_due_run,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_no_early_catch_up,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_changed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_jitter_within_period,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_fire_interval,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_fire_cron, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_late_fire_cron_many,
		    setup, teardown),
		cmocka_unit_test(test_tz_file),
	};

	log_init("test_daemon_schedule", 1, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
