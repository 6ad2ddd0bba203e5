/*
 * What changed between two snapshots, as a list, as readable text and as
 * JSON (what alerts carry).
 *
 * Fields pair by key.  Packages pair by name, in this order, so that one
 * upgrade never reads as a removal and an installation:
 *   1. the same arch and version on both sides: unchanged;
 *   2. the same arch: oldest with oldest (several versions of one package
 *      live side by side on rpm systems: install-only kernels);
 *   3. what is left, across arches ("all" becoming "amd64");
 *   4. what is still left was removed (old side) or installed (new side).
 * Versions compare by the rules of the new snapshot's pkg.manager.
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"
#include "utf8.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

static const char *const change_kind_names[] = {
	[CHANGE_FIELD_CHANGED] = "changed",
	[CHANGE_FIELD_ADDED] = "added",
	[CHANGE_FIELD_REMOVED] = "removed",
	[CHANGE_PKG_UPGRADED] = "upgraded",
	[CHANGE_PKG_DOWNGRADED] = "downgraded",
	[CHANGE_PKG_INSTALLED] = "installed",
	[CHANGE_PKG_REMOVED] = "removed",
	[CHANGE_PKG_CHANGED] = "changed",
};

const char *
sysinfo_change_kind_name(enum snapshot_change_kind k)
{
	if ((size_t)k >= sizeof(change_kind_names) /
	    sizeof(change_kind_names[0]))
		return "unknown";
	return change_kind_names[k];
}

static char *
diff_strdup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* Append a change; strings are copied. */
static struct snapshot_change *
diff_add(struct snapshot_diff *d, size_t *alloc, enum snapshot_change_kind k,
    const char *name, const char *oldv, const char *newv, const char *olda,
    const char *newa)
{
	struct snapshot_change	*c;

	if (d->nchanges == *alloc) {
		*alloc = *alloc == 0 ? 32 : *alloc * 2;
		d->changes = xreallocarray(d->changes, *alloc,
		    sizeof(*d->changes));
	}
	c = &d->changes[d->nchanges++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	c->name = xstrdup(name);
	c->old_value = diff_strdup(oldv);
	c->new_value = diff_strdup(newv);
	c->old_arch = diff_strdup(olda);
	c->new_arch = diff_strdup(newa);
	return c;
}

/*
 * Fields that a snapshot leaves out when its user could not read them,
 * not because the machine lacks them: one side without such a field is
 * no change (a root run beside the daemon's, on LXC without systemd).
 */
static const char *const diff_unread_keys[] = {
	"virt.container",
	NULL
};

static int
diff_unread(const char *key)
{
	size_t	i;

	for (i = 0; diff_unread_keys[i] != NULL; i++)
		if (strcmp(key, diff_unread_keys[i]) == 0)
			return 1;
	return 0;
}

/* Walk both sorted field lists together. */
static void
diff_fields(struct snapshot_diff *d, size_t *alloc, const struct snapshot *a,
    const struct snapshot *b)
{
	size_t	i = 0, j = 0;
	int	c;

	while (i < a->nfields || j < b->nfields) {
		if (i == a->nfields)
			c = 1;
		else if (j == b->nfields)
			c = -1;
		else
			c = strcmp(a->fields[i].key, b->fields[j].key);
		if (c < 0) {
			if (!diff_unread(a->fields[i].key))
				diff_add(d, alloc, CHANGE_FIELD_REMOVED,
				    a->fields[i].key, a->fields[i].value, NULL,
				    NULL, NULL);
			i++;
		} else if (c > 0) {
			if (!diff_unread(b->fields[j].key))
				diff_add(d, alloc, CHANGE_FIELD_ADDED,
				    b->fields[j].key, NULL, b->fields[j].value,
				    NULL, NULL);
			j++;
		} else {
			if (strcmp(a->fields[i].value, b->fields[j].value) != 0)
				diff_add(d, alloc, CHANGE_FIELD_CHANGED,
				    a->fields[i].key, a->fields[i].value,
				    b->fields[j].value, NULL, NULL);
			i++;
			j++;
		}
	}
	d->nfields = d->nchanges;
}

/* Does a run of packages of one name hold more than one arch? */
static int
diff_multiarch(const struct snapshot_package *p, size_t n)
{
	size_t	i;

	for (i = 1; i < n; i++) {
		if (strcmp(p[i].arch, p[0].arch) != 0)
			return 1;
	}
	return 0;
}

/*
 * Among the unpaired old entries (and new ones), the one with the lowest
 * version, restricted to an arch unless arch is NULL; -1 if none.
 */
static ssize_t
diff_lowest(const struct snapshot_package *p, const char *used, size_t n,
    const char *arch, const char *mgr)
{
	ssize_t	best = -1;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (used[i] || (arch != NULL && strcmp(p[i].arch, arch) != 0))
			continue;
		if (best == -1 || sysinfo_pkg_version_cmp(mgr, p[i].version,
		    p[best].version) < 0)
			best = (ssize_t)i;
	}
	return best;
}

