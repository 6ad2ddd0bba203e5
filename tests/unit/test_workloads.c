/*
 * Unit tests of workloads/: the result parser (both forms, every error
 * with its line), parameters, the profiles in etc/profiles (loaded by the
 * configuration loader), the plan and progress, the system index on
 * the openSUSE UnixBench data, the runner (time limit against a child
 * that ignores SIGTERM, abort, a full disk, the clean environment, the
 * iteration directory removed in every case, the flush before an
 * iteration, held stopped by a tracer), every native workload on tiny
 * sizes, and the sizing of db.oltp, disk.bonnie and sys.shell8 under a
 * CPU mask, a memory limit and a CPU quota (real cgroup v1 groups, as
 * root).  No assertion depends on how fast the machine is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/file.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <sys/time.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#ifdef __linux__
#include <sched.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "xmalloc.h"
#include "workloads/workloads.h"
#include "workloads/internal.h"
#include "near.h"
#include "cgroup_group.h"
/* Its pass, to run it from a state a long run reaches. */
#include "../../workloads/dhrystone.c"
/* Its note of a file below twice the RAM. */
#include "../../workloads/bonnie.c"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC	0x01021994
#endif

static char	test_dir[PATH_MAX - 64];

/* The top of the checkout (tests/run.sh exports it), for its files. */
static const char *
checkout_top(void)
{
	const char	*top = getenv("PERFWATCH_TOP");

	return (top != NULL && *top != '\0' ? top : ".");
}

static int
group_setup(void **state)
{
	const char	*tmp;

	(void)state;
	tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/var/tmp";
	snprintf(test_dir, sizeof(test_dir), "%s/pw-wl-test.XXXXXX",
	    tmp);
	return mkdtemp(test_dir) == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	return wl_remove_tree(test_dir);
}

/* Number of entries in a directory, "." and ".." aside. */
static int
dir_entries(const char *path)
{
	struct dirent	*de;
	DIR		*d;
	int		 n = 0;

	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Parameters of a workload, working in dir. */
static const struct wl_workload *
params_for(struct wl_params *p, const char *name, const char *dir)
{
	const struct wl_workload	*wl;
	char				*cause = NULL;

	wl = wl_find(name);
	assert_non_null(wl);
	wl_params_init(p, wl);
	if (wl_params_set(p, wl, "work_dir", dir, &cause) != 0)
		fail_msg("%s", cause);
	p->settle = 0;		/* test_run_settle tests it */
	return wl;
}

/* Set a key or fail the test. */
static void
set(struct wl_params *p, const struct wl_workload *wl, const char *key,
    const char *value)
{
	char	*cause = NULL;

	if (wl_params_set(p, wl, key, value, &cause) != 0)
		fail_msg("%s = %s: %s", key, value, cause);
}

/*
 * Setting key to value must fail, with want as the cause when want is
 * not NULL; a failure names the key and value.
 */
static void
set_refused(struct wl_params *p, const struct wl_workload *wl,
    const char *key, const char *value, const char *want)
{
	char	*cause = NULL;
	int	 rc;

	rc = wl_params_set(p, wl, key, value, &cause);
	if (rc != -1)
		fail_msg("%s = %s: gave %d, not -1", key, value, rc);
	if (want != NULL && (cause == NULL || strcmp(cause, want) != 0))
		fail_msg("%s = %s: cause \"%s\", not \"%s\"", key, value,
		    cause != NULL ? cause : "(none)", want);
	free(cause);
}

static const struct wl_metric *
metric(const struct wl_result *res, const char *name)
{
	size_t	i;

	for (i = 0; i < res->nmetrics; i++) {
		if (strcmp(res->metrics[i].name, name) == 0)
			return &res->metrics[i];
	}
	return NULL;
}

/* The note that starts with prefix, or NULL. */
static const char *
note(const struct wl_result *res, const char *prefix)
{
	size_t	i;

	for (i = 0; i < res->nnotes; i++) {
		if (strncmp(res->notes[i], prefix, strlen(prefix)) == 0)
			return res->notes[i];
	}
	return NULL;
}

/* Run a command workload with a timeout in the test directory. */
static int
run_command(const char *command, const char *timeout, struct wl_result *res)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	int				 rc;

	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", command);
	set(&p, wl, "timeout", timeout);
	set(&p, wl, "grace", "0.3");
	rc = wl_run_iteration(wl, &p, res, NULL);
	wl_params_clear(&p);
	return rc;
}

/* Run a native workload to success, or fail with its error. */
static void
run_ok(const struct wl_workload *wl, const struct wl_params *p,
    struct wl_result *res)
{
	char	*cause = NULL;

	if (wl_run_iteration(wl, p, res, &cause) != 0)
		fail_msg("%s: %s: %s", wl->name, wl_status_name(res->status),
		    cause);
	assert_int_equal(res->status, WL_OK);
	assert_null(res->error);
	assert_int_equal(dir_entries(test_dir), 0);
}

/* Is the process group gone? */
static int
group_gone(pid_t pgid)
{
	return kill(-pgid, 0) == -1 && errno == ESRCH;
}

static void
test_parse_lines(void **state)
{
	const char	*text = "# hello there\n\nlatency 12.5 ms\n"
	    "\f\n\v\n \f\v\r\n"		/* blank lines too */
	    "ops 1e3 ops/s higher\r\nsize 10 MiB lower\n  spaced\t3\tx  \n"
	    "\fformfed\v2\fx\n"
	    "  #indented note";
	struct wl_result res;
	char		*cause = NULL;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(text, strlen(text), &res, &cause), 0);
	assert_int_equal(res.nmetrics, 5);
	assert_string_equal(res.metrics[4].name, "formfed");
	NEAR(res.metrics[4].value, 2, 0);
	assert_string_equal(res.metrics[4].unit, "x");
	assert_string_equal(res.metrics[0].name, "latency");
	NEAR(res.metrics[0].value, 12.5, 1e-12);
	assert_string_equal(res.metrics[0].unit, "ms");
	assert_int_equal(res.metrics[0].better, BETTER_LOWER);
	assert_string_equal(res.metrics[1].name, "ops");
	NEAR(res.metrics[1].value, 1000, 1e-12);
	assert_string_equal(res.metrics[1].unit, "ops/s");
	assert_int_equal(res.metrics[1].better, BETTER_HIGHER);
	assert_int_equal(res.metrics[2].better, BETTER_LOWER);
	assert_string_equal(res.metrics[3].name, "spaced");
	assert_string_equal(res.metrics[3].unit, "x");
	assert_int_equal(res.metrics[3].better, BETTER_HIGHER);
	assert_int_equal(res.nnotes, 2);
	assert_string_equal(res.notes[0], "hello there");
	assert_string_equal(res.notes[1], "indented note");
	wl_result_clear(&res);
}

/*
 * A value only a denormal holds keeps the digits it can; one so near 0
 * that it would be stored as 0 is refused, as import refuses it (it was
 * stored as 0, a figure the benchmark did not print).
 */
static void
test_parse_underflow(void **state)
{
	const char	*text = "tiny 1e-310 s\nsmall -2.5e-320 s\n";
	struct wl_result res;
	char		*cause = NULL;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(text, strlen(text), &res, &cause), 0);
	assert_null(cause);
	assert_int_equal(res.nmetrics, 2);
	assert_true(res.metrics[0].value == 1e-310);
	assert_true(res.metrics[1].value == -2.5e-320);
	wl_result_clear(&res);

	text = "tiny 1e-310 s\nzero 1e-400 s\n";
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(text, strlen(text), &res, &cause),
	    -1);
	assert_string_equal(cause, "output line 2: value \"1e-400\" is beyond "
	    "what a double holds, expected \"metric value unit "
	    "[higher|lower]\", got \"zero 1e-400 s\"");
	free(cause);
	wl_result_clear(&res);
}

/*
 * 1 MiB of output, the most a child may print, holds 80,000 to 100,000
 * metrics, each name looked up among those before it (in a hash: a scan
 * of them all took the runner half a minute of CPU).  Every one is read,
 * and a name repeated at the very end is still found, with the line of
 * its first.  How long it takes is not asserted here (a shared machine's
 * CPU time is no test); the commit that made it a hash says what it
 * measured.
 */
static void
test_parse_many(void **state)
{
	struct wl_result	 res;
	char			*buf, *cause = NULL;
	size_t			 len = 0, n, json;

	(void)state;
	buf = xmalloc(WL_OUTPUT_MAX);
	for (json = 0; json < 2; json++) {
		len = json ? (size_t)snprintf(buf, WL_OUTPUT_MAX, "{") : 0;
		for (n = 0; len + 64 < WL_OUTPUT_MAX; n++) {
			if (json)
				len += snprintf(buf + len, WL_OUTPUT_MAX - len,
				    "%s\"m%zu\": 1", n > 0 ? "," : "", n);
			else
				len += snprintf(buf + len, WL_OUTPUT_MAX - len,
				    "m%zu 1 x\n", n);
		}
		if (json)
			len += snprintf(buf + len, WL_OUTPUT_MAX - len, "}");
		memset(&res, 0, sizeof(res));
		assert_int_equal(wl_parse_output(buf, len, &res, &cause), 0);
		assert_int_equal(res.nmetrics, n);
		assert_true(n > 50000);
		wl_result_clear(&res);
	}
	/* The line form again, m7 repeated last. */
	for (len = 0, n = 0; len + 64 < WL_OUTPUT_MAX; n++)
		len += snprintf(buf + len, WL_OUTPUT_MAX - len, "m%zu 1 x\n",
		    n);
	len += snprintf(buf + len, WL_OUTPUT_MAX - len, "m7 2 x\n");
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(buf, len, &res, &cause), -1);
	assert_non_null(strstr(cause, "repeated (first on line 8)"));
	free(cause);
	wl_result_clear(&res);
	free(buf);
}

static void
test_parse_line_errors(void **state)
{
	static const struct {
		const char	*text;
		size_t		 len;
		const char	*error;
	} bad[] = {
		{ "a\n", 0, "output line 1: too few fields, expected "
		    "\"metric value unit [higher|lower]\", got \"a\"" },
		/* The whole line is quoted, not its first field. */
		{ "ok 1 s\nbad 2\n", 0, "output line 2: too few fields, "
		    "expected \"metric value unit [higher|lower]\", got "
		    "\"bad 2\"" },
		{ "\tlatency\t\t12.5  \r\n", 0, "output line 1: too few "
		    "fields, expected \"metric value unit [higher|lower]\", "
		    "got \"latency 12.5\"" },
		/* Prose that only looks like three fields is quoted whole. */
		{ "ok 1 s\n\nthis is junk\n", 0, "output line 3: value \"is\" "
		    "is not a finite number, expected \"metric value unit "
		    "[higher|lower]\", got \"this is junk\"" },
		{ "x 1 s sideways\n", 0, "output line 1: expected higher or "
		    "lower, got \"sideways\"" },
		/* A direction without its unit: not a unit named "lower". */
		{ "ok 1 s\nlatency 5  lower \n", 0, "output line 2: \"lower\" "
		    "stands where the unit goes, expected \"metric value unit "
		    "[higher|lower]\", got \"latency 5 lower\"" },
		{ "rate 7 higher\n", 0, "output line 1: \"higher\" stands "
		    "where the unit goes" },
		{ "x nan s\n", 0, "output line 1: value \"nan\"" },
		{ "x 1e999 s\n", 0, "output line 1: value \"1e999\" is beyond "
		    "what a double holds" },
		/* strtod's hexadecimal, which import refuses too. */
		{ "x 0x10 s\n", 0, "output line 1: value \"0x10\" is not a "
		    "finite number" },
		{ "x 0X1p4 s\n", 0, "value \"0X1p4\" is not a finite" },
		{ "x 1 s\ny 2 s\nx 3 s\n", 0, "output line 3: metric x "
		    "repeated (first on line 1)" },
		{ "x 1 s lower extra\n", 0, "output line 1: too many fields, "
		    "expected \"metric value unit [higher|lower]\", got \"x 1 "
		    "s lower extra\"" },
		{ "x 1 s lower a b c\n", 0, "got \"x 1 s lower a b c\"" },
		{ "-x 1 s\n", 0, "output line 1: bad metric name \"-x\"" },
		{ "x 1 averyveryverylongunit\n", 0, "output line 1: unit "
		    "\"averyveryverylongunit\" is longer than 15" },
		/* A short unit outside ASCII is not "too long". */
		{ "a 1 \xc2\xb5s\n", 0, "output line 1: unit \"\xc2\xb5s\" is not "
		    "printable ASCII (write us for \xc2\xb5s)" },
		{ "a 1 s\x01\n", 0, "output line 1: unit \"s\x01\" is not "
		    "printable ASCII" },
		{ "x 1 s\ny\0 2 s\n", 12, "output line 2: contains a NUL" },
	};
	struct wl_result res;
	char		*cause;
	size_t		 i, len;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		memset(&res, 0, sizeof(res));
		cause = NULL;
		len = bad[i].len != 0 ? bad[i].len : strlen(bad[i].text);
		assert_int_equal(wl_parse_output(bad[i].text, len, &res,
		    &cause), -1);
		assert_non_null(cause);
		if (strstr(cause, bad[i].error) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, cause,
			    bad[i].error);
		free(cause);
		wl_result_clear(&res);
	}
}

/* 400 zeros: a whole number past a double's range behind a 1. */
#define ZEROS10		"0000000000"
#define ZEROS100	ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 \
			ZEROS10 ZEROS10 ZEROS10 ZEROS10
#define ZEROS400	ZEROS100 ZEROS100 ZEROS100 ZEROS100

static void
test_parse_json(void **state)
{
	const char	*good = "  {\"a\": 1.5,\n \"b\": {\"value\": 2, "
	    "\"unit\": \"s\"},\n \"c\": {\"value\": 3, \"unit\": \"ops\", "
	    "\"better\": \"lower\"}}\n";
	const char	*big = "{\"bytes\": 18446744073709551615, "
	    "\"neg\": {\"value\": -100000000000000000000}, "
	    "\"odd\": 9007199254740993}";
	static const struct {
		const char	*text;
		const char	*error;
	} bad[] = {
		{ "{\"a\": 1,\n \"b\": }", "output line 2 column" },
		{ "{\"a\": \"x\"}", "metric a must be a number or an object" },
		{ "{\"a\": {\"unit\": \"s\"}}", "metric a has no \"value\"" },
		{ "{\"a\": {\"value\": 1, \"better\": \"up\"}}",
		    "metric a: better must be" },
		{ "{\"a\": {\"value\": 1, \"colour\": 2}}",
		    "unknown member \"colour\"" },
		{ "{\"a\": 1, \"a\": 2}", "output line 1" },
		{ "{\"a b\": 1}", "bad metric name \"a b\"" },
		/* An integer past a double's range, as a real past it is. */
		{ "{\"a\": 1e400}", "output line 1 column" },
		{ "{\"a\": 1" ZEROS400 "}", "output line 1 column" },
		/* So near 0 that it would be stored as 0, as the lines say. */
		{ "{\"note\": {\"value\": 1, \"unit\": \"1e-400\"},\n"
		    " \"b\": {\"value\": 1e-400}}", "output line 2 column 17: "
		    "1e-400 is beyond what a double holds" },
	};
	struct wl_result res;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(good, strlen(good), &res, &cause), 0);
	assert_int_equal(res.nmetrics, 3);
	assert_string_equal(res.metrics[0].name, "a");
	NEAR(res.metrics[0].value, 1.5, 1e-12);
	assert_string_equal(res.metrics[0].unit, "");
	assert_int_equal(res.metrics[0].better, BETTER_HIGHER);
	assert_string_equal(res.metrics[1].unit, "s");
	assert_int_equal(res.metrics[1].better, BETTER_LOWER);
	assert_string_equal(res.metrics[2].unit, "ops");
	assert_int_equal(res.metrics[2].better, BETTER_LOWER);
	wl_result_clear(&res);

	/*
	 * A whole number too big for a long long (a byte counter) is read
	 * as the line form reads it, into the nearest double.
	 */
	memset(&res, 0, sizeof(res));
	assert_int_equal(wl_parse_output(big, strlen(big), &res, &cause), 0);
	assert_int_equal(res.nmetrics, 3);
	assert_true(res.metrics[0].value == 18446744073709551615.0);
	assert_true(res.metrics[1].value == -1e20);
	assert_true(res.metrics[2].value == 9007199254740993.0);
	wl_result_clear(&res);

	for (i = 0; i < nitems(bad); i++) {
		memset(&res, 0, sizeof(res));
		cause = NULL;
		assert_int_equal(wl_parse_output(bad[i].text,
		    strlen(bad[i].text), &res, &cause), -1);
		if (strstr(cause, bad[i].error) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, cause,
			    bad[i].error);
		free(cause);
		wl_result_clear(&res);
	}
}

static void
test_battery(void **state)
{
	static const char *const names[] = {
		"disk.bonnie", "disk.stream", "sys.dhrystone",
		"sys.whetstone", "sys.execl", "sys.fcopy1024", "sys.fcopy256",
		"sys.fcopy4096", "sys.pipe", "sys.context1", "sys.spawn",
		"sys.shell1", "sys.shell8", "sys.syscall", "db.oltp",
		"command",
	};
	const struct wl_workload	*list;
	size_t				 n, i, index = 0;

	(void)state;
	list = wl_list(&n);
	assert_int_equal(n, nitems(names));
	for (i = 0; i < n; i++) {
		assert_string_equal(list[i].name, names[i]);
		assert_ptr_equal(wl_find(names[i]), &list[i]);
		if (list[i].flags & WL_F_INDEX) {
			assert_non_null(list[i].index_metric);
			index++;
		}
	}
	/* The twelve tests of UnixBench's index. */
	assert_int_equal(index, 12);
	assert_null(wl_find("sys.nope"));
	/* "command" is the kind of the user's commands, not of the battery. */
	assert_ptr_equal(wl_battery_find("sys.pipe"), wl_find("sys.pipe"));
	assert_null(wl_battery_find("command"));
	assert_null(wl_battery_find("sys.nope"));
	assert_string_equal(wl_key_name(WL_K_FSYNC_EVERY), "fsync_every");
	assert_int_equal(wl_key_parse("destroy_data"), WL_K_DESTROY_DATA);
	assert_int_equal(wl_key_parse("colour"), 0);
}

