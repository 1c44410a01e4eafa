"""The judge's assistant in Telegram (python-telegram-bot 22).

* :mod:`.callbacks` — the callback-data codec (game, revision, action; at most 64 bytes);
* :mod:`.panel` — the judge's control panel: pure text and keyboard builders;
* :mod:`.routing` — which notice goes where (private ones only to the judge);
* :mod:`.timer` — the speech timer: stages, texts, the stored form;
* :mod:`.app` — the Application: handlers, the adapter over :class:`bot.service.Service`, ``run``.

No rule lives here: every action goes through the service and the rules engine.
"""
