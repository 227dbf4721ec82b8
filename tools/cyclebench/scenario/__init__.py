#!/usr/bin/python3
"""`make scenario NAME=<name>`: one of the seeds' experiments, rerun on this
machine through `cyclebench bench`, as out/scenarios/<name>.md (a table in
the seed's units), .csv, .png, and .json (the raw results).

A kernel the build lacks, or an ISA this CPU lacks, is a row that says so;
it never stops the scenario. Names: lioness, isa-ladder, disk, aead, bulk,
and all (every one of them).
"""
import csv
import glob
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from charts import hbars, log2_size_axis, plt  # noqa: E402
from output import ArgumentParser, StagedFiles, run_main  # noqa: E402
from results import (InputError, Results, bytes_per_second,  # noqa: E402
                     clock_unit, counterpart, parse, sig3, tsc_rate)

MIB = 1 << 20
TEN_MIB = 10 * MIB
NO_AESNI_ENV = {"OPENSSL_ia32cap": "~0x200000200000000"}
NOT_RUN = Results("(not run)", {}, {}, {})


# Tables

FORMATS = {
    "sig3": sig3,
    "int": lambda v: f"{v:,.0f}",
    "k": lambda v: f"{v:.2f}k",      # openssl speed's 1000s of bytes/s
    "x": lambda v: f"{v:.2f}x",
    "mib": lambda v: f"{v:,.1f}",
}


@dataclass
class Column:
    name: str          # the header, naming the unit
    fmt: str = "sig3"  # a key of FORMATS, for the markdown table


@dataclass
class Row:
    kernel: str
    isa: str
    values: list       # floats, None where there is no number
    note: str = ""
    label: str = None  # what the variant column shows, if not the ISA

    @property
    def variant(self):
        return self.label or self.isa


@dataclass
class Table:
    columns: list
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    variant_header: str = "isa"
    sections: list = field(default_factory=list)  # extra markdown

    def headers(self):
        return (["kernel", self.variant_header] +
                [c.name for c in self.columns] + ["note"])

    def markdown(self):
        lines = ["| " + " | ".join(self.headers()) + " |",
                 "|" + "---|" * len(self.headers())]
        for row in self.rows:
            cells = [FORMATS[c.fmt](v) if v is not None else "—"
                     for c, v in zip(self.columns, row.values)]
            lines.append("| " + " | ".join(
                [row.kernel, row.variant] + cells + [row.note]) + " |")
        return "\n".join(lines) + "\n"

    def csv(self):
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.headers())
        for row in self.rows:
            numbers = ["" if v is None else f"{v:.10g}" for v in row.values]
            writer.writerow([row.kernel, row.variant] + numbers + [row.note])
        return buf.getvalue()

    def measured_rows(self):
        return [r for r in self.rows if any(v is not None for v in r.values)]

    def add_variants(self, m, kernel, values, isas=None, note=None,
                     results=None):
        """A row per ISA of kernel (isas: a subset), best ISA first, with
        values(results, kernel, isa) -> [a number or None per column]; one
        row saying so when this build has no such kernel. Returns the rows
        added."""
        results = results or m.results
        blank = [None] * len(self.columns)
        if kernel not in m.listing:
            rows = [Row(kernel, "—", blank, "not available: this build has "
                        "no such kernel (see `cyclebench list`)")]
        else:
            rows = [variant_row(results, kernel, isa, supported, values, note,
                                blank)
                    for isa, supported in m.listing[kernel]
                    if isas is None or isa in isas]
        self.rows += rows
        return rows


# What was measured

@dataclass
class Measured:
    """`cyclebench list` ({kernel: [(isa, supported)]}, best ISA first) and
    the bench runs of a scenario ({label: Results}; "default" always)."""
    listing: dict
    runs: dict
    profiles_dir: str = "out/profiles"

    @property
    def results(self):
        return self.runs["default"]

    def context(self):
        return self.results.context

    def best_isa(self, kernel):
        return next((isa for isa, ok in self.listing.get(kernel, []) if ok),
                    None)


def parse_listing(text):
    listing = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and not line.startswith("#"):
            listing.setdefault(fields[0], []).append(
                (fields[1], fields[2] == "supported"))
    return listing


def why_missing(results, kernel, isa, supported):
    """The note for a variant with no number."""
    reason = results.skipped_reason(kernel, isa)
    if reason:
        return f"not measured: {reason}"
    error = results.error(kernel, isa)
    if error:
        return f"failed: {error}"
    if not supported:
        return "unsupported on this CPU"
    return "not measured: no result in this run"


