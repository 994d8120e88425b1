"""A note's own names, written out (`glossary_said`): "Legend: 'the barn' = Op_Host1, 'rig' = any op host. Rule: ...". Pure.

A teacher may open a note with the names it uses, under a heading ("Glossary:", "Legend:", "Nicknames:", "Shorthand for
my notes:", "Key:"), each one `term = meaning`, then give the rule in those names. The reader knows the hosts and classes
by their catalogue names, so a rule said in the note's own names was read as one about no host at all: its condition
was never whole, and the rule stayed silent where it applied (or a compilation that named the host was refused as
naming one the text does not). The rewrite puts each meaning in the place of its term and leaves the heading out.

A meaning is read only where it is a host (one host name, or "that same box" after one), a class ("any user host"),
or hosts in general with a condition ("any box whose row reads Unknown"); any other definition is left as
written, and so is a text with no such heading. It only restates: a term stands for what the note says it stands for.
"""

from __future__ import annotations

import re

from forge.rulebook.language.names import classes_in, hosts_in, verbs_in

# The heading of a note's list of names, at its start: "Glossary:", "Glossary first:", "Legend:", "Nicknames:",
# "Shorthand for my notes:", "Key:", "Aliases:", "Abbreviations:".
_HEADING = re.compile(r"^\s*(?:glossary|legend|nicknames?|shorthand|aliases|abbreviations|key)\b[^:.;=]{0,30}:\s*",
                      re.IGNORECASE)
# One definition, "'the barn' = Op_Host1" or "OH1 = Op_Host1": a quoted term or one short word, "=", its meaning.
_DEFINITION = re.compile(r"^\s*(?:and\s+)?(?:['\"\u2018\u201c](?P<quoted>[^'\"\u2019\u201d=]{1,24})['\"\u2019\u201d]|"
                         r"(?P<bare>[A-Za-z][\w-]{0,10}))\s*=\s*(?P<meaning>.+?)\s*$", re.IGNORECASE)
# The same host as the definition before ("U1 = User1, 'the gate' = that same box").
_SAME_AS_BEFORE = re.compile(r"^(?:that|the)\s+same\s+(?:box|host|machine|server|one|workstation|node)\b", re.IGNORECASE)
# Hosts of a class or in general: "any user host", "every enterprise box", "any host whose row shows ...".
_ANY_HOST = re.compile(r"^(?:any|every|each|all|a|an)\s+(?P<noun>(?:[\w-]+\s+){0,2}?(?:host|box|machine|server|workstation|node)s?"
                       r"(?:\s+(?:whose|that|which|with|where|at|showing)\b.*)?)$", re.IGNORECASE)
# A label that opens the rule after the list: "Rule:", "The rule:", "My rule:".
_RULE_LABEL = re.compile(r"^\s*(?:(?:the|my|our)\s+)?rule\s*:\s*", re.IGNORECASE)


def _meanings(listed: str) -> dict[str, str]:
    """term -> what it stands for in the rule's words (a host name, or a noun phrase of hosts), for each definition of
    the list that is one; an apposition after a definition ("'the gate' = that same box, our way in") adds nothing."""
    meanings: dict[str, str] = {}
    last_host = None
    for part in re.split(r"\s*[,;]\s*", listed):
        found = _DEFINITION.match(part)
        if found is None:
            continue
        term, meaning = (found["quoted"] or found["bare"]).strip(), found["meaning"].strip()
        named = hosts_in(meaning)
        if _SAME_AS_BEFORE.match(meaning) and last_host:
            meanings[term] = last_host
        elif len(named) == 1 and len(meaning.split()) <= 2:
            meanings[term] = last_host = named[0]
        elif (general := _ANY_HOST.match(meaning)) and not named and len(classes_in(meaning)) <= 1:
            meanings[term] = general["noun"].strip()
    return meanings


