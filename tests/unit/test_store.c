/*
 * store/: migrations, refusal of foreign and newer files, import/export
 * round trips, refusal of bad rows leaving the store unchanged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <fcntl.h>

#include <cmocka.h>
#include <sqlite3.h>

/* Include the module to reach its statics (the migration list). */
#include "../../store/db.c"
#include "sysinfo/sysinfo.h"

static char	tmpdir[] = "/tmp/pw-test-store.XXXXXX";
static int	dbn;

/* A fresh database path in the test's directory. */
static char *
db_path(void)
{
	char	*p;

	xasprintf(&p, "%s/db%d.sqlite", tmpdir, ++dbn);
	return p;
}

/* Read a whole file into memory. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f = fopen(path, "rb");
	char	*buf;
	long	 n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int64_t
count(struct store *st, const char *table)
{
	sqlite3_stmt	*stmt;
	char		 sql[128];
	int64_t		 n;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	assert_int_equal(sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

/* Export everything as a string. */
static char *
export_str(struct store *st, enum store_format fmt)
{
	char	*buf = NULL, *cause = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(store_export(st, f, fmt, NULL, 0, &cause), 0);
	fclose(f);
	return buf;
}

static int
import_mem(struct store *st, const char *name, const char *text, size_t len,
    int replace, char **cause)
{
	FILE	*f = fmemopen((void *)text, len, "r");
	int	 rc;

	assert_non_null(f);
	rc = store_import(st, f, name, STORE_FORMAT_AUTO, replace, NULL,
	    cause);
	fclose(f);
	return rc;
}

static int
import_str(struct store *st, const char *name, const char *text,
    int replace, char **cause)
{
	return import_mem(st, name, text, strlen(text), replace, cause);
}

static const char sample_csv[] =
    "run,time,workload,metric,value,unit,better\n"
    "r1,1700000000,disk.bonnie,write_kps,19004,K/sec,higher\n"
    "r1,1700000000,disk.bonnie,write_kps,18689,K/sec,higher\n"
    "r1,1700000000,disk.bonnie,write_cpu,9.1,%CPU,lower\n"
    "r2,2023-11-15T00:00:00Z,disk.bonnie,write_kps,6589,K/sec,higher\n"
    "r2,2023-11-15T00:00:00Z,disk.bonnie,write_cpu,0.1,%CPU,lower\n"
    "r2,2023-11-15T00:00:00Z,\"sys,odd \"\"name\"\"\",x,1e-9,s,lower\n";

static void
test_open_empty(void **state)
{
	struct store	*st;
	char		*p = db_path(), *cause = NULL;
	int		 fk = 0;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_pragma_int(st, "foreign_keys", &fk), 0);
	assert_int_equal(fk, 1);
	assert_int_equal(count(st, "runs"), 0);
	assert_int_equal(count(st, "run_workloads"), 0);
	assert_int_equal(store_integrity_check(st, &cause), 0);
	store_close(st);
	/* Opening again is a no-op migration. */
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
	store_close(st);
	free(p);
}

/*
 * store_remove_unused removes a store nobody else has open and that holds
 * no run, with the files beside it; one that another connection has open
 * (a process waiting to write its runs into it) is kept, and so is one
 * that holds a run.
 */
static void
test_remove_unused(void **state)
{
	struct store	*st, *other;
	char		*p = db_path(), *cause = NULL, *wal;
	struct stat	 sb;

	(void)state;
	xasprintf(&wal, "%s-wal", p);
	st = store_open(p, &cause);
	other = store_open(p, &cause);
	assert_non_null(st);
	assert_non_null(other);
	assert_int_equal(store_remove_unused(st), 0);
	assert_int_equal(stat(p, &sb), 0);
	/* The one kept open still reads and writes the file at the path. */
	assert_true(store_host_ensure(other, "box", NULL) > 0);
	store_close(other);

	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_remove_unused(st), 1);
	assert_int_equal(stat(p, &sb), -1);
	assert_int_equal(stat(wal, &sb), -1);

	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(store_remove_unused(st), 0);
	assert_int_equal(stat(p, &sb), 0);
	free(wal);
	free(p);
}

/*
 * Run sql on the database file p through a connection of its own, as
 * another process or an older perfwatch would; fail with SQLite's
 * message.
 */
static void
file_exec(const char *p, const char *sql)
{
	sqlite3	*db;
	char	*err = NULL;

	if (sqlite3_open(p, &db) != SQLITE_OK)
		fail_msg("%s: %s", p, sqlite3_errmsg(db));
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s: %s", p, sql, err);
	sqlite3_close(db);
}