def variant_row(results, kernel, isa, supported, values, note, blank):
    numbers = values(results, kernel, isa) if supported else blank
    if all(v is None for v in numbers):
        return Row(kernel, isa, blank,
                   why_missing(results, kernel, isa, supported))
    return Row(kernel, isa, numbers, note(kernel, isa) if note else "")


# The scenarios' tables: values(results, kernel, isa) -> a number per column

def ns_per_byte(results, kernel, isa, size):
    return results.median(kernel, isa, size, "ns_per_byte")


def throughput(results, kernel, isa, size):
    """Bytes per second at one size, or None."""
    ns = ns_per_byte(results, kernel, isa, size)
    return bytes_per_second(ns) if ns else None


LIONESS_SIZE = 509  # Tor's relay cell payload
LIONESS_KERNELS = ["lioness", "lioness12", "lioness8", "lioness-x4",
                   "sodium:lioness", "tor-relay-cell"]


def lioness_values(results, kernel, isa):
    ns = ns_per_byte(results, kernel, isa, LIONESS_SIZE)
    return [ns * LIONESS_SIZE, ns, bytes_per_second(ns) / MIB] if ns \
        else [None] * 3


def relay_cell_note(kernel, isa):
    if kernel != "tor-relay-cell":
        return ""
    return "software AES (no AES-NI)" if isa.startswith("generic") \
        else "with AES-NI"


def lioness_table(m):
    table = Table([Column(f"ns per {LIONESS_SIZE}-byte block or cell"),
                   Column("ns/byte"), Column("MiB/s", "mib")])
    for kernel in LIONESS_KERNELS:
        table.add_variants(m, kernel, lioness_values, note=relay_cell_note)
    table.notes += [
        "lioness, lioness12, lioness8: LIONESS over ChaCha20, 12 and 8 with "
        "keyed BLAKE2b, both at the row's ISA; sodium:lioness is the same "
        "composed from libsodium.",
        "lioness-x4: LIONESS (ChaCha20) four cells per call, their BLAKE2b "
        "passes in the four lanes of one register; ns per block is per "
        "cell, from the same per-byte figure.",
        "tor-relay-cell: Tor's relay crypto per 509-byte cell, AES-128-CTR "
        "plus the running SHA-1 digest; its generic row is the "
        "without-AES-NI baseline.",
        "MiB/s is 2^20 bytes per second, from the TSC-timed ns/byte.",
    ]
    table.sections.append(breakdown_section(m.profiles_dir))
    return table


def breakdown_section(profiles_dir):
    paths = sorted(glob.glob(os.path.join(profiles_dir, "lioness*",
                                          "breakdown.csv")))
    if not paths:
        return ("## Per-function breakdown\n\nNo profile yet: "
                f"{profiles_dir}/lioness*/breakdown.csv does not exist. Run "
                "`make profile KERNEL=lioness`, then this scenario again.\n")
    return "\n".join(breakdown_table(path) for path in paths)