static void
test_params(void **state)
{
	const struct wl_workload	*bonnie, *stream, *oltp, *cmd;
	struct wl_params		 p, q;
	struct config			*dc;
	char				*cause = NULL;
	int				 threads[WL_THREADS_MAX];
	size_t				 n, i;

	(void)state;
	bonnie = wl_find("disk.bonnie");
	wl_params_init(&p, bonnie);
	assert_int_equal(p.iterations, 5);
	NEAR(p.size_ram, 2, 0);
	/* The timeouts perfwatch.conf(5) gives: 6h, 10m for sys.*, 30m. */
	NEAR(p.timeout, 6 * 3600, 0);
	wl_params_init(&q, wl_find("sys.pipe"));
	NEAR(q.timeout, 600, 0);
	wl_params_init(&q, wl_find("disk.stream"));
	NEAR(q.timeout, 1800, 0);
	/* And the grace and iterations the configuration schema gives. */
	dc = config_default();
	NEAR(q.grace, (double)config_get_duration(dc,
	    "workload", "grace"), 0);
	assert_int_equal(q.iterations, config_get_int(dc, "workload",
	    "iterations"));
	config_free(dc);
	assert_int_equal(p.seeks, 8000);
	assert_int_equal(p.seekers, 3);
	assert_true(wl_params_size(&p) >= 2 * (wl_memory_bytes() & ~0xfffffULL)
	    - 2 * 1048576);

	set(&p, bonnie, "size", "256M");
	assert_int_equal(p.size, 256ULL << 20);
	NEAR(p.size_ram, 0, 0);
	assert_int_equal(wl_params_size(&p), 256ULL << 20);
	set(&p, bonnie, "size", "1.5G");
	assert_int_equal(p.size, 1536ULL << 20);
	set(&p, bonnie, "size", "67108864");
	assert_int_equal(p.size, 64ULL << 20);
	set(&p, bonnie, "size", "2GiB");
	assert_int_equal(p.size, 2048ULL << 20);
	set(&p, bonnie, "size", "0.5xRAM");
	NEAR(p.size_ram, 0.5, 0);
	set(&p, bonnie, "size", "2x");
	NEAR(p.size_ram, 2, 0);
	assert_int_equal(p.size, 0);
	set(&p, bonnie, "timeout", "5m");
	NEAR(p.timeout, 300, 0);
	set(&p, bonnie, "timeout", "1h30m");
	NEAR(p.timeout, 5400, 0);
	set(&p, bonnie, "timeout", "1d2h");
	NEAR(p.timeout, 93600, 0);
	set(&p, bonnie, "timeout", "90");
	NEAR(p.timeout, 90, 0);
	set(&p, bonnie, "timeout", "2.5");
	NEAR(p.timeout, 2.5, 0);
	set(&p, bonnie, "grace", "500ms");
	NEAR(p.grace, 0.5, 1e-12);
	set(&p, bonnie, "warmup", "yes");
	assert_int_equal(p.warmup, 1);
	set(&p, bonnie, "warmup", "3");
	assert_int_equal(p.warmup, 3);

	set_refused(&p, bonnie, "size", "4K",
	    "size: expected a size of at least 1M, got \"4K\"");
	set_refused(&p, bonnie, "size", "10Q", NULL);
	set_refused(&p, bonnie, "size", "64", NULL);
	set_refused(&p, bonnie, "size", "100x", NULL);
	set_refused(&p, bonnie, "timeout", "30m1h", NULL);
	set_refused(&p, bonnie, "timeout", "5s5s", NULL);
	set_refused(&p, bonnie, "timeout", "soon",
	    "timeout: expected a duration such as 30, "
	    "2.5s, 500ms, 5m, 1h30m, got \"soon\"");
	set_refused(&p, bonnie, "colour", "red", "unknown key \"colour\"");
	set_refused(&p, bonnie, "duration", "1",
	    "key duration does not apply to disk.bonnie");
	set_refused(&p, bonnie, "seekers", "0", NULL);
	set(&p, bonnie, "char_size", "256M");
	assert_int_equal(p.char_size, 256ULL << 20);
	set_refused(&p, bonnie, "char_size", "4K",
	    "char_size: expected a size of at least 1M, got \"4K\"");
	set_refused(&p, bonnie, "char_size", "2x", NULL);
	set_refused(&p, bonnie, "work_dir", "rel/dir", NULL);

	/* A deep copy survives the original. */
	set(&p, bonnie, "work_dir", "/var/tmp/x");
	wl_params_copy(&q, &p);
	wl_params_clear(&p);
	assert_string_equal(q.work_dir, "/var/tmp/x");
	assert_int_equal(wl_params_check(&q, bonnie, &cause), 0);
	wl_params_clear(&q);

	stream = wl_find("disk.stream");
	wl_params_init(&p, stream);
	assert_int_equal(p.fsync_every, 128ULL << 20);
	set(&p, stream, "fsync_every", "1G");
	assert_int_equal(p.fsync_every, 1ULL << 30);
	assert_int_equal(wl_params_set(&p, stream, "size", "2xRAM", &cause),
	    0);
	set_refused(&p, stream, "fsync_every", "2xRAM", NULL);
	set(&p, stream, "device", "/dev/sdz");
	assert_int_equal(wl_params_check(&p, stream, &cause), -1);
	assert_non_null(strstr(cause, "without destroy_data = yes"));
	free(cause);
	set(&p, stream, "destroy_data", "yes");
	assert_int_equal(wl_params_check(&p, stream, &cause), 0);
	wl_params_clear(&p);

	oltp = wl_find("db.oltp");
	wl_params_init(&p, oltp);
	assert_int_equal(p.table_size, 10000);
	n = wl_params_threads(&p, threads, nitems(threads));
	assert_true(n >= 2);
	for (i = 0; i < n; i++)
		assert_int_equal(threads[i], 1 << i);
	assert_true(threads[n - 1] >= 2 * wl_ncpu());
	assert_true(threads[n - 2] < 2 * wl_ncpu());
	set(&p, oltp, "threads", "1, 3,8");
	n = wl_params_threads(&p, threads, nitems(threads));
	assert_int_equal(n, 3);
	assert_int_equal(threads[1], 3);
	assert_int_equal(threads[2], 8);
	set_refused(&p, oltp, "threads", "1,1",
	    "threads: 1 given twice");
	set_refused(&p, oltp, "threads", "0", NULL);
	set(&p, oltp, "threads", "auto");
	assert_int_equal(p.nthreads, 0);
	set_refused(&p, oltp, "table_size", "99", NULL);
	wl_params_clear(&p);

	cmd = wl_find("command");
	wl_params_init(&p, cmd);
	assert_int_equal(wl_params_check(&p, cmd, &cause), -1);
	assert_string_equal(cause, "command: no command given");
	free(cause);
	set(&p, cmd, "measure", "time");
	assert_int_equal(p.measure, WL_MEASURE_TIME);
	set_refused(&p, cmd, "measure", "guess", NULL);
	wl_params_clear(&p);
}

/* text loaded as t.conf, or fail naming case i and the loader's cause. */
static struct config *
conf_case(size_t i, const char *text)
{
	struct config	*cfg;
	char		*cause = NULL;

	cfg = config_load_buffer("t.conf", text, strlen(text), &cause);
	if (cfg == NULL)
		fail_msg("case %zu: %s", i, cause);
	return cfg;
}

/*
 * What the configuration loader takes but wl_params_set() refuses is
 * reported as the loader reports its own errors, "file:line: key: ...",
 * and the schema's ranges are the workloads' own.
 */
static void
test_params_apply_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*error;	/* NULL: loads and applies */
	} cases[] = {
		{ "[workload \"disk.stream\"]\nsize = 4M\n\nfsync_every = 512K\n",
		  "t.conf:4: fsync_every: expected 0 (one fsync at the end) or "
		  "a size of at least 1M, got \"512K\"" },
		{ "[workload \"disk.stream\"]\nfsync_every = 0\n", NULL },
		{ "[workload \"db.oltp\"]\n# many\nthreads = 1,2,3,4,5,6,7,8,9,"
		  "10,11,12,13,14,15,16,17\n",
		  "t.conf:3: threads: more than 16 counts" },
		/* Said of the section's workload, not of its kind. */
		{ "[workload \"x\"]\ncommand = true\nseekers = 2\n",
		  "t.conf:3: key seekers does not apply to x, a command" },
		{ "[workload \"t.x\"]\ncommand = echo a 1 s\n\n"
		  "duration = 2s\n",
		  "t.conf:4: key duration does not apply to t.x, a command" },
		{ "[workload \"disk.bonnie\"]\nseekers = 64\n"
		  "table_size = 100\n", "t.conf:3: key table_size does not "
		  "apply to disk.bonnie" },
		{ "[workload \"db.oltp\"]\ntable_size = 100\n"
		  "iterations = 100000\n", NULL },
	};
	static const char *const refused[] = {
		"[workload \"disk.bonnie\"]\nseekers = 65\n",
		"[workload \"db.oltp\"]\ntable_size = 99\n",
		"[workload \"disk.stream\"]\nsize = 512K\n",
		"[workload \"x\"]\niterations = 100001\n",
	};
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct config			*cfg;
	const char			*name;
	char				*cause, *section;
	size_t				 i;
	int				 rc;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		cfg = conf_case(i, cases[i].text);
		cause = NULL;
		name = config_sections(cfg, "workload", 0);
		if ((wl = wl_find(name)) == NULL)
			wl = wl_find("command");
		wl_params_init(&p, wl);
		xasprintf(&section, "workload %s", name);
		rc = wl_params_apply(&p, wl, cfg, section, &cause);
		if (cases[i].error == NULL) {
			if (rc != 0)
				fail_msg("case %zu: %s", i, cause);
		} else {
			assert_int_equal(rc, -1);
			assert_string_equal(cause, cases[i].error);
			free(cause);
		}
		free(section);
		wl_params_clear(&p);
		config_free(cfg);
	}
	/* Refused by the loader itself, with its line. */
	for (i = 0; i < nitems(refused); i++) {
		cause = NULL;
		cfg = config_load_buffer("t.conf", refused[i],
		    strlen(refused[i]), &cause);
		if (cfg != NULL)
			fail_msg("refused %zu: loaded", i);
		assert_non_null(strstr(cause, "t.conf:2: "));
		free(cause);
	}
}

/*
 * wl_config_check(): every section as a run reads it, each bad one said
 * with its line (a missing command at the header), a section turned off
 * not checked as a whole.
 */
static void
test_config_check(void **state)
{
	static const struct {
		const char	*text;
		const char	*error;	/* NULL: valid */
	} cases[] = {
		{ "[workload \"sys.pipe\"]\niterations = 3\n"
		  "[workload \"mine\"]\ncommand = true\n"
		  "[workload \"gone\"]\nenabled = no\n", NULL },
		/* A profile's command tuned here; not named like the battery. */
		{ "[workload \"mybench\"]\niterations = 3\n", NULL },
		/* So too one named "command", the kind, not a workload. */
		{ "[workload \"command\"]\niterations = 3\n", NULL },
		{ "[workload \"sys.pipe\"]\n\ntable_size = 1000\n",
		  "t.conf:3: key table_size does not apply to sys.pipe" },
		{ "[workload \"sys.pipe\"]\niterations = 2\n\n"
		  "[workload \"sys.pipx\"]\niterations = 3\n",
		  "t.conf:4: [workload \"sys.pipx\"]: no command given, and "
		  "it is not a workload of the battery (did you mean "
		  "sys.pipe?)" },
		{ "[workload \"disk.stream\"]\ndevice = /dev/null\n"
		  "[workload \"db.oltp\"]\nthreads = 1,2,3,4,5,6,7,8,9,"
		  "10,11,12,13,14,15,16,17\n",
		  "t.conf:1: [workload \"disk.stream\"]: refusing to write to "
		  "/dev/null without destroy_data = yes (its contents would be "
		  "lost)\nt.conf:4: threads: more than 16 counts" },
		/* A timed loop no shorter than the timeout: said at once. */
		{ "[workload \"sys.pipe\"]\nduration = 20m\n"
		  "[workload \"db.oltp\"]\nthreads = 1, 2, 4\n"
		  "duration = 10m\n",
		  "t.conf:1: [workload \"sys.pipe\"]: duration 1200 s is not "
		  "shorter than timeout 600 s, so every iteration would time "
		  "out; raise timeout\nt.conf:3: [workload \"db.oltp\"]: "
		  "duration 600 s at each of 3 thread counts (1800 s) is not "
		  "shorter than timeout 1800 s, so every iteration would time "
		  "out; raise timeout" },
		/* A file larger than file_limit: every iteration fails. */
		{ "[workload \"disk.stream\"]\nsize = 4M\nfile_limit = 1M\n",
		  "t.conf:1: [workload \"disk.stream\"]: its file of 4194304 "
		  "bytes (size) is larger than file_limit, 1048576 bytes, so "
		  "every iteration would fail; raise file_limit or lower "
		  "size" },
		{ "[workload \"disk.stream\"]\nsize = 4M\nfile_limit = 1M\n"
		  "device = /dev/null\ndestroy_data = yes\n", NULL },
		/*
		 * The file written is weighed, its size rounded down to whole
		 * MiB (disk.stream) or 8 KiB chunks (disk.bonnie).
		 */
		{ "[workload \"disk.stream\"]\nsize = 4608K\n"
		  "file_limit = 4M\n"
		  "[workload \"disk.bonnie\"]\nsize = 1028K\n"
		  "file_limit = 1M\n", NULL },
		{ "[workload \"disk.stream\"]\nsize = 4608K\n"
		  "file_limit = 3M\n",
		  "t.conf:1: [workload \"disk.stream\"]: its file of 4194304 "
		  "bytes (size) is larger than file_limit, 3145728 bytes, so "
		  "every iteration would fail; raise file_limit or lower "
		  "size" },
		{ "[workload \"sys.pipe\"]\nduration = 20m\ntimeout = 21m\n"
		  "[workload \"db.oltp\"]\nthreads = 1, 2, 4\n"
		  "duration = 9m\n", NULL },
	};
	struct config	*cfg;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		cfg = conf_case(i, cases[i].text);
		cause = NULL;
		if (cases[i].error == NULL) {
			if (wl_config_check(cfg, &cause) != 0)
				fail_msg("case %zu: %s", i, cause);
		} else {
			assert_int_equal(wl_config_check(cfg, &cause), -1);
			assert_string_equal(cause, cases[i].error);
			free(cause);
		}
		config_free(cfg);
	}
}

static void
test_plan_and_progress(void **state)
{
	static const struct {
		size_t	job;
		int	warmup, iteration, count;
	} want[] = {
		{ 0, 1, 1, 1 }, { 2, 1, 1, 2 }, { 2, 1, 2, 2 },
		{ 0, 0, 1, 3 }, { 1, 0, 1, 2 }, { 2, 0, 1, 1 },
		{ 0, 0, 2, 3 }, { 1, 0, 2, 2 },
		{ 0, 0, 3, 3 },
	};
	struct wl_params		 a, b, c;
	const struct wl_params		*jobs[3] = { &a, &b, &c };
	struct wl_step			*steps;
	struct wl_progress		*pr;
	char				 buf[256];
	size_t				 n, i;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	a.iterations = 3;
	a.warmup = 1;
	b.iterations = 2;
	c.iterations = 1;
	c.warmup = 2;
	steps = wl_plan(jobs, 3, &n);
	assert_int_equal(n, nitems(want));
	for (i = 0; i < n; i++) {
		assert_int_equal(steps[i].job, want[i].job);
		assert_int_equal(steps[i].warmup, want[i].warmup);
		assert_int_equal(steps[i].iteration, want[i].iteration);
		assert_int_equal(steps[i].count, want[i].count);
	}

	pr = wl_progress_new(steps, n, 3);
	NEAR(wl_progress_remaining(pr, 0), -1, 0);
	wl_progress_format(pr, 0, "disk.a", 0, buf, sizeof(buf));
	assert_string_equal(buf, "[1/9] disk.a warm-up 1/1, elapsed 0:00, "
	    "left ~?");
	wl_progress_done(pr, 0, 10);
	wl_progress_done(pr, 1, 20);
	/* C 20, then A 10, B (unseen: mean 15), C 20, A 10, B 15, A 10. */
	NEAR(wl_progress_remaining(pr, 2), 100, 1e-9);
	wl_progress_format(pr, 2, "sys.c", 30, buf, sizeof(buf));
	assert_string_equal(buf, "[3/9] sys.c warm-up 2/2, elapsed 0:30, "
	    "left ~1:40");
	wl_progress_format(pr, 8, "disk.a", 3725, buf, sizeof(buf));
	assert_string_equal(buf, "[9/9] disk.a iteration 3/3, elapsed "
	    "1:02:05, left ~0:10");
	NEAR(wl_progress_remaining(pr, 9), 0, 0);
	/*
	 * A job that failed runs no more steps: C's (seen, 20) and then
	 * B's (unseen, at the mean of all) are no longer charged.
	 */
	wl_progress_drop(pr, 2);
	NEAR(wl_progress_remaining(pr, 2), 60, 1e-9);
	wl_progress_format(pr, 2, "sys.c", 30, buf, sizeof(buf));
	assert_string_equal(buf, "[3/9] sys.c warm-up 2/2, elapsed 0:30, "
	    "left ~1:00");
	wl_progress_drop(pr, 1);
	NEAR(wl_progress_remaining(pr, 2), 30, 1e-9);
	wl_progress_drop(pr, 0);
	NEAR(wl_progress_remaining(pr, 2), 0, 0);
	wl_progress_free(pr);
	free(steps);

	a.warmup = c.warmup = 0;
	a.iterations = b.iterations = c.iterations = 0;
	assert_null(wl_plan(jobs, 3, &n));
	assert_int_equal(n, 0);
}

