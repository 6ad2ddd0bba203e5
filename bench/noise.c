/*
 * bench/noise: how precise the battery is, beside bonnie++ and fio.
 *
 *   noise [-ENk] [-d dir] [-n runs] [-P perfwatch] [-p profile]
 *       [-w settle]
 *
 * Runs the quick profile -n times (5) with perfwatch run, each a recorded
 * run in a scratch database, and for every metric takes the run's median
 * (what perfwatch stores as the run's figure) and prints the coefficient
 * of variation of those medians over the runs.  After each of our runs it
 * runs the peers at the profile's own sizes and iteration counts:
 * bonnie++ 2.00a as disk.bonnie's peer (same file size, chunk, seeks and
 * seekers, its file evicted at each open as disk.bonnie evicts its own;
 * see peers.h) and fio as disk.stream's (--rw=write --bs=1M --fsync=N
 * --end_fsync=1 on the same size), interleaved as the runner interleaves
 * iterations, and takes the median of each run in the same way.  Each
 * peer run starts after a flush and as many seconds of quiet as the
 * profile gives its disk.bonnie or disk.stream (settle; -w sets one
 * figure for both), as each iteration of ours does: on a VM the time since
 * the last large file was deleted decides much of a disk figure (see
 * WL_DISK_SETTLE in workloads/workloads.c and bench/fidelity.c).
 *
 * It checks what the battery must reach, and prints the verdicts: no
 * native disk metric noisier than its peer's at equal file size, and
 * every sys.* metric under 3%.  A disk metric noisier than its peer gets
 * the F test of the two variances beside it (one-sided p): the CV of five
 * runs is itself uncertain by about a third, so a ratio under 2 is seldom
 * more than chance.  bonnie++ prints "+++++" instead of a figure for a
 * phase shorter than half a second, so at the quick profile's 1 GiB its
 * block read (about 2 GB/s here) is printed only for its slower
 * iterations.  Both tools' run medians are therefore taken under that
 * rule (bonnie_rule_median: an unprinted rate counted at the ceiling
 * it is known to exceed, an unprinted %CPU left out; ours' iterations
 * treated as bonnie++ would have printed them, a %CPU cut to a whole
 * percent as bonnie++ prints it, column "as peer"), and
 * those are what the verdict compares; the table after it says how many
 * iterations each tool lost so.  A figure with no CV that way (printed
 * in fewer than two runs) is said to be impossible to compare rather
 * than passed, and counts against the exit status as a miss does: exit
 * 0 if every verdict holds over all the runs asked for, 1 if one does
 * not, a disk figure cannot be compared or fewer runs were made than
 * asked (a run of ours or of a peer failed, or a signal stopped the
 * bench: with two or more made, the tables are printed over those and
 * say "only D of N runs"), 2 if it cannot start.
 *
 * A second table says where each figure's noise comes from: the pooled
 * CV of one run's iterations (within), what that alone would make of the
 * CV of a median of n of them (the sd of the median of n normal draws,
 * simulated, times it), and what is left of the measured CV (between
 * runs: sqrt(CV^2 - that^2)), for ours and for the peer.  More iterations
 * shrink the first part only; the second is the host and whatever a run
 * sets up anew.
 *
 * Then the wall time of each profile: quick as measured here (each run
 * and their median); nightly measured with -N (one run, about half an
 * hour) and full with -F (one run, over an hour), otherwise estimated:
 * the sum over its workloads of (iterations + warm-ups) x one iteration,
 * where one iteration of a timed test is its duration (per thread count
 * for db.oltp) plus the overhead measured in the quick runs, and one of
 * disk.bonnie or disk.stream is the file size over the rates the quick
 * runs measured (the five bonnie phases, putc and getc over char_size
 * where that is less, and the seeks; the stream rate).
 *
 *   -d dir        where the scratch directory goes (/var/tmp)
 *   -n runs       runs of the quick profile (5)
 *   -p profile    the profile (etc/profiles/quick.conf); nightly.conf
 *                 and full.conf are looked for next to it.  At most
 *                 NZ_ITER_MAX (64) iterations a workload, refused
 *                 before anything runs, and NZ_METRICS_MAX (256)
 *                 metrics, a run with more failed
 *   -P perfwatch  the perfwatch binary (../bin/perfwatch beside this
 *                 bench, else perfwatch in PATH)
 *   -N            also run the nightly profile once and time it
 *   -F            also run the full profile once and time it (after
 *                 nightly; its bonnie file is twice the RAM)
 *   -E            no page-cache eviction for bonnie++
 *   -k            keep the scratch directory: its database (our samples
 *                 of every run, for perfwatch history or export) and
 *                 peers.csv (every peer figure of every iteration)
 *   -w settle     seconds of quiet before each peer run (the profile's
 *                 settle of the workload it stands beside)
 *
 * perfwatch runs with a configuration that sets the work directory to
 * the scratch directory and [quiet] policy = annotate (measure even on
 * a busy machine: the load is printed, and a busy machine is part of
 * what this bench shows).  It needs bonnie++ and fio in PATH and, for
 * the eviction watch, root.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <ini.h>

#include "bench/peers.h"

#define NZ_RUNS_MAX	20
#define NZ_METRICS_MAX	256
#define NZ_JOBS_MAX	64
#define NZ_ITER_MAX	64
#define NZ_SYS_LIMIT	3.0		/* % */
#define NZ_BONNIE_MIN	0.5		/* s: bonnie++'s shortest printed phase */

/*
 * Within-run spread of a figure over the runs: the pooled relative
 * variance of its iterations, sum over runs of (n - 1) (sd / mean)^2 and
 * of n - 1, and the iterations of the last run that had two or more.
 */
struct nz_within {
	double	 ss;
	double	 df;
	size_t	 n;
};

/* One metric of our runs: its median in each run. */
struct nz_metric {
	char		 workload[WL_NAME_MAX];
	char		 metric[WL_NAME_MAX];
	char		 unit[WL_UNIT_MAX];
	double		 median[NZ_RUNS_MAX];	/* NAN where a run lacked it */
	double		 it[NZ_ITER_MAX];	/* this run's iterations */
	size_t		 nit;
	struct nz_within within;
	/*
	 * With bonnie++ as peer: the run's median as bonnie++ would report
	 * it (bonnie_rule_median), and how many of all the iterations it
	 * would not have printed.
	 */
	double		 pmedian[NZ_RUNS_MAX];
	int		 unprinted;
	int		 iterations;
};

