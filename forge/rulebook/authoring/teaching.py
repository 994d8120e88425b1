"""Teaching the rulebook from what people (and instances) say: compile, forge the trigger node, commit.

One call for the paths that start from text rather than from a memory snapshot (sync.py does
snapshots): `forge rulebook add` and `forge correct` (through `add_correction`), the decision-context
benchmark, tests. Each `Correction` is compiled
(grammar or the compiler model, in one batch), gets its trigger node (the failing step's observation
for a rule learned from a failure; else the context the teacher gives; else the situation the compiler
states) and one piece of evidence, and all of them are taught in one book version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from forge.llm.types import ChatClient
from forge.memory.model import NO_PROVENANCE, Provenance
from forge.env.catalog import ACTIONS, ActionParseError, parse_action
from forge.rulebook.authoring.step_corrections import (
    corrected_learned_rules, decision_node, followed_at, override_rule_text, situation_trigger,
)
from forge.rulebook.book import Lesson, Rulebook, TeachReport
from forge.rulebook.authoring.compile import (
    STATED_CONDITION as _STATED_CONDITION, CompileReport, RuleCompiler,
    compile_grammar, fitted, strip_justification,
)
from forge.rulebook.store.curation import Outcome
from forge.rulebook.model import (
    CompileVerdict, CompiledRule, DecisionNode, Evidence, RuleType, RuleVersion, RulebookError, SourceItem, check_actor,
)
from forge.rulebook.language.names import arrows_written_plain
from forge.rulebook.language.predicate import group_of, parse_predicate
from forge.rulebook.language.revision import revision_preamble
from forge.rulebook.language.transcript import pasted_rule
from forge.rulebook.authoring.trigger_node import stated_node


@dataclass(frozen=True)
class Correction:
    text: str
    role: str
    actor: str  # user:<name> or <session>/<instance>
    source: str  # what the evidence cites (a CLI timestamp, a failure id, a case label)
    kind: str = "correction"  # correction | rule (an instance's rule, learned from a failure)
    context: Optional[str] = None  # the decision context it applies to, if the teacher gives one
    failure: Optional[DecisionNode] = None  # the failing step's observation (and the context before it)
    # A correction made at a recorded decision point (forge correct, operator mode): the step's context
    # is the trigger node, and `corrects` names learned rules the correction overrides there.
    anchor: Optional[DecisionNode] = None
    corrects: tuple[str, ...] = ()
    reason: str = ""  # the teacher's one-line why, kept in the evidence
    replaces: tuple[str, ...] = ()  # rule ids the teacher says this correction replaces (--replaces)
    # (when, action) JSON given by the step's situation (an override or step correction that states no
    # condition): taught as is, no compiler call.
    meaning: Optional[tuple[dict, dict]] = None


@dataclass
class Taught:
    compiled: list[CompiledRule]
    compile: CompileReport
    teach: TeachReport
    rule_ids: list[Optional[str]]  # per correction: the rule it became (None: dropped or refused)
    results: list[str]  # per correction: add | reinforce | merge | refused | dropped


def _lesson(correction: Correction, compiled: CompiledRule, revises: bool = False) -> Lesson:
    node = None
    if compiled.type == RuleType.CONTENT:
        node = correction.anchor or correction.failure or stated_node(
            correction.context or compiled.trigger or compiled.directive)
    kind = "failure" if correction.failure is not None else ("correction" if correction.kind == "correction" else "memory")
    detail = correction.text[:200] + (f" (reason: {correction.reason[:200]})" if correction.reason else "")
    return Lesson(compiled, node, Evidence(kind, correction.actor, correction.source, 1, detail),
                  corrects=tuple(correction.corrects), replaces=tuple(correction.replaces), revises=revises)


def teach_text(book: Rulebook, compiler: RuleCompiler, corrections: Sequence[Correction], *,
               provenance: Provenance = NO_PROVENANCE, note: str = "explicit correction", seed: int = 0) -> Taught:
    for correction in corrections:
        check_actor(correction.actor)
    openings = [taught_words(c.text) for c in corrections]
    sources = [SourceItem(c.kind, c.role, rest, c.actor) for c, (_, rest) in zip(corrections, openings)]
    to_compile = [i for i, c in enumerate(corrections) if c.meaning is None]
    report = compiler.compile([sources[i] for i in to_compile], seed=seed)
    compiled = dict(zip(to_compile, report.rules))
    report.rules = [compiled.get(i) or _given(sources[i], c) for i, c in enumerate(corrections)]
    lessons = [(i, _lesson(c, r, revises=bool(openings[i][0]))) for i, (c, r) in enumerate(zip(corrections, report.rules))
               if r.kept]
    teach = book.teach([lesson for _, lesson in lessons], provenance, note=note)
    rule_ids: list[Optional[str]] = [None] * len(corrections)
    results = ["dropped"] * len(corrections)
    for (index, _), outcome in zip(lessons, teach.outcomes):
        results[index] = outcome.result
        rule_ids[index] = None if outcome.result == "refused" else outcome.rule_id
    return Taught(report.rules, report, teach, rule_ids, results)


def taught_words(text: str) -> tuple[str, str]:
    """(opening, rule) of a teacher's text: the rule is what the product compiles and keeps as the rule's text.
    "Actually, ...", "Scratch my earlier note. ...": the opening says the teacher revises what they said before
    (curation: it replaces their earlier rule); what follows it is the rule. (r49m) A record pasted whole, a chat log or
    a post-mortem form: the rule is the message it settles on, or its line labelled as the rule (transcript.pasted_rule);
    the rest is its story. (r54l) An arrow drawn with a glyph ("\u279c") is written "->" (names.arrows_written_plain)."""
    return revision_preamble(pasted_rule(arrows_written_plain(text).strip()).strip())


def _given(item: SourceItem, correction: Correction) -> CompiledRule:
    """A correction whose meaning the step's situation gave: compiled without a model."""
    when, action = correction.meaning
    return CompiledRule(item, CompileVerdict.RULE, fitted(strip_justification(item.text)), RuleType.CONTENT, (item.role,),
                        group_of(parse_predicate(when)), item.text, "situation", when=when, action=action)


