"""`make plots [RESULTS=file] [CLOCK=tsc|core]`: a results file's figures,
as PNG and SVG, into out/plots/ (see charts.py for what each shows).

    PYTHONPATH=.:tools /usr/bin/python3 -m plots [RESULTS]
        [--out=out/plots] [--clock=tsc|core] [--ladder-size=576]
"""
import sys

from cyclebench.cli import ArgumentParser
from cyclebench.output import StagedFiles
from cyclebench.results import load
from cyclebench.units import CLOCK_COUNTERS

from .charts import results_figures


def main(argv):
    parser = ArgumentParser(prog="python3 -m plots",
                            description=__doc__)
    parser.add_argument("results", nargs="?",
                        default="out/results/latest.json",
                        help="results JSON from `cyclebench bench`")
    parser.add_argument("--out", default="out/plots", help="output directory")
    parser.add_argument("--clock", choices=sorted(CLOCK_COUNTERS),
                        default="tsc",
                        help="TSC ticks (default) or core cycles per byte")
    parser.add_argument("--ladder-size", type=int, default=576,
                        help="message size of the ISA ladder (bytes)")
    args = parser.parse_args(argv)
    results = load(args.results)
    figures, notes = results_figures(results, args.clock, args.ladder_size)
    with StagedFiles(args.out) as files:
        stems = []
        for stem, figure in figures:
            files.add_figure(stem, figure)
            stems.append(stem)
        files.commit()
    for note in notes:
        print(f"plots: {note}")
    if results.contention():
        print(f"plots: warning: {results.contention()}", file=sys.stderr)
    print(f"plots: {2 * len(stems)} files (PNG and SVG) in {args.out}/ from "
          f"{args.results}: {', '.join(stems)}")
    return 0

