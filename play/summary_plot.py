"""The tournament's PNG summary: win rate with its 95% interval, points per deal, bids made
and set. Needs matplotlib (a dependency); should it be missing all the same,
`write_summary_png` raises `PlotUnavailable` with the install command, and the caller carries
on without the PNG."""

from __future__ import annotations


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


INSTALL_HINT = "the PNG summary needs matplotlib: pip install matplotlib"


def write_summary_png(summary, path: str) -> str:
    """Draw `summary` (Setback's, `games.setback.play.tournament.Summary`) into the PNG `path`;
    return the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable(INSTALL_HINT) from None
    import textwrap

    s = summary
    # The bars are named A and B: players' names run long (search[...]:db:PATH) and ran into
    # each other under the bars; the names are written out once, in full, below the panels.
    names = ("A", "B")
    legend = "\n".join(textwrap.fill(f"{letter}: {name}", 150, subsequent_indent="    ")
                       for letter, name in (("A", s.player_a), ("B", s.player_b)))
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(12, 4.6))
    rate = 100 * s.win_rate
    left.bar(names, [rate, 100 - rate], color=["tab:blue", "tab:orange"],
             yerr=[[rate - 100 * s.ci_low, 100 * s.ci_high - rate],
                   [100 * s.ci_high - rate, rate - 100 * s.ci_low]], capsize=6)
    left.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    left.set_ylim(0, 100)
    left.set_ylabel("games won (%)")
    left.set_title(f"win rate, 95% CI ({'duplicate' if s.duplicate else 'single'} games)")
    middle.bar(names, [s.points_per_deal_a, s.points_per_deal_b],
               color=["tab:blue", "tab:orange"])
    middle.axhline(0, color="grey", linewidth=0.8)
    middle.set_title("points per deal")
    made = [s.made_a, s.made_b]
    set_ = [s.set_a, s.set_b]
    right.bar(names, made, label="made", color="tab:green")
    right.bar(names, set_, bottom=made, label="set", color="tab:red")
    right.set_title("auctions won: made / set")
    right.legend()
    fig.suptitle(f"A vs B: {s.games:,} games, seed {s.seed}")
    fig.text(0.01, 0.01, legend, fontsize=9, family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.06 + 0.035 * legend.count("\n"), 1, 1))
    from play.figure_file import save_png

    save_png(fig, path)
    plt.close(fig)
    return path
