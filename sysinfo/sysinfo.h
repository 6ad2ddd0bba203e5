/*
 * sysinfo: what the machine is, what changed on it, and whether it is quiet
 * enough to measure.
 *
 * A snapshot is two sorted lists:
 *
 *   fields    (key, value) strings, one key at most once, sorted by key
 *             (strcmp): "kernel.release", "cpu.governor",
 *             "cpu.mitigations.spectre_v2", "fs.scheduler", ...  A field the
 *             machine does not expose is absent, never "unknown".
 *   packages  (name, version, arch), sorted by name, then arch, then
 *             version (strcmp); the same name may appear with several
 *             arches (dpkg multiarch) or versions (rpm install-only kernels).
 *
 * Every string in a snapshot is valid UTF-8 without control characters:
 * the setters replace a control byte by a space and an invalid UTF-8 byte by
 * '?'.  That makes the canonical serialization below unambiguous and lets
 * every snapshot go to JSON and back unchanged.
 *
 * Content hashes (sysinfo_fields_hash, sysinfo_packages_hash) are SHA-256,
 * as 64 lowercase hex digits, over this canonical text:
 *
 *   fields:   "perfwatch-fields-1\n" then "key\tvalue\n" per field
 *   packages: "perfwatch-packages-1\n" then "name\tversion\tarch\n" per
 *             package
 *
 * in the sorted order above.  Identical machine states hash identically on
 * every host and every version of perfwatch that keeps the "-1" tag.
 *
 * The JSON form (sysinfo_snapshot_json) is
 *
 *   {"format": 1, "fields": {"key": "value", ...},
 *    "packages": [["name", "version", "arch"], ...]}
 *
 * where either member may be left out (SYSINFO_FIELDS, SYSINFO_PACKAGES), so
 * that the store may keep the fields and the package set apart and join
 * them again with sysinfo_snapshot_load_json() twice on one snapshot.
 *
 * The package manager that produced the list is the field "pkg.manager"
 * ("dpkg", "rpm", "pacman", "pkg" or "none"); it chooses how versions are
 * compared in a diff.
 *
 * Fields a Linux snapshot holds when the machine exposes them:
 *   kernel.release kernel.version kernel.arch kernel.cmdline os.kernel
 *   os.id os.version os.name os.debian_version
 *   cpu.model cpu.count cpu.smt cpu.microcode cpu.governor cpu.freq_driver
 *   cpu.epp cpu.boost cpu.pstate cpu.idle_driver cpu.isolated
 *   cpu.mitigations.<name> (one per /sys/devices/system/cpu/vulnerabilities)
 *   mem.total_kb swap.total_kb mm.hugepages mm.thp mm.thp_defrag
 *   mm.swappiness mm.dirty_ratio mm.dirty_background_ratio mm.zswap
 *   fs.mount fs.type fs.device fs.options fs.scheduler fs.rotational
 *   workload.<name>.fs.mount ... workload.<name>.fs.rotational: the
 *   same of a workload's own work directory (sysinfo_opts.workdirs),
 *   only when it is on another filesystem than the work directory
 *   virt (hypervisor or "none") virt.container (or "none"; left out
 *   when only root could tell, which a diff does not count as a change)
 *   libc cc locale.LANG locale.LC_* pkg.manager
 *   cgroup.cpu.max cgroup.cpuset.cpus cgroup.memory.max
 *   cgroup.memory.high cgroup.io.max cpu.affinity: the limits of the
 *   control group and the CPU mask the run's processes have, each only
 *   where there is a limit (linux.c says how each is read)
 *   proc.nice proc.sched proc.ioprio: the process's nice value,
 *   scheduling policy and I/O priority, each only when not the default
 * fs.mount is where the work directory's filesystem is mounted, not a
 * bind mount of part of it that this process's mount namespace has
 * (perfwatchd's PrivateTmp=), so that the daemon and a run typed by hand
 * agree.
 * FreeBSD adds os.userland and mm.superpages and has no cmdline, governor
 * or scheduler, nor (yet) the limits of a jail: rctl(8) and cpuset(1).  The locale is the machine's configured one
 * (/etc/locale.conf, /etc/default/locale), not perfwatch's environment,
 * so that a run typed by hand and one the daemon starts agree.
 */
#ifndef PERFWATCH_SYSINFO_H
#define PERFWATCH_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* One (key, value) field of a snapshot. */
struct snapshot_field {
	char	*key;
	char	*value;
};

/* One installed package; the three strings share one allocation. */
struct snapshot_package {
	char	*name;
	char	*version;
	char	*arch;
};

/* A machine snapshot; read the arrays directly, change it only through
 * the functions below so that both stay sorted. */
struct snapshot {
	struct snapshot_field	*fields;
	size_t			 nfields;
	struct snapshot_package	*packages;
	size_t			 npackages;

	size_t			 fields_alloc;
	size_t			 packages_alloc;
};

