"""Pictures written the way every file that matters is: atomically, and always as PNG.

The format is named, not guessed from the path's suffix, so `--png out` or `--png 0.0` writes a
PNG there instead of failing in matplotlib ("Format '0' is not supported").
"""

from __future__ import annotations


def save_png(fig, path: str, dpi: int = 100) -> str:
    """Write matplotlib figure `fig` to `path` as a PNG (atomically); return the path."""
    from cfr.atomic_file import atomic_path

    with atomic_path(str(path), suffix=".png") as tmp:
        fig.savefig(tmp, format="png", dpi=dpi)
    return str(path)
