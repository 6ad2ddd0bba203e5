/*
 * Stand-ins for daemon/job.c's readers of a finished job, for the tests
 * and fuzz targets that include a file of daemon/ without job.c
 * (test_daemon_kernel, tests/fuzz/fuzz_daemon.h): a job that exited 0,
 * whose output was whole and which wrote nothing on its standard error.
 * Its output is the includer's own job_output().
 */
#ifndef PERFWATCH_TEST_JOB_QUIET_H
#define PERFWATCH_TEST_JOB_QUIET_H

int
job_status(const struct job *j)
{
	(void)j;
	return 0;
}

int
job_truncated(const struct job *j)
{
	(void)j;
	return 0;
}

char *
job_tail(const struct job *j)
{
	(void)j;
	return NULL;
}

void
job_forget(struct job *j)
{
	(void)j;
}

#endif
