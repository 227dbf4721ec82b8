"""The sweeps kept in the repository, one per host (docs/results/), the
same-moment pairs kept beside them, and the README's headline table
generated from the pairs.

    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.sweep compact RESULTS OUT
        A results file as a compact sweep: its context, and per benchmark
        only its median and quartiles in TSC ticks per byte, to four
        significant digits, one benchmark per line (a full sweep stays
        under 300 KB); and per pair round what the summary reads of it
        (the ratio's median and quartiles). Every tool reads it as
        results: ns/byte and estimated core cycles/byte follow from the
        context (results.py).
    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.sweep pairs OUT
        [--bin=build/cyclebench] [--seconds=2] [--size=16384]
        Each kernel of ours that has a peer, at its default row (the
        first its table supports here), against each peer in turn:
        `cyclebench run KERNEL --vs=PEER` (10 ms blocks in turn), one
        JSON object per pair, with the host and commit, into OUT.
    PYTHONPATH=tools /usr/bin/python3 -m cyclebench.sweep headline FILE...
        [--readme=README.md (--check | --write)]
        The headline table from pairs files (or compact sweeps): per host,
        each kernel of ours against its peers at 16 KiB, with the ratio
        of the same moments and its quartiles where a pairs file gives it.
        --check exits 1 when the README's table (between its headline
        markers) differs from it; --write puts it there.

A new host's sweep: `make bench`, then
`... sweep compact out/results/latest.json docs/results/<host>.json`.
"""
import json
import subprocess
import sys
import time

from .cli import ArgumentParser, run_main
from .errors import InputError
from .output import StagedFiles
from . import registry as kernel_registry
from .peers import comparisons, ratio_text
from .results import PAIR_FIELDS, PAIR_RATIO_FIGURES, load
from .units import sig3

# What a compact sweep keeps of each benchmark: the median and quartiles.
KEPT_COUNTERS = ("tsc_cycles_per_byte", "tsc_cycles_per_byte_q1",
                 "tsc_cycles_per_byte_q3")
KEPT_FIELDS = ("name", "error_occurred", "error_message")
DIGITS = 4
HEADLINE_SIZE = 16384
START, END = "<!-- headline:start -->", "<!-- headline:end -->"


def compact_entry(entry):
    kept = {k: entry[k] for k in KEPT_FIELDS if k in entry}
    # A median aggregate's name carries "_median": the run's name is the
    # benchmark's.
    kept["name"] = entry.get("run_name", entry.get("name"))
    kept.update({k: float(f"{entry[k]:.{DIGITS}g}") for k in KEPT_COUNTERS
                 if isinstance(entry.get(k), (int, float))})
    return kept


def compact_pair_round(entry):
    kept = {k: entry[k] for k in PAIR_FIELDS}
    kept["ratio"] = {k: float(f"{entry['ratio'][k]:.{DIGITS}g}")
                     for k in PAIR_RATIO_FIGURES}
    return kept


def compact(document):
    """The compact form of a decoded results document."""
    entries = document.get("benchmarks", [])
    aggregated = any(e.get("run_type") == "aggregate" for e in entries)
    # With repetitions, the median aggregate is what every tool reads.
    kept = [compact_entry(e) for e in entries
            if not aggregated or e.get("aggregate_name") == "median"
            or e.get("error_occurred")]
    doc = {"context": document.get("context", {}), "benchmarks": kept}
    if "pair_rounds" in document:
        doc["pair_rounds"] = [compact_pair_round(e)
                              for e in document["pair_rounds"]]
    return doc


def one_a_line(entries):
    """JSON lines of a list's entries, one per line, commas between."""
    return [json.dumps(e, separators=(",", ":")) +
            ("," if i + 1 < len(entries) else "")
            for i, e in enumerate(entries)]


def compact_text(document):
    doc = compact(document)
    lines = ["{", '  "context": ' + json.dumps(doc["context"],
                                               sort_keys=True) + ",",
             '  "benchmarks": [']
    lines += one_a_line(doc["benchmarks"])
    if "pair_rounds" in doc:
        lines += ["  ],", '  "pair_rounds": [']
        lines += one_a_line(doc["pair_rounds"])
    return "\n".join(lines + ["  ]", "}", ""])


def host_label(context):
    return context.get("cpu_model", "unknown CPU")


# Same-moment pairs

def pair_plan(registry, size):
    """[(kernel of ours, its default row, peer)]: every kernel of ours
    that takes size bytes, at the first row its table supports here,
    against every supported external kernel whose counterpart it is."""
    plan = []
    for ours in registry:
        if ours.external or ours.min_len > size:
            continue
        row = next((i.name for i in ours.isas if i.supported), None)
        peers = [k.name for k in registry if k.external
                 and k.counterpart == ours.name
                 and any(i.supported for i in k.isas)]
        plan += [(ours.name, row, peer) for peer in peers if row]
    return plan


