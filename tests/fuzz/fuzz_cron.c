/*
 * libFuzzer target: cron expressions (common/cron.c), the daemon's
 * schedules.  The input is a spec on its first line and, after it, up to
 * four bytes of a time.  A spec that parses can fire (cron_parse refuses
 * one that never does), so cron_next finds its next time: after the time
 * given, on a whole minute, a minute the spec names, and with no minute
 * the spec names in between (checked over the first two days, by the
 * reference test_cron judges by too: tests/unit/cron_ref.h).  A spec
 * that does not parse says why.  Times are UTC here: the calendar, not
 * the zone, is what this exercises.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cron.h"
#include "log.h"
#include "xmalloc.h"
#include "tests/unit/cron_ref.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 zone_set;
	struct cron	 c;
	char		*spec, *nl, *cause = NULL;
	time_t		 after = 0, next, t;
	size_t		 i, rest;

	log_init("fuzz", 1, 0);
	if (!zone_set) {
		setenv("TZ", "UTC", 1);
		tzset();
		zone_set = 1;
	}
	if (size > 256)
		return 0;
	spec = xstrndup((const char *)data, size);
	if ((nl = strchr(spec, '\n')) != NULL) {
		*nl = '\0';
		rest = size - (size_t)(nl - spec) - 1;
		for (i = 0; i < rest && i < 4; i++)
			after = after * 256 + data[(size_t)(nl - spec) + 1 + i];
	}
	if (cron_parse(spec, &c, &cause) == 0) {
		if (cron_next(&c, after, &next) != 0)
			abort();
		if (next <= after || next % 60 != 0 ||
		    !cron_ref_matches(&c, next) ||
		    next - after > (time_t)146097 * 86400)
			abort();
		for (t = after - after % 60 + 60; t < next &&
		    t < after + 2 * 86400; t += 60)
			if (cron_ref_matches(&c, t))
				abort();
	} else if (cause == NULL)
		abort();
	free(cause);
	free(spec);
	return 0;
}
