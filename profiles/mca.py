"""llvm-mca, LLVM's static model of a core's pipeline: find it, name the
model, run it on a loop body, and read what it says (cycles per
iteration, pressure per port, and the bottleneck -bottleneck-analysis
finds), as llvm-mca 19 prints it (profiles/fixtures/ holds real
output).

Parsing uses only the standard library: the tests import this under any
Python 3.
"""
import os
import re
import shutil
import subprocess
from collections import Counter

NAMES = ("llvm-mca-19", "llvm-mca")
TRIPLE = "x86_64-unknown-linux-gnu"
AARCH64_TRIPLE = "aarch64-unknown-linux-gnu"
ITERATIONS = 100
# Ports this close to the busiest are named with it.
NEAR_BUSIEST = 0.9
# The busiest port at this share of the cycles bounds the loop.
PORT_BOUND = 0.85
# Instructions named for what keeps the busiest ports busy.
TOP_MNEMONICS = 5

SUMMARY = {"Iterations": "iterations", "Instructions": "instructions",
           "Total Cycles": "total_cycles", "Total uOps": "total_uops",
           "Dispatch Width": "dispatch_width", "uOps Per Cycle": "uops_per_cycle",
           "IPC": "ipc", "Block RThroughput": "block_rthroughput"}
SUMMARY_LINE = re.compile(r"^([A-Za-z ]+):\s+([0-9.]+)$")
PERCENT = re.compile(r"\[\s*([0-9.]+)%\s*\]")
PORT_PERCENT = re.compile(r"^\s+- (\S+)\s+\[\s*([0-9.]+)%\s*\]$")
RESOURCE = re.compile(r"^\[([0-9.]+)\]\s+- (\S+)$")
CRITICAL = re.compile(r"^\s*\+----[<>]\s+(\d+)\.\s+(.*?)\s*"
                      r"(?:## (REGISTER|RESOURCE|MEMORY) \w+:\s+(\S+).*)?$")
INPUT_ERROR = re.compile(r"^[^:]+:(\d+):\d+: error: (.*)$")


class McaError(Exception):
    """No prediction possible; the message names the fix."""


class Model:
    def __init__(self, path, name, how, triple=TRIPLE):
        self.path, self.name, self.how = path, name, how
        self.triple = triple
        self.attrs = ATTRS.get(triple)

    def __str__(self):
        return f"{self.name} ({self.how})"


# Running it

def find():
    wanted = os.environ.get("LLVM_MCA")
    for name in [wanted] if wanted else NAMES:
        path = shutil.which(name)
        if path:
            return path
    raise McaError(f"{wanted or 'llvm-mca-19'} not found: install it with "
                   "'apt-get install llvm-19' (ci/install-deps.sh does) or set "
                   "LLVM_MCA=/path/to/llvm-mca")


def host_model(path):
    """The model LLVM picks for this CPU ("Host CPU:" in --version)."""
    out = subprocess.run([path, "--version"], capture_output=True, text=True)
    m = re.search(r"Host CPU:\s*(\S+)", out.stdout)
    return m.group(1) if m else "generic"


def models(path, triple=TRIPLE):
    """The model names llvm-mca knows (-mcpu=help)."""
    out = subprocess.run([path, f"-mtriple={triple}", "-mcpu=help"],
                         capture_output=True, text=True)
    text = out.stdout + out.stderr
    names, listing = set(), False
    for line in text.splitlines():
        if line.startswith("Available CPUs"):
            listing = True
        elif line.startswith("Available features"):
            break
        elif listing and " - " in line:
            names.add(line.split()[0])
    return names


# Extensions llvm-mc is told the code may use, per triple: LLVM's aarch64
# models leave the Cryptography Extensions off (a53's and n1's are
# optional), and the ce and sha3 rows use them. The model still prices
# each instruction; these only let llvm-mc read it.
ATTRS = {AARCH64_TRIPLE: "+aes,+sha2,+sha3"}
# Models named in a "pick one" message, per triple.
EXAMPLES = {TRIPLE: ("znver4", "icelake-server", "sapphirerapids"),
            AARCH64_TRIPLE: ("cortex-a53", "cortex-a72", "neoverse-n1",
                             "neoverse-v2")}


def resolve(requested, triple=TRIPLE):
    """The Model to run: MCPU as asked, or for "native" or nothing the one
    LLVM picks for this host (x86-64 only: the host is x86-64). Raises
    McaError."""
    path = find()
    native = triple == TRIPLE
    if native and (not requested or requested == "native"):
        return Model(path, host_model(path), "LLVM's model for this host")
    known = models(path, triple)
    if requested not in known:
        examples = ", ".join(n for n in EXAMPLES[triple] if n in known)
        raise McaError(f"llvm-mca has no model '{requested}': pick one from "
                       f"'{os.path.basename(path)} -mtriple={triple} "
                       f"-mcpu=help' (e.g. {examples})"
                       f"{', or MCPU=native' if native else ''}")
    return Model(path, requested, "asked for", triple)


