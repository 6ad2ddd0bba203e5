/*
 * Small helpers for the types in perfwatch.h.
 */
#include <string.h>

#include "perfwatch.h"

const char *
better_name(enum better b)
{
	return b == BETTER_LOWER ? "lower" : "higher";
}

/* Parse "higher" or "lower"; 0 on success, -1 otherwise. */
int
better_parse(const char *s, enum better *b)
{
	if (strcmp(s, "higher") == 0) {
		*b = BETTER_HIGHER;
		return 0;
	}
	if (strcmp(s, "lower") == 0) {
		*b = BETTER_LOWER;
		return 0;
	}
	return -1;
}
