// The host classes a Trickster Cards bot is written against (namespace Trickster.cloud),
// written for setback-cfr from Trickster's public "Trickster Bot Classes" page and from how
// the bots use them. None of Trickster's own code is here: the numeric values of the enums
// and bid spaces are this host's choices (a bot only compares them and does arithmetic
// inside its own game's space), and only the members the Pitch and Spades bots touch exist.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Trickster.cloud
{
    // Suits: Unknown first, the four suits in the order C D H S, then the jokers' suit.
    public enum Suit { Unknown = 0, Clubs = 1, Diamonds = 2, Hearts = 3, Spades = 4, Joker = 5 }

    // Ranks: the numeric value of the plain ranks (the bots compare ranks with < and add to
    // them), the jokers above the Ace; a game orders cards with its options' RankSort.
    public enum Rank
    {
        Unknown = 0, Two = 2, Three = 3, Four = 4, Five = 5, Six = 6, Seven = 7, Eight = 8,
        Nine = 9, Ten = 10, Jack = 11, Queen = 12, King = 13, Ace = 14, Low = 15, High = 16
    }

    public enum SuitColor { Unknown, Black, Red }

    public enum DeckType { Std, TwoToAce = Std, FiveToAce, NineToAce, TwoAndNineToAce, SpadesWithJokers }

    // Every game's bids live in a space of its own. Spades' is 0, so a Nil bid is value 0
    // (its bid class converts a bid of no tricks to the bare space base).
    public enum BidSpace { Spades = 0, Pitch = 1000, Euchre = 2000 }

    public enum GameCode { Unknown, Pitch, Spades, Euchre }

    public enum PlayTo { Score, Hands }

    public class SuitRank
    {
        public static readonly Suit[] stdSuits = { Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades };
        public static readonly Suit[] allSuits = { Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades, Suit.Joker };
        const string RankChars = "0??23456789TJQKALH";
        const string SuitChars = "UCDHSJ";

        public Suit suit { get; set; }
        public Rank rank { get; set; }

        public static char RankChar(Rank r)
        {
            switch (r)
            {
                case Rank.Low: return 'L';
                case Rank.High: return 'H';
                case Rank.Unknown: return '0';
                default: return RankChars[(int)r + 1];
            }
        }

        public static char SuitChar(Suit s) { return SuitChars[(int)s]; }

        public static Rank ParseRank(char c)
        {
            switch (char.ToUpperInvariant(c))
            {
                case 'A': return Rank.Ace;
                case 'K': return Rank.King;
                case 'Q': return Rank.Queen;
                case 'J': return Rank.Jack;
                case 'T': return Rank.Ten;
                case 'H': return Rank.High;
                case 'L': return Rank.Low;
                case '0': case 'U': return Rank.Unknown;
            }
            if (c >= '2' && c <= '9')
                return (Rank)(c - '0');
            throw new FormatException("bad rank character '" + c + "'");
        }

        public static Suit ParseSuit(char c)
        {
            var i = SuitChars.IndexOf(char.ToUpperInvariant(c));
            if (i < 0)
                throw new FormatException("bad suit character '" + c + "'");
            return (Suit)i;
        }

        public static SuitRank FromCard(Card c) { return new SuitRank { suit = c.suit, rank = c.rank }; }
    }

    // A card: a class compared by reference (the bots use SameAs for equal suit and rank).
    public class Card : SuitRank
    {
        public Card() { }

        public Card(Suit suit, Rank rank)
        {
            this.suit = suit;
            this.rank = rank;
        }

        public Card(Card other) : this(other.suit, other.rank) { }

        // Two characters, rank then suit ("AS", "TH", "HJ" the high joker, "0U" unknown).
        public Card(string text)
        {
            if (text == null || text.Length != 2)
                throw new FormatException("a card is two characters, not '" + text + "'");
            rank = ParseRank(text[0]);
            suit = ParseSuit(text[1]);
        }

        public bool isTrump { get; set; }

        public bool IsHighCard => rank >= Rank.Jack && rank <= Rank.Ace;

        public SuitColor color => suit == Suit.Hearts || suit == Suit.Diamonds ? SuitColor.Red
            : suit == Suit.Clubs || suit == Suit.Spades ? SuitColor.Black : SuitColor.Unknown;

        public string StdNotation => ToString();

        public bool SameAs(Card other) { return other != null && other.suit == suit && other.rank == rank; }

        public bool SameAs(Suit s, Rank r) { return s == suit && r == rank; }

        public override string ToString() { return "" + RankChar(rank) + SuitChar(suit); }
    }

    // A list of cards built from their two-character texts run together ("ASKH0U0U").
    public class Hand : List<Card>
    {
        public Hand() { }

        public Hand(IEnumerable<Card> cards) : base(cards ?? Enumerable.Empty<Card>()) { }

        public Hand(string text)
        {
            if (string.IsNullOrEmpty(text))
                return;
            if (text.Length % 2 != 0)
                throw new FormatException("a hand is two characters a card, not '" + text + "'");
            for (var i = 0; i < text.Length; i += 2)
                Add(new Card(text.Substring(i, 2)));
        }

        public Hand AddCard(Card c) { Add(c); return this; }

        public Hand AddCards(IEnumerable<Card> cards) { AddRange(cards); return this; }

        public bool ContainsCard(Card c) { return this.Any(x => x.SameAs(c)); }

        // A new hand without one copy of each card of `cards` (matched by suit and rank).
        public Hand RemoveCards(IEnumerable<Card> cards)
        {
            var left = new Hand(this);
            foreach (var c in cards)
            {
                var i = left.FindIndex(x => x.SameAs(c));
                if (i >= 0)
                    left.RemoveAt(i);
            }
            return left;
        }

        public Hand RemoveCard(Card c) { return RemoveCards(new[] { c }); }

        public override string ToString() { return string.Concat(this.Select(c => c.ToString())); }
    }

    public static class DeckBuilder
    {
        static readonly Rank[] AllRanks =
        {
            Rank.Two, Rank.Three, Rank.Four, Rank.Five, Rank.Six, Rank.Seven, Rank.Eight,
            Rank.Nine, Rank.Ten, Rank.Jack, Rank.Queen, Rank.King, Rank.Ace
        };

        public static List<Card> BuildDeck(DeckType type)
        {
            Func<Rank, bool> keep;
            switch (type)
            {
                case DeckType.FiveToAce: keep = r => r >= Rank.Five; break;
                case DeckType.NineToAce: keep = r => r >= Rank.Nine; break;
                case DeckType.TwoAndNineToAce: keep = r => r == Rank.Two || r >= Rank.Nine; break;
                default: keep = r => true; break;
            }
            var deck = new List<Card>();
            foreach (var s in SuitRank.stdSuits)
                foreach (var r in AllRanks.Where(keep))
                    deck.Add(new Card(s, r));
            if (type == DeckType.SpadesWithJokers)
            {
                deck.Add(new Card(Suit.Joker, Rank.Low));
                deck.Add(new Card(Suit.Joker, Rank.High));
            }
            return deck;
        }

        public static int DeckSize(DeckType type) { return BuildDeck(type).Count; }
    }

    public class BidExplanation
    {
        public string Description { get; set; }
    }

    // A bid: a number in its game's bid space, or one of the negative constants below.
    public class BidBase
    {
        public const int NoBid = -1;
        public const int Pass = -2;
        public const int NotPlaying = -3;
        public const int Dummy = -4;

        public BidBase() { value = NoBid; }

        public BidBase(int value) { this.value = value; }

        public BidBase(int value, string text) { this.value = value; this.text = text; }

        public BidBase(BidBase other) : this(other.value, other.text) { explanation = other.explanation; }

        public BidExplanation explanation;
        public string text;
        public int value;
    }

    public class PlayedCard
    {
        public Card CardPlayed { get; set; }
        public Card HighInTrick { get; set; }
    }

    // A seat at the table as the deciding seat sees it (see the host's docs for how each
    // member is filled from setback-cfr's seat view).
    public class PlayerBase
    {
        public int Bid { get; set; } = BidBase.NoBid;
        public List<int> BidHistory { get; set; } = new List<int>();
        public string CardsTaken { get; set; } = "";
        public bool Folded { get; set; }
        public long GameScore { get; set; }
        public Suit GoodSuit { get; set; } = Suit.Unknown;
        public string Hand { get; set; } = "";
        public int HandScore { get; set; }
        public List<PlayedCard> PlayedCards { get; set; } = new List<PlayedCard>();
        public int Seat { get; set; }
        public List<Suit> VoidSuits { get; set; } = new List<Suit>();

        public bool IsActivelyPlaying => Bid != BidBase.NotPlaying && !Folded;
    }

    public class GameOptions
    {
        public DeckType deckType = DeckType.Std;
        public GameCode gameCode = GameCode.Unknown;
        public int gameOverScore;
        public bool isPartnership = true;
        public bool isTwoTeams;
        public PlayTo playTo = PlayTo.Score;
        public int players = 4;

        public virtual Suit EffectiveSuit(Card c, Suit trump) { return c.suit; }

        // The plain order: a card's rank value (the jokers, where a game has them, above).
        public virtual int RankSort(Card c, Suit trump) { return (int)c.rank; }
    }

    public enum PitchVariation { FourPoint, FivePoint, SixPoint, SevenPoint, NinePoint, TenPoint, ElevenPoint, ThirteenPoint }

    public enum PitchDrawOption { None, NonTrump, Any }

    public enum PitchPlayTrump { Anytime, FollowSuit, Only }

    public enum PitchFirstLead { Pitcher, LeftOfDealer }

    public class PitchOptions : GameOptions
    {
        public static readonly Dictionary<PitchVariation, int> availablePoints = new Dictionary<PitchVariation, int>
        {
            { PitchVariation.FourPoint, 4 }, { PitchVariation.FivePoint, 5 }, { PitchVariation.SixPoint, 6 },
            { PitchVariation.SevenPoint, 7 }, { PitchVariation.NinePoint, 9 }, { PitchVariation.TenPoint, 10 },
            { PitchVariation.ElevenPoint, 11 }, { PitchVariation.ThirteenPoint, 13 }
        };

        public PitchOptions() { gameCode = GameCode.Pitch; gameOverScore = 11; }

        public int? _callPartnerSeat;
        public DeckType deck = DeckType.Std;
        public PitchDrawOption drawOption = PitchDrawOption.None;
        public int kitty;
        public bool lowGoesToTaker = true;
        public int minBid = 2;
        public bool offerShootBid;
        public bool pitcherLeadsTrump = true;
        public PitchPlayTrump playTrump = PitchPlayTrump.Anytime;
        public bool shootAllTricks;
        public bool stickTheDealer;
        public bool tenOfTrumpReplacesGamePoint;
        public PitchVariation variation = PitchVariation.FourPoint;

        // Only the four-point game (High, Low, Jack, Game) is hosted: no off-jack, no jokers,
        // so a card's suit is its own and its order the plain one.
        public override Suit EffectiveSuit(Card c, Suit trump) { return c.suit; }

        public override int RankSort(Card c, Suit trump) { return (int)c.rank; }
    }

    public enum SpadesVariation { Classic, Suicide, Whiz, Mirrors, JokerJoker }

    public enum SpadesNilOrZero { Nil, Zero }

    public enum SpadesTenBonus { None, TenFor200 }

    public enum FailedNilBags { Count, HelpsTeamBid }

    public enum SpadesNilBids { Yes, No }

    public enum SpadesBlindBids { None, BlindNil, Any }

    public enum LeadSpadesWhen { Broken, Anytime }

    public class SpadesOptions : GameOptions
    {
        public SpadesOptions() { gameCode = GameCode.Spades; gameOverScore = 500; }

        public int bagsPenalty = 100;
        public int bagsThreshold = 10;
        public SpadesBlindBids blindBids = SpadesBlindBids.None;
        public FailedNilBags failedNilBags = FailedNilBags.Count;
        public LeadSpadesWhen leadSpades = LeadSpadesWhen.Broken;
        public int nilPass;
        public SpadesNilBids nilBids = SpadesNilBids.Yes;
        public SpadesNilOrZero nilOrZero = SpadesNilOrZero.Nil;
        public SpadesTenBonus tenBonus = SpadesTenBonus.None;
        public SpadesVariation variation = SpadesVariation.Classic;

        public int BagsThreshold => bagsThreshold;

        // A team's bags are the last digit of its game score (OpenSpiel's Spades, which
        // setback-cfr plays, keeps them so; the host sends the score as it stands).
        public int GetBags(long gameScore) { return new SpadesScore(gameScore, BagsThreshold).bags; }
    }

    public class SpadesScore
    {
        public SpadesScore(long gameScore, int bagsThreshold)
        {
            totalPoints = gameScore;
            var digit = gameScore % 10;
            bags = (int)digit;  // C#'s % keeps the sign, as OpenSpiel's C++ does
            if (bagsThreshold > 0 && bagsThreshold < 10)
                bags %= bagsThreshold;
        }

        public int bags;
        public long totalPoints;
    }

    public class SuggestStateBase<T> where T : GameOptions
    {
        public int dealerSeat;
        public T options;
        public PlayerBase player;
        public List<PlayerBase> players = new List<PlayerBase>();
        public Suit trumpSuit = Suit.Unknown;
    }

    public class SuggestBidState<T> : SuggestStateBase<T> where T : GameOptions
    {
        public BidBase cloudBid;
        public Hand hand = new Hand();
        public List<BidBase> legalBids = new List<BidBase>();
    }

    public class SuggestCardState<T> : SuggestStateBase<T> where T : GameOptions
    {
        public Card cardTakingTrick;
        public List<Card> cardsPlayed = new List<Card>();
        public Card cloudCard;
        public bool isPartnerTakingTrick;
        public List<Card> legalCards = new List<Card>();
        public List<Card> trick = new List<Card>();
        public PlayerBase trickTaker;
    }

    public class SuggestDiscardState<T> : SuggestStateBase<T> where T : GameOptions
    {
        public List<Card> cloudDiscard;
        public Hand hand = new Hand();
    }

    public class SuggestPassState<T> : SuggestStateBase<T> where T : GameOptions
    {
        public List<Card> cloudPass;
        public Hand hand = new Hand();
        public int passCount;
    }
}
