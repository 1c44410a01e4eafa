"""Issue 33, item 1: an evening's sign-up, as the club's chat sees it (:mod:`bot.club.evening`
over the in-memory platform, time moved by the test: :class:`support.fakeport.FakeClock`).

The places are tables × 10 (ten seats a table, F24 §1.1); «Иду» with the list full puts the
player in the reserve and says so; a player of a full list who cancels gives the place to the
first of the reserve, who is told in private — also when that player blocked the bot (nothing
breaks, the post says nothing private); the reminders fall two hours and fifteen minutes before
the start by the club's wall clock, a change of daylight saving time between the post and the
evening included; they survive a restart (stored deadlines); at the start the list is final."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot.club.evening import REMINDERS, EveningDesk, EveningError, decode, parse_new
from bot.commands import ClubCmd
from bot.i18n import catalog
from bot.service import Service
from storage import Store
from support.fakeport import Chats, FakeClock, FakeHostPort, Press

RU = catalog("ru")
GROUP = "fk:-100"
ADMIN = "fk:1"
BERLIN = "Europe/Berlin"
#: Saturday 2026-03-28, noon in Berlin (CET, UTC+1); the clocks go forward that night at 02:00
SATURDAY_NOON = dt.datetime(2026, 3, 28, 12, 0, tzinfo=ZoneInfo(BERLIN)).timestamp()
#: Sunday 2026-03-29 19:30 in Berlin is CEST (UTC+2): 17:30 UTC
SUNDAY_START = dt.datetime(2026, 3, 29, 17, 30, tzinfo=dt.timezone.utc).timestamp()


class Club:
    """One club's chat over the fakes; :meth:`restart` is a new process over the same store."""

    def __init__(self, store: Store, zone: str = BERLIN) -> None:
        self.store = store
        self.clock = FakeClock(SATURDAY_NOON)
        self.chats = Chats(self.clock)
        self.port = FakeHostPort(self.chats, self.clock, lambda: store)
        self.zone = zone
        self.service = Service(store)
        self.desk = EveningDesk(lambda: self.service, self.port, zone=zone)

    async def restart(self) -> None:
        self.clock.cancel_all()
        self.service = Service(self.store)
        self.desk = EveningDesk(lambda: self.service, self.port, zone=self.zone)
        await self.desk.resume_all()

    async def admin(self, line: str, *, admin: bool = True) -> list[str]:
        words = line.split()[1:]
        return await self.desk.command(GROUP, ADMIN, ClubCmd("evening", tuple(words), " ".join(words)),
                                       RU, admin=admin)

    def post(self):  # noqa: ANN201 - the fake message
        return self.chats.last(GROUP, with_button=RU.text("evening-btn-go"))

    async def press(self, n: int, label: str, *, post=None) -> Press:  # noqa: ANN001
        handle = Press(f"fk:{n}")
        data = (post or self.post()).data(RU.text(label))
        await self.desk.press(f"fk:{n}", f"Игрок{n}", data, handle)
        return handle


async def back_at(club: Club, at: float) -> None:
    """Sunday 19:30's sign-up posted on Saturday at noon, player 10 going; the process dies
    before the two hours' reminder and is back at ``at``."""
    await club.admin("/evening new 2026-03-29 19:30")
    await club.press(10, "evening-btn-go")
    club.clock.cancel_all()  # the process dies
    club.clock.now = at
    await club.restart()
    await club.clock.advance(0)


@pytest.fixture
def club(any_store: Store) -> Club:
    """The club over each backend in turn (SQLite, PostgreSQL)."""
    return Club(any_store)


