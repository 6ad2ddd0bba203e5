/*
 * perfwatch status | trigger | pause | resume: ask perfwatchd through
 * its control socket ([perfwatch] socket of the configuration), one JSON
 * request and one JSON reply per line; see perfwatchd(8).
 *
 * Exit 0 when the daemon says ok, 1 when it answers with an error, 75
 * (EX_TEMPFAIL) when it cannot be reached.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "log.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"
#include "cli.h"

/* perfwatchd's longest request, its newline left out (CONTROL_MAX_LINE). */
#define CTL_LINE_MAX	4096

#define CTL_TIMEOUT	10		/* seconds for the whole exchange */
#define CTL_NOTIFY_TIMEOUT 2		/* the same for cli_notify_daemon() */
#define CTL_MAX_REPLY	(1024 * 1024)

/*
 * Connect to perfwatchd's socket, path, with timeout seconds for each
 * send and receive: the descriptor, or minus an exit code, after a
 * message unless quiet.
 */
static int
ctl_connect(const char *path, int timeout, int quiet)
{
	struct sockaddr_un	 sun;
	struct timeval		 tv = { timeout, 0 };
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		if (!quiet)
			fprintf(stderr, "perfwatch: %s: socket path too "
			    "long\n", path);
		return -EXIT_CONFIG;
	}
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		if (!quiet)
			log_warn("socket");
		return -EXIT_SOFTWARE;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		/*
		 * No socket, or no one listening on it: most often no
		 * perfwatchd, or one of another configuration (its socket).
		 */
		if (!quiet)
			fprintf(stderr, "perfwatch: cannot reach perfwatchd "
			    "at %s: %s%s\n", path, strerror(errno),
			    errno == ENOENT || errno == ECONNREFUSED ?
			    " (is perfwatchd running? for one started with "
			    "another configuration: perfwatch -c FILE)" : "");
		close(fd);
		return -EXIT_TEMPFAIL;
	}
	return fd;
}

/*
 * Tell perfwatchd, if one listens on the configured socket, that this
 * command queued alerts in the outbox, so that they go out now rather
 * than with its next battery's flush.  Quiet: with no daemon there, or
 * no right to its socket, the rows wait for `perfwatch notify flush` or
 * the daemon's next flush, as perfwatch(1) says.
 */
void
cli_notify_daemon(struct cli *c)
{
	static const char	 req[] = "{\"cmd\":\"notify\"}\n";
	char			 reply[256];
	int			 fd;

	if ((fd = ctl_connect(config_get_str(c->cfg, "perfwatch", "socket"),
	    CTL_NOTIFY_TIMEOUT, 1)) < 0)
		return;
	/* Its answer (read, not kept) says the request was taken. */
	if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) ==
	    (ssize_t)sizeof(req) - 1)
		(void)recv(fd, reply, sizeof(reply), 0);
	close(fd);
}

/*
 * Send req, read the reply line.  Return 0 with *reply set, or an exit
 * code after a message.
 */
