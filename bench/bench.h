/*
 * What every bench needs: the monotonic clock and an order for doubles.
 * Included by the benches; every function is static inline.
 */
#ifndef PERFWATCH_BENCH_H
#define PERFWATCH_BENCH_H

#include <time.h>

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

#endif