def test_the_start_is_the_clubs_wall_clock_on_the_evenings_own_date() -> None:
    # posted on Saturday (UTC+1), the evening on Sunday after the change (UTC+2)
    assert parse_new(["2026-03-29", "19:30", "tables=2"], SATURDAY_NOON, BERLIN).starts_at == SUNDAY_START
    assert parse_new(["29.03", "19:30"], SATURDAY_NOON, BERLIN).starts_at == SUNDAY_START
    # no date: the next 19:30 there — Saturday's, before the change (UTC+1: 18:30 UTC)
    saturday = dt.datetime(2026, 3, 28, 18, 30, tzinfo=dt.timezone.utc).timestamp()
    assert parse_new(["19:30"], SATURDAY_NOON, BERLIN).starts_at == saturday
    assert parse_new(["19:30", "столов=3"], SATURDAY_NOON, BERLIN).tables == 3
    # New York falls back on 2026-11-01: 19:30 that Sunday is EST (UTC-5), the Saturday EDT (UTC-4)
    ny_saturday = dt.datetime(2026, 10, 31, 12, 0, tzinfo=ZoneInfo("America/New_York")).timestamp()
    assert parse_new(["2026-11-01", "19:30"], ny_saturday, "America/New_York").starts_at == \
        dt.datetime(2026, 11, 2, 0, 30, tzinfo=dt.timezone.utc).timestamp()
    for bad in (["tables=2"], ["19:30", "tables=0"], ["19:30", "tables=11"], ["19:30", "soon"],
                ["31.02", "19:30"], ["19:30", "tables=1", "tables=3"]):  # which of the two?
        with pytest.raises(EveningError) as error:
            parse_new(bad, SATURDAY_NOON, BERLIN)
        assert error.value.key == "usage"
    with pytest.raises(EveningError) as error:
        parse_new(["2026-03-27", "19:30"], SATURDAY_NOON, BERLIN)
    assert error.value.key == "past"
    # 02:30 never comes in Berlin on 2026-03-29 (02:00 → 03:00): refused, not moved to 03:30
    with pytest.raises(EveningError) as error:
        parse_new(["29.03", "02:30"], SATURDAY_NOON, BERLIN)
    assert error.value.key == "no-such-time"
    assert "29.03.2026" in RU.text("evening-no-such-time", **error.value.params)
    # 02:30 of the autumn change comes twice: the first (summer time), as zoneinfo's fold=0
    autumn = parse_new(["2026-10-25", "02:30"], SATURDAY_NOON, BERLIN).starts_at
    assert autumn == dt.datetime(2026, 10, 25, 0, 30, tzinfo=dt.timezone.utc).timestamp()


async def test_only_an_admin_posts_and_one_evening_is_open_at_a_time(club: Club) -> None:
    assert await club.admin("/evening new 19:30", admin=False) == [RU.text("evening-admins-only")]
    assert club.chats.of(GROUP) == []  # nothing posted
    assert await club.admin("/evening new later") == [RU.text("evening-usage", most=10)]
    said = await club.admin("/evening new 2026-03-29 19:30 tables=2")
    assert said == [RU.text("evening-opened", count=2, times="17:30, 19:15", zone=BERLIN)]
    post = club.post()
    assert "2026-03-29 в 19:30" in post.text and "мест — 20" in post.text and "0/20" in post.text
    assert post.labels() == ["Иду", "Не приду", "В резерв"]
    again = await club.admin("/evening new 20:00")
    assert again == [RU.text("evening-already", date="2026-03-29", time="19:30")]
    assert len(club.chats.of(GROUP)) == 1


async def test_a_full_evening_sends_the_next_to_the_reserve_and_a_cancel_moves_its_first_up(
        club: Club) -> None:
    await club.admin("/evening new 2026-03-29 19:30 tables=1")
    for n in range(10, 20):
        assert (await club.press(n, "evening-btn-go")).text == RU.text("evening-pressed-going")
    assert "10/10" in club.post().text
    late = await club.press(30, "evening-btn-go")
    assert late.text == RU.text("evening-pressed-full", place=1)
    assert (await club.press(31, "evening-btn-go")).text == RU.text("evening-pressed-full", place=2)
    assert "Резерв: 1. Игрок30, 2. Игрок31" in club.post().text
    assert club.chats.of("fk:30") == []  # nobody told anything yet
    out = await club.press(12, "evening-btn-no")
    assert out.text == RU.text("evening-pressed-out")
    text = club.post().text
    assert "10/10" in text and "Игрок12" not in text and "10. Игрок30" in text
    assert "Резерв: 1. Игрок31" in text
    told = club.chats.of("fk:30")
    assert [m.text for m in told] == [RU.text("evening-moved-up", date="2026-03-29", time="19:30")]
    assert told[0].private
    # a stale or repeated press is harmless and answered clearly
    assert (await club.press(30, "evening-btn-go")).text == RU.text("evening-pressed-already_going")
    assert (await club.press(12, "evening-btn-no")).text == RU.text("evening-pressed-not_signed")
    assert (await club.press(31, "evening-btn-go")).text == \
        RU.text("evening-pressed-already_reserve", place=1, full="yes")


