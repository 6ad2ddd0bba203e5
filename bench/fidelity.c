/*
 * bench/fidelity: perfwatch's disk workloads beside the tools whose
 * figures they reproduce, on this machine, in one invocation.
 *
 *   fidelity [-Ebt] [-c char_size] [-d dir] [-f fsync_every] [-k seeks]
 *       [-n reps] [-p seekers] [-s size] [-w settle]
 *
 * disk.bonnie beside bonnie++ 2.00a (block write, rewrite, block read,
 * random seeks) and disk.stream beside fio (--rw=write --bs=1M
 * --fsync=N --end_fsync=1), on the same directory and the same file
 * size, in -n repetitions (5) that alternate ours and theirs: disk.bonnie,
 * bonnie++, disk.stream, fio, then again.  Each figure is taken as ours
 * divided by theirs in each repetition, and the table gives for each the
 * median of ours, of theirs, of the ratios, and the ratios' range.  The
 * aim is every ratio's median within 0.85 to 1.15, or a written
 * explanation of the difference in definition; each figure is printed
 * with what differs in its definition.  One figure outside has such an
 * explanation: the seeks with more than one seeker, ours above (-p;
 * bonnie++'s seeker threads share one ticket pipe, bench/README.md,
 * 2026-12-04), said to be outside but explained.  Exit 0 if every
 * ratio is within the range or so explained, 1 if one is outside
 * otherwise, a figure cannot be compared (bonnie++ printed "+++++" in
 * every repetition) or fewer repetitions were made than asked, 2 if it
 * cannot start.
 *
 *   -d dir          where the files go (/var/tmp); a scratch directory
 *                   is made inside it and removed at the end
 *   -s size         the file of every tool (2G); K, M, G, or "2x" RAM
 *   -c char_size    disk.bonnie's char_size (1M; see below)
 *   -f fsync_every  disk.stream's fsync interval, fio's --fsync (256M);
 *                   0, one fsync at the end for both (as the key's 0)
 *   -k seeks        random seeks of both bonnies (80000: see below)
 *   -p seekers      their seeking processes (3)
 *   -n reps         repetitions (5)
 *   -t              theirs first in each pair (bonnie++ before
 *                   disk.bonnie, fio before disk.stream)
 *   -b              balanced: ours first in odd repetitions, theirs
 *                   first in even ones
 *   -w settle       seconds of quiet (after a flush) before every run of
 *                   every tool (15), so each starts from the same state;
 *                   ours with settle 0, or they would wait the workload's
 *                   own 10 s more than theirs
 *   -E              no page-cache eviction for bonnie++ (see peers.h):
 *                   bonnie++ as run by hand with -r, reading what the
 *                   cache holds when the file is smaller than the RAM
 *
 * The same bonnie parameters go to both: 8 KiB chunks, -k seeks shared by
 * -p processes (bonnie++ -s MiB:8192:seeks:seekers); bonnie++ runs with
 * -f (no per-char tests: bonnie++ 2.00a does them with one read(2) or
 * write(2) per byte, disk.bonnie and the original bonnie with stdio's
 * putc and getc, so those two columns are not the same test) and -n 0.
 * disk.bonnie runs its per-char phases on 1 MiB (-c, char_size), so
 * that its block write, like bonnie++ -f's, starts on a page cache that
 * no file of its size has just left.  With the per-char phases on the
 * whole file, disk.bonnie's block write follows the deletion of putc's
 * file of the same size; on a VM that hands freed memory back to its
 * host, writing into memory freed a moment ago is several times faster
 * than into memory the host has taken back (2 GiB into the page cache
 * here: 0.84 s just after deleting a 2 GiB file, 3.4 s after 15 s of
 * quiet; the fsync 1.0-1.2 s either way), and the block write ratio
 * came out at 1.84-2.02 (bench/README.md, fidelity).  -c 2G shows it.
 * The seek count is ten times the profiles' 8000: on a disk that
 * serves 20,000 random reads a second, 8000 seeks last under half a
 * second, where bonnie++ prints "+++++" instead of a figure and its
 * seek time (first seeker's start to last seeker's end, thread start-up
 * included) is mostly overhead.
 *
 * Why the pause before each run: on a VM whose disk is a file on the
 * host and whose balloon takes freed memory back (free page reporting),
 * and with the file system mounted with discard, how long ago the last
 * large file was written and deleted decides much of the next run's
 * figure.  Back to back, whichever tool ran second in a pair won: with
 * 5 s of quiet, disk.stream measured 0.62 to 0.98 of fio when it ran
 * first and 1.28 to 1.29 when it ran second (-t); with 15 s the pair
 * agreed either way (527/523, 528/552 MiB/s; 524/539, 374/398).  The
 * same trap misled this bench's author twice: buffer alignment and
 * bonnie++'s repetitive data each seemed to move the rewrite figure by
 * a third in back-to-back A/B runs, and neither moved it by more than
 * the noise (3%) once every run had its 15 s.
 *
 * With 2 GiB files the default run takes about ten minutes on a disk
 * that writes 1 GB/s, a minute of it the pauses.  It needs bonnie++ and fio in
 * PATH, and root for the eviction watch (bonnie++ then runs as -u root).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/peers.h"

#define FID_REPS_MAX	50
#define FID_MIN		0.85
#define FID_MAX		1.15

/* One compared figure: ours and theirs in every repetition. */
struct fid_row {
	const char	*name;
	const char	*unit;
	const char	*ours_metric;	/* our workload's metric */
	const char	*peer;		/* the tool of theirs */
	double		 ours[FID_REPS_MAX];
	double		 theirs[FID_REPS_MAX];
	const char	*differs;	/* how the definitions differ */
};

