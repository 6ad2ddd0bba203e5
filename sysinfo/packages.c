/*
 * Package databases: which packages are installed, at which version, for
 * which architecture.
 *
 * dpkg	    read <admindir>/status directly, then the journal files in
 *	    <admindir>/updates/ in numeric order, exactly as dpkg does before
 *	    it trusts the database; a package counts when its files are on
 *	    disk (Status word other than not-installed and config-files).
 *	    A journal record takes the place of the one instance of its
 *	    name, whatever that instance's arch, as dpkg does for a
 *	    cross-grade (dpkg_slot).
 * pacman   read <dbpath>/local/<name>-<version>/desc.
 * rpm	    run "rpm -qa" with a query format of our own (RPM_QUERYFORMAT);
 *	    rpm's database is not a format to read by hand.
 * pkg	    run FreeBSD's "pkg query '%n %v %q'".
 *
 * The parsers take counted text and add to a snapshot; they are what the
 * unit tests feed with fixtures.  Every reader sorts what it found before
 * adding it, so the snapshot's insertion stays an append.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

#define RPM_QUERYFORMAT \
	"%{NAME}\\t%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\t%{ARCH}\\n"
#define PACKAGE_DB_MAX	(256 * 1024 * 1024)
#define PACKAGE_OUT_MAX	(64 * 1024 * 1024)

/* A package found in a database, pointing into its text. */
struct pkg_entry {
	const char	*name;
	size_t		 namelen;
	const char	*version;
	size_t		 versionlen;
	const char	*arch;
	size_t		 archlen;
	int		 installed;
	size_t		 seq;		/* later entries win (dpkg journal) */
	int		 instance;	/* dpkg: Status not "not-installed" */
	int		 masame;	/* dpkg: Multi-Arch: same */
	int		 journal;	/* dpkg: read from updates/ */
};

struct pkg_list {
	struct pkg_entry	*v;
	size_t			 n;
	size_t			 alloc;
};

static const struct {
	enum sysinfo_pkgmgr	 mgr;
	const char		*name;
} pkgmgr_names[] = {
	{ SYSINFO_PKG_AUTO, "auto" },
	{ SYSINFO_PKG_NONE, "none" },
	{ SYSINFO_PKG_DPKG, "dpkg" },
	{ SYSINFO_PKG_RPM, "rpm" },
	{ SYSINFO_PKG_PACMAN, "pacman" },
	{ SYSINFO_PKG_PKGNG, "pkg" },
};

const char *
sysinfo_pkgmgr_name(enum sysinfo_pkgmgr m)
{
	size_t	i;

	for (i = 0; i < nitems(pkgmgr_names); i++) {
		if (pkgmgr_names[i].mgr == m)
			return pkgmgr_names[i].name;
	}
	return "none";
}

/* Parse "auto", "none", "dpkg", "rpm", "pacman" or "pkg". */
int
sysinfo_pkgmgr_parse(const char *s, enum sysinfo_pkgmgr *m)
{
	size_t	i;

	for (i = 0; i < nitems(pkgmgr_names); i++) {
		if (strcmp(pkgmgr_names[i].name, s) == 0) {
			*m = pkgmgr_names[i].mgr;
			return 0;
		}
	}
	return -1;
}

static struct pkg_entry *
pkg_list_add(struct pkg_list *l)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc == 0 ? 1024 : l->alloc * 2;
		l->v = xreallocarray(l->v, l->alloc, sizeof(*l->v));
	}
	memset(&l->v[l->n], 0, sizeof(l->v[l->n]));
	l->v[l->n].seq = l->n;
	return &l->v[l->n++];
}

/* Compare counted strings in strcmp order. */
static int
pkg_memcmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int	c;

	c = memcmp(a, b, alen < blen ? alen : blen);
	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* Order: name, arch, version, then the order they were found in. */
static int
pkg_entry_cmp(const void *va, const void *vb)
{
	const struct pkg_entry	*a = va, *b = vb;
	int			 c;

	if ((c = pkg_memcmp(a->name, a->namelen, b->name, b->namelen)) != 0)
		return c;
	if ((c = pkg_memcmp(a->arch, a->archlen, b->arch, b->archlen)) != 0)
		return c;
	if ((c = pkg_memcmp(a->version, a->versionlen, b->version,
	    b->versionlen)) != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Sort the entries and add the installed ones. */
static void
pkg_list_commit(struct snapshot *s, struct pkg_list *l)
{
	struct pkg_entry	*e;
	size_t			 i;

	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), pkg_entry_cmp);
	for (i = 0; i < l->n; i++) {
		e = &l->v[i];
		if (e->installed)
			sysinfo_snapshot_add_package_n(s, e->name,
			    e->namelen, e->version, e->versionlen, e->arch,
			    e->archlen);
	}
}

