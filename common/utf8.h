/*
 * UTF-8 checking.  Everything a person writes into the store (labels,
 * imported names, units) must be valid UTF-8, because JSON output and
 * JSON Lines exports cannot carry anything else.
 */
#ifndef PERFWATCH_UTF8_H
#define PERFWATCH_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at s (n bytes left, n > 0), or 0 when
 * it is not one: no overlong forms, no surrogates, nothing past U+10FFFF.
 */
size_t	utf8_seq_len(const unsigned char *s, size_t n);
/* 0 when s is valid UTF-8; else -1 and *bad = offset of the first bad byte. */
int	utf8_check(const char *s, size_t *bad);

#endif
