/*
 * Linux: where each snapshot field and quiet counter lives.  Everything is
 * read from /proc, /sys and /etc under opts->root (a fixture tree in the
 * tests), the cgroup limits too (/proc/self/cgroup, then the hierarchy
 * where the mount table says it is mounted); only what has no file (the
 * work directory's stat, cpuid, the running libc, the CPU affinity mask)
 * comes from system calls.
 *
 * A field whose file is missing is left out: a machine without cpufreq
 * has no governor, which is different from a governor called "unknown".
 */
#ifdef __linux__

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

/* Set key to a value we own, if there is one. */
static void
linux_set(struct snapshot *s, const char *key, char *value)
{
	if (value != NULL && value[0] != '\0')
		sysinfo_snapshot_set(s, key, value);
	free(value);
}

/* The [selected] word of a sysfs choice list, or the whole value. */
static char *
linux_selected(char *v)
{
	char	*open, *close;

	if (v == NULL)
		return NULL;
	if ((open = strchr(v, '[')) != NULL &&
	    (close = strchr(open, ']')) != NULL) {
		memmove(v, open + 1, (size_t)(close - open - 1));
		v[close - open - 1] = '\0';
	}
	return v;
}

/*
 * CPU numbers a list may hold: far above any kernel's NR_CPUS, far below
 * where counting them could overflow.
 */
#define LINUX_CPU_MAX	(1L << 20)

/*
 * Count the CPUs of a list such as "0-3,8,10-11"; -1 if malformed, and
 * if it names a CPU past LINUX_CPU_MAX or more than INT_MAX of them.
 */
static int
linux_cpulist_count(const char *s)
{
	char	*end;
	long	 lo, hi;
	int	 n = 0;

	while (*s != '\0') {
		if (!isdigit((unsigned char)*s))
			return -1;
		lo = strtol(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			hi = strtol(end + 1, &end, 10);
			if (hi < lo)
				return -1;
		}
		if (hi > LINUX_CPU_MAX || hi - lo + 1 > INT_MAX - n)
			return -1;
		n += (int)(hi - lo + 1);
		s = end;
		if (*s == ',')
			s++;
		else if (*s != '\0' && !isspace((unsigned char)*s))
			return -1;
		else
			break;
	}
	return n;
}

/* Online CPUs from sysfs, else from sysconf. */
static int
linux_ncpu(const char *root)
{
	char	*v;
	int	 n = -1;

	if ((v = sysinfo_read_value(root, "/sys/devices/system/cpu/online")) !=
	    NULL) {
		n = linux_cpulist_count(v);
		free(v);
	}
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

/* The value of "Key: 1234 kB" in /proc/meminfo text; -1 if absent. */
static long long
linux_meminfo(const char *text, const char *key)
{
	const char	*p = text;
	size_t		 kl = strlen(key);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':')
			return strtoll(p + kl + 1, NULL, 10);
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return -1;
}

/* Add "key" with a number, when it is known. */
static void
linux_set_number(struct snapshot *s, const char *key, long long v)
{
	char	*t;

	if (v < 0)
		return;
	xasprintf(&t, "%lld", v);
	linux_set(s, key, t);
}

/* Kernel release, build string, arch and command line. */
static void
linux_kernel(struct snapshot *s, const char *root)
{
	struct utsname	 u;
	int		 have_uname;

	have_uname = uname(&u) == 0;
	if (sysinfo_snapshot_get(s, "kernel.release") == NULL)
		linux_set(s, "kernel.release", sysinfo_read_value(root,
		    "/proc/sys/kernel/osrelease"));
	if (sysinfo_snapshot_get(s, "kernel.release") == NULL && have_uname)
		sysinfo_snapshot_set(s, "kernel.release", u.release);
	linux_set(s, "kernel.version", sysinfo_read_value(root,
	    "/proc/sys/kernel/version"));
	if (sysinfo_snapshot_get(s, "kernel.version") == NULL && have_uname)
		sysinfo_snapshot_set(s, "kernel.version", u.version);
	if (have_uname)
		sysinfo_snapshot_set(s, "kernel.arch", u.machine);
	linux_set(s, "kernel.cmdline", sysinfo_read_value(root,
	    "/proc/cmdline"));
}

/* os-release(5), then Debian's point release from /etc/debian_version. */
static void
linux_os(struct snapshot *s, const char *root)
{
	sysinfo_os_release(s, root);
	linux_set(s, "os.debian_version", sysinfo_read_value(root,
	    "/etc/debian_version"));
}

/*
 * The value of the first "key : value" of /proc/cpuinfo: the first
 * processor's.  Not only in the file's first paragraph: LoongArch puts a
 * "system type" paragraph before the processors, s390x a summary of all
 * of them.
 */
static char *
linux_cpuinfo(const char *text, const char *key)
{
	const char	*p = text, *eol, *colon;
	size_t		 kl = strlen(key), n;

	while (*p != '\0') {
		eol = p + strcspn(p, "\n");
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon != NULL) {
			n = (size_t)(colon - p);
			while (n > 0 && isspace((unsigned char)p[n - 1]))
				n--;
			if (n == kl && strncmp(p, key, kl) == 0) {
				colon++;
				while (colon < eol && isspace((unsigned char)
				    *colon))
					colon++;
				return xstrndup(colon, (size_t)(eol - colon));
			}
		}
		p = *eol == '\0' ? eol : eol + 1;
	}
	return NULL;
}

/* Distinct values of a cpufreq policy file, sorted, joined by ','. */
static char *
linux_policy_values(const char *root, const char *file)
{
	glob_t	 g;
	char	*pattern, **vals = NULL, *v, *out;
	size_t	 n = 0, i, j;
	struct sysinfo_buf b = { NULL, 0, 0 };

	xasprintf(&pattern, "/sys/devices/system/cpu/cpufreq/policy*/%s",
	    file);
	v = sysinfo_path(root, pattern);
	free(pattern);
	if (glob(v, 0, NULL, &g) != 0) {
		free(v);
		return NULL;
	}
	free(v);
	for (i = 0; i < g.gl_pathc; i++) {
		if ((v = sysinfo_read_value(NULL, g.gl_pathv[i])) == NULL)
			continue;
		for (j = 0; j < n; j++) {
			if (strcmp(vals[j], v) == 0)
				break;
		}
		if (j < n || v[0] == '\0') {
			free(v);
			continue;
		}
		vals = xreallocarray(vals, n + 1, sizeof(*vals));
		vals[n++] = v;
	}
	globfree(&g);
	if (n == 0)
		return NULL;
	/* A few values at most: insertion sort. */
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && strcmp(vals[j - 1], vals[j]) > 0; j--) {
			v = vals[j];
			vals[j] = vals[j - 1];
			vals[j - 1] = v;
		}
	}
	for (i = 0; i < n; i++) {
		sysinfo_buf_addf(&b, "%s%s", i > 0 ? "," : "", vals[i]);
		free(vals[i]);
	}
	free(vals);
	out = sysinfo_buf_finish(&b);
	return out;
}

/* "1"/"0" as "on"/"off", inverted for no_turbo-style files. */
static char *
linux_onoff(char *v, int inverted)
{
	int	on;

	if (v == NULL)
		return NULL;
	if (strcmp(v, "1") != 0 && strcmp(v, "0") != 0)
		return v;
	on = (v[0] == '1') != inverted;
	free(v);
	return xstrdup(on ? "on" : "off");
}

