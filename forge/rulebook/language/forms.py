"""The forms a note is written in (labelled lines, a one-row table, questions, checklists, footnotes, quoted rows) said in the plain words the reader reads (`written_out`, ...). Pure.

Each rewrite only restates: contractions written out, a form's lines said as one sentence, a yes/no question
and its answer said as the condition it answers, a footnote said after what it marks, a window of steps after a
move said as its condition, a hedge or an aside dropped. read_wording applies them before it reads.
"""

from __future__ import annotations

import re
from typing import Optional

from forge.env.catalog import HOST_CLASSES
from forge.rulebook.language.forbidding import ADDRESSED_VERB, EXCEPT_WORDS, LEFT_ALONE_CASE, VERB_WORD
from forge.rulebook.language.markers import ABSENT_WHAT, COUNTED_STATE, IMPERATIVE_START
from forge.rulebook.language.names import (HOST_IDENTIFIED, HOST_NAME, HOST_SHORT, classes_in, hosts_in, same_verb, state_words_in, verbs_in,
                                          named_in_full, without_host_names)
from forge.rulebook.language.spelling import misspellings_mended


# (r57l) "No-brainer" ("no brainer", "a total no-brainer") answers that the move asked is the obvious one: it affirms. Its
# "no" before the hyphen, read as a "no" standing alone (the hyphen taken for a dash), turned the order round into a ban
# of the move it urges. Every reader of a "no" answer holds it off with this; `_ANSWER_AFFIRMS` reads it as a yes.
# (r57d) Only a no-brainer said, not asked, with no denial in its sentence (`_BRAINER_AFFIRMS`): "A: No-brainer? No.", "A:
# No-brainer for a junior, but no, never", "No-brainer, right? Wrong" turn the move down, and held off there, the "no"
# answer was lost and the Remove it refuses passed as the order.
_BRAINER_AFFIRMS = (r"[\s\u2010\u2011-]*brainers?\b(?![^.!?\n]*(?:\?|\b(?:not|no|nope|never|hardly|but|except|unless|wrong)\b|"
                    r"n['\u2019]t\b))")
NO_BRAINER = r"(?!" + _BRAINER_AFFIRMS + ")"
# (r58l) A lead that only stresses the answer after it, "No discussion, no.", "No debate about it: nope": a "no" with a noun
# of talk after it is no answer in itself ("No doubt", "No question" urge the move when they stand alone), and the denial
# standing alone after it is the answer. Held off by the lead's noun, the "no" was lost and the move it turns down passed
# as the order. (A lead alone, or before anything but a denial standing alone, is read as before.)
_ANSWER_LEAD = (r"(?:no\s+(?:discussion|debate|argument|arguing|question|doubt|contest|discussing\s+it|ifs,?\s+ands,?\s+or\s+buts)"
               r"(?:\s+(?:about|on)\s+(?:it|that|this))?\s*[,:;\u2013\u2014-]+\s*)?")


# Prepositions of absence, written as the one the reader knows ("without"): "do not restore Op_Host1 absent any
# exploitation", "in the absence of a compromise", "barring an exploit", "short of privileged access", "failing /
# lacking / pending a confirmed compromise". Only before what a host shows: "barring User0" is an exception.
_ABSENCE = re.compile(r"\b(?:in\s+the\s+(?:absence|lack)\s+of|absent|barring|short\s+of|failing|lacking|pending)\b"
                      + ABSENT_WHAT, re.IGNORECASE)


# Contractions in conditions, written out ("isn't clean" -> "is not clean", "the attacker's on it" -> "the attacker is on
# it", "it's been breached" -> "it has been breached"); the forms of "do" stay, as the prohibitions are read in them.
_NOT_CONTRACTED = re.compile(r"\b(is|are|was|were|has|have|had)n['\u2019]t\b", re.IGNORECASE)


_IS_CONTRACTED = re.compile(r"\b(it|that|there|he|she|who|what|attacker|red|intruder|adversary|host|server|box|machine|"
                            r"(?:user|enterprise)\d|op_(?:host|server)\d|defender)['\u2019]s\s+(?=(?P<has>been|got|gotten)?)",
                            re.IGNORECASE)


# (r60h) The attacker said "they", with a verb of holding and the host it holds: "once they hold Enterprise0", "they already
# control U3". Said "the attacker holds", as situation.py's prose compromise reads it; read as it stood, the hold was no
# state, and the rule stood on its host shown in any state (clean, or merely scanned). Only before a host's name: "as long
# as they hold", of hosts that resist, is no hold of the attacker's, nor "they have User1 restored", a move had made.
_THEY_HOLD = re.compile(r"\bthey\s+(?:(?:still|already|now)\s+)?(?:hold|held|own|owned|control|controlled)\s+(?=(?:" + HOST_NAME
                        + r"|" + HOST_SHORT + r")\b)", re.IGNORECASE)


_PARTICIPLE_FULL = {"rmvd": "removed", "rstrd": "restored", "rstred": "restored", "anlsd": "analysed", "anlzd": "analysed",
                    "analsd": "analysed", "analzd": "analysed"}


_PARTICIPLE_SHORT = re.compile(r"\b(?:" + "|".join(_PARTICIPLE_FULL) + r")\b", re.IGNORECASE)


# "OpS0 hit = impact": "=" between words, after a host's state and before words that name no host, says what the state
# means, as "means" does. ("quiet spell = every box idle, nothing owned" names no host before it: what follows
# is the definition, the condition itself, and stays.)
_EQUALS_GLOSS = re.compile(r"(?P<said>[^.;:,=>]*[A-Za-z0-9])\s+=\s+(?P<gloss>[A-Za-z](?:(?!->)[^.;:,=])*)")


def _glosses_host_state(found: re.Match) -> bool:
    return bool(hosts_in(found["said"])) and not hosts_in(found["gloss"])


# (r46h) "=" before a value of the table's, after a host or its row ("U4 row = Unknown", "E1 activity = Exploit"): what
# the row reads, no gloss of it (read as "means", the value was what the state meant, and the host was claimed bare).
# (r46b: and a value denied, "U4 row = not Unknown": the row reads anything but it; read as "means", the denial was dropped)
_TABLE_VALUE_ALONE = re.compile(r"^\s*(?:not\s+)?(?:none|scan|exploit|no|unknown|user|privileged|root)\s*$", re.IGNORECASE)


# (r53h) A gloss that is an order: a move, or a move denied, "U4 at Unknown = no Remove on that box", "OpS0 + any compromise =
# Restore it". The "=" is the note's arrow between a case and its order, as "->" is: said so. Read as "means", the case
# was no condition of its own, and the claims of the whole note kept its host alone (any state).
_ORDER_GLOSS = re.compile(rf"^(?:(?:no|never|not|don'?t|do\s+not)\s+)?(?:(?:an?|the)\s+)?(?:{ADDRESSED_VERB}\s+)?(?:(?:an?|the)\s+)?{VERB_WORD}",
                          re.IGNORECASE)


def _equals_said(found: re.Match) -> str:
    """An "=" between words, in words: a table's value after a host is what its row reads, an order after a host's state
    that state's order (`_ORDER_GLOSS`), any other gloss of a host's state what it means (`_EQUALS_GLOSS`)."""
    if not _glosses_host_state(found):
        return found[0]
    if _ORDER_GLOSS.match(found["gloss"]):
        return f"{found['said']} -> {found['gloss']}"
    return f"{found['said']} {'reads' if _TABLE_VALUE_ALONE.match(found['gloss']) else 'means'} {found['gloss']}"


_INVERTED_ORDER = re.compile(r"(?P<lead>\b(?:only|just)\s+(?:when|if|once|while|after)\s+[^,;.:]+?)\s+(?:should|must|do|may|can|will)\s+"
                             r"(?:you|we)\s+(?=(?:" + ADDRESSED_VERB + r"\s+)?(?:(?:a|an|the)\s+)?" + VERB_WORD + r")",
                             re.IGNORECASE)


# (r35h) A condition written as code, "when E1.activity == Exploit:", "U4.compromised = User": the host's column
# compared with a value, said as the table says it ("E1 shows Activity Exploit"). Read as words, the dot ended the
# sentence and the condition kept the host alone (any state).
# (r60h) So is a named host's column said unequal to a value, "Op_Server0.compromised != No" ("=/=", "\u2260", "<>", "is
# not"): that value denied of its row, "Op_Server0 is not showing Compromised No". Left as written, the dot still ended the
# sentence, the condition was the host alone, and a rule kept semantic spoke wherever the host was shown, clean too.
# (Only of a named host: a variable's value denied, "box.compromised != No", is left unread, `_CODE_VARIABLE_COMPARISON`.)
_CODE_COMPARISON = re.compile(r"\b(?P<host>[A-Za-z][\w-]*\d)\.(?P<column>compromised|compromise|activity)\s*"
                              r"(?P<operator>==|!=|=/=|\u2260|<>|=(?!=)|\bis\s+not\b|\bis\b)\s*[\"']?(?P<value>[A-Za-z]+)[\"']?",
                              re.IGNORECASE)


_UNEQUAL = re.compile(r"!=|=/=|\u2260|<>|is\s+not", re.IGNORECASE)  # (r60h) the operators of a value denied


# (r60h) A negation opened before a comparison and not yet closed, "if !(E1.activity != None ...", "not (U2.compromised <>
# No)": the comparison's denial is itself denied, which no reading of the words places.
# (r60a) So is one said right before it with no bracket, "if not Op_Host1.compromised != No" (in Python, "not (a != b)"):
# read as the inner denial alone, the condition held on the compromised row, the one the code asks it not to.
_DENIAL_OPEN = re.compile(r"(?:!|\bnot)\s*(?:\((?P<inside>[^()]*))?$", re.IGNORECASE)


def _code_comparison_said(match: re.Match) -> str:
    column = "Activity" if match["column"].lower() == "activity" else "Compromised"
    denied = bool(_UNEQUAL.fullmatch(match["operator"]))
    if denied and _DENIAL_OPEN.search(match.string[:match.start()]):
        return match[0]  # (left as written: unread, the rule is never judged on half of it)
    return f"{match['host']} {'is not showing' if denied else 'shows'} {column} {match['value'].capitalize()}"


# (r60h) A host's state asked as a call in code, "on_scan(Enterprise1) => ...", "if is_compromised(User2):", "!is_rooted(U1)":
# the event or test a handler is named for, said of the host it is given ("Enterprise1 is scanned"; after "!" or "not",
# "is not"). Read as words, the call was the host alone: the rule held wherever the host was shown, under exploit too.
# Only a name that asks a state (a prefix "on_", "is_", "if_", "when_", "was_", or the participle itself) and one host:
# a move written as a call, "Restore(User1)", "plan(DecoyTomcat, E1)", is the order's and stays as it is.
_CODE_STATE_CALL = re.compile(r"(?P<denied>!\s*|\bnot\s+)?\b(?:(?:on|is|if|when|was|got)_(?P<event>scan|exploit|compromise|"
                              r"root|own|breach|probe|clean|quiet)(?:ned|ed|d)?|(?P<participle>scanned|exploited|compromised|"
                              r"rooted|owned|breached|probed))\s*\(\s*(?P<host>" + HOST_NAME + r"|" + HOST_SHORT + r")\s*\)"
                              # (a truth value it is compared with, "is_owned(U2) == false": "== false" and "!= true" deny it)
                              r"(?:\s*(?P<operator>==|!=|=(?!=)|\bis\s+not\b|\bis\b)\s*(?P<truth>true|false|yes|no|0|1)\b)?",
                              re.IGNORECASE)


_CALLED_STATE = {"scan": "scanned", "exploit": "exploited", "compromise": "compromised", "root": "rooted", "own": "owned",
                 "breach": "breached", "probe": "probed", "clean": "clean", "quiet": "quiet"}


# (r60a) A comparison after the call that `_CODE_STATE_CALL` does not read, "=== false", "!== true", "returns false", "equals
# false", "is None", "== null": what the call is held to is unread, and the call said alone ("User2 is owned") was the state
# the comparison may deny (its very opposite, "if is_owned(User2) returns false").
_CALL_COMPARED = re.compile(r"\s*(?:===?|!==?|<>|=(?![=>])|returns?\b|evaluates?\b|equals?\b|gives?\b|yields?\b|comes\s+back\b|"
                            r"is\b|was\b|isn['\u2019]t\b)", re.IGNORECASE)  # (not an arrow, "on_scan(E1) => ...")


def _code_state_call_said(match: re.Match) -> str:
    if not match["truth"] and _CALL_COMPARED.match(match.string, match.end()):
        return match[0]  # (left as written: `_CALL_COMPARED`)
    state = match["participle"] or _CALLED_STATE[match["event"].lower()]
    false = bool(match["truth"]) and (match["truth"].lower() in ("false", "no", "0")) != bool(_UNEQUAL.fullmatch(match["operator"]))
    return f"{match['host']} is {'not ' if bool(match['denied']) != false else ''}{state.lower()}"


# (r50m) The same comparison on the host a snippet is written for, a variable rather than a name: "if box.activity ==
# "Exploit" and box.compromised == "User":", "usr_box.compromised == User" (a class's prefix before the noun). Said as the
# host at hand shows it ("the host shows Activity Scan", "the usr host shows ..."); read as words, the dot after the
# variable ended the sentence, the condition kept "if host" alone, and its state words were left in the order's clause
# (a quiet value there, "== No", was a negation no reading placed).
_CODE_VARIABLE_COMPARISON = re.compile(r"\b(?P<prefix>(?:usr|user|ent|enterprise|op|ops)_)?(?P<noun>host|box|machine|node|srv|server)"
                                       r"\.(?P<column>compromised|compromise|activity)\s*(?:==|=(?!=)|\bis\b(?!\s+not\b))\s*"
                                       r"[\"']?(?P<value>[A-Za-z]+)[\"']?", re.IGNORECASE)


# (r50m) Two comparisons on the same variable joined by "and", said as one row ("the host shows a Compromised level and
# an Activity"): said twice, each was read of any host, and the two states were never the same host's.
_SAME_SUBJECT_TWICE = re.compile(r"\b(?P<subject>the\s+(?:\w+\s+)?host)\s+shows\s+(?P<first>(?:Activity|Compromised)\s+\w+)"
                                 r"\s+and\s+(?P=subject)\s+shows\s+(?P<second>(?:Activity|Compromised)\s+\w+)")


# (r50m) A function's header in a snippet, "def triage(node):", "function pick(box) {": its name says what the code is
# for, no condition of it (read as one, "def ...(host)" was a condition no reading could place, and the rule's condition
# never read whole)
_CODE_HEADER = re.compile(r"(?:^|(?<=[\s.;]))(?:def|function|func)\s+\w+\s*\([^()]{0,40}\)\s*(?:->\s*[\w\[\], ]{1,30}?)?\s*[:{]\s*")


def _code_variable_comparison_said(match: re.Match) -> str:
    column = "Activity" if match["column"].lower() == "activity" else "Compromised"
    # (whatever noun the variable uses, "node", "srv", the host it stands for)
    subject = f"the {match['prefix'][:-1]} host" if match["prefix"] else "the host"
    return f"{subject} shows {column} {match['value'].capitalize()}"


# (r50m) A move allowed at one time only, said of that time: "the only time we can Analyse Op_Host2 is once it shows a
# scan", "the sole case where Sleep is okay is if nothing is scanned", "the one case in which we restore User1 is once it
# is at root". It forbids the move at every other time: said as "never <move> unless <condition>", as a
# note that forbids it in so many words says it. Read as it stood, the order was the move's (its "only" a restriction no
# reading placed), and a compiled "never" of the move outside that time was refused as the text's opposite.
# (r51m) One pattern for both readers of it: this rewrite (`_only_time_allowed_said`) and the check that a permission
# was not compiled as an order (checks._permitted_verbs, through `only_time_permitted`). "the only point it comes ..."
# and the step ("the only step ...") are the same time; "is after ..." / "is at ..." say when, not on what condition, and
# are read by the check alone (the move is still permitted then only), never rewritten into "unless".
ONLY_TIME_ALLOWED = re.compile(
    r"\bthe\s+(?:only|one|sole)\s+(?:time|moment|case|situation|occasion|circumstance|point|step)s?\s+(?:(?:that|when|in\s+which|where)\s+)?"
    r"(?:(?:you|we|i|one|they|the\s+(?:planner|chooser|analyst|agent|defender))\s+(?:(?:may|can|could|should|might|get\s+to|"
    r"(?:are|is|am)\s+(?:allowed|permitted)\s+to|ought\s+to)\s+)?(?P<move>[^.;:?!,]+?)|"
    r"(?P<judged>[^.;:?!,]+?)\s+(?:is|are|becomes?)\s+(?:ever\s+)?(?:acceptable|allowed|okay|ok|fine|permitted|justified|"
    r"warranted|an\s+option|on\s+the\s+table)(?:\s+(?:for\s+(?:me|us|you)|here|at\s+all))?)"
    r"\s*,?\s+(?P<be>is|are|comes?)\s+(?P<when>when|whenever|if|while|once|as\s+long\s+as|after|at)\b(?P<none>\s+no\s+(?=[a-z]))?",
    re.IGNORECASE)


# (r50a) What the words after "the only time you ..." say when they are no permission: a move refused ("should not
# Restore", "shouldn't", "don't", "never", "skip", "hold off on") or one owed ("must", "have to", "need to", "are required to"). "The only time you
# should not restore X is when <c>" orders the move at every other time, and "the only time you must restore X is when <c>"
# forbids nothing at other times: said as "never <move> unless <c>", the first was the opposite of its words.
_NOT_A_PERMISSION = re.compile(r"(?:not|never|no\b|\w+n't|cannot|skip|avoid|hold\s+off|refrain|forgo|must|have\s+to|has\s+to|"
                               r"(?:have|has)\s+got\s+to|got\s+to|need(?:s)?\s+to|(?:are|is|am)\s+(?:required|obliged|forced|bound|expected)\s+to)\b",
                               re.IGNORECASE)


def only_time_permitted(match: re.Match) -> Optional[str]:
    """(r51m) The move a match of `ONLY_TIME_ALLOWED` permits at that time only (None: what it names there is refused or
    owed, `_NOT_A_PERMISSION`, or no move at all): "Remove User1", "a Monitor" (a move named as a thing)."""
    move = (match["move"] or match["judged"]).strip()
    if not verbs_in(move) or (match["move"] and _NOT_A_PERMISSION.match(move)):
        return None
    return move


def _only_time_allowed_said(match: re.Match) -> str:
    move = only_time_permitted(match)
    if move is None or re.match(r"(?:a|an|the|any)\b", move, re.IGNORECASE) or match["be"].lower() not in ("is", "are") \
            or match["when"].lower() in ("after", "at"):
        return match[0]  # (no move named, one named as a thing, refused or owed, or said by when: left as written)
    # ("... is when no host shows an exploit": never the move while one does, the denial of "no" said as "any")
    return f"{'N' if match[0][0].isupper() else 'n'}ever {move} " + ("when any " if match["none"] else "unless")


# (r51m) A host described by what the evidence shows of it: "every op box that the alerts show rooted", "a server the
# table lists with Activity Scan", "the boxes the table lists as scanned". The alerts (the table, the row) are where the
# state is read, no state of their own: said as the host's state, "every op box that is rooted", "a server showing
# Activity Scan". Read as it stood, "alerts" was some activity,
# a state the words never ask (a host the alerts list for its compromise alone showed none), or the condition unread.
_SHOWN_BY_EVIDENCE = re.compile(
    r"\b(?P<noun>hosts?|box(?:es)?|machines?|workstations?|desktops?|servers?|nodes?|ones?)\s+(?:that\s+|which\s+)?(?:the\s+)?"
    r"(?:alerts?|alert\s+lines?|table|observation|rows?)\s+(?:shows?|lists?|reports?|flags?|marks?)\s+(?:as\s+|being\s+)?"
    r"(?P<with>with\s+)?(?=(?P<column>(?-i:Activity|Compromised))\b|(?:compromised|owned|rooted|exploited|scanned|pwned|breached)\b|"
    r"at\s+(?:user|root|privileged|admin)\b)", re.IGNORECASE)


def _shown_by_evidence_said(match: re.Match) -> str:
    noun = match["noun"]
    if match["with"] or match["column"]:
        return f"{noun} showing "
    return f"{noun} that {'is' if noun.lower() in ('host', 'box', 'machine', 'workstation', 'desktop', 'server', 'node', 'one') else 'are'} "


# (r51m) A condition run into the order's subject with no comma, as a contract or a standing order writes it: "where
# Op_Host1 reads Compromised User the Planner shall plan a Restore of it", "if Op_Server0 is owned you must Restore it".
# The party that acts and its modal open the order: said with the comma ("where ..., the Planner shall ..."). Read as
# it stood, the order was part of its own condition, and what it forbids a negation of that condition.
_CONDITION_RUN_INTO_PARTY = re.compile(
    r"\b(?P<cond>(?:where|when|whenever|if|once|while|in\s+case)\s+[^,;:.()]{3,120}?)\s+(?P<party>the\s+(?:Defender|Planner|Analyst|"
    r"(?:action\s+)?chooser|agent|defender)|you|we)\s+(?=(?:shall|must|should|will|is\s+to|are\s+to|needs?\s+to|has\s+to|"
    r"have\s+to)\b)", re.IGNORECASE)


# (r51m) What the rule leaves to another provision, as a contract does: ", save as provided in clause 4 for
# Op_Host1", ", except as set out in clause 3 for the user hosts", "(unless otherwise agreed for the op server)". The
# other provision says what those hosts get, and where it does not (withdrawn, never taught) this rule holds for them as
# for any host: no condition of this rule, nor a host it is about. Read as it stood, "provided" opened a condition (the
# provision's "already on file" a history no predicate states) and the host was one the rule had to name.
# (r51a: the provision ends at its clause, a comma that lists no more hosts or a condition of the rule's own: ", except
# as set out in clause 2, when Op_Host0 is rooted" keeps "when Op_Host0 is rooted"; read to the full stop, the rule's own
# condition went with the provision and the rule held on every host, in any state)
_PROVISION_ENDS = r"\b(?:when|whenever|if|while|once|unless|until|where|as\s+long\s+as|as\s+soon\s+as)\b"
_PROVIDED_ELSEWHERE = re.compile(r"\s*[,(]?\s*\b(?:save|except|other\s+than|unless\s+otherwise)\s+as\s+(?:provided|set\s+out|stated|"
                                 r"laid\s+down|specified|agreed)\s+(?:in|by|under|for)\b"
                                 r"(?:(?!" + _PROVISION_ENDS + r")(?:[^.;:(),]|,(?=\s*(?:and\s+|or\s+)?(?:" + HOST_NAME + r"|"
                                 + HOST_SHORT + r"))))" + r"{0,100}\)?(?=\s*(?:[.;:,]|$)|\s+" + _PROVISION_ENDS + r")",
                                 re.IGNORECASE)


def left_to_provision(text: str) -> frozenset[str]:
    """(r53l) The hosts a text names only in what it leaves to another provision (`_PROVIDED_ELSEWHERE`: ", save as
    provided in the exception on file for the op server"): the other provision's hosts, which this rule is not about
    (checks.py refuses a trigger or a target on them)."""
    spans = [m.group(0) for m in _PROVIDED_ELSEWHERE.finditer(text or "")]
    if not spans:
        return frozenset()
    return frozenset(h for span in spans for h in hosts_in(span)) - frozenset(hosts_in(_PROVIDED_ELSEWHERE.sub(" ", text)))

# (r51m) A deliberation, then its verdict: "For: ... Against: ... Verdict: when X is scanned, DecoySSHD on it", "Pros of
# ...: ... Cons: ... On balance: ...", "I go back and forth: ... Final answer: ...". The arguments weigh the
# move; the verdict is the rule, its own condition said there. Read whole, an argument's "while ..." or "if ..." was a
# condition of the rule (its claims never whole, the rule silent), or its move the order. Only a verdict that states its
# own situation and names a move is read alone: one that only says "do it" leans on the arguments, and stays as written.
_DELIBERATED = re.compile(r"\b(?:for\s*:|against\s*:|pros\b|cons\s*:|back\s+and\s+forth|arguing\s+with\s+myself|on\s+the\s+one\s+hand|"
                          r"on\s+the\s+other\s+hand)", re.IGNORECASE)
_VERDICT_LEAD = re.compile(r"(?:^|(?<=[.!?])\s+)(?:so\s*,?\s*)?(?:verdict|decision|final\s+(?:answer|call|word)|bottom\s+line|"
                           r"conclusion|on\s+balance)\b[^:.;]{0,50}?:\s*", re.IGNORECASE)


def _verdict_alone(text: str) -> str:
    """`text` from its verdict on (`_VERDICT_LEAD`), where what goes before deliberates (`_DELIBERATED`) and the verdict
    states a situation and names a move; else as it stands."""
    leads = list(_VERDICT_LEAD.finditer(text))
    if not leads or not _DELIBERATED.search(text[:leads[-1].start()]):
        return text
    verdict = text[leads[-1].end():]
    if not verbs_in(verdict) or not (state_words_in(verdict) or re.search(r"\b(?:Unknown|Privileged|Exploit|Scan|(?:user|root|admin)[\s-]+level)\b", verdict, re.IGNORECASE)):
        return text
    return verdict[:1].upper() + verdict[1:]


