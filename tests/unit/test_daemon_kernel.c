/*
 * Unit tests of the kernel trigger in daemon/pkgwatch.c, included
 * chrony-style to reach its statics.  The store is a stand-in listing
 * the host's runs of test_runs, and the work queue one that keeps the
 * runs asked for.  The timer that waits for boot_settle is fired by
 * hand: the machine's uptime is whatever it is.  Covered: a new kernel,
 * the same one, one measured while the machine settled (or a run that
 * does not count as measuring it), a start after a run on the new
 * kernel that did not measure it, and a reload (SIGHUP) turning the
 * trigger off or on.  And of the package side, what the stat() poll
 * compares.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfwatch.h"
#include "../../daemon/pkgwatch.c"

/*
 * This host's runs, oldest first: their kernel, status and busy flag,
 * and whether they ran only some of the battery's workloads.
 */
struct test_run {
	const char	*release;
	const char	*status;
	int		 busy;
	int		 partial;
};
static struct test_run	test_runs[4];
static size_t		test_nruns_stored;

/* The runs asked for, and when their change was seen (0: not said). */
static char		*test_details[8];
static double		 test_seen[8];
static size_t		 test_nruns;

/* A run of this host on kernel release, as a store would list it. */
static void
add_run(const char *release, const char *status, int busy)
{
	assert_true(test_nruns_stored < nitems(test_runs));
	test_runs[test_nruns_stored].release = release;
	test_runs[test_nruns_stored].status = status;
	test_runs[test_nruns_stored].busy = busy;
	test_runs[test_nruns_stored].partial = 0;
	test_nruns_stored++;
}

/* A complete run of some workloads alone (a watched tree's battery). */
static void
add_partial_run(const char *release)
{
	add_run(release, RUN_COMPLETE, 0);
	test_runs[test_nruns_stored - 1].partial = 1;
}

/* The battery: tiny and other. */
int
daemon_workloads(const struct config *cfg, const char *conf_path,
    char ***names, size_t *n, char **cause)
{
	(void)cfg;
	(void)conf_path;
	(void)cause;
	*names = xcalloc(2, sizeof(**names));
	(*names)[0] = xstrdup("tiny");
	(*names)[1] = xstrdup("other");
	*n = 2;
	return 0;
}

void
daemon_workloads_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The newest run that measured and ran the battery's workloads, as the
 * store would find it: complete, not busy, not partial.
 */
int
store_run_last_covering(struct store *st, int64_t host,
    const char *const *workloads, size_t n, int64_t *run)
{
	size_t	i;

	(void)st;
	(void)host;
	assert_int_equal(n, 2);
	assert_string_equal(workloads[0], "tiny");
	assert_string_equal(workloads[1], "other");
	for (i = test_nruns_stored; i > 0; i--) {
		if (strcmp(test_runs[i - 1].status, RUN_COMPLETE) != 0 ||
		    test_runs[i - 1].busy || test_runs[i - 1].partial)
			continue;
		*run = (int64_t)i;
		return 0;
	}
	return -1;
}

int
store_run_get(struct store *st, int64_t id, struct store_run *r)
{
	(void)st;
	assert_true(id >= 1 && id <= (int64_t)test_nruns_stored);
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->snapshot = id - 1 + 100;
	return 0;
}

void
store_run_clear(struct store_run *r)
{
	memset(r, 0, sizeof(*r));
}

int
store_runs_list(struct store *st, const struct store_run_filter *f,
    struct store_run **out, size_t *nout)
{
	size_t	i;

	(void)st;
	assert_string_equal(f->host, daemon_host_name());
	*out = xcalloc(test_nruns_stored + 1, sizeof(**out));
	for (i = 0; i < test_nruns_stored; i++) {
		(*out)[i].id = (int64_t)i + 1;
		(*out)[i].snapshot = (int64_t)i + 100;
		(*out)[i].status = (char *)test_runs[i].status;
		(*out)[i].busy = test_runs[i].busy;
	}
	*nout = test_nruns_stored;
	return 0;
}

