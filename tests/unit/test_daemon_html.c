/*
 * Unit tests of daemon/html.c, included chrony-style: the escaping of
 * every string the dashboard writes (the five characters that mean
 * something in HTML, and bytes that are not UTF-8), the arithmetic that
 * places a history's points in its SVG chart, and the chart itself: one
 * point per value, in order, spans shaded, labels escaped, change points
 * marked at their first run, steps and spikes apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "../../daemon/html.c"
#include "log.h"
#include "near.h"

/* What b holds, as a new string; b is freed. */
static char *
drained(struct evbuffer *b)
{
	size_t	 n;
	char	*out;

	n = evbuffer_get_length(b);
	out = calloc(1, n + 1);
	assert_non_null(out);
	evbuffer_remove(b, out, n);
	evbuffer_free(b);
	return out;
}

/* What html_escape(s) writes, as a new string. */
static char *
escaped(const char *s)
{
	struct evbuffer	*b = evbuffer_new();

	assert_non_null(b);
	html_escape(b, s);
	return drained(b);
}

static void
expect_escaped(const char *in, const char *want)
{
	char	*got = escaped(in);

	assert_string_equal(got, want);
	free(got);
}

static void
test_escape(void **state)
{
	(void)state;
	expect_escaped("", "");
	expect_escaped("sys.pipe time", "sys.pipe time");
	expect_escaped("<script>&\"'", "&lt;script&gt;&amp;&quot;&#39;");
	expect_escaped("a<b>&amp;", "a&lt;b&gt;&amp;amp;");
	/* UTF-8 passes whole; a byte that is not UTF-8 is U+FFFD. */
	expect_escaped("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");
	expect_escaped("a\xff<", "a\xef\xbf\xbd&lt;");
	expect_escaped("cut \xc3", "cut \xef\xbf\xbd");
	/* An overlong '<' (0xc0 0xbc) must not come back as one. */
	expect_escaped("\xc0\xbcx", "\xef\xbf\xbd\xef\xbf\xbdx");
}

static void
test_range(void **state)
{
	const double	v[] = { 3, 1, 2 };
	const double	same[] = { 5, 5, 5 };
	const double	zero[] = { 0 };
	const double	neg[] = { -10, -20 };
	const double	gaps[] = { NAN, 4, INFINITY, 8, NAN };
	const double	none[] = { NAN };
	double		lo, hi;

	(void)state;
	html_range(v, 3, &lo, &hi);
	NEAR(lo, 0.9, 1e-12);
	NEAR(hi, 3.1, 1e-12);
	html_range(same, 3, &lo, &hi);
	NEAR(lo, 4.75, 1e-12);
	NEAR(hi, 5.25, 1e-12);
	html_range(zero, 1, &lo, &hi);
	NEAR(lo, -1, 0);
	NEAR(hi, 1, 0);
	html_range(neg, 2, &lo, &hi);
	NEAR(lo, -20.5, 1e-12);
	NEAR(hi, -9.5, 1e-12);
	html_range(gaps, 5, &lo, &hi);
	NEAR(lo, 3.8, 1e-12);
	NEAR(hi, 8.2, 1e-12);
	html_range(none, 1, &lo, &hi);
	NEAR(lo, 0, 0);
	NEAR(hi, 1, 0);
	html_range(NULL, 0, &lo, &hi);
	NEAR(lo, 0, 0);
	NEAR(hi, 1, 0);
}

static void
test_scale(void **state)
{
	(void)state;
	NEAR(html_scale(0, 0, 10, 80, 784), 80, 0);
	NEAR(html_scale(10, 0, 10, 80, 784), 784, 0);
	NEAR(html_scale(5, 0, 10, 80, 784), 432, 1e-12);
	/* y grows downwards: the lowest value at the bottom. */
	NEAR(html_scale(0.9, 0.9, 3.1, 232, 12), 232, 1e-12);
	NEAR(html_scale(3.1, 0.9, 3.1, 232, 12), 12, 1e-12);
	NEAR(html_scale(2, 0.9, 3.1, 232, 12), 122, 1e-9);
	/* One point: the middle, not a division by zero. */
	NEAR(html_scale(0, 0, 0, 80, 784), 432, 0);
}

