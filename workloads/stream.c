/*
 * disk.stream: a streaming writer in the manner of the LKML "SATA
 * performance: Linux vs. FreeBSD" test: 1 MiB write()s, with an fsync()
 * after every fsync_every bytes, each such segment timed on its own;
 * fsync_every = 0 writes the whole file as one segment with one fsync at
 * the end (fio's --end_fsync=1 alone).
 *
 *   write_mibps      size / time of the whole write, final fsync included
 *                    (what fio reports for --rw=write --bs=1M --fsync=N
 *                    --end_fsync=1)                                MiB/s
 *   seg_mean_mibps   mean of the segments' rates                   MiB/s
 *   seg_sd_mibps     their sample standard deviation (0 for one)   MiB/s
 *   write_cpu        (user + system CPU) / elapsed x 100           %CPU
 *
 * The data is pseudo-random, and every 512-byte sector starts with its
 * block's number, so no layer can compress or deduplicate it.
 * direct = yes opens with O_DIRECT (the buffer is page-aligned).  A raw
 * block device is written only when device names it and destroy_data is
 * set; it is written from offset 0 and its contents are lost.  Sizes are
 * whole MiB; a last, shorter segment counts as a segment.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

#define STREAM_BLOCK	WL_STREAM_BLOCK
#define STREAM_ALIGN	4096
#define STREAM_SECTOR	512	/* the smallest block a layer dedupes */
#define STREAM_FILE	"stream.dat"

/*
 * Make block b of the file unlike every other: its number in the first
 * bytes of each sector.  The random buffer is written again and again,
 * and identical blocks are what a deduplicating layer (ZFS dedup, VDO)
 * stores once.
 */
static void
stream_stamp(char *buf, uint64_t b)
{
	size_t	off;

	for (off = 0; off < STREAM_BLOCK; off += STREAM_SECTOR)
		memcpy(buf + off, &b, sizeof(b));
}

