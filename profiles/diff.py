"""make diff: two kernel variants' hottest code, side by side.

    PYTHONPATH=.:tools /usr/bin/python3 -m profiles.diff A B
        [--symbols=1] [--size=509] [--seconds=3] [--mcpu=native]
        [--bin=build/cyclebench] [--out=out]

A and B are kernel@isa (or a kernel alone: its best ISA here). Each is
profiled as `make profile` does (profiler.py), its hottest
symbol(s) annotated with `perf annotate --stdio`, addresses stripped, and
the two listings aligned instruction by instruction. Writes
out/diff/<A>_vs_<B>.txt and .html, each with a summary per side: instruction
count, instruction mix and cycles/byte. The old pair is removed first.
"""
import argparse
import difflib
import html
import os
import re
import sys

from cyclebench.output import StagedFiles
from . import perf_parse, profiler

# Mnemonic families, matched after a leading AVX "v" is dropped.
SHUFFLE = re.compile(r"^(p?shuf|perm|punpck|unpck|p?alignr|valign|insert[fi]|"
                     r"extract[fi]|broadcast|pbroadcast|pack|movhlps|movlhps|"
                     r"movs[hl]dup|movddup|pblend|blend|expand|compress)")
ROTATE = re.compile(r"^(pro[lr][dq]|pro[lr]v[dq]|rol|ror|rorx|rcl|rcr)")
SHIFT = re.compile(r"^(ps[lr]l|psra|shl|shr|sar|sal|shld|shrd|shlx|shrx|sarx)")
NO_MEMORY_ACCESS = re.compile(r"^(lea|nop|prefetch)")
READ_ONLY_DEST = re.compile(r"^(cmp|test|bt|ptest|ucomis|comis)")
MIX_KEYS = ["zmm", "ymm", "xmm", "loads", "stores", "shuffles/permutes",
            "rotates", "shifts"]


def base_mnemonic(mnemonic):
    """vpaddd and paddd are one operation at two encodings."""
    return mnemonic[1:] if mnemonic.startswith("v") and len(mnemonic) > 3 \
        else mnemonic


def classify(asm):
    """The MIX_KEYS an AT&T-syntax instruction counts under (the widest
    vector register it names; a memory source is a load, a memory
    destination a store)."""
    mnemonic, operands = perf_parse.split_insn(asm)
    base = base_mnemonic(mnemonic)
    kinds = set()
    for width in ("zmm", "ymm", "xmm"):
        if f"%{width}" in asm:
            kinds.add(width)
            break
    if not NO_MEMORY_ACCESS.match(base):
        memory = [i for i, op in enumerate(operands) if "(" in op]
        if base.startswith("push"):
            kinds.add("stores")
        elif base.startswith("pop"):
            kinds.add("loads")
        for i in memory:
            is_dest = i == len(operands) - 1 and len(operands) > 1
            kinds.add("stores" if is_dest and not READ_ONLY_DEST.match(base)
                      else "loads")
    if SHUFFLE.match(base):
        kinds.add("shuffles/permutes")
    if ROTATE.match(base):
        kinds.add("rotates")
    if SHIFT.match(base):
        kinds.add("shifts")
    return kinds


def instruction_mix(instructions):
    mix = {k: 0 for k in MIX_KEYS}
    for insn in instructions:
        for kind in classify(insn["asm"]):
            mix[kind] += 1
    return mix


# Each side

def parse_side(text):
    """kernel@isa, or a kernel alone (its best ISA here)."""
    kernel, at, isa = text.rpartition("@")
    return (kernel, isa) if at else (text, None)


def hottest(result, n):
    """The n hottest user-space symbols that perf could name."""
    rows = profiler.named_rows(result)
    if not rows:
        raise profiler.ProfileError(f"{result['name']}: no named user-space "
                                    "symbol in the profile to annotate",
                                    profiler.EXIT_NO_SAMPLES)
    return rows[:n]