/* The number after the n-th (from 0) occurrence of key in s, or NAN. */
static double
number_after(const char *s, const char *key, size_t n)
{
	const char	*p = s;

	for (;;) {
		if ((p = strstr(p, key)) == NULL)
			return NAN;
		p += strlen(key);
		if (n-- == 0)
			return strtod(p, NULL);
	}
}

static size_t
count(const char *s, const char *what)
{
	size_t	n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

static char *
chart(const struct html_chart *c)
{
	struct evbuffer	*b = evbuffer_new();

	assert_non_null(b);
	html_chart(b, c);
	return drained(b);
}

static void
test_chart(void **state)
{
	const double		 v[] = { 100, 110, 100, 130 };
	const char *const	 labels[] = { "r-1", "r-2", "<script>", "r-4" };
	const struct html_span	 span = { 2, 3, "alert #1 \"bad\"" };
	struct html_chart	 c;
	char			*svg;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.values = v;
	c.labels = labels;
	c.n = 4;
	c.spans = &span;
	c.nspans = 1;
	svg = chart(&c);
	assert_int_equal(count(svg, "<circle class=\"pt\""), 4);
	assert_int_equal(count(svg, "<rect class=\"alert\""), 1);
	assert_null(strstr(svg, "<script>"));
	assert_non_null(strstr(svg, "&lt;script&gt;: 100</title>"));
	assert_non_null(strstr(svg, "alert #1 &quot;bad&quot;"));
	/* Left to right from margin to margin, run after run. */
	NEAR(number_after(svg, "cx=\"", 0), CHART_LEFT, 0);
	NEAR(number_after(svg, "cx=\"", 1), CHART_LEFT +
	    (CHART_W - CHART_RIGHT - CHART_LEFT) / 3.0, 0.05);
	NEAR(number_after(svg, "cx=\"", 3), CHART_W - CHART_RIGHT, 0);
	/* 130 highest, 100 lowest: range 98.5 to 131.5. */
	NEAR(number_after(svg, "cy=\"", 3), html_scale(130, 98.5, 131.5,
	    CHART_H - CHART_BOTTOM, CHART_TOP), 0.05);
	NEAR(number_after(svg, "cy=\"", 0), html_scale(100, 98.5, 131.5,
	    CHART_H - CHART_BOTTOM, CHART_TOP), 0.05);
	assert_true(number_after(svg, "cy=\"", 3) <
	    number_after(svg, "cy=\"", 1));
	/* The span covers runs 2 and 3: from half a step before run 2. */
	NEAR(number_after(svg, "<rect class=\"alert\" x=\"", 0),
	    CHART_LEFT + (CHART_W - CHART_RIGHT - CHART_LEFT) * 2 / 3.0 -
	    (CHART_W - CHART_RIGHT - CHART_LEFT) / 6.0, 0.05);
	free(svg);

	/* A NaN has no point; one value sits in the middle. */
	c.values = (const double[]){ 1, NAN, 2, 3 };
	c.nspans = 0;
	svg = chart(&c);
	assert_int_equal(count(svg, "<circle class=\"pt\""), 3);
	assert_int_equal(count(svg, "<rect"), 0);
	free(svg);
	c.values = v;
	c.n = 1;
	svg = chart(&c);
	assert_int_equal(count(svg, "<circle class=\"pt\""), 1);
	NEAR(number_after(svg, "cx=\"", 0), (CHART_LEFT + CHART_W -
	    CHART_RIGHT) / 2.0, 0.05);
	free(svg);
}

static void
test_chart_marks(void **state)
{
	const double		 v[] = { 100, 101, 120, 121, 160, 120 };
	const char *const	 labels[] = { "r-1", "r-2", "r-3", "r-4", "r-5",
	    "r-6" };
	const struct html_mark	 marks[] = {
		{ 2, 0, "r-3: step, +19.8%" },
		{ 4, 1, "r-5: spike, <+33.3%>" },
		{ 6, 0, "beyond the runs: not drawn" },
	};
	struct html_chart	 c;
	const char		*p;
	char			*svg;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.values = v;
	c.labels = labels;
	c.n = 6;
	c.marks = marks;
	c.nmarks = 3;
	svg = chart(&c);
	assert_int_equal(count(svg, "<g class=\"change step\">"), 1);
	assert_int_equal(count(svg, "<g class=\"change spike\">"), 1);
	assert_null(strstr(svg, "beyond"));
	/* Each marker's line at its first run's point. */
	p = strstr(svg, "<g class=\"change step\"><title>r-3: step, +19.8%"
	    "</title><path class=\"guide\" d=\"M");
	assert_non_null(p);
	NEAR(strtod(strstr(p, "d=\"M") + 4, NULL), number_after(svg, "cx=\"",
	    2), 0.05);
	p = strstr(svg, "<g class=\"change spike\"><title>r-5: spike, "
	    "&lt;+33.3%&gt;</title><path class=\"guide\" d=\"M");
	assert_non_null(p);
	NEAR(strtod(strstr(p, "d=\"M") + 4, NULL), number_after(svg, "cx=\"",
	    4), 0.05);
	free(svg);
}

/*
 * Values at the ends of a double's range, which an import takes: the
 * chart's arithmetic must not overflow into inf, or NaN coordinates.
 */
static void
test_chart_extremes(void **state)
{
	const double		 wide[] = { -DBL_MAX, 0, DBL_MAX };
	const double		 top[] = { DBL_MAX, DBL_MAX };
	const double		 high[] = { 0.9 * DBL_MAX, DBL_MAX };
	const char *const	 labels[] = { "r-1", "r-2", "r-3" };
	struct html_chart	 c;
	double			 lo, hi;
	char			*svg;

	(void)state;
	html_range(wide, 3, &lo, &hi);
	assert_true(isfinite(lo) && isfinite(hi) && lo < hi);
	assert_true(lo <= -DBL_MAX && hi >= DBL_MAX);
	/* The lowest at the bottom, the highest at the top, 0 between. */
	NEAR(html_scale(-DBL_MAX, lo, hi, 232, 12), 232, 12);
	NEAR(html_scale(DBL_MAX, lo, hi, 232, 12), 12, 12);
	NEAR(html_scale(0, lo, hi, 232, 12), 122, 1e-9);
	html_range(top, 2, &lo, &hi);
	assert_true(isfinite(lo) && isfinite(hi) && lo < hi);
	html_range(high, 2, &lo, &hi);
	assert_true(isfinite(lo) && isfinite(hi) && lo < hi);
	NEAR(html_scale(high[0], lo, hi, 232, 12), 232, 12);
	NEAR(html_scale(high[1], lo, hi, 232, 12), 12, 12);
	memset(&c, 0, sizeof(c));
	c.values = wide;
	c.labels = labels;
	c.n = 3;
	svg = chart(&c);
	assert_int_equal(count(svg, "<circle class=\"pt\""), 3);
	assert_null(strstr(svg, "nan"));
	assert_null(strstr(svg, "inf"));
	NEAR(number_after(svg, "cy=\"", 1), (CHART_H - CHART_BOTTOM +
	    CHART_TOP) / 2.0, 0.05);
	free(svg);
	c.values = high;
	c.n = 2;
	svg = chart(&c);
	assert_null(strstr(svg, "nan"));
	assert_null(strstr(svg, "inf"));
	assert_true(number_after(svg, "cy=\"", 1) <
	    number_after(svg, "cy=\"", 0));
	free(svg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_chart),
		cmocka_unit_test(test_chart_marks),
		cmocka_unit_test(test_chart_extremes),
	};

	log_init("test_daemon_html", 1, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
