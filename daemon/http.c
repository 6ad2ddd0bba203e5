/*
 * The web dashboard: a small, read-only HTTP server on [perfwatch] http
 * (off by default), served by libevent's evhttp in the daemon's loop.
 *
 *   /			the hosts, the latest runs, the open alerts, the metrics
 *   /metric?name=M[&workload=W][&host=H]
 *			a metric's run medians: an SVG chart, alert spans
 *			shaded, and a table
 *   /api/runs		perfwatch runs --json --limit 50
 *   /api/alerts[?before=ID][&limit=N]
 *			perfwatch alerts --json, HTTP_ALERTS at a time
 *			(HTTP_ALERTS_BYTES at most), newest first, in
 *			{"alerts", "total", "truncated", "next"}: how
 *			many there are, and the next page
 *   /api/history?metric=M[&workload=W][&host=H]
 *			perfwatch history --json --limit 400 with the same,
 *			built by a child
 *   /api/changes[?metric=M][&workload=W][&host=H]
 *			perfwatch changes --json with the same
 *
 * The JSON is view.h's, the very documents the command prints (but
 * /api/alerts', which wraps the command's list with what a client needs
 * to see that it was cut, and to ask for the rest).  GET and
 * HEAD only (405 with Allow otherwise); anything else 404; every reply
 * says Content-Type and Cache-Control: no-store.  Pages are plain HTML5
 * with a little inline CSS and inline SVG: nothing is fetched from
 * elsewhere, and the Content-Security-Policy forbids it, scripts included.
 *
 * Bounds.  The store is read in the event loop, so what one request may
 * read is bounded: the newest HTTP_RUNS runs, the open alerts up to
 * HTTP_ALERTS on / and /api/alerts (each read for its metric and runs,
 * and only those read: store_alerts_page; / reads only their summaries),
 * a metric's newest HTTP_HISTORY run medians on each host of at most
 * HTTP_HOSTS (more need host=), HTTP_MATCH metrics per name,
 * HTTP_METRICS metrics linked from the front page.  What these pages
 * come to on bench/store's 7.3 M samples: / 23 KiB, /api/runs 15 KiB,
 * a metric's page 115 KiB a host (3.6 MiB for 32 hosts of 400 runs).
 * /api/history holds every iteration of each run shown, a count that
 * no limit here bounds (a run may have 100000): it is built by a child,
 * below, once its names and hosts are checked here.  A
 * metric's page scans for change points only the runs it shows;
 * /api/changes?metric=M reads the whole history of M, as `perfwatch
 * changes --metric` does (51 ms on bench/store's), when M names one
 * metric of at most HTTP_HOSTS hosts (or host= is given): a name
 * several workloads share, or one of more hosts, is built as every
 * metric is, below.  Each request reads
 * inside one read transaction (store_read_begin):
 * in WAL mode a reader neither takes the write lock nor waits for a run
 * that writes, and a run never waits for it.
 *
 * HEAD is answered as GET, its body made and dropped (its length said),
 * but for /api/changes and /api/history: there the making is the cost,
 * so a HEAD checks the names and says the headers without
 * Content-Length, which only the making would tell.
 *
 * /api/changes without metric= scans every history: seconds on a large
 * store (bench/README.md), too long for the loop.  That answer (and that
 * of a metric= that names several metrics), and every /api/history, is
 * built by `perfwatch -c run.conf -D DB changes --json` (or `history
 * --json --limit HTTP_HISTORY`) as a child (job.c, struct http_kind),
 * whose output is the reply, byte for byte what the command prints.
 * The child writes it to a file in state_dir, unlinked as soon as made
 * (http_answer_file), never to the daemon's memory: once it has exited
 * well the file is sent HTTP_PIECE bytes at a time, the next read only
 * when the last has left for the client (http_file_next), so that a
 * client that reads slowly holds a piece of the daemon's memory, not the
 * whole answer (up to HTTP_CHANGES_MAX), and several of them as many
 * pieces.  Each holds its file in state_dir meanwhile: while
 * HTTP_SENDING answers are being sent, a request that needs a build
 * gets 503 with Retry-After, so that slow readers cannot fill the disk
 * of the store.  The child is
 * exec'd, not a fork of the daemon, since an SQLite connection must not
 * cross a fork, and a fork holds the daemon's (its locks, its shared
 * memory) even when it opens one of its own.  One such build at a time
 * (d->http_build), of either page: another asked meanwhile gets 503
 * with Retry-After,
 * the seconds the last build took less those this one has run.  A
 * build still running after http_timeout (a store locked for ever, a
 * stuck disk) is killed, its client told 504 (http_build_expire).  A
 * client that goes away has its build killed (the connection's close
 * callback, or the watch on its socket that sees the EOF evhttp does
 * not look for); a stop, or a reload that moves the dashboard, kills it
 * too, before evhttp frees the request, and a stopping daemon exits once
 * the child is reaped.  A client that only shuts down its sending half
 * (nc -N) cannot be told from one that left: it is taken as gone, as
 * nginx takes it, since waiting for it would hold the one build slot for
 * every client that really left.
 *
 * Connections.  One silent for http_timeout (a request not sent in
 * full, a kept-alive one unused) is closed by evhttp; one that has not
 * sent its first whole request within http_timeout of connecting, by
 * http_deadline(), however many bytes it sent meanwhile.  At most
 * HTTP_MAX_CONNS are served at once, which evhttp of libevent 2.1 cannot
 * do itself: the bufferevent it asks for (evhttp_set_bevcb) marks each
 * new connection, counted right after evhttp has set it up; one beyond
 * the limit is shut down, and evhttp frees it on the EOF it reads.
 * evhttp says nothing when it closes a connection, so the ones counted
 * are looked at again (their descriptor, socket and peer) each time a
 * new one comes.
 *
 * Host.  On a loopback address only a Host that is an address or
 * localhost is answered (http_host_ok), else 421: the dashboard has no
 * password, and a page of another site that makes its own name resolve
 * to 127.0.0.1 (DNS rebinding) would otherwise read it through the
 * browser of someone on the machine.  On any address, two Hosts, or
 * none in HTTP/1.1, get 400 (RFC 9112 3.2).
 *
 * Privileges.  The address is bound at start, before perfwatchd drops to
 * [perfwatch] user (as the control socket is), so a port under 1024 works
 * when the daemon starts as root.  A reload that changes the address binds
 * the new one as that user: a port under 1024 is then refused, with the
 * advice to restart.  A port that cannot be bound stops the start (exit
 * 1); at a reload it is logged and the dashboard stays off until a reload
 * or a restart binds it.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "json.h"
#include "log.h"
#include "perfwatch.h"
#include "utf8.h"
#include "xmalloc.h"
#include "detect/detect.h"
#include "detect/stats.h"
#include "store/store.h"
#include "view/view.h"
#include "daemon.h"

#define HTTP_RUNS		50	/* runs on / and /api/runs */
#define HTTP_ALERTS		100	/* open alerts on / and /api/alerts */
#define HTTP_ALERTS_S		"100"
/*
 * Bytes of alerts in one answer of /api/alerts: each carries the diff of
 * its machine's packages, and after an upgrade of 1500 packages that
 * opens many alerts, 100 of them come to 31 MiB.  An answer stays
 * within it, but that one alert is given however large; the others are
 * on the next page.
 */
#define HTTP_ALERTS_BYTES	(4 * 1024 * 1024)
#define HTTP_HISTORY		400	/* run medians of a metric, per host */
#define HTTP_MATCH		16	/* metrics of one name (workloads) */
#define HTTP_METRICS		500	/* metrics linked from / */
/*
 * Hosts of a metric's page or history without host=: each is read in
 * the loop, up to HTTP_HISTORY runs of it, and charted.
 */
#define HTTP_HOSTS		32
#define HTTP_HOSTS_S		"32"
/*
 * Connections served at once.  A browser opens six or so; beyond this
 * many a new one is closed at once, so that clients that connect and
 * say nothing cannot take the descriptors the daemon needs for its runs
 * and its control socket (each is closed after http_timeout idle).
 */
#define HTTP_MAX_CONNS		64
#define HTTP_CHANGES_MAX	(256 * 1024 * 1024) /* bytes, a built answer */
/*
 * Bytes of a built answer read from its file at a time, once the
 * last piece has left for the client: what a slow reader holds of it.
 */
#define HTTP_PIECE		(64 * 1024)
/*
 * Built answers (/api/changes, /api/history) sent at once: each holds
 * its file (up to HTTP_CHANGES_MAX) in state_dir until its client has
 * read it.
 */
#define HTTP_SENDING		4
#define HTTP_SENDING_S		"4"
#define HTTP_RETRY_AFTER	5	/* seconds, before a build has ended */
/*
 * A request line and its headers: room for the three names of a metric's
 * link at their longest, each byte escaped (%XX), and headers beside.
 */
#define HTTP_MAX_HEADERS	(3 * 3 * HTTP_MAX_PARAM + 4096)
#define HTTP_MAX_BODY		4096
#define HTTP_MAX_PARAM		1024	/* bytes of a parameter's value */
#define HTTP_MAX_PARAM_S	"1024"

#define HTTP_CSP	"default-src 'none'; style-src 'unsafe-inline'"

static const char http_css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}"
    "th,td{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:left}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f3f3f3}.regression{color:#b00}.improvement{color:#070}"
    ".chart .axis{stroke:#888;fill:none}.chart .line{stroke:#36c;"
    "fill:none;stroke-width:1.5}.chart .pt{fill:#36c}"
    ".chart .alert{fill:#f6d5d5}.chart text{font-size:11px;fill:#555}"
    ".chart .change .guide{stroke:#c60;stroke-dasharray:3 3}"
    ".chart .step path{fill:#c60}.chart .spike path{fill:#90c}"
    ".chart .spike .guide{stroke:#90c}"
    "a{color:#36c}";

/*
 * A reply being built: status, content type and body.  unsized: a
 * HEAD whose body was not made, its length known only by making it,
 * and so not said.
 */
struct http_reply {
	int		 code;
	const char	*reason;
	const char	*type;
	struct evbuffer	*body;
	int		 unsized;
};

/* The first bytes of a page, its title escaped. */
static void
http_page_begin(struct evbuffer *b, const char *title)
{
	evbuffer_add_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>");
	html_escape(b, title);
	evbuffer_add_printf(b, "</title>\n<style>%s</style>\n</head>\n"
	    "<body>\n", http_css);
}

static void
http_page_end(struct evbuffer *b)
{
	evbuffer_add_printf(b, "<p><small>perfwatchd %s</small></p>\n"
	    "</body>\n</html>\n", PERFWATCH_VERSION);
}

static void
http_reply_init(struct http_reply *r, int code, const char *reason,
    const char *type)
{
	r->code = code;
	r->reason = reason;
	r->type = type;
	r->unsized = 0;
	r->body = evbuffer_new();
	if (r->body == NULL)
		fatalx("evbuffer_new");
}

/*
 * An error page: code, reason, and a sentence (escaped) saying why, with
 * the name the value was likely meant to be (name_hint) unless hint is
 * NULL.
 */
static void
http_error_page_hint(struct http_reply *r, int code, const char *reason,
    const char *what, const char *value, const char *hint)
{
	evbuffer_drain(r->body, evbuffer_get_length(r->body));
	r->code = code;
	r->reason = reason;
	r->type = "text/html; charset=utf-8";
	http_page_begin(r->body, reason);
	evbuffer_add_printf(r->body, "<h1>%d %s</h1>\n<p>", code, reason);
	html_escape(r->body, what);
	if (value != NULL) {
		evbuffer_add_printf(r->body, " <code>");
		html_escape(r->body, value);
		evbuffer_add_printf(r->body, "</code>");
	}
	if (hint != NULL) {
		evbuffer_add_printf(r->body, " (did you mean <code>");
		html_escape(r->body, hint);
		evbuffer_add_printf(r->body, "</code>?)");
	}
	evbuffer_add_printf(r->body, "</p>\n<p><a href=\"/\">the dashboard"
	    "</a></p>\n");
	http_page_end(r->body);
}