/* Build a file at schema version v by hand, as an older perfwatch did. */
static void
make_old_version(const char *p, int v)
{
	sqlite3	*db;
	char	 sql[64];
	int	 i;

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	for (i = 0; i < v; i++)
		assert_int_equal(sqlite3_exec(db, store_migrations[i], NULL,
		    NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA application_id = "
	    STORE_APPLICATION_ID_STR, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	    "INSERT INTO hosts (name) VALUES ('old');"
	    "INSERT INTO metrics (workload, metric, unit, better)"
	    "  VALUES ('w', 'm', 'u', 'higher');"
	    "INSERT INTO runs (host, label, trigger, started, status)"
	    "  VALUES (1, 'r-old', 'manual', 100, 'complete');"
	    "INSERT INTO samples VALUES (1, 1, 1, 42.5);",
	    NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
test_migrate_each_version(void **state)
{
	struct store		*st;
	struct store_series	*ser;
	struct store_run	 r;
	size_t			 n;
	char			*p, *cause = NULL;
	int			 v;

	(void)state;
	for (v = 1; v < STORE_SCHEMA_VERSION; v++) {
		p = db_path();
		make_old_version(p, v);
		st = store_open(p, &cause);
		assert_non_null(st);
		assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
		/* The old data survived and the new table is there. */
		assert_int_equal(store_run_resolve(st, "r-old", &r, &cause), 0);
		assert_string_equal(r.host_name, "old");
		assert_null(r.quiet);
		assert_int_equal(store_run_series(st, r.id, &ser, &n), 0);
		assert_int_equal(n, 1);
		assert_int_equal(ser[0].n, 1);
		assert_true(ser[0].values[0] == 42.5);
		store_series_free(ser, n);
		assert_int_equal(store_run_set_quiet(st, r.id, "{}"), 0);
		assert_int_equal(store_run_workload_set(st, r.id, "w",
		    "complete", 1.0, 0.5, NULL), 0);
		assert_int_equal(count(st, "run_workloads"), 1);
		/* The outbox knows whom a row is for (version 5). */
		{
			struct store_outbox	*o;
			char			*rest[] = { "b@example.org", NULL };
			int64_t			 id, nid;

			id = store_outbox_add(st, 0, "mail", "{}", 100);
			assert_true(id > 0);
			assert_int_equal(store_outbox_split(st, id, 101, rest,
			    160, "450", &nid), 0);
			assert_int_equal(store_outbox_list(st, 0, 0, &o, &n),
			    0);
			assert_int_equal(n, 1);
			assert_int_equal(o[0].split_from, id);
			assert_string_equal(o[0].recipients[0],
			    "b@example.org");
			store_outbox_free(o, n);
		}
		store_run_clear(&r);
		store_close(st);
		free(p);
	}
}

/*
 * Schema 7: a store of version 6 keeps its alerts and outbox rows, their
 * numbers and links, and no number is given again once its row is gone:
 * the highest numbers were handed out again, and a new alert took the
 * delivery ids of one that import --replace had deleted.
 */
static void
test_migrate_ids_kept(void **state)
{
	struct store	*st;
	sqlite3_stmt	*stmt;
	char		*p, *cause = NULL;
	int64_t		 id;

	(void)state;
	p = db_path();
	make_old_version(p, 6);
	file_exec(p,
	    "INSERT INTO alerts (id, metric, host, first_bad_run, last_run,"
	    "  state, change_pct, opened, updated, opened_run, direction)"
	    "  VALUES (5, 1, 1, 1, 1, 'confirmed', -12.5, 100, 101, 1,"
	    "  'regression');"
	    "INSERT INTO outbox (id, alert, sink, payload, created,"
	    "  next_attempt, delivered_at, recipients, split_from)"
	    "  VALUES (8, 5, 'mail', '{}', 100, 100, 102, NULL, NULL);"
	    "INSERT INTO outbox (id, alert, sink, payload, created,"
	    "  next_attempt, recipients, split_from)"
	    "  VALUES (9, 5, 'mail', '{}', 100, 160, '[\"b@example.org\"]',"
	    "  8);");
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT a.id, a.change_pct,"
	    " a.direction, o.id, o.delivered_at, o.split_from, o.recipients"
	    " FROM alerts a JOIN outbox o ON o.alert = a.id ORDER BY o.id",
	    -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(stmt, 0), 5);
	assert_true(sqlite3_column_double(stmt, 1) == -12.5);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 2),
	    "regression");
	assert_int_equal(sqlite3_column_int64(stmt, 3), 8);
	assert_int_equal(sqlite3_column_int64(stmt, 4), 102);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int64(stmt, 3), 9);
	assert_int_equal(sqlite3_column_int64(stmt, 5), 8);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 6),
	    "[\"b@example.org\"]");
	assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
	assert_int_equal(store_integrity_check(st, &cause), 0);

	/* The run's deletion takes its alert and rows (ON DELETE CASCADE). */
	assert_int_equal(sqlite3_exec(st->db, "DELETE FROM runs", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(count(st, "alerts"), 0);
	assert_int_equal(count(st, "outbox"), 0);
	/* The numbers after the highest ones given, not those again. */
	assert_int_equal(sqlite3_exec(st->db,
	    "INSERT INTO runs (host, label, trigger, started, status)"
	    "  VALUES (1, 'r-new', 'manual', 200, 'complete');"
	    "INSERT INTO alerts (metric, host, first_bad_run, last_run,"
	    "  state, opened, updated, opened_run)"
	    "  SELECT 1, 1, id, id, 'suspected', 200, 200, id FROM runs;",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_last_insert_rowid(st->db), 6);
	id = store_outbox_add(st, 6, "mail", "{}", 200);
	assert_int_equal(id, 10);
	store_close(st);
	free(p);
}

/*
 * Several processes opening one new (or older) file at once: each must
 * find the schema current, none may fail re-running a migration that
 * another one applied meanwhile.
 */
static void
test_concurrent_open(void **state)
{
	enum { ROUNDS = 30, PROCS = 4 };
	struct store	*st;
	pid_t		 pid[PROCS];
	char		*p, *cause = NULL, c;
	int		 round, k, go[2], status, failed = 0;

	(void)state;
	for (round = 0; round < ROUNDS; round++) {
		p = db_path();
		if (round % 2 == 1)
			make_old_version(p, 1 + round / 2 % 2);
		assert_int_equal(pipe(go), 0);
		for (k = 0; k < PROCS; k++) {
			assert_true((pid[k] = fork()) != -1);
			if (pid[k] == 0) {
				/* Start together: when the parent closes go. */
				close(go[1]);
				if (read(go[0], &c, 1) == -1)
					_exit(2);
				if ((st = store_open(p, &cause)) == NULL) {
					fprintf(stderr, "round %d: %s\n", round,
					    cause);
					_exit(1);
				}
				if (store_user_version(st) !=
				    STORE_SCHEMA_VERSION)
					_exit(2);
				store_close(st);
				_exit(0);
			}
		}
		close(go[0]);
		close(go[1]);
		for (k = 0; k < PROCS; k++) {
			assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failed++;
		}
		st = store_open(p, &cause);
		assert_non_null(st);
		assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
		assert_int_equal(store_integrity_check(st, &cause), 0);
		if (round % 2 == 1)
			assert_int_equal(count(st, "samples"), 1);
		store_close(st);
		free(p);
	}
	assert_int_equal(failed, 0);
}

/* A migration that fails says why, and leaves the file at its version. */
static void
test_migration_error(void **state)
{
	struct store	*st;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	make_old_version(p, 1);
	/* Migration 2 creates this table: make it fail there. */
	file_exec(p, "CREATE TABLE settings (x)");
	assert_null(store_open(p, &cause));
	assert_non_null(strstr(cause, "migration to schema version 2 failed: "
	    "table settings already exists"));
	free(cause);
	cause = NULL;
	st = store_open_readonly(p, &cause);
	assert_null(st);
	assert_non_null(strstr(cause, "schema version 1 is older"));
	free(cause);
	free(p);
}

static void
test_newer_refused_untouched(void **state)
{
	struct store	*st;
	char		*p = db_path(), *cause = NULL, *before, *after;
	size_t		 lb, la;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	store_close(st);
	file_exec(p, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99");
	before = slurp(p, &lb);
	st = store_open(p, &cause);
	assert_null(st);
	assert_non_null(strstr(cause, "newer perfwatch"));
	assert_non_null(strstr(cause, "schema version 99"));
	free(cause);
	cause = NULL;
	assert_null(store_open_readonly(p, &cause));
	free(cause);
	after = slurp(p, &la);
	assert_int_equal(lb, la);
	assert_memory_equal(before, after, lb);
	free(before);
	free(after);
	free(p);
}

/*
 * A store open while a newer perfwatch migrates the file (an upgrade with
 * perfwatchd running): the next write transaction is refused, with the
 * versions said, and nothing is written; store_newer_schema() tells.
 */
static void
test_newer_while_open(void **state)
{
	struct store	*st;
	sqlite3		*db;
	char		*p = db_path(), *cause = NULL, sql[64];

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_newer_schema(st), 0);
	assert_int_equal(store_begin(st), 0);
	assert_int_equal(store_setting_set(st, "k", "before"), 0);
	assert_int_equal(store_commit(st), 0);

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
	    STORE_SCHEMA_VERSION + 1);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);

	assert_int_equal(store_begin(st), -1);
	assert_int_equal(store_newer_schema(st), STORE_SCHEMA_VERSION + 1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	snprintf(sql, sizeof(sql), "migrated to schema %d by a newer",
	    STORE_SCHEMA_VERSION + 1);
	assert_non_null(strstr(store_errmsg(st), sql));
	/* No transaction left open: the other process can write. */
	assert_int_equal(sqlite3_exec(db, "UPDATE settings SET value = 'other'"
	    " WHERE key = 'k'", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	store_close(st);
	free(p);
}

static void
test_foreign_refused(void **state)
{
	char	*p = db_path(), *cause = NULL;

	(void)state;
	file_exec(p, "CREATE TABLE t (x)");
	assert_null(store_open(p, &cause));
	assert_non_null(strstr(cause, "not a perfwatch database"));
	free(cause);
	free(p);
}

static void
test_round_trip(void **state)
{
	struct store	*a, *b, *c;
	char		*pa = db_path(), *pb = db_path(), *pc = db_path();
	char		*cause = NULL, *e1, *e2, *j1, *j2, *e3;

	(void)state;
	a = store_open(pa, &cause);
	b = store_open(pb, &cause);
	c = store_open(pc, &cause);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(import_str(a, "in.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(count(a, "runs"), 2);
	assert_int_equal(count(a, "samples"), 6);
	assert_int_equal(count(a, "metrics"), 3);
	e1 = export_str(a, STORE_FORMAT_CSV);
	assert_int_equal(import_str(b, "e1.csv", e1, 0, &cause), 0);
	e2 = export_str(b, STORE_FORMAT_CSV);
	assert_string_equal(e1, e2);
	/* Values and iterations come out as they went in. */
	assert_non_null(strstr(e1, ",disk.bonnie,write_kps,18689,K/sec,"
	    "higher,"));
	assert_non_null(strstr(e1, "r2,2023-11-15T00:00:00Z,\"sys,odd "
	    "\"\"name\"\"\",x,1e-09,s,lower,"));
	assert_non_null(strstr(e1, "write_cpu,0.1,%CPU,lower,"));
	/* JSON Lines the same way, and back to CSV unchanged. */
	j1 = export_str(a, STORE_FORMAT_JSONL);
	assert_int_equal(import_str(c, "j1.jsonl", j1, 0, &cause), 0);
	j2 = export_str(c, STORE_FORMAT_JSONL);
	assert_string_equal(j1, j2);
	e3 = export_str(c, STORE_FORMAT_CSV);
	assert_string_equal(e1, e3);
	assert_non_null(strstr(j1, "\"value\":19004,"));
	free(e1);
	free(e2);
	free(e3);
	free(j1);
	free(j2);
	store_close(a);
	store_close(b);
	store_close(c);
	free(pa);
	free(pb);
	free(pc);
}

/* Each bad file is refused with file:row:column and changes nothing. */
static void
test_bad_rows_leave_store(void **state)
{
	static const struct {
		const char	*text;
		const char	*error;
	} bad[] = {
		{ "run,time,workload,metric,value,unit\nr9,1,w,m,1,u\n",
		  "bad.csv:1:7: header: expected" },
		{ "run,time,metric,workload,value,unit,better\n",
		  "bad.csv:1:3: header: expected" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w,m,fast,u,higher\n",
		  "bad.csv:3:5: value: \"fast\" is not a finite number" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,0x10,u,higher\n",
		  "bad.csv:2:5: value: \"0x10\" is not a finite number" },
		/* A number is the field's whole text, no blank around it. */
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w,m, 12.5,u,higher\n",
		  "bad.csv:3:5: value: \" 12.5\" has a blank before or after "
		  "the number" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,12.5\t,u,higher\n",
		  "bad.csv:2:5: value: \"12.5\t\" has a blank before or after "
		  "the number" },
		/* Hexadecimal is no number here, as it is no value. */
		{ "run,time,workload,metric,value,unit,better,iteration\n"
		  "r9,1,w,m,1,u,higher,0x2\n",
		  "bad.csv:2:8: iteration: \"0x2\" is not a whole number" },
		{ "run,time,workload,metric,value,unit,better,duration\n"
		  "r9,1,w,m,1,u,higher,0x3c\n",
		  "bad.csv:2:8: duration: \"0x3c\" is not a whole number" },
		/*
		 * An iteration numbered after the last one given is held to
		 * the same bound: 1000001 was stored, and its export was then
		 * refused on import.
		 */
		{ "run,time,workload,metric,value,unit,better,iteration\n"
		  "r9,1,w,m,1,u,higher,1000000\nr9,1,w,m,2,u,higher,\n",
		  "bad.csv:3:8: iteration 1000001 of w m in run \"r9\" is "
		  "beyond 1000000" },
		{ "run,time,workload,metric,value,unit,better,iteration\n"
		  "r9,1,w,m,1,u,higher, 2\n",
		  "bad.csv:2:8: iteration: \" 2\" has a blank before or after "
		  "the number" },
		{ "{\"run\":\"r9\",\"time\":1,\"workload\":\"w\",\"metric\":\"m\","
		  "\"value\":\" 3\",\"unit\":\"u\",\"better\":\"higher\"}\n",
		  "bad.jsonl:1:50: value: \" 3\" has a blank before or after "
		  "the number" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,2,w,m2,1,u,higher\n",
		  "bad.csv:3:2: time: \"2\" (1970-01-01T00:00:02Z), where run "
		  "\"r9\" has 1970-01-01T00:00:01Z in an earlier row (a run has "
		  "one time)" },
		/* Times written as RFC 3339 are said as the file wrote them. */
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,2023-11-01T02:00:00+02:00,w,m,1,u,higher\n"
		  "r9,2023-11-01T00:00:00Z,w,m,1,u,higher\n"
		  "r9,2023-11-01T00:00:01Z,w,m2,1,u,higher\n",
		  "bad.csv:4:2: time: \"2023-11-01T00:00:01Z\", where run \"r9\" "
		  "has 2023-11-01T00:00:00Z in an earlier row (a run has one "
		  "time)" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w,m,2,u,faster\n",
		  "bad.csv:3:7: better: \"faster\" is not higher or lower" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w,m,2,ms,higher\n",
		  "bad.csv:3:6: unit of w m changes from \"u\" to \"ms\"" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,disk.bonnie,write_kps,2,MB/s,higher\n",
		  "bad.csv:2:6: unit of disk.bonnie write_kps changes from "
		  "\"K/sec\" to \"MB/s\"" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,yesterday,w,m,2,u,higher\n",
		  "bad.csv:3:2: time: \"yesterday\"" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w,m,2,u\n",
		  "bad.csv:3:7: expected 7 fields, found 6" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r1,1,w,m,1,u,higher\n",
		  "bad.csv:2:1: run \"r1\" is in the store already" },
		{ "run,time,workload,metric,value,unit,better\n"
		  "r9,1,w,m,1,u,higher\nr9,1,w\xfe,m,1,u,higher\n",
		  "bad.csv:3:3: workload: not valid UTF-8 (byte 0xfe at "
		  "offset 1)" },
		{ "run,time,workload,metric,value,unit,better,iteration\n"
		  "r9,1,w,m,1,u,higher,1\nr9,1,w,m,1,u,higher,1\n",
		  "bad.csv:3:8: iteration 1 of w m in run \"r9\" appears twice" },
		{ "{\"run\":\"r9\",\"time\":1,\"workload\":\"w\",\"metric\":\"m\","
		  "\"value\":1,\"unit\":\"u\",\"better\":\"higher\"}\n"
		  "{\"run\":\"r9\",\"time\":1,\"workload\":\"w\",\"metric\":\"m\","
		  "\"value\":\"x\",\"unit\":\"u\",\"better\":\"higher\"}\n",
		  "bad.jsonl:2:50: value: \"x\" is not a finite number" },
		{ "{\"run\":\"r9\",\"time\":1,\"workload\":\"w\",\"metric\":\"m\","
		  "\"value\":1,\"unit\":\"u\",\"better\":\"up\"}\n",
		  "bad.jsonl:1:71: better: \"up\" is not higher or lower" },
		{ "{\"run\":\"r9\",\"time\":1,\"workload\":\"w\",\"metric\":\"m\","
		  "\"value\":1,\"unit\":\"u\",\"better\":\"higher\"}\n{\"run\"\n",
		  "bad.jsonl:2:" },
	};
	struct store_import_stats stats;
	struct store	*st;
	char		*p = db_path(), *cause, *before, *after;
	size_t		 i;
	FILE		*f;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "good.csv", sample_csv, 0, &cause), 0);
	before = export_str(st, STORE_FORMAT_CSV);
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		assert_int_equal(import_str(st, bad[i].text[0] == '{' ?
		    "bad.jsonl" : "bad.csv", bad[i].text, 0, &cause), -1);
		assert_non_null(cause);
		if (strncmp(cause, bad[i].error, strlen(bad[i].error)) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, cause,
			    bad[i].error);
		free(cause);
		after = export_str(st, STORE_FORMAT_CSV);
		assert_string_equal(before, after);
		free(after);
		assert_int_equal(count(st, "runs"), 2);
		assert_int_equal(count(st, "metrics"), 3);
		assert_int_equal(count(st, "samples"), 6);
	}
	/*
	 * A stream that cannot be read says so, not "empty file", with the
	 * system's reason, and as an input that could not be read.
	 */
	f = fopen(".", "r");
	assert_non_null(f);
	cause = NULL;
	assert_int_equal(store_import(st, f, "dir.csv", STORE_FORMAT_AUTO, 0,
	    &stats, &cause), -1);
	fclose(f);
	assert_string_equal(cause, "dir.csv: Is a directory");
	assert_int_equal(stats.read_failed, 1);
	assert_int_equal(stats.store_failed, 0);
	free(cause);
	assert_int_equal(count(st, "samples"), 6);
	free(before);
	store_close(st);
	free(p);
}

#define JL_ROW(value) \
	"{\"run\":\"a\",\"time\":1700000000,\"workload\":\"w\"," \
	"\"metric\":\"m\",\"value\":" value ",\"unit\":\"s\"," \
	"\"better\":\"lower\"}\n"
#define CSV_HDR	"run,time,workload,metric,value,unit,better\n"

/*
 * Rows and columns name the place in the file as an editor shows it:
 * after blank lines read while guessing the format, for a header that is
 * not on row 1, for a JSON Lines key (not the same text in a value), and
 * after a byte order mark, which is dropped in every format.
 */
