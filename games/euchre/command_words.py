"""Euchre's words in the shared commands' help and the web server (`registry.words`): plain
text, importing nothing, so `--help` names the game without loading it."""

TITLE = "Euchre"
GAME = "a Euchre game to 10"
GOAL = "games to 10"
RULES = "as OpenSpiel's euchre with stick the dealer"
HANDS = True  # the tournament's single hands (--hands)
ALWAYS_ENDS = True  # --max-deals is not for it

# the commands that only some games have (`cli.arguments.add_game_option`), with why
COMMANDS = {"learn belief": "the games whose card-location features are built"}

# replay: the deal FILE holds and what is printed (laid out by hand, as `--help` shows it)
REPLAY = """FILE holds {"dealer": "N", "hands": {"W": [5 cards], "N": [...], "E": [...],
"S": [...]}, "upcard": "JD", "moves": ["P", "D", "9C", "partner", "AS", ...]}: cards 9 T J Q K A
of C D H S; P passes; a suit letter orders up (first round: only the upcard's suit) or names
trump (second round: another suit); after an order-up the dealer discards a card; the maker
answers alone or partner; then the cards. The rules and the order of decisions are OpenSpiel
2.0.2's euchre with its defaults (stick the dealer: the dealer may not pass last; add
"stick_the_dealer": false to switch it off; no lone defender). Output: "decisions" (seat,
phase: order, name, discard, alone, lead or follow; legal, in canonical order: cards by suit
then rank, P, C D H S, alone, partner; move), "tricks", "next", and once the hand is over
"contract" {"trump", "maker", "alone"}, "tricks_won" and "points": {"NS": a, "EW": b} (the
side that scores gets 1, 2 or 4, the other 0)."""

SERVE_TABLE = ("games to 10: the upcard, the two rounds of naming trump (the dealer is stuck in "
               "the second), the dealer's discard, going alone, the tricks and each hand's points; "
               "POST /api/decide takes a Euchre position")
SERVE_BOTS = ("random, heuristic (the default), db:PATH[,sample] (a database of a Euchre "
              "export), ismcts[:SIMS][,pyspiel] or search[OPTIONS]:POLICY (its Why panel too "
              "shows each move's searched value)")

DECIDE = """With --game euchre the position is a Euchre hand so far: "upcard" (the card turned
up, required), the seat to act's 5 cards as dealt (the dealer's before it picks the upcard up),
the calls (P, suit letters), the dealer's discard ("?" unless the dealer is the seat to act:
only the dealer sees it), alone or partner, then the cards; "score" the game score before the
hand (0 to 9, default 0-0)."""
DECIDE_BOTS = ("a Euchre player of `tournament --game euchre` but the oracle (default heuristic; "
               "db:PATH, net:FILE, search[OPTIONS]:POLICY, ...)")

TOURNAMENT = ("games to 10 (games/euchre/match.py) between Euchre players: random, heuristic "
              "(games/euchre/play/heuristic.py), db:PATH[,sample] (a database of a Euchre "
              "export), ismcts[:SIMS][,pyspiel], search[OPTIONS]:db:PATH (rollout search on "
              "the database), net:FILE[,sample] (a policy network of train distill), "
              "search[OPTIONS]:net:FILE (rollout search on the network) or oracle[,bid=SPEC] "
              "(SEES EVERY HAND: double-dummy card play on the true deal, a ceiling)")
RATING = ("games to 10 of Euchre players (as `tournament --game euchre`, "
          "games/euchre/play/tournament.py): PLAYER is random, heuristic, db:PATH[,sample] (a "
          "database of a Euchre export), ismcts[:SIMS][,pyspiel] (,pyspiel: searching "
          "OpenSpiel's own C++ euchre), net:FILE[,sample] (a policy network of train "
          "distill) or search[OPTIONS]:POLICY (rollout search on a Euchre database or "
          "network), or oracle[,bid=SPEC] (SEES EVERY HAND: double-dummy card play on the true "
          "deal, a ceiling)")

# train baseline --game euchre: what its run is (after its title)
TRAIN = ("trains its own abstraction (games/euchre/abstraction/keys.py) with the same runner: "
         "batches, workers, checkpoints, resume, --for, --ray, --eval-every (duplicate games to "
         "10 of the live table's Euchre database player against --eval-against, a Euchre "
         "player: random, heuristic, db:PATH or ismcts[:SIMS]); not --abstraction or --updates "
         "reference")

SIMULATE = ("games to 10 (stick the dealer) between random players through the numba engine "
            "(games/euchre/simulate.py), printing games/s, hands/s, hands per game, EW's wins, "
            "how trump was made (round 1, round 2, the stuck dealer), alone hands, the makers' "
            "results (-2 euchred, 1, 2, 4) and points a hand")
SIMULATE_STICK = ("the dealer may pass in the second round: a hand where all four pass twice is "
                  "not played (counted)")

EXPLOIT = ("a database of a Euchre export, db:PATH, or a Euchre policy network net:FILE[,sample] "
           "(`train distill --game euchre`), modelled by its own probabilities")
NET = True  # its players include a policy network (`net:FILE`, `train distill`)

# learn belief: the card-location model's words (who "nobody" is, the players its data can
# come from, the positions a game gives)
BELIEF = {"nobody": "the kitty",
          "players": "heuristic, db:PATH, search[OPTIONS]:db:PATH, ismcts, random",
          "positions": 300}