/* The index of UnixBench's own per-test scores is its Index Score. */
static void
test_index(void **state)
{
	char		 path[PATH_MAX], line[256], *p, *field;
	double		 score[3][16], ref[16], total[3];
	size_t		 n = 0, col;
	FILE		*fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/reference/"
	    "unixbench-opensuse.csv", checkout_top());
	fp = fopen(path, "r");
	if (fp == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	assert_non_null(fgets(line, sizeof(line), fp));
	while (fgets(line, sizeof(line), fp) != NULL) {
		p = line;
		field = strsep(&p, ",");
		for (col = 0; col < 3; col++) {
			double v = strtod(strsep(&p, ","), NULL);
			if (strcmp(field, "Index Score") == 0)
				total[col] = v;
			else
				score[col][n] = v;
		}
		if (strcmp(field, "Index Score") != 0)
			ref[n++] = 1000;
	}
	fclose(fp);
	assert_int_equal(n, 12);
	/* UnixBench rounds every test score: the index agrees to 1. */
	for (col = 0; col < 3; col++)
		NEAR(wl_index(score[col], ref, n), total[col],
		    1.0);
	NEAR(wl_index(score[0], score[0], n), 1000, 1e-9);
	ref[3] = 0;
	assert_true(isnan(wl_index(score[0], ref, n)));
	assert_true(isnan(wl_index(score[0], ref, 0)));
}

/*
 * The profiles load with the configuration loader the command uses, and
 * every key they set is one wl_params_set() takes for that workload.
 */
static void
test_profiles(void **state)
{
	static const char *const profiles[] = { "quick", "nightly", "full" };
	const struct wl_workload	*list, *wl;
	struct wl_params		 p;
	struct config			*cfg;
	const char			*top, *name;
	char				 path[PATH_MAX], *section, *cause;
	size_t				 n, i, k, found;

	(void)state;
	top = checkout_top();
	list = wl_list(&n);
	for (i = 0; i < nitems(profiles); i++) {
		snprintf(path, sizeof(path), "%s/etc/profiles/%s.conf", top,
		    profiles[i]);
		cause = NULL;
		if ((cfg = config_load(path, &cause)) == NULL)
			fail_msg("%s: %s", path, cause);
		found = 0;
		for (k = 0; (name = config_sections(cfg, "workload", k)) !=
		    NULL; k++) {
			if ((wl = wl_find(name)) == NULL)
				fail_msg("%s: no workload %s", path, name);
			found++;
			wl_params_init(&p, wl);
			xasprintf(&section, "workload %s", name);
			if (wl_params_apply(&p, wl, cfg, section, &cause) == -1)
				fail_msg("%s: [%s] %s", path, section, cause);
			if (wl_params_check(&p, wl, &cause) == -1)
				fail_msg("%s: %s", path, cause);
			assert_true(p.iterations >= 3);
			/* Every key, the newest too, reaches the job. */
			if (strcmp(profiles[i], "quick") == 0 &&
			    strncmp(name, "disk.", 5) == 0)
				NEAR(p.settle, 6, 0);
			else if (strncmp(name, "disk.", 5) == 0)
				NEAR(p.settle, 10, 0);
			else
				NEAR(p.settle, 0, 0);
			free(section);
			wl_params_clear(&p);
		}
		/* The whole battery, the user's command aside. */
		assert_int_equal(found, n - 1);
		config_free(cfg);
	}
	assert_string_equal(list[n - 1].name, "command");
}

static void
test_statistics(void **state)
{
	double	x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double	y[20], mean, sd;
	size_t	i;

	(void)state;
	wl_mean_sd(x, nitems(x), &mean, &sd);
	NEAR(mean, 5, 1e-12);
	NEAR(sd, sqrt(32.0 / 7.0), 1e-12);
	wl_mean_sd(x, 1, &mean, &sd);
	NEAR(mean, 2, 0);
	NEAR(sd, 0, 0);
	for (i = 0; i < 20; i++)
		y[i] = 20 - i;
	NEAR(wl_percentile(y, 20, 95), 19, 0);
	NEAR(wl_percentile(y, 20, 50), 10, 0);
	NEAR(wl_percentile(y, 20, 100), 20, 0);
	NEAR(wl_percentile(y, 20, 1), 1, 0);
	y[0] = 18;
	y[1] = 20;
	y[2] = 19;
	NEAR(wl_percentile(y, 3, 95), 20, 0);
	NEAR(wl_percentile(y, 3, 50), 19, 0);
}

/*
 * wl_page_alloc: at the start of a page whatever was allocated before,
 * and the whole length usable (sys.dhrystone's state is some 10 KiB).
 */
static void
test_page_alloc(void **state)
{
	const size_t	 lens[] = { 1, 100, 4095, 4096, 10320, 3 * 4096 + 1 };
	char		*before[nitems(lens)], *p;
	long		 page = sysconf(_SC_PAGESIZE);
	size_t		 i;

	(void)state;
	assert_true(page >= 4096);
	for (i = 0; i < nitems(lens); i++) {
		/* Odd blocks first, so malloc's next one is anywhere. */
		before[i] = xmalloc(24 + 40 * i);
		p = wl_page_alloc(lens[i]);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % (uintptr_t)page, 0);
		memset(p, 0xa5, lens[i]);
		assert_int_equal((unsigned char)p[lens[i] - 1], 0xa5);
		free(p);
	}
	for (i = 0; i < nitems(lens); i++)
		free(before[i]);
}

/* A loop body that counts what it was asked to do. */
static int
tally_body(void *arg, uint64_t n, char **cause)
{
	uint64_t		*tally = arg;
	struct timespec		 ts = { 0, 0 };

	(void)cause;
	if (*tally >= (UINT64_C(1) << 62)) {
		/* The slow variant: one 60 ms operation a call. */
		ts.tv_nsec = 60 * 1000 * 1000;
		nanosleep(&ts, NULL);
		*tally += n;
		return 0;
	}
	*tally += n;
	return 0;
}

static int
failing_body(void *arg, uint64_t n, char **cause)
{
	(void)arg;
	(void)n;
	*cause = xstrdup("broken");
	return -1;
}

static void
test_timed_loop(void **state)
{
	struct wl_loop	loop;
	uint64_t	tally = 0, slow = UINT64_C(1) << 62;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(wl_timed_loop(0.05, 0, tally_body, &tally, &loop,
	    &cause), 0);
	assert_int_equal(loop.count, tally);
	assert_true(loop.elapsed >= 0.05);
	assert_true(loop.slices <= 11);
	assert_true(loop.rate > 0);
	NEAR(loop.wall_rate, loop.count / loop.elapsed, 0);
	tally = 0;
	assert_int_equal(wl_timed_loop(0.05, WL_LOOP_CPU, tally_body, &tally,
	    &loop, &cause), 0);
	assert_int_equal(loop.count, tally);
	assert_true(loop.cpu > 0);
	assert_true(loop.rate > 0);

	/* Slower than the slices: the rate is the count over the time. */
	assert_int_equal(wl_timed_loop(0.1, 0, tally_body, &slow, &loop,
	    &cause), 0);
	assert_int_equal(loop.count, slow - (UINT64_C(1) << 62));
	assert_true(loop.count == 1 || loop.count == 2);
	assert_true(loop.slices < 3);
	NEAR(loop.rate, loop.count / loop.elapsed, 0);

	assert_int_equal(wl_timed_loop(1, 0, failing_body, NULL, &loop,
	    &cause), -1);
	assert_string_equal(cause, "broken");
	free(cause);
}

/* Spin until this process has used at least ms milliseconds of CPU. */
static void
burn_cpu(int ms)
{
	struct timespec	ts;

	do {
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < ms);
}

#define BURN_MS		20

/* A loop body whose work is a child burning BURN_MS of CPU, reaped. */
static int
child_body(void *arg, uint64_t n, char **cause)
{
	uint64_t	*tally = arg, i;
	pid_t		 pid;
	int		 status;

	for (i = 0; i < n; i++) {
		if ((pid = fork()) == -1) {
			*cause = xstrdup("fork");
			return -1;
		}
		if (pid == 0) {
			burn_cpu(BURN_MS);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid) {
			*cause = xstrdup("waitpid");
			return -1;
		}
		(*tally)++;
	}
	return 0;
}

/* A partner: for every byte it reads, burn BURN_MS of CPU more, answer. */
struct partner {
	pid_t	pid;
	int	to;
	int	from;
};