def breakdown_table(path, limit=12):
    """`make profile`'s breakdown.csv as markdown, its first rows."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return f"## Per-function breakdown: `{path}`\n\n(empty)\n"
    columns = [c for c in ("symbol", "self_percent", "samples",
                           "cycles_per_byte") if c in rows[0]] or list(rows[0])
    lines = [f"## Per-function breakdown: `{path}`\n",
             "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(row[c] or "" for c in columns) + " |"
              for row in rows[:limit]]
    if len(rows) > limit:
        lines.append(f"\n({len(rows) - limit} more rows in the file)")
    return "\n".join(lines) + "\n"


LADDER_SIZE = 576


def isa_ladder_values(results, kernel, isa):
    tsc = results.median(kernel, isa, LADDER_SIZE, "tsc_cycles_per_byte")
    core = results.median(kernel, isa, LADDER_SIZE, "core_cycles_per_byte")
    generic = results.median(kernel, "generic", LADDER_SIZE,
                             "tsc_cycles_per_byte")
    if tsc is None:
        return [None] * 5
    return [tsc * LADDER_SIZE, tsc,
            core * LADDER_SIZE if core is not None else None, core,
            generic / tsc if generic else None]


def isa_ladder_table(m):
    source = m.context().get("core_clock_source", "estimated")
    table = Table([Column("TSC ticks/call", "int"), Column("TSC ticks/byte"),
                   Column(f"core cycles/call ({source})", "int"),
                   Column(f"core cycles/byte ({source})"),
                   Column("speedup over generic", "x")])
    for kernel in ["chacha20", "chacha12", "chacha8", "blake2b"]:
        table.add_variants(m, kernel, isa_ladder_values)
    core = ("counted by the PMU." if source == "pmu" else
            "estimated: TSC ticks times the calibrated core/TSC ratio "
            f"({m.context().get('core_tsc_ratio', '?')}), as this machine "
            "has no PMU.")
    table.notes += [
        f"One call processes {LADDER_SIZE} bytes: ChaCha encrypts them "
        "(DJB layout, 8-byte nonce), BLAKE2b hashes them to a 64-byte "
        "digest.",
        f"TSC ticks are what the harness reads; core cycles are {core}",
        "Speedup over generic is from TSC ticks/byte.",
    ]
    return table


DISK_SIZES = [512, 4096]
DISK_KERNELS = ["aes128-xts", "aes256-xts", "aes128-cbc", "aes256-cbc",
                "chacha8", "chacha12", "chacha20",
                "xchacha8", "xchacha12", "xchacha20",
                "openssl:camellia-128-cbc", "openssl:camellia-256-cbc",
                "openssl:bf-cbc", "openssl:des-ede3-cbc", "memcpy"]


def disk_values(results, kernel, isa):
    return [throughput(results, kernel, isa, size) for size in DISK_SIZES]


def disk_table(m):
    table = Table([Column(f"{s}-byte sectors (bytes/sec)", "int")
                   for s in DISK_SIZES])
    for kernel in DISK_KERNELS:
        table.add_variants(m, kernel, disk_values)
    table.notes += [
        "One call encrypts one sector. bytes/sec is 10^9 / (TSC-timed "
        "ns/byte).",
        "ChaCha and XChaCha per sector: the bench uses one fixed nonce "
        "where a disk would use the sector number. The cost is the same, "
        "as the nonce is an input and not work; XChaCha derives its subkey "
        "(HChaCha) on every call, as a per-sector nonce needs.",
        "AES-XTS and AES-CBC rows are encryption. CBC encryption is "
        "serial; its decryption (not measured here) runs blocks in "
        "parallel.",
        "memcpy is the memory-bandwidth line.",
    ]
    return table


AEAD_SIZES = [16, 64, 256, 1024, 8192, 16384]
AEAD_OURS = ["aes256-gcm", "chacha20-poly1305"]
AEAD_OPENSSL = ["openssl:aes-256-gcm", "openssl:chacha20-poly1305"]


def aead_values(results, kernel, isa):
    """openssl speed's units: 1000s of bytes per second."""
    return [v / 1000 if v else None
            for v in (throughput(results, kernel, isa, s) for s in AEAD_SIZES)]


def aead_table(m):
    table = Table([Column(f"{s} bytes (1000s of bytes/s)", "k")
                   for s in AEAD_SIZES], variant_header="variant")
    for kernel in AEAD_OURS:
        add_best_and_generic(table, m, kernel)
    for kernel in AEAD_OPENSSL:
        add_with_and_without_aesni(table, m, kernel)
    table.notes += [
        "openssl speed's units: thousands of bytes processed per second at "
        "each message size (from the TSC-timed ns/byte).",
        "Ours: the best ISA this CPU has (with AES-NI) and generic C "
        "(without). OpenSSL: as it runs by default, and in a second run "
        "with OPENSSL_ia32cap=\"~0x200000200000000\", which clears AES-NI "
        "and PCLMULQDQ.",
        "Each call encrypts and tags one message with no associated data.",
    ]
    return table


def add_best_and_generic(table, m, kernel):
    best = m.best_isa(kernel)
    aes = kernel.startswith("aes")
    for row in table.add_variants(m, kernel, aead_values,
                                  isas={best, "generic"}):
        if row.isa == best and best != "generic":
            row.label = f"{best} (best)"
            row.note = row.note or ("with AES-NI: " if aes else "") + \
                "our best ISA here"
        elif row.isa == "generic":
            row.note = row.note or ("without AES-NI: " if aes else "") + \
                "our generic C"


def add_with_and_without_aesni(table, m, kernel):
    if kernel not in m.listing:
        table.add_variants(m, kernel, aead_values)  # the "not available" row
        return
    for label, note in [("default", "OpenSSL as it runs by default"),
                        ("no-aesni", "OPENSSL_ia32cap clears AES-NI and "
                                     "PCLMULQDQ")]:
        for row in table.add_variants(m, kernel, aead_values,
                                      results=m.runs.get(label, NOT_RUN)):
            if row.isa == "external" and label == "no-aesni":
                row.label = "external, no AES-NI"
            if row.isa == "external" and not row.note:
                row.note = note


