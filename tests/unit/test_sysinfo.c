/*
 * Unit tests of sysinfo/: SHA-256 against FIPS vectors, the three version
 * comparisons against their tools' documented orders and dpkg's and
 * rpm's against dpkg and rpm themselves (where installed), the package
 * readers on fixture databases of real content
 * (tests/data/sysinfo/README.md), diffs, JSON and hashes, a snapshot of
 * a fixture tree and of this machine, the cgroup limits of fixture
 * hierarchies and of a group made on this machine, the command runner,
 * and the quiet check against a CPU hog.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "sysinfo/sysinfo_int.h"

#include "cgroup_group.h"

/* A fixture path under tests/data/sysinfo of the checkout. */
static char *
fixture(const char *name)
{
	const char	*top = getenv("PERFWATCH_TOP");
	char		*p;

	if (top == NULL)
		top = ".";
	xasprintf(&p, "%s/tests/data/sysinfo/%s", top, name);
	return p;
}

static struct snapshot *
dpkg_fixture(const char *dir)
{
	struct snapshot	*s;
	char		*path, *cause = NULL;

	path = fixture(dir);
	s = sysinfo_snapshot_new();
	if (sysinfo_dpkg_read(s, path, &cause) == -1)
		fail_msg("%s", cause);
	free(path);
	return s;
}

static void
check_package(const struct snapshot *s, const char *name, const char *arch,
    const char *version)
{
	const struct snapshot_package	*p;

	p = sysinfo_snapshot_package(s, name, arch);
	if (p == NULL)
		fail_msg("package %s:%s missing", name, arch ? arch : "*");
	assert_string_equal(p->version, version);
	if (arch != NULL)
		assert_string_equal(p->arch, arch);
}

/* The packages must be in (name, arch, version) order, no duplicates. */
static void
check_sorted(const struct snapshot *s)
{
	const struct snapshot_package	*a, *b;
	size_t				 i;
	int				 c;

	for (i = 1; i < s->npackages; i++) {
		a = &s->packages[i - 1];
		b = &s->packages[i];
		c = strcmp(a->name, b->name);
		if (c == 0)
			c = strcmp(a->arch, b->arch);
		if (c == 0)
			c = strcmp(a->version, b->version);
		assert_true(c < 0);
	}
	for (i = 1; i < s->nfields; i++)
		assert_true(strcmp(s->fields[i - 1].key, s->fields[i].key) < 0);
}

static void
sha256_of(const void *data, size_t len, char out[SYSINFO_HASH_LEN + 1])
{
	struct sysinfo_sha256	ctx;
	uint8_t			d[32];

	sysinfo_sha256_init(&ctx);
	sysinfo_sha256_update(&ctx, data, len);
	sysinfo_sha256_final(&ctx, d);
	sysinfo_sha256_hex(d, out);
}

/* FIPS 180-4 examples, and the padding boundaries (checked against
 * sha256sum). */
