/*
 * libFuzzer target: the control socket's requests (daemon/control.c,
 * included to reach its statics), one request a line as control_read
 * hands them to control_handle, over an in-memory store.  The rest of
 * the daemon is stood in for below: a profile of four workloads, a
 * queue that takes every battery.
 *
 * The input is request lines.  Whatever a client writes, each reply is
 * an object with a boolean "ok", an "error" string when it is false, and
 * dumps to one line of JSON; a queued battery's workloads are 1 to
 * CONTROL_MAX_GLOB bytes each, CONTROL_MAX_GLOBS at most, and each
 * matches a workload of the profile.
 */
#include <fnmatch.h>
#include <stddef.h>
#include <stdint.h>

#include "../../daemon/control.c"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char *const fuzz_workloads[] = {
	"bonnie", "oltp.read", "sys.pipe", "sys.syscall",
};

const char *
daemon_host_name(void)
{
	return "fuzz";
}

void
daemon_status(struct daemon *d)
{
	(void)d;
}

/* A setting saved as perfwatchd saves it, less its newer-schema stop. */
int
daemon_setting_set(struct daemon *d, const char *key, const char *value)
{
	return store_setting_set(d->st, key, value);
}

int
daemon_workloads(const struct config *cfg, const char *conf_path,
    char ***names, size_t *n, char **cause)
{
	size_t	i;

	(void)cfg;
	(void)conf_path;
	(void)cause;
	*n = nitems(fuzz_workloads);
	*names = xcalloc(*n, sizeof(**names));
	for (i = 0; i < *n; i++)
		(*names)[i] = xstrdup(fuzz_workloads[i]);
	return 0;
}

void
daemon_workloads_free(char **names, size_t n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

int
work_want_run(struct daemon *d, const char *trigger, const char *detail,
    char *const *globs, size_t nglobs, const char *git_name,
    const char *git_commit)
{
	size_t	i, k, len;

	(void)d;
	if (strcmp(trigger, "manual") != 0 || git_name != NULL ||
	    git_commit != NULL || (nglobs > 0) != (detail != NULL) ||
	    nglobs > CONTROL_MAX_GLOBS)
		abort();
	for (i = 0; i < nglobs; i++) {
		len = strlen(globs[i]);
		if (len == 0 || len > CONTROL_MAX_GLOB)
			abort();
		for (k = 0; k < nitems(fuzz_workloads); k++)
			if (fnmatch(globs[i], fuzz_workloads[k], 0) == 0)
				break;
		if (k == nitems(fuzz_workloads))
			abort();
	}
	return 0;
}

void
work_kick(struct daemon *d)
{
	(void)d;
}

int
work_holds_alerts(const struct daemon *d)
{
	(void)d;
	return 0;
}

json_t *
work_status_json(struct daemon *d)
{
	(void)d;
	return json_object();
}

time_t
schedule_next(const struct daemon *d)
{
	(void)d;
	return 0;
}

/* The database is the one opened. */
int
daemon_store_same(struct daemon *d)
{
	(void)d;
	return 0;
}

json_t *
gitwatch_status_json(struct daemon *d)
{
	(void)d;
	return json_array();
}

void
notifier_kick(struct daemon *d)
{
	(void)d;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct daemon	 d;
	json_t			*reply, *ok;
	const char		*line, *end, *nl;
	char			*text, *cause = NULL;
	size_t			 n;

	log_init("fuzz", 1, 0);
	if (size > 1 << 16)
		return 0;
	if (d.st == NULL) {
		if ((d.st = store_open(":memory:", &cause)) == NULL ||
		    (d.cfg = config_load_buffer("fuzz.conf", "", 0,
		    &cause)) == NULL)
			abort();
	}
	end = (const char *)data + size;
	for (line = (const char *)data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		n = (size_t)(nl - line);
		/* As control_read cuts them: a CR before the LF goes. */
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n > CONTROL_MAX_LINE)
			continue;
		reply = control_handle(&d, line, n);
		ok = json_object_get(reply, "ok");
		if (!json_is_object(reply) || !json_is_boolean(ok) ||
		    (json_is_false(ok) && !json_is_string(json_object_get(
		    reply, "error"))))
			abort();
		text = json_dumps(reply, JSON_COMPACT);
		if (text == NULL || strchr(text, '\n') != NULL)
			abort();
		free(text);
		json_decref(reply);
	}
	return 0;
}
