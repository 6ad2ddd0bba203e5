/*
 * String-keyed open-addressing hash map.  The table is kept at most half
 * full, so a probe sequence is short and always ends at an empty slot.
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "xmalloc.h"

struct hmap_slot {
	char	*key;
	uint64_t hash;
	int64_t	 value;
};

struct hmap {
	struct hmap_slot *slots;
	size_t		  cap;	/* a power of two */
	size_t		  count;
};

/* FNV-1a, 64 bits. */
static uint64_t
hmap_hash(const char *s)
{
	uint64_t	h = 0xcbf29ce484222325ULL;

	while (*s != '\0') {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct hmap *
hmap_new(void)
{
	struct hmap	*m = xcalloc(1, sizeof(*m));

	m->cap = 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	return m;
}

void
hmap_free(struct hmap *m)
{
	size_t	i;

	if (m == NULL)
		return;
	for (i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	free(m);
}

/* Find the slot of key, or the empty slot where it would go. */
static struct hmap_slot *
hmap_find(const struct hmap *m, const char *key, uint64_t h)
{
	size_t	i = (size_t)h & (m->cap - 1);

	for (;;) {
		struct hmap_slot *s = &m->slots[i];

		if (s->key == NULL ||
		    (s->hash == h && strcmp(s->key, key) == 0))
			return s;
		i = (i + 1) & (m->cap - 1);
	}
}

/* Look key up: 0 and *value set when present, -1 otherwise. */
int
hmap_get(const struct hmap *m, const char *key, int64_t *value)
{
	struct hmap_slot	*s = hmap_find(m, key, hmap_hash(key));

	if (s->key == NULL)
		return -1;
	*value = s->value;
	return 0;
}

/* Double the table and re-insert every key. */
static void
hmap_grow(struct hmap *m)
{
	struct hmap_slot	*old = m->slots;
	size_t			 oldcap = m->cap, i;

	m->cap *= 2;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (i = 0; i < oldcap; i++) {
		if (old[i].key != NULL)
			*hmap_find(m, old[i].key, old[i].hash) = old[i];
	}
	free(old);
}

/* Set key to value, adding the key if it is new. */
void
hmap_put(struct hmap *m, const char *key, int64_t value)
{
	struct hmap_slot	*s;
	uint64_t		 h = hmap_hash(key);

	s = hmap_find(m, key, h);
	if (s->key != NULL) {
		s->value = value;
		return;
	}
	if ((m->count + 1) * 2 > m->cap) {
		hmap_grow(m);
		s = hmap_find(m, key, h);
	}
	s->key = xstrdup(key);
	s->hash = h;
	s->value = value;
	m->count++;
}

size_t
hmap_count(const struct hmap *m)
{
	return m->count;
}
