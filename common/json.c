/*
 * Small helpers over Jansson: stable output, typed getters, building.
 *
 * The writer is ours rather than json_dumpf() for one reason: numbers.
 * Jansson prints every real with 17 significant digits, so a benchmark
 * figure of 19004.1 comes out as 19004.099999999999.  We print the
 * shortest form that reads back as the same double, which keeps exports
 * byte-stable across an import and an export.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "perfwatch.h"
#include "utf8.h"
#include "xmalloc.h"

/* Write s (len bytes) as a JSON string literal. */
static void
pwjson_write_string(FILE *fp, const char *s, size_t len)
{
	unsigned char	 c;
	size_t		 i;

	fputc('"', fp);
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		default:
			if (c < 0x20)
				fprintf(fp, "\\u%04x", c);
			else
				fputc(c, fp);
			break;
		}
	}
	fputc('"', fp);
}

/*
 * Write a double in the fewest significant digits that read back as the
 * same value, as a CSV or an export writes it (a subnormal 1e-310 was
 * 9.99999999999997e-311 here, from a search of its own that began at
 * 15), always with a '.' or an exponent so that it reads back as a real.
 */
static void
pwjson_write_real(FILE *fp, double d)
{
	char	 buf[64];
	char	*p;

	perfwatch_format_double(buf, sizeof(buf), d);
	/* A locale may use another decimal point; JSON wants '.'. */
	for (p = buf; *p != '\0'; p++)
		if (strchr("0123456789+-eE", *p) == NULL)
			*p = '.';
	fputs(buf, fp);
	if (strpbrk(buf, ".eE") == NULL)
		fputs(".0", fp);
}

/* Compare two keys for PWJSON_SORT_KEYS. */
static int
pwjson_key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Start a new line at the given depth, for PWJSON_PRETTY. */
static void
pwjson_newline(FILE *fp, int flags, int depth)
{
	if (flags & PWJSON_PRETTY)
		fprintf(fp, "\n%*s", depth * 2, "");
}

/* Write v at nesting depth. */
static void
pwjson_write(FILE *fp, const json_t *v, int flags, int depth)
{
	const char	**keys, *key;
	json_t		 *m;
	size_t		  i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		n = json_object_size(v);
		if (n == 0) {
			fputs("{}", fp);
			break;
		}
		keys = xreallocarray(NULL, n, sizeof(*keys));
		i = 0;
		json_object_foreach((json_t *)v, key, m)
			keys[i++] = key;
		if (flags & PWJSON_SORT_KEYS)
			qsort(keys, n, sizeof(*keys), pwjson_key_cmp);
		fputc('{', fp);
		for (i = 0; i < n; i++) {
			if (i > 0)
				fputc(',', fp);
			pwjson_newline(fp, flags, depth + 1);
			pwjson_write_string(fp, keys[i], strlen(keys[i]));
			fputs((flags & PWJSON_PRETTY) ? ": " : ":", fp);
			pwjson_write(fp, json_object_get(v, keys[i]), flags,
			    depth + 1);
		}
		pwjson_newline(fp, flags, depth);
		fputc('}', fp);
		free(keys);
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		if (n == 0) {
			fputs("[]", fp);
			break;
		}
		fputc('[', fp);
		for (i = 0; i < n; i++) {
			if (i > 0)
				fputc(',', fp);
			pwjson_newline(fp, flags, depth + 1);
			pwjson_write(fp, json_array_get(v, i), flags,
			    depth + 1);
		}
		pwjson_newline(fp, flags, depth);
		fputc(']', fp);
		break;
	case JSON_STRING:
		pwjson_write_string(fp, json_string_value(v),
		    json_string_length(v));
		break;
	case JSON_INTEGER:
		fprintf(fp, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		pwjson_write_real(fp, json_real_value(v));
		break;
	case JSON_TRUE:
		fputs("true", fp);
		break;
	case JSON_FALSE:
		fputs("false", fp);
		break;
	case JSON_NULL:
		fputs("null", fp);
		break;
	}
}

void
pwjson_write_at(FILE *fp, const json_t *v, int flags, int depth)
{
	pwjson_write(fp, v, flags, depth);
}

int
pwjson_print(FILE *fp, const json_t *v, int flags)
{
	pwjson_write(fp, v, flags, 0);
	fputc('\n', fp);
	if (fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}

char *
pwjson_dumps(const json_t *v, int flags)
{
	FILE	*fp;
	char	*buf = NULL;
	size_t	 len = 0;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	pwjson_write(fp, v, flags, 0);
	if (fclose(fp) != 0)
		fatal("open_memstream");
	return buf;
}

json_t *
pwjson_parse(const char *buf, size_t len, char **cause)
{
	json_error_t	 err;
	json_t		*v;

	v = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (v == NULL)
		xasprintf(cause, "line %d, column %d: %s", err.line,
		    err.column, err.text);
	return v;
}

/* What a JSON value is, for messages. */
static const char *
pwjson_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "unknown";
}

