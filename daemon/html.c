/*
 * The dashboard's HTML and SVG: text escaped for HTML, and a metric's
 * history drawn as an inline SVG line chart, written into evbuffers.
 *
 * Nothing here reads the store or knows about requests (http.c does), so
 * that the escaping and the chart's arithmetic can be tested alone
 * (tests/unit/test_daemon_html.c).
 *
 * Every string that comes from the store or a request goes through
 * html_escape(): the five characters that mean something in HTML text and
 * in a quoted attribute (& < > " ') become references, and bytes that are
 * not UTF-8 become U+FFFD, as the page is declared UTF-8.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "utf8.h"
#include "daemon.h"

/* The chart's size and margins, in SVG user units (pixels). */
#define CHART_W		800
#define CHART_H		260
#define CHART_LEFT	80
#define CHART_RIGHT	16
#define CHART_TOP	12
#define CHART_BOTTOM	28

void
html_escape(struct evbuffer *out, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 len = strlen(s), k;

	while (len > 0) {
		switch (*p) {
		case '&':
			evbuffer_add(out, "&amp;", 5);
			break;
		case '<':
			evbuffer_add(out, "&lt;", 4);
			break;
		case '>':
			evbuffer_add(out, "&gt;", 4);
			break;
		case '"':
			evbuffer_add(out, "&quot;", 6);
			break;
		case '\'':
			evbuffer_add(out, "&#39;", 5);
			break;
		default:
			if (*p < 0x80) {
				evbuffer_add(out, p, 1);
				break;
			}
			if ((k = utf8_seq_len(p, len)) == 0) {
				/* U+FFFD for a byte that is not UTF-8. */
				evbuffer_add(out, "\xef\xbf\xbd", 3);
				break;
			}
			evbuffer_add(out, p, k);
			p += k;
			len -= k;
			continue;
		}
		p++;
		len--;
	}
}

/*
 * The range of values a chart's axis shows for v[0..n): from the lowest
 * to the highest value, NaN left out, widened by 5% of the span on each
 * side so that no point sits on the frame.  All values equal: 5% of the
 * value each side (1 each side of 0).  No value: 0 to 1.  Always lo < hi.
 */
void
html_range(const double *v, size_t n, double *lo, double *hi)
{
	double	a = NAN, b = NAN, pad;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (isnan(v[i]) || isinf(v[i]))
			continue;
		if (isnan(a) || v[i] < a)
			a = v[i];
		if (isnan(b) || v[i] > b)
			b = v[i];
	}
	if (isnan(a)) {
		*lo = 0;
		*hi = 1;
		return;
	}
	/* Halves first: b - a of values far apart would overflow. */
	if (a == b)
		pad = a == 0 ? 1 : fabs(a) * 0.05;
	else
		pad = (b / 2 - a / 2) * 0.1;
	*lo = a - pad;
	*hi = b + pad;
	/* At the ends of a double's range, the end itself. */
	if (isinf(*lo))
		*lo = -DBL_MAX;
	if (isinf(*hi))
		*hi = DBL_MAX;
}

/*
 * Map v from [lo, hi] onto [px0, px1] (px1 may be below px0: the y axis
 * of SVG grows downwards).  lo == hi, an axis of one point, maps to the
 * middle.
 */
double
html_scale(double v, double lo, double hi, double px0, double px1)
{
	if (hi == lo)
		return (px0 + px1) / 2;
	/* In halves, so that neither difference overflows. */
	return px0 + (v / 2 - lo / 2) / (hi / 2 - lo / 2) * (px1 - px0);
}

/* A number for an axis label: six significant digits. */
static void
html_axis_label(struct evbuffer *out, double x, double y, const char *anchor,
    double v)
{
	evbuffer_add_printf(out, "<text x=\"%.1f\" y=\"%.1f\" "
	    "text-anchor=\"%s\">%.6g</text>\n", x, y, anchor, v);
}

/*
 * A change point's marker at x: a thin line down the chart and, in the
 * top margin, a triangle for a step or a diamond for a spike, in a group
 * of class "change step" or "change spike" titled with m's title.
 */
static void
html_mark(struct evbuffer *out, const struct html_mark *m, double x,
    double y0, double y1)
{
	evbuffer_add_printf(out, "<g class=\"change %s\"><title>",
	    m->spike ? "spike" : "step");
	html_escape(out, m->title);
	evbuffer_add_printf(out, "</title><path class=\"guide\" "
	    "d=\"M%.1f %.1fV%.1f\"/>", x, y1, y0);
	if (m->spike)
		evbuffer_add_printf(out, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5"
		    "z\"/>", x, y1 - 11);
	else
		evbuffer_add_printf(out, "<path d=\"M%.1f %.1fh10l-5 9z\"/>",
		    x - 5, y1 - 10);
	evbuffer_add_printf(out, "</g>\n");
}