/* Model, count, SMT, microcode, frequency policy, idle driver. */
static void
linux_cpu(struct snapshot *s, const char *root)
{
	static const char *const model_keys[] = {
		"model name",	/* x86, arm32 */
		"Model Name",	/* LoongArch */
		"cpu model",	/* MIPS */
		"uarch",	/* RISC-V */
		"cpu",		/* POWER */
		"Processor",	/* arm32 before 3.8 */
	};
	char	*path, *text = NULL, *v = NULL, *impl, *part;
	size_t	 i;

	path = sysinfo_path(root, "/proc/cpuinfo");
	if (sysinfo_read_file(path, 16 * 1024 * 1024, &text, NULL) == -1)
		text = NULL;
	free(path);
	if (text != NULL) {
		for (i = 0; i < nitems(model_keys) && v == NULL; i++)
			v = linux_cpuinfo(text, model_keys[i]);
		if (v == NULL) {
			/* arm64 says only who made the core and which. */
			impl = linux_cpuinfo(text, "CPU implementer");
			part = linux_cpuinfo(text, "CPU part");
			if (impl != NULL && part != NULL)
				xasprintf(&v, "implementer %s part %s", impl,
				    part);
			free(impl);
			free(part);
		}
		if (v == NULL) {
			/* s390x: the machine type (8561 is a z15). */
			impl = linux_cpuinfo(text, "vendor_id");
			part = linux_cpuinfo(text, "machine");
			if (impl != NULL && part != NULL &&
			    strcmp(impl, "IBM/S390") == 0)
				xasprintf(&v, "%s machine %s", impl, part);
			free(impl);
			free(part);
		}
		linux_set(s, "cpu.model", v);
		linux_set(s, "cpu.microcode", linux_cpuinfo(text,
		    "microcode"));
		free(text);
	}
	if (sysinfo_snapshot_get(s, "cpu.microcode") == NULL)
		linux_set(s, "cpu.microcode", sysinfo_read_value(root,
		    "/sys/devices/system/cpu/cpu0/microcode/version"));
	linux_set_number(s, "cpu.count", linux_ncpu(root));
	linux_set(s, "cpu.smt", sysinfo_read_value(root,
	    "/sys/devices/system/cpu/smt/control"));

	linux_set(s, "cpu.governor", linux_policy_values(root,
	    "scaling_governor"));
	linux_set(s, "cpu.freq_driver", linux_policy_values(root,
	    "scaling_driver"));
	linux_set(s, "cpu.epp", linux_policy_values(root,
	    "energy_performance_preference"));
	v = linux_onoff(sysinfo_read_value(root,
	    "/sys/devices/system/cpu/cpufreq/boost"), 0);
	if (v == NULL)
		v = linux_onoff(sysinfo_read_value(root,
		    "/sys/devices/system/cpu/intel_pstate/no_turbo"), 1);
	if (v == NULL)
		v = linux_onoff(linux_policy_values(root, "boost"), 0);
	linux_set(s, "cpu.boost", v);
	v = sysinfo_read_value(root, "/sys/devices/system/cpu/intel_pstate/"
	    "status");
	if (v == NULL)
		v = sysinfo_read_value(root, "/sys/devices/system/cpu/"
		    "amd_pstate/status");
	linux_set(s, "cpu.pstate", v);
	linux_set(s, "cpu.idle_driver", sysinfo_read_value(root,
	    "/sys/devices/system/cpu/cpuidle/current_driver"));
	linux_set(s, "cpu.isolated", sysinfo_read_value(root,
	    "/sys/devices/system/cpu/isolated"));
}

/* One cpu.mitigations.<name> per file the kernel has. */
static void
linux_mitigations(struct snapshot *s, const char *root)
{
	struct dirent	*de;
	DIR		*d;
	char		*dir, *path, *key;

	dir = sysinfo_path(root, "/sys/devices/system/cpu/vulnerabilities");
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		xasprintf(&key, "cpu.mitigations.%s", de->d_name);
		linux_set(s, key, sysinfo_read_value(NULL, path));
		free(key);
		free(path);
	}
	closedir(d);
	free(dir);
}

/* Memory, swap, huge pages and the vm knobs that move benchmarks. */
static void
linux_memory(struct snapshot *s, const char *root)
{
	char	*path, *text;

	path = sysinfo_path(root, "/proc/meminfo");
	if (sysinfo_read_file(path, 1024 * 1024, &text, NULL) == 0) {
		linux_set_number(s, "mem.total_kb", linux_meminfo(text,
		    "MemTotal"));
		linux_set_number(s, "swap.total_kb", linux_meminfo(text,
		    "SwapTotal"));
		linux_set_number(s, "mm.hugepages", linux_meminfo(text,
		    "HugePages_Total"));
		free(text);
	}
	free(path);
	linux_set(s, "mm.thp", linux_selected(sysinfo_read_value(root,
	    "/sys/kernel/mm/transparent_hugepage/enabled")));
	linux_set(s, "mm.thp_defrag", linux_selected(sysinfo_read_value(root,
	    "/sys/kernel/mm/transparent_hugepage/defrag")));
	linux_set(s, "mm.swappiness", sysinfo_read_value(root,
	    "/proc/sys/vm/swappiness"));
	linux_set(s, "mm.dirty_ratio", sysinfo_read_value(root,
	    "/proc/sys/vm/dirty_ratio"));
	linux_set(s, "mm.dirty_background_ratio", sysinfo_read_value(root,
	    "/proc/sys/vm/dirty_background_ratio"));
	linux_set(s, "mm.zswap", sysinfo_read_value(root,
	    "/sys/module/zswap/parameters/enabled"));
}

/* Undo the octal escapes (\040 for a space) of /proc mount tables. */
static void
linux_unescape(char *s)
{
	char	*r, *w;

	for (r = w = s; *r != '\0'; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' &&
		    r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
			    (r[3] - '0'));
			r += 3;
		} else
			*w++ = *r;
	}
	*w = '\0';
}

/* Is mount point m a directory prefix of path p? */
static size_t
linux_mount_prefix(const char *m, const char *p)
{
	size_t	n = strlen(m);

	if (strcmp(m, "/") == 0)
		return 1;
	if (strncmp(m, p, n) == 0 && (p[n] == '/' || p[n] == '\0'))
		return n;
	return 0;
}

/* Mount options, then the superblock's options it does not repeat. */
static char *
linux_merge_options(const char *mnt, const char *super)
{
	struct sysinfo_buf	 b = { NULL, 0, 0 };
	char			*copy, *opt, *save = NULL;
	const char		*p;
	size_t			 n;
	int			 seen;

	sysinfo_buf_adds(&b, mnt);
	copy = xstrdup(super);
	for (opt = strtok_r(copy, ",", &save); opt != NULL;
	    opt = strtok_r(NULL, ",", &save)) {
		seen = 0;
		n = strlen(opt);
		for (p = mnt; *p != '\0'; p += strcspn(p, ","),
		    p += *p == ',') {
			if (strncmp(p, opt, n) == 0 &&
			    (p[n] == ',' || p[n] == '\0')) {
				seen = 1;
				break;
			}
		}
		if (!seen)
			sysinfo_buf_addf(&b, ",%s", opt);
	}
	free(copy);
	return sysinfo_buf_finish(&b);
}

/* Set prefix.name ("fs.type") to a value we own, if there is one. */
static void
linux_fs_set(struct snapshot *s, const char *prefix, const char *name,
    char *value)
{
	char	*key;

	xasprintf(&key, "%s.%s", prefix, name);
	linux_set(s, key, value);
	free(key);
}

/*
 * The scheduler and rotational flag of the block device whose sysfs
 * directory link is: its queue, or the whole disk's for a partition, or
 * the first disk beneath a device-mapper or md device (whose own queue
 * says "none").  Under prefix, as linux_fs() sets its fields.
 */
static void
linux_block(struct snapshot *s, const char *prefix, const char *link)
{
	struct dirent	*de;
	DIR		*d;
	char		 real[PATH_MAX], *path, *v, *slave = NULL;
	int		 depth;

	if (realpath(link, real) == NULL)
		return;
	for (depth = 0; depth < 4; depth++) {
		xasprintf(&path, "%s/partition", real);
		if (access(path, F_OK) == 0) {
			*strrchr(real, '/') = '\0';
		}
		free(path);
		xasprintf(&path, "%s/slaves", real);
		slave = NULL;
		if ((d = opendir(path)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				if (de->d_name[0] != '.') {
					slave = xstrdup(de->d_name);
					break;
				}
			}
			closedir(d);
		}
		if (slave == NULL) {
			free(path);
			break;
		}
		xasprintf(&v, "%s/%s", path, slave);
		free(path);
		free(slave);
		if (realpath(v, real) == NULL) {
			free(v);
			return;
		}
		free(v);
	}
	xasprintf(&path, "%s/queue/scheduler", real);
	linux_fs_set(s, prefix, "scheduler", linux_selected(
	    sysinfo_read_value(NULL, path)));
	free(path);
	xasprintf(&path, "%s/queue/rotational", real);
	linux_fs_set(s, prefix, "rotational", sysinfo_read_value(NULL, path));
	free(path);
}

