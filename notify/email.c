/*
 * Email: SMTP through libcurl, or the local sendmail.
 *
 * SMTP: smtp:// switches to TLS with STARTTLS as the sink's starttls says
 * (required by default: a server that does not offer it gets nothing),
 * smtps:// is TLS from the start; certificates are verified.  The login,
 * if any, comes from the credentials file ("user:password"), which must
 * not be readable by others.  A login is never made in clear unless
 * starttls is none: with "optional", one who removes STARTTLS from the
 * server's EHLO answer on the way would be handed the password, so a
 * sink with credentials requires TLS then, and says why when the server
 * offers none.  The server's replies are kept as they come
 * (libcurl hands them to the header callback), so that a refusal is
 * reported in the server's own words.  The message goes to the
 * recipients the server takes, the others' refusals said beside the
 * delivery; when it takes none, a 5xx is permanent, anything else
 * (4xx, no connection, a timeout) is worth another try, and so is a 5xx
 * about the login (530, 534, 535, 538): a wrong password is ours to
 * mend, and the alert waits for that rather than being lost.
 *
 * Each recipient's RCPT reply is kept apart: libcurl says through its
 * debug callback when it sends a RCPT TO, and does not pipeline SMTP,
 * so the next reply is that recipient's.  The recipients that said
 * "later" (4xx, greylisting) while the others took the message or
 * refused it for good are handed back in the result, so that the flush
 * tries again for them, and for them only; so are those not refused for
 * good when the server then puts the whole message off (a 4xx after
 * DATA).
 *
 * sendmail: "sendmail -t -oi" as cron and smartd run it, the message on
 * its standard input; its exit status says whether it took the message
 * (sysexits: EX_TEMPFAIL and friends are temporary; EX_NOUSER,
 * EX_DATAERR, EX_CONFIG ... are not).  It cannot tell one recipient from
 * another: a row with recipients of its own (the rest of an SMTP
 * delivery, the sink since switched to sendmail) gets them as arguments
 * instead of -t.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "config.h"
#include "log.h"
#include "xmalloc.h"
#include "notify.h"

/* Replies kept from one SMTP session, and the longest kept of each. */
#define SMTP_REPLIES	32
#define SMTP_REPLY_MAX	512
/* A reply's lines joined: what a multi-line reply keeps, at most. */
#define SMTP_JOINED_MAX	(4 * SMTP_REPLY_MAX)
#define SMTP_CUT	" / ..."
/*
 * How often (ms) sendmail is looked at once the message is written and
 * its output is quiet.
 */
#define SENDMAIL_EXIT_POLL	50
#define SENDMAIL_KILL_WAIT	2.0	/* s, for a SIGKILLed sendmail to end */

/* What is kept of sendmail's own output. */
#define SENDMAIL_OUTPUT	2048

/* The message as libcurl reads it. */
struct smtp_upload {
	const char		*data;
	size_t			 len;
	size_t			 off;
	struct smtp_session	*sess;
};

/* One complete server reply: its code and its lines joined. */
struct smtp_reply {
	int	 code;
	char	*text;
};

/* The replies of a session, and the reply being read. */
struct smtp_session {
	struct smtp_reply	 r[SMTP_REPLIES];
	size_t			 n;
	char			*cur;

	/* Each recipient's RCPT reply, in the order they were sent. */
	struct smtp_reply	*rcpt;		/* code 0: none seen */
	size_t			 nrcpt;
	size_t			 rcpt_sent;	/* RCPT TO commands sent */
	int			 rcpt_wait;	/* the next reply is one */

	int			 login;		/* the sink has a login */
	int			 auth_sent;	/* an AUTH command went */
	int			 no_auth;	/* the message was held */
};

/* Feed libcurl the next piece of the message. */
static size_t
smtp_read(char *buf, size_t size, size_t nitems, void *arg)
{
	struct smtp_upload	*u = arg;
	size_t			 room = size * nitems, n;

	/*
	 * A sink with a login, and a server that offered none (its EHLO
	 * named no AUTH): libcurl goes on without logging in, and the
	 * message would go out as the server takes one from anybody.  It
	 * is held here, before its first byte, and the answer says so.
	 */
	if (u->sess->login && !u->sess->auth_sent) {
		u->sess->no_auth = 1;
		return CURL_READFUNC_ABORT;
	}
	n = u->len - u->off;
	if (n > room)
		n = room;
	memcpy(buf, u->data + u->off, n);
	u->off += n;
	return n;
}

