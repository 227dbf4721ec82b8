"""Tor's relay crypto per 509-byte cell: tor1 (today's, AES-128-CTR and a
running SHA-1 digest) against CGO (Counter Galois Onion, its successor) at
a middle relay and originating, the client's three hops, CGO on four
circuits at once, and LIONESS; at every ISA, so with and without AES-NI;
beside Tor's own figures (another machine's) and each variant's leak
verdicts from `make leak-table`."""
from ..leak.table import read_leak
from .figures import bar_chart
from .measure import Scenario, ns_per_byte
from .table import Column, Row, Table, add_leak_verdicts

SIZE = 509  # a relay cell's payload

FORWARD = ("tor1-relay-forward", "tor-cgo-relay-forward")
ORIGINATE = ("tor1-relay-originate", "tor-cgo-relay-originate")
X4 = "tor-cgo-relay-forward-x4"
CLIENT = ("tor-cgo-client-originate", "tor-cgo-client-forward",
          "tor-cgo-client-backward")
LIONESS = ("lioness", "lioness-x4")
KERNELS = [*FORWARD, X4, *ORIGINATE, *CLIENT, *LIONESS]

# Tor's tracker, tor#41075: ns per cell on one unnamed CPU, and the ratio
# CGO/tor1 its figures give (midpoints of its ranges).
TOR_NS = {"tor1-relay-forward": 59.5, "tor-cgo-relay-forward": 174.5,
          "tor1-relay-originate": 301.0, "tor-cgo-relay-originate": 657.0}
TOR_RATIO = {"tor-cgo-relay-forward": 174.5 / 59.5,
             "tor-cgo-relay-originate": 657.0 / 301.0}
# The tor1 kernel a CGO row is read against.
TOR1_OF = {"tor-cgo-relay-forward": "tor1-relay-forward",
           X4: "tor1-relay-forward",
           "tor-cgo-relay-originate": "tor1-relay-originate"}

# The client's three hops, composed from one-hop kernels' medians: name,
# then (kernel, how many) per ISA. Sending to hop 3 is its layer and two
# more; receiving from hop 3 is a layer per hop, the last one recognized,
# which rekeys (originate less forward is the rekey and the nonce copy).
THREE_HOPS = [
    ("cgo client, 3 hops, originate",
     [("tor-cgo-client-originate", 1), ("tor-cgo-client-forward", 2)]),
    ("cgo client, 3 hops, receive",
     [("tor-cgo-client-backward", 3), ("tor-cgo-client-originate", 1),
      ("tor-cgo-client-forward", -1)]),
    # tor1's client: its layers are CTR alone (the relay's forward path,
    # whose recognized check is one comparison), the digest at the end.
    ("tor1 client, 3 hops, originate",
     [("tor1-relay-originate", 1), ("tor1-relay-forward", 2)]),
    ("tor1 client, 3 hops, receive",
     [("tor1-relay-forward", 2), ("tor1-relay-originate", 1)]),
]
RATIO_OF_THREE = {"cgo client, 3 hops, originate":
                  "tor1 client, 3 hops, originate",
                  "cgo client, 3 hops, receive":
                  "tor1 client, 3 hops, receive"}

# The rows without AES instructions: the T-table AES, and the
# constant-time vector-permute one.
WITHOUT_AESNI = ("generic", "ssse3")

COLUMNS = [Column("ns per cell"), Column("TSC ticks/byte"),
           Column("Tor's ns per cell (another machine)"),
           Column("CGO/tor1 here", "x"), Column("CGO/tor1 in Tor's", "x")]


def per_cell(results, kernel, isa):
    """ns per cell, or None (the x4 kernel's per-byte figures count all
    four cells, so this is per cell too)."""
    ns = ns_per_byte(results, kernel, isa, SIZE)
    return ns * SIZE if ns else None


def ratio(results, kernel, isa):
    tor1 = TOR1_OF.get(kernel)
    ours, theirs = per_cell(results, kernel, isa), \
        per_cell(results, tor1, isa) if tor1 else None
    return ours / theirs if ours and theirs else None


def values(results, kernel, isa):
    ns = per_cell(results, kernel, isa)
    if not ns:
        return [None] * len(COLUMNS)
    return [ns, tsc_per_byte(results, kernel, isa),
            TOR_NS.get(kernel), ratio(results, kernel, isa),
            TOR_RATIO.get(kernel)]


def aes_note(kernel, isa):
    """With or without AES instructions; nothing for LIONESS."""
    if kernel.startswith("lioness"):
        return ""
    return "without AES-NI" if isa in WITHOUT_AESNI else "with AES-NI"


