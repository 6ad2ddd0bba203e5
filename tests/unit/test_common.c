/*
 * Unit tests of common/: time parsing and formatting (timefmt.c) and the
 * JSON helpers (json.c).  Expected times were computed with Python's
 * datetime, independently of our calendar code; the calendar is also
 * checked against the C library's gmtime_r() over the whole range.
 * perfwatch_closefrom()'s fallback loop is run in a child (util.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "lines.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"

static const struct {
	const char	*in;
	int64_t		 want;
} good_times[] = {
	{ "0", 0 },
	{ "1700000000", 1700000000 },
	{ "1700000000.999", 1700000000 },
	{ "0001700000000", 1700000000 },
	{ "253402300799", TIMEFMT_MAX },
	{ "2023-11-14T22:13:20Z", 1700000000 },
	{ "2026-11-30T02:30:00Z", 1796005800 },
	{ "2026-11-30t02:30:00z", 1796005800 },
	{ "2026-11-30 02:30:00Z", 1796005800 },
	{ "2026-11-30T03:30:00+01:00", 1796005800 },
	{ "2026-11-29T21:00:00-05:30", 1796005800 },
	{ "2026-11-30T02:30:00-00:00", 1796005800 },
	{ "2026-11-30T02:30:00.999999Z", 1796005800 },
	{ "2026-11-30T02:30:00.5+00:00", 1796005800 },
	{ "1970-01-01T00:00:00Z", 0 },
	{ "1969-12-31T23:59:59Z", -1 },
	{ "1969-12-31T23:59:59.9Z", -1 },
	{ "1969-07-20T20:17:40Z", -14182940 },
	{ "2000-02-29T00:00:00Z", 951782400 },
	{ "2024-02-29T12:00:00Z", 1709208000 },
	{ "2038-01-19T03:14:08Z", 2147483648LL },
	{ "0000-01-01T00:00:00Z", TIMEFMT_MIN },
	{ "0000-01-01T01:00:00+01:00", TIMEFMT_MIN },
	{ "9999-12-31T23:59:59Z", TIMEFMT_MAX },
};

static const struct {
	const char	*in;
	const char	*why;
} bad_times[] = {
	{ "", "expected a time, got nothing" },
	{ "2026-02-30T00:00:00Z", "day out of range for the month" },
	{ "2023-02-29T00:00:00Z", "day out of range for the month" },
	{ "1900-02-29T00:00:00Z", "day out of range for the month" },
	{ "2026-04-31T00:00:00Z", "day out of range for the month" },
	{ "2026-11-00T00:00:00Z", "day out of range for the month" },
	{ "2026-13-01T00:00:00Z", "month out of range" },
	{ "2026-00-01T00:00:00Z", "month out of range" },
	{ "2026-11-30T24:00:00Z", "hour out of range" },
	{ "2026-11-30T23:60:00Z", "minute out of range" },
	{ "2026-11-30T23:59:60Z", "second out of range" },
	{ "2026-11-30T02:30:00+24:00", "offset out of range" },
	{ "2026-11-30T02:30:00+01:60", "offset out of range" },
	{ "0000-01-01T00:00:00+00:01", "time out of range" },
	{ "9999-12-31T23:59:59-00:01", "time out of range" },
	{ "253402300800", "time out of range" },
	{ "99999999999999999999999", "time out of range" },
	{ "2026-11-30T02:30:00.Z", "expected digits after '.'" },
	{ "1700000000.", "expected digits after '.'" },
	{ "1.2.3", "expected seconds since the epoch" },
	{ ".5", "expected seconds since the epoch" },
	{ "2026-11-30T02:30:00",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-11-30",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-11-30T02:30Z",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-11-30T02:30:00+0100",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-11-30T02:30:00ZZ",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "26-11-30T02:30:00Z",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-1-30T02:30:00Z",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "2026-11-30X02:30:00Z",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ " 1700000000",
	    "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "-1", "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
	{ "1.7e9", "expected YYYY-MM-DDTHH:MM:SS and Z or an offset" },
};

static void
test_time_parse(void **state)
{
	const char	*why;
	int64_t		 t;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(good_times); i++) {
		why = NULL;
		if (timefmt_parse(good_times[i].in, &t, &why) == -1)
			fail_msg("%s: %s", good_times[i].in, why);
		if (t != good_times[i].want)
			fail_msg("%s: got %lld, want %lld", good_times[i].in,
			    (long long)t, (long long)good_times[i].want);
	}
	for (i = 0; i < nitems(bad_times); i++) {
		why = NULL;
		t = 12345;
		if (timefmt_parse(bad_times[i].in, &t, &why) != -1)
			fail_msg("\"%s\": accepted as %lld", bad_times[i].in,
			    (long long)t);
		assert_int_equal(t, 12345);
		if (strcmp(why, bad_times[i].why) != 0)
			fail_msg("\"%s\": why \"%s\", want \"%s\"",
			    bad_times[i].in, why, bad_times[i].why);
	}
	/* The specific parsers refuse the other form; why may be NULL. */
	assert_int_equal(timefmt_parse_epoch("2026-11-30T02:30:00Z", &t, NULL),
	    -1);
	assert_int_equal(timefmt_parse_rfc3339("1700000000", &t, NULL), -1);
}

