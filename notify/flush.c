/*
 * Delivery: every due outbox row, once, then exit.
 *
 * perfwatchd starts `perfwatch notify flush` as a child after each run
 * and when the next retry is due, so nothing here blocks its event loop.
 * One flush at a time per database: an advisory lock on "<db>.notify"
 * keeps a flush typed by hand (perhaps with --force) and one started by
 * the daemon from sending the same row twice; within a flush, each row is
 * claimed in the store before it is sent (store/outbox.c).
 *
 * A row's life: due -> claimed (attempts + 1, next attempt moved on by
 * the backoff in case this flush dies) -> delivered, or failed
 * (permanent refusal, or no success within max_age), or back to waiting
 * with the server's answer and its next attempt (after the backoff, or
 * the webhook receiver's Retry-After when that is longer).  A row found
 * due after its max_age (the daemon was down; a flush woken a few seconds
 * late for the last try still makes it) is not tried: it is failed with
 * a log line, as perfwatch.conf(5) says of max_age.
 *
 * An SMTP server may take the message for some recipients and say
 * "later" (4xx, as greylisting does) to others: the row is delivered,
 * and a new row for those others alone (store_outbox_split) goes on
 * from there with its own attempts and backoff, until they take it,
 * refuse it for good or the alert is max_age old.  A recipient refused
 * for good (5xx) is logged and not tried again.
 */
#include <sys/types.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "json.h"
#include "log.h"
#include "xmalloc.h"
#include "notify.h"

/* Used for a row whose sink is not configured (any more). */
#define NOTIFY_DEFAULT_MAX_AGE	(2 * 24 * 3600)
/*
 * How late past a row's max_age a flush may find it and still make its
 * last try: perfwatchd wakes the flush in whole seconds from a clock it
 * read truncated, and the flush starts a moment later, often in the
 * second after the one the try was due in.
 */
#define FLUSH_LATE		60
/* How long a delivery made may wait for the store to record it. */
#ifndef FLUSH_RECORD_WAIT
#define FLUSH_RECORD_WAIT	120
#endif

/* How far a row got when the store failed: flush_one's *sent. */
#define FLUSH_UNSENT		0
#define FLUSH_SENT		1	/* tried; its outcome not recorded */
#define FLUSH_DELIVERED		2	/* delivered; that not recorded */

const char *
notify_status_name(enum notify_status s)
{
	switch (s) {
	case NOTIFY_DELIVERED:
		return "delivered";
	case NOTIFY_PERMFAIL:
		return "failed";
	case NOTIFY_TEMPFAIL:
		break;
	}
	return "retry";
}

/*
 * How long to wait after the attempts-th failed attempt: one minute after
 * the first, doubling each time, at most NOTIFY_BACKOFF_MAX.
 */
int64_t
notify_backoff(int attempts)
{
	int64_t	d = NOTIFY_BACKOFF_FIRST;
	int	i;

	for (i = 1; i < attempts && d < NOTIFY_BACKOFF_MAX; i++)
		d *= 2;
	return d < NOTIFY_BACKOFF_MAX ? d : NOTIFY_BACKOFF_MAX;
}

/*
 * When to try a row created at `created` again after its attempts-th
 * attempt failed at now: after the backoff, or after wait seconds (what
 * the server asked for, 0: nothing) if that is longer, but no later
 * than when the row is max_age old, so that it is tried until then.  -1
 * once it is that old: then it is given up.
 */
int64_t
notify_retry_at(int64_t created, int64_t max_age, int attempts, int64_t wait,
    int64_t now)
{
	int64_t	delay = notify_backoff(attempts);
	int64_t	last = created + max_age;

	if (now >= last)
		return -1;
	if (wait > delay)
		delay = wait < NOTIFY_RETRY_AFTER_MAX ? wait :
		    NOTIFY_RETRY_AFTER_MAX;
	return now + delay < last ? now + delay : last;
}

/* The clock of a flush. */
static int64_t
flush_now(const struct notify_opts *opts)
{
	return opts->now != 0 ? opts->now : (int64_t)time(NULL);
}

/*
 * Record that row o went out, at now: store_outbox_delivered(), or with
 * split (the rest of its recipients, their next try and answer) set,
 * store_outbox_split() and the new row's id in *id.  The message has
 * left, and a record lost would send it again at the row's next try:
 * while the store is busy (another process holding its write lock past
 * the busy timeout), try again, waiting 1, 2, 4 ... seconds, for up to
 * FLUSH_RECORD_WAIT seconds.  Any other error (a read-only file, a disk
 * error) would only fail again: it ends the wait at once, for the caller
 * to report.  As those functions return.
 */
