/*
 * The settings perfwatchd keeps in the store, so that a restart finds
 * them: the last commit of each watched repository, the schedule's fires
 * accounted for, whether it is paused.
 *
 * Each is one small write, but the store may be held locked by another
 * process for far longer than the event loop can stand still: `perfwatch
 * import` writes a whole file in one transaction, minutes for a large
 * one.  The store's usual busy wait (5 s) would stop the control socket,
 * the dashboard and the timers for that long at every write, and then
 * lose the setting: a restart would measure a commit again or forget a
 * pause.  So a write here waits only SETTING_WAIT_MS, and one the lock
 * refuses is kept in memory, the newest value of each key, and tried
 * again every SETTING_RETRY seconds until it lands.  What the daemon
 * does meanwhile follows its memory, as it always did; reading a setting
 * back (a reload) sees the value kept here before the store's.  At stop,
 * what is still kept gets the store's usual wait, and what even that
 * cannot save is said in the log, key by key.
 *
 * Only a lock is waited out.  Any other failure (a full disk, a store
 * migrated by a newer perfwatch) is the caller's to report, as before;
 * one that a later try meets is logged here, and the setting dropped.
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "log.h"
#include "xmalloc.h"
#include "store/store.h"
#include "daemon.h"

#define SETTING_WAIT_MS	200	/* a write's wait for the lock */
#define SETTING_RETRY	5	/* seconds between tries of those kept */

struct setting_kept {
	char	*key;
	char	*value;		/* NULL: delete the key */
};

static void	setting_retry(evutil_socket_t, short, void *);

/* The kept write of key, or NULL. */
static struct setting_kept *
setting_find(struct daemon *d, const char *key)
{
	size_t	i;

	for (i = 0; i < d->nkept; i++)
		if (strcmp(d->kept[i].key, key) == 0)
			return &d->kept[i];
	return NULL;
}

/* Forget the kept write of key, if any. */
static void
setting_forget(struct daemon *d, const char *key)
{
	struct setting_kept	*k;

	if ((k = setting_find(d, key)) == NULL)
		return;
	free(k->key);
	free(k->value);
	*k = d->kept[--d->nkept];
	if (d->nkept == 0) {
		free(d->kept);
		d->kept = NULL;
	}
}

/*
 * One write of a setting in its own transaction, waiting up to wait_ms
 * for the lock (-1: the store's usual wait); 0 when it was saved, -1
 * when not, with store_busy() and store_errmsg() saying why.
 */
static int
setting_write(struct daemon *d, const char *key, const char *value,
    int wait_ms)
{
	int	 was = 0, rc = -1;

	if (wait_ms >= 0)
		was = store_busy_limit(d->st, wait_ms);
	if (daemon_store_begin(d) == 0) {
		if (store_setting_set(d->st, key, value) == 0 &&
		    store_commit(d->st) == 0)
			rc = 0;
		else
			(void)store_rollback(d->st);
	}
	if (wait_ms >= 0)
		(void)store_busy_limit(d->st, was);
	return rc;
}

/* Try the kept writes again in SETTING_RETRY seconds. */
static void
setting_arm(struct daemon *d)
{
	struct timeval	tv = { SETTING_RETRY, 0 };

	if (d->kept_timer == NULL)
		d->kept_timer = evtimer_new(d->base, setting_retry, d);
	if (d->kept_timer == NULL)
		fatalx("cannot make the settings' timer");
	evtimer_add(d->kept_timer, &tv);
}

/*
 * Save the kept writes, waiting up to wait_ms for the lock (-1: the
 * store's usual wait); once one finds it still held, the rest do not
 * wait.  Return how many are still kept.
 */
static size_t
setting_save_kept(struct daemon *d, int wait_ms)
{
	struct setting_kept	*k;
	size_t			 i = 0;

	while (i < d->nkept) {
		k = &d->kept[i];
		if (setting_write(d, k->key, k->value, wait_ms) == 0) {
			log_info("setting %s saved, after the store's lock "
			    "had held it back", k->key);
			setting_forget(d, k->key);	/* moves the last here */
			continue;
		}
		if (store_busy(d->st)) {
			/* Still locked: the rest are only tried. */
			wait_ms = 0;
			i++;
			continue;
		}
		log_warnx("setting %s: cannot save it: %s", k->key,
		    store_errmsg(d->st));
		setting_forget(d, k->key);
	}
	return d->nkept;
}

static void
setting_retry(evutil_socket_t fd, short ev, void *arg)
{
	struct daemon	*d = arg;

	(void)fd;
	(void)ev;
	if (setting_save_kept(d, SETTING_WAIT_MS) > 0)
		setting_arm(d);
}

/*
 * Set (or with value NULL, delete) a setting of the store.  Return 0 when
 * it was saved; 1 when another process holds the store locked and it is
 * kept, to be saved once the lock is let go (logged once for the whole
 * wait); -1 when it could not be saved, with store_errmsg() saying why.
 */
int
daemon_setting_set(struct daemon *d, const char *key, const char *value)
{
	struct setting_kept	*k;

	if (setting_write(d, key, value, SETTING_WAIT_MS) == 0) {
		/* Newer than what was kept of it: that must not follow. */
		setting_forget(d, key);
		return 0;
	}
	if (!store_busy(d->st))
		return -1;
	if ((k = setting_find(d, key)) != NULL) {
		free(k->value);
		k->value = value != NULL ? xstrdup(value) : NULL;
		return 1;
	}
	if (d->nkept == 0) {
		log_warnx("%s: another process holds it locked; saving %s "
		    "once it lets go", d->db_path, key);
		setting_arm(d);
	}
	d->kept = xreallocarray(d->kept, d->nkept + 1, sizeof(*d->kept));
	k = &d->kept[d->nkept++];
	k->key = xstrdup(key);
	k->value = value != NULL ? xstrdup(value) : NULL;
	return 1;
}

/*
 * A setting as the daemon last set it: a kept write first, else the
 * store's.  Return 0 with *value (free it), or -1 when there is none or
 * it cannot be read.
 */
int
daemon_setting_get(struct daemon *d, const char *key, char **value)
{
	struct setting_kept	*k;

	if ((k = setting_find(d, key)) == NULL)
		return store_setting_get(d->st, key, value);
	if (k->value == NULL)
		return -1;
	*value = xstrdup(k->value);
	return 0;
}

/*
 * At exit: save what is still kept, with the store's usual wait, and say
 * what cannot be; then free it all.
 */
void
daemon_settings_end(struct daemon *d)
{
	size_t	i;

	if (d->kept_timer != NULL) {
		event_free(d->kept_timer);
		d->kept_timer = NULL;
	}
	if (d->nkept == 0)
		return;
	(void)setting_save_kept(d, -1);
	for (i = 0; i < d->nkept; i++)
		log_warnx("setting %s: not saved, the store still locked (%s):"
		    " a restart will not know it", d->kept[i].key,
		    store_errmsg(d->st));
	while (d->nkept > 0)
		setting_forget(d, d->kept[0].key);
}
