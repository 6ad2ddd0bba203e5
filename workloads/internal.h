/*
 * Shared by the files of workloads/ only; not part of the module's face
 * (that is workloads.h).  The workload entry points run inside the
 * runner's child, and the helpers below are what they have in common.
 */
#ifndef PERFWATCH_WORKLOADS_INTERNAL_H
#define PERFWATCH_WORKLOADS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "perfwatch.h"

struct wl_params;

/*
 * What disk.stream and disk.bonnie write their file in: its size is
 * rounded down to a whole number of these (wl_params_check() weighs
 * that file against file_limit).
 */
#define WL_STREAM_BLOCK	(1 << 20)
#define WL_BONNIE_CHUNK	8192

/* The native workloads: one iteration, result lines to the fd. */
int	wl_bonnie_run(const struct wl_params *, int, char **);
int	wl_stream_run(const struct wl_params *, int, char **);
int	wl_dhrystone_run(const struct wl_params *, int, char **);
int	wl_whetstone_run(const struct wl_params *, int, char **);
int	wl_execl_run(const struct wl_params *, int, char **);
int	wl_fcopy256_run(const struct wl_params *, int, char **);
int	wl_fcopy1024_run(const struct wl_params *, int, char **);
int	wl_fcopy4096_run(const struct wl_params *, int, char **);
int	wl_pipe_run(const struct wl_params *, int, char **);
int	wl_context1_run(const struct wl_params *, int, char **);
int	wl_spawn_run(const struct wl_params *, int, char **);
int	wl_shell1_run(const struct wl_params *, int, char **);
int	wl_shell8_run(const struct wl_params *, int, char **);
int	wl_syscall_run(const struct wl_params *, int, char **);
int	wl_oltp_run(const struct wl_params *, int, char **);
int	wl_command_run(const struct wl_params *, int, char **);
char	**wl_command_words(const char *);

/*
 * The body of a timed loop: run n iterations of the measured operation,
 * 0 or -1 with *cause set.
 */
typedef int (*wl_loop_body)(void *, uint64_t, char **);

/*
 * Which time a timed loop counts (see wl_timed_loop_clock in util.c):
 * the wall clock, or the CPU time of this process (WL_LOOP_CPU), plus
 * that of its reaped children (WL_LOOP_TREE), plus a live partner's
 * (has_partner), divided by the CPUs the counted processes spread over.
 */
struct wl_clock {
	int		flags;		/* WL_LOOP_* */
	int		cpus;		/* CPUs the processes use; < 1 is 1 */
	int		has_partner;	/* partner is a live process's clock */
	clockid_t	partner;
};

/* What a timed loop measured. */
struct wl_loop {
	uint64_t	count;		/* iterations done */
	double		elapsed;	/* seconds they took */
	double		cpu;		/* CPU seconds counted meanwhile */
	int		cpus;		/* CPUs the CPU time is divided by */
	double		rate;		/* iterations a second (see util.c) */
	double		wall_rate;	/* count / elapsed */
	size_t		slices;		/* time slices the rate is taken from */
};

/* util.c */
double		 wl_now(void);
double		 wl_cpu_seconds(int);
uint64_t	 wl_memory_bytes(void);
int		 wl_ncpu(void);
uint64_t	 wl_rng_next(uint64_t *);
void		*wl_page_alloc(size_t);
void		 wl_fill_random(void *, size_t, uint64_t);
int		 wl_write_full(int, const void *, size_t);
int		 wl_emit(int, const char *, double, const char *, enum better);
int		 wl_note(int, const char *, ...)
		     __attribute__((format(printf, 2, 3)));
#define WL_LOOP_CPU	0x1	/* rates per CPU second, not wall second */
#define WL_LOOP_TREE	0x2	/* ... of the process and reaped children */
int		 wl_timed_loop(double, int, wl_loop_body, void *,
		     struct wl_loop *, char **);
int		 wl_timed_loop_clock(double, const struct wl_clock *,
		     wl_loop_body, void *, struct wl_loop *, char **);
int		 wl_loop_report(int, const char *, const char *, double,
		     const struct wl_loop *, char **);
void		 wl_mean_sd(const double *, size_t, double *, double *);
double		 wl_percentile(double *, size_t, double);
int		 wl_evict(int, const char *, char **);

#endif
