"""`trickster:pitch`: Trickster Cards' Pitch bot (`PitchBot.cs` of the user's TricksterBots
checkout, run by `play/trickster_host.py`) as a Setback player.

The bot plays Trickster's four-point Pitch (High, Low, Jack, Game), set to our rules by
`OPTIONS` (the table of docs/playing/trickster.md, rule by rule). Its inputs are filled from the
seat's view only (`bot_state`): its hand, every bid, the cards played and by whom, the voids
shown, the trick so far and its winner, the game scores; the other seats' hands are sent as
unknown cards ("0U"), one a card they still hold.

Trickster's Pitch names trump in a second bid ("pitching": the winning bidder picks a suit) and
the pitcher must lead trump; our Setback names trump by the pitcher's first card. So the
pitcher's first lead asks the bot twice: its suit bid, then its card among its cards of that
suit (any card of any suit is legal for us, so nothing the bot may do is lost).

Every answer is checked in our engine: a bid or card that is not legal (or a suit it does not
hold) stops the match with `TricksterPitchError` naming the seat, the position and the bot's
inputs: a rules or host mismatch to fix, never to skip.
"""

from __future__ import annotations

from games.setback import state as S
from games.setback.errors import SetbackError
from games.setback.rules import BID_MOVE, beats
from play.trickster_host import (TricksterBot, TricksterBotError, TricksterPlayer,
                                 absolute_seat, add_trick_inputs, built_host, card_text,
                                 cards_text, suit_name)

# Trickster's Pitch bid values in the host's bid space (BidSpace.Pitch = 1000): the points
# bids, the pitcher's suit bid and the others' "not pitching" after the auction.
PITCH_SPACE = 1000
NO_BID, PASS = -1, -2
NOT_PITCHING = PITCH_SPACE
PITCHING = NOT_PITCHING + 10
POINTS_BASE = PITCH_SPACE + 180
SUIT_VALUE = {0: 1, 1: 2, 2: 3, 3: 4}  # our suit C D H S -> the host's Suit enum
# Our rules in Trickster's PitchOptions (docs/playing/trickster.md has the table).
OPTIONS = {
    "variation": "FourPoint",  # High, Low, Jack, Game
    "players": 4, "isPartnership": True,  # two partnerships, partners opposite
    "deck": "Std", "deckType": "Std",  # 52 cards
    "minBid": 2,  # Pass, Two, Three, Four
    "offerShootBid": False, "shootAllTricks": False,  # no shooting the moon
    "stickTheDealer": False,  # all pass: the deal is over (our redeal)
    "lowGoesToTaker": True,  # Low to the team that takes it
    "tenOfTrumpReplacesGamePoint": False,  # Game counted on all suits' game points
    "drawOption": "None", "kitty": 0,  # six cards, no draw, no kitty
    "playTrump": "Anytime",  # follow suit or trump
    "pitcherLeadsTrump": True,  # the first card names trump
    "gameOverScore": 11, "playTo": "Score",
}


# The bot (`play.trickster_host.TricksterBot`): Trickster's name of the game, what it compiles
# from the checkout, the class the host runs
BOT = TricksterBot("pitch", ("Bots/BaseBot.cs", "Bots/PlayersCollectionBase.cs",
                             "Bots/Pitch/PitchBot.cs"), "Trickster.Bots.PitchBot")


class TricksterPitchError(TricksterBotError, SetbackError):
    """The Pitch bot failed or moved illegally (one line, exit status 2)."""


def make_trickster_pitch_player(text: str, seed: int = 0):
    """The `trickster:pitch` player (built host cached per checkout); `TricksterSetupError`
    (a `PlayerSpecError`) when Mono or the checkout is missing or the bot does not compile."""
    from play.player_spec import PlayerSpecError

    if text.strip().lower() != "trickster:pitch":
        raise PlayerSpecError(f"{text!r}: Setback's Trickster player is trickster:pitch")
    return TricksterPitchPlayer(built_host(BOT), BOT.bot_class)


def _seat_history(view):
    """(cards by seat, tricks won by seat, played-card pairs by seat, cards played in order)
    from the view's history when it holds the whole hand so far; empty ones otherwise (a
    caller that keeps no history, the web table: only the bots' PlayedCards and CardsTaken,
    which the Pitch bot does not read, go without)."""
    state = view.state
    n_bids = int(state[S.N_BIDS])
    n_cards = bin(int(state[S.PLAYED])).count("1")
    taken = {a: [] for a in range(4)}
    won = {a: 0 for a in range(4)}
    played = {a: [] for a in range(4)}
    order: list[int] = []
    moves = list(view.history)
    if len(moves) != n_bids + n_cards:
        return taken, won, played, None
    cards = [m for m in moves if m < BID_MOVE]
    leader = int(state[S.HIGH_BIDDER])
    trump = cards[0] // 13 if cards else -1
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        best = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[best], trump):
                best = i
        for i, card in enumerate(trick):
            seat = absolute_seat(view, (leader + i) % 4)
            played[seat].append([card_text(card), card_text(trick[best])])
        if len(trick) == 4:
            winner = (leader + best) % 4
            taken[absolute_seat(view, winner)] += [card_text(c) for c in trick]
            won[absolute_seat(view, winner)] += 1
            leader = winner
        order += trick
    return taken, won, played, order


