/*
 * perfwatch notify: deliver the outbox, test a sink, list what waits.
 *
 *   notify flush [--json] [--force] [--syslog]
 *	deliver every due outbox row once and exit; say what happened and
 *	when the next retry is due.  perfwatchd runs this as a child after
 *	each run and when a retry is due (with --syslog when detached).
 *   notify test [--json] [--list | SINK]
 *	send a test message through SINK, or through every sink; with
 *	--list, only say which sinks there are.
 *   notify pending [--all] [--json] [--limit N]
 *	the rows waiting for delivery (--all: every row, newest first),
 *	each with the recipients it is for.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "xmalloc.h"
#include "notify/notify.h"
#include "cli.h"

/* The sinks of the configuration, or NULL with a message. */
static struct notify_sink *
notify_cli_sinks(struct cli *c, size_t *n)
{
	struct notify_sink	*sinks;
	char			*cause = NULL;

	if (notify_sinks_load(c->cfg, &sinks, n, &cause) == -1) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
		return NULL;
	}
	return sinks;
}

/* A time for JSON: RFC 3339 text, or null for 0. */
static json_t *
notify_json_time(int64_t t)
{
	char	buf[32];

	if (t == 0)
		return json_null();
	fmt_time(buf, sizeof(buf), (long long)t);
	return json_string(buf);
}

/* A time for a table, "-" for 0. */
static void
notify_fmt_time(char *buf, size_t len, int64_t t)
{
	if (t == 0)
		snprintf(buf, len, "-");
	else
		fmt_time(buf, len, (long long)t);
}

/* The state a row's payload tells of, or "?". */
static char *
notify_row_state(const struct store_outbox *o)
{
	json_t		*p;
	const char	*s = "?";
	char		*out;

	p = json_loads(o->payload, 0, NULL);
	if (json_is_string(json_object_get(p, "state")))
		s = json_string_value(json_object_get(p, "state"));
	out = notify_clean(s, 32);
	json_decref(p);
	return out;
}

/*
 * The addresses an email row is for: its own, or its sink's as now
 * configured (sinks may be NULL: a configuration that does not load
 * names none).  NULL for another kind of sink, or one not configured.
 */
static char **
notify_row_recipients(const struct store_outbox *o,
    const struct notify_sink *sinks, size_t nsinks)
{
	const struct notify_sink	*sink;
	char				**out;
	size_t				 n, i;

	if (o->recipients != NULL) {
		for (n = 0; o->recipients[n] != NULL; n++)
			;
		out = xcalloc(n + 1, sizeof(*out));
		for (i = 0; i < n; i++)
			out[i] = xstrdup(o->recipients[i]);
		return out;
	}
	sink = sinks != NULL ? notify_sink_find(sinks, nsinks, o->sink) : NULL;
	if (sink == NULL || sink->type != NOTIFY_EMAIL || sink->to == NULL)
		return NULL;
	for (n = 0; sink->to[n] != NULL; n++)
		;
	out = xcalloc(n + 1, sizeof(*out));
	for (i = 0; i < n; i++)
		out[i] = notify_addr_spec(sink->to[i]);
	return out;
}

/* What a row has come to: pending, delivered or failed. */
static const char *
notify_row_status(const struct store_outbox *o)
{
	if (o->delivered_at != 0)
		return "delivered";
	if (o->failed_at != 0)
		return "failed";
	return "pending";
}

