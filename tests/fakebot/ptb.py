"""Running a real python-telegram-bot ``Application`` against ``FakeBotAPI``.

ENGINEERING.md §2/§4: in tests the Application is started and stopped by hand
(``initialize/start/updater.start_polling`` ... ``updater.stop/stop/shutdown``), never with
``run_polling``.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, AsyncIterator, Sequence

if TYPE_CHECKING:
    from telegram.ext import Application, ApplicationBuilder

    from .server import FakeBotAPI


def application_builder(fake: FakeBotAPI, token: str | None = None
                        ) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
    """An ``ApplicationBuilder`` whose bot talks to ``fake`` (add handlers/options, then build)."""
    from telegram.ext import ApplicationBuilder

    return (
        ApplicationBuilder()
        .token(token or fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
    )


def build_application(fake: FakeBotAPI, token: str | None = None) -> Application[Any, Any, Any, Any, Any, Any]:
    return application_builder(fake, token).build()


@asynccontextmanager
async def running(
    app: Application[Any, Any, Any, Any, Any, Any],
    fake: FakeBotAPI | None = None,
    *,
    poll_timeout: int = 1,
    allowed_updates: Sequence[str] | None = None,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """Start ``app`` with long polling (``poll_interval=0``) and always stop it again.

    With ``fake`` given, wait until the first getUpdates has reached it: Telegram applies
    ``allowed_updates`` from that call on, so a ``chat_member`` update created earlier would be
    dropped (as it would in production).
    """
    await app.initialize()
    try:
        await app.start()
        polls_before = len(fake.calls_to("getUpdates")) if fake is not None else 0
        await app.updater.start_polling(  # type: ignore[union-attr]
            poll_interval=0, timeout=poll_timeout, allowed_updates=allowed_updates
        )
        if fake is not None:
            await fake.wait_for(lambda: len(fake.calls_to("getUpdates")) > polls_before,
                                what="the first getUpdates")
        yield app
    finally:
        if fake is not None:
            await _until_idle(fake)
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()


async def _until_idle(fake: FakeBotAPI, timeout: float = 2.0) -> None:
    """Wait until the updater sits in an empty long poll before stopping it.

    Stopping PTB while a getUpdates answer is being read cancels the read, and httpcore then
    keeps the get_updates pool's only connection: the updater's final acknowledging
    getUpdates waits out the pool timeout (1 s) and logs an error. Harmless, but slow.
    """
    from .server import FakeTimeout

    def idle() -> bool:
        polls = fake.calls_to("getUpdates")
        return fake.undelivered_updates == 0 and bool(polls) and polls[-1].ok is None

    try:
        await fake.wait_for(idle, timeout, "the updater to be idle")
    except FakeTimeout:
        pass
