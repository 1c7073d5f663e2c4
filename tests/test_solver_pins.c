/* test_solver_pins: radau5, radau and bdf on the published rows (every problem's table
 * tolerances, run as the test set runs them) keep their counters and the bits of y_1(tend).
 * radau5 and radau are one integrator (solvers/radau.c) with two sets of controls, and radau and
 * bdf share the Newton loop (solvers/newton.h); these pins hold all three bit for bit through
 * changes of that code (a different operation order or tableau constant moves the pendulum,
 * double pendulum and chain rows: see radau5's rounding in solvers/radau.c).  The pins are the
 * runs of the separate radau5.c and radau.c of version 0.2 (`mbdae table all --solver S`,
 * `mbdae run SPEC --solver S --rtol R --json`). */
#include "check.h"
#include "pins.h"
#include "support.h"

typedef struct pin {
  const char *spec, *solver;
  double rtol;
  long steps, accepted, nres, njac, nlu;
  double y1; /* y_1(tend), shortest round-trip decimal */
} pin;

static const pin PINS[] = {
    {"caraxis", "radau5", 1e-04, 103, 102, 792, 100, 103, 0.049342819187902995},
    {"caraxis", "radau5", 1e-07, 305, 304, 2427, 299, 305, 0.0493455501549206},
    {"caraxis", "radau5", 1e-10, 934, 933, 8010, 900, 929, 0.04934557804890575},
    {"andrews", "radau5", 1e-04, 74, 51, 630, 50, 74, 15.801920584831244},
    {"andrews", "radau5", 1e-07, 113, 96, 1215, 91, 113, 15.810772310453729},
    {"crank", "radau5", 1e-04, 112, 99, 673, 96, 112, 14.999999999999984},
    {"crank", "radau5", 1e-06, 329, 328, 1998, 312, 326, 14.999999999999993},
    {"crank", "radau5", 1e-08, 2207, 1979, 13545, 1513, 2120, 15.000000000000005},
    {"pendulum", "radau5", 1e-04, 2414, 1895, 24643, 1845, 2406, 0.4738344512116425},
    {"pendulum", "radau5", 1e-07, 5543, 5212, 63225, 4808, 5464, 0.18146852062010463},
    {"pendulum", "radau5", 1e-10, 15899, 15890, 172387, 13854, 14867, 0.18151241918639435},
    {"dpendulum", "radau5", 1e-04, 304, 239, 2909, 235, 304, -0.4838669855496761},
    {"dpendulum", "radau5", 1e-07, 674, 608, 6738, 600, 673, -0.5381463770324235},
    {"dpendulum", "radau5", 1e-10, 1804, 1800, 18850, 1775, 1799, -0.5383469980751712},
    {"chain", "radau5", 1e-04, 361, 285, 3572, 281, 360, -0.03750073481044028},
    {"chain", "radau5", 1e-07, 799, 720, 8676, 712, 798, -0.09356831296082375},
    {"chain", "radau5", 1e-10, 2120, 2116, 23401, 2097, 2118, -0.09501389854674264},
    {"caraxis", "radau", 1e-04, 98, 97, 750, 95, 98, 0.04934064659973136},
    {"caraxis", "radau", 1e-07, 289, 288, 2271, 283, 289, 0.04934554896590423},
    {"caraxis", "radau", 1e-10, 181, 180, 4124, 170, 181, 0.04934557819007787},
    {"andrews", "radau", 1e-04, 70, 49, 621, 48, 70, 15.818588050621482},
    {"andrews", "radau", 1e-07, 114, 95, 1215, 90, 114, 15.810685950011651},
    {"crank", "radau", 1e-04, 100, 91, 593, 89, 100, 15},
    {"crank", "radau", 1e-06, 132, 131, 3233, 126, 131, 14.999999999999988},
    {"crank", "radau", 1e-08, 418, 416, 10144, 395, 412, 14.999999999999993},
    {"pendulum", "radau", 1e-04, 2273, 1790, 23660, 1725, 2273, 0.5344501025121922},
    {"pendulum", "radau", 1e-07, 2912, 2361, 64418, 2191, 2898, 0.18145652570440363},
    {"pendulum", "radau", 1e-10, 3862, 3375, 110396, 3243, 3853, 0.1815130007196586},
    {"dpendulum", "radau", 1e-04, 293, 232, 2729, 229, 293, -0.6425311532598534},
    {"dpendulum", "radau", 1e-07, 647, 579, 6504, 572, 646, -0.537995658243067},
    {"dpendulum", "radau", 1e-10, 448, 377, 14320, 365, 446, -0.5383472896601234},
    {"chain", "radau", 1e-04, 345, 270, 3432, 267, 345, 0.4680658451711032},
    {"chain", "radau", 1e-07, 753, 682, 8111, 674, 752, -0.09387845224396578},
    {"chain", "radau", 1e-10, 958, 894, 19561, 882, 956, -0.09501266181130628},
    {"caraxis", "bdf", 1e-04, 469, 467, 839, 127, 127, 0.049344310659321676},
    {"caraxis", "bdf", 1e-07, 1816, 1808, 2637, 225, 226, 0.049345571767132064},
    {"caraxis", "bdf", 1e-10, 5388, 5388, 6513, 259, 259, 0.049345578414728294},
    {"andrews", "bdf", 1e-04, 174, 166, 400, 84, 89, 15.81743506548236},
    {"andrews", "bdf", 1e-07, 579, 578, 1170, 196, 197, 15.81076119536739},
    {"crank", "bdf", 1e-04, 1497, 1482, 2092, 210, 224, 15.000000000000162},
    {"crank", "bdf", 1e-06, 7099, 6963, 8254, 391, 524, 14.999999999999787},
    {"crank", "bdf", 1e-08, 19188, 18282, 27295, 2445, 3349, 15.000000000000304},
    {"pendulum", "bdf", 1e-04, 5098, 5023, 11567, 2262, 2308, -0.01729145147901433},
    {"pendulum", "bdf", 1e-07, 18889, 18645, 35754, 6561, 6686, 0.18116667409200726},
    {"pendulum", "bdf", 1e-10, 57701, 57302, 100215, 10728, 11010, 0.1815125314801701},
    {"dpendulum", "bdf", 1e-04, 702, 681, 1668, 339, 348, -0.5805881584452491},
    {"dpendulum", "bdf", 1e-07, 2861, 2804, 5543, 1019, 1055, -0.5383767867562306},
    {"dpendulum", "bdf", 1e-10, 7934, 7833, 14305, 1625, 1677, -0.5383472202002444},
    {"chain", "bdf", 1e-04, 865, 834, 2069, 433, 443, 0.5630343105724589},
    {"chain", "bdf", 1e-07, 3445, 3400, 6743, 1291, 1318, -0.09572494105043523},
    {"chain", "bdf", 1e-10, 9886, 9782, 18294, 2165, 2235, -0.09501419890341055},
};

static void check_pin(const pin *k)
{
  check_pinned_run(k->spec, k->solver, k->rtol,
                   (pinned_run){k->steps, k->accepted, k->nres, k->njac, k->nlu, k->y1});
}

int main(void)
{
  for (size_t i = 0; i < sizeof PINS / sizeof PINS[0]; i++) {
    check_pin(&PINS[i]);
  }
  return check_summary("test_solver_pins");
}
