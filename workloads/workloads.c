/*
 * The battery: the table of workloads, their default parameters, and the
 * keys of a [workload "name"] section with how their values are read.
 *
 * Value syntax (what wl_params_set() accepts):
 *   count     a whole number: iterations, warmup, seeks, seekers,
 *             table_size
 *   seconds   a plain number of seconds ("30", "2.5"), or numbers each
 *             with a unit w, d, h, m (or min), s, ms, largest first
 *             ("1h30m", "500ms"): timeout, grace, duration
 *   size      a number of bytes with an optional unit K, M, G, T (powers
 *             of 1024; "KiB", "MB" and the like read the same): size,
 *             fsync_every, file_limit, char_size.  size also takes "<n>x" (or
 *             "<n>xRAM"), n times the memory the run may use: the
 *             machine's, or a lower limit of its control group
 *             (sysinfo_allowed).
 *   The forms are those of the configuration file (common/config.c), plus
 *   fractions, which the runner's tests use.
 *   boolean   yes/no, true/false, on/off, 1/0: direct, destroy_data
 *             (warmup also takes yes = 1, no = 0)
 *   threads   "auto" (1, 2, 4 ... up to at least twice the CPUs the
 *             run may use: its affinity, capped by a CPU quota) or a
 *             list such as "1,2,4,8"
 *   measure   "output" (the command prints its metrics) or "time"
 *   command, device, work_dir: text; device and work_dir absolute paths
 */
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

#define MIB		(UINT64_C(1) << 20)
#define SYS_KEYS	(WL_K_COMMON | WL_K_DURATION)

static void	bonnie_defaults(struct wl_params *);
static void	stream_defaults(struct wl_params *);
static void	sys_defaults(struct wl_params *);
static void	oltp_defaults(struct wl_params *);

static const struct wl_workload wl_table[] = {
	{ "disk.bonnie", "bonnie: per-char and block write, rewrite, "
	    "per-char and block read, random seeks, with %CPU",
	    WL_K_COMMON | WL_K_SIZE | WL_K_SEEKS | WL_K_SEEKERS |
	    WL_K_CHAR_SIZE, 0, NULL, NULL,
	    bonnie_defaults, wl_bonnie_run },
	{ "disk.stream", "1 MiB writes with an fsync every N MiB: MiB/s "
	    "mean and deviation over the segments, %CPU",
	    WL_K_COMMON | WL_K_SIZE | WL_K_FSYNC_EVERY | WL_K_DIRECT |
	    WL_K_DEVICE | WL_K_DESTROY_DATA, 0, NULL, NULL,
	    stream_defaults, wl_stream_run },
	{ "sys.dhrystone", "integer and string CPU loop (Dhrystone-like)",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults,
	    wl_dhrystone_run },
	{ "sys.whetstone", "floating-point loop (Whetstone-like), MWIPS",
	    SYS_KEYS, WL_F_INDEX, "mwips", "MWIPS", sys_defaults,
	    wl_whetstone_run },
	{ "sys.execl", "exec throughput: /usr/bin/env re-executing itself",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults, wl_execl_run },
	{ "sys.fcopy1024", "file copy, 1024-byte buffer",
	    SYS_KEYS, WL_F_INDEX, "kbps", "KBps", sys_defaults,
	    wl_fcopy1024_run },
	{ "sys.fcopy256", "file copy, 256-byte buffer",
	    SYS_KEYS, WL_F_INDEX, "kbps", "KBps", sys_defaults,
	    wl_fcopy256_run },
	{ "sys.fcopy4096", "file copy, 4096-byte buffer",
	    SYS_KEYS, WL_F_INDEX, "kbps", "KBps", sys_defaults,
	    wl_fcopy4096_run },
	{ "sys.pipe", "pipe throughput, 512-byte write and read",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults, wl_pipe_run },
	{ "sys.context1", "pipe-based context switching, two processes",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults, wl_context1_run },
	{ "sys.spawn", "process creation: fork, exit, wait",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults, wl_spawn_run },
	{ "sys.shell1", "shell script (sort, od, grep, tee, wc), one copy",
	    SYS_KEYS, WL_F_INDEX, "lpm", "lpm", sys_defaults, wl_shell1_run },
	{ "sys.shell8", "shell script, 8 concurrent copies",
	    SYS_KEYS, WL_F_INDEX, "lpm", "lpm", sys_defaults, wl_shell8_run },
	{ "sys.syscall", "system call overhead: dup, close, getpid, "
	    "getuid, umask",
	    SYS_KEYS, WL_F_INDEX, "lps", "lps", sys_defaults, wl_syscall_run },
	{ "db.oltp", "sysbench OLTP read-only on SQLite, swept over "
	    "thread counts",
	    WL_K_COMMON | WL_K_DURATION | WL_K_THREADS | WL_K_TABLE_SIZE, 0,
	    NULL, NULL, oltp_defaults, wl_oltp_run },
	{ "command", "the user's own benchmark, run by /bin/sh -c",
	    WL_K_COMMON | WL_K_COMMAND | WL_K_MEASURE, WL_F_COMMAND, NULL,
	    NULL, NULL, wl_command_run },
};