/* The member key of obj, or NULL with *cause set. */
static json_t *
pwjson_member(const json_t *obj, const char *key, char **cause)
{
	json_t	*v;

	if (!json_is_object(obj)) {
		xasprintf(cause, "%s: expected an object, got %s", key,
		    obj == NULL ? "nothing" : pwjson_type_name(obj));
		return NULL;
	}
	if ((v = json_object_get(obj, key)) == NULL)
		xasprintf(cause, "%s: missing", key);
	return v;
}

/* Fail with "key: expected what, got ...". */
static int
pwjson_wrong(const char *key, const char *what, const json_t *v,
    char **cause)
{
	xasprintf(cause, "%s: expected %s, got %s", key, what,
	    pwjson_type_name(v));
	return -1;
}

int
pwjson_get_str(const json_t *obj, const char *key, const char **out,
    char **cause)
{
	json_t	*v;

	if ((v = pwjson_member(obj, key, cause)) == NULL)
		return -1;
	if (!json_is_string(v))
		return pwjson_wrong(key, "a string", v, cause);
	*out = json_string_value(v);
	return 0;
}

int
pwjson_get_int(const json_t *obj, const char *key, int64_t *out,
    char **cause)
{
	json_t	*v;

	if ((v = pwjson_member(obj, key, cause)) == NULL)
		return -1;
	if (!json_is_integer(v))
		return pwjson_wrong(key, "an integer", v, cause);
	*out = json_integer_value(v);
	return 0;
}

int
pwjson_get_num(const json_t *obj, const char *key, double *out,
    char **cause)
{
	json_t	*v;

	if ((v = pwjson_member(obj, key, cause)) == NULL)
		return -1;
	if (!json_is_number(v))
		return pwjson_wrong(key, "a number", v, cause);
	*out = json_number_value(v);
	return 0;
}

int
pwjson_get_bool(const json_t *obj, const char *key, int *out, char **cause)
{
	json_t	*v;

	if ((v = pwjson_member(obj, key, cause)) == NULL)
		return -1;
	if (!json_is_boolean(v))
		return pwjson_wrong(key, "true or false", v, cause);
	*out = json_is_true(v);
	return 0;
}

int
pwjson_has(const json_t *obj, const char *key)
{
	json_t	*v;

	if (!json_is_object(obj))
		return 0;
	v = json_object_get(obj, key);
	return v != NULL && !json_is_null(v);
}

/* Fail hard when Jansson could not allocate. */
static json_t *
pwjson_must(json_t *v)
{
	if (v == NULL)
		fatalx("jansson: out of memory");
	return v;
}

json_t *
pwjson_object(void)
{
	return pwjson_must(json_object());
}

json_t *
pwjson_array(void)
{
	return pwjson_must(json_array());
}

json_t *
pwjson_str(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	char			*fixed;
	size_t			 n, i, k, out = 0;
	json_t			*v;

	if (s == NULL)
		return pwjson_must(json_null());
	n = strlen(s);
	for (i = 0; i < n; i += k)
		if ((k = utf8_seq_len(p + i, n - i)) == 0)
			break;
	if (i == n)
		return pwjson_must(json_stringn(s, n));
	/* Each bad byte becomes U+FFFD, three bytes. */
	fixed = xreallocarray(NULL, n + 1, 3);
	for (i = 0; i < n; i += k) {
		if ((k = utf8_seq_len(p + i, n - i)) == 0) {
			memcpy(fixed + out, "\xef\xbf\xbd", 3);
			out += 3;
			k = 1;
		} else {
			memcpy(fixed + out, s + i, k);
			out += k;
		}
	}
	v = pwjson_must(json_stringn(fixed, out));
	free(fixed);
	return v;
}

json_t *
pwjson_set(json_t *obj, const char *key, json_t *value)
{
	if (json_object_set_new(obj, key, pwjson_must(value)) == -1)
		fatalx("jansson: cannot set member %s", key);
	return obj;
}

json_t *
pwjson_set_str(json_t *obj, const char *key, const char *s)
{
	return pwjson_set(obj, key, pwjson_str(s));
}

json_t *
pwjson_set_int(json_t *obj, const char *key, int64_t n)
{
	return pwjson_set(obj, key, json_integer(n));
}

/* Jansson refuses a real that is not finite (NULL, as when out of memory). */
json_t *
pwjson_num(double d)
{
	return pwjson_must(isfinite(d) ? json_real(d) : json_null());
}

json_t *
pwjson_set_num(json_t *obj, const char *key, double d)
{
	return pwjson_set(obj, key, pwjson_num(d));
}

json_t *
pwjson_set_bool(json_t *obj, const char *key, int b)
{
	return pwjson_set(obj, key, json_boolean(b));
}

json_t *
pwjson_append(json_t *array, json_t *value)
{
	if (json_array_append_new(array, pwjson_must(value)) == -1)
		fatalx("jansson: cannot append to an array");
	return array;
}
