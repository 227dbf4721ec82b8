"""What every command shares: one-line errors with exit status 2, from
argparse and from InputError alike."""
import argparse
import errno
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
        die(os_error_message(e))


# The fix an OSError names, by errno: it may come from reading, writing or
# running a file, and the exception does not say which.
FIXES = {
    errno.ENOENT: "check the path (a missing build/cyclebench: run `make`)",
    errno.EACCES: "check its permissions, and that its directory is "
                  "writable where something is written there",
    errno.EPERM: "check its permissions",
    errno.ETXTBSY: "the program is being rewritten (a build running?): "
                   "run again when it is done",
    errno.ENOSPC: "free some space and run again",
    errno.EROFS: "write somewhere else",
}


def os_error_message(e):
    """One line for an OSError: the file, what went wrong, the fix."""
    fix = FIXES.get(e.errno, "check the file and its directory")
    return f"{e.filename or 'a file'}: {e.strerror or e}: {fix}"