/* Record one old/new pair of a package. */
static void
diff_pair(struct snapshot_diff *d, size_t *alloc,
    const struct snapshot_package *o, const struct snapshot_package *n,
    const char *mgr, int multiarch)
{
	enum snapshot_change_kind	 k;
	struct snapshot_change		*c;
	int				 cmp;

	cmp = sysinfo_pkg_version_cmp(mgr, o->version, n->version);
	if (cmp < 0)
		k = CHANGE_PKG_UPGRADED;
	else if (cmp > 0)
		k = CHANGE_PKG_DOWNGRADED;
	else
		k = CHANGE_PKG_CHANGED;
	c = diff_add(d, alloc, k, n->name, o->version, n->version, o->arch,
	    n->arch);
	c->multiarch = multiarch;
}

/* Compare the packages of one name: na old ones, nb new ones. */
static void
diff_group(struct snapshot_diff *d, size_t *alloc,
    const struct snapshot_package *pa, size_t na,
    const struct snapshot_package *pb, size_t nb, const char *mgr)
{
	struct snapshot_change	*c;
	char			*ua, *ub;
	ssize_t			 x, y;
	size_t			 i, j;
	int			 multiarch, paired;

	multiarch = diff_multiarch(pa, na) || diff_multiarch(pb, nb);
	ua = xcalloc(na + 1, 1);
	ub = xcalloc(nb + 1, 1);

	/* 1. Unchanged: both sorted by (arch, version), so merge. */
	i = j = 0;
	while (i < na && j < nb) {
		int	cmp = strcmp(pa[i].arch, pb[j].arch);

		if (cmp == 0)
			cmp = strcmp(pa[i].version, pb[j].version);
		if (cmp == 0) {
			ua[i++] = 1;
			ub[j++] = 1;
		} else if (cmp < 0)
			i++;
		else
			j++;
	}

	/* 2. The same arch, oldest with oldest, until no arch pairs. */
	do {
		paired = 0;
		for (i = 0; i < na && !paired; i++) {
			if (ua[i])
				continue;
			x = diff_lowest(pa, ua, na, pa[i].arch, mgr);
			y = diff_lowest(pb, ub, nb, pa[i].arch, mgr);
			if (y == -1)
				continue;
			ua[x] = ub[y] = 1;
			diff_pair(d, alloc, &pa[x], &pb[y], mgr, multiarch);
			paired = 1;
		}
	} while (paired);

	/* 3. Across arches. */
	while ((x = diff_lowest(pa, ua, na, NULL, mgr)) != -1 &&
	    (y = diff_lowest(pb, ub, nb, NULL, mgr)) != -1) {
		ua[x] = ub[y] = 1;
		diff_pair(d, alloc, &pa[x], &pb[y], mgr, multiarch);
	}

	/* 4. Removed and installed. */
	for (i = 0; i < na; i++) {
		if (ua[i])
			continue;
		c = diff_add(d, alloc, CHANGE_PKG_REMOVED, pa[i].name,
		    pa[i].version, NULL, pa[i].arch, NULL);
		c->multiarch = multiarch;
	}
	for (j = 0; j < nb; j++) {
		if (ub[j])
			continue;
		c = diff_add(d, alloc, CHANGE_PKG_INSTALLED, pb[j].name, NULL,
		    pb[j].version, NULL, pb[j].arch);
		c->multiarch = multiarch;
	}
	free(ua);
	free(ub);
}

/* Length of the run of packages named like p[0]. */
static size_t
diff_run(const struct snapshot_package *p, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	for (i = 1; i < n; i++) {
		if (strcmp(p[i].name, p[0].name) != 0)
			break;
	}
	return i;
}

/* Whether s says it recorded no package list (pkg.manager "none"). */
static int
diff_no_list(const struct snapshot *s)
{
	const char	*m = sysinfo_snapshot_get(s, "pkg.manager");

	return m != NULL && strcmp(m, "none") == 0;
}

/*
 * Everything that differs from a (before) to b (after).  When either
 * side recorded no package list (its database could not be read, or
 * there was none), the packages are not compared: the empty side made
 * every package of the other "removed" or "installed", in env diff and
 * in an alert's diff and summary.  pkg.manager's own change says it.
 */
