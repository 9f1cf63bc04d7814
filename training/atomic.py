"""Atomic file writes (torch-free: the benchmark and export paths use them)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temp file beside ``path`` and ``os.replace`` it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) atomically, as ``atomic_write_bytes`` does."""
    atomic_write_bytes(path, text.encode())


def write_failure(exc: OSError, what: str, verb: str = "write") -> str:
    """One line saying that ``what`` (``the run``, ``the bot``) could not be written (or
    ``verb``), and why: a read-only folder, a full disk, a folder that is a file."""
    where = f" ({exc.filename})" if exc.filename else ""
    return f"cannot {verb} {what}{where}: {exc.strerror or exc}"
