/*
 * Unit tests of bisect/: the search (every position of the first bad
 * commit in lines of 1 to 64 commits, with and without skipped ones),
 * the sequential test and the noise, and the range and the working tree
 * on real repositories that the test makes with git.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "xmalloc.h"
#include "near.h"

/*
 * Search a line of n commits whose first bad one is f, the commits in
 * skip[] unmeasurable; return the steps taken and the bounds found.
 */
static unsigned
search(size_t n, size_t f, const int *skip, size_t *first, size_t *last)
{
	enum bisect_mark	*m = xcalloc(n, sizeof(*m));
	unsigned		 steps = 0, bound;
	long			 k;

	m[n - 1] = BISECT_BAD;
	bound = bisect_steps_left(m, n);
	while ((k = bisect_next(m, n, first, last)) != -1) {
		assert_int_equal(m[k], BISECT_UNTESTED);
		assert_true(k < (long)n - 1);
		m[k] = skip != NULL && skip[k] ? BISECT_SKIP :
		    (size_t)k >= f ? BISECT_BAD : BISECT_GOOD;
		steps++;
		/*
		 * Without skips each answer takes a step off what is left;
		 * with them (the middle taken off-centre) none is added.
		 */
		if (skip == NULL)
			assert_true(bisect_steps_left(m, n) < bound);
		else
			assert_true(bisect_steps_left(m, n) <= bound);
		bound = bisect_steps_left(m, n);
	}
	free(m);
	return steps;
}

static void
test_search_every_position(void **state)
{
	size_t		n, f, first, last;
	unsigned	steps, most;

	(void)state;
	for (n = 1; n <= 64; n++) {
		/* ceil(log2(n)) steps find one bad commit among n. */
		for (most = 0; (1u << most) < n; most++)
			;
		for (f = 0; f < n; f++) {
			steps = search(n, f, NULL, &first, &last);
			if (first != f || last != f)
				fail_msg("n %zu, first bad %zu: found %zu..%zu",
				    n, f, first, last);
			if (steps > most)
				fail_msg("n %zu, first bad %zu: %u steps, more "
				    "than %u", n, f, steps, most);
		}
	}
}

static void
test_search_skips(void **state)
{
	int	skip[32];
	size_t	n = 32, f, first, last, i;

	(void)state;
	/* Skipped commits just before the first bad one: it is a range. */
	memset(skip, 0, sizeof(skip));
	skip[11] = skip[12] = 1;
	search(n, 13, skip, &first, &last);
	assert_int_equal(first, 11);
	assert_int_equal(last, 13);
	/* The first bad one skipped itself. */
	search(n, 12, skip, &first, &last);
	assert_int_equal(first, 11);
	assert_int_equal(last, 13);
	/* Skips away from it do not matter. */
	memset(skip, 0, sizeof(skip));
	skip[3] = skip[20] = skip[21] = 1;
	for (f = 0; f < n; f++) {
		search(n, f, skip, &first, &last);
		if (skip[f]) {
			assert_true(first <= f && f < last);
			for (i = first; i < last; i++)
				assert_true(skip[i]);
		} else if (f > 0 && skip[f - 1]) {
			assert_int_equal(last, f);
			assert_true(first < f);
		} else {
			assert_int_equal(first, f);
			assert_int_equal(last, f);
		}
	}
	/* The middle skipped: the next nearest is taken instead. */
	{
		enum bisect_mark	m[9] = { 0 };
		size_t			a, b;

		m[8] = BISECT_BAD;
		assert_int_equal(bisect_next(m, 9, &a, &b), 3);
		m[3] = BISECT_SKIP;
		assert_int_equal(bisect_next(m, 9, &a, &b), 2);
		m[2] = BISECT_SKIP;
		assert_int_equal(bisect_next(m, 9, &a, &b), 4);
		assert_int_equal(a, 0);
		assert_int_equal(b, 8);
	}
}

