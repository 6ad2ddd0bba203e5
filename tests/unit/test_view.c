/*
 * Unit tests of view/: the runs list read at one moment.  Two handles on
 * one store file stand for two processes; the other's writes are made
 * from an SQLite authorizer as this one prepares its query of the
 * runs' workloads, a fixed interleaving with no sleeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "xmalloc.h"
#include "store/store.h"
#include "store/store_int.h"
#include "view/view.h"

static char	tmpdir[] = "/tmp/pw-test-view.XXXXXX";

/* A run of another process ending, one workload lost, as this one reads. */
struct run_end {
	struct store	*other;
	int64_t		 run;
	int		 done;		/* 1 once tried */
	int		 rc;		/* its writes: 0 when both were made */
};

/*
 * End r->run through r->other, with disk.bonnie failed, when this
 * handle's query of run_workloads is prepared: after the runs were read,
 * before their workloads are.
 */
static int
end_before_workloads(void *arg, int action, const char *a, const char *b,
    const char *c, const char *d)
{
	struct run_end	*r = arg;

	(void)b;
	(void)c;
	(void)d;
	if (action == SQLITE_READ && a != NULL &&
	    strcmp(a, "run_workloads") == 0 && !r->done) {
		r->done = 1;
		r->rc = store_run_workload_set(r->other, r->run, "disk.bonnie",
		    "failed", 1.5, 0.25, "No space left on device") == 0 &&
		    store_run_finish(r->other, r->run, RUN_COMPLETE,
		    1800000100) == 0 ? 0 : -1;
	}
	return SQLITE_OK;
}

/* The one run listed: its status, and its "incomplete" as text. */
static void
list_one(struct store *st, const char *status, const char *incomplete)
{
	struct store_run_filter	 f;
	struct store_run	*runs;
	json_t			*arr, *o;
	size_t			 n;
	char			*inc;

	memset(&f, 0, sizeof(f));
	assert_int_equal(view_runs_list(st, &f, &runs, &n, &arr), 0);
	assert_int_equal(n, 1);
	assert_int_equal(json_array_size(arr), 1);
	o = json_array_get(arr, 0);
	assert_string_equal(runs[0].status, status);
	assert_string_equal(json_string_value(json_object_get(o, "status")),
	    status);
	inc = view_incomplete_text(json_object_get(o, "incomplete"));
	if (incomplete == NULL)
		assert_null(inc);
	else {
		assert_non_null(inc);
		assert_string_equal(inc, incomplete);
	}
	free(inc);
	json_decref(arr);
	store_runs_free(runs, n);
}

/*
 * A run that ends, losing a workload, while `perfwatch runs` reads: the
 * runs were read, then each run's workloads, one query after the other,
 * so the list showed the run "running" with disk.bonnie already lost.
 * Read in one transaction, the list is the store as it stood before the
 * run ended, and the next list as it stood after.
 */
static void
test_runs_list_one_moment(void **state)
{
	struct store		*a, *b;
	struct store_run	 r;
	struct run_end		 e;
	int64_t			 host;
	char			*p, *cause = NULL;

	(void)state;
	xasprintf(&p, "%s/db.sqlite", tmpdir);
	a = store_open(p, &cause);
	assert_non_null(a);
	b = store_open(p, &cause);
	assert_non_null(b);
	host = store_host_ensure(a, "box", NULL);
	assert_true(host > 0);
	memset(&r, 0, sizeof(r));
	r.host = host;
	r.label = "night";
	r.trigger = "schedule";
	r.started = 1800000000;
	r.status = RUN_RUNNING;
	e.run = store_run_create(a, &r, &cause);
	assert_true(e.run > 0);
	assert_int_equal(store_run_workload_set(a, e.run, "sys.pipe",
	    "complete", 10, 9.5, NULL), 0);
	list_one(a, RUN_RUNNING, NULL);

	e.other = b;
	e.done = 0;
	e.rc = -1;
	/* A new handle prepares the workloads' query at its first list. */
	store_close(a);
	a = store_open(p, &cause);
	assert_non_null(a);
	sqlite3_set_authorizer(a->db, end_before_workloads, &e);
	list_one(a, RUN_RUNNING, NULL);
	sqlite3_set_authorizer(a->db, NULL, NULL);
	assert_int_equal(e.done, 1);
	assert_int_equal(e.rc, 0);
	list_one(a, RUN_COMPLETE, "disk.bonnie failed");
	list_one(b, RUN_COMPLETE, "disk.bonnie failed");
	store_close(b);
	store_close(a);
	free(p);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_list_one_moment),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
