"""Sector encryption: bytes per second at 512- and 4096-byte sectors, for
AES-XTS and -CBC, ChaCha and XChaCha, OpenSSL's older ciphers, and memcpy
as the memory line."""
from .figures import bar_chart
from .measure import Scenario, throughput
from .table import Column, Table

SIZES = [512, 4096]
KERNELS = ["aes128-xts", "aes256-xts", "aes128-cbc", "aes256-cbc",
           "chacha8", "chacha12", "chacha20",
           "xchacha8", "xchacha12", "xchacha20",
           "openssl:camellia-128-cbc", "openssl:camellia-256-cbc",
           "openssl:bf-cbc", "openssl:des-ede3-cbc", "memcpy"]


def values(results, kernel, isa):
    return [throughput(results, kernel, isa, size) for size in SIZES]


def table(m):
    t = Table([Column(f"{s}-byte sectors (bytes/sec)", "int") for s in SIZES])
    for kernel in KERNELS:
        t.add_variants(m, kernel, values)
    t.notes += [
        "One call encrypts one sector. bytes/sec is 10^9 / (TSC-timed "
        "ns/byte).",
        "ChaCha and XChaCha per sector: the bench uses one fixed nonce "
        "where a disk would use the sector number. The cost is the same, "
        "as the nonce is an input and not work; XChaCha derives its subkey "
        "(HChaCha) on every call, as a per-sector nonce needs.",
        "AES-XTS and AES-CBC rows are encryption. CBC encryption is "
        "serial; its decryption (not measured here) runs blocks in "
        "parallel.",
        "memcpy is the memory-bandwidth line.",
    ]
    return t


def chart(t, m):
    return bar_chart(t, m.registry, "Sector encryption", [0, 1],
                     "bytes/sec (log scale, higher is faster)", log=True)


SCENARIO = Scenario(
    "disk", "sector encryption throughput at 512- and 4096-byte sectors",
    "the FreeBSD GELI table", KERNELS, SIZES, table, chart)
