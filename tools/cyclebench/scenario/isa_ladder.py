"""ChaCha20/12/8 and BLAKE2b at 576 bytes on every ISA, in TSC ticks and
core cycles per call and per byte, with the speedup over generic C."""
from ..units import clock_unit
from .figures import bar_chart
from .measure import Scenario
from .table import Column, Table

SIZE = 576
KERNELS = ["chacha20", "chacha12", "chacha8", "blake2b"]


def values(results, kernel, isa):
    tsc = results.median(kernel, isa, SIZE, "tsc_cycles_per_byte")
    core = results.median(kernel, isa, SIZE, "core_cycles_per_byte")
    generic = results.median(kernel, "generic", SIZE, "tsc_cycles_per_byte")
    if tsc is None:
        return [None] * 5
    return [tsc * SIZE, tsc,
            core * SIZE if core is not None else None, core,
            generic / tsc if generic else None]


def table(m):
    source = m.context().get("core_clock_source", "estimated")
    t = Table([Column("TSC ticks/call", "int"), Column("TSC ticks/byte"),
               Column(f"core cycles/call ({source})", "int"),
               Column(f"core cycles/byte ({source})"),
               Column("speedup over generic", "x")])
    for kernel in KERNELS:
        t.add_variants(m, kernel, values)
    core = ("counted by the PMU." if source == "pmu" else
            "estimated: TSC ticks times the calibrated core/TSC ratio "
            f"({m.context().get('core_tsc_ratio', '?')}), as this machine "
            "has no PMU.")
    t.notes += [
        f"One call processes {SIZE} bytes: ChaCha encrypts them "
        "(DJB layout, 8-byte nonce), BLAKE2b hashes them to a 64-byte "
        "digest.",
        f"TSC ticks are what the harness reads; core cycles are {core}",
        "Speedup over generic is from TSC ticks/byte.",
    ]
    return t


def chart(t, m):
    return bar_chart(t, m.registry, f"ChaCha and BLAKE2b at {SIZE} bytes per "
                     "ISA", [1], f"{clock_unit(m.context(), 'tsc')} "
                     "(lower is faster)")


SCENARIO = Scenario(
    "isa-ladder", f"ChaCha20/12/8 and BLAKE2b at {SIZE} bytes per ISA level",
    "the chacha-opt and blake2b-opt tables", KERNELS, [SIZE], table, chart)