BULK_KERNELS = ["aes128-cbc", "aes256-cbc", "rc4", "chacha20"]


def ten_mb_seconds(results, kernel, isa):
    """Seconds for 10 MB: the floor of the repetitions, or None."""
    run = results.get(kernel, isa, TEN_MIB)
    ns = run.floor("ns_per_byte") if run else None
    return ns * TEN_MIB / 1e9 if ns else None


def bulk_values_of(m):
    """Encode from the default run; CBC decode from the --decrypt run (its
    blocks decrypt in parallel, unlike encryption); a stream cipher's decode
    is its encode."""
    decrypted = m.runs.get("decrypt", NOT_RUN)

    def values(results, kernel, isa):
        encode = ten_mb_seconds(results, kernel, isa)
        if "-cbc" not in kernel:
            return [encode, encode]
        return [encode, ten_mb_seconds(decrypted, kernel, isa)]
    return values


def bulk_note(kernel, isa):
    if "-cbc" in kernel:
        return "decode timed by a second run with --decrypt"
    return "decode = encode: the same keystream XOR"


def bulk_table(m):
    table = Table([Column("encode (s)"), Column("decode (s)")])
    for kernel in BULK_KERNELS:
        table.add_variants(m, kernel, bulk_values_of(m), note=bulk_note)
    table.notes += [
        f"10 MB is {TEN_MIB} bytes in one call; each number is the floor "
        "(minimum) of three repetitions, timed with the TSC.",
        "AES-CBC is the ciphertext-stealing kernel; 10 MB is a whole number "
        "of blocks, so no block is stolen. Its generic row is software AES; "
        "the other ISAs use AES-NI.",
        "RC4 is broken, and here for comparison only.",
    ]
    return table


# Charts

def bar_chart(table, title, columns, xlabel, log=False):
    """Horizontal bars of the given value columns for every measured row;
    with several columns, a group of bars per row, later columns paler."""
    rows = table.measured_rows()
    n = len(columns)
    height = 0.8 / n
    fig, ax = plt.subplots(figsize=(9, 1.4 + 0.3 * n * max(1, len(rows))))
    for j, col in enumerate(columns):
        offset = (j - (n - 1) / 2) * height
        kept = [(i + offset, (r.values[col], r.kernel, r.isa))
                for i, r in enumerate(rows) if r.values[col] is not None]
        if kept:
            offsets, bars = zip(*kept)
            hbars(ax, bars, offsets, height, alpha=1.0 - 0.45 * j,
                  label=table.columns[col].name if n > 1 else None)
    ax.set_yticks(range(len(rows)), [f"{r.kernel}@{r.variant}" for r in rows])
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    if n > 1 and rows:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def lines_over_sizes(table, title, sizes, ylabel):
    """A line per measured row across the size columns, on log axes: a
    colour per operation (ours and the library's alike), squares for the
    library, dashed without AES-NI (our generic C, OpenSSL masked)."""
    fig, ax = plt.subplots(figsize=(9, 5.5))
    operations = []
    for row in table.measured_rows():
        operation = counterpart(row.kernel)
        operations += [operation] if operation not in operations else []
        points = [(s, v) for s, v in zip(sizes, row.values) if v is not None]
        without = row.isa == "generic" or "no AES-NI" in row.variant
        ax.plot(*zip(*points), color=f"C{operations.index(operation)}",
                marker="s" if row.isa == "external" else "o", markersize=4,
                linestyle="--" if without else "-",
                label=f"{row.kernel}@{row.variant}")
    log2_size_axis(ax, sizes)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    if ax.lines:
        ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def lioness_chart(table, m):
    return bar_chart(table, f"LIONESS and Tor's relay cell at {LIONESS_SIZE} "
                     "bytes", [1], "ns/byte (lower is faster)")


def isa_ladder_chart(table, m):
    return bar_chart(table, f"ChaCha and BLAKE2b at {LADDER_SIZE} bytes per "
                     "ISA", [1], f"{clock_unit(m.context(), 'tsc')} "
                     "(lower is faster)")


def disk_chart(table, m):
    return bar_chart(table, "Sector encryption", [0, 1],
                     "bytes/sec (log scale, higher is faster)", log=True)


def aead_chart(table, m):
    return lines_over_sizes(table, "AES-256-GCM against ChaCha20-Poly1305",
                            AEAD_SIZES, "1000s of bytes/s (higher is faster)")


