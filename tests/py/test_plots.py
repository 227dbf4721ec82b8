"""`make plots` (plots/), `make scenario`, `make compare` and the bench
summary (tools/cyclebench), on the committed result fixtures in
tests/fixtures/results/ (see the README there). Nothing here runs a
benchmark. Run: PYTHONPATH=.:tools /usr/bin/python3 -m pytest
tests/py/test_plots.py
"""
import copy
import errno
import csv
import io
import json
import os
import statistics
import subprocess
import sys

import pytest

from cyclebench import compare, peers, registry, results, units
from cyclebench.output import StagedFiles
from cyclebench.scenario import (MODULES, SCENARIOS, aead, bulk, disk,
                                 isa_ladder, lioness, tor)
from cyclebench.scenario.document import markdown
from cyclebench.errors import InputError
from cyclebench.scenario.measure import (Measured, Options, PairedRun,
                                         bench_command, paired_command,
                                         run_paired, supported)
from plots import charts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "results")
# The packages, for the commands run as python3 -m <module>: plots at the
# top, the core in tools/.
PYTHONPATH = os.pathsep.join([ROOT, os.path.join(ROOT, "tools")])

BASE = os.path.join(FIXTURES, "base.json")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def fixture(name):
    return os.path.join(FIXTURES, name)


def listing(drop=(), hide=()):
    """`cyclebench list --json` of the fixtures' build, less the kernels in
    drop (a build without them), with the ISAs in hide unsupported (a host
    that hides them: the fixtures come from one with AVX-512)."""
    with open(fixture("list.json"), encoding="utf-8") as f:
        document = json.load(f)
    document["kernels"] = [k for k in document["kernels"]
                           if k["name"] not in drop]
    for k in document["kernels"]:
        for isa in k["isas"]:
            isa["supported"] = isa["supported"] and isa["name"] not in hide
    return registry.parse(document, "list.json")


def measured(name, drop=(), hide=(), leak_csv="/nonexistent", **runs):
    kernels = listing(drop, hide)
    runs.setdefault("default", results.load(fixture(f"scenario-{name}.json"),
                                            kernels))
    return Measured(kernels, runs, "/nonexistent", leak_csv)


def run_script(module, *args, cwd=None):
    """python3 -m <module> args, as make runs it: plots, or
    cyclebench.<module> for the others."""
    name = module if module == "plots" else f"cyclebench.{module}"
    return subprocess.run([sys.executable, "-m", name,
                           *args], capture_output=True, text=True,
                          cwd=cwd or ROOT,
                          env={**os.environ, "PYTHONPATH": PYTHONPATH})


def one_line_error(done):
    return done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def write_json(path, document):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return str(path)


def load_document(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# Reading results

def test_medians_come_from_the_median_aggregate():
    doc = load_document(BASE)
    want = next(b for b in doc["benchmarks"]
                if b["name"] == "chacha20@avx2/4096_median")
    run = results.load(BASE).get("chacha20", "avx2", 4096)
    assert run.median("tsc_cycles_per_byte") == want["tsc_cycles_per_byte"]
    assert len(run.repetitions["tsc_cycles_per_byte"]) == 5


def test_medians_fall_back_to_the_repetitions():
    doc = load_document(BASE)
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if b["run_type"] == "iteration"]
    run = results.parse(doc, "test").get("chacha20", "avx2", 4096)
    assert run.median("ns_per_byte") == statistics.median(
        run.repetitions["ns_per_byte"])


def test_skipped_reasons_keep_their_parentheses():
    text = ("chacha20@avx512 (unsupported on this CPU), openssl:rc4@external "
            "(no legacy provider (openssl 3), not timed)")
    assert results.skipped_reasons(text) == {
        "chacha20@avx512": "unsupported on this CPU",
        "openssl:rc4@external": "no legacy provider (openssl 3), not timed"}


def test_a_benchmark_that_failed_is_a_row_saying_why():
    doc = load_document(fixture("scenario-isa-ladder.json"))
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if not b["name"].startswith("chacha8@sse2/")]
    doc["benchmarks"].append({
        "name": "chacha8@sse2/576", "run_name": "chacha8@sse2/576",
        "run_type": "iteration", "error_occurred": True,
        "error_message": "out of memory for the buffers"})
    m = measured("isa-ladder", default=results.parse(doc, "test"))
    row = next(r for r in isa_ladder.table(m).rows
               if (r.kernel, r.isa) == ("chacha8", "sse2"))
    assert row.values == [None] * 5
    assert row.note == "failed: out of memory for the buffers"


def test_a_shared_cpu_is_called_out():
    """From the sampling counters; cpu_time and real_time are both the
    median time per call, equal whatever the CPU share."""
    doc = load_document(BASE)
    for b in doc["benchmarks"]:
        b["cpu_time"] = b["real_time"] = 100.0
        b["sampling_seconds"] = b["sampling_cpu_seconds"] = 0.5
    assert results.parse(doc, "quiet").contention() is None
    for b in doc["benchmarks"]:
        b["sampling_cpu_seconds"] = 0.25
    warning = results.parse(doc, "busy").contention()
    assert warning.startswith("busy: the benchmarks had their CPU only 50%")


def test_a_shared_cpu_is_called_out_in_older_results():
    """Files from before the sampling counters: Google Benchmark's times
    of the whole sampling."""
    doc = load_document(BASE)
    for b in doc["benchmarks"]:
        b["cpu_time"] = b["real_time"]
    assert results.parse(doc, "quiet").contention() is None
    for b in doc["benchmarks"]:
        b["cpu_time"] = b["real_time"] / 2
    warning = results.parse(doc, "busy").contention()
    assert warning.startswith("busy: the benchmarks had their CPU only 50%")


@pytest.mark.parametrize("kernel, fam, ours", [
    ("chacha12", "chacha", "chacha12"),
    ("openssl:chacha20", "chacha", "chacha20"),
    ("xchacha8", "xchacha", "xchacha8"),
    ("sodium:blake2b", "blake2b", "blake2b"),
    ("openssl:blake2b512", "blake2b", "blake2b"),
    ("lioness12", "lioness", "lioness12"),
    ("openssl:aes-256-gcm", "aes", "aes256-gcm"),
    ("sodium:aes256gcm", "aes", "aes256-gcm"),
    ("xchacha20-poly1305", "chacha20-poly1305", "xchacha20-poly1305"),
    ("sodium:chacha20poly1305-ietf", "chacha20-poly1305", "chacha20-poly1305"),
    ("openssl:bf-cbc", "blowfish", "bf-cbc"),
    ("gcrypt:aes-128-xts", "aes", "aes128-xts"),
    ("gcrypt:blake2b512", "blake2b", "blake2b"),
    # Checked against OpenSSL's (we have no Camellia): paired as OpenSSL's.
    ("gcrypt:camellia-128-cbc", "camellia", "camellia-128-cbc"),
    ("tor1-relay-originate", "tor1", "tor1-relay-originate"),
])
def test_families_group_kernels_with_their_external_counterparts(kernel, fam,
                                                                 ours):
    kernels = registry.for_results()
    assert kernels.family(kernel) == fam
    assert kernels.counterpart(kernel) == ours


