"""A scenario's table: a row per kernel variant, a column per figure in the
published experiment's units, written as Markdown and CSV. A kernel the build lacks, or an
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


# Leak verdicts beside the rows (make leak-table's CSV)

def leak_verdict(found):
    """make leak-table's row as a few words: ctgrind's verdict, and the
    t-test's."""
    parts = [f"ctgrind {found['ctgrind']}"] if found.get("ctgrind") else []
    if found.get("verdict"):
        t = f" (max |t| {found['max_t']})" if found.get("max_t") else ""
        parts.append(f"t-test: {found['verdict']}{t}")
    return "leak: " + ", ".join(parts) if parts else ""


def add_leak_verdicts(t, path, leak, unchecked=()):
    """Each of our rows' verdicts from make leak-table's CSV, after its
    note, except rows labelled as in unchecked (a run make leak-table did
    not make); a note saying how to get them when there is none."""
    if leak is None:
        t.notes.append(f"No leak verdicts: {path} is absent (`make "
                       "leak-table` writes it; then rerun this scenario).")
        return
    _, rows = leak
    found = {(r.get("kernel"), r.get("isa")): r for r in rows}
    for row in t.rows:
        if row.label in unchecked:
            continue
        words = leak_verdict(found.get((row.kernel, row.isa), {}))
        if words:
            row.note = f"{row.note}; {words}" if row.note else words
    t.notes.append(f"Leak verdicts from {path} (make leak-table): "
                   "ctgrind is valgrind's memcheck on the key-derived state "
                   "(VAES and AVX-512 rows are not checkable under it), the "
                   "t-test is `cyclebench leak`'s.")


def add_paired_notes(t, m, pairs, condition):
    """A note per PairedRun: its same-moment ratio (`run --vs`), or why
    there is none. condition says how the pair ran ("with AES-NI
    masked")."""
    for pair in pairs:
        r = m.paired.get(pair.key())
        what = f"{pair.kernel} against {pair.vs} {condition}, {pair.size} B"
        if r is None:
            t.notes.append(f"Same moments, {what}: not run (a row this CPU "
                           f"lacks, or a run without `run --vs`).")
            continue
        q = r["ratio"]
        t.notes.append(
            f"Same moments (`cyclebench run {pair.kernel} --vs={pair.vs} "
            f"--size={pair.size}`), {what}: ours over OpenSSL's "
            f"{q['median']:.3f} (quartiles {q['q1']:.3f} to {q['q3']:.3f}, "
            f"{r['pairs']} pairs of {r['block_seconds'] * 1000:.0f} ms "
            f"blocks; {r['tsc_cycles_per_byte']:.2f} against "
            f"{r['vs_tsc_cycles_per_byte']:.2f} TSC ticks/byte).")