/* The steps left with the bad end at n - 1 and marks[i] at i. */
static unsigned
steps_left(size_t n, size_t good, size_t bad)
{
	enum bisect_mark	m[64] = { 0 };

	m[n - 1] = BISECT_BAD;
	if (good != 0)
		m[good - 1] = BISECT_GOOD;	/* good: 1-based, 0 none */
	if (bad != 0)
		m[bad - 1] = BISECT_BAD;
	return bisect_steps_left(m, n);
}

static void
test_steps_left(void **state)
{
	(void)state;
	assert_int_equal(steps_left(1, 0, 0), 0);	/* the bad end only */
	assert_int_equal(steps_left(2, 0, 0), 1);	/* 1 untested */
	assert_int_equal(steps_left(3, 0, 0), 2);	/* 2 */
	assert_int_equal(steps_left(4, 0, 0), 2);	/* 3 */
	assert_int_equal(steps_left(8, 0, 0), 3);	/* 7 */
	assert_int_equal(steps_left(9, 0, 0), 4);	/* 8 */
	assert_int_equal(steps_left(16, 0, 0), 4);	/* 15 */
	/* Good at index 4, bad at 9: 5..8 left, 4 untested. */
	assert_int_equal(steps_left(16, 5, 10), 3);
	/* Adjacent: nothing left. */
	assert_int_equal(steps_left(16, 5, 6), 0);
}

/* When the ends take a run more each. */
static void
test_ends_more(void **state)
{
	(void)state;
	/* Below two runs a side, always: there is no noise to judge by. */
	assert_true(bisect_ends_more(0, 10, 0, 0, 6, 1));
	assert_true(bisect_ends_more(1, 10, 1, 50, 6, 0));
	/* A metric found: until it is t_enough apart. */
	assert_true(bisect_ends_more(3, 10, 1, 5.9, 6, 0));
	assert_false(bisect_ends_more(3, 10, 1, 6, 6, 0));
	/* None found: while the nearest could still become one. */
	assert_true(bisect_ends_more(3, 10, 0, 0, 6, 0.49));
	assert_false(bisect_ends_more(3, 10, 0, 0, 6, 0.5));
	/* Never beyond the most runs. */
	assert_false(bisect_ends_more(10, 10, 1, 1, 6, 0));
	assert_false(bisect_ends_more(12, 10, 0, 0, 6, 0.1));
	/* ... but two a side even when at most one was asked. */
	assert_true(bisect_ends_more(1, 1, 1, 1, 6, 0));
}

/*
 * The side-by-side check: the pairs' differences judged between 0 and
 * the ends' gap with sqrt(2) times a run's sd, so that one pair at the
 * gap says less than one run at the bad level does (8.15 with sd 2):
 * 5/2 log(1 + 20^2 / (4 * 8)) = 5/2 log(13.5).
 */
static void
test_side(void **state)
{
	struct bisect_sprt	t = { 100, 80, 2, 0.01, 0.01, 4 };
	double			d[2], llr;

	(void)state;
	d[0] = -20;
	assert_int_equal(bisect_side_decide(&t, d, 1, &llr), BISECT_BAD);
	NEAR(llr, 6.506724213610959, 1e-12);
	d[0] = 0;
	assert_int_equal(bisect_side_decide(&t, d, 1, &llr), BISECT_GOOD);
	NEAR(llr, -6.506724213610959, 1e-12);
	/* Half the gap: the middle half decides nothing. */
	d[0] = -10;
	assert_int_equal(bisect_side_decide(&t, d, 1, &llr),
	    BISECT_UNTESTED);
	NEAR(llr, 0, 1e-12);
	/* Two pairs: their terms add, -19 one off the gap. */
	d[0] = -20;
	d[1] = -19;
	assert_int_equal(bisect_side_decide(&t, d, 2, &llr), BISECT_BAD);
	NEAR(llr, 12.699979339617911, 1e-12);
	/* Higher is worse: a gap of +20, mirrored. */
	t.good = 80;
	t.bad = 100;
	d[0] = 20;
	assert_int_equal(bisect_side_decide(&t, d, 1, &llr), BISECT_BAD);
	NEAR(llr, 6.506724213610959, 1e-12);
	/* Normal likelihoods: gap (x - mid) / (2 sd^2) = 20 * 10 / 8. */
	t.df = 0;
	assert_int_equal(bisect_side_decide(&t, d, 1, &llr), BISECT_BAD);
	NEAR(llr, 25, 1e-12);
}