static void
partner_start(struct partner *pa)
{
	int	down[2], up[2], ms = 0;
	char	c;

	assert_int_equal(pipe(down), 0);
	assert_int_equal(pipe(up), 0);
	pa->pid = fork();
	assert_true(pa->pid != -1);
	if (pa->pid == 0) {
		close(down[1]);
		close(up[0]);
		while (read(down[0], &c, 1) == 1) {
			ms += BURN_MS;
			burn_cpu(ms);
			if (write(up[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	pa->to = down[1];
	pa->from = up[0];
}

static void
partner_stop(struct partner *pa)
{
	int	status;

	close(pa->to);
	close(pa->from);
	assert_int_equal(waitpid(pa->pid, &status, 0), pa->pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int
partner_body(void *arg, uint64_t n, char **cause)
{
	struct partner	*pa = arg;
	uint64_t	 i;
	char		 c = 'x';

	for (i = 0; i < n; i++) {
		if (write(pa->to, &c, 1) != 1 || read(pa->from, &c, 1) != 1) {
			*cause = xstrdup("partner pipe");
			return -1;
		}
	}
	return 0;
}

static void
test_timed_loop_clock(void **state)
{
	struct wl_clock	 clk;
	struct wl_loop	 loop;
	struct partner	 pa;
	uint64_t	 tally = 0;
	char		*cause = NULL;

	(void)state;
	/* The children's CPU counts: each burnt at least BURN_MS. */
	memset(&clk, 0, sizeof(clk));
	clk.flags = WL_LOOP_TREE;
	clk.cpus = 1;
	if (wl_timed_loop_clock(0.3, &clk, child_body, &tally, &loop,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(loop.count, tally);
	assert_true(loop.count >= 1);
	assert_int_equal(loop.cpus, 1);
	assert_true(loop.cpu >= loop.count * (BURN_MS / 1000.0));

	/* Slower than the slices: count over CPU time, divided by cpus. */
	tally = 0;
	clk.cpus = 2;
	if (wl_timed_loop_clock(0.01, &clk, child_body, &tally, &loop,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_true(loop.slices < 3);
	assert_int_equal(loop.cpus, 2);
	assert_true(loop.cpu >= loop.count * (BURN_MS / 1000.0));
	NEAR(loop.rate, loop.count / (loop.cpu / 2), 1e-9);

	/*
	 * A live partner's CPU counts through its clock (after one round
	 * outside the loop, so its start-up is not in the loop's time).
	 */
	partner_start(&pa);
	if (partner_body(&pa, 1, &cause) != 0)
		fail_msg("%s", cause);
	memset(&clk, 0, sizeof(clk));
	clk.cpus = 1;
	assert_int_equal(clock_getcpuclockid(pa.pid, &clk.partner), 0);
	clk.has_partner = 1;
	if (wl_timed_loop_clock(0.3, &clk, partner_body, &pa, &loop,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_true(loop.count >= 1);
	assert_true(loop.cpu >= loop.count * (BURN_MS / 1000.0) * 0.9);
	partner_stop(&pa);

	/* Once the partner is gone its clock cannot be read: an error. */
	assert_int_equal(wl_timed_loop_clock(0.05, &clk, tally_body, &tally,
	    &loop, &cause), -1);
	assert_non_null(strstr(cause, "partner's CPU clock"));
	free(cause);
}

static void
test_run_command_ok(void **state)
{
	struct wl_result	res;

	(void)state;
	assert_int_equal(run_command("echo 'x 1.5 s'; echo '# hi'; "
	    "echo noise >&2", "10", &res), 0);
	assert_int_equal(res.status, WL_OK);
	assert_int_equal(res.nmetrics, 1);
	assert_string_equal(res.metrics[0].name, "x");
	NEAR(res.metrics[0].value, 1.5, 0);
	assert_int_equal(res.metrics[0].better, BETTER_LOWER);
	assert_non_null(note(&res, "hi"));
	assert_true(res.wall > 0);
	assert_true(res.pgid > 0);
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
}

/*
 * Which commands are executed directly (their words, joined by "|"
 * here) and which go to /bin/sh -c (NULL): only plain words, and not a
 * first word that is the shell's own.
 */
static void
test_command_words(void **state)
{
	static const struct {
		const char	*command;
		const char	*words;
	} cases[] = {
		{ "/bin/true", "/bin/true" },
		{ "  ./bench -n 1000\t--size=10M  ", "./bench|-n|1000|--size=10M" },
		{ "prog a=b x,y:z+1@2%3 -", "prog|a=b|x,y:z+1@2%3|-" },
		{ "echoes x", "echoes|x" },
		{ "./exec", "./exec" },
		{ "", NULL },
		{ " \t", NULL },
		{ "a | b", NULL },
		{ "a;b", NULL },
		{ "a && b", NULL },
		{ "a >out", NULL },
		{ "a <in", NULL },
		{ "a &", NULL },
		{ "FOO=1 prog", NULL },
		{ "prog 'x y'", NULL },
		{ "prog \"x\"", NULL },
		{ "prog a\\ b", NULL },
		{ "prog $HOME", NULL },
		{ "prog $(x)", NULL },
		{ "prog `x`", NULL },
		{ "prog (x)", NULL },
		{ "prog *.c", NULL },
		{ "prog ?", NULL },
		{ "prog [ab]", NULL },
		{ "prog {a,b}", NULL },
		{ "prog ~/x", NULL },
		{ "prog #c", NULL },
		{ "prog !x", NULL },
		{ "prog\nother", NULL },
		{ "prog caf\xc3\xa9", NULL },
		{ "echo -e x", NULL },
		{ "true", NULL },
		{ "cd /tmp", NULL },
		{ "exec /bin/true", NULL },
		{ "time make", NULL },
		{ ". ./env", NULL },
		{ ": x", NULL },
		{ "if true", NULL },
		{ "ulimit -n 10", NULL },
	};
	char	**argv, joined[256];
	size_t	  i, j;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		argv = wl_command_words(cases[i].command);
		if (cases[i].words == NULL) {
			if (argv != NULL)
				fail_msg("\"%s\" split, not left to the shell",
				    cases[i].command);
			continue;
		}
		if (argv == NULL)
			fail_msg("\"%s\" left to the shell", cases[i].command);
		joined[0] = '\0';
		for (j = 0; argv[j] != NULL; j++) {
			if (j > 0)
				strcat(joined, "|");
			strcat(joined, argv[j]);
		}
		assert_string_equal(joined, cases[i].words);
		free(argv);
	}
}

/* Write an executable file in dir. */
static void
write_program(const char *dir, const char *name, const char *text)
{
	char	path[PATH_MAX];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * Plain commands, executed directly, get their words as arguments, the
 * clean room's environment (PWD too, as the shell would have set it)
 * and a program found in PATH; a file the kernel cannot execute (no #!)
 * still runs, by the shell, as do names not in PATH (the shell's "not
 * found", in test_run_failures).  Executed directly, the program is the
 * runner's own child: by /bin/sh -c, dash forks it (Linux, from /proc).
 * The programs' directory is in /tmp, whatever TMPDIR is, so that its
 * path is plain words.
 */
static void
test_run_command_direct(void **state)
{
	static const char prog[] =
	    "BEGIN {\n"
	    "	for (k in ENVIRON) n++\n"
	    "	print \"# env \" n \" PWD=\" ENVIRON[\"PWD\"]\n"
	    "	if ((getline st < \"/proc/self/stat\") > 0) {\n"
	    "		split(st, f, \" \")\n"
	    "		print \"# ppid \" f[4]\n"
	    "	}\n"
	    "	printf \"# args %d\", ARGC - 1\n"
	    "	for (i = 1; i < ARGC; i++) printf \" <%s>\", ARGV[i]\n"
	    "	print \"\"\n"
	    "	print \"n 1 x\"\n"
	    "}\n";
	struct wl_result	 res;
	char			 dir[] = "/tmp/pw-cmd.XXXXXX", cmd[PATH_MAX + 64];
	char			 pwd[PATH_MAX + 32], ppid[32], *text;
	const struct wl_workload *wl;
	struct wl_params	 p;
	const char		*s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	xasprintf(&text, "#!/usr/bin/awk -f\n%s", prog);
	write_program(dir, "awkargs", text);
	free(text);
	write_program(dir, "prog.awk", prog);
	write_program(dir, "noshebang", "echo '# ran by the shell'; "
	    "echo 'n 2 x'\n");

	snprintf(pwd, sizeof(pwd), "env 5 PWD=%s/perfwatch-command.",
	    test_dir);
	snprintf(cmd, sizeof(cmd), "%s/awkargs a=b --x=1,2 3", dir);
	assert_int_equal(run_command(cmd, "10", &res), 0);
	assert_string_equal(note(&res, "args "), "args 3 <a=b> <--x=1,2> <3>");
	assert_non_null(s = note(&res, "env "));
	assert_memory_equal(s, pwd, strlen(pwd));
#ifdef __linux__
	snprintf(ppid, sizeof(ppid), "ppid %ld", (long)getpid());
	assert_non_null(s = note(&res, "ppid "));
	assert_string_equal(s, ppid);
#endif
	NEAR(res.metrics[0].value, 1, 0);
	wl_result_clear(&res);

	/* awk from PATH, the program file an argument. */
	snprintf(cmd, sizeof(cmd), "awk -f %s/prog.awk y", dir);
	assert_int_equal(run_command(cmd, "10", &res), 0);
	assert_string_equal(note(&res, "args "), "args 1 <y>");
	wl_result_clear(&res);

	snprintf(cmd, sizeof(cmd), "%s/noshebang", dir);
	assert_int_equal(run_command(cmd, "10", &res), 0);
	assert_non_null(note(&res, "ran by the shell"));
	NEAR(res.metrics[0].value, 2, 0);
	wl_result_clear(&res);

	/* measure = time of a plain command: the program's own time. */
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "sleep 0.2");
	set(&p, wl, "measure", "time");
	run_ok(wl, &p, &res);
	assert_true(res.wall >= 0.2);
	wl_result_clear(&res);
	wl_params_clear(&p);

	assert_int_equal(dir_entries(test_dir), 0);
	assert_int_equal(wl_remove_tree(dir), 0);
}

/* A child group that ignores SIGTERM is killed at the limit. */
static void
test_run_timeout(void **state)
{
	struct wl_result	res;
	char			*cause = NULL;
	const struct wl_workload *wl;
	struct wl_params	 p;

	(void)state;
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "trap '' TERM; touch junk; sleep 30 & "
	    "sleep 30; echo 'x 1 s'");
	set(&p, wl, "timeout", "0.3");
	set(&p, wl, "grace", "0.3");
	assert_int_equal(wl_run_iteration(wl, &p, &res, &cause), -1);
	assert_int_equal(res.status, WL_TIMEOUT);
	assert_string_equal(res.error, "timed out after 0.3 s");
	assert_string_equal(cause, "timed out after 0.3 s");
	assert_true(WIFSIGNALED(res.wait_status));
	assert_int_equal(WTERMSIG(res.wait_status), SIGKILL);
	assert_int_equal(res.nmetrics, 0);
	assert_true(res.wall >= 0.6);
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	free(cause);
	wl_result_clear(&res);
	wl_params_clear(&p);

	/* What it said before it hung is quoted: what it waited for. */
	assert_int_equal(run_command("echo 'connecting to db:5432' >&2; "
	    "sleep 30", "0.3", &res), -1);
	assert_int_equal(res.status, WL_TIMEOUT);
	assert_string_equal(res.error, "timed out after 0.3 s; on standard "
	    "error: connecting to db:5432");
	wl_result_clear(&res);
}

/*
 * A server that a command starts with setsid() leaves the group; it is
 * killed all the same, with what it started, once the iteration ends.
 */
static void
test_run_setsid_escapee(void **state)
{
	struct wl_result	res;
	char			 pidf[PATH_MAX + 8], *command;
	long			 pid[2];
	FILE			*f;
	int			 i, alive;

	(void)state;
	snprintf(pidf, sizeof(pidf), "%s.pids", test_dir);
	(void)unlink(pidf);
	xasprintf(&command, "setsid sh -c 'sleep 300 & echo $! >%s; "
	    "echo $$ >>%s; exec sleep 301' </dev/null >/dev/null 2>&1 & "
	    "while [ \"$(wc -l <%s 2>/dev/null)\" != 2 ]; do sleep 0.01; "
	    "done; echo 'x 1 s'", pidf, pidf, pidf);
	assert_int_equal(run_command(command, "30", &res), 0);
	free(command);
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	f = fopen(pidf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &pid[0], &pid[1]), 2);
	fclose(f);
	(void)unlink(pidf);
	alive = 0;
	for (i = 0; i < 2; i++) {
		assert_true(pid[i] > 1);
		if (kill((pid_t)pid[i], 0) == 0) {
			alive++;
			(void)kill((pid_t)pid[i], SIGKILL);
		}
	}
	if (alive > 0)
		fail_msg("%d of the escapee's processes outlived the "
		    "iteration", alive);
}

/*
 * A user's command runs as the workload the run names ([workload
 * "NAME"]), not as its kind: its iteration directory and the messages
 * about it say NAME ("command" said nothing of which of several it was).
 */
static void
test_run_named(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p, q;
	struct wl_result		 res;
	char				 real[PATH_MAX], prefix[PATH_MAX + 64];
	char				*cause = NULL;
	const char			*s;

	(void)state;
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "echo \"# pwd $(pwd -P)\"; echo 'n 1 x'");
	p.name = xstrdup("web api/v2");
	assert_string_equal(wl_params_name(&p, wl), "web api/v2");
	assert_int_equal(wl_run_iteration(wl, &p, &res, &cause), 0);
	assert_non_null(realpath(test_dir, real));
	snprintf(prefix, sizeof(prefix), "pwd %s/perfwatch-web_api_v2.",
	    real);
	assert_non_null(s = note(&res, "pwd "));
	assert_memory_equal(s, prefix, strlen(prefix));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	/* A copy keeps its own name; the check's message says it. */
	wl_params_copy(&q, &p);
	wl_params_clear(&p);
	q.iterations = 0;
	assert_int_equal(wl_params_check(&q, wl, &cause), -1);
	assert_string_equal(cause, "web api/v2: iterations must be at least 1");
	free(cause);
	free(q.name);
	q.name = NULL;
	assert_string_equal(wl_params_name(&q, wl), "command");
	wl_params_clear(&q);
}

/*
 * The workload process itself leaves the group (`setsid prog` calls
 * setsid(2) without a fork, as it is no group's leader) and hangs: the
 * limit kills it all the same, before the iteration returns, where a
 * signal to the group alone missed it and left it running through the
 * rest of the battery.
 */
static void
test_run_timeout_setsid_self(void **state)
{
	struct wl_result	res;
	char			 pidf[PATH_MAX + 8], *command;
	long			 pid;
	FILE			*f;
	int			 alive;

	(void)state;
	snprintf(pidf, sizeof(pidf), "%s.pid", test_dir);
	(void)unlink(pidf);
	xasprintf(&command, "echo $$ >%s; exec setsid sleep 297", pidf);
	assert_int_equal(run_command(command, "0.5", &res), -1);
	free(command);
	assert_int_equal(res.status, WL_TIMEOUT);
	assert_string_equal(res.error, "timed out after 0.5 s");
	assert_true(WIFSIGNALED(res.wait_status));
	assert_int_equal(WTERMSIG(res.wait_status), SIGTERM);
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	f = fopen(pidf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	(void)unlink(pidf);
	assert_true(pid > 1);
	alive = kill((pid_t)pid, 0) == 0;
	if (alive)
		(void)kill((pid_t)pid, SIGKILL);
	assert_false(alive);
}

/*
 * In a child: wait up to 10 s for a pid in path, trace it (PTRACE_SEIZE),
 * say so in path.traced, and hold it for at most 20 s without waiting
 * for it: killed meanwhile, it stays a zombie its parent cannot reap,
 * as one stuck in the kernel after SIGKILL cannot be reaped.  Where the
 * system does not let it trace a process it did not start (Yama's
 * ptrace_scope 1, as Ubuntu has it; a container without the right), it
 * says so in path.denied, and the test is skipped.
 */
static void __attribute__((noreturn))
tracer_main(const char *path)
{
	char	done[PATH_MAX + 16];
	FILE	*f;
	long	 pid = 0;
	int	 i, fd;
	int	 traced;

	for (i = 0; i < 1000 && pid <= 0; i++) {
		if ((f = fopen(path, "r")) != NULL) {
			if (fscanf(f, "%ld", &pid) != 1)
				pid = 0;
			fclose(f);
		}
		if (pid <= 0)
			usleep(10000);
	}
	if (pid <= 0)
		_exit(1);
	traced = ptrace(PTRACE_SEIZE, (pid_t)pid, NULL, NULL) == 0;
	snprintf(done, sizeof(done), "%s.%s", path, traced ? "traced" :
	    "denied");
	if ((fd = open(done, O_WRONLY | O_CREAT, 0644)) == -1)
		_exit(1);
	close(fd);
	if (traced)
		sleep(20);
	_exit(0);
}

/* A process of a workload that a tracer holds (tracer_main()). */
struct held {
	char	pidf[PATH_MAX + 8];	/* the workload writes its pid */
	char	tracedf[PATH_MAX + 16];	/* the tracer holds it */
	char	deniedf[PATH_MAX + 16];	/* the tracer may not */
	pid_t	tracer;
};

/*
 * Start the tracer, before the iteration: it is not one of the
 * iteration's escapees.
 */
static void
held_start(struct held *h)
{
	snprintf(h->pidf, sizeof(h->pidf), "%s.pid", test_dir);
	snprintf(h->tracedf, sizeof(h->tracedf), "%s.traced", h->pidf);
	snprintf(h->deniedf, sizeof(h->deniedf), "%s.denied", h->pidf);
	(void)unlink(h->pidf);
	(void)unlink(h->tracedf);
	(void)unlink(h->deniedf);
	if ((h->tracer = fork()) == 0)
		tracer_main(h->pidf);
	assert_true(h->tracer > 0);
}

/*
 * Run the command workload "<before>echo <pid> >PIDF; <until the tracer
 * holds that process>; <after>" with the time limit timeout: its return,
 * and the seconds it took in *elapsed.
 */
static int
held_run(struct held *h, const char *before, const char *pid,
    const char *after, const char *timeout, struct wl_result *res,
    double *elapsed)
{
	char	*command;
	double	 start;
	int	 rc;

	xasprintf(&command, "%secho %s >%s.tmp; mv %s.tmp %s; "
	    "while [ ! -e %s ] && [ ! -e %s ]; do sleep 0.01; done; %s",
	    before, pid, h->pidf, h->pidf, h->pidf, h->tracedf, h->deniedf,
	    after);
	start = wl_now();
	rc = run_command(command, timeout, res);
	*elapsed = wl_now() - start;
	free(command);
	return rc;
}

/*
 * After the iteration, which took elapsed seconds: the tracer held the
 * process, the iteration did not wait limit seconds for it, and, the
 * tracer gone, its parent (this process, the runner) reaps it, killed.
 */
static void
held_end(struct held *h, double elapsed, double limit, const char *what)
{
	FILE	*f;
	long	 pid;
	int	 status;

	if (access(h->deniedf, F_OK) == 0) {
		(void)unlink(h->pidf);
		(void)unlink(h->deniedf);
		assert_int_equal(waitpid(h->tracer, &status, 0), h->tracer);
		skip();
	}
	assert_int_equal(access(h->tracedf, F_OK), 0);
	f = fopen(h->pidf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	(void)unlink(h->pidf);
	(void)unlink(h->tracedf);
	(void)kill(h->tracer, SIGKILL);
	assert_int_equal(waitpid(h->tracer, &status, 0), h->tracer);
	if (elapsed >= limit)
		fail_msg("the iteration waited %.1f s for its killed %s",
		    elapsed, what);
	assert_int_equal(waitpid((pid_t)pid, &status, 0), (pid_t)pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
}

/*
 * An escapee that SIGKILL does not end (here one held by a tracer) is
 * left behind after ESCAPE_WAIT_SECONDS (2 s), not waited for: the
 * iteration ends, and the escapee is still this process's child.
 */
static void
test_run_escapee_unreapable(void **state)
{
	struct wl_result	 res;
	struct held		 h;
	double			 elapsed;

	(void)state;
	held_start(&h);
	assert_int_equal(held_run(&h, "setsid sleep 300 </dev/null "
	    ">/dev/null 2>&1 & ", "$!", "echo 'x 1 s'", "30", &res,
	    &elapsed), 0);
	assert_true(group_gone(res.pgid));
	wl_result_clear(&res);
	held_end(&h, elapsed, 6.0, "escapee");
}

/*
 * A workload process that SIGKILL does not end (here one held by a
 * tracer) is left behind CHILD_WAIT_SECONDS (2 s) after SIGKILL, not
 * waited for: the iteration ends, timed out, without its CPU time.
 */
static void
test_run_child_unreapable(void **state)
{
	struct wl_result	 res;
	struct held		 h;
	enum wl_status		 status;
	double			 elapsed, cpu;
	int			 ws;

	(void)state;
	held_start(&h);
	/* The shell is the runner's child; traced, it stops at once. */
	assert_int_equal(held_run(&h, "", "$$", "sleep 30", "1", &res,
	    &elapsed), -1);
	status = res.status;
	ws = res.wait_status;
	cpu = res.user + res.sys;
	wl_result_clear(&res);
	held_end(&h, elapsed, 10.0, "child");
	assert_int_equal(status, WL_TIMEOUT);
	assert_true(WIFSIGNALED(ws));
	assert_int_equal(WTERMSIG(ws), SIGKILL);
	assert_true(cpu == 0);
}

/*
 * A process the workload left in the background is killed with its group
 * once the iteration ends, and, an orphan of the runner (its subreaper),
 * reaped at once: the runner does not wait for the group to empty in
 * vain, nor take it for a process that left the group.
 */
static void
test_run_orphan_reaped(void **state)
{
	struct wl_result	res;
	double			start, elapsed;

	(void)state;
	start = wl_now();
	assert_int_equal(run_command("sleep 30 >/dev/null 2>&1 & "
	    "echo 'x 1 s'", "30", &res), 0);
	elapsed = wl_now() - start;
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
	/* GROUP_WAIT_SECONDS (2 s) was spent waiting before. */
	if (elapsed >= 1.9)
		fail_msg("the iteration took %.2f s", elapsed);
}

static void
alarm_abort(int sig)
{
	(void)sig;
	wl_abort();
}

/* Call wl_abort() from SIGALRM 0.2 s from now; the old action in *old. */
static void
abort_soon(struct sigaction *old)
{
	struct itimerval	it;
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_abort;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, old), 0);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 200 * 1000;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
}

static void
test_run_abort(void **state)
{
	struct sigaction	old;
	struct wl_result	res;

	(void)state;
	abort_soon(&old);

	assert_int_equal(run_command("sleep 30 & sleep 30", "60", &res), -1);
	assert_int_equal(res.status, WL_ABORTED);
	assert_string_equal(res.error, "aborted");
	assert_true(group_gone(res.pgid));
	assert_int_equal(dir_entries(test_dir), 0);
	assert_true(wl_aborted());
	wl_result_clear(&res);

	/* Sticky until cleared. */
	assert_int_equal(run_command("echo 'x 1 s'", "10", &res), -1);
	assert_int_equal(res.status, WL_ABORTED);
	wl_result_clear(&res);
	wl_abort_clear();
	assert_false(wl_aborted());
	assert_int_equal(run_command("echo 'x 1 s'", "10", &res), 0);
	wl_result_clear(&res);
	assert_int_equal(sigaction(SIGALRM, &old, NULL), 0);
}

/*
 * settle: the disk workloads' default, accepted by every workload; the
 * pause comes before the child and outside its wall time, and an abort
 * cuts it short.
 */
static void
test_run_settle(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	struct sigaction		 old;
	char				*cause = NULL;
	double				 start, elapsed;

	(void)state;
	wl_params_init(&p, wl_find("disk.bonnie"));
	NEAR(p.settle, 10, 0);
	wl_params_clear(&p);
	wl_params_init(&p, wl_find("disk.stream"));
	NEAR(p.settle, 10, 0);
	wl_params_clear(&p);
	wl_params_init(&p, wl_find("sys.pipe"));
	NEAR(p.settle, 0, 0);
	set(&p, wl_find("sys.pipe"), "settle", "1.5s");
	NEAR(p.settle, 1.5, 0);
	set(&p, wl_find("sys.pipe"), "settle", "0");
	NEAR(p.settle, 0, 0);
	assert_int_equal(wl_params_set(&p, wl_find("sys.pipe"), "settle",
	    "2h", &cause), -1);
	assert_non_null(strstr(cause, "from 0 to 1h"));
	free(cause);
	cause = NULL;
	assert_int_equal(wl_params_set(&p, wl_find("sys.pipe"), "settle",
	    "-1", &cause), -1);
	free(cause);
	wl_params_clear(&p);

	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "echo 'x 1 s'");
	set(&p, wl, "settle", "1");
	start = wl_now();
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), 0);
	elapsed = wl_now() - start;
	assert_true(elapsed >= 1.0);
	assert_true(res.wall > 0 && res.wall <= elapsed - 1.0);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	/* An abort 0.2 s into a 30 s pause ends it: no child is started. */
	abort_soon(&old);
	set(&p, wl, "settle", "30");
	start = wl_now();
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	elapsed = wl_now() - start;
	assert_int_equal(res.status, WL_ABORTED);
	assert_true(res.pgid == -1);
	assert_true(elapsed < 30);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
	wl_abort_clear();
	assert_int_equal(sigaction(SIGALRM, &old, NULL), 0);
	wl_params_clear(&p);
}

/*
 * The flush before an iteration, seen from outside: a child of this
 * process, the runner, runs iterations of "echo 'x 1 s'" in test_dir
 * with a settle of 0.01 s and the flush waited for flush_wait seconds at
 * most, its stderr (the log) in a file.  This process traces the runner
 * (PTRACE_O_TRACEFORK) until its first fork, settle's flush child, and
 * then lets the runner go on untraced while it keeps hold of the flush
 * child.  Where tracing is not allowed (a container without the right)
 * the test is skipped.
 */
struct flushrun {
	pid_t	runner;
	pid_t	flusher;	/* traced by this process */
	int	status;		/* the runner's wait status, once reaped */
	char	log[PATH_MAX];
};

/*
 * In the runner: the iterations, exit 0 if each went well (with abort,
 * if each was aborted: SIGALRM calls wl_abort()), else 1.
 */
static void __attribute__((noreturn))
flushrun_main(int go, const char *log, double flush_wait, int iterations,
    int abort)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	struct sigaction		 sa;
	char				 c, *cause = NULL;
	int				 fd, i, rc = 0;

	if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    dup2(fd, STDERR_FILENO) == -1)
		_exit(2);
	close(fd);
	/* Until this process traces it. */
	if (read(go, &c, 1) != 1)
		_exit(2);
	close(go);
	wl = wl_find("command");
	wl_params_init(&p, wl);
	if (wl_params_set(&p, wl, "work_dir", test_dir, &cause) == -1 ||
	    wl_params_set(&p, wl, "command", "echo 'x 1 s'", &cause) == -1)
		_exit(2);
	p.settle = 0.01;
	p.flush_wait = flush_wait;
	if (abort) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = alarm_abort;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGALRM, &sa, NULL) == -1)
			_exit(2);
	}
	for (i = 0; i < iterations; i++) {
		if (abort ? wl_run_iteration(wl, &p, &res, NULL) != -1 ||
		    res.status != WL_ABORTED : wl_run_iteration(wl, &p, &res,
		    NULL) != 0 || res.nmetrics != 1)
			rc = 1;
		wl_result_clear(&res);
	}
	_exit(rc);
}

/*
 * Start the runner and trace it to its flush child; 0, or -1 (and the
 * runner reaped) if this process may not trace it.
 */
static int
flushrun_start(struct flushrun *fr, double flush_wait, int iterations,
    int abort)
{
	unsigned long	msg;
	int		go[2], st;

	memset(fr, 0, sizeof(*fr));
	snprintf(fr->log, sizeof(fr->log), "%s.log", test_dir);
	assert_int_equal(pipe(go), 0);
	if ((fr->runner = fork()) == 0) {
		close(go[1]);
		flushrun_main(go[0], fr->log, flush_wait, iterations, abort);
	}
	assert_true(fr->runner > 0);
	close(go[0]);
	if (ptrace(PTRACE_SEIZE, fr->runner, NULL,
	    (void *)(long)PTRACE_O_TRACEFORK) == -1) {
		close(go[1]);
		assert_int_equal(waitpid(fr->runner, &st, 0), fr->runner);
		(void)unlink(fr->log);
		return -1;
	}
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	for (;;) {
		assert_int_equal(waitpid(fr->runner, &st, __WALL), fr->runner);
		if (!WIFSTOPPED(st))
			fail_msg("the runner ended (status %#x) before any "
			    "fork: no flush child", st);
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_FORK << 8)))
			break;
		/* Pass on a signal it was sent; nothing else stops it. */
		assert_int_equal(ptrace(PTRACE_CONT, fr->runner, NULL,
		    (void *)(long)(st >> 16 == 0 ? WSTOPSIG(st) : 0)), 0);
	}
	assert_int_equal(ptrace(PTRACE_GETEVENTMSG, fr->runner, NULL, &msg),
	    0);
	fr->flusher = (pid_t)msg;
	assert_true(fr->flusher > 0);
	assert_int_equal(ptrace(PTRACE_DETACH, fr->runner, NULL, NULL), 0);
	/* Its first stop, traced from birth. */
	assert_int_equal(waitpid(fr->flusher, &st, __WALL), fr->flusher);
	assert_true(WIFSTOPPED(st));
	return 0;
}

/* Wait (at most 60 s) for the runner to end; 1 if it did. */
static int
flushrun_reaped(struct flushrun *fr)
{
	return perfwatch_reap_until(fr->runner, &fr->status,
	    wl_now() + 60) == 1;
}

/* Whether the runner's log has text in it. */
static int
flushrun_logged(const struct flushrun *fr, const char *text)
{
	char	buf[8192];
	FILE	*f;
	size_t	 n;

	f = fopen(fr->log, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* The state letter of pid in /proc/PID/stat, or 0. */
static char
proc_state(pid_t pid)
{
	char	path[64], buf[512], *paren;
	FILE	*f;
	size_t	 n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((paren = strrchr(buf, ')')) == NULL || paren[1] != ' ')
		return 0;
	return paren[2];
}

/*
 * Waits up to 60 s for fr's runner to end, then kills its flush child,
 * which this process held stopped.  Fails with stuck when the runner
 * had not ended; then checks that the flush child was still stopped
 * (the runner did not wait for it) and that the runner exited 0.
 */
static void
flushrun_end_held(struct flushrun *fr, const char *stuck)
{
	int	reaped, st;
	char	held;

	reaped = flushrun_reaped(fr);
	held = proc_state(fr->flusher);
	(void)kill(fr->flusher, SIGKILL);
	while (waitpid(fr->flusher, &st, __WALL) == fr->flusher &&
	    !WIFEXITED(st) && !WIFSIGNALED(st))
		;
	if (!reaped) {
		(void)kill(fr->runner, SIGKILL);
		(void)waitpid(fr->runner, NULL, 0);
		fail_msg("%s", stuck);
	}
	assert_int_equal(held, 't');
	assert_true(WIFEXITED(fr->status));
	assert_int_equal(WEXITSTATUS(fr->status), 0);
}

/*
 * A flush that does not end (here a flush child held stopped by this
 * process, its tracer, as a flush to a hung NFS server is held in the
 * kernel) does not hold up the runner: the iteration runs, the log
 * says the flush did not end, and the next iteration starts no second
 * flush while the first is still going, saying so.  Without the bound
 * the runner would wait as long as the flush child is held; after 60 s
 * the test fails instead.
 */
static void
test_run_settle_flush_stuck(void **state)
{
	struct flushrun	fr;

	(void)state;
	if (flushrun_start(&fr, 1, 2, 0) == -1)
		skip();
	flushrun_end_held(&fr, "the runner still waits for its stopped flush "
	    "child after 60 s");
	assert_true(flushrun_logged(&fr, "command: the flush of the "
	    "filesystem of "));
	assert_true(flushrun_logged(&fr, "did not end in 1 s; not waiting "
	    "for it, the workload runs without it"));
	assert_true(flushrun_logged(&fr, "is still going after"));
	assert_int_equal(dir_entries(test_dir), 0);
	(void)unlink(fr.log);
}

/*
 * wl_abort() during a flush that does not end (held as above, and waited
 * for up to 1000 s), called once the flush child is there, ends the
 * wait: the iteration returns aborted, no workload started, with nothing
 * said of the flush, and the flush child is left as it is.
 */
static void
test_run_settle_flush_abort(void **state)
{
	struct flushrun	fr;

	(void)state;
	if (flushrun_start(&fr, 1000, 1, 1) == -1)
		skip();
	assert_int_equal(kill(fr.runner, SIGALRM), 0);
	flushrun_end_held(&fr, "an abort did not end the wait for a stopped "
	    "flush child in 60 s");
	assert_false(flushrun_logged(&fr, "flush"));
	assert_int_equal(dir_entries(test_dir), 0);
	(void)unlink(fr.log);
}

#if defined(__linux__) && defined(SYS_syncfs) && \
    defined(PTRACE_GET_SYSCALL_INFO)
/*
 * The flush writes back the filesystem of the work directory, and no
 * other: the flush child calls syncfs(2) on a descriptor of test_dir
 * (its system calls traced up to that one), then ends, and the
 * iteration runs with nothing said in the log.
 */
static void
test_run_settle_flush_dir(void **state)
{
	struct __ptrace_syscall_info	 info;
	struct flushrun			 fr;
	char				 link[64], target[PATH_MAX];
	char				 want[PATH_MAX];
	ssize_t				 n;
	int				 st, found = 0;

	(void)state;
	if (flushrun_start(&fr, 0, 1, 0) == -1)
		skip();
	assert_int_equal(ptrace(PTRACE_SETOPTIONS, fr.flusher, NULL,
	    (void *)(long)PTRACE_O_TRACESYSGOOD), 0);
	for (;;) {
		assert_int_equal(ptrace(PTRACE_SYSCALL, fr.flusher, NULL,
		    NULL), 0);
		assert_int_equal(waitpid(fr.flusher, &st, __WALL),
		    fr.flusher);
		if (!WIFSTOPPED(st))
			break;	/* it ended without a syncfs */
		if (WSTOPSIG(st) != (SIGTRAP | 0x80))
			continue;
		memset(&info, 0, sizeof(info));
		assert_true(ptrace(PTRACE_GET_SYSCALL_INFO, fr.flusher,
		    (void *)sizeof(info), &info) > 0);
		if (info.op != PTRACE_SYSCALL_INFO_ENTRY ||
		    info.entry.nr != SYS_syncfs)
			continue;
		snprintf(link, sizeof(link), "/proc/%ld/fd/%llu",
		    (long)fr.flusher, (unsigned long long)info.entry.args[0]);
		n = readlink(link, target, sizeof(target) - 1);
		assert_true(n > 0);
		target[n] = '\0';
		found = 1;
		break;
	}
	/* Let it go: it flushes and ends, and the runner reaps it. */
	if (found)
		assert_int_equal(ptrace(PTRACE_DETACH, fr.flusher, NULL,
		    NULL), 0);
	assert_true(flushrun_reaped(&fr));
	assert_true(found);
	assert_non_null(realpath(test_dir, want));
	assert_string_equal(target, want);
	assert_true(WIFEXITED(fr.status));
	assert_int_equal(WEXITSTATUS(fr.status), 0);
	assert_false(flushrun_logged(&fr, "flush"));
	(void)unlink(fr.log);
}
#endif

/* Nothing of the caller's environment reaches the child. */
static void
test_run_clean_environment(void **state)
{
	static const char *const allowed[] = {
		"HOME", "LC_ALL", "PATH", "PWD", "TMPDIR", "OLDPWD", "SHLVL",
		"_",
	};
	struct wl_result	 res;
	const char		*dir = NULL, *s;
	char			 prefix[PATH_MAX + 32], real[PATH_MAX];
	char			 name[64];
	size_t			 i, j, nenv = 0;
	int			 ok;

	(void)state;
	assert_int_equal(setenv("PERFWATCH_TEST_SECRET", "leak", 1), 0);
	assert_int_equal(setenv("LANG", "de_DE.UTF-8", 1), 0);
	assert_int_equal(run_command(
	    "env | sed 's/^/# env /'; "
	    "echo \"# umask $(umask)\"; "
	    "echo \"# pwd $(pwd -P)\"; "
	    "ls /proc/self/fd >fds; echo \"# fds $(tr '\\n' ' ' <fds)\"; "
	    "echo 'n 1 x'", "10", &res), 0);
	unsetenv("PERFWATCH_TEST_SECRET");
	unsetenv("LANG");

	assert_non_null(realpath(test_dir, real));
	snprintf(prefix, sizeof(prefix), "pwd %s/perfwatch-command.", real);
	assert_non_null(s = note(&res, "pwd "));
	assert_memory_equal(s, prefix, strlen(prefix));
	dir = s + 4;
	for (i = 0; i < res.nnotes; i++) {
		if (strncmp(res.notes[i], "env ", 4) != 0)
			continue;
		nenv++;
		s = res.notes[i] + 4;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(s, "="), s);
		for (ok = 0, j = 0; j < nitems(allowed); j++)
			ok |= strcmp(name, allowed[j]) == 0;
		if (!ok)
			fail_msg("unexpected variable in the child: %s", s);
	}
	assert_true(nenv >= 4);
	assert_non_null(note(&res, "env LC_ALL=C"));
	assert_non_null(note(&res, "env PATH=" WL_PATH));
	assert_string_equal(strchr(note(&res, "env HOME="), '=') + 1, dir);
	assert_string_equal(strchr(note(&res, "env TMPDIR="), '=') + 1, dir);
	assert_null(note(&res, "env PERFWATCH_TEST_SECRET"));
	assert_null(note(&res, "env LANG"));
	assert_string_equal(note(&res, "umask "), "umask 0022");
	/* What an exec'd program holds: 0-2, and 3 is ls's own listing. */
	assert_string_equal(note(&res, "fds "), "fds 0 1 2 3");
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
}

/* The iteration directory goes on success, failure and bad output. */
static void
test_run_temp_removed(void **state)
{
	const char		*make = "mkdir -p a/b/c && echo x >a/b/c/f && "
	    "touch \"$TMPDIR/t\" && mkdir ro && touch ro/f && chmod 0 ro && "
	    "ln -s / root && ";
	struct wl_result	 res;
	char			 cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "%secho 'n 1 x'", make);
	assert_int_equal(run_command(cmd, "10", &res), 0);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	snprintf(cmd, sizeof(cmd), "%secho oops >&2; exit 3", make);
	assert_int_equal(run_command(cmd, "10", &res), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_string_equal(res.error, "exited with status 3: oops");
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	snprintf(cmd, sizeof(cmd), "%secho 'a 1 s'; echo bad", make);
	assert_int_equal(run_command(cmd, "10", &res), -1);
	assert_string_equal(res.error, "output line 2: too few fields, "
	    "expected \"metric value unit [higher|lower]\", got \"bad\"");
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
	/* "/" itself, behind the symlink, is untouched. */
	assert_int_equal(access("/bin/sh", X_OK), 0);
}

/*
 * A tree deeper than the removal's depth limit (runner.c's
 * REMOVE_DEPTH_MAX, 256) goes too: it was left, with 256 lines of
 * "rmdir d: Directory not empty", and without its mark, so that no sweep
 * ever took it either.  A directory that cannot be removed whole keeps
 * its mark, for the next sweep: here a tmpfs mounted in it, where
 * mounting one is allowed, which is not entered (its file stays: a bind
 * mount's source was emptied through it).  A mark the workload made a
 * directory goes with the rest (it stayed, and no sweep took it).  What
 * is asserted is gathered first and the tmpfs taken away before any
 * assertion.
 */
static void
test_run_temp_deep(void **state)
{
	struct wl_result	 res;
	char			 dir[PATH_MAX], path[PATH_MAX + 64];
	int			 fd, swept[2], gone[2], mark, um, inside;

	(void)state;
	/* 600 levels: moved up twice, the second time from a moved part. */
	assert_int_equal(run_command("p=d; i=0; while [ $i -lt 600 ]; do "
	    "p=$p/d; i=$((i + 1)); done; mkdir -p $p && touch $p/f && "
	    "echo 'x 1 ms'", "30", &res), 0);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
	assert_int_equal(run_command("rm -f .perfwatch-iteration && "
	    "mkdir .perfwatch-iteration && touch .perfwatch-iteration/f && "
	    "echo 'x 1 ms'", "30", &res), 0);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);

	snprintf(dir, sizeof(dir), "%s/perfwatch-deep.Ab12Cd", test_dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd != -1);
	assert_int_equal(close(openat(fd, ".perfwatch-iteration",
	    O_CREAT | O_WRONLY, 0644)), 0);
	assert_int_equal(close(openat(fd, "f", O_CREAT | O_WRONLY, 0644)), 0);
	assert_int_equal(mkdirat(fd, "m", 0700), 0);
	assert_int_equal(close(fd), 0);
	snprintf(path, sizeof(path), "%s/m", dir);
	if (mount("tmpfs", path, "tmpfs", 0, "size=1m") == -1) {
		print_message("cannot mount a tmpfs (%s): no half-removed "
		    "directory\n", strerror(errno));
		assert_int_equal(wl_sweep_work_dir(test_dir), 1);
		assert_int_equal(dir_entries(test_dir), 0);
		skip();
	}
	snprintf(path, sizeof(path), "%s/m/inside", dir);
	inside = open(path, O_CREAT | O_WRONLY, 0644);
	if (inside != -1)
		close(inside);
	swept[0] = wl_sweep_work_dir(test_dir);
	gone[0] = dir_entries(dir);
	inside = inside != -1 ? access(path, F_OK) : -2;
	snprintf(path, sizeof(path), "%s/.perfwatch-iteration", dir);
	mark = access(path, F_OK);
	snprintf(path, sizeof(path), "%s/m", dir);
	um = umount(path);
	swept[1] = wl_sweep_work_dir(test_dir);
	gone[1] = dir_entries(test_dir);

	assert_int_equal(um, 0);
	assert_int_equal(inside, 0);
	assert_int_equal(swept[0], 0);
	assert_int_equal(gone[0], 2);	/* the mount point and the mark */
	assert_int_equal(mark, 0);
	assert_int_equal(swept[1], 1);
	assert_int_equal(gone[1], 0);
}

/*
 * A directory the runner made and could not lock is removed, not left:
 * it holds no mark yet, so no sweep would ever take it.  Out of
 * descriptors (in a child, whose limit is lowered), every try fails to
 * open the directory it made.
 */
static void
test_run_dir_unlocked(void **state)
{
	struct wl_result	 res;
	struct rlimit		 rl;
	struct dirent		*de;
	DIR			*d;
	char			 path[PATH_MAX + 256];
	pid_t			 pid;
	int			 status, fd, first = -1, last = -1, bad = 0;

	(void)state;
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		/* Once, so that the runner's own pipe is made. */
		if (run_command("echo 'x 1 s'", "10", &res) != 0)
			_exit(1);
		wl_result_clear(&res);
		if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
			_exit(1);
		rl.rlim_cur = 64;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			_exit(1);
		while ((fd = dup(STDIN_FILENO)) != -1) {
			if (first == -1)
				first = fd;
			last = fd;
		}
		if (run_command("echo 'x 1 s'", "10", &res) != -1 ||
		    res.status != WL_FAILED)
			_exit(1);
		/* The error says why it could not be locked. */
		if (strstr(res.error, "Too many open files") == NULL) {
			dprintf(STDERR_FILENO, "error: %s\n", res.error);
			bad |= 2;
		}
		wl_result_clear(&res);
		for (fd = first; first != -1 && fd <= last; fd++)
			close(fd);
		_exit(bad);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	/* What the tries made, left for the other tests' sake. */
	d = opendir(test_dir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		fprintf(stderr, "left behind: %s\n", de->d_name);
		snprintf(path, sizeof(path), "%s/%s", test_dir, de->d_name);
		(void)wl_remove_tree(path);
		bad |= 4;
	}
	closedir(d);
	assert_int_equal(WEXITSTATUS(status) | bad, 0);
}

static void
test_run_failures(void **state)
{
	struct wl_result	res;

	(void)state;
	assert_int_equal(run_command("echo one >&2; echo; echo two >&2; "
	    "echo three >&2; echo four >&2; kill -SEGV $$", "10", &res), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_string_equal(res.error, "killed by signal 11 "
	    "(Segmentation fault): one; two; three; four");
	wl_result_clear(&res);

	assert_int_equal(run_command("true", "10", &res), -1);
	assert_string_equal(res.error, "printed no metrics");
	wl_result_clear(&res);

	/* Results sent to stderr by mistake, as time(1) does: quoted. */
	assert_int_equal(run_command("echo 'wall 1.5 s' >&2", "10", &res),
	    -1);
	assert_string_equal(res.error, "printed no metrics; on standard "
	    "error: wall 1.5 s");
	wl_result_clear(&res);

	assert_int_equal(run_command("exec yes 'x 1 s'", "30", &res), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_string_equal(res.error, "printed more than 1048576 bytes of "
	    "results");
	assert_true(group_gone(res.pgid));
	wl_result_clear(&res);

	assert_int_equal(run_command("no-such-tool-here", "10", &res), -1);
	assert_non_null(strstr(res.error, "exited with status 127"));
	assert_non_null(strstr(res.error, "not found"));
	wl_result_clear(&res);
	assert_int_equal(dir_entries(test_dir), 0);
}

/*
 * The error quotes stderr's first line, the first later line that names
 * a cause, and the last lines: a tool that says what went wrong and then
 * prints more (dd and its record counts) still has its cause quoted.
 */
static void
test_run_stderr_cause(void **state)
{
	struct wl_result	res;
	char			cmd[512], *want;

	(void)state;
	/* dd: the cause, then three lines of counts. */
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(run_command("dd if=/dev/zero of=/dev/full "
		    "bs=1k count=1", "10", &res), -1);
		assert_int_equal(res.status, WL_FAILED);
		assert_non_null(strstr(res.error, "exited with status 1: "));
		assert_non_null(strstr(res.error, "No space left on device"));
		assert_non_null(strstr(res.error, "records out"));
		wl_result_clear(&res);
	}

	/* A banner, noise, the cause, more noise: "..." where cut. */
	assert_int_equal(run_command("echo tool 1.0 >&2; "
	    "for i in 1 2 3 4 5; do echo step $i >&2; done; "
	    "echo 'tool: cannot open db: Permission denied' >&2; "
	    "for i in 1 2 3 4 5; do echo summary $i >&2; done; exit 2",
	    "10", &res), -1);
	assert_string_equal(res.error, "exited with status 2: tool 1.0; ...; "
	    "tool: cannot open db: Permission denied; ...; summary 3; "
	    "summary 4; summary 5");
	wl_result_clear(&res);

	/* The cause just before the last lines: nothing left out there. */
	assert_int_equal(run_command("echo a >&2; echo b >&2; "
	    "echo 'Error: c' >&2; echo d >&2; echo e >&2; echo f >&2; "
	    "exit 1", "10", &res), -1);
	assert_string_equal(res.error, "exited with status 1: a; ...; "
	    "Error: c; d; e; f");
	wl_result_clear(&res);

	/*
	 * A first line that names a cause is not taken to say it all: the
	 * first later cause is quoted too.  "fatal error in setup" hid the
	 * "Permission denied" that said what went wrong.
	 */
	assert_int_equal(run_command("for l in 'fatal error in setup' two "
	    "three 'cannot open /dev/sdb: Permission denied' five six seven "
	    "eight; do echo \"$l\" >&2; done; exit 2", "10", &res), -1);
	assert_string_equal(res.error, "exited with status 2: fatal error in "
	    "setup; ...; cannot open /dev/sdb: Permission denied; ...; six; "
	    "seven; eight");
	wl_result_clear(&res);
	assert_int_equal(run_command("echo 'fatal: no repo' >&2; "
	    "for i in 1 2 3 4 5; do echo error $i >&2; done; exit 1",
	    "10", &res), -1);
	assert_string_equal(res.error, "exited with status 1: fatal: no repo; "
	    "error 1; ...; error 3; error 4; error 5");
	wl_result_clear(&res);

	/*
	 * A progress meter's carriage returns leave its last state, CRLF
	 * ends a line, and the last line needs no newline.
	 */
	assert_int_equal(run_command("printf '10%%\\r50%%\\r100%%\\nx\\r\\n"
	    "last' >&2; exit 1", "10", &res), -1);
	assert_string_equal(res.error, "exited with status 1: 100%; x; last");
	wl_result_clear(&res);

	/*
	 * A long line is cut (to runner.c's ERR_LINE_MAX, 240 bytes with
	 * the "..." and its NUL), and the error stays bounded.
	 */
	snprintf(cmd, sizeof(cmd), "for i in 1 2 3 4 5 6; do "
	    "printf 'error %%0500d\\n' $i >&2; done; exit 1");
	assert_int_equal(run_command(cmd, "10", &res), -1);
	xasprintf(&want, "exited with status 1: error %0230d...; "
	    "error %0230d...; ...; error %0230d...; error %0230d...; "
	    "error %0230d...", 0, 0, 0, 0, 0);
	assert_string_equal(res.error, want);
	free(want);
	wl_result_clear(&res);
	assert_int_equal(dir_entries(test_dir), 0);
}

/*
 * Output over WL_OUTPUT_MAX fails the iteration even when the child exits
 * before the watcher sees the excess (the last drain finds it): nothing
 * cut off is parsed.  Whether the watcher sees it in time is a race, so
 * the iteration is run several times.
 */
static void
test_run_output_over(void **state)
{
	struct wl_result	res;
	int			i;

	(void)state;
	for (i = 0; i < 12; i++) {
		assert_int_equal(run_command("{ echo 'a 1 s'; head -c 1048563 "
		    "/dev/zero | tr '\\0' '#'; echo; printf 'b 2 s\\nc 3 s\\n"
		    "d 4 s\\n'; } >f; exec cat f", "30", &res), -1);
		assert_int_equal(res.status, WL_FAILED);
		assert_string_equal(res.error, "printed more than 1048576 "
		    "bytes of results");
		assert_int_equal(res.nmetrics, 0);
		wl_result_clear(&res);
	}
	assert_int_equal(dir_entries(test_dir), 0);
}

/*
 * A glob that matches no workload is named with the workload it is most
 * likely a typo of (case ignored, as name_near does), and a pattern with
 * none; perfwatch run and perfwatchd both print this cause.
 */
static void
test_globs_check_hint(void **state)
{
	static char *const names[] = { "sys.pipe", "sys.execl", "db.oltp" };
	char	*globs[4], *cause = NULL;

	(void)state;
	globs[0] = "sys.pipx";
	globs[1] = "sys.*";
	assert_int_equal(wl_globs_check(names, 3, globs, 2, &cause), -1);
	assert_string_equal(cause, "\"sys.pipx\" (did you mean sys.pipe?) "
	    "matches no workload of the profile (its workloads: sys.pipe "
	    "sys.execl db.oltp)");
	free(cause);

	globs[0] = "SYS.EXECL";
	globs[1] = "db.o[lt]";
	globs[2] = "zz";
	globs[3] = "db.oltq";
	assert_int_equal(wl_globs_check(names, 3, globs, 4, &cause), -1);
	assert_string_equal(cause, "\"SYS.EXECL\" (did you mean sys.execl?), "
	    "\"db.o[lt]\", \"zz\", \"db.oltq\" (did you mean db.oltp?) match "
	    "no workload of the profile (its workloads: sys.pipe sys.execl "
	    "db.oltp)");
	free(cause);

	globs[0] = "sys.p*";
	globs[1] = "db.oltp";
	assert_int_equal(wl_globs_check(names, 3, globs, 2, &cause), 0);
}

/*
 * A command that prints too much and fails: its exit status first, then
 * the size, then its stderr; "printed more than 1048576 bytes" alone hid
 * the status.  It ignores SIGTERM (and so does head, which inherits
 * that), so that it exits with its own status whenever the watcher sees
 * the excess: the grace before SIGKILL is far longer than it takes.
 */
static void
test_run_output_over_status(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;

	(void)state;
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "trap '' TERM; head -c 2097152 /dev/zero | "
	    "tr '\\0' x; echo 'out of disk' >&2; exit 3");
	set(&p, wl, "timeout", "60");
	set(&p, wl, "grace", "30");
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_string_equal(res.error, "exited with status 3 and printed more "
	    "than 1048576 bytes of results; on standard error: out of disk");
	assert_int_equal(res.nmetrics, 0);
	wl_result_clear(&res);
	wl_params_clear(&p);
	assert_int_equal(dir_entries(test_dir), 0);
}

static int	term_count;

static void
count_term(int sig)
{
	(void)sig;
	term_count++;
}

/*
 * The caller's SIGTERM handler never runs in the child: a SIGTERM that
 * the watcher sends at once (a timeout already past) ends the child by
 * SIGTERM, however early in its start it arrives, instead of being
 * swallowed by a copy of the handler until SIGKILL after the grace.
 */
static void
test_run_term_at_start(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	struct sigaction		 sa, old;
	sigset_t			 mask, before;
	int				 i;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_term;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &sa, &old), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &before), 0);
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "sleep 5; echo 'x 1 s'");
	set(&p, wl, "grace", "2");
	p.timeout = 1e-6;
	for (i = 0; i < 20; i++) {
		assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
		assert_int_equal(res.status, WL_TIMEOUT);
		assert_true(WIFSIGNALED(res.wait_status));
		assert_int_equal(WTERMSIG(res.wait_status), SIGTERM);
		assert_true(group_gone(res.pgid));
		wl_result_clear(&res);
	}
	assert_int_equal(term_count, 0);
	/* The caller's mask is as it was. */
	assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &mask), 0);
	for (i = 1; i < NSIG; i++)
		assert_int_equal(sigismember(&mask, i), sigismember(&before,
		    i));
	assert_int_equal(sigaction(SIGTERM, &old, NULL), 0);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_params_clear(&p);
}

