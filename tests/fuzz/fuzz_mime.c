/*
 * libFuzzer target: mail headers and bodies (notify/mime.c), whatever the
 * store hands them.
 *
 * A header is 7-bit, ends in one newline, keeps its lines within RFC
 * 5322's 998 bytes (78 when encoded), and every line after the first is
 * a folded continuation, so no value can end the header or start one of
 * its own.  Unfolded and decoded, it gives back the value as cleaned
 * (notify_clean) with its blanks collapsed.  An address header, whatever
 * its display name, is 7-bit and folded the same way.  A quoted-printable
 * body has lines of at most 76 characters, none ending in a blank or
 * starting with '.' or "From ", and decodes back to the text.
 * notify_crlf leaves no bare CR or LF.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "notify/notify.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define WORD_PREFIX	"=?UTF-8?B?"

/* The value of base64 digit c, or -1. */
static int
b64_digit(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Decode the base64 s[0..n) onto out (room for 3n/4 bytes); return the
 * bytes written.  Anything malformed aborts: the encoder wrote it.
 */
static size_t
b64_decode(const char *s, size_t n, unsigned char *out)
{
	size_t		i, o = 0, pad = 0;
	uint32_t	acc;
	int		j, d;

	if (n % 4 != 0)
		abort();
	for (i = 0; i < n; i += 4) {
		acc = 0;
		for (j = 0; j < 4; j++) {
			if (s[i + j] == '=' && i + 4 == n && j >= 2) {
				pad++;
				d = 0;
			} else if (pad > 0 || (d = b64_digit(s[i + j])) < 0)
				abort();
			acc = (acc << 6) | (uint32_t)d;
		}
		out[o++] = (unsigned char)(acc >> 16);
		if (pad < 2)
			out[o++] = (unsigned char)(acc >> 8);
		if (pad < 1)
			out[o++] = (unsigned char)acc;
	}
	return o;
}

/*
 * What notify_header must say for value: the words of the cleaned value
 * (split at blanks and tabs), joined by one blank.
 */
static char *
expected_value(const char *value)
{
	char	*clean, *v, *word, *save = NULL;
	size_t	 o = 0, len;

	clean = notify_clean(value, 0);
	v = xmalloc(strlen(clean) + 1);
	for (word = strtok_r(clean, " \t", &save); word != NULL;
	    word = strtok_r(NULL, " \t", &save)) {
		if (o > 0)
			v[o++] = ' ';
		len = strlen(word);
		memcpy(v + o, word, len);
		o += len;
	}
	v[o] = '\0';
	free(clean);
	return v;
}

/*
 * Check that h is a header of 7-bit lines ending in "\n", each after the
 * first a continuation (starting with a blank), none longer than max;
 * return it unfolded (the newlines taken out), or abort.
 */
static char *
unfold(const char *h, size_t max)
{
	char	*u;
	size_t	 i, o = 0, col = 0, n = strlen(h);

	if (n == 0 || h[n - 1] != '\n')
		abort();
	u = xmalloc(n + 1);
	for (i = 0; i < n; i++) {
		if (h[i] == '\n') {
			if (col == 0 || (i + 1 < n && h[i + 1] != ' '))
				abort();
			col = 0;
			continue;
		}
		if ((unsigned char)h[i] < 0x20 || (unsigned char)h[i] > 0x7e)
			abort();
		if (++col > max)
			abort();
		u[o++] = h[i];
	}
	u[o] = '\0';
	return u;
}

static void
check_header(const char *value)
{
	static const char	 name[] = "Subject";
	char			*h, *u, *want, *got, *p, *end;
	size_t			 o = 0, len, bad;

	h = notify_header(name, value);
	want = expected_value(value);
	if (strncmp(h, name, strlen(name)) != 0 || h[strlen(name)] != ':')
		abort();
	p = strstr(h, WORD_PREFIX);
	u = unfold(h, p != NULL ? 78 : 998);
	p = u + strlen(name) + 1;
	if (*want == '\0') {
		if (*p != '\0')
			abort();
	} else if (*p++ != ' ')
		abort();
	if (strncmp(p, WORD_PREFIX, strlen(WORD_PREFIX)) != 0) {
		/* Plain: exactly the value. */
		if (strcmp(p, want) != 0)
			abort();
	} else {
		/*
		 * Encoded words, each of whole characters and at most 75
		 * characters long, separated by single blanks (which a
		 * decoder drops between encoded words).
		 */
		got = xmalloc(strlen(p) + 1);
		while (*p != '\0') {
			if (strncmp(p, WORD_PREFIX, strlen(WORD_PREFIX)) != 0)
				abort();
			if ((end = strstr(p + strlen(WORD_PREFIX), "?=")) ==
			    NULL || end + 2 - p > 75)
				abort();
			len = b64_decode(p + strlen(WORD_PREFIX),
			    (size_t)(end - p) - strlen(WORD_PREFIX),
			    (unsigned char *)got + o);
			got[o + len] = '\0';
			if (utf8_check(got + o, &bad) != 0)
				abort();
			o += len;
			p = end + 2;
			if (*p == ' ')
				p++;
			else if (*p != '\0')
				abort();
		}
		got[o] = '\0';
		if (o != strlen(want) || memcmp(got, want, o) != 0)
			abort();
		free(got);
	}
	free(u);
	free(want);
	free(h);
}

/*
 * value as the display name of an address the configuration accepted
 * (config.c checks the address itself: ASCII, no blanks).
 */
static void
check_address(const char *value)
{
	const char	*tail;
	char		*addrs[3], *h, *u;

	xasprintf(&addrs[0], "%s <ops@example.org>", value);
	addrs[1] = (char *)"perfwatch@example.org";
	addrs[2] = NULL;
	h = notify_address_header("To", addrs);
	u = unfold(h, 998);
	/* With no name left after cleaning, the address alone. */
	tail = "ops@example.org>, perfwatch@example.org";
	if (strlen(u) < strlen(tail) || strcmp(u + strlen(u) - strlen(tail),
	    tail) != 0) {
		if (strcmp(u, "To: ops@example.org, perfwatch@example.org") !=
		    0)
			abort();
	}
	free(u);
	free(h);
	free(addrs[0]);
}

/* The hex digit c's value, or abort. */
static int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	abort();
}

