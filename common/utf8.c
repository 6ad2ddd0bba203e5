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

/*
 * The emoji and symbols that a terminal shows two columns wide (East
 * Asian Width W, as glibc's wcwidth(3) has them) outside the CJK blocks:
 * a block of emoji also holds narrow symbols (U+1F6C6 to U+1F6CB, U+2605),
 * so they are listed one by one.  Ascending.
 */
static const struct {
	unsigned long	lo, hi;
} cp_wide_symbols[] = {
	{ 0x231a, 0x231b }, { 0x2329, 0x232a }, { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe },
	{ 0x2614, 0x2615 }, { 0x2648, 0x2653 }, { 0x267f, 0x267f },
	{ 0x2693, 0x2693 }, { 0x26a1, 0x26a1 }, { 0x26aa, 0x26ab },
	{ 0x26bd, 0x26be }, { 0x26c4, 0x26c5 }, { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f3 },
	{ 0x26f5, 0x26f5 }, { 0x26fa, 0x26fa }, { 0x26fd, 0x26fd },
	{ 0x2705, 0x2705 }, { 0x270a, 0x270b }, { 0x2728, 0x2728 },
	{ 0x274c, 0x274c }, { 0x274e, 0x274e }, { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 }, { 0x2795, 0x2797 }, { 0x27b0, 0x27b0 },
	{ 0x27bf, 0x27bf }, { 0x2b1b, 0x2b1c }, { 0x2b50, 0x2b50 },
	{ 0x2b55, 0x2b55 }, { 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf },
	{ 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a }, { 0x1f200, 0x1f202 },
	{ 0x1f210, 0x1f23b }, { 0x1f240, 0x1f248 }, { 0x1f250, 0x1f251 },
	{ 0x1f260, 0x1f265 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 },
	{ 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca },
	{ 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 },
	{ 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 }, { 0x1f442, 0x1f4fc },
	{ 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 },
	{ 0x1f57a, 0x1f57a }, { 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 },
	{ 0x1f5fb, 0x1f64f }, { 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc },
	{ 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 }, { 0x1f6dd, 0x1f6df },
	{ 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb },
	{ 0x1f7f0, 0x1f7f0 }, { 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 },
	{ 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1fa74 }, { 0x1fa78, 0x1fa7c },
	{ 0x1fa80, 0x1fa86 }, { 0x1fa90, 0x1faac }, { 0x1fab0, 0x1faba },
	{ 0x1fac0, 0x1fac5 }, { 0x1fad0, 0x1fad9 }, { 0x1fae0, 0x1fae7 },
	{ 0x1faf0, 0x1faf6 },
};

/*
 * The columns a code point takes on a terminal: none for combining marks
 * and zero-width spaces, two for the wide East Asian blocks and emoji, one
 * for the rest (wcwidth(3) would need a UTF-8 locale, which LC_ALL=C
 * scripts do not have).
 */
size_t
utf8_cp_width(unsigned long cp)
{
	size_t	i;

	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
	    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x200b && cp <= 0x200f) ||
	    (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) ||
	    (cp >= 0x3041 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
	    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	for (i = 0; i < nitems(cp_wide_symbols) &&
	    cp >= cp_wide_symbols[i].lo; i++)
		if (cp <= cp_wide_symbols[i].hi)
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
