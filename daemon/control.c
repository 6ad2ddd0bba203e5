/*
 * The control socket: a Unix stream socket, mode 0660, owned by the
 * service's group.  A client writes one JSON object per line and reads
 * one JSON object per line back:
 *
 *   {"cmd":"status"}			state, work, queue, schedule, last run,
 *					watched git trees
 *   {"cmd":"trigger"}			queue a manual battery
 *   {"cmd":"trigger","workloads":["sys.*"]}
 *   {"cmd":"pause"}			start nothing new (kept across restarts)
 *   {"cmd":"resume"}
 *   {"cmd":"notify"}			flush the outbox: a perfwatch command
 *					queued alerts ("flush": "now"), or
 *					after the battery or rerun in hand
 *					("flush": "after the battery")
 *
 * Every reply has "ok"; a failure has "error" too.  A request longer than
 * CONTROL_MAX_LINE bytes gets an error and the connection is closed; any
 * other malformed request gets an error and the connection stays open.
 * At most CONTROL_MAX_CLIENTS connections at once, each closed after
 * CONTROL_TIMEOUT seconds without a whole request: counted from the last
 * one (or the connection), not from the last byte, which a client that
 * sends a byte now and then would keep at bay for ever, holding one of
 * the connections.  A client that sends requests without reading the
 * replies is not read while CONTROL_MAX_OUT bytes of them wait for it:
 * they piled up in the daemon's memory (50 MB in 20 s of "status").
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <jansson.h>

#include "json.h"
#include "log.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "xmalloc.h"
#include "store/store.h"
#include "view/view.h"
#include "workloads/workloads.h"
#include "daemon.h"

#define CONTROL_MAX_OUT		(256 * 1024)	/* replies waiting, bytes */
#define CONTROL_MAX_GLOBS	64
#define CONTROL_MAX_GLOB	256
#define CONTROL_ACCEPT_PAUSE	1	/* seconds without accept() when out
					   of descriptors */
#ifndef CONTROL_PROBE_WAIT
#define CONTROL_PROBE_WAIT	2	/* seconds for a listener to take
					   the start-up probe */
#endif

static int	control_bind(const char *, uid_t, gid_t, char **);

struct control_client {
	struct daemon			*d;
	struct bufferevent		*bev;
	struct event			*deadline;	/* of its next request */
	int				 closing;	/* after the reply */
	int				 held;		/* not read: its replies
							   wait for it */
	LIST_ENTRY(control_client)	 entry;
};

/*
 * Create, bind and listen on the socket at path, mode 0660, owned by
 * uid:gid (-1: leave as is).  A socket file left by a daemon that died is
 * replaced; one that answers belongs to a live daemon and is an error.
 *
 * Root binds as uid:gid (its effective ids only, for the file operations):
 * the socket's directory is that user's, who could put a link in place
 * of the socket between bind() and a chmod() or chown() made as root.
 */
int
control_listen(const char *path, uid_t uid, gid_t gid, char **cause)
{
	int	fd, as_user;
	gid_t	egid = getegid();

	as_user = geteuid() == 0 && uid != (uid_t)-1 && uid != 0;
	if (as_user && (setegid(gid) == -1 || seteuid(uid) == -1)) {
		xasprintf(cause, "%s: cannot become uid %ld to bind it: %s",
		    path, (long)uid, strerror(errno));
		if (setegid(egid) == -1)
			fatal("setegid %ld", (long)egid);
		return -1;
	}
	fd = control_bind(path, uid, gid, cause);
	if (as_user && (seteuid(0) == -1 || setegid(egid) == -1))
		fatal("cannot become root again after binding %s", path);
	return fd;
}

