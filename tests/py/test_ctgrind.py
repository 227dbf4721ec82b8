"""`make ctgrind` (cyclebench.leak.ctgrind over the driver, under
valgrind's memcheck) and `make leak-table` (cyclebench.leak.table). The tests' leak controls
must be flagged (an early-exit comparison, a secret-indexed lookup) or
clean (a constant-time comparison); our kernels must get the verdicts the
README states; variants valgrind cannot run are never clean, and a variant
that crashes the driver or draws any other memcheck error fails. Each
kernel's variants run in one valgrind process, once for all the tests
(verdict). Run through tests/py/ctgrind_test.sh, which names the binary in
CYCLEBENCH_BIN.
"""
import csv
import os
import re
import subprocess
import sys

import pytest

from cyclebench import registry
from cyclebench.leak import ctgrind
from cyclebench.leak import table as leak_table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The package, for the commands run as python3 -m cyclebench.leak.<module>.
TOOLS = os.path.join(ROOT, "tools")
BIN = os.environ.get("CYCLEBENCH_BIN", os.path.join(ROOT, "build",
                                                     "cyclebench"))
BUILD = os.path.dirname(BIN)
DRIVER = os.path.join(BUILD, "ctgrind-driver")
CONTROLS = os.path.join(BUILD, "tests", "ctgrind-controls")
BASE_RESULTS = os.path.join(ROOT, "tests", "fixtures", "results",
                            "base.json")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def version():
    return ctgrind.valgrind_version()


# Read when collecting, to name a test per variant.
LISTING = registry.from_binary(BIN)


@pytest.fixture(scope="module")
def listing():
    return LISTING


def supported(listing, kernel, isa):
    return listing.kernel(kernel).isa(isa).supported


def variants_of(kernels):
    return [(k, i.name) for k in kernels for i in LISTING.variants(k)]


@pytest.fixture(scope="module")
def kernel_verdicts(version):
    """{kernel: {isa: Verdict}}, each kernel checked when first asked for,
    all its variants in one valgrind process as make ctgrind runs them."""
    checked = {}

    def of(kernel):
        if kernel not in checked:
            isas = [(i.name, i.supported) for i in LISTING.variants(kernel)]
            checked[kernel] = {v.isa: v for v in ctgrind.check_kernel(
                kernel, isas, ctgrind.Options(BIN, DRIVER), version)}
        return checked[kernel]
    return of


@pytest.fixture
def verdict(kernel_verdicts):
    return lambda kernel, isa: kernel_verdicts(kernel)[isa]


def clean_or_cpu_lacks(v):
    """Passes a clean verdict, skips (visibly) one that cannot run because
    a CPU, this one or valgrind's, lacks its ISA; fails any other, a
    variant that failed under valgrind above all."""
    if v.state == "not checkable":
        assert v.cpu_lacks_isa(), f"{v.variant}: {v.summary()}"
        pytest.skip(f"{v.variant}: {v.summary()}")
    assert v.state == "clean", f"{v.variant}: {v.summary()}"


def script(module, *args, env=None):
    """python3 -m cyclebench.leak.<module> args, as make runs it."""
    return subprocess.run([sys.executable, "-m", f"cyclebench.leak.{module}",
                           *args], capture_output=True, text=True,
                          env={**(env or os.environ), "PYTHONPATH": TOOLS})


def one_line_error(done):
    return done.returncode == 2 and not done.stdout and \
        len(done.stderr.strip().splitlines()) == 1


# The controls

def control_sites(name):
    status, out, _, sites, others, _ = ctgrind.memcheck([CONTROLS, name])
    assert status == 0 and not others, (status, others)
    return out, sites


def test_early_exit_comparison_is_flagged_as_a_branch():
    _, sites = control_sites("early-exit")
    assert [(s.function, s.use) for s in sites] == [
        ("control_early_exit_equal", "branch")], sites
    assert sites[0].where.startswith("tests/c/leak_controls.c:")


def test_secret_indexed_lookup_is_flagged_as_an_address():
    _, sites = control_sites("table-lookup")
    assert [(s.function, s.use) for s in sites] == [
        ("control_table_lookup", "address")], sites


def test_constant_time_comparison_is_clean():
    out, sites = control_sites("constant-time")
    assert sites == []
    assert out.strip() == "constant-time: 1"  # it did compare, and say so


# The kernels' expected verdicts

