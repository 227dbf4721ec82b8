"""`make fleet` end to end through ansible-playbook, without ssh: an
inventory of three hosts with ansible_connection=local, each with its own
working directory. alpha runs the narrowed bench, beta the same at
--isa=avx2 only, and gamma points at a directory make fleet did not make,
which it must refuse (and leave alone). One fleet run, several checks.
Run: /usr/bin/python3 -m pytest tests/py/test_fleet.py
"""
import glob
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The build under test (tests/py/fleet_test.sh names it): the hosts start
# from it rather than building the tree twice more.
BUILD = os.environ.get("FLEET_TEST_BUILD", os.path.join(ROOT, "build"))
KERNEL = "^(chacha20|openssl:chacha20)@"


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fleet")
    not_ours = tmp / "not-ours"
    not_ours.mkdir()
    (not_ours / "keep.txt").write_text("someone's file\n")
    inventory = tmp / "hosts.ini"
    inventory.write_text(
        "[bench]\n"
        f"alpha fleet_workdir={tmp}/alpha fleet_build_from={BUILD}\n"
        f"beta fleet_workdir={tmp}/beta fleet_isa=avx2 fleet_build_from={BUILD}\n"
        f"gamma fleet_workdir={not_ours}\n\n"
        "[bench:vars]\n"
        "ansible_connection=local\n"
        "ansible_python_interpreter=/usr/bin/python3\n")
    ansible = tmp / "ansible"
    env = dict(os.environ, ANSIBLE_HOME=str(ansible),
               ANSIBLE_LOCAL_TEMP=str(ansible / "tmp"),
               ANSIBLE_REMOTE_TEMP=str(ansible / "remote"),
               ANSIBLE_NOCOLOR="1")
    done = subprocess.run(
        ["make", "-C", ROOT, "--no-print-directory", "fleet",
         f"INVENTORY={inventory}", f"OUT={tmp / 'out'}", f"KERNEL={KERNEL}",
         "SIZES=576,16384"], capture_output=True, text=True, env=env)
    return tmp, done


def fetched(tmp, host):
    paths = glob.glob(str(tmp / "out" / "fleet" / host / "*.json"))
    assert len(paths) == 1, (host, paths)
    with open(paths[0], encoding="utf-8") as f:
        return json.load(f)


def names(document):
    return {b["name"] for b in document["benchmarks"]}


def test_fleet_exits_nonzero_naming_the_failed_host(fleet):
    _, done = fleet
    assert done.returncode == 2, done.stdout[-3000:] + done.stderr
    assert "make fleet: failed hosts (named in the report's header): gamma" \
        in done.stderr


def test_results_of_each_host_in_its_own_directory(fleet):
    tmp, done = fleet
    alpha, beta = fetched(tmp, "alpha"), fetched(tmp, "beta")
    assert {"chacha20@avx2/16384", "openssl:chacha20@external/16384"} <= \
        names(alpha)
    assert len({n.split("@")[1] for n in names(alpha)}) >= 3
    assert names(beta) == {"chacha20@avx2/576", "chacha20@avx2/16384"}
    described = subprocess.run(
        ["git", "-C", ROOT, "describe", "--always", "--dirty", "--abbrev=12"],
        capture_output=True, text=True).stdout.strip() or "unknown"
    assert alpha["context"]["git_commit"] == described
    assert not glob.glob(str(tmp / "out" / "fleet" / "alpha" / "error.txt"))


def test_hosts_start_from_the_build_under_test(fleet):
    """fleet_build_from: the objects are the build's own, not rebuilt."""
    tmp, _ = fleet
    obj = os.path.join("obj", "kernels", "chacha", "chacha.o")
    ours = os.stat(os.path.join(BUILD, obj)).st_mtime_ns
    for host in ("alpha", "beta"):
        assert os.stat(tmp / host / "build" / obj).st_mtime_ns == ours, host


def test_report_shows_both_hosts_and_the_failure(fleet):
    tmp, _ = fleet
    page = (tmp / "out" / "report" / "index.html").read_text()
    header = page.split("</header>")[0]
    assert re.search(r"Fleet host gamma failed: Refuse a working directory "
                     r"make fleet did not make: \S*not-ours exists", header)
    table = page.split('id="by-machine"')[1].split("</thead>")[0]
    assert re.findall(r'<th data-machine="(\w+)"', table) == ["alpha", "beta"]
    markdown = (tmp / "out" / "report" / "report.md").read_text()
    assert "## Machine 1: alpha" in markdown and \
        "## Machine 2: beta" in markdown
    assert (tmp / "not-ours" / "keep.txt").read_text() == "someone's file\n"


def test_entries_on_one_machine_never_overlap(fleet):
    tmp, _ = fleet
    spans = []
    for host in ["alpha", "beta"]:
        held = dict(line.split() for line in
                    (tmp / host / "out" / "fleet-lock.txt").read_text()
                    .splitlines())
        spans.append((float(held["held"]), float(held["released"])))
    (a0, a1), (b0, b1) = sorted(spans)
    assert a0 < a1 <= b0 < b1, spans


def test_a_missing_inventory_is_a_usage_error(tmp_path):
    done = subprocess.run(["make", "-C", ROOT, "--no-print-directory",
                           "fleet", f"INVENTORY={tmp_path}/none.ini",
                           f"OUT={tmp_path}"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "make fleet: INVENTORY=" in done.stderr and \
        "names no file" in done.stderr
    assert not (tmp_path / "fleet").exists()
