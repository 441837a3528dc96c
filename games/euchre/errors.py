"""The one exception type for bad Euchre input (a bad card, a wrong hand, an illegal move)."""


class EuchreError(ValueError):
    """Invalid Euchre input; the message names the offending token or move."""
