"""`make ctgrind KERNEL=<name|all> [ISA=name]`: every variant of the kernel
run by the driver (leak/ctgrind_driver.c) under valgrind's memcheck with its
secret marked undefined. Every conditional branch and memory address that
depends on the secret is a site, `function file:line`.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.leak.ctgrind KERNEL|all
        [--isa=NAME] [--size=N] [--bin=build/cyclebench]
        [--driver=build/ctgrind-driver] [--out=out/leak]

Writes out/leak/<kernel>@<isa>.ctgrind.txt per variant, each atomically: a
comment line saying what was checked, then `clean`, `N sites` followed by
the sites, or why the variant is `not checkable`. valgrind 3.19 executes
neither AVX-512 nor VAES, and its CPUID hides them, so those variants are
not checkable under valgrind: never clean. A variant this CPU lacks is not
checkable either.

Exit status: 0 when nothing was flagged, 1 when a variant has sites, 2 bad
input (unknown kernel or ISA, valgrind missing).
"""
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from .. import ROOT
from .. import registry as kernel_registry
from ..cli import ArgumentParser, run_main
from ..errors import InputError
from ..output import StagedFiles

EXIT_NOT_RUNNABLE = 3  # the driver's: the CPU (valgrind's) lacks the ISA
# The driver's lengths when not given one, of which it runs those the kernel
# accepts (leak/ctgrind_driver.c).
DEFAULT_LENGTHS = [64, 509, 1024]

WHY_NOT_CHECKABLE = ("# valgrind 3.19 executes neither AVX-512 nor VAES, and "
                     "its CPUID leaves them out, so a variant that needs them "
                     "cannot run under it; it is never reported clean.\n")

# memcheck's error kinds that mean "computed from an undefined value", and
# what the use was.
TAINT_KINDS = {
    "UninitCondition": "branch",
    "UninitValue": "address",
    "SyscallParam": "system call",
}


@dataclass(frozen=True, order=True)
class Site:
    function: str
    where: str  # "file:line", or "(object)" without debug information
    use: str    # branch, address, system call

    def __str__(self):
        return f"{self.function} {self.where}"


@dataclass
class Verdict:
    kernel: str
    isa: str
    state: str  # "clean", "sites" or "not checkable"
    sites: list = field(default_factory=list)  # [Site], sorted, one per place
    secret: str = ""  # what the driver marked
    reason: str = ""  # why not checkable: "under valgrind: ...", "here: ..."
    other_errors: list = field(default_factory=list)  # memcheck, not taint
    lengths: list = field(default_factory=list)  # the message lengths run

    @property
    def variant(self):
        return f"{self.kernel}@{self.isa}"

    def places(self):
        """{"function file:line": [uses]} in order."""
        found = {}
        for site in self.sites:
            found.setdefault(str(site), []).append(site.use)
        return found

    def summary(self):
        if self.state == "sites":
            n = len(self.places())
            return f"{n} site{'s' if n != 1 else ''}"
        if self.state == "not checkable":
            return f"not checkable {self.reason}"
        return "clean"


# memcheck's XML report

def frame_site(frames, root):
    """The place of a stack's innermost frame: file:line relative to the
    repository when it is ours, else the object file's name; a function a
    library does not name is its address, and the first named caller."""
    frame = frames[0]
    fn = frame.findtext("fn")
    path, line = frame.findtext("file"), frame.findtext("line")
    if path and line:
        full = os.path.join(frame.findtext("dir") or "", path)
        rel = os.path.relpath(full, root)
        shown = rel if not rel.startswith("..") else os.path.basename(path)
        return fn or "???", f"{shown}:{line}"
    where = os.path.basename(frame.findtext("obj") or "?")
    if fn:
        return fn, f"({where})"
    caller = next((f.findtext("fn") for f in frames[1:] if f.findtext("fn")),
                  None)
    return frame.findtext("ip") or "???", \
        f"({where}{f', called from {caller}' if caller else ''})"


