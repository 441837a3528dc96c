// setback-cfr's host process for a Trickster Cards bot: one JSON object a line on stdin, one
// answer a line on stdout. The bot class is found by name (reflection), so the host is
// compiled unchanged with any bot written against Trickster.cloud (Trickster's own, or the
// tiny test bot of setback-cfr's tests).
//
// Requests:
//   {"op": "init", "bot": "Trickster.Bots.PitchBot", "options": {...}}
//       -> {"ok": true, "options": {every field of the options as the bot sees them}}
//   {"op": "bid",  "state": {...}} -> {"ok": true, "bid": 1183}
//   {"op": "card", "state": {...}} -> {"ok": true, "card": "AS"}
//   {"op": "inspect", "kind": "bid"|"card", "state": {...}} -> {"ok": true, "state": {the
//       state object as filled, read back member by member}}
// Any failure answers {"ok": false, "error": "..."} on one line (the bot's exception, with
// its type and the first frame). The state fields are documented in docs/playing/trickster.md.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using Trickster.cloud;

namespace SetbackCfr.TricksterHost
{
    public static class Json
    {
        public static object Parse(string text)
        {
            var i = 0;
            var value = ParseValue(text, ref i);
            SkipSpace(text, ref i);
            if (i != text.Length)
                throw new FormatException("trailing characters after the JSON value");
            return value;
        }

        static void SkipSpace(string s, ref int i)
        {
            while (i < s.Length && char.IsWhiteSpace(s[i]))
                i++;
        }

        static object ParseValue(string s, ref int i)
        {
            SkipSpace(s, ref i);
            if (i >= s.Length)
                throw new FormatException("unexpected end of JSON");
            var c = s[i];
            if (c == '{')
            {
                var obj = new Dictionary<string, object>();
                i++;
                SkipSpace(s, ref i);
                if (s[i] == '}') { i++; return obj; }
                while (true)
                {
                    SkipSpace(s, ref i);
                    var key = ParseString(s, ref i);
                    SkipSpace(s, ref i);
                    if (s[i] != ':') throw new FormatException("expected ':' in JSON object");
                    i++;
                    obj[key] = ParseValue(s, ref i);
                    SkipSpace(s, ref i);
                    if (s[i] == ',') { i++; continue; }
                    if (s[i] == '}') { i++; return obj; }
                    throw new FormatException("expected ',' or '}' in JSON object");
                }
            }
            if (c == '[')
            {
                var list = new List<object>();
                i++;
                SkipSpace(s, ref i);
                if (s[i] == ']') { i++; return list; }
                while (true)
                {
                    list.Add(ParseValue(s, ref i));
                    SkipSpace(s, ref i);
                    if (s[i] == ',') { i++; continue; }
                    if (s[i] == ']') { i++; return list; }
                    throw new FormatException("expected ',' or ']' in JSON array");
                }
            }
            if (c == '"')
                return ParseString(s, ref i);
            if (s.Substring(i).StartsWith("true")) { i += 4; return true; }
            if (s.Substring(i).StartsWith("false")) { i += 5; return false; }
            if (s.Substring(i).StartsWith("null")) { i += 4; return null; }
            var start = i;
            while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0)
                i++;
            if (start == i)
                throw new FormatException("unexpected character '" + c + "' in JSON");
            return double.Parse(s.Substring(start, i - start), CultureInfo.InvariantCulture);
        }

