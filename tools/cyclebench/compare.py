"""`make compare BASE=a.json NEW=b.json [THRESHOLD=5]`: two results files,
benchmark by benchmark, as Google Benchmark's tools/compare.py does it.

For each benchmark in both: the ratio of medians (new/base) and a two-sided
p-value, computed over one of two things, named per benchmark:
- "reps": a Mann-Whitney U test across the repetitions, where both runs
  have enough of them for the test to reach p < 0.05 (4 or more each);
- "samples": otherwise (one repetition is the default), from each median's
  95% confidence interval over its own samples (their 10 ms blocks), which
  bench records: a two-sided z-test on the difference of the medians, each
  median's standard error taken as its interval's width / (2 x 1.96).
Then the geometric mean of the ratios, and a plot. Exits 1 when a benchmark
got slower by more than THRESHOLD percent with p < 0.05, so CI can gate on
it; 2 on bad input. Says so when the two runs come from different machines
or builds.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.compare BASE NEW
        [--threshold=5] [--counter=tsc_cycles_per_byte] [--out=out/compare]
"""
import math
import os
import sys
from dataclasses import dataclass

from .drawing import plt
from .cli import ArgumentParser, run_main
from .errors import InputError
from .output import StagedFiles
from .results import load, tsc_hz_differs

ALPHA = 0.05

# Context keys whose difference means the runs are not like for like.
CONTEXT_GROUPS = {
    "machines": ["cpu_model", "cpu_features", "host_name", "num_cpus",
                 "tsc_hz"],
    "builds": ["compiler", "cflags", "git_commit", "library_build_type"],
    "run conditions": ["core_clock_source", "turbo", "pinned_cpu",
                       "pmu_events_opened"],
}


# Counters that are the TSC figure times a constant of the run, so its
# confidence interval scales to them.
TSC_COUNTER = "tsc_cycles_per_byte"
SCALED_FROM_TSC = {"ns_per_byte", "core_cycles_per_byte"}


@dataclass
class Comparison:
    name: str
    base: float      # medians
    new: float
    pvalue: float    # None when neither test applies
    repetitions: tuple
    method: str = ""  # "reps", "samples", or "" with no p-value

    @property
    def ratio(self):
        return self.new / self.base

    @property
    def change(self):
        """Percent; positive is slower (the counters are per byte)."""
        return (self.ratio - 1) * 100

    def significant(self):
        return self.pvalue is not None and self.pvalue < ALPHA

    def slower(self, threshold):
        return self.change > threshold and self.significant()

    def faster(self, threshold):
        return self.change < -threshold and self.significant()


def utest(base, new):
    """Two-sided Mann-Whitney U p-value, or None when the repetitions are
    too few for it to reach p < ALPHA."""
    if min(len(base), len(new)) < 2 or \
            lowest_pvalue(len(base), len(new)) >= ALPHA:
        return None
    from scipy.stats import mannwhitneyu
    return float(mannwhitneyu(base, new, alternative="two-sided").pvalue)


def lowest_pvalue(n_base, n_new):
    """The smallest two-sided p the exact U test can give for these sample
    sizes: both orderings of fully separated samples."""
    return 2 / math.comb(n_base + n_new, n_base)


def median_ci(results, run, counter):
    """(low, high): the 95% CI of run's median of counter over its samples,
    or None when the run did not record one."""
    low = run.median(f"{counter}_ci95_low")
    high = run.median(f"{counter}_ci95_high")
    if low is not None and high is not None:
        return low, high
    scaled = counter in SCALED_FROM_TSC and not (
        counter == "core_cycles_per_byte" and
        results.context.get("core_clock_source") == "pmu")
    tsc = run.median(TSC_COUNTER)
    tsc_ci = median_ci(results, run, TSC_COUNTER) if scaled else None
    if not tsc_ci or not tsc:
        return None
    scale = run.median(counter) / tsc
    return tsc_ci[0] * scale, tsc_ci[1] * scale


