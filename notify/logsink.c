/*
 * The log sink: one line per alert change, to syslog when perfwatchd runs
 * the flush (--syslog) and to standard error in the foreground.  It is
 * always there: detect/ queues every change for it unless a [sink] of
 * type log says which changes to log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "xmalloc.h"
#include "notify.h"

/*
 * Log ev: at LOG_WARNING for a regression that is open, LOG_NOTICE for
 * anything else (an improvement, a resolution, an acknowledgement).
 */
void
notify_log(const struct notify_event *ev, const struct notify_opts *opts,
    struct notify_result *res)
{
	FILE	*f = opts->logf != NULL ? opts->logf : stderr;
	char	*line;
	int	 pri = LOG_NOTICE;

	line = notify_log_line(ev);
	if (!ev->test && strcmp(ev->direction, "regression") == 0 &&
	    (strcmp(ev->state, "suspected") == 0 ||
	    strcmp(ev->state, "confirmed") == 0))
		pri = LOG_WARNING;
	free(res->answer);
	if (opts->syslog) {
		syslog(LOG_DAEMON | pri, "%s", line);
		res->status = NOTIFY_DELIVERED;
		res->answer = xstrdup("logged to syslog");
	} else if (fprintf(f, "perfwatch: %s\n", line) < 0 ||
	    fflush(f) == EOF) {
		res->status = NOTIFY_TEMPFAIL;
		res->answer = xstrdup("cannot write the log line");
	} else {
		res->status = NOTIFY_DELIVERED;
		res->answer = xstrdup("logged");
	}
	free(line);
}