static void
test_sprt(void **state)
{
	struct bisect_sprt	t = { 100, 80, 2, 0.01, 0.01, 0 };
	double			x[3], llr;

	(void)state;
	/* Each run adds (b - g)(x - (g + b)/2) / sd^2 = -5 (x - 90). */
	x[0] = 80;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_BAD);
	NEAR(llr, 50, 1e-12);
	x[0] = 100;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_GOOD);
	NEAR(llr, -50, 1e-12);
	x[0] = 90;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr),
	    BISECT_UNTESTED);
	NEAR(llr, 0, 1e-12);
	/*
	 * With sd 8 a run adds -20 (x - 90) / 64; log(0.99 / 0.01) = 4.595
	 * decides.  One run at the bad level (3.125) does not, two (6.25)
	 * do; runs at 84 add 1.875 each: three decide.
	 */
	t.sd = 8;
	x[0] = x[1] = x[2] = 80;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr),
	    BISECT_UNTESTED);
	NEAR(llr, 3.125, 1e-12);
	assert_int_equal(bisect_sprt_decide(&t, x, 2, &llr), BISECT_BAD);
	x[0] = x[1] = x[2] = 84;
	assert_int_equal(bisect_sprt_decide(&t, x, 2, &llr),
	    BISECT_UNTESTED);
	assert_int_equal(bisect_sprt_decide(&t, x, 3, &llr), BISECT_BAD);
	NEAR(llr, 5.625, 1e-12);
	x[0] = x[1] = x[2] = 97;
	assert_int_equal(bisect_sprt_decide(&t, x, 3, &llr), BISECT_GOOD);
	/* In the middle half (85 to 95) nothing decides, whatever the sum. */
	t.sd = 2;
	x[0] = x[1] = x[2] = 85.5;
	assert_int_equal(bisect_sprt_decide(&t, x, 3, &llr),
	    BISECT_UNTESTED);
	NEAR(llr, 67.5, 1e-9);
	x[0] = 94.9;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr),
	    BISECT_UNTESTED);
	x[0] = 95.1;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_GOOD);
	x[0] = 84.9;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_BAD);
	/* The mean counts: 80 and 96 average 88, in the middle half. */
	x[0] = 80;
	x[1] = 96;
	assert_int_equal(bisect_sprt_decide(&t, x, 2, &llr),
	    BISECT_UNTESTED);
	/* A wild run counts as one a gap beyond the nearer level. */
	x[0] = 0;
	bisect_sprt_decide(&t, x, 1, &llr);
	NEAR(llr, 150, 1e-12);	/* x taken as 60 */
	x[0] = 1e9;
	bisect_sprt_decide(&t, x, 1, &llr);
	NEAR(llr, -150, 1e-12);	/* x taken as 120 */
	/* Higher is worse (a time): the same, mirrored. */
	t.good = 80;
	t.bad = 100;
	x[0] = 100;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_BAD);
	NEAR(llr, 50, 1e-12);
	/*
	 * Student's t with 4 degrees of freedom: a run adds 5/2 (log(1 +
	 * (x - 100)^2 / 16) - log(1 + (x - 80)^2 / 16)) with sd 2; at the
	 * bad level 5/2 log(26).  A run far off says next to nothing.
	 */
	t.good = 100;
	t.bad = 80;
	t.sd = 2;
	t.df = 4;
	x[0] = 80;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_BAD);
	NEAR(llr, 8.145241345053705, 1e-12);
	x[0] = 100;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr), BISECT_GOOD);
	NEAR(llr, -8.145241345053705, 1e-12);
	x[0] = 130;	/* 30 and 50 from the levels */
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr),
	    BISECT_UNTESTED);
	NEAR(llr, -2.5260231328655025, 1e-12);
	x[0] = 1e9;
	bisect_sprt_decide(&t, x, 1, &llr);
	assert_true(fabs(llr) < 1e-6);
	t.df = 0;
	t.good = 80;
	t.bad = 100;
	/* No noise or no gap: it cannot tell. */
	t.sd = 0;
	assert_int_equal(bisect_sprt_decide(&t, x, 1, &llr),
	    BISECT_UNTESTED);
}

