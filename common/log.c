/*
 * Logging for perfwatch and perfwatchd.
 *
 * In the foreground (and for the command-line tool) messages go to stderr
 * prefixed by the program name; the daemon detached logs through syslog so
 * nothing goes silent.  errno is saved on entry so that a caller's
 * log_warn() always reports the error that happened before the call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"

static const char	*log_progname = "perfwatch";
static int		 log_foreground = 1;
static int		 log_verbose;
static int		 log_stderr_too;
static int		 log_fatal_status = 1;

/* Set where messages go; safe to call again (e.g. after daemonising). */
void
log_init(const char *progname, int foreground, int verbose)
{
	if (progname != NULL)
		log_progname = progname;
	log_foreground = foreground;
	log_verbose = verbose;
	if (!foreground)
		openlog(log_progname, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

/*
 * While on (a daemon not yet detached, started from a shell), warnings
 * and errors logged to syslog are said on stderr too: "another perfwatchd
 * uses ..." and the like went to syslog alone, and the start exited 1
 * with nothing said where it was typed.
 */
void
log_stderr_also(int on)
{
	log_stderr_too = on;
}

/*
 * The exit status of fatal() and fatalx(), 1 unless set: where 1 means
 * something else (perfwatch check: a regression; under git bisect run:
 * a bad commit), an out-of-memory death must not say it.
 */
void
log_set_fatal_status(int status)
{
	log_fatal_status = status;
}

void
log_set_verbose(int verbose)
{
	log_verbose = verbose;
}

int
log_get_verbose(void)
{
	return log_verbose;
}

static void	log_emit(int, int, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));

/*
 * Copy msg to out (at least 4 * strlen(msg) + 1 bytes) with its control
 * characters escaped as \n, \r or \xHH: messages carry names from
 * outside (an imported metric, a label, a benchmark's output, a request's
 * target), and a newline in one started a line of its own in the log,
 * one that read as ours ("perfwatchd: ..."), while an escape sequence
 * reached the terminal of whoever read it.
 */
static void
log_escape(char *out, const char *msg)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)msg; *p != '\0'; p++) {
		/* A tab moves no line and sends no command: kept. */
		if ((*p >= 0x20 && *p != 0x7f) || *p == '\t') {
			*out++ = (char)*p;
			continue;
		}
		*out++ = '\\';
		switch (*p) {
		case '\n':
			*out++ = 'n';
			break;
		case '\r':
			*out++ = 'r';
			break;
		default:
			snprintf(out, 4, "x%02x", *p);
			out += 3;
			break;
		}
	}
	*out = '\0';
}

/* Emit one message at priority pri, with the error text of errnum if set. */
static void
log_emit(int pri, int errnum, const char *fmt, va_list ap)
{
	char	raw[2048], msg[4 * sizeof(raw)];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	log_escape(msg, raw);
	if (!log_foreground) {
		if (errnum != 0)
			syslog(pri, "%s: %s", msg, strerror(errnum));
		else
			syslog(pri, "%s", msg);
		if (!log_stderr_too || pri > LOG_WARNING)
			return;
	}
	if (errnum != 0)
		fprintf(stderr, "%s: %s: %s\n", log_progname, msg,
		    strerror(errnum));
	else
		fprintf(stderr, "%s: %s\n", log_progname, msg);
	fflush(stderr);
}

void
log_warn(const char *fmt, ...)
{
	int	saved = errno;
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

void
log_warnx(const char *fmt, ...)
{
	int	saved = errno;
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

void
log_info(const char *fmt, ...)
{
	int	saved = errno;
	va_list	ap;

	/* Detached too: log_level = warning keeps info out of syslog. */
	if (log_verbose < 1) {
		errno = saved;
		return;
	}
	va_start(ap, fmt);
	log_emit(LOG_INFO, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

void
log_debug(const char *fmt, ...)
{
	int	saved = errno;
	va_list	ap;

	if (log_verbose < 2) {
		errno = saved;
		return;
	}
	va_start(ap, fmt);
	log_emit(LOG_DEBUG, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

void
fatal(const char *fmt, ...)
{
	int	saved = errno;
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, saved, fmt, ap);
	va_end(ap);
	exit(log_fatal_status);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, 0, fmt, ap);
	va_end(ap);
	exit(log_fatal_status);
}