# The bench summary

def test_nearest_sizes_pick_the_closest_run_once_each():
    assert peers.nearest_sizes([64, 576, 4096]) == [64, 576, 4096]
    assert peers.nearest_sizes([8, 1536, 65536]) == [8, 1536, 65536]
    # 509 is nearer 64 than 8 is (on a log scale), and nearest 576 too.
    assert peers.nearest_sizes([8, 509, 1536, 65536]) == [509, 65536]
    assert peers.nearest_sizes([4096]) == [4096]


def test_peers_pair_externals_with_our_fastest_isa():
    res = results.load(BASE)
    rows = {(r.kernel, r.size): r for r in peers.comparisons(res)}
    row = rows[("chacha20", 4096)]
    ours = {isa: res.median("chacha20", isa, 4096, "tsc_cycles_per_byte")
            for isa in ["avx512", "avx2", "ssse3", "sse2", "generic"]}
    assert row.isa == min(ours, key=ours.get) and row.value == min(
        ours.values())
    theirs = res.median("openssl:chacha20", "external", 4096,
                        "tsc_cycles_per_byte")
    openssl = next(p for p in row.peers if p.library == "openssl")
    assert openssl.ratio == pytest.approx(row.value / theirs)
    assert [p.kernel for p in row.peers] == ["openssl:chacha20",
                                             "sodium:chacha20"]
    assert not rows[("memcpy", 64)].peers


def test_summary_prints_and_writes_the_ratios(tmp_path):
    doc = one_repetition(load_document(BASE))
    doc["context"]["run_id"] = "20261201T000000Z"
    doc["context"]["skipped"] = ("chacha20@avx512 (unsupported on this CPU), "
                                 "lioness@avx2/8 (lioness block must be at "
                                 "least 41 bytes (got 8): pad the message)")
    path = write_json(tmp_path / "latest.json", doc)
    done = run_script("summary", path)
    assert done.returncode == 0, done.stderr
    res = results.parse(doc, "one")
    ours = res.median("chacha20", "avx2", 576, "tsc_cycles_per_byte")
    best = min(res.median("chacha20", isa, 576, "tsc_cycles_per_byte")
               for isa in ["avx512", "avx2", "ssse3", "sse2", "generic"])
    theirs = res.median("openssl:chacha20", "external", 576,
                        "tsc_cycles_per_byte")
    line = next(line for line in done.stdout.splitlines()
                if line.split()[:1] == ["chacha20"] and " 576 B " in line)
    assert f"openssl {units.sig3(theirs)} ({best / theirs:.2f}x)" in line
    assert ours >= best
    assert "memcpy" in done.stdout.split("Ours with no peer")[1]
    assert "`cyclebench run A --vs=B` gives the ratio of the same moments" \
        in done.stdout
    assert "unsupported on this CPU: chacha20@avx512" in done.stdout
    assert "lioness block must be at least 41 bytes: pad the message: " \
        "lioness@avx2 at 8 B" in done.stdout
    for name in ["20261201T000000Z.summary.md", "latest.summary.md"]:
        text = (tmp_path / name).read_text()
        assert f"| {units.sig3(theirs)} ({best / theirs:.2f}x) |" in text
    assert sorted(os.listdir(tmp_path)) == [
        "20261201T000000Z.summary.md", "latest.json", "latest.summary.md"]


def test_summary_names_benchmarks_that_hit_the_cap(tmp_path):
    doc = one_repetition(load_document(BASE))
    capped = doc["benchmarks"][0]
    capped["precision_reached"] = 0
    median = capped["tsc_cycles_per_byte"]
    capped["tsc_cycles_per_byte_ci95_high"] = median * 1.031
    path = write_json(tmp_path / "r.json", doc)
    done = run_script("summary", path)
    n = benchmark_count(doc)
    assert f"{n} benchmarks; {n - 1} pinned their median" in done.stdout
    assert f"1 stopped at the time cap first, their CI ±3.1% at the " \
        f"median" in done.stdout
    assert f"; {capped['name']} (±3.1%)" in done.stdout


def test_summary_names_only_the_widest_of_many_capped(tmp_path):
    doc = one_repetition(load_document(BASE))
    for i, b in enumerate(doc["benchmarks"]):
        b["precision_reached"] = 0
        b["tsc_cycles_per_byte_ci95_high"] = b["tsc_cycles_per_byte"] * (
            1 + (i + 1) / 1000)
    path = write_json(tmp_path / "r.json", doc)
    line = next(line for line in run_script("summary", path).stdout
                .splitlines() if "stopped at the time cap" in line)
    widest = doc["benchmarks"][-1]["name"]
    assert f"the widest: {widest} (±" in line
    assert line.count("(±") == 8