static void
test_noise_and_ends(void **state)
{
	const double	g[] = { 1, 2, 3 }, b[] = { 11, 12, 13 };
	double		sd, t, p;

	(void)state;
	/*
	 * Pooled sd 1 with 4 degrees of freedom; the chi-square 0.10
	 * quantile for 4 is the root of 1 - exp(-x/2)(1 + x/2) = 0.1,
	 * 1.0636232167792237 (scipy.stats.chi2.ppf(0.1, 4)), so the upper
	 * bound is sqrt(4 / 1.0636232167792237).
	 */
	assert_int_equal(bisect_noise(g, 3, b, 3, 0, &sd), 0);
	NEAR(sd, 1.9392602312252, 1e-9);
	assert_int_equal(bisect_noise(g, 3, b, 3, 5, &sd), 0);
	NEAR(sd, 5, 0);
	assert_int_equal(bisect_noise(g, 1, b, 1, 0, &sd), -1);
	/*
	 * t = 10 / sqrt(2/3) = 12.2474...; two-sided p from Student's t
	 * with 4 degrees of freedom, whose CDF is 1/2 + 3/8 t/sqrt(1 + u)
	 * (1 - u / (3 (1 + u))), u = t^2/4 (scipy.stats.t.sf(t, 4) * 2).
	 */
	assert_int_equal(bisect_ends_test(g, 3, b, 3, 0, &t, &p), 0);
	NEAR(t, 12.24744871391589, 1e-9);
	NEAR(p, 0.0002552167494420665, 1e-12);
	assert_int_equal(bisect_ends_test(b, 3, g, 3, 0, &t, &p), 0);
	NEAR(t, -12.24744871391589, 1e-9);
	/* Constant levels: exactly apart, or exactly not. */
	{
		const double	c1[] = { 5, 5 }, c2[] = { 7, 7 };

		assert_int_equal(bisect_ends_test(c1, 2, c2, 2, 0, &t, &p), 0);
		assert_true(isinf(t) && t > 0);
		NEAR(p, 0, 0);
		assert_int_equal(bisect_ends_test(c1, 2, c1, 2, 0, &t, &p), 0);
		NEAR(t, 0, 0);
		NEAR(p, 1, 0);
		/* With a floor from the runs' own spread, a finite t. */
		assert_int_equal(bisect_ends_test(c1, 2, c2, 2, 1, &t, &p), 0);
		NEAR(t, 2, 1e-12);
	}
}

