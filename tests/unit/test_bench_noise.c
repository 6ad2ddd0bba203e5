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

/*
 * A bonnie++ median with unprinted iterations ("+++++", counted at the
 * ceiling): known while every value it is taken from was printed.  Of
 * four, the median is the mean of the middle two, so two unprinted
 * leave it unknown (it was (2 + 10) / 2 = 6, below the ceiling).
 */
static void
test_bonnie_rule_median(void **state)
{
	double	odd[] = { 3, NAN, 1, 2, NAN };
	double	odd3[] = { 3, NAN, 1, NAN, NAN };
	double	even1[] = { 4, 2, NAN, 1 };
	double	even2[] = { NAN, 2, NAN, 1 };
	double	cpu[] = { 40, NAN, 20, NAN };
	double	over[] = { 12, 2, 3 };

	(void)state;
	assert_true(bonnie_rule_median(odd, 5, 10) == 3);
	assert_true(isnan(bonnie_rule_median(odd3, 5, 10)));
	assert_true(bonnie_rule_median(even1, 4, 10) == 3);
	assert_true(isnan(bonnie_rule_median(even2, 4, 10)));
	/* A printed figure over the ceiling was fast: at the ceiling. */
	assert_true(bonnie_rule_median(over, 3, 10) == 3);
	/* %CPU (no ceiling): the median of the printed ones. */
	assert_true(bonnie_rule_median(cpu, 4, NAN) == 30);
	assert_true(isnan(bonnie_rule_median(cpu, 0, 10)));
}

/*
 * peer_median and peer_cv (bench/peers.h) over more values than their
 * old fixed copy of 256 held: every value counts, where those past the
 * 256th were left out (the median of 0..299 came out 127.5).
 */
static void
test_peer_median_long(void **state)
{
	double	x[300], sd;
	size_t	i;

	(void)state;
	for (i = 0; i < nitems(x); i++)
		x[i] = (double)i;
	x[10] = NAN;			/* a value not printed: left out */
	assert_true(peer_median(x, nitems(x)) == 150);
	x[10] = 10;
	assert_true(peer_median(x, nitems(x)) == 149.5);
	/* 0..299: mean 149.5, sample sd sqrt(300 * 301 / 12). */
	sd = sqrt(300.0 * 301.0 / 12.0);
	assert_true(fabs(peer_cv(x, nitems(x)) - sd / 149.5 * 100.0) < 1e-9);
	assert_true(isnan(peer_median(x, 0)));
	assert_true(isnan(peer_cv(x, 1)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_text),
		cmocka_unit_test(test_bonnie_rule_median),
		cmocka_unit_test(test_peer_median_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
