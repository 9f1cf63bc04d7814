"""Deprecated: ``plunder.benchmark`` is now :mod:`plunder.training.benchmark`.

This alias is kept for one release so that code written against the old path keeps
working: ``from plunder.benchmark import evaluate`` and ``plunder.benchmark.run`` (any
submodule) give the very objects of :mod:`plunder.training.benchmark`, not copies, with a
``DeprecationWarning``. Import from :mod:`plunder.training.benchmark` instead.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

from plunder.training.benchmark import *  # noqa: F401,F403
from plunder.training.benchmark import __all__  # noqa: F401

#: where the benchmark lives now
TARGET = "plunder.training.benchmark"

warnings.warn("plunder.benchmark is deprecated; import plunder.training.benchmark instead",
              DeprecationWarning, stacklevel=2)


class _SubmoduleAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``plunder.benchmark.X`` as the module ``plunder.training.benchmark.X``
    itself (one module object under both names, so classes and errors stay the same)."""

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(__name__ + "."):
            return None
        real = TARGET + name[len(__name__):]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        module = importlib.import_module(TARGET + spec.name[len(__name__):])
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module):
        # the import system gave the module the alias's spec: give it back its own
        module.__spec__ = module.__spec__.loader_state


if not any(isinstance(f, _SubmoduleAlias) for f in sys.meta_path):
    sys.meta_path.append(_SubmoduleAlias())