static const struct {
	unsigned int	 key;
	const char	*name;
} wl_keys[] = {
	{ WL_K_ITERATIONS, "iterations" },
	{ WL_K_WARMUP, "warmup" },
	{ WL_K_TIMEOUT, "timeout" },
	{ WL_K_GRACE, "grace" },
	{ WL_K_WORK_DIR, "work_dir" },
	{ WL_K_FILE_LIMIT, "file_limit" },
	{ WL_K_SIZE, "size" },
	{ WL_K_DURATION, "duration" },
	{ WL_K_FSYNC_EVERY, "fsync_every" },
	{ WL_K_DIRECT, "direct" },
	{ WL_K_DEVICE, "device" },
	{ WL_K_DESTROY_DATA, "destroy_data" },
	{ WL_K_THREADS, "threads" },
	{ WL_K_TABLE_SIZE, "table_size" },
	{ WL_K_SEEKS, "seeks" },
	{ WL_K_SEEKERS, "seekers" },
	{ WL_K_COMMAND, "command" },
	{ WL_K_MEASURE, "measure" },
	{ WL_K_SETTLE, "settle" },
	{ WL_K_CHAR_SIZE, "char_size" },
};

/*
 * How long the disk workloads let the machine settle before each
 * iteration, after a flush.  On a virtual machine whose balloon takes
 * freed memory back (free page reporting), a file written right after
 * another was deleted gets its page cache from memory the guest still
 * holds, and one written seconds later from memory the host must hand
 * back page by page.  Measured with fio (1 GiB, fsync every 128 MiB) on
 * the development VM, three runs each after writing and deleting 1 GiB:
 * 845-1409 MiB/s at once, 564-840 after 3 s, 453-500 after 6 s, 506-570
 * after 12 s.  Without the pause a disk figure says mostly what ran
 * before it; with it, every iteration starts from the same state.
 */
#define WL_DISK_SETTLE	10

/* bonnie's defaults: bonnie++'s file of twice the RAM, 8000 seeks, 3. */
static void
bonnie_defaults(struct wl_params *p)
{
	p->settle = WL_DISK_SETTLE;
	p->size_ram = 2;
	p->seeks = 8000;
	p->seekers = 3;
	p->timeout = 6 * 3600;
}

/* The stream writer: 1 GiB in segments of 128 MiB. */
static void
stream_defaults(struct wl_params *p)
{
	p->settle = WL_DISK_SETTLE;
	p->size = 1024 * MIB;
	p->fsync_every = 128 * MIB;
}

/* The UnixBench tests: 10 s each, as UnixBench runs them. */
static void
sys_defaults(struct wl_params *p)
{
	p->duration = 10;
	p->timeout = 600;
}

/* sysbench's defaults: 10000 rows; 10 s per thread count here. */
static void
oltp_defaults(struct wl_params *p)
{
	p->duration = 10;
	p->table_size = 10000;
}

/* Find a workload by name; NULL if there is none. */
const struct wl_workload *
wl_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(wl_table); i++) {
		if (strcmp(wl_table[i].name, name) == 0)
			return &wl_table[i];
	}
	return NULL;
}

/*
 * Find a workload of the battery by name: wl_find(), less "command",
 * which is the kind of the user's own commands and no workload of the
 * battery, so that a section of that name is a command of the user's
 * (perfwatch.conf(5)), not the tuning of a battery workload.
 */
const struct wl_workload *
wl_battery_find(const char *name)
{
	const struct wl_workload	*wl;

	if ((wl = wl_find(name)) == NULL || (wl->flags & WL_F_COMMAND))
		return NULL;
	return wl;
}

/* The whole battery, in its canonical order. */
/*
 * The rule of a metric new to a store (store_metric_rule_set()): a test
 * of the system index is in its unit, higher is better, as a run of it
 * records it.  An import that said otherwise (sys.pipe lps, lower) was
 * taken: the index read it as higher all the same, compare as lower, and
 * every later run of sys.pipe failed ("is better lower in the store").
 */
int
wl_metric_rule(const char *workload, const char *metric, const char *unit,
    enum better better, char **cause)
{
	size_t	i;

	for (i = 0; i < nitems(wl_table); i++) {
		if (!(wl_table[i].flags & WL_F_INDEX) ||
		    strcmp(wl_table[i].name, workload) != 0 ||
		    strcmp(wl_table[i].index_metric, metric) != 0)
			continue;
		if (strcmp(wl_table[i].index_unit, unit) == 0 &&
		    better == BETTER_HIGHER)
			return 0;
		xasprintf(cause, "%s %s, a test of the system index, is in "
		    "%s, higher is better (this says %s, %s)", workload,
		    metric, wl_table[i].index_unit, unit,
		    better == BETTER_HIGHER ? "higher" : "lower");
		return -1;
	}
	return 0;
}

const struct wl_workload *
wl_list(size_t *n)
{
	*n = nitems(wl_table);
	return wl_table;
}

const char *
wl_key_name(unsigned int key)
{
	size_t	i;

	for (i = 0; i < nitems(wl_keys); i++) {
		if (wl_keys[i].key == key)
			return wl_keys[i].name;
	}
	return NULL;
}

/*
 * Set every workload key written in section of cfg (a profile or the
 * configuration).  On a bad value, -1 with *cause "key: what is wrong".
 * A key the workload does not take is said of the section's workload
 * ("t.x, a command"), not of its kind ("command") that wl_params_set()
 * knows.
 */
