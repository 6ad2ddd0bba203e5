/*
 * What an event says: the subject, the plain-text report, the log line,
 * the webhook document and the whole email.
 *
 * The report follows the LKP and UnixBench write-ups our users read: a
 * table of the regressed metrics (baseline level ± its between-run
 * noise, current, change, 95% interval, q), what changed on the machine
 * between the last good and the first bad run, the last runs of each
 * metric as one row of block characters, and the commands that look
 * further.  Every name from the store is cleaned (mime.c) before it is
 * written anywhere, body included.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "json.h"
#include "log.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "notify.h"

/* The longest name from the store a message shows. */
#define MSG_NAME_MAX	120

/* Eight heights of a chart cell, lowest first (U+2581 .. U+2588). */
static const char *const msg_blocks[] = { "\u2581", "\u2582", "\u2583",
    "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };

/* A memory stream, or fatal. */
static FILE *
msg_open(char **buf, size_t *len)
{
	FILE	*f;

	if ((f = open_memstream(buf, len)) == NULL)
		fatal("open_memstream");
	return f;
}

/*
 * A number as a report shows it: "776", "999.98", "1.23e-05", "1e+300",
 * "-".  From 1e15 on with an exponent, as %.0f would give every digit
 * of an imported 1e300.
 */
static void
msg_num(char *buf, size_t len, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else if (fabs(v) < 1e15 && (fabs(v) >= 1e5 || v == floor(v)))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
}

/*
 * Percent v as it is printed to one decimal: a change that rounds to
 * nothing is +0.0, as check prints it, not -0.0.
 */
static double
msg_pct_shown(double v)
{
	return fabs(v) < 0.05 ? 0.0 : v;
}

/*
 * Signed percent v, no "%": to one decimal, or from a million on with
 * three significant digits and an exponent, as check prints it (a
 * change against a level near 0 ran to 200 digits).
 */
static void
msg_pct_num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%+.3g", v);
	else
		snprintf(buf, len, "%+.1f", msg_pct_shown(v));
}

/* A noise figure: three significant digits, "3.18", "1.2e+298", or "-". */
static void
msg_noise(char *buf, size_t len, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* A signed percentage: "-22.4%", or "-". */
static void
msg_pct(char *buf, size_t len, double v)
{
	char	num[20];

	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else {
		msg_pct_num(num, sizeof(num), v);
		snprintf(buf, len, "%s%%", num);
	}
}

/* An interval: "[-22.9, -21.9]", or "-". */
static void
msg_ci(char *buf, size_t len, double lo, double hi)
{
	char	a[20], b[20];

	if (isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi))
		snprintf(buf, len, "-");
	else {
		msg_pct_num(a, sizeof(a), lo);
		msg_pct_num(b, sizeof(b), hi);
		snprintf(buf, len, "[%s, %s]", a, b);
	}
}

/* A q value: "0.00029", or "-". */
static void
msg_q(char *buf, size_t len, double q)
{
	if (isnan(q))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2g", q);
}

/* The columns s takes on a terminal: its code points. */
static size_t
msg_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Write s padded to width w, right-aligned if right. */
static void
msg_cell(FILE *f, const char *s, size_t w, int right)
{
	size_t	pad = w > msg_width(s) ? w - msg_width(s) : 0;

	if (right)
		fprintf(f, "%*s%s", (int)pad, "", s);
	else
		fprintf(f, "%s%*s", s, (int)pad, "");
}

/* "workload metric", cleaned. */
static char *
msg_metric_name(const char *workload, const char *metric)
{
	char	*w, *m, *out;

	w = notify_clean(workload, MSG_NAME_MAX);
	m = notify_clean(metric, MSG_NAME_MAX);
	xasprintf(&out, "%s %s", w, m);
	free(w);
	free(m);
	return out;
}

/*
 * A word for a shell: as it is when it is made of safe characters, else
 * in single quotes, so that a label from the store pasted from a message
 * into a shell is one argument and nothing more.
 */