/* Package managers sysinfo reads. */
enum sysinfo_pkgmgr {
	SYSINFO_PKG_AUTO = 0,	/* detect: dpkg, then pacman, rpm, pkg */
	SYSINFO_PKG_NONE,	/* record no packages */
	SYSINFO_PKG_DPKG,
	SYSINFO_PKG_RPM,
	SYSINFO_PKG_PACMAN,
	SYSINFO_PKG_PKGNG,	/* FreeBSD pkg(8) */
};

/* A workload's own work directory, instead of the work directory. */
struct sysinfo_workdir {
	char	*name;		/* the workload's */
	char	*dir;
};

/* How to take a snapshot; sysinfo_opts_init() fills the defaults. */
struct sysinfo_opts {
	enum sysinfo_pkgmgr	 pkgmgr;
	const char		*dpkg_admindir;	/* /var/lib/dpkg */
	const char		*pacman_dbpath;	/* /var/lib/pacman */
	const char		*rpm_dbpath;	/* NULL: rpm's own default */
	const char		*cc;		/* compiler asked for --version */
	const char		*root;		/* prefix of /proc, /sys, /etc */
	int			 command_timeout_ms;	/* rpm, pkg, cc */
	struct sysinfo_workdir	*workdirs;	/* the caller's; none */
	size_t			 nworkdirs;
};

#define SYSINFO_FIELDS		0x1
#define SYSINFO_PACKAGES	0x2
#define SYSINFO_ALL		(SYSINFO_FIELDS | SYSINFO_PACKAGES)

#define SYSINFO_HASH_LEN	64	/* hex digits, without the NUL */

void		 sysinfo_opts_init(struct sysinfo_opts *);
struct snapshot	*sysinfo_snapshot_take(const char *workdir,
		    const struct sysinfo_opts *, char **cause);

/* Building and reading a snapshot. */
struct snapshot	*sysinfo_snapshot_new(void);
void		 sysinfo_snapshot_free(struct snapshot *);
int		 sysinfo_snapshot_set(struct snapshot *, const char *key,
		    const char *value);
int		 sysinfo_snapshot_unset(struct snapshot *, const char *key);
void		 sysinfo_snapshot_add_package(struct snapshot *,
		    const char *name, const char *version, const char *arch);
void		 sysinfo_snapshot_clear_packages(struct snapshot *);
const char	*sysinfo_snapshot_get(const struct snapshot *,
		    const char *key);
const struct snapshot_package *sysinfo_snapshot_package(
		    const struct snapshot *, const char *name,
		    const char *arch);
int		 sysinfo_snapshot_equal(const struct snapshot *,
		    const struct snapshot *, int what);

/* Hashes, JSON and text. */
void		 sysinfo_fields_hash(const struct snapshot *,
		    char out[SYSINFO_HASH_LEN + 1]);
void		 sysinfo_packages_hash(const struct snapshot *,
		    char out[SYSINFO_HASH_LEN + 1]);
json_t		*sysinfo_snapshot_json(const struct snapshot *, int what);
char		*sysinfo_snapshot_dump(const struct snapshot *, int what);
int		 sysinfo_snapshot_load_json(struct snapshot *, const json_t *,
		    char **cause);
struct snapshot	*sysinfo_snapshot_load(const char *text, char **cause);
char		*sysinfo_snapshot_text(const struct snapshot *, int what);

/* Package databases; each adds to the snapshot and sets "pkg.manager". */
int		 sysinfo_packages_read(struct snapshot *,
		    const struct sysinfo_opts *, char **cause);
int		 sysinfo_dpkg_read(struct snapshot *, const char *admindir,
		    char **cause);
int		 sysinfo_pacman_read(struct snapshot *, const char *dbpath,
		    char **cause);
int		 sysinfo_rpm_parse(struct snapshot *, const char *text,
		    size_t len, char **cause);
int		 sysinfo_pkgng_parse(struct snapshot *, const char *text,
		    size_t len, char **cause);
const char	*sysinfo_pkgmgr_name(enum sysinfo_pkgmgr);
int		 sysinfo_pkgmgr_parse(const char *, enum sysinfo_pkgmgr *);
int		 sysinfo_dpkg_in_use(const char *admindir);

/*
 * Version comparison; each returns <0, 0 or >0 like strcmp.
 *   sysinfo_version_cmp	dpkg: [epoch:]upstream[-revision], '~' first
 *   sysinfo_rpm_version_cmp	rpm: [epoch:]version[-release], each part
 *				by rpmvercmp ('~' first, '^' after)
 *   sysinfo_rpmvercmp		rpm's segment comparison of one part
 *   sysinfo_pacman_version_cmp	pacman: the same form, by libalpm's older
 *				rpmvercmp ("1.0rc" before "1.0")
 *   sysinfo_pkgng_version_cmp	FreeBSD ports: version[_revision][,epoch]
 *   sysinfo_pkg_version_cmp	the one that belongs to a manager name
 */
int		 sysinfo_version_cmp(const char *, const char *);
int		 sysinfo_rpm_version_cmp(const char *, const char *);
int		 sysinfo_rpmvercmp(const char *, const char *);
int		 sysinfo_pacman_version_cmp(const char *, const char *);
int		 sysinfo_pkgng_version_cmp(const char *, const char *);
int		 sysinfo_pkg_version_cmp(const char *manager, const char *,
		    const char *);

