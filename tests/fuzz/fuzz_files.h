/*
 * What the fuzz targets that read files share (fuzz_dpkg, fuzz_pacman,
 * fuzz_procfs): a scratch directory under /tmp, taken away when the
 * fuzzer exits, files written into it, and the input cut into parts at
 * its form feeds, one part a file.
 */
#ifndef PERFWATCH_FUZZ_FILES_H
#define PERFWATCH_FUZZ_FILES_H

#include <sys/stat.h>

#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

static char	*fuzz_scratch;

static inline int
fuzz_remove_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove dir/rel and everything beneath it, if it is there. */
static inline void
fuzz_remove_tree(const char *dir, const char *rel)
{
	char	*path;

	xasprintf(&path, "%s/%s", dir, rel);
	nftw(path, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(path);
}

/* Take the scratch directory away when the fuzzer exits. */
static inline void
fuzz_remove_scratch(void)
{
	nftw(fuzz_scratch, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directory /tmp/<name>.XXXXXX, made on the first call. */
static inline const char *
fuzz_scratch_dir(const char *name)
{
	if (fuzz_scratch == NULL) {
		xasprintf(&fuzz_scratch, "/tmp/%s.XXXXXX", name);
		if (mkdtemp(fuzz_scratch) == NULL)
			abort();
		atexit(fuzz_remove_scratch);
	}
	return fuzz_scratch;
}

/*
 * Write data[0..len) to dir/rel, whole, making the directories of rel;
 * data NULL removes the file instead.  Aborts on an error.
 */
static inline void
fuzz_put_file(const char *dir, const char *rel, const uint8_t *data,
    size_t len)
{
	char	*path, *p;
	ssize_t	 n;
	int	 fd;

	xasprintf(&path, "%s/%s", dir, rel);
	if (data == NULL) {
		unlink(path);
		free(path);
		return;
	}
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) == -1 && access(path, F_OK) == -1)
			abort();
		*p = '/';
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		abort();
	while (len > 0) {
		if ((n = write(fd, data, len)) <= 0)
			abort();
		data += n;
		len -= (size_t)n;
	}
	close(fd);
	free(path);
}

/*
 * Part i (from 0) of data, the parts separated by form feeds; NULL when
 * data has fewer parts.
 */
static inline const uint8_t *
fuzz_part(const uint8_t *data, size_t size, size_t i, size_t *len)
{
	const uint8_t	*p = data, *end = data + size, *ff;

	for (;;) {
		ff = memchr(p, '\f', (size_t)(end - p));
		if (i == 0) {
			*len = (size_t)((ff != NULL ? ff : end) - p);
			return p;
		}
		if (ff == NULL)
			return NULL;
		p = ff + 1;
		i--;
	}
}

#endif
