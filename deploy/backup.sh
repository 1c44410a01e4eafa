#!/bin/sh
# An online backup of the bot's SQLite database, safe while the bot runs (SQLite's backup API:
# one consistent snapshot; the bot keeps writing). Keeps the last KEEP_DAYS days of copies.
#
#   deploy/backup.sh [DIR]          DIR: where the dated copies go (default /var/backups/mafia-referee)
#
# systemd: deploy/mafia-referee-backup.timer runs it daily as the bot's user; or from cron:
#   15 4 * * *  mafia-referee  MAFIA_REFEREE_DB=/var/lib/mafia-referee/referee.sqlite3 MAFIA_REFEREE=/opt/mafia-referee/bin/mafia-referee /opt/mafia-referee/backup.sh
# Docker: the image has it as mafia-referee-backup; compose.yaml's backup service runs it nightly
#   (by hand: docker compose -f deploy/compose.yaml exec backup mafia-referee-backup /backups).
#
# Environment: MAFIA_REFEREE_DB (the database), MAFIA_REFEREE (the command; default: mafia-referee
# on PATH), KEEP_DAYS (default 30).
set -eu

dir="${1:-/var/backups/mafia-referee}"
keep="${KEEP_DAYS:-30}"
command="${MAFIA_REFEREE:-mafia-referee}"

# The folder is never created here (nor by the command): a backup disk that is not mounted must
# fail loudly (exit 2, one line), not fill the disk under its mount point. systemd's unit makes
# its folder (StateDirectory); compose gives a volume of its own.
# A directory ending in "/": the command names the copy referee-YYYYmmdd-HHMMSS.sqlite3.
"$command" backup "$dir/"
find "$dir" -maxdepth 1 -name 'referee-*.sqlite3' -type f -mtime +"$keep" -delete
