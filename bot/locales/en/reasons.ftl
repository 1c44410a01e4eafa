# Penalty reasons: reason-<code>, dots replaced with "_" (4.2.7 → reason-4_2_7).
# Seed IV 4.1.1–4.3.3; FIIM 2024 additions §6.6.9, §6.7.11–6.7.16, §6.8.4.

reason-unknown = reason “{ $code }”

reason-warning = a verbal warning
reason-foul = a foul
reason-dq = a disqualifying foul
reason-ppk = team loss
reason-tech = a second technical foul

## Fouls (4.1)

reason-4_1_1 = speaking outside one's minute, including interjections and whispers
reason-4_1_2 = touching during the day, excessive gestures that distract other players
reason-4_1_3 = knocking on the table
reason-4_1_4 = unethical behaviour towards other players or judges
reason-4_1_5 = arguing with the judge
reason-4_1_6 = taking the hand off before the vote is closed (“Stop” or “Thank you”), or putting it on the table before the vote
reason-4_1_7 = gestures and appeals during the vote
reason-4_1_8 = { $rules ->
    [fsm2024] voting against several nominees or with two hands (FSM 2024, §6.7.9)
   *[other] breaking the voting order: voting against several nominees, or not voting when the judge asks for the remaining votes against the last nominee
}

## Disqualifying fouls (4.2)

reason-4_2_1 = leaving the table
reason-4_2_2 = touching at night
reason-4_2_3 = night signals to the Don or the Sheriff
reason-4_2_4 = insulting players or judges, obscene language
reason-4_2_5 = involuntary peeking at night
reason-4_2_6 = talking or shouting at night, other breaches of night behaviour
reason-4_2_7 = tears at the table
reason-4_2_8 = non-game appeals to ethics or religion to prove one's role or sway the vote
reason-4_2_9 = a wrong form of voting (palm, finger, elbow, etc.)
reason-4_2_10 = deliberate peeking or another non-game way of getting information

## Team loss (4.3)

reason-4_3_1 = an oath or a bet in any form, or their equivalent
reason-4_3_2 = blackmail, threats or bribery
reason-4_3_3 = a hint from the audience

## FIIM 2024 additions

reason-6_6_8 = breaking the voting order: not voting when the judge asks for the remaining votes against the last nominee
reason-6_6_9 = refusing to take the mask off when the judge asks
reason-6_7_11 = asking someone to name or not to name a player in the best move
reason-6_7_12 = pointing to the best move to prove one's role
reason-6_7_13 = whispering hidden information to a neighbour
reason-6_7_14 = hiding what one says in a foreign language
reason-6_7_15 = obscene language
reason-6_7_16 = seeking a non-game advantage to prove one's role or sway the vote
reason-6_8_4 = a revealed Sheriff proving the role with information from the night
