"""An independent, deliberately plain Python statement of the Setback rules, for tests only.

It shares no code with `games/setback` (cards are (rank, suit) tuples, seats are relative to the
dealer), so agreement between the two is evidence rather than a tautology.
"""

RANKS = "23456789TJQKA"
SUITS = "CDHS"
GAME_POINTS = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}


def card(text):
    return RANKS.index(text[0]) + 2, SUITS.index(text[1])


def legal_bids(bids, seat):
    high = max([b for b in bids if b] + [0])
    options = [0] + [b for b in (2, 3, 4) if b > high]
    if high == 4 and seat == 0:
        options.append(4)
    return sorted(set(options))


def legal_cards(hand, trick, trump):
    if not trick:
        return sorted(hand)
    led = trick[0][1]
    follow = [c for c in hand if c[1] == led]
    if not follow:
        return sorted(hand)
    return sorted(c for c in hand if c[1] == led or c[1] == trump)


def trick_winner(trick, trump):
    """Position (from the leader) of the winning card."""
    trumps = [i for i, c in enumerate(trick) if c[1] == trump]
    pool = trumps or [i for i, c in enumerate(trick) if c[1] == trick[0][1]]
    return max(pool, key=lambda i: trick[i][0])


def score_deal(dealt, captured, trump, bid, bidder):
    """Points owners (team or None) and each team's deal score; dealt/captured by seat/team."""
    trumps = [(c, seat) for seat, hand in enumerate(dealt) for c in hand if c[1] == trump]
    top = max(trumps)
    low = min(trumps)
    owner = lambda c: next((t for t in (0, 1) if c in captured[t]), None)  # noqa: E731
    jack = (11, trump)
    points = {
        "high": top[1] % 2,
        "low": owner(low[0]),
        "jack": owner(jack),
    }
    gp = [sum(GAME_POINTS.get(RANKS[r - 2], 0) for r, _ in captured[t]) for t in (0, 1)]
    points["game"] = None if gp[0] == gp[1] else (0 if gp[0] > gp[1] else 1)
    score = [sum(1 for v in points.values() if v == t) for t in (0, 1)]
    if score[bidder % 2] < bid:
        score[bidder % 2] = -bid
    return points, score