/* Is pid a live process (not gone, not a zombie)? */
static int
pid_alive(pid_t pid)
{
	char	path[64], buf[256], *s;
	FILE	*fp;

	if (kill(pid, 0) == -1)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return 1;
	s = fgets(buf, sizeof(buf), fp);
	fclose(fp);
	/* "pid (comm) S ...": the state after the last ')'. */
	if (s == NULL || (s = strrchr(buf, ')')) == NULL)
		return 1;
	return s[1] != ' ' || s[2] != 'Z';
}

/* Read a pid that a workload wrote to path, waiting for it up to 10 s. */
static pid_t
read_pid(const char *path)
{
	struct timespec	 ts = { 0, 20 * 1000 * 1000 };
	FILE		*fp;
	long		 v = 0;
	int		 i;

	for (i = 0; i < 500; i++) {
		if ((fp = fopen(path, "r")) != NULL) {
			if (fscanf(fp, "%ld", &v) != 1)
				v = 0;
			fclose(fp);
			if (v > 0)
				return (pid_t)v;
		}
		nanosleep(&ts, NULL);
	}
	fail_msg("%s: no pid written", path);
	return -1;
}

/* Wait up to 10 s for pid to end; 1 if it did. */
static int
pid_ends(pid_t pid)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };
	int		i;

	for (i = 0; i < 500 && pid_alive(pid); i++)
		nanosleep(&ts, NULL);
	return !pid_alive(pid);
}

