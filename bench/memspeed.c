/*
 * bench/memspeed: whether sys.fcopy4096 follows the memory speed the
 * machine is given.
 *
 *   memspeed [-n pairs] [-t seconds] [-d dir]
 *
 * Alternates, -n times (40), one iteration of perfwatch's own
 * sys.fcopy4096 (the workload's code, in process, for -t seconds, 0.5)
 * in a scratch directory under -d (/var/tmp) with as long a memcpy
 * between two 16 MiB buffers, the bytes of the copy's two files.  It
 * prints both rates of each pair, then the CV of each series and their
 * correlation (Pearson's r).  On a guest of a shared host the memory's
 * speed moves with what the other guests do, over tens of seconds; a
 * copy through 16 MiB of page cache that moves with it (r well above 0)
 * measures the host there, which no order or count of iterations within
 * a run holds still (bench/README.md, noise, set HH).  Exit 0, or 1 on
 * an error.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads/workloads.h"

#define MS_BYTES	(16u << 20)	/* the copy's two files of 8000 KiB */
#define MS_PAIRS_MAX	10000

static volatile unsigned char	ms_sink;

static void
usage(void)
{
	fprintf(stderr, "usage: memspeed [-n pairs] [-t seconds] [-d dir]\n");
	exit(2);
}

static double
ms_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One iteration of sys.fcopy4096 for secs seconds, its result lines
 * written to a scratch file and its "kbps" figure read back: KBps, or
 * -1 with a message on stderr.
 */
static double
ms_fcopy(const struct wl_workload *wl, double secs)
{
	struct wl_params	 p;
	char			 line[256], name[32], *cause = NULL;
	double			 v, kbps = -1;
	FILE			*f;
	int			 rc;

	if ((f = tmpfile()) == NULL) {
		fprintf(stderr, "memspeed: tmpfile: %s\n", strerror(errno));
		return -1;
	}
	wl_params_init(&p, wl);
	p.duration = secs;
	rc = wl->run(&p, fileno(f), &cause);
	wl_params_clear(&p);
	if (rc == -1) {
		fprintf(stderr, "memspeed: %s: %s\n", wl->name,
		    cause != NULL ? cause : "failed");
		free(cause);
		fclose(f);
		return -1;
	}
	rewind(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%31s %lf", name, &v) == 2 &&
		    strcmp(name, "kbps") == 0)
			kbps = v;
	fclose(f);
	if (kbps < 0)
		fprintf(stderr, "memspeed: %s printed no kbps\n", wl->name);
	return kbps;
}

/* memcpy between a and b, back and forth, for secs seconds: GB/s. */
static double
ms_memcpy(char *a, char *b, double secs)
{
	double	t0 = ms_now(), t, bytes = 0;

	do {
		memcpy(b, a, MS_BYTES);
		memcpy(a, b, MS_BYTES);
		bytes += 2.0 * MS_BYTES;
	} while ((t = ms_now() - t0) < secs);
	/* Read both buffers where nothing else does: the copies stay. */
	ms_sink = (unsigned char)(a[0] ^ b[MS_BYTES - 1]);
	return bytes / t / 1e9;
}

/* Mean and CV (percent) of x[0..n). */
static void
ms_cv(const double *x, size_t n, double *mean, double *cv)
{
	double	s = 0, ss = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*cv = n > 1 ? 100 * sqrt(ss / (double)(n - 1)) / *mean : 0;
}

/* Pearson's r of x and y, n pairs. */
static double
ms_corr(const double *x, const double *y, size_t n)
{
	double	mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	size_t	i;

	for (i = 0; i < n; i++) {
		mx += x[i] / (double)n;
		my += y[i] / (double)n;
	}
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

int
main(int argc, char *argv[])
{
	const struct wl_workload	*wl;
	const char			*dir = "/var/tmp";
	char				*scratch, *a, *b, *ep;
	double				*fc, *mc, secs = 0.5, mean, cv;
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
			secs = strtod(optarg, &ep);
			if (*ep != '\0' || !(secs > 0) || secs > 60)
				usage();
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
	xasprintf(&scratch, "%s/perfwatch-memspeed.XXXXXX", dir);
	if (mkdtemp(scratch) == NULL || chdir(scratch) == -1) {
		fprintf(stderr, "memspeed: %s: %s\n", scratch,
		    strerror(errno));
		free(scratch);
		return 1;
	}
	a = xmalloc(MS_BYTES);
	b = xmalloc(MS_BYTES);
	memset(a, 1, MS_BYTES);
	memset(b, 2, MS_BYTES);
	fc = xreallocarray(NULL, (size_t)pairs, sizeof(*fc));
	mc = xreallocarray(NULL, (size_t)pairs, sizeof(*mc));
	printf("memspeed: %ld pairs of %.2f s: sys.fcopy4096 in %s, then "
	    "memcpy of 2 x %u MiB\n", pairs, secs, scratch, MS_BYTES >> 20);
	printf("%5s %16s %14s\n", "pair", "fcopy4096 KBps", "memcpy GB/s");
	for (i = 0; i < pairs; i++) {
		if ((fc[i] = ms_fcopy(wl, secs)) < 0)
			goto out;
		mc[i] = ms_memcpy(a, b, secs);
		printf("%5ld %16.0f %14.2f\n", i + 1, fc[i], mc[i]);
		fflush(stdout);
	}
	ms_cv(fc, (size_t)pairs, &mean, &cv);
	printf("fcopy4096  mean %.0f KBps, CV %.2f%%\n", mean, cv);
	ms_cv(mc, (size_t)pairs, &mean, &cv);
	printf("memcpy     mean %.2f GB/s, CV %.2f%%\n", mean, cv);
	printf("correlation of the pairs (Pearson's r): %.2f\n",
	    ms_corr(fc, mc, (size_t)pairs));
	rc = 0;
out:
	if (chdir("/") == -1 || rmdir(scratch) == -1)
		fprintf(stderr, "memspeed: removing %s: %s\n", scratch,
		    strerror(errno));
	free(fc);
	free(mc);
	free(a);
	free(b);
	free(scratch);
	return rc;
}