/*
 * Draw c as an SVG line chart: one circle (class "pt") per value, in run
 * order from left to right, joined by a line; the runs of each span
 * shaded (class "alert"), a marker at the first run of each change
 * point, and the first and last runs' labels under the axis.  A NaN
 * value gets no circle and breaks nothing else.
 */
void
html_chart(struct evbuffer *out, const struct html_chart *c)
{
	const double	x0 = CHART_LEFT, x1 = CHART_W - CHART_RIGHT;
	const double	y0 = CHART_H - CHART_BOTTOM, y1 = CHART_TOP;
	double		lo, hi, x, y, step, a, b;
	size_t		i, k;
	int		first = 1;

	html_range(c->values, c->n, &lo, &hi);
	step = c->n > 1 ? (x1 - x0) / (double)(c->n - 1) : 0;
	evbuffer_add_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\">\n", CHART_W, CHART_H, CHART_W, CHART_H);
	/* Alert spans under everything else. */
	for (k = 0; k < c->nspans; k++) {
		if (c->spans[k].first >= c->n)
			continue;
		a = html_scale((double)c->spans[k].first, 0,
		    (double)(c->n - 1), x0, x1) - step / 2;
		b = html_scale((double)(c->spans[k].last < c->n ?
		    c->spans[k].last : c->n - 1), 0, (double)(c->n - 1), x0,
		    x1) + step / 2;
		if (a < x0)
			a = x0;
		if (b > x1)
			b = x1;
		if (b - a < 4)
			b = a + 4;
		evbuffer_add_printf(out, "<rect class=\"alert\" x=\"%.1f\" "
		    "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
		    a, y1, b - a, y0 - y1);
		html_escape(out, c->spans[k].title);
		evbuffer_add_printf(out, "</title></rect>\n");
	}
	evbuffer_add_printf(out, "<path class=\"axis\" d=\"M%.1f %.1fV%.1f"
	    "H%.1f\"/>\n", x0, y1, y0, x1);
	for (k = 0; k < c->nmarks; k++)
		if (c->marks[k].at < c->n)
			html_mark(out, &c->marks[k], html_scale(
			    (double)c->marks[k].at, 0, (double)(c->n - 1), x0,
			    x1), y0, y1);
	html_axis_label(out, x0 - 6, y1 + 4, "end", hi);
	html_axis_label(out, x0 - 6, (y0 + y1) / 2 + 4, "end", lo / 2 + hi / 2);
	html_axis_label(out, x0 - 6, y0, "end", lo);
	if (c->n > 0) {
		evbuffer_add_printf(out, "<text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"start\">", x0, CHART_H - 8);
		html_escape(out, c->labels[0]);
		evbuffer_add_printf(out, "</text>\n");
	}
	if (c->n > 1) {
		evbuffer_add_printf(out, "<text x=\"%.1f\" y=\"%d\" "
		    "text-anchor=\"end\">", x1, CHART_H - 8);
		html_escape(out, c->labels[c->n - 1]);
		evbuffer_add_printf(out, "</text>\n");
	}
	/* The line, then the points over it. */
	evbuffer_add_printf(out, "<path class=\"line\" d=\"");
	for (i = 0; i < c->n; i++) {
		if (isnan(c->values[i]) || isinf(c->values[i]))
			continue;
		x = html_scale((double)i, 0, (double)(c->n - 1), x0, x1);
		y = html_scale(c->values[i], lo, hi, y0, y1);
		evbuffer_add_printf(out, "%s%.1f %.1f", first ? "M" : "L", x,
		    y);
		first = 0;
	}
	evbuffer_add_printf(out, "\"/>\n");
	for (i = 0; i < c->n; i++) {
		if (isnan(c->values[i]) || isinf(c->values[i]))
			continue;
		x = html_scale((double)i, 0, (double)(c->n - 1), x0, x1);
		y = html_scale(c->values[i], lo, hi, y0, y1);
		evbuffer_add_printf(out, "<circle class=\"pt\" cx=\"%.1f\" "
		    "cy=\"%.1f\" r=\"3\"><title>", x, y);
		html_escape(out, c->labels[i]);
		evbuffer_add_printf(out, ": %.6g</title></circle>\n",
		    c->values[i]);
	}
	evbuffer_add_printf(out, "</svg>\n");
}
