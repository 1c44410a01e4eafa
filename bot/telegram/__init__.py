"""The Telegram adapter (python-telegram-bot 22).

* :mod:`.app` — the Application of judge mode: handlers, the adapter over
  :class:`bot.service.Service` (the panel, the timer and the routing are :mod:`bot.judge`'s),
  ``run``;
* :mod:`.outbox` — the sender of the persistent outbox;
* :mod:`.webhook` — webhook mode and the health heartbeat;
* :mod:`.host` — host mode's driver (its neutral half is :mod:`bot.host`).

No rule lives here: every action goes through the service and the rules engine.
"""
