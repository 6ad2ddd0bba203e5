/*
 * Orchestration helpers: the order of a run's iterations, its progress
 * line, and the system index.
 *
 * Iterations are interleaved (iteration 1 of every workload, then 2 ...),
 * so a slow drift of the machine spreads over all workloads instead of
 * landing on one; untimed warm-ups come first, interleaved the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

struct wl_progress {
	double		 start;
	struct wl_step	*steps;
	size_t		 nsteps;
	size_t		 njobs;
	double		*job_sum;	/* seconds of the job's done steps */
	size_t		*job_n;
	int		*job_dropped;	/* no more steps: wl_progress_drop() */
	double		 all_sum;
	size_t		 all_n;
};

/*
 * Plan a run of njobs workloads whose parameters are params[0 ...]:
 * warm-up passes first, then timed passes, each pass visiting every job
 * that still has an iteration to do.  Returns the steps (free() them) and
 * their number in *nsteps; NULL if there are none.
 */
struct wl_step *
wl_plan(const struct wl_params *const *params, size_t njobs, size_t *nsteps)
{
	struct wl_step	*steps;
	size_t		 total = 0, n = 0, j;
	int		 maxwarm = 0, maxiter = 0, k, warm;

	for (j = 0; j < njobs; j++) {
		total += (size_t)params[j]->warmup + params[j]->iterations;
		if (params[j]->warmup > maxwarm)
			maxwarm = params[j]->warmup;
		if (params[j]->iterations > maxiter)
			maxiter = params[j]->iterations;
	}
	*nsteps = 0;
	if (total == 0)
		return NULL;
	steps = xcalloc(total, sizeof(*steps));
	for (warm = 1; warm >= 0; warm--) {
		for (k = 1; k <= (warm ? maxwarm : maxiter); k++) {
			for (j = 0; j < njobs; j++) {
				if ((warm ? params[j]->warmup :
				    params[j]->iterations) < k)
					continue;
				steps[n].job = j;
				steps[n].warmup = warm;
				steps[n].iteration = k;
				steps[n].count = warm ? params[j]->warmup :
				    params[j]->iterations;
				n++;
			}
		}
	}
	*nsteps = n;
	return steps;
}

/* Start following a plan of nsteps steps over njobs jobs. */
struct wl_progress *
wl_progress_new(const struct wl_step *steps, size_t nsteps, size_t njobs)
{
	struct wl_progress	*pr;

	pr = xcalloc(1, sizeof(*pr));
	pr->start = wl_now();
	pr->nsteps = nsteps;
	pr->njobs = njobs;
	if (nsteps > 0) {
		pr->steps = xcalloc(nsteps, sizeof(*pr->steps));
		memcpy(pr->steps, steps, nsteps * sizeof(*steps));
	}
	if (njobs > 0) {
		pr->job_sum = xcalloc(njobs, sizeof(*pr->job_sum));
		pr->job_n = xcalloc(njobs, sizeof(*pr->job_n));
		pr->job_dropped = xcalloc(njobs, sizeof(*pr->job_dropped));
	}
	return pr;
}

/* Record that a step took seconds. */
void
wl_progress_done(struct wl_progress *pr, size_t step, double seconds)
{
	size_t	job;

	if (step >= pr->nsteps)
		return;
	job = pr->steps[step].job;
	if (job < pr->njobs) {
		pr->job_sum[job] += seconds;
		pr->job_n[job]++;
	}
	pr->all_sum += seconds;
	pr->all_n++;
}

/*
 * Record that job runs no more steps: it failed or timed out, and the
 * run skips the rest of its iterations.  Charged at its mean, a timed
 * out disk.bonnie (6 h) with 4 iterations to go showed a day left.
 */
void
wl_progress_drop(struct wl_progress *pr, size_t job)
{
	if (job < pr->njobs)
		pr->job_dropped[job] = 1;
}

/*
 * Estimate the seconds the steps from next on will take: each at its
 * job's mean so far, or at the mean of all steps for a job not yet seen;
 * nothing for a dropped job's.  -1 when nothing has been measured yet.
 */
double
wl_progress_remaining(const struct wl_progress *pr, size_t next)
{
	double	left = 0;
	size_t	i, job;

	if (pr->all_n == 0)
		return next >= pr->nsteps ? 0 : -1;
	for (i = next; i < pr->nsteps; i++) {
		job = pr->steps[i].job;
		if (job < pr->njobs && pr->job_dropped[job])
			continue;
		if (job < pr->njobs && pr->job_n[job] > 0)
			left += pr->job_sum[job] / pr->job_n[job];
		else
			left += pr->all_sum / pr->all_n;
	}
	return left;
}

/* Format seconds as m:ss or h:mm:ss. */
static void
format_duration(double s, char *buf, size_t len)
{
	long	t;

	t = lround(s < 0 ? 0 : s);
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600,
		    (t / 60) % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/*
 * Format the progress line shown as step starts:
 * "[3/45] sys.pipe iteration 2/5, elapsed 0:42, left ~1:30".
 * Returns what snprintf returns.
 */
int
wl_progress_format(const struct wl_progress *pr, size_t step,
    const char *name, double elapsed, char *buf, size_t len)
{
	const struct wl_step	*s;
	char			 el[32], left[32];
	double			 rem;

	if (step >= pr->nsteps)
		return snprintf(buf, len, "[%zu/%zu] done", pr->nsteps,
		    pr->nsteps);
	s = &pr->steps[step];
	format_duration(elapsed, el, sizeof(el));
	rem = wl_progress_remaining(pr, step);
	if (rem < 0)
		snprintf(left, sizeof(left), "?");
	else
		format_duration(rem, left, sizeof(left));
	return snprintf(buf, len, "[%zu/%zu] %s %s %d/%d, elapsed %s, "
	    "left ~%s", step + 1, pr->nsteps, name,
	    s->warmup ? "warm-up" : "iteration", s->iteration, s->count, el,
	    left);
}

/* Print the progress line on stderr, only when it is a terminal. */
void
wl_progress_show(const struct wl_progress *pr, size_t step,
    const char *name)
{
	char	buf[256];

	if (!isatty(STDERR_FILENO))
		return;
	wl_progress_format(pr, step, name, wl_now() - pr->start, buf,
	    sizeof(buf));
	fprintf(stderr, "%s\n", buf);
	fflush(stderr);
}

void
wl_progress_free(struct wl_progress *pr)
{
	if (pr == NULL)
		return;
	free(pr->steps);
	free(pr->job_sum);
	free(pr->job_n);
	free(pr->job_dropped);
	free(pr);
}

/*
 * The system index: the geometric mean over n tests of
 * score / reference x 1000 (so the reference run itself scores 1000).
 * NAN when n is 0 or a score or reference is not positive.
 */
double
wl_index(const double *score, const double *reference, size_t n)
{
	double	logsum = 0;
	size_t	i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(score[i] > 0) || !(reference[i] > 0))
			return NAN;
		logsum += log(score[i] / reference[i]);
	}
	return exp(logsum / n) * 1000.0;
}
