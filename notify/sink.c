/*
 * The sinks of the configuration, and the secret files they read.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "log.h"
#include "xmalloc.h"
#include "notify.h"

/* The most a secret file may hold. */
#define NOTIFY_SECRET_MAX	65536

const char *
notify_type_name(enum notify_type t)
{
	switch (t) {
	case NOTIFY_EMAIL:
		return "email";
	case NOTIFY_WEBHOOK:
		return "webhook";
	case NOTIFY_LOG:
		break;
	}
	return "log";
}

/* A copy of a string key, or NULL. */
static char *
sink_str(const struct config *cfg, const char *sec, const char *key)
{
	const char	*s = config_get_str(cfg, sec, key);

	return s != NULL ? xstrdup(s) : NULL;
}

/* How long one delivery to sink may take, in seconds. */
long
notify_timeout(const struct notify_sink *sink)
{
	return sink->timeout > 0 ? sink->timeout : NOTIFY_TIMEOUT;
}

/* Fill s from the section "sink <name>". */
static void
sink_load_one(const struct config *cfg, const char *name,
    struct notify_sink *s)
{
	const char	*type, *tls;
	char		*sec;

	memset(s, 0, sizeof(*s));
	xasprintf(&sec, "sink %s", name);
	s->name = xstrdup(name);
	type = config_get_str(cfg, sec, "type");
	if (type != NULL && strcmp(type, "email") == 0)
		s->type = NOTIFY_EMAIL;
	else if (type != NULL && strcmp(type, "webhook") == 0)
		s->type = NOTIFY_WEBHOOK;
	else
		s->type = NOTIFY_LOG;
	s->min_state = sink_str(cfg, sec, "min_state");
	s->max_age = config_get_duration(cfg, sec, "max_age");
	if (s->type != NOTIFY_LOG)
		s->timeout = (long)config_get_duration(cfg, sec, "timeout");
	if (s->type == NOTIFY_EMAIL) {
		s->to = config_get_list(cfg, sec, "to");
		s->from = sink_str(cfg, sec, "from");
		s->smtp_url = sink_str(cfg, sec, "smtp_url");
		tls = config_get_str(cfg, sec, "starttls");
		if (tls != NULL && strcmp(tls, "optional") == 0)
			s->starttls = NOTIFY_TLS_OPTIONAL;
		else if (tls != NULL && strcmp(tls, "none") == 0)
			s->starttls = NOTIFY_TLS_NONE;
		else
			s->starttls = NOTIFY_TLS_REQUIRED;
		s->credentials = sink_str(cfg, sec, "credentials");
		s->sendmail = config_get_bool(cfg, sec, "sendmail");
		s->sendmail_path = sink_str(cfg, sec, "sendmail_path");
	} else if (s->type == NOTIFY_WEBHOOK) {
		s->url = sink_str(cfg, sec, "url");
		s->secret_file = sink_str(cfg, sec, "secret_file");
	}
	free(sec);
}

/*
 * The sinks of cfg in file order, then the built-in log sink unless a
 * sink is called "log" already: detect/ queues every change for it when
 * no sink of type log is configured.  When one of another name is, the
 * built-in one stands by (standby), for the rows queued for it before:
 * `notify test` leaves it out.  0, or -1 with *cause.
 */
int
notify_sinks_load(const struct config *cfg, struct notify_sink **out,
    size_t *nout, char **cause)
{
	struct notify_sink	*v = NULL;
	const char		*name;
	size_t			 n = 0, i;
	int			 have_log = 0, have_log_type = 0;

	for (i = 0; (name = config_sections(cfg, "sink", i)) != NULL; i++) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		sink_load_one(cfg, name, &v[n]);
		if (strcmp(name, NOTIFY_LOG_SINK) == 0)
			have_log = 1;
		if (v[n].type == NOTIFY_LOG)
			have_log_type = 1;
		if (v[n].type == NOTIFY_EMAIL && (v[n].to == NULL ||
		    v[n].to[0] == NULL)) {
			xasprintf(cause, "[sink \"%s\"]: no recipients", name);
			notify_sinks_free(v, n + 1);
			return -1;
		}
		n++;
	}
	if (!have_log) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		sink_load_one(cfg, NOTIFY_LOG_SINK, &v[n]);
		v[n].type = NOTIFY_LOG;
		v[n].builtin = 1;
		v[n].standby = have_log_type;
		n++;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* The sink called name, or NULL. */
const struct notify_sink *
notify_sink_find(const struct notify_sink *v, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

void
notify_sinks_free(struct notify_sink *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].min_state);
		config_list_free(v[i].to);
		free(v[i].from);
		free(v[i].smtp_url);
		free(v[i].credentials);
		free(v[i].sendmail_path);
		free(v[i].url);
		free(v[i].secret_file);
	}
	free(v);
}

/*
 * Read a secret (SMTP credentials, a webhook key) from path, without its
 * trailing newline.  The file must be a regular file that others can
 * neither read nor write: a secret that anybody on the machine can read
 * is no secret, and one that anybody can replace lets them sign or log
 * in as perfwatch.  The mode is checked on the open descriptor, so the
 * file read is the file checked; it is opened without waiting, so that a
 * FIFO (or a device) in its place is refused instead of blocking the
 * flush.  0, or -1 with *cause.
 */
int
notify_secret_read(const char *path, char **secret, size_t *len,
    char **cause)
{
	struct stat	 sb;
	char		*buf;
	size_t		 n = 0;
	ssize_t		 r;
	int		 fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if ((sb.st_mode & (S_IROTH | S_IWOTH)) != 0) {
		xasprintf(cause, "%s: refusing a secret that others may %s "
		    "(mode %04o); chmod o-rwx %s", path,
		    (sb.st_mode & S_IROTH) != 0 ? "read" : "write",
		    (unsigned int)(sb.st_mode & 07777), path);
		close(fd);
		return -1;
	}
	buf = xmalloc(NOTIFY_SECRET_MAX + 1);
	for (;;) {
		r = read(fd, buf + n, NOTIFY_SECRET_MAX + 1 - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n > NOTIFY_SECRET_MAX)
			break;
	}
	close(fd);
	if (r == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (n > NOTIFY_SECRET_MAX) {
		xasprintf(cause, "%s: longer than %d bytes", path,
		    NOTIFY_SECRET_MAX);
		goto fail;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (n == 0) {
		xasprintf(cause, "%s: empty", path);
		goto fail;
	}
	buf[n] = '\0';
	*secret = buf;
	*len = n;
	return 0;

fail:
	explicit_bzero(buf, NOTIFY_SECRET_MAX + 1);
	free(buf);
	return -1;
}
