"""`make plots`: the command (plot.py)."""
from cyclebench.cli import run_main

from .plot import main

if __name__ == "__main__":
    run_main(main, "plots")
