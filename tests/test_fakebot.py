"""The fake Bot API server, driven by a real python-telegram-bot 22 Application over HTTP.

Each test checks one behaviour of Telegram that the referee bot's adapter will rely on
(ENGINEERING.md §2, §6): error shapes (429 + retry_after, 400 descriptions, 403, migration),
long polling, button presses, rights and restrictions, uploads.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import time
from typing import Any, AsyncIterator

import pytest
from telegram import (
    Bot,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    Application,
    CallbackContext,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from fakebot import FakeBotAPI, FakeWorldError, FloodLimits, build_application, running

AnyApp = Application[Any, Any, Any, Any, Any, Any]


# ------------------------------------------------------------------------------- fixtures

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



class Recorder:
    """What the tiny test bot saw: errors from handlers, chat_member updates."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []
        self.member_updates: list[Update] = []
        self.migrations: list[tuple[int, int]] = []


def tiny_bot(fake: FakeBotAPI) -> tuple[AnyApp, Recorder]:
    """Echo + a /panel command with buttons + a callback handler that answers and edits."""
    app = build_application(fake)
    seen = Recorder()

    async def echo(update: Update, context: CallbackContext[Any, Any, Any, Any]) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(update.effective_message.text or "")

    async def panel(update: Update, context: CallbackContext[Any, Any, Any, Any]) -> None:
        assert update.effective_chat is not None
        keyboard = InlineKeyboardMarkup([[
            InlineKeyboardButton("Да", callback_data="vote:yes"),
            InlineKeyboardButton("Нет", callback_data="vote:no"),
        ]])
        await context.bot.send_message(update.effective_chat.id, "Голосуем?",
                                       reply_markup=keyboard)

    async def pressed(update: Update, context: CallbackContext[Any, Any, Any, Any]) -> None:
        query = update.callback_query
        assert query is not None and query.data is not None
        await query.answer(f"принято: {query.data}")
        await query.edit_message_text(f"Итог: {query.data}")

    async def member_changed(update: Update, context: CallbackContext[Any, Any, Any, Any]) -> None:
        seen.member_updates.append(update)

    async def migrated(update: Update, context: CallbackContext[Any, Any, Any, Any]) -> None:
        message = update.effective_message
        assert message is not None and message.migrate_to_chat_id is not None
        seen.migrations.append((message.chat.id, message.migrate_to_chat_id))

    async def on_error(update: object, context: CallbackContext[Any, Any, Any, Any]) -> None:
        assert context.error is not None
        seen.errors.append(context.error)

    app.add_handler(CommandHandler("panel", panel))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    app.add_handler(CallbackQueryHandler(pressed))
    app.add_handler(ChatMemberHandler(member_changed, ChatMemberHandler.CHAT_MEMBER))
    app.add_error_handler(on_error)
    return app, seen


@pytest.fixture
async def bot_app(fake: FakeBotAPI) -> AsyncIterator[tuple[AnyApp, Recorder]]:
    app, seen = tiny_bot(fake)
    async with running(app, fake, allowed_updates=Update.ALL_TYPES):
        yield app, seen


def texts(fake: FakeBotAPI, chat: Any) -> list[str | None]:
    return [m.content for m in fake.sent(chat)]


def retry_seconds(exc: RetryAfter) -> float:
    value = exc.retry_after
    assert isinstance(value, dtm.timedelta)
    return value.total_seconds()


# --------------------------------------------------------------------- the brief's six cases

