/*
 * Cron expressions: the five fields of crontab(5) and @hourly, @daily,
 * @weekly, and the next time one fires.
 *
 *   minute hour day-of-month month day-of-week
 *
 * A field is a comma-separated list of items: '*', a number, a range a-b,
 * each optionally followed by /step; "a/step" means a to the field's end.
 * Months may be named jan-dec and days of the week sun-sat (any case);
 * day of week 0 and 7 are both Sunday.  As in Vixie cron, when both day
 * fields are restricted (neither starts with '*') a day matches if either
 * does, otherwise it must match both.
 *
 * Times are local wall-clock times.  When the clock goes back, a time
 * that happens twice fires once, at the first; when it goes forward
 * over a time, that time fires at the jump, the first minute the clock
 * reads after it (02:30 of a night that goes from 02:00 to 03:00 fires
 * at 03:00), as Vixie cron runs a job whose time was skipped.
 */
#ifndef PERFWATCH_CRON_H
#define PERFWATCH_CRON_H

#include <stdint.h>
#include <time.h>

struct cron {
	uint64_t	minutes;	/* bit m: minute m, 0-59 */
	uint32_t	hours;		/* bit h: hour h, 0-23 */
	uint32_t	mdays;		/* bit d: day d of the month, 1-31 */
	uint16_t	months;		/* bit m: month m, 1-12 */
	uint8_t		wdays;		/* bit w: weekday w, 0-6, Sunday 0 */
	int		mday_star;	/* day of month began with '*' */
	int		wday_star;	/* day of week began with '*' */
};

/*
 * Parse spec into c.  Return 0, or -1 with *cause saying which field is
 * wrong and why ("hour: 24 is out of range 0-23").  A spec that can never
 * fire (day 31 in February only) is an error too.
 */
int	cron_parse(const char *spec, struct cron *c, char **cause);

/*
 * The first time strictly after `after` (seconds, rounded to whole
 * minutes) that c fires, in the local time zone.  Return 0 and set
 * *next, or -1 if there is none within 400 years (the calendar's cycle:
 * for a spec cron_parse accepted, only past the year 9999 or outside
 * what mktime() can represent).
 */
int	cron_next(const struct cron *c, time_t after, time_t *next);

#endif
