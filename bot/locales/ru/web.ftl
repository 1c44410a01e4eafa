# Стол на экране (issue 30, bot/web): слова самих страниц, /stream, кнопка мини-приложения.
web-title = Стол мафии
web-fouls = фолы
web-warnings = предупреждения
web-out = вне игры
web-speaking = говорит
web-ballot = Голосование
web-votes = голоса
web-result = Итог
web-points = Баллы
web-stopped = Стол остановлен.
web-no-game = За этим столом пока нет игры.
web-feed = Объявления
web-waiting = Трансляция идёт с задержкой и скоро начнётся.
web-offline = Соединяюсь заново…
web-game = Игра
web-seat = Место
web-timer-paused = пауза
web-nominated = кандидатура
web-command = Команда, например /fix 12 /foul 5 4.1.1
web-send = Отправить
web-refused = Не принято
web-outdated = Панель уже изменилась: показываю заново.
web-roles = Роли
web-standings = Турнирная таблица
web-tables = Столы
web-signed-out = Страница не открыта судьёй: откройте её с панели судьи (Telegram) или попросите новую ссылку командой /panel (Discord).
web-foul = Фол

web-off = Страницы стола у этого бота выключены (их включает MAFIA_REFEREE_WEB_URL).
web-pages = Страницы стола (показывают игры этого стола):
    Живая страница: { $live }
    Оверлей для трансляции (источник «Браузер» в OBS, 1920×1080): { $overlay }
web-broadcast = Страница трансляции — роли видны с задержкой { $delay }; держите её подальше от экранов игроков:
    { $live }
    Оверлей: { $overlay }
web-broadcast-sent = Адрес страницы трансляции отправлен вам в личные сообщения.
web-rotated = Адреса новые: старые страницы больше не открываются.
web-delay-set = Теперь трансляция идёт с задержкой { $delay }.
web-tournament = Страница турнира: { $url }
web-no-tournament = В этом клубе нет открытого турнира.
web-app-button = 📱 Панель на экране
web-app-link = Панель на экране для игры { $game } (ссылка откроется один раз, в течение { $minutes } мин):
    { $url }
# роль на сетке мест судьи (телефон в 360 пикселей: несколько букв)
web-role-short-civilian = Мир
web-role-short-sheriff = Шер
web-role-short-mafia = Маф
web-role-short-don = Дон