/* control_listen() with the ids it needs. */
static int
control_bind(const char *path, uid_t uid, gid_t gid, char **cause)
{
	struct sockaddr_un	 sun;
	struct stat		 sb;
	struct timeval		 probe_wait = { CONTROL_PROBE_WAIT, 0 };
	struct passwd		*pw;
	mode_t			 old;
	int			 fd, probe, saved;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		xasprintf(cause, "%s: the socket path is too long (at most "
		    "%zu bytes)", path, sizeof(sun.sun_path) - 1);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path));
	if ((probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return -1;
	}
	/*
	 * A listener that takes no connection (stuck, its backlog full)
	 * would keep a blocking connect() waiting for ever.
	 */
	(void)setsockopt(probe, SOL_SOCKET, SO_SNDTIMEO, &probe_wait,
	    sizeof(probe_wait));
	if (connect(probe, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		close(probe);
		xasprintf(cause, "%s: another perfwatchd answers on this "
		    "socket", path);
		return -1;
	}
	if (errno == EAGAIN || errno == EWOULDBLOCK) {
		close(probe);
		xasprintf(cause, "%s: a process listens on this socket but "
		    "has taken no connection in %d s (another perfwatchd, "
		    "stuck?)", path, CONTROL_PROBE_WAIT);
		return -1;
	}
	close(probe);
	/* Only a socket is ours to replace: a typo must not delete a file. */
	if (lstat(path, &sb) == 0 && !S_ISSOCK(sb.st_mode)) {
		xasprintf(cause, "%s: exists and is not a socket; name "
		    "another [perfwatch] socket, or remove it", path);
		return -1;
	}
	if (unlink(path) == -1 && errno != ENOENT) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return -1;
	}
	old = umask(0117);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		saved = errno;
		umask(old);
		/*
		 * Bound with the ids of the user perfwatchd runs as: in a
		 * directory that is there already, root's, that user may
		 * not make it, and "Permission denied" alone did not say
		 * whose right was missing.
		 */
		if (saved == EACCES && (pw = getpwuid(geteuid())) != NULL)
			xasprintf(cause, "%s: bind: %s (its directory must be "
			    "writable by user %s; perfwatchd makes it when "
			    "missing)", path, strerror(saved), pw->pw_name);
		else
			xasprintf(cause, "%s: bind: %s", path,
			    strerror(saved));
		close(fd);
		return -1;
	}
	umask(old);
	if (chmod(path, 0660) == -1 ||
	    ((uid != (uid_t)-1 || gid != (gid_t)-1) &&
	    chown(path, uid, gid) == -1)) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	if (listen(fd, 64) == -1) {
		xasprintf(cause, "%s: listen: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

static json_t *
control_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* {"ok": false, "error": "..."} */
static json_t *
control_error(const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* msg may hold a name cut in the middle of a character: repaired. */
	return pwjson_set_str(pwjson_set_bool(pwjson_object(), "ok", 0),
	    "error", msg);
}

/* The verdicts, and the states of an open alert, as status counts them. */
static const char *const control_verdicts[] = { "regression", "improvement",
    "unchanged", "inconclusive" };
static const char *const control_states[] = { "suspected", "confirmed" };

/*
 * The last run of this host as runs --json gives a run (its keys named as
 * every --json names them: "time", "trigger_detail", "duration"), with
 * the count of each verdict.  A store that fails sets *failed (null, as
 * "no run" does, but said: store_error).
 */
static json_t *
control_last_run(struct daemon *d, int *failed)
{
	struct store_run_filter	 f;
	struct store_run	*runs = NULL;
	struct store_verdict	*v = NULL;
	size_t			 n = 0, nv = 0, i;
	json_t			*o, *counts;
	json_int_t		 c;

	memset(&f, 0, sizeof(f));
	f.host = daemon_host_name();
	f.limit = 1;
	if (store_runs_list(d->st, &f, &runs, &n) == -1 || n == 0) {
		if (n == 0 && store_failure(d->st) != STORE_FOUND_NONE)
			*failed = 1;
		store_runs_free(runs, n);
		return json_null();
	}
	o = view_run_json(&runs[0]);
	/*
	 * Each verdict counted, 0 too and in one order: a script reading
	 * d["last_run"]["verdicts"]["regression"] met a KeyError exactly
	 * when there was none, and the order was the rows'.
	 */
	counts = json_object();
	for (i = 0; i < nitems(control_verdicts); i++)
		json_object_set_new(counts, control_verdicts[i],
		    json_integer(0));
	if (store_verdicts_get(d->st, runs[0].id, &v, &nv) == 0) {
		for (i = 0; i < nv; i++) {
			c = json_integer_value(json_object_get(counts,
			    v[i].verdict));
			json_object_set_new(counts, v[i].verdict,
			    json_integer(c + 1));
		}
		store_verdicts_free(v, nv);
	} else {
		*failed = 1;
		json_decref(counts);
		counts = json_null();
	}
	json_object_set_new(o, "verdicts", counts);
	store_runs_free(runs, n);
	return o;
}

/* What control_alerts_count counts: the open alerts of host, by state. */
struct control_alerts {
	int64_t		 host;
	size_t		 open;
	json_t		*by;
};

static int
control_alerts_count(void *arg, const struct store_alert *a)
{
	struct control_alerts	*ca = arg;
	json_int_t		 c;

	if (a->host != ca->host)
		return 0;
	ca->open++;
	c = json_integer_value(json_object_get(ca->by, a->state));
	json_object_set_new(ca->by, a->state, json_integer(c + 1));
	return 0;
}

/*
 * Open alerts of this host, by state: read without their attributions
 * (STORE_ALERT_BARE), which after a large upgrade are hundreds of KiB
 * each, and which a status does not show.
 */
static json_t *
control_alerts(struct daemon *d, int *failed)
{
	struct control_alerts	 ca;
	size_t			 i;
	int			 more;

	ca.host = d->host;
	ca.open = 0;
	ca.by = json_object();
	for (i = 0; i < nitems(control_states); i++)
		json_object_set_new(ca.by, control_states[i], json_integer(0));
	/*
	 * A store that fails counts nothing: null, and said (it counted 0,
	 * and a damaged store's open alerts read as none).
	 */
	if (store_alerts_page(d->st, 0, 0, 0, STORE_ALERT_BARE,
	    control_alerts_count, &ca, &more) == -1) {
		*failed = 1;
		json_decref(ca.by);
		return json_pack("{s:n, s:n}", "open", "by_state");
	}
	return json_pack("{s:I, s:o}", "open", (json_int_t)ca.open,
	    "by_state", ca.by);
}

static json_t *
control_status(struct daemon *d)
{
	json_t		*o, *w;
	const char	*state;
	time_t		 next;
	char		 t[32], *err = NULL;
	int		 failed = 0;

	if (d->work.kind == WORK_BATTERY)
		state = "running";
	else if (d->work.kind == WORK_BUILD)
		state = "building";
	else if (d->paused)
		state = "paused";
	else
		state = "idle";
	o = json_pack("{s:b, s:s, s:b, s:s, s:I}", "ok", 1, "state", state,
	    "paused", d->paused, "version", PERFWATCH_VERSION, "pid",
	    (json_int_t)getpid());
	w = work_status_json(d);
	json_object_update(o, w);
	json_decref(w);
	next = schedule_next(d);
	if (next > 0 && timefmt_format(next, t, sizeof(t)) == 0)
		json_object_set_new(o, "next_run", json_string(t));
	else
		json_object_set_new(o, "next_run", json_null());
	json_object_set_new(o, "last_run", control_last_run(d, &failed));
	if (failed)
		xasprintf(&err, "%s: %s", d->db_path, store_errmsg(d->st));
	/* A child's last words: any bytes at all, repaired. */
	pwjson_set_str(o, "last_error", d->work.last_error);
	json_object_set_new(o, "alerts", control_alerts(d, &failed));
	if (failed && err == NULL)
		xasprintf(&err, "%s: %s", d->db_path, store_errmsg(d->st));
	json_object_set_new(o, "git", gitwatch_status_json(d));
	/* The figures above are of a file no longer there: said too. */
	if (err == NULL && daemon_store_same(d) == -1)
		xasprintf(&err, "%s: removed or replaced since perfwatchd "
		    "opened it; perfwatchd stops, for a start on the file "
		    "there now", d->db_path);
	/* What of the store could not be read, or null. */
	pwjson_set_str(o, "store_error", err);
	free(err);
	return o;
}

static json_t *
control_trigger(struct daemon *d, json_t *req)
{
	json_t		*wl, *item, *reply;
	char		**globs = NULL, **names, *detail, *tmp, *cause;
	size_t		 i, n = 0, nnames;
	int		 rc;

	wl = json_object_get(req, "workloads");
	if (wl != NULL && !json_is_null(wl)) {
		if (!json_is_array(wl))
			return control_error("workloads: expected an array "
			    "of names or globs");
		if (json_array_size(wl) > CONTROL_MAX_GLOBS)
			return control_error("workloads: at most %d",
			    CONTROL_MAX_GLOBS);
		json_array_foreach(wl, i, item) {
			if (!json_is_string(item) ||
			    json_string_length(item) == 0 ||
			    json_string_length(item) > CONTROL_MAX_GLOB ||
			    strlen(json_string_value(item)) !=
			    json_string_length(item)) {
				free(globs);
				return control_error("workloads: item %zu: "
				    "expected a name or glob of 1 to %d "
				    "bytes", i + 1, CONTROL_MAX_GLOB);
			}
			globs = xreallocarray(globs, n + 1, sizeof(char *));
			globs[n++] = (char *)json_string_value(item);
		}
		if (n == 0)
			return control_error("workloads: empty; leave it out "
			    "for the whole profile");
	}
	if (d->stopping) {
		free(globs);
		return control_error("perfwatchd is stopping");
	}
	/* A battery that would select nothing is refused now, not run. */
	if (daemon_workloads(d->cfg, d->conf_path, &names, &nnames,
	    &cause) == -1) {
		free(globs);
		reply = control_error("%s", cause);
		free(cause);
		return reply;
	}
	rc = wl_globs_check(names, nnames, globs, n, &cause);
	daemon_workloads_free(names, nnames);
	if (nnames == 0) {
		free(globs);
		if (rc == -1)
			free(cause);
		return control_error("[perfwatch] profile \"%s\" has no "
		    "workload to run", config_get_str(d->cfg, "perfwatch",
		    "profile"));
	}
	if (rc == -1) {
		free(globs);
		reply = control_error("workloads: %s", cause);
		free(cause);
		return reply;
	}
	detail = NULL;
	for (i = 0; i < n; i++) {
		xasprintf(&tmp, "%s%s%s", detail != NULL ? detail :
		    "workloads ", i > 0 ? ", " : "", globs[i]);
		free(detail);
		detail = tmp;
	}
	rc = work_want_run(d, "manual", detail, globs, n, NULL, NULL);
	free(detail);
	free(globs);
	if (rc == -1)
		return control_error("the queue is full");
	return json_pack("{s:b, s:b, s:b}", "ok", 1, "queued", 1, "paused",
	    d->paused);
}

/* Pause or resume; the state is kept in the store across restarts. */
static json_t *
control_pause(struct daemon *d, int pause)
{
	json_t	*reply;
	char	*warning = NULL;
	int	 saved;

	/* Paused or not now, whatever the store says; a restart asks it. */
	saved = daemon_setting_set(d, "daemon:paused", pause ? "yes" : NULL);
	if (saved == -1) {
		xasprintf(&warning, "%s, but not saved (%s): a restart will "
		    "%s", pause ? "paused" : "resumed", store_errmsg(d->st),
		    pause ? "resume" : "be paused");
		log_warnx("%s", warning);
	} else if (saved == 1)
		xasprintf(&warning, "%s; not saved yet: another process holds "
		    "the store locked, and perfwatchd saves it once the lock "
		    "is let go", pause ? "paused" : "resumed");
	if (d->paused != pause)
		log_info("%s by the control socket", pause ? "paused" :
		    "resumed");
	d->paused = pause;
	if (!pause)
		work_kick(d);
	daemon_status(d);
	reply = json_pack("{s:b, s:b, s:b}", "ok", 1, "paused", pause,
	    "running", d->work.kind != WORK_NONE);
	if (warning != NULL)
		pwjson_set_str(reply, "warning", warning);
	free(warning);
	return reply;
}

/*
 * A perfwatch command (a check, a run, an ack typed by hand) queued
 * alerts in the outbox: flush it now, unless the work in hand holds the
 * alerts (work_holds_alerts), whose flush after it sends these too.
 */
static json_t *
control_notify(struct daemon *d)
{
	int	later = work_holds_alerts(d);

	if (!later)
		notifier_kick(d);
	return json_pack("{s:b, s:s}", "ok", 1, "flush", later ?
	    "after the battery" : "now");
}

/* Answer one request line (not NUL-terminated, len bytes). */
json_t *
control_handle(struct daemon *d, const char *line, size_t len)
{
	json_error_t	 err;
	json_t		*req, *cmd, *reply;
	const char	*c;

	if (len == 0)
		return control_error("empty request: expected a JSON object "
		    "such as {\"cmd\":\"status\"}");
	req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err);
	if (req == NULL)
		return control_error("not JSON: %s (column %d)", err.text,
		    err.column);
	if (!json_is_object(req)) {
		json_decref(req);
		return control_error("expected a JSON object such as "
		    "{\"cmd\":\"status\"}");
	}
	cmd = json_object_get(req, "cmd");
	if (!json_is_string(cmd)) {
		json_decref(req);
		return control_error("expected \"cmd\": status, trigger, "
		    "pause, resume or notify");
	}
	c = json_string_value(cmd);
	if (strcmp(c, "status") == 0)
		reply = control_status(d);
	else if (strcmp(c, "trigger") == 0)
		reply = control_trigger(d, req);
	else if (strcmp(c, "pause") == 0)
		reply = control_pause(d, 1);
	else if (strcmp(c, "resume") == 0)
		reply = control_pause(d, 0);
	else if (strcmp(c, "notify") == 0)
		reply = control_notify(d);
	else
		reply = control_error("unknown cmd \"%.64s\": expected status, "
		    "trigger, pause, resume or notify", c);
	json_decref(req);
	return reply;
}

static void
control_client_free(struct control_client *cc)
{
	LIST_REMOVE(cc, entry);
	cc->d->nclients--;
	event_free(cc->deadline);
	bufferevent_free(cc->bev);
	free(cc);
}

/* Give cc CONTROL_TIMEOUT seconds, from now, for its next request. */
static void
control_deadline_arm(struct control_client *cc)
{
	struct timeval	tv = { CONTROL_TIMEOUT, 0 };

	evtimer_add(cc->deadline, &tv);
}

/* No whole request within CONTROL_TIMEOUT of the last: close it. */
static void
control_deadline(evutil_socket_t fd, short ev, void *arg)
{
	struct control_client	*cc = arg;

	(void)fd;
	(void)ev;
	log_debug("control: no whole request from a client for %d s; closed",
	    CONTROL_TIMEOUT);
	control_client_free(cc);
}

/* Write a reply line; after it, close if asked to. */
static void
control_reply(struct control_client *cc, json_t *reply, int close_after)
{
	char	*text;

	text = json_dumps(reply, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(reply);
	if (text == NULL)
		text = xstrdup("{\"ok\":false,\"error\":\"out of memory\"}");
	bufferevent_write(cc->bev, text, strlen(text));
	bufferevent_write(cc->bev, "\n", 1);
	free(text);
	if (close_after) {
		cc->closing = 1;
		bufferevent_disable(cc->bev, EV_READ);
	}
}

static void
control_read(struct bufferevent *bev, void *arg)
{
	struct control_client	*cc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	char			*line;
	size_t			 n;

	while (!cc->closing) {
		if (evbuffer_get_length(bufferevent_get_output(bev)) >=
		    CONTROL_MAX_OUT) {
			/* Read again once it has taken its replies. */
			cc->held = 1;
			bufferevent_disable(bev, EV_READ);
			break;
		}
		line = evbuffer_readln(in, &n, EVBUFFER_EOL_LF);
		if (line == NULL) {
			/* A whole request and its CR may wait for the LF. */
			n = evbuffer_get_length(in);
			if (n > CONTROL_MAX_LINE && (n > CONTROL_MAX_LINE + 1 ||
			    evbuffer_pullup(in, -1)[n - 1] != '\r')) {
				log_debug("control: a request over %d bytes",
				    CONTROL_MAX_LINE);
				control_reply(cc, control_error("request "
				    "longer than %d bytes", CONTROL_MAX_LINE),
				    1);
			}
			break;
		}
		/* A CR before the LF ends the line: it is not the request's. */
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n > CONTROL_MAX_LINE) {
			free(line);
			control_reply(cc, control_error("request longer than "
			    "%d bytes", CONTROL_MAX_LINE), 1);
			break;
		}
		control_reply(cc, control_handle(cc->d, line, n), 0);
		free(line);
		control_deadline_arm(cc);
	}
}

static void
control_write(struct bufferevent *bev, void *arg)
{
	struct control_client	*cc = arg;

	if (cc->closing &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		control_client_free(cc);
		return;
	}
	if (cc->held &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		cc->held = 0;
		bufferevent_enable(bev, EV_READ);
		control_read(bev, cc);
	}
}

static void
control_event(struct bufferevent *bev, short what, void *arg)
{
	struct control_client	*cc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	size_t			 n;
	char			*line;

	if ((what & BEV_EVENT_EOF) && (what & BEV_EVENT_READING) &&
	    !cc->closing && (n = evbuffer_get_length(in)) > 0 &&
	    n <= CONTROL_MAX_LINE + 1) {
		/* A last request without its newline (a CR is no part). */
		line = xmalloc(n);
		evbuffer_remove(in, line, n);
		if (line[n - 1] == '\r')
			n--;
		if (n > CONTROL_MAX_LINE)
			control_reply(cc, control_error("request longer than "
			    "%d bytes", CONTROL_MAX_LINE), 1);
		else
			control_reply(cc, control_handle(cc->d, line, n), 1);
		free(line);
		return;
	}
	if ((what & BEV_EVENT_EOF) && (what & BEV_EVENT_READING) &&
	    evbuffer_get_length(bufferevent_get_output(bev)) > 0 &&
	    !(what & BEV_EVENT_ERROR)) {
		/* Half-closed: finish writing the replies first. */
		cc->closing = 1;
		bufferevent_disable(bev, EV_READ);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT)
		log_debug("control: a client idle for %d s", CONTROL_TIMEOUT);
	control_client_free(cc);
}

static void	control_client_new(struct daemon *, int);

/* The pause after running out of descriptors is over: accept again. */
static void
control_accept_resume(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	if (d->listen_event != NULL)
		event_add(d->listen_event, NULL);
}

/*
 * Accept every waiting connection.  Out of descriptors (or memory), the
 * connection stays in the backlog and the socket stays readable: stop
 * listening for CONTROL_ACCEPT_PAUSE seconds rather than spin.
 */
static void
control_accept(evutil_socket_t lfd, short ev, void *arg)
{
	struct daemon		*d = arg;
	struct timeval		 tv = { CONTROL_ACCEPT_PAUSE, 0 };
	int			 fd;

	(void)ev;
	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				log_warn("control: accept; not accepting for "
				    "%d s", CONTROL_ACCEPT_PAUSE);
				event_del(d->listen_event);
				evtimer_add(d->listen_pause, &tv);
			} else if (errno != EAGAIN && errno != EWOULDBLOCK)
				log_warn("control: accept");
			return;
		}
		control_client_new(d, fd);
	}
}

