"""The prediction's parts on committed fixtures: the loop finder on a real
perf annotate listing (ChaCha's 8-block loop around its round loop) and on
a made-up listing shaped like AES-CTR's (a rotated loop with a cold path
placed before it, and out-of-line code jumping back); the llvm-mca parser
on real llvm-mca 19 output; gdb's hit counts; and predict's arithmetic.
Run by tests/cli/profile_test.sh."""
import shutil

import pytest

from profiles import hot_loop, loop_count, mca, perf_parse, predict
from profile_fixtures import fixture


def chacha_listing():
    return perf_parse.parse_annotate(
        fixture("annotate_chacha_stream_xor_avx2.txt"))[0]


CHACHA_START = 0x56ff0


def offsets(addresses, start=CHACHA_START):
    return sorted(a - start for a in addresses)


# The loop finder on ChaCha: an 8-block loop (+0x1f8) holding the 10
# double rounds of chacha20 (+0x2b0), then the xor and stores.

def test_chacha_loops_nest():
    root, blocks = hot_loop.loop_tree(chacha_listing())
    assert root.whole_symbol and root.header == CHACHA_START
    loop = hot_loop.hot_loop(root)
    assert loop.header - CHACHA_START == 0x1f8
    assert offsets(loop.blocks) == [0x1f8, 0x2b0, 0x580]
    assert loop.percent == pytest.approx(99.43, abs=0.01)
    assert [c.header - CHACHA_START for c in loop.children] == [0x2b0]
    assert offsets(loop.children[0].blocks) == [0x2b0]


def test_chacha_body_unrolls_the_rounds_by_their_count():
    root, blocks = hot_loop.loop_tree(chacha_listing())
    loop = hot_loop.hot_loop(root)
    hits = {CHACHA_START + 0x1f8: 32, CHACHA_START + 0x2b0: 320,
            CHACHA_START + 0x580: 32}
    assert hot_loop.fit(loop, blocks, hits) is loop
    body = hot_loop.body(loop, blocks, hits)
    inner = blocks[CHACHA_START + 0x2b0].instructions
    outer = sum(len(blocks[s].instructions) for s in loop.blocks) - len(inner)
    assert len(body) == outer + 10 * len(inner)
    round_jumps = [i for i in body if i["asm"].startswith("jne")
                   and "+0x2b0>" in i["asm"]]
    assert len(round_jumps) == 10
    assert body[0]["asm"] == "mov    %r14d,%esi"
    assert body[-1]["asm"].endswith("<chacha_stream_xor_avx2+0x1f8>")
    assert hot_loop.describe(loop, blocks, hits, CHACHA_START) == \
        "loop at +0x1f8 (+0x1f8..+0x937, 3 blocks); inner loops unrolled: +0x2b0 x10"


def test_without_counts_the_innermost_loop():
    root, blocks = hot_loop.loop_tree(chacha_listing())
    loop = hot_loop.fit(hot_loop.hot_loop(root), blocks, None)
    assert loop.header - CHACHA_START == 0x2b0
    body = hot_loop.body(loop, blocks, None)
    assert body == blocks[loop.header].instructions


def test_a_body_too_long_gives_way_to_its_inner_loop(monkeypatch):
    root, blocks = hot_loop.loop_tree(chacha_listing())
    loop = hot_loop.hot_loop(root)
    hits = {CHACHA_START + 0x1f8: 32, CHACHA_START + 0x2b0: 320,
            CHACHA_START + 0x580: 32}
    monkeypatch.setattr(hot_loop, "MAX_BODY", 1000)
    assert hot_loop.fit(loop, blocks, hits).header - CHACHA_START == 0x2b0


def test_no_loop_with_half_the_samples_means_the_whole_symbol():
    listing = perf_parse.parse_annotate(
        fixture("annotate_memcpy_copy_avx2.txt"))[0]
    root, blocks = hot_loop.loop_tree(listing)
    start = root.header
    hottest = hot_loop.hottest_child(root)
    assert hottest.header - start == 0x18
    assert hottest.percent == pytest.approx(43.59, abs=0.01)
    assert hot_loop.hot_loop(root) is root


