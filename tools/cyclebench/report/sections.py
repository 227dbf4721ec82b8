"""The report's content, as blocks (blocks.py) drawn twice, as one page and
as Markdown: per machine, its context, ours against the peers with ratios
(peers.py, as the bench summary pairs them), the ISA ladder at 576 bytes,
TSC ticks/byte against message size, and leak verdicts when make
leak-table's CSV is there; across machines, a table of every kernel@isa
at the sizes nearest 64, 576 and 16384 bytes, in ns/byte (core
cycles/byte when every machine counts them with a PMU), and ours against
the best peer per machine.
"""
import socket
import time

from matplotlib.colors import to_hex

from ..drawing import table_driven, variant_colour
from ..leak.table import LEAK_CSV
from ..peers import (COUNTER, SUMMARY_SIZES, comparisons, nearest_sizes,
                     ratio_text)
from ..registry import natural_key
from ..results import Key, skipped_reasons
from ..summary import not_run, precision_lines
from ..units import clock_unit, sig3, tsc_rate
from .blocks import Cell, Facts, Figures, Para, Section, Table, to_markdown
from .html_page import to_html
from .machines import FLEET_HOST
from .svg import Bar, Series, bar_chart, line_chart

# make leak-table's columns, in the order shown; others follow as they come.
LEAK_COLUMNS = ["kernel", "isa", "size", "secret", "measurements", "max_t",
                "ctgrind", "ctgrind_sites", "verdict"]
LADDER_SIZE = 576
MIXED = " †"  # ours and the peer come from different runs of the machine
MACHINE_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                   "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
TITLE = "cyclebench report"


def machine_colour(index):
    return MACHINE_COLOURS[index % len(MACHINE_COLOURS)]


def hex_colour(registry, kernel, isa):
    return to_hex(variant_colour(registry, kernel, isa))


def anchor(index):
    return f"machine-{index + 1}"


# One machine

def core_clock(ctx):
    if ctx.get("core_clock_source") == "pmu":
        return "counted by the PMU (cycles event)"
    ratio = float(ctx.get("core_tsc_ratio") or 0)
    hz = float(ctx.get("tsc_hz") or 0)
    if not ratio:
        return "unknown (no PMU, no core/TSC ratio recorded)"
    return (f"estimated: {ratio:.3f} core cycles per TSC tick from a chain "
            f"of dependent adds (about {hz * ratio / 1e9:.2f} GHz); no PMU "
            f"cycles event")


def pmu_events(ctx):
    opened = ctx.get("pmu_events_opened") or "none"
    missing = list(skipped_reasons(ctx.get("pmu_events_unavailable", "")))
    return opened + (f"; unavailable: {', '.join(missing)}" if missing
                     else "")


def context_facts(machine):
    ctx = machine.context
    host = ctx.get("host_name", "?")
    if ctx.get(FLEET_HOST):
        host += f" (inventory host {ctx[FLEET_HOST]})"
    runs = ", ".join(f"{r.context.get('run_id', '?')} ({r.path})"
                     for r in machine.runs)
    return Facts([
        ("CPU", ctx.get("cpu_model", "unknown")),
        ("host", host),
        ("features", ctx.get("cpu_features", "?")),
        ("TSC", f"{tsc_rate(ctx)} ({ctx.get('tsc_hz_source', '?')})"
         if ctx.get("tsc_hz") else tsc_rate(ctx)),
        ("core clock", core_clock(ctx)),
        ("PMU events", pmu_events(ctx)),
        ("turbo", ctx.get("turbo", "?")),
        ("pinned CPU", ctx.get("pinned_cpu", "?")),
        ("compiler", f"{ctx.get('compiler', '?')}, {ctx.get('cflags', '')}"),
        ("commit", ctx.get("git_commit", "?")),
        (f"runs (newest first; {len(machine.runs)})", runs),
        ("sampling", "; ".join(precision_lines(machine.merged)) or "?"),
    ])


def peer_cell(machine, row, peer):
    mixed = machine.mixed(Key(row.kernel, row.isa, row.size),
                          Key(peer.kernel, "external", row.size))
    return Cell(str(peer) + (MIXED if mixed else ""), {
        "data-kernel": row.kernel, "data-isa": row.isa,
        "data-size": row.size, "data-peer": peer.kernel,
        "data-ratio": ratio_text(peer.ratio)})


