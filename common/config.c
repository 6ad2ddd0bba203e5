/*
 * perfwatch.conf: loading, validation and typed access.
 *
 * Design notes.
 *
 * The schema is the table config_keys[]: one row per (section type, key)
 * with its type, its default as it would be written in the file, its range
 * or its words.  Loading, defaults, the getters, config_dump() and the
 * manual page all follow that table; adding a key is adding a row.
 *
 * inih does the INI grammar.  It cannot tell us line numbers (Debian
 * builds it without INI_HANDLER_LINENO), it truncates section names at 50
 * bytes and its handling of continuation lines and comments depends on
 * how it was built.  So inih reads through config_reader(), which hands it
 * one line per call and counts them, and which first makes each line
 * plain: no leading blanks (so no continuation lines), no comment (a
 * shell command's value, CONFIG_SHELL, is the rest of its line), UTF-8
 * without control characters, a section header parsed and checked by us,
 * a key line written back as "key=".  The handler then knows the line
 * being parsed, the section and the value from the reader's state:
 * inih's line buffer (200 bytes in Debian's build) would cut a command
 * line or a list of recipients short, so the value never passes through
 * it.
 *
 * Every error is kept, with its line, and reported sorted by line, so a
 * user fixes a file in one pass.  A value is stored as its text and, for
 * the numeric types, as its number; "none" (where allowed) stores no text.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "config.h"
#include "cron.h"
#include "log.h"
#include "perfwatch.h"
#include "timefmt.h"
#include "utf8.h"
#include "xmalloc.h"

#define CONFIG_MAX_FILE		(1024 * 1024)
#define CONFIG_MAX_ERRORS	20
#define CONFIG_MAX_NAME		64
#define CONFIG_SHOW_VALUE	60	/* bytes of a bad value quoted back */
#define CONFIG_MAX_VALUE	4096	/* bytes of a value */

enum config_type {
	CONFIG_STRING,
	CONFIG_PATH,		/* absolute */
	CONFIG_BOOL,
	CONFIG_INT,
	CONFIG_NUMBER,
	CONFIG_DURATION,	/* seconds */
	CONFIG_SIZE,		/* bytes */
	CONFIG_ENUM,
	CONFIG_CRON,
	CONFIG_EMAIL,
	CONFIG_EMAILS,
	CONFIG_URL,
	CONFIG_LIST,		/* words separated by commas or blanks */
	CONFIG_INTLIST,
	CONFIG_LISTEN,		/* a numeric address and a port */
};

#define CONFIG_NONE	0x1	/* "none" leaves the key without a value */
#define CONFIG_REQUIRED	0x2	/* a named section must set it */
#define CONFIG_PERCENT	0x4	/* a number that may end in '%' */
#define CONFIG_RAM	0x8	/* a size that may be "<number>x", times RAM */
#define CONFIG_SHELL	0x10	/* a shell command: no comment on its line */

struct config_key {
	const char	*section;	/* section type */
	const char	*key;
	enum config_type type;
	const char	*def;		/* as written in a file; NULL: none */
	int64_t		 min, max;	/* INT, DURATION, SIZE, INTLIST;
					   PATH: max its length, 0 any */
	double		 fmin, fmax;	/* NUMBER */
	const char	*words;		/* ENUM: the values; URL: the schemes */
	const char	*only;		/* sink: the sink types that use it */
	int		 flags;
};

#define DAY	(24 * 3600)
#define KIB	1024LL
#define MIB	(KIB * 1024)
#define GIB	(MIB * 1024)
#define TIB	(GIB * 1024)

static const struct config_key config_keys[] = {
	/* [perfwatch] */
	{ .section = "perfwatch", .key = "state_dir", .type = CONFIG_PATH,
	  .def = PERFWATCH_STATE_DEFAULT },
	{ .section = "perfwatch", .key = "work_dir", .type = CONFIG_PATH,
	  .def = "/var/tmp/perfwatch" },
	{ .section = "perfwatch", .key = "profile", .type = CONFIG_STRING,
	  .def = "nightly" },
	{ .section = "perfwatch", .key = "user", .type = CONFIG_STRING,
	  .def = "perfwatch" },
	{ .section = "perfwatch", .key = "group", .type = CONFIG_STRING,
	  .def = "perfwatch" },
	{ .section = "perfwatch", .key = "allow_root", .type = CONFIG_BOOL,
	  .def = "no" },
	/* A socket's path must fit in sun_path, with its NUL. */
	{ .section = "perfwatch", .key = "socket", .type = CONFIG_PATH,
	  .def = PERFWATCH_SOCKET_DEFAULT,
	  .max = sizeof(((struct sockaddr_un *)NULL)->sun_path) - 1 },
	{ .section = "perfwatch", .key = "log_level", .type = CONFIG_ENUM,
	  .def = "info", .words = "error warning info debug" },
	{ .section = "perfwatch", .key = "http", .type = CONFIG_LISTEN,
	  .def = "none", .flags = CONFIG_NONE },
	/* How long a dashboard connection may say nothing. */
	{ .section = "perfwatch", .key = "http_timeout",
	  .type = CONFIG_DURATION, .def = "30s", .min = 1, .max = 3600 },

	/* [schedule] */
	{ .section = "schedule", .key = "cron", .type = CONFIG_CRON,
	  .def = "30 2 * * *", .flags = CONFIG_NONE },
	{ .section = "schedule", .key = "interval", .type = CONFIG_DURATION,
	  .def = "none", .min = 1, .max = 30 * DAY, .flags = CONFIG_NONE },
	{ .section = "schedule", .key = "jitter", .type = CONFIG_DURATION,
	  .def = "15m", .min = 0, .max = DAY },
	{ .section = "schedule", .key = "catch_up", .type = CONFIG_BOOL,
	  .def = "yes" },

	/* [quiet] */
	{ .section = "quiet", .key = "policy", .type = CONFIG_ENUM,
	  .def = "wait", .words = "wait skip annotate" },
	{ .section = "quiet", .key = "max_wait", .type = CONFIG_DURATION,
	  .def = "30m", .min = 0, .max = DAY },
	{ .section = "quiet", .key = "max_load", .type = CONFIG_NUMBER,
	  .def = "0.5", .fmin = 0, .fmax = 1024 },
	{ .section = "quiet", .key = "max_cpu_busy", .type = CONFIG_NUMBER,
	  .def = "25", .fmin = 0, .fmax = 100, .flags = CONFIG_PERCENT },
	/* How long the look lasts, in seconds (quiet_limits.interval_ms). */
	{ .section = "quiet", .key = "look", .type = CONFIG_NUMBER,
	  .def = "1", .fmin = 0.1, .fmax = 60 },
	/* sysinfo_quiet_limits_default()'s other limits. */
	{ .section = "quiet", .key = "max_runnable", .type = CONFIG_NUMBER,
	  .def = "0.5", .fmin = 0, .fmax = 1024 },
	{ .section = "quiet", .key = "max_swap_pages", .type = CONFIG_INT,
	  .def = "64", .min = 0, .max = 1000000000 },
	{ .section = "quiet", .key = "min_mem_available", .type = CONFIG_NUMBER,
	  .def = "10", .fmin = 0, .fmax = 100, .flags = CONFIG_PERCENT },
	{ .section = "quiet", .key = "max_throttle_events", .type = CONFIG_INT,
	  .def = "0", .min = 0, .max = 1000000000 },
	/* One battery measures at a time: cli/run.c, run_lock. */
	{ .section = "quiet", .key = "lock", .type = CONFIG_PATH,
	  .def = PERFWATCH_LOCK_DEFAULT },

	/* [triggers] */
	{ .section = "triggers", .key = "packages", .type = CONFIG_BOOL,
	  .def = "yes" },
	{ .section = "triggers", .key = "package_settle",
	  .type = CONFIG_DURATION, .def = "10m", .min = 0, .max = DAY },
	{ .section = "triggers", .key = "dpkg_admin_dir", .type = CONFIG_PATH,
	  .def = "/var/lib/dpkg" },
	{ .section = "triggers", .key = "kernel", .type = CONFIG_BOOL,
	  .def = "yes" },
	{ .section = "triggers", .key = "boot_settle", .type = CONFIG_DURATION,
	  .def = "5m", .min = 0, .max = DAY },
	{ .section = "triggers", .key = "git_poll", .type = CONFIG_DURATION,
	  .def = "5m", .min = 10, .max = DAY },
	{ .section = "triggers", .key = "rerun_suspected", .type = CONFIG_BOOL,
	  .def = "yes" },

	/* [detect] */
	{ .section = "detect", .key = "baseline", .type = CONFIG_STRING,
	  .def = "rolling" },
	{ .section = "detect", .key = "baseline_runs", .type = CONFIG_INT,
	  .def = "10", .min = 3, .max = 1000 },
	{ .section = "detect", .key = "min_change", .type = CONFIG_NUMBER,
	  .def = "2", .fmin = 0, .fmax = 100, .flags = CONFIG_PERCENT },
	{ .section = "detect", .key = "fdr", .type = CONFIG_NUMBER,
	  .def = "0.05", .fmin = 0.0001, .fmax = 0.5 },
	{ .section = "detect", .key = "confirm_runs", .type = CONFIG_INT,
	  .def = "2", .min = 1, .max = 20 },

	/* [git "name"] */
	{ .section = "git", .key = "path", .type = CONFIG_PATH,
	  .flags = CONFIG_REQUIRED },
	{ .section = "git", .key = "branch", .type = CONFIG_STRING,
	  .def = "main" },
	{ .section = "git", .key = "build", .type = CONFIG_STRING,
	  .flags = CONFIG_SHELL },
	{ .section = "git", .key = "build_timeout", .type = CONFIG_DURATION,
	  .def = "2h", .min = 1, .max = 7 * DAY },
	{ .section = "git", .key = "workloads", .type = CONFIG_LIST },

	/*
	 * [workload "name"]: the runner's keys, then the parameters of the
	 * workloads (workloads/ says which workload reads which).
	 */
	{ .section = "workload", .key = "enabled", .type = CONFIG_BOOL,
	  .def = "yes" },
	{ .section = "workload", .key = "command", .type = CONFIG_STRING,
	  .flags = CONFIG_SHELL },
	{ .section = "workload", .key = "measure", .type = CONFIG_ENUM,
	  .def = "output", .words = "output time" },
	{ .section = "workload", .key = "iterations", .type = CONFIG_INT,
	  .def = "5", .min = 1, .max = 100000 },
	{ .section = "workload", .key = "warmup", .type = CONFIG_INT,
	  .def = "0", .min = 0, .max = 1000 },
	/* By workload (wl_params_init and the workloads' own defaults). */
	{ .section = "workload", .key = "timeout", .type = CONFIG_DURATION,
	  .min = 1, .max = 7 * DAY },
	{ .section = "workload", .key = "grace", .type = CONFIG_DURATION,
	  .def = "5s", .min = 0, .max = 3600 },
	{ .section = "workload", .key = "settle", .type = CONFIG_DURATION,
	  .min = 0, .max = 3600 },
	{ .section = "workload", .key = "work_dir", .type = CONFIG_PATH },
	{ .section = "workload", .key = "file_limit", .type = CONFIG_SIZE,
	  .min = 0, .max = 1024 * TIB },
	{ .section = "workload", .key = "size", .type = CONFIG_SIZE,
	  .min = MIB, .max = 1024 * TIB, .flags = CONFIG_RAM },
	{ .section = "workload", .key = "duration", .type = CONFIG_DURATION,
	  .min = 1, .max = DAY },
	/* 0: one fsync at the end; else at least 1M (wl_params_set). */
	{ .section = "workload", .key = "fsync_every", .type = CONFIG_SIZE,
	  .min = 0, .max = 1024 * TIB },
	{ .section = "workload", .key = "direct", .type = CONFIG_BOOL },
	{ .section = "workload", .key = "device", .type = CONFIG_PATH },
	{ .section = "workload", .key = "destroy_data", .type = CONFIG_BOOL,
	  .def = "no" },
	{ .section = "workload", .key = "threads", .type = CONFIG_INTLIST,
	  .min = 1, .max = 4096 },
	{ .section = "workload", .key = "table_size", .type = CONFIG_INT,
	  .min = 100, .max = 1000000000 },
	{ .section = "workload", .key = "seeks", .type = CONFIG_INT,
	  .min = 1, .max = 100000000 },
	{ .section = "workload", .key = "seekers", .type = CONFIG_INT,
	  .min = 1, .max = 64 },
	{ .section = "workload", .key = "char_size", .type = CONFIG_SIZE,
	  .min = MIB, .max = 1024 * TIB },

	/* [sink "name"] */
	{ .section = "sink", .key = "type", .type = CONFIG_ENUM,
	  .words = "email webhook log", .flags = CONFIG_REQUIRED },
	{ .section = "sink", .key = "min_state", .type = CONFIG_ENUM,
	  .def = "confirmed", .words = "suspected confirmed resolved" },
	{ .section = "sink", .key = "max_age", .type = CONFIG_DURATION,
	  .def = "2d", .min = 60, .max = 365 * DAY },
	/* Under perfwatchd's limit on a whole flush (30 min). */
	{ .section = "sink", .key = "timeout", .type = CONFIG_DURATION,
	  .def = "2m", .min = 1, .max = 600, .only = "email webhook" },
	{ .section = "sink", .key = "to", .type = CONFIG_EMAILS,
	  .only = "email" },
	{ .section = "sink", .key = "from", .type = CONFIG_EMAIL,
	  .only = "email" },
	{ .section = "sink", .key = "smtp_url", .type = CONFIG_URL,
	  .words = "smtp smtps", .only = "email" },
	{ .section = "sink", .key = "starttls", .type = CONFIG_ENUM,
	  .def = "required", .words = "required optional none",
	  .only = "email" },
	{ .section = "sink", .key = "credentials", .type = CONFIG_PATH,
	  .only = "email" },
	{ .section = "sink", .key = "sendmail", .type = CONFIG_BOOL,
	  .def = "no", .only = "email" },
	{ .section = "sink", .key = "sendmail_path", .type = CONFIG_PATH,
	  .def = "/usr/sbin/sendmail", .only = "email" },
	{ .section = "sink", .key = "url", .type = CONFIG_URL,
	  .words = "http https", .only = "webhook" },
	{ .section = "sink", .key = "secret_file", .type = CONFIG_PATH,
	  .only = "webhook" },
};

