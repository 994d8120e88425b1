"""Compiling learned artifacts into rules: TYPE, bare directive, roles, trigger PREDICATE, ACTION, trigger text.

Two paths:
- deterministic, no model call: a rule already written in the grammar (`When <subject> shows
  <condition>, then <action>`) is its own directive (canonical spelling), CONTENT, for the role that
  learned it; its predicate and action are the grammar's reading (meaning.grammar_meaning);
- the Rule Compiler (compiler_prompt.md beside this module, which also states the wire format) for everything
  else: free-text rules, worked examples, human corrections. Its JSON answer is untrusted: parsed
  defensively (one corrective re-prompt for unusable JSON), every field checked, a justification that
  slipped through cut off. A predicate or action that does not fit the schema (an unknown host,
  class, value or verb: the error names it) gets one corrective re-prompt for those entries; if it is
  still invalid the rule is kept as *semantic* (no predicate: the embedding path) with the reason
  recorded. An artifact the model leaves out or botches is compiled as written (`fallback`, semantic)
  and reported, never lost silently.

Never wider than its text, nor the opposite of it (issues 18 and 29): checks.py compares every entry's
predicate and action with what the text's own words say (polarity, prohibitions, the hosts and classes it
names, history), whatever the compiler; a failing entry gets the same one corrective re-prompt, and still
failing it is kept semantic with the reason (judged by its words, three-valued), never stored as a predicate
rule. The contract's `unexpressed` lists the part of the condition the predicate could not express; a rest
that is a condition is kept and *guards* the rule (it applies where the predicate holds and the context is
near that rest, three-valued: guard.py), a rest that is a justification, a story or a restatement is
dropped (guard.guard_rest). A prohibition with no verb ("spend no actions on User0") is a `never` of
every verb on its host (checks.completed_action). An instruction the compiler drops as noise (a note that
opens with its situation, then orders) is named in the re-prompt, and still dropped it is kept as written.

FORMAT rules get the predicate `always` and no action: they reach every call of their roles.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from forge.config import ROLES
from forge.env.catalog import HOST_VERBS, HOSTS, action_reference
from forge.rulebook.language.grammar import ConditionalRule, parse_rule
from forge.llm.json_reply import ask_for_json, call_records
from forge.llm.templates import render
from forge.llm.types import ChatClient, Message, ModelCall
from forge.memory.text import normalise
from forge.rulebook.language.action import MAX_PLAN, MODES, parse_rule_action, rule_action_to_json
from forge.rulebook.language.meaning import grammar_meaning
from forge.rulebook.model import CompileVerdict, CompiledRule, RuleType, SourceItem, canonical_json, short_hash
from forge.rulebook.language.phases import phase_lines, phase_named
from forge.rulebook.authoring.checks import completed_action, reason_states, text_problem
from forge.rulebook.authoring.compiler_schema import compiler_schema
from forge.rulebook.language.episode import step_windows
from forge.rulebook.language.condition import decides_nothing
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import PredicateError, group_of, parse_predicate, predicate_to_json
from forge.rulebook.language.markers import states_something
from forge.rulebook.language.names import classes_in, hosts_in, verbs_in
from forge.rulebook.language.order import NOT_TOLD, OPENS_REPLY, REASON_FIRST, SINCE_AS_REASON, sentences, without_purpose_first
from forge.rulebook.language.forms import bare_question_said
from forge.rulebook.language.wording import read_wording

COMPILER_PROMPT = Path(__file__).with_name("compiler_prompt.md")
MAX_DIRECTIVE_CHARS = 300
MAX_REPLY_CHARS = 20000
# The reply's shape, for endpoints that constrain decoding (providers.<p>.structured_output).
COMPILER_SCHEMA = compiler_schema(ROLES, [t.value for t in RuleType], modes=MODES, max_then=MAX_PLAN - 1)
# Artifacts per compiler call. A contract entry is ~300 characters, so 4 entries fit a 512-token reply
# with room to spare (12 did not: replies were cut off and every rule fell back to "as written"). A
# batch whose reply is still unusable is split in halves and asked again (see `_ask_split`).
BATCH = 4
_JUSTIFICATION = re.compile(
    r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:because|" + SINCE_AS_REASON + r"|so that|in order to|" + NOT_TOLD + r"otherwise|"
    r"to (?:prevent|stop|avoid|keep|make sure)|which (?:is|would|will|means))\b.*$",
    re.IGNORECASE | re.DOTALL,
)
# (r54m) A part of the reply given its place in every one, in the present: "the verdict comes last in each summary", "the
# host's name goes at the top of every report" (the reply's layout, said as how it always is: advice, never a story)
_PLACED_IN_REPLY = (r"\b(?:goes|go|comes?|stands?|appears?|sits?)\s+(?:first|last|at\s+the\s+(?:top|end|start|bottom))\s+(?:in|of)\s+"
                    r"(?:every|each|any|all|your)\s+(?:answer|reply|response|output|report|analys[ie]s|plan|summar(?:y|ies))s?\b")


_FORMAT_WORDS = re.compile(
    r"\b(?:reply|replies|respond|format|json|syntax|one line|per line|exactly one line|characters|answer with|"
    r"nothing else|written as)\b|`(?:Answer|Tool):|"
    # the reply's length and layout: "answer in three lines", "under 60 words", "a numbered list", "a single word"
    # (r51h: not the teacher's own words, "in my own words", "in other words", "in plain words": how the note says it, no
    # length of the reply; read as one, a lesson with a move on a host in a phase was FORMAT and reached every call)
    r"\b(?:in|to|under|within|at\s+most|no\s+more\s+than)\s+(?!(?:my|our|his|her|their)\s+own\s+words\b|"
    r"(?:other|plain|plainer|simple|simpler)\s+words\b)(?:\w+\s+){0,2}?(?:lines|words|sentences)\b|"
    r"\b(?:numbered|bulleted)\s+list\b|\bbullet(?:\s+points?|s)\b|"
    # a plan's length counted in its moves: "keep each plan to at most two actions" (what the plan holds is its form)
    r"\bplans?\s+(?:(?:to|of|with)\s+)?(?:at\s+most|no\s+more\s+than|under|within|to|of)\s+(?:\w+\s+)?(?:moves|steps|actions|items|entries)\b|"
    # (r45m: "cap each plan at two moves", "limit the reply to four lines")
    r"\b(?:cap|limit|restrict|keep)\s+(?:every|each|the|your|a|any)\s+(?:plan|answer|reply|list)s?\s+(?:at|to)\s+(?:\w+\s+)?(?:moves|steps|actions|items|entries|lines|words)\b|"
    r"\b(?:first|last|opening|top)\s+line\s+of\s+(?:my|your|the|its|their)\s+(?:answer|reply|response|output)\b|\b(?:a\s+single|one)[\s-]+(?:short\s+)?(?:word|sentence|line)\b|"
    r"\b\w+\s+(?:lines|words|sentences)\s+at\s+most\b|"
    # (r48m) a bound said with a sign or "max", "< 60 words", "max 3 lines"; the letters or lines it is written in, "in
    # CAPS", "in upper case", "on 1 line"
    # (r51m: a word may stand between, "max 3 numbered lines")
    r"(?:<=?|\u2264|\bmax(?:imum)?\.?(?:\s+of)?)\s*\d+\s*(?:[a-z]+\s+)?(?:lines|words|sentences|characters|chars)\b|"
    # (r51m) the reply's form in a note's shorthand or named as such: "chooser fmt: ...", "Answer style for the chooser:
    # ...", "action + target only, no prose", "one action per answer"
    r"\bfmt\b|\b(?:answer|reply|response|output|plan|report|summary)\s+(?:style|format|layout|shape)\b|\bno\s+prose\b|"
    r"\bper\s+(?:answer|reply|response|report|summary)\b|"
    r"\bin\s+(?:all\s+)?(?:caps|capitals|capital\s+letters|upper[\s-]?case|lower[\s-]?case|block\s+letters)\b|"
    r"\bon\s+(?:1|one|a\s+single)\s+line\b|"
    # (r47m) a length said as a bound it must not pass, "no report longer than four lines", and the size of a plan asked
    # as a note's question, "how many moves can one plan carry?"
    r"\b(?:more|longer)\s+than\s+(?:\w+\s+)?(?:lines|words|sentences|characters)\b|"
    r"\bhow\s+many\s+(?:moves|steps|actions|items|entries|lines|words|sentences)\s+(?:may|can|should|must|could|might|does|do)\s+"
    r"(?:a|an|the|each|every|one|my|your)\s+(?:plan|answer|reply|report|analysis|list)s?\b|"
    # (r47m) what the reply says or leaves out, "mention no quiet host in a summary", "say nothing of the rest in it":
    # its content, chosen for every call (a condition on hosts or a move makes it a decision: `format_problem`)
    r"\b(?:mention\w*|say\s+nothing|talk\s+about|write\s+about)\b[^.;:]{0,40}?\b(?:in|from|within)\s+(?:the|your|a|each|every|"
    r"that|this|its|any)\s+(?:plan|report|analysis|answer|reply|summary)s?\b|"
    # (r52m) a place in the reply named as such, "the opening word of each report", "the closing sentence of each plan";
    # the grammar it is written in, "in the imperative", "in the first person"; names written out, "spell each machine name
    # out in full"; a length it must not pass, "never exceed four lines", "max two moves per plan"; its lines
    # labelled, "as three labelled lines"
    r"\b(?:first|last|opening|closing|final|top)\s+(?:word|line|sentence)s?\s+of\s+(?:every|each|any|a|an|the|your|my|its|"
    r"their)\s+(?:answer|reply|response|output|report|analys[ie]s|plan|summary)s?\b|"
    r"\bin\s+the\s+(?:imperative|passive(?:\s+voice)?|active\s+voice|(?:first|second|third)\s+person|(?:past|present|future)\s+tense)\b|"
    r"\bspell\w*\s+(?:[\w'-]+\s+){0,4}?out\s+in\s+full\b|"
    r"\bexceed\w*\s+(?:\w+\s+){0,2}?(?:lines|words|sentences|characters)\b|"
    r"\b(?:max(?:imum)?|at\s+most|up\s+to)\s+(?:\w+\s+)?(?:actions|moves|lines|items)\s+(?:per|in\s+(?:a|each|every|the))\s+"
    r"(?:plan|answer|reply|report|response)\b|"
    r"\b(?:as|in)\s+(?:\w+\s+)?label(?:l)?ed\s+lines\b",
    re.IGNORECASE,
)
_NOTHING_ELSE = re.compile(r"\bnothing\s+else\b", re.IGNORECASE)
_QUESTION_AND_ANSWER = re.compile(r"\bQ\s*[:.]\s*[^?]{3,200}\?\s*A\s*[:.]\s*\S")  # (r47m) "Q: ...? A: ...", a note's FAQ entry
# (r51m) A note headed by the reply it is about: "chooser fmt: ...", "fmt (chooser): ...", "plans: max 3 numbered lines",
# "Answer style for the chooser: ...": a note of the reply's form under such a heading is advice, never a story
_FORM_HEADING = re.compile(r"^\s*(?:[\w-]+\s+){0,2}?(?:fmt|format|style|layout)\b[^:.;]{0,30}:|"
                           # (r54m: and the role whose reply it is, "planner reports: ...", "chooser answers: ...")
                           r"^\s*(?:(?:the\s+)?(?:(?:action[\s_-]*)?chooser|planner|analyst)(?:['\u2019]s)?\s+)?"
                           r"(?:plans?|answers?|repl(?:y|ies)|reports?|summar(?:y|ies)|analys[ie]s)\s*(?:\([^)]{0,20}\)\s*)?:", re.IGNORECASE)
_HOST_WORD = {h.lower(): h for h in HOSTS}
# A condition clause (a correction that states one is not a bare action: teaching.py).
STATED_CONDITION = re.compile(r"\b(?:when|whenever|if|while|once|as soon as|as long as|unless|during|until)\b[^,;:.]*",
                              re.IGNORECASE)
# (r52f) One reading of an example the text gives, its words no subject of the rule: the words that open one ...
_EXAMPLE_WORDS = r"for\s+(?:example|instance)|such\s+as|like\b"
# ... and their abbreviations, "e.g." and "i.e." (`_MOVE_EXAMPLE`, `_EXAMPLE_LEAD`; `_EXAMPLE` reads none, below)
_EXAMPLE_ABBREVIATIONS = r"e\.\s?g\.?|i\.\s?e\.?"
# An example in quotes, between backticks or double quotes ("reply with the action only, e.g. `Restore User1`")
_QUOTED_EXAMPLE = r"`[^`]*`|\"[^\"]*\""


def _example_after(opening: str) -> str:
    """An example after one of the words `opening`: one set in single quotes ("e.g. 'Remove User2'"), or else the rest of
    its sentence or clause. (r48h) A colon after it opens the rule's own clause ("Guard User4 like gold: as soon as it is
    hit, Restore it"; read as the example, the condition was lost and a decision was FORMAT), unless the colon comes
    right after the word that opens the example ("for example: `Restore User1`")."""
    return rf"\b(?:{opening})\s*:?\s*(?:'[^']*'|[^.;:]*)"


# An example where a condition on hosts is looked for (`format_problem`): quoted, or after "for example", "such as",
# "like". Not after "e.g." or "i.e.", nor set in single quotes alone: in a condition those give a host of the class it
# names ("ent srv rooted (e.g. E1 ...) -> Restore that srv"), say the condition again ("i.e. Op_Server0 shows any
# compromise") or name a move or a value ("'Sleep' is never ok while any box shows 'Exploit'"), all of which the
# condition's reading needs; cut, a decision was read as FORMAT.
_EXAMPLE = re.compile(rf"{_QUOTED_EXAMPLE}|{_example_after(_EXAMPLE_WORDS)}", re.IGNORECASE)
# A drop the product accepts whatever the text: the compiler says it repeats another artifact.
_REPEAT = re.compile(r"\b(?:repeat\w*|duplicate\w*|same\s+(?:rule|as)|already\s+(?:listed|given|covered))\b", re.IGNORECASE)


@dataclass
class CompileReport:
    rules: list[CompiledRule] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)
    unusable: list[int] = field(default_factory=list)  # batch sizes whose reply could not be used

    @property
    def kept(self) -> list[CompiledRule]:
        return [r for r in self.rules if r.kept]

    @property
    def dropped(self) -> list[CompiledRule]:
        return [r for r in self.rules if not r.kept]


# -- pure helpers -------------------------------------------------------------------------------------


def _reason_first_cut(line: str) -> str:
    """`line` without a reason said first and closed by a colon (order.REASON_FIRST), where what follows gives an order.
    (r58d) Not where the reason tells of a state ("Because User1 is rooted: Restore User1", "Given that User3 is at
    root: ..."): that state is the case the order rests on, and the order cut from it held whatever the host's state.)"""
    found = REASON_FIRST.match(line)
    if found is not None and reason_states(found["reason"]):
        return line
    if found is None:
        return without_purpose_first(line)  # (r60m) or a purpose said first, "To shield the ops side, decoy ..."
    return line[found.end():] if read_wording(line[found.end():]).gives_order else line


def strip_justification(text: str) -> str:
    """The imperative without its reasons: one line, the first sentence's clause before any "because"."""
    line = _reason_first_cut(" ".join((text or "").split()))
    cut = _JUSTIFICATION.sub("", line).strip().rstrip(",;:-").strip()
    whole = read_wording(line)
    if cut == line or not whole.gives_order:
        return cut
    # (the cut keeps an order, but not the text's own: "When the exploit landed on X I planned an Analyse first, because
    # ... The rule I'd give myself: when X shows an exploit, restore it" cut to the story's first clause lost the lesson)
    said = read_wording(cut)
    if said.gives_order and " ".join(said.instruction.split()).lower() in " ".join(whole.instruction.split()).lower():
        return cut
    # The reason cut with it the order of a later sentence ("At step 18 ... I chose Sleep because the plan had nothing
    # urgent on it. Sleep is never the right move while ..."): cut each sentence's reason instead.
    # (a sentence whose order comes after its reason, "I may be overcorrecting, since ..., but the lesson is: when ...,
    # Remove User3", is kept whole: the reader finds its order)
    kept = [k for part in sentences(line) if (k := _own_reason_cut(part))]
    return " ".join(k if k.endswith((".", "!", "?")) else f"{k}." for k in kept)


def _own_reason_cut(sentence: str) -> str:
    """A sentence without its reason, unless the cut takes its order with it."""
    cut = _JUSTIFICATION.sub("", sentence).strip().rstrip(",;:-").strip()
    return sentence.strip() if cut and not read_wording(cut).gives_order and read_wording(sentence).gives_order else cut


def fitted(directive: str) -> str:
    """A directive within MAX_DIRECTIVE_CHARS. One that is longer (a reflection's story before its lesson) keeps its
    instruction (`read_wording`: the order and its conditions, with the opening situation where that names a host, a
    class or a state), not its first characters: cut at a fixed length, the story's opening stood for the rule, and a
    rule kept semantic was judged by what the story claimed ("I put a decoy on User0 the moment it was scanned ...")."""
    if len(directive) <= MAX_DIRECTIVE_CHARS:
        return directive
    words = read_wording(directive)
    if not words.gives_order or not words.instruction:
        return directive[:MAX_DIRECTIVE_CHARS]
    situation = words.situation.strip()
    said = situation if situation and (words_named(situation) or _STATE.search(situation)) else ""
    kept = f"{said}: {words.instruction}" if said else words.instruction
    return kept[:MAX_DIRECTIVE_CHARS]


# (r54b) A defender's move said by a word of acting the catalog has no verb for, "containment first", "quarantine always":
# under a heading of the reply or placed in it, it orders a move (no form of the reply)
_ACTING_NOUN = re.compile(r"\b(?:contain(?:ment|ing)|quarantin\w*|isolat\w*|block(?:ing|s)?|patch\w*|harden\w*|wip(?:e|es|ing)\b|"
                          r"reimag\w*|rebuild\w*|evict\w*|kick\w*|remediat\w*|mitigat\w*|sleep\w*|wait(?:s|ing)?|"
                          r"deploy\w*|honeypot\w*|lure\w*|bait\w*|restor\w*|remov\w*|decoy\w*)\b", re.IGNORECASE)


def words_named(text: str) -> bool:
    """Whether a text names a host or a class of hosts."""
    return bool(hosts_in(text) or classes_in(text))


# A state, an activity or a phase that a text speaks of
_STATE = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|root\w*|privileged|quiet|calm|idle|clean|activity|phase|impact)\b", re.IGNORECASE)


