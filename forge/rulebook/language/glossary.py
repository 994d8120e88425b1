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

from forge.rulebook.language.names import HOST_NAME, classes_in, hosts_in, state_words_in, verbs_in

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


# (r59h) A name the note gives, in a sentence of its own, to hosts it lists: "I'll refer to User1 and User3 as the pair",
# "call Op_Host0, Op_Host1 and Op_Host2 the farm" (a heading before it, "My shorthand:", goes with it, and so does an aside
# in brackets after the name, "(User2 stays out of it)"); or in a relative clause, "Enterprise1 and Enterprise2, which we
# name the pair, ...". The rule is then said in that name ("should a machine in the pair get probed, decoy it"), and read
# as it stands it spoke of a machine in general: a trigger on any host passed as faithful, and fired where only a host
# outside the listed ones showed the state. The rewrite puts the hosts in the place of the name, as the glossary above
# does. The name must be "the <word>" or quoted, so a judgement ("I would call User2 clean") names nothing.
_HOST_LIST = rf"{HOST_NAME}(?:\s*(?:,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*){HOST_NAME})*"
_NAME_GIVEN = r"[*_'\"\u2018\u201c]*(?P<term>the\s+[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?|(?<=['\"\u2018\u201c])[a-z][\w -]{0,20}?)[*_'\"\u2019\u201d]*"
_GROUP_SENTENCE = re.compile(rf"(?:^|(?<=[.!?])\s+)(?:[^.!?:]{{0,50}}:\s*)?(?:(?:I|we)(?:'ll|\s+will|\s+shall)?\s+)?"
                             rf"(?:call|refer\s+to|name)\s+(?P<hosts>{_HOST_LIST})\s+(?:as\s+)?{_NAME_GIVEN}"
                             r"\s*(?:\([^()]{0,80}\))?\s*(?:[.!?](?:\s+|$)|$)", re.IGNORECASE)
_GROUP_CLAUSE = re.compile(rf"(?P<hosts>{_HOST_LIST})\s*,\s*(?:which|whom)\s+(?:I|we)\s+(?:call|name|refer\s+to\s+as)\s+"
                           rf"{_NAME_GIVEN}\s*,", re.IGNORECASE)
# A host of the named ones: "a machine in the pair", "any member of the farm", "one of the pair"
_ONE_OF = r"\b(?:(?:a|an|any|each|every|one)\s+(?:(?:box|host|machine|server|member|node|workstation)\s+)?(?:of|in|from)\s+)"


# (r59a) Each of the named ones, all at once: "every box in the core", "all of the pair", "both of the pair", "the whole
# core", or the name with "both" / "all" after it ("the pair are both scanned"). Written as "one of <hosts, or-joined>"
# like a host of them, "when every box in the core is rooted" read as "when one of ... is rooted": a trigger that fired
# on the first rooted host passed for a condition that waits on them all. Written and-joined, the checks hold a trigger
# to all of them.
_ALL_OF = r"\b(?:(?:every|each|all|both)\s+(?:(?:box|host|machine|server|member|node|workstation|one)(?:e?s)?\s+)?(?:of|in|from)\s+|(?:all|both)\s+|the\s+(?:whole|entire)\s+)"
_ALL_AFTER = r"(?=\s+(?:(?:are|were|have\s+been|get|got)\s+)?(?:both|all)\b)"
# (r59a) A listed host the note takes back out of its name: "the core minus Op_Host2", "the pair but not User3",
# "Op_Host2 is not part of the core any more", "Op_Host2 has left the core". Written as the name's full list, the rule
# spoke of the host the text takes out (a trigger on Op_Host2 passed for "restore a box of the core"); it is left out.
_TAKEN_OUT_AFTER = r"\s*,?\s+(?:minus|without|except(?:\s+for)?|but\s+not|less|other\s+than|save|bar|not\s+counting)\s+(?P<out>{hosts})"
_TAKEN_OUT_BEFORE = (r"(?P<out>{hosts})\s+(?:(?:is|was|are|'s)\s+(?:not|no\s+longer)\s+(?:\w+\s+){{0,2}}?(?:(?:in|of|part\s+of|one\s+of|a\s+member\s+of)\s+)?"
                     r"|(?:has\s+|have\s+)?(?:left|dropped\s+out\s+of|moved\s+out\s+of)\s+)")