def test_summary_bad_input_is_one_line_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"benchmarks": [')
    done = run_script("summary", str(bad))
    assert one_line_error(done) and "not valid JSON" in done.stderr
    assert os.listdir(tmp_path) == ["bad.json"]


# make plots

def test_plots_render_png_and_svg_per_family(tmp_path):
    done = run_script("plots", BASE, f"--out={tmp_path}")
    assert done.returncode == 0, done.stderr
    for fam in ["chacha", "blake2b", "memcpy"]:
        for figure in ["cycles-per-byte", "isa-ladder-576",
                       "speedup-over-generic"] + (
                           ["ours-over-peers"] if fam == "chacha" else []):
            png = (tmp_path / f"{fam}-{figure}.png").read_bytes()
            svg = (tmp_path / f"{fam}-{figure}.svg").read_text()
            assert png.startswith(PNG_MAGIC) and len(png) > 5000
            assert "<svg" in svg
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_cycles_per_byte_axes_name_the_clock_and_dash_externals():
    res = results.load(BASE)
    panels = res.families()["chacha"]
    for clock, label in [("tsc", "TSC ticks/byte"),
                         ("core", "core cycles/byte (estimated)")]:
        fig = charts.cycles_per_byte_figure(res, "chacha", panels, clock)
        ax = fig.axes[0]
        assert ax.get_ylabel() == f"{label} (log scale)"
        assert ax.get_xscale() == "log"
        styles = {line.get_label(): line.get_linestyle() for line in ax.lines}
        assert styles["avx2"] == "-"
        assert styles["openssl (external)"] == "--"
        assert styles["sodium (external)"] == "--"
        charts.plt.close(fig)


def test_cycles_per_byte_and_ladders_are_on_log_axes():
    # A family spans decades (8 bytes against 16 KiB, generic against the
    # vector rows): on a linear axis the fast rows are one line at 0.
    res = results.load(BASE)
    for fam, panels in res.families().items():
        fig = charts.cycles_per_byte_figure(res, fam, panels, "tsc")
        assert all(ax.get_yscale() == "log" for ax in fig.axes
                   if ax.get_visible() and ax.lines), fam
        charts.plt.close(fig)
        ladder = charts.ladder_figure(res, fam, panels, "tsc", 576)
        if ladder:
            assert ladder.axes[0].get_xscale() == "log", fam
            charts.plt.close(ladder)


def our_isa(label):
    """"avx2" from a legend entry "avx2" or "generic, table-driven"."""
    return label.split(",")[0].rpartition("@")[2]


def test_each_isa_has_one_colour_and_marker_in_every_family_and_the_report():
    from matplotlib.colors import to_hex
    from cyclebench.report import sections
    res = results.load(BASE)
    styles = {}  # ISA -> {(colour, marker)} over every family's lines
    for fam, panels in res.families().items():
        fig = charts.cycles_per_byte_figure(res, fam, panels, "tsc")
        for ax in fig.axes:
            in_panel = {}
            for line in ax.lines:
                label = line.get_label()
                if label.startswith("_") or "(external)" in label:
                    continue
                style = (to_hex(line.get_color()), line.get_marker())
                styles.setdefault(our_isa(label), set()).add(style)
                in_panel[our_isa(label)] = style
            # Within one panel, no two ISAs look alike.
            assert len(set(in_panel.values())) == len(in_panel), in_panel
        charts.plt.close(fig)
    assert len(styles) >= 4, styles
    for isa, seen in styles.items():
        assert len(seen) == 1, (isa, seen)
        kernel = next(k.kernel for k in res.runs if k.isa == isa)
        assert sections.hex_colour(res.kernels, kernel, isa) == \
            next(iter(seen))[0], isa


def test_table_driven_rows_are_told_apart_in_the_legend():
    registry = listing()
    assert charts.variant_label(registry, "aes128-gcm", "generic",
                                "aes128-gcm") == "generic, table-driven"
    assert charts.variant_label(registry, "aes128-gcm", "ssse3",
                                "aes128-gcm") == "ssse3, constant-time"
    assert charts.variant_label(registry, "rc4", "generic",
                                "rc4") == "generic, table-driven"
    # A family with no table-driven row needs no word on it.
    assert charts.variant_label(registry, "chacha20", "generic",
                                "chacha20") == "generic"


def test_ratio_charts_show_the_summarys_ratios_with_a_line_at_one():
    res = results.load(BASE)
    counter = "tsc_cycles_per_byte"
    sizes = sorted({key.size for key in res.runs})
    summary = {(row.kernel, peer.kernel, row.size): peer.ratio
               for row in peers.comparisons(res, sizes=sizes)
               for peer in row.peers}
    assert summary, "the fixture has no peers"
    drawn = {}
    for fam, panels in res.families().items():
        fig = charts.ratio_figure(res, fam, panels, "tsc")
        if fig is None:
            assert not charts.ratio_points(res, panels, counter), fam
            continue
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            assert any(list(line.get_ydata()) == [1.0, 1.0]
                       for line in ax.lines), (fam, ax.get_title())
            for line in ax.lines:
                peer = line.get_label().rpartition("(")[2].rstrip(")")
                if not line.get_label().startswith("ours / "):
                    continue
                for size, ratio in zip(line.get_xdata(), line.get_ydata()):
                    drawn[(ax.get_title(), peer, int(size))] = ratio
        charts.plt.close(fig)
    assert set(drawn) == set(summary)
    for key, ratio in summary.items():
        assert drawn[key] == pytest.approx(ratio), key


def test_a_benchmark_whose_quartiles_straddle_two_levels_is_marked():
    key = results.Key("aes128-xts", "ssse3", 4096)
    steady = results.Run(key, medians={"tsc_cycles_per_byte": 5.0,
                                       "tsc_cycles_per_byte_q1": 4.9,
                                       "tsc_cycles_per_byte_q3": 5.2})
    two_levels = results.Run(key, medians={"tsc_cycles_per_byte": 5.0,
                                           "tsc_cycles_per_byte_q1": 4.9,
                                           "tsc_cycles_per_byte_q3": 8.1})
    assert not steady.straddles("tsc_cycles_per_byte")
    assert two_levels.straddles("tsc_cycles_per_byte")
    # ns/byte has no quartiles of its own: the same samples, scaled.
    two_levels.medians["ns_per_byte"] = 2.5
    assert two_levels.quartiles("ns_per_byte") == pytest.approx((2.45, 4.05))


def test_size_labels_do_not_collide():
    from cyclebench.drawing import size_labels
    assert size_labels([8, 64, 509, 576, 4096]) == \
        ["8", "64", "509", "\n576", "4096"]
    assert size_labels([512, 4096]) == ["512", "4096"]


def test_core_clock_label_says_pmu_when_counted():
    assert units.clock_unit({"core_clock_source": "pmu"}, "core") == \
        "core cycles/byte (pmu)"


def test_timer_ticks_are_named_by_their_clock():
    assert units.clock_unit({}, "tsc") == "TSC ticks/byte"
    assert units.clock_unit({"timer_clock": "tsc"}, "tsc") == "TSC ticks/byte"
    assert units.clock_unit({"timer_clock": "cntvct"}, "tsc") == \
        "generic-timer ticks/byte"


def test_speedup_over_generic_is_generic_over_variant():
    res = results.load(BASE)
    points = dict(charts.speedup_points(res, "chacha20", "avx2", "chacha20",
                                        "tsc_cycles_per_byte"))
    generic = res.median("chacha20", "generic", 576, "tsc_cycles_per_byte")
    avx2 = res.median("chacha20", "avx2", 576, "tsc_cycles_per_byte")
    assert points[576] == pytest.approx(generic / avx2)


@pytest.mark.parametrize("content, message", [
    (None, "make bench"),
    ("{not json", "not valid JSON"),
    ('{"context": {}}', "no 'benchmarks' list"),
    ('{"benchmarks": [{"name": "x"}]}', "no <kernel>@<isa>/<bytes>"),
])
def test_plots_bad_input_is_one_line_and_writes_nothing(tmp_path, content,
                                                        message):
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "plots"
    done = run_script("plots", str(path), f"--out={out}")
    assert one_line_error(done), done.stderr
    assert message in done.stderr
    assert not out.exists()


def test_staged_files_leave_nothing_when_interrupted(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with StagedFiles(str(tmp_path)) as files:
            files.add_text("a.md", "half")
            raise KeyboardInterrupt
    assert os.listdir(tmp_path) == []


# make scenario: tables

def rows_of(table, kernel):
    return [r for r in table.rows if r.kernel == kernel]


def test_isa_ladder_table_rows_columns_and_units():
    m = measured("isa-ladder", hide=("avx512",))
    table = isa_ladder.table(m)
    assert table.headers() == [
        "kernel", "isa", "TSC ticks/call", "TSC ticks/byte",
        "core cycles/call (estimated)", "core cycles/byte (estimated)",
        "speedup over generic", "note"]
    for kernel in ["chacha20", "chacha12", "chacha8", "blake2b"]:
        assert [r.isa for r in rows_of(table, kernel)] == \
            [isa.name for isa in m.registry.variants(kernel)]
    avx512 = rows_of(table, "chacha20")[0]
    assert avx512.isa == "avx512" and avx512.values == [None] * 5
    assert "unsupported on this CPU" in avx512.note
    generic = rows_of(table, "chacha20")[-1]
    per_call, per_byte, _, _, speedup = generic.values
    assert per_call == pytest.approx(per_byte * 576)
    assert speedup == pytest.approx(1.0)
    # Every row but the four hidden avx512 ones.
    assert len(table.measured_rows()) == len(table.rows) - 4 == 15


def test_lioness_table_in_ns_per_byte_and_mib_per_second():
    m = measured("lioness")
    table = lioness.table(m)
    assert table.headers()[2:5] == ["ns per 509-byte block or cell",
                                    "ns/byte", "MiB/s"]
    assert [r.kernel for r in table.rows if r.isa == "generic"] == \
        ["lioness", "lioness12", "lioness8", "lioness-x4",
         "tor1-relay-originate"]
    per_block, ns, mib = rows_of(table, "sodium:lioness")[0].values
    assert per_block == pytest.approx(ns * 509)
    assert mib == pytest.approx(1e9 / ns / 2 ** 20)
    assert "make profile KERNEL=lioness" in table.sections[0]


def test_lioness_without_the_relay_cell_kernel_says_so():
    table = lioness.table(measured("lioness",
                                            drop=("tor1-relay-originate",)))
    relay = rows_of(table, "tor1-relay-originate")
    assert len(relay) == 1 and relay[0].note.startswith("not available")


def test_lioness_relay_cell_rows_say_with_or_without_aes_ni():
    notes = {r.isa: r.note for r in rows_of(
        lioness.table(measured("lioness")), "tor1-relay-originate")}
    assert notes == {"vaes-avx512": "with AES-NI", "vaes-avx2": "with AES-NI",
                     "aesni": "with AES-NI",
                     "generic": "software AES (no AES-NI)"}


def test_lioness_breakdown_is_included_when_profiled(tmp_path):
    profile = tmp_path / "lioness@avx2"
    profile.mkdir()
    (profile / "breakdown.csv").write_text(
        "symbol,self_percent,samples,cycles_per_byte\n"
        "blake2b_compress_avx2,64.0,640,3.2\n")
    section = lioness.breakdown_section(str(tmp_path))
    assert "| blake2b_compress_avx2 | 64.0 | 640 | 3.2 |" in section


def tor_measured(tmp_path, drop=()):
    """The tor fixture, with make leak-table's CSV for two variants."""
    m = measured("tor", drop=drop)
    path = tmp_path / "summary.csv"
    path.write_text(
        "kernel,isa,ctgrind,ctgrind_sites,max_t,measurements,secret,size,"
        "verdict,tsc_cycles_per_byte,note\n"
        "tor-cgo-relay-forward,aesni,clean,0,1.2,100000,key,509,"
        "no leak found,,\n"
        "tor-cgo-relay-forward,generic,8 sites,8,3.1,50000,key,509,"
        "no leak found,,\n")
    m.leak_csv = str(path)
    return m


def test_tor_table_per_cell_beside_tor1_and_tors_own_figures(tmp_path):
    m = tor_measured(tmp_path)
    t = tor.table(m)
    assert t.headers()[2:7] == [
        "ns per cell", "TSC ticks/byte",
        "Tor's ns per cell (another machine)", "CGO/tor1 here",
        "CGO/tor1 in Tor's"]
    res = results.load(fixture("scenario-tor.json"))
    for kernel in ["tor1-relay-forward", "tor-cgo-relay-forward",
                   "tor-cgo-relay-forward-x4", "tor1-relay-originate",
                   "tor-cgo-relay-originate", "lioness", "lioness-x4"]:
        rows = rows_of(t, kernel)
        assert [r.isa for r in rows] == \
            [i.name for i in m.registry.variants(kernel)], kernel
        for r in rows:
            ns = res.median(kernel, r.isa, 509, "ns_per_byte")
            assert r.values[0] == pytest.approx(ns * 509), (kernel, r.isa)
    cgo = {r.isa: r for r in rows_of(t, "tor-cgo-relay-forward")}
    tor1 = {r.isa: r for r in rows_of(t, "tor1-relay-forward")}
    for isa, row in cgo.items():
        assert row.values[3] == pytest.approx(
            row.values[0] / tor1[isa].values[0])
        assert row.values[2] == 174.5 and row.values[4] == \
            pytest.approx(174.5 / 59.5)
    assert all(r.values[3] is None for r in tor1.values())
    x4 = rows_of(t, "tor-cgo-relay-forward-x4")[0]
    assert x4.values[3] == pytest.approx(
        x4.values[0] / tor1[x4.isa].values[0])
    originate = rows_of(t, "tor-cgo-relay-originate")[0]
    assert originate.values[2] == 657.0 and originate.values[4] == \
        pytest.approx(657 / 301)


def test_tor_rows_carry_the_leak_verdicts(tmp_path):
    t = tor.table(tor_measured(tmp_path))
    notes = {r.isa: r.note for r in rows_of(t, "tor-cgo-relay-forward")}
    assert notes["aesni"] == ("with AES-NI; leak: ctgrind clean, t-test: no "
                              "leak found (max |t| 1.2)")
    assert notes["generic"] == ("without AES-NI; leak: ctgrind 8 sites, "
                                "t-test: no leak found (max |t| 3.1)")
    assert notes["vaes-avx512"] == "with AES-NI"
    assert any("make leak-table" in n for n in t.notes)


def test_tor_client_three_hops_are_composed_from_one_hop_kernels(tmp_path):
    t = tor.table(tor_measured(tmp_path))
    res = results.load(fixture("scenario-tor.json"))

    def cell(kernel, isa):
        return res.median(kernel, isa, 509, "ns_per_byte") * 509
    for isa in ["vaes-avx512", "aesni", "generic"]:
        send = next(r for r in rows_of(t, "cgo client, 3 hops, originate")
                    if r.isa == isa)
        assert send.values[0] == pytest.approx(
            cell("tor-cgo-client-originate", isa) +
            2 * cell("tor-cgo-client-forward", isa))
        receive = next(r for r in rows_of(t, "cgo client, 3 hops, receive")
                       if r.isa == isa)
        assert receive.values[0] == pytest.approx(
            3 * cell("tor-cgo-client-backward", isa) +
            cell("tor-cgo-client-originate", isa) -
            cell("tor-cgo-client-forward", isa))
        tor1 = next(r for r in rows_of(t, "tor1 client, 3 hops, originate")
                    if r.isa == isa)
        assert send.values[3] == pytest.approx(send.values[0] /
                                               tor1.values[0])
        assert "composed: 1 x tor-cgo-client-originate + 2 x " \
            "tor-cgo-client-forward" == send.note
        assert receive.note.endswith("- 1 x tor-cgo-client-forward")


def test_tor_without_the_cgo_kernels_says_so(tmp_path):
    t = tor.table(tor_measured(tmp_path, drop=("tor-cgo-relay-forward",)))
    rows = rows_of(t, "tor-cgo-relay-forward")
    assert len(rows) == 1 and rows[0].note.startswith("not available")


def test_tor_is_a_scenario_of_all():
    assert "tor" in MODULES and SCENARIOS["tor"].sizes == [509]
    assert set(tor.KERNELS) >= {"tor1-relay-forward", "tor-cgo-relay-forward",
                                "tor-cgo-relay-forward-x4", "lioness-x4"}


def test_disk_table_in_bytes_per_second_and_ticks_at_both_sector_sizes():
    table = disk.table(measured("disk"))
    assert table.headers()[2:6] == ["512-byte sectors (bytes/sec)",
                                    "4096-byte sectors (bytes/sec)",
                                    "512-byte sectors (TSC ticks/byte)",
                                    "4096-byte sectors (TSC ticks/byte)"]
    assert list(dict.fromkeys(r.kernel for r in table.rows)) == disk.KERNELS
    res = results.load(fixture("scenario-disk.json"))
    for kernel, isa in [("aes128-xts", "aesni"), ("xchacha20", "avx2"),
                        ("openssl:des-ede3-cbc", "external")]:
        row = next(r for r in rows_of(table, kernel) if r.isa == isa)
        assert row.values[1] == pytest.approx(
            1e9 / res.median(kernel, isa, 4096, "ns_per_byte"))
        assert row.values[3] == res.median(kernel, isa, 4096,
                                           "tsc_cycles_per_byte")
    assert any("sector number" in note for note in table.notes)
    assert any("16-byte blocks" in note for note in table.notes)


def test_disk_kernel_this_build_lacks_is_a_row_saying_so():
    table = disk.table(measured("disk", drop={"aes256-xts"}))
    row, = rows_of(table, "aes256-xts")
    assert row.values == [None] * 4 and row.note.startswith("not available")
    # The fixtures' build predates Adiantum: its rows say so too.
    for kernel in ("adiantum", "adiantum20", "adiantum8"):
        row, = rows_of(table, kernel)
        assert row.note.startswith("not available")


def test_disk_openssl_xts_with_and_without_aesni():
    table = disk.table(measured("disk"))
    rows = rows_of(table, "openssl:aes-128-xts")
    assert [r.variant for r in rows] == ["external", "external, no AES-NI"]
    # The fixture has neither run of them: rows saying so, not numbers.
    assert all(r.values == [None] * 4 for r in rows)


PAIRED = {"kernel": "aes128-xts", "isa": "ssse3",
          "vs": "openssl:aes-128-xts", "vs_isa": "external", "size": 4096,
          "seconds": 3.1, "block_seconds": 0.01, "pairs": 150,
          "tsc_cycles_per_byte": 4.39, "vs_tsc_cycles_per_byte": 4.5,
          "ratio": {"median": 0.956, "q1": 0.954, "q3": 1.199,
                    "ci95_low": 0.955, "ci95_high": 0.958, "min": 0.56,
                    "max": 1.94}}


def test_disk_same_moment_ratios_are_notes_with_their_quartiles():
    m = measured("disk")
    notes = [n for n in disk.table(m).notes if n.startswith("Same moments")]
    assert len(notes) == len(disk.PAIRS) == 4
    assert all("not run" in n for n in notes)
    pair = next(p for p in disk.PAIRS
                if p.kernel == "aes128-xts@ssse3" and p.size == 4096)
    assert pair.vs == "openssl:aes-128-xts@external"
    assert pair.env == {"OPENSSL_ia32cap": "~0x200000200000000"}
    m.paired = {pair.key(): PAIRED}
    notes = [n for n in disk.table(m).notes if n.startswith("Same moments")]
    measured_note, = [n for n in notes if "not run" not in n]
    assert "--vs=openssl:aes-128-xts@external --size=4096" in measured_note
    assert ("ours over OpenSSL's 0.956 (quartiles 0.954 to 1.199, 150 "
            "pairs of 10 ms blocks; 4.39 against 4.50") in measured_note


def test_aead_same_moment_ratios_for_the_software_aes_gcm():
    m = measured("aead")
    assert [(p.kernel, p.vs, p.size) for p in aead.PAIRS] == [
        ("aes128-gcm@ssse3", "openssl:aes-128-gcm@external", 16384),
        ("aes256-gcm@ssse3", "openssl:aes-256-gcm@external", 16384)]
    assert all(p.env == aead.NO_AESNI_ENV for p in aead.PAIRS)
    m.paired = {aead.PAIRS[1].key(): dict(PAIRED, kernel="aes256-gcm")}
    notes = [n for n in aead.table(m).notes if n.startswith("Same moments")]
    assert len(notes) == 2 and "not run" in notes[0]
    assert notes[1].startswith("Same moments (`cyclebench run "
                               "aes256-gcm@ssse3 --vs=openssl:aes-256-gcm"
                               "@external --size=16384`)")
    assert "ours over OpenSSL's 0.956" in notes[1]
    assert any("4-bit tables" in n and "constant-time" in n
               for n in aead.table(m).notes)


def test_paired_run_command_and_which_rows_run_here():
    pair = PairedRun("aes128-xts@ssse3", "openssl:aes-128-xts@external",
                     512, seconds=2.5)
    assert paired_command(pair, Options(binary="cb")) == [
        "cb", "run", "aes128-xts@ssse3",
        "--vs=openssl:aes-128-xts@external", "--size=512", "--seconds=2.5"]
    # The fixtures' listing predates the ssse3 rows: aesni stands in.
    kernels = listing(hide={"aesni"})
    assert supported(listing(), "aes128-xts@aesni")
    assert not supported(kernels, "aes128-xts@aesni")
    assert not supported(listing(), "aes128-xts@nonesuch")
    assert not supported(listing(), "nonesuch@generic")


def fake_binary(tmp_path, body):
    path = tmp_path / "cb"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_paired_run_reads_the_json_and_passes_the_environment(tmp_path):
    binary = fake_binary(tmp_path, 'echo "{\\"cap\\": \\"$OPENSSL_ia32cap\\", '
                         '\\"args\\": \\"$*\\"}"')
    pair = PairedRun("a@x", "b@y", 512, {"OPENSSL_ia32cap": "~0x2"})
    got = run_paired(disk.SCENARIO, pair, Options(binary=binary))
    assert got == {"cap": "~0x2", "args": "run a@x --vs=b@y --size=512 "
                   "--seconds=3.0"}


def test_paired_run_that_fails_is_one_line_naming_it(tmp_path):
    binary = fake_binary(tmp_path, "echo 'cyclebench: first' >&2; "
                         "echo 'cyclebench: the reason' >&2; exit 2")
    with pytest.raises(InputError) as e:
        run_paired(disk.SCENARIO, PairedRun("a@x", "b@y", 512),
                   Options(binary=binary))
    assert str(e.value) == ("scenario disk: `cyclebench run a@x --vs=b@y` "
                            "failed with exit 2: cyclebench: the reason")


def test_disk_rows_carry_their_leak_verdicts(tmp_path):
    path = tmp_path / "summary.csv"
    path.write_text(
        "kernel,isa,ctgrind,ctgrind_sites,max_t,measurements,secret,size,"
        "verdict,tsc_cycles_per_byte,note\n"
        "aes128-xts,aesni,clean,0,1.1,100000,key,64,no leak found,0.5,\n"
        "aes128-xts,generic,8 sites,8,31.0,100000,key,64,leak found,12,\n"
        "openssl:aes-128-xts,external,1 site,1,2.0,100000,key,64,"
        "no leak found,0.6,\n")
    table = disk.table(measured("disk", leak_csv=str(path)))
    notes = {r.isa: r.note for r in rows_of(table, "aes128-xts")}
    assert notes["aesni"] == ("leak: ctgrind clean, t-test: no leak found "
                              "(max |t| 1.1)")
    assert notes["generic"].startswith("leak: ctgrind 8 sites")
    assert "leak:" not in notes["vaes-avx2"]
    default, masked = rows_of(table, "openssl:aes-128-xts")
    assert default.note.endswith("leak: ctgrind 1 site, t-test: no leak "
                                 "found (max |t| 2.0)")
    # Checked with AES-NI, so not the masked row's verdict.
    assert masked.variant == "external, no AES-NI" and \
        "leak:" not in masked.note


def test_aead_table_in_openssl_speed_units_best_and_without_aes():
    no_aesni = results.load(fixture("scenario-aead-no-aesni.json"))
    m = measured("aead", **{"no-aesni": no_aesni})
    table = aead.table(m)
    sizes = aead.SIZES
    assert table.headers() == ["kernel", "variant"] + [
        f"{s} bytes (1000s of bytes/s)" for s in sizes] + ["note"]
    assert [(r.kernel, r.variant) for r in table.rows] == [
        ("aes256-gcm", "vaes-avx512 (best)"), ("aes256-gcm", "generic"),
        ("aes128-gcm", "vaes-avx512 (best)"), ("aes128-gcm", "generic"),
        # The fixtures' build predates the AES-GCM-SIV kernels: a row each
        # saying so.
        ("aes256-gcm-siv", "—"), ("aes128-gcm-siv", "—"),
        ("chacha20-poly1305", "avx512 (best)"),
        ("chacha20-poly1305", "generic"),
        ("aegis128l", "aesni (best)"), ("aegis128l", "generic"),
        ("aegis256", "aesni (best)"), ("aegis256", "generic"),
        ("aegis128x2", "vaes-avx2 (best)"), ("aegis128x2", "generic"),
        ("aegis128x4", "vaes-avx512 (best)"), ("aegis128x4", "generic"),
        ("aegis256x2", "vaes-avx2 (best)"), ("aegis256x2", "generic"),
        ("aegis256x4", "vaes-avx512 (best)"), ("aegis256x4", "generic"),
        # Nor Ascon: a row saying so.
        ("ascon-aead128", "—"), ("ascon-aead128-x8", "—"),
        ("openssl:aes-256-gcm", "external"),
        ("openssl:aes-256-gcm", "external, no AES-NI"),
        ("openssl:aes-128-gcm", "external"),
        ("openssl:aes-128-gcm", "external, no AES-NI"),
        ("openssl:chacha20-poly1305", "external"),
        ("openssl:chacha20-poly1305", "external, no AES-NI"),
        # The fixtures' build predates the gcrypt kernels: a row each
        # saying so.
        ("gcrypt:aes-256-gcm", "—"), ("gcrypt:aes-128-gcm", "—"),
        ("gcrypt:aes-256-gcm-siv", "—"), ("gcrypt:aes-128-gcm-siv", "—"),
        ("gcrypt:chacha20-poly1305", "—")]
    newer = aead.GCRYPT + ["aes256-gcm-siv", "aes128-gcm-siv",
                           "ascon-aead128", "ascon-aead128-x8"]
    measured_rows = [r for r in table.rows if r.kernel not in newer]
    assert all(len(r.values) == len(sizes) and None not in r.values
               for r in measured_rows)
    assert all(r.note.startswith("not available") for r in table.rows
               if r.kernel in newer)
    assert table.rows[0].note.startswith("with AES-NI")
    assert table.rows[1].note.startswith("without AES-NI")
    assert rows_of(table, "aegis128x4")[0].note.startswith("with AES-NI")
    ns = no_aesni.median("openssl:aes-256-gcm", "external", 16, "ns_per_byte")
    assert rows_of(table, "openssl:aes-256-gcm")[1].values[0] == \
        pytest.approx(1e9 / ns / 1000)
    assert f"| {1e6 / ns:.2f}k |" in table.markdown()
    ns = m.results.median("aegis128l", "aesni", 16384, "ns_per_byte")
    assert table.rows[8].values[-1] == pytest.approx(1e9 / ns / 1000)


def test_aead_shows_an_ssse3_row_as_software_aes(tmp_path):
    """A kernel with the constant-time software AES row gets it beside
    generic. The fixtures' build had none: here aegis128l's generic
    results stand in for one."""
    with open(fixture("list.json"), encoding="utf-8") as f:
        document = json.load(f)
    kernel, = [k for k in document["kernels"] if k["name"] == "aegis128l"]
    kernel["isas"].insert(-1, {"name": "ssse3", "requires": "ssse3",
                               "supported": True})
    kernels = registry.parse(document, "list.json")
    with open(fixture("scenario-aead.json"), encoding="utf-8") as f:
        doc = json.load(f)
    doc["benchmarks"] += [
        json.loads(json.dumps(b).replace("aegis128l@generic",
                                         "aegis128l@ssse3"))
        for b in doc["benchmarks"]
        if b["name"].startswith("aegis128l@generic/")]
    path = tmp_path / "with-ssse3.json"
    path.write_text(json.dumps(doc))
    m = Measured(kernels, {"default": results.load(str(path), kernels)},
                 "/nonexistent", "/nonexistent")
    rows = rows_of(aead.table(m), "aegis128l")
    assert [r.variant for r in rows] == ["aesni (best)", "ssse3", "generic"]
    assert rows[1].note == "without AES-NI: our constant-time software AES"
    assert rows[1].values == rows[2].values


def test_aead_without_a_leak_table_says_how_to_get_one():
    table = aead.table(measured("aead"))
    assert any(n.startswith("No leak verdicts: /nonexistent is absent")
               and "make leak-table" in n for n in table.notes)
    assert not any("leak:" in r.note for r in table.rows)


def test_aead_leak_verdicts_stand_beside_their_rows(tmp_path):
    path = tmp_path / "summary.csv"
    path.write_text(
        "kernel,isa,ctgrind,ctgrind_sites,max_t,measurements,secret,size,"
        "verdict,tsc_cycles_per_byte,note\n"
        "aegis128l,aesni,clean,0,1.2,100000,key,64,no leak found,0.5,\n"
        "aegis128l,generic,1 site,1,25.3,100000,key,64,leak found,10,\n"
        "aegis128x4,vaes-avx512,not checkable,,,,,64,,,\n")
    table = aead.table(measured("aead", leak_csv=str(path)))
    best, generic = rows_of(table, "aegis128l")
    assert best.note == ("with AES-NI: our best ISA here; leak: ctgrind "
                         "clean, t-test: no leak found (max |t| 1.2)")
    assert generic.note.endswith("leak: ctgrind 1 site, t-test: leak found "
                                 "(max |t| 25.3)")
    assert rows_of(table, "aegis128x4")[0].note.endswith(
        "leak: ctgrind not checkable")
    assert "leak:" not in rows_of(table, "aes256-gcm")[0].note
    assert any(n.startswith(f"Leak verdicts from {path}") for n in table.notes)


def test_aead_reference_is_the_authors_machine_labelled_and_converted():
    table = aead.table(measured("aead"))
    section, = [s for s in table.sections if "Reference" in s]
    assert "another machine" in section and "i9-13900K" in section
    assert "not measured here" in section
    assert "| AEGIS-128L | 23,863 | 25,022,169k |" in section
    assert "| OpenSSL 3 AES-128-GCM | 10,243 |" in section


def test_aead_kernels_this_build_lacks_are_one_row_each():
    kernels = aead.OURS + aead.OPENSSL + aead.GCRYPT
    table = aead.table(measured("aead", drop=kernels))
    assert [r.kernel for r in table.rows] == kernels
    assert all(r.note.startswith("not available") for r in table.rows)


def test_bulk_table_is_the_floor_of_three_runs_in_seconds():
    m = measured("bulk")
    table = bulk.table(m)
    assert table.headers()[2:4] == ["encode (s)", "decode (s)"]
    assert [r.kernel for r in table.rows if r.isa == "generic"] == \
        [k for k in bulk.KERNELS if not k.startswith("gcrypt:")]
    # The fixtures' build predates the gcrypt kernels: a row each saying so.
    assert [r.kernel for r in table.rows if r.isa == "—"] == \
        ["gcrypt:aes-128-cbc", "gcrypt:aes-256-cbc", "gcrypt:chacha20"]
    run = m.results.get("chacha20", "avx2", 10485760)
    floor = min(run.repetitions["ns_per_byte"]) * 10485760 / 1e9
    row = next(r for r in rows_of(table, "chacha20") if r.isa == "avx2")
    assert row.values == [pytest.approx(floor), pytest.approx(floor)]
    assert len(run.repetitions["ns_per_byte"]) == 3


def test_bulk_cbc_decode_comes_from_the_decrypt_run():
    fixture_run = results.load(fixture("scenario-bulk.json"))
    without = next(r for r in rows_of(bulk.table(measured("bulk")),
                                      "aes128-cbc") if r.isa == "aesni")
    assert without.values[0] is not None and without.values[1] is None
    # The same fixture stands in for the --decrypt run.
    m = measured("bulk", decrypt=fixture_run)
    row = next(r for r in rows_of(bulk.table(m), "aes128-cbc")
               if r.isa == "aesni")
    run = fixture_run.get("aes128-cbc", "aesni", 10485760)
    floor = min(run.repetitions["ns_per_byte"]) * 10485760 / 1e9
    assert row.values == [pytest.approx(floor), pytest.approx(floor)]
    assert "--decrypt" in row.note


def test_bulk_runs_cbc_decryption_with_the_decrypt_flag():
    sc = SCENARIOS["bulk"]
    extra = [x for x in sc.extra_runs if x.label == "decrypt"]
    assert extra and extra[0].args == ["--decrypt"]
    command = bench_command(sc, ["aes128-cbc"], Options(),
                                     extra[0].args)
    assert command[1:3] == ["bench", "--decrypt"]


def test_scenario_markdown_and_csv_carry_the_table():
    sc = SCENARIOS["isa-ladder"]
    doc = load_document(fixture("scenario-isa-ladder.json"))
    for b in doc["benchmarks"]:  # as if another process shared the CPU
        b["cpu_time"] = b["real_time"] / 2
    m = measured("isa-ladder", default=results.parse(doc, "busy"))
    table = sc.table(m)
    text = markdown(sc, table, m, ["build/cyclebench bench ..."])
    assert "| kernel | isa | TSC ticks/call |" in text
    assert doc["context"]["cpu_model"] in text
    assert "make scenario NAME=isa-ladder" in text
    assert "**Warning:** " in text and "shared the pinned CPU" in text
    rows = list(csv.reader(io.StringIO(table.csv())))
    assert rows[0] == table.headers() and len(rows) == len(table.rows) + 1
    fig = sc.chart(table, m)
    assert fig.axes[0].get_xlabel().startswith("TSC ticks/byte")
    charts.plt.close(fig)


def test_unknown_scenario_is_one_line_and_writes_nothing(tmp_path):
    done = run_script("scenario", "nope", f"--out={tmp_path / 's'}")
    assert one_line_error(done) and "unknown scenario 'nope'" in done.stderr
    assert "isa-ladder" in done.stderr and not (tmp_path / "s").exists()


def test_scenario_without_a_binary_says_to_build(tmp_path):
    done = run_script("scenario", "isa-ladder", "--bin=/nonexistent/cb",
                      f"--out={tmp_path / 's'}")
    assert one_line_error(done) and "`make`" in done.stderr
    assert not (tmp_path / "s").exists()


# make compare

TIME_COUNTERS = ["tsc_cycles_per_byte", "tsc_cycles_per_byte_q1",
                 "tsc_cycles_per_byte_q3", "tsc_cycles_per_byte_ci95_low",
                 "tsc_cycles_per_byte_ci95_high", "core_cycles_per_byte",
                 "ns_per_byte", "real_time", "cpu_time"]


def one_repetition(document):
    """The first repetition of every benchmark alone, as a default bench
    run (one repetition, no aggregates) records it."""
    doc = copy.deepcopy(document)
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if b["run_type"] == "iteration"
                         and b["repetition_index"] == 0]
    for b in doc["benchmarks"]:
        b["repetitions"] = 1
    return doc


def benchmark_count(document):
    return len({b["run_name"] for b in document["benchmarks"]})


def slowed(document, factor, names=None):
    """A copy with every time counter of the named benchmarks (all when
    None) multiplied by factor: an injected slowdown."""
    doc = copy.deepcopy(document)
    for b in doc["benchmarks"]:
        if names is None or b["run_name"] in names:
            for counter in TIME_COUNTERS:
                if counter in b:
                    b[counter] *= factor
            b["bytes_per_second"] /= factor
    return doc


def steadiest_benchmark(document):
    """The benchmark whose repetitions spread least, so a 20% slowdown of it
    separates from the base completely."""
    reps = {}
    for b in document["benchmarks"]:
        if b["run_type"] == "iteration":
            reps.setdefault(b["run_name"], []).append(b["tsc_cycles_per_byte"])
    return min(reps, key=lambda n: max(reps[n]) / min(reps[n]))


def run_compare(tmp_path, base, new, *args):
    return run_script("compare", base, new, f"--out={tmp_path / 'cmp'}",
                      *args)


def test_compare_passes_an_identical_run(tmp_path):
    done = run_compare(tmp_path, BASE, BASE)
    n = benchmark_count(load_document(BASE))
    assert done.returncode == 0, done.stderr
    assert f"geometric mean of new/base over {n} benchmarks: 1.0000 (+0.0%)" \
        in done.stdout
    assert "SLOWER" not in done.stdout and "differ" not in done.stderr
    png = (tmp_path / "cmp" / "base_vs_base.png").read_bytes()
    assert png.startswith(PNG_MAGIC)


def test_compare_flags_an_injected_20_percent_slowdown(tmp_path):
    doc = load_document(BASE)
    name = steadiest_benchmark(doc)
    new = write_json(tmp_path / "new.json", slowed(doc, 1.2, {name}))
    done = run_compare(tmp_path, BASE, new)
    assert done.returncode == 1
    flagged = [line.split() for line in done.stdout.splitlines()
               if line.endswith("SLOWER")]
    assert [f[0] for f in flagged] == [name] and flagged[0][-2] == "reps"
    assert f"{name} (+20.0%)" in done.stderr.splitlines()[-1]


def test_compare_one_repetition_tests_over_the_samples(tmp_path):
    doc = one_repetition(load_document(BASE))
    name = steadiest_benchmark(load_document(BASE))
    base = write_json(tmp_path / "one.json", doc)
    new = write_json(tmp_path / "new.json", slowed(doc, 1.2, {name}))
    done = run_compare(tmp_path, base, new)
    assert done.returncode == 1, done.stdout
    flagged = [line.split() for line in done.stdout.splitlines()
               if line.endswith("SLOWER")]
    assert [f[0] for f in flagged] == [name] and flagged[0][-2] == "samples"
    assert "over each median's samples" in done.stdout
    # The unchanged benchmarks have p = 1 and no verdict.
    same = [line for line in done.stdout.splitlines()
            if " +0.0% " in line and line.split()[-1] == "samples"]
    assert len(same) == benchmark_count(doc) - 1


def test_compare_samples_p_value_from_the_confidence_intervals():
    # Medians 100 and 103 with CIs +-1.96 (standard error 1 each): z is
    # 3 / sqrt(2), two-sided p = erfc(z / sqrt(2)) = erfc(1.5).
    import math
    p = compare.ci_test(100, (98.04, 101.96), 103, (101.04, 104.96))
    assert p == pytest.approx(math.erfc(1.5))


def test_compare_geometric_mean_of_an_all_round_slowdown(tmp_path):
    new = write_json(tmp_path / "slow.json", slowed(load_document(BASE), 1.2))
    done = run_compare(tmp_path, BASE, new)
    assert done.returncode == 1
    n = benchmark_count(load_document(BASE))
    assert f"over {n} benchmarks: 1.2000 (+20.0%)" in done.stdout


def test_compare_threshold_above_the_slowdown_passes(tmp_path):
    new = write_json(tmp_path / "slow.json", slowed(load_document(BASE), 1.2))
    assert run_compare(tmp_path, BASE, new, "--threshold=25").returncode == 0


def test_compare_says_when_machines_or_builds_differ(tmp_path):
    doc = load_document(BASE)
    model = doc["context"]["cpu_model"]
    doc["context"].update(cpu_model="AMD EPYC 9654", git_commit="0123abcd")
    other = write_json(tmp_path / "other.json", doc)
    done = run_compare(tmp_path, BASE, other)
    assert done.returncode == 0
    assert f"different machines: cpu_model '{model}' vs 'AMD EPYC 9654'" in \
        done.stderr
    assert "different builds: git_commit" in done.stderr


def test_compare_warns_when_nothing_can_be_tested(tmp_path):
    # Three repetitions and no confidence intervals (results from before
    # the sampler): neither test applies.
    doc = load_document(BASE)
    doc["benchmarks"] = [
        {k: v for k, v in b.items() if "_ci95_" not in k}
        for b in doc["benchmarks"] if b.get("repetition_index", 0) < 3]
    few = write_json(tmp_path / "few.json", doc)
    done = run_compare(tmp_path, few, few)
    assert f"{benchmark_count(doc)} benchmark(s) have no p-value" in \
        done.stderr and "3 and 3 repetitions are too few" in done.stderr


def test_context_tsc_wobble_is_not_a_difference():
    ctx = {"tsc_hz": "2596143823",
           "turbo": "before: on; after: off; changed: x"}
    other = dict(ctx, tsc_hz="2596150000", turbo="before: off; after: off; "
                 "changed: nothing")
    assert compare.context_differences(ctx, other) == []


@pytest.mark.parametrize("args, message", [
    ([], "make compare BASE="),
    (["/nonexistent.json", BASE], "make bench"),
    ([BASE, BASE, "--counter=bytes_per_second"], "higher-is-faster"),
])
def test_compare_bad_input_is_one_line_and_writes_nothing(tmp_path, args,
                                                          message):
    done = run_script("compare", *args, f"--out={tmp_path / 'cmp'}")
    assert one_line_error(done), done.stderr
    assert message in done.stderr
    assert not (tmp_path / "cmp").exists()


def test_compare_malformed_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"benchmarks": [')
    done = run_compare(tmp_path, BASE, str(bad))
    assert one_line_error(done) and "not valid JSON" in done.stderr


# What every tool says when a file cannot be used

@pytest.mark.parametrize("err, fix", [
    (PermissionError(errno.EACCES, "Permission denied", "out/x.png"),
     "check its permissions"),
    (OSError(errno.ETXTBSY, "Text file busy", "build/cyclebench"),
     "being rewritten"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory",
                       "build/cyclebench"), "run `make`"),
    (OSError(errno.ENOSPC, "No space left on device", "out/a.csv"),
     "free some space"),
])
def test_an_os_error_is_one_line_naming_the_file_and_the_fix(err, fix):
    from cyclebench.cli import os_error_message
    message = os_error_message(err)
    assert message.startswith(f"{err.filename}: {err.strerror}: ")
    assert fix in message and "\n" not in message
    # An error running a program is not called a failure to write.
    assert "cannot write" not in message


def test_a_tool_that_cannot_run_its_binary_says_so_in_one_line(tmp_path):
    binary = tmp_path / "cb"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o644)  # not executable
    done = run_script("scenario", "isa-ladder", f"--bin={binary}",
                      f"--out={tmp_path / 's'}")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert str(binary) in done.stderr and "cannot write" not in done.stderr
