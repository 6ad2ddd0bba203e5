/*
 * perfwatch env: what the machine is, and what changed on it.
 *
 *   env show [--packages] [--json|--csv] [RUN]
 *                          a stored snapshot, or this machine now
 *                          without RUN
 *   env diff [--json|--csv] RUN_A [RUN_B]
 *                          what changed from A to B, or from A to this
 *                          machine now
 *
 * With --csv a row is a field or a package: env show gives type (field
 * or package), name, value (a package's version) and arch; env diff gives
 * type, name, change, old, new, arch and old_arch (the arch before, when
 * it moved: without it a crossgrade reads "1.0-1 → 1.0-1").  With --json
 * a package is an object, name, version and arch, as env diff's are (the
 * stored snapshot keeps its compact [name, version, arch]).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "json.h"
#include "log.h"
#include "xmalloc.h"
#include "sysinfo/sysinfo.h"
#include "cli.h"

/*
 * sysinfo options from the configuration.  A dpkg_admin_dir set names
 * the package database, as perfwatchd watches it: dpkg's there, or none
 * when it has no status file (said, once), never a guess.  Guessing,
 * such a run chose rpm by an rpm tool's empty /var/lib/rpm on Debian and
 * recorded an empty list of rpm's, which the diff read as dpkg -> rpm
 * and every package removed, with no word.
 */
void
cli_sysinfo_opts(struct cli *c, struct sysinfo_opts *o)
{
	struct stat	 sb;
	char		*status;

	sysinfo_opts_init(o);
	if (c->cfg == NULL || !config_is_set(c->cfg, "triggers",
	    "dpkg_admin_dir"))
		return;
	o->dpkg_admindir = config_get_str(c->cfg, "triggers",
	    "dpkg_admin_dir");
	xasprintf(&status, "%s/status", o->dpkg_admindir);
	if (stat(status, &sb) == 0)
		o->pkgmgr = SYSINFO_PKG_DPKG;
	else {
		log_warnx("%s: %s (dpkg_admin_dir): the machine snapshot "
		    "records no package list", status, strerror(errno));
		o->pkgmgr = SYSINFO_PKG_NONE;
	}
	free(status);
}

/* The work directory whose filesystem a snapshot describes. */
const char *
cli_work_dir(struct cli *c)
{
	const char	*w = NULL;

	if (c->cfg != NULL)
		w = config_get_str(c->cfg, "perfwatch", "work_dir");
	return w != NULL ? w : "/var/tmp";
}

/*
 * Make directory dir, with the directories above it, as perfwatchd makes
 * its work directory at its start: made by its last name alone, a
 * work_dir whose parent was not there yet stopped a run by hand on a
 * machine where the daemon had never started.  One made here gets mode
 * (the umask left out of it: the sticky bit and the others' write bits
 * are the point of a shared one).  0, or -1 with the reason said.
 */
int
cli_dir_make(const char *dir, mode_t mode)
{
	struct stat	 sb;
	char		*made = NULL;
	int		 fd;

	if (cli_mkdir_parents(dir, &made) == -1)
		return -1;
	free(made);
	if (mkdir(dir, 0700) == -1) {
		/*
		 * One there is used as it is, but a file by that name is no
		 * directory to work in: said here, before anything runs
		 * (73), not as every workload's failure in a run recorded
		 * as failed (70, which has git bisect run skip the commit).
		 */
		if (errno == EEXIST && stat(dir, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				return 0;
			errno = ENOTDIR;
		}
		log_warn("work directory %s", dir);
		return -1;
	}
	/*
	 * Through a descriptor, not the path: in a parent others may write,
	 * a link put in its place since would take the mode elsewhere.
	 */
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || fchmod(fd, mode) == -1) {
		log_warn("work directory %s", dir);
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Make [perfwatch] work_dir: shared by every user's runs, as /var/tmp is
 * (each iteration works in a directory of its own, 0700), so sticky and
 * writable by all, as perfwatchd and tmpfiles.d make it.  Made 0755 by
 * whoever ran first, it locked every other user's runs out.
 */
int
cli_work_dir_make(struct cli *c)
{
	return cli_dir_make(cli_work_dir(c), 01777);
}

/* The snapshot of a run, or NULL with a message. */
static struct snapshot *
run_snapshot(struct cli *c, const char *what, struct store_run *r)
{
	struct snapshot	*s;
	char		*cause = NULL;

	if (store_run_resolve(c->st, what, r, &cause) == -1) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
		return NULL;
	}
	if (r->snapshot <= 0) {
		fprintf(stderr, "perfwatch: run %s has no machine snapshot "
		    "(imported runs have none)\n", cli_show(r->label));
		store_run_clear(r);
		return NULL;
	}
	if ((s = store_snapshot_get(c->st, r->snapshot, &cause)) == NULL) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
		store_run_clear(r);
	}
	return s;
}

/*
 * The directory whose filesystem "env show" describes: the work directory,
 * or, before the first run has made it, the nearest directory above it
 * (where it will be made), said on stderr.  Allocated.
 */
