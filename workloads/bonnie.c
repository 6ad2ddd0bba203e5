/*
 * disk.bonnie: the six classic figures of Tim Bray's bonnie, each with
 * its %CPU, measured on one file in the iteration directory.
 *
 *   putc_kps    per-char write: every byte through stdio putc()   K/sec
 *   write_kps   block write: write() of whole chunks              K/sec
 *   rewrite_kps read a chunk, dirty it, lseek back, write it      K/sec
 *   getc_kps    per-char read: every byte through stdio getc()    K/sec
 *   read_kps    block read: read() of whole chunks                K/sec
 *   seeks_ps    random seeks: lseek + read of one chunk, and in   /sec
 *               one seek of ten the chunk dirtied and written back
 *   *_cpu       (user + system CPU) / elapsed x 100 of the phase  %CPU
 *
 * K is 1024 bytes, as bonnie prints it.  Choices, and why:
 *
 * - Chunk: 8 KiB, bonnie++'s default (bonnie 1.x used 16 KiB), so that
 *   our block figures sit beside bonnie++'s on the same file.  The chunk
 *   buffer is page-aligned, as bonnie++'s is.
 * - Seeks: 8000 in all (bonnie++ 1.x's count; bonnie had 4000, bonnie++
 *   2.00a defaults to 8192 by 5 processes), shared by 3 processes
 *   (bonnie's and bonnie++ 1.x's SeekProcCount) so there is always a
 *   seek queued; both configurable (seeks, seekers).  The seekers start
 *   together on the close of a pipe; the phase lasts until the last one
 *   is reaped, and its CPU is the seekers' (RUSAGE_CHILDREN) plus ours.
 *   A seek picks a chunk uniformly at random (splitmix64, a fixed seed per
 *   seeker, so every iteration does the same pattern on a new file).
 *   Each seeker fsyncs its write-backs before it exits, inside the
 *   phase's time, as bonnie++ 2.00a's seekers do when they close the
 *   file (bonnie 1.x did not sync them).
 * - Write phases (putc, block write, rewrite) end with fsync() inside the
 *   timing: the figure is what reached the disk, not the page cache.
 * - Before each phase that reads (rewrite, getc, read, seeks) the file is
 *   evicted from the page cache (fsync + posix_fadvise DONTNEED), so reads
 *   measure the disk even when the file is smaller than RAM; bonnie and
 *   bonnie++ instead need a file of twice the RAM.  A note says when the
 *   file is smaller than that.  The file is deleted afterwards.
 * - "The RAM" is the memory this process may use (wl_memory_bytes): under
 *   a memory limit of its control group (MemoryMax=, a container's
 *   limit) it is the limit, which the page cache of the file counts
 *   against as well.  The default file of 2x is then twice the limit,
 *   not twice the machine's RAM: a figure taken under a limit is of a
 *   smaller file, and a note says so, as the snapshot's
 *   cgroup.memory.max does.
 * - The file is created anew (unlinked, then created) before the putc and
 *   block-write phases, outside the timing, as bonnie does.
 * - The per-char phases move a byte at a time through stdio and take
 *   several times as long as the block phases (putc some 160 MB/s where
 *   write() moves 700 here).  char_size, like bonnie++'s -f size, runs
 *   them on less than the whole file: putc writes a file of char_size
 *   bytes, getc reads the first char_size bytes of the block-written
 *   file (evicted as before), and the figures are per second as ever.
 *   On a VM that returns freed memory to the host, getc over the whole
 *   file refills a page cache of the file's size just before the block
 *   read, and 2 block reads in 12 then ran at a third to two thirds of
 *   the rate with two to four times the %CPU; with char_size 64M none
 *   of 8 did.  A quarter of the file (256M) made the block write vary
 *   instead (3.5% to 19.6% run to run: it no longer follows the
 *   deletion of a file of its own size).  The quick profile sets 64M
 *   (bench/README.md, noise).
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "workloads.h"
#include "internal.h"

#define BONNIE_CHUNK		WL_BONNIE_CHUNK
#define BONNIE_FILE		"bonnie.dat"
#define BONNIE_DIRTY_ONE_IN	10

/* The clock and CPU at the start of a phase. */
struct phase {
	double	wall;
	double	cpu;
};

