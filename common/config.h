/*
 * perfwatch.conf: loading, validation and typed access.
 *
 * The file is INI, read by inih; every key is checked against one schema
 * table (config.c) that also holds the defaults.  Unknown sections and
 * keys, duplicate keys and badly typed values are errors, each reported
 * as "file:line: key: what was expected", one per line.
 *
 * Sections are named by their type ("schedule") or, for the kinds that
 * come in several, by type and name separated by one space ("workload
 * disk.bonnie" for [workload "disk.bonnie"]).  A named section that is not
 * in the file reads as its defaults.  Asking for a section or key that the
 * schema does not have, or with a getter of the wrong type, is a
 * programming error and fatal.
 */
#ifndef PERFWATCH_CONFIG_H
#define PERFWATCH_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#ifndef SYSCONFDIR
#define SYSCONFDIR		"/etc"
#endif
#define CONFIG_DEFAULT_PATH	SYSCONFDIR "/perfwatch/perfwatch.conf"

struct config;

/*
 * Load a file or a buffer.  On error return NULL and set *cause to every
 * error found, one per line; if the file does not exist, errno is ENOENT
 * so that a caller may fall back to config_default().
 */
struct config	*config_load(const char *path, char **cause);
struct config	*config_load_buffer(const char *name, const char *buf,
		    size_t len, char **cause);
/* Every key at its default, no named sections. */
struct config	*config_default(void);
void		 config_free(struct config *);
/* The file the configuration came from, or NULL for config_default(). */
const char	*config_file(const struct config *);

/*
 * Load path and report to out: "path: OK" (and with verbose every
 * effective value), or each error.  Return 0 if the file is valid, else -1.
 */
int		 config_check(const char *path, FILE *out, int verbose);
/* Write every effective value as a loadable file. */
int		 config_dump(const struct config *, FILE *);
int		 config_dump_except(const struct config *, FILE *,
		     const char *);

/*
 * The name of the index-th section of a named type ("workload") in file
 * order, or NULL past the last one.
 */
const char	*config_sections(const struct config *, const char *type,
		    size_t index);

/* 1 if the key was written in the file, else 0. */
int		 config_is_set(const struct config *, const char *section,
		    const char *key);
/* The line of the file that set the key; 0 if none did. */
int		 config_key_line(const struct config *, const char *section,
		    const char *key);

/* The line of the section's header; 0 if the file has no such section. */
int		 config_section_line(const struct config *, const char *section);

/*
 * Refuse every section written in the file but those of one type (a
 * profile: "workload"), each as "file:line: [section]: why", in line
 * order.  0, or -1 and *cause.
 */
int		 config_only_sections(const struct config *, const char *type,
		    const char *why, char **cause);

/*
 * Typed getters.  A key without a value (no default, or "none") reads as
 * NULL, 0 or an empty list.
 */
char		*config_url_shown(const char *);
const char	*config_get_str(const struct config *, const char *section,
		    const char *key);
int64_t		 config_get_int(const struct config *, const char *section,
		    const char *key);
double		 config_get_number(const struct config *, const char *section,
		    const char *key);
int		 config_get_bool(const struct config *, const char *section,
		    const char *key);
int64_t		 config_get_duration(const struct config *,
		    const char *section, const char *key);	/* seconds */
int64_t		 config_get_size(const struct config *, const char *section,
		    const char *key);				/* bytes */
/* A size that may be written "2x": that multiple of RAM, else 0. */
double		 config_get_ram_multiple(const struct config *,
		    const char *section, const char *key);
/* A list key's items, NULL-terminated; free with config_list_free(). */
char		**config_get_list(const struct config *, const char *section,
		    const char *key);
void		 config_list_free(char **);
/* An integer list key's items; *n is set to their number. */
int64_t		*config_get_intlist(const struct config *, const char *section,
		    const char *key, size_t *n);

/*
 * A CONFIG_LISTEN value ([perfwatch] http): "127.0.0.1:8089" or
 * "[::1]:8089", a numeric address and a port from 1 to 65535.  0 and the
 * address (without brackets, into host) and port, or -1.
 */
int		 config_listen_parse(const char *, char *host, size_t hostlen,
		    int *port);

/* Parse a size with an optional K, M, G or T (binary) suffix. */
int		 config_parse_size(const char *, int64_t *);

#endif
