/*
 * UTF-8 checking.  Everything a person writes into the store (labels,
 * imported names, units) must be valid UTF-8, because JSON output and
 * JSON Lines exports cannot carry anything else.
 *
 * Display widths: the columns text takes on a terminal, so that a table
 * or a listing lines up "café" (five bytes) and "日本" (six) by what is
 * seen, not by bytes.
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
/* The code point of the valid UTF-8 sequence at s of len bytes. */
unsigned long	utf8_decode(const unsigned char *s, size_t len);
/* The columns code point cp takes on a terminal: 0, 1 or 2. */
size_t	utf8_cp_width(unsigned long cp);
/*
 * The columns s takes on a terminal, for text without control characters
 * (which have no width a terminal agrees on); a byte outside valid UTF-8
 * counts one, as the replacement character a terminal shows for it.
 */
size_t	utf8_width(const char *s);

#endif
