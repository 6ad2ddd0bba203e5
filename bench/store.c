/*
 * bench/store: how the store holds a ten-year nightly history.
 *
 * Generates 3650 runs x 200 metrics x 10 iterations (7.3 M samples) as an
 * import file, imports it with the same code as "perfwatch import", and
 * prints: the import rate, the database size per sample, the time to load
 * the last 30 runs' samples of every metric (what detection does for one
 * run), and the time of "perfwatch history --metric" over all runs.
 *
 * usage: store [-r RUNS] [-m METRICS] [-i ITERATIONS] [-d DIR] [-p PERFWATCH]
 * -p names the perfwatch to time (../bin/perfwatch beside this bench, else
 * perfwatch in PATH); it reads metric m017, or the last there is with -m
 * under 18.
 * Stopped by SIGTERM, SIGINT or SIGHUP, it exits 128 + the signal at the
 * next step or run it makes, its scratch directory removed.
 * Figures are printed, never asserted: the machine is shared and noisy.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "log.h"
#include "xmalloc.h"
#include "store/store.h"

static long long
file_size(const char *path)
{
	struct stat	sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

/*
 * The scratch directory made without -d (static: store_scratch_remove()
 * runs after main() has returned), and whether it was made: not when -d
 * names a directory, whose bench.db is kept for other benches.
 */
static char	store_scratch[] = "/tmp/pw-bench-store.XXXXXX";
static int	store_scratch_made;

/* The signal that asked the bench to stop, or 0. */
static volatile sig_atomic_t	store_signal;

static void
store_on_signal(int sig)
{
	store_signal = sig;
}

/*
 * Have sig noted by store_on_signal(), unless it was ignored on entry
 * (nohup, a job started with & by a shell without job control): the
 * bench then goes on through it, as it did.
 */
static void
store_catch(int sig)
{
	struct sigaction	sa, old;

	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = store_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/*
 * If a signal asked the bench to stop, exit 128 + it: through exit(), so
 * that store_scratch_remove() runs, which the signal's own default
 * action (death) never did, leaving hundreds of MiB in /tmp.
 */
static void
store_stop_if_signalled(void)
{
	int	sig = store_signal;

	if (sig == 0)
		return;
	fprintf(stderr, "bench-store: %s: stopping\n", strsignal(sig));
	exit(128 + sig);
}

/*
 * Remove the scratch directory and its database (161 MiB at the
 * defaults, which a run without -d has no use for afterwards): at exit,
 * so that the fatal() of a failed step, and a signal, remove it too.
 */
static void
store_scratch_remove(void)
{
	const char	*files[] = { "history.csv", "bench.db", "bench.db-wal",
			    "bench.db-shm", "bench.db-journal" };
	char		*path;
	size_t		 i;

	if (!store_scratch_made)
		return;
	for (i = 0; i < nitems(files); i++) {
		xasprintf(&path, "%s/%s", store_scratch, files[i]);
		if (unlink(path) == -1 && errno != ENOENT)
			fprintf(stderr, "bench-store: unlink %s: %s\n", path,
			    strerror(errno));
		free(path);
	}
	if (rmdir(store_scratch) == -1)
		fprintf(stderr, "bench-store: rmdir %s: %s\n", store_scratch,
		    strerror(errno));
}

/* A reproducible pseudo-random number in [0, 1). */
static double
rnd(unsigned long long *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*s >> 11) / 9007199254740992.0;
}

