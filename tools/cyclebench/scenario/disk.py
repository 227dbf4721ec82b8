"""Sector encryption, as a disk or file-encryption developer weighs it
today: AES-XTS, HCTR2 and Adiantum beside ChaCha, at every ISA (ssse3 the
constant-time software AES, generic the T-table AES that leaks), and
OpenSSL's XTS as it runs and with AES-NI masked, libgcrypt's as it runs;
then the other rows of the GELI table (AES-CBC, XChaCha, OpenSSL's and
libgcrypt's older ciphers, memcpy as the memory line), kept as they were;
every row with its leak verdicts (ctgrind
and the t-test) when make leak-table has written them. bytes/sec, the
GELI table's unit, and TSC ticks per byte, at 512- and 4096-byte sectors. Last,
the constant-time software AES against OpenSSL's at the same moments
(`run --vs`), since their ratio follows the host's neighbours."""
from ..leak.table import read_leak
from .aead import MASKED, NO_AESNI_ENV, add_with_and_without_aesni
from .figures import bar_chart
from .measure import ExtraRun, PairedRun, Scenario, throughput
from .table import Column, Table, add_leak_verdicts, add_paired_notes

SIZES = [512, 4096]
# What a disk is encrypted with today, one sector per call.
CHOICES = ["aes128-xts", "aes256-xts", "aes128-hctr2", "aes256-hctr2",
           "adiantum", "adiantum20", "adiantum8",
           "chacha8", "chacha12", "chacha20"]
OPENSSL = ["openssl:aes-128-xts", "openssl:aes-256-xts"]
# cryptsetup's library: the XTS a Linux disk developer meets.
GCRYPT = ["gcrypt:aes-128-xts", "gcrypt:aes-256-xts"]
# The rest of the GELI table.
GELI_REST = ["aes128-cbc", "aes256-cbc", "xchacha8", "xchacha12", "xchacha20",
        "openssl:camellia-128-cbc", "openssl:camellia-256-cbc",
        "gcrypt:camellia-128-cbc", "gcrypt:camellia-256-cbc",
        "openssl:bf-cbc", "openssl:des-ede3-cbc", "memcpy"]
KERNELS = CHOICES + OPENSSL + GCRYPT + GELI_REST
# Ours without AES instructions against OpenSSL's, both vector-permute AES:
# ours keeps six blocks in flight and OpenSSL's one, so a busy sibling
# hyperthread slows ours more (docs/method.md, "Ratios of the same
# moments"), and only blocks timed in turn give their ratio.
PAIRS = [PairedRun(f"aes{bits}-xts@ssse3", f"openssl:aes-{bits}-xts@external",
                   size, NO_AESNI_ENV)
         for bits in (128, 256) for size in SIZES]


def values(results, kernel, isa):
    """bytes/sec at each size, then TSC ticks per byte at each size."""
    return [throughput(results, kernel, isa, size) for size in SIZES] + [
        results.median(kernel, isa, size, "tsc_cycles_per_byte")
        for size in SIZES]


def table(m):
    t = Table([Column(f"{s}-byte sectors (bytes/sec)", "int") for s in SIZES]
              + [Column(f"{s}-byte sectors (TSC ticks/byte)") for s in SIZES])
    for kernel in CHOICES:
        t.add_variants(m, kernel, values)
    for kernel in OPENSSL:
        add_with_and_without_aesni(t, m, kernel, values)
    for kernel in GCRYPT + GELI_REST:
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
        "gcrypt: libgcrypt (cryptsetup's library) as it runs; "
        "OPENSSL_ia32cap does not reach it, so it has no masked row. "
        "Its Camellia is checked against OpenSSL's, as we have none.",
        "OpenSSL's masked rows have no leak verdict of their own: make "
        "leak-table runs OpenSSL as it runs by default.",
        "From aes128-cbc on, the rows of the FreeBSD GELI table, as it had them: "
        "AES-CBC (encryption, which is serial; its decryption runs blocks "
        "in parallel), XChaCha, OpenSSL's and libgcrypt's older ciphers, "
        "and memcpy as the memory-bandwidth line.",
    ]
    add_paired_notes(t, m, PAIRS, "with AES-NI masked")
    add_leak_verdicts(t, m.leak_csv, read_leak(m.leak_csv),
                      unchecked=(MASKED,))
    return t


def chart(t, m):
    return bar_chart(t, m.registry, "Sector encryption", [0, 1],
                     "bytes/sec (log scale, higher is faster)", log=True)


SCENARIO = Scenario(
    "disk", "sector encryption at 512- and 4096-byte sectors: XTS, HCTR2, "
    "Adiantum, ChaCha and the GELI table's ciphers, with leak verdicts",
    "the FreeBSD GELI table", KERNELS, SIZES, table, chart,
    extra_runs=[ExtraRun("no-aesni", "openssl:aes", NO_AESNI_ENV)],
    paired_runs=PAIRS)