def bulk_chart(table, m):
    return bar_chart(table, "10 MB encode, floor of three runs", [0],
                     "seconds (lower is faster)")


# The scenarios

@dataclass
class ExtraRun:
    """A second bench run of some of the kernels, in a changed
    environment."""
    label: str
    prefix: str  # the kernels whose names start with it
    env: dict
    args: list = field(default_factory=list)  # more bench options


@dataclass
class Scenario:
    name: str
    title: str
    seed: str
    kernels: list
    sizes: list
    table: Callable   # Measured -> Table
    chart: Callable   # Table, Measured -> Figure
    repetitions: int = None  # fixed by the experiment, else the option's
    extra_runs: list = field(default_factory=list)


SCENARIOS = {s.name: s for s in [
    Scenario("lioness", f"LIONESS at Tor's {LIONESS_SIZE}-byte cell, per ISA",
             "LIONESS against Tor's cell_ops (the 2015 tor-dev post)",
             LIONESS_KERNELS, [LIONESS_SIZE], lioness_table, lioness_chart),
    Scenario("isa-ladder", f"ChaCha20/12/8 and BLAKE2b at {LADDER_SIZE} "
             "bytes per ISA level", "the chacha-opt and blake2b-opt tables",
             ["chacha20", "chacha12", "chacha8", "blake2b"], [LADDER_SIZE],
             isa_ladder_table, isa_ladder_chart),
    Scenario("disk", "sector encryption throughput at 512- and 4096-byte "
             "sectors", "the FreeBSD GELI table", DISK_KERNELS, DISK_SIZES,
             disk_table, disk_chart),
    Scenario("aead", "AES-256-GCM against ChaCha20-Poly1305",
             "the ChaCha20 against AES256-GCM gist (openssl speed)",
             AEAD_OURS + AEAD_OPENSSL, AEAD_SIZES, aead_table, aead_chart,
             extra_runs=[ExtraRun("no-aesni", "openssl:", NO_AESNI_ENV)]),
    Scenario("bulk", "10 MB encode and decode, floor of three runs",
             "the Firebird comparison", BULK_KERNELS, [TEN_MIB], bulk_table,
             bulk_chart, repetitions=3,
             extra_runs=[ExtraRun("decrypt", "aes", {}, ["--decrypt"])]),
]}


# Running

@dataclass
class Options:
    binary: str = "build/cyclebench"
    out: str = "out/scenarios"
    profiles: str = "out/profiles"
    min_time: float = None  # None: the sampler's default
    repetitions: int = 1    # the sampler pins each median within a run
    cpu: int = None  # None: the bench's default CPU


def cyclebench_list(binary):
    try:
        done = subprocess.run([binary, "list"], capture_output=True,
                              text=True)
    except OSError as e:
        raise InputError(f"cannot run {binary}: {e.strerror}: build it with "
                         f"`make`") from None
    if done.returncode != 0:
        raise InputError(f"`{binary} list` failed (exit {done.returncode}): "
                         f"rebuild it with `make`")
    return parse_listing(done.stdout)


def bench_command(scenario, kernels, opts, args=()):
    """The bench command line, less its --benchmark_out."""
    reps = scenario.repetitions or opts.repetitions
    return [opts.binary, "bench", *args, "--kernel=" + ",".join(kernels),
            "--sizes=" + ",".join(map(str, scenario.sizes)),
            f"--benchmark_repetitions={reps}"] + (
                [f"--benchmark_min_time={opts.min_time}"]
                if opts.min_time is not None else []) + (
                [f"--cpu={opts.cpu}"] if opts.cpu is not None else [])


def run_bench(scenario, kernels, opts, env, label, args=()):
    """One bench run: (Results, its raw JSON)."""
    with tempfile.TemporaryDirectory(prefix="cyclebench-scenario-") as tmp:
        path = os.path.join(tmp, "results.json")
        command = bench_command(scenario, kernels, opts, args) + [
            f"--benchmark_out={path}", "--benchmark_out_format=json"]
        done = subprocess.run(command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True,
                              env={**os.environ, **env})
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise InputError(f"scenario {scenario.name}: `cyclebench bench` "
                             f"({label} run) failed with exit "
                             f"{done.returncode}: {said}")
        with open(path, encoding="utf-8") as f:
            raw = f.read()
    return parse(json.loads(raw), f"{scenario.name} ({label} run)"), raw