static void
test_import_positions(void **state)
{
	static const struct {
		const char	*name;
		const char	*text;
		const char	*error;	/* NULL: imports */
	} cases[] = {
		/* The format guessed from the first character. */
		{ "<stdin>", "\n\n" CSV_HDR "r1,1700000000,w,m,abc,s,lower\n",
		  "<stdin>:4:5: value: \"abc\"" },
		{ "lead.txt", "\n\n" JL_ROW("\"x\""),
		  "lead.txt:3:58: value: \"x\"" },
		{ "<stdin>", " \t\n  " JL_ROW("\"x\""),
		  "<stdin>:2:60: value: \"x\"" },
		{ "<stdin>", "\n\n" JL_ROW("1"), NULL },
		/* A header below blank lines. */
		{ "hdr.csv", "\nrun,time,workload,metric,valu,unit,better\n",
		  "hdr.csv:2:5: header: expected" },
		{ "hdr.csv", "\n\r\n\nrun,time,workload,metric\n",
		  "hdr.csv:4:5: header: expected" },
		/* A JSON Lines key, not the same text in a value. */
		{ "col.jsonl", "{\"workload\":\"run\",\"metric\":\"m\",\"run\":\"\","
		  "\"time\":1700000000,\"value\":1,\"unit\":\"s\","
		  "\"better\":\"lower\"}\n",
		  "col.jsonl:1:32: run: empty" },
		{ "col.jsonl", "{\"unit\":\"\\\"run\\\":\",\"r\\u0075n\":\"\","
		  "\"time\":1,\"workload\":\"w\",\"metric\":\"m\",\"value\":1,"
		  "\"better\":\"lower\"}\n",
		  "col.jsonl:1:20: run: empty" },
		/* A syntax error at its byte (jansson counts characters). */
		{ "syn.jsonl", "{\"run\":\"\xe6\x97\xa5\xe6\x9c\xac\","
		  "\"time\":1,}\n",
		  "syn.jsonl:1:26: string or '}' expected" },
		{ "nul.jsonl", "{\"run\":\"a\\u0000\"}\n",
		  "nul.jsonl:1:16: \\u0000 in a string" },
		/* A missing key is reported at the object. */
		{ "miss.jsonl", "{\"run\":\"a\",\"time\":1700000000,\"workload\":"
		  "\"w\",\"metric\":\"m\",\"value\":1,\"better\":\"lower\"}\n",
		  "miss.jsonl:1:1: unit: missing" },
		{ "miss.jsonl", "\t {\"run\":\"a\",\"time\":1,\"workload\":\"w\","
		  "\"metric\":\"m\",\"value\":1,\"unit\":\"s\"}\n",
		  "miss.jsonl:1:3: better: missing" },
		/* A byte order mark, in each format and guessed. */
		{ "bom.csv", "\xef\xbb\xbf\"run\",time,workload,metric,value,unit,"
		  "better\nr1,1700000000,w,m,1,s,lower\n", NULL },
		{ "<stdin>", "\xef\xbb\xbf\"run\",time,workload,metric,value,unit,"
		  "better\nr1,1700000000,w,m,1,s,lower\n", NULL },
		{ "bom.jsonl", "\xef\xbb\xbf" JL_ROW("1"), NULL },
		{ "<stdin>", "\xef\xbb\xbf" JL_ROW("1"), NULL },
		{ "<stdin>", "\xef\xbb\xbf" JL_ROW("\"x\""),
		  "<stdin>:1:58: value: \"x\"" },
		{ "<stdin>", "\xef\xbb\xbf\n" CSV_HDR
		  "r1,1700000000,w,m,abc,s,lower\n",
		  "<stdin>:3:5: value: \"abc\"" },
		/* Only a whole mark is dropped. */
		{ "<stdin>", "\xef\xbbrun,time\n", "<stdin>:1:1: header" },
		{ "<stdin>", "\xef\xbb\xbf", "<stdin>: empty file" },
		/*
		 * A denormal is a value; one that would be stored as 0, or
		 * is past a double's range, is not.
		 */
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,1e-310,s,lower\n",
		  NULL },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,-4e-320,s,lower\n",
		  NULL },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,0e-999,s,lower\n",
		  NULL },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,1e-400,s,lower\n",
		  "den.csv:2:5: value: \"1e-400\" is too near 0 for a double" },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,-1e-999,s,lower\n",
		  "den.csv:2:5: value: \"-1e-999\" is too near 0 for a double" },
		{ "den.jsonl", "{\"run\":\"r1\",\"time\":1,\"workload\":\"w\","
		  "\"metric\":\"m\",\"value\": 1e-400,\"unit\":\"s\","
		  "\"better\":\"lower\"}\n",
		  "den.jsonl:1:50: value: \"1e-400\" is too near 0 for a double" },
		{ "den.jsonl", "{\"run\":\"r1\",\"time\":1,\"workload\":\"w\","
		  "\"metric\":\"m\",\"value\":0.0e-400,\"unit\":\"s\","
		  "\"better\":\"lower\"}\n", NULL },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,1e999,s,lower\n",
		  "den.csv:2:5: value: \"1e999\" is beyond a double's range" },
		{ "den.csv", CSV_HDR "r1,1700000000,w,m,-1e999,s,lower\n",
		  "den.csv:2:5: value: \"-1e999\" is beyond a double's range" },
		/*
		 * JSON that is not JSON Lines says so: an array, on one line
		 * or on several, an object spread over lines (each is read
		 * on its own) or cut short, and one object after another on
		 * a line; Jansson said "']' expected near end of file", or
		 * "expected a JSON object", of the lines of an array.
		 */
		{ "arr.json", "[" JL_ROW("1") "]\n",
		  "arr.json:1:1: a JSON array, where JSON Lines (one object a "
		  "line) is expected" },
		{ "arr.json", "  [1, 2]\n",
		  "arr.json:1:3: a JSON array, where JSON Lines (one object a "
		  "line) is expected" },
		{ "pretty.json", "{\n  \"run\": \"a\",\n",
		  "pretty.json:1:2: string or '}' expected at the end of the "
		  "line: JSON Lines holds each object whole on one line" },
		{ "cut.jsonl", JL_ROW("1") "{\"run\":\"a\"\n",
		  "cut.jsonl:2:11: '}' expected at the end of the line: JSON "
		  "Lines holds each object whole on one line" },
		{ "two.jsonl", "{\"a\":1}{\"b\":2}\n",
		  "two.jsonl:1:8: end of the line expected near '{'" },
		/*
		 * A CRLF file whose last LF was lost (as $(...) drops it):
		 * the CR still ends the line, in a field plain or quoted.
		 */
		{ "cr.csv", CSV_HDR "r1,1700000000,w,m,1,s,lower\r", NULL },
		{ "cr.csv", CSV_HDR "r1,1700000000,w,m,1,s,\"lower\"\r", NULL },
	};
	struct store	*st;
	char		*p, *cause;
	size_t		 i, bad = 0;

	(void)state;
	/* Every case is tried and every wrong one reported. */
	for (i = 0; i < nitems(cases); i++) {
		p = db_path();
		st = store_open(p, &cause);
		assert_non_null(st);
		cause = NULL;
		if (import_str(st, cases[i].name, cases[i].text, 0,
		    &cause) == 0) {
			if (cases[i].error != NULL || count(st, "samples") != 1) {
				print_error("case %zu: imported, want \"%s\"\n",
				    i, cases[i].error);
				bad++;
			}
		} else if (cases[i].error == NULL ||
		    strncmp(cause, cases[i].error,
		    strlen(cases[i].error)) != 0) {
			print_error("case %zu: got \"%s\", want \"%s\"\n", i,
			    cause, cases[i].error != NULL ? cases[i].error :
			    "an import");
			bad++;
		}
		free(cause);
		store_close(st);
		free(p);
	}
	assert_int_equal(bad, 0);
}

/* A NUL byte in a CSV field is refused, not taken as the field's end. */
static void
test_csv_nul(void **state)
{
	static const char	 text[] = CSV_HDR
	    "r1,1700000000,w,m,1\0000999,s,lower\n";
	static const char	 quoted[] = CSV_HDR
	    "r1,1700000000,\"w\nx\0\",m,1,s,lower\n";
	struct store		*st;
	char			*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_mem(st, "nul.csv", text, sizeof(text) - 1, 0,
	    &cause), -1);
	assert_string_equal(cause, "nul.csv:2:5: a NUL byte in a field");
	free(cause);
	cause = NULL;
	/* Inside quotes, on the record's second line: its first row. */
	assert_int_equal(import_mem(st, "nul.csv", quoted, sizeof(quoted) - 1,
	    0, &cause), -1);
	assert_string_equal(cause, "nul.csv:2:3: a NUL byte in a field");
	free(cause);
	assert_int_equal(count(st, "samples"), 0);
	store_close(st);
	free(p);
}

/* A denormal value imports, exports and imports again unchanged. */
static void
test_denormal(void **state)
{
	struct store_series	*ser;
	struct store_run	 r;
	struct store		*a, *b;
	char			*pa = db_path(), *pb = db_path(), *cause = NULL;
	char			*e1, *e2;
	size_t			 n;

	(void)state;
	a = store_open(pa, &cause);
	b = store_open(pb, &cause);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(import_str(a, "den.csv", CSV_HDR
	    "r1,1700000000,w,m,1e-310,s,lower\n", 0, &cause), 0);
	assert_int_equal(store_run_resolve(a, "r1", &r, &cause), 0);
	assert_int_equal(store_run_series(a, r.id, &ser, &n), 0);
	assert_int_equal(n, 1);
	assert_true(ser[0].values[0] == 1e-310);
	store_series_free(ser, n);
	store_run_clear(&r);
	e1 = export_str(a, STORE_FORMAT_CSV);
	assert_int_equal(import_str(b, "e1.csv", e1, 0, &cause), 0);
	e2 = export_str(b, STORE_FORMAT_CSV);
	assert_string_equal(e1, e2);
	free(e1);
	free(e2);
	store_close(a);
	store_close(b);
	free(pa);
	free(pb);
}

/*
 * Naming a run: #id, then the whole text as a label (so a label may hold
 * ':' or start with '#'), then host:label split at the first ':'.
 */
static void
test_resolve_labels(void **state)
{
	struct store		*st;
	struct store_run	 r, plain;
	char			*p = db_path(), *cause = NULL, *what;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "l.csv",
	    "run,time,workload,metric,value,unit,better,host\n"
	    "plain,1700000000,w,m,1,s,lower,\n"
	    "v1:rc,1700000001,w,m,2,s,lower,\n"
	    "#tag,1700000002,w,m,3,s,lower,\n"
	    "a:b,1700000003,w,m,4,s,lower,\n"
	    "b,1700000004,w,m,5,s,lower,a\n"
	    "x,1700000005,w,m,6,s,lower,h1\n"
	    "x,1700000006,w,m,7,s,lower,h2\n"
	    "#01,1700000007,w,m,8,s,lower,\n"
	    "#+1,1700000008,w,m,9,s,lower,\n"
	    "# 1,1700000009,w,m,10,s,lower,\n", 0, &cause), 0);
	assert_int_equal(store_run_resolve(st, "plain", &plain, &cause), 0);
	assert_int_equal(plain.id, 1);
	/*
	 * #id is written as runs writes it: "#01", "#+1" and "# 1" are
	 * labels, which run #1 shadowed (strtoll reads all three as 1).
	 */
	assert_int_equal(store_run_resolve(st, "#01", &r, &cause), 0);
	assert_string_equal(r.label, "#01");
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "#+1", &r, &cause), 0);
	assert_string_equal(r.label, "#+1");
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "# 1", &r, &cause), 0);
	assert_string_equal(r.label, "# 1");
	store_run_clear(&r);

	assert_int_equal(store_run_resolve(st, "v1:rc", &r, &cause), 0);
	assert_string_equal(r.label, "v1:rc");
	assert_int_equal(r.started, 1700000001);
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "#tag", &r, &cause), 0);
	assert_string_equal(r.label, "#tag");
	store_run_clear(&r);
	/* The host is always a way to say it. */
	xasprintf(&what, "%s:v1:rc", plain.host_name);
	assert_int_equal(store_run_resolve(st, what, &r, &cause), 0);
	assert_string_equal(r.label, "v1:rc");
	store_run_clear(&r);
	free(what);
	/* The whole label before a host:label reading of it. */
	assert_int_equal(store_run_resolve(st, "a:b", &r, &cause), 0);
	assert_int_equal(r.started, 1700000003);
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "b", &r, &cause), 0);
	assert_string_equal(r.host_name, "a");
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "h2:x", &r, &cause), 0);
	assert_int_equal(r.started, 1700000006);
	store_run_clear(&r);
	xasprintf(&what, "#%lld", (long long)plain.id);
	assert_int_equal(store_run_resolve(st, what, &r, &cause), 0);
	assert_string_equal(r.label, "plain");
	store_run_clear(&r);
	free(what);

	assert_int_equal(store_run_resolve(st, "x", &r, &cause), -1);
	assert_string_equal(cause, "run \"x\" exists on several hosts; say "
	    "HOST:x");
	free(cause);
	assert_int_equal(store_run_resolve(st, "#999", &r, &cause), -1);
	assert_string_equal(cause, "no run \"#999\"");
	free(cause);
	assert_int_equal(store_run_resolve(st, "h3:x", &r, &cause), -1);
	assert_string_equal(cause, "no run \"h3:x\"");
	free(cause);
	store_run_clear(&plain);
	store_close(st);
	free(p);
}

static int	progress_left;

/* A progress handler that interrupts the statement after a while. */
static int
interrupt_later(void *arg)
{
	(void)arg;
	return --progress_left < 0;
}

/* A read that fails part way gives back nothing, not a partial array. */
static void
test_run_workloads_error(void **state)
{
	struct store_run_workload	*w;
	struct store_run		 r;
	struct store			*st;
	char				*p = db_path(), *cause = NULL;
	char				 name[16];
	size_t				 n;
	int				 i;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	for (i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "w%02d", i);
		assert_int_equal(store_run_workload_set(st, r.id, name,
		    "complete", 1.0, 0.5, NULL), 0);
	}
	assert_int_equal(store_run_workloads(st, r.id, &w, &n), 0);
	assert_int_equal(n, 50);
	assert_string_equal(w[49].workload, "w49");
	store_run_workloads_free(w, n);
	/* Interrupted after some rows were read. */
	progress_left = 40;
	sqlite3_progress_handler(st->db, 10, interrupt_later, NULL);
	w = (void *)&n;
	n = 99;
	assert_int_equal(store_run_workloads(st, r.id, &w, &n), -1);
	assert_int_equal(sqlite3_errcode(st->db), SQLITE_INTERRUPT);
	assert_null(w);
	assert_int_equal(n, 0);
	sqlite3_progress_handler(st->db, 0, NULL, NULL);
	store_run_clear(&r);
	store_close(st);
	free(p);
}

/*
 * Deleting a baseline clears the setting that names it as the one in
 * use, in the same transaction: when clearing it fails, the baseline is
 * kept too.  The trigger stands for a write that fails part way.
 */
