/*
 * Cron expressions (see cron.h).
 *
 * The next fire time is searched in civil (wall-clock) time, day by day
 * with our own calendar arithmetic, and only a candidate minute is turned
 * into a time_t by mktime().  So the search never depends on how the C
 * library normalises a time that does not exist, and a candidate that
 * mktime() places at or before `after` (a repeated hour) is passed over.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cron.h"
#include "timefmt.h"
#include "xmalloc.h"

/*
 * How far cron_next looks: 400 Gregorian years, after which the calendar
 * repeats, so a spec that does not fire within them never does.  Eight
 * years (the longest wait for a 29 February) is not enough when both
 * day fields must match (a day of month that starts with '*'): the 1st
 * of April on a Thursday waits up to 11 years, and 29 February on a
 * Sunday 40 (tests/unit/test_cron.c has both).  The search is day
 * arithmetic: on the development VM (-O2), a walk of all 146,097 days
 * took 0.37 ms, the 40-year wait 0.06 ms and a nightly spec 0.025 ms.
 */
#define CRON_SEARCH_DAYS	146097
/*
 * The longest jump forward of a clock, in minutes: a day and a half (a
 * whole day skipped, as Samoa skipped 30 December 2011, and a little).
 */
#define CRON_JUMP_MINUTES	(36 * 60)

struct cron_field {
	const char		*name;
	int			 min;
	int			 max;
	const char *const	*names;	/* names[i] is the value base + i */
	int			 base;
};

static const char *const cron_month_names[] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
	"nov", "dec", NULL
};
static const char *const cron_wday_names[] = {
	"sun", "mon", "tue", "wed", "thu", "fri", "sat", NULL
};

static const struct cron_field cron_fields[5] = {
	{ "minute", 0, 59, NULL, 0 },
	{ "hour", 0, 23, NULL, 0 },
	{ "day of month", 1, 31, NULL, 0 },
	{ "month", 1, 12, cron_month_names, 1 },
	{ "day of week", 0, 7, cron_wday_names, 0 },
};

/*
 * Read one value (a number or a name) of field f at *p, advancing *p.
 * Return 0, or -1 with *cause set.
 */
static int
cron_value(const struct cron_field *f, const char **p, int *out,
    char **cause)
{
	const char	*s = *p;
	size_t		 n, i;
	int		 v = 0;

	if (isdigit((unsigned char)*s)) {
		for (n = 0; isdigit((unsigned char)s[n]); n++) {
			if (n == 3) {
				xasprintf(cause, "%s: %.4s... is out of range "
				    "%d-%d", f->name, s, f->min, f->max);
				return -1;
			}
			v = v * 10 + (s[n] - '0');
		}
		if (v < f->min || v > f->max) {
			xasprintf(cause, "%s: %d is out of range %d-%d",
			    f->name, v, f->min, f->max);
			return -1;
		}
		*p = s + n;
		*out = v;
		return 0;
	}
	for (n = 0; isalpha((unsigned char)s[n]); n++)
		;
	if (n == 0) {
		xasprintf(cause, "%s: expected a number, a range or '*', got "
		    "\"%s\"", f->name, s);
		return -1;
	}
	for (i = 0; f->names != NULL && f->names[i] != NULL; i++) {
		if (n == 3 && strncasecmp(s, f->names[i], 3) == 0) {
			*p = s + n;
			*out = f->base + (int)i;
			return 0;
		}
	}
	if (f->names == NULL)
		xasprintf(cause, "%s: expected a number from %d to %d, got "
		    "\"%.*s\"", f->name, f->min, f->max, (int)n, s);
	else
		xasprintf(cause, "%s: expected a number from %d to %d or a "
		    "name (%s-%s), got \"%.*s\"", f->name, f->min, f->max,
		    f->names[0], f->names[f->max - f->base -
		    (f->max == 7 ? 1 : 0)], (int)n, s);
	return -1;
}

/*
 * Parse one item of a field's list ("*", "5", "1-5", "*\/10", "10-50/5",
 * "3/4") of length len and set its bits in *bits.
 */
