"""`make leak-table [SECONDS=per-variant] [KERNEL=name]`: the evidence on
timing leaks for every kernel variant, beside its cycles/byte.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.leak.table
        [--kernel=NAME|all] [--seconds=3] [--size=64]
                       [--bin=build/cyclebench]
                       [--driver=build/ctgrind-driver] [--out=out/leak]
                       [--results=out/results/latest.json]

For each kernel x ISA: `make ctgrind`'s verdict (ctgrind.py: clean, N
sites, not checkable or failed; one valgrind process per kernel), and
`cyclebench leak`'s t-test, run once with the key as the secret and once
with the input (half the seconds each; the input only, for the whole time,
where there is no key). The row shows the larger |t|, its measurement
count and secret class, and dudect's verdict. Where the results file
exists, the variant's TSC ticks/byte at the same size stands beside it.

Writes out/leak/summary.md, summary.csv and summary.png (max |t| per
variant on a log scale, with dudect's 4.5 and 10 drawn), and every
variant's <kernel>@<isa>.ctgrind.txt; each file atomically. Bad input
(valgrind missing, an unknown kernel, a budget that is not positive): one
line, exit status 2.
"""
import csv
import io
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass

from .. import registry as kernel_registry
from ..drawing import hbars, plt
from ..cli import ArgumentParser, run_main
from ..errors import InputError
from ..output import StagedFiles
from ..results import load
from ..units import sig3
from . import ctgrind

LEAK_POSSIBLE, LEAK_FOUND = 4.5, 10.0  # dudect's, as harness/leak.h
DEFAULT_SECONDS = 3.0
DEFAULT_SIZE = 64

LEAK_LINE = re.compile(
    r"^leak (?P<variant>\S+) \(secret=(?P<secret>\w+), [^)]*\): max \|t\| = "
    r"(?P<t>[0-9.]+|inf) over (?P<n>[0-9,]+) measurements: (?P<verdict>.+)$")

# Where make leak-table writes its CSV, for the commands that read it.
LEAK_CSV = "out/leak/summary.csv"

# The CSV's columns, in order (the README documents them).
CSV_COLUMNS = ["kernel", "isa", "ctgrind", "ctgrind_sites", "max_t",
               "measurements", "secret", "size", "verdict",
               "tsc_cycles_per_byte", "note"]


@dataclass
class TTest:
    """One `cyclebench leak` run's final line."""
    secret: str
    max_t: float
    measurements: int
    verdict: str


@dataclass
class Row:
    kernel: str
    isa: str
    ctgrind: ctgrind.Verdict
    size: int  # the t-test's message length
    ttest: TTest = None
    cycles_per_byte: float = None
    note: str = ""

    @property
    def variant(self):
        return f"{self.kernel}@{self.isa}"

    def ctgrind_cell(self):
        """The verdict; why not checkable or failed is in the note."""
        if self.ctgrind.state in ("not checkable", "failed"):
            return self.ctgrind.state
        return self.ctgrind.summary()

    def sites(self):
        return len(self.ctgrind.places()) if self.ctgrind.state == "sites" \
            else (0 if self.ctgrind.state == "clean" else None)


# The t-test

def parse_leak_line(text):
    """The TTest in `cyclebench leak`'s output, or None."""
    lines = text.strip().splitlines()
    match = LEAK_LINE.match(lines[-1]) if lines else None
    if not match:
        return None
    return TTest(match["secret"], float(match["t"]),
                 int(match["n"].replace(",", "")), match["verdict"])


def run_leak(binary, variant, secret, seconds, size):
    """(TTest or None, why not): one run of `cyclebench leak`. None with
    "no key" when the kernel takes none."""
    done = subprocess.run([binary, "leak", variant, f"--secret={secret}",
                           f"--seconds={seconds:g}", f"--size={size}"],
                          capture_output=True, text=True)
    said = ctgrind.last_line(done.stderr)
    if done.returncode == 2 and "takes no key" in said:
        return None, "no key"
    if done.returncode == 2:
        raise InputError(f"leak-table: `cyclebench leak {variant}` refused "
                         f"its arguments: {said}")
    result = parse_leak_line(done.stdout)
    return result, None if result else f"not measured: {said}"


def ttest(binary, variant, seconds, size):
    """(the TTest of larger |t| over the key and input classes, a note)."""
    key, why = run_leak(binary, variant, "key", seconds / 2, size)
    if why and why != "no key":
        return None, why
    inputs, why = run_leak(binary, variant, "input",
                           seconds / 2 if key else seconds, size)
    if why:
        return None, why
    runs = [r for r in (key, inputs) if r]
    return max(runs, key=lambda r: r.max_t), ""


# The table

def cycles_per_byte(results, kernel, isa, size):
    return results.median(kernel, isa, size, "tsc_cycles_per_byte") \
        if results else None


