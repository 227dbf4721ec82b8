"""A scenario's table: a row per kernel variant, a column per figure in the
seed's units, written as Markdown and CSV. A kernel the build lacks, or an
ISA this CPU lacks, is a row that says so."""
import csv
import io
from dataclasses import dataclass, field

from ..units import sig3

FORMATS = {
    "sig3": sig3,
    "int": lambda v: f"{v:,.0f}",
    "k": lambda v: f"{v:.2f}k",      # openssl speed's 1000s of bytes/s
    "x": lambda v: f"{v:.2f}x",
    "mib": lambda v: f"{v:,.1f}",
}


@dataclass
class Column:
    name: str          # the header, naming the unit
    fmt: str = "sig3"  # a key of FORMATS, for the markdown table


@dataclass
class Row:
    kernel: str
    isa: str
    values: list       # floats, None where there is no number
    note: str = ""
    label: str = None  # what the variant column shows, if not the ISA

    @property
    def variant(self):
        return self.label or self.isa


@dataclass
class Table:
    columns: list
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    variant_header: str = "isa"
    sections: list = field(default_factory=list)  # extra markdown

    def headers(self):
        return (["kernel", self.variant_header] +
                [c.name for c in self.columns] + ["note"])

    def markdown(self):
        lines = ["| " + " | ".join(self.headers()) + " |",
                 "|" + "---|" * len(self.headers())]
        for row in self.rows:
            cells = [FORMATS[c.fmt](v) if v is not None else "—"
                     for c, v in zip(self.columns, row.values)]
            lines.append("| " + " | ".join(
                [row.kernel, row.variant] + cells + [row.note]) + " |")
        return "\n".join(lines) + "\n"

    def csv(self):
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.headers())
        for row in self.rows:
            numbers = ["" if v is None else f"{v:.10g}" for v in row.values]
            writer.writerow([row.kernel, row.variant] + numbers + [row.note])
        return buf.getvalue()

    def measured_rows(self):
        return [r for r in self.rows if any(v is not None for v in r.values)]

    def add_variants(self, m, kernel, values, isas=None, note=None,
                     results=None):
        """A row per ISA of kernel (isas: a subset), best ISA first, as the
        registry lists them, with values(results, kernel, isa) -> [a number
        or None per column]; one row saying so when this build has no such
        kernel. Returns the rows added."""
        results = results or m.results
        blank = [None] * len(self.columns)
        if kernel not in m.registry:
            rows = [Row(kernel, "—", blank, "not available: this build has "
                        "no such kernel (see `cyclebench list`)")]
        else:
            rows = [variant_row(results, kernel, isa.name, isa.supported,
                                values, note, blank)
                    for isa in m.registry.variants(kernel)
                    if isas is None or isa.name in isas]
        self.rows += rows
        return rows


def why_missing(results, kernel, isa, supported):
    """The note for a variant with no number."""
    reason = results.skipped_reason(kernel, isa)
    if reason:
        return f"not measured: {reason}"
    error = results.error(kernel, isa)
    if error:
        return f"failed: {error}"
    if not supported:
        return "unsupported on this CPU"
    return "not measured: no result in this run"


def variant_row(results, kernel, isa, supported, values, note, blank):
    numbers = values(results, kernel, isa) if supported else blank
    if all(v is None for v in numbers):
        return Row(kernel, isa, blank,
                   why_missing(results, kernel, isa, supported))
    return Row(kernel, isa, numbers, note(kernel, isa) if note else "")
