/*
 * FreeBSD: the same fields and counters as linux.c, from sysctl(3),
 * statfs(2) and freebsd-version(1).  opts->root applies to /etc only:
 * sysctls have no file to redirect.
 *
 * FreeBSD has no kernel command line, no THP (superpages instead), no
 * cpufreq governor (powerd or hwpstate's EPP) and no thermal throttling
 * counters; those fields are left out, as linux.c leaves out what a Linux
 * machine does not expose.
 *
 * The limits a run has, which linux.c reads from cgroups (cgroup.*,
 * cpu.affinity), are not in a snapshot here yet: a jail's or a process's
 * rctl(8) rules (pcpu, memoryuse, readbps, writebps ... through
 * rctl_get_limits(2), when kern.racct.enable is on) and its cpuset(1)
 * (cpuset_getaffinity(2)) are where they would come from.  What the
 * workloads size themselves by (sysinfo_allowed) counts the cpuset;
 * rctl's pcpu and memoryuse are not read, so a run under them still
 * sizes itself to the cpuset and hw.physmem.
 */
#ifdef __FreeBSD__

#include <sys/types.h>
#include <sys/param.h>
#include <sys/cpuset.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <sys/vmmeter.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "perfwatch.h"
#include "xmalloc.h"
#include "sysinfo_int.h"

/* Trim white space around v in place; v itself is returned. */
static char *
fbsd_trim(char *v)
{
	char	*t;

	t = sysinfo_trim(v);
	if (t != v)
		memmove(v, t, strlen(t) + 1);
	return v;
}

/* A string sysctl, trimmed, or NULL. */
static char *
fbsd_string(const char *name)
{
	size_t	 len = 0;
	char	*v;

	if (sysctlbyname(name, NULL, &len, NULL, 0) == -1 || len == 0)
		return NULL;
	v = xmalloc(len + 1);
	if (sysctlbyname(name, v, &len, NULL, 0) == -1) {
		free(v);
		return NULL;
	}
	v[len] = '\0';
	return fbsd_trim(v);
}

/* An integer sysctl of 4 or 8 bytes; -1 if absent. */
static int
fbsd_number(const char *name, uint64_t *out)
{
	union {
		uint32_t	u32;
		uint64_t	u64;
	}	v;
	size_t	len = sizeof(v);

	memset(&v, 0, sizeof(v));
	if (sysctlbyname(name, &v, &len, NULL, 0) == -1)
		return -1;
	if (len == sizeof(uint32_t))
		*out = v.u32;
	else if (len == sizeof(uint64_t))
		*out = v.u64;
	else
		return -1;
	return 0;
}

/* Set key from a string we own, if there is one. */
static void
fbsd_set(struct snapshot *s, const char *key, char *value)
{
	if (value != NULL && value[0] != '\0')
		sysinfo_snapshot_set(s, key, value);
	free(value);
}

/* Set key to a number sysctl, scaled down by div. */
static void
fbsd_set_number(struct snapshot *s, const char *key, const char *name,
    uint64_t div)
{
	uint64_t	 v;
	char		*t;

	if (fbsd_number(name, &v) == -1)
		return;
	xasprintf(&t, "%llu", (unsigned long long)(v / div));
	fbsd_set(s, key, t);
}

/* kern.version spans lines; keep it on one. */
static char *
fbsd_one_line(char *v)
{
	char	*r, *w;
	int	 space = 0;

	if (v == NULL)
		return NULL;
	for (r = w = v; *r != '\0'; r++) {
		if (*r == '\n' || *r == '\t' || *r == ' ') {
			space = 1;
			continue;
		}
		if (space && w != v)
			*w++ = ' ';
		space = 0;
		*w++ = *r;
	}
	*w = '\0';
	return v;
}

/* The userland version, which may differ from the kernel's. */
static char *
fbsd_userland(const struct sysinfo_opts *o)
{
	const char	*argv[] = { "freebsd-version", "-u", NULL };
	char		*out, *cause = NULL;
	int		 status;

	if (sysinfo_command(argv, o->command_timeout_ms, 4096, 0, &out, NULL,
	    &status, &cause) == -1) {
		log_debug("snapshot: %s", cause);
		free(cause);
		return NULL;
	}
	if (status != 0) {
		free(out);
		return NULL;
	}
	return fbsd_trim(out);
}

/* The mitigation sysctls FreeBSD has had; absent ones are skipped. */
static void
fbsd_mitigations(struct snapshot *s)
{
	static const struct {
		const char	*sysctl;
		const char	*key;
		int		 is_string;
	} m[] = {
		{ "vm.pmap.pti", "cpu.mitigations.pti", 0 },
		{ "hw.ibrs_active", "cpu.mitigations.ibrs", 0 },
		{ "hw.spec_store_bypass_disable_active",
		    "cpu.mitigations.spec_store_bypass", 0 },
		{ "hw.mds_disable_state", "cpu.mitigations.mds", 1 },
		{ "machdep.mitigations.taa.state", "cpu.mitigations.taa", 1 },
		{ "machdep.mitigations.rngds.state", "cpu.mitigations.rngds",
		    1 },
	};
	uint64_t	 v;
	char		*t;
	size_t		 i;

	for (i = 0; i < nitems(m); i++) {
		if (m[i].is_string) {
			fbsd_set(s, m[i].key, fbsd_string(m[i].sysctl));
			continue;
		}
		if (fbsd_number(m[i].sysctl, &v) == -1)
			continue;
		xasprintf(&t, "%llu", (unsigned long long)v);
		fbsd_set(s, m[i].key, t);
	}
}

