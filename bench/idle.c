/*
 * bench/idle: what perfwatchd costs while it waits.
 *
 *   idle [-t seconds] [-d perfwatchd] [-s]
 *
 * Starts the real perfwatchd in the foreground on a scratch state
 * directory with the shipped defaults that matter when idle: a nightly
 * cron schedule (minute 30 of the hour twelve hours from now, as the
 * shipped "30 2 * * *" is of its night, so that its run never falls in
 * the window; 15 minutes of jitter), the package
 * database of this machine watched, the kernel check at start.  Once it
 * is ready and has read the package list, it is left alone for -t
 * seconds (60) and measured from /proc:
 *
 *   cpu		CPU time used in the window (schedstat, nanoseconds)
 *   rss, peak		resident memory at the end, and its peak (VmHWM)
 *   wake-ups		context switches in the window (voluntary +
 *			involuntary): each is the process waking up
 *   syscalls		with -s, system calls counted by strace -c -f
 *			attached for the window
 *
 * It prints the figures and checks them against what the daemon must
 * reach: under 0.05 s of CPU, under 10 MiB resident, and no wake-ups
 * beyond its timers (its longest sleep is 15 minutes from its start, so
 * none in a window that ends sooner; one that ends later, after a slow
 * start, is said and not judged).  Exit 0 if all three hold, 1 if one
 * does not, 2 if the daemon could not be measured.  Linux only (/proc).
 *
 * Stopped by SIGTERM, SIGINT or SIGHUP, it stops the daemon and strace,
 * removes its directory and exits 128 + the signal: the daemon is a
 * child that would otherwise go on, reparented to init, with its nightly
 * schedule.  The daemon also gets SIGTERM should the bench die outright.
 */
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CPU_LIMIT	0.05		/* seconds */
#define RSS_LIMIT	(10 * 1024)	/* KiB */
/* The daemon's longest sleep: SCHEDULE_MAX_SLEEP of daemon/schedule.c. */
#define IDLE_LONGEST_SLEEP	(15 * 60)	/* seconds */

struct sample {
	double		cpu;		/* seconds on CPU since start */
	long		rss_kb;
	long		hwm_kb;
	long		vol;		/* voluntary context switches */
	long		invol;
};

static char	scratch[] = "/tmp/perfwatch-idle.XXXXXX";
static int	scratch_made;	/* mkdtemp() made it: cleanup() removes it */
static pid_t	daemon_pid = -1;
static pid_t	strace_pid = -1;

/* The signal that asked the bench to stop, or 0. */
static volatile sig_atomic_t	idle_signal;

static void
idle_on_signal(int sig)
{
	idle_signal = sig;
}

static void
usage(void)
{
	fprintf(stderr, "usage: idle [-t seconds] [-d perfwatchd] [-s]\n");
	exit(2);
}

/* Sleep ms milliseconds, or less if a signal asks the bench to stop. */
static void
sleep_ms(long ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (!idle_signal && nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * If a signal asked the bench to stop, exit 128 + it; cleanup() (at
 * exit) stops strace and the daemon and removes the directory.
 */
static void
idle_stop_if_signalled(void)
{
	int	sig = idle_signal;

	if (sig == 0)
		return;
	fprintf(stderr, "idle: %s: stopping\n", strsignal(sig));
	exit(128 + sig);
}

/* Whether the file contains the text. */
static int
file_has(const char *path, const char *text)
{
	char	 buf[65536];
	FILE	*f;
	size_t	 n;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* Read the daemon's counters; -1 if it is gone. */
static int
sample_take(pid_t pid, struct sample *s)
{
	char		 path[64], line[256];
	FILE		*f;
	unsigned long long ns;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/proc/%ld/schedstat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fscanf(f, "%llu", &ns) != 1) {
		fclose(f);
		return -1;
	}
	fclose(f);
	s->cpu = (double)ns / 1e9;
	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		sscanf(line, "VmRSS: %ld", &s->rss_kb);
		sscanf(line, "VmHWM: %ld", &s->hwm_kb);
		sscanf(line, "voluntary_ctxt_switches: %ld", &s->vol);
		sscanf(line, "nonvoluntary_ctxt_switches: %ld", &s->invol);
	}
	fclose(f);
	return 0;
}

/* The perfwatchd next to this program's build tree, or in PATH. */
static char *
find_daemon(void)
{
	static char	 path[PATH_MAX + 32];
	char		 self[PATH_MAX];
	ssize_t		 n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		snprintf(path, sizeof(path), "%s/../bin/perfwatchd",
		    dirname(self));
		if (access(path, X_OK) == 0)
			return path;
	}
	return "perfwatchd";
}

