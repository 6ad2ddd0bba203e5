/*
 * command: the user's own benchmark, from a [workload "name"] section
 * with command = ....
 *
 * The command is the user's own configuration, so it runs as written, by
 * /bin/sh -c, in the runner's clean room (see runner.c).  With measure =
 * output (the default) it prints its metrics on stdout in the form
 * wl_parse_output() reads (output.c: "metric value unit [higher|lower]"
 * lines or one JSON object); with measure = time its stdout is discarded
 * and the runner reports wall, user and sys seconds (lower is better)
 * from the clock and wait4().
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

/* Replace the child with /bin/sh -c command; returns only on failure. */
int
wl_command_run(const struct wl_params *p, int fd, char **cause)
{
	(void)fd;
	execl("/bin/sh", "sh", "-c", p->command, (char *)NULL);
	xasprintf(cause, "exec /bin/sh: %s", strerror(errno));
	return -1;
}
