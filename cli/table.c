/*
 * Tables for people (aligned columns) and for programs (CSV).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csv.h"
#include "json.h"
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
		*width += utf8_cp_width(cp);
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
 * Print s right-aligned in width terminal columns (by what it takes on a
 * terminal, not its bytes: an imported unit "µs" or "KB/秒" put the
 * columns after it out of line).
 */
void
cli_fpad(FILE *f, const char *s, size_t width)
{
	size_t	w = utf8_width(s);

	for (; w < width; w++)
		fputc(' ', f);
	fputs(s, f);
}

/*
 * A measured value for a person: six significant digits, no exponent from
 * 0.0001 to 1e15 (whole numbers above 1e5); beyond, an exponent, as %.0f
 * would not fit a caller's buffer (and was cut short in it).  A figure
 * past a double's range (the spread of 1.7e308 and -1.7e308) is "-", as
 * --json's null, not "inf".  Below 0.001 too: three digits there made
 * 0.0001231 and 0.0001234 alike, where the manual says six.
 */
void
fmt_value(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e15)
		snprintf(buf, len, "%.6g", v);
	else if (fabs(v) >= 1e5)
		snprintf(buf, len, "%.0f", v);
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
	if (out == OUT_CSV && isfinite(v))
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

/*
 * Print v as every command prints its --json document: pretty (a member
 * a line, two-space indent), members in the order they were set, each
 * real in the fewest digits that read back as it (json.h), and a line
 * feed.  A write error shows when main() checks stdout at the end.
 */
void
cli_json_print(const json_t *v)
{
	/* Its errno, before the store's close sets another (main.c). */
	if (pwjson_print(stdout, v, PWJSON_PRETTY) == -1 && cli_out_errno == 0)
		cli_out_errno = errno;
}
