"""The kernel registry as the C states it (kernels/registry.h, printed by
`cyclebench list --json`): each kernel's family, its counterpart (the
kernel of ours an external kernel must agree with), its ISAs best first
with generic last, and per ISA whether this CPU runs it. Nothing here
guesses a family or an ISA order from a name.

Where the registry comes from:
- a binary: `<binary> list --json`, run once per binary (cached). Commands
  that run kernels (scenario, ctgrind, leak-table) read the binary they
  run, so they also learn what this CPU supports.
- for reading results files (plots, summary, report), for_results(): the
  binary named by CYCLEBENCH_BIN, else this checkout's build/cyclebench,
  else, where nothing is built (another machine's results on a laptop,
  the committed fixtures), the snapshot committed beside this module:
  registry.json, the same JSON less what depends on the host (the CPU,
  and which ISAs it supports). tests/py/test_registry.py fails when the
  snapshot and the build disagree; refresh it with

      PYTHONPATH=tools /usr/bin/python3 -m cyclebench.registry --write

A results file may name a kernel the registry does not know (a newer
build's results): it is then its own family, its own counterpart (less
its library's prefix), with its ISAs after every known one, and
unknown() names it, so the commands can say so.
"""
import functools
import json
import os
import re
import subprocess
from dataclasses import dataclass

from . import ROOT
from .cli import ArgumentParser, run_main
from .errors import InputError
from .output import StagedFiles

HERE = os.path.dirname(os.path.abspath(__file__))
SNAPSHOT = os.path.join(HERE, "registry.json")
BUILT = os.path.join(ROOT, "build", "cyclebench")
EXTERNAL_ISA = "external"
# What `list --json` says about the host rather than the build.
HOST_ISA_FIELDS = ("supported", "reason")


@dataclass(frozen=True)
class Isa:
    name: str
    requires: str      # CPU features, space-separated ("" for none)
    supported: bool    # None in the snapshot: no host was asked
    reason: str = None  # why not, when not supported


@dataclass(frozen=True)
class Kernel:
    name: str
    family: str
    reference: str  # the kernel of ours an external kernel agrees with
    external: bool  # another library's kernel (its one ISA is "external")
    isas: tuple     # (Isa), best first, generic last
    known: bool = True  # False: not in the registry (see unknown_kernel)
    min_len: int = 0  # its shortest message, in bytes

    @property
    def library(self):
        """"openssl" for "openssl:chacha20"; "" for our own kernels."""
        return self.name.partition(":")[0] if self.external else ""

    @property
    def counterpart(self):
        """The kernel of ours that computes the same thing: its reference
        for an external kernel, itself for ours. An external kernel with
        no reference (openssl:bf-cbc) is its own operation, named as its
        library names it ("bf-cbc")."""
        if self.reference:
            return self.reference
        return self.name.partition(":")[2] if self.external else self.name

    def isa(self, name):
        return next((i for i in self.isas if i.name == name), None)


def unknown_kernel(name):
    """A kernel the registry does not know, as far as its name tells: an
    external one when it names a library ("lib:kernel")."""
    library, sep, rest = name.partition(":")
    return Kernel(name, rest if sep else name, None, bool(sep), (),
                  known=False)


class Registry:
    def __init__(self, kernels, cpu, source):
        self.kernels = {k.name: k for k in kernels}  # in registry order
        self.cpu = cpu        # {"model", "features"}, None in the snapshot
        self.source = source  # where it was read, for messages
        self._ladder = None

    def __contains__(self, name):
        return name in self.kernels

    def __iter__(self):
        return iter(self.kernels.values())

    def kernel(self, name):
        return self.kernels.get(name) or unknown_kernel(name)

    def family(self, name):
        return self.kernel(name).family

    def counterpart(self, name):
        """Kernel.counterpart, followed through an external reference:
        gcrypt:camellia-128-cbc is checked against OpenSSL's, as we have no
        Camellia, and pairs with what OpenSSL's pairs with."""
        seen = {name}
        counterpart = self.kernel(name).counterpart
        while (counterpart in self.kernels and counterpart not in seen
               and self.kernels[counterpart].external):
            seen.add(counterpart)
            counterpart = self.kernels[counterpart].counterpart
        return counterpart

    def library(self, name):
        return self.kernel(name).library

    def variants(self, name):
        """[Isa] of a kernel, best first; [] for one not in the registry."""
        return list(self.kernel(name).isas)

    def isa_rank(self, kernel, isa):
        """Sorts a kernel's ISAs lowest first, as charts and tables list
        them: generic first, its table's best last, then ISAs its table
        lacks (another build's), by name; "external" after all."""
        if isa == EXTERNAL_ISA:
            return (2, 0, "")
        names = [i.name for i in reversed(self.kernel(kernel).isas)]
        return (0, names.index(isa), "") if isa in names else (1, 0, isa)

    def ladder(self):
        """Every ISA of our kernels, lowest first: each table's order kept
        (generic, then up to its best), ties in the order the tables name
        them. Figures give each ISA its colour by its place here."""
        if self._ladder is None:
            self._ladder = self._merged_tables()
        return self._ladder

    def _merged_tables(self):
        tables = [[i.name for i in reversed(k.isas)] for k in self
                  if not k.external]
        first_seen = list(dict.fromkeys(isa for t in tables for isa in t))
        below = {isa: set() for isa in first_seen}
        for t in tables:
            for lower, higher in zip(t, t[1:]):
                below[higher].add(lower)
        order = []
        while len(order) < len(first_seen):
            ready = [isa for isa in first_seen if isa not in order
                     and below[isa] <= set(order)]
            # A cycle (two tables disagreeing) would leave none ready: take
            # the first left rather than loop.
            order.append(ready[0] if ready else next(
                isa for isa in first_seen if isa not in order))
        return order

    def unknown(self, names):
        """The names the registry does not know, sorted."""
        return sorted({n for n in names if n not in self.kernels},
                      key=natural_key)

    def unknown_note(self, names):
        """A line saying which kernels the registry lacks, or None."""
        missing = self.unknown(names)
        if not missing:
            return None
        return (f"{', '.join(missing)}: not in the kernel registry "
                f"({self.source}), so each is its own family with its ISAs "
                f"in name order: rebuild (make), or refresh the snapshot")


