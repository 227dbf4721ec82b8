"""The sweeps kept in the repository, one per host (docs/results/), and the
README's headline table generated from them.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.sweep compact RESULTS OUT
        A results file as a compact sweep: its context, and per benchmark
        only its median and quartiles in TSC ticks per byte, to four
        significant digits, one benchmark per line (a full sweep stays well
        under 300 KB). Every tool reads it as results: ns/byte and
        estimated core cycles/byte follow from the context (results.py).
    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.sweep headline SWEEP...
        [--readme=README.md (--check | --write)]
        The headline table from the sweeps: per host, each kernel of ours
        at its fastest ISA against its peers at 16 KiB. --check exits 1
        when the README's table (between its headline markers) differs
        from it; --write puts it there.

A new host's sweep: `make bench`, then
`... sweep compact out/results/latest.json docs/results/<date>-<cpu>.json`.
"""
import json
import sys

from .cli import ArgumentParser, run_main
from .errors import InputError
from .output import StagedFiles
from .peers import COUNTER, comparisons
from .results import load
from .units import sig3

# What a compact sweep keeps of each benchmark: the median and quartiles.
KEPT_COUNTERS = ("tsc_cycles_per_byte", "tsc_cycles_per_byte_q1",
                 "tsc_cycles_per_byte_q3")
KEPT_FIELDS = ("name", "error_occurred", "error_message")
DIGITS = 4
HEADLINE_SIZE = 16384
START, END = "<!-- headline:start -->", "<!-- headline:end -->"


def compact_entry(entry):
    kept = {k: entry[k] for k in KEPT_FIELDS if k in entry}
    # A median aggregate's name carries "_median": the run's name is the
    # benchmark's.
    kept["name"] = entry.get("run_name", entry.get("name"))
    kept.update({k: float(f"{entry[k]:.{DIGITS}g}") for k in KEPT_COUNTERS
                 if isinstance(entry.get(k), (int, float))})
    return kept


def compact(document):
    """The compact form of a decoded results document."""
    entries = document.get("benchmarks", [])
    aggregated = any(e.get("run_type") == "aggregate" for e in entries)
    # With repetitions, the median aggregate is what every tool reads.
    kept = [compact_entry(e) for e in entries
            if not aggregated or e.get("aggregate_name") == "median"
            or e.get("error_occurred")]
    return {"context": document.get("context", {}), "benchmarks": kept}


def compact_text(document):
    doc = compact(document)
    lines = ["{", '  "context": ' + json.dumps(doc["context"],
                                               sort_keys=True) + ",",
             '  "benchmarks": [']
    lines += [json.dumps(e, separators=(",", ":")) +
              ("," if i + 1 < len(doc["benchmarks"]) else "")
              for i, e in enumerate(doc["benchmarks"])]
    return "\n".join(lines + ["  ]", "}", ""])


def host_label(context):
    return context.get("cpu_model", "unknown CPU")


def headline(paths):
    """The headline table, as Markdown, from sweeps at paths."""
    lines = ["| host | kernel | fastest ISA | ours | peers (ratio) |",
             "| --- | --- | --- | --- | --- |"]
    for path in paths:
        results = load(path)
        label = f"{host_label(results.context)} ({path.rsplit('/', 1)[-1]})"
        for row in comparisons(results, sizes=[HEADLINE_SIZE]):
            if not row.peers:
                continue
            peers = ", ".join(f"{p.library} {p}" for p in row.peers)
            lines.append(f"| {label} | {row.kernel} | {row.isa} | "
                         f"{sig3(row.value)} | {peers} |")
            label = ""
    if len(lines) == 2:
        raise InputError("no kernel of ours has a peer at 16384 bytes in "
                         "these sweeps: pass sweeps of a full `make bench`")
    return "\n".join(lines) + "\n"


def readme_block(text, path):
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise InputError(f"{path} has no {START} ... {END} block: add the "
                         f"two markers where the table goes")
    return start + len(START), end


def main(argv):
    parser = ArgumentParser(prog="sweep")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compact")
    c.add_argument("results")
    c.add_argument("out")
    h = sub.add_parser("headline")
    h.add_argument("sweeps", nargs="+")
    h.add_argument("--readme")
    mode = h.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "compact":
        load(args.results)  # refuses what is not a results file
        with open(args.results, encoding="utf-8") as f:
            text = compact_text(json.load(f))
        directory, name = (args.out.rsplit("/", 1) if "/" in args.out
                           else (".", args.out))
        with StagedFiles(directory) as files:
            files.add_text(name, text)
            files.commit()
        return 0
    table = headline(args.sweeps)
    if not args.readme:
        sys.stdout.write(table)
        return 0
    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    start, end = readme_block(text, args.readme)
    wanted = text[:start] + "\n" + table + text[end:]
    if args.write:
        directory, name = (args.readme.rsplit("/", 1)
                           if "/" in args.readme else (".", args.readme))
        with StagedFiles(directory) as files:
            files.add_text(name, wanted)
            files.commit()
        return 0
    if args.check and wanted != text:
        print(f"sweep: {args.readme}'s headline table is not the one the "
              f"sweeps give: regenerate it with --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_main(main, "sweep")