def message_size(opts, registry, kernel):
    """--size, or the kernel's shortest message where that is longer (a
    Tor cell kernel's 509 bytes)."""
    return max(opts.size, registry.kernel(kernel).min_len)


def measure_row(verdict, supported, opts, version, results, registry):
    """The row of a variant whose ctgrind verdict is known."""
    kernel, isa = verdict.kernel, verdict.isa
    ctgrind.write_report(verdict, opts.out, version)
    size = message_size(opts, registry, kernel)
    row = Row(kernel, isa, verdict, size,
              cycles_per_byte=cycles_per_byte(results, kernel, isa, size))
    if not supported:
        row.note = "unsupported on this CPU"
    else:
        row.ttest, row.note = ttest(opts.binary, row.variant, opts.seconds,
                                    size)
    if size != opts.size:
        row.note = "; ".join(n for n in [f"{size}-byte messages, its "
                                         f"shortest", row.note] if n)
    if verdict.state in ("not checkable", "failed") and supported:
        row.note = "; ".join(n for n in [row.note, "ctgrind " +
                                         verdict.reason] if n)
    return row


def cells(row):
    t = row.ttest
    return [row.kernel, row.isa, row.ctgrind_cell(),
            f"{t.max_t:.1f}" if t else "—", f"{t.measurements:,}" if t else "—",
            t.secret if t else "—", t.verdict if t else "—",
            sig3(row.cycles_per_byte) if row.cycles_per_byte else "—",
            row.note]


def markdown(rows, opts, machine, commands, results_note):
    headers = ["kernel", "isa", "ctgrind", "max \\|t\\|", "measurements",
               "secret", "t-test verdict",
               "TSC ticks/byte at its size", "note"]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    flagged = sum(r.ctgrind.state == "sites" for r in rows)
    leaks = sum(bool(r.ttest) and r.ttest.max_t > LEAK_FOUND for r in rows)
    return "\n".join([
        "# Timing-leak evidence per kernel variant\n",
        f"Machine: {machine}.\n",
        f"Rerun with `make leak-table SECONDS={opts.seconds:g}`; it ran, per "
        "variant:\n",
        "".join(f"    {c}\n" for c in commands),
        f"{len(rows)} variants: ctgrind flagged {flagged}; the t-test found "
        f"a leak (|t| > {LEAK_FOUND:g}) in {leaks}.\n",
        "\n".join(lines) + "\n",
        "Notes:\n",
        f"- ctgrind: the secret (the key and the key schedule a kernel "
        f"prepares; the message where there is no key) marked undefined "
        f"for valgrind's memcheck, which reports every branch and memory "
        f"address computed from it; the lengths of "
        f"{ctgrind.lengths_text(ctgrind.DEFAULT_LENGTHS)} the kernel "
        f"accepts (each report names them). It sees "
        f"only what valgrind executes: valgrind 3.19 runs neither AVX-512 "
        f"nor VAES, so those variants are not checkable, never clean. Each "
        f"variant's sites are in `{opts.out}/<kernel>@<isa>.ctgrind.txt`.",
        f"- t-test: dudect's fixed-against-random Welch t-test on "
        f"{opts.size}-byte messages (a kernel whose shortest is longer at "
        f"that, as its note says), {opts.seconds:g} s per variant, half "
        f"with the key as the secret and half with the input (message, "
        f"nonce, IV, tweak); the larger |t| is shown. |t| > {LEAK_FOUND:g} "
        f"is a leak, above {LEAK_POSSIBLE:g} a possible one. No leak found "
        f"is not a proof: the t-test sees only what this machine's timing "
        f"shows in this many measurements (T-table AES's tables fit in L1 "
        f"here, so what its timing shows is small and comes and goes).",
        f"- TSC ticks/byte: {results_note}",
    ]) + "\n"


def csv_text(rows):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        t = r.ttest
        writer.writerow([
            r.kernel, r.isa, r.ctgrind_cell(),
            "" if r.sites() is None else r.sites(),
            f"{t.max_t:.4g}" if t else "", t.measurements if t else "",
            t.secret if t else "", r.size, t.verdict if t else "",
            f"{r.cycles_per_byte:.6g}" if r.cycles_per_byte else "", r.note])
    return buf.getvalue()