/* Order for dpkg: name, then the order dpkg reads the records in. */
static int
dpkg_entry_cmp(const void *va, const void *vb)
{
	const struct pkg_entry	*a = va, *b = vb;
	int			 c;

	if ((c = pkg_memcmp(a->name, a->namelen, b->name, b->namelen)) != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Field name match, case-insensitive as in deb822. */
static int
dpkg_field_is(const char *p, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(p, name, n) == 0;
}

/*
 * Read a Status value ("want flag status") into e: whether dpkg counts
 * the package as an instance (any status but "not-installed") and
 * whether its files are on disk (neither that nor "config-files").
 */
static void
dpkg_status(const char *v, size_t n, struct pkg_entry *e)
{
	const char	*end = v + n, *w;
	size_t		 words = 0, wl = 0;

	w = v;
	while (v < end) {
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if (v == end)
			break;
		w = v;
		while (v < end && *v != ' ' && *v != '\t')
			v++;
		wl = (size_t)(v - w);
		words++;
	}
	e->instance = e->installed = 0;
	if (words != 3 || pkg_memcmp(w, wl, "not-installed", 13) == 0)
		return;
	e->instance = 1;
	e->installed = pkg_memcmp(w, wl, "config-files", 12) != 0;
}

/*
 * Keep the stanza just read, if it named a package.  dpkg records the
 * version of every package on disk: one without is a stanza cut short (a
 * database rewritten in place, read half-way), and recording it would
 * report a spurious change at the next run.
 */
static int
dpkg_finish(struct pkg_list *l, struct pkg_entry *cur, const char *path,
    size_t line, char **cause)
{
	struct pkg_entry	*e;

	if (cur->name == NULL)
		return 0;
	if (cur->version == NULL && cur->installed) {
		xasprintf(cause, "%s:%zu: package \"%.*s\" is installed but "
		    "has no Version (a database cut short?)", path, line,
		    (int)cur->namelen, cur->name);
		return -1;
	}
	if (cur->version == NULL)
		cur->version = "";
	if (cur->arch == NULL)
		cur->arch = "";
	e = pkg_list_add(l);
	cur->seq = e->seq;
	*e = *cur;
	return 0;
}

/* Parse the stanzas of one dpkg database file, path, into l. */
static int
dpkg_parse(const char *buf, size_t len, struct pkg_list *l, const char *path,
    char **cause)
{
	const char		*p = buf, *end = buf + len, *eol, *colon, *v,
				*ve;
	struct pkg_entry	 cur;
	size_t			 line = 0, start = 0;
	int			 have = 0;

	memset(&cur, 0, sizeof(cur));
	while (p <= end) {
		line++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		v = p;
		while (v < eol && (*v == ' ' || *v == '\t' || *v == '\r'))
			v++;
		if (v == eol) {
			/* A blank line ends the stanza. */
			if (have && dpkg_finish(l, &cur, path, start,
			    cause) == -1)
				return -1;
			memset(&cur, 0, sizeof(cur));
			have = 0;
		} else if (*p != ' ' && *p != '\t' &&
		    (colon = memchr(p, ':', (size_t)(eol - p))) != NULL) {
			if (!have)
				start = line;
			have = 1;
			v = colon + 1;
			ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' ||
			    ve[-1] == '\r'))
				ve--;
			if (dpkg_field_is(p, (size_t)(colon - p), "Package")) {
				cur.name = v;
				cur.namelen = (size_t)(ve - v);
			} else if (dpkg_field_is(p, (size_t)(colon - p),
			    "Version")) {
				cur.version = v;
				cur.versionlen = (size_t)(ve - v);
			} else if (dpkg_field_is(p, (size_t)(colon - p),
			    "Architecture")) {
				cur.arch = v;
				cur.archlen = (size_t)(ve - v);
			} else if (dpkg_field_is(p, (size_t)(colon - p),
			    "Multi-Arch"))
				cur.masame = ve - v == 4 &&
				    strncasecmp(v, "same", 4) == 0;
			else if (dpkg_field_is(p, (size_t)(colon - p),
			    "Status"))
				dpkg_status(v, (size_t)(ve - v), &cur);
		}
		p = eol + 1;
	}
	if (have)
		return dpkg_finish(l, &cur, path, start, cause);
	return 0;
}

