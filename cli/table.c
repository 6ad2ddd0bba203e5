/*
 * Tables for people (aligned columns) and for programs (CSV).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"
#include "cli.h"

struct table {
	size_t		  ncols;
	char		**headers;
	enum table_align *align;
	char		**cells;	/* nrows * ncols */
	size_t		  nrows;
	size_t		  cap;
	char		**pending;	/* the row being built by table_addf */
};

struct table *
table_new(size_t ncols, const char *const *headers,
    const enum table_align *align)
{
	struct table	*t = xcalloc(1, sizeof(*t));
	size_t		 i;

	t->ncols = ncols;
	t->headers = xcalloc(ncols, sizeof(char *));
	t->align = xcalloc(ncols, sizeof(*t->align));
	t->pending = xcalloc(ncols, sizeof(char *));
	for (i = 0; i < ncols; i++) {
		t->headers[i] = xstrdup(headers[i]);
		t->align[i] = align != NULL ? align[i] : ALIGN_LEFT;
	}
	return t;
}

/* Add a whole row; NULL cells print empty. */
void
table_add(struct table *t, const char *const *cells)
{
	size_t	i;

	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->cells = xreallocarray(t->cells, t->cap * t->ncols,
		    sizeof(char *));
	}
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] =
		    xstrdup(cells[i] != NULL ? cells[i] : "");
	t->nrows++;
}

/* Set one cell of the row being built. */
void
table_addf(struct table *t, size_t col, const char *fmt, ...)
{
	va_list	ap;

	if (col >= t->ncols)
		return;
	free(t->pending[col]);
	va_start(ap, fmt);
	if (vasprintf(&t->pending[col], fmt, ap) == -1)
		t->pending[col] = NULL;
	va_end(ap);
}

/* Add the row built with table_addf and start a new one. */
void
table_end_row(struct table *t)
{
	size_t	i;

	table_add(t, (const char *const *)t->pending);
	for (i = 0; i < t->ncols; i++) {
		free(t->pending[i]);
		t->pending[i] = NULL;
	}
}

