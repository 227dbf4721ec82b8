"""The hot loop of one symbol in a `perf annotate` listing, and its body as
llvm-mca input.

The listing is cut into basic blocks and its loops found as compilers find
them: a jump back to a block that every path from the symbol's entry
passes through (that block dominates the jump) closes a loop, whose body
is every block that reaches the jump without passing that header. In the
simple case that is the body from the backward jump's target to the jump;
it also holds when the compiler puts part of a loop after its jump (AES's
counter-carry path) and it does not mistake the jumps back from code moved
out of line for loops. The hot loop is the top-level loop holding the most
of the symbol's samples if that is at least MIN_LOOP_SHARE of them;
otherwise the whole symbol is the body and one call one iteration.

llvm-mca reads a body as straight-line code that repeats, so the body is
written out as it runs, which needs counts (loop_count.py counts
each block's runs): a block appears as often as it runs per iteration
(rounded; a cold path that runs no time is left out) and an inner loop's
body is repeated by its trip count. A body longer than MAX_BODY that way
gives way to its hottest inner loop. Without counts, the innermost hot
loop is taken with every block once.

Only the standard library: the tests import this under any Python 3.
"""
import re
from dataclasses import dataclass, field

from . import perf_parse

# A loop with less of its symbol's samples than this is not "the" loop:
# the whole symbol is.
MIN_LOOP_SHARE = 0.5
# Instructions in a body written out as it runs; llvm-mca takes more, but a
# longer body is a loop nest too coarse to name one bottleneck.
MAX_BODY = 5000

# A jump's target operand in objdump, its last: "572a0 <chacha+0x2b0>".
JUMP_TARGET = re.compile(r"(?:^|[\s,])([0-9a-f]+) <[^>]+>$")
LABEL = ".Lloop"


@dataclass(frozen=True)
class Syntax:
    """How objdump writes one architecture's code: which mnemonics jump
    within code (calls return, so they are not jumps), which end the flow
    (nothing falls through them), prefixes that only pad, and where a
    comment starts."""
    jump: re.Pattern
    ends_flow: re.Pattern
    padding: tuple
    comment: str


X86 = Syntax(jump=re.compile(r"^j[a-z]+$"),
             ends_flow=re.compile(r"^(ret|jmp|ud2|hlt)"),
             # objdump prints these as words of their own, which llvm-mc
             # would read as instructions of their own.
             padding=("bnd", "notrack", "data16", "cs", "ds"), comment="#")
# b, b.<cond>, bc.<cond>, cbz/cbnz, tbz/tbnz; br (through a register) and
# ret end the flow with no target we can see.
AARCH64 = Syntax(jump=re.compile(r"^(b|b\.[a-z]+|bc\.[a-z]+|cbn?z|tbn?z)$"),
                 ends_flow=re.compile(r"^(b|br|bra[a-z]*|ret[a-z]*|brk|udf)$"),
                 padding=(), comment="//")


@dataclass
class Block:
    start: int
    instructions: list
    successors: list = field(default_factory=list)
    predecessors: list = field(default_factory=list)

    @property
    def end(self):
        return address(self.instructions[-1])

    @property
    def percent(self):
        return sum(i["percent"] for i in self.instructions)


@dataclass
class Loop:
    header: int  # the block every iteration starts at
    blocks: set  # starts of its blocks, inner loops' included
    percent: float  # the symbol's samples in its blocks
    whole_symbol: bool = False
    children: list = field(default_factory=list)

    def descendants(self):
        for child in self.children:
            yield child
            yield from child.descendants()


def address(insn):
    return int(insn["address"], 16)


def jump_target(insn, first, last, syntax=X86):
    """A jump's target when it is in the symbol, else None; and whether
    the instruction is a jump at all."""
    if not syntax.jump.match(perf_parse.split_insn(insn["asm"])[0]):
        return None, False
    # Read from the text, not the operands: an aarch64 immediate's "#"
    # ("tbz w0, #3, 4005a0 <f+0x10>") is x86's comment sign.
    target = JUMP_TARGET.search(insn["asm"].split(syntax.comment)[0].strip())
    to = int(target.group(1), 16) if target else None
    return (to if to is not None and first <= to <= last else None), True


