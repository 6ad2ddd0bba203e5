/*
 * Small helpers for the types in perfwatch.h.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>
#if defined(__FreeBSD__)
#include <sys/sysctl.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "perfwatch.h"
#include "xmalloc.h"

const char *
better_name(enum better b)
{
	return b == BETTER_LOWER ? "lower" : "higher";
}

/* Parse "higher" or "lower"; 0 on success, -1 otherwise. */
int
better_parse(const char *s, enum better *b)
{
	if (strcmp(s, "higher") == 0) {
		*b = BETTER_HIGHER;
		return 0;
	}
	if (strcmp(s, "lower") == 0) {
		*b = BETTER_LOWER;
		return 0;
	}
	return -1;
}

/*
 * The perfwatch binary to start as a child (perfwatchd's runs, a
 * bisection's): $PERFWATCH, else the perfwatch beside the running
 * program (found from the kernel, else from argv0), else the installed
 * one.
 */
char *
perfwatch_path(const char *argv0)
{
	const char	*env = getenv("PERFWATCH");
	char		 self[PATH_MAX], *dir, *path;
	ssize_t		 n = -1;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
#if defined(__linux__)
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
#elif defined(__FreeBSD__)
	{
		int	mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME,
			    -1 };
		size_t	len = sizeof(self);

		if (sysctl(mib, 4, self, &len, NULL, 0) == 0)
			n = (ssize_t)strlen(self);
	}
#endif
	if (n <= 0 && argv0 != NULL && strchr(argv0, '/') != NULL &&
	    realpath(argv0, self) != NULL)
		n = (ssize_t)strlen(self);
	if (n > 0) {
		self[n] = '\0';
		dir = dirname(self);
		xasprintf(&path, "%s/perfwatch", dir);
		if (access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return xstrdup(BINDIR "/perfwatch");
}

/*
 * closefrom() is not POSIX: FreeBSD has it, and glibc from 2.34; older
 * glibc and musl do not.  Where it is missing, close_range(2) (Linux
 * 5.9) through syscall(), else a close() of every number up to the
 * descriptor limit.  The callers are mostly children between fork and
 * exec, where only async-signal-safe calls are allowed: sysconf() and
 * getrlimit() are not on that list, so the limit is read once, when the
 * program starts (nothing in perfwatch raises it later), and the child
 * only reads the number.
 */
#if defined(__FreeBSD__) || (defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34)))
#define HAVE_CLOSEFROM	1
#endif

/*
 * Past this the loop would take seconds (a limit of a million, or
 * RLIM_INFINITY), and a descriptor so high is not one of ours.
 */
#define CLOSEFROM_LOOP_MAX	65536

static int	closefrom_limit = CLOSEFROM_LOOP_MAX;

static void	closefrom_limit_init(void) __attribute__((constructor));

/* Read the descriptor limit the fallback loops up to (see above). */
static void
closefrom_limit_init(void)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < CLOSEFROM_LOOP_MAX)
		closefrom_limit = (int)rl.rlim_cur;
}

/* Close every descriptor from low on, one close() at a time. */
void
perfwatch_closefrom_fallback(int low)
{
	int	fd;

	for (fd = low; fd < closefrom_limit; fd++)
		(void)close(fd);
}

/*
 * Close every descriptor from low on.  Async-signal-safe: for a child
 * between fork and exec.
 */
void
perfwatch_closefrom(int low)
{
#ifdef HAVE_CLOSEFROM
	closefrom(low);
#else
#if defined(__linux__) && defined(SYS_close_range)
	if (syscall(SYS_close_range, (unsigned int)low, ~0U, 0) == 0)
		return;
#endif
	perfwatch_closefrom_fallback(low);
#endif
}

/*
 * arc4random_uniform() is not POSIX either: the BSDs have it, glibc from
 * 2.36; older glibc and musl do not.
 */
#if defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) || \
    (defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 36)))
#define HAVE_ARC4RANDOM	1
#endif