/* A peer figure: its median in each run, and which metric it matches. */
struct nz_peer {
	const char	*tool;
	const char	*figure;
	const char	*workload;	/* ours */
	const char	*metric;
	double		 median[NZ_RUNS_MAX];
	double		 it[NZ_ITER_MAX];	/* this run's iterations */
	size_t		 nit;
	struct nz_within within;
	int		 unprinted;	/* iterations without a figure */
	int		 iterations;
};

#define NZ_PEER(t, f, w, m)	{ .tool = (t), .figure = (f), .workload = (w), \
				  .metric = (m) }
static struct nz_peer	nz_peers[] = {
	NZ_PEER("bonnie++", "put_block", "disk.bonnie", "write_kps"),
	NZ_PEER("bonnie++", "put_block_cpu", "disk.bonnie", "write_cpu"),
	NZ_PEER("bonnie++", "rewrite", "disk.bonnie", "rewrite_kps"),
	NZ_PEER("bonnie++", "rewrite_cpu", "disk.bonnie", "rewrite_cpu"),
	NZ_PEER("bonnie++", "get_block", "disk.bonnie", "read_kps"),
	NZ_PEER("bonnie++", "get_block_cpu", "disk.bonnie", "read_cpu"),
	NZ_PEER("bonnie++", "seeks", "disk.bonnie", "seeks_ps"),
	NZ_PEER("bonnie++", "seeks_cpu", "disk.bonnie", "seeks_cpu"),
	NZ_PEER("fio", "bw", "disk.stream", "write_mibps"),
	NZ_PEER("fio", "usr+sys cpu", "disk.stream", "write_cpu"),
};

#define PEER_BONNIE_FIRST	0
#define PEER_FIO_BW		8
#define PEER_FIO_CPU		9

/* A workload of a profile, as the estimate needs it. */
struct nz_job {
	char				 name[WL_NAME_MAX];
	const struct wl_workload	*wl;
	struct wl_params		 params;
};

/* A profile read for the estimate. */
struct nz_profile {
	struct nz_job	jobs[NZ_JOBS_MAX];
	size_t		njobs;
	int		bad;
};

/* What the quick runs measured per workload: wall over all its steps. */
struct nz_wall {
	char	workload[WL_NAME_MAX];
	double	wall[NZ_RUNS_MAX];
};

static struct nz_metric	nz_metrics[NZ_METRICS_MAX];
static size_t		nz_nmetrics;
static struct nz_wall	nz_walls[NZ_JOBS_MAX];
static size_t		nz_nwalls;
static double		nz_run_wall[NZ_RUNS_MAX];
static volatile sig_atomic_t	nz_stop;
static int			nz_settle = -1;	/* -1: the profile's */
static FILE			*nz_peer_log;	/* -k: every peer figure */

static void
nz_on_signal(int sig)
{
	(void)sig;
	nz_stop = 1;
	wl_abort();	/* ends the wait for a flush (wl_flush) too */
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: noise [-EFNk] [-d dir] [-n runs] "
	    "[-P perfwatch] [-p profile] [-w settle]\n");
	exit(2);
}

/* The slot of a metric of ours, made if new. */
static struct nz_metric *
metric_slot(const char *workload, const char *metric, const char *unit)
{
	struct nz_metric	*m;
	size_t			 i, r;

	for (i = 0; i < nz_nmetrics; i++) {
		m = &nz_metrics[i];
		if (strcmp(m->workload, workload) == 0 &&
		    strcmp(m->metric, metric) == 0)
			return m;
	}
	if (nz_nmetrics == NZ_METRICS_MAX)
		return NULL;
	m = &nz_metrics[nz_nmetrics++];
	snprintf(m->workload, sizeof(m->workload), "%s", workload);
	snprintf(m->metric, sizeof(m->metric), "%s", metric);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	for (r = 0; r < NZ_RUNS_MAX; r++)
		m->median[r] = m->pmedian[r] = NAN;
	return m;
}

/* The slot of a workload's wall time, made if new. */
static struct nz_wall *
wall_slot(const char *workload)
{
	size_t	i, r;

	for (i = 0; i < nz_nwalls; i++) {
		if (strcmp(nz_walls[i].workload, workload) == 0)
			return &nz_walls[i];
	}
	if (nz_nwalls == NZ_JOBS_MAX)
		return NULL;
	snprintf(nz_walls[i].workload, sizeof(nz_walls[i].workload), "%s",
	    workload);
	for (r = 0; r < NZ_RUNS_MAX; r++)
		nz_walls[i].wall[r] = NAN;
	return &nz_walls[nz_nwalls++];
}

/* Our median of a metric in one run, or NAN. */
static double
ours_in_run(const char *workload, const char *metric, int run)
{
	size_t	i;

	for (i = 0; i < nz_nmetrics; i++) {
		if (strcmp(nz_metrics[i].workload, workload) == 0 &&
		    strcmp(nz_metrics[i].metric, metric) == 0)
			return nz_metrics[i].median[run];
	}
	return NAN;
}

static struct nz_peer	*peer_of(const struct nz_metric *);

/* Add one run's iterations to a figure's within-run spread. */
static void
within_add(struct nz_within *w, const double *all, size_t nall)
{
	double	x[NZ_ITER_MAX], mean = 0, ss = 0;
	size_t	i, n = 0;

	for (i = 0; i < nall && i < NZ_ITER_MAX; i++) {
		if (isfinite(all[i]))
			x[n++] = all[i];
	}
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	if (mean == 0)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	w->ss += ss / (mean * mean);
	w->df += n - 1;
	w->n = n;
}

/* The pooled within-run CV in %, NAN with no run of two iterations. */
static double
within_cv(const struct nz_within *w)
{
	return w->df > 0 ? sqrt(w->ss / w->df) * 100.0 : NAN;
}

/*
 * The sd of the median of n independent standard normal draws, by
 * simulation (200,000 medians, a fixed seed: within 0.3% of the exact
 * figure, 0.670 for n 3, 0.536 for n 5): what the CV of run medians
 * would be, per unit of within-run CV, if runs differed only by the
 * noise of their own iterations.
 */
