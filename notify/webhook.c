/*
 * Webhooks: an HTTP POST of the event's JSON document.
 *
 * Every request carries
 *
 *   X-Perfwatch-Event: alert-7-confirmed-0123456789abcdef
 *   X-Perfwatch-Delivery: alert-7-confirmed-0123456789abcdef-42
 *   X-Perfwatch-Timestamp: 1765000000
 *
 * the event id (the same for every sink told of that change), the
 * delivery id (notify_delivery_id: one outbox row, the same on every
 * attempt at it) and the Unix time of this attempt.  With a secret_file,
 * the request is signed with HMAC-SHA256 under the file's contents:
 *
 *   X-Perfwatch-Signature: sha256=<64 lowercase hex digits>
 *
 * over TIMESTAMP "." DELIVERY "." BODY, the raw body as sent.  The body
 * alone was signed before, and a request captured once verified for
 * ever: anyone could post it to the receiver again.  The timestamp lets
 * the receiver refuse an old one (perfwatch(1) gives the recipe and the
 * tolerance), and the delivery id, signed too so that a replay cannot
 * pass for a new delivery, lets it drop one it has already taken (a
 * retry after its answer was lost, or a replay within the tolerance).
 * The timestamp is all digits and the delivery id has no '.', so the
 * signed string cannot be read two ways.  A retry posts the same body
 * with the same delivery id, and a fresh timestamp and signature.
 *
 * A 2xx answer delivers; 408,
 * 425, 429 and 5xx answers and transport errors are retried, and so are
 * 401 and 403: a receiver that refuses the signature refuses our secret,
 * which is ours to mend, and the alert waits for that.  So does a
 * redirect (3xx), which is not followed: the signed alert would go
 * wherever an answer points, another host perhaps, and a 301, 302 or
 * 303 would turn the POST into a GET without it.  The url is ours to
 * mend, and the answer names where the redirect points.  Any other
 * answer (a 4xx) is permanent.  The
 * status decides, once it has come: a receiver that answered 200 has
 * the alert even if the body of its answer stalls or never ends (only
 * its first WEBHOOK_ANSWER_MAX bytes are read).  A Retry-After with a
 * failure to retry (a 429 or a 503, usually), in seconds or as a date,
 * is when the receiver wants to be asked again: the row waits that long
 * if it is longer than its backoff.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "config.h"
#include "log.h"
#include "xmalloc.h"
#include "notify.h"

/* What is kept of the answer's body. */
#define WEBHOOK_ANSWER_MAX	512

struct webhook_answer {
	char	buf[WEBHOOK_ANSWER_MAX + 1];
	size_t	len;
	int	full;		/* the rest was not read */
};

/* HMAC-SHA256 of data under key, as 64 lowercase hex digits. */
void
notify_hmac_sha256_hex(const void *key, size_t keylen, const void *data,
    size_t len, char out[65])
{
	unsigned char	md[EVP_MAX_MD_SIZE];
	unsigned int	mdlen = 0, i;

	if (HMAC(EVP_sha256(), key, (int)keylen, data, len, md,
	    &mdlen) == NULL || mdlen != 32)
		fatalx("HMAC-SHA256 failed");
	for (i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[64] = '\0';
}

/*
 * The X-Perfwatch-Signature value of a request: "sha256=" and the
 * HMAC-SHA256 under key of TIMESTAMP "." DELIVERY "." BODY.
 */
char *
notify_webhook_signature(const void *key, size_t keylen, int64_t timestamp,
    const char *delivery_id, const char *body)
{
	char	*data, *out, hex[65];
	int	 n;

	assert(strchr(delivery_id, '.') == NULL);
	n = xasprintf(&data, "%lld.%s.%s", (long long)timestamp, delivery_id,
	    body);
	notify_hmac_sha256_hex(key, keylen, data, (size_t)n, hex);
	free(data);
	xasprintf(&out, "sha256=%s", hex);
	return out;
}

/*
 * The server of a webhook's url, as an answer names it: scheme, host and
 * port, with any user or password hidden (config_url_shown), and not the
 * path or the query, which often hold the receiver's token (a chat's
 * incoming webhook, an automation's hook id); they say nothing of why no
 * answer came, and the answer goes to the log and the outbox.
 */
static char *
webhook_server_shown(const char *url)
{
	char	*shown, *p;

	shown = config_url_shown(url);
	p = strstr(shown, "://");
	p = p != NULL ? p + 3 : shown;
	p[strcspn(p, "/?#")] = '\0';
	return shown;
}

/*
 * Keep the start of the answer's body, and stop the transfer once that
 * is kept: a long answer, or one that never ends, would otherwise hold
 * the delivery until its timeout, long after its status said whether
 * the receiver took the alert.
 */
static size_t
webhook_write(char *buf, size_t size, size_t nitems, void *arg)
{
	struct webhook_answer	*a = arg;
	size_t			 len = size * nitems, n = len;

	if (n > WEBHOOK_ANSWER_MAX - a->len)
		n = WEBHOOK_ANSWER_MAX - a->len;
	memcpy(a->buf + a->len, buf, n);
	a->len += n;
	if (a->len < WEBHOOK_ANSWER_MAX)
		return len;
	a->full = 1;
	return 0;
}

/*
 * Whether an HTTP status is worth another try: a redirect is, as the
 * url it calls for is ours to set.
 */
static int
webhook_temporary(long code)
{
	return (code >= 300 && code < 400) || code == 401 || code == 403 ||
	    code == 408 || code == 425 || code == 429 || code >= 500;
}

/*
 * The seconds the answer's Retry-After asks to wait (curl reads both of
 * its forms, a date being counted from now), at most
 * NOTIFY_RETRY_AFTER_MAX; 0 when there is none.
 */
static int64_t
webhook_retry_after(CURL *c)
{
	curl_off_t	wait = 0;

#if LIBCURL_VERSION_NUM >= 0x074200
	if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &wait) != CURLE_OK ||
	    wait < 0)
		wait = 0;
