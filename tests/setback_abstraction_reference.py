"""A slow, literal Python reading of abstraction.md, building the key strings directly.

Independent of the numba kernels (it shares only the state layout): the tests compare the
kernels + codec against it on random deals. Nothing here is fast or clever on purpose.
"""

from __future__ import annotations

from games.setback import state as S
from games.setback.rules import legal_bids, legal_cards

RANKS = "23456789TJQKA"
GP = {10: 10, 11: 1, 12: 2, 13: 3, 14: 4}


def cards(mask):
    mask = int(mask)
    return [c for c in range(52) if mask >> c & 1]


def rank(c):
    return c % 13 + 2


def suit(c):
    return c // 13


def gp(c):
    return GP.get(rank(c), 0)


def rch(r):
    return RANKS[r - 2]


def suit_ranks(hand, s):
    return sorted((rank(c) for c in cards(hand) if suit(c) == s), reverse=True)


def top_suits(hand):
    suits = []
    for c in sorted(cards(hand), key=lambda c: (rank(c), suit(c))):  # order of lowest card
        if suit(c) not in suits:
            suits.append(suit(c))
    strength = {s: sum(r - 1 for r in suit_ranks(hand, s)) for s in suits}
    # stable sorts: lexicographic ranks (higher first; prefix smaller), then strength
    suits.sort(key=lambda s: suit_ranks(hand, s), reverse=True)
    suits.sort(key=lambda s: strength[s], reverse=True)
    top = [suits[0]]
    if len(suits) > 1:
        s0, s1 = suits[0], suits[1]
        if strength[s0] - strength[s1] < 2 and suit_ranks(hand, s0) != suit_ranks(hand, s1):
            top.append(s1)
    return top


def field(hand, s):
    if s is None:
        return "......"
    ranks = suit_ranks(hand, s)
    out = "".join(rch(r) if (r >= 10 or i == len(ranks) - 1) else "x" for i, r in enumerate(ranks))
    return out.ljust(6, ".")


def hand_code(hand):
    top = top_suits(hand)
    return field(hand, top[0]) + field(hand, top[1] if len(top) > 1 else None)


def trim(buf):
    return buf.ljust(24, ".").rstrip(".")


def auction(state):
    seat = int(state[S.TO_ACT])
    hand = int(state[S.HAND + seat])
    bids = [b for b in (0, 2, 3, 4) if legal_bids(state) >> b & 1]
    jack = any(hand >> (s * 13 + 9) & 1 for s in top_suits(hand))
    if not jack:
        bids = [b for b in bids if b != 4]
    high = int(state[S.HIGH_BID])
    c0 = "D" if (high == 4 and seat == 0) else str(high)
    names = ["P" if b == 0 else str(b) for b in bids]
    key = trim(c0 + hand_code(hand)) if len(bids) >= 2 else None
    return key, names, [52 + b for b in bids]


def bootstrap(state, us, them):
    seat = int(state[S.TO_ACT])
    t = max(us + 1, them + 1, 11)
    need_us, need_them = t - us, t - them
    first = str(need_them) if need_them <= 4 else "x"
    second = "!" if first != "x" and need_us > need_them else "."
    return (f"{first}{second}/{int(state[S.HIGH_BID])}/{int(state[S.HIGH_BIDDER])}/"
            f"{int(state[S.N_BIDS])}/{hand_code(int(state[S.HAND + seat]))}")


def establish_card(hand, s):
    ranks = suit_ranks(hand, s)
    low = min(min(ranks), 4)

    def group(r):
        if r >= 12:
            return 3
        if low < r < 10:
            return 2
        if r == 10:
            return 1
        if r == 11:
            return 0
        return -1

    r = max(ranks, key=lambda r: (group(r), r))
    return s * 13 + r - 2


def establish(state):
    seat = int(state[S.TO_ACT])
    hand = int(state[S.HAND + seat])
    top = top_suits(hand)
    names = ["E0", "E1"][: len(top)]
    moves = [establish_card(hand, s) for s in top]
    key = trim("E" + str(int(state[S.HIGH_BID])) + hand_code(hand)) if len(top) >= 2 else None
    return key, names, moves


def pick(cs, highest):
    """Highest (or lowest) rank; equal ranks go to the lowest suit."""
    if highest:
        return sorted(cs, key=lambda c: (-rank(c), suit(c)))[0]
    return sorted(cs, key=lambda c: (rank(c), suit(c)))[0]


