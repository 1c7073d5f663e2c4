/* The numbers compiled into the problems are the numbers of the data files in refsol/, digit for
 * digit: every [yref] section against mbdae_problem_ref, the slider crank's [y0 init1] and
 * [y0 init2] against mbdae_problem_init; configurations without a reference say so. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mbdae/mbdae.h"

/* Read section `name` of refsol/<file>.txt into v (components not listed are 0);
 * returns the number of values read, -1 when the file or the section is missing. */
static int read_section(const char *file, const char *name, double *v, int n)
{
  char path[512], line[512];
  snprintf(path, sizeof path, "%s/%s.txt", MBDAE_REFSOL_DIR, file);
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  int in_section = 0, count = -1;
  memset(v, 0, sizeof(double) * (size_t)n);
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '[') {
      in_section = strncmp(line, name, strlen(name)) == 0;
      count = in_section ? 0 : count;
      continue;
    }
    int i;
    double x;
    if (in_section && line[0] != '#' && sscanf(line, "%d %lf", &i, &x) == 2 && i >= 1 && i <= n) {
      v[i - 1] = x;
      count++;
    }
  }
  fclose(f);
  return count;
}

static void compare_ref(const char *spec, const char *file)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  int n = mbdae_problem_neq(p);
  double *ref = calloc((size_t)(2 * n), sizeof(double)), *data = ref + n;
  CHECK(mbdae_problem_ref(p, ref) == 0, "%s has a reference", spec);
  int count = read_section(file, "[yref]", data, n);
  CHECK(count == n, "%s: refsol/%s.txt [yref] has %d of %d components", spec, file, count, n);
  for (int i = 0; i < n; i++) {
    CHECK(ref[i] == data[i], "%s: yref_%d = %.17g in the code, %.17g in refsol/%s.txt", spec, i + 1,
          ref[i], data[i], file);
  }
  CHECK(strlen(mbdae_problem_ref_source(p)) > 20, "%s: reference source says where it comes from",
        spec);
  free(ref);
  mbdae_problem_destroy(p);
}

static void compare_crank_init(const char *spec, const char *section)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  int n = mbdae_problem_neq(p);
  double *y = calloc((size_t)(3 * n), sizeof(double)), *yp = y + n, *data = yp + n;
  mbdae_problem_init(p, y, yp);
  CHECK(read_section("crank", section, data, n) > 0, "refsol/crank.txt %s", section);
  for (int i = 0; i < n; i++) {
    CHECK(y[i] == data[i], "%s: y0_%d = %.17g, refsol/crank.txt %s has %.17g", spec, i + 1, y[i],
          section, data[i]);
    /* yp0(i) = y0(i+7) for i = 1..14, 0 for 15..24 (spec 19.2) */
    double expect = i < 14 ? y[i + 7] : 0.0;
    CHECK(yp[i] == expect, "%s: yp0_%d = %.17g, expected %.17g", spec, i + 1, yp[i], expect);
  }
  free(y);
  mbdae_problem_destroy(p);
}

static void expect_no_reference(const char *spec)
{
  mbdae_problem *p = NULL;
  CHECK(mbdae_problem_create(spec, &p, NULL, 0) == 0, "%s", spec);
  double yref[32];
  CHECK(mbdae_problem_ref(p, yref) == MBDAE_ERR_NOREF, "%s must not claim the default's reference",
        spec);
  mbdae_problem_destroy(p);
}

/* refsol/fekete.txt's [yref] is feksoln's [feksoln] digit for digit, but for mu (exact 0). */
static void compare_fekete_published(void)
{
  double yref[160], published[160];
  CHECK(read_section("fekete", "[yref]", yref, 160) == 160, "refsol/fekete.txt [yref]");
  CHECK(read_section("fekete", "[feksoln]", published, 160) == 160, "refsol/fekete.txt [feksoln]");
  for (int i = 0; i < 160; i++) {
    CHECK(yref[i] == (i < 140 ? published[i] : 0.0), "fekete yref_%d = %.17g, feksoln %.17g", i + 1,
          yref[i], published[i]);
  }
}

int main(void)
{
  compare_ref("caraxis", "caraxis");
  compare_ref("andrews", "andrews");
  compare_ref("andrews:jac=approx", "andrews");
  compare_ref("crank", "crank");
  compare_ref("crank:index=2,beam=linear,damping=off,init=1", "crank");
  compare_ref("pendulum", "pendulum");
  compare_ref("dpendulum", "dpendulum");
  compare_ref("fekete", "fekete");
  compare_fekete_published();
  expect_no_reference("fekete:n=19");
  compare_ref("wheelset", "wheelset");
  compare_crank_init("crank", "[y0 init1]");
  compare_crank_init("crank:init=2", "[y0 init2]");
  /* index=1|3 describe the published motion (issue 12): the same reference */
  compare_ref("crank:index=1", "crank");
  compare_ref("crank:index=3", "crank");
  expect_no_reference("crank:beam=nonlinear");
  expect_no_reference("crank:damping=on");
  expect_no_reference("crank:init=2");
  CHECK(MBDAE_ERR_NOREF != MBDAE_ERR_SPEC && MBDAE_ERR_NOREF < 0, "distinct error code");
  return check_summary("test_refdata");
}
