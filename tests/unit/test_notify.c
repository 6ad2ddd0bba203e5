/*
 * notify/: SMTP replies as they are kept, header encoding that nothing
 * from the store can break out of, message rendering (subject, table,
 * machine diff, chart, Message-ID), the backoff schedule, HMAC-SHA256
 * against RFC 4231, the secret file checks, a sendmail that does not
 * exit killed at the timeout, and whole flushes over a real store with
 * a sendmail stand-in (a shell script whose exit status the test
 * chooses, or one that has the store locked before the delivery is
 * recorded).
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "config.h"
#include "json.h"
#include "xmalloc.h"
#include "notify/notify.h"
#include "store/store.h"
#include "sysinfo/sysinfo.h"

/*
 * notify/flush.c itself, chrony-style, so that a delivery's record gives
 * up after 1 s of a locked store rather than 120.
 */
#define FLUSH_RECORD_WAIT	1
#include "../../notify/flush.c"
/* And notify/email.c, for the SMTP replies as they are kept. */
#include "../../notify/email.c"

static char	tmpdir[] = "/tmp/pw-test-notify.XXXXXX";
static int	nfile;

/* A fresh path in the test's directory. */
static char *
tmp_path(const char *what)
{
	char	*p;

	xasprintf(&p, "%s/%s%d", tmpdir, what, ++nfile);
	return p;
}

