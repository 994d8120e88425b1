"""The surrogate acting on free text: corrections change its actions, prohibitions hold, the Reflector keeps
its habits with rules in any phrasing, and the compiler role answers the rule contract's JSON."""

from __future__ import annotations

import json

import pytest

from agents.react import parse_suggestions
from forge.config import load_config
from forge.env.catalog import action_name
from forge.llm.surrogate import SurrogateProvider
from forge.llm.types import Message

ALERTS = "User0: Activity Exploit, Compromised Privileged\nUser2: Activity None, Compromised Privileged"
CONTEXT = f"Situation (from the Planner): trouble\n\nAlerts:\n{ALERTS}"
OBSERVATION = f"Step 9 of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step: User0 (x)\nAlerts:\n{ALERTS}"


def surrogate(compliance: float = 1.0) -> SurrogateProvider:
    return SurrogateProvider("surrogate", load_config(overrides=[f"surrogate.compliance={compliance}"]).surrogate)


def system(role: str, rules: list[str]) -> str:
    text = f"You are the {role} of a blue-team defender.\n"
    return text + ("## Learned rules\n" + "\n".join(f"- {r}" for r in rules) + "\n" if rules else "")


def chooser(rules: list[str], seed: int = 1, model=None, context: str = CONTEXT) -> list[str]:
    reply = (model or surrogate()).complete([Message("system", system("ActionChooser", rules)), Message("user", context)],
                                            model="m", seed=seed).text
    return [action_name(s.action) for s in parse_suggestions(reply)]


def planner(rules: list[str], seed: int = 1, as_pair: bool = False) -> str:
    if as_pair:  # the rulebook's stage-1 delivery: a prepended user/assistant pair
        messages = [Message("system", system("Planner", [])), Message("user", "## Learned rules\n" + "\n".join(f"- {r}" for r in rules)),
                    Message("assistant", "Understood."), Message("user", OBSERVATION)]
    else:
        messages = [Message("system", system("Planner", rules)), Message("user", OBSERVATION)]
    return surrogate().complete(messages, model="m", seed=seed).text


CLASS_RULE = "Whenever a user box shows root access, reimage it"
FOOTHOLD = "Do not restore User0, it is the attacker's foothold"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_free_text_correction_changes_the_surrogates_action(seed):
    zero_shot = chooser([], seed)
    assert not any(a.startswith("Restore") for a in zero_shot)  # zero-shot it never reimages
    taught = chooser([CLASS_RULE], seed)
    assert taught[0] == "Restore User0" and taught != zero_shot
    corrected = chooser([CLASS_RULE, FOOTHOLD], seed)
    assert corrected[0] == "Restore User2" and "Restore User0" not in corrected  # the next best that the rules allow
    # The Planner too, whether the rules come in its system prompt or as a prepended pair.
    for as_pair in (False, True):
        assert planner([CLASS_RULE], seed, as_pair) == "Answer: Restore User0"
        assert planner([CLASS_RULE, FOOTHOLD], seed, as_pair) == "Answer: Restore User2"
    assert planner([], seed).startswith("Tool:")
    # An operator's instruction in the persistent knowledge is followed like a rule.
    persistent = system("ActionChooser", [CLASS_RULE]) + "## Persistent knowledge\nDo not restore User0, it is the foothold.\n"
    reply = surrogate().complete([Message("system", persistent), Message("user", CONTEXT)], model="m", seed=seed).text
    assert action_name(parse_suggestions(reply)[0].action) == "Restore User2"


def test_a_prohibition_removes_the_zero_shot_choice_and_keeps_the_list_full():
    seed = next(s for s in range(50) if chooser([], s)[0] == "Analyse User0")
    after = chooser(["Don't bother analysing User0."], seed)
    assert "Analyse User0" not in after and len(after) == 3
    assert not any(a.startswith("Restore") for a in chooser(["Never restore User2."], seed))
    everything = chooser(["Do not waste actions on User0; it cannot be cleaned.", "Never monitor.", "Stop sleeping."], seed)
    assert everything and not any(a.endswith("User0") or a in ("Monitor", "Sleep") for a in everything)


def test_rules_that_do_not_apply_to_the_context_are_not_followed():
    # (The prompt text seeds the surrogate, so another rule in it reshuffles its zero-shot instinct; what
    # must not happen is an action that only a rule could have taught.)
    for rule in ("Whenever an enterprise server shows root access, reimage it.", "Restore Op_Server0 as soon as it is compromised.",
                 "If a workstation is being scanned, restore it.", "Whenever User2 is being exploited, reimage it."):
        for seed in range(5):
            assert not any(a.startswith("Restore") for a in chooser([rule], seed)), rule


def test_compliance_is_a_probability():
    never = surrogate(0.0)
    assert all(not chooser([CLASS_RULE], s, never)[0].startswith("Restore") for s in range(10))
    half = surrogate(0.5)
    followed = sum(chooser([CLASS_RULE], s, half)[0] == "Restore User0" for s in range(60))
    assert 10 < followed < 50


