"""The Spades abstraction's name and version, as runs, strategy files and databases record
them (plain data: nothing compiled). Bump the version whenever a key or an action changes."""

ABSTRACTION_NAME = "spades-basic"
ABSTRACTION_VERSION = 1
