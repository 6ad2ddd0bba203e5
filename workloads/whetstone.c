/*
 * sys.whetstone: floating-point speed in the manner of the Whetstone
 * benchmark (Curnow and Wichmann, 1976; UnixBench's "Double-Precision
 * Whetstone").  Written for perfwatch: each pass runs the classic modules
 * with the classic weights, in double precision:
 *
 *   module                          times per pass
 *   array elements                  12
 *   array as a parameter            14 (six inner steps each)
 *   conditional jumps               345
 *   integer arithmetic              210
 *   trigonometric functions         32
 *   procedure calls                 899
 *   array references                616
 *   standard functions (sqrt, exp, log)  93
 *
 * By the benchmark's own accounting a pass with these counts is 100,000
 * Whetstone instructions, so
 *
 *   mwips   passes a second of the CPU time received x 0.1 (the
 *           wall-clock rate on an idle machine; higher is better)
 *
 * The figure is Whetstone-like, comparable with itself rather than with
 * another implementation's MWIPS.  Every module starts from fixed values
 * so the arithmetic stays bounded however long the loop runs.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

#define WH_NOINLINE	__attribute__((noinline))
#define WH_T		0.499975
#define WH_T1		0.50025
#define WH_T2		2.0

/*
 * The seeds (one, half, ...) are set once, out of the optimiser's sight,
 * so no module can be folded into a constant at compile time.
 */
struct wh_state {
	double	e1[4];
	int	j, k, l;
	double	one, half, three_quarters;
	int	i1, i2, i3;
	double	check;
};

static volatile double	wh_sink;

/* The array-as-parameter module's procedure. */
static WH_NOINLINE void
wh_pa(double *e)
{
	int	i;

	for (i = 0; i < 6; i++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * WH_T;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * WH_T;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * WH_T;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) / WH_T2;
	}
}

/* The procedure-call module's procedure. */
static WH_NOINLINE void
wh_p3(double x, double y, double *z)
{
	double	x1, y1;

	x1 = WH_T * (x + y);
	y1 = WH_T * (x1 + y);
	*z = (x1 + y1) / WH_T2;
}

/* The array-reference module's procedure. */
static WH_NOINLINE void
wh_p0(struct wh_state *st)
{
	st->e1[st->j] = st->e1[st->k];
	st->e1[st->k] = st->e1[st->l];
	st->e1[st->l] = st->e1[st->j];
}

/* One pass of every module. */
static void
wh_pass(struct wh_state *st)
{
	double	x1, x2, x3, x4, x, y, z;
	int	i, j, k, l;

	/* Array elements. */
	x1 = st->one;
	x2 = x3 = x4 = -st->one;
	for (i = 0; i < 12; i++) {
		x1 = (x1 + x2 + x3 - x4) * WH_T;
		x2 = (x1 + x2 - x3 + x4) * WH_T;
		x3 = (x1 - x2 + x3 + x4) * WH_T;
		x4 = (-x1 + x2 + x3 + x4) * WH_T;
	}
	st->check += x1 + x2 + x3 + x4;

	/* Array as a parameter. */
	st->e1[0] = st->one;
	st->e1[1] = st->e1[2] = st->e1[3] = -st->one;
	for (i = 0; i < 14; i++)
		wh_pa(st->e1);
	st->check += st->e1[3];

	/* Conditional jumps. */
	j = st->i1;
	for (i = 0; i < 345; i++) {
		j = j == 1 ? 2 : 3;
		j = j > 2 ? 0 : 1;
		j = j < 1 ? 1 : 0;
	}
	st->j = j;

	/* Integer arithmetic. */
	j = st->i1;
	k = st->i2;
	l = st->i3;
	for (i = 0; i < 210; i++) {
		j = j * (k - j) * (l - k);
		k = l * k - (l - j) * k;
		l = (l - k) * (k + j);
		st->e1[(l - 2) & 3] = j + k + l;
		st->e1[(k - 2) & 3] = j * k * l;
	}
	st->check += st->e1[0] + st->e1[1];

	/* Trigonometric functions. */
	x = y = st->half;
	for (i = 0; i < 32; i++) {
		x = WH_T * atan(WH_T2 * sin(x) * cos(x) /
		    (cos(x + y) + cos(x - y) - 1.0));
		y = WH_T * atan(WH_T2 * sin(y) * cos(y) /
		    (cos(x + y) + cos(x - y) - 1.0));
	}
	st->check += x + y;

	/* Procedure calls. */
	x = y = z = st->one;
	for (i = 0; i < 899; i++)
		wh_p3(x, y, &z);
	st->check += z;

	/* Array references. */
	st->j = 0;
	st->k = 1;
	st->l = 2;
	st->e1[0] = st->one;
	st->e1[1] = 2 * st->one;
	st->e1[2] = 3 * st->one;
	for (i = 0; i < 616; i++)
		wh_p0(st);
	st->check += st->e1[0];

	/* Standard functions. */
	x = st->three_quarters;
	for (i = 0; i < 93; i++)
		x = sqrt(exp(log(x) / WH_T1));
	st->check += x;
}

/* The timed loop's body: n passes. */
static int
wh_body(void *arg, uint64_t n, char **cause)
{
	struct wh_state	*st = arg;
	uint64_t	 i;

	(void)cause;
	for (i = 0; i < n; i++)
		wh_pass(st);
	return 0;
}

/* sys.whetstone: MWIPS over the configured duration. */
int
wl_whetstone_run(const struct wl_params *p, int out, char **cause)
{
	struct wh_state	*st;
	struct wl_loop	 loop;
	int		 rc;

	/* At the start of a page, the same in every run (wl_page_alloc). */
	if ((st = wl_page_alloc(sizeof(*st))) == NULL) {
		xasprintf(cause, "posix_memalign: out of memory");
		return -1;
	}
	memset(st, 0, sizeof(*st));
	st->one = 1.0;
	st->half = 0.5;
	st->three_quarters = 0.75;
	st->i1 = 1;
	st->i2 = 2;
	st->i3 = 3;
	rc = wl_timed_loop(p->duration, WL_LOOP_CPU, wh_body, st, &loop, cause);
	wh_sink = st->check;
	free(st);
	if (rc == -1)
		return -1;
	return wl_loop_report(out, "mwips", "MWIPS", 0.1, &loop, cause);
}