static int
flush_record(struct store *st, const struct store_outbox *o, int64_t now,
    const struct notify_result *split, int64_t next, int64_t *id)
{
	struct timespec	 t0, t;
	unsigned int	 wait = 1;
	int		 rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (split != NULL)
			rc = store_outbox_split(st, o->id, now, split->retry,
			    next, split->retry_answer, id);
		else
			rc = store_outbox_delivered(st, o->id, now);
		if (rc != -1 || !store_busy(st))
			return rc;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + wait > FLUSH_RECORD_WAIT)
			return -1;
		log_warnx("notification %lld (alert %lld, sink %s): "
		    "delivered, but not yet recorded (%s); trying again in "
		    "%u s", (long long)o->id, (long long)o->alert, o->sink,
		    store_errmsg(st), wait);
		sleep(wait);
		wait *= 2;
	}
}

/* The name this machine goes by (opts->hostname: the caller's). */
static void
flush_hostname(const struct notify_opts *opts, char *buf, size_t len)
{
	if (opts->hostname != NULL)
		snprintf(buf, len, "%s", opts->hostname);
	else if (gethostname(buf, len) == -1 || buf[0] == '\0')
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
}

/*
 * A lookup of this machine's canonical name, made by a thread of its own
 * so that the flush can stop waiting for a slow resolver: the thread and
 * the flush each hold a reference, and the last to let go frees it (a
 * resolver that never answers leaves the thread blocked until exit).
 */
struct flush_canon {
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cv;
	char		 host[256];
	char		*canon;		/* the answer; NULL: none */
	int		 done;
	int		 refs;
};

/* Let go of fc; the last reference frees it. */
static void
flush_canon_release(struct flush_canon *fc)
{
	int	last;

	pthread_mutex_lock(&fc->mtx);
	last = --fc->refs == 0;
	pthread_mutex_unlock(&fc->mtx);
	if (!last)
		return;
	pthread_cond_destroy(&fc->cv);
	pthread_mutex_destroy(&fc->mtx);
	free(fc->canon);
	free(fc);
}

/* The lookup thread: getaddrinfo, then the answer handed over. */
static void *
flush_canon_main(void *arg)
{
	struct flush_canon	*fc = arg;
	struct addrinfo		 hints, *ai = NULL;
	char			*canon = NULL;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_CANONNAME;
	if (getaddrinfo(fc->host, NULL, &hints, &ai) == 0) {
		if (ai->ai_canonname != NULL)
			canon = xstrdup(ai->ai_canonname);
		freeaddrinfo(ai);
	}
	pthread_mutex_lock(&fc->mtx);
	fc->canon = canon;
	fc->done = 1;
	pthread_cond_signal(&fc->cv);
	pthread_mutex_unlock(&fc->mtx);
	flush_canon_release(fc);
	return NULL;
}

/*
 * The canonical name the resolver gives for host, waiting for it no
 * longer than timeout seconds: getaddrinfo cannot be told how long to
 * take (DNS that does not answer holds it for the resolv.conf timeout
 * times its attempts, per search domain), so it runs in a thread that is
 * left behind if it is late.  A copy, or NULL when there is none; *late
 * then says whether the resolver ran out of time.
 */
static char *
flush_canonical(const char *host, long timeout, int *late)
{
	struct flush_canon	*fc;
	pthread_condattr_t	 ca;
	pthread_attr_t		 ta;
	pthread_t		 t;
	sigset_t		 all, old;
	struct timespec		 deadline;
	char			*canon = NULL;
	int			 error, rc = 0;

	*late = 0;
	fc = xcalloc(1, sizeof(*fc));
	snprintf(fc->host, sizeof(fc->host), "%s", host);
	fc->refs = 2;
	pthread_mutex_init(&fc->mtx, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&fc->cv, &ca);
	pthread_condattr_destroy(&ca);

	/* The thread takes no signals: they stay the main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&ta);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	error = pthread_create(&t, &ta, flush_canon_main, fc);
	pthread_attr_destroy(&ta);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (error != 0) {
		log_warnx("looking up this machine's name (%s): "
		    "pthread_create: %s", host, strerror(error));
		fc->refs = 1;
		flush_canon_release(fc);
		return NULL;
	}

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout;
	pthread_mutex_lock(&fc->mtx);
	/* 0 is a wake-up (perhaps a spurious one); anything else ends it. */
	while (!fc->done && rc == 0)
		rc = pthread_cond_timedwait(&fc->cv, &fc->mtx, &deadline);
	if (fc->done && fc->canon != NULL)
		canon = xstrdup(fc->canon);
	*late = !fc->done;
	pthread_mutex_unlock(&fc->mtx);
	flush_canon_release(fc);
	return canon;
}