/* Mount flags as mount(8) names them. */
static char *
fbsd_mount_options(uint64_t flags)
{
	static const struct {
		uint64_t	 flag;
		const char	*name;
	} f[] = {
		{ MNT_SYNCHRONOUS, "sync" },
		{ MNT_NOEXEC, "noexec" },
		{ MNT_NOSUID, "nosuid" },
		{ MNT_UNION, "union" },
		{ MNT_ASYNC, "async" },
		{ MNT_SUIDDIR, "suiddir" },
		{ MNT_SOFTDEP, "soft-updates" },
		{ MNT_SUJ, "journaled soft-updates" },
		{ MNT_NOSYMFOLLOW, "nosymfollow" },
		{ MNT_GJOURNAL, "gjournal" },
		{ MNT_MULTILABEL, "multilabel" },
		{ MNT_ACLS, "acls" },
		{ MNT_NFS4ACLS, "nfsv4acls" },
		{ MNT_NOATIME, "noatime" },
		{ MNT_NOCLUSTERR, "noclusterr" },
		{ MNT_NOCLUSTERW, "noclusterw" },
		{ MNT_LOCAL, "local" },
		{ MNT_QUOTA, "quota" },
	};
	struct sysinfo_buf	b = { NULL, 0, 0 };
	size_t			i;

	sysinfo_buf_adds(&b, (flags & MNT_RDONLY) ? "ro" : "rw");
	for (i = 0; i < nitems(f); i++) {
		if (flags & f[i].flag)
			sysinfo_buf_addf(&b, ",%s", f[i].name);
	}
	return sysinfo_buf_finish(&b);
}

/* Set prefix.name ("fs.type") from a string we own, if there is one. */
static void
fbsd_fs_set(struct snapshot *s, const char *prefix, const char *name,
    char *value)
{
	char	*key;

	xasprintf(&key, "%s.%s", prefix, name);
	fbsd_set(s, key, value);
	free(key);
}

/*
 * Whether a /dev/adaN... or /dev/daN... disk spins, from CAM's
 * kern.cam.<driver>.<unit>.rotating.
 */
static void
fbsd_rotating(struct snapshot *s, const char *prefix, const char *dev)
{
	const char	*p, *drv;
	char		*name;
	uint64_t	 v;
	long		 unit;

	if (strncmp(dev, "/dev/", 5) != 0)
		return;
	p = dev + 5;
	if (strncmp(p, "ada", 3) == 0) {
		drv = "ada";
		p += 3;
	} else if (strncmp(p, "da", 2) == 0) {
		drv = "da";
		p += 2;
	} else
		return;
	if (*p < '0' || *p > '9')
		return;
	unit = strtol(p, NULL, 10);
	xasprintf(&name, "kern.cam.%s.%ld.rotating", drv, unit);
	if (fbsd_number(name, &v) == 0)
		fbsd_fs_set(s, prefix, "rotational", xstrdup(v != 0 ? "1" :
		    "0"));
	free(name);
}

/*
 * The filesystem that holds dir, its fields named prefix.type and so on:
 * "fs" for the work directory, "workload.NAME.fs" for a workload's own
 * (snapshot.c).
 */
int
sysinfo_os_fs(struct snapshot *s, const char *prefix, const char *dir,
    const struct sysinfo_opts *o, char **cause)
{
	struct statfs	 sf;

	(void)o;
	if (statfs(dir, &sf) == -1) {
		xasprintf(cause, "%s: %s", dir, strerror(errno));
		return -1;
	}
	fbsd_fs_set(s, prefix, "type", xstrdup(sf.f_fstypename));
	fbsd_fs_set(s, prefix, "device", xstrdup(sf.f_mntfromname));
	fbsd_fs_set(s, prefix, "mount", xstrdup(sf.f_mntonname));
	fbsd_fs_set(s, prefix, "options", fbsd_mount_options(sf.f_flags));
	fbsd_rotating(s, prefix, sf.f_mntfromname);
	return 0;
}

