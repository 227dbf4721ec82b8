"""`make report [RESULTS="a.json b.json out/fleet"]`: one report over the
results of several machines, as out/report/index.html (one self-contained
page: inline CSS and SVG, nothing fetched) and out/report/report.md.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.report [INPUT...]
        [--out=out/report] [--leak=out/leak/summary.csv]

Inputs are results files and fleet directories (default:
out/results/latest.json and out/fleet/, whichever exist). Runs are grouped
by machine and merged, the newest run per benchmark (machines.py); the
content is built once as blocks (sections.py, blocks.py) and drawn as the
page (html_page.py, charts by svg.py) and as Markdown. A fleet host that
failed is named in the header with its error.
"""
