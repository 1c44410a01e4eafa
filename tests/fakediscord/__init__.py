"""A fake Discord for end-to-end tests of the real discord.py client, over the wire.

    async with FakeDiscordServer(FakeDiscord()) as server:
        settings = Settings(discord_token=server.fake.token, discord_base_url=server.base_url, …)
        client = build_client(settings)             # real discord.py, unpatched
        task = asyncio.create_task(client.start(server.fake.token))
        await server.wait_for(lambda: server.connected)
        await server.dispatch("INTERACTION_CREATE", server.fake.press_payload(…))

``world.py`` holds the state (the guild, channels, members, every version of every message) and
Discord's REST API over it; ``server.py`` serves it over HTTP with a gateway WebSocket.
"""

from .server import FakeDiscordServer, Session
from .world import (
    APP_ID,
    BOT_ROLE,
    HIGH_ROLE,
    CHANNEL_OPTION,
    DEFAULT_TOKEN,
    EPHEMERAL_CHANNEL,
    GUILD_ID,
    INTEGER_OPTION,
    STRING_OPTION,
    TIMESTAMP,
    USER_OPTION,
    Call,
    FakeDiscord,
    FakeError,
    FakeMessage,
    Interaction,
    Reply,
    Version,
    user_payload,
)

__all__ = ["APP_ID", "BOT_ROLE", "HIGH_ROLE", "CHANNEL_OPTION", "DEFAULT_TOKEN", "EPHEMERAL_CHANNEL", "GUILD_ID",
           "INTEGER_OPTION", "STRING_OPTION", "TIMESTAMP", "USER_OPTION", "Call", "FakeDiscord",
           "FakeDiscordServer", "FakeError", "FakeMessage", "Interaction", "Reply", "Session",
           "Version", "user_payload"]
