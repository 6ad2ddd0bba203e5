/*
 * libFuzzer target for the configuration loader.
 *
 * Any input must either load or fail with errors that name the file; it
 * must never crash, leak or exit (config.c's fatalx() paths are for
 * programming errors, so reaching one here is a bug).  A loaded file must
 * survive the round trip: its dump loads again and dumps to the same text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const fuzz_types[] = { "git", "workload", "sink" };

/* The configuration's dump as an allocated string. */
static char *
fuzz_dump(const struct config *cfg)
{
	FILE	*fp;
	char	*buf = NULL;
	size_t	 len = 0;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		abort();
	if (config_dump(cfg, fp) != 0)
		abort();
	fclose(fp);
	return buf;
}

/* Read every named section through the getters. */
static void
fuzz_read(const struct config *cfg)
{
	const char	*name;
	char		*section, **list;
	int64_t		*ints;
	size_t		 i, t, n;

	for (t = 0; t < sizeof(fuzz_types) / sizeof(fuzz_types[0]); t++) {
		for (i = 0; (name = config_sections(cfg, fuzz_types[t], i)) !=
		    NULL; i++) {
			xasprintf(&section, "%s %s", fuzz_types[t], name);
			if (t == 1) {
				if (config_get_int(cfg, section,
				    "iterations") < 1)
					abort();
				ints = config_get_intlist(cfg, section,
				    "threads", &n);
				while (n-- > 0)
					if (ints[n] < 1 || ints[n] > 4096)
						abort();
				free(ints);
				(void)config_get_size(cfg, section, "size");
				(void)config_get_ram_multiple(cfg, section,
				    "size");
			} else if (t == 2) {
				list = config_get_list(cfg, section, "to");
				config_list_free(list);
				if (config_get_str(cfg, section, "type") ==
				    NULL)
					abort();
			} else if (config_get_str(cfg, section, "path") ==
			    NULL || config_get_str(cfg, section, "path")[0] !=
			    '/')
				abort();
			free(section);
		}
	}
	if (config_get_str(cfg, "schedule", "cron") != NULL &&
	    config_get_duration(cfg, "schedule", "interval") != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	*cfg, *again;
	char		*cause = NULL, *d1, *d2;

	cfg = config_load_buffer("fuzz.conf", (const char *)data, size,
	    &cause);
	if (cfg == NULL) {
		if (cause == NULL || strncmp(cause, "fuzz.conf:", 10) != 0)
			abort();
		free(cause);
		return 0;
	}
	fuzz_read(cfg);
	d1 = fuzz_dump(cfg);
	again = config_load_buffer("dump", d1, strlen(d1), &cause);
	if (again == NULL) {
		fprintf(stderr, "dump does not load:\n%s\n---\n%s", cause, d1);
		abort();
	}
	d2 = fuzz_dump(again);
	if (strcmp(d1, d2) != 0) {
		fprintf(stderr, "dump changed:\n%s\n---\n%s", d1, d2);
		abort();
	}
	free(d1);
	free(d2);
	config_free(again);
	config_free(cfg);
	return 0;
}
