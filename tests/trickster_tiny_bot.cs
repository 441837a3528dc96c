// A tiny bot of setback-cfr's own, written against the host's Trickster.cloud classes the way
// Trickster's bots are (a constructor taking the options and the trump suit, SuggestBid and
// SuggestNextCard), so that CI tests the host and its protocol without Trickster's code.
// TINY_BOT_MODE chooses a misbehaviour for the tests: illegal, crash, hang, garbage, throw.
using System;
using System.Linq;
using System.Threading;
using Trickster.cloud;

namespace Trickster.Bots
{
    public static class TinyMode
    {
        public static string Mode => Environment.GetEnvironmentVariable("TINY_BOT_MODE") ?? "";

        // The misbehaviours happen at a card decision, so a test sees them mid-match.
        public static Card Misbehave(System.Collections.Generic.List<Card> legalCards)
        {
            switch (Mode)
            {
                case "illegal":
                    return DeckBuilder.BuildDeck(DeckType.Std).First(c => !legalCards.Any(l => l.SameAs(c)));
                case "crash":
                    Environment.Exit(3);
                    return null;
                case "hang":
                    Thread.Sleep(Timeout.Infinite);
                    return null;
                case "garbage":
                    var stdout = Console.OpenStandardOutput();
                    var bytes = System.Text.Encoding.UTF8.GetBytes("this is not json\n");
                    stdout.Write(bytes, 0, bytes.Length);
                    stdout.Flush();
                    Thread.Sleep(Timeout.Infinite);
                    return null;
                case "throw":
                    throw new InvalidOperationException("tiny bot gives up");
            }
            return null;
        }
    }

    public class TinyPitchBot
    {
        readonly PitchOptions options;

        public TinyPitchBot(PitchOptions options, Suit trumpSuit) { this.options = options; }

        // Bid the lowest points bid offered, pitch the first suit offered.
        public BidBase SuggestBid(SuggestBidState<PitchOptions> state)
        {
            var points = state.legalBids.Where(b => b.value >= 0).OrderBy(b => b.value).FirstOrDefault();
            return points ?? new BidBase(BidBase.Pass);
        }

        public Card SuggestNextCard(SuggestCardState<PitchOptions> state)
        {
            return TinyMode.Misbehave(state.legalCards) ?? state.legalCards[0];
        }
    }

    public class TinySpadesBot
    {
        public TinySpadesBot(SpadesOptions options, Suit trumpSuit) { }

        // Bid 3 tricks (or the highest bid offered below it), play the first legal card.
        public BidBase SuggestBid(SuggestBidState<SpadesOptions> state)
        {
            return state.legalBids.Where(b => b.value <= 3).OrderBy(b => b.value).Last();
        }

        public Card SuggestNextCard(SuggestCardState<SpadesOptions> state)
        {
            return TinyMode.Misbehave(state.legalCards) ?? state.legalCards[0];
        }
    }
}