static char *
env_work_dir(struct cli *c)
{
	struct stat	 st;
	const char	*work = cli_work_dir(c);
	char		*dir = xstrdup(work), *slash;

	while (stat(dir, &st) == -1 && errno == ENOENT &&
	    (slash = strrchr(dir, '/')) != NULL) {
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (strcmp(dir, "/") == 0)
			break;
	}
	if (strcmp(dir, work) != 0)
		fprintf(stderr, "perfwatch: the work directory %s does not "
		    "exist yet; the filesystem shown is that of %s\n", work,
		    dir);
	return dir;
}

/*
 * A snapshot of this machine now, or NULL after a message.  With the
 * workloads' own work directories of the configuration's profile, as a
 * run of it records them.
 */
static struct snapshot *
env_now(struct cli *c)
{
	struct sysinfo_opts	 o;
	struct snapshot		*s;
	char			*cause = NULL, *dir;

	cli_sysinfo_opts(c, &o);
	cli_sysinfo_workdirs(c, NULL, &o);
	dir = env_work_dir(c);
	s = sysinfo_snapshot_take(dir, &o, &cause);
	cli_sysinfo_workdirs_free(&o);
	free(dir);
	if (s == NULL) {
		fprintf(stderr, "perfwatch: %s\n", cause);
		free(cause);
	}
	return s;
}

/*
 * The packages of s as env show --json gives them: objects with the keys
 * that env diff --json's packages have (name, arch; version for its old
 * and new), not the positional [name, version, arch] of the store.
 */
static json_t *
env_packages_json(const struct snapshot *s)
{
	json_t	*arr, *o;
	size_t	 i;

	arr = pwjson_array();
	for (i = 0; i < s->npackages; i++) {
		o = pwjson_object();
		pwjson_set_str(o, "name", s->packages[i].name);
		pwjson_set_str(o, "version", s->packages[i].version);
		pwjson_set_str(o, "arch", s->packages[i].arch);
		pwjson_append(arr, o);
	}
	return arr;
}

/* env show --csv: the fields, then with pk the packages. */
static void
env_show_csv(const struct snapshot *s, int pk)
{
	static const char *const hdr[] = { "type", "name", "value", "arch" };
	const struct snapshot_package	*p;
	struct table			*t;
	size_t				 i;

	t = table_new(nitems(hdr), hdr, NULL);
	for (i = 0; i < s->nfields; i++) {
		table_addf(t, 0, "field");
		table_addf(t, 1, "%s", s->fields[i].key);
		table_addf(t, 2, "%s", s->fields[i].value);
		table_end_row(t);
	}
	for (i = 0; pk && i < s->npackages; i++) {
		p = &s->packages[i];
		table_addf(t, 0, "package");
		table_addf(t, 1, "%s", p->name);
		table_addf(t, 2, "%s", p->version);
		table_addf(t, 3, "%s", p->arch);
		table_end_row(t);
	}
	table_print(t, stdout, OUT_CSV);
	table_free(t);
}

/* env diff --csv: the changed fields, then the changed packages. */
static void
env_diff_csv(const struct snapshot_diff *d)
{
	static const char *const hdr[] = { "type", "name", "change", "old",
	    "new", "arch", "old_arch" };
	const struct snapshot_change	*ch;
	struct table			*t;
	size_t				 i;

	t = table_new(nitems(hdr), hdr, NULL);
	for (i = 0; i < d->nchanges; i++) {
		ch = &d->changes[i];
		table_addf(t, 0, i < d->nfields ? "field" : "package");
		table_addf(t, 1, "%s", ch->name);
		table_addf(t, 2, "%s", sysinfo_change_kind_name(ch->kind));
		if (ch->old_value != NULL)
			table_addf(t, 3, "%s", ch->old_value);
		if (ch->new_value != NULL)
			table_addf(t, 4, "%s", ch->new_value);
		if (i >= d->nfields && (ch->new_arch != NULL ||
		    ch->old_arch != NULL))
			table_addf(t, 5, "%s", ch->new_arch != NULL ?
			    ch->new_arch : ch->old_arch);
		if (ch->old_arch != NULL && ch->new_arch != NULL &&
		    strcmp(ch->old_arch, ch->new_arch) != 0)
			table_addf(t, 6, "%s", ch->old_arch);
		table_end_row(t);
	}
	table_print(t, stdout, OUT_CSV);
	table_free(t);
}

