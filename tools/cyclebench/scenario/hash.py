"""BLAKE2b, SHA3-256, SHAKE256, TurboSHAKE128 and KangarooTwelve (KT128)
per message size at every ISA, beside OpenSSL's, libgcrypt's and
libsodium's, in TSC ticks per byte; then what KangarooTwelve's tree buys
at each ISA: KT128 against TurboSHAKE128 (the same permutation in one
chain) and against KT128 at generic, at the largest size, and KT128
against our fastest BLAKE2b (the issue's goal: at most 0.5)."""
from ..units import clock_unit, sig3
from .figures import lines_over_sizes
from .measure import Scenario
from .table import Column, Table

SIZES = [64, 576, 4096, 16384, 65536]
# KangarooTwelve's leaves are 8 KiB: 64 KiB is the first of these sizes
# with eight of them, one pass of the widest (AVX-512) multi-lane form.
TREE_SIZE = 65536
OURS = ["blake2b", "sha3-256", "shake256", "turboshake128", "kt128"]
PEERS = ["openssl:blake2b512", "sodium:blake2b", "gcrypt:blake2b512",
         "openssl:sha3-256", "gcrypt:sha3-256", "openssl:shake256",
         "gcrypt:shake256"]
COUNTER = "tsc_cycles_per_byte"
KT_GOAL = 0.5  # kt128 / our fastest blake2b at TREE_SIZE, at most


def values(results, kernel, isa):
    return [results.median(kernel, isa, s, COUNTER) for s in SIZES]


def fastest(m, kernel, size):
    """(isa, TSC ticks/byte) of kernel's fastest measured row at size, or
    (None, None)."""
    if kernel not in m.registry:
        return None, None
    found = [(m.results.median(kernel, isa.name, size, COUNTER), isa.name)
             for isa in m.registry.variants(kernel)]
    found = [f for f in found if f[0]]
    return (min(found)[1], min(found)[0]) if found else (None, None)


def tree_notes(m):
    """Per ISA of kt128, at TREE_SIZE: its ratio to TurboSHAKE128 at that
    ISA and to kt128 at generic (the leaves side by side, the vector
    rows); and the goal against the fastest BLAKE2b."""
    kb = TREE_SIZE // 1024
    generic = m.results.median("kt128", "generic", TREE_SIZE, COUNTER)
    notes = []
    for isa in (m.registry.variants("kt128") if "kt128" in m.registry
                else []):
        kt = m.results.median("kt128", isa.name, TREE_SIZE, COUNTER)
        ts = m.results.median("turboshake128", isa.name, TREE_SIZE, COUNTER)
        if not kt:
            continue
        parts = [f"KT128@{isa.name} at {kb} KiB: {sig3(kt)} ticks/byte"]
        if ts:
            parts.append(f"{ts / kt:.2f}x TurboSHAKE128@{isa.name}'s speed "
                         "(the tree's leaves side by side)")
        if generic:
            parts.append(f"{generic / kt:.2f}x KT128@generic's")
        notes.append("; ".join(parts) + ".")
    kt_isa, kt = fastest(m, "kt128", TREE_SIZE)
    b2_isa, b2 = fastest(m, "blake2b", TREE_SIZE)
    if kt and b2:
        verdict = "met" if kt / b2 <= KT_GOAL else "not met"
        notes.append(f"KT128@{kt_isa} / BLAKE2b@{b2_isa} at {kb} KiB, both "
                     f"our fastest rows in this run: {kt / b2:.2f} (goal: at "
                     f"most {KT_GOAL}; {verdict}).")
    return notes


def table(m):
    unit = clock_unit(m.context(), "tsc")
    t = Table([Column(f"{s} B ({unit})") for s in SIZES])
    for kernel in OURS + PEERS:
        t.add_variants(m, kernel, values)
    t.notes += [
        f"Medians in {unit} (lower is faster), one message per call: "
        "BLAKE2b to a 64-byte digest, SHA3-256 to 32 bytes, SHAKE256, "
        "TurboSHAKE128 and KT128 to their default 32 bytes (TurboSHAKE's "
        "domain byte 0x1F, KT128 with no customization string).",
        "The peers: OpenSSL's and libgcrypt's BLAKE2b-512, SHA3-256 and "
        "SHAKE256, and libsodium's BLAKE2b, as they run (their own "
        "dispatch); none of them has TurboSHAKE or KangarooTwelve.",
    ] + tree_notes(m)
    return t


def chart(t, m):
    """Ours at the best ISA this CPU has, and the peers: every ISA's line
    would bury them (the table has every ISA)."""
    best = Table(t.columns, [r for r in t.rows if r.isa in
                             ("external", m.best_isa(r.kernel))])
    return lines_over_sizes(best, m.registry, "Hashing per message size: "
                            "ours at the best ISA, and the peers", SIZES,
                            f"{clock_unit(m.context(), 'tsc')} (log; lower "
                            "is faster)")


SCENARIO = Scenario(
    "hash", "BLAKE2b, SHA3-256, SHAKE256, TurboSHAKE128 and KT128 per size "
    "and ISA", "RFC 9861's and the KangarooTwelve authors' comparisons "
    "with BLAKE2b and SHA-3", OURS + PEERS, SIZES, table, chart)
