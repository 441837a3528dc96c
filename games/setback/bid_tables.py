"""What Setback declares to the bid tables (`cli/bid_tables.py`, `play/bid_table_file.py`): the
module of its tables (counting its auctions and pitches, showing a sequence, the belief its
PIMC search reads), its version-1 file header, and the command's options and help that are its
own. Plain data: the command reads it for its help without importing the tables."""

MODEL = "games.setback.play.bid_tables"
V1_MAGIC = "setback-cfr/bid-tables"  # its files before the format was every game's
BIDDERS = "PLAYER"
BIDDERS_HELP = ("the player bidding (and pitching) at all four seats: heuristic (compiled, "
                "fast), db:PATH, strategy:PATH[,PATH...] or random")
SEQUENCE_HELP = "the sequence, as P,2,P,3 (default: the most frequent sequence with a bidder)"
BUILD_OPTIONS = {}
SHOW_OPTIONS = {
    "pitch": {"metavar": "RANK", "help": "with --show: the pitch rank (2-9, T, J, Q, K, A; "
              "default: averaged over the pitches seen)"},
    "png": {"metavar": "PATH",
            "help": "with --show: also write a heatmap of the sequence to PATH (*.png)"},
}
HELP = """Setback: deal N seeded random deals, bid each by PLAYER at all four seats (at game score
0-0), let the high bidder pitch (which fixes trump), and count for every bid sequence how often
each seat (relative to the bidder) held each card: before the pitch by suit-strength order and
rank, after it relative to trump (trump ranks, off-suit ranks) and pitch rank. Counts and
smoothed probabilities (a prior worth --prior deals towards the next coarser context: sequence
-> bidder's seat and bid -> bid -> all deals -> uniform) go to --out. `heuristic` bidders run
compiled; any other player (db:PATH, strategy:PATH, random) is asked through Python, one
decision at a time. --show FILE prints, for one sequence, each seat's probability of holding
each trump rank and its expected trump length, and with --png writes a heatmap (rows: seats,
columns: cards). Sequences are the four bids in auction order, dealer's left first and dealer
last, each P (or 0), 2, 3 or 4: e.g. P,2,P,3."""
