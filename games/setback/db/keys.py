"""Setback's keys as the database sees them, in the shape every game's `key_codec` entry point
has (`games/registry.py`): the kinds (`db/key_kind.py`), which stage holds which, the action
names (`db/action_names.py`) and the header check (the key layouts of
`games/setback/abstraction/layouts.py`). Setback's key text depends on the layout, so `key_text` is
the layout's (`layouts.load(name).key_text`), not a member here: `header_key_text(header)` gives
the one a run or a strategy file recorded."""

from __future__ import annotations

from db import action_names as _names
from db import key_kind as _kinds


class KeyCodec:
    """Setback's key codec for the database (see the module docstring)."""

    game = "setback"
    kind_names = _kinds.KIND_NAMES
    unknown = _kinds.UNKNOWN
    stage_kinds = _kinds.STAGE_KINDS
    key_text = None

    @staticmethod
    def key_kinds(texts):
        """`db.key_kind.key_kinds`."""
        return _kinds.key_kinds(texts)

    @staticmethod
    def action_names(text, n_actions):
        """`db.action_names.action_names`."""
        return _names.action_names(text, n_actions)

    @staticmethod
    def check_header(header):
        """The header's key layout (`layouts.of_header`), `LayoutError` for an unknown one."""
        from games.setback.abstraction import layouts

        layout = layouts.of_header(header)
        return layout.abstraction, layout.version

    @staticmethod
    def header_layout(header):
        """The key layout `header` records (`layouts.Layout`: what Setback's database player
        reads of a database's keys)."""
        from games.setback.abstraction import layouts

        return layouts.of_header(header)

    @staticmethod
    def header_key_text(header):
        """The `key_text` of the key layout `header` records (`check_header` accepted it)."""
        from games.setback.abstraction import layouts

        return layouts.load(KeyCodec.header_layout(header).name).key_text


KEY_CODEC = KeyCodec()
