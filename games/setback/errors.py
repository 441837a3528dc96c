"""The one exception type for bad Setback input (a bad card, a wrong hand, an illegal move)."""


class SetbackError(ValueError):
    """Invalid Setback input; the message names the offending token or move."""
