"""`make ctgrind KERNEL=<name|all> [ISA=name]`: every variant of the kernel
run by the driver (leak/ctgrind_driver.c) under valgrind's memcheck with its
secret marked undefined, one valgrind process per kernel for all its
variants. Every conditional branch and memory address that depends on the
secret is a site, `function file:line`.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.leak.ctgrind KERNEL|all
        [--isa=NAME] [--size=N] [--bin=build/cyclebench]
        [--driver=build/ctgrind-driver] [--out=out/leak]

Writes out/leak/<kernel>@<isa>.ctgrind.txt per variant, each atomically: a
comment line saying what was checked, then `clean`, `N sites` followed by
the sites, why the variant is `not checkable`, or why it `failed`.
valgrind 3.19 executes neither AVX-512 nor VAES, and its CPUID hides them,
so those variants are not checkable under valgrind: never clean. A variant
this CPU lacks is not checkable either; those are the only reasons. A
variant that stops the driver under valgrind (a crash, an instruction
valgrind cannot execute), or for which memcheck reports any error other
than a use of the secret (an invalid read, say), failed.

Exit status: 0 when nothing was flagged, 1 when a variant has sites or
failed, 2 bad input (unknown kernel or ISA, valgrind missing).
"""
import itertools
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

# The driver's lengths when not given one, of which it runs those the kernel
# accepts (leak/ctgrind_driver.c).
DEFAULT_LENGTHS = [64, 509, 1024]

WHY_NOT_CHECKABLE = ("# valgrind 3.19 executes neither AVX-512 nor VAES, and "
                     "its CPUID leaves them out, so a variant that needs them "
                     "cannot run under it; it is never reported clean.\n")

UNSUPPORTED_HERE = "here: unsupported on this CPU"

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
    state: str  # "clean", "sites", "not checkable" or "failed"
    sites: list = field(default_factory=list)  # [Site], sorted, one per place
    secret: str = ""  # what the driver marked
    # Why not checkable ("under valgrind: ...", "here: ..."), or failed.
    reason: str = ""
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
        if self.state in ("not checkable", "failed"):
            return f"{self.state} {self.reason}"
        return "clean"

    def cpu_lacks_isa(self):
        """Whether it is not checkable for the one reason there is: the
        CPU, here or valgrind's, lacks what the variant needs."""
        return self.state == "not checkable" and (
            self.reason == UNSUPPORTED_HERE or "'s CPU lacks " in self.reason)


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


@dataclass
class Section:
    """memcheck's findings after one client message (the driver's
    "variant <kernel>@<isa>"); the first, named "", is before any."""
    name: str
    sites: set = field(default_factory=set)
    others: list = field(default_factory=list)


def parse_memcheck_sections(text, root=ROOT):
    """[Section] in order from memcheck's --xml output, which may end early
    (a crashed process); a site is the innermost frame of a taint error."""
    sections = [Section("")]
    parser = ET.XMLPullParser(events=("end",))
    try:
        parser.feed(text)
        parser.close()
    except ET.ParseError:
        pass  # what came before the break is read
    for _, element in parser.read_events():
        if element.tag == "clientmsg":
            sections.append(Section(element.findtext("text", "").strip()))
        elif element.tag == "error":
            add_error(sections[-1], element, root)
    return sections


def add_error(section, error, root):
    kind = error.findtext("kind") or "?"
    frames = error.findall("stack/frame")
    fn, where = frame_site(frames, root) if frames else ("???", "(no stack)")
    if kind in TAINT_KINDS:
        section.sites.add(Site(fn, where, TAINT_KINDS[kind]))
    else:
        section.others.append(f"{kind} in {fn} {where}")


def parse_memcheck_xml(text, root=ROOT):
    """([Site], [other error descriptions]) from memcheck's --xml output,
    whatever section they are in."""
    sections = parse_memcheck_sections(text, root)
    return sorted(set().union(*(s.sites for s in sections))), \
        [e for s in sections for e in s.others]


# Running

def valgrind_version():
    """"valgrind-3.19.0"; InputError when valgrind is missing."""
    if not shutil.which("valgrind"):
        raise InputError("valgrind is not installed: install Debian's "
                         "valgrind package (ci/install-deps.sh lists it)")
    done = subprocess.run(["valgrind", "--version"], capture_output=True,
                          text=True)
    return done.stdout.strip() or "valgrind"


def memcheck_sections(command, root=ROOT):
    """Runs command under memcheck: (exit status, stdout, stderr,
    [Section], valgrind's log)."""
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
                sections = parse_memcheck_sections(f.read(), root)
        except OSError:
            sections = [Section("")]
    return done.returncode, done.stdout, done.stderr, sections, said


def memcheck(command, root=ROOT):
    """Runs command under memcheck: (exit status, stdout, stderr, [Site],
    [other errors], valgrind's log)."""
    status, out, err, sections, log = memcheck_sections(command, root)
    return status, out, err, \
        sorted(set().union(*(s.sites for s in sections))), \
        [e for s in sections for e in s.others], log


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


VALGRIND_STOP_WORDS = ("unhandled instruction", "Illegal opcode",
                       "Process terminating")


def valgrind_stopped(log):
    """Why valgrind stopped the program, from its log: the instruction it
    could not execute, the signal, else its last line."""
    for words in VALGRIND_STOP_WORDS:
        line = next((line for line in log.splitlines() if words in line),
                    None)
        if line:
            return line.split("==", 2)[-1].strip()
    return last_line(log).split("==", 2)[-1].strip()


def not_runnable_reason(why, version):
    if why.startswith("the CPU lacks "):
        why = f"{version}'s CPU lacks {why.removeprefix('the CPU lacks ')}"
    return f"under valgrind: {why}"


