"""Discord by shards over one store (issue 18): which process serves which servers.

Discord's gateway is one connection per *shard*; a server (guild) belongs to shard
``(guild_id >> 22) % shard_count`` (Discord's "Sharding" formula; discord.py's
``Guild.shard_id``), and its events — slash commands, presses in its channels, voice states —
come over that shard's connection only. ``MAFIA_REFEREE_DISCORD_SHARDS=N`` runs the bot as
discord.py's ``AutoShardedClient`` with N shards; ``MAFIA_REFEREE_DISCORD_SHARD_IDS=0,1`` makes
this process connect those shards only, so that several processes (or machines) split the
servers between them over one PostgreSQL store (:class:`Shards`, ``multi``).

A process **owns** the game channels of its shards' servers, and only it touches them: it arms
their timers, resumes their host tables, sends their outbox (a judge's direct messages go with
the game they belong to) and applies their commands and presses. One thing comes over another
shard's connection: Discord sends everything of direct messages to shard 0, the judge's panel
presses included. A press on a panel of a game another process owns is acknowledged at once by
the process that got it and handed to the owner through the store's inbox (the interaction as
Discord sent it, keyed by its id: :meth:`storage.pg.PgStore.inbox_put`); the owner's
:class:`storage.shared.Drainer` (over :class:`ShardClaims`) applies it with the interaction's
token (its follow-ups and the panel's edit go over REST, which any process may use).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

#: the advisory lock namespace of a running shard (the key: its number)
SHARD_LOCK = 7103
#: the advisory lock namespace every sharded process holds shared, keyed by the shard count
#: (processes that disagree on the count would both own some servers)
SHARD_COUNT_LOCK = 7104


def shard_of(guild_id: int, count: int) -> int:
    """The shard of server ``guild_id`` among ``count`` (Discord's formula: the snowflake's
    timestamp bits, ``(guild_id >> 22) % count``). Raises ``ValueError`` for ``count < 1``."""
    if count < 1:
        raise ValueError("a shard count is at least 1")
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """This process's shards: ``count`` in all (``None``: not sharded, discord.py's plain
    ``Client``), ``ids`` the ones it connects (``None``: all of them)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @classmethod
    def of(cls, count: int | None, ids: tuple[int, ...] | None) -> "Shards":
        """From the settings (``MAFIA_REFEREE_DISCORD_SHARDS``, ``…_SHARD_IDS``)."""
        return cls(count, ids if count is not None and ids is not None else None)

    @property
    def multi(self) -> bool:
        """Whether other processes serve the other shards (some shard is not this one's)."""
        return self.count is not None and self.ids is not None and len(self.ids) < self.count

    def owns_guild(self, guild_id: int) -> bool:
        """Whether server ``guild_id`` is served by this process."""
        if not self.multi:
            return True
        assert self.count is not None and self.ids is not None
        return shard_of(guild_id, self.count) in self.ids

    def client_options(self) -> dict[str, object]:
        """``AutoShardedClient``'s keyword arguments (empty: a plain ``Client``)."""
        if self.count is None:
            return {}
        options: dict[str, object] = {"shard_count": self.count}
        if self.ids is not None:
            options["shard_ids"] = list(self.ids)
        return options

    def lock_keys(self) -> list[tuple[int, int]]:
        """The advisory locks a process of several takes: each of its shards (a second process
        with one of them is refused)."""
        return [(SHARD_LOCK, shard) for shard in self.ids or ()]


class ShardClaims:
    """:class:`storage.shared.ChatClaims`'s part the :class:`storage.shared.Drainer` uses, for a
    sharded process: it "claims" exactly the home channels of its own servers (``owns(chat)``),
    for as long as it runs — the gateway decided, nothing to lock."""

    def __init__(self, owns: Callable[[str], Awaitable[bool]]) -> None:
        self._owns = owns
        self.owned: list[str] = []

    async def claim(self, chat: str) -> bool:
        return await self._owns(chat)

    async def release(self, chat: str) -> None:
        """Nothing to let go (an update another process applied first is refused by the
        store; ownership does not move)."""

    def alive(self) -> bool:
        return True
