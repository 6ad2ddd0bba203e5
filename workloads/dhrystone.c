/*
 * sys.dhrystone: integer and string CPU speed, in the manner of Reinhold
 * Weicker's Dhrystone 2 (UnixBench's "Dhrystone 2 using register
 * variables").  This is not Dhrystone's source but a loop written for
 * perfwatch with the same kind of work in each pass: record copies and
 * pointer chasing, assignments of 30-character strings and their
 * comparison, character and enumeration tests, one- and two-dimensional
 * array stores, integer multiply and divide, and calls of small
 * procedures that the compiler is told not to inline.
 *
 *   lps   passes of the loop per second of the CPU time it received
 *         (the wall-clock rate on an idle machine; see wl_timed_loop)
 *         (higher is better)
 *
 * The figure is not comparable with Dhrystone's own numbers, only with
 * itself: what perfwatch needs is a stable integer loop.  The state lives
 * behind a pointer and the procedures are out of line, so the optimiser
 * cannot fold passes together; each pass leaves a checksum that is kept.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

#define DH_NOINLINE	__attribute__((noinline))
#define DH_TEXT		31

enum dh_kind {
	DH_K0,
	DH_K1,
	DH_K2,
	DH_K3,
	DH_K4,
};

struct dh_rec {
	struct dh_rec	*link;
	enum dh_kind	 disc;
	enum dh_kind	 kind;
	int		 val;
	char		 text[DH_TEXT];
};

struct dh_state {
	struct dh_rec	*head;
	struct dh_rec	*spare;
	int		 gint;
	int		 gflag;
	char		 gch1;
	char		 gch2;
	int		 arr1[50];
	/* Unsigned: a pass adds one to an element, past INT_MAX in time. */
	unsigned int	 arr2[50][50];
	char		 str1[DH_TEXT];
	char		 str2[DH_TEXT];
	struct dh_rec	 recs[2];
	uint64_t	 check;
};

static volatile uint64_t	dh_sink;

/* Classify a character against another. */
static DH_NOINLINE enum dh_kind
dh_classify(struct dh_state *st, char a, char b)
{
	char	c = a;

	if (c != b)
		return DH_K0;
	st->gch1 = c;
	return DH_K1;
}

/* Compare two strings the long way; 1 if the first sorts after. */
static DH_NOINLINE int
dh_strings_after(struct dh_state *st, const char *s1, const char *s2)
{
	int	i;
	char	c = 'C';

	for (i = 2; i <= 2; i++) {
		if (dh_classify(st, s1[i], s2[i + 1]) == DH_K0)
			c = 'A';
	}
	if (c >= 'W' && c < 'Z')
		i = 7;
	if (c == 'R')
		return 1;
	if (strcmp(s1, s2) > 0) {
		st->gint = i + 7;
		return 1;
	}
	return 0;
}

/* Is the kind K2? */
static DH_NOINLINE int
dh_is_k2(enum dh_kind k)
{
	return k == DH_K2;
}

/* Map a kind to another. */
static DH_NOINLINE void
dh_remap(struct dh_state *st, enum dh_kind in, enum dh_kind *out)
{
	*out = in;
	if (!dh_is_k2(in))
		*out = DH_K3;
	switch (in) {
	case DH_K0:
		*out = DH_K0;
		break;
	case DH_K1:
		*out = st->gint > 100 ? DH_K0 : DH_K3;
		break;
	case DH_K2:
		*out = DH_K1;
		break;
	case DH_K3:
		break;
	case DH_K4:
		*out = DH_K2;
		break;
	}
}

/* Add with an offset. */
static DH_NOINLINE void
dh_sum(int a, int b, int *out)
{
	int	t = a + 2;

	*out = b + t;
}

/* Store into the arrays. */
static DH_NOINLINE void
dh_arrays(struct dh_state *st, int a, int b)
{
	int	i, at = a + 5;

	st->arr1[at] = b;
	st->arr1[at + 1] = st->arr1[at];
	st->arr1[at + 30] = at;
	for (i = at; i <= at + 1; i++)
		st->arr2[at][i] = at;
	st->arr2[at][at - 1] += 1;
	st->arr2[at + 20][at] = st->arr1[at];
	st->gint = 5;
}

/* Move the global record's link along. */
static DH_NOINLINE void
dh_follow(struct dh_state *st, struct dh_rec **out)
{
	if (st->head != NULL)
		*out = st->head->link;
	dh_sum(10, st->gint, &st->head->val);
}