/* An error page without a hint (http_error_page_hint). */
static void
http_error_page(struct http_reply *r, int code, const char *reason,
    const char *what, const char *value)
{
	http_error_page_hint(r, code, reason, what, value, NULL);
}

/*
 * An error as JSON, {"error": "what value"}, for /api/, the text ending
 * in "(did you mean hint?)" unless hint is NULL: one key still, as the
 * page's sentence says it.
 */
static void
http_error_json_hint(struct http_reply *r, int code, const char *reason,
    const char *what, const char *value, const char *hint)
{
	json_t	*o;
	char	*msg, *text;

	evbuffer_drain(r->body, evbuffer_get_length(r->body));
	r->code = code;
	r->reason = reason;
	r->type = "application/json";
	xasprintf(&msg, "%s%s%s%s%s%s", what, value != NULL ? " " : "",
	    value != NULL ? value : "", hint != NULL ? " (did you mean " : "",
	    hint != NULL ? hint : "", hint != NULL ? "?)" : "");
	o = pwjson_set_str(pwjson_object(), "error", msg);
	text = pwjson_dumps(o, PWJSON_PRETTY);
	evbuffer_add_printf(r->body, "%s\n", text);
	free(text);
	free(msg);
	json_decref(o);
}

/* An error as JSON without a hint (http_error_json_hint). */
static void
http_error_json(struct http_reply *r, int code, const char *reason,
    const char *what, const char *value)
{
	http_error_json_hint(r, code, reason, what, value, NULL);
}

/*
 * A JSON document as the command prints it (pwjson_print: a line feed),
 * said to be JSON.
 */
static void
http_json(struct http_reply *r, json_t *v)
{
	char	*text;

	r->type = "application/json";
	text = pwjson_dumps(v, PWJSON_PRETTY);
	evbuffer_add_printf(r->body, "%s\n", text);
	free(text);
}

/*
 * The query's parameters into kv, each known (in the NULL-terminated
 * known[]), given once, and of at most HTTP_MAX_PARAM bytes of UTF-8.
 * 0, or -1 with *what and *value (pointing into kv or known) for the
 * error; kv is cleared by the caller either way.
 */
static int
http_params(const char *query, const char *const *known,
    struct evkeyvalq *kv, const char **what, const char **value)
{
	struct evkeyval	*e, *f;
	size_t		 i, bad;

	TAILQ_INIT(kv);
	*value = NULL;
	if (query == NULL || *query == '\0')
		return 0;
	/* A NUL decoded would end the value there: time%00x read as time. */
	if (strstr(query, "%00") != NULL) {
		*what = "a NUL byte (%00) is not allowed in a query:";
		*value = query;
		return -1;
	}
	if (evhttp_parse_query_str(query, kv) == -1) {
		*what = "a query of name=value pairs is expected, not";
		*value = query;
		return -1;
	}
	TAILQ_FOREACH(e, kv, next) {
		for (i = 0; known[i] != NULL; i++)
			if (strcmp(e->key, known[i]) == 0)
				break;
		if (known[i] == NULL) {
			*what = "unknown parameter";
			*value = e->key;
			return -1;
		}
		for (f = TAILQ_FIRST(kv); f != e; f = TAILQ_NEXT(f, next))
			if (strcmp(f->key, e->key) == 0) {
				*what = "parameter given twice:";
				*value = e->key;
				return -1;
			}
		if (strlen(e->value) == 0 || strlen(e->value) >
		    HTTP_MAX_PARAM || utf8_check(e->value, &bad) == -1) {
			*what = "a value of 1 to " HTTP_MAX_PARAM_S " bytes "
			    "of UTF-8 is expected for";
			*value = e->key;
			return -1;
		}
	}
	return 0;
}

/* A table cell holding s, escaped (NULL: "-"), of class cls if any. */
static void
http_cell(struct evbuffer *b, const char *cls, const char *s)
{
	evbuffer_add_printf(b, "<td%s%s%s>", cls != NULL ? " class=\"" : "",
	    cls != NULL ? cls : "", cls != NULL ? "\"" : "");
	html_escape(b, s != NULL ? s : "-");
	evbuffer_add_printf(b, "</td>");
}

/* A number cell: six significant digits, "-" for none (a null). */
static void
http_num_cell(struct evbuffer *b, const json_t *v)
{
	if (json_is_number(v))
		evbuffer_add_printf(b, "<td class=\"n\">%.6g</td>",
		    json_number_value(v));
	else
		evbuffer_add_printf(b, "<td class=\"n\">-</td>");
}

/*
 * Why http_params() would refuse s as a value, for a link not to give
 * it: too long, or not UTF-8 (a name of a store older than import's
 * check; the page could not pass it on to perfwatch changes either).
 * NULL when it would take it.
 */
static const char *
http_param_refused(const char *s)
{
	if (strlen(s) > HTTP_MAX_PARAM)
		return "a name too long for its page";
	if (utf8_check(s, NULL) == -1)
		return "a name not UTF-8, which its page does not take";
	return NULL;
}

/*
 * A link to a metric's page: /metric?workload=W&name=M[&host=H], each
 * encoded.  A name that a request may not give (http_param_refused)
 * is written without a link, rather than one that the page would
 * refuse.
 */
static void
http_metric_link(struct evbuffer *b, const char *workload, const char *metric,
    const char *host)
{
	const char	*why;
	char		*w, *m, *h = NULL;

	if ((why = http_param_refused(workload)) != NULL ||
	    (why = http_param_refused(metric)) != NULL ||
	    (host != NULL && (why = http_param_refused(host)) != NULL)) {
		html_escape(b, workload);
		evbuffer_add_printf(b, " ");
		html_escape(b, metric);
		evbuffer_add_printf(b, " <small>(%s)</small>", why);
		return;
	}
	w = evhttp_encode_uri(workload);
	m = evhttp_encode_uri(metric);
	if (host != NULL)
		h = evhttp_encode_uri(host);
	if (w == NULL || m == NULL || (host != NULL && h == NULL))
		fatalx("evhttp_encode_uri");
	/* The encoded text has no & < > " ': escaped all the same. */
	evbuffer_add_printf(b, "<a href=\"/metric?workload=");
	html_escape(b, w);
	evbuffer_add_printf(b, "&amp;name=");
	html_escape(b, m);
	if (h != NULL) {
		evbuffer_add_printf(b, "&amp;host=");
		html_escape(b, h);
	}
	evbuffer_add_printf(b, "\">");
	html_escape(b, workload);
	evbuffer_add_printf(b, " ");
	html_escape(b, metric);
	evbuffer_add_printf(b, "</a>");
	free(w);
	free(m);
	free(h);
}

/* A change in percent for a person, signed: "+15.2%". */
static void
http_pct(struct evbuffer *b, const json_t *v)
{
	if (json_is_number(v))
		evbuffer_add_printf(b, "%+.1f%%", json_number_value(v));
	else
		evbuffer_add_printf(b, "-");
}

/* A page of alerts being made: what http_alerts_json asks for. */
struct http_alerts_page {
	struct daemon	*d;
	json_t		*arr;
	size_t		 max_bytes;
	size_t		 bytes;
	int64_t		 last;
	int		 summary;
};

/*
 * Add alert a to the page, as alerts --json gives it, unless it would
 * take the page over its bytes (1: stop there); -1 when its metric or
 * runs cannot be read.  An alert read with its summary alone (the front
 * page) has {"summary": ...} for its attribution: that page prints no
 * more of it, and its JSON is never served.
 */
static int
http_alerts_add(void *arg, const struct store_alert *a)
{
	struct http_alerts_page	*pg = arg;
	json_t			*o, *attr;
	char			*text, *p;
	size_t			 size;

	/* A metric or run that cannot be read is no "?" or "-". */
	if (view_alert_get(pg->d->st, a, &o) == -1)
		return -1;
	if (pg->summary) {
		attr = pwjson_object();
		if (a->summary != NULL)
			pwjson_set_str(attr, "summary", a->summary);
		pwjson_set(o, "attribution", attr);
	}
	if (pg->max_bytes > 0) {
		/*
		 * As printed in the answer's "alerts": each line two
		 * levels (four spaces) in, and ",\n" after.
		 */
		text = pwjson_dumps(o, PWJSON_PRETTY);
		for (p = text, size = 2; *p != '\0'; p++, size++)
			if (*p == '\n')
				size += 4;
		size += 4;
		free(text);
		if (json_array_size(pg->arr) > 0 &&
		    pg->bytes + size > pg->max_bytes) {
			json_decref(o);
			return 1;
		}
		pg->bytes += size;
	}
	pwjson_append(pg->arr, o);
	pg->last = a->id;
	return 0;
}

/*
 * The open alerts as alerts --json gives them (newest first), those
 * older than alert before (0: from the newest), the first max of them,
 * and no more than about max_bytes of them once printed (0: any size),
 * but one at least; with summary, each alert's attribution read for its
 * summary alone (http_alerts_add).  *total says how many are open in
 * all, *more (when not NULL) whether older ones than those given are
 * left out, and *last (when not NULL) the id of the oldest given.  Only
 * the alerts given are read from the store (store_alerts_page), not
 * every open one with its attribution: after a large upgrade these are
 * hundreds of MiB, read in the daemon's loop.
 */
static json_t *
http_alerts_json(struct daemon *d, int64_t before, size_t max,
    size_t max_bytes, int summary, size_t *total, int *more, int64_t *last)
{
	struct http_alerts_page	 pg;
	int			 left;

	assert(max > 0);
	*total = 0;
	if (more != NULL)
		*more = 0;
	if (last != NULL)
		*last = 0;
	memset(&pg, 0, sizeof(pg));
	pg.d = d;
	pg.max_bytes = max_bytes;
	pg.summary = summary;
	if (store_alerts_count(d->st, 0, total) == -1)
		return NULL;
	pg.arr = pwjson_array();
	if (store_alerts_page(d->st, 0, before, max, summary ?
	    STORE_ALERT_SUMMARY : STORE_ALERT_WHOLE, http_alerts_add, &pg,
	    &left) == -1) {
		json_decref(pg.arr);
		return NULL;
	}
	if (more != NULL)
		*more = left;
	if (last != NULL)
		*last = pg.last;
	return pg.arr;
}

/* The newest HTTP_RUNS runs, oldest first, as runs --json gives them. */
static json_t *
http_runs_json(struct daemon *d)
{
	struct store_run_filter	 f;
	struct store_run	*runs = NULL;
	json_t			*arr;
	size_t			 n = 0;

	memset(&f, 0, sizeof(f));
	f.limit = HTTP_RUNS;
	if (view_runs_list(d->st, &f, &runs, &n, &arr) == -1)
		return NULL;
	store_runs_free(runs, n);
	return arr;
}

/* What the daemon is doing, in a word. */
static const char *
http_state(const struct daemon *d)
{
	if (d->work.kind == WORK_BATTERY)
		return "running a battery";
	if (d->work.kind == WORK_BUILD)
		return "building";
	return d->paused ? "paused" : "idle";
}