FLAGGED = [("aes128-ctr", "generic"), ("aes256-gcm", "generic"),
           ("aes128-xts", "generic"), ("aegis128l", "generic")]
CLEAN_KERNELS = ["chacha20", "xchacha20", "blake2b", "poly1305",
                 "chacha20-poly1305", "polyval"]
# Tor's relay crypto: every CGO operation, and tor1's two paths.
TOR_KERNELS = ["tor-cgo-relay-forward", "tor-cgo-relay-backward",
               "tor-cgo-relay-originate", "tor-cgo-relay-forward-x4",
               "tor-cgo-client-forward", "tor-cgo-client-backward",
               "tor-cgo-client-originate", "tor1-relay-forward",
               "tor1-relay-originate"]
AES_KERNELS = ["aes128-ctr", "aes256-ctr", "aes128-cbc", "aes256-cbc",
               "aes128-xts", "aes256-xts", "aes128-gcm", "aes256-gcm",
               "aes128-xctr", "aes256-xctr", "aes128-hctr2", "aes256-hctr2",
               "aes128-gcm-siv", "aes256-gcm-siv"]
# AEGIS-128L and AEGIS-256, whose state derives from the key: through
# aesenc on aesni, through the vector-permute round on ssse3.
AEGIS_XMM_KERNELS = ["aegis128l", "aegis256"]


@pytest.mark.parametrize("kernel,isa", FLAGGED)
def test_table_driven_code_is_flagged(kernel, isa, verdict):
    v = verdict(kernel, isa)
    assert v.state == "sites", v.summary()
    assert all(s.use == "address" for s in v.sites), v.sites
    assert v.secret.startswith("the key"), v.secret


def test_rc4_is_flagged_for_its_table_and_its_one_branch(verdict):
    """RC4's S-box is indexed by the key; its keystream step also branches
    on the secret j in the rare j == i + 1 case (rc4_generic.c says why),
    and on nothing else."""
    v = verdict("rc4", "generic")
    assert v.state == "sites", v.summary()
    branches = [s for s in v.sites if s.use == "branch"]
    assert [s.function for s in branches] == ["rc4_step_generic"], v.sites
    assert [s for s in v.sites if s.use == "address"], v.sites
    assert all(s.use in ("address", "branch") for s in v.sites), v.sites
    assert v.secret.startswith("the key"), v.secret


def test_generic_aes_marks_its_round_keys(verdict):
    """The prepared schedule is marked as well as the key: memcheck loses
    the mark through the key expansion's S-box lookups."""
    v = verdict("aes128-ctr", "generic")
    assert "bytes of prepared key state" in v.secret, v.secret
    assert any(s.function.startswith("te_column") for s in v.sites), v.sites


@pytest.mark.parametrize("kernel", CLEAN_KERNELS)
def test_every_isa_valgrind_runs_is_clean(kernel, kernel_verdicts):
    """Each row clean, or not checkable because a CPU lacks its ISA (a
    crash is neither); and some row checked."""
    checked = 0
    for v in kernel_verdicts(kernel).values():
        if v.state == "not checkable":
            assert v.cpu_lacks_isa(), f"{v.variant}: {v.summary()}"
            continue
        assert v.state == "clean", f"{v.variant}: {v.summary()}"
        checked += 1
    assert checked, f"no ISA of {kernel} could be checked"


@pytest.mark.parametrize("kernel,isa", variants_of(CLEAN_KERNELS))
def test_clean_kernel_row(kernel, isa, verdict):
    """Each row on its own, so that one valgrind cannot run shows as a
    SKIP saying why."""
    clean_or_cpu_lacks(verdict(kernel, isa))


@pytest.mark.parametrize("isa", [i for _, i in variants_of(["adiantum"])])
def test_adiantum_row_is_clean_where_ssse3_is(isa, listing, verdict):
    """Every Adiantum row valgrind runs is clean: its one AES block is the
    best AES from AES-NI (the vector rows) or from ssse3 (the generic row)
    down, and the table-driven AES, its only possible leak, runs only on a
    CPU (valgrind's) without SSSE3."""
    v = verdict("adiantum", isa)
    if v.state not in ("not checkable", "failed"):
        assert "bytes of prepared key state in 5 regions" in v.secret, v.secret
        assert all(s.where.startswith("kernels/aes/aes_generic.c:")
                   for s in v.sites), f"{v.variant}: {v.sites}"
    if supported(listing, "aes128-ctr", "ssse3") or v.state != "sites":
        clean_or_cpu_lacks(v)