static int
env_show(struct cli *c, int argc, char **argv)
{
	struct store_run	 r;
	struct snapshot		*s;
	const char		*what = NULL;
	char			*text;
	json_t			*j;
	int			 k, opt, pk = 0, ended = 0;

	memset(&r, 0, sizeof(r));
	for (k = 1; k < argc; k++) {
		if ((opt = cli_option_word(argv[k], &ended)) == -1)
			continue;
		if (opt && cli_output_option(c, argv[k]))
			continue;
		if (opt && strcmp(argv[k], "--packages") == 0)
			pk = 1;
		else if (opt || what != NULL)
			return cli_bad_arg("env", argv[k]);
		else
			what = argv[k];
	}
	if (what != NULL) {
		if (cli_store(c) == NULL)
			return cli_store_none(c);
		if ((s = run_snapshot(c, what, &r)) == NULL)
			return cli_store_status(c->st, EXIT_DATAERR);
	} else if ((s = env_now(c)) == NULL)
		return EXIT_SOFTWARE;
	if (c->out == OUT_CSV)
		env_show_csv(s, pk);
	else if (c->out == OUT_JSON) {
		j = sysinfo_snapshot_json(s, SYSINFO_FIELDS);
		if (pk)
			pwjson_set(j, "packages", env_packages_json(s));
		/*
		 * A label alone is ambiguous in a store of several hosts;
		 * both null for this machine now, which no stored name says.
		 */
		pwjson_set_str(j, "run", r.label);
		pwjson_set_str(j, "host", r.host_name);
		json_object_set_new(j, "package_count",
		    json_integer((json_int_t)s->npackages));
		cli_json_print(j);
		json_decref(j);
	} else {
		if (r.label != NULL)
			printf("run %s\n", cli_show(r.label));
		text = sysinfo_snapshot_text(s, pk ? SYSINFO_ALL :
		    SYSINFO_FIELDS);
		fputs(text, stdout);
		free(text);
	}
	sysinfo_snapshot_free(s);
	store_run_clear(&r);
	return 0;
}

/*
 * One side of env diff --json, named as every --json names a run: its
 * label, host and start time; r NULL for this machine now, which has no
 * label nor stored host, at the time it was looked at.
 */
static json_t *
env_side_json(const struct store_run *r, int64_t now)
{
	char	tbuf[32];
	json_t	*o = pwjson_object();

	fmt_time(tbuf, sizeof(tbuf), r != NULL ? r->started : now);
	pwjson_set_str(o, "run", r != NULL ? r->label : NULL);
	pwjson_set_str(o, "host", r != NULL ? r->host_name : NULL);
	pwjson_set_str(o, "time", tbuf);
	return o;
}

static int
env_diff(struct cli *c, int argc, char **argv)
{
	struct store_run	 ra, rb;
	struct snapshot		*a, *b;
	struct snapshot_diff	*d;
	const char		*names[2], *to;
	char			*text;
	json_t			*j;
	int64_t			 now = 0;
	int			 k, opt, n = 0, ended = 0;

	for (k = 1; k < argc; k++) {
		if ((opt = cli_option_word(argv[k], &ended)) == -1)
			continue;
		if (opt && cli_output_option(c, argv[k]))
			continue;
		if (opt || n == 2)
			return cli_bad_arg("env", argv[k]);
		names[n++] = argv[k];
	}
	if (n < 1)
		return cli_usage_why("env", "needs a RUN_A");
	if (cli_store(c) == NULL)
		return cli_store_none(c);
	memset(&rb, 0, sizeof(rb));
	if ((a = run_snapshot(c, names[0], &ra)) == NULL)
		return cli_store_status(c->st, EXIT_DATAERR);
	/* One run: from it to this machine as it is now. */
	if (n == 1)
		now = (int64_t)time(NULL);
	b = n == 2 ? run_snapshot(c, names[1], &rb) : env_now(c);
	if (b == NULL) {
		sysinfo_snapshot_free(a);
		store_run_clear(&ra);
		return n == 2 ? cli_store_status(c->st, EXIT_DATAERR) :
		    EXIT_SOFTWARE;
	}
	to = n == 2 ? rb.label : "now";
	d = sysinfo_diff(a, b);
	if (c->out == OUT_CSV)
		env_diff_csv(d);
	else if (c->out == OUT_JSON) {
		j = pwjson_object();
		pwjson_set(j, "from", env_side_json(&ra, 0));
		pwjson_set(j, "to", env_side_json(n == 2 ? &rb : NULL, now));
		pwjson_set(j, "changes", sysinfo_diff_json(d));
		cli_json_print(j);
		json_decref(j);
	} else {
		printf("from %s to %s: %zu change%s\n", cli_show(ra.label),
		    cli_show(to), d->nchanges, d->nchanges == 1 ? "" : "s");
		text = sysinfo_diff_text(d);
		fputs(text, stdout);
		free(text);
	}
	sysinfo_diff_free(d);
	sysinfo_snapshot_free(a);
	sysinfo_snapshot_free(b);
	store_run_clear(&ra);
	store_run_clear(&rb);
	return 0;
}

/* perfwatch env show|diff ... */
int
cmd_env(struct cli *c, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_why("env", "a subcommand: show or diff");
	if (strcmp(argv[1], "show") == 0) {
		cli_name(argv + 1, "env", "show");
		return env_show(c, argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "diff") == 0) {
		cli_name(argv + 1, "env", "diff");
		return env_diff(c, argc - 1, argv + 1);
	}
	return cli_bad_sub("env", argv[1]);
}