static double
median_sd_factor(size_t n)
{
	static double	 cache[NZ_ITER_MAX + 1];
	gsl_rng		*rng;
	double		 x[NZ_ITER_MAX], m, sum = 0, ss = 0;
	const int	 draws = 200000;
	int		 d;
	size_t		 i;

	if (n < 1 || n > NZ_ITER_MAX)
		return NAN;
	if (cache[n] > 0)
		return cache[n];
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 1);
	for (d = 0; d < draws; d++) {
		for (i = 0; i < n; i++)
			x[i] = gsl_ran_gaussian(rng, 1.0);
		m = peer_median(x, n);
		sum += m;
		ss += m * m;
	}
	gsl_rng_free(rng);
	cache[n] = sqrt((ss - sum * sum / draws) / (draws - 1));
	return cache[n];
}

/*
 * The rate figure of the phase behind a disk.bonnie figure (write_cpu
 * goes with write_kps, seeks_cpu with seeks_ps), or NULL.
 */
static const char *
bonnie_rate_of(const char *metric)
{
	static const char *const rates[] = { "write_kps", "rewrite_kps",
	    "read_kps", "seeks_ps" };
	size_t	k, len;

	for (k = 0; k < nitems(rates); k++) {
		len = strcspn(rates[k], "_");
		if (strncmp(metric, rates[k], len) == 0 && metric[len] == '_')
			return rates[k];
	}
	return NULL;
}

/* Whether a disk.bonnie figure is its phase's rate (not its %CPU). */
static int
bonnie_is_rate(const char *metric)
{
	const char	*rate = bonnie_rate_of(metric);

	return rate != NULL && strcmp(rate, metric) == 0;
}

/*
 * The fastest rate bonnie++ prints for the phase behind a disk.bonnie
 * figure: what the phase moves (the file in K, or the seeks) over half a
 * second; NAN if the figure is no phase's.
 */
static double
bonnie_ceiling(const char *metric, const struct nz_job *bonnie)
{
	const char	*rate = bonnie_rate_of(metric);

	if (rate == NULL)
		return NAN;
	if (strcmp(rate, "seeks_ps") == 0)
		return bonnie->params.seeks / NZ_BONNIE_MIN;
	return (double)(wl_params_size(&bonnie->params) >> 20 << 10) /
	    NZ_BONNIE_MIN;
}

/*
 * The median of one run's iterations of a disk.bonnie figure as bonnie++
 * reports such a run.  bonnie++ prints "+++++" instead of a figure for a
 * phase shorter than half a second, so of a fast phase it gives only
 * the slower iterations.  For a rate, an unprinted iteration is known to
 * lie above the ceiling (the amount over half a second): counted at the
 * ceiling, the median is exact while every value it is taken from was
 * printed, and unknown otherwise (NAN: the run says nothing of the
 * spread).  Of n values that is fewer than n / 2 unprinted, rounded up:
 * 2 of 5, but 1 of 4, whose median is the mean of the two middle ones.
 * For a %CPU figure nothing is known of an unprinted iteration, and the
 * median is over the printed ones.  x[] is changed.
 */
static double
bonnie_rule_median(double *x, size_t n, double ceiling)
{
	size_t	i, up = 0;

	for (i = 0; isfinite(ceiling) && i < n; i++) {
		if (isnan(x[i]) || x[i] >= ceiling) {
			x[i] = ceiling;
			up++;
		}
	}
	if (n == 0 || up >= (n + 1) / 2)
		return NAN;
	return peer_median(x, n);
}

/*
 * Ours under bonnie++'s rule: an iteration whose phase lasted under half
 * a second is treated as bonnie++ would have printed it, and a %CPU is
 * printed in whole percent.
 */
static void
printed_median(struct nz_metric *m, const struct nz_job *bonnie, int run)
{
	const struct nz_metric	*r = NULL;
	const char		*rate;
	double			 x[NZ_ITER_MAX], ceiling;
	size_t			 i, n = 0;

	if (strcmp(m->workload, "disk.bonnie") != 0 || peer_of(m) == NULL)
		return;
	ceiling = bonnie_ceiling(m->metric, bonnie);
	rate = bonnie_rate_of(m->metric);
	for (i = 0; rate != NULL && i < nz_nmetrics; i++) {
		if (strcmp(nz_metrics[i].workload, m->workload) == 0 &&
		    strcmp(nz_metrics[i].metric, rate) == 0)
			r = &nz_metrics[i];
	}
	for (i = 0; i < m->nit; i++) {
		if (!isfinite(m->it[i]))
			continue;
		m->iterations++;
		/*
		 * bonnie++ prints a %CPU as a whole percent, cut (int), so a
		 * figure that holds within one percent prints the same each
		 * run: taken unrounded, ours looked noisier for that alone
		 * (rewrite_cpu 0.17% against bonnie++'s 0.00, F inf).
		 */
		x[n] = bonnie_is_rate(m->metric) ? m->it[i] : floor(m->it[i]);
		/* Past the ceiling, its phase was under half a second. */
		if (r != NULL && i < r->nit && r->it[i] > ceiling) {
			m->unprinted++;
			x[n] = NAN;
		}
		n++;
	}
	m->pmedian[run] = bonnie_rule_median(x, n, bonnie_is_rate(m->metric) ?
	    ceiling : NAN);
}

/*
 * Read one run's samples (perfwatch export --format jsonl --run LABEL)
 * into the within-run spread of each metric.
 */
