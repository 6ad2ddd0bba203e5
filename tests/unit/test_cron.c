/*
 * Unit tests of common/cron.c: parsing (the bits each field sets, every
 * kind of error with its message) and the next fire time.  Expected times
 * were computed with Python's datetime and zoneinfo; the search is also
 * checked against a brute-force minute-by-minute reference built on the C
 * library's gmtime_r(), for many random expressions.
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

#include "cron.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "cron_ref.h"

/* Central European time with its EU summer time rule, without tzdata. */
#define TZ_BERLIN	"CET-1CEST,M3.5.0,M10.5.0/3"

static void
set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static struct cron
parse_ok(const char *spec)
{
	struct cron	 c;
	char		*cause = NULL;

	if (cron_parse(spec, &c, &cause) == -1)
		fail_msg("\"%s\": %s", spec, cause);
	return c;
}

/* A mask of the values lo..hi. */
static uint64_t
span(int lo, int hi)
{
	uint64_t	m = 0;
	int		v;

	for (v = lo; v <= hi; v++)
		m |= (uint64_t)1 << v;
	return m;
}

static void
test_parse_fields(void **state)
{
	struct cron	c;

	(void)state;
	c = parse_ok("30 2 * * *");
	assert_true(c.minutes == (uint64_t)1 << 30);
	assert_int_equal(c.hours, 1U << 2);
	assert_int_equal(c.mdays, (uint32_t)span(1, 31));
	assert_int_equal(c.months, (uint16_t)span(1, 12));
	assert_int_equal(c.wdays, 0x7f);
	assert_true(c.mday_star);
	assert_true(c.wday_star);

	c = parse_ok("*/15 8-18 * * MON-FRI");
	assert_true(c.minutes == (span(0, 0) | span(15, 15) | span(30, 30) |
	    span(45, 45)));
	assert_int_equal(c.hours, (uint32_t)span(8, 18));
	assert_int_equal(c.wdays, (uint8_t)span(1, 5));
	assert_false(c.wday_star);

	/* Lists, ranges with steps, "a/step", names in any case. */
	c = parse_ok("  0,10-20/5,50/4 0 1,15 jan,Jul-sep 0  ");
	assert_true(c.minutes == (span(0, 0) | span(10, 10) | span(15, 15) |
	    span(20, 20) | span(50, 50) | span(54, 54) | span(58, 58)));
	assert_int_equal(c.mdays, (1U << 1) | (1U << 15));
	assert_int_equal(c.months, (1U << 1) | (uint16_t)span(7, 9));
	assert_int_equal(c.wdays, 1);
	assert_false(c.mday_star);

	/* 7 is Sunday; '*' of the day of week is 0-6. */
	c = parse_ok("0 0 * * 5-7");
	assert_int_equal(c.wdays, (1U << 0) | (1U << 5) | (1U << 6));
	c = parse_ok("0 0 * * */2");
	assert_int_equal(c.wdays, (1U << 0) | (1U << 2) | (1U << 4) |
	    (1U << 6));
	assert_true(c.wday_star);
	/*
	 * "a/step" runs to the field's end, 7 for the day of week, which
	 * is Sunday: "7/7" was an empty set (the end taken as 6), parsed
	 * as valid and never fired, and "5/1" lost its Sunday.
	 */
	c = parse_ok("* 1 * 7 7/7");
	assert_int_equal(c.wdays, 1U << 0);
	c = parse_ok("0 0 * * 5/1");
	assert_int_equal(c.wdays, (1U << 0) | (1U << 5) | (1U << 6));
	c = parse_ok("0 0 * * 0/3");
	assert_int_equal(c.wdays, (1U << 0) | (1U << 3) | (1U << 6));
	c = parse_ok("0 0 */2 * *");
	assert_true(c.mday_star);
	assert_int_equal(c.mdays & 0x7, (1U << 1));

	/* The @words. */
	c = parse_ok("@hourly");
	assert_true(c.minutes == 1 && c.hours == span(0, 23));
	c = parse_ok("@daily");
	assert_true(c.minutes == 1 && c.hours == 1 && c.wdays == 0x7f);
	c = parse_ok("@weekly");
	assert_true(c.minutes == 1 && c.hours == 1 && c.wdays == 1);
	/* 29 February alone is allowed: it exists in leap years. */
	c = parse_ok("0 0 29 2 *");
	assert_int_equal(c.mdays, 1U << 29);
	/* 31 February with a weekday: either day field may match. */
	c = parse_ok("0 0 31 2 mon");
	assert_false(c.wday_star);
}