/* Whether s ends with end. */
static int
notify_ends_with(const char *s, const char *end)
{
	size_t	n = strlen(s), k = strlen(end);

	return n >= k && strcmp(s + n - k, end) == 0;
}

/* Append a reply line (without its CRLF) to the reply being read. */
static void
smtp_line(struct smtp_session *s, const char *line, size_t len)
{
	char	*piece, *t;
	int	 code;

	piece = xstrndup(line, len);
	t = notify_clean(piece, SMTP_REPLY_MAX);
	free(piece);
	if (s->cur == NULL)
		s->cur = t;
	else if (notify_ends_with(s->cur, SMTP_CUT) ||
	    strlen(s->cur) + 3 + strlen(t) > SMTP_JOINED_MAX) {
		/*
		 * A server that sends continuation lines without end: the
		 * reply keeps what it had, marked once as cut, rather than
		 * growing (and being copied whole at each line) until the
		 * timeout.
		 */
		free(t);
		if (!notify_ends_with(s->cur, SMTP_CUT)) {
			xasprintf(&piece, "%s" SMTP_CUT, s->cur);
			free(s->cur);
			s->cur = piece;
		}
	} else {
		xasprintf(&piece, "%s / %s", s->cur, t);
		free(s->cur);
		free(t);
		s->cur = piece;
	}
	/*
	 * "250-..." goes on; "250 ..." or a bare "250" ends the reply.  Three
	 * digits, as libcurl wants them for the end of a reply: a line such
	 * as "22S ..." ends none (it ended one with the code 255).
	 */
	if (len >= 3 && line[0] >= '1' && line[0] <= '5' &&
	    line[1] >= '0' && line[1] <= '9' && line[2] >= '0' &&
	    line[2] <= '9' && (len == 3 || line[3] == ' ')) {
		code = (line[0] - '0') * 100 + (line[1] - '0') * 10 +
		    (line[2] - '0');
		if (s->n == SMTP_REPLIES) {
			free(s->r[0].text);
			memmove(&s->r[0], &s->r[1],
			    (SMTP_REPLIES - 1) * sizeof(s->r[0]));
			s->n--;
		}
		if (s->rcpt_wait && s->rcpt_sent <= s->nrcpt) {
			s->rcpt[s->rcpt_sent - 1].code = code;
			s->rcpt[s->rcpt_sent - 1].text = xstrdup(s->cur);
		}
		s->rcpt_wait = 0;
		s->r[s->n].code = code;
		s->r[s->n].text = s->cur;
		s->n++;
		s->cur = NULL;
	}
}

/*
 * libcurl's debug callback: the commands it sends.  A RCPT TO is
 * answered by the next reply, which smtp_line gives to the recipient of
 * that place in the list.  Of an AUTH line, only that it went (it holds
 * the password); nothing else is kept.
 */
static int
smtp_debug(CURL *c, curl_infotype type, char *data, size_t size, void *arg)
{
	struct smtp_session	*s = arg;

	(void)c;
	if (type == CURLINFO_HEADER_OUT && size >= 8 &&
	    strncasecmp(data, "RCPT TO:", 8) == 0) {
		s->rcpt_sent++;
		s->rcpt_wait = 1;
	}
	if (type == CURLINFO_HEADER_OUT && size >= 5 &&
	    strncasecmp(data, "AUTH ", 5) == 0)
		s->auth_sent = 1;
	return 0;
}

/* Append text to *all (NULL: none yet), after "; ". */
static void
smtp_join(char **all, const char *text)
{
	char	*tmp;

	if (*all == NULL) {
		*all = xstrdup(text);
		return;
	}
	xasprintf(&tmp, "%s; %s", *all, text);
	free(*all);
	*all = tmp;
}

/* How many recipients had a RCPT reply from lo to hi. */
static size_t
smtp_rcpt_count(const struct smtp_session *s, int lo, int hi)
{
	size_t	i, n = 0;

	for (i = 0; i < s->nrcpt; i++)
		if (s->rcpt[i].code >= lo && s->rcpt[i].code <= hi)
			n++;
	return n;
}

