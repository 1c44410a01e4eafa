"""Every door of a hosted table's group is judged (issue 36), over the fake Bot API: the real PTB
Application, ten players in a Telegram group.

Speaking out of one's minute is a foul (seed 4.1.1), at night (night 0 too) a disqualifying
foul (seed 4.2.6), whatever door the words come through: an edited message (judged when it was
edited), a message written as the group by an anonymous admin or as a channel (its author's when
the Bot API names him; else nobody's — deleted, the host told), a command with free text (judged
as the message it is, never answered with the words it carries). A linked channel's automatic
forward is nobody's speech. What the bot sends a player privately — his role, a check's answer,
a night prompt, the blacks' words at night 0 — cannot be forwarded as proof; and what it repeats
of a user's words, and every name, is free of text-direction, zero-width and control characters.
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.i18n import catalog
from fakebot import FakeBotAPI, FakeWorldError
from bot.host.steps import WRITTEN_GRACE
from rules import Cause, Role
from support.host_table import FAST, HostTable, host_table, make_world
from support.telegram_table import table as judge_table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta

RU = catalog("ru")
FOUL = "4.1.1"  # seed 4.1.1: speech out of one's minute
NIGHT_TALK = "4.2.6"  # seed 4.2.6: talk at night, a disqualifying foul
LONG_NIGHT_ZERO = FAST.replace("timers.mafia_meeting=20", "timers.mafia_meeting=200") + " mute=foul"
HINT = "Шериф — №7, стреляйте"  # words a player must not get out through the bot
WORD = "Шериф№7стреляйте"  # one word: /rule looks it up (and finds no such rule)


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[HostTable]:
    async with host_table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def fouls(t: HostTable, seat: int) -> list[str]:
    return (await t.state()).seat(seat).fouls


def everything_sent(t: HostTable) -> list[str]:
    """Every version of every message the bot sent anywhere."""
    return [x for m in t.fake.sent() for x in m.texts if x]


# --- 1. edited messages --------------------------------------------------------------------------

async def test_an_edit_is_judged_as_a_message_written_when_it_was_edited(t: HostTable) -> None:
    """An edit is a message written at the time of the edit: in the writer's own minute it is
    nothing; in another's minute a foul (seed 4.1.1), the message deleted; one written in the
    lobby and edited at night 0 is night talk (seed 4.2.6)."""
    night_writer = t.players[6]
    early = await t.say(night_writer, "Всем привет")  # the lobby: no table runs yet
    await t.open_and_fill(LONG_NIGHT_ZERO)
    seat = t.seat(night_writer)
    await t.edit(night_writer, early, "Я Шериф, №2 чёрный")  # at night 0
    assert early.deleted
    departure = (await t.state()).seat(seat).departure
    assert departure is not None and departure.cause is Cause.DISQUALIFICATION
    assert departure.reason == NIGHT_TALK and departure.phase == "night"

    await t.wait_floor(1, consume=False)
    own = await t.say(t.user(1), "Я мирный житель")
    await t.edit(t.user(1), own, "Я мирный житель, честно")  # his own minute: nothing to judge
    assert not own.deleted and await fouls(t, 1) == []
    await t.pass_turn(1)
    await t.wait_floor(2, consume=False)
    real = t.fake.clock  # edited a few seconds into #2's minute: past the boundary's grace (issue 35)
    t.fake.clock = lambda: real() + WRITTEN_GRACE + 1
    try:
        await t.edit(t.user(1), own, "Я мирный житель. №5 — чёрный")  # in #2's minute
    finally:
        t.fake.clock = real
    assert own.deleted
    assert await fouls(t, 1) == [FOUL]
    assert any(f"Игроку №1 — фол: речь не в свою игровую минуту" in x for x in t.group_texts())


# --- 2. anonymous admins, posts as a channel, a linked channel ------------------------------------

async def test_an_anonymous_admin_or_a_channel_is_judged_as_the_player_when_named(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """A seated player who writes as the group (an anonymous admin) or as his own channel is
    the one fouled when the Bot API names him — the one anonymous admin whose custom title
    signs the message; the one seated player whose profile shows that channel."""
    world = make_world(fake, admins=(3, 4))
    async with host_table(fake, tmp_path / "referee.sqlite3", world) as t:
        ghost, titled = t.players[2], t.players[3]
        fake.set_member(t.group, ghost, "administrator", anonymous=True)
        fake.set_member(t.group, titled, "administrator", anonymous=True, title="Капитан")
        channel = fake.add_channel("Канал Егора", bot_status=None)
        owner = t.players[5]
        fake.set_member(channel, owner, "creator")
        fake.set_personal_channel(owner, channel)
        await t.open_and_fill(f"{FAST} mute=foul")
        await t.wait_floor(1, consume=False)
        signed = await t.say(titled, "Я точно мирный")  # signed «Капитан»: his alone
        assert signed.sender_chat is not None and signed.author_signature == "Капитан"
        assert signed.deleted and await fouls(t, t.seat(titled)) == [FOUL]
        unsigned = await t.say(ghost, "И я мирный")  # the one anonymous admin without a title
        assert unsigned.deleted and await fouls(t, t.seat(ghost)) == [FOUL]
        posted = await t.say(owner, "Пишу от канала", as_chat=channel)
        assert posted.deleted and await fouls(t, t.seat(owner)) == [FOUL]
        assert await fouls(t, 1) == []


async def test_an_unnamed_sender_is_deleted_and_the_host_told(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Written in the name of the group or a channel by someone the bot cannot name (two
    anonymous admins alike; a channel on nobody's profile): at a running table it is nobody's
    speech — deleted, nobody fouled, the host told in private once a step; a command so
    written is not carried out. A linked channel's automatic forward stays free."""
    world = make_world(fake, admins=(3, 4))
    async with host_table(fake, tmp_path / "referee.sqlite3", world) as t:
        for anonymous in t.players[2:4]:
            fake.set_member(t.group, anonymous, "administrator", anonymous=True)
        channel = fake.add_channel("Чей-то канал", bot_status=None)
        fake.set_member(channel, t.players[5], "creator")  # not on his profile
        news = fake.add_channel("Новости клуба")
        fake.link_channel(news, t.group)
        await t.open_and_fill(f"{FAST} mute=foul")
        await t.wait_floor(1, consume=False)
        before = len(t.group_texts())
        first = await t.say(t.players[2], "Это я, но кто?")
        second = await t.say(t.players[5], "А это канал", as_chat=channel)
        command = await t.say(t.players[3], f"/rule {HINT}")
        assert first.deleted and second.deleted and command.deleted
        state = await t.state()
        assert all(s.fouls == [] for s in state.seats)
        assert len(t.group_texts()) == before  # nothing said in the group
        told = [x for x in t.private_texts(t.owner) if "от имени группы или канала" in x]
        assert len(told) == 1 and "удалено" in told[0]
        forwarded = await t._handled(lambda: fake.channel_posts(news, "Анонс: турнир в субботу"),
                                     "the channel's post")
        assert forwarded is not None and forwarded.delivered and not forwarded.deleted
        assert forwarded.sender_chat is news and forwarded.forward_origin is not None
        assert len([x for x in t.private_texts(t.owner) if "от имени группы" in x]) == 1
        assert all(s.fouls == [] for s in (await t.state()).seats)
        assert len(t.group_texts()) == before


