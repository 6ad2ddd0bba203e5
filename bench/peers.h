/*
 * The peers of perfwatch's disk workloads, for bench/fidelity and
 * bench/noise (included by both; every function is static): bonnie++
 * 2.00a beside disk.bonnie and fio beside disk.stream, run as child
 * processes on the same directory and file size, their figures read from
 * bonnie++'s CSV line and fio's JSON; and one iteration of our own
 * workload through the runner, as perfwatch runs it.
 *
 * bonnie++ and the page cache.  bonnie++ wants a file of twice the RAM so
 * that no cache can hold it, and refuses a smaller one unless -r names a
 * smaller RAM; disk.bonnie instead evicts its file from the page cache
 * (fsync, then posix_fadvise DONTNEED) when it opens it for a phase that
 * reads, so a small file still reads from the disk.  To compare the two
 * at one size below the RAM, the bench gives bonnie++ the same eviction at
 * the same points: bonnie++ opens its file anew for every phase (and in
 * every seeker) before it starts that phase's clock, so a fanotify
 * FAN_OPEN_PERM watch on the directory holds each open of a non-empty
 * file until the file has been synced and dropped from the cache, and
 * then lets it proceed.  That needs root (CAP_SYS_ADMIN); without it, or
 * with eviction turned off, bonnie++ reads what the cache holds.

 */
#ifndef PERFWATCH_BENCH_PEERS_H
#define PERFWATCH_BENCH_PEERS_H

#include <sys/types.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench.h"
#include "xmalloc.h"
#include "workloads/workloads.h"

/* Each bench uses some of these helpers. */
#define PEER_FN		static __attribute__((unused))

#define PEER_OUTPUT_MAX		(4 * 1024 * 1024)
#define PEER_BONNIE_CHUNK	8192

/* bonnie++'s four figures that disk.bonnie shares with it. */
struct peer_bonnie {
	double	write_kps;	/* CSV put_block, K/sec (K = 1024) */
	double	rewrite_kps;	/* rewrite */
	double	read_kps;	/* get_block */
	double	seeks_ps;	/* seeks, /sec */
	double	write_cpu;	/* their %CPU (NAN when not printed) */
	double	rewrite_cpu;
	double	read_cpu;
	double	seeks_cpu;
	char	version[16];
	int	evictions;	/* opens the watch held to evict the file */
	double	wall;		/* seconds the whole bonnie++ run took */
};

/*
 * Whether a program is found in PATH, as peer_capture's execvp looks
 * for it.
 */