/* Whether a JSON string value equals s. */
static int
http_str_is(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

/* The open alerts' table of /. */
static void
http_alerts_table(struct evbuffer *b, json_t *alerts, size_t total)
{
	json_t		*a, *attr;
	const char	*sum, *dir;
	size_t		 i;

	evbuffer_add_printf(b, "<h2>Open alerts</h2>\n");
	if (json_array_size(alerts) == 0) {
		evbuffer_add_printf(b, "<p>No open alerts.</p>\n");
		return;
	}
	if (total > json_array_size(alerts))
		evbuffer_add_printf(b, "<p>The first %zu of %zu.</p>\n",
		    json_array_size(alerts), total);
	evbuffer_add_printf(b, "<table class=\"alerts\">\n<tr><th>id</th>"
	    "<th>state</th><th>metric</th><th>change</th><th>first bad</th>"
	    "<th>last good</th><th>last run</th><th>host</th>"
	    "<th>machine change</th></tr>\n");
	json_array_foreach(alerts, i, a) {
		dir = json_string_value(json_object_get(a, "direction"));
		attr = json_object_get(a, "attribution");
		sum = json_string_value(json_object_get(attr, "summary"));
		evbuffer_add_printf(b, "<tr><td class=\"n\">#%lld</td>",
		    (long long)json_integer_value(json_object_get(a, "id")));
		http_cell(b, NULL, json_string_value(json_object_get(a,
		    "state")));
		evbuffer_add_printf(b, "<td>");
		http_metric_link(b, json_string_value(json_object_get(a,
		    "workload")), json_string_value(json_object_get(a,
		    "metric")), json_string_value(json_object_get(a, "host")));
		evbuffer_add_printf(b, "</td><td class=\"n %s\">",
		    dir != NULL && strcmp(dir, VERDICT_IMPROVEMENT) == 0 ?
		    "improvement" : "regression");
		http_pct(b, json_object_get(a, "change_pct"));
		evbuffer_add_printf(b, "</td>");
		http_cell(b, NULL, json_string_value(json_object_get(a,
		    "first_bad_run")));
		http_cell(b, NULL, json_string_value(json_object_get(a,
		    "last_good_run")));
		http_cell(b, NULL, json_string_value(json_object_get(a,
		    "last_run")));
		http_cell(b, NULL, json_string_value(json_object_get(a,
		    "host")));
		http_cell(b, NULL, sum);
		evbuffer_add_printf(b, "</tr>\n");
	}
	evbuffer_add_printf(b, "</table>\n");
}

/* The runs' table of /, newest first. */
static void
http_runs_table(struct evbuffer *b, json_t *runs)
{
	json_t	*r, *secs;
	size_t	 i;
	char	*inc;

	evbuffer_add_printf(b, "<h2>Latest runs</h2>\n");
	if (json_array_size(runs) == 0) {
		evbuffer_add_printf(b, "<p>No runs.</p>\n");
		return;
	}
	evbuffer_add_printf(b, "<p>The newest %d at most, newest first.</p>\n"
	    "<table class=\"runs\">\n<tr><th>id</th><th>run</th><th>host</th>"
	    "<th>time</th><th>trigger</th><th>status</th><th>seconds</th>"
	    "<th>incomplete</th></tr>\n", HTTP_RUNS);
	for (i = json_array_size(runs); i-- > 0;) {
		r = json_array_get(runs, i);
		evbuffer_add_printf(b, "<tr><td class=\"n\">#%lld</td>",
		    (long long)json_integer_value(json_object_get(r, "id")));
		http_cell(b, "run", json_string_value(json_object_get(r,
		    "run")));
		http_cell(b, NULL, json_string_value(json_object_get(r,
		    "host")));
		http_cell(b, NULL, json_string_value(json_object_get(r,
		    "time")));
		http_cell(b, NULL, json_string_value(json_object_get(r,
		    "trigger")));
		http_cell(b, NULL, json_string_value(json_object_get(r,
		    "status")));
		secs = json_object_get(r, "duration");
		if (json_is_integer(secs))
			evbuffer_add_printf(b, "<td class=\"n\">%lld</td>",
			    (long long)json_integer_value(secs));
		else
			evbuffer_add_printf(b, "<td class=\"n\">-</td>");
		/* A complete run can have lost a workload: which, and how. */
		inc = view_incomplete_text(json_object_get(r, "incomplete"));
		http_cell(b, NULL, inc);
		free(inc);
		evbuffer_add_printf(b, "</tr>\n");
	}
	evbuffer_add_printf(b, "</table>\n");
}

/* /: the hosts, the open alerts, the latest runs, the metrics. */
static void
http_index(struct daemon *d, struct http_reply *r)
{
	struct store_metric	*ms = NULL;
	struct evbuffer		*b = r->body;
	json_t			*runs, *alerts, *hosts, *h;
	const char		*name;
	char			*title;
	size_t			 nms = 0, total, i, k;

	runs = http_runs_json(d);
	alerts = http_alerts_json(d, 0, HTTP_ALERTS, 0, 1, &total, NULL,
	    NULL);
	if (runs == NULL || alerts == NULL || store_metrics_list(d->st, NULL,
	    NULL, &ms, &nms) == -1) {
		json_decref(runs);
		json_decref(alerts);
		http_error_page(r, 500, "Internal Server Error",
		    "the store could not be read:", store_errmsg(d->st));
		return;
	}
	/* This host first, then those of the runs shown. */
	hosts = pwjson_array();
	pwjson_append(hosts, pwjson_str(daemon_host_name()));
	for (i = 0; i < json_array_size(runs); i++) {
		name = json_string_value(json_object_get(json_array_get(runs,
		    i), "host"));
		for (k = 0; name != NULL && k < json_array_size(hosts); k++)
			if (http_str_is(json_array_get(hosts, k), name))
				break;
		if (name != NULL && k == json_array_size(hosts))
			pwjson_append(hosts, pwjson_str(name));
	}
	xasprintf(&title, "perfwatch on %s", daemon_host_name());
	http_page_begin(b, title);
	evbuffer_add_printf(b, "<h1>");
	html_escape(b, title);
	evbuffer_add_printf(b, "</h1>\n<p>perfwatchd is %s.  Hosts: ",
	    http_state(d));
	json_array_foreach(hosts, i, h) {
		evbuffer_add_printf(b, "%s<span class=\"host\">", i > 0 ?
		    ", " : "");
		html_escape(b, json_string_value(h));
		evbuffer_add_printf(b, "</span>%s", i == 0 ? " (this one)" :
		    "");
	}
	evbuffer_add_printf(b, ".  <a href=\"/api/runs\">/api/runs</a>, "
	    "<a href=\"/api/alerts\">/api/alerts</a>.</p>\n");
	http_alerts_table(b, alerts, total);
	http_runs_table(b, runs);
	evbuffer_add_printf(b, "<h2>Metrics</h2>\n");
	if (nms == 0)
		evbuffer_add_printf(b, "<p>No metrics.</p>\n");
	else {
		if (nms > HTTP_METRICS)
			evbuffer_add_printf(b, "<p>The first %d of %zu.</p>\n",
			    HTTP_METRICS, nms);
		evbuffer_add_printf(b, "<ul class=\"metrics\">\n");
		for (i = 0; i < nms && i < HTTP_METRICS; i++) {
			evbuffer_add_printf(b, "<li>");
			http_metric_link(b, ms[i].workload, ms[i].metric,
			    NULL);
			evbuffer_add_printf(b, "</li>\n");
		}
		evbuffer_add_printf(b, "</ul>\n");
	}
	http_page_end(b);
	free(title);
	json_decref(hosts);
	json_decref(runs);
	json_decref(alerts);
	store_metrics_free(ms, nms);
}

/*
 * The 404 for a host or metric not in the store, naming the one likely
 * meant (a page, or JSON if api): the host's among the store's hosts,
 * else the workload's or metric's among its metrics.  A store that fails
 * meanwhile is its 500.
 */
static void
http_not_found(struct daemon *d, struct http_reply *r, int api,
    const char *workload, const char *metric, const char *host)
{
	void			(*err)(struct http_reply *, int, const char *,
				    const char *, const char *, const char *);
	struct store_metric	*all;
	char			**names, *whint, *mhint, *what;
	size_t			  n;

	err = api ? http_error_json_hint : http_error_page_hint;
	if (host != NULL) {
		if (store_host_names(d->st, &names, &n) == -1) {
			err(r, 500, "Internal Server Error", "the store could "
			    "not be read:", store_errmsg(d->st), NULL);
			return;
		}
		whint = name_hint(host, names, n);
		err(r, 404, "Not Found", "no host in the store named", host,
		    whint);
		free(whint);
		store_host_names_free(names, n);
		return;
	}
	if (store_metrics_list(d->st, NULL, NULL, &all, &n) == -1) {
		err(r, 500, "Internal Server Error", "the store could not be "
		    "read:", store_errmsg(d->st), NULL);
		return;
	}
	store_metrics_hint(all, n, workload, metric, &whint, &mhint);
	store_metrics_free(all, n);
	xasprintf(&what, "no metric%s%s%s%s%s%s", workload != NULL ?
	    " of workload " : "", workload != NULL ? workload : "",
	    whint != NULL ? " (did you mean " : "", whint != NULL ? whint : "",
	    whint != NULL ? "?)" : "", workload != NULL ? (metric != NULL ?
	    " named" : "") : (metric != NULL ? " in the store named" :
	    " in the store"));
	err(r, 404, "Not Found", what, metric, mhint);
	free(what);
	free(whint);
	free(mhint);
}

/*
 * The metrics named (workload or metric NULL: any), at least one when
 * one is named, at most max (0: any number), and the host known (NULL:
 * any): 0 with *ms, or -1 after filling r with the error (a page, or
 * JSON if api), a name not in the store with the one likely meant.
 */
static int
http_metrics_find(struct daemon *d, struct http_reply *r, int api,
    const char *workload, const char *metric, const char *host, size_t max,
    struct store_metric **ms, size_t *nms)
{
	void	(*err)(struct http_reply *, int, const char *, const char *,
		    const char *) = api ? http_error_json : http_error_page;
	int64_t	 id;

	*ms = NULL;
	*nms = 0;
	if (host != NULL && store_host_find(d->st, host, &id) == -1) {
		/* A lookup that failed is no host not there. */
		if (store_failure(d->st) != STORE_FOUND_NONE)
			err(r, 500, "Internal Server Error", "the store could "
			    "not be read:", store_errmsg(d->st));
		else
			http_not_found(d, r, api, NULL, NULL, host);
		return -1;
	}
	if (store_metrics_list(d->st, workload, metric, ms, nms) == -1) {
		err(r, 500, "Internal Server Error", "the store could not be "
		    "read:", store_errmsg(d->st));
		return -1;
	}
	/* Only a host named (the command's changes --host): any metrics. */
	if (*nms == 0 && (workload != NULL || metric != NULL)) {
		http_not_found(d, r, api, workload, metric, NULL);
		return -1;
	}
	if (max > 0 && *nms > max) {
		err(r, 400, "Bad Request", "too many metrics have this name; "
		    "name the workload too (workload=):", metric);
		store_metrics_free(*ms, *nms);
		*ms = NULL;
		*nms = 0;
		return -1;
	}
	return 0;
}

/*
 * The prologue of a metric's page and its API: the metric named by the
 * parameter key of kv (with workload= and host=), at least one and at
 * most max (0: any number).  Without key, usage (a page, or JSON if api)
 * is the 400's text, unless usage is NULL: then every metric is meant,
 * and *ms is left empty.  0 with *ms and *host, or -1 after filling r.
 */
static int
http_metric_args(struct daemon *d, struct http_reply *r, struct evkeyvalq *kv,
    int api, const char *key, const char *usage, size_t max,
    const char **metric, const char **workload, const char **host,
    struct store_metric **ms, size_t *nms)
{
	*metric = evhttp_find_header(kv, key);
	*workload = evhttp_find_header(kv, "workload");
	*host = evhttp_find_header(kv, "host");
	*ms = NULL;
	*nms = 0;
	if (*metric == NULL && usage != NULL) {
		(api ? http_error_json : http_error_page)(r, 400,
		    "Bad Request", usage, NULL);
		return -1;
	}
	/* No name at all: every metric, nothing to look up. */
	if (*metric == NULL && *workload == NULL && *host == NULL)
		return 0;
	return http_metrics_find(d, r, api, *workload, *metric, *host, max,
	    ms, nms);
}

/*
 * Whether one of ms[0..nms) has runs on more than HTTP_HOSTS hosts when
 * no host is named, and so is too long to read in the loop: 1, 0, or -1
 * after filling r with the store's error (a page, or JSON if api).
 */
static int
http_many_hosts(struct daemon *d, struct http_reply *r, int api,
    const struct store_metric *ms, size_t nms, const char *host)
{
	size_t	i, n;

	if (host != NULL)
		return 0;
	for (i = 0; i < nms; i++) {
		if (store_metric_hosts(d->st, ms[i].id, HTTP_HOSTS, &n) == -1) {
			(api ? http_error_json : http_error_page)(r, 500,
			    "Internal Server Error", "the store could not be "
			    "read:", store_errmsg(d->st));
			return -1;
		}
		if (n > HTTP_HOSTS)
			return 1;
	}
	return 0;
}

/*
 * The alert spans of one host's history of metric m: each alert of that
 * host and metric from its first bad run (or the first charted, when it
 * is older) to the last it has seen, found among the labels of the runs
 * charted.  *spans and *titles (NULL when there are none) hold them: 0,
 * or -1 when the host, its alerts or their runs cannot be read.
 */
static int
http_spans(struct daemon *d, const struct store_metric *m, const char *host,
    const char *const *labels, size_t n, struct html_span **spans,
    size_t *nspans, char ***titles)
{
	struct store_alert	*a = NULL;
	struct html_span	*s = NULL;
	int64_t			 hid;
	size_t			 na = 0, i, k, first, last;
	char			*l1, *l2;

	*spans = NULL;
	*nspans = 0;
	*titles = NULL;
	if (host == NULL)
		return 0;
	if (store_host_find(d->st, host, &hid) == -1)
		return store_failure(d->st) == STORE_FOUND_NONE ? 0 : -1;
	if (store_alerts_metric(d->st, hid, m->id, &a, &na) == -1)
		return -1;
	if (na == 0)
		return 0;
	s = xcalloc(na, sizeof(*s));
	*titles = xcalloc(na, sizeof(**titles));
	for (i = 0; i < na; i++) {
		l1 = l2 = NULL;
		if (view_run_label_get(d->st, a[i].first_bad_run, &l1) == -1 ||
		    view_run_label_get(d->st, a[i].last_run, &l2) == -1) {
			free(l1);
			for (k = 0; k < *nspans; k++)
				free((*titles)[k]);
			free(*titles);
			*titles = NULL;
			*nspans = 0;
			free(s);
			store_alerts_free(a, na);
			return -1;
		}
		first = last = n;
		for (k = 0; k < n; k++) {
			if (strcmp(labels[k], l1) == 0)
				first = k;
			if (strcmp(labels[k], l2) == 0)
				last = k;
		}
		/*
		 * A first bad run not among those charted is older than
		 * all of them (they are the newest of this metric): an alert
		 * that goes on into them is shaded from the first.
		 */
		if (first == n && last < n)
			first = 0;
		if (first < n) {
			if (last == n || last < first)
				last = n - 1;
			xasprintf(&(*titles)[*nspans], "alert #%lld %s %s, "
			    "%+.1f%%, from %s", (long long)a[i].id,
			    a[i].state, a[i].direction, a[i].change_pct, l1);
			s[*nspans].first = first;
			s[*nspans].last = last;
			s[*nspans].title = (*titles)[*nspans];
			(*nspans)++;
		}
		free(l1);
		free(l2);
	}
	store_alerts_free(a, na);
	*spans = s;
	return 0;
}

/*
 * The markers of the change points ch[0..nch) of host among the runs
 * labels[0..n) charted, and their titles in *titles: each at its first
 * run, titled with that run's label, its kind and its change.
 */
static struct html_mark *
http_marks(const struct detect_change *ch, size_t nch, const char *host,
    const char *const *labels, size_t n, size_t *nmarks, char ***titles)
{
	struct html_mark	*mk;
	size_t			 i, k;

	*nmarks = 0;
	mk = xcalloc(nch > 0 ? nch : 1, sizeof(*mk));
	*titles = xcalloc(nch > 0 ? nch : 1, sizeof(**titles));
	for (i = 0; i < nch; i++) {
		if (host == NULL || strcmp(ch[i].host, host) != 0)
			continue;
		for (k = 0; k < n; k++)
			if (strcmp(labels[k], ch[i].run) == 0)
				break;
		if (k == n)
			continue;
		xasprintf(&(*titles)[*nmarks], "%s: %s, %+.1f%%", ch[i].run,
		    cp_kind_name(ch[i].cp.kind), ch[i].cp.change_pct);
		mk[*nmarks].at = k;
		mk[*nmarks].spike = ch[i].cp.kind == CP_SPIKE;
		mk[*nmarks].title = (*titles)[*nmarks];
		(*nmarks)++;
	}
	return mk;
}

/* The table of host's change points under its chart. */
static void
http_changes_table(struct evbuffer *b, const struct detect_change *ch,
    size_t nch, const char *host, size_t shown)
{
	const struct cp_change	*cp;
	size_t			 i, k, scanned = 0;

	for (i = 0, k = 0; i < nch; i++)
		if (host != NULL && strcmp(ch[i].host, host) == 0) {
			scanned = ch[i].history;
			k++;
		}
	evbuffer_add_printf(b, "<h3>Change points</h3>\n");
	if (k == 0) {
		evbuffer_add_printf(b, "<p>None in the runs shown that count "
		    "(complete, not busy, not a bisection&#39;s).</p>\n");
		return;
	}
	evbuffer_add_printf(b, "<p>Over the %zu runs shown that count "
	    "(complete, not busy, not a bisection&#39;s)%s: where a new level "
	    "(step) or a spike began, as <code>perfwatch changes</code> "
	    "reports it.</p>\n<table class=\"changes\">\n<tr><th>run</th>"
	    "<th>kind</th><th>before</th><th>after</th><th>change</th>"
	    "<th>p</th><th>runs</th></tr>\n", scanned, shown >= HTTP_HISTORY ?
	    "; the history may be longer" : "");
	for (i = 0; i < nch; i++) {
		if (host == NULL || strcmp(ch[i].host, host) != 0)
			continue;
		cp = &ch[i].cp;
		evbuffer_add_printf(b, "<tr>");
		http_cell(b, NULL, ch[i].run);
		http_cell(b, cp->kind == CP_SPIKE ? "spike" : "step",
		    cp_kind_name(cp->kind));
		evbuffer_add_printf(b, "<td class=\"n\">%.6g</td>"
		    "<td class=\"n\">%.6g</td><td class=\"n\">", cp->before,
		    cp->after);
		if (isnan(cp->change_pct))
			evbuffer_add_printf(b, "-");
		else
			evbuffer_add_printf(b, "%+.1f%%", cp->change_pct);
		evbuffer_add_printf(b, "</td><td class=\"n\">%.2g</td>"
		    "<td class=\"n\">%zu</td></tr>\n", cp->p, cp->length);
	}
	evbuffer_add_printf(b, "</table>\n");
}

/*
 * One host's history of metric m (history --json's object): chart,
 * change points (of ch[0..nch), those of its host), table.  0, or -1
 * when its alerts cannot be read (b then holds a part of a page).
 */
static int
http_metric_series(struct daemon *d, struct evbuffer *b,
    const struct store_metric *m, json_t *series,
    const struct detect_change *ch, size_t nch)
{
	struct html_chart	 c;
	struct html_span	*spans;
	struct html_mark	*marks;
	json_t			*runs, *run;
	const char		*host, **labels;
	double			*values;
	char			**titles, **mtitles;
	size_t			 n, i, nspans, nmarks;

	host = json_string_value(json_object_get(series, "host"));
	runs = json_object_get(series, "runs");
	n = json_array_size(runs);
	evbuffer_add_printf(b, "<h2>");
	html_escape(b, host != NULL ? host : "no host");
	evbuffer_add_printf(b, "</h2>\n");
	if (n == 0) {
		evbuffer_add_printf(b, "<p>No runs.</p>\n");
		return 0;
	}
	evbuffer_add_printf(b, "<p>%zu run%s (the newest %d at most): the "
	    "median of each, in ", n, n == 1 ? "" : "s", HTTP_HISTORY);
	html_escape(b, m->unit);
	evbuffer_add_printf(b, ", %s is better; an alert&#39;s runs are "
	    "shaded, a change point&#39;s first run is marked (&#9660; a step, "
	    "&#9670; a spike).</p>\n", better_name(m->better));
	values = xcalloc(n, sizeof(*values));
	labels = xcalloc(n, sizeof(*labels));
	json_array_foreach(runs, i, run) {
		values[i] = json_is_number(json_object_get(run, "median")) ?
		    json_number_value(json_object_get(run, "median")) : NAN;
		labels[i] = json_string_value(json_object_get(run, "run"));
		if (labels[i] == NULL)
			labels[i] = "?";
	}
	if (http_spans(d, m, host, labels, n, &spans, &nspans,
	    &titles) == -1) {
		free(values);
		free(labels);
		return -1;
	}
	marks = http_marks(ch, nch, host, labels, n, &nmarks, &mtitles);
	memset(&c, 0, sizeof(c));
	c.values = values;
	c.labels = labels;
	c.n = n;
	c.spans = spans;
	c.nspans = nspans;
	c.marks = marks;
	c.nmarks = nmarks;
	html_chart(b, &c);
	http_changes_table(b, ch, nch, host, n);
	evbuffer_add_printf(b, "<table class=\"history\">\n<tr><th>run</th>"
	    "<th>time</th><th>median</th><th>min</th><th>max</th>"
	    "<th>stddev</th><th>n</th><th>busy</th></tr>\n");
	for (i = n; i-- > 0;) {
		run = json_array_get(runs, i);
		evbuffer_add_printf(b, "<tr>");
		http_cell(b, NULL, labels[i]);
		http_cell(b, NULL, json_string_value(json_object_get(run,
		    "time")));
		http_num_cell(b, json_object_get(run, "median"));
		http_num_cell(b, json_object_get(run, "min"));
		http_num_cell(b, json_object_get(run, "max"));
		http_num_cell(b, json_object_get(run, "stddev"));
		http_num_cell(b, json_object_get(run, "samples"));
		evbuffer_add_printf(b, "<td>%s</td></tr>\n", json_is_true(
		    json_object_get(run, "busy")) ? "yes" : "no");
	}
	evbuffer_add_printf(b, "</table>\n");
	for (i = 0; i < nspans; i++)
		free(titles[i]);
	free(titles);
	free(spans);
	for (i = 0; i < nmarks; i++)
		free(mtitles[i]);
	free(mtitles);
	free(marks);
	free(values);
	free(labels);
	return 0;
}

/* /metric?name=M[&workload=W][&host=H] */
static void
http_metric(struct daemon *d, struct http_reply *r, struct evkeyvalq *kv)
{
	struct cp_params	 cpp;
	struct detect_change	*ch = NULL;
	struct store_metric	*ms;
	struct evbuffer		*b = r->body;
	const char		*name, *workload, *host;
	json_t			*arr, *series;
	char			*title;
	size_t			 nms, i, nch = 0;
	int			 many;

	if (http_metric_args(d, r, kv, 0, "name", "which metric? "
	    "/metric?name=METRIC[&workload=WORKLOAD][&host=HOST]", HTTP_MATCH,
	    &name, &workload, &host, &ms, &nms) == -1)
		return;
	if (nms > 1) {
		/* One name in several workloads: which one? */
		http_page_begin(b, name);
		evbuffer_add_printf(b, "<h1>");
		html_escape(b, name);
		evbuffer_add_printf(b, "</h1>\n<p>Metrics of this name:</p>\n"
		    "<ul>\n");
		for (i = 0; i < nms; i++) {
			evbuffer_add_printf(b, "<li>");
			http_metric_link(b, ms[i].workload, ms[i].metric, host);
			evbuffer_add_printf(b, "</li>\n");
		}
		evbuffer_add_printf(b, "</ul>\n");
		http_page_end(b);
		store_metrics_free(ms, nms);
		return;
	}
	if ((many = http_many_hosts(d, r, 0, ms, nms, host)) != 0) {
		if (many == 1)
			http_error_page(r, 400, "Bad Request", "this metric "
			    "has runs on more than " HTTP_HOSTS_S " hosts, too "
			    "many for one page; name one (host=):", name);
		store_metrics_free(ms, nms);
		return;
	}
	/* perfwatch changes' parameters, over the runs shown. */
	cp_params_default(&cpp);
	arr = pwjson_array();
	if (view_history_changes(d->st, &ms[0], host, HTTP_HISTORY, &cpp, arr,
	    &ch, &nch) == -1) {
		http_error_page(r, 500, "Internal Server Error", "the store "
		    "could not be read:", store_errmsg(d->st));
		json_decref(arr);
		store_metrics_free(ms, nms);
		return;
	}
	xasprintf(&title, "%s %s", ms[0].workload, ms[0].metric);
	http_page_begin(b, title);
	evbuffer_add_printf(b, "<p><a href=\"/\">the dashboard</a></p>\n"
	    "<h1>");
	html_escape(b, title);
	evbuffer_add_printf(b, "</h1>\n");
	json_array_foreach(arr, i, series)
		if (http_metric_series(d, b, &ms[0], series, ch, nch) == -1)
			break;
	if (i < json_array_size(arr))
		http_error_page(r, 500, "Internal Server Error", "the store "
		    "could not be read:", store_errmsg(d->st));
	else
		http_page_end(b);
	detect_changes_free(ch, nch);
	free(title);
	json_decref(arr);
	store_metrics_free(ms, nms);
}

/*
 * A parameter's value as a whole number from min to max, in decimal
 * digits alone (no sign, no space): 0 with *n, or -1.
 */
static int
http_param_number(const char *s, long long min, long long max, long long *n)
{
	char	*end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	*n = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || *n < min || *n > max)
		return -1;
	return 0;
}

