"""The figures of `make plots`, per family of kernels: cycles/byte against
message size, the ISA ladder at one size, and the speedup over generic.
Families, the panels in them (a kernel of ours with the external kernels
that compute the same thing) and the order of ISAs come from the run's
registry (Results.kernels).

Colours, the size axis and the bars are cyclebench.drawing's, the same in
every figure of every command.
"""
from cyclebench.drawing import hbars, log2_size_axis, plt, variant_colour
from cyclebench.units import clock_counter, clock_unit


def variant_label(registry, kernel, isa, panel):
    """The legend entry: the ISA for our own kernels, the library for an
    external one (its full name when it sits in another kernel's panel)."""
    if isa != "external":
        return isa if kernel == panel else f"{kernel}@{isa}"
    return f"{registry.library(kernel)} (external)"


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
            points = results.series(kernel, isa, counter)
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
            speedup = speedup_figure(results, fam, panels, clock)
            if speedup:
                yield f"{fam}-speedup-over-generic", speedup
            elif any(isa != "external" for variants in panels.values()
                     for _, isa in variants):
                notes.append(f"{fam}: no generic variant with others beside "
                             f"it in the results, so no speedup figure")
    return figures(), notes