_HOST_NOUN = re.compile(r"\b(?:users?|servers?|workstations?|hosts?|boxe?s?|machines?|nodes?|subnets?)\b", re.IGNORECASE)


def _taken_out(hosts: tuple[str, ...], use: str, rest: str) -> tuple[tuple[str, ...], str]:
    """(r59a) The listed `hosts` less those `rest` takes out of the name (`_TAKEN_OUT_AFTER`, `_TAKEN_OUT_BEFORE`), and
    `rest` without the words that take them out right after the name ("minus Op_Host2")."""
    after = re.compile(rf"(?<![\w-])(?P<use>{use}){_TAKEN_OUT_AFTER.format(hosts=_HOST_LIST)}", re.IGNORECASE)
    before = re.compile(_TAKEN_OUT_BEFORE.format(hosts=_HOST_LIST) + use, re.IGNORECASE)
    out = {h for pattern in (after, before) for m in pattern.finditer(rest) for h in hosts_in(m["out"])}
    return tuple(h for h in hosts if h not in out), after.sub(lambda m: m["use"], rest)


def _hosts_said(hosts: tuple[str, ...], joined: str) -> str:
    """The hosts as a list, "Enterprise0, Enterprise1 or Enterprise2"."""
    return hosts[0] if len(hosts) == 1 else f"{', '.join(hosts[:-1])} {joined} {hosts[-1]}"


def group_named_said(text: str) -> str:
    """(r59h) `text` with a name it gives to hosts it lists (`_GROUP_SENTENCE`, `_GROUP_CLAUSE`) written out: the defining
    sentence (or clause) left out, each later "a machine in <name>" as "one of <hosts, or-joined>", each other use of the
    name as the hosts; `text` itself where it gives no such name, or never uses it again."""
    for pattern in (_GROUP_SENTENCE, _GROUP_CLAUSE):
        found = pattern.search(text or "")
        if found is None:
            continue
        hosts, term = hosts_in(found["hosts"]), found["term"].strip()
        bare = re.escape(term[4:] if term.lower().startswith("the ") else term)
        rest = text[found.end():]
        use = rf"[*_'\"\u2018\u201c]*(?:the\s+)?{bare}[*_'\"\u2019\u201d]*\b"
        if not hosts or not re.search(rf"\b{bare}\b", rest, re.IGNORECASE) or classes_in(term) or state_words_in(term) \
                or _HOST_NOUN.search(term):
            continue  # (r59a: a class, state or host word as the name, "the user boxes", "the users", is that word too:
            # "decoy the other users" was written as the listed hosts it sets apart)
        hosts, rest = _taken_out(hosts, use, rest)
        if not hosts:
            continue
        every = f"both {hosts[0]} and {hosts[1]}" if len(hosts) == 2 else f"all of {_hosts_said(hosts, 'and')}"
        rest = re.sub(_ALL_OF + use, every, rest, flags=re.IGNORECASE)
        rest = re.sub(rf"(?<![\w-]){use}{_ALL_AFTER}", _hosts_said(hosts, "and"), rest, flags=re.IGNORECASE)
        rest = re.sub(_ONE_OF + use, lambda m: "one of " + _hosts_said(hosts, "or") if len(hosts) > 1 else hosts[0], rest,
                      flags=re.IGNORECASE)
        rest = re.sub(rf"(?<![\w-]){use}", _hosts_said(hosts, "or"), rest, flags=re.IGNORECASE)
        said = text[:found.start()] + (found["hosts"] + " " if pattern is _GROUP_CLAUSE else " ") + rest
        return " ".join(said.split())
    return text
