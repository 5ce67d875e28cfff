"""The one line a command says when numba compiles its kernels.

numba compiles a kernel the first time a process calls it and, with
``cache=True``, keeps the machine code (under ``__pycache__``, or
``NUMBA_CACHE_DIR``); later runs load it in a fraction of a second. A first
run (a fresh clone, a cleared cache, another numba) would otherwise wait tens
of seconds without a word. :func:`announce_compiles` listens to numba's
``numba:compile`` event, which numba's dispatcher broadcasts only after its
cache had nothing for the call's types (``Dispatcher.compile``: a cache hit
returns before the event), and prints one line on stderr at the first compile
of the command, never more.

The words come from the module of the kernel being compiled: its
``COMPILING`` (for example "the win solver's kernels") and
``COMPILE_SECONDS`` (how long the first run of its main command compiles,
measured on the 2-core machine of the README), else "numba kernels"; core
names no game.
"""

from __future__ import annotations

import sys

GENERIC = "numba kernels"


def note(module: str) -> str:
    """The line for a first compile in ``module``."""
    mod = sys.modules.get(module)
    what = getattr(mod, "COMPILING", None) or GENERIC
    seconds = getattr(mod, "COMPILE_SECONDS", None)
    took = f" (about {seconds} s)" if seconds else ""
    return f"tutto-sim: compiling {what} once{took}; later runs reuse the cache"


class _Notice:
    """Prints :func:`note` at the first compile while armed, then disarms
    (a numba ``event.Listener``: its ``notify`` calls ``on_start``/``on_end``)."""

    def __init__(self):
        self.armed = False
        self.stream = None

    def on_start(self, ev) -> None:
        if not self.armed:
            return
        self.armed = False  # once per command, whatever compiles after
        disp = ev.data.get("dispatcher")
        module = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
        # sys.stderr looked up now: a live progress bar (rich) has its proxy there and
        # prints the line above the bar
        print(note(module), file=self.stream or sys.stderr, flush=True)

    def on_end(self, ev) -> None:
        pass


_notice: _Notice | None = None


def announce_compiles(enabled: bool = True, stream=None) -> None:
    """Say it once on ``stream`` (stderr) if this command compiles a kernel;
    ``enabled`` False: say nothing in this command (stderr is not a terminal,
    as for the progress bars: a log or a test reads only the results).

    Call it at the start of each command; the listener is registered once
    per process and armed (or disarmed) by each call."""
    global _notice
    if _notice is None:
        if not enabled:
            return  # nothing to say: numba need not even be loaded (a --help stays light)
        from numba.core import event

        class Notice(_Notice, event.Listener):
            pass

        _notice = Notice()
        event.register("numba:compile", _notice)
    _notice.armed = enabled
    _notice.stream = stream