struct snapshot_diff *
sysinfo_diff(const struct snapshot *a, const struct snapshot *b)
{
	struct snapshot_diff	*d;
	const char		*mgr;
	size_t			 alloc = 0, i = 0, j = 0, ra, rb;
	int			 c;

	d = xcalloc(1, sizeof(*d));
	diff_fields(d, &alloc, a, b);
	if (diff_no_list(a) || diff_no_list(b))
		return d;
	if ((mgr = sysinfo_snapshot_get(b, "pkg.manager")) == NULL)
		mgr = sysinfo_snapshot_get(a, "pkg.manager");

	while (i < a->npackages || j < b->npackages) {
		/* An empty list's array is NULL: no offset to it, even 0. */
		ra = i < a->npackages ?
		    diff_run(a->packages + i, a->npackages - i) : 0;
		rb = j < b->npackages ?
		    diff_run(b->packages + j, b->npackages - j) : 0;
		if (ra == 0)
			c = 1;
		else if (rb == 0)
			c = -1;
		else
			c = strcmp(a->packages[i].name, b->packages[j].name);
		if (c < 0)
			diff_group(d, &alloc, a->packages + i, ra, NULL, 0, mgr);
		else if (c > 0)
			diff_group(d, &alloc, NULL, 0, b->packages + j, rb, mgr);
		else
			diff_group(d, &alloc, a->packages + i, ra,
			    b->packages + j, rb, mgr);
		if (c <= 0)
			i += ra;
		if (c >= 0)
			j += rb;
	}
	return d;
}

void
sysinfo_diff_free(struct snapshot_diff *d)
{
	struct snapshot_change	*c;
	size_t			 i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nchanges; i++) {
		c = &d->changes[i];
		free(c->name);
		free(c->old_value);
		free(c->new_value);
		free(c->old_arch);
		free(c->new_arch);
	}
	free(d->changes);
	free(d);
}

/* The name a reader sees: name, or name:arch when arches coexist. */
static void
diff_display_name(struct sysinfo_buf *b, const struct snapshot_change *c)
{
	const char	*arch = c->new_arch != NULL ? c->new_arch : c->old_arch;

	if (c->multiarch && arch != NULL && arch[0] != '\0')
		sysinfo_buf_addf(b, "%s:%s", c->name, arch);
	else
		sysinfo_buf_adds(b, c->name);
}

/* One side of a package change, with its arch when the arch changed. */
static void
diff_display_version(struct sysinfo_buf *b, const struct snapshot_change *c,
    int new)
{
	const char	*v = new ? c->new_value : c->old_value;
	const char	*a = new ? c->new_arch : c->old_arch;

	sysinfo_buf_adds(b, v);
	if (c->old_arch != NULL && c->new_arch != NULL &&
	    strcmp(c->old_arch, c->new_arch) != 0)
		sysinfo_buf_addf(b, " (%s)", a);
}

/*
 * A readable block, one change a line, fields first:
 *
 *   kernel.release  6.1.0-18-amd64 → 6.1.0-20-amd64
 *   cpu.governor    (unset) → performance
 *
 *   upgraded    auditd  1:3.0.9-1 → 1:3.1-1
 *   installed   libfoo  1.2-1
 *
 * Columns are as wide as a terminal shows them (utf8_width).  An empty
 * diff is an empty string.
 */
char *
sysinfo_diff_text(const struct snapshot_diff *d)
{
	struct sysinfo_buf		 b = { NULL, 0, 0 }, name;
	const struct snapshot_change	*c;
	size_t				 i, kw = 0, nw = 0, len;
	char				*s;

	for (i = 0; i < d->nchanges; i++) {
		c = &d->changes[i];
		if (i < d->nfields) {
			if (utf8_width(c->name) > kw)
				kw = utf8_width(c->name);
			continue;
		}
		memset(&name, 0, sizeof(name));
		diff_display_name(&name, c);
		s = sysinfo_buf_finish(&name);
		if ((len = utf8_width(s)) > nw)
			nw = len;
		free(s);
	}
	for (i = 0; i < d->nchanges; i++) {
		c = &d->changes[i];
		if (i < d->nfields) {
			sysinfo_buf_addcol(&b, c->name, kw, "  ");
			sysinfo_buf_addf(&b, "%s → %s\n", c->old_value != NULL ?
			    c->old_value : "(unset)", c->new_value != NULL ?
			    c->new_value : "(unset)");
			continue;
		}
		if (i == d->nfields && i > 0)
			sysinfo_buf_adds(&b, "\n");
		memset(&name, 0, sizeof(name));
		diff_display_name(&name, c);
		s = sysinfo_buf_finish(&name);
		sysinfo_buf_addf(&b, "%-10s  ",
		    sysinfo_change_kind_name(c->kind));
		sysinfo_buf_addcol(&b, s, nw, "  ");
		free(s);
		switch (c->kind) {
		case CHANGE_PKG_INSTALLED:
			diff_display_version(&b, c, 1);
			break;
		case CHANGE_PKG_REMOVED:
			diff_display_version(&b, c, 0);
			break;
		default:
			diff_display_version(&b, c, 0);
			sysinfo_buf_adds(&b, " → ");
			diff_display_version(&b, c, 1);
			break;
		}
		sysinfo_buf_adds(&b, "\n");
	}
	return sysinfo_buf_finish(&b);
}