/*
 * The sysfs directory, under root, of the block device a mount's source
 * names: /sys/class/block/<name> for /dev/<name>, and for
 * /dev/mapper/<name> the device-mapper device whose dm/name it is; NULL
 * if sysfs knows none.  Read from sysfs, not by stat() of the node: a
 * service with PrivateDevices= (perfwatchd's unit) or a container has no
 * /dev/sda2, so its snapshot would lack what a hand run's has.
 */
static char *
linux_source_sysfs(const char *root, const char *source)
{
	glob_t		 g;
	const char	*name;
	char		*path = NULL, *v;
	size_t		 i;

	if (strncmp(source, "/dev/", 5) != 0)
		return NULL;
	name = source + 5;
	if (strncmp(name, "mapper/", 7) == 0) {
		name += 7;
		path = sysinfo_path(root, "/sys/class/block/dm-*/dm/name");
		if (glob(path, 0, NULL, &g) != 0) {
			free(path);
			return NULL;
		}
		free(path);
		path = NULL;
		for (i = 0; i < g.gl_pathc && path == NULL; i++) {
			if ((v = sysinfo_read_value(NULL, g.gl_pathv[i])) ==
			    NULL)
				continue;
			if (strcmp(v, name) == 0) {
				path = xstrdup(g.gl_pathv[i]);
				/* .../dm-0/dm/name: up to .../dm-0. */
				*strrchr(path, '/') = '\0';
				*strrchr(path, '/') = '\0';
			}
			free(v);
		}
		globfree(&g);
		return path;
	}
	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL)
		return NULL;
	xasprintf(&v, "/sys/class/block/%s", name);
	path = sysinfo_path(root, v);
	free(v);
	if (access(path, F_OK) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* One line of /proc/self/mountinfo, cut up in a copy and unescaped. */
struct linux_mount {
	char		*buf;
	unsigned int	 maj;
	unsigned int	 min;
	char		*root;		/* the directory of the filesystem */
	char		*point;		/* where it is mounted */
	char		*options;
	char		*type;
	char		*source;
	char		*super;		/* the superblock's options */
};

/*
 * Cut line (up to its newline) into m: "id parent maj:min root
 * mountpoint options [optional...] - type source superoptions".  -1 if
 * it is not such a line; otherwise free m->buf.
 */
static int
linux_mount_parse(const char *line, struct linux_mount *m)
{
	char	*tok[64], *save;
	size_t	 n;
	int	 i;

	memset(m, 0, sizeof(*m));
	m->buf = xstrndup(line, strcspn(line, "\n"));
	for (i = 0, tok[0] = strtok_r(m->buf, " ", &save); tok[i] != NULL &&
	    i < 63; )
		tok[++i] = strtok_r(NULL, " ", &save);
	for (n = 6; n < (size_t)i && strcmp(tok[n], "-") != 0; n++)
		;
	if (i < 6 || n + 2 >= (size_t)i ||
	    sscanf(tok[2], "%u:%u", &m->maj, &m->min) != 2) {
		free(m->buf);
		m->buf = NULL;
		return -1;
	}
	m->root = tok[3];
	m->point = tok[4];
	m->options = tok[5];
	m->type = tok[n + 1];
	m->source = tok[n + 2];
	m->super = n + 3 < (size_t)i ? tok[n + 3] : "";
	linux_unescape(m->root);
	linux_unescape(m->point);
	linux_unescape(m->source);
	return 0;
}

/*
 * Where the filesystem that mount m shows part of is itself mounted: the
 * mount point of the entry of the same superblock (device and options:
 * a btrfs subvolume is no part of the top one) that shows the most of it,
 * or NULL when none shows more than m.  A bind mount shows a directory of
 * a filesystem mounted elsewhere: systemd's PrivateTmp= puts
 * /var/tmp/systemd-private-.../tmp on /var/tmp in perfwatchd's namespace,
 * where a run typed by hand sees the same filesystem on /.
 */
static char *
linux_fs_whole(const char *text, const struct linux_mount *m)
{
	struct linux_mount	 e;
	const char		*line, *next;
	char			*point = NULL;
	size_t			 rootlen = strlen(m->root);

	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		if (linux_mount_parse(line, &e) == -1)
			continue;
		if (e.maj == m->maj && e.min == m->min &&
		    strcmp(e.super, m->super) == 0 &&
		    strlen(e.root) < rootlen &&
		    linux_mount_prefix(e.root, m->root) > 0) {
			free(point);
			point = xstrdup(e.point);
			rootlen = strlen(e.root);
		}
		free(e.buf);
	}
	return point;
}

/*
 * The filesystem that holds workdir: the mountinfo entry with its device
 * whose mount point is the longest prefix of the real path.  Its fields
 * are named prefix.mount, prefix.type and so on: "fs" for the work
 * directory, "workload.NAME.fs" for a workload's own (snapshot.c).
 */
static int
linux_fs(struct snapshot *s, const char *root, const char *prefix,
    const char *workdir, char **cause)
{
	struct linux_mount	 m, best;
	struct stat		 st;
	char			 real[PATH_MAX], *path, *text, *line, *next;
	char			*link, *whole;
	size_t			 plen, bestlen = 0;
	int			 bestdev = 0, samedev;

	if (stat(workdir, &st) == -1 || realpath(workdir, real) == NULL) {
		xasprintf(cause, "%s: %s", workdir, strerror(errno));
		return -1;
	}
	path = sysinfo_path(root, "/proc/self/mountinfo");
	if (sysinfo_read_file(path, 16 * 1024 * 1024, &text, NULL) == -1) {
		free(path);
		return 0;
	}
	free(path);

	memset(&best, 0, sizeof(best));
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		if (linux_mount_parse(line, &m) == -1)
			continue;
		samedev = makedev(m.maj, m.min) == st.st_dev;
		plen = linux_mount_prefix(m.point, real);
		if (plen != 0 && (!bestdev || samedev) &&
		    ((samedev && !bestdev) || plen >= bestlen)) {
			free(best.buf);
			best = m;
			bestlen = plen;
			bestdev = samedev;
		} else
			free(m.buf);
	}
	if (best.buf == NULL) {
		free(text);
		return 0;
	}

	whole = linux_fs_whole(text, &best);
	linux_fs_set(s, prefix, "mount", whole != NULL ? whole :
	    xstrdup(best.point));
	linux_fs_set(s, prefix, "type", xstrdup(best.type));
	linux_fs_set(s, prefix, "device", xstrdup(best.source));
	linux_fs_set(s, prefix, "options", linux_merge_options(best.options,
	    best.super));
	/* btrfs and the like show an anonymous device: use the source's. */
	if (best.maj != 0) {
		xasprintf(&path, "/sys/dev/block/%u:%u", best.maj, best.min);
		link = sysinfo_path(root, path);
		free(path);
	} else
		link = linux_source_sysfs(root, best.source);
	if (link != NULL)
		linux_block(s, prefix, link);
	free(link);
	free(best.buf);
	free(text);
	return 0;
}

/*
 * The limits the processes of a run have, which the machine's own figures
 * do not show: in a container or a systemd unit with CPUQuota= or
 * MemoryMax=, cpu.count and mem.total_kb are the host's, so a run under a
 * tighter quota would look like one on the same machine and a changed
 * limit would never be in a diff.  Read from the control group this
 * process is in (/proc/self/cgroup), which the workloads it forks inherit:
 *
 *   cgroup.cpu.max	"quota period" (microseconds) of the group, on the
 *			way up to the hierarchy's root, that allows the
 *			fewest CPUs (quota / period)
 *   cgroup.cpuset.cpus	the CPUs the nearest cpuset allows, as the kernel
 *			lists them
 *   cgroup.memory.max	bytes, the lowest limit on the way up
 *   cgroup.memory.high	bytes, likewise (v2 only)
 *   cgroup.io.max	per device, by its name where sysfs gives one, the
 *			lowest of each of rbps, wbps, riops and wiops on
 *			the way up: "nvme0n1 riops=1000; sda wbps=10485760"
 *   cpu.affinity	how many CPUs sched_getaffinity() allows (taskset,
 *			numactl, a cpuset), a count
 *
 * A resource without a limit leaves its key out: cgroup v2's "max", v1's
 * quota of -1 and its "unlimited" memory (LONG_MAX rounded down to a page;
 * anything of 4 EiB or more is taken as none), a cpuset or an affinity
 * that allows every online CPU.  A machine without limits thus keeps the
 * snapshot (and hash) it had before these keys existed, and a limit set,
 * changed or lifted is a field added, changed or removed in a diff.
 *
 * cgroup v2 first; on a v1 or hybrid machine each v1 controller's own
 * hierarchy fills the same keys (cpu.cfs_quota_us and cpu.cfs_period_us,
 * cpuset.effective_cpus, memory.limit_in_bytes, blkio.throttle.*).  v1's
 * memory.soft_limit_in_bytes is no ceiling and is left out.  The walk up
 * stops at the hierarchy's mount: a container sees the limits set on its
 * own group (its cgroup namespace's root), not the host's above it.  The
 * group's path is not recorded: perfwatchd's service and a login shell's
 * session differ although their limits may be the same.
 *
 * FreeBSD has rctl(8) (pcpu, memoryuse, readbps ...) and cpuset(1) for a
 * jail or a process; freebsd.c does not read them yet.
 */

