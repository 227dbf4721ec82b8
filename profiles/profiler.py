"""make profile: one kernel variant under `perf record`, split per function.

    PYTHONPATH=.:tools /usr/bin/python3 -m profiles KERNEL
        [--isa=NAME] [--size=509] [--seconds=3] [--call-graph=fp|dwarf]
        [--mcpu=native] [--bin=build/cyclebench] [--out=out]

Runs `cyclebench run` (the driver) under perf and keeps the samples of its
timed loop only (perf records with CLOCK_MONOTONIC and the driver reports its
loop's window on that clock). Then runs the driver again without perf, since
sampling slows the kernel down, and splits that run's cycles/byte by each
function's share of the samples. For a composite kernel (LIONESS) the second
run also times each stage with RDTSC, and the two splits are printed side by
side. Last, the hot loop of each hot symbol goes through llvm-mca for the
model --mcpu names, and its prediction is put beside the measurement
(predict.py); without llvm-mca or with a model it does not know,
one line on stderr says so and the profile completes without it.

Writes out/profiles/<kernel>[@<isa>]/ (perf.data, report.txt, record.log,
breakdown.csv, breakdown.json, mca.txt and the mca-<symbol>.s inputs) and
out/plots/<kernel>[@<isa>]-breakdown.png.
The old ones are removed first and the new ones built in a temporary
directory, so a failed run leaves nothing that looks current.

Needs Debian's /usr/bin/python3 (matplotlib). Exit status: 2 bad input
(unknown kernel or ISA, ...), 3 perf missing, 4 perf not permitted, 5 no
samples, 1 anything else.
"""
import argparse
import csv
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import mca, perf_parse, predict

EXIT_USAGE, EXIT_NO_PERF, EXIT_NOT_PERMITTED, EXIT_NO_SAMPLES = 2, 3, 4, 5
# Samples per second. perf's default, 4000, slowed LIONESS by about 9% on a
# VM here; 1000 costs about 3% and still gives 1000 samples a second.
SAMPLE_HZ = 1000
# Rows drawn in the chart; the rest are summed into one bar.
PLOT_ROWS = 12
# Rows printed in the listing, and the share below which rows are summed.
LISTING_MIN_PERCENT = 0.1
# Below this share of the loop on its CPU, cycles/byte include time the
# driver waited for another process.
MIN_ON_CPU = 0.9

# Parts of a kernel, by symbol: the first pattern that matches names the
# part. LIONESS's BLAKE2b keyed state is precomputed at key setup, so its
# per-call BLAKE2b work is compression plus update/final bookkeeping.
PARTS = [
    ("BLAKE2b compression", re.compile(r"^blake2b_compress")),
    ("BLAKE2b key and finalisation", re.compile(r"^blake2b_")),
    ("ChaCha stream", re.compile(r"chacha")),
    ("copies and xors", re.compile(
        r"^(__)?mem(cpy|move|set)|^lioness_|^(hash|stream)_round"
        r"|^explicit_bzero")),
    ("driver and harness", re.compile(r"^(cmd_|run_loop|timer_|main$)")),
]
# Which part a stage of run_staged belongs to, by its name's first word.
STAGE_PARTS = {
    "chacha": ["ChaCha stream"],
    "blake2b": ["BLAKE2b compression", "BLAKE2b key and finalisation"],
    "copy": ["copies and xors"],
}


class ProfileError(Exception):
    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def part_of(row, binary_name):
    """The part a report row belongs to: a PARTS name, "OS kernel", the
    primitive (the symbol's first word) for our own symbols, else the
    library."""
    if row["mode"] != ".":
        return "OS kernel"
    for name, pattern in PARTS:
        if pattern.search(row["symbol"]):
            return name
    if row["dso"] == binary_name and not row["symbol"].startswith("["):
        return row["symbol"].split("_")[0]
    return row["dso"].split(".so")[0]