void
store_runs_free(struct store_run *runs, size_t n)
{
	(void)n;
	free(runs);
}

struct snapshot *
store_snapshot_get(struct store *st, int64_t id, char **cause)
{
	struct snapshot	*s;

	(void)st;
	if (id < 100 || id >= 100 + (int64_t)test_nruns_stored) {
		*cause = xstrdup("no such snapshot");
		return NULL;
	}
	s = sysinfo_snapshot_new();
	sysinfo_snapshot_set(s, "kernel.release", test_runs[id - 100].release);
	return s;
}

int
work_want_run(struct daemon *d, const char *trigger, const char *detail,
    char *const *globs, size_t nglobs, const char *git_name,
    const char *git_commit)
{
	(void)d;
	(void)globs;
	(void)nglobs;
	(void)git_name;
	(void)git_commit;
	assert_string_equal(trigger, "kernel");
	assert_true(test_nruns < nitems(test_details));
	test_seen[test_nruns] = 0;
	test_details[test_nruns++] = xstrdup(detail);
	return 0;
}

int
work_want_change(struct daemon *d, const char *trigger, const char *detail,
    double seen)
{
	(void)d;
	assert_string_equal(trigger, "kernel");
	assert_true(test_nruns < nitems(test_details));
	test_seen[test_nruns] = seen;
	test_details[test_nruns++] = xstrdup(detail);
	return 0;
}

/* The runs are "run1", "run2", ..., oldest first. */
int
store_run_lookup(struct store *st, int64_t host, const char *label,
    int64_t *id)
{
	int	n;

	(void)st;
	(void)host;
	if (sscanf(label, "run%d", &n) != 1 || n < 1 ||
	    (size_t)n > test_nruns_stored)
		return -1;
	*id = n;
	return 0;
}

const char *
daemon_host_name(void)
{
	return "box";
}

void
daemon_exit_if_done(struct daemon *d)
{
	(void)d;
}

/* The package side of pkgwatch.c is not used here. */
struct job *
job_fork(struct daemon *d, const char *what, int (*fn)(void *),
    void *fn_arg, void (*done_cb)(struct job *, void *), void *arg)
{
	(void)d;
	(void)what;
	(void)fn;
	(void)fn_arg;
	(void)done_cb;
	(void)arg;
	fail_msg("job_fork called");
	return NULL;
}

const char *
job_output(struct job *j, size_t *len)
{
	(void)j;
	*len = 0;
	return "";
}

#include "job_quiet.h"

static struct daemon	test_daemon;
static char		test_running[sizeof(((struct utsname *)0)->release)];

static struct config *
conf(const char *text)
{
	struct config	*cfg;
	char		*cause = NULL;

	cfg = config_load_buffer("test.conf", text, strlen(text), &cause);
	if (cfg == NULL)
		fail_msg("%s", cause);
	return cfg;
}

/* Give the test daemon the configuration text, freeing the one it had. */
static void
set_conf(const char *text)
{
	config_free(test_daemon.cfg);
	test_daemon.cfg = conf(text);
}

static int
setup(void **state)
{
	struct utsname	u;

	(void)state;
	memset(&test_daemon, 0, sizeof(test_daemon));
	test_daemon.base = event_base_new();
	assert_non_null(test_daemon.base);
	test_daemon.pkg_fd = -1;
	assert_int_equal(uname(&u), 0);
	snprintf(test_running, sizeof(test_running), "%s", u.release);
	return 0;
}

static int
teardown(void **state)
{
	size_t	i;

	(void)state;
	kernel_stop(&test_daemon);
	config_free(test_daemon.cfg);
	event_base_free(test_daemon.base);
	for (i = 0; i < test_nruns; i++)
		free(test_details[i]);
	test_nruns = 0;
	test_nruns_stored = 0;
	return 0;
}

