"""Where this CPU contradicts the implementation tables' best-first order:
each kernel of ours whose default row here (its table's first supported
row, the context's "dispatch") is beaten by another of its rows, beyond
both medians' 95% CIs, at some size of the run. `--isa=auto` exists for
these; the summary lists them, e.g.

    blake2b: generic 1.62 beats avx512 2.82 at 16 KiB

"""
from .peers import COUNTER
from .units import sig3

LOW, HIGH = f"{COUNTER}_ci95_low", f"{COUNTER}_ci95_high"


def size_text(size):
    """"16 KiB" for whole KiB, else "509 B"."""
    return f"{size // 1024} KiB" if size >= 1024 and size % 1024 == 0 \
        else f"{size} B"


def dispatch(results):
    """{kernel: the isa its table's order picks here}, from the context."""
    pairs = (item.partition("=") for item in
             results.context.get("dispatch", "").split())
    return {kernel: isa for kernel, sep, isa in pairs if sep}


def _bounds(run):
    median = run.median(COUNTER)
    low, high = run.median(LOW), run.median(HIGH)
    return median, low if low is not None else median, \
        high if high is not None else median


def beaten_at(results, kernel, default, size):
    """(winner, its median, the default's median) when another table row
    of kernel is faster than its default row at size beyond both CIs,
    else None. Auto's row is not a table row and does not count."""
    base = results.get(kernel, default, size)
    if not base or base.median(COUNTER) is None:
        return None
    base_median, base_low, _ = _bounds(base)
    best = None
    for key, run in results.runs.items():
        if (key.kernel, key.size) != (kernel, size) or \
                key.isa in (default, "auto") or run.median(COUNTER) is None:
            continue
        median, _, high = _bounds(run)
        if high < base_low and (best is None or median < best[1]):
            best = (key.isa, median, base_median)
    return best


def contradictions(results):
    """[(kernel, size, winner, its median, default's median, sizes beaten,
    sizes measured)], each kernel at the size where its default loses
    most, in the run's order."""
    found = []
    for kernel, default in dispatch(results).items():
        sizes = sorted({key.size for key in results.runs
                        if key.kernel == kernel and key.isa == default})
        beaten = [(size, beaten_at(results, kernel, default, size))
                  for size in sizes]
        beaten = [(size, b) for size, b in beaten if b]
        if not beaten:
            continue
        size, (winner, value, base) = max(beaten,
                                          key=lambda sb: sb[1][2] / sb[1][1])
        found.append((kernel, size, winner, value, base, len(beaten),
                      len(sizes)))
    return found


def contradiction_lines(results):
    """The summary's lines, or [] when the run has no dispatch to hold it
    against (results from before it was recorded)."""
    if not dispatch(results):
        return []
    found = contradictions(results)
    if not found:
        return ["The tables' best-first order holds here: no kernel's "
                "default row was beaten beyond the CIs at any size"]
    lines = ["Tables whose best-first order this CPU contradicts (a row "
             "faster than the default beyond both CIs; --isa=auto takes it):"]
    for kernel, size, winner, value, base, n_beaten, n_sizes in found:
        more = (f" (beaten at {n_beaten} of {n_sizes} sizes)"
                if n_sizes > 1 else "")
        lines.append(f"  {kernel}: {winner} {sig3(value)} beats "
                     f"{dispatch(results)[kernel]} {sig3(base)} at "
                     f"{size_text(size)}{more}")
    return lines


def auto_lines(results):
    """What the @auto benchmarks ran, one line per length measured."""
    chosen = results.context.get("auto", "")
    if not chosen:
        return []
    return ["--isa=auto chose (TSC-timed on this CPU before the run):"] + \
        [f"  {part.strip()}" for part in chosen.split(";")]