static int
ctl_request(struct cli *c, json_t *req, json_t **reply)
{
	const char		*path, *cmd;
	json_error_t		 err;
	char			*text, *buf = NULL;
	size_t			 len = 0, cap = 0;
	ssize_t			 n;
	int			 fd, saved;

	path = config_get_str(c->cfg, "perfwatch", "socket");
	if ((fd = ctl_connect(path, CTL_TIMEOUT, 0)) < 0)
		return -fd;
	text = json_dumps(req, JSON_COMPACT);
	xasprintf(&buf, "%s\n", text);
	free(text);
	n = send(fd, buf, strlen(buf), MSG_NOSIGNAL);
	if (n != (ssize_t)strlen(buf)) {
		fprintf(stderr, "perfwatch: %s: send: %s\n", path,
		    n == -1 ? strerror(errno) : "short write");
		free(buf);
		close(fd);
		return EXIT_TEMPFAIL;
	}
	free(buf);
	buf = NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap == 0 ? 8192 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = recv(fd, buf + len, cap - len - 1, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (memchr(buf + len - n, '\n', (size_t)n) != NULL ||
		    len > CTL_MAX_REPLY)
			break;
	}
	saved = errno;
	close(fd);
	if (len == 0 && n == -1 && (saved == EAGAIN || saved == EWOULDBLOCK)) {
		/*
		 * SO_RCVTIMEO ran out: say so, not "Resource unavailable".
		 * A request that changes something was sent, and a daemon
		 * held up (stopped, or building a large page) carries it out
		 * once it reads it: a trigger tried again ran its battery
		 * twice.
		 */
		cmd = json_string_value(json_object_get(req, "cmd"));
		fprintf(stderr, "perfwatch: %s: perfwatchd did not answer "
		    "within %d seconds%s\n", path, CTL_TIMEOUT, cmd != NULL &&
		    strcmp(cmd, "status") != 0 ? "; the request was sent, and "
		    "it may still be carried out: see perfwatch status before "
		    "trying again" : "");
		free(buf);
		return EXIT_TEMPFAIL;
	}
	if (len == 0 || len > CTL_MAX_REPLY) {
		fprintf(stderr, "perfwatch: %s: %s\n", path, len == 0 ?
		    (n == -1 ? strerror(saved) : "no reply") :
		    "reply too long");
		free(buf);
		return EXIT_TEMPFAIL;
	}
	*reply = json_loadb(buf, len, JSON_DISABLE_EOF_CHECK, &err);
	free(buf);
	if (*reply == NULL || !json_is_object(*reply)) {
		fprintf(stderr, "perfwatch: %s: unreadable reply: %s\n", path,
		    *reply == NULL ? err.text : "not an object");
		json_decref(*reply);
		return EXIT_SOFTWARE;
	}
	return 0;
}

/* Send req and check "ok"; print the error if it is false. */
static int
ctl_exchange(struct cli *c, json_t *req, json_t **reply)
{
	const char	*err;
	int		 rc;

	rc = ctl_request(c, req, reply);
	json_decref(req);
	if (rc != 0)
		return rc;
	if (!json_is_true(json_object_get(*reply, "ok"))) {
		err = json_string_value(json_object_get(*reply, "error"));
		fprintf(stderr, "perfwatch: perfwatchd: %s\n", err != NULL ?
		    cli_show(err) : "request refused");
		json_decref(*reply);
		*reply = NULL;
		return 1;
	}
	return 0;
}

/* A reply's RFC 3339 time as local "YYYY-MM-DD HH:MM:SS", or "-". */
static void
ctl_local(json_t *v, char *buf, size_t len)
{
	struct tm	tm;
	int64_t		t;
	time_t		tt;

	if (!json_is_string(v) ||
	    timefmt_parse_rfc3339(json_string_value(v), &t, NULL) == -1) {
		snprintf(buf, len, "-");
		return;
	}
	tt = (time_t)t;
	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%s", json_string_value(v));
}

/*
 * A string of a reply as the status text prints it, "-" when absent:
 * names and messages come from outside (a workload's glob, a git tree's
 * error, what a failed child said last), and are escaped as the tables
 * escape them (cli_show), so that a newline in one cannot forge a line
 * nor an escape sequence reach the terminal.  As cli_show() keeps it,
 * one printf may take a few.
 */
static const char *
ctl_str(json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return s != NULL ? cli_show(s) : "-";
}

