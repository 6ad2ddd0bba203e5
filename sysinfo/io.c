/*
 * Small helpers the sysinfo files share: a growing string and reading the
 * small files of /proc, /sys and /etc under an optional root prefix (tests
 * point it at a fixture tree).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

/* Make room for n more bytes and the NUL after them. */
static void
buf_grow(struct sysinfo_buf *b, size_t n)
{
	size_t	want;

	if (b->len + n + 1 <= b->alloc)
		return;
	want = b->alloc == 0 ? 256 : b->alloc;
	while (want < b->len + n + 1)
		want *= 2;
	b->data = xreallocarray(b->data, want, 1);
	b->alloc = want;
}

/* Append len bytes. */
void
sysinfo_buf_add(struct sysinfo_buf *b, const char *s, size_t len)
{
	buf_grow(b, len);
	memcpy(b->data + b->len, s, len);
	b->len += len;
	b->data[b->len] = '\0';
}

/* Append a string. */
void
sysinfo_buf_adds(struct sysinfo_buf *b, const char *s)
{
	sysinfo_buf_add(b, s, strlen(s));
}

/* Append a formatted string. */
void
sysinfo_buf_addf(struct sysinfo_buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatalx("%s: bad format", __func__);
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/*
 * Append s and the blanks that fill it to width columns as a terminal
 * shows them (utf8_width), then sep: a column of a readable listing,
 * where "café" is five bytes but four columns.
 */
void
sysinfo_buf_addcol(struct sysinfo_buf *b, const char *s, size_t width,
    const char *sep)
{
	size_t	w = utf8_width(s);

	sysinfo_buf_adds(b, s);
	for (; w < width; w++)
		sysinfo_buf_add(b, " ", 1);
	sysinfo_buf_adds(b, sep);
}

/* Hand the string over to the caller (never NULL) and reset the buffer. */
char *
sysinfo_buf_finish(struct sysinfo_buf *b)
{
	char	*s;

	if (b->data == NULL)
		s = xstrdup("");
	else
		s = b->data;
	b->data = NULL;
	b->len = b->alloc = 0;
	return s;
}

/* Join root (NULL or "/" for none) and an absolute path. */
char *
sysinfo_path(const char *root, const char *path)
{
	size_t	n;
	char	*s;

	if (root == NULL || root[0] == '\0' || strcmp(root, "/") == 0)
		return xstrdup(path);
	n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	xasprintf(&s, "%.*s%s", (int)n, root, path);
	return s;
}

/*
 * Read a whole file into a NUL-terminated buffer; fail with EFBIG past max
 * bytes.  Files of /proc and /sys report size 0, so read until EOF.
 */
int
sysinfo_read_file(const char *path, size_t max, char **out, size_t *len)
{
	struct stat	 st;
	char		*buf;
	size_t		 alloc, n = 0;
	ssize_t		 r;
	int		 fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	alloc = 4096;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (uintmax_t)st.st_size < max)
		alloc = (size_t)st.st_size + 1;
	buf = xmalloc(alloc);
	for (;;) {
		if (n + 1 >= alloc) {
			if (alloc > max) {
				free(buf);
				close(fd);
				errno = EFBIG;
				return -1;
			}
			alloc *= 2;
			buf = xreallocarray(buf, alloc, 1);
		}
		r = read(fd, buf + n, alloc - n - 1);
		if (r == -1) {
			if (errno == EINTR)
				continue;
			saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			close(fd);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len != NULL)
		*len = n;
	return 0;
}

/* Strip leading and trailing white space in place. */
char *
sysinfo_trim(char *s)
{
	size_t	n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/*
 * Read a small file under root and return its trimmed content, or NULL if
 * it cannot be read (most files of /sys are optional).
 */
char *
sysinfo_read_value(const char *root, const char *path)
{
	char	*full, *buf, *v;

	full = sysinfo_path(root, path);
	if (sysinfo_read_file(full, 64 * 1024, &buf, NULL) == -1) {
		free(full);
		return NULL;
	}
	free(full);
	v = xstrdup(sysinfo_trim(buf));
	free(buf);
	return v;
}