/* notify flush */
static int
notify_cmd_flush(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "force", no_argument, NULL, 'f' },
		{ "syslog", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const hdr[] = { "row", "alert", "sink", "outcome",
	    "attempts", "next attempt", "answer" };
	static const enum table_align al[] = { ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT, ALIGN_LEFT };
	struct notify_opts	 o;
	struct notify_report	 rep;
	struct notify_sink	*sinks;
	struct notify_done	*d;
	struct store		*st;
	struct table		*t;
	size_t			 nsinks, i;
	char			*cause = NULL, *answer, tbuf[32];
	json_t			*root, *arr, *r;
	int			 ch, rc = 0;

	memset(&o, 0, sizeof(o));
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'f':
			o.force = 1;
			break;
		case 's':
			o.syslog = 1;
			break;
		default:
			return cli_usage("notify");
		}
	}
	if (optind != argc)
		return cli_bad_arg("notify", argv[optind]);
	if (o.syslog)
		log_init("perfwatch", 0, c->verbose);
	if ((sinks = notify_cli_sinks(c, &nsinks)) == NULL)
		return EXIT_CONFIG;
	/* A delivery it could not record would be sent again. */
	c->writes = 1;
	if ((st = cli_store(c)) == NULL) {
		notify_sinks_free(sinks, nsinks);
		/* 75 for a lock that keeps readers out, as elsewhere. */
		return cli_store_none(c);
	}
	if (notify_flush(st, sinks, nsinks, &o, &rep, &cause) == -1) {
		log_warnx("notify flush: %s", cause);
		/* A full disk is 74, as for every command that writes. */
		rc = rep.busy ? EXIT_TEMPFAIL : cli_store_status(st,
		    EXIT_SOFTWARE);
		free(cause);
		notify_sinks_free(sinks, nsinks);
		notify_report_free(&rep);
		return rc;
	}

	if (c->out == OUT_JSON) {
		root = pwjson_object();
		pwjson_set_int(root, "delivered", (int64_t)rep.delivered);
		pwjson_set_int(root, "retrying", (int64_t)rep.retried);
		pwjson_set_int(root, "failed", (int64_t)rep.failed);
		/* RFC 3339 as every time of --json; perfwatchd reads it. */
		pwjson_set(root, "next_due", notify_json_time(rep.next_due));
		arr = pwjson_array();
		for (i = 0; i < rep.ndone; i++) {
			d = &rep.done[i];
			r = pwjson_object();
			pwjson_set_int(r, "id", d->outbox);
			pwjson_set_int(r, "alert", d->alert);
			pwjson_set_str(r, "sink", d->sink);
			pwjson_set_str(r, "outcome",
			    notify_status_name(d->status));
			pwjson_set_bool(r, "expired", d->gave_up);
			pwjson_set_int(r, "attempts", d->attempts);
			pwjson_set(r, "next_attempt",
			    notify_json_time(d->next_attempt));
			pwjson_set_str(r, "answer", d->answer);
			pwjson_append(arr, r);
		}
		pwjson_set(root, "rows", arr);
		cli_json_print(root);
		json_decref(root);
	} else {
		printf("delivered %zu, retrying %zu, failed %zu\n",
		    rep.delivered, rep.retried, rep.failed);
		if (rep.ndone > 0) {
			t = table_new(nitems(hdr), hdr, al);
			for (i = 0; i < rep.ndone; i++) {
				d = &rep.done[i];
				table_addf(t, 0, "%lld", (long long)d->outbox);
				table_addf(t, 1, "%lld", (long long)d->alert);
				answer = notify_clean(d->sink, 40);
				table_addf(t, 2, "%s", answer);
				free(answer);
				table_addf(t, 3, "%s%s",
				    notify_status_name(d->status),
				    d->gave_up ? " (expired)" : "");
				table_addf(t, 4, "%d", d->attempts);
				notify_fmt_time(tbuf, sizeof(tbuf),
				    d->next_attempt);
				table_addf(t, 5, "%s", tbuf);
				answer = notify_clean(d->answer, 100);
				table_addf(t, 6, "%s", answer);
				free(answer);
				table_end_row(t);
			}
			table_print(t, stdout, OUT_TABLE);
			table_free(t);
		}
		if (rep.next_due != 0) {
			fmt_time(tbuf, sizeof(tbuf), (long long)rep.next_due);
			printf("next retry due %s\n", tbuf);
		} else
			printf("nothing pending\n");
	}
	notify_report_free(&rep);
	notify_sinks_free(sinks, nsinks);
	return rc;
}