static struct fid_row	fid_rows[] = {
	{ "bonnie block write", "K/sec", "write_kps", "bonnie++", { 0 }, { 0 },
	  "both write the file in 8 KiB write()s from a page-aligned buffer "
	  "and fsync it before the clock stops (bonnie++ in its close).  "
	  "The data differs: bonnie++'s chunks are a zeroed buffer with one "
	  "byte bumped per chunk, disk.bonnie's pseudo-random bytes, so that "
	  "no compressing or deduplicating layer flatters it" },
	{ "bonnie rewrite", "K/sec", "rewrite_kps", "bonnie++", { 0 }, { 0 },
	  "both read a chunk, change it, seek back one chunk and write it, "
	  "from an evicted file, with the fsync inside the clock; the data "
	  "differs as for the block write" },
	{ "bonnie block read", "K/sec", "read_kps", "bonnie++", { 0 }, { 0 },
	  "both read the evicted file in 8 KiB read()s into a page-aligned "
	  "buffer; the data differs as for the block write" },
	{ "bonnie seeks", "/sec", "seeks_ps", "bonnie++", { 0 }, { 0 },
	  "both seek to uniformly random chunks, read one, and rewrite one "
	  "in ten, with as many seekers, which fsync at the end inside the "
	  "time, and both time the phase from before the seekers start to "
	  "the last one's end.  bonnie++'s seekers are threads that take "
	  "each seek as a 4-byte ticket from one shared pipe: a third "
	  "system call a seek beside the lseek and the read, and threads "
	  "that wait for each other on it: its %CPU (below) is twice ours "
	  "or more for as many seeks, and where that overhead rather than "
	  "the disk sets the pace, the figures part.  disk.bonnie's are "
	  "processes that divide the seeks evenly.  -p 1 compares one "
	  "seeker with one, without the shared pipe" },
	{ "stream write (fio)", "MiB/s", "write_mibps", "fio", { 0 }, { 0 },
	  "both append 1 MiB write()s to a new file with an fsync every "
	  "fsync_every and at the end, the end inside the time; fio runs "
	  "with --fallocate=none because disk.stream does not preallocate" },
};

#define ROW_WRITE	0
#define ROW_REWRITE	1
#define ROW_READ	2
#define ROW_SEEKS	3
#define ROW_STREAM	4

/* The seek phase's %CPU (bonnie's figure: CPU time over wall time). */
static double	fid_seek_cpu_ours[FID_REPS_MAX];
static double	fid_seek_cpu_theirs[FID_REPS_MAX];

static volatile sig_atomic_t	fid_stop;
static int			fid_settle = 15;

static void
fid_on_signal(int sig)
{
	(void)sig;
	fid_stop = 1;
	wl_abort();
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: fidelity [-Ebt] [-c char_size] [-d dir] "
	    "[-f fsync_every] [-k seeks] [-n reps] [-p seekers] [-s size] "
	    "[-w settle]\n");
	exit(2);
}