/* Write text to path with mode. */
static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* Read a whole file; NULL when it does not exist. */
static char *
read_file(const char *path)
{
	FILE	*f = fopen(path, "rb");
	char	*buf;
	long	 n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Decode base64 (no line breaks) into out; its length. */
static size_t
b64_decode(const char *in, size_t len, unsigned char *out)
{
	static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t	acc = 0;
	size_t		i, o = 0;
	int		bits = 0;
	const char	*p;

	for (i = 0; i < len && in[i] != '='; i++) {
		p = strchr(alpha, in[i]);
		assert_non_null(p);
		acc = (acc << 6) | (uint32_t)(p - alpha);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	return o;
}

/*
 * Unfold a header ("Name: ..." with continuation lines) and decode its
 * encoded words as a mail reader does: the value, allocated.
 */
static char *
header_decode(const char *header)
{
	char		*out = xmalloc(strlen(header) + 1), *end;
	const char	*p, *q;
	size_t		 o = 0, word_end = 0;
	int		 last_word = 0;

	p = strchr(header, ':');
	assert_non_null(p);
	p++;
	while (*p != '\0') {
		if (*p == '\n') {	/* a fold: CRLF WSP is a blank */
			p++;
			continue;
		}
		if (strncmp(p, "=?UTF-8?B?", 10) == 0) {
			q = p + 10;
			end = strstr(q, "?=");
			assert_non_null(end);
			/* Blanks between two encoded words are dropped. */
			if (last_word)
				o = word_end;
			o += b64_decode(q, (size_t)(end - q),
			    (unsigned char *)out + o);
			word_end = o;
			p = end + 2;
			last_word = 1;
			continue;
		}
		if (*p != ' ')
			last_word = 0;
		out[o++] = *p++;
	}
	out[o] = '\0';
	/* Drop the blank after the colon. */
	if (out[0] == ' ')
		memmove(out, out + 1, o);
	return out;
}

/* The payload detect/ writes, with the names given. */
static char *
payload(const char *host, const char *workload, const char *metric,
    const char *state, const char *previous)
{
	json_t	*o, *b;
	char	*s;

	o = pwjson_object();
	pwjson_set_int(o, "alert", 7);
	pwjson_set_str(o, "state", state);
	pwjson_set_str(o, "previous", previous);
	pwjson_set_str(o, "direction", "regression");
	pwjson_set_str(o, "host", host);
	pwjson_set_str(o, "workload", workload);
	pwjson_set_str(o, "metric", metric);
	pwjson_set_str(o, "unit", "lps");
	pwjson_set_str(o, "better", "higher");
	pwjson_set_str(o, "run", "r12");
	pwjson_set_str(o, "first_bad_run", "r11");
	pwjson_set_str(o, "last_good_run", "r10");
	pwjson_set_num(o, "change_pct", -22.4375);
	pwjson_set_num(o, "ci_low", -22.91);
	pwjson_set_num(o, "ci_high", -21.88);
	pwjson_set_num(o, "q", 0.00029);
	pwjson_set_num(o, "current", 776);
	b = pwjson_object();
	pwjson_set_str(b, "name", "rolling");
	pwjson_set_num(b, "level", 1000);
	pwjson_set_num(b, "noise", 3);
	pwjson_set_int(b, "runs", 10);
	pwjson_set(o, "baseline", b);
	pwjson_set(o, "attribution", json_null());
	pwjson_set_int(o, "time", 1700000000);
	s = pwjson_dumps(o, PWJSON_COMPACT);
	json_decref(o);
	return s;
}

/* Parse a payload into ev, which the caller clears. */
static void
event_of(struct notify_event *ev, const char *host, const char *metric,
    const char *state, const char *previous, int64_t created)
{
	char	*p, *cause = NULL;

	p = payload(host, "sys.pipe", metric, state, previous);
	assert_int_equal(notify_event_parse(ev, 3, p, created, &cause), 0);
	assert_null(cause);
	free(p);
}

/*
 * text with its first at, and what follows it up to upto when upto is
 * not NULL, replaced by with: a payload as an older perfwatch queued it.
 * what names the case when at or upto is not in the text.
 */
static char *
payload_edit(const char *what, const char *text, const char *at,
    const char *upto, const char *with)
{
	const char	*k, *end;
	char		*out;

	if ((k = strstr(text, at)) == NULL)
		fail_msg("%s: no %s in %s", what, at, text);
	if (upto == NULL)
		end = k + strlen(at);
	else if ((end = strstr(k, upto)) == NULL)
		fail_msg("%s: no %s after %s in %s", what, upto, at, text);
	xasprintf(&out, "%.*s%s%s", (int)(k - text), text, with, end);
	return out;
}

/* ev parsed from text, as the outbox's row 3 made at 100, or what fails. */
static void
event_parse_ok(struct notify_event *ev, const char *what, const char *text)
{
	char	*cause = NULL;
	int	 rc;

	rc = notify_event_parse(ev, 3, text, 100, &cause);
	if (rc != 0)
		fail_msg("%s: parse gave %d: %s", what, rc,
		    cause != NULL ? cause : "(no cause)");
	assert_null(cause);
}

/*
 * ev parsed from box's sys.pipe throughput alert, state (was previous),
 * edited as payload_edit does; what names the case.
 */
static void
event_edited(struct notify_event *ev, const char *what, const char *state,
    const char *previous, const char *at, const char *upto, const char *with)
{
	char	*p, *old;

	p = payload("box", "sys.pipe", "throughput", state, previous);
	old = payload_edit(what, p, at, upto, with);
	event_parse_ok(ev, what, old);
	free(old);
	free(p);
}

/*
 * config_url_shown, as the notifiers show a sink's URL: a password as
 * "***", a user with none (a token, as often) too, written TOKEN:@ as
 * well (that showed the token), and nothing else.  A password with a
 * '/', '?' or '#' written as it is, which ends the host part early, is
 * hidden up to the last '@' (it was shown whole).
 */
static void
test_url_shown(void **state)
{
	static const char *const cases[][2] = {
		{ "http://bot:s3cret@hooks.example.org/x",
		    "http://bot:***@hooks.example.org/x" },
		{ "smtp://me:pa@ss@127.0.0.1:25", "smtp://me:***@127.0.0.1:25" },
		{ "https://bot@hooks.example.org/x",
		    "https://***@hooks.example.org/x" },
		{ "https://ghp_T0K3N@hooks.example.org/x?a=b@c",
		    "https://***@hooks.example.org/x?a=b@c" },
		{ "https://hooks.example.org/a:b@c?d=e:f@g#h:i@j",
		    "https://hooks.example.org/a:b@c?d=e:f@g#h:i@j" },
		{ "http://u:p@h?q", "http://u:***@h?q" },
		{ "http://sk_live_T0K3N:@127.0.0.1:1/x",
		    "http://***@127.0.0.1:1/x" },
		{ "https://:@h/", "https://***@h/" },
		{ "http://127.0.0.1:8080/", "http://127.0.0.1:8080/" },
		{ "smtp://ops:Secr/et@mail.example.org:587",
		    "smtp://ops:***@mail.example.org:587" },
		{ "https://bot:p?ss#w@hooks.example.org/x",
		    "https://bot:***@hooks.example.org/x" },
		{ "smtps://:a/b@c@mail.example.org/",
		    "smtps://:***@mail.example.org/" },
		{ "http://u:p/w@h/x@y", "http://u:***@y" },
		{ "http://alerts:9093/@ops?to=a@b",
		    "http://alerts:9093/@ops?to=a@b" },
		{ "not a url", "not a url" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		s = config_url_shown(cases[i][0]);
		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

/* notify_clean: controls become blanks, bad UTF-8 '?', cut at a char. */
static void
test_clean(void **state)
{
	char	*s;

	(void)state;
	s = notify_clean("a\r\nb\tc\x7f" "d", 0);
	assert_string_equal(s, "a  b c d");
	free(s);
	/* C1 control U+0085 (NEL) and U+2028 are line breaks too. */
	s = notify_clean("x\xc2\x85y\xe2\x80\xa8z", 0);
	assert_string_equal(s, "x y z");
	free(s);
	/* Invalid: a lone continuation byte, an overlong '/', a surrogate. */
	s = notify_clean("a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d", 0);
	assert_string_equal(s, "a?b??c???d");
	free(s);
	s = notify_clean("h\xc3\xa9llo w\xc3\xb6rld", 0);
	assert_string_equal(s, "h\xc3\xa9llo w\xc3\xb6rld");
	free(s);
	/* Cut at 4 bytes: never inside the two bytes of an e-acute. */
	s = notify_clean("abc\xc3\xa9xyz", 4);
	assert_string_equal(s, "abc...");
	free(s);
	s = notify_clean(NULL, 0);
	assert_string_equal(s, "");
	free(s);
}

/* A short ASCII header is written as it is. */
static void
test_header_plain(void **state)
{
	char	*h;

	(void)state;
	h = notify_header("Subject", "[perfwatch] box: sys.pipe throughput "
	    "-22.4% (confirmed)");
	assert_string_equal(h, "Subject: [perfwatch] box: sys.pipe "
	    "throughput -22.4% (confirmed)\n");
	free(h);
	/* A long one is folded at blanks, every line within 78. */
	h = notify_header("Subject", "one two three four five six seven eight "
	    "nine ten eleven twelve thirteen fourteen fifteen sixteen");
	assert_string_equal(h, "Subject: one two three four five six seven "
	    "eight nine ten eleven twelve\n thirteen fourteen fifteen "
	    "sixteen\n");
	free(h);
}

/* Count the lines of text that start a header (not a continuation). */
static int
header_starts(const char *text)
{
	const char	*p = text;
	int		 n = 0;

	while (*p != '\0') {
		if (*p != ' ' && *p != '\t')
			n++;
		p = strchr(p, '\n');
		if (p == NULL)
			break;
		p++;
	}
	return n;
}

/*
 * A word longer than RFC 5322's 998-byte line (a 1200-character metric
 * name) cannot be folded at a blank: it goes as encoded words, every line
 * within 78, and decodes back whole.
 */
static void
test_header_long_word(void **state)
{
	char	 name[1201], value[1300], *h, *v;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(name) - 1; i++)
		name[i] = (char)('a' + i % 26);
	name[sizeof(name) - 1] = '\0';
	snprintf(value, sizeof(value), "[perfwatch] box: %s -22.4%%", name);
	h = notify_header("Subject", value);
	assert_int_equal(header_starts(h), 1);
	assert_non_null(strstr(h, "=?UTF-8?B?"));
	for (char *line = h, *nl; (nl = strchr(line, '\n')) != NULL;
	    line = nl + 1)
		assert_true(nl - line <= 78);
	v = header_decode(h);
	assert_string_equal(v, value);
	free(v);
	free(h);

	/* A word past 78 but within 998 stays plain (a Message-ID must). */
	name[200] = '\0';
	snprintf(value, sizeof(value), "<%s@box>", name);
	h = notify_header("Message-ID", value);
	assert_null(strstr(h, "=?"));
	assert_int_equal(strlen(h), strlen("Message-ID: ") + 200 + 6 + 1);
	free(h);
}

/* CR/LF cannot end a header; non-ASCII is encoded and decodes back. */
static void
test_header_injection(void **state)
{
	char	*h, *v;

	(void)state;
	h = notify_header("Subject", "[perfwatch] evil\r\nBcc: victim@"
	    "example.org\r\n\r\nbody: sys.pipe -22.4%");
	assert_int_equal(header_starts(h), 1);
	assert_null(strstr(h, "\nBcc:"));
	assert_null(strchr(h, '\r'));
	v = header_decode(h);
	assert_string_equal(v, "[perfwatch] evil Bcc: victim@example.org "
	    "body: sys.pipe -22.4%");
	free(v);
	free(h);

	/* Non-ASCII (and "=?" in plain text) go as encoded words. */
	h = notify_header("Subject", "[perfwatch] m\xc3\xa4schine: "
	    "durchsatz \xe2\x80\x94 =?x?= -3.1% (confirmed) and a long tail "
	    "to fold over more than one line");
	assert_int_equal(header_starts(h), 1);
	assert_non_null(strstr(h, "=?UTF-8?B?"));
	for (const char *p = h; *p != '\0'; p++)
		assert_true((unsigned char)*p < 0x80);
	for (char *line = h, *nl; (nl = strchr(line, '\n')) != NULL;
	    line = nl + 1)
		assert_true(nl - line <= 78);
	v = header_decode(h);
	assert_string_equal(v, "[perfwatch] m\xc3\xa4schine: durchsatz "
	    "\xe2\x80\x94 =?x?= -3.1% (confirmed) and a long tail to fold "
	    "over more than one line");
	free(v);
	free(h);
}

/* Address headers: display names quoted or encoded, addresses bare. */
static void
test_address_header(void **state)
{
	char	*to[] = { "Ops Team <ops@example.org>", "dev@example.org",
	    "J\xc3\xb6rg <j@example.org>", "Q. \"Public\" <q@example.org>",
	    NULL };
	char	*quoted[] = { "\"Ops Team\" <ops@example.org>",
	    "\"Q. \\\"Public\\\"\" <q@example.org>",
	    "\"J\xc3\xb6rg\" <j@example.org>", "\"\\\"\" <x@example.org>",
	    NULL };
	char	*long_name[] = { "\xc3\x89quipe perf du noyau (astreinte) "
	    "<kernel-performance-team@example.org>", "J\xc3\xb6rg "
	    "<j@example.org>", NULL };
	char	*h, *s;

	(void)state;
	h = notify_address_header("To", to);
	assert_string_equal(h, "To: \"Ops Team\" <ops@example.org>,\n "
	    "dev@example.org,\n =?UTF-8?B?SsO2cmc=?= <j@example.org>,\n "
	    "\"Q. \\\"Public\\\"\" <q@example.org>\n");
	free(h);
	/* A name written as a quoted string is not quoted twice. */
	h = notify_address_header("To", quoted);
	assert_string_equal(h, "To: \"Ops Team\" <ops@example.org>,\n "
	    "\"Q. \\\"Public\\\"\" <q@example.org>,\n "
	    "=?UTF-8?B?SsO2cmc=?= <j@example.org>,\n "
	    "\"\\\"\" <x@example.org>\n");
	free(h);
	/*
	 * A line with an encoded word is at most 76 characters (RFC 2047):
	 * an address that would make it longer goes on the next line.  The
	 * name's one word and the address together made 99.
	 */
	h = notify_address_header("To", long_name);
	assert_string_equal(h, "To: =?UTF-8?B?w4lxdWlwZSBwZXJmIGR1IG5veWF1"
	    "IChhc3RyZWludGUp?=\n <kernel-performance-team@example.org>,\n "
	    "=?UTF-8?B?SsO2cmc=?= <j@example.org>\n");
	for (s = h; *s != '\0'; s = strchr(s, '\n') + 1)
		assert_true(strchr(s, '\n') - s <= 76);
	free(h);
	s = notify_addr_spec("Ops <ops@example.org>");
	assert_string_equal(s, "ops@example.org");
	free(s);
	s = notify_addr_spec("plain@example.org");
	assert_string_equal(s, "plain@example.org");
	free(s);
}

/* Quoted-printable: RFC 2045 rules, known output. */
static void
test_qp(void **state)
{
	char	*s, line[200];
	size_t	 i;

	(void)state;
	s = notify_qp_encode("a=b \xc2\xb1 c \n.dot\nFrom here\ttab\t\nend");
	assert_string_equal(s, "a=3Db =C2=B1 c=20\n=2Edot\n=46rom here\ttab"
	    "=09\nend");
	free(s);
	/* A long line gets soft breaks; no line is over 76. */
	for (i = 0; i < 150; i++)
		line[i] = (char)('a' + i % 26);
	line[150] = '\0';
	s = notify_qp_encode(line);
	assert_non_null(strstr(s, "=\n"));
	for (char *l = s, *nl; l != NULL; l = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		assert_true((nl != NULL ? (size_t)(nl - l) : strlen(l)) <= 76);
	}
	free(s);
}

static void
test_date_crlf(void **state)
{
	char	*s;

	(void)state;
	s = notify_rfc5322_date(1700000000);
	assert_string_equal(s, "Tue, 14 Nov 2023 22:13:20 +0000");
	free(s);
	s = notify_crlf("a\nb\r\nc");
	assert_string_equal(s, "a\r\nb\r\nc");
	free(s);
}

/* mail_host(hostname, canonical): the name notify_mail_host picks. */
static void
expect_mail_host(const char *host, const char *canon, const char *want,
    int want_qualified)
{
	char	*got;
	int	 q = -1;

	got = notify_mail_host(host, canon, &q);
	assert_string_equal(got, want);
	assert_int_equal(q, want_qualified);
	free(got);
}

/*
 * The default sender's domain: the fully qualified name, the hostname's
 * own or the resolver's canonical name, never localhost's or an
 * address; the short name only when there is none.  An explicit from
 * wins whatever the name.
 */
static void
test_mail_host(void **state)
{
	struct notify_sink	 sink;
	char			*from;

	(void)state;
	expect_mail_host("vm", "vm.example.org", "vm.example.org", 1);
	expect_mail_host("box.lab.example.org", "other.example.org",
	    "box.lab.example.org", 1);
	expect_mail_host("vm", NULL, "vm", 0);
	expect_mail_host("vm", "vm", "vm", 0);
	expect_mail_host("vm", "localhost.localdomain", "vm", 0);
	expect_mail_host("vm", "LOCALHOST", "vm", 0);
	expect_mail_host("vm", "127.0.1.1", "vm", 0);
	expect_mail_host("vm", "vm.", "vm", 0);
	expect_mail_host("vm", "a..b", "vm", 0);
	expect_mail_host("vm", "vm.example.org\nX: y", "vm", 0);
	expect_mail_host("localhost.localdomain", "vm.example.org",
	    "vm.example.org", 1);
	expect_mail_host("", NULL, "", 0);

	memset(&sink, 0, sizeof(sink));
	sink.type = NOTIFY_EMAIL;
	from = notify_from(&sink, "vm.example.org");
	assert_string_equal(from, "perfwatch <perfwatch@vm.example.org>");
	free(from);
	sink.from = (char *)"Ops robot <robot@example.net>";
	from = notify_from(&sink, "vm");
	assert_string_equal(from, "Ops robot <robot@example.net>");
	free(from);
}

/* Subject, summary, table, commands of a confirmed regression. */
static void
test_render(void **state)
{
	struct notify_event	 ev;
	char			*s, *p, *k, *old, *both;

	(void)state;
	event_of(&ev, "box", "throughput", "confirmed", "suspected", 100);
	s = notify_subject(&ev);
	assert_string_equal(s, "[perfwatch] box: sys.pipe throughput -22.4% "
	    "(confirmed)");
	free(s);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "perfwatch on box: sys.pipe throughput "
	    "regressed by 22.4% (confirmed).\n"));
	assert_non_null(strstr(s, "  change     -22.4%, 95% CI [-22.9, "
	    "-21.9], q 0.00029\n"));
	assert_non_null(strstr(s, "  baseline   1000 \xc2\xb1 3 lps "
	    "(rolling, 10 runs)\n"));
	/* The table, LKP-like: baseline ± spread %, then the metric. */
	assert_non_null(strstr(s,
	    "     baseline  current  change          95% CI        q  metric\n"
	    "  1000 \xc2\xb1 0.3%      776  -22.4%  [-22.9, -21.9]  0.00029  "
	    "sys.pipe throughput (lps)\n"));
	/* No store: the diff is missing, and says so. */
	assert_non_null(strstr(s, "Machine diff: none"));
	assert_non_null(strstr(s, "  perfwatch compare r10 r11\n"));
	assert_non_null(strstr(s, "  perfwatch env diff r10 r11\n"));
	assert_non_null(strstr(s, "  perfwatch alerts ack 7\n"));
	free(s);
	s = notify_log_line(&ev);
	assert_string_equal(s, "alert #7 on box: sys.pipe throughput -22.4% "
	    "confirmed (was suspected); last good r10, first bad r11");
	free(s);
	notify_event_clear(&ev);

	/* A resolved suspicion says so, and offers no ack. */
	event_of(&ev, "box", "throughput", "resolved", "suspected", 100);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "the suspected regression of sys.pipe "
	    "throughput is cleared"));
	assert_null(strstr(s, "alerts ack"));
	free(s);
	notify_event_clear(&ev);

	/*
	 * An improvement's end is said as a regression's is: it read
	 * "improved by 0.0% (resolved)", the change of the run back at
	 * the old level.
	 */
	p = payload("box", "sys.pipe", "throughput", "resolved", "confirmed");
	old = payload_edit("improvement", p, "\"regression\"", NULL,
	    "\"improvement\"");
	free(p);
	p = payload_edit("improvement", old, "\"change_pct\":",
	    "\"ci_low\"", "\"change_pct\":0.01,");
	event_parse_ok(&ev, "improvement", p);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "perfwatch on box: sys.pipe throughput is "
	    "back within the noise of its baseline (resolved).\n"));
	assert_null(strstr(s, "improved"));
	free(s);
	free(old);
	free(p);
	notify_event_clear(&ev);
	event_edited(&ev, "suspected improvement", "resolved", "suspected",
	    "\"regression\"", NULL, "\"improvement\"");
	s = notify_text(&ev);
	assert_non_null(strstr(s, "perfwatch on box: the suspected "
	    "improvement of sys.pipe throughput is cleared (resolved).\n"));
	free(s);
	notify_event_clear(&ev);

	/* A confirmed alert left behind by a further shift names it. */
	p = payload("box", "sys.pipe", "throughput", "resolved", "confirmed");
	assert_non_null(k = strrchr(p, '}'));
	xasprintf(&old, "%.*s,\"superseded_by\":9}", (int)(k - p), p);
	event_parse_ok(&ev, "superseded", old);
	assert_int_equal(ev.superseded_by, 9);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "perfwatch on box: sys.pipe throughput "
	    "moved on from this regression: a further shift the same way is "
	    "alert #9 (resolved).\n"));
	assert_null(strstr(s, "back within the noise"));
	free(s);
	s = notify_log_line(&ev);
	assert_non_null(strstr(s, "resolved (was confirmed); superseded by "
	    "alert #9; last good"));
	free(s);
	free(old);
	free(p);
	notify_event_clear(&ev);

	/*
	 * A pinned baseline is named whole, past 24 bytes and with a
	 * character of two bytes across the 24th.
	 */
	event_edited(&ev, "pinned baseline", "confirmed", "suspected",
	    "\"rolling\"", NULL,
	    "\"bookworm-12.8-after-micro\xc2\xb5" "code\"");
	s = notify_text(&ev);
	assert_non_null(strstr(s, "  baseline   1000 \xc2\xb1 3 lps "
	    "(bookworm-12.8-after-micro\xc2\xb5" "code, 10 runs)\n"));
	free(s);
	notify_event_clear(&ev);

	/*
	 * A resolution whose run is back within a hair of the level: its
	 * change rounds to nothing and reads +0.0%, as check prints it, not
	 * -0.0%.  And a metric near 1e300 has its numbers with an exponent,
	 * where %.0f wrote every one of their 301 digits.
	 */
	event_edited(&ev, "+0.0% and 1e300", "resolved", "confirmed",
	    "\"change_pct\":", "\"attribution\"",
	    "\"change_pct\":-0.03,\"ci_low\":-0.04,"
	    "\"ci_high\":-0.02,\"q\":0.5,\"current\":1.0003e300,"
	    "\"baseline\":{\"name\":\"rolling\",\"level\":1e300,"
	    "\"noise\":2.5e298,\"runs\":10},");
	s = notify_subject(&ev);
	assert_string_equal(s, "[perfwatch] box: sys.pipe throughput +0.0% "
	    "(resolved)");
	free(s);
	s = notify_log_line(&ev);
	assert_non_null(strstr(s, "sys.pipe throughput +0.0% resolved"));
	free(s);
	s = notify_text(&ev);
	assert_null(strstr(s, "-0.0"));
	assert_non_null(strstr(s, "  change     +0.0%, 95% CI [+0.0, +0.0], "
	    "q 0.5\n"));
	assert_non_null(strstr(s, "  baseline   1e+300 \xc2\xb1 2.5e+298 lps "
	    "(rolling, 10 runs)\n"));
	assert_non_null(strstr(s, "  current    1.0003e+300 lps"));
	assert_null(strstr(s, "000000000000000000"));
	free(s);
	notify_event_clear(&ev);

	/*
	 * A change against a level near 0 (1e-200 to 5) is 5e+202%: three
	 * significant digits and an exponent, where %.1f wrote 200 digits
	 * and the subject's buffer cut them short of the "%".
	 */
	event_edited(&ev, "5e+202%", "suspected", NULL,
	    "\"change_pct\":", "\"attribution\"",
	    "\"change_pct\":5e202,\"ci_low\":4.9e202,"
	    "\"ci_high\":5.1e202,\"q\":0.001,\"current\":5,"
	    "\"baseline\":{\"name\":\"rolling\",\"level\":1e-200,"
	    "\"noise\":1e-201,\"runs\":10},");
	s = notify_subject(&ev);
	assert_string_equal(s, "[perfwatch] box: sys.pipe throughput +5e+202% "
	    "(suspected)");
	free(s);
	s = notify_log_line(&ev);
	assert_non_null(strstr(s, "sys.pipe throughput +5e+202% suspected"));
	free(s);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "may have regressed by 5e+202% "));
	assert_non_null(strstr(s, "  change     +5e+202%, 95% CI [+4.9e+202, "
	    "+5.1e+202], q 0.001\n"));
	assert_null(strstr(s, "000000000000000000"));
	free(s);
	notify_event_clear(&ev);

	/* A row queued before the key was "level" still has its baseline. */
	event_edited(&ev, "median", "confirmed", "suspected", "\"level\":",
	    NULL, "\"median\":");
	assert_true(ev.baseline == 1000);
	assert_true(ev.metrics[0].baseline == 1000);
	notify_event_clear(&ev);

	/*
	 * Nor one queued while the noise was "spread": its figure is in the
	 * text and, by today's names, in what a webhook receives.
	 */
	p = payload("box", "sys.pipe", "throughput", "confirmed", "suspected");
	old = payload_edit("spread", p, "\"noise\":", NULL, "\"spread\":");
	assert_non_null(strstr(old, "\"spread\":3"));
	event_parse_ok(&ev, "spread", old);
	assert_true(ev.noise == 3);
	assert_true(ev.metrics[0].noise == 3);
	s = notify_text(&ev);
	assert_non_null(strstr(s, "  baseline   1000 \xc2\xb1 3 lps "
	    "(rolling, 10 runs)\n"));
	free(s);
	{
		json_t	*doc = notify_webhook_json(&ev), *b, *m;

		b = json_object_get(json_object_get(doc, "alert"), "baseline");
		assert_true(json_number_value(json_object_get(b, "noise")) ==
		    3);
		assert_true(json_number_value(json_object_get(b, "level")) ==
		    1000);
		assert_null(json_object_get(b, "spread"));
		m = json_array_get(json_object_get(doc, "metrics"), 0);
		assert_true(json_number_value(json_object_get(m, "noise")) ==
		    3);
		assert_null(json_object_get(m, "spread"));
		json_decref(doc);
	}
	free(old);
	notify_event_clear(&ev);

	/* Both old names at once: a row from before 50a6579. */
	old = payload_edit("median and spread", p, "\"level\":", NULL,
	    "\"median\":");
	both = payload_edit("median and spread", old, "\"noise\":", NULL,
	    "\"spread\":");
	event_parse_ok(&ev, "median and spread", both);
	assert_true(ev.baseline == 1000);
	assert_true(ev.noise == 3);
	free(both);
	free(old);
	free(p);
	notify_event_clear(&ev);

	/*
	 * Nor one whose attribution named its runs as they were before
	 * every --json's: "label" and "started" in epoch seconds.  A webhook
	 * receives them as alerts --json gives them: run, host, time.
	 */
	event_edited(&ev, "label and started", "confirmed", "suspected",
	    "\"attribution\":null", NULL,
	    "\"attribution\":{\"same_snapshot\":false,"
	    "\"last_good_run\":{\"label\":\"r-20\",\"started\":1700000000,"
	    "\"snapshot\":4},\"first_bad_run\":{\"label\":\"r-21\","
	    "\"started\":1700086400,\"snapshot\":5},\"diff\":null,"
	    "\"git\":[],\"summary\":\"kernel 6.1 -> 6.2\"}");
	{
		json_t	*doc = notify_webhook_json(&ev), *at, *r;

		at = json_object_get(json_object_get(doc, "alert"),
		    "attribution");
		r = json_object_get(at, "last_good_run");
		assert_string_equal(json_string_value(json_object_get(r,
		    "run")), "r-20");
		assert_string_equal(json_string_value(json_object_get(r,
		    "host")), "box");
		assert_string_equal(json_string_value(json_object_get(r,
		    "time")), "2023-11-14T22:13:20Z");
		assert_int_equal(json_integer_value(json_object_get(r,
		    "snapshot")), 4);
		assert_null(json_object_get(r, "label"));
		assert_null(json_object_get(r, "started"));
		r = json_object_get(at, "first_bad_run");
		assert_string_equal(json_string_value(json_object_get(r,
		    "run")), "r-21");
		assert_string_equal(json_string_value(json_object_get(r,
		    "time")), "2023-11-15T22:13:20Z");
		assert_null(json_object_get(r, "started"));
		assert_string_equal(json_string_value(json_object_get(at,
		    "summary")), "kernel 6.1 -> 6.2");
		/*
		 * Its time, queued in epoch seconds, as every --json gives
		 * one; superseded_by, left out, null.
		 */
		r = json_object_get(doc, "alert");
		assert_string_equal(json_string_value(json_object_get(r,
		    "time")), "2023-11-14T22:13:20Z");
		assert_true(json_is_null(json_object_get(r,
		    "superseded_by")));
		json_decref(doc);
	}
	notify_event_clear(&ev);
}

