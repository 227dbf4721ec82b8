"""The Python's kernel registry (tools/cyclebench/registry.py) against the
C's: `cyclebench list --json` and `cyclebench list` of the binary named in
CYCLEBENCH_BIN (tests/py/registry_test.sh passes it), and the committed
snapshot results files are read with when no binary is at hand.
Run: CYCLEBENCH_BIN=build/cyclebench PYTHONPATH=tools /usr/bin/python3 -m
pytest tests/py/test_registry.py
"""
import json
import os
import subprocess
import sys

import pytest

from cyclebench import registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CYCLEBENCH_BIN", os.path.join(ROOT, "build",
                                                     "cyclebench"))
TOOLS = os.path.join(ROOT, "tools")
REFRESH = "PYTHONPATH=tools /usr/bin/python3 -m cyclebench.registry --write"


@pytest.fixture(scope="module")
def document():
    done = subprocess.run([BIN, "list", "--json"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def text_listing():
    """[(kernel, isa, supported)] from `cyclebench list`, the C's other
    walk of the same registry."""
    done = subprocess.run([BIN, "list"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [(f[0], f[1], f[2] == "supported") for f in
            (line.split() for line in done.stdout.splitlines()
             if not line.startswith("#"))]


@pytest.fixture(scope="module")
def built():
    return registry.from_binary(BIN)


# `list --json` itself

def test_list_json_has_every_field_per_kernel_and_isa(document):
    assert set(document["cpu"]) == {"arch", "model", "features", "disabled",
                               "emulator"}
    assert document["kernels"]
    for k in document["kernels"]:
        assert {"name", "family", "reference", "external", "min_len",
                "batch", "tag_len", "stages", "options", "isas"} <= set(k), k
        for option in k["options"]:
            assert {"name", "kind", "required", "accepts"} <= set(option)
        for isa in k["isas"]:
            assert {"name", "requires", "supported"} <= set(isa), isa
            assert ("reason" in isa) == (not isa["supported"]), isa


def test_external_kernels_have_the_one_external_isa(document):
    for k in document["kernels"]:
        names = [isa["name"] for isa in k["isas"]]
        if k["external"]:
            assert names == ["external"], k["name"]
        else:
            assert "external" not in names and names[-1] == "generic", \
                (k["name"], names)


def test_every_reference_is_one_of_ours_in_the_same_family(document):
    ours = {k["name"]: k for k in document["kernels"] if not k["external"]}
    for k in document["kernels"]:
        if k["reference"]:
            assert k["external"], k["name"]
            assert ours[k["reference"]]["family"] == k["family"], k["name"]


# The reader against the C

def test_reader_lists_the_variants_the_text_listing_does(built,
                                                         text_listing):
    read = [(k.name, isa.name, isa.supported) for k in built
            for isa in k.isas]
    assert read == text_listing


def test_reader_families_and_counterparts_are_the_registrys(built,
                                                            document):
    for k in document["kernels"]:
        name = k["name"]
        assert built.family(name) == k["family"]
        if k["reference"]:
            assert built.counterpart(name) == k["reference"]
        elif not k["external"]:
            assert built.counterpart(name) == name
        else:  # another library's kernel with none of ours beside it
            assert built.counterpart(name) == name.partition(":")[2]
        assert bool(built.library(name)) == k["external"]


def test_isa_order_is_each_tables_lowest_first(built, document):
    for k in document["kernels"]:
        names = [isa["name"] for isa in k["isas"]]
        ranked = sorted(names, key=lambda isa: built.isa_rank(k["name"], isa))
        assert ranked == names[::-1], k["name"]
    # An external kernel sorts after every ISA of ours, in any panel.
    assert built.isa_rank("openssl:chacha20", "external") > max(
        built.isa_rank("chacha20", isa.name)
        for isa in built.variants("chacha20"))


def test_the_ladder_keeps_every_tables_order(built):
    ladder = built.ladder()
    for k in built:
        if not k.external:
            names = [isa.name for isa in reversed(k.isas)]
            assert sorted(names, key=ladder.index) == names, k.name
    assert ladder[0] == "generic"


# Without a binary: the snapshot

def test_snapshot_is_this_builds_registry(document):
    with open(registry.SNAPSHOT, encoding="utf-8") as f:
        committed = f.read()
    assert committed == registry.snapshot_text(document), (
        f"{registry.SNAPSHOT} differs from `{BIN} list --json`: a kernel "
        f"or ISA was added or changed; refresh it with {REFRESH} and "
        f"commit it")


def test_snapshot_reads_as_the_binary_does(built):
    snap = registry.snapshot()
    assert [(k.name, k.family, k.counterpart, [i.name for i in k.isas])
            for k in snap] == \
        [(k.name, k.family, k.counterpart, [i.name for i in k.isas])
         for k in built]
    assert snap.cpu is None
    assert all(isa.supported is None for k in snap for isa in k.isas)


def test_results_without_a_binary_are_read_with_the_snapshot(monkeypatch):
    monkeypatch.delenv("CYCLEBENCH_BIN", raising=False)
    monkeypatch.setattr(registry, "BUILT", "/nonexistent/cyclebench")
    assert registry.for_results().source == registry.SNAPSHOT
    monkeypatch.setenv("CYCLEBENCH_BIN", BIN)
    assert registry.for_results().source == f"{BIN} list --json"


def test_a_kernel_the_registry_lacks_is_its_own_family(built):
    assert built.family("openssl:newcipher-cbc") == "newcipher-cbc"
    assert built.counterpart("openssl:newcipher-cbc") == "newcipher-cbc"
    assert built.library("openssl:newcipher-cbc") == "openssl"
    assert built.family("newcipher") == "newcipher"
    assert built.isa_rank("chacha20", "avx10") > built.isa_rank(
        "chacha20", "avx512")
    note = built.unknown_note({"chacha20", "newcipher"})
    assert note.startswith("newcipher: not in the kernel registry")
    assert built.unknown_note({"chacha20"}) is None


def test_registry_command_refuses_a_missing_binary_in_one_line():
    done = subprocess.run([sys.executable, "-m", "cyclebench.registry",
                           "--bin=/nonexistent/cyclebench"],
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": TOOLS})
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.strip().splitlines()) == 1
    assert "build it with `make`" in done.stderr
