"""Running the `setback-cfr` command line in-process, for the CLI tests."""

from cli.main import main


def run_cli(capsys, argv):
    """Run the CLI with `argv`; return (exit status, stdout, stderr) as captured by `capsys`."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err
