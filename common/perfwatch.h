/*
 * Cross-cutting types and constants shared by every perfwatch module.
 */
#ifndef PERFWATCH_H
#define PERFWATCH_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#define PERFWATCH_VERSION	"0.1.0"

/*
 * The file every battery on the machine locks while it measures, so that
 * two never measure at once (cli/run.c): in a directory every user can
 * write and every service can read, /run/lock on Linux (shared across
 * systemd's PrivateTmp), /tmp elsewhere.  [quiet] lock sets another.
 */
#ifdef __linux__
#define PERFWATCH_LOCK_DEFAULT	"/run/lock/perfwatch.lock"
#else
#define PERFWATCH_LOCK_DEFAULT	"/tmp/perfwatch.lock"
#endif

/*
 * Where the daemon keeps its database and where its control socket
 * lives: hier(7) of each system, /var/lib and /run on Linux, /var/db and
 * /var/run on the BSDs.  [perfwatch] state_dir and socket set others.
 */
#ifdef __linux__
#define PERFWATCH_STATE_DEFAULT		"/var/lib/perfwatch"
#define PERFWATCH_SOCKET_DEFAULT	"/run/perfwatch/perfwatchd.sock"
#else
#define PERFWATCH_STATE_DEFAULT		"/var/db/perfwatch"
#define PERFWATCH_SOCKET_DEFAULT	"/var/run/perfwatch/perfwatchd.sock"
#endif

/* sysexits.h values, named here so that FreeBSD and Linux agree. */
#define EXIT_USAGE	64	/* EX_USAGE */
#define EXIT_DATAERR	65	/* EX_DATAERR */
#define EXIT_NOINPUT	66	/* EX_NOINPUT */
#define EXIT_SOFTWARE	70	/* EX_SOFTWARE */
#define EXIT_CANTCREAT	73	/* EX_CANTCREAT */
#define EXIT_IOERR	74	/* EX_IOERR */
#define EXIT_TEMPFAIL	75	/* EX_TEMPFAIL */
#define EXIT_CONFIG	78	/* EX_CONFIG */

/* Which way a metric gets better. */
enum better {
	BETTER_HIGHER = 0,
	BETTER_LOWER = 1,
};

const char	*better_name(enum better);
int		 better_parse(const char *, enum better *);
/* The perfwatch binary to start as a child; free it. */
char		*perfwatch_path(const char *argv0);
/* Seconds on the monotonic clock: for intervals, never for dates. */
double		 perfwatch_mono(void);
/*
 * The shortest "%g" form of v (up to 17 significant digits) that reads
 * back as the same double: what every output of a number writes, so
 * that a table, a CSV, JSON and an export agree.
 */
void		 perfwatch_format_double(char *, size_t, double);
/*
 * Reap the child pid, waiting no later than until (perfwatch_mono()
 * seconds): 1 once reaped (*status set, unless NULL), 0 if it is still
 * there then, -1 if it cannot be waited for (errno set).  For a child
 * that may never end: one that closed its output and kept running, or
 * one stuck in the kernel after SIGKILL.
 */
int		 perfwatch_reap_until(pid_t pid, int *status, double until);
/*
 * Close every descriptor from low on: closefrom() where the system has
 * it.  Safe between fork and exec.  The fallback is the loop used where
 * neither closefrom() nor close_range() exists, named for its test.
 */
void		 perfwatch_closefrom(int low);
void		 perfwatch_closefrom_fallback(int low);
/*
 * A number drawn uniformly from [0, n) (n > 0): arc4random_uniform()
 * where the system has it.  The fallback, named for its test, draws from
 * random() where the C library lacks it (glibc before 2.36, musl).  For
 * jitter, not for secrets.
 */
uint32_t	 perfwatch_random_below(uint32_t n);
uint32_t	 perfwatch_random_below_fallback(uint32_t n);
/* Whether two optional strings (NULL: none) are equal. */
int		 same_str(const char *, const char *);
/* Names in the order a reader counts them: tps_t2 before tps_t16. */
int		 name_cmp(const char *, const char *);
int		 name_ncmp(const char *, size_t, const char *, size_t);
/* How many typos typed is from known (0 to 2), or -1: not a near miss. */
#define NAME_NEAR_MAX	64
int		 name_near(const char *typed, const char *known);
/*
 * The names a name mistyped is likely meant for, for "did you mean":
 * gathered by name_hint_add(), said by name_hint_text() ("a" or "a or
 * b", NULL for none; freed by the caller); name_hint() does both for a
 * list.  Every message that refuses an unknown name says it so.
 */
struct name_hint {
	const char	*typed;
	const char	*best[2];
	size_t		 nbest;		/* as near as best[0]; may be > 2 */
	int		 rank;		/* name_near(), or 3 for a prefix */
};
void		 name_hint_init(struct name_hint *, const char *typed);
void		 name_hint_add(struct name_hint *, const char *known);
char		*name_hint_text(const struct name_hint *);
char		*name_hint(const char *typed, char *const *names, size_t n);

/*
 * The PATH of what perfwatch runs for the machine (workloads, and a
 * snapshot's helpers such as cc): fixed, not the caller's, so that a
 * shell with a toolset first in its PATH and perfwatchd see one machine.
 */
#define PERFWATCH_PATH	"/usr/local/bin:/usr/bin:/bin:" \
			"/usr/local/sbin:/usr/sbin:/sbin"

/* Number of elements of a fixed array. */
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))

#endif