        static string ParseString(string s, ref int i)
        {
            if (s[i] != '"') throw new FormatException("expected a JSON string");
            i++;
            var sb = new StringBuilder();
            while (s[i] != '"')
            {
                if (s[i] == '\\')
                {
                    i++;
                    switch (s[i])
                    {
                        case 'n': sb.Append('\n'); break;
                        case 't': sb.Append('\t'); break;
                        case 'r': sb.Append('\r'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'u': sb.Append((char)Convert.ToInt32(s.Substring(i + 1, 4), 16)); i += 4; break;
                        default: sb.Append(s[i]); break;
                    }
                }
                else
                    sb.Append(s[i]);
                i++;
            }
            i++;
            return sb.ToString();
        }

        public static string Write(object value)
        {
            var sb = new StringBuilder();
            Write(sb, value);
            return sb.ToString();
        }

        static void Write(StringBuilder sb, object v)
        {
            if (v == null) { sb.Append("null"); return; }
            if (v is bool) { sb.Append((bool)v ? "true" : "false"); return; }
            if (v is string || v is Enum || v is char)
            {
                sb.Append('"');
                foreach (var ch in v.ToString())
                {
                    if (ch == '"' || ch == '\\') sb.Append('\\').Append(ch);
                    else if (ch < ' ') sb.Append("\\u").Append(((int)ch).ToString("x4"));
                    else sb.Append(ch);
                }
                sb.Append('"');
                return;
            }
            if (v is int || v is long || v is short || v is byte)
            {
                sb.Append(Convert.ToInt64(v).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (v is double || v is float)
            {
                sb.Append(Convert.ToDouble(v).ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            var dict = v as IDictionary;
            if (dict != null)
            {
                sb.Append('{');
                var first = true;
                foreach (DictionaryEntry e in dict)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, e.Key.ToString());
                    sb.Append(':');
                    Write(sb, e.Value);
                }
                sb.Append('}');
                return;
            }
            var list = v as IEnumerable;
            if (list != null)
            {
                sb.Append('[');
                var first = true;
                foreach (var item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, item);
                }
                sb.Append(']');
                return;
            }
            Write(sb, v.ToString());
        }
    }

    public static class Program
    {
        static Type botType;
        static Type optionsType;
        static object options;

        public static int Main(string[] args)
        {
            var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
            var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            stdout.AutoFlush = true;
            stdout.NewLine = "\n";
            // A bot that writes to the console must not corrupt the protocol: its prints go
            // to stderr, the answers to the real stdout.
            Console.SetOut(Console.Error);
            string line;
            while ((line = stdin.ReadLine()) != null)
            {
                if (line.Trim().Length == 0)
                    continue;
                string answer;
                try
                {
                    answer = Json.Write(Handle((Dictionary<string, object>)Json.Parse(line)));
                }
                catch (Exception ex)
                {
                    var inner = ex is TargetInvocationException && ex.InnerException != null ? ex.InnerException : ex;
                    var frame = (inner.StackTrace ?? "").Split('\n').FirstOrDefault() ?? "";
                    answer = Json.Write(new Dictionary<string, object>
                    {
                        { "ok", false },
                        { "error", inner.GetType().Name + ": " + inner.Message + " " + frame.Trim() }
                    });
                }
                stdout.WriteLine(answer);
            }
            return 0;
        }

        static Dictionary<string, object> Handle(Dictionary<string, object> request)
        {
            var op = (string)request["op"];
            var answer = new Dictionary<string, object> { { "ok", true } };
            if (op == "init")
            {
                Init((string)request["bot"], (Dictionary<string, object>)request["options"]);
                answer["options"] = Describe(options);
                return answer;
            }
            if (botType == null)
                throw new InvalidOperationException("the host was not told its bot (send init first)");
            var state = (Dictionary<string, object>)request["state"];
            if (op == "bid")
            {
                var bidState = BidState(state);
                var bid = (BidBase)Call("SuggestBid", bidState);
                if (bid == null)
                    throw new InvalidOperationException("the bot suggested no bid (null)");
                answer["bid"] = bid.value;
                return answer;
            }
            if (op == "card")
            {
                var cardState = CardState(state);
                var card = (Card)Call("SuggestNextCard", cardState);
                if (card == null)
                    throw new InvalidOperationException("the bot suggested no card (null)");
                answer["card"] = card.ToString();
                return answer;
            }
            if (op == "inspect")
            {
                var kind = (string)request["kind"];
                answer["state"] = Describe(kind == "bid" ? BidState(state) : CardState(state));
                return answer;
            }
            throw new InvalidOperationException("unknown op '" + op + "'");
        }

        static void Init(string botName, Dictionary<string, object> values)
        {
            botType = AppDomain.CurrentDomain.GetAssemblies().Select(a => a.GetType(botName)).FirstOrDefault(t => t != null);
            if (botType == null)
                throw new InvalidOperationException("no bot class named " + botName + " in this build");
            // The options type is the bot constructor's first parameter (BaseBot<T>'s T).
            var ctor = botType.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 2);
            if (ctor == null)
                throw new InvalidOperationException(botName + " has no (options, trump suit) constructor");
            optionsType = ctor.GetParameters()[0].ParameterType;
            options = Activator.CreateInstance(optionsType);
            foreach (var pair in values)
                SetMember(options, pair.Key, pair.Value);
        }

        static object Call(string method, object state)
        {
            var trump = (Suit)state.GetType().GetField("trumpSuit").GetValue(state);
            var bot = Activator.CreateInstance(botType, options, trump);
            var m = botType.GetMethod(method, new[] { state.GetType() });
            if (m == null)
                throw new InvalidOperationException(botType.Name + " has no " + method + "(" + state.GetType().Name + ")");
            return m.Invoke(bot, new[] { state });
        }

        static void SetMember(object target, string name, object value)
        {
            var type = target.GetType();
            var field = type.GetField(name, BindingFlags.Public | BindingFlags.Instance);
            if (field != null)
            {
                field.SetValue(target, Convert(value, field.FieldType));
                return;
            }
            var prop = type.GetProperty(name, BindingFlags.Public | BindingFlags.Instance);
            if (prop != null && prop.CanWrite)
            {
                prop.SetValue(target, Convert(value, prop.PropertyType));
                return;
            }
            throw new InvalidOperationException(type.Name + " has no settable member '" + name + "'");
        }

        static object Convert(object value, Type type)
        {
            var underlying = Nullable.GetUnderlyingType(type);
            if (underlying != null)
                return value == null ? null : Convert(value, underlying);
            if (type.IsEnum)
                return Enum.Parse(type, (string)value);
            if (type == typeof(bool))
                return (bool)value;
            if (type == typeof(int))
                return (int)(double)value;
            if (type == typeof(long))
                return (long)(double)value;
            if (type == typeof(double))
                return (double)value;
            if (type == typeof(string))
                return (string)value;
            throw new InvalidOperationException("cannot set a " + type.Name + " from JSON");
        }

        // --- filling the bot's inputs -----------------------------------------------------
        static object NewState(string generic)
        {
            var open = typeof(SuggestBidState<>).Assembly.GetType("Trickster.cloud." + generic + "`1");
            return Activator.CreateInstance(open.MakeGenericType(optionsType));
        }

        static Card ParseCard(object text) { return text == null ? null : new Card((string)text); }

        static List<Card> Cards(object list) { return ((List<object>)list).Select(ParseCard).ToList(); }

        static int Int(object number) { return (int)(double)number; }

        static List<PlayerBase> Players(Dictionary<string, object> state)
        {
            var players = new List<PlayerBase>();
            foreach (Dictionary<string, object> p in (List<object>)state["players"])
            {
                var player = new PlayerBase
                {
                    Seat = Int(p["seat"]),
                    Bid = Int(p["bid"]),
                    BidHistory = ((List<object>)p["bidHistory"]).Select(Int).ToList(),
                    Hand = (string)p["hand"],
                    CardsTaken = (string)p["cardsTaken"],
                    HandScore = Int(p["handScore"]),
                    GameScore = (long)(double)p["gameScore"],
                    VoidSuits = ((List<object>)p["voidSuits"]).Select(s => (Suit)Enum.Parse(typeof(Suit), (string)s)).ToList(),
                    PlayedCards = ((List<object>)p["playedCards"]).Select(pc => (List<object>)pc)
                        .Select(pc => new PlayedCard { CardPlayed = ParseCard(pc[0]), HighInTrick = ParseCard(pc[1]) }).ToList(),
                };
                players.Add(player);
            }
            return players;
        }

        static void FillBase(object target, Dictionary<string, object> state, List<PlayerBase> players)
        {
            var t = target.GetType();
            var seat = Int(state["seat"]);
            t.GetField("dealerSeat").SetValue(target, Int(state["dealerSeat"]));
            t.GetField("options").SetValue(target, options);
            t.GetField("players").SetValue(target, players);
            t.GetField("player").SetValue(target, players.Single(p => p.Seat == seat));
            t.GetField("trumpSuit").SetValue(target, (Suit)Enum.Parse(typeof(Suit), (string)state["trumpSuit"]));
        }

        static object BidState(Dictionary<string, object> state)
        {
            var target = NewState("SuggestBidState");
            var players = Players(state);
            FillBase(target, state, players);
            var t = target.GetType();
            var seat = Int(state["seat"]);
            t.GetField("hand").SetValue(target, new Hand(players.Single(p => p.Seat == seat).Hand));
            t.GetField("legalBids").SetValue(target, ((List<object>)state["legalBids"]).Select(b => new BidBase(Int(b))).ToList());
            return target;
        }

        static object CardState(Dictionary<string, object> state)
        {
            var target = NewState("SuggestCardState");
            var players = Players(state);
            FillBase(target, state, players);
            var t = target.GetType();
            t.GetField("trick").SetValue(target, Cards(state["trick"]));
            t.GetField("cardsPlayed").SetValue(target, Cards(state["cardsPlayed"]));
            t.GetField("legalCards").SetValue(target, Cards(state["legalCards"]));
            var trick = (List<Card>)t.GetField("trick").GetValue(target);
            var taking = state["cardTakingTrick"];
            // The card taking the trick is the trick's own card object (bots compare by reference).
            Card takingCard = null;
            if (taking != null)
                takingCard = trick.FirstOrDefault(c => c.ToString() == (string)taking) ?? ParseCard(taking);
            t.GetField("cardTakingTrick").SetValue(target, takingCard);
            var takerSeat = state["trickTaker"];
            t.GetField("trickTaker").SetValue(target, takerSeat == null ? null : players.Single(p => p.Seat == Int(takerSeat)));
            t.GetField("isPartnerTakingTrick").SetValue(target, (bool)state["isPartnerTakingTrick"]);
            return target;
        }

        // --- reading back what the bot was given (the tests' window on the host) ----------
        static object Describe(object value)
        {
            if (value == null || value is string || value is bool || value is int || value is long || value is double || value is Enum)
                return value;
            if (value is Card || value is Hand)
                return value.ToString();
            var list = value as IEnumerable;
            if (list != null)
                return list.Cast<object>().Select(Describe).ToList();
            var result = new SortedDictionary<string, object>(StringComparer.Ordinal);
            foreach (var f in value.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
                result[f.Name] = f.Name == "options" ? (object)"(options)" : Describe(f.GetValue(value));
            foreach (var p in value.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
                if (p.GetIndexParameters().Length == 0)
                    result[p.Name] = Describe(p.GetValue(value));
            return result;
        }
    }
}