def peers_table(machine):
    rows = [r for r in comparisons(machine.merged) if r.peers]
    if not rows:
        return [Para("No kernel of ours ran beside an external kernel that "
                     "computes the same thing.")]
    libraries = sorted({p.library for r in rows for p in r.peers})
    unit = clock_unit(machine.context, "tsc")
    table = Table(["kernel", "fastest ISA", "bytes", f"ours ({unit})"]
                  + [f"{lib} (ratio)" for lib in libraries], [],
                  caption="Medians; ratio = ours / theirs, below 1.00x ours "
                  "is faster.", attrs={"class": "peers"})
    for r in rows:
        by_lib = {p.library: p for p in r.peers}
        table.rows.append([r.kernel, r.isa, r.size, sig3(r.value)] + [
            peer_cell(machine, r, by_lib[lib]) if lib in by_lib else "—"
            for lib in libraries])
    blocks = [table]
    if any(MIXED in c.text for row in table.rows for c in row
           if isinstance(c, Cell)):
        blocks.append(Para(f"{MIXED.strip()} ours and the peer come from "
                           f"different runs of this machine (the newest run "
                           f"of each benchmark is shown): read that ratio "
                           f"with care."))
    return blocks


def ladder_charts(machine, size):
    results = machine.merged
    unit = clock_unit(results.context, "tsc")
    charts = []
    for fam, panels in results.families().items():
        groups = []
        for panel, variants in panels.items():
            bars = [Bar(isa if isa != "external" else kernel, value,
                        hex_colour(results.kernels, kernel, isa),
                        isa == "external")
                    for kernel, isa in variants
                    for value in [results.median(kernel, isa, size, COUNTER)]
                    if value]
            if bars:
                groups.append((panel, bars))
        if groups:
            charts.append((bar_chart(f"{fam} at {size} B", f"{unit}, lower "
                                     f"is faster", groups),
                           f"{fam}: ISA ladder at {size} bytes ({unit})"))
    return charts


def series_label(registry, kernel, isa):
    """The ISA for ours, "(table-driven)" after it where its lookups follow
    the key and data (as make plots' legends say); the kernel for a
    peer's."""
    if isa == "external":
        return kernel
    return isa + (" (table-driven)" if table_driven(registry, kernel, isa)
                  else "")


def size_charts(machine):
    results = machine.merged
    unit = clock_unit(results.context, "tsc")
    charts = []
    for fam, panels in results.families().items():
        for panel, variants in panels.items():
            lines = [Series(series_label(results.kernels, kernel, isa),
                            hex_colour(results.kernels, kernel, isa),
                            isa == "external",
                            results.series(kernel, isa, COUNTER))
                     for kernel, isa in variants]
            lines = [s for s in lines if s.points]
            if lines:
                charts.append((line_chart(panel, unit, lines),
                               f"{panel}: {unit} against message size"))
    return charts


def ladder_section(machine):
    sizes = sorted({key.size for key in machine.merged.runs})
    size = nearest_sizes(sizes, [LADDER_SIZE])[0]
    charts = ladder_charts(machine, size)
    note = [] if size == LADDER_SIZE else [Para(
        f"No run at {LADDER_SIZE} bytes: the nearest size run, {size} "
        f"bytes, stands in.", "warning")]
    return Section(f"ISA ladder at {size} bytes", note + [Figures(charts)])


def leak_blocks(leak):
    """make leak-table's verdicts, or why there are none."""
    if leak is None:
        return [Para(f"No leak evidence found on disk for this machine "
                     f"({LEAK_CSV} is absent; `make leak-table` writes it "
                     f"on the machine it runs on).")]
    columns, rows = leak
    missing = [c for c in ("kernel", "isa", "verdict") if c not in columns]
    if missing:
        return [Para(f"{LEAK_CSV} lacks the column(s) {', '.join(missing)}: "
                     f"rerun `make leak-table`.", "warning")]
    shown = [c for c in LEAK_COLUMNS if c in columns] + [
        c for c in columns if c not in LEAK_COLUMNS]
    return [Table(shown, [[row.get(c) or "" for c in shown] for row in rows],
                  caption=f"From {LEAK_CSV}.", attrs={"class": "leak"})]


def not_run_blocks(machine):
    groups = not_run(machine.merged)
    if not groups:
        return []
    return [Section("Not run", [Facts([(why, ", ".join(names))
                                       for why, names in groups.items()])])]


