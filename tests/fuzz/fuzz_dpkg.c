/*
 * libFuzzer target: dpkg's database as sysinfo reads it (the status file
 * and the journal in updates/ that dpkg has not yet folded into it).
 *
 * The input is the status file, and after a form feed, if there is one,
 * a journal file updates/0000.  Whatever they hold, reading them either
 * fails with a cause or gives a snapshot that check_snapshot() accepts
 * (fuzz_snapshot.h) with one package at most for each name and
 * architecture: a journal's record replaces the status file's.  That
 * last holds for what dpkg writes, names and architectures of printable
 * ASCII; in a file with other bytes, the cleaning every snapshot string
 * gets ('?' for a byte that is not UTF-8, ' ' for a control) can make
 * two records of different bytes one name, and they are both kept.
 */
#include "fuzz_snapshot.h"
#include "fuzz_files.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char		*dir;
	struct snapshot		*s;
	const uint8_t		*journal;
	char			*cause = NULL;
	size_t			 i, len;
	int			 plain;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	dir = fuzz_scratch_dir("fuzz-dpkg");
	fuzz_put_file(dir, "status", fuzz_part(data, size, 0, &len), len);
	journal = fuzz_part(data, size, 1, &len);
	if (journal != NULL)
		len = size - (size_t)(journal - data);
	fuzz_put_file(dir, "updates/0000", journal, len);
	if (journal == NULL) {
		/* The directory dpkg always has, the journal or not. */
		fuzz_put_file(dir, "updates/.keep", (const uint8_t *)"", 0);
	}

	for (i = 0, plain = 1; i < size && plain; i++)
		plain = (data[i] >= 0x20 && data[i] < 0x7f) ||
		    data[i] == '\n' || data[i] == '\f';
	s = sysinfo_snapshot_new();
	if (check_read(sysinfo_dpkg_read(s, dir, &cause), s, cause) == 0) {
		for (i = 1; i < s->npackages && plain; i++)
			if (strcmp(s->packages[i - 1].name,
			    s->packages[i].name) == 0 &&
			    strcmp(s->packages[i - 1].arch,
			    s->packages[i].arch) == 0)
				abort();
	}
	sysinfo_snapshot_free(s);
	return 0;
}