/* One Message-ID per alert and state, whatever the attempt or clock. */
static void
test_message_id(void **state)
{
	struct notify_event	 a, b, c;
	char			*ia, *ib, *ic, *ea, *da;

	(void)state;
	event_of(&a, "box", "throughput", "confirmed", "suspected", 100);
	event_of(&b, "box", "throughput", "confirmed", "suspected", 99999);
	event_of(&c, "box", "throughput", "resolved", "confirmed", 100);
	ia = notify_message_id(&a);
	ib = notify_message_id(&b);
	ic = notify_message_id(&c);
	assert_string_equal(ia, ib);
	assert_string_not_equal(ia, ic);
	assert_int_equal(strncmp(ia, "<perfwatch-alert-7-confirmed-", 29), 0);
	assert_int_equal(strlen(ia), 29 + 16 + strlen("@box>"));
	assert_string_equal(ia + 29 + 16, "@box>");
	assert_int_equal(strncmp(ic, "<perfwatch-alert-7-resolved-", 28), 0);
	/* The same hash names the alert in both. */
	assert_memory_equal(ia + 29, ic + 28, 16);
	ea = notify_event_id(&a);
	assert_int_equal(strncmp(ea, "alert-7-confirmed-", 18), 0);
	assert_memory_equal(ea + 18, ia + 29, 16);
	/* A delivery: the event's id and the outbox row's number. */
	a.outbox = 42;
	da = notify_delivery_id(&a);
	assert_int_equal(strncmp(da, ea, strlen(ea)), 0);
	assert_string_equal(da + strlen(ea), "-42");
	free(da);
	free(ia);
	free(ib);
	free(ic);
	free(ea);
	notify_event_clear(&a);
	notify_event_clear(&b);
	notify_event_clear(&c);
}

