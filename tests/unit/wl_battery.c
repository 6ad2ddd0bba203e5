/*
 * A small driver of workloads/ for measuring a whole profile without the
 * store: it reads a profile's [workload "name"] sections, runs the plan
 * (warm-ups, then interleaved iterations) in work_dir, and prints each
 * metric's median, its spread over the iterations, and the wall time.
 * It is not a unit test (it takes minutes); build and run it by hand:
 *
 *   make build/lib/libworkloads.a build/lib/libcommon.a
 *   cc -std=c11 -D_GNU_SOURCE -O2 -I. -Icommon -o build/wl_battery \
 *       tests/unit/wl_battery.c build/lib/libworkloads.a \
 *       build/lib/libcommon.a -linih -ljansson -lsqlite3 -lm -pthread
 *   build/wl_battery etc/profiles/quick.conf /var/tmp [runs]
 *
 * With runs > 1 the profile is run that many times and each metric's
 * coefficient of variation over the run medians is printed as well.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ini.h>

#include "log.h"
#include "xmalloc.h"
#include "workloads/workloads.h"

#define MAX_JOBS	64
#define MAX_METRICS	32
#define MAX_ITER	64
#define MAX_RUNS	32

struct job {
	char				 name[64];
	const struct wl_workload	*wl;
	struct wl_params		 params;
	size_t				 nmetrics;
	char				 metric[MAX_METRICS][WL_NAME_MAX];
	char				 unit[MAX_METRICS][WL_UNIT_MAX];
	double				 v[MAX_METRICS][MAX_ITER];
	size_t				 nv[MAX_METRICS];
	double				 median[MAX_METRICS][MAX_RUNS];
	double				 wall;
};

static struct job	jobs[MAX_JOBS];
static size_t		njobs;
static const char	*work_dir;
static int		bad;

static int
on_key(void *user, const char *section, const char *key, const char *value)
{
	char	 name[64];
	char	*cause = NULL;
	size_t	 i;

	(void)user;
	if (sscanf(section, "workload \"%63[^\"]\"", name) != 1)
		return 1;
	for (i = 0; i < njobs && strcmp(jobs[i].name, name) != 0; i++)
		;
	if (i == njobs) {
		if (njobs == MAX_JOBS)
			return 0;
		snprintf(jobs[i].name, sizeof(jobs[i].name), "%s", name);
		if ((jobs[i].wl = wl_find(name)) == NULL)
			jobs[i].wl = wl_find("command");
		wl_params_init(&jobs[i].params, jobs[i].wl);
		wl_params_set(&jobs[i].params, jobs[i].wl, "work_dir",
		    work_dir, &cause);
		njobs++;
	}
	if (wl_params_set(&jobs[i].params, jobs[i].wl, key, value,
	    &cause) == -1) {
		fprintf(stderr, "[%s] %s: %s\n", section, key, cause);
		free(cause);
		bad = 1;
	}
	return 1;
}

static int
cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(const double *v, size_t n)
{
	double	s[MAX_ITER > MAX_RUNS ? MAX_ITER : MAX_RUNS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double
cv(const double *v, size_t n)
{
	double	m = 0, ss = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return n > 1 && m != 0 ? sqrt(ss / (n - 1)) / fabs(m) * 100 : 0;
}

static void
on_signal(int sig)
{
	(void)sig;
	wl_abort();
}

int
main(int argc, char **argv)
{
	const struct wl_params	*pp[MAX_JOBS];
	struct wl_progress	*pr;
	struct wl_step		*steps;
	struct wl_result	 res;
	struct job		*j;
	struct timespec		 t0, t1;
	double			 wall, total = 0;
	size_t			 nsteps, i, k, m;
	int			 runs = 1, run, failed = 0;
	char			*cause;

	if (argc < 3) {
		fprintf(stderr, "usage: %s profile work_dir [runs]\n",
		    argv[0]);
		return 64;
	}
	log_init("wl_battery", 1, 0);
	work_dir = argv[2];
	if (argc > 3)
		runs = atoi(argv[3]);
	if (runs < 1 || runs > MAX_RUNS)
		return 64;
	if (ini_parse(argv[1], on_key, NULL) != 0 || bad) {
		fprintf(stderr, "%s: cannot read the profile\n", argv[1]);
		return 78;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (i = 0; i < njobs; i++)
		pp[i] = &jobs[i].params;

	for (run = 0; run < runs && !wl_aborted(); run++) {
		steps = wl_plan(pp, njobs, &nsteps);
		pr = wl_progress_new(steps, nsteps, njobs);
		for (i = 0; i < njobs; i++) {
			for (m = 0; m < MAX_METRICS; m++)
				jobs[i].nv[m] = 0;
			jobs[i].wall = 0;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (k = 0; k < nsteps; k++) {
			j = &jobs[steps[k].job];
			wl_progress_show(pr, k, j->name);
			cause = NULL;
			if (wl_run_iteration(j->wl, &j->params, &res,
			    &cause) == -1) {
				fprintf(stderr, "%s: %s: %s\n", j->name,
				    wl_status_name(res.status), cause);
				free(cause);
				failed = 1;
			}
			wl_progress_done(pr, k, res.wall);
			j->wall += res.wall;
			for (i = 0; !steps[k].warmup && i < res.nmetrics;
			    i++) {
				for (m = 0; m < j->nmetrics &&
				    strcmp(j->metric[m],
				    res.metrics[i].name) != 0; m++)
					;
				if (m == MAX_METRICS)
					continue;
				if (m == j->nmetrics) {
					snprintf(j->metric[m], WL_NAME_MAX,
					    "%s", res.metrics[i].name);
					snprintf(j->unit[m], WL_UNIT_MAX,
					    "%s", res.metrics[i].unit);
					j->nmetrics++;
				}
				if (j->nv[m] < MAX_ITER)
					j->v[m][j->nv[m]++] =
					    res.metrics[i].value;
			}
			wl_result_clear(&res);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		wall = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		total += wall;
		printf("run %d: %.1f s\n", run + 1, wall);
		for (i = 0; i < njobs; i++) {
			j = &jobs[i];
			printf("  %-14s %6.1f s\n", j->name, j->wall);
			for (m = 0; m < j->nmetrics; m++) {
				j->median[m][run] = median(j->v[m], j->nv[m]);
				printf("    %-16s %14.4g %-6s cv %5.2f%%\n",
				    j->metric[m], j->median[m][run], j->unit[m],
				    cv(j->v[m], j->nv[m]));
			}
		}
		fflush(stdout);
		wl_progress_free(pr);
		free(steps);
	}
	if (runs > 1) {
		printf("over %d runs (%.1f s each on average): cv of the run "
		    "medians\n", runs, total / runs);
		for (i = 0; i < njobs; i++) {
			for (m = 0; m < jobs[i].nmetrics; m++)
				printf("  %-14s %-16s %6.2f%%\n", jobs[i].name,
				    jobs[i].metric[m],
				    cv(jobs[i].median[m], runs));
		}
	}
	for (i = 0; i < njobs; i++)
		wl_params_clear(&jobs[i].params);
	return failed ? 1 : 0;
}