/* Journal file names are all digits; sort them by number. */
static int
dpkg_update_cmp(const void *va, const void *vb)
{
	const char	*a = *(char *const *)va, *b = *(char *const *)vb;
	size_t		 al = strlen(a), bl = strlen(b);

	while (al > 1 && *a == '0') {
		a++;
		al--;
	}
	while (bl > 1 && *b == '0') {
		b++;
		bl--;
	}
	if (al != bl)
		return al < bl ? -1 : 1;
	return strcmp(a, b);
}

/* The names of <admindir>/updates/<digits>, sorted; 0 if none. */
static size_t
dpkg_updates(const char *admindir, char ***names)
{
	struct dirent	*de;
	DIR		*d;
	char		*dir, **v = NULL;
	size_t		 n = 0;

	*names = NULL;
	xasprintf(&dir, "%s/updates", admindir);
	d = opendir(dir);
	free(dir);
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '\0' ||
		    strspn(de->d_name, "0123456789") != strlen(de->d_name))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), dpkg_update_cmp);
	*names = v;
	return n;
}

/*
 * The slot among the n slots of one name, v[0..n), that dpkg gives the
 * record e, or n for a new one.  The status file has a slot per arch.
 * A journal record goes to the arch's slot too, except when the name has
 * exactly one instance (a Status other than not-installed) and the two
 * are not both Multi-Arch: same: then it replaces that instance whatever
 * its arch, for that is a cross-grade (amd64 to all, say), and keeping
 * both would list a package dpkg no longer has.  A slot of the arch that is
 * an instance is preferred to one that is not (a selection left behind
 * when a cross-grade moved the instance onto its arch).
 */
static size_t
dpkg_slot(const struct pkg_entry *v, size_t n, const struct pkg_entry *e)
{
	size_t	i, found = n, ninst = 0, inst = 0;

	for (i = 0; i < n; i++) {
		if (v[i].instance) {
			ninst++;
			inst = i;
		}
	}
	if (e->journal && ninst == 1 && !(v[inst].masame && e->masame))
		return inst;
	for (i = 0; i < n; i++) {
		if (pkg_memcmp(v[i].arch, v[i].archlen, e->arch,
		    e->archlen) == 0 && (found == n || v[i].instance))
			found = i;
	}
	return found;
}

/*
 * Whether admindir holds a dpkg database that records packages: a status
 * file with something in it.  Fedora's dpkg package (to build .debs,
 * for debootstrap) brings an empty /var/lib/dpkg/status: there the
 * machine's packages are rpm's, and a snapshot of dpkg's would list none
 * of them.
 */
int
sysinfo_dpkg_in_use(const char *admindir)
{
	struct stat	 st;
	char		*path;
	int		 rc;

	xasprintf(&path, "%s/status", admindir);
	rc = stat(path, &st) == 0 && st.st_size > 0;
	free(path);
	return rc;
}

/*
 * Read dpkg's database under admindir (normally /var/lib/dpkg): status and
 * then its pending journal entries.  Adds the packages and sets
 * pkg.manager.
 */
int
sysinfo_dpkg_read(struct snapshot *s, const char *admindir, char **cause)
{
	struct pkg_list	  l = { NULL, 0, 0 };
	struct pkg_entry  e;
	const char	 *name;
	char		 *path, **texts = NULL, **updates = NULL;
	size_t		  len, nupdates, ntexts = 0, i, j, first, keep,
			  namelen, nslots, slot;
	int		  rc = -1;

	xasprintf(&path, "%s/status", admindir);
	texts = xreallocarray(NULL, 1, sizeof(*texts));
	if (sysinfo_read_file(path, PACKAGE_DB_MAX, &texts[0], &len) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		free(texts);
		return -1;
	}
	ntexts = 1;
	if (dpkg_parse(texts[0], len, &l, path, cause) == -1) {
		free(path);
		nupdates = 0;
		goto out;
	}
	free(path);

	nupdates = dpkg_updates(admindir, &updates);
	for (i = 0; i < nupdates; i++) {
		xasprintf(&path, "%s/updates/%s", admindir, updates[i]);
		texts = xreallocarray(texts, ntexts + 1, sizeof(*texts));
		if (sysinfo_read_file(path, PACKAGE_DB_MAX, &texts[ntexts],
		    &len) == -1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			free(path);
			goto out;
		}
		ntexts++;
		first = l.n;
		if (dpkg_parse(texts[ntexts - 1], len, &l, path,
		    cause) == -1) {
			free(path);
			goto out;
		}
		free(path);
		for (j = first; j < l.n; j++)
			l.v[j].journal = 1;
	}

	/*
	 * Replay each name's records in the order dpkg reads them, into the
	 * slots dpkg_slot chooses.  The slots of a name are written over its
	 * records from l.v[keep] on: there are never more slots than records
	 * read, so a record is copied out before its place is taken.
	 */
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), dpkg_entry_cmp);
	keep = 0;
	for (i = 0; i < l.n; i = j) {
		name = l.v[i].name;
		namelen = l.v[i].namelen;
		nslots = 0;
		for (j = i; j < l.n && pkg_memcmp(name, namelen, l.v[j].name,
		    l.v[j].namelen) == 0; j++) {
			e = l.v[j];
			slot = dpkg_slot(&l.v[keep], nslots, &e);
			if (slot == nslots)
				nslots++;
			l.v[keep + slot] = e;
		}
		keep += nslots;
	}
	l.n = keep;
	pkg_list_commit(s, &l);
	sysinfo_snapshot_set(s, "pkg.manager", "dpkg");
	rc = 0;
