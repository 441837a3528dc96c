"""The rating ladder's picture: the ratings with their 95 % intervals (left) and the matrix of
pairwise pair scores, row player against column player (right), so a cycle is visible.
Needs matplotlib (a dependency); without it `write_rating_png` raises
`play.summary_plot.PlotUnavailable`."""

from __future__ import annotations

import numpy as np

from play.summary_plot import INSTALL_HINT, PlotUnavailable


def write_rating_png(result, path: str) -> str:
    """Draw `result` (a `play.ladder.LadderResult`) into the PNG `path`; return the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable(INSTALL_HINT) from None
    r = result.ratings
    names = [e.spec for e in result.entrants]
    order = sorted(range(len(names)), key=lambda k: r.rating[k])  # best at the top
    labels = [f"#{k + 1} {_short(names[k])}" for k in order]
    n = len(names)
    fig, (left, right) = plt.subplots(1, 2, figsize=(6 + 1.4 * n, 1.5 + 0.6 * n + 2),
                                      gridspec_kw={"width_ratios": [1, 1.2]})
    y = np.arange(n)
    rating = r.rating[order]
    err = np.array([rating - r.low[order], r.high[order] - rating])
    colors = ["tab:grey" if k == r.anchor else "tab:blue" for k in order]
    left.barh(y, rating - rating.min() + 100, left=rating.min() - 100, color=colors,
              alpha=0.35)
    left.errorbar(rating, y, xerr=err, fmt="o", color="black", capsize=5)
    for yy, value in zip(y, rating):
        left.annotate(f"{value:.0f}", (value, yy), textcoords="offset points",
                      xytext=(0, 7), ha="center", fontsize=8)
    left.set_yticks(y, labels)
    left.set_xlabel("rating (Elo scale)")
    left.set_title(f"ratings, 95% bootstrap intervals\n(anchor {_short(names[r.anchor])} = "
                   f"{r.anchor_rating:g})")
    top = order[::-1]
    grid = np.full((n, n), np.nan)
    for a_pos, a in enumerate(top):
        for b_pos, b in enumerate(top):
            cell = result.matrix[a][b]
            if cell is not None:
                grid[a_pos, b_pos] = 100 * cell["rate"]
    image = right.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for a_pos, a in enumerate(top):
        for b_pos, b in enumerate(top):
            cell = result.matrix[a][b]
            text = "-" if a == b else ("n/a" if cell is None else
                                       f"{100 * cell['rate']:.0f}\n"
                                       f"({100 * cell['low']:.0f}-{100 * cell['high']:.0f})")
            dark = cell is not None and abs(cell["rate"] - 0.5) > 0.3  # white on dark cells
            right.text(b_pos, a_pos, text, ha="center", va="center", fontsize=8,
                       color="white" if dark else "black")
    right.set_xticks(range(n), [f"#{k + 1}" for k in top])
    right.set_yticks(range(n), [f"#{k + 1}" for k in top])
    right.set_title("pair score of row vs column, % (95% CI)")
    fig.colorbar(image, ax=right, fraction=0.046, pad=0.04)
    fig.suptitle(f"rating ladder: {result.games} duplicate pairs a match, seed {result.seed}")
    fig.tight_layout()
    from play.figure_file import save_png

    save_png(fig, path)
    plt.close(fig)
    return path


def _short(name: str, limit: int = 28) -> str:
    return name if len(name) <= limit else "..." + name[-(limit - 3):]