def condition_slug(rule: ConditionalRule) -> str:
    return str(rule.condition).lower().replace(" ", "-")


def grammar_group(rule: ConditionalRule) -> str:
    return f"{rule.subject}/{condition_slug(rule)}"


def when_clause(rule: ConditionalRule) -> str:
    """The rule's trigger in the words an observation uses."""
    return str(rule).split(", then ")[0].removeprefix("When ")


# (r53m) A line the reply must hold, quoted with a slot to fill: "'Next check: <host>'", "'Verdict: <word>'". Its words are
# the reply's own, no move ordered ("check" read as an Analyse made a rule on the plan's last line a decision).
# (Only a labelled line, "<label>: <slot>", whose label is no move: "'Restore <host>'" still orders a Restore.)
_QUOTED_TEMPLATE = re.compile(r"['\"\u2018\u201c]\s*(?!(?:remove|restore|analy[sz]e|monitor|decoy\w*|sleep|re-?image)\b)"
                              r"[\w\s'-]{1,30}:\s*<[\w\s-]{1,20}>\s*[.!]?\s*['\"\u2019\u201d]", re.IGNORECASE)
# (r53m) What the reply must leave out, named by no move nor host: "leave the process list out of your summary", "Reports:
# port numbers mean nothing here, keep them out" (the reply's content, as its length is its form).
_LEFT_OUT_OF_REPLY = re.compile(r"\b(?:leave|keep)\s+[^.;:!?]{1,60}?\s+out\s+of\s+(?:the|your|each|every|any|its|their)\s+(?:[\w-]+\s+)?"
                                r"(?:reports?|plans?|repl(?:y|ies)|answers?|summar(?:y|ies))\b|"
                                r"^\s*(?:(?:analyst|planner)(?:['\u2019]s)?\s+)?(?:reports?|plans?|repl(?:y|ies)|answers?|summar(?:y|ies))\s*:"
                                r"[^.;!?]*\bkeep\s+(?:it|them|those|these|that)\s+out\b", re.IGNORECASE)


