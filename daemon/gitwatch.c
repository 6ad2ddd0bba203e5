/*
 * Watched git repositories: [git "name"] sections with a path, a branch,
 * a build command and the workloads that use the build.
 *
 * Every [triggers] git_poll the branch's ref is read with libgit2 (no git
 * binary needed; reading a ref is a few small reads, done in the loop).
 * When it points at a new commit, the build is queued (work.c runs it in
 * the repository, one thing at a time, never beside a battery), and
 * after a successful build a battery of the listed workloads that
 * records the commit id.  The last commit dealt with is kept in the
 * store's settings ("git:NAME"): the commit found at the first look, then
 * each commit once its battery has run or its build has failed
 * (gitwatch_done()).  A commit made while the daemon was down, or one
 * whose build or battery was still queued or running when it stopped, is
 * therefore measured when it comes back.  The commit seen last is kept in
 * memory, across reloads too, so that a poll does not queue it twice.
 *
 * The store's commit follows the order in which the commits were seen,
 * not their ancestry.  A commit's battery runs before the next build of
 * its tree (work.c), so it measures that commit's build; should an older
 * commit still be dealt with after the newest one seen is kept
 * (seen_kept), it does not replace it, or a restart would build the
 * newer one again.  A branch
 * forced back to an older commit is a change like any other: that commit
 * is seen last, so it is built, measured and kept.  (An ancestry rule,
 * git_graph_descendant_of, would refuse to keep it, and every restart
 * would measure it again; and it walks history inside the loop.)  Only
 * the commit seen last counts: a restart measures the branch's commit
 * when the store has any other.
 *
 * Every battery records, besides the commit it was queued for, the commit
 * each watched tree holds the build of (gitwatch's inplace): the commit
 * seen when there is no build command, else the one found at the first
 * look and then the last one built.  So two nightly runs that straddle a
 * new commit say so, and an alert between them names the tree
 * (detect_git_moved), whether or not that commit's own battery ran.
 *
 * The build runs in the repository's working tree as it is: watch the
 * branch that is checked out there (a dedicated clone that something else
 * pulls into), or name a full ref such as refs/remotes/origin/main and
 * let the build command check it out.  Either way the tree's HEAD after
 * the build must be the branch or the commit built (gitwatch_holds()):
 * another branch left checked out is not measured as this one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <git2.h>
#include <jansson.h>

#include "json.h"
#include "log.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "store/store.h"
#include "daemon.h"

/* The store setting that keeps a repository's last commit. */
static char *
gitwatch_setting(const struct gitwatch *g)
{
	char	*key;

	xasprintf(&key, "git:%s", g->name);
	return key;
}

static void
gitwatch_free(struct gitwatch *g)
{
	size_t	i;

	free(g->name);
	free(g->path);
	free(g->ref);
	free(g->build);
	free(g->error);
	for (i = 0; i < g->nglobs; i++)
		free(g->globs[i]);
	free(g->globs);
	free(g);
}

/*
 * Read the commit of the branch (or of the ref, peeled: an annotated tag
 * names a tag object); queue a build or a run if it moved.
 */