struct config_parse;
struct config_section;

struct config_section_type {
	const char	*name;
	int		 named;
	void		(*check)(struct config_parse *,
			    struct config_section *);
};

struct config_value {
	int	 line;		/* where it was set; 0: the default */
	char	*str;		/* its text; NULL: no value */
	int64_t	 num;		/* BOOL, INT, DURATION, SIZE */
	double	 real;		/* NUMBER */
	int	 refused;	/* written with a bad value, reported */
};

struct config_section {
	const struct config_section_type *type;
	char			*name;	/* NULL unless type->named */
	int			 line;	/* of its header; 0: not in the file */
	struct config_value	 values[nitems(config_keys)];
};

struct config {
	char			 *file;
	struct config_value	  defaults[nitems(config_keys)];
	struct config_section	**sections;
	size_t			  nsections;
};

struct config_error {
	int	 line;
	size_t	 order;
	char	*text;
};

struct config_parse {
	const char		*name;		/* file name in messages */
	const char		*buf;
	size_t			 len;
	size_t			 off;
	int			 line;
	int			 seen_header;
	struct config		*cfg;
	struct config_section	*cur;		/* NULL: skip keys */
	char			*value;		/* of the line handed to inih */
	struct config_error	*errors;
	size_t			 nerrors;
	size_t			 dropped;
};

static int	config_url_hostport(const char *, const char *);
static void	config_check_schedule(struct config_parse *,
		    struct config_section *);
static void	config_check_sink(struct config_parse *,
		    struct config_section *);

static const struct config_section_type config_section_types[] = {
	{ "perfwatch", 0, NULL },
	{ "schedule", 0, config_check_schedule },
	{ "quiet", 0, NULL },
	{ "triggers", 0, NULL },
	{ "detect", 0, NULL },
	{ "git", 1, NULL },
	{ "workload", 1, NULL },
	{ "sink", 1, config_check_sink },
};

