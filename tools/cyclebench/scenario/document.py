"""A scenario's Markdown page: the published experiment, the machine, the commands it ran,
warnings, the table and its notes."""
from ..units import tsc_rate


def machine_line(context):
    if not context:
        return "nothing was run: no kernel of this scenario is available"
    return (f"{context.get('cpu_model', '?')}, TSC {tsc_rate(context)}, "
            f"core clock {context.get('core_clock_source', '?')}; "
            f"{context.get('compiler', '?')}; commit "
            f"{context.get('git_commit', '?')}; {context.get('date', '?')}")


def contention(m):
    """Warnings for the runs whose CPU was shared."""
    return [w for w in (r.contention() for r in m.runs.values()) if w]


def markdown(scenario, table, m, commands):
    parts = [f"# Scenario `{scenario.name}`: {scenario.title}\n",
             f"Published experiment: {scenario.experiment}.\n",
             f"Machine: {machine_line(m.context())}.\n",
             f"Rerun with `make scenario NAME={scenario.name}`; it ran:\n",
             "".join(f"    {c}\n" for c in commands) or "    (nothing)\n",
             "".join(f"**Warning:** {w}.\n\n" for w in contention(m)),
             table.markdown(),
             "Notes:\n\n" + "".join(f"- {n}\n" for n in table.notes)]
    return "\n".join(p for p in parts + table.sections if p)
