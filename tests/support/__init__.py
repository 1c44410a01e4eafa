"""Test helpers (no tests here):

* :mod:`.fakeport` — in-memory fakes of a platform for the two controllers (no HTTP);
* :mod:`.telegram_table` — judge mode over the real PTB Application and the fake Bot API;
* :mod:`.host_table` — host mode over the same, with ten simulated players;
* :mod:`.discord_table` — the real discord.py client over the fake Discord (tests/fakediscord);
* :mod:`.judging` — one judge's table on either platform behind the same verbs, for scripts
  that run on both;
* :mod:`.webhook` — an update POSTed to the bot's webhook server, as Telegram would;
* :mod:`.club` — the club tests' names and their both-backends store fixture;
* :mod:`.stores`, :mod:`.pgserver` — the store on SQLite and on PostgreSQL (a server started for
  the tests where none is given).
"""

# Words that must never reach a public place before the end (F24 §4.4.13, §4.5.4): roles, shots,
# check answers, hits of the best move, role cards. Team words inflected as in «Победа красных»
# are fine; these forms are not.
RU_SECRETS = ("Роли:", "Дон — №", "мафия — №", "Шериф — №", "мирный", ": Шериф.", "не Шериф",
              "чёрный.", "красный.", "Стрельба", "Выстрелы", "угадано", "Причина удаления",
              "Результат определён", "Ваша роль", "роль —", "Чёрные за столом")