def tsc_per_byte(results, kernel, isa):
    return results.median(kernel, isa, SIZE, "tsc_cycles_per_byte")


def composed(results, parts, isa, figure):
    """The sum of figure over (kernel, how many) parts, or None."""
    each = [(figure(results, k, isa), n) for k, n in parts]
    return sum(v * n for v, n in each) if all(v for v, _ in each) else None


def recipe(parts):
    """"1 x a + 2 x b - 1 x c"."""
    text = ""
    for kernel, n in parts:
        sign = "" if not text else " + " if n > 0 else " - "
        text += f"{sign}{abs(n)} x {kernel}"
    return text


def three_hop_rows(m):
    """The client's three hops per ISA the one-hop kernels share."""
    rows, per_isa = [], {}
    isas = [i.name for i in m.registry.variants(CLIENT[0])] \
        if CLIENT[0] in m.registry else []
    for name, parts in THREE_HOPS:
        for isa in isas:
            total, tsc = composed(m.results, parts, isa, per_cell), \
                composed(m.results, parts, isa, tsc_per_byte)
            per_isa[name, isa] = total
            rows.append(Row(name, isa, [total, tsc, None, None, None],
                            "" if total else "not measured: a one-hop "
                            "kernel it is composed from has no result"))
    for row in rows:
        tor1 = RATIO_OF_THREE.get(row.kernel)
        ours, theirs = per_isa.get((row.kernel, row.isa)), \
            per_isa.get((tor1, row.isa))
        if tor1 and ours and theirs:
            row.values[3] = ours / theirs
        if row.values[0]:
            row.note = "composed: " + recipe(dict(THREE_HOPS)[row.kernel])
    return rows


def table(m):
    t = Table(list(COLUMNS))
    for kernel in [*FORWARD, X4, *ORIGINATE, *LIONESS]:
        t.add_variants(m, kernel, values, note=aes_note)
    t.rows += three_hop_rows(m)
    t.notes += [
        f"Per {SIZE}-byte cell, in Tor's unit (ns per cell, from the "
        "TSC-timed ns/byte) and TSC ticks per payload byte (not core "
        "cycles). Every kernel keeps its circuit's state from call to call, "
        "as a relay does: CGO rekeys on every originated cell, and the "
        "benchmark's cells are never recognized at a middle relay.",
        "tor1-relay-forward: a middle relay's tor1 (AES-128-CTR, then the "
        "recognized field; the SHA-1 digest only when it is zero). "
        "tor1-relay-originate: the digest, then CTR. tor-cgo-*: CGO with "
        "AES-128 as C tor runs it. Without AES-NI: generic is the T-table "
        "AES (not constant-time), ssse3 the constant-time vector-permute "
        "AES; both with POLYVAL in portable constant-time C.",
        "tor-cgo-relay-forward-x4: four circuits' cells per call; its ns "
        "per cell is per cell of the four.",
        "Tor's figures are its tracker's (tor#41075), measured on one "
        "unnamed CPU, not this one: tor1 58-61 ns at a middle relay and "
        "301 ns to originate, tuned C CGO 170-179 ns and 657 ns "
        "(midpoints shown); their ratios are Tor's CGO/tor1, about 3x and "
        "2.2x.",
        "CGO/tor1 here: the CGO row's ns per cell over the tor1 row's at "
        "the same ISA (forward and x4 against tor1-relay-forward, originate "
        "against tor1-relay-originate, the client's three hops against "
        "tor1's).",
        "The client's three hops are composed from the one-hop kernels' "
        "medians (their note says how): sending to hop 3 is its layer "
        "(originate) and two forward layers; receiving from it, three "
        "backward layers and the rekey of the last (originate less "
        "forward). tor1's are its CTR layers and one digest.",
        "Of CGO's rows only generic's is flagged by ctgrind, at its T-table "
        "AES (kernels/aes/aes_generic.c): every other row, ssse3 included, "
        "is constant-time, the recognized checks declassified since the "
        "relay acts on them.",
    ]
    add_leak_verdicts(t, m.leak_csv, read_leak(m.leak_csv))
    return t


def chart(t, m):
    return bar_chart(t, m.registry, f"Tor's relay crypto per {SIZE}-byte "
                     "cell", [0], "ns per cell (lower is faster)")


SCENARIO = Scenario(
    "tor", f"tor1 against CGO against LIONESS per {SIZE}-byte cell, per ISA",
    "Tor's relay crypto today: Counter Galois Onion beside tor1 and "
    "LIONESS (tor#41075's figures)",
    KERNELS, [SIZE], table, chart)
