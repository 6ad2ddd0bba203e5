/*
 * A CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF, newlines
 * inside quotes) that knows the row of every record, and a writer.
 */
#ifndef PERFWATCH_CSV_H
#define PERFWATCH_CSV_H

#include <stddef.h>
#include <stdio.h>

struct csv_reader {
	FILE	 *f;
	char	 *line;		/* getline() buffer */
	size_t	  linecap;
	char	 *buf;		/* unquoted fields, NUL-separated */
	size_t	  bufcap;
	size_t	 *offs;		/* field start offsets into buf */
	char	**fields;
	size_t	  nfields;
	size_t	  fieldcap;
	size_t	  row;		/* 1-based row of the last record read */
	size_t	  nextrow;	/* physical line the next record starts on */
};

void	csv_reader_init(struct csv_reader *, FILE *);
void	csv_reader_free(struct csv_reader *);
int	csv_read(struct csv_reader *, char **cause);
void	csv_write_field(FILE *, const char *);

#endif
