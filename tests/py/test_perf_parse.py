"""The perf output parsers and the profile/diff arithmetic, on real perf
output committed in profiles/fixtures/. Run by
tests/cli/profile_test.sh:
PYTHONPATH=.:tools /usr/bin/python3 -m pytest tests/py/test_perf_parse.py"""
import pytest

from profiles import diff, perf_parse
from profiles import profiler as profile_kernel
from profile_fixtures import fixture


def test_report_rows_in_perf_order():
    r = perf_parse.parse_report(fixture("report_lioness_avx2.txt"))
    assert r["event"] == "cpu-clock"
    assert r["samples_label"] == "967"
    assert len(r["rows"]) == 15
    first = r["rows"][0]
    assert first == {"percent": 69.18, "samples": 669, "dso": "cyclebench",
                     "mode": ".", "symbol": "blake2b_compress_avx2"}
    assert sum(x["samples"] for x in r["rows"]) == 967
    assert abs(sum(x["percent"] for x in r["rows"]) - 100) < 0.5
    symbols = [x["symbol"] for x in r["rows"]]
    for want in ("chacha_stream_xor_avx2", "blake2b_update", "blake2b_final",
                 "lioness_run_staged", "__memmove_avx_unaligned_erms"):
        assert want in symbols


def test_report_kernel_rows_and_unresolved_addresses():
    r = perf_parse.parse_report(fixture("report_lioness_avx2_callgraph.txt"))
    assert r["samples_label"] == "1K"
    by_symbol = {x["symbol"]: x for x in r["rows"]}
    pfm = by_symbol["0x00000000000faa72"]
    assert pfm["dso"] == "libpfm.so.4.13.0" and pfm["mode"] == "."
    kernel = [x for x in r["rows"] if x["mode"] == "k"]
    assert kernel and all(x["dso"] == "[kernel.kallsyms]" for x in kernel)


def test_report_call_chains_are_not_rows():
    r = perf_parse.parse_report(fixture("report_lioness_avx2_callgraph.txt"))
    assert len(r["rows"]) == 29
    assert r["rows"][0]["symbol"] == "blake2b_compress_avx2"
    assert not any(x["symbol"].startswith(("|", "-")) for x in r["rows"])


def test_report_rejects_other_text():
    with pytest.raises(ValueError):
        perf_parse.parse_report("Error:\nThe perf.data data has no samples!\n")


def test_annotate_without_source():
    [a] = perf_parse.parse_annotate(fixture("annotate_memcpy_copy_avx2.txt"))
    assert a["symbol"] == "memcpy_copy_avx2"
    assert a["dso"] == "cyclebench" and a["event"] == "cpu-clock"
    assert a["samples"] == 1627
    insns = a["instructions"]
    assert len(insns) == 162
    assert insns[0] == {"percent": 4.24, "address": "17ed0",
                        "asm": "mov    %rsi,%rcx"}
    assert abs(sum(i["percent"] for i in insns) - 100) < 1


def test_annotate_with_source_keeps_instructions_only():
    [a] = perf_parse.parse_annotate(
        fixture("annotate_blake2b_final_source.txt"))
    assert a["symbol"] == "blake2b_final" and a["samples"] == 21
    assert len(a["instructions"]) == 45
    assert not any("memset(" in i["asm"] for i in a["instructions"])


def test_annotate_rejects_other_text():
    with pytest.raises(ValueError):
        perf_parse.parse_annotate("nothing here\n")


@pytest.mark.parametrize("asm, want", [
    ("jbe    18130 <memcpy_copy_avx2+0x260>", "jbe <+0x260>"),
    ("call   5270 <memset@plt>", "call <memset@plt>"),
    ("jmp    17ed0 <memcpy_copy_avx2>", "jmp <+0x0>"),
    ("vpshufb 0x2cd5(%rip),%ymm12,%ymm12        # 1b0a0 <rot8.0>",
     "vpshufb (%rip),%ymm12,%ymm12 # <rot8.0>"),
    ("vmovdqu -0x60(%rcx,%rax,1),%ymm2", "vmovdqu -0x60(%rcx,%rax,1),%ymm2"),
])
def test_strip_addresses(asm, want):
    assert perf_parse.strip_addresses(asm, "memcpy_copy_avx2") == want