def looks_like_format(text: str) -> bool:
    """A rule about the reply's form: words of replying, and nothing about hosts or what they show."""
    # how the reply opens or closes is its form, unless what it opens with is a move or a host ("begin the plan with a
    # Remove of User2" orders what to decide)
    found = OPENS_REPLY.search(text or "")
    # (r54m: the hosts of its story are none of it, "my report on User2 buried the verdict. End each report with ...": a
    # host its order or situation names is)
    said = read_wording(text or "")
    opens = bool(found) and not words_named(f"{said.situation} {said.instruction}") \
        and not verbs_in(_QUOTED_TEMPLATE.sub(" ", text[found.end():]))
    # (r53m) what the reply leaves out, where the text names no move nor host; (r53b) nor a state, "leave privileged hosts
    # out of every plan": which hosts the plan acts on, a decision on what they show
    left_out = bool(_LEFT_OUT_OF_REPLY.search(text or "")) and not words_named(text) and not verbs_in(text) \
        and not states_something(text)
    # (r54m) a note under a heading of the reply's form that names no host, class, move or state, "planner reports: two
    # lines, verdict last": what it says is that reply's form (it says nothing a decision could turn on)
    headed = bool(_FORM_HEADING.search(text or "")) and not words_named(text) and not verbs_in(text) \
        and not states_something(text) and not _STATE.search(text or "") and not _ACTING_NOUN.search(text or "")
    # (r54m) a part of the reply given its place in every one, "the verdict comes last in each summary"; (r54b) where that
    # part is a move, a host or a state, "Remove comes first in every plan", "Enterprise2 goes at the top of every report",
    # it orders what to decide, and a FORMAT rule holds on every call of its role
    placed = bool(re.search(_PLACED_IN_REPLY, text or "", re.IGNORECASE)) and not words_named(text) and not verbs_in(text) \
        and not states_something(text) and not _STATE.search(text or "") and not _ACTING_NOUN.search(text or "")
    return (opens or left_out or headed or placed or bool(_FORMAT_WORDS.search(text or ""))) and format_problem(text) is None


