"""Host mode's adapter-neutral half: the bot runs the whole table (issues 4 and 5).

* :mod:`.controller` — the table flow, written once: lobby, deal, steps, presses, typed messages,
  commands, deadlines, stop, resume after a restart;
* :mod:`.port` — what a platform gives the controller (:class:`.port.HostPort`) and the table's
  typed bookkeeping (:class:`.port.TableFlags`);
* :mod:`.options` — ``/newgame``'s options (seating, how "only the speaker writes" is enforced,
  the lengths the rules leave open, ``absent``) and the rules config;
* :mod:`.steps` — pure: the step the rules expect now, its length, who may write, who is asked
  what in private, the engine event a closing step becomes, the silent speeches' count;
* :mod:`.views` — pure: the group's and the players' texts and button layouts, the callback codec;
* :mod:`.table` — a table as the controller holds it.

The platforms are :mod:`bot.telegram.host` (a Telegram group) and :mod:`bot.discord.host` (a
Discord text channel): each implements the port and hands its updates to the controller. Every
rule stays in :mod:`rules`; games go through :class:`bot.service.Service` with the bot as the
judge.
"""