out:
	for (i = 0; i < nupdates; i++)
		free(updates[i]);
	free(updates);
	for (i = 0; i < ntexts; i++)
		free(texts[i]);
	free(texts);
	free(l.v);
	return rc;
}

/* The first value line of section %key% in a pacman desc file, or NULL. */
static const char *
pacman_value(const char *text, const char *key, size_t *len)
{
	const char	*p = text, *eol;
	size_t		 kl = strlen(key);

	while (*p != '\0') {
		eol = p + strcspn(p, "\n");
		if (*p == '%' && (size_t)(eol - p) == kl + 2 &&
		    strncmp(p + 1, key, kl) == 0 && p[kl + 1] == '%') {
			if (*eol == '\0')
				return NULL;
			p = eol + 1;
			eol = p + strcspn(p, "\n");
			*len = (size_t)(eol - p);
			while (*len > 0 && p[*len - 1] == '\r')
				(*len)--;
			return *len > 0 ? p : NULL;
		}
		p = *eol == '\0' ? eol : eol + 1;
	}
	return NULL;
}

/*
 * Read pacman's local database under dbpath (normally /var/lib/pacman):
 * one directory per package with a desc file of %NAME%, %VERSION%, %ARCH%
 * sections.
 */
int
sysinfo_pacman_read(struct snapshot *s, const char *dbpath, char **cause)
{
	struct pkg_list	  l = { NULL, 0, 0 };
	struct pkg_entry *e;
	struct dirent	 *de;
	struct stat	  st;
	DIR		 *d;
	char		 *dir, *path, **texts = NULL, *t;
	const char	 *name, *version, *arch;
	size_t		  ntexts = 0, nl, vl, al, i;
	int		  rc = -1;

	xasprintf(&dir, "%s/local", dbpath);
	if ((d = opendir(dir)) == NULL) {
		xasprintf(cause, "%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode)) {
			free(path);	/* ALPM_DB_VERSION and the like */
			continue;
		}
		free(path);
		xasprintf(&path, "%s/%s/desc", dir, de->d_name);
		if (sysinfo_read_file(path, PACKAGE_DB_MAX, &t, NULL) == -1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			free(path);
			goto out;
		}
		texts = xreallocarray(texts, ntexts + 1, sizeof(*texts));
		texts[ntexts++] = t;
		name = pacman_value(t, "NAME", &nl);
		version = pacman_value(t, "VERSION", &vl);
		arch = pacman_value(t, "ARCH", &al);
		if (name == NULL || version == NULL) {
			xasprintf(cause, "%s: no %%NAME%% or %%VERSION%%",
			    path);
			free(path);
			goto out;
		}
		free(path);
		e = pkg_list_add(&l);
		e->name = name;
		e->namelen = nl;
		e->version = version;
		e->versionlen = vl;
		e->arch = arch != NULL ? arch : "";
		e->archlen = arch != NULL ? al : 0;
		e->installed = 1;
	}
	pkg_list_commit(s, &l);
	sysinfo_snapshot_set(s, "pkg.manager", "pacman");
	rc = 0;
out:
	closedir(d);
	free(dir);
	for (i = 0; i < ntexts; i++)
		free(texts[i]);
	free(texts);
	free(l.v);
	return rc;
}

/*
 * Parse lines of exactly three blank-separated columns, name version
 * arch, as both our rpm query format and "pkg query '%n %v %q'" print
 * them.  Empty lines are skipped; anything else is an error.
 */
