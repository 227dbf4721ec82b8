"""cyclebench's tools: everything after `cyclebench bench` has measured,
run as modules with `PYTHONPATH=.:tools /usr/bin/python3 -m <module>` from
the checkout's top (the make targets do). This package is the core the
others import; the charts and the profiles are packages of their own at
the top of the checkout (plots/, profiles/).

Commands (module: make target):
- plots (top level): make plots
- profiles (top level): make profile; profiles.diff: make diff
- cyclebench.summary: make bench's summary; cyclebench.compare: make compare
- cyclebench.scenario (one module per scenario): make scenario NAME=
- cyclebench.report (package): make report, make fleet
- cyclebench.leak.ctgrind: make ctgrind; cyclebench.leak.table: make leak-table
- cyclebench.registry: print the kernel registry, or refresh its snapshot

The core, one concern a module: registry (the C registry through
`cyclebench list --json`: families, counterparts, ISA order), results
(reading results files and grouping them by family), units (clocks and
number formats), peers (ours against other libraries' kernels), drawing
(matplotlib, one colour per ISA, the size axis), output (all-or-nothing
files), cli (one-line errors, exit status 2), errors.
"""
import os

# The checkout this package sits in (tools/cyclebench/ within it).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