static int
read_samples(const char *pw, const char *conf, const char *db, int run,
    const struct nz_job *bonnie, char **cause)
{
	char		 label[32], *out = NULL, *err = NULL, *line, *next;
	char		*argv[] = { (char *)pw, (char *)"-c", (char *)conf,
			    (char *)"-D", (char *)db, (char *)"export",
			    (char *)"--format", (char *)"jsonl", (char *)"--run",
			    label, NULL };
	json_error_t	 jerr;
	json_t		*o;
	const char	*w, *m, *u;
	struct nz_metric *slot;
	size_t		 i, k, lineno = 0;
	json_int_t	 iter;
	int		 status, rc = -1;

	snprintf(label, sizeof(label), "noise-%d", run + 1);
	if (peer_capture(argv, &out, &err, &status, cause) == -1)
		goto out;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		xasprintf(cause, "perfwatch export failed (status %d): %s",
		    status, peer_last_line(err));
		goto out;
	}
	for (i = 0; i < nz_nmetrics; i++) {
		nz_metrics[i].nit = 0;
		for (k = 0; k < NZ_ITER_MAX; k++)
			nz_metrics[i].it[k] = NAN;
	}
	for (line = out; line != NULL && *line != '\0'; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((o = json_loads(line, 0, &jerr)) == NULL) {
			xasprintf(cause, "perfwatch export line %zu: %s",
			    lineno, jerr.text);
			goto out;
		}
		w = json_string_value(json_object_get(o, "workload"));
		m = json_string_value(json_object_get(o, "metric"));
		u = json_string_value(json_object_get(o, "unit"));
		iter = json_integer_value(json_object_get(o, "iteration"));
		if (w != NULL && m != NULL && iter >= 1 && iter <= NZ_ITER_MAX &&
		    (slot = metric_slot(w, m, u != NULL ? u : "")) != NULL) {
			slot->it[iter - 1] = json_number_value(
			    json_object_get(o, "value"));
			if ((size_t)iter > slot->nit)
				slot->nit = (size_t)iter;
		}
		json_decref(o);
	}
	for (i = 0; i < nz_nmetrics; i++) {
		within_add(&nz_metrics[i].within, nz_metrics[i].it,
		    nz_metrics[i].nit);
		if (bonnie != NULL)
			printed_median(&nz_metrics[i], bonnie, run);
	}
	rc = 0;
out:
	free(out);
	free(err);
	return rc;
}

/* Read perfwatch run --json: every metric's median, every workload's wall. */
static int
read_report(const char *text, int run, char **cause)
{
	json_error_t	 jerr;
	json_t		*root, *a, *o;
	const char	*w, *m, *u;
	struct nz_metric *slot;
	struct nz_wall	*ws;
	size_t		 i;

	if ((root = json_loads(text, 0, &jerr)) == NULL) {
		xasprintf(cause, "perfwatch run --json: %s", jerr.text);
		return -1;
	}
	a = json_object_get(root, "metrics");
	json_array_foreach(a, i, o) {
		w = json_string_value(json_object_get(o, "workload"));
		m = json_string_value(json_object_get(o, "metric"));
		u = json_string_value(json_object_get(o, "unit"));
		if (w == NULL || m == NULL)
			continue;
		if ((slot = metric_slot(w, m, u != NULL ? u : "")) == NULL) {
			xasprintf(cause, "%s %s: more than %d metrics, the "
			    "most the bench keeps", w, m, NZ_METRICS_MAX);
			json_decref(root);
			return -1;
		}
		slot->median[run] = json_number_value(json_object_get(o,
		    "median"));
	}
	a = json_object_get(root, "workloads");
	json_array_foreach(a, i, o) {
		w = json_string_value(json_object_get(o, "workload"));
		if (w != NULL && (ws = wall_slot(w)) != NULL)
			ws->wall[run] = json_number_value(json_object_get(o,
			    "wall"));
	}
	json_decref(root);
	return 0;
}

/* One perfwatch run of a profile; its wall time, or -1. */
static double
perfwatch_run(const char *pw, const char *conf, const char *db,
    const char *profile, int run, int record, char **cause)
{
	char	 label[32], *out = NULL, *err = NULL;
	char	*argv[] = { (char *)pw, (char *)"-c", (char *)conf,
		    (char *)"-D", (char *)db, (char *)"run", (char *)"--profile",
		    (char *)profile, (char *)"--json", (char *)"--no-check",
		    (char *)"--label", label, NULL };
	double	 t0, wall = -1;
	int	 status;

	snprintf(label, sizeof(label), "noise-%d%s", run + 1,
	    record ? "" : "-extra");
	t0 = bench_now();
	if (peer_capture(argv, &out, &err, &status, cause) == -1)
		goto out;
	wall = bench_now() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		xasprintf(cause, "perfwatch run failed (status %d): %s",
		    status, peer_last_line(err));
		wall = -1;
		goto out;
	}
	if (record && read_report(out, run, cause) == -1)
		wall = -1;
out:
	free(out);
	free(err);
	return wall;
}

/* inih: one key of a profile. */
static int
profile_key(void *user, const char *section, const char *key,
    const char *value)
{
	struct nz_profile	*p = user;
	struct nz_job		*j;
	char			 name[WL_NAME_MAX], *cause = NULL;
	size_t			 i;

	if (sscanf(section, "workload \"%63[^\"]\"", name) != 1)
		return 1;
	for (i = 0; i < p->njobs && strcmp(p->jobs[i].name, name) != 0; i++)
		;
	if (i == p->njobs) {
		if (p->njobs == NZ_JOBS_MAX || wl_find(name) == NULL)
			return 1;
		j = &p->jobs[p->njobs++];
		snprintf(j->name, sizeof(j->name), "%s", name);
		j->wl = wl_find(name);
		wl_params_init(&j->params, j->wl);
	}
	j = &p->jobs[i];
	if (wl_params_set(&j->params, j->wl, key, value, &cause) == -1) {
		fprintf(stderr, "noise: [%s] %s: %s\n", section, key, cause);
		free(cause);
		p->bad = 1;
	}
	return 1;
}

/* Read a profile; 0, or -1 if it cannot be read. */
static int
profile_read(const char *path, struct nz_profile *p)
{
	memset(p, 0, sizeof(*p));
	if (ini_parse(path, profile_key, p) != 0 || p->bad)
		return -1;
	return 0;
}

static void
profile_free(struct nz_profile *p)
{
	size_t	i;

	for (i = 0; i < p->njobs; i++)
		wl_params_clear(&p->jobs[i].params);
}

/* A profile's job by name, or NULL. */
static struct nz_job *
profile_job(struct nz_profile *p, const char *name)
{
	size_t	i;

	for (i = 0; i < p->njobs; i++) {
		if (strcmp(p->jobs[i].name, name) == 0)
			return &p->jobs[i];
	}
	return NULL;
}

/* The median over the runs of a metric of ours. */
static double
ours_median(const char *workload, const char *metric, int runs)
{
	size_t	i;

	for (i = 0; i < nz_nmetrics; i++) {
		if (strcmp(nz_metrics[i].workload, workload) == 0 &&
		    strcmp(nz_metrics[i].metric, metric) == 0)
			return peer_median(nz_metrics[i].median, runs);
	}
	return NAN;
}

/*
 * Seconds one iteration of a job of a profile should take on this
 * machine, from what the quick runs measured; NAN if unknown.
 */