int
wl_params_apply(struct wl_params *p, const struct wl_workload *wl,
    const struct config *cfg, const char *section, char **cause)
{
	const char	*name, *what;
	char		*err = NULL;
	size_t		 i;

	what = section;
	if (strncmp(what, "workload ", 9) == 0)
		what += 9;
	for (i = 0; i < nitems(wl_keys); i++) {
		name = wl_keys[i].name;
		if (!config_is_set(cfg, section, name))
			continue;
		if (!(wl->keys & wl_keys[i].key)) {
			xasprintf(&err, "key %s does not apply to %s%s", name,
			    what, strcmp(what, wl->name) == 0 ? "" :
			    (wl->flags & WL_F_COMMAND) ? ", a command" : "");
		}
		/* As the loader says it: "file:line: key: expected ...". */
		if (err != NULL || wl_params_set(p, wl, name,
		    config_get_str(cfg, section, name), &err) == -1) {
			xasprintf(cause, "%s:%d: %s", config_file(cfg) != NULL ?
			    config_file(cfg) : "(defaults)",
			    config_key_line(cfg, section, name), err);
			free(err);
			return -1;
		}
	}
	return 0;
}

/* A key's bit from its name; 0 if unknown. */
unsigned int
wl_key_parse(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(wl_keys); i++) {
		if (strcmp(wl_keys[i].name, name) == 0)
			return wl_keys[i].key;
	}
	return 0;
}

/* Fill p with the defaults of wl (common ones, then its own). */
void
wl_params_init(struct wl_params *p, const struct wl_workload *wl)
{
	memset(p, 0, sizeof(*p));
	p->iterations = 5;
	p->warmup = 0;
	p->timeout = 1800;
	p->grace = 5;
	p->measure = WL_MEASURE_OUTPUT;
	if (wl != NULL && wl->defaults != NULL)
		wl->defaults(p);
}

/* Deep copy. */
void
wl_params_copy(struct wl_params *dst, const struct wl_params *src)
{
	*dst = *src;
	if (src->work_dir != NULL)
		dst->work_dir = xstrdup(src->work_dir);
	if (src->device != NULL)
		dst->device = xstrdup(src->device);
	if (src->command != NULL)
		dst->command = xstrdup(src->command);
	if (src->name != NULL)
		dst->name = xstrdup(src->name);
}

/* Free the strings of p and zero it. */
void
wl_params_clear(struct wl_params *p)
{
	free(p->work_dir);
	free(p->device);
	free(p->command);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

/*
 * The name of the workload that p runs, as messages give it: the one the
 * run calls it by (a user's command is [workload "NAME"], of kind
 * "command"), else the battery's.
 */
const char *
wl_params_name(const struct wl_params *p, const struct wl_workload *wl)
{
	return p->name != NULL ? p->name : wl->name;
}

/* Read a whole number in [min, max]. */
static int
parse_count(const char *s, long long min, long long max, long long *out)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Read a number followed by an optional unit; the unit is returned. */
static int
parse_number_unit(const char *s, double *v, const char **unit)
{
	char	*end;

	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*v) || *v < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	*unit = end;
	return 0;
}

/* Read seconds: "30", "2.5s", "500ms", "5m", "1h30m", "2d", "1w". */
static int
parse_seconds(const char *s, double *out)
{
	static const struct {
		const char	*unit;
		double		 seconds;
	} units[] = {
		{ "w", 7 * 86400 }, { "d", 86400 }, { "h", 3600 },
		{ "min", 60 }, { "ms", 0.001 }, { "m", 60 }, { "s", 1 },
	};
	char	*end;
	double	 v, total = 0, last = INFINITY;
	size_t	 i, len;

	if (*s == '\0')
		return -1;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s) && *s != '.')
			return -1;
		errno = 0;
		v = strtod(s, &end);
		if (end == s || errno == ERANGE || !isfinite(v))
			return -1;
		s = end;
		if (*s == '\0' && total == 0 && last == INFINITY) {
			*out = v;
			return 0;
		}
		for (i = 0; i < nitems(units); i++) {
			len = strlen(units[i].unit);
			if (strncmp(s, units[i].unit, len) == 0 &&
			    !isalpha((unsigned char)s[len]))
				break;
		}
		/* Each unit once, largest first. */
		if (i == nitems(units) || units[i].seconds >= last)
			return -1;
		last = units[i].seconds;
		total += v * units[i].seconds;
		s += len;
	}
	*out = total;
	return 0;
}

/* Read a size: "1048576" (bytes), "64K", "1.5G", "2TiB"; or "2x". */
static int
parse_size(const char *s, uint64_t *bytes, double *ram)
{
	const char	*unit;
	double		 v, mult;

	if (parse_number_unit(s, &v, &unit) == -1)
		return -1;
	if (ram != NULL && (unit[0] == 'x' || unit[0] == 'X')) {
		unit++;
		while (isspace((unsigned char)*unit))
			unit++;
		if ((*unit != '\0' && strcasecmp(unit, "ram") != 0) ||
		    v <= 0 || v > 64)
			return -1;
		*ram = v;
		*bytes = 0;
		return 0;
	}
	switch (toupper((unsigned char)unit[0])) {
	case '\0':
		mult = 1;
		break;
	case 'M':
		mult = 1 << 20;
		break;
	case 'K':
		mult = 1 << 10;
		break;
	case 'G':
		mult = 1 << 30;
		break;
	case 'T':
		mult = 1099511627776.0;
		break;
	case 'B':
		mult = 1;
		if (unit[1] != '\0')
			return -1;
		break;
	default:
		return -1;
	}
	if (unit[0] != '\0' && toupper((unsigned char)unit[0]) != 'B' &&
	    unit[1] != '\0' && strcasecmp(unit + 1, "B") != 0 &&
	    strcasecmp(unit + 1, "iB") != 0)
		return -1;
	if (v * mult >= 18446744073709549568.0)
		return -1;
	*bytes = (uint64_t)(v * mult);
	if (ram != NULL)
		*ram = 0;
	return 0;
}