/*
 * Draw from [0, n) with random(), seeded once from the time and the pid,
 * dropping the draws past the last whole multiple of n so that no value
 * is favoured.  A jitter needs spread, not secrecy.
 */
uint32_t
perfwatch_random_below_fallback(uint32_t n)
{
	static int	seeded;
	uint32_t	r, limit;

	if (n <= 1)
		return 0;
	if (!seeded) {
		srandom((unsigned)time(NULL) ^ ((unsigned)getpid() << 16));
		seeded = 1;
	}
	/* The largest multiple of n that fits, less one. */
	limit = UINT32_MAX - (uint32_t)(((uint64_t)UINT32_MAX + 1) % n);
	do	/* random() gives 31 bits: two make 32. */
		r = ((uint32_t)random() << 16) ^ (uint32_t)random();
	while (r > limit);
	return r % n;
}

uint32_t
perfwatch_random_below(uint32_t n)
{
#ifdef HAVE_ARC4RANDOM
	return n <= 1 ? 0 : arc4random_uniform(n);
#else
	return perfwatch_random_below_fallback(n);
#endif
}

double
perfwatch_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A double of 15 significant digits or fewer reads back from "%.15g",
 * which drops the zeros after them, so the search starts there; a
 * subnormal one has fewer digits of its own, and "%.15g" gave 1e-310 as
 * 9.99999999999997e-311: it starts from one.
 */