static void
check_qp(const char *text)
{
	char	*q, *back;
	size_t	 i, o = 0, col = 0, n;

	q = notify_qp_encode(text);
	n = strlen(q);
	back = xmalloc(n + 1);
	for (i = 0; i < n; i++) {
		if (col == 0 && (q[i] == '.' || strncmp(q + i, "From ", 5) ==
		    0))
			abort();
		if (q[i] == '\n') {
			if (col > 0 && (q[i - 1] == ' ' || q[i - 1] == '\t'))
				abort();
			back[o++] = '\n';
			col = 0;
			continue;
		}
		if (((unsigned char)q[i] < 0x20 && q[i] != '\t') ||
		    (unsigned char)q[i] > 0x7e)
			abort();
		if (q[i] == '=' && q[i + 1] == '\n') {
			/* A soft break: the line goes on. */
			if (col + 1 > 76)
				abort();
			i++;
			col = 0;
			continue;
		}
		if (q[i] == '=') {
			if (i + 2 >= n)
				abort();
			back[o++] = (char)(hex_digit(q[i + 1]) * 16 +
			    hex_digit(q[i + 2]));
			i += 2;
			col += 3;
		} else {
			back[o++] = q[i];
			col++;
		}
		if (col > 76)
			abort();
	}
	if (col > 0 && (q[n - 1] == ' ' || q[n - 1] == '\t'))
		abort();
	back[o] = '\0';
	if (strcmp(back, text) != 0)
		abort();
	free(back);
	free(q);
}

static void
check_crlf(const char *text)
{
	char	*c;
	size_t	 i;

	c = notify_crlf(text);
	for (i = 0; c[i] != '\0'; i++) {
		if (c[i] == '\r' && c[i + 1] != '\n')
			abort();
		if (c[i] == '\n' && (i == 0 || c[i - 1] != '\r'))
			abort();
	}
	free(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	log_init("fuzz", 1, 0);
	if (size > 4096)
		return 0;
	/* The store's strings are C strings: up to the first NUL. */
	s = xstrndup((const char *)data, size);
	check_header(s);
	check_address(s);
	check_qp(s);
	check_crlf(s);
	free(s);
	return 0;
}