/* Read a boolean. */
static int
parse_bool(const char *s, int *out)
{
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0 ||
	    strcasecmp(s, "on") == 0 || strcmp(s, "1") == 0)
		*out = 1;
	else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0 ||
	    strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

/* Read "auto" or a list of thread counts. */
static int
parse_threads(const char *s, struct wl_params *p, char **cause)
{
	char		*copy, *tok, *save = NULL;
	long long	 v;
	size_t		 n = 0, i;

	if (strcmp(s, "auto") == 0) {
		p->nthreads = 0;
		return 0;
	}
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ", \t", &save); tok != NULL;
	    tok = strtok_r(NULL, ", \t", &save)) {
		if (parse_count(tok, 1, 4096, &v) == -1) {
			xasprintf(cause, "threads: \"%s\" is not a count "
			    "from 1 to 4096", tok);
			goto fail;
		}
		if (n == WL_THREADS_MAX) {
			xasprintf(cause, "threads: more than %d counts",
			    WL_THREADS_MAX);
			goto fail;
		}
		for (i = 0; i < n; i++) {
			if (p->threads[i] == v) {
				xasprintf(cause, "threads: %lld given twice",
				    v);
				goto fail;
			}
		}
		p->threads[n++] = (int)v;
	}
	if (n == 0) {
		xasprintf(cause, "threads: expected \"auto\" or a list "
		    "such as 1,2,4");
		goto fail;
	}
	p->nthreads = n;
	free(copy);
	return 0;
fail:
	free(copy);
	return -1;
}

/*
 * Set one key of a [workload] section from its text.  Returns 0, or -1
 * with *cause saying what was expected.
 */
int
wl_params_set(struct wl_params *p, const struct wl_workload *wl,
    const char *key, const char *value, char **cause)
{
	unsigned int	 k;
	long long	 n;
	double		 d;
	uint64_t	 bytes;
	const char	*expect;

	if ((k = wl_key_parse(key)) == 0) {
		xasprintf(cause, "unknown key \"%s\"", key);
		return -1;
	}
	if (!(wl->keys & k)) {
		xasprintf(cause, "key %s does not apply to %s", key,
		    wl->name);
		return -1;
	}
	switch (k) {
	case WL_K_ITERATIONS:
		expect = "a count from 1 to 100000";
		if (parse_count(value, 1, 100000, &n) == -1)
			goto bad;
		p->iterations = (int)n;
		break;
	case WL_K_WARMUP:
		expect = "a count from 0 to 1000, or yes/no";
		if (parse_bool(value, &p->warmup) == 0)
			break;
		if (parse_count(value, 0, 1000, &n) == -1)
			goto bad;
		p->warmup = (int)n;
		break;
	case WL_K_SETTLE:
		expect = "a duration from 0 to 1h, such as 10s";
		if (parse_seconds(value, &d) == -1 || d > 3600)
			goto bad;
		p->settle = d;
		break;
	case WL_K_TIMEOUT:
	case WL_K_GRACE:
	case WL_K_DURATION:
		expect = "a duration such as 30, 2.5s, 500ms, 5m, 1h30m";
		if (parse_seconds(value, &d) == -1)
			goto bad;
		if (k != WL_K_GRACE && d <= 0) {
			expect = "a time above zero";
			goto bad;
		}
		if (k == WL_K_TIMEOUT)
			p->timeout = d;
		else if (k == WL_K_GRACE)
			p->grace = d;
		else
			p->duration = d;
		break;
	case WL_K_SIZE:
		expect = "a size such as 256M, 4G or 2x (twice the RAM)";
		if (parse_size(value, &bytes, &d) == -1)
			goto bad;
		if (d == 0 && bytes < MIB) {
			expect = "a size of at least 1M";
			goto bad;
		}
		p->size = bytes;
		p->size_ram = d;
		break;
	case WL_K_FSYNC_EVERY:
	case WL_K_FILE_LIMIT:
	case WL_K_CHAR_SIZE:
		expect = "a size such as 512K, 64M or 1G";
		if (parse_size(value, &bytes, NULL) == -1)
			goto bad;
		if (k == WL_K_FSYNC_EVERY && bytes > 0 && bytes < MIB) {
			expect = "0 (one fsync at the end) or a size of at "
			    "least 1M";
			goto bad;
		}
		if (k == WL_K_CHAR_SIZE && bytes < MIB) {
			expect = "a size of at least 1M";
			goto bad;
		}
		if (k == WL_K_FSYNC_EVERY)
			p->fsync_every = bytes;
		else if (k == WL_K_CHAR_SIZE)
			p->char_size = bytes;
		else
			p->file_limit = bytes;
		break;
	case WL_K_DIRECT:
	case WL_K_DESTROY_DATA:
		expect = "yes or no";
		if (parse_bool(value, k == WL_K_DIRECT ? &p->direct :
		    &p->destroy_data) == -1)
			goto bad;
		break;
	case WL_K_DEVICE:
	case WL_K_WORK_DIR:
		expect = "an absolute path";
		if (value[0] != '/')
			goto bad;
		if (k == WL_K_DEVICE) {
			free(p->device);
			p->device = xstrdup(value);
		} else {
			free(p->work_dir);
			p->work_dir = xstrdup(value);
		}
		break;
	case WL_K_THREADS:
		return parse_threads(value, p, cause);
	case WL_K_TABLE_SIZE:
		expect = "a count of rows from 100 to 1000000000";
		if (parse_count(value, 100, 1000000000, &n) == -1)
			goto bad;
		p->table_size = (uint64_t)n;
		break;
	case WL_K_SEEKS:
		expect = "a count from 1 to 100000000";
		if (parse_count(value, 1, 100000000, &n) == -1)
			goto bad;
		p->seeks = (int)n;
		break;
	case WL_K_SEEKERS:
		expect = "a count from 1 to 64";
		if (parse_count(value, 1, 64, &n) == -1)
			goto bad;
		p->seekers = (int)n;
		break;
	case WL_K_COMMAND:
		expect = "a command";
		if (value[strspn(value, " \t")] == '\0')
			goto bad;
		free(p->command);
		p->command = xstrdup(value);
		break;
	case WL_K_MEASURE:
		expect = "output or time";
		if (strcmp(value, "output") == 0)
			p->measure = WL_MEASURE_OUTPUT;
		else if (strcmp(value, "time") == 0)
			p->measure = WL_MEASURE_TIME;
		else
			goto bad;
		break;
	}
	return 0;
bad:
	xasprintf(cause, "%s: expected %s, got \"%s\"", key, expect, value);
	return -1;
}

