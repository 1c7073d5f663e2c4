/* mbdae refsol: recompute the references mbdae computes itself (refsol/<id>_ref.c) and print the
 * data file exactly as committed in refsol/; for a chain, the reference of any configuration.
 * The format, and its reader for --ref FILE, are in ref_file.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "new_file.h"
#include "refsol.h"

/* The progress line of refsol on a terminal (stderr), rewritten in place. */
static void show_progress(void *ctx, double share)
{
  (void)ctx;
  fprintf(stderr, "\rmbdae refsol: integrating, %3.0f%%", 100.0 * share);
  fflush(stderr);
}

/* The chain generator on the instance of spec: its canonical spec and component names.  On a
 * terminal (isatty(stderr)) a line shows how far it is; never in a pipe or a file. */
static int write_chain(FILE *out, const char *spec)
{
  mbdae_problem *p = open_problem(spec);
  if (!p) {
    return EXIT_USAGE;
  }
  int neq = mbdae_problem_neq(p);
  const char **names = malloc(sizeof(char *) * (size_t)neq);
  char msg[256] = "out of memory";
  int rc = names ? 0 : -1;
  for (int i = 0; names && i < neq; i++) {
    names[i] = mbdae_problem_component(p, i);
  }
  int tty = isatty(fileno(stderr));
  rc = rc == 0 ? refsol_chain_write_progress(out, mbdae_problem_spec(p), neq, names, msg,
                                             sizeof msg, tty ? show_progress : NULL, NULL)
               : rc;
  if (tty) {
    fputs("\r\033[K", stderr); /* the line cleared */
  }
  if (rc != 0) {
    fprintf(stderr, "mbdae: refsol %s: %s\n", mbdae_problem_spec(p), msg);
  }
  free(names);
  mbdae_problem_destroy(p);
  return rc == 0 ? EXIT_OK : (rc == -2 ? EXIT_USAGE : EXIT_FAILED_RUN);
}

static int write_reference(FILE *out, const char *spec)
{
  if (strcmp(spec, "pendulum") == 0) {
    return refsol_pendulum_write(out) == 0 ? EXIT_OK : EXIT_FAILED_RUN;
  }
  if (strcmp(spec, "dpendulum") == 0) {
    return refsol_dpendulum_write(out) == 0 ? EXIT_OK : EXIT_FAILED_RUN;
  }
  if (strcmp(spec, "chain") == 0 || strncmp(spec, "chain:", 6) == 0 ||
      strncmp(spec, "dpendulum:", 10) == 0) { /* dpendulum with keys: the chain of two links */
    return write_chain(out, spec);
  }
  return usage_error("no reference generator for '%s'; valid: pendulum, dpendulum[:keys], "
                     "chain[:keys] "
                     "(caraxis, andrews and crank references are published data, see refsol/)",
                     spec);
}

/* Write into out_path as a new file renamed at the end (new_file.h): no half-written file, no
 * write through a link. */
static int write_to_file(const char *spec, const char *out_path)
{
  new_file nf;
  FILE *out = new_file_open(&nf, out_path);
  if (!out) {
    return usage_error("refsol: cannot write '%s': %s", out_path, strerror(errno));
  }
  int rc = write_reference(out, spec);
  if (rc != EXIT_OK) {
    new_file_discard(&nf);
  } else if (new_file_commit(&nf) != 0) {
    rc = usage_error("refsol: cannot write '%s': %s", out_path, strerror(errno));
  }
  return rc;
}

/* --trajectory: the reference trajectory of spec's configuration (mbdae_problem_reference_
 * trajectory, as embedded from refsol/<id>_traj.txt) into out_path as CSV, header t,<names>. */
static int write_trajectory(const char *spec, const char *out_path)
{
  if (!out_path) {
    return usage_error("refsol --trajectory needs --out FILE.csv");
  }
  mbdae_problem *p = open_problem(spec);
  if (!p) {
    return EXIT_USAGE;
  }
  size_t nt = 0, neq = (size_t)mbdae_problem_neq(p);
  const double *t = NULL;
  int rc = mbdae_problem_reference_trajectory(p, &nt, &t, NULL);
  double *y = rc == 0 ? malloc(sizeof(double) * nt * neq) : NULL;
  const char **names = malloc(sizeof(char *) * neq);
  if (rc != 0) {
    rc = usage_error("refsol: %s has no reference trajectory (%s)", mbdae_problem_spec(p),
                     mbdae_strerror(rc));
  } else if (!y || !names) {
    rc = usage_error("refsol: out of memory");
  } else {
    for (size_t i = 0; i < neq; i++) {
      names[i] = mbdae_problem_component(p, (int)i);
    }
    mbdae_problem_reference_trajectory(p, &nt, &t, y);
    rc = trajectory_write_csv(out_path, names, t, y, nt, neq);
  }
  free(y);
  free(names);
  mbdae_problem_destroy(p);
  return rc;
}

int cmd_refsol(int argc, char **argv)
{
  const char *spec = NULL, *out_path = NULL;
  int trajectory = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--trajectory") == 0) {
      trajectory = 1;
    } else if (strcmp(argv[i], "--out") == 0) {
      if (!(out_path = option_value(argc, argv, &i))) {
        return EXIT_USAGE;
      }
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return unknown_option("refsol", argv[i]);
    } else if (spec) {
      return usage_error("refsol takes one spec, got '%s' and '%s'", spec, argv[i]);
    } else {
      spec = argv[i];
    }
  }
  if (!spec) {
    return usage_error("refsol takes one of: pendulum, dpendulum, chain[:keys] [--out FILE]");
  }
  if (trajectory) {
    return write_trajectory(spec, out_path);
  }
  return out_path ? write_to_file(spec, out_path) : write_reference(stdout, spec);
}