/* Record an error at line (0: the file as a whole). */
static void __attribute__((format(printf, 3, 4)))
config_error(struct config_parse *p, int line, const char *fmt, ...)
{
	struct config_error	*e;
	va_list			 ap;
	char			*msg;

	if (p->nerrors == CONFIG_MAX_ERRORS) {
		p->dropped++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	p->errors = xreallocarray(p->errors, p->nerrors + 1,
	    sizeof(*p->errors));
	e = &p->errors[p->nerrors];
	e->line = line;
	e->order = p->nerrors++;
	if (line > 0)
		xasprintf(&e->text, "%s:%d: %s", p->name, line, msg);
	else
		xasprintf(&e->text, "%s: %s", p->name, msg);
	free(msg);
}

/* Sort errors by line, keeping the order they were found in a line. */
static int
config_error_cmp(const void *a, const void *b)
{
	const struct config_error	*ea = a, *eb = b;

	if (ea->line != eb->line)
		return ea->line < eb->line ? -1 : 1;
	return ea->order < eb->order ? -1 : ea->order > eb->order;
}

/* Join every error, one a line, into an allocated string. */
static char *
config_error_text(struct config_parse *p)
{
	char	*out, *tmp;
	size_t	 i;

	qsort(p->errors, p->nerrors, sizeof(*p->errors), config_error_cmp);
	out = xstrdup("");
	for (i = 0; i < p->nerrors; i++) {
		xasprintf(&tmp, "%s%s%s", out, i == 0 ? "" : "\n",
		    p->errors[i].text);
		free(out);
		out = tmp;
	}
	if (p->dropped > 0) {
		xasprintf(&tmp, "%s\n%s: %zu more errors not shown", out,
		    p->name, p->dropped);
		free(out);
		out = tmp;
	}
	return out;
}

/* s, cut to CONFIG_SHOW_VALUE bytes on a UTF-8 boundary and "..." after. */
static char *
config_shorten(const char *s)
{
	char	*out;
	size_t	 n = strlen(s);

	if (n <= CONFIG_SHOW_VALUE)
		return xstrdup(s);
	n = CONFIG_SHOW_VALUE;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	xasprintf(&out, "%.*s...", (int)n, s);
	return out;
}

/* Quote a value back to the user: "text", shortened, or "nothing". */
static char *
config_shown(const char *s)
{
	char	*cut, *out;

	if (*s == '\0')
		return xstrdup("nothing");
	cut = config_shorten(s);
	xasprintf(&out, "\"%s\"", cut);
	free(cut);
	return out;
}

/*
 * The '@' that ends the user information of URL s (after "://", if any),
 * or NULL if it has none.  RFC 3986 ends the authority at the first '/',
 * '?' or '#', and the user information at its last '@'.  A password with
 * one of those three written as it is ("smtp://ops:Secr/et@host") ends
 * the authority early, at what is no host[:port] ("ops:Secr"): then the
 * user information is taken to run to the last '@' of s, and *early set,
 * so that the rest of the password is not shown and the error can say
 * why.  An '@' after a host that is one is the path's (/@user, ?to=a@b).
 */
static const char *
config_url_at(const char *s, int *early)
{
	const char	*start, *end, *at = NULL, *p;

	*early = 0;
	start = strstr(s, "://");
	start = start != NULL ? start + 3 : s;
	end = start + strcspn(start, "/?#");
	for (p = start; p < end; p++)
		if (*p == '@')
			at = p;
	if (at == NULL && *end != '\0' && (at = strrchr(end, '@')) != NULL) {
		if (config_url_hostport(start, end) == 0)
			at = NULL;
		else
			*early = 1;
	}
	return at;
}

/*
 * A URL as an error, a log line, a server's answer or the outbox may show
 * it, read by more people than the configuration file is: the password of
 * a user:password@ as "***" (curl sends it as the login), and a user with
 * no password, which is then often a token (https://TOKEN@host/, or
 * https://TOKEN:@host/ as some services write it), as "***" too; up to
 * the last '@' when a '/', '?' or '#' of the password ended the host part
 * early (config_url_at()).  The host, the path and the rest are kept.
 * The caller frees the copy.
 */
char *
config_url_shown(const char *s)
{
	const char	*start, *at, *colon;
	char		*out;
	int		 early;

	if ((at = config_url_at(s, &early)) == NULL)
		return xstrdup(s);
	start = strstr(s, "://");
	start = start != NULL ? start + 3 : s;
	/* TOKEN:@ is a user with an empty password: a token too. */
	if ((colon = memchr(start, ':', at - start)) != NULL &&
	    colon + 1 < at)
		start = colon + 1;
	xasprintf(&out, "%.*s***%s", (int)(start - s), s, at);
	return out;
}

/*
 * A value written in quotes, as other formats want it, or with a quote
 * that is not closed: an error that shows the value without them.  The
 * quotes would be part of the value here, which a string key takes as
 * it is (a branch "main" that no repository has) and every other key
 * refuses as the wrong kind, quoting it back in quotes again.  A shell
 * command and an address may begin with a quote ("Ops Team" <...>).
 * NULL if s is not so written, else the text for *what.
 */
static char *
config_quoted(const struct config_key *k, const char *s)
{
	char	*inner, *shown, *out;
	size_t	 len = strlen(s);
	int	 closed;

	if ((*s != '"' && *s != '\'') || (k->flags & CONFIG_SHELL) ||
	    k->type == CONFIG_EMAIL || k->type == CONFIG_EMAILS)
		return NULL;
	closed = len >= 2 && s[len - 1] == s[0];
	inner = xstrndup(s + 1, len - 1 - (closed ? 1 : 0));
	if (*inner == '\0') {
		free(inner);
		xasprintf(&out, "expected a value without quotes%s, got only "
		    "quotes", (k->flags & CONFIG_NONE) ? ", or none" : "");
		return out;
	}
	if (k->type == CONFIG_URL) {
		shown = config_url_shown(inner);
		free(inner);
		inner = shown;
	}
	shown = config_shorten(inner);
	free(inner);
	if (closed)
		xasprintf(&out, "expected a value without quotes, as in "
		    "\"%s = %s\": a value is the rest of its line, quotes and "
		    "all", k->key, shown);
	else
		xasprintf(&out, "found a quote that is not closed; expected a "
		    "value without quotes, as in \"%s = %s\"", k->key, shown);
	free(shown);
	return out;
}

/* ASCII letters and digits, whatever the locale says. */
static int
config_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Find a section type by name. */
static const struct config_section_type *
config_find_type(const char *name, size_t len)
{
	size_t	 i;

	for (i = 0; i < nitems(config_section_types); i++) {
		if (strlen(config_section_types[i].name) == len &&
		    strncmp(config_section_types[i].name, name, len) == 0)
			return &config_section_types[i];
	}
	return NULL;
}

/* Index of a key of a section type in config_keys[], or -1. */
static int
config_find_key(const char *type, const char *key)
{
	size_t	 i;

	for (i = 0; i < nitems(config_keys); i++) {
		if (strcmp(config_keys[i].section, type) == 0 &&
		    strcmp(config_keys[i].key, key) == 0)
			return (int)i;
	}
	return -1;
}

/*
 * What to add to an unknown key's error: "; did you mean KEY?" for a
 * near miss among the keys of section type, else where the key belongs
 * if other sections have it, else nothing.
 */
static char *
config_key_hint(const char *type, const char *key)
{
	struct name_hint	 h;
	char			*out, *tmp;
	size_t			 i, j;

	name_hint_init(&h, key);
	for (i = 0; i < nitems(config_keys); i++)
		if (strcmp(config_keys[i].section, type) == 0)
			name_hint_add(&h, config_keys[i].key);
	if ((tmp = name_hint_text(&h)) != NULL) {
		xasprintf(&out, "; did you mean %s?", tmp);
		free(tmp);
		return out;
	}
	out = xstrdup("");
	for (i = 0; i < nitems(config_section_types); i++) {
		if (strcmp(config_section_types[i].name, type) == 0 ||
		    config_find_key(config_section_types[i].name, key) == -1)
			continue;
		for (j = i + 1; j < nitems(config_section_types); j++)
			if (strcmp(config_section_types[j].name, type) != 0 &&
			    config_find_key(config_section_types[j].name,
			    key) != -1)
				break;
		xasprintf(&tmp, "%s%s[%s]", out, *out == '\0' ?
		    "; it is a key of " : j < nitems(config_section_types) ?
		    ", " : " and ", config_section_types[i].name);
		free(out);
		out = tmp;
	}
	return out;
}

/* Return 1 if word is one of the blank-separated words of list. */
static int
config_word_in(const char *list, const char *word, size_t len)
{
	const char	*p = list;
	size_t		 n;

	while (*p != '\0') {
		n = strcspn(p, " ");
		if (n == len && strncmp(p, word, len) == 0)
			return 1;
		p += n;
		p += strspn(p, " ");
	}
	return 0;
}

/* Write the words of list as "a, b or c". */
static char *
config_words_text(const char *list, const char *prefix, const char *suffix)
{
	char		*out, *tmp;
	const char	*p = list, *sep;
	size_t		 n, total, i = 0;

	for (total = 0; *p != '\0'; total++) {
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	out = xstrdup("");
	for (p = list; *p != '\0'; i++) {
		n = strcspn(p, " ");
		sep = i == 0 ? "" : (i + 1 == total ? " or " : ", ");
		xasprintf(&tmp, "%s%s%s%.*s%s", out, sep, prefix, (int)n, p,
		    suffix);
		free(out);
		out = tmp;
		p += n;
		p += strspn(p, " ");
	}
	return out;
}

/*
 * Whether the first n bytes of s leave a quoted string open ("Doe, John
 * <...>), a backslash escaping the next character inside one.
 */
static int
config_quote_open(const char *s, size_t n)
{
	size_t	i;
	int	quoted = 0;

	for (i = 0; i < n && s[i] != '\0'; i++) {
		if (quoted && s[i] == '\\' && i + 1 < n)
			i++;
		else if (s[i] == '"')
			quoted = !quoted;
	}
	return quoted;
}

/*
 * The length of the item at p, up to a comma (or, with blanks, a blank)
 * outside a quoted string: without blanks the items are addresses, whose
 * display name may quote a comma ("Doe, John" <john@example.org>, RFC
 * 5322), a backslash escaping the next character inside the quotes.
 */
static size_t
config_item_len(const char *p, int blanks)
{
	size_t	i;
	int	quoted = 0;

	if (blanks)
		return strcspn(p, ", \t");
	for (i = 0; p[i] != '\0'; i++) {
		if (quoted && p[i] == '\\' && p[i + 1] != '\0')
			i++;
		else if (p[i] == '"')
			quoted = !quoted;
		else if (!quoted && p[i] == ',')
			break;
	}
	return i;
}

/*
 * Split a list at commas (and blanks if blanks is set), trimming each item.
 * Return NULL if an item is empty ("a,,b", a trailing comma), else the
 * items, NULL-terminated.
 */
static char **
config_split(const char *s, int blanks)
{
	char		**items = NULL;
	const char	 *p = s, *end;
	size_t		  n = 0, len;

	for (;;) {
		p += strspn(p, " \t");
		len = config_item_len(p, blanks);
		end = p + len;
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0) {
			config_list_free(items);
			return NULL;
		}
		items = xreallocarray(items, n + 2, sizeof(*items));
		items[n++] = xstrndup(p, len);
		items[n] = NULL;
		/* At a comma, the end, or (blanks set) the next item. */
		p = end + strspn(end, " \t");
		if (*p == '\0')
			break;
		if (*p == ',')
			p++;
	}
	return items;
}

void
config_list_free(char **items)
{
	size_t	 i;

	if (items == NULL)
		return;
	for (i = 0; items[i] != NULL; i++)
		free(items[i]);
	free(items);
}

/* Parse a decimal integer with an optional '-'; 0 or -1. */
static int
config_parse_int(const char *s, int64_t *out)
{
	const char	*p = s;
	int64_t		 v = 0;
	int		 neg = 0;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (*p != '\0')
		return -1;
	*out = neg ? -v : v;
	return 0;
}

/* Parse a size: digits and an optional K, M, G or T (powers of 1024). */
int
config_parse_size(const char *s, int64_t *out)
{
	const char	*p = s;
	int64_t		 v = 0, mult = 1;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	switch (*p) {
	case '\0':
		break;
	case 'K': case 'k':
		mult = KIB;
		break;
	case 'M': case 'm':
		mult = MIB;
		break;
	case 'G': case 'g':
		mult = GIB;
		break;
	case 'T': case 't':
		mult = TIB;
		break;
	default:
		return -1;
	}
	if (*p != '\0' && p[1] != '\0')
		return -1;
	if (v > INT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/*
 * Is s written as a size (digits and an optional suffix), whether or not
 * it fits in 64 bits?
 */
static int
config_size_form(const char *s)
{
	size_t	n = strspn(s, "0123456789");

	return n > 0 && (s[n] == '\0' ||
	    (strchr("KkMmGgTt", s[n]) != NULL && s[n + 1] == '\0'));
}

/* Write a size with the largest suffix that divides it exactly. */
static void
config_format_size(int64_t v, char *buf, size_t len)
{
	static const struct {
		char	 suffix;
		int64_t	 mult;
	} units[] = { { 'T', TIB }, { 'G', GIB }, { 'M', MIB }, { 'K', KIB } };
	size_t	 i;

	for (i = 0; i < nitems(units); i++) {
		if (v != 0 && v % units[i].mult == 0) {
			snprintf(buf, len, "%lld%c",
			    (long long)(v / units[i].mult), units[i].suffix);
			return;
		}
	}
	snprintf(buf, len, "%lld", (long long)v);
}

/* Parse a plain decimal number, optionally ending in '%'. */
static int
config_parse_number(const char *s, int percent, double *out)
{
	const char	*p = s;
	char		*copy, *end;
	size_t		 digits = 0, len;

	if (*p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (digits == 0)
		return -1;
	len = p - s;
	if (*p == '%' && percent)
		p++;
	if (*p != '\0')
		return -1;
	copy = xstrndup(s, len);
	*out = strtod(copy, &end);
	free(copy);
	return 0;
}

/* Check one cron field: digits, names, '*', ',', '-' and '/'. */
static int
config_cron_field(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (!config_alnum(s[i]) &&
		    strchr("*,-/", s[i]) == NULL)
			return -1;
	}
	return 0;
}

/*
 * Check a cron spec: @hourly, @daily, @weekly or five fields.  Return the
 * number of fields found if it is not five, 0 if good, -1 if a field has
 * characters no cron field has.
 */
static int
config_check_cron(const char *s)
{
	const char	*p = s;
	size_t		 len;
	int		 fields = 0, bad = 0;

	if (strcmp(s, "@hourly") == 0 || strcmp(s, "@daily") == 0 ||
	    strcmp(s, "@weekly") == 0)
		return 0;
	if (*s == '@')
		return -1;
	for (;;) {
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		len = strcspn(p, " \t");
		if (config_cron_field(p, len) == -1)
			bad = 1;
		fields++;
		p += len;
	}
	if (fields != 5)
		return fields == 0 ? -1 : fields;
	return bad ? -1 : 0;
}

/* Check an address: local@domain, or a display name then <local@domain>. */
static int
config_check_email(const char *s)
{
	const char	*at, *p, *end, *lt;
	size_t		 len, label;

	if ((lt = strchr(s, '<')) != NULL) {
		len = strlen(s);
		if (len < 2 || s[len - 1] != '>' || strchr(lt + 1, '<') != NULL)
			return -1;
		/* A quoted display name is closed before the address. */
		if (config_quote_open(s, (size_t)(lt - s)))
			return -1;
		if (memchr(s, '>', len - 1) != NULL)
			return -1;
		p = lt + 1;
		end = s + len - 1;
	} else {
		p = s;
		end = s + strlen(s);
	}
	at = memchr(p, '@', end - p);
	if (at == NULL || at == p || at - p > 64)
		return -1;
	for (; p < at; p++) {
		if (!config_alnum(*p) &&
		    strchr("!#$%&'*+/=?^_`{|}~.-", *p) == NULL)
			return -1;
	}
	/* The domain: dot-separated labels of letters, digits and '-'. */
	p = at + 1;
	if (p == end || end - p > 253)
		return -1;
	for (label = 0; p < end; p++) {
		if (*p == '.') {
			if (label == 0)
				return -1;
			label = 0;
		} else if (config_alnum(*p) || *p == '-')
			label++;
		else
			return -1;
	}
	return label == 0 ? -1 : 0;
}

/*
 * Check a URL: one of the schemes, "://", a host and an optional port.
 * Returns 0, -2 if all but the port is right, -3 if the host part was
 * ended early by a '/', '?' or '#' of the user information (see
 * config_url_at()), else -1.
 */
static int
config_check_url(const char *s, const char *schemes)
{
	const char	*p, *host, *auth_end;
	size_t		 n;
	char		 scheme[16];
	int		 early;

	p = strstr(s, "://");
	if (p == NULL || p == s || (size_t)(p - s) >= sizeof(scheme))
		return -1;
	for (n = 0; s + n < p; n++)
		scheme[n] = s[n] >= 'A' && s[n] <= 'Z' ? s[n] - 'A' + 'a' :
		    s[n];
	scheme[n] = '\0';
	if (!config_word_in(schemes, scheme, n))
		return -1;
	p += 3;
	auth_end = p + strcspn(p, "/?#");
	/* Skip any user:password@. */
	host = p;
	for (; p < auth_end; p++)
		if (*p == '@')
			host = p + 1;
	for (p = s; *p != '\0'; p++)
		if (*p == ' ' || *p == '\t')
			return -1;
	if (config_url_at(s, &early) != NULL && early)
		return -3;
	return config_url_hostport(host, auth_end);
}

/*
 * Check the host and optional port of a URL, from host to auth_end.
 * Returns 0, -2 if all but the port is right, else -1.
 */
static int
config_url_hostport(const char *host, const char *auth_end)
{
	const char	*p, *port = NULL;
	char		*digits;
	int64_t		 pn;

	if (host == auth_end)
		return -1;
	if (*host == '[') {
		p = memchr(host, ']', auth_end - host);
		if (p == NULL || p == host + 1)
			return -1;
		for (host++; host < p; host++)
			if (!(*host >= '0' && *host <= '9') &&
			    !(*host >= 'a' && *host <= 'f') &&
			    !(*host >= 'A' && *host <= 'F') &&
			    *host != ':' && *host != '.')
				return -1;
		p++;
		if (p < auth_end) {
			if (*p != ':')
				return -1;
			port = p + 1;
		}
	} else {
		for (p = host; p < auth_end && *p != ':'; p++)
			if (!config_alnum(*p) && *p != '.' &&
			    *p != '-' && *p != '_')
				return -1;
		if (p == host)
			return -1;
		if (p < auth_end)
			port = p + 1;
	}
	if (port != NULL) {
		digits = xstrndup(port, auth_end - port);
		if (config_parse_int(digits, &pn) == -1 || pn < 1 ||
		    pn > 65535) {
			free(digits);
			return -2;
		}
		free(digits);
	}
	return 0;
}

/*
 * An address to listen on: "127.0.0.1:8089" or "[::1]:8089", the
 * address numeric (no name to resolve: the daemon binds it in its event
 * loop, and a name could mean another address tomorrow), the port from 1
 * to 65535.  0 with host (NUL-terminated, without brackets) and port, or
 * -1.
 */
int
config_listen_parse(const char *s, char *host, size_t hostlen, int *port)
{
	const char	*colon, *h, *p;
	size_t		 hl;
	int64_t		 n;
	unsigned char	 addr[sizeof(struct in6_addr)];
	int		 v6;

	if ((v6 = s[0] == '[')) {
		if ((p = strchr(s, ']')) == NULL || p[1] != ':')
			return -1;
		h = s + 1;
		hl = (size_t)(p - h);
		colon = p + 1;
	} else {
		if ((colon = strrchr(s, ':')) == NULL)
			return -1;
		h = s;
		hl = (size_t)(colon - s);
	}
	if (hl == 0 || hl >= hostlen || hl >= INET6_ADDRSTRLEN)
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (inet_pton(v6 ? AF_INET6 : AF_INET, host, addr) != 1)
		return -1;
	if (colon[1] < '0' || colon[1] > '9' ||
	    config_parse_int(colon + 1, &n) == -1 || n < 1 || n > 65535)
		return -1;
	*port = (int)n;
	return 0;
}

/*
 * Parse and check value s for key k into v.  On error return -1 and set
 * *what to what was expected (allocated).
 */
static int
config_parse_value(const struct config_key *k, const char *s,
    struct config_value *v, char **what)
{
	char		 lo[TIMEFMT_DURATION_LEN], hi[TIMEFMT_DURATION_LEN];
	char		*shown, *words, **items;
	const char	*why, *none;
	struct cron	 cron;
	int64_t		 n;
	double		 d;
	char		 lhost[INET6_ADDRSTRLEN];
	size_t		 i, len;
	int		 fields, rc, lport;

	*what = NULL;
	none = (k->flags & CONFIG_NONE) ? ", or none" : "";
	if ((k->flags & CONFIG_NONE) && strcmp(s, "none") == 0) {
		v->str = NULL;
		v->num = 0;
		v->real = 0;
		return 0;
	}
	if ((*what = config_quoted(k, s)) != NULL)
		return -1;
	if (k->type == CONFIG_URL) {
		words = config_url_shown(s);
		shown = config_shown(words);
		free(words);
	} else
		shown = config_shown(s);
	v->num = 0;
	v->real = 0;
	switch (k->type) {
	case CONFIG_STRING:
		if (*s == '\0')
			xasprintf(what, "expected a value%s, got nothing",
			    none);
		break;
	case CONFIG_PATH:
		if (*s != '/')
			xasprintf(what, "expected an absolute path%s, got %s",
			    none, shown);
		else if (k->max > 0 && (int64_t)strlen(s) > k->max)
			xasprintf(what, "expected a path of at most %lld "
			    "bytes, a socket's limit, got %zu bytes: %s",
			    (long long)k->max, strlen(s), shown);
		break;
	case CONFIG_BOOL:
		if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0 ||
		    strcasecmp(s, "on") == 0 || strcmp(s, "1") == 0)
			v->num = 1;
		else if (strcasecmp(s, "no") == 0 ||
		    strcasecmp(s, "false") == 0 ||
		    strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0)
			v->num = 0;
		else
			xasprintf(what, "expected yes, no, true, false, on, "
			    "off, 1 or 0, got %s", shown);
		break;
	case CONFIG_INT:
		if (config_parse_int(s, &n) == -1 || n < k->min || n > k->max)
			xasprintf(what, "expected an integer from %lld to "
			    "%lld%s, got %s", (long long)k->min,
			    (long long)k->max, none, shown);
		else
			v->num = n;
		break;
	case CONFIG_NUMBER:
		if (config_parse_number(s, k->flags & CONFIG_PERCENT, &d) ==
		    -1 || d < k->fmin || d > k->fmax)
			xasprintf(what, "expected a %s from %g to %g%s, got %s",
			    (k->flags & CONFIG_PERCENT) ? "percentage" :
			    "number", k->fmin, k->fmax, none, shown);
		else
			v->real = d;
		break;
	case CONFIG_DURATION:
		/* One too long to count is out of range, not misspelled. */
		why = NULL;
		if (timefmt_parse_duration(s, &n, &why) == -1 &&
		    strcmp(why, "duration too long") != 0) {
			xasprintf(what, "%s%s, got %s", why, none, shown);
			break;
		}
		if (why != NULL || n < k->min || n > k->max) {
			timefmt_format_duration(k->min, lo, sizeof(lo));
			timefmt_format_duration(k->max, hi, sizeof(hi));
			xasprintf(what, "expected a duration from %s to %s%s, "
			    "got %s", lo, hi, none, shown);
		} else
			v->num = n;
		break;
	case CONFIG_SIZE:
		len = strlen(s);
		if ((k->flags & CONFIG_RAM) && len > 1 && s[len - 1] == 'x') {
			words = xstrndup(s, len - 1);
			if (config_parse_number(words, 0, &d) == -1 ||
			    d <= 0 || d > 64)
				xasprintf(what, "expected a size such as 512M "
				    "or a multiple of RAM above 0 and up to 64 "
				    "such as 2x, got %s", shown);
			else
				v->real = d;
			free(words);
			break;
		}
		if (config_parse_size(s, &n) == -1 && !config_size_form(s)) {
			xasprintf(what, "expected a size such as 4096, 512M or "
			    "2G%s%s, got %s", (k->flags & CONFIG_RAM) ?
			    " or a multiple of RAM such as 2x" : "", none,
			    shown);
			break;
		}
		if (config_parse_size(s, &n) == -1 || n < k->min ||
		    n > k->max) {
			config_format_size(k->min, lo, sizeof(lo));
			config_format_size(k->max, hi, sizeof(hi));
			xasprintf(what, "expected a size from %s to %s%s, got "
			    "%s", lo, hi, none, shown);
		} else
			v->num = n;
		break;
	case CONFIG_ENUM:
		if (!config_word_in(k->words, s, strlen(s))) {
			words = config_words_text(k->words, "", "");
			xasprintf(what, "expected %s%s, got %s", words, none,
			    shown);
			free(words);
		}
		break;
	case CONFIG_CRON:
		fields = config_check_cron(s);
		if (fields == 0 && cron_parse(s, &cron, &words) == -1) {
			/* The shape is right; a value is not. */
			*what = words;
			break;
		}
		if (fields > 0)
			xasprintf(what, "expected 5 fields (minute hour day "
			    "month weekday), @hourly, @daily or @weekly%s, "
			    "got %d field%s", none, fields,
			    fields == 1 ? "" : "s");
		else if (fields == -1)
			xasprintf(what, "expected 5 fields (minute hour day "
			    "month weekday), @hourly, @daily or @weekly%s, "
			    "got %s", none, shown);
		break;
	case CONFIG_EMAIL:
		if (config_check_email(s) == -1)
			xasprintf(what, "expected an address such as "
			    "perfwatch@example.org%s, got %s", none, shown);
		break;
	case CONFIG_EMAILS:
		items = config_split(s, 0);
		for (i = 0; items != NULL && items[i] != NULL; i++)
			if (config_check_email(items[i]) == -1)
				break;
		if (items == NULL || items[i] != NULL)
			xasprintf(what, "expected addresses such as "
			    "ops@example.org separated by commas (a display "
			    "name with a comma quoted: \"Doe, Jo\" "
			    "<jo@example.org>)%s, got %s", none, shown);
		config_list_free(items);
		break;
	case CONFIG_URL:
		rc = config_check_url(s, k->words);
		if (rc == -3)
			xasprintf(what, "expected a URL whose user and "
			    "password write '/', '?' and '#' as %%2F, %%3F and "
			    "%%23 (written as they are, they end the host "
			    "early)%s, got %s", none, shown);
		else if (rc == -2)
			xasprintf(what, "expected a port from 1 to 65535 after "
			    "the host%s, got %s", none, shown);
		else if (rc == -1) {
			words = config_words_text(k->words, "", "://");
			xasprintf(what, "expected a URL starting with %s%s, "
			    "got %s", words, none, shown);
			free(words);
		}
		break;
	case CONFIG_LIST:
		items = config_split(s, 1);
		if (items == NULL)
			xasprintf(what, "expected names separated by commas%s, "
			    "got %s", none, shown);
		config_list_free(items);
		break;
	case CONFIG_LISTEN:
		if (config_listen_parse(s, lhost, sizeof(lhost), &lport) == -1)
			xasprintf(what, "expected a numeric address and a port "
			    "such as 127.0.0.1:8089 or [::1]:8089%s, got %s",
			    none, shown);
		break;
	case CONFIG_INTLIST:
		items = config_split(s, 1);
		for (i = 0; items != NULL && items[i] != NULL; i++) {
			if (config_parse_int(items[i], &n) == -1 ||
			    n < k->min || n > k->max)
				break;
		}
		if (items == NULL || items[i] != NULL)
			xasprintf(what, "expected integers from %lld to %lld "
			    "separated by commas%s, got %s", (long long)k->min,
			    (long long)k->max, none, shown);
		config_list_free(items);
		break;
	}
	free(shown);
	if (*what != NULL)
		return -1;
	v->str = xstrdup(s);
	return 0;
}

/* Copy a value, duplicating its text. */
static void
config_value_copy(struct config_value *dst, const struct config_value *src)
{
	*dst = *src;
	if (src->str != NULL)
		dst->str = xstrdup(src->str);
}

/* Add a section of type t, its keys at their defaults. */
static struct config_section *
config_add_section(struct config *cfg, const struct config_section_type *t,
    const char *name, int line)
{
	struct config_section	*s;
	size_t			 i;

	s = xcalloc(1, sizeof(*s));
	s->type = t;
	s->name = name != NULL ? xstrdup(name) : NULL;
	s->line = line;
	for (i = 0; i < nitems(config_keys); i++)
		config_value_copy(&s->values[i], &cfg->defaults[i]);
	cfg->sections = xreallocarray(cfg->sections, cfg->nsections + 1,
	    sizeof(*cfg->sections));
	cfg->sections[cfg->nsections++] = s;
	return s;
}

/* A configuration with every default and every unnamed section. */
static struct config *
config_new(const char *file)
{
	struct config	*cfg;
	char		*what;
	size_t		 i;

	cfg = xcalloc(1, sizeof(*cfg));
	cfg->file = file != NULL ? xstrdup(file) : NULL;
	for (i = 0; i < nitems(config_keys); i++) {
		if (config_keys[i].def == NULL)
			continue;
		if (config_parse_value(&config_keys[i], config_keys[i].def,
		    &cfg->defaults[i], &what) == -1)
			fatalx("config: default of %s.%s: %s",
			    config_keys[i].section, config_keys[i].key, what);
	}
	for (i = 0; i < nitems(config_section_types); i++)
		if (!config_section_types[i].named)
			config_add_section(cfg, &config_section_types[i], NULL,
			    0);
	return cfg;
}

struct config *
config_default(void)
{
	return config_new(NULL);
}

void
config_free(struct config *cfg)
{
	struct config_section	*s;
	size_t			 i, j;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->nsections; i++) {
		s = cfg->sections[i];
		for (j = 0; j < nitems(config_keys); j++)
			free(s->values[j].str);
		free(s->name);
		free(s);
	}
	for (j = 0; j < nitems(config_keys); j++)
		free(cfg->defaults[j].str);
	free(cfg->sections);
	free(cfg->file);
	free(cfg);
}

const char *
config_file(const struct config *cfg)
{
	return cfg->file;
}

/* The section of type t and name (NULL for an unnamed type), or NULL. */
static struct config_section *
config_find_section(const struct config *cfg,
    const struct config_section_type *t, const char *name)
{
	struct config_section	*s;
	size_t			 i;

	for (i = 0; i < cfg->nsections; i++) {
		s = cfg->sections[i];
		if (s->type != t)
			continue;
		if (name == NULL || (s->name != NULL &&
		    strcmp(s->name, name) == 0))
			return s;
	}
	return NULL;
}

/* "workload \"x\"" or "schedule", as written in a header. */
static char *
config_section_label(const struct config_section *s)
{
	char	*out;

	if (s->name != NULL)
		xasprintf(&out, "%s \"%s\"", s->type->name, s->name);
	else
		out = xstrdup(s->type->name);
	return out;
}

/* Return 1 if a name has only letters, digits, '.', '_', '+' and '-'. */
static int
config_good_name(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || len > CONFIG_MAX_NAME)
		return 0;
	for (i = 0; i < len; i++)
		if (!config_alnum(s[i]) && strchr("._+-", s[i]) ==
		    NULL)
			return 0;
	return 1;
}