def test_adiantum_is_checked(kernel_verdicts):
    assert any(v.state != "not checkable"
               for v in kernel_verdicts("adiantum").values()), \
        "no ISA of adiantum could be checked"


def test_blake2b_is_checked_keyed(verdict):
    assert verdict("blake2b", "generic").secret.startswith(
        "the key (32 bytes)")


@pytest.mark.parametrize("kernel", AES_KERNELS + AEGIS_XMM_KERNELS)
def test_aesni_aes_is_clean(kernel, listing, verdict):
    if not supported(listing, kernel, "aesni"):
        pytest.skip("this CPU lacks AES-NI")
    v = verdict(kernel, "aesni")
    assert v.state == "clean", v.summary()


@pytest.mark.parametrize("kernel", AES_KERNELS)
def test_ssse3_aes_is_clean(kernel, listing, verdict):
    """Every mode's row of the constant-time software AES, GCM's portable
    GHASH and HCTR2's and GCM-SIV's generic POLYVAL with it: no branch or
    address on the key or the round keys."""
    if not supported(listing, kernel, "ssse3"):
        pytest.skip("this CPU lacks SSSE3")
    v = verdict(kernel, "ssse3")
    assert v.state == "clean", v.summary()
    assert "bytes of prepared key state" in v.secret, v.secret


@pytest.mark.parametrize("kernel", TOR_KERNELS)
def test_tor_relay_crypto_leaks_only_through_generic_aes(kernel, listing,
                                                        verdict):
    """With AES-NI, or the constant-time software AES (ssse3), clean: the
    recognized checks declassified as the relay acts on them; with the
    T-table AES, that AES and nothing else (CGO's POLYVAL and its secret
    counter included)."""
    for isa in ("aesni", "ssse3"):
        if supported(listing, kernel, isa):
            v = verdict(kernel, isa)
            assert v.state == "clean", f"{kernel}@{isa}: {v.summary()}"
    v = verdict(kernel, "generic")
    assert v.state == "sites" and "prepared key state" in v.secret, v
    assert all(s.where.startswith("kernels/aes/aes_generic.c")
               for s in v.sites), v.sites
    # CGO's kernels take whole cells only; tor1's any length from a header.
    assert v.lengths == ([509] if kernel.startswith("tor-cgo") else
                         ctgrind.DEFAULT_LENGTHS), v.lengths


@pytest.mark.parametrize("kernel", AEGIS_XMM_KERNELS)
def test_ssse3_aegis_is_clean(kernel, verdict):
    """No AES-NI, and still constant-time: the round indexes no memory by
    the state."""
    v = verdict(kernel, "ssse3")
    assert v.state == "clean", v.summary()
    assert "bytes of prepared key state" in v.secret, v.secret


def test_a_keyless_kernel_has_its_message_as_the_secret(verdict):
    v = verdict("memcpy", "generic")
    assert v.state == "clean" and v.secret.startswith("the message"), v


@pytest.mark.parametrize("kernel,isa", [("chacha20", "avx512"),
                                        ("aes128-ctr", "vaes-avx2"),
                                        ("aes128-ctr", "vaes-avx512"),
                                        ("aegis128x2", "vaes-avx2"),
                                        ("aegis256x4", "vaes-avx512")])
def test_avx512_and_vaes_are_never_clean(kernel, isa, listing, verdict):
    """valgrind 3.19 runs neither; cpu.c, asking valgrind's CPUID, must
    not offer them, and a row that cannot run is not checkable."""
    v = verdict(kernel, isa)
    assert v.state == "not checkable" and v.cpu_lacks_isa(), v.summary()
    if supported(listing, kernel, isa):
        assert "CPU lacks" in v.reason and (
            "vaes" in v.reason or "avx512f" in v.reason), v.reason
    else:
        assert v.reason == "here: unsupported on this CPU"


# One process per kernel: sections, crashes, other errors, repeats

def test_the_driver_reports_each_variant_in_its_own_section():
    """Each variant's errors after its client message in memcheck's report;
    memcheck counts an error it has reported before (the same variant run
    twice) though it does not report it again: what the repeat rule rests
    on."""
    status, out, _, sections, _ = ctgrind.memcheck_sections(
        [DRIVER, "aes128-ctr@ssse3", "aes128-ctr@generic",
         "aes128-ctr@generic"])
    assert status == 0, out
    assert [s.name for s in sections] == [
        "", "variant aes128-ctr@ssse3", "variant aes128-ctr@generic",
        "variant aes128-ctr@generic"]
    assert not sections[1].sites and sections[2].sites, sections
    assert not any(s.others for s in sections), sections
    counts = [int(m[1]) for m in
              map(ctgrind.SECTION_END.match, out.splitlines()) if m]
    assert counts[0] == 0 and counts[1] > 0 and counts[2] > 0, counts