static void
test_time_format(void **state)
{
	char	 buf[TIMEFMT_RFC3339_LEN];

	(void)state;
	assert_int_equal(timefmt_format(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
	assert_int_equal(timefmt_format(1700000000, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2023-11-14T22:13:20Z");
	assert_int_equal(timefmt_format(-1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1969-12-31T23:59:59Z");
	assert_int_equal(timefmt_format(951782400 + 86399, buf, sizeof(buf)),
	    0);
	assert_string_equal(buf, "2000-02-29T23:59:59Z");
	assert_int_equal(timefmt_format(TIMEFMT_MIN, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0000-01-01T00:00:00Z");
	assert_int_equal(timefmt_format(TIMEFMT_MAX, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "9999-12-31T23:59:59Z");
	assert_int_equal(timefmt_format(TIMEFMT_MAX + 1, buf, sizeof(buf)), -1);
	assert_int_equal(timefmt_format(TIMEFMT_MIN - 1, buf, sizeof(buf)), -1);
	assert_int_equal(timefmt_format(0, buf, sizeof(buf) - 1), -1);
}

/*
 * Every day from 0000-01-01 to 9999-12-31: civil_from_days and back is the
 * identity, and the dates advance one day at a time.
 */
static void
test_calendar_every_day(void **state)
{
	int64_t	 first, last, d;
	int	 y, m, dd, py = 0, pm = 1, pd = 0;

	(void)state;
	first = timefmt_days_from_civil(0, 1, 1);
	last = timefmt_days_from_civil(9999, 12, 31);
	assert_int_equal(first, -719528);
	assert_int_equal(last, 2932896);
	assert_int_equal(timefmt_days_from_civil(1970, 1, 1), 0);
	for (d = first; d <= last; d++) {
		timefmt_civil_from_days(d, &y, &m, &dd);
		if (timefmt_days_from_civil(y, m, dd) != d)
			fail_msg("day %lld: %04d-%02d-%02d does not map back",
			    (long long)d, y, m, dd);
		if (d > first && !((y == py && m == pm && dd == pd + 1) ||
		    (y == py && m == pm + 1 && dd == 1 &&
		    pd == timefmt_days_in_month(py, pm)) ||
		    (y == py + 1 && m == 1 && dd == 1 && pm == 12 && pd == 31)))
			fail_msg("%04d-%02d-%02d follows %04d-%02d-%02d",
			    y, m, dd, py, pm, pd);
		py = y;
		pm = m;
		pd = dd;
	}
	assert_int_equal(py, 9999);
	assert_int_equal(timefmt_days_in_month(2000, 2), 29);
	assert_int_equal(timefmt_days_in_month(2100, 2), 28);
	assert_int_equal(timefmt_days_in_month(2024, 2), 29);
	assert_int_equal(timefmt_days_in_month(2023, 2), 28);
	assert_int_equal(timefmt_days_in_month(2023, 13), 0);
}

/* Our formatting agrees with the C library's gmtime_r() everywhere. */
static void
test_time_against_gmtime(void **state)
{
	char		 ours[TIMEFMT_RFC3339_LEN], theirs[64];
	struct tm	 tm;
	int64_t		 t, step;
	time_t		 tt;

	(void)state;
	/* A prime step visits every second of the day in turn. */
	step = (TIMEFMT_MAX - TIMEFMT_MIN) / 200000 + 7;
	for (t = TIMEFMT_MIN; t <= TIMEFMT_MAX; t += step) {
		tt = (time_t)t;
		assert_non_null(gmtime_r(&tt, &tm));
		snprintf(theirs, sizeof(theirs),
		    "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		    tm.tm_sec);
		assert_int_equal(timefmt_format(t, ours, sizeof(ours)), 0);
		if (strcmp(ours, theirs) != 0)
			fail_msg("%lld: ours %s, gmtime %s", (long long)t,
			    ours, theirs);
	}
}

/* Formatting then parsing gives the same second. */
static void
test_time_round_trip(void **state)
{
	char	 buf[TIMEFMT_RFC3339_LEN];
	int64_t	 t, back;
	uint64_t x = 88172645463325252ULL;
	int	 i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t = TIMEFMT_MIN + (int64_t)(x % (uint64_t)(TIMEFMT_MAX -
		    TIMEFMT_MIN + 1));
		assert_int_equal(timefmt_format(t, buf, sizeof(buf)), 0);
		assert_int_equal(timefmt_parse(buf, &back, NULL), 0);
		assert_int_equal(back, t);
	}
}

static const struct {
	const char	*in;
	int64_t		 want;
} good_durations[] = {
	{ "0", 0 },
	{ "0s", 0 },
	{ "90", 90 },
	{ "90s", 90 },
	{ "10m", 600 },
	{ "2h", 7200 },
	{ "1d", 86400 },
	{ "1w", 604800 },
	{ "1h30m", 5400 },
	{ "1d12h", 129600 },
	{ "1w2d3h4m5s", 788645 },
	{ "9223372036854775807", INT64_MAX },
	{ "9223372036854775807s", INT64_MAX },
};

static const struct {
	const char	*in;
	const char	*why;
} bad_durations[] = {
	{ "", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "m", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "10 m", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "1x", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "1.5h", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "-1s", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "1h30", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "10M", "expected a duration such as 90s, 10m, 2h or 1d" },
	{ "1m1h", "expected units from largest to smallest, each once" },
	{ "1h1h", "expected units from largest to smallest, each once" },
	{ "9223372036854775808", "duration too long" },
	{ "2562047788015216h", "duration too long" },
	{ "106751991167300d24h", "duration too long" },
};

static void
test_duration(void **state)
{
	char		 buf[TIMEFMT_DURATION_LEN];
	const char	*why;
	int64_t		 d;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(good_durations); i++) {
		if (timefmt_parse_duration(good_durations[i].in, &d, &why) ==
		    -1)
			fail_msg("%s: %s", good_durations[i].in, why);
		if (d != good_durations[i].want)
			fail_msg("%s: got %lld", good_durations[i].in,
			    (long long)d);
	}
	for (i = 0; i < nitems(bad_durations); i++) {
		why = NULL;
		if (timefmt_parse_duration(bad_durations[i].in, &d, &why) != -1)
			fail_msg("\"%s\": accepted as %lld",
			    bad_durations[i].in, (long long)d);
		if (strcmp(why, bad_durations[i].why) != 0)
			fail_msg("\"%s\": why \"%s\"", bad_durations[i].in,
			    why);
	}

	assert_int_equal(timefmt_format_duration(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0s");
	assert_int_equal(timefmt_format_duration(90, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1m30s");
	assert_int_equal(timefmt_format_duration(86400, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1d");
	assert_int_equal(timefmt_format_duration(93784, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1d2h3m4s");
	assert_int_equal(timefmt_format_duration(INT64_MAX, buf, sizeof(buf)),
	    0);
	assert_string_equal(buf, "106751991167300d15h30m7s");
	assert_int_equal(timefmt_parse_duration(buf, &d, NULL), 0);
	assert_int_equal(d, INT64_MAX);
	assert_int_equal(timefmt_format_duration(-1, buf, sizeof(buf)), -1);
	assert_int_equal(timefmt_format_duration(93784, buf, 8), -1);
	assert_int_equal(timefmt_format_duration(93784, buf, 9), 0);
}

static void
test_json_output(void **state)
{
	json_t	*o, *inner;
	char	*s;

	(void)state;
	o = pwjson_object();
	pwjson_set_str(pwjson_set_num(pwjson_set_num(o, "median", 19004.1),
	    "ratio", 0.1), "name", "disk \"write\"\n");
	pwjson_set_int(pwjson_set_bool(o, "ok", 1), "n", -3);
	pwjson_set(o, "none", json_null());
	inner = pwjson_append(pwjson_append(pwjson_array(), json_integer(1)),
	    json_real(2.5));
	pwjson_set(o, "values", inner);
	pwjson_set(o, "empty", pwjson_object());
	pwjson_set(o, "list", pwjson_array());

	s = pwjson_dumps(o, PWJSON_COMPACT);
	assert_string_equal(s, "{\"median\":19004.1,\"ratio\":0.1,"
	    "\"name\":\"disk \\\"write\\\"\\n\",\"ok\":true,\"n\":-3,"
	    "\"none\":null,\"values\":[1,2.5],\"empty\":{},\"list\":[]}");
	free(s);

	s = pwjson_dumps(o, PWJSON_COMPACT | PWJSON_SORT_KEYS);
	assert_string_equal(s, "{\"empty\":{},\"list\":[],\"median\":19004.1,"
	    "\"n\":-3,\"name\":\"disk \\\"write\\\"\\n\",\"none\":null,"
	    "\"ok\":true,\"ratio\":0.1,\"values\":[1,2.5]}");
	free(s);
	json_decref(o);

	o = pwjson_set_str(pwjson_object(), "b", "x");
	pwjson_set(o, "a", pwjson_append(pwjson_append(pwjson_array(),
	    json_integer(1)), pwjson_set_bool(pwjson_object(), "c", 0)));
	s = pwjson_dumps(o, PWJSON_PRETTY);
	assert_string_equal(s, "{\n  \"b\": \"x\",\n  \"a\": [\n    1,\n"
	    "    {\n      \"c\": false\n    }\n  ]\n}");
	free(s);
	json_decref(o);

	/* JSON has no infinity nor NaN: an array of them holds nulls. */
	o = pwjson_append(pwjson_append(pwjson_append(pwjson_array(),
	    pwjson_num(1000)), pwjson_num(INFINITY)), pwjson_num(NAN));
	pwjson_append(o, pwjson_num(-INFINITY));
	s = pwjson_dumps(o, PWJSON_COMPACT);
	assert_string_equal(s, "[1000.0,null,null,null]");
	free(s);
	json_decref(o);
}

static void
test_json_reals(void **state)
{
	static const struct {
		double		 d;
		const char	*want;
	} reals[] = {
		{ 1.0, "1.0" },
		{ -0.0, "-0.0" },
		{ 0.1, "0.1" },
		{ 0.30000000000000004, "0.30000000000000004" },
		{ 1.0 / 3.0, "0.3333333333333333" },
		{ 1e300, "1e+300" },
		{ 123456789012345678901234.0, "1.2345678901234569e+23" },
		/*
		 * Subnormals in their fewest digits, as a CSV writes them
		 * (store_format_double): "%.15g" gave 9.99999999999997e-311
		 * and 4.94065645841247e-324.
		 */
		{ 1e-310, "1e-310" },
		{ 5e-324, "5e-324" },
		{ -2.2250738585072e-309, "-2.2250738585072e-309" },
		{ 19004.1, "19004.1" },
	};
	json_t		*v, *back;
	char		*s, *cause = NULL;
	uint64_t	 x = 0x9e3779b97f4a7c15ULL, bits;
	double		 d;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(reals); i++) {
		v = json_real(reals[i].d);
		s = pwjson_dumps(v, 0);
		assert_string_equal(s, reals[i].want);
		free(s);
		json_decref(v);
	}
	/* Random doubles read back bit for bit. */
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bits = x;
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		v = pwjson_append(pwjson_array(), json_real(d));
		s = pwjson_dumps(v, 0);
		back = pwjson_parse(s, strlen(s), &cause);
		if (back == NULL)
			fail_msg("%s: %s", s, cause);
		if (memcmp(&d, &(double){ json_real_value(json_array_get(back,
		    0)) }, sizeof(d)) != 0)
			fail_msg("%.17g printed as %s", d, s);
		free(s);
		json_decref(v);
		json_decref(back);
	}
}

static void
test_json_print(void **state)
{
	FILE	*fp;
	json_t	*o;
	char	 buf[64];
	size_t	 n;

	(void)state;
	fp = tmpfile();
	assert_non_null(fp);
	o = pwjson_set_int(pwjson_object(), "runs", 25);
	assert_int_equal(pwjson_print(fp, o, PWJSON_COMPACT), 0);
	assert_int_equal(pwjson_print(fp, o, PWJSON_PRETTY), 0);
	rewind(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	assert_string_equal(buf, "{\"runs\":25}\n{\n  \"runs\": 25\n}\n");
	fclose(fp);
	json_decref(o);
}

static void
test_json_strings(void **state)
{
	static const struct {
		const char	*in;
		const char	*want;
	} strs[] = {
		{ "plain", "\"plain\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
		{ "a\xff" "b", "\"a\xef\xbf\xbd" "b\"" },
		/* Overlong '/', a surrogate, a cut sequence, past U+10FFFF. */
		{ "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xf4\x90\x80\x80",
		    "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "tab\there\x01\x1f\\/", "\"tab\\there\\u0001\\u001f\\\\/\"" },
	};
	json_t	*v;
	char	*s;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(strs); i++) {
		v = pwjson_str(strs[i].in);
		s = pwjson_dumps(v, 0);
		assert_string_equal(s, strs[i].want);
		free(s);
		json_decref(v);
	}
	v = pwjson_str(NULL);
	assert_true(json_is_null(v));
	json_decref(v);
	v = pwjson_set_num(pwjson_object(), "x", NAN);
	s = pwjson_dumps(v, 0);
	assert_string_equal(s, "{\"x\":null}");
	free(s);
	json_decref(v);
}

/* Held bytes come first, and a held line cut short goes on in the file. */
static void
test_lines_held(void **state)
{
	static const char	 rest[] = "ef\ngh";
	struct lines		 l;
	FILE			*f = fmemopen((void *)rest, strlen(rest), "r");

	(void)state;
	assert_non_null(f);
	lines_init(&l, f, "\nab\ncd", 6);
	assert_int_equal(lines_next(&l), 1);
	assert_string_equal(l.line, "\n");
	assert_int_equal(lines_next(&l), 3);
	assert_string_equal(l.line, "ab\n");
	assert_int_equal(lines_next(&l), 5);
	assert_string_equal(l.line, "cdef\n");
	assert_int_equal(lines_next(&l), 2);
	assert_string_equal(l.line, "gh");
	assert_int_equal(lines_next(&l), -1);
	lines_free(&l);
	fclose(f);
	/* Nothing held: the file alone; a cut line at EOF stays cut. */
	f = fmemopen((void *)rest, strlen(rest), "r");
	assert_non_null(f);
	lines_init(&l, f, NULL, 0);
	assert_int_equal(lines_next(&l), 3);
	assert_string_equal(l.line, "ef\n");
	lines_free(&l);
	fclose(f);
	f = fmemopen((void *)rest, 0, "r");
	assert_non_null(f);
	lines_init(&l, f, "x", 1);
	assert_int_equal(lines_next(&l), 1);
	assert_string_equal(l.line, "x");
	assert_int_equal(lines_next(&l), -1);
	lines_free(&l);
	fclose(f);
}

/* utf8_check finds the first byte that does not start a valid sequence. */
static void
test_utf8_check(void **state)
{
	static const struct {
		const char	*in;
		int		 rc;
		size_t		 bad;
	} cases[] = {
		{ "", 0, 0 },
		{ "caf\xc3\xa9 \xf0\x9f\x98\x80", 0, 0 },
		{ "r\xff" "1", -1, 1 },
		{ "ab\xc0\xaf", -1, 2 },		/* overlong '/' */
		{ "\xed\xa0\x80", -1, 0 },		/* a surrogate */
		{ "xy\xe2\x82", -1, 2 },		/* cut short */
		{ "\xf4\x90\x80\x80", -1, 0 },	/* past U+10FFFF */
	};
	size_t	i, bad;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		bad = 99;
		assert_int_equal(utf8_check(cases[i].in, &bad), cases[i].rc);
		assert_int_equal(bad, cases[i].rc == 0 ? 99 : cases[i].bad);
	}
}

/*
 * utf8_width counts the columns a terminal shows: a combining accent
 * none, a CJK character or an emoji two, a byte outside UTF-8 one.  The
 * widths of the scripts with marks are those of glibc 2.36's wcwidth(3).
 */
static void
test_utf8_width(void **state)
{
	static const struct {
		const char	*in;
		size_t		 width;
	} cases[] = {
		{ "", 0 },
		{ "zlib1g", 6 },
		{ "caf\xc3\xa9", 4 },			/* é precomposed */
		{ "cafe\xcc\x81", 4 },			/* e and U+0301 */
		{ "fonts-\xe6\x97\xa5\xe6\x9c\xac", 10 },	/* 日本 */
		{ "\xf0\x9f\x9a\x80 go", 5 },		/* U+1F680 */
		{ "\xe2\x98\x85", 1 },			/* U+2605, narrow */
		{ "r\xff" "1", 3 },
		/* Thai: a consonant, a vowel above, a tone mark above */
		{ "\xe0\xb8\x97\xe0\xb8\xb5\xe0\xb9\x88", 1 },
		/* Hebrew with its points: four letters, three marks */
		{ "\xd7\xa9\xd6\xb8\xd7\x81\xd7\x9c"
		  "\xd7\x95\xd6\xb9\xd7\x9d", 4 },
		/* Arabic with its vowel signs: five letters, four marks */
		{ "\xd9\x85\xd9\x8e\xd8\xb1\xd9\x92\xd8\xad\xd9\x8e"
		  "\xd8\xa8\xd9\x8b\xd8\xa7", 5 },
		/* Devanagari: the virama none, the spacing vowel signs one */
		{ "\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d"
		  "\xe0\xa4\xa6\xe0\xa5\x80", 5 },
		/* Hangul: a syllable, and the same from jamo */
		{ "\xed\x95\x9c", 2 },
		{ "\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8", 2 },
		{ "a\xe2\x80\x8d" "b", 2 },		/* U+200D joiner */
		{ "\xc2\xad", 1 },			/* soft hyphen */
		{ "\xe4\xb7\x80", 2 },			/* U+4DC0 hexagram */
		{ "\xf0\x9f\xa7\xbf", 2 },		/* U+1F9FF */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(cases); i++)
		assert_int_equal(utf8_width(cases[i].in), cases[i].width);
}

static void
test_json_getters(void **state)
{
	static const char	 text[] = "{\"name\": \"disk.bonnie\", "
	    "\"n\": 5, \"v\": 2.5, \"ok\": true, \"nil\": null, \"arr\": []}";
	json_t		*o;
	const char	*s;
	char		*cause = NULL;
	int64_t		 n;
	double		 d;
	int		 b;

	(void)state;
	o = pwjson_parse(text, strlen(text), &cause);
	assert_non_null(o);
	assert_int_equal(pwjson_get_str(o, "name", &s, &cause), 0);
	assert_string_equal(s, "disk.bonnie");
	assert_int_equal(pwjson_get_int(o, "n", &n, &cause), 0);
	assert_int_equal(n, 5);
	assert_int_equal(pwjson_get_num(o, "n", &d, &cause), 0);
	assert_true(d == 5.0);
	assert_int_equal(pwjson_get_num(o, "v", &d, &cause), 0);
	assert_true(d == 2.5);
	assert_int_equal(pwjson_get_bool(o, "ok", &b, &cause), 0);
	assert_int_equal(b, 1);
	assert_int_equal(pwjson_has(o, "ok"), 1);
	assert_int_equal(pwjson_has(o, "nil"), 0);
	assert_int_equal(pwjson_has(o, "nope"), 0);

	assert_int_equal(pwjson_get_int(o, "v", &n, &cause), -1);
	assert_string_equal(cause, "v: expected an integer, got a real number");
	free(cause);
	assert_int_equal(pwjson_get_str(o, "n", &s, &cause), -1);
	assert_string_equal(cause, "n: expected a string, got an integer");
	free(cause);
	assert_int_equal(pwjson_get_num(o, "name", &d, &cause), -1);
	assert_string_equal(cause, "name: expected a number, got a string");
	free(cause);
	assert_int_equal(pwjson_get_bool(o, "nil", &b, &cause), -1);
	assert_string_equal(cause, "nil: expected true or false, got null");
	free(cause);
	assert_int_equal(pwjson_get_str(o, "missing", &s, &cause), -1);
	assert_string_equal(cause, "missing: missing");
	free(cause);
	assert_int_equal(pwjson_get_str(json_object_get(o, "arr"), "x", &s,
	    &cause), -1);
	assert_string_equal(cause, "x: expected an object, got an array");
	free(cause);
	json_decref(o);
}

static void
test_json_parse_errors(void **state)
{
	json_t	*o;
	char	*cause = NULL;

	(void)state;
	o = pwjson_parse("{\"a\": 1, \"a\": 2}", 16, &cause);
	assert_null(o);
	assert_string_equal(cause, "line 1, column 12: duplicate object key "
	    "near '\"a\"'");
	free(cause);
	o = pwjson_parse("{\"a\":\n", 6, &cause);
	assert_null(o);
	assert_string_equal(cause, "line 2, column 0: unexpected token near "
	    "end of file");
	free(cause);
	o = pwjson_parse("{} x", 4, &cause);
	assert_null(o);
	assert_string_equal(cause, "line 1, column 4: end of file expected "
	    "near 'x'");
	free(cause);
}

/* Names sort as a reader counts: numbers by value, the rest by bytes. */
static void
test_name_cmp(void **state)
{
	static const char *const order[] = {
		"", "fcopy256", "fcopy1024", "fcopy4096", "p95_ms_t1",
		"tps", "tps_t1", "tps_t02", "tps_t2", "tps_t4", "tps_t8",
		"tps_t16", "tps_t16x", "tps_t99999999999999999999999",
		"tps_t100000000000000000000000", "tps_u", "write_kps",
	};
	size_t	i, j;
	int	c;

	(void)state;
	for (i = 0; i < nitems(order); i++)
		for (j = 0; j < nitems(order); j++) {
			c = name_cmp(order[i], order[j]);
			if (i < j)
				assert_int_equal(c, -1);
			else if (i > j)
				assert_int_equal(c, 1);
			else
				assert_int_equal(c, 0);
		}
}

/* A typo's distance: added, dropped, changed or swapped letters. */
static void
test_name_near(void **state)
{
	static const struct {
		const char	*typed, *known;
		int		 want;
	} cases[] = {
		{ "timeout", "timeout", 0 },
		{ "Timeout", "timeout", 0 },
		{ "timout", "timeout", 1 },		/* dropped */
		{ "timeoutt", "timeout", 1 },		/* added */
		{ "timeoot", "timeout", 1 },		/* changed */
		{ "tiemout", "timeout", 1 },		/* swapped */
		{ "tmieuot", "timeout", 2 },
		{ "xxxeout", "timeout", -1 },		/* three */
		{ "iteratons", "iterations", 1 },
		{ "warmpu", "warmup", 1 },
		{ "gti", "git", 1 },
		{ "ti", "to", 1 },
		{ "tx", "to", 1 },
		{ "xy", "to", -1 },			/* short: one at most */
		{ "tooo", "to", -1 },
		{ "shedule", "schedule", 1 },
		{ "", "to", -1 },
		{ "", "", 0 },
	};
	char	long_name[NAME_NEAR_MAX + 2];
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		if (name_near(cases[i].typed, cases[i].known) != cases[i].want)
			fail_msg("%s / %s: %d, not %d", cases[i].typed,
			    cases[i].known, name_near(cases[i].typed,
			    cases[i].known), cases[i].want);
	}
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(name_near(long_name, long_name), -1);
	long_name[NAME_NEAR_MAX] = '\0';
	assert_int_equal(name_near(long_name, long_name), 0);
}

/*
 * The names suggested for a name mistyped: the nearest one, two when
 * they tie, none when more tie or nothing is near.
 */
static void
test_name_hint(void **state)
{
	static char *const battery[] = { "cpu.dhrystone", "cpu.whetstone",
	    "disk.bonnie", "disk.seeks", "mem.stream", "sys.pipe",
	    "sys.execl", "db.oltp" };
	static char *const tie[] = { "sys.pipa", "sys.pipe", "sys.pipo" };
	static char *const pair[] = { "sys.pipa", "sys.pipe", "mem.stream" };
	static char *const dup[] = { "sys.pipe", "sys.pipe", "sys.pipx" };
	static const struct {
		const char	*typed;
		char *const	*names;
		size_t		 n;
		const char	*want;		/* NULL: no hint */
	} cases[] = {
		{ "disk.bonie", battery, 8, "disk.bonnie" },	/* dropped */
		{ "disk.bnonie", battery, 8, "disk.bonnie" },	/* swapped */
		{ "sys.ppie", battery, 8, "sys.pipe" },		/* swapped */
		{ "diskbonnie", battery, 8, "disk.bonnie" },	/* no dot */
		{ "memstream", battery, 8, "mem.stream" },
		{ "SYS.PIPE", battery, 8, "sys.pipe" },		/* case */
		{ "Disk.Bonie", battery, 8, "disk.bonnie" },
		/* Nearer wins over farther: pipe (1) before pipa (2). */
		{ "sys.pipe2", pair, 3, "sys.pipe" },
		/* A tie of two: both, in the list's order. */
		{ "sys.pipi", pair, 3, "sys.pipa or sys.pipe" },
		/* A tie of three: none, as any one would be a guess. */
		{ "sys.pipi", tie, 3, NULL },
		/* One name listed twice is one name. */
		{ "sys.pip", dup, 3, "sys.pipe or sys.pipx" },
		/* A prefix, as far as it is one name's alone. */
		{ "disk.bon", battery, 8, "disk.bonnie" },
		{ "cpu.dhry", battery, 8, "cpu.dhrystone" },
		{ "disk.", battery, 8, "disk.bonnie or disk.seeks" },
		{ "cpu", battery, 8, "cpu.dhrystone or cpu.whetstone" },
		{ "sys", tie, 3, NULL },
		{ "d", battery, 8, NULL },			/* too short */
		/* Nothing near; an empty list; an empty name; a glob. */
		{ "network.tcp", battery, 8, NULL },
		{ "disk.bonie", battery, 0, NULL },
		{ "disk.bonie", NULL, 0, NULL },
		{ "", battery, 8, NULL },
		{ "sys.pip*", battery, 8, NULL },
		/* The name itself is the nearest (catch-up as catch_up). */
		{ "sys.pipe", dup, 3, "sys.pipe" },
	};
	char	*got;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		got = name_hint(cases[i].typed, cases[i].names, cases[i].n);
		if (!same_str(got, cases[i].want))
			fail_msg("%s: \"%s\", not \"%s\"", cases[i].typed,
			    got != NULL ? got : "(none)", cases[i].want !=
			    NULL ? cases[i].want : "(none)");
		free(got);
	}
}

/*
 * In a child, as between fork and exec: 0-20 and the last number the
 * limit allows are open, perfwatch_closefrom_fallback(10) runs, then
 * 0-9 must still be open and the rest closed.  The loop is what runs
 * where the C library has no closefrom(), so it is called directly.
 * The child's exit status: 0, or 1 + the first wrong descriptor (200
 * for the last one).
 */
static void
test_closefrom_fallback(void **state)
{
	struct rlimit	rl;
	pid_t		pid;
	int		status, null, fd, top = -1;

	(void)state;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > 21 &&
	    rl.rlim_cur <= 65536)
		top = (int)rl.rlim_cur - 1;
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		if ((null = open("/dev/null", O_RDWR)) == -1)
			_exit(255);
		for (fd = 0; fd <= 20; fd++)
			if (fd != null && dup2(null, fd) == -1)
				_exit(254);
		if (top != -1 && dup2(null, top) == -1)
			_exit(253);
		perfwatch_closefrom_fallback(10);
		for (fd = 0; fd <= 20; fd++)
			if ((fcntl(fd, F_GETFD) == -1) != (fd >= 10))
				_exit(1 + fd);
		if (top != -1 && fcntl(top, F_GETFD) != -1)
			_exit(200);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) == -1)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 200)
		fail_msg("descriptor %d (the limit's last) left open", top);
	if (WEXITSTATUS(status) != 0)
		fail_msg("descriptor %d: %s", WEXITSTATUS(status) - 1,
		    WEXITSTATUS(status) > 10 ? "left open" : "closed");
}

/*
 * The draw of a jitter where the C library has no arc4random_uniform():
 * always below n, 0 for n of 0 and 1, every value of a small range
 * reached, and no value of a range that does not divide 2^32 favoured
 * (n = 3 * 2^30: plain r % n would give [0, 2^30) twice the others' share,
 * a half of the draws where a third is due).
 */
static void
test_random_below_fallback(void **state)
{
	uint32_t	seen[7], r, big = 3U << 30;
	size_t		i, low = 0, draws = 30000;

	(void)state;
	assert_int_equal(perfwatch_random_below_fallback(0), 0);
	assert_int_equal(perfwatch_random_below_fallback(1), 0);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 7000; i++) {
		r = perfwatch_random_below_fallback(7);
		assert_true(r < 7);
		seen[r]++;
	}
	for (i = 0; i < 7; i++)
		assert_true(seen[i] > 700);	/* 1000 due; sd 29 */
	for (i = 0; i < draws; i++) {
		r = perfwatch_random_below_fallback(big);
		assert_true(r < big);
		if (r < 1U << 30)
			low++;
	}
	/* A third due (10000, sd 82); a biased draw gives a half (15000). */
	assert_true(low > 9400 && low < 10600);
	assert_true(perfwatch_random_below(1) == 0);
	assert_true(perfwatch_random_below(5) < 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_parse),
		cmocka_unit_test(test_time_format),
		cmocka_unit_test(test_calendar_every_day),
		cmocka_unit_test(test_time_against_gmtime),
		cmocka_unit_test(test_time_round_trip),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_json_reals),
		cmocka_unit_test(test_json_print),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_utf8_check),
		cmocka_unit_test(test_utf8_width),
		cmocka_unit_test(test_lines_held),
		cmocka_unit_test(test_json_getters),
		cmocka_unit_test(test_json_parse_errors),
		cmocka_unit_test(test_name_cmp),
		cmocka_unit_test(test_name_near),
		cmocka_unit_test(test_name_hint),
		cmocka_unit_test(test_closefrom_fallback),
		cmocka_unit_test(test_random_below_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
