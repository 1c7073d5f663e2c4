"""Python DAE and ODE codes as mbdae solvers: SciPy's solve_ivp methods (Radau, BDF, LSODA) on
the ODE forms (form=ssf), and scipy_dae's Radau and BDF (https://github.com/JonasBreuling/
scipy_dae, BSD-3, installed separately) on every form.  Each function returns a callable for
mbdae.solve, so that the code runs through the harness: its residual and Jacobian calls are
counted, its accepted steps reported (on_accept: drift, steps), its records written as ours.

The callables drive the code's own stepper class step by step (scipy.integrate.OdeSolver,
scipy_dae's DaeSolver), as solve_ivp and solve_dae do: first_step = the run's h0, max_step = its
hmax (0: none), max_steps attempted step() calls, states at t_eval from the code's dense output.
steps counts step() calls (the codes do not expose their rejected attempts); nlu is the code's
own count.
"""
import numpy as np

from . import Status


def _step_options(call):
    span = call.tend - call.t0
    opts = {"rtol": call.rtol, "atol": call.atol, "max_step": call.hmax or np.inf}
    if 0 < call.h0 <= span:
        opts["first_step"] = call.h0
    return opts


def _drive(call, solver, yp_of):
    """Step solver to tend: on_accept after every step, dense output at call.t_eval."""
    n = call.y0.size
    t_eval = call.t_eval
    y_eval = np.full((len(t_eval), n), np.nan)  # NaN where a failed run did not reach
    k = 0
    while k < len(t_eval) and t_eval[k] <= call.t0:
        y_eval[k] = call.y0
        k += 1
    limit = call.max_steps or 10**6
    steps = 0
    while solver.status == "running":
        if steps >= limit:
            return _end(call, solver, yp_of, steps, Status.MAX_STEPS,
                        f"t = {solver.t:.16e}: {steps} steps, the limit (max_steps)", y_eval)
        message = solver.step()
        steps += 1
        if solver.status == "failed":
            return _end(call, solver, yp_of, steps, Status.SOLVER,
                        f"t = {solver.t:.16e}: {message}", y_eval)
        if k < len(t_eval) and t_eval[k] <= solver.t:
            dense = solver.dense_output()
            while k < len(t_eval) and t_eval[k] <= solver.t:
                value = dense(t_eval[k])
                y_eval[k] = value[0] if isinstance(value, tuple) else value
                k += 1
        call.on_accept(solver.t, solver.y, yp_of(solver))
    return _end(call, solver, yp_of, steps, 0, "", y_eval)


def _end(call, solver, yp_of, steps, status, message, y_eval):
    out = {"t": float(solver.t), "y": np.array(solver.y, dtype=float),
           "yp": np.array(yp_of(solver), dtype=float), "status": status, "message": message,
           "steps": steps, "nlu": int(getattr(solver, "nlu", 0) or 0)}
    if solver.step_size is not None:
        out["h"] = float(solver.step_size)
    if len(call.t_eval):
        out["y_eval"] = y_eval
    return out


def scipy_ivp(method="Radau", jac=True):
    """SciPy's solve_ivp method (a name of scipy.integrate: "Radau", "BDF", "LSODA", ...) on an
    ODE form (M y' = f(t, y) with a constant, invertible M: form=ssf), y' = M^-1 f; jac=True
    passes the analytic Jacobian -M^-1 dF/dy (counted), False lets the code difference f."""
    import scipy.integrate
    import scipy.linalg
    cls = getattr(scipy.integrate, method)

    def solver(call):
        problem = call.problem
        mass = problem.mass()
        identity = np.array_equal(mass, np.eye(problem.n))
        lu = None if identity else scipy.linalg.lu_factor(mass)
        zeros = np.zeros(problem.n)

        def solve_mass(v):
            return v if identity else scipy.linalg.lu_solve(lu, v)

        def fun(t, y):
            return solve_mass(-call.residual(t, y, zeros))

        def jacobian(t, y):
            return solve_mass(-call.jacobian(t, y, zeros)[0])

        def yp_of(s):  # the state's derivative, not counted (the code has it as f(t, y))
            return solve_mass(problem.rhs(s.t, s.y))

        opts = _step_options(call)
        if jac and method in ("Radau", "BDF", "LSODA"):
            opts["jac"] = jacobian
        return _drive(call, cls(fun, call.t0, call.y0, call.tend, **opts), yp_of)

    solver.__name__ = f"scipy_{method.lower()}{'' if jac else '_fd'}"
    solver.title = (f"scipy.integrate.{method} (solve_ivp) on y' = M^-1 f(t, y), "
                    f"{'analytic Jacobian' if jac else 'difference Jacobian'}")
    return solver


def scipy_dae(method="Radau", jac=True, **options):
    """scipy_dae's solver (solve_dae's "Radau" or "BDF"; options such as stages=5 go to it) on
    F(t, y, y') = 0; jac=True passes mbdae's analytic (dF/dy, dF/dy') as its jac (counted),
    False lets it difference F."""
    from scipy_dae.integrate._dae.dae import METHODS
    cls = METHODS[method]

    def solver(call):
        opts = _step_options(call)
        opts.update(options)
        if jac:
            opts["jac"] = call.jacobian
        s = cls(call.residual, call.t0, call.y0, call.yp0, call.tend, **opts)
        return _drive(call, s, lambda s: s.yp)

    suffix = "".join(f"_{k}{v}" for k, v in options.items())
    solver.__name__ = f"scipy_dae_{method.lower()}{suffix}{'' if jac else '_fd'}"
    solver.title = (f"scipy_dae {method}{suffix.replace('_', ' ')} (solve_dae), "
                    f"{'analytic Jacobian' if jac else 'difference Jacobian'}")
    return solver