# (r47a) A scope said first, before a comma, without a word of condition: "For the first five steps, ...", "After a
# Restore, ...", "During recon, ..." (`format_problem`: a time or a state of the episode there is a condition all the same)
# (a place in the reply, "After the action line, ...", "In the summary, ...", is the reply's form itself)
_REPLY_PART = re.compile(r"\b(?:lines?|sentences?|words?|bullets?|headings?|sections?|paragraphs?|reports?|repl(?:y|ies)|answers?|"
                         r"plans?|summar(?:y|ies)|lists?|outputs?|messages?|responses?)\b", re.IGNORECASE)
# (r50g: and "on" / "at", "On the opening turn of a game, ...": a step of the episode, said with its preposition)
_SCOPE_LEAD = re.compile(r"^\s*(?P<scope>(?:for|after|before|during|in|within|until|till|once|from|past|beyond|on|at)\b[^,;:.]{3,80}),",
                         re.IGNORECASE)


def format_problem(text: str) -> Optional[str]:
    """Why a text is no FORMAT rule (None: it may be): it states a condition on hosts or what they show ("when
    User1 is scanned, answer with a decoy on it"); a FORMAT rule reaches every call of its roles, so one that
    holds only in some situations would be injected everywhere."""
    plain = _EXAMPLE.sub(" ", text or "")  # "reply with the action only, e.g. `Restore User1`": an example, no subject
    words = read_wording(plain)
    # (r47a: or a condition of the episode in other words, "unless it is owned", "when the reward drops", "once the score
    # falls": the rule holds only then, while a FORMAT rule is injected on every call)
    lead = _SCOPE_LEAD.match(plain)  # ("For the first five steps, ...", "After a Restore, ...": a scope said without "when")
    # (r50g: or a step of the episode, "On the opening turn of a game, put a decoy on User4 and nothing else", "every third turn":
    # a window of steps (episode.py) is a condition of the episode, and read as FORMAT the order reached every call)
    if any(c.hosts or c.classes or _STATE.search(c.text) or states_something(c.text) or facts_needed(c.text)
           or step_windows(c.text) for c in words.conditions) or lead and not _REPLY_PART.search(lead["scope"]) \
            and (facts_needed(lead["scope"]) or states_something(lead["scope"]) or verbs_in(lead["scope"])
                 or step_windows(lead["scope"])):
        return "format: the text states a condition on hosts: a rule about what to decide, not the reply's form"
    coded = _decision_quoted(text or "")
    if coded is not None:
        return coded
    # a move ordered under a condition is a decision, whatever the condition's words ("when nobody is doing anything
    # anywhere, plan a Sleep and nothing else": "nothing else" says what to do, not how to write it)
    order = words.order
    moves = verbs_in(order) if words.conditions else ()
    if moves:
        return (f"format: the text orders {moves[0]} in a condition ({words.conditions[0].text[:50]!r}): a rule about "
                "what to decide, not the reply's form")
    return _host_state_told(plain) or _move_on_host_ordered(text) or _phase_move_ordered(plain) or _situation_unmarked(plain)


# (r52h) A host of the reply in a state, said as the subject with no word of condition: "a box at Unknown is written into the
# plan as an Analyse", "any server showing Privileged heads the list", "every desk reading root ...".
_HOST_IN_STATE = re.compile(r"\b(?:a|an|any|each|every)\s+(?:[\w-]+\s+){0,2}?(?:at|showing|reading)\s+(?:compromised\s+|activity\s+)?"
                            r"(?:unknown|privileged|root|admin|user[\s-]+level|exploit|scan)\b|"
                            # (r52a) the hosts said in the plural, no article before them ("Hosts at root are written first",
                            # "all boxes showing an exploit ..."), or their state as the word before them ("rooted boxes head
                            # the plan"): read as a FORMAT rule, it was injected where no host was so
                            r"(?:^|(?<=[,;:(]\s)|\b(?:all|the|those|these)\s+)(?:[\w-]+\s+)?(?:hosts|boxes|machines|servers|workstations|"
                            r"desks|nodes)\s+(?:(?:at|showing|reading)\s+(?:an?\s+)?(?:compromised\s+|activity\s+)?(?:unknown|privileged|root|"
                            r"admin|user[\s-]+level|exploit|scan)\b)|"
                            r"\b(?:rooted|exploited|scanned|probed|compromised|owned|breached)\s+(?:hosts?|box(?:es)?|machines?|"
                            r"servers?|workstations?|desks?|nodes?)\b", re.IGNORECASE)


