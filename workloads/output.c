/*
 * The result protocol, shared by native workloads and user commands.
 *
 * Line form: one metric a line, "metric value unit [higher|lower]",
 * fields separated by blanks.  A metric name is 1-63 characters of
 * [A-Za-z0-9_.:/-] starting with a letter, digit or '_'; the value is a
 * finite number as strtod(3) reads it; the unit is 1-15 printable ASCII
 * characters (so "us", not "µs").  Without a direction, a time unit (s,
 * sec, ms, us, ns, min, h) means lower is better and anything else
 * higher.  Fields are separated by blanks (space, tab, CR, FF, VT), and
 * blank lines are skipped; a line whose first non-blank character is '#' is a note, kept
 * as text.  A name may appear only once.
 *
 * JSON form, when the first non-blank character is '{': one object whose
 * members are metrics, each either a number ({"x": 1.2}: no unit, higher
 * is better) or an object {"value": 1.2, "unit": "s", "better": "lower"}
 * with "value" required and the same defaults as the line form.  Every
 * number, whole or not, is read as a double, within a double's range.
 *
 * Every error names the output line it is on (for JSON semantic errors,
 * the metric) and what was expected.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hmap.h"
#include "xmalloc.h"
#include "workloads.h"

#define LINE_FORM	"\"metric value unit [higher|lower]\""
#define BLANKS		" \t\r\f\v"

/* Is this a valid metric name? */
static int
name_valid(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || len >= WL_NAME_MAX)
		return 0;
	if (!isalnum((unsigned char)s[0]) && s[0] != '_')
		return 0;
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) &&
		    strchr("_.:/-", s[i]) == NULL)
			return 0;
	}
	return 1;
}

/* Is this unit short enough? */
static int
unit_fits(size_t len)
{
	return len < WL_UNIT_MAX;
}

