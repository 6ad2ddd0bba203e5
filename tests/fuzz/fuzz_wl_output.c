/*
 * libFuzzer target: the result parser shared by native workloads and the
 * user's own commands (`metric value unit [higher|lower]` lines, or one
 * JSON object).  Any input is parsed or refused with a cause naming the
 * line; every metric accepted has a finite value and NUL-terminated,
 * bounded name and unit.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "workloads/workloads.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wl_result	 res;
	char			*cause = NULL;
	size_t			 i;

	log_init("fuzz", 1, 0);
	memset(&res, 0, sizeof(res));
	if (wl_parse_output((const char *)data, size, &res, &cause) == 0) {
		for (i = 0; i < res.nmetrics; i++) {
			if (!isfinite(res.metrics[i].value) ||
			    memchr(res.metrics[i].name, '\0', WL_NAME_MAX) ==
			    NULL || res.metrics[i].name[0] == '\0' ||
			    memchr(res.metrics[i].unit, '\0', WL_UNIT_MAX) ==
			    NULL)
				abort();
		}
	} else if (cause == NULL)
		abort();
	free(cause);
	wl_result_clear(&res);
	return 0;
}
