"""The names of the training algorithms and update rules, in a leaf module.

Plain data, no numba: the command line lists them as choices without compiling anything, and
`train.run_directory` validates a recorded run against them without importing the trainer
(which imports the run directory: the names live here so that neither imports the other).
"""

ES_MCCFR = "es-mccfr"
# full-width CFR and its variants (`cfr.variants`), then external-sampling MCCFR
ALGORITHMS = ("cfr", "cfr+", "lcfr", "dcfr", ES_MCCFR)
# simultaneous: both teams' increments against the strategy frozen for the batch;
# reference: the reference program's in-place walk (`cfr.threaded_pass`), cfr only
UPDATES = ("simultaneous", "reference")
