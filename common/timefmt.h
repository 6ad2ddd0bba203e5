/*
 * Time and duration parsing and formatting.
 *
 * Times are int64_t seconds since 1970-01-01T00:00:00Z (UTC, no leap
 * seconds), limited to the years 0000 to 9999 so that every time parsed
 * can be written back as RFC 3339.  Fractions of a second are accepted on
 * input and dropped (rounding toward the past).  The calendar arithmetic
 * is our own, so nothing depends on timegm() or the TZ variable.
 */
#ifndef PERFWATCH_TIMEFMT_H
#define PERFWATCH_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#define TIMEFMT_MIN		(-62167219200LL) /* 0000-01-01T00:00:00Z */
#define TIMEFMT_MAX		253402300799LL	 /* 9999-12-31T23:59:59Z */
#define TIMEFMT_RFC3339_LEN	21	/* "YYYY-MM-DDTHH:MM:SSZ" and NUL */
#define TIMEFMT_DURATION_LEN	32	/* enough for any int64_t duration */

/* Days since 1970-01-01 of a proleptic Gregorian date, year 0 to 9999. */
int64_t	timefmt_days_from_civil(int year, int month, int day);
/* The date of a day number; the day must be within the supported years. */
void	timefmt_civil_from_days(int64_t days, int *year, int *month, int *day);
int	timefmt_days_in_month(int year, int month);

/*
 * Parsers return 0 and store the result, or return -1 and, if why is not
 * NULL, point it at a static phrase saying what was wrong.
 */
int	timefmt_parse(const char *, int64_t *, const char **why);
int	timefmt_parse_epoch(const char *, int64_t *, const char **why);
int	timefmt_parse_rfc3339(const char *, int64_t *, const char **why);
int	timefmt_parse_duration(const char *, int64_t *, const char **why);

/* Writers return 0, or -1 if the value is out of range or len too small. */
int	timefmt_format(int64_t, char *, size_t);
int	timefmt_format_duration(int64_t, char *, size_t);

#endif
