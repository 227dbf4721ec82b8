"""`make profile` and `make diff`: a kernel variant under perf, split per
function, with llvm-mca's prediction beside the measurement; and two
variants' hottest code side by side.

    PYTHONPATH=.:tools /usr/bin/python3 -m profiles KERNEL ...
    PYTHONPATH=.:tools /usr/bin/python3 -m profiles.diff A B ...

One concern per module: profiler (the profile itself: perf record and
report, the breakdown, the listing), diff, perf_parse (perf's text
output), hot_loop (basic blocks, loops, the body as it runs), loop_count
(gdb's counts per call), mca (running and reading llvm-mca), predict (the
three together). The parsers use only the standard library.
"""
