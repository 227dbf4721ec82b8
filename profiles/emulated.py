"""make profile ARCH=aarch64 on an x86-64 host: the profile's llvm-mca step
on the aarch64 build, with instruction counts from qemu in place of perf's
samples. Nothing is timed and nothing here is a speed: the cycles are
llvm-mca's predictions for the named cores, not measurements.

    PYTHONPATH=.:tools /usr/bin/python3 -m profiles.emulated KERNEL
        [--isa=NAME] [--size=16384]
        [--mcpu=cortex-a53,cortex-a72,neoverse-n1,neoverse-v2]
        [--cpu=max] [--bin=build/aarch64/cyclebench] [--out=out]

1. The driver makes its calls untimed under qemu-aarch64, twice with
   different call counts (qemu_count.py): each instruction's runs per
   call, in the driver and in the libraries it calls (OpenSSL's arm64
   assembly in libcrypto.so.3 included).
2. The instructions are put in functions: by the symbol table where there
   is one, else (a stripped library's local functions) as a stretch of
   code that ran, named by its offset in the library.
3. In each function with at least HOT_SHARE percent of a call's
   instructions (at most MAX_SYMBOLS), the hot loop and its body written
   out as it runs, with the same code as the x86-64 profile (hot_loop.py;
   the counts stand in for samples and for gdb's breakpoint counts).
4. llvm-mca under each model: predicted cycles per iteration, and per byte
   from the counted bytes per iteration.

Writes out/profiles/aarch64/<kernel>[@<isa>]/ (prediction.json, mca.txt,
the mca-*.s inputs), replacing the old ones only when it has them all.
Exit status: 2 bad input, 1 anything else.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import hot_loop, mca, qemu_count
from .predict import HOT_SHARE, MAX_SYMBOLS, file_name
from .profiler import EXIT_USAGE, Parser, parse_kernel_args, positive_int

MODELS = ("cortex-a53", "cortex-a72", "neoverse-n1", "neoverse-v2")
TOOLS = "aarch64-linux-gnu-"
# Code that ran, in a library without symbols for it, is one function while
# the gaps between its instructions stay under this many bytes.
GAP = 256
OBJDUMP_LINE = re.compile(r"^\s+([0-9a-f]+):\s+(\S.*)$")
NM_LINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) [tTwW] (\S+)$")


class EmulatedError(Exception):
    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def tool(name):
    path = shutil.which(os.environ.get(name.upper(), TOOLS + name))
    if not path:
        raise EmulatedError(f"{TOOLS}{name} not found: install binutils-"
                            "aarch64-linux-gnu (ci/install-deps.sh does)")
    return path


# Where the counted instructions are

def object_file(name, binary):
    """The file behind a loaded object's name: the driver for the program
    itself, else the library as qemu found it (its sysroot first)."""
    if not name:
        return binary
    root = os.environ.get("QEMU_LD_PREFIX", qemu_count.SYSROOT)
    inside = os.path.join(root, name.lstrip("/"))
    return inside if os.path.exists(inside) else name


def locate(per_call, objects, binary):
    """{file: {file address: runs per call}}, and each file's load base;
    addresses in no object's code (the vdso, qemu's own) are left out."""
    ranges = []
    for o in objects:
        base = int(o["base"], 16)
        for lo, hi in o["code"]:
            ranges.append((int(lo, 16), int(hi, 16), base,
                           object_file(o["name"], binary)))
    out = {}
    for pc, n in per_call.items():
        for lo, hi, base, path in ranges:
            if lo <= pc < hi:
                out.setdefault(path, {})[pc - base] = n
                break
    return out


def symbols(path):
    """[(start, end, name)] of the file's functions, sorted: its symbol
    table, else (stripped) its dynamic one."""
    nm = tool("nm")
    found = []
    for extra in ([], ["-D"]):
        out = subprocess.run([nm, *extra, "-S", "--defined-only", path],
                             capture_output=True, text=True)
        for line in out.stdout.splitlines():
            m = NM_LINE.match(line)
            if m and int(m.group(2), 16):
                start = int(m.group(1), 16)
                found.append((start, start + int(m.group(2), 16),
                              m.group(3)))
        if found:
            break
    return sorted(set(found))


def functions(counts, path):
    """[{name, file, start, end, counts}]: the counted addresses of one
    file put in the functions that hold them, or where no symbol does, in
    stretches of code that ran, named by their offset in the file (the
    symbol before a stripped library's local function is seldom its own)."""
    syms = symbols(path)
    named, loose = {}, []
    for pc in sorted(counts):
        sym = next((s for s in syms if s[0] <= pc < s[1]), None)
        if sym:
            named.setdefault(sym, {})[pc] = counts[pc]
        else:
            loose.append(pc)
    out = [{"name": s[2], "file": path, "start": s[0], "end": s[1],
            "counts": c} for s, c in named.items()]
    stretch = []
    for pc in loose + [None]:
        if stretch and (pc is None or pc - stretch[-1] > GAP):
            lo = stretch[0]
            out.append({"name": f"{os.path.basename(path)}+{lo:#x}",
                        "file": path, "start": lo, "end": stretch[-1] + 4,
                        "counts": {a: counts[a] for a in stretch}})
            stretch = []
        if pc is not None:
            stretch.append(pc)
    return out


def listing(fn):
    """The function's code from objdump, in perf annotate's form, each
    instruction's share of the function's runs as its "percent"."""
    out = subprocess.run(
        [tool("objdump"), "-d", "--no-show-raw-insn",
         f"--start-address={fn['start']:#x}", f"--stop-address={fn['end']:#x}",
         fn["file"]], capture_output=True, text=True)
    code = parse_objdump(out.stdout, fn["counts"])
    if not code["instructions"]:
        raise EmulatedError(f"objdump shows no code for {fn['name']} in "
                            f"{fn['file']}")
    return code


def parse_objdump(text, counts):
    """objdump -d's instructions as perf annotate's listing: address, the
    instruction with its whitespace folded, and its share of counts."""
    total = sum(counts.values()) or 1
    insns = []
    for line in text.splitlines():
        m = OBJDUMP_LINE.match(line)
        if m:
            at = int(m.group(1), 16)
            insns.append({"address": f"{at:x}",
                          "asm": re.sub(r"\s+", " ", m.group(2)).strip(),
                          "percent": 100.0 * counts.get(at, 0) / total})
    return {"instructions": insns}


# The prediction

def analyse(fn, bytes_per_call, models, out_dir):
    """One hot function's loop under every model: its entry and mca.txt's
    sections."""
    code = listing(fn)
    root, blocks = hot_loop.loop_tree(code, hot_loop.AARCH64)
    hits = fn["counts"]
    loop = hot_loop.fit(hot_loop.hot_loop(root), blocks, hits)
    body = hot_loop.body(loop, blocks, hits)
    where = hot_loop.describe(loop, blocks, hits, fn["start"])
    source = os.path.join(out_dir, file_name(fn["name"]))
    with open(source, "w") as f:
        f.write(hot_loop.mca_source(body, fn["start"], f"{fn['name']}: {where}",
                                    hot_loop.AARCH64))
    iterations = hits.get(loop.header)
    per_iteration = bytes_per_call / iterations if iterations else None
    entry = {"symbol": fn["name"], "file": fn["file"], "loop": where,
             "loop_header": f"{loop.header - fn['start']:#x}",
             "instructions": len(body), "iterations_per_call": iterations,
             "bytes_per_iteration": per_iteration,
             "bytes_per_iteration_source": (
                 f"qemu block count: {iterations:g} iterations per "
                 f"{bytes_per_call:g}-byte call") if iterations else None,
             "mca_input": os.path.basename(source), "models": {}}
    sections = []
    for model in models:
        text, cmd, dropped = mca.run(model, source)
        parsed = mca.parse(text)
        cpi = parsed["cycles_per_iteration"]
        entry["models"][model.name] = {
            "cycles_per_iteration": round(cpi, 2),
            "block_rthroughput": parsed.get("block_rthroughput"),
            "predicted_cycles_per_byte":
                round(cpi / per_iteration, 4) if per_iteration else None,
            "bottleneck": mca.bottleneck(parsed)["summary"],
            "mca_command": cmd, "dropped_instructions": dropped}
        sections.append(f"#### {fn['name']} on {model.name}: {where}; "
                        f"{len(body)} instructions from "
                        f"{os.path.basename(source)}\n#### $ {' '.join(cmd)}\n"
                        + text)
    return entry, sections


def stamp(path):
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size


def resolve_models(text):
    try:
        return [mca.resolve(m, mca.AARCH64_TRIPLE)
                for m in (text.split(",") if text else MODELS)]
    except mca.McaError as e:
        raise EmulatedError(str(e), EXIT_USAGE)


def predict(args):
    name = f"{args.kernel}@{args.isa}" if args.isa else args.kernel
    if not args.kernel:
        raise EmulatedError("no kernel given: make profile ARCH=aarch64 "
                            "KERNEL=<name> [ISA=<isa>] (names from "
                            "'qemu-aarch64 -L /usr/aarch64-linux-gnu "
                            "build/aarch64/cyclebench list')", EXIT_USAGE)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:@-]*", name):
        raise EmulatedError(f"'{name}' is not a kernel name: see 'cyclebench "
                            "list'", EXIT_USAGE)
    models = resolve_models(args.mcpu)
    if not os.path.exists(args.bin):
        raise EmulatedError(f"{args.bin} is missing: make ARCH=aarch64 builds "
                            "it", EXIT_USAGE)
    driver = [args.bin, "run", args.kernel, f"--size={args.size}"]
    if args.isa:
        driver.append(f"--isa={args.isa}")
    before = stamp(args.bin)
    try:
        per_call, run = qemu_count.count(driver, args.cpu)
    except qemu_count.CountError as e:
        raise EmulatedError(str(e), e.status)
    if stamp(args.bin) != before:
        # Its symbols and code would not be what ran.
        raise EmulatedError(f"{args.bin} was rebuilt while it was counted: "
                            "run the profile again")
    total = sum(per_call.values())
    fns = []
    for path, counts in locate(per_call, run["objects"], args.bin).items():
        fns += functions(counts, path)
    for fn in fns:
        fn["runs"] = sum(fn["counts"].values())
    fns.sort(key=lambda f: -f["runs"])
    hot = [f for f in fns if 100 * f["runs"] / total >= HOT_SHARE]
    hot = hot[:MAX_SYMBOLS] or fns[:1]

    out_dir = os.path.join(args.out, "profiles", "aarch64", name)
    os.makedirs(os.path.dirname(out_dir), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{name}.", dir=os.path.dirname(out_dir))
    try:
        loops, sections = [], []
        for fn in hot:
            entry, text = analyse(fn, run["bytes_per_call"], models, tmp)
            loops.append(entry)
            sections += text
        with open(os.path.join(tmp, "mca.txt"), "w") as f:
            f.write("\n".join(sections))
        sums = {}
        for m in models:
            known = [e["models"][m.name]["predicted_cycles_per_byte"]
                     for e in loops]
            sums[m.name] = round(sum(known), 4) if all(known) else None
        result = {
            "name": name, "kernel": run["kernel"], "isa": run["isa"],
            "arch": "aarch64", "timed": False,
            "emulator": f"{os.path.basename(qemu_count.find_qemu())} -cpu "
                        f"{args.cpu}",
            "unit": "core cycles per byte, predicted by llvm-mca, not "
                    "measured",
            "size": run["size"], "bytes_per_call": run["bytes_per_call"],
            "instructions_per_call": round(total, 1),
            "counted": f"calls {qemu_count.CALLS[1]} and "
                       f"{qemu_count.CALLS[0]} apart, under qemu",
            "functions": [{"symbol": f["name"], "file": f["file"],
                           "instructions_per_call": round(f["runs"], 1),
                           "percent": round(100 * f["runs"] / total, 2)}
                          for f in fns[:12]],
            "loops": loops,
            "predicted_cycles_per_byte": sums,
        }
        with open(os.path.join(tmp, "prediction.json"), "w") as f:
            json.dump(result, f, indent=1)
        shutil.rmtree(out_dir, ignore_errors=True)
        os.replace(tmp, out_dir)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result["out_dir"] = out_dir
    return result


# The listing's columns: the loop's label, then one per model.
LABEL_WIDTH = 44
MODEL_WIDTH = 17


def figure(value, spec=".3f"):
    return format(value, spec) if value else "-"


def text(result):
    models = list(result["predicted_cycles_per_byte"])
    pad = " " * LABEL_WIDTH
    lines = [
        f"profile {result['name']} (isa {result['isa']}) on aarch64 under "
        f"{result['emulator']}: nothing timed; cycles are llvm-mca's "
        "predictions, not measurements",
        f"  counted:  {result['size']}-byte messages, "
        f"{result['instructions_per_call']:g} instructions a call "
        f"({result['counted']})", "",
        f"  {'share':>7} {'insns/call':>11}  function"]
    for f in result["functions"]:
        if f["percent"] >= 0.5:
            lines.append(f"  {f['percent']:6.2f}% "
                         f"{f['instructions_per_call']:11g}  {f['symbol']}")
    lines += ["", "  hot loops, predicted core cycles/byte (cycles/iteration):",
              "  " + pad + "".join(f"{m:>{MODEL_WIDTH}}" for m in models)]
    for e in result["loops"]:
        lines.append(f"  {e['symbol']}: {e['loop']}")
        if e["bytes_per_iteration"]:
            lines.append(f"    {e['instructions']} instructions, "
                         f"{e['bytes_per_iteration']:g} bytes/iteration "
                         f"({e['bytes_per_iteration_source']})")
        cells = [f"{figure(p['predicted_cycles_per_byte']):>9} "
                 f"({p['cycles_per_iteration']:>5g})"
                 for p in (e["models"][m] for m in models)]
        lines.append("  " + pad + "".join(cells))
        for m in models:
            if e["models"][m]["dropped_instructions"]:
                lines.append(f"    left out on {m}, llvm-mca cannot read "
                             "them: " + "; ".join(
                                 e["models"][m]["dropped_instructions"]))
    sums = result["predicted_cycles_per_byte"]
    lines.append(f"  {'sum of the hot loops':{LABEL_WIDTH}}" + "".join(
        f"{figure(sums[m]):>{MODEL_WIDTH}}" for m in models))
    lines += ["", f"  written: {result['out_dir']}/ (prediction.json, mca.txt, "
              "the mca-*.s inputs)"]
    return "\n".join(lines)


def main():
    parser = Parser(prog="profile (aarch64, emulated)",
                    description=__doc__.split("\n")[0])
    parser.add_argument("kernel", help="a kernel from 'cyclebench list'; "
                        "kernel@isa also works")
    parser.add_argument("--isa", help="an ISA of that kernel (default: the "
                        "best the emulated CPU has)")
    parser.add_argument("--size", type=positive_int, default="16384",
                        help="message bytes (default 16384)")
    parser.add_argument("--mcpu", help="llvm-mca models, comma-separated "
                        f"(default {','.join(MODELS)})")
    parser.add_argument("--cpu", default="max", help="qemu's CPU (default "
                        "max: every feature)")
    parser.add_argument("--bin", default="build/aarch64/cyclebench")
    parser.add_argument("--out", default="out")
    args = parse_kernel_args(parser)
    try:
        result = predict(args)
    except (EmulatedError, mca.McaError, qemu_count.CountError) as e:
        print(f"profile: {e}", file=sys.stderr)
        return getattr(e, "status", 1)
    print(text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