/* The header names of a message, in order, joined by ','. */
static char *
header_names(const char *msg)
{
	char	*out = xcalloc(1, strlen(msg) + 1);
	const char *p = msg, *colon;

	while (*p != '\0' && *p != '\n') {
		if (*p != ' ' && *p != '\t') {
			colon = strchr(p, ':');
			assert_non_null(colon);
			if (*out != '\0')
				strcat(out, ",");
			strncat(out, p, (size_t)(colon - p));
		}
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	return out;
}

/* A host and a metric with CR/LF in them add no header to an email. */
static void
test_email_injection(void **state)
{
	struct notify_event	 ev;
	struct notify_sink	 sink;
	char			*to[] = { "ops@example.org", NULL };
	char			*msg, *names, *subj, *v;

	(void)state;
	memset(&sink, 0, sizeof(sink));
	sink.name = "mail";
	sink.type = NOTIFY_EMAIL;
	sink.to = to;
	event_of(&ev, "evil\r\nBcc: victim@example.org",
	    "thr\r\nX-Injected: yes\r\n\r\nfake body", "confirmed",
	    "suspected", 100);
	msg = notify_email(&ev, &sink, "mailhost");
	names = header_names(msg);
	assert_string_equal(names, "Date,From,To,Subject,Message-ID,"
	    "In-Reply-To,References,MIME-Version,Content-Type,"
	    "Content-Transfer-Encoding,Auto-Submitted,X-Perfwatch-Event,"
	    "X-Perfwatch-Alert,X-Perfwatch-State");
	assert_null(strstr(msg, "\nBcc:"));
	assert_null(strstr(msg, "\nX-Injected:"));
	assert_null(strchr(msg, '\r'));
	subj = xstrdup(strstr(msg, "\nSubject: ") + 1);
	*strstr(subj, "\nMessage-ID") = '\0';
	v = header_decode(subj);
	free(subj);
	assert_string_equal(v, "[perfwatch] evil Bcc: victim@example.org: "
	    "sys.pipe thr X-Injected: yes fake body -22.4% (confirmed)");
	free(v);
	/* The Message-ID's domain is made of the host's safe characters. */
	assert_non_null(strstr(msg, "@evil.Bcc.victim.example.org>\n"));
	/* The body is 7-bit and starts after the one blank line. */
	assert_non_null(strstr(msg, "\n\nperfwatch on evil  Bcc: victim@"
	    "example.org: "));
	for (const char *p = msg; *p != '\0'; p++)
		assert_true((unsigned char)*p < 0x80);
	free(names);
	free(msg);
	notify_event_clear(&ev);
}

/* One minute, doubling, capped; the last try when max_age old. */
static void
test_backoff(void **state)
{
	(void)state;
	assert_int_equal(notify_backoff(0), 60);
	assert_int_equal(notify_backoff(1), 60);
	assert_int_equal(notify_backoff(2), 120);
	assert_int_equal(notify_backoff(3), 240);
	assert_int_equal(notify_backoff(8), 7680);
	assert_int_equal(notify_backoff(9), 4 * 3600);
	assert_int_equal(notify_backoff(1000), 4 * 3600);
	/* Created at 1000 with max_age 600: tries at +60, +120, +240 fit. */
	assert_int_equal(notify_retry_at(1000, 600, 1, 0, 1000), 1060);
	assert_int_equal(notify_retry_at(1000, 600, 2, 0, 1060), 1180);
	assert_int_equal(notify_retry_at(1000, 600, 3, 0, 1180), 1420);
	/* 1420 + 480 = 1900 > 1600: the last try comes at 1600. */
	assert_int_equal(notify_retry_at(1000, 600, 4, 0, 1420), 1600);
	assert_int_equal(notify_retry_at(1000, 600, 1, 0, 1540), 1600);
	assert_int_equal(notify_retry_at(1000, 600, 1, 0, 1541), 1600);
	/* Failed when max_age old: given up. */
	assert_int_equal(notify_retry_at(1000, 600, 5, 0, 1600), -1);
	/* max_age 1m: one retry, a minute after the first try. */
	assert_int_equal(notify_retry_at(1000, 60, 1, 0, 1000), 1060);
	assert_int_equal(notify_retry_at(1000, 60, 2, 0, 1060), -1);
	/*
	 * A receiver's Retry-After longer than the backoff is waited; a
	 * shorter one is not taken for a reason to hurry; max_age still
	 * has the last try.
	 */
	assert_int_equal(notify_retry_at(1000, 86400, 1, 3600, 1000), 4600);
	assert_int_equal(notify_retry_at(1000, 86400, 3, 5, 1000), 1240);
	assert_int_equal(notify_retry_at(1000, 1800, 1, 3600, 1000), 2800);
	assert_int_equal(notify_retry_at(1000, 1800, 1, 3600, 2800), -1);
	assert_int_equal(notify_retry_at(1000, 400 * 86400, 1, INT64_MAX,
	    1000), 1000 + NOTIFY_RETRY_AFTER_MAX);
}

/* RFC 4231 test cases 1, 2 and 6 (a key longer than the block). */
static void
test_hmac(void **state)
{
	unsigned char	key[131];
	char		out[65];
	const char	*big = "Test Using Larger Than Block-Size Key - "
	    "Hash Key First";

	(void)state;
	memset(key, 0x0b, 20);
	notify_hmac_sha256_hex(key, 20, "Hi There", 8, out);
	assert_string_equal(out, "b0344c61d8db38535ca8afceaf0bf12b"
	    "881dc200c9833da726e9376c2e32cff7");
	notify_hmac_sha256_hex("Jefe", 4, "what do ya want for nothing?", 28,
	    out);
	assert_string_equal(out, "5bdcc146bf60754e6a042426089575c7"
	    "5a003f089d2739839dec58b964ec3843");
	memset(key, 0xaa, sizeof(key));
	notify_hmac_sha256_hex(key, sizeof(key), big, strlen(big), out);
	assert_string_equal(out, "60e431591ee0b67f0d8a26aacbf5b77f"
	    "8e0bc6213728c5140546040f0ee37f54");
}

/*
 * A webhook's signature covers the timestamp and the delivery id with
 * the body, as perfwatch(1) says; the value computed with Python's hmac.
 */
static void
test_webhook_signature(void **state)
{
	char	*sig, *other;

	(void)state;
	sig = notify_webhook_signature("k3y-for-perfwatch", 17, 1765000000,
	    "alert-7-confirmed-0123456789abcdef-42", "{\"event\":1}");
	assert_string_equal(sig, "sha256=5802ff6ece12d6862ea9a54cc0c9b629"
	    "b1eef209c59cfaabe532bbbdc7e84aed");
	other = notify_webhook_signature("k3y-for-perfwatch", 17, 1765000001,
	    "alert-7-confirmed-0123456789abcdef-42", "{\"event\":1}");
	assert_string_not_equal(sig, other);
	free(other);
	other = notify_webhook_signature("k3y-for-perfwatch", 17, 1765000000,
	    "alert-7-confirmed-0123456789abcdef-43", "{\"event\":1}");
	assert_string_not_equal(sig, other);
	free(other);
	free(sig);
}

/* A secret others can read or write is refused; the newline is not kept. */
static void
test_secret_file(void **state)
{
	char	*path, *secret = NULL, *cause = NULL;
	size_t	 len = 0;

	(void)state;
	path = tmp_path("secret");
	write_file(path, "user:pa:ss\n", 0600);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), 0);
	assert_string_equal(secret, "user:pa:ss");
	assert_int_equal(len, 10);
	free(secret);
	/* Group-readable is fine: the daemon's group reads it. */
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), 0);
	free(secret);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), -1);
	assert_non_null(strstr(cause, "refusing a secret that others may read "
	    "(mode 0644); chmod o-rwx"));
	free(cause);
	cause = NULL;
	assert_int_equal(chmod(path, 0602), 0);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), -1);
	assert_non_null(strstr(cause, "others may write (mode 0602)"));
	free(cause);
	cause = NULL;
	write_file(path, "\n", 0600);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), -1);
	assert_non_null(strstr(cause, "empty"));
	free(cause);
	cause = NULL;
	/* A FIFO is refused at once, not waited on (alarm: no hang). */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);
	assert_int_equal(notify_secret_read(path, &secret, &len, &cause), -1);
	alarm(0);
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	cause = NULL;
	assert_int_equal(notify_secret_read(tmpdir, &secret, &len, &cause),
	    -1);
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	free(path);
}

/* Sinks from a configuration; the log sink is there unless configured. */
static void
test_sinks_load(void **state)
{
	const char		*text = "[sink \"mail\"]\ntype = email\n"
	    "to = Ops <ops@example.org>, dev@example.org\nsendmail = yes\n"
	    "max_age = 1h\n[sink \"hook\"]\ntype = webhook\n"
	    "url = http://127.0.0.1:9/x\ntimeout = 15s\n";
	struct notify_sink	*v;
	struct config		*cfg;
	const struct notify_sink *s;
	char			*cause = NULL;
	size_t			 n;

	(void)state;
	cfg = config_load_buffer("t.conf", text, strlen(text), &cause);
	assert_non_null(cfg);
	assert_int_equal(notify_sinks_load(cfg, &v, &n, &cause), 0);
	assert_int_equal(n, 3);
	s = notify_sink_find(v, n, "mail");
	assert_non_null(s);
	assert_int_equal(s->type, NOTIFY_EMAIL);
	assert_int_equal(s->max_age, 3600);
	assert_true(s->sendmail);
	assert_string_equal(s->sendmail_path, "/usr/sbin/sendmail");
	assert_string_equal(s->to[0], "Ops <ops@example.org>");
	assert_string_equal(s->to[1], "dev@example.org");
	assert_null(s->to[2]);
	assert_int_equal(s->starttls, NOTIFY_TLS_REQUIRED);
	assert_int_equal(notify_timeout(s), 120);
	s = notify_sink_find(v, n, "hook");
	assert_int_equal(s->type, NOTIFY_WEBHOOK);
	assert_string_equal(s->url, "http://127.0.0.1:9/x");
	assert_int_equal(notify_timeout(s), 15);
	s = notify_sink_find(v, n, "log");
	assert_non_null(s);
	assert_true(s->builtin);
	assert_int_equal(s->type, NOTIFY_LOG);
	assert_int_equal(s->max_age, 2 * 24 * 3600);
	notify_sinks_free(v, n);
	config_free(cfg);
}

