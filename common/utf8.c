/*
 * UTF-8 checking (RFC 3629), and the columns text takes on a terminal.
 */
#include <string.h>

#include "perfwatch.h"
#include "utf8.h"

size_t
utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t		 len, i;
	unsigned char	 lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* no overlong forms */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* nothing past U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

int
utf8_check(const char *s, size_t *bad)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), i, k;

	for (i = 0; i < n; i += k) {
		if ((k = utf8_seq_len(p + i, n - i)) == 0) {
			if (bad != NULL)
				*bad = i;
			return -1;
		}
	}
	return 0;
}

unsigned long
utf8_decode(const unsigned char *s, size_t len)
{
	unsigned long	cp;
	size_t		i;

	if (len == 1)
		return s[0];
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

struct utf8_range {
	unsigned long	lo, hi;
};

#include "utf8_width.inc"

static int
utf8_in(const struct utf8_range *r, size_t n, unsigned long cp)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cp < r[mid].lo)
			hi = mid;
		else if (cp > r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

/*
 * The columns a code point takes on a terminal, as glibc's wcwidth(3) has
 * them in a UTF-8 locale (utf8_width.inc; wcwidth() itself would need such
 * a locale, which LC_ALL=C scripts do not have): none for combining marks
 * and format characters, two for the East Asian wide and full-width ones
 * and the emoji, one for the rest.  A code point not yet assigned counts
 * one, but in the planes kept for ideographs, where it counts two.
 */
size_t
utf8_cp_width(unsigned long cp)
{
	if (cp < 0x300)
		return 1;
	if (utf8_in(utf8_zero_width, nitems(utf8_zero_width), cp))
		return 0;
	if (utf8_in(utf8_double_width, nitems(utf8_double_width), cp) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

size_t
utf8_width(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), i, k, w = 0;

	for (i = 0; i < n; i += k) {
		if ((k = utf8_seq_len(p + i, n - i)) == 0) {
			k = 1;
			w++;
			continue;
		}
		w += utf8_cp_width(utf8_decode(p + i, k));
	}
	return w;
}
