"""One lesson server per data folder: a lock file with the server's process id.

Two ``tokens-edu serve`` on the same data folder would share its answers file and its
``today.json`` without a word (each warming kernels for the class, each measuring memory as if
alone). The second is refused in one line that names the first (its process id and port).

The lock is ``serve.lock`` in the data folder, held with ``flock`` by the ``tokens-edu serve``
process for as long as it runs. The system lets the lock go when that process ends however it
ends (Ctrl-C, a crash, a power cut), so a lock file left behind is never in the way: the next
server takes it and writes its own process id. Standard library only; on a system without
``fcntl`` (Windows) there is no lock.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageProblem

__all__ = ["ServerLock", "LOCK_NAME"]

#: The lock file's name in the data folder.
LOCK_NAME = "serve.lock"


class ServerLock:
    """The data folder's lock, held from :meth:`take` until :meth:`release` (or the process ends).

    Args:
        folder: the data folder.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None

    def take(self, port: int) -> bool:
        """Take the lock and write ``"<pid> <port>"`` in it.

        Returns:
            bool: True when held; False when this system has no file locks or the folder cannot
            hold the file (then nothing is checked: the server still starts).

        Raises:
            UsageProblem: another running server holds it (the message names its process id
                and port, and what to do).
        """
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            return False
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held = _read(fd)
            os.close(fd)
            pid, _, other = held.partition(" ")
            who = (f"process {pid}, port {other}" if pid.isdigit() and other.isdigit()
                   else "another process")
            raise UsageProblem(f"Another lesson server ({who}) already uses the data folder "
                               f"{self.folder}. Stop it first (Ctrl-C in its window), or give "
                               "this one another --data-dir.") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {int(port)}\n".encode(), 0)
        self._fd = fd
        return True

    def release(self) -> None:
        """Let the lock go (the file stays; the next server takes it)."""
        if self._fd is not None:
            try:
                os.close(self._fd)  # closing the file lets the lock go
            finally:
                self._fd = None


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 100, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