static void
test_worse_bound(void **state)
{
	const double	g[] = { 99, 100, 101 }, b[] = { 100, 101, 102 };
	const double	z[] = { -1, 0, 1 };
	double		bound;

	(void)state;
	/*
	 * Means 100 and 101, pooled sd 1 with 4 degrees of freedom, so the
	 * difference's se is sqrt(2/3); the one-sided 99% quantile of
	 * Student's t with 4 df is 3.7469473879791968 (scipy.stats.t.ppf(0.99,
	 * 4); the root of the closed-form CDF in test_noise_and_ends).
	 * Lower is better: 1% worse, at most 1 + 3.7469... sqrt(2/3).
	 */
	assert_int_equal(bisect_ends_worse_bound(g, 3, b, 3, 0, 0, 0.01,
	    &bound), 0);
	NEAR(bound, 4.0593697312010875, 1e-9);
	/* Higher is better: 1% better, so at most 2.06% worse. */
	assert_int_equal(bisect_ends_worse_bound(g, 3, b, 3, 0, 1, 0.01,
	    &bound), 0);
	NEAR(bound, 2.059369731201088, 1e-9);
	/* A floor of 5 for the sd: 1 + 3.7469... 5 sqrt(2/3). */
	assert_int_equal(bisect_ends_worse_bound(g, 3, b, 3, 5, 0, 0.01,
	    &bound), 0);
	NEAR(bound, 16.296848656005437, 1e-9);
	/* Nothing to take a percentage of, too few runs, a bad alpha. */
	assert_int_equal(bisect_ends_worse_bound(z, 3, b, 3, 0, 0, 0.01,
	    &bound), -1);
	assert_int_equal(bisect_ends_worse_bound(g, 1, b, 1, 0, 0, 0.01,
	    &bound), -1);
	assert_int_equal(bisect_ends_worse_bound(g, 3, b, 3, 0, 0, 0,
	    &bound), -1);
}

/* A scratch repository made with git; sh runs in it. */
static char	repo[256];

static void	sh(const char *, ...) __attribute__((format(printf, 1, 2)));

static void
sh(const char *fmt, ...)
{
	char	*cmd, *full;
	va_list	 ap;

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) == -1)
		fail_msg("vasprintf");
	va_end(ap);
	xasprintf(&full, "cd '%s' && { %s; } >/dev/null 2>&1", repo, cmd);
	if (system(full) != 0)
		fail_msg("failed: %s", cmd);
	free(full);
	free(cmd);
}

/* The id of a revision, from git itself. */
static void
rev(const char *spec, char out[BISECT_OID_HEX])
{
	char	*cmd;
	FILE	*f;

	xasprintf(&cmd, "cd '%s' && git rev-parse '%s'", repo, spec);
	if ((f = popen(cmd, "r")) == NULL ||
	    fgets(out, BISECT_OID_HEX, f) == NULL)
		fail_msg("git rev-parse %s", spec);
	pclose(f);
	free(cmd);
	out[strcspn(out, "\n")] = '\0';
}

