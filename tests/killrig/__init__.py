"""Kill tests' rig (issue #6): the bot as a child process killed with SIGKILL at seeded random
points of a stream of judge actions or of a hosted game (on Telegram or Discord), started again
over the same SQLite, and checked against an un-killed reference run. ``tests/`` has no
``__init__``: import it as ``from killrig import ...``."""

from .judge import JudgeRun, Reference, demo_script, play_games
from .platforms import PLATFORMS, DiscordClient, KillDiscord, TelegramClient, open_platform
from .rig import BotProcess, KillFake, Platform, bot_env, read_games, read_outbox
from .sequences import compare_announcements

__all__ = ["PLATFORMS", "BotProcess", "DiscordClient", "JudgeRun", "KillDiscord", "KillFake",
           "Platform", "Reference", "TelegramClient", "bot_env", "compare_announcements",
           "demo_script", "open_platform", "play_games", "read_games", "read_outbox"]