def _put_in(rule: str, term: str, meaning: str) -> str:
    """`rule` with each use of `term` as `meaning`: a host name in the place of the term with its article ("the barn",
    "The barn"), a noun phrase in the place of the term alone (its determiner kept: "every rig" -> "every op host"), a
    plural term as the plural noun."""
    bare = term[4:] if term.lower().startswith("the ") else term
    if hosts_in(meaning) == (meaning,):
        return re.sub(rf"\b(?:the\s+)?{re.escape(bare)}\b", meaning, rule, flags=re.IGNORECASE)
    head, _, tail = meaning.partition(" whose ") if " whose " in meaning else (meaning, "", "")
    plural = re.sub(r"(box|host|machine|server|workstation|node)\b", lambda m: m[1] + ("es" if m[1] == "box" else "s"), head,
                    count=1) + (f" whose {tail}" if tail else "")
    rule = re.sub(rf"\b{re.escape(bare)}s\b", plural, rule, flags=re.IGNORECASE)
    return re.sub(rf"\b{re.escape(bare)}\b", meaning, rule, flags=re.IGNORECASE)


def glossary_said(text: str) -> str:
    """`text` with the names its opening list defines written out, the list and its heading left out (see the module
    docstring); `text` itself where it opens with no such list, or the list defines no name this reading places."""
    heading = _HEADING.match(text or "")
    if heading is None:
        return text
    body = text[heading.end():]
    # the list runs to its sentence's end, or to the rule's own label ("... = Enterprise1. Rule: ..." / "...; Rule: ...")
    ends = re.search(r"(?:\.\s+|;\s*(?=(?:(?:the|my|our)\s+)?rule\s*:)|\s*(?=\b(?:(?:the|my|our)\s+)?rule\s*:))", body, re.IGNORECASE)
    if ends is None:
        return text
    meanings = _meanings(body[:ends.start()])
    if not meanings:
        return text
    rule = _RULE_LABEL.sub("", body[ends.end():])
    for term in sorted(meanings, key=len, reverse=True):  # ("the vault" before "vault")
        rule = _put_in(rule, term, meanings[term])
    return rule[:1].upper() + rule[1:]


# (r57h) A sentence that says what a word of the note's means, its subject the word itself with no host or class:
# "root is for Privileged only", "owned means User or Privileged", "the term user level refers to Compromised User".
# It fixes the note's vocabulary and states no situation (read as one, "'admin' is reserved for Privileged; anything
# short of admin on Op_Server0 goes in the plan as user level" held only with Op_Server0 at Privileged, the case it rules
# out).
_WORD_DEFINED = re.compile(r"^\s*(?:the\s+(?:word|term|label)\s+)?['\"\u2018\u201c]?(?P<word>[a-z][\w-]*(?:\s+level)?)['\"\u2019\u201d]?\s+"
                           r"(?:(?:is|are)\s+(?:only\s+|just\s+|strictly\s+)?(?:for|reserved\s+for|kept\s+for|used\s+for|said\s+of)|"
                           r"means|stands\s+for|refers\s+to|denotes)\b", re.IGNORECASE)


def defines_word(sentence: str) -> bool:
    """(r57h) Whether `sentence` only says what a word means (`_WORD_DEFINED`): its subject names no host or class.
    (r57a) Nor does what it says the word means: "escalation means Op_Server0 going to root", "trouble is for when a
    user box is owned" give the word a situation of hosts, which the order then points back at ("at that point, Restore
    Op_Server0"); passed over as vocabulary, the note's one situation was lost and the order held wherever the host
    was shown."""
    found = _WORD_DEFINED.match(sentence or "")
    meant = re.split(r"[;.:!?]", (sentence or "")[found.end():], maxsplit=1)[0] if found is not None else ""
    return found is not None and not hosts_in(found["word"]) and not classes_in(found["word"]) and not verbs_in(found["word"]) \
        and found["word"].lower() not in {"it", "this", "that", "he", "she", "they", "which", "who", "what"} \
        and not hosts_in(meant) and not classes_in(meant)