/* Serve a new connection, or turn it away if there are too many. */
static void
control_client_new(struct daemon *d, int fd)
{
	struct control_client	*cc;
	struct timeval		 tv = { CONTROL_TIMEOUT, 0 };

	if (d->nclients >= CONTROL_MAX_CLIENTS) {
		static const char busy[] = "{\"ok\":false,\"error\":\"too many "
		    "connections\"}\n";

		if (write(fd, busy, sizeof(busy) - 1) == -1)
			log_debug("control: write: %s", strerror(errno));
		close(fd);
		return;
	}
	cc = xcalloc(1, sizeof(*cc));
	cc->d = d;
	cc->bev = bufferevent_socket_new(d->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (cc->bev == NULL) {
		close(fd);
		free(cc);
		return;
	}
	/* Stop reading past one request's worth of bytes. */
	bufferevent_setwatermark(cc->bev, EV_READ, 0, CONTROL_MAX_LINE + 2);
	bufferevent_setcb(cc->bev, control_read, control_write, control_event,
	    cc);
	bufferevent_set_timeouts(cc->bev, &tv, &tv);
	bufferevent_enable(cc->bev, EV_READ | EV_WRITE);
	if ((cc->deadline = evtimer_new(d->base, control_deadline, cc)) == NULL)
		fatalx("control: out of memory for a connection");
	control_deadline_arm(cc);
	LIST_INSERT_HEAD(&d->clients, cc, entry);
	d->nclients++;
}

void
control_start(struct daemon *d)
{
	LIST_INIT(&d->clients);
	d->listen_event = event_new(d->base, d->listen_fd,
	    EV_READ | EV_PERSIST, control_accept, d);
	d->listen_pause = evtimer_new(d->base, control_accept_resume, d);
	event_add(d->listen_event, NULL);
}

/* Close the socket and every connection; remove the socket file. */
void
control_stop(struct daemon *d)
{
	struct control_client	*cc;
	struct evbuffer		*out;
	size_t			 len;

	if (d->listen_event != NULL) {
		event_free(d->listen_event);
		d->listen_event = NULL;
	}
	if (d->listen_pause != NULL) {
		event_free(d->listen_pause);
		d->listen_pause = NULL;
	}
	if (d->listen_fd != -1) {
		close(d->listen_fd);
		d->listen_fd = -1;
		if (unlink(d->socket_path) == -1 && errno != ENOENT)
			log_warn("%s", d->socket_path);
	}
	/*
	 * A reply already made goes out, as far as the socket takes it
	 * without waiting: the request that stopped the daemon (its write
	 * found the store migrated by a newer perfwatch) is answered.
	 * evbuffer_write() on the bufferevent's output failed here (EAGAIN
	 * on a socket with room), so the bytes are sent as they are.
	 */
	while ((cc = LIST_FIRST(&d->clients)) != NULL) {
		out = bufferevent_get_output(cc->bev);
		if ((len = evbuffer_get_length(out)) > 0)
			(void)send(bufferevent_getfd(cc->bev),
			    evbuffer_pullup(out, -1), len,
			    MSG_NOSIGNAL | MSG_DONTWAIT);
		control_client_free(cc);
	}
}