/*
 * The RCPT replies from lo to hi joined with "; ", or NULL if none.  Only
 * the recipients' replies: a 502 to EHLO (libcurl then greets with HELO)
 * or a 454 to an optional STARTTLS refused nobody.
 */
static char *
smtp_rcpt_texts(const struct smtp_session *s, int lo, int hi)
{
	char	*all = NULL;
	size_t	 i;

	for (i = 0; i < s->nrcpt; i++)
		if (s->rcpt[i].code >= lo && s->rcpt[i].code <= hi)
			smtp_join(&all, s->rcpt[i].text);
	return all;
}

/*
 * The recipients (of specs) whose RCPT reply was a 4xx, and their
 * replies joined with "; ", into res.
 */
static void
smtp_rcpt_later(const struct smtp_session *s, char *const *specs,
    struct notify_result *res)
{
	size_t	 i, n = 0;

	res->retry = xcalloc(s->nrcpt + 1, sizeof(*res->retry));
	for (i = 0; i < s->nrcpt; i++) {
		if (s->rcpt[i].code < 400 || s->rcpt[i].code > 499)
			continue;
		res->retry[n++] = xstrdup(specs[i]);
		smtp_join(&res->retry_answer, s->rcpt[i].text);
	}
}

/*
 * The recipients (of specs) not refused for good at RCPT (a 2xx, a 4xx,
 * or no reply seen) into res, for a message the server then put off
 * (a 4xx after DATA): a recipient refused for good is not asked again.
 * Returns the refusals joined with "; ", or NULL when there were none
 * (res is then left alone: the row is retried as it is).
 */
static char *
smtp_rcpt_kept(const struct smtp_session *s, char *const *specs,
    struct notify_result *res)
{
	size_t	 i, n = 0;

	if (smtp_rcpt_count(s, 500, 599) == 0 ||
	    smtp_rcpt_count(s, 500, 599) == s->nrcpt)
		return NULL;
	res->retry = xcalloc(s->nrcpt + 1, sizeof(*res->retry));
	for (i = 0; i < s->nrcpt; i++)
		if (s->rcpt[i].code < 500 || s->rcpt[i].code > 599)
			res->retry[n++] = xstrdup(specs[i]);
	res->retry_answer = smtp_rcpt_texts(s, 500, 599);
	return xstrdup(res->retry_answer);
}

/*
 * The RCPT replies of every recipient joined with "; ", when each was
 * refused (a 4xx or a 5xx) and there were several; else NULL.  The
 * server's last reply, which is what libcurl reports then, names only
 * the last of them.
 */
static char *
smtp_rcpt_all_refused(const struct smtp_session *s)
{
	if (s->nrcpt < 2 || smtp_rcpt_count(s, 400, 599) != s->nrcpt)
		return NULL;
	return smtp_rcpt_texts(s, 400, 599);
}

/* libcurl's header callback: for SMTP, each line the server sends. */
static size_t
smtp_header(char *buf, size_t size, size_t nitems, void *arg)
{
	size_t	len = size * nitems, n = len;

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	smtp_line(arg, buf, n);
	return len;
}

/* The text of the last reply with code, or NULL. */
static const char *
smtp_reply_text(const struct smtp_session *s, int code)
{
	size_t	i;

	for (i = s->n; i-- > 0;)
		if (s->r[i].code == code)
			return s->r[i].text;
	return NULL;
}

/*
 * Whether a 5xx refuses the login (RFC 4954: 530 authentication required,
 * 534 mechanism too weak, 535 credentials invalid, 538 encryption needed
 * for it), which a fixed credentials file mends.
 */
static int
smtp_login_refused(long code)
{
	return code == 530 || code == 534 || code == 535 || code == 538;
}

static void
smtp_session_clear(struct smtp_session *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		free(s->r[i].text);
	for (i = 0; i < s->nrcpt; i++)
		free(s->rcpt[i].text);
	free(s->rcpt);
	free(s->cur);
	memset(s, 0, sizeof(*s));
}

/* The envelope sender: the address of the messages' From. */
static char *
smtp_mail_from(const struct notify_sink *sink, const char *hostname)
{
	char	*from, *spec, *out;

	from = notify_from(sink, hostname);
	spec = notify_addr_spec(from);
	xasprintf(&out, "<%s>", spec);
	free(spec);
	free(from);
	return out;
}

/*
 * Whether an SMTP URL names the greeting (EHLO) itself, as its path: then
 * this machine's name is not needed for it.
 */
