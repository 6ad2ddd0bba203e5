/*
 * bench/memspeed: whether sys.fcopy4096 follows the memory speed the
 * machine is given.
 *
 *   memspeed [-n pairs] [-t duration] [-d dir]
 *
 * Alternates, -n times (40), one iteration of sys.fcopy4096 through
 * perfwatch's runner (a child, as a run makes it, with -d as its
 * work_dir, /var/tmp by default; -t its duration, 500ms) with as long a
 * memcpy between two buffers of 8000 KiB, one for each of the copy's two
 * files of 8000 KiB (UnixBench's fstime size), so that both touch as
 * much memory.  It prints both rates of each pair, then the CV of each
 * series and their correlation (Pearson's r).  On a guest of a shared
 * host the memory's speed moves with what the other guests do, over tens
 * of seconds; a copy through two files of page cache that moves with it
 * (r well above 0) measures the host there, which no order or count of
 * iterations within a run holds still (bench/README.md, noise, set HH).
 * Exit 0, 1 on an error, 2 on a bad argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_statistics_double.h>

#include "bench.h"
#include "xmalloc.h"
#include "detect/stats.h"
#include "workloads/workloads.h"

#define MS_BYTES	(8000u << 10)	/* a buffer: one of the copy's files */
#define MS_PAIRS_MAX	10000

/* Read by no one: the memcpy loop's last bytes go here, so it stays. */
static volatile unsigned char	ms_sink;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: memspeed [-n pairs] [-t duration] [-d dir]\n");
	exit(2);
}

/* One iteration of wl under p through the runner: its kbps, or -1. */
static double
ms_fcopy(const struct wl_workload *wl, const struct wl_params *p)
{
	struct wl_result	 res;
	char			*cause = NULL;
	double			 kbps = -1;
	size_t			 i;

	if (wl_run_iteration(wl, p, &res, &cause) != 0) {
		fprintf(stderr, "memspeed: %s: %s\n", wl->name, cause);
		free(cause);
		wl_result_clear(&res);
		return -1;
	}
	for (i = 0; i < res.nmetrics; i++)
		if (strcmp(res.metrics[i].name, "kbps") == 0)
			kbps = res.metrics[i].value;
	if (kbps < 0)
		fprintf(stderr, "memspeed: %s gave no kbps\n", wl->name);
	wl_result_clear(&res);
	return kbps;
}

/* memcpy between a and b, back and forth, for secs seconds: GB/s. */
static double
ms_memcpy(char *a, char *b, double secs)
{
	double	t0 = bench_now(), t, bytes = 0;

	do {
		memcpy(b, a, MS_BYTES);
		memcpy(a, b, MS_BYTES);
		bytes += 2.0 * MS_BYTES;
	} while ((t = bench_now() - t0) < secs);
	ms_sink = (unsigned char)(a[0] ^ b[MS_BYTES - 1]);
	return bytes / t / 1e9;
}

/* Print x[0..n)'s mean and CV (percent) as a line headed what. */
static void
ms_summary(const char *what, const char *unit, const double *x, size_t n,
    double scale)
{
	double	mean, sd;

	if (stats_mean(x, n, &mean) == -1 || stats_stddev(x, n, &sd) == -1)
		return;
	printf("%-10s mean %.2f %s, CV %.2f%%\n", what, mean / scale, unit,
	    100 * sd / mean);
}

int
main(int argc, char *argv[])
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	const char			*dir = "/var/tmp", *duration = "500ms";
	char				*a, *b, *ep, *cause = NULL;
	double				*fc, *mc;
	long				 pairs = 40, i;
	int				 ch, rc = 1;

	while ((ch = getopt(argc, argv, "d:n:t:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			pairs = strtol(optarg, &ep, 10);
			if (*ep != '\0' || pairs < 2 || pairs > MS_PAIRS_MAX)
				usage();
			break;
		case 't':
			duration = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if ((wl = wl_find("sys.fcopy4096")) == NULL) {
		fprintf(stderr, "memspeed: no sys.fcopy4096 in the battery\n");
		return 1;
	}
	wl_params_init(&p, wl);
	if (wl_params_set(&p, wl, "work_dir", dir, &cause) != 0 ||
	    wl_params_set(&p, wl, "duration", duration, &cause) != 0 ||
	    wl_params_check(&p, wl, &cause) != 0) {
		fprintf(stderr, "memspeed: %s\n", cause);
		free(cause);
		wl_params_clear(&p);
		return 2;
	}
	a = xmalloc(MS_BYTES);
	b = xmalloc(MS_BYTES);
	memset(a, 1, MS_BYTES);
	memset(b, 2, MS_BYTES);
	fc = xreallocarray(NULL, (size_t)pairs, sizeof(*fc));
	mc = xreallocarray(NULL, (size_t)pairs, sizeof(*mc));
	printf("memspeed: %ld pairs of %.2f s: sys.fcopy4096 in %s, then "
	    "memcpy of 2 x %u KiB\n", pairs, p.duration, dir, MS_BYTES >> 10);
	printf("%5s %16s %14s\n", "pair", "fcopy4096 KBps", "memcpy GB/s");
	for (i = 0; i < pairs; i++) {
		if ((fc[i] = ms_fcopy(wl, &p)) < 0)
			goto out;
		mc[i] = ms_memcpy(a, b, p.duration);
		printf("%5ld %16.0f %14.2f\n", i + 1, fc[i], mc[i]);
		fflush(stdout);
	}
	ms_summary("fcopy4096", "M KBps", fc, (size_t)pairs, 1e6);
	ms_summary("memcpy", "GB/s", mc, (size_t)pairs, 1);
	printf("correlation of the pairs (Pearson's r): %.2f\n",
	    gsl_stats_correlation(fc, 1, mc, 1, (size_t)pairs));
	rc = 0;
out:
	wl_params_clear(&p);
	free(fc);
	free(mc);
	free(a);
	free(b);
	return rc;
}
