/*
 * libFuzzer target: pacman's local database as sysinfo reads it, a desc
 * file (%NAME%, %VERSION%, %ARCH% sections) in a directory for each
 * package under local/.
 *
 * The input is up to 16 desc files separated by form feeds.  Whatever
 * they hold, reading them either fails with a cause or gives a snapshot
 * that check_snapshot() accepts (fuzz_snapshot.h), with a package for
 * each desc file, less those that repeat another exactly (a snapshot
 * keeps one of each).
 */
#include "fuzz_snapshot.h"
#include "fuzz_files.h"

#define FUZZ_PACMAN_MAX	16

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot		*s;
	const uint8_t		*part;
	const char		*dir;
	char			*cause = NULL, rel[64];
	size_t			 i, len;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	dir = fuzz_scratch_dir("fuzz-pacman");
	fuzz_remove_tree(dir, "local");
	fuzz_put_file(dir, "local/ALPM_DB_VERSION", (const uint8_t *)"9\n",
	    2);
	for (i = 0; i < FUZZ_PACMAN_MAX &&
	    (part = fuzz_part(data, size, i, &len)) != NULL; i++) {
		snprintf(rel, sizeof(rel), "local/p%zu-1.0-1/desc", i);
		fuzz_put_file(dir, rel, part, len);
	}

	s = sysinfo_snapshot_new();
	if (check_read(sysinfo_pacman_read(s, dir, &cause), s, cause) == 0 &&
	    (s->npackages > i || (i > 0 && s->npackages == 0)))
		abort();
	sysinfo_snapshot_free(s);
	return 0;
}
