/*
 * Writes common/utf8_width.inc: the code points a terminal shows no
 * columns wide (combining marks, format characters, Hangul's medial and
 * final jamo) and two columns wide, as ranges, from the C library's
 * wcwidth(3) in a UTF-8 locale.  perfwatch's own tables cannot call
 * wcwidth(), because the CLI and its scripts run under LC_ALL=C.
 *
 *	cc -o /tmp/widths scripts/widths.c && /tmp/widths >common/utf8_width.inc
 *
 * Run it on the C library whose Unicode version the tables should follow
 * (the file's first line names the library it was made with).
 */
#define _XOPEN_SOURCE 700

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static void
ranges(const char *name, int want)
{
	unsigned long	cp, lo = 0;
	int		open = 0, n = 0, w;

	printf("static const struct utf8_range %s[] = {\n", name);
	for (cp = 0xa0; cp <= 0x110000; cp++) {
		w = -1;
		if (cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff))
			w = wcwidth((wchar_t)cp);
		if (w == want && !open) {
			lo = cp;
			open = 1;
		} else if (w != want && open) {
			printf("%s{ 0x%04lx, 0x%04lx },",
			    n % 3 == 0 ? "\t" : " ", lo, cp - 1);
			if (++n % 3 == 0)
				putchar('\n');
			open = 0;
		}
	}
	if (n % 3 != 0)
		putchar('\n');
	printf("};\n");
}

int
main(void)
{
	const char	*loc[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };
	size_t		 i;

	for (i = 0; i < sizeof(loc) / sizeof(loc[0]); i++)
		if (setlocale(LC_CTYPE, loc[i]) != NULL)
			break;
	if (i == sizeof(loc) / sizeof(loc[0])) {
		fprintf(stderr, "widths: no UTF-8 locale\n");
		return 1;
	}
	printf("/*\n * Made by scripts/widths.c from ");
#ifdef __GLIBC__
	printf("glibc %d.%d's ", __GLIBC__, __GLIBC_MINOR__);
#endif
	printf("wcwidth(3) in %s:\n * do not edit.\n */\n", loc[i]);
	ranges("utf8_zero_width", 0);
	ranges("utf8_double_width", 2);
	return 0;
}
