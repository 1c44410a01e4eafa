cli-bad-setting = Bad setting { $name }: { $problem }. Fix the environment variable or the .env file.
cli-bad-database = Cannot open the database: { $problem }. Choose another file (--db or MAFIA_REFEREE_DB).
command-shooting_first = Record the shooting first: /kill and a seat, /miss or /shots.
console-new-confirm = Game { $game } is not over. A new game shelves it for good: type /new again to confirm.

## mafia-referee replay: the comparison with the record
replay-record = Record { $source } { $game }{ $partial ->
    [yes] {" "}(partial)
   *[no] {""}
}
replay-outcome = { $label ->
    [replay] Replay
   *[record] Record
}: winner { $winner }, departures { $departures }, cancelled votes { $cancelled }
replay-note = note: { $note }
replay-difference = difference: { $difference }
replay-agrees = result: agrees
replay-disagrees = result: disagrees
replay-error = error ({ $kind }):{ $field } { $message }