def _situation_unmarked(text: str) -> Optional[str]:
    """(r52h) Why a text with no condition clause is still no FORMAT rule: it states the situation its form is for in other
    words, a bare question before the form ("Probed and nothing worse? then the report is two words", forms.bare_question_said)
    or a host in a state as the subject (`_HOST_IN_STATE`). The form holds only there, while a FORMAT rule reaches every
    call: read as one, it was injected on hosts at root and clean alike."""
    asked = bare_question_said(text) != text
    subject = _HOST_IN_STATE.search(text)
    if not asked and subject is None:
        return None
    said = subject.group(0) if subject else "a situation asked before the order"
    return f"format: the text says the situation its form is for ({said[:50]!r}): a rule that holds only there, not on every call"


def _phase_move_ordered(text: str) -> Optional[str]:
    """(r51h) Why a text that states no condition clause is still no FORMAT rule: it names a phase of the attack and a
    move on hosts ("Impact phase, as I see it: ... there, a Restore of the op server comes first"). A phase is a
    situation the table shows (phases.py), so the move is a decision in it; read as FORMAT, it reached every call."""
    phase = phase_named(text)
    moves = [v for v in verbs_in(text) if v in HOST_VERBS]
    if phase and moves:
        return (f"format: the text names the {phase.replace('_', ' ')} phase and the move {moves[-1]}: a rule about what to "
                "decide, not the reply's form")
    return None


# (r50c) An example where a move the text orders is looked for (`_move_on_host_ordered`), besides `_EXAMPLE`'s: one said
# after "e.g." or "i.e.", or set in single quotes, or after "like this:" to its sentence's end ("answer in one line, like
# this: Analyse User3"): a move on a host it shows is no move the text orders
_MOVE_EXAMPLE = re.compile(r"\b(?:like\s+(?:this|so)|as\s+follows|for\s+(?:example|instance))\s*:\s*[^;]*?(?=[.;!?](?:\s|$)|$)|"
                           rf"{_example_after(f'{_EXAMPLE_WORDS}|{_EXAMPLE_ABBREVIATIONS}')}|"
                           r"(?<![\w'])'[^']{1,60}'(?![\w'])", re.IGNORECASE)


def _move_on_host_ordered(text: str) -> Optional[str]:
    """(r50c) Why a text that states no condition clause is still no FORMAT rule: its order is a move on a named host ("At a game's
    opening turn, put a DecoyTomcat on Enterprise2 and plan nothing more": "nothing more" bounds the plan, it is no form of the
    reply); a quoted form of code is `_decision_quoted`'s. A FORMAT rule reaches every call of its roles, while a
    move on a host is a decision with a situation of its own."""
    order = read_wording(_EXAMPLE.sub(" ", _MOVE_EXAMPLE.sub(" ", text or ""))).order
    for part in sentences(order):
        moves = [v for v in verbs_in(part) if v in HOST_VERBS]
        if moves and hosts_in(part) and read_wording(part).gives_order:
            return f"format: the text orders {moves[0]} on {hosts_in(part)[0]}: a rule about what to decide, not the reply's form"
    return None


# (r50g) A quoted text in a code or configuration form: between backticks, or a braced / bracketed mapping.
_QUOTED_FORM = re.compile(r"`[^`]+`|\{[^{}]*\}", re.IGNORECASE)


# (r50a) A quoted form given as an example of what to write: right after a word that opens an example ("like", "shaped
# like", "e.g.", "for example", "such as", "as in"), or a verb of writing ("never write `...` in the reply", "output `...`").
# It shows the reply's form, whatever host and move its example names ("Reply in JSON shaped like {"host": "User1",
# "state": "rooted", ...}"): read as a decision, a rule on the reply's form was refused as FORMAT, and its example's move
# was read as the order. (It is the example's opening, read before the quoted form, where the readers above read its span.)
_EXAMPLE_LEAD = re.compile(rf"\b(?:{_EXAMPLE_WORDS}|{_EXAMPLE_ABBREVIATIONS}|as\s+in|"
                           r"(?:write|writes|writing|print|output|type|emit|say|answer\s+with|reply\s+with|respond\s+with|end\s+with|"
                           r"start\s+with|begin\s+with)(?:\s+(?:a|an|one|the)\s+(?:line|block|string|row|object|entry))?)\s*[,:]?\s*$",
                           re.IGNORECASE)


def _decision_quoted(text: str) -> Optional[str]:
    """(r50g) Why a text whose quoted part is the decision itself is no FORMAT rule: the part, written as code or
    configuration, states a named host's state and the moves for it ("`User3: {when: rooted, do: [Restore
    User3]}`"). An example of the reply's wording ("answer with the action only, e.g. `Restore User1`")
    states no state; one that does is a condition and its order, and read as FORMAT the order reached every call."""
    for quoted in _QUOTED_FORM.finditer(text):
        part = quoted.group(0)
        if _EXAMPLE_LEAD.search(text[:quoted.start()]):
            continue  # (r50a) an example of what to write ("reply with one line like `...`"): the reply's form, no decision
        told = hosts_in(part)
        if told and (_STATE.search(part) or states_something(part)) and verbs_in(part):
            return (f"format: the text writes, in a quoted form, a state of {told[0]} and the moves for it "
                    f"({part[:50]!r}): a rule about what to decide, not the reply's form")
    return None


def _host_state_told(text: str) -> Optional[str]:
    """(r33h) Why a text that states no condition clause is still no FORMAT rule: it tells a named host's state in a
    sentence of its own and orders a move ("Op_Host1 is rooted. Then the chooser picks Restore Op_Host1 and nothing
    else"): the situation is the condition, "nothing else" the order's only, no word on the reply's form."""
    parts = sentences(read_wording(text).instruction)
    told = next((hosts_in(s)[0] for s in parts if hosts_in(s) and _STATE.search(s)), None)
    move = next((v for s in parts if hosts_in(s) for v in verbs_in(s)), None)
    if told and move:
        return f"format: the text tells what {told} shows and orders {move}: a rule about what to decide, not the reply's form"
    return None


def host_group(text: str, rule_type: str) -> str:
    if rule_type == RuleType.FORMAT:
        return "format/reply"
    for word in re.findall(r"[A-Za-z_]+\d", text or ""):
        if word.lower() in _HOST_WORD:
            return f"{_HOST_WORD[word.lower()]}/general"
    return "general"


def compile_grammar(item: SourceItem) -> Optional[CompiledRule]:
    """The deterministic path: a rule in the grammar compiles to itself. None for anything else."""
    if item.kind == "example":
        return None
    parsed = parse_rule(item.text)
    if parsed is None:
        return None
    when, action = grammar_meaning(parsed)
    return CompiledRule(item, CompileVerdict.RULE, str(parsed), RuleType.CONTENT, (item.role,), grammar_group(parsed),
                        when_clause(parsed), "grammar", when=when, action=action)


