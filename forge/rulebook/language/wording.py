"""What a rule's own words say, read by the product to check a compilation against its text (`read_wording`). Pure.

A compiler (a model, the surrogate or a case author's reference) turns a text into a predicate and an action;
the product never trusts it to have kept the text's scope or polarity. This module reads the few things a
compilation must agree with, in the product's own vocabulary (the surrogate keeps its own: a stand-in must
not share the product's reader), with the readers beside it:

- the *instruction* (instruction.py): the text without its story, its justification and an explanation after
  its opening situation; a note that opens with its situation keeps it as its condition (`situation`);
- the hosts and host classes the instruction names (`hosts`, `classes`: names.py), and the hosts it excepts
  ("every user host except User0");
- its conditions (clauses.py) and the negations and restrictions inside them (markers.py);
- its prohibitions and preferences (forbidding.py);
- whether it gives an order at all (`gives_order`, order.py): a note that only reports gives none.

It never decides what a rule means: it only says what a compilation must not contradict (checks.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from forge.env.catalog import HOST_CLASSES
from forge.rulebook.language.clauses import (Condition, HEADING_ASIDE, moves_kept_for_another_case, WHOSE_VIEW, conditions_in, listed_exceptions,
                                             listed_states, order_without_conditions)
from forge.rulebook.language.forbidding import (EXCEPT_WORDS, Prohibition, VERB_WORD, contrasted_hosts, falling_short,
                                                listed_to_avoid, mocked_moves, prohibitions_in, told_others, counted_others)
from forge.rulebook.language.forms import (acceptance_test_said, bare_question_said, commented_out_away, config_section_said, log_lines_said, tree_said, ellipsis_filled, example_aside_away, footnotes_said,
                                           form_lines_said, hedges_away, host_described_away, ignored_advice_said, labelled_question_said,
                                           move_worth_away, not_both_said, phase_comma_said, priority_comma_said, respectively_said, latter_former_said, the_box_named_said, setting_said,
                                           state_denied_said, what_to_do_said, exceptions_said,
                                           listed_situation_joined, question_answered, quoted_row_joined,
                                           reason_aside_dropped, host_alone_aside_away, included_aside_away, scope_labels_said, whether_said, window_said, first_event_said,
                                           table_cases_said, written_out)
from forge.rulebook.language.glossary import glossary_said, group_named_said
from forge.rulebook.language.minutes import minutes_said, revert_away
from forge.rulebook.language.replies import reply_said
from forge.rulebook.language.instruction import (EXCEPT, EXCEPTED_ALONE, level_conceded_said, instruction_of, lesson_of,
                                                 put_aside_for_this_rule, reason_before, teachers_view)
from forge.rulebook.language.markers import CONDITION, UNTIL_FURTHER_NOTICE, moves_not_made_away, negations_in, states_something
from forge.rulebook.language.names import classes_in, expand_ranges, hosts_in, state_words_in, verbs_in
from forge.rulebook.language.order import AT_HAND_SAID, HOST_AT_HAND, JUSTIFICATION, LEAD_WORD, OPENING, STORY, sentences, so_order


@dataclass(frozen=True)
class Wording:
    text: str  # the whole text, one line
    instruction: str  # story, justification and explanation left out; the opening situation kept
    situation: str  # the opening situation of a note ("Op_Server0 compromised."), "" if none
    gives_order: bool
    hosts: tuple[str, ...]
    classes: tuple[str, ...]
    excepted: tuple[str, ...]  # hosts the text excepts ("... except User0")
    conditions: tuple[Condition, ...]
    prohibitions: tuple[Prohibition, ...]
    dispreferred: tuple[str, ...]  # verbs the text disprefers ("rather than restoring")
    verbs: tuple[str, ...]  # every catalog verb the instruction names
    contrasted: tuple[str, ...] = ()  # hosts the order is contrasted with ("before Enterprise2", "not User3")
    # The host "it" stands for when the order names none: the one host its story names ("I restored Enterprise1 too
    # late. Restore it as soon as it is compromised."): a rule learned on one host, said of that host.
    referent: Optional[str] = None

    @property
    def negated_conditions(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.conditions if c.negations)

    @property
    def forbids(self) -> bool:
        return bool(self.prohibitions or self.dispreferred)

    @property
    def order(self) -> str:
        """The instruction without its conditions: the words that give the order itself."""
        return order_without_conditions(self.instruction, self.conditions)


# The exceptions said with a verb that may be the order itself ("leave X out", "exclude X").
_LEFT_OUT_PATTERNS = frozenset(p.pattern for p in EXCEPTED_ALONE if re.search(r"leave|exclude", p.pattern))


def _is_the_order(instruction: str, conditions: tuple["Condition", ...]) -> bool:
    """Whether "leave X out" / "exclude X" is the order itself ("As long as the op subnet is quiet, leave Op_Server0 out
    of the plan": a prohibition on X), not an exception to it: the order, its conditions aside, names no move of its own
    and no class or hosts in general that X could be left out of ("restore the compromised user hosts, but leave User0
    out", "when a user host is exploited, remove the attacker from it; leave User0 out of it")."""
    order = order_without_conditions(instruction, conditions)
    return not verbs_in(order) and not classes_in(order) and not _GENERAL_HOST.search(order) \
        and not re.search(r"\b(?:all|every|each)\b", order, re.I)


# (r42m) Where a sentence opens: its start, or its start and a lead word ("Still, User3 is the exception: ...", "That said,
# ..."), which opens the heading's sentence as it opens an order's.
_SENTENCE_OPENS = re.compile(r"(?:^|[.!?;]\s*)(?:" + LEAD_WORD.pattern.removeprefix("^") + r")?$", re.IGNORECASE)


def _heading(text: str, match: re.Match) -> bool:
    """An exception that heads the rule ("Except for User0: do not restore it ..."): the rule is about that host."""
    starts = _SENTENCE_OPENS.search(text[:match.start()].rstrip(" \"'("))
    # (r50g) not after an order on a class that holds the host, "user boxes with a scan: DecoySmss on them. User3 is the
    # exception: hands off User3": the host is the exception to that order (read as the rule's heading, the order held on
    # it, the very host it keeps its hands off)
    before = text[:match.start()]
    if verbs_in(before) and any(h in HOST_CLASSES[c] for c in classes_in(before) for h in hosts_in(match.group(0))):
        return False
    # (what it is the exception to may follow before the colon: "Enterprise2 is the exception to our usual enterprise
    # handling: when it is compromised, ...")
    # (r35h: or whose view it is, "Op_Host1 is the exception for us: whenever ...": the rule is about that host all the same)
    return bool(starts) and bool(re.match(r"(?:\s+to\s+[^.;:!?\u2013\u2014]{1,60}?|\s+" + WHOSE_VIEW + r")?" + HEADING_ASIDE
                                          + r"(?:\s*[:\u2013\u2014]|\s+-\s)",
                                          text[match.end():]))


# "it", "that host", "the same machine": a host the sentence does not name.
_PRONOUN = re.compile(r"\b(?:it|its|it's|there|(?:that|this|the\s+same)\s+(?:host|machine|box|server|workstation|one|node))\b",
                      re.IGNORECASE)


# "a host", "any machine", "hosts that ...": the order is about hosts in general.
_GENERAL_HOST = re.compile(r"\b(?:a|an|any|some|every|each|all|whichever|whatever)\s+(?:\w+\s+){0,2}?(?:hosts?|machines?|box(?:es)?|"
                           r"servers?|workstations?|nodes?|systems?)\b|\b(?:hosts|machines|boxes|servers|nodes)\b|"
                           r"\bthe\s+(?:host|machine|box|server)\s+(?:that|which|showing|with|where)\b|"
                           # ("if the box we inspect is scanned, suggest a decoy on it": the host at hand, any)
                           r"\b" + HOST_AT_HAND + r"\b", re.IGNORECASE)


# (r52m) "the host" as what a condition speaks of ("once the box gets probed", "if the host's row reads Unknown"): the
# host at hand, whichever it is, as "a host" is, no host a story before it named.
_THE_HOST_SAID = re.compile(r"\b(?:when|if|once|whenever|while|as\s+soon\s+as)\s+the\s+(?:host|box|machine|server|node|"
                            r"workstation)(?:['\u2019]s\s+(?:row|table|record|line|entry))?\s+(?:is|shows|has|reads|looks|sits|"
                            r"gets|goes|turns|says)\b", re.IGNORECASE)


def _host_at_hand_last(text: str) -> bool:
    """Whether the last host the text speaks of before its order is the host at hand, not a named one: "the host"
    of a condition or "the box we inspect" (`_THE_HOST_SAID`, `HOST_AT_HAND`) with no host named after it ("I rated
    Op_Host2 low at step 4. If the host reads root, rate it critical."; "My report on User2 missed it. For the box we
    inspect: when it is merely probed, ..."). The order's "it" is that host, the nearer of the two, as a person reads
    it: a lesson is about its own subject, never a host only its story names."""
    return any(not hosts_in(text[found.start():]) for pattern in (_THE_HOST_SAID, AT_HAND_SAID)
               for found in pattern.finditer(text))


def _referent(text: str, order: str, named: tuple[str, ...], classes: tuple[str, ...]) -> Optional[str]:
    """The host an order that names none refers to by "it" or "that host": the one host the rest of the text names."""
    rest = _pronoun_hosts(text, order, named, classes)
    return rest[0] if len(rest) == 1 else None


def _pronoun_hosts(text: str, order: str, named: tuple[str, ...], classes: tuple[str, ...]) -> tuple[str, ...]:
    """The hosts an order that names none may mean by "it" or "that host": those the rest of the text names."""
    if named or classes or not _PRONOUN.search(order) or _GENERAL_HOST.search(order) or _host_at_hand_last(text):
        return ()
    return hosts_in(text)


def pronoun_hosts(text: str) -> tuple[str, ...]:
    """The hosts an order that names no host, no class and no host in general may mean by its "it" ("I restored
    Enterprise1 too late, and the attacker reached Enterprise2 from it. Restore it as soon as it is compromised."):
    the hosts the rest of the text names, one of which it is (empty: the order names its own subject, or has no "it").
    One host is the order's `referent`; with more, the reader cannot tell which, but it is one of them, never any host."""
    words = read_wording(text)
    whole = f"{words.situation} {words.instruction}".strip()
    return _pronoun_hosts(words.text, whole, hosts_in(whole), classes_in(whole))


# A form's labels before its parts ("Condition: User2 shows an exploit. Action: remove the attacker from User2.",
# "Trigger - ...; response - ..."): the parts are a situation and an order as any note writes them.
_FORM_LABEL = re.compile(r"(^|[.;!?]\s+|;\s*)(?:condition|trigger|situation|context|case|action|response|reaction|"
                         r"what\s+to\s+do|do\s+this)\s*(?::|\s[\u2013\u2014-]|->)\s*(?P<first>\w)", re.IGNORECASE)


_ARROW = re.compile(r"\s*(?:->|=>|\u2192)\s*")  # "Enterprise2 exploited -> remove the attacker": a situation, then its order


# "a user-level exploit means recommend a Remove", "calls for planning a Restore": the role's own verb of proposing
# between the judgement and the move; the move is what the judgement names ("means a Remove").
# (r42m) The analyst's verdict may come first, "warrants flagging it critical and recommending a Restore": the answer the role
# gives beside the move, no condition of it.
_JUDGED_PROPOSAL = re.compile(r"\b(?P<judged>means|calls?\s+for|warrants?)\s+(?:(?:rating|calling|flagging|marking|scoring)\s+"
                              r"(?:it|them|the\s+host|that\s+host)\s+(?:as\s+)?(?:low|medium|high|critical)(?:[\s-]+risk)?\s+and\s+)?"
                              r"(?:to\s+)?(?:recommend|plan|propose|suggest)(?:ing|s)?\s+"
                              r"(?=(?:(?:a|an|the)\s+)?" + VERB_WORD + r")", re.IGNORECASE)


# (r43m) A label that says the note revises an earlier one, before a colon: "Update: ...", "Correction: ...", "Revised rule:
# ...". It is no situation: read as the heading before the colon, it was a condition no reading placed, and the rule's
# conditions were never whole.
_REVISION_LABEL = re.compile(r"^\s*(?:update[ds]?|correction|revision|revised(?:\s+(?:rule|note))?|amendment|amended(?:\s+(?:rule|note))?|"
                             r"edit|change|new\s+(?:rule|note|version))\s*:\s*", re.IGNORECASE)


# (r58m) "until further notice" with the comma and "and" that join it to the order (markers.UNTIL_FURTHER_NOTICE).
_LASTING = re.compile(rf"(?:,\s*)?(?:and\s+)?{UNTIL_FURTHER_NOTICE}", re.IGNORECASE)


# (r58m) A label that says the note still stands as it was, before a colon: "Still valid:", "Same as before:",
# "Reminder, still in force:". It tells the note's standing, no situation of it (read as one, its "still" was history the product
# cannot judge, and the rule was silent).
_STANDING_LABEL = re.compile(r"^\s*(?:(?:still\s+(?:true|valid|stands|holds|applies|in\s+force)|(?:same\s+)?as\s+before|reminder)"
                             r"\s*[,;]?\s*)+:\s*", re.IGNORECASE)


# (r58n) A stand-up note's label for the day's plan, before a colon at a sentence's start: "Today:", "Tonight:", "This
# shift:", "Plan for today:". It says when the note was written, no situation of the rule (read as one, it was a condition no
# reading placed, and the rule was silent in its own case).
_DAY_LABEL = re.compile(r"(?:^|(?<=[.!?]\s))\s*(?:(?:the\s+)?plan\s+for\s+)?(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|"
                        r"evening|shift|week|sprint))\s*:\s*", re.IGNORECASE)


# (r59m) A label that says the sentence adds to what came before, before a colon at a sentence's start: "also:", "Plus:",
# "One more thing:", "PS:", "btw:". It says the note adds a rule, no situation of it (read as one, the sentence before it,
# "+1 to the lesson above.", joined the label as a condition no reading placed, and the rule was silent).
_ADDITION_LABEL = re.compile(r"(?:^|(?<=[.!?]\s))\s*(?:and\s+)?(?:also|plus|additionally|in\s+addition|one\s+more\s+(?:thing|point|rule)|"
                             r"another\s+(?:thing|point)|p\.?\s?s\.?|btw|by\s+the\s+way)\s*:\s*", re.IGNORECASE)


# (r44m) Likewise a lead that sets the note beside another teacher's or an earlier note, before a colon: "User4 is another
# case than the User2 note:", "Unlike my earlier rule on User1:", "Not the same case as dana's lesson:". It
# tells which note this is not, no situation of this one (read as one, a host it named there was a condition).
_OTHER_NOTE_LEAD = re.compile(r"^\s*(?:[^:.;]{0,60}?\b(?:is|are|'s)\s+(?:a\s+|an\s+)?(?:different|separate|another|other)\s+"
                              r"(?:story|case|matter|thing|situation)\s+(?:from|than|to)|unlike|not\s+the\s+same\s+(?:case|story|thing)\s+as)"
                              r"\s+[^:.;]{0,60}?\b(?:note|rule|lesson|advice|tip)s?\s*:\s*", re.IGNORECASE)



# (r51h) Another note quoted as what it said, then this text's exception to it: "My first note said 'no Remove on an op
# host'. It still stands, but not for Op_Host2: ...", "Dana's rule reads "...": fine, but not for Op_Host1: ...". The
# quotation is the rule this text excepts a host from, not its order (read as the order, the text forbade the very move
# it orders on the host it excepts); the exception and what follows are this text's rule.
_QUOTED_NOTE_EXCEPTED = re.compile(
    r"^\s*(?:the|an?|our|my|your|his|her|their|[A-Z]\w*['\u2019]s)\s+(?:(?:old|older|earlier|previous|first|original|standing|"
    r"existing|current|last)\s+)?(?:note|rule|lesson|advice|guidance|order|policy|entry|line)\s+(?:said|says|reads|read|goes|went|"
    r"was|is|ran|runs)\s*:?\s*(?P<mark>['\"\u2018\u201c])[^'\"\u2018\u2019\u201c\u201d]{3,200}['\"\u2019\u201d]\s*[.;:,]?\s*"
    r"(?:(?:that|this|it)\s+(?:still\s+)?(?:holds|stands|applies|stays|remains|is\s+right|is\s+fine)(?:\s+(?:true|good|so))?\s*"
    r"(?:[,;:.\u2013\u2014-]\s*|\s+(?=but\b)))?(?:but\s+|however\s*,?\s*)?(?=(?:" + EXCEPT_WORDS + r"|not\s+for)\b)", re.IGNORECASE)

# (r59h) Likewise another's note reported in words of its own, not quoted ("Kim's rule says op boxes never get a Remove.",
# "Kim said the op boxes never get a Remove."), then granted in general and set aside in one case with an order of this
# text's: "Sound in general, but when Op_Host2 is rooted ...: Remove it"; or one granted by pointing at it, "Agreed with
# the rule above, but Op_Host2 is the exception: ...". The report is the rule this text excepts a
# case from, not its order: read as the order, its "never" stood beside the order the text gives for the case, the
# compilation of that case was refused as the opposite of the words, and the rule kept without a meaning was injected
# beside the note it outranks.
_REPORTED_NOTE_GRANTED = re.compile(
    r"^\s*(?:(?:the|an?|our|my|your|his|her|their|[A-Z]\w*['\u2019]s)\s+(?:(?:old|older|earlier|previous|first|original|"
    r"standing|existing|current|last)\s+)?(?:note|rule|lesson|advice|guidance|order|policy|entry|line|card|runbook)|"
    r"(?!(?:I|We|You|It|This|That|They)\b)[A-Z]\w*)\s+(?:said|says|reads|read|wrote|writes)\s*:?\s*[^.!?;]{3,200}[.!?;]\s*"
    r"(?:(?:that|it|this)(?:'s|\u2019s|\s+is)\s+)?(?:fine|ok(?:ay)?|agreed|true|sure|right|sound|fair(?:\s+enough)?)"
    r"(?:\s+(?:by|with)\s+me)?(?:\s+(?:in\s+general|as\s+a\s+rule|mostly|on\s+the\s+whole|overall|for\s+the\s+most\s+part))?"
    r"\s*[,;:.\u2013\u2014-]?\s*(?:but|however|except\s+that)\b\s*,?\s*|"
    # (or granted by pointing at it, "Agreed with the lesson above, but ...", "I go along with Kim's rule, except that ...")
    r"^\s*(?:i\s+)?(?:agree(?:d)?|(?:go|went)\s+along)\s+with\s+(?:the|that|this|your|his|her|their|[A-Z]\w*['\u2019]s)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:note|rule|lesson|advice|guidance|order|policy|entry|runbook)(?:\s+(?:above|before|here))?"
    r"\s*[,;:.\u2013\u2014-]?\s*(?:but|however|except\s+that)\b\s*,?\s*", re.IGNORECASE)


def _reported_note_granted_away(flat: str) -> str:
    """`flat` without another's note it reports and grants in general (`_REPORTED_NOTE_GRANTED`), where the case it sets
    aside gives an order of its own. (r59a) The case is one of the note's: where the note is waited on a state ("when an
    op host is rooted, never Remove it") or only pointed at ("the rule above"), a case that states no condition of its
    own ("but Remove Op_Host2 anyway") stands under the note's, and read alone it ordered the move in any state."""
    found = _REPORTED_NOTE_GRANTED.match(flat)
    rest = flat[found.end():] if found else ""
    if not found or not verbs_in(rest):
        return flat
    own_case = CONDITION.search(rest) or state_words_in(rest)
    note_case = CONDITION.search(found.group(0)) or state_words_in(found.group(0)) or _NOTE_POINTED_AT.match(flat)
    return rest[:1].upper() + rest[1:] if own_case or not note_case else flat


_NOTE_POINTED_AT = re.compile(r"^\s*(?:i\s+)?(?:agree(?:d)?|(?:go|went)\s+along)\s+with\b", re.IGNORECASE)


def _quoted_note_away(flat: str) -> str:
    """`flat` without the quoted note its exception amends (`_QUOTED_NOTE_EXCEPTED`), where what follows gives an order of
    its own. (r51a) Where it names no move ("That still holds, except for Op_Host1 while Op_Server0 is clean"), the
    quotation is still the order and the exception a case it leaves out: read alone, the case left out was the rule's
    only condition, and the rule held there, the opposite of its words."""
    found = _QUOTED_NOTE_EXCEPTED.match(flat)
    return flat[found.end():] if found and verbs_in(flat[found.end():]) else flat


# (r52m) The planner's idiom for a move on a host, "Op_Host1 goes into the plan as a Restore", "never goes in a plan as an
# Analyse": the host gets that move (said so, "Op_Host1 gets a Restore", the reader knows the order and its "never"; read as
# none, the sentence was a situation before its colon and its "never" a negated condition no predicate could say).
_PLAN_ENTRY = re.compile(r"\b(?P<go>goes|go|went|going)\s+(?:in|into|onto)\s+(?:the|a|an|any|every|my|your|our)\s+"
                         r"(?:plan|report|list)s?\s+as\s+(?P<article>(?:a|an)\s+)?['\"\u2018\u201c]?(?=" + VERB_WORD + r")",
                         re.IGNORECASE)
_GETS = {"goes": "gets", "go": "get", "went": "got", "going": "getting"}


def plan_entry_said(flat: str) -> str:
    """`flat` with the planner's "<host> goes into the plan as a <move>" said as "<host> gets a <move>" (`_PLAN_ENTRY`)."""
    return _PLAN_ENTRY.sub(lambda m: f"{_GETS[m['go'].lower()]} " + (m["article"] or ("an " if flat[m.end():m.end() + 1].lower()
                                                                                          in "aeiou" else "a ")), flat)


# The rewrites `read_wording` applies, in order: first those that read a text's lines and blocks (a glossary, settings, log lines,
# trees, tests, config sections, quoted rows, form lines, footnotes, questions and answers), then, on the text with its
# whitespace joined, those that read its sentences.
# (r59l: after commented-out lines, a revert commit's message as the withdrawal it is, minutes.py: 'Revert "..." / This reverts ...')
# (r52m: then a note's own names written out, glossary.py: "Legend: 'the barn' = Op_Host1. Rule: ...", and (r59h) a name
# it gives to hosts it lists: "I'll refer to User1 and User3 as the pair. ...")
# (r55m: then a meeting's minutes as the items they agreed, minutes.py: "Minutes: - AGREED: ... - PARKED: ...", and a reply
# under a quoted note as what it settles, replies.py: "> Proposal: ... / Agreed, but not User4: ...")
_BLOCKS_SAID = (commented_out_away, revert_away, glossary_said, group_named_said, minutes_said, reply_said, setting_said, log_lines_said, tree_said, config_section_said, acceptance_test_said, quoted_row_joined,
                ignored_advice_said, example_aside_away, not_both_said, footnotes_said, table_cases_said, form_lines_said, question_answered, state_denied_said,
                what_to_do_said, labelled_question_said, bare_question_said, exceptions_said, level_conceded_said)
_SENTENCES_SAID = (first_event_said, host_described_away, move_worth_away, phase_comma_said, priority_comma_said, respectively_said, latter_former_said, the_box_named_said,  # (r55m; r60l)
                   hedges_away, whether_said, reason_aside_dropped, host_alone_aside_away, included_aside_away, listed_situation_joined, written_out, plan_entry_said, expand_ranges,
                   ellipsis_filled, window_said)


@lru_cache(maxsize=4096)
def read_wording(text: str) -> Wording:
    """What the text says that a compilation must agree with (see the module docstring)."""
    flat = text
    for said in _BLOCKS_SAID:
        flat = said(flat)
    flat = " ".join(flat.split())
    for said in _SENTENCES_SAID:
        flat = said(flat)
    flat = _FORM_LABEL.sub(lambda m: m.group(1) + m["first"].upper(), _ARROW.sub(": ", flat))
    flat = _OTHER_NOTE_LEAD.sub("", _STANDING_LABEL.sub("", _REVISION_LABEL.sub("", _JUDGED_PROPOSAL.sub(r"\g<judged> ", scope_labels_said(flat)))))
    flat = _ADDITION_LABEL.sub(" ", _DAY_LABEL.sub(" ", flat)).strip()  # (r58n) "Today:", (r59m) "also:": no condition
    flat = _quoted_note_away(flat)  # (r51h) the quoted rule this text excepts from is not its order
    flat = _reported_note_granted_away(flat)  # (r59h) nor is one it reports and grants in general
    flat = _LASTING.sub(" ", flat)  # (r58m) "..., and until further notice, ...": how long the order lasts, no condition
    instruction, situation, order = instruction_of(flat)
    whole = f"{situation} {instruction}".strip()
    conditions = conditions_in(instruction, situation)
    # (r48b) a case of a list of exceptions that states a host's state: a negated condition of the rule
    conditions += tuple(Condition(said, negations_in(said), hosts_in(said), classes_in(said)) for said in listed_states(flat)
                        if said not in {c.text for c in conditions})
    excepted = tuple(dict.fromkeys([h for m in EXCEPT.finditer(whole) for h in hosts_in(m["what"])]
                                   + [h for p in EXCEPTED_ALONE for m in p.finditer(flat) if not _heading(flat, m)
                                      and not (p.pattern in _LEFT_OUT_PATTERNS and _is_the_order(instruction, conditions))
                                      for h in hosts_in(m["what"])] + list(told_others(flat, whole, instruction)) + list(counted_others(flat))
                                   + list(listed_exceptions(flat))))
    aside = put_aside_for_this_rule(flat)
    excepted = tuple(h for h in excepted if h not in aside)  # (the hosts this rule is for, another rule's exception)
    prohibitions, dispreferred = prohibitions_in(moves_not_made_away(instruction))  # (r39m: a move not made is history)
    # (r59n: and a move kept for another case, "keep the Restore for once it sits at root", clauses.moves_kept_for_another_case)
    dispreferred = tuple(dict.fromkeys((*dispreferred, *falling_short(text), *(v for v, _, _ in moves_kept_for_another_case(instruction)))))
    # (r52h) a move proposed only to be mocked ("..., what could possibly go wrong") is forbidden, wherever it stands
    # (r54l) and one put on a list of moves to avoid, whose "to avoid" the instruction leaves out as a purpose
    prohibitions = tuple(dict.fromkeys((*prohibitions, *mocked_moves(flat), *listed_to_avoid(flat))))
    # ("Leave Op_Server0 out of the plan while it only shows a scan": "leave X out" as the whole order is a prohibition of
    # every move on X, not an exception to an order it does not give)
    left_out = tuple(dict.fromkeys(h for p in EXCEPTED_ALONE if p.pattern in _LEFT_OUT_PATTERNS for m in p.finditer(instruction)
                                   for h in hosts_in(m["what"]))) if _is_the_order(instruction, conditions) else ()
    if left_out and not any(p.verb is None and set(left_out) <= set(p.hosts) for p in prohibitions):
        prohibitions = (*prohibitions, Prohibition(None, left_out))
    # ("Op hosts other than Op_Server0: never Restore them": the heading names the class the prohibition is about, and
    # the host it leaves out; the prohibition is on the rest of the class, not on the host left out)
    rest_of = tuple(h for c in classes_in(situation) for h in HOST_CLASSES[c] if h not in excepted) \
        if excepted and classes_in(situation) and set(excepted) <= set(hosts_in(situation)) \
        and not set(excepted) & set(hosts_in(instruction)) else ()
    if rest_of:
        prohibitions = tuple(p if p.hosts or p.classes else Prohibition(p.verb, rest_of) for p in prohibitions)
    elif excepted:  # "restore the user hosts, except User0, which we never reimage": the prohibition is about User0
        prohibitions = tuple(p if p.hosts or p.classes else Prohibition(p.verb, excepted) for p in prohibitions)
    return Wording(flat, instruction, situation, order, hosts_in(whole), classes_in(whole), excepted,
                   conditions, prohibitions, dispreferred, verbs_in(instruction),
                   contrasted_hosts(instruction), _referent(flat, whole, hosts_in(whole), classes_in(whole)))


# A condition told in the past, every verb of it ("while Op_Server0 was already compromised"): what happened, not when
# (or "got": "When Enterprise2 got scanned I put the decoy elsewhere")
# (r32m: or "sat", "stood", "said": "while it sat at Unknown", "when the table plainly said Compromised No")
_TOLD_CONDITION = re.compile(r"^(?!.*\b(?:is|are|shows?|has|have|gets?|becomes?|reads?|remains?|stays?)\b).*"
                             r"\b(?:was|were|had|got|sat|stood|said|showed)\b", re.IGNORECASE)


# The teacher telling what they, or their plan, did: "I restored it", "we waited", "my plan back then went for a
# Restore" (r32m: the plan's own past, "my plan went", "our Analyse came")
_TELLER = re.compile(r"\b(?:i|we)\s+(?!should|must|would|will|'d|need)\w+|"
                     r"\b(?:my|our)\s+(?:\w+\s+){1,4}?(?:went|was|were|had|came|did|\w+ed)\b", re.IGNORECASE)


# (r33h) What might have been, said before a condition in its clause: "a Restore might have worked if it came earlier"
# (the "if" is the counterfactual's, no condition the rule is for)
_MIGHT_HAVE_BEEN = re.compile(r"\b(?:would|could|might)(?:\s+not|n['\u2019]t)?\s+have\s+\w+[^.;:]*$", re.IGNORECASE)


# (r39m) A sentence that gives an example ("(Example from seed 4: User1 at User on turn 9.)", "e.g. ...", "For instance,
# ..."): the states it tells are the example's, no condition of the rule.
_EXAMPLE_SENTENCE = re.compile(r"^\s*[(\[]?\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|(?:an?\s+|one\s+|my\s+)?example\b|"
                               r"as\s+an\s+example\b|as\s+in\s+(?:seed|run|episode|game)\b|case\s+in\s+point\b)", re.IGNORECASE)


# (r44x) A relative clause that describes the complement of "is the one", "<subject> is the one that we may yet rescue":
# it says what the subject is (a reason for the order, beside it); one that states no state of a host is no condition
# (read as one, left out of the instruction, the rule's reading never counted as whole)
_ONE_DESCRIBED = re.compile(r"one\s+(?:that|which|who)\b", re.IGNORECASE)


_IS_THE_ONE = re.compile(r"\b(?:is|are|was|were|'s)\s+(?:the|a)\s+(?:only\s+)?$", re.IGNORECASE)


# (r52m) A question asked only to argue, "What is the point of a decoy on Op_Host1 when Op_Server0 is the one probed?", "Why
# bother restoring User2 if ...?": its "when" is the argument's, no condition of the order beside it (read as one, the rule's
# claims were never whole and it stayed silent where its own condition held). One that is the order itself is the instruction.
_RHETORICAL = re.compile(r"^\s*(?:what(?:'s|\s+is)\s+the\s+(?:point|use|sense)\s+(?:of|in)|why\s+(?:would|should|do|does|bother)|"
                         r"what\s+good\s+is|who\s+needs)\b[^?]*\?\s*$", re.IGNORECASE)


def conditions_left_out(text: str) -> tuple[str, ...]:
    """The conditions a text states outside its instruction and opening situation, in a sentence that is no story
    and not in a justification ("Restore Enterprise1 if it is compromised. This only matters while Op_Server0 is
    clean."): claims read from the instruction alone are not the whole of such a rule."""
    words = read_wording(text)
    kept = f"{words.situation} {words.instruction}".lower()  # (a lesson the reader drew starts with a capital)
    left = []
    for sentence in sentences(words.text):
        if STORY.search(sentence) or _EXAMPLE_SENTENCE.match(sentence) or _RHETORICAL.match(sentence):
            continue
        sentence = lesson_of(sentence)  # (r45m: "My takeaway is that <lesson>": the lead that names the lesson is no condition)
        opening = OPENING.match(sentence)
        if opening and (teachers_view(opening["situation"], opening["rest"])
                        or reason_before(opening["situation"], opening["rest"])):
            sentence = opening["rest"]  # (the teacher's judgement before the order states none of its conditions)
        # (a reason before ", so ORDER" is no condition of it: `so_order`)
        for condition in conditions_in(JUSTIFICATION.sub("", so_order(sentence)), ""):
            if _TOLD_CONDITION.search(condition.text) and _TELLER.search(sentence):
                continue  # "a user host was exploited while Op_Server0 was already compromised, and I ...": a told moment
            if _MIGHT_HAVE_BEEN.search(sentence[:max(sentence.find(condition.text), 0)]):
                continue  # (r33h) "a Restore might have worked if it came earlier": what might have been
            if _ONE_DESCRIBED.match(condition.text) and _IS_THE_ONE.search(sentence[:max(sentence.find(condition.text), 0)]) \
                    and not states_something(condition.text):
                continue  # (r44x) "<subject> is the one that may yet be rescued": what that one is, no state
            if condition.text.lower() not in kept:
                left.append(condition.text)
    # (r46b) a time after a move put out of the order, "..., but not the step after you removed it": an exclusion the
    # conditions' reading drops at its comma (the rule then spoke in the very step it excludes)
    left += [m.group(0) for m in _TIME_AFTER_EXCLUDED.finditer(" ".join(words.text.split()))]
    return tuple(left)


_TIME_AFTER_EXCLUDED = re.compile(r"\b(?:not|except|save|but|other\s+than|apart\s+from|excluding)\s+(?:(?:in|on|at|during|for)\s+)?"
                                  r"(?:the|that|this|a|any)\s+(?:next\s+|first\s+)?(?:step|turn)s?\s+(?:right\s+|just\s+|directly\s+)?"
                                  r"(?:after|following)\b[^.;]*", re.IGNORECASE)


__all__ = ["Wording", "conditions_left_out", "pronoun_hosts", "read_wording"]