int
main(int argc, char **argv)
{
	struct store_import_stats stats;
	struct store_run_filter	 filt;
	struct store_run	*runs;
	struct store_series	*ser;
	struct store		*st;
	unsigned long long	 seed = 42;
	const char		*dir = NULL;
	char			*csv, *db, *cause = NULL, *cmd, *pw = NULL;
	size_t			 nruns, nser, i, total = 0;
	double			 t0, t_gen, t_imp, t_load, t_hist, base;
	long			 r, m, it, R = 3650, M = 200, I = 10, hm;
	FILE			*f;
	int			 ch, rc;

	log_init("bench-store", 1, 0);
	while ((ch = getopt(argc, argv, "d:i:m:p:r:")) != -1) {
		switch (ch) {
		case 'd': dir = optarg; break;
		case 'i': I = atol(optarg); break;
		case 'm': M = atol(optarg); break;
		case 'p': free(pw); pw = xstrdup(optarg); break;
		case 'r': R = atol(optarg); break;
		default:
			fprintf(stderr, "usage: store [-r RUNS] [-m METRICS] "
			    "[-i ITERATIONS] [-d DIR] [-p PERFWATCH]\n");
			return 64;
		}
	}
	if (R < 31 || M < 1 || I < 1)
		fatalx("need at least 31 runs, 1 metric, 1 iteration");
	if (pw == NULL)
		pw = bench_perfwatch(argv[0]);
	/*
	 * A handler that only notes the signal, before the directory is
	 * made: the bench stops at its next check, and the import at its
	 * next row (nothing of it kept), then leaves through exit().
	 */
	store_catch(SIGTERM);
	store_catch(SIGINT);
	store_catch(SIGHUP);
	if (dir == NULL) {
		if ((dir = mkdtemp(store_scratch)) == NULL)
			fatal("mkdtemp");
		store_scratch_made = 1;
		atexit(store_scratch_remove);
	}
	xasprintf(&csv, "%s/history.csv", dir);
	xasprintf(&db, "%s/bench.db", dir);
	unlink(db);

	printf("bench/store: %ld runs x %ld metrics x %ld iterations = %ld "
	    "samples\n", R, M, I, R * M * I);
	fflush(stdout);
	t0 = bench_now();
	if ((f = fopen(csv, "w")) == NULL)
		fatal("%s", csv);
	fprintf(f, "run,time,workload,metric,value,unit,better,host,"
	    "iteration\n");
	for (r = 0; r < R; r++) {
		store_stop_if_signalled();
		for (m = 0; m < M; m++) {
			base = 1000.0 * (1 + m % 7);
			for (it = 1; it <= I; it++)
				fprintf(f, "n-%05ld,%lld,w%02ld,m%03ld,%.4f,"
				    "ops/s,higher,bench,%ld\n", r + 1,
				    1262304000LL + r * 86400LL, m / 10, m,
				    base * (1 + 0.03 * (rnd(&seed) - 0.5)),
				    it);
		}
	}
	if (fclose(f) == EOF)
		fatal("%s", csv);
	t_gen = bench_now() - t0;

	if ((st = store_open(db, &cause)) == NULL)
		fatalx("%s", cause);
	if ((f = fopen(csv, "r")) == NULL)
		fatal("%s", csv);
	t0 = bench_now();
	store_import_stop(st, &store_signal);
	if (store_import(st, f, csv, STORE_FORMAT_CSV, 0, &stats,
	    &cause) == -1) {
		if (stats.stopped) {
			store_close(st);
			store_stop_if_signalled();
		}
		fatalx("%s", cause);
	}
	t_imp = bench_now() - t0;
	fclose(f);
	store_close(st);

	/* Detection's read: the last 30 complete runs, every metric. */
	if ((st = store_open(db, &cause)) == NULL)
		fatalx("%s", cause);
	t0 = bench_now();
	memset(&filt, 0, sizeof(filt));
	filt.status = RUN_COMPLETE;
	filt.limit = 30;
	if (store_runs_list(st, &filt, &runs, &nruns) == -1)
		fatalx("runs");
	for (i = 0; i < nruns; i++) {
		store_stop_if_signalled();
		if (store_run_series(st, runs[i].id, &ser, &nser) == -1)
			fatalx("series");
		total += nser;
		store_series_free(ser, nser);
	}
	t_load = bench_now() - t0;
	store_runs_free(runs, nruns);
	store_close(st);

	/* m017 as before, or the last metric there is with fewer. */
	hm = M - 1 < 17 ? M - 1 : 17;
	xasprintf(&cmd, "%s -D %s history --metric m%03ld --limit 0 "
	    ">/dev/null", pw, db, hm);
	t0 = bench_now();
	rc = system(cmd);
	t_hist = bench_now() - t0;
	store_stop_if_signalled();
	if (rc != 0)
		fprintf(stderr, "bench-store: \"%s\" failed\n", cmd);

	printf("  generate CSV           %8.2f s  (%lld MiB)\n", t_gen,
	    file_size(csv) >> 20);
	printf("  import                 %8.2f s  %10.0f samples/s  "
	    "(goal >= 200000)\n", t_imp, stats.samples / t_imp);
	printf("  database size          %8lld MiB %10.1f bytes/sample "
	    "(goal < 60)\n", file_size(db) >> 20,
	    (double)file_size(db) / stats.samples);
	printf("  load last 30 runs      %8.1f ms  (%zu series; goal < 100 "
	    "ms)\n", t_load * 1e3, total);
	/* A command that failed took no time worth printing. */
	if (rc == 0)
		printf("  history --metric (all) %8.1f ms  (%ld runs, m%03ld, "
		    "via %s)\n", t_hist * 1e3, R, hm, pw);
	else
		printf("  history --metric (all)   failed  (%ld runs, m%03ld, "
		    "via %s)\n", R, hm, pw);
	unlink(csv);
	free(cmd);
	free(pw);
	free(csv);
	free(db);
	return rc == 0 ? 0 : 1;
}