# perf

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def find_perf():
    perf = os.environ.get("PERF", "perf")
    path = shutil.which(perf)
    if not path:
        raise ProfileError(
            f"perf not found ('{perf}'): install it with 'apt-get install "
            "linux-perf' (ci/install-deps.sh does, as root) or set "
            "PERF=/path/to/perf", EXIT_NO_PERF)
    version = run([path, "--version"])
    if version.returncode != 0:
        why = (version.stderr or version.stdout).strip().splitlines()
        raise ProfileError(
            f"{path} does not run ({why[0] if why else 'no message'}): install "
            "the linux-perf matching this kernel, or set PERF=/path/to/perf",
            EXIT_NO_PERF)
    return path


def paranoid_level():
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def check_permitted(perf, tmp):
    """perf_event_open is refused for several reasons (paranoid level,
    seccomp in a container); recording `true` finds out which holds."""
    probe = run([perf, "record", "-q", "-e", "cpu-clock", "-o",
                 os.path.join(tmp, "probe.data"), "--", "true"])
    if probe.returncode == 0:
        return
    lines = [l.strip() for l in probe.stderr.splitlines()
             if l.strip() and not re.fullmatch(r"Error:?", l.strip())]
    raise ProfileError(
        f"perf may not record here ({lines[0] if lines else 'no message'}); "
        f"kernel.perf_event_paranoid is {paranoid_level()}: run as root, or "
        "lower it with 'sysctl -w kernel.perf_event_paranoid=1' (a container "
        "also needs perf_event_open allowed by its seccomp profile)",
        EXIT_NOT_PERMITTED)


def choose_event(perf):
    """Hardware cycles when the PMU counts them, else cpu-clock; with the
    reason, since `perf record -e cycles` falls back without saying so."""
    stat = run([perf, "stat", "-x,", "-e", "cycles", "--", "true"])
    for line in stat.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("cycles"):
            if fields[0].strip().isdigit():
                return "cycles", "hardware core cycles (PMU)"
            return "cpu-clock", (
                f"cpu-clock, a software timer: hardware cycles are "
                f"{fields[0].strip() or 'unavailable'} here (no PMU), so the "
                "shares are of time, not of cycles")
    return "cpu-clock", ("cpu-clock, a software timer: perf stat could not "
                         "count hardware cycles here")


def recorded_event(perf, data):
    evlist = run([perf, "evlist", "-i", data])
    names = evlist.stdout.split()
    return names[0] if names else "unknown"


def driver_command(args, extra=()):
    cmd = [args.bin, "run", args.kernel, f"--size={args.size}",
           f"--seconds={args.seconds}", *extra]
    if args.isa:
        cmd.append(f"--isa={args.isa}")
    return cmd


def driver_failure(stderr, status):
    """The driver's own one-line message, when it refused the run."""
    lines = [l for l in stderr.splitlines() if l.startswith("cyclebench: ")
             and "unavailable, recorded as such" not in l]
    if lines:
        return ProfileError(lines[-1][len("cyclebench: "):],
                            EXIT_USAGE if status == EXIT_USAGE else 1)
    tail = " / ".join(l.strip() for l in stderr.strip().splitlines()[-3:])
    return ProfileError(f"perf record failed (exit {status}): {tail}")


def record(perf, event, args, tmp):
    data = os.path.join(tmp, "perf.data")
    cmd = [perf, "record", "-e", event, "-F", str(SAMPLE_HZ), "-k",
           "CLOCK_MONOTONIC", "-o", data]
    if args.call_graph:
        cmd.append(f"--call-graph={args.call_graph}")
    result = run(cmd + ["--"] + driver_command(args))
    with open(os.path.join(tmp, "record.log"), "w") as log:
        log.write("$ " + " ".join(cmd) + " -- " +
                  " ".join(driver_command(args)) + "\n" + result.stderr)
    if result.returncode != 0:
        raise driver_failure(result.stderr, result.returncode)
    try:
        return data, json.loads(result.stdout)
    except json.JSONDecodeError:
        raise ProfileError("the driver printed no JSON result under perf: " +
                           " / ".join(result.stderr.strip().splitlines()[-3:]))


def check_request(args):
    """The driver's own refusal of a bad request (an unknown kernel or ISA,
    one this CPU cannot run, a size below the kernel's minimum, a failed
    self-test), asked with `run --check` before perf or any output
    directory: nothing is measured or written for a request that fails."""
    result = run(driver_command(args, ["--check"]))
    if result.returncode != 0:
        raise driver_failure(result.stderr, result.returncode)


