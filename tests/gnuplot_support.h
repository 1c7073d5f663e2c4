/* Helpers of the tests of what mbdae gives gnuplot (test_gnuplot_strings.c, test_gnuplot_run.c):
 * running the command from an argument vector, without a shell (the file names under test would
 * mean something to one), and looking at the files of a folder.  Include after support.h. */
#ifndef MBDAE_TEST_GNUPLOT_SUPPORT_H
#define MBDAE_TEST_GNUPLOT_SUPPORT_H

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Start `mbdae argv[0] argv[1] ...` (argv ends with NULL) with stdout and stderr into the file
 * log; returns its pid, or -1. */
static inline pid_t start_cli(const char *const *argv, const char *log)
{
  const char *args[64];
  int n = 0;
  args[n++] = MBDAE_CLI;
  for (; argv[n - 1] && n < 63; n++) {
    args[n] = argv[n - 1];
  }
  args[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    FILE *f = freopen(log, "w", stdout);
    if (f) {
      dup2(fileno(stdout), STDERR_FILENO);
    }
    execv(MBDAE_CLI, (char *const *)args);
    _exit(127);
  }
  return pid;
}

/* The whole of a file (at most len - 1 bytes) in buf; 0, or -1 when it cannot be read. */
static inline int slurp(const char *path, char *buf, size_t len)
{
  FILE *f = fopen(path, "rb");
  buf[0] = '\0';
  if (!f) {
    return -1;
  }
  size_t got = fread(buf, 1, len - 1, f);
  buf[got] = '\0';
  fclose(f);
  return 0;
}

/* Run `mbdae argv...` to its end, its output in out (through the file log); the exit status, or
 * -1 when it did not exit normally. */
static inline int run_cli_argv(const char *const *argv, const char *log, char *out, size_t len)
{
  pid_t pid = start_cli(argv, log);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) {
    return -1;
  }
  slurp(log, out, len);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The names in folder dir other than . and .., separated by '/' (a name cannot hold one), in buf;
 * the number of them, -1 when dir cannot be read. */
static inline int folder_names(const char *dir, char *buf, size_t len)
{
  DIR *d = opendir(dir);
  int n = 0;
  buf[0] = '\0';
  if (!d) {
    return -1;
  }
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      size_t used = strlen(buf), add = strlen(e->d_name);
      if (used + add + 2 <= len) {
        memcpy(buf + used, e->d_name, add);
        memcpy(buf + used + add, "/", 2);
      }
      n++;
    }
  }
  closedir(d);
  return n;
}

#endif /* MBDAE_TEST_GNUPLOT_SUPPORT_H */