/* The code point of the valid UTF-8 sequence at s of len bytes. */
static unsigned long
utf8_decode(const unsigned char *s, size_t len)
{
	unsigned long	cp;
	size_t		i;

	if (len == 1)
		return s[0];
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

/*
 * The emoji and symbols that a terminal shows two columns wide (East
 * Asian Width W, as glibc's wcwidth(3) has them) outside the CJK blocks:
 * a block of emoji also holds narrow symbols (U+1F6C6 to U+1F6CB, U+2605),
 * so they are listed one by one.  Ascending.
 */
static const struct {
	unsigned long	lo, hi;
} cp_wide_symbols[] = {
	{ 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe },
	{ 0x2614, 0x2615 }, { 0x2648, 0x2653 }, { 0x267f, 0x267f },
	{ 0x2693, 0x2693 }, { 0x26a1, 0x26a1 }, { 0x26aa, 0x26ab },
	{ 0x26bd, 0x26be }, { 0x26c4, 0x26c5 }, { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f3 },
	{ 0x26f5, 0x26f5 }, { 0x26fa, 0x26fa }, { 0x26fd, 0x26fd },
	{ 0x2705, 0x2705 }, { 0x270a, 0x270b }, { 0x2728, 0x2728 },
	{ 0x274c, 0x274c }, { 0x274e, 0x274e }, { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27b0, 0x27b0 },
	{ 0x27bf, 0x27bf }, { 0x2b1b, 0x2b1c }, { 0x2b50, 0x2b50 },
	{ 0x2b55, 0x2b55 }, { 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf },
	{ 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a }, { 0x1f200, 0x1f202 },
	{ 0x1f210, 0x1f23b }, { 0x1f240, 0x1f248 }, { 0x1f250, 0x1f251 },
	{ 0x1f260, 0x1f265 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 },
	{ 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca },
	{ 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 },
	{ 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 }, { 0x1f442, 0x1f4fc },
	{ 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 },
	{ 0x1f57a, 0x1f57a }, { 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 },
	{ 0x1f5fb, 0x1f64f }, { 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc },
	{ 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 }, { 0x1f6dd, 0x1f6df },
	{ 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb },
	{ 0x1f7f0, 0x1f7f0 }, { 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 },
	{ 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1fa74 }, { 0x1fa78, 0x1fa7c },
	{ 0x1fa80, 0x1fa86 }, { 0x1fa90, 0x1faac }, { 0x1fab0, 0x1faba },
	{ 0x1fac0, 0x1fac5 }, { 0x1fad0, 0x1fad9 }, { 0x1fae0, 0x1fae7 },
	{ 0x1faf0, 0x1faf6 },
};

/*
 * The columns a code point takes on a terminal: none for combining marks
 * and zero-width spaces, two for the wide East Asian blocks and emoji, one
 * for the rest (wcwidth(3) would need a UTF-8 locale, which LC_ALL=C
 * scripts do not have).
 */
static size_t
cp_width(unsigned long cp)
{
	size_t	i;

	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
	    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) ||
	    (cp >= 0x3041 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
	    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	for (i = 0; i < nitems(cp_wide_symbols) &&
	    cp >= cp_wide_symbols[i].lo; i++)
		if (cp <= cp_wide_symbols[i].hi)
			return 2;
	return 1;
}

/*
 * Text as a terminal may show it, a table's cell or a line of a command's
 * output: control characters (which would break the row or reach the
 * terminal as commands) written as escapes, \n, \t, \r or \xHH (\u00HH
 * for C1 controls).  *width gets its columns, unless width is NULL.
 */
char *
table_display(const char *cell, size_t *width)
{
	const unsigned char	*s = (const unsigned char *)cell;
	size_t			 n = strlen(cell), i, k, o = 0, cols;
	unsigned long		 cp;
	char			*d;

	if (width == NULL)
		width = &cols;
	d = xmalloc(6 * n + 1);
	*width = 0;
	for (i = 0; i < n; i += k) {
		if ((k = utf8_seq_len(s + i, n - i)) == 0) {
			o += (size_t)sprintf(d + o, "\\x%02x", s[i]);
			*width += 4;
			k = 1;
			continue;
		}
		cp = utf8_decode(s + i, k);
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
			if (cp == '\n')
				o += (size_t)sprintf(d + o, "\\n");
			else if (cp == '\t')
				o += (size_t)sprintf(d + o, "\\t");
			else if (cp == '\r')
				o += (size_t)sprintf(d + o, "\\r");
			else if (cp < 0x80)
				o += (size_t)sprintf(d + o, "\\x%02lx", cp);
			else
				o += (size_t)sprintf(d + o, "\\u%04lx", cp);
			*width += cp == '\n' || cp == '\t' || cp == '\r' ?
			    2 : cp < 0x80 ? 4 : 6;
			continue;
		}
		memcpy(d + o, s + i, k);
		o += k;
		*width += cp_width(cp);
	}
	d[o] = '\0';
	return d;
}

/* How many cli_show() strings may be in one printf's arguments. */
#define CLI_SHOW_KEEP	8

/*
 * s as table_display() shows it, for a line printed beside a table
 * ("run LABEL on HOST, ..."): a name from the store (an imported label,
 * a commit's subject) is the file's or the repository's text, and its
 * control characters reached the terminal as they were.  The string is
 * kept until CLI_SHOW_KEEP more calls, so that one printf may take
 * several; NULL stays NULL.
 */
const char *
cli_show(const char *s)
{
	static char	*kept[CLI_SHOW_KEEP];
	static size_t	 next;
	char		*d;

	if (s == NULL)
		return NULL;
	d = table_display(s, NULL);
	free(kept[next]);
	kept[next] = d;
	next = (next + 1) % CLI_SHOW_KEEP;
	return d;
}