def scripted_driver(monkeypatch, runs):
    """memcheck_sections answering each call with the next of runs:
    (status, stdout, [Section]); returns the commands it was given."""
    given = []

    def run(command, root=None):
        given.append(command[1:])
        status, out, sections = runs[len(given) - 1]
        return status, out, "", [ctgrind.Section("")] + sections, \
            "==1== Process terminating with default action of signal 11"
    monkeypatch.setattr(ctgrind, "memcheck_sections", run)
    return given


SITE = ctgrind.Site("f", "k.c:3", "address")


def finished(isa, errors=0):
    return (f"variant k@{isa}\nsecret: the key (16 bytes)\nran 64 bytes: ok\n"
            f"memcheck errors: {errors}\n")


def test_a_crash_fails_its_variant_and_the_rest_run_again(monkeypatch):
    given = scripted_driver(monkeypatch, [
        (-11, finished("avx2") + "variant k@sse2\nsecret: the key\n", []),
        (0, finished("generic"), [])])
    got = ctgrind.check_kernel("k", [("avx512", False), ("avx2", True),
                                     ("sse2", True), ("generic", True)],
                               ctgrind.Options(), "valgrind-x")
    assert [v.state for v in got] == ["not checkable", "clean", "failed",
                                      "clean"], got
    assert got[2].summary() == ("failed under valgrind: the driver stopped "
                                "with status -11: Process terminating with "
                                "default action of signal 11"), got[2]
    assert got[2].secret == "the key" and not got[2].cpu_lacks_isa()
    assert got[0].cpu_lacks_isa()
    assert given == [["k@avx2", "k@sse2", "k@generic"], ["k@generic"]]


def test_another_memcheck_error_fails_the_variant(monkeypatch):
    scripted_driver(monkeypatch, [
        (0, finished("avx2", 1) + finished("generic", 2),
         [ctgrind.Section("variant k@avx2", others=["InvalidRead in g (x)"]),
          ctgrind.Section("variant k@generic", {SITE})]),
        (0, finished("generic", 2), [ctgrind.Section("variant k@generic",
                                                     {SITE})])])
    avx2, generic = ctgrind.check_kernel(
        "k", [("avx2", True), ("generic", True)], ctgrind.Options(), "v")
    assert avx2.state == "failed" and avx2.reason == (
        "under valgrind: memcheck also reported InvalidRead in g (x)"), avx2
    assert generic.summary() == "1 site", generic


def test_a_variant_after_one_with_errors_runs_again_alone(monkeypatch):
    """memcheck reports a place once per process: generic's sites, repeats
    of avx2's, would be missing; so it runs again on its own."""
    given = scripted_driver(monkeypatch, [
        (0, finished("avx2", 4) + finished("sse2") + finished("generic", 9),
         [ctgrind.Section("variant k@avx2", {SITE}),
          ctgrind.Section("variant k@sse2"),
          ctgrind.Section("variant k@generic")]),
        (0, finished("generic", 9), [ctgrind.Section("variant k@generic",
                                                     {SITE})])])
    got = ctgrind.check_kernel("k", [("avx2", True), ("sse2", True),
                                     ("generic", True)],
                               ctgrind.Options(), "v")
    assert [v.summary() for v in got] == ["1 site", "clean", "1 site"], got
    assert given[1] == ["k@generic"]


def test_errors_counted_but_not_reported_fail(monkeypatch):
    scripted_driver(monkeypatch, [(0, finished("generic", 3), [])])
    v, = ctgrind.check_kernel("k", [("generic", True)], ctgrind.Options(),
                              "v")
    assert v.state == "failed" and "counted 3 errors" in v.reason, v


# Reports and parsing