def side_namespace(spec, args):
    """profiler.profile's arguments for one side, kernel@isa."""
    kernel, isa = parse_side(spec)
    return argparse.Namespace(kernel=kernel, isa=isa, size=args.size,
                              seconds=args.seconds, call_graph=None,
                              mcpu=args.mcpu, bin=args.bin, out=args.out)


def profile_side(spec, args, perf):
    result = profiler.profile(side_namespace(spec, args))
    data = os.path.join(result["out_dir"], "perf.data")
    symbols = []
    for row in hottest(result, args.symbols):
        listing = profiler.annotate(perf, data, row["symbol"])
        listing["row"] = row
        symbols.append(listing)
    instructions = [i for s in symbols for i in s["instructions"]]
    return {"name": result["name"], "result": result, "symbols": symbols,
            "count": len(instructions), "mix": instruction_mix(instructions)}


# Alignment

def align(a, b):
    """Pairs (a_insn or None, b_insn or None), matching on the operation
    (vpaddd with paddd) so one ISA's listing lines up with another's."""
    def key(insn):
        return base_mnemonic(perf_parse.split_insn(insn["code"])[0])
    matcher = difflib.SequenceMatcher(None, [key(i) for i in a],
                                      [key(i) for i in b], autojunk=False)
    pairs = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        if tag == "equal" or tag == "replace":
            n = max(len(left), len(right))
            left += [None] * (n - len(left))
            right += [None] * (n - len(right))
            pairs += list(zip(left, right))
        else:
            pairs += [(i, None) for i in left] + [(None, j) for j in right]
    return pairs


def aligned_blocks(side_a, side_b):
    """(title_a, title_b, pairs) for the k-th hottest symbol of each side."""
    blocks = []
    for k in range(max(len(side_a["symbols"]), len(side_b["symbols"]))):
        sa = side_a["symbols"][k] if k < len(side_a["symbols"]) else None
        sb = side_b["symbols"][k] if k < len(side_b["symbols"]) else None
        blocks.append((sa, sb, align(sa["instructions"] if sa else [],
                                     sb["instructions"] if sb else [])))
    return blocks


# Output

def symbol_title(listing):
    if not listing:
        return "(no symbol)"
    row = listing["row"]
    return (f"{listing['symbol']}: {row['self_percent']:.1f}% of samples, "
            f"{row['cycles_per_byte']:.2f} cycles/byte, "
            f"{len(listing['instructions'])} instructions")


def estimated_mark(side):
    """Core cycles without a PMU are TSC ticks times a ratio: say so."""
    return " (est.)" if side["result"]["core_clock_source"] != "pmu" else ""


def summary_rows(side_a, side_b):
    def cpb(side):
        return f"{side['result']['core_cycles_per_byte']:.2f}" + \
            estimated_mark(side)

    def hot_cpb(side):
        return f"{sum(s['row']['cycles_per_byte'] for s in side['symbols']):.2f}"
    rows = [("cycles/byte, whole kernel", cpb(side_a), cpb(side_b)),
            ("cycles/byte, these symbols", hot_cpb(side_a), hot_cpb(side_b)),
            ("instructions", str(side_a["count"]), str(side_b["count"]))]
    for k in MIX_KEYS:
        rows.append((f"  {k}", str(side_a["mix"][k]), str(side_b["mix"][k])))
    return rows + prediction_rows(side_a, side_b)


def prediction_rows(side_a, side_b):
    """llvm-mca's figures for each side's hottest loop, and the kernel's
    predicted cycles/byte (all analysed loops) beside the measured."""
    def loop(side, key, form):
        entries = side["result"]["mca"]
        value = entries[0][key] if entries else None
        return form.format(value) if value is not None else "-"

    def kernel(side, key, form):
        value = side["result"][key]
        return form.format(value) if value is not None else "-"
    return [
        ("predicted cycles/iteration", loop(side_a, "cycles_per_iteration",
                                            "{:.1f}"),
         loop(side_b, "cycles_per_iteration", "{:.1f}")),
        ("bytes/iteration", loop(side_a, "bytes_per_iteration", "{:g}"),
         loop(side_b, "bytes_per_iteration", "{:g}")),
        ("predicted cycles/byte", kernel(side_a, "predicted_cycles_per_byte",
                                         "{:.2f}"),
         kernel(side_b, "predicted_cycles_per_byte", "{:.2f}")),
        ("measured cycles/byte, those loops, on CPU",
         kernel(side_a, "measured_loop_cycles_per_byte",
                "{:.2f}" + estimated_mark(side_a)),
         kernel(side_b, "measured_loop_cycles_per_byte",
                "{:.2f}" + estimated_mark(side_b))),
        ("share of the model's bound", kernel(side_a, "model_fraction",
                                              "{:.0%}"),
         kernel(side_b, "model_fraction", "{:.0%}")),
    ]


