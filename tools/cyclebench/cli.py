"""What every command shares: one-line errors with exit status 2, from
argparse and from InputError alike."""
import argparse
import sys

from .errors import InputError

# The name errors begin with; run_main sets it.
program = "cyclebench"


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors are one line, exit status 2."""

    def error(self, message):
        die(f"{message} (usage: {self.format_usage().strip()[7:]})")


def die(message, status=2):
    print(f"{program}: {message}", file=sys.stderr)
    sys.exit(status)


def run_main(main, name):
    """Runs main(argv), turning InputError and OSError into one-line errors
    that begin with name."""
    global program
    program = name
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        die(str(e))
    except KeyboardInterrupt:
        die("interrupted: no output was written or replaced", 130)
    except OSError as e:
        die(f"cannot write {e.filename or 'output'}: {e.strerror}: check the "
            f"directory exists and is writable")
