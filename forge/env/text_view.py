"""Text renderings of the CAGE-2 state for language agents. Short on purpose: every character is a token."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from forge.env.catalog import QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.env.view import HostState, NetworkView


def render_blue_table(view: NetworkView, *, only_alerts: bool = False) -> str:
    """The blue per-host table. With `only_alerts`, quiet hosts are summarised in one line."""
    rows = [r for r in view.hosts if not (only_alerts and r.quiet)]
    lines = ["Hostname | Subnet | IP | Activity | Compromised"]
    lines += [f"{r.hostname} | {r.subnet} | {r.ip} | {r.activity} | {r.compromised}" for r in rows]
    if only_alerts:
        quiet = len(view.hosts) - len(rows)
        if not rows:
            lines = [f"All {quiet} hosts: Activity None, Compromised No."]
        elif quiet:
            lines.append(f"({quiet} other hosts: Activity None, Compromised No)")
    return "\n".join(lines)


def render_alerts(view: NetworkView) -> str:
    """One line per host that is not quiet: `User1: Activity Exploit, Compromised User`."""
    alerts = [f"{r.hostname}: Activity {r.activity}, Compromised {r.compromised}" for r in view.hosts if not r.quiet]
    return "\n".join(alerts) if alerts else "No host shows activity or compromise."


def render_changed_hosts(view: NetworkView) -> str:
    if not view.changed:
        return "No host changed since the last step."
    return "Hosts changed since the last step: " + ", ".join(
        f"{h} (Activity {view.row(h).activity}, Compromised {view.row(h).compromised})" for h in view.changed
    )


HostStates = Mapping[str, tuple[str, str]]  # host -> (activity, compromised), as one step's table showed them


def table_states(view: NetworkView) -> dict[str, tuple[str, str]]:
    """The step's table as host -> (activity, compromised): what the defender keeps of it for its history."""
    return {r.hostname: (r.activity, r.compromised) for r in view.hosts}


def render_host_history(past: Sequence[tuple[int, HostStates]], now: NetworkView) -> str:
    """`Host history (last k steps): User1: step 5 Exploit/User, step 6 None/User; every other host: None/No`.

    `past` is what the defender saw at its last k steps (1-based step numbers, oldest first). Listed: every
    host that was not quiet at one of those steps or is not quiet now (so a host compromised this step shows
    its quiet past); the tail states the rest, so a reader knows their history too."""
    if not past:
        return ""
    quiet = (QUIET_ACTIVITY, QUIET_COMPROMISE)
    listed = [r.hostname for r in now.hosts if not r.quiet or any(states.get(r.hostname, quiet) != quiet for _, states in past)]
    parts = [f"{host}: " + ", ".join(f"step {step} {'/'.join(states.get(host, quiet))}" for step, states in past)
             for host in listed]
    if len(listed) < len(now.hosts):
        parts.append(f"every other host: {'/'.join(quiet)}")
    return f"Host history (last {len(past)} steps): " + "; ".join(parts)


def _describe_processes(processes: list[dict[str, Any]]) -> list[str]:
    """Processes with their connections, grouped so that a scan of 11 ports is one line, not eleven."""
    groups: dict[tuple, int] = {}
    named = []
    for proc in processes:
        conns = proc.get("Connections", [])
        if not conns:
            name = proc.get("Process Name") or proc.get("Service Name")
            named.append(f"pid {proc.get('PID', '?')} {name or 'process'} user {proc.get('Username', '?')}")
        for conn in conns:
            key = (conn.get("local_port"), conn.get("remote_address"), conn.get("remote_port") == 4444)
            groups[key] = groups.get(key, 0) + 1
    lines = []
    for (port, remote, shell), count in groups.items():
        text = f"{count} connection{'s' if count > 1 else ''} on local port {port}"
        if remote is not None:
            text += f" from {remote}"
        if shell:
            text += " to remote port 4444 (reverse shell)"
        lines.append(text)
    return lines + named


def render_host_state(state: HostState) -> str:
    """Baseline and current evidence of one host, for the Analyst."""
    base = state.baseline
    base_procs = base.get("Processes", [])
    users = [u.get("Username") for u in base.get("User Info", []) if u.get("Username")]
    lines = [
        f"Host {state.hostname}: table Activity {state.row.activity}, Compromised {state.row.compromised}.",
        f"Baseline: {len(base_procs)} processes; users {', '.join(users) or 'none'}; "
        f"OS {base.get('System info', {}).get('OSType', '?')}.",
    ]
    current = state.current
    if not current:
        lines.append("Current: no new evidence since reset.")
        return "\n".join(lines)
    lines.append(f"Current evidence (step {current.get('observed_at_step', '?')}):")
    for text in _describe_processes(current.get("Processes", [])):
        lines.append(f"- process: {text}")
    for f in current.get("Files", []):
        lines.append(f"- file {f.get('File Name', '?')} density {f.get('Density', '?')}")
    for s in current.get("Sessions", []):
        lines.append(f"- session {s.get('Type', '?')} user {s.get('Username', '?')}")
    return "\n".join(lines)