/*
 * /api/alerts[?before=ID][&limit=N]: the open alerts older than alert
 * ID (all without before=), newest first, N of them at most (1 to
 * HTTP_ALERTS, HTTP_ALERTS without limit=), with how many are open in
 * all, whether older ones were left out, and the request for them
 * (before= the oldest given), so that a client can tell an answer cut
 * short from a whole one and page through every alert.  An id, not an
 * offset: an alert opened or closed meanwhile moves no other from one
 * page to the next.
 */
static void
http_api_alerts(struct daemon *d, struct http_reply *r, struct evkeyvalq *kv)
{
	const char	*sb = evhttp_find_header(kv, "before");
	const char	*sl = evhttp_find_header(kv, "limit");
	long long	 before = 0, limit = HTTP_ALERTS;
	int64_t		 last;
	size_t		 total;
	json_t		*arr, *o;
	char		*next;
	int		 more;

	if (sb != NULL && http_param_number(sb, 1, INT64_MAX, &before) == -1) {
		http_error_json(r, 400, "Bad Request", "before= takes the id "
		    "of an alert, a whole number from 1, not", sb);
		return;
	}
	if (sl != NULL && http_param_number(sl, 1, HTTP_ALERTS,
	    &limit) == -1) {
		http_error_json(r, 400, "Bad Request", "limit= takes a whole "
		    "number from 1 to " HTTP_ALERTS_S ", not", sl);
		return;
	}
	/* The rest of the answer, its other keys, in the last KiB. */
	arr = http_alerts_json(d, (int64_t)before, (size_t)limit,
	    HTTP_ALERTS_BYTES - 1024, 0, &total, &more, &last);
	if (arr == NULL) {
		http_error_json(r, 500, "Internal Server Error", "the store "
		    "could not be read:", store_errmsg(d->st));
		return;
	}
	o = pwjson_object();
	pwjson_set(o, "alerts", arr);
	pwjson_set_int(o, "total", (int64_t)total);
	pwjson_set_bool(o, "truncated", more);
	if (more) {
		if (sl != NULL)
			xasprintf(&next, "/api/alerts?before=%lld&limit=%lld",
			    (long long)last, limit);
		else
			xasprintf(&next, "/api/alerts?before=%lld",
			    (long long)last);
		pwjson_set_str(o, "next", next);
		free(next);
	} else
		pwjson_set(o, "next", json_null());
	http_json(r, o);
	json_decref(o);
}

