"""`make bench`'s last word: what the user came for. Each kernel of ours at
its fastest ISA against the external kernels that compute the same thing,
with ratios, at the run's sizes nearest 64, 576 and 16384 bytes; then, from
the run's pair rounds, each pair's ratio of the same moments with its
range across the rounds, naming the pairs whose winner changed; the tables
whose best-first order this CPU contradicts, and what --isa=auto chose;
the benchmarks that stopped at the cap before their median was pinned; and
what did not run, and why.

Printed, and written as <results dir>/<run_id>.summary.md and
latest.summary.md beside the results (atomically).

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.summary [RESULTS]
        [--out=DIR]
"""
import os
import re
import sys

from .cli import ArgumentParser, run_main
from .output import StagedFiles
from .peers import (COUNTER, HOST_DEPENDENT, comparisons, fastest,
                    nearest_sizes, ratio_text, same_moment,
                    unpaired_externals)
from .results import load, skipped_reasons
from .units import sig3, tsc_rate
from .table_order import auto_lines, contradiction_lines


def header(results):
    ctx = results.context
    clock = f"TSC {tsc_rate(ctx)}"
    return [f"cyclebench summary of {results.path}",
            f"{ctx.get('cpu_model', 'unknown CPU')}, {clock}, host "
            f"{ctx.get('host_name', '?')}, commit {ctx.get('git_commit', '?')}",
            "TSC ticks per byte (medians; lower is faster). Ratio = ours / "
            "theirs: below 1.00x ours is faster.",
            "The table's two sides were timed seconds apart: quote the "
            "same-moment ratios after it (docs/method.md)."
            if results.pair_rounds else
            "The two sides of a ratio were timed seconds apart; on a shared "
            "host, `cyclebench run A --vs=B` gives the ratio of the same "
            "moments (docs/method.md)."]


def rounds_title(results):
    """The same-moment section's first line."""
    n = len({r.round for r in results.pair_rounds})
    return (f"Ours against each peer at the same moments (the two timed in "
            f"turn, 10 ms each, as `run --vs` times them; {n} round"
            f"{'' if n == 1 else 's'} spread over the run): the median of "
            f"the rounds' ratios, and their range")


def range_text(pair):
    """"0.943-0.996": three decimals, so that a range just short of 1.0
    does not read as touching it."""
    return f"{pair.low:.3f}-{pair.high:.3f}"


def host_dependent_line(pairs):
    """How many pairs changed winner between rounds."""
    changed = sum(p.host_dependent for p in pairs)
    return (f"{changed} of {len(pairs)} pairs: {HOST_DEPENDENT}" if changed
            else f"No pair's winner changed between rounds ({len(pairs)} "
            f"pairs)")


def same_moment_lines(results):
    pairs = same_moment(results)
    if not pairs:
        return []
    width = max(len(p.kernel) for p in pairs)
    isa_width = max(len(p.isa) for p in pairs) + 1
    peer_width = max(len(p.peer) for p in pairs)
    lines = [rounds_title(results) + ":"]
    lines += [f"  {p.kernel:<{width}} {'@' + p.isa:<{isa_width}} "
              f"{p.size:>6} B  {p.peer:<{peer_width}}  "
              f"{ratio_text(p.median)}  {range_text(p)}  {p.verdict}"
              for p in pairs]
    return lines + [host_dependent_line(pairs)]


def same_moment_markdown(results):
    pairs = same_moment(results)
    if not pairs:
        return []
    return ["", rounds_title(results) + ".", "",
            "| kernel | ISA | bytes | peer | ratio | range across rounds | "
            "winner |", "|---|---|---|---|---|---|---|"] + [
        f"| {p.kernel} | {p.isa} | {p.size} | {p.peer} | "
        f"{ratio_text(p.median)} | {range_text(p)} | {p.verdict} |"
        for p in pairs] + ["", host_dependent_line(pairs) + "."]


def size_line(results, kernel, sizes):
    """"64 B 2.91 (avx512) | 576 B ..." for a kernel, ours or external."""
    parts = []
    external = results.kernels.kernel(kernel).external
    for size in sizes:
        if external:
            value = results.median(kernel, "external", size, COUNTER)
            text = sig3(value) if value else None
        else:
            best = fastest(results, kernel, size)
            text = f"{sig3(best[1])} @{best[0]}" if best else None
        if text:
            parts.append(f"{size} B {text}")
    return " | ".join(parts)