/*
 * A runner killed by SIGKILL together with its process group (perfwatchd's
 * last resort against `perfwatch run`) takes its workload with it, the
 * workload's own children included.  The iteration directory it leaves
 * is removed by wl_sweep_work_dir(), which keeps a locked (live) one,
 * whatever is not named like an iteration directory, and a directory
 * named like one that does not hold the runner's mark (a user's
 * perfwatch-src.backup, with a file in it).
 */
static void
test_run_runner_killed(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	char				 cmd[8 * PATH_MAX], shpid[PATH_MAX + 16];
	char				 sleeppid[PATH_MAX + 16], path[PATH_MAX + 64];
	pid_t				 runner, sh, sl;
	int				 status, fd;

	(void)state;
	snprintf(shpid, sizeof(shpid), "%s/sh.pid", test_dir);
	snprintf(sleeppid, sizeof(sleeppid), "%s/sleep.pid", test_dir);
	snprintf(cmd, sizeof(cmd), "sleep 43 & echo $! >%s.tmp; "
	    "mv %s.tmp %s; echo $$ >%s.tmp; mv %s.tmp %s; wait", sleeppid,
	    sleeppid, sleeppid, shpid, shpid, shpid);
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", cmd);
	set(&p, wl, "timeout", "60");
	runner = fork();
	assert_true(runner != -1);
	if (runner == 0) {
		(void)setpgid(0, 0);
		(void)wl_run_iteration(wl, &p, &res, NULL);
		_exit(0);
	}
	(void)setpgid(runner, runner);
	sh = read_pid(shpid);
	sl = read_pid(sleeppid);
	assert_true(pid_alive(sh) && pid_alive(sl));
	assert_int_equal(kill(-runner, SIGKILL), 0);
	assert_int_equal(waitpid(runner, &status, 0), runner);
	assert_true(pid_ends(sh));
	assert_true(pid_ends(sl));
	assert_int_equal(unlink(shpid), 0);
	assert_int_equal(unlink(sleeppid), 0);
	wl_params_clear(&p);

	/* Left behind: the killed runner's directory, unlocked, marked. */
	assert_int_equal(dir_entries(test_dir), 1);
	snprintf(path, sizeof(path), "%s/perfwatch-live.Ab12Cd", test_dir);
	assert_int_equal(mkdir(path, 0700), 0);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	assert_true(fd != -1);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(close(openat(fd, ".perfwatch-iteration",
	    O_CREAT | O_WRONLY, 0644)), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-notmine", test_dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-src.backup", test_dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-src.backup/main.c",
	    test_dir);
	assert_int_equal(close(open(path, O_CREAT | O_WRONLY, 0600)), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-file.Ab12Cd", test_dir);
	assert_int_equal(close(open(path, O_CREAT | O_WRONLY, 0600)), 0);
	assert_int_equal(wl_sweep_work_dir(test_dir), 1);
	assert_int_equal(dir_entries(test_dir), 4);
	/* Once its runner lets go, the live one goes too. */
	assert_int_equal(close(fd), 0);
	assert_int_equal(wl_sweep_work_dir(test_dir), 1);
	assert_int_equal(dir_entries(test_dir), 3);
	assert_int_equal(rmdir(path) == 0 || unlink(path) == 0, 1);
	snprintf(path, sizeof(path), "%s/perfwatch-src.backup/main.c",
	    test_dir);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-src.backup", test_dir);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/perfwatch-notmine", test_dir);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(dir_entries(test_dir), 0);
	snprintf(path, sizeof(path), "%s/none", test_dir);
	assert_int_equal(wl_sweep_work_dir(path), 0);
}

static void
test_run_measure_time(void **state)
{
	const struct wl_workload	*wl;
	const struct wl_metric		*m;
	struct wl_params		 p;
	struct wl_result		 res;

	(void)state;
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "echo 'not a metric line'; sleep 0.2");
	set(&p, wl, "measure", "time");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 3);
	assert_non_null(m = metric(&res, "wall"));
	assert_true(m->value >= 0.2);
	NEAR(m->value, res.wall, 0);
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, BETTER_LOWER);
	assert_non_null(m = metric(&res, "user"));
	NEAR(m->value, res.user, 0);
	assert_non_null(m = metric(&res, "sys"));
	NEAR(m->value, res.sys, 0);
	assert_true(res.cpu_pct >= 0);
	wl_result_clear(&res);
	wl_params_clear(&p);
}

/*
 * Writing past the file-size limit fails with a clear error; a disk
 * workload whose own file is larger than the limit is refused before it
 * runs, since every iteration would fail.
 */
static void
test_run_file_limit(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	char				*cause = NULL;

	(void)state;
	wl = params_for(&p, "command", test_dir);
	set(&p, wl, "command", "dd if=/dev/zero of=f bs=1M count=4");
	set(&p, wl, "file_limit", "1M");
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_non_null(strstr(res.error, "exited with status 1: dd: "));
	assert_non_null(strstr(res.error, "File too large"));
	assert_int_equal(dir_entries(test_dir), 0);
	wl_result_clear(&res);
	wl_params_clear(&p);

	wl = params_for(&p, "disk.stream", test_dir);
	set(&p, wl, "size", "4M");
	set(&p, wl, "fsync_every", "1M");
	set(&p, wl, "file_limit", "1M");
	assert_int_equal(wl_params_check(&p, wl, &cause), -1);
	assert_string_equal(cause, "disk.stream: its file of 4194304 bytes "
	    "(size) is larger than file_limit, 1048576 bytes, so every "
	    "iteration would fail; raise file_limit or lower size");
	free(cause);
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	assert_int_equal(res.status, WL_FAILED);
	assert_non_null(strstr(res.error, "is larger than file_limit"));
	wl_result_clear(&res);
	/* At the limit it runs. */
	set(&p, wl, "file_limit", "4M");
	run_ok(wl, &p, &res);
	wl_result_clear(&res);
	wl_params_clear(&p);
}

/*
 * A real full disk: a 1 MiB tmpfs, where mounting one is allowed.  What
 * is asserted is gathered first and the tmpfs taken away before any
 * assertion, so that a failing one leaves no mount behind.
 */
static void
test_run_disk_full(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	char				 mnt[PATH_MAX], *err[2];
	int				 rc[2], status, left[2], um, rm;

	(void)state;
	snprintf(mnt, sizeof(mnt), "%s/../perfwatch-wl-full.XXXXXX",
	    test_dir);
	assert_non_null(mkdtemp(mnt));
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=1m") == -1) {
		rmdir(mnt);
		print_message("cannot mount a tmpfs (%s): the file_limit "
		    "test stands in\n", strerror(errno));
		skip();
	}
	wl = params_for(&p, "disk.stream", mnt);
	set(&p, wl, "size", "4M");
	set(&p, wl, "fsync_every", "1M");
	rc[0] = wl_run_iteration(wl, &p, &res, NULL);
	status = res.status;
	err[0] = xstrdup(res.error != NULL ? res.error : "");
	left[0] = dir_entries(mnt);
	wl_result_clear(&res);
	wl_params_clear(&p);

	/* bonnie's first phase fills it too. */
	wl = params_for(&p, "disk.bonnie", mnt);
	set(&p, wl, "size", "4M");
	rc[1] = wl_run_iteration(wl, &p, &res, NULL);
	err[1] = xstrdup(res.error != NULL ? res.error : "");
	left[1] = dir_entries(mnt);
	wl_result_clear(&res);
	wl_params_clear(&p);
	um = umount(mnt);
	rm = rmdir(mnt);

	assert_int_equal(rc[0], -1);
	assert_int_equal(status, WL_FAILED);
	assert_string_equal(err[0], "exited with status 1: write "
	    "stream.dat: No space left on device");
	assert_int_equal(left[0], 0);
	assert_int_equal(rc[1], -1);
	assert_non_null(strstr(err[1], "No space left on device"));
	assert_int_equal(left[1], 0);
	assert_int_equal(um, 0);
	assert_int_equal(rm, 0);
	free(err[0]);
	free(err[1]);
}

/*
 * bonnie notes a file smaller than twice the RAM, and not the file of
 * size = 2x, which is twice the RAM in whole MiB: on a VM of 25324953600
 * bytes (24151 MiB and 776 KiB) it said "file 48303 MiB is smaller than
 * twice the RAM (24151 MiB)".
 */
static void
test_bonnie_twice_ram(void **state)
{
	struct wl_params	p;
	uint64_t		ram = UINT64_C(25324953600), mib = 1 << 20;

	(void)state;
	assert_false(bonnie_below_twice_ram(UINT64_C(50649366528), ram));
	assert_true(bonnie_below_twice_ram(UINT64_C(50649366528) - mib, ram));
	assert_false(bonnie_below_twice_ram(1024 * mib, 512 * mib));
	assert_true(bonnie_below_twice_ram(1023 * mib, 512 * mib));
	assert_false(bonnie_below_twice_ram(mib, 0));	/* RAM unknown */
	/* This machine's 2x, bonnie's default. */
	wl_params_init(&p, wl_find("disk.bonnie"));
	assert_true(p.size_ram == 2);
	assert_false(bonnie_below_twice_ram(wl_params_size(&p) / BONNIE_CHUNK *
	    BONNIE_CHUNK, wl_memory_bytes()));
	wl_params_clear(&p);
}

