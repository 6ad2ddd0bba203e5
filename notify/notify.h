/*
 * notify/: telling people about alerts.
 *
 * detect/ writes one outbox row per alert state change and sink, in the
 * transaction that writes its verdicts (store/verdicts.c).  A flush
 * (notify_flush, run by `perfwatch notify flush`, which perfwatchd starts
 * as a child after each run and when a retry is due) delivers every row
 * that is due, once:
 *
 *   - the row is claimed first (its attempt counted, its next attempt
 *     moved on by the backoff), so a flush that dies mid-delivery leaves
 *     it to be retried, never lost;
 *   - it is marked delivered only when the server (or sendmail) accepted
 *     it;
 *   - a temporary failure is retried with exponential backoff
 *     (notify_backoff), or later when a webhook's receiver says so
 *     (Retry-After), until the row is max_age old, then it is marked
 *     failed with the server's last answer and that is logged;
 *   - a permanent refusal (an SMTP 5xx, a webhook 4xx, sendmail's
 *     permanent exit codes) marks it failed at once with the answer;
 *   - over SMTP, recipients that say "later" (a 4xx to their RCPT, as
 *     greylisting does) while the others take the message get a row of
 *     their own (store_outbox_split) with the same message, retried as
 *     above for them alone; a recipient refused for good is logged and
 *     not tried again.
 *
 * The message is made from the row's payload and from what the store
 * keeps about the runs it names (the regressed metrics of the checked
 * run, their last runs, the machine diff between the last good and the
 * first bad run), all of which is fixed once those runs are checked; the
 * Date is the row's creation time and the Message-ID depends only on the
 * alert and its state.  A retry therefore sends the same message, and a
 * receiver can always tell a duplicate (after a crash between the
 * server's answer and the mark) for what it is.
 *
 * Names and values from the store never reach a header unfiltered:
 * control characters become spaces, invalid UTF-8 becomes '?', and a
 * header that is not plain short ASCII is written as RFC 2047 encoded
 * words.  The body is quoted-printable UTF-8.
 */
#ifndef PERFWATCH_NOTIFY_H
#define PERFWATCH_NOTIFY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "perfwatch.h"
#include "store/store.h"

struct config;
struct snapshot_diff;

/* The name of the built-in log sink, as detect/ queues it. */
#define NOTIFY_LOG_SINK		"log"

/* Backoff: the first retry after this, doubling up to the cap. */
#define NOTIFY_BACKOFF_FIRST	60
#define NOTIFY_BACKOFF_MAX	(4 * 3600)
/* The longest Retry-After taken as it is: max_age's own bound. */
#define NOTIFY_RETRY_AFTER_MAX	(365 * 24 * 3600)

/* How long one delivery may take before it counts as failed, unless the
   sink's timeout says otherwise. */
#define NOTIFY_TIMEOUT		120

enum notify_type {
	NOTIFY_LOG = 0,
	NOTIFY_EMAIL,
	NOTIFY_WEBHOOK,
};

enum notify_starttls {
	NOTIFY_TLS_REQUIRED = 0,
	NOTIFY_TLS_OPTIONAL,
	NOTIFY_TLS_NONE,
};

/* One [sink "name"] section, or the built-in log sink. */
struct notify_sink {
	char			*name;
	enum notify_type	 type;
	char			*min_state;
	int64_t			 max_age;	/* seconds */
	long			 timeout;	/* one delivery, seconds (email,
						   webhook); 0: NOTIFY_TIMEOUT */
	int			 builtin;	/* the implicit "log" sink */
	int			 standby;	/* builtin, but a log sink of
						   another name takes its
						   place: only rows queued
						   for it before go to it */

	/* email */
	char			**to;		/* NULL-terminated, as written */
	char			*from;		/* as written, or NULL */
	char			*smtp_url;
	enum notify_starttls	 starttls;
	char			*credentials;	/* file: user:password */
	int			 sendmail;
	char			*sendmail_path;