def measure(args):
    """The driver without perf: the cycles/byte the breakdown splits, and
    the stage timing of a kernel that has stages."""
    result = run(driver_command(args, ["--stages"]))
    if result.returncode != 0:
        raise driver_failure(result.stderr, result.returncode)
    return json.loads(result.stdout)


def report(perf, data, event, driver, args, tmp):
    window = f"{driver['monotonic_start']:.6f},{driver['monotonic_end']:.6f}"
    result = run([perf, "report", "-i", data, "--stdio", "--no-children",
                  "-n", "--sort", "dso,symbol", "--time", window])
    if result.returncode != 0:
        raise ProfileError("perf report failed: " +
                           " / ".join(result.stderr.strip().splitlines()[-3:]))
    with open(os.path.join(tmp, "report.txt"), "w") as f:
        f.write(result.stdout)
    try:
        parsed = perf_parse.parse_report(result.stdout)
    except ValueError:
        # perf report prints no table at all when nothing was sampled.
        parsed = {"event": "?", "samples_label": "0", "rows": []}
    if not sum(r["samples"] for r in parsed["rows"]):
        raise ProfileError(
            f"perf collected no samples in the driver's {driver['seconds']:.2f}"
            f" s timed loop: run longer (SECONDS=3), and check that perf "
            f"samples it at all: perf record -e {event} -- "
            f"{' '.join(driver_command(args))}", EXIT_NO_SAMPLES)
    return parsed


def annotate(perf, data, symbol):
    """One symbol's listing (perf_parse.parse_annotate), each instruction
    also as "code": its text with addresses stripped."""
    result = run([perf, "annotate", "-i", data, "--stdio", "--stdio-color",
                  "never", "--no-source", "-s", symbol])
    try:
        listings = perf_parse.parse_annotate(result.stdout)
    except ValueError:
        why = " / ".join(result.stderr.strip().splitlines()[-2:])
        raise ProfileError(f"perf annotate found no code for {symbol} "
                           f"({why or 'no message'})")
    listing = listings[0]
    for insn in listing["instructions"]:
        insn["code"] = perf_parse.strip_addresses(insn["asm"], symbol)
    return listing


def named_rows(result):
    """The user-space rows perf could name, hottest first: the symbols
    worth annotating."""
    return [r for r in result["rows"]
            if r["part"] != "OS kernel" and not r["symbol"].startswith("[")]


# The breakdown

def merge_unresolved(rows):
    """perf names a sample in a stripped library (Debian's libsodium) by its
    address, one row per address; one row per library says more."""
    merged, by_dso = [], {}
    for r in rows:
        if not r["symbol"].startswith("0x"):
            merged.append(dict(r))
        elif r["dso"] in by_dso:
            by_dso[r["dso"]]["samples"] += r["samples"]
        else:
            by_dso[r["dso"]] = dict(r, symbol=f"[{r['dso'].strip('[]')}, "
                                    "no symbols]")
            merged.append(by_dso[r["dso"]])
    return sorted(merged, key=lambda r: -r["samples"])


def breakdown_rows(parsed, cpb, binary_name):
    rows = merge_unresolved(parsed["rows"])
    total = sum(r["samples"] for r in rows)
    return total, [{
        "symbol": r["symbol"],
        "self_percent": round(100.0 * r["samples"] / total, 4),
        "samples": r["samples"],
        "cycles_per_byte": round(cpb * r["samples"] / total, 4),
        "dso": r["dso"],
        "part": part_of(r, binary_name),
    } for r in rows]


def parts_summary(rows):
    parts = {}
    for r in rows:
        p = parts.setdefault(r["part"], {"part": r["part"], "self_percent": 0.0,
                                          "cycles_per_byte": 0.0})
        p["self_percent"] += r["self_percent"]
        p["cycles_per_byte"] += r["cycles_per_byte"]
    return sorted(parts.values(), key=lambda p: -p["self_percent"])


