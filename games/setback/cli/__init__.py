"""Setback's own commands and actions, which the program's commands add (the registry's
`commands`)."""