/*
 * The file size in bytes, with "<n>xRAM" resolved to the memory this
 * process may use (a memory limit's page cache is the limit's, so twice
 * the limit is as far out of the cache as twice the RAM).
 */
uint64_t
wl_params_size(const struct wl_params *p)
{
	if (p->size_ram > 0)
		return (uint64_t)(p->size_ram * wl_memory_bytes()) &
		    ~(MIB - 1);
	return p->size;
}

/*
 * The thread counts of the OLTP sweep: the configured list, or 1, 2, 4 ...
 * up to the first power of two at least twice the CPUs this process may
 * use (wl_ncpu), so that a run pinned to one CPU sweeps 1 and 2 rather
 * than up to twice the machine.  Returns how many were stored in out (at
 * most max).
 */
size_t
wl_params_threads(const struct wl_params *p, int *out, size_t max)
{
	size_t	n = 0;
	int	t, want;

	if (p->nthreads > 0) {
		for (n = 0; n < p->nthreads && n < max; n++)
			out[n] = p->threads[n];
		return n;
	}
	want = 2 * wl_ncpu();
	for (t = 1; n < max; t *= 2) {
		out[n++] = t;
		if (t >= want)
			break;
	}
	return n;
}

/*
 * The bytes of the file that wl, a workload with a size, writes: its size
 * rounded down as wl_stream_run() and wl_bonnie_run() round it, to whole
 * MiB or chunks.
 */
static uint64_t
wl_file_size(const struct wl_params *p, const struct wl_workload *wl)
{
	uint64_t	unit = 1;

	if (wl->run == wl_stream_run)
		unit = WL_STREAM_BLOCK;
	else if (wl->run == wl_bonnie_run)
		unit = WL_BONNIE_CHUNK;
	return wl_params_size(p) / unit * unit;
}

/* Check that p is complete and coherent for wl; 0 or -1 with *cause. */
int
wl_params_check(const struct wl_params *p, const struct wl_workload *wl,
    char **cause)
{
	const char	*name = wl_params_name(p, wl);
	int		 threads[WL_THREADS_MAX];
	size_t		 n;

	if (p->iterations < 1 || p->warmup < 0) {
		xasprintf(cause, "%s: iterations must be at least 1",
		    name);
		return -1;
	}
	if (p->timeout <= 0) {
		xasprintf(cause, "%s: timeout must be above zero", name);
		return -1;
	}
	if ((wl->keys & WL_K_DURATION) && p->duration <= 0) {
		xasprintf(cause, "%s: duration must be above zero", name);
		return -1;
	}
	/*
	 * A timed loop runs duration seconds of wall clock (db.oltp: at each
	 * thread count), so a timeout no longer than that stops every
	 * iteration, after the whole wait, with nothing measured.
	 */
	if ((wl->keys & WL_K_DURATION) && (n = (wl->keys & WL_K_THREADS) ?
	    wl_params_threads(p, threads, WL_THREADS_MAX) : 1) > 0 &&
	    p->duration * n >= p->timeout) {
		if (n == 1)
			xasprintf(cause, "%s: duration %g s is not shorter "
			    "than timeout %g s, so every iteration would time "
			    "out; raise timeout", name, p->duration,
			    p->timeout);
		else
			xasprintf(cause, "%s: duration %g s at each of %zu "
			    "thread counts (%g s) is not shorter than timeout "
			    "%g s, so every iteration would time out; raise "
			    "timeout", name, p->duration, n,
			    p->duration * n, p->timeout);
		return -1;
	}
	if ((wl->keys & WL_K_SIZE) && wl_params_size(p) < MIB) {
		xasprintf(cause, "%s: size must be at least 1M", name);
		return -1;
	}
	/*
	 * The limit applies to files, not to a raw device, and to the file
	 * written: size = 4608K writes 4 MiB, which file_limit = 4M allows.
	 */
	if ((wl->keys & WL_K_SIZE) && (wl->keys & WL_K_FILE_LIMIT) &&
	    p->file_limit > 0 && p->device == NULL &&
	    wl_file_size(p, wl) > p->file_limit) {
		xasprintf(cause, "%s: its file of %llu bytes (size) is larger "
		    "than file_limit, %llu bytes, so every iteration would "
		    "fail; raise file_limit or lower size", name,
		    (unsigned long long)wl_file_size(p, wl),
		    (unsigned long long)p->file_limit);
		return -1;
	}
	if ((wl->keys & WL_K_FSYNC_EVERY) && p->fsync_every > 0 &&
	    p->fsync_every < MIB) {
		xasprintf(cause, "%s: fsync_every must be 0 or at least 1M",
		    name);
		return -1;
	}
	if ((wl->keys & WL_K_DEVICE) && p->device != NULL &&
	    !p->destroy_data) {
		xasprintf(cause, "%s: refusing to write to %s without "
		    "destroy_data = yes (its contents would be lost)",
		    name, p->device);
		return -1;
	}
	if ((wl->keys & WL_K_SEEKS) && (p->seeks < 1 || p->seekers < 1)) {
		xasprintf(cause, "%s: seeks and seekers must be at least 1",
		    name);
		return -1;
	}
	if ((wl->keys & WL_K_TABLE_SIZE) && p->table_size < 100) {
		xasprintf(cause, "%s: table_size must be at least 100",
		    name);
		return -1;
	}
	if ((wl->flags & WL_F_COMMAND) && (p->command == NULL ||
	    p->command[strspn(p->command, " \t")] == '\0')) {
		xasprintf(cause, "%s: no command given", name);
		return -1;
	}
	return 0;
}

