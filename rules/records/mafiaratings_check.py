"""MafiaRatings' own validity check of a game record, in our words.

The site checks every game it is given (szotin/mafiaratings ``include/game.php``,
``Game::check``): each check walks the record and notes an *issue* (with ``fix`` the site would
then cut or drop the offending data). :func:`site_issues` makes the checks that apply to a record
with full details (the feature letters ``d u t c v n w r`` and ``h`` — death, its round, type and
time, votes, nominations, warnings with their times, shots) and returns the issues the site would
note, in its own wording. An empty list means the site takes the game as it is.

The checks, in the site's order (each stops the rest when it cannot go on, as the site's does):

* game result — the cards (6 civilians, 1 Sheriff, 2 mafia, 1 Don); no nomination, vote or shot
  after one's death round; a legacy (best move) only by a player shot in round 0 or 1; no shots by
  a red player;
* deaths — each has a type and a round; a removal's game time is well formed; nobody is shot in
  night 0; every black alive at a night's shooting shot its victim; a player voted out is the
  winner of that round's vote;
* nominations — nobody nominates after his death or nominates a player already dead;
* shooting — only blacks shoot, and not after their death;
* voting — each vote of a vote that was held is cast by a player alive at it, against a
  nominated player alive at it; every player alive at a vote that was held voted in it (except
  the day-1 single nominee, F24 §4.4.10); the winner of a vote is dead by that round (except where
  7.16 keeps a day-1 leader at the table);
* warnings and technical fouls — at most 4 and 2, each at a well-formed game time.

Game times are compared as the site compares them (``compare_gametimes``: the round, then the
game time's rank, then the speaker's place in the day's rotation, the nominee's place in the
nomination order — reversed in odd revotes under 7.18.2 — and the ``order`` of actions at one
moment). Where the site's code does something its comments do not say, this module follows the
code, and says so.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .mafiaratings import DEFAULT_RULES, upgrade_rules_code

# include/game.php gametime_to_int: the rank of each game time within a round.
_RANK = {"start": 0, "arrangement": 1, "relaxed sitting": 2, "night start": 3, "shooting": 4,
         "don": 5, "sheriff": 6, "night end": 7, "day start": 8, "night kill speaking": 9,
         "speaking": 10, "voting start": 11, "voting": 12, "voting kill all": 13,
         "day kill speaking": 14}
_TIMES_WITHOUT_DETAILS = ("start", "arrangement", "relaxed sitting", "day start", "voting start",
                          "night kill speaking", "night start", "shooting", "don", "sheriff",
                          "night end", "end")
_BLACK = ("maf", "don")

YES, NO, UNKNOWN = 1, 0, -1


def _rank(time: Any) -> int:
    return _RANK.get(time, 15)


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


class _Game:
    """One record as the site reads it. Seats are 1–10; ``players[s - 1]`` is seat s."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.players: list[dict[str, Any]] = record["players"]
        code = upgrade_rules_code(record.get("rules") or DEFAULT_RULES)
        self.code = code if isinstance(code, str) and len(code) == 13 and code.isdigit() \
            else DEFAULT_RULES
        self.features = set(str(record.get("features") or ""))
        start = record.get("startTime")
        self.after_2014 = _num(start) and start > 1420070400  # the site's cut for old games
        self.issues: list[str] = []
        self.speaks_first = lru_cache(maxsize=None)(self._speaks_first)
        self.votings = self._votings()

    # --- small views ------------------------------------------------------------------------
    def rule(self, index: int) -> int:
        return int(self.code[index])

    def player(self, seat: int) -> dict[str, Any]:
        return self.players[seat - 1]

    def is_black(self, seat: int) -> bool:
        return self.player(seat).get("role") in _BLACK

    def issue(self, text: str) -> None:
        if text not in self.issues:
            self.issues.append(text)

    def last_round(self) -> int:
        """The site's ``get_last_round``: the longest list (not its last index), or the highest
        check round."""
        last = 0
        for p in self.players:
            for key in ("nominating", "voting", "shooting"):
                if isinstance(p.get(key), list):
                    last = max(last, len(p[key]))
            for key in ("don", "sheriff"):
                if _num(p.get(key)):
                    last = max(last, p[key])
        return last

    # --- game times ---------------------------------------------------------------------------
    def death_time(self, seat: int, including_speech: bool = False) -> dict[str, Any] | None:
        """When ``seat`` left (``get_player_death_time``): a shot at the night's shooting, a vote
        at the vote against him (or the kill-all vote after a revote), a removal at its game
        time; with ``including_speech`` a vote or a shot at the last word that follows it. A
        player still at the table 'dies' at the end of the last round."""
        p = self.player(seat)
        death = p.get("death")
        if death is None:
            return {"time": "end", "round": self.last_round()}
        if not isinstance(death, dict):
            return None
        if isinstance(death.get("time"), dict):
            return dict(death["time"])
        kind, rnd = death.get("type"), death.get("round")
        if kind == "night":
            out: dict[str, Any] = {"time": "night kill speaking" if including_speech else "shooting"}
            if rnd is not None:
                out["round"] = rnd
            return out
        if kind == "day":
            if including_speech:
                return {"round": rnd, "time": "day kill speaking", "speaker": seat}
            voting_round = 0
            for other in self.players:
                votes = other.get("voting")
                if isinstance(votes, list) and _num(rnd) and len(votes) > rnd \
                        and isinstance(votes[rnd], list):
                    voting_round = len(votes[rnd]) - 1  # the site counts a kill-all answer too
                    break
            if voting_round == 0:
                return {"round": rnd, "time": "voting", "votingRound": 0, "nominee": seat}
            return {"round": rnd, "time": "voting kill all", "votingRound": voting_round}
        if kind == "warnings":
            warnings = _seq(p.get("warnings"))
            return dict(warnings[3]) if len(warnings) > 3 and isinstance(warnings[3], dict) else None
        if kind == "techFouls":
            techs = _seq(p.get("techFouls"))
            return dict(techs[1]) if len(techs) > 1 and isinstance(techs[1], dict) else None
        return None

    def compare(self, a: dict[str, Any] | None, b: dict[str, Any] | None,
                no_order: bool = False) -> int:
        """``compare_gametimes``: negative when ``a`` comes first."""
        a, b = a or {}, b or {}
        ra, rb = a.get("round") or 0, b.get("round") or 0
        if ra != rb:
            return ra - rb
        ta, tb = a.get("time") or "start", b.get("time") or "start"
        if ta != tb:
            return _rank(ta) - _rank(tb)
        result = 0
        if ta == "speaking":
            first = self.speaks_first(ra)
            sa, sb = a.get("speaker") or 0, b.get("speaker") or 0
            result = (sa + 10 if sa < first else sa) - (sb + 10 if sb < first else sb)
        elif ta == "voting":
            va, vb = a.get("votingRound") or 0, b.get("votingRound") or 0
            if va != vb:
                result = va - vb
            elif a.get("speaker") is not None:
                if b.get("speaker") is not None:
                    result = self.nominated_earlier(ra, a["speaker"], b["speaker"], va)
                else:
                    result = -1 if b.get("nominee") is not None else 1
            elif a.get("nominee") is not None:
                result = (self.nominated_earlier(ra, a["nominee"], b["nominee"], va)
                          if b.get("nominee") is not None else 1)
            else:
                result = -1 if b.get("nominee") is not None or b.get("speaker") is not None else 0
        elif ta == "day kill speaking":
            votes = _seq(self.player(a.get("speaker") or 1).get("voting"))
            voting_round = len(votes[ra]) if ra < len(votes) and isinstance(votes[ra], list) else 0
            result = self.nominated_earlier(ra, a.get("speaker"), b.get("speaker"), voting_round)
        if result == 0 and not no_order:
            oa, ob = a.get("order"), b.get("order")
            result = (oa if oa is not None else -1) - (ob if ob is not None else -1)
        return result

    def _alive_from(self, index: int, rnd: int, step: int) -> int:
        """``_next_speaker`` / ``_prev_speaker``: the next (or previous) player index 0–9 alive at
        the start of round ``rnd``'s day, or -1."""
        start = {"round": rnd, "time": "night kill speaking"}
        i = index
        for _ in range(10):
            i = (i + step) % 10
            if self.compare(self.death_time(i + 1), start) > 0:
                return i
        return -1

    def _speaks_first(self, rnd: int) -> int:
        """``who_speaks_first``: the seat opening round ``rnd``'s day under the rotation rule
        (6.3.1: after yesterday's opener; 6.3.2: after the seat after yesterday's closer)."""
        if rnd <= 0:
            return self._alive_from(9, 0, 1) + 1
        prev = self.speaks_first(rnd - 1) - 1
        if self.rule(0) == 1:
            prev = self._alive_from(self._alive_from(prev, rnd - 1, -1), rnd, 1)
        return self._alive_from(prev, rnd, 1) + 1

    def nominated_earlier(self, rnd: int, a: Any, b: Any, voting_round: int = 0) -> int:
        """``who_was_nominated_earlier``: -1 if ``a`` was nominated before ``b`` that day (in
        the speaking order), 1 if after; reversed in odd revotes under 7.18.2."""
        if a == b:
            return 0
        sign = -1 if self.rule(5) == 1 and voting_round % 2 else 1
        first = self.speaks_first(rnd)
        seat = first
        for _ in range(10):
            noms = _seq(self.player(seat).get("nominating")) if 1 <= seat <= 10 else []
            if rnd < len(noms):
                if noms[rnd] == a:
                    return -sign
                if noms[rnd] == b:
                    return sign
            seat = seat % 10 + 1
            if seat == first:
                break
        return 0

    def nominees(self, rnd: int, voting_round: int) -> list[int]:
        """``get_nominees``: round ``rnd``'s nominees in the speaking order; for a revote, those
        with the most votes in the round before; reversed in odd revotes under 7.18.2."""
        noms: list[int] = []
        first = self.speaks_first(rnd)
        order = [(first - 1 + i) % 10 + 1 for i in range(10)] if first >= 1 else list(range(1, 11))
        if voting_round > 0:
            votes = [0] * 11
            for p in self.players:
                v = _seq(p.get("voting"))
                if rnd < len(v) and v[rnd] is not None:
                    if isinstance(v[rnd], list):
                        if voting_round <= len(v[rnd]) and _num(v[rnd][voting_round - 1]):
                            votes[int(v[rnd][voting_round - 1])] += 1
                    elif voting_round == 1 and _num(v[rnd]):
                        votes[int(v[rnd])] += 1
            top = max(votes)
            if top > 0:
                for seat in order:
                    n = _nominated(self.player(seat), rnd)
                    if n is not None and votes[n] == top:
                        noms.append(n)
        else:
            for seat in order:
                n = _nominated(self.player(seat), rnd)
                if n is not None:
                    noms.append(n)
        if self.rule(5) == 1 and voting_round % 2:
            noms.reverse()
        return noms

    # --- votes ----------------------------------------------------------------------------------
    def _votings(self) -> list[dict[str, Any]]:
        """``init_votings``: per round, the nominees with the voters of each voting round, the
        winner(s) of the last round and whether they were 'killed' (the kill-all answers, or
        the first winner's own death by that round)."""
        rounds = max([len(_seq(p.get(k))) for p in self.players for k in ("nominating", "voting")]
                     or [0])
        out = []
        for rnd in range(rounds):
            voting: dict[str, Any] = {}
            nominees: list[dict[str, Any]] = []
            first = self.speaks_first(rnd)
            order = list(range(first, 11)) + list(range(1, first)) if first >= 1 else list(range(1, 11))
            for seat in order:
                n = _nominated(self.player(seat), rnd)
                if n is not None:
                    nominees.append({"nominee": n, "by": seat})
            voted_to_kill: list[int] | None = None
            any_vote = False
            for i, p in enumerate(self.players):
                v = _seq(p.get("voting"))
                if rnd >= len(v) or v[rnd] is None:
                    continue
                any_vote = True
                vote = v[rnd]
                if isinstance(vote, list):
                    rounds_here = len(vote)
                    if rounds_here and isinstance(vote[-1], bool):
                        rounds_here -= 1
                        voted_to_kill = voted_to_kill if voted_to_kill is not None else []
                        if vote[rounds_here]:
                            voted_to_kill.append(i + 1)
                    for j in range(rounds_here):
                        nom = _nominee_entry(nominees, vote[j])
                        hands = nom.setdefault("hands", {})
                        if len(hands) < j:  # the site pads with j empty lists, as its code does
                            for _ in range(j):
                                hands[_next_key(hands)] = []
                        if not isinstance(hands.setdefault(j, []), list):
                            # PHP 8 stops here: "Cannot use a scalar value as an array"
                            self.issue(f"The site cannot read round {rnd}'s votes against player "
                                       f"{vote[j]}: a single vote before a list of revotes.")
                            continue
                        hands[j].append(i + 1)
                else:
                    nom = _nominee_entry(nominees, vote)
                    hands = nom.get("hands")
                    if hands is None:
                        nom["hands"] = {0: i + 1}
                    elif isinstance(hands.get(0), list):
                        hands[0].append(i + 1)
                    else:
                        hands[_next_key(hands)] = i + 1
            if nominees or any_vote:
                top = voters = deepest = 0
                for nom in nominees:
                    count, last = _last_hands(nom)
                    if count <= 0:
                        continue
                    if isinstance(last, list):
                        if deepest > count:
                            count = 0
                        else:
                            if deepest < count:
                                deepest, top, voters = count, 0, 0
                            count = len(last)
                    top = max(top, count)
                    voters += count
                if voters:
                    voting["voters"] = voters
                winners = []
                for nom in nominees:
                    count, last = _last_hands(nom)
                    if count > 0 and (len(last) if isinstance(last, list) else count) == top:
                        winners.append(nom["nominee"])
                if winners:
                    voting["winner"] = winners[0] if len(winners) == 1 else winners
                voting["killed"] = self._killed(rnd, voting, voted_to_kill, voters)
            if self.canceled(rnd) == YES:
                voting["canceled"] = True
            out.append(voting)
        return out

    def _killed(self, rnd: int, voting: dict[str, Any], voted_to_kill: list[int] | None,
                voters: int) -> bool:
        if voted_to_kill is not None:
            return len(voted_to_kill) * 2 > voters
        winner = voting.get("winner")
        seat = winner if _num(winner) else (winner[0] if winner else 0)
        if not seat or not 1 <= seat <= 10:
            return False
        death = self.player(seat).get("death")
        if not isinstance(death, dict):
            return False
        if death.get("round") == rnd and death.get("type") == "day":
            return True
        if isinstance(death.get("time"), dict) and death.get("type") not in ("day", "night"):
            last_word = {"time": "day kill speaking", "round": rnd, "speaker": seat,
                         "order": 1_000_000_000}
            return self.compare(death["time"], last_word) < 0
        return False

    def decided(self, rnd: int) -> dict[str, Any] | None:
        """``when_voting_is_decided``: the game time after which round ``rnd``'s vote has its
        result, from its final ballots: the vote against the single winner if he is not one of
        the last two nominees, else against the last but one (the site does not ask whether he
        could still be caught); a passed kill-all vote; ``None`` for no result."""
        votes = [0] * 11
        kill_all = save_all = top = voting_round = 0
        for p in self.players:
            v = _seq(p.get("voting"))
            if rnd >= len(v):
                continue
            vote = v[rnd]
            if isinstance(vote, list) and vote:
                if isinstance(vote[-1], bool):
                    kill_all, save_all = kill_all + vote[-1], save_all + (not vote[-1])
                    voting_round = max(voting_round, len(vote) - 2)
                    vote = vote[-2] if len(vote) > 1 else None
                else:
                    voting_round = max(voting_round, len(vote) - 1)
                    vote = vote[-1]
            if _num(vote) and 1 <= vote <= 10:
                votes[int(vote)] += 1
                top = max(top, votes[int(vote)])
        winners = [i for i in range(1, 11) if votes[i] == top]
        if len(winners) == 1:
            noms = self.nominees(rnd, voting_round)
            if not noms:
                return None
            result: dict[str, Any] = {"round": rnd, "winners": [w - 1 for w in winners]}
            if len(noms) == 1:
                result["time"] = "voting start"
                return result
            result.update(votingRound=voting_round, time="voting", nominee=noms[-2])
            for n in noms[:-2]:
                if votes[n] == top:
                    result["nominee"] = n
                    break
            return result
        if winners and kill_all > save_all:
            return {"round": rnd, "votingRound": voting_round, "time": "voting kill all",
                    "winners": [w - 1 for w in winners]}
        return None

    def night_kill(self, rnd: int) -> int:
        """``get_night_kill``: the player index (0–9) every black alive at the shooting shot, or
        -1. The site compares each shot with null loosely, so a shot at seat 1 (index 0) counts
        as no shot; followed here as its code does."""
        if rnd <= 0:
            return -1
        killed = -1
        shooting_time = {"round": rnd, "time": "shooting"}
        for seat in range(1, 11):
            if not self.is_black(seat) or self.compare(shooting_time, self.death_time(seat)) > 0:
                continue
            shots = _seq(self.player(seat).get("shooting"))
            shot = shots[rnd - 1] - 1 if rnd <= len(shots) and _num(shots[rnd - 1]) else None
            if not shot:  # None, or index 0 (see above)
                return -1
            if killed < 0:
                killed = shot
            elif killed != shot:
                return -1
        return killed

    def canceled(self, rnd: int) -> int:
        """``is_voting_canceled``: is round ``rnd``'s vote not held because of a removal (4th
        warning, 2nd technical foul, kick-out, give-up, team kick-out)? A removal in that round
        cancels it unless the result was decided before it and the removed player is not the
        night's victim (the site's operator precedence makes a vote with no result cancelled
        even for the victim); a removal in the round before cancels it when it came after that
        day's result and the removed player was not among its winners."""
        for i, p in enumerate(self.players):
            death = p.get("death")
            if not isinstance(death, dict):
                continue
            kind = death.get("type")
            r = -2
            if kind in ("warnings", "techFouls", "giveUp", "kickOut", "teamKickOut"):
                key = {"warnings": ("warnings", 3), "techFouls": ("techFouls", 1)}.get(kind)
                if death.get("round") is not None:
                    r = death["round"]
                elif isinstance(death.get("time"), dict) and death["time"].get("round") is not None:
                    r = death["time"]["round"]
                elif key and len(_seq(p.get(key[0]))) > key[1]:
                    r = p[key[0]][key[1]].get("round", -2)
                else:
                    return UNKNOWN
            if r == rnd:
                d = self.decided(r)
                if d is None or (self.compare(d, self.death_time(i + 1), True) >= 0
                                 and i != self.night_kill(r)):
                    return YES
            elif r == rnd - 1:
                d = self.decided(r)
                if d is not None and self.compare(d, self.death_time(i + 1), True) < 0 \
                        and i not in d["winners"]:
                    return YES
        return NO

    # --- the checks -----------------------------------------------------------------------------
    def check_result(self) -> bool:
        counts = {"civ": 0, "sheriff": 0, "maf": 0, "don": 0}
        for i, p in enumerate(self.players):
            seat, role = i + 1, p.get("role", "civ")
            if role not in counts:
                self.issue(f'Player {seat} has invalid role "{role}".')
            else:
                counts[role] += 1
            death = p.get("death")
            if isinstance(death, dict):
                if death.get("round") is None:
                    self.issue(f"Death round is not set for player {seat}.")
                elif death["round"] >= 0:
                    limit = death["round"] + 1
                    for key, what in (("nominating", "nominating"), ("voting", "voting for"),
                                      ("shooting", "shooting")):
                        if len(_seq(p.get(key))) > limit:
                            self.issue(f"Player {seat} is {what} someone after he/she is dead.")
            if "legacy" in p:
                if isinstance(death, dict):
                    if death.get("type") not in (None, "night"):
                        self.issue(f"Player {seat} was not killed in night. he/she can not leave "
                                   f"legacy.")
                    if _num(death.get("round")) and death["round"] > 1:
                        self.issue(f"Player {seat} was killed in round {death['round']} he/she can "
                                   f"not leave legacy.")
                else:
                    self.issue(f"Player {seat} has to be dead to leave a legacy.")
            if "shooting" in p and role in ("civ", "sheriff"):
                self.issue(f"Player {seat} can not shoot because he/she is red.")
        for role, want in (("civ", 6), ("sheriff", 1), ("maf", 2), ("don", 1)):
            if counts[role] != want:
                self.issue(f"This game has {counts[role]} {role}s. Must be {want}.")
        return True

    def check_deaths(self) -> bool:
        if "d" not in self.features:
            return True
        for i, p in enumerate(self.players):
            seat, death = i + 1, p.get("death")
            if not isinstance(death, dict):
                continue
            kind, rnd, time = death.get("type"), death.get("round", -1), death.get("time")
            if kind is None and "t" in self.features:
                self.issue(f"Death type is not set for player {seat}.")
            if (rnd is None or rnd < 0) and "u" in self.features:
                self.issue(f"Death round is not set for player {seat}.")
            if kind in ("giveUp", "kickOut", "teamKickOut"):
                if time is not None:
                    problem = gametime_problem(time)
                    if problem:
                        self.issue(f"Player {seat} death time is incorect: {problem}")
                elif "c" in self.features:
                    self.issue(f"Death time is not set for player {seat}.")
            elif kind == "night":
                if rnd == 0:
                    self.issue(f"Player {seat} was shot in night 0. This is not possible.")
                elif _num(rnd) and rnd > 0 and "h" in self.features:
                    self._check_shooters(seat, rnd)
            elif kind == "day":
                voting = self.votings[rnd] if _num(rnd) and 0 <= rnd < len(self.votings) else None
                if voting is not None:
                    if voting.get("killed"):
                        winner = voting.get("winner")
                        winners = winner if isinstance(winner, list) else [winner]
                        if winner is not None and seat not in winners:
                            self.issue(f"Player {seat} is specified as voted out in round {rnd}. But "
                                       f"accordiong to the voting info, another player was voted out.")
                    elif "v" in self.features:
                        self.issue(f"Player {seat} is specified as voted out in round {rnd}. But "
                                   f"accordiong to the voting info, no one was voted out in this round.")
            elif kind not in (None, "warnings", "techFouls"):
                self.issue(f'Player {seat} has invalid death type "{kind}".')
        return True

    def _check_shooters(self, victim: int, rnd: int) -> None:
        """Every black still alive after the shooting of night ``rnd`` shot its victim."""
        shooting_time = {"time": "shooting", "round": rnd}
        for shooter in range(1, 11):
            if not self.is_black(shooter):
                continue
            if self.compare(shooting_time, self.death_time(shooter)) >= 0:
                continue
            shots = self.player(shooter).get("shooting")
            if not isinstance(shots, list):
                self.issue(f"Shooting is not set for player {shooter}.")
            elif len(shots) < rnd:
                self.issue(f"No shooting for player {shooter} in round {rnd}.")
            elif shots[rnd - 1] != victim:
                self.issue(f"Wrong shooting to player {victim} in round {rnd} for player {shooter}. "
                           f"Because player {victim}was shot in night {rnd}.")

    def check_nominations(self) -> bool:
        if "n" not in self.features:
            return True
        for i, p in enumerate(self.players):
            seat, noms = i + 1, p.get("nominating")
            if not isinstance(noms, list):
                continue
            death = self.death_time(seat, True)
            speech = {"round": len(noms) - 1, "time": "speaking", "speaker": seat}
            if death is not None and speech["round"] >= 0 and self.compare(death, speech) < 0 \
                    and (self.after_2014 or death.get("time") != "night kill speaking"):
                self.issue(f"Player {seat} was dead when they nominated player "
                           f"{noms[speech['round']]} in round {speech['round']}.")
            for rnd, nominee in enumerate(noms):
                if nominee is None:
                    continue
                when = {"round": rnd, "time": "speaking", "speaker": seat}
                gone = self.death_time(nominee) if _num(nominee) and 1 <= nominee <= 10 else None
                if gone is not None and self.compare(gone, when) < 0:
                    self.issue(f"Player {seat} nominated dead player {nominee} in round {rnd}.")
        return True

    def check_shooting(self) -> bool:
        if "h" not in self.features:
            return True
        for i, p in enumerate(self.players):
            seat, shots = i + 1, p.get("shooting")
            if not isinstance(shots, list):
                continue
            if not self.is_black(seat):
                self.issue(f"Player {seat} is not mafia but they were shooting .")
            death = self.death_time(seat)
            # The site dates a player's last shot to round len-1, one round early; followed here.
            when = {"time": "shooting", "round": len(shots) - 1}
            if death is not None and when["round"] >= 0 and self.compare(death, when) < 0:
                self.issue(f"Player {seat} was dead when they shot player {shots[-1]} in round "
                           f"{when['round']}.")
        return True

    def check_voting(self) -> bool:
        if "v" not in self.features:
            return True
        for i, p in enumerate(self.players):
            seat = i + 1
            death = self.death_time(seat, True)
            # One game time the site reuses and changes along the way, as its code does.
            when: dict[str, Any] = {"time": "voting", "votingRound": 0, "round": 0}
            votes = _seq(p.get("voting"))
            while death is not None and self.compare(death, when) >= 0:
                rnd = when["round"]
                vote = votes[rnd] if rnd < len(votes) else None
                if vote is not None:
                    when["votingRound"] = 0
                    ballots = vote if isinstance(vote, list) else [vote]
                    for k, target in enumerate(ballots):
                        if isinstance(vote, list):
                            when["votingRound"] = k
                        if _num(target) and not self._check_vote(seat, death, int(target), when):
                            return False
                    if isinstance(vote, list):
                        when["votingRound"] = len(vote)
                elif rnd < len(self.votings) and self.canceled(rnd) == NO:
                    count = len(self.nominees(rnd, 0))
                    if count > 0 and (rnd > 0 or count > 1):
                        self.issue(f"Player {seat} did not vote in round {rnd}. Although they were "
                                   f"alive and voting was not canceled.")
                when["round"] = rnd + 1
        if "d" in self.features:
            self._check_voted_out()
        return True

    def _check_vote(self, voter: int, voter_death: dict[str, Any], nominee: int,
                    when: dict[str, Any]) -> bool:
        """``check_vote``. A vote in a cancelled round stops the whole voting check without an
        issue (the site's function returns nothing there, which its caller reads as failure)."""
        if self.canceled(when["round"]) == YES:
            return False
        when["nominee"] = nominee
        rnd = when["round"]
        if self.compare(voter_death, when) < 0:
            self.issue(f"Player {voter} was dead when they were voting for {nominee} in round {rnd}.")
        gone = self.death_time(nominee) if 1 <= nominee <= 10 else None
        if gone is not None and self.compare(gone, when) < 0:
            self.issue(f"Player {voter} voted for dead player {nominee} in round {rnd}.")
        if "n" in self.features and not any(_nominated(p, rnd) == nominee for p in self.players):
            self.issue(f"Player {voter} voted for player {nominee}, who is not nominated in round "
                       f"{rnd}.")
        return True

    def _check_voted_out(self) -> None:
        for rnd, voting in enumerate(self.votings):
            if voting.get("canceled") or "winner" not in voting:
                continue
            winner = voting["winner"]
            if isinstance(winner, list):
                if voting.get("killed"):
                    for seat in winner:
                        self._voted_out(seat, rnd)
                continue
            if voting.get("killed"):
                self._voted_out(winner, rnd)
                continue
            check = rnd != 0
            if not check:
                rule = self.rule(4)
                if rule == 0:
                    check = True
                elif rule == 3:  # 7.16 self-break: he leaves by his own last vote of the day
                    own = _seq(self.player(winner).get("voting"))
                    vote = own[rnd] if rnd < len(own) else None
                    if isinstance(vote, list):
                        vote = vote[-1] if vote else None
                    check = vote == winner
            if check:
                death = self.player(winner).get("death")
                if not isinstance(death, dict) or death.get("round") != rnd \
                        or death.get("type") in ("day", "night"):
                    self.issue(f"Player {winner} was voted out in round {rnd} but did not die.")

    def _voted_out(self, seat: int, rnd: int) -> None:
        death = self.player(seat).get("death")
        if death is None:
            self.issue(f"Player was voted out in round {rnd} but is not dead.")
        elif isinstance(death, dict):
            if death.get("round") != rnd:
                self.issue(f"Player was voted out in round {rnd} but was dead in round "
                           f"{death.get('round')}.")
            if death.get("type") == "night":
                self.issue(f"Player was voted out in round {rnd} but was dead by night.")

    def check_penalties(self, key: str, most: int, what: str) -> bool:
        """``check_warnings`` / ``check_tech_fouls`` with details: at most ``most``, each at a
        well-formed game time. (With details the site counts none, so its checks against the
        death never run.)"""
        if "w" not in self.features:
            return True
        for i, p in enumerate(self.players):
            given = p.get(key)
            if given is None or "r" not in self.features:
                continue
            seat = i + 1
            if not isinstance(given, list):
                self.issue(f"Player {seat} {key} is not an array.")
                continue
            if len(given) > most:
                self.issue(f"Player {seat} has {len(given)} {what}.")
            for j, time in enumerate(given):
                problem = gametime_problem(time)
                if problem:
                    self.issue(f"Player {seat} {what[:-1]} {j + 1} is incorect: {problem}")
                    break
        return True

    def check(self) -> list[str]:
        steps = (self.check_result, self.check_deaths, self.check_nominations, self.check_shooting,
                 self.check_voting, lambda: self.check_penalties("warnings", 4, "warnings"),
                 lambda: self.check_penalties("techFouls", 2, "tech fouls"))
        for step in steps:
            if not step():
                break
        return self.issues