/* Work on a record through its link: copy, compare, remap. */
static DH_NOINLINE void
dh_record(struct dh_state *st, struct dh_rec *r)
{
	struct dh_rec	*next = r->link;

	*next = *st->head;
	r->val = 5;
	next->val = r->val;
	next->link = r->link;
	dh_follow(st, &next->link);
	if (next->disc == DH_K0) {
		next->val = 6;
		dh_remap(st, r->kind, &next->kind);
		next->link = st->head->link;
		dh_sum(next->val, 10, &next->val);
	} else
		*r = *next;
}

/* Set the global characters. */
static DH_NOINLINE void
dh_chars(struct dh_state *st)
{
	int	flag;

	flag = st->gch1 == 'A';
	st->gflag = flag | st->gflag;
	st->gch2 = 'B';
}

/* Adjust an integer by the global one. */
static DH_NOINLINE void
dh_bump(struct dh_state *st, int *v)
{
	int	t = *v + 10;

	if (st->gch1 == 'A')
		t -= 1;
	*v = t - st->gint;
}

/* One pass of the loop. */
static void
dh_pass(struct dh_state *st, int pass)
{
	char		*str2 = st->str2;
	enum dh_kind	kind;
	int		i1, i2, i3 = 0;
	char		c;

	st->gch1 = 'A';
	dh_chars(st);
	i1 = 2;
	i2 = 3;
	memcpy(str2, "PERFWATCH LOOP, SECOND STRING!", DH_TEXT);
	kind = DH_K1;
	st->gflag = !dh_strings_after(st, st->str1, str2);
	while (i1 < i2) {
		i3 = 5 * i1 - i2;
		dh_sum(i1, i2, &i3);
		i1++;
	}
	dh_arrays(st, i1, i3);
	dh_record(st, st->head);
	for (c = 'A'; c <= st->gch2; c++) {
		if (kind == dh_classify(st, c, 'C')) {
			dh_remap(st, DH_K0, &kind);
			memcpy(str2, "PERFWATCH LOOP, THIRD STRING!!",
			    DH_TEXT);
			i2 = pass;
			st->gint = pass;
		}
	}
	i2 = i2 * i1;
	i1 = i2 / i3;
	i2 = 7 * (i2 - i3) - i1;
	dh_bump(st, &i1);
	st->check += (uint64_t)(i1 + i2 + i3) + (uint64_t)kind +
	    (unsigned char)str2[20];
}

/* The timed loop's body: n passes. */
static int
dh_body(void *arg, uint64_t n, char **cause)
{
	struct dh_state	*st = arg;
	uint64_t	 i;

	(void)cause;
	for (i = 0; i < n; i++)
		dh_pass(st, (int)(i & 0xffff));
	return 0;
}

/*
 * The state a run starts from, or NULL when out of memory.  Everything
 * the loop touches but its stack lives in one block at the start of a
 * page, so its placement (and the speed that depends on it) is the same in
 * every run, whatever the process allocated before (see wl_page_alloc):
 * at 64 bytes before a page boundary, the one 8-byte store gcc makes of
 * arr1[8] and arr1[9] straddles it.
 */
static struct dh_state *
dh_state_new(void)
{
	struct dh_state	*st;
	struct dh_rec	*recs;

	if ((st = wl_page_alloc(sizeof(*st))) == NULL)
		return NULL;
	memset(st, 0, sizeof(*st));
	recs = st->recs;
	recs[0].link = &recs[1];
	recs[0].disc = DH_K0;
	recs[0].kind = DH_K2;
	recs[0].val = 40;
	memcpy(recs[0].text, "PERFWATCH LOOP, SOME STRING!!!", DH_TEXT);
	st->head = &recs[0];
	st->spare = &recs[1];
	memcpy(st->str1, "PERFWATCH LOOP, FIRST STRING!!", DH_TEXT);
	st->arr2[8][7] = 10;
	return st;
}

/* sys.dhrystone: passes per second over the configured duration. */
int
wl_dhrystone_run(const struct wl_params *p, int out, char **cause)
{
	struct dh_state	*st;
	struct wl_loop	 loop;

	if ((st = dh_state_new()) == NULL) {
		xasprintf(cause, "posix_memalign: out of memory");
		return -1;
	}
	if (wl_timed_loop(p->duration, WL_LOOP_CPU, dh_body, st, &loop,
	    cause) == -1) {
		free(st);
		return -1;
	}
	dh_sink = st->check;
	free(st);
	return wl_loop_report(out, "lps", "lps", 1, &loop, cause);
}
