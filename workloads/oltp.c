/*
 * db.oltp: sysbench's OLTP read-only transaction against an embedded
 * SQLite database, swept over thread counts.
 *
 * The database (oltp.db in the iteration directory) holds sysbench's
 * table: sbtest1(id INTEGER PRIMARY KEY, k INTEGER, c CHAR(120),
 * pad CHAR(60)) with an index on k, table_size rows, k uniform in
 * [1, table_size], c ten and pad five groups of eleven random digits
 * joined by '-', as sysbench fills them.  It is loaded once per
 * iteration, untimed.
 *
 * One transaction, as sysbench's oltp read-only mode runs it:
 *   BEGIN
 *   10 x  SELECT c FROM sbtest1 WHERE id = ?
 *         SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?
 *         SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?
 *         SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c
 *         SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ?
 *             ORDER BY c
 *   COMMIT
 * with ids uniformly random and ranges of 100 rows; every row is fetched.
 *
 * For each thread count (1, 2, 4 ... up to at least twice the CPUs, or
 * the configured list) that many threads, each with its own connection,
 * start together and run transactions back to back for duration seconds.
 * The CPUs are those this process may use (wl_ncpu: its affinity mask,
 * capped by a CPU quota), not the machine's: pinned to one CPU of eight,
 * a sweep to 16 threads would measure the scheduler's time slicing.  A
 * run under such a limit therefore has fewer tps_tN (and a scalability
 * of the CPUs it had); a note names the limit.
 *
 *   tps_tN       transactions per second with N threads (all threads'
 *                transactions over the time from the common start to the
 *                last thread's end)                              tps
 *   p95_ms_tN    95th percentile of the transactions' latency,
 *                nearest rank over every transaction              ms
 *   scalability  the peak tps divided by the single-thread tps, when
 *                1 is among the thread counts                     x
 */
#include <sys/resource.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "workloads.h"
#include "internal.h"

#define OLTP_DB		"oltp.db"
#define OLTP_POINTS	10
#define OLTP_RANGE	100
#define OLTP_CACHE_PRAGMA	"PRAGMA cache_size = -65536"	/* KiB */
/* Open files beside the threads' connections: stdio, the runner's. */
#define OLTP_FILES_MARGIN	64

enum oltp_stmt {
	ST_BEGIN,
	ST_POINT,
	ST_SIMPLE,
	ST_SUM,
	ST_ORDER,
	ST_DISTINCT,
	ST_COMMIT,
	ST_COUNT,
};

static const char *const oltp_sql[ST_COUNT] = {
	"BEGIN",
	"SELECT c FROM sbtest1 WHERE id = ?1",
	"SELECT c FROM sbtest1 WHERE id BETWEEN ?1 AND ?2",
	"SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ?1 AND ?2",
	"SELECT c FROM sbtest1 WHERE id BETWEEN ?1 AND ?2 ORDER BY c",
	("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ?1 AND ?2 "
	    "ORDER BY c"),
	"COMMIT",
};

struct oltp_worker {
	pthread_t		 thread;
	pthread_barrier_t	*start;
	double			 duration;
	uint64_t		 rows;
	uint64_t		 rng;
	sqlite3			*db;
	sqlite3_stmt		*st[ST_COUNT];
	double			*lat;		/* ms, one per transaction */
	size_t			 nlat;
	size_t			 caplat;
	double			 begin;		/* out of the barrier */
	double			 end;
	char			*error;
};

/* Fill s with groups of eleven random digits joined by '-'. */
static void
oltp_digits(char *s, int groups, uint64_t *rng)
{
	int	g, i;

	for (g = 0; g < groups; g++) {
		if (g > 0)
			*s++ = '-';
		for (i = 0; i < 11; i++)
			*s++ = '0' + wl_rng_next(rng) % 10;
	}
	*s = '\0';
}

