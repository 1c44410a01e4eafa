# /why: why the last ruling was made (bot/why.py): what was announced and the rule it rests on.

why-nothing = No ruling has been made in this game yet.
why-ruling = The last ruling: { $what }
why-rule = The rule — { $rule }
why-no-rule = This ruling follows from the course of the game or from this game's own rules (the announcement names their changes). The rule numbers: /rule.