def parse_memcheck_xml(text, root=ROOT):
    """([Site], [other error descriptions]) from memcheck's --xml output;
    a site is the innermost frame of a taint error."""
    sites, others = set(), []
    for error in ET.fromstring(text).iter("error"):
        kind = error.findtext("kind") or "?"
        frames = error.findall("stack/frame")
        fn, where = frame_site(frames, root) if frames else \
            ("???", "(no stack)")
        if kind in TAINT_KINDS:
            sites.add(Site(fn, where, TAINT_KINDS[kind]))
        else:
            others.append(f"{kind} in {fn} {where}")
    return sorted(sites), others


# Running

def valgrind_version():
    """"valgrind-3.19.0"; InputError when valgrind is missing."""
    if not shutil.which("valgrind"):
        raise InputError("valgrind is not installed: install Debian's "
                         "valgrind package (ci/install-deps.sh lists it)")
    done = subprocess.run(["valgrind", "--version"], capture_output=True,
                          text=True)
    return done.stdout.strip() or "valgrind"


def memcheck(command, root=ROOT):
    """Runs command under memcheck: (exit status, stdout, stderr, [Site],
    [other errors], valgrind's log)."""
    with tempfile.TemporaryDirectory(prefix="cyclebench-ctgrind-") as tmp:
        xml, log = os.path.join(tmp, "memcheck.xml"), \
            os.path.join(tmp, "valgrind.log")
        done = subprocess.run(
            ["valgrind", "--tool=memcheck", "--xml=yes", f"--xml-file={xml}",
             f"--log-file={log}", "--error-limit=no", "--leak-check=no",
             "--num-callers=8", *command], capture_output=True, text=True)
        with open(log, encoding="utf-8", errors="replace") as f:
            said = f.read()
        try:
            with open(xml, encoding="utf-8", errors="replace") as f:
                sites, others = parse_memcheck_xml(f.read(), root)
        except (OSError, ET.ParseError):
            sites, others = [], []
    return done.returncode, done.stdout, done.stderr, sites, others, said


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def valgrind_stopped(log):
    """Why valgrind stopped the program, from its log."""
    for line in log.splitlines():
        if "unhandled instruction" in line or "Illegal opcode" in line:
            return line.split("==", 2)[-1].strip()
    return last_line(log).split("==", 2)[-1].strip()


def not_runnable_reason(driver_said, version):
    why = last_line(driver_said).removeprefix("not runnable: ")
    if why.startswith("the CPU lacks "):
        why = f"{version}'s CPU lacks {why.removeprefix('the CPU lacks ')}"
    return f"under valgrind: {why}"


def stopped_reason(status, err, log):
    said = valgrind_stopped(log) if status < 0 or status > 128 \
        else last_line(err)
    return f"under valgrind: the driver stopped with status {status}: {said}"


def check_variant(kernel, isa, supported, opts, version):
    """The Verdict for one variant; InputError on bad input."""
    if not supported:
        return Verdict(kernel, isa, "not checkable",
                       reason="here: unsupported on this CPU")
    command = [opts.driver, f"{kernel}@{isa}"] + (
        [f"--size={opts.size}"] if opts.size else [])
    status, out, err, sites, others, log = memcheck(command)
    secret = next((line[len("secret: "):] for line in out.splitlines()
                   if line.startswith("secret: ")), "")
    lengths = [int(m[1]) for m in re.finditer(r"^ran (\d+) bytes", out,
                                              re.MULTILINE)]
    if status == 2:
        raise InputError(f"ctgrind {kernel}@{isa}: {last_line(err)}")
    if status == EXIT_NOT_RUNNABLE:
        return Verdict(kernel, isa, "not checkable",
                       reason=not_runnable_reason(out, version))
    if status != 0:
        return Verdict(kernel, isa, "not checkable", secret=secret,
                       reason=stopped_reason(status, err, log))
    return Verdict(kernel, isa, "sites" if sites else "clean", sites,
                   secret, other_errors=others, lengths=lengths)


