/*
 * Version comparison, one function per family of package managers, so that
 * a diff can say "upgraded" or "downgraded" the way the system's own tools
 * would.  Character classes are ASCII and independent of the locale.
 *
 * dpkg (deb-version(7)): [epoch:]upstream[-revision], blanks around it
 *   ignored.  The epoch is a number (dpkg reads it with strtol, so "+1:"
 *   is the epoch 1 too); upstream and revision compare by alternating
 *   runs: a non-digit run character by character, where '~' sorts before
 *   everything (even the end), letters before other characters; then a
 *   digit run by value.
 *
 * rpm: [epoch:]version[-release].  Epochs by value, however long;
 *   version and release by rpmvercmp: separators are skipped, '~' sorts
 *   before the end, '^' after the end but before any further segment, a
 *   numeric segment beats an alphabetic one, numbers compare by value,
 *   letters bytewise, and the longer string wins.
 *
 * pacman (libalpm's alpm_pkg_vercmp): the same [epoch:]version[-release],
 *   but its rpmvercmp is an older rpm's, and differs: no '~' or '^' (they
 *   are separators), separators of other lengths before a segment decide
 *   ("1..0" after "1.0"), and when one string runs out the rest wins only
 *   if it does not start with a letter, so "6.8rc7" is before "6.8".  The
 *   releases are compared only when both have one.
 *
 * FreeBSD ports: version[_revision][,epoch].  Epoch first, then the version
 *   by dot-separated components (number, letter, patch level; "pl",
 *   "alpha", "beta", "pre", "rc" are stages; missing components are zero),
 *   then the revision.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfwatch.h"
#include "sysinfo_int.h"

static int
ver_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static int
ver_isalpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A blank as dpkg's parser means it: a space or a tab. */
static int
ver_isblank(int c)
{
	return c == ' ' || c == '\t';
}

static int
ver_tolower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
ver_sign(long long v)
{
	return v < 0 ? -1 : v > 0;
}

/* Parse a run of digits into an unsigned value that saturates. */
static unsigned long long
ver_number(const char **pp, const char *end)
{
	unsigned long long	v = 0;
	const char		*p = *pp;

	while (p < end && ver_isdigit(*p)) {
		if (v > (~0ULL - 9) / 10)
			v = ~0ULL;
		else
			v = v * 10 + (unsigned long long)(*p - '0');
		p++;
	}
	*pp = p;
	return v;
}

/* A parsed number as a signed value, saturated. */
static long long
ver_llong(unsigned long long v)
{
	return v > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)v;
}

/* The weight of one character in dpkg's non-digit runs. */
static int
dpkg_order(int c)
{
	if (ver_isdigit(c))
		return 0;
	if (ver_isalpha(c))
		return c;
	if (c == '~')
		return -1;
	if (c != 0)
		return c + 256;
	return 0;
}

/* dpkg's comparison of one upstream or revision part (counted strings). */
static int
dpkg_verrevcmp(const char *a, size_t al, const char *b, size_t bl)
{
	size_t	i = 0, j = 0;
	int	ac, bc, first;

	while (i < al || j < bl) {
		first = 0;
		/* Equal weights mean both sides are non-digits here. */
		while ((i < al && !ver_isdigit(a[i])) ||
		    (j < bl && !ver_isdigit(b[j]))) {
			ac = dpkg_order(i < al ? (unsigned char)a[i] : 0);
			bc = dpkg_order(j < bl ? (unsigned char)b[j] : 0);
			if (ac != bc)
				return ver_sign(ac - bc);
			i++;
			j++;
		}
		while (i < al && a[i] == '0')
			i++;
		while (j < bl && b[j] == '0')
			j++;
		while (i < al && ver_isdigit(a[i]) && j < bl &&
		    ver_isdigit(b[j])) {
			if (first == 0)
				first = a[i] - b[j];
			i++;
			j++;
		}
		if (i < al && ver_isdigit(a[i]))
			return 1;
		if (j < bl && ver_isdigit(b[j]))
			return -1;
		if (first != 0)
			return ver_sign(first);
	}
	return 0;
}

