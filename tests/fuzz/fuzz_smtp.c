/*
 * libFuzzer target: an SMTP server's replies as notify/email.c keeps
 * them (the lines libcurl hands its header callback), included to reach
 * its statics.
 *
 * The input's first byte is the number of recipients (0 to 7); the rest
 * is the server's lines, each ending in "\n" (a "\r" before it is the
 * line's end too).  A line that starts with ">" is not the server's: it
 * stands for the RCPT TO that libcurl sends there, whose reply is the
 * next one.  Whatever the server says: a reply ends on a line of three
 * digits then a blank or nothing, as RFC 5321 and libcurl have it, and
 * on no other line; at most SMTP_REPLIES are kept, each with its text,
 * valid UTF-8 without controls; a recipient has at most one reply; and
 * what the delivery makes of the replies (accepted, refused, to retry)
 * can be built without a crash or a leak.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>

#include "../../notify/email.c"
#include "fuzz_string.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char		 rcpt_cmd[] = "RCPT TO:<ops@example.org>\r\n";
	struct smtp_session	 s;
	struct notify_result	 res;
	char			*specs[8], *t;
	const char		*line, *end, *nl;
	size_t			 i, n, len;
	int			 ended;

	log_init("fuzz", 1, 0);
	if (size < 1 || size > 1 << 16)
		return 0;
	memset(&s, 0, sizeof(s));
	s.nrcpt = data[0] % 8;
	s.rcpt = xcalloc(s.nrcpt + 1, sizeof(*s.rcpt));
	for (i = 0; i < s.nrcpt; i++)
		xasprintf(&specs[i], "r%zu@example.org", i);
	specs[s.nrcpt] = NULL;

	end = (const char *)data + size;
	for (line = (const char *)data + 1; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		len = (size_t)(nl - line) + (nl < end);
		if (len > 0 && line[0] == '>') {
			smtp_debug(NULL, CURLINFO_HEADER_OUT, rcpt_cmd,
			    strlen(rcpt_cmd), &s);
			continue;
		}
		n = len;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		ended = n >= 3 && isdigit((unsigned char)line[0]) &&
		    line[0] >= '1' && line[0] <= '5' &&
		    isdigit((unsigned char)line[1]) &&
		    isdigit((unsigned char)line[2]) &&
		    (n == 3 || line[3] == ' ');
		/* libcurl's line, NUL bytes and all, without a NUL after. */
		t = xmalloc(len + 1);
		memcpy(t, line, len);
		if (smtp_header(t, 1, len, &s) != len)
			abort();
		free(t);
		if (ended != (s.cur == NULL))
			abort();
	}

	if (s.n > SMTP_REPLIES)
		abort();
	for (i = 0; i < s.n; i++) {
		if (s.r[i].code < 100 || s.r[i].code > 599)
			abort();
		check_string(s.r[i].text);
	}
	for (i = 0; i < s.nrcpt; i++)
		if (s.rcpt[i].code != 0)
			check_string(s.rcpt[i].text);

	memset(&res, 0, sizeof(res));
	t = smtp_rcpt_texts(&s, 400, 599);
	free(t);
	t = smtp_rcpt_all_refused(&s);
	free(t);
	(void)smtp_reply_text(&s, 250);
	if (smtp_rcpt_count(&s, 400, 499) > 0)
		smtp_rcpt_later(&s, specs, &res);
	notify_result_clear(&res);
	memset(&res, 0, sizeof(res));
	t = smtp_rcpt_kept(&s, specs, &res);
	free(t);
	notify_result_clear(&res);

	smtp_session_clear(&s);
	for (i = 0; specs[i] != NULL; i++)
		free(specs[i]);
	return 0;
}
