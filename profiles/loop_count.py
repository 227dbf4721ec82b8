"""How often instructions run per call of a kernel, counted with gdb
breakpoints: the bytes a loop iteration eats, without a PMU.

The driver (`cyclebench run`) stops at its timed loop (run_loop), so the
self-test and warm-up calls are not counted; then a breakpoint goes on each
address, told to ignore its hits (gdb still counts them), and the driver
runs to its end. Hits divided by the calls its JSON result reports are
runs per call. Each hit is a trap into gdb, so the driver is asked for the
shortest loop it makes (--seconds=0.001: at least one call).

gdb runs whatever the CPU runs, AVX-512 and VAES included; valgrind, the
other way to count branches without a PMU, cannot decode those.
"""
import json
import os
import re
import shutil
import shlex
import signal
import subprocess
import tempfile

# Hits gdb lets pass before it would stop: more than any count here.
IGNORE_HITS = 2000000000
TIMEOUT_SECONDS = 300
COUNT_SECONDS = "0.001"

HIT = re.compile(r"^\s+breakpoint already hit (\d+) times?$")
BREAKPOINT = re.compile(r"^(\d+)\s+breakpoint\s")


class CountError(Exception):
    """Counting is not possible here; the message names the fix."""


def find_gdb():
    gdb = os.environ.get("GDB", "gdb")
    path = shutil.which(gdb)
    if not path:
        raise CountError(f"gdb not found ('{gdb}'): install it with 'apt-get "
                         "install gdb' (ci/install-deps.sh does) or set "
                         "GDB=/path/to/gdb")
    return path


def gdb_script(driver_args, points, output):
    """Commands for gdb: points are (symbol, offset) pairs; breakpoint k of
    them is gdb's number k + 2 (the temporary one at run_loop is 1). The
    driver's output goes to a file through the shell gdb starts it with."""
    run = " ".join(shlex.quote(a) for a in driver_args)
    commands = ["set pagination off", "set confirm off",
                "set breakpoint pending off", "tbreak run_loop",
                f"run {run} > {shlex.quote(output)}"]
    for k, (symbol, offset) in enumerate(points):
        commands += [f"break *('{symbol}' + {offset:#x})",
                     f"ignore {k + 2} {IGNORE_HITS}"]
    return commands + ["continue", "info breakpoints"]


def parse_hits(info, n):
    """Hit counts of breakpoints 2..n+1 from `info breakpoints`; a
    breakpoint never hit has no "already hit" line."""
    hits, current = [0] * n, None
    for line in info.splitlines():
        number = BREAKPOINT.match(line)
        if number:
            current = int(number.group(1)) - 2
            continue
        hit = HIT.match(line)
        if hit and current is not None and 0 <= current < n:
            hits[current] = int(hit.group(1))
    return hits


def gdb_failure(stdout, stderr):
    lines = [l.strip() for l in (stderr + "\n" + stdout).splitlines()
             if re.search(r"ptrace|not permitted|No symbol|not defined|"
                          r"Cannot|cannot|error", l)]
    why = lines[0] if lines else "no message"
    if "ptrace" in why or "not permitted" in why:
        return CountError(f"gdb may not trace here ({why}): allow ptrace "
                          "(kernel.yama.ptrace_scope=0, or a container's "
                          "seccomp profile)")
    return CountError(f"gdb could not count ({why})")


def run_gdb(gdb, program, script):
    args = [gdb, "-q", "-batch", "-nx", "-iex", "set debuginfod enabled off"]
    for c in script:
        args += ["-ex", c]
    args.append(program)
    # Its own session, so a timeout ends gdb and the driver it traces.
    proc = subprocess.Popen(args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        return proc.communicate(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise CountError(f"gdb took over {TIMEOUT_SECONDS} s counting one "
                         "call: try a smaller SIZE")


def count_per_call(command, points):
    """Runs per call of each (symbol, offset) in points, for the driver
    command (`cyclebench run ...`, run here for COUNT_SECONDS instead of
    its own --seconds: an option is given once), and the bytes one call
    processes. Raises CountError."""
    gdb = find_gdb()
    with tempfile.TemporaryDirectory(prefix="loop_count.") as tmp:
        output = os.path.join(tmp, "run.json")
        args = [a for a in command[1:] if not a.startswith("--seconds=")]
        script = gdb_script([*args, f"--seconds={COUNT_SECONDS}"], points,
                            output)
        stdout, stderr = run_gdb(gdb, command[0], script)
        try:
            with open(output) as f:
                driver = json.load(f)
        except (OSError, ValueError):
            raise gdb_failure(stdout, stderr)
    if "exited normally" not in stdout:
        raise gdb_failure(stdout, stderr)
    hits = parse_hits(stdout, len(points))
    calls = driver["calls"]
    return [h / calls for h in hits], driver["bytes_per_call"]
