/*
 * bench/noise's arithmetic: the bench's .c included (main renamed) to
 * reach its statics, as chrony's unit tests do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

int	noise_main(int, char **);
#define main noise_main
#include "../../bench/noise.c"
#undef main

/* Wall times as printed: minutes rounded, never "60 min". */
static void
test_duration_text(void **state)
{
	(void)state;
	assert_string_equal(duration_text(65), "1 min 05 s");
	assert_string_equal(duration_text(3600), "1 h 00 min");
	assert_string_equal(duration_text(3629), "1 h 00 min");
	assert_string_equal(duration_text(3630), "1 h 01 min");
	/* 1 h 59 min 45 s is 2 h to the minute, not "1 h 60 min". */
	assert_string_equal(duration_text(7185), "2 h 00 min");
	assert_string_equal(duration_text(7199), "2 h 00 min");
	assert_string_equal(duration_text(NAN), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
