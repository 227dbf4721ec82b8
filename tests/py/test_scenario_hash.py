"""make scenario NAME=hash on committed fixtures: a real run of the
scenario's bench (tests/fixtures/results/scenario-hash.json) and the
listing of the build that ran it (list-hash.json, the hash kernels of
`cyclebench list --json`): the table's rows and cells, the notes on
KangarooTwelve's tree against the run's own medians, a build without the
Keccak kernels, and the chart. Run by tests/py/scenario_hash_test.sh."""
import json
import os

import matplotlib

matplotlib.use("Agg")

from cyclebench import registry, results
from cyclebench.units import sig3
from cyclebench.scenario import SCENARIOS, MODULES, hash as hash_scenario
from cyclebench.scenario.measure import Measured

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "fixtures", "results")
COUNTER = "tsc_cycles_per_byte"


def fixture(name):
    return os.path.join(FIXTURES, name)


def measured(drop=()):
    with open(fixture("list-hash.json"), encoding="utf-8") as f:
        document = json.load(f)
    document["kernels"] = [k for k in document["kernels"]
                           if k["name"] not in drop]
    kernels = registry.parse(document, "list-hash.json")
    run = results.load(fixture("scenario-hash.json"), kernels)
    return Measured(kernels, {"default": run}, "/nonexistent",
                    "/nonexistent")


def test_hash_is_a_scenario_of_all():
    assert "hash" in MODULES and SCENARIOS["hash"] is hash_scenario.SCENARIO
    assert hash_scenario.SCENARIO.sizes == [64, 576, 4096, 16384, 65536]


def test_every_kernel_at_every_isa_a_row_measured_here():
    m = measured()
    t = hash_scenario.table(m)
    assert t.headers()[2:-1] == [f"{s} B (TSC ticks/byte)"
                                 for s in hash_scenario.SIZES]
    want = [(k, isa.name) for k in hash_scenario.OURS + hash_scenario.PEERS
            for isa in m.registry.variants(k)]
    assert [(r.kernel, r.isa) for r in t.rows] == want
    assert ("kt128", "avx512") in want and ("gcrypt:sha3-256", "external") \
        in want
    # The fixture's host has AVX-512: every row has every size.
    assert all(None not in r.values for r in t.rows)
    row = next(r for r in t.rows if (r.kernel, r.isa) == ("kt128", "avx512"))
    assert row.values[-1] == m.results.median("kt128", "avx512", 65536,
                                              COUNTER)


def test_tree_notes_are_the_runs_own_ratios():
    m = measured()
    notes = "\n".join(hash_scenario.table(m).notes)
    med = lambda k, isa: m.results.median(k, isa, 65536, COUNTER)
    for isa in ("avx512", "avx2", "generic"):
        kt = med("kt128", isa)
        ts = med("turboshake128", isa)
        assert f"KT128@{isa} at 64 KiB: {sig3(kt)} ticks/byte" in notes
        assert f"{ts / kt:.2f}x TurboSHAKE128@{isa}'s speed" in notes
        assert f"{med('kt128', 'generic') / kt:.2f}x KT128@generic's" in \
            notes
    kt_isa, kt = min((med("kt128", i.name), i.name)
                     for i in m.registry.variants("kt128"))[::-1]
    b2_isa, b2 = min((med("blake2b", i.name), i.name)
                     for i in m.registry.variants("blake2b"))[::-1]
    verdict = "met" if kt / b2 <= 0.5 else "not met"
    assert (f"KT128@{kt_isa} / BLAKE2b@{b2_isa} at 64 KiB, both our fastest "
            f"rows in this run: {kt / b2:.2f} (goal: at most 0.5; "
            f"{verdict})") in notes


def test_a_build_without_the_keccak_kernels_says_so():
    gone = ["sha3-256", "shake256", "turboshake128", "kt128"]
    t = hash_scenario.table(measured(drop=gone))
    missing = [r for r in t.rows if r.kernel in gone]
    assert [r.kernel for r in missing] == gone
    assert all(r.isa == "—" and r.note.startswith("not available")
               for r in missing)
    assert not any(n.startswith("KT128@") for n in t.notes)


def test_markdown_csv_and_chart():
    m = measured()
    t = hash_scenario.table(m)
    md = t.markdown()
    value = m.results.median("blake2b", "avx512", 576, COUNTER)
    assert f"| blake2b | avx512 | " in md and sig3(value) in md
    assert t.csv().splitlines()[0].startswith("kernel,isa,64 B (TSC")
    fig = hash_scenario.chart(t, m)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    # Ours at the best ISA (avx512 on the fixture's host), and the peers.
    assert sorted(line.get_label() for line in ax.lines) == sorted(
        [f"{k}@avx512" for k in hash_scenario.OURS] +
        [f"{k}@external" for k in hash_scenario.PEERS])
