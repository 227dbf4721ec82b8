"""Parsers for the text perf prints: `perf report --stdio` and
`perf annotate --stdio`, as perf 6.1 formats them (profiles/fixtures/
holds real samples of both).

Only the standard library: the tests import this under any Python 3.
"""
import re

# Prefixes objdump prints before a mnemonic.
PREFIXES = ("lock", "rep", "repz", "repnz", "bnd", "notrack", "data16", "cs",
            "ds")

# `perf report` rows: "    69.32%          1385  cyclebench  [.] sym  -  -"
REPORT_ROW = re.compile(r"^\s+(\d+\.\d+)%\s")
# "# Samples: 1K of event 'cpu-clock' (time slices: 1750.34,1751.34)"
REPORT_SAMPLES = re.compile(r"^# Samples: (\S+)\s+of event '([^']*)'")
# The symbol column starts with the sample's mode: [.] user, [k] kernel,
# [g] guest kernel, [u] guest user, [H] hypervisor.
SYMBOL_MODE = re.compile(r"^\[([.kguH])\]\s+")

# `perf annotate` instruction lines: "    0.39 :   d450:   push   %r13"
ANNOTATE_INSN = re.compile(r"^\s*(\d+\.\d+)\s*:\s+([0-9a-f]+):\s+(.*?)\s*$")
# The title line of one symbol's listing.
ANNOTATE_TITLE = re.compile(
    r"^\s*Percent\s*\|\s*Source code & Disassembly of (\S+) for (\S+) "
    r"\((\d+) samples")
# "         : 5    000000000000d450 <chacha_stream_xor_avx2>:"
ANNOTATE_SYMBOL = re.compile(r"^\s*:\s*\d*\s+[0-9a-f]+ <(.+)>:\s*$")


def _column_spans(header, dots):
    """Column names and [start, end) spans, from the header line and the
    dotted line under it ("# ........  ......"), which perf sizes to the
    widest entry of each column."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"\.+", dots)]
    names = [header[start:end].strip() or header[start:].split()[0]
             for start, end in spans]
    return names, spans


def _split_row(line, names, spans):
    """A report row cut at the column spans; the symbol runs up to the next
    column (IPC in perf 6.1), so a symbol with spaces stays whole."""
    cells = {}
    for i, (name, (start, end)) in enumerate(zip(names, spans)):
        stop = spans[i + 1][0] if i + 1 < len(spans) else len(line)
        cells[name] = line[start:stop if name == "Symbol" else end].strip()
    return cells


def _row(cells):
    symbol = cells.get("Symbol", "")
    mode = SYMBOL_MODE.match(symbol)
    return {
        "percent": float(cells["Overhead"].rstrip("%")),
        "samples": int(cells["Samples"]) if cells.get("Samples") else None,
        "dso": cells.get("Shared Object", ""),
        "mode": mode.group(1) if mode else "",
        "symbol": symbol[mode.end():] if mode else symbol,
    }


def parse_report(text):
    """`perf report --stdio [-n] [--sort dso,symbol]` output, with or
    without call chains. Returns {"event", "samples_label", "rows"}; rows
    keep perf's order (hottest first), each {"percent", "samples" (None
    without -n), "dso", "mode" ("." user, "k" kernel), "symbol"}. Raises
    ValueError when the text is not a report."""
    lines = text.splitlines()
    event = samples_label = None
    names = spans = None
    rows = []
    for i, line in enumerate(lines):
        m = REPORT_SAMPLES.match(line)
        if m:
            samples_label, event = m.group(1), m.group(2)
        elif line.startswith("# Overhead") and i + 1 < len(lines):
            names, spans = _column_spans(line, lines[i + 1])
        elif names and REPORT_ROW.match(line):
            rows.append(_row(_split_row(line, names, spans)))
    if event is None or names is None:
        raise ValueError("not perf report --stdio output (no '# Samples:' "
                         "or '# Overhead' header)")
    return {"event": event, "samples_label": samples_label, "rows": rows}


def parse_annotate(text):
    """`perf annotate --stdio` output: one listing per annotated symbol.
    Returns a list of {"symbol", "dso", "event", "samples",
    "instructions"}, where each instruction is {"percent", "address",
    "asm"}; source lines and inline-function markers are dropped. Raises
    ValueError when there is no listing."""
    listings = []
    for line in text.splitlines():
        title = ANNOTATE_TITLE.match(line)
        if title:
            listings.append({"symbol": None, "dso": title.group(1),
                             "event": title.group(2),
                             "samples": int(title.group(3)),
                             "instructions": []})
            continue
        if not listings:
            continue
        current = listings[-1]
        sym = ANNOTATE_SYMBOL.match(line)
        if sym and current["symbol"] is None:
            current["symbol"] = sym.group(1)
            continue
        insn = ANNOTATE_INSN.match(line)
        if insn:
            current["instructions"].append({
                "percent": float(insn.group(1)),
                "address": insn.group(2),
                "asm": insn.group(3).replace("\t", " "),
            })
    if not listings:
        raise ValueError("not perf annotate --stdio output (no 'Percent | "
                         "Source code & Disassembly' title)")
    return listings


def split_insn(asm):
    """Mnemonic (prefixes such as "lock" or "bnd" dropped) and operands, the
    operands split at top-level commas."""
    words = asm.split(None, 1)
    while words and words[0] in PREFIXES:
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        return "", []
    mnemonic = words[0]
    rest = words[1].split("#")[0].strip() if len(words) > 1 else ""
    operands, depth, current = [], 0, ""
    for ch in rest:
        if ch == "," and depth == 0:
            operands.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        operands.append(current.strip())
    return mnemonic, operands


# Addresses in objdump's operands: "jbe ddcc <sym+0x97c>", "call 5270
# <memset@plt>", "lea 0x2cd5(%rip),%rdi  # 10130 <table>".
TARGET = re.compile(r"\b[0-9a-f]+ <([^>]+)>")
RIP_OFFSET = re.compile(r"-?0x[0-9a-f]+\(%rip\)")


def strip_addresses(asm, symbol=None):
    """An instruction with its addresses gone, so two builds or two
    functions compare: branch targets in the symbol itself become <+off>,
    other targets keep only their name, and %rip offsets are dropped (the
    comment objdump adds names the target)."""
    def target(m):
        name = m.group(1)
        if symbol and name.startswith(symbol + "+"):
            return "<" + name[len(symbol):] + ">"
        if symbol and name == symbol:
            return "<+0x0>"
        return "<" + name + ">"
    asm = TARGET.sub(target, asm)
    asm = RIP_OFFSET.sub("(%rip)", asm)
    return re.sub(r"\s+", " ", asm).strip()