/*
 * What to add to an unknown section's error: "; did you mean [TYPE]?"
 * (with the name written, if the type takes one) for a near miss of the
 * type typed[0..len), else nothing.
 */
static char *
config_section_hint(const char *typed, size_t len, const char *name,
    size_t nlen)
{
	const struct config_section_type	*best = NULL;
	struct name_hint			 h;
	char					*s, *out;
	size_t					 i;

	s = xstrndup(typed, len);
	name_hint_init(&h, s);
	for (i = 0; i < nitems(config_section_types); i++)
		name_hint_add(&h, config_section_types[i].name);
	/* One type only: "[git "name"] or [gti]" would read badly. */
	for (i = 0; h.nbest == 1 && i < nitems(config_section_types); i++)
		if (strcmp(config_section_types[i].name, h.best[0]) == 0)
			best = &config_section_types[i];
	free(s);
	if (best == NULL)
		return xstrdup("");
	/* A name longer than any may be is no help: "name" instead. */
	if (name != NULL && nlen > CONFIG_MAX_NAME)
		name = NULL;
	if (best->named)
		xasprintf(&out, "; did you mean [%s \"%.*s\"]?", best->name,
		    name != NULL ? (int)nlen : 4, name != NULL ? name : "name");
	else
		xasprintf(&out, "; did you mean [%s]?", best->name);
	return out;
}

