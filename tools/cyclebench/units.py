"""Units and numbers as every command prints them: which clock a
cycles/byte figure is in (TSC ticks are not core cycles), and figures to
three significant places.
"""
import math

from .errors import InputError

# The clocks a cycles/byte figure can be read in: the TSC, which the harness
# reads around every batch, or core cycles (PMU, or estimated from the TSC).
CLOCK_COUNTERS = {"tsc": "tsc_cycles_per_byte", "core": "core_cycles_per_byte"}


def clock_counter(clock):
    if clock not in CLOCK_COUNTERS:
        raise InputError(f"unknown clock '{clock}': use "
                         f"{' or '.join(CLOCK_COUNTERS)}")
    return CLOCK_COUNTERS[clock]


# What the tsc_* figures count, by the results' timer_clock: the TSC on
# x86-64, the generic timer (CNTVCT_EL0) on aarch64. Files from before
# timer_clock was recorded are x86-64's.
TIMER_CLOCK_NAMES = {"tsc": "TSC ticks", "cntvct": "generic-timer ticks"}


def clock_unit(context, clock, per="byte"):
    """"TSC ticks/byte" (or "generic-timer ticks/byte" on aarch64), or
    "core cycles/byte (estimated)" / "(pmu)"."""
    if clock_counter(clock) == CLOCK_COUNTERS["tsc"]:
        timer = context.get("timer_clock", "tsc")
        return f"{TIMER_CLOCK_NAMES.get(timer, timer + ' ticks')}/{per}"
    source = context.get("core_clock_source", "estimated")
    return f"core cycles/{per} ({source})"


def tsc_rate(context):
    """"2.300 GHz", or "rate unknown" when the results do not record it."""
    hz = float(context.get("tsc_hz") or 0)
    return f"{hz / 1e9:.3f} GHz" if hz else "rate unknown"


def sig3(value):
    """Three significant figures, never in exponent form."""
    if value == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(abs(value))))
    return f"{value:,.{digits}f}"


def short_number(value):
    """3 significant figures; thousands and up with a k, M, G or T."""
    value = float(f"{value:.3g}")
    for power, prefix in [(12, "T"), (9, "G"), (6, "M"), (3, "k")]:
        if abs(value) >= 10 ** power:
            return f"{value / 10 ** power:.3g}{prefix}"
    return f"{value:.3g}"


def bytes_per_second(ns_per_byte):
    """Throughput from the TSC-timed ns/byte, as the results'
    bytes_per_second counter has it (in files from before, that counter was
    Google Benchmark's, over the thread's CPU time of the whole sampling:
    not the clock the harness times with)."""
    return 1e9 / ns_per_byte if ns_per_byte else None