def machine_section(index, machine, leak):
    warnings = [Para(w, "warning") for w in
                (r.contention() for r in machine.runs) if w]
    return Section(
        f"Machine {index + 1}: {machine.label}",
        [context_facts(machine)] + warnings + [
            Section("Ours against the peers", peers_table(machine)),
            ladder_section(machine),
            Section(f"{clock_unit(machine.context, 'tsc')} against message "
                    f"size", [Figures(size_charts(machine))]),
            Section("Leak verdicts", leak_blocks(leak)),
        ] + not_run_blocks(machine),
        anchor=anchor(index), attrs={"data-machine": machine.label})


def emulated_section(index, machine):
    """A host whose runs were timed under an emulator (bench --emulated):
    what it is and what ran, and no figure, since each describes the
    emulator rather than a CPU."""
    ctx = machine.context
    ran = {}
    for key in machine.merged.runs:
        ran.setdefault(f"{key.kernel}@{key.isa}", []).append(key.size)
    return Section(
        f"Machine {index + 1}: {machine.label} (emulated: no speeds)", [
            Para(f"Timed under an emulator ({machine.merged.emulator}), so "
                 f"its figures describe the emulator, not a CPU: none is "
                 f"shown, and it is left out of the tables across "
                 f"machines.", "warning"),
            Facts([
                ("architecture", ctx.get("arch", "?")),
                ("CPU (as emulated)", ctx.get("cpu_model", "?")),
                ("host", ctx.get("host_name", "?")),
                ("features", ctx.get("cpu_features", "?")),
                ("timer", ctx.get("timer_clock", "tsc")),
                ("compiler", f"{ctx.get('compiler', '?')}, "
                             f"{ctx.get('cflags', '')}"),
                ("commit", ctx.get("git_commit", "?")),
                (f"ran, passing their self-tests ({len(ran)})", "; ".join(
                    f"{v} at {', '.join(map(str, sorted(sizes)))} B"
                    for v, sizes in sorted(ran.items(), key=lambda r:
                                           natural_key(r[0])))),
            ])] + not_run_blocks(machine),
        anchor=anchor(index), attrs={"data-machine": machine.label,
                                     "data-emulated": "true"})


# Across machines

def cross_counter(machines):
    """(counter, unit): core cycles only when every machine counted them;
    TSC ticks of different TSC rates are not comparable, ns are."""
    if all(m.context.get("core_clock_source") == "pmu" for m in machines):
        return "core_cycles_per_byte", "core cycles/byte (counted by the " \
            "PMU on every machine)"
    return "ns_per_byte", "ns/byte, timed by each machine's timer (the " \
        "TSC, or the generic timer on aarch64; not core cycles: not every " \
        "machine counts them with a PMU; not timer ticks: those of " \
        "different rates do not compare)"


def report_sizes(machines):
    return nearest_sizes(sorted({key.size for m in machines
                                 for key in m.merged.runs}), SUMMARY_SIZES)


def variant_order(registry, variant):
    """Family, then each kernel of ours with its peers after it, each
    kernel's ISAs lowest first."""
    kernel, isa = variant
    k = registry.kernel(kernel)
    return (k.family, natural_key(k.counterpart), k.external,
            registry.isa_rank(kernel, isa), kernel)


def machine_header(machine):
    return Cell(machine.label, {"data-machine": machine.label,
                                "title": machine.context.get("cpu_model",
                                                             "")})


def across_table(machines, sizes, counter):
    registry = machines[0].merged.kernels
    variants = sorted({(key.kernel, key.isa) for m in machines
                       for key in m.merged.runs},
                      key=lambda v: variant_order(registry, v))
    table = Table(["kernel@isa", "bytes"] + [
        machine_header(m) for m in machines], [],
        attrs={"id": "by-machine", "data-unit": counter})
    for kernel, isa in variants:
        for size in sizes:
            values = [m.merged.median(kernel, isa, size, counter)
                      for m in machines]
            if not any(values):
                continue
            present = [v for v in values if v]
            table.rows.append([f"{kernel}@{isa}", size] + [
                Cell(sig3(v), {"data-machine": m.label},
                     strong=v == min(present) and len(present) > 1)
                if v else Cell("—", {"data-machine": m.label})
                for m, v in zip(machines, values)])
    return table


def best_against_peer(machine, size):
    """{kernel: (our isa, best Peer)} at size."""
    best = {}
    for row in comparisons(machine.merged, [size]):
        if row.peers:
            best[row.kernel] = (row.isa, min(row.peers, key=lambda p:
                                             p.value))
    return best


