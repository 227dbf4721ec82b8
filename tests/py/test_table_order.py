"""tools/cyclebench/table_order.py and its lines in the bench summary: a
table's default row beaten beyond both CIs is named with both figures; a
win within the noise, or auto's row, is not. Synthetic results; nothing
runs a benchmark. Run: PYTHONPATH=tools /usr/bin/python3 -m pytest
tests/py/test_table_order.py
"""
import json
import os
import subprocess
import sys

from cyclebench import results, table_order

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")


def bench(name, median, half_width=0.01):
    return {"name": name, "run_name": name, "run_type": "iteration",
            "tsc_cycles_per_byte": median,
            "tsc_cycles_per_byte_ci95_low": median - half_width,
            "tsc_cycles_per_byte_ci95_high": median + half_width}


def document(benchmarks, dispatch="blake2b=avx512 chacha20=avx512",
             chosen=""):
    return {"context": {"dispatch": dispatch, "auto": chosen},
            "benchmarks": benchmarks}


# The Zen 5 host's figures at 16 KiB, and a smaller gap at 576 B.
ZEN5 = [bench("blake2b@avx512/16384", 2.82), bench("blake2b@avx2/16384", 3.07),
        bench("blake2b@generic/16384", 1.62), bench("blake2b@avx512/576", 3.3),
        bench("blake2b@generic/576", 2.9), bench("blake2b@avx512/64", 6.0),
        bench("blake2b@generic/64", 6.0), bench("chacha20@avx512/16384", 0.6),
        bench("chacha20@avx2/16384", 1.1)]


def lines_of(benchmarks, **kw):
    return table_order.contradiction_lines(
        results.parse(document(benchmarks, **kw), "test.json"))


def test_a_beaten_default_is_named_with_both_figures_where_it_loses_most():
    lines = lines_of(ZEN5)
    assert lines[1:] == ["  blake2b: generic 1.62 beats avx512 2.82 at 16 KiB "
                         "(beaten at 2 of 3 sizes)"], lines


def test_a_win_within_the_cis_is_no_contradiction():
    close = [bench("blake2b@avx512/16384", 2.0, 0.1),
             bench("blake2b@generic/16384", 1.95, 0.1)]
    assert lines_of(close) == [
        "The tables' best-first order holds here: no kernel's default row "
        "was beaten beyond the CIs at any size"]


def test_auto_is_not_a_table_row():
    faster_auto = [bench("blake2b@avx512/16384", 2.82),
                   bench("blake2b@auto/16384", 1.5)]
    assert "holds here" in lines_of(faster_auto)[0]


def test_results_without_a_dispatch_say_nothing():
    assert lines_of(ZEN5, dispatch="") == []


def test_sizes_read_in_kib_where_whole():
    assert table_order.size_text(16384) == "16 KiB"
    assert table_order.size_text(509) == "509 B"
    assert table_order.size_text(1536) == "1536 B"


def test_auto_lines_one_per_length():
    chosen = ("chacha20=avx512 blake2b=generic (measured at 509 B); "
              "chacha20=avx512 blake2b=avx512 (measured at 16384 B)")
    lines = table_order.auto_lines(
        results.parse(document(ZEN5, chosen=chosen), "test.json"))
    assert lines[1:] == ["  chacha20=avx512 blake2b=generic (measured at 509 B)",
                         "  chacha20=avx512 blake2b=avx512 (measured at 16384 B)"]


def test_the_summary_prints_the_line(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(document(ZEN5)))
    done = subprocess.run([sys.executable, "-m", "cyclebench.summary",
                           str(path), f"--out={tmp_path}"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": TOOLS})
    assert done.returncode == 0, done.stderr
    line = "blake2b: generic 1.62 beats avx512 2.82 at 16 KiB"
    assert line in done.stdout
    assert line in (tmp_path / "run.summary.md").read_text()