def _nominated(player: dict[str, Any], rnd: int) -> int | None:
    noms = _seq(player.get("nominating"))
    n = noms[rnd] if rnd < len(noms) else None
    return int(n) if _num(n) and 1 <= n <= 10 else None


def _nominee_entry(nominees: list[dict[str, Any]], vote: Any) -> dict[str, Any]:
    for nom in nominees:
        if nom["nominee"] == vote:
            return nom
    nom = {"nominee": vote}
    nominees.append(nom)
    return nom


def _next_key(hands: dict[int, Any]) -> int:
    """The key PHP gives an appended element: one past the highest."""
    return max(hands) + 1 if hands else 0


def _last_hands(nom: dict[str, Any]) -> tuple[int, Any]:
    """(how many voting rounds a nominee has hands in, the hands of the last one) as the site
    reads them: the element at key count-1, which may be missing."""
    hands = nom.get("hands") or {}
    count = len(hands)
    return count, hands.get(count - 1)


def gametime_problem(time: Any) -> str | None:
    """``check_gametime``: what is wrong with a game time, or ``None``."""
    if not isinstance(time, dict):
        return "round must be set."
    if time.get("round") is None:
        return "round must be set."
    if not _num(time["round"]) or time["round"] < 0:
        return "incorrect round - it must a number greater than 0."
    kind = time.get("time")
    if kind is None:
        return "time must be set."
    if kind in _TIMES_WITHOUT_DETAILS:
        return None
    if kind == "voting kill all":
        return None if time.get("votingRound") is not None else "votingRound must be set."
    if kind == "voting":
        vr = time.get("votingRound")
        if vr is None:
            return "votingRound must be set."
        if not _num(vr) or vr < 0:
            return "incorrect votingRound - it must a number greater than 0."
        for key in ("speaker", "nominee"):
            if time.get(key) is not None and not (_num(time[key]) and 1 <= time[key] <= 10):
                return f'incorect {key} "{time[key]}" - it must be a number from 1 to 10.'
        return None
    if kind in ("speaking", "day kill speaking"):
        speaker = time.get("speaker")
        if speaker is None:
            return 'speaker must be set when time is "speaking".'
        if not (_num(speaker) and 1 <= speaker <= 10):
            return f'incorect speaker "{speaker}" - it must be a number from 1 to 10.'
        return None
    return f'incorrect time "{kind}".'


def site_issues(record: dict[str, Any]) -> list[str]:
    """The issues MafiaRatings' ``Game::check`` would note in ``record`` (a game in the site's
    JSON layout, ten players), in the site's words; ``[]`` when it takes the game as it is.
    Raises ``ValueError`` when the record has no list of ten players (the site refuses it)."""
    players = record.get("players") if isinstance(record, dict) else None
    if not isinstance(players, list) or len(players) != 10 \
            or not all(isinstance(p, dict) for p in players):
        raise ValueError("a MafiaRatings game has a list of 10 players")
    return _Game(record).check()
