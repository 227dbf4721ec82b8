"""The report's charts as inline SVG text: no files, no fonts, no
references outside the element, so the page stays one self-contained file.
Two kinds: lines against message size (log2 x axis), and horizontal bars
in groups (from zero, or on a log scale from a reference such as 1.0x).
"""
import math
from dataclasses import dataclass
from html import escape

from ..units import short_number

FONT = 11  # px; the page's CSS sets the family


@dataclass
class Series:
    label: str
    colour: str   # "#rrggbb"
    dashed: bool  # an external library's kernel
    points: list  # [(size, value)], by size


@dataclass
class Bar:
    label: str
    value: float
    colour: str
    outline: bool = False  # drawn hollow and dashed (an external kernel)
    text: str = ""         # printed after the bar; default its value


# Axes

def linear_ticks(top):
    """0 and round steps up to at least top."""
    raw = (top or 1) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10)
                if m * magnitude >= raw)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


def log_ticks(low, high):
    """1-2-5 steps covering [low, high], from the one at or below low to
    the one at or above high."""
    steps = [m * 10 ** e
             for e in range(math.floor(math.log10(low)) - 1,
                            math.ceil(math.log10(high)) + 1)
             for m in (1, 2, 5)]
    first = max(s for s in steps if s <= low * 1.0001)
    last = min(s for s in steps if s >= high * 0.9999)
    return [s for s in steps if first <= s <= last]


class Scale:
    """Maps values to pixels between a and b, linearly or on a log scale."""

    def __init__(self, ticks, a, b, log=False):
        self.ticks, self.a, self.b, self.log = ticks, a, b, log
        self.low, self.high = self._f(ticks[0]), self._f(ticks[-1])

    def _f(self, v):
        return math.log(v) if self.log else v

    def __call__(self, v):
        span = (self.high - self.low) or 1
        return self.a + (self._f(v) - self.low) / span * (self.b - self.a)


def value_scale(values, a, b, reference=None):
    """A log scale when the values span more than 20x (short messages cost
    many times what bulk does) or around a reference ratio; else linear
    from 0."""
    values = [v for v in values if v and v > 0]
    low, high = min(values), max(values)
    if reference:
        low, high = min(low, reference), max(high, reference)
    if reference or high / low > 20:
        return Scale(log_ticks(low, high), a, b, log=True)
    return Scale(linear_ticks(high), a, b)


# Drawing

def text(x, y, content, anchor="start", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" '
            f'font-size="{FONT}"{extra}>{escape(content)}</text>')


def svg(width, height, title, body):
    return (f'<svg class="chart" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img">'
            f'<title>{escape(title)}</title>'
            + text(width / 2, 14, title, "middle", ' font-weight="bold"')
            + "".join(body) + "</svg>")


def legend(entries, x, y):
    """[(label, colour, dashed)] as a column of swatches."""
    out = []
    for i, (label, colour, dashed) in enumerate(entries):
        row = y + 15 * i
        dash = ' stroke-dasharray="4 2"' if dashed else ""
        out.append(f'<line x1="{x}" y1="{row}" x2="{x + 18}" y2="{row}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(text(x + 22, row + 4, label))
    return out


def size_axis(sizes, left, right, bottom):
    """A log2 axis at the sizes run, dropping labels that would touch."""
    ticks = sorted(sizes)
    scale = Scale(ticks, left, right, log=True) if len(ticks) > 1 else \
        Scale([ticks[0] / 2, ticks[0] * 2], left, right, log=True)
    out, last = [], -1e9
    for size in ticks:
        x = scale(size)
        out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" '
                   f'y2="{bottom + 4}" stroke="#444"/>')
        if x - last >= 22:
            out.append(text(x, bottom + 15, str(size), "middle"))
            last = x
    out.append(text((left + right) / 2, bottom + 30,
                    "message size (bytes, log2 scale)", "middle"))
    return scale, out


def value_axis_y(scale, left, right, label):
    out = []
    for tick in scale.ticks:
        y = scale(tick)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" '
                   f'y2="{y:.1f}" stroke="#ddd"/>')
        out.append(text(left - 4, y + 4, short_number(tick), "end"))
    mid = (scale.a + scale.b) / 2
    out.append(text(12, mid, label + (" (log)" if scale.log else ""),
                    "middle", f' transform="rotate(-90 12 {mid:.1f})"'))
    return out


def line_chart(title, y_label, series):
    """Values against message size, a line per series."""
    left, right, top, bottom = 58, 300, 28, 190
    sizes = {s for one in series for s, _ in one.points}
    x, body = size_axis(sizes, left, right, bottom)
    y = value_scale([v for one in series for _, v in one.points],
                    bottom, top)
    body += value_axis_y(y, left, right, y_label)
    for one in series:
        dash = ' stroke-dasharray="5 3"' if one.dashed else ""
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in one.points)
        body.append(f'<polyline points="{points}" fill="none" '
                    f'stroke="{one.colour}" stroke-width="1.8"{dash}/>')
        body += [f'<circle cx="{x(s):.1f}" cy="{y(v):.1f}" r="2.5" '
                 f'fill="{one.colour}"><title>{escape(one.label)}, {s} B: '
                 f'{short_number(v)}</title></circle>' for s, v in one.points]
    body += legend([(s.label, s.colour, s.dashed) for s in series],
                   right + 14, top + 8)
    height = max(bottom + 40, top + 8 + 15 * len(series))
    return svg(460, height, title, body)


def bar_chart(title, x_label, groups, reference=None):
    """Horizontal bars [(group label, [Bar])], a group per row block. With
    a reference (1.0 for ratios), the axis is logarithmic and bars start at
    the reference, so below and above it read as two directions."""
    left, right, top, row = 130, 360, 28, 15
    bars = [bar for _, members in groups for bar in members]
    height = top + row * len(bars) + 8 * len(groups) + 34
    scale = value_scale([b.value for b in bars], left, right, reference)
    axis_bottom = height - 34
    body = []
    for tick in scale.ticks:
        px = scale(tick)
        body.append(f'<line x1="{px:.1f}" y1="{top}" x2="{px:.1f}" '
                    f'y2="{axis_bottom}" stroke="#ddd"/>')
        body.append(text(px, axis_bottom + 13, short_number(tick), "middle"))
    body.append(text((left + right) / 2, axis_bottom + 27, x_label +
                     (" (log scale)" if scale.log else ""), "middle"))
    origin = scale(reference) if reference else scale(scale.ticks[0])
    y = top
    for label, members in groups:
        body.append(text(left - 6, y + row * len(members) / 2 + 4, label,
                         "end"))
        for bar in members:
            end, shown = scale(bar.value), bar.text or short_number(bar.value)
            x0, width = min(origin, end), max(abs(end - origin), 1)
            style = (f'fill="white" stroke="{bar.colour}" '
                     f'stroke-dasharray="3 2"' if bar.outline else
                     f'fill="{bar.colour}" stroke="#333" stroke-width="0.5"')
            body.append(f'<rect x="{x0:.1f}" y="{y + 1}" width="{width:.1f}" '
                        f'height="{row - 3}" {style}><title>'
                        f'{escape(label)} {escape(bar.label)}: '
                        f'{escape(shown)}</title></rect>')
            body.append(text(max(origin, end) + 3, y + row - 4,
                             f"{bar.label} {shown}"))
            y += row
        y += 8
    if reference:
        body.append(f'<line x1="{origin:.1f}" y1="{top - 2}" '
                    f'x2="{origin:.1f}" y2="{axis_bottom}" stroke="#000"/>')
    return svg(500, height, title, body)