# --- 3. commands with free text ----------------------------------------------------------------

async def test_a_command_out_of_ones_minute_is_judged_as_a_message(t: HostTable) -> None:
    """A command is a message the whole group reads: typed by a seated player at night it is
    night talk (seed 4.2.6), out of his minute by day a foul (seed 4.1.1) — a known command, an
    unknown one, another bot's alike; deleted, not carried out, never answered (an answer would
    repeat the words). In his minute the speaker's /nominate is carried out; a spectator's
    refusal does not repeat his words either."""
    await t.open_and_fill(LONG_NIGHT_ZERO)
    night = t.user(9)
    said = await t.say(night, f"/rule {HINT}")
    assert said.deleted
    departure = (await t.state()).seat(9).departure
    assert departure is not None and departure.reason == NIGHT_TALK
    await t.wait_floor(1, consume=False)
    for seat, text in ((4, "/nominate Шериф7"), (5, f"/stop@OtherBot {HINT}"), (6, "/шериф_7"),
                       (7, f"/status {HINT}")):
        typed = await t.say(t.user(seat), text)
        assert typed.deleted, text
        assert await fouls(t, seat) == [FOUL], text
    assert (await t.state()).nominees == []
    await t.say(t.user(1), "/nominate 3")  # the speaker, in his minute
    assert (await t.state()).nominees == [3]
    spectator = t.fake.add_user("Зритель", "fan")
    t.fake.set_member(t.group, spectator)
    asked = await t.say(spectator, f"/rule {HINT}")
    assert not asked.deleted  # not at the table: his to ask
    assert t.group_texts()[-1] == "/rule: лишнее «…». Подробнее: /help."
    await t.say(spectator, f"/rule {WORD}")
    assert "Правила «…» нет" in t.group_texts()[-1]
    assert not any(word in x for x in everything_sent(t)
                   for word in ("Шериф — №7", "Шериф7", "шериф_7", WORD))


