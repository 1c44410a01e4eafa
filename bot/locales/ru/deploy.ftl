# mafia-referee health / backup (bot/health.py, deploy/)
health-ok = ok: { $path }, схема { $version }, игр: { $count }
health-no_database = Неисправно: базы данных { $path } нет. Запустите бота один раз, чтобы её создать, или укажите MAFIA_REFEREE_DB (--db).
health-bad_database = Неисправно: базу данных { $path } не прочитать: { $problem }. Восстановите её из резервной копии.
health-old_schema = Неисправно: у базы данных { $path } схема { $version }, этой версии нужна { $expected }. Запустите бота один раз, чтобы её обновить.
health-new_schema = Неисправно: у базы данных { $path } схема { $version }, новее этой версии ({ $expected }). Установите новую версию mafia-referee.
health-no_heartbeat_setting = Неисправно: для --max-age нужен файл пульса: задайте MAFIA_REFEREE_HEARTBEAT (или --heartbeat).
health-no_heartbeat = Неисправно: файла пульса { $path } нет: бот не запущен (или запущен без MAFIA_REFEREE_HEARTBEAT).
health-stale_heartbeat = Неисправно: пульсу { $path } уже { $age } с (предел { $limit } с): бот завис или остановлен.
backup-done = Резервная копия записана: { $path } (игр: { $count }).
backup-no_database = Копии нет: базы данных { $path } нет. Укажите MAFIA_REFEREE_DB (--db).
backup-failed = Копии нет: { $path } не удалось записать: { $problem }.
backup-bad_source = Копии нет: { $path } — не база данных mafia-referee или не читается: { $problem }. Проверьте --db (MAFIA_REFEREE_DB).
backup-same_file = Копии нет: { $path } — это сама рабочая база данных. Укажите другой файл или папку для копии.
