"""Info-set abstractions that shrink a game for CFR (Setback key layouts)."""
