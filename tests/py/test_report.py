"""`make report` (tools/cyclebench/report) on the committed fixture
tests/fixtures/results/report.json and a second machine derived from it
(see other_machine and the fixtures' README); the page is also loaded in
headless Chromium (tests/py/browser.py). No benchmark runs here.
Run: PYTHONPATH=tools /usr/bin/python3 -m pytest tests/py/test_report.py
"""
import copy
import html.parser
import json
import os
import re
import socket
import subprocess
import sys

import pytest

import browser
from cyclebench import results, units
from cyclebench.report import machines

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT_FIXTURE = os.path.join(ROOT, "tests", "fixtures", "results",
                              "report.json")
# The package, for the command run as python3 -m cyclebench.report.
TOOLS = os.path.join(ROOT, "tools")

# bench --emulated under qemu-aarch64 (the fixtures' README).
EMULATED_FIXTURE = os.path.join(ROOT, "tests", "fixtures", "results",
                                "aarch64-emulated.json")
COUNTER = "tsc_cycles_per_byte"
EPYC_HZ = 2596143840


def load_document(path=REPORT_FIXTURE):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_json(path, document):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return str(path)


def other_machine(doc, run_id="20261130T120000Z"):
    """The fixture as if run on an AMD EPYC host that hides AVX-512: its
    context changed, the avx512 rows dropped, ns/byte from its TSC rate."""
    doc = copy.deepcopy(doc)
    ctx = doc["context"]
    ctx.update(cpu_model="AMD EPYC 7B13 64-Core Processor", host_name="epyc",
               tsc_hz=str(EPYC_HZ), run_id=run_id, cpu_features=" ".join(
                   f for f in ctx["cpu_features"].split()
                   if not f.startswith("avx512")))
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if "avx512" not in b["name"]]
    for b in doc["benchmarks"]:
        b["ns_per_byte"] = b[COUNTER] / EPYC_HZ * 1e9
    return doc


def two_machines(tmp_path):
    return [REPORT_FIXTURE,
            write_json(tmp_path / "epyc.json", other_machine(load_document()))]