def basic_blocks(listing, syntax=X86):
    """{start: Block} in address order, with successors and predecessors
    inside the symbol (a call returns, so it does not end a block; a jump
    out of the symbol or through a register leads nowhere we can see)."""
    insns = listing["instructions"]
    first, last = address(insns[0]), address(insns[-1])
    leaders = {first}
    for k, insn in enumerate(insns):
        to, is_jump = jump_target(insn, first, last, syntax)
        if to is not None:
            leaders.add(to)
        ends = syntax.ends_flow.match(perf_parse.split_insn(insn["asm"])[0])
        if (is_jump or ends) and k + 1 < len(insns):
            leaders.add(address(insns[k + 1]))
    blocks, current = {}, None
    for insn in insns:
        if address(insn) in leaders:
            current = blocks[address(insn)] = Block(address(insn), [])
        current.instructions.append(insn)
    starts = list(blocks)
    for k, start in enumerate(starts):
        block = blocks[start]
        tail = block.instructions[-1]
        to, _ = jump_target(tail, first, last, syntax)
        mnemonic = perf_parse.split_insn(tail["asm"])[0]
        if to is not None:
            block.successors.append(to)
        if not syntax.ends_flow.match(mnemonic) and k + 1 < len(starts):
            block.successors.append(starts[k + 1])
        for s in block.successors:
            blocks[s].predecessors.append(start)
    return blocks


def reachable(blocks, entry):
    seen, stack = set(), [entry]
    while stack:
        b = stack.pop()
        if b not in seen:
            seen.add(b)
            stack.extend(blocks[b].successors)
    return seen


def dominators(blocks, entry):
    """{block: the blocks every path from entry to it passes through}, for
    the blocks reachable from entry."""
    live = reachable(blocks, entry)
    order = [b for b in blocks if b in live]
    dom = {b: set(live) for b in order}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in order:
            if b == entry:
                continue
            preds = [dom[p] for p in blocks[b].predecessors if p in live]
            new = {b} | (set.intersection(*preds) if preds else set())
            if new != dom[b]:
                dom[b], changed = new, True
    return dom


def natural_loops(blocks, entry):
    """{header: its loop's blocks}: every jump to a block that dominates
    the jump's own block closes a loop, and loops on one header merge."""
    dom = dominators(blocks, entry)
    loops = {}
    for b in dom:
        for h in blocks[b].successors:
            if h in dom[b]:
                body, stack = {h}, [b]
                while stack:
                    n = stack.pop()
                    if n not in body:
                        body.add(n)
                        stack.extend(p for p in blocks[n].predecessors
                                     if p in dom)
                loops.setdefault(h, set()).update(body)
    return loops


def loop_tree(listing, syntax=X86):
    """(root, blocks): the whole symbol as a Loop with its loops nested
    under it, innermost deepest, and the basic blocks."""
    blocks = basic_blocks(listing, syntax)
    entry = next(iter(blocks))

    def percent(starts):
        return sum(blocks[s].percent for s in starts)
    root = Loop(entry, set(blocks), percent(blocks), whole_symbol=True)
    found = natural_loops(blocks, entry)
    # Outer loops first, so each loop goes under the smallest one holding it.
    for header, members in sorted(found.items(), key=lambda f: -len(f[1])):
        loop = Loop(header, members, percent(members))
        parent = root
        while True:
            inner = [c for c in parent.children if members <= c.blocks]
            if not inner:
                break
            parent = inner[0]
        parent.children.append(loop)
    return root, blocks


def hottest_child(loop):
    return max(loop.children, key=lambda c: c.percent, default=None)


def hot_loop(root):
    """The hottest top-level loop when it holds at least MIN_LOOP_SHARE of
    the symbol's samples, else the whole symbol."""
    best = hottest_child(root)
    if best and best.percent >= MIN_LOOP_SHARE * root.percent:
        return best
    return root


