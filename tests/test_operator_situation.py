"""Issue 18, item 2: an override at a step takes its trigger from that step's situation (quiet or not),
never from the mere mention of its target host; and an interrupted operator episode still writes its
trace, so every correction's evidence resolves (real CybORG, the surrogate, a real rulebook)."""

from __future__ import annotations

import json

import pytest

from forge.cli import main
from forge.protocol.operator import OperatorLoop
from forge.env.cage2 import Cage2Env
from forge.env.text_view import render_alerts, render_blue_table
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.book import Rulebook
from forge.rulebook.language.meaning import meaning_of
from forge.rulebook.language.predicate import holds
from forge.rulebook.language.situation import read_situation


def contexts_of_seed(seed: int, steps: int) -> list[tuple[str, str]]:
    """(alerts, blue table) the environment renders at each step of a Sleep-only episode."""
    env = Cage2Env()
    env.reset(seed=seed)
    out = []
    for _ in range(steps):
        view = env.view()
        out.append((render_alerts(view), render_blue_table(view)))
        env.step(0)
    return out


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """`forge episode --seed 3 --override 2=DecoyApache Enterprise0:...`, interrupted (Ctrl-C) at step 4."""
    root = tmp_path_factory.mktemp("quiet")
    original = OperatorLoop.__call__

    def interrupt_at_four(self, step, decision, view):
        if step == 4:
            raise KeyboardInterrupt
        return original(self, step, decision, view)

    mp = pytest.MonkeyPatch()
    mp.setattr(OperatorLoop, "__call__", interrupt_at_four)
    try:
        code = main(["episode", "--seed", "3", "--override", "2=DecoyApache Enterprise0:bait before they arrive",
                     "--actor", "alice", "--run-dir", str(root / "episodes"), "--rulebook", str(root / "rb.db"),
                     "env.max_steps=8"])
    finally:
        mp.undo()
    assert code == 130
    return root


def test_an_override_at_a_quiet_step_applies_at_quiet_steps_and_not_once_an_attack_is_under_way(interrupted):
    book = Rulebook(open_rulebook(str(interrupted / "rb.db")))
    (head,) = book.heads().values()
    when = meaning_of(head.record).when
    assert head.record.when == {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
    assert head.record.action == {"mode": "do", "verb": "DecoyApache", "target": "Enterprise0"}
    seen = contexts_of_seed(5, 14)
    quiet = [i for i, (alerts, _) in enumerate(seen) if alerts.startswith("No host shows")]
    busy = [i for i, (alerts, _) in enumerate(seen) if not alerts.startswith("No host shows")]
    assert quiet and busy
    for i in quiet:
        assert holds(when, read_situation(seen[i][0])) and holds(when, read_situation(seen[i][1]))
    for i in busy:  # every host is listed in the table, Enterprise0 included: no mere mention triggers it
        assert not holds(when, read_situation(seen[i][0])) and not holds(when, read_situation(seen[i][1]))
    assert not holds(when, read_situation("Choose the next action."))  # a context that says nothing


def test_an_interrupted_operator_episode_writes_its_trace_up_to_the_interruption(interrupted):
    (trace_file,) = (interrupted / "episodes" / "traces" / "operator").glob("seed3-*.json")
    trace = json.loads(trace_file.read_text())
    assert [s["step"] for s in trace["steps"]] == [1, 2, 3] and trace["interrupted_at"] == 4
    assert trace["steps"][1]["override"]["action"] == "DecoyApache Enterprise0"
    book = Rulebook(open_rulebook(str(interrupted / "rb.db")))
    (head,) = book.heads().values()
    (evidence,) = book.evidence_of([head.record]).values()
    assert f"operator/{trace_file.stem}#step2" in evidence.source  # the evidence resolves to a written step
