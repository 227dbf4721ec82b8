"""cyclebench's tools: everything after `cyclebench bench` has measured,
as one package run with `PYTHONPATH=tools /usr/bin/python3 -m
cyclebench.<module>` (the make targets do).

Commands (module: make target):
- plot: make plots; summary: make bench's summary; compare: make compare
- scenario (one module per scenario): make scenario NAME=
- report (package): make report, make fleet
- profile (package): make profile; profile.diff: make diff
- leak.ctgrind: make ctgrind; leak.table: make leak-table
- registry: print the kernel registry, or refresh its snapshot

What they share, one concern a module: registry (the C registry through
`cyclebench list --json`: families, counterparts, ISA order), results
(reading results files), units (clocks and number formats), peers (ours
against other libraries' kernels), charts (the figures), output
(all-or-nothing files), cli (one-line errors, exit status 2), errors.
"""
import os

# The checkout this package sits in (tools/cyclebench/ within it).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
