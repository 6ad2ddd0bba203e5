/*
 * CSV reading and writing.
 *
 * csv_read() returns one record: 1 with r->fields/r->nfields set, 0 at the
 * end of the input, -1 with *cause set on a malformed record (a quote that
 * never closes, text after a closing quote, a NUL byte).  r->row is the
 * line on which the record started, so errors can say row:column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "xmalloc.h"

void
csv_reader_init(struct csv_reader *r, FILE *f, const char *held, size_t len)
{
	memset(r, 0, sizeof(*r));
	lines_init(&r->in, f, held, len);
	r->nextrow = 1;
}

void
csv_reader_free(struct csv_reader *r)
{
	lines_free(&r->in);
	free(r->buf);
	free(r->offs);
	free(r->fields);
	memset(r, 0, sizeof(*r));
}

/* Make room for need more bytes in r->buf beyond used. */
static void
csv_buf_reserve(struct csv_reader *r, size_t used, size_t need)
{
	while (used + need > r->bufcap) {
		r->bufcap = r->bufcap ? r->bufcap * 2 : 256;
		r->buf = xreallocarray(r->buf, r->bufcap, 1);
	}
}

/* Start a new field at offset off. */
static void
csv_field_start(struct csv_reader *r, size_t off)
{
	if (r->nfields == r->fieldcap) {
		r->fieldcap = r->fieldcap ? r->fieldcap * 2 : 16;
		r->offs = xreallocarray(r->offs, r->fieldcap,
		    sizeof(*r->offs));
		r->fields = xreallocarray(r->fields, r->fieldcap,
		    sizeof(*r->fields));
	}
	r->offs[r->nfields++] = off;
}

int
csv_read(struct csv_reader *r, char **cause)
{
	ssize_t	 len;
	size_t	 used = 0, i;
	int	 inquote = 0, quoted = 0, startrow;
	char	*p, *end;

	r->nfields = 0;
	for (;;) {
		len = lines_next(&r->in);
		if (len == -1)
			return 0;
		/*
		 * Blank lines between records are skipped, and a lone CR at
		 * the end: a CRLF file whose last line was blank, its LF
		 * dropped (as $(...) drops it).
		 */
		if (strcmp(r->in.line, "\n") != 0 &&
		    strcmp(r->in.line, "\r\n") != 0 &&
		    strcmp(r->in.line, "\r") != 0)
			break;
		r->nextrow++;
	}

	startrow = (int)r->nextrow;
	r->row = r->nextrow;
	csv_buf_reserve(r, 0, (size_t)len + 1);
	csv_field_start(r, 0);
	for (;;) {
		p = r->in.line;
		end = r->in.line + len;
		r->nextrow++;
		csv_buf_reserve(r, used, (size_t)len + 1);
		while (p < end) {
			char c = *p++;

			/* The fields are C strings: a NUL would cut one. */
			if (c == '\0') {
				xasprintf(cause, "%d:%zu: a NUL byte in a field",
				    startrow, r->nfields);
				return -1;
			}
			if (inquote) {
				if (c == '"') {
					if (p < end && *p == '"') {
						r->buf[used++] = '"';
						p++;
					} else
						inquote = 0;
				} else
					r->buf[used++] = c;
				continue;
			}
			if (c == ',') {
				r->buf[used++] = '\0';
				csv_field_start(r, used);
				quoted = 0;
			} else if (c == '"' && !quoted &&
			    used == r->offs[r->nfields - 1]) {
				inquote = 1;
				quoted = 1;
			} else if (c == '\n' ||
			    (c == '\r' && (p == end || *p == '\n'))) {
				/*
				 * A CR ends a line before its LF, or as the
				 * file's last byte: a CRLF file that lost its
				 * last LF (as $(...) drops it).
				 */
				break;
			} else if (quoted) {
				xasprintf(cause, "%d:%zu: text after a closing "
				    "quote", startrow, r->nfields);
				return -1;
			} else
				r->buf[used++] = c;
		}
		if (!inquote)
			break;
		/* A newline inside quotes: the record goes on. */
		len = lines_next(&r->in);
		if (len == -1) {
			xasprintf(cause, "%d:%zu: quoted field never closes",
			    startrow, r->nfields);
			return -1;
		}
	}
	csv_buf_reserve(r, used, 1);
	r->buf[used] = '\0';
	for (i = 0; i < r->nfields; i++)
		r->fields[i] = r->buf + r->offs[i];
	return 1;
}

/* Write one field, quoted only when it has to be. */
void
csv_write_field(FILE *f, const char *s)
{
	const char	*p;

	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}