# A listing shaped like aes_ctr_vaes_avx2's: the loop is entered at its
# condition (+0x30), which rarely takes a carry path placed before the body
# (+0xa); code moved out of line (+0x60) jumps back into the main line.
ROTATED = """\
 Percent |	Source code & Disassembly of cyclebench for cpu-clock (100 samples, percent: local period)
---------
         : 5     0000000000001000 <f>:
    0.00 :   1000:  cmp    %rdi,%rsi
    0.00 :   1003:  ja     1060 <f+0x60>
    0.00 :   1005:  xor    %eax,%eax
    0.00 :   1008:  jmp    1030 <f+0x30>
    0.00 :   100a:  add    $0x1,%rdx
    0.00 :   100e:  bswap  %rdx
   40.00 :   1010:  vpaddd %ymm1,%ymm0,%ymm0
   30.00 :   1014:  vmovdqu %ymm0,(%rdi)
   10.00 :   1018:  add    $0x20,%rdi
    5.00 :   101c:  cmp    %rdi,%rsi
    5.00 :   101f:  je     1050 <f+0x50>
    0.00 :   1021:  data16 cs nopw 0x0(%rax,%rax,1)
    5.00 :   1030:  test   %rdx,%rdx
    0.00 :   1033:  je     100a <f+0xa>
    5.00 :   1035:  jmp    1010 <f+0x10>
    0.00 :   1050:  vzeroupper
    0.00 :   1053:  ret
    0.00 :   1060:  mov    %rsi,%rdi
    0.00 :   1063:  jmp    1005 <f+0x5>
"""


def test_rotated_loop_with_a_cold_path_and_out_of_line_code():
    listing = perf_parse.parse_annotate(ROTATED)[0]
    root, blocks = hot_loop.loop_tree(listing)
    # One loop: the jumps back from +0x63 and +0x35 close none.
    assert [c.header - 0x1000 for c in root.children] == [0x30]
    loop = hot_loop.hot_loop(root)
    assert offsets(loop.blocks, 0x1000) == [0xa, 0x10, 0x21, 0x30, 0x35]
    assert loop.percent == pytest.approx(100.0)
    hits = {0x1030: 64, 0x1035: 64, 0x100a: 0, 0x1010: 64, 0x1021: 63}
    assert sorted(hot_loop.count_points(loop)) == sorted(hits)
    body = [hot_loop.for_llvm_mc(i["asm"])
            for i in hot_loop.body(loop, blocks, hits)]
    assert body == ["test %rdx,%rdx", "je .Lloop", "jmp .Lloop",
                    "vpaddd %ymm1,%ymm0,%ymm0", "vmovdqu %ymm0,(%rdi)",
                    "add $0x20,%rdi", "cmp %rdi,%rsi", "je .Lloop", "nop"]
    assert hot_loop.describe(loop, blocks, hits, 0x1000).endswith(
        "cold blocks left out: +0xa")


@pytest.mark.parametrize("asm, want", [
    ("jne    572a0 <chacha_stream_xor_avx2+0x2b0>", "jne .Lloop"),
    ("vpshufb 0x1f543(%rip),%ymm12,%ymm12        # 76840 <rot8>",
     "vpshufb 0x1f543(%rip),%ymm12,%ymm12"),
    ("data16 cs nopw 0x0(%rax,%rax,1)", "nop"),
    ("xchg   %ax,%ax", "nop"),
    ("notrack jmp *%rax", "jmp *%rax"),
    ("lock cmpxchg %rdx,(%rdi)", "lock cmpxchg %rdx,(%rdi)"),
    ("call   5270 <memset@plt>", "call .Lloop"),
])
def test_for_llvm_mc(asm, want):
    assert hot_loop.for_llvm_mc(asm) == want


# The llvm-mca parser.

def test_parse_mca_sapphirerapids():
    p = mca.parse(fixture("mca_aes_ctr_vaes_avx2_sapphirerapids.txt"))
    assert p["iterations"] == 100 and p["total_cycles"] == 4579
    assert p["cycles_per_iteration"] == pytest.approx(45.79)
    assert p["block_rthroughput"] == 40.0 and p["dispatch_width"] == 6
    assert p["resources"]["0"] == "SPRPort00" and len(p["resources"]) == 13
    assert p["pressure"]["0"] == 44.39 and p["pressure"]["1"] == 45.05
    assert p["pressure"]["12"] == 0.0
    source = fixture("mca_aes_ctr_vaes_avx2.s").splitlines()
    assert len(p["by_instruction"]) == len(source) - 2
    assert p["by_instruction"][0]["asm"] == "cmpq $-16, %rcx"
    assert p["port_percent"]["SPRPort01"] == 84.84
    assert p["register_dependencies_percent"] == 31.03
    assert len(p["critical"]) == 17
    assert {c["edge"] for c in p["critical"][1:]} == {"resource"}