static int
cron_item(const struct cron_field *f, const char *s, size_t len,
    uint64_t *bits, char **cause)
{
	char		*item, *end;
	const char	*p;
	long		 step = 1;
	int		 lo, hi, v, star_max;

	item = xstrndup(s, len);
	p = item;
	/* '*' of the day of week is Sunday to Saturday, not 0-7. */
	star_max = f->max == 7 ? 6 : f->max;
	if (*p == '*') {
		lo = f->min;
		hi = star_max;
		p++;
	} else {
		if (cron_value(f, &p, &lo, cause) == -1)
			goto fail;
		hi = lo;
		if (*p == '-') {
			p++;
			if (cron_value(f, &p, &hi, cause) == -1)
				goto fail;
			if (hi < lo) {
				xasprintf(cause, "%s: range %d-%d goes "
				    "backwards", f->name, lo, hi);
				goto fail;
			}
		} else if (*p == '/')
			hi = f->max;	/* "7/7": Sunday, as 7 */
	}
	if (*p == '/') {
		p++;
		if (!isdigit((unsigned char)*p)) {
			xasprintf(cause, "%s: expected a step after '/' in "
			    "\"%s\"", f->name, item);
			goto fail;
		}
		step = strtol(p, &end, 10);
		if (step < 1 || step > f->max - f->min + 1) {
			xasprintf(cause, "%s: step %s is out of range 1-%d",
			    f->name, p, f->max - f->min + 1);
			goto fail;
		}
		p = end;
	}
	if (*p != '\0') {
		xasprintf(cause, "%s: unexpected \"%s\" in \"%s\"", f->name, p,
		    item);
		goto fail;
	}
	for (v = lo; v <= hi; v += (int)step)
		*bits |= (uint64_t)1 << v;
	free(item);
	return 0;
fail:
	free(item);
	return -1;
}

/* Parse a field's comma-separated list of len bytes into *bits. */
static int
cron_list(const struct cron_field *f, const char *s, size_t len,
    uint64_t *bits, char **cause)
{
	size_t	n;

	*bits = 0;
	for (;;) {
		n = 0;
		while (n < len && s[n] != ',')
			n++;
		if (n == 0) {
			xasprintf(cause, "%s: empty item in the list",
			    f->name);
			return -1;
		}
		if (cron_item(f, s, n, bits, cause) == -1)
			return -1;
		if (n == len)
			return 0;
		s += n + 1;
		len -= n + 1;
		if (len == 0) {
			xasprintf(cause, "%s: empty item in the list",
			    f->name);
			return -1;
		}
	}
}

/* Whether some day of the months of c exists (not only 30 February). */
static int
cron_days_exist(const struct cron *c)
{
	/* Days in each month of a leap year, so that 29 February counts. */
	static const int	 mdays[13] = { 0, 31, 29, 31, 30, 31, 30, 31,
				    31, 30, 31, 30, 31 };
	int			 m, d;

	if (c->mday_star || !c->wday_star)
		return 1;	/* every day can match, or any weekday can */
	for (m = 1; m <= 12; m++) {
		if (!(c->months & (1U << m)))
			continue;
		for (d = 1; d <= mdays[m]; d++)
			if (c->mdays & (1U << d))
				return 1;
	}
	return 0;
}

int
cron_parse(const char *spec, struct cron *c, char **cause)
{
	const char	*p = spec, *start[5];
	size_t		 len[5], n;
	uint64_t	 bits;
	int		 nf = 0, i;

	memset(c, 0, sizeof(*c));
	p += strspn(p, " \t");
	if (strcmp(p, "@hourly") == 0)
		spec = "0 * * * *";
	else if (strcmp(p, "@daily") == 0)
		spec = "0 0 * * *";
	else if (strcmp(p, "@weekly") == 0)
		spec = "0 0 * * 0";
	else if (*p == '@') {
		xasprintf(cause, "expected @hourly, @daily or @weekly, got "
		    "\"%s\"", p);
		return -1;
	}
	for (p = spec;;) {
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		n = strcspn(p, " \t");
		if (nf < 5) {
			start[nf] = p;
			len[nf] = n;
		}
		nf++;
		p += n;
	}
	if (nf != 5) {
		xasprintf(cause, "expected 5 fields (minute hour day month "
		    "weekday), got %d", nf);
		return -1;
	}
	for (i = 0; i < 5; i++) {
		if (cron_list(&cron_fields[i], start[i], len[i], &bits,
		    cause) == -1)
			return -1;
		switch (i) {
		case 0:
			c->minutes = bits;
			break;
		case 1:
			c->hours = (uint32_t)bits;
			break;
		case 2:
			c->mdays = (uint32_t)bits;
			c->mday_star = start[i][0] == '*';
			break;
		case 3:
			c->months = (uint16_t)bits;
			break;
		case 4:
			/* 7 is Sunday too. */
			if (bits & (1U << 7))
				bits = (bits & 0x7f) | 1;
			c->wdays = (uint8_t)bits;
			c->wday_star = start[i][0] == '*';
			break;
		}
	}
	if (!cron_days_exist(c)) {
		xasprintf(cause, "day of month: no such day in the months "
		    "given, so it never fires");
		return -1;
	}
	return 0;
}

