/*
 * Unit tests of common/config.c: every kind of error with its exact
 * "file:line:" text, the defaults, typed getters, named sections, the
 * dump round trip, and the sample file and the manual in step with the
 * schema.  The module's .c is included to reach its schema table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/un.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/config.c"

static char	 test_dir[PATH_MAX - 32];
static char	 test_path[PATH_MAX];

static int
setup(void **state)
{
	(void)state;
	snprintf(test_dir, sizeof(test_dir), "%s/perfwatch-config.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(test_dir) == NULL)
		return -1;
	snprintf(test_path, sizeof(test_path), "%s/perfwatch.conf", test_dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(test_path);
	return rmdir(test_dir);
}

/* Write text to the test file and load it. */
static struct config *
load_text(const char *text, char **cause)
{
	FILE	*fp;

	fp = fopen(test_path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	*cause = NULL;
	return config_load(test_path, cause);
}

/* Load a NUL-terminated buffer named t.conf. */
static struct config *
load_str(const char *text, char **cause)
{
	*cause = NULL;
	return config_load_buffer("t.conf", text, strlen(text), cause);
}

/* tmpl with each "{P}" replaced by the test file's path. */
static char *
with_path(const char *tmpl)
{
	char		*out, *tmp;
	const char	*p, *q;

	out = xstrdup("");
	for (p = tmpl; (q = strstr(p, "{P}")) != NULL; p = q + 3) {
		xasprintf(&tmp, "%s%.*s%s", out, (int)(q - p), p, test_path);
		free(out);
		out = tmp;
	}
	xasprintf(&tmp, "%s%s", out, p);
	free(out);
	return tmp;
}

/* Loading text must fail with exactly the errors of tmpl. */
static void
expect_errors(const char *text, const char *tmpl)
{
	struct config	*cfg;
	char		*cause, *want;

	cfg = load_text(text, &cause);
	assert_null(cfg);
	assert_non_null(cause);
	want = with_path(tmpl);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
}

static void
test_unknown_section(void **state)
{
	char	*text, *want;

	(void)state;
	expect_errors("[bogus]\nx = 1\n", "{P}:1: [bogus]: unknown section");
	expect_errors("[]\n", "{P}:1: []: unknown section");
	/* A near miss of a section's type is named, with the name given. */
	expect_errors("[Schedule]\n", "{P}:1: [Schedule]: unknown section; "
	    "did you mean [schedule]?");
	expect_errors("[shedule]\n[detetc]\n[workloads \"sys.pipe\"]\n"
	    "[snk \"ops\"]\n[gti]\n",
	    "{P}:1: [shedule]: unknown section; did you mean [schedule]?\n"
	    "{P}:2: [detetc]: unknown section; did you mean [detect]?\n"
	    "{P}:3: [workloads \"sys.pipe\"]: unknown section; did you mean "
	    "[workload \"sys.pipe\"]?\n"
	    "{P}:4: [snk \"ops\"]: unknown section; did you mean "
	    "[sink \"ops\"]?\n"
	    "{P}:5: [gti]: unknown section; did you mean [git \"name\"]?");
	/*
	 * A header of any length is quoted back shortened, as a value is
	 * (70 KB of header made a 70 KB error), and so is a name in the
	 * hint.
	 */
	text = xmalloc(70004);
	text[0] = '[';
	memset(text + 1, 'x', 70000);
	memcpy(text + 70001, "]\n", 3);
	xasprintf(&want, "{P}:1: [%.60s...]: unknown section", text + 1);
	expect_errors(text, want);
	free(want);
	memcpy(text, "[workloda \"", 11);
	memcpy(text + 5000, "\"]\n", 4);
	expect_errors(text, "{P}:1: [workloda \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxx...]: unknown section; did you mean "
	    "[workload \"name\"]?");
	memcpy(text, "[xxxxxxxxxx", 11);
	memcpy(text + 4990, " \"x]\n", 6);
	expect_errors(text, "{P}:1: [xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxx...]: expected a '\"' to close the name, as in "
	    "[xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... "
	    "\"name\"]");
	free(text);
}

/*
 * [perfwatch] http: off by default, a numeric address and a port; and
 * http_timeout.
 */
static void
test_http_key(void **state)
{
	struct config	*cfg;
	char		*cause, host[INET6_ADDRSTRLEN];
	int		 port;

	(void)state;
	cfg = load_str("", &cause);
	assert_non_null(cfg);
	assert_null(config_get_str(cfg, "perfwatch", "http"));
	config_free(cfg);
	cfg = load_str("[perfwatch]\nhttp = none\n", &cause);
	assert_non_null(cfg);
	assert_null(config_get_str(cfg, "perfwatch", "http"));
	config_free(cfg);
	cfg = load_str("[perfwatch]\nhttp = [::1]:8089\n", &cause);
	assert_non_null(cfg);
	assert_string_equal(config_get_str(cfg, "perfwatch", "http"),
	    "[::1]:8089");
	config_free(cfg);
	assert_int_equal(config_listen_parse("127.0.0.1:8089", host,
	    sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 8089);
	assert_int_equal(config_listen_parse("[::1]:80", host, sizeof(host),
	    &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 80);
	assert_int_equal(config_listen_parse("0.0.0.0:65535", host,
	    sizeof(host), &port), 0);
	assert_int_equal(port, 65535);
	/* Names, bad ports, brackets missing or misplaced. */
	assert_int_equal(config_listen_parse("localhost:8089", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("127.0.0.1:0", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("127.0.0.1:65536", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("127.0.0.1:-1", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("127.0.0.1:", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("127.0.0.1", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("::1:8089", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("[::1]8089", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("[127.0.0.1]:8089", host,
	    sizeof(host), &port), -1);
	assert_int_equal(config_listen_parse("[]:8089", host,
	    sizeof(host), &port), -1);
	expect_errors("[perfwatch]\nstate_dir = /x\nhttp = localhost:8089\n",
	    "{P}:3: http: expected a numeric address and a port such as "
	    "127.0.0.1:8089 or [::1]:8089, or none, got \"localhost:8089\"");
	expect_errors("[perfwatch]\nhttp = 127.0.0.1:99999\n",
	    "{P}:2: http: expected a numeric address and a port such as "
	    "127.0.0.1:8089 or [::1]:8089, or none, got \"127.0.0.1:99999\"");
	/* http_timeout: 30 s unless said, from a second to an hour. */
	cfg = load_str("", &cause);
	assert_non_null(cfg);
	assert_int_equal(config_get_duration(cfg, "perfwatch",
	    "http_timeout"), 30);
	config_free(cfg);
	cfg = load_str("[perfwatch]\nhttp_timeout = 2m\n", &cause);
	assert_non_null(cfg);
	assert_int_equal(config_get_duration(cfg, "perfwatch",
	    "http_timeout"), 120);
	config_free(cfg);
	expect_errors("[perfwatch]\nhttp_timeout = 0\n",
	    "{P}:2: http_timeout: expected a duration from 1s to 1h, got "
	    "\"0\"");
	expect_errors("[perfwatch]\nhttp_timeout = 2h\n",
	    "{P}:2: http_timeout: expected a duration from 1s to 1h, got "
	    "\"2h\"");
}

static void
test_unknown_key(void **state)
{
	(void)state;
	expect_errors("[schedule]\ncolour = red\n",
	    "{P}:2: colour: unknown key in [schedule]");
	expect_errors("[workload \"db.oltp\"]\nrows = 10\n",
	    "{P}:2: rows: unknown key in [workload \"db.oltp\"]");
	/* A key of another section is unknown here, and said where it is. */
	expect_errors("[quiet]\nstate_dir = /x\n",
	    "{P}:2: state_dir: unknown key in [quiet]; it is a key of "
	    "[perfwatch]");
	expect_errors("[quiet]\nwork_dir = /x\n",
	    "{P}:2: work_dir: unknown key in [quiet]; it is a key of "
	    "[perfwatch] and [workload]");
	expect_errors("[detect]\ntimeout = 1m\n",
	    "{P}:2: timeout: unknown key in [detect]; it is a key of "
	    "[workload] and [sink]");
	/* A near miss of a key of the section: a typo, the closest named. */
	expect_errors("[workload \"x\"]\ncomand = true\niteratons = 3\n"
	    "Timeout = 5m\nwarmpu = 1\nthread = 1\n",
	    "{P}:2: comand: unknown key in [workload \"x\"]; did you mean "
	    "command?\n"
	    "{P}:3: iteratons: unknown key in [workload \"x\"]; did you mean "
	    "iterations?\n"
	    "{P}:4: Timeout: unknown key in [workload \"x\"]; did you mean "
	    "timeout?\n"
	    "{P}:5: warmpu: unknown key in [workload \"x\"]; did you mean "
	    "warmup?\n"
	    "{P}:6: thread: unknown key in [workload \"x\"]; did you mean "
	    "threads?");
	/* Short names take one typo; further is no near miss. */
	expect_errors("[sink \"s\"]\ntype = email\nti = a@example.org\n"
	    "frm = a@example.org\n",
	    "{P}:1: [sink \"s\"]: missing to, which a sink of type email "
	    "needs\n"
	    "{P}:3: ti: unknown key in [sink \"s\"]; did you mean to?\n"
	    "{P}:4: frm: unknown key in [sink \"s\"]; did you mean from?");
	expect_errors("[sink \"s\"]\ntype = log\nxyz = 1\n",
	    "{P}:3: xyz: unknown key in [sink \"s\"]");
}

static void
test_bad_integer(void **state)
{
	(void)state;
	expect_errors("[detect]\nbaseline_runs = ten\n",
	    "{P}:2: baseline_runs: expected an integer from 3 to 1000, "
	    "got \"ten\"");
	expect_errors("[detect]\nbaseline_runs = 10.5\n",
	    "{P}:2: baseline_runs: expected an integer from 3 to 1000, "
	    "got \"10.5\"");
}

static void
test_out_of_range(void **state)
{
	(void)state;
	expect_errors("[detect]\nbaseline_runs = 1001\n",
	    "{P}:2: baseline_runs: expected an integer from 3 to 1000, "
	    "got \"1001\"");
	expect_errors("[detect]\nbaseline_runs = -5\n",
	    "{P}:2: baseline_runs: expected an integer from 3 to 1000, "
	    "got \"-5\"");
	expect_errors("[detect]\nconfirm_runs = 99999999999999999999\n",
	    "{P}:2: confirm_runs: expected an integer from 1 to 20, "
	    "got \"99999999999999999999\"");
	expect_errors("[detect]\nfdr = 0.9\n",
	    "{P}:2: fdr: expected a number from 0.0001 to 0.5, got \"0.9\"");
	expect_errors("[quiet]\nmax_cpu_busy = 150%\n",
	    "{P}:2: max_cpu_busy: expected a percentage from 0 to 100, "
	    "got \"150%\"");
	expect_errors("[quiet]\nmax_load = 0x10\n",
	    "{P}:2: max_load: expected a number from 0 to 1024, "
	    "got \"0x10\"");
	expect_errors("[quiet]\nmax_load = 5%\n",
	    "{P}:2: max_load: expected a number from 0 to 1024, got \"5%\"");
	expect_errors("[quiet]\nlook = 0.01\n",
	    "{P}:2: look: expected a number from 0.1 to 60, got \"0.01\"");
	expect_errors("[quiet]\nlook = 2m\n",
	    "{P}:2: look: expected a number from 0.1 to 60, got \"2m\"");
	expect_errors("[quiet]\nmin_mem_available = 101\n",
	    "{P}:2: min_mem_available: expected a percentage from 0 to 100, "
	    "got \"101\"");
	expect_errors("[quiet]\nmax_swap_pages = -1\n",
	    "{P}:2: max_swap_pages: expected an integer from 0 to 1000000000, "
	    "got \"-1\"");
	expect_errors("[quiet]\nmax_runnable = many\n",
	    "{P}:2: max_runnable: expected a number from 0 to 1024, "
	    "got \"many\"");
	expect_errors("[quiet]\nmax_throttle_events = 1.5\n",
	    "{P}:2: max_throttle_events: expected an integer from 0 to "
	    "1000000000, got \"1.5\"");
}

static void
test_bad_bool(void **state)
{
	(void)state;
	expect_errors("[schedule]\ncatch_up = maybe\n",
	    "{P}:2: catch_up: expected yes, no, true, false, on, off, 1 or 0, "
	    "got \"maybe\"");
	expect_errors("[schedule]\ncatch_up = 2\n",
	    "{P}:2: catch_up: expected yes, no, true, false, on, off, 1 or 0, "
	    "got \"2\"");
}

static void
test_bad_duration(void **state)
{
	(void)state;
	expect_errors("[schedule]\njitter = 10 minutes\n",
	    "{P}:2: jitter: expected a duration such as 90s, 10m, 2h or 1d, "
	    "got \"10 minutes\"");
	expect_errors("[schedule]\njitter = 1m1h\n",
	    "{P}:2: jitter: expected units from largest to smallest, each "
	    "once, got \"1m1h\"");
	expect_errors("[schedule]\njitter = 2d\n",
	    "{P}:2: jitter: expected a duration from 0s to 1d, got \"2d\"");
	expect_errors("[schedule]\ninterval = 0s\n",
	    "{P}:2: interval: expected a duration from 1s to 30d, or none, "
	    "got \"0s\"");
	/* Too long to count is out of range, as a shorter excess is. */
	expect_errors("[schedule]\ninterval = 99999999999999999999d\n",
	    "{P}:2: interval: expected a duration from 1s to 30d, or none, "
	    "got \"99999999999999999999d\"");
	expect_errors("[workload \"x\"]\ntimeout = 9999999999999999999\n",
	    "{P}:2: timeout: expected a duration from 1s to 7d, got "
	    "\"9999999999999999999\"");
	expect_errors("[workload \"x\"]\ntimeout = 9999999999999999w\n",
	    "{P}:2: timeout: expected a duration from 1s to 7d, got "
	    "\"9999999999999999w\"");
}

static void
test_bad_cron(void **state)
{
	(void)state;
	expect_errors("[schedule]\ncron = 30 2 * *\n",
	    "{P}:2: cron: expected 5 fields (minute hour day month weekday), "
	    "@hourly, @daily or @weekly, or none, got 4 fields");
	expect_errors("[schedule]\ncron = 0 30 2 * * *\n",
	    "{P}:2: cron: expected 5 fields (minute hour day month weekday), "
	    "@hourly, @daily or @weekly, or none, got 6 fields");
	expect_errors("[schedule]\ncron = @yearly\n",
	    "{P}:2: cron: expected 5 fields (minute hour day month weekday), "
	    "@hourly, @daily or @weekly, or none, got \"@yearly\"");
	expect_errors("[schedule]\ncron = 30 2 * * $\n",
	    "{P}:2: cron: expected 5 fields (minute hour day month weekday), "
	    "@hourly, @daily or @weekly, or none, got \"30 2 * * $\"");
}

static void
test_cron_and_interval(void **state)
{
	(void)state;
	expect_errors("[schedule]\ncron = 0 3 * * *\ninterval = 90s\n",
	    "{P}:3: interval: expected cron or interval, not both "
	    "(cron at line 2)");
}

static void
test_duplicates(void **state)
{
	(void)state;
	expect_errors("[quiet]\nmax_wait = 10m\nmax_wait = 20m\n",
	    "{P}:3: max_wait: duplicate key (first at line 2)");
	/* A bad first value still makes the second one a duplicate. */
	expect_errors("[quiet]\nmax_wait = soon\nmax_wait = 20m\n",
	    "{P}:2: max_wait: expected a duration such as 90s, 10m, 2h or "
	    "1d, got \"soon\"\n"
	    "{P}:3: max_wait: duplicate key (first at line 2)");
	expect_errors("[quiet]\n\n[quiet]\npolicy = skip\n",
	    "{P}:3: [quiet]: duplicate section (first at line 1)");
	expect_errors("[sink \"a\"]\ntype = log\n[sink \"a\"]\ntype = log\n",
	    "{P}:3: [sink \"a\"]: duplicate section (first at line 1)");
}

static void
test_syntax(void **state)
{
	(void)state;
	expect_errors("state_dir = /x\n",
	    "{P}:1: state_dir: expected a [section] header before the first "
	    "key");
	/* What was found is shown: "expected key = value" alone was not. */
	expect_errors("[quiet]\npolicy wait\n", "{P}:2: expected key = value, "
	    "found no '=' in \"policy wait\"");
	expect_errors("[quiet]\n  policy\t# a comment\n",
	    "{P}:2: expected key = value, found no '=' in \"policy\"");
	/* A URL's password is not shown there either. */
	expect_errors("[sink \"ops\"]\ntype = webhook\n"
	    "url https://me:s3cret@example.org/x\n",
	    "{P}:1: [sink \"ops\"]: missing url, which a sink of type "
	    "webhook needs\n"
	    "{P}:3: expected key = value, found no '=' in "
	    "\"url https://me:***@example.org/x\"");
	expect_errors("wait\n", "{P}:1: expected key = value, found no '=' in "
	    "\"wait\"");
	expect_errors("[quiet]\nmax load = 1\n",
	    "{P}:2: \"max load\": expected key = value, the key made of "
	    "letters, digits and '_'; did you mean max_load?");
	/* A key spelt with '-', as other files spell theirs, is named. */
	expect_errors("[schedule]\ncatch-up = yes\n",
	    "{P}:2: \"catch-up\": expected key = value, the key made of "
	    "letters, digits and '_'; did you mean catch_up?");
	expect_errors("[triggers]\ndpkg-admin-dir = /var/lib/dpkg\n",
	    "{P}:2: \"dpkg-admin-dir\": expected key = value, the key made "
	    "of letters, digits and '_'; did you mean dpkg_admin_dir?");
	expect_errors("[schedule]\nmax-wait = 1m\n",
	    "{P}:2: \"max-wait\": expected key = value, the key made of "
	    "letters, digits and '_'; it is a key of [quiet]");
	expect_errors("[quiet]\n= 1\n",
	    "{P}:2: \"\": expected key = value, the key made of letters, "
	    "digits and '_'");
	expect_errors("[quiet\n", "{P}:1: expected [section] or "
	    "[section \"name\"]");
	expect_errors("[workload x]\n", "{P}:1: [workload x]: expected "
	    "[section] or [section \"name\"]");
	expect_errors("[workload \"a\"b\"]\n", "{P}:1: [workload \"a\"b\"]: "
	    "expected [section] or [section \"name\"]");
	expect_errors("[workload]\n", "{P}:1: [workload]: expected a name, "
	    "as in [workload \"name\"]");
	expect_errors("[schedule \"x\"]\n",
	    "{P}:1: [schedule \"x\"]: this section takes no name");
	expect_errors("[workload \"a b\"]\n", "{P}:1: [workload \"a b\"]: "
	    "expected a name of up to 64 letters, digits, '.', '_', '+' or "
	    "'-'");
	/* Keys of a rejected section are not reported again. */
	expect_errors("[bogus]\nx = 1\ny = 2\n[quiet]\npolicy = wait\n",
	    "{P}:1: [bogus]: unknown section");
}

static void
test_bad_values(void **state)
{
	(void)state;
	expect_errors("[perfwatch]\nstate_dir =\n",
	    "{P}:2: state_dir: expected an absolute path, got nothing");
	expect_errors("[perfwatch]\nstate_dir = var/lib\n",
	    "{P}:2: state_dir: expected an absolute path, got \"var/lib\"");
	/*
	 * A socket path longer than sun_path holds was taken, and perfwatchd
	 * -n said the configuration was OK; perfwatchd then could not bind
	 * it and perfwatch status could not reach it, neither saying where
	 * it was written.
	 */
	{
		struct config	*cfg;
		char		 conf[512], want[512], path[201], *cause;

		memset(path, 'a', sizeof(path) - 1);
		path[0] = '/';
		path[sizeof(path) - 1] = '\0';
		snprintf(conf, sizeof(conf), "[perfwatch]\nsocket = %s\n",
		    path);
		snprintf(want, sizeof(want), "{P}:2: socket: expected a path "
		    "of at most %zu bytes, a socket's limit, got 200 bytes: "
		    "\"%.*s...\"", sizeof(((struct sockaddr_un *)NULL)->
		    sun_path) - 1, CONFIG_SHOW_VALUE, path);
		expect_errors(conf, want);
		path[sizeof(((struct sockaddr_un *)NULL)->sun_path) - 1] =
		    '\0';
		snprintf(conf, sizeof(conf), "[perfwatch]\nsocket = %s\n",
		    path);
		cfg = load_text(conf, &cause);
		assert_non_null(cfg);
		assert_string_equal(config_get_str(cfg, "perfwatch",
		    "socket"), path);
		config_free(cfg);
	}
	expect_errors("[perfwatch]\nprofile =\n",
	    "{P}:2: profile: expected a value, got nothing");
	expect_errors("[quiet]\npolicy = sometimes\n",
	    "{P}:2: policy: expected wait, skip or annotate, "
	    "got \"sometimes\"");
	expect_errors("[workload \"x\"]\nsize = 12Q\n",
	    "{P}:2: size: expected a size such as 4096, 512M or 2G or a "
	    "multiple of RAM such as 2x, got \"12Q\"");
	expect_errors("[workload \"x\"]\nsize = 100x\n",
	    "{P}:2: size: expected a size such as 512M or a multiple of RAM "
	    "above 0 and up to 64 such as 2x, got \"100x\"");
	expect_errors("[workload \"x\"]\nsize = 0x\n",
	    "{P}:2: size: expected a size such as 512M or a multiple of RAM "
	    "above 0 and up to 64 such as 2x, got \"0x\"");
	expect_errors("[workload \"x\"]\nfsync_every = 1.5G\n",
	    "{P}:2: fsync_every: expected a size such as 4096, 512M or 2G, "
	    "got \"1.5G\"");
	/* Too large to count is out of range, as a smaller excess is. */
	expect_errors("[workload \"x\"]\nsize = 9000000000000000T\n",
	    "{P}:2: size: expected a size from 1M to 1024T, got "
	    "\"9000000000000000T\"");
	expect_errors("[workload \"x\"]\nfile_limit = "
	    "99999999999999999999\n",
	    "{P}:2: file_limit: expected a size from 0 to 1024T, got "
	    "\"99999999999999999999\"");
	expect_errors("[workload \"x\"]\nsize = 0\n",
	    "{P}:2: size: expected a size from 1M to 1024T, got \"0\"");
	expect_errors("[workload \"x\"]\nthreads = 1,,2\n",
	    "{P}:2: threads: expected integers from 1 to 4096 separated by "
	    "commas, got \"1,,2\"");
	expect_errors("[workload \"x\"]\nthreads = 1, 5000\n",
	    "{P}:2: threads: expected integers from 1 to 4096 separated by "
	    "commas, got \"1, 5000\"");
	expect_errors("[git \"x\"]\npath = /src\nworkloads = a,\n",
	    "{P}:3: workloads: expected names separated by commas, "
	    "got \"a,\"");
	/* A long value is quoted back shortened. */
	expect_errors("[quiet]\npolicy = "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "\n", "{P}:2: policy: expected wait, skip or annotate, got "
	    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\"");
}

static void
test_sinks_and_git(void **state)
{
	(void)state;
	/* A bad value is that error alone, not also a missing key. */
	expect_errors("[sink \"ops\"]\ntype = email\nto = ops@\n"
	    "sendmail = yes\n",
	    "{P}:3: to: expected addresses such as ops@example.org separated "
	    "by commas (a display name with a comma quoted: \"Doe, Jo\" "
	    "<jo@example.org>), got \"ops@\"");
	/* A display name's comma outside quotes, and a quote left open. */
	expect_errors("[sink \"ops\"]\ntype = email\nto = Doe, Jo "
	    "<jo@example.org>\nsendmail = yes\n",
	    "{P}:3: to: expected addresses such as ops@example.org separated "
	    "by commas (a display name with a comma quoted: \"Doe, Jo\" "
	    "<jo@example.org>), got \"Doe, Jo <jo@example.org>\"");
	expect_errors("[sink \"ops\"]\ntype = email\nto = \"Doe, Jo "
	    "<jo@example.org>\nsendmail = yes\n",
	    "{P}:3: to: expected addresses such as ops@example.org separated "
	    "by commas (a display name with a comma quoted: \"Doe, Jo\" "
	    "<jo@example.org>), got \"\"Doe, Jo <jo@example.org>\"");
	expect_errors("[sink \"ops\"]\ntype = pager\n",
	    "{P}:2: type: expected email, webhook or log, got \"pager\"");
	expect_errors("[sink \"ops\"]\ntype = email\nto = ops@example.org\n",
	    "{P}:1: [sink \"ops\"]: missing smtp_url (or sendmail = yes), "
	    "which a sink of type email needs");
	expect_errors("[sink \"ops\"]\ntype = email\nto = a@example.org\n"
	    "sendmail = yes\nurl = https://example.org/x\n",
	    "{P}:5: url: not used by a sink of type email, only by type "
	    "webhook");
	expect_errors("[sink \"h\"]\ntype = webhook\n",
	    "{P}:1: [sink \"h\"]: missing url, which a sink of type webhook "
	    "needs");
	expect_errors("[sink \"h\"]\nmin_state = suspected\n",
	    "{P}:1: [sink \"h\"]: missing type");
	expect_errors("[sink \"h\"]\ntype = webhook\nurl = ftp://example.org/\n",
	    "{P}:3: url: expected a URL starting with http:// or https://, "
	    "got \"ftp://example.org/\"");
	expect_errors("[sink \"m\"]\ntype = email\nto = a@example.org\n"
	    "smtp_url = smtp://mail.example.org:70000\n",
	    "{P}:4: smtp_url: expected a port from 1 to 65535 after the host, "
	    "got \"smtp://mail.example.org:70000\"");
	/* A password is not quoted back; a user, a host and the rest are. */
	expect_errors("[sink \"m\"]\ntype = email\nto = a@example.org\n"
	    "smtp_url = smtp://bot:s3cr@t@mail.example.org:70000/x@y\n",
	    "{P}:4: smtp_url: expected a port from 1 to 65535 after the host, "
	    "got \"smtp://bot:***@mail.example.org:70000/x@y\"");
	/*
	 * A '/', '?' or '#' of a password, written as it is, ends the host
	 * part early: the rest of the password is not shown either, and
	 * that is said rather than a wrong port.
	 */
	expect_errors("[sink \"m\"]\ntype = email\nto = a@example.org\n"
	    "smtp_url = smtp://ops:Secr/et@mail.example.org:587\n",
	    "{P}:4: smtp_url: expected a URL whose user and password write "
	    "'/', '?' and '#' as %2F, %3F and %23 (written as they are, they "
	    "end the host early), got \"smtp://ops:***@mail.example.org:587\"");
	expect_errors("[sink \"h\"]\ntype = webhook\n"
	    "url = https://bot:p?ss@hooks.example.org/x\n",
	    "{P}:3: url: expected a URL whose user and password write '/', "
	    "'?' and '#' as %2F, %3F and %23 (written as they are, they end "
	    "the host early), got \"https://bot:***@hooks.example.org/x\"");
	expect_errors("[sink \"h\"]\ntype = webhook\n"
	    "url = gopher://me:pw@example.org/\n",
	    "{P}:3: url: expected a URL starting with http:// or https://, "
	    "got \"gopher://me:***@example.org/\"");
	expect_errors("[sink \"h\"]\ntype = webhook\nurl = me:pw@example.org\n",
	    "{P}:3: url: expected a URL starting with http:// or https://, "
	    "got \"me:***@example.org\"");
	expect_errors("[sink \"m\"]\ntype = log\nfrom = Perf Watch\n",
	    "{P}:3: from: expected an address such as perfwatch@example.org, "
	    "got \"Perf Watch\"\n"
	    "{P}:3: from: not used by a sink of type log, only by type email");
	/* The name "log" is the built-in log sink's: of type log only. */
	expect_errors("[sink \"log\"]\ntype = webhook\n"
	    "url = http://a.example/\n",
	    "{P}:2: type: a sink named \"log\" takes the built-in log sink's "
	    "place, so its type must be log");
	/* timeout: email and webhook sinks only, 1 s to 10 min. */
	expect_errors("[sink \"m\"]\ntype = log\ntimeout = 30s\n",
	    "{P}:3: timeout: not used by a sink of type log, only by type "
	    "email or webhook");
	expect_errors("[sink \"h\"]\ntype = webhook\nurl = http://a.example/\n"
	    "timeout = 11m\n",
	    "{P}:4: timeout: expected a duration from 1s to 10m, got \"11m\"");
	expect_errors("[git \"linux\"]\nbranch = master\n",
	    "{P}:1: [git \"linux\"]: missing path");
}

static void
test_control_characters(void **state)
{
	static const char	 text[] = "[quiet]\npolicy = wa\0it\n";
	struct config		*cfg;
	char			*cause = NULL;

	(void)state;
	cfg = config_load_buffer("t.conf", text, sizeof(text) - 1, &cause);
	assert_null(cfg);
	assert_string_equal(cause, "t.conf:2: expected text, found a control "
	    "character (0x00) at byte 12 of the line");
	free(cause);

	cfg = load_str("[quiet]\r\npolicy = skip\rx\n", &cause);
	assert_null(cfg);
	assert_string_equal(cause, "t.conf:2: expected text, found a control "
	    "character (0x0d) at byte 14 of the line");
	free(cause);
}

/*
 * A byte that is not UTF-8 was taken, in a value, a key, a section name
 * or a comment: a Latin-1 "caf\xe9" reached the logs, the status JSON
 * and mail as it was, and an error quoting it was not UTF-8 either.
 */
static void
test_not_utf8(void **state)
{
	struct config	*cfg;
	char		*cause;

	(void)state;
	expect_errors("[git \"src\"]\npath = /srv/src\nbranch = caf\xe9\n",
	    "{P}:3: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 13 of the line");
	/* A comment of its own line is skipped, whatever its bytes. */
	expect_errors("[schedule]\n# r\xe9sum\xe9\njitter = 1m x\xe9\n",
	    "{P}:3: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 14 of the line");
	expect_errors("[workload \"caf\xe9\"]\ncommand = true\n",
	    "{P}:1: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 15 of the line");
	expect_errors("[perfwatch]\nprof\xe9le = x\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 5 of the line");
	/* The keys of a section refused so are not the section before's. */
	expect_errors("[quiet]\n[workload \"caf\xe9\"]\ncommand = true\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 15 of the line");
	expect_errors("[quiet]\n[workload \"a\x01\"]\ncommand = true\n",
	    "{P}:2: expected text, found a control character (0x01) at "
	    "byte 13 of the line");
	/* An overlong '/', a surrogate, a sequence cut by the line's end. */
	expect_errors("[perfwatch]\nuser = \xc0\xaf\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xc0) at "
	    "byte 8 of the line");
	expect_errors("[perfwatch]\nuser = a\xed\xa0\x80\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xed) at "
	    "byte 9 of the line");
	expect_errors("[perfwatch]\nuser = ab\xe2\x82\n[quiet]\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xe2) at "
	    "byte 10 of the line");
	/* One error per line, the first bad byte's. */
	expect_errors("[perfwatch]\nuser = \xff\xfe\ngroup = \xfe\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xff) at "
	    "byte 8 of the line\n"
	    "{P}:3: expected UTF-8 text, found an invalid byte (0xfe) at "
	    "byte 9 of the line");

	/* A C1 control in UTF-8 (U+009B starts a terminal's escape). */
	expect_errors("[detect]\nbaseline = a\xc2\x9b" "31mb\n",
	    "{P}:2: expected text, found a control character (U+009B) at "
	    "byte 13 of the line");
	expect_errors("[perfwatch]\nuser = x\xc2\x85\n",
	    "{P}:2: expected text, found a control character (U+0085) at "
	    "byte 9 of the line");
	/*
	 * A key on a line refused for its bytes, or for a value too long,
	 * is that error alone, not also "missing path".
	 */
	expect_errors("[git \"app\"]\npath = /srv/caf\xe9\n",
	    "{P}:2: expected UTF-8 text, found an invalid byte (0xe9) at "
	    "byte 16 of the line");

	/* UTF-8 is text, up to four bytes a character. */
	cfg = load_str("# r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x88\n"
	    "[git \"src\"]\npath = /srv/src\nbranch = caf\xc3\xa9\n", &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(cfg, "git src", "branch"),
	    "caf\xc3\xa9");
	config_free(cfg);
}

/*
 * Values take no quotes.  A quoted one was taken with its quotes by a
 * string key (a branch "\"main\"" that no repository has, seen only when
 * the daemon polled), or refused as got "\"debug\""; a quote left open
 * was taken too.  A shell command and an address may start with one.
 */
static void
test_quotes(void **state)
{
	struct config	*cfg;
	char		*cause;

	(void)state;
	expect_errors("[git \"src\"]\npath = /srv/src\nbranch = \"main\"\n",
	    "{P}:3: branch: expected a value without quotes, as in "
	    "\"branch = main\": a value is the rest of its line, quotes and "
	    "all");
	expect_errors("[perfwatch]\nprofile = \"quick\n",
	    "{P}:2: profile: found a quote that is not closed; expected a "
	    "value without quotes, as in \"profile = quick\"");
	expect_errors("[detect]\nbaseline = 'release'\n",
	    "{P}:2: baseline: expected a value without quotes, as in "
	    "\"baseline = release\": a value is the rest of its line, quotes "
	    "and all");
	expect_errors("[perfwatch]\nlog_level = \"debug\"\n",
	    "{P}:2: log_level: expected a value without quotes, as in "
	    "\"log_level = debug\": a value is the rest of its line, quotes "
	    "and all");
	expect_errors("[perfwatch]\nhttp = \"\"\nuser = ''\n",
	    "{P}:2: http: expected a value without quotes, or none, got only "
	    "quotes\n"
	    "{P}:3: user: expected a value without quotes, got only quotes");
	/* A token in a URL is not shown, quoted or not. */
	expect_errors("[sink \"h\"]\ntype = webhook\n"
	    "url = \"https://t0ken@hooks.example.org/x\"\n",
	    "{P}:3: url: expected a value without quotes, as in \"url = "
	    "https://***@hooks.example.org/x\": a value is the rest of its "
	    "line, quotes and all");
	/* A long value is shown shortened. */
	expect_errors("[git \"src\"]\npath = /srv/src\nbranch = \""
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n",
	    "{P}:3: branch: found a quote that is not closed; expected a "
	    "value without quotes, as in \"branch = "
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	    "...\"");
	/* A section name's quote left open. */
	expect_errors("[workload \"x]\ncommand = true\n",
	    "{P}:1: [workload \"x]: expected a '\"' to close the name, as in "
	    "[workload \"name\"]");
	expect_errors("[sink \"]\n",
	    "{P}:1: [sink \"]: expected a '\"' to close the name, as in "
	    "[sink \"name\"]");

	/* What may start with a quote still does. */
	cfg = load_str("[workload \"x\"]\ncommand = \"/opt/my bench/run\" -q\n"
	    "[sink \"m\"]\ntype = email\nsendmail = yes\n"
	    "from = \"Perf Watch\" <perfwatch@example.org>\n"
	    "to = \"Ops\" <ops@example.org>, dev@example.org\n", &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(cfg, "workload x", "command"),
	    "\"/opt/my bench/run\" -q");
	assert_string_equal(config_get_str(cfg, "sink m", "from"),
	    "\"Perf Watch\" <perfwatch@example.org>");
	config_free(cfg);
	/* And a quote inside a value is the value's. */
	cfg = load_str("[git \"src\"]\npath = /srv/src\nbranch = it's\n",
	    &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(cfg, "git src", "branch"), "it's");
	config_free(cfg);
}

static void
test_line_length(void **state)
{
	struct config	*cfg;
	char		 text[CONFIG_MAX_VALUE + 64], *cause, *want;
	const char	*to;

	(void)state;
	/* A value of CONFIG_MAX_VALUE bytes loads, far past inih's line. */
	snprintf(text, sizeof(text), "[git \"x\"]\npath   =   /%0*d\n",
	    CONFIG_MAX_VALUE - 1, 0);
	cfg = load_text(text, &cause);
	assert_non_null(cfg);
	assert_int_equal(strlen(config_get_str(cfg, "git x", "path")),
	    CONFIG_MAX_VALUE);
	config_free(cfg);

	/* Six recipients with their names: 230 bytes. */
	snprintf(text, sizeof(text), "[sink \"mail\"]\ntype = email\n"
	    "smtp_url = smtp://mail.example.org:25\nto = "
	    "Operations Team <ops@example.org>, Release Engineering "
	    "<release@example.org>, Kernel Performance <kperf@example.org>, "
	    "Storage Group <storage@example.org>, Database Administrators "
	    "<dba@example.org>, Build Farm <builds@example.org>\n");
	cfg = load_text(text, &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	to = config_get_str(cfg, "sink mail", "to");
	assert_non_null(strstr(to, "<dba@example.org>"));
	assert_true(strlen(to) > INI_MAX_LINE);
	config_free(cfg);

	/* A key past inih's line is unknown, and said in which section. */
	memset(text, 'k', sizeof(text));
	memcpy(text, "[quiet]\n", 8);
	memcpy(text + 8 + INI_MAX_LINE, " = 1\n", 6);
	xasprintf(&want, "{P}:2: %.40s...: unknown key in [quiet]", text + 8);
	expect_errors(text, want);
	free(want);

	snprintf(text, sizeof(text), "[git \"x\"]\npath = /%0*d\n",
	    CONFIG_MAX_VALUE, 0);
	/* That error alone: the path was written, not missing. */
	xasprintf(&want, "{P}:2: path: value too long, expected at most %d "
	    "bytes", CONFIG_MAX_VALUE);
	expect_errors(text, want);
	free(want);
}

static void
test_many_errors(void **state)
{
	char	*text, *tmp, *want;
	int	 i;

	(void)state;
	text = xstrdup("[quiet]\n");
	want = xstrdup("");
	for (i = 0; i < 25; i++) {
		xasprintf(&tmp, "%sbogus%d = 1\n", text, i);
		free(text);
		text = tmp;
		if (i < CONFIG_MAX_ERRORS) {
			xasprintf(&tmp, "%s{P}:%d: bogus%d: unknown key in "
			    "[quiet]\n", want, i + 2, i);
			free(want);
			want = tmp;
		}
	}
	xasprintf(&tmp, "%s{P}: 5 more errors not shown", want);
	free(want);
	expect_errors(text, tmp);
	free(tmp);
	free(text);
}

static void
test_missing_file(void **state)
{
	struct config	*cfg;
	char		*cause = NULL, *want, *fifo;

	(void)state;
	errno = 0;
	cfg = config_load("/nonexistent/perfwatch.conf", &cause);
	assert_null(cfg);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(cause, "/nonexistent/perfwatch.conf: No such file "
	    "or directory");
	free(cause);

	cfg = config_load(test_dir, &cause);
	assert_null(cfg);
	xasprintf(&want, "%s: expected a regular file of at most 1048576 "
	    "bytes", test_dir);
	assert_string_equal(cause, want);
	free(want);
	free(cause);

	/* A FIFO is refused as a directory is, not waited on for ever. */
	xasprintf(&fifo, "%s/fifo.conf", test_dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	cfg = config_load(fifo, &cause);
	assert_null(cfg);
	xasprintf(&want, "%s: expected a regular file of at most 1048576 "
	    "bytes", fifo);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	assert_int_equal(unlink(fifo), 0);
	free(fifo);
}

static void
test_defaults(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = config_default();
	assert_null(config_file(cfg));
	assert_string_equal(config_get_str(cfg, "perfwatch", "state_dir"),
	    "/var/lib/perfwatch");
	assert_string_equal(config_get_str(cfg, "perfwatch", "work_dir"),
	    "/var/tmp/perfwatch");
	assert_string_equal(config_get_str(cfg, "perfwatch", "profile"),
	    "nightly");
	assert_string_equal(config_get_str(cfg, "perfwatch", "user"),
	    "perfwatch");
	assert_string_equal(config_get_str(cfg, "perfwatch", "socket"),
	    "/run/perfwatch/perfwatchd.sock");
	assert_string_equal(config_get_str(cfg, "perfwatch", "log_level"),
	    "info");
	assert_string_equal(config_get_str(cfg, "schedule", "cron"),
	    "30 2 * * *");
	assert_null(config_get_str(cfg, "schedule", "interval"));
	assert_int_equal(config_get_duration(cfg, "schedule", "interval"), 0);
	assert_int_equal(config_get_duration(cfg, "schedule", "jitter"), 900);
	assert_int_equal(config_get_bool(cfg, "schedule", "catch_up"), 1);
	assert_string_equal(config_get_str(cfg, "quiet", "policy"), "wait");
	assert_int_equal(config_get_duration(cfg, "quiet", "max_wait"), 1800);
	assert_true(config_get_number(cfg, "quiet", "max_load") == 0.5);
	assert_true(config_get_number(cfg, "quiet", "max_cpu_busy") == 25.0);
	assert_true(config_get_number(cfg, "quiet", "look") == 1.0);
	/* As sysinfo_quiet_limits_default() has them. */
	assert_true(config_get_number(cfg, "quiet", "max_runnable") == 0.5);
	assert_int_equal(config_get_int(cfg, "quiet", "max_swap_pages"), 64);
	assert_true(config_get_number(cfg, "quiet", "min_mem_available") ==
	    10.0);
	assert_int_equal(config_get_int(cfg, "quiet", "max_throttle_events"),
	    0);
	assert_string_equal(config_get_str(cfg, "quiet", "lock"),
	    PERFWATCH_LOCK_DEFAULT);
	assert_int_equal(config_get_bool(cfg, "triggers", "packages"), 1);
	assert_int_equal(config_get_duration(cfg, "triggers",
	    "package_settle"), 600);
	assert_string_equal(config_get_str(cfg, "triggers", "dpkg_admin_dir"),
	    "/var/lib/dpkg");
	assert_int_equal(config_get_duration(cfg, "triggers", "boot_settle"),
	    300);
	assert_int_equal(config_get_bool(cfg, "triggers", "rerun_suspected"),
	    1);
	assert_string_equal(config_get_str(cfg, "detect", "baseline"),
	    "rolling");
	assert_int_equal(config_get_int(cfg, "detect", "baseline_runs"), 10);
	assert_true(config_get_number(cfg, "detect", "min_change") == 2.0);
	assert_true(config_get_number(cfg, "detect", "fdr") == 0.05);
	assert_int_equal(config_get_int(cfg, "detect", "confirm_runs"), 2);
	/* Named sections not in the file read as their defaults. */
	assert_int_equal(config_get_int(cfg, "workload", "iterations"), 5);
	assert_int_equal(config_get_int(cfg, "workload disk.bonnie",
	    "iterations"), 5);
	/* A timeout's default is the workload's own (wl_params_init). */
	assert_int_equal(config_get_duration(cfg, "workload x", "timeout"),
	    0);
	assert_int_equal(config_get_duration(cfg, "workload x", "grace"), 5);
	assert_int_equal(config_get_bool(cfg, "workload x", "destroy_data"),
	    0);
	assert_null(config_get_str(cfg, "workload x", "command"));
	assert_int_equal(config_get_size(cfg, "workload x", "size"), 0);
	assert_string_equal(config_get_str(cfg, "sink x", "sendmail_path"),
	    "/usr/sbin/sendmail");
	assert_int_equal(config_get_duration(cfg, "sink x", "max_age"),
	    2 * 86400);
	assert_string_equal(config_get_str(cfg, "git x", "branch"), "main");
	assert_int_equal(config_is_set(cfg, "perfwatch", "state_dir"), 0);
	assert_null(config_sections(cfg, "workload", 0));
	config_free(cfg);
}

static void
test_values(void **state)
{
	static const char	 text[] =
	    "[perfwatch]\n"
	    "state_dir = /srv/perfwatch\n"
	    "log_level = debug\n"
	    "[schedule]\n"
	    "interval = 90s\n"
	    "jitter = 1h30m\n"
	    "catch_up = off\n"
	    "[quiet]\n"
	    "policy = annotate\n"
	    "max_load = 1.25\n"
	    "max_cpu_busy = 30%\n"
	    "max_runnable = 2\n"
	    "max_swap_pages = 0\n"
	    "min_mem_available = 5%\n"
	    "max_throttle_events = 3\n"
	    "[detect]\n"
	    "min_change = 5\n"
	    "fdr = 0.01\n"
	    "[workload \"db.oltp\"]\n"
	    "threads = 1, 2,4 8\n"
	    "table_size = 100000\n"
	    "size = 512M\n"
	    "fsync_every = 0\n"
	    "[workload \"disk.bonnie\"]\n"
	    "size = 2x\n"
	    "iterations = 3\n"
	    "direct = TRUE\n"
	    "[sink \"ops\"]\n"
	    "type = email\n"
	    "to = Ops Team <ops@example.org>, dev@example.org, "
	    "\"Doe, \\\"Jo\\\"\" <jo@example.org>\n"
	    "from = perfwatch@host.example.org\n"
	    "sendmail = yes\n"
	    "[git \"linux\"]\n"
	    "path = /srv/src/linux\n"
	    "workloads = sys.* disk.*\n";
	struct config	*cfg;
	char		*cause, **list;
	int64_t		*ints;
	size_t		 n;

	(void)state;
	cfg = load_text(text, &cause);
	assert_non_null(cfg);
	assert_string_equal(config_file(cfg), test_path);
	assert_string_equal(config_get_str(cfg, "perfwatch", "state_dir"),
	    "/srv/perfwatch");
	assert_int_equal(config_is_set(cfg, "perfwatch", "state_dir"), 1);
	assert_int_equal(config_is_set(cfg, "perfwatch", "work_dir"), 0);
	assert_string_equal(config_get_str(cfg, "perfwatch", "log_level"),
	    "debug");
	/* An interval alone replaces the default cron. */
	assert_int_equal(config_get_duration(cfg, "schedule", "interval"), 90);
	assert_null(config_get_str(cfg, "schedule", "cron"));
	assert_int_equal(config_get_duration(cfg, "schedule", "jitter"), 5400);
	assert_int_equal(config_get_bool(cfg, "schedule", "catch_up"), 0);
	assert_true(config_get_number(cfg, "quiet", "max_load") == 1.25);
	assert_true(config_get_number(cfg, "quiet", "max_cpu_busy") == 30.0);
	assert_true(config_get_number(cfg, "quiet", "max_runnable") == 2.0);
	assert_int_equal(config_get_int(cfg, "quiet", "max_swap_pages"), 0);
	assert_true(config_get_number(cfg, "quiet", "min_mem_available") ==
	    5.0);
	assert_int_equal(config_get_int(cfg, "quiet", "max_throttle_events"),
	    3);
	assert_true(config_get_number(cfg, "detect", "min_change") == 5.0);
	assert_true(config_get_number(cfg, "detect", "fdr") == 0.01);

	ints = config_get_intlist(cfg, "workload db.oltp", "threads", &n);
	assert_int_equal(n, 4);
	assert_int_equal(ints[0], 1);
	assert_int_equal(ints[1], 2);
	assert_int_equal(ints[2], 4);
	assert_int_equal(ints[3], 8);
	free(ints);
	assert_int_equal(config_get_int(cfg, "workload db.oltp", "table_size"),
	    100000);
	assert_int_equal(config_get_size(cfg, "workload db.oltp", "size"),
	    512LL * 1024 * 1024);
	assert_true(config_get_ram_multiple(cfg, "workload db.oltp", "size") ==
	    0);
	assert_int_equal(config_is_set(cfg, "workload db.oltp", "fsync_every"),
	    1);
	assert_int_equal(config_get_size(cfg, "workload db.oltp",
	    "fsync_every"), 0);
	assert_int_equal(config_get_int(cfg, "workload db.oltp", "iterations"),
	    5);
	assert_int_equal(config_get_int(cfg, "workload disk.bonnie",
	    "iterations"), 3);
	assert_true(config_get_ram_multiple(cfg, "workload disk.bonnie",
	    "size") == 2.0);
	assert_int_equal(config_get_size(cfg, "workload disk.bonnie", "size"),
	    0);
	assert_int_equal(config_get_bool(cfg, "workload disk.bonnie",
	    "direct"), 1);
	ints = config_get_intlist(cfg, "workload disk.bonnie", "threads", &n);
	assert_int_equal(n, 0);
	free(ints);

	assert_string_equal(config_sections(cfg, "workload", 0), "db.oltp");
	assert_string_equal(config_sections(cfg, "workload", 1),
	    "disk.bonnie");
	assert_null(config_sections(cfg, "workload", 2));
	assert_string_equal(config_sections(cfg, "sink", 0), "ops");
	assert_null(config_sections(cfg, "sink", 1));
	assert_string_equal(config_sections(cfg, "git", 0), "linux");
	assert_null(config_sections(cfg, "schedule", 0));

	list = config_get_list(cfg, "sink ops", "to");
	assert_string_equal(list[0], "Ops Team <ops@example.org>");
	assert_string_equal(list[1], "dev@example.org");
	/* A quoted display name keeps its comma, and its escaped quotes. */
	assert_string_equal(list[2], "\"Doe, \\\"Jo\\\"\" <jo@example.org>");
	assert_null(list[3]);
	config_list_free(list);
	assert_int_equal(config_get_bool(cfg, "sink ops", "sendmail"), 1);
	list = config_get_list(cfg, "git linux", "workloads");
	assert_string_equal(list[0], "sys.*");
	assert_string_equal(list[1], "disk.*");
	assert_null(list[2]);
	config_list_free(list);
	list = config_get_list(cfg, "git nosuch", "workloads");
	assert_null(list[0]);
	config_list_free(list);
	config_free(cfg);
}

static void
test_accepted_syntax(void **state)
{
	static const char	 text[] =
	    "\xef\xbb\xbf# a comment\r\n"
	    "; another\r\n"
	    "  [ schedule ]   # after a header\r\n"
	    "cron=@daily\r\n"
	    "\tjitter\t=\t5m\t; inline\r\n"
	    "  catch_up = YES # inline\r\n"
	    "[quiet]\n"
	    "policy = skip\t#tab then comment\n"
	    "[workload \"x\"]\n"
	    "command = echo a;b#c\n"
	    "[sink \"s\"]\n"
	    "type = email\n"
	    "to = a@example.org\n"
	    "smtp_url = smtps://user@[::1]:465/\n"
	    "[sink \"t\"]\n"
	    "type = webhook\n"
	    "url = https://hooks.example.org/x?y=1#z\n"
	    "[schedule]";
	struct config	*cfg;
	char		*cause = NULL;

	(void)state;
	/* The last line repeats [schedule]: drop it for the good file. */
	cfg = config_load_buffer("t.conf", text, sizeof(text) - 1 - 10,
	    &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(cfg, "schedule", "cron"), "@daily");
	assert_int_equal(config_get_duration(cfg, "schedule", "jitter"), 300);
	assert_int_equal(config_get_bool(cfg, "schedule", "catch_up"), 1);
	assert_string_equal(config_get_str(cfg, "quiet", "policy"), "skip");
	assert_string_equal(config_get_str(cfg, "sink s", "smtp_url"),
	    "smtps://user@[::1]:465/");
	assert_string_equal(config_get_str(cfg, "sink t", "url"),
	    "https://hooks.example.org/x?y=1#z");
	config_free(cfg);

	cfg = config_load_buffer("t.conf", text, sizeof(text) - 1, &cause);
	assert_null(cfg);
	assert_string_equal(cause, "t.conf:18: [schedule]: duplicate section "
	    "(first at line 3)");
	free(cause);

	/* '#' not after a blank is part of the value. */
	cfg = load_str("[workload \"x\"]\ncommand = echo a;b#c\n", &cause);
	assert_non_null(cfg);
	assert_string_equal(config_get_str(cfg, "workload x", "command"),
	    "echo a;b#c");
	config_free(cfg);

	cfg = load_str("[schedule]\ncron = */15 8-18 * * MON-FRI\n", &cause);
	assert_non_null(cfg);
	assert_string_equal(config_get_str(cfg, "schedule", "cron"),
	    "*/15 8-18 * * MON-FRI");
	config_free(cfg);

	/* An empty file is the defaults. */
	cfg = load_str("", &cause);
	assert_non_null(cfg);
	assert_string_equal(config_get_str(cfg, "schedule", "cron"),
	    "30 2 * * *");
	config_free(cfg);
}

static void
test_none(void **state)
{
	struct config	*cfg;
	char		*cause;

	(void)state;
	cfg = load_text("[schedule]\ncron = none\ninterval = none\n", &cause);
	assert_non_null(cfg);
	assert_null(config_get_str(cfg, "schedule", "cron"));
	assert_null(config_get_str(cfg, "schedule", "interval"));
	assert_int_equal(config_is_set(cfg, "schedule", "cron"), 1);
	config_free(cfg);
	/* "none" is a word only where the schema allows it. */
	cfg = load_text("[git \"x\"]\npath = /x\nbuild = none\n", &cause);
	assert_non_null(cfg);
	assert_string_equal(config_get_str(cfg, "git x", "build"), "none");
	config_free(cfg);
	cfg = load_text("[schedule]\ncron = none\ninterval = 10m\n", &cause);
	assert_non_null(cfg);
	assert_int_equal(config_get_duration(cfg, "schedule", "interval"),
	    600);
	config_free(cfg);
}

/* Dump cfg into an allocated string. */
static char *
dump_string(const struct config *cfg)
{
	FILE	*fp;
	char	*buf = NULL;
	size_t	 len = 0;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(config_dump(cfg, fp), 0);
	fclose(fp);
	return buf;
}

/*
 * A shell command's value is the rest of its line: " ;" and " #" there
 * are the shell's, not the start of a comment that would cut it.  Every
 * other line still takes an inline comment.
 */
static void
test_shell_command_comments(void **state)
{
	static const char	 text[] =
	    "[workload \"x\"]   ; a header's comment\n"
	    "command = make -C src ; ./bench --json\n"
	    "iterations = 3 ; three\n"
	    "measure = time\t# by the clock\n"
	    "enabled = yes ; command = not this one\n"
	    "[workload \"y\"]\n"
	    "command\t= echo \"a #b\" # the shell's comment\n"
	    "[git \"k\"]\n"
	    "path = /src/linux # the tree\n"
	    "build = make -j8 ; make modules\n";
	struct config	*cfg, *again;
	char		*cause = NULL, *dump;

	(void)state;
	cfg = load_str(text, &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(cfg, "workload x", "command"),
	    "make -C src ; ./bench --json");
	assert_int_equal(config_get_int(cfg, "workload x", "iterations"), 3);
	assert_string_equal(config_get_str(cfg, "workload x", "measure"),
	    "time");
	assert_int_equal(config_get_bool(cfg, "workload x", "enabled"), 1);
	assert_string_equal(config_get_str(cfg, "workload y", "command"),
	    "echo \"a #b\" # the shell's comment");
	assert_string_equal(config_get_str(cfg, "git k", "path"),
	    "/src/linux");
	assert_string_equal(config_get_str(cfg, "git k", "build"),
	    "make -j8 ; make modules");

	/* A dump reads back the same commands. */
	dump = dump_string(cfg);
	again = load_str(dump, &cause);
	if (again == NULL)
		fail_msg("%s", cause);
	assert_string_equal(config_get_str(again, "workload x", "command"),
	    "make -C src ; ./bench --json");
	assert_string_equal(config_get_str(again, "git k", "build"),
	    "make -j8 ; make modules");
	config_free(again);
	free(dump);
	config_free(cfg);

	/* Only a key of the schema's commands: elsewhere, a comment. */
	expect_errors("[schedule]\ncommand = a ; b\n",
	    "{P}:2: command: unknown key in [schedule]; it is a key of "
	    "[workload]");
	/* A value that is only a comment is still none. */
	expect_errors("[workload \"x\"]\ncommand =  # to do\n",
	    "{P}:2: command: expected a value, got nothing");
}

/* Read a file of the checkout into an allocated string. */
static char *
read_top_file(const char *rel, size_t *lenp)
{
	const char	*top = getenv("PERFWATCH_TOP");
	char		*path, *buf;
	FILE		*fp;
	long		 len;

	xasprintf(&path, "%s/%s", top != NULL ? top : ".", rel);
	fp = fopen(path, "r");
	if (fp == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	len = ftell(fp);
	rewind(fp);
	buf = xmalloc(len + 1);
	assert_int_equal(fread(buf, 1, len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	free(path);
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* The sample file with every "#key = value" and "#[...]" line enabled. */
static char *
sample_uncommented(void)
{
	char	*text, *out, *line, *save = NULL;
	size_t	 o = 0, n;

	text = read_top_file("etc/perfwatch.conf", &n);
	out = xmalloc(n + 1);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' && (line[1] == '[' ||
		    (line[1] >= 'a' && line[1] <= 'z')))
			line++;
		o += sprintf(out + o, "%s\n", line);
	}
	out[o] = '\0';
	free(text);
	return out;
}

static void
test_dump_round_trip(void **state)
{
	struct config	*cfg, *again;
	char		*text, *d1, *d2, *cause = NULL;
	const char	*p;

	(void)state;
	cfg = config_default();
	d1 = dump_string(cfg);
	assert_true(strncmp(d1, "[perfwatch]\nstate_dir = /var/lib/perfwatch\n"
	    "work_dir = /var/tmp/perfwatch\n", 73) == 0);
	assert_non_null(strstr(d1, "\n\n[schedule]\ncron = 30 2 * * *\n"
	    "interval = none\njitter = 15m\ncatch_up = yes\n\n[quiet]\n"));
	free(d1);
	config_free(cfg);

	text = sample_uncommented();
	cfg = config_load_buffer("sample", text, strlen(text), &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	d1 = dump_string(cfg);
	again = config_load_buffer("dump", d1, strlen(d1), &cause);
	if (again == NULL)
		fail_msg("%s", cause);
	d2 = dump_string(again);
	assert_string_equal(d1, d2);
	/* A sink shows only the keys of its type. */
	assert_non_null(strstr(d1, "[sink \"hook\"]\ntype = webhook\n"
	    "min_state = confirmed\nmax_age = 2d\ntimeout = 2m\n"
	    "url = https://hooks.example.org/perfwatch\n"));
	/* And a log sink no timeout, which only the other two use. */
	p = strstr(d1, "[sink \"syslog\"]\ntype = log\n"
	    "min_state = confirmed\nmax_age = 2d\n");
	assert_non_null(p);
	assert_null(strstr(p, "timeout"));
	free(d1);
	free(d2);
	free(text);
	config_free(cfg);
	config_free(again);
}

static void
test_check(void **state)
{
	FILE	*fp;
	char	*buf = NULL, *want, *cause;
	size_t	 len = 0;
	struct config *cfg;

	(void)state;
	cfg = load_text("[quiet]\npolicy = skip\n", &cause);
	assert_non_null(cfg);
	config_free(cfg);
	fp = open_memstream(&buf, &len);
	assert_int_equal(config_check(test_path, fp, 0), 0);
	fclose(fp);
	xasprintf(&want, "%s: configuration OK\n", test_path);
	assert_string_equal(buf, want);
	free(want);
	free(buf);

	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_int_equal(config_check(test_path, fp, 1), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\n[quiet]\npolicy = skip\n"));
	free(buf);

	cfg = load_text("[quiet]\npolicy = never\nmax_load = -1\n", &cause);
	assert_null(cfg);
	free(cause);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_int_equal(config_check(test_path, fp, 1), -1);
	fclose(fp);
	want = with_path("{P}:2: policy: expected wait, skip or annotate, "
	    "got \"never\"\n{P}:3: max_load: expected a number from 0 to "
	    "1024, got \"-1\"\n");
	assert_string_equal(buf, want);
	free(want);
	free(buf);
}

static void
test_schema(void **state)
{
	struct config_value	 v;
	char			*what;
	size_t			 i, j;

	(void)state;
	for (i = 0; i < nitems(config_keys); i++) {
		/* Every key is in a known section, once. */
		assert_non_null(config_find_type(config_keys[i].section,
		    strlen(config_keys[i].section)));
		for (j = i + 1; j < nitems(config_keys); j++)
			assert_false(strcmp(config_keys[i].section,
			    config_keys[j].section) == 0 &&
			    strcmp(config_keys[i].key, config_keys[j].key) == 0);
		if (config_keys[i].def == NULL)
			continue;
		memset(&v, 0, sizeof(v));
		if (config_parse_value(&config_keys[i], config_keys[i].def,
		    &v, &what) == -1)
			fail_msg("%s.%s: %s", config_keys[i].section,
			    config_keys[i].key, what);
		free(v.str);
	}
}

/* The [section] a sample or manual line opens, or NULL. */
static const char *
section_of(const char *line, const char *prefix, char *buf, size_t len)
{
	size_t	 n;

	if (strncmp(line, prefix, strlen(prefix)) != 0)
		return NULL;
	line += strlen(prefix);
	n = strspn(line, "abcdefghijklmnopqrstuvwxyz");
	if (n == 0 || n >= len)
		return NULL;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

static void
test_sample_in_step(void **state)
{
	char		*text, *line, *save = NULL, sec[32], *found, *end;
	const char	*cur = "";
	const struct config_key *k;
	size_t		 i, klen;

	(void)state;
	text = read_top_file("etc/perfwatch.conf", NULL);
	found = xcalloc(nitems(config_keys), 1);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			line++;
		if (section_of(line, "[", sec, sizeof(sec)) != NULL) {
			cur = sec;
			continue;
		}
		for (i = 0; i < nitems(config_keys); i++) {
			k = &config_keys[i];
			klen = strlen(k->key);
			if (strcmp(k->section, cur) != 0 ||
			    strncmp(line, k->key, klen) != 0 ||
			    strncmp(line + klen, " = ", 3) != 0)
				continue;
			found[i] = 1;
			/* Unnamed sections show their defaults. */
			if (!config_find_type(cur, strlen(cur))->named &&
			    (k->def == NULL ||
			    strcmp(line + klen + 3, k->def) != 0))
				fail_msg("sample: %s.%s shows \"%s\", default "
				    "\"%s\"", cur, k->key, line + klen + 3,
				    k->def != NULL ? k->def : "(none)");
		}
	}
	for (i = 0; i < nitems(config_keys); i++)
		if (!found[i])
			fail_msg("sample: no %s.%s", config_keys[i].section,
			    config_keys[i].key);
	free(found);
	free(text);

	/*
	 * The named sections' values are examples (char_size = 256M is
	 * none's default): the manual's FILES says so of the sample, which
	 * it called "every key at its default".
	 */
	text = read_top_file("man/perfwatch.conf.5", NULL);
	if ((line = strstr(text, "\n.It Pa /usr/share/perfwatch/perfwatch.conf"
	    "\n")) == NULL)
		fail_msg("manual: FILES has no sample");
	line = strchr(line + 1, '\n') + 1;
	if ((end = strstr(line, "\n.El")) != NULL)
		*end = '\0';
	for (end = line; *end != '\0'; end++)
		if (*end == '\n')
			*end = ' ';
	if (strstr(line, "every key at its default.") != NULL ||
	    strstr(line, "and examples of the named sections") == NULL)
		fail_msg("manual: the sample is \"%s\"", line);
	free(text);
}

/* The value kind of key k as its manual item's .It line writes it. */
static char *
manual_kind(const struct config_key *k)
{
	const char	*base = NULL, *p;
	char		*words = NULL, *out;
	size_t		 n;

	switch (k->type) {
	case CONFIG_STRING:
		base = "Ar string";
		break;
	case CONFIG_PATH:
		base = "Ar path";
		break;
	case CONFIG_BOOL:
		base = "Ar boolean";
		break;
	case CONFIG_INT:
		base = "Ar integer";
		break;
	case CONFIG_NUMBER:
		base = "Ar number";
		break;
	case CONFIG_DURATION:
		base = "Ar duration";
		break;
	case CONFIG_SIZE:
		base = (k->flags & CONFIG_RAM) ?
		    "Ar size | Ar number Ns Cm x" : "Ar size";
		break;
	case CONFIG_ENUM:
		/* "a b c" as "Cm a | b | c". */
		words = xstrdup("Cm ");
		for (p = k->words; *p != '\0'; p += strspn(p, " ")) {
			n = strcspn(p, " ");
			xasprintf(&out, "%s%s%.*s", words, p == k->words ? "" :
			    " | ", (int)n, p);
			free(words);
			words = out;
			p += n;
		}
		base = words;
		break;
	case CONFIG_CRON:
		base = "Ar cron";
		break;
	case CONFIG_EMAIL:
		base = "Ar address";
		break;
	case CONFIG_EMAILS:
		base = "Ar address , ...";
		break;
	case CONFIG_URL:
		base = "Ar url";
		break;
	case CONFIG_LIST:
	case CONFIG_INTLIST:
		base = "Ar list";
		break;
	case CONFIG_LISTEN:
		base = "Ar address:port";
		break;
	}
	assert_non_null(base);
	xasprintf(&out, "%s%s", base, (k->flags & CONFIG_NONE) ?
	    " | Cm none" : "");
	free(words);
	return out;
}

/*
 * The range of key k as its manual item must say it ("from 1 to 20",
 * "up to 1d"), in lower case; NULL when the kind has none.
 */
static char *
manual_range(const struct config_key *k)
{
	char	 lo[32], hi[32], *out = NULL;

	switch (k->type) {
	case CONFIG_INT:
	case CONFIG_INTLIST:
		xasprintf(&out, "from %lld to %lld", (long long)k->min,
		    (long long)k->max);
		break;
	case CONFIG_NUMBER:
		xasprintf(&out, "from %g to %g", k->fmin, k->fmax);
		break;
	case CONFIG_DURATION:
	case CONFIG_SIZE:
		if (k->type == CONFIG_DURATION) {
			timefmt_format_duration(k->min, lo, sizeof(lo));
			timefmt_format_duration(k->max, hi, sizeof(hi));
		} else {
			config_format_size(k->min, lo, sizeof(lo));
			config_format_size(k->max, hi, sizeof(hi));
		}
		if (k->min == 0)
			xasprintf(&out, "up to %s", hi);
		else
			xasprintf(&out, "from %s to %s", lo, hi);
		break;
	case CONFIG_PATH:
		if (k->max > 0)
			xasprintf(&out, "%lld bytes", (long long)k->max);
		break;
	default:
		break;
	}
	return out;
}

/*
 * What is wrong with the manual's item (its lines) for key k: its kind,
 * its range or its default not the schema's.  NULL, or why (allocated).
 */
static char *
manual_item_check(const struct config_key *k, const char *item)
{
	char		*kind, *head, *text, *range, *def, *why = NULL, *q;
	const char	*after;
	size_t		 n;

	/* The .It line: ".It Ic key Ns = Ns KIND". */
	kind = manual_kind(k);
	n = strcspn(item, "\n");
	xasprintf(&head, ".It Ic %s Ns = Ns %s", k->key, kind);
	if (strlen(head) != n || strncmp(item, head, n) != 0) {
		free(head);
		/* A string with a word of its own: "Cm rolling | Ar name". */
		xasprintf(&head, ".It Ic %s Ns = Ns Cm %s | Ar name", k->key,
		    k->def != NULL ? k->def : "");
		if (k->type != CONFIG_STRING || k->def == NULL ||
		    strlen(head) != n || strncmp(item, head, n) != 0)
			xasprintf(&why, "is \"%.*s\", not of kind \"%s\"",
			    (int)n, item, kind);
	}
	free(head);
	free(kind);
	if (why != NULL)
		return why;

	/* The rest as one line of lower case. */
	text = xstrdup(item + n);
	for (q = text; *q != '\0'; q++)
		*q = *q == '\n' ? ' ' : (char)tolower((unsigned char)*q);
	if ((range = manual_range(k)) != NULL) {
		def = xstrdup(range);
		for (q = def; *q != '\0'; q++)
			*q = (char)tolower((unsigned char)*q);
		if (strstr(text, def) == NULL)
			xasprintf(&why, "does not say \"%s\"", range);
		free(def);
	}
	free(range);
	if (why == NULL && k->def != NULL) {
		def = xstrdup(k->def);
		for (q = def; *q != '\0'; q++)
			*q = (char)tolower((unsigned char)*q);
		if ((after = strstr(text, "the default is")) == NULL ||
		    strstr(after, def) == NULL)
			xasprintf(&why, "does not say \"The default is %s\"",
			    k->def);
		free(def);
	} else if (why == NULL && strstr(text, "the default is") == NULL &&
	    strstr(text, "no default") == NULL &&
	    strstr(text, "required") == NULL)
		why = xstrdup("says neither its default, nor \"No default\", "
		    "nor \"Required\"");
	free(text);
	return why;
}

/*
 * perfwatch.conf(5) and the schema, both ways: every key of the schema
 * is described once in its section, and every key described is in the
 * schema, as the kind the parser reads, with the range it takes and its
 * default.  Each key wrong is listed before the test fails.  The range
 * was missing or in other words for six keys (http_timeout "from 1
 * second to 1 hour", build_timeout "at most a week", the sizes of
 * [workload] with no maximum).
 */
static void
test_manual_in_step(void **state)
{
	char		*text, *line, *save = NULL, sec[32], key[64];
	char		*item = NULL, *tmp, *why;
	const char	*cur = "";
	int		*found;
	int		 ki = -1, wrong = 0;
	size_t		 i, n;

	(void)state;
	text = read_top_file("man/perfwatch.conf.5", NULL);
	found = xcalloc(nitems(config_keys), sizeof(*found));
	for (line = strtok_r(text, "\n", &save); ; line = strtok_r(NULL, "\n",
	    &save)) {
		/* An item ends at the next item, list end or heading. */
		if (ki != -1 && (line == NULL || strncmp(line, ".It", 3) == 0 ||
		    strncmp(line, ".El", 3) == 0 ||
		    strncmp(line, ".S", 2) == 0)) {
			if ((why = manual_item_check(&config_keys[ki],
			    item)) != NULL) {
				print_message("manual: %s.%s %s\n", cur,
				    config_keys[ki].key, why);
				free(why);
				wrong++;
			}
			found[ki]++;
			free(item);
			item = NULL;
			ki = -1;
		}
		if (line == NULL)
			break;
		if (strncmp(line, ".S", 2) == 0) {
			if (section_of(line, ".Ss [", sec, sizeof(sec)) != NULL)
				cur = sec;
			else
				cur = "";
			continue;
		}
		if (ki != -1) {
			xasprintf(&tmp, "%s\n%s", item, line);
			free(item);
			item = tmp;
			continue;
		}
		if (*cur == '\0' || strncmp(line, ".It Ic ", 7) != 0)
			continue;
		n = strcspn(line + 7, " ");
		assert_true(n < sizeof(key));
		memcpy(key, line + 7, n);
		key[n] = '\0';
		if ((ki = config_find_key(cur, key)) == -1)
			fail_msg("manual: %s.%s is not in the schema", cur, key);
		item = xstrdup(line);
	}
	for (i = 0; i < nitems(config_keys); i++)
		if (found[i] != 1)
			fail_msg("manual: %s.%s described %d times",
			    config_keys[i].section, config_keys[i].key,
			    found[i]);
	free(found);
	free(text);
	if (wrong > 0)
		fail_msg("manual: %d keys not as the schema has them", wrong);
}

/*
 * The item of value kind kind in the manual's Values list (".It Ar
 * kind" to the next item), its lines joined by blanks; NULL if none.
 */
static char *
manual_value_item(const char *text, const char *kind)
{
	char		 head[32];
	const char	*p, *end;
	char		*item, *q;

	snprintf(head, sizeof(head), "\n.It Ar %s\n", kind);
	if ((p = strstr(text, ".Ss Values")) == NULL ||
	    (p = strstr(p, head)) == NULL)
		return NULL;
	p += strlen(head);
	if ((end = strstr(p, "\n.It ")) == NULL)
		end = p + strlen(p);
	item = xstrndup(p, (size_t)(end - p));
	for (q = item; *q != '\0'; q++)
		if (*q == '\n')
			*q = ' ';
	return item;
}

/*
 * A duration and a size are whole numbers with their unit: 1.5h and
 * 1.5G are refused, as 1h30m and 1536M are taken.  perfwatch.conf(5)
 * says so; it said "numbers" and "a number", which its own Values list
 * defines as decimal ("0.5").
 */
static void
test_manual_values(void **state)
{
	char		*text, *item;
	const char	*err, *why;
	int64_t		 v;

	(void)state;
	assert_int_equal(timefmt_parse_duration("1h30m", &v, &err), 0);
	assert_int_equal(v, 5400);
	assert_int_equal(timefmt_parse_duration("1.5h", &v, &err), -1);
	assert_int_equal(config_parse_size("1536M", &v), 0);
	assert_int_equal(v, 1536 * MIB);
	assert_int_equal(config_parse_size("1.5G", &v), -1);
	assert_int_equal(config_parse_size("512m", &v), 0);
	assert_int_equal(v, 512 * MIB);
	expect_errors("[workload \"disk.stream\"]\nsize = 1.5G\n",
	    "{P}:2: size: expected a size such as 4096, 512M or 2G or a "
	    "multiple of RAM such as 2x, got \"1.5G\"");

	text = read_top_file("man/perfwatch.conf.5", NULL);
	item = manual_value_item(text, "duration");
	assert_non_null(item);
	if (strstr(item, "whole numbers each followed by a unit") == NULL)
		fail_msg("manual: a duration: %s", item);
	free(item);
	item = manual_value_item(text, "size");
	assert_non_null(item);
	why = NULL;
	if (strstr(item, "a whole number followed by") == NULL)
		why = "not said to be a whole number";
	else if (strstr(item, "lower case too") == NULL)
		why = "512m not said to be taken";
	if (why != NULL)
		fail_msg("manual: a size: %s: %s", why, item);
	free(item);
	free(text);
}

/* A profile's sections: [workload] ones only, the others each refused. */
static void
test_only_sections(void **state)
{
	struct config	*cfg;
	char		*cause, *want;

	(void)state;
	cfg = load_text("[workload \"a\"]\ncommand = true\n", &cause);
	assert_non_null(cfg);
	cause = NULL;
	assert_int_equal(config_only_sections(cfg, "workload", "why",
	    &cause), 0);
	assert_null(cause);
	config_free(cfg);

	/* Written out of order on purpose: the errors come by line. */
	cfg = load_text("[sink \"s\"]\ntype = log\n[workload \"a\"]\n"
	    "command = true\n[quiet]\npolicy = skip\n[detect]\n", &cause);
	assert_non_null(cfg);
	assert_int_equal(config_only_sections(cfg, "workload", "why",
	    &cause), -1);
	want = with_path("{P}:1: [sink \"s\"]: why\n{P}:5: [quiet]: why\n"
	    "{P}:7: [detect]: why");
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	config_free(cfg);

	/* The defaults' sections are not the file's. */
	cfg = config_default();
	assert_int_equal(config_only_sections(cfg, "workload", "why",
	    &cause), 0);
	config_free(cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_section),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_http_key),
		cmocka_unit_test(test_bad_integer),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_bool),
		cmocka_unit_test(test_bad_duration),
		cmocka_unit_test(test_bad_cron),
		cmocka_unit_test(test_cron_and_interval),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_sinks_and_git),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_line_length),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_many_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_accepted_syntax),
		cmocka_unit_test(test_shell_command_comments),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_sample_in_step),
		cmocka_unit_test(test_manual_in_step),
		cmocka_unit_test(test_manual_values),
		cmocka_unit_test(test_only_sections),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
