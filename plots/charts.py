"""The figures of `make plots`, per family of kernels: cycles/byte against
message size, the ISA ladder at one size, the speedup over generic, and
ours over each peer against size.
Families, the panels in them (a kernel of ours with the external kernels
that compute the same thing) and the order of ISAs come from the run's
registry (Results.kernels).

Colours, markers, the size axis and the bars are cyclebench.drawing's, the
same in every figure of every command. Cycles/byte and the ladders are on
log axes: a family's rows span two decades or more (8 bytes against
16 KiB, generic against the vector rows), and on a linear axis the rows
that matter at 16 KiB are one line at the bottom. Each point carries its
samples' quartiles as a band; a benchmark whose samples straddle two
levels (Results' Run.straddles) is ringed.
"""
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from cyclebench.drawing import (hbars, log2_size_axis, plt, table_driven,
                                variant_colour, variant_marker)
from cyclebench.peers import comparisons
from cyclebench.units import clock_counter, clock_unit

# The ring drawn around a point whose samples straddle two levels.
STRADDLE_MARK = dict(marker="o", markersize=11, markerfacecolor="none",
                     markeredgecolor="black", markeredgewidth=0.8,
                     linestyle="none")


def variant_label(registry, kernel, isa, panel):
    """The legend entry: the ISA for our own kernels, the library for an
    external one (its full name when it sits in another kernel's panel);
    in a family with a table-driven row, each row of ours says which kind
    it is."""
    if isa == "external":
        return f"{registry.library(kernel)} (external)"
    label = isa if kernel == panel else f"{kernel}@{isa}"
    # auto's kind is whichever rows it measured fastest: not said.
    if table_driven(registry, kernel, "generic") and isa != "auto":
        kind = ("table-driven" if table_driven(registry, kernel, isa)
                else "constant-time")
        label += f", {kind}"
    return label


def log_value_axis(axis, subs=(1.0, 2.0, 5.0)):
    """A log axis whose ticks read as plain numbers (0.5, 2, 10)."""
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def panel_grid(n_panels, title):
    """Panels with room on the right of each for its legend (outside_legend):
    on log axes the lines fill the panel, and a legend inside hides some."""
    cols = min(3, n_panels)
    rows = (n_panels + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(7.6 * cols, 4.2 * rows),
                             squeeze=False)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig, list(axes.flat[:n_panels])


def finish(fig):
    """Lays the panels out below the figure's title."""
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig.get_figheight()))


def machine(results):
    return results.context.get("cpu_model", "unknown CPU")


def draw_line(ax, registry, points, kernel, isa, panel, label=None):
    sizes, values = zip(*points)
    colour = variant_colour(registry, kernel, isa)
    hollow = table_driven(registry, kernel, isa)
    ax.plot(sizes, values, marker=variant_marker(isa), markersize=4,
            linestyle="--" if isa == "external" else "-",
            color=colour, markerfacecolor="white" if hollow else colour,
            label=label or variant_label(registry, kernel, isa, panel))


def draw_spread(ax, results, kernel, isa, counter):
    """The quartile band of each point, and a ring on each benchmark whose
    samples straddle two levels. Returns whether any was ringed."""
    runs = sorted((key.size, run) for key, run in results.runs.items()
                  if (key.kernel, key.isa) == (kernel, isa)
                  and run.median(counter) is not None)
    bands = [(size, *run.quartiles(counter)) for size, run in runs
             if run.quartiles(counter)]
    if bands:
        sizes, q1, q3 = zip(*bands)
        ax.fill_between(sizes, q1, q3, alpha=0.18, linewidth=0,
                        color=variant_colour(results.kernels, kernel, isa))
    ringed = [(size, run.median(counter)) for size, run in runs
              if run.straddles(counter)]
    if ringed:
        ax.plot(*zip(*ringed), **STRADDLE_MARK)
    return bool(ringed)


def outside_legend(ax, ringed=False):
    """The panel's legend on its right; with the ring's entry when a point
    was ringed."""
    handles, labels = ax.get_legend_handles_labels()
    if ringed:
        handles.append(Line2D([], [], **STRADDLE_MARK))
        labels.append("samples at two levels\n(q3/q1 >= 1.25)")
    ax.legend(handles, labels, fontsize="small", loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


# The three figures

def cycles_per_byte_figure(results, fam, panels, clock):
    counter, unit = clock_counter(clock), clock_unit(results.context, clock)
    fig, axes = panel_grid(len(panels), f"{fam}: {unit} against message "
                                        f"size ({machine(results)})")
    for ax, (panel, variants) in zip(axes, panels.items()):
        sizes, ringed = set(), False
        for kernel, isa in variants:
            points = results.series(kernel, isa, counter)
            if points:
                draw_line(ax, results.kernels, points, kernel, isa, panel)
                ringed |= draw_spread(ax, results, kernel, isa, counter)
                sizes.update(s for s, _ in points)
        log2_size_axis(ax, sizes)
        ax.set_yscale("log")
        log_value_axis(ax.yaxis)
        ax.set_ylabel(f"{unit} (log scale)")
        ax.set_title(panel)
        ax.grid(alpha=0.3, which="both")
        outside_legend(ax, ringed)
    finish(fig)
    return fig


def ladder_figure(results, fam, panels, clock, size):
    """Horizontal bars at one size, a group per panel, slowest ISA at the
    bottom of each group. None when no variant ran at that size."""
    counter, unit = clock_counter(clock), clock_unit(results.context, clock)
    bars = [(f"{kernel}@{isa}", results.median(kernel, isa, size, counter),
             kernel, isa)
            for variants in panels.values() for kernel, isa in variants]
    bars = [b for b in bars if b[1] is not None]
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.32 * len(bars)))
    rows = range(len(bars))
    hbars(ax, results.kernels,
          [(value, kernel, isa) for _, value, kernel, isa in bars])
    ax.set_yticks(list(rows), [
        name + (" (table-driven)" if table_driven(results.kernels, kernel,
                                                  isa) else "")
        for name, _, kernel, isa in bars])
    ax.invert_yaxis()
    ax.set_xscale("log")
    log_value_axis(ax.xaxis)
    values = [b[1] for b in bars]
    # Bars on a log axis start at its left edge: a little below the
    # smallest, so every bar shows, and room on the right for the labels.
    ax.set_xlim(min(values) / 1.5, max(values) * 2.5)
    ax.set_xlabel(f"{unit} at {size} bytes, log scale (lower is faster)")
    ax.set_title(f"{fam}: ISA ladder at {size} bytes ({machine(results)})")
    ax.grid(axis="x", alpha=0.3, which="both")
    fig.tight_layout()
    return fig


