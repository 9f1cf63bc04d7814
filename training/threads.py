"""Thread limits that need neither torch nor SB3 (the benchmark path imports this)."""

from __future__ import annotations

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