def lengths_text(lengths):
    """"509 bytes", "64, 509 and 1024 bytes"."""
    names = [str(n) for n in lengths]
    joined = ", ".join(names[:-1]) + " and " + names[-1] \
        if len(names) > 1 else "".join(names)
    return f"{joined} bytes"


def report_text(v, version, size):
    """The report: what ran (the lengths the driver ran, else the ones it
    was asked for), the verdict, the sites."""
    lengths = lengths_text(v.lengths or ([size] if size else
                                         DEFAULT_LENGTHS))
    head = (f"# ctgrind {v.variant}: {version} memcheck; secret: "
            f"{v.secret or 'none marked'}; lengths {lengths}\n")
    if v.state == "not checkable":
        return head + v.summary() + "\n" + (
            WHY_NOT_CHECKABLE if "CPU lacks" in v.reason else "")
    body = v.summary() + "\n" + "".join(
        f"{place} ({', '.join(uses)})\n"
        for place, uses in v.places().items())
    notes = "".join(f"# memcheck also reported: {e}\n"
                    for e in v.other_errors)
    return head + body + notes


def write_report(v, out_dir, version, size=None):
    with StagedFiles(out_dir) as files:
        files.add_text(f"{v.variant}.ctgrind.txt", report_text(v, version,
                                                               size))
        files.commit()


# The command

@dataclass
class Options:
    binary: str = "build/cyclebench"
    driver: str = "build/ctgrind-driver"
    out: str = "out/leak"
    size: int = None


def variants(registry, name, isa=None):
    """[(kernel, isa, supported)] of one kernel, several (comma-separated)
    or all, in the registry's order."""
    if not name:
        raise InputError("no kernel named: make ctgrind KERNEL=<name|all> "
                         "(see `cyclebench list`)")
    names = set() if name == "all" else set(name.split(","))
    unknown = sorted(n for n in names if n not in registry)
    if unknown:
        raise InputError(f"unknown kernel '{unknown[0]}': see `cyclebench list`")
    chosen = [(k.name, i.name, i.supported) for k in registry
              if not names or k.name in names for i in k.isas
              if isa is None or i.name == isa]
    if not chosen:
        raise InputError(f"{name} has no ISA '{isa}': see `cyclebench list`")
    return chosen


def parse_options(argv):
    parser = ArgumentParser(prog="python3 -m cyclebench.leak.ctgrind",
                            description=__doc__)
    parser.add_argument("kernel", nargs="?", help="a kernel, or all")
    parser.add_argument("--isa")
    parser.add_argument("--size", type=int,
                        help="one message length instead of 64, 509, 1024")
    parser.add_argument("--bin", default=Options.binary)
    parser.add_argument("--driver", default=Options.driver)
    parser.add_argument("--out", default=Options.out)
    args = parser.parse_args(argv)
    if args.size is not None and args.size < 1:
        raise InputError(f"--size must be at least 1 (got {args.size})")
    return args.kernel, args.isa, Options(args.bin, args.driver, args.out,
                                          args.size)


def main(argv):
    name, isa, opts = parse_options(argv)
    version = valgrind_version()
    chosen = variants(kernel_registry.from_binary(opts.binary), name, isa)
    if not os.access(opts.driver, os.X_OK):
        raise InputError(f"no driver at {opts.driver}: build it with `make "
                         f"{opts.driver}`")
    flagged = 0
    for kernel, variant_isa, supported in chosen:
        v = check_variant(kernel, variant_isa, supported, opts, version)
        write_report(v, opts.out, version, opts.size)
        flagged += v.state == "sites"
        print(f"ctgrind {v.variant}: {v.summary()}", flush=True)
    print(f"ctgrind: {len(chosen)} variant{'s' if len(chosen) != 1 else ''}, "
          f"{flagged} flagged; reports in "
          f"{opts.out}/<kernel>@<isa>.ctgrind.txt")
    return 1 if flagged else 0


if __name__ == "__main__":
    run_main(main, "ctgrind")
