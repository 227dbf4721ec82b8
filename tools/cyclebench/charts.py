"""The figures of `make plots`, per family of kernels: cycles/byte against
message size, the ISA ladder at one size, and the speedup over generic.
Families, the panels in them (a kernel of ours with the external kernels
that compute the same thing) and the order of ISAs come from the run's
registry (Results.kernels).

Colours follow the ISA level everywhere (one colour per ISA in every
figure, by its place in the registry's ladder); external libraries'
kernels are drawn dashed or hatched.
"""
from collections import defaultdict

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, NullLocator

from .registry import natural_key
from .units import clock_counter, clock_unit, short_number

matplotlib.use("Agg")

# In ladder order, so neighbouring ISAs contrast.
ISA_PALETTE = ["tab:blue", "tab:green", "tab:red", "tab:purple", "tab:brown",
               "tab:pink", "tab:orange", "tab:olive", "darkgoldenrod",
               "magenta", "tab:cyan", "teal", "navy", "lime"]
# Greys apart enough to tell the peers' hatched bars from one another.
LIBRARY_COLOURS = {"openssl": "black", "sodium": "dimgray",
                   "gcrypt": "darkgray"}


def variant_colour(registry, kernel, isa):
    if isa == "external":
        return LIBRARY_COLOURS.get(registry.library(kernel), "gray")
    ladder = registry.ladder()
    if isa not in ladder:
        return "tab:gray"
    return ISA_PALETTE[ladder.index(isa) % len(ISA_PALETTE)]


def variant_label(registry, kernel, isa, panel):
    """The legend entry: the ISA for our own kernels, the library for an
    external one (its full name when it sits in another kernel's panel)."""
    if isa != "external":
        return isa if kernel == panel else f"{kernel}@{isa}"
    return f"{registry.library(kernel)} (external)"


def log2_size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(sorted(sizes)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(s) for s in sorted(sizes)], rotation=45)
    ax.set_xlabel("message size (bytes, log2 scale)")


def hbars(ax, registry, bars, offsets=None, height=0.8, alpha=1.0,
          label=None):
    """Horizontal bars [(value, kernel, isa)], one per row from the top,
    coloured by ISA; an external library's bars hatched in its colour. The
    first bar carries the legend label, if any."""
    rows = offsets if offsets is not None else range(len(bars))
    for i, (row, (value, kernel, isa)) in enumerate(zip(rows, bars)):
        colour = variant_colour(registry, kernel, isa)
        external = isa == "external"
        ax.barh(row, value, height=height, linewidth=0.6, alpha=alpha,
                color="white" if external else colour,
                edgecolor=colour if external else "black",
                hatch="//" if external else None,
                label=label if i == 0 else None)
        ax.text(value, row, f" {short_number(value)}", va="center",
                fontsize="small")


def panel_grid(n_panels, title):
    cols = min(3, n_panels)
    rows = (n_panels + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows),
                             squeeze=False)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig, list(axes.flat[:n_panels])


def machine(results):
    return results.context.get("cpu_model", "unknown CPU")


# Grouping

def families(results):
    """{family: {panel: [(kernel, isa)]}}: a panel per kernel of ours, with
    the external kernels that do the same operation beside it; in each
    panel our ISAs lowest first, then the external kernels."""
    registry = results.kernels
    grouped = defaultdict(lambda: defaultdict(set))
    for key in results.runs:
        grouped[registry.family(key.kernel)][
            registry.counterpart(key.kernel)].add((key.kernel, key.isa))

    def in_isa_order(variants):
        return sorted(variants, key=lambda v: (
            registry.isa_rank(v[0], v[1]), v[0]))

    def in_name_order(panels):
        return sorted(panels.items(), key=lambda p: natural_key(p[0]))

    return {fam: {panel: in_isa_order(variants)
                  for panel, variants in in_name_order(panels)}
            for fam, panels in sorted(grouped.items())}


def series(results, kernel, isa, counter):
    """[(size, median)] for one variant, by size."""
    points = [(key.size, run.median(counter))
              for key, run in results.runs.items()
              if (key.kernel, key.isa) == (kernel, isa)]
    return sorted(p for p in points if p[1] is not None)


def draw_line(ax, registry, points, kernel, isa, panel):
    sizes, values = zip(*points)
    ax.plot(sizes, values, marker="o", markersize=3,
            linestyle="--" if isa == "external" else "-",
            color=variant_colour(registry, kernel, isa),
            label=variant_label(registry, kernel, isa, panel))


# The three figures

def cycles_per_byte_figure(results, fam, panels, clock):
    counter, unit = clock_counter(clock), clock_unit(results.context, clock)
    fig, axes = panel_grid(len(panels), f"{fam}: {unit} against message "
                                        f"size ({machine(results)})")
    for ax, (panel, variants) in zip(axes, panels.items()):
        sizes = set()
        for kernel, isa in variants:
            points = series(results, kernel, isa, counter)
            if points:
                draw_line(ax, results.kernels, points, kernel, isa, panel)
                sizes.update(s for s, _ in points)
        log2_size_axis(ax, sizes)
        ax.set_ylabel(unit)
        ax.set_ylim(bottom=0)
        ax.set_title(panel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    fig.tight_layout()
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
    ax.set_yticks(list(rows), [b[0] for b in bars])
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit} at {size} bytes (lower is faster)")
    ax.set_title(f"{fam}: ISA ladder at {size} bytes ({machine(results)})")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def speedup_points(results, kernel, isa, panel, counter):
    """[(size, generic median / this median)] against our generic of the
    panel's kernel, at the sizes both ran."""
    generic = dict(series(results, panel, "generic", counter))
    return [(size, generic[size] / value)
            for size, value in series(results, kernel, isa, counter)
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
            ax.legend(fontsize="small")
        ax.axhline(1.0, color="gray", linewidth=0.8)
        log2_size_axis(ax, sizes)
        ax.set_ylabel("speedup over generic (x)")
        ax.set_title(panel)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def results_figures(results, clock, ladder_size):
    """(file stem, figure) for every family in the results, one at a time
    (a full sweep makes dozens); and notes on the figures left out, which
    the caller reads once the figures are done."""
    unknown = results.kernels.unknown_note({k.kernel for k in results.runs})
    notes = [unknown] if unknown else []

    def figures():
        for fam, panels in families(results).items():
            yield f"{fam}-cycles-per-byte", cycles_per_byte_figure(
                results, fam, panels, clock)
            ladder = ladder_figure(results, fam, panels, clock, ladder_size)
            if ladder:
                yield f"{fam}-isa-ladder-{ladder_size}", ladder
            else:
                notes.append(f"{fam}: no run at {ladder_size} bytes, so no "
                             f"ISA ladder (bench with --sizes including "
                             f"{ladder_size})")
            speedup = speedup_figure(results, fam, panels, clock)
            if speedup:
                yield f"{fam}-speedup-over-generic", speedup
            elif any(isa != "external" for variants in panels.values()
                     for _, isa in variants):
                notes.append(f"{fam}: no generic variant with others beside "
                             f"it in the results, so no speedup figure")
    return figures(), notes