def versus_section(machines, sizes):
    """Per machine, each kernel of ours at its fastest ISA there against
    the fastest peer there, as a ratio: unit-free, so clocks don't matter."""
    charts, rows = [], []
    for size in sizes:
        best = [best_against_peer(m, size) for m in machines]
        kernels = sorted({k for b in best for k in b}, key=natural_key)
        if not kernels:
            continue
        groups = [(k, [Bar(m.label, b[k][1].ratio, machine_colour(i),
                           text=ratio_text(b[k][1].ratio))
                       for i, (m, b) in enumerate(zip(machines, best))
                       if k in b]) for k in kernels]
        charts.append((bar_chart(f"ours / best peer at {size} B",
                                 "ratio, below 1 ours is faster", groups,
                                 reference=1.0),
                       f"Ours (fastest ISA) against the best peer at {size} "
                       f"bytes, per machine"))
        rows += [[k, size] + [
            Cell(f"{ratio_text(b[k][1].ratio)} ({b[k][0]} vs "
                 f"{b[k][1].kernel})", {"data-machine": m.label})
            if k in b else "—" for m, b in zip(machines, best)]
            for k in kernels]
    if not rows:
        return Section("Ours against the best peer, per machine", [Para(
            "No kernel of ours ran beside a peer on any machine.")])
    return Section("Ours against the best peer, per machine", [
        Para("Each kernel of ours at its fastest ISA on a machine against "
             "the fastest external kernel that computes the same thing "
             "there: ours / theirs, below 1.00x ours is faster. Ratios are "
             "unit-free, so machines with different clocks compare."),
        Figures(charts),
        Table(["kernel", "bytes"] + [machine_header(m) for m in machines],
              rows, attrs={"id": "versus"})])


def across_section(machines):
    sizes = report_sizes(machines)
    counter, unit = cross_counter(machines)
    return Section("Across machines", [
        Table(["machine", "CPU", "TSC", "core clock", "commit", "runs"], [
            [machine_header(m), m.context.get("cpu_model", "?"),
             tsc_rate(m.context),
             m.context.get("core_clock_source", "?"),
             m.context.get("git_commit", "?"), len(m.runs)]
            for m in machines], attrs={"id": "machines"}),
        versus_section(machines, sizes),
        Section("Every kernel on every machine", [
            Para(f"Medians in {unit}. Rows are kernel@isa at the sizes run "
                 f"nearest {', '.join(map(str, SUMMARY_SIZES))} bytes; the "
                 f"fastest machine of each row is in bold; — means that "
                 f"machine did not run it."),
            across_table(machines, sizes, counter)]),
    ], anchor="across")


# The whole report

def leak_owner(machines):
    """The machine this report is made on (out/leak/ is local): the one
    whose host name is this host's, not a fleet host."""
    here = socket.gethostname()
    return next((m for m in machines if m.context.get("host_name") == here
                 and not m.context.get(FLEET_HOST)), None)


def head_blocks(machines, failures):
    runs = sum(len(m.runs) for m in machines)
    names = "; ".join(f"{m.label} ({m.context.get('cpu_model', '?')}"
                      f"{', emulated: no speeds' if m.merged.emulator else ''})"
                      for m in machines)
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    blocks = [Para(f"{len(machines)} machine(s) from {runs} run(s): "
                   f"{names}. Generated {made}.")]
    blocks += [Para(f"Fleet host {f.host} failed: {f.message}", "failed")
               for f in failures]
    unknown = machines[0].merged.kernels.unknown_note(
        {key.kernel for m in machines for key in m.merged.runs})
    if unknown:
        blocks.append(Para(unknown, "warning"))
    blocks.append(Para("Within a machine, figures are timer ticks per "
                       "byte (the TSC's; the generic timer's on aarch64; "
                       "medians; lower is faster) and ratios are ours / "
                       "theirs from the same machine. Across machines, "
                       "the unit is named above each table."))
    return blocks


def build(machines, failures, leak):
    owner = leak_owner(machines)
    head = head_blocks(machines, failures)
    timed = [m for m in machines if not m.merged.emulator]
    body = ([across_section(timed)] if timed else []) + [
        emulated_section(i, m) if m.merged.emulator else
        machine_section(i, m, leak if m is owner else None)
        for i, m in enumerate(machines)]
    if leak is not None and owner is None:
        body.append(Section(f"Leak verdicts of this host "
                            f"({socket.gethostname()}), whose results are "
                            f"not in this report", leak_blocks(leak)))
    nav = ([("across", "Across machines")] if timed else []) + [
        (anchor(i), m.label + (" (emulated)" if m.merged.emulator else ""))
        for i, m in enumerate(machines)]
    return to_html(TITLE, head, nav, body), to_markdown(TITLE, head + body)
