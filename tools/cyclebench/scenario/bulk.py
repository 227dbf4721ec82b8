"""10 MB encoded and decoded in one call, the floor of three runs, in
seconds: AES-CBC (its decode from a --decrypt run), RC4 and ChaCha20, with
libgcrypt's AES-CBC and ChaCha20 beside ours."""
from .figures import bar_chart
from .measure import MIB, NOT_RUN, ExtraRun, Scenario
from .table import Column, Table

TEN_MIB = 10 * MIB
KERNELS = ["aes128-cbc", "aes256-cbc", "rc4", "chacha20",
           "gcrypt:aes-128-cbc", "gcrypt:aes-256-cbc", "gcrypt:chacha20"]


def ten_mb_seconds(results, kernel, isa):
    """Seconds for 10 MB: the floor of the repetitions, or None."""
    run = results.get(kernel, isa, TEN_MIB)
    ns = run.floor("ns_per_byte") if run else None
    return ns * TEN_MIB / 1e9 if ns else None


def values_of(m):
    """Encode from the default run; CBC decode from the --decrypt run (its
    blocks decrypt in parallel, unlike encryption); a stream cipher's decode
    is its encode."""
    decrypted = m.runs.get("decrypt", NOT_RUN)

    def values(results, kernel, isa):
        encode = ten_mb_seconds(results, kernel, isa)
        if "-cbc" not in kernel:
            return [encode, encode]
        return [encode, ten_mb_seconds(decrypted, kernel, isa)]
    return values


def note(kernel, isa):
    if "-cbc" in kernel:
        return "decode timed by a second run with --decrypt"
    return "decode = encode: the same keystream XOR"


def table(m):
    t = Table([Column("encode (s)"), Column("decode (s)")])
    for kernel in KERNELS:
        t.add_variants(m, kernel, values_of(m), note=note)
    t.notes += [
        f"10 MB is {TEN_MIB} bytes in one call; each number is the floor "
        "(minimum) of three repetitions, timed with the TSC.",
        "AES-CBC is the ciphertext-stealing kernel; 10 MB is a whole number "
        "of blocks, so no block is stolen. Its generic row is software AES; "
        "the other ISAs use AES-NI.",
        "RC4 is broken, and here for comparison only.",
        "gcrypt: libgcrypt's kernels, keyed once per run; each 10 MB call "
        "pays its setiv (docs/method.md).",
    ]
    return t


def chart(t, m):
    return bar_chart(t, m.registry, "10 MB encode, floor of three runs", [0],
                     "seconds (lower is faster)")


SCENARIO = Scenario(
    "bulk", "10 MB encode and decode, floor of three runs",
    "the Firebird comparison", KERNELS, [TEN_MIB], table, chart,
    repetitions=3, extra_runs=[ExtraRun("decrypt", ("aes", "gcrypt:aes"), {},
                        ["--decrypt"])])
