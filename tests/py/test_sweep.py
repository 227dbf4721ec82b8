"""Compact sweeps (tools/cyclebench/sweep.py): what they keep reads back as
the full results did, every committed sweep stays small, and the README's
headline table is the one the committed sweeps give.
Run: PYTHONPATH=tools /usr/bin/python3 -m pytest tests/py/test_sweep.py
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
SWEEPS = sorted(glob.glob(os.path.join(ROOT, "docs", "results", "*.json")))
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


def test_readme_headline_is_generated_from_the_sweeps():
    done = run("headline", *SWEEPS, "--readme", README, "--check")
    assert done.returncode == 0, done.stderr


def test_headline_check_sees_a_hand_edit(tmp_path):
    edited = tmp_path / "README.md"
    with open(README) as f:
        text = f.read()
    start = text.index(sweep.START)
    edited.write_text(text[:start] + text[start:].replace(" | ", " |  ", 1))
    done = run("headline", *SWEEPS, "--readme", str(edited), "--check")
    assert done.returncode == 1 and "--write" in done.stderr
