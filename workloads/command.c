/*
 * command: the user's own benchmark, from a [workload "name"] section
 * with command = ....
 *
 * The command is the user's own configuration, so it runs as written, in
 * the runner's clean room (see runner.c).  With measure = output (the
 * default) it prints its metrics on stdout in the form wl_parse_output()
 * reads (output.c: "metric value unit [higher|lower]" lines or one JSON
 * object); with measure = time its stdout is discarded and the runner
 * reports wall, user and sys seconds (lower is better) from the clock
 * and wait4().
 *
 * Design note.  A command of plain words ("/opt/b/run -n 1000",
 * "grep -c foo big.txt") means the same to every shell: no quoting,
 * expansion, redirection or list.  Such a command is executed directly
 * by execvp(), which finds its program in PATH as the shell would and
 * runs a file without #! by /bin/sh as the shell does.  Anything else,
 * a first word that is the shell's own (a keyword, a builtin), and a
 * name execvp() cannot run (not in PATH: the shell then says "not
 * found" and exits 127, as before) go to /bin/sh -c, as every command
 * did before.  The child's environment holds PWD either way.  What it
 * saves is the shell, which measure = time counted in the command's
 * wall and CPU time: an exec of /bin/sh, its dynamic loading and
 * start-up, and dash's fork for a lone command (bench/command measures
 * it).  A plain word is made of letters, digits and _ . / , : + @ % - =,
 * and the first word holds no "=" (an assignment to the shell).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "workloads.h"
#include "internal.h"

/*
 * Words that are the shell's own when first: reserved words, POSIX's
 * special builtins, the regular builtins that act on the shell itself,
 * and the builtins that are programs too but do not print the same as
 * the program (dash's echo reads "-e" as a word, coreutils' as an
 * option).  A command that starts with one goes to the shell.
 */
static const char *const shell_words[] = {
	"!", ".", ":", "[[", "]]", "alias", "bg", "break", "case", "cd",
	"command", "continue", "do", "done", "echo", "elif", "else", "esac",
	"eval", "exec", "exit", "export", "false", "fc", "fg", "fi", "for",
	"function", "getopts", "hash", "if", "in", "jobs", "kill", "local",
	"printf", "pwd", "read", "readonly", "return", "select", "set",
	"shift", "test", "then", "time", "times", "trap", "true", "type",
	"ulimit", "umask", "unalias", "unset", "until", "wait", "while", NULL
};

static int
plain_char(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("_./,:+@%-=", c) != NULL);
}

int
wl_command_plain_word(const char *w)
{
	if (*w == '\0')
		return 0;
	for (; *w != '\0'; w++)
		if (!plain_char((unsigned char)*w))
			return 0;
	return 1;
}

/*
 * Split a command of plain words into a NULL-terminated argv (one
 * allocation, free() it); NULL when the command needs the shell.
 */
char **
wl_command_words(const char *command)
{
	const char	*s;
	char		**argv, *copy, *w;
	size_t		 nwords = 0, i, len, first;
	int		 inword = 0;

	for (s = command; *s != '\0'; s++) {
		if (*s == ' ' || *s == '\t') {
			inword = 0;
			continue;
		}
		if (!plain_char((unsigned char)*s))
			return NULL;
		if (!inword)
			nwords++;
		inword = 1;
	}
	if (nwords == 0)
		return NULL;
	s = command + strspn(command, " \t");
	first = strcspn(s, " \t");
	if (memchr(s, '=', first) != NULL)
		return NULL;
	for (i = 0; shell_words[i] != NULL; i++) {
		if (strlen(shell_words[i]) == first &&
		    memcmp(s, shell_words[i], first) == 0)
			return NULL;
	}

	len = strlen(command) + 1;
	argv = xmalloc((nwords + 1) * sizeof(*argv) + len);
	copy = (char *)(argv + nwords + 1);
	memcpy(copy, command, len);
	for (i = 0, w = strtok(copy, " \t"); w != NULL;
	    w = strtok(NULL, " \t"))
		argv[i++] = w;
	argv[i] = NULL;
	return argv;
}

/*
 * Replace the child with the command: executed directly when it is plain
 * words (see the top), by /bin/sh -c otherwise or when that fails.
 * Returns only on failure.
 */
int
wl_command_run(const struct wl_params *p, int fd, char **cause)
{
	char	**argv;

	(void)fd;
	if ((argv = wl_command_words(p->command)) != NULL) {
		/* The clean room's PATH (runner.c). */
		execvp(argv[0], argv);
		free(argv);
	}
	execl("/bin/sh", "sh", "-c", p->command, (char *)NULL);
	xasprintf(cause, "exec /bin/sh: %s", strerror(errno));
	return -1;
}
