"""What every figure shares, whichever command draws it (plots/, the
scenarios, compare, the leak table, the report): matplotlib without a
display, one colour and one marker per ISA, the kind of each row
(constant-time or table-driven), the log2 size axis and labelled bars.

Each ISA keeps its colour and marker by name in every figure of every
command, so a run that lacks some ISAs does not shift the others';
external libraries' kernels are dashed (or hatched) in their library's
colour and named by library.
"""
import matplotlib
import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, NullLocator

from .units import short_number

matplotlib.use("Agg")

__all__ = ["plt", "variant_colour", "variant_marker", "table_driven",
           "log2_size_axis", "size_labels", "hbars"]

# (colour, marker) per ISA. Neighbours on one ladder (vaes-avx2 and
# vaes-avx512, avx2 and avx512) get colours far apart.
ISA_STYLES = {
    "generic": ("#7f7f7f", "o"),
    "sse2": ("#17becf", "v"),
    "ssse3": ("#1f77b4", "^"),
    "sse41": ("#8c564b", "<"),
    "avx2": ("#2ca02c", "s"),
    "avx512": ("#d62728", "D"),
    "avx512ifma": ("#ff7f0e", "P"),
    "aesni": ("#9467bd", "p"),
    "vaes-avx2": ("#bcbd22", "s"),
    "vaes-avx512": ("#e377c2", "D"),
    "pclmul": ("#9467bd", "p"),
    "vpclmul-avx2": ("#bcbd22", "s"),
    "vpclmul-avx512": ("#e377c2", "D"),
    "neon": ("#2ca02c", "s"),
    "ce": ("#9467bd", "p"),
    "auto": ("#000080", "*"),
}
# An ISA this map lacks (another architecture's, a new one): by its place
# in the registry's ladder, from colours no named ISA uses.
SPARE_COLOURS = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
# Peers are dashed, each library in a colour no ISA has.
LIBRARY_COLOURS = {"openssl": "black", "sodium": "#a0522d", "gcrypt": "#808080"}
LIBRARY_MARKER = "x"

# Our rows whose generic variant is table-driven (T-table AES, RC4's
# state array): their lookups are indexed by key and data, not
# constant-time (docs/kernels.md, docs/leak.md); every other row of ours
# is constant-time by design.
TABLE_DRIVEN_FAMILIES = {"aes", "hctr2", "aes-gcm-siv", "aegis", "tor1",
                         "tor-relay-cell", "tor-cgo", "rc4"}


def variant_colour(registry, kernel, isa):
    if isa == "external":
        return LIBRARY_COLOURS.get(registry.library(kernel), "gray")
    if isa in ISA_STYLES:
        return ISA_STYLES[isa][0]
    ladder = registry.ladder()
    place = ladder.index(isa) if isa in ladder else len(ladder)
    return SPARE_COLOURS[place % len(SPARE_COLOURS)]


def variant_marker(isa):
    if isa == "external":
        return LIBRARY_MARKER
    return ISA_STYLES.get(isa, (None, "o"))[1]


def table_driven(registry, kernel, isa):
    """Whether kernel@isa of ours looks tables up by key and data."""
    return isa == "generic" and registry.family(kernel) in \
        TABLE_DRIVEN_FAMILIES


def size_labels(sizes, close=1.3):
    """Tick labels for sizes on a log axis: a size within a factor of
    close of the one before (509 and 576) is printed a line lower, so
    that the two do not overlap."""
    labels, previous, lowered = [], None, False
    for size in sorted(sizes):
        lowered = (previous is not None and size / previous < close
                   and not lowered)
        labels.append(("\n" if lowered else "") + str(size))
        previous = size
    return labels


def log2_size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(sorted(sizes)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels(size_labels(sizes))
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