def natural_key(text):
    """"chacha8" before "chacha12" before "chacha20"."""
    return [int(part) if part.isdigit() else part
            for part in re.split(r"(\d+)", text)]


# Reading it

def parse(document, source):
    """A Registry from `list --json`'s document (or the snapshot's)."""
    try:
        kernels = [Kernel(k["name"], k["family"], k["reference"],
                          k["external"],
                          tuple(Isa(i["name"], i["requires"],
                                    i.get("supported"), i.get("reason"))
                                for i in k["isas"]),
                          min_len=k.get("min_len", 0))
                   for k in document["kernels"]]
    except (KeyError, TypeError) as e:
        raise InputError(f"{source} is not the kernel registry's JSON "
                         f"(missing {e}): rebuild with `make`") from None
    return Registry(kernels, document.get("cpu"), source)


@functools.lru_cache(maxsize=None)
def list_json(binary):
    """`<binary> list --json`, decoded; InputError naming the fix."""
    try:
        done = subprocess.run([binary, "list", "--json"],
                              capture_output=True, text=True)
    except OSError as e:
        raise InputError(f"cannot run {binary}: {e.strerror}: build it with "
                         f"`make`") from None
    if done.returncode != 0:
        raise InputError(f"`{binary} list --json` failed (exit "
                         f"{done.returncode}): rebuild it with `make`")
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise InputError(f"`{binary} list --json` printed no JSON: rebuild "
                         f"it with `make`") from None


def from_binary(binary):
    return parse(list_json(binary), f"{binary} list --json")


@functools.lru_cache(maxsize=None)
def snapshot(path=SNAPSHOT):
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"cannot read the registry snapshot {path} ({e}): "
                         f"restore it from git, or build (make) so the "
                         f"binary is read instead") from None
    return parse(document, path)


def for_results():
    """The registry results files are read with (see the module's
    docstring): CYCLEBENCH_BIN's, else build/cyclebench's, else the
    snapshot."""
    named = os.environ.get("CYCLEBENCH_BIN")
    if named:
        return from_binary(named)
    if os.access(BUILT, os.X_OK):
        return from_binary(BUILT)
    return snapshot()


# The snapshot

def without_host(document):
    """`list --json` less what depends on the host: what the snapshot
    holds."""
    return {"kernels": [
        dict(k, isas=[{f: v for f, v in i.items()
                       if f not in HOST_ISA_FIELDS} for i in k["isas"]])
        for k in document["kernels"]]}


def snapshot_text(document):
    """The snapshot's text: one kernel a line, so that adding one is one
    line of diff."""
    kernels = without_host(document)["kernels"]
    return ('{"kernels": [\n' + ",\n".join(json.dumps(k) for k in kernels)
            + "\n]}\n")


def main(argv):
    parser = ArgumentParser(
        prog="python3 -m cyclebench.registry",
        description="Print the kernel registry as the Python reads it, or "
        "refresh the committed snapshot from a build.")
    parser.add_argument("--bin", default=BUILT, help="the cyclebench binary "
                        "(default: this checkout's build/cyclebench)")
    parser.add_argument("--write", action="store_true", help="write the "
                        "snapshot (registry.json beside this module) from it")
    args = parser.parse_args(argv)
    document = list_json(args.bin)
    if args.write:
        with StagedFiles(HERE) as files:
            files.add_text(os.path.basename(SNAPSHOT), snapshot_text(document))
            files.commit()
        print(f"registry: {len(document['kernels'])} kernels from {args.bin} "
              f"into {SNAPSHOT}")
        return 0
    for k in parse(document, args.bin):
        print(f"{k.name}: family {k.family}, counterpart {k.counterpart}, "
              f"ISAs {' '.join(i.name for i in k.isas)}")
    return 0


if __name__ == "__main__":
    run_main(main, "registry")
