"""`make scenario NAME=<name>`: the command (see the package's docstring)."""
import sys

from ..cli import ArgumentParser, run_main
from ..errors import InputError
from ..output import StagedFiles
from . import SCENARIOS
from . import __doc__ as DESCRIPTION
from .document import contention, markdown
from .measure import Options, measure


def write_scenario(scenario, opts):
    m, raws, commands = measure(scenario, opts)
    table = scenario.table(m)
    figure = scenario.chart(table, m)
    with StagedFiles(opts.out) as files:
        files.add_text(f"{scenario.name}.md",
                       markdown(scenario, table, m, commands))
        files.add_text(f"{scenario.name}.csv", table.csv())
        files.add_figure(scenario.name, figure, formats=("png",))
        for label, raw in raws.items():
            suffix = "" if label == "default" else f"-{label}"
            files.add_text(f"{scenario.name}{suffix}.json", raw)
        files.commit()
    for warning in contention(m):
        print(f"scenario {scenario.name}: warning: {warning}",
              file=sys.stderr)
    print(f"scenario {scenario.name}: {opts.out}/{scenario.name}.md, .csv, "
          f".png ({len(table.measured_rows())} of {len(table.rows)} rows "
          f"measured)")


def main(argv):
    names = list(SCENARIOS) + ["all"]
    parser = ArgumentParser(prog="python3 -m cyclebench.scenario",
                            description=DESCRIPTION)
    parser.add_argument("name", nargs="?", help=" | ".join(names))
    parser.add_argument("--bin", default=Options.binary)
    parser.add_argument("--out", default=Options.out)
    parser.add_argument("--profiles", default=Options.profiles)
    parser.add_argument("--min-time", type=float, default=Options.min_time,
                        help="seconds each benchmark samples at least "
                        "(default: the sampler's)")
    parser.add_argument("--repetitions", type=int,
                        default=Options.repetitions)
    parser.add_argument("--cpu", type=int, help="the CPU to pin to")
    args = parser.parse_args(argv)
    if args.name not in names:
        said = f"unknown scenario '{args.name}'" if args.name else \
            "no scenario named"
        raise InputError(f"{said}: make scenario NAME=<one of "
                         f"{', '.join(names)}>")
    opts = Options(args.bin, args.out, args.profiles, args.min_time,
                   args.repetitions, args.cpu)
    for name in (list(SCENARIOS) if args.name == "all" else [args.name]):
        write_scenario(SCENARIOS[name], opts)
    return 0


if __name__ == "__main__":
    run_main(main, "scenario")