XML = """<?xml version="1.0"?>
<valgrindoutput>
<error><kind>UninitCondition</kind><stack>
<frame><ip>0x1</ip><obj>/x/cyclebench</obj><fn>f</fn><dir>{root}/kernels/aes</dir>
<file>aes_generic.c</file><line>10</line></frame></stack></error>
<error><kind>UninitCondition</kind><stack>
<frame><ip>0x1</ip><obj>/x/cyclebench</obj><fn>f</fn><dir>{root}/kernels/aes</dir>
<file>aes_generic.c</file><line>10</line></frame></stack></error>
<error><kind>UninitValue</kind><stack>
<frame><ip>0x4BB0</ip><obj>/usr/lib/libcrypto.so.3</obj></frame>
<frame><ip>0x4BC0</ip><obj>/usr/lib/libcrypto.so.3</obj><fn>EVP_CipherInit_ex2</fn></frame>
</stack></error>
<error><kind>InvalidRead</kind><stack>
<frame><ip>0x2</ip><obj>/x/cyclebench</obj><fn>g</fn></frame></stack></error>
</valgrindoutput>
"""


def test_memcheck_xml_becomes_deduplicated_sites():
    sites, others = ctgrind.parse_memcheck_xml(XML.format(root=ROOT), ROOT)
    assert [str(s) for s in sites] == [
        "0x4BB0 (libcrypto.so.3, called from EVP_CipherInit_ex2)",
        "f kernels/aes/aes_generic.c:10"]
    assert [s.use for s in sites] == ["address", "branch"]
    assert others == ["InvalidRead in g (cyclebench)"]


def test_report_files_say_clean_sites_or_why_not(tmp_path, version):
    site = ctgrind.Site("f", "k.c:3", "branch")
    for v, first in [
            (ctgrind.Verdict("k", "generic", "clean", secret="s"), "clean"),
            (ctgrind.Verdict("k", "avx2", "sites", [site, site]), "1 site"),
            (ctgrind.Verdict("k", "sse2", "failed", [site],
                             reason="under valgrind: the driver stopped"),
             "failed under valgrind: the driver stopped"),
            (ctgrind.Verdict("k", "avx512", "not checkable",
                             reason="under valgrind: x's CPU lacks avx512f"),
             "not checkable under valgrind: x's CPU lacks avx512f")]:
        ctgrind.write_report(v, str(tmp_path), version)
        with open(tmp_path / f"{v.variant}.ctgrind.txt") as f:
            lines = f.read().splitlines()
        assert lines[0].startswith(f"# ctgrind {v.variant}: {version}")
        assert lines[1] == first
    assert lines[2].startswith("# valgrind 3.19 executes neither")
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


# The commands

def test_make_ctgrind_writes_the_sites_and_exits_1(tmp_path):
    done = script("ctgrind", "rc4", f"--bin={BIN}", f"--driver={DRIVER}",
                  f"--out={tmp_path}")
    assert done.returncode == 1, done.stderr
    assert "ctgrind rc4@generic: " in done.stdout
    with open(tmp_path / "rc4@generic.ctgrind.txt") as f:
        lines = f.read().splitlines()
    assert lines[1].endswith(" sites") or lines[1] == "1 site", lines
    # The secret-indexed S-box accesses, all in rc4_generic.c's functions.
    assert all(re.match(r"rc4_\w+ kernels/rc4/rc4_generic\.c:", line)
               for line in lines[2:]), lines


@pytest.mark.parametrize("args,says", [
    (["chacha21"], "unknown kernel"),
    ([], "no kernel named"),
    (["chacha20", "--isa=avx9"], "has no ISA"),
    (["chacha20", "--size=0"], "--size must be at least 1"),
])
def test_ctgrind_bad_input_is_one_line(args, says, tmp_path):
    done = script("ctgrind", *args, f"--bin={BIN}", f"--driver={DRIVER}",
                  f"--out={tmp_path}")
    assert one_line_error(done) and says in done.stderr, done
    assert not os.listdir(tmp_path)


def test_valgrind_missing_is_one_line(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path)}
    done = script("ctgrind", "chacha20", f"--bin={BIN}",
                  f"--driver={DRIVER}", f"--out={tmp_path / 'out'}", env=env)
    assert one_line_error(done) and "valgrind is not installed" in \
        done.stderr, done
    assert not (tmp_path / "out").exists()


def test_leak_line_parses():
    t = leak_table.parse_leak_line(
        "# means\nleak aes128-ctr@generic (secret=input, 64 B): max |t| = "
        "23.4 over 1,200,000 measurements: leak\n")
    assert (t.secret, t.max_t, t.measurements, t.verdict) == (
        "input", 23.4, 1200000, "leak")
    assert leak_table.parse_leak_line("leak: nonsense") is None


