"""The one error every command turns into a one-line message and exit
status 2 (cli.run_main)."""


class InputError(Exception):
    """Bad input. The message is one line: what was wrong and the fix."""