# Capped benchmarks named one by one up to this many; beyond, the widest.
NAMED_CAPPED = 8


def ci_half_width(run):
    """The larger side of the median's 95% CI, in percent of it."""
    median = run.median(COUNTER)
    low = run.median(f"{COUNTER}_ci95_low")
    high = run.median(f"{COUNTER}_ci95_high")
    if not median or low is None or high is None:
        return None
    return max(median - low, high - median) / median * 100


def precision_lines(results):
    sampled = [run for run in results.runs.values()
               if run.median("precision_reached") is not None]
    if not sampled:
        return []
    capped = sorted(((ci_half_width(run) or 0, str(run.key)) for run in sampled
                     if run.median("precision_reached") == 0), reverse=True)
    lines = [f"{len(sampled)} benchmarks; {len(sampled) - len(capped)} "
             f"pinned their median (95% CI within the sampler's precision)"]
    if not capped:
        return lines
    widths = sorted(width for width, _ in capped)
    named = ", ".join(f"{name} (±{width:.1f}%)"
                      for width, name in capped[:NAMED_CAPPED])
    lines.append(
        f"{len(capped)} stopped at the time cap first, their CI ±"
        f"{widths[len(widths) // 2]:.1f}% at the median: the host's speed "
        f"wandered while they ran, so read them with their quartiles"
        + (f"; {named}" if len(capped) <= NAMED_CAPPED
           else f"; the widest: {named}"))
    return lines


# Two-speed benchmarks named one by one up to this many; beyond, the
# widest apart.
NAMED_TWO_SPEEDS = 8


def two_speed_lines(results):
    """The benchmarks whose blocks ran at two speeds (the sampler's
    two_levels): their medians mix the two, so both are given."""
    found = []
    for run in results.runs.values():
        flags = run.repetitions.get("two_levels") or [
            run.median("two_levels") or 0]
        low = run.median("level_low_tsc_cycles_per_byte")
        high = run.median("level_high_tsc_cycles_per_byte")
        if any(flags) and low and high:
            found.append((high / low, str(run.key), low, high,
                          run.median("level_low_share") or 0))
    if not found:
        return []
    found.sort(reverse=True)
    lines = [f"{len(found)} benchmarks ran at two speeds (their 10 ms "
             f"blocks fell in two groups a quarter or more apart; "
             f"docs/method.md): their medians mix the two. Both levels, TSC "
             f"ticks per byte, and the faster's share of the blocks"
             + ("" if len(found) <= NAMED_TWO_SPEEDS else
                f" (the {NAMED_TWO_SPEEDS} widest apart)") + ":"]
    lines += [f"  {name}: {sig3(low)} ({share:.0%}) and {sig3(high)}"
              for _, name, low, high, share in found[:NAMED_TWO_SPEEDS]]
    return lines


def not_run(results):
    """{reason: [what]} from the context's skipped list. A size a kernel
    refuses is one entry per kernel and reason: its ISAs and sizes."""
    groups, refused = {}, {}
    for name, why in skipped_reasons(results.context.get("skipped",
                                                         "")).items():
        variant, _, size = name.partition("/")
        if not size:
            groups.setdefault(why, []).append(variant)
            continue
        kernel, _, isa = variant.partition("@")
        why = re.sub(r"\s*\(got \d+( bytes)?\)", "", why)
        isas, sizes = refused.setdefault((kernel, why), ([], []))
        isas.append(isa) if isa not in isas else None
        sizes.append(size) if size not in sizes else None
    for (kernel, why), (isas, sizes) in refused.items():
        groups.setdefault(why, []).append(
            f"{kernel}@{','.join(isas)} at {', '.join(sizes)} B")
    for key, message in sorted(results.errors.items()):
        groups.setdefault(f"failed: {message}", []).append(str(key))
    return groups


