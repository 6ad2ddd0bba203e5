/*
 * libFuzzer target: what perfwatchd reads from its children
 * (daemon/work.c and daemon/notifier.c, included to reach their
 * statics): a run's --progress lines on its standard error, the report
 * a run prints at its end, and the report of a notify flush.  The rest
 * of the daemon is stood in for (fuzz_daemon.h); no child is started
 * (the daemon is paused, and job_exec starts nothing).
 *
 * The input is the three, separated by form feeds: the run's standard
 * error lines, its report, the flush's report.  Whatever the children
 * say, the daemon reads it without a crash, a leak or undefined
 * behaviour, a wait for a quiet machine does not end before it began,
 * and the battery is over once its report is read.
 */
#include <stddef.h>
#include <stdint.h>

#include "../../daemon/work.c"
#include "../../daemon/notifier.c"
#include "fuzz_files.h"
#include "fuzz_daemon.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct daemon	 d;
	struct work		*w = &d.work;
	struct job		*j = (struct job *)&fuzz_job;
	const uint8_t		*part;
	char			*line, *cur, *next, *cause = NULL;
	size_t			 len;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	if (d.base == NULL) {
		d.base = event_base_new();
		if ((d.cfg = config_load_buffer("fuzz.conf", "", 0,
		    &cause)) == NULL)
			abort();
		work_init(&d);
		d.paused = 1;
	}

	/* A battery in progress, as work_start_battery leaves it. */
	w->kind = WORK_BATTERY;
	w->job = j;
	w->trigger = xstrdup("schedule");
	w->rerun_ok = 1;
	w->started = time(NULL);
	part = fuzz_part(data, size, 0, &len);
	line = xstrndup((const char *)part, len);
	for (next = line; next != NULL; ) {
		cur = next;
		if ((next = strchr(cur, '\n')) != NULL)
			*next++ = '\0';
		work_run_line(j, cur, &d);
		if (w->wait_until != 0 && w->wait_until < w->wait_since)
			abort();
	}
	free(line);

	fuzz_out = fuzz_part(data, size, 1, &fuzz_outlen);
	if (fuzz_out == NULL)
		fuzz_outlen = 0;
	work_run_done(j, &d);
	if (w->kind != WORK_NONE || w->label != NULL)
		abort();
	work_drop_queue(w);

	fuzz_out = fuzz_part(data, size, 2, &fuzz_outlen);
	if (fuzz_out == NULL)
		fuzz_outlen = 0;
	d.notify_job = j;
	d.notify_again = 0;
	notifier_done(j, &d);
	return 0;
}