/*
 * notify test --list: the sinks a test goes through, the built-in log
 * sink too, each with its type; nothing is sent.
 */
static void
notify_list_sinks(struct cli *c, const struct notify_sink *sinks,
    size_t nsinks)
{
	json_t	*arr, *r;
	size_t	 i;

	if (c->out != OUT_JSON) {
		for (i = 0; i < nsinks; i++)
			if (!sinks[i].standby)
				printf("%s (%s)\n", sinks[i].name,
				    notify_type_name(sinks[i].type));
		return;
	}
	arr = pwjson_array();
	for (i = 0; i < nsinks; i++) {
		if (sinks[i].standby)
			continue;
		r = pwjson_object();
		pwjson_set_str(r, "sink", sinks[i].name);
		pwjson_set_str(r, "type", notify_type_name(sinks[i].type));
		pwjson_append(arr, r);
	}
	cli_json_print(arr);
	json_decref(arr);
}

/* notify test [--list | SINK] */
static int
notify_cmd_test(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct notify_opts	 o;
	struct notify_event	 ev;
	struct notify_result	 res;
	struct notify_sink	*sinks;
	struct name_hint	 h;
	const char		*want = NULL;
	char			 host[256], *clean, *hint;
	size_t			 nsinks, i;
	json_t			*arr = NULL, *r;
	int			 ch, rc = 0, list = 0;

	memset(&o, 0, sizeof(o));
	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'l':
			list = 1;
			break;
		default:
			return cli_usage("notify");
		}
	}
	if (argc - optind > (list ? 0 : 1))
		return cli_bad_arg("notify", argv[optind + (list ? 0 : 1)]);
	if (argc - optind == 1)
		want = argv[optind];
	if ((sinks = notify_cli_sinks(c, &nsinks)) == NULL)
		return EXIT_CONFIG;
	if (list) {
		notify_list_sinks(c, sinks, nsinks);
		notify_sinks_free(sinks, nsinks);
		return 0;
	}
	/* An unknown sink is an error before any output, JSON or not. */
	for (i = 0; want != NULL && i < nsinks; i++)
		if (strcmp(sinks[i].name, want) == 0)
			break;
	if (want != NULL && i == nsinks) {
		name_hint_init(&h, want);
		for (i = 0; i < nsinks; i++)
			name_hint_add(&h, sinks[i].name);
		hint = name_hint_text(&h);
		fprintf(stderr, "perfwatch: no sink \"%s\" in the "
		    "configuration%s%s%s\n", want, hint ? " (did you mean " :
		    "", hint ? cli_show(hint) : "", hint ? "?)" : "");
		free(hint);
		notify_sinks_free(sinks, nsinks);
		return EXIT_CONFIG;
	}
	if (gethostname(host, sizeof(host)) == -1)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	if (c->out == OUT_JSON)
		arr = pwjson_array();
	for (i = 0; i < nsinks; i++) {
		if (want != NULL ? strcmp(sinks[i].name, want) != 0 :
		    sinks[i].standby)
			continue;
		notify_event_test(&ev, host, sinks[i].name, (int64_t)time(NULL));
		memset(&res, 0, sizeof(res));
		notify_deliver(&sinks[i], &ev, NULL, &o, &res);
		if (res.status != NOTIFY_DELIVERED)
			rc = 1;
		if (arr != NULL) {
			r = pwjson_object();
			pwjson_set_str(r, "sink", sinks[i].name);
			pwjson_set_str(r, "type", notify_type_name(
			    sinks[i].type));
			pwjson_set_str(r, "outcome",
			    notify_status_name(res.status));
			pwjson_set_str(r, "answer", res.answer);
			pwjson_append(arr, r);
		} else {
			clean = notify_clean(res.answer, 0);
			printf("%s (%s): %s: %s\n", sinks[i].name,
			    notify_type_name(sinks[i].type),
			    notify_status_name(res.status), clean);
			free(clean);
		}
		notify_result_clear(&res);
		notify_event_clear(&ev);
	}
	if (arr != NULL) {
		cli_json_print(arr);
		json_decref(arr);
	}
	notify_sinks_free(sinks, nsinks);
	return rc;
}