def ci_test(base, base_ci, new, new_ci):
    """Two-sided p of the difference of two medians, from their CIs."""
    se = math.hypot(*[(high - low) / (2 * 1.96)
                      for low, high in (base_ci, new_ci)])
    if se == 0:
        return 1.0 if base == new else 0.0
    return math.erfc(abs(new - base) / se / math.sqrt(2))


def significance(base, new, b, n, counter):
    """(p-value, method) for one benchmark of both runs."""
    p = utest(b.repetitions.get(counter, []), n.repetitions.get(counter, []))
    if p is not None:
        return p, "reps"
    cis = median_ci(base, b, counter), median_ci(new, n, counter)
    if None not in cis:
        return ci_test(b.median(counter), cis[0], n.median(counter),
                       cis[1]), "samples"
    return None, ""


def compare(base, new, counter):
    """[Comparison] for the benchmarks both runs have, by name, and the
    names only one has."""
    common = sorted(set(base.runs) & set(new.runs))
    comparisons = []
    for key in common:
        b, n = base.runs[key], new.runs[key]
        if not b.median(counter) or n.median(counter) is None:
            continue
        reps = (len(b.repetitions.get(counter, [])),
                len(n.repetitions.get(counter, [])))
        p, method = significance(base, new, b, n, counter)
        comparisons.append(Comparison(str(key), b.median(counter),
                                      n.median(counter), p, reps, method))
    only = (sorted(map(str, set(base.runs) - set(new.runs))),
            sorted(map(str, set(new.runs) - set(base.runs))))
    return comparisons, only


def geometric_mean(ratios):
    return math.exp(sum(map(math.log, ratios)) / len(ratios))


def turbo_after(value):
    """The state a run left turbo in ("... after: X; changed: ...")."""
    return value.split("after:", 1)[-1].split(";", 1)[0].strip()


def differs(key, a, b):
    if key == "tsc_hz":
        return tsc_hz_differs(a, b)
    if key == "turbo":
        return turbo_after(str(a)) != turbo_after(str(b))
    return a != b


def context_differences(base, new):
    """One line per group of context keys that differ, or []."""
    lines = []
    for group, keys in CONTEXT_GROUPS.items():
        diffs = [f"{k} {base.get(k)!r} vs {new.get(k)!r}" for k in keys
                 if (k in base or k in new) and differs(k, base.get(k),
                                                        new.get(k))]
        if diffs:
            lines.append(f"the runs come from different {group}: "
                         + "; ".join(diffs))
    return lines


# Report

def verdict(c, threshold):
    if c.slower(threshold):
        return "SLOWER"
    if c.faster(threshold):
        return "faster"
    if abs(c.change) > threshold:
        return "(not significant)"
    return ""


def describe(results):
    ctx = results.context
    return (f"{results.path} ({ctx.get('cpu_model', '?')}, commit "
            f"{ctx.get('git_commit', '?')}, {ctx.get('date', '?')})")


def report(base, new, comparisons, only, counter, threshold):
    width = max([len("benchmark")] + [len(c.name) for c in comparisons])
    lines = [f"base: {describe(base)}", f"new:  {describe(new)}",
             f"{counter} medians, lower is faster; slower means more than "
             f"{threshold:g}% with a two-sided p < {ALPHA}, computed over "
             f"the repetitions (reps: Mann-Whitney U) or over each "
             f"median's samples (samples: z-test from their 95% CIs)", "",
             f"{'benchmark':<{width}}  {'base':>10}  {'new':>10}  "
             f"{'change':>8}  {'p-value':>7}  {'over':<7}  verdict"]
    for c in comparisons:
        p = f"{c.pvalue:.4f}" if c.pvalue is not None else "n/a"
        lines.append(f"{c.name:<{width}}  {c.base:>10.4g}  {c.new:>10.4g}  "
                     f"{c.change:>+7.1f}%  {p:>7}  {c.method or '-':<7}  "
                     f"{verdict(c, threshold)}")
    mean = geometric_mean([c.ratio for c in comparisons])
    lines += ["", f"geometric mean of new/base over {len(comparisons)} "
              f"benchmarks: {mean:.4f} ({(mean - 1) * 100:+.1f}%)"]
    for side, names in zip(("base", "new"), only):
        if names:
            lines.append(f"only in {side} ({len(names)}): {', '.join(names)}")
    return "\n".join(lines) + "\n"


