"""Setback's words in the shared commands' help and the web server (`registry.words`): plain
text, importing nothing, so `--help` names the game without loading it."""

TITLE = "Setback"
GAME = "a Setback game to 11"
GOAL = "games to 11"
RULES = ""  # the house rules are the registry's description: to 11, no smudge

# the commands that are Setback's alone (`cli.arguments.add_game_option` refuses another game),
# each with why
COMMANDS = {
    "census": "it walks the abstract Setback deal; a Euchre run's info sets are counted by "
              "`train status`",
    "solve-deal": "the exact solver is Setback's",
    "inference": "the beliefs over Setback's hidden hands",
    "quickstart": "for another game run its steps: `train baseline --game GAME`, `export`, "
                  "`db load`, `tournament --game GAME`",
    "learn generate": "the learned evaluator of Setback's auction",
    "learn train": "the learned evaluator of Setback's auction",
    "learn evaluate": "the learned evaluator of Setback's auction",
    "learn belief": "the games whose card-location features are built",
}

# replay: the deal FILE holds and what is printed (laid out by hand, as `--help` shows it)
REPLAY = """FILE holds {"dealer": "S", "hands": {"W": [6 cards], "N": [...], "E": [...],
"S": [...]}, "moves": ["3", "P", "P", "P", "AS", ...]}. Cards are rank+suit (AS, TH, 10H,
case-insensitive); bids are P, 2, 3, 4; the moves may stop anywhere in the deal.

Output: {"decisions": [{"seat", "phase", "legal", "move", "key", "actions"}...], "tricks":
[{"leader", "cards", "winner"}...], "next": {"seat", "phase", "legal", "key", "actions"} or
null, and, once the deal is over, "points": {"high", "low", "jack", "game"} and "deal_score":
{"EW", "NS"}}. "key" is the abstraction's baseline info-set key (null for a forced move) and
"actions" its abstract actions in canonical order with the card or bid each plays
([{"action": "Tx", "move": "7S"}, ...]). With "score": {"EW": a, "NS": b} in the input,
every bid also gets its score-aware "bootstrap_key". Bad input (a bad or
duplicate card, a wrong hand size, an illegal move) exits with status 2 and one line on stderr."""

# solve-deal: the deal it solves and what it prints (laid out by hand)
SOLVE_DEAL = """Solve a Setback deal with all four hands known and print each legal move's value.

FILE (or - for stdin) is `replay` JSON: {"dealer": "S", "hands": {"W": [6 cards], ...},
"moves": ["3", "P", "P", "P", "AS", ...]} whose auction is complete and whose deal is not over.
A move's value is the deal's final score with the rest played perfectly by both teams, from the
bidder's team's side: its deal score minus the other team's, setback included.

Output: one line per legal move (`AS  +1`), best first for the side to move; with --json one
object {"to_move": "E", "bidder_team": "NS", "values": {"AS": 1, "2C": -3}}."""

# census: what it walks (its one-line help, then its description, laid out by hand)
CENSUS = ("count the distinct info sets of the abstract Setback game over N random deals",
          """\
Walk the full abstract game tree of N random deals, exactly as the trainer does (every
abstract action at every decision, forced moves played, each deal stopped once its score is
settled), and report the distinct info sets seen by kind: baseline auction, establish-trump,
playout. Deals are drawn from --seed the way the trainer draws them.
""")

# serve: what the page shows, and the bots it takes (the quickstart's database is the default)
SERVE_TABLE = ("games to 11: the auction, the tricks, the cards won, each deal's points and "
               "the score, and on demand the bots' reasoning: the info-set key, the "
               "abstract actions and their probabilities")
SERVE_BOTS = ("any Setback player but the oracle: random, heuristic, db:PATH or "
              "strategy:PATH[,PATH...], search[OPTIONS]:POLICY (rollout search on a blueprint; "
              "think=MS bounds each decision, and the Why panel shows each move's searched "
              "value), ...")