def compile_as_written(item: SourceItem, reason: str) -> CompiledRule:
    """The fallback when no usable model answer covers an artifact."""
    if item.kind == "example":
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="fallback", reason=f"example not compiled: {reason}")
    stripped = strip_justification(item.text)
    directive = fitted(stripped)
    if not directive:
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="fallback", reason="empty after removing the justification")
    # (judged on the whole text: a long reflection's lesson on the reply's form comes last, past the directive's cut)
    rule_type = RuleType.FORMAT if looks_like_format(stripped) else RuleType.CONTENT
    # No compiler judged what it decides about, so it gets a group of its own: lumping unrelated
    # free text under a host would flag every pair of it as a conflict.
    group = f"{host_group(directive, rule_type)}/{short_hash('group', normalise(directive))[:8]}"
    if rule_type == RuleType.FORMAT:
        return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, (item.role,), group, "", "fallback", reason,
                            when={"always": True})
    return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, (item.role,), group, directive, "fallback", reason,
                        semantic_reason=f"compiled as written: {reason}")


# -- the model path -----------------------------------------------------------------------------------


def render_artifacts(items: Sequence[SourceItem]) -> str:
    blocks = ["Artifacts to compile:"]
    for number, item in enumerate(items, 1):
        kind = "correction" if item.kind == "correction" else item.kind
        body = item.text.strip()
        if item.kind == "example" and item.title:
            body = f"### {item.title}\n{body}"
        blocks.append(f"[{number}] {kind} for {item.role}, taught by {item.actor}\n{body}")
    return "\n\n".join(blocks)


def _rules_list(data: Any) -> list:
    entries = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError('the JSON has no "rules" list')
    return entries


def _meaning(raw: dict[str, Any], rule_type: str) -> tuple[Optional[dict], Optional[dict]]:
    """The entry's predicate and action, validated and in canonical JSON; PredicateError naming the fault."""
    when_raw, action_raw = raw.get("when"), raw.get("action")
    if rule_type == RuleType.FORMAT:
        if when_raw not in (None, {"always": True}):
            raise PredicateError(f"a FORMAT rule's predicate must be {{\"always\": true}}, got {canonical_json(when_raw)[:60]}")
        return {"always": True}, None
    when = predicate_to_json(parse_predicate(when_raw)) if when_raw is not None else None
    # A rule without a predicate is semantic: an action without one would be judged nowhere, so it is dropped.
    action = rule_action_to_json(parse_rule_action(action_raw)) if action_raw is not None and when is not None else None
    return when, action


class ContentMeaning(NamedTuple):
    """A CONTENT entry's predicate and action as the book keeps them, or (when None) why they are refused."""

    when: Optional[dict]
    action: Optional[dict]
    unexpressed: str
    problem: str


def content_meaning(text: str, when_raw: Any, action_raw: Any, unexpressed_raw: Any = "") -> ContentMeaning:
    """What a CONTENT rule's stated predicate and action mean, whoever stated them (a compiler's entry, or an
    operator's rule file): parsed into canonical JSON, checked against the text (checks.text_problem), then
    completed as the book keeps them (a prohibition with no verb forbids every verb; only an `unexpressed`
    rest that is a condition guards). No predicate: `when` None and no problem (the caller says why)."""
    unexpressed = " ".join(str(unexpressed_raw or "").split())[:MAX_DIRECTIVE_CHARS]
    try:
        when, action = _meaning({"when": when_raw, "action": action_raw}, RuleType.CONTENT)
    except PredicateError as exc:
        return ContentMeaning(None, None, "", f"invalid predicate or action: {exc}")
    if when is None:
        return ContentMeaning(None, None, "", "")
    if looks_like_format(_NOTHING_ELSE.sub(" ", text)):
        # (r47m) a rule about the reply's form holds on every call of its roles: a predicate on hosts only narrows it, and
        # an action read from its words ("finish every summary with a one-word label", taken for an Analyse) is none of its
        # orders; refused, the rule is kept as FORMAT (`_entry`). (Not for its "nothing else" alone: "plan a Sleep,
        # nothing else" orders the one move, a decision whose predicate stands.)
        return ContentMeaning(None, None, "", "predicate refused: format: the text is about the reply's form, which holds on "
                                              "every call of its roles: no predicate or action says it")
    problem = _text_problem_once(text, when_raw, action, unexpressed)
    if problem is not None:
        return ContentMeaning(None, None, "", f"predicate refused: {problem}")
    # a justification, a story (or words taken from them) or a restatement of the predicate never guards
    # (r56l: nor a rest that only orders other moves in other cases than the rule's own action)
    completed = completed_action(text, action)
    return ContentMeaning(when, completed, guard_rest(unexpressed, parse_predicate(when), text, completed), "")


# (r52m) A clause that opens with a verb of writing in the imperative, at the text's start or after a comma, colon or
# semicolon: "spell ... out", "write ...", "keep ...", "put ...". An order on the reply's form said so is advice, never a story
# (a story tells what was written: "I wrote ...", "the plan put ...").
_WRITE_ORDER = re.compile(r"(?:^|[.;:,!?]\s*)(?:always\s+|never\s+|please\s+)?(?:spell|write|keep|put|phrase|word|number|"
                          r"label|list|quote|name|give|use|start|begin|open|end|close|finish)\b(?!\s+(?:is|was|were|are)\b)",
                          re.IGNORECASE)


def _drop_problem(item: SourceItem, raw: Mapping[str, Any]) -> Optional[str]:
    """Why a DROP of this artifact is refused (None: accepted): an instruction is no noise, whatever it opens
    with ("Op_Server0 compromised. That is the impact phase. Restore it right away."). A drop that says the
    artifact repeats another is accepted, and so is a worked example's (its rule is what it demonstrates)."""
    if item.kind == "example" or _REPEAT.search(str(raw.get("reason", ""))):
        return None
    words = read_wording(item.text)
    # (an order on the reply's form is an instruction too: "keep the plan to three lines"; kept, it is FORMAT)
    # (r47m: and one said as a note's question and its answer, "Q: how many moves can one plan carry? A: three": advice,
    # never a story; r51m: so is one under a heading of the reply's form, "chooser fmt: ...", `_FORM_HEADING`)
    # (r52m: and one whose clause opens with a verb of writing, "In the plan itself, spell each name out in full", `_WRITE_ORDER`)
    # (r54m: and one that gives a part of the reply its place in every one, "the verdict comes last in each summary")
    if words.gives_order or looks_like_format(item.text) and (_QUESTION_AND_ANSWER.search(item.text) or _FORM_HEADING.search(item.text)
                                                              or _WRITE_ORDER.search(item.text)
                                                              or re.search(_PLACED_IN_REPLY, item.text, re.IGNORECASE)):
        return (f"it was dropped, but it gives an order ({words.instruction[:60]!r}"
                f"{', in the situation ' + repr(words.situation[:40]) if words.situation else ''}): compile it")
    return None


