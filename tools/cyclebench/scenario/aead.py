"""AES-GCM, AES-GCM-SIV, ChaCha20-Poly1305, AEGIS and Ascon-AEAD128 (one
message a call, and eight in vector lanes) in openssl speed's units: ours
at the best ISA and without AES instructions, OpenSSL by default and with
AES-NI masked, libgcrypt as it runs; each variant's leak
verdicts beside it when make leak-table has written them; the
constant-time software AES-GCM against OpenSSL's timed in turn (`run
--vs`); and the AEGIS authors' figures from their own machine as a
labelled reference."""
from ..leak.table import read_leak
from .figures import lines_over_sizes
from .measure import NOT_RUN, ExtraRun, PairedRun, Scenario, throughput
from .table import Column, Table, add_leak_verdicts, add_paired_notes

SIZES = [16, 64, 256, 1024, 8192, 16384]
OURS = ["aes256-gcm", "aes128-gcm", "aes256-gcm-siv", "aes128-gcm-siv",
        "chacha20-poly1305", "aegis128l", "aegis256", "aegis128x2",
        "aegis128x4", "aegis256x2", "aegis256x4", "ascon-aead128",
        "ascon-aead128-x8"]
OPENSSL = ["openssl:aes-256-gcm", "openssl:aes-128-gcm",
           "openssl:chacha20-poly1305"]
GCRYPT = ["gcrypt:aes-256-gcm", "gcrypt:aes-128-gcm",
          "gcrypt:aes-256-gcm-siv", "gcrypt:aes-128-gcm-siv",
          "gcrypt:chacha20-poly1305"]
NO_AESNI_ENV = {"OPENSSL_ia32cap": "~0x200000200000000"}
# Our rows without AES instructions: the constant-time software AES where a
# kernel has one, and generic C.
WITHOUT_AES = ["ssse3", "generic"]
TITLE = "AES-GCM, AES-GCM-SIV, ChaCha20-Poly1305, AEGIS and Ascon"
# Ours without AES instructions against OpenSSL's software path, timed in
# turn: both are vector-permute AES, ours throughput-bound and OpenSSL's
# latency-bound, so their ratio follows the host (docs/method.md).
PAIRS = [PairedRun(f"aes{bits}-gcm@ssse3", f"openssl:aes-{bits}-gcm@external",
                   16384, NO_AESNI_ENV)
         for bits in (128, 256)]

# Not measured here: the AEGIS-X authors' published figures (jedisct1/
# aegis-X, README: their Zig benchmark, and OpenSSL 3 on the same machine),
# in MiB/s (2^20 bytes per second) at 16 KiB.
REFERENCE_MACHINE = "Intel Core i9-13900K (Raptor Lake, AVX2, no AVX-512)"
REFERENCE_MIB_S = [
    ("OpenSSL 3 AES-128-GCM", 10243),
    ("AEGIS-128L", 23863),
    ("AEGIS-128X2 (AVX2)", 39781),
    ("AEGIS-256", 12077),
]


def values(results, kernel, isa):
    """openssl speed's units: 1000s of bytes per second."""
    return [v / 1000 if v else None
            for v in (throughput(results, kernel, isa, s) for s in SIZES)]