PEER_FN int
peer_in_path(const char *prog)
{
	const char	*path;
	char		*copy, *dir, *last, *full;
	int		 found = 0;

	if ((path = getenv("PATH")) == NULL)
		path = WL_PATH;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &last); dir != NULL && !found;
	    dir = strtok_r(NULL, ":", &last)) {
		xasprintf(&full, "%s/%s", dir, prog);
		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

/* Append up to n bytes read from fd to a growing buffer; 0 at EOF. */
PEER_FN ssize_t
peer_slurp(int fd, char **buf, size_t *len, size_t *cap)
{
	ssize_t	n;

	if (*cap - *len < 4096 + 1) {
		*cap = *cap == 0 ? 8192 : *cap * 2;
		*buf = xreallocarray(*buf, *cap, 1);
	}
	n = read(fd, *buf + *len, *cap - *len - 1);
	if (n > 0) {
		*len += n;
		(*buf)[*len] = '\0';
	}
	return n;
}

/*
 * Run argv (searched in PATH) with stdin from /dev/null, and collect its
 * standard output and error (NUL-terminated, caller frees) and its wait
 * status.  0, or -1 with *cause if it could not be run at all.
 */
PEER_FN int
peer_capture(char *const argv[], char **out, char **err, int *status,
    char **cause)
{
	struct pollfd	 pfd[2];
	size_t		 olen = 0, ocap = 0, elen = 0, ecap = 0;
	pid_t		 pid;
	ssize_t		 n;
	int		 op[2], ep[2], nopen = 2, fd;

	*out = *err = NULL;
	if (pipe(op) == -1 || pipe(ep) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		xasprintf(cause, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDONLY)) != -1)
			dup2(fd, STDIN_FILENO);
		dup2(op[1], STDOUT_FILENO);
		dup2(ep[1], STDERR_FILENO);
		close(op[0]);
		close(ep[0]);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(op[1]);
	close(ep[1]);
	*out = xstrdup("");
	*err = xstrdup("");
	pfd[0].fd = op[0];
	pfd[1].fd = ep[0];
	pfd[0].events = pfd[1].events = POLLIN;
	while (nopen > 0) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents != 0) {
			n = peer_slurp(op[0], out, &olen, &ocap);
			if (n <= 0 || olen > PEER_OUTPUT_MAX) {
				pfd[0].fd = -1;
				nopen--;
			}
		}
		if (pfd[1].revents != 0) {
			n = peer_slurp(ep[0], err, &elen, &ecap);
			if (n <= 0 || elen > PEER_OUTPUT_MAX) {
				pfd[1].fd = -1;
				nopen--;
			}
		}
	}
	close(op[0]);
	close(ep[0]);
	while (waitpid(pid, status, 0) == -1) {
		if (errno != EINTR) {
			xasprintf(cause, "waitpid %s: %s", argv[0],
			    strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The last line of a text that is not empty (static buffer). */
PEER_FN const char *
peer_last_line(const char *text)
{
	static char	 line[512];
	const char	*end, *start;

	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (start = end; start > text && start[-1] != '\n'; start--)
		;
	snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
	return line;
}

/*
 * The eviction watch (see the top of this file): a child process that
 * holds every open of a non-empty regular file in dir until the file is
 * synced and evicted.  It writes "ready" once the mark is in place (or an
 * error line) and, when its stop pipe closes, "evicted N".
 */
struct peer_evictor {
	pid_t	pid;
	int	stop;		/* write end; closing it stops the child */
	int	report;		/* read end of its report */
};

/* The watch's child: never returns. */
PEER_FN void __attribute__((noreturn))
peer_evictor_child(const char *dir, int stop, int report)
{
	struct fanotify_event_metadata	 buf[64], *m;
	struct fanotify_response	 resp;
	struct pollfd			 pfd[2];
	struct stat			 st;
	ssize_t				 n;
	int				 fan, evicted = 0;

	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC,
	    O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fan == -1 || fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_PERM |
	    FAN_EVENT_ON_CHILD, AT_FDCWD, dir) == -1) {
		dprintf(report, "error fanotify on %s: %s\n", dir,
		    strerror(errno));
		_exit(1);
	}
	dprintf(report, "ready\n");
	pfd[0].fd = fan;
	pfd[1].fd = stop;
	pfd[0].events = pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents == 0)
			continue;
		if ((n = read(fan, buf, sizeof(buf))) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			_exit(1);
		}
		for (m = buf; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
			if (m->vers != FANOTIFY_METADATA_VERSION)
				_exit(1);
			if (m->fd < 0)
				continue;
			if ((m->mask & FAN_OPEN_PERM) &&
			    fstat(m->fd, &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size > 0) {
				(void)fsync(m->fd);
				(void)posix_fadvise(m->fd, 0, 0,
				    POSIX_FADV_DONTNEED);
				evicted++;
			}
			if (m->mask & FAN_OPEN_PERM) {
				resp.fd = m->fd;
				resp.response = FAN_ALLOW;
				if (write(fan, &resp, sizeof(resp)) == -1)
					_exit(1);
			}
			close(m->fd);
		}
	}
	dprintf(report, "evicted %d\n", evicted);
	_exit(0);
}