/*
 * An answer that a child builds: its page, the perfwatch command that
 * prints it, and what to say when it cannot be had.
 */
struct http_kind {
	const char		*path;		/* of the request */
	const char		*command;	/* perfwatch's subcommand */
	const char		*job;		/* its name in the log */
	const char		*what;		/* "the ... asked for" */
	const char		*narrow;	/* how to ask for less */
	int			 limit;		/* --limit, or 0 */
};

static const struct http_kind http_kind_changes = {
	"/api/changes", "changes", "dashboard: perfwatch changes",
	"the change points asked for", "ask for one workload's metric, a "
	"workload or a host", 0
};

static const struct http_kind http_kind_history = {
	"/api/history", "history", "dashboard: perfwatch history",
	"the history asked for", "ask for one workload's metric "
	"(workload=) or one host (host=)", HTTP_HISTORY
};

/* An answer of /api/changes or /api/history, built by a child. */
struct http_build {
	struct daemon		*d;
	const struct http_kind	*kind;
	struct evhttp_request	*req;
	struct job		*job;
	struct event		*watch;		/* the client's end */
	struct event		*limit;		/* fires after secs */
	long long		 secs;		/* http_timeout at the start */
	time_t			 started;
	int			 fd;		/* the child's stdout, a file */
};

/* A built answer being sent from its file, a piece at a time. */
struct http_file {
	struct daemon		*d;
	struct evhttp_request	*req;
	struct evbuffer		*piece;
	int			 fd;
	off_t			 off;
	off_t			 len;
};

/* The headers of every reply, of type, and the request logged. */
static void
http_headers(struct evhttp_request *req, const char *type, int code)
{
	struct evkeyvalq	*out = evhttp_request_get_output_headers(req);
	enum evhttp_cmd_type	 cmd = evhttp_request_get_command(req);

	evhttp_add_header(out, "Content-Type", type);
	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_add_header(out, "X-Content-Type-Options", "nosniff");
	evhttp_add_header(out, "Content-Security-Policy", HTTP_CSP);
	log_debug("http: %s %s: %d", cmd == EVHTTP_REQ_GET ? "GET" :
	    cmd == EVHTTP_REQ_HEAD ? "HEAD" : "other",
	    evhttp_request_get_uri(req), code);
}

/*
 * Send r, with the headers of every reply and HEAD's length (unless r
 * is unsized: evhttp adds none to a HEAD); free it.
 */
static void
http_send(struct evhttp_request *req, struct http_reply *r)
{
	char	len[32];

	http_headers(req, r->type, r->code);
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD &&
	    !r->unsized) {
		/* The length a GET would have, and no body. */
		snprintf(len, sizeof(len), "%zu",
		    evbuffer_get_length(r->body));
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Content-Length", len);
		evbuffer_drain(r->body, evbuffer_get_length(r->body));
	}
	evhttp_send_reply(req, r->code, r->reason, r->body);
	evbuffer_free(r->body);
	r->body = NULL;
}

static void
http_file_free(struct http_file *f)
{
	f->d->http_sending--;
	close(f->fd);
	evbuffer_free(f->piece);
	free(f);
}

/*
 * The connection of an answer being sent from its file is going away
 * (the client left, or was silent for http_timeout): the rest is not
 * sent.  A request that evhttp took off the connection is freed here.
 */
static void
http_file_gone(struct evhttp_connection *evcon, void *arg)
{
	struct http_file	*f = arg;

	(void)evcon;
	log_debug("http: %s: the client went away after %lld of %lld bytes",
	    evhttp_request_get_uri(f->req), (long long)f->off,
	    (long long)f->len);
	if (evhttp_request_get_connection(f->req) == NULL)
		evhttp_request_free(f->req);
	http_file_free(f);
}

/*
 * The last piece has left for the client (or none has been sent yet):
 * send the next, or end the reply.  One piece at a time is read, so that
 * a client that reads slowly holds HTTP_PIECE bytes of the daemon, not
 * the whole answer.
 */
static void
http_file_next(struct evhttp_connection *evcon, void *arg)
{
	struct http_file	*f = arg;
	struct evbuffer_iovec	 v;
	size_t			 want;
	ssize_t			 n;

	if (f->off == f->len) {
		evhttp_connection_set_closecb(evcon, NULL, NULL);
		evhttp_send_reply_end(f->req);
		http_file_free(f);
		return;
	}
	want = f->len - f->off > HTTP_PIECE ? HTTP_PIECE :
	    (size_t)(f->len - f->off);
	if (evbuffer_reserve_space(f->piece, (ev_ssize_t)want, &v, 1) < 1)
		fatalx("http: out of memory for a reply");
	do
		n = pread(f->fd, v.iov_base, want, f->off);
	while (n == -1 && errno == EINTR);
	if (n <= 0) {
		/* The length is said: the client must see it cut short. */
		if (n == -1)
			log_warn("http: %s: the answer's file",
			    evhttp_request_get_uri(f->req));
		else
			log_warnx("http: %s: the answer's file ended at %lld "
			    "of %lld bytes", evhttp_request_get_uri(f->req),
			    (long long)f->off, (long long)f->len);
		/* Its close callback, http_file_gone(), frees f. */
		evhttp_connection_free(evcon);
		return;
	}
	v.iov_len = (size_t)n;
	evbuffer_commit_space(f->piece, &v, 1);
	f->off += n;
	evhttp_send_reply_chunk_with_cb(f->req, f->piece, http_file_next, f);
}

/*
 * Reply 200 to req with the len bytes of the file fd (which this takes
 * and closes), a piece at a time as the client reads them.  Never a
 * HEAD's: a HEAD starts no build (http_api_changes).
 */
static void
http_send_file(struct daemon *d, struct evhttp_request *req,
    const char *type, int fd, off_t len)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct http_file	*f;
	char			 s[32];

	http_headers(req, type, 200);
	snprintf(s, sizeof(s), "%lld", (long long)len);
	/* Said before the start: no chunked encoding. */
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Length", s);
	assert(evhttp_request_get_command(req) != EVHTTP_REQ_HEAD);
	evhttp_send_reply_start(req, 200, "OK");
	f = xcalloc(1, sizeof(*f));
	f->d = d;
	d->http_sending++;
	f->req = req;
	f->fd = fd;
	f->len = len;
	if ((f->piece = evbuffer_new()) == NULL)
		fatalx("evbuffer_new");
	evhttp_connection_set_closecb(evcon, http_file_gone, f);
	http_file_next(evcon, f);
}

/*
 * The child has exited: its output (in b->fd) is the reply, or its last
 * words the error.  The job is freed when this returns.
 */