def run_pair(binary, kernel, isa, peer, size, seconds):
    """`run kernel@isa --vs=peer`'s JSON, or None (with a note on stderr)
    when it refuses the pair (a size the kernel does not take)."""
    done = subprocess.run(
        [binary, "run", f"{kernel}@{isa}", f"--vs={peer}",
         f"--size={size}", f"--seconds={seconds}"],
        capture_output=True, text=True)
    if done.returncode == 2:
        print(f"sweep: {kernel}@{isa} against {peer} left out: "
              f"{done.stderr.strip()}", file=sys.stderr)
        return None
    if done.returncode != 0:
        raise InputError(f"`{binary} run {kernel}@{isa} --vs={peer}` failed "
                         f"(exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def git_commit():
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def pairs_document(binary, size, seconds):
    registry = kernel_registry.from_binary(binary)
    pairs = [p for p in (run_pair(binary, kernel, isa, peer, size, seconds)
                         for kernel, isa, peer in pair_plan(registry, size))
             if p]
    if not pairs:
        raise InputError(f"no kernel of ours has a peer {binary} can run at "
                         f"{size} bytes: build with OpenSSL and libsodium")
    context = {"cpu_model": (registry.cpu or {}).get("model", "unknown CPU"),
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "git_commit": git_commit(), "size": size, "seconds": seconds}
    return {"context": context, "pairs": pairs}


def pairs_text(document):
    lines = ["{", '  "context": ' + json.dumps(document["context"],
                                               sort_keys=True) + ",",
             '  "pairs": [']
    lines += [json.dumps(p, sort_keys=True) +
              ("," if i + 1 < len(document["pairs"]) else "")
              for i, p in enumerate(document["pairs"])]
    return "\n".join(lines + ["  ]", "}", ""])


def read_pairs(path):
    """A pairs file's document, or None when path holds a sweep."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(f"{path} is not JSON ({e.msg}, line {e.lineno}): "
                         f"pass a pairs file or a compact sweep") from None
    return document if "pairs" in document else None


# The headline table

HEADER = ["| host | kernel | ISA | ours | peers (ratio) |",
          "| --- | --- | --- | --- | --- |"]


def paired_rows(document, path):
    """Table rows from a pairs file: ours at its default row, and per peer
    its ticks/byte and the median ratio of the same moments with its
    quartiles."""
    rows, by_kernel = [], {}
    for p in document["pairs"]:
        by_kernel.setdefault((p["kernel"], p["isa"]), []).append(p)
    label = (f"{document['context'].get('cpu_model', 'unknown CPU')} "
             f"(same-moment pairs, {path.rsplit('/', 1)[-1]})")
    for (kernel, isa), pairs in by_kernel.items():
        ours = sorted(p["tsc_cycles_per_byte"] for p in pairs)[len(pairs) // 2]
        peers = ", ".join(
            f"{p['vs'].partition(':')[0]} {sig3(p['vs_tsc_cycles_per_byte'])} "
            f"({ratio_text(p['ratio']['median'])}, quartiles "
            f"{p['ratio']['q1']:.2f}-{p['ratio']['q3']:.2f})" for p in pairs)
        rows.append(f"| {label} | {kernel} | {isa} | {sig3(ours)} | "
                    f"{peers} |")
        label = ""
    return rows


def sweep_rows(path):
    """Table rows from one compact sweep: each kernel of ours at its
    fastest ISA there, both sides timed seconds apart."""
    results = load(path)
    rows = []
    label = (f"{host_label(results.context)} (one sweep, "
             f"{path.rsplit('/', 1)[-1]})")
    for row in comparisons(results, sizes=[HEADLINE_SIZE]):
        if not row.peers:
            continue
        peers = ", ".join(f"{p.library} {p}" for p in row.peers)
        rows.append(f"| {label} | {row.kernel} | {row.isa} | "
                    f"{sig3(row.value)} | {peers} |")
        label = ""
    return rows


def headline(paths):
    """The headline table, as Markdown, from pairs files and sweeps."""
    lines = list(HEADER)
    for path in paths:
        document = read_pairs(path)
        lines += (paired_rows(document, path) if document
                  else sweep_rows(path))
    if len(lines) == len(HEADER):
        raise InputError("no kernel of ours has a peer at 16384 bytes in "
                         "these files: pass a pairs file (`sweep pairs`) or "
                         "a sweep of a full `make bench`")
    return "\n".join(lines) + "\n"


def readme_block(text, path):
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise InputError(f"{path} has no {START} ... {END} block: add the "
                         f"two markers where the table goes")
    return start + len(START), end


def main(argv):
    parser = ArgumentParser(prog="sweep")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compact")
    c.add_argument("results")
    c.add_argument("out")
    pr = sub.add_parser("pairs")
    pr.add_argument("out")
    pr.add_argument("--bin", default=kernel_registry.BUILT)
    pr.add_argument("--seconds", type=float, default=2.0)
    pr.add_argument("--size", type=int, default=HEADLINE_SIZE)
    h = sub.add_parser("headline")
    h.add_argument("sweeps", nargs="+")
    h.add_argument("--readme")
    mode = h.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "compact":
        load(args.results)  # refuses what is not a results file
        with open(args.results, encoding="utf-8") as f:
            text = compact_text(json.load(f))
        directory, name = (args.out.rsplit("/", 1) if "/" in args.out
                           else (".", args.out))
        with StagedFiles(directory) as files:
            files.add_text(name, text)
            files.commit()
        return 0
    if args.command == "pairs":
        text = pairs_text(pairs_document(args.bin, args.size, args.seconds))
        directory, name = (args.out.rsplit("/", 1) if "/" in args.out
                           else (".", args.out))
        with StagedFiles(directory) as files:
            files.add_text(name, text)
            files.commit()
        return 0
    table = headline(args.sweeps)
    if not args.readme:
        sys.stdout.write(table)
        return 0
    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    start, end = readme_block(text, args.readme)
    wanted = text[:start] + "\n" + table + text[end:]
    if args.write:
        directory, name = (args.readme.rsplit("/", 1)
                           if "/" in args.readme else (".", args.readme))
        with StagedFiles(directory) as files:
            files.add_text(name, wanted)
            files.commit()
        return 0
    if args.check and wanted != text:
        print(f"sweep: {args.readme}'s headline table is not the one the "
              f"sweeps give: regenerate it with --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_main(main, "sweep")
