/*
 * libFuzzer target: the statistical primitives (detect/stats.c) and the
 * change-point scan, on samples full of ties, constants and wide ranges,
 * which is where the arithmetic of rank tests goes wrong.
 *
 * The input's first byte splits the rest into two samples x and y; each
 * two bytes are a value, a signed 16-bit integer over 16, so that sums
 * and differences are exact.  What must hold, for any such samples:
 * - Mann-Whitney: 0 <= U <= nx ny, U of y against x is nx ny - U, the
 *   two-sided p is in [0, 1] and the same both ways, one side's p of x
 *   against y is the other side's of y against x;
 * - Hodges-Lehmann: the shift is the median of every y_j - x_i
 *   (counted here by brute force), inside its interval, and adding a
 *   constant to y moves shift and interval by it;
 * - Benjamini-Hochberg: each q is in [p, 1], and a larger p never gets
 *   a smaller q;
 * - the median, quantiles and the biweight lie within the sample's
 *   range, quantiles in the order asked;
 * - Welch's p is in [0, 1] when it is defined;
 * - the change points of x (as positive run levels) lie inside the
 *   series, in order, each with p in [0, 1].
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"
#include "detect/stats.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAX_VALUES	64
#define EPS		1e-9

static int
dbl_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
near(double a, double b)
{
	return fabs(a - b) <= EPS * (1 + fabs(a) + fabs(b));
}

static void
check_mwu(const double *x, size_t nx, const double *y, size_t ny)
{
	struct stats_mwu	a, b, less, greater;

	if (stats_mwu(x, nx, y, ny, STATS_TWO_SIDED, STATS_MWU_AUTO, &a) != 0 ||
	    stats_mwu(y, ny, x, nx, STATS_TWO_SIDED, STATS_MWU_AUTO, &b) != 0)
		abort();
	if (a.u < 0 || a.u > (double)(nx * ny) ||
	    !near(a.u + b.u, (double)(nx * ny)))
		abort();
	if (!(a.p >= 0 && a.p <= 1) || !near(a.p, b.p))
		abort();
	if (stats_mwu(x, nx, y, ny, STATS_LESS, STATS_MWU_AUTO, &less) != 0 ||
	    stats_mwu(y, ny, x, nx, STATS_GREATER, STATS_MWU_AUTO,
	    &greater) != 0)
		abort();
	if (!(less.p >= 0 && less.p <= 1) || !near(less.p, greater.p))
		abort();
}

static void
check_hl(const double *x, size_t nx, const double *y, size_t ny)
{
	struct stats_interval	 r, moved;
	double			*d, *y2, med;
	size_t			 i, j, n = nx * ny;

	if (stats_hl_shift(x, nx, y, ny, 0.95, &r) != 0)
		abort();
	d = xreallocarray(NULL, n, sizeof(*d));
	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			d[i * ny + j] = y[j] - x[i];
	qsort(d, n, sizeof(*d), dbl_cmp);
	med = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	if (!near(r.estimate, med) || !(r.lo <= r.estimate + EPS) ||
	    !(r.estimate <= r.hi + EPS) || r.lo < d[0] - EPS ||
	    r.hi > d[n - 1] + EPS)
		abort();
	y2 = xreallocarray(NULL, ny, sizeof(*y2));
	for (j = 0; j < ny; j++)
		y2[j] = y[j] + 100;
	if (stats_hl_shift(x, nx, y2, ny, 0.95, &moved) != 0 ||
	    !near(moved.estimate, r.estimate + 100) ||
	    !near(moved.lo, r.lo + 100) || !near(moved.hi, r.hi + 100))
		abort();
	free(y2);
	free(d);
}

static void
check_bh(const double *x, size_t n)
{
	double	p[MAX_VALUES], q[MAX_VALUES];
	size_t	i, j;

	/* Values in [0, 1], ties and all. */
	for (i = 0; i < n; i++)
		p[i] = fabs(x[i]) / 2048;
	if (stats_bh(p, n, q) != 0)
		abort();
	for (i = 0; i < n; i++) {
		if (!(q[i] >= p[i] - EPS && q[i] <= 1))
			abort();
		for (j = 0; j < n; j++)
			if (p[i] < p[j] && q[i] > q[j] + EPS)
				abort();
	}
}

static void
check_location(const double *x, size_t n)
{
	double	lo, hi, m, q1, q3, loc, scale;

	if (stats_minmax(x, n, &lo, &hi) != 0 || stats_median(x, n, &m) != 0 ||
	    stats_quantile(x, n, 0.25, &q1) != 0 ||
	    stats_quantile(x, n, 0.75, &q3) != 0)
		abort();
	if (!(lo <= q1 && q1 <= m && m <= q3 && q3 <= hi))
		abort();
	if (stats_biweight(x, n, 4.685, &loc, &scale) != 0 ||
	    !(loc >= lo - EPS && loc <= hi + EPS) || !(scale >= 0))
		abort();
}

static void
check_welch(const double *x, size_t nx, const double *y, size_t ny)
{
	struct stats_ttest	t;

	if (nx < 2 || ny < 2)
		return;
	if (stats_welch(x, nx, y, ny, STATS_TWO_SIDED, &t) == 0 &&
	    !(t.p >= 0 && t.p <= 1))
		abort();
}

static void
check_changes(const double *x, size_t n)
{
	struct cp_params	 p;
	struct cp_change	*ch = NULL;
	double			 level[MAX_VALUES];
	size_t			 nch = 0, i;

	for (i = 0; i < n; i++)
		level[i] = 100 + fabs(x[i]);
	cp_params_default(&p);
	p.window = 8;
	if (cp_detect(level, n, &p, &ch, &nch) != 0)
		abort();
	for (i = 0; i < nch; i++) {
		if (ch[i].index == 0 || ch[i].index >= n ||
		    (i > 0 && ch[i].index <= ch[i - 1].index) ||
		    !(ch[i].p >= 0 && ch[i].p <= 1) ||
		    !isfinite(ch[i].change_pct))
			abort();
	}
	free(ch);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double	v[MAX_VALUES], *x, *y;
	size_t	n, nx, ny, i;

	log_init("fuzz", 1, 0);
	if (size < 3)
		return 0;
	n = (size - 1) / 2;
	if (n > MAX_VALUES)
		n = MAX_VALUES;
	for (i = 0; i < n; i++)
		v[i] = (double)(int16_t)(data[1 + 2 * i] << 8 |
		    data[2 + 2 * i]) / 16;
	nx = data[0] % n;
	if (nx == 0)
		nx = 1;
	ny = n - nx;
	x = v;
	y = v + nx;

	check_location(v, n);
	check_bh(v, n);
	check_changes(v, n);
	if (ny == 0)
		return 0;
	check_mwu(x, nx, y, ny);
	check_hl(x, nx, y, ny);
	check_welch(x, nx, y, ny);
	return 0;
}