static int
columns_parse(struct snapshot *s, const char *what, const char *text,
    size_t len, char **cause)
{
	struct pkg_list	  l = { NULL, 0, 0 };
	struct pkg_entry *e;
	const char	 *p = text, *end = text + len, *eol, *col[4];
	size_t		  collen[4], line = 0;
	int		  n;

	while (p < end) {
		line++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		n = 0;
		while (p < eol) {
			while (p < eol && (*p == ' ' || *p == '\t' ||
			    *p == '\r'))
				p++;
			if (p == eol)
				break;
			if (n == 4)
				break;
			col[n] = p;
			while (p < eol && *p != ' ' && *p != '\t' && *p != '\r')
				p++;
			collen[n] = (size_t)(p - col[n]);
			n++;
		}
		if (n != 0 && n != 3) {
			xasprintf(cause, "%s: line %zu: expected name, version "
			    "and arch", what, line);
			free(l.v);
			return -1;
		}
		if (n == 3) {
			e = pkg_list_add(&l);
			e->name = col[0];
			e->namelen = collen[0];
			e->version = col[1];
			e->versionlen = collen[1];
			e->arch = col[2];
			e->archlen = collen[2];
			e->installed = 1;
		}
		p = eol + 1;
	}
	pkg_list_commit(s, &l);
	free(l.v);
	return 0;
}

/* Parse the output of rpm -qa --qf RPM_QUERYFORMAT. */
int
sysinfo_rpm_parse(struct snapshot *s, const char *text, size_t len,
    char **cause)
{
	if (columns_parse(s, "rpm -qa", text, len, cause) == -1)
		return -1;
	sysinfo_snapshot_set(s, "pkg.manager", "rpm");
	return 0;
}

/* Parse the output of pkg query '%n %v %q'. */
int
sysinfo_pkgng_parse(struct snapshot *s, const char *text, size_t len,
    char **cause)
{
	if (columns_parse(s, "pkg query", text, len, cause) == -1)
		return -1;
	sysinfo_snapshot_set(s, "pkg.manager", "pkg");
	return 0;
}

/* Run a package tool and hand its output to parse. */
static int
packages_run(struct snapshot *s, const char *const argv[], int timeout_ms,
    int (*parse)(struct snapshot *, const char *, size_t, char **),
    char **cause)
{
	char	*out;
	size_t	 len;
	int	 status, rc;

	if (sysinfo_command(argv, timeout_ms, PACKAGE_OUT_MAX, 0, &out, &len,
	    &status, cause) == -1)
		return -1;
	if (status != 0) {
		xasprintf(cause, "%s: exited with status %d", argv[0], status);
		free(out);
		return -1;
	}
	rc = parse(s, out, len, cause);
	free(out);
	return rc;
}

/* Read the packages of the manager opts names, or of the one found. */
int
sysinfo_packages_read(struct snapshot *s, const struct sysinfo_opts *o,
    char **cause)
{
	const char		*argv[8];
	enum sysinfo_pkgmgr	 m = o->pkgmgr;
	int			 i = 0;

	if (m == SYSINFO_PKG_AUTO)
		m = sysinfo_os_pkgmgr(o);
	switch (m) {
	case SYSINFO_PKG_DPKG:
		return sysinfo_dpkg_read(s, o->dpkg_admindir, cause);
	case SYSINFO_PKG_PACMAN:
		return sysinfo_pacman_read(s, o->pacman_dbpath, cause);
	case SYSINFO_PKG_RPM:
		argv[i++] = "rpm";
		if (o->rpm_dbpath != NULL) {
			argv[i++] = "--dbpath";
			argv[i++] = o->rpm_dbpath;
		}
		argv[i++] = "-qa";
		argv[i++] = "--qf";
		argv[i++] = RPM_QUERYFORMAT;
		argv[i] = NULL;
		return packages_run(s, argv, o->command_timeout_ms,
		    sysinfo_rpm_parse, cause);
	case SYSINFO_PKG_PKGNG:
		argv[0] = "pkg";
		argv[1] = "query";
		argv[2] = "%n %v %q";
		argv[3] = NULL;
		return packages_run(s, argv, o->command_timeout_ms,
		    sysinfo_pkgng_parse, cause);
	case SYSINFO_PKG_AUTO:
	case SYSINFO_PKG_NONE:
		break;
	}
	sysinfo_snapshot_set(s, "pkg.manager", "none");
	return 0;
}