static char *
msg_shell_word(const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:/@%+=,-";
	char	*clean, *out, *p;
	FILE	*f;
	size_t	 len;

	clean = notify_clean(s, MSG_NAME_MAX);
	if (*clean != '\0' && strspn(clean, safe) == strlen(clean))
		return clean;
	f = msg_open(&out, &len);
	fputc('\'', f);
	for (p = clean; *p != '\0'; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
	fclose(f);
	free(clean);
	return out;
}

/* The digest that names an alert in Message-IDs and event ids. */
static void
msg_alert_hash(const struct notify_event *ev, char out[17])
{
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0, i;
	char		*text;
	size_t		 len;
	FILE		*f;

	f = msg_open(&text, &len);
	if (ev->test)
		fprintf(f, "test%c%s%c%lld%c%ld", 0, ev->host, 0,
		    (long long)ev->created, 0, (long)getpid());
	else
		fprintf(f, "%s%c%s%c%s%c%s%c%lld", ev->host, 0, ev->workload,
		    0, ev->metric, 0, ev->first_bad_run, 0,
		    (long long)ev->alert);
	fclose(f);
	if (EVP_Digest(text, len, md, &mdlen, EVP_sha256(), NULL) != 1)
		fatalx("EVP_Digest failed");
	free(text);
	for (i = 0; i < 8 && i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[16] = '\0';
}

/* A state as an id part: letters only. */
static void
msg_state_word(char *buf, size_t len, const char *state)
{
	size_t	o = 0;

	for (; *state != '\0' && o + 1 < len; state++)
		if ((*state >= 'a' && *state <= 'z') ||
		    (*state >= 'A' && *state <= 'Z'))
			buf[o++] = *state;
	buf[o] = '\0';
	if (o == 0)
		snprintf(buf, len, "unknown");
}

/*
 * The id of the event, the same for every attempt at it:
 * "alert-1-confirmed-0123456789abcdef".
 */
char *
notify_event_id(const struct notify_event *ev)
{
	char	 hash[17], state[32], *out;

	msg_alert_hash(ev, hash);
	msg_state_word(state, sizeof(state), ev->state);
	if (ev->test)
		xasprintf(&out, "test-%s", hash);
	else
		xasprintf(&out, "alert-%lld-%s-%s", (long long)ev->alert,
		    state, hash);
	return out;
}

/*
 * The id of one delivery, the same on every attempt at it: the event's
 * id and the outbox row's number, "alert-1-confirmed-0123456789abcdef-42"
 * (0 for a test message, which has no row).  The event id alone is the
 * same for the rows of several sinks, and the row number alone for two
 * databases; together they name one row of one host's outbox.  Letters,
 * digits and '-' only, as the signed string wants (webhook.c).
 */
char *
notify_delivery_id(const struct notify_event *ev)
{
	char	*event, *out;

	event = notify_event_id(ev);
	xasprintf(&out, "%s-%lld", event, (long long)ev->outbox);
	free(event);
	return out;
}

/* The longest domain name there is (RFC 1035), and one label. */
#define MSG_DOMAIN_MAX	253
#define MSG_LABEL_MAX	63

/*
 * host as a domain, at most max characters: the right-hand side of a
 * Message-ID (the alert's host, cut at a label's length, as it need only
 * be unique) or of the default sender (this machine's name, which must
 * stay whole: a long canonical name cut at 63 was a domain nobody has).
 */
static char *
msg_id_domain(const char *host, size_t max)
{
	char	*out;
	size_t	 o = 0;
	int	 dot = 1;

	out = xmalloc(strlen(host) + sizeof("perfwatch.invalid"));
	for (; *host != '\0' && o < max; host++) {
		if ((*host >= 'a' && *host <= 'z') ||
		    (*host >= 'A' && *host <= 'Z') ||
		    (*host >= '0' && *host <= '9') || *host == '-') {
			out[o++] = *host;
			dot = 0;
		} else if (!dot) {
			out[o++] = '.';
			dot = 1;
		}
	}
	while (o > 0 && out[o - 1] == '.')
		o--;
	if (o == 0) {
		strcpy(out, "perfwatch.invalid");
		return out;
	}
	out[o] = '\0';
	return out;
}

/* The Message-ID of event ev in state `state`, with its brackets. */
static char *
msg_message_id_state(const struct notify_event *ev, const char *state)
{
	char	 hash[17], word[32], *domain, *out;

	msg_alert_hash(ev, hash);
	msg_state_word(word, sizeof(word), state);
	domain = msg_id_domain(ev->host, MSG_LABEL_MAX);
	if (ev->test)
		xasprintf(&out, "<perfwatch-test-%s@%s>", hash, domain);
	else
		xasprintf(&out, "<perfwatch-alert-%lld-%s-%s@%s>",
		    (long long)ev->alert, word, hash, domain);
	free(domain);
	return out;
}

/*
 * The Message-ID of the email about ev: one per alert and state, so a
 * retry never makes a second, different message.
 */
char *
notify_message_id(const struct notify_event *ev)
{
	return msg_message_id_state(ev, ev->state);
}

/* A string member of the payload, or "". */
static const char *
msg_payload_str(const struct notify_event *ev, const char *key)
{
	const json_t	*v = json_object_get(ev->payload, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* 1 if the event is about an improvement. */
static int
msg_improvement(const struct notify_event *ev)
{
	return strcmp(ev->direction, "improvement") == 0;
}

/* "[perfwatch] host: sys.pipe throughput -22.4% (confirmed)" */
char *
notify_subject(const struct notify_event *ev)
{
	char	*host, *name, *state, *sink, *out, pct[32], num[24];

	host = notify_clean(ev->host, MSG_NAME_MAX);
	if (ev->test) {
		sink = notify_clean(msg_payload_str(ev, "sink"),
		    MSG_NAME_MAX);
		xasprintf(&out, "[perfwatch] %s: test message (sink %s)",
		    host, sink);
		free(sink);
		free(host);
		return out;
	}
	name = msg_metric_name(ev->workload, ev->metric);
	state = notify_clean(ev->state, 32);
	if (isnan(ev->change_pct) || isinf(ev->change_pct))
		pct[0] = '\0';
	else {
		msg_pct(num, sizeof(num), ev->change_pct);
		snprintf(pct, sizeof(pct), " %s", num);
	}
	xasprintf(&out, "[perfwatch] %s: %s%s (%s%s)", host, name, pct,
	    msg_improvement(ev) ? "improvement, " : "", state);
	free(host);
	free(name);
	free(state);
	return out;
}

/* The first paragraph: what happened, in one sentence. */
static void
msg_headline(FILE *f, const struct notify_event *ev, const char *host,
    const char *name)
{
	char	by[48], num[24];

	if (isnan(ev->change_pct) || isinf(ev->change_pct))
		by[0] = '\0';
	else {
		msg_pct(num, sizeof(num), fabs(ev->change_pct));
		/* Unsigned: "regressed by 22.4%". */
		snprintf(by, sizeof(by), " by %s", num + 1);
	}
	fprintf(f, "perfwatch on %s: ", host);
	/*
	 * A resolution says the shift is over, whichever way it went: an
	 * improvement's, whose change is that of the run back at the old
	 * level, read "improved by 0.0% (resolved)".
	 */
	if (strcmp(ev->state, "resolved") == 0 && ev->superseded_by > 0)
		fprintf(f, "%s moved on from this %s: a further shift the "
		    "same way is alert #%lld (resolved).\n", name,
		    msg_improvement(ev) ? "improvement" : "regression",
		    (long long)ev->superseded_by);
	else if (strcmp(ev->state, "resolved") == 0 && ev->previous != NULL &&
	    strcmp(ev->previous, "suspected") == 0)
		fprintf(f, "the suspected %s of %s is cleared (resolved).\n",
		    msg_improvement(ev) ? "improvement" : "regression", name);
	else if (strcmp(ev->state, "resolved") == 0)
		fprintf(f, "%s is back within the noise of its baseline "
		    "(resolved).\n", name);
	else if (msg_improvement(ev))
		fprintf(f, "%s improved%s (%s).\n", name, by, ev->state);
	else if (strcmp(ev->state, "suspected") == 0)
		fprintf(f, "%s may have regressed%s (suspected: the next run "
		    "confirms or clears it).\n", name, by);
	else if (strcmp(ev->state, "confirmed") == 0)
		fprintf(f, "%s regressed%s (confirmed).\n", name, by);
	else if (strcmp(ev->state, "acknowledged") == 0)
		fprintf(f, "the regression of %s%s was acknowledged.\n", name,
		    by);
	else
		fprintf(f, "%s changed%s (%s).\n", name, by, ev->state);
}

/* The alert's numbers, one per line. */
static void
msg_summary(FILE *f, const struct notify_event *ev)
{
	char	 a[64], b[64], c[64], *unit, *base, *run, *good, *bad;
	char	*prev, *state, *d;

	unit = notify_clean(ev->unit, 32);
	base = notify_clean(ev->baseline_name, MSG_NAME_MAX);
	run = notify_clean(ev->run, MSG_NAME_MAX);
	good = notify_clean(ev->last_good_run, MSG_NAME_MAX);
	bad = notify_clean(ev->first_bad_run, MSG_NAME_MAX);
	prev = notify_clean(ev->previous != NULL ? ev->previous : "new", 32);
	state = notify_clean(ev->state, 32);
	fprintf(f, "\n  alert      #%lld, %s -> %s\n", (long long)ev->alert,
	    prev, state);
	msg_pct(a, sizeof(a), ev->change_pct);
	msg_ci(b, sizeof(b), ev->ci_low, ev->ci_high);
	msg_q(c, sizeof(c), ev->q);
	fprintf(f, "  change     %s, 95%% CI %s, q %s\n", a, b, c);
	msg_num(a, sizeof(a), ev->baseline);
	msg_noise(b, sizeof(b), ev->noise);
	/* The whole name: cut short, a pinned one could pass for another. */
	if (*base != '\0' && ev->baseline_runs > 0)
		xasprintf(&d, " (%s, %lld runs)", base,
		    (long long)ev->baseline_runs);
	else
		d = xstrdup("");
	fprintf(f, "  baseline   %s ± %s %s%s\n", a, b, unit, d);
	free(d);
	msg_num(a, sizeof(a), ev->current);
	fprintf(f, "  current    %s %s%s%s%s\n", a, unit,
	    *run != '\0' ? " (run " : "", run, *run != '\0' ? ")" : "");
	fprintf(f, "  runs       last good %s, first bad %s\n",
	    *good != '\0' ? good : "-", *bad != '\0' ? bad : "-");
	fprintf(f, "  better     %s\n", better_name(ev->better));
	free(unit);
	free(base);
	free(run);
	free(good);
	free(bad);
	free(prev);
	free(state);
}

/* The table of the metrics, in the manner of LKP's compare output. */
static void
msg_table(FILE *f, const struct notify_event *ev)
{
	static const char *const hdr[] = { "baseline", "current", "change",
	    "95% CI", "q", "metric" };
	const struct notify_metric	*m;
	char				*cell[6], num[64], sp[64];
	char				**cells;
	size_t				 w[6], i, j, n = ev->nmetrics;

	if (n == 0)
		return;
	cells = xcalloc(n * 6, sizeof(*cells));
	for (j = 0; j < 6; j++)
		w[j] = msg_width(hdr[j]);
	for (i = 0; i < n; i++) {
		m = &ev->metrics[i];
		msg_num(num, sizeof(num), m->baseline);
		if (!isnan(m->noise) && !isnan(m->baseline) &&
		    m->baseline != 0) {
			msg_pct_num(sp, sizeof(sp),
			    100 * m->noise / fabs(m->baseline));
			/* Unsigned: "1000 ± 0.3%". */
			memmove(sp, sp + 1, strlen(sp));
			xasprintf(&cell[0], "%s ± %s%%", num, sp);
		} else
			cell[0] = xstrdup(num);
		msg_num(num, sizeof(num), m->current);
		cell[1] = xstrdup(num);
		msg_pct(num, sizeof(num), m->change_pct);
		cell[2] = xstrdup(num);
		msg_ci(num, sizeof(num), m->ci_low, m->ci_high);
		cell[3] = xstrdup(num);
		msg_q(num, sizeof(num), m->q);
		cell[4] = xstrdup(num);
		cell[5] = msg_metric_name(m->workload, m->metric);
		if (*m->unit != '\0') {
			char *unit = notify_clean(m->unit, 32), *t;

			xasprintf(&t, "%s (%s)", cell[5], unit);
			free(cell[5]);
			free(unit);
			cell[5] = t;
		}
		for (j = 0; j < 6; j++) {
			cells[i * 6 + j] = cell[j];
			if (msg_width(cell[j]) > w[j])
				w[j] = msg_width(cell[j]);
		}
	}
	if (n == 1)
		fprintf(f, "\nThe metric (baseline: level ± between-run "
		    "noise):\n\n");
	else
		fprintf(f, "\nRegressed metrics of the run (baseline: level "
		    "± between-run noise):\n\n");
	fputs("  ", f);
	for (j = 0; j < 6; j++) {
		msg_cell(f, hdr[j], j == 5 ? 0 : w[j], j < 5);
		fputs(j < 5 ? "  " : "\n", f);
	}
	for (i = 0; i < n; i++) {
		fputs("  ", f);
		for (j = 0; j < 6; j++) {
			msg_cell(f, cells[i * 6 + j], j == 5 ? 0 : w[j],
			    j < 5);
			fputs(j < 5 ? "  " : "\n", f);
		}
	}
	for (i = 0; i < n * 6; i++)
		free(cells[i]);
	free(cells);
}

/* What changed on the machine between the last good and first bad run. */
static void
msg_diff(FILE *f, const struct notify_event *ev)
{
	char	*good, *bad, *text, *line, *next, *clean;
	size_t	 i;

	if (ev->test)
		return;
	good = notify_clean(ev->last_good_run, MSG_NAME_MAX);
	bad = notify_clean(ev->first_bad_run, MSG_NAME_MAX);
	if (ev->diff == NULL) {
		fprintf(f, "\nMachine diff: none, %s.\n", ev->diff_note != NULL ?
		    ev->diff_note : "no runs to compare");
	} else if (ev->diff->nchanges == 0) {
		fprintf(f, "\nThe machine did not change between %s (last good) "
		    "and %s (first bad).\n", good, bad);
	} else {
		fprintf(f, "\nWhat changed on the machine from %s (last good) "
		    "to %s (first bad):\n\n", good, bad);
		/* Line by line, the blank one between fields and packages too. */
		text = sysinfo_diff_text(ev->diff);
		for (line = text; *line != '\0'; line = next) {
			if ((next = strchr(line, '\n')) != NULL)
				*next++ = '\0';
			else
				next = line + strlen(line);
			if (*line == '\0') {
				fputc('\n', f);
				continue;
			}
			clean = notify_clean(line, 0);
			fprintf(f, "  %s\n", clean);
			free(clean);
		}
		free(text);
	}
	if (ev->ngit > 0) {
		fprintf(f, "\nWatched git trees that moved from %s to %s:\n\n",
		    good, bad);
		for (i = 0; i < ev->ngit; i++) {
			char	*from, *to;

			clean = notify_clean(ev->git[i].name, MSG_NAME_MAX);
			from = notify_clean(ev->git[i].good, 64);
			to = notify_clean(ev->git[i].bad, 64);
			fprintf(f, "  %s  %.12s \xe2\x86\x92 %.12s\n", clean,
			    from, to);
			free(clean);
			free(from);
			free(to);
		}
	}
	free(good);
	free(bad);
}

/* One metric's last runs as a row of block characters. */
static void
msg_chart(FILE *f, const struct notify_metric *m)
{
	char	*name, *first, *last, lo[64], hi[64], cur[64];
	double	 min = INFINITY, max = -INFINITY, v;
	size_t	 i, k;

	for (i = 0; i < m->nruns; i++) {
		v = m->medians[i];
		if (isnan(v))
			continue;
		if (v < min)
			min = v;
		if (v > max)
			max = v;
	}
	if (isinf(min))
		return;
	name = msg_metric_name(m->workload, m->metric);
	fprintf(f, "  %s\n    ", name);
	for (i = 0; i < m->nruns; i++) {
		if (i == m->first_bad && i > 0)
			fputc('|', f);
		v = m->medians[i];
		if (isnan(v)) {
			fputs("\u00b7", f);
			continue;
		}
		k = max > min ? (size_t)lround(7 * (v - min) / (max - min)) : 3;
		fputs(msg_blocks[k > 7 ? 7 : k], f);
	}
	msg_num(lo, sizeof(lo), min);
	msg_num(hi, sizeof(hi), max);
	msg_num(cur, sizeof(cur), m->medians[m->nruns - 1]);
	first = notify_clean(m->runs[0], MSG_NAME_MAX);
	last = notify_clean(m->runs[m->nruns - 1], MSG_NAME_MAX);
	fprintf(f, "   min %s, max %s, last %s\n    runs %s .. %s\n", lo, hi,
	    cur, first, last);
	free(first);
	free(last);
	free(name);
}

/* The charts of every metric that has runs. */
static void
msg_charts(FILE *f, const struct notify_event *ev)
{
	size_t	i, with = 0;

	for (i = 0; i < ev->nmetrics; i++)
		if (ev->metrics[i].nruns > 0)
			with++;
	if (with == 0)
		return;
	fprintf(f, "\nThe last runs, oldest first (run medians; '|' before "
	    "the first bad run):\n\n");
	for (i = 0; i < ev->nmetrics; i++)
		if (ev->metrics[i].nruns > 0)
			msg_chart(f, &ev->metrics[i]);
}

/* A run on a command line: its label, or HOST:label with ev->qualify. */
static char *
msg_run_word(const struct notify_event *ev, const char *label)
{
	char	*both, *out;

	if (!ev->qualify)
		return msg_shell_word(label);
	xasprintf(&both, "%s:%s", ev->host, label);
	out = msg_shell_word(both);
	free(both);
	return out;
}

/*
 * The commands that look further.  In a database that holds other
 * hosts' runs under the same labels, they name the alert's host, or
 * compare and env diff would refuse the labels as ambiguous.
 */
static void
msg_commands(FILE *f, const struct notify_event *ev)
{
	char	*good, *bad, *w, *m, *name, *host = NULL;
	size_t	 i;

	if (ev->test)
		return;
	fprintf(f, "\nTo look further:\n\n");
	if (*ev->last_good_run != '\0' && *ev->first_bad_run != '\0') {
		good = msg_run_word(ev, ev->last_good_run);
		bad = msg_run_word(ev, ev->first_bad_run);
		fprintf(f, "  perfwatch compare %s %s\n", good, bad);
		fprintf(f, "  perfwatch env diff %s %s\n", good, bad);
		free(good);
		free(bad);
	}
	/* The commit that did it, in each tree that moved. */
	for (i = 0; i < ev->ngit; i++) {
		name = msg_shell_word(ev->git[i].name);
		good = msg_shell_word(ev->git[i].good);
		bad = msg_shell_word(ev->git[i].bad);
		fprintf(f, "  perfwatch bisect --git %s %s..%s\n", name, good,
		    bad);
		free(name);
		free(good);
		free(bad);
	}
	w = msg_shell_word(ev->workload);
	m = msg_shell_word(ev->metric);
	if (ev->qualify) {
		name = msg_shell_word(ev->host);
		xasprintf(&host, " --host %s", name);
		free(name);
	}
	fprintf(f, "  perfwatch history%s --workload %s --metric %s\n",
	    host != NULL ? host : "", w, m);
	fprintf(f, "  perfwatch changes%s --workload %s --metric %s\n",
	    host != NULL ? host : "", w, m);
	free(host);
	free(w);
	free(m);
	if (ev->alert > 0 && (strcmp(ev->state, "suspected") == 0 ||
	    strcmp(ev->state, "confirmed") == 0))
		fprintf(f, "  perfwatch alerts ack %lld\n", (long long)ev->alert);
}

/* The plain-text report of ev, lines ending in "\n". */
char *
notify_text(const struct notify_event *ev)
{
	char	*out, *host, *name, *sink;
	size_t	 len;
	FILE	*f;

	f = msg_open(&out, &len);
	host = notify_clean(ev->host, MSG_NAME_MAX);
	if (ev->test) {
		sink = notify_clean(msg_payload_str(ev, "sink"), MSG_NAME_MAX);
		fprintf(f, "This is a test message from perfwatch on %s, sent "
		    "through the sink\n\"%s\" by \"perfwatch notify test\".  "
		    "If you read it, the alerts of\nthis sink reach you.\n",
		    host, sink);
		free(sink);
	} else {
		name = msg_metric_name(ev->workload, ev->metric);
		msg_headline(f, ev, host, name);
		free(name);
		msg_summary(f, ev);
		msg_table(f, ev);
		msg_diff(f, ev);
		msg_charts(f, ev);
		msg_commands(f, ev);
	}
	fprintf(f, "\n-- \nperfwatch %s", PERFWATCH_VERSION);
	if (ev->outbox > 0)
		fprintf(f, ", alert %lld, outbox row %lld", (long long)ev->alert,
		    (long long)ev->outbox);
	fputc('\n', f);
	fclose(f);
	free(host);
	return out;
}

/* One line for the log sink. */
char *
notify_log_line(const struct notify_event *ev)
{
	char	*out, *host, *name, *state, *good, *bad, *sum, *clean, pct[32];
	size_t	 len;
	FILE	*f;

	host = notify_clean(ev->host, MSG_NAME_MAX);
	f = msg_open(&out, &len);
	if (ev->test) {
		clean = notify_clean(msg_payload_str(ev, "sink"), MSG_NAME_MAX);
		fprintf(f, "test message for sink %s on %s", clean, host);
		free(clean);
		fclose(f);
		free(host);
		return out;
	}
	name = msg_metric_name(ev->workload, ev->metric);
	state = notify_clean(ev->state, 32);
	msg_pct(pct, sizeof(pct), ev->change_pct);
	fprintf(f, "alert #%lld on %s: %s %s %s%s", (long long)ev->alert, host,
	    name, pct, msg_improvement(ev) ? "improvement " : "", state);
	if (ev->previous != NULL) {
		clean = notify_clean(ev->previous, 32);
		fprintf(f, " (was %s)", clean);
		free(clean);
	}
	if (ev->superseded_by > 0)
		fprintf(f, "; superseded by alert #%lld",
		    (long long)ev->superseded_by);
	good = notify_clean(ev->last_good_run, MSG_NAME_MAX);
	bad = notify_clean(ev->first_bad_run, MSG_NAME_MAX);
	fprintf(f, "; last good %s, first bad %s", *good != '\0' ? good : "-",
	    *bad != '\0' ? bad : "-");
	if (ev->diff != NULL) {
		sum = sysinfo_diff_summary(ev->diff, 3);
		clean = notify_clean(sum, 0);
		fprintf(f, "; machine: %s", clean);
		free(clean);
		free(sum);
	}
	fclose(f);
	free(host);
	free(name);
	free(state);
	free(good);
	free(bad);
	return out;
}

/* A number for JSON, null when absent. */
static json_t *
msg_json_num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* One metric line as JSON. */
static json_t *
msg_metric_json(const struct notify_metric *m)
{
	json_t	*o, *h, *r;
	size_t	 i;

	o = pwjson_object();
	pwjson_set_str(o, "workload", m->workload);
	pwjson_set_str(o, "metric", m->metric);
	pwjson_set_str(o, "unit", m->unit);
	pwjson_set_str(o, "better", better_name(m->better));
	pwjson_set_bool(o, "alert_metric", m->own);
	pwjson_set(o, "baseline", msg_json_num(m->baseline));
	pwjson_set(o, "noise", msg_json_num(m->noise));
	pwjson_set(o, "current", msg_json_num(m->current));
	pwjson_set(o, "change_pct", msg_json_num(m->change_pct));
	pwjson_set(o, "ci_low", msg_json_num(m->ci_low));
	pwjson_set(o, "ci_high", msg_json_num(m->ci_high));
	pwjson_set(o, "q", msg_json_num(m->q));
	h = pwjson_array();
	for (i = 0; i < m->nruns; i++) {
		r = pwjson_object();
		pwjson_set_str(r, "run", m->runs[i]);
		pwjson_set(r, "median", msg_json_num(m->medians[i]));
		pwjson_set_bool(r, "first_bad", i == m->first_bad);
		pwjson_append(h, r);
	}
	pwjson_set(o, "history", h);
	return o;
}

/*
 * The document a webhook receives: the event's id and subject, the alert
 * as detect/ queued it, the metric lines with their last runs, the
 * machine diff (null with a note when there is none), the watched git
 * trees that moved ("git": name, from, to) and the text report.
 */
json_t *
notify_webhook_json(const struct notify_event *ev)
{
	json_t	*o, *arr, *d;
	char	*s;
	size_t	 i;

	o = pwjson_object();
	s = notify_event_id(ev);
	pwjson_set_str(o, "event", s);
	free(s);
	s = notify_subject(ev);
	pwjson_set_str(o, "subject", s);
	free(s);
	pwjson_set_bool(o, "test", ev->test);
	pwjson_set(o, "alert", json_incref(ev->payload));
	arr = pwjson_array();
	for (i = 0; i < ev->nmetrics && !ev->test; i++)
		pwjson_append(arr, msg_metric_json(&ev->metrics[i]));
	pwjson_set(o, "metrics", arr);
	if (ev->diff != NULL) {
		d = pwjson_object();
		pwjson_set_str(d, "from", ev->last_good_run);
		pwjson_set_str(d, "to", ev->first_bad_run);
		pwjson_set(d, "changes", sysinfo_diff_json(ev->diff));
		pwjson_set(o, "machine_diff", d);
	} else {
		pwjson_set(o, "machine_diff", json_null());
		pwjson_set_str(o, "machine_diff_note", ev->diff_note);
	}
	arr = pwjson_array();
	for (i = 0; i < ev->ngit; i++) {
		d = pwjson_object();
		pwjson_set_str(d, "name", ev->git[i].name);
		pwjson_set_str(d, "from", ev->git[i].good);
		pwjson_set_str(d, "to", ev->git[i].bad);
		pwjson_append(arr, d);
	}
	pwjson_set(o, "git", arr);
	s = notify_text(ev);
	pwjson_set_str(o, "text", s);
	free(s);
	return o;
}

/*
 * Whether name is a fully qualified host name fit for an address: letters,
 * digits, hyphens and dots, a dot inside, not an IPv4 address, not
 * localhost's (whose domain no other machine can reach).
 */
int
notify_host_qualified(const char *name)
{
	const char	*p;
	int		 dot = 0, alpha = 0;

	if (name == NULL || *name == '\0' || *name == '.' ||
	    strcasecmp(name, "localhost") == 0 ||
	    strncasecmp(name, "localhost.", 10) == 0)
		return 0;
	for (p = name; *p != '\0'; p++) {
		if (*p == '.') {
			if (p[1] == '\0' || p[1] == '.')
				return 0;
			dot = 1;
		} else if ((*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || *p == '-')
			alpha = 1;
		else if (*p < '0' || *p > '9')
			return 0;
	}
	return dot && alpha;
}

/*
 * The name of this machine in the default sender's address, from its
 * hostname and the canonical name the resolver gives for it (NULL: none
 * found): the hostname when it is fully qualified, else the canonical
 * name when it is, else the hostname all the same (*qualified 0: an
 * address that many SMTP servers refuse, RFC 5321 wanting a domain).
 */
char *
notify_mail_host(const char *hostname, const char *canonical,
    int *qualified)
{
	*qualified = 1;
	if (notify_host_qualified(hostname))
		return xstrdup(hostname);
	if (notify_host_qualified(canonical))
		return xstrdup(canonical);
	*qualified = 0;
	return xstrdup(hostname != NULL ? hostname : "");
}

/*
 * The From address of sink's messages, as a header writes it: the sink's
 * from, or "perfwatch <perfwatch@HOST>" with this machine's name made
 * into a domain.
 */
char *
notify_from(const struct notify_sink *sink, const char *hostname)
{
	char	*domain, *out;

	if (sink != NULL && sink->from != NULL)
		return xstrdup(sink->from);
	domain = msg_id_domain(hostname != NULL ? hostname : "",
	    MSG_DOMAIN_MAX);
	xasprintf(&out, "perfwatch <perfwatch@%s>", domain);
	free(domain);
	return out;
}

/*
 * The whole email about ev for sink, lines ending in "\n": headers (every
 * value that comes from the store encoded by notify_header), then the
 * report as quoted-printable UTF-8.  The Date is when the row was queued
 * and the Message-ID that of the alert and state, so each attempt sends
 * the same message; a later state refers to the one before it.
 */
char *
notify_email(const struct notify_event *ev, const struct notify_sink *sink,
    const char *hostname)
{
	char	*out, *h, *v, *from, *fromv[2], *body, *qp, state[32];
	char	*none[] = { NULL };
	size_t	 len;
	FILE	*f;

	f = msg_open(&out, &len);
	v = notify_rfc5322_date(ev->created);
	h = notify_header("Date", v);
	fputs(h, f);
	free(h);
	free(v);
	from = notify_from(sink, hostname);
	fromv[0] = from;
	fromv[1] = NULL;
	h = notify_address_header("From", fromv);
	fputs(h, f);
	free(h);
	free(from);
	h = notify_address_header("To", sink != NULL && sink->to != NULL ?
	    sink->to : none);
	fputs(h, f);
	free(h);
	v = notify_subject(ev);
	h = notify_header("Subject", v);
	fputs(h, f);
	free(h);
	free(v);
	v = notify_message_id(ev);
	h = notify_header("Message-ID", v);
	fputs(h, f);
	free(h);
	free(v);
	if (!ev->test && ev->previous != NULL) {
		v = msg_message_id_state(ev, ev->previous);
		h = notify_header("In-Reply-To", v);
		fputs(h, f);
		free(h);
		h = notify_header("References", v);
		fputs(h, f);
		free(h);
		free(v);
	}
	fputs("MIME-Version: 1.0\n"
	    "Content-Type: text/plain; charset=UTF-8\n"
	    "Content-Transfer-Encoding: quoted-printable\n"
	    "Auto-Submitted: auto-generated\n", f);
	v = notify_event_id(ev);
	h = notify_header("X-Perfwatch-Event", v);
	fputs(h, f);
	free(h);
	free(v);
	if (!ev->test) {
		msg_state_word(state, sizeof(state), ev->state);
		fprintf(f, "X-Perfwatch-Alert: %lld\nX-Perfwatch-State: %s\n",
		    (long long)ev->alert, state);
	}
	fputc('\n', f);
	body = notify_text(ev);
	qp = notify_qp_encode(body);
	fputs(qp, f);
	free(qp);
	free(body);
	fclose(f);
	return out;
}