def test_bottleneck_of_vaes_is_ports_0_and_1():
    b = mca.bottleneck(mca.parse(
        fixture("mca_aes_ctr_vaes_avx2_sapphirerapids.txt")))
    assert b["kind"] == "ports"
    assert [p["port"] for p in b["busiest_ports"]] == ["SPRPort01", "SPRPort00"]
    assert b["port_users"][0] == {"mnemonic": "vaesenc",
                                  "cycles_per_iteration": 72.0}
    assert b["summary"].startswith("port-bound: SPRPort01 45.0, SPRPort00 44.4")
    assert "16 resource" in b["critical_sequence"]


# AEGIS-128L's block loop (aegis128l_encrypt_aesni at 16 KiB): eight
# updates of eight aesenc each, after which every state word is back in its
# register, so that the loop is one block; before it, the AAD's loops.

def aegis_listing():
    return perf_parse.parse_annotate(
        fixture("annotate_aegis128l_encrypt_aesni.txt"))[0]


def test_aegis_block_loop_is_the_hot_loop():
    listing = aegis_listing()
    start = hot_loop.address(listing["instructions"][0])
    root, blocks = hot_loop.loop_tree(listing)
    assert offsets([c.header for c in root.children], start) == \
        [0x360, 0x640, 0x740, 0xc30]
    loop = hot_loop.hot_loop(root)
    assert loop.header - start == 0x740
    assert offsets(loop.blocks, start) == [0x740]
    body = hot_loop.body(loop, blocks, None)
    assert len(body) == 230
    assert sum(i["asm"].startswith("aesenc") for i in body) == 64


def test_bottleneck_of_aegis_is_the_aes_round():
    """LLVM's model for this host issues aesenc on one port, which then
    bounds the loop; Sapphire Rapids' on two, and there the chain of rounds
    from one update to the next does."""
    b = mca.bottleneck(mca.parse(
        fixture("mca_aegis128l_encrypt_aesni_rocketlake.txt")))
    assert b["kind"] == "ports"
    assert [p["port"] for p in b["busiest_ports"]] == ["ICXPort0"]
    assert b["port_users"][0] == {"mnemonic": "aesenc",
                                  "cycles_per_iteration": 64.0}
    b = mca.bottleneck(mca.parse(
        fixture("mca_aegis128l_encrypt_aesni_sapphirerapids.txt")))
    assert b["kind"] == "dependencies"
    assert "mostly aesenc" in b["critical_sequence"]


def test_parse_mca_znver4_subunits():
    p = mca.parse(fixture("mca_memcpy_copy_avx2_znver4.txt"))
    assert p["cycles_per_iteration"] == pytest.approx(4.11)
    assert p["resources"]["12.0"] == "Zn4FP45.0"
    assert p["resources"]["16.1"] == "Zn4Store.1"
    assert p["pressure"]["12.0"] == 4.0 and p["pressure"]["13"] == 4.0
    b = mca.bottleneck(p)
    assert b["kind"] == "ports"
    assert {x["port"] for x in b["busiest_ports"]} == \
        {"Zn4FP45.0", "Zn4FP45.1", "Zn4FPSt"}


def test_parse_rejects_other_text():
    with pytest.raises(ValueError):
        mca.parse(fixture("report_lioness_avx2.txt"))


# gdb's hit counts.

INFO_BREAKPOINTS = """\
Num     Type           Disp Enb Address            What
2       breakpoint     keep y   0x00005555555ab1e8 in chacha_stream_xor_avx2 at x.c:1
\tbreakpoint already hit 32 times
\tignore next 1999999968 hits
3       breakpoint     keep y   0x00005555555ab2a0 in permute8 at x.c:72
\tbreakpoint already hit 320 times
\tignore next 1999999680 hits
4       breakpoint     keep y   0x00005555555aa000 in chacha_stream_xor_avx2 at x.c:9
\tignore next 2000000000 hits
5       breakpoint     keep y   0x00005555555aa100 in chacha_stream_xor_avx2 at x.c:9
\tbreakpoint already hit 1 time
"""


def test_gdb_hits():
    assert loop_count.parse_hits(INFO_BREAKPOINTS, 4) == [32, 320, 0, 1]


def test_gdb_script_numbers_breakpoints_from_2():
    script = loop_count.gdb_script(["run", "chacha20", "--size=64"],
                                   [("f.constprop.0", 0x10), ("g", 0)], "/o")
    assert script[3] == "tbreak run_loop"
    assert script[4] == "run run chacha20 --size=64 > /o"
    assert script[5:9] == ["break *('f.constprop.0' + 0x10)",
                           f"ignore 2 {loop_count.IGNORE_HITS}",
                           "break *('g' + 0x0)",
                           f"ignore 3 {loop_count.IGNORE_HITS}"]