/* Start the watch on dir; 0 once it is in place, -1 with *cause. */
PEER_FN int
peer_evictor_start(struct peer_evictor *ev, const char *dir, char **cause)
{
	char	line[256];
	int	sp[2], rp[2];
	ssize_t	n;

	if (pipe(sp) == -1 || pipe(rp) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((ev->pid = fork()) == -1) {
		xasprintf(cause, "fork: %s", strerror(errno));
		return -1;
	}
	if (ev->pid == 0) {
		close(sp[1]);
		close(rp[0]);
		peer_evictor_child(dir, sp[0], rp[1]);
	}
	close(sp[0]);
	close(rp[1]);
	ev->stop = sp[1];
	ev->report = rp[0];
	n = read(ev->report, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	if (strncmp(line, "ready", 5) == 0)
		return 0;
	line[strcspn(line, "\n")] = '\0';
	xasprintf(cause, "%s", n > 0 ? line + (strncmp(line, "error ", 6) ==
	    0 ? 6 : 0) : "the eviction watch did not start");
	close(ev->stop);
	close(ev->report);
	(void)waitpid(ev->pid, NULL, 0);
	return -1;
}

/* Stop the watch; the number of evictions it made, or -1. */
PEER_FN int
peer_evictor_stop(struct peer_evictor *ev)
{
	char	line[64];
	ssize_t	n;
	int	count = -1, status;

	close(ev->stop);
	n = read(ev->report, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	if (sscanf(line, "evicted %d", &count) != 1)
		count = -1;
	close(ev->report);
	if (waitpid(ev->pid, &status, 0) == -1 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		count = -1;
	return count;
}

/* A CSV number of bonnie++, or NAN if it printed none ("+++++", ""). */
PEER_FN double
peer_csv_number(const char *field)
{
	char	*end;
	double	 v;

	if (*field == '\0' || *field == '+')
		return NAN;
	v = strtod(field, &end);
	return end == field ? NAN : v;
}

/*
 * Read bonnie++ 2.00a's CSV line.  Its fields, as bonnie++ writes the data
 * line (format 1.98; the header line bonnie++ prints with -x omits the
 * seeks and seek_proc_count columns, so it does not match the data and
 * is not used): 0 format_version, 1 bonnie_version, 2 name,
 * 3 concurrency, 4 seed, 5 file_size, 6 io_chunk_size, 7 seeks,
 * 8 seek_proc_count, 9 putc, 10 putc_cpu, 11 put_block, 12 put_block_cpu,
 * 13 rewrite, 14 rewrite_cpu, 15 getc, 16 getc_cpu, 17 get_block,
 * 18 get_block_cpu, 19 seeks, 20 seeks_cpu, then the file-creation tests
 * and the latencies.
 */
PEER_FN int
peer_bonnie_csv(const char *line, struct peer_bonnie *b, int seeks,
    int seekers, char **cause)
{
	char	*copy, *p, *f[24];
	size_t	 n = 0;

	copy = xstrdup(line);
	for (p = copy; n < nitems(f); n++) {
		f[n] = p;
		if ((p = strchr(p, ',')) == NULL) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	if (n < 21 || strcmp(f[0], "1.98") != 0) {
		xasprintf(cause, "bonnie++ CSV line not of format 1.98: %s",
		    line);
		free(copy);
		return -1;
	}
	if (atoi(f[7]) != seeks || atoi(f[8]) != seekers) {
		xasprintf(cause, "bonnie++ CSV says %s seeks by %s processes, "
		    "asked %d by %d", f[7], f[8], seeks, seekers);
		free(copy);
		return -1;
	}
	snprintf(b->version, sizeof(b->version), "%s", f[1]);
	b->write_kps = peer_csv_number(f[11]);
	b->rewrite_kps = peer_csv_number(f[13]);
	b->read_kps = peer_csv_number(f[17]);
	b->seeks_ps = peer_csv_number(f[19]);
	b->write_cpu = peer_csv_number(f[12]);
	b->rewrite_cpu = peer_csv_number(f[14]);
	b->read_cpu = peer_csv_number(f[18]);
	b->seeks_cpu = peer_csv_number(f[20]);
	free(copy);
	return 0;
}

/*
 * One bonnie++ run in dir on a file of size bytes (whole MiB), chunk
 * 8 KiB, with the seeks shared by seekers processes, no per-char tests
 * (-f) and no file-creation tests (-n 0); -r says half the file size so
 * bonnie++ accepts a file smaller than twice the RAM.  With evict, the
 * watch evicts the file at every open (see the top).
 */
PEER_FN int
peer_bonnie_run(const char *dir, uint64_t size, int seeks, int seekers,
    int evict, struct peer_bonnie *b, char **cause)
{
	struct peer_evictor	 ev;
	char			 sarg[64], rarg[32];
	char			*argv[16], *out = NULL, *err = NULL;
	const char		*line;
	double			 t0;
	int			 argc = 0, status, rc = -1;

	memset(b, 0, sizeof(*b));
	b->evictions = -1;
	snprintf(sarg, sizeof(sarg), "%llu:%d:%d:%d",
	    (unsigned long long)(size >> 20), PEER_BONNIE_CHUNK, seeks,
	    seekers);
	snprintf(rarg, sizeof(rarg), "%llu",
	    (unsigned long long)(size >> 21 > 0 ? size >> 21 : 1));
	argv[argc++] = (char *)"bonnie++";
	argv[argc++] = (char *)"-d";
	argv[argc++] = (char *)dir;
	argv[argc++] = (char *)"-s";
	argv[argc++] = sarg;
	argv[argc++] = (char *)"-r";
	argv[argc++] = rarg;
	argv[argc++] = (char *)"-n";
	argv[argc++] = (char *)"0";
	argv[argc++] = (char *)"-f";
	argv[argc++] = (char *)"-q";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"perfwatch";
	if (geteuid() == 0) {
		argv[argc++] = (char *)"-u";
		argv[argc++] = (char *)"root";
	}
	argv[argc] = NULL;

	if (evict && peer_evictor_start(&ev, dir, cause) == -1)
		return -1;
	t0 = bench_now();
	if (peer_capture(argv, &out, &err, &status, cause) == -1) {
		if (evict)
			(void)peer_evictor_stop(&ev);
		goto out;
	}
	b->wall = bench_now() - t0;
	if (evict)
		b->evictions = peer_evictor_stop(&ev);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		xasprintf(cause, "bonnie++ failed (status %d): %s", status,
		    peer_last_line(err));
		goto out;
	}
	line = peer_last_line(out);
	if (peer_bonnie_csv(line, b, seeks, seekers, cause) == -1)
		goto out;
	rc = 0;
out:
	free(out);
	free(err);
	return rc;
}

/*
 * One fio run beside disk.stream: a new file in dir written sequentially
 * in 1 MiB write()s (psync), an fsync after every fsync_every bytes and at
 * the end (--end_fsync=1, inside fio's runtime), without preallocation
 * (--fallocate=none: disk.stream appends to a new file, and fio would
 * otherwise fallocate it first and write into unwritten extents).  The
 * bandwidth is jobs[0].write.bw_bytes, in MiB/s; the CPU, if asked, is
 * jobs[0].usr_cpu + sys_cpu (% of the job's runtime).
 *
 * --fsync counts fio's 1 MiB writes, so fsync_every goes in whole MiB,
 * rounded down as disk.stream rounds its segments (fsync_every / 1 MiB
 * writes each); 0 is one fsync at the end for both (bench/fidelity -f 0
 * too).  An fsync_every between 0 and 1 MiB would be --fsync=0 beside a
 * disk.stream that fsyncs, but never comes here: wl_params_set() refuses
 * it in a profile (tests/integration/bench_noise_fsync.sh), and
 * bench/fidelity parses its -f with the same key.
 */
PEER_FN int
peer_fio_run(const char *dir, uint64_t size, uint64_t fsync_every,
    double *mibps, double *cpu, char **cause)
{
	json_error_t	 jerr;
	json_t		*root = NULL, *bw, *job;
	char		 farg[PATH_MAX + 32], sarg[64], yarg[64];
	char		*argv[16], *out = NULL, *err = NULL, *brace;
	int		 argc = 0, status, rc = -1;

	snprintf(farg, sizeof(farg), "--filename=%s/fio.dat", dir);
	snprintf(sarg, sizeof(sarg), "--size=%lluM",
	    (unsigned long long)(size >> 20));
	snprintf(yarg, sizeof(yarg), "--fsync=%llu",
	    (unsigned long long)(fsync_every >> 20));
	argv[argc++] = (char *)"fio";
	argv[argc++] = (char *)"--name=perfwatch-fidelity";
	argv[argc++] = farg;
	argv[argc++] = (char *)"--rw=write";
	argv[argc++] = (char *)"--bs=1M";
	argv[argc++] = sarg;
	argv[argc++] = yarg;
	argv[argc++] = (char *)"--end_fsync=1";
	argv[argc++] = (char *)"--ioengine=psync";
	argv[argc++] = (char *)"--fallocate=none";
	argv[argc++] = (char *)"--output-format=json";
	argv[argc] = NULL;

	if (peer_capture(argv, &out, &err, &status, cause) == -1)
		goto out;
	(void)unlink(farg + strlen("--filename="));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		xasprintf(cause, "fio failed (status %d): %s", status,
		    peer_last_line(err));
		goto out;
	}
	if ((brace = strchr(out, '{')) == NULL ||
	    (root = json_loads(brace, JSON_DISABLE_EOF_CHECK, &jerr)) == NULL) {
		xasprintf(cause, "fio printed no JSON");
		goto out;
	}
	job = json_array_get(json_object_get(root, "jobs"), 0);
	bw = json_object_get(json_object_get(job, "write"), "bw_bytes");
	if (!json_is_number(bw) || json_number_value(bw) <= 0) {
		xasprintf(cause, "fio JSON has no jobs[0].write.bw_bytes");
		goto out;
	}
	*mibps = json_number_value(bw) / (1024.0 * 1024.0);
	if (cpu != NULL) {
		*cpu = json_number_value(json_object_get(job, "usr_cpu")) +
		    json_number_value(json_object_get(job, "sys_cpu"));
	}
	rc = 0;
out:
	json_decref(root);
	free(out);
	free(err);
	return rc;
}

/*
 * One iteration of our workload name in dir with the given keys (pairs of
 * key and value, ending with NULL), through the runner as perfwatch runs
 * it.  0 with *res filled (wl_result_clear it), or -1 with *cause.
 */
PEER_FN int
peer_ours(const char *name, const char *dir, const char *const *kv,
    struct wl_result *res, char **cause)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	char				*why = NULL;
	int				 rc = -1;

	memset(res, 0, sizeof(*res));
	if ((wl = wl_find(name)) == NULL) {
		xasprintf(cause, "no workload %s", name);
		return -1;
	}
	wl_params_init(&p, wl);
	if (wl_params_set(&p, wl, "work_dir", dir, &why) == -1)
		goto bad;
	for (; kv[0] != NULL; kv += 2) {
		if (wl_params_set(&p, wl, kv[0], kv[1], &why) == -1)
			goto bad;
	}
	if (wl_params_check(&p, wl, &why) == -1)
		goto bad;
	if (wl_run_iteration(wl, &p, res, &why) == -1 || res->status != WL_OK) {
		xasprintf(cause, "%s: %s", name, why != NULL ? why :
		    res->error != NULL ? res->error :
		    wl_status_name(res->status));
		free(why);
		wl_result_clear(res);
		goto out;
	}
	rc = 0;
	goto out;
bad:
	xasprintf(cause, "%s: %s", name, why);
	free(why);
out:
	wl_params_clear(&p);
	return rc;
}

/* A metric of a result, or NAN. */
PEER_FN double
peer_metric(const struct wl_result *res, const char *name)
{
	size_t	i;

	for (i = 0; i < res->nmetrics; i++) {
		if (strcmp(res->metrics[i].name, name) == 0)
			return res->metrics[i].value;
	}
	return NAN;
}

PEER_FN int
peer_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The finite values of x[0..n) into out, sorted; how many. */
PEER_FN size_t
peer_finite(const double *x, size_t n, double *out)
{
	size_t	i, k = 0;

	for (i = 0; i < n; i++) {
		if (isfinite(x[i]))
			out[k++] = x[i];
	}
	qsort(out, k, sizeof(*out), peer_cmp);
	return k;
}

/*
 * The median of the finite values (NAN if none), of all n of them: the
 * copy is as long as x, where a fixed one left the values past it out.
 */
PEER_FN double
peer_median(const double *x, size_t n)
{
	double	*s, m = NAN;
	size_t	 k;

	s = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*s));
	if ((k = peer_finite(x, n, s)) > 0)
		m = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
	free(s);
	return m;
}

/* Coefficient of variation (sample sd / mean) in %, of the finite values. */
PEER_FN double
peer_cv(const double *x, size_t n)
{
	double	*s, mean = 0, ss = 0, cv = NAN;
	size_t	 k, i;

	s = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*s));
	if ((k = peer_finite(x, n, s)) >= 2) {
		for (i = 0; i < k; i++)
			mean += s[i];
		mean /= k;
		for (i = 0; i < k; i++)
			ss += (s[i] - mean) * (s[i] - mean);
		if (mean != 0)
			cv = sqrt(ss / (k - 1)) / mean * 100.0;
	}
	free(s);
	return cv;
}

/* Bytes free for an unprivileged user in dir, or 0. */
PEER_FN uint64_t
peer_free_bytes(const char *dir)
{
	struct statvfs	sv;

	if (statvfs(dir, &sv) == -1)
		return 0;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* The load averages, "1.23 0.98 0.50", from /proc/loadavg or getloadavg. */
PEER_FN const char *
peer_load(void)
{
	static char	buf[64];
	double		l[3];

	if (getloadavg(l, 3) != 3)
		return "unknown";
	snprintf(buf, sizeof(buf), "%.2f %.2f %.2f", l[0], l[1], l[2]);
	return buf;
}

#endif
