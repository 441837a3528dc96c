"""What Spades declares to the bid tables (`cli/bid_tables.py`, `play/bid_table_file.py`): the
module of its tables (counting a population's bids in context, the held-out measure, showing a
context, the world weights its search reads), its version-1 file header, and the command's
options and help that are its own. Plain data: the command reads it for its help without
importing the tables."""

MODEL = "games.spades.play.bid_data"
V1_MAGIC = "setback-cfr/spades-bid-tables"  # its files before the format was every game's
BIDDERS = "SPEC[,SPEC...]"
BIDDERS_HELP = ("a population SPEC[,SPEC...] of Spades players (heuristic, ismcts[:SIMS],"
                "pyspiel, db:PATH, random)")
SEQUENCE_HELP = ("the bids before the bidder in auction order, as 3,Nil (default: none, the "
                 "first bidder)")
BUILD_OPTIONS = {
    "heldout": {"type": "count", "metavar": "M",
                "help": "deals after the N counted, held out to measure the tables' log-loss "
                        "against uniform (default 1000; 0: none)"},
    "tricks": {"action": "store_true",
               "help": "play every deal out and count the bidder's tricks taken too (slower)"},
}
SHOW_OPTIONS = {}
HELP = """Spades: deal N seeded deals (at 0 to 0) whose auctions are bid by the population
--bidders (SPEC[,SPEC...]: the dealer's team and the other take every ordered pairing), and count
for every bid in its context (place in the bidding, partner's bid, opponents' bids' sum) the
bidder's spade count, spade honours, side aces and kings, voids (and with --tricks, the hand
played out, its tricks taken), smoothed with a prior worth --prior positions; the next
--heldout deals measure the tables' log-loss of the bidders' features against uniform from
every observer seat (docs/games/spades.md). --show FILE prints, for the bids before a bidder
(--sequence, in auction order, e.g. 3,Nil; empty for the first bidder), what each bid says."""