# (r51m) The order put late, after what the note is not about: "Not about probes. Not about Op_Host2 either. Here it is:
# an op host at Compromised Unknown gets a Restore first." The denials name topics the note sets aside, then a lead
# ("here it is:", "it's this:", "the rule is:") gives the note itself: read alone, as its own words. Read whole, the
# "not"s were negations of its condition no reading placed, and the lead was its situation. Only where what the denials
# name is none of what the rule speaks of (hosts, classes): a denial of a host the rule covers is an exception, kept.
_NOT_ABOUT_LEAD = re.compile(r"^\s*(?P<denials>(?:(?:(?:this|the)\s+(?:one|note|rule|lesson)\s+is\s+|it(?:'s|\s+is)\s+)?not\s+about\s+"
                             r"[^.;:!?]{1,80}[.;!]\s*){1,4})(?:it(?:'s|\s+is)\s+this|this\s+is\s+it|here\s+it\s+is|here(?:'s|\s+is)\s+(?:the\s+(?:rule|point|thing|note)|"
                             r"what\s+it\s+is)|the\s+(?:rule|point|thing)\s+is)\s*:\s*(?=\S)", re.IGNORECASE)


def _not_about_away(text: str) -> str:
    """`text` without the denials that lead its late order (`_NOT_ABOUT_LEAD`) where they name nothing the rule names."""
    found = _NOT_ABOUT_LEAD.match(text)
    if not found:
        return text
    rest = text[found.end():]
    denied = {*hosts_in(found["denials"]), *classes_in(found["denials"])}
    spoken = {*hosts_in(rest), *classes_in(rest)}
    if not spoken or denied & spoken or any(h in HOST_CLASSES.get(c, ()) for h in denied for c in spoken) \
            or any(h in HOST_CLASSES.get(c, ()) for h in spoken for c in denied):
        return text
    return rest[:1].upper() + rest[1:]


# (r51m) A restriction put late, as a sentence of its own after the order: "Restore Op_Host1 once it is rooted. Not if
# Op_Server0 is also down, though.", "-> Remove U2. not when any op host is hit", "... PS: not while E1 is scanned". It
# denies the order in that case, as ", but not when ..." says it: said so. Read as a sentence of its own, its condition
# was one more case the order needed (the opposite of its words), or the rule's claims never whole.
_NOT_WHEN_LATE = re.compile(r"(?<=[\w)])\s*[.;]\s+(?:(?:ps|p\.s\.)\s*:?\s*)?(?:but\s+)?not\s+(?P<when>when|if|while|whenever|once)\s+(?=\S)",
                            re.IGNORECASE)


# (r53h) The same restriction put after a comma, denied with "never" as well as "not": "reimage it, never while the row
# reads Unknown", "remove U2, and not if an op host is hit". The order holds except in that case, as ", but not when ..."
# says it: said so (a "while" as "when": the claims read a denied "when", and took a denied "while" for the case). Read
# as it stood, the "never" was outside the condition's clause and its condition a case the order needed: a compilation
# that ordered the move there (the opposite of its words) passed.
_NEVER_WHEN_AFTER_COMMA = re.compile(r"(?<=[\w)])\s*,\s*(?:and\s+|but\s+)?(?:not|never)\s+(?P<when>when|if|while|whenever|once)\s+(?=\S)",
                                     re.IGNORECASE)
# (r53d) After an order that is itself denied and says no case of its own, "never Restore User2, not while Op_Server0 is
# being scanned", "don't Remove E1, not when it is only at user level", the "not" only repeats the denial: the case is
# the prohibition's own (when Op_Server0 is scanned), not one it is lifted in. Read as an exception, the faithful
# compilation was refused and its inversion (the prohibition everywhere else) passed. Beside a case of its own ("never
# Remove E1 when it is rooted, not when it is only at user level") the "not" still sets the other case apart.
_DENIED_ORDER_ALONE = re.compile(rf"(?:^|[.;:!?\n]\s*)(?:(?:so|and|but|please|just)\s+)?(?:never|don['\u2019]?t|do\s+not|avoid|"
                                 rf"no\s+(?:(?:an?|the)\s+)?{VERB_WORD})\b[^.;:!?\n]*$", re.IGNORECASE)
_OWN_CASE = re.compile(r"\b(?:when|whenever|if|while|once|unless|until|after|before|as\s+long\s+as)\b", re.IGNORECASE)


def _never_when_after_comma_said(found: re.Match) -> str:
    """The words of a denied case put after a comma (`_NEVER_WHEN_AFTER_COMMA`): an exception to the order, or, after an
    order denied with no case of its own, that denial's case (`_DENIED_ORDER_ALONE`)."""
    when = "when" if found["when"].lower() == "while" else found["when"].lower()
    denied = _DENIED_ORDER_ALONE.search(found.string[:found.start()])
    if denied and not _OWN_CASE.search(denied.group(0)):
        return f", {when} "
    return f", but not {when} "


# (r51m) A state glossed in brackets, its parts between commas: "as long as an op box is probed only (scan, no
# foothold)", "once Op_Host1 is held (exploit, user level)". The bracket restates one state: its parts said with
# "and", so its comma no longer ends the condition (left there, the gloss's "no foothold" stood in the order's clause
# as a negation no reading placed).
_STATE_PART = r"\s*(?:(?:no|not|any|some|only|just|a|an)\s+)?(?:scan|exploit|compromise|foothold|activity|user|root|privileged|unknown|" \
              r"owned|clean|quiet)\w*(?:[\s-]+level)?\s*"
_STATE_GLOSSED = re.compile(rf"\((?P<inner>(?:{_STATE_PART},)+{_STATE_PART})\)", re.IGNORECASE)


# (r51h, r51m) A host an exception leaves out, said in another language or described and then named.
# - Its word for "except" ("außer", "ausgenommen", "sauf", "hormis", "excepto", "salvo", "tranne", "behalve", ...), with
#   the preposition a host may follow ("sauf sur", "außer bei", "excepto en"), and "but never (not) on" before a host
#   ("mais jamais sur User0", "aber nie auf E1", "pero nunca en User3"): said "except" ("except on"). Unread, the host it leaves out
#   was the only host the text named, and the rule was read as one about it: the opposite of its words.
# - A host described, then named in brackets ("other than the backup box (i.e. Op_Host2)", "except the newest one
#   (User4 is the newest)", "außer dem alten (das ist User1)"): said "except <host>". Read as it stood, the bracketed
#   host was the rule's own host or a state's subject, and the exception no one's. Never a host given as an example
#   ("e.g.", "for instance", "such as"): one of several the description covers names no exception.
_FOREIGN_EXCEPT = re.compile(
    r"(?<!\w)(?:(?:au(?:ß|ss)er|ausgenommen|mit\s+ausnahme\s+(?:von|des|der)|sauf|hormis|except[ée]|"
    r"à\s+l['\u2019]exception\s+d(?:e|u|es)|excepto|salvo|a\s+excepci[óo]n\s+de|tranne|eccetto|exceto|behalve|uitgezonderd)"
    rf"(?:\s+(?:sur|pour|auf|bei|für|en|para)(?=\s+(?:the\s+)?(?:{HOST_NAME}|{HOST_SHORT})))?|"
    r"(?P<never>mais\s+(?:jamais|pas)|aber\s+(?:nie(?:mals)?|nicht|keinesfalls)|pero\s+(?:nunca|no|jamás)|ma\s+mai)\s+"
    rf"(?:sur|pour|à|a|auf|bei|für|an|en|sobre|para|su|per)(?=\s+(?:the\s+)?(?:{HOST_NAME}|{HOST_SHORT})))(?!\w)", re.IGNORECASE)
# (r51a) Only a host described: "except when it is only scanned (User1 is the usual one)" excepts a case, its clause
# unread, never the host its bracket names (said "except User1", the case the rule leaves out was gone, and the rule
# held there).
# (r51a) Its word for "except" before its word for "if" or "when" ("sauf si", "sauf quand", "außer wenn", "excepto
# cuando", "salvo que", "tranne se", "behalve als") and "unless" itself ("à moins que", "es sei denn", "a menos que"): a
# case the rule leaves out, "unless". Said "except si ...", the case was no clause the reader knew, and the rule held in it.
_FOREIGN_UNLESS = re.compile(
    r"(?<!\w)(?:(?:sauf|hormis|au(?:ß|ss)er|excepto|salvo|tranne|eccetto|exceto|behalve)\s+(?:si|s['\u2019]|quand|lorsque|wenn|falls|"
    r"sofern|cuando|que|se|quando|als|wanneer)|à\s+moins\s+qu(?:e|['\u2019])|es\s+sei\s+denn,?|a\s+menos\s+que|a\s+meno\s+che)"
    r"(?!\w)\s*", re.IGNORECASE)
_EXCEPTED_IDENTIFIED = re.compile(
    rf"\b(?P<word>{EXCEPT_WORDS})\s+(?!(?:when|whenever|if|while|once|unless|until|during|after|before|where|as|in\s+case)\b)"
    r"(?P<what>[^,;:.()\[\]]{1,60}?)\s*\(\s*"
    r"(?:(?:(?:that|this|which|it)\s+(?:is|being)|that's|it's|i\.\s?e\.?,?|namely|viz\.?|das\s+ist|c['\u2019]est|es|meaning|=)\s+)?"
    rf"(?:the\s+)?(?P<host>{HOST_NAME}|{HOST_SHORT})(?:\s+(?:is|ist|est|es|=)\s+[^()]{{0,40}}|\s*,[^()]{{0,40}})?\s*\)", re.IGNORECASE)
_AN_EXAMPLE = re.compile(r"\b(?:e\.\s?g|for\s+(?:instance|example)|such\s+as|like)\b", re.IGNORECASE)


def exceptions_said(text: str) -> str:
    """`text` with a host an exception leaves out said as "except <host>", where it was said in another language or
    described and then named in brackets (see `_FOREIGN_EXCEPT`, `_EXCEPTED_IDENTIFIED`)."""
    text = _FOREIGN_UNLESS.sub("unless ", text or "")
    text = _FOREIGN_EXCEPT.sub(lambda m: "except on" if m["never"] else "except", text)
    return _EXCEPTED_IDENTIFIED.sub(lambda m: m[0] if hosts_in(m["what"]) or _AN_EXAMPLE.search(m[0])
                                    else f"{m['word']} {m['host']}", text)


# (r51m) A clause in French, German or Spanish that turns a move down, inside a note otherwise read: "pas de Remove",
# "kein Restore", "nada de Analyse", "sin Remove". Said as "no <move>"; read as it stood, the move was one more the note
# ordered. (A host such a clause leaves out: `exceptions_said`.)
_FOREIGN_NO = re.compile(r"\b(?:pas\s+de|jamais\s+de|aucun|kein(?:en|e)?|nie(?:mals)?\s+(?:ein(?:en)?\s+)?|nada\s+de|ning[úu]n|sin|nunca)\s+"
                         r"(?=(?-i:Restore|Remove|Analyse|Monitor|Sleep|Decoy\w*)\b)", re.IGNORECASE)


# (r35h) A vague share of a class restated as a count between commas: "the majority of user boxes, so four or more of
# them, are owned", "the bulk of the servers, i.e. two or more, ...": said as the count ("four or more of user boxes
# are owned"). Read as written, the comma ended the condition before its state, which then claimed nothing.
# (r60h) "No sign of activity at Op_Host0", "there are no signs of anything at User2": nothing at all shows on the host,
# its row quiet, as "Op_Host0 is quiet" says it (Activity None, Compromised No). Read as the Activity column alone, the
# note held on a host the attacker holds, whose row showed no activity that step.
_NO_SIGN_ON = re.compile(r"\b(?:there\s+(?:is|are)\s+)?no\s+signs?\s+of\s+(?:any\s+)?(?:activity|anything|life|trouble|the\s+attacker|red|"
                         r"(?:an?\s+)?attack)\s+(?:on|at|from|in)\s+(?P<host>" + HOST_NAME + r"|" + HOST_SHORT + r")\b"
                         # (not "no sign of activity on User1 beyond the scan": a row not quiet, the scan it sets aside)
                         r"(?!\s*,?\s*(?:other\s+than|besides|beside|except|but|apart\s+from|aside\s+from|beyond|save|bar)\b)"
                         # (r60a: nor "no sign of activity on Op_Host0 since red took it": no activity since a compromise, a
                         # row held, not quiet; said "quiet since ...", the two stood against each other and the note fell
                         # back to the host in any state, scanned or exploited too)
                         r"(?![^.;:!?\n]*\b(?:since|after|following)\b[^.;:!?\n]*\b(?:took|taken|exploit\w*|owned|rooted|compromis\w*|"
                         r"breach\w*|held|got|hacked|pwned|pivoted|entered|infected)\b)",
                         re.IGNORECASE)


# (r60h) A move denied to a subject said by "nothing" or "no host": "nothing in the op subnet receives an Analyse, bar
# Op_Host2", "no enterprise server receives a Remove", "none of the op hosts is given a decoy". The hosts are named, the
# move turned down on every one of them: said as the prohibitions say it, "Every host in the op subnet gets no Analyse
# ...". Read as it stood, the negation was placed on no move, the text ordered the move, and a
# compiled order of it on the subnet's hosts passed as the text (its very opposite). Not a count or a repeat of the move
# ("no host gets a Restore twice", "... a second Remove"): a limit, not a ban.
_CLASS_PLACE = r"(?:user|usr|enterprise|ent|op|ops|operational)"
_NONE_GETS = re.compile(
    r"\b(?P<subject>nothing|no\s+(?:(?P<cls>" + _CLASS_PLACE + r")\s+)?(?P<noun>host|box|machine|server|workstation|node)|"
    r"none\s+of\s+the\s+(?:(?P<cls2>" + _CLASS_PLACE + r")\s+)?(?P<nouns>hosts|box(?:es)|machines|servers|workstations|nodes))"
    r"(?P<place>\s+(?:on|in)\s+the\s+" + _CLASS_PLACE + r"\s+(?:subnet|network|side|zone|segment))?"
    r"\s+(?:gets?|receives?|(?:is|are)\s+given|deserves?|merits?|(?:should|will|may|shall)\s+(?:get|receive|be\s+given))"
    r"\s+(?:a|an|any)\s+(?=" + VERB_WORD + r")(?!\w+\s+(?:twice|again|more|in\s+a\s+row)\b)(?!(?:second|further|another|repeat)\b)",
    re.IGNORECASE)


# (r60a) Where "nothing gets a <move>" is the writer's own ban, and where it is not. It opens its clause, or follows only a
# joining word ("..., so no op host gets a Remove"): after "if", "that", "they claim", it is a condition, or a claim
# reported or denied ("it is false that no op host gets a Restore"); between quote marks it is a rule cited; in a sentence
# asked ("nothing gets a Restore, you say?") it is in doubt. An exception after it is of hosts named ("..., bar
# Op_Host2"): one of a state or a class ("..., except hosts that are rooted") leaves the ban on hosts its words do not
# place (read as said, the state excepted became the ban's condition: a never of the move on the very hosts it lets).
_NONE_GETS_LEAD = re.compile(r"(?:^|[.;:!?\n,(\u2014-])\s*(?:(?:and|but|so|then|also|plus|hence|thus)\s+)?$", re.IGNORECASE)
_NONE_GETS_EXCEPT = re.compile(r"\b(?:" + EXCEPT_WORDS + r"|save|bar|unless|but)\s+(?P<what>[^,.;:!?\n]*)", re.IGNORECASE)
_HOSTS_ONLY = re.compile(r"(?:the\s+)?(?:" + HOST_NAME + r"|" + HOST_SHORT + r")(?:\s*(?:,|and|or|nor|/)\s*(?:" + HOST_NAME
                         + r"|" + HOST_SHORT + r"))*", re.IGNORECASE)


def _none_gets_stated(found: re.Match) -> bool:
    before, after = found.string[:found.start()], found.string[found.end():]
    sentence_end = re.search(r"[.!?\n]", after)
    rest = after[:sentence_end.start()] if sentence_end else after
    quoted = before.count('"') % 2 or before.count("\u201c") > before.count("\u201d") or re.search(r"['\u2018`]\s*$", before)
    excepted = [m["what"].strip() for m in _NONE_GETS_EXCEPT.finditer(rest)
                if not m[0].lower().startswith(("unless", "but ")) or m[0].lower().startswith("but not")]
    return bool(_NONE_GETS_LEAD.search(before)) and not quoted and not (sentence_end and sentence_end[0] == "?") \
        and all(_HOSTS_ONLY.fullmatch(what) for what in excepted)


def _none_gets_said(found: re.Match) -> str:
    """(r60h) `_NONE_GETS` said as a prohibition on every host of its subject: "Every <class> host <place> gets no "."""
    if not _none_gets_stated(found):
        return found[0]  # (left as written: `_none_gets_stated`)
    cls = found["cls"] or found["cls2"]
    noun = found["noun"] or re.sub(r"(?:es|s)$", "", found["nouns"] or "") or "host"
    every = "Every" if found["subject"][0].isupper() else "every"
    return f"{every} {cls + ' ' if cls else ''}{noun}{found['place'] or ''} gets no "


_COUNT_RESTATED = re.compile(r"\b(?:most|(?:the|a)\s+majority|the\s+bulk|(?:a\s+)?(?:good|large)\s+(?:part|number|share))\s+of\s+"
                             r"(?P<whole>(?:the\s+|our\s+)?(?:[\w-]+\s+)?[\w-]+)\s*,\s*(?:meaning|that\s+is|i\.\s?e\.?|in\s+other\s+words|"
                             r"namely|so|or\s+rather)\s+(?P<count>(?:at\s+least\s+|more\s+than\s+)?\w+(?:\s+or\s+more)?)"
                             r"(?:\s+of\s+(?:the\s+\w+|them|those|all))?\s*,", re.IGNORECASE)


# (r43m) One of two or more named hosts said with "and" after a word that picks one of them: "whichever of User1 and
# User2 is compromised", "either of E0 and E1 at user level". Each host by itself, as "User1 or User2" is read; read
# with its "and", the first host was a bare subject and the state was claimed of the last one only.
_LISTED_HOST = r"(?:(?:the\s+)?" + HOST_NAME + r"\b|" + HOST_SHORT + ")"


_ONE_OF_LISTED = re.compile(rf"\b(?P<lead>(?:whichever|either|any|one)\s+of\s+{_LISTED_HOST}(?:\s*,\s*{_LISTED_HOST})*)"
                            rf"\s*,?\s+and\s+(?={_LISTED_HOST})", re.IGNORECASE)


# (r43m) A class, the host it leaves out, then what the class's hosts do: "each op host but Op_Host2 that is at
# root". The relative clause is said of the class; read after the host, it was that host's state, the rule's condition.
# (r47m: and the class said by its subnet after the noun, "each machine in the enterprise subnet but Enterprise1 that is ...")
_EXCEPT_BEFORE_WHICH = re.compile(rf"\b(?P<lead>(?:every|each|any|all(?:\s+the)?)\s+(?:[\w-]+\s+){{0,2}}?(?:hosts?|box(?:es)?|machines?|"
                                  rf"servers?|srvs?|workstations?|nodes?)(?:\s+(?:in|on|of)\s+the\s+(?:user|enterprise|op|operational)"
                                  rf"[\s-]+(?:subnet|network|zone|segment|side|tier))?)\s+(?:but|except(?:\s+for)?|other\s+than|save|bar)\s+"
                                  rf"(?P<hosts>{_LISTED_HOST}(?:\s*(?:,|\band\b|\bor\b)\s*{_LISTED_HOST})*)\s+"
                                  rf"(?P<which>(?:that|which|who)\s+[^,;.:()]+)", re.IGNORECASE)


_QUOTE_MARK = re.compile(r"(?<![\w'\u2019])['\"\u2018\u201c](?P<said>[A-Za-z][\w.-]*(?:\s+[A-Za-z0-9][\w.-]*)?)['\"\u2019\u201d](?![\w'\u2019])")


# (r53h) A move marked with a cross or a tick, as a note marks a choice: "Monitor \u274c, DecoySSHD on it \u2705",
# "Remove \u2714 / Restore \u2718", "plan Analyse Defender, \u274c Restore". A move named alone in its piece of the note
# (its target at most) beside a cross is the move ruled out: said "not <move>". Read as it stood, the cross was a token no
# reader placed, and a compilation that ordered the very move it rules out passed (the opposite of its words). A tick only
# confirms the move beside it, and goes. A cross beside words that already deny or judge ("no Restore on it \u2718", "a
# Restore there is premature \u2718") only stresses them: left as written.
_CROSS_MARK = re.compile("[\u274c\u274e\u2716\u2717\u2718\u26d4\U0001F6AB]\ufe0f?")
_TICK_MARK = re.compile("[\u2705\u2714\u2713\u2611\U0001F44D]\ufe0f?")
# (the pieces of a note: between commas, semicolons, slashes, bars, sentence ends and arrows)
_MARKED_PIECES = re.compile(r"(\s*(?:[,;/|.!?:]|-+>|=>|[\u2192\u2794\u279c\u279d\u279e\u27a1\u21d2\u27f6])\s*)")
_MOVE_ALONE = re.compile(rf"^(?:(?:an?|the)\s+)?{VERB_WORD}(?:\s+(?:it|them|(?:(?:on|to|for|at|of)\s+)?(?:(?:the|that|this|its|each|"
                         rf"every|any)\s+)?(?:[\w-]+\s+){{0,2}}?(?:[A-Za-z_]+\d|Defender|hosts?|box(?:es)?|servers?|machines?|one)))?$",
                         re.IGNORECASE)


def marked_moves_said(text: str) -> str:
    """`text` with a move a cross marks said "not <move>", and the ticks beside moves taken away (see `_CROSS_MARK`)."""
    if not _CROSS_MARK.search(text or "") and not _TICK_MARK.search(text or ""):
        return text
    parts = _MARKED_PIECES.split(text)
    for i in range(0, len(parts), 2):
        piece = parts[i]
        crossed = bool(_CROSS_MARK.search(piece))
        bare = _TICK_MARK.sub("", _CROSS_MARK.sub("", piece))
        if crossed and _MOVE_ALONE.match(bare.strip()):
            parts[i] = f"{piece[:len(piece) - len(piece.lstrip())]}not {bare.strip()}"
        elif not crossed and _TICK_MARK.search(piece):
            # (r54l) a tick beside a host named alone marks that host fine, "User1 \u2705, User2 rooted": said "ok" (taken
            # away, the host joined the next piece's list, "User1, User2 rooted", and was read as rooted too)
            parts[i] = bare.rstrip() + (" ok" if _HOST_ALONE.match(bare.strip()) else "")
    return "".join(parts)


_HOST_ALONE = re.compile(rf"^(?:{HOST_NAME}|{HOST_SHORT})$", re.IGNORECASE)


# (r54l) A host a note marks fine: "User1 ok", "User1: fine", "User1 looks good", "User1 all good", "User1 \u2705". Said in a
# list beside a host in some state ("User1 ok, User2 rooted -> Restore User2"), it is no part of that host's state: a
# predicate that asks it in a state of attack (checks) says the opposite of the mark.
_MARKED_FINE = re.compile(rf"\b(?P<host>{HOST_NAME})\s*(?:[:=]\s*|(?:is|looks?|seems?|stays?)\s+)?(?:(?:all\s+)?(?:ok|okay|fine|good|"
                          r"healthy|green)\b(?!\s+(?:to|for|with)\b)|" + _TICK_MARK.pattern + ")", re.IGNORECASE)


def hosts_marked_fine(text: str) -> set[str]:
    """(r54l) The hosts a text marks fine (`_MARKED_FINE`), each where it opens its piece of the note (not a tick after an
    order's host, "Remove User2 \u2705", which confirms the move)."""
    text = text or ""
    return {h for m in _MARKED_FINE.finditer(text) if not verbs_in(_MARKED_PIECES.split(text[:m.start()])[-1])
            for h in hosts_in(m["host"])}


def _one_of_listed(text: str) -> str:
    """`text` with a pick of one of several named hosts said with "or" (`_ONE_OF_LISTED`)."""
    return _ONE_OF_LISTED.sub(lambda m: re.sub(r"\s*,\s*", " or ", m["lead"]) + " or ", text)


# (r52e) A class that only names a document: "notwithstanding the user-host procedures", "as the enterprise playbook
# has it", "the op-subnet standing orders". The document is not the hosts the rule is about: said without the class
# ("the procedures"). Read as the rule's class, a rule on one server was refused for not keeping to the user hosts, and
# what it forbids was unread where disputes are settled.
_DOCUMENT_OF_CLASS = re.compile(r"\b(?:user|usr|enterprise|ent|op|ops|operational)(?:[\s-]+(?:host|box|server|machine|subnet|side|"
                                r"network|zone)s?)?[\s-]+(?P<document>procedures?|playbooks?|run[\s-]?books?|polic(?:y|ies)|"
                                r"guidelines?|manuals?|handbooks?|SOPs?|standing\s+orders)\b", re.IGNORECASE)


# (r53m) A default that leaves itself open to a later word, "Unless told otherwise, restore the op hosts ...", "..., until
# someone says otherwise": the order stands until another note overrides it (that note, narrower, wins where it speaks:
# resolve.py), and no state of a host is denied. Read as it stood, "unless told" was a negated condition that no
# predicate could state, and the default stayed semantic and went unmatched.
_DEFAULT_UNTIL_TOLD = (r"(?:unless|until)\s+(?:(?:you|we)\s+(?:are|get)\s+|i\s+am\s+)?(?:told|instructed|advised|informed)\s+otherwise|"
                       r"(?:unless|until)\s+(?:someone|somebody|a\s+later\s+note|another\s+note|a\s+newer\s+(?:note|rule))\s+"
                       r"says\s+otherwise")