#define KERNEL_ON	"[triggers]\npackages = no\nkernel = yes\n" \
			"boot_settle = 1d\n"

/* Another kernel than the last run's: once up for boot_settle, a run. */
static void
test_new_kernel_runs(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*want;

	(void)state;
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	assert_int_equal(test_nruns, 0);
	kernel_settled(-1, EV_TIMEOUT, d);
	assert_int_equal(test_nruns, 1);
	xasprintf(&want, "kernel 1.2.3-old → %s", test_running);
	assert_string_equal(test_details[0], want);
	free(want);
	assert_null(d->kernel_timer);
	/*
	 * Seen when the start found it: a battery running by then that
	 * measures it leaves the run nothing to do (work_drop_measured()).
	 */
	assert_true(test_seen[0] > 0);
	assert_true(test_seen[0] <= perfwatch_mono());
}

/*
 * The battery that ended measured a change seen before it started only
 * if it is the host's last run that measured the whole battery, as the
 * start judges it: not one partial, busy, failed or aborted, nor one
 * older than such a run.
 */
static void
test_run_measured(void **state)
{
	struct daemon	*d = &test_daemon;

	(void)state;
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	add_run(test_running, RUN_COMPLETE, 0);
	assert_true(pkgwatch_run_measured(d, "run2"));
	assert_false(pkgwatch_run_measured(d, "run1"));
	assert_false(pkgwatch_run_measured(d, "run9"));
	add_partial_run(test_running);
	assert_false(pkgwatch_run_measured(d, "run3"));
	add_run(test_running, RUN_COMPLETE, 1);
	assert_false(pkgwatch_run_measured(d, "run4"));
	assert_true(pkgwatch_run_measured(d, "run2"));
	teardown(state);
	setup(state);

	set_conf(KERNEL_ON);
	add_run(test_running, RUN_FAILED, 0);
	add_run(test_running, RUN_ABORTED, 0);
	assert_false(pkgwatch_run_measured(d, "run1"));
	assert_false(pkgwatch_run_measured(d, "run2"));
}

/* The same kernel, or no run to compare with: nothing. */
static void
test_same_kernel_nothing(void **state)
{
	struct daemon	*d = &test_daemon;

	(void)state;
	set_conf(KERNEL_ON);
	kernel_check(d);
	assert_null(d->kernel_timer);
	add_run(test_running, RUN_COMPLETE, 0);
	kernel_check(d);
	assert_null(d->kernel_timer);
	assert_int_equal(test_nruns, 0);
}

/*
 * A run while the machine settled (by hand, the schedule's catch-up, a
 * package change) measured the new kernel: no second battery for it.
 */
static void
test_measured_meanwhile(void **state)
{
	struct daemon	*d = &test_daemon;

	(void)state;
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	add_run(test_running, RUN_COMPLETE, 0);
	kernel_settled(-1, EV_TIMEOUT, d);
	assert_int_equal(test_nruns, 0);
	assert_null(d->kernel_timer);
	assert_null(d->kernel_detail);
}

/*
 * For each kind of run that does not measure a kernel (still running or
 * left so by a crash, aborted, failed, measured on a busy machine), one
 * on the running kernel after a run that measured the old: made before
 * the start's check (at_start) or while boot_settle runs, it leaves the
 * kernel run to be asked for.
 */
