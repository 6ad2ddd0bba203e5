/*
 * Inside sysinfo: what the portable files share, and the seam between them
 * and the one operating-system file that is compiled in (linux.c or
 * freebsd.c, each guarded as a whole).  Nothing outside sysinfo/ includes
 * this header except the module's own unit test.
 */
#ifndef PERFWATCH_SYSINFO_INT_H
#define PERFWATCH_SYSINFO_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sysinfo.h"

/*
 * The operating-system seam.  Each OS file defines these four:
 *
 * sysinfo_os_fields()	   adds every field it can find for a work
 *			   directory: kernel, CPU, memory, governor,
 *			   mitigations, filesystem, virtualization, libc.
 *			   Fields that need no OS knowledge (locale, cc,
 *			   packages) are added by snapshot.c.
 * sysinfo_os_fs()	   adds the filesystem fields of a directory under
 *			   a prefix ("fs" gives fs.type ...), as
 *			   sysinfo_os_fields() does for the work directory.
 * sysinfo_os_counters()   reads the counters a quiet sample is made of.
 * sysinfo_os_pkgmgr()	   the package manager to use when asked for AUTO.
 */
struct quiet_counters {
	double		 load[3];
	int		 ncpu;
	int		 running;	/* tasks running now, the reader too */
	uint64_t	 cpu_busy;	/* ticks, all CPUs */
	uint64_t	 cpu_total;
	uint64_t	 swap_in;	/* pages since boot */
	uint64_t	 swap_out;
	uint64_t	 mem_total_kb;
	uint64_t	 mem_available_kb;
	int		 throttle_known;
	uint64_t	 throttle;
};

int			 sysinfo_os_fields(struct snapshot *, const char *workdir,
			    const struct sysinfo_opts *, char **cause);
int			 sysinfo_os_fs(struct snapshot *, const char *prefix,
			    const char *dir, const struct sysinfo_opts *,
			    char **cause);
int			 sysinfo_os_counters(const char *root,
			    struct quiet_counters *, char **cause);
enum sysinfo_pkgmgr	 sysinfo_os_pkgmgr(const struct sysinfo_opts *);

/* Add a package from counted strings (not NUL-terminated). */
void	 sysinfo_snapshot_add_package_n(struct snapshot *, const char *name,
	    size_t namelen, const char *version, size_t versionlen,
	    const char *arch, size_t archlen);

/* os.id, os.version, os.name from <root>/etc/os-release. */
void	 sysinfo_os_release(struct snapshot *, const char *root);

#ifdef __linux__
/* proc.ioprio for an ioprio_get(2) value, or NULL at the default. */
char	*sysinfo_linux_ioprio(int prio, int nice, int policy);
#endif

/* A growing string. */
struct sysinfo_buf {
	char	*data;
	size_t	 len;
	size_t	 alloc;
};

void	 sysinfo_buf_add(struct sysinfo_buf *, const char *, size_t);
void	 sysinfo_buf_adds(struct sysinfo_buf *, const char *);
void	 sysinfo_buf_addf(struct sysinfo_buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 sysinfo_buf_addcol(struct sysinfo_buf *, const char *, size_t width,
	    const char *sep);
char	*sysinfo_buf_finish(struct sysinfo_buf *);

/* Files. */
char	*sysinfo_path(const char *root, const char *path);
int	 sysinfo_read_file(const char *path, size_t max, char **out,
	    size_t *len);
char	*sysinfo_read_value(const char *root, const char *path);
char	*sysinfo_trim(char *);

/*
 * Run argv[0] (searched in PATH) without a shell: stdin from /dev/null,
 * stdout (and stderr too if with_stderr) into *out, NUL-terminated.  The
 * child is killed after timeout_ms or once it writes more than max_out
 * bytes; both are errors.  On 0, *status is the exit code (128 + signal
 * when killed by one); the caller judges it.
 */
int	 sysinfo_command(const char *const argv[], int timeout_ms,
	    size_t max_out, int with_stderr, char **out, size_t *len,
	    int *status, char **cause);

/* SHA-256 (FIPS 180-4). */
struct sysinfo_sha256 {
	uint32_t	 h[8];
	uint64_t	 bytes;
	uint8_t		 block[64];
	size_t		 nblock;
};

void	 sysinfo_sha256_init(struct sysinfo_sha256 *);
void	 sysinfo_sha256_update(struct sysinfo_sha256 *, const void *, size_t);
void	 sysinfo_sha256_final(struct sysinfo_sha256 *, uint8_t out[32]);
void	 sysinfo_sha256_hex(const uint8_t digest[32],
	    char out[SYSINFO_HASH_LEN + 1]);

#endif
