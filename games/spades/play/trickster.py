"""`trickster:spades`: Trickster Cards' Spades bot (`SpadesBot.cs` of the user's
TricksterBots checkout, run by `play/trickster_host.py`) as a Spades player.

Our Spades is OpenSpiel's (partnerships, bids 0..13 with 0 as Nil, no blind bids, spades led
only once broken, 10 a bid trick and a bag an overtrick, 100 off at ten bags, Nil +-100 with
the Nil bidder's tricks counting for the team, games to 500): `OPTIONS` sets Trickster's
SpadesOptions to it (docs/playing/trickster.md has the table). The bot's inputs come from
the seat's view only (`bot_state`): its hand, the bids, the cards played by whom and the card
that won each of their tricks, the voids shown, the trick so far, the tricks each seat took,
the game scores (bags in their last digit, as OpenSpiel keeps them). Each answer is checked
in our engine; an illegal one stops the match with `TricksterSpadesError` naming the
position and the bot's inputs.
"""

from __future__ import annotations

from games.spades import state as S
from games.spades.cards import power
from games.spades.errors import SpadesError
from games.spades.rules import BID_MOVE
from play.trickster_host import (TricksterBot, TricksterBotError, TricksterPlayer,
                                 absolute_seat, add_trick_inputs, built_host, card_text,
                                 cards_text, suit_name)

NO_BID = -1  # the host's BidBase.NoBid; Spades' bid space starts at 0 (Nil), so a bid of n
# tricks is the value n
OPTIONS = {
    "variation": "Classic", "players": 4, "isPartnership": True, "deckType": "Std",
    "nilBids": "Yes", "nilOrZero": "Nil", "blindBids": "None", "nilPass": 0,
    "bagsThreshold": 10, "bagsPenalty": 100, "failedNilBags": "HelpsTeamBid",
    "tenBonus": "None", "leadSpades": "Broken", "gameOverScore": 500, "playTo": "Score",
}


# The bot (`play.trickster_host.TricksterBot`): Trickster's name of the game, what it compiles
# from the checkout, the class the host runs
BOT = TricksterBot("spades", ("Bots/BaseBot.cs", "Bots/PlayersCollectionBase.cs",
                              "Bots/Spades/SpadesBot.cs", "Bots/Spades/SpadesBid.cs"),
                   "Trickster.Bots.SpadesBot")


class TricksterSpadesError(TricksterBotError, SpadesError):
    """The Spades bot failed or moved illegally (one line, exit status 2)."""


def make_trickster_spades_player(text: str, seed: int, spec_error):
    """The `trickster:spades` player; `spec_error` (the Spades grammar's error) for a bad
    spec or a host that cannot be built."""
    from play.trickster_host import TricksterSetupError

    if text.strip().lower() != "trickster:spades":
        raise spec_error(f"{text!r}: Spades' Trickster player is trickster:spades")
    try:
        return TricksterSpadesPlayer(built_host(BOT), BOT.bot_class)
    except TricksterSetupError as exc:
        raise spec_error(str(exc)) from None


def bot_state(view, phase: str) -> dict:
    """The bot's inputs (the host's JSON state) from `view` alone; `phase` "bid" or "card"."""
    state = view.state
    me = absolute_seat(view, view.seat)
    n_tricks, n_in_trick, leader = (int(state[S.TRICK_NUMBER]), int(state[S.N_IN_TRICK]),
                                    int(state[S.LEADER]))
    in_play = int(state[S.PHASE]) == S.PHASE_PLAY
    taken = {a: [] for a in range(4)}
    played = {a: [] for a in range(4)}
    cards = [m for m in view.history if m < BID_MOVE]
    complete = len(cards) == bin(int(state[S.PLAYED])).count("1")
    order = cards if complete else None
    if complete:
        lead = 1  # the dealer's left leads the first trick
        for start in range(0, len(cards), 4):
            trick = cards[start:start + 4]
            led = trick[0] // 13
            best = max(range(len(trick)), key=lambda i: power(trick[i], led))
            for i, card in enumerate(trick):
                played[absolute_seat(view, (lead + i) % 4)].append([card_text(card),
                                                           card_text(trick[best])])
            if len(trick) == 4:
                winner = (lead + best) % 4
                taken[absolute_seat(view, winner)] += [card_text(c) for c in trick]
                lead = winner
    players = []
    for rel in range(4):
        seat = absolute_seat(view, rel)
        bid = int(state[S.BID + rel])
        played_now = in_play and (rel - leader) % 4 < n_in_trick
        held = S.HAND_SIZE - n_tricks - int(played_now)
        hand = "".join(cards_text(state[S.HAND + rel])) if rel == view.seat else "0U" * held
        voids = [suit_name(s) for s in range(4) if int(state[S.SHOWN_VOIDS]) >> (4 * rel + s) & 1]
        players.append({"seat": seat, "bid": NO_BID if bid < 0 else bid,
                        "bidHistory": [] if bid < 0 else [bid], "hand": hand,
                        "cardsTaken": "".join(taken[seat]),
                        "handScore": int(state[S.TAKEN + rel]),
                        "gameScore": int(view.score[seat % 2]), "voidSuits": voids,
                        "playedCards": played[seat]})
    players.sort(key=lambda p: p["seat"])  # by seat, as Trickster's tests list them
    out = {"seat": me, "dealerSeat": int(view.dealer), "players": players,
           "trumpSuit": "Spades"}
    legal = [int(m) for m in view.legal_moves()]
    if phase == "bid":
        out["legalBids"] = [m - BID_MOVE for m in legal]
        return out
    return add_trick_inputs(out, view, S, legal, order, leader, me)


class TricksterSpadesPlayer(TricksterPlayer):
    """A Spades player asking Trickster's SpadesBot through the host (module docstring)."""

    name, options, error, fields, bid_phase = ("trickster:spades", OPTIONS,
                                               TricksterSpadesError, S, S.PHASE_BID)

    @staticmethod
    def move_text(move: int) -> str:
        """A card's text, or a bid's number."""
        return card_text(move) if move < BID_MOVE else str(move - BID_MOVE)

    def choose(self, view) -> int:
        """The bot's move for the seat of `view` (checked legal in our engine)."""
        if int(view.state[S.PHASE]) != S.PHASE_BID:
            return self.ask_card(view, bot_state(view, "card"))
        inputs = bot_state(view, "bid")
        value = self.process.ask({"op": "bid", "state": inputs}, self.where(view)).get("bid")
        move = BID_MOVE + value if isinstance(value, int) and 0 <= value <= 13 else None
        if move not in {int(m) for m in view.legal_moves()}:
            raise self.illegal(view, f"the bid {value!r}", inputs)
        return move