# decide (and POST /api/decide): the position it reads, and the players that decide it
DECIDE = """\
FILE (or - for stdin) is one seat's position: the replay JSON of the deal so far with only the
hand of the seat to act, as dealt, e.g.
  {"dealer": "S", "score": {"EW": 9, "NS": 8},
   "hands": {"E": ["AH", "TS", "6H", "2C", "JD", "QS"]},
   "moves": ["3", "P", "P", "P", "AS", "4S"]}
("score", the game score before the deal, defaults to 0-0). The seat to act follows from the
dealer and the moves; the other hands stay hidden."""
DECIDE_BOTS = ("random, heuristic, db:PATH, strategy:PATH[,PATH...], pimc[:W], "
               "search[OPTIONS]:POLICY ... (default: serve's, db:quickstart-run/strategy.db if it "
               "exists, else heuristic)")

# db load: what it keeps of the stages' strategy files
DB_LOAD = ("From a baseline strategy: its playout, establish-trump and auction keys; from a "
           "bootstrap strategy: its score-aware auction keys (players prefer those when bidding "
           "with a known score)")

# the players its grammar takes (`games/setback/play/grammar.py`'s SPEC_HELP; `{players}` in
# TOURNAMENT and RATING)
PLAYERS = ("random, heuristic, db:PATH (a strategy database), strategy:PATH[,PATH...], "
           "pimc[:WORLDS][,tables=FILE], pimc-pi[:WORLDS]:POLICY[,tables=FILE], "
           "sds[:W][,play=SPEC] (the SDS bidder), nn:MODEL[,made=P][,expected][,play=SPEC] "
           "(the learned bidder), net:FILE[,sample] (the policy network of train distill), "
           "search[OPTIONS]:POLICY (rollout search on a db:, strategy: or net: "
           "blueprint; OPTIONS worlds=W,rollout=,bids=,margin=,think=MS,threads=,voids=), "
           "db:PATH,gaps=BIDDER (the database's missing auction keys "
           "bid by BIDDER), db:FINE,backoff=db:COARSE (a fine layout's database playing "
           "the coarse database's key where its own is missing), ismcts[:SIMS] "
           "(OpenSpiel's ISMCTS bot), trickster:pitch (Trickster Cards' Pitch bot, from the "
           "TricksterBots checkout named by TRICKSTER_BOTS, run with Mono), each "
           "optionally followed by ,bid=SPEC (bid like SPEC, "
           "play the cards as the first; bid= comes last); oracle[,bid=SPEC] SEES EVERY "
           "HAND (double-dummy on the true deal, bids like SPEC, default heuristic): a "
           "ceiling for tournament and rating only")

# tournament: the games played, the players (`{players}`: PLAYERS), the report
TOURNAMENT = ("games to 11, and the report adds points per deal, bids made and set, and a PNG "
              "summary (--png, needs the `plot` extra). PLAYER is {players}; db:PATH is a "
              "database from `{program} db load`, strategy: reads exported strategy files into "
              "memory, and PLAYER,bid=SPEC bids (the auction only) like SPEC and plays the cards, "
              "the pitch included, like PLAYER")
RATING = "games to 11 of Setback players: PLAYER is {players}"

# simulate: what its random games show
SIMULATE = ("games to 11 (dealer rotation from South, the tie rule), printing games/s, deals per "
            "game, the share of all-pass deals and how often each point is scored. Random bidders "
            "overbid, so both teams' scores drift down and some games would never end: a game "
            "still undecided after --max-deals deals is abandoned and counted")

# exploit: LBR's target
EXPLOIT = ("a table db:PATH (Setback), or a Setback policy network net:FILE[,sample] (`train "
           "distill`), modelled by its own probabilities")
NET = True  # its players include a policy network (`net:FILE`, `train distill`)

# learn belief: the card-location model's words (who "nobody" is, the players its data can
# come from, the positions a game gives)
BELIEF = {"nobody": "never dealt", "players": "db:PATH, search:db:PATH, heuristic, random, ...",
          "positions": 140}
