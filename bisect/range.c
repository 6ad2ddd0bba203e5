/*
 * The repository side of a bisection, with libgit2: the commits of a
 * range, and the working tree moved from commit to commit and put back.
 *
 * The range is the first-parent line of the bad commit back to the good
 * one (`git rev-list --first-parent GOOD..BAD`): on a history with
 * merges the search finds the merge that brought the change in, a
 * commit that built and ran as it was on the main line, where the
 * commits of a merged branch were each built on a base the main line
 * may no longer have.  Bisect within that branch next, with its own
 * range.
 *
 * The tree is moved as git bisect moves it: the commit is checked out
 * in place with HEAD detached, so that an incremental build rebuilds
 * only what changed, and files git does not track (build output) stay.
 * Tracked files with changes are refused at the start, as they would be
 * overwritten or measured with every commit; what a build changes in
 * them is undone before the tree moves on.
 *
 * Where HEAD was is written to BISECT_HEAD_FILE in the git directory
 * before the tree first moves, and removed once it is put back, as git
 * bisect keeps BISECT_START: a bisection killed outright (SIGKILL, the
 * OOM killer, a power cut) left HEAD detached at a commit half way,
 * and the next one took that for where to put it back, so the user's
 * branch was never checked out again, and nothing said so.  Each
 * checkout adds to it the commit it moves HEAD to and the one HEAD was
 * at: a HEAD detached elsewhere is the user's (a branch checked out as
 * the bisection advised, then a commit), and the file stale.  Any
 * detached HEAD was taken for where the dead one left it, and the
 * user's was moved onto the branch.
 *
 * A bisection holds BISECT_LOCK_FILE, beside it, locked (flock) from
 * bisect_tree_open() to bisect_tree_close(): the tree is one bisection's
 * at a time, and a second one is refused.  Without it the second took
 * the first's BISECT_HEAD_FILE for one that did not end, checked out and
 * built its own commits under the first's runs (stored as the first's
 * commits, and used again by every later bisection of them), and put
 * the tree back under it.  The kernel drops the lock however the holder
 * dies, so a BISECT_HEAD_FILE whose lock was free is one that did not
 * end.
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "xmalloc.h"
#include "bisect.h"

#define BISECT_HEAD_FILE	"perfwatch-bisect-head"
#define BISECT_LOCK_FILE	"perfwatch-bisect-head.lock"

struct bisect_tree {
	git_repository	*repo;
	char		*ref;		/* HEAD's branch, or NULL if detached */
	git_oid		 head;		/* HEAD's commit */
	char		 head_hex[BISECT_OID_HEX];
	char		*file;		/* BISECT_HEAD_FILE's path */
	char		 left[BISECT_OID_HEX]; /* where one that did not end
					   left HEAD, or "" */
	char		 at[BISECT_OID_HEX]; /* the commit HEAD is at */
	int		 moved;
	int		 restore;	/* put back what that one left */
	int		 lock;		/* BISECT_LOCK_FILE, held locked */
};

static int	bisect_git_ready;

static int	bisect_tree_lock(struct bisect_tree *, const char *, int *,
		    char **);
static int	bisect_tree_left(struct bisect_tree *, char **);
static int	bisect_tree_mark(struct bisect_tree *, const char *, char **);

static void
bisect_git_init(void)
{
	if (!bisect_git_ready) {
		git_libgit2_init();
		bisect_git_ready = 1;
	}
}

/* *cause = "what arg: libgit2's last message"; returns -1. */
static int
bisect_git_error(char **cause, const char *what, const char *arg)
{
	const git_error	*e = git_error_last();

	xasprintf(cause, "%s%s%s: %s", what, arg != NULL ? " " : "",
	    arg != NULL ? arg : "", e != NULL && e->message != NULL ?
	    e->message : "unknown libgit2 error");
	return -1;
}

static int
bisect_open(git_repository **repo, const char *path, char **cause)
{
	bisect_git_init();
	if (git_repository_open_ext(repo, path, 0, NULL) < 0)
		return bisect_git_error(cause, "not a git repository:", path);
	if (git_repository_is_bare(*repo)) {
		xasprintf(cause, "%s: a bare repository has no working tree "
		    "to build", path);
		git_repository_free(*repo);
		*repo = NULL;
		return -1;
	}
	return 0;
}

