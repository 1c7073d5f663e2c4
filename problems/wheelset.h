/* The wheelset's model data shared by its residual (problems/wheelset.c) and its analytic
 * Jacobian (problems/wheelset_jac.c), private to the library: the layout of y, the parameters of
 * wheel.f and the constants its code writes in place. */
#ifndef MBDAE_WHEELSET_H
#define MBDAE_WHEELSET_H

enum {
  NEQ = 17,
  NP = 5,    /* p = (x, y, z, theta, phi) */
  V = 5,     /* offset of v = p' */
  BETA = 10, /* beta */
  Q = 11,    /* q = (psi_L, xi_L, psi_R, xi_R) */
  LAM = 15,  /* lambda */
  NCON = 2   /* the two contact conditions */
};

/* The parameters of wheel.f (its common block wheelcom, values of deTestSet's ex_wheelset.R;
 * m_R, I_1, I_2 are also set in wheel.f's residual itself). */
typedef struct wheelset_params {
  double mr;            /* m_R, mass of the wheelset [kg] */
  double g;             /* gravity */
  double v;             /* V, nominal velocity */
  double rn0;           /* r_0, nominal wheel radius */
  double li1;           /* I_1, moment of inertia about the axle (per unit mass) */
  double li2;           /* I_2, about the vertical and longitudinal axes */
  double ma;            /* m_A, mass of the chassis load on the wheelset (0 in the test set) */
  double ha;            /* h_A, its height */
  double mu;            /* friction coefficient */
  double xl;            /* x_L, half distance of the springs */
  double cx, cz;        /* spring stiffnesses */
  double e;             /* Young's modulus parameter E of the contact ellipse */
  double gg;            /* g of the contact ellipse */
  double sigma;         /* Poisson's ratio */
  double gm;            /* G, modulus of rigidity */
  double c11, c22, c23; /* Kalker's coefficients */
  double delta0;        /* cone angle of the wheel */
  double ar;            /* a, half the distance between the rails */
  double rs;            /* rail radius */
  double eps;           /* margin of the rail profile */
  double b1, b2;        /* limits of the wheel profile */
} wheelset_params;

/* pi as wheel.f's creep routine writes it (3.1415926d0: 8 digits) */
static const double PI8 = 3.1415926;
/* wheel.f's bound on the determinant of the normal-force system */
static const double DETER_MIN = 0.00000001;
/* the multipliers enter the equations scaled by 1e4 (wheel.f) */
static const double LAMBDA_SCALE = 1.0e4;

/* dF/dy at (y, y') into dfdy (NEQ x NEQ, column-major), analytic (problems/wheelset_jac.c);
 * MBDAE_RECOVERABLE where the residual is undefined (off the profiles, degenerate contact). */
int wheelset_dfdy(const wheelset_params *w, const double *y, const double *yp, double *dfdy);

#endif
