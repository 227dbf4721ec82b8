"""The bench summary's same-moment section (tools/cyclebench/summary.py,
peers.same_moment) on two real runs with pair rounds: per pair the median
of the rounds' ratios and their range, computed here from the raw JSON,
and the issue's words exactly where the range crosses 1.0. And its
two-speed benchmarks (two_speed_lines): one whose blocks the sampler found
at two speeds (harness/sampler.c, sampler_two_levels) is named with both
levels and the faster's share, as its JSON has them; one at one speed, or
from a build before the field, is not. Nothing here runs a benchmark. Run: PYTHONPATH=tools /usr/bin/python3 -m pytest
tests/py/test_summary.py
"""
import json
import os
import statistics
import subprocess
import sys

import pytest

from cyclebench import results
from cyclebench.units import sig3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "results")
# tests/fixtures/results/README.md: one run whose every pair kept its
# winner through the rounds, one where two pairs changed it.
STEADY = os.path.join(FIXTURES, "pair-rounds-steady.json")
CROSSING = os.path.join(FIXTURES, "pair-rounds-crossing.json")
NO_ROUNDS = os.path.join(FIXTURES, "report.json")
WORDS = "the winner depends on the host's state here"
# Two recorded runs of aes128-xts@ssse3: one at two speeds, one at one.
TWO_SPEEDS = os.path.join(FIXTURES, "two-speeds.json")
ONE_SPEED = os.path.join(FIXTURES, "one-speed.json")
TWO_SPEEDS_HEAD = "ran at two speeds"