def table(m):
    t = Table([Column(f"{s} bytes (1000s of bytes/s)", "k") for s in SIZES],
              variant_header="variant")
    for kernel in OURS:
        add_best_and_without_aes(t, m, kernel)
    for kernel in OPENSSL:
        add_with_and_without_aesni(t, m, kernel)
    for kernel in GCRYPT:
        t.add_variants(m, kernel, values)
    t.notes += [
        "openssl speed's units: thousands of bytes processed per second at "
        "each message size (from the TSC-timed ns/byte).",
        "Ours: the best ISA this CPU has (with AES-NI, or VAES for the "
        "AEGIS X forms) and the rows without AES instructions (generic C; "
        "ssse3, the constant-time vector-permute AES, where the kernel has "
        "it). OpenSSL: as it runs by default, and in a second run with "
        "OPENSSL_ia32cap=\"~0x200000200000000\", which clears AES-NI and "
        "PCLMULQDQ.",
        "gcrypt: libgcrypt as it runs, with the instructions it detects; "
        "OPENSSL_ia32cap does not reach it, so it has no masked row.",
        "Each call encrypts and tags one message with no associated data "
        "(AEGIS with its default 16-byte tag), but ascon-aead128-x8's: "
        "eight independent messages of the size, each with its own nonce, "
        "its bytes per second counting all eight. AES-GCM-SIV derives its "
        "message keys from the nonce in every call, as RFC 8452 defines "
        "it, and reads the message twice (POLYVAL, then CTR); GCM's key "
        "and hash key are set up once per key.",
        "Without AES-NI and PCLMULQDQ, OpenSSL's GCM hashes with its 4-bit "
        "tables (Shoup's method: a per-key table of 256 bytes indexed by "
        "the data, which cache timing can read), where ours at ssse3 uses "
        "the constant-time multiply of the generic row (BearSSL's ctmul64 "
        "technique); both run the vector-permute AES. The GCM pair below "
        "weighs that difference too.",
    ]
    add_paired_notes(t, m, PAIRS, "with AES-NI masked")
    add_leak_verdicts(t, m.leak_csv, read_leak(m.leak_csv),
                      unchecked=(MASKED,))
    t.sections.append(reference_section())
    return t


def add_best_and_without_aes(t, m, kernel):
    best = m.best_isa(kernel)
    aes = kernel.startswith(("aes", "aegis"))
    for row in t.add_variants(m, kernel, values,
                              isas={best, *WITHOUT_AES}):
        if row.isa == best and best not in WITHOUT_AES:
            row.label = f"{best} (best)"
            row.note = row.note or ("with AES-NI: " if aes else "") + \
                "our best ISA here"
        elif row.isa in WITHOUT_AES:
            row.note = row.note or ("without AES-NI: " if aes else "") + (
                "our generic C" if row.isa == "generic"
                else "our constant-time software AES")


# The variant column of an OpenSSL row from the run with AES-NI masked.
MASKED = "external, no AES-NI"


def add_with_and_without_aesni(t, m, kernel, row_values=values):
    """An OpenSSL kernel's rows from the default run and from the run with
    AES-NI masked, with row_values as Table.add_variants takes it."""
    if kernel not in m.registry:
        t.add_variants(m, kernel, row_values)  # the "not available" row
        return
    for label, note in [("default", "OpenSSL as it runs by default"),
                        ("no-aesni", "OPENSSL_ia32cap clears AES-NI and "
                                     "PCLMULQDQ")]:
        for row in t.add_variants(m, kernel, row_values,
                                  results=m.runs.get(label, NOT_RUN)):
            if row.isa == "external" and label == "no-aesni":
                row.label = MASKED
            if row.isa == "external" and not row.note:
                row.note = note


def reference_section():
    """The AEGIS authors' figures from their machine, in their units and
    converted to the table's."""
    lines = ["## Reference: the AEGIS authors' figures, on another machine\n",
             f"{REFERENCE_MACHINE}, 16 KiB messages; from the AEGIS-X "
             "authors' published benchmark (jedisct1/aegis-X), not measured "
             "here. For the shape of the comparison, not for this host.\n",
             "| AEAD | MiB/s | 1000s of bytes/s |", "|---|---|---|"]
    lines += [f"| {name} | {mib:,} | {mib * 1048576 / 1000:,.0f}k |"
              for name, mib in REFERENCE_MIB_S]
    return "\n".join(lines) + "\n"


def chart(t, m):
    return lines_over_sizes(t, m.registry, TITLE, SIZES,
                            "1000s of bytes/s (higher is faster)")


SCENARIO = Scenario(
    "aead", TITLE,
    "the ChaCha20 against AES256-GCM gist (openssl speed), with AES-GCM-SIV "
    "and AEGIS beside",
    OURS + OPENSSL + GCRYPT, SIZES, table, chart,
    extra_runs=[ExtraRun("no-aesni", "openssl:", NO_AESNI_ENV)],
    paired_runs=PAIRS)
