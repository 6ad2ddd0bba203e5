/*
 * libFuzzer target: the dashboard's query parameters (daemon/http.c and
 * daemon/html.c, included to reach their statics), over an in-memory
 * store that holds a few runs of two metrics.  The rest of the daemon
 * is stood in for (fuzz_daemon.h).
 *
 * The input is a query string, as evhttp hands it over after the "?".
 * For each page that takes parameters, http_params() takes it or refuses
 * it with what and which; a query taken has only that page's names, each
 * once, with a value of 1 to HTTP_MAX_PARAM bytes of UTF-8; the metric
 * page then answers it with a status of its own and a body, and the
 * history API either answers it so (a name unknown, too many hosts) or
 * takes a metric of the store for the child that builds its answer.  The same bytes are also a Host header's value for
 * http_host_local(), the dashboard's defence against DNS rebinding: one
 * it takes is an address or localhost, and a port of digits.
 */
#include <stddef.h>
#include <stdint.h>

#include "../../daemon/html.c"
#include "../../daemon/http.c"
#include "fuzz_daemon.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char fuzz_http_runs[] =
    "run,time,workload,metric,value,unit,better,host,iteration\n"
    "r1,959817600,disk.bonnie,putc_kps,9403,K/sec,higher,ml350,1\n"
    "r1,959817600,disk.bonnie,putc_kps,9377,K/sec,higher,ml350,2\n"
    "r2,959904000,disk.bonnie,putc_kps,9120,K/sec,higher,ml350,1\n"
    "r2,959904000,sys.pipe,putc_kps,51200,K/sec,higher,ml350,1\n"
    "r3,959990400,sys.pipe,lat_us,3.5,us,lower,h\xc3\xa9te,1\n";

char *
daemon_key_where(const struct config *cfg, const char *conf_path,
    const char *key)
{
	(void)cfg;
	(void)key;
	return xstrdup(conf_path != NULL ? conf_path : "fuzz.conf");
}

/* Check that http_params() took only names of known, each once. */
static void
check_params(struct evkeyvalq *kv, const char *const *known)
{
	struct evkeyval	*e, *f;
	size_t		 i, bad;

	TAILQ_FOREACH(e, kv, next) {
		for (i = 0; known[i] != NULL; i++)
			if (strcmp(e->key, known[i]) == 0)
				break;
		if (known[i] == NULL || strlen(e->value) == 0 ||
		    strlen(e->value) > HTTP_MAX_PARAM ||
		    utf8_check(e->value, &bad) != 0)
			abort();
		for (f = TAILQ_NEXT(e, next); f != NULL; f = TAILQ_NEXT(f,
		    next))
			if (strcmp(e->key, f->key) == 0)
				abort();
	}
}

/* The metric page: it always answers in r. */
static int
fuzz_metric(struct daemon *d, struct http_reply *r, struct evkeyvalq *kv)
{
	http_metric(d, r, kv);
	return 0;
}

/*
 * The history API's part in the loop: its names checked, and either an
 * error in r or a metric of the store taken for the child to build (1).
 */
static int
fuzz_history(struct daemon *d, struct http_reply *r, struct evkeyvalq *kv)
{
	const char	*metric, *workload, *host;

	if (http_history_args(d, r, kv, &metric, &workload, &host) == -1)
		return 0;
	if (metric == NULL || *metric == '\0')
		abort();
	return 1;
}

/*
 * One page of path over query: answered with a status and a body, or
 * taken for a child to build (page returns 1) with r left as it was.
 */
static void
fuzz_page(struct daemon *d, const char *query, const char *const *known,
    int (*page)(struct daemon *, struct http_reply *, struct evkeyvalq *))
{
	struct http_reply	 r;
	struct evkeyvalq	 kv;
	const char		*what = NULL, *value = NULL;

	if (http_params(query, known, &kv, &what, &value) == -1) {
		if (what == NULL || value == NULL)
			abort();
		evhttp_clear_headers(&kv);
		return;
	}
	check_params(&kv, known);
	http_reply_init(&r, 200, "OK", "text/html; charset=utf-8");
	if (page(d, &r, &kv) == 1) {
		if (r.code != 200 || evbuffer_get_length(r.body) != 0)
			abort();
	} else if (r.code < 200 || r.code > 599 || r.reason == NULL ||
	    evbuffer_get_length(r.body) == 0)
		abort();
	evbuffer_free(r.body);
	evhttp_clear_headers(&kv);
}

/*
 * Check a Host value that http_host_local() took: "[v6]", or an IPv4
 * address or localhost, then at most ":" and 1-5 digits.
 */
static void
check_host(const char *h)
{
	struct in6_addr	 a6;
	struct in_addr	 a4;
	const char	*port;
	char		 name[256];
	size_t		 n;

	if (*h == '[') {
		port = strchr(h, ']');
		if (port == NULL)
			abort();
		n = (size_t)(port - h - 1);
		port++;
	} else {
		n = strcspn(h, ":");
		port = h + n;
	}
	if (n == 0 || n >= sizeof(name))
		abort();
	memcpy(name, *h == '[' ? h + 1 : h, n);
	name[n] = '\0';
	if (*h == '[' ? inet_pton(AF_INET6, name, &a6) != 1 :
	    inet_pton(AF_INET, name, &a4) != 1 &&
	    strcasecmp(name, "localhost") != 0 &&
	    strcasecmp(name, "localhost.") != 0)
		abort();
	if (*port != '\0' && (*port != ':' || strlen(port + 1) < 1 ||
	    strlen(port + 1) > 5 ||
	    strspn(port + 1, "0123456789") != strlen(port + 1)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const metric_keys[] = { "name", "workload",
	    "host", NULL };
	static const char *const history_keys[] = { "metric", "workload",
	    "host", NULL };
	static struct daemon	 d;
	FILE			*f;
	char			*query, *cause = NULL;

	log_init("fuzz", 1, 0);
	if (size > 4 * HTTP_MAX_PARAM)
		return 0;
	if (d.st == NULL) {
		if ((d.st = store_open(":memory:", &cause)) == NULL ||
		    (f = fmemopen((void *)fuzz_http_runs,
		    sizeof(fuzz_http_runs) - 1, "r")) == NULL ||
		    store_import(d.st, f, "runs.csv", STORE_FORMAT_CSV, 0,
		    NULL, &cause) != 0)
			abort();
		fclose(f);
	}
	query = xstrndup((const char *)data, size);
	if (http_host_local(query))
		check_host(query);
	fuzz_page(&d, query, metric_keys, fuzz_metric);
	fuzz_page(&d, query, history_keys, fuzz_history);
	free(query);
	return 0;
}