/* Is this unit printable ASCII without blanks? */
static int
unit_printable(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (!isgraph((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/* The direction a metric takes when its line does not say. */
static enum better
default_better(const char *unit)
{
	static const char *const times[] = {
		"s", "sec", "secs", "seconds", "ms", "msec", "us", "usec",
		"ns", "nsec", "min", "h",
	};
	size_t	i;

	for (i = 0; i < nitems(times); i++) {
		if (strcmp(unit, times[i]) == 0)
			return BETTER_LOWER;
	}
	return BETTER_HIGHER;
}

/*
 * Parse a whole token as a finite number, as import reads a value: not
 * hexadecimal (strtod's 0x10, which no benchmark prints and import
 * refuses).  0, -1 when it is no such number, -2 when it is one beyond
 * a double's range: too large (1e400), or so near 0 that it would be
 * stored as 0 (1e-400); one only read as a denormal (1e-310) keeps the
 * digits it can.
 */
static int
parse_value(const char *s, double *v)
{
	char	*end;

	if (strpbrk(s, "xX") != NULL)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end != '\0')
		return -1;
	if (errno == ERANGE && (fabs(*v) == HUGE_VAL || *v == 0))
		return -2;
	return isfinite(*v) ? 0 : -1;
}

/*
 * What the parse of one output keeps beside res: the names res holds,
 * each with the output line it came from (0: before this output), and
 * the slots its arrays have.  1 MiB of output holds some 100,000
 * metrics: each looked for among all before it, and each array grown by
 * one, took the runner half a minute of CPU (minutes under ASan, whose
 * realloc always copies).
 */
struct parse {
	struct wl_result	*res;
	struct hmap		*names;
	size_t			 metrics_room;
	size_t			 notes_room;
};

/* Start parsing an output into res, after what it holds. */
static void
parse_start(struct parse *ps, struct wl_result *res)
{
	size_t	i;

	ps->res = res;
	ps->names = hmap_new();
	for (i = 0; i < res->nmetrics; i++)
		hmap_put(ps->names, res->metrics[i].name, 0);
	ps->metrics_room = res->nmetrics;
	ps->notes_room = res->nnotes;
}

/* Drop what the parse kept beside res. */
static void
parse_end(struct parse *ps)
{
	hmap_free(ps->names);
	ps->names = NULL;
}

/* Slots for one more element of an array of n, doubling its room. */
static void *
parse_grow(void *array, size_t n, size_t *room, size_t size)
{
	if (n < *room)
		return array;
	*room = n < 8 ? 8 : 2 * n;
	return xreallocarray(array, *room, size);
}

/* Append a metric to a result. */
static void
add_metric(struct parse *ps, const char *name, double value,
    const char *unit, enum better better)
{
	struct wl_result	*res = ps->res;
	struct wl_metric	*m;

	res->metrics = parse_grow(res->metrics, res->nmetrics,
	    &ps->metrics_room, sizeof(*res->metrics));
	m = &res->metrics[res->nmetrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = value;
	m->better = better;
}

/* Append a note to a result. */
static void
add_note(struct parse *ps, const char *text, size_t len)
{
	struct wl_result	*res = ps->res;

	while (len > 0 && isspace((unsigned char)text[len - 1]))
		len--;
	res->notes = parse_grow(res->notes, res->nnotes, &ps->notes_room,
	    sizeof(*res->notes));
	res->notes[res->nnotes++] = xstrndup(text, len);
}

/*
 * The len bytes at text, which strtok_r() cut into fields, as a message
 * quotes the line: its fields with one space between them.  In place.
 */
static char *
line_text(char *text, size_t len)
{
	size_t	i, n = 0;
	int	blank;

	for (i = 0; i < len; i++) {
		blank = text[i] == '\0' || strchr(BLANKS, text[i]) != NULL;
		if (!blank)
			text[n++] = text[i];
		else if (n > 0 && text[n - 1] != ' ')
			text[n++] = ' ';
	}
	if (n > 0 && text[n - 1] == ' ')
		n--;
	text[n] = '\0';
	return text;
}

/* Parse one line (NUL-terminated, modified in place). */
static int
parse_line(char *line, size_t lineno, struct parse *ps, char **cause)
{
	char		*tok[5], *p, *start, *save = NULL;
	size_t		 n = 0, len;
	double		 value;
	enum better	 better;
	int64_t		 first;
	int		 rc;

	start = line + strspn(line, BLANKS);
	if (*start == '\0')
		return 0;
	if (*start == '#') {
		p = start + 1;
		if (*p == ' ')
			p++;
		add_note(ps, p, strlen(p));
		return 0;
	}
	len = strlen(start);
	for (p = strtok_r(start, BLANKS, &save); p != NULL;
	    p = strtok_r(NULL, BLANKS, &save)) {
		if (n == nitems(tok))
			break;
		tok[n++] = p;
	}
	if (n < 3 || n > 4) {
		xasprintf(cause, "output line %zu: %s, expected " LINE_FORM
		    ", got \"%.60s\"", lineno, n < 3 ? "too few fields" :
		    "too many fields", line_text(start, len));
		return -1;
	}
	if (!name_valid(tok[0], strlen(tok[0]))) {
		xasprintf(cause, "output line %zu: bad metric name \"%.60s\" "
		    "(1-%d of A-Z a-z 0-9 _ . : / -)", lineno, tok[0],
		    WL_NAME_MAX - 1);
		return -1;
	}
	if ((rc = parse_value(tok[1], &value)) != 0) {
		/* line_text() rewrites the buffer tok[1] points into. */
		p = xstrdup(tok[1]);
		xasprintf(cause, "output line %zu: value \"%.60s\" is %s, "
		    "expected " LINE_FORM ", got \"%.60s\"", lineno, p,
		    rc == -2 ? "beyond what a double holds" :
		    "not a finite number", line_text(start, len));
		free(p);
		return -1;
	}
	/*
	 * "latency 5 lower" is a line without its unit, not one whose unit
	 * is "lower": taken so, its direction would be the default for an
	 * unknown unit (higher), the opposite of what it says.
	 */
	if (n == 3 && better_parse(tok[2], &better) == 0) {
		p = xstrdup(tok[2]);
		xasprintf(cause, "output line %zu: \"%s\" stands where the "
		    "unit goes, expected " LINE_FORM ", got \"%.60s\"",
		    lineno, p, line_text(start, len));
		free(p);
		return -1;
	}
	if (!unit_fits(strlen(tok[2]))) {
		xasprintf(cause, "output line %zu: unit \"%.60s\" is longer "
		    "than %d characters", lineno, tok[2], WL_UNIT_MAX - 1);
		return -1;
	}
	if (!unit_printable(tok[2], strlen(tok[2]))) {
		xasprintf(cause, "output line %zu: unit \"%.60s\" is not "
		    "printable ASCII (write us for µs)", lineno, tok[2]);
		return -1;
	}
	if (n == 4) {
		if (better_parse(tok[3], &better) == -1) {
			xasprintf(cause, "output line %zu: expected higher or "
			    "lower, got \"%.60s\"", lineno, tok[3]);
			return -1;
		}
	} else
		better = default_better(tok[2]);
	if (hmap_get(ps->names, tok[0], &first) == 0) {
		xasprintf(cause, "output line %zu: metric %s repeated (first "
		    "on line %lld)", lineno, tok[0], (long long)first);
		return -1;
	}
	hmap_put(ps->names, tok[0], (int64_t)lineno);
	add_metric(ps, tok[0], value, tok[2], better);
	return 0;
}

/* Parse the line form. */
static int
parse_lines(const char *buf, size_t len, struct wl_result *res,
    char **cause)
{
	struct parse	 ps;
	char		*copy, *line, *nl;
	size_t		 lineno = 0, i;
	int		 rc = 0;

	copy = xstrndup(buf, len);
	if (strlen(copy) != len) {
		for (i = 0; buf[i] != '\0'; i++)
			lineno += buf[i] == '\n';
		xasprintf(cause, "output line %zu: contains a NUL byte",
		    lineno + 1);
		free(copy);
		return -1;
	}
	parse_start(&ps, res);
	for (line = copy; line != NULL && rc == 0; line = nl) {
		lineno++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		rc = parse_line(line, lineno, &ps, cause);
	}
	parse_end(&ps);
	free(copy);
	return rc;
}

/* Parse one member of the JSON object. */
static int
parse_json_metric(const char *name, json_t *v, struct parse *ps,
    char **cause)
{
	const char	*key, *unit = "", *dir;
	json_t		*val = NULL, *m;
	enum better	 better;
	int64_t		 first;
	int		 have_better = 0;

	if (!name_valid(name, strlen(name))) {
		xasprintf(cause, "JSON output: bad metric name \"%.60s\" "
		    "(1-%d of A-Z a-z 0-9 _ . : / -)", name, WL_NAME_MAX - 1);
		return -1;
	}
	if (json_is_number(v))
		val = v;
	else if (json_is_object(v)) {
		json_object_foreach(v, key, m) {
			if (strcmp(key, "value") == 0)
				val = m;
			else if (strcmp(key, "unit") == 0) {
				if (!json_is_string(m) ||
				    !unit_fits(json_string_length(m)) ||
				    !unit_printable(json_string_value(m),
				    json_string_length(m))) {
					xasprintf(cause, "JSON output: metric "
					    "%s: unit must be a string of at "
					    "most %d printable ASCII characters",
					    name, WL_UNIT_MAX - 1);
					return -1;
				}
				unit = json_string_value(m);
			} else if (strcmp(key, "better") == 0) {
				dir = json_is_string(m) ?
				    json_string_value(m) : "";
				if (better_parse(dir, &better) == -1) {
					xasprintf(cause, "JSON output: metric "
					    "%s: better must be \"higher\" or "
					    "\"lower\"", name);
					return -1;
				}
				have_better = 1;
			} else {
				xasprintf(cause, "JSON output: metric %s: "
				    "unknown member \"%.40s\" (expected value, "
				    "unit, better)", name, key);
				return -1;
			}
		}
		if (val == NULL) {
			xasprintf(cause, "JSON output: metric %s has no "
			    "\"value\"", name);
			return -1;
		}
	} else {
		xasprintf(cause, "JSON output: metric %s must be a number or "
		    "an object", name);
		return -1;
	}
	if (!json_is_number(val) || !isfinite(json_number_value(val))) {
		xasprintf(cause, "JSON output: value of %s is not a number",
		    name);
		return -1;
	}
	if (!have_better)
		better = default_better(unit);
	/* The object's own keys are unique (JSON_REJECT_DUPLICATES). */
	if (hmap_get(ps->names, name, &first) == 0) {
		xasprintf(cause, "JSON output: metric %s repeated", name);
		return -1;
	}
	hmap_put(ps->names, name, 0);
	add_metric(ps, name, json_number_value(val), unit, better);
	return 0;
}

/*
 * Find a number of the JSON text buf (len bytes, outside its strings) so
 * near 0 that a double holds only 0 (1e-400): Jansson reads it as 0, and
 * the line form and import refuse it.  0 when there is none, else -1
 * with *cause naming its line and column.
 */
static int
json_underflow(const char *buf, size_t len, char **cause)
{
	size_t	 i, start, line = 1, col0 = 0;
	char	 num[64], *end;
	double	 v;
	int	 instr = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			line++;
			col0 = i + 1;
		} else if (instr) {
			if (buf[i] == '\\')
				i++;
			else if (buf[i] == '"')
				instr = 0;
		} else if (buf[i] == '"')
			instr = 1;
		else if (buf[i] == '-' || (buf[i] >= '0' && buf[i] <= '9')) {
			for (start = i; i < len && strchr("+-.0123456789eE",
			    buf[i]) != NULL && buf[i] != '\0'; i++)
				;
			if (i - start < sizeof(num)) {
				memcpy(num, buf + start, i - start);
				num[i - start] = '\0';
				errno = 0;
				v = strtod(num, &end);
				if (errno == ERANGE && v == 0 && *end == '\0') {
					xasprintf(cause, "output line %zu column "
					    "%zu: %s is beyond what a double "
					    "holds", line, start - col0 + 1,
					    num);
					return -1;
				}
			}
			i--;
		}
	}
	return 0;
}

/* Parse the JSON form. */
static int
parse_json(const char *buf, size_t len, struct wl_result *res, char **cause)
{
	json_error_t	 err;
	json_t		*root, *v;
	struct parse	 ps;
	const char	*name;
	int		 rc = 0;

	/*
	 * JSON has one kind of number: a whole one past a long long (a byte
	 * counter) is read into a double, as the line form reads it, not
	 * refused as "too big integer".  One past a double still is.
	 */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES |
	    JSON_DECODE_INT_AS_REAL, &err);
	if (root == NULL) {
		xasprintf(cause, "output line %d column %d: invalid JSON: %s",
		    err.line, err.column, err.text);
		return -1;
	}
	if (json_underflow(buf, len, cause) == -1) {
		json_decref(root);
		return -1;
	}
	if (!json_is_object(root)) {
		xasprintf(cause, "output line 1: JSON output must be one "
		    "object of metrics");
		json_decref(root);
		return -1;
	}
	parse_start(&ps, res);
	json_object_foreach(root, name, v) {
		if ((rc = parse_json_metric(name, v, &ps, cause)) == -1)
			break;
	}
	parse_end(&ps);
	json_decref(root);
	return rc;
}

/*
 * Parse a workload's output into res (metrics and notes are appended).
 * Returns 0, or -1 with *cause naming the line at fault.
 */
int
wl_parse_output(const char *buf, size_t len, struct wl_result *res,
    char **cause)
{
	size_t	i;

	for (i = 0; i < len && isspace((unsigned char)buf[i]); i++)
		;
	if (i < len && buf[i] == '{')
		return parse_json(buf, len, res, cause);
	return parse_lines(buf, len, res, cause);
}
