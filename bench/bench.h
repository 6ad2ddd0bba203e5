/*
 * What every bench needs: the monotonic clock, an order for doubles, and
 * the perfwatch to run.  Included by the benches; every function is
 * static inline.
 */
#ifndef PERFWATCH_BENCH_H
#define PERFWATCH_BENCH_H

#include <libgen.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"

/* Seconds of CLOCK_MONOTONIC. */
static inline double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Order doubles for qsort. */
static inline int
bench_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The perfwatch beside the bench's build tree (argv0's ../bin), else the
 * one in PATH: "build/bin/perfwatch" held only when run from the top of
 * the tree.  Allocated.
 */
static inline char *
bench_perfwatch(const char *argv0)
{
	char	*self, *pw;

	self = xstrdup(argv0);
	xasprintf(&pw, "%s/../bin/perfwatch", dirname(self));
	free(self);
	if (access(pw, X_OK) == -1) {
		free(pw);
		pw = xstrdup("perfwatch");
	}
	return pw;
}

#endif
