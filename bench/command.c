/*
 * bench/command: what perfwatch adds to the time of a command measured
 * with measure = time, beside the least any harness adds.
 *
 *   command [-n reps] [-d dir] [program [arg ...]]
 *
 * The program (/bin/true: a dynamically linked program that does
 * nothing, so that the figures are the harness's) is timed -n times
 * (300) in each of three ways, taken in turn so that the machine's
 * moods fall on all three alike:
 *
 *   bare     posix_spawn() and waitpid() by this bench, the clock read
 *            before the one and after the other: the floor, what any
 *            harness that starts a program pays (time(1) does this)
 *   direct   perfwatch's runner, a command workload of measure = time
 *            whose command is the program's words: executed directly
 *   shell    the same with "exec " before the words, which sends the
 *            command through /bin/sh -c, as every command went before
 *            direct exec (workloads/command.c)
 *
 * For each it prints the median wall time in milliseconds, the 10th and
 * 90th percentiles, and the median's excess over bare; then what the
 * shell costs (shell less direct).  The runner's wall counts from the
 * child's mark just before the exec (workloads/runner.c), so direct
 * should sit near bare: what is left is the exec and the reap.
 *
 *   -n reps   timings of each way (300)
 *   -d dir    the runner's work_dir ($TMPDIR or /tmp)
 *
 * The program is named by its full path, and it and its arguments must
 * be plain words (workloads/command.c): direct runs the words joined by
 * spaces, which only such words survive; any other sends the command
 * through the shell, so that direct would be the shell again, timing
 * what the shell makes of the words rather than the program bare ran.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads/workloads.h"
#include "bench.h"
#include "detect/stats.h"

extern char	**environ;

enum { BARE, DIRECT, SHELL, NWAYS };
static const char *const way_names[NWAYS] = { "bare", "direct", "shell" };

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: command [-n reps] [-d dir] "
	    "[program [arg ...]]\n");
	exit(2);
}

/* One spawn and wait of argv, timed around both; -1 on failure. */
static double
time_bare(char *const *argv)
{
	double	t0, t1;
	pid_t	pid;
	int	status, error;

	t0 = bench_now();
	error = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
	if (error != 0) {
		fprintf(stderr, "command: spawn %s: %s\n", argv[0],
		    strerror(error));
		return -1;
	}
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR) {
			perror("command: waitpid");
			return -1;
		}
	}
	t1 = bench_now();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "command: %s did not exit 0\n", argv[0]);
		return -1;
	}
	return t1 - t0;
}

/* One iteration through the runner; its wall time, -1 on failure. */
static double
time_runner(const struct wl_workload *wl, const struct wl_params *p)
{
	struct wl_result	 res;
	char			*cause = NULL;
	double			 wall;

	if (wl_run_iteration(wl, p, &res, &cause) != 0) {
		fprintf(stderr, "command: %s: %s\n", p->command, cause);
		free(cause);
		wl_result_clear(&res);
		return -1;
	}
	wall = res.wall;
	wl_result_clear(&res);
	return wall;
}

static void
params(struct wl_params *p, const struct wl_workload *wl, const char *dir,
    const char *command)
{
	char	*cause = NULL;

	wl_params_init(p, wl);
	if (wl_params_set(p, wl, "work_dir", dir, &cause) != 0 ||
	    wl_params_set(p, wl, "command", command, &cause) != 0 ||
	    wl_params_set(p, wl, "measure", "time", &cause) != 0) {
		fprintf(stderr, "command: %s\n", cause);
		exit(2);
	}
}

/*
 * Whether every word is one the runner executes directly (a plain word,
 * workloads/command.c).  Otherwise the words joined by spaces are not the
 * program's arguments, and the runner sends them through /bin/sh -c.
 */
static int
plain_words(char *const *words)
{
	size_t	i;

	for (i = 0; words[i] != NULL; i++)
		if (!wl_command_plain_word(words[i]))
			return 0;
	return 1;
}

static double
pct(const double *sorted, size_t n, double q)
{
	size_t	i = (size_t)(q * (double)(n - 1) + 0.5);

	return sorted[i < n ? i : n - 1];
}

int
main(int argc, char **argv)
{
	static char		*dflt[] = { (char *)"/bin/true", NULL };
	const struct wl_workload *wl;
	struct wl_params	 p[NWAYS];
	char			*const *prog = dflt, *words, *shelled;
	const char		*dir;
	double			*t[NWAYS], med[NWAYS], v;
	size_t			 n = 300, i, len;
	int			 c, w;

	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	while ((c = getopt(argc, argv, "d:n:")) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			n = strtoul(optarg, NULL, 10);
			if (n < 10)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind < argc)
		prog = argv + optind;
	if (prog[0][0] != '/') {
		fprintf(stderr, "command: name the program by its full path, "
		    "as the bare way does not search PATH\n");
		return 2;
	}
	if (!plain_words(prog)) {
		fprintf(stderr, "command: the runner executes directly only "
		    "plain words (letters, digits and _ . / , : + @ %% - =); "
		    "these would go through the shell, or split, and the "
		    "ways would not time the same command\n");
		return 2;
	}

	for (len = 1, i = 0; prog[i] != NULL; i++)
		len += strlen(prog[i]) + 1;
	words = xmalloc(len);
	words[0] = '\0';
	for (i = 0; prog[i] != NULL; i++) {
		strcat(words, prog[i]);
		if (prog[i + 1] != NULL)
			strcat(words, " ");
	}
	xasprintf(&shelled, "exec %s", words);
	if ((wl = wl_find("command")) == NULL) {
		fprintf(stderr, "command: no command workload\n");
		return 2;
	}
	params(&p[DIRECT], wl, dir, words);
	params(&p[SHELL], wl, dir, shelled);

	for (w = 0; w < NWAYS; w++)
		t[w] = xcalloc(n, sizeof(*t[w]));
	/* One of each, untimed, so that every way starts with warm caches. */
	if (time_bare(prog) < 0 || time_runner(wl, &p[DIRECT]) < 0 ||
	    time_runner(wl, &p[SHELL]) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		for (w = 0; w < NWAYS; w++) {
			v = w == BARE ? time_bare(prog) :
			    time_runner(wl, &p[w]);
			if (v < 0)
				return 1;
			t[w][i] = v * 1000;
		}
	}

	printf("%s, %zu timings of each way (ms of wall time)\n\n", words, n);
	printf("%-8s %8s %8s %8s %10s\n", "way", "median", "p10", "p90",
	    "over bare");
	/*
	 * The median by stats_median_sorted(), the mean of the two middle
	 * timings of an even count (300 by default): pct() takes the
	 * nearer rank, which for 0.5 of an even count is the upper one.
	 */
	for (w = 0; w < NWAYS; w++) {
		qsort(t[w], n, sizeof(*t[w]), bench_cmp_double);
		med[w] = stats_median_sorted(t[w], n);
	}
	for (w = 0; w < NWAYS; w++)
		printf("%-8s %8.3f %8.3f %8.3f %+10.3f\n", way_names[w],
		    med[w], pct(t[w], n, 0.1), pct(t[w], n, 0.9),
		    med[w] - med[BARE]);
	printf("\nthe shell costs %.3f ms a command (shell less direct); "
	    "direct is %.2f times bare\n", med[SHELL] - med[DIRECT],
	    med[DIRECT] / med[BARE]);

	for (w = 0; w < NWAYS; w++)
		free(t[w]);
	wl_params_clear(&p[DIRECT]);
	wl_params_clear(&p[SHELL]);
	free(words);
	free(shelled);
	return 0;
}