static void
test_parse_errors(void **state)
{
	static const struct {
		const char	*spec;
		const char	*cause;
	} bad[] = {
		{ "", "expected 5 fields (minute hour day month weekday), "
		    "got 0" },
		{ "30 2 * *", "expected 5 fields (minute hour day month "
		    "weekday), got 4" },
		{ "0 30 2 * * *", "expected 5 fields (minute hour day month "
		    "weekday), got 6" },
		{ "@yearly", "expected @hourly, @daily or @weekly, got "
		    "\"@yearly\"" },
		{ "60 * * * *", "minute: 60 is out of range 0-59" },
		{ "0 24 * * *", "hour: 24 is out of range 0-23" },
		{ "0 0 0 * *", "day of month: 0 is out of range 1-31" },
		{ "0 0 32 * *", "day of month: 32 is out of range 1-31" },
		{ "0 0 * 13 *", "month: 13 is out of range 1-12" },
		{ "0 0 * * 8", "day of week: 8 is out of range 0-7" },
		{ "0 0 * * 1000", "day of week: 1000... is out of range 0-7" },
		{ "0 0 * foo *", "month: expected a number from 1 to 12 or a "
		    "name (jan-dec), got \"foo\"" },
		{ "0 0 * * sunday", "day of week: expected a number from 0 to "
		    "7 or a name (sun-sat), got \"sunday\"" },
		{ "x * * * *", "minute: expected a number from 0 to 59, got "
		    "\"x\"" },
		{ "$ * * * *", "minute: expected a number, a range or '*', "
		    "got \"$\"" },
		{ "20-10 * * * *", "minute: range 20-10 goes backwards" },
		{ "*/0 * * * *", "minute: step 0 is out of range 1-60" },
		{ "*/61 * * * *", "minute: step 61 is out of range 1-60" },
		{ "*/ * * * *", "minute: expected a step after '/' in \"*/\"" },
		{ "1-2x * * * *", "minute: unexpected \"x\" in \"1-2x\"" },
		{ "1,,2 * * * *", "minute: empty item in the list" },
		{ "1, * * * *", "minute: empty item in the list" },
		{ ",1 * * * *", "minute: empty item in the list" },
		{ "0 0 30,31 2 *", "day of month: no such day in the months "
		    "given, so it never fires" },
		{ "0 0 31 apr,jun,sep,nov *", "day of month: no such day in "
		    "the months given, so it never fires" },
	};
	struct cron	 c;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		if (cron_parse(bad[i].spec, &c, &cause) != -1)
			fail_msg("\"%s\" was accepted", bad[i].spec);
		if (cause == NULL || strcmp(cause, bad[i].cause) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"", bad[i].spec,
			    cause != NULL ? cause : "(null)", bad[i].cause);
		free(cause);
	}
}

static time_t
next_of(const char *spec, time_t after)
{
	struct cron	c = parse_ok(spec);
	time_t		t = 0;

	if (cron_next(&c, after, &t) == -1)
		fail_msg("\"%s\" after %lld: no next time", spec,
		    (long long)after);
	return t;
}

