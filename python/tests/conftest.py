"""Shared by the mbdae Python tests: the specs every test runs over, and the C library itself
through ctypes (the numbers the module must give bit for bit)."""
import ctypes
import os

import numpy as np
import pytest

import mbdae
from mbdae import _mbdae

SANITIZED = bool(os.environ.get("MBDAE_SANITIZED"))  # an ASan build, libasan preloaded

FORMS = ("index3", "index2", "ggl", "index1", "baumgarte")


def all_specs():
    """Every built-in problem in every form, and its other keys one at a time."""
    specs = []
    for pid in ("caraxis", "andrews", "pendulum", "dpendulum"):
        specs += [f"{pid}:form={f}" for f in FORMS]
    specs += ["andrews:jac=approx", "pendulum:form=ssf", "pendulum:form=dummy",
              "dpendulum:form=ssf", "dpendulum:form=dummy", "dpendulum:m1=2,l2=0.5,theta1=0.3"]
    specs += [f"crank:index={i}" for i in (1, 2, 3)]
    specs += [f"crank:form={f}" for f in FORMS]
    specs += ["crank:beam=nonlinear", "crank:damping=on", "crank:init=2"]
    specs += [f"chain:n=3,form={f}" for f in FORMS + ("ssf",)]
    specs += ["chain:n=1", "chain:n=40", "chain:n=40,form=ssf", "chain:n=200,form=index1"]
    return specs


SPECS = all_specs()


def plugin_file(name):
    """A test plug-in built beside the C tests (MBDAE_TEST_PLUGIN_DIR), or skip."""
    d = os.environ.get("MBDAE_TEST_PLUGIN_DIR")
    path = d and os.path.join(d, f"libplugin_{name}.so")
    if not path or not os.path.exists(path):
        pytest.skip("MBDAE_TEST_PLUGIN_DIR has no test plug-ins (run through ctest)")
    return path


class CLib:
    """The library's functions through ctypes, on a problem instance of the library's own."""
    D = ctypes.POINTER(ctypes.c_double)

    def __init__(self):
        self.lib = ctypes.CDLL(_mbdae.library_path())
        L, D = self.lib, self.D
        L.mbdae_problem_create.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.c_char_p, ctypes.c_size_t]
        L.mbdae_problem_destroy.argtypes = [ctypes.c_void_p]
        L.mbdae_problem_neq.argtypes = [ctypes.c_void_p]
        L.mbdae_problem_res.argtypes = [ctypes.c_void_p, ctypes.c_double, D, D, D]
        L.mbdae_problem_jac.argtypes = [ctypes.c_void_p, ctypes.c_double, D, D, D, D]
        L.mbdae_problem_jac_values.argtypes = [ctypes.c_void_p, ctypes.c_double, D, D, D, D]
        L.mbdae_problem_init.argtypes = [ctypes.c_void_p, D, D]
        L.mbdae_problem_ref.argtypes = [ctypes.c_void_p, D]
        L.mbdae_problem_constraints.argtypes = [ctypes.c_void_p, ctypes.c_double, D, D, D, D, D]
        L.mbdae_problem_nconstraints.argtypes = [ctypes.c_void_p]
        L.mbdae_problem_index.argtypes = [ctypes.c_void_p]
        L.mbdae_problem_index.restype = ctypes.POINTER(ctypes.c_int)
        L.mbdae_scd.argtypes = [ctypes.c_void_p, D, D]
        L.mbdae_scd.restype = ctypes.c_double
        L.mbdae_mescd.argtypes = [ctypes.c_void_p, D, D, ctypes.c_double, ctypes.c_double]
        L.mbdae_mescd.restype = ctypes.c_double

    def problem(self, spec):
        handle = ctypes.c_void_p()
        msg = ctypes.create_string_buffer(512)
        rc = self.lib.mbdae_problem_create(spec.encode(), ctypes.byref(handle), msg, 512)
        assert rc == 0, msg.value
        return handle

    @staticmethod
    def ptr(a):
        return a.ctypes.data_as(CLib.D)


@pytest.fixture(scope="session")
def clib():
    return CLib()