/* Parse a size as the workloads do ("2G", "2x"); bytes, whole MiB. */
static uint64_t
parse_size(const char *what, const char *text)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	char				*cause = NULL;
	uint64_t			 v;

	wl = wl_find("disk.bonnie");
	wl_params_init(&p, wl);
	if (wl_params_set(&p, wl, "size", text, &cause) == -1) {
		fprintf(stderr, "fidelity: %s %s: %s\n", what, text, cause);
		exit(2);
	}
	v = wl_params_size(&p) >> 20 << 20;
	wl_params_clear(&p);
	if (v == 0) {
		fprintf(stderr, "fidelity: %s %s is below 1 MiB\n", what,
		    text);
		exit(2);
	}
	return v;
}

/*
 * Parse -f as disk.stream's fsync_every key does: 0 (one fsync at the
 * end, which fio's --fsync=0 and --end_fsync=1 also make) or a size of
 * 1 MiB or more, taken in whole MiB as fio's --fsync counts its 1 MiB
 * writes (peers.h).  parse_size() would refuse the 0 as below 1 MiB.
 */
static uint64_t
parse_fsync(const char *text)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	char				*cause = NULL;
	uint64_t			 v;

	wl = wl_find("disk.stream");
	wl_params_init(&p, wl);
	if (wl_params_set(&p, wl, "fsync_every", text, &cause) == -1) {
		fprintf(stderr, "fidelity: -f: %s\n", cause);
		exit(2);
	}
	v = p.fsync_every >> 20 << 20;
	wl_params_clear(&p);
	return v;
}

/*
 * Flush the filesystem of dir and wait fid_settle seconds before a
 * measured run.  The flush is the runner's (wl_flush()): that one
 * filesystem, not the machine's every one as sync() did, and waited for
 * WL_FLUSH_WAIT seconds at most, so that a hung NFS mount elsewhere
 * cannot hang the benchmark.
 */
