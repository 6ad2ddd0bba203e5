/*
 * Shared body of the import fuzz targets: import the input into a fresh
 * in-memory store in the given format.  An import either succeeds, and
 * then its export imports again to the same export, or fails with a
 * "name:row:column: " message and leaves the store empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store/store.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char *
fuzz_export(struct store *st)
{
	char	*buf = NULL, *cause = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	if (f == NULL || store_export(st, f, FUZZ_FORMAT, NULL, 0,
	    &cause) != 0)
		abort();
	fclose(f);
	return buf;
}

static int
fuzz_import(struct store *st, const void *data, size_t size, char **cause)
{
	FILE	*f;
	int	 rc;

	if (size == 0)
		return -1;
	if ((f = fmemopen((void *)data, size, "r")) == NULL)
		abort();
	rc = store_import(st, f, FUZZ_NAME, FUZZ_FORMAT, 0, NULL, cause);
	fclose(f);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store	*st, *again;
	char		*cause = NULL, *e1, *e2, *empty;

	log_init("fuzz", 1, 0);
	if ((st = store_open(":memory:", &cause)) == NULL)
		abort();
	empty = fuzz_export(st);
	if (fuzz_import(st, data, size, &cause) == 0) {
		e1 = fuzz_export(st);
		if ((again = store_open(":memory:", &cause)) == NULL)
			abort();
		if (fuzz_import(again, e1, strlen(e1), &cause) != 0)
			abort();
		e2 = fuzz_export(again);
		if (strcmp(e1, e2) != 0)
			abort();
		free(e1);
		free(e2);
		store_close(again);
	} else {
		/* A refused import names the input and changes nothing. */
		if (size > 0 && (cause == NULL ||
		    strncmp(cause, FUZZ_NAME ":", strlen(FUZZ_NAME) + 1) != 0))
			abort();
		e1 = fuzz_export(st);
		if (strcmp(e1, empty) != 0)
			abort();
		free(e1);
	}
	free(cause);
	free(empty);
	store_close(st);
	return 0;
}
