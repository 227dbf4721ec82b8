"""The summary's two-speed benchmarks (tools/cyclebench/summary.py,
two_speed_lines): a benchmark whose blocks the sampler found at two speeds
(harness/sampler.c, sampler_two_levels) is named with both levels and the
faster's share, as its JSON has them; one at one speed, or from a build
before the field, is not. On two recorded runs
(tests/fixtures/results/README.md); nothing here runs a benchmark.
Run: PYTHONPATH=tools /usr/bin/python3 -m pytest tests/py/test_two_speeds.py
"""
import json
import os
import subprocess
import sys

from cyclebench.units import sig3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "results")
TWO = os.path.join(FIXTURES, "two-speeds.json")
ONE = os.path.join(FIXTURES, "one-speed.json")
BEFORE = os.path.join(FIXTURES, "report.json")
HEAD = "ran at two speeds"


def summary(path, out):
    done = subprocess.run([sys.executable, "-m", "cyclebench.summary",
                           str(path), f"--out={out}"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": TOOLS})
    assert done.returncode == 0, done.stderr
    with open(os.path.join(out, "latest.summary.md"), encoding="utf-8") as f:
        return done.stdout, f.read()


def benchmarks(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def test_each_two_speed_benchmark_is_named_with_its_levels(tmp_path):
    found = [b for b in benchmarks(TWO) if b.get("two_levels")]
    assert found, "the fixture has no two-speed benchmark"
    text, markdown = summary(TWO, tmp_path)
    for b in found:
        low = b["level_low_tsc_cycles_per_byte"]
        high = b["level_high_tsc_cycles_per_byte"]
        assert low < b["tsc_cycles_per_byte"] < high
        words = (f"{b['name']}: {sig3(low)} "
                 f"({b['level_low_share']:.0%}) and {sig3(high)}")
        assert words in text, text
        assert words in markdown, markdown
    head = [line for line in text.splitlines() if HEAD in line]
    assert len(head) == 1 and head[0].startswith(f"{len(found)} benchmarks")


def test_one_speed_and_older_results_name_none(tmp_path):
    assert benchmarks(ONE) and all(b.get("two_levels") == 0
                                   for b in benchmarks(ONE))
    assert all("two_levels" not in b for b in benchmarks(BEFORE))
    for path in (ONE, BEFORE):
        text, markdown = summary(path, tmp_path / os.path.basename(path))
        assert HEAD not in text and HEAD not in markdown