def bot_state(view, phase: str, trump: int | None = None) -> dict:
    """The bot's inputs (the host's JSON state) from `view` alone: `phase` is "bid" (the
    auction, or with `trump` None in play the pitcher's suit bid) or "card"; `trump` our suit
    0..3 when known (the pitcher's chosen suit before its first card)."""
    state = view.state
    me = absolute_seat(view, view.seat)
    in_play = int(state[S.PHASE]) == S.PHASE_PLAY
    if trump is None and int(state[S.TRUMP]) >= 0:
        trump = int(state[S.TRUMP])
    high_bidder, high_bid = int(state[S.HIGH_BIDDER]), int(state[S.HIGH_BID])
    taken, won, played, order = _seat_history(view)
    n_tricks, n_in_trick, leader = (int(state[S.TRICK_NUMBER]), int(state[S.N_IN_TRICK]),
                                    int(state[S.LEADER]))
    players = []
    for rel in range(4):
        seat = absolute_seat(view, rel)
        bid = int(state[S.BID + rel])
        value = NO_BID if bid < 0 else PASS if bid == 0 else POINTS_BASE + bid
        history = [] if bid < 0 else [value]
        if in_play and trump is not None:  # the auction is over and trump is named
            if rel == high_bidder:
                value = PITCHING + 10 * high_bid + SUIT_VALUE[trump]
                history.append(value)
            else:
                value = NOT_PITCHING
        played_now = (rel - leader) % 4 < n_in_trick if in_play else False
        held = S.HAND_SIZE - n_tricks - int(played_now)
        hand = ("".join(cards_text(state[S.HAND + rel])) if rel == view.seat else "0U" * held)
        voids = [suit_name(s) for s in range(4) if int(state[S.SHOWN_VOIDS]) >> (4 * rel + s) & 1]
        team = seat % 2  # absolute team: 0 East-West, 1 North-South
        players.append({"seat": seat, "bid": value, "bidHistory": history, "hand": hand,
                        "cardsTaken": "".join(taken[seat]), "handScore": won[seat],
                        "gameScore": int(view.score[team]), "voidSuits": voids,
                        "playedCards": played[seat]})
    players.sort(key=lambda p: p["seat"])  # by seat, as Trickster's tests list them
    out = {"seat": me, "dealerSeat": int(view.dealer), "players": players,
           "trumpSuit": suit_name(trump) if trump is not None and trump >= 0 else "Unknown"}
    legal = [int(m) for m in view.legal_moves()]
    if phase == "bid":
        if in_play:  # the pitcher's suit bid: one per suit it holds
            suits = sorted({m // 13 for m in legal})
            out["legalBids"] = [PITCHING + 10 * high_bid + SUIT_VALUE[s] for s in suits]
        else:
            out["legalBids"] = [PASS if m == BID_MOVE else POINTS_BASE + m - BID_MOVE
                                for m in legal]
        return out
    if trump is not None and n_tricks == 0 and n_in_trick == 0:  # pitcher's first card
        legal = [m for m in legal if m // 13 == trump]
    return add_trick_inputs(out, view, S, legal, order, leader, me)


class TricksterPitchPlayer(TricksterPlayer):
    """A Setback player asking Trickster's PitchBot through the host (module docstring)."""

    name, options, error, fields, bid_phase = ("trickster:pitch", OPTIONS, TricksterPitchError,
                                               S, S.PHASE_AUCTION)

    @staticmethod
    def move_text(move: int) -> str:
        """A card's text, or a bid's (Pass, 2..4)."""
        return _move_text(move)

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (checked legal in our engine)."""
        state = view.state
        where = self.where(view)
        if int(state[S.PHASE]) == S.PHASE_AUCTION:
            inputs = bot_state(view, "bid")
            value = self.process.ask({"op": "bid", "state": inputs}, where).get("bid")
            move = (BID_MOVE if value == PASS else BID_MOVE + value - POINTS_BASE
                    if isinstance(value, int) and POINTS_BASE + 2 <= value <= POINTS_BASE + 4
                    else None)
            if move not in {int(m) for m in view.legal_moves()}:
                raise self.illegal(view, f"the bid {value!r}", inputs)
            return move
        trump = int(state[S.TRUMP])
        if trump < 0:  # the pitcher's first card: its suit bid, then its lead in that suit
            inputs = bot_state(view, "bid")
            value = self.process.ask({"op": "bid", "state": inputs}, where).get("bid")
            if value not in inputs["legalBids"]:
                raise self.illegal(view, f"the pitching bid {value!r} (a suit it lacks?)",
                                   inputs)
            trump = {v: s for s, v in SUIT_VALUE.items()}[
                value - PITCHING - 10 * int(state[S.HIGH_BID])]
            return self.ask_card(view, bot_state(view, "card", trump))
        return self.ask_card(view, bot_state(view, "card"))


def _move_text(move: int) -> str:
    if move >= BID_MOVE:
        return "Pass" if move == BID_MOVE else str(move - BID_MOVE)
    return card_text(move)