def text_report(results, rows, sizes):
    lines = header(results) + [""]
    paired = [r for r in rows if r.peers]
    alone = list(dict.fromkeys(r.kernel for r in rows if not r.peers
                               and r.kernel not in {p.kernel for p in paired}))
    width = max([len(r.kernel) for r in rows] + [8])
    isa_width = max([len(r.isa) for r in rows] + [4]) + 1
    if paired:
        lines.append("Ours against the peers:")
    for r in paired:
        peers = "  ".join(f"{p.library} {p}" for p in r.peers)
        lines.append(f"  {r.kernel:<{width}} {'@' + r.isa:<{isa_width}} "
                     f"{r.size:>6} B  {sig3(r.value):>6}  {peers}")
    rounds = same_moment_lines(results)
    lines += [""] + rounds if rounds else []
    if alone:
        lines += ["", "Ours with no peer in this run:"]
        lines += [f"  {k:<{width}} {size_line(results, k, sizes)}"
                  for k in alone]
    externals = unpaired_externals(results)
    if externals:
        lines += ["", "Peers with no kernel of ours in this run:"]
        lines += [f"  {k:<{width}} {size_line(results, k, sizes)}"
                  for k in externals]
    for block in (contradiction_lines(results), auto_lines(results),
                  two_speed_lines(results)):
        lines += [""] + block if block else []
    lines += [""] + precision_lines(results)
    groups = not_run(results)
    if groups:
        lines += ["", "Not run:"]
        lines += [f"  {why}: {', '.join(names)}"
                  for why, names in groups.items()]
    return "\n".join(lines) + "\n"


def markdown_report(results, rows, sizes):
    head = header(results)
    lines = [f"# {head[0]}", "", head[1] + ".", "", head[2], head[3], ""]
    libraries = sorted({p.library for r in rows for p in r.peers})
    if libraries:
        cols = ["kernel", "fastest ISA", "bytes", "ours"] + libraries
        lines += ["| " + " | ".join(cols) + " |",
                  "|" + "---|" * len(cols)]
        for r in rows:
            if not r.peers:
                continue
            by_lib = {p.library: p for p in r.peers}
            cells = [str(by_lib[lib]) if lib in by_lib else "—"
                     for lib in libraries]
            lines.append("| " + " | ".join(
                [r.kernel, r.isa, str(r.size), sig3(r.value)] + cells) + " |")
    lines += same_moment_markdown(results)
    paired = {r.kernel for r in rows if r.peers}
    alone = list(dict.fromkeys(r.kernel for r in rows
                               if r.kernel not in paired))
    others = alone + unpaired_externals(results)
    if others:
        lines += ["", "Without a counterpart in this run: " + "; ".join(
            f"`{k}` {size_line(results, k, sizes)}" for k in others) + "."]
    for block in (contradiction_lines(results), auto_lines(results),
                  two_speed_lines(results)):
        if block:
            lines += ["", block[0] if len(block) > 1 else block[0] + "."]
            lines += ([""] + [f"- {line.strip()}" for line in block[1:]]
                      if len(block) > 1 else [])
    lines += [""] + [f"{line}." for line in precision_lines(results)]
    groups = not_run(results)
    if groups:
        lines += ["", "Not run:", ""]
        lines += [f"- {why}: {', '.join(names)}" for why, names in
                  groups.items()]
    return "\n".join(lines) + "\n"


def main(argv):
    parser = ArgumentParser(prog="python3 -m cyclebench.summary",
                            description=__doc__)
    parser.add_argument("results", nargs="?",
                        default="out/results/latest.json",
                        help="results JSON from `cyclebench bench`")
    parser.add_argument("--out", help="directory for the .summary.md files "
                        "(default: the results file's)")
    args = parser.parse_args(argv)
    results = load(args.results)
    sizes = nearest_sizes(sorted({key.size for key in results.runs}))
    rows = comparisons(results, sizes)
    out = args.out or os.path.dirname(args.results) or "."
    stem = results.context.get("run_id") or os.path.splitext(
        os.path.basename(args.results))[0]
    text = text_report(results, rows, sizes)
    markdown = markdown_report(results, rows, sizes)
    with StagedFiles(out) as files:
        files.add_text(f"{stem}.summary.md", markdown)
        if stem != "latest":
            files.add_text("latest.summary.md", markdown)
        files.commit()
    print(text + f"summary: {out}/{stem}.summary.md (and latest.summary.md)")
    unknown = results.kernels.unknown_note({k.kernel for k in results.runs})
    if unknown:
        print(f"summary: warning: {unknown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run_main(main, "summary")
