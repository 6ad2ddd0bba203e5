/*
 * A string-keyed hash map to int64 values (open addressing, linear probe).
 * Keys are copied.  Used where an import must map names to ids quickly.
 */
#ifndef PERFWATCH_HMAP_H
#define PERFWATCH_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct hmap;

struct hmap	*hmap_new(void);
void		 hmap_free(struct hmap *);
int		 hmap_get(const struct hmap *, const char *, int64_t *);
void		 hmap_put(struct hmap *, const char *, int64_t);
size_t		 hmap_count(const struct hmap *);

#endif
