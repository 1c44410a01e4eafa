"""Test helpers (no tests here):

* :mod:`.fakeport` — in-memory fakes of a platform for the two controllers (no HTTP);
* :mod:`.telegram_table` — judge mode over the real PTB Application and the fake Bot API;
* :mod:`.host_table` — host mode over the same, with ten simulated players;
* :mod:`.discord_table` — the real discord.py client over the fake Discord (tests/fakediscord).
"""