int
sysinfo_os_fields(struct snapshot *s, const char *workdir,
    const struct sysinfo_opts *o, char **cause)
{
	uint64_t	 v;
	char		*t;

	if (sysinfo_os_fs(s, "fs", workdir, o, cause) == -1)
		return -1;

	sysinfo_snapshot_set(s, "os.kernel", "freebsd");
	fbsd_set(s, "kernel.release", fbsd_string("kern.osrelease"));
	fbsd_set(s, "kernel.version", fbsd_one_line(fbsd_string(
	    "kern.version")));
	fbsd_set(s, "kernel.arch", fbsd_string("hw.machine_arch"));
	sysinfo_os_release(s, o->root);
	fbsd_set(s, "os.userland", fbsd_userland(o));

	fbsd_set(s, "cpu.model", fbsd_string("hw.model"));
	fbsd_set_number(s, "cpu.count", "hw.ncpu", 1);
	if (fbsd_number("kern.smp.threads_per_core", &v) == 0)
		sysinfo_snapshot_set(s, "cpu.smt", v > 1 ? "on" : "off");
	fbsd_set(s, "cpu.freq_driver", fbsd_string("dev.cpufreq.0.%driver"));
	fbsd_set_number(s, "cpu.epp", "dev.hwpstate_intel.0.epp", 1);
	fbsd_mitigations(s);

	fbsd_set_number(s, "mem.total_kb", "hw.physmem", 1024);
	fbsd_set_number(s, "swap.total_kb", "vm.swap_total", 1024);
	fbsd_set_number(s, "mm.superpages", "vm.pmap.pg_ps_enabled", 1);

	t = fbsd_string("kern.vm_guest");
	fbsd_set(s, "virt", t != NULL ? t : xstrdup("none"));
	if (fbsd_number("security.jail.jailed", &v) == 0 && v != 0)
		sysinfo_snapshot_set(s, "virt.container", "jail");
	else
		sysinfo_snapshot_set(s, "virt.container", "none");

	if (fbsd_number("kern.osreldate", &v) == 0) {
		xasprintf(&t, "FreeBSD libc %llu", (unsigned long long)v);
		fbsd_set(s, "libc", t);
	}
	return 0;
}

int
sysinfo_os_counters(const char *root, struct quiet_counters *c, char **cause)
{
	struct vmtotal	 vt;
	long		 cp[CPUSTATES];
	uint64_t	 v, pagesize, freep, inact;
	size_t		 len;

	(void)root;
	memset(c, 0, sizeof(*c));
	if (getloadavg(c->load, 3) != 3) {
		*cause = xstrdup("getloadavg failed");
		return -1;
	}
	len = sizeof(cp);
	if (sysctlbyname("kern.cp_time", cp, &len, NULL, 0) == -1) {
		xasprintf(cause, "kern.cp_time: %s", strerror(errno));
		return -1;
	}
	c->cpu_busy = (uint64_t)cp[CP_USER] + (uint64_t)cp[CP_NICE] +
	    (uint64_t)cp[CP_SYS] + (uint64_t)cp[CP_INTR];
	c->cpu_total = c->cpu_busy + (uint64_t)cp[CP_IDLE];
	len = sizeof(vt);
	if (sysctlbyname("vm.vmtotal", &vt, &len, NULL, 0) == 0)
		c->running = vt.t_rq;
	if (fbsd_number("vm.stats.vm.v_swappgsin", &v) == 0)
		c->swap_in = v;
	if (fbsd_number("vm.stats.vm.v_swappgsout", &v) == 0)
		c->swap_out = v;
	if (fbsd_number("hw.physmem", &v) == 0)
		c->mem_total_kb = v / 1024;
	if (fbsd_number("hw.pagesize", &pagesize) == 0 &&
	    fbsd_number("vm.stats.vm.v_free_count", &freep) == 0 &&
	    fbsd_number("vm.stats.vm.v_inactive_count", &inact) == 0)
		c->mem_available_kb = (freep + inact) * pagesize / 1024;
	if (fbsd_number("hw.ncpu", &v) == 0)
		c->ncpu = (int)v;
	if (c->ncpu < 1)
		c->ncpu = 1;
	c->throttle_known = 0;
	return 0;
}

/*
 * What this process may use (sysinfo.h): the CPUs of its cpuset
 * (cpuset_getaffinity, which a jail's cpuset narrows as well), and
 * hw.physmem.  root is unused: sysctls have no file to redirect.
 */
void
sysinfo_allowed(const char *root, struct sysinfo_allowed *a)
{
	cpuset_t	mask;
	uint64_t	v;

	(void)root;
	memset(a, 0, sizeof(*a));
	if (fbsd_number("hw.ncpu", &v) == 0 && v > 0 && v < INT_MAX)
		a->online = (int)v;
	else
		a->online = 1;
	a->cpus = a->online;
	CPU_ZERO(&mask);
	if (cpuset_getaffinity(CPU_LEVEL_WHICH, CPU_WHICH_PID, -1,
	    sizeof(mask), &mask) == 0 && CPU_COUNT(&mask) > 0)
		a->cpus = CPU_COUNT(&mask);
	if (fbsd_number("hw.physmem", &v) == 0)
		a->ram = a->memory = v;
}

/* pkg(8) once it is bootstrapped: /usr/sbin/pkg alone only installs it. */
enum sysinfo_pkgmgr
sysinfo_os_pkgmgr(const struct sysinfo_opts *o)
{
	(void)o;
	if (access("/usr/local/sbin/pkg", X_OK) == 0)
		return SYSINFO_PKG_PKGNG;
	return SYSINFO_PKG_NONE;
}

#endif /* __FreeBSD__ */