/*
 * What this process may use, as opposed to what the machine has: the one
 * answer the workloads size themselves by (one thread a CPU, a file of
 * twice the memory), so that a run under taskset, a cpuset, a CPU quota
 * or a memory limit does not oversubscribe its CPUs or run into its
 * memory limit.  root prefixes /proc and /sys as in sysinfo_opts (NULL:
 * the real ones); the affinity mask is always this process's own.
 * Linux reads the control group as the snapshot's cgroup.* fields are
 * read (linux.c); FreeBSD the cpuset (freebsd.c).
 */
struct sysinfo_allowed {
	int		 cpus;		/* CPUs it may keep busy at once, >= 1 */
	int		 online;	/* the machine's online CPUs */
	int		 cpu_quota;	/* a CPU quota is below the mask */
	uint64_t	 memory;	/* bytes it may use; 0 if unknown */
	uint64_t	 ram;		/* the machine's memory; 0 if unknown */
	int		 memory_limited; /* memory is a limit below ram */
};

void		 sysinfo_allowed(const char *root, struct sysinfo_allowed *);

/* What changed between two snapshots. */
enum snapshot_change_kind {
	CHANGE_FIELD_CHANGED,
	CHANGE_FIELD_ADDED,
	CHANGE_FIELD_REMOVED,
	CHANGE_PKG_UPGRADED,
	CHANGE_PKG_DOWNGRADED,
	CHANGE_PKG_INSTALLED,
	CHANGE_PKG_REMOVED,
	CHANGE_PKG_CHANGED,	/* same version by the rules, other string
				   or other arch */
};

/*
 * One change.  For a field, name is the key and old/new the values; for a
 * package, name is the package and old/new the versions.  old is NULL for
 * an addition, new for a removal.
 */
struct snapshot_change {
	enum snapshot_change_kind	 kind;
	char				*name;
	char				*old_value;
	char				*new_value;
	char				*old_arch;
	char				*new_arch;
	int				 multiarch;	/* name alone is
							   ambiguous */
};

/* Field changes first (by key), then package changes (by name). */
struct snapshot_diff {
	struct snapshot_change	*changes;
	size_t			 nchanges;
	size_t			 nfields;	/* how many are field changes */
};

struct snapshot_diff	*sysinfo_diff(const struct snapshot *a,
			    const struct snapshot *b);
void			 sysinfo_diff_free(struct snapshot_diff *);
const char		*sysinfo_change_kind_name(enum snapshot_change_kind);
char			*sysinfo_diff_text(const struct snapshot_diff *);
char			*sysinfo_diff_summary(const struct snapshot_diff *,
			    size_t max_items);
json_t			*sysinfo_diff_json(const struct snapshot_diff *);

/*
 * Quiet-machine checks.  A sample reads the counters twice, interval_ms
 * apart; its shares and counts cover that interval.
 */
struct quiet {
	double		 interval;	/* seconds actually measured */
	double		 load1;
	double		 load5;
	double		 load15;
	int		 ncpu;		/* online CPUs */
	int		 runnable;	/* running tasks besides the sampler */
	double		 cpu_busy;	/* 0..1, all CPUs, steal counts busy */
	uint64_t	 swap_in;	/* pages during the interval */
	uint64_t	 swap_out;
	uint64_t	 mem_total_kb;
	uint64_t	 mem_available_kb;
	int		 throttle_known;	/* counters exposed at all */
	uint64_t	 throttle_count;	/* thermal events since boot */
	uint64_t	 throttle_events;	/* during the interval */
};

/*
 * Limits a quiet machine stays within; a value is busy when it is greater
 * (less, for memory) than its limit.  sysinfo_quiet_limits_default() sets,
 * for n online CPUs:
 *
 *   max_load1		0.5 * n (1.0 on two CPUs): half the machine
 *   max_runnable	n / 2, at least 1: one other task on two CPUs
 *   max_cpu_busy	0.25: a quarter of all CPU time over the interval
 *   max_swap_pages	64 pages in + out during the interval
 *   min_mem_available	0.10 of MemTotal
 *   max_throttle_events 0 new thermal throttling events
 *   interval_ms	1000
 *
 * All but interval_ms are keys of perfwatch.conf's [quiet] (cli/run.c).
 */
struct quiet_limits {
	double		 max_load1;
	int		 max_runnable;
	double		 max_cpu_busy;
	uint64_t	 max_swap_pages;
	double		 min_mem_available;
	uint64_t	 max_throttle_events;
	unsigned int	 interval_ms;
};

void	 sysinfo_quiet_limits_default(struct quiet_limits *);
int	 sysinfo_quiet_sample(struct quiet *, unsigned int interval_ms,
	    const char *root);
int	 sysinfo_quiet_judge(const struct quiet *, const struct quiet_limits *,
	    char **why);
int	 sysinfo_quiet_wait(const struct quiet_limits *,
	    double max_wait_seconds, struct quiet *seen, double *waited,
	    char **why);
json_t	*sysinfo_quiet_json(const struct quiet *);
int	 sysinfo_quiet_from_json(const json_t *, struct quiet *, char **cause);

#endif
