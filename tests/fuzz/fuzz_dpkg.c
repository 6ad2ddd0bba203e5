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
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_snapshot.h"

/* Write data[0..len) to path, whole, or abort. */
static void
put_file(const char *path, const uint8_t *data, size_t len)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		abort();
	while (len > 0) {
		if ((n = write(fd, data, len)) <= 0)
			abort();
		data += n;
		len -= (size_t)n;
	}
	close(fd);
}

static char	fuzz_dir[] = "/tmp/fuzz-dpkg.XXXXXX";

/* Take the scratch database away when the fuzzer exits. */
static void
remove_dir(void)
{
	char	path[64];

	snprintf(path, sizeof(path), "%s/updates/0000", fuzz_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/updates", fuzz_dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/status", fuzz_dir);
	unlink(path);
	rmdir(fuzz_dir);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int		 made;
	const char		*dir = fuzz_dir;
	struct snapshot		*s;
	char			 path[64], journal[64], *cause = NULL;
	const uint8_t		*ff;
	size_t			 i;
	int			 plain;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	if (!made) {
		if (mkdtemp(fuzz_dir) == NULL)
			abort();
		atexit(remove_dir);
		snprintf(path, sizeof(path), "%s/updates", dir);
		if (mkdir(path, 0755) == -1)
			abort();
		made = 1;
	}
	snprintf(path, sizeof(path), "%s/status", dir);
	snprintf(journal, sizeof(journal), "%s/updates/0000", dir);
	ff = memchr(data, '\f', size);
	put_file(path, data, ff != NULL ? (size_t)(ff - data) : size);
	if (ff != NULL)
		put_file(journal, ff + 1, size - (size_t)(ff - data) - 1);
	else
		unlink(journal);

	for (i = 0, plain = 1; i < size && plain; i++)
		plain = (data[i] >= 0x20 && data[i] < 0x7f) ||
		    data[i] == '\n' || data[i] == '\f';
	s = sysinfo_snapshot_new();
	if (sysinfo_dpkg_read(s, dir, &cause) == 0) {
		check_snapshot(s);
		for (i = 1; i < s->npackages && plain; i++)
			if (strcmp(s->packages[i - 1].name,
			    s->packages[i].name) == 0 &&
			    strcmp(s->packages[i - 1].arch,
			    s->packages[i].arch) == 0)
				abort();
	} else if (cause == NULL)
		abort();
	free(cause);
	sysinfo_snapshot_free(s);
	return 0;
}
