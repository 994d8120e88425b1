"""The CAGE-2 vocabulary: hosts, host classes, the blue table's values, verbs, and the 145 blue actions
(ChallengeWrapper order) with a tolerant text parser for them.

The one place these names are defined: the environment, the rule grammar, the rule language and the
reply schemas import them (the surrogate model keeps its own, deliberately independent wording).
The action order mirrors CybORG's EnumActionWrapper: Sleep, Monitor, then one 13-host block per host
verb. A test checks every id against the real environment's `possible_actions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from forge.errors import ForgeError

HOSTS: tuple[str, ...] = (
    "Defender",
    "Enterprise0",
    "Enterprise1",
    "Enterprise2",
    "Op_Host0",
    "Op_Host1",
    "Op_Host2",
    "Op_Server0",
    "User0",
    "User1",
    "User2",
    "User3",
    "User4",
)

# Host classes as a rule may name them ("When a User host shows ...").
HOST_CLASSES: dict[str, tuple[str, ...]] = {
    "User": tuple(h for h in HOSTS if h.startswith("User")),
    "Enterprise": ("Enterprise0", "Enterprise1", "Enterprise2", "Defender"),
    "Operational": tuple(h for h in HOSTS if h.startswith("Op_")),
}


def hosts_of(names: Iterable[str]) -> set[str]:
    """The hosts a list of names covers: each class name as its hosts, a host's name as itself."""
    return {h for n in names for h in (HOST_CLASSES.get(n) or (n,))}


# The subnets (the classes above) in the order the red agent crosses them: a rule's "next hop".
ATTACK_PATH: tuple[str, ...] = ("User", "Enterprise", "Operational")
# The words a text uses for a class ("a user host", "the op hosts").
CLASS_WORDS: dict[str, str] = {**{c.lower(): c for c in HOST_CLASSES}, "op": "Operational"}

# The blue table's two columns, as CybORG's BlueTableWrapper writes them; the first value of each is quiet.
ACTIVITIES: tuple[str, ...] = ("None", "Scan", "Exploit")
COMPROMISE_LEVELS: tuple[str, ...] = ("No", "Unknown", "User", "Privileged")
QUIET_ACTIVITY, QUIET_COMPROMISE = ACTIVITIES[0], COMPROMISE_LEVELS[0]

DECOY_SERVICES: tuple[str, ...] = (
    "Apache",
    "Femitter",
    "HarakaSMPT",
    "Smss",
    "SSHD",
    "Svchost",
    "Tomcat",
    "Vsftpd",
)

GLOBAL_VERBS: tuple[str, ...] = ("Sleep", "Monitor")
HOST_VERBS: tuple[str, ...] = ("Analyse", "Remove", *(f"Decoy{s}" for s in DECOY_SERVICES), "Restore")
VERBS: tuple[str, ...] = GLOBAL_VERBS + HOST_VERBS

VERB_MEANING: dict[str, str] = {
    "Sleep": "do nothing",
    "Monitor": "collect events (the environment already monitors every step)",
    "Analyse": "inspect a host's files for malware; reveals privileged compromise",
    "Remove": "kill the attacker's user-level processes on a host; fails against privileged access",
    "Restore": "reimage a host to its clean baseline; removes all access; costs -1",
    "Decoy": "start a fake service on a host; an attacker exploiting it is detected and blocked",
}


class ActionParseError(ForgeError, ValueError):
    """Text that names no valid blue action; the message lists what would have been valid."""


@dataclass(frozen=True)
class BlueAction:
    id: int
    verb: str
    host: Optional[str]

    def __str__(self) -> str:
        return self.verb if self.host is None else f"{self.verb} {self.host}"


def _build() -> tuple[BlueAction, ...]:
    actions = [BlueAction(i, verb, None) for i, verb in enumerate(GLOBAL_VERBS)]
    for verb in HOST_VERBS:
        for host in HOSTS:
            actions.append(BlueAction(len(actions), verb, host))
    return tuple(actions)


ACTIONS: tuple[BlueAction, ...] = _build()
_BY_NAME: dict[tuple[str, Optional[str]], int] = {(a.verb, a.host): a.id for a in ACTIONS}
# What people write for a verb whose CybORG name is misspelt: the mail decoy is `DecoyHarakaSMPT` in CybORG, and people
# (and models) write the protocol's name, SMTP. Read as the catalog's own verb wherever an action is parsed.
VERB_ALIASES: dict[str, str] = {"DecoyHarakaSMTP": "DecoyHarakaSMPT"}
_VERB_BY_FOLDED = {**{a.lower(): v for a, v in VERB_ALIASES.items()}, **{v.lower(): v for v in VERBS}}
_HOST_BY_FOLDED = {h.lower(): h for h in HOSTS}
# Words a model may wrap an action in: `Remove hostname="User1"`, `Action: Restore(Enterprise0)`.
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOISE = {"hostname", "host", "action", "answer", "final", "on", "the", "to"}


def action_id(verb: str, host: Optional[str] = None) -> int:
    return _BY_NAME[(verb, host)]


def action_name(action: int) -> str:
    if not 0 <= action < len(ACTIONS):
        raise ActionParseError(f"action id {action} is out of range 0..{len(ACTIONS) - 1}")
    return str(ACTIONS[action])


def parse_action(text: str) -> int:
    """`'Restore Enterprise0'`, `'decoyapache user2'`, `'Remove hostname="User1"'` -> action id.

    Case and punctuation are forgiven; an unknown verb, an unknown or missing host, or a host given
    to Sleep/Monitor is not.
    """
    words = [w for w in _TOKEN.findall(text or "") if w.lower() not in _NOISE]
    if not words:
        raise ActionParseError(f"no action in {text!r}; valid verbs: {', '.join(VERBS)}")
    verb_word, rest = words[0], words[1:]
    # Accept "Decoy Apache User2" as well as "DecoyApache User2".
    if verb_word.lower() == "decoy" and rest:
        verb_word, rest = "Decoy" + rest[0], rest[1:]
    verb = _VERB_BY_FOLDED.get(verb_word.lower())
    if verb is None:
        raise ActionParseError(f"unknown action verb {verb_word!r} in {text!r}; valid verbs: {', '.join(VERBS)}")
    if verb in GLOBAL_VERBS:
        if rest and rest[0].lower() in _HOST_BY_FOLDED:
            raise ActionParseError(f"{verb} takes no host, got {text!r}")
        return _BY_NAME[(verb, None)]
    if not rest:
        raise ActionParseError(f"{verb} needs a host in {text!r}; valid hosts: {', '.join(HOSTS)}")
    host = _HOST_BY_FOLDED.get(rest[0].lower())
    if host is None:
        raise ActionParseError(f"unknown host {rest[0]!r} in {text!r}; valid hosts: {', '.join(HOSTS)}")
    return _BY_NAME[(verb, host)]


def action_reference() -> str:
    """The compact action catalog the ActionChooser and the learning agents receive."""
    decoys = ", ".join(f"Decoy{s}" for s in DECOY_SERVICES)
    lines = [
        "Blue actions (write exactly `<Verb>` or `<Verb> <Host>`):",
        f"- Sleep: {VERB_MEANING['Sleep']}. Monitor: {VERB_MEANING['Monitor']}.",
        f"- Analyse <Host>: {VERB_MEANING['Analyse']}.",
        f"- Remove <Host>: {VERB_MEANING['Remove']}.",
        f"- Restore <Host>: {VERB_MEANING['Restore']}.",
        f"- {decoys} <Host>: {VERB_MEANING['Decoy']}.",
        f"Hosts: {', '.join(HOSTS)}.",
    ]
    return "\n".join(lines)