/* The commit a revision names. */
static int
bisect_resolve(git_repository *repo, const char *spec, git_oid *oid,
    char **cause)
{
	git_object	*obj = NULL, *commit = NULL;

	if (git_revparse_single(&obj, repo, spec) < 0)
		return bisect_git_error(cause, "no such revision:", spec);
	if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return bisect_git_error(cause, "not a commit:", spec);
	}
	git_oid_cpy(oid, git_object_id(commit));
	git_object_free(commit);
	git_object_free(obj);
	return 0;
}

static void
bisect_commit_fill(git_repository *repo, const git_oid *oid,
    struct bisect_commit *c)
{
	git_commit	*commit;
	const char	*s;

	git_oid_tostr(c->id, sizeof(c->id), oid);
	c->summary = NULL;
	if (git_commit_lookup(&commit, repo, oid) == 0) {
		if ((s = git_commit_summary(commit)) != NULL)
			c->summary = xstrdup(s);
		git_commit_free(commit);
	}
	if (c->summary == NULL)
		c->summary = xstrdup("");
}

/*
 * *cause for a good end that is not an ancestor of the bad one.  git
 * bisect measures their merge base first in such a case, and goes on
 * from it when it is good; the search here is over one line of commits,
 * so the message names that base for the user to measure and give as
 * the good end.
 */
static void
bisect_not_ancestor(git_repository *repo, const char *good, const char *bad,
    const git_oid *g, const git_oid *b, char **cause)
{
	struct bisect_commit	base;
	git_oid			oid;

	if (git_merge_base(&oid, repo, g, b) < 0) {
		xasprintf(cause, "the good commit %s is not an ancestor of "
		    "the bad one %s, and they have no commit in common",
		    good, bad);
		return;
	}
	bisect_commit_fill(repo, &oid, &base);
	xasprintf(cause, "the good commit %s is not an ancestor of the bad "
	    "one %s, and a bisection searches the line from one to the "
	    "other: their merge base is %.12s (%s); if it is good too, "
	    "bisect %.12s..%s (git bisect measures it first for you)",
	    good, bad, base.id, base.summary, base.id, bad);
	bisect_commit_clear(&base);
}

int
bisect_range(const char *path, const char *good, const char *bad,
    struct bisect_commit **out, size_t *nout, struct bisect_commit *good_out,
    char **cause)
{
	git_repository		*repo = NULL;
	git_revwalk		*walk = NULL;
	git_oid			 g, b, oid;
	git_oid			*ids = NULL;
	struct bisect_commit	*list;
	size_t			 n = 0, cap = 0, i;
	int			 rc = -1, r;

	*out = NULL;
	*nout = 0;
	if (bisect_open(&repo, path, cause) == -1)
		return -1;
	if (bisect_resolve(repo, good, &g, cause) == -1 ||
	    bisect_resolve(repo, bad, &b, cause) == -1)
		goto out;
	if (git_oid_equal(&g, &b)) {
		xasprintf(cause, "%s and %s are the same commit", good, bad);
		goto out;
	}
	if ((r = git_graph_descendant_of(repo, &b, &g)) < 0) {
		bisect_git_error(cause, "reading the history", NULL);
		goto out;
	}
	if (r == 0) {
		if (git_graph_descendant_of(repo, &g, &b) == 1)
			xasprintf(cause, "the bad commit %s is an ancestor of "
			    "the good one %s: the range is GOOD..BAD, the "
			    "older commit first", bad, good);
		else
			bisect_not_ancestor(repo, good, bad, &g, &b, cause);
		goto out;
	}
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL) < 0 ||
	    git_revwalk_push(walk, &b) < 0 ||
	    git_revwalk_hide(walk, &g) < 0) {
		bisect_git_error(cause, "walking the history", NULL);
		goto out;
	}
	git_revwalk_simplify_first_parent(walk);
	while ((r = git_revwalk_next(&oid, walk)) == 0) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			ids = xreallocarray(ids, cap, sizeof(*ids));
		}
		git_oid_cpy(&ids[n++], &oid);
	}
	if (r != GIT_ITEROVER) {
		bisect_git_error(cause, "walking the history", NULL);
		goto out;
	}
	/* The walk gave bad first; the list is oldest first. */
	list = xcalloc(n, sizeof(*list));
	for (i = 0; i < n; i++)
		bisect_commit_fill(repo, &ids[n - 1 - i], &list[i]);
	bisect_commit_fill(repo, &g, good_out);
	*out = list;
	*nout = n;
	rc = 0;