_AGREES_NOTHING = "format: the text agrees nothing (a checklist with no item ticked): no rule on the reply's form"


def _entry(item: SourceItem, raw: dict[str, Any]) -> tuple[Optional[CompiledRule], Optional[str]]:
    """One model entry checked field by field: (compiled rule, None) or (None, the problem). A rule
    whose predicate or action is invalid, or says more than its text or the opposite, comes back semantic,
    with `semantic_reason` saying why."""
    verdict = str(raw.get("verdict", "")).strip().upper()
    if verdict == CompileVerdict.DROP:
        if _drop_problem(item, raw) is not None:
            return compile_as_written(item, f"the compiler dropped an instruction ({str(raw.get('reason', ''))[:80]})"), None
        return CompiledRule(item, CompileVerdict.DROP, compiled_by="model", reason=str(raw.get("reason", ""))[:200]), None
    if verdict != CompileVerdict.RULE:
        return None, f"verdict {verdict[:20]!r} is neither RULE nor DROP"
    directive = fitted(strip_justification(str(raw.get("directive", ""))))
    if not directive:
        return None, "empty directive"
    rule_type = str(raw.get("type", RuleType.CONTENT)).strip().upper()
    if rule_type not in tuple(RuleType):
        return None, f"type {rule_type[:20]!r} is neither FORMAT nor CONTENT"
    roles_raw = raw.get("roles") or [item.role]
    roles = tuple(dict.fromkeys(r for r in roles_raw if isinstance(r, str) and r in ROLES)) if isinstance(roles_raw, list) else ()
    if not roles:
        return None, f"roles {roles_raw!r:.60} name no agent role ({', '.join(ROLES)})"
    group = re.sub(r"[^A-Za-z0-9_/\-]+", "-", str(raw.get("group", "")).strip())[:60].strip("-")
    trigger = " ".join(str(raw.get("trigger", "")).split())[:MAX_DIRECTIVE_CHARS]
    parsed = parse_rule(directive)
    if parsed is not None and raw.get("when") is None:
        # A grammar directive without a predicate: the grammar's own spelling, grouping and meaning.
        when, action = grammar_meaning(parsed)
        return CompiledRule(item, CompileVerdict.RULE, str(parsed), RuleType.CONTENT, roles, grammar_group(parsed),
                            trigger or when_clause(parsed), "model", when=when, action=action), None
    if rule_type == RuleType.FORMAT:
        try:
            when, _ = _meaning(raw, rule_type)
        except PredicateError:
            when = None
        # (r54h) a note that agrees nothing, a checklist with no item ticked (condition.decides_nothing), is no rule on the
        # reply's form: kept semantic, where its claims leave it silent
        problem = format_problem(item.text) or (_AGREES_NOTHING if decides_nothing(item.text) else None)
        if problem is None:
            return CompiledRule(item, CompileVerdict.RULE, _format_directive(item.text, directive), RuleType.FORMAT, roles,
                                "format/reply", "", "model", when=when), None
        rule_type, meaning = RuleType.CONTENT, ContentMeaning(None, None, "", f"predicate refused: {problem}")
    else:
        meaning = content_meaning(item.text, raw.get("when"), raw.get("action"), raw.get("unexpressed"))
        if meaning.when is None and looks_like_format(item.text) and not decides_nothing(item.text):
            # a rule about the reply's form the compiler took for content ("Answer in three lines: Host, Verdict,
            # Why."): no predicate can say when it holds, it holds on every call of its roles
            return CompiledRule(item, CompileVerdict.RULE, _format_directive(item.text, directive), RuleType.FORMAT, roles,
                                "format/reply", "", "model", when=None), None
        if meaning.when is None and not meaning.problem:
            meaning = meaning._replace(problem="the compiler gave no predicate")
    when, action, unexpressed, reason = meaning
    if when is None:
        # A semantic rule is matched by its words alone, so they stay its author's: a model's rewrite adds no
        # checked meaning, only room to change it (SmolLM2-135M answered an operator's "deploy a decoy on
        # User2 rather than restoring it" with the prompt's own example, "Restore a User host ...").
        directive = fitted(strip_justification(item.text)) or directive
        trigger = ""
        group = f"{group or host_group(directive, rule_type)}"
    else:
        group = group_of(parse_predicate(when))
    return CompiledRule(item, CompileVerdict.RULE, directive, rule_type, roles, group, trigger or directive, "model",
                        when=when, action=action, semantic_reason=reason, unexpressed=unexpressed), None


# (r52a) A clause or sentence after the reason a FORMAT rule's cut dropped: another of its orders, or more of its form.
_ANOTHER_CLAUSE = re.compile(r"[.;!?:]\s+\S|\s[-\u2013\u2014]+\s+\S")


def _format_directive(text: str, directive: str) -> str:
    """What a FORMAT rule injects: its author's words where they fit, else the model's directive. Nothing checks a
    model's rewrite of a reply's form (no predicate, no action), so, as for a semantic rule, the rewrite could only lose
    or change what the author asked (the surrogate cut "Keep answers short - one line per host" to its first clause)."""
    whole = " ".join((text or "").split())
    # (its reason left out, "..., so that the parser can read it", where what is left still reads as a rule of the form)
    cut = strip_justification(whole)
    # (r52a) only where the reason was all it cut: "Keep replies short because long ones get cut off; never list more
    # than three hosts" lost its second order with the reason, and the rule injected asked less than its author
    dropped = whole[len(cut.rstrip(".")):] if cut and whole.startswith(cut.rstrip(".")) else None
    reason_only = dropped is not None and not _ANOTHER_CLAUSE.search(dropped)
    said = cut if cut and reason_only and looks_like_format(cut) else whole
    return said if said and len(said) <= MAX_DIRECTIVE_CHARS else directive


def _text_problem_once(text: str, when_raw: Any, action: Any, unexpressed: str) -> Optional[str]:
    """`text_problem`, asked once per entry: the checks are pure, and an entry is checked when the compiler answers,
    again after a corrective re-prompt and again when it is kept. Measured on blind-55 with the reference compiler: 210
    checks of 97 distinct entries; one bench run 4.5 s of CPU without the cache, 2.9 s with it, side by side in one
    process (the acceptance test runs each blind split twice per suite)."""
    try:
        key = canonical_json([text, when_raw, action, unexpressed])
    except (TypeError, ValueError):  # not JSON (a model's NaN): checked, not kept
        return text_problem(text, when_raw, action, unexpressed)
    return _text_problem_of(key)