static void
test_sha256(void **state)
{
	static const struct {
		size_t		 n;
		const char	*hex;
	} as[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	struct sysinfo_sha256	 ctx;
	char			 hex[SYSINFO_HASH_LEN + 1], *a;
	uint8_t			 d[32];
	size_t			 i, done, step;

	(void)state;
	sha256_of("", 0, hex);
	assert_string_equal(hex,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_of("abc", 3, hex);
	assert_string_equal(hex,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	a = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_of(a, strlen(a), hex);
	assert_string_equal(hex,
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	a = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	sha256_of(a, strlen(a), hex);
	assert_string_equal(hex,
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

	a = xmalloc(1000000);
	memset(a, 'a', 1000000);
	for (i = 0; i < nitems(as); i++) {
		sha256_of(a, as[i].n, hex);
		assert_string_equal(hex, as[i].hex);
	}
	/* A million 'a' fed in uneven pieces. */
	sysinfo_sha256_init(&ctx);
	for (done = 0, step = 1; done < 1000000; done += step, step = step %
	    97 + 13) {
		if (step > 1000000 - done)
			step = 1000000 - done;
		sysinfo_sha256_update(&ctx, a + done, step);
	}
	sysinfo_sha256_final(&ctx, d);
	sysinfo_sha256_hex(d, hex);
	assert_string_equal(hex,
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

/* dpkg's order, as deb-version(7) and dpkg's own tests describe it. */
static void
test_version_dpkg(void **state)
{
	static const struct {
		const char	*a;
		const char	*b;
		int		 cmp;
	} t[] = {
		{ "1.0", "1.0", 0 },
		{ "1.0", "1.1", -1 },
		{ "1.10", "1.9", 1 },
		{ "1:3.1-1", "3.0.9-1", 1 },
		{ "1:3.1-1", "1:3.0.9-1", 1 },
		{ "1:3.0.9-1", "1:3.1-1", -1 },
		{ "0:1.0", "1.0", 0 },
		{ "2:1.0", "10:0.1", -1 },
		{ "1.0~rc1", "1.0", -1 },
		{ "1.0~rc1", "1.0~rc2", -1 },
		{ "1.0~~", "1.0~", -1 },
		{ "1.0~", "1.0", -1 },
		{ "1.0-1", "1.0-1+deb12u1", -1 },
		{ "1.0-1+deb12u1", "1.0-1+deb12u2", -1 },
		{ "3.0.19-1~deb12u2", "3.0.20-1~deb12u1", -1 },
		{ "1:14.0-55.7~deb12u1", "1:14.0-55.7", -1 },
		{ "2025b-0+deb12u2", "2024a-0+deb12u1", 1 },
		{ "1.0", "1.0-0", 0 },
		{ "1.0a", "1.0", 1 },
		{ "1.0+b1", "1.0", 1 },
		{ "1.0.", "1.0", 1 },
		{ "1.0a", "1.0+", -1 },	/* letters before other characters */
		{ "1.001", "1.1", 0 },
		{ "5.2.15-2+b8", "5.2.37-2", -1 },
		{ "2.36-9+deb12u14", "2.36-9+deb12u9", 1 },
		{ "1.2.3-1-2", "1.2.3-1-1", 1 },	/* revision after the
							   last '-' */
		{ "99999999999999999999", "1", 1 },
		/* dpkg reads the epoch with strtol: a plus sign is allowed. */
		{ "+1:0", "1:0", 0 },
		{ "+1:0", ".1", 1 },
		{ "+0:1.0", "z", -1 },
		/* Blanks around a version are not part of it. */
		{ " 1.0", "1.0", 0 },
		{ "1.0\t", "1.0", 0 },
		{ "\t 1:1.0-2 ", "1.1", 1 },
	};
	size_t	i;
	int	c;

	(void)state;
	for (i = 0; i < nitems(t); i++) {
		c = sysinfo_version_cmp(t[i].a, t[i].b);
		c = c < 0 ? -1 : c > 0;
		if (c != t[i].cmp)
			fail_msg("dpkg %s vs %s: %d, want %d", t[i].a, t[i].b,
			    c, t[i].cmp);
		c = sysinfo_version_cmp(t[i].b, t[i].a);
		c = c < 0 ? -1 : c > 0;
		assert_int_equal(c, -t[i].cmp);
	}
	assert_true(sysinfo_pkg_version_cmp("dpkg", "1.0~rc1", "1.0") < 0);
}

/* rpm's order: the vectors of rpm's own tests/rpmvercmp.at, then EVRs. */
static void
test_version_rpm(void **state)
{
	static const struct {
		const char	*a;
		const char	*b;
		int		 cmp;
	} seg[] = {
		{ "1.0", "1.0", 0 }, { "1.0", "2.0", -1 }, { "2.0", "1.0", 1 },
		{ "2.0.1", "2.0.1", 0 }, { "2.0", "2.0.1", -1 },
		{ "2.0.1a", "2.0.1", 1 }, { "5.5p1", "5.5p2", -1 },
		{ "5.5p10", "5.5p1", 1 }, { "10xyz", "10.1xyz", -1 },
		{ "xyz10", "xyz10.1", -1 }, { "xyz.4", "8", -1 },
		{ "8", "xyz.4", 1 }, { "xyz.4", "2", -1 },
		{ "5.5p2", "5.6p1", -1 }, { "6.0.rc1", "6.0", 1 },
		{ "10b2", "10a1", 1 }, { "10a2", "10b2", -1 },
		{ "1.0aa", "1.0a", 1 }, { "10.0001", "10.1", 0 },
		{ "10.0001", "10.0039", -1 }, { "4.999.9", "5.0", -1 },
		{ "20101121", "20101122", -1 }, { "2_0", "2.0", 0 },
		{ "a+", "a_", 0 }, { "+a", "_a", 0 }, { "_+", "+_", 0 },
		{ "+", "_", 0 },
		{ "1.0~rc1", "1.0", -1 }, { "1.0~rc1", "1.0~rc2", -1 },
		{ "1.0~rc1~git123", "1.0~rc1", -1 },
		{ "1.0^", "1.0", 1 }, { "1.0^git1", "1.0", 1 },
		{ "1.0^git1", "1.0^git2", -1 }, { "1.0^git1", "1.01", -1 },
		{ "1.0^20160101", "1.0.1", -1 },
		{ "1.0^20160102", "1.0^20160101^git1", 1 },
		{ "1.0~rc1^git1", "1.0~rc1", 1 },
		{ "1.0^git1~pre", "1.0^git1", -1 },
	};
	static const struct {
		const char	*a;
		const char	*b;
		int		 cmp;
	} evr[] = {
		{ "1:3.5.1-7.el10_1.alma.1", "3.5.1-7.el10_1.alma.1", 1 },
		{ "2:1.35-9.el10_1", "1:1.36-1.el10", 1 },
		{ "6.12.0-124.28.1.el10_1", "6.12.0-124.29.1.el10_1", -1 },
		{ "6.12.0-124.28.1.el10_1", "6.12.0-55.9.1.el10_0", 1 },
		{ "10.11.15-1.el10_1", "10.11.15-1.el10_1", 0 },
		{ "1.0", "1.0-5", 0 },		/* pacman: no release, equal */
		{ "1:1.3_20220414-1", "1.4-1", 1 },
		{ "5.2.037-1", "5.2.37-1", 0 },
		/* rpm compares epochs as segments, however long. */
		{ "99999999999999999999:1-1", "99999999999999999998:1-1", 1 },
		{ "0018446744073709551616:1", "18446744073709551616:1", 0 },
	};
	size_t	i;
	int	c;

	(void)state;
	for (i = 0; i < nitems(seg); i++) {
		c = sysinfo_rpmvercmp(seg[i].a, seg[i].b);
		if (c != seg[i].cmp)
			fail_msg("rpmvercmp %s vs %s: %d, want %d", seg[i].a,
			    seg[i].b, c, seg[i].cmp);
		assert_int_equal(sysinfo_rpmvercmp(seg[i].b, seg[i].a),
		    -seg[i].cmp);
	}
	for (i = 0; i < nitems(evr); i++) {
		c = sysinfo_rpm_version_cmp(evr[i].a, evr[i].b);
		if (c != evr[i].cmp)
			fail_msg("rpm %s vs %s: %d, want %d", evr[i].a,
			    evr[i].b, c, evr[i].cmp);
		assert_int_equal(sysinfo_rpm_version_cmp(evr[i].b, evr[i].a),
		    -evr[i].cmp);
	}
	assert_true(sysinfo_pkg_version_cmp("pacman", "1:1.0-1", "2.0-1") > 0);
	assert_true(sysinfo_pkg_version_cmp("rpm", "1.0^git1", "1.0") > 0);
	/* Where the two families disagree: rpm puts numbers above letters
	 * and treats all separators alike; dpkg does neither. */
	assert_true(sysinfo_pkg_version_cmp("rpm", "a1", "1") < 0);
	assert_true(sysinfo_pkg_version_cmp("dpkg", "a1", "1") > 0);
	assert_true(sysinfo_pkg_version_cmp("rpm", "1.0_1", "1.0.1") == 0);
	assert_true(sysinfo_pkg_version_cmp("dpkg", "1.0_1", "1.0.1") > 0);
}

/* FreeBSD's order, from the rules of pkg's version comparison. */
static void
test_version_pkgng(void **state)
{
	static const struct {
		const char	*a;
		const char	*b;
		int		 cmp;
	} t[] = {
		{ "10", "10.0", 0 }, { "10", "10.0.0", 0 },
		{ "10", "10a", -1 }, { "10a", "10b", -1 },
		{ "a", "0", -1 }, { "10.a", "10", -1 },
		{ "10alpha", "10", -1 }, { "10", "10a", -1 },
		{ "pl11", "alpha3", -1 }, { "alpha3", "0.1beta2", -1 },
		{ "0.1beta2", "0.1.b2", 0 }, { "0.1.b2", "0.1", -1 },
		{ "1.d2", "1.dev2", 0 }, { "1.dev2", "1.Development2", 0 },
		{ "2.*", "2pl1", -1 }, { "2pl1", "2alpha3", -1 },
		{ "2alpha3", "2.9f7", -1 }, { "2.9f7", "3.*", -1 },
		{ "10..1", "10.1", 0 },
		{ "1.0_1", "1.0", 1 }, { "1.0_1", "1.0,1", -1 },
		{ "1.0,1", "2.0", 1 }, { "3.45.1,1", "3.46.0", 1 },
		{ "5.36.3_1", "5.36.3", 1 }, { "1.9.15p5", "1.9.15p4", 1 },
		{ "1.9.15p5", "1.9.16", -1 }, { "3.4_1", "3.4_2", -1 },
		{ "1.0rc1", "1.0", -1 }, { "1.0rc1", "1.0beta9", 1 },
	};
	size_t	i;
	int	c;

	(void)state;
	for (i = 0; i < nitems(t); i++) {
		c = sysinfo_pkgng_version_cmp(t[i].a, t[i].b);
		if (c != t[i].cmp)
			fail_msg("pkg %s vs %s: %d, want %d", t[i].a, t[i].b,
			    c, t[i].cmp);
		assert_int_equal(sysinfo_pkgng_version_cmp(t[i].b, t[i].a),
		    -t[i].cmp);
	}
	assert_true(sysinfo_pkg_version_cmp("pkg", "1.0,1", "2.0") > 0);
}

/*
 * The differential tests below hold sysinfo_version_cmp against dpkg
 * itself, where dpkg is installed: a table can only hold the cases its
 * writer thought of.  dpkg runs once per question, a few milliseconds
 * each, so not every pair is asked.  A set of versions is sorted with
 * ours, ours is checked in-process to order the set the same over every
 * pair (a total order, no cycles), and dpkg is asked about each pair of
 * neighbours: where both orders are total and agree on every neighbour,
 * they agree on every pair of the set.  Versions with a byte above 127
 * are left out: dpkg weighs such a byte through a plain char, so its
 * order there differs between machines where char is signed (amd64)
 * and where it is not (arm64).
 */
struct ver_pair {
	const char	*a;
	const char	*b;
};

/* A comparison's result as -1, 0 or 1. */
static int
ver_sign3(int c)
{
	return c < 0 ? -1 : c > 0;
}

/* One shell runs the dpkg of every pair; '?' is a version dpkg refused. */
static const char dpkg_pairs_sh[] =
	"while [ $# -ge 2 ]; do\n"
	"	if dpkg --compare-versions \"$1\" lt \"$2\"; then echo '<'\n"
	"	elif dpkg --compare-versions \"$1\" eq \"$2\"; then echo '='\n"
	"	elif dpkg --compare-versions \"$1\" gt \"$2\"; then echo '>'\n"
	"	else echo '?'; fi\n"
	"	shift 2\n"
	"done\n";

/* Skip the test where there is no dpkg to compare with. */
static void
dpkg_peer_or_skip(void)
{
	const char	*argv[] = { "dpkg", "--compare-versions", "1.0~rc1",
			    "lt", "1.0", NULL };
	char		*out, *cause = NULL;
	int		 status;

	if (sysinfo_command(argv, 30000, 4096, 0, &out, NULL, &status,
	    &cause) == -1) {
		print_message("no dpkg to compare with (%s)\n", cause);
		free(cause);
		skip();
	}
	free(out);
	if (status != 0)
		fail_msg("dpkg --compare-versions 1.0~rc1 lt 1.0: exit %d",
		    status);
}

/*
 * Ask dpkg about every pair and fail, after naming each pair where ours
 * and dpkg disagree or that dpkg refused.  A pair is first turned so
 * that ours says a <= b: dpkg's "lt" then answers most in one process.
 */
static void
dpkg_differential(struct ver_pair *p, size_t n, const char *what)
{
	const char	**argv;
	const char	 *t;
	char		 *out, *line, *cause = NULL;
	size_t		  i, wrong = 0;
	int		  ours, theirs, status;

	argv = xcalloc(2 * n + 5, sizeof(*argv));
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = dpkg_pairs_sh;
	argv[3] = "sh";
	for (i = 0; i < n; i++) {
		if (sysinfo_version_cmp(p[i].a, p[i].b) > 0) {
			t = p[i].a;
			p[i].a = p[i].b;
			p[i].b = t;
		}
		argv[4 + 2 * i] = p[i].a;
		argv[5 + 2 * i] = p[i].b;
	}
	if (sysinfo_command(argv, 120000, 16 << 20, 0, &out, NULL, &status,
	    &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(status, 0);
	free(argv);

	line = out;
	for (i = 0; i < n; i++) {
		if (line[0] == '\0' || line[1] != '\n')
			fail_msg("%s: dpkg's answer %zu of %zu is not a line "
			    "of one character", what, i + 1, n);
		ours = ver_sign3(sysinfo_version_cmp(p[i].a, p[i].b));
		theirs = line[0] == '<' ? -1 : line[0] == '=' ? 0 :
		    line[0] == '>' ? 1 : 2;
		line += 2;
		if (theirs == 2) {
			print_message("%s: dpkg refused '%s' or '%s'\n", what,
			    p[i].a, p[i].b);
			wrong++;
		} else if (ours != theirs) {
			print_message("%s: '%s' vs '%s': ours %d, dpkg %d\n",
			    what, p[i].a, p[i].b, ours, theirs);
			wrong++;
		}
	}
	assert_string_equal(line, "");
	free(out);
	if (wrong > 0)
		fail_msg("%s: %zu of %zu pairs ordered unlike dpkg", what,
		    wrong, n);
}

/* qsort's view of strcmp and of ours over an array of strings. */
static int
strcmp_qsort(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
version_qsort(const void *a, const void *b)
{
	return sysinfo_version_cmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Sort the versions with ours, dropping duplicate strings, and check
 * that ours orders every pair of them as the sorted array says: a pair
 * is equal exactly when no neighbour between them differs.  Append each
 * pair of neighbours to p; return how many versions are left.
 */
static size_t
version_chain(const char **v, size_t nv, struct ver_pair *p, size_t *n)
{
	size_t	*steps, i, j;
	int	 want;

	qsort(v, nv, sizeof(*v), strcmp_qsort);
	for (i = j = 0; i < nv; i++)
		if (j == 0 || strcmp(v[j - 1], v[i]) != 0)
			v[j++] = v[i];
	nv = j;
	qsort(v, nv, sizeof(*v), version_qsort);

	/* steps[i]: how many neighbours up to v[i] are strictly ordered. */
	steps = xcalloc(nv + 1, sizeof(*steps));
	for (i = 1; i < nv; i++)
		steps[i] = steps[i - 1] +
		    (sysinfo_version_cmp(v[i - 1], v[i]) != 0);
	for (i = 0; i < nv; i++)
		for (j = i + 1; j < nv; j++) {
			want = steps[j] > steps[i] ? -1 : 0;
			if (ver_sign3(sysinfo_version_cmp(v[i], v[j])) !=
			    want ||
			    ver_sign3(sysinfo_version_cmp(v[j], v[i])) !=
			    -want)
				fail_msg("ours orders '%s' and '%s' unlike "
				    "their neighbours", v[i], v[j]);
		}
	free(steps);
	for (i = 1; i < nv; i++) {
		p[*n].a = v[i - 1];
		p[(*n)++].b = v[i];
	}
	return nv;
}

/* A fixed sequence (xorshift64): a failing pair shows up again on rerun. */
static uint64_t
pair_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Whether s is ASCII (see above for why others are left out). */
static int
version_ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s > 127)
			return 0;
	return 1;
}

/*
 * Every distinct version of the packages dpkg-query lists here, each
 * also without its revision and without its epoch, as one chain; and
 * 300 pairs of them drawn at random.
 */
static void
test_version_dpkg_installed(void **state)
{
	const char	*argv[] = { "dpkg-query", "-W", "-f", "${Version}\n",
			    NULL };
	struct ver_pair	*p;
	const char	**v;
	char		*out, *line, *next, *cause = NULL, **made, *s;
	size_t		 nv = 0, nmade = 0, n = 0, i, j, lines = 0;
	uint64_t	 x = 0x9e3779b97f4a7c15ULL;
	int		 status;

	(void)state;
	dpkg_peer_or_skip();
	if (sysinfo_command(argv, 30000, 64 << 20, 0, &out, NULL, &status,
	    &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(status, 0);
	for (line = out; *line != '\0'; line++)
		lines += *line == '\n';
	v = xcalloc(3 * (lines + 1), sizeof(*v));
	made = xcalloc(2 * (lines + 1), sizeof(*made));
	for (line = out; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		/* Packages known but never installed have no version. */
		if (line[0] == '\0' || !version_ascii(line))
			continue;
		v[nv++] = line;
		if ((s = strrchr(line, '-')) != NULL)
			v[nv++] = made[nmade++] = xstrndup(line,
			    (size_t)(s - line));
		if ((s = strchr(line, ':')) != NULL)
			v[nv++] = made[nmade++] = xstrdup(s + 1);
	}
	p = xcalloc(nv + 300, sizeof(*p));
	nv = version_chain(v, nv, p, &n);
	assert_true(nv >= 2);
	for (i = 0; i < 300; i++) {
		j = (size_t)(pair_random(&x) % nv);
		p[n].a = v[j];
		j = (j + 1 + (size_t)(pair_random(&x) % (nv - 1))) % nv;
		p[n++].b = v[j];
	}
	print_message("%zu versions, %zu pairs asked of dpkg\n", nv, n);
	dpkg_differential(p, n, "installed");
	for (i = 0; i < nmade; i++)
		free(made[i]);
	free(made);
	free(p);
	free(v);
	free(out);
}

/*
 * Versions made to sit on the edges of dpkg's rules, as one chain:
 * tildes against the end, letters against digits and other characters,
 * leading zeros, numbers beyond 64 bits, epochs and empty revisions, and
 * versions dpkg only warns about (no leading digit, odd characters).
 */
static void
test_version_dpkg_edges(void **state)
{
	static const char *const edges[] = {
		"~", "~~", "~~a", "~a", "a", "A", "Z", "z", "a1", "aa",
		"0", "00", "0~", "0.0", "0-0", ".1", "+1",
		"1", "1~", "1a", "1A", "1.", "1.a", "1.+", "1.~", "1.0~~",
		"1.0~~a", "1.0~", "1.0", "1.0-0", "1.0-00", "1.0-0~",
		"1.0-~", "1.0-0.0", "1.0a", "1.0A", "1.0+", "1.0.",
		"1.0.0", "1.0-1", "1.0-1~bpo", "1.0-1~bpo12+1", "1.0-1+b1",
		"1.0-1.1", "1.0-a", "1.0-1-1", "1.0_1", "1.0%", "1.0a~",
		"1.01", "1.1", "1.001", "1.10", "1.9",
		"0:1.0", "00:1.0", "1:0", "1:1.0", "01:1.0", "1:1.0-1",
		"1:2:3", "1:2.3", "2147483647:1", "+1:0", "+0:1.0",
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999999", "0000000000000000000000001",
		"1.18446744073709551616", "1.18446744073709551617",
		"1.0-18446744073709551616",
		/* dpkg's parser drops blanks around a version. */
		" 1.0a", "1.0b\t", "\t 1:1.0-2 ",
	};
	struct ver_pair	 p[nitems(edges)];
	const char	*v[nitems(edges)];
	size_t		 n = 0;

	(void)state;
	dpkg_peer_or_skip();
	memcpy(v, edges, sizeof(v));
	assert_int_equal(version_chain(v, nitems(v), p, &n), nitems(v));
	print_message("%zu versions, %zu pairs asked of dpkg\n", nitems(v), n);
	dpkg_differential(p, n, "edges");
}

/*
 * The lua that runs inside "rpm --eval": read pairs of lines from the
 * file named by %s and print rpm.vercmp of each, one number a line.
 */
static const char rpm_pairs_lua[] =
	"%%{lua:\n"
	"local f = assert(io.open(\"%s\"))\n"
	"while true do\n"
	"	local a = f:read(\"l\")\n"
	"	if a == nil then break end\n"
	"	print(rpm.vercmp(a, f:read(\"l\")) .. \"\\n\")\n"
	"end\n"
	"f:close()\n"
	"}";

/*
 * Ask rpm (rpm.vercmp, rpm's own comparison of two [epoch:]version
 * [-release] strings) about every pair of v, in one process; skip the
 * test where there is no rpm.  Fail, after naming each pair where cmp
 * and rpm disagree.
 */
static void
rpm_differential(const char *const *v, size_t nv,
    int (*cmp)(const char *, const char *), const char *what)
{
	const char	*argv[] = { "rpm", "--eval", NULL, NULL };
	char		 path[] = "/tmp/perfwatch-rpm.XXXXXX";
	char		*out, *p, *end, *lua, *cause = NULL;
	size_t		 i, j, n = 0, wrong = 0;
	long		 theirs;
	int		 fd, ours, status;
	FILE		*f;

	assert_true((fd = mkstemp(path)) != -1);
	assert_non_null(f = fdopen(fd, "w"));
	for (i = 0; i < nv; i++)
		for (j = i + 1; j < nv; j++)
			fprintf(f, "%s\n%s\n", v[i], v[j]);
	assert_int_equal(fclose(f), 0);
	xasprintf(&lua, rpm_pairs_lua, path);
	argv[2] = lua;
	if (sysinfo_command(argv, 60000, 16 << 20, 0, &out, NULL, &status,
	    &cause) == -1) {
		unlink(path);
		free(lua);
		print_message("no rpm to compare with (%s)\n", cause);
		free(cause);
		skip();
	}
	unlink(path);
	free(lua);
	assert_int_equal(status, 0);

	p = out;
	for (i = 0; i < nv; i++)
		for (j = i + 1; j < nv; j++) {
			theirs = strtol(p, &end, 10);
			if (end == p)
				fail_msg("%s: rpm's answer %zu is not a number",
				    what, n + 1);
			p = end;
			n++;
			ours = ver_sign3(cmp(v[i], v[j]));
			if (ours != ver_sign3((int)theirs)) {
				print_message("%s: '%s' vs '%s': ours %d, rpm "
				    "%ld\n", what, v[i], v[j], ours, theirs);
				wrong++;
			}
		}
	p += strspn(p, " \n");
	assert_string_equal(p, "");
	free(out);
	print_message("%s: %zu pairs asked of rpm\n", what, n);
	if (wrong > 0)
		fail_msg("%s: %zu of %zu pairs ordered unlike rpm", what,
		    wrong, n);
}

/*
 * rpm's order against rpm itself, each version against each (rpm runs
 * once for all of them): version strings alone, for sysinfo_rpmvercmp,
 * then whole EVRs, for sysinfo_rpm_version_cmp.  Every EVR has a
 * release: where only one side has one, rpm.vercmp puts the one without
 * first, while we follow pacman and compare no releases (rpm itself
 * never meets that: every package it installs has a release).
 */
static void
test_version_rpm_peer(void **state)
{
	static const char *const seg[] = {
		"~", "~~", "^", "^^", "a", "A", "Z", "z", "aa", "a1", "1a",
		"0", "00", "1", "01", "001.1", "1.0", "1.0.", ".1", "1..0",
		"1_0", "1+", "1.0~~", "1.0~", "1.0~rc1", "1.0~rc1^git1",
		"1.0^", "1.0^git1", "1.0^~", "1.0~^", "1.0^20160101",
		"1.0.1", "1.01", "1.1", "1.a", "1a.0", "1.0a", "1.0A",
		"5.5p1", "5.5p10", "10xyz", "10.1xyz", "xyz10", "xyz.4",
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999999", "1.18446744073709551617",
	};
	static const char *const evr[] = {
		"1.0-1", "1.0-2", "1.0-1.el9", "1.0-1.el9_1", "1.0-10",
		"0:1.0-1", "1:1.0-1", "01:1.0-1", "2:0.1-1", ":1.0-1",
		"1.0~rc1-1", "1.0-1~rc1", "1.0-1^post", "1.0^git1-1",
		"1-2-3", "1:2:3-4", "a:1-1", "+1:0-1", "1.0-a",
		"6.12.0-124.28.1.el10_1", "6.12.0-55.9.1.el10_0",
		"99999999999999999998:1-1", "99999999999999999999:1-1",
	};

	(void)state;
	rpm_differential(seg, nitems(seg), sysinfo_rpmvercmp, "rpm versions");
	rpm_differential(seg, nitems(seg), sysinfo_rpm_version_cmp,
	    "rpm versions as EVRs");
	rpm_differential(evr, nitems(evr), sysinfo_rpm_version_cmp,
	    "rpm EVRs");
}

/*
 * pacman's order, which is libalpm's alpm_pkg_vercmp and not rpm's: its
 * rpmvercmp is rpm 4.8's, without '~' or '^', with separators counted,
 * and a rest that starts with a letter older than no rest ("6.8rc7" is
 * before "6.8", as vercmp(8) lists "1.0a < 1.0alpha < ... < 1.0rc <
 * 1.0 < 1.0.a < 1.0.1").  Every pair was asked of libalpm 13.0.2
 * (pacman 6.0.2); a pacman snapshot is diffed by these rules.
 */
static void
test_version_pacman(void **state)
{
	static const struct {
		const char	*a;
		const char	*b;
		int		 cmp;
	} ref[] = {
		{ "1.0a", "1.0", -1 }, { "1.0alpha", "1.0a", 1 },
		{ "1.0b", "1.0alpha", 1 }, { "1.0beta", "1.0b", 1 },
		{ "1.0p", "1.0beta", 1 }, { "1.0pre", "1.0p", 1 },
		{ "1.0rc", "1.0pre", 1 }, { "1.0", "1.0rc", 1 },
		{ "1.0.a", "1.0", 1 }, { "1.0.1", "1.0.a", 1 },
		{ "6.8rc7-1", "6.8-1", -1 }, { "9.6", "9.6p1", 1 },
		{ "1.0a", "1.0a1", -1 }, { "1.0.0", "1.0a", 1 },
		/* No tilde or caret of rpm's: separators like the others. */
		{ "1.0~rc1", "1.0", 1 }, { "1.0^", "1.0", 1 },
		/* Separators count, when a segment follows them. */
		{ "1.0", "1..0", -1 }, { "1.0", "1.0.", -1 },
		{ "1.0_1", "1.0.1", 0 }, { "1.0+r1", "1.0.r1", 0 },
		/* Epochs, and releases only when both have one. */
		{ "1.0-1", "1.0", 0 }, { "1.0-1", "1.0-2", -1 },
		{ "1:1.0-1", "2.0-1", 1 }, { "2:1.0-1", "1:3.0-1", 1 },
		{ "0:1.0", "1.0", 0 }, { ":1.0", "1.0", 0 },
		{ "1.0-rc1", "1.0", 0 }, { "1.2.3-1.1", "1.2.3-1", 1 },
		{ "5.2.037-1", "5.2.37-1", 0 }, { "3.10.1-1", "3.9.18-2", 1 },
		{ "r1000.b481c3c", "r37.e481c3c", 1 }, { "20141130", "012", 1 },
		{ "2.0", "2.011", -1 }, { "1.0.0.0.0.0", "1.0", 1 },
		{ "1", "1.0", -1 }, { "a1", "1", -1 },
	};
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	size_t			 i;
	int			 c;

	(void)state;
	for (i = 0; i < nitems(ref); i++) {
		c = sysinfo_pkg_version_cmp("pacman", ref[i].a, ref[i].b);
		if ((c > 0) - (c < 0) != ref[i].cmp)
			fail_msg("pacman %s vs %s: %d, want %d", ref[i].a,
			    ref[i].b, c, ref[i].cmp);
		c = sysinfo_pkg_version_cmp("pacman", ref[i].b, ref[i].a);
		assert_int_equal((c > 0) - (c < 0), -ref[i].cmp);
	}

	/* A release after its candidates is an upgrade in a diff. */
	a = sysinfo_snapshot_new();
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "pkg.manager", "pacman");
	sysinfo_snapshot_set(b, "pkg.manager", "pacman");
	sysinfo_snapshot_add_package(a, "linux-mainline", "6.8rc7-1",
	    "x86_64");
	sysinfo_snapshot_add_package(b, "linux-mainline", "6.8-1", "x86_64");
	d = sysinfo_diff(a, b);
	assert_int_equal(d->nchanges, 1);
	assert_int_equal(d->changes[0].kind, CHANGE_PKG_UPGRADED);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/* dpkg-a: trimmed from this Debian 12 machine's own database. */
static void
test_dpkg_fixture_a(void **state)
{
	struct snapshot	*s;

	(void)state;
	s = dpkg_fixture("dpkg-a");
	assert_int_equal(s->npackages, 49);
	assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"), "dpkg");
	check_package(s, "auditd", "amd64", "1:3.0.9-1");
	check_package(s, "libc6", "amd64", "2.36-9+deb12u14");
	check_package(s, "adduser", "all", "3.134");
	check_package(s, "bash", "amd64", "5.2.15-2+b8");
	check_package(s, "clang", "amd64", "1:14.0-55.7~deb12u1");
	check_package(s, "libevent-2.1-7", "amd64", "2.1.12-stable-8+deb12u1");
	check_package(s, "bonnie++", "amd64", "2.00a+nmu1");
	assert_null(sysinfo_snapshot_package(s, "libc6", "i386"));
	assert_null(sysinfo_snapshot_package(s, "audispd-plugins", NULL));
	assert_string_equal(s->packages[0].name, "adduser");
	assert_string_equal(s->packages[s->npackages - 1].name, "zlib1g");
	check_sorted(s);
	sysinfo_snapshot_free(s);
}

/* dpkg-b: journal entries, config-files, not-installed, hold, multiarch. */
static void
test_dpkg_fixture_b(void **state)
{
	struct snapshot	*s;
	char		*cause = NULL;

	(void)state;
	s = dpkg_fixture("dpkg-b");
	assert_int_equal(s->npackages, 49);
	check_package(s, "bash", "amd64", "5.2.37-2");	/* updates/0000 */
	check_package(s, "auditd", "amd64", "1:3.1-1");
	check_package(s, "zlib1g", "amd64", "1:1.2.13.dfsg-1");	/* hold */
	check_package(s, "dash", "amd64", "0.5.12-2");	/* half-configured */
	check_package(s, "libc6", "amd64", "2.36-9+deb12u14");
	check_package(s, "libc6", "i386", "2.36-9+deb12u14");
	assert_null(sysinfo_snapshot_package(s, "make", NULL));
	assert_null(sysinfo_snapshot_package(s, "libaudit-dev", NULL));
	assert_null(sysinfo_snapshot_package(s, "bonnie++", NULL));
	check_sorted(s);
	sysinfo_snapshot_free(s);

	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_dpkg_read(s, "/nonexistent/dpkg", &cause),
	    -1);
	assert_string_equal(cause,
	    "/nonexistent/dpkg/status: No such file or directory");
	free(cause);
	sysinfo_snapshot_free(s);
}

/*
 * Write text as the status file of a new dpkg admin directory made from
 * the template dir; *path gets the file's name (dpkg_status_remove).
 */
static void
dpkg_status_write(char *dir, const char *text, char **path)
{
	FILE	*f;

	assert_non_null(mkdtemp(dir));
	xasprintf(path, "%s/status", dir);
	f = fopen(*path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void
dpkg_status_remove(const char *dir, char *path)
{
	unlink(path);
	rmdir(dir);
	free(path);
}

/* Parse dpkg text without a final newline and with odd spacing. */
static void
test_dpkg_parse_edges(void **state)
{
	struct snapshot	*s;
	char		 dir[] = "/tmp/perfwatch-dpkg.XXXXXX", *path;
	char		*cause = NULL;

	(void)state;
	dpkg_status_write(dir, "Package: foo\r\nstatus:  install ok installed \r\n"
	    "Version: 1.0-1\r\nDescription: a\r\n  Package: notme\r\n\r\n"
	    "Package: bar\nStatus: install ok installed\nVersion: 2\n"
	    "Architecture: amd64", &path);
	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_dpkg_read(s, dir, &cause), 0);
	assert_int_equal(s->npackages, 2);
	check_package(s, "foo", "", "1.0-1");
	check_package(s, "bar", "amd64", "2");
	assert_null(sysinfo_snapshot_package(s, "notme", NULL));
	sysinfo_snapshot_free(s);
	dpkg_status_remove(dir, path);
}

/*
 * A status file read while rewritten in place, cut in its last stanza: an
 * error naming the file and the stanza, not a package with no version
 * (which the next run would report as upgraded from nothing).
 */
static void
test_dpkg_cut_short(void **state)
{
	struct snapshot	*s;
	char		 dir[] = "/tmp/perfwatch-dpkg.XXXXXX", *path;
	char		*cause = NULL;

	(void)state;
	dpkg_status_write(dir, "Package: auditd\nStatus: install ok installed\n"
	    "Version: 1:3.0.9-1\n\nPackage: gone\nStatus: deinstall ok "
	    "not-installed\n\nPackage: grep\nStatus: install ok installed\n"
	    "Architecture: amd64\nVers", &path);
	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_dpkg_read(s, dir, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "/status:8: package \"grep\" is "
	    "installed but has no Version"));
	assert_int_equal(s->npackages, 0);
	free(cause);
	sysinfo_snapshot_free(s);
	dpkg_status_remove(dir, path);
}

/* Write text as the journal file updates/<name> of admin directory dir. */
static void
dpkg_journal_write(const char *dir, const char *name, const char *text)
{
	FILE	*f;
	char	*path;

	xasprintf(&path, "%s/updates", dir);
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
	free(path);
	xasprintf(&path, "%s/updates/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(path);
}

static void
dpkg_journal_remove(const char *dir, const char *name)
{
	char	*path;

	xasprintf(&path, "%s/updates/%s", dir, name);
	unlink(path);
	free(path);
}

/*
 * Journal records meet the instances the status file has as dpkg's
 * parse_find_pkg_slot() has them meet: tool, installed once for amd64,
 * cross-graded to all in updates/ (as an interrupted dpkg leaves it) is
 * one package of arch all, as dpkg-query lists it, not that and the
 * amd64 one beside it.  Two Multi-Arch: same instances keep their own
 * records (libc6), and a Multi-Arch: same package gains a second arch
 * (zlib1g:i386 beside amd64) rather than losing its first.
 */
static void
test_dpkg_journal_crossgrade(void **state)
{
	struct snapshot	*s;
	char		 dir[] = "/tmp/perfwatch-dpkg.XXXXXX", *path, *cause = NULL;
	char		*updates;

	(void)state;
	dpkg_status_write(dir,
	    "Package: bash\nStatus: install ok installed\n"
	    "Architecture: amd64\nVersion: 5.2.15-2+b8\n\n"
	    "Package: libc6\nStatus: install ok installed\n"
	    "Architecture: amd64\nMulti-Arch: same\nVersion: 2.36-9\n\n"
	    "Package: libc6\nStatus: install ok installed\n"
	    "Architecture: i386\nMulti-Arch: same\nVersion: 2.36-9\n\n"
	    "Package: tool\nStatus: install ok installed\n"
	    "Architecture: amd64\nVersion: 1.0-1\n\n"
	    "Package: zlib1g\nStatus: install ok installed\n"
	    "Architecture: amd64\nMulti-Arch: same\n"
	    "Version: 1:1.2.13.dfsg-1\n", &path);
	dpkg_journal_write(dir, "0000", "Package: libc6\n"
	    "Status: install ok unpacked\nArchitecture: i386\n"
	    "Multi-Arch: same\nVersion: 2.36-10\n");
	dpkg_journal_write(dir, "0001", "Package: tool\n"
	    "Status: install ok unpacked\nArchitecture: all\n"
	    "Version: 1.1-1\n");
	dpkg_journal_write(dir, "0002", "Package: bash\n"
	    "Status: install ok installed\nArchitecture: amd64\n"
	    "Version: 5.2.37-2\n");
	dpkg_journal_write(dir, "0003", "Package: zlib1g\n"
	    "Status: install ok unpacked\nArchitecture: i386\n"
	    "multi-arch: Same\nVersion: 1:1.2.13.dfsg-1\n");
	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_dpkg_read(s, dir, &cause), 0);
	assert_int_equal(s->npackages, 6);
	check_package(s, "tool", "all", "1.1-1");
	assert_null(sysinfo_snapshot_package(s, "tool", "amd64"));
	check_package(s, "libc6", "amd64", "2.36-9");
	check_package(s, "libc6", "i386", "2.36-10");
	check_package(s, "bash", "amd64", "5.2.37-2");
	check_package(s, "zlib1g", "amd64", "1:1.2.13.dfsg-1");
	check_package(s, "zlib1g", "i386", "1:1.2.13.dfsg-1");
	check_sorted(s);
	sysinfo_snapshot_free(s);

	dpkg_journal_remove(dir, "0000");
	dpkg_journal_remove(dir, "0001");
	dpkg_journal_remove(dir, "0002");
	dpkg_journal_remove(dir, "0003");
	xasprintf(&updates, "%s/updates", dir);
	rmdir(updates);
	free(updates);
	dpkg_status_remove(dir, path);
}

static void
check_change(const struct snapshot_change *c, enum snapshot_change_kind k,
    const char *name, const char *oldv, const char *newv)
{
	if (c->kind != k || strcmp(c->name, name) != 0)
		fail_msg("change %s %s, want %s %s",
		    sysinfo_change_kind_name(c->kind), c->name,
		    sysinfo_change_kind_name(k), name);
	if (oldv == NULL)
		assert_null(c->old_value);
	else
		assert_string_equal(c->old_value, oldv);
	if (newv == NULL)
		assert_null(c->new_value);
	else
		assert_string_equal(c->new_value, newv);
}

/* Two admin directories, one diff naming exactly what changed. */
static void
test_diff_dpkg(void **state)
{
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	json_t			*j, *p;
	char			*text, *sum;
	const char		*want =
	    "installed   audispd-plugins  1:3.1-1\n"
	    "upgraded    auditd           1:3.0.9-1 → 1:3.1-1\n"
	    "upgraded    bash             5.2.15-2+b8 → 5.2.37-2\n"
	    "removed     bonnie++         2.00a+nmu1\n"
	    "upgraded    clang            1:14.0-55.7~deb12u1 → 1:14.0-55.7\n"
	    "upgraded    fio              3.33-3 → 1:3.30-1\n"
	    "upgraded    libauparse0      1:3.0.9-1 → 1:3.1-1\n"
	    "installed   libc6:i386       2.36-9+deb12u14\n"
	    "upgraded    libssl3          3.0.19-1~deb12u2 → 3.0.20-1~deb12u1\n"
	    "removed     make             4.3-4.1\n"
	    "upgraded    openssl          3.0.19-1~deb12u2 → 3.0.20-1~deb12u1\n"
	    "downgraded  tzdata           2025b-0+deb12u2 → 2024a-0+deb12u1\n";

	(void)state;
	a = dpkg_fixture("dpkg-a");
	b = dpkg_fixture("dpkg-b");
	d = sysinfo_diff(a, b);
	assert_int_equal(d->nfields, 0);
	assert_int_equal(d->nchanges, 12);
	check_change(&d->changes[0], CHANGE_PKG_INSTALLED, "audispd-plugins",
	    NULL, "1:3.1-1");
	check_change(&d->changes[1], CHANGE_PKG_UPGRADED, "auditd",
	    "1:3.0.9-1", "1:3.1-1");
	check_change(&d->changes[2], CHANGE_PKG_UPGRADED, "bash",
	    "5.2.15-2+b8", "5.2.37-2");
	check_change(&d->changes[3], CHANGE_PKG_REMOVED, "bonnie++",
	    "2.00a+nmu1", NULL);
	check_change(&d->changes[4], CHANGE_PKG_UPGRADED, "clang",
	    "1:14.0-55.7~deb12u1", "1:14.0-55.7");
	check_change(&d->changes[5], CHANGE_PKG_UPGRADED, "fio", "3.33-3",
	    "1:3.30-1");
	check_change(&d->changes[6], CHANGE_PKG_UPGRADED, "libauparse0",
	    "1:3.0.9-1", "1:3.1-1");
	check_change(&d->changes[7], CHANGE_PKG_INSTALLED, "libc6", NULL,
	    "2.36-9+deb12u14");
	assert_string_equal(d->changes[7].new_arch, "i386");
	assert_true(d->changes[7].multiarch);
	check_change(&d->changes[8], CHANGE_PKG_UPGRADED, "libssl3",
	    "3.0.19-1~deb12u2", "3.0.20-1~deb12u1");
	check_change(&d->changes[9], CHANGE_PKG_REMOVED, "make", "4.3-4.1",
	    NULL);
	check_change(&d->changes[10], CHANGE_PKG_UPGRADED, "openssl",
	    "3.0.19-1~deb12u2", "3.0.20-1~deb12u1");
	check_change(&d->changes[11], CHANGE_PKG_DOWNGRADED, "tzdata",
	    "2025b-0+deb12u2", "2024a-0+deb12u1");

	text = sysinfo_diff_text(d);
	assert_string_equal(text, want);
	free(text);
	sum = sysinfo_diff_summary(d, 3);
	assert_string_equal(sum, "+audispd-plugins 1:3.1-1, auditd 1:3.0.9-1 "
	    "→ 1:3.1-1, bash 5.2.15-2+b8 → 5.2.37-2, and 9 more");
	free(sum);

	j = sysinfo_diff_json(d);
	assert_int_equal(json_array_size(json_object_get(j, "fields")), 0);
	assert_int_equal(json_array_size(json_object_get(j, "packages")), 12);
	p = json_array_get(json_object_get(j, "packages"), 1);
	assert_string_equal(json_string_value(json_object_get(p, "name")),
	    "auditd");
	assert_string_equal(json_string_value(json_object_get(p, "change")),
	    "upgraded");
	assert_string_equal(json_string_value(json_object_get(p, "old")),
	    "1:3.0.9-1");
	assert_string_equal(json_string_value(json_object_get(p, "new")),
	    "1:3.1-1");
	assert_string_equal(json_string_value(json_object_get(p, "arch")),
	    "amd64");
	/* The arch did not move: old_arch is there, null. */
	assert_true(json_is_null(json_object_get(p, "old_arch")));
	p = json_array_get(json_object_get(j, "packages"), 3);
	assert_true(json_is_null(json_object_get(p, "new")));
	json_decref(j);
	sysinfo_diff_free(d);

	/* The other way round mirrors it. */
	d = sysinfo_diff(b, a);
	assert_int_equal(d->nchanges, 12);
	check_change(&d->changes[0], CHANGE_PKG_REMOVED, "audispd-plugins",
	    "1:3.1-1", NULL);
	check_change(&d->changes[11], CHANGE_PKG_UPGRADED, "tzdata",
	    "2024a-0+deb12u1", "2025b-0+deb12u2");
	sysinfo_diff_free(d);

	d = sysinfo_diff(a, a);
	assert_int_equal(d->nchanges, 0);
	text = sysinfo_diff_text(d);
	assert_string_equal(text, "");
	free(text);
	sum = sysinfo_diff_summary(d, 5);
	assert_string_equal(sum, "no changes");
	free(sum);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/* Fields changed, added, removed; rpm kernels side by side; arch moves. */
static void
test_diff_fields_and_rpm(void **state)
{
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	json_t			*j, *f;
	char			*text;

	(void)state;
	a = sysinfo_snapshot_new();
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(b, "kernel.release", "6.1.0-20-amd64");
	sysinfo_snapshot_set(a, "cpu.count", "2");
	sysinfo_snapshot_set(b, "cpu.count", "2");
	sysinfo_snapshot_set(b, "cpu.governor", "performance");
	sysinfo_snapshot_set(a, "mm.thp", "always");
	sysinfo_snapshot_set(a, "pkg.manager", "rpm");
	sysinfo_snapshot_set(b, "pkg.manager", "rpm");
	/* Two kernels installed, one replaced by a newer one. */
	sysinfo_snapshot_add_package(a, "kernel-core",
	    "6.12.0-55.9.1.el10_0", "x86_64");
	sysinfo_snapshot_add_package(a, "kernel-core",
	    "6.12.0-124.28.1.el10_1", "x86_64");
	sysinfo_snapshot_add_package(b, "kernel-core",
	    "6.12.0-124.28.1.el10_1", "x86_64");
	sysinfo_snapshot_add_package(b, "kernel-core",
	    "6.12.0-124.31.1.el10_1", "x86_64");
	/* Same version, another arch. */
	sysinfo_snapshot_add_package(a, "python3-perf", "1.0-1", "noarch");
	sysinfo_snapshot_add_package(b, "python3-perf", "1.0-1", "x86_64");
	/* rpm's '^' sorts after the release it snapshots. */
	sysinfo_snapshot_add_package(a, "tool", "1.0-1", "x86_64");
	sysinfo_snapshot_add_package(b, "tool", "1.0^git5-1", "x86_64");

	d = sysinfo_diff(a, b);
	assert_int_equal(d->nfields, 3);
	assert_int_equal(d->nchanges, 6);
	check_change(&d->changes[0], CHANGE_FIELD_ADDED, "cpu.governor", NULL,
	    "performance");
	check_change(&d->changes[1], CHANGE_FIELD_CHANGED, "kernel.release",
	    "6.1.0-18-amd64", "6.1.0-20-amd64");
	check_change(&d->changes[2], CHANGE_FIELD_REMOVED, "mm.thp", "always",
	    NULL);
	check_change(&d->changes[3], CHANGE_PKG_UPGRADED, "kernel-core",
	    "6.12.0-55.9.1.el10_0", "6.12.0-124.31.1.el10_1");
	check_change(&d->changes[4], CHANGE_PKG_CHANGED, "python3-perf",
	    "1.0-1", "1.0-1");
	assert_string_equal(d->changes[4].old_arch, "noarch");
	assert_string_equal(d->changes[4].new_arch, "x86_64");
	check_change(&d->changes[5], CHANGE_PKG_UPGRADED, "tool", "1.0-1",
	    "1.0^git5-1");

	text = sysinfo_diff_text(d);
	assert_string_equal(text,
	    "cpu.governor    (unset) → performance\n"
	    "kernel.release  6.1.0-18-amd64 → 6.1.0-20-amd64\n"
	    "mm.thp          always → (unset)\n"
	    "\n"
	    "upgraded    kernel-core   6.12.0-55.9.1.el10_0 → "
	    "6.12.0-124.31.1.el10_1\n"
	    "changed     python3-perf  1.0-1 (noarch) → 1.0-1 (x86_64)\n"
	    "upgraded    tool          1.0-1 → 1.0^git5-1\n");
	free(text);
	/* The one-line form says what moved, not "1.0-1 → 1.0-1". */
	text = sysinfo_diff_summary(d, 6);
	assert_string_equal(text,
	    "+cpu.governor performance, "
	    "kernel.release 6.1.0-18-amd64 → 6.1.0-20-amd64, "
	    "-mm.thp always, "
	    "kernel-core 6.12.0-55.9.1.el10_0 → 6.12.0-124.31.1.el10_1, "
	    "python3-perf 1.0-1 (noarch) → 1.0-1 (x86_64), "
	    "tool 1.0-1 → 1.0^git5-1");
	free(text);

	j = sysinfo_diff_json(d);
	f = json_array_get(json_object_get(j, "fields"), 1);
	assert_string_equal(json_string_value(json_object_get(f, "key")),
	    "kernel.release");
	assert_string_equal(json_string_value(json_object_get(f, "change")),
	    "changed");
	assert_string_equal(json_string_value(json_object_get(f, "old")),
	    "6.1.0-18-amd64");
	f = json_array_get(json_object_get(j, "fields"), 0);
	assert_true(json_is_null(json_object_get(f, "old")));
	f = json_array_get(json_object_get(j, "packages"), 1);
	assert_string_equal(json_string_value(json_object_get(f, "old_arch")),
	    "noarch");
	assert_string_equal(json_string_value(json_object_get(f, "arch")),
	    "x86_64");
	json_decref(j);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/*
 * The readable listing and diff line their columns up by what a terminal
 * shows, not by bytes: "café" takes four columns and five bytes, "日本"
 * four and six, so padding by strlen() pushed the next column left.
 * Values are cleaned to valid UTF-8 without controls, keys are ASCII.
 */
static void
test_text_display_width(void **state)
{
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	char			*text;

	(void)state;
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "cpu.model", "Intel® Xeon®");
	sysinfo_snapshot_set(a, "host.name", "bücher");
	sysinfo_snapshot_set(a, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(a, "café", "1.0-1", "amd64");
	sysinfo_snapshot_add_package(a, "fonts-日本", "2.0~ü1", "all");
	sysinfo_snapshot_add_package(a, "zlib1g", "1:1.2.13", "amd64");
	text = sysinfo_snapshot_text(a, SYSINFO_ALL);
	assert_string_equal(text,
	    "cpu.model    Intel® Xeon®\n"
	    "host.name    bücher\n"
	    "pkg.manager  dpkg\n"
	    "packages     3 (dpkg)\n"
	    "  café        1.0-1     amd64\n"
	    "  fonts-日本  2.0~ü1    all\n"
	    "  zlib1g      1:1.2.13  amd64\n");
	free(text);

	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(b, "cpu.model", "Intel® Xeon®");
	sysinfo_snapshot_set(b, "host.name", "bücherei");
	sysinfo_snapshot_set(b, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(b, "café", "1.1-1", "amd64");
	sysinfo_snapshot_add_package(b, "zlib1g", "1:1.2.13", "amd64");
	sysinfo_snapshot_add_package(b, "ñandú", "3.0-1", "amd64");
	d = sysinfo_diff(a, b);
	text = sysinfo_diff_text(d);
	assert_string_equal(text,
	    "host.name  bücher → bücherei\n"
	    "\n"
	    "upgraded    café        1.0-1 → 1.1-1\n"
	    "removed     fonts-日本  2.0~ü1\n"
	    "installed   ñandú       3.0-1\n");
	free(text);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/*
 * A run that recorded no package list (pkg.manager none: the database
 * could not be read) beside one that did: the packages are not compared,
 * either way round, and the manager's change is the one line.  Every
 * package was "removed" (or "installed"), in env diff and in an alert's.
 */
static void
test_diff_no_list(void **state)
{
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	char			*text;

	(void)state;
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(a, "adduser", "3.134", "all");
	sysinfo_snapshot_add_package(a, "zlib1g", "1:1.2.13", "amd64");
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(b, "pkg.manager", "none");
	d = sysinfo_diff(a, b);
	assert_int_equal(d->nchanges, 1);
	assert_int_equal(d->nfields, 1);
	text = sysinfo_diff_text(d);
	assert_string_equal(text, "pkg.manager  dpkg → none\n");
	free(text);
	sysinfo_diff_free(d);
	d = sysinfo_diff(b, a);
	text = sysinfo_diff_text(d);
	assert_string_equal(text, "pkg.manager  none → dpkg\n");
	free(text);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
}

/* The packages of the fixture file name, as parse reads them. */
static struct snapshot *
fixture_parsed(const char *name, int (*parse)(struct snapshot *,
    const char *, size_t, char **))
{
	struct snapshot	*s;
	char		*path, *text, *cause = NULL;
	size_t		 len;

	path = fixture(name);
	if (sysinfo_read_file(path, 1 << 20, &text, &len) != 0)
		fail_msg("%s: %s", path, strerror(errno));
	free(path);
	s = sysinfo_snapshot_new();
	if (parse(s, text, len, &cause) != 0)
		fail_msg("%s: %s", name, cause);
	free(text);
	return s;
}

/* rpm -qa through our query format: AlmaLinux 10, epochs 1 and 2. */
static void
test_rpm_fixture(void **state)
{
	struct snapshot	*s;
	const char	*text;
	char		*cause = NULL;

	(void)state;
	s = fixture_parsed("rpm-qa.txt", sysinfo_rpm_parse);
	assert_int_equal(s->npackages, 40);
	assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"), "rpm");
	check_package(s, "openssl", "x86_64", "1:3.5.1-7.el10_1.alma.1");
	check_package(s, "tar", "x86_64", "2:1.35-9.el10_1");
	check_package(s, "kernel-core", "x86_64", "6.12.0-124.28.1.el10_1");
	check_package(s, "ca-certificates", "noarch",
	    "2025.2.80_v9.0.305-102.el10_1");
	check_package(s, "bash", "x86_64", "5.2.26-6.el10");
	assert_string_equal(s->packages[0].name, "bash");
	check_sorted(s);
	sysinfo_snapshot_free(s);

	s = sysinfo_snapshot_new();
	text = "bash\t5.2.26-6.el10\tx86_64\n\nbroken line\n";
	assert_int_equal(sysinfo_rpm_parse(s, text, strlen(text), &cause), -1);
	assert_string_equal(cause,
	    "rpm -qa: line 3: expected name, version and arch");
	free(cause);
	sysinfo_snapshot_free(s);
}

/* pacman's local database: Arch packages with epochs and "any". */
static void
test_pacman_fixture(void **state)
{
	struct snapshot	*s;
	char		*path, *cause = NULL;

	(void)state;
	path = fixture("pacman");
	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_pacman_read(s, path, &cause), 0);
	free(path);
	assert_int_equal(s->npackages, 7);
	assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"), "pacman");
	check_package(s, "bash", "x86_64", "5.2.037-1");
	check_package(s, "dialog", "x86_64", "1:1.3_20220414-1");
	check_package(s, "gnome-code-assistance", "x86_64",
	    "2:3.16.1+14+gaad6437-2");
	check_package(s, "python-hglib", "any", "2.6.2-4");
	check_package(s, "libasyncns", "x86_64", "0.8+3+g68cd5af-3");
	check_sorted(s);
	sysinfo_snapshot_free(s);

	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_pacman_read(s, "/nonexistent", &cause), -1);
	assert_string_equal(cause, "/nonexistent/local: No such file or "
	    "directory");
	free(cause);
	sysinfo_snapshot_free(s);
}

/* The packages o finds on its own: those of manager, n of them. */
static void
check_packages_auto(const struct sysinfo_opts *o, const char *manager,
    size_t n)
{
	struct snapshot	*s;
	char		*cause = NULL;

	s = sysinfo_snapshot_new();
	if (sysinfo_packages_read(s, o, &cause) == -1)
		fail_msg("%s", cause);
	assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"), manager);
	assert_int_equal(s->npackages, n);
	sysinfo_snapshot_free(s);
}

/*
 * Fedora's dpkg package (for building .debs, for debootstrap) brings an
 * empty /var/lib/dpkg/status: on such a machine the packages are rpm's
 * (or, with another distribution's such package, pacman's), not none of
 * dpkg's.  A dpkg database with packages is still chosen first.
 */
static void
test_pkgmgr_empty_dpkg(void **state)
{
	struct sysinfo_opts	 o;
	char			 dir[] = "/tmp/perfwatch-dpkg.XXXXXX", *path;
	char			*pacman, *full;

	(void)state;
	dpkg_status_write(dir, "", &path);
	pacman = fixture("pacman");
	full = fixture("dpkg-a");
	sysinfo_opts_init(&o);
	o.dpkg_admindir = dir;
	o.pacman_dbpath = pacman;
	check_packages_auto(&o, "pacman", 7);
	assert_int_equal(sysinfo_dpkg_in_use(dir), 0);
	o.dpkg_admindir = full;
	check_packages_auto(&o, "dpkg", 49);
	assert_int_equal(sysinfo_dpkg_in_use(full), 1);
	assert_int_equal(sysinfo_dpkg_in_use("/nonexistent"), 0);
	free(full);
	free(pacman);
	dpkg_status_remove(dir, path);
}

/* FreeBSD pkg query '%n %v %q'. */
static void
test_pkgng_fixture(void **state)
{
	struct snapshot	*s;

	(void)state;
	s = fixture_parsed("pkg-query.txt", sysinfo_pkgng_parse);
	assert_int_equal(s->npackages, 12);
	assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"), "pkg");
	check_package(s, "sqlite3", "FreeBSD:14:amd64", "3.45.1,1");
	check_package(s, "perl5", "FreeBSD:14:amd64", "5.36.3_1");
	check_package(s, "sudo", "FreeBSD:14:amd64", "1.9.15p5");
	check_sorted(s);
	sysinfo_snapshot_free(s);
}

/* Control bytes and broken UTF-8 are cleaned; bad keys refused. */
static void
test_clean_strings(void **state)
{
	struct snapshot	*s;

	(void)state;
	s = sysinfo_snapshot_new();
	assert_int_equal(sysinfo_snapshot_set(s, "a.b", "x\ty\nz\x7f"), 0);
	assert_string_equal(sysinfo_snapshot_get(s, "a.b"), "x y z ");
	assert_int_equal(sysinfo_snapshot_set(s, "c", "caf\xc3\xa9 \xff\xc3"
	    " \xed\xa0\x80 \xe2\x86\x92"), 0);
	assert_string_equal(sysinfo_snapshot_get(s, "c"),
	    "caf\xc3\xa9 ?? ??? \xe2\x86\x92");
	/* C1 controls (CSI U+009B, NEL U+0085) too; NBSP U+00A0 is text. */
	assert_int_equal(sysinfo_snapshot_set(s, "c1", "a\xc2\x9b" "2J"
	    "\xc2\x85" "b\xc2\xa0" "c"), 0);
	assert_string_equal(sysinfo_snapshot_get(s, "c1"),
	    "a 2J b\xc2\xa0" "c");
	assert_int_equal(sysinfo_snapshot_set(s, "bad key", "v"), -1);
	assert_int_equal(sysinfo_snapshot_set(s, "", "v"), -1);
	assert_int_equal(sysinfo_snapshot_set(s, "a=b", "v"), -1);
	assert_null(sysinfo_snapshot_get(s, "bad key"));
	assert_int_equal(s->nfields, 3);
	assert_int_equal(sysinfo_snapshot_set(s, "a.b", "new"), 0);
	assert_string_equal(sysinfo_snapshot_get(s, "a.b"), "new");
	assert_int_equal(sysinfo_snapshot_unset(s, "a.b"), 0);
	assert_int_equal(sysinfo_snapshot_unset(s, "a.b"), -1);
	assert_int_equal(s->nfields, 2);
	sysinfo_snapshot_add_package(s, "p\n", "1\xff", "amd64");
	check_package(s, "p ", "amd64", "1?");
	sysinfo_snapshot_add_package(s, "p ", "1?", "amd64");
	assert_int_equal(s->npackages, 1);
	sysinfo_snapshot_free(s);
}

/* Hashes follow the canonical text documented in sysinfo.h. */
static void
test_hashes(void **state)
{
	struct snapshot	*s, *t;
	char		 h1[SYSINFO_HASH_LEN + 1], h2[SYSINFO_HASH_LEN + 1];
	char		 p1[SYSINFO_HASH_LEN + 1], p2[SYSINFO_HASH_LEN + 1];

	(void)state;
	s = sysinfo_snapshot_new();
	sysinfo_fields_hash(s, h1);
	assert_string_equal(h1, "9c8db52d2a2260be9bc8710ea9db843b"
	    "6dae267cb46fa07dac744fb36081c42c");
	sysinfo_packages_hash(s, p1);
	assert_string_equal(p1, "c07e84400a741b23e9aef711485ef407"
	    "65aa2d74ad1830517a7663c38e9164f9");

	/* Insertion order does not matter; the values match sha256sum of
	 * the canonical text. */
	sysinfo_snapshot_set(s, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(s, "cpu.count", "2");
	sysinfo_snapshot_add_package(s, "libc6", "2.36-9+deb12u14", "i386");
	sysinfo_snapshot_add_package(s, "auditd", "1:3.0.9-1", "amd64");
	sysinfo_snapshot_add_package(s, "libc6", "2.36-9+deb12u14", "amd64");
	sysinfo_fields_hash(s, h1);
	assert_string_equal(h1, "4015c01445913c844226fca43b80860b"
	    "5afb161f551341e58c41e1fe757e4e84");
	sysinfo_packages_hash(s, p1);
	assert_string_equal(p1, "d10203c7228c54e159f37664a0633f36"
	    "8a12d91324d52f9300df24601baf0dfb");

	/* A changed field changes the fields hash only. */
	t = sysinfo_snapshot_new();
	sysinfo_snapshot_add_package(t, "libc6", "2.36-9+deb12u14", "amd64");
	sysinfo_snapshot_add_package(t, "libc6", "2.36-9+deb12u14", "i386");
	sysinfo_snapshot_add_package(t, "auditd", "1:3.0.9-1", "amd64");
	sysinfo_snapshot_set(t, "cpu.count", "2");
	sysinfo_snapshot_set(t, "kernel.release", "6.1.0-20-amd64");
	sysinfo_fields_hash(t, h2);
	sysinfo_packages_hash(t, p2);
	assert_string_not_equal(h1, h2);
	assert_string_equal(p1, p2);
	assert_true(sysinfo_snapshot_equal(s, t, SYSINFO_PACKAGES));
	assert_false(sysinfo_snapshot_equal(s, t, SYSINFO_FIELDS));
	sysinfo_snapshot_set(t, "kernel.release", "6.1.0-18-amd64");
	sysinfo_fields_hash(t, h2);
	assert_string_equal(h1, h2);
	assert_true(sysinfo_snapshot_equal(s, t, SYSINFO_ALL));

	/* An upgrade changes the package hash; a tab cannot forge one. */
	sysinfo_snapshot_clear_packages(t);
	sysinfo_snapshot_add_package(t, "auditd", "1:3.1-1", "amd64");
	sysinfo_packages_hash(t, p2);
	assert_string_not_equal(p1, p2);
	sysinfo_snapshot_set(t, "a", "b\tc");
	sysinfo_snapshot_set(s, "a\tb", "c");	/* refused */
	assert_null(sysinfo_snapshot_get(s, "a\tb"));
	sysinfo_snapshot_free(s);
	sysinfo_snapshot_free(t);
}

/* JSON out and back in, whole or in two halves. */
static void
test_json_roundtrip(void **state)
{
	struct snapshot	*s, *t, *u;
	json_t		*j;
	char		*all, *fields, *pkgs, *cause = NULL, *again;
	char		 h1[SYSINFO_HASH_LEN + 1], h2[SYSINFO_HASH_LEN + 1];

	(void)state;
	s = dpkg_fixture("dpkg-b");
	sysinfo_snapshot_set(s, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(s, "kernel.version",
	    "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
	sysinfo_snapshot_set(s, "cpu.model", "Intel(R) Core(TM) i7 \"quoted\" "
	    "caf\xc3\xa9 \\ back");
	all = sysinfo_snapshot_dump(s, SYSINFO_ALL);
	t = sysinfo_snapshot_load(all, &cause);
	if (t == NULL)
		fail_msg("%s", cause);
	assert_true(sysinfo_snapshot_equal(s, t, SYSINFO_ALL));
	sysinfo_fields_hash(s, h1);
	sysinfo_fields_hash(t, h2);
	assert_string_equal(h1, h2);
	again = sysinfo_snapshot_dump(t, SYSINFO_ALL);
	assert_string_equal(all, again);
	free(again);

	fields = sysinfo_snapshot_dump(s, SYSINFO_FIELDS);
	pkgs = sysinfo_snapshot_dump(s, SYSINFO_PACKAGES);
	assert_null(strstr(fields, "\"packages\""));
	assert_null(strstr(pkgs, "\"fields\""));
	assert_non_null(strstr(pkgs, "[\"auditd\",\"1:3.1-1\",\"amd64\"]"));
	u = sysinfo_snapshot_new();
	j = json_loads(fields, 0, NULL);
	assert_int_equal(sysinfo_snapshot_load_json(u, j, &cause), 0);
	json_decref(j);
	assert_int_equal(u->npackages, 0);
	j = json_loads(pkgs, 0, NULL);
	assert_int_equal(sysinfo_snapshot_load_json(u, j, &cause), 0);
	json_decref(j);
	assert_true(sysinfo_snapshot_equal(s, u, SYSINFO_ALL));
	free(all);
	free(fields);
	free(pkgs);
	sysinfo_snapshot_free(t);
	sysinfo_snapshot_free(u);
	sysinfo_snapshot_free(s);

	assert_null(sysinfo_snapshot_load("{\"format\": 2}", &cause));
	assert_string_equal(cause, "snapshot: unknown format 2");
	free(cause);
	assert_null(sysinfo_snapshot_load("{\"fields\": {\"a\": 1}}", &cause));
	assert_string_equal(cause, "snapshot: field \"a\" is not a string");
	free(cause);
	assert_null(sysinfo_snapshot_load("{\"packages\": [[\"a\", \"1\"]]}",
	    &cause));
	assert_string_equal(cause,
	    "snapshot: package 0 is not [name, version, arch]");
	free(cause);
	assert_null(sysinfo_snapshot_load("{\"fields\": {\"a b\": \"1\"}}",
	    &cause));
	assert_string_equal(cause, "snapshot: bad field name \"a b\"");
	free(cause);
	assert_null(sysinfo_snapshot_load("[1,", &cause));
	assert_non_null(strstr(cause, "snapshot: line 1:"));
	free(cause);
}

/* Fail unless field key of s is want (NULL: absent); what names s. */
static void
check_field(const struct snapshot *s, const char *what, const char *key,
    const char *want)
{
	const char	*v = sysinfo_snapshot_get(s, key);

	if (v == NULL && want == NULL)
		return;
	if (v == NULL || want == NULL || strcmp(v, want) != 0)
		fail_msg("%s: %s %s, want %s", what, key,
		    v != NULL ? v : "absent", want != NULL ? want : "absent");
}

/* Every Linux field, from a fixture tree of a laptop's /proc and /sys. */
static void
test_snapshot_fixture_root(void **state)
{
	static const char *const want[][2] = {
		{ "kernel.release", "6.1.0-18-amd64" },
		{ "kernel.version",
		    "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)" },
		{ "kernel.cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 "
		    "root=UUID=5e3c7f0e-8f0a-4d5b-9a55-0f6b1c2d3e4f ro quiet" },
		{ "cpu.model", "Intel(R) Core(TM) i7-8565U CPU @ 1.80GHz" },
		{ "cpu.microcode", "0xf8" },
		{ "cpu.count", "8" },
		{ "cpu.smt", "on" },
		{ "cpu.governor", "performance,powersave" },
		{ "cpu.freq_driver", "intel_pstate" },
		{ "cpu.epp", "balance_performance" },
		{ "cpu.boost", "on" },
		{ "cpu.pstate", "active" },
		{ "cpu.idle_driver", "intel_idle" },
		{ "cpu.mitigations.meltdown", "Mitigation: PTI" },
		{ "cpu.mitigations.mds", "Not affected" },
		{ "mem.total_kb", "16203268" },
		{ "swap.total_kb", "999420" },
		{ "mm.thp", "madvise" },
		{ "mm.thp_defrag", "madvise" },
		{ "mm.swappiness", "60" },
		{ "os.id", "debian" },
		{ "os.version", "12" },
		{ "os.name", "Debian GNU/Linux 12 (bookworm)" },
		{ "os.debian_version", "12.5" },
		/* The tree's mount table has "/" on sda2, of disk sda. */
		{ "fs.type", "ext4" },
		{ "fs.device", "/dev/sda2" },
		{ "fs.options", "rw,relatime,errors=remount-ro" },
		{ "fs.scheduler", "mq-deadline" },
		{ "fs.rotational", "0" },
		/* The configured locale, not the test's environment. */
		{ "locale.LANG", "en_US.UTF-8" },
		{ "locale.LC_TIME", "en_GB.UTF-8" },
		{ "locale.LC_ALL", NULL },
		{ "cc", NULL },
	};
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	char			*root, *admin, *cause = NULL, *text;
	size_t			 i;

	(void)state;
	root = fixture("root");
	admin = fixture("dpkg-a");
	sysinfo_opts_init(&o);
	o.root = root;
	o.dpkg_admindir = admin;
	o.cc = NULL;
	setenv("LC_ALL", "C", 1);
	s = sysinfo_snapshot_take(".", &o, &cause);
	unsetenv("LC_ALL");
	if (s == NULL)
		fail_msg("%s", cause);
	for (i = 0; i < nitems(want); i++)
		check_field(s, "root", want[i][0], want[i][1]);
	assert_non_null(strstr(sysinfo_snapshot_get(s,
	    "cpu.mitigations.spectre_v2"), "Enhanced / Automatic IBRS"));
	assert_int_equal(s->npackages, 49);
	check_sorted(s);
	text = sysinfo_snapshot_text(s, SYSINFO_FIELDS);
	/* Keys padded to the longest, cpu.mitigations.spectre_v2. */
	assert_non_null(strstr(text,
	    "\npackages                    49 (dpkg)\n"));
	assert_non_null(strstr(text,
	    "\nfs.type                     ext4\n"));
	free(text);
	sysinfo_snapshot_free(s);

	assert_null(sysinfo_snapshot_take("/nonexistent/work", &o, &cause));
	assert_string_equal(cause,
	    "/nonexistent/work: No such file or directory");
	free(cause);
	free(root);
	free(admin);
}

/* A snapshot of tree root, of its fields alone (no packages, no cc). */
static struct snapshot *
snapshot_of_tree(const char *root)
{
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	char			*cause = NULL;

	sysinfo_opts_init(&o);
	o.root = root;
	o.cc = NULL;
	o.pkgmgr = SYSINFO_PKG_NONE;
	if ((s = sysinfo_snapshot_take(".", &o, &cause)) == NULL)
		fail_msg("%s: %s", root, cause);
	return s;
}

/*
 * cpu.model where /proc/cpuinfo has no "model name": arm64 names the
 * core by implementer and part; LoongArch says "Model Name" after a
 * "system type" paragraph, and s390x gives its machine type in each CPU's
 * paragraph after a summary of all of them, so neither has the model in
 * the file's first paragraph.
 */
static void
test_cpuinfo_models(void **state)
{
	static const struct {
		const char	*tree;
		const char	*model;
	} t[] = {
		{ "cpuinfo-arm64", "implementer 0x41 part 0xd0c" },
		{ "cpuinfo-loong64", "Loongson-3A5000" },
		{ "cpuinfo-s390x", "IBM/S390 machine 8561" },
	};
	struct snapshot	*s;
	char		*root;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(t); i++) {
		root = fixture(t[i].tree);
		s = snapshot_of_tree(root);
		check_field(s, t[i].tree, "cpu.model", t[i].model);
		check_field(s, t[i].tree, "cpu.microcode", NULL);
		sysinfo_snapshot_free(s);
		free(root);
	}
}

/* Write text to the file rel under root, making its directories. */
static void
tree_write(const char *root, const char *rel, const char *text)
{
	char	*path, *p;
	FILE	*f;

	xasprintf(&path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) == -1 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(path);
}

/* rm -rf dir. */
static void
tree_remove(const char *dir)
{
	const char	*argv[] = { "rm", "-rf", dir, NULL };
	char		*out, *cause = NULL;
	int		 status;

	if (sysinfo_command(argv, 10000, 1 << 20, 0, &out, NULL, &status,
	    &cause) == -1)
		fail_msg("%s", cause);
	free(out);
	assert_int_equal(status, 0);
}

/*
 * btrfs shows an anonymous device (0:35) in the mount table: the queue is
 * that of the mount's source, which is found in sysfs under the tree,
 * not by stat() of /dev, which a service with PrivateDevices= (as
 * perfwatchd's unit has) or a container lacks: the daemon's snapshots had
 * no fs.scheduler where a hand run's had one.  The tree's / is btrfs on
 * /dev/mapper/luks-... (dm-0, over nvme0n1p3), as Fedora installs it;
 * a copy of its mount table names the partition itself.
 */
static void
test_snapshot_btrfs_source(void **state)
{
	char		 tmpl[] = "/tmp/pw-sysinfo.XXXXXX";
	char		*roots[2], *sys, *link;
	struct snapshot	*s;
	size_t		 i;

	(void)state;
	roots[0] = fixture("root-btrfs");
	roots[1] = tmpl;
	assert_non_null(mkdtemp(tmpl));
	xasprintf(&sys, "%s/sys", roots[0]);
	xasprintf(&link, "%s/sys", tmpl);
	assert_int_equal(symlink(sys, link), 0);
	tree_write(tmpl, "proc/self/mountinfo", "22 1 0:35 /root / "
	    "rw,relatime shared:1 - btrfs /dev/nvme0n1p3 rw,seclabel,"
	    "compress=zstd:1,ssd,discard=async,space_cache=v2,subvolid=257,"
	    "subvol=/root\n");
	for (i = 0; i < nitems(roots); i++) {
		s = snapshot_of_tree(roots[i]);
		check_field(s, roots[i], "fs.type", "btrfs");
		check_field(s, roots[i], "fs.scheduler", "none");
		check_field(s, roots[i], "fs.rotational", "0");
		sysinfo_snapshot_free(s);
	}
	tree_remove(tmpl);
	free(link);
	free(sys);
	free(roots[0]);
}

/* A new directory under $TMPDIR (else /tmp). */
static char *
tmp_tree(void)
{
	const char	*t = getenv("TMPDIR");
	char		*p;

	xasprintf(&p, "%s/pw-cgroup.XXXXXX", t != NULL && t[0] != '\0' ?
	    t : "/tmp");
	if (mkdtemp(p) == NULL)
		fail_msg("mkdtemp %s: %s", p, strerror(errno));
	return p;
}

/* cp -R fixture name to dir/name; returns that copy. */
static char *
tree_copy(const char *name, const char *dir)
{
	const char	*argv[5];
	char		*src, *dst, *out, *cause = NULL;
	int		 status;

	src = fixture(name);
	xasprintf(&dst, "%s/%s", dir, name);
	argv[0] = "cp";
	argv[1] = "-R";
	argv[2] = src;
	argv[3] = dst;
	argv[4] = NULL;
	if (sysinfo_command(argv, 10000, 1 << 20, 0, &out, NULL, &status,
	    &cause) == -1)
		fail_msg("%s", cause);
	free(out);
	assert_int_equal(status, 0);
	free(src);
	return dst;
}

/* Fail unless s has no cgroup.* field. */
static void
check_no_cgroup(const struct snapshot *s, const char *what)
{
	size_t	i;

	for (i = 0; i < s->nfields; i++) {
		if (strncmp(s->fields[i].key, "cgroup.", 7) == 0)
			fail_msg("%s: %s %s, want absent", what,
			    s->fields[i].key, s->fields[i].value);
	}
}

#define V2_SCOPE "system.slice/run-r5f0c3e2b1a9d48e7b6c5d4e3f2a1b0c9.scope"
#define V2_SDA \
	"pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define V2_NVME0 "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1"
#define V2_NVME1 "pci0000:00/0000:00:1d.4/0000:3e:00.0/nvme/nvme1/nvme1n1"

/*
 * Make maj:min the disk name in the tree at root, as sysfs shows one: a
 * link sys/dev/block/maj:min to its directory sys/devices/dev, whose
 * uevent gives the numbers and the name.  A link of those numbers there
 * already is replaced.
 */
static void
block_link(const char *root, unsigned int maj, unsigned int min,
    const char *dev, const char *name)
{
	char	*rel, *text, *link, *target;

	xasprintf(&rel, "sys/devices/%s/uevent", dev);
	xasprintf(&text, "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=disk\n",
	    maj, min, name);
	tree_write(root, rel, text);
	free(text);
	free(rel);
	xasprintf(&link, "%s/sys/dev", root);
	if (mkdir(link, 0755) == -1 && errno != EEXIST)
		fail_msg("mkdir %s: %s", link, strerror(errno));
	free(link);
	xasprintf(&link, "%s/sys/dev/block", root);
	if (mkdir(link, 0755) == -1 && errno != EEXIST)
		fail_msg("mkdir %s: %s", link, strerror(errno));
	free(link);
	xasprintf(&link, "%s/sys/dev/block/%u:%u", root, maj, min);
	xasprintf(&target, "../../devices/%s", dev);
	if (unlink(link) == -1 && errno != ENOENT)
		fail_msg("unlink %s: %s", link, strerror(errno));
	if (symlink(target, link) == -1)
		fail_msg("symlink %s: %s", link, strerror(errno));
	free(target);
	free(link);
}

/*
 * The limits of a cgroup v2 group, which cpu.count and mem.total_kb (the
 * host's) do not show: a run under systemd-run --scope -p CPUQuota=50%
 * -p MemoryMax=1G -p MemoryHigh=768M -p AllowedCPUs=0-3 -p
 * IOWriteBandwidthMax="/dev/sda 10M" had the same snapshot as one
 * without, so a changed limit was never in a diff.  The tightest limit on
 * the way up counts; "max" everywhere leaves every key out.
 */
static void
test_cgroup_v2_limits(void **state)
{
	struct snapshot		*s, *u;
	struct snapshot_diff	*d;
	char			*dir, *root, *v;
	size_t			 i;

	(void)state;
	v = fixture("cgroup-v2");
	s = snapshot_of_tree(v);
	free(v);
	check_field(s, "v2", "cpu.count", "8");
	check_field(s, "v2", "cgroup.cpu.max", "50000 100000");
	check_field(s, "v2", "cgroup.cpuset.cpus", "0-3");
	check_field(s, "v2", "cgroup.memory.max", "1073741824");
	check_field(s, "v2", "cgroup.memory.high", "805306368");
	check_field(s, "v2", "cgroup.io.max", "8:0 wbps=10000000");

	dir = tmp_tree();
	root = tree_copy("cgroup-v2", dir);

	/* The daemon's service, without limits: no key, and a diff. */
	tree_write(root, "proc/self/cgroup",
	    "0::/system.slice/perfwatchd.service\n");
	u = snapshot_of_tree(root);
	check_no_cgroup(u, "unlimited");
	check_field(u, "unlimited", "cpu.count", "8");
	d = sysinfo_diff(u, s);
	assert_int_equal(d->nfields, 5);
	for (i = 0; i < d->nfields; i++) {
		assert_int_equal(d->changes[i].kind, CHANGE_FIELD_ADDED);
		assert_int_equal(strncmp(d->changes[i].name, "cgroup.", 7), 0);
	}
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(u);
	sysinfo_snapshot_free(s);

	/* A slice tighter than the scope below it wins. */
	tree_write(root, "proc/self/cgroup", "0::/" V2_SCOPE "\n");
	tree_write(root, "sys/fs/cgroup/system.slice/cpu.max",
	    "20000 100000\n");
	tree_write(root, "sys/fs/cgroup/system.slice/memory.max",
	    "536870912\n");
	tree_write(root, "sys/fs/cgroup/system.slice/io.max",
	    "8:16 rbps=1048576 wbps=max riops=max wiops=max\n"
	    "8:0 rbps=max wbps=5242880 riops=500 wiops=max\n");
	block_link(root, 8, 0, V2_SDA, "sda");
	s = snapshot_of_tree(root);
	check_field(s, "slice", "cgroup.cpu.max", "20000 100000");
	check_field(s, "slice", "cgroup.memory.max", "536870912");
	check_field(s, "slice", "cgroup.memory.high", "805306368");
	check_field(s, "slice", "cgroup.io.max",
	    "sda wbps=5242880 riops=500; 8:16 rbps=1048576");
	sysinfo_snapshot_free(s);

	/*
	 * Two NVMe disks, whose minors under 259 the kernel hands out in
	 * the order it finds them, which differs from boot to boot: the
	 * second boot has them the other way round, and systemd sets
	 * each one's limits on its new numbers.  The field is the same.
	 */
	tree_write(root, "sys/fs/cgroup/system.slice/io.max",
	    "259:1 rbps=1048576 wbps=max riops=max wiops=max\n"
	    "259:0 rbps=max wbps=5242880 riops=500 wiops=max\n");
	block_link(root, 259, 0, V2_NVME0, "nvme0n1");
	block_link(root, 259, 1, V2_NVME1, "nvme1n1");
	s = snapshot_of_tree(root);
	check_field(s, "nvme", "cgroup.io.max", "nvme0n1 wbps=5242880 "
	    "riops=500; nvme1n1 rbps=1048576; sda wbps=10000000");
	block_link(root, 259, 0, V2_NVME1, "nvme1n1");
	block_link(root, 259, 1, V2_NVME0, "nvme0n1");
	tree_write(root, "sys/fs/cgroup/system.slice/io.max",
	    "259:0 rbps=1048576 wbps=max riops=max wiops=max\n"
	    "259:1 rbps=max wbps=5242880 riops=500 wiops=max\n");
	u = snapshot_of_tree(root);
	check_field(u, "renumbered", "cgroup.io.max", "nvme0n1 wbps=5242880 "
	    "riops=500; nvme1n1 rbps=1048576; sda wbps=10000000");
	d = sysinfo_diff(s, u);
	assert_int_equal(d->nfields, 0);
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(u);
	sysinfo_snapshot_free(s);

	/*
	 * A container without a cgroup namespace: its /sys/fs/cgroup is
	 * its group, which the mount table shows as the mount's root.
	 * With one, the group is "/", a group outside it "/../..".
	 */
	tree_write(root, "proc/self/mountinfo", "26 1 8:2 / / rw,relatime "
	    "- ext4 /dev/sda2 rw\n29 26 0:25 /" V2_SCOPE " /sys/fs/cgroup "
	    "ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n");
	tree_write(root, "sys/fs/cgroup/cpu.max", "200000 100000\n");
	tree_write(root, "sys/fs/cgroup/memory.max", "268435456\n");
	s = snapshot_of_tree(root);
	check_field(s, "container", "cgroup.cpu.max", "200000 100000");
	check_field(s, "container", "cgroup.memory.max", "268435456");
	sysinfo_snapshot_free(s);
	tree_write(root, "proc/self/cgroup", "0::/../../user.slice\n");
	s = snapshot_of_tree(root);
	check_no_cgroup(s, "outside");
	sysinfo_snapshot_free(s);

	tree_remove(dir);
	free(root);
	free(dir);
}

/*
 * cgroup.io.max names this machine's own disk: the first device of
 * /proc/partitions is limited in the v2 fixture's scope, whose sys/dev
 * is this machine's, and the field gives the name the kernel lists it
 * under there, not its numbers.  A device the machine does not have
 * keeps its numbers.
 */
static void
test_cgroup_io_device_here(void **state)
{
	struct snapshot	*s;
	FILE		*f;
	char		 line[256], name[64], *dir, *root, *path, *want;
	unsigned int	 maj, min;
	int		 found = 0;

	(void)state;
	if ((f = fopen("/proc/partitions", "r")) == NULL)
		skip();
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sscanf(line, " %u %u %*u %63s", &maj, &min, name) == 3;
	fclose(f);
	if (!found)
		skip();
	xasprintf(&path, "/sys/dev/block/%u:%u", maj, min);
	if (access(path, F_OK) == -1 ||
	    access("/sys/dev/block/4095:1048575", F_OK) == 0) {
		free(path);
		skip();
	}
	free(path);

	dir = tmp_tree();
	root = tree_copy("cgroup-v2", dir);
	xasprintf(&path, "%s/sys/dev", root);
	assert_int_equal(symlink("/sys/dev", path), 0);
	free(path);
	xasprintf(&want, "%u:%u rbps=max wbps=1234 riops=max wiops=max\n"
	    "4095:1048575 riops=7\n", maj, min);
	tree_write(root, "sys/fs/cgroup/" V2_SCOPE "/io.max", want);
	free(want);
	s = snapshot_of_tree(root);
	xasprintf(&want, "%s wbps=1234; 4095:1048575 riops=7", name);
	check_field(s, "this machine", "cgroup.io.max", want);
	free(want);
	sysinfo_snapshot_free(s);
	tree_remove(dir);
	free(root);
	free(dir);
}

/*
 * cgroup v1, from this build machine's hierarchies (hybrid: cpu, cpuset,
 * memory and blkio under v1): a group with cfs_quota_us 50000, cpuset
 * "1" of "0-1" and two blkio throttles, in a memory group without a
 * limit (LONG_MAX rounded to a page), then with one.
 */
static void
test_cgroup_v1_limits(void **state)
{
	struct snapshot	*s;
	char		*dir, *root;

	(void)state;
	root = fixture("cgroup-v1");
	s = snapshot_of_tree(root);
	free(root);
	check_field(s, "v1", "cgroup.cpu.max", "50000 100000");
	check_field(s, "v1", "cgroup.cpuset.cpus", "1");
	check_field(s, "v1", "cgroup.io.max", "254:0 wbps=10485760 "
	    "riops=2000");
	check_field(s, "v1", "cgroup.memory.max", NULL);
	check_field(s, "v1", "cgroup.memory.high", NULL);
	sysinfo_snapshot_free(s);

	dir = tmp_tree();
	root = tree_copy("cgroup-v1", dir);
	tree_write(root, "sys/fs/cgroup/memory/process_api/"
	    "961e3d4ca9a55d5538bcc3d2ec48a51a/memory.limit_in_bytes",
	    "536870912\n");
	tree_write(root, "sys/fs/cgroup/cpu/pw-fixture/cpu.cfs_quota_us",
	    "-1\n");
	s = snapshot_of_tree(root);
	check_field(s, "limited", "cgroup.memory.max", "536870912");
	check_field(s, "limited", "cgroup.cpu.max", NULL);
	sysinfo_snapshot_free(s);
	tree_remove(dir);
	free(root);
	free(dir);
}

/*
 * Fork a child that calls prepare(arg) (exiting 2 if that fails), takes a
 * snapshot of dir with o and writes the value of its key to a pipe,
 * "absent" when left out, "failed: ..." when the snapshot fails.  What
 * it wrote comes back in buf of size bytes; its wait status is returned.
 */
static int
child_field(int (*prepare)(const void *), const void *arg, const char *dir,
    const struct sysinfo_opts *o, const char *key, char *buf, size_t size)
{
	struct snapshot	*s;
	const char	*v;
	char		*cause = NULL;
	ssize_t		 n;
	pid_t		 pid;
	int		 fds[2], status;

	assert_int_equal(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		if (prepare(arg) == -1)
			_exit(2);
		if ((s = sysinfo_snapshot_take(dir, o, &cause)) == NULL) {
			dprintf(fds[1], "failed: %s", cause);
			_exit(1);
		}
		v = sysinfo_snapshot_get(s, key);
		dprintf(fds[1], "%s", v != NULL ? v : "absent");
		_exit(0);
	}
	assert_true(pid > 0);
	close(fds[1]);
	n = read(fds[0], buf, size - 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	buf[n > 0 ? n : 0] = '\0';
	return status;
}

/* Pin this process to the CPU *arg; 0 or -1. */
static int
pin_to_cpu(const void *arg)
{
	cpu_set_t	set;

	CPU_ZERO(&set);
	CPU_SET(*(const int *)arg, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * cpu.affinity on this machine: left out while every online CPU is
 * allowed, and "1" in a child pinned to one CPU (taskset -c N).
 */
static void
test_affinity_live(void **state)
{
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	cpu_set_t		 set;
	char			 buf[64], *cause = NULL, *want;
	long			 online;
	int			 status, cpu, count;

	(void)state;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	count = CPU_COUNT(&set);
	if (online < 2 || count < 1)
		skip();
	sysinfo_opts_init(&o);
	o.cc = NULL;
	o.pkgmgr = SYSINFO_PKG_NONE;
	if ((s = sysinfo_snapshot_take(".", &o, &cause)) == NULL)
		fail_msg("%s", cause);
	/* The tests may run pinned themselves. */
	if (count < online)
		xasprintf(&want, "%d", count);
	else
		want = NULL;
	check_field(s, "this process", "cpu.affinity", want);
	free(want);
	sysinfo_snapshot_free(s);

	for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
		;
	status = child_field(pin_to_cpu, &cpu, ".", &o, "cpu.affinity", buf,
	    sizeof(buf));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(buf, "1");
}

/* Where this machine mounts the cgroup v1 hierarchy of ctl, or NULL. */
static char *
v1_mount(const char *ctl)
{
	char	*text, *line, *next, *tok[32], *save, *opt, *found = NULL;
	size_t	 n, i;

	if (sysinfo_read_file("/proc/self/mountinfo", 1 << 24, &text,
	    NULL) == -1)
		return NULL;
	for (line = text; line != NULL && *line != '\0' && found == NULL;
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		n = 0;
		for (tok[n] = strtok_r(line, " ", &save); tok[n] != NULL &&
		    n < nitems(tok) - 1; tok[++n] = strtok_r(NULL, " ", &save))
			;
		for (i = 6; i + 3 < n && strcmp(tok[i], "-") != 0; i++)
			;
		if (i + 3 >= n || strcmp(tok[i + 1], "cgroup") != 0)
			continue;
		for (opt = strtok_r(tok[i + 3], ",", &save); opt != NULL;
		    opt = strtok_r(NULL, ",", &save))
			if (strcmp(opt, ctl) == 0)
				found = xstrdup(tok[4]);
	}
	free(text);
	return found;
}

/* In the group: its snapshot's cgroup.cpu.max and allowed CPUs to fd. */
static void
cgroup_live_child(int fd, void *arg)
{
	struct sysinfo_allowed	 a;
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	const char		*v;
	char			*cause = NULL;

	(void)arg;
	sysinfo_opts_init(&o);
	o.cc = NULL;
	o.pkgmgr = SYSINFO_PKG_NONE;
	if ((s = sysinfo_snapshot_take(".", &o, &cause)) == NULL) {
		dprintf(fd, "failed: %s", cause);
		_exit(1);
	}
	v = sysinfo_snapshot_get(s, "cgroup.cpu.max");
	sysinfo_allowed(NULL, &a);
	dprintf(fd, "%s; %d CPU", v != NULL ? v : "absent", a.cpus);
}

/*
 * cgroup.cpu.max of a child of this machine's, in a cpu group of its own
 * with a quota of a quarter CPU: the kernel's own files and the child's
 * own /proc/self/cgroup, not a fixture.  Needs root and the v1 cpu
 * controller (this build machine's hybrid layout); on a cgroup v2 machine
 * moving a process would take it out of its systemd unit, so it skips.
 */
static void
test_cgroup_live(void **state)
{
	char			*mount = NULL, *dir, *period, *want;
	char			 buf[128];
	int			 status;

	(void)state;
	if (geteuid() != 0 || (mount = v1_mount("cpu")) == NULL)
		skip();
	if ((dir = cgroup_group_make(mount)) == NULL)
		skip();
	/* Any failure from here on takes the group away first. */
	cgroup_group_put(dir, "cpu.cfs_quota_us", "25000\n");
	period = cgroup_group_get(dir, "cpu.cfs_period_us");
	/* A quarter CPU: one to size by, however many the mask allows. */
	xasprintf(&want, "25000 %s; 1 CPU", period);
	free(period);

	status = cgroup_group_child(dir, cgroup_live_child, NULL, buf,
	    sizeof(buf));
	free(dir);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child: status %d: %s", status, buf);
	assert_string_equal(buf, want);
	free(want);
}

/* The affinity mask's CPU count of this process. */
static int
affinity_count(void)
{
	cpu_set_t	set;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	return CPU_COUNT(&set);
}

/* This machine's memory as sysconf gives it. */
static uint64_t
sysconf_ram(void)
{
	return (uint64_t)sysconf(_SC_PHYS_PAGES) *
	    (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * What a process may use, which the workloads size themselves by: in the
 * v2 fixture's scope (CPUQuota=50%, MemoryMax=1G, MemoryHigh=768M) one
 * CPU and 768M, where the mask and the RAM alone said every CPU and all
 * the machine's memory; a quota of 1.5 CPUs is two; in the v1 fixture,
 * half a CPU is one and the memory group without a limit leaves the RAM;
 * a root's /proc/meminfo is its RAM.
 */
static void
test_allowed_fixtures(void **state)
{
	struct sysinfo_allowed	 a;
	uint64_t		 ram;
	char			*dir, *root;
	int			 mask;

	(void)state;
	mask = affinity_count();
	ram = sysconf_ram();

	root = fixture("cgroup-v2");
	sysinfo_allowed(root, &a);
	free(root);
	assert_int_equal(a.cpus, 1);
	assert_int_equal(a.cpu_quota, 1);
	assert_true(a.ram == ram);
	assert_true(a.memory == (ram < 805306368 ? ram : 805306368));
	assert_int_equal(a.memory_limited, ram > 805306368);

	dir = tmp_tree();
	root = tree_copy("cgroup-v2", dir);
	tree_write(root, "sys/fs/cgroup/" V2_SCOPE "/cpu.max",
	    "150000 100000\n");
	tree_write(root, "sys/fs/cgroup/" V2_SCOPE "/memory.high", "max\n");
	sysinfo_allowed(root, &a);
	assert_int_equal(a.cpus, mask < 2 ? mask : 2);
	assert_true(a.memory == (ram < 1073741824 ? ram : 1073741824));
	tree_write(root, "proc/self/cgroup",
	    "0::/system.slice/perfwatchd.service\n");
	sysinfo_allowed(root, &a);
	assert_int_equal(a.cpus, mask);
	assert_int_equal(a.cpu_quota, 0);
	assert_true(a.memory == ram);
	assert_int_equal(a.memory_limited, 0);
	tree_remove(dir);
	free(root);
	free(dir);

	root = fixture("cgroup-v1");
	sysinfo_allowed(root, &a);
	free(root);
	assert_int_equal(a.cpus, 1);
	assert_int_equal(a.online, 2);
	assert_true(a.memory == ram);
	assert_int_equal(a.memory_limited, 0);

	dir = tmp_tree();
	root = tree_copy("cgroup-v1", dir);
	tree_write(root, "sys/fs/cgroup/memory/process_api/"
	    "961e3d4ca9a55d5538bcc3d2ec48a51a/memory.limit_in_bytes",
	    "536870912\n");
	sysinfo_allowed(root, &a);
	assert_true(a.memory == (ram < 536870912 ? ram : 536870912));
	tree_remove(dir);
	free(root);
	free(dir);

	root = fixture("root");
	sysinfo_allowed(root, &a);
	free(root);
	assert_true(a.ram == UINT64_C(16203268) * 1024);
	assert_true(a.memory == a.ram);
}

/*
 * A child pinned to one CPU (taskset -c N) may use one CPU: the mask is
 * the live process's even under a fixture root.
 */
static void
test_allowed_live(void **state)
{
	struct sysinfo_allowed	 a;
	cpu_set_t		 set;
	pid_t			 pid;
	int			 status, cpu;

	(void)state;
	sysinfo_allowed(NULL, &a);
	assert_true(a.cpus >= 1 && a.cpus <= affinity_count());
	assert_true(a.memory > 0 && a.memory <= a.ram);
	if (affinity_count() < 2)
		skip();
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
		;
	if ((pid = fork()) == 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1)
			_exit(2);
		sysinfo_allowed(NULL, &a);
		_exit(a.cpus == 1 ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A path as the mount table writes it: blanks and '\\' in octal. */
static char *
mountinfo_escape(const char *path)
{
	char	*out, *o;

	o = out = xmalloc(4 * strlen(path) + 1);
	for (; *path != '\0'; path++) {
		if (strchr(" \t\n\\", *path) != NULL)
			o += snprintf(o, 5, "\\%03o", (unsigned char)*path);
		else
			*o++ = *path;
	}
	*o = '\0';
	return out;
}

/*
 * perfwatchd's unit has PrivateTmp=: in its mount namespace /var/tmp is a
 * bind mount of /var/tmp/systemd-private-.../tmp, a directory of the
 * filesystem that / holds.  Its snapshots said fs.mount "/var/tmp" where
 * a run typed by hand says "/", a change in every diff between the two.
 * The mount point is now where the filesystem itself is mounted; the
 * options stay those of the mount that holds the work directory.  The
 * tables are made here with this directory's device, so that it is the
 * one they describe; a btrfs subvolume is no bind mount of the top
 * subvolume mounted elsewhere.
 */
static void
test_snapshot_bind_mount(void **state)
{
	struct stat	 st;
	struct snapshot	*host, *ns;
	char		 tmpl[] = "/tmp/pw-sysinfo.XXXXXX", cwd[PATH_MAX];
	char		*text, *up, *upesc;
	unsigned int	 maj, min;

	(void)state;
	assert_int_equal(stat(".", &st), 0);
	assert_non_null(realpath(".", cwd));
	maj = major(st.st_dev);
	min = minor(st.st_dev);
	/* The directory above ours is where the bind mount goes. */
	up = xstrdup(cwd);
	*strrchr(up, '/') = '\0';
	if (up[0] == '\0')
		skip();
	upesc = mountinfo_escape(up);
	assert_non_null(mkdtemp(tmpl));

	xasprintf(&text, "27 1 %u:%u / / rw,relatime shared:1 - ext4 "
	    "/dev/sda2 rw,errors=remount-ro\n", maj, min);
	tree_write(tmpl, "proc/self/mountinfo", text);
	free(text);
	host = snapshot_of_tree(tmpl);
	check_field(host, "host", "fs.mount", "/");

	xasprintf(&text, "270 269 %u:%u / / ro,relatime master:1 - ext4 "
	    "/dev/sda2 rw,errors=remount-ro\n"
	    "281 270 %u:%u /var/tmp/systemd-private-6f1c-perfwatchd.service-"
	    "Ab12Cd/tmp %s rw,relatime master:1 - ext4 /dev/sda2 "
	    "rw,errors=remount-ro\n", maj, min, maj, min, upesc);
	tree_write(tmpl, "proc/self/mountinfo", text);
	free(text);
	ns = snapshot_of_tree(tmpl);
	check_field(ns, "namespace", "fs.mount", "/");
	check_field(ns, "namespace", "fs.options",
	    sysinfo_snapshot_get(host, "fs.options"));
	sysinfo_snapshot_free(ns);

	/* btrfs: / is subvolume "root", the top one is on /mnt/top. */
	xasprintf(&text, "22 1 %u:%u /root / rw,relatime shared:1 - btrfs "
	    "/dev/sda3 rw,ssd,space_cache=v2,subvolid=256,subvol=/root\n"
	    "60 22 %u:%u / /mnt/top rw,relatime shared:30 - btrfs /dev/sda3 "
	    "rw,ssd,space_cache=v2,subvolid=5,subvol=/\n", maj, min, maj,
	    min);
	tree_write(tmpl, "proc/self/mountinfo", text);
	free(text);
	ns = snapshot_of_tree(tmpl);
	check_field(ns, "btrfs", "fs.mount", "/");
	sysinfo_snapshot_free(ns);

	sysinfo_snapshot_free(host);
	tree_remove(tmpl);
	free(upesc);
	free(up);
}

/*
 * virt.container of a snapshot of tree root (its packages those of the
 * dpkg database at admin) taken as uid (-1: as we are), in a child:
 * "absent" when left out.  The child writes the value to a pipe; the
 * trees must be readable by uid.
 */
/* Become the user and group *arg unless it is -1; 0 or -1. */
static int
become_uid(const void *arg)
{
	uid_t	uid = *(const uid_t *)arg;

	if (uid != (uid_t)-1 && (setgroups(0, NULL) == -1 ||
	    setgid((gid_t)uid) == -1 || setuid(uid) == -1))
		return -1;
	return 0;
}

static char *
container_as(const char *root, const char *admin, uid_t uid)
{
	struct sysinfo_opts	 o;
	char			 buf[64];
	int			 status;

	sysinfo_opts_init(&o);
	o.root = root;
	o.cc = NULL;
	o.dpkg_admindir = admin;
	status = child_field(become_uid, &uid, root, &o, "virt.container",
	    buf, sizeof(buf));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("snapshot as uid %ld: status %d: %s", (long)uid,
		    status, buf);
	return xstrdup(buf);
}

/*
 * A container without systemd says so in init's environment alone,
 * which only root may read: root's snapshot says "lxc", another user's
 * left "none" (a change in every diff of a root run and the daemon's),
 * and now leaves the field out, which the diff does not count.
 */
static void
test_container_unreadable(void **state)
{
	const char		*argv[5];
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	char			*src, *dsrc, *cause = NULL, *environ_path, *v;
	char			*out;
	char			 tmpl[] = "/tmp/pw-sysinfo.XXXXXX";
	char			 root[sizeof(tmpl) + 8], admin[sizeof(tmpl) + 8];
	size_t			 i;
	uid_t			 other;
	int			 fd, status;
	static const char	 env[] = "PATH=/bin\0container=lxc\0";

	(void)state;
	src = fixture("root");
	dsrc = fixture("dpkg-a");
	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(chmod(tmpl, 0755), 0);
	snprintf(root, sizeof(root), "%s/root", tmpl);
	snprintf(admin, sizeof(admin), "%s/dpkg", tmpl);
	/* Copies another user can read, wherever the checkout is. */
	for (i = 0; i < 2; i++) {
		argv[0] = "cp";
		argv[1] = "-R";
		argv[2] = i == 0 ? src : dsrc;
		argv[3] = i == 0 ? root : admin;
		argv[4] = NULL;
		if (sysinfo_command(argv, 10000, 1 << 20, 0, &out, NULL,
		    &status, &cause) == -1)
			fail_msg("%s", cause);
		free(out);
		assert_int_equal(status, 0);
	}
	xasprintf(&environ_path, "%s/proc/1", root);
	assert_int_equal(mkdir(environ_path, 0755), 0);
	free(environ_path);
	xasprintf(&environ_path, "%s/proc/1/environ", root);
	fd = open(environ_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, env, sizeof(env) - 1),
	    (ssize_t)sizeof(env) - 1);
	close(fd);

	/* Readable: lxc. */
	v = container_as(root, admin, (uid_t)-1);
	assert_string_equal(v, "lxc");
	free(v);
	/* Unreadable, as init's environment is to a user: left out. */
	assert_int_equal(chmod(environ_path, 0400), 0);
	other = geteuid() == 0 ? 65534 : (uid_t)-1;
	if (geteuid() != 0)
		assert_int_equal(chmod(environ_path, 0), 0);
	v = container_as(root, admin, other);
	assert_string_equal(v, "absent");
	free(v);
	/* Not there at all (no /proc/1 in the tree): none. */
	assert_int_equal(unlink(environ_path), 0);
	v = container_as(root, admin, other);
	assert_string_equal(v, "none");
	free(v);

	/* The diff: left out on one side is no change; a value is. */
	a = sysinfo_snapshot_new();
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "virt.container", "lxc");
	sysinfo_snapshot_set(a, "virt", "none");
	d = sysinfo_diff(a, b);
	assert_int_equal(d->nfields, 1);
	check_change(&d->changes[0], CHANGE_FIELD_REMOVED, "virt", "none",
	    NULL);
	sysinfo_diff_free(d);
	d = sysinfo_diff(b, a);
	assert_int_equal(d->nfields, 1);
	check_change(&d->changes[0], CHANGE_FIELD_ADDED, "virt", NULL,
	    "none");
	sysinfo_diff_free(d);
	sysinfo_snapshot_set(b, "virt.container", "none");
	d = sysinfo_diff(a, b);
	assert_int_equal(d->nfields, 2);
	check_change(&d->changes[1], CHANGE_FIELD_CHANGED, "virt.container",
	    "lxc", "none");
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);

	tree_remove(tmpl);
	free(environ_path);
	free(src);
	free(dsrc);
}

#ifdef __linux__
/*
 * proc.ioprio leaves out the I/O priority the kernel gives a process that
 * set none, set by hand or not: the class its scheduling policy implies
 * at level (nice + 20) / 5.  "ionice -c2 -n4" at nice 0 recorded be/4,
 * and env diff showed the field added with nothing changed.
 */
static void
test_ioprio_default(void **state)
{
	static const struct {
		int		 prio, nice, policy;
		const char	*want;
	} t[] = {
		{ 0, 0, SCHED_OTHER, NULL },		/* none set */
		{ 0, 10, SCHED_IDLE, NULL },
		{ -1, 0, SCHED_OTHER, NULL },		/* ioprio_get failed */
		{ 2 << 13 | 4, 0, SCHED_OTHER, NULL },	/* ionice -c2 -n4 */
		{ 2 << 13 | 5, 7, SCHED_BATCH, NULL },
		{ 2 << 13 | 0, -20, SCHED_OTHER, NULL },
		{ 2 << 13 | 7, 19, SCHED_OTHER, NULL },
		{ 2 << 13 | 3, 0, SCHED_OTHER, "be/3" },
		{ 2 << 13 | 4, 5, SCHED_OTHER, "be/4" },
		{ 2 << 13 | 2, 7, SCHED_BATCH, "be/2" },
		{ 2 << 13 | 4, 0, SCHED_IDLE, "be/4" },	/* idle by default */
		{ 2 << 13 | 4, 0, SCHED_FIFO, "be/4" },	/* rt by default */
		{ 3 << 13, 0, SCHED_OTHER, "idle" },
		{ 3 << 13, 0, SCHED_IDLE, NULL },
		{ 3 << 13 | 7, 0, SCHED_IDLE, NULL },
		{ 1 << 13 | 4, 0, SCHED_OTHER, "rt/4" },
		{ 1 << 13 | 4, 0, SCHED_FIFO, NULL },
		{ 1 << 13 | 4, 0, SCHED_RR, NULL },
		{ 1 << 13 | 0, 0, SCHED_RR, "rt/0" },
	};
	char		*got;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(t); i++) {
		got = sysinfo_linux_ioprio(t[i].prio, t[i].nice, t[i].policy);
		if ((got == NULL) != (t[i].want == NULL) ||
		    (got != NULL && strcmp(got, t[i].want) != 0))
			fail_msg("ioprio %#x at nice %d, policy %d: %s, want "
			    "%s", (unsigned)t[i].prio, t[i].nice, t[i].policy,
			    got != NULL ? got : "(left out)",
			    t[i].want != NULL ? t[i].want : "(left out)");
		free(got);
	}
}
#endif

/* Count what dpkg-query itself calls present: our independent check. */
static long
dpkg_query_count(void)
{
	const char	*argv[] = { "dpkg-query", "-W", "-f",
			    "${db:Status-Status}\n", NULL };
	char		*out, *line, *next, *cause = NULL;
	long		 n = 0;
	int		 status;

	if (sysinfo_command(argv, 10000, 16 << 20, 0, &out, NULL, &status,
	    &cause) == -1) {
		free(cause);
		return -1;
	}
	if (status != 0) {
		free(out);
		return -1;
	}
	for (line = out; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		if (strcmp(line, "not-installed") != 0 &&
		    strcmp(line, "config-files") != 0 && line[0] != '\0')
			n++;
	}
	free(out);
	return n;
}

/* A snapshot of this very machine. */
static void
test_snapshot_this_machine(void **state)
{
	struct snapshot	*s;
	struct utsname	 u;
	char		*cause = NULL, *n, *dump;
	const char	*v;
	long		 want;

	(void)state;
	s = sysinfo_snapshot_take(".", NULL, &cause);
	if (s == NULL)
		fail_msg("%s", cause);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(sysinfo_snapshot_get(s, "kernel.release"),
	    u.release);
	assert_string_equal(sysinfo_snapshot_get(s, "kernel.arch"), u.machine);
	xasprintf(&n, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(sysinfo_snapshot_get(s, "cpu.count"), n);
	free(n);
	assert_non_null(v = sysinfo_snapshot_get(s, "mem.total_kb"));
	assert_true(strtoll(v, NULL, 10) > 0);
	assert_non_null(sysinfo_snapshot_get(s, "kernel.cmdline"));
	assert_non_null(sysinfo_snapshot_get(s, "cpu.model"));
	assert_non_null(v = sysinfo_snapshot_get(s, "fs.type"));
	assert_true(v[0] != '\0');
	assert_non_null(sysinfo_snapshot_get(s, "fs.options"));
	assert_non_null(v = sysinfo_snapshot_get(s, "virt"));
	assert_non_null(v = sysinfo_snapshot_get(s, "libc"));
#ifdef __GLIBC__
	assert_true(strncmp(v, "glibc 2.", 8) == 0);
#endif
	check_sorted(s);
	if (access("/var/lib/dpkg/status", F_OK) == 0) {
		assert_string_equal(sysinfo_snapshot_get(s, "pkg.manager"),
		    "dpkg");
		assert_true(s->npackages > 100);
		want = dpkg_query_count();
		if (want >= 0)
			assert_int_equal((long)s->npackages, want);
		assert_non_null(sysinfo_snapshot_package(s, "dpkg", NULL));
	}
	dump = sysinfo_snapshot_dump(s, SYSINFO_ALL);
	assert_true(strlen(dump) > 100);
	free(dump);
	sysinfo_snapshot_free(s);
}

/* The command runner: output, status, exec failure, timeout, bound. */
static void
test_command(void **state)
{
	const char	*echo[] = { "echo", "hello", "world", NULL };
	const char	*fals[] = { "false", NULL };
	const char	*none[] = { "/nonexistent/perfwatch-tool", NULL };
	const char	*slow[] = { "sleep", "10", NULL };
	const char	*yes[] = { "yes", NULL };
	const char	*mute[] = { "sh", "-c", "exec >&-; exec sleep 10",
			    NULL };
	const char	*err[] = { "ls", "/nonexistent/perfwatch-dir", NULL };
	char		*out, *cause = NULL;
	size_t		 len;
	double		 start;
	int		 status;

	(void)state;
	assert_int_equal(sysinfo_command(echo, 5000, 1024, 0, &out, &len,
	    &status, &cause), 0);
	assert_string_equal(out, "hello world\n");
	assert_int_equal(len, 12);
	assert_int_equal(status, 0);
	free(out);

	assert_int_equal(sysinfo_command(fals, 5000, 1024, 0, &out, &len,
	    &status, &cause), 0);
	assert_int_equal(status, 1);
	assert_string_equal(out, "");
	free(out);

	assert_int_equal(sysinfo_command(none, 5000, 1024, 0, &out, &len,
	    &status, &cause), -1);
	assert_string_equal(cause,
	    "/nonexistent/perfwatch-tool: No such file or directory");
	assert_null(out);
	free(cause);

	assert_int_equal(sysinfo_command(slow, 200, 1024, 0, &out, &len,
	    &status, &cause), -1);
	assert_string_equal(cause, "sleep: timed out after 200 ms");
	free(cause);

	/*
	 * A helper that closes its output and keeps running is killed at
	 * the deadline, not waited for: the deadline covers its exit too.
	 */
	start = perfwatch_mono();
	assert_int_equal(sysinfo_command(mute, 300, 1024, 0, &out, &len,
	    &status, &cause), -1);
	assert_string_equal(cause,
	    "sh: closed its output but did not exit within 300 ms");
	free(cause);
	if (perfwatch_mono() - start > 3.0)
		fail_msg("the muted helper took %.1f s",
		    perfwatch_mono() - start);

	assert_int_equal(sysinfo_command(yes, 5000, 100000, 0, &out, &len,
	    &status, &cause), -1);
	assert_string_equal(cause, "yes: more than 100000 bytes of output");
	free(cause);

	/* stderr is dropped unless asked for. */
	assert_int_equal(sysinfo_command(err, 5000, 4096, 0, &out, &len,
	    &status, &cause), 0);
	assert_string_equal(out, "");
	assert_int_not_equal(status, 0);
	free(out);
	assert_int_equal(sysinfo_command(err, 5000, 4096, 1, &out, &len,
	    &status, &cause), 0);
	assert_non_null(strstr(out, "/nonexistent/perfwatch-dir"));
	free(out);
}

/*
 * A helper holds none of the caller's descriptors beyond 0-2, even
 * those without close-on-exec: the shell says which of them it can read.
 */
static void
test_command_fds(void **state)
{
	const char	*sh[] = { "sh", "-c", "for fd in $0; do "
			    "if (: <&$fd) 2>/dev/null; then echo $fd; fi; "
			    "done; echo end", NULL, NULL };
	char		*out, *cause = NULL, fds[64];
	int		 low, high, status;

	(void)state;
	/* Two open to any exec: the lowest free number, and a high one. */
	assert_true((low = open("/dev/null", O_RDONLY)) > 2);
	assert_int_equal(dup2(low, 47), 47);
	high = 47;
	snprintf(fds, sizeof(fds), "%d %d", low, high);
	sh[3] = fds;
	assert_int_equal(sysinfo_command(sh, 5000, 1024, 0, &out, NULL,
	    &status, &cause), 0);
	assert_int_equal(status, 0);
	assert_string_equal(out, "end\n");
	free(out);
	close(low);
	close(high);
}

/* The judge names every limit a sample breaks. */
static void
test_quiet_judge(void **state)
{
	struct quiet_limits	l;
	struct quiet		q;
	char			*why = NULL;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.max_load1 = 1.0;
	l.max_runnable = 1;
	l.max_cpu_busy = 0.25;
	l.max_swap_pages = 64;
	l.min_mem_available = 0.10;
	l.max_throttle_events = 0;
	l.interval_ms = 1000;

	memset(&q, 0, sizeof(q));
	q.interval = 1.0;
	q.load1 = 0.30;
	q.cpu_busy = 0.05;
	q.mem_total_kb = 16000000;
	q.mem_available_kb = 8000000;
	q.throttle_known = 1;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, &why), 0);
	assert_null(why);

	q.cpu_busy = 0.97;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, &why), 1);
	assert_string_equal(why, "cpu busy 97% > 25%");
	free(why);

	q.load1 = 2.1;
	q.runnable = 2;
	q.swap_in = 60;
	q.swap_out = 10;
	q.mem_available_kb = 800000;
	q.throttle_events = 3;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, &why), 1);
	assert_string_equal(why, "cpu busy 97% > 25%; load 2.10 > 1.00; "
	    "2 runnable tasks > 1; swapping 70 pages > 64; "
	    "memory available 5% < 10%; "
	    "3 thermal throttling events > 0");
	free(why);

	/* A limit of 0%: the busy figure gets the decimals it needs. */
	memset(&q, 0, sizeof(q));
	q.cpu_busy = 0.0031;
	l.max_cpu_busy = 0;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, &why), 1);
	assert_string_equal(why, "cpu busy 0.3% > 0.0%");
	free(why);
	l.max_cpu_busy = 0.25;

	/* A limit made for the machine: the load gets decimals too. */
	memset(&q, 0, sizeof(q));
	q.load1 = 1.03;
	l.max_load1 = 1.025;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, &why), 1);
	assert_string_equal(why, "load 1.030 > 1.025");
	free(why);
	l.max_load1 = 1.0;

	/* Throttling counts only where the kernel exposes it. */
	memset(&q, 0, sizeof(q));
	q.throttle_events = 5;
	q.throttle_known = 0;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, NULL), 0);
	q.throttle_known = 1;
	assert_int_equal(sysinfo_quiet_judge(&q, &l, NULL), 1);

	sysinfo_quiet_limits_default(&l);
	assert_true(l.max_cpu_busy == 0.25);
	assert_int_equal(l.interval_ms, 1000);
	assert_true(l.max_load1 == 0.5 * (double)sysconf(_SC_NPROCESSORS_ONLN));
}

/* Counters from the fixture tree; nothing moves in a fixture. */
static void
test_quiet_fixture_root(void **state)
{
	struct quiet	 q, r;
	json_t		*j;
	char		*root, *cause = NULL;

	(void)state;
	root = fixture("root");
	assert_int_equal(sysinfo_quiet_sample(&q, 0, root), 0);
	free(root);
	assert_true(q.load1 == 0.52);
	assert_true(q.load5 == 0.58);
	assert_true(q.load15 == 0.59);
	assert_int_equal(q.ncpu, 8);
	assert_int_equal(q.runnable, 2);
	assert_true(q.cpu_busy == 0.0);
	assert_int_equal(q.swap_in, 0);
	assert_int_equal(q.mem_total_kb, 16203268);
	assert_int_equal(q.mem_available_kb, 11893412);
	assert_int_equal(q.throttle_known, 1);
	/*
	 * Cores 0 and 1 of package 0, cpu4 core 0's other thread: each
	 * core's counter once, the package's once (52 summed over CPUs).
	 */
	assert_int_equal(q.throttle_count, 10 + 11 + 7);
	assert_int_equal(q.throttle_events, 0);

	j = sysinfo_quiet_json(&q);
	assert_int_equal(sysinfo_quiet_from_json(j, &r, &cause), 0);
	json_decref(j);
	assert_memory_equal(&q, &r, sizeof(q));

	q.throttle_known = 0;
	j = sysinfo_quiet_json(&q);
	assert_true(json_is_null(json_object_get(j, "throttle_count")));
	assert_int_equal(sysinfo_quiet_from_json(j, &r, &cause), 0);
	assert_int_equal(r.throttle_known, 0);
	json_object_set_new(j, "runnable", json_real(1.5));
	assert_int_equal(sysinfo_quiet_from_json(j, &r, &cause), -1);
	assert_string_equal(cause, "quiet sample: \"runnable\" is not a count");
	free(cause);
	json_decref(j);

	assert_int_equal(sysinfo_quiet_sample(&q, 0, "/nonexistent"), -1);
}

/*
 * A /proc/loadavg that holds no three loads fails the sample, and the
 * file read is freed: it leaked on each sample (found by
 * tests/fuzz/fuzz_procfs; LeakSanitizer fails this test without the
 * fix, under make check-asan).
 */
static void
test_quiet_bad_loadavg(void **state)
{
	/* The loadavg of the input fuzz_procfs found it with. */
	static const char	 loadavg[] = "0-3,8,10-11\n";
	char			 tmpl[] = "/tmp/pw-sysinfo.XXXXXX";
	char			*cause = NULL;
	struct quiet_counters	 c;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	tree_write(tmpl, "proc/loadavg", loadavg);
	assert_int_equal(sysinfo_os_counters(tmpl, &c, &cause), -1);
	assert_non_null(strstr(cause, "/proc/loadavg: cannot read the load"));
	free(cause);
	tree_remove(tmpl);
}

/*
 * A list of online CPUs too large to count is malformed, and the count
 * is sysconf's: "0-9223372036854775807" overflowed a long (undefined
 * behaviour, which check-asan's UBSan stops on; found reading the
 * parser beside tests/fuzz/fuzz_procfs), and "0-4294967296" counted one
 * CPU, the count cut to an int; and 2100 ranges of 2^20 CPUs each
 * overflowed the int sum.
 */
static void
test_quiet_cpulist_huge(void **state)
{
	static const char *const lists[] = {
		"0-9223372036854775807\n",
		"0-4294967296\n",
	};
	static const char	 range[] = "0-1048575,";
	char			 tmpl[] = "/tmp/pw-sysinfo.XXXXXX";
	char			*cause = NULL, *many;
	struct quiet_counters	 c;
	size_t			 i;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	tree_write(tmpl, "proc/loadavg", "0.52 0.58 0.59 3/1213 45231\n");
	tree_write(tmpl, "proc/stat", "cpu  1 2 3 4 5 6 7 8 0 0\n");
	many = xcalloc(2100, strlen(range) + 1);
	for (i = 0; i < 2100; i++)
		strcat(many, range);
	for (i = 0; i <= nitems(lists); i++) {
		tree_write(tmpl, "sys/devices/system/cpu/online",
		    i < nitems(lists) ? lists[i] : many);
		assert_int_equal(sysinfo_os_counters(tmpl, &c, &cause), 0);
		assert_int_equal(c.ncpu, sysconf(_SC_NPROCESSORS_ONLN));
	}
	free(many);
	tree_remove(tmpl);
}

/* Start n children that spin until killed (or for 30 s at most). */
static void
hogs_start(pid_t *pids, int n)
{
	volatile unsigned long	spin = 0;
	int			i;

	for (i = 0; i < n; i++) {
		if ((pids[i] = fork()) == 0) {
			alarm(30);
			for (;;)
				spin++;
		}
		assert_true(pids[i] > 0);
	}
}

static void
hogs_stop(pid_t *pids, int n)
{
	int	i, st;

	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], &st, 0);
	}
}

/*
 * With a hog on every CPU the check must say busy, and must measure more
 * CPU use than without them.  (Nothing asserts the machine is quiet
 * without hogs: other tests may be running.)  The wait policy gives up at
 * its limit with the reason; relaxed limits let it through at once.
 */
static void
test_quiet_busy(void **state)
{
	struct quiet_limits	 l, lax;
	struct quiet		 busy, idle, seen;
	pid_t			 pids[64];
	double			 waited;
	char			*why = NULL;
	int			 n, rc;

	(void)state;
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 2)
		n = 2;
	if (n > (int)nitems(pids))
		n = (int)nitems(pids);
	sysinfo_quiet_limits_default(&l);
	l.interval_ms = 300;

	hogs_start(pids, n);
	assert_int_equal(sysinfo_quiet_sample(&busy, 300, NULL), 0);
	rc = sysinfo_quiet_judge(&busy, &l, &why);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(why, "cpu busy"));
	free(why);
	why = NULL;
	assert_true(busy.cpu_busy > 0.6);
	assert_true(busy.runnable >= 1);
	assert_true(busy.interval >= 0.29);	/* nanosleep sleeps at least that */

	/* The wait policy: still busy at its limit, and says why. */
	rc = sysinfo_quiet_wait(&l, 1, &seen, &waited, &why);
	assert_int_equal(rc, 1);
	assert_non_null(why);
	assert_non_null(strstr(why, "cpu busy"));
	assert_true(waited >= 1.0);
	assert_true(seen.cpu_busy > l.max_cpu_busy);
	free(why);
	why = NULL;

	/* Limits nothing can break pass at the first sample. */
	memset(&lax, 0, sizeof(lax));
	lax.max_load1 = 1e9;
	lax.max_runnable = 1 << 30;
	lax.max_cpu_busy = 1.0;
	lax.max_swap_pages = UINT64_MAX;
	lax.min_mem_available = 0.0;
	lax.max_throttle_events = UINT64_MAX;
	lax.interval_ms = 100;
	assert_int_equal(sysinfo_quiet_wait(&lax, 5, &seen, &waited, &why), 0);
	assert_null(why);
	hogs_stop(pids, n);

	assert_int_equal(sysinfo_quiet_sample(&idle, 300, NULL), 0);
	assert_true(idle.cpu_busy < busy.cpu_busy || busy.cpu_busy > 0.95);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_version_dpkg),
		cmocka_unit_test(test_version_rpm),
		cmocka_unit_test(test_version_pkgng),
		cmocka_unit_test(test_version_dpkg_installed),
		cmocka_unit_test(test_version_dpkg_edges),
		cmocka_unit_test(test_version_rpm_peer),
		cmocka_unit_test(test_version_pacman),
		cmocka_unit_test(test_dpkg_fixture_a),
		cmocka_unit_test(test_dpkg_fixture_b),
		cmocka_unit_test(test_dpkg_parse_edges),
		cmocka_unit_test(test_dpkg_cut_short),
		cmocka_unit_test(test_dpkg_journal_crossgrade),
		cmocka_unit_test(test_diff_dpkg),
		cmocka_unit_test(test_diff_fields_and_rpm),
		cmocka_unit_test(test_text_display_width),
		cmocka_unit_test(test_diff_no_list),
		cmocka_unit_test(test_rpm_fixture),
		cmocka_unit_test(test_pacman_fixture),
		cmocka_unit_test(test_pkgmgr_empty_dpkg),
		cmocka_unit_test(test_pkgng_fixture),
		cmocka_unit_test(test_clean_strings),
		cmocka_unit_test(test_hashes),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_snapshot_fixture_root),
		cmocka_unit_test(test_cgroup_v2_limits),
		cmocka_unit_test(test_cgroup_io_device_here),
		cmocka_unit_test(test_cgroup_v1_limits),
		cmocka_unit_test(test_affinity_live),
		cmocka_unit_test(test_cgroup_live),
		cmocka_unit_test(test_allowed_fixtures),
		cmocka_unit_test(test_allowed_live),
		cmocka_unit_test(test_cpuinfo_models),
		cmocka_unit_test(test_snapshot_btrfs_source),
		cmocka_unit_test(test_snapshot_bind_mount),
		cmocka_unit_test(test_container_unreadable),
#ifdef __linux__
		cmocka_unit_test(test_ioprio_default),
#endif
		cmocka_unit_test(test_snapshot_this_machine),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_command_fds),
		cmocka_unit_test(test_quiet_judge),
		cmocka_unit_test(test_quiet_fixture_root),
		cmocka_unit_test(test_quiet_bad_loadavg),
		cmocka_unit_test(test_quiet_cpulist_huge),
		cmocka_unit_test(test_quiet_busy),
	};

	log_init("test_sysinfo", 1, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
