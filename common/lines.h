/*
 * Lines of a stream, like getline(3), where the first bytes were already
 * read from it (to skip a byte order mark or to guess its format) and are
 * served again before the rest of the stream.  Held bytes need not end
 * in a newline: a cut line goes on with what the stream reads next.
 */
#ifndef PERFWATCH_LINES_H
#define PERFWATCH_LINES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct lines {
	FILE	*f;
	char	*held;		/* bytes read already, served first */
	size_t	 heldlen;
	size_t	 heldoff;
	char	*line;		/* the last line read, NUL-terminated */
	size_t	 linecap;
	char	*more;		/* getline() buffer for a cut held line */
	size_t	 morecap;
	int	 error;	/* errno of the read that failed, 0 if none */
};

/* Start reading f after the len bytes at held (copied; may be NULL). */
void	lines_init(struct lines *, FILE *, const char *held, size_t len);
void	lines_free(struct lines *);
/*
 * Read one line into l->line with its newline; its length, or -1 at EOF
 * or on a read error (then l->error is set: an end of file and a read
 * that failed are told apart there, not by errno, which later calls may
 * change).
 */
ssize_t	lines_next(struct lines *);

#endif
