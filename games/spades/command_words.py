"""Spades' words in the shared commands' help and the web server (`registry.words`): plain
text, importing nothing, so `--help` names the game without loading it."""

TITLE = "Spades"
GAME = "a Spades game to 500"
GOAL = "games to 500"
RULES = "as OpenSpiel's spades"
HANDS = True  # the tournament's single hands (--hands)
ALWAYS_ENDS = True  # the mercy rule: --max-deals is not for it

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
SIMULATE_NOTE = "tournament --game spades plays its random players"  # it has no simulation yet