/* The figures of one run, in bonnie's column order. */
struct bonnie_figures {
	double	putc_kps, putc_cpu;
	double	write_kps, write_cpu;
	double	rewrite_kps, rewrite_cpu;
	double	getc_kps, getc_cpu;
	double	read_kps, read_cpu;
	double	seeks_ps, seeks_cpu;
};

/* CPU seconds of this process, and of its reaped children if asked. */
static double
phase_cpu(int children)
{
	double	cpu;

	cpu = wl_cpu_seconds(RUSAGE_SELF);
	if (children)
		cpu += wl_cpu_seconds(RUSAGE_CHILDREN);
	return cpu;
}

static void
phase_start(struct phase *ph, int children)
{
	ph->cpu = phase_cpu(children);
	ph->wall = wl_now();
}

/* End a phase: amount per second, and its %CPU. */
static void
phase_end(const struct phase *ph, int children, double amount, double *rate,
    double *cpu)
{
	double	wall, used;

	wall = wl_now() - ph->wall;
	used = phase_cpu(children) - ph->cpu;
	if (wall <= 0)
		wall = 1e-9;
	*rate = amount / wall;
	*cpu = used / wall * 100.0;
}

/* Read exactly len bytes; 0, or -1 with errno (EIO at end of file). */
static int
read_full(int fd, void *buf, size_t len)
{
	char	*p = buf;
	ssize_t	 n;

	while (len > 0) {
		n = read(fd, p, len);
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

/* Open the file for a phase that reads it, evicted from the cache. */
static int
open_evicted(int flags, char **cause)
{
	int	fd;

	if ((fd = open(BONNIE_FILE, flags | O_CLOEXEC)) == -1) {
		xasprintf(cause, "open %s: %s", BONNIE_FILE, strerror(errno));
		return -1;
	}
	if (wl_evict(fd, BONNIE_FILE, cause) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Per-char write with putc(), fsync inside the timing. */
static int
phase_putc(uint64_t size, struct bonnie_figures *f, char **cause)
{
	struct phase	 ph;
	FILE		*fp;
	uint64_t	 i;

	if (unlink(BONNIE_FILE) == -1 && errno != ENOENT) {
		xasprintf(cause, "unlink %s: %s", BONNIE_FILE, strerror(errno));
		return -1;
	}
	if ((fp = fopen(BONNIE_FILE, "we")) == NULL) {
		xasprintf(cause, "create %s: %s", BONNIE_FILE, strerror(errno));
		return -1;
	}
	phase_start(&ph, 0);
	for (i = 0; i < size; i++) {
		if (putc((int)(i & 0x7f), fp) == EOF)
			goto fail;
	}
	if (fflush(fp) == EOF || fsync(fileno(fp)) == -1)
		goto fail;
	if (fclose(fp) == EOF) {
		xasprintf(cause, "putc phase: close %s: %s", BONNIE_FILE,
		    strerror(errno));
		return -1;
	}
	phase_end(&ph, 0, size / 1024.0, &f->putc_kps, &f->putc_cpu);
	return 0;
fail:
	xasprintf(cause, "putc phase: write %s: %s", BONNIE_FILE,
	    strerror(errno));
	fclose(fp);
	return -1;
}

/* Block write with write(), fsync inside the timing. */
static int
phase_write(uint64_t nchunks, char *buf, struct bonnie_figures *f,
    char **cause)
{
	struct phase	ph;
	uint64_t	c;
	int		fd;

	if (unlink(BONNIE_FILE) == -1 && errno != ENOENT) {
		xasprintf(cause, "unlink %s: %s", BONNIE_FILE, strerror(errno));
		return -1;
	}
	fd = open(BONNIE_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1) {
		xasprintf(cause, "create %s: %s", BONNIE_FILE, strerror(errno));
		return -1;
	}
	phase_start(&ph, 0);
	for (c = 0; c < nchunks; c++) {
		memcpy(buf, &c, sizeof(c));
		if (wl_write_full(fd, buf, BONNIE_CHUNK) == -1)
			goto fail;
	}
	if (fsync(fd) == -1)
		goto fail;
	close(fd);
	phase_end(&ph, 0, nchunks * (BONNIE_CHUNK / 1024.0), &f->write_kps,
	    &f->write_cpu);
	return 0;
fail:
	xasprintf(cause, "block write phase: write %s: %s", BONNIE_FILE,
	    strerror(errno));
	close(fd);
	return -1;
}

/* Rewrite: read a chunk, dirty it, seek back, write it; fsync timed. */
static int
phase_rewrite(uint64_t nchunks, char *buf, struct bonnie_figures *f,
    char **cause)
{
	struct phase	 ph;
	uint64_t	 c;
	const char	*what;
	int		 fd;

	if ((fd = open_evicted(O_RDWR, cause)) == -1)
		return -1;
	phase_start(&ph, 0);
	for (c = 0; c < nchunks; c++) {
		what = "read";
		if (read_full(fd, buf, BONNIE_CHUNK) == -1)
			goto fail;
		buf[BONNIE_CHUNK / 2]++;
		what = "lseek";
		if (lseek(fd, -(off_t)BONNIE_CHUNK, SEEK_CUR) == -1)
			goto fail;
		what = "write";
		if (wl_write_full(fd, buf, BONNIE_CHUNK) == -1)
			goto fail;
	}
	what = "fsync";
	if (fsync(fd) == -1)
		goto fail;
	close(fd);
	phase_end(&ph, 0, nchunks * (BONNIE_CHUNK / 1024.0), &f->rewrite_kps,
	    &f->rewrite_cpu);
	return 0;
fail:
	xasprintf(cause, "rewrite phase: %s %s: %s", what, BONNIE_FILE,
	    strerror(errno));
	close(fd);
	return -1;
}

/* Per-char read with getc(). */
static int
phase_getc(uint64_t size, struct bonnie_figures *f, char **cause)
{
	struct phase	 ph;
	FILE		*fp;
	uint64_t	 n = 0;
	int		 fd;

	if ((fd = open_evicted(O_RDONLY, cause)) == -1)
		return -1;
	if ((fp = fdopen(fd, "r")) == NULL) {
		xasprintf(cause, "fdopen %s: %s", BONNIE_FILE, strerror(errno));
		close(fd);
		return -1;
	}
	phase_start(&ph, 0);
	while (n < size && getc(fp) != EOF)
		n++;
	if (ferror(fp)) {
		xasprintf(cause, "getc phase: read %s: %s", BONNIE_FILE,
		    strerror(errno));
		fclose(fp);
		return -1;
	}
	fclose(fp);
	phase_end(&ph, 0, n / 1024.0, &f->getc_kps, &f->getc_cpu);
	if (n != size) {
		xasprintf(cause, "getc phase: read %llu bytes of %llu",
		    (unsigned long long)n, (unsigned long long)size);
		return -1;
	}
	return 0;
}

/* Block read with read(). */
static int
phase_read(uint64_t nchunks, char *buf, struct bonnie_figures *f,
    char **cause)
{
	struct phase	ph;
	uint64_t	total = 0;
	ssize_t		n;
	int		fd;

	if ((fd = open_evicted(O_RDONLY, cause)) == -1)
		return -1;
	phase_start(&ph, 0);
	for (;;) {
		n = read(fd, buf, BONNIE_CHUNK);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "block read phase: read %s: %s",
			    BONNIE_FILE, strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	phase_end(&ph, 0, total / 1024.0, &f->read_kps, &f->read_cpu);
	if (total != nchunks * BONNIE_CHUNK) {
		xasprintf(cause, "block read phase: read %llu bytes of %llu",
		    (unsigned long long)total,
		    (unsigned long long)nchunks * BONNIE_CHUNK);
		return -1;
	}
	return 0;
}

/* One seeker process: wait for the start, then do its seeks. */
static void __attribute__((noreturn))
seeker(int id, int go, uint64_t nchunks, int seeks)
{
	char		*buf;
	uint64_t	 rng, r;
	off_t		 off;
	char		 c;
	int		 fd, i;

	rng = UINT64_C(0xb0221e) + (uint64_t)id * UINT64_C(0x100000001b3);
	if ((buf = wl_page_alloc(BONNIE_CHUNK)) == NULL) {
		dprintf(STDERR_FILENO, "seeker %d: out of memory\n", id);
		_exit(1);
	}
	if ((fd = open(BONNIE_FILE, O_RDWR | O_CLOEXEC)) == -1) {
		dprintf(STDERR_FILENO, "seeker %d: open %s: %s\n", id,
		    BONNIE_FILE, strerror(errno));
		_exit(1);
	}
	/* The parent closes its end of the pipe to start us all. */
	while (read(go, &c, 1) == -1 && errno == EINTR)
		;
	for (i = 0; i < seeks; i++) {
		r = wl_rng_next(&rng);
		off = (off_t)((r >> 8) % nchunks) * BONNIE_CHUNK;
		if (lseek(fd, off, SEEK_SET) == -1 ||
		    read_full(fd, buf, BONNIE_CHUNK) == -1)
			goto fail;
		if ((r & 0xff) % BONNIE_DIRTY_ONE_IN == 0) {
			buf[0]++;
			if (lseek(fd, off, SEEK_SET) == -1 ||
			    wl_write_full(fd, buf, BONNIE_CHUNK) == -1)
				goto fail;
		}
	}
	/* Inside the phase's time, as bonnie++ closes its seekers' files. */
	if (fsync(fd) == -1)
		goto fail;
	_exit(0);
fail:
	dprintf(STDERR_FILENO, "seeker %d: %s: %s\n", id, BONNIE_FILE,
	    strerror(errno));
	_exit(1);
}

/* Random seeks by several processes at once. */
static int
phase_seeks(uint64_t nchunks, int seeks, int seekers,
    struct bonnie_figures *f, char **cause)
{
	struct phase	 ph;
	pid_t		*pids;
	int		 go[2], fd, i, share, status, failed = 0;

	if ((fd = open_evicted(O_RDONLY, cause)) == -1)
		return -1;
	close(fd);
	if (pipe(go) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	pids = xcalloc(seekers, sizeof(*pids));
	/*
	 * The phase starts before the forks, as bonnie++'s seek time does
	 * (thread start-up included): what the seekers spend before the go
	 * comes in with their CPU at the reap, so the wall must hold it too,
	 * or a short phase shows more CPU than its CPUs could give.
	 */
	phase_start(&ph, 1);
	for (i = 0; i < seekers; i++) {
		share = seeks / seekers + (i < seeks % seekers);
		if ((pids[i] = fork()) == -1) {
			xasprintf(cause, "fork seeker: %s", strerror(errno));
			failed = 1;
			break;
		}
		if (pids[i] == 0) {
			close(go[1]);
			seeker(i, go[0], nchunks, share);
		}
	}
	close(go[0]);
	close(go[1]);
	for (i = 0; i < seekers && pids[i] > 0; i++) {
		while (waitpid(pids[i], &status, 0) == -1) {
			if (errno != EINTR) {
				status = -1;
				break;
			}
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			if (!failed) {
				xasprintf(cause, "seek phase: seeker %d "
				    "failed", i);
			}
			failed = 1;
		}
	}
	phase_end(&ph, 1, seeks, &f->seeks_ps, &f->seeks_cpu);
	free(pids);
	return failed ? -1 : 0;
}

/*
 * Is a file of size bytes smaller than twice the RAM, so that its reads
 * rely on page-cache eviction?  Twice the RAM is taken as size = 2x makes
 * it, in whole MiB (wl_params_size): the RAM is seldom a whole number of
 * MiB, and the note said that the file of 2x, less than a MiB short of
 * twice the RAM, was smaller than twice the RAM.
 */
static int
bonnie_below_twice_ram(uint64_t size, uint64_t ram)
{
	return ram > 0 && size < ((2 * ram) & ~(uint64_t)((1 << 20) - 1));
}

/*
 * A size as a note says it, exactly: whole MiB, else whole KiB, else
 * bytes (a file of 1544K is not "1 MiB").
 */
static const char *
bonnie_size_text(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % (1 << 20) == 0)
		snprintf(buf, len, "%llu MiB",
		    (unsigned long long)(bytes >> 20));
	else if (bytes % 1024 == 0)
		snprintf(buf, len, "%llu KiB",
		    (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	return buf;
}

/* Write the twelve figures, in bonnie's order. */
static int
emit_figures(int out, const struct bonnie_figures *f)
{
	const struct {
		const char	*name;
		double		 value;
		const char	*unit;
		enum better	 better;
	} m[] = {
		{ "putc_kps", f->putc_kps, "K/sec", BETTER_HIGHER },
		{ "putc_cpu", f->putc_cpu, "%CPU", BETTER_LOWER },
		{ "write_kps", f->write_kps, "K/sec", BETTER_HIGHER },
		{ "write_cpu", f->write_cpu, "%CPU", BETTER_LOWER },
		{ "rewrite_kps", f->rewrite_kps, "K/sec", BETTER_HIGHER },
		{ "rewrite_cpu", f->rewrite_cpu, "%CPU", BETTER_LOWER },
		{ "getc_kps", f->getc_kps, "K/sec", BETTER_HIGHER },
		{ "getc_cpu", f->getc_cpu, "%CPU", BETTER_LOWER },
		{ "read_kps", f->read_kps, "K/sec", BETTER_HIGHER },
		{ "read_cpu", f->read_cpu, "%CPU", BETTER_LOWER },
		{ "seeks_ps", f->seeks_ps, "/sec", BETTER_HIGHER },
		{ "seeks_cpu", f->seeks_cpu, "%CPU", BETTER_LOWER },
	};
	size_t	i;

	for (i = 0; i < nitems(m); i++) {
		if (wl_emit(out, m[i].name, m[i].value, m[i].unit,
		    m[i].better) == -1)
			return -1;
	}
	return 0;
}

/* One bonnie run: the six phases in order, then the figures. */
int
wl_bonnie_run(const struct wl_params *p, int out, char **cause)
{
	struct sysinfo_allowed	 allowed;
	struct bonnie_figures	 f;
	uint64_t		 size, nchunks, ram, chars;
	char			*buf, file[32], part[32];
	int			 rc = -1;

	size = wl_params_size(p) / BONNIE_CHUNK * BONNIE_CHUNK;
	nchunks = size / BONNIE_CHUNK;
	if (nchunks == 0) {
		xasprintf(cause, "file size %llu is below one chunk (%d)",
		    (unsigned long long)size, BONNIE_CHUNK);
		return -1;
	}
	chars = p->char_size != 0 && p->char_size < size ? p->char_size : size;
	sysinfo_allowed(NULL, &allowed);
	ram = allowed.memory;
	bonnie_size_text(size, file, sizeof(file));
	wl_note(out, "file %s, chunk %d, %d seeks by %d processes", file,
	    BONNIE_CHUNK, p->seeks, p->seekers);
	if (chars != size)
		wl_note(out, "per-char phases on %s (char_size): putc "
		    "writes a file of that size, getc reads that much of the "
		    "block-written file", bonnie_size_text(chars, part,
		    sizeof(part)));
	if (allowed.memory_limited)
		wl_note(out, "memory limited to %llu MiB of the RAM's %llu MiB "
		    "(control group): the RAM below is the limit",
		    (unsigned long long)(allowed.memory >> 20),
		    (unsigned long long)(allowed.ram >> 20));
	if (bonnie_below_twice_ram(size, ram)) {
		/* The figure is the RAM's; in brackets it read as twice it. */
		wl_note(out, "file %s is smaller than twice the RAM of "
		    "%llu MiB: reads rely on page-cache eviction", file,
		    (unsigned long long)(ram >> 20));
	}

	memset(&f, 0, sizeof(f));
	if ((buf = wl_page_alloc(BONNIE_CHUNK)) == NULL) {
		xasprintf(cause, "out of memory for a %d-byte chunk",
		    BONNIE_CHUNK);
		return -1;
	}
	wl_fill_random(buf, BONNIE_CHUNK, size);
	if (phase_putc(chars, &f, cause) == -1 ||
	    phase_write(nchunks, buf, &f, cause) == -1 ||
	    phase_rewrite(nchunks, buf, &f, cause) == -1 ||
	    phase_getc(chars, &f, cause) == -1 ||
	    phase_read(nchunks, buf, &f, cause) == -1 ||
	    phase_seeks(nchunks, p->seeks, p->seekers, &f, cause) == -1)
		goto out;
	if (emit_figures(out, &f) == -1) {
		xasprintf(cause, "writing results: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(buf);
	(void)unlink(BONNIE_FILE);
	return rc;
}
