"""Reading `cyclebench bench` results: Google Benchmark JSON whose benchmarks
are named <kernel>@<isa>/<bytes> and whose context says which clocks were
read (harness/results.c writes it), and, from runs that timed them, the
pair rounds: ours against each peer at the same moments (PairRound).

Every figure and table reads medians through here: the _median aggregate
when the run has one, else the median of the repetitions. What the
kernels are (families, counterparts, ISA order) a run's registry says
(Results.kernels; registry.py).
"""
import json
import math
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from . import registry as kernel_registry
from .errors import InputError

BENCHMARK_NAME = re.compile(
    r"^(?P<kernel>[^@/]+)@(?P<isa>[^@/]+)/(?P<size>\d+)$")

# Fields of a benchmark entry that describe the run rather than measure it.
NOT_COUNTERS = {"family_index", "per_family_instance_index", "repetitions",
                "repetition_index", "threads", "iterations"}

# A run whose benchmarks had their CPU less than this share of the wall
# time was sharing it (the harness pins every run to the same CPU).
SHARED_CPU_BELOW = 0.9

# The per-byte counter the quartiles are recorded in.
TSC_COUNTER = "tsc_cycles_per_byte"
# q3 / q1 from which a benchmark's samples are taken to straddle two
# levels (Run.straddles): well beyond the spread of one steady speed.
STRADDLE_RATIO = 1.25

# tsc_hz is measured at every run, so one machine's figure wobbles by a
# little; beyond this share it is another TSC (another machine or clock).
TSC_HZ_TOLERANCE = 0.005


@dataclass(frozen=True, order=True)
class Key:
    """One benchmark: a kernel variant at one message size."""
    kernel: str
    isa: str
    size: int

    @property
    def external(self):
        return self.isa == "external"

    @property
    def variant(self):
        return f"{self.kernel}@{self.isa}"

    def __str__(self):
        return f"{self.kernel}@{self.isa}/{self.size}"


@dataclass(frozen=True)
class PairRound:
    """One pair of one of bench's pair rounds (harness/pair_rounds.h):
    kernel@isa against vs, timed in turn in blocks as `run --vs` times
    them, at size bytes."""
    round: int
    kernel: str
    isa: str
    vs: str
    size: int
    ratio: float  # ours / theirs, the median over the round's pairs of blocks
    q1: float
    q3: float


# What a pair round's entry must hold, and the ratio's figures read.
PAIR_FIELDS = ("round", "kernel", "isa", "vs", "size", "ratio")
PAIR_RATIO_FIGURES = ("median", "q1", "q3")


@dataclass
class Run:
    """A benchmark's repetitions (counter -> values) and medians."""
    key: Key
    repetitions: dict = field(default_factory=dict)
    medians: dict = field(default_factory=dict)

    def median(self, counter):
        if counter in self.medians:
            return self.medians[counter]
        values = self.repetitions.get(counter)
        return statistics.median(values) if values else None

    def floor(self, counter):
        """The lowest repetition (the median when only aggregates exist)."""
        values = self.repetitions.get(counter)
        return min(values) if values else self.medians.get(counter)

    def quartiles(self, counter):
        """(q1, q3) of the samples behind the median, in counter's unit, or
        None. The harness records them in TSC ticks per byte; another
        per-byte counter (ns, core cycles) is the same samples scaled."""
        q1, q3 = (self.median(f"{counter}_q{i}") for i in (1, 3))
        if q1 is None or q3 is None:
            tsc = self.median(TSC_COUNTER)
            q1, q3 = (self.median(f"{TSC_COUNTER}_q{i}") for i in (1, 3))
            value = self.median(counter)
            if None in (q1, q3, tsc, value) or tsc <= 0:
                return None
            q1, q3 = q1 * value / tsc, q3 * value / tsc
        return q1, q3

    def straddles(self, counter):
        """Whether the samples sit at two levels rather than around one: a
        quartile range this wide is no noise around a single speed (the
        ssse3 AES on a shared core runs at one of two)."""
        q = self.quartiles(counter)
        return bool(q) and q[0] > 0 and q[1] / q[0] >= STRADDLE_RATIO


