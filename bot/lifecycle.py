"""What every long-running mode (``telegram``, ``discord``, ``both``) does with its service manager.

* :func:`notify` — systemd's notify protocol (``sd_notify(3)``): one datagram of ``KEY=VALUE``
  lines to the ``AF_UNIX`` socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` is Linux's abstract
  namespace); nothing at all without it (Docker, a terminal). ``READY=1`` once the bot is
  connected (``Type=notify``: ``systemctl start`` waits for it), ``STOPPING=1`` on the way out.
* :func:`keepalive` — a task on the bot's event loop that sends ``WATCHDOG=1`` three times per
  ``$WATCHDOG_USEC`` (``WatchdogSec=`` in the unit): a stuck loop stops sending and systemd
  restarts the process (``Restart=on-failure`` counts a watchdog timeout as a failure).
* :func:`stop_on_sigterm` — SIGTERM (``systemctl stop``, ``docker stop``) cancels the running
  main task, so the mode shuts down as on Ctrl+C: the store closed, the gateway left. Also as
  PID 1 in a container, where a signal without a handler is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket

log = logging.getLogger(__name__)

#: The watchdog is pinged this many times per ``WatchdogSec``.
PINGS_PER_WATCHDOG = 3


def notify(*states: str) -> bool:
    """Send ``states`` (``"READY=1"``, ``"WATCHDOG=1"`` …) to systemd; returns whether a socket
    was named (``$NOTIFY_SOCKET``) and the datagram sent. Never raises: a failure is logged."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address or not states:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall("\n".join(states).encode("utf-8"))
    except OSError as error:
        log.warning("cannot notify systemd at %s: %s", os.environ.get("NOTIFY_SOCKET"), error)
        return False
    return True


def watchdog_seconds() -> float | None:
    """``$WATCHDOG_USEC`` in seconds when the watchdog is on for this process
    (``$WATCHDOG_PID`` unset or ours), else ``None``."""
    usec, pid = os.environ.get("WATCHDOG_USEC"), os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


async def keepalive() -> None:
    """Ping systemd's watchdog from the event loop until cancelled; returns at once when there
    is no watchdog."""
    period = watchdog_seconds()
    if period is None:
        return
    while True:
        notify("WATCHDOG=1")
        await asyncio.sleep(period / PINGS_PER_WATCHDOG)


_watchdog: asyncio.Task[None] | None = None


def ready(mode: str) -> None:
    """The mode is connected: ``READY=1`` to systemd and the watchdog's pings started on the
    running loop (once: ``both`` calls it for each of its bots) until :func:`stopping`."""
    global _watchdog
    notify("READY=1", f"STATUS=mafia-referee {mode}: running")
    if watchdog_seconds() is not None and (_watchdog is None or _watchdog.done()):
        _watchdog = asyncio.get_running_loop().create_task(keepalive(), name="systemd-watchdog")


def stopping() -> None:
    """The mode shuts down: ``STOPPING=1`` to systemd, the watchdog's pings stopped."""
    global _watchdog
    notify("STOPPING=1")
    if _watchdog is not None:
        _watchdog.cancel()
        _watchdog = None


def stop_on_sigterm() -> None:
    """Inside the mode's main task: SIGTERM cancels it (once; a second SIGTERM is ignored while
    it shuts down), as Ctrl+C does."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    if task is None:  # pragma: no cover - always called from a task
        return

    def stop() -> None:
        log.info("SIGTERM: shutting down")
        loop.remove_signal_handler(signal.SIGTERM)
        task.cancel()

    with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals off the main thread
        loop.add_signal_handler(signal.SIGTERM, stop)
