"""Whole games run by the bot in a group (host mode, issue 4): the real PTB Application over HTTP
against the fake Bot API, ten simulated players in the group and in their private chats.

What is checked is what the rules say: the deal (R1.1: 7 red with one Sheriff, 3 black with one
Don), night 0 (F24 §4.2), the speeches in order (F24 §4.3.2), the nominations (§4.4.2), the vote
with the unvoted hands going to the last nominee (§4.4.8), the night's shooting (§4.5.3–4.5.5),
the checks (§4.5.6–4.5.7), the best move (§4.5.9), the result (§1.4) — and that nothing naming
a role reaches the group before the end (F24 §4.4.13, §4.5.4)."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from rules import Cause, Phase, Role, Team
from support import RU_SECRETS
from support.host_table import HostTable, host_table


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[HostTable]:
    async with host_table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


def secrets_in(texts: list[str]) -> list[str]:
    return [x for x in texts if any(word in x for word in RU_SECRETS)]


def others(order: list[int], *skip: int) -> list[int]:
    return [s for s in order if s not in skip]


async def test_a_red_win(t: HostTable) -> None:
    await t.open_and_fill()
    state = await t.state()
    roles = [s.role for s in state.seats]
    assert roles.count(Role.DON) == 1 and roles.count(Role.SHERIFF) == 1  # R1.1
    assert roles.count(Role.MAFIA) == 2 and roles.count(Role.CIVILIAN) == 6
    assert [state.seat(n).name for n in range(1, 11)] == [p.first_name for p in t.players]
    for seat in range(1, 11):  # each card in private, with the seat (R1.1)
        card = t.private_texts(t.user(seat))
        role_word = {"don": "Дон", "mafia": "мафия", "sheriff": "Шериф", "civilian": "мирный"}
        assert any(f"Ваше место — №{seat}, ваша роль — {role_word[state.seat(seat).role.value]}" in x
                   for x in card), card
    don, = await t.seats_of(Role.DON)
    mafia = await t.seats_of(Role.MAFIA)
    sheriff, = await t.seats_of(Role.SHERIFF)
    reds = await t.reds()

    # Night 0 (F24 §4.2): what one black writes to the bot reaches the other blacks only.
    await t.private(t.user(mafia[0]), "Стреляем по порядку: 1, 2, 3")
    relayed = f"№{mafia[0]}: Стреляем по порядку: 1, 2, 3"
    for seat in (don, mafia[1]):
        await t.fake.wait_for(lambda s=seat: relayed in t.private_texts(t.user(s)))
    assert not any(relayed in x for x in t.private_texts(t.user(sheriff)))

    # Day 1: seat 1 opens (F24 §4.3.2); two blacks nominated, the first voted out with 6 hands,
    # the other four hands go to the last nominee (F24 §4.4.8).
    step = await t.wait_floor(1, consume=False)
    assert "Слово — №1 Анна — 60 секунд." in (t.fake.message(t.group, step.message).text or "")
    first, second = mafia[0], don
    await t.speeches(list(range(1, 11)), {1: first, 2: second} if first not in (1, 2) else None)
    state = await t.state()
    assert state.nominees[:2] == [first, second] or first in (1, 2)
    await t.vote(first, others(reds, first)[:6])
    await t.wait_step("last_word", first)
    assert (await t.state()).seat(first).departure.cause is Cause.VOTE
    assert any("Против №" in x and "руки:" in x for x in t.group_texts())
    await t.press(t.user(first), t.step_message(), "Пас")

    # Night 1: the blacks shoot different seats — a miss (F24 §4.5.5); the checks' answers go to
    # the checkers only.
    await t.night(1, shots={don: reds[0], mafia[1]: reds[1]}, don=sheriff, sheriff=don)
    # each answer closes its check's private prompt, sent once the group sees the next step
    await t.fake.wait_for(lambda: f"Дон проверяет игрока №{sheriff}: Шериф." in
                          "\n".join(t.private_texts(t.user(don))), what="the Don's answer")
    await t.fake.wait_for(lambda: f"Шериф проверяет игрока №{don}: чёрная карта." in
                          "\n".join(t.private_texts(t.user(sheriff))), what="the Sheriff's answer")
    assert any("Промах: этой ночью никто не покидает игру." in x for x in t.group_texts())

    # Day 2 (opened by #2, F24 §4.3.2): the Don and the last mafia nominated; the Don out.
    state = await t.state()
    order = state.speech_order
    noms = {order[0]: don, order[1]: mafia[1]}
    await t.speeches(order, noms)
    await t.voted_out(don, others(state.at_table, don, mafia[1])[:5])
    await t.night(2, shots={mafia[1]: None})

    # Day 3: the last black alone nominated: voted (only day 1 spares a single nominee,
    # F24 §4.4.10); no black at the table — the reds win after his last word (§1.4, §7.9).
    state = await t.state()
    order = state.speech_order
    await t.wait_floor(order[0], consume=False)
    await t.say(t.user(order[0]), f"/nominate {mafia[1]}")  # typed, as the speaker may
    assert (await t.state()).nominees == [mafia[1]]
    for seat in order:
        await t.pass_turn(seat, typed=True)  # «Пас» typed by the speaker ends his minute
    await t.wait_step("last_word", mafia[1], consume=False)
    assert (await t.state()).phase is Phase.LAST_WORD
    await t.pass_turn(mafia[1], typed=True)
    await t.wait_over()
    state = await t.state()
    assert state.result.winner is Team.RED and state.result.why == "all_black_out"
    texts = t.group_texts()
    end = next(i for i, x in enumerate(texts) if "Итоги игры. Победа красных" in x)
    assert not secrets_in(texts[:end]), secrets_in(texts[:end])
    assert "Роли: Дон — №" in texts[end]  # revealed once the game is over (F24 §4.4.13)
    for user in t.players:  # the mutes are lifted
        t.fake.user_sends(user, t.group, "gg")

    # The protocol on request: the score sheet and the JSON exports, in the group.
    await t.say(t.players[0], "/protocol")
    await t.fake.wait_for(lambda: len([m for m in t.fake.sent(t.group) if m.document]) >= 2,
                          timeout=60)  # the sheet is drawn meanwhile
    photo = next(m for m in t.fake.sent(t.group) if m.photo)
    assert t.fake.files[photo.photo[-1]["file_id"]].data.startswith(b"\x89PNG")
    await check_exports(t, [m for m in t.fake.sent(t.group) if m.document], state)


async def test_a_black_win_posted_to_the_club_channel(t: HostTable) -> None:
    """The club's channel (/channel @name by an admin) gets the start and the result with the
    protocol: the score sheet (PNG) and the JSON exports; the MafiaRatings export replays
    through our own importer to the same departures and winner."""
    channel = t.fake.add_channel("Клубный канал", username="club_news")
    await t.say(t.owner, "/channel @club_news")
    assert any("Канал клуба привязан: Клубный канал" in x for x in t.group_texts())
    await t.open_and_fill()
    await t.fake.wait_for(lambda: any("Игра в «Клуб «Мафия онлайн»». Ведущий — Ведущий." in (m.text or "")
                                      for m in t.fake.sent(channel)), what="the start in the channel")
    state = await t.state()
    civilians = [s.number for s in state.seats if s.role is Role.CIVILIAN]
    blacks = await t.seats_of(Role.DON, Role.MAFIA)
    r1, r2, r3, r4, r5 = civilians[:5]

    # Day 1: r1 voted out (6 hands against him, the rest go to r2: F24 §4.4.8).
    await t.speeches(list(range(1, 11)), {1: r1, 2: r2} if 1 not in (r1, r2) and 2 not in (r1, r2)
                     else {3: r1, 4: r2})
    await t.vote(r1, [s for s in range(1, 11) if s not in (r1, r2)][:6])
    await t.pass_turn(r1)
    # Night 1: every black on r3 — killed (F24 §4.5.4); his best move (§4.5.9): one left by the
    # day-1 vote does not block it (§7.10).
    await t.night(1, shots={b: r3 for b in blacks}, best_move=blacks[:2] + [r4])
    await t.pass_turn(r3)  # the victim's last word opens day 2 (F24 §4.5.9)
    state = await t.state()
    assert state.seat(r3).departure.cause is Cause.KILL
    assert state.nights[0].best_move == (*blacks[:2], r4)
    assert any("Лучший ход игрока" in x for x in t.group_texts())  # public, without hits
    # Day 2: r4 voted out (5 of 8).
    order = state.speech_order
    first, second = [s for s in order if s not in (r4, r5)][:2]
    await t.speeches(order, {first: r4, second: r5})
    await t.vote(r4, [s for s in state.at_table if s not in (r4, r5)][:5])
    await t.pass_turn(r4)
    # Night 2: r5 killed: three blacks, three reds — the blacks win (F24 §1.4), announced after
    # the victim's last word (§7.9).
    await t.night(2, shots={b: r5 for b in blacks})
    await t.pass_turn(r5)
    await t.wait_over()
    state = await t.state()
    assert state.result.winner is Team.BLACK and state.result.why == "parity"
    texts = t.group_texts()
    end = next(i for i, x in enumerate(texts) if "Итоги игры. Победа чёрных" in x)
    assert not secrets_in(texts[:end]), secrets_in(texts[:end])

    # The channel: the result, the game's length, the sheet and the JSON documents.
    await t.fake.wait_for(lambda: any(m.document["file_name"].endswith(".mafiaratings.json")
                                      for m in t.fake.sent(channel) if m.document),
                          timeout=60, what="the protocol's last file in the channel")
    posts = t.fake.sent(channel)
    result = next(m.text for m in posts if m.text and "окончена" in m.text)
    assert "Длительность —" in result and "Победа" in result or "чёрных" in result
    photo = next(m for m in posts if m.photo)
    assert "Протокол игры №" in (photo.caption or "")
    png = t.fake.files[photo.photo[-1]["file_id"]].data
    assert png is not None and png.startswith(b"\x89PNG")
    await check_exports(t, [m for m in posts if m.document], state)


async def check_exports(t: HostTable, documents: list, state) -> None:  # type: ignore[no-untyped-def]
    """Our JSON holds the log; the MafiaRatings JSON replays through our importer to the same
    departures and winner (rules.records.replay)."""
    import json

    from rules.records import replay

    names = {m.document["file_name"]: t.fake.files[m.document["file_id"]].data for m in documents}
    ours = json.loads(next(v for k, v in names.items() if k.endswith(".json") and "mafiaratings" not in k))
    assert ours["outcome"]["winner"] == state.result.winner.value
    mr_name = next(k for k in names if k.endswith(".mafiaratings.json"))
    report = replay(json.loads(names[mr_name]))
    assert report.agrees, report.differences
    assert report.report["winner"] == ours["outcome"]["winner"]
    assert report.report["departures"] == ours["outcome"]["departures"]


async def test_a_tie_then_a_raise_vote(t: HostTable) -> None:
    """Day 1: two blacks tie (5:5), speak 30 s each and tie again (F24 §4.4.12); the raise vote
    passes with 6 of 10 (more than half, §4.4.12.3): both leave with a last word each."""
    await t.open_and_fill()
    don, = await t.seats_of(Role.DON)
    mafia = await t.seats_of(Role.MAFIA)
    a, b = mafia[0], don
    speakers = [s for s in range(1, 11) if s not in (a, b)]
    await t.speeches(list(range(1, 11)), {speakers[0]: a, speakers[1]: b})
    nominees = (await t.state()).nominees
    first, last = nominees
    await t.vote(first, [s for s in range(1, 11)][:5])  # 5 against the first, 5 left to the last
    await t.wait_floor(first, consume=False)
    assert any("Равное количество голосов" in x for x in t.group_texts())
    await t.pass_turn(first)  # tie speeches (F24 §4.4.12.1)
    await t.pass_turn(last)
    step = await t.wait_step("vote", first, consume=False)
    assert "Переголосование" in (t.fake.message(t.group, step.message).text or "")
    await t.vote(first, [s for s in range(1, 11)][5:])  # 5 again: the same tie
    await t.raise_all([1, 2, 3, 4, 5, 6])
    await t.wait_floor(first, consume=False)
    state = await t.state()
    assert all(state.seat(s).departure.cause is Cause.RAISE for s in (first, last))
    assert any("Кто за то, чтобы все голосуемые игроки" in x for x in t.group_texts())
    assert any("За подъём — руки: №1, №2, №3, №4, №5, №6." in x for x in t.group_texts())
    await t.pass_turn(first)
    await t.pass_turn(last)
    # Night 1: the Don is gone but his step lasts as long (F24 §4.5.6); the last black misses.
    await t.night(1, shots={mafia[1]: None})
    state = await t.state()
    order = state.speech_order
    await t.speeches(order, {order[0]: mafia[1]})  # a single nominee on day 2 is voted (§4.4.10)
    await t.pass_turn(mafia[1])
    await t.wait_over()
    assert (await t.state()).result.winner is Team.RED
