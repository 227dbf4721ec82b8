"""How often each instruction runs per call of a kernel, counted by
qemu-user: the emulated counterpart of loop_count.py, for a binary of
another architecture (the aarch64 cross-build on an x86-64 host).

qemu translates the guest's code in blocks that end at a branch; with
`-d in_asm` it writes each block's instructions when it translates it, and
with `-d exec,nochain` a line each time a block runs (nochain: blocks are
not chained to each other, so none runs unlogged). A block's runs times
its instructions are each instruction's runs.

The driver makes its calls untimed (`cyclebench run ... --calls=N`) after
its self-test; the self-test, start-up and exit run the same in two runs
with different N, so the difference of the two counts over the difference
of the Ns is what one call runs. Nothing is timed: under an emulator
nothing is a speed, and these are counts.

Only the standard library: the tests import this under any Python 3.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter

# Two call counts: the second minus the first is what is divided.
CALLS = (1, 3)
TIMEOUT_SECONDS = 600
QEMU = "qemu-aarch64"
SYSROOT = "/usr/aarch64-linux-gnu"
# A block as qemu prints it: "0x5502929700:  d503201f  nop".
INSN = re.compile(r"^0x([0-9a-f]+):")
# A block's run: "Trace 0: 0x7f6ea0000100 [00000000/0000005502929700/...]".
TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


class CountError(Exception):
    """Counting is not possible here; the message names the fix. status 2
    when the driver refused the request itself."""
    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def find_qemu():
    path = shutil.which(os.environ.get("QEMU", QEMU))
    if not path:
        raise CountError(f"{QEMU} not found: install it with 'apt-get install "
                         "qemu-user' (ci/install-deps.sh does) or set "
                         "QEMU=/path/to/qemu-aarch64")
    return path


def parse_log(lines):
    """{guest address: runs} of every instruction, from qemu's log."""
    blocks, runs, current = {}, Counter(), None
    for line in lines:
        if line.startswith("Trace "):
            m = TRACE.match(line)
            if m:
                runs[int(m.group(1), 16)] += 1
            current = None
        elif line.startswith("IN:"):
            current = []
        elif current is not None:
            m = INSN.match(line)
            if m:
                if not current:
                    # A block translated again replaces its first listing.
                    blocks[int(m.group(1), 16)] = current
                current.append(int(m.group(1), 16))
            elif not line.strip():
                current = None
    counts = Counter()
    for start, n in runs.items():
        for pc in blocks.get(start, [start]):
            counts[pc] += n
    return counts


def run_counted(qemu, cpu, driver_args, calls, tmp):
    """(counts, the driver's JSON) for one run of the driver with --calls."""
    log = os.path.join(tmp, f"qemu-{calls}.log")
    cmd = [qemu, "-L", os.environ.get("QEMU_LD_PREFIX", SYSROOT), "-cpu",
           cpu, "-d", "in_asm,exec,nochain", "-D", log, *driver_args,
           f"--calls={calls}"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise CountError(f"qemu took over {TIMEOUT_SECONDS} s for {calls} "
                         "calls: try a smaller SIZE")
    if out.returncode != 0:
        why = out.stderr.strip().splitlines()
        why = why[-1] if why else f"exit {out.returncode}"
        if out.returncode == 2:  # the request: its one line, as it said it
            raise CountError(why.removeprefix("cyclebench: "), 2)
        raise CountError(f"the driver failed under qemu: {why}")
    try:
        driver = json.loads(out.stdout)
    except ValueError:
        raise CountError("the driver printed no JSON under qemu")
    with open(log, errors="replace") as f:
        counts = parse_log(f)
    os.remove(log)
    return counts, driver


def per_call(low, high, calls=CALLS):
    """{address: runs per call}: what the two runs' counts differ by, over
    the calls they differ by. Addresses that run as often in both (start-up,
    the self-test) drop out."""
    span = calls[1] - calls[0]
    out = {}
    for pc, n in high.items():
        d = (n - low.get(pc, 0)) / span
        if d > 0:
            out[pc] = d
    return out


def count(driver_args, cpu="max"):
    """(runs per call of each guest address, the driver's JSON of the
    larger run) for `driver_args` (the emulated program and its `run`
    arguments, without --calls). Raises CountError."""
    qemu = find_qemu()
    with tempfile.TemporaryDirectory(prefix="qemu_count.") as tmp:
        low, _ = run_counted(qemu, cpu, driver_args, CALLS[0], tmp)
        high, driver = run_counted(qemu, cpu, driver_args, CALLS[1], tmp)
    return per_call(low, high), driver
