/*
 * bisect/: find the commit that made a metric worse, over a range of a
 * git repository (libgit2), measuring as few commits as it can.
 *
 * range.c reads the range and moves the working tree; search.c decides
 * which commit to measure next and whether a commit's runs look like
 * the good end's or the bad end's.  cli/bisect.c drives them, measuring
 * each commit with `perfwatch run --trigger bisect`.
 */
#ifndef PERFWATCH_BISECT_H
#define PERFWATCH_BISECT_H

#include <stddef.h>

#define BISECT_OID_HEX	41		/* 40 hex digits and a NUL */

struct bisect_commit {
	char	 id[BISECT_OID_HEX];
	char	*summary;		/* the message's first line */
};

/*
 * The commits to search between good and bad (revisions as git reads
 * them: names, tags, abbreviated ids, HEAD~3 ...): bad and its first
 * parents back to, not including, the first commit that is good or an
 * ancestor of good, oldest first; so the last one is bad itself.
 * *good_out gets good's id.  0, or -1 with *cause set (a revision not
 * found, good not an ancestor of bad, bad an ancestor of good).
 */
int	bisect_range(const char *repo, const char *good, const char *bad,
	    struct bisect_commit **, size_t *, struct bisect_commit *good_out,
	    char **cause);
void	bisect_commits_free(struct bisect_commit *, size_t);
/*
 * The submodules whose commit differs between good and bad (full ids):
 * their count, with their paths in *names ("a, b"), or -1 with *cause.
 * A checkout moves the tree, not what is checked out in a submodule, as
 * git checkout without --recurse-submodules does not.
 */
int	bisect_range_submodules(const char *repo, const char *good,
	    const char *bad, char **names, char **cause);
/*
 * Whether commit id is a merge, whose first parent is on the line
 * searched: 1 with its merged branch as a range to bisect next, from
 * the merge base of its first two parents (base) to its second parent
 * (tip); 0 when it is no merge (or its parents share no history); -1
 * with *cause.
 */
int	bisect_merged_branch(const char *repo, const char *id,
	    char base[BISECT_OID_HEX], char tip[BISECT_OID_HEX],
	    char **cause);
void	bisect_commit_clear(struct bisect_commit *);

/*
 * The working tree.  bisect_tree_open() refuses a repository whose
 * tracked files have changes (they would be lost or measured), and keeps
 * where HEAD is; bisect_tree_checkout() moves the tree and a detached
 * HEAD to a commit; bisect_tree_close() puts HEAD (a branch, or a
 * detached commit) and the tree back as they were, undoing what builds
 * did to tracked files or wrote in their way.  Where HEAD was is kept in
 * the git directory while the tree is moved, so that a bisection killed
 * outright is put back by the next one: bisect_tree_left_at() is where
 * it left HEAD (NULL if none did), bisect_tree_head() where HEAD goes
 * back to, and bisect_tree_restore() says that it does, at close, even
 * if this bisection moves nothing (a refusal leaves it as it found it).
 * The tree is one bisection's from open to close: bisect_tree_open()
 * refuses one that another bisection holds, with *held (if not NULL)
 * set to 1.
 */
struct bisect_tree;
struct bisect_tree *bisect_tree_open(const char *repo, int *held,
	    char **cause);
int	bisect_tree_checkout(struct bisect_tree *, const char *id,
	    char **cause);
int	bisect_tree_close(struct bisect_tree *, char **cause);
const char *bisect_tree_head(const struct bisect_tree *);
const char *bisect_tree_left_at(const struct bisect_tree *);
void	bisect_tree_restore(struct bisect_tree *);

/*
 * The driver's constants, which bench/bisect replays.  The ends are
 * measured until the metric's levels there are BISECT_ENDS_T standard
 * errors apart (Student's t), with at most BISECT_ENDS_MAX runs each;
 * they must differ at q <= BISECT_ENDS_Q across the metrics; a commit
 * between is called good or bad at error rates BISECT_ALPHA (a good one
 * called bad) and BISECT_BETA.  bench/README.md ("bisect") has what
 * they do: at 3 sds between the levels the first version (three runs
 * at each end, five a commit) named the first bad commit in 32.5% of
 * searches, this one in 92.4%.
 */
#define BISECT_ENDS_T		6.0
#define BISECT_ENDS_MAX		10
#define BISECT_ENDS_Q		0.01
#define BISECT_ALPHA		0.01
#define BISECT_BETA		0.01

