"""The console's keyboard: lines read from the terminal without blocking the event loop, none lost
when several come at once, and whether there is a terminal to read at all."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys


def stdin_can_be_read() -> bool:
    """Whether a person may type to the console: standard input is a terminal, or a pipe or
    a socket that someone writes to. ``/dev/null`` (a container without ``-i``, systemd,
    nohup), a closed one or a file is not: the loop cannot wait on them for lines."""
    try:
        descriptor = sys.stdin.fileno()
        mode = os.fstat(descriptor).st_mode
    except (AttributeError, ValueError, OSError):
        return False
    return os.isatty(descriptor) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Keyboard:
    """The lines typed, read from standard input's descriptor as it becomes readable, so
    that no thread blocks on the terminal and Ctrl-C and SIGTERM end the program at once.
    Each read may bring several lines (typed while a message was printed, or pasted): every
    one is queued. (``sys.stdin.readline()`` under ``add_reader`` kept the ones after the
    first in its own buffer, where the loop never looked: they were lost.)"""

    def __init__(self, descriptor: int, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.descriptor = descriptor
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        """Lines typed, without their end; None once input has ended."""
        self._partial = b""
        self._loop = loop
        """The loop reading it (None: not attached, or detached)."""
        if loop is not None:
            loop.add_reader(descriptor, self._readable)

    @classmethod
    def attach(cls) -> Keyboard:
        """Standard input, read by the running loop."""
        return cls(sys.stdin.fileno(), asyncio.get_running_loop())

    def detach(self) -> None:
        if self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self.descriptor)
            self._loop = None

    async def line(self) -> str | None:
        """The next line typed; None when input has ended (and from then on)."""
        line = await self.lines.get()
        if line is None:
            self.lines.put_nowait(None)
        return line

    def _readable(self) -> None:
        try:
            chunk = os.read(self.descriptor, 65_536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:  # the end of input: what was typed without an Enter counts too
            if self._partial:
                self.lines.put_nowait(self._partial.decode(errors="replace"))
            self._partial = b""
            self.lines.put_nowait(None)
            self.detach()
            return
        *complete, self._partial = (self._partial + chunk).split(b"\n")
        for line in complete:
            self.lines.put_nowait(line.decode(errors="replace").rstrip("\r"))