/* Does the comma-separated list hold word? */
static int
linux_word_in(const char *list, const char *word)
{
	const char	*p;
	size_t		 n = strlen(word);

	for (p = list; *p != '\0'; p += strcspn(p, ","), p += *p == ',') {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * The directories, deepest first and under root, from this process's
 * group up to the mount of the hierarchy of cgroup v2 (controller NULL)
 * or of the v1 controller named; NULL (*n 0) when none is mounted or the
 * group lies outside the mount (above a cgroup namespace's root, "/..").
 * groups is /proc/self/cgroup ("id:controllers:path" lines), mounts
 * /proc/self/mountinfo.
 */
static char **
linux_cgroup_dirs(const char *root, const char *groups, const char *mounts,
    const char *controller, size_t *n)
{
	struct linux_mount	 m;
	const char		*line, *next, *rel, *up;
	char			*copy = NULL, *ctl, *path = NULL, *top, *dir;
	char			*slash, **dirs = NULL;
	size_t			 toplen = 0;

	*n = 0;
	for (line = groups; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		copy = xstrndup(line, strcspn(line, "\n"));
		if ((ctl = strchr(copy, ':')) != NULL &&
		    (path = strchr(ctl + 1, ':')) != NULL) {
			*ctl++ = '\0';
			*path++ = '\0';
			if (controller == NULL ? strcmp(copy, "0") == 0 &&
			    *ctl == '\0' : linux_word_in(ctl, controller))
				break;
		}
		free(copy);
		copy = NULL;
	}
	if (copy == NULL)
		return NULL;
	if (path[0] != '/' || ((up = strstr(path, "/..")) != NULL &&
	    (up[3] == '/' || up[3] == '\0'))) {
		free(copy);
		return NULL;
	}

	dir = NULL;
	for (line = mounts; line != NULL && *line != '\0' && dir == NULL;
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			next++;
		if (linux_mount_parse(line, &m) == -1)
			continue;
		if (controller == NULL ? strcmp(m.type, "cgroup2") == 0 :
		    strcmp(m.type, "cgroup") == 0 &&
		    linux_word_in(m.super, controller)) {
			/* A container's mount may show a group as its root. */
			rel = NULL;
			if (strcmp(m.root, "/") == 0)
				rel = path;
			else if (linux_mount_prefix(m.root, path) > 0)
				rel = path + strlen(m.root);
			if (rel != NULL) {
				top = sysinfo_path(root, m.point);
				rel += strspn(rel, "/");
				if (*rel == '\0')
					dir = xstrdup(top);
				else
					xasprintf(&dir, "%s/%s", top, rel);
				toplen = strlen(top);
				free(top);
			}
		}
		free(m.buf);
	}
	free(copy);
	if (dir == NULL)
		return NULL;

	for (;;) {
		dirs = xreallocarray(dirs, *n + 1, sizeof(*dirs));
		dirs[(*n)++] = xstrdup(dir);
		if (strlen(dir) <= toplen || (slash = strrchr(dir, '/')) ==
		    NULL || slash < dir + toplen)
			break;
		*slash = '\0';
	}
	free(dir);
	return dirs;
}

static void
linux_cgroup_dirs_free(char **dirs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

/* Limits of 4 EiB or more are none: v1's "unlimited" is about 8 EiB. */
#define LINUX_CGROUP_NONE	(UINT64_C(1) << 62)

/*
 * A limit as a cgroup file writes it, below LINUX_CGROUP_NONE; -1 for
 * "max", v1's -1 and anything else.
 */
static int
linux_cgroup_number(const char *s, uint64_t *v)
{
	char			*end;
	unsigned long long	 n;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || n >= LINUX_CGROUP_NONE)
		return -1;
	*v = n;
	return 0;
}

/* The value of file in directory dir, or NULL. */
static char *
linux_cgroup_read(const char *dir, const char *file)
{
	char	*path, *v;

	xasprintf(&path, "%s/%s", dir, file);
	v = sysinfo_read_value(NULL, path);
	free(path);
	return v;
}

/* The lowest limit file sets in the directories; 0 if none does. */
static int
linux_cgroup_min(char **dirs, size_t n, const char *file, uint64_t *min)
{
	uint64_t	 v;
	char		*s;
	size_t		 i;
	int		 found = 0;

	for (i = 0; i < n; i++) {
		if ((s = linux_cgroup_read(dirs[i], file)) == NULL)
			continue;
		if (linux_cgroup_number(s, &v) == 0 && (!found || v < *min)) {
			*min = v;
			found = 1;
		}
		free(s);
	}
	return found;
}

/* A group's CPU quota and period: v2's cpu.max, else v1's pair. */
static int
linux_cgroup_quota(const char *dir, int v1, uint64_t *quota,
    uint64_t *period)
{
	char	*q, *p = NULL;
	int	 rc = -1;

	if (!v1) {
		if ((q = linux_cgroup_read(dir, "cpu.max")) == NULL)
			return -1;
		if ((p = strchr(q, ' ')) != NULL)
			*p++ = '\0';
	} else {
		if ((q = linux_cgroup_read(dir, "cpu.cfs_quota_us")) == NULL)
			return -1;
		p = linux_cgroup_read(dir, "cpu.cfs_period_us");
	}
	if (p != NULL && linux_cgroup_number(q, quota) == 0 &&
	    linux_cgroup_number(p, period) == 0 && *quota > 0 && *period > 0)
		rc = 0;
	if (v1)
		free(p);
	free(q);
	return rc;
}

/* The quota and period that allow the fewest CPUs; 0 if none is set. */
static int
linux_cgroup_fewest(char **dirs, size_t n, int v1, uint64_t *bq,
    uint64_t *bp)
{
	uint64_t	 q, p;
	size_t		 i;

	*bq = *bp = 0;
	for (i = 0; i < n; i++) {
		if (linux_cgroup_quota(dirs[i], v1, &q, &p) == -1)
			continue;
		if (*bp == 0 ||
		    (double)q * (double)*bp < (double)*bq * (double)p) {
			*bq = q;
			*bp = p;
		}
	}
	return *bp != 0;
}

/* cgroup.cpu.max: the quota that allows the fewest CPUs. */
static void
linux_cgroup_cpu(struct snapshot *s, char **dirs, size_t n, int v1)
{
	uint64_t	 bq, bp;
	char		*t;

	if (!linux_cgroup_fewest(dirs, n, v1, &bq, &bp))
		return;
	xasprintf(&t, "%llu %llu", (unsigned long long)bq,
	    (unsigned long long)bp);
	linux_set(s, "cgroup.cpu.max", t);
}

/* cgroup.cpuset.cpus: the nearest cpuset, if it leaves a CPU out. */
static void
linux_cgroup_cpuset(struct snapshot *s, const char *root, char **dirs,
    size_t n, int v1)
{
	char	*v = NULL;
	size_t	 i;
	int	 count;

	for (i = 0; i < n && v == NULL; i++) {
		v = linux_cgroup_read(dirs[i], v1 ? "cpuset.effective_cpus" :
		    "cpuset.cpus.effective");
		if (v == NULL && v1)
			v = linux_cgroup_read(dirs[i], "cpuset.cpus");
		if (v != NULL && v[0] == '\0') {
			free(v);
			v = NULL;
		}
	}
	if (v == NULL)
		return;
	count = linux_cpulist_count(v);
	if (count > 0 && count < linux_ncpu(root))
		linux_set(s, "cgroup.cpuset.cpus", v);
	else
		free(v);
}

/*
 * One device's I/O limits: rbps, wbps, riops, wiops (UINT64_MAX: none);
 * name is what the field calls the device (linux_io_name()).
 */
struct linux_io_limit {
	unsigned int	 maj;
	unsigned int	 min;
	uint64_t	 v[4];
	char		*name;
	int		 named;		/* name is not "maj:min" */
};

static const char *const linux_io_keys[4] = {
	"rbps", "wbps", "riops", "wiops"
};

/* Lower the limit k of device maj:min to v. */
static void
linux_io_note(struct linux_io_limit **t, size_t *n, unsigned int maj,
    unsigned int min, int k, uint64_t v)
{
	size_t	i, j;

	for (i = 0; i < *n; i++) {
		if ((*t)[i].maj == maj && (*t)[i].min == min)
			break;
	}
	if (i == *n) {
		*t = xreallocarray(*t, *n + 1, sizeof(**t));
		(*t)[i].maj = maj;
		(*t)[i].min = min;
		for (j = 0; j < nitems((*t)[i].v); j++)
			(*t)[i].v[j] = UINT64_MAX;
		(*n)++;
	}
	if (v < (*t)[i].v[k])
		(*t)[i].v[k] = v;
}

/*
 * What cgroup.io.max calls block device l: the kernel's name of it
 * ("sda", "nvme0n1"), DEVNAME in its uevent under root's /sys/dev/block,
 * with l->named set.  The numbers mean nothing to whoever reads a diff,
 * and some change from one boot to the next with the same disks: a major
 * the kernel hands a driver as it loads (virtio-blk's), minors given out
 * in the order the disks are found (NVMe's under 259).  The name is also
 * what the limit was set by (systemd's IOWriteBandwidthMax=/dev/sda ...).
 * "maj:min" when sysfs does not know the device (gone since, or no /sys
 * in a container), or when its name would not read back in the field
 * (empty, or with a blank, '=' or ';').
 */
static void
linux_io_name(const char *root, struct linux_io_limit *l)
{
	char	*rel, *path, *text, *line, *next;
	size_t	 len;

	l->name = NULL;
	xasprintf(&rel, "/sys/dev/block/%u:%u/uevent", l->maj, l->min);
	path = sysinfo_path(root, rel);
	free(rel);
	if (sysinfo_read_file(path, 64 * 1024, &text, NULL) == 0) {
		for (line = text; line != NULL && *line != '\0'; line = next) {
			if ((next = strchr(line, '\n')) != NULL)
				next++;
			if (strncmp(line, "DEVNAME=", 8) != 0)
				continue;
			line += 8;
			len = strcspn(line, "\n");
			if (len > 0 && len < 256 &&
			    strcspn(line, " \t=;") >= len)
				l->name = xstrndup(line, len);
			break;
		}
		free(text);
	}
	free(path);
	l->named = l->name != NULL;
	if (l->name == NULL)
		xasprintf(&l->name, "%u:%u", l->maj, l->min);
}

/*
 * The order of the devices in cgroup.io.max: by name, so that disks that
 * swap numbers at a boot do not swap places; devices known only by
 * their numbers after the named ones, by number.
 */
static int
linux_io_before(const struct linux_io_limit *a, const struct linux_io_limit *b)
{
	if (a->named != b->named)
		return a->named;
	if (!a->named)
		return a->maj < b->maj || (a->maj == b->maj && a->min < b->min);
	return strcmp(a->name, b->name) < 0;
}

/*
 * cgroup.io.max from v2's io.max ("8:0 rbps=max wbps=10485760 ...") or
 * v1's blkio.throttle.{read,write}_{bps,iops}_device ("8:0 10485760"),
 * each device by its name (linux_io_name()).
 */
static void
linux_cgroup_io(struct snapshot *s, const char *root, char **dirs, size_t n,
    int v1)
{
	static const char *const v1_files[4] = {
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_iops_device",
	};
	struct linux_io_limit	*t = NULL, x;
	struct sysinfo_buf	 b = { NULL, 0, 0 };
	unsigned int		 maj, min;
	uint64_t		 v;
	char			*text, *line, *next, *tok, *save, *eq;
	size_t			 i, j, nt = 0, nk;
	int			 k, off, first;

	for (i = 0; i < n; i++) {
		for (nk = 0; nk < (v1 ? 4 : 1); nk++) {
			text = linux_cgroup_read(dirs[i], v1 ? v1_files[nk] :
			    "io.max");
			for (line = text; line != NULL && *line != '\0';
			    line = next) {
				if ((next = strchr(line, '\n')) != NULL)
					*next++ = '\0';
				if (sscanf(line, "%u:%u%n", &maj, &min, &off) !=
				    2)
					continue;
				for (tok = strtok_r(line + off, " ", &save);
				    tok != NULL; tok = strtok_r(NULL, " ",
				    &save)) {
					k = (int)nk;
					if (!v1) {
						if ((eq = strchr(tok, '=')) ==
						    NULL)
							continue;
						*eq++ = '\0';
						for (k = 0; k < 4; k++)
							if (strcmp(tok,
							    linux_io_keys[k])
							    == 0)
								break;
						if (k == 4)
							continue;
						tok = eq;
					}
					if (linux_cgroup_number(tok, &v) == 0)
						linux_io_note(&t, &nt, maj, min,
						    k, v);
				}
			}
			free(text);
		}
	}
	for (i = 0; i < nt; i++)
		linux_io_name(root, &t[i]);
	/* A few devices at most: insertion sort. */
	for (i = 1; i < nt; i++) {
		for (j = i; j > 0 && linux_io_before(&t[j], &t[j - 1]); j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	for (i = 0; i < nt; i++) {
		for (k = 0, first = 1; k < 4; k++) {
			if (t[i].v[k] == UINT64_MAX)
				continue;
			if (first)
				sysinfo_buf_addf(&b, "%s%s", b.len > 0 ?
				    "; " : "", t[i].name);
			sysinfo_buf_addf(&b, " %s=%llu", linux_io_keys[k],
			    (unsigned long long)t[i].v[k]);
			first = 0;
		}
		free(t[i].name);
	}
	free(t);
	linux_set(s, "cgroup.io.max", sysinfo_buf_finish(&b));
}

/* Set key to a number of bytes. */
static void
linux_cgroup_set_bytes(struct snapshot *s, const char *key, char **dirs,
    size_t n, const char *file)
{
	uint64_t	v;

	if (linux_cgroup_min(dirs, n, file, &v))
		linux_set_number(s, key, (long long)v);
}

/*
 * This process's /proc/self/cgroup and /proc/self/mountinfo under root;
 * -1 (nothing to free) when either cannot be read.
 */
static int
linux_cgroup_tables(const char *root, char **groups, char **mounts)
{
	char	*path;
	int	 rc = -1;

	*groups = *mounts = NULL;
	path = sysinfo_path(root, "/proc/self/cgroup");
	if (sysinfo_read_file(path, 1024 * 1024, groups, NULL) == -1)
		*groups = NULL;
	free(path);
	path = sysinfo_path(root, "/proc/self/mountinfo");
	if (*groups != NULL && sysinfo_read_file(path, 16 * 1024 * 1024,
	    mounts, NULL) == 0)
		rc = 0;
	free(path);
	if (rc == -1) {
		free(*groups);
		*groups = *mounts = NULL;
	}
	return rc;
}

/* The cgroup.* fields: v2's hierarchy, else each v1 controller's. */
static void
linux_cgroup(struct snapshot *s, const char *root)
{
	char		*groups, *mounts, **v2, **v1;
	size_t		 n2, n1;

	if (linux_cgroup_tables(root, &groups, &mounts) == -1)
		return;

	v2 = linux_cgroup_dirs(root, groups, mounts, NULL, &n2);
	linux_cgroup_cpu(s, v2, n2, 0);
	linux_cgroup_cpuset(s, root, v2, n2, 0);
	linux_cgroup_set_bytes(s, "cgroup.memory.max", v2, n2, "memory.max");
	linux_cgroup_set_bytes(s, "cgroup.memory.high", v2, n2,
	    "memory.high");
	linux_cgroup_io(s, root, v2, n2, 0);
	linux_cgroup_dirs_free(v2, n2);

	/*
	 * A controller is bound to one hierarchy: where v2 set nothing, a
	 * v1 controller may.
	 */
	if (sysinfo_snapshot_get(s, "cgroup.cpu.max") == NULL) {
		v1 = linux_cgroup_dirs(root, groups, mounts, "cpu", &n1);
		linux_cgroup_cpu(s, v1, n1, 1);
		linux_cgroup_dirs_free(v1, n1);
	}
	if (sysinfo_snapshot_get(s, "cgroup.cpuset.cpus") == NULL) {
		v1 = linux_cgroup_dirs(root, groups, mounts, "cpuset", &n1);
		linux_cgroup_cpuset(s, root, v1, n1, 1);
		linux_cgroup_dirs_free(v1, n1);
	}
	if (sysinfo_snapshot_get(s, "cgroup.memory.max") == NULL) {
		v1 = linux_cgroup_dirs(root, groups, mounts, "memory", &n1);
		linux_cgroup_set_bytes(s, "cgroup.memory.max", v1, n1,
		    "memory.limit_in_bytes");
		linux_cgroup_dirs_free(v1, n1);
	}
	if (sysinfo_snapshot_get(s, "cgroup.io.max") == NULL) {
		v1 = linux_cgroup_dirs(root, groups, mounts, "blkio", &n1);
		linux_cgroup_io(s, root, v1, n1, 1);
		linux_cgroup_dirs_free(v1, n1);
	}
	free(mounts);
	free(groups);
}

/* How many CPUs sched_getaffinity() allows this process; -1 if unknown. */
static int
linux_affinity_count(void)
{
	cpu_set_t	*set;
	size_t		 ncpu = 1024;
	int		 n = -1;

	for (;;) {
		if ((set = CPU_ALLOC(ncpu)) == NULL)
			fatal("%s", __func__);
		if (sched_getaffinity(0, CPU_ALLOC_SIZE(ncpu), set) == 0) {
			n = CPU_COUNT_S(CPU_ALLOC_SIZE(ncpu), set);
			CPU_FREE(set);
			break;
		}
		CPU_FREE(set);
		if (errno != EINVAL || ncpu >= LINUX_CPU_MAX)
			break;
		ncpu *= 2;
	}
	return n > 0 ? n : -1;
}

/*
 * proc.ioprio for the value ioprio_get(2) gave, or NULL at the default.
 * A process that never set one (class none) has for the kernel the class
 * its scheduling policy implies (idle under SCHED_IDLE, real-time under
 * a real-time policy, else best-effort) at level (nice + 20) / 5.  That
 * class and level set by hand, as "ionice -c2 -n4" at nice 0, is the same
 * to every I/O scheduler, so it is the default too: recording it would
 * show a change in env diff where there is none.  The idle class has no
 * level that any scheduler weighs.
 */
char *
sysinfo_linux_ioprio(int prio, int nice, int policy)
{
	char	*t;
	int	 class, level, dclass;

	if (prio < 0)
		return NULL;
	class = prio >> 13;		/* the class above 13 bits of level */
	level = prio & 0x1fff;
	switch (policy) {
	case SCHED_IDLE:
		dclass = 3;
		break;
	case SCHED_FIFO:
	case SCHED_RR:
#ifdef SCHED_DEADLINE
	case SCHED_DEADLINE:
#endif
		dclass = 1;
		break;
	default:
		dclass = 2;
		break;
	}
	if (class == dclass && (class == 3 || level == (nice + 20) / 5))
		return NULL;
	switch (class) {
	case 1:
		xasprintf(&t, "rt/%d", level);
		return t;
	case 2:
		xasprintf(&t, "be/%d", level);
		return t;
	case 3:
		return xstrdup("idle");
	default:
		/* None set: the level follows nice, as proc.nice says. */
		return NULL;
	}
}

/*
 * What the process asks of the schedulers, which its workloads inherit:
 * proc.nice (nice(1), a service's Nice=), proc.sched (a policy other
 * than the default: batch or idle, chrt(1)) and proc.ioprio (a class
 * ionice(1) or IOSchedulingClass= set: "be/7", "idle", "rt/0").  A
 * workload at nice 10, or a disk workload in the idle I/O class, is
 * slower beside any other load; each is left out at its default, so
 * that a machine run as usual keeps its snapshot, and a run typed under
 * nice shows in env diff beside one that was not.
 */
static void
linux_priority(struct snapshot *s)
{
	char	*t;
	int	 nice, policy, prio;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	if (errno != 0)
		nice = 0;
	else if (nice != 0) {
		xasprintf(&t, "%d", nice);
		linux_set(s, "proc.nice", t);
	}
	policy = sched_getscheduler(0);
	if (policy != -1)
		policy &= ~SCHED_RESET_ON_FORK;
	t = NULL;
	if (policy == SCHED_BATCH)
		t = xstrdup("batch");
	else if (policy == SCHED_IDLE)
		t = xstrdup("idle");
	else if (policy == SCHED_FIFO)
		t = xstrdup("fifo");
	else if (policy == SCHED_RR)
		t = xstrdup("rr");
	linux_set(s, "proc.sched", t);
#ifdef SYS_ioprio_get
	/* IOPRIO_WHO_PROCESS 1, this process. */
	prio = (int)syscall(SYS_ioprio_get, 1, 0);
	linux_set(s, "proc.ioprio", sysinfo_linux_ioprio(prio, nice, policy));
#else
	(void)prio;
#endif
}

/* cpu.affinity: the CPUs this process may run on, if not every one. */
static void
linux_affinity(struct snapshot *s)
{
	long	online;
	int	n;

	n = linux_affinity_count();
	/* The live machine's CPUs, as the mask is: not those of a root. */
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0 && online > 0 && n < online)
		linux_set_number(s, "cpu.affinity", n);
}

/*
 * What this process may use (sysinfo.h).  The CPUs: the affinity mask
 * (which a cpuset already narrows), capped by the CPU quota that allows
 * the fewest CPUs, rounded up, as Go's runtime and the JVM size their
 * thread pools: a quota of 1.5 CPUs is two threads that the quota
 * throttles, rather than one that leaves half a CPU unused.  The memory:
 * MemTotal (else sysconf), capped by the lowest memory.max or
 * memory.high on the way up (v2), else memory.limit_in_bytes (v1).
 * memory.high is no hard limit, but a group above it is throttled and
 * reclaimed until it is back below: a working set sized past it measures
 * that reclaim, not the machine.  The page cache counts against both, so
 * a file of twice the limit is as far out of the cache as one of twice
 * the RAM is on a machine without limits.
 */
void
sysinfo_allowed(const char *root, struct sysinfo_allowed *a)
{
	char		*path, *text, *groups, *mounts, **dirs;
	uint64_t	 q, p, limit = 0, high;
	long long	 kb = -1;
	long		 pages, pagesize;
	size_t		 n;
	int		 n_aff, quota = 0, limited = 0;

	memset(a, 0, sizeof(*a));
	a->online = linux_ncpu(root);
	path = sysinfo_path(root, "/proc/meminfo");
	if (sysinfo_read_file(path, 1024 * 1024, &text, NULL) == 0) {
		kb = linux_meminfo(text, "MemTotal");
		free(text);
	}
	free(path);
	if (kb > 0)
		a->ram = (uint64_t)kb * 1024;
	else if ((pages = sysconf(_SC_PHYS_PAGES)) > 0 &&
	    (pagesize = sysconf(_SC_PAGESIZE)) > 0)
		a->ram = (uint64_t)pages * (uint64_t)pagesize;

	if (linux_cgroup_tables(root, &groups, &mounts) == 0) {
		dirs = linux_cgroup_dirs(root, groups, mounts, NULL, &n);
		quota = linux_cgroup_fewest(dirs, n, 0, &q, &p);
		limited = linux_cgroup_min(dirs, n, "memory.max", &limit);
		if (linux_cgroup_min(dirs, n, "memory.high", &high) &&
		    (!limited || high < limit)) {
			limit = high;
			limited = 1;
		}
		linux_cgroup_dirs_free(dirs, n);
		/* A controller is bound to one hierarchy, as above. */
		if (!quota) {
			dirs = linux_cgroup_dirs(root, groups, mounts, "cpu",
			    &n);
			quota = linux_cgroup_fewest(dirs, n, 1, &q, &p);
			linux_cgroup_dirs_free(dirs, n);
		}
		if (!limited) {
			dirs = linux_cgroup_dirs(root, groups, mounts,
			    "memory", &n);
			limited = linux_cgroup_min(dirs, n,
			    "memory.limit_in_bytes", &limit);
			linux_cgroup_dirs_free(dirs, n);
		}
		free(mounts);
		free(groups);
	}

	/* The mask is the live process's, whatever root is. */
	n_aff = linux_affinity_count();
	a->cpus = n_aff > 0 ? n_aff : a->online;
	if (quota && (double)q / (double)p < (double)a->cpus) {
		a->cpus = (int)((q + p - 1) / p);
		a->cpu_quota = 1;
	}
	if (a->cpus < 1)
		a->cpus = 1;
	a->memory = a->ram;
	if (limited && (a->ram == 0 || limit < a->ram)) {
		a->memory = limit;
		a->memory_limited = 1;
	}
}

#if defined(__x86_64__) || defined(__i386__)
/* The hypervisor cpuid announces, or NULL on bare metal. */
static char *
linux_cpuid_hypervisor(void)
{
	static const struct {
		const char	*sig;
		const char	*name;
	} known[] = {
		{ "KVMKVMKVM", "kvm" },
		{ "Linux KVM Hv", "kvm" },
		{ "Microsoft Hv", "microsoft" },
		{ "VMwareVMware", "vmware" },
		{ "XenVMMXenVMM", "xen" },
		{ "TCGTCGTCGTCG", "qemu" },
		{ "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "acrn" },
		{ "VBoxVBoxVBox", "oracle" },
		{ " lrpepyh  vr", "parallels" },
		{ "QNXQVMBSQG", "qnx" },
	};
	unsigned int	 a, b, c, d;
	char		 sig[13], *p;
	size_t		 i;

	if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1U << 31)) == 0)
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (i = 0; i < nitems(known); i++) {
		if (strcmp(sig, known[i].sig) == 0)
			return xstrdup(known[i].name);
	}
	/* Unknown: keep what it says, readable. */
	for (p = sig; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p))
			*p = ' ';
		else
			*p = (char)tolower((unsigned char)*p);
	}
	p = sysinfo_trim(sig);
	return xstrdup(p[0] != '\0' ? p : "hypervisor");
}
#endif