async def test_user_message_is_echoed(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    anna = fake.add_user("Анна", "anna")
    fake.user_starts_bot(anna)
    message = fake.user_sends(anna, None, "Привет, судья")
    assert message.delivered
    echoed = await fake.wait_for(lambda: [m for m in fake.sent(anna.id)
                                          if m.text == "Привет, судья"])
    assert echoed[0].by_bot and echoed[0].chat.id == anna.id
    assert fake.calls_to("getMe") and fake.calls_to("getUpdates")


async def test_button_press_is_answered_and_message_edited(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    judge = fake.add_user("Судья", "judge")
    group = fake.add_group("Клуб", members=[judge])
    fake.user_sends(judge, group, "/panel")
    panel = await fake.wait_sent(group)
    assert [b["text"] for b in panel.buttons] == ["Да", "Нет"]

    query_id = fake.user_presses(judge, panel, button="Да")
    await fake.wait_for(lambda: query_id in fake.callback_answers
                        and panel.text == "Итог: vote:yes")
    assert fake.callback_answers[query_id].text == "принято: vote:yes"
    assert panel.texts == ["Голосуем?", "Итог: vote:yes"]
    assert panel.buttons == []  # editMessageText without reply_markup drops the keyboard
    with pytest.raises(FakeWorldError):
        fake.user_presses(judge, panel, "vote:no")  # the button is gone


async def test_429_on_send_message_surfaces_as_retry_after(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, seen = bot_app
    anna = fake.add_user("Анна", started=True)
    fault = fake.fail_next("sendMessage", 429, retry_after=7)
    fake.user_sends(anna, None, "раз")
    await fake.wait_for(lambda: seen.errors)
    assert isinstance(seen.errors[0], RetryAfter)
    assert retry_seconds(seen.errors[0]) == 7
    assert fault.remaining == 0 and fake.sent(anna) == []
    # the next send goes through: the fault was used up
    fake.user_sends(anna, None, "два")
    await fake.wait_for(lambda: texts(fake, anna) == ["два"])


async def test_restrict_in_plain_group_fails_with_the_real_description(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    player = fake.add_user("Игрок")
    group = fake.add_group("Обычная группа", members=[player], supergroup=False)
    with pytest.raises(BadRequest, match="Method is available only for supergroups"):
        await app.bot.restrict_chat_member(group.id, player.id,
                                           ChatPermissions(can_send_messages=False))
    assert fake.calls_to("restrictChatMember")[-1].description == \
        "Bad Request: method is available only for supergroups"
    assert fake.restrictions(group, player) is None


async def test_unknown_method_is_refused(fake: FakeBotAPI,
                                         bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    with pytest.raises(EndPointNotFound):
        await app.bot.do_api_request("sendFancyThing", api_kwargs={"chat_id": 1})
    assert fake.calls_to("sendFancyThing")[-1].error_code == 404
    # a real Bot API method the fake does not model is refused too, never faked
    anna = fake.add_user("Анна", started=True)
    with pytest.raises(BadRequest, match="(?i)not implemented by fakebotapi"):
        await app.bot.send_dice(anna.id)
    assert [c.method for c in fake.unimplemented] == ["sendDice"]


async def test_wrong_token_fails_get_me(fake: FakeBotAPI) -> None:
    bot = Bot("123456789:not-the-right-token", base_url=fake.base_url)
    with pytest.raises(InvalidToken):
        await bot.initialize()
    await bot.shutdown()
    call = fake.calls_to("getMe")[-1]
    assert (call.error_code, call.description) == (401, "Unauthorized")


# ------------------------------------------------------------------------- long polling

async def test_get_updates_long_polls_and_wakes_on_a_new_update(fake: FakeBotAPI) -> None:
    anna = fake.add_user("Анна", started=True)
    async with Bot(fake.token, base_url=fake.base_url) as bot:
        started = time.monotonic()
        assert await bot.get_updates(timeout=0) == ()
        assert time.monotonic() - started < 0.5

        poll = asyncio.create_task(bot.get_updates(timeout=5))
        await asyncio.sleep(0.05)
        assert not poll.done()
        fake.user_sends(anna, None, "пинг")
        updates = await asyncio.wait_for(poll, 1)
        assert [u.message.text for u in updates if u.message] == ["пинг"]

        # not acknowledged yet: the same update comes again; an offset past it confirms it
        again = await bot.get_updates(timeout=0)
        assert [u.update_id for u in again] == [updates[0].update_id]
        assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()
        assert fake.pending_updates == 0

        started = time.monotonic()
        assert await bot.get_updates(timeout=1) == ()
        assert 0.8 < time.monotonic() - started < 2


async def test_many_messages_are_echoed_quickly(fake: FakeBotAPI,
                                                bot_app: tuple[AnyApp, Recorder]) -> None:
    users = [fake.add_user(f"Игрок {n}", started=True) for n in range(10)]
    started = time.monotonic()
    for round_ in range(10):
        for user in users:
            fake.user_sends(user, None, f"{user.first_name}: {round_}")
    await fake.wait_for(lambda: len(fake.sent()) == 100, timeout=10)
    assert time.monotonic() - started < 5
    assert texts(fake, users[3])[-1] == "Игрок 3: 9"


# ------------------------------------------------------------------ errors Telegram gives

async def test_private_chat_refusals(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    stranger = fake.add_user("Незнакомец")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await app.bot.send_message(stranger.id, "привет")
    with pytest.raises(BadRequest, match="Chat not found"):
        await app.bot.send_message(999_999_999, "привет")

    fan = fake.add_user("Фан")
    fake.user_starts_bot(fan)
    await app.bot.send_message(fan.id, "ок")
    fake.user_blocks_bot(fan)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_message(fan.id, "ещё")
    fake.user_starts_bot(fan)  # Restart unblocks
    await app.bot.send_message(fan.id, "снова")
    assert texts(fake, fan)[-1] == "снова"


async def test_message_validation(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    anna = fake.add_user("Анна", started=True)
    with pytest.raises(BadRequest, match="Message is too long"):
        await app.bot.send_message(anna.id, "я" * 4097)
    await app.bot.send_message(anna.id, "я" * 4096)
    with pytest.raises(BadRequest, match="Message text is empty"):
        await app.bot.send_message(anna.id, "   ")
    long_data = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="д" * 33)]])
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(anna.id, "кнопка", reply_markup=long_data)
    with pytest.raises(BadRequest, match="Can't parse entities: unsupported start tag"):
        await app.bot.send_message(anna.id, "Игрок <Вася>", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="(?i)character '.' is reserved"):
        await app.bot.send_message(anna.id, "Конец игры.", parse_mode=ParseMode.MARKDOWN_V2)
    sent = await app.bot.send_message(anna.id, "<b>Игрок</b> &lt;Вася&gt;", parse_mode="HTML")
    assert sent.text == "Игрок <Вася>"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [("bold", 0, 5)]


async def test_edit_not_modified_and_keyboard_kept_only_when_resent(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    anna = fake.add_user("Анна", started=True)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Далее", callback_data="next:1")]])
    sent = await app.bot.send_message(anna.id, "Речь игрока 1", reply_markup=keyboard)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_text("Речь игрока 1", anna.id, sent.message_id,
                                        reply_markup=keyboard)
    await app.bot.edit_message_text("Речь игрока 2", anna.id, sent.message_id,
                                    reply_markup=keyboard)
    stored = fake.message(anna.id, sent.message_id)
    assert stored.buttons == [{"text": "Далее", "callback_data": "next:1"}]
    await app.bot.edit_message_reply_markup(anna.id, sent.message_id, reply_markup=None)
    assert stored.buttons == [] and stored.texts == ["Речь игрока 1", "Речь игрока 2",
                                                     "Речь игрока 2"]
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("x", anna.id, 9999)


async def test_delete_needs_rights_for_others_messages(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    player = fake.add_user("Игрок")
    weak = fake.add_group("Без прав", members=[player], bot_status="member")
    strong = fake.add_group("С правами", members=[player])
    for chat in (weak, strong):
        fake.user_sends(player, chat, "/panel")
    await fake.wait_for(lambda: len(fake.sent()) == 2)
    own = fake.last_sent(weak)
    assert await app.bot.delete_message(weak.id, own.message_id)
    assert own.deleted
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await app.bot.delete_message(weak.id, own.message_id)
    users_message = fake.user_sends(player, weak, "/panel@FakeRefereeBot")
    with pytest.raises(BadRequest, match="Message can't be deleted"):
        await app.bot.delete_message(weak.id, users_message.message_id)
    users_message = fake.user_sends(player, strong, "мой текст")
    assert await app.bot.delete_message(strong.id, users_message.message_id)


# --------------------------------------------------------------------------- restrictions

async def test_restrict_and_lift_in_a_supergroup(fake: FakeBotAPI,
                                                 bot_app: tuple[AnyApp, Recorder]) -> None:
    app, seen = bot_app
    owner, admin, player = fake.add_user("Владелец"), fake.add_user("Админ"), fake.add_user("Игрок")
    group = fake.add_group("Клуб", creator=owner, admins=[admin], members=[player])
    until = int(time.time()) + 60
    await app.bot.restrict_chat_member(group.id, player.id,
                                       ChatPermissions(can_send_messages=False), until_date=until)
    restriction = fake.restrictions(group, player)
    assert restriction is not None and not restriction.can_send_messages
    assert restriction.until_date == until
    member = await app.bot.get_chat_member(group.id, player.id)
    assert member.status == "restricted" and member.can_send_messages is False
    with pytest.raises(FakeWorldError):
        fake.user_sends(player, group, "можно сказать?")
    await fake.wait_for(lambda: seen.member_updates)  # chat_member was asked for

    await app.bot.restrict_chat_member(group.id, player.id, ChatPermissions.all_permissions())
    assert fake.restrictions(group, player) is None
    assert (await app.bot.get_chat_member(group.id, player.id)).status == "member"

    with pytest.raises(BadRequest, match="User is an administrator of the chat"):
        await app.bot.restrict_chat_member(group.id, admin.id, ChatPermissions.no_permissions())
    with pytest.raises(BadRequest, match="Can't remove chat owner"):
        await app.bot.restrict_chat_member(group.id, owner.id, ChatPermissions.no_permissions())
    with pytest.raises(BadRequest, match="Can't restrict self"):
        await app.bot.restrict_chat_member(group.id, fake.bot_user.id,
                                           ChatPermissions.no_permissions())


async def test_restrict_without_the_right_and_rights_reported(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player], bot_rights={"can_restrict_members": False})
    with pytest.raises(BadRequest, match="Not enough rights to restrict/unrestrict chat member"):
        await app.bot.restrict_chat_member(group.id, player.id, ChatPermissions.no_permissions())
    me = await app.bot.get_chat_member(group.id, fake.bot_user.id)
    assert me.status == "administrator"
    assert me.can_restrict_members is False and me.can_delete_messages is True
    admins = await app.bot.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [fake.bot_user.id]
    chat = await app.bot.get_chat(group.id)
    assert chat.type == "supergroup" and chat.title == "Клуб"


async def test_restriction_expires_with_the_clock() -> None:
    now = [1_700_000_000.0]
    async with FakeBotAPI(clock=lambda: now[0]) as fake:
        player = fake.add_user("Игрок")
        group = fake.add_group("Клуб", members=[player])
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            await bot.restrict_chat_member(group.id, player.id, ChatPermissions.no_permissions(),
                                           until_date=int(now[0]) + 60)
            assert fake.restrictions(group, player) is not None
            now[0] += 61
            assert fake.restrictions(group, player) is None
            # less than 30 s ahead means forever (Bot API, restrictChatMember.until_date)
            await bot.restrict_chat_member(group.id, player.id, ChatPermissions.no_permissions(),
                                           until_date=int(now[0]) + 10)
            restriction = fake.restrictions(group, player)
            assert restriction is not None and restriction.forever


# ---------------------------------------------------------------------- members and chats

async def test_user_leaving_reaches_a_bot_that_asked_for_chat_member(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    _, seen = bot_app
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player])
    fake.user_leaves(player, group)
    update = (await fake.wait_for(lambda: seen.member_updates))[0]
    assert update.chat_member is not None
    assert update.chat_member.new_chat_member.status == "left"
    assert fake.member(group, player).status == "left"
    with pytest.raises(FakeWorldError):
        fake.user_sends(player, group, "я вернулся?")


async def test_chat_member_updates_are_not_sent_unless_asked(fake: FakeBotAPI) -> None:
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player])
    async with Bot(fake.token, base_url=fake.base_url) as bot:
        await bot.get_updates(timeout=0)  # default allowed_updates
        fake.user_leaves(player, group)
        updates = await bot.get_updates(timeout=0)
        assert [bool(u.message and u.message.left_chat_member) for u in updates] == [True]
        assert list(fake.dropped_updates[0]) == ["chat_member"]


async def test_privacy_mode_hides_plain_group_messages_from_a_non_admin_bot(
        fake: FakeBotAPI) -> None:
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player], bot_status="member")
    assert not fake.user_sends(player, group, "просто текст").delivered
    assert fake.user_sends(player, group, "/panel").delivered
    assert fake.user_sends(player, group, "/panel@FakeRefereeBot").delivered
    assert not fake.user_sends(player, group, "/panel@OtherBot").delivered
    admin_group = fake.add_group("Клуб 2", members=[player])
    assert fake.user_sends(player, admin_group, "просто текст").delivered


