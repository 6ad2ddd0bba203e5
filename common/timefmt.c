/*
 * Time and duration parsing and formatting.
 *
 * The calendar is the proleptic Gregorian one, counted from 0000-01-01 so
 * that every year we accept (0 to 9999) is non-negative and the leap-year
 * counts are plain integer divisions.  1970-01-01 is day 719528 of that
 * count.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perfwatch.h"
#include "timefmt.h"

#define TIMEFMT_EPOCH_DAY	719528	/* 1970-01-01 counted from 0000-01-01 */
#define TIMEFMT_DAY		86400

/* Days before the first of each month in a common year. */
static const int timefmt_month_start[12] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334
};

/* Units of a duration, largest first. */
static const struct {
	char	 unit;
	int64_t	 seconds;
} timefmt_units[] = {
	{ 'w', 7 * TIMEFMT_DAY },
	{ 'd', TIMEFMT_DAY },
	{ 'h', 3600 },
	{ 'm', 60 },
	{ 's', 1 },
};

/* Return 1 if year is a Gregorian leap year. */
static int
timefmt_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/*
 * Days from 0000-01-01 to January 1st of year, for year >= 0: 365 a year
 * plus one for each leap year before it, and year 0 is a leap year, hence
 * the rounding up.
 */
static int64_t
timefmt_days_before_year(int64_t year)
{
	return 365 * year + (year + 3) / 4 - (year + 99) / 100 +
	    (year + 399) / 400;
}

int
timefmt_days_in_month(int year, int month)
{
	static const int	 len[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	if (month < 1 || month > 12)
		return 0;
	if (month == 2 && timefmt_leap(year))
		return 29;
	return len[month - 1];
}

/* Count the days from 1970-01-01 to a valid date of the years 0 to 9999. */
int64_t
timefmt_days_from_civil(int year, int month, int day)
{
	int64_t	 days;

	days = timefmt_days_before_year(year) + timefmt_month_start[month - 1] +
	    day - 1;
	if (month > 2 && timefmt_leap(year))
		days++;
	return days - TIMEFMT_EPOCH_DAY;
}

/* Turn a day count from 1970-01-01 back into a date. */
void
timefmt_civil_from_days(int64_t days, int *year, int *month, int *day)
{
	int64_t	 d0, y, doy;
	int	 m, leap, start;

	d0 = days + TIMEFMT_EPOCH_DAY;
	/* 146097 days make 400 years; the estimate is off by at most one. */
	y = d0 * 400 / 146097;
	while (y > 0 && timefmt_days_before_year(y) > d0)
		y--;
	while (timefmt_days_before_year(y + 1) <= d0)
		y++;
	doy = d0 - timefmt_days_before_year(y);
	leap = timefmt_leap((int)y);
	for (m = 12; m > 1; m--) {
		start = timefmt_month_start[m - 1] + (m > 2 ? leap : 0);
		if (doy >= start)
			break;
	}
	start = timefmt_month_start[m - 1] + (m > 2 ? leap : 0);
	*year = (int)y;
	*month = m;
	*day = (int)(doy - start) + 1;
}

/* Read exactly n decimal digits at *sp into *out and advance *sp. */
static int
timefmt_digits(const char **sp, int n, int *out)
{
	const char	*s = *sp;
	int		 v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*sp = s + n;
	*out = v;
	return 0;
}

/* Set *why if the caller wants it and return -1. */
static int
timefmt_fail(const char **why, const char *msg)
{
	if (why != NULL)
		*why = msg;
	return -1;
}

/*
 * Parse seconds since the epoch: digits, optionally a '.' and more digits
 * (dropped).  No sign: perfwatch has no use for times before 1970.
 */
int
timefmt_parse_epoch(const char *s, int64_t *out, const char **why)
{
	int64_t	 v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return timefmt_fail(why, "expected seconds since the epoch");
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > TIMEFMT_MAX)
			return timefmt_fail(why, "time out of range");
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return timefmt_fail(why, "expected digits after '.'");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p != '\0')
		return timefmt_fail(why, "expected seconds since the epoch");
	*out = v;
	return 0;
}

/*
 * Parse an RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac] then Z or
 * +HH:MM / -HH:MM.  't', 'z' and a space for 'T' are accepted as RFC 3339
 * allows.  A leap second (:60) and hour 24 are refused.
 */