/* Handle a section header line, "[...]" with the brackets included. */
static void
config_header(struct config_parse *p, const char *line, size_t len)
{
	const struct config_section_type	*t;
	struct config_section			*s;
	const char				*in, *name = NULL;
	size_t					 inlen, tlen, nlen = 0;
	char					*shown, *namez, *hint;
	char					*raw, *type;

	p->cur = NULL;
	p->seen_header = 1;
	if (len < 2 || line[len - 1] != ']') {
		config_error(p, p->line, "expected [section] or "
		    "[section \"name\"]");
		return;
	}
	in = line + 1;
	inlen = len - 2;
	while (inlen > 0 && (*in == ' ' || *in == '\t')) {
		in++;
		inlen--;
	}
	while (inlen > 0 && (in[inlen - 1] == ' ' || in[inlen - 1] == '\t'))
		inlen--;
	/*
	 * Quoted back shortened, as a value is: a header is a line of any
	 * length, and a 70 KB one made a 70 KB error.
	 */
	raw = xstrndup(in, inlen);
	shown = config_shorten(raw);
	free(raw);
	for (tlen = 0; tlen < inlen && in[tlen] != ' ' && in[tlen] != '\t' &&
	    in[tlen] != '"'; tlen++)
		;
	if (tlen < inlen) {
		name = in + tlen;
		while (name < in + inlen && (*name == ' ' || *name == '\t'))
			name++;
		nlen = in + inlen - name;
		if (name != in + tlen && name[0] == '"' &&
		    memchr(name + 1, '"', nlen - 1) == NULL) {
			raw = xstrndup(in, tlen);
			type = config_shorten(raw);
			config_error(p, p->line, "[%s]: expected a '\"' to "
			    "close the name, as in [%s \"name\"]", shown, type);
			free(type);
			free(raw);
			free(shown);
			return;
		}
		if (name == in + tlen || nlen < 2 || name[0] != '"' ||
		    name[nlen - 1] != '"' ||
		    memchr(name + 1, '"', nlen - 2) != NULL) {
			config_error(p, p->line, "[%s]: expected [section] or "
			    "[section \"name\"]", shown);
			free(shown);
			return;
		}
		name++;
		nlen -= 2;
	}
	if ((t = config_find_type(in, tlen)) == NULL) {
		hint = config_section_hint(in, tlen, name, nlen);
		config_error(p, p->line, "[%s]: unknown section%s", shown,
		    hint);
		free(hint);
		free(shown);
		return;
	}
	if (t->named && name == NULL) {
		config_error(p, p->line, "[%s]: expected a name, as in "
		    "[%s \"name\"]", shown, t->name);
		free(shown);
		return;
	}
	if (!t->named && name != NULL) {
		config_error(p, p->line, "[%s]: this section takes no name",
		    shown);
		free(shown);
		return;
	}
	if (name != NULL && !config_good_name(name, nlen)) {
		config_error(p, p->line, "[%s]: expected a name of up to %d "
		    "letters, digits, '.', '_', '+' or '-'", shown,
		    CONFIG_MAX_NAME);
		free(shown);
		return;
	}
	namez = name != NULL ? xstrndup(name, nlen) : NULL;
	s = config_find_section(p->cfg, t, namez);
	if (s != NULL && s->line != 0) {
		config_error(p, p->line, "[%s]: duplicate section (first at "
		    "line %d)", shown, s->line);
	} else if (s != NULL) {
		s->line = p->line;
		p->cur = s;
	} else
		p->cur = config_add_section(p->cfg, t, namez, p->line);
	free(namez);
	free(shown);
}