async def test_a_refusal_in_a_group_never_repeats_the_users_words(fake: FakeBotAPI,
                                                                   tmp_path: Path) -> None:
    """Judge mode's group (no hosted table): a refusal says what went wrong without repeating
    what was typed; in the judge's private chat, read by him alone, it quotes him."""
    async with judge_table(fake, tmp_path / "referee.sqlite3") as j:
        await j.say("/new")
        await j.say("/link", chat=j.group)
        await j.say(f"/rule {WORD}", chat=j.group, user=j.players[1])
        assert "Правила «…» нет" in j.public()[-1]
        await j.say(f"/rule {HINT}", chat=j.group, user=j.players[1])
        assert j.public()[-1] == "/rule: лишнее «…». Подробнее: /help."
        await j.say(f"/rule {WORD}")
        assert f"Правила «{WORD}» нет" in j.private()[-1]
        assert not any(WORD in x or HINT in x for x in j.public())


# --- 4. protected private messages -------------------------------------------------------------

async def test_private_messages_cannot_be_forwarded_as_proof(t: HostTable) -> None:
    """The role cards, the blacks' words at night 0, the night prompts and the checks' answers
    are sent with protect_content: nobody can forward them (a Sheriff cannot prove his check
    with the bot's own message)."""
    await t.open_and_fill()
    don, = await t.seats_of(Role.DON)
    sheriff, = await t.seats_of(Role.SHERIFF)
    mafia = await t.seats_of(Role.MAFIA)
    await t.private(t.user(mafia[0]), "Стреляем в 1")
    await t.fake.wait_for(lambda: any("Стреляем в 1" in x for x in t.private_texts(t.user(don))))
    await t.speeches(list(range(1, 11)))  # no nominee: no vote on day 1
    target = next(seat for seat in await t.reds() if seat != sheriff)
    await t.night(1, shots={seat: target for seat in (don, *mafia)}, don=sheriff, sheriff=don)
    await t.fake.wait_for(lambda: any("Шериф проверяет игрока" in x
                                      for x in t.private_texts(t.user(sheriff))), what="the answer")
    for seat in range(1, 11):
        sent = t.fake.sent(t.user(seat))
        assert sent and all(m.protected for m in sent), [(m.text, m.protected) for m in sent]
    answer = next(m for m in t.fake.sent(t.user(sheriff)) if "Шериф проверяет игрока" in (m.text or ""))
    with pytest.raises(FakeWorldError, match="protected content"):
        t.fake.user_forwards(t.user(sheriff), answer, t.group)
    assert not any(m.protected for m in t.fake.sent(t.group))  # the group's are public anyway


# --- 5. control characters ---------------------------------------------------------------------

async def test_names_and_echoes_lose_their_invisible_characters(fake: FakeBotAPI, tmp_path: Path) -> None:
    """«Бо\u200bрис» is «Борис» (the zero-width space draws nothing): the table tells the two
    players apart by a number; the blacks' words relayed lose their text-direction override,
    BEL and ESC."""
    world = make_world(fake)
    fake.rename_user(world.players[2], "Бо\u200bрис")  # after «Борис», the second player
    async with host_table(fake, tmp_path / "referee.sqlite3", world) as t:
        await t.open_and_fill(LONG_NIGHT_ZERO)
        names = [s.name for s in (await t.state()).seats]
        assert names[1:3] == ["Борис", "Борис (2)"], names
        mafia = await t.seats_of(Role.MAFIA)
        don, = await t.seats_of(Role.DON)
        await t.private(t.user(mafia[0]), "\u202eстреляем\x07 в\x1b 1\u200b0")
        relayed = await t.fake.wait_for(lambda: next(
            (x for x in t.private_texts(t.user(don)) if "стреляем" in x), None))
        assert relayed.endswith("стреляем в 10"), relayed


async def test_a_name_with_a_zero_width_space_is_the_same_name(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Judge mode: «Бо\u200bрис» at another seat than «Борис» is refused as the same name (one
    player, one seat); what a refusal quotes back in private is free of invisible characters."""
    async with judge_table(fake, tmp_path / "referee.sqlite3") as j:
        await j.say("/new")
        await j.say("/name 2 Борис")
        await j.say("/name 3 Бо\u200bрис")
        assert "Имя «Борис» уже у места 2" in j.private()[-1], j.private()[-1]
        assert (await j.state()).seat(3).name is None
        await j.say("/rule \u202eАбра\u200bкадабра\x1b")
        assert "Правила «Абракадабра» нет" in j.private()[-1], repr(j.private()[-1])