#else
	(void)c;
#endif
	return wait < NOTIFY_RETRY_AFTER_MAX ? (int64_t)wait :
	    NOTIFY_RETRY_AFTER_MAX;
}

/*
 * POST body (the event's JSON) to the sink's URL as delivery delivery_id
 * of event event_id, stamped with the time and signed when the sink has
 * a secret.  res gets the outcome and the answer.
 */
void
notify_webhook(const struct notify_sink *sink, const char *body,
    const char *event_id, const char *delivery_id, struct notify_result *res)
{
	struct webhook_answer	 ans;
	struct curl_slist	*hdrs = NULL;
	CURL			*c;
	CURLcode		 rc;
	char			 errbuf[CURL_ERROR_SIZE], *h, *clean, *sig;
	const char		*why;
	char			*secret = NULL, *cause = NULL, *id, *url;
	size_t			 slen = 0;
	char			*loc = NULL;
	long			 code = 0;
	int64_t			 now;

	if (sink->url == NULL) {
		notify_answer(res, NOTIFY_TEMPFAIL, "[sink \"%s\"]: no url",
		    sink->name);
		return;
	}
	if (sink->secret_file != NULL && notify_secret_read(sink->secret_file,
	    &secret, &slen, &cause) == -1) {
		notify_answer(res, NOTIFY_TEMPFAIL, "%s", cause);
		free(cause);
		return;
	}
	notify_curl_init();
	if ((c = curl_easy_init()) == NULL)
		fatalx("curl_easy_init failed");
	memset(&ans, 0, sizeof(ans));
	errbuf[0] = '\0';
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json; "
	    "charset=utf-8");
	hdrs = curl_slist_append(hdrs, "User-Agent: perfwatch/"
	    PERFWATCH_VERSION);
	/* No "100 Continue" round trip for a small body. */
	hdrs = curl_slist_append(hdrs, "Expect:");
	id = notify_clean(event_id, 200);
	xasprintf(&h, "X-Perfwatch-Event: %s", id);
	hdrs = curl_slist_append(hdrs, h);
	free(h);
	free(id);
	xasprintf(&h, "X-Perfwatch-Delivery: %s", delivery_id);
	hdrs = curl_slist_append(hdrs, h);
	free(h);
	/* The receiver's clock is the real one: not opts->now. */
	now = (int64_t)time(NULL);
	xasprintf(&h, "X-Perfwatch-Timestamp: %lld", (long long)now);
	hdrs = curl_slist_append(hdrs, h);
	free(h);
	if (secret != NULL) {
		sig = notify_webhook_signature(secret, slen, now, delivery_id,
		    body);
		xasprintf(&h, "X-Perfwatch-Signature: %s", sig);
		hdrs = curl_slist_append(hdrs, h);
		free(h);
		free(sig);
		explicit_bzero(secret, slen);
		free(secret);
	}
	curl_easy_setopt(c, CURLOPT_URL, sink->url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(c, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)strlen(body));
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, webhook_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &ans);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, notify_timeout(sink));

	rc = curl_easy_perform(c);
	ans.buf[ans.len] = '\0';
	clean = notify_clean(ans.buf, WEBHOOK_ANSWER_MAX);
	why = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc);
	if (curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK)
		code = 0;
	/*
	 * A status (not an interim 1xx) is the receiver's answer, whatever
	 * becomes of the body after it: a 2xx has taken the alert, and a
	 * retry would give it to the receiver again.  No status is a
	 * failure to retry.
	 */
	if (code < 200) {
		url = webhook_server_shown(sink->url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: %s", url, why);
		free(url);
	} else {
		if (rc != CURLE_OK && !ans.full) {
			xasprintf(&h, "%s%s(the rest of the answer not read: "
			    "%s)", clean, *clean != '\0' ? " " : "", why);
			free(clean);
			clean = notify_clean(h, 2 * WEBHOOK_ANSWER_MAX);
			free(h);
		}
		/*
		 * A redirect is not followed (a POST's body would be lost
		 * on a 301 or 302, or go where nobody checked); say where
		 * it points, which is what the url should now say, or that
		 * it points nowhere.
		 */
		if (code >= 300 && code < 400 && curl_easy_getinfo(c,
		    CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc != NULL) {
			h = config_url_shown(loc);
			url = notify_clean(h, WEBHOOK_ANSWER_MAX);
			free(h);
			free(clean);
			xasprintf(&clean, "redirected to %s, which is not "
			    "followed: set [sink \"%s\"] url to it if it is "
			    "right", url, sink->name);
			free(url);
		} else if (code >= 300 && code < 400) {
			h = clean;
			xasprintf(&clean, "a redirect with no Location, not "
			    "followed%s%s", *h != '\0' ? ": " : "", h);
			free(h);
		}
		notify_answer(res, code >= 200 && code < 300 ?
		    NOTIFY_DELIVERED : webhook_temporary(code) ?
		    NOTIFY_TEMPFAIL : NOTIFY_PERMFAIL, "HTTP %ld%s%s", code,
		    *clean != '\0' ? ": " : "", clean);
		if (res->status == NOTIFY_TEMPFAIL)
			res->retry_after = webhook_retry_after(c);
	}
	free(clean);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(c);
}