out:
	free(ids);
	git_revwalk_free(walk);
	git_repository_free(repo);
	return rc;
}

int
bisect_range_submodules(const char *path, const char *good, const char *bad,
    char **names, char **cause)
{
	git_repository		*repo = NULL;
	git_commit		*gc = NULL, *bc = NULL;
	git_tree		*gt = NULL, *bt = NULL;
	git_diff		*diff = NULL;
	const git_diff_delta	*d;
	git_oid			 g, b;
	char			*all = NULL, *more;
	size_t			 i, n;
	int			 rc = -1, found = 0;

	*names = NULL;
	if (bisect_open(&repo, path, cause) == -1)
		return -1;
	if (git_oid_fromstr(&g, good) < 0 || git_oid_fromstr(&b, bad) < 0 ||
	    git_commit_lookup(&gc, repo, &g) < 0 ||
	    git_commit_lookup(&bc, repo, &b) < 0 ||
	    git_commit_tree(&gt, gc) < 0 || git_commit_tree(&bt, bc) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, gt, bt, NULL) < 0) {
		bisect_git_error(cause, "comparing the ends", NULL);
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		d = git_diff_get_delta(diff, i);
		if (d->old_file.mode != GIT_FILEMODE_COMMIT &&
		    d->new_file.mode != GIT_FILEMODE_COMMIT)
			continue;
		xasprintf(&more, "%s%s%s", all != NULL ? all : "",
		    all != NULL ? ", " : "", d->new_file.path != NULL ?
		    d->new_file.path : d->old_file.path);
		free(all);
		all = more;
		found++;
	}
	*names = all;
	rc = found;
out:
	git_diff_free(diff);
	git_tree_free(gt);
	git_tree_free(bt);
	git_commit_free(gc);
	git_commit_free(bc);
	git_repository_free(repo);
	return rc;
}

int
bisect_merged_branch(const char *path, const char *id,
    char base[BISECT_OID_HEX], char tip[BISECT_OID_HEX], char **cause)
{
	git_repository	*repo = NULL;
	git_commit	*c = NULL;
	git_oid		 oid, b;
	int		 rc = -1;

	if (bisect_open(&repo, path, cause) == -1)
		return -1;
	if (git_oid_fromstr(&oid, id) < 0 ||
	    git_commit_lookup(&c, repo, &oid) < 0) {
		bisect_git_error(cause, "commit", id);
		goto out;
	}
	rc = 0;
	if (git_commit_parentcount(c) < 2 ||
	    git_merge_base(&b, repo, git_commit_parent_id(c, 0),
	    git_commit_parent_id(c, 1)) < 0)
		goto out;
	git_oid_tostr(base, BISECT_OID_HEX, &b);
	git_oid_tostr(tip, BISECT_OID_HEX, git_commit_parent_id(c, 1));
	rc = 1;
out:
	git_commit_free(c);
	git_repository_free(repo);
	return rc;
}

void
bisect_commit_clear(struct bisect_commit *c)
{
	free(c->summary);
	c->summary = NULL;
}

void
bisect_commits_free(struct bisect_commit *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		bisect_commit_clear(&c[i]);
	free(c);
}

/* The first tracked file with changes, in *path; 1 if there is one. */
static int
bisect_tree_changed(git_repository *repo, char **path, char **cause)
{
	git_status_options	 opts;
	git_status_list		*list;
	const git_status_entry	*e;
	const char		*p;
	size_t			 i, n;

	git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
	opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	opts.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, repo, &opts) < 0)
		return bisect_git_error(cause, "reading the tree's status",
		    NULL);
	n = git_status_list_entrycount(list);
	for (i = 0; i < n; i++) {
		e = git_status_byindex(list, i);
		if (e->status == GIT_STATUS_CURRENT ||
		    (e->status & GIT_STATUS_IGNORED) != 0)
			continue;
		p = e->index_to_workdir != NULL ?
		    e->index_to_workdir->new_file.path :
		    e->head_to_index->new_file.path;
		*path = xstrdup(p != NULL ? p : "?");
		git_status_list_free(list);
		return 1;
	}
	git_status_list_free(list);
	return 0;
}