@pytest.mark.parametrize("asm, want", [
    ("vpaddd %ymm1,%ymm2,%ymm3", {"ymm"}),
    ("vmovdqu -0x60(%rcx,%rax,1),%ymm2", {"ymm", "loads"}),
    ("movaps %xmm5,0x1d8(%rsp)", {"xmm", "stores"}),
    ("vprold $0x10,%zmm0,%zmm0", {"zmm", "rotates"}),
    ("vpshufb (%rip),%ymm12,%ymm12 # <rot8.0>",
     {"ymm", "loads", "shuffles/permutes"}),
    ("pshufd $0x93,%xmm1,%xmm1", {"xmm", "shuffles/permutes"}),
    ("vperm2i128 $0x20,%ymm1,%ymm0,%ymm2", {"ymm", "shuffles/permutes"}),
    ("vpslld $0xc,%ymm1,%ymm2", {"ymm", "shifts"}),
    ("rorx $0xe,%rax,%rbx", {"rotates"}),
    ("lea 0x10(%rsp),%r13", set()),
    ("nopl (%rax)", set()),
    ("cmp %rax,(%rdi)", {"loads"}),
    ("push %rbx", {"stores"}),
    ("pop %rbx", {"loads"}),
])
def test_classify(asm, want):
    assert diff.classify(asm) == want


def test_instruction_mix_of_real_listing():
    [a] = perf_parse.parse_annotate(fixture("annotate_memcpy_copy_avx2.txt"))
    mix = diff.instruction_mix(a["instructions"])
    assert mix["ymm"] > 0 and mix["zmm"] == 0
    assert mix["loads"] > 0 and mix["stores"] > 0


def test_align_matches_operations_across_isas():
    a = [{"code": c} for c in ["push %rbp", "vpaddd %ymm1,%ymm2,%ymm2",
                               "vpxor %ymm2,%ymm3,%ymm3", "ret"]]
    b = [{"code": c} for c in ["push %rbp", "paddd %xmm1,%xmm2",
                               "pxor %xmm2,%xmm3", "movdqa %xmm3,%xmm4",
                               "ret"]]
    pairs = diff.align(a, b)
    codes = [(x["code"] if x else None, y["code"] if y else None)
             for x, y in pairs]
    assert codes == [("push %rbp", "push %rbp"),
                     ("vpaddd %ymm1,%ymm2,%ymm2", "paddd %xmm1,%xmm2"),
                     ("vpxor %ymm2,%ymm3,%ymm3", "pxor %xmm2,%xmm3"),
                     (None, "movdqa %xmm3,%xmm4"),
                     ("ret", "ret")]


def test_breakdown_splits_the_measured_total():
    parsed = perf_parse.parse_report(fixture("report_lioness_avx2.txt"))
    total, rows = profile_kernel.breakdown_rows(parsed, 10.0, "cyclebench")
    assert total == 967
    assert abs(sum(r["self_percent"] for r in rows) - 100) < 1e-2
    assert abs(sum(r["cycles_per_byte"] for r in rows) - 10.0) < 1e-2
    parts = {r["symbol"]: r["part"] for r in rows}
    assert parts["blake2b_compress_avx2"] == "BLAKE2b compression"
    assert parts["blake2b_update"] == "BLAKE2b key and finalisation"
    assert parts["blake2b_final"] == "BLAKE2b key and finalisation"
    assert parts["chacha_stream_xor_avx2"] == "ChaCha stream"
    assert parts["__memmove_avx_unaligned_erms"] == "copies and xors"
    assert parts["lioness_run_staged"] == "copies and xors"
    assert parts["irqentry_exit_to_user_mode"] == "OS kernel"


def test_stages_compare_with_parts():
    parts = [{"part": "ChaCha stream", "self_percent": 25.0},
             {"part": "BLAKE2b compression", "self_percent": 69.0},
             {"part": "BLAKE2b key and finalisation", "self_percent": 1.0},
             {"part": "copies and xors", "self_percent": 4.0}]
    stages = [{"name": "chacha S(L^K1)", "percent": 14.0},
              {"name": "blake2b H(K2,R)", "percent": 35.0},
              {"name": "chacha S(L^K3)", "percent": 15.0},
              {"name": "blake2b H(K4,R)", "percent": 35.0},
              {"name": "copy", "percent": 1.0}]
    got = {c["stage"]: (c["stage_percent"], c["perf_percent"])
           for c in profile_kernel.stage_comparison(parts, stages)}
    assert got == {"chacha": (29.0, 25.0), "blake2b": (70.0, 70.0),
                   "copy": (1.0, 4.0)}


def test_unresolved_addresses_merge_per_library():
    rows = [{"symbol": "0x416c6", "samples": 4, "dso": "libsodium.so.23",
             "mode": ".", "percent": 0},
            {"symbol": "crypto_stream_chacha20_xor_ic", "samples": 3,
             "dso": "libsodium.so.23", "mode": ".", "percent": 0},
            {"symbol": "0x416d0", "samples": 2, "dso": "libsodium.so.23",
             "mode": ".", "percent": 0}]
    merged = profile_kernel.merge_unresolved(rows)
    assert [(r["symbol"], r["samples"]) for r in merged] == [
        ("[libsodium.so.23, no symbols]", 6),
        ("crypto_stream_chacha20_xor_ic", 3)]
