"""Host mode around the game: the lobby (exactly ten players, R1.1; a player must have opened the
bot so that his role can reach him), the bot's rights in the group, stopping a table, muting
("only the speaker writes", F24 §4.3.1) and the fouls the bot gives by itself for speaking out of
one's minute (seed 4.1.1) up to a removal (seed 4.4, 4.5, 5.1), or for talking at night (seed
4.2.6); leaving the group or blocking the bot is leaving the table (seed 4.2.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakebot import FakeBotAPI, FakeWorldError
from rules import Cause, Phase, Role, Team
from support.host_table import FAST, host_table, make_world


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def test_the_lobby_waits_for_ten_who_can_get_their_roles(fake: FakeBotAPI, tmp_path: Path) -> None:
    world = make_world(fake, started=9)  # the tenth player has never opened the bot
    async with host_table(fake, tmp_path / "db.sqlite3", world) as t:
        await t.say(t.owner, f"/newgame {FAST}")
        lobby = t.lobby()
        assert "Записалось 0 из 10, нужно ещё 10." in (lobby.text or "")
        assert {b["text"] for b in lobby.buttons} == {"Записаться ✋", "Выйти", "Открыть бота"}
        link = next(b["url"] for b in lobby.buttons if "url" in b)
        assert link == f"https://t.me/FakeRefereeBot?start=h{t.table().id}"
        players = t.players
        for player in players[:3]:
            await t.press(player, t.lobby(), "Записаться")
        await t.press(players[1], t.lobby(), "Выйти")
        assert [p["user"] for p in t.table().players] == [f"tg:{players[0].id}", f"tg:{players[2].id}"]
        for player in [players[1], *players[3:]]:
            await t.press(player, t.lobby(), "Записаться")
        answer = list(fake.callback_answers.values())[-1]
        assert answer.url == link  # the tenth is sent to the bot
        assert "Кирилл — личный чат со мной ещё не открыт" in (t.lobby().text or "")
        assert t.table().status == "lobby"  # full, but one cannot get his role yet
        await t.press(players[4], t.lobby(), "Записаться")
        assert list(fake.callback_answers.values())[-1].text == "Вы уже записаны."
        await t.say(players[0], "/newgame")
        assert "уже идёт набор или игра" in t.group_texts()[-1]
        await t._handled(lambda: fake.user_starts_bot(players[9], f"h{t.table().id}"), "/start h…")
        await t.wait_step("night_zero")
        state = await t.state()
        order = [players[0], players[2], players[1], *players[3:]]  # seats by join order
        assert [state.seat(n).name for n in range(1, 11)] == [p.first_name for p in order]
        assert "Стол собран, игра началась." in (t.lobby().text or "")
        assert not t.lobby().buttons


@pytest.mark.parametrize(("kind", "expected"), [
    ("no_rights", ("нет права ограничивать", "нет права удалять")),
    ("basic_group", ("это не супергруппа",)),
    ("member", ("не вижу сообщений группы", "нет права ограничивать", "нет права удалять")),
])
async def test_the_lobby_says_which_rights_the_bot_lacks(fake: FakeBotAPI, tmp_path: Path, kind: str,
                                                         expected: tuple[str, ...]) -> None:
    owner = fake.add_user("Ведущий", "host", started=True)
    if kind == "no_rights":
        group = fake.add_group("Клуб", creator=owner, bot_rights={
            "can_restrict_members": False, "can_delete_messages": False})
    elif kind == "basic_group":
        group = fake.add_group("Клуб", creator=owner, supergroup=False)
    else:
        group = fake.add_group("Клуб", creator=owner, bot_status="member")
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t._handled(lambda: fake.user_sends(owner, group, "/newgame"), "/newgame")
        lobby = fake.sent(group)[-1].text or ""
        for words in expected:
            assert words in lobby, lobby
        if kind != "member":
            assert "не вижу сообщений" not in lobby


async def test_only_the_host_or_an_admin_stops_a_table(fake: FakeBotAPI, tmp_path: Path) -> None:
    world = make_world(fake, admins=(4,))
    async with host_table(fake, tmp_path / "db.sqlite3", world) as t:
        spectator = fake.add_user("Зритель", "fan")
        fake.set_member(t.group, spectator)
        await t.open_and_fill()
        await t.say(spectator, "/stop")
        assert "только ведущий стола или администратор" in t.group_texts()[-1]
        assert t.table().status == "running"
        admin = t.players[3]
        await t.speeches([1, 2, 3])
        await t.wait_floor(t.seat(admin), consume=False)
        await t.say(admin, "/stop")  # a chat admin in his own minute, but he plays: a player never judges
        assert "только ведущий стола или администратор" in t.group_texts()[-1]
        assert t.table().status == "running"
        await t.say(t.owner, "/stop")  # the host, who does not play
        assert t.table().status == "stopped"
        assert any("Игра остановлена: Ведущий" in x for x in t.group_texts())
        row = await t.service.store.game(t.table().game_id)
        assert row.result == "abandoned"
        await t.say(t.players[0], "Теперь можно писать")  # the mutes are lifted


async def test_only_the_speaker_writes_the_others_are_muted(fake: FakeBotAPI, tmp_path: Path) -> None:
    """With the right to restrict members the bot mutes everyone but the speaker (F24 §4.3.1);
    an admin it cannot mute gets a foul for speaking out of turn (seed 4.1.1); leaving the group
    or blocking the bot is leaving the table (seed 4.2.1)."""
    world = make_world(fake, admins=(3,))
    async with host_table(fake, tmp_path / "db.sqlite3", world) as t:
        await t.open_and_fill()
        assert any("остальных я ограничиваю на время речи" in x for x in t.group_texts())
        with pytest.raises(FakeWorldError, match="muted"):  # night 0: nobody writes
            fake.user_sends(t.user(1), t.group, "привет")
        await t.wait_floor(1, consume=False)
        said = await t.say(t.user(1), "Я мирный житель, выставляю…")  # the speaker may
        assert not said.deleted
        with pytest.raises(FakeWorldError, match="muted"):
            fake.user_sends(t.user(2), t.group, "А я нет!")
        restriction = fake.restrictions(t.group, t.user(2))
        assert restriction is not None and not restriction.can_send_messages
        assert not restriction.forever  # until_date: lifted by Telegram even if the bot is gone
        admin = t.seat(t.players[2])
        out_of_turn = await t.say(t.players[2], "Я админ, мне можно")
        assert out_of_turn.deleted
        assert any(f"Игроку №{admin} — фол: речь не в свою игровую минуту" in x for x in t.group_texts())
        assert (await t.state()).seat(admin).fouls == ["4.1.1"]
        await t.pass_turn(1)
        await t.wait_floor(2, consume=False)
        await t.say(t.user(2), "Теперь я")
        with pytest.raises(FakeWorldError, match="muted"):
            fake.user_sends(t.user(1), t.group, "ещё одно слово")
        leaver, blocker = t.user(9), t.user(10)
        await t._handled(lambda: fake.user_leaves(leaver, t.group), "leaving")
        await fake.wait_for(lambda: any("№9 покидает игру" in x for x in t.group_texts()))
        state = await t.state()
        assert state.seat(9).departure.cause is Cause.DISQUALIFICATION
        assert state.seat(9).departure.reason == "4.2.1"
        await t._handled(lambda: fake.user_blocks_bot(blocker), "blocking")
        await fake.wait_for(lambda: any("№10 покидает игру" in x for x in t.group_texts()))
        await t.say(t.owner, "/stop")
        for player in t.players[:8]:
            fake.user_sends(player, t.group, "свободно")  # everyone may write again


async def test_fouls_for_speaking_out_of_turn_up_to_a_removal(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Without muting (mute=foul) a message outside one's minute is a foul (seed 4.1.1), deleted;
    the 3rd silences the player's next minute — he may still nominate (seed 4.4); the 4th removes
    him without a last word (seed 4.5) and today's vote is not held (seed 5.1)."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill(f"{FAST} mute=foul")
        assert any("сообщение не в свою минуту — фол (4.1.1)" in x for x in t.group_texts())
        await t.wait_floor(1, consume=False)
        noisy = t.user(4)
        first = await t.say(noisy, "Я красный, честно")
        assert first.deleted
        assert any("Игроку №4 — фол: речь не в свою игровую минуту, в том числе междометия и шёпот"
                   " (4.1.1). Теперь 1 фол." in x for x in t.group_texts())
        await t.say(noisy, "ну правда")
        await t.nominate(1, 7)
        await t.pass_turn(1)
        await t.wait_floor(2, consume=False)
        await t.say(noisy, "ещё")
        assert any("№4 получает третий фол: лишается слова в ближайшую минуту" in x
                   for x in t.group_texts())
        assert (await t.state()).seat(4).fouls == ["4.1.1"] * 3
        await t.pass_turn(2)
        await t.pass_turn(3)
        step = await t.wait_step("silenced", 4, consume=False)  # seed 4.4: no speech, a nomination
        assert ": в эту минуту без слова (4.4), но кандидатуру выставить можно" in (
            fake.message(t.group, step.message).text or "")
        await t.nominate(4, 8)
        assert (await t.state()).nominees == [7, 8]
        last = await t.say(noisy, "Но послушайте!")  # his silenced minute: the 4th foul
        assert last.deleted
        await t.wait_floor(5, consume=False)
        state = await t.state()
        assert state.seat(4).departure.cause is Cause.FOULS
        texts = t.group_texts()
        assert any("№4 покидает игру без последнего слова: четвёртый фол (4.5)" in x for x in texts)
        assert any("на 1-й день, голосование не проводится (5.1): удаление игрока №4: четвёртый фол" in x for x in texts)
        gone = await t.say(noisy, "я ещё тут")  # a departed player reads but does not write
        assert gone.deleted and (await t.state()).seat(4).fouls == ["4.1.1"] * 4
        speaker = await t.say(t.user(5), "Моя минута")
        assert not speaker.deleted
        # The host's own fouls (seed IV), by command: a team loss ends the game (seed 4.3).
        black = (await t.seats_of(Role.DON))[0]
        await t.say(t.user(6), f"/ppk {black}")  # not the host: refused
        assert (await t.state()).phase is not Phase.GAME_OVER
        await t.say(t.owner, f"/ppk {black} 4.3.1")
        await t.wait_over()
        assert (await t.state()).result.winner is Team.RED
        assert (await t.state()).result.why == "team_loss"


async def test_talking_at_night_is_a_disqualifying_foul(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Seed 4.2.6: «ночные» разговоры или выкрики are a disqualifying foul (not 4.1.1): a player who
    writes in the group at night (night 0 too, F24 §4.2) leaves at once, without a last word
    (seed 4.5); the message is deleted where the bot may."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill(FAST.replace("timers.mafia_meeting=20", "timers.mafia_meeting=60") + " mute=foul")
        assert any("ночью — дисквалифицирующий фол (4.2.6)" in x for x in t.group_texts())
        said = await t.say(t.user(4), "Кто тут шевелится?")
        assert said.deleted
        departure = (await t.state()).seat(4).departure
        assert departure is not None and departure.cause is Cause.DISQUALIFICATION
        assert departure.reason == "4.2.6" and departure.phase == "night"
        await fake.wait_for(lambda: any("Игрок №4 удаляется и покидает игру без последнего слова"
                                        in x for x in t.group_texts()))
