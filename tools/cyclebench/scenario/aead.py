"""AES-256-GCM against ChaCha20-Poly1305 in openssl speed's units: ours at
the best ISA and generic, OpenSSL by default and with AES-NI masked."""
from .figures import lines_over_sizes
from .measure import NOT_RUN, ExtraRun, Scenario, throughput
from .table import Column, Table

SIZES = [16, 64, 256, 1024, 8192, 16384]
OURS = ["aes256-gcm", "chacha20-poly1305"]
OPENSSL = ["openssl:aes-256-gcm", "openssl:chacha20-poly1305"]
NO_AESNI_ENV = {"OPENSSL_ia32cap": "~0x200000200000000"}


def values(results, kernel, isa):
    """openssl speed's units: 1000s of bytes per second."""
    return [v / 1000 if v else None
            for v in (throughput(results, kernel, isa, s) for s in SIZES)]


def table(m):
    t = Table([Column(f"{s} bytes (1000s of bytes/s)", "k") for s in SIZES],
              variant_header="variant")
    for kernel in OURS:
        add_best_and_generic(t, m, kernel)
    for kernel in OPENSSL:
        add_with_and_without_aesni(t, m, kernel)
    t.notes += [
        "openssl speed's units: thousands of bytes processed per second at "
        "each message size (from the TSC-timed ns/byte).",
        "Ours: the best ISA this CPU has (with AES-NI) and generic C "
        "(without). OpenSSL: as it runs by default, and in a second run "
        "with OPENSSL_ia32cap=\"~0x200000200000000\", which clears AES-NI "
        "and PCLMULQDQ.",
        "Each call encrypts and tags one message with no associated data.",
    ]
    return t


def add_best_and_generic(t, m, kernel):
    best = m.best_isa(kernel)
    aes = kernel.startswith("aes")
    for row in t.add_variants(m, kernel, values, isas={best, "generic"}):
        if row.isa == best and best != "generic":
            row.label = f"{best} (best)"
            row.note = row.note or ("with AES-NI: " if aes else "") + \
                "our best ISA here"
        elif row.isa == "generic":
            row.note = row.note or ("without AES-NI: " if aes else "") + \
                "our generic C"


def add_with_and_without_aesni(t, m, kernel):
    if kernel not in m.registry:
        t.add_variants(m, kernel, values)  # the "not available" row
        return
    for label, note in [("default", "OpenSSL as it runs by default"),
                        ("no-aesni", "OPENSSL_ia32cap clears AES-NI and "
                                     "PCLMULQDQ")]:
        for row in t.add_variants(m, kernel, values,
                                  results=m.runs.get(label, NOT_RUN)):
            if row.isa == "external" and label == "no-aesni":
                row.label = "external, no AES-NI"
            if row.isa == "external" and not row.note:
                row.note = note


def chart(t, m):
    return lines_over_sizes(t, m.registry,
                            "AES-256-GCM against ChaCha20-Poly1305", SIZES,
                            "1000s of bytes/s (higher is faster)")


SCENARIO = Scenario(
    "aead", "AES-256-GCM against ChaCha20-Poly1305",
    "the ChaCha20 against AES256-GCM gist (openssl speed)",
    OURS + OPENSSL, SIZES, table, chart,
    extra_runs=[ExtraRun("no-aesni", "openssl:", NO_AESNI_ENV)])
