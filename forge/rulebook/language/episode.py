"""When in the episode a rule applies, read from its words: a window of steps, or what the rewards did. Pure.

A rule may hold only for part of an episode: "in the first eight steps", "after step 15", "step 12 or later",
"step 20+", "from step 9 on", "before step 6", "(step 11 or before)", "steps 4-9", "in the last three steps of the
episode (step 28 onwards of 30)". A context states the steps it may be at (situation.Situation.step to
`step_latest`: the Planner's `Step N of M.`; the defender's last recorded step or the one after it; the Analyst's
`Current evidence (step N)`, N or later); the window is then true or false where every step it may be at agrees, and
unknown otherwise or on a context that states no step (the rule stays silent there). This is the one reader of
windows and rewards: the gate's judged conditions (judged.InEpisode) wrap these readings.

What the rewards did is read from the defender's `Recent steps:` line (`-> reward -1.1`, situation.History.actions):
"the latest reward is under -6", "the newest reward came in lower than the previous one", "the rewards were negative
on every one of the past 3 turns", "the past three rewards are all negative", "a drop in the reward", "the reward back at
0 after a loss". It is unknown on a context that states fewer rewards than it needs.

Only windows whose bounds are numbers are read: "late in the episode", "in the last steps" say no step, and a story's
"at step 24 I chose ..." is no condition at all; those stay unread (facts.FACTS' "episode time"), so the rule that
says them is not read whole and stays silent where nothing else decides it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "a couple of": 2, "a few": 3}
# (r43h) A step's number said in words, "from step twenty onward", "before step seven": the bound is the same as in digits
# (left unread, the window was no condition and the rule fired at any step). Up to the usual episode lengths; no "a few".
_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_NUMBER_WORDS = {**{w: n for n, w in enumerate(_UNITS, 1)}, **{w: n for n, w in enumerate(
    ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"), 10)},
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    **{f"{tens} {unit}": base + n for tens, base in (("twenty", 20), ("thirty", 30), ("forty", 40)) for n, unit in enumerate(_UNITS, 1)}}
_COMPOUND = r"(?:twenty|thirty|forty)[\s-](?:" + "|".join(_UNITS) + r")\b"
_AT = r"(?:\d{1,3}|" + _COMPOUND + "|(?:" + "|".join(sorted((w for w in _NUMBER_WORDS if " " not in w), key=len, reverse=True)) + \
    r")\b(?![\s-]+(?:hundred|thousand)))"
_N = r"(?:\d{1,3}|" + "|".join(w.replace(" ", r"\s+") for w in _COUNTS) + r")"
_STEP = r"(?:steps?|turns?)"
_EPISODE = r"(?:\s+of\s+(?:the\s+|an?\s+|this\s+)?(?:episode|game|run|match))?"
# ("early", "late" beside a window in numbers: the numbers say which part of the episode they mean)
# ("prior to step 7 of this game", "from step 13 of the run onwards": the step's episode named)
_OF_EPISODE = _EPISODE
_ADVERB = r"(?:(?:early|late|later)\s*,?\s*)?"
# ("during the opening 8 turns (turn 8 included)", "..., step 8 inclusive": the bound restated, no condition of its own)
_INCLUDED = (r"(?:\s*[(,]?\s*(?:(?:steps?|turns?)\s+\d{1,3}\s+(?:included|inclusive|counts|counted)|(?:including|incl\.?)\s+"
             r"(?:steps?|turns?)\s+\d{1,3}|(?:inclusive|included))\s*\)?)?")


@dataclass(frozen=True)
class EpisodeStep:
    """The context's step lies in [first, last] (None: unbounded on that side); `from_end`: within the episode's last
    n steps (its length as the context states it)."""

    first: Optional[int] = None
    last: Optional[int] = None
    from_end: Optional[int] = None
    outside: bool = False  # the rule does not apply there ("from step 9 on: n/a")
    # (r50g, r50m) a period: the steps `every` apart, `at` past a multiple ("every third step": 3, 6, 9, ..., every=3,
    # at=0; "on steps 2, 5, 8 and so on": every=3, at=2); with `counted` False, a period whose first step the words
    # leave open ("every other turn"): unknown
    every: Optional[int] = None
    at: int = 0
    counted: bool = True

    def truth(self, step: Optional[int], latest: Optional[int], length: Optional[int]) -> Optional[bool]:
        """Whether a context at a step in [step, latest] (latest None: `step` or later) of an episode of `length` steps
        is in the window; None where it cannot tell (situation.Situation.step, `step_latest`, `episode_length`)."""
        inside = self._periodic(step, latest) if self.every is not None else self._inside(step, latest, length)
        return None if inside is None else inside != self.outside

    def _periodic(self, step: Optional[int], latest: Optional[int]) -> Optional[bool]:
        """(r50g, r50m) Whether the context's step is a step of the period: only a period whose steps the words count,
        and a context at a range of steps only where every step of it agrees (an open range never does)."""
        if step is None or latest is None or not self.counted or latest - step > self.every:
            return None
        held = {self._bounds_hold(s) and (s - self.at) % self.every == 0 for s in range(step, latest + 1)}
        return held.pop() if len(held) == 1 else None

    def _inside(self, step: Optional[int], latest: Optional[int], length: Optional[int]) -> Optional[bool]:
        if step is None:
            return None
        if latest is None:  # the step is `step` or later: only a window open above can hold it, one ending before it cannot
            if self.last is not None and step > self.last:
                return False
            inside = None if self.last is not None or (self.first is not None and step < self.first) else True
        else:
            ends = {self._bounds_hold(step), self._bounds_hold(latest)}  # a window is one run of steps: its ends decide
            inside = ends.pop() if len(ends) == 1 else None
        if self.from_end is None or inside is False:
            return inside
        if length is None or latest is None or inside is None:
            return None
        near_end = {step > length - self.from_end, latest > length - self.from_end}
        return near_end.pop() if len(near_end) == 1 else None

    def _bounds_hold(self, step: int) -> bool:
        return (self.first is None or step >= self.first) and (self.last is None or step <= self.last)

    def describe(self) -> str:
        if self.outside:
            return "not " + replace(self, outside=False).describe()
        if self.every is not None:
            if not self.counted:
                return f"every {self.every} steps (from a step the words leave open)"
            first = self.at or self.every
            return f"at every {self.every}th step ({first}, {first + self.every}, ...)"
        if self.from_end is not None:
            return f"in the episode's last {self.from_end} steps"
        if self.first is not None and self.last is not None:
            return f"at steps {self.first} to {self.last}"
        return f"at step {self.first} or later" if self.first is not None else f"at step {self.last} or earlier"


def count_of(word: str) -> int:
    """A count said in digits or words ("12", "eight", "a few"; a step's number, "twenty-four", "seventeen")."""
    if word.isdigit():
        return int(word)
    said = " ".join(word.lower().replace("-", " ").split())
    return _COUNTS[said] if said in _COUNTS else _NUMBER_WORDS[said]


# (r50g) An ordinal of the step, "every third step", "each 4th turn", "every 3 steps": the steps counted from the episode's
# first, a multiple of it; "every other turn", "every second step or so" leave open which of two they start at.
_ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
_ORDINAL = r"(?:" + "|".join(_ORDINALS) + r"|\d{1,2}(?:st|nd|rd|th))"
# (r50m) A list of steps said to go on: "5, 10, 15 and so on", "2, 4, 6, ...", "(3, 6, 9, ...)" after "every third step"
_STEP_LIST = (r"(?P<list>\d{1,3}(?:\s*,\s*\d{1,3}){1,}(?:\s*,?\s*(?:and|&)\s+\d{1,3})?)"
              r"\s*,?\s*(?:and\s+so\s+on|and\s+so\s+forth|etc\.?|\.\.\.|\u2026)")


def _ordinal(word: str) -> int:
    word = word.lower()
    return _ORDINALS[word] if word in _ORDINALS else int(re.match(r"\d+", word).group(0))


def _stride(listed: str) -> Optional[tuple[int, int]]:
    """(r50m) (every, first) of a list of steps in one stride of two or more; None for any other list."""
    steps = [int(n) for n in re.findall(r"\d{1,3}", listed)]
    strides = {b - a for a, b in zip(steps, steps[1:])}
    return (strides.pop(), steps[0]) if len(strides) == 1 and min(strides) >= 2 else None


def _listed_period(m: re.Match) -> EpisodeStep:
    """(r50g, r50m) "on turns 5, 10, 15 and so on", "on steps 2, 5, 8, ...": the period of the list's one stride; a list
    in no one stride is a period whose steps the words do not count."""
    listed = _stride(m["list"])
    return EpisodeStep(every=listed[0], at=listed[1] % listed[0]) if listed else EpisodeStep(every=2, counted=False)


def _ordinal_period(m: re.Match) -> Optional[EpisodeStep]:
    """(r50g, r50m) "every third step", with its steps listed after it "(3, 6, 9, ...)": a list that disagrees with the
    ordinal makes no window."""
    every = _ordinal(m["o"])
    if not m["list"]:
        return EpisodeStep(every=every)
    listed = _stride(m["list"])
    return EpisodeStep(every=every, at=listed[1] % every) if listed and listed[0] == every else None


# A step of the episode named by its place, "on the opening turn of a game", "at the very first step", "in the episode's
# final step": one step (not a plan's or a sequence's first step, "as a first step", "the first step of the plan").
_WHICH_STEP = r"(?P<which>first|opening|initial|very\s+first|last|final|closing|very\s+last)"
_STEP_PLACE = (rf"\b(?:on|at|in|during|for)\s+(?:the\s+|an?\s+|this\s+)?(?:(?:episode|game|run|match)(?:'|\u2019)s\s+)?{_WHICH_STEP}\s+(?:step|turn)"
               rf"(?!s)(?:\s+of\s+(?:the\s+|an?\s+|this\s+|each\s+|every\s+)?(?:episode|game|run|match)\b)?"
               rf"(?!\s+(?:of|in)\s+(?:the|a|an|my|your|our|its|this|that|each|every)\s+(?:plan|sequence|list|order|answer|reply|chain|routine|playbook))"
               # (r50c) nor a story's: "at the first step of seed 1003", "on the opening turn I chose ..."
               rf"(?!\s+of\s+(?:seed|run|game|episode|match)\s*#?\s*\d)(?!\s*#?\s*\d)(?!\s*,?\s*(?:i|we|my|our)\b)")


def _step_place(m: re.Match) -> EpisodeStep:
    return EpisodeStep(1, 1) if m["which"].split()[-1].lower() in ("first", "opening", "initial") else EpisodeStep(from_end=1)


_FIRST_STEP = re.compile(_STEP_PLACE, re.IGNORECASE)


# (r50a) A window said as the exception, "Analyse it on every turn except every third turn", "but not on steps 4-9",
# "apart from the opening turn of a game": the steps the rule does not reach, as "n/a" after a window says (read as
# said, the rule held at the very steps its words set aside, and at no other).
# (r59b) And a window denied by a "not" / "never" right before it, "... scanned. Never in the first two steps.", "PS: not
# on the first step": the rule's limit, its steps the ones ruled out (read as said, the rule held at those steps alone).
_EXCEPTED_BEFORE = re.compile(r"\b(?:except(?:ing)?(?:\s+for)?|apart\s+from|other\s+than|save\s+for|excluding|but\s+not|outside(?:\s+of)?|"
                              r"(?<![\w'\u2019-])(?:never|not)(?:\s+(?:ever|even))?)"
                              r"\s*(?:(?:on|at|during|in|for)\b\s*)?(?:the\b\s*)?$", re.IGNORECASE)


def _episode_step_place(text: str) -> list[tuple[int, int, EpisodeStep]]:
    """(r50g) The steps named by their place: a first step alone ("on the opening turn") is the episode's; a last one only
    where the episode is named ("at the final turn of the game"): "analysed at the last step" is the step before, history."""
    found = []
    for m in _FIRST_STEP.finditer(text or ""):
        window = _step_place(m)
        if window.from_end is not None and not re.search(r"\b(?:episode|game|run|match)\b", m.group(0), re.IGNORECASE):
            continue
        found.append((m.start(), m.end(), replace(window, outside=True) if _EXCEPTED_BEFORE.search(text[:m.start()]) else window))
    return found


# Each form: a pattern, and how its numbers make a window. Checked longest first; each match is read once.
_FORMS: tuple[tuple[re.Pattern, object], ...] = tuple((re.compile(p, re.IGNORECASE), f) for p, f in (
    # (r50g) "on turns 5, 10, 15 and so on", "at steps 4, 8, 12, ...": a period said by its first steps
    (rf"\b(?:on|at|in|during)\s+{_STEP}\s+{_STEP_LIST}", _listed_period),
    # (r50g, r50m) "every third step", "each 4th turn", "on every 5th step (5, 10, 15, ...)", "every three steps"
    (rf"\b(?:on\s+|at\s+)?(?:every|each)\s+(?P<o>{_ORDINAL})\s+(?:step|turn)\b{_EPISODE}"
     rf"(?:\s*\(\s*(?:{_STEP}\s+)?{_STEP_LIST}\s*\))?",
     _ordinal_period),
    (rf"\bevery\s+(?P<n>{_N})\s+(?:steps|turns)\b{_EPISODE}",
     lambda m: EpisodeStep(every=count_of(m["n"]))),
    # "every other step", "on alternate turns": which of the two steps it starts at is not said
    (r"\b(?:every\s+other|on\s+alternate|every\s+alternate)\s+(?:steps?|turns?)\b",
     lambda m: EpisodeStep(every=2, counted=False)),
    # "on even steps", "at odd-numbered turns"
    (r"\b(?:on|at|in|during)\s+(?:the\s+|all\s+)?(?P<parity>even|odd)(?:[\s-]numbered)?\s+(?:steps|turns)\b",
     lambda m: EpisodeStep(every=2) if m["parity"].lower() == "even" else EpisodeStep(every=2, outside=True)),
    # "steps 4-9", "steps 4 to 9", "between step 4 and step 9", "from step 4 through 9"
    # (r39g: "turns 3-9 of the game", its episode named after the range, as the single bounds below allow)
    (rf"\b(?:between|from)?\s*{_STEP}\s+(?!{_COMPOUND})(?P<a>{_N})\s*(?:-|–|to|through|and|until|till)\s*(?:{_STEP}\s+)?(?P<b>{_COMPOUND}|{_N})\b"
     rf"{_OF_EPISODE}(?:\s+(?:inclusive|included))?",
     lambda m: EpisodeStep(count_of(m["a"]), count_of(m["b"]))),
    # "in the first eight steps (step 8 included)", "during the opening 5 turns of the episode"
    (rf"\b(?:in|during|for|within|over)?\s*(?:the\s+)?(?:first|opening)\s+(?P<a>{_N})\s+{_STEP}{_EPISODE}"
     rf"{_INCLUDED}",
     lambda m: EpisodeStep(1, count_of(m["a"]))),
    # "in the last three steps of the episode (step 28 onwards of 30)": the numbers in brackets say the same window
    (rf"\b(?:in|during|for|within|over)?\s*(?:the\s+)?(?:last|final|closing)\s+(?P<a>{_N})\s+{_STEP}{_EPISODE}"
     rf"\s*\(\s*{_STEP}\s+(?P<b>\d{{1,3}})\s*(?:\+|onwards?|or\s+later|and\s+later|on)\s*(?:of\s+(?P<len>\d{{1,3}}))?\s*\)",
     lambda m: EpisodeStep(count_of(m["b"]))),
    (rf"\b(?:in|during|for|within|over)?\s*(?:the\s+)?(?:last|final|closing)\s+(?P<a>{_N})\s+{_STEP}\s+of\s+(?:the\s+|an?\s+|this\s+)?"
     r"(?:episode|game|run|match)\b",
     lambda m: EpisodeStep(from_end=count_of(m["a"]))),
    # "in the episode's last 5 steps", "the game's final four turns": the episode named before them, as after ("the last
    # 3 steps" alone are the recent ones, history, no window)
    (rf"\b(?:the\s+|this\s+)?(?:episode|game|run|match)(?:'|\u2019)s\s+(?:last|final|closing)\s+(?P<a>{_N})\s+{_STEP}\b",
     lambda m: EpisodeStep(from_end=count_of(m["a"]))),
    # "step 12 or later", "step 12 and after", "step 12 onwards", "from step 12 on", "step 20+", "at or after step 9"
    (rf"\b{_ADVERB}\(?\s*(?:from\s+|at\s+)?{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*(?:\+|or\s+(?:later|after|beyond)|and\s+(?:later|after|beyond)|"
     rf"onwards?|forwards?|and\s+up\b|on(?=\s*(?:[:,;.)\-]|->|$))|and\s+on)\s*\)?",
     lambda m: EpisodeStep(count_of(m["a"]))),
    (rf"\b{_ADVERB}\(?\s*(?:after|past|beyond)\s+{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*\)?",
     lambda m: EpisodeStep(count_of(m["a"]) + 1)),
    (rf"\b{_ADVERB}\(?\s*(?:at\s+or\s+after|from|starting\s+at|as\s+of)\s+{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*\)?",
     lambda m: EpisodeStep(count_of(m["a"]))),
    # "step 12 or before", "step 12 or earlier", "up to step 12", "no later than step 12", "(step 12 at the latest)"
    (rf"\b{_ADVERB}\(?\s*{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s+(?:or\s+(?:before|earlier|sooner)|and\s+(?:before|earlier)|at\s+the\s+latest)\s*\)?",
     lambda m: EpisodeStep(None, count_of(m["a"]))),
    (rf"\b{_ADVERB}\(?\s*(?:up\s+to(?:\s+and\s+including)?|through|no\s+later\s+than|at\s+or\s+before)\s+{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*\)?",
     lambda m: EpisodeStep(None, count_of(m["a"]))),
    # "before step 6", "b4 step 6", "earlier than step 6", "until step 6"
    (rf"\b{_ADVERB}\(?\s*(?:before|b4|earlier\s+than|prior\s+to|up\s+until|until|till)\s+{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*\)?",
     lambda m: EpisodeStep(None, count_of(m["a"]) - 1)),
    # "later than step 6" (after "no later than step 6" is read, above)
    (rf"\b{_ADVERB}\(?\s*later\s+than\s+{_STEP}\s+(?P<a>{_AT}){_OF_EPISODE}\s*\)?",
     lambda m: EpisodeStep(count_of(m["a"]) + 1)),
))


# A window said not to be the rule's ("from step 9 on: n/a", "after step 20 this does not apply"): where it does not apply.
_NOT_HERE = re.compile(r"\s*(?:[,:=\-\u2013\u2014]|->)?\s*(?:n/?a\b|not\s+applicable\b|(?:it\s+|this\s+)?(?:does\s+not|doesn't)\s+apply\b|"
                       r"not\s+(?:this|the|my)\s+(?:note|rule|lesson|one)\b|ignore\s+(?:it|this|the\s+(?:note|rule))\b|"
                       # (r41m) "after step 6 the usual notes take over", "..., the other rules apply": the window
                       # this rule hands over to others, so outside it
                       r"(?:the\s+|our\s+|my\s+)?(?:usual|other|regular|normal|standard|default|general)\s+(?:[\w/-]+\s+){0,3}?"
                       r"(?:notes?|rules?|lessons?|playbook|guidance)\s+(?:take\s+over|apply|govern|decide|hold)\b|"
                       r"(?:this|the|my)\s+(?:note|rule|lesson)\s+(?:is\s+void|lapses|expires|ends|stops(?:\s+applying)?)\b)",
                       re.IGNORECASE)


# "before step 10 (step 10 included)", "after step 4, including step 4": the bound's own step is in the window
_BOUND_INCLUDED = re.compile(r"\s*[(,]?\s*(?:(?:step|turn)\s+(?P<n>\d{1,3})\s+(?:included|inclusive)|including\s+(?:step|turn)\s+(?P<m>\d{1,3}))"
                             r"\s*\)?", re.IGNORECASE)


def _bound_included(window: EpisodeStep, text: str, end: int) -> tuple[EpisodeStep, int]:
    """The window with its bound's own step in, where the text says so right after it (else as it was)."""
    if (m := _BOUND_INCLUDED.match(text, end)) is None:
        return window, end
    n = int(m["n"] or m["m"])
    if window.last == n - 1:
        return replace(window, last=n), m.end()
    if window.first == n + 1:
        return replace(window, first=n), m.end()
    return window, end


_OF_LENGTH = re.compile(r"\s*\bof\s+\d{1,3}(?:\s+(?:steps|turns))?\b", re.IGNORECASE)


# (r60m) The window's steps glossed in brackets right after it, "in the closing four turns of the game (27-30)", "in
# the first three steps (1-3)": the same window said in numbers (left over, the gloss was a condition no reading placed,
# and a rule held in that window was kept semantic). Only a gloss that agrees with the window (as many steps, or the same
# bounds) is read as part of it.
_GLOSSED_STEPS = re.compile(r"\s*\(\s*(?:(?:steps?|turns?)\s+)?(?P<first>\d{1,3})\s*(?:to|-|\u2013|through|thru)\s*(?P<last>\d{1,3})"
                            r"(?:\s+(?:inclusive|included))?\s*\)", re.IGNORECASE)


def _glossed_end(window: EpisodeStep, text: str, end: int) -> int:
    """Where a window ends with its gloss in brackets (`_GLOSSED_STEPS`), if the gloss agrees with it; else `end`."""
    if (m := _GLOSSED_STEPS.match(text, end)) is None:
        return end
    first, last = int(m["first"]), int(m["last"])
    agrees = (window.first, window.last) == (first, last) if window.from_end is None \
        else window.first is None and window.last is None and last - first + 1 == window.from_end
    return m.end() if agrees else end


def _found(text: str) -> list[tuple[int, int, EpisodeStep]]:
    """(start, end, window) of every window the text states, none overlapping another (the first form to match wins)."""
    # (r50g) "on the opening turn of a game", "at the final turn of the game"
    taken: list[tuple[int, int, EpisodeStep]] = _episode_step_place(text)
    for pattern, make in _FORMS:
        for m in pattern.finditer(text or ""):
            start, end = m.start(), m.end()
            if m.group(0).strip() and not any(s < end and start < e for s, e, _ in taken):
                if (made := make(m)) is None:
                    continue  # (r50m) a form whose numbers make no window (a list of steps in no one stride)
                window, end = _bound_included(made, text, end)
                if (length := _OF_LENGTH.match(text, end)) is not None:
                    end = length.end()  # ("step 33 or later of 40": the episode's length, said with the bound)
                end = _glossed_end(window, text, end)
                if (denied := _NOT_HERE.match(text, end)) is not None:
                    window, end = replace(window, outside=True), denied.end()
                elif _EXCEPTED_BEFORE.search(text[:start]):
                    window = replace(window, outside=True)  # (r50a) "except every third turn": the steps it is not
                taken.append((start, end, window))
    return sorted(taken, key=lambda t: t[0])


def step_windows(text: str) -> tuple[EpisodeStep, ...]:
    """The windows of steps a text states ("after step 15", "in the first eight steps"), in order, each once."""
    return tuple(dict.fromkeys(w for _, _, w in _found(text)))


def without_step_windows(text: str) -> str:
    """The text with the windows it states left out (what remains is read as ever)."""
    out, at = [], 0
    for start, end, _ in _found(text):
        out.append(text[at:start])
        out.append(" ")
        at = end
    out.append((text or "")[at:])
    return re.sub(r"\(\s*\)|,\s*(?=[,:;])", " ", "".join(out))


# -- rewards ------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RewardTrend:
    """What the latest rewards did: `below` / `above` a value (the latest one), `negative` (each of the last `count`),
    `fell` (the latest under its predecessor), or `recovered` (the latest at zero or more after a negative one)."""

    kind: str
    count: int = 1
    value: Optional[float] = None

    def truth(self, rewards: Optional[tuple[float, ...]]) -> Optional[bool]:
        """On the rewards a context states, oldest first (None or too few: unknown)."""
        needed = 2 if self.kind in ("fell", "recovered") else self.count
        if rewards is None or len(rewards) < needed:
            return None
        last = rewards[-needed:]
        if self.kind == "fell":
            return last[1] < last[0]
        if self.kind == "recovered":
            return last[1] >= 0 > last[0]
        if self.kind == "negative":
            return all(r < 0 for r in last)
        # (each of the last `count`: one for "the latest reward under -8")
        return all(r < self.value for r in last) if self.kind == "below" else all(r > self.value for r in last)

    def describe(self) -> str:
        if self.kind == "fell":
            return "the latest reward lower than the one before"
        if self.kind == "recovered":
            return "the latest reward back at 0 after a negative one"
        if self.kind == "negative":
            return f"each of the last {self.count} rewards negative"
        if self.count > 1:
            return f"each of the last {self.count} rewards {self.kind} {self.value:g}"
        return f"the latest reward {self.kind} {self.value:g}"


_VALUE = r"(?P<x>[-+\u2212]?\s?\d+(?:\.\d+)?)"
_REWARD = r"(?:rewards?|rews?|scores?)"  # ("rew back at +0.0": a note's shorthand)
_LATEST = r"(?:the\s+)?(?:latest|last|most\s+recent|newest|current|step'?s)\s+(?:step'?s?\s+)?" + _REWARD
_IS = r"(?:\s+(?:is|was|has\s+been|sits|stands|comes\s+in|came\s+in)(?:\s+(?:still|already|now))?)?"
_BELOW = r"(?:below|under|beneath|less\s+than|lower\s+than|worse\s+than|smaller\s+than)"
_ABOVE = r"(?:above|over|more\s+than|greater\s+than|higher\s+than|better\s+than)"
_BEFORE_IT = r"(?:the\s+one\s+before(?:\s+it)?|the\s+(?:previous|prior|preceding)(?:\s+(?:one|reward|step'?s?(?:\s+reward)?))?|the\s+reward\s+before(?:\s+it)?|(?:the\s+reward|that)\s+of\s+the\s+step\s+before)"


def _value(m: re.Match) -> float:
    return float(m["x"].replace("\u2212", "-").replace(" ", ""))


_REWARD_FORMS: tuple[tuple[re.Pattern, object], ...] = tuple((re.compile(p, re.IGNORECASE), f) for p, f in (
    # (r39m) each of the last few rewards past a value: "the past 3 rewards are all under -5", "the last 2 scores both
    # above -1" (read as no condition, the rule was kept silent)
    (rf"\b(?:the\s+)?(?:last|latest|most\s+recent|past|previous)\s+(?P<n>{_N})\s+{_REWARD}\s+(?:(?:are|were|have\s+been|stayed|"
     rf"remained)\s+)?(?:both\s+|all\s+|each\s+)?{_BELOW}\s+{_VALUE}(?![\w.])", lambda m: RewardTrend("below", count_of(m["n"]), _value(m))),
    (rf"\b(?:the\s+)?(?:last|latest|most\s+recent|past|previous)\s+(?P<n>{_N})\s+{_REWARD}\s+(?:(?:are|were|have\s+been|stayed|"
     rf"remained)\s+)?(?:both\s+|all\s+|each\s+)?{_ABOVE}\s+{_VALUE}(?![\w.])", lambda m: RewardTrend("above", count_of(m["n"]), _value(m))),
    (rf"\b{_LATEST}{_IS}\s+{_BELOW}\s+{_BEFORE_IT}", lambda m: RewardTrend("fell")),
    (r"\b(?:the\s+)?reward\s+(?:drops|dropped|falls|fell|has\s+(?:dropped|fallen)|goes\s+down|went\s+down)\b"
     r"(?!\s+(?:by|below|under|to|from|beneath)\b)", lambda m: RewardTrend("fell")),
    (rf"\b{_LATEST}{_IS}\s+{_BELOW}\s+{_VALUE}(?![\w.])", lambda m: RewardTrend("below", 1, _value(m))),
    (rf"\b{_LATEST}{_IS}\s+{_ABOVE}\s+{_VALUE}(?![\w.])", lambda m: RewardTrend("above", 1, _value(m))),
    (rf"\b(?:the\s+)?rewards?\s+(?:has\s+been|have\s+been|was|were|is|are|stayed|remained)\s+negative\s+(?:at|on|in|for)\s+"
     rf"(?:each|every|all)(?:\s+one)?\s+(?:of\s+)?(?:the\s+)?(?:last|past|previous)\s+(?P<n>{_N})\s+{_STEP}(?:\s+in\s+a\s+row)?",
     lambda m: RewardTrend("negative", count_of(m["n"]))),
    (rf"\b(?:the\s+)?(?:last|past|latest|previous)\s+(?P<n>{_N})\s+rewards\s+(?:are|were|have\s+been)\s+(?:both\s+|all\s+)?negative\b",
     lambda m: RewardTrend("negative", count_of(m["n"]))),
    (rf"\b{_LATEST}{_IS}\s+negative\b", lambda m: RewardTrend("negative", 1)),
    # "the last two rewards have both been negative", "three negative rewards in a row"
    (rf"\b(?:the\s+)?(?:last|latest|most\s+recent|past)\s+(?P<n>{_N})\s+{_REWARD}\b[^.;]{{0,40}}?\b(?:both\s+|all\s+)?negative\b|"
     rf"\b(?P<k>{_N})\s+negative\s+{_REWARD}\s+in\s+a\s+row\b", lambda m: RewardTrend("negative", count_of(m["n"] or m["k"]))),
    # "a drop in the reward", "the score went down"
    (rf"\b{_REWARD}\s+(?:fell|dropped|falls|drops|went\s+down)\b(?!\s+(?:below|under|beneath|to)\b)|"
     rf"\b(?:a\s+)?(?:fall|drop)\s+in\s+the\s+{_REWARD}\b", lambda m: RewardTrend("fell")),
    # "the reward back at 0 after a loss", "rew back to +0.0"
    (rf"(?:\b{_LATEST}|\b{_REWARD})\s+(?:is\s+|was\s+|comes\s+|came\s+|goes\s+|went\s+)?back\s+(?:at|to)\s+\+?0(?:\.0+)?\b"
     rf"(?:\s+after\s+(?:an?\s+|the\s+|some\s+)?(?:negative\s+{_REWARD}|negatives?|loss(?:es)?)(?:\s+before\s+it)?)?",
     lambda m: RewardTrend("recovered")),
    # "the reward falls below -4"
    (rf"\b{_REWARD}\s+(?:drops?|dropped|falls?|fell|goes|went|is|sits?)\s+{_BELOW}\s+{_VALUE}(?![\w.])",
     lambda m: RewardTrend("below", 1, _value(m))),
))

# (a negation inside the phrase, "the last two rewards were not both negative", is no such condition)
_INNER_DENIAL = re.compile(r"\b(?:not|no|never|nor)\b|n't\b", re.IGNORECASE)


def _rewards_found(text: str) -> list[tuple[int, int, RewardTrend]]:
    taken: list[tuple[int, int, RewardTrend]] = []
    for pattern, make in _REWARD_FORMS:
        for m in pattern.finditer(text or ""):
            if not any(s < m.end() and m.start() < e for s, e, _ in taken) and not _INNER_DENIAL.search(m.group(0)):
                taken.append((m.start(), m.end(), make(m)))
    return sorted(taken, key=lambda t: t[0])


def episode_claims(text: str) -> tuple:
    """The windows of steps and the trends of rewards a text states, in order, each once."""
    found = [(s, w) for s, _, w in _found(text)] + [(s, r) for s, _, r in _rewards_found(text)]
    return tuple(dict.fromkeys(w for _, w in sorted(found, key=lambda t: t[0])))


def without_episode_claims(text: str) -> str:
    """The text without the windows of steps and the trends of rewards it states."""
    text = without_step_windows(text or "")
    out, at = [], 0
    for start, end, _ in _rewards_found(text):
        out += [text[at:start], " "]
        at = end
    return "".join(out) + text[at:]