def chart(rows, registry):
    """Bars of max |t| per measured variant, log scale, dudect's lines;
    the variants ctgrind flagged say so in their label."""
    measured = [r for r in rows if r.ttest]
    fig, ax = plt.subplots(figsize=(9, 1.5 + 0.22 * max(1, len(measured))))
    hbars(ax, registry, [(max(r.ttest.max_t, 0.01), r.kernel, r.isa)
               for r in measured])
    for x, label in [(LEAK_POSSIBLE, "4.5: possible leak"),
                     (LEAK_FOUND, "10: leak")]:
        ax.axvline(x, color="red", linestyle="--" if x < LEAK_FOUND else "-",
                   linewidth=1, label=label)
    ax.set_yticks(range(len(measured)), [
        r.variant + (f" [ctgrind: {r.ctgrind_cell()}]"
                     if r.ctgrind.state == "sites" else "")
        for r in measured], fontsize="small")
    ax.set_ylim(len(measured) - 0.5, -0.5)  # top to bottom, no margins
    ax.set_xscale("log")
    ax.set_xlabel("max |t| (Welch's t, fixed against random secret; log "
                  "scale)")
    ax.set_title("Timing-leak t-test per kernel variant")
    ax.grid(axis="x", alpha=0.3, which="both")
    if measured:
        ax.legend(fontsize="small", loc="lower right")
    fig.tight_layout()
    return fig


# The command

@dataclass
class Options:
    ctgrind: ctgrind.Options  # its default lengths, not the t-test's size
    seconds: float = DEFAULT_SECONDS
    size: int = DEFAULT_SIZE
    results: str = "out/results/latest.json"
    kernel: str = "all"

    @property
    def binary(self):
        return self.ctgrind.binary

    @property
    def out(self):
        return self.ctgrind.out


def machine_line(registry):
    """The CPU and its features, as the binary reports them."""
    cpu = registry.cpu or {}
    return (f"{cpu.get('model', 'unknown CPU')}; features: "
            f"{cpu.get('features', '?')}")


def load_results(path, size, registry):
    if not os.path.exists(path):
        return None, (f"no results file at {path}; run `make bench` "
                      f"(sizes including {size}) to fill the column")
    return load(path, registry), (
        f"median tsc_cycles_per_byte at {size} bytes from {path}, a run of "
        f"its own (not this one)")


def parse_options(argv):
    parser = ArgumentParser(prog="python3 -m cyclebench.leak.table",
                            description=__doc__)
    parser.add_argument("--kernel", default="all")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="t-test seconds per variant")
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE)
    parser.add_argument("--bin", default=ctgrind.Options.binary)
    parser.add_argument("--driver", default=ctgrind.Options.driver)
    parser.add_argument("--out", default=ctgrind.Options.out)
    parser.add_argument("--results", default=Options.results)
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        raise InputError(f"SECONDS must be above 0 (got {args.seconds:g}): "
                         f"make leak-table SECONDS=3")
    if args.size < 1:
        raise InputError(f"--size must be at least 1 (got {args.size})")
    return Options(ctgrind.Options(args.bin, args.driver, args.out),
                   args.seconds, args.size, args.results, args.kernel)


def read_leak(path):
    """(columns, rows) of make leak-table's CSV, or None when absent."""
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error):
        return [], []  # shown as lacking its columns
    return reader.fieldnames or [], rows


def main(argv):
    opts = parse_options(argv)
    version = ctgrind.valgrind_version()
    registry = kernel_registry.from_binary(opts.binary)
    chosen = ctgrind.variants(registry, opts.kernel)
    results, results_note = load_results(opts.results, opts.size, registry)
    start, rows = time.monotonic(), []
    verdicts = ctgrind.check_variants(chosen, opts.ctgrind, version)
    for (_, _, supported), verdict in zip(chosen, verdicts):
        rows.append(measure_row(verdict, supported, opts, version, results,
                                registry))
        t = rows[-1].ttest
        print(f"leak-table {rows[-1].variant}: ctgrind "
              f"{rows[-1].ctgrind_cell()}; t-test "
              f"{f'{t.max_t:.1f} ({t.secret}): {t.verdict}' if t else rows[-1].note}",
              file=sys.stderr, flush=True)
    commands = [
        f"python3 -m cyclebench.leak.ctgrind <kernel> (valgrind "
        f"--tool=memcheck "
        f"{opts.ctgrind.driver} <kernel>@<isa>..., every variant of the "
        f"kernel in one process)",
        f"{opts.binary} leak <kernel>@<isa> --secret=key "
        f"--seconds={opts.seconds / 2:g} --size={opts.size}",
        f"{opts.binary} leak <kernel>@<isa> --secret=input "
        f"--seconds={opts.seconds / 2:g} --size={opts.size}"]
    with StagedFiles(opts.out) as files:
        files.add_text("summary.md", markdown(
            rows, opts, machine_line(registry), commands, results_note))
        files.add_text("summary.csv", csv_text(rows))
        files.add_figure("summary", chart(rows, registry), formats=("png",))
        files.commit()
    print(f"leak-table: {len(rows)} variants in "
          f"{time.monotonic() - start:.0f} s; {opts.out}/summary.md, .csv, "
          f".png")
    return 0


if __name__ == "__main__":
    run_main(main, "leak-table")