/* A Debian version cut into its parts, as counted strings. */
struct dpkg_parts {
	unsigned long long	 epoch;
	const char		*upstream;
	size_t			 upstream_len;
	const char		*revision;
	size_t			 revision_len;
};

/*
 * Cut [epoch:]upstream[-revision] where dpkg's parser cuts it, so that the
 * two agree on every version dpkg accepts.  Blanks around the version are
 * not part of it.  dpkg reads the epoch before the first colon with
 * strtol, which allows a plus sign: "+1:0" is "1:0".  Text before the
 * colon that is not a number is no epoch (dpkg refuses such a version; a
 * comparison still needs an answer).
 */
static void
dpkg_split(const char *v, struct dpkg_parts *d)
{
	const char	*end, *colon, *hyphen, *p;

	while (ver_isblank(*v))
		v++;
	end = v + strlen(v);
	while (end > v && ver_isblank(end[-1]))
		end--;
	d->epoch = 0;
	if ((colon = memchr(v, ':', (size_t)(end - v))) != NULL) {
		p = *v == '+' ? v + 1 : v;
		if (p < colon &&
		    strspn(p, "0123456789") == (size_t)(colon - p)) {
			d->epoch = ver_number(&p, colon);
			v = colon + 1;
		}
	}
	d->upstream = v;
	/* The revision follows the last hyphen. */
	for (hyphen = end; hyphen > v && hyphen[-1] != '-'; hyphen--)
		;
	if (hyphen > v) {
		d->upstream_len = (size_t)(hyphen - 1 - v);
		d->revision = hyphen;
		d->revision_len = (size_t)(end - hyphen);
	} else {
		d->upstream_len = (size_t)(end - v);
		d->revision = "";
		d->revision_len = 0;
	}
}

/* Compare two Debian versions. */
int
sysinfo_version_cmp(const char *a, const char *b)
{
	struct dpkg_parts	da, db;
	int			c;

	dpkg_split(a, &da);
	dpkg_split(b, &db);
	if (da.epoch != db.epoch)
		return da.epoch < db.epoch ? -1 : 1;
	if ((c = dpkg_verrevcmp(da.upstream, da.upstream_len, db.upstream,
	    db.upstream_len)) != 0)
		return c;
	return dpkg_verrevcmp(da.revision, da.revision_len, db.revision,
	    db.revision_len);
}

/*
 * Compare the segments (a run of digits, or one of letters) that *pp and
 * *qq begin, and move both past them: rpm's rule, which libalpm keeps.
 * A numeric segment is newer than one of letters; numbers compare by
 * value (their leading zeros left out), letters byte by byte, the longer
 * newer when one begins the other.  -1, 0 or 1.
 */
static int
ver_segment(const char **pp, const char *pe, const char **qq, const char *qe)
{
	const char	*p = *pp, *q = *qq, *s1 = p, *s2 = q;
	size_t		 n1, n2;
	int		 isnum = ver_isdigit(*p), c;

	if (isnum) {
		while (p < pe && ver_isdigit(*p))
			p++;
		while (q < qe && ver_isdigit(*q))
			q++;
	} else {
		while (p < pe && ver_isalpha(*p))
			p++;
		while (q < qe && ver_isalpha(*q))
			q++;
	}
	*pp = p;
	*qq = q;
	/* Segments of different kinds: the numeric one is newer. */
	if (q == s2)
		return isnum ? 1 : -1;
	if (isnum) {
		while (s1 < p && *s1 == '0')
			s1++;
		while (s2 < q && *s2 == '0')
			s2++;
	}
	n1 = (size_t)(p - s1);
	n2 = (size_t)(q - s2);
	if (isnum && n1 != n2)
		return n1 < n2 ? -1 : 1;
	if ((c = memcmp(s1, s2, n1 < n2 ? n1 : n2)) != 0)
		return ver_sign(c);
	if (n1 != n2)
		return n1 < n2 ? -1 : 1;
	return 0;
}