/*
 * One line for a subject or a log message: the first max_items changes,
 * "kernel.release 6.1.0-18-amd64 → 6.1.0-20-amd64, auditd 1:3.0.9-1 →
 * 1:3.1-1, +libfoo 1.2-1, -libbar 0.9-1, and 3 more", a package whose
 * arch moved with it ("perf 1.0-1 (noarch) → 1.0-1 (x86_64)"); "no
 * changes" when there are none.
 */
char *
sysinfo_diff_summary(const struct snapshot_diff *d, size_t max_items)
{
	struct sysinfo_buf		 b = { NULL, 0, 0 };
	const struct snapshot_change	*c;
	size_t				 i;

	if (d->nchanges == 0)
		return xstrdup("no changes");
	for (i = 0; i < d->nchanges && i < max_items; i++) {
		c = &d->changes[i];
		if (i > 0)
			sysinfo_buf_adds(&b, ", ");
		if (c->old_value == NULL) {
			sysinfo_buf_adds(&b, "+");
			diff_display_name(&b, c);
			sysinfo_buf_addf(&b, " %s", c->new_value);
		} else if (c->new_value == NULL) {
			sysinfo_buf_adds(&b, "-");
			diff_display_name(&b, c);
			sysinfo_buf_addf(&b, " %s", c->old_value);
		} else {
			/* An arch that moved is the change: say it. */
			diff_display_name(&b, c);
			sysinfo_buf_adds(&b, " ");
			diff_display_version(&b, c, 0);
			sysinfo_buf_adds(&b, " → ");
			diff_display_version(&b, c, 1);
		}
	}
	if (d->nchanges > max_items)
		sysinfo_buf_addf(&b, "%sand %zu more", max_items > 0 ? ", " :
		    "", d->nchanges - max_items);
	return sysinfo_buf_finish(&b);
}

/*
 * {"fields": [{"key", "change", "old", "new"}, ...],
 *  "packages": [{"name", "change", "arch", "old", "new", "old_arch"}]}
 * with null for a side that is absent; "old_arch" is null unless it
 * differs (a key without a value is null, as in every --json).
 */
json_t *
sysinfo_diff_json(const struct snapshot_diff *d)
{
	const struct snapshot_change	*c;
	json_t				*root, *fields, *pkgs, *o;
	size_t				 i;

	root = json_object();
	fields = json_array();
	pkgs = json_array();
	for (i = 0; i < d->nchanges; i++) {
		c = &d->changes[i];
		o = pwjson_object();
		if (i < d->nfields) {
			/* Stored text: repaired if it is not UTF-8, never dropped. */
			pwjson_set_str(o, "key", c->name);
			pwjson_set_str(o, "change",
			    sysinfo_change_kind_name(c->kind));
			pwjson_set_str(o, "old", c->old_value);
			pwjson_set_str(o, "new", c->new_value);
			json_array_append_new(fields, o);
			continue;
		}
		pwjson_set_str(o, "name", c->name);
		pwjson_set_str(o, "change", sysinfo_change_kind_name(c->kind));
		pwjson_set_str(o, "arch", c->new_arch != NULL ? c->new_arch :
		    c->old_arch);
		pwjson_set_str(o, "old", c->old_value);
		pwjson_set_str(o, "new", c->new_value);
		/* Null unless the change moved the arch. */
		pwjson_set_str(o, "old_arch", c->old_arch != NULL &&
		    c->new_arch != NULL && strcmp(c->old_arch,
		    c->new_arch) != 0 ? c->old_arch : NULL);
		json_array_append_new(pkgs, o);
	}
	json_object_set_new(root, "fields", fields);
	json_object_set_new(root, "packages", pkgs);
	return root;
}