/* Whether c fires on the civil date y-m-d. */
static int
cron_day_matches(const struct cron *c, int y, int m, int d)
{
	int64_t	days;
	int	w, md, wd;

	if (!(c->months & (1U << m)))
		return 0;
	days = timefmt_days_from_civil(y, m, d);
	w = (int)(((days % 7) + 7 + 4) % 7);	/* 1970-01-01 was a Thursday */
	md = (c->mdays >> d) & 1;
	wd = (c->wdays >> w) & 1;
	if (c->mday_star || c->wday_star)
		return md && wd;
	return md || wd;
}

/*
 * Whether the local wall clock reads y-mo-d h:mi at some time; if so,
 * *out is the earliest (of an hour repeated when the clock goes back,
 * the first pass).
 */
static int
cron_reading(int y, int mo, int d, int h, int mi, time_t *out)
{
	struct tm	tm, chk;
	time_t		t;
	int		isdst, exists = 0;

	for (isdst = -1; isdst <= 1; isdst++) {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = h;
		tm.tm_min = mi;
		tm.tm_isdst = isdst;
		if ((t = mktime(&tm)) == (time_t)-1 ||
		    localtime_r(&t, &chk) == NULL)
			continue;
		if (chk.tm_mday != d || chk.tm_hour != h || chk.tm_min != mi)
			continue;	/* not a reading of this wall clock */
		if (!exists || t < *out)
			*out = t;
		exists = 1;
	}
	return exists;
}

/*
 * The time whose local wall clock reads y-mo-d h:mi, if it is after
 * `after`.  Of the two times of an hour repeated when the clock goes
 * back, the earlier one only: when that one is not after `after`, the
 * reading has come already and does not fire again at the second.  A
 * time the clock jumps over when it goes forward is the time it jumps,
 * the first minute it reads after; not what mktime() makes of it, which
 * depends on the C library and the zone (glibc moves Irish time's 01:30
 * back to 00:30 GMT) and may be past other fires of the spec.  Return
 * 0, or -1 if there is none.
 */
static int
cron_mktime(int y, int mo, int d, int h, int mi, time_t after, time_t *out)
{
	time_t	t = 0;
	int	n;

	for (n = 0; !cron_reading(y, mo, d, h, mi, &t); n++) {
		if (n == CRON_JUMP_MINUTES)
			return -1;
		if (++mi < 60)
			continue;
		mi = 0;
		if (++h < 24)
			continue;
		h = 0;
		if (++d <= timefmt_days_in_month(y, mo))
			continue;
		d = 1;
		if (++mo > 12) {
			mo = 1;
			y++;
		}
	}
	if (t <= after)
		return -1;
	*out = t;
	return 0;
}

int
cron_next(const struct cron *c, time_t after, time_t *next)
{
	struct tm	tm;
	time_t		t;
	int		y, mo, d, h0, mi0, h, mi, day;

	if (localtime_r(&after, &tm) == NULL)
		return -1;
	y = tm.tm_year + 1900;
	mo = tm.tm_mon + 1;
	d = tm.tm_mday;
	h0 = tm.tm_hour;
	mi0 = tm.tm_min + 1;
	for (day = 0; day < CRON_SEARCH_DAYS; day++) {
		if (y > 9999)
			return -1;
		if (cron_day_matches(c, y, mo, d)) {
			for (h = h0; h < 24; h++) {
				if (!(c->hours & (1U << h)))
					continue;
				for (mi = h == h0 ? mi0 : 0; mi < 60; mi++) {
					if (!(c->minutes & ((uint64_t)1 << mi)))
						continue;
					if (cron_mktime(y, mo, d, h, mi, after,
					    &t) == 0) {
						*next = t;
						return 0;
					}
				}
			}
		}
		h0 = 0;
		mi0 = 0;
		if (++d > timefmt_days_in_month(y, mo)) {
			d = 1;
			if (++mo > 12) {
				mo = 1;
				y++;
			}
		}
	}
	return -1;
}
