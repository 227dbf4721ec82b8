"""The report as a tree of blocks, built once (sections.py) and drawn twice:
html_page.py as one self-contained page, to_markdown() here as
report.md. Charts are inline SVG text; Markdown names them instead.
"""
from dataclasses import dataclass, field


@dataclass
class Cell:
    text: str
    attrs: dict = field(default_factory=dict)  # data-* attributes in HTML
    strong: bool = False


@dataclass
class Table:
    columns: list  # [Cell or str]
    rows: list     # [[Cell or str]]
    caption: str = ""
    attrs: dict = field(default_factory=dict)


@dataclass
class Para:
    text: str
    kind: str = ""  # "failed", "warning" or "" (CSS class in HTML)


@dataclass
class Facts:
    items: list  # [(label, value)]


@dataclass
class Figures:
    """Charts side by side: [(svg text, caption)]."""
    charts: list


@dataclass
class Section:
    title: str
    blocks: list
    anchor: str = ""
    attrs: dict = field(default_factory=dict)


def cell(value):
    return value if isinstance(value, Cell) else Cell(str(value))


# Markdown

def md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_cell(value):
    c = cell(value)
    return f"**{md_escape(c.text)}**" if c.strong else md_escape(c.text)


def md_table(table):
    lines = [f"{table.caption}", ""] if table.caption else []
    lines.append("| " + " | ".join(map(md_cell, table.columns)) + " |")
    lines.append("|" + "---|" * len(table.columns))
    lines += ["| " + " | ".join(map(md_cell, row)) + " |"
              for row in table.rows]
    return lines


def md_block(block, level):
    if isinstance(block, Section):
        lines = ["#" * level + " " + block.title, ""]
        for child in block.blocks:
            lines += md_block(child, level + 1) + [""]
        return lines[:-1]
    if isinstance(block, Table):
        return md_table(block)
    if isinstance(block, Facts):
        return [f"- **{label}:** {md_escape(value)}"
                for label, value in block.items]
    if isinstance(block, Figures):
        return ["Charts (in index.html): " + "; ".join(
            caption for _, caption in block.charts) + "."]
    prefix = {"failed": "**FAILED:** ", "warning": "**Warning:** "}
    return [prefix.get(block.kind, "") + block.text]


def to_markdown(title, blocks):
    lines = [f"# {title}", ""]
    for block in blocks:
        lines += md_block(block, 2) + [""]
    return "\n".join(lines)
