"""The surrogate compiler's reading of one rule text, as the surrogate reader's tests take it: its entry, its
compilation, and the atoms and actions they compare it with. The surrogate is the stand-in model; the product's checks
(`text_problem`) only judge what it wrote."""

from __future__ import annotations

from forge.llm.surrogate.compiler_role import _entry
from forge.rulebook.authoring.checks import text_problem

# the history atoms the compiler prompt offers (a model is told which it may write)
OFFERED = ("newly_compromised", "unchanged_for", "acted", "scan_before_exploit")


def entry_of(text: str, role: str = "action_chooser") -> dict:
    """The surrogate's entry for one taught rule of `role`, in the reconnaissance and impact phases."""
    return _entry(1, "rule", role, text, ("reconnaissance", "impact"), OFFERED, True)


def compiled(text: str, role: str = "action_chooser", *, faithful: bool = True) -> tuple[dict, dict, str]:
    """(when, action, unexpressed) of a rule the surrogate compiles as a CONTENT rule; with `faithful`, one the product's
    checks also take as no wider than its words."""
    entry = entry_of(text, role)
    assert entry["verdict"] == "RULE" and entry["type"] == "CONTENT", (text, entry)
    if faithful:
        assert text_problem(text, entry["when"], entry["action"], entry.get("unexpressed", "")) is None, (text, entry)
    return entry["when"], entry["action"], entry.get("unexpressed", "")


def at(place: str, activity=None, compromise=None, **history) -> dict:
    """An atom on a host (or, capitalised class name, a class), its state and history."""
    atom = {"class" if place in ("User", "Enterprise", "Operational", "any") else "host": place}
    atom.update({k: v for k, v in (("activity", activity), ("compromise", compromise)) if v is not None})
    return {**atom, **history}


def act(mode: str, verb: str, target, over: tuple = ()) -> dict:
    """An action of `mode` (do / never / prefer), `over` another (verb, target) for prefer."""
    found = {"mode": mode, "verb": verb, "target": target}
    return {**found, "over": {"verb": over[0], "target": over[1]}} if over else found
