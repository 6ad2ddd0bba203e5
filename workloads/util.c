/*
 * Helpers shared by the native workloads: clocks, CPU time, the CPUs
 * and memory a workload may use, a small random generator, result
 * lines, the timed loop and two statistics.
 *
 * A workload sizes itself (a thread a CPU, a file of twice the memory)
 * by what this process may use, sysinfo_allowed(), not by what the
 * machine has: under taskset, a cpuset, a CPU quota or a memory limit,
 * one thread per online CPU oversubscribes the CPUs it has (the figure
 * then measures the scheduler, not the machine) and a working set sized
 * from the RAM runs into the memory limit.  A figure taken under a limit
 * is thus of a smaller machine; the snapshot diff shows the limit, and
 * the workloads whose sizing follows it say so in their notes.
 *
 * The timed loop is how every sys.* workload stays precise: the clock is
 * read once per batch, never per iteration, and the batch grows until it
 * lasts at least a millisecond, so timer cost is lost in the noise; every
 * rate is iterations over the time they actually took, measured at batch
 * ends, so overshooting the duration biases nothing; loops count the CPU
 * time they (and the processes they start) received instead of the wall
 * clock, which other processes on the machine cannot move; and the
 * reported rate is a high percentile of the rates of (up to) ten time
 * slices, because what still moves a CPU-time rate (another process on
 * the same core or host evicting caches, a hypervisor taking memory
 * back) can only slow a slice, never speed it up.
 */
#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "internal.h"

#define LOOP_BATCH_SECONDS	0.001
#define LOOP_BATCH_MAX		(UINT64_C(1) << 32)
#define LOOP_SLICES		10
#define LOOP_RATE_PCT		80	/* the slice rate reported */

/* Return CLOCK_MONOTONIC in seconds. */
double
wl_now(void)
{
	return perfwatch_mono();
}