async def test_group_migration(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, seen = bot_app
    judge = fake.add_user("Судья")
    group = fake.add_group("Клуб", members=[judge], supergroup=False)
    await app.bot.send_message(group.id, "до миграции")
    supergroup = fake.migrate_group(group)
    await fake.wait_for(lambda: seen.migrations)
    assert seen.migrations == [(group.id, supergroup.id)]
    with pytest.raises(ChatMigrated) as raised:
        await app.bot.send_message(group.id, "после")
    assert raised.value.new_chat_id == supergroup.id
    await app.bot.send_message(supergroup.id, "после")
    assert texts(fake, supergroup) == ["после"]
    await app.bot.restrict_chat_member(supergroup.id, judge.id, ChatPermissions.no_permissions())


# ------------------------------------------------------------------ callbacks and faults

async def test_answer_callback_query_twice_or_unknown_fails(
        fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    with pytest.raises(BadRequest, match="Query is too old"):
        await app.bot.answer_callback_query("12345")
    judge = fake.add_user("Судья", started=True)
    fake.user_sends(judge, None, "/panel")
    panel = await fake.wait_sent(judge)
    stale = fake.user_presses(judge, panel, "vote:stale", strict=False)  # an outdated client
    await fake.wait_for(lambda: stale in fake.callback_answers)
    with pytest.raises(BadRequest, match="Query is too old"):
        await app.bot.answer_callback_query(stale, text="again")


async def test_fault_injection_variants(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    anna = fake.add_user("Анна", started=True)
    fake.fail_next("sendMessage", 403, match=lambda params: params.get("text") == "второе")
    await app.bot.send_message(anna.id, "первое")
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_message(anna.id, "второе")

    fake.fail_next("sendMessage", disconnect=True)
    with pytest.raises(NetworkError):
        await app.bot.send_message(anna.id, "обрыв")
    fake.fail_next("sendMessage", 502, executed=True)  # Telegram sent it, the answer was lost
    with pytest.raises(NetworkError):
        await app.bot.send_message(anna.id, "дубль?")
    assert texts(fake, anna) == ["первое", "дубль?"]

    fake.fail_next("sendMessage", 400, migrate_to_chat_id=-1001234,
                   description="Bad Request: group chat was upgraded to a supergroup chat")
    with pytest.raises(ChatMigrated):
        await app.bot.send_message(anna.id, "x")


async def test_flood_limits_with_a_compressed_clock() -> None:
    now = [1_000.0]
    async with FakeBotAPI(clock=lambda: now[0]) as fake:
        fake.set_flood_limits(FloodLimits(global_per_second=30, per_group_per_minute=20))
        group = fake.add_group("Клуб")
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            for n in range(20):
                await bot.send_message(group.id, f"{n}")
                now[0] += 0.5
            with pytest.raises(RetryAfter) as raised:
                await bot.send_message(group.id, "21-е")
            assert 0 < retry_seconds(raised.value) <= 60
            now[0] += retry_seconds(raised.value)
            await bot.send_message(group.id, "21-е")
            assert len(fake.sent(group)) == 21


# ------------------------------------------------------------------- uploads and commands

async def test_document_upload_keeps_the_bytes(fake: FakeBotAPI,
                                               bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    judge = fake.add_user("Судья", started=True)
    protocol = "Протокол игры\n1. Анна — мирная\n".encode()
    message = await app.bot.send_document(judge.id, protocol, filename="protocol.txt",
                                          caption="<b>Протокол</b>", parse_mode="HTML")
    assert message.document is not None and message.caption == "Протокол"
    stored = fake.files[message.document.file_id]
    assert stored.data == protocol and stored.file_name == "protocol.txt"
    downloaded = await (await app.bot.get_file(message.document.file_id)).download_as_bytearray()
    assert bytes(downloaded) == protocol
    photo = await app.bot.send_photo(judge.id, b"\x89PNG fake image bytes")
    assert fake.files[photo.photo[-1].file_id].data == b"\x89PNG fake image bytes"


async def test_commands_round_trip(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    await app.bot.set_my_commands([("newgame", "Новая игра"), ("undo", "Отменить")])
    commands = await app.bot.get_my_commands()
    assert [(c.command, c.description) for c in commands] == [("newgame", "Новая игра"),
                                                              ("undo", "Отменить")]
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await app.bot.set_my_commands([("NewGame", "bad")])


async def test_wait_for_times_out_with_the_recent_calls(fake: FakeBotAPI) -> None:
    with pytest.raises(AssertionError, match="timed out"):
        await fake.wait_for(lambda: False, timeout=0.05, what="nothing")


async def test_only_one_poller_per_token(fake: FakeBotAPI) -> None:
    """Two processes polling one token conflict (ENGINEERING.md §7): the older poll gets 409."""
    async with Bot(fake.token, base_url=fake.base_url) as first, \
            Bot(fake.token, base_url=fake.base_url) as second:
        waiting = asyncio.create_task(first.get_updates(timeout=5))
        await fake.wait_for(lambda: fake.calls_to("getUpdates"))
        assert await second.get_updates(timeout=0) == ()
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await asyncio.wait_for(waiting, 1)


# ------------------------------------------------------------ shapes PTB must deserialise

async def test_every_member_status_parses_in_ptb(fake: FakeBotAPI) -> None:
    owner, admin, member, muted, gone, banned = (
        fake.add_user(name) for name in ("Владелец", "Админ", "Участник", "Молчун", "Ушёл", "Бан"))
    group = fake.add_group("Клуб", creator=owner, admins=[admin], members=[member])
    fake.set_member(group, muted, "restricted", permissions={"can_send_messages": False})
    fake.set_member(group, gone, "left")
    fake.set_member(group, banned, "kicked", until_date=0)
    async with Bot(fake.token, base_url=fake.base_url) as bot:
        statuses = [(await bot.get_chat_member(group.id, user.id)).status
                    for user in (owner, admin, member, muted, gone, banned)]
        assert statuses == ["creator", "administrator", "member", "restricted", "left", "kicked"]
        assert await bot.get_chat_member_count(group.id) == 5  # bot, owner, admin, member, muted
        full = await bot.get_chat(group.id)
        assert full.permissions is not None and full.permissions.can_send_messages
        private = await bot.get_chat(member.id)
        assert private.type == "private" and private.first_name == "Участник"
        with pytest.raises(BadRequest, match="There are no administrators in the private chat"):
            await bot.get_chat_administrators(member.id)


async def test_promote_and_leave_chat(fake: FakeBotAPI, bot_app: tuple[AnyApp, Recorder]) -> None:
    app, seen = bot_app
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player])
    with pytest.raises(BadRequest, match="Not enough rights"):
        await app.bot.promote_chat_member(group.id, player.id, can_pin_messages=True)
    fake.set_bot_status(group, "administrator", rights={"can_promote_members": True})
    await app.bot.promote_chat_member(group.id, player.id, can_pin_messages=True)
    assert fake.member(group, player).status == "administrator"
    await app.bot.leave_chat(group.id)
    assert fake.member(group, fake.bot_user).status == "left"
    with pytest.raises(Forbidden, match="bot is not a member of the supergroup chat"):
        await app.bot.send_message(group.id, "я тут?")


async def test_chat_member_updates_need_an_admin_bot(fake: FakeBotAPI,
                                                     bot_app: tuple[AnyApp, Recorder]) -> None:
    _, seen = bot_app
    player = fake.add_user("Игрок")
    group = fake.add_group("Клуб", members=[player], bot_status="member")
    left = fake.user_leaves(player, group)
    assert left.delivered  # service messages always reach the bot
    assert list(fake.dropped_updates[-1]) == ["chat_member"]
    await fake.wait_delivered()
    assert seen.member_updates == []


async def test_caption_edit_and_channel_post(fake: FakeBotAPI,
                                             bot_app: tuple[AnyApp, Recorder]) -> None:
    app, _ = bot_app
    channel = fake.add_channel("Рейтинг клуба", username="club_rating")
    post = await app.bot.send_document("@club_rating", b"csv", filename="rating.csv",
                                       caption="Рейтинг")
    assert post.sender_chat is not None and post.sender_chat.id == channel.id
    edited = await app.bot.edit_message_caption(channel.id, post.message_id, caption="Рейтинг v2")
    assert isinstance(edited, type(post)) and edited.caption == "Рейтинг v2"
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_caption(channel.id, post.message_id, caption="Рейтинг v2")
    reader_channel = fake.add_channel("Чужой", bot_status="member")
    with pytest.raises(BadRequest, match="Need administrator rights in the channel chat"):
        await app.bot.send_message(reader_channel.id, "x")


async def test_raw_http_json_body_and_query_string(fake: FakeBotAPI) -> None:
    """Other clients send JSON bodies or query strings; the answers keep Telegram's shape."""
    import httpx

    anna = fake.add_user("Анна", started=True)
    api = f"{fake.base_url}{fake.token}"
    async with httpx.AsyncClient() as client:
        me = (await client.get(f"{api}/getMe")).json()
        assert me["ok"] and me["result"]["username"] == "FakeRefereeBot"
        keyboard = {"inline_keyboard": [[{"text": "Да", "callback_data": "yes"}]]}
        sent = (await client.post(f"{api}/sendMessage", json={
            "chat_id": anna.id, "text": "json", "reply_markup": keyboard})).json()
        assert sent["result"]["reply_markup"] == keyboard
        assert fake.calls_to("sendMessage")[-1].params["reply_markup"] == keyboard
        too_long = {"inline_keyboard": [[{"text": "x", "callback_data": "y" * 65}]]}
        refused = await client.post(f"{api}/sendMessage", json={
            "chat_id": anna.id, "text": "x", "reply_markup": too_long})
        assert refused.status_code == 400
        assert refused.json() == {"ok": False, "error_code": 400,
                                  "description": "Bad Request: BUTTON_DATA_INVALID"}
        fake.fail_next("sendMessage", 429, retry_after=2)
        limited = await client.post(f"{api}/sendMessage", data={"chat_id": anna.id, "text": "x"})
        assert limited.status_code == 429
        assert limited.json()["parameters"] == {"retry_after": 2}
        assert (await client.get(f"http://127.0.0.1:{fake.port}/elsewhere")).status_code == 404