static void
http_build_done(struct job *j, void *arg)
{
	struct http_build	*b = arg;
	struct daemon		*d = b->d;
	struct http_reply	 r;
	struct stat		 st;
	char			*tail, *why;
	int			 status = job_status(j), ok;

	d->http_build = NULL;
	d->http_build_secs = time(NULL) - b->started;
	d->http_built = 1;
	event_free(b->watch);
	event_free(b->limit);
	evhttp_connection_set_closecb(evhttp_request_get_connection(b->req),
	    NULL, NULL);
	ok = fstat(b->fd, &st) == 0;
	if (ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    st.st_size <= HTTP_CHANGES_MAX) {
		log_debug("http: %s built in %lld s, %lld bytes",
		    b->kind->path, (long long)d->http_build_secs,
		    (long long)st.st_size);
		http_send_file(d, b->req, "application/json", b->fd,
		    st.st_size);
		free(b);
		return;
	}
	if (!ok)
		xasprintf(&why, "the file of its answer: %s", strerror(errno));
	else if (st.st_size > HTTP_CHANGES_MAX)
		xasprintf(&why, "%s: more than %d bytes: %s", b->kind->what,
		    HTTP_CHANGES_MAX, b->kind->narrow);
	else if ((tail = job_tail(j)) != NULL) {
		/* Its message, without the program's name. */
		why = xstrdup(strncmp(tail, "perfwatch: ", 11) == 0 ?
		    tail + 11 : tail);
		free(tail);
	} else if (WIFSIGNALED(status))
		xasprintf(&why, "perfwatch %s was killed by signal %d",
		    b->kind->command, WTERMSIG(status));
	else
		xasprintf(&why, "perfwatch %s exited %d", b->kind->command,
		    WEXITSTATUS(status));
	log_warnx("http: %s: %s", b->kind->path, why);
	http_reply_init(&r, 200, "OK", "application/json");
	http_error_json(&r, 500, "Internal Server Error", why, NULL);
	free(why);
	close(b->fd);
	http_send(b->req, &r);
	free(b);
}

/*
 * The connection of a request being built is going away (the client
 * left, or evhttp gave up on it): stop the build.  A request that evhttp
 * took off the connection (on an EOF or a timeout it saw itself) is left
 * to be freed here; one still on it is freed with it.
 */
static void
http_build_gone(struct evhttp_connection *evcon, void *arg)
{
	struct http_build	*b = arg;
	struct daemon		*d = b->d;

	(void)evcon;
	log_info("http: %s: the client went away; its build (pid %ld) is "
	    "stopped", b->kind->path, (long)job_pid(b->job));
	event_free(b->watch);
	event_free(b->limit);
	job_forget(b->job);
	close(b->fd);
	d->http_build = NULL;
	if (evhttp_request_get_connection(b->req) == NULL)
		evhttp_request_free(b->req);
	free(b);
}

/*
 * The client's end of a connection whose reply is being built.  evhttp
 * does not read a connection while its request waits for a reply, so an
 * EOF there is seen here: EV_CLOSED where the backend reports a peer's
 * close (epoll), else a read that peeks.  Bytes the client sent ahead
 * end the watch (they are evhttp's to read, and would keep it firing).
 */
static void
http_build_watch(evutil_socket_t fd, short what, void *arg)
{
	struct http_build	*b = arg;
	struct evhttp_connection *evcon;
	char			 c;
	ssize_t			 n;

	if (!(what & EV_CLOSED)) {
		n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK ||
		    errno == EINTR))
			return;
		if (n > 0) {
			event_del(b->watch);
			return;
		}
	}
	/* Its close callback, http_build_gone(), frees b. */
	evcon = evhttp_request_get_connection(b->req);
	evhttp_connection_free(evcon);
}

/*
 * Stop the build in progress, if any, for a request evhttp is about to
 * free with its connection (evhttp_free): its reply is never sent.
 */
static void
http_build_cancel(struct daemon *d)
{
	struct http_build	*b = d->http_build;

	if (b == NULL)
		return;
	evhttp_connection_set_closecb(evhttp_request_get_connection(b->req),
	    NULL, NULL);
	event_free(b->watch);
	event_free(b->limit);
	job_forget(b->job);
	close(b->fd);
	d->http_build = NULL;
	free(b);
}

/*
 * The build has run for http_timeout: its group is killed and the client
 * told so (504), and the next request may start another.  A child that
 * hangs (a store locked for ever, a stuck disk) would otherwise hold its
 * client, and every other request for every metric would get 503 until
 * it ended.
 */
static void
http_build_expire(evutil_socket_t fd, short what, void *arg)
{
	struct http_build	*b = arg;
	struct daemon		*d = b->d;
	struct http_reply	 r;
	char			*why;

	(void)fd;
	(void)what;
	xasprintf(&why, "%s: not built within %lld s (http_timeout): %s, "
	    "or raise http_timeout", b->kind->what, b->secs, b->kind->narrow);
	log_warnx("http: %s: perfwatch %s (pid %ld) killed: %s",
	    b->kind->path, b->kind->command, (long)job_pid(b->job), why);
	evhttp_connection_set_closecb(evhttp_request_get_connection(b->req),
	    NULL, NULL);
	event_free(b->watch);
	event_free(b->limit);
	job_forget(b->job);
	close(b->fd);
	d->http_build = NULL;
	http_reply_init(&r, 504, "Gateway Timeout", "application/json");
	http_error_json(&r, 504, "Gateway Timeout", why, NULL);
	free(why);
	http_send(b->req, &r);
	free(b);
}

/*
 * A file for the answer of a build, in state_dir and unlinked there at
 * once: gone with its descriptor, whatever becomes of the daemon.  The
 * descriptor, or -1 (logged).
 */
static int
http_answer_file(struct daemon *d)
{
	char	*path;
	int	 fd;

	xasprintf(&path, "%s/changes.XXXXXX", d->state_dir);
	if ((fd = mkstemp(path)) == -1) {
		log_warn("http: %s", path);
		free(path);
		return -1;
	}
	if (unlink(path) == -1 || fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		log_warn("http: %s", path);
		(void)unlink(path);
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

/*
 * Start building the answer of kind (metric, host and workload as
 * given, checked) for req by its perfwatch command: 1 when started, the
 * reply to come, or 0 with the error in r (503 while another is being
 * built, of either kind, or while HTTP_SENDING are being sent).
 */
static int
http_build_start(struct daemon *d, struct evhttp_request *req,
    struct http_reply *r, const struct http_kind *kind, const char *metric,
    const char *host, const char *workload)
{
	struct http_build	*b;
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct timeval		 tv;
	char			*argv[14], *hopt = NULL, *wopt = NULL;
	char			*mopt = NULL;
	char			 s[32], lim[32];
	time_t			 left, ran;
	int			 i = 0, fd;

	if (d->http_build != NULL) {
		/* What the last build took, less what this one has run. */
		ran = time(NULL) - d->http_build->started;
		left = d->http_built ? d->http_build_secs - ran :
		    HTTP_RETRY_AFTER;
		/* It ends by its limit at the latest. */
		if (left > d->http_build->secs - ran)
			left = d->http_build->secs - ran;
		if (left < 1)
			left = 1;
		snprintf(s, sizeof(s), "%lld", (long long)left);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", s);
		http_error_json(r, 503, "Service Unavailable", "an answer "
		    "of /api/changes or /api/history is being built for "
		    "another request, one build at a time; retry after the "
		    "seconds of Retry-After:", s);
		return 0;
	}
	if (d->http_sending >= HTTP_SENDING) {
		/* How long their clients take to read them is not known. */
		snprintf(s, sizeof(s), "%d", HTTP_RETRY_AFTER);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", s);
		http_error_json(r, 503, "Service Unavailable", "the "
		    "answers built for " HTTP_SENDING_S " other requests, "
		    "the most at once, are still being read by their "
		    "clients; retry after the seconds of Retry-After:", s);
		return 0;
	}
	argv[i++] = d->perfwatch;
	argv[i++] = (char *)"-c";
	argv[i++] = d->run_conf;
	argv[i++] = (char *)"-D";
	argv[i++] = d->db_path;
	argv[i++] = (char *)kind->command;
	argv[i++] = (char *)"--json";
	if (kind->limit > 0) {
		snprintf(lim, sizeof(lim), "--limit=%d", kind->limit);
		argv[i++] = lim;
	}
	/* NAME=VALUE: a value that begins with '-' is not an option. */
	if (host != NULL) {
		xasprintf(&hopt, "--host=%s", host);
		argv[i++] = hopt;
	}
	if (workload != NULL) {
		xasprintf(&wopt, "--workload=%s", workload);
		argv[i++] = wopt;
	}
	if (metric != NULL) {
		xasprintf(&mopt, "--metric=%s", metric);
		argv[i++] = mopt;
	}
	argv[i] = NULL;
	b = xcalloc(1, sizeof(*b));
	b->d = d;
	b->kind = kind;
	b->req = req;
	b->started = time(NULL);
	/*
	 * Its output goes to a file, not the daemon's memory: a client
	 * that reads slowly would hold it all, and a few of them as many.
	 */
	if ((b->fd = http_answer_file(d)) == -1) {
		free(hopt);
		free(wopt);
		free(mopt);
		free(b);
		http_error_json(r, 500, "Internal Server Error", "no file for "
		    "the answer could be made in", d->state_dir);
		return 0;
	}
	b->job = job_exec_to(d, kind->job, argv, NULL, 0, b->fd, NULL,
	    http_build_done, b);
	free(hopt);
	free(wopt);
	free(mopt);
	if (b->job == NULL) {
		close(b->fd);
		free(b);
		http_error_json(r, 500, "Internal Server Error", "could not "
		    "start its perfwatch:", d->perfwatch);
		return 0;
	}
	evhttp_connection_set_closecb(evcon, http_build_gone, b);
	fd = bufferevent_getfd(evhttp_connection_get_bufferevent(evcon));
	b->watch = event_new(d->base, fd, EV_PERSIST |
	    ((event_base_get_features(d->base) & EV_FEATURE_EARLY_CLOSE) ?
	    EV_CLOSED : EV_READ), http_build_watch, b);
	if (b->watch == NULL || event_add(b->watch, NULL) == -1)
		fatalx("event_new");
	/* The limit in force when the build began: a reload leaves it. */
	b->secs = (long long)config_get_duration(d->cfg, "perfwatch",
	    "http_timeout");
	tv.tv_sec = (time_t)b->secs;
	tv.tv_usec = 0;
	b->limit = evtimer_new(d->base, http_build_expire, b);
	if (b->limit == NULL || evtimer_add(b->limit, &tv) == -1)
		fatalx("evtimer_new");
	d->http_build = b;
	return 1;
}

/*
 * The names of /api/history's kv, checked in the loop: 0 with *metric
 * (a metric of the store), *workload and *host (NULL for any) for the
 * child to build, or -1 with the error in r.
 */
static int
http_history_args(struct daemon *d, struct http_reply *r,
    struct evkeyvalq *kv, const char **metric, const char **workload,
    const char **host)
{
	struct store_metric	*ms;
	size_t			 nms;
	int			 many;

	if (http_metric_args(d, r, kv, 1, "metric", "which metric? "
	    "/api/history?metric=METRIC[&workload=WORKLOAD][&host=HOST]",
	    HTTP_MATCH, metric, workload, host, &ms, &nms) == -1)
		return -1;
	many = http_many_hosts(d, r, 1, ms, nms, *host);
	store_metrics_free(ms, nms);
	if (many == 1)
		http_error_json(r, 400, "Bad Request", "this metric has runs "
		    "on more than " HTTP_HOSTS_S " hosts; name one (host=):",
		    *metric);
	return many != 0 ? -1 : 0;
}

/*
 * /api/history?metric=M[&workload=W][&host=H]: 0 with the error (or a
 * HEAD's headers) in r, or 1 when a child builds it.  The names are
 * checked here, in the loop, against the bounds of the pages; the
 * answer is always built by `perfwatch history` as a child, as
 * /api/changes of every metric is: it holds every iteration of each
 * run, and a run may have up to 100000, so its size is not known until
 * it is read (92 MiB for 16 workloads' metric on 32 hosts of 400 runs
 * of 10 iterations, the loop held 6 s; bench/store's metrics 188 KiB).
 */
static int
http_api_history(struct daemon *d, struct evhttp_request *req,
    struct http_reply *r, struct evkeyvalq *kv)
{
	const char	*metric, *workload, *host;

	if (http_history_args(d, r, kv, &metric, &workload, &host) == -1)
		return 0;
	/* As for /api/changes: HEAD builds nothing, and says no length. */
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		r->type = "application/json";
		r->unsized = 1;
		return 0;
	}
	return http_build_start(d, req, r, &http_kind_history, metric, host,
	    workload);
}

/*
 * /api/changes[?metric=M][&workload=W][&host=H]: 0 with the reply in r,
 * or 1 when a child builds it (without metric=, with a name that
 * several metrics have, or without host= for a metric of more than
 * HTTP_HOSTS hosts).
 */
static int
http_api_changes(struct daemon *d, struct evhttp_request *req,
    struct http_reply *r, struct evkeyvalq *kv)
{
	struct cp_params	 cpp;
	struct detect_change	*ch = NULL;
	struct store_metric	*ms = NULL;
	const char		*metric, *workload, *host;
	char			*cause = NULL;
	size_t			 nms = 0, n = 0;
	json_t			*arr;
	int			 many = 0;

	/* A name mistyped is said to be one, as by the command. */
	if (http_metric_args(d, r, kv, 1, "metric", NULL, 0, &metric, &workload,
	    &host, &ms, &nms) == -1)
		return 0;
	if (metric != NULL && nms == 1 &&
	    (many = http_many_hosts(d, r, 1, ms, nms, host)) == -1) {
		store_metrics_free(ms, nms);
		return 0;
	}
	store_metrics_free(ms, nms);
	/*
	 * HEAD: the names are checked (a 404 or a 400 as for GET), but the
	 * answer is not made, neither in the loop nor by a child: its
	 * making is what costs, and HEAD would then cost as much as GET,
	 * and take the one build slot.  Its length, which only the making
	 * tells, is not said (RFC 9110 lets a HEAD leave out what is known
	 * only so); the rest of GET's headers are.
	 */
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		r->type = "application/json";
		r->unsized = 1;
		return 0;
	}
	/*
	 * A name that several workloads share (a command's "wall"), or one
	 * metric of many hosts, is as many whole histories: too long for
	 * the loop, as every metric is.
	 */
	if (metric == NULL || nms > 1 || many)
		return http_build_start(d, req, r, &http_kind_changes, metric,
		    host, workload);
	cp_params_default(&cpp);
	if (detect_changes(d->st, host, workload, metric, &cpp, &ch, &n,
	    &cause) == -1) {
		http_error_json(r, 500, "Internal Server Error", cause, NULL);
		free(cause);
		return 0;
	}
	log_debug("http: %s: %zu change points, built in the loop",
	    evhttp_request_get_uri(req), n);
	arr = view_changes_json(ch, n);
	http_json(r, arr);
	json_decref(arr);
	detect_changes_free(ch, n);
	return 0;
}