/*
 * This machine's name for email through sink: in the default sender of
 * a sink without from, and in the SMTP greeting (EHLO).  The fully
 * qualified name, being the hostname or else the canonical name the
 * resolver gives for it (/etc/hosts, or DNS with the search domains of
 * resolv.conf), looked up once per process, waiting no longer than the
 * sink's timeout: a slow resolver must not hold the delivery past it.
 * Without one, the short name, which many SMTP servers refuse after
 * MAIL FROM, and a log line, once, for a sink without from, that says
 * to set it (and, once, one that says the resolver was too slow).
 */
static const char *
flush_mail_host(const struct notify_sink *sink)
{
	static char	 name[256];
	static int	 done, qualified, warned, late;
	struct notify_opts o;
	char		 host[256], *pick, *canon;

	if (!done) {
		done = 1;
		memset(&o, 0, sizeof(o));
		flush_hostname(&o, host, sizeof(host));
		pick = notify_mail_host(host, NULL, &qualified);
		if (!qualified) {
			free(pick);
			canon = flush_canonical(host, notify_timeout(sink),
			    &late);
			pick = notify_mail_host(host, canon, &qualified);
			free(canon);
			if (late)
				log_warnx("[sink \"%s\"]: the resolver gave no "
				    "name for this machine (%s) within the "
				    "timeout, %ld s: it goes by that short "
				    "name", sink->name, host,
				    notify_timeout(sink));
		}
		snprintf(name, sizeof(name), "%s", pick);
		free(pick);
	}
	if (!qualified && !warned && sink->from == NULL) {
		warned = 1;
		log_warnx("[sink \"%s\"]: no fully qualified name found for "
		    "this machine (%s): the sender is perfwatch@%s, which "
		    "many mail servers refuse; set from in the sink",
		    sink->name, name, name);
	}
	return name;
}

/*
 * Whether email through sink needs this machine's name (flush_mail_host):
 * for the default sender when it has no from, and over SMTP for the
 * greeting unless its smtp_url names one.  Otherwise no look-up is made,
 * and a slow resolver delays nothing.
 */
static int
flush_needs_mail_host(const struct notify_sink *sink)
{
	if (sink->type != NOTIFY_EMAIL)
		return 0;
	if (sink->from == NULL)
		return 1;
	return !sink->sendmail && !notify_smtp_url_greets(sink->smtp_url);
}

