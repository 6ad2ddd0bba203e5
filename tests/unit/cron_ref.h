/*
 * The reference the cron tests judge cron_next() by (unit/test_cron.c,
 * fuzz/fuzz_cron.c): whether c fires at the UTC minute of t, read
 * straight off crontab(5)'s rules, minute by minute, where cron.c
 * searches day by day in local time.
 */
#ifndef PERFWATCH_CRON_REF_H
#define PERFWATCH_CRON_REF_H

#include <stdint.h>
#include <time.h>

#include "cron.h"

static int
cron_ref_matches(const struct cron *c, time_t t)
{
	struct tm	tm;
	int		md, wd;

	if (gmtime_r(&t, &tm) == NULL)
		return 0;
	if (!(c->minutes & ((uint64_t)1 << tm.tm_min)) ||
	    !(c->hours & (1U << tm.tm_hour)) ||
	    !(c->months & (1U << (tm.tm_mon + 1))))
		return 0;
	md = (c->mdays >> tm.tm_mday) & 1;
	wd = (c->wdays >> tm.tm_wday) & 1;
	return c->mday_star || c->wday_star ? md && wd : md || wd;
}

#endif
