"""What a scenario is (Scenario), and running it: `cyclebench bench` over
its kernels that this CPU runs, once by default and once per ExtraRun
(another environment, more options), then `cyclebench run --vs` per
PairedRun (two rows in turn, for a ratio of the same moments), into a
Measured."""
import json
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable

from .. import registry as kernel_registry
from ..errors import InputError
from ..leak.table import LEAK_CSV
from ..results import Results, parse
from ..units import bytes_per_second

MIB = 1 << 20
NOT_RUN = Results("(not run)", {}, {}, {})


@dataclass
class ExtraRun:
    """A second bench run of some of the kernels, in a changed
    environment."""
    label: str
    prefix: object  # the kernels whose names start with it (str or tuple)
    env: dict
    args: list = field(default_factory=list)  # more bench options


@dataclass
class PairedRun:
    """Two fixed rows timed in turn by `cyclebench run A --vs=B` (paired.h),
    whose per-pair ratio a table reports: for pairs whose ratio moves with
    the host more than either kernel does (a throughput-bound kernel
    against a latency-bound one)."""
    kernel: str  # "name@isa"
    vs: str      # "name@isa"
    size: int
    env: dict = field(default_factory=dict)
    seconds: float = 3.0

    def key(self):
        return (self.kernel, self.vs, self.size)


@dataclass
class Scenario:
    name: str
    title: str
    experiment: str  # the published one it reruns
    kernels: list
    sizes: list
    table: Callable   # Measured -> Table
    chart: Callable   # Table, Measured -> Figure
    repetitions: int = None  # fixed by the experiment, else the option's
    extra_runs: list = field(default_factory=list)
    paired_runs: list = field(default_factory=list)


@dataclass
class Measured:
    """The registry of the binary that ran (its kernels, ISAs best first,
    and which this CPU supports) and the bench runs of a scenario ({label:
    Results}; "default" always)."""
    registry: kernel_registry.Registry
    runs: dict
    profiles_dir: str = "out/profiles"
    leak_csv: str = LEAK_CSV  # make leak-table's verdicts, if it has run
    # {PairedRun.key(): run --vs's JSON}, for the pairs this CPU runs
    paired: dict = field(default_factory=dict)

    @property
    def results(self):
        return self.runs["default"]

    def context(self):
        return self.results.context

    def best_isa(self, kernel):
        return next((isa.name for isa in self.registry.variants(kernel)
                     if isa.supported), None)


@dataclass
class Options:
    binary: str = "build/cyclebench"
    out: str = "out/scenarios"
    profiles: str = "out/profiles"
    min_time: float = None  # None: the sampler's default
    repetitions: int = 1    # the sampler pins each median within a run
    cpu: int = None  # None: the bench's default CPU
    leak: str = LEAK_CSV


# What the tables read

def ns_per_byte(results, kernel, isa, size):
    return results.median(kernel, isa, size, "ns_per_byte")


def throughput(results, kernel, isa, size):
    """Bytes per second at one size, or None."""
    ns = ns_per_byte(results, kernel, isa, size)
    return bytes_per_second(ns) if ns else None


# Running

def bench_command(scenario, kernels, opts, args=()):
    """The bench command line, less its --benchmark_out. Without bench's
    pair rounds: a scenario's tables read its benchmarks, and times the
    same-moment pairs it needs itself (paired_command)."""
    reps = scenario.repetitions or opts.repetitions
    return [opts.binary, "bench", *args, "--kernel=" + ",".join(kernels),
            "--sizes=" + ",".join(map(str, scenario.sizes)),
            f"--benchmark_repetitions={reps}", "--pair-rounds=0"] + (
                [f"--benchmark_min_time={opts.min_time}"]
                if opts.min_time is not None else []) + (
                [f"--cpu={opts.cpu}"] if opts.cpu is not None else [])


def failed(scenario, what, done):
    """The InputError for a command of the scenario that exited nonzero:
    what ran, its status and the last line it said."""
    said = (done.stderr.strip().splitlines() or ["no message"])[-1]
    return InputError(f"scenario {scenario.name}: {what} failed with exit "
                      f"{done.returncode}: {said}")


def run_bench(scenario, kernels, opts, env, label, registry, args=()):
    """One bench run: (Results, its raw JSON)."""
    with tempfile.TemporaryDirectory(prefix="cyclebench-scenario-") as tmp:
        path = os.path.join(tmp, "results.json")
        command = bench_command(scenario, kernels, opts, args) + [
            f"--benchmark_out={path}", "--benchmark_out_format=json"]
        done = subprocess.run(command, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True,
                              env={**os.environ, **env})
        if done.returncode != 0:
            raise failed(scenario, f"`cyclebench bench` ({label} run)", done)
        with open(path, encoding="utf-8") as f:
            raw = f.read()
    return parse(json.loads(raw), f"{scenario.name} ({label} run)",
                 registry), raw


def runnable(registry, kernels):
    """The kernels with at least one ISA this CPU supports."""
    return [k for k in kernels
            if any(isa.supported for isa in registry.variants(k))]


def shown(command, env):
    return " ".join([f"{k}={shlex.quote(v)}" for k, v in env.items()] +
                    [shlex.quote(c) for c in command])


def paired_command(pair, opts):
    return [opts.binary, "run", pair.kernel, f"--vs={pair.vs}",
            f"--size={pair.size}", f"--seconds={pair.seconds}"]


def supported(registry, spec):
    """Whether this CPU runs the row "name@isa"."""
    name, _, isa = spec.partition("@")
    row = registry.kernel(name).isa(isa)
    return bool(row and row.supported)


def run_paired(scenario, pair, opts):
    """One `run --vs`: its JSON, as a dict."""
    done = subprocess.run(paired_command(pair, opts), capture_output=True,
                          text=True, env={**os.environ, **pair.env})
    if done.returncode != 0:
        raise failed(scenario,
                     f"`cyclebench run {pair.kernel} --vs={pair.vs}`", done)
    return json.loads(done.stdout)


def measure(scenario, opts):
    """Runs the scenario's benchmarks: (Measured, {label: raw JSON}, the
    commands run)."""
    registry = kernel_registry.from_binary(opts.binary)
    plans = [("default", runnable(registry, scenario.kernels), {}, [])]
    plans += [(x.label, runnable(registry, [k for k in scenario.kernels
                                            if k.startswith(x.prefix)]),
               x.env, x.args)
              for x in scenario.extra_runs]
    runs, raws, commands = {}, {}, []
    for label, kernels, env, args in plans:
        runs[label] = NOT_RUN
        if kernels:
            commands.append(shown(bench_command(scenario, kernels, opts, args),
                                  env))
            print(f"scenario {scenario.name}: {commands[-1]}", file=sys.stderr)
            runs[label], raws[label] = run_bench(scenario, kernels, opts,
                                                 env, label, registry, args)
    paired = {}
    for pair in scenario.paired_runs:
        if supported(registry, pair.kernel) and supported(registry, pair.vs):
            commands.append(shown(paired_command(pair, opts), pair.env))
            print(f"scenario {scenario.name}: {commands[-1]}", file=sys.stderr)
            paired[pair.key()] = run_paired(scenario, pair, opts)
    return (Measured(registry, runs, opts.profiles, opts.leak, paired), raws,
            commands)