def test_context_rows_in_the_table_form_are_read_too():
    rows = "Situation: x\n\nHostname | Subnet | IP | Activity | Compromised\nUser2 | User | 10.0.0.2 | Exploit | Privileged"
    assert chooser([CLASS_RULE], 1, context=rows)[0] == "Restore User2"
    assert chooser([CLASS_RULE], 1, context="Situation: x\n\nUser2 | Activity Exploit | Compromised Privileged")[0] == "Restore User2"
    prose = "Enterprise0 and User1 show Activity Scan; User3 shows Activity Exploit, Compromised Privileged."
    assert chooser([CLASS_RULE], 1, context=prose)[0] == "Restore User3"
    assert chooser(["If a workstation has been scanned, inspect it."], 1, context=prose)[0] == "Analyse User1"


# -- the Reflector with free-text memory -------------------------------------------------------------

REPORT = """Failure report (stage 1, attempt 1, episode of 30 steps):
Failure: step 9 reward -2.1 below -1.1.
Trajectory up to the failure (alerts are what the defender saw before acting):
step 6 | alerts: User2: Activity Exploit, Compromised User | action: Analyse User2 | reward -0.1
step 7 | alerts: Enterprise1: Activity Exploit, Compromised User; User2: Activity None, Compromised Privileged | action: Remove Enterprise1 | reward -1.1
step 8 | alerts: Enterprise1: Activity None, Compromised Privileged; User2: Activity None, Compromised Privileged | action: Monitor | reward -1.1
step 9 | alerts: Enterprise1: Activity None, Compromised Privileged; Op_Host0: Activity Scan, Compromised No | action: Monitor | reward -2.1

Current rules:
[action_chooser]
{rules}"""


def reflect(rules: list[str], seed: int = 0, *overrides: str) -> dict:
    cfg = load_config(overrides=["surrogate.reflector_error_rate=0.0", *overrides])
    system_prompt = "You are the Reflector of a blue-team defender.\nYou may write rules for these roles only: action_chooser. Each"
    body = "\n".join(f"{i}. {r}" for i, r in enumerate(rules, 1)) or "(none)"
    reply = SurrogateProvider("s", cfg.surrogate).complete(
        [Message("system", system_prompt), Message("user", REPORT.format(rules=body))], model="m", seed=seed).text
    return json.loads(reply)["action_chooser"]


def read(text: str):
    from forge.llm.surrogate.free_text import read_rule

    r = read_rule(text)
    return r.kind, r.trigger.subject, r.trigger.signal(), r.act.verb


def test_the_reflector_infers_the_host_from_what_the_defender_saw():
    out = reflect([])
    assert out["delete"] == [] and len(out["add"]) == 1
    # Enterprise1 was compromised and never reimaged; it outranks User2; Op_Host0 was only scanned.
    assert read(out["add"][0]) == ("do", "Enterprise1", (None, "any"), "Restore")


def test_the_reflector_phrases_its_rules_in_several_ways():
    texts = {reflect([], seed)["add"][0] for seed in range(30)}
    assert len(texts) >= 4 and {read(t) for t in texts} == {("do", "Enterprise1", (None, "any"), "Restore")}


def test_the_reflector_replaces_a_failed_free_text_rule_for_the_same_situation():
    out = reflect(["Whenever Enterprise1 is compromised, evict the attacker from it.", "Never restore User0."])
    assert out["delete"] == [1]
    assert read(out["add"][0])[:3] == ("do", "Enterprise1", (None, "any")) or read(out["add"][0])[0] == "prefer"


def test_the_reflector_generalises_from_a_free_text_sibling_rule_and_skips_what_is_covered():
    out = reflect(["Reimage Enterprise0 as soon as it shows any sign of compromise."])
    assert out["delete"] == [1] and read(out["add"][0]) == ("do", "Enterprise", (None, "any"), "Restore")
    covered = reflect(["If an enterprise server has been compromised, rebuild it right away."])
    assert covered["add"] == [] and covered["delete"] == []
    specific = reflect(["Reimage Enterprise0 as soon as it shows any sign of compromise."], 0, "surrogate.generalise=false")
    assert specific["delete"] == [] and read(specific["add"][0]) == ("do", "Enterprise1", (None, "any"), "Restore")


def test_a_lesson_can_be_written_for_each_role_the_reflector_may_change():
    cfg = load_config(overrides=["surrogate.reflector_error_rate=0.0", "surrogate.lesson_roles=2"])
    allowed = "You are the Reflector.\nYou may write rules for these roles only: planner, action_chooser. Each"
    reply = json.loads(SurrogateProvider("s", cfg.surrogate).complete(
        [Message("system", allowed), Message("user", REPORT.format(rules="(none)"))], model="m", seed=0).text)
    assert set(reply) == {"planner", "action_chooser"}
    assert {read(reply[r]["add"][0]) for r in reply} == {("do", "Enterprise1", (None, "any"), "Restore")}


def test_more_lessons_per_failure_add_the_earlier_warning_and_the_next_host():
    out = reflect([], 0, "surrogate.lessons_per_failure=3")
    assert [read(t) for t in out["add"]] == [("do", "Enterprise1", (None, "any"), "Restore"),
                                             ("do", "Enterprise1", ("Exploit", None), "Restore"),
                                             ("do", "User2", (None, "any"), "Restore")]


