"""Compact sweeps and same-moment pairs (tools/cyclebench/sweep.py): what a
sweep keeps reads back as the full results did (its pair rounds too),
every committed sweep stays small, the headline shows each pair's own
ratio, and the README's headline table is the one the committed pairs
give.
Run: PYTHONPATH=.:tools /usr/bin/python3 -m pytest tests/py/test_sweep.py
"""
import glob
import json
import math
import os
import subprocess
import sys

import pytest

from cyclebench import results, sweep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "results", "report.json")
REPEATED = os.path.join(ROOT, "tests", "fixtures", "results", "base.json")
ROUNDS = os.path.join(ROOT, "tests", "fixtures", "results",
                      "pair-rounds-crossing.json")
PAIRS = sorted(glob.glob(os.path.join(ROOT, "docs", "results", "*.pairs.json")))
SWEEPS = sorted(set(glob.glob(os.path.join(ROOT, "docs", "results", "*.json")))
                - set(PAIRS))
README = os.path.join(ROOT, "README.md")
MAX_SWEEP_BYTES = 300_000


def run(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools"))
    return subprocess.run([sys.executable, "-m", "cyclebench.sweep", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def compacted(tmp_path, source):
    out = tmp_path / "sweep.json"
    done = run("compact", source, str(out))
    assert done.returncode == 0, done.stderr
    return results.load(str(out)), out


@pytest.mark.parametrize("source", [FIXTURE, REPEATED])
def test_compact_reads_back_as_the_results_did(tmp_path, source):
    full = results.load(source)
    small, _ = compacted(tmp_path, source)
    assert set(small.runs) == set(full.runs)
    for key, run in full.runs.items():
        for counter in ("tsc_cycles_per_byte", "tsc_cycles_per_byte_q1",
                        "tsc_cycles_per_byte_q3", "ns_per_byte",
                        "core_cycles_per_byte"):
            want, got = run.median(counter), small.runs[key].median(counter)
            assert want is not None and got is not None, (key, counter)
            assert math.isclose(got, want, rel_tol=1e-3), (key, counter)


def test_compact_keeps_the_context_and_drops_the_rest(tmp_path):
    _, out = compacted(tmp_path, FIXTURE)
    doc = json.loads(out.read_text())
    with open(FIXTURE) as f:
        assert doc["context"] == json.load(f)["context"]
    assert all(set(e) <= set(sweep.KEPT_FIELDS) | set(sweep.KEPT_COUNTERS)
               for e in doc["benchmarks"])
    assert out.stat().st_size < os.path.getsize(FIXTURE) / 3


def test_compact_keeps_each_pair_rounds_ratio(tmp_path):
    full = results.load(ROUNDS)
    small, out = compacted(tmp_path, ROUNDS)
    assert full.pair_rounds and len(small.pair_rounds) == len(full.pair_rounds)
    for want, got in zip(full.pair_rounds, small.pair_rounds):
        assert (got.round, got.kernel, got.isa, got.vs, got.size) == (
            want.round, want.kernel, want.isa, want.vs, want.size)
        for figure in ("ratio", "q1", "q3"):
            assert math.isclose(getattr(got, figure), getattr(want, figure),
                                rel_tol=1e-3), (want, figure)
    _, plain = compacted(tmp_path, FIXTURE)
    assert "pair_rounds" not in json.loads(plain.read_text())


def test_compact_refuses_what_is_not_results(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"nothing": 1}')
    done = run("compact", str(bad), str(tmp_path / "out.json"))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "out.json").exists()


def test_committed_sweeps_are_small_and_readable():
    assert SWEEPS, "docs/results/ holds no sweep"
    for path in SWEEPS:
        assert os.path.getsize(path) < MAX_SWEEP_BYTES, path
        assert results.load(path).runs, path


def test_readme_headline_is_generated_from_the_pairs():
    assert PAIRS, "docs/results/ holds no pairs file"
    done = run("headline", *PAIRS, "--readme", README, "--check")
    assert done.returncode == 0, done.stderr


def pair(kernel, peer, ours, theirs, median, q1, q3):
    return {"kernel": kernel, "isa": "avx2", "vs": peer,
            "vs_isa": "external", "tsc_cycles_per_byte": ours,
            "vs_tsc_cycles_per_byte": theirs,
            "ratio": {"median": median, "q1": q1, "q3": q3}}


def test_headline_shows_each_pairs_own_ratio_not_the_ratio_of_medians(
        tmp_path):
    # The medians' ratio (0.9 / 0.6 = 1.5) differs from the same-moment
    # ratio (0.95): the table must show the latter, with its quartiles.
    document = {"context": {"cpu_model": "Test CPU"},
                "pairs": [pair("chacha20", "openssl:chacha20", 0.9, 0.6,
                               0.95, 0.93, 0.97),
                          pair("chacha20", "sodium:chacha20", 0.8, 1.6,
                               0.5, 0.49, 0.52)]}
    path = tmp_path / "host.pairs.json"
    path.write_text(json.dumps(document))
    table = sweep.headline([str(path)])
    row = table.splitlines()[2]
    assert "same-moment pairs" in row and "| chacha20 | avx2 |" in row
    assert "openssl 0.600 (0.95x, quartiles 0.93-0.97)" in row
    assert "sodium 1.60 (0.50x, quartiles 0.49-0.52)" in row
    assert "1.50x" not in table


def test_headline_check_sees_a_hand_edit(tmp_path):
    edited = tmp_path / "README.md"
    with open(README) as f:
        text = f.read()
    start = text.index(sweep.START)
    edited.write_text(text[:start] + text[start:].replace(" | ", " |  ", 1))
    done = run("headline", *PAIRS, "--readme", str(edited), "--check")
    assert done.returncode == 1 and "--write" in done.stderr