struct bisect_tree *
bisect_tree_open(const char *path, int *held, char **cause)
{
	struct bisect_tree	*t;
	git_reference		*head = NULL;
	char			*changed = NULL;
	int			 r;

	if (held != NULL)
		*held = 0;
	t = xcalloc(1, sizeof(*t));
	t->lock = -1;
	if (bisect_open(&t->repo, path, cause) == -1)
		goto fail;
	/* Before anything is read of the tree another may be moving. */
	if (bisect_tree_lock(t, path, held, cause) == -1)
		goto fail;
	if (git_repository_head(&head, t->repo) < 0) {
		bisect_git_error(cause, "reading HEAD of", path);
		goto fail;
	}
	if (!git_repository_head_detached(t->repo))
		t->ref = xstrdup(git_reference_name(head));
	git_oid_cpy(&t->head, git_reference_target(head));
	git_oid_tostr(t->head_hex, sizeof(t->head_hex), &t->head);
	memcpy(t->at, t->head_hex, sizeof(t->at));
	git_reference_free(head);
	xasprintf(&t->file, "%s%s", git_repository_path(t->repo),
	    BISECT_HEAD_FILE);
	if (bisect_tree_left(t, cause) == -1)
		goto fail;
	if ((r = bisect_tree_changed(t->repo, &changed, cause)) == -1)
		goto fail;
	/*
	 * Left by a bisection that did not end, the changes are most
	 * likely its build's; but they may be the user's since, so they
	 * are named, not undone.
	 */
	if (r == 1 && t->left[0] != '\0')
		xasprintf(cause, "%s: %s has changes that are not committed, "
		    "and HEAD is at %.12s, where a bisection that did not "
		    "end left it: if they are its build's, `git checkout -f "
		    "%s` puts the tree back", path, changed, t->left,
		    t->ref != NULL && strncmp(t->ref, "refs/heads/", 11) ==
		    0 ? t->ref + 11 : t->head_hex);
	else if (r == 1)
		xasprintf(cause, "%s: %s has changes that are not committed; "
		    "commit or stash them first (a bisection checks out "
		    "every commit it measures)", path, changed);
	if (r == 1) {
		free(changed);
		goto fail;
	}
	return t;
fail:
	if (t->lock != -1)
		close(t->lock);
	git_repository_free(t->repo);
	free(t->ref);
	free(t->file);
	free(t);
	return NULL;
}

/*
 * Lock BISECT_LOCK_FILE for this bisection, into t->lock, and write our
 * pid in it, which a bisection refused names.  flock(), not fcntl(): a
 * lock of the open file, which the kernel drops when the process ends
 * however it ends, and which a second open of the file conflicts with
 * in the same process too.  Close-on-exec, so that a build's or a run's
 * process left behind does not keep it.  The file is never removed: a
 * bisection that had opened it before it was removed would lock a file
 * nobody else sees, and run beside the next one.  *held (if not NULL)
 * is set when another bisection holds it.
 */