/*
 * Is the key line[0..klen) (blanks after it allowed) a shell command of
 * the current section?  Its value is the rest of the line as written:
 * ';' and '#' are the shell's, and so is a comment on that line.
 */
static int
config_shell_key(const struct config_parse *p, const char *line, size_t klen)
{
	char	*key;
	int	 ki;

	if (p->cur == NULL)
		return 0;
	while (klen > 0 && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
		klen--;
	key = xstrndup(line, klen);
	ki = config_find_key(p->cur->type->name, key);
	free(key);
	return ki != -1 && (config_keys[ki].flags & CONFIG_SHELL);
}

/*
 * A line of the current section refused before its value was read (a
 * byte that is not text, a value too long): its key, if it names one,
 * counts as written with a bad value, so that the error is that one and
 * not also "missing KEY" (config_check_sinks and the like).
 */
static void
config_refused_line(struct config_parse *p, const char *line, size_t len)
{
	const char		*eq;
	struct config_value	*v;
	char			*key;
	size_t			 klen;
	int			 ki;

	if (p->cur == NULL || (eq = memchr(line, '=', len)) == NULL)
		return;
	for (klen = (size_t)(eq - line); klen > 0 && (line[klen - 1] == ' ' ||
	    line[klen - 1] == '\t'); klen--)
		;
	key = xstrndup(line, klen);
	if ((ki = config_find_key(p->cur->type->name, key)) != -1) {
		v = &p->cur->values[ki];
		if (v->line == 0) {
			v->line = p->line;
			v->refused = 1;
		}
	}
	free(key);
}

/*
 * Make one raw line plain for inih and write it to out (size num): a blank
 * line, a checked section header, or "key=value".  Problems found here are
 * recorded and the line is handed on blank.
 */
static void
config_line(struct config_parse *p, const char *line, size_t len,
    char *out, int num)
{
	const char			*eq;
	size_t				 i, n, klen, vstart;
	char				*label, *key;
	int				 comment;

	out[0] = '\0';
	if (p->line == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	/* Blanks at either end, then any comment. */
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
	    line[len - 1] == '\r'))
		len--;
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	/*
	 * UTF-8 text: what the file says reaches logs, JSON and mail, which
	 * carry nothing else.  A comment on a line of its own reaches none
	 * of them, and a Latin-1 note written by an older editor must not
	 * keep the daemon from starting after an upgrade: it is skipped
	 * whatever its bytes (control characters aside).  A header refused
	 * here is a bad section, whose keys are skipped, not the last good
	 * one's.
	 */
	comment = len > 0 && (line[0] == '#' || line[0] == ';');
	for (i = 0; i < len; i += n) {
		n = 1;
		if (((unsigned char)line[i] < 0x20 && line[i] != '\t') ||
		    line[i] == 0x7f)
			config_error(p, p->line, "expected text, found a "
			    "control character (0x%02x) at byte %zu of the "
			    "line", (unsigned char)line[i], i + 1);
		else if (!comment && (unsigned char)line[i] >= 0x80 &&
		    (n = utf8_seq_len((const unsigned char *)line + i,
		    len - i)) == 0)
			config_error(p, p->line, "expected UTF-8 text, found "
			    "an invalid byte (0x%02x) at byte %zu of the line",
			    (unsigned char)line[i], i + 1);
		/* U+0080-U+009F: C1 controls (U+009B starts an escape). */
		else if (!comment && n == 2 &&
		    (unsigned char)line[i] == 0xc2 &&
		    (unsigned char)line[i + 1] < 0xa0)
			config_error(p, p->line, "expected text, found a "
			    "control character (U+%04X) at byte %zu of the "
			    "line", (unsigned char)line[i + 1], i + 1);
		else
			continue;
		if (line[0] == '[') {
			p->cur = NULL;
			p->seen_header = 1;
		} else
			config_refused_line(p, line, len);
		return;
	}
	if (len == 0 || line[0] == '#' || line[0] == ';')
		return;
	for (i = 1; i < len; i++) {
		if ((line[i] == '#' || line[i] == ';') &&
		    (line[i - 1] == ' ' || line[i - 1] == '\t'))
			break;
	}
	/*
	 * A command keeps its "a ; b" (see config_shell_key), but a value
	 * that is only a comment is none, as for any key.
	 */
	if (i < len && (line[0] == '[' ||
	    (eq = memchr(line, '=', i)) == NULL ||
	    strspn(eq + 1, " \t") == (size_t)(line + i - eq - 1) ||
	    !config_shell_key(p, line, eq - line)))
		len = i;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;

	if (line[0] == '[') {
		config_header(p, line, len);
		if (p->cur == NULL)
			return;
		label = config_section_label(p->cur);
		if (strlen(label) + 4 <= (size_t)num)
			snprintf(out, num, "[%s]\n", label);
		free(label);
		return;
	}

	if ((eq = memchr(line, '=', len)) == NULL) {
		key = xstrndup(line, len);
		/* "smtp_url smtp://me:pw@host": the password, not shown. */
		if (strstr(key, "://") != NULL) {
			label = config_url_shown(key);
			free(key);
			key = label;
		}
		label = config_shown(key);
		config_error(p, p->line, "expected key = value, found no '=' "
		    "in %s", label);
		free(label);
		free(key);
		return;
	}
	for (klen = eq - line; klen > 0 && (line[klen - 1] == ' ' ||
	    line[klen - 1] == '\t'); klen--)
		;
	for (i = 0; i < klen; i++)
		if (!config_alnum(line[i]) && line[i] != '_')
			break;
	if (klen == 0 || i < klen) {
		key = xstrndup(line, klen);
		/* catch-up for catch_up, as other files spell their keys. */
		label = xstrdup("");
		if (p->cur != NULL) {
			for (i = 0; i < klen; i++)
				if (key[i] == '-')
					key[i] = '_';
			free(label);
			label = config_key_hint(p->cur->type->name, key);
			memcpy(key, line, klen);
		}
		config_error(p, p->line, "\"%s\": expected key = value, the "
		    "key made of letters, digits and '_'%s", key, label);
		free(label);
		free(key);
		return;
	}
	vstart = eq + 1 - line;
	while (vstart < len && (line[vstart] == ' ' || line[vstart] == '\t'))
		vstart++;
	if (p->cur == NULL) {
		/* Inside a bad section, already reported: skip quietly. */
		if (!p->seen_header) {
			key = xstrndup(line, klen);
			config_error(p, p->line, "%s: expected a [section] "
			    "header before the first key", key);
			free(key);
		}
		return;
	}
	key = xstrndup(line, klen);
	if (klen + 3 > (size_t)num) {
		/* Longer than inih's line: longer than any key too. */
		label = config_section_label(p->cur);
		config_error(p, p->line, "%.40s...: unknown key in [%s]", key,
		    label);
		free(label);
	} else if (len - vstart > CONFIG_MAX_VALUE) {
		config_error(p, p->line, "%s: value too long, expected at "
		    "most %d bytes", key, CONFIG_MAX_VALUE);
		config_refused_line(p, line, len);
	} else {
		free(p->value);
		p->value = xstrndup(line + vstart, len - vstart);
		snprintf(out, num, "%s=\n", key);
	}
	free(key);
}

