"""What every figure shares, whichever command draws it (plots/, the
scenarios, compare, the leak table, the report): matplotlib without a
display, one colour per ISA, the log2 size axis and labelled bars.

Colours follow the ISA level everywhere (one colour per ISA in every
figure, by its place in the registry's ladder); external libraries'
kernels are drawn dashed or hatched.
"""
import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, NullLocator

from .units import short_number

matplotlib.use("Agg")

__all__ = ["plt", "variant_colour", "log2_size_axis", "hbars"]

# In ladder order, so neighbouring ISAs contrast.
ISA_PALETTE = ["tab:blue", "tab:green", "tab:red", "tab:purple", "tab:brown",
               "tab:pink", "tab:orange", "tab:olive", "darkgoldenrod",
               "magenta", "tab:cyan", "teal", "navy", "lime"]
LIBRARY_COLOURS = {"openssl": "black", "sodium": "dimgray"}


def variant_colour(registry, kernel, isa):
    if isa == "external":
        return LIBRARY_COLOURS.get(registry.library(kernel), "gray")
    ladder = registry.ladder()
    if isa not in ladder:
        return "tab:gray"
    return ISA_PALETTE[ladder.index(isa) % len(ISA_PALETTE)]


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
