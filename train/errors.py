"""Errors of the training stages that the command line reports in one line (status 2)."""


class RunError(Exception):
    """A run directory or a training setting that cannot be used (conflict, missing, corrupt)."""
