/*
 * What every snapshot a fuzz target builds must satisfy (fuzz_snapshot,
 * fuzz_dpkg, fuzz_pacman, fuzz_procfs): every string valid UTF-8 without control characters, the
 * fields sorted with no key twice, the packages sorted; dumped and
 * loaded again, the same snapshot with the same hashes; and its diff
 * against no packages lists each installed one way and removed the
 * other.  check_snapshot() aborts where one does not hold; check_read()
 * checks a read that gave a snapshot or failed with a cause.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "fuzz_string.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);


static void
check_snapshot(const struct snapshot *s)
{
	struct snapshot		*back, *bare;
	struct snapshot_diff	*d;
	char			*text, *cause = NULL;
	char			 h1[SYSINFO_HASH_LEN + 1], h2[SYSINFO_HASH_LEN + 1];
	size_t			 i, installed = 0, removed = 0;

	for (i = 0; i < s->nfields; i++) {
		check_string(s->fields[i].key);
		check_string(s->fields[i].value);
	}
	for (i = 0; i < s->npackages; i++) {
		check_string(s->packages[i].name);
		check_string(s->packages[i].version);
		check_string(s->packages[i].arch);
	}

	/*
	 * Loading sorts what it adds (fields by key, one each; packages by
	 * name, arch and version) and the comparison goes element by
	 * element, so the round trip also checks that s was in that order
	 * with no key twice.
	 */
	text = sysinfo_snapshot_dump(s, SYSINFO_ALL);
	if ((back = sysinfo_snapshot_load(text, &cause)) == NULL)
		abort();
	if (!sysinfo_snapshot_equal(s, back, SYSINFO_ALL))
		abort();
	sysinfo_fields_hash(s, h1);
	sysinfo_fields_hash(back, h2);
	if (strcmp(h1, h2) != 0)
		abort();
	sysinfo_packages_hash(s, h1);
	sysinfo_packages_hash(back, h2);
	if (strcmp(h1, h2) != 0)
		abort();
	free(text);
	text = sysinfo_snapshot_text(back, SYSINFO_ALL);
	free(text);

	/* Its packages against none: all installed, or all removed. */
	bare = sysinfo_snapshot_new();
	d = sysinfo_diff(bare, s);
	for (i = 0; i < d->nchanges; i++)
		installed += d->changes[i].kind == CHANGE_PKG_INSTALLED;
	sysinfo_diff_free(d);
	d = sysinfo_diff(s, bare);
	for (i = 0; i < d->nchanges; i++)
		removed += d->changes[i].kind == CHANGE_PKG_REMOVED;
	sysinfo_diff_free(d);
	if (installed != removed || (s->npackages > 0) != (installed > 0) ||
	    installed > s->npackages)
		abort();
	sysinfo_snapshot_free(bare);
	sysinfo_snapshot_free(back);
}

/*
 * A read's outcome, rc: 0 and a snapshot s that check_snapshot()
 * accepts, or -1 and a cause, which is freed here; rc is returned.
 */
static int
check_read(int rc, const struct snapshot *s, char *cause)
{
	if (rc == 0)
		check_snapshot(s);
	else if (cause == NULL)
		abort();
	free(cause);
	return rc;
}
