"""The machines behind a set of results files, for `make report`.

Inputs are results files and fleet directories (`make fleet`'s
out/fleet/<inventory host>/, holding that host's results and, when it
failed, an error.txt). A machine is what a run's context says it ran on:
the host (the fleet's inventory name where there is one, else Google
Benchmark's host_name), cpu_model, cpu_features, and tsc_hz within its
measuring wobble. Several runs of one machine merge into one set: for each
benchmark, the newest run that has it (newest by run_id, the run's UTC
start; runs without one by their date).
"""
import os
from dataclasses import dataclass, field

from ..errors import InputError
from ..results import Results, load, tsc_hz_differs

FLEET_ERROR = "error.txt"
# The context key a fleet host's results are labelled with. make fleet's
# directory names it too, so results copied in by hand get it from there.
FLEET_HOST = "fleet_host"


@dataclass
class Failure:
    host: str     # the inventory host
    message: str  # one line: the step and its error


@dataclass
class Machine:
    label: str    # unique within a report
    runs: list    # its Results, newest first
    merged: Results = None
    source: dict = field(default_factory=dict)  # Key -> run id it came from

    @property
    def context(self):
        return self.merged.context

    def mixed(self, *keys):
        """Whether these benchmarks come from more than one run."""
        return len({self.source.get(key) for key in keys}) > 1


def host_label(context):
    return (context.get(FLEET_HOST) or context.get("host_name")
            or "unknown host")


def run_id(results):
    """What orders runs: the run_id (UTC, sortable), else the date."""
    ctx = results.context
    return str(ctx.get("run_id") or ctx.get("date") or results.path)


def same_machine(a, b):
    keys = ("cpu_model", "cpu_features")
    return (host_label(a) == host_label(b)
            and all(a.get(k) == b.get(k) for k in keys)
            and not tsc_hz_differs(a.get("tsc_hz"), b.get("tsc_hz")))


# Reading inputs

def read_error(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.strip() for line in f if line.strip()]
    return " ".join(lines) or "failed (the error marker is empty)"


def read_fleet(directory):
    """([Results], [Failure]) from out/fleet/<host>/ directories."""
    runs, failures = [], []
    hosts = sorted(name for name in os.listdir(directory)
                   if not name.startswith(".")
                   and os.path.isdir(os.path.join(directory, name)))
    for host in hosts:
        host_dir = os.path.join(directory, host)
        names = sorted(os.listdir(host_dir))
        if FLEET_ERROR in names:
            failures.append(Failure(host, read_error(
                os.path.join(host_dir, FLEET_ERROR))))
        for name in names:
            if name.endswith(".json"):
                results = load(os.path.join(host_dir, name), emulated=True)
                results.context.setdefault(FLEET_HOST, host)
                runs.append(results)
    if not hosts:
        raise InputError(f"{directory} holds no host directories: run "
                         f"`make fleet INVENTORY=...` first, or name results "
                         f"files")
    return runs, failures


def read_inputs(paths):
    """([Results], [Failure]) from results files and fleet directories.
    A missing or malformed one raises InputError."""
    runs, failures = [], []
    for path in paths:
        if os.path.isdir(path):
            more, failed = read_fleet(path)
            runs += more
            failures += failed
        elif os.path.exists(path):
            runs.append(load(path, emulated=True))
        else:
            raise InputError(f"no results file or fleet directory {path}: "
                             f"run `make bench` or `make fleet` first, or "
                             f"name existing files in RESULTS=")
    return runs, failures


# Grouping and merging

def merge(machine):
    """The newest run of each benchmark; the context of the newest run."""
    runs, errors = {}, {}
    for results in reversed(machine.runs):  # oldest first: newer overwrite
        for key, run in results.runs.items():
            runs[key] = run
            machine.source[key] = run_id(results)
            errors.pop(key, None)
        for key, message in results.errors.items():
            if key not in runs:
                errors[key] = message
    newest = machine.runs[0]
    machine.merged = Results(newest.path, newest.context, runs, errors,
                             newest.registry)


def unique_labels(machines):
    """Host names, with the CPU (and then a number) added where two
    machines share one."""
    labels = [m.label for m in machines]
    for m in machines:
        if labels.count(m.label) > 1:
            m.label = f"{m.label} ({m.context.get('cpu_model', '?')})"
    seen = {}
    for m in machines:
        seen[m.label] = seen.get(m.label, 0) + 1
        if seen[m.label] > 1:
            m.label = f"{m.label} #{seen[m.label]}"


def group(all_runs):
    """[Machine], in the order their first runs were given. A run given
    twice (latest.json beside its <run_id>.json) counts once."""
    machines = []
    for results in all_runs:
        ctx = results.context
        machine = next((m for m in machines
                        if same_machine(m.runs[0].context, ctx)), None)
        if machine is None:
            machines.append(Machine(host_label(ctx), [results]))
        elif run_id(results) not in map(run_id, machine.runs):
            machine.runs.append(results)
    for machine in machines:
        machine.runs.sort(key=run_id, reverse=True)
        merge(machine)
    unique_labels(machines)
    return machines