static int
repo_setup(void **state)
{
	const char	*tmp = getenv("TMPDIR");

	(void)state;
	snprintf(repo, sizeof(repo), "%s/pw-bisect.XXXXXX",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp");
	if (mkdtemp(repo) == NULL)
		return -1;
	sh("git init -q -b main . && git config user.email t@example.org && "
	    "git config user.name test && git config commit.gpgsign false");
	/* main: c1..c4; a branch from c2 with b1, b2 merged as m; c5, c6. */
	sh("for i in 1 2; do echo $i >f$i; git add f$i; "
	    "git commit -qm c$i; done");
	sh("git checkout -q -b side && for i in 1 2; do echo $i >b$i; "
	    "git add b$i; git commit -qm b$i; done && git checkout -q main");
	sh("for i in 3 4; do echo $i >f$i; git add f$i; "
	    "git commit -qm c$i; done");
	sh("git merge -q --no-ff -m m side");
	sh("for i in 5 6; do echo $i >f$i; git add f$i; "
	    "git commit -qm c$i; done");
	return 0;
}

static int
repo_teardown(void **state)
{
	char	*cmd;
	int	 rc;

	(void)state;
	xasprintf(&cmd, "rm -rf '%s'", repo);
	rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

static void
test_range(void **state)
{
	struct bisect_commit	*c, good;
	char			 id[BISECT_OID_HEX], *cause = NULL, *want_base;
	const char		*want[] = { "c3", "c4", "m", "c5", "c6" };
	size_t			 n, i;

	(void)state;
	/* First parents from c6 back to c2: the side branch is the merge. */
	if (bisect_range(repo, "main~5", "main", &c, &n, &good,
	    &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++) {
		assert_string_equal(c[i].summary, want[i]);
		rev(i == n - 1 ? "main" : want[i][0] == 'm' ? "main~2" :
		    want[i][1] == '3' ? "main~4" : want[i][1] == '4' ?
		    "main~3" : "main~1", id);
		assert_string_equal(c[i].id, id);
	}
	assert_string_equal(good.summary, "c2");
	rev("main~5", id);
	assert_string_equal(good.id, id);
	bisect_commits_free(c, n);
	bisect_commit_clear(&good);

	/* Good on the side branch: the main line down to its merge base. */
	if (bisect_range(repo, "side", "main", &c, &n, &good, &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(n, 5);
	assert_string_equal(c[0].summary, "c3");
	assert_string_equal(c[2].summary, "m");
	assert_string_equal(good.summary, "b2");
	bisect_commits_free(c, n);
	bisect_commit_clear(&good);

	/* A range of one commit: only the bad end. */
	if (bisect_range(repo, "main~1", "main", &c, &n, &good,
	    &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].summary, "c6");
	bisect_commits_free(c, n);
	bisect_commit_clear(&good);

	/* Errors say what is wrong. */
	assert_int_equal(bisect_range(repo, "main", "main~2", &c, &n, &good,
	    &cause), -1);
	assert_non_null(strstr(cause, "is an ancestor of the good one"));
	free(cause);
	assert_int_equal(bisect_range(repo, "main", "main", &c, &n, &good,
	    &cause), -1);
	assert_non_null(strstr(cause, "are the same commit"));
	free(cause);
	assert_int_equal(bisect_range(repo, "nosuch", "main", &c, &n, &good,
	    &cause), -1);
	assert_non_null(strstr(cause, "no such revision: nosuch"));
	free(cause);
	sh("git branch other main~5 && git checkout -q other && echo x >x && "
	    "git add x && git commit -qm x && git checkout -q main");
	assert_int_equal(bisect_range(repo, "other", "main", &c, &n, &good,
	    &cause), -1);
	assert_non_null(strstr(cause, "is not an ancestor of the bad one"));
	/* With the merge base to start from, as git bisect would. */
	rev("main~5", id);
	xasprintf(&want_base, "their merge base is %.12s (c2); if it is "
	    "good too, bisect %.12s..main", id, id);
	assert_non_null(strstr(cause, want_base));
	free(want_base);
	free(cause);
	assert_int_equal(bisect_range("/nonexistent", "a", "b", &c, &n,
	    &good, &cause), -1);
	assert_non_null(strstr(cause, "not a git repository"));
	free(cause);
}

static void
test_tree(void **state)
{
	struct bisect_tree	*t;
	char			 id[BISECT_OID_HEX], head[BISECT_OID_HEX];
	char			 next[BISECT_OID_HEX];
	char			*cause = NULL, *path;
	FILE			*f;
	int			 held;

	(void)state;
	rev("main~4", id);
	rev("main", head);
	/*
	 * The tree is one bisection's at a time: a second is refused while
	 * the first has it, naming it, and has it once the first is done.
	 */
	if ((t = bisect_tree_open(repo, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_null(bisect_tree_open(repo, &held, &cause));
	assert_int_equal(held, 1);
	xasprintf(&path, "another bisection is running in this tree (pid "
	    "%ld)", (long)getpid());
	assert_non_null(strstr(cause, path));
	free(path);
	free(cause);
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	if ((t = bisect_tree_open(repo, &held, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_int_equal(held, 0);
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	if ((t = bisect_tree_open(repo, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_string_equal(bisect_tree_head(t), "refs/heads/main");
	if (bisect_tree_checkout(t, id, &cause) == -1)
		fail_msg("%s", cause);
	/* The tree is c3's: f5 is gone, build output stays. */
	xasprintf(&path, "%s/f5", repo);
	assert_int_equal(access(path, F_OK), -1);
	free(path);
	sh("echo out >build-output");
	sh("test \"$(git rev-parse HEAD)\" = %s", id);
	sh("! git symbolic-ref -q HEAD");
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	/* Back on main, at its commit, every file as it was. */
	sh("test \"$(git symbolic-ref HEAD)\" = refs/heads/main");
	sh("test \"$(git rev-parse HEAD)\" = %s", head);
	sh("test -f f5 && test -z \"$(git status --porcelain "
	    "--untracked-files=no)\"");
	sh("test -f build-output && rm build-output");

	/*
	 * A build that changed a tracked file, and wrote one in the way of
	 * a file HEAD tracks (f5, which c3 has not): both are put back.
	 */
	if ((t = bisect_tree_open(repo, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	if (bisect_tree_checkout(t, id, &cause) == -1)
		fail_msg("%s", cause);
	sh("echo built >>f1 && echo generated >f5");
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	sh("test \"$(git symbolic-ref HEAD)\" = refs/heads/main");
	sh("test \"$(git rev-parse HEAD)\" = %s", head);
	sh("test \"$(cat f1)\" = 1 && test \"$(cat f5)\" = 5");
	sh("test -z \"$(git status --porcelain)\"");

	/* A change to a tracked file is refused, and named. */
	xasprintf(&path, "%s/f1", repo);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("local change\n", f);
	fclose(f);
	free(path);
	assert_null(bisect_tree_open(repo, NULL, &cause));
	assert_non_null(strstr(cause, "f1 has changes that are not "
	    "committed"));
	free(cause);
	sh("git checkout -q f1");
	/* A staged one too. */
	sh("echo new >staged && git add staged");
	assert_null(bisect_tree_open(repo, NULL, &cause));
	assert_non_null(strstr(cause, "staged has changes"));
	free(cause);
	sh("git rm -q --cached staged && rm staged");

	/* A detached HEAD is put back detached, at its commit. */
	sh("git checkout -q --detach main~1");
	rev("HEAD", head);
	if ((t = bisect_tree_open(repo, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_string_equal(bisect_tree_head(t), head);
	if (bisect_tree_checkout(t, id, &cause) == -1)
		fail_msg("%s", cause);
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	sh("! git symbolic-ref -q HEAD && test \"$(git rev-parse HEAD)\" = "
	    "%s", head);
	sh("git checkout -q main");

	/*
	 * A file git does not track where the next commit has one (f4,
	 * which c4 adds) stops the checkout, and the message names it:
	 * libgit2's alone says "1 conflict prevents checkout".
	 */
	rev("main~3", next);
	if ((t = bisect_tree_open(repo, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	if (bisect_tree_checkout(t, id, &cause) == -1)
		fail_msg("%s", cause);
	sh("echo mine >f4");
	assert_int_equal(bisect_tree_checkout(t, next, &cause), -1);
	assert_non_null(strstr(cause, "f4, which git does not track, is "
	    "where the commit has a file"));
	free(cause);
	sh("test \"$(cat f4)\" = mine");
	if (bisect_tree_close(t, &cause) == -1)
		fail_msg("%s", cause);
	sh("test \"$(git symbolic-ref HEAD)\" = refs/heads/main");
	sh("test -z \"$(git status --porcelain)\"");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_every_position),
		cmocka_unit_test(test_search_skips),
		cmocka_unit_test(test_steps_left),
		cmocka_unit_test(test_ends_more),
		cmocka_unit_test(test_sprt),
		cmocka_unit_test(test_side),
		cmocka_unit_test(test_noise_and_ends),
		cmocka_unit_test(test_worse_bound),
		cmocka_unit_test_setup_teardown(test_range, repo_setup,
		    repo_teardown),
		cmocka_unit_test_setup_teardown(test_tree, repo_setup,
		    repo_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
