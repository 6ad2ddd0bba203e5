/*
 * Quiet-machine checks: is anything else using the machine right now?
 *
 * A sample reads the OS counters twice, interval_ms apart, and turns them
 * into shares and counts over that interval (CPU busy, swapping, new
 * thermal throttling) plus instant values (load averages, runnable tasks,
 * available memory).  The judge compares a sample with limits and says
 * which ones it broke, in words a user can act on.  What to do about a busy
 * machine (wait, skip, annotate) is the runner's policy; sysinfo_quiet_wait
 * is the "wait" part.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

/*
 * The defaults documented in sysinfo.h, scaled to the online CPUs.  Not to
 * the CPUs this process may use (sysinfo_allowed), which the workloads
 * size themselves to: the load, runnable tasks and CPU time a sample
 * reads are the whole machine's (a container's too, unless something
 * like lxcfs narrows /proc and the online CPUs alike), and the scheduler
 * spreads other work over every CPU, so half a task per online CPU is
 * half a task on each of the run's CPUs as well.  Scaled to one allowed
 * CPU of 64, one busy process anywhere would keep every run waiting.
 */
void
sysinfo_quiet_limits_default(struct quiet_limits *l)
{
	long	n;

	if ((n = sysconf(_SC_NPROCESSORS_ONLN)) < 1)
		n = 1;
	memset(l, 0, sizeof(*l));
	l->max_load1 = 0.5 * (double)n;
	l->max_runnable = n / 2 < 1 ? 1 : (int)(n / 2);
	l->max_cpu_busy = 0.25;
	l->max_swap_pages = 64;
	l->min_mem_available = 0.10;
	l->max_throttle_events = 0;
	l->interval_ms = 1000;
}

