"""The report's blocks (blocks.py) as one self-contained HTML page: the
CSS in a <style> element, the charts as inline <svg>, no script, and no
src, href or url() pointing outside the file (links are #anchors), so it
reads the same as a mail attachment, a CI artifact or a local file.
"""
from html import escape

from .blocks import Facts, Figures, Section, Table, cell

CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
       margin: 1.5em auto; max-width: 78em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { border-bottom: 2px solid #ccc; margin-top: 2em; }
h3 { margin-top: 1.5em; }
nav a { margin-right: 1em; }
.failed, .warning { border-left: 4px solid; padding: .4em .8em; }
.failed { background: #fde8e8; border-color: #c00; }
.warning { background: #fff6db; border-color: #d9a400; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .6em 0 1.2em; }
caption { text-align: left; font-style: italic; padding-bottom: .3em; }
th, td { border: 1px solid #ccc; padding: .2em .55em; text-align: left;
         font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
.n { text-align: right; }
td strong { color: #063; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; }
figcaption { font-size: .85em; color: #555; max-width: 460px; }
svg.chart { font-family: inherit; background: #fff; border: 1px solid #eee; }
"""


def attributes(attrs):
    return "".join(f' {name}="{escape(str(value))}"'
                   for name, value in attrs.items())


def td(value, tag="td"):
    """A cell; figures (and — for none) right-aligned."""
    c = cell(value)
    number = c.text[:1].isdigit() or c.text == "—"
    attrs = dict(c.attrs, **({"class": "n"} if number else {}))
    content = escape(c.text)
    if c.strong:
        content = f"<strong>{content}</strong>"
    return f"<{tag}{attributes(attrs)}>{content}</{tag}>"


def table_html(table):
    caption = f"<caption>{escape(table.caption)}</caption>" \
        if table.caption else ""
    head = "<tr>" + "".join(td(c, "th") for c in table.columns) + "</tr>"
    rows = "".join("<tr>" + "".join(map(td, row)) + "</tr>"
                   for row in table.rows)
    return (f'<div class="scroll"><table{attributes(table.attrs)}>{caption}'
            f"<thead>{head}</thead><tbody>{rows}</tbody></table></div>")


def block_html(block, level):
    if isinstance(block, Section):
        anchor = f' id="{escape(block.anchor)}"' if block.anchor else ""
        inner = "".join(block_html(b, level + 1) for b in block.blocks)
        return (f"<section{anchor}{attributes(block.attrs)}>"
                f"<h{level}>{escape(block.title)}</h{level}>{inner}</section>")
    if isinstance(block, Table):
        return table_html(block)
    if isinstance(block, Facts):
        items = "".join(f"<dt>{escape(label)}</dt><dd>{escape(str(value))}"
                        f"</dd>" for label, value in block.items)
        return f"<dl>{items}</dl>"
    if isinstance(block, Figures):
        figures = "".join(f"<figure>{svg}<figcaption>{escape(caption)}"
                          f"</figcaption></figure>"
                          for svg, caption in block.charts)
        return f'<div class="figures">{figures}</div>'
    kind = f' class="{block.kind}"' if block.kind else ""
    return f"<p{kind}>{escape(block.text)}</p>"


def to_html(title, head, nav, blocks):
    """The page: the title and head blocks (the header), a contents line
    of (anchor, label), then the blocks."""
    links = "".join(f'<a href="#{escape(anchor)}">{escape(label)}</a>'
                    for anchor, label in nav)
    body = "".join(block_html(b, 2) for b in blocks)
    header = "".join(block_html(b, 2) for b in head)
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head>"
            f"<body><header><h1>{escape(title)}</h1>{header}</header>"
            f"<nav>{links}</nav>{body}"
            "</body></html>\n")