def untested_warning(comparisons):
    """A warning when some benchmarks have no p-value: too few repetitions
    and no confidence intervals (results from before the sampler)."""
    untested = [c for c in comparisons if c.pvalue is None]
    if not untested:
        return None
    n_base, n_new = min((c.repetitions for c in untested), key=min)
    return (f"{len(untested)} benchmark(s) have no p-value, so cannot be "
            f"flagged: {n_base} and {n_new} repetitions are too few for the "
            f"U test and the results record no confidence interval of the "
            f"median: bench both again with this version (make bench), or "
            f"with REPS=4 or more")


def figure(comparisons, threshold, title):
    fig, ax = plt.subplots(figsize=(9, 1.4 + 0.26 * len(comparisons)))
    colours = ["tab:red" if c.slower(threshold) else
               "tab:green" if c.faster(threshold) else "silver"
               for c in comparisons]
    ax.barh(range(len(comparisons)), [c.change for c in comparisons],
            color=colours, edgecolor="black", linewidth=0.4)
    ax.set_yticks(range(len(comparisons)), [c.name for c in comparisons],
                  fontsize="small")
    ax.invert_yaxis()
    for x in (-threshold, threshold):
        ax.axvline(x, color="gray", linestyle="--", linewidth=0.8)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("change of the median, new against base (%, + is slower)"
                  f"\nred: slower, green: faster, beyond ±{threshold:g}% with "
                  f"p < {ALPHA}")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def main(argv):
    parser = ArgumentParser(prog="python3 -m cyclebench.compare",
                            description=__doc__)
    parser.add_argument("base", nargs="?")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--threshold", type=float, default=5.0,
                        help="percent slower that fails (default 5)")
    parser.add_argument("--counter", default="tsc_cycles_per_byte",
                        help="a per-byte or time counter (lower is faster)")
    parser.add_argument("--out", default="out/compare",
                        help="directory for the plot and the report")
    args = parser.parse_args(argv)
    if not args.base or not args.new:
        raise InputError("give two results files: make compare BASE=a.json "
                         "NEW=b.json [THRESHOLD=5]")
    if args.counter.endswith("_per_second"):
        raise InputError(f"--counter={args.counter} is higher-is-faster: use "
                         f"a per-byte counter such as tsc_cycles_per_byte")
    base, new = load(args.base), load(args.new)
    comparisons, only = compare(base, new, args.counter)
    if not comparisons:
        raise InputError(f"{args.base} and {args.new} share no benchmark "
                         f"with a {args.counter} median: bench the same "
                         f"kernels and sizes in both")
    text = report(base, new, comparisons, only, args.counter, args.threshold)
    name = f"{stem(args.base)}_vs_{stem(args.new)}"
    mean = geometric_mean([c.ratio for c in comparisons])
    with StagedFiles(args.out) as files:
        files.add_text(f"{name}.txt", text)
        files.add_figure(name, figure(
            comparisons, args.threshold, f"{name}: geometric mean "
            f"{(mean - 1) * 100:+.1f}% ({args.counter})"))
        files.commit()
    print(text + f"plot and report: {args.out}/{name}.png, .svg, .txt")
    for warning in context_differences(base.context, new.context) + \
            [untested_warning(comparisons), base.contention(),
             new.contention()]:
        if warning:
            print(f"compare: warning: {warning}", file=sys.stderr)
    slower = [c for c in comparisons if c.slower(args.threshold)]
    if slower:
        print(f"compare: {len(slower)} benchmark(s) slower by more than "
              f"{args.threshold:g}% with p < {ALPHA}: " + ", ".join(
                  f"{c.name} ({c.change:+.1f}%)" for c in slower),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_main(main, "compare")