static void
gitwatch_check(struct daemon *d, struct gitwatch *g)
{
	git_repository	*repo = NULL;
	git_reference	*ref = NULL;
	git_object	*commit = NULL;
	const git_error	*e;
	git_oid		 oid;
	char		 hex[GIT_OID_HEXSZ + 1];
	const char	*why;

	g->checked = time(NULL);
	if (git_repository_open_ext(&repo, g->path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_reference_lookup(&ref, repo, g->ref) < 0 ||
	    git_reference_peel(&commit, ref, GIT_OBJECT_COMMIT) < 0) {
		e = git_error_last();
		why = e != NULL && e->message != NULL ? e->message :
		    "cannot read the ref";
		if (!g->failing) {
			log_warnx("git %s: %s: %s", g->name, g->path, why);
			g->failing_since = g->checked;
		}
		/* The latest reason, for perfwatch status. */
		free(g->error);
		g->error = xstrdup(why);
		g->failing = 1;
		git_reference_free(ref);
		git_repository_free(repo);
		return;
	}
	git_oid_cpy(&oid, git_object_id(commit));
	git_object_free(commit);
	git_reference_free(ref);
	/* Said once: a build needs a working tree to build in. */
	if (!g->looked && g->build != NULL && git_repository_is_bare(repo))
		log_warnx("git %s: %s is a bare repository: its build runs "
		    "there, without a working tree to build", g->name,
		    g->path);
	git_repository_free(repo);
	if (g->failing)
		log_info("git %s: readable again", g->name);
	g->failing = 0;
	free(g->error);
	g->error = NULL;
	git_oid_tostr(hex, sizeof(hex), &oid);
	/*
	 * Without a build command the tree is measured as it is; with one,
	 * as found at the first look (taken to be built), then as each
	 * successful build leaves it (work.c).
	 */
	if (g->build == NULL)
		snprintf(g->inplace, sizeof(g->inplace), "%s", hex);
	else if (!g->looked && g->built[0] != '\0')
		/*
		 * The store knows what was built last: the commit kept as
		 * dealt with may be one whose build failed, and that was
		 * taken for built after a restart.
		 */
		snprintf(g->inplace, sizeof(g->inplace), "%s", g->built);
	else if (!g->looked &&
	    (g->seen[0] == '\0' || strcmp(hex, g->seen) == 0))
		snprintf(g->inplace, sizeof(g->inplace), "%s", hex);
	g->looked = 1;
	if (strcmp(hex, g->seen) == 0)
		return;
	if (g->seen[0] == '\0') {
		/* The first look: nothing to measure, only where it is. */
		log_info("git %s: watching %s of %s, at %.12s", g->name,
		    g->ref, g->path, hex);
		snprintf(g->seen, sizeof(g->seen), "%s", hex);
		gitwatch_done(d, g->name, hex);
		return;
	}
	log_info("git %s: %s moved from %.12s to %.12s", g->name, g->ref,
	    g->seen, hex);
	snprintf(g->seen, sizeof(g->seen), "%s", hex);
	g->seen_kept = 0;
	if (g->build != NULL)
		work_want_build(d, g->name, hex);
	else
		work_want_run(d, "git", hex, g->globs, g->nglobs, g->name,
		    hex);
}

static void
gitwatch_poll(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;
	struct gitwatch	*g;

	(void)fd;
	(void)ev;
	LIST_FOREACH(g, &d->gits, entry)
		gitwatch_check(d, g);
}

/*
 * A commit of repository name has been dealt with: its battery ran, or
 * its build failed.  Keep it as the last one, so that a restart does not
 * measure it again; unless it is not the commit seen last and that one
 * is kept already (see the notes at the top).
 */
void
gitwatch_done(struct daemon *d, const char *name, const char *commit)
{
	struct gitwatch	*g;
	char		*key;
	int		 last;

	g = gitwatch_find(d, name);
	last = g != NULL && strcmp(commit, g->seen) == 0;
	if (g != NULL && !last && g->seen_kept) {
		log_debug("git %s: %.12s dealt with after %.12s, which stays "
		    "the last", name, commit, g->seen);
		return;
	}
	xasprintf(&key, "git:%s", name);
	/* Kept for later, behind a lock, it is as good as saved here. */
	if (daemon_setting_set(d, key, commit) == -1)
		log_warnx("git %s: cannot save its commit: %s", name,
		    store_errmsg(d->st));
	else if (last)
		g->seen_kept = 1;
	free(key);
}

/*
 * A build of g's tree at commit succeeded: the tree holds it, and the
 * store keeps it, so that a restart knows it from the commit last dealt
 * with (whose build may have failed).
 */
void
gitwatch_built(struct daemon *d, struct gitwatch *g, const char *commit)
{
	char	*key;

	snprintf(g->inplace, sizeof(g->inplace), "%s", commit);
	snprintf(g->built, sizeof(g->built), "%s", commit);
	xasprintf(&key, "git:%s:built", g->name);
	if (daemon_setting_set(d, key, commit) == -1)
		log_warnx("git %s: cannot save the commit built: %s", g->name,
		    store_errmsg(d->st));
	free(key);
}

/*
 * After a successful build of g at commit: return 0 if the working tree
 * holds it, -1 with why in *cause if it holds another commit, -2 with
 * why if its HEAD cannot be read (a build that left it unborn, a
 * damaged repository).  The build runs in the tree as
 * it is, and one checked out on another branch built that branch, then
 * measured and recorded as the watched branch's commit.  The tree holds
 * it when its HEAD is that commit (read after the build, so a build that
 * checks the commit out itself passes) or is the watched branch, which
 * may have moved on during the build: its next commit is built next.  A
 * tree that holds another commit holds its build: that one is kept as
 * built (gitwatch_built()).
 */
int
gitwatch_holds(struct daemon *d, struct gitwatch *g, const char *commit,
    char **cause)
{
	git_repository	*repo = NULL;
	git_reference	*head = NULL;
	git_object	*obj = NULL;
	const git_error	*e;
	char		 hex[GIT_OID_HEXSZ + 1];
	int		 rc = -1;

	if (git_repository_open_ext(&repo, g->path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_repository_head(&head, repo) < 0 ||
	    git_reference_peel(&obj, head, GIT_OBJECT_COMMIT) < 0) {
		e = git_error_last();
		xasprintf(cause, "cannot read the tree's HEAD: %s",
		    e != NULL && e->message != NULL ? e->message :
		    "unknown error");
		rc = -2;
	} else {
		git_oid_tostr(hex, sizeof(hex), git_object_id(obj));
		if (strcmp(hex, commit) == 0 ||
		    strcmp(git_reference_name(head), g->ref) == 0)
			rc = 0;
		else {
			xasprintf(cause, "the tree holds %.12s, not %.12s",
			    hex, commit);
			gitwatch_built(d, g, hex);
		}
	}
	git_object_free(obj);
	git_reference_free(head);
	git_repository_free(repo);
	return rc;
}

/* Read the [git] sections, with the last commit the store keeps. */
static void
gitwatch_load(struct daemon *d)
{
	struct gitwatch	*g;
	const char	*name, *branch, *build;
	char		*section, **list, *key, *seen;
	size_t		 i, n;

	LIST_INIT(&d->gits);
	for (i = 0; (name = config_sections(d->cfg, "git", i)) != NULL;
	    i++) {
		xasprintf(&section, "git %s", name);
		g = xcalloc(1, sizeof(*g));
		g->name = xstrdup(name);
		g->path = xstrdup(config_get_str(d->cfg, section, "path"));
		branch = config_get_str(d->cfg, section, "branch");
		if (strncmp(branch, "refs/", 5) == 0)
			g->ref = xstrdup(branch);
		else
			xasprintf(&g->ref, "refs/heads/%s", branch);
		if ((build = config_get_str(d->cfg, section, "build")) != NULL)
			g->build = xstrdup(build);
		g->build_timeout = config_get_duration(d->cfg, section,
		    "build_timeout");
		list = config_get_list(d->cfg, section, "workloads");
		for (n = 0; list[n] != NULL; n++)
			;
		if (n > 0) {
			g->globs = list;
			g->nglobs = n;
		} else
			config_list_free(list);
		key = gitwatch_setting(g);
		if (daemon_setting_get(d, key, &seen) == 0) {
			if (strlen(seen) < sizeof(g->seen)) {
				snprintf(g->seen, sizeof(g->seen), "%s",
				    seen);
				g->seen_kept = 1;
			}
			free(seen);
		}
		free(key);
		xasprintf(&key, "git:%s:built", g->name);
		if (daemon_setting_get(d, key, &seen) == 0) {
			if (strlen(seen) < sizeof(g->built))
				snprintf(g->built, sizeof(g->built), "%s",
				    seen);
			free(seen);
		}
		free(key);
		free(section);
		LIST_INSERT_HEAD(&d->gits, g, entry);
	}
}

/* Look at each repository now, then every git_poll. */
static void
gitwatch_begin(struct daemon *d)
{
	struct timeval	 tv = { 0, 0 };

	if (LIST_EMPTY(&d->gits))
		return;
	if (!d->git_ready) {
		git_libgit2_init();
#if LIBGIT2_VER_MAJOR > 1 || \
    (LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR >= 5)
		/*
		 * The daemon's user rarely owns the trees it watches.  The
		 * owner check guards against running a stranger's hooks and
		 * filters; reading a ref runs neither, and the build command
		 * is the administrator's own.
		 */
		git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
#endif
		d->git_ready = 1;
	}
	gitwatch_poll(-1, 0, d);
	tv.tv_sec = (time_t)config_get_duration(d->cfg, "triggers",
	    "git_poll");
	d->git_timer = event_new(d->base, -1, EV_PERSIST, gitwatch_poll, d);
	event_add(d->git_timer, &tv);
}

/* Read the [git] sections, look at each repository now, then poll. */
void
gitwatch_start(struct daemon *d)
{
	gitwatch_load(d);
	gitwatch_begin(d);
}

/*
 * SIGHUP: read the [git] sections again.  A repository still watched at
 * the same path and ref keeps the commit seen last, which the store does
 * not have while its build or battery waits: it is not queued twice; and
 * whether it could be read at the last look.
 */
void
gitwatch_reload(struct daemon *d)
{
	struct gitwatch	*g, *o;
	struct gitwatches old;

	/* Move the old list aside (its head is not copied, its items are). */
	LIST_INIT(&old);
	while ((g = LIST_FIRST(&d->gits)) != NULL) {
		LIST_REMOVE(g, entry);
		LIST_INSERT_HEAD(&old, g, entry);
	}
	if (d->git_timer != NULL) {
		event_free(d->git_timer);
		d->git_timer = NULL;
	}
	gitwatch_load(d);
	LIST_FOREACH(g, &d->gits, entry) {
		LIST_FOREACH(o, &old, entry) {
			if (strcmp(o->name, g->name) != 0 ||
			    strcmp(o->path, g->path) != 0 ||
			    strcmp(o->ref, g->ref) != 0)
				continue;
			if (o->seen[0] != '\0') {
				memcpy(g->seen, o->seen, sizeof(g->seen));
				g->seen_kept = o->seen_kept;
				memcpy(g->inplace, o->inplace,
				    sizeof(g->inplace));
				memcpy(g->built, o->built, sizeof(g->built));
				g->looked = o->looked;
			}
			/*
			 * A tree that could not be read is still failing,
			 * since then: not warned of again, and said to be
			 * readable again when it is.
			 */
			g->failing = o->failing;
			g->failing_since = o->failing_since;
			g->checked = o->checked;
			g->error = o->error;
			o->error = NULL;
			break;
		}
	}
	while ((o = LIST_FIRST(&old)) != NULL) {
		LIST_REMOVE(o, entry);
		gitwatch_free(o);
	}
	gitwatch_begin(d);
}

void
gitwatch_stop(struct daemon *d)
{
	struct gitwatch	*g;

	if (d->git_timer != NULL) {
		event_free(d->git_timer);
		d->git_timer = NULL;
	}
	while ((g = LIST_FIRST(&d->gits)) != NULL) {
		LIST_REMOVE(g, entry);
		gitwatch_free(g);
	}
}

struct gitwatch *
gitwatch_find(struct daemon *d, const char *name)
{
	struct gitwatch	*g;

	LIST_FOREACH(g, &d->gits, entry)
		if (strcmp(g->name, name) == 0)
			return g;
	return NULL;
}

/*
 * Each watched tree for the status reply, in the order of the file: its
 * name, path and ref, the commit seen last (null before the first; the
 * store's when this process has not read it yet), the one whose build
 * the tree holds (with a build command), when it was last looked at,
 * and while it cannot be read, why and since when.
 */
json_t *
gitwatch_status_json(struct daemon *d)
{
	struct gitwatch	*g;
	json_t		*arr = pwjson_array(), *o;
	char		 t[32];

	/* The list is built head first: walk it back to the file's order. */
	LIST_FOREACH(g, &d->gits, entry) {
		o = pwjson_object();
		pwjson_set_str(o, "name", g->name);
		pwjson_set_str(o, "path", g->path);
		pwjson_set_str(o, "ref", g->ref);
		pwjson_set_str(o, "commit", g->seen[0] != '\0' ? g->seen :
		    NULL);
		/* Null without a build command, as a key without value. */
		pwjson_set_str(o, "built", g->build != NULL &&
		    g->inplace[0] != '\0' ? g->inplace : NULL);
		pwjson_set_str(o, "checked", g->checked > 0 &&
		    timefmt_format(g->checked, t, sizeof(t)) == 0 ? t : NULL);
		pwjson_set_str(o, "error", g->failing ? g->error : NULL);
		pwjson_set_str(o, "failing_since", g->failing &&
		    timefmt_format(g->failing_since, t, sizeof(t)) == 0 ? t :
		    NULL);
		json_array_insert_new(arr, 0, o);
	}
	return arr;
}
