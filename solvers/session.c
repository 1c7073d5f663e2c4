/* A built-in solver's run as an object over the shared step driver: the stepper ops of a driver
 * session, and the whole run as the object stepped to tend (see session.h).  The steps are
 * mbdae_driver_advance's, the one loop of the driver (solvers/driver.h). */
#include "session.h"

#include <stdlib.h>

#include "fail.h"
#include "mbdae/mbdae.h"

/* A session for the method with state m (NULL when out of memory: m is then released). */
static driver_session *session_new(const driver_method *method, void *m, void (*release)(void *m),
                                   const double *y, const double *yp)
{
  driver_session *ds = calloc(1, sizeof *ds);
  if (!ds) {
    release(m);
    return NULL;
  }
  ds->method = method;
  ds->m = m;
  ds->release = release;
  ds->y = y;
  ds->yp = yp;
  return ds;
}

driver_session *mbdae_session_open(const driver_method *method, void *m, void (*release)(void *m),
                                   const mbdae_problem *p, const mbdae_options *opt, double t0,
                                   const driver_end_rule *end, double *y, double *yp,
                                   mbdae_result *r)
{
  driver_session *ds = m ? session_new(method, m, release, y, yp) : NULL;
  if (!ds) {
    if (m) {
      mbdae_fail(r, MBDAE_ERR_NOMEM, t0, 0.0, "out of memory");
    }
    return NULL;
  }
  mbdae_driver_start(&ds->d, p, t0, opt, end, y, r);
  return ds;
}

int mbdae_session_begin(driver_session *ds, double h, void **session)
{
  int rc = mbdae_driver_begin(&ds->d, h);
  if (rc != 0) {
    mbdae_session_close(ds);
    return rc;
  }
  *session = ds;
  return 0;
}

int mbdae_session_step(void *session, double tout, int mode, double *t)
{
  driver_session *ds = session;
  mbdae_driver *d = &ds->d;
  int rc = 0;
  if (mode == MBDAE_ONE_STEP) {
    rc = mbdae_driver_advance(d, ds->method, ds->m, ds->y, ds->yp, tout);
  } else {
    while (rc == 0 && !d->done && d->t < tout) {
      rc = mbdae_driver_advance(d, ds->method, ds->m, ds->y, ds->yp, d->tend);
    }
  }
  *t = d->t;
  return rc < 0 ? rc : d->done;
}

int mbdae_session_dense(void *session, double t, double *yout)
{
  const driver_session *ds = session;
  ds->method->interpolate(ds->m, t, yout);
  return 0;
}

void mbdae_session_last_step(const void *session, double *tprev, double *t)
{
  const driver_session *ds = session;
  *tprev = ds->d.tprev;
  *t = ds->d.t;
}

void mbdae_session_close(void *session)
{
  driver_session *ds = session;
  if (ds) {
    ds->release(ds->m);
    free(ds);
  }
}

int mbdae_stepper_run(const mbdae_stepper *st, const mbdae_problem *p, const mbdae_options *opt,
                      double *y, double *yp, mbdae_result *r)
{
  void *session = NULL;
  int rc = st->open(p, opt, mbdae_problem_t0(p), y, yp, r, &session);
  if (rc != 0) {
    return rc;
  }
  double t;
  rc = st->step(session, mbdae_problem_tend(p), MBDAE_NORMAL, &t);
  st->close(session);
  return rc < 0 ? rc : r->status;
}