/*
 * Whether the ends need a run more each, having runs each (at most
 * most): always below two (no noise to judge by); else while the metric
 * found is less than t_enough standard errors apart (t), or, with none
 * found, while the metric nearest to it that could still become one is
 * not clearly unchanged (its q, q_near, under 0.5).  The driver passes 1
 * for q_near when every metric worse at the bad end is shown to be worse
 * by less than the floor (bisect_ends_worse_bound).
 */
int	bisect_ends_more(size_t runs, size_t most, int found, double t,
	    double t_enough, double q_near);

/* search.c: a commit's state in the search. */
enum bisect_mark {
	BISECT_UNTESTED = 0,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,		/* no build, or its runs could not tell */
};

/*
 * The next commit of n (oldest first, the last one bad) to measure: the
 * untested one nearest the middle of those between the newest good and
 * the oldest bad, or -1 when none is left.  Then *first and *last
 * (indexes) bound where the first bad commit is: first == last when it
 * is known, a range of skipped commits and the bad one after them when
 * not.
 */
long	bisect_next(const enum bisect_mark *, size_t n, size_t *first,
	    size_t *last);
/* The search steps left at most: log2 of the candidates, rounded up. */
unsigned bisect_steps_left(const enum bisect_mark *, size_t n);

/*
 * Which end a commit's runs look like: a sequential probability ratio
 * test (Wald) between "at the good level" and "at the bad level".  With
 * df 0 each run's level is normal with the noise sd, and adds
 *
 *   (b - g) (x - (g + b) / 2) / sd^2,
 *
 * x its level clipped to within one gap of the two levels; with df > 0
 * it is Student's t with df degrees of freedom and scale sd, and adds
 *
 *   (df + 1) / 2 (log(1 + (x - g)^2 / (df sd^2))
 *                 - log(1 + (x - b)^2 / (df sd^2))),
 *
 * which tends to 0 for a run far from both.  The sum decides bad at
 * log((1 - beta) / alpha), good at log(beta / (1 - alpha)), else more
 * runs are needed; runs whose mean (clipped) lies within a quarter of
 * the gap from the middle never decide.
 */
struct bisect_sprt {
	double	good, bad;		/* the two ends' levels */
	double	sd;			/* the noise of a run's level */
	double	alpha, beta;		/* bad if good, good if bad */
	double	df;			/* > 0: Student's t likelihoods */
};

/* The degrees of freedom of the likelihood the driver uses. */
#define BISECT_T_DF		4.0
enum bisect_mark bisect_sprt_decide(const struct bisect_sprt *,
	    const double *levels, size_t n, double *llr);
/*
 * The side-by-side check of an answer: the differences bad - good of
 * pairs of runs of the last good and the first bad commit, measured
 * one right after the other, judged by the same test between no step
 * (0) and the ends' gap (bad - good), with the noise of a difference,
 * sqrt(2) times a run's.  BAD: the step is there, the answer holds;
 * GOOD: it is not; UNTESTED: undecided.
 */
enum bisect_mark bisect_side_decide(const struct bisect_sprt *,
	    const double *diffs, size_t n, double *llr);

/*
 * The noise of a run's level from the runs at both ends: the pooled sd
 * of the two groups' levels, taken at its one-sided upper confidence
 * bound (chi-square, conf 0.9) since few runs underrate it, and never
 * below floor (what one run's own samples show).  -1 with fewer than
 * three runs in all.
 */
int	bisect_noise(const double *good, size_t ng, const double *bad,
	    size_t nb, double floor, double *sd);
/*
 * Whether the ends differ: Student's t of the bad end's mean level less
 * the good end's over the pooled sd (never below floor), and its
 * two-sided p with ng + nb - 2 degrees of freedom.  -1 with fewer than
 * three runs in all.
 */
int	bisect_ends_test(const double *good, size_t ng, const double *bad,
	    size_t nb, double floor, double *t, double *p);
/*
 * How much worse the bad end may be, at most: the one-sided (1 - alpha)
 * upper confidence bound of the worsening (the bad end's mean level less
 * the good end's, or the other way round when higher is better), with
 * the standard error and df of bisect_ends_test, in percent of the good
 * end's mean.  A bound under the floor min_change shows that the ends
 * differ by less than a bisection looks for, however significant the
 * difference.  -1 with fewer than three runs in all or a good mean of 0.
 */
int	bisect_ends_worse_bound(const double *good, size_t ng,
	    const double *bad, size_t nb, double floor, int higher_better,
	    double alpha, double *bound);

#endif