/* The readable form of a status reply. */
static void
ctl_print_status(json_t *r)
{
	json_t		*w, *p, *last, *v, *item;
	const char	*key;
	char		 t[32];
	size_t		 i;
	int		 first;

	printf("perfwatchd %s (pid %lld): %s%s\n", ctl_str(r, "version"),
	    (long long)json_integer_value(json_object_get(r, "pid")),
	    ctl_str(r, "state"),
	    json_is_true(json_object_get(r, "paused")) &&
	    strcmp(ctl_str(r, "state"), "paused") != 0 ? ", paused" : "");
	w = json_object_get(r, "work");
	if (json_is_object(w)) {
		ctl_local(json_object_get(w, "started"), t, sizeof(t));
		if (strcmp(ctl_str(w, "kind"), "build") == 0)
			printf("  now:       building %s at %.12s, since %s\n",
			    ctl_str(w, "name"), ctl_str(w, "commit"), t);
		else {
			printf("  now:       %s battery",
			    ctl_str(w, "trigger"));
			if (json_is_string(json_object_get(w, "run")))
				printf(", run %s", ctl_str(w, "run"));
			if (json_is_string(json_object_get(w, "workload")))
				printf(": %s %s%lld/%lld (step %lld of %lld)",
				    ctl_str(w, "workload"),
				    json_is_true(json_object_get(w, "warmup")) ?
				    "warm-up " : "",
				    (long long)json_integer_value(
				    json_object_get(w, "iteration")),
				    (long long)json_integer_value(
				    json_object_get(w, "count")),
				    (long long)json_integer_value(
				    json_object_get(w, "step")),
				    (long long)json_integer_value(
				    json_object_get(w, "steps")));
			printf(", since %s\n", t);
			if (json_is_string(json_object_get(w,
			    "trigger_detail")))
				printf("             (%s)\n",
				    ctl_str(w, "trigger_detail"));
			if (json_is_string(json_object_get(w, "waiting"))) {
				ctl_local(json_object_get(w, "waiting_since"),
				    t, sizeof(t));
				printf("  waiting:   for a quiet machine "
				    "([quiet] policy = wait) since %s", t);
				ctl_local(json_object_get(w, "wait_until"), t,
				    sizeof(t));
				if (strcmp(t, "-") != 0)
					printf(", until %s at the latest", t);
				printf(": %s\n", ctl_str(w, "waiting"));
			}
		}
	}
	p = json_object_get(r, "builds");
	json_array_foreach(p, i, item)
		printf("  queued:    build %s at %.12s\n",
		    ctl_str(item, "name"), ctl_str(item, "commit"));
	p = json_object_get(r, "pending");
	json_array_foreach(p, i, item) {
		printf("  queued:    %s", ctl_str(item, "trigger"));
		if (json_is_string(json_object_get(item, "trigger_detail")))
			printf(": %s", ctl_str(item, "trigger_detail"));
		printf("\n");
	}
	if (json_is_string(json_object_get(r, "retry_at"))) {
		ctl_local(json_object_get(r, "retry_at"), t, sizeof(t));
		printf("  retrying:  at %s (the last start failed)\n", t);
	}
	ctl_local(json_object_get(r, "next_run"), t, sizeof(t));
	printf("  next run:  %s\n", strcmp(t, "-") == 0 ? "none scheduled" :
	    t);
	last = json_object_get(r, "last_run");
	if (json_is_object(last)) {
		printf("  last run:  %s %s (%s)", ctl_str(last, "run"),
		    ctl_str(last, "status"), ctl_str(last, "trigger"));
		first = 1;
		json_object_foreach(json_object_get(last, "verdicts"), key, v) {
			/* The JSON counts every verdict; the line, those met. */
			if (json_integer_value(v) == 0)
				continue;
			printf("%s%lld %s", first ? ", verdicts: " : ", ",
			    (long long)json_integer_value(v), cli_show(key));
			first = 0;
		}
		printf("\n");
	} else
		printf("  last run:  %s\n", json_is_string(json_object_get(r,
		    "store_error")) ? "cannot be read" : "none");
	if (json_is_string(json_object_get(r, "last_error")))
		printf("  problem:   %s\n", ctl_str(r, "last_error"));
	if (json_is_integer(json_object_get(json_object_get(r, "alerts"),
	    "open")))
		printf("  alerts:    %lld open\n", (long long)json_integer_value(
		    json_object_get(json_object_get(r, "alerts"), "open")));
	else
		printf("  alerts:    cannot be read\n");
	if (json_is_string(json_object_get(r, "store_error")))
		printf("  store:     cannot be read: %s\n",
		    ctl_str(r, "store_error"));
	/* Each watched tree: where it is, or why it cannot be read. */
	p = json_object_get(r, "git");
	json_array_foreach(p, i, item) {
		printf("  git:       %s ", ctl_str(item, "name"));
		if (json_is_string(json_object_get(item, "error"))) {
			ctl_local(json_object_get(item, "failing_since"), t,
			    sizeof(t));
			printf("cannot be read (since %s): %s", t,
			    ctl_str(item, "error"));
		} else if (json_is_string(json_object_get(item, "commit")))
			printf("at %.12s", ctl_str(item, "commit"));
		else
			printf("not looked at yet");
		printf(" (%s of %s)\n", ctl_str(item, "ref"),
		    ctl_str(item, "path"));
	}
}

