/*
 * Internals shared by the files of store/; nothing outside store/ includes
 * this header.
 */
#ifndef PERFWATCH_STORE_INT_H
#define PERFWATCH_STORE_INT_H

#include <signal.h>

#include <sqlite3.h>

#include "store/store.h"

/* Every persistent prepared statement has a slot here. */
enum store_stmt_id {
	STMT_HOST_FIND,
	STMT_HOST_INSERT,
	STMT_METRIC_FIND,
	STMT_METRIC_GET,
	STMT_METRIC_INSERT,
	STMT_RUN_INSERT,
	STMT_RUN_FINISH,
	STMT_RUN_LOOKUP,
	STMT_RUN_DELETE,
	STMT_RUN_GET,
	STMT_RUN_SNAPSHOT,
	STMT_RUN_QUIET,
	STMT_SAMPLE_INSERT,
	STMT_RUN_SERIES,
	STMT_METRIC_SERIES,
	STMT_METRIC_SERIES_DONE,
	STMT_RUN_UNDONE,
	STMT_RUNS_SAMPLES,
	STMT_RUN_SAMPLES_ALL,
	STMT_RUN_WORKLOAD,
	STMT_RUN_WORKLOADS,
	STMT_PKGSET_FIND,
	STMT_PKGSET_INSERT,
	STMT_PACKAGE_INSERT,
	STMT_SNAPSHOT_FIND,
	STMT_SNAPSHOT_INSERT,
	STMT_SNAPSHOT_GET,
	STMT_PACKAGES_GET,
	STMT_SETTING_GET,
	STMT_SETTING_SET,
	STMT_SETTING_DEL,
	STMT_MAX_BASE,
	STMT_MAX = 64
};

struct store {
	sqlite3		*db;
	char		*path;
	int		 readonly;
	int		 runlock_fd;	/* store_runs_sweep(): held, or -1 */
	store_import_progress_fn import_progress;	/* or NULL */
	void		*import_progress_arg;
	/* Set (by a signal): the import stops; or NULL. */
	const volatile sig_atomic_t *import_stop;
	/* Set (by a signal): the export stops; or NULL. */
	const volatile sig_atomic_t *export_stop;
	sqlite3_stmt	*stmts[STMT_MAX];
	int		 busy_ms;	/* how long to wait for a lock */
	double		 busy_since;	/* when this wait began */
	int		 busy_said;	/* a long wait has been said */
	const volatile sig_atomic_t *busy_stop;	/* set: wait no longer */
	/*
	 * The failure that a transaction was rolled back after (SQLite's
	 * extended code, 0 for none, and its message), which the ROLLBACK
	 * replaced with "not an error": what store_failure() and
	 * store_errmsg() answer until the next statement starts.
	 */
	int		 kept_code;
	char		*kept_msg;
	int		 newer_schema;	/* found by store_begin(), or 0 */
	int		 wal_shrink;	/* ours to write: cut a large -wal */
};

sqlite3_stmt	*store_stmt(struct store *, enum store_stmt_id, const char *);
char		*store_col_strdup(sqlite3_stmt *, int);

#endif