/* rpmvercmp over counted strings. */
static int
rpm_segcmp(const char *a, size_t al, const char *b, size_t bl)
{
	const char	*p = a, *pe = a + al, *q = b, *qe = b + bl;
	int		 c;

	if (al == bl && memcmp(a, b, al) == 0)
		return 0;
	while (p < pe || q < qe) {
		while (p < pe && !ver_isdigit(*p) && !ver_isalpha(*p) &&
		    *p != '~' && *p != '^')
			p++;
		while (q < qe && !ver_isdigit(*q) && !ver_isalpha(*q) &&
		    *q != '~' && *q != '^')
			q++;

		/* A tilde sorts before anything, the end included. */
		if ((p < pe && *p == '~') || (q < qe && *q == '~')) {
			if (p == pe || *p != '~')
				return 1;
			if (q == qe || *q != '~')
				return -1;
			p++;
			q++;
			continue;
		}
		/* A caret sorts after the end, before anything else. */
		if ((p < pe && *p == '^') || (q < qe && *q == '^')) {
			if (p == pe)
				return -1;
			if (q == qe)
				return 1;
			if (*p != '^')
				return 1;
			if (*q != '^')
				return -1;
			p++;
			q++;
			continue;
		}
		if (p == pe || q == qe)
			break;

		if ((c = ver_segment(&p, pe, &q, qe)) != 0)
			return c;
	}
	if (p == pe && q == qe)
		return 0;
	return p < pe ? 1 : -1;
}

/* rpm's comparison of one version or release string. */
int
sysinfo_rpmvercmp(const char *a, const char *b)
{
	return rpm_segcmp(a, strlen(a), b, strlen(b));
}

/*
 * Split rpm's [epoch:]rest.  The epoch is the digits before a colon,
 * kept as text ("0" without one): rpm compares epochs as it compares
 * numeric segments, by value however long, where a number parsed into
 * 64 bits would make all the long ones equal.
 */
static const char *
rpm_epoch(const char *v, const char **epoch, size_t *len)
{
	size_t	n;

	n = strspn(v, "0123456789");
	if (n > 0 && v[n] == ':') {
		*epoch = v;
		*len = n;
		return v + n + 1;
	}
	*epoch = "0";
	*len = 1;
	return v;
}

/*
 * Compare two rpm versions, [epoch:]version[-release].  The releases are
 * compared only when both have one, as pacman does (every package rpm
 * lists has one).
 */
int
sysinfo_rpm_version_cmp(const char *a, const char *b)
{
	const char	*ea, *eb, *va, *vb, *ra, *rb;
	size_t		 eal, ebl, val, vbl;
	int		 c;

	va = rpm_epoch(a, &ea, &eal);
	vb = rpm_epoch(b, &eb, &ebl);
	if ((c = rpm_segcmp(ea, eal, eb, ebl)) != 0)
		return c;
	ra = strrchr(va, '-');
	rb = strrchr(vb, '-');
	val = ra != NULL ? (size_t)(ra - va) : strlen(va);
	vbl = rb != NULL ? (size_t)(rb - vb) : strlen(vb);
	if ((c = rpm_segcmp(va, val, vb, vbl)) != 0)
		return c;
	if (ra == NULL || rb == NULL)
		return 0;
	return rpm_segcmp(ra + 1, strlen(ra + 1), rb + 1, strlen(rb + 1));
}

/*
 * libalpm's rpmvercmp over counted strings: rpm's before it learnt '~'
 * and '^'.  It differs from rpm_segcmp where one string runs out first:
 * a rest that starts with a letter is older than nothing ("1.0rc" before
 * "1.0", pacman's way of writing a candidate), any other rest newer.
 */