async def test_a_player_who_blocked_the_bot_still_moves_up_and_nothing_breaks(club: Club) -> None:
    await club.admin("/evening new 2026-03-29 19:30")
    for n in range(10, 20):
        await club.press(n, "evening-btn-go")
    await club.press(40, "evening-btn-go")
    club.chats.blocked.add("fk:40")  # the Bot API answers 403 to every send
    assert "Резерв: 1. Игрок40" in club.post().text
    assert (await club.press(15, "evening-btn-no")).text == RU.text("evening-pressed-out")
    after = club.post().text
    assert "10. Игрок40" in after and "Резерв" not in after
    assert club.chats.of("fk:40") == []
    assert len(club.chats.of(GROUP)) == 1  # the post only: nothing said of it in the group


async def test_the_reminders_fall_by_the_clubs_clock_across_a_dst_change(club: Club) -> None:
    await club.admin("/evening new 2026-03-29 19:30")
    await club.press(13, "evening-btn-go")  # first on the list, and has blocked the bot
    club.chats.blocked.add("fk:13")
    await club.press(10, "evening-btn-go")
    await club.press(11, "evening-btn-no")
    assert club.clock.pending("evening:") == [SUNDAY_START - 7200]  # 15:30 UTC = 17:30 CEST
    await club.clock.advance(SUNDAY_START - 7200 - club.clock.now - 1)
    assert len(club.chats.of(GROUP)) == 1  # a second early: nothing yet
    await club.clock.advance(1)
    reminder = club.chats.of(GROUP)[-1]
    assert reminder.text == RU.text("evening-reminder", minutes=120, date="2026-03-29", time="19:30",
                                    count=2, cap=10, going="1. Игрок13, 2. Игрок10")
    seen = [s for s in club.chats.transcript(GROUP) if s.kind == "post"]
    assert seen[-1].at == SUNDAY_START - REMINDERS[0]
    assert [m.text for m in club.chats.of("fk:10")] == [  # the blocked one before him: no matter
        RU.text("evening-reminder-private", date="2026-03-29", time="19:30")]
    assert club.chats.of("fk:13") == []
    assert club.chats.of("fk:11") == []  # not coming: not reminded
    assert club.clock.pending("evening:") == [SUNDAY_START - 900]
    await club.restart()  # a new process: the deadline is re-armed from the stored evening
    assert club.clock.pending("evening:") == [SUNDAY_START - 900]
    await club.clock.advance(SUNDAY_START - 900 - club.clock.now)
    assert [s.at for s in club.chats.transcript(GROUP) if s.kind == "post"][-1] == SUNDAY_START - 900
    assert len(club.chats.of("fk:10")) == 2
    await club.clock.advance(900)
    last = club.chats.of(GROUP)[-1]
    assert last.text == RU.text("evening-started", count=2, going="1. Игрок13, 2. Игрок10", tables=1)
    post = club.chats.of(GROUP)[0]
    assert post.buttons is None and "запись закрыта" in post.text
    assert club.clock.pending("evening:") == []
    handle = Press("fk:12")  # a press of the closed post (its buttons still on a screen)
    await club.desk.press("fk:12", "Игрок12", "e:1:g", handle)
    assert handle.text == RU.text("evening-pressed-closed")


async def test_a_reminder_missed_while_the_bot_was_down_is_skipped_not_sent_late(club: Club) -> None:
    await back_at(club, SUNDAY_START - 600)  # ten minutes before the start
    posts = club.chats.of(GROUP)
    # the last reminder due is sent, and says the time truly left: ten minutes, not fifteen
    assert len(posts) == 2 and posts[-1].text.startswith("Напоминание: вечер начинается через 10 минут,")
    assert club.clock.pending("evening:") == [SUNDAY_START]


