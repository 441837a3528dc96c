"""Training stages (baseline, bootstrap): progress, logs, resume."""
