/*
 * Small helpers over Jansson (json_* is Jansson's prefix; ours is pwjson_).
 *
 * Output: pwjson_print() and pwjson_dumps() write members in the order
 * they were added (or sorted, on request) and each real number in the
 * fewest digits that read back as the same double (Jansson alone writes
 * 0.1 as 0.10000000000000001).
 *
 * Input: typed member getters that say what was wrong through *cause.
 *
 * Building: pwjson_set_*() add a member and return the object, so calls
 * nest; strings that are not valid UTF-8 are repaired with U+FFFD rather
 * than refused, and allocation failure is fatal, as with xmalloc.
 */
#ifndef PERFWATCH_JSON_H
#define PERFWATCH_JSON_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define PWJSON_COMPACT		0x0	/* one line: {"a":1,"b":[1,2]} */
#define PWJSON_PRETTY		0x1	/* a member a line, two-space indent */
#define PWJSON_SORT_KEYS	0x2	/* members by key, bytewise */

/* Write v and a newline; 0, or -1 on a write error. */
int	 pwjson_print(FILE *, const json_t *, int flags);
/* v as an allocated string, without a newline. */
char	*pwjson_dumps(const json_t *, int flags);
/*
 * Write v, without a newline, as a value at nesting depth (1: an element
 * of a top-level array): for an array written an element at a time.
 */
void	 pwjson_write_at(FILE *, const json_t *, int flags, int depth);

/* Parse one JSON object or array; NULL with "line L, column C: ..." */
json_t	*pwjson_parse(const char *, size_t, char **cause);

/*
 * The member key of object obj, of the type named: 0, or -1 with *cause
 * ("key: missing", "key: expected an integer, got a string").  A string
 * stays owned by obj.
 */
int	 pwjson_get_str(const json_t *, const char *, const char **, char **);
int	 pwjson_get_int(const json_t *, const char *, int64_t *, char **);
int	 pwjson_get_num(const json_t *, const char *, double *, char **);
int	 pwjson_get_bool(const json_t *, const char *, int *, char **);
/* 1 if obj has the member and it is not null. */
int	 pwjson_has(const json_t *, const char *);

json_t	*pwjson_object(void);
json_t	*pwjson_array(void);
/* A string value; NULL gives null, bad UTF-8 is repaired. */
json_t	*pwjson_str(const char *);
/* A real value; NaN or an infinity, which JSON cannot say, gives null. */
json_t	*pwjson_num(double);
/* Set a member and return obj. */
json_t	*pwjson_set(json_t *obj, const char *key, json_t *value); /* steals */
json_t	*pwjson_set_str(json_t *, const char *, const char *);
json_t	*pwjson_set_int(json_t *, const char *, int64_t);
json_t	*pwjson_set_num(json_t *, const char *, double);  /* NaN: null */
json_t	*pwjson_set_bool(json_t *, const char *, int);
/* Append to an array and return it. */
json_t	*pwjson_append(json_t *array, json_t *value);		  /* steals */

#endif