/* inih's reader: the next line of the buffer, made plain, one a call. */
static char *
config_reader(char *str, int num, void *arg)
{
	struct config_parse	*p = arg;
	const char		*line, *nl;
	size_t			 n;

	if (p->off >= p->len || num < 4)
		return NULL;
	line = p->buf + p->off;
	nl = memchr(line, '\n', p->len - p->off);
	n = nl != NULL ? (size_t)(nl - line) : p->len - p->off;
	p->off += n + (nl != NULL);
	p->line++;
	config_line(p, line, n, str, num);
	if (str[0] == '\0')
		snprintf(str, num, "\n");
	return str;
}

/* inih's handler: check and store one key of the current section. */
static int
#if INI_HANDLER_LINENO
config_handler(void *arg, const char *section, const char *key,
    const char *value, int lineno)
#else
config_handler(void *arg, const char *section, const char *key,
    const char *value)
#endif
{
	struct config_parse	*p = arg;
	struct config_section	*s = p->cur;
	struct config_value	*v, nv;
	char			*what, *label;
	int			 ki;

#if INI_HANDLER_LINENO
	(void)lineno;
#endif
	(void)section;	/* ours, from the reader, is never truncated */
	/* inih's value is "": the reader keeps the line's whole. */
	value = p->value != NULL ? p->value : "";
	if (s == NULL)
		return 1;
	if ((ki = config_find_key(s->type->name, key)) == -1) {
		label = config_section_label(s);
		what = config_key_hint(s->type->name, key);
		config_error(p, p->line, "%s: unknown key in [%s]%s", key,
		    label, what);
		free(what);
		free(label);
		return 1;
	}
	v = &s->values[ki];
	if (v->line != 0) {
		config_error(p, p->line, "%s: duplicate key (first at line %d)",
		    key, v->line);
		return 1;
	}
	memset(&nv, 0, sizeof(nv));
	if (config_parse_value(&config_keys[ki], value, &nv, &what) == -1) {
		config_error(p, p->line, "%s: %s", key, what);
		free(what);
		/* Still seen here, so that a second one is a duplicate. */
		v->line = p->line;
		v->refused = 1;
		return 1;
	}
	free(v->str);
	*v = nv;
	v->line = p->line;
	return 1;
}

/* The value of key in section s, which must exist in the schema. */
static struct config_value *
config_value_of(struct config_section *s, const char *key)
{
	int	 ki;

	if ((ki = config_find_key(s->type->name, key)) == -1)
		fatalx("config: no key %s in [%s]", key, s->type->name);
	return &s->values[ki];
}

/* A key written with a value that was refused, and that reported. */
static int
config_bad(const struct config_value *v)
{
	return v->refused;
}

/* A key without a value that the file does not write either. */
static int
config_missing(const struct config_value *v)
{
	return v->line == 0 && v->str == NULL;
}

/* [schedule]: cron and interval are two ways to say the same thing. */
static void
config_check_schedule(struct config_parse *p, struct config_section *s)
{
	struct config_value	*cron, *interval;

	cron = config_value_of(s, "cron");
	interval = config_value_of(s, "interval");
	if (interval->str == NULL)
		return;
	if (cron->line != 0 && cron->str != NULL) {
		config_error(p, interval->line, "interval: expected cron or "
		    "interval, not both (cron at line %d)", cron->line);
		return;
	}
	/* An interval replaces the default nightly cron. */
	free(cron->str);
	cron->str = NULL;
}

/* "a b c" as "a, b or c", allocated. */
static char *
config_or_list(const char *list)
{
	char	*out = NULL, *prev;
	size_t	 n;

	while (*list != '\0') {
		n = strcspn(list, " ");
		prev = out;
		if (prev == NULL)
			xasprintf(&out, "%.*s", (int)n, list);
		else
			xasprintf(&out, "%s%s%.*s", prev,
			    list[n + strspn(list + n, " ")] == '\0' ? " or " :
			    ", ", (int)n, list);
		free(prev);
		list += n;
		list += strspn(list, " ");
	}
	return out != NULL ? out : xstrdup("");
}

/* [sink]: the keys its type needs, and none that another type uses. */
static void
config_check_sink(struct config_parse *p, struct config_section *s)
{
	struct config_value	*type, *v;
	const char		*need = NULL;
	char			*label, *only;
	size_t			 i;

	type = config_value_of(s, "type");
	if (type->str == NULL)
		return;		/* reported as missing */
	label = config_section_label(s);
	/* Alerts queued for the built-in log sink go to a sink of its name. */
	if (s->name != NULL && strcmp(s->name, "log") == 0 &&
	    strcmp(type->str, "log") != 0)
		config_error(p, type->line, "type: a sink named \"log\" "
		    "takes the built-in log sink's place, so its type must "
		    "be log");
	for (i = 0; i < nitems(config_keys); i++) {
		v = &s->values[i];
		if (strcmp(config_keys[i].section, "sink") != 0 ||
		    config_keys[i].only == NULL || v->line == 0)
			continue;
		if (!config_word_in(config_keys[i].only, type->str,
		    strlen(type->str))) {
			only = config_or_list(config_keys[i].only);
			config_error(p, v->line, "%s: not used by a sink of "
			    "type %s, only by type %s", config_keys[i].key,
			    type->str, only);
			free(only);
		}
	}
	/* A key written with a bad value is reported as that, not missing. */
	if (strcmp(type->str, "email") == 0) {
		if (config_missing(config_value_of(s, "to")))
			need = "to";
		else if (!config_value_of(s, "sendmail")->num &&
		    !config_bad(config_value_of(s, "sendmail")) &&
		    config_missing(config_value_of(s, "smtp_url")))
			need = "smtp_url (or sendmail = yes)";
	} else if (strcmp(type->str, "webhook") == 0) {
		if (config_missing(config_value_of(s, "url")))
			need = "url";
	}
	if (need != NULL)
		config_error(p, s->line, "[%s]: missing %s, which a sink of "
		    "type %s needs", label, need, type->str);
	free(label);
}

/* After the whole file: required keys and each section's own checks. */
static void
config_check_sections(struct config_parse *p)
{
	struct config_section	*s;
	char			*label;
	size_t			 i, j;

	for (i = 0; i < p->cfg->nsections; i++) {
		s = p->cfg->sections[i];
		for (j = 0; j < nitems(config_keys); j++) {
			if (!(config_keys[j].flags & CONFIG_REQUIRED) ||
			    strcmp(config_keys[j].section, s->type->name) != 0 ||
			    !config_missing(&s->values[j]))
				continue;
			label = config_section_label(s);
			config_error(p, s->line, "[%s]: missing %s", label,
			    config_keys[j].key);
			free(label);
		}
		if (s->type->check != NULL)
			s->type->check(p, s);
	}
}

struct config *
config_load_buffer(const char *name, const char *buf, size_t len,
    char **cause)
{
	struct config_parse	 p;
	size_t			 i;
	int			 rc;

	memset(&p, 0, sizeof(p));
	p.name = name;
	p.buf = buf;
	p.len = len;
	p.cfg = config_new(name);
	rc = ini_parse_stream(config_reader, &p, config_handler, &p);
	if (rc == -2)
		fatalx("config: inih is out of memory");
	if (rc > 0) {
		/* inih found a line we did not: never expected, still told. */
		for (i = 0; i < p.nerrors; i++)
			if (p.errors[i].line == rc)
				break;
		if (i == p.nerrors)
			config_error(&p, rc, "expected key = value");
	}
	free(p.value);
	config_check_sections(&p);
	if (p.nerrors == 0) {
		free(p.errors);
		return p.cfg;
	}
	*cause = config_error_text(&p);
	for (i = 0; i < p.nerrors; i++)
		free(p.errors[i].text);
	free(p.errors);
	config_free(p.cfg);
	return NULL;
}