int
cmd_status(struct cli *c, int argc, char **argv)
{
	json_t	*reply;
	int	 i, rc;

	for (i = 1; i < argc; i++) {
		if (!cli_output_option(c, argv[i]) || c->out == OUT_CSV)
			return cli_bad_arg("status", argv[i]);
	}
	if ((rc = ctl_exchange(c, json_pack("{s:s}", "cmd", "status"),
	    &reply)) != 0)
		return rc;
	if (c->out == OUT_JSON) {
		cli_json_print(reply);
	} else
		ctl_print_status(reply);
	/*
	 * What the daemon could not read of its store is no "no run, no
	 * alert" (perfwatch(1)): 70, as a command that reads it says.
	 */
	rc = json_is_string(json_object_get(reply, "store_error")) ?
	    EXIT_SOFTWARE : 0;
	json_decref(reply);
	return rc;
}

int
cmd_trigger(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	json_t		*req, *globs, *reply;
	char		*text;
	size_t		 i;
	int		 ch, rc;

	globs = json_array();
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'w') {
			json_decref(globs);
			return cli_usage("trigger");
		}
		/*
		 * JSON text is UTF-8: json_string() refused the glob, which
		 * was dropped unsaid, and without one the whole profile ran.
		 */
		if (utf8_check(optarg, NULL) == -1) {
			json_decref(globs);
			return cli_usage_why("trigger", "--workload: not valid "
			    "UTF-8");
		}
		if (cli_blank_opt("--workload", optarg)) {
			json_decref(globs);
			return cli_usage("trigger");
		}
		json_array_append_new(globs, json_string(optarg));
	}
	if (optind != argc) {
		json_decref(globs);
		return cli_bad_arg("trigger", argv[optind]);
	}
	req = json_pack("{s:s}", "cmd", "trigger");
	if (json_array_size(globs) > 0)
		json_object_set(req, "workloads", globs);
	/*
	 * Globs within the daemon's limits of each (64, of 256 bytes) can
	 * still make a request longer than it reads, which it refused as
	 * "request longer than 4096 bytes", words of a protocol the user
	 * never sees.
	 */
	if ((text = json_dumps(req, JSON_COMPACT)) != NULL &&
	    strlen(text) > CTL_LINE_MAX) {
		fprintf(stderr, "perfwatch trigger: --workload: %zu globs come "
		    "to a request of %zu bytes, longer than perfwatchd reads "
		    "(%d): give fewer or shorter ones\n",
		    json_array_size(globs), strlen(text), CTL_LINE_MAX);
		free(text);
		json_decref(req);
		json_decref(globs);
		return EXIT_USAGE;
	}
	free(text);
	if ((rc = ctl_exchange(c, req, &reply)) != 0) {
		json_decref(globs);
		return rc;
	}
	if (json_array_size(globs) == 0)
		printf("queued a battery of the whole profile\n");
	else {
		printf("queued a battery of");
		for (i = 0; i < json_array_size(globs); i++)
			printf("%s %s", i == 0 ? "" : ",",
			    json_string_value(json_array_get(globs, i)));
		printf("\n");
	}
	if (json_is_true(json_object_get(reply, "paused")))
		printf("perfwatchd is paused: it starts after "
		    "\"perfwatch resume\"\n");
	json_decref(globs);
	json_decref(reply);
	return 0;
}

/* pause or resume. */
static int
ctl_pause(struct cli *c, int argc, char **argv, const char *cmd)
{
	json_t		*reply;
	const char	*warn;
	int		 rc;

	if (argc != 1)
		return cli_bad_arg(cmd, argv[1]);
	if ((rc = ctl_exchange(c, json_pack("{s:s}", "cmd", cmd),
	    &reply)) != 0)
		return rc;
	if (strcmp(cmd, "pause") == 0)
		printf("paused%s\n", json_is_true(json_object_get(reply,
		    "running")) ? "; the work in progress finishes first" :
		    "");
	else
		printf("resumed\n");
	if ((warn = json_string_value(json_object_get(reply,
	    "warning"))) != NULL)
		fprintf(stderr, "perfwatch: perfwatchd: %s\n", cli_show(warn));
	json_decref(reply);
	return 0;
}

int
cmd_pause(struct cli *c, int argc, char **argv)
{
	return ctl_pause(c, argc, argv, "pause");
}

int
cmd_resume(struct cli *c, int argc, char **argv)
{
	return ctl_pause(c, argc, argv, "resume");
}