/*
 * A store with one host, one metric and runs r01..r12 (r11 and r12 at
 * 776, the rest near 1000), a second metric that regressed in r12 too,
 * snapshots on r10 and r11 that differ in one package, an alert and
 * its outbox rows.
 */
struct fixture {
	struct store	*st;
	char		*path;
	int64_t		 host;
	int64_t		 metric;
	int64_t		 other;
	int64_t		 runs[12];
	int64_t		 alert;
};

static int64_t
fixture_snapshot(struct store *st, const char *libc)
{
	struct snapshot	*s = sysinfo_snapshot_new();
	char		*cause = NULL;
	int64_t		 id;

	sysinfo_snapshot_set(s, "kernel.release", "6.1.0-18-amd64");
	sysinfo_snapshot_set(s, "pkg.manager", "dpkg");
	sysinfo_snapshot_add_package(s, "libc6", libc, "amd64");
	sysinfo_snapshot_add_package(s, "zlib1g", "1:1.2.13", "amd64");
	id = store_snapshot_put(st, s, &cause);
	assert_true(id > 0);
	sysinfo_snapshot_free(s);
	return id;
}

#define GIT_A	"1111111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define GIT_B	"2222222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define GIT_L	"3333333333cccccccccccccccccccccccccccccc"

static void
fixture_open(struct fixture *fx)
{
	struct store_run	 r;
	struct store_alert	 a;
	struct store_verdict	 v[2];
	char			*cause = NULL, label[16];
	int64_t			 snap_a, snap_b;
	int			 i, it;

	memset(fx, 0, sizeof(*fx));
	fx->path = tmp_path("db");
	fx->st = store_open(fx->path, &cause);
	assert_non_null(fx->st);
	fx->host = store_host_ensure(fx->st, "box", NULL);
	fx->metric = store_metric_ensure(fx->st, "sys.pipe", "throughput",
	    "lps", BETTER_HIGHER, &cause);
	fx->other = store_metric_ensure(fx->st, "sys.exec", "rate", "lps",
	    BETTER_HIGHER, &cause);
	snap_a = fixture_snapshot(fx->st, "2.36-9");
	snap_b = fixture_snapshot(fx->st, "2.36-10");
	for (i = 0; i < 12; i++) {
		memset(&r, 0, sizeof(r));
		snprintf(label, sizeof(label), "r%02d", i + 1);
		r.host = fx->host;
		r.label = label;
		r.trigger = "manual";
		r.started = 1700000000 + i * 86400;
		r.ended = r.started + 600;
		r.has_end = 1;
		r.status = RUN_COMPLETE;
		r.snapshot = i < 10 ? snap_a : snap_b;
		/* The app tree moved at r11; the lib tree did not. */
		r.git_commits = i < 10 ? "{\"app\":\"" GIT_A "\",\"lib\":\""
		    GIT_L "\"}" : "{\"app\":\"" GIT_B "\",\"lib\":\"" GIT_L
		    "\"}";
		fx->runs[i] = store_run_create(fx->st, &r, &cause);
		assert_true(fx->runs[i] > 0);
		for (it = 0; it < 3; it++) {
			assert_int_equal(store_sample_add(fx->st, fx->runs[i],
			    fx->metric, it + 1, (i < 10 ? 1000 + i : 776) +
			    it), 0);
			assert_int_equal(store_sample_add(fx->st, fx->runs[i],
			    fx->other, it + 1, i < 11 ? 500 : 400), 0);
		}
	}
	memset(v, 0, sizeof(v));
	v[0].run = v[1].run = fx->runs[11];
	v[0].metric = fx->metric;
	v[0].verdict = "regression";
	v[0].change_pct = -22.4;
	v[0].ci_low = -23;
	v[0].ci_high = -21.9;
	v[0].p = v[0].q = 0.0003;
	v[0].baseline = "rolling";
	v[0].current = 777;
	v[0].reference = 1005;
	v[0].noise = 3;
	v[0].baseline_runs = 10;
	v[1] = v[0];
	v[1].metric = fx->other;
	v[1].change_pct = -20;
	v[1].ci_low = -20.5;
	v[1].ci_high = -19.5;
	v[1].q = 0.0004;
	v[1].current = 400;
	v[1].reference = 500;
	v[1].noise = 1;
	assert_int_equal(store_verdicts_replace(fx->st, fx->runs[11], v, 2),
	    0);
	memset(&a, 0, sizeof(a));
	a.host = fx->host;
	a.metric = fx->metric;
	a.first_bad_run = fx->runs[10];
	a.last_good_run = fx->runs[9];
	a.last_run = a.opened_run = a.confirmed_run = fx->runs[11];
	a.state = "confirmed";
	a.direction = "regression";
	a.change_pct = -22.4;
	a.opened = a.updated = 1700000000;
	fx->alert = store_alert_add(fx->st, &a);
	assert_true(fx->alert > 0);
}

static void
fixture_close(struct fixture *fx)
{
	store_close(fx->st);
	unlink(fx->path);
	free(fx->path);
}

/* Queue a row for sink made at created; its id. */
static int64_t
fixture_queue(struct fixture *fx, const char *sink, int64_t created)
{
	char	*p;
	int64_t	 id;

	p = payload("box", "sys.pipe", "throughput", "confirmed", "suspected");
	id = store_outbox_add(fx->st, fx->alert, sink, p, created);
	assert_true(id > 0);
	free(p);
	return id;
}

/* What the store knows goes into the event: table, chart, diff. */
static void
test_event_load(void **state)
{
	struct fixture		 fx;
	struct store_outbox	 o;
	struct notify_event	 ev;
	struct notify_metric	*m;
	char			*cause = NULL, *text;
	int64_t			 id;

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", 1700950000);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(notify_event_load(&ev, fx.st, &o, &cause), 0);
	/* The alert's metric, then the other regression of r12. */
	assert_int_equal(ev.nmetrics, 2);
	assert_true(ev.metrics[0].own);
	assert_string_equal(ev.metrics[1].workload, "sys.exec");
	assert_true(ev.metrics[1].current == 400);
	assert_true(ev.metrics[1].baseline == 500);
	/* Twelve runs up to r12; the first bad is r11, index 10. */
	m = &ev.metrics[0];
	assert_int_equal(m->nruns, 12);
	assert_string_equal(m->runs[0], "r01");
	assert_string_equal(m->runs[11], "r12");
	assert_int_equal(m->first_bad, 10);
	assert_true(m->medians[0] == 1001);
	assert_true(m->medians[9] == 1010);
	assert_true(m->medians[11] == 777);
	/* The diff from r10 to r11: libc6 only. */
	assert_non_null(ev.diff);
	assert_int_equal(ev.diff->nchanges, 1);
	assert_string_equal(ev.diff->changes[0].name, "libc6");
	text = notify_text(&ev);
	assert_non_null(strstr(text, "Regressed metrics of the run"));
	assert_non_null(strstr(text, "\n   500 \xc2\xb1 0.2%      400  -20.0%  "
	    "[-20.5, -19.5]   0.0004  sys.exec rate (lps)\n"));
	assert_non_null(strstr(text, "What changed on the machine from r10 "
	    "(last good) to r11 (first bad):\n\n  upgraded    libc6  2.36-9 "
	    "\xe2\x86\x92 2.36-10\n"));
	/* The app tree moved, lib did not: a bisect command for app. */
	assert_int_equal(ev.ngit, 1);
	assert_string_equal(ev.git[0].name, "app");
	assert_string_equal(ev.git[0].good, GIT_A);
	assert_string_equal(ev.git[0].bad, GIT_B);
	assert_non_null(strstr(text, "Watched git trees that moved from r10 "
	    "to r11:\n\n  app  1111111111aa \xe2\x86\x92 2222222222bb\n"));
	assert_null(strstr(text, "  lib  "));
	assert_non_null(strstr(text, "  perfwatch bisect --git app "
	    GIT_A ".." GIT_B "\n"));
	{
		json_t	*doc = notify_webhook_json(&ev), *g;

		g = json_object_get(doc, "git");
		assert_int_equal(json_array_size(g), 1);
		assert_string_equal(json_string_value(json_object_get(
		    json_array_get(g, 0), "to")), GIT_B);
		json_decref(doc);
	}
	/* The chart: ten high cells, the bar, two low ones. */
	assert_non_null(strstr(text, "  sys.pipe throughput\n    "
	    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
	    "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
	    "|\xe2\x96\x81\xe2\x96\x81   min 777, max 1010, last 777\n"
	    "    runs r01 .. r12\n"));
	/* One host, unique labels: the commands name the runs alone. */
	assert_int_equal(ev.qualify, 0);
	assert_non_null(strstr(text, "  perfwatch compare r10 r11\n"
	    "  perfwatch env diff r10 r11\n"));
	assert_non_null(strstr(text, "  perfwatch history --workload "
	    "sys.pipe --metric throughput\n"));
	free(text);
	/* A field and a package changed: the blank line between them stays. */
	{
		struct snapshot	*a = sysinfo_snapshot_new();
		struct snapshot	*b = sysinfo_snapshot_new();

		sysinfo_snapshot_set(a, "kernel.release", "6.1.0-17-amd64");
		sysinfo_snapshot_set(b, "kernel.release", "6.1.0-18-amd64");
		sysinfo_snapshot_add_package(a, "libc6", "2.36-9", "amd64");
		sysinfo_snapshot_add_package(b, "libc6", "2.36-10", "amd64");
		sysinfo_diff_free(ev.diff);
		ev.diff = sysinfo_diff(a, b);
		text = notify_text(&ev);
		assert_non_null(strstr(text, "(first bad):\n\n  kernel.release"
		    "  6.1.0-17-amd64 \xe2\x86\x92 6.1.0-18-amd64\n\n"
		    "  upgraded    libc6  2.36-9 \xe2\x86\x92 2.36-10\n"));
		free(text);
		sysinfo_snapshot_free(a);
		sysinfo_snapshot_free(b);
	}
	notify_event_clear(&ev);

	/*
	 * Another machine's history imported under the same labels: r10
	 * alone is ambiguous (compare refuses it), so the commands say
	 * box:r10 and --host box.
	 */
	{
		struct store_run	 r;
		int64_t			 other;

		other = store_host_ensure(fx.st, "other-box", NULL);
		memset(&r, 0, sizeof(r));
		r.host = other;
		r.label = "r10";
		r.trigger = "manual";
		r.started = 1700000000;
		r.ended = r.started + 600;
		r.has_end = 1;
		r.status = RUN_COMPLETE;
		assert_true(store_run_create(fx.st, &r, &cause) > 0);
	}
	assert_int_equal(notify_event_load(&ev, fx.st, &o, &cause), 0);
	assert_int_equal(ev.qualify, 1);
	text = notify_text(&ev);
	assert_non_null(strstr(text, "  perfwatch compare box:r10 box:r11\n"
	    "  perfwatch env diff box:r10 box:r11\n"));
	assert_non_null(strstr(text, "  perfwatch history --host box "
	    "--workload sys.pipe --metric throughput\n"
	    "  perfwatch changes --host box --workload sys.pipe --metric "
	    "throughput\n"));
	free(text);
	notify_event_clear(&ev);
	store_outbox_clear(&o);
	fixture_close(&fx);
}