def speedup_points(results, kernel, isa, panel, counter):
    """[(size, generic median / this median)] against our generic of the
    panel's kernel, at the sizes both ran."""
    generic = dict(results.series(panel, "generic", counter))
    return [(size, generic[size] / value)
            for size, value in results.series(kernel, isa, counter)
            if size in generic and value > 0]


def speedup_figure(results, fam, panels, clock):
    """None when no panel of the family has a generic variant and another
    to set against it."""
    counter, unit = clock_counter(clock), clock_unit(results.context, clock)
    with_generic = {p: v for p, v in panels.items()
                    if (p, "generic") in v and len(v) > 1}
    if not with_generic:
        return None
    fig, axes = panel_grid(len(with_generic), f"{fam}: speedup over our "
                           f"generic C, from {unit} ({machine(results)})")
    for ax, (panel, variants) in zip(axes, with_generic.items()):
        sizes = set()
        for kernel, isa in variants:
            points = speedup_points(results, kernel, isa, panel, counter)
            if points and isa != "generic":
                draw_line(ax, results.kernels, points, kernel, isa, panel)
                sizes.update(s for s, _ in points)
        if sizes:
            outside_legend(ax)
        ax.axhline(1.0, color="gray", linewidth=0.8)
        log2_size_axis(ax, sizes)
        ax.set_ylabel("speedup over generic (x)")
        ax.set_title(panel)
        ax.grid(alpha=0.3)
    finish(fig)
    return fig


def ratio_points(results, panels, counter):
    """{panel: {peer: [(size, ours / its)]}} for the panels of a family
    whose kernel of ours has a peer: ours at its fastest ISA at each size,
    as the bench summary's table has it (peers.comparisons)."""
    ours = [p for p in panels if not results.kernels.kernel(p).external]
    points = {}
    for row in comparisons(results, sizes=sorted(
            {key.size for key in results.runs}), counter=counter):
        if row.kernel in ours:
            for peer in row.peers:
                points.setdefault(row.kernel, {}).setdefault(
                    peer.kernel, []).append((row.size, peer.ratio))
    return points


def ratio_figure(results, fam, panels, clock):
    """Ours over each peer against size, a line at 1.0: the summary's
    table as a picture. None when no kernel of the family has a peer."""
    counter, unit = clock_counter(clock), clock_unit(results.context, clock)
    points = ratio_points(results, panels, counter)
    if not points:
        return None
    fig, axes = panel_grid(len(points), f"{fam}: ours (fastest ISA at each "
                           f"size) over each peer, from {unit} "
                           f"({machine(results)})")
    for ax, (panel, peers) in zip(axes, points.items()):
        sizes = set()
        for peer, line in peers.items():
            draw_line(ax, results.kernels, line, peer, "external", panel,
                      label=f"ours / {results.kernels.library(peer)} "
                            f"({peer})")
            sizes.update(s for s, _ in line)
        ax.axhline(1.0, color="gray", linewidth=1.2)
        log2_size_axis(ax, sizes)
        ax.set_yscale("log", base=2)
        # Ratios span less than a decade: finer ticks.
        log_value_axis(ax.yaxis, subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0))
        ax.set_ylabel("ours / peer (below 1: ours faster)")
        ax.set_title(panel)
        ax.grid(alpha=0.3, which="both")
        outside_legend(ax)
    finish(fig)
    return fig


def results_figures(results, clock, ladder_size):
    """(file stem, figure) for every family in the results, one at a time
    (a full sweep makes dozens); and notes on the figures left out, which
    the caller reads once the figures are done."""
    unknown = results.kernels.unknown_note({k.kernel for k in results.runs})
    notes = [unknown] if unknown else []

    def figures():
        for fam, panels in results.families().items():
            yield f"{fam}-cycles-per-byte", cycles_per_byte_figure(
                results, fam, panels, clock)
            ladder = ladder_figure(results, fam, panels, clock, ladder_size)
            if ladder:
                yield f"{fam}-isa-ladder-{ladder_size}", ladder
            else:
                notes.append(f"{fam}: no run at {ladder_size} bytes, so no "
                             f"ISA ladder (bench with --sizes including "
                             f"{ladder_size})")
            ratio = ratio_figure(results, fam, panels, clock)
            if ratio:
                yield f"{fam}-ours-over-peers", ratio
            speedup = speedup_figure(results, fam, panels, clock)
            if speedup:
                yield f"{fam}-speedup-over-generic", speedup
            elif any(isa != "external" for variants in panels.values()
                     for _, isa in variants):
                notes.append(f"{fam}: no generic variant with others beside "
                             f"it in the results, so no speedup figure")
    return figures(), notes