# predict's arithmetic, with gdb and llvm-mca replaced by fixtures.

def fake_predict(monkeypatch, tmp_path, counts):
    listing = chacha_listing()
    monkeypatch.setattr(mca, "run", lambda model, path: (
        fixture("mca_aes_ctr_vaes_avx2_sapphirerapids.txt"), ["llvm-mca"], []))
    monkeypatch.setattr(loop_count, "count_per_call", counts)
    rows = [{"symbol": "chacha_stream_xor_avx2", "self_percent": 98.0,
             "cycles_per_byte": 1.2}]
    model = mca.Model("llvm-mca", "sapphirerapids", "asked for")
    return predict.predict(rows, 0.5, lambda symbol: listing, ["cyclebench"],
                           model, str(tmp_path))


def test_predict_divides_cycles_by_counted_bytes(monkeypatch, tmp_path):
    def counts(command, points):
        runs = {0x1f8: 32, 0x2b0: 320, 0x580: 32}
        assert [p[0] for p in points] == ["chacha_stream_xor_avx2"] * 3
        return [runs[offset] for _, offset in points], 16384
    r = fake_predict(monkeypatch, tmp_path, counts)
    e = r["mca"][0]
    assert e["iterations_per_call"] == 32 and e["bytes_per_iteration"] == 512
    assert e["cycles_per_iteration"] == pytest.approx(45.79)
    assert e["predicted_cycles_per_byte"] == pytest.approx(45.79 / 512,
                                                           abs=1e-4)
    # The symbol's cycles/byte, times the loop's share of its samples,
    # times the half of the loop the driver was on its CPU.
    share = 99.43 / 99.93
    assert e["measured_cycles_per_byte"] == pytest.approx(1.2 * share * 0.5,
                                                          abs=1e-4)
    assert r["measured_on_cpu_fraction"] == 0.5
    assert r["predicted_cycles_per_byte"] == e["predicted_cycles_per_byte"]
    assert r["model_fraction"] == pytest.approx(
        e["predicted_cycles_per_byte"] / e["measured_cycles_per_byte"],
        abs=1e-3)
    assert r["mcpu"] == "sapphirerapids" and r["bottleneck"].startswith(
        "port-bound")
    assert (tmp_path / "mca.txt").read_text().startswith(
        "#### chacha_stream_xor_avx2: loop at +0x1f8")
    assert (tmp_path / "mca-chacha_stream_xor_avx2.s").exists()


def test_predict_without_counts_gives_cycles_per_iteration(monkeypatch,
                                                           tmp_path):
    def counts(command, points):
        raise loop_count.CountError("gdb not found ('gdb'): install it")
    r = fake_predict(monkeypatch, tmp_path, counts)
    e = r["mca"][0]
    assert e["bytes_per_iteration"] is None
    assert e["predicted_cycles_per_byte"] is None
    assert e["cycles_per_iteration"] == pytest.approx(45.79)
    assert e["loop"].startswith("loop at +0x2b0")
    assert r["predicted_cycles_per_byte"] is None
    assert r["prediction_notes"] == [
        "bytes per iteration unknown, cycles per iteration only: gdb not "
        "found ('gdb'): install it"]


# llvm-mca itself, where it is installed (ci/install-deps.sh installs it).

needs_mca = pytest.mark.skipif(
    not (shutil.which("llvm-mca-19") or shutil.which("llvm-mca")),
    reason="llvm-mca is not installed (apt-get install llvm-19)")


@needs_mca
def test_unknown_model_names_the_fix():
    with pytest.raises(mca.McaError, match="-mcpu=help"):
        mca.resolve("pentium-9000")
    assert mca.resolve("znver4").name == "znver4"
    host = mca.resolve("native")
    assert host.name and host.how == "LLVM's model for this host"


@needs_mca
def test_lines_llvm_mca_cannot_read_are_left_out(tmp_path):
    source = tmp_path / "body.s"
    source.write_text(".Lloop:\n    vpaddd %ymm1,%ymm2,%ymm2\n"
                      "    frobnicate %rax\n    jne .Lloop\n")
    model = mca.resolve("znver4")
    text, cmd, dropped = mca.run(model, str(source))
    assert dropped == ["frobnicate %rax"]
    assert mca.parse(text)["instructions"] == 200