void
table_print(const struct table *t, FILE *f, enum cli_output out)
{
	size_t	*w, *cw, r, c, n, len, pad;
	char	**disp, *line, *end;

	if (out == OUT_CSV) {
		for (c = 0; c < t->ncols; c++) {
			if (c > 0)
				fputc(',', f);
			csv_write_field(f, t->headers[c]);
		}
		fputc('\n', f);
		for (r = 0; r < t->nrows; r++) {
			for (c = 0; c < t->ncols; c++) {
				if (c > 0)
					fputc(',', f);
				csv_write_field(f, t->cells[r * t->ncols + c]);
			}
			fputc('\n', f);
		}
		return;
	}
	/* Row 0 is the headers; columns are as wide as they show. */
	n = (t->nrows + 1) * t->ncols;
	disp = xcalloc(n, sizeof(*disp));
	cw = xcalloc(n, sizeof(*cw));
	w = xcalloc(t->ncols, sizeof(*w));
	for (r = 0, len = 0; r <= t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			disp[r * t->ncols + c] = table_display(r == 0 ?
			    t->headers[c] : t->cells[(r - 1) * t->ncols + c],
			    &cw[r * t->ncols + c]);
			if (cw[r * t->ncols + c] > w[c])
				w[c] = cw[r * t->ncols + c];
			len += strlen(disp[r * t->ncols + c]);
		}
	/*
	 * Each line is padded as it is built and printed without its
	 * trailing blanks, so that empty cells at its end (a left-aligned
	 * last column, an empty mark) leave none.
	 */
	for (c = 0; c < t->ncols; c++)
		len += w[c] + 2;
	line = xmalloc(len + 1);
	for (r = 0; r <= t->nrows; r++) {
		end = line;
		for (c = 0; c < t->ncols; c++) {
			pad = w[c] - cw[r * t->ncols + c];
			if (t->align[c] == ALIGN_RIGHT) {
				memset(end, ' ', pad);
				end += pad;
			}
			end = stpcpy(end, disp[r * t->ncols + c]);
			if (t->align[c] != ALIGN_RIGHT) {
				memset(end, ' ', pad);
				end += pad;
			}
			if (c != t->ncols - 1)
				end = stpcpy(end, "  ");
		}
		while (end > line && end[-1] == ' ')
			end--;
		*end = '\0';
		fprintf(f, "%s\n", line);
	}
	for (r = 0; r < n; r++)
		free(disp[r]);
	free(disp);
	free(cw);
	free(line);
	free(w);
}

void
table_free(struct table *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ncols; i++) {
		free(t->headers[i]);
		free(t->pending[i]);
	}
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->headers);
	free(t->pending);
	free(t->align);
	free(t->cells);
	free(t);
}

/*
 * A measured value for a person: six significant digits, no exponent from
 * 0.001 to 1e15 (whole numbers above 1e5); beyond, an exponent, as %.0f
 * would not fit a caller's buffer (and was cut short in it).
 */
void
fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e15)
		snprintf(buf, len, "%.6g", v);
	else if (fabs(v) >= 1e5)
		snprintf(buf, len, "%.0f", v);
	else if (v != 0 && fabs(v) < 1e-3)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.6g", v);
}

/*
 * A figure for out: for a person six digits (fmt_value), for a program
 * (CSV) every digit, the fewest that read back as the same double, as
 * --json gives it, so that close values stay apart (0.0001231 and
 * 0.0001234 both read 0.000123 in a table).
 */
void
cli_fmt_figure(char *buf, size_t len, double v, enum cli_output out)
{
	if (out == OUT_CSV && !isnan(v))
		store_format_double(buf, len, v);
	else
		fmt_value(buf, len, v);
}

/* A time for a person: RFC 3339 in UTC. */
void
fmt_time(char *buf, size_t len, long long t)
{
	view_time(buf, len, t);
}
