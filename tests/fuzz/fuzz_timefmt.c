/*
 * libFuzzer target: time and duration parsing (the import's time column
 * and every duration of the configuration).  Whatever parses must format
 * and parse back to the same value.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "timefmt.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 buf[64], out[TIMEFMT_DURATION_LEN];
	const char	*why = NULL;
	int64_t		 t, back;

	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (timefmt_parse(buf, &t, &why) == 0) {
		if (timefmt_format(t, out, sizeof(out)) != 0 ||
		    timefmt_parse(out, &back, &why) != 0 || back != t)
			abort();
	} else if (why == NULL)
		abort();
	if (timefmt_parse_duration(buf, &t, &why) == 0) {
		if (timefmt_format_duration(t, out, sizeof(out)) == 0 &&
		    (timefmt_parse_duration(out, &back, &why) != 0 ||
		    back != t))
			abort();
	}
	return 0;
}