def run_report(out, *inputs, leak=None, cwd=ROOT):
    leak = leak or os.path.join(str(out), "no-leak.csv")
    return subprocess.run([sys.executable, "-m", "cyclebench.report",
                           *map(str, inputs), f"--out={out}",
                           f"--leak={leak}"],
                          capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": TOOLS})


def made(tmp_path, *inputs, **kwargs):
    out = tmp_path / "report"
    done = run_report(out, *inputs, **kwargs)
    assert done.returncode == 0, done.stderr
    return ((out / "index.html").read_text(encoding="utf-8"),
            (out / "report.md").read_text(encoding="utf-8"))


def json_ratio(doc, kernel, peer, size):
    """ours (fastest ISA) / peer, straight from the JSON medians: the
    _median aggregate where there is one, else the one repetition."""
    values = {}
    for b in doc["benchmarks"]:
        name = b["run_name"]
        if b.get("run_type") == "aggregate" and b["aggregate_name"] != \
                "median":
            continue
        values[name] = b[COUNTER]
    ours = min(v for name, v in values.items()
               if re.fullmatch(rf"{re.escape(kernel)}@[^@/]+/{size}", name)
               and "@external/" not in name)
    return f"{ours / values[f'{peer}@external/{size}']:.2f}x"


class Elements(html.parser.HTMLParser):
    """Every start tag's (tag, attributes) and the text of <style>."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.style, self.in_style = [], "", False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.style += data


def outside_references(page):
    """Every src/href (any namespace) or url() that is not a #fragment."""
    parsed = Elements(page)
    refs = [value for _, attrs in parsed.tags for name, value in attrs.items()
            if name.split(":")[-1] in ("src", "href", "srcset", "action",
                                       "data", "poster")]
    refs += re.findall(r"url\(\s*['\"]?([^'\")]*)", page)
    refs += re.findall(r"@import\s+['\"]?([^'\";]+)", parsed.style)
    return [r for r in refs if not r.startswith("#")]


# Both machines, and the ratio from the JSON

def test_two_machines_each_get_a_column_and_a_section(tmp_path):
    page, markdown = made(tmp_path, *two_machines(tmp_path))
    heads = [attrs["data-machine"] for tag, attrs in Elements(page).tags
             if tag == "th" and "data-machine" in attrs]
    assert heads.count("vm") >= 2 and heads.count("epyc") >= 2
    assert "| kernel@isa | bytes | vm | epyc |" in markdown
    assert "\n## Machine 1: vm\n" in markdown
    assert "\n## Machine 2: epyc\n" in markdown
    assert "- **CPU:** AMD EPYC 7B13 64-Core Processor" in markdown
    # epyc has no AVX-512: its cell is a dash, and with one figure in the
    # row none is the fastest
    ns = results.load(REPORT_FIXTURE).median("chacha20", "avx512", 16384,
                                             "ns_per_byte")
    assert f"| chacha20@avx512 | 16384 | {units.sig3(ns)} | — |" in \
        markdown
    both = next(line for line in markdown.splitlines()
                if line.startswith("| chacha20@avx2 | 16384 |"))
    assert len(re.findall(r"\*\*[\d.]+\*\*", both)) == 1


def test_ratio_against_openssl_equals_the_json_medians(tmp_path):
    inputs = two_machines(tmp_path)
    page, markdown = made(tmp_path, *inputs)
    for path, label in zip(inputs, ["vm", "epyc"]):
        want = json_ratio(load_document(path), "chacha20",
                          "openssl:chacha20", 16384)
        section = markdown.split(f"Machine {1 + (label == 'epyc')}: "
                                 f"{label}")[1]
        row = next(line for line in section.splitlines()
                   if line.startswith("| chacha20 |") and "| 16384 |" in line)
        assert f"({want})" in row.split("|")[5], (label, want, row)
    vm = json_ratio(load_document(inputs[0]), "chacha20", "openssl:chacha20",
                    16384)
    assert f'data-ratio="{vm}"' in page


def test_make_report_takes_results_and_out(tmp_path):
    inputs = two_machines(tmp_path)
    done = subprocess.run(["make", "-C", ROOT, "--no-print-directory",
                           "report", f"RESULTS={' '.join(inputs)}",
                           f"OUT={tmp_path / 'out'}"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "report: 2 machine(s) (vm, epyc)" in done.stdout
    assert sorted(os.listdir(tmp_path / "out" / "report")) == [
        "index.html", "report.md"]


def test_units_within_and_across_machines(tmp_path):
    page, markdown = made(tmp_path, *two_machines(tmp_path))
    assert "ours (TSC ticks/byte)" in markdown
    assert "Medians in ns/byte, timed by each machine's timer" in markdown
    assert 'data-unit="ns_per_byte"' in page
    doc = load_document()
    epyc = other_machine(doc)
    for d in (doc, epyc):
        d["context"]["core_clock_source"] = "pmu"
    pmu = [write_json(tmp_path / "a.json", doc),
           write_json(tmp_path / "b.json", epyc)]
    page, markdown = made(tmp_path, *pmu)
    assert "Medians in core cycles/byte (counted by the PMU on every " \
        "machine)" in markdown and 'data-unit="core_cycles_per_byte"' in page


def test_page_references_nothing_outside_itself(tmp_path):
    page, _ = made(tmp_path, *two_machines(tmp_path))
    assert outside_references(page) == []
    assert "<script" not in page and "<link" not in page
    assert page.count("<svg") >= 6  # ladders, sizes and ratios, inline
    # the check itself sees references of every kind
    bad = ('<img src="http://x.invalid/a.png"><a href="//x.invalid">'
           '<use xlink:href="https://x.invalid/s.svg#a"/>'
           '<style>b { background: url("http://x.invalid/b.png") }</style>')
    assert len(outside_references(page + bad)) == 4


# Grouping and merging

def test_runs_of_one_machine_merge_newest_benchmark_first(tmp_path):
    old = load_document()
    old["context"]["run_id"] = "20261101T000000Z"
    new = copy.deepcopy(old)
    new["context"]["run_id"] = "20261201T000000Z"
    new["context"]["tsc_hz"] = str(float(old["context"]["tsc_hz"]) * 1.001)
    # the newer run measured chacha20 only, twice as slow
    new["benchmarks"] = [dict(b, **{COUNTER: 2 * b[COUNTER]})
                         for b in old["benchmarks"]
                         if b["name"].startswith("chacha20@")]
    paths = [write_json(tmp_path / "new.json", new),
             write_json(tmp_path / "old.json", old)]
    runs, _ = machines.read_inputs(paths)
    [machine] = machines.group(runs)
    assert [r.context["run_id"] for r in machine.runs] == [
        "20261201T000000Z", "20261101T000000Z"]
    merged = machine.merged
    doubled = results.parse(new, "new").median("chacha20", "avx2", 576,
                                               COUNTER)
    assert merged.median("chacha20", "avx2", 576, COUNTER) == doubled
    assert merged.median("blake2b", "avx2", 576, COUNTER) == results.parse(
        old, "old").median("blake2b", "avx2", 576, COUNTER)
    ours = merged.get("chacha20", "avx512", 576).key
    theirs = merged.get("openssl:chacha20", "external", 576).key
    assert machine.mixed(ours, theirs)
    _, markdown = made(tmp_path, *paths)
    assert "†" in markdown and "different runs of this machine" in markdown
    assert "runs (newest first; 2)" in markdown


def test_a_run_given_twice_counts_once(tmp_path):
    doc = load_document()
    paths = [write_json(tmp_path / "latest.json", doc),
             write_json(tmp_path / f"{doc['context']['run_id']}.json", doc)]
    [machine] = machines.group(machines.read_inputs(paths)[0])
    assert len(machine.runs) == 1


@pytest.mark.parametrize("change, machines_wanted", [
    ({"tsc_hz": "2301000000"}, 1),   # a measured TSC wobbles
    ({"tsc_hz": "2600000000"}, 2),
    ({"cpu_features": "sse2 avx2"}, 2),
    ({"cpu_model": "AMD EPYC 9654"}, 2),
    ({"host_name": "other"}, 2),
])
def test_what_makes_another_machine(tmp_path, change, machines_wanted):
    doc = load_document()
    other = copy.deepcopy(doc)
    other["context"].update(change, run_id="20270101T000000Z")
    runs = [results.parse(doc, "a"), results.parse(other, "b")]
    assert len(machines.group(runs)) == machines_wanted


def test_one_host_name_on_two_cpus_gets_two_labels(tmp_path):
    doc = load_document()
    other = copy.deepcopy(doc)
    other["context"]["cpu_model"] = "AMD EPYC 9654"
    found = machines.group([results.parse(doc, "a"),
                            results.parse(other, "b")])
    assert [m.label for m in found] == [
        "vm (Intel(R) Xeon(R) Processor)", "vm (AMD EPYC 9654)"]


def test_fleet_directory_names_hosts_and_failures(tmp_path):
    fleet = tmp_path / "fleet"
    for host in ["alpha", "beta", "gamma"]:
        (fleet / host).mkdir(parents=True)
    doc = load_document()
    write_json(fleet / "alpha" / "r.json", doc)
    narrowed = copy.deepcopy(doc)
    narrowed["benchmarks"] = [b for b in doc["benchmarks"]
                              if "@avx2/" in b["name"]]
    narrowed["context"]["run_id"] = "20270101T000000Z"
    write_json(fleet / "beta" / "r.json", narrowed)
    (fleet / "gamma" / "error.txt").write_text(
        "Build and bench: no space left on device\n")
    page, markdown = made(tmp_path, fleet)
    assert "Fleet host gamma failed: Build and bench: no space left on " \
        "device" in markdown
    assert 'class="failed"' in page.split("</header>")[0]
    assert "| kernel@isa | bytes | alpha | beta |" in markdown
    assert "vm (inventory host beta)" in markdown


def test_leak_verdicts_from_the_csv_on_this_host(tmp_path):
    doc = load_document()
    doc["context"]["host_name"] = socket.gethostname()
    path = write_json(tmp_path / "here.json", doc)
    leak = tmp_path / "summary.csv"
    leak.write_text("verdict,kernel,isa,size,secret,measurements,max_t,"
                    "ctgrind,ctgrind_sites,extra_note\n"
                    "leaks,aes128-ctr,generic,64,key,100000,57.3,flagged,12,"
                    "T-tables\n"
                    "no evidence,chacha20,avx2,64,key,100000,1.2,clean,0,\n")
    page, markdown = made(tmp_path, path, leak=leak)
    assert "| kernel | isa | size | secret | measurements | max_t | " \
        "ctgrind | ctgrind_sites | verdict | extra_note |" in markdown
    assert "| aes128-ctr | generic | 64 | key | 100000 | 57.3 | flagged | " \
        "12 | leaks | T-tables |" in markdown
    _, markdown = made(tmp_path, path)
    assert "No leak evidence found on disk for this machine" in markdown


# Bad input

@pytest.mark.parametrize("content, message", [
    (None, "no results file or fleet directory"),
    ('{"benchmarks": [', "not valid JSON"),
    ('{"context": {}, "benchmarks": []}', "holds no <kernel>@<isa>/<bytes>"),
    ('[1, 2]', "no 'benchmarks' list"),
])
def test_bad_input_is_one_line_exit_2_and_keeps_the_report(tmp_path, content,
                                                           message):
    out = tmp_path / "report"
    assert run_report(out, REPORT_FIXTURE).returncode == 0
    before = {name: (out / name).read_bytes() for name in os.listdir(out)}
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    done = run_report(out, REPORT_FIXTURE, bad)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert message in done.stderr
    assert {name: (out / name).read_bytes()
            for name in os.listdir(out)} == before


def test_fleet_of_failures_only_is_bad_input(tmp_path):
    (tmp_path / "fleet" / "a").mkdir(parents=True)
    (tmp_path / "fleet" / "a" / "error.txt").write_text("Ping: unreachable\n")
    done = run_report(tmp_path / "report", tmp_path / "fleet")
    assert done.returncode == 2 and "a failed: Ping: unreachable" in \
        done.stderr
    assert not (tmp_path / "report").exists()


def test_no_default_inputs_says_what_to_run(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cyclebench.report",
                           f"--out={tmp_path / 'r'}"], capture_output=True,
                          text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": TOOLS})
    assert done.returncode == 2 and "make bench" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# In a browser

@pytest.fixture
def chromium():
    """Headless Chromium, or a failure naming the fix: the report's
    browser test is never skipped (CI installs chromium)."""
    try:
        with browser.Chromium(1100, 900) as page:
            yield page
    except browser.BrowserError as e:
        pytest.fail(str(e))


def test_browser_shows_every_machine_and_the_json_ratio(tmp_path, chromium):
    inputs = two_machines(tmp_path)
    made(tmp_path, *inputs)
    url = chromium.load(tmp_path / "report" / "index.html")
    columns = chromium.evaluate(
        "[...document.querySelectorAll('#by-machine thead th[data-machine]')]"
        ".map(th => th.textContent)")
    assert columns == ["vm", "epyc"]
    shown = chromium.evaluate(
        "[...document.querySelectorAll('section[data-machine]')].map(s => "
        "[s.dataset.machine, s.querySelector('td[data-kernel=\"chacha20\"]"
        "[data-size=\"16384\"][data-peer=\"openssl:chacha20\"]')"
        ".textContent])")
    for (label, text), path in zip(shown, inputs):
        want = json_ratio(load_document(path), "chacha20", "openssl:chacha20",
                          16384)
        assert re.search(r"\(([\d.]+x)\)", text)[1] == want, (label, text)
    assert [label for label, _ in shown] == ["vm", "epyc"]
    shot = tmp_path / "report.png"
    chromium.screenshot(shot)
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20000
    assert chromium.requests() == [url]


def test_browser_sees_requests_outside_the_file(tmp_path, chromium):
    # The negative control: the request log is not empty by construction.
    page = tmp_path / "leaky.html"
    page.write_text('<!DOCTYPE html><html><head><style>body { background: '
                    'url("http://bg.invalid/b.png") }</style></head><body>'
                    '<img src="http://img.invalid/a.png"></body></html>')
    url = chromium.load(page)
    requests = chromium.requests()
    assert requests[0] == url
    assert {"http://img.invalid/a.png", "http://bg.invalid/b.png"} <= set(
        requests)


def test_browser_missing_names_the_install_script(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(browser.BrowserError, match="ci/install-deps.sh"):
        browser.Chromium()


# An aarch64 results file timed under qemu (bench --emulated): the report
# lists its host as emulated, with what ran and no figure; every other tool
# refuses the file.

def test_an_emulated_host_is_listed_with_no_figures(tmp_path):
    page, markdown = made(tmp_path, REPORT_FIXTURE, EMULATED_FIXTURE)
    emulated = results.load(EMULATED_FIXTURE, emulated=True)
    assert emulated.emulator == "/usr/bin/qemu-aarch64"
    head, _, section = markdown.partition("(emulated: no speeds)\n")
    assert section, markdown[:2000]
    assert "emulated: no speeds)" in head.split("\n## ")[0]  # the header
    assert "- **architecture:** aarch64" in section
    assert "/usr/bin/qemu-aarch64" in section
    assert "chacha20@neon at 64, 576 B" in section
    assert "aes128-gcm@ce at 64, 576 B" in section
    # Not one of its medians, in any unit, at the precision shown.
    shown = set(re.findall(r"\d[\d,]*\.?\d*", section))
    for run in emulated.runs.values():
        for counter in (COUNTER, "ns_per_byte", "core_cycles_per_byte"):
            value = run.median(counter)
            if value and value > 0.01:
                assert units.sig3(value) not in shown, (counter, value)
    # The tables across machines hold the timed machine alone.
    assert "| kernel@isa | bytes | vm (Intel(R) Xeon(R) Processor) |\n" in \
        markdown
    assert 'data-emulated="true"' in page


@pytest.mark.parametrize("module,args", [
    ("cyclebench.summary", []),
    ("cyclebench.compare", [REPORT_FIXTURE]),
    ("plots", []),
])
def test_other_tools_refuse_an_emulated_file(tmp_path, module, args):
    done = subprocess.run(
        [sys.executable, "-m", module, *args, EMULATED_FIXTURE,
         f"--out={tmp_path / 'out'}"], capture_output=True, text=True,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": f"{ROOT}:{TOOLS}"})
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "timed under an emulator" in lines[0] and \
        "qemu-aarch64" in lines[0]
    assert not (tmp_path / "out").exists()
