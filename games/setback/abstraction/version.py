"""The abstraction's name and version, recorded in checkpoints, strategy files and databases.

Bump ABSTRACTION_VERSION whenever a key layout, an action list or a card choice changes:
strategies trained under another version are keyed differently and must not be mixed.
"""

ABSTRACTION_NAME = "setback-reference"
ABSTRACTION_VERSION = 1
