"""Thread limits and worker processes that need neither torch nor SB3 (the benchmark path
imports this)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np


def limit_numpy_threads(n: int = 1) -> bool:
    """Cap numpy's BLAS threads (process-wide). Small matmuls in a multi-threaded OpenBLAS
    on a busy 2-core machine are 10-100x slower than single-threaded (measured: a 32x962
    @ 962x128 product took 5.4 ms instead of 0.1 ms). Returns whether it worked."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        pass
    else:
        threadpool_limits(n, user_api="blas")
        return True
    import ctypes
    import glob
    import os

    libdir = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
    for path in glob.glob(os.path.join(libdir, "*openblas*")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                     "openblas_set_num_threads64_", "openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(ctypes.c_int(n))
                return True
    return False


def process_context():
    """The multiprocessing context for worker processes: forkserver where the platform has
    it (a fork of a process that has started torch's or OpenBLAS's threads can hang),
    else spawn."""
    import multiprocessing as mp

    return mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods()
                          else "spawn")


def map_in_processes(fn: Callable, jobs: Sequence[tuple], workers: int) -> list[Any]:
    """``[fn(*job) for job in jobs]``, spread over up to ``workers`` processes when that is
    more than 1. ``fn`` and the jobs must be importable and picklable by a new process (a
    game registered at run time is not); each job must be seeded on its own, so that the
    results are those of one process."""
    if workers <= 1 or len(jobs) <= 1:
        return [fn(*job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=process_context()) as pool:
        futures = [pool.submit(fn, *job) for job in jobs]
        return [f.result() for f in futures]