void
perfwatch_format_double(char *buf, size_t len, double v)
{
	int	prec;

	for (prec = fpclassify(v) == FP_SUBNORMAL ? 1 : 15; prec <= 17;
	    prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int
perfwatch_reap_until(pid_t pid, int *status, double until)
{
	struct timespec	ts;
	double		left;
	pid_t		r;

	for (;;) {
		if ((r = waitpid(pid, status, WNOHANG)) == pid)
			return 1;
		if (r == -1 && errno != EINTR)
			return -1;
		if ((left = until - perfwatch_mono()) <= 0)
			return 0;
		/* Sleep at most 10 ms between looks. */
		if (left > 0.01)
			left = 0.01;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Whether two optional strings are equal: both NULL, or the same text. */
int
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/*
 * Compare two names of la and lb bytes as a reader orders them: byte by
 * byte, but a run of digits in both by its value, so that tps_t2 comes
 * before tps_t16 and fcopy256 before fcopy1024.  Equal values with other
 * zeros ("t02", "t2") fall back to the bytes, so that only equal names
 * compare equal.  -1, 0 or 1.
 */
int
name_ncmp(const char *a, size_t la, const char *b, size_t lb)
{
	size_t	i = 0, j = 0, za, zb, na, nb;
	int	c;

	while (i < la && j < lb) {
		if (!isdigit((unsigned char)a[i]) ||
		    !isdigit((unsigned char)b[j])) {
			if (a[i] != b[j])
				return (unsigned char)a[i] <
				    (unsigned char)b[j] ? -1 : 1;
			i++;
			j++;
			continue;
		}
		/* Two numbers: the one with more significant digits is more. */
		for (za = i; za < la && a[za] == '0'; za++)
			;
		for (zb = j; zb < lb && b[zb] == '0'; zb++)
			;
		for (na = 0; za + na < la && isdigit((unsigned char)a[za + na]);
		    na++)
			;
		for (nb = 0; zb + nb < lb && isdigit((unsigned char)b[zb + nb]);
		    nb++)
			;
		if (na != nb)
			return na < nb ? -1 : 1;
		if ((c = memcmp(a + za, b + zb, na)) != 0)
			return c < 0 ? -1 : 1;
		i = za + na;
		j = zb + nb;
	}
	if (i < la || j < lb)
		return i < la ? 1 : -1;
	c = memcmp(a, b, la < lb ? la : lb);
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb;
}

/* name_ncmp of two strings. */
int
name_cmp(const char *a, const char *b)
{
	return name_ncmp(a, strlen(a), b, strlen(b));
}

/*
 * How far typed is from known, as typos go: the fewest letters added,
 * dropped, changed or swapped with a neighbour (optimal string alignment
 * distance), case ignored.  Returns it if it is a likely typo, at most 1
 * for a name of up to 4 bytes and 2 for a longer one, else -1; also -1
 * for a name longer than NAME_NEAR_MAX.  0 means they differ in case
 * only.
 */
int
name_near(const char *typed, const char *known)
{
	size_t	la = strlen(typed), lb = strlen(known), i, j, most, best;
	size_t	d[3][NAME_NEAR_MAX + 1], *prev2, *prev, *cur, *t;
	int	ca, cb;

	if (la > NAME_NEAR_MAX || lb > NAME_NEAR_MAX)
		return -1;
	most = la <= 4 ? 1 : 2;
	if ((la > lb ? la - lb : lb - la) > most)
		return -1;
	prev2 = d[0];
	prev = d[1];
	cur = d[2];
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		best = i;
		ca = tolower((unsigned char)typed[i - 1]);
		for (j = 1; j <= lb; j++) {
			cb = tolower((unsigned char)known[j - 1]);
			cur[j] = prev[j - 1] + (ca != cb);
			if (prev[j] + 1 < cur[j])
				cur[j] = prev[j] + 1;
			if (cur[j - 1] + 1 < cur[j])
				cur[j] = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)known[j - 2]) &&
			    cb == tolower((unsigned char)typed[i - 2]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
			if (cur[j] < best)
				best = cur[j];
		}
		/* Every later row is at least this row's least. */
		if (best > most)
			return -1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] <= most ? (int)prev[lb] : -1;
}

/*
 * Gather, one known name at a time, those a name typed is likely meant
 * for: the nearest by name_near(), else, for a name of 3 bytes or more,
 * those it begins (case ignored), which rank after any typo.  A glob is
 * no typo of one name; a name added twice counts once.  A caller may
 * pass typed respelled (catch-up as catch_up): equal, it is the hint.
 */
void
name_hint_add(struct name_hint *h, const char *known)
{
	size_t	len = strlen(h->typed), i;
	int	rank;

	if (len == 0 || strpbrk(h->typed, "*?[\\") != NULL)
		return;
	if ((rank = name_near(h->typed, known)) == -1) {
		if (len < 3 || strncasecmp(h->typed, known, len) != 0)
			return;
		rank = 3;
	}
	if (h->nbest > 0 && rank > h->rank)
		return;
	if (h->nbest > 0 && rank < h->rank)
		h->nbest = 0;
	for (i = 0; i < h->nbest && i < nitems(h->best); i++)
		if (strcmp(h->best[i], known) == 0)
			return;
	if (h->nbest < nitems(h->best))
		h->best[h->nbest] = known;
	h->nbest++;
	h->rank = rank;
}

/* Start gathering the hints of typed (name_hint_add). */
void
name_hint_init(struct name_hint *h, const char *typed)
{
	memset(h, 0, sizeof(*h));
	h->typed = typed;
}

/*
 * What was gathered, as a message says it: "a", or "a or b" for two as
 * near; NULL for none, or for more than two as near, as naming any of
 * them would be a guess.  The caller frees it.
 */
char *
name_hint_text(const struct name_hint *h)
{
	char	*out;

	if (h->nbest == 0 || h->nbest > nitems(h->best))
		return NULL;
	if (h->nbest == 1)
		return xstrdup(h->best[0]);
	xasprintf(&out, "%s or %s", h->best[0], h->best[1]);
	return out;
}

/* The hint (name_hint_text) for typed among the n names. */
char *
name_hint(const char *typed, char *const *names, size_t n)
{
	struct name_hint	h;
	size_t			i;

	name_hint_init(&h, typed);
	for (i = 0; i < n; i++)
		name_hint_add(&h, names[i]);
	return name_hint_text(&h);
}