class CorrectionNotTaught(RulebookError):
    """One correction did not become a rule: the compiler dropped it, or the book refused it."""


@dataclass(frozen=True)
class AddedCorrection:
    """What one taught correction became: the compiled rule, the book's outcome and the rule's new head."""

    compiled: CompiledRule
    outcome: Outcome
    head: RuleVersion
    teach: TeachReport
    problems: tuple[str, ...]  # what the compiler reported


def add_correction(book: Rulebook, correction: Correction, *, compiler_client: Callable[[], "ChatClient"],
                   compiler_model: Optional[str] = None, note: str = "explicit correction") -> AddedCorrection:
    """Compile one correction and teach it, as one book version.

    A correction in the grammar compiles without a model; only otherwise is `compiler_client()` called
    (so a grammar correction never builds a model client), and `compiler_model` goes into the provenance.
    Raises `CorrectionNotTaught` when the compiler dropped it or the book refused it."""
    probe = SourceItem(correction.kind, correction.role, correction.text.strip(), correction.actor)
    client = None if compile_grammar(probe) is not None or correction.meaning is not None else compiler_client()
    taught = teach_text(book, RuleCompiler(client), [correction],
                        provenance=Provenance(actor=correction.actor, model=compiler_model if client else None),
                        note=note)
    compiled = taught.compiled[0]
    if not compiled.kept:
        raise CorrectionNotTaught(f"the compiler dropped {correction.text.strip()!r:.80}: {compiled.reason or 'noise'}")
    outcome = taught.teach.outcomes[0]
    if outcome.result == "refused":
        raise CorrectionNotTaught(f"rule {outcome.rule_id} was not added: {outcome.detail}")
    return AddedCorrection(compiled, outcome, book.store.head(outcome.rule_id), taught.teach,
                           tuple(taught.compile.problems))


def step_correction(book: Rulebook, node: DecisionNode, source: str, text: str, role: str, actor: str, *,
                    reason: str = "", followed: Sequence[str] = (), agent_action: str = "",
                    corrected_action: Optional[str] = None, replaces: Sequence[str] = (),
                    meaning: Optional[tuple[dict, dict]] = None) -> Correction:
    """A correction made at a recorded decision point: the step's context is its trigger node, and it
    CORRECTS the learned rules the agent followed there when it asks for another action."""
    corrects = corrected_learned_rules(followed, book.records(), agent_action, corrected_action)
    action = _bare_action(text) if meaning is None else None
    if action is not None:  # no condition stated: the trigger is the step's situation
        meaning, situation_text = _situation_meaning(node.text, action)
        text = situation_text + _after_action(text)
    return Correction(text, role, actor, source, anchor=node, corrects=corrects, reason=reason,
                      replaces=tuple(replaces), meaning=meaning)


def _situation_meaning(observation: str, action) -> tuple[tuple[dict, dict], str]:
    """(when, action) for `action` at the step that shows `observation`, and the rule in words."""
    when, words = situation_trigger(observation)
    return (when, {"mode": "do", "verb": action.verb, "target": action.host}), f"When {words}, then {action}."


def _bare_action(text: str):
    """The action a correction names when it is only an action (`DecoyApache Enterprise0: bait them`,
    `Restore User1 - reimage`), with no condition of its own; None otherwise."""
    head = re.split(r"\s*(?::|\s-\s|\.\s|;)\s*", text.strip(), maxsplit=1)[0]
    if _STATED_CONDITION.search(text):
        return None
    try:
        return ACTIONS[parse_action(head)]
    except ActionParseError:
        return None


def _after_action(text: str) -> str:
    parts = re.split(r"\s*(?::|\s-\s|\.\s|;)\s*", text.strip(), maxsplit=1)
    return f" ({parts[1].strip()})" if len(parts) > 1 and parts[1].strip() else ""


def override_correction(book: Rulebook, observations: Sequence[str], window: int, injected: Sequence[str],
                        agent_action: str, corrected_action: str, reason: str, role: str, actor: str,
                        source: str) -> Correction:
    """An operator's override at the last of `observations` (the episode so far), as a correction
    anchored at that decision point: `When <host> shows <its state there>, then <action>` when the step
    shows the acted-on host with a status, else the step's whole situation (quiet or not) is the trigger,
    never the mere mention of the host. It CORRECTS the learned rules among `injected` that the agent
    followed there."""
    observation = observations[-1]
    node = decision_node(observations, len(observations) - 1, window)
    followed = followed_at(tuple(dict.fromkeys(injected)), book.records(), observation, agent_action)
    text = override_rule_text(corrected_action, observation)
    meaning = None
    if text is None:  # the step does not show the acted-on host with a status: the step's situation is the trigger
        meaning, text = _situation_meaning(observation, ACTIONS[parse_action(corrected_action)])
    return step_correction(book, node, source, text, role, actor, reason=reason, followed=followed,
                           agent_action=agent_action, corrected_action=corrected_action, meaning=meaning)