static int
bisect_tree_lock(struct bisect_tree *t, const char *repo, int *held,
    char **cause)
{
	char	*path, pid[32];
	ssize_t	 n;

	xasprintf(&path, "%s%s", git_repository_path(t->repo),
	    BISECT_LOCK_FILE);
	if ((t->lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1)
		goto err;
	if (flock(t->lock, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK)
			goto err;
		/* Empty if read just as the holder began writing it. */
		n = pread(t->lock, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		xasprintf(cause, "%s: another bisection is running in this "
		    "tree%s%s%s, and the tree is its own until it ends: "
		    "wait for it, or bisect in a clone of the repository",
		    repo, pid[0] != '\0' ? " (pid " : "", pid,
		    pid[0] != '\0' ? ")" : "");
		if (held != NULL)
			*held = 1;
		free(path);
		return -1;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	errno = EIO;		/* a short write sets none */
	if (ftruncate(t->lock, 0) == -1 ||
	    pwrite(t->lock, pid, strlen(pid), 0) != (ssize_t)strlen(pid))
		goto err;
	free(path);
	return 0;
err:
	xasprintf(cause, "%s: %s", path, strerror(errno));
	free(path);
	return -1;
}

/*
 * Where a bisection that did not end found HEAD, from BISECT_HEAD_FILE:
 * with HEAD still detached where it left it, that is where this one
 * puts it back, and t->left says where it was left.  With HEAD on a
 * branch, or detached at another commit than the two its last checkout
 * named (the one it moved HEAD to, the one HEAD was at), the user has
 * moved it since, and the file is stale.  A file of one line, from
 * before the checkouts were written in it, cannot tell: HEAD detached
 * is taken as left by it.
 */
static int
bisect_tree_left(struct bisect_tree *t, char **cause)
{
	git_reference	*ref, *target;
	FILE		*f;
	char		 line[1024], to[1024], from[1024];
	size_t		 len;
	git_oid		 oid;
	int		 r;

	if ((f = fopen(t->file, "r")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	if (fgets(to, sizeof(to), f) == NULL)
		to[0] = '\0';
	if (fgets(from, sizeof(from), f) == NULL)
		from[0] = '\0';
	fclose(f);
	len = strcspn(line, "\n");
	line[len] = '\0';
	to[strcspn(to, "\n")] = '\0';
	from[strcspn(from, "\n")] = '\0';
	if (t->ref != NULL || (to[0] != '\0' &&
	    strcmp(t->head_hex, to) != 0 && strcmp(t->head_hex, from) != 0)) {
		unlink(t->file);
		return 0;
	}
	if (strncmp(line, "refs/", 5) == 0) {
		if (git_reference_lookup(&ref, t->repo, line) < 0)
			goto bad;
		r = git_reference_resolve(&target, ref);
		git_reference_free(ref);
		if (r < 0)
			goto bad;
		git_oid_cpy(&oid, git_reference_target(target));
		git_reference_free(target);
		t->ref = xstrdup(line);
	} else if (len != BISECT_OID_HEX - 1 ||
	    git_oid_fromstr(&oid, line) < 0)
		goto bad;
	memcpy(t->left, t->head_hex, sizeof(t->left));
	git_oid_cpy(&t->head, &oid);
	git_oid_tostr(t->head_hex, sizeof(t->head_hex), &t->head);
	return 0;
bad:
	xasprintf(cause, "%s: a bisection that did not end left HEAD "
	    "detached, and where it was before (\"%s\") is not a branch or "
	    "commit; check out yours and remove the file", t->file, line);
	return -1;
}

/* The first file that a checkout cannot write, into *arg. */
static int
bisect_tree_conflict(git_checkout_notify_t why, const char *path,
    const git_diff_file *baseline, const git_diff_file *target,
    const git_diff_file *workdir, void *arg)
{
	char	**first = arg;

	(void)why;
	(void)baseline;
	(void)target;
	(void)workdir;
	if (*first == NULL && path != NULL)
		*first = xstrdup(path);
	return 0;
}

/*
 * Check out a commit's tree (oid NULL: HEAD's) with a checkout strategy;
 * leave HEAD alone.
 */
static int
bisect_tree_put(struct bisect_tree *t, const git_oid *oid, const char *hex,
    unsigned int strategy, char **cause)
{
	git_checkout_options	 opts;
	git_commit		*commit = NULL;
	const git_error		*e;
	char			*first = NULL;
	int			 r;

	if (oid != NULL && git_commit_lookup(&commit, t->repo, oid) < 0)
		return bisect_git_error(cause, "commit", hex);
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = strategy;
	opts.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT;
	opts.notify_cb = bisect_tree_conflict;
	opts.notify_payload = &first;
	if (commit != NULL)
		r = git_checkout_tree(t->repo, (const git_object *)commit,
		    &opts);
	else
		r = git_checkout_head(t->repo, &opts);
	git_commit_free(commit);
	if (r == GIT_ECONFLICT && first != NULL) {
		/*
		 * libgit2 says only "1 conflict prevents checkout".  The
		 * tracked files were put back first (bisect_tree_checkout),
		 * so what is in the way is a file git does not track: a
		 * build's output that a later commit tracks, or the user's.
		 * An ignored one is overwritten, as git checkout does.
		 */
		e = git_error_last();
		xasprintf(cause, "checking out %s: %s, which git does not "
		    "track, is where the commit has a file; move it away, "
		    "or if a build writes it, ignore it in .git/info/exclude "
		    "(%s)", hex, first, e != NULL && e->message != NULL ?
		    e->message : "a conflict prevents checkout");
		free(first);
		return -1;
	}
	free(first);
	if (r < 0)
		return bisect_git_error(cause, "checking out", hex);
	return 0;
}

/*
 * Write where HEAD goes back to to BISECT_HEAD_FILE before the tree
 * moves, with the commit it moves HEAD to and the one HEAD is at (a
 * kill between the checkout and HEAD's move leaves it there), whole (a
 * file beside it renamed) so that a crash leaves it or the one before.
 */
static int
bisect_tree_mark(struct bisect_tree *t, const char *to, char **cause)
{
	FILE	*f;
	char	*tmp;
	int	 bad;

	xasprintf(&tmp, "%s.tmp", t->file);
	if ((f = fopen(tmp, "w")) == NULL) {
		xasprintf(cause, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "%s\n%s\n%s\n", bisect_tree_head(t), to, t->at);
	bad = ferror(f);
	errno = 0;
	if (fclose(f) != 0 || bad || rename(tmp, t->file) == -1) {
		xasprintf(cause, "%s: %s", t->file, strerror(errno != 0 ?
		    errno : EIO));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

const char *
bisect_tree_left_at(const struct bisect_tree *t)
{
	return t->left[0] != '\0' ? t->left : NULL;
}

void
bisect_tree_restore(struct bisect_tree *t)
{
	t->restore = 1;
}

int
bisect_tree_checkout(struct bisect_tree *t, const char *hex, char **cause)
{
	git_oid	oid;

	if (git_oid_fromstr(&oid, hex) < 0)
		return bisect_git_error(cause, "commit id", hex);
	/*
	 * The commit checked out last first, forced: the tracked files had
	 * no changes at the start, so any they have now are its build's,
	 * which the next build would start from and the runs measure, or
	 * which would make the safe checkout below refuse ("1 conflict
	 * prevents checkout") where this commit changes the file.  Files git
	 * does not track stay; one in the way of a file this commit tracks
	 * still stops it, as it may be the user's.
	 */
	if (t->moved && bisect_tree_put(t, NULL, "HEAD", GIT_CHECKOUT_FORCE,
	    cause) == -1)
		return -1;
	if (bisect_tree_mark(t, hex, cause) == -1)
		return -1;
	t->moved = 1;
	if (bisect_tree_put(t, &oid, hex, GIT_CHECKOUT_SAFE, cause) == -1)
		return -1;
	if (git_repository_set_head_detached(t->repo, &oid) < 0)
		return bisect_git_error(cause, "detaching HEAD at", hex);
	snprintf(t->at, sizeof(t->at), "%s", hex);
	return 0;
}

const char *
bisect_tree_head(const struct bisect_tree *t)
{
	return t->ref != NULL ? t->ref : t->head_hex;
}

int
bisect_tree_close(struct bisect_tree *t, char **cause)
{
	int	rc = 0, put;

	if (t == NULL)
		return 0;
	/*
	 * Forced: the tracked files had no changes at the start, so any
	 * they have now, and any file in the way of one (a file a commit
	 * did not track, that its build wrote), are the bisection's; a safe
	 * checkout would keep them, or refuse and leave HEAD detached.
	 * A tree that a bisection killed outright left is put back too
	 * once this one has said so (bisect_tree_restore), whether or not
	 * it moved it: one that measured nothing (every run already in the
	 * store, a store it could not open) left it detached with the file.
	 */
	put = t->moved || (t->restore && t->left[0] != '\0');
	if (put) {
		if (bisect_tree_put(t, &t->head, t->head_hex,
		    GIT_CHECKOUT_FORCE, cause) == -1)
			rc = -1;
		else if (t->ref != NULL ?
		    git_repository_set_head(t->repo, t->ref) < 0 :
		    git_repository_set_head_detached(t->repo, &t->head) < 0)
			rc = bisect_git_error(cause, "putting HEAD back at",
			    bisect_tree_head(t));
	}
	/* Put back: no longer where to put it back. */
	if (rc == 0 && put)
		unlink(t->file);
	/* The tree is no longer ours: another bisection may have it. */
	close(t->lock);
	git_repository_free(t->repo);
	free(t->file);
	free(t->ref);
	free(t);
	return rc;
}