static void
test_next_utc(void **state)
{
	static const struct {
		const char	*spec;
		time_t		 after;
		time_t		 want;
	} cases[] = {
		/* 2026-11-30T10:17:28Z (Monday) -> 2026-12-01T02:30Z */
		{ "30 2 * * *", 1796033848, 1796092200 },
		/* Strictly after: at 02:30:00 the next is tomorrow's. */
		{ "30 2 * * *", 1796092200, 1796178600 },
		{ "30 2 * * *", 1796092199, 1796092200 },
		/* Friday 18:50 -> Monday 08:00. */
		{ "*/15 8-18 * * MON-FRI", 1796410200, 1796630400 },
		/* 29 February: from 2026-03-01 to 2028. */
		{ "0 0 29 2 *", 1772323200, 1835395200 },
		/*
		 * Both day fields must match ("*" starts the day of month):
		 * 1 April on a Thursday, from 1984-06-13 to 1993, and 29
		 * February on a Sunday, from 2088-03-01 to 2128.  Searched
		 * only eight years, neither was found.
		 */
		{ "0 1 */30 4 4", 456010272, 733626000 },
		{ "0 0 29 2 */7", 3728937600, 4991068800 },
		/* Both day fields restricted: the 13th or a Friday. */
		{ "0 12 13 * 5", 1795996800, 1796385600 },
		{ "0 12 13 * *", 1795996800, 1797163200 },
		{ "0 0 * * 7", 1796033848, 1796515200 },
		{ "@weekly", 1796033848, 1796515200 },
		{ "@hourly", 1796033848, 1796036400 },
		{ "@daily", 1796033848, 1796083200 },
		/* Over the year's end. */
		{ "0 0 1 1 *", 1798761599, 1798761600 },
		{ "* * * * *", 1798761599, 1798761600 },
	};
	size_t	i;

	(void)state;
	set_tz("UTC0");
	for (i = 0; i < nitems(cases); i++) {
		time_t got = next_of(cases[i].spec, cases[i].after);

		if (got != cases[i].want)
			fail_msg("\"%s\" after %lld: got %lld, want %lld",
			    cases[i].spec, (long long)cases[i].after,
			    (long long)got, (long long)cases[i].want);
	}
}

static void
test_next_dst(void **state)
{
	time_t	first, t;

	(void)state;
	set_tz(TZ_BERLIN);
	/* A day in winter: 02:30 local is 01:30Z. */
	assert_int_equal(next_of("30 2 * * *", 1796033848), 1796088600);

	/*
	 * 2026-10-25: 02:30 happens twice (CEST, then CET).  It fires once,
	 * at the first, and the next is 2026-10-26T02:30 CET.
	 */
	first = next_of("30 2 * * *", 1792836000);
	assert_int_equal(first, 1792888200);
	assert_int_equal(next_of("30 2 * * *", first), 1792978200);
	/* Started between the two: the wall clock has passed 02:30. */
	assert_int_equal(next_of("30 2 * * *", first + 60), 1792978200);
	/*
	 * Started in the second pass, at 02:10 CET (01:10Z), before its
	 * 02:30: that time happened at the first pass, so not again (the
	 * second 02:30, 01:30Z, was taken for a fire of its own).
	 */
	assert_int_equal(next_of("30 2 * * *", 1792890600), 1792978200);
	assert_int_equal(next_of("*/20 * * * *", 1792890600), 1792893600);
	/* Every minute of the first pass of the repeated hour. */
	t = next_of("* * * * *", 1792888200 - 60);
	assert_int_equal(t, 1792888200);
	assert_int_equal(next_of("* * * * *", t), 1792888200 + 60);

	/*
	 * 2026-03-29: 02:30 does not exist.  It fires when the clock jumps
	 * over it, at 03:00 CEST (01:00Z), as Vixie cron runs a job whose
	 * time was skipped.
	 */
	t = next_of("30 2 * * *", 1774695600);
	assert_int_equal(t, 1774746000);
	assert_int_equal(next_of("30 2 * * *", t), 1774830600);
	set_tz("UTC0");
}

/* Whether spec fires at want[0..n-1] after `after`, and only there. */
static void
fires_at(const char *spec, time_t after, const time_t *want, size_t n)
{
	size_t	i;
	time_t	t = after;

	for (i = 0; i < n; i++) {
		t = next_of(spec, t);
		if (t != want[i])
			fail_msg("\"%s\" in %s, fire %zu: got %lld, want %lld",
			    spec, getenv("TZ"), i, (long long)t,
			    (long long)want[i]);
	}
}

/*
 * A time the clock jumps over fires at the jump, whatever the zone and
 * however the C library's mktime() normalises it.  glibc moved 01:30 of
 * Irish time's spring day back to 00:30 GMT (its winter time is the
 * one with the DST flag), so a start at 00:45 lost the day's run and
 * "30 0,1" ran once; it moved 02:10 of a 30-minute jump to 02:40, past
 * the 02:35 that exists; and 02:00 of a two-hour jump to 04:00, past
 * 03:00.
 */
