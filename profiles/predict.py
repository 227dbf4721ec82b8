"""Why a kernel runs at its speed, without a PMU: the hot loop of each hot
symbol through llvm-mca, beside what the profile measured.

For each named user-space symbol with at least HOT_SHARE percent of the
samples (at most MAX_SYMBOLS, and always the hottest), so that a composite
kernel such as LIONESS gets blake2b_compress_*'s and chacha_stream_xor_*'s
loops each:
1. its perf annotate listing and hot loop (hot_loop.py);
2. how often that loop and the loops inside it run per call of the kernel,
   counted with gdb (loop_count.py): bytes per iteration are the
   call's bytes over its iterations, and inner loops are unrolled by their
   trip counts;
3. llvm-mca on that body (mca.py): cycles per iteration and what
   bounds them.
Predicted cycles/byte is cycles per iteration over bytes per iteration;
the measured figure beside it is the symbol's share of the run's core
cycles/byte times the loop's share of the symbol's samples, counting only
the time the driver was on its CPU (on a shared machine it waits, and the
model knows nothing of waiting).
"""
import os
import re

from . import hot_loop, loop_count, mca

HOT_SHARE = 10.0
MAX_SYMBOLS = 3


def hot_rows(named_rows):
    rows = [r for r in named_rows if r["self_percent"] >= HOT_SHARE]
    return rows[:MAX_SYMBOLS] or named_rows[:1]


def file_name(symbol):
    return "mca-" + re.sub(r"[^A-Za-z0-9_.-]", "_", symbol) + ".s"


def count(command, symbols, notes):
    """{symbol: {address: runs per call}} and bytes per call, or (None,
    None) with a note saying why."""
    points, keys = [], []
    for s in symbols:
        start = hot_loop.address(s["listing"]["instructions"][0])
        for at in hot_loop.count_points(s["loop"]):
            points.append((s["row"]["symbol"], at - start))
            keys.append((s["row"]["symbol"], at))
    try:
        per_call, bytes_per_call = loop_count.count_per_call(command, points)
    except loop_count.CountError as e:
        notes.append(f"bytes per iteration unknown, cycles per iteration "
                     f"only: {e}")
        return None, None
    hits = {}
    for (symbol, at), n in zip(keys, per_call):
        hits.setdefault(symbol, {})[at] = n
    return hits, bytes_per_call


def analyse(s, hits, bytes_per_call, on_cpu, model, out_dir):
    """One symbol's entry: its loop through llvm-mca, the figures beside
    it, and the section of mca.txt."""
    row, listing, blocks = s["row"], s["listing"], s["blocks"]
    start = hot_loop.address(listing["instructions"][0])
    loop = hot_loop.fit(s["loop"], blocks, hits)
    body = hot_loop.body(loop, blocks, hits)
    where = hot_loop.describe(loop, blocks, hits, start)
    source = os.path.join(out_dir, file_name(row["symbol"]))
    with open(source, "w") as f:
        f.write(hot_loop.mca_source(body, start, f"{row['symbol']}: {where}"))
    text, cmd, dropped = mca.run(model, source)
    parsed = mca.parse(text)
    share = loop.percent / s["root"].percent if s["root"].percent else 0.0
    iterations = hits.get(loop.header) if hits else None
    per_iteration = bytes_per_call / iterations if iterations else None
    cpi = parsed["cycles_per_iteration"]
    predicted = cpi / per_iteration if per_iteration else None
    measured = row["cycles_per_byte"] * share * on_cpu
    entry = {
        "symbol": row["symbol"], "self_percent": row["self_percent"],
        "loop": where, "loop_header": f"{loop.header - start:#x}",
        "whole_symbol": loop.whole_symbol,
        "loop_share_percent": round(100 * share, 2),
        "instructions": len(body),
        "iterations_per_call": iterations, "bytes_per_call": bytes_per_call,
        "bytes_per_iteration": per_iteration,
        "bytes_per_iteration_source": (
            f"gdb breakpoint count: {iterations:g} iterations per "
            f"{bytes_per_call:g}-byte call" if per_iteration else None),
        "cycles_per_iteration": round(cpi, 2),
        "block_rthroughput": parsed.get("block_rthroughput"),
        "predicted_cycles_per_byte": round(predicted, 4) if predicted else None,
        "measured_cycles_per_byte": round(measured, 4),
        "model_fraction": round(predicted / measured, 4)
        if predicted and measured else None,
        "bottleneck": mca.bottleneck(parsed),
        "mca_input": os.path.basename(source), "mca_command": cmd,
        "dropped_instructions": dropped,
    }
    header = (f"#### {row['symbol']}: {where}; {len(body)} instructions "
              f"from {os.path.basename(source)}\n#### $ {' '.join(cmd)}\n")
    return entry, header + text


def predict(named_rows, on_cpu, annotate, driver_command, model, out_dir):
    """The prediction fields of breakdown.json, for the profile's rows
    (their cycles/byte from a run that was on its CPU for the fraction
    on_cpu of its loop); writes mca.txt and the llvm-mca inputs into
    out_dir. annotate(symbol) gives perf annotate's listing."""
    notes, symbols = [], []
    for row in hot_rows(named_rows):
        listing = annotate(row["symbol"])
        if not listing["instructions"]:
            notes.append(f"{row['symbol']}: perf annotate shows no code")
            continue
        root, blocks = hot_loop.loop_tree(listing)
        symbols.append({"row": row, "listing": listing, "root": root,
                        "blocks": blocks, "loop": hot_loop.hot_loop(root)})
    hits, bytes_per_call = count(driver_command, symbols, notes) \
        if symbols else (None, None)
    entries, sections = [], []
    for s in symbols:
        entry, section = analyse(s, hits.get(s["row"]["symbol"]) if hits
                                 else None, bytes_per_call, on_cpu, model,
                                 out_dir)
        entries.append(entry)
        sections.append(section)
        if hits is not None and not entry["iterations_per_call"]:
            notes.append(f"{entry['symbol']}: its loop at +"
                         f"{entry['loop_header']} did not run in the counted "
                         "call, so its bytes per iteration are unknown")
    with open(os.path.join(out_dir, "mca.txt"), "w") as f:
        f.write("\n".join(sections))
    known = [e for e in entries if e["predicted_cycles_per_byte"]]
    predicted = sum(e["predicted_cycles_per_byte"] for e in known)
    measured = sum(e["measured_cycles_per_byte"] for e in known)
    return {
        "mcpu": model.name, "mcpu_source": model.how,
        "measured_on_cpu_fraction": on_cpu,
        "predicted_cycles_per_byte": round(predicted, 4) if known else None,
        "measured_loop_cycles_per_byte": round(measured, 4) if known else None,
        "model_fraction": round(predicted / measured, 4)
        if known and measured else None,
        "bottleneck": entries[0]["bottleneck"]["summary"] if entries else None,
        "mca": entries, "prediction_notes": notes,
    }


def unavailable(why):
    """The prediction fields when there is no prediction."""
    return {"mcpu": None, "mcpu_source": None, "measured_on_cpu_fraction": None,
            "predicted_cycles_per_byte": None,
            "measured_loop_cycles_per_byte": None, "model_fraction": None,
            "bottleneck": None, "mca": [], "prediction_notes": [why]}