# -- the compiler role -------------------------------------------------------------------------------


def compile_artifacts(*artifacts: tuple[str, str, str]) -> list[dict]:
    body = "Artifacts to compile:\n\n" + "\n\n".join(
        f"[{i}] {kind} for {role}, taught by alice\n{text}" for i, (kind, role, text) in enumerate(artifacts, 1))
    reply = surrogate().complete([Message("system", "You are the Rule Compiler of a blue-team defender's memory."),
                                  Message("user", body)], model="m", seed=0).text
    return json.loads(reply)["rules"]


def test_the_compiler_role_answers_the_contract():
    fmt, foothold, restore, klass, example, vague, noise, again = compile_artifacts(
        ("correction", "action_chooser", "Answer with exactly one action, written as the verb followed by the hostname, and nothing else."),
        ("correction", "action_chooser", "Do not restore User0, it is the attacker's foothold."),
        ("correction", "action_chooser", "Restore User0 whenever it shows a privileged compromise."),
        ("rule", "planner", "Whenever a user machine shows a privileged compromise, reimage it."),
        ("example", "planner", "### r\nSituation:\nUser1: Activity Exploit, Compromised User\nThought: spreads.\nAnswer: Restore User1"),
        ("correction", "analyst", "Be careful with the servers."),
        ("correction", "analyst", "The network is large."),
        ("correction", "action_chooser", "Do not restore User0; it is the attacker's foothold."),
    )
    keys = {"item", "verdict", "type", "directive", "roles", "when", "action", "unexpressed", "trigger"}
    assert fmt == {"item": 1, "verdict": "RULE", "type": "FORMAT", "roles": ["action_chooser"], "when": {"always": True},
                   "action": None, "trigger": "", "directive": fmt["directive"]}
    assert set(foothold) == keys and foothold["directive"] == "Do not restore User0"
    assert foothold["when"] == {"host": "User0"} and foothold["action"] == {"mode": "never", "verb": "Restore", "target": "User0"}
    assert restore["when"] == {"host": "User0", "compromise": "Privileged"}
    assert restore["action"] == {"mode": "do", "verb": "Restore", "target": "User0"}
    assert klass["when"] == {"class": "User", "compromise": "Privileged"} and klass["roles"] == ["planner"]
    assert klass["action"] == {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert example["when"] == {"host": "User1", "compromise": "User"} and example["action"]["verb"] == "Restore"
    assert vague["type"] == "CONTENT" and vague["when"] is None and vague["action"] is None and vague["trigger"]
    assert noise["verdict"] == "DROP" and again["verdict"] == "DROP" and "repeats" in again["reason"]


def test_every_compiled_rule_keeps_to_the_contracts_vocabulary():
    from forge.env.catalog import HOST_CLASSES, HOSTS, VERBS

    from tests.test_surrogate_reader import HELD_OUT, PHRASINGS

    texts = [text for text, _ in PHRASINGS + HELD_OUT]
    # In batches of five: the reply of a batch must fit the model's max_tokens (512 by default, ~280 chars an entry).
    entries = [e for i in range(0, len(texts), 5) for e in compile_artifacts(*[("correction", "action_chooser", t) for t in texts[i:i + 5]])]
    targets = set(HOSTS) | set(HOST_CLASSES) | {"any", "$matched", None}

    def atoms(p):
        if p is None or "always" in p:
            return []
        for key in ("any", "all"):
            if key in p:
                return [a for q in p[key] for a in atoms(q)]
        return atoms(p["not"]) if "not" in p else [p]

    rules = [e for e in entries if e["verdict"] == "RULE"]
    assert len(rules) >= len(entries) - 4
    for entry in rules:
        assert entry["type"] in ("FORMAT", "CONTENT") and entry["roles"] == ["action_chooser"] and entry["directive"]
        for atom in atoms(entry["when"]):
            assert atom.get("host") in HOSTS or atom.get("class") in (*HOST_CLASSES, "any"), entry
            assert atom.get("activity", "any") in ("None", "Scan", "Exploit", "any"), entry
            assert atom.get("compromise", "any") in ("No", "Unknown", "User", "Privileged", "any"), entry
        act = entry["action"]
        if act is not None:
            assert act["mode"] in ("do", "never", "prefer") and act["verb"] in VERBS and act["target"] in targets, entry
            assert act["mode"] != "prefer" or (act["over"]["verb"] in VERBS and act["over"]["target"] in targets), entry


def test_a_corrective_re_prompt_is_answered_for_the_same_artifacts():
    first = compile_artifacts(("correction", "action_chooser", "Never restore User0."))
    body = "Artifacts to compile:\n\n[1] correction for action_chooser, taught by alice\nNever restore User0."
    messages = [Message("system", "You are the Rule Compiler."), Message("user", body), Message("assistant", "oops"),
                Message("user", "That reply could not be used (no JSON object in the reply). Reply with the JSON object only.")]
    again = json.loads(surrogate().complete(messages, model="m", seed=0).text)["rules"]
    assert again == first and again[0]["action"]["mode"] == "never"