/* A sendmail stand-in that keeps its input and exits as told. */
static char *
fake_sendmail(int code, char **out)
{
	char	*path, *text;

	path = tmp_path("sendmail");
	xasprintf(out, "%s.out", path);
	xasprintf(&text, "#!/bin/sh\necho \"$@\" >\"%s.args\"\ncat >\"%s\"\n"
	    "echo 'fake sendmail says %d' >&2\nexit %d\n", path, *out, code,
	    code);
	write_file(path, text, 0700);
	free(text);
	return path;
}

/* Whether process pid is gone (or a zombie nobody reaped yet). */
static int
process_gone(pid_t pid)
{
	char	*path, *stat;
	int	 gone;

	if (kill(pid, 0) == -1 && errno == ESRCH)
		return 1;
	xasprintf(&path, "/proc/%ld/stat", (long)pid);
	stat = read_file(path);
	/* "pid (comm) S ...": the state follows the last ')'. */
	gone = stat != NULL && strrchr(stat, ')') != NULL &&
	    strrchr(stat, ')')[1] == ' ' && strrchr(stat, ')')[2] == 'Z';
	free(stat);
	free(path);
	return gone;
}

/*
 * Hand a one-line message to the sendmail stand-in script (a shell
 * script's text) under a sink with a 1 s timeout; its result in *res.
 */
static void
sendmail_script(const char *script, struct notify_result *res)
{
	struct notify_sink	 sink;
	char			*path;

	path = tmp_path("sendmail");
	write_file(path, script, 0700);
	memset(&sink, 0, sizeof(sink));
	sink.name = "mail";
	sink.type = NOTIFY_EMAIL;
	sink.sendmail = 1;
	sink.sendmail_path = path;
	sink.timeout = 1;
	memset(res, 0, sizeof(*res));
	notify_sendmail(&sink, "To: ops@example.org\n\nhello\n", NULL, res);
	free(path);
}

/*
 * A sendmail that reads the message, closes its output and does not
 * exit (it waits for a child of its own) is killed at the timeout, with
 * its child: the delivery does not wait for it.
 */
static void
test_sendmail_timeout(void **state)
{
	struct notify_result	 res;
	char			*pidfile, *text, *pid;
	int			 i;

	(void)state;
	pidfile = tmp_path("sendmail-child");
	xasprintf(&text, "#!/bin/sh\ncat >/dev/null\nexec >&- 2>&-\n"
	    "sleep 30 &\necho $! >\"%s\"\nwait\nexit 75\n", pidfile);
	sendmail_script(text, &res);
	free(text);
	assert_int_equal(res.status, NOTIFY_TEMPFAIL);
	assert_non_null(strstr(res.answer, "no answer after 1 s; killed"));
	notify_result_clear(&res);
	/* Its child went with it (a bounded wait for the kernel, no more). */
	pid = read_file(pidfile);
	assert_non_null(pid);
	for (i = 0; i < 50 && !process_gone((pid_t)atol(pid)); i++)
		usleep(100000);
	assert_true(process_gone((pid_t)atol(pid)));
	free(pid);
	free(pidfile);
}

/*
 * A sendmail that takes the message and exits at once, leaving a child
 * of its own (a delivery in the background) that holds its output open:
 * the message is delivered when sendmail exits, and the child is left to
 * its work.  The end of the output was waited for, until the timeout
 * killed the child and the message was retried, to be sent twice.
 */
static void
test_sendmail_background(void **state)
{
	struct notify_result	 res;
	char			*done, *text, *got;
	int			 i;

	(void)state;
	done = tmp_path("sendmail-done");
	xasprintf(&text, "#!/bin/sh\ncat >/dev/null\necho queued\n"
	    "(sleep 2; echo delivered >\"%s.tmp\"; mv \"%s.tmp\" \"%s\") &\n"
	    "exit 0\n", done, done, done);
	sendmail_script(text, &res);
	free(text);
	assert_int_equal(res.status, NOTIFY_DELIVERED);
	assert_non_null(strstr(res.answer, "accepted it: queued"));
	notify_result_clear(&res);
	/* Its child lived on, and finished (a bounded wait, no more). */
	for (i = 0; i < 100 && (got = read_file(done)) == NULL; i++)
		usleep(100000);
	assert_non_null(got);
	assert_string_equal(got, "delivered\n");
	free(got);
	free(done);
}

/* Row id of fx failed after attempts, its last error holding why. */
static void
expect_failed(struct fixture *fx, int64_t id, int attempts, const char *why)
{
	struct store_outbox	o;

	assert_int_equal(store_outbox_get(fx->st, id, &o), 0);
	assert_true(o.failed_at != 0);
	assert_int_equal(o.attempts, attempts);
	assert_non_null(strstr(o.last_error, why));
	store_outbox_clear(&o);
}

/* Flush with one email sink through the sendmail stand-in. */
static void
flush_with(struct fixture *fx, const char *sendmail, int64_t max_age,
    int64_t now, int force, struct notify_report *rep, FILE *logf)
{
	struct notify_sink	 sinks[2];
	struct notify_opts	 o;
	char			*to[] = { "ops@example.org", NULL };
	char			*cause = NULL;

	memset(sinks, 0, sizeof(sinks));
	sinks[0].name = "mail";
	sinks[0].type = NOTIFY_EMAIL;
	sinks[0].max_age = max_age;
	sinks[0].to = to;
	sinks[0].sendmail = 1;
	sinks[0].sendmail_path = (char *)sendmail;
	sinks[1].name = "log";
	sinks[1].type = NOTIFY_LOG;
	sinks[1].max_age = max_age;
	sinks[1].builtin = 1;
	memset(&o, 0, sizeof(o));
	o.now = now;
	o.force = force;
	o.logf = logf;
	o.hostname = "mailhost";
	assert_int_equal(notify_flush(fx->st, sinks, 2, &o, rep, &cause), 0);
	assert_null(cause);
}

/* Retry with backoff, then delivery exactly once. */
static void
test_flush_retry(void **state)
{
	struct fixture		 fx;
	struct notify_report	 rep;
	struct store_outbox	 o;
	char			*sm, *out, *msg, *logbuf = NULL;
	size_t			 loglen = 0;
	int64_t			 id, lid, t0 = 1700950000;
	FILE			*logf;

	(void)state;
	fixture_open(&fx);
	logf = open_memstream(&logbuf, &loglen);
	id = fixture_queue(&fx, "mail", t0);
	lid = fixture_queue(&fx, "log", t0);
	sm = fake_sendmail(75, &out);
	flush_with(&fx, sm, 3600, t0, 0, &rep, logf);
	assert_int_equal(rep.delivered, 1);	/* the log line */
	assert_int_equal(rep.retried, 1);
	assert_int_equal(rep.failed, 0);
	assert_int_equal(rep.next_due, t0 + 60);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(o.attempts, 1);
	assert_int_equal(o.next_attempt, t0 + 60);
	assert_int_equal(o.delivered_at, 0);
	assert_non_null(strstr(o.last_error, "exited with 75: fake sendmail "
	    "says 75"));
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_get(fx.st, lid, &o), 0);
	assert_int_equal(o.delivered_at, t0);
	store_outbox_clear(&o);
	fflush(logf);
	assert_non_null(strstr(logbuf, "perfwatch: alert #7 on box: sys.pipe "
	    "throughput -22.4% confirmed (was suspected); last good r10, "
	    "first bad r11; machine: libc6 2.36-9 \xe2\x86\x92 2.36-10\n"));
	notify_report_free(&rep);

	/* Not due yet: nothing is tried. */
	flush_with(&fx, sm, 3600, t0 + 30, 0, &rep, logf);
	assert_int_equal(rep.ndone, 0);
	assert_int_equal(rep.next_due, t0 + 60);
	notify_report_free(&rep);

	/* Due again and failing again: the wait doubles. */
	flush_with(&fx, sm, 3600, t0 + 60, 0, &rep, logf);
	assert_int_equal(rep.retried, 1);
	assert_int_equal(rep.done[0].attempts, 2);
	assert_int_equal(rep.next_due, t0 + 60 + 120);
	notify_report_free(&rep);
	free(sm);
	free(out);

	/* sendmail takes it: delivered, and never again. */
	sm = fake_sendmail(0, &out);
	flush_with(&fx, sm, 3600, t0 + 180, 0, &rep, logf);
	assert_int_equal(rep.delivered, 1);
	assert_int_equal(rep.next_due, 0);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(o.delivered_at, t0 + 180);
	assert_int_equal(o.attempts, 3);
	store_outbox_clear(&o);
	msg = read_file(out);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "Subject: [perfwatch] box: sys.pipe "
	    "throughput -22.4% (confirmed)\n"));
	assert_non_null(strstr(msg, "To: ops@example.org\n"));
	assert_non_null(strstr(msg, "From: \"perfwatch\" <perfwatch@"
	    "mailhost>\n"));
	assert_non_null(strstr(msg, "Date: Sat, 25 Nov 2023 22:06:40 "
	    "+0000\n"));
	free(msg);
	unlink(out);
	notify_report_free(&rep);
	flush_with(&fx, sm, 3600, t0 + 99999, 1, &rep, logf);
	assert_int_equal(rep.ndone, 0);
	assert_null(read_file(out));
	notify_report_free(&rep);
	fclose(logf);
	free(logbuf);
	free(sm);
	free(out);
	fixture_close(&fx);
}

/*
 * An alert's states reach a sink in the order they were queued: one
 * failed attempt of "suspected" held "confirmed" and "resolved" back
 * neither, and the receiver heard "suspected" last.
 */