int
notify_smtp_url_greets(const char *url)
{
	const char	*p, *slash;

	if (url == NULL || (p = strstr(url, "://")) == NULL)
		return 0;
	slash = strchr(p + 3, '/');
	return slash != NULL && slash[1] != '\0';
}

/*
 * Whether an SMTP URL carries a user (user[:password]@host), which
 * libcurl logs in with as it would with a credentials file's.
 */
static int
smtp_url_has_user(const char *url)
{
	const char	*p;

	if (url == NULL || (p = strstr(url, "://")) == NULL)
		return 0;
	p += 3;
	return memchr(p, '@', strcspn(p, "/?#")) != NULL;
}

/*
 * The URL libcurl is given: the sink's, with host as its path when it has
 * none and host is fully qualified.  libcurl greets the server (EHLO)
 * with the URL's path, or with the short host name when there is none,
 * which a server that wants a domain there refuses as it refuses one
 * after MAIL FROM; a path the sink gives is kept.
 */
static char *
smtp_url_greeting(const char *url, const char *host)
{
	const char	*p, *slash;
	char		*out;
	size_t		 len;

	if (host == NULL || !notify_host_qualified(host) ||
	    (p = strstr(url, "://")) == NULL || notify_smtp_url_greets(url))
		return xstrdup(url);
	slash = strchr(p + 3, '/');
	len = slash != NULL ? (size_t)(slash - url) : strlen(url);
	xasprintf(&out, "%.*s/%s", (int)len, url, host);
	return out;
}

/* Read the credentials file into user and password. */
static int
smtp_credentials(const char *path, char **user, char **password,
    char **cause)
{
	char	*secret, *colon;
	size_t	 len;

	if (notify_secret_read(path, &secret, &len, cause) == -1)
		return -1;
	if ((colon = memchr(secret, ':', len)) == NULL || colon == secret) {
		xasprintf(cause, "%s: expected user:password on one line",
		    path);
		explicit_bzero(secret, len);
		free(secret);
		return -1;
	}
	*user = xstrndup(secret, (size_t)(colon - secret));
	*password = xstrdup(colon + 1);
	explicit_bzero(secret, len);
	free(secret);
	return 0;
}

/*
 * Let c's connection, if libcurl keeps one, send QUIT when the handle is
 * cleaned up without waiting for its answer.  libcurl sends QUIT then
 * and waits for the reply for the server response timeout anew, the
 * whole transfer's limit no longer counting: a server silent after the
 * message held a delivery twice the sink's timeout.  The message's fate
 * is the reply to its final dot, already in; the reading side is shut,
 * so the wait for 221 ends at once and the connection is closed.
 */
static void
smtp_quit_nowait(CURL *c)
{
#if LIBCURL_VERSION_NUM >= 0x072d00
	curl_socket_t	fd = CURL_SOCKET_BAD;

	if (curl_easy_getinfo(c, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK &&
	    fd != CURL_SOCKET_BAD)
		(void)shutdown(fd, SHUT_RD);
#else
	long	fd = -1;

	if (curl_easy_getinfo(c, CURLINFO_LASTSOCKET, &fd) == CURLE_OK &&
	    fd != -1)
		(void)shutdown((int)fd, SHUT_RD);
#endif
}

/* Whether c's transfer got as far as a TCP connection. */
static int
smtp_connected(CURL *c)
{
#if LIBCURL_VERSION_NUM >= 0x073d00
	curl_off_t	us = 0;

	return curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &us) ==
	    CURLE_OK && us > 0;
#else
	double		s = 0;

	return curl_easy_getinfo(c, CURLINFO_CONNECT_TIME, &s) ==
	    CURLE_OK && s > 0;
#endif
}

