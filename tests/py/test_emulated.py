"""The aarch64 profile's parts (profiles/emulated.py, qemu_count.py) on
committed and made-up input: qemu's log read into counts, two runs' counts
into runs per call, counted code put in functions, and the loop finder
reading aarch64 code (a real objdump listing of chacha_stream_xor_neon).
Run by tests/cli/profile_test.sh; the whole command under qemu is
tests/cli/profile_emulated.sh."""
import pytest

from profiles import emulated, hot_loop, mca, qemu_count
from profile_fixtures import fixture

START = 0x9b5f0  # chacha_stream_xor_neon in the fixture
OUTER, INNER = START + 0x148, START + 0x220


def chacha_listing(counts=None):
    return emulated.parse_objdump(
        fixture("objdump_chacha_stream_xor_neon_aarch64.txt"), counts or {})


def insn(asm, at=0x1000):
    return {"address": f"{at:x}", "asm": asm, "percent": 0.0}


# The aarch64 syntax

@pytest.mark.parametrize("asm,target,jump", [
    ("b.hi 9b810 <chacha_stream_xor_neon+0x220> // b.pmore", 0x9b810, True),
    ("b 9b738 <chacha_stream_xor_neon+0x148>", 0x9b738, True),
    ("cbz w20, 9be50 <chacha_stream_xor_neon+0x860>", 0x9be50, True),
    # The immediate's "#" is not a comment here.
    ("tbz w3, #2, 9be8c <chacha_stream_xor_neon+0x89c>", 0x9be8c, True),
    ("tbnz x1, #63, 9be8c <chacha_stream_xor_neon+0x89c>", 0x9be8c, True),
    ("bl 9ac80 <chacha_stream_xor_rows_neon>", None, False),
    ("add x1, sp, #0x148", None, False),
    ("br x3", None, False),
])
def test_aarch64_jumps(asm, target, jump):
    assert hot_loop.jump_target(insn(asm), 0, 1 << 40, hot_loop.AARCH64) == \
        (target, jump)


def test_aarch64_flow_ends():
    ends = hot_loop.AARCH64.ends_flow
    assert all(ends.match(m) for m in ("b", "br", "ret", "retaa", "brk"))
    assert not any(ends.match(m) for m in ("b.ne", "bl", "blr", "cbz", "bic"))


def test_aarch64_for_llvm_mc():
    a = hot_loop.AARCH64
    assert hot_loop.for_llvm_mc(
        "b.hi 9b810 <chacha_stream_xor_neon+0x220> // b.pmore", a) == \
        "b.hi .Lloop"
    assert hot_loop.for_llvm_mc("mov w7, #0x646e // #25710", a) == \
        "mov w7, #0x646e"
    assert hot_loop.for_llvm_mc("tbz w3, #2, 9be8c <f+0x89c>", a) == \
        "tbz w3, #2, .Lloop"
    assert hot_loop.for_llvm_mc("ld1 {v0.16b, v1.16b}, [x1], #32", a) == \
        "ld1 {v0.16b, v1.16b}, [x1], #32"


# The loop finder on real aarch64 code: the 4+1-block loop at +0x148,
# closed by an unconditional b, around the double rounds at +0x220.

def test_chacha_neon_loops_nest():
    root, blocks = hot_loop.loop_tree(chacha_listing(), hot_loop.AARCH64)
    headers = {c.header - START for c in root.children}
    assert 0x148 in headers
    outer = next(c for c in root.children if c.header == OUTER)
    assert [c.header for c in outer.children] == [INNER]
    # Without counts the innermost loop is taken, every block once.
    assert hot_loop.fit(outer, blocks, None).header == INNER


def test_chacha_neon_body_with_counts():
    """Counts as qemu gave them for a 16 KiB call (51 batches, 10 double
    rounds each): the outer loop, its round loop written out ten times."""
    code = chacha_listing()
    root, blocks = hot_loop.loop_tree(code, hot_loop.AARCH64)
    outer = next(c for c in root.children if c.header == OUTER)
    inner = outer.children[0]
    hits = {}
    for start in outer.blocks:
        for i in blocks[start].instructions:
            hits[hot_loop.address(i)] = 510 if start in inner.blocks else 51
    hits[START + 0x860] = 0  # the cold path out of the loop
    loop = hot_loop.fit(outer, blocks, hits)
    assert loop is outer
    body = hot_loop.body(loop, blocks, hits)
    inner_len = sum(len(blocks[s].instructions) for s in inner.blocks)
    assert body.count(blocks[INNER].instructions[0]) == 10
    assert len(body) > 10 * inner_len
    where = hot_loop.describe(loop, blocks, hits, START)
    assert where.startswith("loop at +0x148") and "+0x220 x10" in where


