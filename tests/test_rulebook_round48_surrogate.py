"""Round 48 (issue 29): the surrogate compiler's own reader, no wider than the words.

The surrogate stands in for an LLM: it reads the text it is sent with its own reader (forge/llm/surrogate/free_text.py),
never the product's. Each class below is a way of writing a rule that the reader turned into a compilation wider than
its text. Sentences are this file's own.
"""

from __future__ import annotations

from forge.llm.surrogate.compiler_role import _entry
from tests.surrogate_rules import OFFERED, compiled





def _none_of(cls: str) -> list[dict]:
    return [{"not": {"class": cls, "activity": "any"}}, {"not": {"class": cls, "compromise": "any"}}]


def test_a_subnet_said_quiet_is_each_of_its_hosts_quiet():
    """"the ops subnet is calm", "ent subnet clean": the subnet as a whole, no host of it showing anything (read as one
    quiet host of the class, the rule held while the other hosts of that subnet were under attack)."""
    when, action, _ = compiled("Whenever the operational subnet is calm, a DecoyApache goes onto Op_Server0.", "planner", faithful=False)
    assert when == {"all": _none_of("Operational")}
    assert action == {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"}
    when, _, _ = compiled("morning check: ent subnet clean + usr subnet calm -> plan Monitor only", "planner", faithful=False)
    assert when == {"all": [*_none_of("Enterprise"), *_none_of("User")]}
    # (one host of the class in that state is still one host)
    when, _, _ = compiled("When a user host is calm, Analyse it.", "planner", faithful=False)
    assert when == {"class": "User", "activity": "None", "compromise": "No"}


def test_a_span_of_steps_is_read_or_told_never_dropped():
    """"owned for 4+ steps", "rooted 2 turns straight": the state held that many steps (read as the state alone, the rule
    held from the first step the host showed it); a span the reader cannot place stays in the unexpressed rest."""
    when, action, rest = compiled("Enterprise1 owned for 4+ steps -> plan Restore Enterprise1", "planner", faithful=False)
    assert when == {"host": "Enterprise1", "compromise": "any", "unchanged_for": 4} and rest == ""
    assert action == {"mode": "do", "verb": "Restore", "target": "Enterprise1"}
    when, _, _ = compiled("User3 rooted 2 turns straight -> plan Restore User3", "planner", faithful=False)
    assert when == {"host": "User3", "compromise": "Privileged", "unchanged_for": 2}
    when, _, _ = compiled("Op_Server0 at Unknown for 2+ turns running -> Analyse it", "planner", faithful=False)
    assert when == {"host": "Op_Server0", "compromise": "Unknown", "unchanged_for": 2}
    when, _, rest = compiled("User2 owned 5+ turns -> plan Restore User2", "planner", faithful=False)
    assert when == {"host": "User2", "compromise": "any"} and rest == "5+ turns"


def test_one_host_and_no_other_keeps_the_others_in_the_rest():
    """"only User1 hacked", "Enterprise0 pwned alone": that host, and no other host in that state; the atom says the host's state,
    the rest says the others (read as the host's state alone, the rule held where a second host showed it too)."""
    when, _, rest = compiled("only User1 hacked -> plan Remove User1", "planner", faithful=False)
    assert when == {"host": "User1", "compromise": "any"} and rest == "no other host hacked"
    when, _, rest = compiled("Enterprise0 pwned alone -> plan Restore Enterprise0", "planner", faithful=False)
    assert when == {"host": "Enterprise0", "compromise": "any"} and rest == "no other host pwned"
    # ("only if", "only when": the condition's marker, no host restricted)
    when, _, rest = compiled("Remove User1 only if it is hacked.", "planner", faithful=False)
    assert when == {"host": "User1", "compromise": "any"} and rest == ""


def test_a_case_taken_out_after_the_order_is_kept():
    """"... -> Remove Enterprise1. Exception: User4 hacked.", "(not if User4 is hacked)": the note takes a case out of its rule after the
    order; read whole it is that host's state denied, else the note is no predicate (dropped, the rule held in that case
    too)."""
    when, action, _ = compiled("Enterprise1 under exploit -> plan Remove Enterprise1. Exception: User4 hacked.", "planner", faithful=False)
    assert when == {"all": [{"host": "Enterprise1", "activity": "Exploit"}, {"not": {"host": "User4", "compromise": "any"}}]}
    assert action == {"mode": "do", "verb": "Remove", "target": "Enterprise1"}
    entry = _entry(1, "rule", "planner", "Enterprise1 under exploit -> plan Remove Enterprise1 (not if User4 and User3 both got hacked)",
                   ("reconnaissance",), OFFERED, True)
    assert entry.get("when") is None
    # (a class the order leaves out is no case of the situation: "not for ent srvs" stays the order's scope)
    when, _, _ = compiled("exploit seen on a usr box -> Remove that box; not for ent srvs", "planner", faithful=False)
    assert when == {"class": "User", "activity": "Exploit"}


def test_a_scan_with_the_exploit_denied_keeps_the_scan():
    """"Enterprise2 probed (no exploit so far)", "User1 scan w/o any exploit": a scan, and the exploit denied; read as the exploit
    denied alone, the scan was dropped and the rule held on every host with no exploit, quiet ones too."""
    when, action, _ = compiled("Enterprise2 probed (no exploit so far) -> DecoyTomcat Enterprise2", "planner", faithful=False)
    assert when == {"all": [{"host": "Enterprise2", "activity": "Scan"}, {"not": {"host": "Enterprise2", "activity": "Exploit"}}]}
    assert action == {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise2"}
    when, _, _ = compiled("User1 scan w/o any exploit -> DecoyTomcat User1", "planner", faithful=False)
    assert when == {"all": [{"host": "User1", "activity": "Scan"}, {"not": {"host": "User1", "activity": "Exploit"}}]}
    when, _, _ = compiled("When a workstation gets probed and has not been exploited so far, a DecoyTomcat goes on it.", "planner", faithful=False)
    assert when == {"class": "User", "activity": "Scan"}