def count_points(loop):
    """The addresses whose run counts write out the loop's body: the start
    of each of its blocks, the header first."""
    return [loop.header] + sorted(loop.blocks - {loop.header})


def layout_order(loop):
    """The loop's blocks in address order from its header, those placed
    before the header last: the order one iteration runs them in when the
    compiler has rotated the loop."""
    starts = sorted(loop.blocks)
    return [s for s in starts if s >= loop.header] + \
        [s for s in starts if s < loop.header]


def runs_per_iteration(start, loop, hits):
    """Runs of a block per run of the loop's header, rounded; 1 without
    counts."""
    if not hits or not hits.get(loop.header):
        return 1
    return round(hits.get(start, 0) / hits[loop.header])


def body(loop, blocks, hits):
    """One iteration's instructions as they run: each block repeated by
    its runs per run of the header, each inner loop's body by its trip
    count. Without hits (None), every block and inner loop once."""
    inner = {c.header: c for c in loop.children}
    nested = set().union(*[c.blocks for c in loop.children])
    out = []
    for start in layout_order(loop):
        runs = runs_per_iteration(start, loop, hits)
        if start in inner:
            out += body(inner[start], blocks, hits) * runs
        elif start not in nested:
            out += blocks[start].instructions * runs
    return out


def fit(loop, blocks, hits):
    """The loop to analyse: loop itself or its hottest descendant. With
    hits, the first whose body written out is at most MAX_BODY long;
    without, the innermost, whose body needs no counts."""
    while True:
        child = hottest_child(loop)
        if child is None:
            return loop
        if hits is not None and hits.get(loop.header) and \
                len(body(loop, blocks, hits)) <= MAX_BODY:
            return loop
        loop = child


def cold_blocks(loop, blocks, hits):
    """Blocks of the loop (outside its inner loops) that run less than
    once in two iterations, so the body leaves them out."""
    if not hits or not hits.get(loop.header):
        return []
    nested = set().union(*[c.blocks for c in loop.children])
    return [s for s in sorted(loop.blocks - nested)
            if runs_per_iteration(s, loop, hits) == 0]


def describe(loop, blocks, hits, symbol_start):
    """A line saying which code the body is, for the listing."""
    def at(a):
        return f"+{a - symbol_start:#x}"
    if loop.whole_symbol:
        text = "the whole symbol (one call an iteration)"
    else:
        last = max(blocks[s].end for s in loop.blocks)
        text = (f"loop at {at(loop.header)} ({at(min(loop.blocks))}.."
                f"{at(last)}, {len(loop.blocks)} blocks)")
    inner = [f"{at(c.header)} x{runs_per_iteration(c.header, loop, hits)}"
             for c in loop.children]
    if inner:
        text += f"; inner loops unrolled: {', '.join(inner)}"
    cold = cold_blocks(loop, blocks, hits)
    if cold:
        text += f"; cold blocks left out: {', '.join(at(s) for s in cold)}"
    return text


def for_llvm_mc(asm, syntax=X86):
    """An objdump instruction as llvm-mc reads it: comment and padding
    prefixes dropped, every nop one plain nop, branch targets the loop's
    label (llvm-mca does not follow branches; it only needs a label)."""
    words = asm.split(syntax.comment)[0].split()
    while words and words[0] in syntax.padding:
        words = words[1:]
    text = " ".join(words)
    if words and (words[0].startswith("nop") or text == "xchg %ax,%ax"):
        return "nop"
    return perf_parse.TARGET.sub(LABEL, text)


def mca_source(instructions, symbol_start, title, syntax=X86):
    """llvm-mca input for a body: each line notes the instruction's offset
    in the symbol, so llvm-mca's input maps back to perf annotate's."""
    c = syntax.comment
    lines = [f"{c} {title}", f"{LABEL}:"]
    for insn in instructions:
        lines.append(f"    {for_llvm_mc(insn['asm'], syntax):60} {c} +"
                     f"{address(insn) - symbol_start:#x}")
    return "\n".join(lines) + "\n"
