"""Our host against Trickster's own expectations: the positions of TricksterBots' unit tests
(`TestBots/TestPitchBot.cs`: `PlayOfTheHand` and `TestBids`; `TestBots/TestSpadesBot.cs`:
`PlayHighFrom3rdSeat`), read from the user's checkout at run time, set up as those tests set
them up, and asked of the real bots through `play/trickster_host.py`. Every answer that
matches the test's expected card or bid is evidence that our host classes (card order, bid
values, the trick's winner, the players' hands) give the bots what Trickster's own host does.

    TRICKSTER_BOTS=~/TricksterBots python bench/trickster_selfcheck.py

Only the rows our host can express are run: Pitch's four-point rows (the ten-point ones need
the off-jack and jokers, which the host does not model). Prints each row that disagrees and
the counts; exits 1 if any row disagrees.
"""

from __future__ import annotations

import re
import sys

from play.trickster_host import BOT_CLASS, BotProcess, built_host, checkout_dir

RANKS = "23456789TJQKA"
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
POINTS_BASE, PITCHING, NOT_PITCHING, PASS, NO_BID = 1180, 1010, 1000, -2, -1


def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _winner(trick: list[str], trump: str) -> int:
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if (card[1] == top[1] and RANKS.index(card[0]) > RANKS.index(top[0])) or (
                card[1] == trump and top[1] != trump):
            best = i
    return best


def _player(seat, bid, hand, taken="", hand_score=0, game_score=0):
    return {"seat": seat, "bid": bid, "bidHistory": [] if bid == NO_BID else [bid],
            "hand": hand, "cardsTaken": taken, "handScore": hand_score,
            "gameScore": game_score, "voidSuits": [], "playedCards": []}


def _card_state(players, trick, trump, follow_or_trump):
    """The state Trickster's test helper builds: seat 0 to play after `trick` (played by the
    seats before it), cards played = every player's cards taken, legal = the cards of the suit
    led (or trump, when trumping in is allowed) if any, else the hand."""
    hand = _cards(players[0]["hand"])
    state = {"seat": 0, "dealerSeat": 3, "players": players,
             "trumpSuit": SUIT_NAMES.get(trump, "Unknown"), "trick": trick,
             "cardsPlayed": [c for p in players for c in _cards(p["cardsTaken"])],
             "legalCards": hand, "cardTakingTrick": None, "trickTaker": None,
             "isPartnerTakingTrick": False}
    if trick:
        follow = [c for c in hand if c[1] == trick[0][1] or (follow_or_trump and c[1] == trump)]
        best = _winner(trick, trump)
        seat = (4 - len(trick) + best) % 4
        state.update(legalCards=follow or hand, cardTakingTrick=trick[best], trickTaker=seat,
                     isPartnerTakingTrick=seat == 2)
    return state


def pitch_rows(source: str):
    """(name, options, op, state, expected) of the four-point rows of TestPitchBot.cs."""
    base = {"variation": "FourPoint", "drawOption": "NonTrump", "gameOverScore": 15,
            "isPartnership": True, "minBid": 2, "offerShootBid": False,
            "pitcherLeadsTrump": True, "playTrump": "Anytime", "stickTheDealer": True}
    play = re.compile(r'DataRow\("(\w*)",\s*"(\w+)",\s*"(\w+)",\s*PitchVariation\.\s*FourPoint,'
                      r'\s*(true|false),\s*(\d)')
    for trick_text, hand, want, low, pitcher in play.findall(source):
        options = dict(base, kitty=3, lowGoesToTaker=low == "true")
        trick = _cards(trick_text)
        players = []
        for seat in range(4):
            bid = PITCHING + 20 + 3 if seat == int(pitcher) else NOT_PITCHING  # 2 in hearts
            held = len(hand) // 2 - (1 if len(trick) > 3 - seat else 0)
            players.append(_player(seat, bid, hand if seat == 0 else "0U" * held))
        yield (f"PlayOfTheHand {trick_text or '-'} {hand}", options, "card",
               _card_state(players, trick, "H", True), want)
    bids = re.compile(r'DataRow\("(\w+)",\s*(\d+),\s*(true|false),\s*PitchVariation\.FourPoint\)')
    for hand, want, shoot in bids.findall(source):
        options = dict(base, lowGoesToTaker=True, offerShootBid=shoot == "true")
        legal = [POINTS_BASE + v for v in (2, 3, 4)] + ([POINTS_BASE + 15] if shoot == "true"
                                                         else []) + [PASS]
        state = {"seat": 0, "dealerSeat": 3, "trumpSuit": "Unknown", "legalBids": legal,
                 "players": [_player(s, NO_BID, hand if s == 0 else "") for s in range(4)]}
        expected = PASS if want == "0" else POINTS_BASE + int(want)
        yield f"TestBids {hand}", options, "bid", state, expected


def spades_rows(source: str):
    """(name, options, op, state, expected) of TestSpadesBot.cs's PlayHighFrom3rdSeat rows
    (seat 0 bid 1, its partner 1, the opponents 5; Trickster's default SpadesOptions)."""
    rows = re.compile(r'DataRow\("(\w*)",\s*"(\w+)",\s*"(\w*)",\s*"(\w+)"\)')
    block = source[source.index("PlayHighFrom3rdSeat") - 2000:source.index(
        "public void PlayHighFrom3rdSeat(")]
    for trick_text, hand, taken, want in rows.findall(block):
        trick = _cards(trick_text)
        players = [_player(0, 1, hand), _player(1, 5, ""), _player(2, 1, "", taken=taken),
                   _player(3, 5, "")]
        yield (f"PlayHighFrom3rdSeat {trick_text} {hand} {taken or '-'}", {}, "card",
               _card_state(players, trick, "S", False), want)


def main(argv=None) -> int:
    """Run every row and print the disagreements and the counts."""
    tests = checkout_dir().parent / "TestBots"
    suites = [("pitch", pitch_rows((tests / "TestPitchBot.cs").read_text("utf-8-sig"))),
              ("spades", spades_rows((tests / "TestSpadesBot.cs").read_text("utf-8-sig")))]
    agreed = total = 0
    for game, rows in suites:
        exe = built_host(game)
        for name, options, op, state, expected in rows:
            process = BotProcess(exe, BOT_CLASS[game], options, f"trickster:{game}")
            try:
                answer = process.ask({"op": op, "state": state}, name)[op]
            finally:
                process.close()
            total += 1
            agreed += answer == expected
            if answer != expected:
                print(f"differs: {game} {name}: expected {expected}, the bot said {answer}")
    print(f"{agreed} of {total} rows of Trickster's own tests agree through our host")
    return 0 if agreed == total else 1


if __name__ == "__main__":
    sys.exit(main())