_DEFAULT_OPEN = re.compile(r"(?:^|(?<=[.;!?:\n]))(?P<space>\s*)(?:" + _DEFAULT_UNTIL_TOLD + r")\s*[,:;\u2013\u2014-]\s*|"
                           r"\s*[,;(]\s*(?:" + _DEFAULT_UNTIL_TOLD + r")\s*\)?(?=\s*(?:[.;!]|$))", re.IGNORECASE)
# (r53m) A likeness to another note's case leading the clause, "Not unlike the User1 case, ...", "Just like the
# User2 rule, ...", "As with alice's Enterprise1 note, ...": that case is the other note's, and the clause after the comma
# says this rule's own situation. Read with it, the other case's host was a host the condition had to show.
_LIKE_ANOTHER_CASE = re.compile(r"(?:^|(?<=[.;!?:\n]))(?P<space>\s*)(?:not\s+unlike|(?:just\s+|much\s+)?like|as\s+with|same\s+as)\s+"
                                r"(?:the\s+|my\s+|our\s+)?(?:[\w-]+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}?(?:case|note|rule|lesson|line|entry)"
                                r"\s*,\s*", re.IGNORECASE)
# (r53m) A class and one of its hosts set apart after a comma, as a heading or a note puts it: "op boxes scanned, not
# Op_Host1 tho: decoy it", "user hosts owned, but not User0". It is the class but that host, as "except User3" says it. Read
# as it stood, the "not" was an absence no predicate states (the rule stayed semantic) and the host a state it shows.
_CLASS_BUT_ONE = re.compile(r"(?P<head>\b(?:user|usr|enterprise|ent|op|ops|operational)[\s-]*(?:hosts?|box(?:es)?|servers?|"
                            r"machines?|workstations?)\b[^.;:!?\n,]*),\s*(?:but\s+)?not\s+(?P<host>" + HOST_NAME + r"|" + HOST_SHORT
                            + r")(?:\s+(?:tho|though))?(?=\s*(?:[:.;!?\n]|$))", re.IGNORECASE)
# (r53c) A later case that picks out one host by name only to withhold the note's move there: "Remove any enterprise
# host that shows a compromise; if that host is Enterprise2, do nothing / leave it alone / never Remove it". That host is
# the note's exception, as "except Enterprise2" says it. Read as a case beside the first, "Enterprise2 is shown" was an
# alternative, and the note ordered its move on Enterprise2 in any state, the one host its words keep it from.
_NAMED_ONE_WITHHELD = re.compile(r"\s*[;,.]?\s*(?:but\s+)?(?:if|when|where|in\s+case)\s+" + HOST_IDENTIFIED
                                 + r"(?P<host>" + HOST_NAME + r"|" + HOST_SHORT + r")\s*,?\s*(?:then\s+)?(?:just\s+)?"
                                 r"(?:do\s+nothing|nothing|leave\s+it(?:\s+alone|\s+be)?|skip\s+it|hands\s+off|sit\s+tight|"
                                 r"(?:do\s+not|don['\u2019]?t|never)\s+[\w-]+\s+it|no\s+[\w-]+)(?:\s+(?:there|at\s+all))?"
                                 r"(?=\s*(?:[.;!\n]|$))", re.IGNORECASE)
# (r53m) A phase of the attack that leads its clause with no comma before the order: "in the escalation phase restore
# the host", "during the recon stage decoy it". Said with the comma, as the readers know it: without it the phase was
# no condition, and the order not seen (a lesson drawn in those words gave none).
_PHASE_UNMARKED = re.compile(r"(?:^|(?<=[.;:!?\n]))(?P<phase>\s*(?:in|during|within)\s+(?:the\s+)?(?:[\w-]+\s+){1,2}?(?:phase|stage))"
                             r"\s+(?=(?:plan|restore|remove|analy[sz]e|monitor|decoy|deploy|put|recommend|choose|pick|re-?image)\b)",
                             re.IGNORECASE)
# (r53m) The instance a note is addressed to, as a chat mentions it: "@s2/i04 (analyst): ...", "@i09: ...". Who is meant
# to read it, no condition of the rule (read as one, its words made the condition unreadable and the rule stayed silent).
# (r53b: never a host, "@Op_Host2: restore it ...", which a chat mentions so to say what the note is about: the rule's host)
_ADDRESSED_TO = re.compile(r"(?:^|(?<=\n))\s*@(?!(?:" + HOST_NAME + r"|" + HOST_SHORT + r")(?![\w/.-]))[\w/.-]{1,30}(?:\s*\((?:planner|analyst|(?:action[\s_-]*)?chooser|defender)\))?"
                           r"\s*[:,]\s*", re.IGNORECASE)
# (r53m) A heading that says the note revises what its writer said of a host: "Change of plan on Op_Host2: ...", "Update
# for User0: ...", "New plan for the op server: ...". What it is about is the scope of the order after the colon, as "On
# Op_Host2: ..." says it; the change itself is no situation of the network (read as one, the whole condition was never
# read, and the revised rule stayed silent while the one it revises spoke).
_REVISION_HEADING = re.compile(r"(?:^|(?<=\n))(?P<space>\s*)(?:(?:a\s+)?change\s+of\s+plans?|(?:an?\s+)?(?:update|correction|"
                               r"amendment|revision)|new\s+plan)\s+(?:on|for|to|about|regarding)\s+(?=[^:;,.\n]{1,40}:)",
                               re.IGNORECASE)
# (r53m) A correction that a host in a state no longer gets a move, as a note patches an earlier one: "User1 rooted no longer
# gets a Remove; restore it". The state is the condition, the move is what it turns down there: said as "when User1 is
# rooted, no Remove". Read as it stood, no condition was read and its "no longer" was a history no predicate states.
_NO_LONGER_GETS = re.compile(r"(?:^|(?<=[.;:!?\n]))(?P<space>\s*)(?P<host>" + HOST_NAME + r"|" + HOST_SHORT + r")\s+"
                             r"(?P<state>exploited|scanned|probed|compromised|owned|rooted|breached|hacked|pwned)\s+no\s+longer\s+"
                             r"(?:gets|calls\s+for|warrants)\s+(?:a|an|any)\s+(?P<move>[\w-]+)\b"
                             # (r53b: not a move said to be no longer enough alone or first, "no longer gets an Analyse only:
                             # Remove it too": the move still stands, with another; read as "no <Move>", a never passed)
                             r"(?!\s+(?:only|alone|first|by\s+itself|on\s+its\s+own|(?:just\s+)?yet|straight\s+away|right\s+away|at\s+once)\b)",
                             re.IGNORECASE)
# (r53m, r53h) Words struck through as a chat or a revision writes a correction, "Remove ~~User2~~ User4", "~~Restore~~
# Remove": the struck words are taken back, the ones after them stand. Read with them, the struck host was one the rule
# had to name (and revision.py reads what a revision struck out of the rule it replaces).
STRUCK_OUT = re.compile(r"~~(?P<struck>[^~\n]{1,80})~~")


def _clauses_said(text: str) -> str:
    """`text` with the forms of its clauses said in the words the reader reads (`written_out`): the instance a note is addressed to, a
    default's "unless told otherwise", a heading that revises a note on a host, a likeness to another note's case leading a clause, a class and
    one of its hosts set apart by "not", a phase leading its order with no comma, a host in a state that no longer gets a move, a class that only names
    a document, the only time a move is allowed, a host described by what the evidence shows, what a rule leaves to
    another provision, a deliberation's verdict, a move turned down in another language, a state glossed in brackets, a
    restriction put late, a condition run into the order's party, a condition in code ("E1.activity == Exploit") and a
    share restated as a count ("the bulk of the servers, i.e. two or more, ...")."""
    text = _DEFAULT_OPEN.sub(lambda m: m["space"] or "", _ADDRESSED_TO.sub("", text))  # (struck words: written_out, before)
    text = _LIKE_ANOTHER_CASE.sub(lambda m: m["space"] or "", _REVISION_HEADING.sub(lambda m: f"{m['space'] or ''}On ", text))
    text = _CLASS_BUT_ONE.sub(lambda m: f"{m['head']} except {m['host']}", text)
    text = _NAMED_ONE_WITHHELD.sub(lambda m: f", except {m['host']}", text)
    text = _PHASE_UNMARKED.sub(lambda m: f"{m['phase']}, ", text)
    text = _NO_LONGER_GETS.sub(lambda m: f"{m['space'] or ''}when {m['host']} is {m['state']}, no {m['move']}" if verbs_in(m["move"])
                               else m[0], text)
    text = ONLY_TIME_ALLOWED.sub(_only_time_allowed_said, _DOCUMENT_OF_CLASS.sub(r"\g<document>", text))
    text = _SHOWN_BY_EVIDENCE.sub(_shown_by_evidence_said, text)
    text = _PROVIDED_ELSEWHERE.sub("", _verdict_alone(_not_about_away(text)))
    text = _FOREIGN_NO.sub("no ", text)
    text = _STATE_GLOSSED.sub(lambda m: "(" + re.sub(r"\s*,\s*", " and ", m["inner"].strip()) + ")", text)
    text = _NOT_WHEN_LATE.sub(lambda m: f", but not {m['when'].lower()} ", text)
    text = _NEVER_WHEN_AFTER_COMMA.sub(_never_when_after_comma_said, text)
    text = _CONDITION_RUN_INTO_PARTY.sub(lambda m: f"{m['cond']}, {m['party']} ", text)
    text = _CODE_VARIABLE_COMPARISON.sub(_code_variable_comparison_said, _CODE_COMPARISON.sub(_code_comparison_said, text))
    text = _CODE_STATE_CALL.sub(_code_state_call_said, text)
    text = _CODE_HEADER.sub("", _SAME_SUBJECT_TWICE.sub(lambda m: f"{m['subject']} shows {m['first']} and {m['second']}", text))
    text = _COUNT_RESTATED.sub(lambda m: f"{m['count']} of {m['whole']}", text)
    return _NO_SIGN_ON.sub(lambda m: f"{m['host']} is quiet", _NONE_GETS.sub(_none_gets_said, text))