static void
cleanup(void)
{
	char	cmd[PATH_MAX + 16];

	if (strace_pid > 0) {
		kill(strace_pid, SIGKILL);
		waitpid(strace_pid, NULL, 0);
	}
	if (daemon_pid > 0) {
		kill(daemon_pid, SIGKILL);
		waitpid(daemon_pid, NULL, 0);
	}
	if (scratch_made) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd) != 0)
			fprintf(stderr, "idle: could not remove %s\n", scratch);
	}
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	struct sample	 a, b;
	const char	*daemon = NULL, *user;
	char		*end;
	char		 conf[PATH_MAX], logp[PATH_MAX], sock[PATH_MAX];
	char		 stracep[PATH_MAX], cmd[2 * PATH_MAX];
	char		 profile[PATH_MAX], bindir[PATH_MAX + 32];
	FILE		*f;
	pid_t		 parent;
	long		 seconds = 60, wakeups, syscalls = -1;
	int		 ch, fd, status, i, use_strace = 0, ok = 1;
	double		 t0, cpu, started;
	struct timespec	 ts;
	struct tm	 tm;
	time_t		 now;
	int		 due;

	while ((ch = getopt(argc, argv, "d:st:")) != -1) {
		switch (ch) {
		case 'd':
			daemon = optarg;
			break;
		case 's':
			use_strace = 1;
			break;
		case 't':
			/*
			 * Shorter than the daemon's longest sleep: a longer
			 * window holds a timer's wake-up, and the check of
			 * "no wake-up" would fail a daemon that is right.
			 */
			errno = 0;
			seconds = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    seconds < 1 || seconds >= IDLE_LONGEST_SLEEP) {
				fprintf(stderr, "idle: -t %s: expected seconds "
				    "from 1 to %d (the daemon's longest sleep "
				    "is %d s)\n", optarg,
				    IDLE_LONGEST_SLEEP - 1, IDLE_LONGEST_SLEEP);
				usage();
			}
			break;
		default:
			usage();
		}
	}
	if (daemon == NULL)
		daemon = find_daemon();
	if (mkdtemp(scratch) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	scratch_made = 1;
	atexit(cleanup);
	/*
	 * A handler that only notes the signal: the sleeps then end early
	 * (nanosleep is not restarted, SA_RESTART or not) and the bench
	 * leaves through exit() and cleanup(); other calls are restarted.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = idle_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	snprintf(conf, sizeof(conf), "%s/perfwatch.conf", scratch);
	snprintf(logp, sizeof(logp), "%s/daemon.log", scratch);
	snprintf(sock, sizeof(sock), "%s/perfwatchd.sock", scratch);
	snprintf(stracep, sizeof(stracep), "%s/strace.out", scratch);
	user = getuid() == 0 ? "root" : NULL;
	if ((f = fopen(conf, "w")) == NULL) {
		perror(conf);
		return 2;
	}
	fprintf(f, "[perfwatch]\nstate_dir = %s/state\nwork_dir = %s/work\n"
	    "socket = %s\nlog_level = debug\n", scratch, scratch, sock);
	/*
	 * A perfwatchd of a build tree (build/bin) has the tree's nightly
	 * profile, which it does not look for there: name it.  An installed
	 * one finds its own.
	 */
	snprintf(bindir, sizeof(bindir), "%s", daemon);
	snprintf(cmd, sizeof(cmd), "%s/../../etc/profiles/nightly.conf",
	    dirname(bindir));
	if (strchr(daemon, '/') != NULL && realpath(cmd, profile) != NULL)
		fprintf(f, "profile = %s\n", profile);
	if (user != NULL)
		fprintf(f, "user = root\ngroup = root\nallow_root = yes\n");
	/*
	 * The nightly run twelve hours off: at "30 2" a bench started after
	 * 02:15 had the run in its window, a wake-up (and a battery) the
	 * check took for one with no timer due.
	 */
	now = time(NULL);
	localtime_r(&now, &tm);
	fprintf(f, "\n[schedule]\ncron = 30 %d * * *\njitter = 15m\n"
	    "\n[triggers]\npackages = yes\nkernel = yes\n",
	    (tm.tm_hour + 12) % 24);
	fclose(f);

	idle_stop_if_signalled();
	parent = getpid();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	started = ts.tv_sec + ts.tv_nsec / 1e9;
	if ((daemon_pid = fork()) == -1) {
		perror("fork");
		return 2;
	}
	if (daemon_pid == 0) {
#ifdef __linux__
		/* Killed outright (SIGKILL), the bench cannot stop it. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
		    getppid() != parent)
			_exit(127);
#endif
		fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd == -1 || dup2(fd, 1) == -1 || dup2(fd, 2) == -1)
			_exit(127);
		execl(daemon, "perfwatchd", "-d", "-f", conf, (char *)NULL);
		fprintf(stderr, "exec %s: %s\n", daemon, strerror(errno));
		_exit(127);
	}
	/* Ready, and done with the package list it reads at start. */
	for (i = 0; i < 300; i++) {
		if (file_has(logp, "ready:") &&
		    (file_has(logp, " packages (") ||
		    file_has(logp, "no package database") ||
		    file_has(logp, "cannot read the package list")))
			break;
		if (waitpid(daemon_pid, &status, WNOHANG) == daemon_pid) {
			daemon_pid = -1;
			fprintf(stderr, "idle: perfwatchd exited; its log:\n");
			snprintf(cmd, sizeof(cmd), "cat '%s' >&2", logp);
			if (system(cmd) != 0)
				fprintf(stderr, "(no log)\n");
			return 2;
		}
		sleep_ms(100);
		idle_stop_if_signalled();
	}
	if (i == 300) {
		fprintf(stderr, "idle: perfwatchd not ready after 30 s\n");
		return 2;
	}
	sleep_ms(1000);		/* let the package list child be reaped */
	idle_stop_if_signalled();
	if (use_strace) {
		if ((strace_pid = fork()) == 0) {
			char pidbuf[32];

			snprintf(pidbuf, sizeof(pidbuf), "%ld",
			    (long)daemon_pid);
			fd = open("/dev/null", O_WRONLY);
			if (fd != -1)
				dup2(fd, 2);
			execlp("strace", "strace", "-c", "-f", "-o", stracep,
			    "-p", pidbuf, (char *)NULL);
			_exit(127);
		}
		sleep_ms(500);
		idle_stop_if_signalled();
	}

	if (sample_take(daemon_pid, &a) == -1) {
		fprintf(stderr, "idle: cannot read /proc/%ld\n",
		    (long)daemon_pid);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec / 1e9;
	printf("perfwatchd pid %ld idle for %ld s (nightly cron \"30 %d * * "
	    "*\", packages watched)...\n", (long)daemon_pid, seconds,
	    (tm.tm_hour + 12) % 24);
	fflush(stdout);
	sleep_ms(seconds * 1000);
	idle_stop_if_signalled();
	if (sample_take(daemon_pid, &b) == -1) {
		fprintf(stderr, "idle: perfwatchd went away\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (strace_pid > 0) {
		kill(strace_pid, SIGINT);
		waitpid(strace_pid, &status, 0);
		strace_pid = -1;
		/*
		 * Interrupted, strace detaches and exits 128 + SIGINT; with
		 * -c it writes nothing at all when there was no call.
		 */
		if (((WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
		    WEXITSTATUS(status) == 128 + SIGINT)) ||
		    (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)) &&
		    (f = fopen(stracep, "r")) != NULL) {
			char line[256];

			/* "% time seconds usecs/call calls [errors] total" */
			syscalls = 0;
			while (fgets(line, sizeof(line), f) != NULL) {
				if (strstr(line, " total") != NULL &&
				    sscanf(line, "%*s %*s %*s %ld",
				    &syscalls) != 1)
					syscalls = -1;
			}
			fclose(f);
		}
	}

	cpu = b.cpu - a.cpu;
	wakeups = (b.vol - a.vol) + (b.invol - a.invol);
	printf("window      %.1f s\n", ts.tv_sec + ts.tv_nsec / 1e9 - t0);
	printf("cpu         %.6f s  (limit %.2f s)  startup before the "
	    "window: %.3f s\n", cpu, CPU_LIMIT, a.cpu);
	printf("rss         %ld KiB, peak %ld KiB  (limit %d KiB)\n",
	    b.rss_kb, b.hwm_kb, RSS_LIMIT);
	/*
	 * The schedule's sleep is 15 minutes at the most from the daemon's
	 * start: a window that ends later may hold its wake-up.
	 */
	due = ts.tv_sec + ts.tv_nsec / 1e9 - started >= IDLE_LONGEST_SLEEP;
	printf("wake-ups    %ld  (%ld voluntary, %ld involuntary; "
	    "timers due in the window: %s)\n", wakeups, b.vol - a.vol,
	    b.invol - a.invol, due ? "the schedule's 15-minute wake-up, "
	    "perhaps" : "none");
	if (use_strace && syscalls >= 0)
		printf("syscalls    %ld  (strace -c -f)\n", syscalls);
	else if (use_strace)
		printf("syscalls    unknown (strace could not attach)\n");
	if (cpu >= CPU_LIMIT) {
		printf("FAIL: cpu %.6f s >= %.2f s\n", cpu, CPU_LIMIT);
		ok = 0;
	}
	if (b.rss_kb >= RSS_LIMIT) {
		printf("FAIL: rss %ld KiB >= %d KiB\n", b.rss_kb, RSS_LIMIT);
		ok = 0;
	}
	/* strace's attach interrupts the sleep once or twice. */
	if (due)
		printf("wake-ups not judged: the window ended %d s or more "
		    "after the daemon's start (a shorter -t)\n",
		    IDLE_LONGEST_SLEEP);
	else if (wakeups > (use_strace ? 2 : 0)) {
		printf("FAIL: %ld wake-ups with no timer due\n", wakeups);
		ok = 0;
	}

	kill(daemon_pid, SIGTERM);
	waitpid(daemon_pid, &status, 0);
	daemon_pid = -1;
	printf("stop        %s\n", WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0 ? "exit 0" : "abnormal");
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