static void
settle(const char *dir)
{
	struct timespec	ts;

	(void)wl_flush("fidelity", dir, 0);
	ts.tv_sec = fid_settle;
	ts.tv_nsec = 0;
	while (!fid_stop && nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* What one repetition runs, and how (see repetition). */
struct fid_rep {
	int		 rep;
	const char	*dir;
	uint64_t	 size;
	uint64_t	 fsync_every;
	uint64_t	 char_size;
	int		 seeks;
	int		 seekers;
	int		 evict;		/* evict bonnie++'s file at opens */
	char		 sz[32], fs[32], cs[32], sk[16], sp[16];
};

/* disk.bonnie, once. */
static int
step_ours_bonnie(struct fid_rep *r, char **cause)
{
	const char *const	 kv[] = { "size", r->sz, "seeks", r->sk,
				    "seekers", r->sp, "char_size", r->cs,
				    "timeout", "6h", "settle", "0s", NULL };
	struct wl_result	 res;
	size_t			 i;

	if (peer_ours("disk.bonnie", r->dir, kv, &res, cause) == -1)
		return -1;
	for (i = ROW_WRITE; i <= ROW_SEEKS; i++)
		fid_rows[i].ours[r->rep] = peer_metric(&res,
		    fid_rows[i].ours_metric);
	fid_seek_cpu_ours[r->rep] = peer_metric(&res, "seeks_cpu");
	printf("%d  disk.bonnie    write %.0f  rewrite %.0f  read %.0f K/sec"
	    "  seeks %.1f /sec at %.0f%% CPU  (%.0f s)\n", r->rep + 1,
	    fid_rows[ROW_WRITE].ours[r->rep],
	    fid_rows[ROW_REWRITE].ours[r->rep],
	    fid_rows[ROW_READ].ours[r->rep],
	    fid_rows[ROW_SEEKS].ours[r->rep], fid_seek_cpu_ours[r->rep],
	    res.wall);
	wl_result_clear(&res);
	return 0;
}

/* bonnie++, once. */
static int
step_bonnie(struct fid_rep *r, char **cause)
{
	struct peer_bonnie	b;

	if (peer_bonnie_run(r->dir, r->size, r->seeks, r->seekers, r->evict,
	    &b, cause) == -1)
		return -1;
	fid_rows[ROW_WRITE].theirs[r->rep] = b.write_kps;
	fid_rows[ROW_REWRITE].theirs[r->rep] = b.rewrite_kps;
	fid_rows[ROW_READ].theirs[r->rep] = b.read_kps;
	fid_rows[ROW_SEEKS].theirs[r->rep] = b.seeks_ps;
	fid_seek_cpu_theirs[r->rep] = b.seeks_cpu;
	printf("%d  bonnie++ %-5s write %.0f  rewrite %.0f  read %.0f K/sec"
	    "  seeks %.1f /sec at %.0f%% CPU  (%.0f s", r->rep + 1, b.version,
	    b.write_kps, b.rewrite_kps, b.read_kps, b.seeks_ps, b.seeks_cpu,
	    b.wall);
	if (r->evict)
		printf(", file evicted at %d opens", b.evictions);
	printf(")\n");
	return 0;
}

/* disk.stream, once. */
static int
step_ours_stream(struct fid_rep *r, char **cause)
{
	const char *const	 kv[] = { "size", r->sz, "fsync_every", r->fs,
				    "timeout", "6h", "settle", "0s", NULL };
	struct wl_result	 res;

	if (peer_ours("disk.stream", r->dir, kv, &res, cause) == -1)
		return -1;
	fid_rows[ROW_STREAM].ours[r->rep] = peer_metric(&res, "write_mibps");
	printf("%d  disk.stream    write %.1f MiB/s  (%.0f s)\n", r->rep + 1,
	    fid_rows[ROW_STREAM].ours[r->rep], res.wall);
	wl_result_clear(&res);
	return 0;
}

/* fio, once. */
static int
step_fio(struct fid_rep *r, char **cause)
{
	double	mibps;

	if (peer_fio_run(r->dir, r->size, r->fsync_every, &mibps, NULL,
	    cause) == -1)
		return -1;
	fid_rows[ROW_STREAM].theirs[r->rep] = mibps;
	printf("%d  fio            write %.1f MiB/s\n", r->rep + 1, mibps);
	return 0;
}

/*
 * One repetition: the bonnie pair, then the stream pair, each tool after
 * a settle; ours first in each pair, or theirs first if swap.  0, or -1
 * after printing why.
 */
static int
repetition(struct fid_rep *r, int swap)
{
	int	(*steps[4])(struct fid_rep *, char **) = { step_ours_bonnie,
		    step_bonnie, step_ours_stream, step_fio };
	int	(*tmp)(struct fid_rep *, char **);
	char	*cause = NULL;
	size_t	 i;

	snprintf(r->sz, sizeof(r->sz), "%lluM",
	    (unsigned long long)(r->size >> 20));
	snprintf(r->fs, sizeof(r->fs), "%lluM",
	    (unsigned long long)(r->fsync_every >> 20));
	snprintf(r->cs, sizeof(r->cs), "%lluM",
	    (unsigned long long)(r->char_size >> 20));
	snprintf(r->sk, sizeof(r->sk), "%d", r->seeks);
	snprintf(r->sp, sizeof(r->sp), "%d", r->seekers);
	if (swap) {
		for (i = 0; i < nitems(steps); i += 2) {
			tmp = steps[i];
			steps[i] = steps[i + 1];
			steps[i + 1] = tmp;
		}
	}
	for (i = 0; i < nitems(steps); i++) {
		settle(r->dir);
		if (fid_stop)
			return -1;
		if (steps[i](r, &cause) == -1) {
			fprintf(stderr, "fidelity: repetition %d: %s\n",
			    r->rep + 1, cause);
			free(cause);
			return -1;
		}
		fflush(stdout);
	}
	return 0;
}

/* What a row's median ratio says. */
enum fid_verdict {
	FID_WITHIN,
	FID_OUTSIDE,
	FID_EXPLAINED,		/* outside, a difference in definition */
	FID_NO_FIGURE		/* no repetition has a ratio to take */
};

/*
 * The verdict on row i from its ratios ours / theirs of reps
 * repetitions, with their median (of the finite ones) in *med.  bonnie++
 * prints "+++++" rather than a figure for a phase under half a second,
 * read as NAN: a repetition without it has no ratio, and a row with none
 * has nothing to judge.  It is not outside the range, as bench/noise
 * does not count such a figure noisier than its peer, nor passed.
 *
 * The seeks by more than one seeker differ in definition: bonnie++'s
 * threads take every seek as a ticket from one shared pipe and wait for
 * each other on it, so ours run faster for as many seeks (1.38 and 1.41
 * in bench/README.md, 2026-12-04 and 12-06; 0.99 with one seeker).  That
 * explains a ratio above the range there, and nothing else: one below
 * it, or any with -p 1, is outside.
 */
static enum fid_verdict
fid_verdict(size_t i, int reps, int seekers, double *med)
{
	const struct fid_row	*r = &fid_rows[i];
	double			 ratio[FID_REPS_MAX];
	int			 j;

	for (j = 0; j < reps; j++)
		ratio[j] = r->ours[j] / r->theirs[j];
	*med = peer_median(ratio, reps);
	if (!isfinite(*med))
		return FID_NO_FIGURE;
	if (*med >= FID_MIN && *med <= FID_MAX)
		return FID_WITHIN;
	if (i == ROW_SEEKS && seekers > 1 && *med > FID_MAX)
		return FID_EXPLAINED;
	return FID_OUTSIDE;
}

/*
 * Print the table of the reps repetitions done, and the verdicts; the
 * number of figures that fail: outside the range unexplained, or not
 * compared.
 */
static int
report(int reps, int seekers)
{
	struct fid_row	*r;
	double		 ratio[FID_REPS_MAX], s[FID_REPS_MAX], med;
	size_t		 i, k;
	int		 j, outside = 0, explained = 0, nofigure = 0;

	printf("\n%-20s %6s %14s %14s %8s %15s\n", "figure", "unit",
	    "ours (median)", "theirs (med.)", "ratio", "ratios min-max");
	for (i = 0; i < nitems(fid_rows); i++) {
		r = &fid_rows[i];
		for (j = 0; j < reps; j++)
			ratio[j] = r->ours[j] / r->theirs[j];
		med = peer_median(ratio, reps);
		k = peer_finite(ratio, reps, s);
		printf("%-20s %6s %14.1f %14.1f %8.3f", r->name, r->unit,
		    peer_median(r->ours, reps), peer_median(r->theirs, reps),
		    med);
		if (k > 0)
			printf("   %5.3f-%5.3f", s[0], s[k - 1]);
		if (k < (size_t)reps)
			printf("  (%zu of %d: theirs printed no figure)", k,
			    reps);
		printf("\n");
	}
	printf("\n");
	for (i = 0; i < nitems(fid_rows); i++) {
		r = &fid_rows[i];
		switch (fid_verdict(i, reps, seekers, &med)) {
		case FID_WITHIN:
			printf("%s: within %.2f-%.2f (%s)\n", r->name,
			    FID_MIN, FID_MAX, r->differs);
			break;
		case FID_OUTSIDE:
			outside++;
			printf("%s: OUTSIDE %.2f-%.2f: %s\n", r->name,
			    FID_MIN, FID_MAX, r->differs);
			break;
		case FID_EXPLAINED:
			outside++;
			explained++;
			printf("%s: outside %.2f-%.2f, explained by a "
			    "difference in definition (%d seekers): %s\n",
			    r->name, FID_MIN, FID_MAX, seekers, r->differs);
			break;
		case FID_NO_FIGURE:
			nofigure++;
			if (peer_finite(r->theirs, reps, s) == 0)
				printf("%s: cannot compare (%s printed no "
				    "figure)\n", r->name, r->peer);
			else
				printf("%s: cannot compare (no repetition "
				    "with both figures)\n", r->name);
			break;
		}
	}
	printf("\nthe seek phase's %%CPU, median: disk.bonnie %.0f%%, "
	    "bonnie++ %.0f%%, on %ld CPUs\n", peer_median(fid_seek_cpu_ours,
	    reps), peer_median(fid_seek_cpu_theirs, reps),
	    sysconf(_SC_NPROCESSORS_ONLN));
	printf("\n%d of %zu ratios outside %.2f-%.2f (%d of them explained "
	    "by a difference in definition); %d cannot be compared (no "
	    "figure printed)\n", outside, nitems(fid_rows), FID_MIN,
	    FID_MAX, explained, nofigure);
	return outside - explained + nofigure;
}

int
main(int argc, char **argv)
{
	struct sigaction	 sa;
	struct utsname		 un;
	const char		*base = "/var/tmp", *size_arg = "2G";
	const char		*fsync_arg = "256M", *char_arg = "1M";
	char			 dir[PATH_MAX], fsbuf[32];
	uint64_t		 size, fsync_every, char_size, ram;
	double			 t0;
	int			 ch, reps = 5, seeks = 80000, seekers = 3;
	struct fid_rep		 r;
	int			 evict = 1, done = 0, rep, order = 0, failed;

	while ((ch = getopt(argc, argv, "Ebc:d:f:k:n:p:s:tw:")) != -1) {
		switch (ch) {
		case 'b':
			order = 2;
			break;
		case 't':
			order = 1;
			break;
		case 'E':
			evict = 0;
			break;
		case 'c':
			char_arg = optarg;
			break;
		case 'd':
			base = optarg;
			break;
		case 'f':
			fsync_arg = optarg;
			break;
		case 'k':
			seeks = atoi(optarg);
			break;
		case 'n':
			reps = atoi(optarg);
			break;
		case 'p':
			seekers = atoi(optarg);
			break;
		case 's':
			size_arg = optarg;
			break;
		case 'w':
			fid_settle = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || reps < 1 || reps > FID_REPS_MAX || seeks < 1 ||
	    seekers < 1 || seekers > 64 || fid_settle < 0)
		usage();
	size = parse_size("size", size_arg);
	fsync_every = parse_fsync(fsync_arg);
	char_size = parse_size("char_size", char_arg);
	if (!peer_in_path("bonnie++") || !peer_in_path("fio")) {
		fprintf(stderr, "fidelity: bonnie++ and fio must be in PATH\n");
		return 2;
	}
	if (evict && geteuid() != 0) {
		fprintf(stderr, "fidelity: not root: no page-cache eviction "
		    "for bonnie++ (as with -E)\n");
		evict = 0;
	}
	snprintf(dir, sizeof(dir), "%s/perfwatch-fidelity.XXXXXX", base);
	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "fidelity: mkdtemp %s: %s\n", dir,
		    strerror(errno));
		return 2;
	}
	if (peer_free_bytes(dir) < size + (UINT64_C(1) << 30)) {
		fprintf(stderr, "fidelity: %s has less than the file size and "
		    "1 GiB free\n", dir);
		wl_remove_tree(dir);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fid_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	if (uname(&un) == -1)
		snprintf(un.release, sizeof(un.release), "?");
	printf("fidelity: %s %s, %ld CPUs, RAM %llu MiB; directory %s\n",
	    un.sysname, un.release, sysconf(_SC_NPROCESSORS_ONLN),
	    (unsigned long long)(ram >> 20), dir);
	if (fsync_every == 0)
		snprintf(fsbuf, sizeof(fsbuf), "only at the end");
	else
		snprintf(fsbuf, sizeof(fsbuf), "every %llu MiB",
		    (unsigned long long)(fsync_every >> 20));
	printf("file %llu MiB for every tool; chunk 8 KiB, %d seeks by %d "
	    "seeker%s; disk.bonnie's per-char phases on %llu MiB (bonnie++ -f "
	    "has none); stream and fio fsync %s; %d repetitions, %d s of "
	    "quiet before each run\n", (unsigned long long)(size >> 20),
	    seeks, seekers, seekers == 1 ? "" : "s",
	    (unsigned long long)(char_size >> 20), fsbuf, reps, fid_settle);
	if (ram > 0 && size < 2 * ram) {
		printf("the file is smaller than twice the RAM, so the page "
		    "cache could hold it: disk.bonnie evicts it before each "
		    "phase that reads; bonnie++ %s\n", evict ?
		    "gets the same eviction at each open of its file "
		    "(fanotify), before its clock starts" :
		    "runs without eviction (-E) and may read from the cache");
	}
	printf("load average at start: %s\n\n", peer_load());
	fflush(stdout);

	t0 = bench_now();
	for (rep = 0; rep < reps && !fid_stop; rep++) {
		memset(&r, 0, sizeof(r));
		r.rep = rep;
		r.dir = dir;
		r.size = size;
		r.fsync_every = fsync_every;
		r.char_size = char_size;
		r.seeks = seeks;
		r.seekers = seekers;
		r.evict = evict;
		if (repetition(&r, order == 1 || (order == 2 && rep % 2)) == -1)
			break;
		done++;
	}
	wl_remove_tree(dir);
	if (done == 0)
		return 1;
	failed = report(done, seekers);
	printf("load average at end: %s; %d repetitions in %.0f s\n",
	    peer_load(), done, bench_now() - t0);
	if (done < reps)
		printf("only %d of %d repetitions: the bench fails\n", done,
		    reps);
	/*
	 * A figure outside unexplained, or not compared at all, is the aim
	 * missed: exit 0 would say every ratio had been shown within it.
	 */
	return done == reps && failed == 0 ? 0 : 1;
}
