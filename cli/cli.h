/*
 * cli/: the perfwatch command.  One file per group of subcommands.
 */
#ifndef PERFWATCH_CLI_H
#define PERFWATCH_CLI_H

#include <sys/types.h>

#include <stdio.h>

#include "config.h"
#include <jansson.h>

#include "store/store.h"
#include "view/view.h"

/* git bisect run: 125 skips a commit, 128 and above abort. */
#define EXIT_BISECT_SKIP	125
#define EXIT_BISECT_ABORT	128

enum cli_output {
	OUT_TABLE = 0,
	OUT_JSON,
	OUT_CSV,
};

struct cli {
	const char	*conf_path;	/* -c, or NULL */
	const char	*db_opt;	/* -D, or NULL */
	struct config	*cfg;
	char		*db_path;
	struct store	*st;
	enum cli_output	 out;
	int		 verbose;
	int		 creates;	/* the command may make the database */
	int		 writes;	/* it writes to it (creates does too) */
	int		 made;		/* cli_store() made it (and made_dir) */
	int		 busy;		/* cli_store() failed: it was locked */
	char		*made_dir;	/* the first directory it made for it */
};

struct cli_cmd {
	const char	*name;
	int		(*fn)(struct cli *, int, char **);
	const char	*usage;
	const char	*summary;
};