/* notify pending [--all] [--limit N] */
static int
notify_cmd_pending(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ "all", no_argument, NULL, 'a' },
		{ "limit", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const hdr[] = { "row", "alert", "sink", "state",
	    "status", "attempts", "queued", "next attempt", "held by",
	    "recipients", "last error" };
	/* For a program each column is named as --json names it. */
	static const char *const csv_hdr[] = { "id", "alert", "sink", "state",
	    "status", "attempts", "created", "next_attempt", "held_by",
	    "recipients", "last_error" };
	static const enum table_align al[] = { ALIGN_RIGHT, ALIGN_RIGHT,
	    ALIGN_LEFT, ALIGN_LEFT, ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT,
	    ALIGN_LEFT, ALIGN_RIGHT, ALIGN_LEFT, ALIGN_LEFT };
	struct store_outbox	*rows;
	struct notify_sink	*sinks = NULL;
	struct store		*st;
	struct table		*t;
	size_t			 n, i, k, limit = 0, nsinks = 0;
	char			*state, *clean, *cause = NULL, **to, *list;
	char			*tmp, tbuf[32];
	json_t			*arr, *r, *ja;
	int			 ch, all = 0, cut;

	cli_getopt_reset();
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'J':
			c->out = OUT_JSON;
			break;
		case 'C':
			c->out = OUT_CSV;
			break;
		case 'a':
			all = 1;
			break;
		case 'n':
			if (cli_parse_limit(optarg, &limit) == -1)
				return cli_usage("notify");
			break;
		default:
			return cli_usage("notify");
		}
	}
	if (optind != argc)
		return cli_bad_arg("notify", argv[optind]);
	if ((st = cli_store(c)) == NULL)
		return cli_store_none(c);
	if (store_outbox_list(st, all, limit, &rows, &n) == -1) {
		fprintf(stderr, "perfwatch: reading the outbox: %s\n",
		    store_errmsg(st));
		return cli_store_status(st, EXIT_SOFTWARE);
	}
	/*
	 * The sinks name the recipients of the rows that are for the
	 * sink's list; a listing still works when they do not load (what
	 * is wrong with them, flush and test say).
	 */
	if (notify_sinks_load(c->cfg, &sinks, &nsinks, &cause) == -1) {
		free(cause);
		sinks = NULL;
		nsinks = 0;
	}
	if (c->out == OUT_JSON) {
		arr = pwjson_array();
		for (i = 0; i < n; i++) {
			r = pwjson_object();
			pwjson_set_int(r, "id", rows[i].id);
			if (rows[i].alert != 0)
				pwjson_set_int(r, "alert", rows[i].alert);
			else
				pwjson_set(r, "alert", json_null());
			pwjson_set_str(r, "sink", rows[i].sink);
			state = notify_row_state(&rows[i]);
			pwjson_set_str(r, "state", state);
			free(state);
			pwjson_set_str(r, "status", notify_row_status(&rows[i]));
			pwjson_set_int(r, "attempts", rows[i].attempts);
			pwjson_set(r, "created",
			    notify_json_time(rows[i].created));
			pwjson_set(r, "next_attempt", rows[i].delivered_at ||
			    rows[i].failed_at ? json_null() :
			    notify_json_time(rows[i].next_attempt));
			if (rows[i].held_by != 0)
				pwjson_set_int(r, "held_by", rows[i].held_by);
			else
				pwjson_set(r, "held_by", json_null());
			pwjson_set(r, "delivered_at",
			    notify_json_time(rows[i].delivered_at));
			pwjson_set(r, "failed_at",
			    notify_json_time(rows[i].failed_at));
			pwjson_set_str(r, "last_error", rows[i].last_error);
			to = notify_row_recipients(&rows[i], sinks, nsinks);
			if (to != NULL) {
				ja = pwjson_array();
				for (k = 0; to[k] != NULL; k++)
					pwjson_append(ja, json_string(to[k]));
				pwjson_set(r, "recipients", ja);
			} else
				pwjson_set(r, "recipients", json_null());
			store_outbox_recipients_free(to);
			if (rows[i].split_from != 0)
				pwjson_set_int(r, "split_from",
				    rows[i].split_from);
			else
				pwjson_set(r, "split_from", json_null());
			pwjson_append(arr, r);
		}
		cli_json_print(arr);
		json_decref(arr);
	} else if (n == 0 && c->out == OUT_TABLE) {
		printf(all ? "the outbox is empty\n" : "nothing pending\n");
	} else {
		/* The table is read on a terminal; the CSV keeps it all. */
		cut = c->out != OUT_CSV;
		_Static_assert(nitems(hdr) == nitems(csv_hdr),
		    "notify pending: CSV header");
		t = table_new(nitems(hdr), cut ? hdr : csv_hdr, al);
		for (i = 0; i < n; i++) {
			table_addf(t, 0, "%lld", (long long)rows[i].id);
			/* None is "-", as the JSON's null (it printed 0). */
			if (rows[i].alert != 0)
				table_addf(t, 1, "%lld",
				    (long long)rows[i].alert);
			else
				table_addf(t, 1, "-");
			clean = notify_clean(rows[i].sink, cut ? 40 : 0);
			table_addf(t, 2, "%s", clean);
			free(clean);
			state = notify_row_state(&rows[i]);
			table_addf(t, 3, "%s", state);
			free(state);
			table_addf(t, 4, "%s", notify_row_status(&rows[i]));
			table_addf(t, 5, "%d", rows[i].attempts);
			notify_fmt_time(tbuf, sizeof(tbuf), rows[i].created);
			table_addf(t, 6, "%s", tbuf);
			notify_fmt_time(tbuf, sizeof(tbuf), rows[i].delivered_at
			    || rows[i].failed_at ? 0 : rows[i].next_attempt);
			table_addf(t, 7, "%s", tbuf);
			if (rows[i].held_by != 0)
				table_addf(t, 8, "%lld",
				    (long long)rows[i].held_by);
			else
				table_addf(t, 8, "-");
			to = notify_row_recipients(&rows[i], sinks, nsinks);
			list = xstrdup(to != NULL && to[0] != NULL ? to[0] :
			    "-");
			for (k = 1; to != NULL && to[k] != NULL; k++) {
				xasprintf(&tmp, "%s, %s", list, to[k]);
				free(list);
				list = tmp;
			}
			store_outbox_recipients_free(to);
			clean = notify_clean(list, cut ? 100 : 0);
			free(list);
			table_addf(t, 9, "%s", clean);
			free(clean);
			clean = notify_clean(rows[i].last_error, cut ? 100 : 0);
			table_addf(t, 10, "%s", *clean != '\0' ? clean : "-");
			free(clean);
			table_end_row(t);
		}
		table_print(t, stdout, c->out);
		table_free(t);
	}
	store_outbox_free(rows, n);
	notify_sinks_free(sinks, nsinks);
	return 0;
}

/* perfwatch notify flush|test|pending ... */
int
cmd_notify(struct cli *c, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_why("notify", "a subcommand: flush, test or "
		    "pending");
	if (strcmp(argv[1], "flush") == 0) {
		cli_name(argv + 1, "notify", "flush");
		return notify_cmd_flush(c, argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "test") == 0) {
		cli_name(argv + 1, "notify", "test");
		return notify_cmd_test(c, argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "pending") == 0) {
		cli_name(argv + 1, "notify", "pending");
		return notify_cmd_pending(c, argc - 1, argv + 1);
	}
	return cli_bad_sub("notify", argv[1]);
}