def bottleneck_lines(side_a, side_b):
    """Each side's bottleneck, by llvm-mca: what makes one faster."""
    lines = []
    for tag, side in (("A", side_a), ("B", side_b)):
        r = side["result"]
        why = r["bottleneck"] or "no prediction (" + \
            "; ".join(r["prediction_notes"]) + ")"
        lines.append(f"{tag} {side['name']} bottleneck"
                     f"{' on ' + r['mcpu'] if r['mcpu'] else ''}: {why}")
    return lines


def header_lines(side_a, side_b):
    lines = [f"diff {side_a['name']} vs {side_b['name']} at "
             f"{side_a['result']['size']} bytes"]
    for tag, side in (("A", side_a), ("B", side_b)):
        r = side["result"]
        lines.append(f"{tag} {side['name']}: perf {r['event']} at "
                     f"{r['sample_hz']} Hz; cycles/byte are "
                     f"{r['cycles_per_byte_clock']}")
        lines += [f"{tag} note: {n}" for n in r["notes"]]
    return lines + [
        f"sampled event: {side_a['result']['event_note']}",
        "annotations: perf annotate --stdio on each side's hottest symbol(s); "
        "sample % is of that symbol's samples (all of the recording, "
        "self-test included); addresses stripped",
        "prediction: llvm-mca on each side's hot loop(s), as make profile "
        "does (out/profiles/<side>/mca.txt); cycles/iteration and "
        "bytes/iteration are of the hottest loop",
        "instruction mix: static counts in the annotated symbols; vector "
        "width is the widest register an instruction names; rotates are "
        "rol/ror/rorx and AVX-512's vprol/vpror (below AVX-512 a vector "
        "rotate is two shifts and an or, or a pshufb: counted as shifts or "
        "shuffles)",
    ]


def text_report(side_a, side_b, blocks):
    out = header_lines(side_a, side_b) + [""]
    rows = summary_rows(side_a, side_b)
    w = max(len(r[0]) for r in rows)
    out.append(f"{'':{w}}  {'A ' + side_a['name']:>24}  {'B ' + side_b['name']:>24}")
    out += [f"{r[0]:{w}}  {r[1]:>24}  {r[2]:>24}" for r in rows]
    out += bottleneck_lines(side_a, side_b)
    width = max([len(p[0]["code"]) for _, _, pairs in blocks for p in pairs
                 if p[0]] + [30])
    width = min(width, 60)
    for sa, sb, pairs in blocks:
        out += ["", f"A {side_a['name']} {symbol_title(sa)}",
                f"B {side_b['name']} {symbol_title(sb)}", "",
                f"{'%A':>6}  {'A':{width}} | {'%B':>6}  B"]
        for a, b in pairs:
            left = f"{a['percent']:6.2f}  {a['code']:{width}}" if a else \
                f"{'':6}  {'':{width}}"
            right = f"{b['percent']:6.2f}  {b['code']}" if b else ""
            out.append(f"{left} | {right}".rstrip())
    return "\n".join(out) + "\n"


def heat(percent, hottest_percent):
    alpha = min(1.0, percent / hottest_percent) * 0.6 if hottest_percent else 0
    return f"background: rgba(220, 50, 30, {alpha:.2f})"


