/*
 * Logging: stderr in the foreground, syslog otherwise.
 *
 * log_warn() appends strerror(errno); log_warnx() does not.  fatal() and
 * fatalx() log and exit(1): use them only at start-up or when an invariant
 * is broken.
 */
#ifndef PERFWATCH_LOG_H
#define PERFWATCH_LOG_H

#include <stdarg.h>

void	log_init(const char *progname, int foreground, int verbose);
void	log_set_verbose(int verbose);
/* Detached logging only: also say warnings and errors on stderr. */
void	log_stderr_also(int on);
/* The exit status of fatal() and fatalx(); 1 by default. */
void	log_set_fatal_status(int status);
int	log_get_verbose(void);
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