def runnable(listing, kernels):
    """The kernels with at least one ISA this CPU supports."""
    return [k for k in kernels if any(ok for _, ok in listing.get(k, []))]


def shown(command, env):
    return " ".join([f"{k}={shlex.quote(v)}" for k, v in env.items()] +
                    [shlex.quote(c) for c in command])


def measure(scenario, opts):
    """Runs the scenario's benchmarks: (Measured, {label: raw JSON}, the
    commands run)."""
    listing = cyclebench_list(opts.binary)
    plans = [("default", runnable(listing, scenario.kernels), {}, [])]
    plans += [(x.label, runnable(listing, [k for k in scenario.kernels
                                           if k.startswith(x.prefix)]), x.env,
               x.args)
              for x in scenario.extra_runs]
    runs, raws, commands = {}, {}, []
    for label, kernels, env, args in plans:
        runs[label] = NOT_RUN
        if kernels:
            commands.append(shown(bench_command(scenario, kernels, opts, args),
                                  env))
            print(f"scenario {scenario.name}: {commands[-1]}", file=sys.stderr)
            runs[label], raws[label] = run_bench(scenario, kernels, opts,
                                                 env, label, args)
    return Measured(listing, runs, opts.profiles), raws, commands


def machine_line(context):
    if not context:
        return "nothing was run: no kernel of this scenario is available"
    return (f"{context.get('cpu_model', '?')}, TSC {tsc_rate(context)}, "
            f"core clock {context.get('core_clock_source', '?')}; "
            f"{context.get('compiler', '?')}; commit "
            f"{context.get('git_commit', '?')}; {context.get('date', '?')}")


def contention(m):
    """Warnings for the runs whose CPU was shared."""
    return [w for w in (r.contention() for r in m.runs.values()) if w]


def markdown(scenario, table, m, commands):
    parts = [f"# Scenario `{scenario.name}`: {scenario.title}\n",
             f"Seed: {scenario.seed}.\n",
             f"Machine: {machine_line(m.context())}.\n",
             f"Rerun with `make scenario NAME={scenario.name}`; it ran:\n",
             "".join(f"    {c}\n" for c in commands) or "    (nothing)\n",
             "".join(f"**Warning:** {w}.\n\n" for w in contention(m)),
             table.markdown(),
             "Notes:\n\n" + "".join(f"- {n}\n" for n in table.notes)]
    return "\n".join(p for p in parts + table.sections if p)


def write_scenario(scenario, opts):
    m, raws, commands = measure(scenario, opts)
    table = scenario.table(m)
    figure = scenario.chart(table, m)
    with StagedFiles(opts.out) as files:
        files.add_text(f"{scenario.name}.md",
                       markdown(scenario, table, m, commands))
        files.add_text(f"{scenario.name}.csv", table.csv())
        files.add_figure(scenario.name, figure, formats=("png",))
        for label, raw in raws.items():
            suffix = "" if label == "default" else f"-{label}"
            files.add_text(f"{scenario.name}{suffix}.json", raw)
        files.commit()
    for warning in contention(m):
        print(f"scenario {scenario.name}: warning: {warning}",
              file=sys.stderr)
    print(f"scenario {scenario.name}: {opts.out}/{scenario.name}.md, .csv, "
          f".png ({len(table.measured_rows())} of {len(table.rows)} rows "
          f"measured)")


def main(argv):
    names = list(SCENARIOS) + ["all"]
    parser = ArgumentParser(prog="scenario.py", description=__doc__)
    parser.add_argument("name", nargs="?", help=" | ".join(names))
    parser.add_argument("--bin", default=Options.binary)
    parser.add_argument("--out", default=Options.out)
    parser.add_argument("--profiles", default=Options.profiles)
    parser.add_argument("--min-time", type=float, default=Options.min_time,
                        help="seconds each benchmark samples at least "
                        "(default: the sampler's)")
    parser.add_argument("--repetitions", type=int,
                        default=Options.repetitions)
    parser.add_argument("--cpu", type=int, help="the CPU to pin to")
    args = parser.parse_args(argv)
    if args.name not in names:
        said = f"unknown scenario '{args.name}'" if args.name else \
            "no scenario named"
        raise InputError(f"{said}: make scenario NAME=<one of "
                         f"{', '.join(names)}>")
    opts = Options(args.bin, args.out, args.profiles, args.min_time,
                   args.repetitions, args.cpu)
    for name in (list(SCENARIOS) if args.name == "all" else [args.name]):
        write_scenario(SCENARIOS[name], opts)
    return 0


if __name__ == "__main__":
    run_main(main)