static int
pacman_segcmp(const char *a, size_t al, const char *b, size_t bl)
{
	const char	*p = a, *pe = a + al, *q = b, *qe = b + bl;
	const char	*ps = a, *qs = b;
	int		 c;

	if (al == bl && memcmp(a, b, al) == 0)
		return 0;
	while (p < pe && q < qe) {
		while (p < pe && !ver_isdigit(*p) && !ver_isalpha(*p))
			p++;
		while (q < qe && !ver_isdigit(*q) && !ver_isalpha(*q))
			q++;
		if (p == pe || q == qe)
			break;
		/* Separators since the last segment: the fewer, the older. */
		if (p - ps != q - qs)
			return p - ps < q - qs ? -1 : 1;
		if ((c = ver_segment(&p, pe, &q, qe)) != 0)
			return c;
		ps = p;
		qs = q;
	}
	if (p == pe && q == qe)
		return 0;
	/* One ran out, or both have only separators left. */
	if ((p == pe && !ver_isalpha(*q)) || (p < pe && ver_isalpha(*p)))
		return -1;
	return 1;
}

/*
 * Compare two pacman versions, [epoch:]version[-release], as
 * alpm_pkg_vercmp does: the epoch is the digits before a colon ("0"
 * without one, or when they are none), each part by pacman_segcmp, and
 * the releases only when both have one.
 */
int
sysinfo_pacman_version_cmp(const char *a, const char *b)
{
	const char	*ea, *eb, *va, *vb, *ra, *rb;
	size_t		 eal, ebl, val, vbl;
	int		 c;

	if (strcmp(a, b) == 0)
		return 0;
	va = rpm_epoch(a, &ea, &eal);
	vb = rpm_epoch(b, &eb, &ebl);
	/* An empty epoch, ":1.0", is 0 too. */
	if (va == a && *a == ':')
		va++;
	if (vb == b && *b == ':')
		vb++;
	if ((c = pacman_segcmp(ea, eal, eb, ebl)) != 0)
		return c;
	ra = strrchr(va, '-');
	rb = strrchr(vb, '-');
	val = ra != NULL ? (size_t)(ra - va) : strlen(va);
	vbl = rb != NULL ? (size_t)(rb - vb) : strlen(vb);
	if ((c = pacman_segcmp(va, val, vb, vbl)) != 0)
		return c;
	if (ra == NULL || rb == NULL)
		return 0;
	return pacman_segcmp(ra + 1, strlen(ra + 1), rb + 1, strlen(rb + 1));
}

/* One component of a FreeBSD port version: number, letter, patch level. */
struct pkgng_comp {
	long long	n;
	int		a;
	long long	pl;
};

/* The stages, which sort by their first letter except "pl" first of all. */
static const struct {
	const char	*name;
	size_t		 len;
	int		 value;
} pkgng_stages[] = {
	{ "pl", 2, 0 },
	{ "alpha", 5, 1 },
	{ "beta", 4, 2 },
	{ "pre", 3, 16 },
	{ "rc", 2, 18 },
};