static double
iteration_estimate(struct nz_job *j, struct nz_profile *quick, int runs)
{
	struct nz_job	*q;
	struct nz_wall	*w;
	double		 kib, ckib, secs, per, over, qsetup;
	int		 threads[WL_THREADS_MAX];
	size_t		 nq, nj, i;
	const char	*rates[] = { "putc_kps", "write_kps", "rewrite_kps",
			    "getc_kps", "read_kps" };

	if (strcmp(j->name, "disk.bonnie") == 0) {
		kib = wl_params_size(&j->params) / 1024.0;
		secs = j->params.seeks / ours_median(j->name, "seeks_ps", runs);
		for (i = 0; i < nitems(rates); i++) {
			/* putc and getc move char_size bytes, if less. */
			ckib = kib;
			if ((strcmp(rates[i], "putc_kps") == 0 ||
			    strcmp(rates[i], "getc_kps") == 0) &&
			    j->params.char_size != 0 &&
			    j->params.char_size / 1024.0 < kib)
				ckib = j->params.char_size / 1024.0;
			secs += ckib / ours_median(j->name, rates[i], runs);
		}
		return secs;
	}
	if (strcmp(j->name, "disk.stream") == 0) {
		return wl_params_size(&j->params) / 1048576.0 /
		    ours_median(j->name, "write_mibps", runs);
	}
	if ((q = profile_job(quick, j->name)) == NULL ||
	    (w = wall_slot(j->name)) == NULL)
		return NAN;
	per = peer_median(w->wall, runs) / (q->params.iterations +
	    q->params.warmup);
	if (strcmp(j->name, "db.oltp") == 0) {
		nq = wl_params_threads(&q->params, threads, nitems(threads));
		nj = wl_params_threads(&j->params, threads, nitems(threads));
		qsetup = per - nq * q->params.duration;
		/* The table is built anew each iteration: it scales. */
		if (q->params.table_size > 0)
			qsetup *= (double)j->params.table_size /
			    q->params.table_size;
		return nj * j->params.duration + qsetup;
	}
	over = per - q->params.duration;
	return j->params.duration + (over > 0 ? over : 0);
}

/* A profile's estimated wall time in seconds (NAN if a part is unknown). */
static double
profile_estimate(struct nz_profile *p, struct nz_profile *quick, int runs)
{
	double	total = 0, one;
	size_t	i;

	for (i = 0; i < p->njobs; i++) {
		one = iteration_estimate(&p->jobs[i], quick, runs);
		total += (one + p->jobs[i].params.settle) *
		    (p->jobs[i].params.iterations + p->jobs[i].params.warmup);
	}
	return total;
}

/* Seconds as "1 h 02 min" or "3 min 05 s". */
static const char *
duration_text(double s)
{
	static char	buf[64];
	long		t = lround(s);

	if (!isfinite(s))
		return "unknown";
	if (t >= 3600) {
		/* To the minute first, so that 1 h 59 min 45 s is 2 h 00. */
		t = (t + 30) / 60;
		snprintf(buf, sizeof(buf), "%ld h %02ld min", t / 60, t % 60);
	} else
		snprintf(buf, sizeof(buf), "%ld min %02ld s", t / 60, t % 60);
	return buf;
}

/*
 * Flush the filesystem of dir, as the runner does before each iteration
 * (wl_flush(): that filesystem alone, waited for at most WL_FLUSH_WAIT
 * seconds), and wait before a peer run: -w, or the job's own settle.
 */