async def test_a_reminder_sent_after_a_restart_never_promises_more_time_than_is_left(club: Club) -> None:
    await back_at(club, SUNDAY_START - 3600)  # an hour before the start
    assert club.chats.of(GROUP)[-1].text == RU.text(
        "evening-reminder", minutes=60, date="2026-03-29", time="19:30", count=1, cap=10, going="1. Игрок10")
    assert "2 часа" not in club.chats.of(GROUP)[-1].text
    await club.clock.advance(3600 - 900)  # the fifteen minutes' comes on time
    assert club.chats.of(GROUP)[-1].text.startswith("Напоминание: вечер начинается через 15 минут,")


async def test_close_and_cancel_are_the_admins_and_end_the_sign_up(club: Club) -> None:
    assert await club.admin("/evening close") == [RU.text("evening-none")]
    await club.admin("/evening new 2026-03-29 19:30")
    await club.press(10, "evening-btn-go")
    post = club.post()
    assert await club.admin("/evening close", admin=False) == [RU.text("evening-admins-only")]
    assert await club.admin("/evening close") == [RU.text("evening-closed", count=1, going="1. Игрок10")]
    assert post.buttons is None and club.clock.pending("evening:") == []
    await club.admin("/evening new 2026-03-30 19:30")
    assert await club.admin("/evening cancel") == [RU.text("evening-cancelled")]
    assert "отменён" in club.chats.of(GROUP)[-1].text
    handle = Press("fk:9")
    await club.desk.press("fk:9", "Игрок9", "e:999:g", handle)
    assert handle.text == RU.text("evening-pressed-stale")
    assert decode("e:1:x") is None and decode("h:1:0:J") is None


async def test_under_shared_workers_the_reminders_are_the_owners_of_the_clubs_chat(club: Club) -> None:
    await club.admin("/evening new 2026-03-29 19:30")
    club.clock.cancel_all()
    other = EveningDesk(lambda: club.service, club.port, zone=BERLIN)  # another worker's process
    owned: set[str] = set()
    other.runs = owned.__contains__
    assert await other.clubs("fk:") == [GROUP] and await other.clubs("tg:") == []
    await other.claimed(GROUP)
    assert club.clock.pending("evening:") == [SUNDAY_START - 7200]
    other.released(GROUP)  # the chat went to another worker before the reminder
    assert club.clock.pending("evening:") == []
    await other.claimed(GROUP)
    await club.clock.advance(SUNDAY_START - 7200 - club.clock.now)  # due, but not owned: nothing
    assert len(club.chats.of(GROUP)) == 1
    owned.add(GROUP)
    await other.claimed(GROUP)
    await club.clock.advance(0)
    assert club.chats.of(GROUP)[-1].text.startswith("Напоминание: вечер начинается через 2 часа")


def test_leaving_the_list_is_told_apart_from_a_press_that_changed_nothing() -> None:
    # «Не приду» from the list or the reserve takes the player off: the answer confirms it, it does
    # not read as the refusal a player who was never signed up gets ("you are not on the list").
    for lang in ("ru", "en"):
        texts = catalog(lang)
        left, nothing = texts.text("evening-pressed-out"), texts.text("evening-pressed-not_signed")
        assert left != nothing
        assert "нет в списке" not in left and "not on the list" not in left


