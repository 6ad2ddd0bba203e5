/*
 * What the fuzz targets ask of a string they were handed for people to
 * read (fuzz_snapshot.h, fuzz_smtp): check_string() aborts unless it is
 * valid UTF-8 without a control character.
 */
#ifndef PERFWATCH_FUZZ_STRING_H
#define PERFWATCH_FUZZ_STRING_H

#include <stdlib.h>

#include "utf8.h"

/* abort() unless s is valid UTF-8 without a control character. */
static void
check_string(const char *s)
{
	const unsigned char	*p;
	size_t			 bad;

	if (s == NULL || utf8_check(s, &bad) != 0)
		abort();
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

#endif