static void
test_flush_order(void **state)
{
	struct fixture		 fx;
	struct notify_report	 rep;
	struct store_outbox	 o;
	char			*sm, *out, *p;
	int64_t			 a, b, c, lid, t0 = 1700950000;
	FILE			*logf = tmpfile();

	(void)state;
	fixture_open(&fx);
	a = fixture_queue(&fx, "mail", t0);
	sm = fake_sendmail(75, &out);
	flush_with(&fx, sm, 3600, t0, 0, &rep, logf);
	assert_int_equal(rep.retried, 1);
	assert_int_equal(rep.next_due, t0 + 60);
	notify_report_free(&rep);
	free(sm);
	free(out);

	/* Two later states, and one for the log sink, which waits not. */
	p = payload("box", "sys.pipe", "throughput", "confirmed", "suspected");
	b = store_outbox_add(fx.st, fx.alert, "mail", p, t0 + 10);
	free(p);
	p = payload("box", "sys.pipe", "throughput", "resolved", "confirmed");
	c = store_outbox_add(fx.st, fx.alert, "mail", p, t0 + 20);
	free(p);
	lid = fixture_queue(&fx, "log", t0 + 20);
	assert_true(b > a && c > b && lid > c);

	/* Due, but behind the first: only the log line goes. */
	sm = fake_sendmail(0, &out);
	flush_with(&fx, sm, 3600, t0 + 30, 0, &rep, logf);
	assert_int_equal(rep.ndone, 1);
	assert_int_equal(rep.done[0].outbox, lid);
	assert_int_equal(rep.delivered, 1);
	/* Woken when the first is due, not at once again and again. */
	assert_int_equal(rep.next_due, t0 + 60);
	notify_report_free(&rep);
	assert_null(read_file(out));
	assert_int_equal(store_outbox_get(fx.st, b, &o), 0);
	assert_int_equal(o.attempts, 0);
	/* A listing names the row each waits for: the first, for both. */
	assert_int_equal(o.held_by, a);
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_get(fx.st, c, &o), 0);
	assert_int_equal(o.held_by, a);
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_get(fx.st, a, &o), 0);
	assert_int_equal(o.held_by, 0);
	store_outbox_clear(&o);

	/* The first due again and taken: all three, in their order. */
	flush_with(&fx, sm, 3600, t0 + 60, 0, &rep, logf);
	assert_int_equal(rep.ndone, 3);
	assert_int_equal(rep.delivered, 3);
	assert_int_equal(rep.done[0].outbox, a);
	assert_int_equal(rep.done[1].outbox, b);
	assert_int_equal(rep.done[2].outbox, c);
	assert_int_equal(rep.next_due, 0);
	notify_report_free(&rep);
	unlink(out);
	/* Delivered, it waits for nothing. */
	assert_int_equal(store_outbox_get(fx.st, c, &o), 0);
	assert_int_equal(o.held_by, 0);
	store_outbox_clear(&o);

	/* A failure again, with the rest forced: they wait all the same. */
	p = payload("box", "sys.pipe", "throughput", "suspected", NULL);
	a = store_outbox_add(fx.st, fx.alert, "mail", p, t0 + 100);
	free(p);
	p = payload("box", "sys.pipe", "throughput", "confirmed", "suspected");
	b = store_outbox_add(fx.st, fx.alert, "mail", p, t0 + 100);
	free(p);
	free(sm);
	free(out);
	sm = fake_sendmail(75, &out);
	flush_with(&fx, sm, 3600, t0 + 100, 1, &rep, logf);
	assert_int_equal(rep.ndone, 1);
	assert_int_equal(rep.done[0].outbox, a);
	assert_int_equal(rep.retried, 1);
	notify_report_free(&rep);
	assert_int_equal(store_outbox_get(fx.st, b, &o), 0);
	assert_int_equal(o.attempts, 0);
	assert_int_equal(o.delivered_at, 0);
	store_outbox_clear(&o);

	fclose(logf);
	free(sm);
	free(out);
	fixture_close(&fx);
}

/* A permanent refusal fails at once; the other rows go on. */
static void
test_flush_permanent(void **state)
{
	struct fixture		 fx;
	struct notify_report	 rep;
	struct store_outbox	 o;
	char			*sm, *out;
	int64_t			 id, bad, lid, t0 = 1700950000;
	FILE			*logf = tmpfile();

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", t0);
	bad = store_outbox_add(fx.st, fx.alert, "log", "{not json", t0);
	lid = fixture_queue(&fx, "log", t0);
	sm = fake_sendmail(67, &out);
	flush_with(&fx, sm, 3600, t0, 0, &rep, logf);
	assert_int_equal(rep.failed, 2);
	assert_int_equal(rep.delivered, 1);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(o.failed_at, t0);
	assert_non_null(strstr(o.last_error, "exited with 67: fake sendmail "
	    "says 67"));
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_get(fx.st, bad, &o), 0);
	assert_int_equal(o.failed_at, t0);
	assert_non_null(strstr(o.last_error, "payload"));
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_get(fx.st, lid, &o), 0);
	assert_int_equal(o.delivered_at, t0);
	store_outbox_clear(&o);
	notify_report_free(&rep);
	fclose(logf);
	free(sm);
	free(out);
	fixture_close(&fx);
}

/* Past max_age a row is failed with its last answer, and not tried. */
static void
test_flush_expiry(void **state)
{
	struct fixture		 fx;
	struct notify_report	 rep;
	struct store_outbox	 o;
	char			*sm, *out, *sent;
	int64_t			 id, late, t0 = 1700950000;
	FILE			*logf = tmpfile();

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", t0);
	sm = fake_sendmail(75, &out);
	/*
	 * max_age 100: a retry at t0 + 60 after the backoff, the last one
	 * when the row is 100 s old (the backoff would say t0 + 180).
	 */
	flush_with(&fx, sm, 100, t0, 0, &rep, logf);
	assert_int_equal(rep.retried, 1);
	assert_int_equal(rep.done[0].next_attempt, t0 + 60);
	notify_report_free(&rep);
	flush_with(&fx, sm, 100, t0 + 60, 0, &rep, logf);
	assert_int_equal(rep.retried, 1);
	assert_int_equal(rep.done[0].next_attempt, t0 + 100);
	notify_report_free(&rep);
	flush_with(&fx, sm, 100, t0 + 100, 0, &rep, logf);
	assert_int_equal(rep.failed, 1);
	assert_true(rep.done[0].gave_up);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(o.failed_at, t0 + 100);
	assert_int_equal(o.attempts, 3);
	assert_non_null(strstr(o.last_error, "gave up after 3 attempts within "
	    "100 s: "));
	assert_non_null(strstr(o.last_error, "fake sendmail says 75"));
	store_outbox_clear(&o);
	notify_report_free(&rep);

	/* Found due long after its max_age: failed without an attempt. */
	late = fixture_queue(&fx, "mail", t0);
	unlink(out);
	flush_with(&fx, sm, 100, t0 + 5000, 0, &rep, logf);
	assert_int_equal(rep.failed, 1);
	assert_null(read_file(out));
	expect_failed(&fx, late, 0, "not delivered within 100 s (0 attempts); "
	    "last answer: none");
	notify_report_free(&rep);

	/*
	 * Its last try due when it is max_age old, found a second after
	 * (perfwatchd wakes its flush in whole seconds from a clock read
	 * truncated, and the flush then starts): the try is made, then the
	 * row given up.  It was failed unsent.
	 */
	id = fixture_queue(&fx, "mail", t0);
	assert_int_equal(store_outbox_retry(fx.st, id, t0 + 100, "busy",
	    NULL), 0);
	flush_with(&fx, sm, 100, t0 + 101, 0, &rep, logf);
	assert_non_null(sent = read_file(out));
	free(sent);
	assert_int_equal(rep.failed, 1);
	assert_true(rep.done[0].gave_up);
	expect_failed(&fx, id, 1, "gave up after 1 attempts within 100 s: ");
	notify_report_free(&rep);

	/* A sink that is not configured is retried, not dropped. */
	id = fixture_queue(&fx, "gone", t0 + 5000);
	flush_with(&fx, sm, 100, t0 + 5000, 0, &rep, logf);
	assert_int_equal(rep.retried, 1);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_string_equal(o.last_error, "no [sink \"gone\"] in the "
	    "configuration");
	store_outbox_clear(&o);
	notify_report_free(&rep);
	fclose(logf);
	free(sm);
	free(out);
	fixture_close(&fx);
}

/*
 * The store is locked by another process between a delivery and its
 * record, and stays locked past the record's wait (1 s here, with the
 * busy timeout of 5 s): the flush stops there and says, in so many
 * words, that the row was delivered and that the next flush sends it
 * again; the row is still pending.  The lock is taken by sqlite3(1),
 * started by the sendmail stand-in once it has the message, and held
 * until the stand-in's directory has a file "release".
 */
static void
test_flush_record_lost(void **state)
{
	struct fixture		 fx;
	struct notify_sink	 sinks[2];
	struct notify_opts	 o;
	struct notify_report	 rep;
	struct store_outbox	 row;
	char			*to[] = { "ops@example.org", NULL };
	char			*sm, *dir, *text, *cause = NULL, *path, *want;
	int64_t			 id, t0 = 1700950000;
	int			 i;

	(void)state;
	fixture_open(&fx);
	/* The log sink's row first: the mail row is the one that stops. */
	(void)fixture_queue(&fx, "log", t0);
	id = fixture_queue(&fx, "mail", t0);
	dir = tmp_path("locker");
	assert_int_equal(mkdir(dir, 0700), 0);
	sm = tmp_path("sendmail");
	/*
	 * The holder's descriptors are all replaced with exec: a
	 * redirection of a group would have the shell keep a copy of
	 * sendmail's output, and the flush would wait for its end.
	 */
	xasprintf(&text, "#!/bin/sh\ncat >\"%s/msg\"\n"
	    "(exec </dev/null >/dev/null 2>&1\n"
	    "{ printf 'BEGIN EXCLUSIVE;\\n.shell touch %s/locked\\n'\n"
	    "  while [ ! -e \"%s/release\" ]; do sleep 0.1; done\n"
	    "  printf 'COMMIT;\\n.shell touch %s/released\\n'\n"
	    "} | sqlite3 \"%s\") &\n"
	    "while [ ! -e \"%s/locked\" ]; do sleep 0.1; done\nexit 0\n",
	    dir, dir, dir, dir, fx.path, dir);
	write_file(sm, text, 0700);
	free(text);

	memset(sinks, 0, sizeof(sinks));
	sinks[0].name = "mail";
	sinks[0].type = NOTIFY_EMAIL;
	sinks[0].max_age = 3600;
	sinks[0].to = to;
	sinks[0].sendmail = 1;
	sinks[0].sendmail_path = sm;
	sinks[0].timeout = 30;
	sinks[1].name = "log";
	sinks[1].type = NOTIFY_LOG;
	sinks[1].max_age = 3600;
	sinks[1].builtin = 1;
	memset(&o, 0, sizeof(o));
	o.now = t0;
	o.logf = fopen("/dev/null", "w");
	assert_non_null(o.logf);
	o.hostname = "mailhost";
	assert_int_equal(notify_flush(fx.st, sinks, 2, &o, &rep, &cause), -1);

	/* Let the lock go, and wait (bounded) for it to be gone. */
	xasprintf(&path, "%s/release", dir);
	write_file(path, "", 0600);
	free(path);
	xasprintf(&path, "%s/released", dir);
	for (i = 0; i < 100 && access(path, F_OK) == -1; i++)
		usleep(100000);
	assert_int_equal(access(path, F_OK), 0);
	free(path);

	assert_true(rep.busy);
	assert_non_null(cause);
	xasprintf(&want, "the database %s is busy (another process holds its "
	    "lock): stopped at outbox row %lld (delivered, but not recorded "
	    "as delivered: the next flush sends it again), the rows after it "
	    "not sent; try again later", fx.path, (long long)id);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	/* The message did go out; the row is still pending. */
	xasprintf(&path, "%s/msg", dir);
	text = read_file(path);
	assert_non_null(text);
	assert_non_null(strstr(text, "To: ops@example.org\n"));
	free(text);
	free(path);
	assert_int_equal(store_outbox_get(fx.st, id, &row), 0);
	assert_int_equal(row.delivered_at, 0);
	assert_int_equal(row.attempts, 1);
	store_outbox_clear(&row);
	notify_report_free(&rep);
	fclose(o.logf);
	free(sm);
	free(dir);
	fixture_close(&fx);
}