def test_chacha_neon_body_reads_in_llvm_mca(tmp_path):
    """Every instruction of the written-out body is one llvm-mca reads
    for an ARM core: none is dropped."""
    root, blocks = hot_loop.loop_tree(chacha_listing(), hot_loop.AARCH64)
    outer = next(c for c in root.children if c.header == OUTER)
    body = hot_loop.body(outer, blocks, None)
    source = tmp_path / "body.s"
    source.write_text(hot_loop.mca_source(body, START, "chacha",
                                          hot_loop.AARCH64))
    model = mca.resolve("cortex-a53", mca.AARCH64_TRIPLE)
    text, cmd, dropped = mca.run(model, str(source))
    assert dropped == []
    assert "-mattr=+aes,+sha2,+sha3" in cmd
    assert mca.parse(text)["cycles_per_iteration"] > len(body) / 2


def test_aarch64_model_names_are_checked():
    with pytest.raises(mca.McaError, match="cortex-a53"):
        mca.resolve("znver4", mca.AARCH64_TRIPLE)


# qemu's log into counts

LOG = """\
IN: 
0x5500001000:  d2800000  movz     x0, #0
0x5500001004:  91000400  add      x0, x0, #1
0x5500001008:  f100281f  cmp      x0, #0xa
0x550000100c:  54ffffc1  b.ne     #0x5500001004

Trace 0: 0x7f0000000100 [0000000001009331/0000005500001000/00000001/00000200] 
IN: 
0x5500001004:  91000400  add      x0, x0, #1
0x5500001008:  f100281f  cmp      x0, #0xa
0x550000100c:  54ffffc1  b.ne     #0x5500001004

Trace 0: 0x7f0000000200 [0000000001009331/0000005500001004/00000001/00000200] 
Trace 0: 0x7f0000000200 [0000000001009331/0000005500001004/00000001/00000200] 
Trace 0: 0x7f0000000200 [0000000001009331/0000005500001004/00000001/00000200] 
"""


def test_qemu_log_counts():
    counts = qemu_count.parse_log(LOG.splitlines(True))
    # The first block once, the loop's block (entered at +4) three times.
    assert counts == {0x5500001000: 1, 0x5500001004: 4, 0x5500001008: 4,
                      0x550000100c: 4}


def test_per_call_is_the_difference():
    low = {0x10: 5, 0x14: 7, 0x18: 100}
    high = {0x10: 5, 0x14: 11, 0x18: 300, 0x1c: 2}
    # Start-up (0x10) drops out; the rest over the two calls between.
    assert qemu_count.per_call(low, high, (1, 3)) == \
        {0x14: 2.0, 0x18: 100.0, 0x1c: 1.0}


def test_functions_by_symbol_and_by_stretch(monkeypatch):
    monkeypatch.setattr(emulated, "symbols",
                        lambda path: [(0x1000, 0x1100, "ours")])
    far = 0x5000
    counts = {0x1000: 1, 0x1010: 9, far: 4, far + 8: 4,
              far + emulated.GAP + 16: 1}
    fns = {f["name"]: f for f in emulated.functions(counts, "/x/libfoo.so")}
    assert set(fns) == {"ours", "libfoo.so+0x5000", "libfoo.so+0x5110"}
    assert fns["ours"]["counts"] == {0x1000: 1, 0x1010: 9}
    assert fns["libfoo.so+0x5000"]["start"] == far
    assert fns["libfoo.so+0x5000"]["end"] == far + 12


def test_locate_maps_to_files():
    objects = [{"name": "", "base": "0x5500000000",
                "code": [["0x5500001000", "0x5500002000"]]},
               {"name": "/lib/aarch64-linux-gnu/libz.so.1",
                "base": "0x5501000000",
                "code": [["0x5501004000", "0x5501005000"]]}]
    per_call = {0x5500001004: 3.0, 0x5501004010: 2.0, 0x7f0000000000: 9.0}
    located = emulated.locate(per_call, objects, "build/aarch64/cyclebench")
    assert located["build/aarch64/cyclebench"] == {0x1004: 3.0}
    (lib,) = [k for k in located if k.endswith("libz.so.1")]
    assert located[lib] == {0x4010: 2.0}
    assert len(located) == 2  # the address in no object is left out
