"""Issue 29, item 4: every role's decision context is read host by host. Over seeded B_line and Meander
episodes (real CybORG, the surrogate defender), for every step and every role, what situation.py reads of
the context the role was called with equals the blue table the context was rendered from: each host it
states has exactly the table's row, every host the table shows as not quiet is stated, and the history
lines read back as the tables the defender saw at its earlier steps. The Planner's and the ActionChooser's alert
block lists exactly the hosts the table shows as not quiet, and a host it leaves out is read unknown (r37q)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agents.defender import Defender
from agents.injection import InjectedMemory
from forge.rulebook.outcomes.aftermath import EpisodeNotes
from forge.config import load_config
from forge.env import Cage2Env
from forge.env.catalog import HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.env.text_view import render_alerts, table_states
from forge.protocol.episode import play_episode
from forge.rulebook.language.situation import read_situation
from forge.wiring import build_clients

QUIET = (QUIET_ACTIVITY, QUIET_COMPROMISE)


class Recorded:
    """An injection that injects nothing and keeps every (step, role, context) it is asked about."""

    mode = "none"

    def __init__(self, tables: list) -> None:
        self.tables = tables
        self.calls: list[tuple[int, str, str]] = []

    def start_episode(self, initial_context: str) -> None:
        pass

    def for_call(self, role: str, context: str) -> InjectedMemory:
        self.calls.append((len(self.tables) - 1, role, context))
        return InjectedMemory()

    def annotate_episode(self, steps, *, complete: bool) -> EpisodeNotes:
        return EpisodeNotes()


class Watched:
    """The environment as the defender's sensors, keeping the table it showed at each step."""

    def __init__(self, env: Cage2Env, tables: list) -> None:
        self.env, self.tables = env, tables

    def view(self):
        view = self.env.view()
        if not self.tables or self.tables[-1][0] != view.step:
            self.tables.append((view.step, table_states(view)))
        return view

    def host_state(self, hostname: str):
        return self.env.host_state(hostname)


def contexts(red: str, seed: int, steps: int = 30):
    """(table at the step, what the defender saw at its earlier steps, role, context) for every model call."""
    cfg = load_config()
    clients, _ = build_clients(cfg)
    tables: list = []
    injection = Recorded(tables)
    defender = Defender(clients, injection, cfg.agent, steps)
    env = Cage2Env(red, max_steps=steps)
    watched = Watched(env, tables)

    class Env:  # play_episode drives the real env; the defender reads it through `watched`
        def __getattr__(self, name):
            return getattr(env, name)

        def view(self):
            return watched.view()

        def host_state(self, hostname):
            return watched.host_state(hostname)

    play_episode(Env(), defender, seed=seed)
    for index, role, context in injection.calls:
        yield tables[index][1], tables[max(0, index - cfg.agent.history_steps):index], role, context


def mismatches(table: dict, past: list, role: str, context: str) -> list[str]:
    situation = read_situation(context)
    found = []
    for host in HOSTS:
        states = situation.states(host)
        if states and states != (table[host],) and not (states == ((None, None),) and role == "action_chooser"):
            found.append(f"{host}: read {states}, the table shows {table[host]}")
        if role != "analyst" and table[host] != QUIET and not states:
            found.append(f"{host}: shows {table[host]} but was not read")
    if role != "analyst":
        found += _alert_block_mismatches(table, context, situation)
    if role == "analyst":
        analysed = [h for h in HOSTS if situation.states(h)]
        if len(analysed) != 1:
            found.append(f"the Analyst's context states {analysed}, not one host")
    history = situation.history
    if past and role != "analyst":
        if history is None or history.hosts is None:
            found.append("the history lines were not read")
        else:
            for host in HOSTS:
                wanted = tuple((step + 1, *states[host]) for step, states in past)
                if history.past(host) != wanted:
                    found.append(f"{host}: history read {history.past(host)}, the defender saw {wanted}")
    return found


def _alert_block_mismatches(table: dict, context: str, situation) -> list[str]:
    """(r37q) The Planner's and the ActionChooser's alert block is complete: under its one `Alerts:` line, exactly the
    table's hosts that are not quiet, each with its row, in the table's order (or the quiet line when there are none),
    up to a blank line. A host it leaves out, which no other line the reader reads names, is read unknown, not quiet
    (test_rulebook_round37_alerts.py says why)."""
    lines = context.splitlines()
    headers = [i for i, line in enumerate(lines) if line == "Alerts:"]
    if len(headers) != 1:
        return [f"{len(headers)} `Alerts:` lines"]
    block = []
    for line in lines[headers[0] + 1:]:
        if not line.strip():
            break
        block.append(line)
    wanted = [f"{h}: Activity {table[h][0]}, Compromised {table[h][1]}" for h in HOSTS if table[h] != QUIET]
    quiet_line = render_alerts(SimpleNamespace(hosts=()))  # the renderer's line for a network with nothing to list
    found = [] if block == (wanted or [quiet_line]) else [f"alert block {block}, table {wanted}"]
    if wanted:
        others = [line for i, line in enumerate(lines) if not headers[0] < i <= headers[0] + len(block)
                  and not line.startswith(("Recent steps:", "Host history"))]
        for host in HOSTS:
            if table[host] == QUIET and not any(host in line for line in others) and situation.states(host):
                found.append(f"{host}: left out of the alert block but read {situation.states(host)}")
    return found


@pytest.mark.parametrize("red,seed", [("b_line", 1000), ("b_line", 1003), ("meander", 1000), ("meander", 1004)])
def test_every_role_reads_its_context_as_the_table_it_was_rendered_from(red, seed):
    roles, wrong = set(), []
    for table, past, role, context in contexts(red, seed):
        roles.add(role)
        wrong += [f"{role} at {context.splitlines()[0][:60]!r}: {m}" for m in mismatches(table, past, role, context)]
    assert roles == {"planner", "analyst", "action_chooser"}
    assert not wrong, "\n".join(wrong[:10])


def test_the_planners_situation_line_is_read_host_by_host():
    """The ActionChooser's `Situation (from the Planner): A shows X, B shows Y` line: B keeps its own state."""
    context = ("Situation (from the Planner): User1 shows Activity Exploit, Compromised User, Enterprise0 shows "
               "Activity Scan, Compromised No\n\nAlerts:\nUser1: Activity Exploit, Compromised User\n"
               "Enterprise0: Activity Scan, Compromised No")
    situation = read_situation(context)
    assert situation.states("User1") == (("Exploit", "User"),)
    assert situation.states("Enterprise0") == (("Scan", "No"),)
    alone = read_situation("Situation (from the Planner): User1 shows Activity Exploit, Compromised User, "
                           "Enterprise0 shows Activity None, Compromised No")
    assert alone.states("Enterprise0") == (("None", "No"),)
    prose = read_situation("User1 is exploited and Enterprise0 is being scanned; Exploit on User2, Scan on User3")
    assert [prose.states(h) for h in ("User1", "Enterprise0", "User2", "User3")] == [
        (("Exploit", None),), (("Scan", None),), (("Exploit", None),), (("Scan", None),)]
    shared = read_situation("Enterprise0, Enterprise1 and User1 show Activity Scan")
    assert all(shared.states(h) == (("Scan", None),) for h in ("Enterprise0", "Enterprise1", "User1"))