/* A claimed row is not claimed again for the same due time. */
static void
test_claim(void **state)
{
	struct fixture	fx;
	int64_t		id, t0 = 1700950000;

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", t0);
	assert_int_equal(store_outbox_claim(fx.st, id, t0, t0 + 60), 0);
	assert_int_equal(store_outbox_claim(fx.st, id, t0, t0 + 60), 1);
	assert_int_equal(store_outbox_delivered(fx.st, id, t0), 0);
	assert_int_equal(store_outbox_delivered(fx.st, id, t0), 1);
	assert_int_equal(store_outbox_claim(fx.st, id, INT64_MAX, t0), 1);
	assert_int_equal(store_outbox_fail(fx.st, id, t0, "x"), 1);
	fixture_close(&fx);
}

/* How many rows the outbox has. */
static size_t
outbox_rows(struct fixture *fx)
{
	size_t	n;

	assert_int_equal(store_outbox_count(fx->st, 0, &n), 0);
	return n;
}

/*
 * A row delivered to some recipients leaves one for the others, who said
 * "later": the same alert, sink, payload and creation time, one attempt,
 * its own next attempt and last error, and the first row's message;
 * both in one go, and only while the first is pending.
 */
static void
test_split(void **state)
{
	struct fixture		 fx;
	struct store_outbox	 o, n, n2;
	struct notify_event	 ev;
	struct notify_sink	 sink;
	char			*bob[] = { "bob@example.org", NULL };
	char			*to[] = { "Alice <alice@example.org>",
				    "bob@example.org", NULL };
	char			*cause = NULL, *m1, *m2;
	int64_t			 id, nid, nid2, t0 = 1700950000;

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", t0);
	assert_int_equal(store_outbox_claim(fx.st, id, t0, t0 + 60), 0);
	assert_int_equal(store_outbox_split(fx.st, id, t0 + 5, bob, t0 + 65,
	    "450 4.2.0 greylisted", &nid), 0);
	assert_true(nid > id);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_int_equal(o.delivered_at, t0 + 5);
	assert_null(o.recipients);
	assert_int_equal(o.split_from, 0);
	assert_int_equal(store_outbox_get(fx.st, nid, &n), 0);
	assert_int_equal(n.alert, o.alert);
	assert_string_equal(n.sink, "mail");
	assert_string_equal(n.payload, o.payload);
	assert_int_equal(n.created, t0);
	assert_int_equal(n.attempts, 1);
	assert_int_equal(n.next_attempt, t0 + 65);
	assert_int_equal(n.delivered_at, 0);
	assert_int_equal(n.failed_at, 0);
	assert_string_equal(n.last_error, "450 4.2.0 greylisted");
	assert_non_null(n.recipients);
	assert_string_equal(n.recipients[0], "bob@example.org");
	assert_null(n.recipients[1]);
	assert_int_equal(n.split_from, id);

	/* The same message: To, Date, Message-ID and the row it names. */
	memset(&sink, 0, sizeof(sink));
	sink.name = "mail";
	sink.type = NOTIFY_EMAIL;
	sink.to = to;
	assert_int_equal(notify_event_load(&ev, fx.st, &o, &cause), 0);
	m1 = notify_email(&ev, &sink, "mailhost");
	notify_event_clear(&ev);
	assert_int_equal(notify_event_load(&ev, fx.st, &n, &cause), 0);
	assert_int_equal(ev.outbox, id);
	m2 = notify_email(&ev, &sink, "mailhost");
	notify_event_clear(&ev);
	assert_string_equal(m1, m2);
	assert_non_null(strstr(m2, "outbox row "));
	free(m1);
	free(m2);

	/* Not pending any more: nothing happens. */
	assert_int_equal(store_outbox_split(fx.st, id, t0 + 9, bob, t0 + 69,
	    "x", &nid2), 1);
	assert_int_equal(outbox_rows(&fx), 2);

	/* A split of the rest still carries the first row's message. */
	assert_int_equal(store_outbox_split(fx.st, nid, t0 + 70, bob,
	    t0 + 190, "451 later", &nid2), 0);
	assert_int_equal(store_outbox_get(fx.st, nid2, &n2), 0);
	assert_int_equal(n2.split_from, id);
	assert_int_equal(n2.created, t0);
	assert_int_equal(outbox_rows(&fx), 3);
	store_outbox_clear(&n2);
	store_outbox_clear(&n);
	store_outbox_clear(&o);
	fixture_close(&fx);
}

/*
 * A retry may narrow a row to some of its recipients (the others refused
 * it for good); without a list it keeps the row's.
 */
static void
test_retry_recipients(void **state)
{
	struct fixture		 fx;
	struct store_outbox	 o;
	char			*dave[] = { "dave@example.org", NULL };
	int64_t			 id, t0 = 1700950000;

	(void)state;
	fixture_open(&fx);
	id = fixture_queue(&fx, "mail", t0);
	assert_int_equal(store_outbox_retry(fx.st, id, t0 + 60, "450 a",
	    NULL), 0);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_null(o.recipients);
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_retry(fx.st, id, t0 + 120, "450 b",
	    dave), 0);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_non_null(o.recipients);
	assert_string_equal(o.recipients[0], "dave@example.org");
	assert_null(o.recipients[1]);
	assert_int_equal(o.next_attempt, t0 + 120);
	store_outbox_clear(&o);
	assert_int_equal(store_outbox_retry(fx.st, id, t0 + 240, "450 c",
	    NULL), 0);
	assert_int_equal(store_outbox_get(fx.st, id, &o), 0);
	assert_string_equal(o.recipients[0], "dave@example.org");
	assert_string_equal(o.last_error, "450 c");
	store_outbox_clear(&o);
	fixture_close(&fx);
}

/*
 * sendmail -t goes by the To header; a row with recipients of its own
 * gives them to sendmail as arguments instead.
 */
static void
test_sendmail_recipients(void **state)
{
	struct notify_sink	 sink;
	struct notify_result	 res;
	char			*bob[] = { "bob@example.org", NULL };
	char			*sm, *out, *args, *argsf;

	(void)state;
	sm = fake_sendmail(0, &out);
	xasprintf(&argsf, "%s.args", sm);
	memset(&sink, 0, sizeof(sink));
	sink.name = "mail";
	sink.type = NOTIFY_EMAIL;
	sink.sendmail = 1;
	sink.sendmail_path = sm;
	memset(&res, 0, sizeof(res));
	notify_sendmail(&sink, "To: a@example.org, bob@example.org\n\nhi\n",
	    NULL, &res);
	assert_int_equal(res.status, NOTIFY_DELIVERED);
	notify_result_clear(&res);
	args = read_file(argsf);
	assert_string_equal(args, "-t -oi\n");
	free(args);
	notify_sendmail(&sink, "To: a@example.org, bob@example.org\n\nhi\n",
	    bob, &res);
	assert_int_equal(res.status, NOTIFY_DELIVERED);
	notify_result_clear(&res);
	args = read_file(argsf);
	assert_string_equal(args, "-oi -- bob@example.org\n");
	free(args);
	free(argsf);
	free(sm);
	free(out);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char	*cmd;

	(void)state;
	xasprintf(&cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		return -1;
	free(cmd);
	return 0;
}

/*
 * A server line is the end of a reply only with a code of three digits:
 * "22S mail.example.org" (found by tests/fuzz/fuzz_smtp) ended the reply
 * to a RCPT TO with the code 255, so that a recipient the server then
 * refused with a 550 counted as one that took the message.
 */
static void
test_smtp_reply_code(void **state)
{
	static char		 rcpt[] = "RCPT TO:<ops@example.org>\r\n";
	static char		 odd[] = "22S mail.example.org\r\n";
	static char		 refused[] = "550 5.1.1 <ops@example.org>: "
	    "User unknown\r\n";
	struct smtp_session	 s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.nrcpt = 1;
	s.rcpt = xcalloc(2, sizeof(*s.rcpt));
	smtp_debug(NULL, CURLINFO_HEADER_OUT, rcpt, strlen(rcpt), &s);
	smtp_header(odd, 1, strlen(odd), &s);
	assert_int_equal(s.n, 0);
	assert_non_null(s.cur);
	smtp_header(refused, 1, strlen(refused), &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.r[0].code, 550);
	assert_int_equal(s.rcpt[0].code, 550);
	assert_int_equal(smtp_rcpt_count(&s, 200, 299), 0);
	assert_string_equal(s.rcpt[0].text, "22S mail.example.org / 550 "
	    "5.1.1 <ops@example.org>: User unknown");
	smtp_session_clear(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_url_shown),
		cmocka_unit_test(test_header_plain),
		cmocka_unit_test(test_header_long_word),
		cmocka_unit_test(test_header_injection),
		cmocka_unit_test(test_address_header),
		cmocka_unit_test(test_qp),
		cmocka_unit_test(test_date_crlf),
		cmocka_unit_test(test_mail_host),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_message_id),
		cmocka_unit_test(test_email_injection),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_hmac),
		cmocka_unit_test(test_webhook_signature),
		cmocka_unit_test(test_secret_file),
		cmocka_unit_test(test_sinks_load),
		cmocka_unit_test(test_event_load),
		cmocka_unit_test(test_sendmail_timeout),
		cmocka_unit_test(test_sendmail_background),
		cmocka_unit_test(test_flush_retry),
		cmocka_unit_test(test_flush_order),
		cmocka_unit_test(test_flush_permanent),
		cmocka_unit_test(test_flush_expiry),
		cmocka_unit_test(test_flush_record_lost),
		cmocka_unit_test(test_claim),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_retry_recipients),
		cmocka_unit_test(test_sendmail_recipients),
		cmocka_unit_test(test_smtp_reply_code),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