static void
unmeasured_leaves_kernel_run(void **state, int at_start)
{
	static const struct {
		const char	*status;
		int		 busy;
	} unmeasured[] = {
		{ RUN_RUNNING, 0 }, { RUN_ABORTED, 0 }, { RUN_FAILED, 0 },
		{ RUN_COMPLETE, 1 },
	};
	struct daemon	*d = &test_daemon;
	char		*want;
	size_t		 i;

	xasprintf(&want, "kernel 1.2.3-old → %s", test_running);
	for (i = 0; i < nitems(unmeasured); i++) {
		set_conf(KERNEL_ON);
		add_run("1.2.3-old", RUN_COMPLETE, 0);
		if (at_start)
			add_run(test_running, unmeasured[i].status,
			    unmeasured[i].busy);
		kernel_check(d);
		assert_non_null(d->kernel_timer);
		if (!at_start)
			add_run(test_running, unmeasured[i].status,
			    unmeasured[i].busy);
		kernel_settled(-1, EV_TIMEOUT, d);
		assert_int_equal(test_nruns, 1);
		assert_string_equal(test_details[0], want);
		teardown(state);
		setup(state);
	}
	free(want);
}

/*
 * A battery of some workloads alone on the new kernel (a watched tree's
 * commit, a rerun), made while boot_settle ran or before the start's
 * check: it has not measured the kernel, and the kernel run is asked
 * for.  It counted as measuring it, and the others were never run.
 */
static void
test_partial_not_measured(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*want;

	xasprintf(&want, "kernel 1.2.3-old → %s", test_running);
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	add_partial_run(test_running);
	kernel_settled(-1, EV_TIMEOUT, d);
	assert_int_equal(test_nruns, 1);
	assert_string_equal(test_details[0], want);
	teardown(state);
	setup(state);

	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	add_partial_run(test_running);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	assert_string_equal(d->kernel_detail, want);
	free(want);
}

/* A run since the start that has not measured the kernel. */
static void
test_not_measured_meanwhile(void **state)
{
	unmeasured_leaves_kernel_run(state, 0);
}

/*
 * A start after a run on the new kernel that did not measure it (the
 * kernel run cut short by a reboot or a stop, a run on a machine busy
 * with its boot): the kernel is still new, against the last run that
 * measured.  Without any such run, against the last run at all.
 */
static void
test_restart_after_unmeasured(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*want;

	unmeasured_leaves_kernel_run(state, 1);
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_ABORTED, 0);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	xasprintf(&want, "kernel 1.2.3-old → %s", test_running);
	assert_string_equal(d->kernel_detail, want);
	free(want);
}

/* Reload d with text, as SIGHUP does. */
static void
reload(const char *text)
{
	struct daemon	*d = &test_daemon;
	struct config	*old = d->cfg;

	d->cfg = conf(text);
	kernel_reload(d, old);
	config_free(old);
}

/* kernel = no by SIGHUP drops the kernel run waiting for boot_settle. */
static void
test_reload_off_drops(void **state)
{
	struct daemon	*d = &test_daemon;

	(void)state;
	set_conf(KERNEL_ON);
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	kernel_check(d);
	assert_non_null(d->kernel_timer);
	reload("[triggers]\npackages = no\nkernel = no\nboot_settle = 1d\n");
	assert_null(d->kernel_timer);
	assert_null(d->kernel_detail);
	assert_int_equal(test_nruns, 0);
	/* Unchanged on: the waiting run stays. */
	set_conf(KERNEL_ON);
	kernel_check(d);
	reload(KERNEL_ON);
	assert_non_null(d->kernel_timer);
	assert_true(evtimer_pending(d->kernel_timer, NULL));
}

/* kernel = yes by SIGHUP compares the kernels as a start does. */
static void
test_reload_on_checks(void **state)
{
	struct daemon	*d = &test_daemon;
	char		*want;

	(void)state;
	add_run("1.2.3-old", RUN_COMPLETE, 0);
	set_conf("[triggers]\npackages = no\nkernel = no\n");
	kernel_check(d);
	assert_null(d->kernel_timer);
	reload(KERNEL_ON);
	assert_non_null(d->kernel_timer);
	assert_true(evtimer_pending(d->kernel_timer, NULL));
	kernel_settled(-1, EV_TIMEOUT, d);
	assert_int_equal(test_nruns, 1);
	xasprintf(&want, "kernel 1.2.3-old → %s", test_running);
	assert_string_equal(test_details[0], want);
	free(want);
}

