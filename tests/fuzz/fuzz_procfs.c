/*
 * libFuzzer target: the files of /proc, /sys and /etc that a snapshot
 * and a quiet sample read (sysinfo/linux.c, sysinfo/snapshot.c), in a
 * scratch tree that stands for the root.  The cgroup files are those of
 * a group whose hierarchy the mount table puts on /sys/fs/cgroup, as v2
 * or as a v1 controller's, and the uevent that names the block device
 * 8:0 (which io.max may limit).
 *
 * The input is the files below, in this order, separated by form feeds;
 * a file the input does not reach is absent.  Whatever they hold, the
 * snapshot of the tree, taken with the tree as its work directory,
 * either fails with a cause or passes check_snapshot() (fuzz_snapshot.h);
 * and the quiet counters either fail with a cause or count one CPU at
 * least and no negative load.
 */
#include "fuzz_snapshot.h"
#include "fuzz_files.h"
#include "sysinfo/sysinfo_int.h"

static const char *const fuzz_procfs_files[] = {
	"proc/cpuinfo",
	"proc/self/mountinfo",
	"proc/meminfo",
	"sys/devices/system/cpu/online",
	"proc/loadavg",
	"proc/stat",
	"proc/vmstat",
	"etc/os-release",
	"etc/locale.conf",
	"sys/kernel/mm/transparent_hugepage/enabled",
	"proc/1/environ",
	"proc/self/cgroup",
	"sys/fs/cgroup/cpu.max",
	"sys/fs/cgroup/memory.max",
	"sys/fs/cgroup/io.max",
	"sys/fs/cgroup/cpuset.cpus.effective",
	"sys/fs/cgroup/cpu.cfs_quota_us",
	"sys/fs/cgroup/blkio.throttle.write_bps_device",
	"sys/dev/block/8:0/uevent",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sysinfo_opts	 o;
	struct quiet_counters	 c;
	struct snapshot		*s;
	const char		*root;
	const uint8_t		*part;
	char			*cause = NULL;
	size_t			 i, len;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	root = fuzz_scratch_dir("fuzz-procfs");
	for (i = 0; i < sizeof(fuzz_procfs_files) /
	    sizeof(fuzz_procfs_files[0]); i++) {
		part = fuzz_part(data, size, i, &len);
		fuzz_put_file(root, fuzz_procfs_files[i], part, len);
	}

	sysinfo_opts_init(&o);
	o.root = root;
	o.pkgmgr = SYSINFO_PKG_NONE;
	o.cc = NULL;
	s = sysinfo_snapshot_take(root, &o, &cause);
	if (check_read(s != NULL ? 0 : -1, s, cause) == 0)
		sysinfo_snapshot_free(s);
	cause = NULL;

	if (sysinfo_os_counters(root, &c, &cause) == 0) {
		if (c.ncpu < 1 || c.load[0] < 0 || c.load[1] < 0 ||
		    c.load[2] < 0)
			abort();
	} else if (cause == NULL)
		abort();
	free(cause);
	return 0;
}