def stopped_reason(status, err, log):
    said = valgrind_stopped(log) if status < 0 or status > 128 \
        else last_line(err)
    return f"under valgrind: the driver stopped with status {status}: {said}"


@dataclass
class DriverSection:
    """One variant's section of the driver's stdout."""
    isa: str
    lines: list = field(default_factory=list)
    errors: int = None  # memcheck's count during it; None: never finished


SECTION_END = re.compile(r"^memcheck errors: (\d+)$")


def driver_sections(out, kernel):
    """{isa: DriverSection} from the driver's stdout, in order."""
    found, current = {}, None
    for line in out.splitlines():
        if line.startswith(f"variant {kernel}@"):
            current = DriverSection(line.split("@", 1)[1])
            found[current.isa] = current
        elif current and (end := SECTION_END.match(line)):
            current.errors = int(end[1])
            current = None
        elif current:
            current.lines.append(line)
    return found


def secret_marked(lines):
    return next((line[len("secret: "):] for line in lines
                 if line.startswith("secret: ")), "")


def section_verdict(kernel, ran, memchecked, version):
    """The Verdict of a finished section: the driver's lines and memcheck's
    findings in it."""
    isa, lines = ran.isa, ran.lines
    refused = next((line for line in lines
                    if line.startswith("not runnable: ")), None)
    if refused:
        return Verdict(kernel, isa, "not checkable",
                       reason=not_runnable_reason(
                           refused.removeprefix("not runnable: "), version))
    secret = secret_marked(lines)
    lengths = [int(m[1]) for line in lines
               if (m := re.match(r"^ran (\d+) bytes", line))]
    sites, others = sorted(memchecked.sites), memchecked.others
    v = Verdict(kernel, isa, "sites" if sites else "clean", sites, secret,
                other_errors=others, lengths=lengths)
    if others:
        v.state, v.reason = "failed", (
            f"under valgrind: memcheck also reported {others[0]}" +
            (f" and {len(others) - 1} more" if len(others) > 1 else ""))
    elif ran.errors and not sites:
        v.state, v.reason = "failed", (
            f"under valgrind: memcheck counted {ran.errors} errors but "
            f"reported none")
    return v


def run_driver(kernel, isas, opts, version):
    """({isa: Verdict} of the isas this one process reached, [isas whose
    sites may be missing: memcheck had seen errors before them]). A variant
    that stops the process failed; those after it are not reached."""
    size = [f"--size={opts.size}"] if opts.size else []
    status, out, err, sections, log = memcheck_sections(
        [opts.driver, *(f"{kernel}@{isa}" for isa in isas), *size])
    if status == 2:
        raise InputError(f"ctgrind {kernel}: {last_line(err)}")
    ran = driver_sections(out, kernel)
    memchecked = {s.name: s for s in sections}
    before_any = sections[0]  # the process's start, for every variant
    verdicts, again, earlier_errors = {}, [], 0
    for isa in isas:
        section = ran.get(isa)
        if not section or section.errors is None:
            if status == 0:
                reason = "under valgrind: the driver did not report on it"
            else:
                reason = stopped_reason(status, err, log)
            found = memchecked.get(f"variant {kernel}@{isa}", Section(""))
            verdicts[isa] = Verdict(
                kernel, isa, "failed", sorted(found.sites),
                secret_marked(section.lines if section else []),
                reason=reason, other_errors=found.others)
            break
        earlier_errors += section.errors
        if section.errors and earlier_errors > section.errors:
            again.append(isa)
            continue
        found = memchecked.get(f"variant {kernel}@{isa}", Section(""))
        found = Section(found.name, found.sites | before_any.sites,
                        before_any.others + found.others)
        verdicts[isa] = section_verdict(kernel, section, found, version)
    return verdicts, again


def check_kernel(kernel, isas, opts, version):
    """[Verdict] of one kernel's [(isa, supported)], in order: those this
    CPU supports in one process, and again in another the variants it did
    not reach after one that stopped it; alone, a variant whose errors
    memcheck may have left out as repeats of an earlier variant's."""
    verdicts = {isa: Verdict(kernel, isa, "not checkable",
                             reason=UNSUPPORTED_HERE)
                for isa, supported in isas if not supported}
    left = [isa for isa, supported in isas if supported]
    while left:
        reached, again = run_driver(kernel, left, opts, version)
        for isa in again:
            reached.update(run_driver(kernel, [isa], opts, version)[0])
        verdicts.update(reached)
        left = [isa for isa in left if isa not in verdicts]
    return [verdicts[isa] for isa, _ in isas]


def check_variants(chosen, opts, version):
    """The Verdict of each of chosen [(kernel, isa, supported)], in order,
    one process per kernel."""
    for kernel, group in itertools.groupby(chosen, key=lambda c: c[0]):
        yield from check_kernel(kernel, [(isa, supported)
                                         for _, isa, supported in group],
                                opts, version)


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
    flagged = failed = 0
    for v in check_variants(chosen, opts, version):
        write_report(v, opts.out, version, opts.size)
        flagged += v.state == "sites"
        failed += v.state == "failed"
        print(f"ctgrind {v.variant}: {v.summary()}", flush=True)
    print(f"ctgrind: {len(chosen)} variant{'s' if len(chosen) != 1 else ''}, "
          f"{flagged} flagged{f', {failed} failed' if failed else ''}; "
          f"reports in {opts.out}/<kernel>@<isa>.ctgrind.txt")
    return 1 if flagged or failed else 0


if __name__ == "__main__":
    run_main(main, "ctgrind")
