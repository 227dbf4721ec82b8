"""Sector encryption, as a disk or file-encryption developer weighs it
today: AES-XTS, HCTR2 and Adiantum beside ChaCha, at every ISA (ssse3 the
constant-time software AES, generic the T-table AES that leaks), and
OpenSSL's XTS as it runs and with AES-NI masked, each row with its ctgrind
verdict; then the other rows of the seed's table (AES-CBC, XChaCha,
OpenSSL's older ciphers, memcpy as the memory line), kept as they were.
bytes/sec, the seed's unit, and TSC ticks per byte, at 512- and 4096-byte
sectors."""
import os

from .aead import NO_AESNI_ENV, add_with_and_without_aesni
from .figures import bar_chart
from .measure import ExtraRun, Scenario, throughput
from .table import Column, Table
from .verdicts import Verdicts

SIZES = [512, 4096]
# What a disk is encrypted with today, one sector per call.
CHOICES = ["aes128-xts", "aes256-xts", "aes128-hctr2", "aes256-hctr2",
           "adiantum", "adiantum20", "adiantum8",
           "chacha8", "chacha12", "chacha20"]
OPENSSL = ["openssl:aes-128-xts", "openssl:aes-256-xts"]
# The rest of the seed's table.
SEED = ["aes128-cbc", "aes256-cbc", "xchacha8", "xchacha12", "xchacha20",
        "openssl:camellia-128-cbc", "openssl:camellia-256-cbc",
        "openssl:bf-cbc", "openssl:des-ede3-cbc", "memcpy"]
KERNELS = CHOICES + OPENSSL + SEED


def values(results, kernel, isa):
    """bytes/sec at each size, then TSC ticks per byte at each size."""
    return [throughput(results, kernel, isa, size) for size in SIZES] + [
        results.median(kernel, isa, size, "tsc_cycles_per_byte")
        for size in SIZES]


def with_verdict(rows, note):
    """Each measured row's note, with the ctgrind verdict after it."""
    for row in rows:
        if any(v is not None for v in row.values):
            row.note = "; ".join(n for n in (row.note,
                                             note(row.kernel, row.isa)) if n)


def verdicts(m, run):
    """The verdicts of one bench run: "default", or "no-aesni", whose
    OpenSSL rows are checked with AES-NI masked too, into a directory of
    their own."""
    if run == "default":
        return Verdicts(m.leak_dir, m.ctgrind_driver)
    return Verdicts(m.leak_dir and os.path.join(m.leak_dir, run),
                    m.ctgrind_driver, NO_AESNI_ENV)


def table(m):
    t = Table([Column(f"{s}-byte sectors (bytes/sec)", "int") for s in SIZES]
              + [Column(f"{s}-byte sectors (TSC ticks/byte)") for s in SIZES])
    ours = verdicts(m, "default").note(m.registry)
    for kernel in CHOICES:
        with_verdict(t.add_variants(m, kernel, values), ours)
    for kernel in OPENSSL:
        for run, rows in add_with_and_without_aesni(t, m, kernel,
                                                    values).items():
            with_verdict(rows, verdicts(m, run).note(m.registry))
    for kernel in SEED:
        t.add_variants(m, kernel, values)
    t.notes += [
        "One call encrypts one sector. bytes/sec is 10^9 / (TSC-timed "
        "ns/byte); TSC ticks per byte are the same medians in the "
        "timestamp counter's ticks, not core cycles.",
        "AES at ssse3 is the constant-time software AES (vector permute, "
        "as OpenSSL's vpaes), for CPUs without AES instructions; at "
        "generic, the T-table AES, whose lookups leak the key through the "
        "cache (ctgrind flags them). HCTR2's rows pair those AES rows with "
        "POLYVAL's; its tweak is 32 bytes, as Linux's fscrypt uses.",
        "XTS changes only the 16-byte blocks of a sector that changed, so "
        "an observer of two versions learns which; HCTR2 and Adiantum "
        "change the whole sector (docs/disk.md).",
        "ChaCha and XChaCha per sector: the bench uses one fixed nonce "
        "where a disk would use the sector number. The cost is the same, "
        "as the nonce is an input and not work; XChaCha derives its subkey "
        "(HChaCha) on every call, as a per-sector nonce needs.",
        "OpenSSL: as it runs by default, and in a second run with "
        "OPENSSL_ia32cap=\"~0x200000200000000\", which clears AES-NI and "
        "PCLMULQDQ (its software AES path).",
        "ctgrind: `make ctgrind`'s verdict for the variant (valgrind's "
        "memcheck with the key marked secret): clean, the number of code "
        "sites whose branch or address depends on the key, or why it is "
        "not checkable (valgrind 3.19 runs neither AVX-512 nor VAES). Read "
        "from out/leak/ where a report is newer than the driver, else "
        "checked now and written there.",
        "From aes128-cbc on, the rows of the seed's table, as it had them: "
        "AES-CBC (encryption, which is serial; its decryption runs blocks "
        "in parallel), XChaCha, OpenSSL's older ciphers, and memcpy as the "
        "memory-bandwidth line.",
    ]
    return t


def chart(t, m):
    return bar_chart(t, m.registry, "Sector encryption", [0, 1],
                     "bytes/sec (log scale, higher is faster)", log=True)


SCENARIO = Scenario(
    "disk", "sector encryption at 512- and 4096-byte sectors: XTS, HCTR2, "
    "Adiantum, ChaCha and the seed's ciphers, with ctgrind verdicts",
    "the FreeBSD GELI table", KERNELS, SIZES, table, chart,
    extra_runs=[ExtraRun("no-aesni", "openssl:aes", NO_AESNI_ENV)])