	/* webhook */
	char			*url;
	char			*secret_file;
};

/* How a flush or a test delivers. */
struct notify_opts {
	int64_t		 now;		/* 0: time(NULL) */
	int		 force;		/* rows whose retry is not due yet too */
	int		 syslog;	/* log sink to syslog, else to logf */
	FILE		*logf;		/* NULL: stderr */
	const char	*hostname;	/* this machine; NULL: gethostname */
};

/* The outcome of one delivery attempt. */
enum notify_status {
	NOTIFY_DELIVERED = 0,
	NOTIFY_TEMPFAIL,	/* try again later */
	NOTIFY_PERMFAIL,	/* refused for good */
};

struct notify_result {
	enum notify_status	 status;
	char			*answer;	/* the server's words, or why */
	int64_t			 retry_after;	/* a webhook's Retry-After: not
						   to be tried again sooner,
						   seconds; 0: none */
	/*
	 * SMTP: the recipients (addr-specs, NULL-terminated) that said
	 * "later" (4xx) while the others took the message (delivered) or
	 * refused it for good (a temporary failure): those alone are to be
	 * tried again.  NULL when the outcome is the same for every
	 * recipient, or not known per recipient.
	 */
	char			**retry;
	char			*retry_answer;	/* their refusals */
};

/* One metric line of a message: the alert's own, or another regression. */
struct notify_metric {
	char		*workload;
	char		*metric;
	char		*unit;
	enum better	 better;
	int		 own;		/* the alert's metric */
	double		 baseline;	/* median of the baseline's runs */
	double		 noise;	/* between-run sd, metric's unit */
	double		 current;
	double		 change_pct;
	double		 ci_low;
	double		 ci_high;
	double		 q;
	/* The last runs up to the checked one, oldest first. */
	char		**runs;
	double		*medians;	/* NAN where the run lacks it */
	size_t		 nruns;
	size_t		 first_bad;	/* index of the first bad run, or nruns */
};

/* An alert state change, as a message is made of it. */
/* A watched git tree whose commit differs between two runs. */
struct notify_git {
	char	*name;				/* [git "name"] */
	char	*good;				/* the last good run's commit */
	char	*bad;				/* the first bad run's */
};

struct notify_event {
	int64_t			 outbox;	/* 0 for a test message */
	int64_t			 alert;
	int			 test;		/* `perfwatch notify test` */
	int64_t			 created;	/* the row's creation time */
	json_t			*payload;	/* as detect/ wrote it */

	/* Borrowed from payload; "" or NAN when absent. */
	const char		*state;
	const char		*previous;	/* NULL for a new alert */
	const char		*direction;
	const char		*host;
	const char		*workload;
	const char		*metric;
	const char		*unit;
	const char		*run;		/* the checked run */
	const char		*first_bad_run;
	const char		*last_good_run;
	const char		*baseline_name;
	double			 change_pct;
	double			 ci_low;
	double			 ci_high;
	double			 q;
	double			 current;
	double			 baseline;
	double			 noise;		/* between-run sd */
	int64_t			 baseline_runs;
	int64_t			 superseded_by;	/* the alert of a further
						   shift that resolved this
						   one, 0: none */
	enum better		 better;

	struct notify_metric	*metrics;	/* the alert's first */
	size_t			 nmetrics;
	struct snapshot_diff	*diff;		/* NULL: see diff_note */
	char			*diff_note;	/* why there is no diff */
	struct notify_git	*git;		/* trees that moved between */
	size_t			 ngit;		/* the two runs, by name */
	int			 qualify;	/* commands name the runs as
						   HOST:label, the labels
						   alone being ambiguous */
};

/* sink.c */
int		 notify_sinks_load(const struct config *, struct notify_sink **,
		    size_t *, char **cause);
const struct notify_sink *notify_sink_find(const struct notify_sink *,
		    size_t, const char *name);
void		 notify_sinks_free(struct notify_sink *, size_t);
const char	*notify_type_name(enum notify_type);
int		 notify_secret_read(const char *path, char **secret,
		    size_t *len, char **cause);