/* A hypervisor from the firmware tables, for CPUs without cpuid. */
static char *
linux_dmi_hypervisor(const char *root)
{
	static const struct {
		const char	*vendor;
		const char	*name;
	} known[] = {
		{ "QEMU", "qemu" },
		{ "innotek GmbH", "oracle" },
		{ "VMware, Inc.", "vmware" },
		{ "Xen", "xen" },
		{ "Amazon EC2", "amazon" },
		{ "Google", "google" },
		{ "Parallels", "parallels" },
		{ "BHYVE", "bhyve" },
		{ "Bochs", "bochs" },
	};
	char	*vendor, *product, *v = NULL;
	size_t	 i;

	if ((v = sysinfo_read_value(root, "/sys/hypervisor/type")) != NULL)
		return v;
	if ((v = sysinfo_read_value(root,
	    "/proc/device-tree/hypervisor/compatible")) != NULL) {
		if (strstr(v, "kvm") != NULL) {
			free(v);
			return xstrdup("kvm");
		}
		if (strstr(v, "xen") != NULL) {
			free(v);
			return xstrdup("xen");
		}
		free(v);
		v = NULL;
	}
	vendor = sysinfo_read_value(root, "/sys/class/dmi/id/sys_vendor");
	product = sysinfo_read_value(root, "/sys/class/dmi/id/product_name");
	for (i = 0; vendor != NULL && i < nitems(known); i++) {
		if (strcmp(vendor, known[i].vendor) == 0) {
			v = xstrdup(known[i].name);
			break;
		}
	}
	if (v == NULL && vendor != NULL && product != NULL &&
	    strcmp(vendor, "Microsoft Corporation") == 0 &&
	    strcmp(product, "Virtual Machine") == 0)
		v = xstrdup("microsoft");
	free(vendor);
	free(product);
	return v;
}