/* main.c */
struct store	*cli_store(struct cli *);
int		 cli_store_exists(struct cli *);
void		 cli_store_unmake(struct cli *);
int		 cli_store_none(struct cli *);
int		 cli_usage(const char *cmd);
int		 cli_mkdir_parents(const char *, char **);
void		 cli_name(char **argv, const char *cmd, const char *sub);
int		 cli_bad_arg(const char *cmd, const char *arg);
int		 cli_bad_sub(const char *cmd, const char *word);
int		 cli_usage_why(const char *cmd, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
int		 cli_output_option(struct cli *, const char *);
int		 cli_store_failed(struct store *);
int		 cli_store_status(struct store *, int none);
int		 cli_failure_status(enum store_failure, int none);
int		 cli_blank_opt(const char *opt, const char *arg);
int		 cli_option_word(const char *, int *);
int		 cli_parse_count(const char *, long long, long long,
		    long long *);
int		 cli_parse_real(const char *, double, double, double *);
void		 cli_getopt_reset(void);
void		 cli_notify_daemon(struct cli *);
struct sigaction;
void		 cli_catch(int, const struct sigaction *,
		    struct sigaction *);

/* table.c: a text table, or the same rows as CSV. */
struct table;
enum table_align { ALIGN_LEFT, ALIGN_RIGHT };

struct table	*table_new(size_t ncols, const char *const *headers,
		    const enum table_align *);
void		 table_add(struct table *, const char *const *cells);
void		 table_addf(struct table *, size_t col, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
void		 table_end_row(struct table *);
void		 table_print(const struct table *, FILE *, enum cli_output);
void		 table_free(struct table *);
char		*table_display(const char *, size_t *);
const char	*cli_show(const char *);
/* A --json document on stdout, as every command prints one. */
void		 cli_json_print(const json_t *);
/* The errno of the first write to stdout that failed, or 0. */
extern int	 cli_out_errno;
void		 fmt_value(char *, size_t, double);
void		 cli_fpad(FILE *, const char *, size_t);
void		 cli_fmt_figure(char *, size_t, double, enum cli_output);
void		 fmt_time(char *, size_t, long long);

/* data.c */
int	cmd_import(struct cli *, int, char **);
int	cmd_export(struct cli *, int, char **);
int	cmd_history(struct cli *, int, char **);
int	cmd_show(struct cli *, int, char **);
int	cmd_runs(struct cli *, int, char **);
int	cli_parse_limit(const char *, size_t *);
int	cli_host_known(struct store *, const char *host);
#define CLI_LATEST_NONE		(-1)	/* cli_run_latest: none with status */
#define CLI_LATEST_EMPTY	(-2)	/* no run at all */
int	cli_run_latest(struct cli *, const char *status, struct store_run *);
int	cli_metrics_match(struct store *, const char *host,
	    const char *workload, const char *metric, struct store_metric **,
	    size_t *);

/* check.c */
int		 cmd_check(struct cli *, int, char **);
int		 check_bisect_word(const char *);
int		 cmd_compare(struct cli *, int, char **);
int		 cmd_changes(struct cli *, int, char **);
int		 cmd_alerts(struct cli *, int, char **);
int		 cmd_baseline(struct cli *, int, char **);

/* run.c, report.c */
struct sysinfo_opts;
int		 cmd_run(struct cli *, int, char **);
void		 cli_sysinfo_workdirs(struct cli *, const char *profile,
		    struct sysinfo_opts *);
void		 cli_sysinfo_workdirs_free(struct sysinfo_opts *);
int		 cli_run_report(struct cli *, int64_t run, int json,
		    int check);
int		 cli_report_classic(struct cli *, const struct store_run *,
		    const struct store_series *, size_t, FILE *);
void		 cli_report_index_json(struct cli *, const struct store_run *,
		    const struct store_series *, size_t, json_t *);
/*
 * The system index of run (report.c: UnixBench's index over the sys.*
 * tests, against the host's reference run): a test of it that the run or
 * its reference measured, with its score, the reference's, and its index
 * (NAN for none: a test only one of them has, or a score of 0 or less).
 */
struct cli_index_test {
	const char	*workload;	/* the workload's, static */
	const char	*metric;	/* its metric in the index, static */
	char		*unit;
	enum better	 better;
	int		 measured;	/* the run has samples of it */
	double		 score;		/* the run's median */
	double		 reference;	/* the reference run's median */
	double		 index;
};
struct cli_index {
	char			*reference;	/* its label, NULL: none */
	struct cli_index_test	*tests;
	size_t			 ntests;
	double			 score;		/* the Index Score, or NAN */
	size_t			 scored;	/* the tests it is of */
};
/*
 * Read run's system index into *ix: 1, or 0 when the run measured no
 * test of it (*ix then empty).  Pins the host's reference run once no
 * later run can take its place, as the report does, unless the store is
 * read-only to this user.
 * cli_index_clear() frees it.
 */
int		 cli_index_get(struct store *, const struct store_run *,
		    const struct store_series *, size_t, struct cli_index *);
void		 cli_index_clear(struct cli_index *);
int		 cli_index_pin(struct store *, const struct store_run *,
		    char **);
json_t		*cli_workloads_json(const struct store_run_workload *,
		    size_t);
void		 cli_workloads_print(FILE *, const struct store_run_workload *,
		    size_t);

/* bisect.c */
int		 cmd_bisect(struct cli *, int, char **);
extern const char *cli_argv0;

/* notify.c */
int		 cmd_notify(struct cli *, int, char **);

/* ctl.c: perfwatchd's control socket. */
int		 cmd_status(struct cli *, int, char **);
int		 cmd_trigger(struct cli *, int, char **);
int		 cmd_pause(struct cli *, int, char **);
int		 cmd_resume(struct cli *, int, char **);

/* env.c */
int		 cmd_env(struct cli *, int, char **);
void		 cli_sysinfo_opts(struct cli *, struct sysinfo_opts *);
const char	*cli_work_dir(struct cli *);
int		 cli_dir_make(const char *, mode_t);
int		 cli_work_dir_make(struct cli *);

/* check.c */
/* A change in percent as tables show it: +2.3%, +250%, +1.5e+06%, -. */
void		 cli_fmt_pct(char *, size_t, double);
/* The same, with every digit for a program (CSV): +2.3456789012345%. */
int		 cli_check_run(struct cli *, int64_t run, json_t *into);

#endif