/*
 * Answer one request into r, reading the store in one read transaction:
 * 0, or 1 when the reply is left to a child (/api/changes).
 */
static int
http_route(struct daemon *d, struct evhttp_request *req, struct http_reply *r)
{
	static const char *const none[] = { NULL };
	static const char *const metric_keys[] = { "name", "workload", "host",
	    NULL };
	static const char *const history_keys[] = { "metric", "workload",
	    "host", NULL };
	static const char *const changes_keys[] = { "metric", "workload", "host",
	    NULL };
	static const char *const alerts_keys[] = { "before", "limit", NULL };
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	const char		*path, *query, *what, *value;
	const char *const	*known;
	struct evkeyvalq	 kv;
	json_t			*v;
	int			 api, began, later = 0;

	path = uri != NULL ? evhttp_uri_get_path(uri) : NULL;
	query = uri != NULL ? evhttp_uri_get_query(uri) : NULL;
	if (path == NULL || *path == '\0')
		path = "/";
	api = strncmp(path, "/api/", 5) == 0;
	if (strcmp(path, "/") == 0 || strcmp(path, "/api/runs") == 0)
		known = none;
	else if (strcmp(path, "/api/alerts") == 0)
		known = alerts_keys;
	else if (strcmp(path, "/metric") == 0)
		known = metric_keys;
	else if (strcmp(path, "/api/history") == 0)
		known = history_keys;
	else if (strcmp(path, "/api/changes") == 0)
		known = changes_keys;
	else {
		(api ? http_error_json : http_error_page)(r, 404, "Not Found",
		    "no such page:", path);
		return 0;
	}
	if (http_params(query, known, &kv, &what, &value) == -1) {
		(api ? http_error_json : http_error_page)(r, 400,
		    "Bad Request", what, value);
		evhttp_clear_headers(&kv);
		return 0;
	}
	if ((began = store_read_begin(d->st)) == -1) {
		(api ? http_error_json : http_error_page)(r, 500,
		    "Internal Server Error", "the store could not be read:",
		    store_errmsg(d->st));
		evhttp_clear_headers(&kv);
		return 0;
	}
	if (strcmp(path, "/") == 0)
		http_index(d, r);
	else if (strcmp(path, "/metric") == 0)
		http_metric(d, r, &kv);
	else if (strcmp(path, "/api/history") == 0)
		later = http_api_history(d, req, r, &kv);
	else if (strcmp(path, "/api/changes") == 0)
		later = http_api_changes(d, req, r, &kv);
	else if (strcmp(path, "/api/alerts") == 0)
		http_api_alerts(d, r, &kv);
	else {
		v = http_runs_json(d);
		if (v == NULL)
			http_error_json(r, 500, "Internal Server Error",
			    "the store could not be read:",
			    store_errmsg(d->st));
		else
			http_json(r, v);
		json_decref(v);
	}
	store_read_end(d->st, began);
	evhttp_clear_headers(&kv);
	return later;
}

/*
 * A connection evhttp serves, known by its descriptor, and by its socket
 * and its peer so that the number reused by another file is not taken
 * for it: evhttp says nothing when it closes one.
 */
struct http_conn {
	int			 fd;
	dev_t			 dev;
	ino_t			 ino;
	struct sockaddr_storage	 peer;
	socklen_t		 peerlen;
	double			 since;		/* accepted, perfwatch_mono() */
	int			 asked;		/* a whole request came */
};

/* Note fd's socket and peer in c: 0, or -1 if it is not a socket. */
static int
http_conn_id(int fd, struct http_conn *c)
{
	struct stat	st;

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->peerlen = sizeof(c->peer);
	if (fstat(fd, &st) == -1 || !S_ISSOCK(st.st_mode) ||
	    getpeername(fd, (struct sockaddr *)&c->peer, &c->peerlen) == -1)
		return -1;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	return 0;
}

/* Whether c is still the connection on its descriptor. */
static int
http_conn_alive(const struct http_conn *c)
{
	struct http_conn	now;

	return http_conn_id(c->fd, &now) == 0 && now.dev == c->dev &&
	    now.ino == c->ino && now.peerlen == c->peerlen &&
	    memcmp(&now.peer, &c->peer, c->peerlen) == 0;
}

/* Forget the connections evhttp has closed since the last look. */
static void
http_conns_sweep(struct daemon *d)
{
	size_t	i = 0;

	while (i < d->http_nconns) {
		if (http_conn_alive(&d->http_conns[i]))
			i++;
		else
			d->http_conns[i] = d->http_conns[--d->http_nconns];
	}
}

/*
 * Wake up when the oldest connection still without a whole request has
 * had http_timeout to send it.
 */
static void
http_deadline_arm(struct daemon *d)
{
	struct timeval	 tv;
	double		 first = -1, left;
	size_t		 i;

	for (i = 0; i < d->http_nconns; i++)
		if (!d->http_conns[i].asked && (first < 0 ||
		    d->http_conns[i].since < first))
			first = d->http_conns[i].since;
	if (first < 0) {
		evtimer_del(d->http_deadline);
		return;
	}
	left = first + (double)config_get_duration(d->cfg, "perfwatch",
	    "http_timeout") - perfwatch_mono();
	if (left < 0)
		left = 0;
	tv.tv_sec = (time_t)left;
	tv.tv_usec = (suseconds_t)((left - (double)tv.tv_sec) * 1e6);
	evtimer_add(d->http_deadline, &tv);
}

/*
 * evhttp's timeout is of silence: a client that sends its request a
 * byte at a time, each before the timeout, would keep its connection
 * for ever.  One that has not sent a whole request within http_timeout
 * of connecting is shut down (evhttp frees it on the EOF it reads).
 */
static void
http_deadline(evutil_socket_t unused, short ev, void *arg)
{
	struct daemon		*d = arg;
	struct http_conn	*c;
	double			 now = perfwatch_mono();
	int64_t			 limit;
	size_t			 i;

	(void)unused;
	(void)ev;
	limit = config_get_duration(d->cfg, "perfwatch", "http_timeout");
	http_conns_sweep(d);
	for (i = 0; i < d->http_nconns; i++) {
		c = &d->http_conns[i];
		if (c->asked || now - c->since < (double)limit)
			continue;
		log_debug("dashboard: a connection without a whole request "
		    "after %lld s; closed", (long long)limit);
		shutdown(c->fd, SHUT_RDWR);
		c->asked = 1;	/* not again: evhttp is closing it */
	}
	http_deadline_arm(d);
}

/* The connection req came on, among those counted; NULL if none. */
static struct http_conn *
http_conn_of(struct daemon *d, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	size_t			 i;
	int			 fd;

	if (evcon == NULL)
		return NULL;
	fd = bufferevent_getfd(evhttp_connection_get_bufferevent(evcon));
	for (i = 0; i < d->http_nconns; i++)
		if (d->http_conns[i].fd == fd &&
		    http_conn_alive(&d->http_conns[i]))
			return &d->http_conns[i];
	return NULL;
}

/* A whole request came on req's connection: its deadline is met. */
static void
http_conn_asked(struct daemon *d, struct evhttp_request *req)
{
	struct http_conn	*c;

	if ((c = http_conn_of(d, req)) != NULL)
		c->asked = 1;
}

/*
 * req's reply has gone: its connection, kept alive, has http_timeout
 * from now to send the next request whole.  The deadline was of the
 * first request alone, and a client that asked once, quickly, then sent
 * its next request a byte at a time held its connection for ever; 64
 * such took the dashboard.
 */
static void
http_reply_done(struct evhttp_request *req, void *arg)
{
	struct daemon		*d = arg;
	struct http_conn	*c;

	if ((c = http_conn_of(d, req)) != NULL && c->asked) {
		c->asked = 0;
		c->since = perfwatch_mono();
		http_deadline_arm(d);
	}
}

/*
 * Count the connections accepted since the last call, evhttp having set
 * them up: each is served if fewer than HTTP_MAX_CONNS are, else shut
 * down, and evhttp frees it on the EOF it reads.  The first refused
 * after a connection was served is logged, and the count when one is
 * served again: one line per burst, not per connection.
 */
static void
http_count(evutil_socket_t unused, short ev, void *arg)
{
	struct daemon		*d = arg;
	struct http_conn	 c;
	size_t			 i;
	int			 fd;

	(void)unused;
	(void)ev;
	http_conns_sweep(d);
	for (i = 0; i < d->http_nnew; i++) {
		fd = bufferevent_getfd(d->http_new[i]);
		if (fd != -1 && http_conn_id(fd, &c) == 0) {
			if (d->http_nconns < HTTP_MAX_CONNS) {
				c.since = perfwatch_mono();
				d->http_conns[d->http_nconns++] = c;
				if (d->http_refused > 0) {
					log_info("dashboard: serving new "
					    "connections again; %zu were "
					    "closed meanwhile",
					    d->http_refused);
					d->http_refused = 0;
				}
			} else {
				if (d->http_refused++ == 0)
					log_warnx("dashboard: %d connections "
					    "open, the most served at once; "
					    "closing new ones until some end",
					    HTTP_MAX_CONNS);
				shutdown(fd, SHUT_RDWR);
			}
		}
		/* Its descriptor is closed once evhttp is done with it. */
		bufferevent_decref(d->http_new[i]);
	}
	d->http_nnew = 0;
	http_deadline_arm(d);
}

/*
 * evhttp's bufferevent for a connection it has just accepted, the one it
 * would make itself; kept (a reference) until http_count() runs, right
 * after evhttp has set the connection up and before it reads from it.
 */