def t_test_verdict(max_t):
    """dudect's verdicts for a |t| as the CSV rounds it (4 digits), so
    that the bounds are inclusive."""
    return {"leak": max_t >= leak_table.LEAK_FOUND,
            "possible leak, measure longer":
                leak_table.LEAK_POSSIBLE <= max_t <= leak_table.LEAK_FOUND,
            "no leak found": max_t <= leak_table.LEAK_POSSIBLE}


def test_leak_table_end_to_end(tmp_path):
    """memcpy: no key, so the input class alone; its cycles/byte from the
    committed results fixture. RC4, whose key schedule leaks plainly
    (docs/leak.md: far past dudect's threshold within a short budget, so
    that no host's noise can hide it), is found leaking by both
    methods."""
    done = script("table", "--kernel=memcpy,rc4", "--seconds=0.4",
                  f"--bin={BIN}", f"--driver={DRIVER}", f"--out={tmp_path}",
                  f"--results={BASE_RESULTS}")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == leak_table.CSV_COLUMNS
    generic = next(r for r in rows if r["kernel"] == "memcpy" and
                   r["isa"] == "generic")
    assert generic["ctgrind"] == "clean" and generic["ctgrind_sites"] == "0"
    assert generic["secret"] == "input" and generic["size"] == "64"
    assert int(generic["measurements"]) > 0
    assert float(generic["tsc_cycles_per_byte"]) > 0
    for r in (r for r in rows if r["measurements"]):
        assert t_test_verdict(float(r["max_t"]))[r["verdict"]], r
    rc4 = next(r for r in rows if r["kernel"] == "rc4")
    assert re.fullmatch(r"\d+ sites?", rc4["ctgrind"]) and \
        int(rc4["ctgrind_sites"]) > 0, rc4
    assert rc4["verdict"] == "leak" and rc4["secret"] == "key" and \
        float(rc4["max_t"]) > leak_table.LEAK_FOUND, rc4
    with open(tmp_path / "summary.md") as f:
        md = f.read()
    assert "| memcpy | generic | clean |" in md
    with open(tmp_path / "summary.png", "rb") as f:
        assert f.read(8) == PNG_MAGIC
    assert (tmp_path / "memcpy@generic.ctgrind.txt").exists()


def test_leak_table_measures_a_cell_kernel_at_its_shortest(tmp_path, listing):
    """tor-cgo-relay-forward takes whole 509-byte cells: the t-test runs at
    509 bytes, not the default 64, and the row says so."""
    done = script("table", "--kernel=tor-cgo-relay-forward", "--seconds=0.2",
                  f"--bin={BIN}", f"--driver={DRIVER}", f"--out={tmp_path}")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["isa"] for r in rows] == \
        [i.name for i in listing.variants("tor-cgo-relay-forward")]
    assert {r["size"] for r in rows} == {"509"}
    measured = [r for r in rows if r["measurements"]]
    assert measured and all("509-byte messages, its shortest" in r["note"]
                            for r in measured)
    with open(tmp_path / "tor-cgo-relay-forward@generic.ctgrind.txt") as f:
        assert "lengths 509 bytes" in f.readline()


@pytest.mark.parametrize("args,says", [
    (["--seconds=0"], "SECONDS must be above 0"),
    (["--seconds=-1"], "SECONDS must be above 0"),
    (["--kernel=chacha21"], "unknown kernel"),
])
def test_leak_table_bad_input_is_one_line(args, says, tmp_path):
    done = script("table", *args, f"--bin={BIN}",
                  f"--driver={DRIVER}", f"--out={tmp_path}")
    assert one_line_error(done) and says in done.stderr, done
    assert not os.listdir(tmp_path)


def test_kernels_named_by_a_comma_list(listing):
    """KERNEL=a,b: those kernels' variants in the registry's order, every
    ISA of each; a name the registry lacks is refused, named."""
    got = ctgrind.variants(listing, "adiantum,aes128-xts")
    want = [(k.name, i.name, i.supported) for k in listing
            if k.name in ("aes128-xts", "adiantum") for i in k.isas]
    assert got == want and {k for k, _, _ in got} == {"aes128-xts",
                                                      "adiantum"}
    assert ctgrind.variants(listing, "aes128-xts") == \
        [v for v in want if v[0] == "aes128-xts"]
    with pytest.raises(ctgrind.InputError, match="unknown kernel 'nope'"):
        ctgrind.variants(listing, "aes128-xts,nope")
