/*
 * NEAR(got, want, tol): fail unless got is within tol of want, in double
 * precision.  cmocka's assert_float_equal compares floats, to about 1e-7
 * of the value, which passes what a test of ours must not.  Included
 * after cmocka.h.
 */
#ifndef PERFWATCH_TEST_NEAR_H
#define PERFWATCH_TEST_NEAR_H

#include <math.h>

static inline void
near_(double got, double want, double tol, const char *what, int line)
{
	if (!(fabs(got - want) <= tol)) {
		print_error("line %d: %s = %.17g, want %.17g (within %g)\n",
		    line, what, got, want, tol);
		fail();
	}
}
#define NEAR(got, want, tol)	near_((got), (want), (tol), #got, __LINE__)

#endif