/* Make libcurl ready for use (email and webhooks); once per process. */
void
notify_curl_init(void)
{
	static int	done;

	if (!done && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		fatalx("curl_global_init failed");
	done = 1;
}

/*
 * Send message (lines ending in "\n") over SMTP to rcpt (addr-specs),
 * or with rcpt NULL to the sink's recipients.  res gets the outcome, the
 * server's words, and the recipients to try again on their own.
 */
void
notify_smtp(const struct notify_sink *sink, const char *message,
    char *const *rcpt_list, const struct notify_opts *opts,
    struct notify_result *res)
{
	struct smtp_upload	 up;
	struct smtp_session	 sess;
	struct curl_slist	*rcpt = NULL;
	CURL			*c;
	CURLcode		 rc;
	char			 errbuf[CURL_ERROR_SIZE];
	char			*crlf, *from, *spec, *tmp, *user = NULL;
	char			*password = NULL, *cause = NULL, *refused, *url;
	char			**specs;
	const char		*text;
	long			 code = 0;
	size_t			 i, n;

	memset(&sess, 0, sizeof(sess));
	if (sink->smtp_url == NULL) {
		notify_answer(res, NOTIFY_TEMPFAIL,
		    "[sink \"%s\"]: no smtp_url", sink->name);
		return;
	}
	if (sink->credentials != NULL && smtp_credentials(sink->credentials,
	    &user, &password, &cause) == -1) {
		notify_answer(res, NOTIFY_TEMPFAIL, "%s", cause);
		free(cause);
		return;
	}
	notify_curl_init();
	if ((c = curl_easy_init()) == NULL)
		fatalx("curl_easy_init failed");
	crlf = notify_crlf(message);
	up.data = crlf;
	up.len = strlen(crlf);
	up.off = 0;
	up.sess = &sess;
	sess.login = user != NULL || smtp_url_has_user(sink->smtp_url);
	from = smtp_mail_from(sink, opts->hostname);
	if (rcpt_list == NULL)
		rcpt_list = sink->to;
	for (n = 0; rcpt_list != NULL && rcpt_list[n] != NULL; n++)
		;
	specs = xcalloc(n + 1, sizeof(*specs));
	sess.rcpt = xcalloc(n + 1, sizeof(*sess.rcpt));
	sess.nrcpt = n;
	for (i = 0; i < n; i++) {
		spec = notify_addr_spec(rcpt_list[i]);
		xasprintf(&tmp, "<%s>", spec);
		rcpt = curl_slist_append(rcpt, tmp);
		free(tmp);
		specs[i] = spec;
	}
	errbuf[0] = '\0';
	url = smtp_url_greeting(sink->smtp_url, opts->hostname);
	curl_easy_setopt(c, CURLOPT_URL, url);
	free(url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
	curl_easy_setopt(c, CURLOPT_PROTOCOLS,
	    (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	/*
	 * One address the server refuses (someone who left) must not keep
	 * every alert from the others: they get it, and the refusal is said.
	 * (curl 7.69 spelt the option with three Ls; 8.2 mended the name.)
	 */
#if LIBCURL_VERSION_NUM >= 0x080200
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT_ALLOWFAILS, 1L);
#elif LIBCURL_VERSION_NUM >= 0x074500
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
#endif
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, smtp_read);
	curl_easy_setopt(c, CURLOPT_READDATA, &up);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)up.len);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, smtp_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &sess);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, smtp_debug);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, &sess);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, notify_timeout(sink));
	/*
	 * curl waits for the answer to the message's final dot with this
	 * timeout alone (two minutes by default), not with the one above:
	 * a server stuck after DATA held the flush that long.
	 */
	curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT,
	    notify_timeout(sink));
	switch (sink->starttls) {
	case NOTIFY_TLS_REQUIRED:
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
		break;
	case NOTIFY_TLS_OPTIONAL:
		/*
		 * The password goes over TLS or not at all, from the
		 * credentials file or from the URL itself.
		 */
		curl_easy_setopt(c, CURLOPT_USE_SSL, user != NULL ||
		    smtp_url_has_user(sink->smtp_url) ?
		    (long)CURLUSESSL_ALL : (long)CURLUSESSL_TRY);
		break;
	case NOTIFY_TLS_NONE:
		curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_NONE);
		break;
	}
	if (user != NULL) {
		curl_easy_setopt(c, CURLOPT_USERNAME, user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, password);
	}

	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (sess.no_auth) {
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: the server offers no "
		    "AUTH, and [sink \"%s\"] has a login (%s): not sent "
		    "without it", url, sink->name, user != NULL ?
		    "credentials" : "a user in smtp_url");
		free(url);
	} else if (rc == CURLE_OK) {
		text = smtp_reply_text(&sess, 250);
		refused = smtp_rcpt_texts(&sess, 400, 599);
		notify_answer(res, NOTIFY_DELIVERED, "%s%s%s", text != NULL ?
		    text : "accepted", refused != NULL ? "; refused: " : "",
		    refused != NULL ? refused : "");
		if (refused != NULL)
			log_warnx("[sink \"%s\"]: the message went to the "
			    "other recipients; refused: %s", sink->name,
			    refused);
		free(refused);
		if (smtp_rcpt_count(&sess, 400, 499) > 0)
			smtp_rcpt_later(&sess, specs, res);
	} else if (smtp_rcpt_count(&sess, 200, 299) == 0 &&
	    smtp_rcpt_count(&sess, 400, 499) > 0 &&
	    smtp_rcpt_count(&sess, 500, 599) > 0 &&
	    smtp_rcpt_count(&sess, 400, 599) == n) {
		/*
		 * Every recipient refused it, some for good, some for now:
		 * those are tried again, whichever reply came last.
		 */
		refused = smtp_rcpt_texts(&sess, 400, 599);
		notify_answer(res, NOTIFY_TEMPFAIL, "refused: %s", refused);
		log_warnx("[sink \"%s\"]: refused: %s", sink->name, refused);
		free(refused);
		smtp_rcpt_later(&sess, specs, res);
	} else if (code >= 400 && code < 500 &&
	    (text = smtp_reply_text(&sess, (int)code)) != NULL &&
	    (refused = smtp_rcpt_kept(&sess, specs, res)) != NULL) {
		/*
		 * The message put off (a 4xx after DATA) once some recipients
		 * were refused for good: it is tried again for the others.
		 */
		notify_answer(res, NOTIFY_TEMPFAIL, "%s; refused for good, not "
		    "tried again: %s", text, refused);
		log_warnx("[sink \"%s\"]: refused for good, not tried again: "
		    "%s", sink->name, refused);
		free(refused);
	} else if (code >= 400 && code < 600 &&
	    (text = smtp_reply_text(&sess, (int)code)) != NULL) {
		/*
		 * The server said no: its words, permanent if a 5xx.  When
		 * it refused every recipient alike (all for good, or all for
		 * now), each refusal is said: the last alone named one
		 * address and hid the others'.
		 */
		refused = smtp_rcpt_all_refused(&sess);
		notify_answer(res, code >= 500 && !smtp_login_refused(code) ?
		    NOTIFY_PERMFAIL : NOTIFY_TEMPFAIL, "%s",
		    refused != NULL ? refused : text);
		free(refused);
	} else if (rc == CURLE_OPERATION_TIMEDOUT && sess.n == 0 &&
	    sess.cur == NULL && smtp_connected(c)) {
		/*
		 * libcurl's words ("Operation timed out after 3001
		 * milliseconds with 0 bytes received") do not say that the
		 * server took the connection and then said nothing at all.
		 */
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: connected, but the "
		    "server sent no greeting (220) within the timeout, %ld s",
		    url, notify_timeout(sink));
		free(url);
	} else if (rc == CURLE_OPERATION_TIMEDOUT && sess.n > 0 &&
	    sess.cur == NULL) {
		/*
		 * Nor that it answered, then not enough: "0 bytes received"
		 * of a server that had greeted.  The timeout is of the whole
		 * exchange (CURLOPT_TIMEOUT) as well as of each answer: a
		 * server that went silent, or one too slow, ends here.
		 */
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: the exchange did not "
		    "end within the timeout, %ld s; the server's last reply: "
		    "%s", url, notify_timeout(sink), sess.r[sess.n - 1].text);
		free(url);
	} else if (rc == CURLE_USE_SSL_FAILED &&
	    sink->starttls == NOTIFY_TLS_OPTIONAL) {
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: the server offers no "
		    "STARTTLS, and [sink \"%s\"] does not send its "
		    "credentials in clear (starttls = none would)", url,
		    sink->name);
		free(url);
	} else if (rc == CURLE_USE_SSL_FAILED) {
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: the server offers no "
		    "STARTTLS and [sink \"%s\"] starttls is required", url,
		    sink->name);
		free(url);
	} else {
		url = config_url_shown(sink->smtp_url);
		notify_answer(res, NOTIFY_TEMPFAIL, "%s: %s", url,
		    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc));
		free(url);
	}

	smtp_quit_nowait(c);
	curl_easy_cleanup(c);
	curl_slist_free_all(rcpt);
	smtp_session_clear(&sess);
	for (i = 0; i < n; i++)
		free(specs[i]);
	free(specs);
	free(from);
	free(crlf);
	free(user);
	if (password != NULL) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
}