static void
test_baseline_delete(void **state)
{
	struct store_baseline	 b;
	struct store_run	 r1, r2;
	struct store		*st;
	char			*p = db_path(), *cause = NULL, *v = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(store_run_resolve(st, "r1", &r1, &cause), 0);
	assert_int_equal(store_run_resolve(st, "r2", &r2, &cause), 0);
	assert_int_equal(store_baseline_set(st, "a", &r1.id, 1, 1, &cause), 0);
	assert_int_equal(store_baseline_set(st, "b", &r2.id, 1, 1, &cause), 0);
	assert_int_equal(store_setting_set(st, "in.use", "a"), 0);

	/* Another baseline: the setting stays. */
	assert_int_equal(store_baseline_delete(st, "b", "in.use", &cause), 0);
	assert_null(cause);
	assert_int_equal(store_setting_get(st, "in.use", &v), 0);
	assert_string_equal(v, "a");
	free(v);
	assert_int_equal(store_baseline_get(st, "b", &b), -1);
	assert_int_equal(store_failure(st), STORE_FOUND_NONE);

	/* None by that name: -1, no cause, nothing failed. */
	assert_int_equal(store_baseline_delete(st, "b", "in.use", &cause), -1);
	assert_null(cause);
	assert_int_equal(store_failure(st), STORE_FOUND_NONE);

	/* Clearing the setting fails: nothing is deleted. */
	assert_int_equal(sqlite3_exec(st->db, "CREATE TEMP TRIGGER no_del"
	    " BEFORE DELETE ON main.settings BEGIN SELECT RAISE(ABORT,"
	    " 'settings refuse'); END", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_baseline_delete(st, "a", "in.use", &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "settings refuse"));
	free(cause);
	assert_int_equal(store_baseline_get(st, "a", &b), 0);
	assert_int_equal(b.nruns, 1);
	store_baseline_clear(&b);
	assert_int_equal(store_setting_get(st, "in.use", &v), 0);
	assert_string_equal(v, "a");
	free(v);

	/* The baseline in use: both go. */
	assert_int_equal(sqlite3_exec(st->db, "DROP TRIGGER temp.no_del",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_baseline_delete(st, "a", "in.use", &cause), 0);
	assert_int_equal(store_baseline_get(st, "a", &b), -1);
	assert_int_equal(store_setting_get(st, "in.use", &v), -1);
	assert_int_equal(store_failure(st), STORE_FOUND_NONE);
	store_run_clear(&r1);
	store_run_clear(&r2);
	store_close(st);
	free(p);
}

/*
 * store_outbox_split() failing after its transaction began: the caller
 * (notify's flush) reads why through store_failure() and store_errmsg()
 * once it returns, and read "not an error" (STORE_FOUND_NONE), which the
 * ROLLBACK left in the failure's place.  The failure is kept until the
 * next statement, which a later lookup that finds nothing shows.
 */
static void
test_outbox_split_error(void **state)
{
	static const char *const ops[] = { "UPDATE", "INSERT" };
	struct store_outbox	 o;
	struct store		*st;
	sqlite3			*other;
	char			*p = db_path(), *cause = NULL, sql[256];
	char			*rest[] = { "b@example.org", NULL };
	int64_t			 id, nid = 0;
	size_t			 i;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	id = store_outbox_add(st, 0, "mail", "{}", 100);
	assert_true(id > 0);
	for (i = 0; i < nitems(ops); i++) {
		snprintf(sql, sizeof(sql), "CREATE TEMP TRIGGER refuse BEFORE"
		    " %s ON main.outbox BEGIN SELECT RAISE(ABORT, 'outbox"
		    " refuses the %s'); END", ops[i], ops[i]);
		assert_int_equal(sqlite3_exec(st->db, sql, NULL, NULL, NULL),
		    SQLITE_OK);
		assert_int_equal(store_outbox_split(st, id, 101, rest, 160,
		    "450", &nid), -1);
		assert_int_equal(store_failure(st), STORE_FAILED);
		assert_false(store_busy(st));
		snprintf(sql, sizeof(sql), "outbox refuses the %s", ops[i]);
		assert_string_equal(store_errmsg(st), sql);
		assert_int_equal(sqlite3_exec(st->db, "DROP TRIGGER"
		    " temp.refuse", NULL, NULL, NULL), SQLITE_OK);

		/* Both or neither: the row is still pending, alone. */
		assert_int_equal(store_outbox_get(st, id, &o), 0);
		assert_int_equal(o.delivered_at, 0);
		store_outbox_clear(&o);
		assert_int_equal(count(st, "outbox"), 1);
		/* A later lookup of nothing is no failure. */
		assert_int_equal(store_outbox_get(st, id + 1, &o), -1);
		assert_int_equal(store_failure(st), STORE_FOUND_NONE);
	}

	/* Another process holds the write lock: busy, and said so. */
	assert_int_equal(sqlite3_open(p, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_busy_timeout(st->db, 10);
	assert_int_equal(store_outbox_split(st, id, 101, rest, 160, "450",
	    &nid), -1);
	assert_int_equal(store_failure(st), STORE_BUSY);
	assert_true(store_busy(st));
	assert_string_equal(store_errmsg(st), "database is locked");
	assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(other);

	/* And once nothing is in the way, the split is made. */
	assert_int_equal(store_outbox_split(st, id, 101, rest, 160, "450",
	    &nid), 0);
	assert_true(nid > id);
	assert_int_equal(count(st, "outbox"), 2);
	store_close(st);
	free(p);
}

/*
 * store_busy_limit(): a caller that must not stall (perfwatchd's loop)
 * waits only as long as it says for another process's write lock, gets
 * a busy failure it can tell from others, and puts the wait back.
 */
static void
test_busy_limit(void **state)
{
	struct store	*st;
	sqlite3		*other;
	char		*p = db_path(), *cause = NULL, *value = NULL;
	int		 was;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(sqlite3_open(p, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	was = store_busy_limit(st, 0);
	assert_int_equal(was, 5000);		/* the store's own default */
	assert_int_equal(store_begin(st), -1);
	assert_true(store_busy(st));
	assert_string_equal(store_errmsg(st), "database is locked");
	assert_int_equal(store_busy_limit(st, was), 0);
	assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(other);

	/* The lock let go, the same write goes through. */
	assert_int_equal(store_begin(st), 0);
	assert_int_equal(store_setting_set(st, "daemon:paused", "yes"), 0);
	assert_int_equal(store_commit(st), 0);
	assert_int_equal(store_setting_get(st, "daemon:paused", &value), 0);
	assert_string_equal(value, "yes");
	free(value);
	/* A negative wait is no wait, not a negative one. */
	assert_int_equal(store_busy_limit(st, -5), 5000);
	assert_int_equal(store_busy_limit(st, 5000), 0);
	store_close(st);
	free(p);
}

/* Interrupt every statement at its first step. */
static int
interrupt_now(void *arg)
{
	(void)arg;
	return 1;
}

/* Interrupt the first statement that runs after *arg was set, once. */
static int
interrupt_once(void *arg)
{
	int	*once = arg;

	if (*once == 0)
		return 0;
	*once = 0;
	return 1;
}

/* Refuse any statement that reads the samples table. */
static int
deny_samples(void *arg, int action, const char *a, const char *b,
    const char *c, const char *d)
{
	(void)arg;
	(void)b;
	(void)c;
	(void)d;
	return action == SQLITE_READ && a != NULL &&
	    strcmp(a, "samples") == 0 ? SQLITE_DENY : SQLITE_OK;
}

/* Refuse any statement that reads the table *arg names. */
static int
deny_table(void *arg, int action, const char *a, const char *b,
    const char *c, const char *d)
{
	(void)b;
	(void)c;
	(void)d;
	return action == SQLITE_READ && a != NULL && strcmp(a, arg) == 0 ?
	    SQLITE_DENY : SQLITE_OK;
}

/*
 * A lookup that fails before an INSERT is no "not there": the ensure
 * functions and an import's lookups of a run and a metric tried the
 * INSERT, whose own error ("UNIQUE constraint failed" for a host or
 * metric that was there, "run exists") named the wrong thing.  The
 * lookup's failure is returned as it is, and nothing is added.
 */
static void
test_ensure_lookup_errors(void **state)
{
	struct store	*st;
	char		*p = db_path(), *cause = NULL;
	int64_t		 hosts, metrics, runs;
	int		 once = 0;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_true(store_host_ensure(st, "box", NULL) > 0);
	hosts = count(st, "hosts");
	metrics = count(st, "metrics");
	runs = count(st, "runs");

	/* The SELECT, the first statement each runs, is interrupted. */
	sqlite3_progress_handler(st->db, 1, interrupt_once, &once);
	once = 1;
	assert_int_equal(store_host_ensure(st, "box", NULL), -1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	assert_string_equal(store_errmsg(st), "interrupted");
	once = 1;
	assert_int_equal(store_host_ensure(st, "newbox", NULL), -1);
	assert_string_equal(store_errmsg(st), "interrupted");
	once = 1;
	assert_int_equal(store_metric_ensure(st, "disk.bonnie", "write_kps",
	    "K/sec", BETTER_HIGHER, &cause), -1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	assert_string_equal(cause, "looking up metric disk.bonnie write_kps: "
	    "interrupted");
	free(cause);
	cause = NULL;
	sqlite3_progress_handler(st->db, 0, NULL, NULL);
	assert_int_equal(count(st, "hosts"), hosts);

	/* An import whose lookup of a run that is there fails. */
	sqlite3_set_authorizer(st->db, deny_table, "runs");
	assert_int_equal(import_str(st, "b.csv", "run,time,workload,metric,"
	    "value,unit,better\nr1,1700000000,disk.bonnie,write_kps,1,K/sec,"
	    "higher\n", 0, &cause), -1);
	assert_string_equal(cause, "b.csv:2:1: looking up the run: access to "
	    "runs.id is prohibited");
	free(cause);
	cause = NULL;
	/* And of a metric that is there, for a new run. */
	sqlite3_set_authorizer(st->db, deny_table, "metrics");
	assert_int_equal(import_str(st, "c.csv", "run,time,workload,metric,"
	    "value,unit,better\nr9,1700000000,disk.bonnie,write_kps,1,K/sec,"
	    "higher\n", 0, &cause), -1);
	assert_string_equal(cause, "c.csv:2:4: looking up the metric: access "
	    "to metrics.id is prohibited");
	free(cause);
	sqlite3_set_authorizer(st->db, NULL, NULL);
	assert_int_equal(count(st, "hosts"), hosts);
	assert_int_equal(count(st, "metrics"), metrics);
	assert_int_equal(count(st, "runs"), runs);
	store_close(st);
	free(p);
}

/* What store_alerts_page gave: ids, and the text read of each. */
struct page_seen {
	int64_t	 ids[16];
	char	*text[16];	/* attribution, or summary */
	size_t	 n;
	size_t	 stop_after;	/* 0: never */
	int	 fail;		/* return -1 at the first */
	int	 summary;
};

static int
page_take(void *arg, const struct store_alert *a)
{
	struct page_seen	*ps = arg;
	const char		*t;

	if (ps->fail)
		return -1;
	assert_true(ps->n < nitems(ps->ids));
	t = ps->summary ? a->summary : a->attribution;
	if (ps->summary)
		assert_null(a->attribution);
	else
		assert_null(a->summary);
	ps->ids[ps->n] = a->id;
	ps->text[ps->n] = t != NULL ? xstrdup(t) : NULL;
	ps->n++;
	return ps->stop_after > 0 && ps->n == ps->stop_after;
}

static void
page_seen_clear(struct page_seen *ps)
{
	size_t	i;

	for (i = 0; i < ps->n; i++)
		free(ps->text[i]);
	memset(ps, 0, sizeof(*ps));
}

/*
 * The alerts a page at a time (the dashboard's /api/alerts and /): the
 * open ones older than an id, newest first, no more than asked for and
 * whether more are left; the count apart.  With STORE_ALERT_SUMMARY
 * each comes with its attribution's summary alone, what jansson would
 * read of it: none for text that is not JSON, or a summary that is not
 * a string.  Before, the only way was store_alerts_list, every alert
 * with its whole attribution.
 */
static void
test_alerts_page(void **state)
{
	static const struct {
		const char	*state;
		const char	*attribution;
		const char	*summary;
	} al[] = {
		{ ALERT_CONFIRMED, "{\"summary\":\"kernel 6.1 -> 6.6\","
		    "\"diff\":{\"packages\":[]}}", "kernel 6.1 -> 6.6" },
		{ ALERT_RESOLVED, "{\"summary\":\"gone\"}", "gone" },
		{ ALERT_SUSPECTED, NULL, NULL },
		{ ALERT_CONFIRMED, "{\"diff\":{}}", NULL },
		{ ALERT_ACKNOWLEDGED, "{\"summary\":\"seen\"}", "seen" },
		{ ALERT_CONFIRMED, "{\"summary\":\"a \\\"q\\\" \\u00e9\"}",
		    "a \"q\" \xc3\xa9" },
		{ ALERT_CONFIRMED, "{\"summary\":", NULL },
		{ ALERT_CONFIRMED, "{\"summary\":3}", NULL },
		{ ALERT_SUSPECTED, "[\"summary\"]", NULL },
	};
	/* The open ones, newest first, by index in al[] (id - 1). */
	static const int open[] = { 8, 7, 6, 5, 3, 2, 0 };
	struct store_alert	 a;
	struct page_seen	 ps;
	struct store		*st;
	struct store_run	 r;
	char			*p = db_path(), *cause = NULL;
	int64_t			 before;
	size_t			 i, n, at;
	int			 more;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	for (i = 0; i < nitems(al); i++) {
		memset(&a, 0, sizeof(a));
		a.host = r.host;
		a.metric = 1;
		a.first_bad_run = a.last_run = a.opened_run = r.id;
		a.state = (char *)al[i].state;
		a.direction = (char *)VERDICT_REGRESSION;
		a.change_pct = -10;
		a.opened = a.updated = 1700000000;
		a.attribution = (char *)al[i].attribution;
		assert_int_equal(store_alert_add(st, &a), (int64_t)i + 1);
	}
	store_run_clear(&r);

	assert_int_equal(store_alerts_count(st, 0, &n), 0);
	assert_int_equal(n, nitems(open));
	assert_int_equal(store_alerts_count(st, 1, &n), 0);
	assert_int_equal(n, nitems(al));

	/* Pages of 3 from the newest: 9 8 7, 6 4 3, 1; whole. */
	memset(&ps, 0, sizeof(ps));
	for (before = 0, at = 0; at < nitems(open); ) {
		assert_int_equal(store_alerts_page(st, 0, before, 3,
		    STORE_ALERT_WHOLE, page_take, &ps, &more), 0);
		assert_int_equal(ps.n, at + 3 <= nitems(open) ? 3 :
		    nitems(open) - at);
		for (i = 0; i < ps.n; i++, at++) {
			assert_int_equal(ps.ids[i], open[at] + 1);
			if (al[open[at]].attribution == NULL)
				assert_null(ps.text[i]);
			else
				assert_string_equal(ps.text[i],
				    al[open[at]].attribution);
		}
		assert_int_equal(more, at < nitems(open));
		before = ps.ids[ps.n - 1];
		page_seen_clear(&ps);
	}
	/* A page that ends at the last: nothing more, though it was full. */
	assert_int_equal(store_alerts_page(st, 0, 4, 2, STORE_ALERT_WHOLE,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, 2);
	assert_int_equal(more, 0);
	page_seen_clear(&ps);
	/* Before the oldest: none. */
	assert_int_equal(store_alerts_page(st, 0, 1, 5, STORE_ALERT_WHOLE,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, 0);
	assert_int_equal(more, 0);
	/* Every alert, the settled ones too. */
	assert_int_equal(store_alerts_page(st, 1, 0, 100, STORE_ALERT_WHOLE,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, nitems(al));
	for (i = 0; i < ps.n; i++)
		assert_int_equal(ps.ids[i], (int64_t)(nitems(al) - i));
	assert_int_equal(more, 0);
	page_seen_clear(&ps);

	/* The summaries alone. */
	ps.summary = 1;
	assert_int_equal(store_alerts_page(st, 1, 0, 100, STORE_ALERT_SUMMARY,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, nitems(al));
	for (i = 0; i < ps.n; i++) {
		at = nitems(al) - 1 - i;
		if (al[at].summary == NULL)
			assert_null(ps.text[i]);
		else
			assert_string_equal(ps.text[i], al[at].summary);
	}
	page_seen_clear(&ps);

	/* Bare: neither. */
	ps.summary = 1;
	assert_int_equal(store_alerts_page(st, 0, 0, 0, STORE_ALERT_BARE,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, nitems(open));
	for (i = 0; i < ps.n; i++) {
		assert_int_equal(ps.ids[i], open[i] + 1);
		assert_null(ps.text[i]);
	}
	assert_int_equal(more, 0);
	page_seen_clear(&ps);

	/* fn stops the page (full in bytes): more, and no further call. */
	ps.stop_after = 2;
	assert_int_equal(store_alerts_page(st, 0, 0, 5, STORE_ALERT_WHOLE,
	    page_take, &ps, &more), 0);
	assert_int_equal(ps.n, 2);
	assert_int_equal(more, 1);
	page_seen_clear(&ps);
	/* fn's error ends it. */
	ps.fail = 1;
	assert_int_equal(store_alerts_page(st, 0, 0, 5, STORE_ALERT_WHOLE,
	    page_take, &ps, &more), -1);
	page_seen_clear(&ps);

	/* The store's error is told as one, not as no alerts. */
	sqlite3_progress_handler(st->db, 1, interrupt_now, NULL);
	assert_int_equal(store_alerts_page(st, 0, 0, 5, STORE_ALERT_SUMMARY,
	    page_take, &ps, &more), -1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	assert_int_equal(ps.n, 0);
	assert_int_equal(store_alerts_count(st, 0, &n), -1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	sqlite3_progress_handler(st->db, 0, NULL, NULL);
	store_close(st);
	free(p);
}

/*
 * Each lookup that returns -1 for "none" leaves a read that failed for
 * store_failure() to tell, so that a caller says the store failed (or was
 * busy) and not that there is no such thing: store_run_resolve took a
 * failed "#1" for no run of that id and looked for a label, and
 * store_snapshot_get said "no snapshot" whatever went wrong.
 */
static void
test_lookup_errors(void **state)
{
	struct store_baseline	 b, *bs;
	struct store_metric	 m, *ms;
	struct store_outbox	 o;
	struct store_alert	 a, *as;
	struct store_run	 r, *runs;
	struct store_series	*ser;
	struct store_verdict	*v;
	struct store		*st;
	struct snapshot		*s;
	char			*p = db_path(), *cause = NULL, *val;
	int64_t			 id, run, host;
	size_t			 n;
	int			 once = 0;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	run = r.id;
	host = r.host;
	store_run_clear(&r);
	assert_int_equal(store_setting_set(st, "k", "v"), 0);
	assert_int_equal(store_baseline_set(st, "b", &run, 1, 1, &cause), 0);

	sqlite3_progress_handler(st->db, 1, interrupt_now, NULL);
#define FAILED(call) do {						\
	assert_int_equal((call), -1);					\
	assert_int_equal(store_failure(st), STORE_FAILED);		\
} while (0)
	FAILED(store_host_find(st, "box", &id));
	FAILED(store_metric_find(st, "disk.bonnie", "write_kps", &m));
	FAILED(store_metric_get(st, 1, &m));
	FAILED(store_run_lookup(st, host, "r1", &id));
	FAILED(store_run_get(st, run, &r));
	FAILED(store_run_latest_of(st, host, NULL, &r));
	FAILED(store_run_first_with(st, host,
	    (const char *const []){ "disk.bonnie" },
	    (const char *const []){ "write_kps" }, 1, &id));
	FAILED(store_setting_get(st, "k", &val));
	FAILED(store_baseline_get(st, "b", &b));
	FAILED(store_alert_get(st, 1, &a));
	FAILED(store_outbox_get(st, 1, &o));
	FAILED(store_runs_list(st, NULL, &runs, &n));
	FAILED(store_metric_runs(st, 1, NULL, 0, &runs, &n));
	FAILED(store_metrics_list(st, NULL, NULL, &ms, &n));
	FAILED(store_run_series(st, run, &ser, &n));
	FAILED(store_verdicts_get(st, run, &v, &n));
	FAILED(store_baselines_list(st, &bs, &n));
	FAILED(store_alerts_list(st, 1, &as, &n));
	FAILED(store_run_resolve(st, "r1", &r, &cause));
	assert_null(strstr(cause, "no run"));
	free(cause);
	FAILED(store_run_resolve(st, "#1", &r, &cause));
	assert_null(strstr(cause, "no run"));
	free(cause);
	s = store_snapshot_get(st, 1, &cause);
	assert_null(s);
	assert_int_equal(store_failure(st), STORE_FAILED);
	assert_null(strstr(cause, "no snapshot"));
	free(cause);
	sqlite3_progress_handler(st->db, 0, NULL, NULL);

	/*
	 * A failure after a first statement that went well: the run by id
	 * (a label lookup followed and found none), the runs of a host
	 * (the host statement's finalize cleared the error).
	 */
	sqlite3_progress_handler(st->db, 1, interrupt_once, &once);
	once = 1;
	FAILED(store_run_resolve(st, "#1", &r, &cause));
	assert_null(strstr(cause, "no run"));
	free(cause);
	sqlite3_progress_handler(st->db, 0, NULL, NULL);
	sqlite3_set_authorizer(st->db, deny_samples, NULL);
	FAILED(store_metric_runs(st, 1, NULL, 0, &runs, &n));
	sqlite3_set_authorizer(st->db, NULL, NULL);
#undef FAILED

	/* Without the interrupt: found, or none with nothing failed. */
	assert_int_equal(store_run_resolve(st, "#1", &r, &cause), 0);
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "#99", &r, &cause), -1);
	assert_int_equal(store_failure(st), STORE_FOUND_NONE);
	assert_string_equal(cause, "no run \"#99\"");
	free(cause);
	assert_null(store_snapshot_get(st, 99, &cause));
	assert_int_equal(store_failure(st), STORE_FOUND_NONE);
	assert_string_equal(cause, "no snapshot 99");
	free(cause);
	store_close(st);
	free(p);
}

/*
 * Names that hold the unit separator are names all the same: a workload
 * "a\x1fb" of metric "c" and a workload "a" of metric "b\x1fc" met in
 * the import's map of metrics as one, the second's sample stored as the
 * first metric's iteration 2.
 */
static void
test_import_names_distinct(void **state)
{
	struct store		*st;
	struct store_metric	 m1, m2;
	struct store_run	 r;
	struct store_series	*ser;
	char			*p = db_path(), *cause = NULL;
	size_t			 n, i;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "us.csv",
	    "run,time,workload,metric,value,unit,better\n"
	    "r1,1700000000,a\x1f" "b,c,1,s,lower\n"
	    "r1,1700000000,a,b\x1f" "c,2,s,lower\n"
	    "r1,1700000000,w,m\x1f" "s,3,,lower\n"
	    "r1,1700000000,w,m,4,s\x1f,lower\n", 0, &cause), 0);
	assert_int_equal(count(st, "metrics"), 4);
	assert_int_equal(count(st, "samples"), 4);
	assert_int_equal(store_metric_find(st, "a\x1f" "b", "c", &m1), 0);
	assert_int_equal(store_metric_find(st, "a", "b\x1f" "c", &m2), 0);
	assert_int_not_equal(m1.id, m2.id);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	assert_int_equal(store_run_series(st, r.id, &ser, &n), 0);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_int_equal(ser[i].n, 1);
		assert_int_equal(ser[i].iterations[0], 1);
		if (ser[i].metric.id == m1.id)
			assert_true(ser[i].values[0] == 1);
		else if (ser[i].metric.id == m2.id)
			assert_true(ser[i].values[0] == 2);
	}
	store_series_free(ser, n);
	store_run_clear(&r);
	store_metric_clear(&m1);
	store_metric_clear(&m2);
	store_close(st);
	free(p);
}

/*
 * A run's duration is a number: "60", "60.0" and "6e1" are the one
 * duration that JSON Lines' 60 and 60.0 are.  The CSV's rows were
 * compared as text and the file refused ("a run has one duration").
 */
static void
test_import_duration_same(void **state)
{
	struct store		*st;
	struct store_run	 r;
	char			*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	if (import_str(st, "d.csv",
	    "run,time,workload,metric,value,unit,better,duration\n"
	    "r1,1700000000,w,m,1,s,lower,60\n"
	    "r1,1700000000,w,m,2,s,lower,60.0\n"
	    "r1,1700000000,w,m2,3,s,lower,6e1\n", 0, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(count(st, "samples"), 3);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	assert_int_equal(r.ended - r.started, 60);
	store_run_clear(&r);
	/* A different one is still refused, at its row and column. */
	assert_int_equal(import_str(st, "e.csv",
	    "run,time,workload,metric,value,unit,better,duration\n"
	    "r2,1700000000,w,m,1,s,lower,60.0\n"
	    "r2,1700000000,w,m,2,s,lower,61\n", 0, &cause), -1);
	assert_string_equal(cause, "e.csv:3:8: duration: \"61\", where run "
	    "\"r2\" has \"60\" in an earlier row (a run has one duration)");
	free(cause);
	store_close(st);
	free(p);
}

/* A run and the length it must read back with: seconds, -1 for none. */
struct run_length {
	const char	*label;
	int64_t		 seconds;
};

/* Check that each run of want reads back with its length, or none. */
static void
check_run_lengths(struct store *st, const struct run_length *want, size_t n)
{
	struct store_run	 r;
	char			*cause = NULL;
	int64_t			 got;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (store_run_resolve(st, want[i].label, &r, &cause) != 0)
			fail_msg("%s: %s", want[i].label, cause);
		got = store_run_timed(&r) ? r.ended - r.started : -1;
		if (got != want[i].seconds)
			fail_msg("%s: length %lld, not %lld (-1: none)",
			    want[i].label, (long long)got,
			    (long long)want[i].seconds);
		store_run_clear(&r);
	}
}

/*
 * A run measured in 0 s is a length like any other, and one whose length
 * was not given has none: the two read back apart, at any start time
 * (the epoch itself, a time before it), and export writes each as it
 * came in.  An import of trigger "import" and duration 0 read as unknown
 * (its end equal to its start), so was exported without its 0; one
 * starting at or before the epoch lost its length altogether.
 */
static void
test_import_duration_zero(void **state)
{
	static const char	 in[] =
	    "run,time,workload,metric,value,unit,better,host,iteration,"
	    "status,trigger,busy,duration,workload_status\n"
	    "b,1969-12-31T23:59:00Z,w,m,4,s,lower,h,1,complete,manual,,30,\n"
	    "e,1970-01-01T00:00:00Z,w,m,3,s,lower,h,1,complete,import,,0,\n"
	    "z,2023-11-14T22:13:20Z,w,m,1,s,lower,h,1,complete,import,,0,\n"
	    "n,2023-11-14T22:13:21Z,w,m,2,s,lower,h,1,complete,import,,,\n";
	static const struct run_length want[] = {
		{ "h:z", 0 }, { "h:n", -1 }, { "h:e", 0 }, { "h:b", 30 },
	};
	struct store		*st, *st2;
	char			*p = db_path(), *p2 = db_path(), *cause = NULL;
	char			*out, *jl;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	if (import_str(st, "z.csv", in, 0, &cause) != 0)
		fail_msg("%s", cause);
	check_run_lengths(st, want, nitems(want));
	/* Unknown is NULL in the store, 0 s a row whose end is its start. */
	assert_int_equal(count(st, "runs WHERE ended IS NULL"), 1);
	assert_int_equal(count(st, "runs WHERE ended = started"), 2);
	out = export_str(st, STORE_FORMAT_CSV);
	assert_string_equal(out, in);
	free(out);
	/* The same through JSON Lines, where unknown has no key. */
	jl = export_str(st, STORE_FORMAT_JSONL);
	assert_non_null(strstr(jl, "\"run\":\"z\""));
	assert_non_null(strstr(jl, "\"trigger\":\"import\",\"duration\":0}"));
	st2 = store_open(p2, &cause);
	assert_non_null(st2);
	if (import_str(st2, "z.jsonl", jl, 0, &cause) != 0)
		fail_msg("%s", cause);
	out = export_str(st2, STORE_FORMAT_CSV);
	assert_string_equal(out, in);
	free(out);
	free(jl);
	store_close(st2);
	store_close(st);
	free(p2);
	free(p);
}

/* What the progress hook saw: the samples counted at each call. */
struct progress_seen {
	size_t	calls;
	size_t	samples[8];
	size_t	runs[8];
};

static void
progress_note(const struct store_import_stats *s, void *arg)
{
	struct progress_seen	*seen = arg;

	if (seen->calls < 8) {
		seen->samples[seen->calls] = s->samples;
		seen->runs[seen->calls] = s->runs;
	}
	seen->calls++;
}

/*
 * The import's progress hook: called every STORE_IMPORT_PROGRESS samples
 * read (here 20000 samples, 10 a run: at 8192 and 16384), never once
 * it is taken away.
 */
static void
test_import_progress(void **state)
{
	struct progress_seen	 seen;
	struct store		*st;
	char			*p = db_path(), *cause = NULL, *text, *q;
	size_t			 cap = 64 + 20000 * 40, i;
	int			 len;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	text = q = xmalloc(cap);
	q += snprintf(q, cap, "run,time,workload,metric,value,unit,better\n");
	for (i = 0; i < 20000; i++) {
		len = snprintf(q, cap - (size_t)(q - text),
		    "r%zu,%zu,w,m,%zu,u,higher\n", i / 10, 1700000000 + i / 10,
		    i % 7 + 1);
		assert_true(len > 0 && (size_t)len < cap - (size_t)(q - text));
		q += len;
	}
	memset(&seen, 0, sizeof(seen));
	store_import_progress(st, progress_note, &seen);
	assert_int_equal(import_str(st, "big.csv", text, 0, &cause), 0);
	assert_int_equal(seen.calls, 2);
	assert_int_equal(seen.samples[0], STORE_IMPORT_PROGRESS);
	assert_int_equal(seen.samples[1], 2 * STORE_IMPORT_PROGRESS);
	/* Runs of ten samples: the 8192nd sample is in the 820th run. */
	assert_int_equal(seen.runs[0], 820);
	assert_int_equal(seen.runs[1], 1639);
	store_import_progress(st, NULL, NULL);
	assert_int_equal(import_str(st, "big.csv", text, 1, &cause), 0);
	assert_int_equal(seen.calls, 2);
	free(text);
	store_close(st);
	free(p);
}

static void
test_replace(void **state)
{
	struct store		*st;
	struct store_series	*ser;
	struct store_run	 r;
	size_t			 n;
	char			*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	assert_int_equal(import_str(st, "b.csv",
	    "run,time,workload,metric,value,unit,better\n"
	    "r1,1700000500,disk.bonnie,write_kps,123,K/sec,higher\n", 1,
	    &cause), 0);
	assert_int_equal(count(st, "runs"), 2);
	assert_int_equal(store_run_resolve(st, "r1", &r, &cause), 0);
	assert_int_equal(r.started, 1700000500);
	assert_string_equal(r.trigger, "import");
	assert_int_equal(store_run_series(st, r.id, &ser, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ser[0].n, 1);
	assert_true(ser[0].values[0] == 123);
	store_series_free(ser, n);
	store_run_clear(&r);
	assert_int_equal(store_run_resolve(st, "nope", &r, &cause), -1);
	assert_string_equal(cause, "no run \"nope\"");
	free(cause);
	store_close(st);
	free(p);
}

static void
test_runs_and_series(void **state)
{
	struct store		*st;
	struct store_run	 r, *runs;
	struct store_run_filter	 f;
	struct store_series	*ser;
	int64_t			 host, run, m, ids[2];
	size_t			 n, marked;
	char			*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(import_str(st, "a.csv", sample_csv, 0, &cause), 0);
	host = store_host_local(st);
	assert_true(host > 0);
	memset(&r, 0, sizeof(r));
	r.host = host;
	r.label = "live";
	r.trigger = "manual";
	r.started = 1800000000;
	r.status = RUN_RUNNING;
	run = store_run_create(st, &r, &cause);
	assert_true(run > 0);
	assert_int_equal(store_run_create(st, &r, &cause), STORE_RUN_EXISTS);
	assert_string_equal(cause, "run \"live\" exists already");
	free(cause);
	cause = NULL;
	m = store_metric_ensure(st, "disk.bonnie", "write_kps", "K/sec",
	    BETTER_HIGHER, &cause);
	assert_true(m > 0);
	assert_int_equal(store_metric_ensure(st, "disk.bonnie", "write_kps",
	    "K/sec", BETTER_LOWER, &cause), -1);
	free(cause);
	assert_int_equal(store_sample_add(st, run, m, 1, 100.0), 0);
	assert_int_equal(store_sample_add(st, run, m, 2, 300.0), 0);
	/* Newest first for latest; oldest first for lists. */
	memset(&f, 0, sizeof(f));
	f.limit = 2;
	assert_int_equal(store_runs_list(st, &f, &runs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0].label, "r2");
	assert_string_equal(runs[1].label, "live");
	ids[0] = runs[0].id;
	ids[1] = runs[1].id;
	f.before_run = run;
	f.limit = 0;
	store_runs_free(runs, n);
	assert_int_equal(store_runs_list(st, &f, &runs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0].label, "r1");
	store_runs_free(runs, n);
	assert_int_equal(store_metric_series(st, m, ids, 2, &ser, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ser[0].n, 1);
	assert_true(ser[0].values[0] == 6589);
	assert_int_equal(ser[1].n, 2);
	assert_true(ser[1].values[1] == 300.0);
	assert_int_equal(ser[1].iterations[1], 2);
	store_series_free(ser, n);
	/* A run left "running" by a crash is marked aborted. */
	assert_int_equal(store_runs_mark_stale(st, host, &marked), 0);
	assert_int_equal(marked, 1);
	assert_int_equal(store_run_get(st, run, &r), 0);
	assert_string_equal(r.status, "aborted");
	/* Its length died with its process. */
	assert_false(store_run_timed(&r));
	store_run_clear(&r);
	assert_int_equal(store_run_latest(st, "complete", &r), 0);
	assert_string_equal(r.label, "r2");
	store_run_clear(&r);
	store_close(st);
	free(p);
}

/* Whether two lists of series hold the same runs, iterations and values. */
static void
assert_series_equal(const struct store_series *a, const struct store_series *b,
    size_t n)
{
	size_t	i, j;

	for (i = 0; i < n; i++) {
		assert_int_equal(a[i].run, b[i].run);
		assert_int_equal(a[i].metric.id, b[i].metric.id);
		assert_string_equal(a[i].metric.metric, b[i].metric.metric);
		assert_int_equal(a[i].n, b[i].n);
		for (j = 0; j < a[i].n; j++) {
			assert_int_equal(a[i].iterations[j], b[i].iterations[j]);
			assert_true(a[i].values[j] == b[i].values[j]);
		}
	}
}

/* store_runs_samples: count the series given, by metric. */
struct undone_seen {
	int64_t	metric[8];
	size_t	run[8];
	size_t	n[8];
	size_t	count;
};

static void
undone_take(void *arg, size_t run, int64_t metric, const double *v, size_t n)
{
	struct undone_seen	*u = arg;

	(void)v;
	assert_true(u->count < 8);
	u->metric[u->count] = metric;
	u->run[u->count] = run;
	u->n[u->count++] = n;
}

/*
 * The samples of a workload that did not complete in its run are left
 * out of what detect and changes read (store_metric_series_cached(),
 * sought or read whole, and store_runs_samples()), and kept in what
 * history and show read (store_metric_series()): the iterations a broken
 * benchmark left are no run's measure.
 */
static void
test_series_undone(void **state)
{
	struct store		*st;
	struct store_cache	*c, *none;
	struct store_series	*ser;
	struct store_run	 r;
	struct undone_seen	 seen;
	int64_t			 host, ids[2], mw, mv;
	size_t			 n, i, k;
	char			 label[8], *p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	host = store_host_local(st);
	mw = store_metric_ensure(st, "w", "m", "s", BETTER_LOWER, &cause);
	mv = store_metric_ensure(st, "v", "m", "s", BETTER_LOWER, &cause);
	assert_true(mw > 0 && mv > mw);
	assert_int_equal(store_begin(st), 0);
	for (i = 0; i < 2; i++) {
		memset(&r, 0, sizeof(r));
		r.host = host;
		snprintf(label, sizeof(label), "r%zu", i);
		r.label = label;
		r.trigger = "manual";
		r.started = 1700000000 + (int64_t)i;
		r.status = RUN_COMPLETE;
		ids[i] = store_run_create(st, &r, &cause);
		assert_true(ids[i] > 0);
		assert_int_equal(store_sample_add(st, ids[i], mw, 1, 1.0), 0);
		assert_int_equal(store_sample_add(st, ids[i], mv, 1, 2.0), 0);
		assert_int_equal(store_run_workload_set(st, ids[i], "v",
		    "complete", 1, 1, NULL), 0);
		/* w failed in r1, after an iteration that measured. */
		assert_int_equal(store_run_workload_set(st, ids[i], "w",
		    i == 1 ? "failed" : "complete", 1, 1, i == 1 ? "boom" :
		    NULL), 0);
	}
	assert_int_equal(store_commit(st), 0);

	assert_int_equal(store_metric_series(st, mw, ids, 2, &ser, &n), 0);
	assert_int_equal(ser[0].n, 1);
	assert_int_equal(ser[1].n, 1);
	store_series_free(ser, n);

	c = store_cache_new(1024);
	none = store_cache_new(0);
	/* Sought, then (asked again) read whole; and never kept. */
	for (k = 0; k < 3; k++) {
		assert_int_equal(store_metric_series_cached(st, k < 2 ? c :
		    none, mw, ids, 2, &ser, &n), 0);
		assert_int_equal(n, 2);
		assert_int_equal(ser[0].n, 1);
		assert_int_equal(ser[1].n, 0);
		store_series_free(ser, n);
		assert_int_equal(store_metric_series_cached(st, k < 2 ? c :
		    none, mv, ids, 2, &ser, &n), 0);
		assert_int_equal(ser[0].n, 1);
		assert_int_equal(ser[1].n, 1);
		assert_true(ser[1].values[0] == 2.0);
		store_series_free(ser, n);
	}
	store_cache_free(c);
	store_cache_free(none);

	memset(&seen, 0, sizeof(seen));
	assert_int_equal(store_runs_samples(st, ids, 2, mw, mv, undone_take,
	    &seen), 0);
	assert_int_equal(seen.count, 3);
	assert_true(seen.metric[0] == mw && seen.run[0] == 0);
	assert_true(seen.metric[1] == mv && seen.run[1] == 0);
	assert_true(seen.metric[2] == mv && seen.run[2] == 1);
	assert_int_equal(seen.n[2], 1);
	store_close(st);
	free(p);
}

/*
 * store_metric_series_cached() gives what store_metric_series() gives,
 * run for run, whether a run is read whole or sought: over 300 runs (the
 * cache's table grows twice), metrics missing from some runs, iterations
 * stored out of order.  That the whole runs really come from memory is
 * shown by deleting samples under the cache (which its contract forbids):
 * the cached series keep them, a cache that may keep nothing does not.
 */
static void
test_series_cache(void **state)
{
	struct store		*st;
	struct store_cache	*c, *none;
	struct store_series	*want, *got;
	struct store_run	 r, *runs;
	struct store_run_filter	 f;
	int64_t			 host, ids[300], m[3];
	size_t			 nw, ng, i, k, n;
	char			 label[16], *p = db_path(), *cause = NULL;
	int			 it;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	host = store_host_local(st);
	for (k = 0; k < 3; k++) {
		snprintf(label, sizeof(label), "m%zu", k);
		m[k] = store_metric_ensure(st, "w", label, "s", BETTER_LOWER,
		    &cause);
		assert_true(m[k] > 0);
	}
	assert_int_equal(store_begin(st), 0);
	for (i = 0; i < 300; i++) {
		memset(&r, 0, sizeof(r));
		r.host = host;
		snprintf(label, sizeof(label), "r%zu", i);
		r.label = label;
		r.trigger = "import";
		r.started = 1700000000 + (int64_t)i;
		r.status = RUN_COMPLETE;
		ids[i] = store_run_create(st, &r, &cause);
		assert_true(ids[i] > 0);
		for (it = 3; it >= 1; it--)
			assert_int_equal(store_sample_add(st, ids[i], m[0], it,
			    (double)i * 10 + it), 0);
		if (i % 2 == 0)
			assert_int_equal(store_sample_add(st, ids[i], m[1], 1,
			    -(double)i), 0);
		assert_int_equal(store_sample_add(st, ids[i], m[2], 7,
		    (double)i / 8), 0);
	}
	assert_int_equal(store_commit(st), 0);

	c = store_cache_new(1024 * 1024);
	none = store_cache_new(0);
	/* m0, m1, m2, then m0 again: runs read whole from the second ask. */
	for (k = 0; k < 4; k++) {
		assert_int_equal(store_metric_series(st, m[k % 3], ids, 300,
		    &want, &nw), 0);
		assert_int_equal(nw, 300);
		assert_int_equal(store_metric_series_cached(st, c, m[k % 3],
		    ids, 300, &got, &ng), 0);
		assert_int_equal(ng, 300);
		assert_series_equal(want, got, 300);
		store_series_free(got, ng);
		assert_int_equal(store_metric_series_cached(st, none,
		    m[k % 3], ids, 300, &got, &ng), 0);
		assert_series_equal(want, got, 300);
		store_series_free(got, ng);
		store_series_free(want, nw);
	}
	assert_int_equal(store_metric_series(st, m[0], ids + 10, 1, &want,
	    &nw), 0);
	assert_int_equal(want[0].n, 3);
	assert_int_equal(want[0].iterations[0], 1);
	assert_true(want[0].values[2] == 103);
	store_series_free(want, nw);
	assert_int_equal(store_metric_series(st, m[1], ids + 11, 1, &want,
	    &nw), 0);
	assert_int_equal(want[0].n, 0);
	store_series_free(want, nw);

	assert_int_equal(sqlite3_exec(st->db, "DELETE FROM samples WHERE"
	    " run IN (SELECT id FROM runs WHERE label = 'r10')", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(store_metric_series_cached(st, c, m[0], ids + 10, 1,
	    &got, &ng), 0);
	assert_int_equal(got[0].n, 3);
	assert_true(got[0].values[0] == 101);
	store_series_free(got, ng);
	assert_int_equal(store_metric_series_cached(st, none, m[0], ids + 10,
	    1, &got, &ng), 0);
	assert_int_equal(got[0].n, 0);
	store_series_free(got, ng);
	store_cache_free(c);
	store_cache_free(none);

	/* A host named is found first; an unknown one has no runs. */
	assert_int_equal(store_run_get(st, ids[0], &r), 0);
	memset(&f, 0, sizeof(f));
	f.host = r.host_name;
	assert_int_equal(store_runs_list(st, &f, &runs, &n), 0);
	assert_int_equal(n, 300);
	assert_string_equal(runs[0].label, "r0");
	assert_string_equal(runs[299].label, "r299");
	store_runs_free(runs, n);
	f.limit = 2;
	f.before_run = ids[100];
	assert_int_equal(store_runs_list(st, &f, &runs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0].label, "r98");
	assert_string_equal(runs[1].label, "r99");
	store_runs_free(runs, n);
	store_run_clear(&r);
	f.host = "no such host";
	f.limit = 0;
	f.before_run = 0;
	assert_int_equal(store_runs_list(st, &f, &runs, &n), 0);
	assert_int_equal(n, 0);
	store_runs_free(runs, n);
	store_close(st);
	free(p);
}

/* Create a run of status running on host; its id. */
static int64_t
running_run(struct store *st, int64_t host, const char *label)
{
	struct store_run	 r;
	char			*cause = NULL;
	int64_t			 id;

	memset(&r, 0, sizeof(r));
	r.host = host;
	r.label = (char *)label;
	r.trigger = "manual";
	r.started = 1800000000;
	r.status = RUN_RUNNING;
	id = store_run_create(st, &r, &cause);
	assert_null(cause);
	assert_true(id > 0);
	return id;
}

/* The status of run id, compared with want. */
static void
assert_status(struct store *st, int64_t id, const char *want)
{
	struct store_run	r;

	assert_int_equal(store_run_get(st, id, &r), 0);
	assert_string_equal(r.status, want);
	store_run_clear(&r);
}

/*
 * store_runs_sweep(): a run holding the lock keeps the runs running; once
 * it is gone (its store closed: as when its process dies), the next sweep
 * marks them aborted.  A lock path that is a symbolic link is refused.
 */
static void
test_runs_sweep(void **state)
{
	struct store	*a, *b;
	int64_t		 host, first, second;
	size_t		 marked = 99;
	int		 fd;
	char		*p = db_path(), *lock, *cause = NULL;

	(void)state;
	a = store_open(p, &cause);
	b = store_open(p, &cause);
	assert_non_null(a);
	assert_non_null(b);
	host = store_host_local(a);
	first = running_run(a, host, "dead");
	/* Nobody holds the lock: the sweep marks, then a holds it. */
	assert_int_equal(store_runs_sweep(a, host, 1, &marked, &cause), 0);
	assert_int_equal(marked, 1);
	assert_status(a, first, "aborted");
	assert_int_equal(store_runs_sweep(a, host, 1, &marked, &cause), -1);
	assert_non_null(strstr(cause, "already held"));
	free(cause);
	cause = NULL;
	second = running_run(a, host, "live");
	/* a's run is live: b marks nothing, held or not. */
	marked = 99;
	assert_int_equal(store_runs_sweep(b, host, 0, &marked, &cause), 1);
	assert_int_equal(marked, 0);
	assert_int_equal(store_runs_sweep(b, host, 1, &marked, &cause), 1);
	assert_status(b, second, "running");
	store_close(b);
	store_close(a);
	/* a is gone: the next sweep closes its run. */
	b = store_open(p, &cause);
	assert_non_null(b);
	assert_int_equal(store_runs_sweep(b, host, 0, &marked, &cause), 0);
	assert_int_equal(marked, 1);
	assert_status(b, second, "aborted");
	assert_int_equal(store_runs_sweep(b, host, 0, &marked, &cause), 0);
	assert_int_equal(marked, 0);
	/*
	 * A lock held exclusively for long is not a sweep (a lock file in a
	 * shared directory that someone else holds): not waited for.
	 */
	xasprintf(&lock, "%s.run", p);
	fd = open(lock, O_RDONLY);
	assert_true(fd != -1);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(store_runs_sweep(b, host, 1, &marked, &cause), -1);
	assert_non_null(strstr(cause, "held exclusively for 10 s"));
	free(cause);
	cause = NULL;
	close(fd);
	/* A planted link is not followed. */
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(symlink("/etc/passwd", lock), 0);
	assert_int_equal(store_runs_sweep(b, host, 0, &marked, &cause), -1);
	assert_non_null(strstr(cause, lock));
	free(cause);
	free(lock);
	store_close(b);
	free(p);
}

/*
 * rpm keeps several versions of one name and arch side by side: install-only
 * kernels, and a gpg-pubkey per key.  The store gives every one back.
 */
static void
test_snapshot_versions_side_by_side(void **state)
{
	struct store	*st;
	struct snapshot	*a, *got;
	int64_t		 id;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "pkg.manager", "rpm");
	sysinfo_snapshot_add_package(a, "gpg-pubkey", "5a6340b3-6229229e",
	    "(none)");
	sysinfo_snapshot_add_package(a, "gpg-pubkey", "8483c65d-5ccc5b19",
	    "(none)");
	sysinfo_snapshot_add_package(a, "kernel-core", "6.12.0-124.28.1.el10_1",
	    "x86_64");
	sysinfo_snapshot_add_package(a, "kernel-core", "6.12.0-55.9.1.el10_0",
	    "x86_64");
	assert_int_equal(a->npackages, 4);
	id = store_snapshot_put(st, a, &cause);
	assert_true(id > 0);
	got = store_snapshot_get(st, id, &cause);
	assert_non_null(got);
	assert_int_equal(got->npackages, 4);
	assert_string_equal(got->packages[1].version, "8483c65d-5ccc5b19");
	assert_string_equal(got->packages[3].version, "6.12.0-55.9.1.el10_0");
	assert_true(sysinfo_snapshot_equal(a, got, SYSINFO_ALL));
	sysinfo_snapshot_free(got);
	sysinfo_snapshot_free(a);
	store_close(st);
	free(p);
}

/*
 * A file of schema version 3 whose package set lost a second kernel: after
 * the migration the same machine's snapshot is stored whole, not matched
 * to the short set by its hash.
 */
static void
test_migrate_short_package_set(void **state)
{
	struct store	*st;
	struct snapshot	*a, *got;
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	char		 fh[SYSINFO_HASH_LEN + 1], ph[SYSINFO_HASH_LEN + 1];
	char		 key[2 * SYSINFO_HASH_LEN + 2], *fields;
	char		*p = db_path(), *cause = NULL;
	int64_t		 id;

	(void)state;
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "pkg.manager", "rpm");
	sysinfo_snapshot_add_package(a, "kernel-core", "6.12.0-124.28.1.el10_1",
	    "x86_64");
	sysinfo_snapshot_add_package(a, "kernel-core", "6.12.0-55.9.1.el10_0",
	    "x86_64");
	sysinfo_fields_hash(a, fh);
	sysinfo_packages_hash(a, ph);
	snprintf(key, sizeof(key), "%s/%s", fh, ph);
	fields = sysinfo_snapshot_dump(a, SYSINFO_FIELDS);

	/* What version 3 stored: the set counts two, holds one. */
	make_old_version(p, 3);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	    "INSERT INTO package_sets (id, hash, count) VALUES (1, ?, 2);"
	    , -1, &stmt, NULL), SQLITE_OK);
	sqlite3_bind_text(stmt, 1, ph, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO packages VALUES (1,"
	    " 'kernel-core', 'x86_64', '6.12.0-124.28.1.el10_1')", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
	    "INSERT INTO snapshots (id, hash, taken, package_set, fields)"
	    " VALUES (7, ?, 1, 1, ?)", -1, &stmt, NULL), SQLITE_OK);
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, fields, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
	sqlite3_close(db);

	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
	/* The old row still reads as it was kept. */
	got = store_snapshot_get(st, 7, &cause);
	assert_non_null(got);
	assert_int_equal(got->npackages, 1);
	sysinfo_snapshot_free(got);
	/* The machine as it is: a new row with both kernels. */
	id = store_snapshot_put(st, a, &cause);
	assert_true(id > 0 && id != 7);
	got = store_snapshot_get(st, id, &cause);
	assert_non_null(got);
	assert_int_equal(got->npackages, 2);
	assert_true(sysinfo_snapshot_equal(a, got, SYSINFO_ALL));
	sysinfo_snapshot_free(got);
	assert_int_equal(store_integrity_check(st, &cause), 0);
	store_close(st);
	free(fields);
	sysinfo_snapshot_free(a);
	free(p);
}

/*
 * A file of schema version 5, whose runs say "unknown length" the old
 * way: an end equal to the start on an import, an end at or before the
 * epoch.  After the migration each of those has no end (NULL) and reads
 * as unknown still; every other length reads as it did, 0 s of a run
 * that was not imported among them.  A measured 0 s import cannot be
 * told from an unknown one in such a file: it stays unknown, as it read.
 * Nor can a run aborted in its first second from one a sweep marked
 * aborted with its start as its end (a length it never had): unknown.
 */
static void
test_migrate_unknown_duration(void **state)
{
	static const struct run_length want[] = {
		{ "imp-same", -1 }, { "imp-60", 60 }, { "imp-none", -1 },
		{ "man-0", 0 }, { "sched-neg", -1 }, { "aborted-0", -1 },
		{ "aborted-5", 5 }, { "running", -1 },
	};
	struct store	*st;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	make_old_version(p, 5);
	file_exec(p,
	    "INSERT INTO runs (host, label, trigger, started, ended, status)"
	    "  VALUES (1, 'imp-same', 'import', 1000, 1000, 'complete'),"
	    "  (1, 'imp-60', 'import', 1000, 1060, 'complete'),"
	    "  (1, 'imp-none', 'import', 1000, NULL, 'complete'),"
	    "  (1, 'man-0', 'manual', 1000, 1000, 'complete'),"
	    "  (1, 'sched-neg', 'schedule', -5, -5, 'complete'),"
	    "  (1, 'aborted-0', 'manual', 1000, 1000, 'aborted'),"
	    "  (1, 'aborted-5', 'manual', 1000, 1005, 'aborted'),"
	    "  (1, 'running', 'manual', 1000, NULL, 'running');");

	st = store_open(p, &cause);
	assert_non_null(st);
	assert_int_equal(store_user_version(st), STORE_SCHEMA_VERSION);
	/* r-old, imp-same, imp-none, sched-neg, aborted-0, running. */
	assert_int_equal(count(st, "runs WHERE ended IS NULL"), 6);
	check_run_lengths(st, want, nitems(want));
	store_close(st);
	free(p);
}

static void
test_snapshots(void **state)
{
	struct store	*st;
	struct snapshot	*a, *b, *got;
	int64_t		 ia, ib, n1, n2, n3;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(a, "cpu.model", "Test CPU");
	sysinfo_snapshot_set(a, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(a, "auditd", "1:3.0.9-1", "amd64");
	sysinfo_snapshot_add_package(a, "grep", "3.8-5", "amd64");
	ia = store_snapshot_put(st, a, &cause);
	assert_true(ia > 0);
	/* The same content is the same row. */
	assert_int_equal(store_snapshot_put(st, a, &cause), ia);
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(b, "kernel.release", "6.1.0-20-amd64");
	sysinfo_snapshot_set(b, "cpu.model", "Test CPU");
	sysinfo_snapshot_set(b, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(b, "auditd", "1:3.0.9-1", "amd64");
	sysinfo_snapshot_add_package(b, "grep", "3.8-5", "amd64");
	/* Other fields, same packages: a new snapshot, the same set. */
	ib = store_snapshot_put(st, b, &cause);
	assert_true(ib > 0 && ib != ia);
	assert_int_equal(store_snapshot_usage(st, &n1, &n2, &n3), 0);
	assert_int_equal(n1, 2);
	assert_int_equal(n2, 1);
	assert_int_equal(n3, 2);
	got = store_snapshot_get(st, ia, &cause);
	assert_non_null(got);
	assert_true(sysinfo_snapshot_equal(a, got, SYSINFO_ALL));
	assert_string_equal(sysinfo_snapshot_get(got, "kernel.release"),
	    "6.1.0-18-amd64");
	assert_int_equal(got->npackages, 2);
	assert_string_equal(sysinfo_snapshot_package(got, "auditd",
	    "amd64")->version, "1:3.0.9-1");
	sysinfo_snapshot_free(got);
	assert_null(store_snapshot_get(st, 999, &cause));
	assert_string_equal(cause, "no snapshot 999");
	free(cause);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
	store_close(st);
	free(p);
}

/*
 * A lookup of a snapshot or package set by its hash that fails is no
 * "not there": store_snapshot_put tried the INSERT, which failed on the
 * row that was there ("UNIQUE constraint failed") or added a second
 * package set.  The lookup's failure is returned, and nothing is added.
 */
static void
test_snapshot_lookup_errors(void **state)
{
	struct store	*st;
	struct snapshot	*a, *b;
	int64_t		 ia, n1, n2, n3, m1, m2, m3;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	st = store_open(p, &cause);
	assert_non_null(st);
	a = sysinfo_snapshot_new();
	sysinfo_snapshot_set(a, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(a, "cpu.model", "Test CPU");
	sysinfo_snapshot_add_package(a, "grep", "3.8-5", "amd64");
	ia = store_snapshot_put(st, a, &cause);
	assert_true(ia > 0);
	assert_int_equal(store_snapshot_usage(st, &n1, &n2, &n3), 0);

	/* The snapshot that is there, its lookup refused. */
	sqlite3_set_authorizer(st->db, deny_table, "snapshots");
	assert_int_equal(store_snapshot_put(st, a, &cause), -1);
	assert_int_equal(store_failure(st), STORE_FAILED);
	assert_non_null(strstr(cause, ": looking up a snapshot: access to "
	    "snapshots."));
	assert_null(strstr(cause, "UNIQUE"));
	free(cause);
	cause = NULL;

	/* A new snapshot of the same packages, the set's lookup refused. */
	b = sysinfo_snapshot_new();
	sysinfo_snapshot_set(b, "kernel.release", "6.1.0-20-amd64");
	sysinfo_snapshot_set(b, "cpu.model", "Test CPU");
	sysinfo_snapshot_add_package(b, "grep", "3.8-5", "amd64");
	sqlite3_set_authorizer(st->db, deny_table, "package_sets");
	assert_int_equal(store_snapshot_put(st, b, &cause), -1);
	assert_non_null(strstr(cause, ": looking up a package set: access to "
	    "package_sets."));
	free(cause);
	cause = NULL;
	sqlite3_set_authorizer(st->db, NULL, NULL);
	assert_int_equal(store_snapshot_usage(st, &m1, &m2, &m3), 0);
	assert_int_equal(m1, n1);
	assert_int_equal(m2, n2);
	assert_int_equal(m3, n3);

	/* Whole again, the same content is the same row. */
	assert_int_equal(store_snapshot_put(st, a, &cause), ia);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
	store_close(st);
	free(p);
}

/* Another process: its store handle, what it stores, the id it got. */
struct race {
	struct store		*other;
	const struct snapshot	*snap;	/* NULL once stored */
	int64_t			 id;
};

/*
 * Do what another process does while this one is about to take the
 * write lock: store r->snap through r->other, once, as this one's BEGIN
 * is prepared (the authorizer is asked about it then), after this one
 * looked for the snapshot and did not find it.
 */
static int
store_before_begin(void *arg, int action, const char *a, const char *b,
    const char *c, const char *d)
{
	struct race	*r = arg;
	char		*cause = NULL;

	(void)b;
	(void)c;
	(void)d;
	if (action == SQLITE_TRANSACTION && a != NULL &&
	    strcmp(a, "BEGIN") == 0 && r->snap != NULL) {
		r->id = store_snapshot_put(r->other, r->snap, &cause);
		if (r->id == -1)
			print_error("the other store_snapshot_put: %s\n", cause);
		free(cause);
		r->snap = NULL;
	}
	return SQLITE_OK;
}

/*
 * Two processes storing the same machine at once: both looked it up
 * before either had stored it, and the second INSERT failed ("UNIQUE
 * constraint failed: snapshots.hash") instead of returning the row the
 * first stored.  The lookup that decides is made under the write lock,
 * and the second gets the first's id.
 */
static void
test_snapshot_put_race(void **state)
{
	struct store	*a, *b;
	struct snapshot	*s, *t, *u;
	struct race	 r;
	int64_t		 id, n1, n2, n3;
	char		*p = db_path(), *cause = NULL;

	(void)state;
	a = store_open(p, &cause);
	b = store_open(p, &cause);
	assert_non_null(a);
	assert_non_null(b);
	s = sysinfo_snapshot_new();
	sysinfo_snapshot_set(s, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(s, "cpu.model", "Test CPU");
	sysinfo_snapshot_add_package(s, "grep", "3.8-5", "amd64");

	r.other = b;
	r.snap = s;
	r.id = -1;
	sqlite3_set_authorizer(a->db, store_before_begin, &r);
	id = store_snapshot_put(a, s, &cause);
	sqlite3_set_authorizer(a->db, NULL, NULL);
	if (id == -1)
		print_error("store_snapshot_put: %s\n", cause);
	assert_null(r.snap);
	assert_true(r.id > 0);
	assert_int_equal(id, r.id);
	assert_int_equal(store_snapshot_usage(a, &n1, &n2, &n3), 0);
	assert_int_equal(n1, 1);
	assert_int_equal(n2, 1);
	assert_int_equal(n3, 1);

	/*
	 * Two new machines of the same packages (two kernels booted), one
	 * stored by b meanwhile: a's package set is b's, looked up under
	 * the lock too.
	 */
	t = sysinfo_snapshot_new();
	sysinfo_snapshot_set(t, "kernel.release", "6.1.0-20-amd64");
	sysinfo_snapshot_set(t, "cpu.model", "Test CPU");
	sysinfo_snapshot_add_package(t, "grep", "3.8-5", "amd64");
	u = sysinfo_snapshot_new();
	sysinfo_snapshot_set(u, "kernel.release", "6.1.0-21-amd64");
	sysinfo_snapshot_set(u, "cpu.model", "Test CPU");
	sysinfo_snapshot_add_package(u, "grep", "3.8-5", "amd64");
	r.snap = u;
	r.id = -1;
	sqlite3_set_authorizer(a->db, store_before_begin, &r);
	id = store_snapshot_put(a, t, &cause);
	sqlite3_set_authorizer(a->db, NULL, NULL);
	if (id == -1)
		print_error("store_snapshot_put: %s\n", cause);
	assert_true(r.id > 0);
	assert_true(id > 0 && id != r.id);
	assert_int_equal(store_snapshot_usage(a, &n1, &n2, &n3), 0);
	assert_int_equal(n1, 3);
	assert_int_equal(n2, 1);
	assert_int_equal(n3, 1);
	assert_int_equal(store_integrity_check(a, &cause), 0);
	sysinfo_snapshot_free(s);
	sysinfo_snapshot_free(t);
	sysinfo_snapshot_free(u);
	store_close(b);
	store_close(a);
	free(p);
}

/* Another process adding the host this one is about to add. */
struct host_race {
	struct store	*other;
	const char	*name;		/* NULL once added */
	int64_t		 id;
};

/*
 * Add r->name through r->other as this process's INSERT of a host is
 * prepared (the authorizer is asked about it then), after this one
 * looked for the host and did not find it.
 */
static int
host_before_insert(void *arg, int action, const char *a, const char *b,
    const char *c, const char *d)
{
	struct host_race	*r = arg;

	(void)b;
	(void)c;
	(void)d;
	if (action == SQLITE_INSERT && a != NULL && strcmp(a, "hosts") == 0 &&
	    r->name != NULL) {
		r->id = store_host_ensure(r->other, r->name, NULL);
		r->name = NULL;
	}
	return SQLITE_OK;
}

/*
 * Two processes meeting a new host at once (perfwatchd's first run
 * beside a perfwatch run on a new store): both looked it up before
 * either added it, and the second INSERT failed ("UNIQUE constraint
 * failed: hosts.name") instead of returning the row the first added.
 */
static void
test_host_ensure_race(void **state)
{
	struct store		*a, *b;
	struct host_race	 r;
	int64_t			 id, again;
	char			*p = db_path(), *cause = NULL;

	(void)state;
	a = store_open(p, &cause);
	b = store_open(p, &cause);
	assert_non_null(a);
	assert_non_null(b);
	r.other = b;
	r.name = "box";
	r.id = -1;
	sqlite3_set_authorizer(a->db, host_before_insert, &r);
	id = store_host_ensure(a, "box", "m1");
	sqlite3_set_authorizer(a->db, NULL, NULL);
	assert_null(r.name);
	assert_true(r.id > 0);
	assert_int_equal(id, r.id);
	assert_int_equal(store_host_find(a, "box", &again), 0);
	assert_int_equal(again, id);
	/* A host new to both is still added, with its own id. */
	id = store_host_ensure(a, "other", NULL);
	assert_true(id > 0 && id != r.id);
	assert_int_equal(store_integrity_check(a, &cause), 0);
	store_close(b);
	store_close(a);
	free(p);
}

/*
 * store_run_last_covering: the newest run that measured and ran each
 * workload asked that some run measured, however far back.  60 runs of
 * "tiny" alone after one of the whole battery: that one (perfwatchd
 * looked at the last 50 runs, and took a "tiny" run for the battery); a
 * workload no run has measured is not asked; a busy, failed or
 * snapshotless run is none; a workload that failed in a run was run.
 */
static void
test_last_covering(void **state)
{
	static const char *const battery[] = { "tiny", "other", "new" };
	struct store	*st;
	char		*p, *cause = NULL, sql[512];
	int64_t		 run = 0;
	int		 i;

	(void)state;
	p = db_path();
	assert_non_null(st = store_open(p, &cause));
	assert_int_equal(sqlite3_exec(st->db,
	    "INSERT INTO hosts (name) VALUES ('box'), ('other');"
	    "INSERT INTO snapshots (id, hash, taken, fields)"
	    "  VALUES (1, 'h', 1, '{}');"
	    "INSERT INTO runs (id, host, label, snapshot, trigger, started,"
	    "  status) VALUES (1, 1, 'whole', 1, 'manual', 100, 'complete');"
	    "INSERT INTO run_workloads (run, workload, status)"
	    "  VALUES (1, 'tiny', 'complete'), (1, 'other', 'failed');",
	    NULL, NULL, NULL), SQLITE_OK);
	for (i = 0; i < 60; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO runs (id, host, label,"
		    " snapshot, trigger, started, status) VALUES (%d, 1,"
		    " 'tiny-%d', 1, 'git', %d, 'complete');"
		    "INSERT INTO run_workloads (run, workload, status)"
		    " VALUES (%d, 'tiny', 'complete');", 10 + i, i, 200 + i,
		    10 + i);
		assert_int_equal(sqlite3_exec(st->db, sql, NULL, NULL, NULL),
		    SQLITE_OK);
	}
	/* Newer, of the whole battery, but none that measured. */
	assert_int_equal(sqlite3_exec(st->db,
	    "INSERT INTO runs (id, host, label, snapshot, trigger, started,"
	    "  status, quiet) VALUES"
	    "  (100, 1, 'busy', 1, 'manual', 500, 'complete', '{\"busy\":true}'),"
	    "  (101, 1, 'failed', 1, 'manual', 501, 'failed', NULL),"
	    "  (102, 1, 'bare', NULL, 'manual', 502, 'complete', NULL),"
	    "  (103, 2, 'away', 1, 'manual', 503, 'complete', NULL);"
	    "INSERT INTO run_workloads (run, workload, status) VALUES"
	    "  (100, 'tiny', 'complete'), (100, 'other', 'complete'),"
	    "  (101, 'tiny', 'complete'), (101, 'other', 'complete'),"
	    "  (102, 'tiny', 'complete'), (102, 'other', 'complete'),"
	    "  (103, 'tiny', 'complete'), (103, 'other', 'complete');",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_run_last_covering(st, 1, battery, 3, &run), 0);
	assert_int_equal(run, 1);
	/* Of tiny alone: the newest tiny run that measured. */
	assert_int_equal(store_run_last_covering(st, 1, battery, 1, &run), 0);
	assert_int_equal(run, 69);
	/* Of none: the newest run that measured. */
	assert_int_equal(store_run_last_covering(st, 1, NULL, 0, &run), 0);
	assert_int_equal(run, 69);
	/* A workload of a name to be quoted, which no run has. */
	{
		const char *const odd[] = { "it's", "tiny" };

		assert_int_equal(store_run_last_covering(st, 1, odd, 2, &run),
		    0);
		assert_int_equal(run, 69);
	}
	assert_int_equal(store_run_last_covering(st, 3, battery, 3, &run), -1);
	store_close(st);
	free(p);
}

static void
test_format_double(void **state)
{
	char	buf[40];

	(void)state;
	store_format_double(buf, sizeof(buf), 19004);
	assert_string_equal(buf, "19004");
	store_format_double(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	store_format_double(buf, sizeof(buf), 1.0 / 3);
	assert_string_equal(buf, "0.3333333333333333");
	store_format_double(buf, sizeof(buf), -2.5e-300);
	assert_string_equal(buf, "-2.5e-300");
	/* Subnormal: fewer digits than "%.15g" gives (9.99999999999997e-311). */
	store_format_double(buf, sizeof(buf), 1e-310);
	assert_string_equal(buf, "1e-310");
	store_format_double(buf, sizeof(buf), 5e-324);
	assert_string_equal(buf, "5e-324");
	store_format_double(buf, sizeof(buf), -2.2250738585072e-309);
	assert_string_equal(buf, "-2.2250738585072e-309");
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	return 0;
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
		cmocka_unit_test(test_open_empty),
		cmocka_unit_test(test_remove_unused),
		cmocka_unit_test(test_migrate_each_version),
		cmocka_unit_test(test_migrate_ids_kept),
		cmocka_unit_test(test_last_covering),
		cmocka_unit_test(test_newer_while_open),
		cmocka_unit_test(test_concurrent_open),
		cmocka_unit_test(test_migration_error),
		cmocka_unit_test(test_newer_refused_untouched),
		cmocka_unit_test(test_foreign_refused),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_rows_leave_store),
		cmocka_unit_test(test_import_positions),
		cmocka_unit_test(test_csv_nul),
		cmocka_unit_test(test_denormal),
		cmocka_unit_test(test_resolve_labels),
		cmocka_unit_test(test_run_workloads_error),
		cmocka_unit_test(test_baseline_delete),
		cmocka_unit_test(test_outbox_split_error),
		cmocka_unit_test(test_busy_limit),
		cmocka_unit_test(test_lookup_errors),
		cmocka_unit_test(test_alerts_page),
		cmocka_unit_test(test_ensure_lookup_errors),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_series_cache),
		cmocka_unit_test(test_series_undone),
		cmocka_unit_test(test_import_progress),
		cmocka_unit_test(test_import_names_distinct),
		cmocka_unit_test(test_import_duration_same),
		cmocka_unit_test(test_import_duration_zero),
		cmocka_unit_test(test_runs_and_series),
		cmocka_unit_test(test_runs_sweep),
		cmocka_unit_test(test_snapshots),
		cmocka_unit_test(test_snapshot_lookup_errors),
		cmocka_unit_test(test_snapshot_put_race),
		cmocka_unit_test(test_host_ensure_race),
		cmocka_unit_test(test_snapshot_versions_side_by_side),
		cmocka_unit_test(test_migrate_short_package_set),
		cmocka_unit_test(test_migrate_unknown_duration),
		cmocka_unit_test(test_format_double),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
