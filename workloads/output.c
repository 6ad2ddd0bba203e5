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

/* Parse a whole token as a finite number. */
static int
parse_value(const char *s, double *v)
{
	char	*end;

	errno = 0;
	*v = strtod(s, &end);
	/* ERANGE on underflow still gives a usable (denormal or 0) value. */
	if (end == s || *end != '\0' ||
	    (errno == ERANGE && fabs(*v) == HUGE_VAL) || !isfinite(*v))
		return -1;
	return 0;
}

/* Find a metric by name; its index or -1. */
static ssize_t
find_metric(const struct wl_result *res, const char *name)
{
	size_t	i;

	for (i = 0; i < res->nmetrics; i++) {
		if (strcmp(res->metrics[i].name, name) == 0)
			return (ssize_t)i;
	}
	return -1;
}

/* Append a metric to a result. */
static void
add_metric(struct wl_result *res, const char *name, double value,
    const char *unit, enum better better)
{
	struct wl_metric	*m;

	res->metrics = xreallocarray(res->metrics, res->nmetrics + 1,
	    sizeof(*res->metrics));
	m = &res->metrics[res->nmetrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = value;
	m->better = better;
}

/* Append a note to a result. */
static void
add_note(struct wl_result *res, const char *text, size_t len)
{
	while (len > 0 && isspace((unsigned char)text[len - 1]))
		len--;
	res->notes = xreallocarray(res->notes, res->nnotes + 1,
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
parse_line(char *line, size_t lineno, size_t *first_line,
    struct wl_result *res, char **cause)
{
	char		*tok[5], *p, *start, *save = NULL;
	size_t		 n = 0, len;
	double		 value;
	enum better	 better;
	ssize_t		 dup;

	start = line + strspn(line, BLANKS);
	if (*start == '\0')
		return 0;
	if (*start == '#') {
		p = start + 1;
		if (*p == ' ')
			p++;
		add_note(res, p, strlen(p));
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
	if (parse_value(tok[1], &value) == -1) {
		/* line_text() rewrites the buffer tok[1] points into. */
		p = xstrdup(tok[1]);
		xasprintf(cause, "output line %zu: value \"%.60s\" is not a "
		    "finite number, expected " LINE_FORM ", got \"%.60s\"",
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
	if ((dup = find_metric(res, tok[0])) != -1) {
		xasprintf(cause, "output line %zu: metric %s repeated (first "
		    "on line %zu)", lineno, tok[0], first_line[dup]);
		return -1;
	}
	first_line[res->nmetrics] = lineno;
	add_metric(res, tok[0], value, tok[2], better);
	return 0;
}

/* Parse the line form. */
static int
parse_lines(const char *buf, size_t len, struct wl_result *res,
    char **cause)
{
	char		*copy, *line, *nl;
	size_t		*first_line, lineno = 0, maxlines = 1, i;
	int		 rc = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			maxlines++;
	}
	copy = xstrndup(buf, len);
	if (strlen(copy) != len) {
		for (i = 0; buf[i] != '\0'; i++)
			lineno += buf[i] == '\n';
		xasprintf(cause, "output line %zu: contains a NUL byte",
		    lineno + 1);
		free(copy);
		return -1;
	}
	first_line = xcalloc(maxlines + res->nmetrics, sizeof(*first_line));
	for (line = copy; line != NULL && rc == 0; line = nl) {
		lineno++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		rc = parse_line(line, lineno, first_line, res, cause);
	}
	free(first_line);
	free(copy);
	return rc;
}

/* Parse one member of the JSON object. */
static int
parse_json_metric(const char *name, json_t *v, struct wl_result *res,
    char **cause)
{
	const char	*key, *unit = "", *dir;
	json_t		*val = NULL, *m;
	enum better	 better;
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
	if (find_metric(res, name) != -1) {
		xasprintf(cause, "JSON output: metric %s repeated", name);
		return -1;
	}
	add_metric(res, name, json_number_value(val), unit, better);
	return 0;
}

/* Parse the JSON form. */
static int
parse_json(const char *buf, size_t len, struct wl_result *res, char **cause)
{
	json_error_t	 err;
	json_t		*root, *v;
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
	if (!json_is_object(root)) {
		xasprintf(cause, "output line 1: JSON output must be one "
		    "object of metrics");
		json_decref(root);
		return -1;
	}
	json_object_foreach(root, name, v) {
		if ((rc = parse_json_metric(name, v, res, cause)) == -1)
			break;
	}
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