def html_report(side_a, side_b, blocks):
    e = html.escape
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             f"<title>{e(side_a['name'])} vs {e(side_b['name'])}</title>",
             "<style>body{font-family:sans-serif} table{border-collapse:"
             "collapse} td,th{padding:1px 6px} td.code{font-family:monospace;"
             "white-space:pre} td.pct{text-align:right;font-family:monospace}"
             " th{text-align:left} .sep{border-left:2px solid #888}</style>"
             "</head><body>"]
    parts += [f"<p>{e(line)}</p>" for line in header_lines(side_a, side_b)]
    parts.append("<table><tr><th></th><th>A " + e(side_a["name"]) +
                 "</th><th>B " + e(side_b["name"]) + "</th></tr>")
    for label, a, b in summary_rows(side_a, side_b):
        parts.append(f"<tr><td>{e(label)}</td><td class='pct'>{e(a)}</td>"
                     f"<td class='pct'>{e(b)}</td></tr>")
    parts.append("</table>")
    parts += [f"<p>{e(line)}</p>" for line in bottleneck_lines(side_a, side_b)]
    for sa, sb, pairs in blocks:
        hot = max([p["percent"] for pair in pairs for p in pair if p] + [0])
        parts.append(f"<h3>A: {e(symbol_title(sa))}<br>B: "
                     f"{e(symbol_title(sb))}</h3><table><tr><th>%A</th>"
                     "<th>A</th><th class='sep'>%B</th><th>B</th></tr>")
        for a, b in pairs:
            cells = []
            for insn, sep in ((a, ""), (b, " sep")):
                if insn:
                    style = heat(insn["percent"], hot)
                    cells.append(f"<td class='pct{sep}' style='{style}'>"
                                 f"{insn['percent']:.2f}</td><td class='code'>"
                                 f"{e(insn['code'])}</td>")
                else:
                    cells.append(f"<td class='pct{sep}'></td><td></td>")
            parts.append("<tr>" + "".join(cells) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def diff(args):
    if not args.a or not args.b:
        raise profiler.ProfileError("two variants needed: make diff A=<kernel@"
                                    "isa> B=<kernel@isa>", profiler.EXIT_USAGE)
    if args.symbols < 1:
        raise profiler.ProfileError("--symbols must be 1 or more",
                                    profiler.EXIT_USAGE)
    base = os.path.join(args.out, "diff", f"{args.a}_vs_{args.b}")
    for spec in (args.a, args.b):
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:-]*(@[A-Za-z0-9_]+)?",
                            spec):
            raise profiler.ProfileError(
                f"'{spec}' is not kernel@isa: see 'cyclebench list'",
                profiler.EXIT_USAGE)
    # Both sides' requests before either is profiled: a bad B is refused
    # before A is measured.
    for spec in (args.a, args.b):
        profiler.check_request(side_namespace(spec, args))
    for ext in (".txt", ".html"):
        if os.path.exists(base + ext):
            os.remove(base + ext)
    perf = profiler.find_perf()
    side_a = profile_side(args.a, args, perf)
    side_b = side_a if args.b == args.a else profile_side(args.b, args, perf)
    blocks = aligned_blocks(side_a, side_b)
    text = text_report(side_a, side_b, blocks)
    with StagedFiles(os.path.dirname(base)) as files:
        files.add_text(os.path.basename(base) + ".html",
                       html_report(side_a, side_b, blocks))
        files.add_text(os.path.basename(base) + ".txt", text)
        files.commit()
    return base, side_a, side_b, text


def main():
    parser = profiler.Parser(prog="diff", description=__doc__.split("\n")[0])
    parser.add_argument("a", metavar="A", help="kernel@isa")
    parser.add_argument("b", metavar="B", help="kernel@isa")
    parser.add_argument("--symbols", type=int, default=1,
                        help="hottest symbols to annotate per side (default 1)")
    profiler.add_run_options(parser)
    args = parser.parse_args()
    try:
        base, side_a, side_b, text = diff(args)
    except profiler.ProfileError as e:
        print(f"diff: {e}", file=sys.stderr)
        return e.status
    summary = text.split("\n\n")[1] if "\n\n" in text else ""
    print("\n".join(header_lines(side_a, side_b)) + "\n\n" + summary)
    print(f"\nwritten: {base}.txt, {base}.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
