/*
 * libFuzzer target: machine snapshots as the store keeps them (their JSON
 * text) and as rpm and pkg(8) list packages.
 *
 * Whatever loads or parses, every string of the snapshot is valid UTF-8
 * without control characters, the fields are sorted with no key twice,
 * the packages are sorted, and dumping and loading it again gives the
 * same snapshot with the same hashes.  The diff of a snapshot against one
 * without its packages lists each of them as installed, and read the
 * other way as removed.
 */
#include "fuzz_snapshot.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot	*s;
	char		*text, *cause = NULL;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	text = xstrndup((const char *)data, size);
	s = sysinfo_snapshot_load(text, &cause);
	if (check_read(s != NULL ? 0 : -1, s, cause) == 0)
		sysinfo_snapshot_free(s);

	cause = NULL;
	s = sysinfo_snapshot_new();
	check_read(sysinfo_rpm_parse(s, (const char *)data, size, &cause), s,
	    cause);
	sysinfo_snapshot_free(s);
	free(text);
	return 0;
}
