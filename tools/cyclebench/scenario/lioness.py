"""LIONESS at Tor's 509-byte relay cell, per ISA, beside libsodium's
composition and Tor's own relay crypto; `make profile`'s per-function
breakdown when there is one."""
import csv
import glob
import os

from ..units import bytes_per_second
from .figures import bar_chart
from .measure import MIB, Scenario, ns_per_byte
from .table import Column, Table

SIZE = 509  # Tor's relay cell payload
KERNELS = ["lioness", "lioness12", "lioness8", "lioness-x4",
           "sodium:lioness", "tor1-relay-originate"]


def values(results, kernel, isa):
    ns = ns_per_byte(results, kernel, isa, SIZE)
    return [ns * SIZE, ns, bytes_per_second(ns) / MIB] if ns else [None] * 3


def relay_cell_note(kernel, isa):
    if kernel != "tor1-relay-originate":
        return ""
    return "software AES (no AES-NI)" if isa.startswith("generic") \
        else "with AES-NI"


def table(m):
    t = Table([Column(f"ns per {SIZE}-byte block or cell"),
               Column("ns/byte"), Column("MiB/s", "mib")])
    for kernel in KERNELS:
        t.add_variants(m, kernel, values, note=relay_cell_note)
    t.notes += [
        "lioness, lioness12, lioness8: LIONESS over ChaCha20, 12 and 8 with "
        "keyed BLAKE2b, both at the row's ISA; sodium:lioness is the same "
        "composed from libsodium.",
        "lioness-x4: LIONESS (ChaCha20) four cells per call, their BLAKE2b "
        "passes in the four lanes of one register; ns per block is per "
        "cell, from the same per-byte figure.",
        "tor1-relay-originate (also named tor-relay-cell): Tor's relay "
        "crypto per 509-byte cell, AES-128-CTR plus the running SHA-1 digest; its generic row is the "
        "without-AES-NI baseline.",
        "MiB/s is 2^20 bytes per second, from the TSC-timed ns/byte.",
    ]
    t.sections.append(breakdown_section(m.profiles_dir))
    return t


def breakdown_section(profiles_dir):
    paths = sorted(glob.glob(os.path.join(profiles_dir, "lioness*",
                                          "breakdown.csv")))
    if not paths:
        return ("## Per-function breakdown\n\nNo profile yet: "
                f"{profiles_dir}/lioness*/breakdown.csv does not exist. Run "
                "`make profile KERNEL=lioness`, then this scenario again.\n")
    return "\n".join(breakdown_table(path) for path in paths)


def breakdown_table(path, limit=12):
    """`make profile`'s breakdown.csv as markdown, its first rows."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return f"## Per-function breakdown: `{path}`\n\n(empty)\n"
    columns = [c for c in ("symbol", "self_percent", "samples",
                           "cycles_per_byte") if c in rows[0]] or list(rows[0])
    lines = [f"## Per-function breakdown: `{path}`\n",
             "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(row[c] or "" for c in columns) + " |"
              for row in rows[:limit]]
    if len(rows) > limit:
        lines.append(f"\n({len(rows) - limit} more rows in the file)")
    return "\n".join(lines) + "\n"


def chart(t, m):
    return bar_chart(t, m.registry, f"LIONESS and Tor's relay cell at {SIZE} "
                     "bytes", [1], "ns/byte (lower is faster)")


SCENARIO = Scenario(
    "lioness", f"LIONESS at Tor's {SIZE}-byte cell, per ISA",
    "LIONESS against Tor's cell_ops (the 2015 tor-dev post)",
    KERNELS, [SIZE], table, chart)