def stage_comparison(parts, stages):
    """perf's share and the stages' share of each part a stage names."""
    perf_share = {p["part"]: p["self_percent"] for p in parts}
    compared = {}
    for s in stages:
        family = s["name"].split()[0].lower()
        names = STAGE_PARTS.get(family)
        if not names:
            continue
        row = compared.setdefault(family, {
            "stage": family, "parts": names, "stage_percent": 0.0,
            "perf_percent": sum(perf_share.get(n, 0.0) for n in names)})
        row["stage_percent"] += s["percent"]
    return list(compared.values())


def clock_description(driver):
    if driver["core_clock_source"] == "pmu":
        return "core cycles counted by the PMU"
    return (f"core cycles estimated as TSC cycles x core/TSC ratio "
            f"{driver['core_tsc_ratio']:.3f} (dependent-add calibration; no "
            "PMU cycles counter)")


def on_cpu_note(driver, which):
    on_cpu = driver["on_cpu_fraction"]
    if on_cpu >= MIN_ON_CPU:
        return []
    return [f"the driver {which} ran only {100 * on_cpu:.0f}% of its loop on "
            f"CPU {driver['pinned_cpu']} (another process there?): its "
            "cycles/byte include time it waited"]


def auto_notes(measured, under_perf):
    """At --isa=auto each driver run measures and chooses for itself: what
    they ran, and whether they agree."""
    if "auto" not in measured:
        return []
    if measured["auto"] == under_perf.get("auto"):
        return [f"--isa=auto ran {measured['auto']}"]
    return [f"--isa=auto ran {measured['auto']} without perf but "
            f"{under_perf.get('auto')} under it: the runs chose apart, so the "
            "split is of another row than the cycles/byte"]


def build_result(name, event, event_note, actual, measured, under_perf,
                 parsed, total, rows):
    parts = parts_summary(rows)
    stages = measured.get("stages", [])
    notes = [f"asked perf for {event} and it recorded {actual}"] \
        if actual != event else []
    notes += auto_notes(measured, under_perf)
    notes += on_cpu_note(measured, "without perf")
    notes += on_cpu_note(under_perf, "under perf")
    return {
        "kernel": measured["kernel"], "isa": measured["isa"], "name": name,
        "size": measured["size"], "seconds": measured["seconds"],
        "calls": measured["calls"],
        "event": actual, "event_note": event_note, "sample_hz": SAMPLE_HZ,
        "cycles_per_byte_clock": clock_description(measured),
        "core_clock_source": measured["core_clock_source"],
        "core_cycles_per_byte": measured["core_cycles_per_byte"],
        "tsc_cycles_per_byte": measured["tsc_cycles_per_byte"],
        "ns_per_byte": measured["ns_per_byte"],
        "core_cycles_per_byte_under_perf": under_perf["core_cycles_per_byte"],
        "samples": total, "samples_label": parsed["samples_label"],
        "notes": notes,
        "rows": rows, "parts": parts,
        "stages": stages,
        "staged_tsc_cycles_per_byte": measured.get("staged_tsc_cycles_per_byte"),
        "stage_vs_perf": stage_comparison(parts, stages),
        "driver": {"without_perf": measured, "under_perf": under_perf},
    }


