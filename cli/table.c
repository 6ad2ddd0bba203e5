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

void
table_print(const struct table *t, FILE *f, enum cli_output out)
{
	size_t	*w, r, c, len;
	const char *cell;
	char	*line, *end;

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
	w = xcalloc(t->ncols, sizeof(*w));
	for (c = 0; c < t->ncols; c++)
		w[c] = strlen(t->headers[c]);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			len = strlen(t->cells[r * t->ncols + c]);
			if (len > w[c])
				w[c] = len;
		}
	/*
	 * Each line is padded as it is built and printed without its
	 * trailing blanks, so that empty cells at its end (a left-aligned
	 * last column, an empty mark) leave none.
	 */
	for (c = 0, len = 0; c < t->ncols; c++)
		len += w[c] + 2;
	line = xmalloc(len + 1);
	for (r = 0; r <= t->nrows; r++) {
		end = line;
		for (c = 0; c < t->ncols; c++) {
			cell = r == 0 ? t->headers[c] :
			    t->cells[(r - 1) * t->ncols + c];
			end += sprintf(end, t->align[c] == ALIGN_RIGHT ?
			    "%*s" : "%-*s", (int)w[c], cell);
			if (c != t->ncols - 1)
				end += sprintf(end, "  ");
		}
		while (end > line && end[-1] == ' ')
			end--;
		*end = '\0';
		fprintf(f, "%s\n", line);
	}
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

/* A time for a person: RFC 3339 in UTC. */
void
fmt_time(char *buf, size_t len, long long t)
{
	if (timefmt_format(t, buf, len) == -1)
		snprintf(buf, len, "%lld", t);
}
