/*
 * Snapshots: building them, reading them, their content hashes and their
 * JSON and text forms, and taking one of this machine.
 *
 * Invariants (see sysinfo.h): fields sorted by key with unique keys;
 * packages sorted by (name, arch, version) without exact duplicates; every
 * string valid UTF-8 without control characters.  Every setter keeps them,
 * so readers never sort.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "log.h"
#include "utf8.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

#define SNAPSHOT_FORMAT	1

/* Fill the defaults: auto-detected packages in their usual places. */
void
sysinfo_opts_init(struct sysinfo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pkgmgr = SYSINFO_PKG_AUTO;
	o->dpkg_admindir = "/var/lib/dpkg";
	o->pacman_dbpath = "/var/lib/pacman";
	o->rpm_dbpath = NULL;
	o->cc = "cc";
	o->root = NULL;
	o->command_timeout_ms = 5000;
}

struct snapshot *
sysinfo_snapshot_new(void)
{
	return xcalloc(1, sizeof(struct snapshot));
}

void
sysinfo_snapshot_clear_packages(struct snapshot *s)
{
	size_t	i;

	for (i = 0; i < s->npackages; i++)
		free(s->packages[i].name);
	free(s->packages);
	s->packages = NULL;
	s->npackages = s->packages_alloc = 0;
}

void
sysinfo_snapshot_free(struct snapshot *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nfields; i++) {
		free(s->fields[i].key);
		free(s->fields[i].value);
	}
	free(s->fields);
	sysinfo_snapshot_clear_packages(s);
	free(s);
}

/*
 * Copy n bytes into a new string that keeps the invariant: control bytes
 * become spaces, and so do the C1 controls (U+0080..U+009F, valid UTF-8
 * that a terminal takes as commands), bytes outside valid UTF-8 '?'.
 */
static char *
snapshot_clean(const char *in, size_t n)
{
	const unsigned char	*p = (const unsigned char *)in;
	char			*out, *o;
	size_t			 i = 0, k;

	o = out = xmalloc(n + 1);
	while (i < n) {
		if (p[i] < 0x20 || p[i] == 0x7f) {
			*o++ = ' ';
			i++;
			continue;
		}
		if ((k = utf8_seq_len(p + i, n - i)) == 0) {
			*o++ = '?';
			i++;
			continue;
		}
		if (k == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) {
			*o++ = ' ';
			i += k;
			continue;
		}
		memcpy(o, p + i, k);
		o += k;
		i += k;
	}
	*o = '\0';
	return out;
}

/*
 * Keys are short dotted names: letters, digits, '.', '_', '+' and '-'.
 * '+' because a workload's name may hold it (perfwatch.conf's section
 * names), and its own work directory's fields are named after it.
 */
static int
snapshot_key_valid(const char *key)
{
	const char	*p;

	if (key[0] == '\0' || strlen(key) > 128)
		return 0;
	for (p = key; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' &&
		    *p != '+' && *p != '-')
			return 0;
	}
	return 1;
}