/* Sleep for seconds, through signals. */
static void
quiet_sleep(double seconds)
{
	struct timespec	ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* b - a for counters that should only grow; 0 if one was reset. */
static uint64_t
quiet_delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

/*
 * Take one sample over interval_ms (0: instant values only, no CPU share).
 * root is the prefix of /proc and /sys, NULL for the real ones.  -1 when
 * the counters cannot be read at all.
 */
int
sysinfo_quiet_sample(struct quiet *q, unsigned int interval_ms,
    const char *root)
{
	struct quiet_counters	 c0, c1;
	char			*cause = NULL;
	double			 t0, t1;
	uint64_t		 busy, total;
	int			 running;

	memset(q, 0, sizeof(*q));
	if (sysinfo_os_counters(root, &c0, &cause) == -1)
		goto fail;
	t0 = perfwatch_mono();
	quiet_sleep(interval_ms / 1000.0);
	if (sysinfo_os_counters(root, &c1, &cause) == -1)
		goto fail;
	t1 = perfwatch_mono();

	q->interval = t1 - t0;
	q->load1 = c1.load[0];
	q->load5 = c1.load[1];
	q->load15 = c1.load[2];
	q->ncpu = c1.ncpu;
	/* The smaller of two looks, less the sampler itself: a task that
	 * was running both times is really competing. */
	running = c0.running < c1.running ? c0.running : c1.running;
	q->runnable = running > 0 ? running - 1 : 0;
	busy = quiet_delta(c0.cpu_busy, c1.cpu_busy);
	total = quiet_delta(c0.cpu_total, c1.cpu_total);
	q->cpu_busy = total > 0 ? (double)busy / (double)total : 0.0;
	if (q->cpu_busy > 1.0)
		q->cpu_busy = 1.0;
	q->swap_in = quiet_delta(c0.swap_in, c1.swap_in);
	q->swap_out = quiet_delta(c0.swap_out, c1.swap_out);
	q->mem_total_kb = c1.mem_total_kb;
	q->mem_available_kb = c1.mem_available_kb;
	q->throttle_known = c1.throttle_known;
	q->throttle_count = c1.throttle;
	q->throttle_events = quiet_delta(c0.throttle, c1.throttle);
	return 0;
fail:
	log_warnx("quiet: %s", cause);
	free(cause);
	return -1;
}

/*
 * A figure over its limit, printed into a and m (each of size n) with
 * prec decimals, or more (up to three beyond) until the limit is printed
 * as it is and the two differ: "load 1.03 > 1.03", or "> 1.02", said
 * nothing true of a limit of 1.025.
 */
static void
quiet_apart(double x, double limit, int prec, char *a, char *m, size_t n)
{
	int	p;

	for (p = prec; p <= prec + 3; p++) {
		snprintf(a, n, "%.*f", p, x);
		snprintf(m, n, "%.*f", p, limit);
		if (fabs(strtod(m, NULL) - limit) <= 1e-9 * fmax(1, fabs(limit)) &&
		    strcmp(a, m) != 0)
			break;
	}
}

/*
 * Judge a sample: 0 when it is within every limit, 1 when not, with *why
 * (if why is not NULL) naming each limit broken, e.g.
 * "cpu busy 97% > 25%; load 2.10 > 1.00".
 */
int
sysinfo_quiet_judge(const struct quiet *q, const struct quiet_limits *l,
    char **why)
{
	struct sysinfo_buf	b = { NULL, 0, 0 };
	const char		*sep = "";
	char			 a[32], m[32];
	double			 avail;

	if (q->cpu_busy > l->max_cpu_busy) {
		quiet_apart(q->cpu_busy * 100, l->max_cpu_busy * 100, 0,
		    a, m, sizeof(a));
		sysinfo_buf_addf(&b, "%scpu busy %s%% > %s%%", sep, a, m);
		sep = "; ";
	}
	if (q->load1 > l->max_load1) {
		quiet_apart(q->load1, l->max_load1, 2, a, m, sizeof(a));
		sysinfo_buf_addf(&b, "%sload %s > %s", sep, a, m);
		sep = "; ";
	}
	if (q->runnable > l->max_runnable) {
		sysinfo_buf_addf(&b, "%s%d runnable tasks > %d", sep,
		    q->runnable, l->max_runnable);
		sep = "; ";
	}
	if (q->swap_in + q->swap_out > l->max_swap_pages) {
		sysinfo_buf_addf(&b, "%sswapping %llu pages > %llu", sep,
		    (unsigned long long)(q->swap_in + q->swap_out),
		    (unsigned long long)l->max_swap_pages);
		sep = "; ";
	}
	if (q->mem_total_kb > 0) {
		avail = (double)q->mem_available_kb / (double)q->mem_total_kb;
		if (avail < l->min_mem_available) {
			sysinfo_buf_addf(&b, "%smemory available %.0f%% < "
			    "%.0f%%", sep, avail * 100,
			    l->min_mem_available * 100);
			sep = "; ";
		}
	}
	if (q->throttle_known && q->throttle_events > l->max_throttle_events) {
		sysinfo_buf_addf(&b, "%s%llu thermal throttling events > %llu",
		    sep, (unsigned long long)q->throttle_events,
		    (unsigned long long)l->max_throttle_events);
		sep = "; ";
	}
	if (b.len == 0) {
		free(sysinfo_buf_finish(&b));
		return 0;
	}
	if (why != NULL)
		*why = sysinfo_buf_finish(&b);
	else
		free(sysinfo_buf_finish(&b));
	return 1;
}

/*
 * Sample until the machine is quiet or max_wait_seconds have gone by,
 * about once a second.  Returns 0 when quiet, 1 when still busy at the
 * limit (with *why), -1 when the counters cannot be read (with *why).
 * *seen is the last sample and *waited (if not NULL) the seconds spent; the
 * wait may overrun the limit by one sample interval.
 */
int
sysinfo_quiet_wait(const struct quiet_limits *l, double max_wait_seconds,
    struct quiet *seen, double *waited, char **why)
{
	double	start, elapsed, pause;
	char	*reason = NULL;

	start = perfwatch_mono();
	for (;;) {
		if (sysinfo_quiet_sample(seen, l->interval_ms, NULL) == -1) {
			if (why != NULL)
				*why = xstrdup("cannot read the load "
				    "counters");
			return -1;
		}
		elapsed = perfwatch_mono() - start;
		if (waited != NULL)
			*waited = elapsed;
		free(reason);
		reason = NULL;
		if (sysinfo_quiet_judge(seen, l, &reason) == 0)
			return 0;
		if (elapsed >= max_wait_seconds)
			break;
		pause = 1.0 - l->interval_ms / 1000.0;
		if (pause < 0.05)
			pause = 0.05;
		if (pause > max_wait_seconds - elapsed)
			pause = max_wait_seconds - elapsed;
		quiet_sleep(pause);
	}
	if (why != NULL)
		*why = reason;
	else
		free(reason);
	return 1;
}

/* A sample as JSON, so a run can keep what it saw. */
json_t *
sysinfo_quiet_json(const struct quiet *q)
{
	json_t	*o;

	o = json_object();
	json_object_set_new(o, "interval", json_real(q->interval));
	json_object_set_new(o, "load1", json_real(q->load1));
	json_object_set_new(o, "load5", json_real(q->load5));
	json_object_set_new(o, "load15", json_real(q->load15));
	json_object_set_new(o, "ncpu", json_integer(q->ncpu));
	json_object_set_new(o, "runnable", json_integer(q->runnable));
	json_object_set_new(o, "cpu_busy", json_real(q->cpu_busy));
	json_object_set_new(o, "swap_in", json_integer((json_int_t)q->swap_in));
	json_object_set_new(o, "swap_out",
	    json_integer((json_int_t)q->swap_out));
	json_object_set_new(o, "mem_total_kb",
	    json_integer((json_int_t)q->mem_total_kb));
	json_object_set_new(o, "mem_available_kb",
	    json_integer((json_int_t)q->mem_available_kb));
	if (q->throttle_known) {
		json_object_set_new(o, "throttle_count",
		    json_integer((json_int_t)q->throttle_count));
		json_object_set_new(o, "throttle_events",
		    json_integer((json_int_t)q->throttle_events));
	} else {
		json_object_set_new(o, "throttle_count", json_null());
		json_object_set_new(o, "throttle_events", json_null());
	}
	return o;
}

/* A number member of o; -1 (with *cause) if absent or another type. */
static int
quiet_real(const json_t *o, const char *key, double *v, char **cause)
{
	json_t	*j;

	j = json_object_get(o, key);
	if (j == NULL || !json_is_number(j)) {
		xasprintf(cause, "quiet sample: \"%s\" is not a number", key);
		return -1;
	}
	*v = json_number_value(j);
	return 0;
}

/* A non-negative integer member of o. */
static int
quiet_uint(const json_t *o, const char *key, uint64_t *v, char **cause)
{
	json_t	*j;

	j = json_object_get(o, key);
	if (j == NULL || !json_is_integer(j) || json_integer_value(j) < 0) {
		xasprintf(cause, "quiet sample: \"%s\" is not a count", key);
		return -1;
	}
	*v = (uint64_t)json_integer_value(j);
	return 0;
}

/* Read back what sysinfo_quiet_json wrote. */
int
sysinfo_quiet_from_json(const json_t *o, struct quiet *q, char **cause)
{
	uint64_t	ncpu, runnable;
	json_t		*tc, *te;

	if (!json_is_object(o)) {
		*cause = xstrdup("quiet sample: not a JSON object");
		return -1;
	}
	memset(q, 0, sizeof(*q));
	if (quiet_real(o, "interval", &q->interval, cause) == -1 ||
	    quiet_real(o, "load1", &q->load1, cause) == -1 ||
	    quiet_real(o, "load5", &q->load5, cause) == -1 ||
	    quiet_real(o, "load15", &q->load15, cause) == -1 ||
	    quiet_real(o, "cpu_busy", &q->cpu_busy, cause) == -1 ||
	    quiet_uint(o, "ncpu", &ncpu, cause) == -1 ||
	    quiet_uint(o, "runnable", &runnable, cause) == -1 ||
	    quiet_uint(o, "swap_in", &q->swap_in, cause) == -1 ||
	    quiet_uint(o, "swap_out", &q->swap_out, cause) == -1 ||
	    quiet_uint(o, "mem_total_kb", &q->mem_total_kb, cause) == -1 ||
	    quiet_uint(o, "mem_available_kb", &q->mem_available_kb,
	    cause) == -1)
		return -1;
	if (ncpu > 1000000 || runnable > 1000000) {
		*cause = xstrdup("quiet sample: CPU or task count out of "
		    "range");
		return -1;
	}
	q->ncpu = (int)ncpu;
	q->runnable = (int)runnable;
	tc = json_object_get(o, "throttle_count");
	te = json_object_get(o, "throttle_events");
	if (tc != NULL && !json_is_null(tc)) {
		if (quiet_uint(o, "throttle_count", &q->throttle_count,
		    cause) == -1 || quiet_uint(o, "throttle_events",
		    &q->throttle_events, cause) == -1)
			return -1;
		q->throttle_known = 1;
	} else if (te != NULL && !json_is_null(te)) {
		*cause = xstrdup("quiet sample: throttle events without a "
		    "count");
		return -1;
	}
	return 0;
}