int
timefmt_parse_rfc3339(const char *s, int64_t *out, const char **why)
{
	const char	*p = s;
	const char	*form = "expected YYYY-MM-DDTHH:MM:SS and Z or an offset";
	int		 year, mon, day, hour, min, sec, oh = 0, om = 0, sign = 0;
	int64_t		 t;

	if (timefmt_digits(&p, 4, &year) == -1 || *p++ != '-' ||
	    timefmt_digits(&p, 2, &mon) == -1 || *p++ != '-' ||
	    timefmt_digits(&p, 2, &day) == -1)
		return timefmt_fail(why, form);
	if (*p != 'T' && *p != 't' && *p != ' ')
		return timefmt_fail(why, form);
	p++;
	if (timefmt_digits(&p, 2, &hour) == -1 || *p++ != ':' ||
	    timefmt_digits(&p, 2, &min) == -1 || *p++ != ':' ||
	    timefmt_digits(&p, 2, &sec) == -1)
		return timefmt_fail(why, form);
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return timefmt_fail(why, "expected digits after '.'");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		sign = *p++ == '+' ? 1 : -1;
		if (timefmt_digits(&p, 2, &oh) == -1 || *p++ != ':' ||
		    timefmt_digits(&p, 2, &om) == -1)
			return timefmt_fail(why, form);
	} else
		return timefmt_fail(why, form);
	if (*p != '\0')
		return timefmt_fail(why, form);

	if (mon < 1 || mon > 12)
		return timefmt_fail(why, "month out of range");
	if (day < 1 || day > timefmt_days_in_month(year, mon))
		return timefmt_fail(why, "day out of range for the month");
	if (hour > 23)
		return timefmt_fail(why, "hour out of range");
	if (min > 59)
		return timefmt_fail(why, "minute out of range");
	if (sec > 59)
		return timefmt_fail(why, "second out of range");
	if (oh > 23 || om > 59)
		return timefmt_fail(why, "offset out of range");

	t = timefmt_days_from_civil(year, mon, day) * TIMEFMT_DAY +
	    hour * 3600 + min * 60 + sec;
	/* Local time minus the offset is UTC. */
	t -= sign * (oh * 3600 + om * 60);
	if (t < TIMEFMT_MIN || t > TIMEFMT_MAX)
		return timefmt_fail(why, "time out of range");
	*out = t;
	return 0;
}

/* Parse epoch seconds (digits and an optional fraction) or RFC 3339. */
int
timefmt_parse(const char *s, int64_t *out, const char **why)
{
	if (*s == '\0')
		return timefmt_fail(why, "expected a time, got nothing");
	if (s[strspn(s, "0123456789.")] == '\0')
		return timefmt_parse_epoch(s, out, why);
	return timefmt_parse_rfc3339(s, out, why);
}

/* Write t as RFC 3339 in UTC, e.g. 2026-11-30T02:30:00Z. */
int
timefmt_format(int64_t t, char *buf, size_t len)
{
	int64_t	 days, rem;
	int	 year, mon, day;

	if (t < TIMEFMT_MIN || t > TIMEFMT_MAX || len < TIMEFMT_RFC3339_LEN)
		return -1;
	days = t / TIMEFMT_DAY;
	rem = t % TIMEFMT_DAY;
	if (rem < 0) {
		rem += TIMEFMT_DAY;
		days--;
	}
	timefmt_civil_from_days(days, &year, &mon, &day);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02dZ", year, mon, day,
	    (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
	return 0;
}

/*
 * Parse a duration: plain seconds ("3600") or numbers each followed by a
 * unit, largest unit first and each unit once ("90s", "10m", "1h30m",
 * "2d", "1w").
 */
int
timefmt_parse_duration(const char *s, int64_t *out, const char **why)
{
	const char	*form = "expected a duration such as 90s, 10m, 2h or 1d";
	const char	*p = s;
	int64_t		 total = 0, n;
	size_t		 i, next = 0;

	if (*p == '\0')
		return timefmt_fail(why, form);
	while (*p != '\0') {
		if (*p < '0' || *p > '9')
			return timefmt_fail(why, form);
		for (n = 0; *p >= '0' && *p <= '9'; p++) {
			if (n > (INT64_MAX - (*p - '0')) / 10)
				return timefmt_fail(why, "duration too long");
			n = n * 10 + (*p - '0');
		}
		if (*p == '\0' && next == 0) {
			/* Digits alone are seconds. */
			*out = n;
			return 0;
		}
		for (i = 0; i < nitems(timefmt_units); i++)
			if (timefmt_units[i].unit == *p)
				break;
		if (i == nitems(timefmt_units))
			return timefmt_fail(why, form);
		if (i < next)
			return timefmt_fail(why,
			    "expected units from largest to smallest, each once");
		next = i + 1;
		p++;
		if (n > (INT64_MAX - total) / timefmt_units[i].seconds)
			return timefmt_fail(why, "duration too long");
		total += n * timefmt_units[i].seconds;
	}
	*out = total;
	return 0;
}

/* Write a duration as days, hours, minutes and seconds: "1d2h", "0s". */
int
timefmt_format_duration(int64_t secs, char *buf, size_t len)
{
	static const struct {
		char	 unit;
		int64_t	 seconds;
	} parts[] = {
		{ 'd', TIMEFMT_DAY }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 },
	};
	size_t	 off = 0, i;
	int	 n;

	if (secs < 0 || len == 0)
		return -1;
	if (secs == 0) {
		n = snprintf(buf, len, "0s");
		return n < 0 || (size_t)n >= len ? -1 : 0;
	}
	buf[0] = '\0';
	for (i = 0; i < nitems(parts); i++) {
		if (secs < parts[i].seconds)
			continue;
		n = snprintf(buf + off, len - off, "%lld%c",
		    (long long)(secs / parts[i].seconds), parts[i].unit);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += n;
		secs %= parts[i].seconds;
	}
	return 0;
}