static void
settle(const struct nz_job *j, const char *dir)
{
	struct timespec	ts;
	double		s = nz_settle >= 0 ? nz_settle : j->params.settle;

	(void)wl_flush(j->name, dir, 0);
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (!nz_stop && nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* The peers of one run: each tool iterations times, interleaved. */
static int
peers_run(const char *dir, struct nz_profile *quick, int run, int evict)
{
	struct nz_job		*bj, *sj;
	struct peer_bonnie	 b;
	double			 mibps, cpu;
	char			*cause = NULL;
	int			 it, n;
	size_t			 k;

	bj = profile_job(quick, "disk.bonnie");
	sj = profile_job(quick, "disk.stream");
	for (k = 0; k < nitems(nz_peers); k++)
		nz_peers[k].nit = 0;
	n = 0;
	if (bj != NULL)
		n = bj->params.iterations;
	if (sj != NULL && sj->params.iterations > n)
		n = sj->params.iterations;
	for (it = 0; it < n && it < NZ_ITER_MAX && !nz_stop; it++) {
		if (bj != NULL && it < bj->params.iterations) {
			settle(bj, dir);
			if (peer_bonnie_run(dir, wl_params_size(&bj->params) >>
			    20 << 20, bj->params.seeks, bj->params.seekers,
			    evict, &b, &cause) == -1)
				goto fail;
			nz_peers[0].it[nz_peers[0].nit++] = b.write_kps;
			nz_peers[1].it[nz_peers[1].nit++] = b.write_cpu;
			nz_peers[2].it[nz_peers[2].nit++] = b.rewrite_kps;
			nz_peers[3].it[nz_peers[3].nit++] = b.rewrite_cpu;
			nz_peers[4].it[nz_peers[4].nit++] = b.read_kps;
			nz_peers[5].it[nz_peers[5].nit++] = b.read_cpu;
			nz_peers[6].it[nz_peers[6].nit++] = b.seeks_ps;
			nz_peers[7].it[nz_peers[7].nit++] = b.seeks_cpu;
		}
		if (sj != NULL && it < sj->params.iterations) {
			settle(sj, dir);
			if (peer_fio_run(dir, wl_params_size(&sj->params) >>
			    20 << 20, sj->params.fsync_every, &mibps, &cpu,
			    &cause) == -1)
				goto fail;
			nz_peers[PEER_FIO_BW].it[nz_peers[PEER_FIO_BW].nit++] =
			    mibps;
			nz_peers[PEER_FIO_CPU].it[
			    nz_peers[PEER_FIO_CPU].nit++] = cpu;
		}
	}
	for (k = 0; k < nitems(nz_peers); k++) {
		for (size_t i = 0; i < nz_peers[k].nit; i++) {
			nz_peers[k].iterations++;
			nz_peers[k].unprinted += !isfinite(nz_peers[k].it[i]);
			if (nz_peer_log != NULL)
				fprintf(nz_peer_log, "noise-%d,%zu,%s,%s,%.17g\n",
				    run + 1, i + 1, nz_peers[k].tool,
				    nz_peers[k].figure, nz_peers[k].it[i]);
		}
		/* Over the printed figures, before the rule fills the rest. */
		within_add(&nz_peers[k].within, nz_peers[k].it,
		    nz_peers[k].nit);
		if (bj != NULL && strcmp(nz_peers[k].tool, "bonnie++") == 0)
			nz_peers[k].median[run] = bonnie_rule_median(
			    nz_peers[k].it, nz_peers[k].nit,
			    bonnie_is_rate(nz_peers[k].metric) ?
			    bonnie_ceiling(nz_peers[k].metric, bj) : NAN);
		else
			nz_peers[k].median[run] = peer_median(nz_peers[k].it,
			    nz_peers[k].nit);
	}
	return 0;
fail:
	fprintf(stderr, "noise: run %d peers: %s\n", run + 1, cause);
	free(cause);
	return -1;
}

/* The peer of a metric of ours, or NULL. */
static struct nz_peer *
peer_of(const struct nz_metric *m)
{
	size_t	k;

	for (k = 0; k < nitems(nz_peers); k++) {
		if (strcmp(nz_peers[k].workload, m->workload) == 0 &&
		    strcmp(nz_peers[k].metric, m->metric) == 0)
			return &nz_peers[k];
	}
	return NULL;
}

/*
 * Print the table and the verdicts of the runs made of those asked
 * for, with what bonnie++'s rule does if the profile has disk.bonnie;
 * the number of misses, the disk figures that cannot be compared among
 * them.
 */
static int
report(int runs, int asked, int bonnie)
{
	struct nz_metric	*m;
	struct nz_peer		*pe;
	double			 cv, ccv, pcv, f, fp;
	const double		*series;
	size_t			 i, pn, n;
	int			 misses = 0, sys_over = 0, noisier = 0;
	int			 untestable = 0, noisier_sure = 0;
	char			 pbuf[32], cvbuf[16], vbuf[64], ccvbuf[16];
	const char		*verdict;

	if (runs < asked)
		printf("\nCV of the run medians over only %d of %d runs",
		    runs, asked);
	else
		printf("\nCV of the run medians over %d runs", runs);
	printf(" (%%)");
	if (bonnie)
		printf("; \"as peer\": ours as bonnie++ reports a run (it "
		    "prints \"+++++\" for a phase under %.1f s: a rate counted "
		    "at that ceiling, a %%CPU left out; a %%CPU in whole "
		    "percent), the figure the verdict compares with the "
		    "peer's, taken the same way", NZ_BONNIE_MIN);
	printf("\n");
	printf("%-14s %-13s %7s %14s %7s %7s   %-22s %7s  %s\n", "workload",
	    "metric", "unit", "median", "CV", "as peer", "peer", "peer CV",
	    "verdict");
	for (i = 0; i < nz_nmetrics; i++) {
		m = &nz_metrics[i];
		cv = ccv = peer_cv(m->median, runs);
		series = m->median;
		pe = peer_of(m);
		ccvbuf[0] = '\0';
		if (pe != NULL && strcmp(pe->tool, "bonnie++") == 0) {
			series = m->pmedian;
			ccv = peer_cv(series, runs);
			if (isfinite(ccv))
				snprintf(ccvbuf, sizeof(ccvbuf), "%.2f", ccv);
			else
				snprintf(ccvbuf, sizeof(ccvbuf), "-");
		}
		verdict = "";
		pbuf[0] = '\0';
		pcv = NAN;
		if (pe != NULL) {
			snprintf(pbuf, sizeof(pbuf), "%s %s", pe->tool,
			    pe->figure);
			pcv = peer_cv(pe->median, runs);
			pn = 0;
			for (int r = 0; r < runs; r++)
				pn += isfinite(pe->median[r]);
			if (!isfinite(pcv)) {
				verdict = pn == 0 ? "no peer figure "
				    "(+++++): cannot compare" : "peer "
				    "figure in too few runs: cannot compare";
				untestable++;
			} else if (!isfinite(ccv)) {
				verdict = "ours in too few runs as bonnie++ "
				    "prints: cannot compare";
				untestable++;
			} else if (ccv > pcv) {
				/*
				 * How sure: the variance ratio's F test, as
				 * five runs' CV is itself uncertain by a third.
				 */
				n = 0;
				for (int r = 0; r < runs; r++)
					n += isfinite(series[r]);
				f = pcv > 0 ? (ccv / pcv) * (ccv / pcv) :
				    INFINITY;
				fp = n > 1 && pn > 1 && isfinite(f) ?
				    gsl_cdf_fdist_Q(f, (double)(n - 1),
				    (double)(pn - 1)) : 0;
				snprintf(vbuf, sizeof(vbuf), "NOISIER than its "
				    "peer (F %.2f, p %.2g)", f, fp);
				verdict = vbuf;
				noisier++;
				noisier_sure += fp < 0.05;
			} else
				verdict = "not noisier than its peer";
		} else if (strncmp(m->workload, "sys.", 4) == 0) {
			if (isfinite(cv) && cv < NZ_SYS_LIMIT)
				verdict = "under 3%";
			else {
				verdict = "3% OR MORE";
				sys_over++;
			}
		}
		if (pe == NULL)
			cvbuf[0] = '\0';
		else if (isfinite(pcv))
			snprintf(cvbuf, sizeof(cvbuf), "%.2f", pcv);
		else
			snprintf(cvbuf, sizeof(cvbuf), "-");
		printf("%-14s %-13s %7s %14.6g %7.2f %7s   %-22s %7s  %s\n",
		    m->workload, m->metric, m->unit,
		    peer_median(m->median, runs), cv, ccvbuf, pbuf, cvbuf,
		    verdict);
	}
	if (bonnie)
		printf("\niterations with no figure as bonnie++ prints (a "
		    "phase under %.1f s):\n", NZ_BONNIE_MIN);
	for (i = 0; bonnie && i < nz_nmetrics; i++) {
		m = &nz_metrics[i];
		if ((pe = peer_of(m)) == NULL ||
		    strcmp(pe->tool, "bonnie++") != 0)
			continue;
		printf("  %-13s ours %d of %d, bonnie++ %s %d of %d\n",
		    m->metric, m->unprinted, m->iterations, pe->figure,
		    pe->unprinted, pe->iterations);
	}
	/*
	 * A figure not compared is no figure passed: exit 0 would say that
	 * every disk metric was shown no noisier than its peer.
	 */
	misses = sys_over + noisier + untestable;
	printf("\nsys.* metrics at 3%% or more: %d; native disk metrics "
	    "noisier than their peer: %d (%d of them at p < 0.05 by the F "
	    "test of their variances); disk metrics that cannot be compared "
	    "(no figure printed in enough runs): %d\n", sys_over, noisier,
	    noisier_sure, untestable);
	if (runs < asked)
		printf("only %d of %d runs: the verdicts above are of those, "
		    "and the bench fails\n", runs, asked);
	return misses;
}

/* One figure's line of the within/between table, into buf. */
static void
split_text(char *buf, size_t len, const struct nz_within *w, double cv)
{
	double	wcv = within_cv(w), exp, between;

	if (!isfinite(wcv) || !isfinite(cv)) {
		snprintf(buf, len, "%3s %7s %7s %7s", "-", "-", "-", "-");
		return;
	}
	exp = wcv * median_sd_factor(w->n);
	between = cv * cv > exp * exp ? sqrt(cv * cv - exp * exp) : 0;
	snprintf(buf, len, "%3zu %7.2f %7.2f %7.2f", w->n, wcv, exp, between);
}

/*
 * Where the noise of the run medians comes from: the iterations' own
 * spread within a run, as it reaches the median of n of them, and what
 * is left between runs.  Only the first shrinks with more iterations.
 */
static void
report_within(int runs)
{
	struct nz_metric	*m;
	struct nz_peer		*pe;
	char			 ours[64], theirs[96];
	size_t			 i;

	printf("\nwhere the run medians' CV comes from (%%): n iterations a "
	    "run; within, the pooled CV of one run's iterations; from "
	    "within, what that makes of the CV of a median of n (normal "
	    "noise); between, what is left of the CV over %d runs (the "
	    "host and the run-to-run set-up: more iterations do not "
	    "shrink it)\n", runs);
	printf("%-14s %-13s %3s %7s %7s %7s   %-22s %3s %7s %7s %7s\n",
	    "workload", "metric", "n", "within", "from w", "between",
	    "peer", "n", "within", "from w", "between");
	for (i = 0; i < nz_nmetrics; i++) {
		m = &nz_metrics[i];
		split_text(ours, sizeof(ours), &m->within,
		    peer_cv(m->median, runs));
		theirs[0] = '\0';
		if ((pe = peer_of(m)) != NULL) {
			char	part[48];

			split_text(part, sizeof(part), &pe->within,
			    peer_cv(pe->median, runs));
			snprintf(theirs, sizeof(theirs), "%-8s %-13s %s",
			    pe->tool, pe->figure, part);
		}
		printf("%-14s %-13s %s   %s\n", m->workload, m->metric, ours,
		    theirs);
	}
}

int
main(int argc, char **argv)
{
	struct sigaction	 sa;
	struct nz_profile	 quick, other;
	struct nz_job		*bj, *sj;
	const char		*base = "/var/tmp";
	const char		*profile = "etc/profiles/quick.conf";
	char			*pw = NULL, *pdir, *path, *cause = NULL;
	char			 dir[PATH_MAX], conf[PATH_MAX + 32];
	char			 db[PATH_MAX + 32];
	FILE			*f;
	double			 wall, t0, est;
	int			 ch, runs = 5, evict = 1, done = 0;
	int			 keep = 0, measure[2] = { 0, 0 };
	int			 run, misses;
	const char		*others[] = { "nightly", "full" };
	const char		*peer_tools[][2] = { { "disk.bonnie",
				    "bonnie++" }, { "disk.stream", "fio" } };
	size_t			 k;

	while ((ch = getopt(argc, argv, "EFNP:d:kn:p:w:")) != -1) {
		switch (ch) {
		case 'E':
			evict = 0;
			break;
		case 'k':
			keep = 1;
			break;
		case 'F':
			measure[1] = 1;
			break;
		case 'N':
			measure[0] = 1;
			break;
		case 'P':
			pw = xstrdup(optarg);
			break;
		case 'd':
			base = optarg;
			break;
		case 'n':
			runs = atoi(optarg);
			break;
		case 'p':
			profile = optarg;
			break;
		case 'w':
			if ((nz_settle = atoi(optarg)) < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc || runs < 2 || runs > NZ_RUNS_MAX)
		usage();
	if (pw == NULL)
		pw = bench_perfwatch(argv[0]);
	if (profile_read(profile, &quick) == -1) {
		fprintf(stderr, "noise: cannot read profile %s\n", profile);
		free(pw);
		return 2;
	}
	/*
	 * A run's iterations are kept in arrays of NZ_ITER_MAX: refused
	 * here, not cut short unsaid after the first run.
	 */
	for (k = 0; k < quick.njobs; k++) {
		if (quick.jobs[k].params.iterations > NZ_ITER_MAX) {
			fprintf(stderr, "noise: %s: [workload \"%s\"] "
			    "iterations = %d: the bench keeps at most %d "
			    "iterations a run\n", profile, quick.jobs[k].name,
			    quick.jobs[k].params.iterations, NZ_ITER_MAX);
			profile_free(&quick);
			free(pw);
			return 2;
		}
	}
	/* Each peer the profile needs, before a run of ours, not after. */
	for (k = 0; k < nitems(peer_tools); k++) {
		if (profile_job(&quick, peer_tools[k][0]) != NULL &&
		    !peer_in_path(peer_tools[k][1])) {
			fprintf(stderr, "noise: %s, %s's peer, is not in PATH "
			    "(Debian installs bonnie++ in /usr/sbin)\n",
			    peer_tools[k][1], peer_tools[k][0]);
			profile_free(&quick);
			free(pw);
			return 2;
		}
	}
	bj = profile_job(&quick, "disk.bonnie");
	sj = profile_job(&quick, "disk.stream");
	/* The eviction is bonnie++'s alone. */
	if (bj == NULL)
		evict = 0;
	else if (evict && geteuid() != 0) {
		fprintf(stderr, "noise: not root: no page-cache eviction for "
		    "bonnie++ (as with -E)\n");
		evict = 0;
	}
	snprintf(dir, sizeof(dir), "%s/perfwatch-noise.XXXXXX", base);
	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "noise: mkdtemp %s: %s\n", dir,
		    strerror(errno));
		return 2;
	}
	snprintf(conf, sizeof(conf), "%s/perfwatch.conf", dir);
	snprintf(db, sizeof(db), "%s/noise.db", dir);
	if ((f = fopen(conf, "w")) == NULL) {
		fprintf(stderr, "noise: %s: %s\n", conf, strerror(errno));
		wl_remove_tree(dir);
		return 2;
	}
	fprintf(f, "[perfwatch]\nwork_dir = %s\n\n[quiet]\npolicy = "
	    "annotate\n", dir);
	fclose(f);
	if (keep) {
		char	plog[PATH_MAX + 32];

		snprintf(plog, sizeof(plog), "%s/peers.csv", dir);
		if ((nz_peer_log = fopen(plog, "w")) == NULL) {
			fprintf(stderr, "noise: %s: %s\n", plog,
			    strerror(errno));
			wl_remove_tree(dir);
			return 2;
		}
		fprintf(nz_peer_log, "run,iteration,tool,figure,value\n");
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nz_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* Of the peers, only those the profile runs. */
	printf("noise: %d runs of %s with %s in %s", runs, profile, pw, dir);
	if (bj == NULL && sj == NULL)
		printf("; no peers (the profile has neither disk.bonnie nor "
		    "disk.stream)");
	else if (nz_settle >= 0)
		printf("; peers at its sizes, %d s of quiet before each",
		    nz_settle);
	else {
		printf("; peers at its sizes, as much quiet before each as the "
		    "profile gives its workload (");
		if (bj != NULL)
			printf("bonnie++ %g s%s", bj->params.settle,
			    sj != NULL ? ", " : "");
		if (sj != NULL)
			printf("fio %g s", sj->params.settle);
		printf(")");
	}
	printf("%s\n", evict ? "; bonnie++'s file evicted at each open" : "");
	t0 = bench_now();
	for (run = 0; run < runs && !nz_stop; run++) {
		printf("run %d: load %s", run + 1, peer_load());
		fflush(stdout);
		if ((wall = perfwatch_run(pw, conf, db, profile, run, 1,
		    &cause)) < 0) {
			fprintf(stderr, "\nnoise: %s\n", cause);
			free(cause);
			break;
		}
		if (read_samples(pw, conf, db, run, profile_job(&quick,
		    "disk.bonnie"), &cause) == -1) {
			fprintf(stderr, "\nnoise: %s\n", cause);
			free(cause);
			break;
		}
		nz_run_wall[run] = wall;
		printf("; quick profile %.1f s", wall);
		fflush(stdout);
		if (peers_run(dir, &quick, run, evict) == -1)
			break;
		if (bj == NULL && sj == NULL) {
			printf("\n");
			done++;
			continue;
		}
		printf("; peers done (load %s)\n", peer_load());
		printf("  ours: ");
		if (bj != NULL)
			printf(" bonnie write %.0f rewrite %.0f read %.0f "
			    "K/sec seeks %.0f /sec%s",
			    ours_in_run("disk.bonnie", "write_kps", run),
			    ours_in_run("disk.bonnie", "rewrite_kps", run),
			    ours_in_run("disk.bonnie", "read_kps", run),
			    ours_in_run("disk.bonnie", "seeks_ps", run),
			    sj != NULL ? ";" : "");
		if (sj != NULL)
			printf(" stream %.1f MiB/s",
			    ours_in_run("disk.stream", "write_mibps", run));
		printf("\n  peers:");
		if (bj != NULL)
			printf(" bonnie++ write %.0f rewrite %.0f read %.0f "
			    "K/sec seeks %.0f /sec%s", nz_peers[0].median[run],
			    nz_peers[2].median[run], nz_peers[4].median[run],
			    nz_peers[6].median[run], sj != NULL ? ";" : "");
		if (sj != NULL)
			printf(" fio %.1f MiB/s",
			    nz_peers[PEER_FIO_BW].median[run]);
		printf("%s\n", bj != NULL ? " (nan: +++++)" : "");
		fflush(stdout);
		done++;
	}
	if (done < 2) {
		if (!keep)
			wl_remove_tree(dir);
		fprintf(stderr, "noise: only %d of %d runs: fewer than two, "
		    "no CV to take\n", done, runs);
		return 1;
	}
	misses = report(done, runs, bj != NULL);
	report_within(done);

	printf("\nwall time of the profiles on this machine\n");
	printf("  quick    measured: median %s over %d runs (",
	    duration_text(peer_median(nz_run_wall, done)), done);
	for (run = 0; run < done; run++)
		printf("%s%.0f", run ? ", " : "", nz_run_wall[run]);
	printf(" s)\n");
	pdir = xstrdup(profile);
	path = dirname(pdir);
	for (k = 0; k < nitems(others); k++) {
		char	*op;

		xasprintf(&op, "%s/%s.conf", path, others[k]);
		if (profile_read(op, &other) == -1) {
			printf("  %-8s not found (%s)\n", others[k], op);
			free(op);
			continue;
		}
		est = profile_estimate(&other, &quick, done);
		if (measure[k] && !nz_stop) {
			printf("  %-8s running it once (estimate %s) ...",
			    others[k], duration_text(est));
			fflush(stdout);
			wall = perfwatch_run(pw, conf, db, op, 0, 0, &cause);
			if (wall < 0) {
				printf(" failed: %s\n", cause);
				free(cause);
				cause = NULL;
			} else
				printf(" measured %s\n", duration_text(wall));
		} else {
			printf("  %-8s estimated: %s (from its parameters and "
			    "the rates the quick runs measured; not run)\n",
			    others[k], duration_text(est));
		}
		profile_free(&other);
		free(op);
	}
	free(pdir);
	profile_free(&quick);
	printf("\nload average at end: %s; %.0f s in all\n", peer_load(),
	    bench_now() - t0);
	if (nz_peer_log != NULL)
		fclose(nz_peer_log);
	if (keep)
		printf("kept %s: the runs' samples are in %s (perfwatch -D %s "
		    "history, export), the peers' in %s/peers.csv (nan: "
		    "+++++)\n", dir, db, db, dir);
	else
		wl_remove_tree(dir);
	free(pw);
	/*
	 * A run that failed is no run passed: the verdicts over the others
	 * are not what was asked for, however they came out.
	 */
	return misses == 0 && done == runs ? 0 : 1;
}
