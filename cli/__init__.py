"""The `setback-cfr` command line: one module per subcommand."""