/*
 * The container manager we run under, or NULL: none, or, with *unknown
 * set, none that this user can see.  Without systemd in the container
 * only init's environment may say so, and /proc/1/environ is readable by
 * root alone: a user's snapshot then leaves virt.container out rather
 * than say "none" where root's says "lxc", and the diff does not count
 * it missing (diff.c).
 */
static char *
linux_container(const char *root, int *unknown)
{
	char	*v, *path, *env, *p;
	size_t	 len;
	int	 unread = 0;

	*unknown = 0;
	if ((v = sysinfo_read_value(root, "/run/systemd/container")) != NULL)
		return v;
	/* The container interface's word to every process (nspawn). */
	if ((v = sysinfo_read_value(root,
	    "/run/host/container-manager")) != NULL)
		return v;
	path = sysinfo_path(root, "/proc/1/environ");
	if (sysinfo_read_file(path, 1024 * 1024, &env, &len) == -1)
		unread = errno != ENOENT;
	else {
		for (p = env; p < env + len; p += strlen(p) + 1) {
			if (strncmp(p, "container=", 10) == 0 &&
			    p[10] != '\0') {
				v = xstrdup(p + 10);
				break;
			}
		}
		free(env);
	}
	free(path);
	if (v != NULL)
		return v;
	path = sysinfo_path(root, "/.dockerenv");
	if (access(path, F_OK) == 0)
		v = xstrdup("docker");
	free(path);
	if (v != NULL)
		return v;
	path = sysinfo_path(root, "/run/.containerenv");
	if (access(path, F_OK) == 0)
		v = xstrdup("podman");
	free(path);
	if (v != NULL)
		return v;
	if ((v = sysinfo_read_value(root, "/proc/sys/kernel/osrelease")) !=
	    NULL) {
		if (strstr(v, "microsoft") != NULL ||
		    strstr(v, "Microsoft") != NULL) {
			free(v);
			return xstrdup("wsl");
		}
		free(v);
		v = NULL;
	}
	path = sysinfo_path(root, "/proc/vz");
	if (access(path, F_OK) == 0) {
		free(path);
		path = sysinfo_path(root, "/proc/bc");
		if (access(path, F_OK) != 0)
			v = xstrdup("openvz");
	}
	free(path);
	if (v == NULL && unread)
		*unknown = 1;
	return v;
}

