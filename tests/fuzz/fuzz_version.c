/*
 * libFuzzer target: version comparison (sysinfo/version.c), by which a
 * machine diff says "upgraded" or "downgraded".  The input is up to three
 * versions, one a line.  For dpkg's, rpm's, pacman's and FreeBSD pkg's
 * rules alike, each comparison must be an order: a version equals
 * itself, a < b exactly when b > a (or a diff read backwards would not be
 * the diff reversed), and a <= b <= c gives a <= c.  The exceptions to
 * the last: rpm's, where a version without a release matches every
 * release of it ("1.0" is "1.0-1" and "1.0-2"), so that its order holds
 * among versions that all have a release, or none; and pacman's, which
 * libalpm itself does not keep where separators alone are left.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

static void
check_order(int (*cmp)(const char *, const char *), char *const v[3],
    int transitive)
{
	int	s[3][3], i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			s[i][j] = sign(cmp(v[i], v[j]));
	for (i = 0; i < 3; i++) {
		if (s[i][i] != 0)
			abort();
		for (j = 0; j < 3; j++) {
			if (s[i][j] != -s[j][i])
				abort();
			for (k = 0; k < 3 && transitive; k++)
				if (s[i][j] <= 0 && s[j][k] <= 0 &&
				    s[i][k] > 0)
					abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*buf, *v[3], *nl;
	size_t		 i, releases;

	log_init("fuzz", 1, 0);
	if (size > 512)
		return 0;
	buf = xstrndup((const char *)data, size);
	v[0] = buf;
	for (i = 1; i < 3; i++) {
		if ((nl = strchr(v[i - 1], '\n')) != NULL) {
			*nl = '\0';
			v[i] = nl + 1;
		} else
			v[i] = v[i - 1];
	}
	releases = 0;
	for (i = 0; i < 3; i++)
		releases += strchr(v[i], '-') != NULL;
	check_order(sysinfo_version_cmp, v, 1);
	check_order(sysinfo_rpm_version_cmp, v, releases % 3 == 0);
	check_order(sysinfo_pkgng_version_cmp, v, 1);
	/* libalpm's own order is not transitive where separators alone
	 * are left ("_." <= "8" <= "~B0.c" > "_."): ours is the same. */
	check_order(sysinfo_pacman_version_cmp, v, 0);
	free(buf);
	return 0;
}
