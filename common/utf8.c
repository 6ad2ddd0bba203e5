/*
 * UTF-8 checking (RFC 3629).
 */
#include <string.h>

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
