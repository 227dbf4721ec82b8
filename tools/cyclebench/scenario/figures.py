"""A scenario's chart, from its table: bars per row, or lines across the
size columns."""
from ..drawing import hbars, log2_size_axis, plt


def bar_chart(table, registry, title, columns, xlabel, log=False):
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
            hbars(ax, registry, bars, offsets, height, alpha=1.0 - 0.45 * j,
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


def lines_over_sizes(table, registry, title, sizes, ylabel):
    """A line per measured row across the size columns, on log axes: a
    colour per operation (ours and the library's alike, paired by the
    registry's counterpart), squares for the library, dashed without AES-NI
    (our generic C, OpenSSL masked)."""
    fig, ax = plt.subplots(figsize=(9, 5.5))
    operations = []
    for row in table.measured_rows():
        operation = registry.counterpart(row.kernel)
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