static struct bufferevent *
http_new_conn(struct event_base *base, void *arg)
{
	struct daemon		*d = arg;
	struct bufferevent	*bev;

	bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL)
		fatalx("dashboard: out of memory for a connection");
	bufferevent_incref(bev);
	d->http_new = xreallocarray(d->http_new, d->http_nnew + 1,
	    sizeof(*d->http_new));
	d->http_new[d->http_nnew++] = bev;
	event_active(d->http_count, EV_TIMEOUT, 0);
	return bev;
}

/*
 * Whether a Host header's value h names this machine by an address
 * (IPv4, or IPv6 in brackets) or as localhost, with or without a port of
 * up to five digits.
 */
static int
http_host_local(const char *h)
{
	struct in6_addr	 a6;
	struct in_addr	 a4;
	const char	*name, *rest;
	char		 s[256];
	size_t		 n;
	int		 v6;

	if ((v6 = *h == '[')) {
		name = h + 1;
		if ((rest = strchr(name, ']')) == NULL)
			return 0;
		n = (size_t)(rest - name);
		rest++;
	} else {
		name = h;
		n = strcspn(h, ":");
		rest = h + n;
	}
	/* A port, if any, is digits. */
	if (*rest != '\0' && (rest[0] != ':' || rest[1] == '\0' ||
	    strspn(rest + 1, "0123456789") != strlen(rest + 1) ||
	    strlen(rest + 1) > 5))
		return 0;
	if (n == 0 || n >= sizeof(s))
		return 0;
	memcpy(s, name, n);
	s[n] = '\0';
	if (v6)
		return inet_pton(AF_INET6, s, &a6) == 1;
	return inet_pton(AF_INET, s, &a4) == 1 ||
	    strcasecmp(s, "localhost") == 0 || strcasecmp(s, "localhost.") == 0;
}

/*
 * How many Host headers req has: more than one is a request no client
 * sends (RFC 9112 3.2: answered 400), and only the first was looked at.
 * None is HTTP/1.0's way, and 400 in HTTP/1.1 (the same section), whose
 * version evhttp gives only in struct evhttp_request (http_host_missing).
 */
static int
http_host_count(struct evhttp_request *req)
{
	struct evkeyvalq	*in = evhttp_request_get_input_headers(req);
	struct evkeyval		*h;
	int			 n = 0;

	TAILQ_FOREACH(h, in, next)
		if (strcasecmp(h->key, "Host") == 0)
			n++;
	return n;
}

/* Whether req is of HTTP/1.1 or later and has no Host, which 400 answers. */
static int
http_host_missing(struct evhttp_request *req)
{
	return (req->major > 1 || (req->major == 1 && req->minor >= 1)) &&
	    http_host_count(req) == 0;
}

/*
 * Whether req may be answered for its Host.  On a loopback address only
 * an address or localhost is (http_host_local), or no Host at all
 * (HTTP/1.0): a browser that shows a page of another site, whose name
 * that site makes resolve to 127.0.0.1 (DNS rebinding), sends that name,
 * and the page must not read the dashboard through it.  On another
 * address every Host is, as the names it is reached by are not known.
 */
static int
http_host_ok(struct daemon *d, struct evhttp_request *req)
{
	struct in6_addr	 a6;
	struct in_addr	 a4;
	const char	*h;
	char		 bound[INET6_ADDRSTRLEN];
	int		 port;

	if (d->http_addr == NULL || config_listen_parse(d->http_addr, bound,
	    sizeof(bound), &port) == -1)
		return 1;
	if (inet_pton(AF_INET, bound, &a4) == 1) {
		if ((ntohl(a4.s_addr) >> 24) != 127)
			return 1;
	} else if (inet_pton(AF_INET6, bound, &a6) != 1 ||
	    !IN6_IS_ADDR_LOOPBACK(&a6))
		return 1;
	h = evhttp_find_header(evhttp_request_get_input_headers(req), "Host");
	return h == NULL || http_host_local(h);
}

/* Every request: GET and HEAD answered, other methods 405. */
static void
http_request(struct evhttp_request *req, void *arg)
{
	struct daemon		*d = arg;
	struct http_reply	 r;
	struct evkeyvalq	*out = evhttp_request_get_output_headers(req);
	enum evhttp_cmd_type	 cmd = evhttp_request_get_command(req);
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	const char		*path = uri != NULL ? evhttp_uri_get_path(uri) :
				    NULL;

	http_conn_asked(d, req);
	evhttp_request_set_on_complete_cb(req, http_reply_done, d);
	http_reply_init(&r, 200, "OK", "text/html; charset=utf-8");
	if (http_host_count(req) > 1) {
		(path != NULL && strncmp(path, "/api/", 5) == 0 ?
		    http_error_json : http_error_page)(&r, 400, "Bad Request",
		    "the request has more than one Host", NULL);
	} else if (http_host_missing(req)) {
		(path != NULL && strncmp(path, "/api/", 5) == 0 ?
		    http_error_json : http_error_page)(&r, 400, "Bad Request",
		    "an HTTP/1.1 request must have a Host", NULL);
	} else if (!http_host_ok(d, req)) {
		/* Its Host is not repeated: it is another site's name. */
		(path != NULL && strncmp(path, "/api/", 5) == 0 ?
		    http_error_json : http_error_page)(&r, 421,
		    "Misdirected Request", "this dashboard is on a loopback "
		    "address, and answers only a Host that is an address or "
		    "localhost", NULL);
	} else if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
		evhttp_add_header(out, "Allow", "GET, HEAD");
		/* Under /api/ an error is JSON, as every other there. */
		(path != NULL && strncmp(path, "/api/", 5) == 0 ?
		    http_error_json : http_error_page)(&r, 405,
		    "Method Not Allowed", "the dashboard is read-only: GET "
		    "and HEAD only", NULL);
	} else if (http_route(d, req, &r) == 1) {
		/* http_build_done() replies. */
		evbuffer_free(r.body);
		return;
	}
	http_send(req, &r);
}

/* "CONF:LINE: [perfwatch] http = VALUE" for a message, allocated. */
static char *
http_where(struct daemon *d, const char *value)
{
	char	*where, *s;

	where = daemon_key_where(d->cfg, d->conf_path, "http");
	xasprintf(&s, "%s: [perfwatch] http = %s", where, value);
	free(where);
	return s;
}

int
http_listen(struct daemon *d, char **cause)
{
	struct addrinfo	 hints, *ai = NULL;
	const char	*spec = config_get_str(d->cfg, "perfwatch", "http");
	char		 host[INET6_ADDRSTRLEN], port[8], *where;
	int		 fd = -1, on = 1, rc, pn, saved;

	d->http_fd = -1;
	if (spec == NULL)
		return 0;
	where = http_where(d, spec);
	/* The configuration checked it: this cannot fail but for a bug. */
	if (config_listen_parse(spec, host, sizeof(host), &pn) == -1) {
		xasprintf(cause, "%s: not an address and a port", where);
		free(where);
		return -1;
	}
	snprintf(port, sizeof(port), "%d", pn);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	if ((rc = getaddrinfo(host, port, &hints, &ai)) != 0) {
		xasprintf(cause, "%s: %s", where, gai_strerror(rc));
		free(where);
		return -1;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, ai->ai_protocol);
	if (fd == -1) {
		xasprintf(cause, "%s: socket: %s", where, strerror(errno));
		goto fail;
	}
	/* A restart binds at once, whatever connections are in TIME_WAIT. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1 ||
	    (ai->ai_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6,
	    IPV6_V6ONLY, &on, sizeof(on)) == -1)) {
		xasprintf(cause, "%s: setsockopt: %s", where, strerror(errno));
		goto fail;
	}
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) == -1) {
		saved = errno;
		if (saved == EACCES && pn < 1024 && geteuid() != 0)
			xasprintf(cause, "%s: bind: %s (a port under 1024 is "
			    "bound only when perfwatchd starts as root, before "
			    "it drops to its user: restart it, or take a port "
			    "from 1024)", where, strerror(saved));
		else
			xasprintf(cause, "%s: bind: %s", where,
			    strerror(saved));
		goto fail;
	}
	if (listen(fd, 64) == -1) {
		xasprintf(cause, "%s: listen: %s", where, strerror(errno));
		goto fail;
	}
	freeaddrinfo(ai);
	free(where);
	d->http_fd = fd;
	return 0;

fail:
	if (fd != -1)
		close(fd);
	freeaddrinfo(ai);
	free(where);
	return -1;
}

void
http_start(struct daemon *d)
{
	const char	*spec;

	if (d->http_fd == -1)
		return;
	spec = config_get_str(d->cfg, "perfwatch", "http");
	if ((d->http = evhttp_new(d->base)) == NULL)
		fatalx("evhttp_new");
	/* Every method reaches http_request(), to be answered 405 there. */
	evhttp_set_allowed_methods(d->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
	    EVHTTP_REQ_POST | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_timeout(d->http, (int)config_get_duration(d->cfg,
	    "perfwatch", "http_timeout"));
	evhttp_set_max_headers_size(d->http, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(d->http, HTTP_MAX_BODY);
	evhttp_set_gencb(d->http, http_request, d);
	d->http_conns = xreallocarray(NULL, HTTP_MAX_CONNS,
	    sizeof(*d->http_conns));
	d->http_nconns = 0;
	d->http_refused = 0;
	if ((d->http_count = event_new(d->base, -1, 0, http_count, d)) ==
	    NULL || (d->http_deadline = evtimer_new(d->base, http_deadline,
	    d)) == NULL)
		fatalx("event_new");
	evhttp_set_bevcb(d->http, http_new_conn, d);
	if (evhttp_accept_socket_with_handle(d->http, d->http_fd) == NULL)
		fatalx("evhttp: cannot serve %s", spec);
	/* evhttp owns the socket now, and closes it when freed. */
	d->http_fd = -1;
	free(d->http_addr);
	d->http_addr = xstrdup(spec);
	log_info("dashboard on http://%s/", spec);
}

void
http_stop(struct daemon *d)
{
	http_build_cancel(d);
	if (d->http != NULL) {
		evhttp_free(d->http);
		d->http = NULL;
	}
	/* Connections not yet counted: evhttp has freed them. */
	while (d->http_nnew > 0)
		bufferevent_decref(d->http_new[--d->http_nnew]);
	free(d->http_new);
	d->http_new = NULL;
	free(d->http_conns);
	d->http_conns = NULL;
	d->http_nconns = 0;
	if (d->http_count != NULL) {
		event_free(d->http_count);
		d->http_count = NULL;
	}
	if (d->http_deadline != NULL) {
		event_free(d->http_deadline);
		d->http_deadline = NULL;
	}
	if (d->http_fd != -1) {
		close(d->http_fd);
		d->http_fd = -1;
	}
	free(d->http_addr);
	d->http_addr = NULL;
}

void
http_reload(struct daemon *d)
{
	const char	*spec = config_get_str(d->cfg, "perfwatch", "http");
	char		*cause = NULL;

	/*
	 * evhttp's timeout of silence, for the connections to come: each
	 * has a copy of it from its accept, which this does not change.
	 * The deadline of a whole request (http_deadline) reads the new
	 * value for every connection.
	 */
	if (d->http != NULL) {
		evhttp_set_timeout(d->http, (int)config_get_duration(d->cfg,
		    "perfwatch", "http_timeout"));
		http_deadline_arm(d);
	}
	if (same_str(spec, d->http_addr))
		return;
	/* Let the old address go first: the new one may be the same port. */
	if (d->http_addr != NULL)
		log_info("dashboard: no longer on http://%s/", d->http_addr);
	http_stop(d);
	if (spec == NULL)
		return;
	if (http_listen(d, &cause) == -1) {
		log_warnx("%s; the dashboard is off until a reload or a "
		    "restart binds it", cause);
		free(cause);
		return;
	}
	http_start(d);
}