/* Whether a sendmail exit status means "try again later". */
static int
sendmail_temporary(int status)
{
	switch (status) {
	case 64:	/* EX_USAGE */
	case 65:	/* EX_DATAERR */
	case 66:	/* EX_NOINPUT */
	case 67:	/* EX_NOUSER */
	case 68:	/* EX_NOHOST */
	case 77:	/* EX_NOPERM */
	case 78:	/* EX_CONFIG */
		return 0;
	}
	return 1;
}

/* Milliseconds left until deadline (a CLOCK_MONOTONIC time), at least 0. */
static int
sendmail_left(const struct timespec *deadline)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	    (deadline->tv_nsec - now.tv_nsec) / 1000000;
	if (ms < 0)
		return 0;
	return ms > 60000 ? 60000 : (int)ms;
}

/* A CLOCK_MONOTONIC time as perfwatch_mono() gives it, in seconds. */
static double
sendmail_mono(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

/*
 * Hand message to "sendmail_path -t -oi": the recipients are those of
 * its To header; or, with rcpt, to "sendmail_path -oi -- rcpt...".  The
 * message is written and sendmail's output read at the same time, so
 * neither side can block the other.  Once the message is written, the
 * output is read until its end or until sendmail has exited: a child it
 * leaves behind (a delivery in the background, as exim's -odb does) may
 * hold the pipe long after, and is doing the work, not failing it.
 * sendmail runs in a process group of its own; if it has not exited by
 * the timeout, that group is killed.
 */
void
notify_sendmail(const struct notify_sink *sink, const char *message,
    char *const *rcpt, struct notify_result *res)
{
	struct sigaction	 ign, oldpipe;
	struct timespec		 deadline;
	struct pollfd		 pfd[2];
	const char		*path;
	char			 out[SENDMAIL_OUTPUT + 1], buf[512], *clean;
	size_t			 len = strlen(message), off = 0, olen = 0;
	ssize_t			 n;
	pid_t			 pid;
	int			 in[2], outp[2], status = 0, nfd, timedout = 0;
	int			 wfd, rfd, reaped, werr = 0, ms, nready;
	pid_t			 r;
	char			**argv;
	size_t			 nargv = 0, i;

	path = sink->sendmail_path != NULL ? sink->sendmail_path :
	    "/usr/sbin/sendmail";
	/* Made before the fork: the child only execs. */
	for (i = 0; rcpt != NULL && rcpt[i] != NULL; i++)
		;
	argv = xcalloc(i + 5, sizeof(*argv));
	argv[nargv++] = (char *)path;
	if (rcpt == NULL)
		argv[nargv++] = "-t";
	argv[nargv++] = "-oi";
	if (rcpt != NULL) {
		argv[nargv++] = "--";
		for (i = 0; rcpt[i] != NULL; i++)
			argv[nargv++] = rcpt[i];
	}
	argv[nargv] = NULL;
	if (pipe2(in, O_CLOEXEC) == -1) {
		notify_answer(res, NOTIFY_TEMPFAIL, "pipe: %s",
		    strerror(errno));
		free(argv);
		return;
	}
	if (pipe2(outp, O_CLOEXEC) == -1) {
		notify_answer(res, NOTIFY_TEMPFAIL, "pipe: %s",
		    strerror(errno));
		close(in[0]);
		close(in[1]);
		free(argv);
		return;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		notify_answer(res, NOTIFY_TEMPFAIL, "fork: %s",
		    strerror(errno));
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		free(argv);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (dup2(in[0], STDIN_FILENO) == -1 ||
		    dup2(outp[1], STDOUT_FILENO) == -1 ||
		    dup2(outp[1], STDERR_FILENO) == -1)
			_exit(71);
		signal(SIGPIPE, SIG_DFL);
		execv(path, argv);
		n = snprintf(buf, sizeof(buf), "cannot run %s: %s\n", path,
		    strerror(errno));
		if (n > 0 && write(STDERR_FILENO, buf, (size_t)n) == -1)
			_exit(127);
		_exit(127);
	}
	/* Both sides set the group, so neither races the other. */
	setpgid(pid, pid);
	free(argv);
	close(in[0]);
	close(outp[1]);
	wfd = in[1];
	rfd = outp[0];
	fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK);

	/* sendmail may exit before reading: no SIGPIPE, an EPIPE. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &oldpipe);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += notify_timeout(sink);
	reaped = 0;
	while (wfd != -1 || rfd != -1) {
		nfd = 0;
		if (wfd != -1) {
			pfd[nfd].fd = wfd;
			pfd[nfd++].events = POLLOUT;
		}
		if (rfd != -1) {
			pfd[nfd].fd = rfd;
			pfd[nfd++].events = POLLIN;
		}
		if (sendmail_left(&deadline) == 0) {
			timedout = 1;
			break;
		}
		ms = sendmail_left(&deadline);
		if (wfd == -1 && ms > SENDMAIL_EXIT_POLL)
			ms = SENDMAIL_EXIT_POLL;
		if ((nready = poll(pfd, (nfds_t)nfd, ms)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (nready == 0 && wfd == -1) {
			/* Nothing to read: has sendmail exited? */
			r = waitpid(pid, &status, WNOHANG);
			if (r == pid)
				reaped = 1;
			else if (r == -1 && errno != EINTR) {
				reaped = -1;
				werr = errno;
			}
			if (reaped != 0)
				break;
			continue;
		}
		for (int k = 0; k < nfd; k++) {
			if (pfd[k].revents == 0)
				continue;
			if (pfd[k].fd == wfd) {
				n = write(wfd, message + off, len - off);
				if (n > 0)
					off += (size_t)n;
				if ((n == -1 && errno != EAGAIN &&
				    errno != EINTR) || off == len) {
					close(wfd);
					wfd = -1;
				}
			} else {
				n = read(rfd, buf, sizeof(buf));
				if (n > 0) {
					if (olen + (size_t)n > SENDMAIL_OUTPUT)
						n = (ssize_t)(SENDMAIL_OUTPUT -
						    olen);
					memcpy(out + olen, buf, (size_t)n);
					olen += (size_t)n;
				} else if (n == 0 || (errno != EAGAIN &&
				    errno != EINTR)) {
					close(rfd);
					rfd = -1;
				}
			}
		}
	}
	if (wfd != -1)
		close(wfd);
	if (rfd != -1)
		close(rfd);
	/* It may close its output and still not exit. */
	if (reaped == 0 && !timedout && (reaped = perfwatch_reap_until(pid,
	    &status, sendmail_mono(&deadline))) == -1)
		werr = errno;
	if (reaped == 0) {
		timedout = 1;
		if (kill(-pid, SIGKILL) == -1)
			kill(pid, SIGKILL);
		/* One that SIGKILL does not end (stuck in the kernel) is left. */
		if (perfwatch_reap_until(pid, &status, perfwatch_mono() +
		    SENDMAIL_KILL_WAIT) == 0)
			log_warnx("%s: process %ld still there %.0f s after "
			    "SIGKILL; not waiting for it", path, (long)pid,
			    SENDMAIL_KILL_WAIT);
	}
	sigaction(SIGPIPE, &oldpipe, NULL);

	out[olen] = '\0';
	clean = notify_clean(out, SENDMAIL_OUTPUT);
	for (char *p = clean + strlen(clean); p > clean && p[-1] == ' ';)
		*--p = '\0';
	if (timedout)
		notify_answer(res, NOTIFY_TEMPFAIL,
		    "%s: no answer after %ld s; killed", path,
		    notify_timeout(sink));
	else if (reaped == -1)
		notify_answer(res, NOTIFY_TEMPFAIL,
		    "%s: cannot wait for it: %s", path, strerror(werr));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && off == len)
		notify_answer(res, NOTIFY_DELIVERED, "%s accepted it%s%s", path,
		    *clean != '\0' ? ": " : "", clean);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		notify_answer(res, NOTIFY_TEMPFAIL, "%s exited before reading "
		    "the whole message", path);
	else if (WIFEXITED(status))
		notify_answer(res, sendmail_temporary(WEXITSTATUS(status)) ?
		    NOTIFY_TEMPFAIL : NOTIFY_PERMFAIL, "%s exited with %d%s%s",
		    path, WEXITSTATUS(status), *clean != '\0' ? ": " : "",
		    clean);
	else
		notify_answer(res, NOTIFY_TEMPFAIL, "%s killed by signal %d",
		    path, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	free(clean);
}