def _note_shorthand_said(text: str) -> str:
    """`text` with a hurried note's shorthand said in words (`written_out`): "w/o", "w/", "b4", "evry", a level written
    "@", words struck through, moves marked with a cross or a tick, one of a list of hosts."""
    # the shorthand of notes: "w/o any activity" is "without any activity", "w/ a scan" is "with a scan"
    text = re.sub(r"\b(w)/(?:o|out)\b", r"\1ithout", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(w)/(?=\s)", r"\1ith", text, flags=re.IGNORECASE)
    # "Analyse it b4 any Restore": the note's shorthand of "before" (read as a word, the move it puts off was no contrast)
    text = re.sub(r"\bb4\b", "before", text, flags=re.IGNORECASE)
    # (r43m) the quantifier misspelt in haste, "evry ent srv": too short a word for spelling.py's mending (its "exept" is
    # mended there)
    text = re.sub(r"\b(e)(?:vry|verey|vey)\b", r"\1very", text, flags=re.IGNORECASE)
    # (r53c) "U3 @ User -> ...", "E2@Privileged:": a host at a level as the whole situation, as a note writes it
    # (situation.py reads "@ User" in a condition, but after a heading, "User3: U3 @ User -> Restore it", the "@" was no
    # condition word and the level was lost). Only where the level ends the situation: "E2 @ user lvl, exploit running ->"
    # goes on, and read as "at" its first part alone was a condition narrower than the note's (a withdrawn note of it
    # no longer matched the same note reworded)
    # (r55m: and where a dash closes it before the order's move, "no Restore for Ent0 while it's @ user lvl - analyse
    # first": the move after the dash is the order, no more of the situation)
    text = re.sub(r"(?<=\w)\s*@\s*(?=(?:user|priv(?:ileged|s)?|unknown|root|admin)(?:\s+(?:level|lvl))?\s*(?:->|=>|[\u2192\u279c:;.]|$|"
                  r"\s[-\u2013\u2014]\s+" + VERB_WORD + "))", " at ", text, flags=re.IGNORECASE)
    # (r53h) words struck through, "Analyse ~~E1~~ E2", are taken back by their writer: no part of the rule
    return _one_of_listed(marked_moves_said(_answered_no_said(STRUCK_OUT.sub(" ", text))))


# (r54l) A move asked after and answered "no" in the note itself: "User2 rooted = Restore? No, Remove.", "-> a Restore?
# nope: Analyse it". The move asked is turned down ("not Restore, Remove."); read as it stood, the question's move was the
# order, the move its writer answered "no" to.
# (r54d) The answer is the "no" standing alone, closed by a stop or the end: "Restore? No doubt, ...", "No question",
# "No matter what", "Not that often" open a phrase that urges the move or only limits it; read as the answer, they turned
# the order round into a prohibition. An arrow after the "no" ("Remove? No -> Restore User2") closes it whole (its "-" taken
# alone left a stray ">", and the order of the move answered "no" passed the checks).
_ANSWERED_NO = re.compile(r"(?P<lead>(?:^|[=:,;.!>\u2192\u2794\u279c\u279d\u279e\u27a1\u21d2\u27f6])\s*)(?P<move>[^=:,;.!?>\u2192\n]{1,60}?)\s*\?\s*"
                          + _ANSWER_LEAD + r"(?:no|nope|nah|not\s+that)\b" + NO_BRAINER + r"(?=\s*(?:[,.;:!\u2013\u2014\u2192-]|=>|$))\s*(?:->|=>|[,.;:!\u2013\u2014\u2192-])*\s*", re.IGNORECASE)


def _answered_no_said(text: str) -> str:
    """(r54l) `text` with a move the note asks after alone and answers "no" (`_ANSWERED_NO`) said "not <move>, "."""
    return _ANSWERED_NO.sub(lambda m: f"{m['lead']}not {m['move'].strip()}, " if _MOVE_ALONE.match(m["move"].strip()) else m[0],
                            text)


# (r55m) "until <host> is clean again", "till it gets back to quiet again": a quiet state returned to, ending the order's time
# (r55b: not after a "not" that fronts it, "not until E1 is clean again: Restore User1", "..., but not till ...": the
# order waits for that state, the opposite of while it is not clean; written without its "again", it was read so)
_UNTIL_AGAIN = re.compile(r"(?P<until>(?<!\bnot\s)(?<!\bnever\s)\b(?:until|till|til)\b[^,;:.!?]{0,60}?\b(?:clean|quiet|uncompromised|restored|recovered|healthy|"
                          r"safe|calm|idle)\b)\s+again\b", re.IGNORECASE)


# (r55b) A wait before the state returns, "wait until ... clean again, then Restore User1", "hold off on User1 till ...; then
# ...": the order after it is for when the host is clean, the opposite of while it is not; the "again" is kept (unknown)
_WAIT_BEFORE = re.compile(r"\b(?:wait|hold(?:\s+off)?|hang\s+on|pause|sit\s+tight|stand\s+by)\b[^.;:!?]{0,40}$", re.IGNORECASE)
_THEN_AFTER = re.compile(r"^\s*[,;]?\s*(?:and\s+)?then\b", re.IGNORECASE)


# (r56e) "before" followed by a host's state, "before it is owned", "before User2 gets rooted": the time up to that state,
# as "until" says it (a move after "before", "before you Analyse it", is a sequence, and a move's outcome, "before it is
# restored", history: both left as written)
_BEFORE_STATE = (r"before(?=\s+(?:it|they|[A-Z][\w-]*\d|(?:the|that|this|each|every|any)\s+[\w-]+(?:\s+[\w-]+)?)\s+"
                 r"(?:is|are|gets?|got|has\s+been|have\s+been|becomes?|shows?|turns?|goes|falls?)\s+(?:(?:fully|actually|really)\s+)?"
                 r"(?:owned|rooted|compromised|exploited|scanned|probed|breached|hit|root|privileged|pwned)\b)")


_NOT_UNTIL = re.compile(r"(?:^|(?<=[.;:!?(]\s)|(?<=,\s)|(?<=\bbut\s)|(?<=\band\s)|(?<=\n))\s*not\s+(?:until|till|til|"
                        + _BEFORE_STATE + r")\b"
                        r"(?![^.;:,!?]*\bagain\b)", re.IGNORECASE)  # (a state returned to "again" is history: left unknown)


# (r56e) A ban up to a state, "never Remove User2 before it is owned", "don't Restore it before Enterprise0 gets rooted": the
# ban lifts at that state, as "until" says it (read without it, the ban held in every state, the state its words leave the
# move to among them)
# (r61l) ... or up to the attacker's own move, "never Restore User4 before red exploits it", "don't Remove it before the
# exploit lands": the ban governing the move right before it, no stop or comma between (read as no limit, the ban held once
# the attacker had made the move, the opposite in time; a "not" earlier in a long sentence bans nothing here)
_BAN_BEFORE_ATTACKER = re.compile(r"(?P<ban>\b(?:never|don'?t|do\s+not|mustn'?t|must\s+not|shouldn'?t|should\s+not)\s+(?:ever\s+)?"
                                  r"[\w-]+(?:\s+[\w-]+){0,3}?\s)before(?=\s+(?:red|the\s+(?:attacker|adversary|intruder|red\s+team|"
                                  r"exploit|scan|compromise))\b(?!['\u2019]s\b))", re.IGNORECASE)
_BAN_BEFORE_STATE = re.compile(r"(?P<ban>\b(?:never|not|don'?t|doesn'?t|mustn'?t|shouldn'?t|no)\b[^.;:!?]*?\s)" + _BEFORE_STATE,
                               re.IGNORECASE)


# (r55e) A wait until a state, then the order, "wait until Enterprise1 is clean, then Restore User1", "hold off on User1 till
# User2 is quiet; then Remove User3": the order is for once the state holds, said "once <state>," (read as "until", it held
# while the state did not: the opposite). A state returned to "again" is left as `_UNTIL_AGAIN` leaves it (unknown).
_WAIT_UNTIL_THEN = re.compile(r"(?:^|(?<=[.;:!?(]\s)|(?<=\n))\s*(?:just\s+|please\s+)?(?:wait|hold(?:\s+off)?|hang\s+on|pause|sit\s+tight|"
                              r"stand\s+by)\b(?:\s+(?:on|with)\s+[\w-]+)?\s+(?:until|till|til)\s+(?P<state>[^,;:.!?]{1,60}?)"
                              r"(?<!\bagain)\s*[,;]?\s*(?:and\s+)?then\b\s*,?\s*", re.IGNORECASE)


def _until_again_said(m: re.Match) -> str:
    """(r55b) `_UNTIL_AGAIN` said without its "again", except after a wait or before a "then" (`_WAIT_BEFORE`)."""
    if _WAIT_BEFORE.search(m.string[:m.start()]) or _THEN_AFTER.match(m.string[m.end():]):
        return m.group(0)
    return m["until"]


# (r56m) A condition that a host's row be anything but the quiet one: "if the row reads anything other than None/No", "while User3
# shows anything but quiet". That is the row not quiet, said "unless <it> is <quiet>" (read as it stood, "anything but"
# was passed over and the condition was the quiet row: the opposite). Only a condition that ends there (its subject, the
# quiet row, then the clause's end): one that goes on is left as it stands.
_QUIET_ROW = r"(?:None\s*/\s*No|None\s+and\s+No|Activity\s+None\s*(?:,|and)?\s*Compromised\s+No|clean|quiet)"
_ANYTHING_BUT_QUIET = re.compile(r"\b(?:when|whenever|if|while|once)\s+(?P<subject>(?:its\s+row|it|the\s+row|[\w-]+(?:['\u2019]s\s+row)?))\s+"
                                 r"(?:is|are|reads?|shows?)\s+(?:anything|everything)\s+(?:but|other\s+than|except|save)\s+"
                                 rf"(?P<quiet>{_QUIET_ROW})(?=\s*(?:[.;,:!?)]|$))", re.IGNORECASE)


# (r56m) Words set in stars for emphasis, "our answer is **never** a Sleep", "*only* User2": the words themselves (the stars
# were tokens no reading placed, and the "never" inside them forbade nothing). A footnote's mark is said before this
# (footnotes_said), and a star that opens no pair is left as it stands.
_EMPHASIS = re.compile(r"(?<![\w*])(?P<stars>\*{1,2})(?=[A-Za-z])(?P<words>[^*\n]{1,60}?)(?<=[\w.!?])(?P=stars)(?![\w*])")


# (r56b) After the quiet row, a further condition joined to it: "..., or if Enterprise0 is rooted", "..., and when ...".
# Under an "unless", that condition was read as one more case the order does not hold in: "unless A, or if B" turned
# "B" into "not B", and "unless A, and if B" into "not A or not B", wider than the words.
_JOINED_CONDITION = re.compile(r"\s*,?\s*(?:(?:or|nor)\b|and\s+(?:if|when|whenever|while|once|as\s+long\s+as|provided)\b)",
                               re.IGNORECASE)


def _anything_but_quiet_said(m: re.Match) -> str:
    """(r56m) A row "anything but" quiet (_ANYTHING_BUT_QUIET) said "unless <it> is <quiet>"; (r56b) with a further
    condition joined after it (_JOINED_CONDITION), said of its host "is not clean" / "is not quiet", which keeps the
    "or" / "and" between the two; a row value ("None/No") there is left as it stands."""
    if not _JOINED_CONDITION.match(m.string, m.end()):
        return f"{'U' if m[0][0].isupper() else 'u'}nless {m['subject']} is {m['quiet']}"
    if hosts_in(m["subject"]) and not re.search(r"\brow\b", m["subject"], re.IGNORECASE) \
            and m["quiet"].lower() in ("clean", "quiet"):
        return f"{m[0].split()[0]} {m['subject']} is not {m['quiet']}"
    return m[0]


def written_out(text: str) -> str:
    """`text` in the words the reader knows: the contractions of "be" and "have" written out (see _NOT_CONTRACTED,
    _IS_CONTRACTED, "they're"), the prepositions of absence as "without" (_ABSENCE), "w/o" and "w/" as "without" and
    "with", "&" and "+" between words as "and", and "whilst" as "while"."""
    text = _NOT_CONTRACTED.sub(lambda m: f"{m[1]} not", re.sub(r"\b(w)hilst\b", r"\1hile", text or "", flags=re.IGNORECASE))
    text = _EMPHASIS.sub(lambda m: m["words"], text)
    # (r43h) "remvoe it", "exploted", "Privelaged": the rule language's words misspelt in a hurried note (spelling.py)
    text = misspellings_mended(text)
    # ("pending any scan": not yet, a stage the attack has not reached)
    text = _ABSENCE.sub(lambda m: ("Without" if m[0][0].isupper() else "without") + (" yet" if m[0].lower() == "pending" else ""),
                        text)
    text = _note_shorthand_said(text)
    # (r55m) "until Op_Server0 is clean again": the "again" of a state the host returns to, after "until", says the end of
    # the time the order holds (while it is not clean), no history to look up (read as one, "again", facts.py, the
    # condition was unknown and the rule silent while the host was compromised)
    text = _UNTIL_AGAIN.sub(_until_again_said, text)
    text = _WAIT_UNTIL_THEN.sub(lambda m: f"{'O' if m[0].strip()[0].isupper() else 'o'}nce {m['state']}, ", text)
    # (r55b) "not until <state>" that opens its clause, "Not until Enterprise1 is clean: Restore User1", "..., but not till
    # it is quiet": the order waits for that state, said "only once" (read as "until", it held while the state did not: the
    # opposite). (r56e) A ban "before <state>" is a ban until it: `_BAN_BEFORE_STATE`
    text = _BAN_BEFORE_ATTACKER.sub(lambda m: f"{m['ban']}until", text)
    text = _BAN_BEFORE_STATE.sub(lambda m: f"{m['ban']}until", _NOT_UNTIL.sub(lambda m: "Only once" if m[0][0].isupper() else "only once", text))
    text = _ANYTHING_BUT_QUIET.sub(_anything_but_quiet_said, text)
    # (r43m) a word or two quoted as the table or the alert prints them, "shows 'Exploit'", "pick \"Sleep\"": the words
    # themselves (the quote marks were tokens no reading placed, and the condition was never whole); a longer quotation,
    # what someone said, keeps its marks, and an apostrophe inside a word stays
    text = _QUOTE_MARK.sub(r"\g<said>", text)
    text = _EXCEPT_BEFORE_WHICH.sub(lambda m: f"{m['lead']} {m['which'].rstrip()}, except {m['hosts']}", text)
    # (r45m) "clean at prev step", "owned since prev turn": the note's shorthand of "the previous"
    text = re.sub(r"\b(?:at\s+|since\s+|on\s+|in\s+)?(?:the\s+)?prev\.?(?=\s+(?:step|turn|round|tick|move)\b)",
                  lambda m: (m[0].split()[0] + " the previous" if m[0].split()[0].lower() in ("at", "since", "on", "in") else "the previous"),
                  text, flags=re.IGNORECASE)
    # (r42h) "lateral movt": the note's shorthand of the phase's name (unread, the word left the condition not whole)
    text = re.sub(r"\b(lateral\s+)(?:movt|mvmt|mvt)\b", r"\1movement", text, flags=re.IGNORECASE)
    text = _clauses_said(text)
    # "ent-class host", "a user class box": the class named with the word "class" (r32m; read as no class, any host)
    text = re.sub(r"\b(user|usr|enterprise|ent|entp|op|ops|operational)[\s-]+class[\s-]+(?=(?:hosts?|box(?:es)?|machines?|servers?|"
                  r"srvs?|nodes?|systems?|workstations?)\b)", r"\1 ", text, flags=re.IGNORECASE)
    # "Only when User3 is rooted should you restore it": the order inverted after its condition, said as "only when
    # User3 is rooted, restore it" (r32m; with no comma, the order was read as part of the condition)
    text = _INVERTED_ORDER.sub(lambda m: f"{m['lead']}, ", text)
    # (r51m) "drop DecoySSHD on it", "then drop a decoy there": a decoy put down, as the idiom says it (read as a fall of a
    # value, "when the reward drops", the step was no part of the order)
    text = re.sub(r"\b(d)rop(s|ped|ping)?(?=\s+(?:(?:a|an|one|the)\s+)?decoy)", lambda m: ("P" if m[1] == "D" else "p") + "ut"
                  + {"s": "s", "ped": "", "ping": "ting"}.get(m[2] or "", ""), text, flags=re.IGNORECASE)
    text = _note_abbreviations_said(text)
    # "Enterprise2 scanned & nothing compromised anywhere", "Op_Server0 clean + User1 scanned": two clauses, as with
    # "and" (read as one, the second clause's state was taken for the first host's)
    text = re.sub(r"\s+[&+]\s+", " and ", _code_operators_said(text))
    # "Unknown on a user box != compromised": the symbols of "is not" ("!=", "=/=", "\u2260") said in words
    text = re.sub(r"\s*(?:!=|=/=|\u2260)\s*", " is not ", text)
    text = _EQUALS_GLOSS.sub(_equals_said, text)
    text = re.sub(r"\b(they|we|you)['\u2019]re\b", r"\1 are", text, flags=re.IGNORECASE)
    # (r37m) "an exploit on Op_Host1 is the moment to restore it": the situation named as the time for the order (read
    # as it stood, "to stop ..." was a purpose, and the order after it was cut away with it)
    text = _MOMENT_FOR.sub(lambda m: f"{m['lead']}when {m['situation']}, ", text)
    text = _FOR_HOST_IN_STATE.sub(_when_host_in_state, text)  # (r56n: "For Op_Host2 probed (...), ..." said with "when")
    # (r46b) "..., (but) not (in) the step after you removed it": the step after the move put out of the order, as "unless it
    # is the step after ..." says it (history_words reads that step; read as written, the exclusion was dropped at its comma)
    text = _STEP_AFTER_DENIED.sub(", unless it is ", text)
    # (r46b) a host given its own case only to be left alone, "...; otherwise, if it is User0, leave it be", "... - but for
    # User0, hands off": the exception of the order before it, as "except User0" says it (read as a rung of its own, the
    # order's Remove of User0 was accepted)
    text = LEFT_ALONE_CASE.sub(lambda m: f", except {m['hosts']}", text)
    return _IS_CONTRACTED.sub(lambda m: f"{m[1]} {'has' if m['has'] else 'is'} ", _THEY_HOLD.sub("the attacker holds ", text))


def _note_abbreviations_said(text: str) -> str:
    """`text` with a hurried note's abbreviations of the rule language's words written out: "rec", "recomend", "lvl",
    "usr level", "priv esc", "priv" and the past participles with their vowels dropped ("rmvd", "rstrd")."""
    # "rec Remove", "rec. a Restore": the note's shorthand of "recommend"
    text = re.sub(r"\b(r)ec\.?\s+(?=(?:(?:a|an|the)\s+)?" + VERB_WORD + r")", r"\1ecommend ", text, flags=re.IGNORECASE)
    # (r35m) "recomend Remove", "reccomend a Restore": "recommend" misspelt (read as no order word, the note's arrow
    # before it was no order and its situation's "not" a negation of the move)
    text = re.sub(r"\b(r)ec{1,2}om{1,2}[ae]nd(?=s\b|ed\b|ing\b|\b)", r"\1ecommend", text, flags=re.IGNORECASE)
    # "at user lvl", "root lvl": the note's shorthand of "level" (read as the level it names)
    text = re.sub(r"\b(l)vls?\b", r"\1evel", text, flags=re.IGNORECASE)
    # (r35m) "only usr level", "at usr-level": the note's shorthand of "user" before a level (read as no level at all)
    text = re.sub(r"\b(u)sr(?=[\s-]+level\b)", r"\1ser", text, flags=re.IGNORECASE)
    # (r38m) "priv esc", "privesc", "priv-esc": the note's shorthand of "privilege escalation" (read word by word, the
    # "esc" was left unplaced and the condition unread)
    text = re.sub(r"\b(p)riv[\s-]?esc\b\.?", r"\1rivilege escalation", text, flags=re.IGNORECASE)
    # "U4 priv", "at priv level": the note's shorthand of "privileged" (the level, as "root" is)
    text = re.sub(r"\b(p)riv\b", r"\1rivileged", text, flags=re.IGNORECASE)
    # "U2 rmvd", "rstrd at step 4": the note's shorthand of the past participles of the verbs (vowels dropped)
    text = _PARTICIPLE_SHORT.sub(lambda m: _PARTICIPLE_FULL[m[0].lower()] if m[0][0].islower()
                                 else _PARTICIPLE_FULL[m[0].lower()].capitalize(), text)
    return text


def _code_operators_said(text: str) -> str:
    """(r60m, r60h) The operators of code, "(U3 rooted || U4 rooted) && Op_Host0 clean": "or" and "and" said in words (the
    "||" was read as no word at all, and the alternatives as both). Said before a comparison in code is (`_CODE_COMPARISON`)."""
    # (r60b) and its "not", "!(U1 rooted || U2 rooted)", "!U2_rooted": read as no word once "||" was "or", the negated
    # alternatives passed as the case itself (not "!=", said below, nor a "!" that ends a word: "Restore it now!")
    text = re.sub(r"(?:(?<=^)|(?<=[\s(\[]))!(?=[(\w])", "not ", text)
    return re.sub(r"\s*&&\s*", " and ", re.sub(r"\s*\|\|\s*", " or ", text))


_STEP_AFTER_DENIED = re.compile(r"\s*,\s*(?:but\s+)?(?:not|except)\s+(?:(?:in|on|at|during|for)\s+)?(?=(?:the|that)\s+(?:next\s+)?"
                                r"(?:step|turn)\s+(?:right\s+)?(?:after|following)\s+(?:we|you|u|i)\b)", re.IGNORECASE)


# (r56n) One host and a state it is in, after "for" at the head of a sentence and before the comma (or an aside in brackets
# and the comma) that ends it: "For User3 exploited (rooted or not), restore ...". Only a participle of the
# attack's states and one host: "for User3, exploited boxes ..." or "for User1 and User2 ..." are not it.
_FOR_HOST_IN_STATE = re.compile(rf"(?P<lead>^\s*|[.;:!?]\s+)(?P<for>[Ff]or)\s+(?P<host>{HOST_NAME}|{HOST_SHORT})\s+"
                                r"(?P<state>scanned|exploited|compromised|owned|rooted|probed|breached|infected)"
                                r"(?=\s*(?:\([^()]{1,60}\)\s*)?,)", re.IGNORECASE)


def _when_host_in_state(found: re.Match) -> str:
    """(r56n) "For Op_Host2 probed (a scan at most), deploy ...": one host and its state opening the order's clause, as "when
    Op_Host2 is probed" says it (read as no condition, an aside's "no compromise" was a negation placed nowhere)."""
    return f"{found['lead']}{'W' if found['for'][0] == 'F' else 'w'}hen {found['host']} is {found['state']}"


# A situation named as the time for an order: "any probe of an ops box is the time to ...", "an exploit on Op_Host2 is
# the signal to ..." (a host or state in general, "a/an/any ...", then "is the moment / time / signal / cue to")
_MOMENT_FOR = re.compile(r"(?P<lead>^|[.;:]\s*|,\s*)(?P<situation>(?:a|an|any)\s+[^,;:.]{3,60}?)\s+(?:is|are)\s+(?:the|your|our)\s+"
                         r"(?:right\s+)?(?:moment|time|signal|cue|point)\s+to\s+(?=\w)", re.IGNORECASE)


# "Lesson for every user workstation: ...", "Rule for the op hosts: ...": the label before the scope it heads.
# ("the lesson for the quiet case is: ..." names the lesson, no label: `_LESSON_LEAD`)
# (r48h: not a label for a role, "tip for the planner:": whom the note is for, no scope of hosts; said as "For the planner",
# the note word was lost and the heading was read as the rule's situation)
_SCOPE_LABEL = re.compile(r"\b(?:lesson|rule|note|reminder|tip|check-?list)\s+for(?!\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
                          r"(?:planner|analyst|(?:action[\s_-]?)?chooser)s?\b)(?=\s+[^.;:]{2,60}(?<!\bis)(?<!\bbe):)", re.IGNORECASE)


# (r45h) and the label after the scope it heads, "Op_Server0 checklist:", "user boxes checklist:" (a host or class before it)
_LABEL_AFTER_SCOPE = re.compile(r"^\s*(?P<scope>[^.;:,\n]{2,40}?)\s+check-?list(?=\s*:)", re.IGNORECASE)


# (r45h) A role the heading addresses after its scope, "For Enterprise2, action chooser:": whom the note is for, no part of
# the scope (the rule is taught for the role it addresses)
_ROLE_AFTER_SCOPE = re.compile(r"^(?P<head>\s*for\s+[^.;:,\n]{2,40}?)\s*,\s*(?:for\s+)?(?:the\s+)?(?:planner|analyst|"
                               r"action[\s_-]?chooser|chooser)(?=\s*:)", re.IGNORECASE)


def scope_labels_said(flat: str) -> str:
    """`flat` with a heading's label said as the scope it heads ("Lesson for X:", "X checklist:": "For X:"), without the role
    it addresses after that scope."""
    flat = _SCOPE_LABEL.sub("For", flat)
    scoped = _LABEL_AFTER_SCOPE.match(flat)
    if scoped and (hosts_in(scoped["scope"]) or classes_in(scoped["scope"])):
        flat = f"For {scoped['scope'].strip()}{flat[scoped.end():]}"
    return _ROLE_AFTER_SCOPE.sub(lambda m: m["head"], flat)


# The defender's own move, then an order that holds for a window of steps after it ("After you restore Enterprise2, do not
# restore it again for the next 3 steps", "For the next two steps after you remove User4, do not restore User4"): a
# condition on the defender's history, as "if you restored Enterprise2 within the last 3 steps" says it (read as a lead
# before the order, the move and its window were no condition at all).
_WINDOW_N = r"(?P<n>\d+|one|two|three|four|five)"


_WINDOW_MOVE = (r"(?:right\s+|just\s+)?after\s+(?:you|we|i)\s+(?P<verb>restore|remove|analy[sz]e)\s+"
                rf"(?P<host>{HOST_NAME})")


# (r36m: "within / in / during / over the next N steps" as well as "for the next N steps")
# (r43m: also after a label's colon, "Lesson: after you analyse E0, ...", and counted in turns)
_AFTER_FOR_NEXT = re.compile(rf"(?:^|(?<=[.;!?:]\s)){_WINDOW_MOVE}\s*,\s*(?P<order>[^.;:]+?)\s+(?:for|within|in|during|over)\s+the\s+(?:next|following)\s+"
                             rf"{_WINDOW_N}\s+(?P<unit>steps?|turns?)(?=\s*[.;!]|\s*$)", re.IGNORECASE)


_FOR_NEXT_AFTER = re.compile(rf"(?:^|(?<=[.;!?:]\s))(?:for|within|in|during|over)\s+the\s+(?:next|following)\s+{_WINDOW_N}\s+(?P<unit>steps?|turns?)\s+"
                             rf"{_WINDOW_MOVE}\s*,\s*", re.IGNORECASE)


# (r55m) A time that runs to the episode's end, "from the first probe of X till the end of the game", "for the remainder
# of the match": the episode's end bounds nothing within it, so the words say no more than the time it starts from. Read
# as a bound, its "until" was a restriction no claim could place, and the rule stayed silent where its start held.
_TO_EPISODE_END = re.compile(r"\s*,?\s*\b(?:(?:all\s+the\s+way\s+)?(?:until|till|til|up\s+to|up\s+until|right\s+up\s+to|to|through)\s+"
                             r"the\s+(?:very\s+)?end|for\s+the\s+rest|for\s+the\s+remainder)\s+of\s+the\s+(?:episode|game|run|match)\b"
                             # (not where the time it starts from follows, "for the remainder of the game once E2 is owned":
                             # that start is the condition, read with the words that lead it)
                             # (r55b: nor where a restriction of it follows, "... till the end of the game unless E0 is rooted":
                             # left out, the time's own start was lost with it, and the restriction alone was the condition)
                             r"(?!\s*,?\s*(?:after|once|since|from|following|when|as\s+soon\s+as|unless|except|but|if|while|only|"
                             r"provided|(?:as|so)\s+long\s+as|save|or|and)\b)", re.IGNORECASE)


# (r56l) A time that starts at an event of a host, "from the first probe of User3 on", "from User3's first exploit onwards",
# "from the first hit on E1 till the end of the game": its start is the condition, the host having shown that state (said
# "once User3 has been probed", which the readers place). Read as it stood, a restriction after it ("..., unless Op_Server0 is
# rooted") was the whole condition, and the rule held before the host was ever touched.
_FIRST_EVENT = {"probe": "probed", "scan": "scanned", "exploit": "exploited", "hit": "exploited", "attack": "exploited",
                "compromise": "compromised", "breach": "compromised", "foothold": "compromised", "root": "rooted"}
_FROM_FIRST_EVENT = re.compile(
    rf"\bfrom\s+(?:(?:the\s+)?(?:very\s+)?first\s+(?P<event>{'|'.join(_FIRST_EVENT)})\s+(?:of|on|against|at)\s+(?P<host>{HOST_NAME}|{HOST_SHORT})|"
    rf"(?P<owner>{HOST_NAME}|{HOST_SHORT})(?:'s|\u2019s)\s+(?:very\s+)?first\s+(?P<event2>{'|'.join(_FIRST_EVENT)}))\s+"
    r"(?:on(?:wards?)?|forwards?|(?:until|till|til|to|through)\s+the\s+(?:very\s+)?end\s+of\s+the\s+(?:episode|game|run|match))\b",
    re.IGNORECASE)


# (r56d) A time from a first event that the text denies or sets aside ("not from the first probe of User2 on, but from its
# first exploit on", "rather than from ...", "instead of from ..."): said as that event, the denial turned a time the text
# turns down into the rule's condition ("Not once User2 has been probed, ..." read as "User2 shows a scan").
_TIME_DENIED_BEFORE = re.compile(r"\b(?:not|never|nor|rather\s+than|instead\s+of|in\s+place\s+of|other\s+than|no\s+longer)\s+"
                                 r"(?:(?:just|only|merely|even|already|straight\s+away)\s+)?$", re.IGNORECASE)


def _first_event_said(found: re.Match) -> str:
    if _TIME_DENIED_BEFORE.search(found.string[:found.start()]):
        return found.group(0)
    host, event = found["host"] or found["owner"], (found["event"] or found["event2"]).lower()
    return f"once {host} has been {_FIRST_EVENT[event]}"


def first_event_said(text: str) -> str:
    """`text` with a time that starts at a host's first event said as that event (_FROM_FIRST_EVENT)."""
    return _FROM_FIRST_EVENT.sub(_first_event_said, text)


def window_said(text: str) -> str:
    """`text` with an order for a window of steps after the defender's move said as its condition (_AFTER_FOR_NEXT), and
    a time that runs to the episode's end said without that end (_TO_EPISODE_END)."""
    if _TO_EPISODE_END.search(text):  # (and the comma it leaves at a sentence's start: "Until the end of the game, ...")
        text = re.sub(r"(^|[.;:!?]\s)\s*,\s*", r"\1", _TO_EPISODE_END.sub("", text))
    # (the window in the unit the text counts it in: a rest that names it, "next 4 turns", is still the text's own words)
    text = _AFTER_FOR_NEXT.sub(lambda m: f"If you {m['verb']}d {m['host']} within the last {m['n']} {_unit(m)}, {m['order']}", text)
    return _FOR_NEXT_AFTER.sub(lambda m: f"If you {m['verb']}d {m['host']} within the last {m['n']} {_unit(m)}, ", text)


def _unit(found: re.Match) -> str:
    return "turns" if found["unit"].lower().startswith("turn") else "steps"


# (r39h) A clause that says a named host does what the clause before it says, "if no other user host shows a compromise, and
# User0 does, ...": the condition's own part (its state the verb phrase before it), not the order's. Cut at its comma, the
# condition lost it and was read whole without it.
_ELLIPSIS = re.compile(rf"\b(?P<phrase>(?:shows?|is|are|has|have|reads?)\s+[^,;.:]*?)\s*,\s*(?P<join>and|but)\s+(?P<host>{HOST_NAME})\s+"
                       r"(?:does|do|is|has)(?:\s+(?:too|as\s+well|so))?\s*(?=[,;.:]|$)", re.IGNORECASE)


def ellipsis_filled(text: str) -> str:
    """`text` with each `_ELLIPSIS` clause said in full and joined to the clause before it ("shows a compromise and User0
    shows a compromise"), and each `_DITTO_HOST` sentence said as the case before it, for its own host."""
    return _DITTO_HOST.sub(_ditto_case, _ELLIPSIS.sub(lambda m: f"{m['phrase']} {m['join']} {m['host']} {m['phrase']}", text))


# (r61m) A sentence that repeats the note's case before it for another host: "E1 hit -> Remove. ditto E2.", "... Same for
# User4.", "Likewise Op_Host2." The case before it, said again of that host (read as it stood, the second host was named and
# placed nowhere, and the rule was kept silent where its words held).
_DITTO_HOST = re.compile(r"(?P<case>(?:^|(?<=[.;!?]\s))[^.;!?]*?(?:->|=>|\u2192|:)[^.;!?]+[.;!])\s*"
                         r"(?:ditto|(?:and\s+)?(?:the\s+)?same\s+(?:for|goes\s+for|with)|likewise(?:\s+for)?)\s+"
                         r"(?P<other>[\w-]+(?:\s+[\w-]+)?)\s*(?:[.;!]|$)", re.IGNORECASE)


def _ditto_case(found: re.Match) -> str:
    """The case before a ditto sentence with the host it names beside the case's own, "E1 or E2 hit -> Remove": only where
    the case is about one host (its situation, before its arrow or colon, names that one and its order none) and the
    ditto names one host of its own; else the text as written."""
    case, other = found["case"], hosts_in(found["other"])
    situation, arrow, order = re.split(r"(->|=>|\u2192|:)", case, maxsplit=1)
    named = hosts_in(situation)
    if len(other) != 1 or len(named) != 1 or other[0] == named[0] or hosts_in(order) \
            or re.search(r"\b(?:ditto|same|likewise)\b", case, re.IGNORECASE):
        return found.group(0)
    return re.sub(rf"\b{named[0]}\b", f"{named[0]} or {other[0]}", named_in_full(situation), count=1) + arrow + order


# A note's list of the situation, one state an item, then the order after an arrow ("- U1 exploited - E1 clean => Remove
# U1", its lines flattened): every item is the condition, as "U1 exploited and E1 clean" (r32m; read as it stood, the first
# item alone was the situation and the rest the order's clause, its negations unplaced).
_BULLET = r"\s+[-*\u2022]\s+"


_LISTED_SITUATION = re.compile(r"\A\s*[-*\u2022]\s+(?P<items>(?:(?!->|=>|\u2192).)+?(?:" + _BULLET + r"(?:(?!->|=>|\u2192).)+?)+)"
                               r"\s*(?=->|=>|\u2192)")


def listed_situation_joined(flat: str) -> str:
    """`flat` (one line) with a listed situation before its arrow said as one condition (_LISTED_SITUATION)."""
    return _checked_items_said(_LISTED_SITUATION.sub(lambda m: " and ".join(re.split(_BULLET, m["items"])) + " ", flat))


# (r45m) A checklist of states, numbered or bulleted, that a later sentence refers to as a whole: "1. Enterprise2 shows an
# exploit. 2. Op_Server0 is not compromised. When both items hold, Remove Enterprise2." ("if all of the above are true",
# "once every box is ticked"; "if any of them holds": one of them). Read as it stood, the items were a story and the
# order's condition ("both items") named no state at all.
_ITEM_MARK = r"(?:\(?\d{1,2}[.)]|\(?[a-h]\)|[-*\u2022])\s+"


# (r47b) The items may be asked as yes/no questions, "1) is Op_Host1 owned? 2) is there no scan on it? If both answers are
# yes, ...": each the statement it asks after (`_asked_said`); an item asked in other words leaves the list as it stands.
_CHECKED_ITEMS = re.compile(
    r"(?:(?<=[:.;])|\A)\s*(?P<items>(?:" + _ITEM_MARK + r"[^.;!?]+[.;?]?\s*){2,})"
    r"(?P<lead>when|whenever|if|once|as\s+soon\s+as|while|with)\s+(?P<how>both|all|each|every|any|either|one)"
    r"(?:\s+(?:of\s+)?(?:the\s+)?(?:two\s+|three\s+|four\s+)?(?:above|these|them|those|(?:items?|checks?|conditions?|points?|boxes|lines?|"
    r"entries|answers?|questions?)(?:\s+(?:above|listed|on\s+the\s+list))?))?\s+(?:(?:all\s+)?(?:holds?|are\s+(?:true|met|satisfied|ticked|"
    r"checked|yes)|is\s+(?:true|met|satisfied|ticked|checked|yes)|apply|applies|pass(?:es)?|check\s+out|are\s+the\s+case|"
    r"is\s+the\s+case)|(?:is|are)\s+ticked|true|met|ticked|yes)\b(?P<asked>\s*\?)?", re.IGNORECASE)


# A yes/no question about a host, its row or "there": "is <subject> <state>", "is there <what>", "does <subject> <verb> ..."
_ASKED_SUBJECT = (r"(?:it|they|its\s+row|their\s+rows?|[A-Za-z_]+\d+(?:'s\s+row)?|(?:the|a|an|any|some|one|that|this)\s+"
                  r"(?:[\w-]+\s+){0,2}?(?:hosts?|servers?|box(?:es)?|machines?|row))")


_ASKED_ITEM = re.compile(rf"^\s*(?:(?P<be>is|are)\s+(?P<there>there\b|{_ASKED_SUBJECT})|(?P<do>does|do)\s+(?P<doer>{_ASKED_SUBJECT})\s+"
                         r"(?P<verb>show|have|list|read|say|display|report)\b)(?P<rest>[^?]*)\?\s*$", re.IGNORECASE)


def _asked_said(item: str) -> Optional[str]:
    """An item as a statement: the item itself where it asks nothing, the statement a yes/no question (`_ASKED_ITEM`)
    asks after ("is there no scan on it?" -> "there is no scan on it"), None for a question asked in other words."""
    if not item.rstrip().endswith("?"):
        return item
    asked = _ASKED_ITEM.match(item)
    if asked is None:
        return None
    if asked["be"]:
        return f"{asked['there']} {asked['be'].lower()}{asked['rest']}".strip()
    verb = asked["verb"].lower()
    said = "has" if verb == "have" and asked["do"].lower() == "does" else verb + ("s" if asked["do"].lower() == "does" else "")
    return f"{asked['doer']} {said}{asked['rest']}".strip()


_HEADING_ONE_OF_CLASS = re.compile(r"(?P<host>\b(?:a|an|any|each)\s+(?:user|enterprise|op|operational)[\s-]+(?:host|box|machine|server|"
                                  r"workstation))\b(?!s)[^:]*:\s*$", re.IGNORECASE)


_ITS_ROW = re.compile(r"^\s*(?:its\s+row|it)\b", re.IGNORECASE)


def _checked_items_said(flat: str) -> str:
    """`flat` with a checklist of states that a later condition refers to as a whole (_CHECKED_ITEMS) said as that
    condition: "When <item> and <item>" ("or" for "any" / "either" / "one"). A list whose items give orders is left as
    it stands (its items are cases, not parts of one condition)."""
    def said(m: re.Match) -> str:
        items = [_asked_said(i.strip(" .;")) for i in re.split(_ITEM_MARK, m["items"]) if i.strip(" .;")]
        if len(items) < 2 or None in items or any(verbs_in(i) for i in items):
            return m.group(0)
        # (r47b) "Checklist for any op box: 1) is it owned? ...": the first item's "it" is the one
        # host of a class the heading names (read as any host's, the class was lost and the rule held on other classes)
        heading = _HEADING_ONE_OF_CLASS.search(re.split(r"[.;!?]", flat[:m.start()])[-1])
        if heading is not None and not hosts_in(heading.string):
            items[0] = _ITS_ROW.sub(heading["host"], items[0], count=1)
        join = " or " if m["how"].lower() in ("any", "either", "one") else " and "
        lead = "when" if m["lead"].lower() == "with" else m["lead"]  # ("with both true, <order>")
        return f" {lead} {join.join(items)}" + ("," if m["asked"] else "")
    return _CHECKED_ITEMS.sub(said, flat)


# (r33h) A reason set off by commas between the subject and its order: "User4, because the lab depends on it, must be
# planned for a Remove as soon as ...". Read as a justification, it swallowed the rest of the sentence, order and all.
_REASON_ASIDE = re.compile(r",\s*(?:because|since|given\s+that)\s+[^,;:.]+,\s*(?=(?:should|must|needs?\s+to|has\s+to|ought\s+to|"
                           r"is\s+to|are\s+to|gets?|deserves?|warrants?|will|shall)\b)", re.IGNORECASE)


# (r42m) Why a host is the exception, said in brackets after the heading ("X is the exception (it bridges to the op
# subnet): ..."): a reason, whose class or subnet is no scope of the rule. An aside that names a host is kept (it may add
# that host to the exception).
_EXCEPTION_WHY = re.compile(r"(?P<head>\b(?:is|are)\s+(?:the|an|a)\s+(?:(?:one|big|main|only)\s+)?(?:exception|special\s+case|"
                            r"odd\s+one\s+out))\s*\((?P<why>[^()]{1,100})\)(?=\s*[:\u2013\u2014]|\s+-\s)", re.IGNORECASE)


# (r45m) A hedge on the order said as a condition of the defender's means, "if you can", "where possible", "if time allows":
# how firmly the order holds, no state of the network (read as a condition, it was one no claim placed, and the rule was
# never read whole).
_HEDGE = (r"(?:if|when|whenever|where|wherever)\s+(?:you|we)\s+(?:can|could|are\s+able\s+to)(?:\s+afford\s+(?:it|to))?|"
          r"if\s+(?:at\s+all\s+)?possible|(?:where|wherever|when|whenever)\s+possible|if\s+(?:time|budget)\s+(?:allows|permits)|"
          r"if\s+(?:it\s+is|it's)\s+(?:at\s+all\s+)?possible")


_HEDGE_CLAUSE = re.compile(rf"^\s*(?:{_HEDGE})\s*,\s*|\s*,?\s*\b(?:{_HEDGE})\b\s*(?=,)|\s*,?\s*\b(?:{_HEDGE})\b(?=\s*(?:[.;!]|$))",
                           re.IGNORECASE)


# (r45m) A check said as a question, then its answer's case by a pronoun: "to begin, whether Op_Host2 is quiet; if it is,
# plan a decoy" (the case is "if Enterprise1 is clean"; read as "if it is", the case stated nothing).
_WHETHER_THEN_IF = re.compile(r"\bwhether\s+(?P<what>[^,;:.?!]{3,80}?)\s*[,;:.?]\s*(?:and\s+|then\s+)?(?P<lead>if|when)\s+(?:it\s+is|they\s+are|so|yes|"
                              r"it\s+does|that\s+is\s+the\s+case)\b", re.IGNORECASE)


def whether_said(flat: str) -> str:
    """`flat` with the case that answers a "whether" check by a pronoun said in full (`_WHETHER_THEN_IF`)."""
    return _WHETHER_THEN_IF.sub(lambda m: f"{m.group(0)[:m.start('lead') - m.start()]}{m['lead']} {m['what']}", flat)


# (r55m) A heading that says what a host is before the order about it, "User0 is the CEO's laptop: ...", "Op_Server0 is our
# crown jewel: ...": who the host is, no state of it (read as a condition, its noun, "laptop", was taken for a class, and the
# order's "it" lost its host). Only a noun phrase after "is" with no word of state, move or negation, and a colon after it.
_HOST_DESCRIBED = re.compile(rf"^(?P<host>\s*{HOST_NAME})\s+is\s+(?P<what>(?:the|our|my|a|an)\s+[^:;.,!?]{{1,40}}?)\s*:\s*(?=\S)",
                             re.IGNORECASE)


# (r55m) A phase of the attack that opens a sentence before the order's own clause with no comma, "during the impact stage our
# plan opens with a Restore": the phase is the condition and ends there (read as one clause, the condition ran on into the order,
# and neither was read; the comma the writer left out is put back)
_PHASE_OPENS = re.compile(r"(?:^|(?<=[.:;!?]\s))(?P<phase>\s*(?:in|during)\s+the\s+(?:recon\w*|discovery|scanning|exploitation|"
                          r"initial\s+access|(?:privilege\s+)?escalation|lateral[\s-]+movement|impact)\s+(?:phase|stage))"
                          r"(?=\s+(?:the\s+plan|our\s+plan|my\s+plan|we|you|i|always|never)\b)", re.IGNORECASE)


def phase_comma_said(flat: str) -> str:
    """(r55m) `flat` with a comma after a phase that opens a sentence before its order's clause (`_PHASE_OPENS`)."""
    return _PHASE_OPENS.sub(r"\g<phase>,", flat or "")


# (r55m) A host's priority said right after the condition with no comma, "if Enterprise1 is rooted it comes first: Remove
# ...", "if E2 is owned that takes priority": the order's rank, no state (read as part of the condition, its words were
# unplaced and the rule silent); the comma the writer left out is put back, and the condition ends before it
_PRIORITY_AFTER = re.compile(r"(?<=\w)\s+(?=(?:it|that|this|that\s+one|this\s+one|that\s+host|this\s+host)\s+(?:(?:comes|goes)\s+first|"
                             r"(?:takes|has|gets)\s+(?:top\s+|first\s+)?priority)\s*[:,;.](?!\s*(?:and\s+)?then\b)"
                             # (r55b: nor before a restriction of the condition, "it takes priority, unless Op_Server0 is rooted
                             # too: ...": ended before the priority, the condition lost the restriction after it)
                             r"(?!\s*(?:unless|except|but|if|when|whenever|while|provided|as\s+long\s+as|only)\b)|(?:it|that|this)\s+(?:comes|goes)\s+first\s+"
                             # (r55b: not before "then", "it comes first, then Restore User1": the order after it is the second
                             # move, and read as the rule's, the host that comes first was left for later)
                             r"(?=and\b(?!\s+then\b)))", re.IGNORECASE)


def priority_comma_said(flat: str) -> str:
    """(r55m) `flat` with a comma before a host's priority said right after a condition (`_PRIORITY_AFTER`)."""
    return _PRIORITY_AFTER.sub(", ", flat or "")


# (r55m) Two orders, each on its own host, and one condition that gives each host its own state "respectively": "Remove User3 and
# Restore Op_Host1 if they are probed and rooted respectively". Each order is for its own host in its own state (read as
# one condition, both hosts had to show both, and the rule was never whole); said as the two cases it pairs.
_RESPECTIVELY = re.compile(rf"(?P<v1>[A-Za-z-]+)\s+(?P<h1>{HOST_NAME}|{HOST_SHORT})\s+and\s+(?P<v2>[A-Za-z-]+)\s+(?P<h2>{HOST_NAME}|{HOST_SHORT})\s+"
                           r"(?P<when>when|whenever|if|once)\s+they\s+(?P<verb>show|are|get)\s+(?P<s1>[^,;.:]{1,40}?)\s+and\s+"
                           r"(?P<s2>[^,;.:]{1,40}?)\s*,?\s+respectively\b", re.IGNORECASE)
_ONE_VERB = {"show": "shows", "are": "is", "get": "gets"}


def respectively_said(flat: str) -> str:
    """(r55m) `flat` with two orders paired with their hosts' states "respectively" (`_RESPECTIVELY`) said as two cases:
    "if User3 is probed, Remove it; if Op_Host1 is rooted, Restore it"."""
    def cases(m: re.Match) -> str:
        # (r55b: and only where the two orders open their sentence: the end of a longer list, "Remove E1, Restore E2 and
        # Analyse E0 when ... respectively", pairs its states with other hosts than these two; a word before them, "Never
        # Remove E1 and Restore E2 when ...", "I would ...", bears on both, and set before the first case alone, it was a
        # negation no claim placed)
        if len(verbs_in(m["v1"])) != 1 or len(verbs_in(m["v2"])) != 1 or hosts_in(m["h1"]) == hosts_in(m["h2"]) \
                or not re.search(r"(?:^|[.;:!?])\s*$", m.string[:m.start()]):
            return m.group(0)
        verb = _ONE_VERB[m["verb"].lower()]
        return (f"{m['when']} {m['h1']} {verb} {m['s1']}, {m['v1']} it; "
                f"{m['when'].lower()} {m['h2']} {verb} {m['s2']}, {m['v2']} it")
    return _RESPECTIVELY.sub(cases, flat or "")


# (r60l) A host named back as "the latter" / "the former" ("User1 and Enterprise0 were scanned; Analyse the latter"): the
# second or the first of the two hosts the text named before it (left as it stood, the order named no host, and a
# compiled target on the other host of the two passed for the text). Only where exactly two hosts and no class are named
# before it; not "the former runbook", "in the latter case": another noun than a host's.
_LATTER_FORMER = re.compile(r"\bthe\s+(?P<which>latter|former)(?:\s+(?:one|host|box|machine|server))?\b"
                            r"(?!\s+(?:[\w-]+\s+)?(?:runbooks?|rules?|notes?|advice|cards?|playbooks?|polic(?:y|ies)|versions?|plans?|"
                            r"approach|practice|habits?|lessons?|guidance|setup|team|lead|shift|crew|analysts?|owners?|cases?|"
                            r"conditions?|situations?|options?|moves?|steps?|turns?|half|parts?|states?|levels?)\b)", re.IGNORECASE)


def latter_former_said(flat: str) -> str:
    """(r60l) `flat` with "the latter" / "the former" said as the host it names back (`_LATTER_FORMER`)."""
    def named(m: re.Match) -> str:
        before = m.string[:m.start()]
        hosts = hosts_in(before)
        if len(hosts) != 2 or classes_in(before):
            return m.group(0)
        return hosts[1] if m["which"].lower() == "latter" else hosts[0]
    return _LATTER_FORMER.sub(named, flat or "")


# (r60l) "the box", "the host", "the machine" said bare where the note names one host and speaks of no other: that host
# ("Once the attacker is on the box, Restore User2": read as any box, the rule held wherever any host was compromised).
# Not where the note speaks of hosts in general besides ("a box", "any host", "each machine", a class, "other"), nor a
# noun said with what tells it apart ("the box being probed", "the host that ...", "the box next to it"), nor "the server"
# (which server the note means is left to the other readers).
_THE_BOX = re.compile(r"\bthe\s+(?:box|host|machine)\b(?!['\u2019]s\b)"
                      r"(?!\s+(?:that|which|who|where|being|with|without|showing|under|next|beside|behind|in\s+front|near|you|we|i|they|itself|"
                      r"closest|nearest|[a-z]+ed\b|[a-z]+ing\b|of|on|in|at|from|"
                      # (r60d) nor a clause of its own subject after it, "the box it was attacked from", "the host the scan
                      # came from", "the machine Op_Host0 talks to", nor one placed by another, "the box upstream", "the
                      # host after it": another host than the one the note names (said as that host, the order's target
                      # was the host named in its condition)
                      r"it|he|she|one|the|a|an|this|these|those|our|their|his|her|its|some|red|blue|attacker|[a-z]+_?[a-z]*\d|"
                      r"upstream|downstream|after|before|above|below|beyond|past|ahead)\b)", re.IGNORECASE)
_HOSTS_IN_GENERAL = re.compile(r"\b(?:a|an|any|some|each|every|another|other|all|no|whichever|one)\s+(?:[\w-]+\s+)?"
                               r"(?:box(?:es)?|hosts?|machines?|servers?|workstations?|nodes?)\b|\b(?:box(?:es)|hosts|machines|servers)\b|"
                               r"\bother\b", re.IGNORECASE)


_SET_AGAINST = re.compile(r"\b(?:no|not|never|none|nothing|but|except|save|besides|apart|only|unless|rather|instead|than|"
                          r"alone|spare|leave|skip|avoid|they|them|their)\b|n['\u2019]t\b", re.IGNORECASE)


def the_box_named_said(flat: str) -> str:
    """(r60l) `flat` with "the box" said as the one host the note names (`_THE_BOX`)."""
    hosts = hosts_in(flat or "")
    # (nor where the host may be set against the box: "..., but never touch User2", "except User2", "only User2"; nor
    # beside a "they", people or hosts the box may be one of)
    if len(hosts) != 1 or classes_in(flat) or _HOSTS_IN_GENERAL.search(flat) or _SET_AGAINST.search(flat):
        return flat or ""
    # (nor where the host is named only in another sentence, the story's: "Last night I rated Op_Host2 low ... If the
    # host reads ...")
    if any(_THE_BOX.search(sentence) and not hosts_in(sentence) for sentence in re.split(r"(?<=[.!?;])\s+", flat)):
        return flat
    return _THE_BOX.sub(hosts[0], flat)


# (r61h) "the server" left out of the op hosts ("op hosts (not the server): ...", "every op box but the server"): the op
# subnet has one server, Op_Server0, so in a note whose only class is that one and that names no host outside it, the
# server it excepts is that host. Left unread, the heading's exception was no host, the heading itself was dropped, and a
# trigger on any exploited host passed as the text. Only after a word that sets it apart: "the server" as a subject of
# its own is left to the other readers, and so is a note that also speaks of another class (an enterprise host is a
# server too).
_SERVER_SET_APART = re.compile(r"\b(?P<lead>not|except(?:\s+for)?|but|other\s+than|save(?:\s+for)?|apart\s+from|bar|besides|"
                               r"excluding|minus|sans)\s+(?:for\s+)?the\s+server\b(?!['\u2019]s\b|\s+(?:decoy|service)s?\b)",
                               re.IGNORECASE)


def class_server_said(flat: str) -> str:
    """(r61h) `flat` with the server an op-hosts note sets apart said as the class's one server (`_SERVER_SET_APART`)."""
    classes = classes_in(flat or "")
    if len(classes) != 1 or not _SERVER_SET_APART.search(flat):
        return flat or ""
    servers = hosts_in(f"the {classes[0]} server")
    members = set(HOST_CLASSES[classes[0]])
    if len(servers) != 1 or not set(hosts_in(flat)) <= members:
        return flat
    return _SERVER_SET_APART.sub(lambda m: f"{m['lead']} {servers[0]}", flat)


# "Scratch the part about User2", "drop the bit on E0", "strike the line for Op_Host1": the teacher takes one part of what
# they said before out (the hosts named after it are no longer spoken for; the rule that follows keeps the rest).
DROP_PART = (r"\b(?:scratch|scrap|drop|strike|cut|forget|ignore|disregard)\s+(?:the|that)\s+"
             r"(?:part|bit|line|clause|piece|mention|half)\s+(?:about|on|for|concerning)\b")


# (r61h) A host a revision leaves to someone else's judgement: "Op_Host2 stays at the planner's discretion", "Op_Host1 is up
# to the planner", "User0 stays at your discretion": no host of the order, which speaks for it no more.
_LEFT_TO_OTHERS = re.compile(r"\b[\w-]+\s+(?:is|are|stays?|remains?)\s+(?:left\s+to|up\s+to|at)\s+(?:the\s+|your\s+|their\s+|his\s+|her\s+)?"
                             r"(?:[\w-]+(?:['\u2019]s)?\s+)?(?:judge?ment|discretion|call|choice|decision|planner|chooser|analyst|you|them)\b",
                             re.IGNORECASE)


def taken_out_spans(text: str) -> list[str]:
    """(r61h) The words by which a revision takes hosts out of what it keeps: the part it drops ("drop the bit on
    Op_Host0 in my last note") and a host left to another's judgement (`_LEFT_TO_OTHERS`)."""
    spans = [m.group(0) for m in re.finditer(DROP_PART + r"\s+[^,:;.!]{1,40}", text or "", re.IGNORECASE)]
    return spans + [m.group(0) for m in _LEFT_TO_OTHERS.finditer(text or "")]


def hosts_taken_out(text: str) -> set[str]:
    """(r61h) The hosts named in `taken_out_spans`."""
    return {h for span in taken_out_spans(text) for h in hosts_in(span)}


# (r61l) A host named by its part in the story, after a move: "Analyse the box red came from", "Remove red from the host it
# jumped from", "Restore the machine the scan started on", "Decoy the host upstream". That is another host than the one the
# note names (whose state is the condition): compiled as that host, the move went to the host under attack.
_HOST_BY_ROLE = re.compile(r"\bthe\s+(?:box|host|machine|server|node|workstation)\s+(?:(?:that|which|where)\s+)?"
                           r"(?:(?:red|blue|it|they|he|she|the\s+(?:attacker|adversary|intruder|scan|exploit|attack|red\s+team))\s+"
                           r"(?:\w+\s+){0,3}?(?:from|to|into|through|via|on|at|in)\b(?=\s*(?:[.;,:!?)]|$|\s+(?:and|but|then|first|now)\b))|"
                           r"upstream|downstream)", re.IGNORECASE)


def moves_on_host_by_role(text: str) -> frozenset[str]:
    """(r61l) The moves the text makes on a host it names only by its part in the story (`_HOST_BY_ROLE`), in the same
    clause as the move, after it."""
    found: set[str] = set()
    for clause in re.split(r"[.;!?]|,\s*(?=(?:when|once|if|then|and|but)\b)", text or ""):
        role = _HOST_BY_ROLE.search(clause)
        if role is not None:
            found |= set(verbs_in(clause[:role.start()]))
    return frozenset(found)


# (r55m) And a host named after a description of it, set off by commas: "once our oldest box, User2, gets probed, ...": the
# host itself (read with it, the description's words were unplaced, and the condition never whole).
_HOST_APPOSED = re.compile(rf"\b(?:the|our|my)\s+(?P<what>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){{0,2}}),\s+(?P<host>{HOST_NAME}),\s*", re.IGNORECASE)
_NOT_A_DESCRIPTION = re.compile(r"\b(?:no|not|never|none|nothing|only|except|unless|when|if|while|once|and|or|but|other|next|last|"
                                r"first|second|third)\b|n't\b"
                                # (r55b) nor a word that tells what befell the host, which the state readers may not know ("the
                                # box red owns", "a lost cause", "the pwned one", "our fallen box", "under attack", "in trouble"): a
                                # participle, the attacker or another actor as a clause's subject, or a word of harm; read as the
                                # host alone, its order held in every state
                                r"|\b\w+ed\b|\b\w{2,}ing\b|\b(?:taken|fallen|broken|stolen|beaten|hidden|shown|blown|thrown|overrun|gone|lost)\b"
                                r"|\b(?:red|attacker|adversary|intruder|enemy|they|we|you|i|he|she|it)\b"
                                r"|\b(?:lost|gone|down|dead|dirty|hit|trouble|attack\w*|fire|burning|risk|danger|pwn\w*|own\w*|took|"
                                r"hot|bad|sick|cause|broken|victim|casualty|foothold|beachhead|target)\b", re.IGNORECASE)


def _a_description(what: str, host: str) -> bool:
    """(r55m) Whether words only describe `host`: no state, move, host, negation or condition word in them, and no class but
    the host's own ("the CEO's laptop": a user host)."""
    named = hosts_in(host)
    return not (state_words_in(what) or verbs_in(what) or hosts_in(what) or _NOT_A_DESCRIPTION.search(what)) \
        and len(named) == 1 and all(named[0] in HOST_CLASSES.get(c, ()) for c in classes_in(what))


# (r55m) What a move is good for, said as a general truth before the order's colon: "A decoy only pays off on an idle box: never decoy
# Enterprise1 once ...", "a Remove just works on a user-level foothold; ...": the writer's reason for the order, no condition of
# it (read as one, its state was claimed beside the order's own, the two could never hold at once, and the rule was silent).
_MOVE_WORTH = re.compile(r"(?:^|(?<=[.!?]\s))(?P<move>(?:a|an|the)\s+[\w-]+)\s+(?:only\s+|just\s+|really\s+)?(?:helps|works|pays\s+off|"
                         r"does\s+(?:any\s+)?good|is\s+(?:only\s+)?(?:useful|worth\s+it|any\s+use))\b[^.:;!?]{0,60}[:;]\s*(?=\S)",
                         re.IGNORECASE)


# (r55m) A heading that sums the order up as "not both at once" before the case it is for: "Not both Enterprise0 and Enterprise2 in
# one step: if both are rooted, ...", "Never two at the same time: when ...": the point of the order the case then gives in full,
# no condition (read as one, its "not" was a negation no claim placed, and the rule stayed silent where the case held).
_NOT_BOTH_HEADING = re.compile(r"^\s*(?:not|never)\s+(?:both|two)\b[^:.;!?]{0,60}?\b(?:at\s+once|together|in\s+(?:one|the\s+same|a\s+single)\s+"
                               r"(?:step|turn|go)|at\s+the\s+same\s+time|simultaneously)\s*:\s*(?=(?:if|when|whenever|once|should)\b)",
                               re.IGNORECASE)


_BANS = re.compile(r"\s*(?:never|don't|do\s+not|no|not|avoid)\b", re.IGNORECASE)


def move_worth_away(flat: str) -> str:
    """(r55m) `flat` without a general truth of what a move is good for, said before its order (`_MOVE_WORTH`), nor a heading
    that sums its order up as "not both at once" (`_NOT_BOTH_HEADING`)."""
    # (r55b: only before a prohibition, "...: never decoy ...": before a move ordered, "A Restore only works on a rooted host:
    # Restore User2", the truth is the order's own condition, and left out, the order held in every state)
    flat = _MOVE_WORTH.sub(lambda m: "" if len(verbs_in(m["move"])) == 1 and not hosts_in(m.group(0))
                           and _BANS.match(flat[m.end():]) else m.group(0), flat or "")
    # (and a heading that sums the order up as "not both at once", `_NOT_BOTH_HEADING`: the case after it is the rule)
    return _NOT_BOTH_HEADING.sub("", flat)


def host_described_away(flat: str) -> str:
    """(r55m) `flat` with a heading that only says what its host is (`_HOST_DESCRIBED`) said as the host alone: "User0: ...";
    and a host named after a description of it (`_HOST_APPOSED`) as the host alone."""
    flat = _HOST_APPOSED.sub(lambda m: f"{m['host']} " if _a_description(m["what"], m["host"]) else m.group(0), flat or "")
    found = _HOST_DESCRIBED.match(flat)
    if found is None or not _a_description(found["what"], found["host"]):
        return flat
    return f"{found['host']}: {flat[found.end():]}"


def hedges_away(flat: str) -> str:
    """`flat` without a hedge on the means said as a condition (`_HEDGE_CLAUSE`), its sentence's first letter kept."""
    return _HEDGE_CLAUSE.sub("", flat)


# (r58h) An aside right after a host's name that keeps the condition to that host alone, set off by dashes or brackets:
# "if User1 - just that one, not User2 - is rooted", "if User3 (and only User3) gets probed", "once Op_Host1 -- that one alone -- gets scanned". It restates what the name already says (the hosts it
# leaves out are none the condition names); (r58a) an aside that denies the state to the other hosts, "if User2 -- and no
# other box -- is scanned", is no restatement but a condition on them: dropped, the rule stood while another host was scanned
# too, so it is left to the readers of the sentence as written; read as written, the condition was cut at its first dash or comma, the host
# was read bare, and the rule stood wherever that host was shown.
_ALONE_WORDS = (r"(?:(?:and\s+|but\s+)?only\s+(?:that|this|the\s+one)(?:\s+(?:one|host|box|machine|server))?|(?:and\s+|but\s+)?only\s+"
                + HOST_NAME + r"|(?:that|this)\s+(?:one|host|box|machine|server)\s+(?:only|alone)|"
                r"just\s+(?:that|this)\s+(?:one|host|box|machine|server))")
_HOST_ALONE_ASIDE = re.compile(
    rf"(?P<host>\b{HOST_NAME}\b)\s*(?:\(\s*|\s-{{1,2}}\s*|\s*[\u2013\u2014]\s*){_ALONE_WORDS}"
    rf"(?:\s*,?\s*(?:(?:but|and)\s+)?(?:not|never|nor)\s+(?:the\s+)?{HOST_NAME}(?:\s*(?:,|or|and|nor|/)\s*(?:the\s+)?{HOST_NAME})*)?"
    r"\s*(?:\)|\s-{1,2}(?=\s)|\s*[\u2013\u2014])\s*(?=[a-z])", re.IGNORECASE)


def host_alone_aside_away(flat: str) -> str:
    """(r58h) `flat` without an aside that keeps a condition to the host it follows alone (`_HOST_ALONE_ASIDE`): the host's
    name stands, and the condition reads on. An aside that names the host itself among those it leaves out is kept."""
    return _HOST_ALONE_ASIDE.sub(lambda m: m.group(0) if m["host"].lower() in m.group(0)[len(m["host"]):].lower()
                                 and not re.search(r"only\s+" + re.escape(m["host"]), m.group(0), re.IGNORECASE)
                                 else f"{m['host']} ", flat or "")


# (r59m) An aside that counts one host in the class just named, set off by commas, brackets or dashes: "each ent machine,
# the Defender included, takes ...", "all op hosts (Op_Server0 too) ...", "any user box - including User0 - ...". Where the host is of that class, it restates the class and the sentence reads on without it; read as written,
# the host was a second subject the order's "it" could stand for, and the rule was never read whole (silent where its
# class was). A host of another class widens the class and is left as written.
_INCLUDED_ASIDE = re.compile(
    r"(?:,\s*|\s*\(\s*|\s+-{1,2}\s*|\s*[\u2013\u2014]\s*)(?:(?:the\s+)?(?P<host>" + HOST_NAME + r")\s+(?:included|too|as\s+well)"
    r"|including\s+(?:the\s+)?(?P<also>" + HOST_NAME + r"))\s*(?:,|\)|\s-{1,2}(?=\s)|[\u2013\u2014])", re.IGNORECASE)


def included_aside_away(flat: str) -> str:
    """(r59m) `flat` without an aside that counts a host in the class named right before it in its sentence
    (`_INCLUDED_ASIDE`); an aside whose host is of no class named there is kept."""
    def said(m: re.Match) -> str:
        host = hosts_in(m["host"] or m["also"])
        before = re.split(r"[.;:!?]", m.string[:m.start()])[-1]
        named = classes_in(before)
        return " " if len(host) == 1 and len(named) == 1 and host[0] in HOST_CLASSES.get(named[0], ()) else m.group(0)
    return _INCLUDED_ASIDE.sub(said, flat or "")


def reason_aside_dropped(flat: str) -> str:
    """`flat` without a reason set off by commas before the order's verb (_REASON_ASIDE), nor one in brackets after an
    exception heading (_EXCEPTION_WHY)."""
    flat = _EXCEPTION_WHY.sub(lambda m: m["head"] if not hosts_in(m["why"]) else m.group(0), flat)
    return _REASON_ASIDE.sub(" ", flat)


# (r35m) A rule written as "key: value" lines ("host: User4 / state: scanned, not compromised / move: DecoySSHD User4 /
# avoid: Remove User4"), each line possibly bulleted: the host it is for, the situation, the order and what the order is
# set against, said as the sentence a note would write (flattened as it stood, the labels ran into one clause and the
# situation's "not" was read as a negation of the order). Only a form whose every line has a label named here is read so.
_FORM_KEYS = {
    "host": "host", "hosts": "host", "target": "host", "applies to": "host", "scope": "host", "for": "host",
    "state": "when", "when": "when", "if": "when", "condition": "when", "trigger": "when", "situation": "when",
    "status": "when", "seen": "when",
    "move": "do", "do": "do", "action": "do", "pick": "do", "choose": "do", "response": "do", "then": "then",
    "recommend": "do", "plan": "do", "next": "then", "after that": "then",
    "avoid": "avoid", "never": "avoid", "not": "avoid", "don't": "avoid", "do not": "avoid", "instead of": "avoid",
    # (r56m) the hosts the line is not for ("not for: Enterprise1, Enterprise2", "except: the Defender"): the form's
    # exception. Unlabelled, the form was read as no form at all, and its "not" was taken for a turning down of the order.
    "not for": "except", "except": "except", "except for": "except", "excluding": "except", "exclude": "except",
    "but not": "except",
    # (r56m) the subnet the line is for ("subnet: enterprise"), said as the place of its condition; and the writer's note
    # beside the form ("note: ..."), said after it as a comment's note is
    "subnet": "subnet", "note": "note", "notes": "note", "comment": "note",
}


_FORM_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<key>[a-z][a-z' ]{0,14}?)\s*:\s*(?P<value>\S.*?)\s*$", re.IGNORECASE)


_SAID_WITH_VERB = re.compile(r"^(?:is|are|shows?|has|have|reads?|sits?|stays?|at|with|under|in|gets?)\b", re.IGNORECASE)


# A markdown table's row: "| Enterprise0 scanned | DecoyTomcat Enterprise0 |"; its rule under the header: "|---|---|".
_TABLE_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")


_TABLE_RULE = re.compile(r"^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$")


def _one_row_table(lines: list[str]) -> list[tuple[str, str]]:
    """A markdown table of one row under a header (its labels, as in _FORM_KEYS) as (label, cell) pairs; [] for any
    other text (a table of several rows holds several rules: not read as one)."""
    if len(lines) != 3 or not _TABLE_RULE.match(lines[1]) or not all(_TABLE_ROW.match(lines[i]) for i in (0, 2)):
        return []
    header, row = ([c.strip() for c in _TABLE_ROW.match(lines[i])["cells"].split("|")] for i in (0, 2))
    return list(zip(header, row)) if len(header) == len(row) and all(header) and all(row) else []


# (r40h) A yes/no question the order hangs on: "ask yourself: is Op_Host1 held? If so, remove it", "Is the op
# server rooted? If so -> Restore it". The answer's "if it is" is the question said as a condition; read as no
# statement at all, the rule's words placed nothing and its compiled trigger was held to nothing (it fired where the
# host sat at Unknown). The question stays where it was: what leads it ("Before restoring X, ask:") is read as before.
_QUESTION_THEN_ANSWER = re.compile(
    r"\b(?P<aux>is|are)\s+(?P<subject>(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+){0,2}?(?:hosts?|servers?|box(?:es)?|machines?)|"
    r"[A-Za-z_]+\d+)\s+(?P<state>[^?.;:]{1,80}?)\s*\?\s*(?P<answer>if\s+(?:it\s+is|they\s+are|so|yes|the\s+answer\s+is\s+yes)\b)",
    re.IGNORECASE)


def question_answered(text: str) -> str:
    """`text` with the answer to a yes/no question ("is X Y? If it is, ORDER") said as the condition it answers ("is X
    Y? If X is Y, ORDER")."""
    return _QUESTION_THEN_ANSWER.sub(
        lambda m: m[0][:m.start("answer") - m.start()] + f"If {m['subject']} {m['aux'].lower()} {m['state'].strip()}", text or "")


# (r55l) A yes/no question of a host's state answered "no", then the order: "Is User2 rooted? No. Then Analyse User2", "has
# Op_Host0 been exploited? Nope - put a decoy on it". The order is for the state denied: said as "If <subject> <aux> not
# <state>, <order>". Read as it stood, the question was the situation and its "no" was lost, the order held where the
# state it denies was shown (the opposite of its words). (A question that asks after a move, "Remove User3? No", is
# forms._move_asked's; an answer that goes on to deny more, "No, nor ...", is left as it stands.)
_STATE_DENIED_ANSWER = re.compile(
    r"(?:^|(?<=[.!;:]\s)|(?<=\n))\s*(?P<aux>is|are|was|were|has|have)\s+(?P<subject>(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+){0,2}?"
    rf"(?:hosts?|servers?|box(?:es)?|machines?)|{HOST_NAME}|{HOST_SHORT})\s+(?P<state>[^?.;:!]{{1,80}}?)\s*\?\s*(?:A\s*[:.]\s*)?"
    r"(?:no|nope|nah|negative)" + NO_BRAINER + r"\s*(?:[.,!;:-]+|\s+-+|\s*\u2014)\s*(?!(?:nor|and|but|or)\b)(?:(?:then|so|in\s+that\s+case)\s*[,:]?\s+)?(?=\S)",
    re.IGNORECASE)


def state_denied_said(text: str) -> str:
    """(r55l) `text` with a yes/no question of a state answered "no" (`_STATE_DENIED_ANSWER`) said as the state denied, "If
    <subject> <aux> not <state>, "; else as it stands (a question that names a move is no question of a state)."""
    def said(m: re.Match) -> str:
        state = m["state"].strip()
        denied = _DENIAL_IN_STATE.search(state)
        stated = state if denied is None else f"{state[:denied.start()]}{denied['word'] or ''}{state[denied.end():]}"
        if verbs_in(stated) or not (state_words_in(stated) or re.search(r"\b(?:user[\s-]level|root|privileged|unknown)\b", stated, re.I)):
            return m[0]
        # (r55d) an answer that goes on with a statement, not an order ("No - it's worse, it's rooted", "No, it is only at
        # user level"), says more of the state than the "no": left as it stands
        if not _order_opens(m.string[m.end():]):
            return m[0]
        # (r55d) a state that is itself a denial ("is User2 not rooted?", "is User2 uncompromised?"): its "no" says the host
        # IS in the state denied; said "not not rooted", "not uncompromised", it was read as the denial, the opposite
        if denied is not None:
            return f"If {m['subject']} {m['aux'].lower()} {stated}, "
        return f"If {m['subject']} {m['aux'].lower()} not {state}, "
    return _STATE_DENIED_ANSWER.sub(said, text or "")


# (r55d) The denial a state says of itself (`state_denied_said`): "not (yet)", "no longer", "never", or the "un" of
# "uncompromised", "unscanned" (the state it denies: `word`); and the opening of an order: a move's verb, or a word an order
# to act or to hold off starts with.
_DENIAL_IN_STATE = re.compile(r"\b(?:(?:not|never|no\s+longer)\s+(?:yet\s+)?|un(?=(?P<word>compromised|scanned|exploited|"
                              r"rooted|touched|owned|breached|infected|hacked)\b)(?P=word))", re.IGNORECASE)
_ORDER_OPENS = re.compile(r"\s*(?:(?:please|just|simply)\s+)?(?:(?:do\s+not|don['\u2019]?t|never|do)\s+)?"
                          r"(?:(?P<verb>[a-z][\w-]*)\b)", re.IGNORECASE)
_ORDER_WORDS = frozenset(("put", "deploy", "place", "plant", "set", "leave", "keep", "wait", "hold", "go", "start", "let"))


def _order_opens(rest: str) -> bool:
    """(r55d) Whether `rest` opens with an order: a move's verb, or a word that starts one (`_ORDER_WORDS`)."""
    found = _ORDER_OPENS.match(rest)
    return found is not None and (bool(verbs_in(found["verb"])) or found["verb"].lower() in _ORDER_WORDS)


# (r44c) A note's situation said as a bare question, with no word that asks one ("Nothing on the op side owned? then
# ...", "User2 scanned? -> ..."): the statement it asks after, then the order it answers with ("then", an arrow, or an
# imperative). It is the order's condition, as the same words before an arrow are; read as no statement at all, the
# question placed nothing and a trigger that asked a state of another host passed (asking the state of one host for a
# whole subnet's). A question with a word that asks ("is ...?", "why ...?") is not one of these.
_BARE_QUESTION = re.compile(r"(?:^|(?<=[.!;]\s))(?P<question>(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|"
                            r"may|might|must|has|have|had|why|what|how|who|whom|which|where|when|whenever|if|ask|any\s+idea)\b)"
                            r"[^?.;:!]{3,120}?)\s*\?\s*(?P<then>then\b\s*,?\s*|->\s*|=>\s*)?(?=\S)", re.IGNORECASE)


# (r47h) A question-and-answer pair, "Q: <situation>? A: <order>" (an FAQ's numbered entry, "FAQ 3. Q: ...? A: ..."): the
# question is the situation the answer is for, as the same words before an arrow are. Read as it stands, neither was a
# condition nor the order (the "Q:" led the text), so a move ordered for a quiet network passed as a rule on the reply's
# form and reached every call. A question a word opens ("should ...?", "how many ...?") stays as it was, as bare ones do;
# so does one that names a move ("..., do I restore it?"), whose answer may turn it down, and an answer that opens with
# "no" or "not" (what it denies is the question's, not a situation).
_QUESTION_LABELLED = re.compile(r"(?:^|(?<=[.!;]\s))\s*(?:FAQ\s*(?:#\s*)?\d*\s*[.:)]?\s*)?Q\s*\d*\s*[:.]\s*(?P<question>[^?.;:!]{3,160}?)\s*\?"
                               r"\s*A\s*\d*\s*[:.]\s*(?=\S)(?!(?:no|not|nope)\b" + NO_BRAINER + ")", re.IGNORECASE)


# (r51m) A question that asks what to do in a situation it states, then its answer: "Q: what should I do if Op_Host0 is
# rooted? A: Restore it", "what should I pick if the op server is scanned? DecoyApache on it"; and a dialogue that
# turns a move down and then asks what instead: "Q: can we Restore X once it reads Unknown? A: no, ... Q: what
# instead? A: Analyse X". The situation is the order's condition and the last answer the order: said as
# "When <situation>: <answer>". Read as it stood, the question's word ("what") kept its situation from being read, or
# the move the first question asked after was read as the order. An answer that opens with a denial or "it depends"
# ("A: nothing", "A: no", "A: neither") is left as it stands.
# (r51a: nor one that opens by saying the writer does not know, "Honestly I do not know; maybe ...", "not sure", "no
# idea", "hard to say": no answer, and read as one, its guess was the order the doubt had kept from being one)
_ANSWER_GIVEN = r"\s*\?\s*(?:A\s*\d*\s*[:.]\s*)?(?=\S)(?!(?:no|not|nope|nothing|none|neither|it\s+depends)\b" + NO_BRAINER + ")" \
                r"(?!(?:(?:honestly|frankly|truthfully|to\s+be\s+honest)\s*,?\s*)?(?:(?:i|we)(?:\s+(?:really|honestly|still))?\s+" \
                r"(?:do\s+not|don't|dont|can't|cannot|could\s+not|couldn't)\s+(?:know|say|tell|decide)|(?:i'm|i\s+am|we're|we\s+are)\s+" \
                r"(?:not\s+sure|unsure|undecided|torn)|no\s+idea|dunno|hard\s+to\s+say|who\s+knows|unclear|good\s+question)\b)"
_WHAT_TO_DO = re.compile(
    r"(?:\bQ\s*\d*\s*[:.]\s*)?\bwhat\s+(?:do|should|shall|would|can|must)\s+(?:we|i|you|one)\s+(?:do|pick|choose|recommend|rec|plan|play)"
    r"\s+(?P<when>when|if|once|while|whenever)\s+(?P<cond>[^?.;!:]{3,160}?)" + _ANSWER_GIVEN, re.IGNORECASE)
_WHAT_INSTEAD = re.compile(
    r"(?:\bQ\s*\d*\s*[:.]\s*)?\b(?:should|shall|do|can|may)\s+(?:we|i|you)\s+(?P<asked>[^?.;!:]{3,80}?)\s+(?P<when>when|if|once|while|whenever)\s+"
    r"(?P<cond>[^?.;!:]{3,160}?)\s*\?\s*A\s*\d*\s*[:.]\s*(?:no|nope|not)\b" + NO_BRAINER + r"[^?]{0,200}?[.;!]\s*(?:Q\s*\d*\s*[:.]\s*)?"
    r"(?:so\s+|then\s+|ok(?:ay)?\s*,?\s+)?what\s+(?:then|instead|now|else)\b[^?.;!:]{0,40}" + _ANSWER_GIVEN, re.IGNORECASE)


# (r54m) A question that asks whether a move may be made in a situation, answered "no" and then with the prohibition
# itself: "Q: may we Analyse User2 once it is rooted? A: No, never Analyse it then." The situation is the prohibition's
# condition: said as "Once <situation>: <prohibition>". Read as it stood, the question's words were the condition ("Q:
# may we Analyse ...") and the reading was never whole. (A prohibition of another move than the one asked after, or no
# prohibition at all after the "no", is left as it stands; r55l: so is a prohibition that states a condition of its own,
# "No, do not Remove it then if it is still at user level": said after the question's situation alone, the reading took
# that situation for the whole and the answer's own condition was lost, a ban wider than its words.)
_MOVE_REFUSED = re.compile(
    r"(?:\bFAQ\s*(?:#\s*)?\d*\s*[.:)]?\s*)?(?:\bQ\s*\d*\s*[:.]\s*)?\b(?:can|may|should|shall|do|could)\s+(?:we|i|you)\s+"
    r"(?P<asked>[^?.;!:]{3,80}?)\s+(?P<when>when|if|once|while|whenever)\s+(?P<cond>[^?.;!:]{3,160}?)\s*\?\s*A\s*\d*\s*[:.]\s*"
    r"(?:no|nope)" + NO_BRAINER + r"\s*[,.;!:-]\s*(?P<order>(?:never|do\s+not|don't|dont)\b(?:(?!\b(?:if|when|whenever|while|once|unless|until|as\s+long\s+as)\b)[^.;!?])*?)"
    r"(?:\s+(?:then|there|in\s+that\s+case))?"
    r"\s*(?=[.;!]|$)", re.IGNORECASE)


_REFERRING = re.compile(r"\b(?:it|them|this\s+one|that\s+one|the\s+(?:host|box|machine|server))\b", re.IGNORECASE)


def _move_refused_said(text: str) -> str:
    """(r54m) `text` with a move asked after and refused (`_MOVE_REFUSED`) said as "<When> <situation>: <prohibition>",
    where the situation states something of a host and the prohibition is of the move asked after; else as it stands."""
    def said(m: re.Match) -> str:
        cond, asked, forbidden = m["cond"].strip(), verbs_in(m["asked"]), verbs_in(m["order"])
        if not (state_words_in(cond) or hosts_in(cond) or classes_in(cond)) or verbs_in(cond) or not forbidden \
                or not set(forbidden) <= set(asked):
            return m[0]
        named, order = hosts_in(m["asked"]), m["order"].strip()
        if len(named) == 1:  # ("may we Analyse User2 once it is rooted?": User2 is rooted)
            cond = re.sub(r"\bit\b", named[0], re.sub(r"\bits\b", f"the {named[0]}", cond))
        # (r54b) the answer's "it" / "them" is what the question asked about: said after the situation alone, "Once Op_Server0
        # is rooted: never Restore it" (asked of Enterprise1), it was the situation's host, a move forbidden on the wrong one.
        # One host asked after is named in its place; hosts or a class asked after are left as they stand.
        if _REFERRING.search(order):
            if len(named) == 1:
                order = _REFERRING.sub(named[0], order)
            elif named or classes_in(m["asked"]):
                return m[0]
        return f"{m['when'].capitalize()} {cond}: {order}"
    return _MOVE_REFUSED.sub(said, text or "")


def what_to_do_said(text: str) -> str:
    """(r51m) `text` with a question asking what to do in a situation, and its answer (`_WHAT_TO_DO`, `_WHAT_INSTEAD`),
    said as "When <situation>: <answer>" where the situation states something of a host; else as it stands."""
    def said(m: re.Match) -> str:
        cond = m["cond"].strip()
        if not (state_words_in(cond) or hosts_in(cond) or classes_in(cond) or re.search(r"\b(?:Unknown|Privileged)\b", cond)) \
                or verbs_in(cond):
            return m[0]
        asked = hosts_in(m.groupdict().get("asked") or "")
        if len(asked) == 1:  # ("can we Restore X once its row reads Unknown?": the X row)
            cond = re.sub(r"\bit\b", asked[0], re.sub(r"\bits\b", f"the {asked[0]}", cond))
        return f"{m['when'].capitalize()} {cond}: "
    return _move_refused_said(_WHAT_TO_DO.sub(said, _WHAT_INSTEAD.sub(said, text or "")))


# (r54h) A question that asks whether to make a move, then its answer: "Q: should the box get a Remove? A: no, ...",
# "do we Restore it when it is probed? A: it depends". A denial ("no", "nope", "never", "absolutely not") turns the move
# asked about down; an answer that leaves the matter open ("it depends", "not settled", "undecided", "still under
# discussion") neither orders it nor forbids it. Read as it stood, the move the question named was taken for the order
# (a "do Remove" for "should it get another Remove? No - Analyse it first", the opposite of its words).
_MOVE_ASKED = re.compile(r"(?:^|(?<=[.!;:?\n])\s*)(?:(?:FAQ\s*(?:#\s*)?\d*\s*[.:)]?\s*)?Q\s*\d*\s*[:.]\s*)?"
                         r"(?P<question>(?:should|shall|do|does|can|could|may|must|would|will|is|are)\s[^?]{3,200}?)\?"
                         r"\s*(?:A\s*\d*\s*[:.]\s*)?(?P<answer>[^?]{0,200})", re.IGNORECASE)
# (r56h) A question that names the move with no verb of asking, "Q: a Remove on User3 for a mere probe? A: no, decoy
# it", "Restore User1 now? Nope": elliptical, it still asks whether to make that move, and its answer settles it as
# the full question's would. Said after a "Q:" mark with a move somewhere in it, or opening with the move itself. (Read
# as no question, the move it named was compiled as the order its answer turns down.)
# (r56a: within one sentence, `_ONE_SENTENCE`: spanning a stop, an order said plainly before a question of something
# else, "Restore User1 when it is rooted. Any doubts? No.", was read as asked and turned down, and its order refused)
_ONE_SENTENCE = r"(?:[^?.!;\n]|\.(?=\w))"
_MOVE_ASKED_ELLIPTICAL = re.compile(r"(?:^|(?<=[.!;:?\n])\s*)(?:(?:FAQ\s*(?:#\s*)?\d*\s*[.:)]?\s*)?Q\s*\d*\s*[:.]\s*"
                                    rf"(?P<question>(?={_ONE_SENTENCE}{{0,60}}?{VERB_WORD}){_ONE_SENTENCE}{{3,200}}?)|"
                                    rf"(?P<bare>(?=\s*{VERB_WORD}){_ONE_SENTENCE}{{3,200}}?))"
                                    r"\?\s*(?:A\s*\d*\s*[:.]\s*)?(?P<answer>[^?]{0,200})", re.IGNORECASE)
# (r58l) A merit fronted and then denied, "A no-brainer it is not.", "Good idea, that isn't": the answer turns the move
# down, as "it is not a no-brainer" does (read past its fronting, the no-brainer affirmed the move, or nothing answered).
# Only a merit: a fault fronted and denied, "a mistake it is not", affirms the move, and is left as it was.
# (r58d: only where the denial closes its clause; "Good move, it isn't risky" denies a fault of the move, and praises it)
_MERIT_FRONTED_DENIED = (r"(?:(?:a|an|the)\s+)?(?:(?:total|complete|real|clear)\s+)?(?:no[\s\u2010\u2011-]*brainer|"
                         r"(?:good|great|wise|smart|sensible|safe|right|obvious|clever)\s+(?:idea|move|call|choice|plan|thing(?:\s+to\s+do)?)|"
                         r"worth\s+(?:it|the\s+(?:step|turn|move))),?\s+(?:it|that|this)\s+(?:(?:is|was)\s+not|(?:is|was)n['\u2019]t|"
                         r"ain['\u2019]t)\b(?=\s*(?:[.,;:!\u2013\u2014-]|$))")
_ANSWER_DENIES = re.compile(r"^\W*" + _MERIT_FRONTED_DENIED + r"|^\W*(?:no|nope|never|nah|absolutely\s+not|definitely\s+not|certainly\s+not|not\s+(?:ever|at\s+all))\b" + NO_BRAINER,
                            re.IGNORECASE)
# (r56h) For a question that names its move alone, only a denial standing alone, closed by a stop or the end, as
# `_ANSWERED_NO` takes it: "Remove User3? No doubt: ..." urges the move ("No doubt", "No question", "Not that often").
_ANSWER_DENIES_ALONE = re.compile(r"^\W*" + _MERIT_FRONTED_DENIED + r"|^\W*" + _ANSWER_LEAD + r"(?:no|nope|never|nah|absolutely\s+not|definitely\s+not|certainly\s+not|not\s+(?:ever|at\s+all))"
                                  r"\b" + NO_BRAINER + r"(?=\s*(?:[,.;:!\u2013\u2014\u2192-]|=>|$))", re.IGNORECASE)
_ANSWER_AFFIRMS = re.compile(r"^\W*(?:yes|yep|yeah|yup|absolutely|definitely|certainly|indeed|sure(?:ly)?)\b(?!\s+not\b)|"
                             r"^\W*(?:(?:a|an|total|complete)\s+)*no" + _BRAINER_AFFIRMS, re.IGNORECASE)
_ANSWER_OPEN = re.compile(r"^\W*(?:it\s+)?depends\b|\b(?:not|never|nothing)\s+(?:yet\s+)?(?:settled|decided|agreed)\b|"
                          r"\b(?:undecided|unsettled|unresolved|open\s+question|under\s+discussion|up\s+in\s+the\s+air|tbd)\b",
                          re.IGNORECASE)


# (r55l) The words of a fault a question asks the move of: "is a Restore ever a mistake", "would a Remove be wrong there",
# "is an Analyse a waste of a turn", "is a Restore overkill".
# (r60l) And the harm asked of the move, "would it hurt to Restore User2?", "is there any harm in a Remove?", "could a
# Decoy backfire?": its "yes" says the move does harm (turned down), its "no" that it does none (read as an assent to
# the move, "would it hurt ...? Yes." was stored as the order of the move it turns down).
_FAULT_ASKED = re.compile(r"\b(?:mistakes?|wrong|errors?|bad\s+(?:idea|move|call|choice)|waste(?:ful|d)?|pointless|useless|"
                          r"overkill|premature|excessive|counterproductive|harmful|too\s+(?:early|soon|much|drastic)|"
                          r"hurts?|harm|risky|dangerous|backfire|do\s+(?:any\s+)?damage)\b", re.IGNORECASE)


# (r60d) A "no" that opens a noun and denies nothing: "No doubt (it would)", "No question", "No idea", "No telling", "No
# way to know". After a fault asked ("would it hurt to Restore User2? No doubt."), read as the fault denied, the move the
# answer finds harmful, or leaves unknown, passed as ordered.
_NO_AS_NOUN = re.compile(r"^\W*no\s+(?:doubt|question|idea|clue|telling|way\s+(?:to\s+(?:know|tell)|of\s+knowing)|"
                         r"(?:real\s+)?(?:sense|notion))\b", re.IGNORECASE)


# (r55d) What makes a question more than the fault of a move (`moves_answered`): a merit asked beside it, another side
# set by "or", or the move not made ("not to", "skip", "hold off", "without").
_FAULT_NOT_ALONE = re.compile(r"\b(?:or|useful|right|good|worth\w*|needed|necessary|enough|ok(?:ay)?|fine|wise|smart|best|"
                              r"better|helpful|sensible|not|never|no|skip\w*|hold\w*\s+off|without|instead|delay\w*|"
                              r"forgo\w*|forget\w*|miss\w*|fail\w*|avoid\w*|neglect\w*)\b|n['\u2019]t\b", re.IGNORECASE)


# (r56l) A sentence that asks and what follows it: a question ends at its "?", and an answer, if any, opens the next one.
_ASKED_SENTENCE = re.compile(r"[^.!?]*\?")
# a request said as a question, "could you please Remove ...?", "please, can we ...?": an order (r56d: not "will we ...?",
# "would we ...?", which ask what the team is going to do: "Will we Restore User2 once it is rooted? We will not.")
_REQUEST = re.compile(r"\b(?:please|kindly)\b|^\W*(?:[^,;:?]{0,40}[,;:]\s*)?(?:(?:could|can|would|will)\s+you|(?:could|can)\s+we)\b"
                      r"(?!\s+(?:ever|really|seriously|possibly)\b)", re.IGNORECASE)
_ANSWER_OPENS = re.compile(r"\s*(?:A\s*\d*\s*[:.]|->|=>|\u2192|then\b)", re.IGNORECASE)
# (r59m) A question answered by an order to do what it asked: "a Remove of User2 can't hurt, can it? Do it.", "why not
# decoy Op_Host1 the moment it is scanned? Go ahead and do so." The answer makes the asked move the writer's order (read
# as a question nothing answers, the note was kept semantic and silent where its move was due).
# (r59b) Only an answer that is the whole sentence, "Do it.", "Go ahead!": one that goes on says when or whether instead
# ("Do it only if Enterprise0 is hit too", "Do that when it is rooted instead", "Go ahead and forget it", "Do that and
# red wins"), and read as an assent, the asked move was ordered where the answer moved, narrowed or turned it down.
_ANSWER_ORDERS_IT = re.compile(r"^\W*(?:so\s+|then\s+|just\s+|yes\W+)?(?:(?:go\s+ahead\s+and\s+)?do\s+(?:it|that|this|so)|go\s+ahead"
                               r"|go\s+for\s+it|make\s+it\s+so)\b(?=\s*(?:,?\s*(?:now|please|right\s+away))?\s*(?:[.!]|$))",
                               re.IGNORECASE)


# (r56d) An order or a ban closed by a tag that asks only for assent: "Restore User2 once it is rooted, OK?", "Don't ever
# Remove Op_Server0 while it is scanned, is that clear?", "Remove User3 on an exploit, will you?"; after a ban, also "why
# would you?". The sentence ends at a "?", but what it asks is the tag: the order before it stands (read as a question, a
# plain ban was read as no ban at all, and took no part in a dispute).
_ASSENT_TAG = re.compile(r"(?:,|;|\s[-\u2013\u2014]+|[\u2013\u2014])\s*(?P<tag>(?:ok(?:ay)?|right|yes|yeah|no|alright|all\s+right|agreed|"
                         r"understood|clear|got\s+(?:it|that)|deal|capisce|(?:is|are)\s+(?:that|we)\s+(?:clear|understood|agreed)|"
                         r"(?:do\s+)?you\s+(?:understand|hear\s+me|see)|(?:will|would|can|could|won'?t)\s+you|"
                         r"(?P<mocked>why\s+would\s+(?:you|anyone|we)(?:\s+ever)?))\s*[!?]*\s*\?)\s*$", re.IGNORECASE)
# the order the tag closes: an imperative or a ban first, after a condition put before it if any
_ORDER_FIRST = re.compile(r"^\W*(?:(?:once|when|whenever|if|as\s+soon\s+as|while)\b[^,]*,\s*)?(?:(?:so|now|then|ok(?:ay)?|and|look|well)\W+)?"
                          r"(?:please\W+)?(?:(?P<ban>never|don'?t|do\s+not)\b(?:\s+ever\b)?|(?:always\s+|just\s+|simply\s+)?"
                          r"(?P<first>(?:put|place|deploy|plant|set|drop)\s+(?:\w+\s+){0,2}\w+|[\w-]+))", re.IGNORECASE)


def _assent_tag_away(text: str) -> str:
    """`text` with each order closed by an assent tag (`_ASSENT_TAG`) said as a statement, the tag dropped."""
    def stated(found: re.Match) -> str:
        sentence = found.group(0)
        tag = _ASSENT_TAG.search(sentence)
        order = _ORDER_FIRST.match(sentence[:tag.start()]) if tag else None
        if order is None or not (order["ban"] or verbs_in(order["first"])) or tag["mocked"] and not order["ban"]:
            return sentence
        return sentence[:tag.start()] + "."
    return _ASKED_SENTENCE.sub(stated, text)


def moves_only_asked(text: str) -> frozenset[str]:
    """(r56l) The moves a text names only inside questions that nothing answers ("Should we Restore User2 once it is
    rooted?", "How about a Remove of User3?", "Why would anyone Restore User1 at user level?"): a question orders
    nothing, whether it suggests the move or mocks it, and which it does its words do not settle. (Not a question its
    answer or its order follows, "... rooted? Yes.", "... rooted? -> Restore it", which `moves_answered` and
    `bare_question_said` read.)"""
    text = _assent_tag_away(text or "")
    asked: set[str] = set()
    for found in _ASKED_SENTENCE.finditer(text):
        after = text[found.end():]
        if _ANSWER_OPENS.match(after) or _ANSWER_DENIES.match(after) or _ANSWER_AFFIRMS.match(after) \
                or _ANSWER_OPEN.match(after) or _ANSWER_ORDERS_IT.match(after):
            continue
        if not _REQUEST.search(found.group(0)):
            asked |= set(verbs_in(found.group(0)))
    stated = set(verbs_in(_ASKED_SENTENCE.sub(" ", text)))
    return frozenset(v for v in asked if not any(same_verb(v, s) or same_verb(s, v) for s in stated))


# (r61l) A ban inside a question: "who said never Remove User1?", "since when do we not Restore it?", "why would we never
# Analyse Op_Host0?"
# (not "why not ...?", "why don't we ...?": a move put forward, no ban asked about)
_BAN_ASKED = re.compile(r"(?<!\bwhy\s)\b(?:never|don'?t(?!\s+(?:we|you|i)\b)|do\s+not|does\s+not|doesn'?t|not|no)\b", re.IGNORECASE)


def bans_only_asked(text: str) -> bool:
    """(r61l) Whether every move the text names is named only in questions nothing answers (`moves_only_asked`), each a
    question about a ban of it ("Who said never Remove User1?", "Since when do we never Restore Op_Host2?"): the writer
    asks about the ban, and teaches neither it nor the move. Kept semantic, such a note was injected wherever its host
    was shown, as if it were the ban."""
    asked = moves_only_asked(text or "")
    verbs = set(verbs_in(text or ""))
    if not verbs or not verbs <= asked:
        return False
    questions = [q.group(0) for q in _ASKED_SENTENCE.finditer(_assent_tag_away(text)) if verbs_in(q.group(0))]
    return bool(questions) and all(_BAN_ASKED.search(q) for q in questions)


def moves_answered(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(r54h) The moves questions ask about that their answers turn down, and those they leave open (`_MOVE_ASKED`):
    (denied, left open). A move the answer orders again in its own words is neither."""
    denied: set[str] = set()
    left_open: set[str] = set()
    for found in (*_MOVE_ASKED.finditer(text or ""), *_MOVE_ASKED_ELLIPTICAL.finditer(text or "")):
        question = found.group("question") or found.groupdict().get("bare") or ""
        asked = set(verbs_in(question)) - set(verbs_in(found["answer"]))
        # (r57d) the answer with the question mark that may close it: a no-brainer asked ("A: No-brainer? No.") affirms nothing
        answer = found["answer"] + text[found.end("answer"):found.end("answer") + 1]
        # (r55l) a question that asks whether the move is a mistake ("is a Restore ever wrong once it is rooted?"): its
        # "no" denies the judgement, and leaves the move the right one; read as a move turned down, the order was refused
        # (r55d: only where the fault is all it asks: a question that also asks a merit or sets another side by "or", "is
        # a Restore useful, or a waste? No", or the fault of not making the move, "is it a mistake to skip a Restore?", is
        # answered as before; read as a fault denied, "useful ... or a waste? No" was stored as the order of a Restore)
        if _FAULT_ASKED.search(question) and _ANSWER_DENIES.search(answer) and not _NO_AS_NOUN.match(answer) \
                and not _FAULT_NOT_ALONE.search(question):
            continue
        # (r55e) ... and its "yes" says the move is the fault, "would a Restore be wrong on User2? Yes": turned down (read
        # as the question's move alone, it was disputed as an order of the Restore)
        if _FAULT_ASKED.search(question) and _ANSWER_AFFIRMS.search(answer) \
                and not _FAULT_NOT_ALONE.search(question):
            denied |= asked
            continue
        if (_ANSWER_DENIES_ALONE if found.re is _MOVE_ASKED_ELLIPTICAL else _ANSWER_DENIES).search(answer):
            denied |= asked
        elif _ANSWER_OPEN.search(answer):
            left_open |= asked
    return frozenset(denied), frozenset(left_open)


# (r54h) A move only suggested, with a modal of what is possible: "it might be worth a Restore of Op_Host2", "you could
# perhaps decoy User1", "perhaps an Analyse could help". The writer puts the move forward and orders nothing (as "we might
# decoy it" is no order, forbidding._MODAL_ORDER); read past the hedge, the suggestion was compiled as the order. Not a
# permission ("you may restore it") nor a move the writer could not make ("we could not restore it").
_ONLY_SUGGESTED = re.compile(r"\b(?:might|could)\s+(?:well\s+|also\s+)?(?:be\s+worth|help|work|do\s+the\s+trick|be\s+an?\s+(?:option|idea))\b|"
                             # (the move itself after "we could", "you might perhaps plan": "I could be wrong", "I might be
                             # misreading it" doubt the writer, and suggest nothing)
                             r"\b(?:we|you|i)\s+(?:could|might)(?:\s+(?:perhaps|possibly|maybe|also|just))?\s+"
                             r"(?:(?:plan|put|try|run|use|give|go\s+for|consider|deploy|place|add|do)\s+(?:(?:a|an|the)\s+)?)?"
                             rf"(?={VERB_WORD})|"
                             r"\bworth\s+(?:a\s+(?:try|shot)|trying|considering)\b", re.IGNORECASE)
_SUGGESTION_CLAUSE_END = re.compile(r"[.;!?\n]+")
_QUOTED_SPAN = re.compile(r"(?<![\w'])'[^'\n]{1,120}'(?![\w'])|\"[^\"\n]{1,120}\"|\u201c[^\u201d\n]{1,120}\u201d")


def moves_only_suggested(text: str) -> frozenset[str]:
    """(r54h) The moves a text only suggests (`_ONLY_SUGGESTED`): named in a sentence the hedge is in, and ordered in no
    sentence without one."""
    suggested: set[str] = set()
    firm: set[str] = set()
    # (a suggestion quoted as an example of wording, "never 'we might consider removing it'", is no suggestion of the note's)
    for sentence in _SUGGESTION_CLAUSE_END.split(_QUOTED_SPAN.sub(" ", text or "")):
        (suggested if _ONLY_SUGGESTED.search(sentence) else firm).update(verbs_in(sentence))
    return frozenset(suggested - firm)


# (r54h) A checklist's boxes, one an item: "[ ] keep it short", "- [x] name the host", "\u2610 ...". An item left unticked
# is put forward, not agreed; a list none of whose items is ticked agrees nothing ("Ideas: [ ] ... [ ] ..."). Read as a
# note of the reply's form, it was injected on every call of its role.
_BOX_UNTICKED = re.compile(r"^\s*(?:[-*]\s*)?(?:\[\s?\]|\u2610)", re.MULTILINE)
_BOX_TICKED = re.compile(r"^\s*(?:[-*]\s*)?(?:\[\s?[xX\u2713\u2714]\s?\]|[\u2611\u2612\u2705])", re.MULTILINE)


def nothing_ticked(text: str) -> bool:
    """(r54h) Whether a text is a checklist with no item ticked (`_BOX_UNTICKED`): it agrees nothing."""
    return bool(_BOX_UNTICKED.search(text or "")) and not _BOX_TICKED.search(text or "")


# (r54h) A table's line quoted whole ("Enterprise2: Activity Exploit, Compromised User"), then a condition that points back
# at it: "when I meet that row again", "on that line", "whenever the same row shows". The line is the condition: its host
# at both of its values. Read as no condition at all, a predicate of the host alone passed, and fired on every row of it.
_LINE_QUOTED = re.compile(r"[\"\u201c\u201d'`](?P<line>[A-Za-z_]+\d?\s*:\s*Activity\s+\w+\s*,\s*Compromised\s+\w+)\s*[\"\u201c\u201d'`]",
                          re.IGNORECASE)
_LINE_REFERRED = re.compile(r"\b(?:that|this|the\s+same|such\s+a|a\s+like)\s+(?:line|row|entry|alert|reading)\b", re.IGNORECASE)


def points_back_at_line(condition: str) -> bool:
    """(r54h) Whether a condition is a pointer back at a quoted line and nothing more ("whenever that row shows up")."""
    return bool(_LINE_REFERRED.search(condition or "")) and not state_words_in(condition) and not verbs_in(condition)


def line_referred_back(text: str) -> tuple[tuple[str, str, str], ...]:
    """(r54h) The table line a text quotes (`_LINE_QUOTED`), as (host, activity, compromise), where a later condition
    points back at it (`_LINE_REFERRED`); () where none does, or where the pointer is unclear (`line_pointer_unclear`)."""
    if line_pointer_unclear(text):
        return ()
    quoted = list(_LINE_QUOTED.finditer(text or ""))
    if not quoted or not _LINE_REFERRED.search(text or "", quoted[0].end()):
        return ()
    from forge.rulebook.language.situation import read_situation  # lazy: situation reads the forms of a context

    rows = []
    for found in quoted:
        for host, states in read_situation(f"Alerts:\n{found['line']}").by_host.items():
            rows += [(host, activity, compromise) for activity, compromise in states]
    return tuple(rows)


# (r54a) A pointer back at a quoted line that keeps the line out ("every step, except on that row", "unless that line
# shows", "not on that row"): the line is where the rule does NOT apply. Read as the pointer alone, the line became the
# condition and the rule held there only, the opposite of its words.
_POINTER_DENIED = re.compile(rf"\b(?:{EXCEPT_WORDS}|unless|not|never|no|nor|but|without|save)\b[^.;:!?\n]{{0,30}}$", re.IGNORECASE)


def line_pointer_unclear(text: str) -> bool:
    """(r54a) Whether a pointer back at a quoted line (`_LINE_REFERRED`) cannot be read as that line's condition: the
    pointer keeps the line out (`_POINTER_DENIED` in the words just before it), is said of another host than the line's
    ("such a line on Enterprise0"), or the text quotes more than one line
    ("'A' at step 3 and 'B' at step 9; when that row comes back ...": "that row" is one of them, which the words alone do
    not settle; read as any of them, the rule held on a line it was not written for)."""
    quoted = list(_LINE_QUOTED.finditer(text or ""))
    if not quoted:
        return False
    pointers = list(_LINE_REFERRED.finditer(text or "", quoted[0].end()))
    if not pointers:
        return False
    lines = {re.sub(r"\s+", " ", found["line"].lower()) for found in quoted}
    # (a pointer said of another host, "when such a line shows on Enterprise0", is a line of that kind there, not the
    # line quoted: read as the line, the rule held where the quoted host showed it, and never on the host it names)
    line_hosts = set(hosts_in(" ".join(found["line"] for found in quoted)))
    elsewhere = any(set(hosts_in(re.split(r"[,;.:!?\n]|->", (text or "")[p.end():], maxsplit=1)[0])) - line_hosts for p in pointers)
    # (the quoted lines themselves set apart: their "Compromised No" is a value, no denial)
    return len(lines) > 1 or elsewhere or any(_POINTER_DENIED.search(_LINE_QUOTED.sub(".", (text or "")[:p.start()])) for p in pointers)


def labelled_question_said(text: str) -> str:
    """(r47h) `text` with a labelled question and its answer (`_QUESTION_LABELLED`) said as a note says them, "<situation>?
    -> <answer>", where the question states a situation (as `bare_question_said` reads a bare one); else as it stands."""
    def said(m: re.Match) -> str:
        question = m["question"].strip()
        bare = _BARE_QUESTION.match(f"{question}? then X")
        if bare is None or bare["question"].strip() != question or verbs_in(question) or not (state_words_in(question)
                                                                     or re.search(rf"\b{COUNTED_STATE}", question, re.IGNORECASE)):
            return m[0]
        return f"{question}? -> "
    return _QUESTION_LABELLED.sub(said, text or "")


_JUDGED_MOVE = re.compile(r"[\w-]+\s+(?:is|are|was|were|seems?|looks?|would|will|can|could|might|may|does|did|stays?)\b",
                         re.IGNORECASE)


def bare_question_said(text: str) -> str:
    """(r44c) `text` with a situation asked as a bare question before its order (`_BARE_QUESTION`) said before an arrow,
    as a note says it: "X? then ORDER" -> "X? -> ORDER". Left as it was where the question says no state of a host, or
    no order follows it."""
    def said(m: re.Match) -> str:
        rest = text[m.end():]
        stated = state_words_in(m["question"]) or re.search(rf"\b{COUNTED_STATE}", m["question"], re.IGNORECASE)
        # (an order, not a judgement of a move: "... owned? Sleep is harmless" says what the move is, orders nothing)
        ordered = m["then"] or (IMPERATIVE_START.match(rest) and not _JUDGED_MOVE.match(rest))
        if not stated or not ordered:
            return m[0]
        return f"{m['question'].rstrip()}? -> "
    return _BARE_QUESTION.sub(said, text or "")


# (r46m) The labels of such a form run together on one line, as a compiler's directive flattens its lines ("when: Op_Host2
# at root do: Restore Op_Host2 avoid: Remove Op_Host2"): a label word right before its colon, after a space.
_FORM_KEY_INLINE = re.compile(r"(?:^|(?<=\s))(?P<key>" + "|".join(sorted((re.escape(k) for k in _FORM_KEYS if " " not in k), key=len, reverse=True))
                         + r")\s*:\s+(?=\S)", re.IGNORECASE)


_FILE_NAMED_FIRST = re.compile(r"^\s*(?:#+|//)\s*[\w./-]+\.(?:ya?ml|json|ini|cfg|conf|toml|txt|py)\s+(?=\S)", re.IGNORECASE)


def _form_lines_apart(text: str) -> str:
    """(r46m) A form of labelled lines flattened into one line (`_FORM_KEY_INLINE`), opened by a label and with an order's label
    after it, set back on lines of their own; any other text as it stands."""
    if "\n" in text.strip():
        return text
    # (r50m) after a comment that names the file it came from ("# rules/pivots.yaml hosts: ..."), a note beside the form
    text = _FILE_NAMED_FIRST.sub("", text)
    labels = list(_FORM_KEY_INLINE.finditer(text))
    if len(labels) < 2 or labels[0].start() != len(text) - len(text.lstrip()) \
            or not any(_FORM_KEYS[m["key"].lower()] == "do" for m in labels[1:]):
        return text
    return "\n".join(text[m.start():(labels[i + 1].start() if i + 1 < len(labels) else len(text))].strip()
                     for i, m in enumerate(labels))


# (r50c) A setting of configuration set in backticks that keys a move to a host's state in its name: "`enterprise1.on_user_compromise
# = Remove  # not Restore`" (the host, then the state in words joined by "_", after "on", "when" or "if"; a comment after "#")
_HOST_SETTING = re.compile(r"`\s*(?P<host>[A-Za-z_]+\d)\s*\.\s*(?:on|when|if|upon)_(?P<state>[a-z]+(?:_[a-z]+){0,3})\s*(?:=|:)\s*"
                           r"(?P<move>[A-Za-z]+)\s*(?:#\s*(?P<note>[^`]*?))?\s*`", re.IGNORECASE)


def setting_said(text: str) -> str:
    """(r50c) `text` with a setting of configuration (_HOST_SETTING) said as the rule it sets, "when <host> shows <state>:
    <move> <host>" (and its comment after a comma); any other text as it stands. Left as code, its state was no condition,
    and a predicate that asked the host merely shown passed."""
    def said(m: re.Match) -> str:
        host = next(iter(hosts_in(m["host"])), m["host"])
        note = f", {m['note'].strip()}" if m["note"] and m["note"].strip() else ""
        return f"when {host} shows {m['state'].replace('_', ' ')}: {m['move']} {host}{note}"
    return _HOST_SETTING.sub(said, text or "")


# (r52h) A markdown table of cases, two rows or more, whose last column is the move ("| host | what it shows | move |"): each
# row is a case, "<its other cells> -> <its move>". A cell that repeats the one above ("same", "ditto", "as above", '"')
# says that cell's value; a row whose move cell is empty or a dash is no case (the table gives no move there). Read
# flattened, a ditto row claimed its host shown in any state, and a row with no move was one of the rule's cases: the
# rule fired on the hosts the table left out.
_MOVE_HEADER = re.compile(r"^(?:move|moves|do|action|pick|choose|choice|response|recommend(?:ation)?|plan|order|play|what\s+to\s+do)$",
                          re.IGNORECASE)
_DITTO = re.compile(r"^(?:same|the\s+same|ditto|as\s+above|same\s+as\s+above|\"|\u3003|'')$", re.IGNORECASE)
_NO_MOVE = re.compile(r"^(?:|-+|\u2013|\u2014|none|n/?a|nothing|no\s+move)$", re.IGNORECASE)
# (r56m) A last column of notes beside the move's ("| host | when | move | notes |"): the writer's remarks on a row, no
# part of its case. Read as the last column, the table was no table of cases (its move column was not last), and a
# note's "not" was taken for a turning down of the move.
_NOTE_HEADER = re.compile(r"^(?:notes?|comments?|remarks?|why|reason|rationale)$", re.IGNORECASE)
# (r53l) A cell that gives no value: a dash or "n/a" (an empty cell says nothing and is left out of the case).
_NO_VALUE = re.compile(r"^(?:-+|\u2013|\u2014|n/a)$", re.IGNORECASE)


# (r56b) What makes a writer's note beside a rule (a table's notes column, a form's "note:" line) part of the rule: a
# condition or a time ("unless it is already rooted", "only before Op_Server0 is hit", "except when rooted"), another
# move or a state ("rooted? then Restore instead", "skip this if it is rooted"), a question. Said after the rule as a
# sentence of its own, such a note lost what it points back to ("it"), and the row's move held in the very case the note
# takes out of it. A note that only remarks ("Op_Host2 is listed elsewhere", "costly but worth it") names none of these.
_RESTRICTING_NOTE = re.compile(r"\?|\b(?:if|when|whenever|while|unless|except|excluding|only|once|until|till|before|after|"
                               r"instead|rather|otherwise|provided|skip|avoid|never|wait|hold\s+off)\b", re.IGNORECASE)


def note_restricts(note: str) -> bool:
    """(r56b) Whether a note beside a rule restricts its order (`_RESTRICTING_NOTE`, or a state or a move it names)."""
    return bool(_RESTRICTING_NOTE.search(note) or state_words_in(note) or verbs_in(note))


def table_cases_said(text: str) -> str:
    """(r52h) `text` with a markdown table of cases (`_MOVE_HEADER` its last column, two rows or more) said as one case a
    line, "<cells> -> <move>.": ditto cells filled from the row above, rows with no move left out; a header cell that
    names a host ("Enterprise1 shows") said before its cells. Any other text as it stands."""
    found = _table_apart(text or "")
    if found is None:
        return text
    before, cells, after = found
    header, body = cells[0], cells[2:]
    if any(len(row) != len(header) for row in body):
        return text
    notes: list[str] = []
    if len(header) > 2 and _NOTE_HEADER.match(header[-1].strip(" *_")) and _MOVE_HEADER.match(header[-2].strip(" *_")):
        # (r56m) a column of notes after the move's: said after the cases, each a sentence of its own
        notes = [row[-1].rstrip(" .") for row in body if row[-1] and not _NO_VALUE.match(row[-1])]
        if any(note_restricts(note) for note in notes):
            return text  # (r56b) a note that says when the row's move holds is part of its case, no remark after the cases
        header, body = header[:-1], [row[:-1] for row in body]
    if len(body) < 2 or not _MOVE_HEADER.match(header[-1].strip(" *_")):
        return text
    said, above = [], [""] * len(header)
    for row in body:
        # (r53l) a ditto cell with nothing above it to repeat (in the first row, or under such a cell), or a dash or
        # "n/a" where a state is given: the table says no state there, so the row is no case (read as one, the host was
        # its case in any state)
        unrepeated = any(_DITTO.match(cell) and not above[j] for j, cell in enumerate(row))
        row = [above[j] if _DITTO.match(cell) else cell for j, cell in enumerate(row)]
        above = row
        if unrepeated or _NO_MOVE.match(row[-1]) or any(_NO_VALUE.match(cell) for cell in row[:-1]):
            continue
        situation = " ".join(f"{h} {c}" if hosts_in(h) else c for h, c in zip(header[:-1], row[:-1]) if c)
        said.append(f"{situation} -> {row[-1].rstrip('.')}.")
    return "\n".join(part for part in (before.rstrip(), *said, *(f"{note}." for note in notes), after.strip()) if part)


def _table_apart(text: str) -> Optional[tuple[str, list[list[str]], str]]:
    """(r52h) A markdown table's rows as lists of cells, its header first and its rule second, with the text before and
    after it; its lines as written, or run into one line as a directive flattens them ("| a | b | |---|---| | c | d |",
    where a row's cells are as many as the rule's and rows are parted by one blank cell). None where there is none."""
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if _TABLE_ROW.match(line)]
    if len(rows) >= 3 and rows == list(range(rows[0], rows[0] + len(rows))) and _TABLE_RULE.match(lines[rows[1]]):
        cells = [[c.strip() for c in _TABLE_ROW.match(lines[i])["cells"].split("|")] for i in rows]
        return "\n".join(lines[:rows[0]]), cells, "\n".join(lines[rows[-1] + 1:])
    rule = re.search(r"\|(?:\s*:?-{3,}:?\s*\|)+", text)
    if rule is None:
        return None
    width = len(re.findall(r"-{3,}", rule.group(0)))
    first = text.index("|", text.rfind("\n", 0, rule.start()) + 1)
    last = text.rfind("|")
    if "\n" in text[first:last]:
        return None
    tokens = [t.strip() for t in text[first + 1:last].split("|")]
    if (len(tokens) + 1) % (width + 1) or any(tokens[i] for i in range(width, len(tokens), width + 1)):
        return None
    cells = [tokens[i:i + width] for i in range(0, len(tokens), width + 1)]
    if len(cells) < 3 or not all(re.fullmatch(r":?-{3,}:?", c) for c in cells[1]):
        return None
    return text[:first], cells, text[last + 1:]


def form_lines_said(text: str) -> str:
    """`text` written as labelled lines (_FORM_KEYS) said as one sentence: "When <host> is <state>: <order>, then <next
    move>. Avoid <what>."; any other text as it stands."""
    lines = [line for line in _form_lines_apart(text or "").split("\n") if line.strip()]
    lines, notes = _comments_apart(lines)
    table = _one_row_table(lines)
    if table:
        lines = [f"{key}: {value}" for key, value in table]
    found = [_FORM_LINE.match(line) for line in lines]
    if len(lines) < 2 or not all(found) or any(m["key"].lower() not in _FORM_KEYS for m in found):
        return text
    parts: dict[str, list[str]] = {}
    for m in found:
        parts.setdefault(_FORM_KEYS[m["key"].lower()], []).append(m["value"].rstrip(" .;"))
    if len(parts.get("when", ())) != 1 or len(parts.get("do", ())) != 1 or len(parts.get("host", ())) > 1 \
            or len(parts.get("subnet", ())) > 1:
        return text
    # (r56b) an exception line is read as the hosts it names ("not for: User0, User1"); one that says a state, a time, a
    # class or a condition ("except: when Enterprise0 is rooted", "not for: rooted hosts") is left as written, and so is a
    # note line that restricts the order (note_restricts): said as a sentence after the rule ("Not for rooted hosts."),
    # no reading placed it, and the order held in the very case the line took out
    if any(not _hosts_only(excepted) for excepted in parts.get("except", ())) \
            or any(note_restricts(note) for note in parts.get("note", ())) \
            or any(_SUBNET_LEFT_OUT.search(subnet) for subnet in parts.get("subnet", ())):
        return text
    notes += parts.get("note", [])
    state = " and ".join(p.strip() for p in parts["when"][0].split(",") if p.strip())
    subject = re.sub(r"\s*(?:,|\band\b|&|/)\s*", " or ", parts["host"][0]) if "host" in parts else ""
    if subject and not hosts_in(state):
        state = f"{subject} {'' if _SAID_WITH_VERB.match(state) else 'is '}{state}"
    place = f"On the {parts['subnet'][0]} subnet, w" if "subnet" in parts else "W"
    said = f"{place}hen {state}: {parts['do'][0]}" + "".join(f", then {after}" for after in parts.get("then", ())) + "."
    return said + "".join(f" Avoid {avoided}." for avoided in parts.get("avoid", ())) \
        + "".join(f" Not for {excepted}." for excepted in parts.get("except", ())) \
        + "".join(f" {note[0].upper()}{note[1:]}." for note in notes)


# (r56e) A subnet line that leaves a subnet out ("subnet: any but user", "all except op", "non-user") names the subnets
# the rule is NOT for: said as "On the any but user subnet, ...", it was read as that very subnet, the opposite. Left as
# written, no reading takes it for the rule's place.
_SUBNET_LEFT_OUT = re.compile(r"\b(?:but|except|excluding|exclude|other\s+than|save|bar|not|non|no|besides|apart\s+from|"
                              r"outside|beyond|minus|without)\b", re.IGNORECASE)


def subnets_left_out(text: str) -> tuple[str, ...]:
    """(r56e) The host classes a form's subnet line leaves out (`_SUBNET_LEFT_OUT`: "subnet: any but user" is User,
    "all except op, ent" Operational and Enterprise), each subnet word after the word that leaves them out."""
    out: list[str] = []
    for line in _form_lines_apart(text or "").split("\n"):
        m = _FORM_LINE.match(line)
        if not m or _FORM_KEYS.get(m["key"].lower()) != "subnet" or not (left := _SUBNET_LEFT_OUT.search(m["value"])):
            continue
        for word in re.split(r"\s*(?:,|/|&|\band\b|\bor\b|\bnor\b)\s*", m["value"][left.end():]):
            out += classes_in(f"{word} hosts") if word.strip() else ()
    return tuple(dict.fromkeys(out))


def _hosts_only(value: str) -> bool:
    """(r56b) Whether a form's value names hosts and nothing else ("User0, User1", "the Defender", "E1 & E2"), a remark in
    brackets after them aside ("User0 (the CEO's box)"), where it names no host and restricts nothing (note_restricts)."""
    value = re.sub(r"\s*\((?P<aside>[^()]*)\)\s*$", lambda m: "" if not hosts_in(m["aside"]) and not note_restricts(m["aside"])
                   else m[0], value)
    return bool(hosts_in(value)) and re.fullmatch(r"(?:[\s,/&]|\b(?:the|and|or|nor)\b)*", without_host_names(value)) is not None


# (r50m) A comment in a configuration snippet's lines: a line of its own that opens with "#" or "//" ("# rules/pivots.yaml"),
# or what follows " # " on a labelled line ("action: Restore   # the reason, in a word or two"). It is the writer's note beside the
# form, no line of it: read as one, a form with a comment was no form at all (its labels were left as words, and a class
# its note named was taken for the rule's scope); read into a value, the note was part of the order.
_COMMENT_LINE = re.compile(r"^\s*(?:#+|//)\s*(?P<note>.*?)\s*$")


_TRAILING_COMMENT = re.compile(r"\s+(?:#+|//)\s+(?P<note>\S.*?)\s*$")


def _comments_apart(lines: list[str]) -> tuple[list[str], list[str]]:
    """(r50m) The lines of a form without its comments (`_COMMENT_LINE`, `_TRAILING_COMMENT`), and the comments' notes
    (a note that is only a file's name or path is none)."""
    kept, notes = [], []
    for line in lines:
        whole = _COMMENT_LINE.match(line)
        trailing = None if whole else _TRAILING_COMMENT.search(line)
        note = (whole or trailing)["note"] if whole or trailing else ""
        if note and " " in note.strip():
            notes.append(note.strip().rstrip(" ."))
        if not whole:
            kept.append(line[:trailing.start()] if trailing else line)
    return kept, notes


# (r41h) A footnote: a mark right after a word of the rule ("recommend a Restore.*", "every user host\u2020") and the same
# mark later, on its own before the note ("* User0 excepted", at the start of a line or, flattened, after a space). The note
# is the rule's own, said as a sentence after what it marks; left with its marks ("... a Restore.* * User0 excepted") no
# reading found the exception it states. Not where the text sets words in stars ("*only* user hosts"): that is emphasis.
_FOOTNOTE_REF = re.compile(r"(?<=[\w.!?;:)])(?P<mark>\*{1,3}|\u2020|\u2021)(?=[\s,.;:]|$)")


_EMPHASIS_OPENED = re.compile(r"(?:^|(?<=[\s(]))\*+\w")


# (r55l) One of two named hosts in a state, "but not both": "when one of User1 and User2 is rooted, but not both", "if either
# User3 or User4 gets scanned (not both)". That is exactly one of them (claims._ONE_OF_NAMED reads "exactly one of");
# read without the "not both", which stood in no clause of its own, the rule held where both were, the case its words
# leave out. (r55d) The "not both" ends its clause: "and not both of them clean" (at least one not clean) or "not both at
# once" (of moves) says something else of the two, and, cut there, its rest was glued to the state ("rootedclean") and a
# predicate of both hosts clean passed as the rule's.
_HOST_OR_SHORT = rf"(?:\b{HOST_NAME}\b|\b{HOST_SHORT})"
_NOT_BOTH = re.compile(
    rf"\b(?:(?:(?:exactly|only|just)\s+)?one\s+of\s+(?P<a>{_HOST_OR_SHORT})\s*(?:and|or|/|,)\s*(?P<b>{_HOST_OR_SHORT})|"
    rf"either\s+(?P<c>{_HOST_OR_SHORT})\s+or\s+(?P<d>{_HOST_OR_SHORT}))"
    r"(?P<state>\s+(?:is|are|gets?|got|becomes?|shows?|reads?|was|has\s+been)\s+[^,;.:!?()]{2,60}?|\s+[a-z]+ed\b)"
    r"\s*(?:,\s*|\(\s*)?(?:but\s+|and\s+)?(?:not|never)\s+both(?:\s+of\s+them)?\b(?=\s*(?:[,;.:!?)]|->|\bthen\b|$))(?:\s*\))?",
    re.IGNORECASE)


def not_both_said(text: str) -> str:
    """(r55l) `text` with one of two named hosts in a state "but not both" (`_NOT_BOTH`) said as "exactly one of <a> and <b>
    <state>"; else as it stands."""
    def said(m: re.Match) -> str:
        a, b = (m["a"], m["b"]) if m["a"] else (m["c"], m["d"])
        return f"exactly one of {a} and {b}{m['state'].rstrip()}"
    return _NOT_BOTH.sub(said, text or "")


# (r44m) An example set in parentheses inside a sentence, "op box owned (e.g. OpH1 in seed 3) -> ...", "(for instance
# User2, last run)": the host and run it tells of are the example's, no condition or scope of the rule. Left, its "e.g."
# ended the sentence there and its last words were read as the note's situation.
_EXAMPLE_ASIDE = re.compile(r"\s*\(\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|as\s+in\s+(?:seed|run|episode|game)\b)[^()]*\)",
                            re.IGNORECASE)


# (r55l) An exception said inside the example's parentheses, after it: "(e.g. User1, not User2)", "(for instance User3 but
# never User2)", "(like User0; except User4)". It is the rule's own exception, not the example's: taken away with the
# example, the class the rule is said of held on the host it leaves out.
_EXCEPTION_IN_ASIDE = re.compile(r"[,;]?\s*\b(?:but\s+)?(?:not|never|except(?:\s+for)?|excluding|apart\s+from|other\s+than|save)\s+"
                                 r"[^()]*?(?=\s*\)$)", re.IGNORECASE)


def example_aside_away(text: str) -> str:
    """(r44m) The text without an example it sets in parentheses (`_EXAMPLE_ASIDE`); (r55l) an exception said after the
    example in them (`_EXCEPTION_IN_ASIDE`) is kept, in parentheses of its own."""
    def away(m: re.Match) -> str:
        kept = _EXCEPTION_IN_ASIDE.search(m[0])
        return f" ({kept[0].strip(' ,;')})" if kept and hosts_in(kept[0]) else ""
    return _EXAMPLE_ASIDE.sub(away, text or "")


def footnotes_said(text: str) -> str:
    """`text` with its footnote (_FOOTNOTE_REF) said as a sentence of its own after what it marks, its marks gone; any
    other text as it stands."""
    ref = None if not text or _EMPHASIS_OPENED.search(text) else _FOOTNOTE_REF.search(text)
    note = ref and re.compile(rf"(?:^|(?<=\s)){re.escape(ref['mark'])}[ \t]*(?=\S)").search(text, ref.end())
    if not note:
        return text
    before = (text[:ref.start()] + text[ref.end():note.start()]).rstrip()
    return f"{before if before.endswith(('.', '!', '?', ';', ':')) else before + '.'} {text[note.end():]}"


# (r46m) A note that sets aside another teacher's advice where its own condition holds: "Ignore s3/i01's Remove tip
# when ...: Restore ...", "Disregard dana's decoy rule once ...: plan ...". Who is set aside is no host and no order (read
# as one, "ignore" forbade every move on the host it named, and a teacher's id was taken for a host); the move of that
# advice, where named, is the one put aside for the order after the colon ("instead of a Restore, Remove ...").
_IGNORED_ADVICE = re.compile(r"^\s*(?:ignore|disregard|overrule|override|set\s+aside|(?:do\s+not|don['\u2019]?t)\s+follow)\s+"
                             r"(?P<who>[\w/.-]+?)(?:'s|\u2019s)\s+(?:(?P<what>[\w-]+)\s+)?(?:advice|rule|note|lesson|tip|call|suggestion)s?\b\s*,?\s*"
                             r"(?=(?:when|whenever|if|once|while|as\s+long\s+as)\b[^:]{3,200}:\s*\S)", re.IGNORECASE)


# (r46m) A row's two values quoted as the alerts print them, "reads 'Activity Exploit, Compromised User'": one state (its
# comma inside the quotes ended the condition there, and the compromise was read as an order's words)
_QUOTED_ROW = re.compile(r"(?<!\w)'(?P<activity>Activity\s+\w+)\s*,\s*(?P<compromise>Compromised\s+\w+)'(?!\w)")


# (r46m) And a field of the context quoted with its colon, "say 'Risk: high'", "reads 'Compromised: User'": the colon is the
# field's, no end of the rule's situation (split there, the condition was cut to "'Risk" and read as nothing).
_QUOTED_FIELD = re.compile(r"(?<!\w)'(?P<field>risk|activity|compromised|compromise|host)\s*:\s*(?P<value>[\w.-]+)'(?!\w)", re.IGNORECASE)


def quoted_row_joined(text: str) -> str:
    """(r46m) `text` with a quoted row's two values (`_QUOTED_ROW`) said as one state, and a quoted field (`_QUOTED_FIELD`)
    without its colon."""
    text = _QUOTED_ROW.sub(lambda m: f"{m['activity']} and {m['compromise']}", text or "")
    return _QUOTED_FIELD.sub(lambda m: f"'{m['field']} {m['value']}'", text)


def ignored_advice_said(text: str) -> str:
    """(r46m) `text` with its lead that sets another teacher's advice aside (`_IGNORED_ADVICE`) said as its condition and
    an order against that advice's move; any other text as it stands."""
    found = _IGNORED_ADVICE.match(text or "")
    if found is None:
        return text
    rest = text[found.end():]
    put_aside = verbs_in(found["what"] or "")
    if not put_aside:
        return rest
    colon = rest.index(":")
    return f"{rest[:colon + 1]} instead of a {put_aside[0]}, {rest[colon + 1:].lstrip()}"


# (r50m) An acceptance test written as its lines, "Given <situation>" (and "And ..." lines), "When <the role's turn>",
# "Then <what it does>": the situation is the order's condition and the "Then" its order, as "When <situation>: <order>."
# says them. Read line by line, a "When I plan" line was the condition, its clause ran on over the "Then" and took the
# order's first move with it (the order then named only the later one, and a compilation of both was refused). A
# "When" line that states no host's state is the role's turn, no condition; one that does joins the situation.
# (r50a: not "Then again, ...", the idiom for "on the other hand", no step of a test)
_TEST_LINE = re.compile(r"^\s*(?P<key>given|when|then(?!\s+again\b)|and|but)\b\s*:?\s*(?P<rest>\S.*?)\s*$", re.IGNORECASE)


# "Then the plan is <order>", "Then the chooser picks <order>": the words that say whose answer it is, before the order
_THEN_LEAD = re.compile(r"^(?:the\s+(?:plan|pick|choice|answer|recommendation|suggestion|action|move|(?:action\s+)?chooser|planner|"
                        r"analyst)\s+(?:is|should\s+be|must\s+be|will\s+be|picks|chooses|recommends|suggests|proposes|includes?)|"
                        r"(?:i|we|you|it)\s+(?:should|must|will)\s+(?:plan|pick|choose|recommend|suggest|propose))\s*:?\s+(?=\S)",
                        re.IGNORECASE)


# (r50m) The same test written on one line, its keywords capitalised ("Given <situation> When I plan Then <order>"), as a
# compiler's directive flattens its lines
# (r50a: nor "Then again, ...")
_TEST_INLINE = re.compile(r"(?:^|(?<=[\s.:;]))Given:?\s+(?P<given>[^.;]+?)\s+(?:When:?\s+(?P<when>[^.;]+?)\s+)?Then(?!\s+again\b):?\s+(?P<then>[^.;]+)")


# (r50c) A test's labels with their colons written one after another in sentences ("Case: a calm table. Given: nothing
# flagged. Then: choose Sleep"): each label starts a line of the test, as if written on its own line
_LABEL_AFTER_SENTENCE = re.compile(r"(?<=[.!?;])[ \t]+(?=(?:given|when|then|and|but)[ \t]*:)", re.IGNORECASE)
_LABELLED = {key: re.compile(rf"(?:^|[\s.!?;]){key}[ \t]*:", re.IGNORECASE) for key in ("given", "then")}


def acceptance_test_said(text: str) -> str:
    """(r50m) `text` with an acceptance test's lines (`_TEST_LINE`: a "Given" line first, a "Then" line after) said as one
    sentence, "When <given> [and <when>]: <then>."; any other text as it stands."""
    if all(label.search(text or "") for label in _LABELLED.values()):
        text = _LABEL_AFTER_SENTENCE.sub("\n", text)
    lines = (text or "").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        first = _TEST_LINE.match(lines[i])
        if first is None or first["key"].lower() != "given":
            out.append(lines[i])
            i += 1
            continue
        parts: dict[str, list[str]] = {"given": [], "when": [], "then": []}
        key, j = "", i
        while j < len(lines) and (line := _TEST_LINE.match(lines[j])):
            said = line["key"].lower()
            if said in ("given", "when", "then"):
                if said == "given" and key:
                    break  # (the next test)
                key = said
            parts[key].append(line["rest"].rstrip(" .;"))
            j += 1
        if not parts["then"]:
            out.append(lines[i])
            i += 1
            continue
        stated = [w for w in parts["when"] if hosts_in(w) or classes_in(w) or state_words_in(w)]
        situation = " and ".join(parts["given"] + stated)
        order = " and ".join(_THEN_LEAD.sub("", t) for t in parts["then"])
        out.append(f"When {situation}: {order}.")
        i = j
    return _TEST_INLINE.sub(_test_inline_said, "\n".join(out))


def _test_inline_said(match: re.Match) -> str:
    when = match["when"] or ""
    stated = " and " + when if hosts_in(when) or classes_in(when) or state_words_in(when) else ""
    return f"When {match['given'].strip()}{stated}: {_THEN_LEAD.sub('', match['then'].strip())}"


# (r50m) A configuration file's section for a host, "[user.User1]" (or "[User1]"), with settings of moves under it,
# "restore = never", "remove: no": a setting that turns a move off forbids it on the section's hosts, "Never Restore
# User1."; the comments beside them (";" or "#" lines) are the writer's notes, said after as sentences. Read as it stood,
# the setting was no prohibition (its "never" was a word after a verb's name) and the note's story was the rule's order.
# (r52f: not `setting_said`'s reading, though both read "<name> = <value>": there the name holds a host and a state and
# the value is the move, one setting in backticks inside a sentence, its note after "#", said as an order under a
# condition; here the section names the hosts, the name is the move and the value turns it off, on lines of their own,
# said as prohibitions. They share the "=" alone; one reader of both would read forms neither reads now.)
_SECTION = re.compile(r"^\s*\[(?P<section>[^\[\]]{1,60})\]\s*$")


_SETTING = re.compile(r"^\s*(?P<key>[A-Za-z][\w -]{0,30}?)\s*[=:]\s*[\"']?(?P<value>[A-Za-z]+)[\"']?\s*[;,]?\s*$")


_SETTING_OFF = re.compile(r"^(?:never|no|false|off|disabled?|forbidden|deny|denied|banned|blocked)$", re.IGNORECASE)


_SETTING_COMMENT = re.compile(r"^\s*(?:;+|#+|//)\s*(?P<note>.*?)\s*$")


# (r50a) The words a setting's name may have beside its move's name and still name that move turned on or off ("allow_restore")
_SETTING_ALLOWS = {"allow", "allowed", "enable", "enabled", "permit", "permitted"}


def _move_named_alone(key: str) -> bool:
    """(r50a) Whether a setting's name (`_SETTING`) is its move's name, alone or with a word of allowing ("restore",
    "allow_restore"): "skip_restore = no", "never restore = false" turn the move on, not off, and "restore_if_scanned = no",
    "remove first = no" turn off less than the move (read as "Never <move>", each was the opposite or wider)."""
    words = [w for w in re.split(r"[\s_-]+", key.strip().lower()) if w]
    rest = [w for w in words if not verbs_in(w)]
    return len(words) - len(rest) == 1 and set(rest) <= _SETTING_ALLOWS


# (r58l) An entry of a configuration block commented out ("    # - Enterprise2   # dropped: kept getting re-exploited",
# "; hosts = User1, User2, User3"): a list entry, or a setting whose key a live line of the block sets, after a comment
# mark. Its writer took it out of the rule: read as live, its host was one of the rule's, and its own comment ("kept
# getting re-exploited", "owned for five steps") a history the rule waited on.
_COMMENT_MARK = r"^\s*(?:#+|;+|//)\s*"
_LIST_ENTRY = re.compile(r"^\s*-\s+\S")
_KEY_SET = re.compile(r"^\s*(?P<key>[A-Za-z][\w-]{0,30})\s*[=:](?:\s|$)")


def commented_out_away(text: str) -> str:
    """`text` without the entries of a configuration block its writer commented out: a list entry after a comment mark
    where live lines list entries too, or a setting after one whose key a live line sets; any other text as it stands."""
    lines = (text or "").split("\n")
    live = [line for line in lines if not re.match(_COMMENT_MARK, line)]
    keys = {m["key"].lower() for line in live if (m := _KEY_SET.match(line))}
    listing = any(_LIST_ENTRY.match(line) for line in live)

    def out(line: str) -> bool:
        mark = re.match(_COMMENT_MARK, line)
        if mark is None:
            return False
        rest = line[mark.end():]
        key = _KEY_SET.match(rest)
        return bool(listing and _LIST_ENTRY.match(rest) or key and key["key"].lower() in keys)

    kept = [line for line in lines if not out(line)]
    return "\n".join(kept) if len(kept) < len(lines) else text


def config_section_said(text: str) -> str:
    """(r50m) `text` that is a configuration section for named hosts (`_SECTION`) whose every setting names a move and turns
    it off (`_SETTING`, `_SETTING_OFF`), said as the prohibitions they are, then its comments' notes; any other text as it
    stands."""
    lines = [line for line in (text or "").split("\n") if line.strip()]
    if not lines or not (section := _SECTION.match(lines[0])) or not hosts_in(section["section"]):
        return text
    hosts = " and ".join(hosts_in(section["section"]))
    said, notes = [], []
    for line in lines[1:]:
        if comment := _SETTING_COMMENT.match(line):
            notes.append(comment["note"].rstrip(" ."))
            continue
        setting = _SETTING.match(line)
        verbs = verbs_in(setting["key"]) if setting else ()
        if not setting or len(verbs) != 1 or not _SETTING_OFF.match(setting["value"]) or not _move_named_alone(setting["key"]):
            return text
        said.append(f"Never {verbs[0]} {hosts}.")
    if not said:
        return text
    return " ".join(said + [f"{note[0].upper()}{note[1:]}." for note in notes if note])


# (r50m) A decision tree drawn in text: a question, then its branches, each on a line that opens with a branch mark
# ("├─ ", "└── ", "|-- ", "`- ", or an arrow, "-> ", under the question) and gives the branch's case, an arrow
# (drawn, "──>"), and its move. Each branch is a case of its own, as in a note of cases "<case> -> <order>; <case> ->
# <order>": the branches said after semicolons. Read as drawn, the branches ran together into one clause, a case's "no"
# or "nothing owned" stood in the clause of the move, and no reading placed it.
_BRANCH_MARK = re.compile(r"^\s*(?:[\u251c\u2514]\s*[\u2500\u2014-]*\s*>?|[|`+]\s*[\u2500\u2014-]+\s*>?)\s*(?=\S)")


# (a branch that answers the question, "yes", "no, only scanned": the question is its case, which a note of cases would
# lose; such a tree is left as drawn)
_ANSWER = re.compile(r"^\s*(?:yes|no|yep|nope|true|false)\b", re.IGNORECASE)


_DRAWN_ARROW = re.compile(r"\s*[\u2500\u2014]+>\s*|\s*-{2,}>\s*")


def tree_said(text: str) -> str:
    """(r50m) `text` with a decision tree's branch lines (`_BRANCH_MARK`, two or more after a line that is none, none of
    them a bare answer, `_ANSWER`) said as the cases of a note, each after a semicolon, its drawn arrows as "->"; any other
    text as it stands."""
    lines = (text or "").split("\n")
    marked = [bool(_BRANCH_MARK.match(line)) for line in lines]
    if sum(marked) < 2 or marked[0] or not any(m and not before for before, m in zip(marked, marked[1:])) \
            or any(m and _ANSWER.match(_BRANCH_MARK.sub("", line)) for line, m in zip(lines, marked)):
        return text
    said = []
    for line, branch in zip(lines, marked):
        line = _DRAWN_ARROW.sub(" -> ", line)
        said.append("; " + _BRANCH_MARK.sub("", line).strip() if branch else line)
    return "\n".join(said)


# (r50m) A line of a log or a ticket that opens with its time stamp ("2026-03-02T10:41:07Z chooser picked ...", "[10:41:07]
# ...", "10:41 ...") is an entry of its own: it ends where its line ends. Flattened with the line after it, an entry with
# no final stop ran into the next line's label ("... Compromised No Resolution: ..."), and the entry's state became the
# situation of the resolution's order (its "No" a negation of the rule's condition).
_STAMPED_LINE = re.compile(r"^\s*(?:\[\s*)?(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|"
                           r"\d{1,2}:\d{2}(?::\d{2})?)(?:\s*\])?\s+\S")


def log_lines_said(text: str) -> str:
    """(r50m) `text` with each time-stamped line (`_STAMPED_LINE`) ended with a stop where it has none; any other text as
    it stands."""
    lines = (text or "").split("\n")
    if not any(_STAMPED_LINE.match(line) for line in lines):
        return text
    return "\n".join(line.rstrip() + "." if _STAMPED_LINE.match(line) and not re.search(r"[.!?;:]\s*$", line) else line
                     for line in lines)