def test_a_date_before_the_time_is_a_date_whatever_its_day() -> None:
    # README: «a date before the time, 2026-03-29 or 29.03»; 05.04 is the fifth of April, not 05:04
    april = parse_new(["05.04", "19:30", "tables=2"], SATURDAY_NOON, BERLIN)
    assert april.starts_at == dt.datetime(2026, 4, 5, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()
    assert april.tables == 2
    assert parse_new(["12.04.2026", "19.30"], SATURDAY_NOON, BERLIN).starts_at == \
        dt.datetime(2026, 4, 12, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()
    # a lone «19.30» is still the time: the next 19:30
    assert parse_new(["19.30"], SATURDAY_NOON, BERLIN).starts_at == \
        dt.datetime(2026, 3, 28, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()


def test_the_29th_of_february_without_a_year_is_the_next_one() -> None:
    # in the summer of 2027 «29.02» is 2028's (2027 has none); after it in 2028, 2032's
    summer = dt.datetime(2027, 6, 1, 12, 0, tzinfo=ZoneInfo(BERLIN)).timestamp()
    assert parse_new(["29.02", "19:30"], summer, BERLIN).starts_at == \
        dt.datetime(2028, 2, 29, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()
    march = dt.datetime(2028, 3, 10, 12, 0, tzinfo=ZoneInfo(BERLIN)).timestamp()
    assert parse_new(["29.02", "19:30"], march, BERLIN).starts_at == \
        dt.datetime(2032, 2, 29, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()
    for bad in (["29.02.2027", "19:30"], ["30.02", "19:30"]):  # no calendar has them
        with pytest.raises(EveningError) as error:
            parse_new(bad, summer, BERLIN)
        assert error.value.key == "usage"


async def test_a_sign_up_posted_an_hour_before_the_start_announces_its_one_reminder(club: Club) -> None:
    club.clock.now = SUNDAY_START - 3600  # 18:30 in Berlin: the two hours' reminder is past
    said = await club.admin("/evening new 19:30")
    assert said == ["Запись опубликована. Напоминание: 19:15 (Europe/Berlin)."]
    en = catalog("en").text("evening-opened", count=1, times="19:15", zone=BERLIN)
    assert en == "The sign-up is posted. A reminder at 19:15 (Europe/Berlin)."


async def test_an_evening_the_bot_was_down_for_is_closed_without_saying_it_begins(club: Club) -> None:
    await back_at(club, SUNDAY_START + 2 * 24 * 3600)  # on Tuesday
    assert len(club.chats.of(GROUP)) == 1  # no reminder, no «the evening begins» two days late
    post = club.chats.of(GROUP)[0]
    assert post.buttons is None and "запись закрыта" in post.text
    assert club.clock.pending("evening:") == []
    # back within the evening: the start is still announced
    await club.admin("/evening new 2026-04-05 19:30")
    club.clock.cancel_all()
    start = dt.datetime(2026, 4, 5, 19, 30, tzinfo=ZoneInfo(BERLIN)).timestamp()
    club.clock.now = start + 600
    await club.restart()
    await club.clock.advance(0)
    assert club.chats.of(GROUP)[-1].text.startswith("Запись закрыта, вечер начинается.")


def test_a_date_past_the_calendars_end_is_refused_in_words() -> None:
    # 9999-12-31 23:59 in New York is already year 10000 in UTC: a refusal, not a traceback
    with pytest.raises(EveningError) as error:
        parse_new(["9999-12-31", "23:59"], SATURDAY_NOON, "America/New_York")
    assert error.value.key == "usage"


@pytest.mark.parametrize("max_text, shortened", [(2000, True), (4096, False)])  # Discord's, Telegram's
async def test_a_big_evenings_post_fits_its_message_and_says_how_many_more(club: Club, max_text: int,
                                                                           shortened: bool) -> None:
    """Ten tables, 100 places and ten in the reserve, names of 20 letters: the post must fit the
    platform's message (Discord cut it at 2000 characters, the reserve and the list's end lost
    without a word). It keeps the counts and the first names in order, and says how many more
    each shortened list has; where everything fits (Telegram's 4096) every name is shown."""
    club.port.max_text = max_text
    await club.admin("/evening new 2026-03-29 19:30 tables=10")
    for n in range(1, 111):
        data = club.post().data(RU.text("evening-btn-go"))
        await club.desk.press(f"fk:{n}", f"Александра-Игрок{n:03}", data, Press(f"fk:{n}"))
    versions = club.post().versions
    assert all(len(text) <= max_text for text in versions)
    text = versions[-1]
    assert "(100/100)" in text and "1. Александра-Игрок001" in text
    if shortened:  # the reserve's names go first, then the list's end
        assert "Резерв:" in text and "… и ещё" in text and "Александра-Игрок110" not in text
    else:
        assert "Александра-Игрок110" in text and "ещё" not in text
