/*
 * Lines of a stream after bytes already read from it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lines.h"
#include "xmalloc.h"

void
lines_init(struct lines *l, FILE *f, const char *held, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	if (len > 0) {
		l->held = xmalloc(len);
		memcpy(l->held, held, len);
		l->heldlen = len;
	}
}

void
lines_free(struct lines *l)
{
	free(l->held);
	free(l->line);
	free(l->more);
	memset(l, 0, sizeof(*l));
}

/* Make l->line hold at least need bytes. */
static void
lines_reserve(struct lines *l, size_t need)
{
	if (need > l->linecap) {
		l->linecap = need;
		l->line = xreallocarray(l->line, l->linecap, 1);
	}
}

/* After a getline() of -1: keep why, when it was a read that failed. */
static void
lines_failed(struct lines *l)
{
	if (ferror(l->f) && l->error == 0)
		l->error = errno != 0 ? errno : EIO;
}

ssize_t
lines_next(struct lines *l)
{
	const char	*start, *nl;
	size_t		 len;
	ssize_t		 n;

	if (l->heldoff == l->heldlen) {
		if ((n = getline(&l->line, &l->linecap, l->f)) == -1)
			lines_failed(l);
		return n;
	}
	start = l->held + l->heldoff;
	len = l->heldlen - l->heldoff;
	if ((nl = memchr(start, '\n', len)) != NULL) {
		len = (size_t)(nl - start) + 1;
		lines_reserve(l, len + 1);
		memcpy(l->line, start, len);
		l->line[len] = '\0';
		l->heldoff += len;
		return (ssize_t)len;
	}
	/* The held bytes end inside a line: the stream has the rest. */
	l->heldoff = l->heldlen;
	if ((n = getline(&l->more, &l->morecap, l->f)) < 0) {
		lines_failed(l);
		n = 0;
	}
	lines_reserve(l, len + (size_t)n + 1);
	memcpy(l->line, start, len);
	if (n > 0)
		memcpy(l->line + len, l->more, (size_t)n);
	l->line[len + (size_t)n] = '\0';
	return (ssize_t)(len + (size_t)n);
}