/*
 * The stat() poll that stands in for inotify (none to be had) sees a
 * change of rpm's database whichever of its names the backend uses: here
 * Berkeley DB's Packages, not the first name watched (rpmdb.sqlite).
 */
static void
test_poll_sees_each_name(void **state)
{
	char	 dir[] = "/tmp/test_pkgwatch.XXXXXX", *path, *before, *after;
	FILE	*f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	xasprintf(&path, "%s/Packages", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("one package\n", f);
	fclose(f);
	pkg_add(dir, "rpmdb.sqlite", "Packages", "Packages.db");
	before = pkg_stamp();
	assert_non_null(f = fopen(path, "a"));
	fputs("and another one\n", f);
	fclose(f);
	after = pkg_stamp();
	assert_string_not_equal(before, after);
	pkgwatch_unwatch(&test_daemon);
	unlink(path);
	rmdir(dir);
	free(path);
	free(before);
	free(after);
}

/*
 * A kernel's build string as the snapshot keeps it against uname's, blanks
 * squeezed.  FreeBSD's snapshot has kern.version's first line, uname(3)
 * all of it with the newline a blank: one build, not a new kernel at
 * every start of the daemon.
 */
static void
test_kernel_version_same(void **state)
{
	const char	*fb = "FreeBSD 14.0-RELEASE #0 releng/14.0-n265380-"
	    "f9716eee8ab4: Fri Nov 10 05:57:23 UTC 2023";

	(void)state;
	/* Linux: /proc/sys/kernel/version is uname -v. */
	assert_true(kernel_version_same("#1 SMP PREEMPT_DYNAMIC Debian "
	    "6.1.119-1 (2024-11-22)", "#1 SMP PREEMPT_DYNAMIC Debian "
	    "6.1.119-1 (2024-11-22)", 0));
	assert_false(kernel_version_same("#1 SMP PREEMPT_DYNAMIC Debian "
	    "6.1.119-1 (2024-11-22)", "#2 SMP PREEMPT_DYNAMIC Debian "
	    "6.1.119-1 (2024-11-29)", 0));
	/* FreeBSD: the first line against all of it. */
	assert_true(kernel_version_same(fb, "FreeBSD 14.0-RELEASE #0 releng/"
	    "14.0-n265380-f9716eee8ab4: Fri Nov 10 05:57:23 UTC 2023 root@"
	    "releng1.nyi.freebsd.org:/usr/obj/usr/src/amd64.amd64/sys/GENERIC",
	    0));
	assert_false(kernel_version_same(fb, "FreeBSD 14.0-RELEASE #1 releng/"
	    "14.0-n265380-f9716eee8ab4: Sat Nov 11 09:00:00 UTC 2023 root@"
	    "build:/usr/obj/usr/src/amd64.amd64/sys/GENERIC", 0));
	/* Not a word's end: 2023 is no start of 20231. */
	assert_false(kernel_version_same("#1 SMP 2023", "#1 SMP 20231", 0));
	/* Cut short by uname's buffer: as far as it goes. */
	assert_true(kernel_version_same(fb, "FreeBSD 14.0-RELEASE #0 rel", 1));
	assert_false(kernel_version_same(fb, "FreeBSD 14.0-RELEASE #0 rel", 0));
	assert_false(kernel_version_same(fb, "FreeBSD 14.0-RELEASE #1 rel", 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_version_same),
		cmocka_unit_test_setup_teardown(test_new_kernel_runs, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_same_kernel_nothing,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_measured_meanwhile,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_measured, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_partial_not_measured,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_measured_meanwhile,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_restart_after_unmeasured,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_off_drops, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reload_on_checks, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_poll_sees_each_name, setup,
		    teardown),
	};

	log_init("test_daemon_kernel", 1, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