/*
 * Why the workload name (of kind wl, with parameters p) cannot run, why
 * being what wl_params_check() said, said at the header of its section
 * (file, line): "file:line: [workload "name"]: why", and for a name that
 * is no workload of the battery and has no command, that it is not one,
 * with the workloads it is likely a typo of (name_hint).
 * perfwatch run, the configuration's check and perfwatchd -n say it so.
 */
char *
wl_check_cause(const char *file, int line, const char *name,
    const struct wl_workload *wl, const struct wl_params *p, const char *why)
{
	struct name_hint	 h;
	const char		*said = wl_params_name(p, wl);
	char			*cause, *hint = NULL;
	size_t			 len = strlen(said), i;

	/* Its message starts with the workload's name (or "command: "). */
	if (strncmp(why, said, len) == 0 && strncmp(why + len, ": ", 2) == 0)
		why += len + 2;
	if (wl_battery_find(name) == NULL && p->command == NULL) {
		name_hint_init(&h, name);
		for (i = 0; i < nitems(wl_table); i++)
			if (!(wl_table[i].flags & WL_F_COMMAND))
				name_hint_add(&h, wl_table[i].name);
		hint = name_hint_text(&h);
	}
	xasprintf(&cause, "%s:%d: [workload \"%s\"]: %s%s%s%s%s", file, line,
	    name, why, wl_battery_find(name) == NULL && p->command == NULL ?
	    ", and it is not a workload of the battery" : "",
	    hint != NULL ? " (did you mean " : "", hint != NULL ? hint : "",
	    hint != NULL ? "?)" : "");
	free(hint);
	return cause;
}

/*
 * Read the section [workload "name"] of cfg as a run reads it: its kind
 * in *wl (a command of the user's own for a name not in the battery),
 * "workload NAME" in *section (the caller frees it), and p at the kind's
 * defaults with the section's keys over them.  0, or -1 with *err
 * ("file:line: ...") on a bad key; *err is NULL otherwise.
 */
static int
wl_section_params(const struct config *cfg, const char *name,
    const struct wl_workload **wl, char **section, struct wl_params *p,
    char **err)
{
	if ((*wl = wl_find(name)) == NULL)
		*wl = wl_find("command");
	xasprintf(section, "workload %s", name);
	wl_params_init(p, *wl);
	*err = NULL;
	return wl_params_apply(p, *wl, cfg, *section, err);
}

/*
 * Whether name has the prefix of a workload of the battery ("sys."), in
 * any case.
 */
static int
wl_in_family(const char *name)
{
	const char	*dot;
	size_t		 i, len;

	for (i = 0; i < nitems(wl_table); i++) {
		if ((dot = strchr(wl_table[i].name, '.')) == NULL)
			continue;
		len = (size_t)(dot - wl_table[i].name) + 1;
		if (strncasecmp(name, wl_table[i].name, len) == 0)
			return 1;
	}
	return 0;
}

/*
 * Check every [workload "name"] section of cfg as a run reads it: each
 * key through wl_params_set() (wl_params_apply) and, for a section not
 * turned off, the whole through wl_params_check(), on the workload's own
 * defaults.  A name that is not a workload of the battery is a command of
 * the user's own; one without a command here may tune a command that a
 * profile defines, unless it is named like the battery's (sys.pipx, or
 * Sys.pipe: the battery's names are lower case, and a run matches them
 * as written): that is a misspelling.  Returns 0, or -1 with *cause
 * holding one "file:line: ..." error per bad section, one per line.
 */
int
wl_config_check(const struct config *cfg, char **cause)
{
	const struct wl_workload	*wl;
	struct wl_params		 p;
	const char			*name, *file;
	char				*section, *err, *out = NULL, *tmp;
	size_t				 i;

	file = config_file(cfg) != NULL ? config_file(cfg) : "(defaults)";
	for (i = 0; (name = config_sections(cfg, "workload", i)) != NULL;
	    i++) {
		/* On a bad key, err has the file and line already. */
		if (wl_section_params(cfg, name, &wl, &section, &p,
		    &err) == 0 &&
		    (!config_is_set(cfg, section, "enabled") ||
		    config_get_bool(cfg, section, "enabled")) &&
		    (wl_battery_find(name) != NULL || p.command != NULL ||
		    wl_in_family(name)) &&
		    wl_params_check(&p, wl, &tmp) == -1) {
			err = wl_check_cause(file, config_section_line(cfg,
			    section), name, wl, &p, tmp);
			free(tmp);
		}
		wl_params_clear(&p);
		free(section);
		if (err == NULL)
			continue;
		if (out == NULL)
			out = err;
		else {
			xasprintf(&tmp, "%s\n%s", out, err);
			free(out);
			free(err);
			out = tmp;
		}
	}
	if (out == NULL)
		return 0;
	*cause = out;
	return -1;
}

