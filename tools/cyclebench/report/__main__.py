"""`make report`: the command (see the package's docstring)."""
import os

from ..cli import ArgumentParser, run_main
from ..errors import InputError
from ..output import StagedFiles
from . import __doc__ as DESCRIPTION
from .machines import group, read_inputs
from .sections import LEAK_CSV, build, read_leak

DEFAULT_INPUTS = ["out/results/latest.json", "out/fleet"]


def main(argv):
    parser = ArgumentParser(prog="python3 -m cyclebench.report",
                            description=DESCRIPTION)
    parser.add_argument("inputs", nargs="*", help="results files and fleet "
                        "directories (default: out/results/latest.json and "
                        "out/fleet, whichever exist)")
    parser.add_argument("--out", default="out/report", help="output "
                        "directory")
    parser.add_argument("--leak", default=LEAK_CSV, help="make leak-table's "
                        "CSV, if present")
    args = parser.parse_args(argv)
    inputs = args.inputs or [p for p in DEFAULT_INPUTS if os.path.exists(p)]
    if not inputs:
        raise InputError("nothing to report on: out/results/latest.json "
                         "and out/fleet/ are missing: run `make bench` or "
                         "`make fleet` first, or pass RESULTS=\"a.json ...\"")
    runs, failures = read_inputs(inputs)
    if not runs:
        raise InputError("no results to report on: " + "; ".join(
            f"{f.host} failed: {f.message}" for f in failures))
    machines = group(runs)
    html, markdown = build(machines, failures, read_leak(args.leak))
    with StagedFiles(args.out) as files:
        files.add_text("index.html", html)
        files.add_text("report.md", markdown)
        files.commit()
    for f in failures:
        print(f"report: fleet host {f.host} failed: {f.message}")
    print(f"report: {len(machines)} machine(s) "
          f"({', '.join(m.label for m in machines)}) in {args.out}/index.html "
          f"and report.md")
    return 0


if __name__ == "__main__":
    run_main(main, "report")