@dataclass
class Results:
    path: str
    context: dict
    runs: dict    # Key -> Run
    errors: dict  # Key -> the error a benchmark skipped with
    registry: kernel_registry.Registry = None  # None: for_results()'s
    # [PairRound] in the order they ran; none in a run without pair rounds
    # (--pair-rounds=0, no peer in it, or a file from before them)
    pair_rounds: list = field(default_factory=list)

    @property
    def emulator(self):
        """What the run was timed under (bench --emulated), or None: then
        its figures are the emulator's, never a speed."""
        return self.context.get("emulator") or None

    @property
    def kernels(self):
        """The registry that says what this run's kernels are."""
        return self.registry or kernel_registry.for_results()

    def get(self, kernel, isa, size):
        return self.runs.get(Key(kernel, isa, size))

    def median(self, kernel, isa, size, counter):
        run = self.get(kernel, isa, size)
        return run.median(counter) if run else None

    def series(self, kernel, isa, counter):
        """[(size, median)] for one variant, by size."""
        points = [(key.size, run.median(counter))
                  for key, run in self.runs.items()
                  if (key.kernel, key.isa) == (kernel, isa)]
        return sorted(p for p in points if p[1] is not None)

    def families(self):
        """{family: {panel: [(kernel, isa)]}}: a panel per kernel of ours,
        with the external kernels that do the same operation beside it; in
        each panel our ISAs lowest first, then the external kernels."""
        registry = self.kernels
        grouped = defaultdict(lambda: defaultdict(set))
        for key in self.runs:
            grouped[registry.family(key.kernel)][
                registry.counterpart(key.kernel)].add((key.kernel, key.isa))

        def in_isa_order(variants):
            return sorted(variants, key=lambda v: (
                registry.isa_rank(v[0], v[1]), v[0]))

        def in_name_order(panels):
            return sorted(panels.items(),
                          key=lambda p: kernel_registry.natural_key(p[0]))

        return {fam: {panel: in_isa_order(variants)
                      for panel, variants in in_name_order(panels)}
                for fam, panels in sorted(grouped.items())}

    def skipped_reason(self, kernel, isa):
        """Why `cyclebench bench` left kernel@isa (or one of its sizes) out,
        from the context's "skipped" list ("name@isa (why), ..."), or
        None."""
        variant = f"{kernel}@{isa}"
        reasons = skipped_reasons(self.context.get("skipped", ""))
        return reasons.get(variant) or next(
            (why for name, why in reasons.items()
             if name.startswith(variant + "/")), None)

    def cpu_share(self):
        """The median over benchmarks of the share of the sampling's wall
        time the benchmark thread was on its CPU: sampling_cpu_seconds /
        sampling_seconds (in files written before those counters, when
        Google Benchmark's cpu_time and real_time timed the whole sampling,
        their ratio). Well under 1 means something else ran on the pinned
        CPU, inflating every time."""
        shares = [share for run in self.runs.values()
                  if (share := _on_cpu(run)) is not None]
        return statistics.median(shares) if shares else None

    def contention(self):
        """A one-line warning when the CPU was shared, else None."""
        share = self.cpu_share()
        if share is None or share >= SHARED_CPU_BELOW:
            return None
        return (f"{self.path}: the benchmarks had their CPU only "
                f"{share:.0%} of the time (sampling_cpu_seconds over "
                f"sampling_seconds), so another "
                f"process shared the pinned CPU and every time is inflated: "
                f"rerun on a quiet machine, or on another CPU (CPU=n)")

    def error(self, kernel, isa):
        """The error a size of kernel@isa stopped with, or None."""
        return next((message for key, message in sorted(self.errors.items())
                     if (key.kernel, key.isa) == (kernel, isa)), None)


def _on_cpu(run):
    """run's thread CPU time over its wall time while sampling, or None."""
    cpu, wall = ("sampling_cpu_seconds", "sampling_seconds") \
        if run.median("sampling_seconds") else ("cpu_time", "real_time")
    if run.median(wall) and run.median(cpu):
        return run.median(cpu) / run.median(wall)
    return None


