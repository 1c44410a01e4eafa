"""A fake Telegram Bot API server for end-to-end tests of the real PTB Application.

    async with FakeBotAPI() as fake:
        judge = fake.add_user("Judge", "judge")
        group = fake.add_group("Club", members=[judge])
        app = build_application(fake)          # real telegram.ext.Application
        async with running(app, fake):
            fake.user_sends(judge, group, "/newgame")
            await fake.wait_for(lambda: fake.sent(group))

See ``server.py`` for the world model, the Bot API methods served and the fault injection.
"""

from .formatting import EntityParseError, parse_html, parse_markdown_v2, u16len
from .params import ApiError
from .ptb import application_builder, build_application, running
from .server import (
    DEFAULT_TOKEN,
    Call,
    CallbackAnswer,
    CallbackQueryRecord,
    FakeBotAPI,
    FakeTimeout,
    FakeWorldError,
    Fault,
    FloodLimits,
    Restriction,
    StoredFile,
)
from .world import (
    DEFAULT_BOT_ADMIN_RIGHTS,
    DEFAULT_CHAT_PERMISSIONS,
    FakeChat,
    FakeMember,
    FakeMessage,
    FakeUser,
)

__all__ = [
    "DEFAULT_BOT_ADMIN_RIGHTS", "DEFAULT_CHAT_PERMISSIONS", "DEFAULT_TOKEN", "ApiError", "Call",
    "CallbackAnswer", "CallbackQueryRecord", "EntityParseError", "FakeBotAPI", "FakeChat",
    "FakeMember", "FakeMessage", "FakeTimeout", "FakeUser", "FakeWorldError", "Fault",
    "FloodLimits", "Restriction", "StoredFile", "application_builder", "build_application", "parse_html",
    "parse_markdown_v2", "running", "u16len",
]