def summary(path, out):
    done = subprocess.run([sys.executable, "-m", "cyclebench.summary",
                           str(path), f"--out={out}"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": TOOLS})
    return done


def pairs_in(path):
    """{(kernel, isa, size, peer): [each round's median ratio]} from the
    file itself."""
    with open(path, encoding="utf-8") as f:
        rounds = json.load(f)["pair_rounds"]
    pairs = {}
    for r in rounds:
        pairs.setdefault((r["kernel"], r["isa"], r["size"], r["vs"]),
                         []).append(r["ratio"]["median"])
    return pairs


def line_of(text, pair):
    """The summary's same-moment line of pair."""
    kernel, isa, size, peer = pair
    found = [line for line in text.splitlines()
             if line.split()[:5] == [kernel, "@" + isa, str(size), "B", peer]]
    assert len(found) == 1, (pair, found)
    return found[0]


@pytest.mark.parametrize("path,crossing", [(STEADY, 0), (CROSSING, 2)],
                         ids=["steady", "crossing"])
def test_each_pair_gives_the_median_of_its_rounds_and_their_range(
        tmp_path, path, crossing):
    done = summary(path, tmp_path)
    assert done.returncode == 0, done.stderr
    pairs = pairs_in(path)
    assert pairs and all(len(r) == 3 for r in pairs.values()), pairs
    for pair, ratios in pairs.items():
        line = line_of(done.stdout, pair)
        low, high = min(ratios), max(ratios)
        want = f"{statistics.median(ratios):.2f}x  {low:.3f}-{high:.3f}"
        assert want in line, (want, line)
        assert (WORDS in line) == (low < 1.0 < high), line
    pair_lines = [line_of(done.stdout, pair) for pair in pairs]
    assert sum(WORDS in line for line in pair_lines) == crossing, pair_lines
    count = (f"{crossing} of {len(pairs)} pairs: {WORDS}" if crossing else
             f"No pair's winner changed between rounds ({len(pairs)} pairs)")
    assert count in done.stdout, done.stdout


def test_the_words_name_only_pairs_whose_range_crosses_one(tmp_path):
    done = summary(CROSSING, tmp_path)
    named = {tuple(line.split()[:5]) for line in done.stdout.splitlines()
             if line.endswith(WORDS) and line.startswith("  ")}
    want = {(k, "@" + i, str(s), "B", p)
            for (k, i, s, p), r in pairs_in(CROSSING).items()
            if min(r) < 1.0 < max(r)}
    assert want and named == want, (named, want)


def test_the_markdown_has_the_same_table(tmp_path):
    done = summary(CROSSING, tmp_path)
    assert done.returncode == 0, done.stderr
    stem = results.load(CROSSING).context["run_id"]
    markdown = (tmp_path / f"{stem}.summary.md").read_text()
    for (kernel, isa, size, peer), ratios in pairs_in(CROSSING).items():
        low, high = min(ratios), max(ratios)
        verdict = (WORDS if low < 1.0 < high else
                   "ours faster in every round" if high < 1.0 else
                   "the peer faster in every round")
        row = (f"| {kernel} | {isa} | {size} | {peer} | "
               f"{statistics.median(ratios):.2f}x | {low:.3f}-{high:.3f} | "
               f"{verdict} |")
        assert row in markdown, row


def test_the_seconds_apart_table_says_what_to_quote(tmp_path):
    done = summary(STEADY, tmp_path)
    assert "quote the same-moment ratios after it" in done.stdout
    before = done.stdout.index("Ours against the peers:")
    assert done.stdout.index("at the same moments") > before


def test_results_without_pair_rounds_read_as_before(tmp_path):
    assert results.load(NO_ROUNDS).pair_rounds == []
    done = summary(NO_ROUNDS, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Ours against each peer at the same moments" not in done.stdout
    assert "`cyclebench run A --vs=B` gives the ratio" in done.stdout


@pytest.mark.parametrize("rounds", [
    "{}", '[{"round": 0, "kernel": "chacha20"}]',
    '[{"round": 0, "kernel": "a", "isa": "b", "vs": "c", "size": 576, '
    '"ratio": {"median": "fast"}}]'], ids=["not a list", "no ratio",
                                           "a ratio not a number"])
def test_malformed_pair_rounds_are_bad_input(tmp_path, rounds):
    with open(STEADY, encoding="utf-8") as f:
        document = json.load(f)
    document["pair_rounds"] = json.loads(rounds)
    path = tmp_path / "run.json"
    path.write_text(json.dumps(document))
    done = summary(path, tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, (
        done.returncode, done.stderr)
    assert "pair_rounds" in done.stderr and not done.stdout
    assert not list(tmp_path.glob("*.summary.md"))


def summary_texts(path, out):
    """The summary's text and its Markdown file."""
    done = summary(path, out)
    assert done.returncode == 0, done.stderr
    with open(os.path.join(out, "latest.summary.md"), encoding="utf-8") as f:
        return done.stdout, f.read()


def benchmarks(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def test_each_two_speed_benchmark_is_named_with_its_levels(tmp_path):
    found = [b for b in benchmarks(TWO_SPEEDS) if b.get("two_levels")]
    assert found, "the fixture has no two-speed benchmark"
    text, markdown = summary_texts(TWO_SPEEDS, tmp_path)
    for b in found:
        low = b["level_low_tsc_cycles_per_byte"]
        high = b["level_high_tsc_cycles_per_byte"]
        assert low < b["tsc_cycles_per_byte"] < high
        words = (f"{b['name']}: {sig3(low)} "
                 f"({b['level_low_share']:.0%}) and {sig3(high)}")
        assert words in text, text
        assert words in markdown, markdown
    head = [line for line in text.splitlines() if TWO_SPEEDS_HEAD in line]
    assert len(head) == 1 and head[0].startswith(f"{len(found)} benchmarks")


def test_one_speed_and_older_results_name_none(tmp_path):
    assert benchmarks(ONE_SPEED) and all(b.get("two_levels") == 0
                                         for b in benchmarks(ONE_SPEED))
    assert all("two_levels" not in b for b in benchmarks(NO_ROUNDS))
    for path in (ONE_SPEED, NO_ROUNDS):
        text, markdown = summary_texts(path,
                                       tmp_path / os.path.basename(path))
        assert TWO_SPEEDS_HEAD not in text and TWO_SPEEDS_HEAD not in markdown
