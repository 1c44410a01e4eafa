"""A private chat's own send limit (issue 34): Telegram takes about one message a second to one
chat, and PTB's limiter has a limit per group only. A judge who presses his panel faster than
once a second would get 429s (and their retries, each a flood wait that stops every request of
the bot: :class:`telegram.ext.AIORateLimiter`); his chat's messages and edits are paced instead
(:class:`bot.telegram.host.limiter.Pacer`, ``MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE``). Every clock
here is the test's own; nothing sleeps."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.settings import Settings
from bot.telegram.app import rate_limiter
from bot.telegram.host.limiter import HostRateLimiter, Pacer

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # a 429's wait as a timedelta (PTB 22)

JUDGE = 42  # a private chat: the judge's, his panel there
GROUP = -1001  # the club's group


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:  # the pacer's sleep: the clock moves on
        self.now += seconds


class FakeTelegram:
    """Answers a message or an edit to a private chat with 429 if the chat's last one was less
    than a second before (Telegram's limit, as strict as it may be)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.calls: list[tuple[float, str, int]] = []
        self.refused = 0
        self._last: dict[int, float] = {}

    def call(self, endpoint: str, chat: int) -> Any:
        async def request(*args: Any, **kwargs: Any) -> bool:
            now = self.clock()
            if chat > 0 and endpoint != "answerCallbackQuery":
                if now - self._last.get(chat, -10.0) < 1.0 - 1e-9:
                    self.refused += 1
                    raise RetryAfter(dt.timedelta(seconds=1))
                self._last[chat] = now
            self.calls.append((now, endpoint, chat))
            return True

        return request


async def _press(limiter: HostRateLimiter, api: FakeTelegram, endpoint: str, chat: int) -> Any:
    return await limiter.process_request(api.call(endpoint, chat), (), {}, endpoint,
                                         {"chat_id": chat}, None)


async def test_a_judge_pressing_faster_than_once_a_second_is_paced_not_refused() -> None:
    """Five presses 0.2 s apart, handled one after another (one chat's updates are): each is
    answered as soon as it is handled (``answerCallbackQuery`` is not a message), and the five
    panel edits reach his chat one a second, none refused; the group's edit meanwhile is not
    held up by his chat's pace."""
    clock = Clock()
    api = FakeTelegram(clock)
    limiter = HostRateLimiter(overall_max_rate=0, group_max_rate=0,
                              pacer=Pacer(1, 1, clock=clock, sleep=clock.sleep))
    pressed = [0.2 * n for n in range(5)]
    for at in pressed:  # one chat's updates are handled one after another
        clock.now = max(clock.now, at)
        await _press(limiter, api, "answerCallbackQuery", JUDGE)
        await _press(limiter, api, "editMessageText", JUDGE)
    assert api.refused == 0
    edits = [t for t, endpoint, _ in api.calls if endpoint == "editMessageText"]
    assert edits == [0.0, 1.0, 2.0, 3.0, 4.0]
    answers = [t for t, endpoint, _ in api.calls if endpoint == "answerCallbackQuery"]
    assert answers == [0.0, 0.2, 1.0, 2.0, 3.0]  # each as soon as its press is handled: not paced
    before = clock.now
    await _press(limiter, api, "editMessageText", GROUP)
    assert clock.now == before and api.calls[-1][2] == GROUP  # a group: its own limit only


async def test_unpaced_the_same_presses_are_refused() -> None:
    """The same presses with the private limit off (``0``): Telegram refuses four of the five
    edits — what the pace is for (the test above could not fail otherwise)."""
    clock = Clock()
    api = FakeTelegram(clock)
    limiter = HostRateLimiter(overall_max_rate=0, group_max_rate=0,
                              pacer=Pacer(0, 1, clock=clock, sleep=clock.sleep))
    for n in range(5):
        clock.now = 0.2 * n
        try:
            await _press(limiter, api, "editMessageText", JUDGE)
        except RetryAfter:
            pass
    assert api.refused == 4


def test_the_private_limit_is_a_setting_one_a_second_by_default(monkeypatch: Any) -> None:
    """``MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE`` / ``…_PERIOD``: 1 per 1 s unless set; the bot's
    limiter paces at that gap, and 0 turns it off."""
    for name in ("MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE", "MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE_PERIOD"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (settings.telegram_rate_private, settings.telegram_rate_private_period) == (1.0, 1.0)
    assert rate_limiter(settings, None).pacer.gap == 1.0  # type: ignore[arg-type]
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE", "2")
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE_PERIOD", "3")
    assert rate_limiter(Settings(_env_file=None), None).pacer.gap == 1.5  # type: ignore[arg-type,call-arg]
    monkeypatch.setenv("MAFIA_REFEREE_TELEGRAM_RATE_PRIVATE", "0")
    assert rate_limiter(Settings(_env_file=None), None).pacer.gap == 0.0  # type: ignore[arg-type,call-arg]


@pytest.mark.parametrize("rate", [1, 3, 20])
async def test_an_answer_that_only_reads_goes_in_a_quiet_group_and_yields_in_a_busy_one(rate: int) -> None:
    """Whatever the group's budget (MAFIA_REFEREE_TELEGRAM_RATE_GROUP a minute), an answer
    that only reads (a /status in the group) has room while the group is quiet, and none once
    the game's messages have used the budget up: they go first."""
    from bot.telegram.app import GROUP_KEPT

    limiter = HostRateLimiter(group_max_rate=rate, group_time_period=60, max_retries=0)
    await limiter.initialize()
    group = -1001

    async def sent(*_: Any, **__: Any) -> bool:
        return True

    assert limiter.group_has_room(group, GROUP_KEPT)
    for _ in range(rate):  # the game's announcements
        await limiter.process_request(sent, (), {}, "sendMessage", {"chat_id": group}, None)
    assert not limiter.group_has_room(group, GROUP_KEPT)
    assert limiter.group_has_room(-1002, GROUP_KEPT)  # another group's budget is its own
    await limiter.shutdown()