/* Set res's status and its answer, printf-style (the sinks' outcome). */
void
notify_answer(struct notify_result *res, enum notify_status st,
    const char *fmt, ...)
{
	va_list	ap;

	res->status = st;
	free(res->answer);
	va_start(ap, fmt);
	if (vasprintf(&res->answer, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
}

void
notify_result_clear(struct notify_result *res)
{
	free(res->answer);
	store_outbox_recipients_free(res->retry);
	free(res->retry_answer);
	memset(res, 0, sizeof(*res));
}

/*
 * Deliver ev through sink once, to rcpt (email; NULL: the sink's
 * recipients); res gets the outcome.
 */
void
notify_deliver(const struct notify_sink *sink, const struct notify_event *ev,
    char *const *rcpt, const struct notify_opts *opts,
    struct notify_result *res)
{
	struct notify_opts	 o = *opts;
	char			 host[256], *msg, *id, *delivery, *body;
	json_t			*doc;

	if (opts->hostname == NULL && flush_needs_mail_host(sink))
		snprintf(host, sizeof(host), "%s", flush_mail_host(sink));
	else
		flush_hostname(opts, host, sizeof(host));
	o.hostname = host;
	switch (sink->type) {
	case NOTIFY_LOG:
		notify_log(ev, &o, res);
		break;
	case NOTIFY_EMAIL:
		msg = notify_email(ev, sink, host);
		if (sink->sendmail)
			notify_sendmail(sink, msg, rcpt, res);
		else
			notify_smtp(sink, msg, rcpt, &o, res);
		free(msg);
		break;
	case NOTIFY_WEBHOOK:
		doc = notify_webhook_json(ev);
		body = pwjson_dumps(doc, PWJSON_COMPACT);
		json_decref(doc);
		id = notify_event_id(ev);
		delivery = notify_delivery_id(ev);
		notify_webhook(sink, body, id, delivery, res);
		free(delivery);
		free(id);
		free(body);
		break;
	}
}

/*
 * Take the flush lock of st's database; its descriptor, or -1 (*busy
 * set when another flush holds it).  The lock file is opened read-only
 * (flock needs no more) and made readable by all, as the run lock is:
 * one that root made with a flush by hand (mode 0600, opened for writing)
 * kept every flush of perfwatchd's user out for good ("Permission
 * denied").  Without blocking, should it be a FIFO.
 */
static int
flush_lock(struct store *st, int *busy, char **cause)
{
	struct stat	 sb;
	char		*path;
	int		 fd;

	xasprintf(&path, "%s.notify", store_path(st));
	/*
	 * Not through a symbolic link, and only a regular file with one
	 * name, as the run lock (store_runs_sweep): the store's directory
	 * belongs to perfwatchd's user, who could leave a link there for a
	 * flush by root to create its target anywhere (an empty /etc/nologin
	 * locks every other user out).
	 */
	if ((fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC, 0644)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_nlink != 1) {
		xasprintf(cause, "%s: not a regular file with one name", path);
		close(fd);
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK) {
			xasprintf(cause, "another notify flush is running on "
			    "%s", store_path(st));
			*busy = 1;
		} else
			xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

/* Record what happened to a row in the report. */
static void
flush_report(struct notify_report *rep, const struct store_outbox *o,
    enum notify_status status, int gave_up, int attempts, int64_t next,
    const char *answer)
{
	struct notify_done	*d;

	rep->done = xreallocarray(rep->done, rep->ndone + 1,
	    sizeof(*rep->done));
	d = &rep->done[rep->ndone++];
	memset(d, 0, sizeof(*d));
	d->outbox = o->id;
	d->alert = o->alert;
	d->sink = xstrdup(o->sink);
	d->status = status;
	d->gave_up = gave_up;
	d->attempts = attempts;
	d->next_attempt = next;
	d->answer = xstrdup(answer != NULL ? answer : "");
	if (status == NOTIFY_DELIVERED)
		rep->delivered++;
	else if (status == NOTIFY_PERMFAIL)
		rep->failed++;
	else
		rep->retried++;
}

/* Give up on row o at now with why; logged.  0 or -1. */
static int
flush_fail(struct store *st, struct notify_report *rep,
    const struct store_outbox *o, int attempts, int gave_up, int64_t now,
    const char *why)
{
	log_warnx("notification %lld (alert %lld, sink %s) failed: %s",
	    (long long)o->id, (long long)o->alert, o->sink, why);
	if (store_outbox_fail(st, o->id, now, why) == -1)
		return -1;
	flush_report(rep, o, NOTIFY_PERMFAIL, gave_up, attempts, 0, why);
	return 0;
}

/*
 * Row o was delivered at now to some of its recipients and the others,
 * res->retry, said "later": mark it delivered and queue a row for them,
 * their first retry after the first backoff (or at once when the alert
 * is already max_age old, to be failed with their answer).  0 or -1.
 */
static int
flush_split(struct store *st, struct notify_report *rep,
    const struct store_outbox *o, int attempts, int64_t max_age, int64_t now,
    const struct notify_result *res)
{
	struct store_outbox	 left;
	int64_t			 next, id;

	if ((next = notify_retry_at(o->created, max_age, 1, 0, now)) == -1)
		next = now;
	switch (flush_record(st, o, now, res, next, &id)) {
	case -1:
		return -1;
	case 1:
		return 0;	/* no longer pending */
	}
	log_warnx("notification %lld (alert %lld, sink %s): delivered to the "
	    "others; row %lld tries again at +%llds for those that said "
	    "later: %s", (long long)o->id, (long long)o->alert, o->sink,
	    (long long)id, (long long)(next - now), res->retry_answer);
	flush_report(rep, o, NOTIFY_DELIVERED, 0, attempts, 0, res->answer);
	left = *o;
	left.id = id;
	flush_report(rep, &left, NOTIFY_TEMPFAIL, 0, 1, next,
	    res->retry_answer);
	return 0;
}

/* The recipients of list (NULL-ended) joined with ", ". */
static char *
flush_join(char *const *list)
{
	char	*all, *tmp;
	size_t	 i;

	all = xstrdup(list[0]);
	for (i = 1; list[i] != NULL; i++) {
		xasprintf(&tmp, "%s, %s", all, list[i]);
		free(all);
		all = tmp;
	}
	return all;
}

/*
 * Deliver one due row, which the flush found due at `found`; -1 only
 * when the store fails, *sent then saying how far the row had got
 * (FLUSH_UNSENT, FLUSH_SENT, FLUSH_DELIVERED).
 */
static int
flush_one(struct store *st, const struct notify_sink *sinks, size_t nsinks,
    const struct notify_opts *opts, int64_t due, int64_t found,
    const struct store_outbox *o, struct notify_report *rep, int *sent)
{
	const struct notify_sink	*sink;
	struct notify_event		 ev;
	struct notify_result		 res;
	int64_t				 now, max_age, next;
	int				 attempts, rc;
	char				*cause = NULL, *why, *who;

	now = flush_now(opts);
	sink = notify_sink_find(sinks, nsinks, o->sink);
	max_age = sink != NULL ? sink->max_age : NOTIFY_DEFAULT_MAX_AGE;
	/*
	 * Too old when the flush found it, not when its turn came: the
	 * last try is scheduled for the moment the row is max_age old, and
	 * a slow server for an earlier row (up to its timeout) would
	 * otherwise make it fail without that try; nor when a flush woken
	 * for that try comes a little late (FLUSH_LATE).  One found later
	 * than that waited for a daemon that was down.
	 */
	if (found > o->created + max_age + FLUSH_LATE) {
		xasprintf(&why, "not delivered within %lld s (%d attempts); "
		    "last answer: %s", (long long)max_age, o->attempts,
		    o->last_error != NULL ? o->last_error : "none");
		rc = flush_fail(st, rep, o, o->attempts, 1, now, why);
		free(why);
		return rc;
	}
	attempts = o->attempts + 1;
	/* Should this flush die, the row is due again as a retry would be. */
	if ((next = notify_retry_at(o->created, max_age, attempts, 0,
	    now)) == -1)
		next = now + notify_backoff(attempts);
	switch (store_outbox_claim(st, o->id, due, next)) {
	case -1:
		return -1;
	case 1:
		return 0;	/* no longer pending, or not due */
	}

	memset(&res, 0, sizeof(res));
	if (notify_event_load(&ev, st, o, &cause) == -1) {
		rc = flush_fail(st, rep, o, attempts, 0, flush_now(opts), cause);
		free(cause);
		return rc;
	}
	if (sink == NULL) {
		res.status = NOTIFY_TEMPFAIL;
		xasprintf(&res.answer, "no [sink \"%s\"] in the configuration",
		    o->sink);
	} else {
		*sent = FLUSH_SENT;
		notify_deliver(sink, &ev, o->recipients, opts, &res);
	}
	notify_event_clear(&ev);

	now = flush_now(opts);
	rc = 0;
	switch (res.status) {
	case NOTIFY_DELIVERED:
		*sent = FLUSH_DELIVERED;
		log_debug("notification %lld (alert %lld) delivered to %s: %s",
		    (long long)o->id, (long long)o->alert, o->sink, res.answer);
		if (res.retry != NULL && res.retry[0] != NULL) {
			rc = flush_split(st, rep, o, attempts, max_age, now,
			    &res);
			break;
		}
		if (flush_record(st, o, now, NULL, 0, NULL) == -1)
			rc = -1;
		else
			flush_report(rep, o, NOTIFY_DELIVERED, 0, attempts, 0,
			    res.answer);
		break;
	case NOTIFY_PERMFAIL:
		rc = flush_fail(st, rep, o, attempts, 0, now, res.answer);
		break;
	case NOTIFY_TEMPFAIL:
		next = notify_retry_at(o->created, max_age, attempts,
		    res.retry_after, now);
		if (next == -1) {
			xasprintf(&why, "gave up after %d attempts within %lld "
			    "s: %s", attempts, (long long)max_age, res.answer);
			rc = flush_fail(st, rep, o, attempts, 1, now, why);
			free(why);
			break;
		}
		log_warnx("notification %lld (alert %lld, sink %s): attempt "
		    "%d failed, next at +%llds: %s", (long long)o->id,
		    (long long)o->alert, o->sink, attempts,
		    (long long)(next - now), res.answer);
		if (res.retry != NULL && res.retry[0] != NULL) {
			who = flush_join(res.retry);
			log_warnx("notification %lld (alert %lld, sink %s): "
			    "tried again only for %s", (long long)o->id,
			    (long long)o->alert, o->sink, who);
			free(who);
		}
		if (store_outbox_retry(st, o->id, next, res.answer,
		    res.retry != NULL && res.retry[0] != NULL ? res.retry :
		    NULL) == -1)
			rc = -1;
		else
			flush_report(rep, o, NOTIFY_TEMPFAIL, 0, attempts, next,
			    res.answer);
		break;
	}
	notify_result_clear(&res);
	return rc;
}

/*
 * What became of row id that the store could not record, by sent: ""
 * when it was not sent.  A delivery not recorded is sent again by the
 * next flush, and the reader must be told so in as many words.
 */
static const char *
flush_sent_words(int sent)
{
	switch (sent) {
	case FLUSH_SENT:
		return " (sent, its outcome not recorded: it is tried again "
		    "when due)";
	case FLUSH_DELIVERED:
		return " (delivered, but not recorded as delivered: the next "
		    "flush sends it again)";
	}
	return "";
}

/*
 * Why the flush stopped on a store error at row id (0: reading the
 * outbox), sent saying how far that row had got: the store's words, or
 * when another process held its lock past the busy timeout (rep->busy
 * set), that it is busy, what was sent, and to try again.
 */
static char *
flush_store_cause(struct store *st, struct notify_report *rep, int64_t id,
    int sent)
{
	char	*cause;

	if (!store_busy(st)) {
		if (id != 0)
			xasprintf(&cause, "outbox row %lld: %s%s",
			    (long long)id, store_errmsg(st),
			    flush_sent_words(sent));
		else
			xasprintf(&cause, "reading the outbox: %s",
			    store_errmsg(st));
		return cause;
	}
	rep->busy = 1;
	if (rep->ndone == 0 && sent == FLUSH_UNSENT)
		xasprintf(&cause, "the database %s is busy (another process "
		    "holds its lock): nothing was sent; try again later",
		    store_path(st));
	else if (id == 0)
		xasprintf(&cause, "the database %s is busy (another process "
		    "holds its lock): every due row was dealt with, but when "
		    "the next is due could not be read; try again later",
		    store_path(st));
	else
		xasprintf(&cause, "the database %s is busy (another process "
		    "holds its lock): stopped at outbox row %lld%s, the rows "
		    "after it not sent; try again later", store_path(st),
		    (long long)id, flush_sent_words(sent));
	return cause;
}

/*
 * Deliver every outbox row that is due (with opts->force, every pending
 * row) through its sink, once, and say what happened in rep, including
 * when the next pending row is due.  Rows are independent: a refusal or
 * a dead server for one does not stop the others.  0, or -1 with *cause
 * when the flush could not run or the store failed; rep->busy then says
 * whether that was another process holding a lock, to try again later.
 */
int
notify_flush(struct store *st, const struct notify_sink *sinks,
    size_t nsinks, const struct notify_opts *opts, struct notify_report *rep,
    char **cause)
{
	struct store_outbox	*rows;
	size_t			 n, i;
	int64_t			 due, found, next;
	int			 lock, sent, rc = 0;

	memset(rep, 0, sizeof(*rep));
	if ((lock = flush_lock(st, &rep->busy, cause)) == -1)
		return -1;
	found = flush_now(opts);
	due = opts->force ? INT64_MAX : found;
	if (store_outbox_due(st, due, &rows, &n) == -1) {
		*cause = flush_store_cause(st, rep, 0, 0);
		close(lock);
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		sent = FLUSH_UNSENT;
		if (flush_one(st, sinks, nsinks, opts, due, found, &rows[i],
		    rep, &sent) == -1) {
			*cause = flush_store_cause(st, rep, rows[i].id, sent);
			rc = -1;
		}
	}
	store_outbox_free(rows, n);
	if (rc == 0) {
		switch (store_outbox_next_due(st, &next)) {
		case 0:
			rep->next_due = next;
			break;
		case -1:
			*cause = flush_store_cause(st, rep, 0, 0);
			rc = -1;
			break;
		}
	}
	close(lock);
	return rc;
}

void
notify_report_free(struct notify_report *rep)
{
	size_t	i;

	for (i = 0; i < rep->ndone; i++) {
		free(rep->done[i].sink);
		free(rep->done[i].answer);
	}
	free(rep->done);
	memset(rep, 0, sizeof(*rep));
}
