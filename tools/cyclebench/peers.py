"""Ours against the peers: each kernel of ours at its fastest ISA beside the
external kernels that compute the same thing (paired by the registry's
counterpart, as the charts pair them), at chosen sizes. The bench summary
and the report read their comparisons from here; and the same-moment
ratios of bench's pair rounds, with their range across the rounds.
"""
import math
import statistics
from dataclasses import dataclass, field

from .registry import natural_key
from .units import sig3

# The sizes the summary speaks of: a short message, the chacha-opt and
# blake2b-opt tables' 576 bytes, and a bulk one.
SUMMARY_SIZES = (64, 576, 16384)
COUNTER = "tsc_cycles_per_byte"


def ratio_text(ratio):
    """"0.94x": how ratios print everywhere (summary, report)."""
    return f"{ratio:.2f}x"


@dataclass
class Peer:
    kernel: str   # "openssl:chacha20"
    library: str  # "openssl"
    value: float  # its median
    ratio: float  # ours / its: below 1, ours is faster

    def __str__(self):
        """"0.529 (0.94x)": its median and ours / its."""
        return f"{sig3(self.value)} ({ratio_text(self.ratio)})"


@dataclass
class Comparison:
    kernel: str  # ours
    isa: str     # the fastest of ours at this size
    size: int
    value: float
    peers: list = field(default_factory=list)


def nearest_sizes(available, wanted=SUMMARY_SIZES):
    """For each wanted size the closest one run (on a log scale), without
    repeats, in order."""
    chosen = []
    for size in wanted:
        if not available:
            break
        near = min(available, key=lambda s: (abs(math.log(s / size)), s))
        if near not in chosen:
            chosen.append(near)
    return chosen


def our_kernels(results):
    """Our kernels in the order they ran (the run groups them)."""
    seen = []
    for key in results.runs:
        if not key.external and key.kernel not in seen:
            seen.append(key.kernel)
    return seen


def peers_of(results, kernel):
    """The external kernels measured in results that pair with kernel."""
    counterpart = results.kernels.counterpart
    return sorted({key.kernel for key in results.runs
                   if key.external and counterpart(key.kernel) == kernel},
                  key=natural_key)


def unpaired_externals(results):
    """External kernels with no kernel of ours in results to pair with."""
    ours = set(our_kernels(results))
    counterpart = results.kernels.counterpart
    return sorted({key.kernel for key in results.runs if key.external
                   and counterpart(key.kernel) not in ours}, key=natural_key)


def fastest(results, kernel, size, counter=COUNTER):
    """(isa, median) of kernel's fastest ISA at size, or None."""
    measured = [(run.median(counter), key.isa)
                for key, run in results.runs.items()
                if key.kernel == kernel and key.size == size
                and not key.external and run.median(counter) is not None]
    if not measured:
        return None
    value, isa = min(measured)
    return isa, value


def comparisons(results, sizes=None, counter=COUNTER):
    """[Comparison] for every kernel of ours at each of the sizes (default:
    the run's sizes nearest SUMMARY_SIZES)."""
    if sizes is None:
        sizes = nearest_sizes(sorted({key.size for key in results.runs}))
    rows = []
    for kernel in our_kernels(results):
        for size in sizes:
            best = fastest(results, kernel, size, counter)
            if not best:
                continue
            row = Comparison(kernel, best[0], size, best[1])
            for peer in peers_of(results, kernel):
                value = results.median(peer, "external", size, counter)
                if value:
                    row.peers.append(Peer(peer, results.kernels.library(peer),
                                          value, best[1] / value))
            rows.append(row)
    return rows


# What the summary says of a pair whose ratio fell on both sides of 1.0 in
# different rounds.
HOST_DEPENDENT = "the winner depends on the host's state here"


@dataclass
class SameMoment:
    """Ours against one peer at one size over bench's pair rounds: each
    round's median ratio (ours / theirs, both timed in turn in blocks)."""
    kernel: str  # ours
    isa: str     # the row of ours the rounds timed
    size: int
    peer: str
    library: str
    ratios: list  # per round, in the order the rounds ran

    @property
    def median(self):
        return statistics.median(self.ratios)

    @property
    def low(self):
        return min(self.ratios)

    @property
    def high(self):
        return max(self.ratios)

    @property
    def host_dependent(self):
        """Ours won some rounds and the peer others."""
        return self.low < 1.0 < self.high

    @property
    def verdict(self):
        """Who was faster: in words, for the summary."""
        if self.host_dependent:
            return HOST_DEPENDENT
        return ("ours faster in every round" if self.high < 1.0
                else "the peer faster in every round")


def same_moment(results):
    """[SameMoment] from results' pair rounds: our kernels in the order
    they ran, each by size and peer; [] for a run without any."""
    pairs = {}
    for r in results.pair_rounds:
        key = (r.kernel, r.isa, r.size, r.vs)
        if key not in pairs:
            pairs[key] = SameMoment(r.kernel, r.isa, r.size, r.vs,
                                    results.kernels.library(r.vs), [])
        pairs[key].ratios.append(r.ratio)
    ran = {kernel: i for i, kernel in enumerate(
        dict.fromkeys(r.kernel for r in results.pair_rounds))}
    return sorted(pairs.values(), key=lambda p: (
        ran[p.kernel], p.size, natural_key(p.peer)))
