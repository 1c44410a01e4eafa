"""Who may use the bot: ``MAFIA_REFEREE_ALLOWED_CHATS`` (:attr:`bot.settings.Settings.allowed`).

Unset, everyone. Set, a list of chat keys:

* Telegram: a group is served when it is listed (``tg:-100…``): its commands, presses and host
  tables; any other group gets one answer to a command, naming its id (to be added), and nothing
  else. A private chat is where a judge records a game and where a hosted table's players get
  their roles: it is served, except that a new game (``/new``) there needs a listed user
  (``tg:<user id>``) or a member of a listed group.
* Discord: a server is served when it is listed (``dc:<server id>``); a command anywhere else is
  answered with the server's id, and nothing else happens.
"""

from __future__ import annotations

from typing import Awaitable, Callable, Iterable


class Access:
    """The allow-list of one process: ``allowed`` keys (empty: everyone)."""

    def __init__(self, allowed: Iterable[str]) -> None:
        self.allowed = frozenset(allowed)

    @property
    def everyone(self) -> bool:
        return not self.allowed

    def chat(self, key: str) -> bool:
        """Whether the chat or server ``key`` (``tg:…``, ``dc:…``) is served."""
        return self.everyone or key in self.allowed

    def groups(self, prefix: str = "tg:-") -> list[str]:
        """The listed groups of a platform (Telegram's group ids are negative)."""
        return sorted(key for key in self.allowed if key.startswith(prefix))

    async def may_start(self, user: str, member_of: Callable[[str, str], Awaitable[bool]]) -> bool:
        """Whether ``user`` may start a game in a private chat: everyone may when the list is
        unset; else a listed user, or a member of a listed group (``member_of(group, user)``)."""
        if self.everyone or user in self.allowed:
            return True
        for group in self.groups():
            if await member_of(group, user):
                return True
        return False
