/*
 * A CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF, newlines
 * inside quotes) that knows the row of every record, and a writer.
 */
#ifndef PERFWATCH_CSV_H
#define PERFWATCH_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "lines.h"

struct csv_reader {
	struct lines in;
	char	 *buf;		/* unquoted fields, NUL-separated */
	size_t	  bufcap;
	size_t	 *offs;		/* field start offsets into buf */
	char	**fields;
	size_t	  nfields;
	size_t	  fieldcap;
	size_t	  row;		/* 1-based row of the last record read */
	size_t	  nextrow;	/* physical line the next record starts on */
};

/* Read f after the len bytes at held, already read from it (see lines.h). */
void	csv_reader_init(struct csv_reader *, FILE *, const char *held,
	    size_t len);
void	csv_reader_free(struct csv_reader *);
int	csv_read(struct csv_reader *, char **cause);
void	csv_write_field(FILE *, const char *);

#endif
