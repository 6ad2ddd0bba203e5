/*
 * Mail headers and bodies that names and values from the store cannot
 * break out of.
 *
 * Every string that comes from the store (a host, a metric, a run label)
 * goes through notify_clean first: a control character, C0 or C1,
 * becomes a space and a byte that is not valid UTF-8 becomes '?'.  A
 * header is then written as it is only when it is short printable ASCII;
 * anything else becomes RFC 2047 encoded words ("=?UTF-8?B?...?="), each
 * on a folded line of its own, so no value can ever end a header line or
 * start a new one.  The body is quoted-printable, which keeps every line
 * short and 7-bit whatever the text holds.
 *
 * Everything here ends lines with "\n"; notify_crlf turns a whole message
 * into the CRLF form that SMTP wants.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "notify.h"

/* Longest header line we write, and the bytes of text per encoded word. */
#define MIME_LINE		78
/* The longest line that holds an encoded word (RFC 2047, section 2). */
#define MIME_ENCODED_LINE	76
/* The longest line RFC 5322 allows at all. */
#define MIME_LINE_MAX		998
#define MIME_WORD_BYTES		36
/* A quoted-printable line, before its soft break '='. */
#define MIME_QP_LINE		75

/*
 * The length of the valid UTF-8 sequence at s (at most n bytes) and its
 * code point, or 0 when s does not start one: overlong forms, surrogates
 * and code points past U+10FFFF are not valid.
 */
static size_t
mime_utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const unsigned char	lead[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	size_t				len, i;

	if ((len = utf8_seq_len(s, n)) == 0)
		return 0;
	*cp = s[0] & lead[len];	/* the lead byte's payload bits */
	for (i = 1; i < len; i++)
		*cp = (*cp << 6) | (s[i] & 0x3f);
	return len;
}

/*
 * A copy of s that is valid UTF-8 without control characters: C0, DEL
 * and C1 controls and the Unicode line and paragraph separators become a
 * space, an invalid byte '?'.  With max > 0, a longer result is cut at a
 * character boundary and ends in "...".  NULL gives "".
 */
char *
notify_clean(const char *s, size_t max)
{
	const unsigned char	*p = (const unsigned char *)s;
	char			*out;
	size_t			 n, i = 0, o = 0, len;
	uint32_t		 cp;

	if (s == NULL)
		return xstrdup("");
	n = strlen(s);
	out = xmalloc(n + 4);
	while (i < n) {
		len = mime_utf8_len(p + i, n - i, &cp);
		if (max > 0 && o + (len == 0 ? 1 : len) > max) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (len == 0) {
			out[o++] = '?';
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
		    cp == 0x2028 || cp == 0x2029)
			out[o++] = ' ';
		else {
			memcpy(out + o, p + i, len);
			o += len;
		}
		i += len;
	}
	out[o] = '\0';
	return out;
}

/*
 * 1 if s is printable ASCII that a decoder cannot take for an encoded
 * word, with no word longer than word_max: plain text is folded only at
 * blanks, so a longer word (a metric name of a thousand characters) would
 * make a line past the 998 bytes RFC 5322 allows, where encoded words can
 * be cut anywhere.  A word merely past MIME_LINE stays plain: a
 * Message-ID must never be an encoded word.
 */
static int
mime_plain(const char *s, size_t word_max)
{
	const unsigned char	*p;
	size_t			 word = 0;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p < 0x20 || *p > 0x7e)
			return 0;
		word = *p == ' ' ? 0 : word + 1;
		if (word > word_max)
			return 0;
	}
	return strstr(s, "=?") == NULL;
}

/*
 * Append the RFC 2047 "B" encoded words of s (clean UTF-8) to f, the
 * first at column col, one a folded line after the first; each holds
 * whole characters and is at most 60 characters long.  Returns the
 * column after the last.
 */