/* virt (the hypervisor or "none") and virt.container. */
static void
linux_virt(struct snapshot *s, const char *root)
{
	char	*v = NULL;
	int	 unknown;

#if defined(__x86_64__) || defined(__i386__)
	v = linux_cpuid_hypervisor();
#endif
	if (v == NULL)
		v = linux_dmi_hypervisor(root);
	linux_set(s, "virt", v != NULL ? v : xstrdup("none"));
	v = linux_container(root, &unknown);
	if (!unknown)
		linux_set(s, "virt.container", v != NULL ? v :
		    xstrdup("none"));
}

/* musl says its version when its loader runs without arguments. */
static char *
linux_musl_version(const char *root)
{
	const char	*argv[2];
	glob_t		 g;
	char		*pattern, *out, *p, *cause = NULL, *v = NULL;
	int		 status;

	pattern = sysinfo_path(root, "/lib/ld-musl-*.so.1");
	if (glob(pattern, 0, NULL, &g) != 0) {
		free(pattern);
		return NULL;
	}
	free(pattern);
	argv[0] = g.gl_pathv[0];
	argv[1] = NULL;
	if (sysinfo_command(argv, 2000, 64 * 1024, 1, &out, NULL, &status,
	    &cause) == 0) {
		if ((p = strstr(out, "Version ")) != NULL) {
			p += 8;
			p[strcspn(p, " \n")] = '\0';
			xasprintf(&v, "musl %s", p);
		}
		free(out);
	} else
		free(cause);
	globfree(&g);
	return v;
}

/* The C library: glibc says so through confstr, musl through its
 * loader. */