/* Index of key, or of where it would go (with *found = 0). */
static size_t
snapshot_field_find(const struct snapshot *s, const char *key, int *found)
{
	size_t	lo = 0, hi = s->nfields, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(s->fields[mid].key, key);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

/*
 * Set a field, replacing any value it had.  Returns -1 (and changes
 * nothing) for a key that is not a dotted name.
 */
int
sysinfo_snapshot_set(struct snapshot *s, const char *key, const char *value)
{
	size_t	i;
	int	found;

	if (!snapshot_key_valid(key)) {
		log_warnx("snapshot: bad field name \"%s\"", key);
		return -1;
	}
	i = snapshot_field_find(s, key, &found);
	if (found) {
		free(s->fields[i].value);
		s->fields[i].value = snapshot_clean(value, strlen(value));
		return 0;
	}
	if (s->nfields == s->fields_alloc) {
		s->fields_alloc = s->fields_alloc == 0 ? 64 :
		    s->fields_alloc * 2;
		s->fields = xreallocarray(s->fields, s->fields_alloc,
		    sizeof(*s->fields));
	}
	memmove(&s->fields[i + 1], &s->fields[i],
	    (s->nfields - i) * sizeof(*s->fields));
	s->fields[i].key = xstrdup(key);
	s->fields[i].value = snapshot_clean(value, strlen(value));
	s->nfields++;
	return 0;
}

/* Remove a field; 0 if it was there, -1 if not. */
int
sysinfo_snapshot_unset(struct snapshot *s, const char *key)
{
	size_t	i;
	int	found;

	i = snapshot_field_find(s, key, &found);
	if (!found)
		return -1;
	free(s->fields[i].key);
	free(s->fields[i].value);
	memmove(&s->fields[i], &s->fields[i + 1],
	    (s->nfields - i - 1) * sizeof(*s->fields));
	s->nfields--;
	return 0;
}

const char *
sysinfo_snapshot_get(const struct snapshot *s, const char *key)
{
	size_t	i;
	int	found;

	i = snapshot_field_find(s, key, &found);
	return found ? s->fields[i].value : NULL;
}

/* The package order: name, then arch, then version, bytewise. */
static int
snapshot_package_cmp(const struct snapshot_package *a,
    const struct snapshot_package *b)
{
	int	c;

	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	if ((c = strcmp(a->arch, b->arch)) != 0)
		return c;
	return strcmp(a->version, b->version);
}

/* Insert a package built by the caller; takes its allocation. */
static void
snapshot_insert_package(struct snapshot *s, struct snapshot_package *p)
{
	size_t	lo, hi, mid;
	int	c;

	lo = 0;
	hi = s->npackages;
	/* Package databases are mostly in order: try the end first. */
	if (hi > 0 && (c = snapshot_package_cmp(&s->packages[hi - 1], p)) >= 0) {
		if (c == 0) {
			free(p->name);
			return;
		}
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			c = snapshot_package_cmp(&s->packages[mid], p);
			if (c == 0) {
				free(p->name);
				return;
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	} else
		lo = hi;
	if (s->npackages == s->packages_alloc) {
		s->packages_alloc = s->packages_alloc == 0 ? 256 :
		    s->packages_alloc * 2;
		s->packages = xreallocarray(s->packages, s->packages_alloc,
		    sizeof(*s->packages));
	}
	memmove(&s->packages[lo + 1], &s->packages[lo],
	    (s->npackages - lo) * sizeof(*s->packages));
	s->packages[lo] = *p;
	s->npackages++;
}

void
sysinfo_snapshot_add_package_n(struct snapshot *s, const char *name,
    size_t namelen, const char *version, size_t versionlen, const char *arch,
    size_t archlen)
{
	struct snapshot_package	 p;
	char			*n, *v, *a, *all;
	size_t			 nl, vl, al;

	n = snapshot_clean(name, namelen);
	v = snapshot_clean(version, versionlen);
	a = snapshot_clean(arch, archlen);
	nl = strlen(n);
	vl = strlen(v);
	al = strlen(a);
	all = xmalloc(nl + vl + al + 3);
	memcpy(all, n, nl + 1);
	memcpy(all + nl + 1, v, vl + 1);
	memcpy(all + nl + 1 + vl + 1, a, al + 1);
	free(n);
	free(v);
	free(a);
	p.name = all;
	p.version = all + nl + 1;
	p.arch = all + nl + 1 + vl + 1;
	snapshot_insert_package(s, &p);
}

/* Add a package; an exact duplicate is ignored. */
void
sysinfo_snapshot_add_package(struct snapshot *s, const char *name,
    const char *version, const char *arch)
{
	sysinfo_snapshot_add_package_n(s, name, strlen(name), version,
	    strlen(version), arch, strlen(arch));
}

/* The first package of that name (and arch, unless NULL), or NULL. */
const struct snapshot_package *
sysinfo_snapshot_package(const struct snapshot *s, const char *name,
    const char *arch)
{
	size_t	lo = 0, hi = s->npackages, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(s->packages[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->npackages; lo++) {
		if (strcmp(s->packages[lo].name, name) != 0)
			break;
		if (arch == NULL || strcmp(s->packages[lo].arch, arch) == 0)
			return &s->packages[lo];
	}
	return NULL;
}

/* 1 if the parts named by what are identical. */
int
sysinfo_snapshot_equal(const struct snapshot *a, const struct snapshot *b,
    int what)
{
	size_t	i;

	if (what & SYSINFO_FIELDS) {
		if (a->nfields != b->nfields)
			return 0;
		for (i = 0; i < a->nfields; i++) {
			if (strcmp(a->fields[i].key, b->fields[i].key) != 0 ||
			    strcmp(a->fields[i].value, b->fields[i].value) != 0)
				return 0;
		}
	}
	if (what & SYSINFO_PACKAGES) {
		if (a->npackages != b->npackages)
			return 0;
		for (i = 0; i < a->npackages; i++) {
			if (snapshot_package_cmp(&a->packages[i],
			    &b->packages[i]) != 0)
				return 0;
		}
	}
	return 1;
}

/* SHA-256 of the canonical fields text (see sysinfo.h). */
void
sysinfo_fields_hash(const struct snapshot *s, char out[SYSINFO_HASH_LEN + 1])
{
	struct sysinfo_sha256	ctx;
	uint8_t			d[32];
	size_t			i;

	sysinfo_sha256_init(&ctx);
	sysinfo_sha256_update(&ctx, "perfwatch-fields-1\n", 19);
	for (i = 0; i < s->nfields; i++) {
		sysinfo_sha256_update(&ctx, s->fields[i].key,
		    strlen(s->fields[i].key));
		sysinfo_sha256_update(&ctx, "\t", 1);
		sysinfo_sha256_update(&ctx, s->fields[i].value,
		    strlen(s->fields[i].value));
		sysinfo_sha256_update(&ctx, "\n", 1);
	}
	sysinfo_sha256_final(&ctx, d);
	sysinfo_sha256_hex(d, out);
}

/* SHA-256 of the canonical package text (see sysinfo.h). */
void
sysinfo_packages_hash(const struct snapshot *s,
    char out[SYSINFO_HASH_LEN + 1])
{
	struct sysinfo_sha256		 ctx;
	const struct snapshot_package	*p;
	uint8_t				 d[32];
	size_t				 i;

	sysinfo_sha256_init(&ctx);
	sysinfo_sha256_update(&ctx, "perfwatch-packages-1\n", 21);
	for (i = 0; i < s->npackages; i++) {
		p = &s->packages[i];
		sysinfo_sha256_update(&ctx, p->name, strlen(p->name));
		sysinfo_sha256_update(&ctx, "\t", 1);
		sysinfo_sha256_update(&ctx, p->version, strlen(p->version));
		sysinfo_sha256_update(&ctx, "\t", 1);
		sysinfo_sha256_update(&ctx, p->arch, strlen(p->arch));
		sysinfo_sha256_update(&ctx, "\n", 1);
	}
	sysinfo_sha256_final(&ctx, d);
	sysinfo_sha256_hex(d, out);
}

/* The JSON form of the parts named by what. */
json_t *
sysinfo_snapshot_json(const struct snapshot *s, int what)
{
	const struct snapshot_package	*p;
	json_t				*root, *fields, *pkgs;
	size_t				 i;

	root = json_object();
	json_object_set_new(root, "format", json_integer(SNAPSHOT_FORMAT));
	if (what & SYSINFO_FIELDS) {
		fields = json_object();
		for (i = 0; i < s->nfields; i++)
			json_object_set_new(fields, s->fields[i].key,
			    json_string(s->fields[i].value));
		json_object_set_new(root, "fields", fields);
	}
	if (what & SYSINFO_PACKAGES) {
		pkgs = json_array();
		for (i = 0; i < s->npackages; i++) {
			p = &s->packages[i];
			json_array_append_new(pkgs, json_pack("[sss]",
			    p->name, p->version, p->arch));
		}
		json_object_set_new(root, "packages", pkgs);
	}
	return root;
}

/* Compact JSON text of the parts named by what, keys sorted. */
char *
sysinfo_snapshot_dump(const struct snapshot *s, int what)
{
	json_t	*j;
	char	*text;

	j = sysinfo_snapshot_json(s, what);
	text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	if (text == NULL)
		fatalx("%s: json_dumps failed", __func__);
	return text;
}

/*
 * Add what a JSON snapshot holds to s: its fields replace fields of the
 * same key, its packages join the list.  On error s may hold part of it.
 */
int
sysinfo_snapshot_load_json(struct snapshot *s, const json_t *root,
    char **cause)
{
	const char	*key;
	json_t		*fields, *pkgs, *v, *p;
	json_int_t	 format;
	size_t		 i;

	if (!json_is_object(root)) {
		*cause = xstrdup("snapshot: not a JSON object");
		return -1;
	}
	if ((v = json_object_get(root, "format")) != NULL) {
		if (!json_is_integer(v)) {
			*cause = xstrdup("snapshot: \"format\" is not a number");
			return -1;
		}
		format = json_integer_value(v);
		if (format != SNAPSHOT_FORMAT) {
			xasprintf(cause, "snapshot: unknown format %lld",
			    (long long)format);
			return -1;
		}
	}
	if ((fields = json_object_get(root, "fields")) != NULL) {
		if (!json_is_object(fields)) {
			*cause = xstrdup("snapshot: \"fields\" is not an "
			    "object");
			return -1;
		}
		json_object_foreach(fields, key, v) {
			if (!json_is_string(v)) {
				xasprintf(cause, "snapshot: field \"%s\" is "
				    "not a string", key);
				return -1;
			}
			if (sysinfo_snapshot_set(s, key,
			    json_string_value(v)) == -1) {
				xasprintf(cause, "snapshot: bad field name "
				    "\"%s\"", key);
				return -1;
			}
		}
	}
	if ((pkgs = json_object_get(root, "packages")) != NULL) {
		if (!json_is_array(pkgs)) {
			*cause = xstrdup("snapshot: \"packages\" is not an "
			    "array");
			return -1;
		}
		json_array_foreach(pkgs, i, p) {
			if (!json_is_array(p) || json_array_size(p) != 3 ||
			    !json_is_string(json_array_get(p, 0)) ||
			    !json_is_string(json_array_get(p, 1)) ||
			    !json_is_string(json_array_get(p, 2))) {
				xasprintf(cause, "snapshot: package %zu is not "
				    "[name, version, arch]", i);
				return -1;
			}
			sysinfo_snapshot_add_package(s,
			    json_string_value(json_array_get(p, 0)),
			    json_string_value(json_array_get(p, 1)),
			    json_string_value(json_array_get(p, 2)));
		}
	}
	return 0;
}

/* Read a snapshot back from its JSON text. */
struct snapshot *
sysinfo_snapshot_load(const char *text, char **cause)
{
	struct snapshot	*s;
	json_error_t	 err;
	json_t		*j;

	if ((j = json_loads(text, 0, &err)) == NULL) {
		xasprintf(cause, "snapshot: line %d: %s", err.line, err.text);
		return NULL;
	}
	s = sysinfo_snapshot_new();
	if (sysinfo_snapshot_load_json(s, j, cause) == -1) {
		json_decref(j);
		sysinfo_snapshot_free(s);
		return NULL;
	}
	json_decref(j);
	return s;
}

/*
 * A readable listing: one "key  value" line per field, then a count of
 * packages and, with SYSINFO_PACKAGES, one line each.  Columns are as
 * wide as a terminal shows them (a package "café" is five bytes, four
 * columns).
 */
char *
sysinfo_snapshot_text(const struct snapshot *s, int what)
{
	struct sysinfo_buf		 b = { NULL, 0, 0 };
	const struct snapshot_package	*p;
	const char			*mgr;
	size_t				 i, w = 0, nw = 0, vw = 0;

	for (i = 0; i < s->nfields; i++) {
		if (utf8_width(s->fields[i].key) > w)
			w = utf8_width(s->fields[i].key);
	}
	if (what & SYSINFO_FIELDS) {
		for (i = 0; i < s->nfields; i++) {
			sysinfo_buf_addcol(&b, s->fields[i].key, w, "  ");
			sysinfo_buf_addf(&b, "%s\n", s->fields[i].value);
		}
	}
	mgr = sysinfo_snapshot_get(s, "pkg.manager");
	sysinfo_buf_addcol(&b, "packages", w, "  ");
	sysinfo_buf_addf(&b, "%zu (%s)\n", s->npackages,
	    mgr != NULL ? mgr : "none");
	if (what & SYSINFO_PACKAGES) {
		for (i = 0; i < s->npackages; i++) {
			p = &s->packages[i];
			if (utf8_width(p->name) > nw)
				nw = utf8_width(p->name);
			if (utf8_width(p->version) > vw)
				vw = utf8_width(p->version);
		}
		for (i = 0; i < s->npackages; i++) {
			p = &s->packages[i];
			sysinfo_buf_adds(&b, "  ");
			sysinfo_buf_addcol(&b, p->name, nw, "  ");
			sysinfo_buf_addcol(&b, p->version, vw, "  ");
			sysinfo_buf_addf(&b, "%s\n", p->arch);
		}
	}
	return sysinfo_buf_finish(&b);
}

/* Unquote an os-release value: "..." with backslash escapes, or '...'. */
static char *
snapshot_unquote(char *v)
{
	char	*r, *w, q;

	v = sysinfo_trim(v);
	if (v[0] != '"' && v[0] != '\'')
		return v;
	q = v[0];
	for (r = v + 1, w = v; *r != '\0' && *r != q; r++) {
		if (q == '"' && *r == '\\' && r[1] != '\0')
			r++;
		*w++ = *r;
	}
	*w = '\0';
	return v;
}

/*
 * os.id, os.version and os.name from os-release(5) under root: ID,
 * VERSION_ID and PRETTY_NAME.  Linux and FreeBSD (13 and later) both have
 * it.
 */
void
sysinfo_os_release(struct snapshot *s, const char *root)
{
	char	*path, *text = NULL, *line, *next, *eq, *v;

	path = sysinfo_path(root, "/etc/os-release");
	if (sysinfo_read_file(path, 64 * 1024, &text, NULL) == -1) {
		free(path);
		path = sysinfo_path(root, "/usr/lib/os-release");
		if (sysinfo_read_file(path, 64 * 1024, &text, NULL) == -1)
			text = NULL;
	}
	free(path);
	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((eq = strchr(line, '=')) == NULL)
			continue;
		*eq = '\0';
		v = snapshot_unquote(eq + 1);
		if (strcmp(line, "ID") == 0)
			sysinfo_snapshot_set(s, "os.id", v);
		else if (strcmp(line, "VERSION_ID") == 0)
			sysinfo_snapshot_set(s, "os.version", v);
		else if (strcmp(line, "PRETTY_NAME") == 0)
			sysinfo_snapshot_set(s, "os.name", v);
	}
	free(text);
}

/*
 * Add locale.<NAME> for the LANG, LANGUAGE and LC_* lines of one locale
 * file; the number of variables found.
 */
static int
snapshot_locale_file(struct snapshot *s, const char *root, const char *file)
{
	char	*path, *text, *line, *next, *eq, *key;
	int	 n = 0;

	path = sysinfo_path(root, file);
	if (sysinfo_read_file(path, 64 * 1024, &text, NULL) == -1) {
		free(path);
		return 0;
	}
	free(path);
	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		line = sysinfo_trim(line);
		if ((eq = strchr(line, '=')) == NULL)
			continue;
		*eq = '\0';
		if (strcmp(line, "LANG") != 0 && strcmp(line, "LANGUAGE") != 0 &&
		    strncmp(line, "LC_", 3) != 0)
			continue;
		xasprintf(&key, "locale.%s", line);
		if (snapshot_key_valid(key)) {
			sysinfo_snapshot_set(s, key, snapshot_unquote(eq + 1));
			n++;
		}
		free(key);
	}
	free(text);
	return n;
}

/*
 * The machine's configured locale: /etc/locale.conf (systemd), else
 * /etc/default/locale (Debian).  Not our own environment: that differs
 * between a run typed by hand and one the daemon starts, and workloads run
 * under LC_ALL=C anyway, so it would only make identical machines look
 * different.
 */
static void
snapshot_locale(struct snapshot *s, const char *root)
{
	if (snapshot_locale_file(s, root, "/etc/locale.conf") == 0)
		snapshot_locale_file(s, root, "/etc/default/locale");
}

/* Record the first line of "cc --version"; no compiler is no field. */
static void
snapshot_compiler(struct snapshot *s, const struct sysinfo_opts *o)
{
	const char	*argv[3];
	char		*out, *cause = NULL;
	int		 status;

	if (o->cc == NULL || o->cc[0] == '\0')
		return;
	argv[0] = o->cc;
	argv[1] = "--version";
	argv[2] = NULL;
	if (sysinfo_command(argv, o->command_timeout_ms, 64 * 1024, 0, &out,
	    NULL, &status, &cause) == -1) {
		log_debug("snapshot: %s", cause);
		free(cause);
		return;
	}
	out[strcspn(out, "\n")] = '\0';
	if (status == 0 && out[0] != '\0')
		sysinfo_snapshot_set(s, "cc", sysinfo_trim(out));
	free(out);
}

/*
 * dir, or the nearest directory above it that is there, allocated, with
 * its stat in *st; NULL with *cause set when it cannot be looked at for
 * another reason than not being there (a directory this user may not
 * search).
 */
static char *
snapshot_dir_there(const char *dir, struct stat *st, char **cause)
{
	char	*d, *slash;
	int	 saved;

	d = xstrdup(dir);
	while (stat(d, st) == -1) {
		saved = errno;
		if (saved != ENOENT || (slash = strrchr(d, '/')) == NULL ||
		    strcmp(d, "/") == 0) {
			xasprintf(cause, "%s: %s", dir, strerror(saved));
			free(d);
			return NULL;
		}
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	return d;
}

/*
 * The filesystem of each workload's own work directory (o->workdirs)
 * that is not on the work directory's: the fields fs.* would have,
 * named workload.<name>.fs.*, so that a disk workload's work_dir moved
 * to another disk is a change in a diff, as the work directory moved
 * is.  One on the work directory's filesystem adds nothing: its fields
 * would repeat fs.*, and a machine whose workloads all work there keeps
 * the snapshot (and hash) it had before these fields were.  A directory
 * that a run has not made yet (env show, a bisection) is looked at
 * through the nearest one above it, where it will be made: a directory
 * made is on its parent's filesystem.  One this user cannot look at is
 * left out, said: it stopped every run of the profile, that of another
 * workload alone too, and env show, where only that workload's
 * iterations can fail for it.
 */
static int
snapshot_workdirs(struct snapshot *s, const char *workdir,
    const struct sysinfo_opts *o, char **cause)
{
	struct stat	 top, st;
	char		*dir, *prefix, *why;
	size_t		 i;
	int		 rc = 0;

	if (o->nworkdirs == 0)
		return 0;
	if (stat(workdir, &top) == -1) {
		xasprintf(cause, "%s: %s", workdir, strerror(errno));
		return -1;
	}
	for (i = 0; i < o->nworkdirs && rc == 0; i++) {
		if ((dir = snapshot_dir_there(o->workdirs[i].dir, &st,
		    &why)) == NULL) {
			log_warnx("workload %s: work_dir %s; its filesystem "
			    "is left out of the machine snapshot",
			    o->workdirs[i].name, why);
			free(why);
			continue;
		}
		if (st.st_dev != top.st_dev) {
			xasprintf(&prefix, "workload.%s.fs",
			    o->workdirs[i].name);
			if (!snapshot_key_valid(prefix)) {
				xasprintf(cause, "workload \"%s\": not a "
				    "name for a snapshot field",
				    o->workdirs[i].name);
				rc = -1;
			} else
				rc = sysinfo_os_fs(s, prefix, dir, o, cause);
			free(prefix);
		}
		free(dir);
	}
	return rc;
}

/*
 * Take a snapshot of this machine as seen from workdir (whose filesystem
 * it describes, with the workloads' own work directories that opts
 * names).  NULL opts means the defaults.  Fails, with *cause set, when
 * workdir is not there or the package database cannot be read: a
 * snapshot without its packages would read as "everything removed".
 */
struct snapshot *
sysinfo_snapshot_take(const char *workdir, const struct sysinfo_opts *opts,
    char **cause)
{
	struct sysinfo_opts	 defaults;
	struct snapshot		*s;

	if (opts == NULL) {
		sysinfo_opts_init(&defaults);
		opts = &defaults;
	}
	s = sysinfo_snapshot_new();
	if (sysinfo_os_fields(s, workdir, opts, cause) == -1 ||
	    snapshot_workdirs(s, workdir, opts, cause) == -1)
		goto fail;
	snapshot_locale(s, opts->root);
	snapshot_compiler(s, opts);
	if (sysinfo_packages_read(s, opts, cause) == -1)
		goto fail;
	return s;
fail:
	sysinfo_snapshot_free(s);
	return NULL;
}