/* Return user + system CPU seconds of RUSAGE_SELF or RUSAGE_CHILDREN. */
double
wl_cpu_seconds(int who)
{
	struct rusage	ru;

	if (getrusage(who, &ru) == -1)
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * Return the memory in bytes this process may use: the RAM, or a lower
 * memory limit of its control group (0 if unknown).
 */
uint64_t
wl_memory_bytes(void)
{
	struct sysinfo_allowed	a;

	sysinfo_allowed(NULL, &a);
	return a.memory;
}

/*
 * Return the number of CPUs this process may keep busy at once, at least
 * 1: its affinity mask, capped by a CPU quota rounded up.
 */
int
wl_ncpu(void)
{
	struct sysinfo_allowed	a;

	sysinfo_allowed(NULL, &a);
	return a.cpus;
}

/* Return the next value of a splitmix64 sequence; any seed is good. */
uint64_t
wl_rng_next(uint64_t *state)
{
	uint64_t	z;

	z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * len bytes at the start of a page, or NULL when out of memory; free()
 * releases them.  A timed loop's state and buffers are placed so: where
 * malloc puts a block depends on everything the process allocated before
 * it forked the workload, so a block aligned only to a cache line lands at
 * a different offset within its page from one run to the next, and on
 * x86 a load that a store straddling two pages cannot be forwarded to
 * waits for it.  sys.dhrystone's loop runs 27% slower with its state 64
 * bytes before a page boundary, and two of five quick runs measured that
 * level in all their iterations (bench/README.md, set CC): a shift of
 * the run that no number of iterations averages out.
 */
void *
wl_page_alloc(size_t len)
{
	void	*mem;
	long	 page;

	if ((page = sysconf(_SC_PAGESIZE)) < (long)sizeof(void *))
		page = 4096;
	if (posix_memalign(&mem, (size_t)page, len) != 0)
		return NULL;
	return mem;
}

/* Fill a buffer with pseudo-random bytes so no layer can compress it. */
void
wl_fill_random(void *buf, size_t len, uint64_t seed)
{
	unsigned char	*p = buf;
	uint64_t	 v;
	size_t		 i, n;

	for (i = 0; i < len; i += n) {
		v = wl_rng_next(&seed);
		n = len - i < sizeof(v) ? len - i : sizeof(v);
		memcpy(p + i, &v, n);
	}
}

/* Write all of buf, retrying short writes; 0 or -1 with errno. */
int
wl_write_full(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* Write one result line "name value unit better". */
int
wl_emit(int fd, const char *name, double value, const char *unit,
    enum better better)
{
	char	line[256];
	int	n;

	if (!isfinite(value)) {
		errno = EDOM;
		return -1;
	}
	n = snprintf(line, sizeof(line), "%s %.10g %s %s\n", name, value, unit,
	    better_name(better));
	if (n < 0 || (size_t)n >= sizeof(line)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return wl_write_full(fd, line, n);
}

/* Write one note line ("# text"). */
int
wl_note(int fd, const char *fmt, ...)
{
	char	line[512];
	va_list	ap;
	int	n;

	memcpy(line, "# ", 2);
	va_start(ap, fmt);
	n = vsnprintf(line + 2, sizeof(line) - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n > sizeof(line) - 4)
		n = sizeof(line) - 4;
	line[2 + n] = '\n';
	return wl_write_full(fd, line, 3 + n);
}

/* CPU seconds used so far by this process, all its threads. */
static double
process_cpu(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == -1)
		return wl_cpu_seconds(RUSAGE_SELF);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPU seconds a loop counts so far (undivided); -1 if unreadable. */
static double
clock_cpu(const struct wl_clock *clk)
{
	struct timespec	ts;
	double		cpu;

	cpu = process_cpu();
	if (clk->flags & WL_LOOP_TREE)
		cpu += wl_cpu_seconds(RUSAGE_CHILDREN);
	if (clk->has_partner) {
		if (clock_gettime(clk->partner, &ts) == -1)
			return -1;
		cpu += ts.tv_sec + ts.tv_nsec / 1e9;
	}
	return cpu;
}

/* Run body in batches for duration seconds of the wall clock. */
int
wl_timed_loop(double duration, int flags, wl_loop_body body, void *arg,
    struct wl_loop *loop, char **cause)
{
	struct wl_clock	clk;

	memset(&clk, 0, sizeof(clk));
	clk.flags = flags;
	clk.cpus = 1;
	return wl_timed_loop_clock(duration, &clk, body, arg, loop, cause);
}

/*
 * Run body in batches until duration seconds (wall clock) have passed,
 * and take the rate.  The loop is cut into LOOP_SLICES slices of equal
 * time, each a whole number of batches timed exactly, and the rate is the
 * 80th percentile of the slices' rates by nearest rank: the fastest
 * slices are the least disturbed, and not the single fastest, so that one
 * slice cannot set the figure.  Each slice ends at the first batch end
 * past its length, so their overshoot adds up and the tenth is usually
 * still open when the duration is reached: it is dropped, not taken
 * short, and the rate is then the second fastest of nine (of ten, the
 * third); the note says how many slices there were.  On an idle machine the slices
 * agree and this is the median within 1 or 2%; on a 2-vCPU VM shared with
 * other work (load 1 to 3), the coefficient of variation over six runs of
 * the quick profile's run medians went, median of slices against this:
 * dhrystone 12.5% to 2.0%, whetstone 5.8 to 1.8, spawn 8.9 to 2.1,
 * context1 3.9 to 1.2, fcopy256 4.1 to 1.9, shell1 3.2 to 1.7, shell8 13
 * to 10, the others within 0.5 of where they were (all under 3%).  With
 * fewer than three slices (a loop much slower than the duration) the rate
 * is the count over the time.
 *
 * With WL_LOOP_CPU the time is the CPU time the process received rather
 * than the wall clock: for a loop that never waits (one process, no
 * blocking) the two agree on an idle machine, and the CPU time does not
 * count the moments other processes held the CPU.  WL_LOOP_TREE adds the
 * CPU time of the children the body reaped (each batch must reap all it
 * started) and a partner clock that of a process living through the loop
 * (clock_getcpuclockid), for loops whose work is done by several
 * processes that take turns; divided by cpus, the CPUs they are spread
 * over, it is again the wall-clock time on an idle machine as long as
 * the processes keep those CPUs busy, which is why such loops pin their
 * processes (see unixbench.c).  loop->wall_rate keeps the plain
 * wall-clock rate either way.
 */
int
wl_timed_loop_clock(double duration, const struct wl_clock *clk,
    wl_loop_body body, void *arg, struct wl_loop *loop, char **cause)
{
	double		start, t0, t1, slice_start, slice_len;
	double		cpu_start, c1 = 0, slice_cpu = 0, span;
	double		rates[LOOP_SLICES + 1];
	uint64_t	batch = 1, done = 0, slice_count = 0;
	size_t		n = 0;
	int		use_cpu, cpus;

	use_cpu = (clk->flags & (WL_LOOP_CPU | WL_LOOP_TREE)) ||
	    clk->has_partner;
	cpus = clk->cpus < 1 ? 1 : clk->cpus;
	slice_len = duration / LOOP_SLICES;
	if ((cpu_start = slice_cpu = clock_cpu(clk)) < 0)
		goto noclock;
	start = slice_start = t1 = wl_now();
	for (;;) {
		t0 = t1;
		if (body(arg, batch, cause) == -1)
			return -1;
		done += batch;
		slice_count += batch;
		t1 = wl_now();
		if (use_cpu && (c1 = clock_cpu(clk)) < 0)
			goto noclock;
		if (t1 - slice_start >= slice_len && n < nitems(rates)) {
			span = use_cpu ? (c1 - slice_cpu) / cpus :
			    t1 - slice_start;
			if (span > 0)
				rates[n++] = slice_count / span;
			slice_start = t1;
			slice_cpu = c1;
			slice_count = 0;
		}
		if (t1 - start >= duration)
			break;
		if (t1 - t0 < LOOP_BATCH_SECONDS && batch < LOOP_BATCH_MAX)
			batch *= 2;
	}
	loop->count = done;
	loop->elapsed = t1 - start;
	loop->cpu = (use_cpu ? c1 : clock_cpu(clk)) - cpu_start;
	loop->cpus = cpus;
	loop->wall_rate = done / loop->elapsed;
	loop->slices = n;
	if (n >= 3)
		loop->rate = wl_percentile(rates, n, LOOP_RATE_PCT);
	else if (use_cpu && loop->cpu > 0)
		loop->rate = done / (loop->cpu / cpus);
	else
		loop->rate = loop->wall_rate;
	return 0;
noclock:
	xasprintf(cause, "reading the partner's CPU clock: %s",
	    strerror(errno));
	return -1;
}

/*
 * Write a timed loop's figure (its rate times scale) and a note with the
 * count behind it.  The note's wall-clock figure is scaled as the
 * figure is, so it is in the figure's unit (lpm is per minute, not "a
 * second").
 */
int
wl_loop_report(int out, const char *name, const char *unit, double scale,
    const struct wl_loop *loop, char **cause)
{
	wl_note(out, "%llu loops in %.3f s (%.3f s of CPU over %d CPU%s), "
	    "%.6g %s by the wall clock; rate the 80th percentile of %zu "
	    "slices",
	    (unsigned long long)loop->count, loop->elapsed, loop->cpu,
	    loop->cpus, loop->cpus == 1 ? "" : "s", loop->wall_rate * scale,
	    unit, loop->slices);
	if (wl_emit(out, name, loop->rate * scale, unit, BETTER_HIGHER) == -1) {
		xasprintf(cause, "writing results: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Mean and sample standard deviation (0 for fewer than two values). */
void
wl_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double	sum = 0, m, ss = 0;
	size_t	i;

	if (n == 0) {
		*mean = *sd = 0;
		return;
	}
	for (i = 0; i < n; i++)
		sum += x[i];
	m = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*sd = n < 2 ? 0 : sqrt(ss / (n - 1));
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The p-th percentile (0 < p <= 100) by nearest rank, as sysbench reports
 * its latency percentile: the smallest value with at least p% of the
 * values at or below it.  Sorts x.
 */
double
wl_percentile(double *x, size_t n, double p)
{
	size_t	rank;

	if (n == 0)
		return 0;
	qsort(x, n, sizeof(*x), cmp_double);
	rank = (size_t)ceil(p / 100.0 * n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return x[rank - 1];
}

/*
 * Drop a file from the page cache so the next read comes from the disk:
 * fsync, so no page is dirty, then POSIX_FADV_DONTNEED.
 */
int
wl_evict(int fd, const char *name, char **cause)
{
	int	error;

	if (fsync(fd) == -1) {
		xasprintf(cause, "fsync %s: %s", name, strerror(errno));
		return -1;
	}
	if ((error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		xasprintf(cause, "posix_fadvise %s: %s", name,
		    strerror(error));
		return -1;
	}
	return 0;
}