def command(model, source_path):
    attrs = [f"-mattr={model.attrs}"] if model.attrs else []
    return [model.path, f"-mtriple={model.triple}", f"-mcpu={model.name}",
            *attrs,
            f"-iterations={ITERATIONS}", "-bottleneck-analysis", source_path]


def run(model, source_path):
    """llvm-mca's output on the file; lines it cannot read are commented
    out and it runs again. Returns (output, command, dropped lines)."""
    with open(source_path) as f:
        lines = f.read().splitlines()
    dropped = []
    for _ in range(2):
        cmd = command(model, source_path)
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode == 0:
            return out.stdout, cmd, dropped
        bad = {int(m.group(1)) for m in map(INPUT_ERROR.match,
                                              out.stderr.splitlines()) if m}
        if not bad:
            break
        for n in sorted(bad):
            dropped.append(lines[n - 1].strip())
            lines[n - 1] = "# (llvm-mca cannot read) " + lines[n - 1].strip()
        with open(source_path, "w") as f:
            f.write("\n".join(lines) + "\n")
    why = " / ".join(out.stderr.strip().splitlines()[:2])
    raise McaError(f"llvm-mca failed on {os.path.basename(source_path)}: "
                   f"{why or 'exit ' + str(out.returncode)}")


# Reading its output

def _table(lines, i):
    """The column labels of the table header at lines[i] and the index
    after it."""
    return re.findall(r"\[([0-9.]+)\]", lines[i]), i + 1


def _row_values(line, n):
    """The first n cells of a pressure row ("-" is 0) and the rest of the
    line (an instruction, in the per-instruction table)."""
    cells = line.split(None, n)
    values = [0.0 if c == "-" else float(c) for c in cells[:n]]
    return values, cells[n] if len(cells) > n else ""


def parse(text):
    """llvm-mca's default views plus -bottleneck-analysis. Raises
    ValueError when the text is not llvm-mca output."""
    lines = text.splitlines()
    r = {"resources": {}, "pressure": {}, "by_instruction": [],
         "port_percent": {}, "critical": [], "bottleneck_found": None}
    section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = SUMMARY_LINE.match(line)
        if m and m.group(1).strip() in SUMMARY:
            r[SUMMARY[m.group(1).strip()]] = float(m.group(2))
        elif line.startswith("Cycles with backend pressure increase"):
            r["backend_pressure_percent"] = float(PERCENT.search(line).group(1))
            r["bottleneck_found"] = True
            section = "bottleneck"
        elif line.startswith("No resource or data dependency bottlenecks"):
            r["bottleneck_found"] = False
        elif section == "bottleneck" and "Resource Pressure" in line:
            r["resource_pressure_percent"] = float(PERCENT.search(line).group(1))
        elif section == "bottleneck" and "Data Dependencies" in line:
            r["data_dependencies_percent"] = float(PERCENT.search(line).group(1))
        elif section == "bottleneck" and "Register Dependencies" in line:
            r["register_dependencies_percent"] = float(
                PERCENT.search(line).group(1))
        elif section == "bottleneck" and "Memory Dependencies" in line:
            r["memory_dependencies_percent"] = float(
                PERCENT.search(line).group(1))
        elif section == "bottleneck" and PORT_PERCENT.match(line):
            port = PORT_PERCENT.match(line)
            r["port_percent"][port.group(1)] = float(port.group(2))
        elif line.startswith("Critical sequence"):
            section = "critical"
        elif section == "critical" and CRITICAL.match(line):
            c = CRITICAL.match(line)
            r["critical"].append({"index": int(c.group(1)),
                                  "asm": c.group(2).replace("\t", " "),
                                  "edge": (c.group(3) or "").lower(),
                                  "via": c.group(4) or ""})
        elif line.startswith("Instruction Info:"):
            section = None
        elif RESOURCE.match(line):
            res = RESOURCE.match(line)
            r["resources"][res.group(1)] = res.group(2) + (
                f".{res.group(1).split('.')[1]}" if "." in res.group(1) else "")
        elif line.startswith("Resource pressure per iteration:"):
            labels, i = _table(lines, i + 1)
            values, _ = _row_values(lines[i], len(labels))
            r["pressure"] = dict(zip(labels, values))
        elif line.startswith("Resource pressure by instruction:"):
            labels, i = _table(lines, i + 1)
            while i < len(lines) and lines[i].strip():
                values, asm = _row_values(lines[i], len(labels))
                r["by_instruction"].append(
                    {"asm": asm.replace("\t", " "),
                     "pressure": dict(zip(labels, values))})
                i += 1
            continue
        i += 1
    if "total_cycles" not in r or "iterations" not in r:
        raise ValueError("not llvm-mca output (no 'Iterations:' and "
                         "'Total Cycles:' summary)")
    r["cycles_per_iteration"] = r["total_cycles"] / r["iterations"]
    return r


