"""`make profile`: the command (profiler.py)."""
import sys

from .profiler import main

if __name__ == "__main__":
    sys.exit(main())