/* Create and fill the table, untimed. */
static int
oltp_load(uint64_t rows, char **cause)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*ins = NULL;
	char		 c[10 * 12], pad[5 * 12];
	uint64_t	 rng = 0x01f9, id;

	(void)unlink(OLTP_DB);
	if (sqlite3_open_v2(OLTP_DB, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_exec(db, "PRAGMA synchronous = OFF;"
	    "CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, "
	    "k INTEGER NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', "
	    "pad CHAR(60) NOT NULL DEFAULT '');"
	    "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_prepare_v2(db, "INSERT INTO sbtest1 (id, k, c, pad) "
	    "VALUES (?1, ?2, ?3, ?4)", -1, &ins, NULL) != SQLITE_OK)
		goto fail;
	for (id = 1; id <= rows; id++) {
		oltp_digits(c, 10, &rng);
		oltp_digits(pad, 5, &rng);
		sqlite3_bind_int64(ins, 1, (sqlite3_int64)id);
		sqlite3_bind_int64(ins, 2,
		    (sqlite3_int64)(1 + wl_rng_next(&rng) % rows));
		sqlite3_bind_text(ins, 3, c, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, pad, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE)
			goto fail;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	ins = NULL;
	if (sqlite3_exec(db, "COMMIT; CREATE INDEX k_1 ON sbtest1 (k);"
	    "ANALYZE", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_close(db) != SQLITE_OK)
		goto fail;
	return 0;
fail:
	xasprintf(cause, "loading %s: %s", OLTP_DB, db != NULL ?
	    sqlite3_errmsg(db) : "cannot open");
	sqlite3_finalize(ins);
	sqlite3_close(db);
	return -1;
}

/* Open a worker's connection and prepare its statements. */
static int
oltp_connect(struct oltp_worker *w, char **cause)
{
	int	i;

	if (sqlite3_open_v2(OLTP_DB, &w->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_exec(w->db, OLTP_CACHE_PRAGMA, NULL, NULL, NULL) !=
	    SQLITE_OK)
		goto fail;
	for (i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(w->db, oltp_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &w->st[i], NULL) != SQLITE_OK)
			goto fail;
	}
	return 0;
fail:
	xasprintf(cause, "%s: %s", OLTP_DB, w->db != NULL ?
	    sqlite3_errmsg(w->db) : "cannot open");
	return -1;
}

/* Close a worker's connection. */
static void
oltp_disconnect(struct oltp_worker *w)
{
	int	i;

	for (i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(w->st[i]);
		w->st[i] = NULL;
	}
	sqlite3_close(w->db);
	w->db = NULL;
}

/* Run a statement to its end, fetching every row. */
static int
oltp_step_all(sqlite3_stmt *st)
{
	int	rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		(void)sqlite3_column_text(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Bind a range of OLTP_RANGE rows starting at a random id and run. */
static int
oltp_range(struct oltp_worker *w, sqlite3_stmt *st)
{
	uint64_t	first;

	first = 1 + wl_rng_next(&w->rng) % (w->rows - OLTP_RANGE + 1);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)first);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)(first + OLTP_RANGE - 1));
	return oltp_step_all(st);
}

/* One read-only transaction. */
static int
oltp_transaction(struct oltp_worker *w)
{
	int	i;

	if (oltp_step_all(w->st[ST_BEGIN]) == -1)
		return -1;
	for (i = 0; i < OLTP_POINTS; i++) {
		sqlite3_bind_int64(w->st[ST_POINT], 1,
		    (sqlite3_int64)(1 + wl_rng_next(&w->rng) % w->rows));
		if (oltp_step_all(w->st[ST_POINT]) == -1)
			return -1;
	}
	if (oltp_range(w, w->st[ST_SIMPLE]) == -1 ||
	    oltp_range(w, w->st[ST_SUM]) == -1 ||
	    oltp_range(w, w->st[ST_ORDER]) == -1 ||
	    oltp_range(w, w->st[ST_DISTINCT]) == -1)
		return -1;
	return oltp_step_all(w->st[ST_COMMIT]);
}

/* A worker thread: wait for the start, then transactions until time. */
static void *
oltp_worker_main(void *arg)
{
	struct oltp_worker	*w = arg;
	double			 t0, t1, deadline;

	pthread_barrier_wait(w->start);
	t1 = w->begin = wl_now();
	deadline = t1 + w->duration;
	do {
		t0 = t1;
		if (oltp_transaction(w) == -1) {
			w->error = xstrdup(sqlite3_errmsg(w->db));
			break;
		}
		t1 = wl_now();
		if (w->nlat == w->caplat) {
			w->caplat = w->caplat == 0 ? 4096 : w->caplat * 2;
			w->lat = xreallocarray(w->lat, w->caplat,
			    sizeof(*w->lat));
		}
		w->lat[w->nlat++] = (t1 - t0) * 1000.0;
	} while (t1 < deadline);
	w->end = wl_now();
	return NULL;
}

/* One step of the sweep: tps and p95 with nthreads threads. */
static int
oltp_step(const struct wl_params *p, int nthreads, double *tps, double *p95,
    char **cause)
{
	struct oltp_worker	*w;
	pthread_barrier_t	 start;
	double			 t0 = 0, end = 0, *all;
	size_t			 total = 0, k;
	int			 i, started = 0, rc = -1, error;

	w = xcalloc(nthreads, sizeof(*w));
	if ((error = pthread_barrier_init(&start, NULL, nthreads + 1)) != 0) {
		xasprintf(cause, "pthread_barrier_init: %s", strerror(error));
		free(w);
		return -1;
	}
	for (i = 0; i < nthreads; i++) {
		w[i].start = &start;
		w[i].duration = p->duration;
		w[i].rows = p->table_size;
		w[i].rng = (uint64_t)nthreads << 32 | (uint64_t)i;
		if (oltp_connect(&w[i], cause) == -1)
			goto out;
	}
	for (i = 0; i < nthreads; i++) {
		error = pthread_create(&w[i].thread, NULL, oltp_worker_main,
		    &w[i]);
		if (error != 0) {
			/* The barrier would never open: leave at once. */
			dprintf(STDERR_FILENO, "pthread_create: %s\n",
			    strerror(error));
			_exit(1);
		}
		started++;
	}
	/*
	 * The common start is the first worker's: this thread, with more
	 * threads than CPUs, may be woken from the barrier milliseconds
	 * after the workers, and its clock made the span short and the
	 * rate high (by 0.8% at 16 threads on 2 CPUs for 1 s).
	 */
	pthread_barrier_wait(&start);
	for (i = 0; i < started; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].error != NULL && *cause == NULL)
			xasprintf(cause, "%d threads: %s", nthreads,
			    w[i].error);
		if (w[i].end > end)
			end = w[i].end;
		if (i == 0 || w[i].begin < t0)
			t0 = w[i].begin;
		total += w[i].nlat;
	}
	if (*cause != NULL)
		goto out;
	all = xcalloc(total > 0 ? total : 1, sizeof(*all));
	for (i = 0, k = 0; i < nthreads; i++) {
		memcpy(all + k, w[i].lat, w[i].nlat * sizeof(*all));
		k += w[i].nlat;
	}
	*tps = total / (end - t0 > 0 ? end - t0 : 1e-9);
	*p95 = wl_percentile(all, total, 95.0);
	free(all);
	rc = 0;
