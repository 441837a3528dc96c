"""The one exception type for bad Spades input (a bad card, a wrong hand, an illegal move)."""


class SpadesError(ValueError):
    """Invalid Spades input; the message names the offending token or move."""