# What bounds the loop

def busiest_ports(parsed):
    """[(name, cycles per iteration)], busiest first, of the ports within
    NEAR_BUSIEST of the busiest."""
    ranked = sorted(parsed["pressure"].items(), key=lambda p: -p[1])
    if not ranked or ranked[0][1] <= 0:
        return []
    top = ranked[0][1]
    return [(parsed["resources"].get(label, label), value)
            for label, value in ranked if value >= NEAR_BUSIEST * top]


def port_users(parsed, names):
    """[(mnemonic, cycles per iteration)] on the named ports, most first."""
    labels = [l for l, n in parsed["resources"].items() if n in names]
    load = {}
    for row in parsed["by_instruction"]:
        mnemonic = row["asm"].split()[0] if row["asm"] else "?"
        used = sum(row["pressure"].get(l, 0.0) for l in labels)
        if used:
            load[mnemonic] = load.get(mnemonic, 0.0) + used
    return sorted(load.items(), key=lambda m: -m[1])[:TOP_MNEMONICS]


def most_common(items, n):
    return [k for k, _ in Counter(items).most_common(n)]


def critical_summary(parsed):
    """The critical sequence -bottleneck-analysis reports, in a line: its
    edges by kind, with the registers or ports most of them go through,
    and the instructions most often on it."""
    edges = [c for c in parsed["critical"] if c["edge"]]
    if not edges:
        return ""
    parts = []
    for kind in ("register", "memory", "resource"):
        of_kind = [c["via"] for c in edges if c["edge"] == kind]
        if of_kind:
            parts.append(f"{len(of_kind)} {kind} "
                         f"(mostly {', '.join(most_common(of_kind, 3))})")
    ops = most_common([c["asm"].split()[0] for c in edges], 4)
    return (f"critical sequence of {len(edges)} edges: {', '.join(parts)}; "
            f"mostly {', '.join(ops)}")


def bottleneck(parsed):
    """What bounds the loop, by llvm-mca: {"kind": "ports" | "dependencies"
    | "dispatch" | "none", "summary": a line, and the figures behind it}."""
    cpi = parsed["cycles_per_iteration"]
    ports = busiest_ports(parsed)
    users = port_users(parsed, {name for name, _ in ports})
    register = parsed.get("register_dependencies_percent", 0.0)
    memory = parsed.get("memory_dependencies_percent", 0.0)
    dispatch = parsed.get("dispatch_width", 0.0)
    uops_per_cycle = parsed.get("uops_per_cycle", 0.0)
    port_text = ""
    if ports:
        port_text = (f"{', '.join(f'{n} {v:.1f}' for n, v in ports)} busy "
                     f"cycles of {cpi:.1f} per iteration; their load: "
                     f"{', '.join(f'{m} {v:.1f}' for m, v in users)}")
    if ports and ports[0][1] >= PORT_BOUND * cpi:
        kind = "ports"
    elif register + memory >= 20.0:
        kind = "dependencies"
    elif dispatch and uops_per_cycle >= 0.9 * dispatch:
        kind = "dispatch"
    else:
        kind = "ports" if ports else "none"
    depend_text = ""
    critical = critical_summary(parsed)
    if register + memory:
        depend_text = (f"data dependencies hold back {register + memory:.0f}% "
                       "of cycles")
        if critical:
            depend_text += f" ({critical})"
    dispatch_text = (f"{uops_per_cycle:.2f} uops/cycle of a dispatch width of "
                     f"{dispatch:.0f}")
    heads = {"ports": "port-bound", "dependencies": "latency-bound",
             "dispatch": "dispatch-bound", "none": "no bottleneck found"}
    order = {"ports": [port_text, depend_text],
             "dependencies": [depend_text, port_text],
             "dispatch": [dispatch_text, port_text],
             "none": [port_text]}[kind]
    summary = heads[kind] + ": " + "; ".join(t for t in order if t)
    return {"kind": kind, "summary": summary,
            "busiest_ports": [{"port": n, "cycles_per_iteration": v}
                              for n, v in ports],
            "port_users": [{"mnemonic": m, "cycles_per_iteration": round(v, 2)}
                           for m, v in users],
            "register_dependencies_percent": register,
            "memory_dependencies_percent": memory,
            "uops_per_cycle": uops_per_cycle, "dispatch_width": dispatch,
            "critical_sequence": critical}