def write_breakdown(result, tmp):
    with open(os.path.join(tmp, "breakdown.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    with open(os.path.join(tmp, "breakdown.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["symbol", "self_percent", "samples", "cycles_per_byte",
                    "dso", "part", "event", "core_clock_source"])
        for r in result["rows"]:
            w.writerow([r["symbol"], f"{r['self_percent']:.2f}", r["samples"],
                        f"{r['cycles_per_byte']:.4f}", r["dso"], r["part"],
                        result["event"], result["core_clock_source"]])


def plot(result, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ProfileError(f"matplotlib is missing from {sys.executable}: run "
                           "under Debian's /usr/bin/python3 (python3-matplotlib"
                           "), as make does with PYTHON=/usr/bin/python3")
    rows = result["rows"][:PLOT_ROWS]
    rest = result["rows"][PLOT_ROWS:]
    labels = [r["symbol"] + (" [k]" if r["part"] == "OS kernel" else "")
              for r in rows]
    values = [r["cycles_per_byte"] for r in rows]
    shares = [r["self_percent"] for r in rows]
    if rest:
        labels.append(f"{len(rest)} others")
        values.append(sum(r["cycles_per_byte"] for r in rest))
        shares.append(sum(r["self_percent"] for r in rest))
    stages = result["stages"]
    fig, axes = plt.subplots(
        2 if stages else 1, 1, squeeze=False,
        figsize=(9, 1.2 + 0.35 * (len(labels) + len(stages)) + (1 if stages else 0)),
        gridspec_kw={"height_ratios": [len(labels), len(stages)] if stages else [1]})
    ax = axes[0][0]
    bars = ax.barh(labels[::-1], values[::-1], color="tab:blue")
    for bar, share in zip(bars, shares[::-1]):
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2,
                f" {share:.1f}%", va="center", fontsize=8)
    ax.set_xlabel("core cycles/byte" +
                  (" (estimated)" if result["core_clock_source"] != "pmu" else ""))
    ax.set_title(f"{result['name']} at {result['size']} bytes: "
                 f"{result['core_cycles_per_byte']:.2f} cycles/byte, "
                 f"perf {result['event']} samples", fontsize=10)
    ax.margins(x=0.15)
    if stages:
        ax2 = axes[1][0]
        names = [s["name"] for s in stages][::-1]
        ax2.barh(names, [s["core_cycles_per_byte"] for s in stages][::-1],
                 color="tab:orange")
        ax2.set_xlabel("core cycles/byte per stage (RDTSC, run without perf)")
        ax2.margins(x=0.15)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# The prediction

@functools.lru_cache(maxsize=None)
def prediction_model(mcpu):
    """(llvm-mca model for MCPU, None), or (None, why not) after one line
    on stderr saying so: the profile goes on without a prediction."""
    try:
        return mca.resolve(mcpu), None
    except mca.McaError as e:
        print(f"profile: {e}; profiling without a prediction", file=sys.stderr)
        return None, str(e)


def prediction(args, perf, data, result, tmp):
    model, why_not = prediction_model(args.mcpu)
    if model is None:
        return predict.unavailable(why_not)
    try:
        return predict.predict(named_rows(result),
                               result["driver"]["without_perf"]["on_cpu_fraction"],
                               lambda symbol: annotate(perf, data, symbol),
                               driver_command(args), model, tmp)
    except (ProfileError, mca.McaError) as e:
        print(f"profile: {e}; no prediction", file=sys.stderr)
        return predict.unavailable(str(e))


def clock_name(result):
    return "PMU" if result["core_clock_source"] == "pmu" else \
        "estimated from TSC"


def headline(result):
    """"measured 1.07 core cycles/byte (estimated from TSC), predicted 0.98
    on znver4: 92% of the model's bound", or why there is no such line."""
    if not result["mcpu"]:
        return "no prediction: " + "; ".join(result["prediction_notes"])
    if result["predicted_cycles_per_byte"] is None:
        return (f"predicted on {result['mcpu']} per iteration only (bytes per "
                "iteration unknown)")
    on_cpu = result["measured_on_cpu_fraction"]
    clock = clock_name(result)
    if on_cpu < MIN_ON_CPU:
        clock += f", over the {100 * on_cpu:.0f}% of its loop the driver was on its CPU"
    return (f"measured {result['measured_loop_cycles_per_byte']:.2f} core "
            f"cycles/byte ({clock}) in the loops below ("
            f"{result['core_cycles_per_byte'] * on_cpu:.2f} in all), predicted "
            f"{result['predicted_cycles_per_byte']:.2f} on {result['mcpu']}: "
            f"{100 * result['model_fraction']:.0f}% of the model's bound")


def prediction_lines(result):
    lines = ["", f"  prediction:    {headline(result)}"]
    if not result["mcpu"]:
        return lines
    lines.append(f"  model:         llvm-mca -mcpu={result['mcpu']} "
                 f"({result['mcpu_source']}); its output in mca.txt")
    lines += [f"  note:          {n}" for n in result["prediction_notes"]]
    for e in result["mca"]:
        lines.append(f"  {e['symbol']} ({e['self_percent']:.1f}% of samples): "
                     f"{e['loop']}; {e['loop_share_percent']:.1f}% of its "
                     f"samples, {e['instructions']} instructions")
        if e["bytes_per_iteration"]:
            lines.append(f"    {e['bytes_per_iteration']:g} bytes/iteration "
                         f"({e['bytes_per_iteration_source']})")
            lines.append(
                f"    predicted {e['cycles_per_iteration']:.1f} cycles/"
                f"iteration (ports alone {e['block_rthroughput']:g}) = "
                f"{e['predicted_cycles_per_byte']:.3f} cycles/byte; measured "
                f"{e['measured_cycles_per_byte']:.3f} in this loop: "
                f"{100 * e['model_fraction']:.0f}% of the model's bound")
        else:
            lines.append(f"    predicted {e['cycles_per_iteration']:.1f} "
                         f"cycles/iteration (ports alone "
                         f"{e['block_rthroughput']:g})")
        lines.append(f"    {e['bottleneck']['summary']}")
        if e["dropped_instructions"]:
            lines.append(f"    left out, llvm-mca cannot read them: "
                         f"{'; '.join(e['dropped_instructions'])}")
    return lines


# The listing

def listing(result, out_dir, png):
    binary = result["driver"]["under_perf"]["binary"]
    lines = [
        f"profile {result['name']}: {result['size']}-byte messages, "
        f"{result['calls']} calls in {result['seconds']:.2f} s",
        f"  sampled event: {result['event_note']}",
        f"  cycles/byte:   {result['core_cycles_per_byte']:.2f} "
        f"({result['cycles_per_byte_clock']}) in a run without perf; "
        f"{result['tsc_cycles_per_byte']:.2f} TSC cycles/byte, "
        f"{result['ns_per_byte']:.3f} ns/byte; "
        f"{result['core_cycles_per_byte_under_perf']:.2f} under perf",
        f"  samples:       {result['samples']} at {result['sample_hz']} Hz in "
        "the driver's timed loop (startup, self-test and calibration left "
        "out); cycles/B below is the run without perf split by them",
    ]
    lines += [f"  note:          {n}" for n in result["notes"]]
    lines += ["", f"  {'self':>7} {'samples':>8} {'cycles/B':>9}  symbol"]
    small = [r for r in result["rows"] if r["self_percent"] < LISTING_MIN_PERCENT]
    for r in result["rows"]:
        if r["self_percent"] >= LISTING_MIN_PERCENT:
            where = "" if r["dso"] == binary or r["symbol"].startswith("[") \
                else f"  [{r['dso'].strip('[]')}]"
            lines.append(f"  {r['self_percent']:6.2f}% {r['samples']:8d} "
                         f"{r['cycles_per_byte']:9.3f}  {r['symbol']}{where}")
    if small:
        lines.append(f"  {sum(r['self_percent'] for r in small):6.2f}% "
                     f"{sum(r['samples'] for r in small):8d} "
                     f"{sum(r['cycles_per_byte'] for r in small):9.3f}  "
                     f"({len(small)} symbols under {LISTING_MIN_PERCENT}%)")
    lines += ["", "  by part (perf)"]
    for p in result["parts"]:
        lines.append(f"  {p['self_percent']:6.2f}% {'':8} "
                     f"{p['cycles_per_byte']:9.3f}  {p['part']}")
    if result["stages"]:
        lines += ["", "  stage timing (RDTSC around each step, a separate run "
                  f"without perf: {result['staged_tsc_cycles_per_byte']:.2f} "
                  "TSC cycles/byte)"]
        for s in result["stages"]:
            lines.append(f"  {s['percent']:6.2f}% {s['tsc_ticks_per_call']:8.0f} "
                         f"{s['core_cycles_per_byte']:9.3f}  {s['name']}  "
                         "(TSC ticks/call, core cycles/byte)")
        lines += ["", f"  {'stages':>7} {'perf':>8}   part"]
        for c in result["stage_vs_perf"]:
            lines.append(f"  {c['stage_percent']:6.2f}% {c['perf_percent']:7.2f}%"
                         f"   {c['stage']}: {' + '.join(c['parts'])}")
        lines.append("  (a stage also times the glue around its calls, such "
                     "as LIONESS's xors, which perf puts under lioness_*)")
    lines += prediction_lines(result)
    lines += ["", f"  written: {out_dir}/ (perf.data, report.txt, breakdown.csv,"
              f" breakdown.json{', mca.txt' if result['mca'] else ''}), {png}"]
    return "\n".join(lines)


# The whole run

def profile(args):
    """Profile one variant; returns the breakdown (also written to disk)."""
    name = f"{args.kernel}@{args.isa}" if args.isa else args.kernel
    if not args.kernel:
        raise ProfileError("no kernel given: make profile KERNEL=<name> [ISA="
                           "<isa>] (names from 'build/cyclebench list')",
                           EXIT_USAGE)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:@-]*", name):
        raise ProfileError(f"'{name}' is not a kernel name: see 'cyclebench "
                           "list'", EXIT_USAGE)
    out_dir = os.path.join(args.out, "profiles", name)
    png = os.path.join(args.out, "plots", f"{name}-breakdown.png")
    check_request(args)
    prediction_model(args.mcpu)  # says now, not after the run, if it can't
    # Nothing old may stand in for this run if it fails.
    shutil.rmtree(out_dir, ignore_errors=True)
    if os.path.exists(png):
        os.remove(png)
    os.makedirs(os.path.dirname(out_dir), exist_ok=True)
    os.makedirs(os.path.dirname(png), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{name}.", dir=os.path.dirname(out_dir))
    os.chmod(tmp, 0o755)
    try:
        perf = find_perf()
        check_permitted(perf, tmp)
        os.remove(os.path.join(tmp, "probe.data"))
        event, event_note = choose_event(perf)
        data, under_perf = record(perf, event, args, tmp)
        under_perf["binary"] = os.path.basename(args.bin)
        actual = recorded_event(perf, data)
        if actual != event:
            event_note += f"; perf recorded {actual} instead"
        parsed = report(perf, data, actual, under_perf, args, tmp)
        measured = measure(args)
        total, rows = breakdown_rows(parsed, measured["core_cycles_per_byte"],
                                     under_perf["binary"])
        result = build_result(name, event, event_note, actual, measured,
                              under_perf, parsed, total, rows)
        result.update(prediction(args, perf, data, result, tmp))
        write_breakdown(result, tmp)
        plot(result, os.path.join(tmp, "breakdown.png"))
        os.replace(tmp, out_dir)
        os.replace(os.path.join(out_dir, "breakdown.png"), png)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result["out_dir"], result["png"] = out_dir, png
    return result


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most 3600 (got '{text}')")
    return text


def positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a byte count (got '{text}')")
    return text


def add_run_options(parser):
    parser.add_argument("--size", type=positive_int, default="509",
                        help="message bytes (default 509, a Tor cell payload)")
    parser.add_argument("--seconds", type=positive_float, default="3",
                        help="length of the timed loop (default 3)")
    parser.add_argument("--call-graph", choices=["fp", "dwarf"],
                        help="also record call chains (perf record --call-graph)")
    parser.add_argument("--mcpu", help="llvm-mca's model for the prediction: "
                        "native (default: the one LLVM picks for this host), "
                        "znver4, icelake-server, sapphirerapids, ...")
    parser.add_argument("--bin", default="build/cyclebench")
    parser.add_argument("--out", default="out")


def parse_kernel_args(parser):
    """The command line, with KERNEL@ISA split into kernel and isa."""
    args = parser.parse_args()
    args.isa = args.isa or None
    if "@" in args.kernel and not args.isa:
        args.kernel, args.isa = args.kernel.rsplit("@", 1)
    return args


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def main():
    parser = Parser(prog="profile", description=__doc__.split("\n")[0])
    parser.add_argument("kernel", help="a kernel from 'cyclebench list'; "
                        "kernel@isa also works")
    parser.add_argument("--isa", help="an ISA of that kernel (default: the "
                        "best this CPU supports)")
    add_run_options(parser)
    args = parse_kernel_args(parser)
    try:
        result = profile(args)
    except ProfileError as e:
        print(f"profile: {e}", file=sys.stderr)
        return e.status
    print(listing(result, result["out_dir"], result["png"]))
    return 0