/* A size as the configuration writes one: "128M", or bytes. */
static void
wl_size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char	units[] = "TGMK";
	size_t			i;

	for (i = 0; bytes > 0 && i < sizeof(units) - 1; i++) {
		if (bytes % (UINT64_C(1) << (10 * (4 - i))) == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)
			    (bytes >> (10 * (4 - i))), units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

/* Seconds as the configuration writes them: "10m", "1h30m", or "2.5". */
static void
wl_seconds_text(double secs, char *buf, size_t len)
{
	if (secs != floor(secs) || timefmt_format_duration((int64_t)secs,
	    buf, len) == -1)
		snprintf(buf, len, "%g", secs);
}

/*
 * How the configuration writes each plain key of struct wl_params: 'n' an
 * int, 'y' an int as yes or no, 'u' a uint64_t count, 's' seconds (a
 * double), 'b' bytes, 'B' bytes where 0 is none (no file_limit, a
 * char_size of the whole file).
 */
static const struct {
	unsigned int	 key;
	char		 kind;
	size_t		 off;
} wl_key_texts[] = {
	{ WL_K_ITERATIONS, 'n', offsetof(struct wl_params, iterations) },
	{ WL_K_WARMUP, 'n', offsetof(struct wl_params, warmup) },
	{ WL_K_SEEKS, 'n', offsetof(struct wl_params, seeks) },
	{ WL_K_SEEKERS, 'n', offsetof(struct wl_params, seekers) },
	{ WL_K_DIRECT, 'y', offsetof(struct wl_params, direct) },
	{ WL_K_DESTROY_DATA, 'y', offsetof(struct wl_params, destroy_data) },
	{ WL_K_TABLE_SIZE, 'u', offsetof(struct wl_params, table_size) },
	{ WL_K_TIMEOUT, 's', offsetof(struct wl_params, timeout) },
	{ WL_K_GRACE, 's', offsetof(struct wl_params, grace) },
	{ WL_K_SETTLE, 's', offsetof(struct wl_params, settle) },
	{ WL_K_DURATION, 's', offsetof(struct wl_params, duration) },
	{ WL_K_FSYNC_EVERY, 'b', offsetof(struct wl_params, fsync_every) },
	{ WL_K_FILE_LIMIT, 'B', offsetof(struct wl_params, file_limit) },
	{ WL_K_CHAR_SIZE, 'B', offsetof(struct wl_params, char_size) },
};

/*
 * The value of key in p as the configuration would write it, in buf; 0,
 * or -1 for a key without one (no command, device or work directory of
 * its own, no file_limit, char_size the whole file).
 */
static int
wl_param_text(const struct wl_params *p, unsigned int key, char *buf,
    size_t len)
{
	const char	*field;
	int		 threads[WL_THREADS_MAX], v;
	uint64_t	 u;
	double		 d;
	size_t		 n, i, off;

	for (i = 0; i < nitems(wl_key_texts); i++) {
		if (wl_key_texts[i].key != key)
			continue;
		field = (const char *)p + wl_key_texts[i].off;
		switch (wl_key_texts[i].kind) {
		case 'n':
		case 'y':
			memcpy(&v, field, sizeof(v));
			if (wl_key_texts[i].kind == 'y')
				snprintf(buf, len, "%s", v ? "yes" : "no");
			else
				snprintf(buf, len, "%d", v);
			return 0;
		case 's':
			memcpy(&d, field, sizeof(d));
			wl_seconds_text(d, buf, len);
			return 0;
		default:
			memcpy(&u, field, sizeof(u));
			if (u == 0 && wl_key_texts[i].kind == 'B')
				return -1;
			if (wl_key_texts[i].kind == 'u')
				snprintf(buf, len, "%llu",
				    (unsigned long long)u);
			else
				wl_size_text(u, buf, len);
			return 0;
		}
	}
	switch (key) {
	case WL_K_SIZE:
		if (p->size_ram > 0)
			snprintf(buf, len, "%gx", p->size_ram);
		else
			wl_size_text(p->size, buf, len);
		return 0;
	case WL_K_MEASURE:
		snprintf(buf, len, "%s", p->measure == WL_MEASURE_TIME ?
		    "time" : "output");
		return 0;
	case WL_K_THREADS:
		/* Without a list, this machine's sweep. */
		n = wl_params_threads(p, threads, WL_THREADS_MAX);
		buf[0] = '\0';
		for (i = off = 0; i < n && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%d",
			    i > 0 ? ", " : "", threads[i]);
		return 0;
	}
	/* command, device, work_dir: text, given or none. */
	return -1;
}

/* The last of the n files that sets key in section, or NULL. */
static const struct config *
wl_key_by(const struct config *const *from, size_t n, const char *section,
    const char *key)
{
	const struct config	*by = NULL;
	size_t			 i;

	for (i = 0; i < n; i++)
		if (config_is_set(from[i], section, key))
			by = from[i];
	return by;
}

/*
 * Write the [workload] sections of cfg with their effective values:
 * enabled, then each key that its workload reads, as the section gives
 * it, else as the profile prof gives it for that workload (a run reads
 * the profile's section first: quick's sys.pipe runs 2 s), else at that
 * workload's own default (sys.pipe's timeout is 10m, disk.bonnie's 6h),
 * and none that it does not read, which the file would refuse.  A key
 * without a default that neither gives is left out.  prof may be NULL.
 * perfwatchd -n -v prints them after the other sections
 * (config_dump_except()), so that what it prints reads back as the same
 * configuration.  0, or -1 when fp cannot be written.
 */
int
wl_config_dump(const struct config *prof, const struct config *cfg,
    FILE *fp)
{
	const struct wl_workload	*wl;
	const struct config		*from[2], *by;
	struct wl_params		 p;
	const char			*name, *key;
	char				*section, *err, buf[256];
	size_t				 i, k, f, nfrom;

	for (i = 0; (name = config_sections(cfg, "workload", i)) != NULL;
	    i++) {
		if ((wl = wl_find(name)) == NULL)
			wl = wl_find("command");
		xasprintf(&section, "workload %s", name);
		/*
		 * The profile's section, then the configuration's over it,
		 * as a run applies them; a battery workload that the profile
		 * does not run has no section there, and the configuration
		 * only tunes it.  Both files were checked already.
		 */
		nfrom = 0;
		if (prof != NULL && config_section_line(prof, section) != 0)
			from[nfrom++] = prof;
		from[nfrom++] = cfg;
		wl_params_init(&p, wl);
		for (f = 0; f < nfrom; f++)
			if (wl_params_apply(&p, wl, from[f], section,
			    &err) == -1)
				free(err);
		by = wl_key_by(from, nfrom, section, "enabled");
		fprintf(fp, "\n[workload \"%s\"]\nenabled = %s\n", name,
		    config_get_bool(by != NULL ? by : cfg, section,
		    "enabled") ? "yes" : "no");
		for (k = 0; k < nitems(wl_keys); k++) {
			if (!(wl->keys & wl_keys[k].key))
				continue;
			key = wl_keys[k].name;
			if ((by = wl_key_by(from, nfrom, section, key)) != NULL)
				fprintf(fp, "%s = %s\n", key,
				    config_get_str(by, section, key));
			else if (wl_param_text(&p, wl_keys[k].key, buf,
			    sizeof(buf)) == 0)
				fprintf(fp, "%s = %s\n", key, buf);
		}
		wl_params_clear(&p);
		free(section);
	}
	if (fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}

/* qsort(3) order of two names (char *), as a reader counts them. */
static int
wl_name_order(const void *a, const void *b)
{
	return name_cmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The profiles a profile name not found is likely meant for (name_hint):
 * the NAME.conf files of the n directories a run looks in, or NULL.  A
 * directory that cannot be read has none.  Two as near are said in the
 * order of their names.  The caller frees it.
 */
char *
wl_profile_hint(const char *const *dirs, size_t n, const char *name)
{
	struct name_hint	 h;
	struct dirent		*de;
	DIR			*d;
	char			**seen = NULL, *hint;
	size_t			 i, len, nseen = 0;

	name_hint_init(&h, name);
	for (i = 0; i < n; i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len <= 5 || de->d_name[0] == '.' ||
			    strcmp(de->d_name + len - 5, ".conf") != 0)
				continue;
			seen = xreallocarray(seen, nseen + 1, sizeof(*seen));
			seen[nseen++] = xstrndup(de->d_name, len - 5);
		}
		closedir(d);
	}
	/* In the order of their names, not of the directory's. */
	if (nseen > 0)
		qsort(seen, nseen, sizeof(*seen), wl_name_order);
	for (i = 0; i < nseen; i++)
		name_hint_add(&h, seen[i]);
	hint = name_hint_text(&h);
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	return hint;
}

/*
 * Whether each of globs matches one of the workloads (names), as a run
 * selects them (fnmatch(3)).  0, or -1 and *cause naming the globs that
 * match nothing, each with the workload it is likely a typo of, and the
 * workloads there are.  perfwatch run --workload and perfwatchd's
 * workloads keys both say it so.
 */
int
wl_globs_check(char *const *names, size_t n, char *const *globs,
    size_t nglobs, char **cause)
{
	char		*hint, *bad = NULL, *all = NULL, *tmp;
	size_t		 i, k, nbad = 0;

	for (i = 0; i < nglobs; i++) {
		for (k = 0; k < n; k++)
			if (fnmatch(globs[i], names[k], 0) == 0)
				break;
		if (k < n)
			continue;
		hint = name_hint(globs[i], names, n);
		xasprintf(&tmp, "%s%s\"%s\"%s%s%s", bad != NULL ? bad : "",
		    bad != NULL ? ", " : "", globs[i], hint != NULL ?
		    " (did you mean " : "", hint != NULL ? hint : "",
		    hint != NULL ? "?)" : "");
		free(hint);
		free(bad);
		bad = tmp;
		nbad++;
	}
	if (nbad == 0)
		return 0;
	for (k = 0; k < n; k++) {
		xasprintf(&tmp, "%s%s%s", all != NULL ? all : "",
		    all != NULL ? " " : "", names[k]);
		free(all);
		all = tmp;
	}
	xasprintf(cause, "%s match%s no workload of the profile (%s%s)", bad,
	    nbad == 1 ? "es" : "", n > 0 ? "its workloads: " :
	    "it has none to run", n > 0 ? all : "");
	free(bad);
	free(all);
	return -1;
}