out:
	for (i = 0; i < nthreads; i++) {
		oltp_disconnect(&w[i]);
		free(w[i].lat);
		free(w[i].error);
	}
	pthread_barrier_destroy(&start);
	free(w);
	return rc;
}

/*
 * Let this process (the workload's child) open a connection for each of
 * nthreads threads, and OLTP_FILES_MARGIN files more: raise the soft
 * RLIMIT_NOFILE as far as the hard limit allows.  Under the usual soft
 * limit of 1024 (systemd's default too) a sweep to more than about 1020
 * threads failed with "oltp.db: unable to open database file", though
 * threads takes up to 4096.  0, or -1 with *cause when the hard limit is
 * too low.
 */
static int
oltp_files(int nthreads, char **cause)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)nthreads + OLTP_FILES_MARGIN;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		xasprintf(cause, "getrlimit RLIMIT_NOFILE: %s",
		    strerror(errno));
		return -1;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) {
		xasprintf(cause, "threads %d need about %llu open files; the "
		    "limit is %llu (ulimit -Hn)", nthreads,
		    (unsigned long long)want, (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		xasprintf(cause, "setrlimit RLIMIT_NOFILE to %llu: %s",
		    (unsigned long long)want, strerror(errno));
		return -1;
	}
	return 0;
}

/* One db.oltp run: load, then the sweep. */
int
wl_oltp_run(const struct wl_params *p, int out, char **cause)
{
	struct sysinfo_allowed	allowed;
	int	threads[WL_THREADS_MAX];
	double	tps, p95, one = 0, peak = 0;
	char	name[WL_NAME_MAX], list[WL_THREADS_MAX * 6] = "";
	size_t	n, i;
	int	rc = -1, most = 0;

	*cause = NULL;
	n = wl_params_threads(p, threads, nitems(threads));
	for (i = 0; i < n; i++) {
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%d", i == 0 ? "" : ",", threads[i]);
		if (threads[i] > most)
			most = threads[i];
	}
	if (p->table_size < OLTP_RANGE) {
		xasprintf(cause, "table_size must be at least %d", OLTP_RANGE);
		return -1;
	}
	if (sqlite3_threadsafe() == 0) {
		xasprintf(cause, "SQLite was built without thread support");
		return -1;
	}
	if (oltp_files(most, cause) == -1)
		return -1;
	if (oltp_load(p->table_size, cause) == -1)
		goto out;
	wl_note(out, "sbtest1 %llu rows; threads %s; %g s each",
	    (unsigned long long)p->table_size, list, p->duration);
	sysinfo_allowed(NULL, &allowed);
	if (p->nthreads == 0 && allowed.cpus < allowed.online)
		wl_note(out, "threads sized to the %d CPU%s this run may use "
		    "of %d online (%s)", allowed.cpus, allowed.cpus == 1 ?
		    "" : "s", allowed.online, allowed.cpu_quota ?
		    "CPU quota" : "affinity");
	for (i = 0; i < n; i++) {
		if (oltp_step(p, threads[i], &tps, &p95, cause) == -1)
			goto out;
		snprintf(name, sizeof(name), "tps_t%d", threads[i]);
		if (wl_emit(out, name, tps, "tps", BETTER_HIGHER) == -1)
			goto write_error;
		snprintf(name, sizeof(name), "p95_ms_t%d", threads[i]);
		if (wl_emit(out, name, p95, "ms", BETTER_LOWER) == -1)
			goto write_error;
		if (threads[i] == 1)
			one = tps;
		if (tps > peak)
			peak = tps;
	}
	if (one > 0 && wl_emit(out, "scalability", peak / one, "x",
	    BETTER_HIGHER) == -1)
		goto write_error;
	rc = 0;
	goto out;
write_error:
	xasprintf(cause, "writing results: %s", strerror(errno));
out:
	(void)unlink(OLTP_DB);
	return rc;
}
