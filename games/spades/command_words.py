"""Spades' words in the shared commands' help and the web server (`registry.words`): plain
text, importing nothing, so `--help` names the game without loading it."""

TITLE = "Spades"
GAME = "a Spades game to 500"
GOAL = "games to 500"
RULES = "as OpenSpiel's spades"
HANDS = True  # the tournament's single hands (--hands)
ALWAYS_ENDS = True  # the mercy rule: --max-deals is not for it

# replay: the deal FILE holds and what is printed (laid out by hand, as `--help` shows it)
REPLAY = """FILE holds {"dealer": "W", "hands": {"W": [13 cards], "N": [...], "E": [...],
"S": [...]}, "moves": ["3", "Nil", "4", "2", "KH", ...]}: cards 2..9 T J Q K A of C D H S;
the seat left of the dealer bids first and leads the first trick; a bid is Nil or 1..13 (at
most 13 less the partner's bid); then the cards (follow suit if you can; lead a spade only
from a hand of spades: OpenSpiel never breaks spades). The rules, the scores and the order of
decisions are OpenSpiel 2.0.2's spades with its defaults (its North bids first: its dealer is
West). "score": {"NS": a, "EW": b}, the game score before the hand, sets the bags a team
carries (the last digit, as OpenSpiel reads it). Output: "decisions" (seat, phase: bid, lead
or follow; legal, in OpenSpiel's order: cards by suit then rank, then Nil, 1..13; move),
"tricks", "next", and once the hand is over "bids", "tricks_won" by seat and "points": {"NS":
a, "EW": b}, OpenSpiel's returns (and with "score", the game score after the hand)."""

SERVE_TABLE = ("games to 500: the bids (Nil, 1..13), the teams' contracts, the tricks each seat "
               "took, the bags, each hand's points; POST /api/decide takes a Spades position")
SERVE_BOTS = ("any Spades player of `tournament --game spades` but the oracle (random, heuristic, "
              "the default, ismcts[:SIMS],pyspiel, ...)")

DECIDE = """With --game spades the position is a Spades hand so far: the seat to act's 13 cards
as dealt, the bids (Nil, 1..13) then the cards, and "score" the game score before the hand (its
bags)."""
DECIDE_BOTS = "a Spades player of `tournament --game spades` (default heuristic)"

TOURNAMENT = ("games to 500 with the mercy rule (games/spades/match.py) between Spades players: "
              "random, heuristic (games/spades/play/heuristic.py), db:PATH (a database of a "
              "Spades export), search[OPTIONS]:heuristic|db:PATH, ismcts[:SIMS],pyspiel "
              "(OpenSpiel's ISMCTS bot searching pyspiel's spades) or oracle[,bid=SPEC] (SEES "
              "EVERY HAND)")
RATING = ("games to 500 (the mercy rule on) of Spades players (as `tournament --game spades`, "
          "games/spades/play/tournament.py): random, heuristic, db:PATH (a database of a Spades "
          "export), search[OPTIONS]:heuristic|db:PATH, ismcts[:SIMS],pyspiel or "
          "oracle[,bid=SPEC] (SEES EVERY HAND)")
# train baseline --game spades: what its run is (after its title)
TRAIN = ("trains its own abstraction (games/spades/abstraction/keys.py, spades-basic) with the "
         "same runner: batches, workers, checkpoints, resume, --for, --eval-every (duplicate "
         "games to 500 of the live table's Spades database player against --eval-against, a "
         "Spades player); not --abstraction, --warm-start or --updates reference")
SIMULATE_NOTE = "tournament --game spades plays its random players"  # it has no simulation yet
