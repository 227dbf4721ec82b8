"""`make plots`: a results file's charts, per family of kernels, as PNG and
SVG in out/plots/.

    PYTHONPATH=.:tools /usr/bin/python3 -m plots [RESULTS] ...

One concern per module: plot (the command), charts (the figures). What
they read and how they draw is the core package's (tools/cyclebench/:
results, registry, units, drawing, output).
"""