/* Does the list of words, separated by any of sep, hold word? */
static int
word_in(const char *list, const char *word, const char *sep)
{
	size_t	n = strlen(word);

	for (; *list != '\0'; list += strcspn(list, sep),
	    list += *list != '\0') {
		if (strncmp(list, word, n) == 0 && (list[n] == '\0' ||
		    strchr(sep, list[n]) != NULL))
			return 1;
	}
	return 0;
}

/*
 * The directory of this process's group in the cgroup v1 hierarchy of
 * controller ctl, or NULL (no such hierarchy, or mounted from a group).
 */
static char *
v1_group_dir(const char *ctl)
{
	char	line[4096], mnt[1024], root[1024], *group = NULL, *dir = NULL;
	char	*p, *q;
	FILE	*f;

	if ((f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return NULL;
	while (fgets(line, sizeof(line), f) != NULL && dir == NULL) {
		line[strcspn(line, "\n")] = '\0';
		/* "... - cgroup cgroup rw,cpu,cpuacct" */
		if ((p = strstr(line, " - cgroup ")) == NULL ||
		    (p = strchr(p + 10, ' ')) == NULL ||
		    !word_in(p + 1, ctl, ","))
			continue;
		if (sscanf(line, "%*s %*s %*s %1023s %1023s", root, mnt) == 2 &&
		    strcmp(root, "/") == 0)
			dir = xstrdup(mnt);
	}
	fclose(f);
	if (dir == NULL || (f = fopen("/proc/self/cgroup", "re")) == NULL) {
		free(dir);
		return NULL;
	}
	/* "4:cpu,cpuacct:/path" */
	while (fgets(line, sizeof(line), f) != NULL && group == NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((p = strchr(line, ':')) == NULL ||
		    (q = strchr(p + 1, ':')) == NULL)
			continue;
		*q = '\0';
		if (word_in(p + 1, ctl, ",") && q[1] == '/')
			xasprintf(&group, "%s%s", dir, strcmp(q + 1, "/") == 0 ?
			    "" : q + 1);
	}
	fclose(f);
	free(dir);
	return group;
}

/* In the group: the size of bonnie's file, by default, to fd. */
static void
bonnie_size_child(int fd, void *arg)
{
	struct wl_params	p;

	(void)arg;
	wl_params_init(&p, wl_find("disk.bonnie"));
	dprintf(fd, "%llu", (unsigned long long)wl_params_size(&p));
}

/*
 * bonnie's file of 2x in a memory group of this machine limited to 256
 * MiB: twice the limit, 512 MiB, where it was twice the machine's RAM
 * (a file the group's page cache cannot hold either way, the larger one
 * only slower to write).  A child moved into a group made under this
 * process's own, as root on a cgroup v1 memory hierarchy (this build
 * machine's); elsewhere it skips.
 */
static void
test_bonnie_memory_limit(void **state)
{
	char			*group = NULL, *dir, buf[64];
	int			 status;

	(void)state;
	if (geteuid() != 0 || (group = v1_group_dir("memory")) == NULL)
		skip();
	if (wl_memory_bytes() <= (UINT64_C(256) << 20)) {
		free(group);
		skip();
	}
	if ((dir = cgroup_group_make(group)) == NULL)
		skip();
	/* Any failure from here on takes the group away first. */
	cgroup_group_put(dir, "memory.limit_in_bytes", "268435456\n");
	status = cgroup_group_child(dir, bonnie_size_child, NULL, buf,
	    sizeof(buf));
	free(dir);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(buf, "536870912");
}

static void
test_bonnie(void **state)
{
	const struct wl_workload	*wl;
	const struct wl_metric		*m;
	struct wl_params		 p;
	struct wl_result		 res;
	char				 path[PATH_MAX], line[256], name[64];
	char				 seen[16][64];
	size_t				 nseen = 0, i;
	FILE				*fp;
	double				 cpu_max;
	struct sysinfo_allowed		 allowed;

	(void)state;
	wl = params_for(&p, "disk.bonnie", test_dir);
	set(&p, wl, "size", "4M");
	set(&p, wl, "seeks", "200");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 12);
	/* The RAM is said as the RAM's: it said "twice the RAM (N MiB)". */
	sysinfo_allowed(NULL, &allowed);
	if (bonnie_below_twice_ram(4 << 20, allowed.memory)) {
		snprintf(line, sizeof(line), "file 4 MiB is smaller than twice "
		    "the RAM of %llu MiB: reads rely on page-cache eviction",
		    (unsigned long long)(allowed.memory >> 20));
		assert_non_null(note(&res, line));
	}

	/* The same twelve names as the real bonnie data uses. */
	snprintf(path, sizeof(path), "%s/tests/data/reference/"
	    "bonnie-linux-vs-sco.csv", checkout_top());
	if ((fp = fopen(path, "r")) == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	assert_non_null(fgets(line, sizeof(line), fp));
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%*[^,],%*[^,],%*[^,],%63[^,],", name) != 1)
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], name) != 0; i++)
			;
		if (i == nseen && nseen < nitems(seen))
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
	}
	fclose(fp);
	assert_int_equal(nseen, 12);

	cpu_max = 100.0 * wl_ncpu() * 1.05;
	for (i = 0; i < nseen; i++) {
		if ((m = metric(&res, seen[i])) == NULL)
			fail_msg("bonnie lacks %s", seen[i]);
		if (strstr(seen[i], "_cpu") != NULL) {
			assert_string_equal(m->unit, "%CPU");
			assert_int_equal(m->better, BETTER_LOWER);
			if (!(m->value >= 0 && m->value <= cpu_max))
				fail_msg("%s %g, not within 0-%g", seen[i],
				    m->value, cpu_max);
		} else {
			assert_string_equal(m->unit,
			    strcmp(seen[i], "seeks_ps") == 0 ? "/sec" :
			    "K/sec");
			assert_int_equal(m->better, BETTER_HIGHER);
			assert_true(m->value > 0);
		}
	}
	assert_non_null(note(&res, "file 4 MiB, chunk 8192, 200 seeks by 3 "
	    "processes"));
	assert_non_null(note(&res, "file 4 MiB is smaller than twice the "
	    "RAM"));
	assert_null(note(&res, "per-char phases on"));
	wl_result_clear(&res);

	/* Per-char phases on part of the file (bonnie++'s -f size). */
	set(&p, wl, "char_size", "1M");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 12);
	assert_true(metric(&res, "putc_kps")->value > 0);
	assert_true(metric(&res, "getc_kps")->value > 0);
	assert_true(metric(&res, "read_kps")->value > 0);
	assert_non_null(note(&res, "per-char phases on 1 MiB (char_size)"));
	wl_result_clear(&res);
	set(&p, wl, "char_size", "1536K");
	run_ok(wl, &p, &res);
	assert_non_null(note(&res, "per-char phases on 1536 KiB (char_size)"));
	wl_result_clear(&res);
	/* No larger than the file. */
	set(&p, wl, "char_size", "64M");
	run_ok(wl, &p, &res);
	assert_null(note(&res, "per-char phases on"));
	wl_result_clear(&res);
	/*
	 * Sizes that are not whole MiB (or KiB) are said as they are, not
	 * cut down: a file of 1544K was "file 1 MiB", 1048577 bytes "1024
	 * KiB".
	 */
	set(&p, wl, "size", "1544K");
	set(&p, wl, "char_size", "1048577");
	run_ok(wl, &p, &res);
	assert_non_null(note(&res, "file 1544 KiB, chunk 8192"));
	assert_non_null(note(&res, "file 1544 KiB is smaller than twice the "
	    "RAM"));
	assert_non_null(note(&res, "per-char phases on 1048577 bytes "
	    "(char_size)"));
	wl_result_clear(&res);
	wl_params_clear(&p);
}

/* Compare two 4 KiB pages, for qsort. */
static int
page_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 4096);
}

/*
 * What disk.stream writes holds no two equal 4 KiB pages, which a
 * deduplicating layer would store once: every 1 MiB block was the same.
 * The file is kept through a second link to it, made before the
 * workload opens it with O_TRUNC (the same inode) and unlinks it.
 */
static void
test_stream_unique(void **state)
{
	struct wl_params	 p;
	struct stat		 st;
	char			 dir[PATH_MAX], cwd[PATH_MAX], *cause = NULL;
	char			*data;
	size_t			 npages, i, same = 0;
	int			 fd, out;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/unique", test_dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_not_equal(fd = open("stream.dat", O_WRONLY | O_CREAT,
	    0644), -1);
	close(fd);
	assert_int_equal(link("stream.dat", "kept.dat"), 0);
	params_for(&p, "disk.stream", dir);
	set(&p, wl_find("disk.stream"), "size", "4M");
	assert_int_not_equal(out = open("/dev/null", O_WRONLY), -1);
	if (wl_stream_run(&p, out, &cause) != 0)
		fail_msg("%s", cause);
	close(out);
	assert_int_equal(access("stream.dat", F_OK), -1);

	assert_int_not_equal(fd = open("kept.dat", O_RDONLY), -1);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 4 << 20);
	data = xmalloc(st.st_size);
	assert_int_equal(read(fd, data, st.st_size), st.st_size);
	close(fd);
	npages = st.st_size / 4096;
	qsort(data, npages, 4096, page_cmp);
	for (i = 1; i < npages; i++)
		same += memcmp(data + (i - 1) * 4096, data + i * 4096,
		    4096) == 0;
	free(data);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(wl_remove_tree(dir), 0);
	wl_params_clear(&p);
	assert_int_equal(same, 0);
}

static void
test_stream(void **state)
{
	const struct wl_workload	*wl;
	const struct wl_metric		*m;
	struct wl_params		 p;
	struct wl_result		 res;
	struct statfs			 sfs;

	(void)state;
	wl = params_for(&p, "disk.stream", test_dir);
	set(&p, wl, "size", "4M");
	set(&p, wl, "fsync_every", "1M");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 4);
	assert_non_null(note(&res, "4 MiB in 4 segments of 1 MiB, fsync "
	    "after each"));
	assert_non_null(m = metric(&res, "write_mibps"));
	assert_string_equal(m->unit, "MiB/s");
	assert_true(m->value > 0);
	assert_non_null(m = metric(&res, "seg_mean_mibps"));
	assert_true(m->value > 0);
	assert_non_null(m = metric(&res, "seg_sd_mibps"));
	assert_true(m->value >= 0);
	assert_int_equal(m->better, BETTER_LOWER);
	assert_non_null(m = metric(&res, "write_cpu"));
	assert_true(m->value >= 0 && m->value <= 100.0 * wl_ncpu() * 1.05);
	wl_result_clear(&res);

	/* fsync_every = 0: the whole file, one fsync at the end. */
	set(&p, wl, "fsync_every", "0");
	assert_int_equal(p.fsync_every, 0);
	run_ok(wl, &p, &res);
	assert_non_null(note(&res, "4 MiB, one fsync at the end"));
	NEAR(metric(&res, "seg_sd_mibps")->value, 0, 0);
	NEAR(metric(&res, "seg_mean_mibps")->value,
	    metric(&res, "write_mibps")->value,
	    metric(&res, "write_mibps")->value * 0.05);
	wl_result_clear(&res);

	/* A shorter last segment is a segment; one segment has sd 0. */
	set(&p, wl, "fsync_every", "3M");
	run_ok(wl, &p, &res);
	assert_non_null(note(&res, "4 MiB in 2 segments of 3 MiB"));
	wl_result_clear(&res);
	/* One segment, of the file's size, not fsync_every's. */
	set(&p, wl, "fsync_every", "8M");
	run_ok(wl, &p, &res);
	assert_non_null(note(&res, "4 MiB in 1 segment of 4 MiB, fsync "
	    "after it"));
	NEAR(metric(&res, "seg_sd_mibps")->value, 0, 0);
	wl_result_clear(&res);

	/* O_DIRECT works where the file system has it (not tmpfs). */
	set(&p, wl, "fsync_every", "1M");
	set(&p, wl, "direct", "yes");
	assert_int_equal(statfs(test_dir, &sfs), 0);
	if (sfs.f_type == TMPFS_MAGIC) {
		assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
		assert_non_null(strstr(res.error, "O_DIRECT"));
	} else {
		run_ok(wl, &p, &res);
		assert_non_null(note(&res, "4 MiB in 4 segments of 1 MiB, "
		    "fsync after each, O_DIRECT"));
	}
	wl_result_clear(&res);

	/* A raw device needs destroy_data, and must be a block device. */
	set(&p, wl, "direct", "no");
	set(&p, wl, "device", "/dev/null");
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	assert_string_equal(res.error, "disk.stream: refusing to write to "
	    "/dev/null without destroy_data = yes (its contents would be "
	    "lost)");
	wl_result_clear(&res);
	set(&p, wl, "destroy_data", "yes");
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	assert_string_equal(res.error, "exited with status 1: /dev/null is "
	    "not a block device");
	wl_result_clear(&res);
	assert_int_equal(dir_entries(test_dir), 0);
	wl_params_clear(&p);
}

#ifdef __linux__
/* test_stream_device_busy's loop device and its file, for the teardown. */
static char	loop_dev[64], loop_img[PATH_MAX];

static int
loop_teardown(void **state)
{
	char	cmd[128];

	(void)state;
	if (loop_dev[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "losetup -d %s", loop_dev);
		if (system(cmd) != 0)
			fprintf(stderr, "%s failed\n", cmd);
		loop_dev[0] = '\0';
	}
	if (loop_img[0] != '\0')
		unlink(loop_img);
	loop_img[0] = '\0';
	return 0;
}

/*
 * A raw device in use is refused, destroy_data or not: held exclusively
 * (as a mount holds it) by this test, a loop device of a 4 MiB file is
 * not written; let go, it is.  Before, a mounted file system named by a
 * slip of the finger was written over.  Needs root and a free loop
 * device (losetup), else skipped.
 */
static void
test_stream_device_busy(void **state)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	FILE				*f;
	char				 cmd[PATH_MAX + 64], want[256];
	int				 fd, held;

	(void)state;
	/* Beside the work directory, which the runs must leave empty. */
	snprintf(loop_img, sizeof(loop_img), "%s.loop.img", test_dir);
	fd = open(loop_img, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd != -1);
	assert_int_equal(ftruncate(fd, 4 << 20), 0);
	close(fd);
	if (geteuid() != 0)
		skip();
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null",
	    loop_img);
	if ((f = popen(cmd, "r")) == NULL)
		skip();
	if (fgets(loop_dev, sizeof(loop_dev), f) == NULL)
		loop_dev[0] = '\0';
	loop_dev[strcspn(loop_dev, "\n")] = '\0';
	if (pclose(f) != 0 || strncmp(loop_dev, "/dev/loop", 9) != 0) {
		loop_dev[0] = '\0';
		skip();
	}

	wl = params_for(&p, "disk.stream", test_dir);
	set(&p, wl, "size", "4M");
	set(&p, wl, "fsync_every", "1M");
	set(&p, wl, "device", loop_dev);
	set(&p, wl, "destroy_data", "yes");
	held = open(loop_dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	assert_true(held != -1);
	assert_int_equal(wl_run_iteration(wl, &p, &res, NULL), -1);
	snprintf(want, sizeof(want), "exited with status 1: %s is in use "
	    "(mounted, swap, part of a volume, or held by another program): "
	    "refusing to write to it", loop_dev);
	close(held);
	assert_string_equal(res.error, want);
	wl_result_clear(&res);
	run_ok(wl, &p, &res);
	assert_non_null(metric(&res, "write_mibps"));
	wl_result_clear(&res);
	wl_params_clear(&p);
}
#endif

/* Every UnixBench test gives a positive rate in 0.2 s. */
/* The notes that say how a process-group test counted its time. */
static void
sys_notes(const char *name, const struct wl_result *res)
{
	static const struct {
		const char	*name;
		const char	*note;
	} fcopy[] = {
		{ "sys.fcopy256", "file of 500 KiB, copied in 256-byte buffers" },
		{ "sys.fcopy1024",
		    "file of 2000 KiB, copied in 1024-byte buffers" },
		{ "sys.fcopy4096",
		    "file of 8000 KiB, copied in 4096-byte buffers" },
	};
	const char	*loop;
	char		 want[64];
	int		 cpus;

	assert_non_null(loop = note(res, ""));
	for (size_t i = 0; i < res->nnotes; i++) {
		if (strstr(res->notes[i], " loops in ") != NULL)
			loop = res->notes[i];
	}
	/* UnixBench's fstime -m counts KiB: 500, 2000 and 8000 of them. */
	for (size_t i = 0; i < nitems(fcopy); i++) {
		if (strcmp(name, fcopy[i].name) == 0)
			assert_non_null(note(res, fcopy[i].note));
	}
	/*
	 * The wall-clock figure is in the figure's unit: shell1 and shell8
	 * said "N a second" of loops a minute, 60 times their rate.
	 */
	snprintf(want, sizeof(want), " %s by the wall clock; ",
	    res->metrics[0].unit);
	if (strstr(loop, want) == NULL)
		fail_msg("%s: no \"%s\" in \"%s\"", name, want, loop);
	/*
	 * The count is of the figure's loops: execl's note said "a loop is
	 * one exec" and counted chains of 33, its wall-clock rate 33 times
	 * the count over the time.
	 */
	if (strcmp(name, "sys.shell1") == 0 ||
	    strcmp(name, "sys.shell8") == 0 ||
	    strcmp(name, "sys.execl") == 0) {
		unsigned long long	count;
		double			elapsed, wall, per;

		per = strcmp(name, "sys.execl") == 0 ? 1 : 60;
		assert_int_equal(sscanf(loop, "%llu loops in %lf s", &count,
		    &elapsed), 2);
		assert_int_equal(sscanf(strstr(loop, "), ") + 3, "%lf",
		    &wall), 1);
		/* The note's own figures, as printed (3 decimals of time). */
		assert_true(elapsed > 0);
		if (fabs(wall - count / elapsed * per) >
		    0.01 * count / elapsed * per)
			fail_msg("%s: %s", name, loop);
	}
	if (strcmp(name, "sys.execl") == 0)
		assert_non_null(note(res, "a loop is one exec; 33 execs a "
		    "chain (/usr/bin/env 32 times, then /bin/true)"));
	if (strcmp(name, "sys.execl") == 0 || strcmp(name, "sys.spawn") == 0 ||
	    strcmp(name, "sys.shell1") == 0) {
		assert_true(note(res, "pinned to CPU ") != NULL ||
		    note(res, "not pinned") != NULL);
		assert_non_null(strstr(loop, " of CPU over 1 CPU)"));
	}
	if (strcmp(name, "sys.shell8") == 0) {
#ifdef __linux__
		cpu_set_t	set;

		assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
		cpus = CPU_COUNT(&set) < 8 ? CPU_COUNT(&set) : 8;
#else
		cpus = wl_ncpu() < 8 ? wl_ncpu() : 8;
#endif
		if (cpus > 1) {
			snprintf(want, sizeof(want), "8 copies placed "
			    "round-robin on %d CPUs", cpus);
			assert_non_null(note(res, want));
		} else
			assert_non_null(note(res, "8 copies not placed"));
		/* Under a CPU quota, over the CPUs it allows. */
		if (wl_ncpu() < cpus)
			cpus = wl_ncpu();
		snprintf(want, sizeof(want), " of CPU over %d CPU%s)", cpus,
		    cpus == 1 ? "" : "s");
		assert_non_null(strstr(loop, want));
	}
}

