/*
 * view/: what the store holds, as the JSON documents that perfwatch
 * prints with --json (runs, show, history, alerts, changes) and that
 * perfwatchd's dashboard serves under /api/.  Built in one place, so
 * that the two never drift apart: a program that reads one reads the
 * other.
 *
 * Every function reads the store only, through its header (and the
 * change points of a history shown, through detect/'s); a string of
 * the store that is not valid UTF-8 is repaired (json.h), never refused.
 */
#ifndef PERFWATCH_VIEW_H
#define PERFWATCH_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "store/store.h"

struct cp_params;
struct detect_change;

/* A time for a person: RFC 3339 in UTC (the number if out of range). */
void	 view_time(char *, size_t, long long);

/*
 * Why run was measured on a busy machine, as its [quiet] record says
 * (allocated), or NULL when it was not.
 */
char	*view_busy_why(const struct store_run *);
/* Set "busy" in o, and "busy_why": why, or null when it was not. */
void	 view_busy_json(json_t *o, const struct store_run *);
/*
 * Whether a run's length is known: it has an end (none while running,
 * nor for an import that gave no duration); 0 s is a length.
 */
int	 view_run_timed(const struct store_run *);

/*
 * A run as show --json begins it: label, id, host, time, trigger, ...,
 * and "duration", its length in seconds or null where it is not known.
 */
json_t	*view_run_json(const struct store_run *);
/*
 * The runs f selects (store_runs_list) into *runs and *n, and runs --json
 * into *out: each run as view_run_json() (its "duration" with it), and
 * "incomplete", the workloads that did not complete (workload and
 * status; a complete run can have lost one).  Read inside one read
 * transaction (store_read_begin), so that each run is seen with its
 * workloads as they stood at one moment: read one after the other, a
 * workload that failed in between showed as lost by a run still listed
 * as running.  0, or -1 with *runs and *out NULL, logged (store_failure()
 * says whether the store was busy).
 */
int	 view_runs_list(struct store *, const struct store_run_filter *f,
	    struct store_run **runs, size_t *n, json_t **out);
/*
 * A run's "incomplete" for a person, "mine failed, disk.bonnie timeout"
 * (allocated), or NULL when the list is empty.
 */
char	*view_incomplete_text(const json_t *);
/* A series with its summary (median, min, max, stddev) and its samples. */
json_t	*view_series_json(const struct store_series *);

/*
 * The label of run id into *label (allocated), "-" when id is 0 or no
 * run has it: 0, or -1 when the run cannot be read (store_failure() and
 * store_errmsg() say why), which is no run not there.
 */
int	 view_run_label_get(struct store *, int64_t id, char **label);
/*
 * The name of the host whose runs alert a follows into *host
 * (allocated), "-" when its first bad run is not there; -1 when it
 * cannot be read.
 */
int	 view_alert_host(struct store *, const struct store_alert *,
	    char **host);
/*
 * One alert as alerts --json gives it into *out: 0, or -1 when its
 * metric or one of its runs cannot be read (store_failure() says why;
 * "?" and "-" stand only for one that is not there).
 */
int	 view_alert_get(struct store *, const struct store_alert *,
	    json_t **out);

/*
 * history --json for metric m: appended to arr, one object per host
 * (only host, unless NULL) with its newest limit runs (0: all) that have
 * samples of m, each with its summary.  A metric without runs still gets
 * its object, with no runs.  0, or -1 on a store error.
 */
int	 view_history_json(struct store *, const struct store_metric *m,
	    const char *host, size_t limit, json_t *arr);
/*
 * view_history_json(), and the change points of each host's history as
 * shown (the runs detect_changes() counts among them, scanned with cpp),
 * appended to *ch and *nch as detect_changes() gives them: what
 * `perfwatch changes` reports when the history shown is the whole one.
 * 0, or -1 on a store error or a failed scan (*ch then untouched).
 */
int	 view_history_changes(struct store *, const struct store_metric *m,
	    const char *host, size_t limit, const struct cp_params *cpp,
	    json_t *arr, struct detect_change **ch, size_t *nch);
/* changes --json: each change point of ch[0..n) as an object. */
json_t	*view_changes_json(const struct detect_change *ch, size_t n);

#endif
