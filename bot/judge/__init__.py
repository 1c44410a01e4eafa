"""Judge mode's adapter-neutral half: the judge's assistant at a live table (issues 2 and 3).

* :mod:`.callbacks` — the panel buttons' data codec (game, revision, action; at most 64 bytes);
* :mod:`.panel` — the judge's control panel: pure text and button builders;
* :mod:`.routing` — which notice goes where (private ones only to the judge) and the turn's key;
* :mod:`.timer` — the step timer (every timed step): stages, texts, the countdown, the stored form.

The adapters are :mod:`bot.telegram` and :mod:`bot.discord`; no rule lives here.
"""