/*
 * In a forked child: run a sys.* workload's run function (internal.h)
 * for 0.2 s, results to out, and leave: 0 when it succeeded, else 1 with
 * its error written to fd.
 */
static void __attribute__((noreturn))
child_run_sys(const char *name, int (*run)(const struct wl_params *, int,
    char **), int out, int fd)
{
	struct wl_params	 p;
	char			*cause = NULL;

	wl_params_init(&p, wl_find(name));
	p.duration = 0.2;
	if (run(&p, out, &cause) == 0)
		_exit(0);
	dprintf(fd, "%s", cause);
	_exit(1);
}

/* Read into why what child pid wrote on fd (then closed), reap it. */
static int
child_reap(pid_t pid, int fd, char *why, size_t len)
{
	ssize_t	n;
	int	status;

	n = read(fd, why, len - 1);
	why[n > 0 ? n : 0] = '\0';
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * sys.execl where true(1) is /usr/bin/true alone, as on FreeBSD (no
 * /bin/true): a root of the real /usr and library links, with an empty
 * /bin, in a private mount namespace where that is allowed.  The child
 * writes why it failed on the pipe.
 */
static void
test_execl_usr_bin_true(void **state)
{
	static const char *const top[] = { "lib", "lib32", "lib64", "libx32",
	    "sbin", NULL };
	struct stat		 st;
	char			 root[PATH_MAX], path[PATH_MAX + 16];
	char			 link[PATH_MAX];
	char			 why[512];
	ssize_t			 n;
	pid_t			 pid;
	int			 fds[2], status, out, i;

	(void)state;
	if (stat("/usr/bin/true", &st) == -1 || stat("/usr/bin/env", &st) ==
	    -1) {
		print_message("no /usr/bin/true or /usr/bin/env\n");
		skip();
	}
	snprintf(root, sizeof(root), "%s/usrroot", test_dir);
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(pipe(fds), 0);
	assert_int_not_equal(pid = fork(), -1);
	if (pid == 0) {
		close(fds[0]);
		if (unshare(CLONE_NEWNS) == -1 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1)
			_exit(77);
		snprintf(path, sizeof(path), "%s/usr", root);
		if (mkdir(path, 0755) == -1 || mount("/usr", path, NULL,
		    MS_BIND | MS_REC, NULL) == -1)
			_exit(77);
		for (i = 0; top[i] != NULL; i++) {
			snprintf(path, sizeof(path), "%s/%s", root, top[i]);
			snprintf(link, sizeof(link), "/%s", top[i]);
			if ((n = readlink(link, why, sizeof(why) - 1)) > 0) {
				why[n] = '\0';
				if (symlink(why, path) == -1)
					_exit(77);
			} else if (stat(link, &st) == 0 &&
			    (mkdir(path, 0755) == -1 || mount(link, path,
			    NULL, MS_BIND | MS_REC, NULL) == -1))
				_exit(77);
		}
		snprintf(path, sizeof(path), "%s/bin", root);
		if (mkdir(path, 0755) == -1 ||
		    (out = open("/dev/null", O_WRONLY)) == -1 ||
		    chroot(root) == -1 || chdir("/") == -1)
			_exit(77);
		child_run_sys("sys.execl", wl_execl_run, out, fds[1]);
	}
	close(fds[1]);
	status = child_reap(pid, fds[0], why, sizeof(why));
	/* rmdir and unlink alone: nothing here may reach the real /usr. */
	for (i = -2; i < 0 || top[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, i == -2 ? "usr" :
		    i == -1 ? "bin" : top[i]);
		if (rmdir(path) == -1)
			(void)unlink(path);
	}
	assert_int_equal(rmdir(root), 0);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("no private mount namespace here\n");
		skip();
	}
	if (WEXITSTATUS(status) != 0)
		fail_msg("sys.execl: %s", why);
}

/*
 * A sys.dhrystone pass adds one to a counter of its array, which a run
 * of 2^31 passes took past INT_MAX (undefined behaviour): at 25 million
 * passes a CPU second that is 86 s, and duration goes up to a day.
 * From the state such a run reaches, the pass wraps the counter.
 */
static void
test_dhrystone_long(void **state)
{
	struct dh_state	*st;

	(void)state;
	assert_non_null(st = dh_state_new());
	st->arr2[8][7] = INT_MAX;
	dh_pass(st, 1);
	assert_true((unsigned int)st->arr2[8][7] == (unsigned int)INT_MAX + 1);
	dh_pass(st, 2);
	assert_true((unsigned int)st->arr2[8][7] == (unsigned int)INT_MAX + 2);
	free(st);
}

/*
 * The shell test's script runs with set -e, but a pipeline's status is
 * its last command's: without od, grep or tee every loop did less work,
 * nothing failed, and the figure rose.  Each tool of the script must be
 * found in PATH before the loop starts.  Run in a child whose PATH holds
 * all of them but od.
 */
static void
test_shell_tools(void **state)
{
	static const char *const tools[] = { "sort", "grep", "tee", "wc",
		"rm", NULL };
	static const char *const dirs[] = { "/usr/bin", "/bin", NULL };
	char			 bin[PATH_MAX], work[PATH_MAX], from[PATH_MAX];
	char			 to[2 * PATH_MAX], why[512];
	pid_t			 pid;
	int			 fds[2], status, out, i, k;

	(void)state;
	snprintf(bin, sizeof(bin), "%s/bin", test_dir);
	snprintf(work, sizeof(work), "%s/work", test_dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	assert_int_equal(mkdir(work, 0755), 0);
	for (i = 0; tools[i] != NULL; i++) {
		for (k = 0; dirs[k] != NULL; k++) {
			snprintf(from, sizeof(from), "%s/%s", dirs[k],
			    tools[i]);
			if (access(from, X_OK) == 0)
				break;
		}
		assert_non_null(dirs[k]);
		snprintf(to, sizeof(to), "%s/%s", bin, tools[i]);
		assert_int_equal(symlink(from, to), 0);
	}
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		close(fds[0]);
		/* The script's "od: not found", once a loop. */
		if ((out = open("/dev/null", O_WRONLY)) == -1 ||
		    dup2(out, STDERR_FILENO) == -1 ||
		    setenv("PATH", bin, 1) == -1 || chdir(work) == -1)
			_exit(2);
		child_run_sys("sys.shell1", wl_shell1_run, out, fds[1]);
	}
	close(fds[1]);
	status = child_reap(pid, fds[0], why, sizeof(why));
	assert_int_equal(wl_remove_tree(bin), 0);
	assert_int_equal(wl_remove_tree(work), 0);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 0)
		fail_msg("sys.shell1 measured a script without od");
	assert_int_equal(WEXITSTATUS(status), 1);
	if (strstr(why, "od") == NULL || strstr(why, bin) == NULL)
		fail_msg("sys.shell1 without od: %s", why);
}

static void
test_sys(void **state)
{
	const struct wl_workload	*list;
	const struct wl_metric		*m;
	struct wl_params		 p;
	struct wl_result		 res;
	size_t				 n, i, done = 0;

	(void)state;
	list = wl_list(&n);
	for (i = 0; i < n; i++) {
		if (!(list[i].flags & WL_F_INDEX))
			continue;
		params_for(&p, list[i].name, test_dir);
		set(&p, &list[i], "duration", "0.2");
		run_ok(&list[i], &p, &res);
		assert_int_equal(res.nmetrics, 1);
		if ((m = metric(&res, list[i].index_metric)) == NULL)
			fail_msg("%s lacks %s", list[i].name,
			    list[i].index_metric);
		assert_true(m->value > 0);
		assert_int_equal(m->better, BETTER_HIGHER);
		if (strcmp(m->name, "lps") == 0)
			assert_string_equal(m->unit, "lps");
		else if (strcmp(m->name, "lpm") == 0)
			assert_string_equal(m->unit, "lpm");
		else if (strcmp(m->name, "kbps") == 0)
			assert_string_equal(m->unit, "KBps");
		else
			assert_string_equal(m->unit, "MWIPS");
		assert_non_null(note(&res, ""));
		assert_true(res.wall >= 0.2);
		sys_notes(list[i].name, &res);
		wl_result_clear(&res);
		wl_params_clear(&p);
		done++;
	}
	assert_int_equal(done, 12);
}

static void
test_oltp(void **state)
{
	const struct wl_workload	*wl;
	const struct wl_metric		*t1, *t2, *s;
	struct wl_params		 p;
	struct wl_result		 res;

	(void)state;
	wl = params_for(&p, "db.oltp", test_dir);
	set(&p, wl, "table_size", "1000");
	set(&p, wl, "threads", "1,2");
	set(&p, wl, "duration", "0.2");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 5);
	assert_non_null(note(&res, "sbtest1 1000 rows; threads 1,2; 0.2 s "
	    "each"));
	assert_non_null(t1 = metric(&res, "tps_t1"));
	assert_non_null(t2 = metric(&res, "tps_t2"));
	assert_non_null(s = metric(&res, "scalability"));
	assert_true(t1->value > 0);
	assert_true(t2->value > 0);
	assert_string_equal(t1->unit, "tps");
	assert_string_equal(s->unit, "x");
	NEAR(s->value, (t1->value > t2->value ? t1->value :
	    t2->value) / t1->value, 1e-6 * s->value);
	assert_true(metric(&res, "p95_ms_t1")->value > 0);
	assert_true(metric(&res, "p95_ms_t2")->value > 0);
	assert_string_equal(metric(&res, "p95_ms_t2")->unit, "ms");
	assert_int_equal(metric(&res, "p95_ms_t2")->better, BETTER_LOWER);
	wl_result_clear(&res);

	/* Without one thread in the sweep there is no scalability. */
	set(&p, wl, "threads", "2");
	run_ok(wl, &p, &res);
	assert_int_equal(res.nmetrics, 2);
	assert_null(metric(&res, "scalability"));
	wl_result_clear(&res);
	wl_params_clear(&p);
}

/*
 * db.oltp's default sweep in a run pinned to one CPU (taskset -c N): up
 * to twice the one CPU it may use, 1 and 2 threads, with a note of the
 * limit, where it swept up to twice the machine's online CPUs (1, 2, 4
 * on two), threads that could only take turns on the one CPU.  The
 * runner's child inherits the mask of this process, restored before any
 * assertion.
 */
static void
test_oltp_pinned(void **state)
{
#ifdef __linux__
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	cpu_set_t			 all, one;
	char				*cause = NULL, want[128];
	long				 online;
	int				 rc, cpu, pinned;

	(void)state;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	if (CPU_COUNT(&all) < 2)
		skip();
	for (cpu = 0; !CPU_ISSET(cpu, &all); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	wl = params_for(&p, "db.oltp", test_dir);
	set(&p, wl, "table_size", "1000");
	set(&p, wl, "duration", "0.1");
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	pinned = wl_ncpu();
	rc = wl_run_iteration(wl, &p, &res, &cause);
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	if (rc != 0)
		fail_msg("db.oltp: %s", cause);
	assert_int_equal(res.status, WL_OK);
	assert_non_null(note(&res, "sbtest1 1000 rows; threads 1,2; 0.1 s "
	    "each"));
	assert_int_equal(pinned, 1);
	snprintf(want, sizeof(want), "threads sized to the 1 CPU this run "
	    "may use of %ld online (affinity)", online);
	assert_non_null(note(&res, want));
	assert_int_equal(res.nmetrics, 5);
	assert_non_null(metric(&res, "tps_t2"));
	assert_null(metric(&res, "tps_t4"));
	wl_result_clear(&res);
	wl_params_clear(&p);
#else
	(void)state;
	skip();
#endif
}

/* In the group: sys.shell8 for 0.2 s, its notes to fd after a "|". */
static void
shell8_quota_child(int fd, void *arg)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	struct wl_result		 res;
	char				*cause = NULL;
	size_t				 i;

	(void)arg;
	dprintf(fd, "|");
	wl = params_for(&p, "sys.shell8", test_dir);
	set(&p, wl, "duration", "0.2");
	if (wl_run_iteration(wl, &p, &res, &cause) != 0) {
		dprintf(fd, "failed: %s", cause);
		_exit(1);
	}
	for (i = 0; i < res.nnotes; i++)
		dprintf(fd, "%s|", res.notes[i]);
}

/*
 * sys.shell8 through the runner in a real cgroup v1 cpu group with a
 * quota of one CPU (cfs_quota_us = the period), on a machine whose mask
 * allows two or more: the copies are still placed on the mask's CPUs,
 * but the time is divided by the one CPU the quota lets them have, not
 * by the CPUs of the mask (which made the figure that of a machine the
 * run did not have).  Root and a v1 cpu hierarchy only (this build
 * machine's); elsewhere, or on one CPU, it skips.
 */
static void
test_shell8_quota(void **state)
{
	cpu_set_t			 mask;
	char				*group = NULL, *dir, *period;
	char				 buf[4096], want[128];
	int				 status, placed;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(mask), &mask), 0);
	if (CPU_COUNT(&mask) < 2 || geteuid() != 0 ||
	    (group = v1_group_dir("cpu")) == NULL)
		skip();
	placed = CPU_COUNT(&mask) < 8 ? CPU_COUNT(&mask) : 8;
	if ((dir = cgroup_group_make(group)) == NULL)
		skip();
	/* Any failure from here on takes the group away first. */
	period = cgroup_group_get(dir, "cpu.cfs_period_us");
	cgroup_group_put(dir, "cpu.cfs_quota_us", period);
	free(period);

	/* Read to the end: the child writes its notes one by one. */
	status = cgroup_group_child(dir, shell8_quota_child, NULL, buf,
	    sizeof(buf));
	free(dir);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child: status %d: %s", status, buf);
	snprintf(want, sizeof(want), "|8 copies placed round-robin on %d "
	    "CPUs under a CPU quota of 1; the rate is per CPU second times "
	    "1|", placed);
	if (strstr(buf, want) == NULL || strstr(buf, " of CPU over 1 CPU)") ==
	    NULL)
		fail_msg("want the time over 1 CPU: %s", buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lines),
		cmocka_unit_test(test_parse_underflow),
		cmocka_unit_test(test_parse_line_errors),
		cmocka_unit_test(test_parse_many),
		cmocka_unit_test(test_parse_json),
		cmocka_unit_test(test_battery),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_params_apply_errors),
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_plan_and_progress),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_statistics),
		cmocka_unit_test(test_page_alloc),
		cmocka_unit_test(test_timed_loop),
		cmocka_unit_test(test_timed_loop_clock),
		cmocka_unit_test(test_command_words),
		cmocka_unit_test(test_run_command_ok),
		cmocka_unit_test(test_run_command_direct),
		cmocka_unit_test(test_run_timeout),
		cmocka_unit_test(test_run_setsid_escapee),
		cmocka_unit_test(test_run_timeout_setsid_self),
		cmocka_unit_test(test_run_named),
		cmocka_unit_test(test_run_escapee_unreapable),
		cmocka_unit_test(test_run_child_unreapable),
		cmocka_unit_test(test_run_orphan_reaped),
		cmocka_unit_test(test_run_abort),
		cmocka_unit_test(test_run_settle),
		cmocka_unit_test(test_run_settle_flush_stuck),
		cmocka_unit_test(test_run_settle_flush_abort),
#if defined(__linux__) && defined(SYS_syncfs) && \
    defined(PTRACE_GET_SYSCALL_INFO)
		cmocka_unit_test(test_run_settle_flush_dir),
#endif
		cmocka_unit_test(test_run_clean_environment),
		cmocka_unit_test(test_run_temp_removed),
		cmocka_unit_test(test_run_temp_deep),
		cmocka_unit_test(test_run_dir_unlocked),
		cmocka_unit_test(test_run_failures),
		cmocka_unit_test(test_run_stderr_cause),
		cmocka_unit_test(test_run_output_over),
		cmocka_unit_test(test_run_output_over_status),
		cmocka_unit_test(test_globs_check_hint),
		cmocka_unit_test(test_run_term_at_start),
		cmocka_unit_test(test_run_runner_killed),
		cmocka_unit_test(test_run_measure_time),
		cmocka_unit_test(test_run_file_limit),
		cmocka_unit_test(test_run_disk_full),
		cmocka_unit_test(test_bonnie_twice_ram),
		cmocka_unit_test(test_bonnie_memory_limit),
		cmocka_unit_test(test_bonnie),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_stream_unique),
#ifdef __linux__
		cmocka_unit_test_teardown(test_stream_device_busy,
		    loop_teardown),
#endif
		cmocka_unit_test(test_execl_usr_bin_true),
		cmocka_unit_test(test_dhrystone_long),
		cmocka_unit_test(test_sys),
		cmocka_unit_test(test_shell_tools),
		cmocka_unit_test(test_oltp),
		cmocka_unit_test(test_oltp_pinned),
		cmocka_unit_test(test_shell8_quota),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