/* Open the target: the raw device if named, else a new file. */
static int
stream_open(const struct wl_params *p, uint64_t size, char **cause)
{
	struct stat	 st;
	off_t		 end;
	int		 fd, flags;

	flags = O_WRONLY | O_CLOEXEC | (p->direct ? O_DIRECT : 0);
	if (p->device == NULL) {
		fd = open(STREAM_FILE, flags | O_CREAT | O_TRUNC, 0644);
		if (fd == -1 && errno == EINVAL && p->direct) {
			xasprintf(cause, "O_DIRECT is not supported by the "
			    "work directory's file system");
			return -1;
		}
		if (fd == -1) {
			xasprintf(cause, "create %s: %s", STREAM_FILE,
			    strerror(errno));
			return -1;
		}
		return fd;
	}
	if (!p->destroy_data) {
		xasprintf(cause, "refusing to write to %s without "
		    "destroy_data = yes", p->device);
		return -1;
	}
#ifdef __linux__
	/*
	 * Exclusively: Linux refuses (EBUSY) a block device that is
	 * mounted, swapped on, part of a RAID or LVM volume, or held so by
	 * another program, where destroy_data alone wrote over a mounted
	 * file system named by a slip of the finger (sda for sdb).  FreeBSD's
	 * GEOM refuses to open a mounted disk for writing by itself.
	 */
	flags |= O_EXCL;
#endif
	if ((fd = open(p->device, flags)) == -1) {
		if (errno == EBUSY)
			xasprintf(cause, "%s is in use (mounted, swap, part "
			    "of a volume, or held by another program): "
			    "refusing to write to it", p->device);
		else
			xasprintf(cause, "open %s: %s", p->device,
			    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1 || !S_ISBLK(st.st_mode)) {
		xasprintf(cause, "%s is not a block device", p->device);
		close(fd);
		return -1;
	}
	if ((end = lseek(fd, 0, SEEK_END)) == -1 || (uint64_t)end < size ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		xasprintf(cause, "%s is smaller than size (%llu MiB)",
		    p->device, (unsigned long long)(size >> 20));
		close(fd);
		return -1;
	}
	return fd;
}

/* Describe a failed write or fsync. */
static void
stream_error(const struct wl_params *p, const char *what, char **cause)
{
	const char	*target;

	target = p->device != NULL ? p->device : STREAM_FILE;
	if (errno == EINVAL && p->direct) {
		xasprintf(cause, "%s %s: O_DIRECT refused: %s", what, target,
		    strerror(errno));
	} else
		xasprintf(cause, "%s %s: %s", what, target, strerror(errno));
}

/* One run of the streaming writer. */
int
wl_stream_run(const struct wl_params *p, int out, char **cause)
{
	uint64_t	 size, nblocks, per, nseg, seg, b, inseg;
	double		*rates, start, t0, t1, cpu0, cpu, total, mean, sd;
	void		*buf;
	int		 fd, rc = -1;

	size = wl_params_size(p) / STREAM_BLOCK * STREAM_BLOCK;
	nblocks = size / STREAM_BLOCK;
	per = p->fsync_every == 0 ? nblocks : p->fsync_every / STREAM_BLOCK;
	if (nblocks == 0 || per == 0) {
		xasprintf(cause, "size and fsync_every must be at least 1M");
		return -1;
	}
	nseg = (nblocks + per - 1) / per;
	if (posix_memalign(&buf, STREAM_ALIGN, STREAM_BLOCK) != 0) {
		xasprintf(cause, "posix_memalign: out of memory");
		return -1;
	}
	wl_fill_random(buf, STREAM_BLOCK, nblocks);
	if ((fd = stream_open(p, size, cause)) == -1) {
		free(buf);
		return -1;
	}
	rates = xcalloc(nseg, sizeof(*rates));

	cpu0 = wl_cpu_seconds(RUSAGE_SELF);
	start = wl_now();
	for (seg = 0, b = 0; seg < nseg; seg++) {
		inseg = nblocks - b < per ? nblocks - b : per;
		t0 = wl_now();
		for (; inseg > 0; inseg--, b++) {
			stream_stamp(buf, b);
			if (wl_write_full(fd, buf, STREAM_BLOCK) == -1) {
				stream_error(p, "write", cause);
				goto out;
			}
		}
		if (fsync(fd) == -1) {
			stream_error(p, "fsync", cause);
			goto out;
		}
		t1 = wl_now();
		inseg = b - seg * per;
		rates[seg] = inseg / (t1 - t0 > 0 ? t1 - t0 : 1e-9);
	}
	total = wl_now() - start;
	cpu = wl_cpu_seconds(RUSAGE_SELF) - cpu0;
	if (total <= 0)
		total = 1e-9;
	wl_mean_sd(rates, nseg, &mean, &sd);

	/*
	 * A segment is no longer than the file: fsync_every = 128M (the
	 * default) on a file of 8 MiB writes one segment of 8 MiB.
	 */
	if (p->fsync_every == 0)
		wl_note(out, "%llu MiB, one fsync at the end%s",
		    (unsigned long long)nblocks, p->direct ? ", O_DIRECT" : "");
	else if (nseg == 1)
		wl_note(out, "%llu MiB in 1 segment of %llu MiB, fsync after "
		    "it%s", (unsigned long long)nblocks,
		    (unsigned long long)nblocks, p->direct ? ", O_DIRECT" : "");
	else
		wl_note(out, "%llu MiB in %llu segments of %llu MiB, fsync "
		    "after each%s", (unsigned long long)nblocks,
		    (unsigned long long)nseg, (unsigned long long)per,
		    p->direct ? ", O_DIRECT" : "");
	if (wl_emit(out, "write_mibps", nblocks / total, "MiB/s",
	    BETTER_HIGHER) == -1 ||
	    wl_emit(out, "seg_mean_mibps", mean, "MiB/s", BETTER_HIGHER) == -1 ||
	    wl_emit(out, "seg_sd_mibps", sd, "MiB/s", BETTER_LOWER) == -1 ||
	    wl_emit(out, "write_cpu", cpu / total * 100.0, "%CPU",
	    BETTER_LOWER) == -1) {
		xasprintf(cause, "writing results: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(fd);
	if (p->device == NULL)
		(void)unlink(STREAM_FILE);
	free(rates);
	free(buf);
	return rc;
}