def skipped_reasons(text):
    """{"kernel@isa" or "kernel@isa/size": why} from a "skipped" context
    value. A reason may hold parentheses and commas, so parse by nesting."""
    reasons, pos = {}, 0
    while True:
        open_paren = text.find(" (", pos)
        if open_paren < 0:
            return reasons
        name = text[pos:open_paren].strip().lstrip(",").strip()
        depth, end = 0, open_paren + 1
        for end in range(open_paren + 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        reasons[name] = text[open_paren + 2:end]
        pos = end + 1


def _counters(entry):
    return {k: float(v) for k, v in entry.items()
            if k not in NOT_COUNTERS and isinstance(v, (int, float))
            and not isinstance(v, bool) and math.isfinite(v)}


def _add_entry(runs, errors, entry):
    name = entry.get("run_name", entry.get("name", ""))
    match = BENCHMARK_NAME.match(str(name))
    if not match:
        return
    key = Key(match["kernel"], match["isa"], int(match["size"]))
    if entry.get("error_occurred"):
        errors[key] = entry.get("error_message", "error")
        return
    run = runs.setdefault(key, Run(key))
    if entry.get("run_type") == "aggregate":
        if entry.get("aggregate_name") == "median":
            run.medians = _counters(entry)
        return
    for counter, value in _counters(entry).items():
        run.repetitions.setdefault(counter, []).append(value)


def _derive(runs, context):
    """What a compact sweep (sweep.py) leaves out because its context gives
    it: ns/byte from the TSC rate, and core cycles/byte where they were
    estimated (TSC ticks times the core/TSC ratio), never where a PMU
    counted them."""
    tsc_hz = float(context.get("tsc_hz") or 0)
    ratio = float(context.get("core_tsc_ratio") or 0)
    estimated = context.get("core_clock_source") == "estimated"
    for run in runs.values():
        for values in (run.medians, run.repetitions):
            tsc = values.get("tsc_cycles_per_byte")
            if tsc is None:
                continue
            scale = (lambda v, f: [x * f for x in v]) if isinstance(
                tsc, list) else (lambda v, f: v * f)
            if "ns_per_byte" not in values and tsc_hz:
                values["ns_per_byte"] = scale(tsc, 1e9 / tsc_hz)
            if "core_cycles_per_byte" not in values and estimated and ratio:
                values["core_cycles_per_byte"] = scale(tsc, ratio)


def _pair_round(entry):
    """A PairRound from one entry of "pair_rounds", or None when it lacks
    what one holds."""
    ratio = entry.get("ratio") if isinstance(entry, dict) else None
    if not isinstance(ratio, dict) or any(k not in entry
                                          for k in PAIR_FIELDS) or any(
            not isinstance(ratio.get(k), (int, float))
            for k in PAIR_RATIO_FIGURES):
        return None
    return PairRound(int(entry["round"]), entry["kernel"], entry["isa"],
                     entry["vs"], int(entry["size"]),
                     *(float(ratio[k]) for k in PAIR_RATIO_FIGURES))


def _pair_rounds(entries, path):
    """[PairRound] from a results file's "pair_rounds" (None: none)."""
    if entries is None:
        return []
    rounds = [_pair_round(e) for e in entries] if isinstance(
        entries, list) else [None]
    if None in rounds:
        raise InputError(
            f"{path}: its pair_rounds are not a list of pair rounds (each "
            f"with {', '.join(PAIR_FIELDS)} and the ratio's "
            f"{', '.join(PAIR_RATIO_FIGURES)}): pass a results file written "
            f"by `cyclebench bench`")
    return rounds


def parse(document, path, registry=None):
    """Results from an already-decoded results document; registry names
    its kernels (default: registry.for_results()'s)."""
    hint = "pass a results file written by `cyclebench bench` (make bench)"
    if not isinstance(document, dict) or not isinstance(
            document.get("benchmarks"), list):
        raise InputError(f"{path} is not a cyclebench results file (no "
                         f"'benchmarks' list): {hint}")
    runs, errors = {}, {}
    for entry in document["benchmarks"]:
        if isinstance(entry, dict):
            _add_entry(runs, errors, entry)
    runs = {k: r for k, r in runs.items() if r.medians or r.repetitions}
    if not runs and not errors:
        raise InputError(f"{path} holds no <kernel>@<isa>/<bytes> "
                         f"benchmarks: {hint}")
    context = document.get("context")
    context = context if isinstance(context, dict) else {}
    _derive(runs, context)
    return Results(path, context, runs, errors, registry,
                   _pair_rounds(document.get("pair_rounds"), path))


def load(path, registry=None, emulated=False):
    """The results in path. A file timed under an emulator (bench
    --emulated) is refused unless the caller shows its figures as no speed
    (emulated=True: make report)."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read results file {path}: {e.strerror}: "
                         f"run `make bench` first, or name an existing "
                         f"file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path} is not valid JSON ({e}): pass a results "
                         f"file written by `cyclebench bench`") from None
    results = parse(document, path, registry)
    if results.emulator and not emulated:
        raise InputError(f"{path} was timed under an emulator "
                         f"({results.emulator}): its figures describe the "
                         f"emulator, not a CPU; take results from a real "
                         f"{results.context.get('arch', 'native')} host "
                         f"(make report lists it, with no figures)")
    return results


def tsc_hz_differs(a, b):
    """Whether two contexts' tsc_hz values are different clocks."""
    a, b = float(a or 0), float(b or 0)
    return abs(a - b) > TSC_HZ_TOLERANCE * max(a, b)
