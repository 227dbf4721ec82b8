#!/usr/bin/python3
"""`make plots [RESULTS=file] [CLOCK=tsc|core]`: a results file's figures,
as PNG and SVG, into out/plots/ (see charts.py for what each shows)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from charts import results_figures  # noqa: E402
from output import ArgumentParser, StagedFiles, run_main  # noqa: E402
from results import CLOCK_COUNTERS, load  # noqa: E402


def main(argv):
    parser = ArgumentParser(prog="plot.py", description=__doc__)
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


if __name__ == "__main__":
    run_main(main)