static size_t
mime_encoded_words(FILE *f, const char *s, size_t col)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned char		 b64[4 * ((MIME_WORD_BYTES + 2) / 3) + 1];
	size_t			 n = strlen(s), i = 0, take, len;
	uint32_t		 cp;

	while (i < n) {
		/* Whole characters only, so each word decodes alone. */
		take = 0;
		while (i + take < n) {
			len = mime_utf8_len(p + i + take, n - i - take, &cp);
			if (len == 0)
				len = 1;	/* cannot happen after cleaning */
			if (take + len > MIME_WORD_BYTES)
				break;
			take += len;
		}
		EVP_EncodeBlock(b64, p + i, (int)take);
		if (i > 0) {
			fputs("\n ", f);
			col = 1;
		}
		fprintf(f, "=?UTF-8?B?%s?=", b64);
		/* The word's b64 text within "=?UTF-8?B?" and "?=". */
		col += 12 + strlen((char *)b64);
		i += take;
	}
	return col;
}

/*
 * The header "name: value" with its newline, safe whatever value holds:
 * value is cleaned, runs of blanks become one, and unless the result is
 * short printable ASCII it is written as encoded words on folded lines.
 */
char *
notify_header(const char *name, const char *value)
{
	char	*clean, *v, *out, *tok, *save = NULL;
	size_t	 col, o, i, outlen;
	FILE	*f;

	clean = notify_clean(value, 0);
	/* One blank between words, none at either end. */
	v = xmalloc(strlen(clean) + 1);
	for (i = 0, o = 0; clean[i] != '\0'; i++) {
		if (clean[i] == ' ' || clean[i] == '\t') {
			if (o > 0 && v[o - 1] != ' ')
				v[o++] = ' ';
		} else
			v[o++] = clean[i];
	}
	while (o > 0 && v[o - 1] == ' ')
		o--;
	v[o] = '\0';
	free(clean);

	if ((f = open_memstream(&out, &outlen)) == NULL)
		fatal("open_memstream");
	fprintf(f, "%s:", name);
	col = strlen(name) + 1;
	if (mime_plain(v, MIME_LINE_MAX - col - 1)) {
		/* Fold at blanks; a word longer than a line stays whole. */
		for (tok = strtok_r(v, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			if (col + 1 + strlen(tok) > MIME_LINE &&
			    col > strlen(name) + 1) {
				fputs("\n", f);
				col = 0;
			}
			fprintf(f, " %s", tok);
			col += 1 + strlen(tok);
		}
	} else {
		fputc(' ', f);
		mime_encoded_words(f, v, col + 1);
	}
	fputc('\n', f);
	fclose(f);
	free(v);
	return out;
}

/*
 * The address inside an address as the configuration writes it:
 * "a@example.org" for "Ops <a@example.org>" or "a@example.org".
 */
char *
notify_addr_spec(const char *address)
{
	const char	*lt, *gt;
	char		*tmp, *out, *r, *w;

	if ((lt = strrchr(address, '<')) != NULL &&
	    (gt = strchr(lt, '>')) != NULL)
		tmp = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	else
		tmp = xstrdup(address);
	out = notify_clean(tmp, 0);
	free(tmp);
	/* An address has no blanks; drop what cleaning turned into some. */
	for (r = w = out;; r++) {
		if (*r != ' ')
			*w++ = *r;
		if (*r == '\0')
			break;
	}
	return out;
}

/*
 * The display name as written, without the quotes of a quoted string
 * ("\"Ops Team\"" is Ops Team, a backslash escaping the next character),
 * so that it is not quoted, or encoded, a second time.
 */
static char *
mime_unquote(const char *name, size_t len)
{
	char	*out, *w;
	size_t	 i;

	if (len < 2 || name[0] != '"' || name[len - 1] != '"')
		return xstrndup(name, len);
	out = w = xmalloc(len);
	for (i = 1; i < len - 1; i++) {
		if (name[i] == '\\' && i + 1 < len - 1)
			i++;
		*w++ = name[i];
	}
	*w = '\0';
	return out;
}

/*
 * Write one address with its display name, quoted or encoded, starting
 * at column col.
 */
static void
mime_address(FILE *f, const char *address, size_t col)
{
	const char	*lt;
	char		*spec, *name, *p;
	size_t		 len;

	spec = notify_addr_spec(address);
	lt = strrchr(address, '<');
	if (lt == NULL || lt == address) {
		fputs(spec, f);
		free(spec);
		return;
	}
	len = (size_t)(lt - address);
	while (len > 0 && (address[len - 1] == ' ' ||
	    address[len - 1] == '\t'))
		len--;
	p = mime_unquote(address, len);
	name = notify_clean(p, 200);
	free(p);
	if (*name == '\0')
		fputs(spec, f);
	else if (mime_plain(name, SIZE_MAX)) {
		fputc('"', f);
		for (p = name; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
		fprintf(f, "\" <%s>", spec);
	} else {
		/*
		 * A line with an encoded word is at most 76 characters: the
		 * address (and the comma after it) goes on a line of its
		 * own when it would make the last word's line longer.
		 */
		col = mime_encoded_words(f, name, col);
		fprintf(f, "%s<%s>", col + strlen(spec) + 4 >
		    MIME_ENCODED_LINE ? "\n " : " ", spec);
	}
	free(name);
	free(spec);
}

/* An address header (From, To): one address a line after the first. */
char *
notify_address_header(const char *name, char *const *addresses)
{
	char	*out;
	size_t	 outlen, i;
	FILE	*f;

	if ((f = open_memstream(&out, &outlen)) == NULL)
		fatal("open_memstream");
	fprintf(f, "%s: ", name);
	for (i = 0; addresses[i] != NULL; i++) {
		if (i > 0)
			fputs(",\n ", f);
		mime_address(f, addresses[i], i > 0 ? 1 : strlen(name) + 2);
	}
	fputc('\n', f);
	fclose(f);
	return out;
}

/*
 * text (lines ending in "\n") as quoted-printable (RFC 2045): lines of at
 * most 76 characters, '=' and every byte outside printable ASCII encoded,
 * a blank at the end of a line encoded, and a '.' or "From " at the start
 * of a line encoded so that no transport mangles it.
 */
char *
notify_qp_encode(const char *text)
{
	const unsigned char	*p = (const unsigned char *)text;
	char			*out, tok[4];
	size_t			 outlen, col = 0, tlen;
	FILE			*f;
	int			 c, encode;

	if ((f = open_memstream(&out, &outlen)) == NULL)
		fatal("open_memstream");
	for (; *p != '\0'; p++) {
		c = *p;
		if (c == '\n') {
			fputc('\n', f);
			col = 0;
			continue;
		}
		encode = c == '=' || (c < 0x20 && c != '\t') || c > 0x7e;
		if ((c == ' ' || c == '\t') && (p[1] == '\n' || p[1] == '\0'))
			encode = 1;
		tlen = encode ? 3 : 1;
		if (col + tlen > MIME_QP_LINE) {
			fputs("=\n", f);
			col = 0;
		}
		if (col == 0 && (c == '.' || strncmp((const char *)p, "From ",
		    5) == 0))
			encode = 1;
		if (encode) {
			snprintf(tok, sizeof(tok), "=%02X", (unsigned int)c);
			fputs(tok, f);
			col += 3;
		} else {
			fputc(c, f);
			col++;
		}
	}
	fclose(f);
	return out;
}

/* t as an RFC 5322 date in UTC: "Mon, 30 Nov 2026 10:16:23 +0000". */
char *
notify_rfc5322_date(int64_t t)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed",
	    "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm	 tm;
	time_t		 tt = (time_t)t;
	char		*out;

	if (gmtime_r(&tt, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	xasprintf(&out, "%s, %02d %s %04d %02d:%02d:%02d +0000",
	    days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return out;
}

/* text with every line ending in CRLF; a stray CR is dropped. */
char *
notify_crlf(const char *text)
{
	const char	*p;
	char		*out;
	size_t		 n = 0;

	for (p = text; *p != '\0'; p++)
		if (*p == '\n')
			n++;
	out = xmalloc(strlen(text) + n + 1);
	for (p = text, n = 0; *p != '\0'; p++) {
		if (*p == '\r')
			continue;
		if (*p == '\n')
			out[n++] = '\r';
		out[n++] = *p;
	}
	out[n] = '\0';
	return out;
}