LEAD_ORDER = ["Tx"] + ["T" + r for r in RANKS] + ["S.", "W."]
FOLLOW_ORDER = (["T" + r for r in RANKS] + ["Wx", "Lx"] + ["w" + g for g in "01234T"]
                + ["l" + g for g in "01234T"] + ["N.", "G.", "D."])


def gchar(c):
    return "T" if gp(c) == 10 else str(gp(c))


def playout(state):
    seat = int(state[S.TO_ACT])
    trump = int(state[S.TRUMP])
    hand = int(state[S.HAND + seat])
    dealt_tr = [rank(c) for c in cards(state[S.DEALT + seat]) if suit(c) == trump]
    my_low = min(dealt_tr) if dealt_tr else None
    played_tr = [rank(c) for c in cards(state[S.PLAYED]) if suit(c) == trump]
    low_t = min(played_tr + ([my_low] if my_low else []))
    n_in = int(state[S.N_IN_TRICK])
    classes: dict[str, list[int]] = {}

    def special(c):
        return suit(c) == trump and (gp(c) > 0 or rank(c) == low_t)

    if n_in == 0:
        for c in cards(hand):
            if special(c):
                t = "T" + rch(rank(c))
            elif suit(c) == trump:
                t = "Tx"
            elif rank(c) >= 11:
                t = "S."
            else:
                t = "W."
            classes.setdefault(t, []).append(c)
        rule = {"Tx": True, "S.": True, "W.": False}
        order = LEAD_ORDER
    else:
        trick = [int(state[S.TRICK + i]) for i in range(n_in)]
        led = suit(trick[0])
        h = trick[int(state[S.WINNING])]
        for c in cards(legal_cards(state)):
            if special(c):
                t = "T" + rch(rank(c))
            elif suit(c) == trump:
                wins = suit(h) != trump or rank(c) > rank(h)
                t = "Wx" if wins else "Lx"
            elif suit(c) == led:
                wins = suit(h) == led and rank(c) > rank(h)
                t = ("w" if wins else "l") + gchar(c)
            elif rank(c) == 10:
                t = "N."
            elif rank(c) >= 11:
                t = "G."
            else:
                t = "D."
            classes.setdefault(t, []).append(c)
        rule = {"Wx": True, "Lx": False, "G.": True, "D.": False}
        rule.update({"w" + g: True for g in "01234T"})
        rule.update({"l" + g: False for g in "01234T"})
        order = FOLLOW_ORDER
    names = [t for t in order if t in classes]
    moves = []
    for t in names:
        if t == "N.":
            moves.append(min(classes[t]))  # first Ten in suit order C D H S
        elif len(classes[t]) == 1:
            moves.append(classes[t][0])
        else:
            moves.append(pick(classes[t], rule[t]))
    if len(names) < 2:
        return None, names, moves
    # positions 0..11
    taken = int(state[S.WON]) | int(state[S.WON + 1])
    done = int(state[S.TRICK_NUMBER]) > 0
    k = "H" if done and rank(int(state[S.FIRST_LEAD])) >= 11 else "."
    taken_tr = [rank(c) for c in cards(taken) if suit(c) == trump]
    if not taken_tr:
        k += "."
    else:
        lo = min(taken_tr)
        k += rch(lo) if lo <= min(5, my_low if my_low else 99) else "x"
    k += "J" if taken >> (trump * 13 + 9) & 1 else "."
    mine = sum(gp(c) for c in cards(state[S.WON + seat % 2]))
    theirs = sum(gp(c) for c in cards(state[S.WON + 1 - seat % 2]))
    k += "+" if mine >= theirs else "-"
    voids = 0
    leader = int(state[S.LEADER])
    for p in range(n_in + 1, 4):
        if int(state[S.SHOWN_VOIDS]) >> (4 * ((leader + p) % 4) + trump) & 1:
            voids |= 1 << p
    k += "0123456789ABCDEF"[voids]
    for i in range(3):
        if i < n_in:
            c = int(state[S.TRICK + i])
            show = gp(c) > 0 or (suit(c) == trump and rank(c) <= 5 and rank(c) <= min(played_tr)
                                 and (my_low is None or rank(c) <= my_low))
            k += (rch(rank(c)) if show else "x") + ("t" if suit(c) == trump else "x")
        else:
            k += ".."
    k += str(int(state[S.WINNING])) if n_in else "."
    k += "".join(names)
    return trim(k), names, moves


def describe(state):
    """(key or None, action names, moves) of the seat to act, per abstraction.md."""
    if int(state[S.PHASE]) == S.PHASE_AUCTION:
        return auction(state)
    if int(state[S.TRUMP]) < 0:
        return establish(state)
    return playout(state)