static void
linux_libc(struct snapshot *s, const char *root)
{
	char	 buf[128];
	size_t	 n = 0;

#ifdef _CS_GNU_LIBC_VERSION
	n = confstr(_CS_GNU_LIBC_VERSION, buf, sizeof(buf));
#endif
	if (n > 0 && n <= sizeof(buf)) {
		sysinfo_snapshot_set(s, "libc", buf);
		return;
	}
	linux_set(s, "libc", linux_musl_version(root));
}

int
sysinfo_os_fields(struct snapshot *s, const char *workdir,
    const struct sysinfo_opts *o, char **cause)
{
	if (linux_fs(s, o->root, "fs", workdir, cause) == -1)
		return -1;
	sysinfo_snapshot_set(s, "os.kernel", "linux");
	linux_kernel(s, o->root);
	linux_os(s, o->root);
	linux_cpu(s, o->root);
	linux_mitigations(s, o->root);
	linux_memory(s, o->root);
	linux_cgroup(s, o->root);
	linux_affinity(s);
	linux_priority(s);
	linux_virt(s, o->root);
	linux_libc(s, o->root);
	return 0;
}

int
sysinfo_os_fs(struct snapshot *s, const char *prefix, const char *dir,
    const struct sysinfo_opts *o, char **cause)
{
	return linux_fs(s, o->root, prefix, dir, cause);
}

/* A number of the CPU directory cpu's topology, or -1. */
static long
linux_topology(const char *cpu, const char *name)
{
	char	*path, *v, *end;
	long	 n = -1;

	xasprintf(&path, "%s/topology/%s", cpu, name);
	if ((v = sysinfo_read_value(NULL, path)) != NULL) {
		n = strtol(v, &end, 10);
		if (end == v || *end != '\0' || n < 0)
			n = -1;
		free(v);
	}
	free(path);
	return n;
}

/* One counter of dir (a thermal_throttle directory) added to *sum. */
static int
linux_throttle_add(const char *dir, const char *name, uint64_t *sum)
{
	char	*path, *v;

	xasprintf(&path, "%s/%s", dir, name);
	v = sysinfo_read_value(NULL, path);
	free(path);
	if (v == NULL)
		return 0;
	*sum += strtoull(v, NULL, 10);
	free(v);
	return 1;
}

/*
 * The thermal throttling events counted so far, or 0 if none is exposed:
 * each core's counter once, and each package's once.  The kernel shows
 * a package's counter in the directory of every CPU of the package, and
 * a core's in that of each of its hardware threads, so the sum over the
 * CPUs counted one event of a package of eight threads eight times.  A
 * CPU whose topology cannot be read counts on its own.
 */
static int
linux_throttle(const char *root, uint64_t *sum)
{
	glob_t	 g;
	char	*pattern, *cpu, *slash;
	long	*pkgs, (*cores)[2], pkg, core;
	size_t	 i, k, npkgs = 0, ncores = 0;
	int	 found = 0;

	*sum = 0;
	pattern = sysinfo_path(root, "/sys/devices/system/cpu/cpu[0-9]*/"
	    "thermal_throttle");
	if (glob(pattern, GLOB_ONLYDIR, NULL, &g) != 0) {
		free(pattern);
		return 0;
	}
	free(pattern);
	pkgs = xcalloc(g.gl_pathc, sizeof(*pkgs));
	cores = xcalloc(g.gl_pathc, sizeof(*cores));
	for (i = 0; i < g.gl_pathc; i++) {
		cpu = xstrdup(g.gl_pathv[i]);
		if ((slash = strrchr(cpu, '/')) != NULL)
			*slash = '\0';
		pkg = linux_topology(cpu, "physical_package_id");
		core = pkg == -1 ? -1 : linux_topology(cpu, "core_id");
		free(cpu);
		for (k = 0; core != -1 && k < ncores; k++)
			if (cores[k][0] == pkg && cores[k][1] == core)
				break;
		if (core == -1 || k == ncores) {
			if (linux_throttle_add(g.gl_pathv[i],
			    "core_throttle_count", sum))
				found = 1;
			if (core != -1) {
				cores[ncores][0] = pkg;
				cores[ncores++][1] = core;
			}
		}
		for (k = 0; pkg != -1 && k < npkgs; k++)
			if (pkgs[k] == pkg)
				break;
		if (pkg == -1 || k == npkgs) {
			if (linux_throttle_add(g.gl_pathv[i],
			    "package_throttle_count", sum))
				found = 1;
			if (pkg != -1)
				pkgs[npkgs++] = pkg;
		}
	}
	free(pkgs);
	free(cores);
	globfree(&g);
	return found;
}

int
sysinfo_os_counters(const char *root, struct quiet_counters *c, char **cause)
{
	unsigned long long	 t[10];
	char			*path, *text, *p;
	long long		 v;
	int			 n, i;

	memset(c, 0, sizeof(*c));

	path = sysinfo_path(root, "/proc/loadavg");
	if (sysinfo_read_file(path, 4096, &text, NULL) == -1)
		text = NULL;
	if (text == NULL || sscanf(text, "%lf %lf %lf", &c->load[0],
	    &c->load[1], &c->load[2]) != 3) {
		xasprintf(cause, "%s: cannot read the load", path);
		free(text);
		free(path);
		return -1;
	}
	free(text);
	free(path);

	path = sysinfo_path(root, "/proc/stat");
	if (sysinfo_read_file(path, 16 * 1024 * 1024, &text, NULL) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	memset(t, 0, sizeof(t));
	n = sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
	    &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7]);
	if (n < 4) {
		xasprintf(cause, "%s: no cpu line", path);
		free(text);
		free(path);
		return -1;
	}
	/* user nice system idle iowait irq softirq steal; guest time is
	 * already inside user. */
	c->cpu_busy = t[0] + t[1] + t[2] + t[5] + t[6] + t[7];
	c->cpu_total = c->cpu_busy + t[3] + t[4];
	if ((p = strstr(text, "\nprocs_running ")) != NULL)
		c->running = atoi(p + 15);
	free(text);
	free(path);

	path = sysinfo_path(root, "/proc/vmstat");
	if (sysinfo_read_file(path, 1024 * 1024, &text, NULL) == 0) {
		if ((p = strstr(text, "pswpin ")) != NULL)
			c->swap_in = strtoull(p + 7, NULL, 10);
		if ((p = strstr(text, "pswpout ")) != NULL)
			c->swap_out = strtoull(p + 8, NULL, 10);
		free(text);
	}
	free(path);

	path = sysinfo_path(root, "/proc/meminfo");
	if (sysinfo_read_file(path, 1024 * 1024, &text, NULL) == 0) {
		if ((v = linux_meminfo(text, "MemTotal")) > 0)
			c->mem_total_kb = (uint64_t)v;
		if ((v = linux_meminfo(text, "MemAvailable")) < 0)
			v = linux_meminfo(text, "MemFree");
		if (v >= 0)
			c->mem_available_kb = (uint64_t)v;
		free(text);
	}
	free(path);

	c->ncpu = linux_ncpu(root);
	c->throttle_known = linux_throttle(root, &c->throttle);
	for (i = 0; i < 3; i++) {
		if (c->load[i] < 0)
			c->load[i] = 0;
	}
	return 0;
}

/*
 * dpkg, then pacman, then rpm: a Debian system may carry an rpm tool.  An
 * empty dpkg database is an rpm or pacman system's dpkg tool, chosen only
 * when there is nothing else.
 */
enum sysinfo_pkgmgr
sysinfo_os_pkgmgr(const struct sysinfo_opts *o)
{
	struct stat	 st;
	char		*path;
	int		 found, dpkg;

	if (sysinfo_dpkg_in_use(o->dpkg_admindir))
		return SYSINFO_PKG_DPKG;
	xasprintf(&path, "%s/status", o->dpkg_admindir);
	dpkg = stat(path, &st) == 0;
	free(path);
	xasprintf(&path, "%s/local", o->pacman_dbpath);
	found = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	if (found)
		return SYSINFO_PKG_PACMAN;
	if ((o->rpm_dbpath != NULL && stat(o->rpm_dbpath, &st) == 0) ||
	    stat("/var/lib/rpm", &st) == 0 ||
	    stat("/usr/lib/sysimage/rpm", &st) == 0)
		return SYSINFO_PKG_RPM;
	return dpkg ? SYSINFO_PKG_DPKG : SYSINFO_PKG_NONE;
}

#endif /* __linux__ */
