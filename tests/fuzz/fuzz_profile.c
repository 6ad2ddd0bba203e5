/*
 * libFuzzer target: a battery profile (the files of etc/profiles/, the
 * [workload "name"] sections of perfwatch.conf) as the daemon checks it
 * (daemon_profile_load): the file through the configuration loader, then
 * each workload section's keys through wl_params_set() and the whole
 * through wl_params_check() (wl_config_check), which fuzz_config does
 * not reach.  A file that loads is either taken, and then dumps as the
 * daemon's -n prints it (wl_config_dump), or refused with a cause that
 * names it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"
#include "workloads/workloads.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	*cfg;
	char		*cause = NULL, *dump = NULL;
	size_t		 len = 0;
	FILE		*fp;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	cfg = config_load_buffer("fuzz.conf", (const char *)data, size,
	    &cause);
	if (cfg == NULL) {
		free(cause);
		return 0;
	}
	if (wl_config_check(cfg, &cause) == 0) {
		if ((fp = open_memstream(&dump, &len)) == NULL ||
		    wl_config_dump(NULL, cfg, fp) != 0)
			abort();
		fclose(fp);
		free(dump);
	} else if (cause == NULL || strstr(cause, "fuzz.conf") == NULL)
		abort();
	free(cause);
	config_free(cfg);
	return 0;
}
