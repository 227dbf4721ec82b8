"""`make scenario NAME=<name>`: one of the published experiments, rerun on this
machine through `cyclebench bench`, as out/scenarios/<name>.md (a table in
the experiment's units), .csv, .png, and .json (the raw results). NAME=all runs
every one of them, in the order of MODULES.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.scenario NAME
        [--bin=build/cyclebench] [--out=out/scenarios]
        [--profiles=out/profiles] [--min-time=S] [--repetitions=N] [--cpu=N]

A kernel the build lacks, or an ISA this CPU lacks, is a row that says so;
it never stops the scenario.

Adding a scenario is one module here and one line in MODULES below. The
module defines SCENARIO = measure.Scenario(name, title, experiment, kernels,
sizes, table, chart[, repetitions=, extra_runs=]), where
- table(m) takes the Measured (m.registry: the binary's kernels and
  their ISAs best first; m.runs: {label: Results}, "default" and one per
  ExtraRun) and returns a table.Table, built with
  Table.add_variants(m, kernel, values), values(results, kernel, isa)
  giving a number or None per column;
- chart(table, m) returns a matplotlib figure (figures.py draws bars per
  row or lines over sizes).
Rows of another kernel in an existing scenario are one more name in its
kernel list (and in its table's loop, where the table lists them).
"""
from importlib import import_module

# One line per scenario: its module, in the order NAME=all runs them.
MODULES = [
    "lioness",
    "isa_ladder",
    "disk",
    "aead",
    "bulk",
    "tor",
    "hash",
]

SCENARIOS = {s.name: s for s in (import_module(f"{__name__}.{m}").SCENARIO
                                 for m in MODULES)}