@lru_cache(maxsize=4096)
def _text_problem_of(key: str) -> Optional[str]:
    return text_problem(*json.loads(key))


def _invalid_meaning(raw: Any, items: Sequence[SourceItem] = ()) -> Optional[str]:
    """The schema or contract problem of an entry's predicate/action, if any (what the corrective
    re-prompt names). `items`: the batch, for the text the checks compare the predicate with."""
    number = raw.get("item") if isinstance(raw, dict) else None
    item = items[number - 1] if isinstance(number, int) and 1 <= number <= len(items) else None
    verdict = str(raw.get("verdict", "")).strip().upper() if isinstance(raw, dict) else ""
    if verdict == CompileVerdict.DROP:
        return _drop_problem(item, raw) if item is not None else None
    if verdict != CompileVerdict.RULE:
        return None
    rule_type = str(raw.get("type", RuleType.CONTENT)).strip().upper()
    if rule_type == RuleType.FORMAT and item is not None:
        return format_problem(item.text)
    try:
        when, action = _meaning(raw, rule_type if rule_type in tuple(RuleType) else RuleType.CONTENT)
    except PredicateError as exc:
        return str(exc)
    if rule_type == RuleType.CONTENT and item is not None and when is not None:
        return _text_problem_once(item.text, raw.get("when"), action, " ".join(str(raw.get("unexpressed") or "").split()))
    return None


def _looks_cut_off(text: str) -> bool:
    body = text.strip().removeprefix("```json").removeprefix("```").strip()
    return body.startswith("{") and body.count("{") > body.count("}")


class RuleCompiler:
    """Compiles artifacts; `client` is the "compiler" role's ModelClient (None: no model path)."""

    def __init__(self, client: Optional[ChatClient], *, batch: int = BATCH) -> None:
        self.client = client
        self.batch = max(1, batch)

    def compile(self, items: Sequence[SourceItem], *, seed: int = 0) -> CompileReport:
        report = CompileReport()
        compiled: dict[int, CompiledRule] = {}
        pending: list[int] = []
        for index, item in enumerate(items):
            rule = compile_grammar(item)
            if rule is not None:
                compiled[index] = rule
            else:
                pending.append(index)
        for start in range(0, len(pending), self.batch):
            chunk = pending[start:start + self.batch]
            answers = self._ask_split([items[i] for i in chunk], report, seed + start)
            for offset, index in enumerate(chunk):
                compiled[index] = answers.get(offset) or compile_as_written(
                    items[index], "the compiler gave no usable entry for it")
        report.rules = [compiled[i] for i in range(len(items))]
        return report

    def _ask_split(self, items: list[SourceItem], report: CompileReport, seed: int) -> dict[int, CompiledRule]:
        """`_ask`, halving a batch whose reply was cut off (JSON begun and never closed: the reply budget
        ran out), so a long batch degrades to smaller calls instead of to uncompiled rules. A reply that
        is not JSON at all is not retried this way: smaller batches would not change it."""
        unusable = len(report.unusable)
        answers = self._ask(items, report, seed)
        if answers or len(items) == 1 or len(report.unusable) == unusable:
            return answers
        half = len(items) // 2
        first = self._ask_split(items[:half], report, seed + 101)
        second = self._ask_split(items[half:], report, seed + 211)
        return {**first, **{half + offset: rule for offset, rule in second.items()}}

    def _ask(self, items: list[SourceItem], report: CompileReport, seed: int) -> dict[int, CompiledRule]:
        if self.client is None:
            report.problems.append(f"{len(items)} artifact(s) need the compiler model and none is configured")
            return {}
        messages = [
            Message("system", render(COMPILER_PROMPT, roles=", ".join(ROLES), reference=action_reference(),
                                     phases=phase_lines())),
            Message("user", render_artifacts(items)),
        ]
        answer = ask_for_json(self.client, messages, seed=seed, validate=_rules_list, limit=MAX_REPLY_CHARS,
                              schema=COMPILER_SCHEMA)
        report.calls.extend(call_records("compiler", answer))
        if answer.error is not None:
            report.problems.append(f"compiler model error: {type(answer.error).__name__}")
            return {}
        if answer.value is None:
            report.problems.append(f"unusable compiler reply: {answer.problem}")
            if _looks_cut_off(answer.completions[-1].text if answer.completions else ""):
                report.unusable.append(len(items))
            return {}
        entries = answer.value
        invalid = {i: p for i, p in ((e.get("item"), _invalid_meaning(e, items)) for e in entries if isinstance(e, dict)) if p}
        if invalid:
            entries = self._correct(messages, answer, entries, invalid, report, seed, items)
        return self._collect(items, entries, report)

    def _correct(self, messages: list[Message], answer, entries: list, invalid: dict, report: CompileReport,
                 seed: int, items: Sequence[SourceItem] = ()) -> list:
        """One corrective re-prompt naming every invalid predicate/action; entries it fixes replace the
        originals, the rest stay as they were (and compile as semantic rules, with the reason)."""
        problems = "; ".join(f"item {item}: {problem}" for item, problem in invalid.items())
        report.problems.append(f"compiler predicates rejected: {problems}")
        follow_up = [*messages, Message("assistant", answer.completions[-1].text[:MAX_REPLY_CHARS]),
                     Message("user", f"These entries do not fit the schema, say more than their text or the "
                                     f"opposite of it: {problems}. Reply with the whole JSON again, correcting them (use "
                                     "null for a trigger that cannot be expressed, or list what the predicate leaves out "
                                     "in \"unexpressed\").")]
        second = ask_for_json(self.client, follow_up, seed=seed + 7, validate=_rules_list, limit=MAX_REPLY_CHARS,
                              schema=COMPILER_SCHEMA)
        report.calls.extend(call_records("compiler", second))
        if second.value is None:
            return entries
        fixed = {e.get("item"): e for e in second.value if isinstance(e, dict) and e.get("item") in invalid
                 and _invalid_meaning(e, items) is None}
        return [fixed.get(e.get("item"), e) if isinstance(e, dict) else e for e in entries]

    def _collect(self, items: list[SourceItem], entries: list, report: CompileReport) -> dict[int, CompiledRule]:
        answers: dict[int, CompiledRule] = {}
        for raw in entries:
            if not isinstance(raw, dict):
                report.problems.append("a compiler entry is not an object")
                continue
            try:
                number = int(raw.get("item"))
            except (TypeError, ValueError):
                report.problems.append(f"compiler entry without a valid item number: {raw.get('item')!r:.20}")
                continue
            if not 1 <= number <= len(items) or number - 1 in answers:
                report.problems.append(f"compiler entry for item {number}: no such artifact, or answered twice")
                continue
            rule, problem = _entry(items[number - 1], raw)
            if rule is None:
                report.problems.append(f"compiler entry for item {number}: {problem}")
                continue
            answers[number - 1] = rule
        return answers