/* Read one component at p (before end); return where the next starts. */
static const char *
pkgng_component(const char *p, const char *end, struct pkgng_comp *c)
{
	size_t	i, rest;
	int	stage_ok, letter, want_pl;

	c->n = 0;
	c->a = 0;
	c->pl = 0;
	stage_ok = 0;
	if (ver_isdigit(*p))
		c->n = ver_llong(ver_number(&p, end));
	else if (*p == '*') {
		/* Smaller than any other component. */
		c->n = -2;
		while (p < end && *p != '+')
			p++;
	} else {
		/* No number: sorts before 0, and stage names count. */
		c->n = -1;
		stage_ok = 1;
	}

	want_pl = 0;
	if (p < end && ver_isalpha(*p)) {
		letter = ver_tolower(*p);
		want_pl = 1;
		rest = (size_t)(end - p);
		for (i = 0; i < nitems(pkgng_stages); i++) {
			if (rest < pkgng_stages[i].len ||
			    strncasecmp(p, pkgng_stages[i].name,
			    pkgng_stages[i].len) != 0 ||
			    (rest > pkgng_stages[i].len &&
			    ver_isalpha(p[pkgng_stages[i].len])))
				continue;
			if (stage_ok) {
				c->a = pkgng_stages[i].value;
				p += pkgng_stages[i].len;
			} else {
				/* "10alpha" reads as "10.alpha": stop here. */
				want_pl = 0;
			}
			letter = 0;
			break;
		}
		if (letter != 0) {
			/* Any other word sorts by its first letter. */
			c->a = letter - 'a' + 1;
			while (p < end && ver_isalpha(*p))
				p++;
		}
	}
	if (want_pl) {
		if (p < end && ver_isdigit(*p))
			c->pl = ver_llong(ver_number(&p, end));
		else
			c->pl = -1;
	}
	while (p < end && !ver_isdigit(*p) && !ver_isalpha(*p) && *p != '+' &&
	    *p != '*')
		p++;
	return p;
}

/* Split version[_revision][,epoch]; returns the end of the version. */
static const char *
pkgng_split(const char *v, unsigned long long *revision,
    unsigned long long *epoch)
{
	const char	*us, *comma, *end, *p;

	us = strrchr(v, '_');
	comma = strrchr(us != NULL ? us + 1 : v, ',');
	*revision = 0;
	*epoch = 0;
	if (us != NULL) {
		p = us + 1;
		*revision = ver_number(&p, p + strlen(p));
	}
	if (comma != NULL) {
		p = comma + 1;
		*epoch = ver_number(&p, p + strlen(p));
	}
	end = us != NULL ? us : comma != NULL ? comma : v + strlen(v);
	return end;
}

/* Compare two FreeBSD package versions. */
int
sysinfo_pkgng_version_cmp(const char *a, const char *b)
{
	struct pkgng_comp	 ca, cb;
	unsigned long long	 ra, rb, ea, eb;
	const char		*pa = a, *pb = b, *ae, *be;
	int			 blocka, blockb;

	ae = pkgng_split(a, &ra, &ea);
	be = pkgng_split(b, &rb, &eb);
	if (ea != eb)
		return ea < eb ? -1 : 1;
	if (ae - a != be - b ||
	    strncasecmp(a, b, (size_t)(ae - a)) != 0) {
		while (pa < ae || pb < be) {
			memset(&ca, 0, sizeof(ca));
			memset(&cb, 0, sizeof(cb));
			blocka = pa >= ae || *pa == '+';
			blockb = pb >= be || *pb == '+';
			if (!blocka)
				pa = pkgng_component(pa, ae, &ca);
			if (!blockb)
				pb = pkgng_component(pb, be, &cb);
			if (blocka && blockb) {
				/* Both at a '+': step over it together. */
				if (pa < ae)
					pa++;
				if (pb < be)
					pb++;
				continue;
			}
			if (ca.n != cb.n)
				return ca.n < cb.n ? -1 : 1;
			if (ca.a != cb.a)
				return ca.a < cb.a ? -1 : 1;
			if (ca.pl != cb.pl)
				return ca.pl < cb.pl ? -1 : 1;
		}
	}
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return 0;
}

/*
 * Compare with the rules of a package manager ("dpkg", "rpm", "pacman",
 * "pkg"); anything else, or NULL, gets dpkg's rules, which order the
 * common dotted versions the way people expect.
 */
int
sysinfo_pkg_version_cmp(const char *manager, const char *a, const char *b)
{
	if (manager != NULL) {
		if (strcmp(manager, "rpm") == 0)
			return sysinfo_rpm_version_cmp(a, b);
		if (strcmp(manager, "pacman") == 0)
			return sysinfo_pacman_version_cmp(a, b);
		if (strcmp(manager, "pkg") == 0)
			return sysinfo_pkgng_version_cmp(a, b);
	}
	return sysinfo_version_cmp(a, b);
}