/* event.c: the event of an outbox row, with what the store knows. */
int		 notify_event_parse(struct notify_event *, int64_t outbox,
		    const char *payload, int64_t created, char **cause);
int		 notify_event_load(struct notify_event *, struct store *,
		    const struct store_outbox *, char **cause);
void		 notify_event_test(struct notify_event *, const char *host,
		    const char *sink, int64_t now);
void		 notify_event_clear(struct notify_event *);

/* message.c: what the event says. */
char		*notify_subject(const struct notify_event *);
char		*notify_event_id(const struct notify_event *);
char		*notify_delivery_id(const struct notify_event *);
char		*notify_message_id(const struct notify_event *);
char		*notify_text(const struct notify_event *);
char		*notify_log_line(const struct notify_event *);
json_t		*notify_webhook_json(const struct notify_event *);
char		*notify_email(const struct notify_event *,
		    const struct notify_sink *, const char *hostname);
char		*notify_from(const struct notify_sink *, const char *hostname);
char		*notify_mail_host(const char *hostname, const char *canonical,
		    int *qualified);
int		 notify_host_qualified(const char *);

/* mime.c: headers and bodies that cannot be smuggled into. */
char		*notify_clean(const char *, size_t max);
char		*notify_header(const char *name, const char *value);
char		*notify_address_header(const char *name,
		    char *const *addresses);
char		*notify_addr_spec(const char *address);
char		*notify_qp_encode(const char *text);
char		*notify_rfc5322_date(int64_t);
char		*notify_crlf(const char *text);

/* email.c, webhook.c, log.c: the sinks. */
void		 notify_curl_init(void);
void		 notify_smtp(const struct notify_sink *, const char *message,
		    char *const *rcpt, const struct notify_opts *,
		    struct notify_result *);
int		 notify_smtp_url_greets(const char *url);
void		 notify_sendmail(const struct notify_sink *,
		    const char *message, char *const *rcpt,
		    struct notify_result *);
void		 notify_webhook(const struct notify_sink *, const char *body,
		    const char *event_id, const char *delivery_id,
		    struct notify_result *);
char		*notify_webhook_signature(const void *key, size_t keylen,
		    int64_t timestamp, const char *delivery_id,
		    const char *body);
void		 notify_hmac_sha256_hex(const void *key, size_t keylen,
		    const void *data, size_t len, char out[65]);
void		 notify_log(const struct notify_event *,
		    const struct notify_opts *, struct notify_result *);

/* flush.c: delivery. */
struct notify_done {
	int64_t		 outbox;
	int64_t		 alert;
	char		*sink;
	enum notify_status status;
	int		 gave_up;	/* failed because of max_age */
	int		 attempts;
	int64_t		 next_attempt;	/* retries only */
	char		*answer;
};

struct notify_report {
	struct notify_done	*done;
	size_t			 ndone;
	size_t			 delivered;
	size_t			 retried;
	size_t			 failed;
	int64_t			 next_due;	/* 0: nothing left pending */
	int			 busy;		/* notify_flush failed because
						   another process held the
						   flush lock or the store's:
						   try again later */
};

int64_t		 notify_backoff(int attempts);
long		 notify_timeout(const struct notify_sink *);
int64_t		 notify_retry_at(int64_t created, int64_t max_age,
		    int attempts, int64_t wait, int64_t now);
void		 notify_deliver(const struct notify_sink *,
		    const struct notify_event *, char *const *rcpt,
		    const struct notify_opts *, struct notify_result *);
int		 notify_flush(struct store *, const struct notify_sink *,
		    size_t, const struct notify_opts *, struct notify_report *,
		    char **cause);
void		 notify_report_free(struct notify_report *);
void		 notify_answer(struct notify_result *, enum notify_status,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
void		 notify_result_clear(struct notify_result *);
const char	*notify_status_name(enum notify_status);

#endif