static void
test_next_dst_skipped(void **state)
{
	/* 2026-03-29 01:00Z: 01:00 GMT becomes 02:00 IST. */
	static const time_t	dublin_start[] = { 1774746000, 1774830600 };
	static const time_t	dublin_two[] = { 1774744200, 1774746000,
				    1774827000 };
	/* 2026-10-03 15:30Z: 02:00 +1030 becomes 02:30 +11. */
	static const time_t	lord_howe[] = { 1791041400, 1791041700,
				    1791126600 };
	/* 2026-03-29 01:00Z: 01:00 +00 becomes 03:00 +02. */
	static const time_t	two_hours[] = { 1774746000, 1774828800,
				    1774832400 };

	(void)state;
	set_tz("IST-1GMT0,M10.5.0,M3.5.0/1");
	fires_at("30 1 * * *", 1774745100, dublin_start,
	    nitems(dublin_start));
	fires_at("30 0,1 * * *", 1774738800, dublin_two, nitems(dublin_two));
	set_tz("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
	fires_at("10,35 2 * * *", 1791028800, lord_howe, nitems(lord_howe));
	set_tz("<+00>0<+02>-2,M3.5.0/1,M10.5.0/3");
	fires_at("0 2,3 * * *", 1774699200, two_hours, nitems(two_hours));
	set_tz("UTC0");
}

/* One random field: '*', a value, a range, a step or a list of them. */
static void
random_field(char *buf, size_t len, int lo, int hi, int *star)
{
	int	a, b, kind = rand() % 6;

	a = lo + rand() % (hi - lo + 1);
	b = a + rand() % (hi - a + 1);
	*star = 0;
	switch (kind) {
	case 0:
		snprintf(buf, len, "*");
		*star = 1;
		break;
	case 1:
		snprintf(buf, len, "*/%d", 1 + rand() % 7);
		*star = 1;
		break;
	case 2:
		snprintf(buf, len, "%d", a);
		break;
	case 3:
		snprintf(buf, len, "%d-%d", a, b);
		break;
	case 4:
		snprintf(buf, len, "%d-%d/%d", a, b, 1 + rand() % 3);
		break;
	default:
		snprintf(buf, len, "%d,%d", a, b);
		break;
	}
}

static void
test_next_brute_force(void **state)
{
	char		 f[5][32], spec[200], *cause;
	struct cron	 c;
	time_t		 after, got, t, limit;
	int		 i, star, checked = 0, found;

	(void)state;
	set_tz("UTC0");
	srand(20261130);
	for (i = 0; i < 300; i++) {
		random_field(f[0], sizeof(f[0]), 0, 59, &star);
		random_field(f[1], sizeof(f[1]), 0, 23, &star);
		random_field(f[2], sizeof(f[2]), 1, 28, &star);
		random_field(f[3], sizeof(f[3]), 1, 12, &star);
		random_field(f[4], sizeof(f[4]), 0, 6, &star);
		snprintf(spec, sizeof(spec), "%s %s %s %s %s", f[0], f[1],
		    f[2], f[3], f[4]);
		cause = NULL;
		if (cron_parse(spec, &c, &cause) == -1)
			fail_msg("\"%s\": %s", spec, cause);
		/* Some time in 2026-2027, not on a minute boundary. */
		after = 1767225600 + (time_t)(rand() % (730 * 86400));
		if (cron_next(&c, after, &got) == -1)
			fail_msg("\"%s\": no next time", spec);
		/* The reference walks minutes for up to 400 days. */
		limit = after + 400 * 86400;
		found = 0;
		for (t = after - after % 60 + 60; t <= limit; t += 60) {
			if (cron_ref_matches(&c, t)) {
				found = 1;
				break;
			}
		}
		if (found) {
			if (got != t)
				fail_msg("\"%s\" after %lld: got %lld, the "
				    "reference %lld", spec, (long long)after,
				    (long long)got, (long long)t);
			checked++;
		} else if (got <= limit)
			fail_msg("\"%s\" after %lld: got %lld, the reference "
			    "found nothing before %lld", spec,
			    (long long)after, (long long)got,
			    (long long)limit);
	}
	/* Most random expressions fire within 400 days. */
	assert_true(checked > 250);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_next_utc),
		cmocka_unit_test(test_next_dst),
		cmocka_unit_test(test_next_dst_skipped),
		cmocka_unit_test(test_next_brute_force),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