struct config *
config_load(const char *path, char **cause)
{
	struct config	*cfg;
	struct stat	 st;
	char		*buf;
	size_t		 off = 0;
	ssize_t		 n;
	int		 fd, saved;

	/* Not blocked by a FIFO: refused below, as a directory is. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		saved = errno;
		xasprintf(cause, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		saved = errno;
		xasprintf(cause, "%s: %s", path, strerror(saved));
		close(fd);
		errno = saved;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CONFIG_MAX_FILE) {
		xasprintf(cause, "%s: expected a regular file of at most %d "
		    "bytes", path, CONFIG_MAX_FILE);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	buf = xmalloc(CONFIG_MAX_FILE + 1);
	for (;;) {
		n = read(fd, buf + off, CONFIG_MAX_FILE + 1 - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
		if (off > CONFIG_MAX_FILE)
			break;
	}
	saved = errno;
	close(fd);
	if (n == -1) {
		xasprintf(cause, "%s: %s", path, strerror(saved));
		free(buf);
		errno = saved;
		return NULL;
	}
	if (off > CONFIG_MAX_FILE) {
		xasprintf(cause, "%s: expected a regular file of at most %d "
		    "bytes", path, CONFIG_MAX_FILE);
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	cfg = config_load_buffer(path, buf, off, cause);
	free(buf);
	if (cfg == NULL)
		errno = EINVAL;
	return cfg;
}

/* Return 1 if a key is in use in a section (a sink's other types: no). */
static int
config_key_applies(const struct config_section *s, size_t ki)
{
	const char	*type;

	if (config_keys[ki].only == NULL)
		return 1;
	type = s->values[config_find_key(s->type->name, "type")].str;
	return type == NULL ||
	    config_word_in(config_keys[ki].only, type, strlen(type));
}

int
config_dump(const struct config *cfg, FILE *fp)
{
	return config_dump_except(cfg, fp, NULL);
}

/*
 * config_dump() less the sections of type skip (NULL: none), for a
 * caller that writes those itself: the defaults of a [workload] key are
 * the workload's (workloads/), which this table does not know.  A URL's
 * password or token is "***", as config_url_shown() gives it: the dump
 * goes to a terminal, a bug report or a log, which more people read than
 * the file, and it then reads back as a URL that logs in as no one.
 */
int
config_dump_except(const struct config *cfg, FILE *fp, const char *skip)
{
	const struct config_section	*s;
	const struct config_value	*v;
	char				*label;
	size_t				 i, j, n;

	for (i = n = 0; i < cfg->nsections; i++) {
		s = cfg->sections[i];
		if (skip != NULL && strcmp(s->type->name, skip) == 0)
			continue;
		label = config_section_label(s);
		fprintf(fp, "%s[%s]\n", n++ == 0 ? "" : "\n", label);
		free(label);
		for (j = 0; j < nitems(config_keys); j++) {
			if (strcmp(config_keys[j].section, s->type->name) != 0 ||
			    !config_key_applies(s, j))
				continue;
			v = &s->values[j];
			if (v->str != NULL && config_keys[j].type ==
			    CONFIG_URL) {
				label = config_url_shown(v->str);
				fprintf(fp, "%s = %s\n", config_keys[j].key,
				    label);
				free(label);
			} else if (v->str != NULL)
				fprintf(fp, "%s = %s\n", config_keys[j].key,
				    v->str);
			else if (config_keys[j].flags & CONFIG_NONE)
				fprintf(fp, "%s = none\n", config_keys[j].key);
		}
	}
	if (fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}

int
config_check(const char *path, FILE *out, int verbose)
{
	struct config	*cfg;
	char		*cause;

	if ((cfg = config_load(path, &cause)) == NULL) {
		fprintf(out, "%s\n", cause);
		free(cause);
		return -1;
	}
	fprintf(out, "%s: configuration OK\n", path);
	if (verbose)
		config_dump(cfg, out);
	config_free(cfg);
	return 0;
}

const char *
config_sections(const struct config *cfg, const char *type, size_t index)
{
	const struct config_section	*s;
	size_t				 i;

	for (i = 0; i < cfg->nsections; i++) {
		s = cfg->sections[i];
		if (s->name == NULL || strcmp(s->type->name, type) != 0)
			continue;
		if (index-- == 0)
			return s->name;
	}
	return NULL;
}

/*
 * Look up a key for a getter: section is "type" or "type name".  A named
 * section not in the file gives the defaults.  The key must be in the
 * schema and, unless type is -1, of that type.
 */
static const struct config_value *
config_get(const struct config *cfg, const char *section, const char *key,
    int type, const struct config_key **kp)
{
	const struct config_section_type	*t;
	const struct config_section		*s;
	const char				*name;
	size_t					 tlen;
	int					 ki;

	name = strchr(section, ' ');
	tlen = name != NULL ? (size_t)(name - section) : strlen(section);
	if ((t = config_find_type(section, tlen)) == NULL)
		fatalx("config: no section [%s]", section);
	if (name != NULL && !t->named)
		fatalx("config: section [%.*s] has no names", (int)tlen,
		    section);
	if ((ki = config_find_key(t->name, key)) == -1)
		fatalx("config: no key %s in [%s]", key, t->name);
	if (type != -1 && config_keys[ki].type != (enum config_type)type)
		fatalx("config: [%s] %s read as the wrong type", t->name, key);
	if (kp != NULL)
		*kp = &config_keys[ki];
	if (t->named && name == NULL)
		return &cfg->defaults[ki];
	s = config_find_section(cfg, t, name != NULL ? name + 1 : NULL);
	if (s == NULL)
		return &cfg->defaults[ki];
	return &s->values[ki];
}

int
config_is_set(const struct config *cfg, const char *section, const char *key)
{
	return config_get(cfg, section, key, -1, NULL)->line != 0;
}

int
config_key_line(const struct config *cfg, const char *section,
    const char *key)
{
	return config_get(cfg, section, key, -1, NULL)->line;
}

/* Order sections by the line of their header. */
static int
config_section_cmp(const void *a, const void *b)
{
	const struct config_section	*x, *y;

	x = *(const struct config_section *const *)a;
	y = *(const struct config_section *const *)b;

	return (x->line > y->line) - (x->line < y->line);
}

int
config_only_sections(const struct config *cfg, const char *type,
    const char *why, char **cause)
{
	const struct config_section	**bad;
	char				*label, *text, *tmp;
	size_t				 i, n = 0;

	bad = xcalloc(cfg->nsections > 0 ? cfg->nsections : 1, sizeof(*bad));
	for (i = 0; i < cfg->nsections; i++)
		if (cfg->sections[i]->line != 0 &&
		    strcmp(cfg->sections[i]->type->name, type) != 0)
			bad[n++] = cfg->sections[i];
	if (n == 0) {
		free(bad);
		return 0;
	}
	qsort(bad, n, sizeof(*bad), config_section_cmp);
	text = xstrdup("");
	for (i = 0; i < n; i++) {
		label = config_section_label(bad[i]);
		xasprintf(&tmp, "%s%s%s:%d: [%s]: %s", text, i == 0 ? "" :
		    "\n", cfg->file != NULL ? cfg->file : "(defaults)",
		    bad[i]->line, label, why);
		free(label);
		free(text);
		text = tmp;
	}
	free(bad);
	*cause = text;
	return -1;
}

int
config_section_line(const struct config *cfg, const char *section)
{
	const struct config_section_type	*t;
	const struct config_section		*s;
	const char				*name;
	size_t					 tlen;

	name = strchr(section, ' ');
	tlen = name != NULL ? (size_t)(name - section) : strlen(section);
	if ((t = config_find_type(section, tlen)) == NULL)
		fatalx("config: no section [%s]", section);
	s = config_find_section(cfg, t, name != NULL ? name + 1 : NULL);
	return s != NULL ? s->line : 0;
}

const char *
config_get_str(const struct config *cfg, const char *section,
    const char *key)
{
	return config_get(cfg, section, key, -1, NULL)->str;
}

int64_t
config_get_int(const struct config *cfg, const char *section, const char *key)
{
	return config_get(cfg, section, key, CONFIG_INT, NULL)->num;
}

double
config_get_number(const struct config *cfg, const char *section,
    const char *key)
{
	return config_get(cfg, section, key, CONFIG_NUMBER, NULL)->real;
}

int
config_get_bool(const struct config *cfg, const char *section, const char *key)
{
	return config_get(cfg, section, key, CONFIG_BOOL, NULL)->num != 0;
}

int64_t
config_get_duration(const struct config *cfg, const char *section,
    const char *key)
{
	return config_get(cfg, section, key, CONFIG_DURATION, NULL)->num;
}

int64_t
config_get_size(const struct config *cfg, const char *section,
    const char *key)
{
	return config_get(cfg, section, key, CONFIG_SIZE, NULL)->num;
}

double
config_get_ram_multiple(const struct config *cfg, const char *section,
    const char *key)
{
	const struct config_key		*k;
	const struct config_value	*v;

	v = config_get(cfg, section, key, CONFIG_SIZE, &k);
	if (!(k->flags & CONFIG_RAM))
		fatalx("config: [%s] %s is never a multiple of RAM",
		    k->section, key);
	return v->real;
}

char **
config_get_list(const struct config *cfg, const char *section,
    const char *key)
{
	const struct config_key		*k;
	const struct config_value	*v;
	char				**items;

	v = config_get(cfg, section, key, -1, &k);
	if (k->type != CONFIG_LIST && k->type != CONFIG_INTLIST &&
	    k->type != CONFIG_EMAILS)
		fatalx("config: [%s] %s is not a list", k->section, key);
	if (v->str == NULL ||
	    (items = config_split(v->str, k->type != CONFIG_EMAILS)) == NULL)
		return xcalloc(1, sizeof(char *));
	return items;
}

int64_t *
config_get_intlist(const struct config *cfg, const char *section,
    const char *key, size_t *n)
{
	char	**items;
	int64_t	 *out;
	size_t	  i;

	config_get(cfg, section, key, CONFIG_INTLIST, NULL);
	items = config_get_list(cfg, section, key);
	for (i = 0; items[i] != NULL; i++)
		;
	out = xcalloc(i + 1, sizeof(*out));
	for (i = 0; items[i] != NULL; i++)
		if (config_parse_int(items[i], &out[i]) == -1)
			fatalx("config: [%s] %s: checked list unreadable",
			    section, key);
	*n = i;
	config_list_free(items);
	return out;
}
