"""Decision-context benchmark for the CAGE-2 rulebook (DC-Bench, adapted): are the right rules injected at
the right decision points, nothing else, and never one that says the opposite of its text?

Case files (`data/dc_bench/{dev,heldout,model_style,blind,...,blind12}.yaml`, format in heldout.yaml's header) hold
scenarios across nine dimensions. `dev` and `model_style` are development splits (the product was changed on
their failures); `heldout` was written before tuning; `blind`, `blind2`, `blind3` and `blind4` were each written by
an author who read only the rule language (then a section of the README, now docs/rule-language.md and
docs/rulebook.md) and real contexts (`data/dc_bench/blind*_author_pack/`) and was committed before its first run; each
was a held-out measure until a round was steered by it. Each is development now: `blind` steered issue 29's first round,
`blind2` the second, `blind3` the third (their aggregates and failure classes), and the fifth round read the failures
of all four (`--failures`; `blind4` had been the held-out measure of rounds three and four). `blind5`, written from the
documented rule language before the fifth round, is development too: the sixth round was steered by its aggregates, the
seventh read its failures. `blind6`, written before the fifth and sixth rounds and their held-out measure, is
development since the eighth round read its failures; `blind7`, written before the eighth round and its held-out
measure, since the ninth read its. `blind8`, written before the ninth round and its held-out measure, is development
since its aggregates (inverted injections) prompted the tenth round. `blind9`, written before the tenth round and
its held-out measure, is development since its aggregate failure classes (predicates wider than their words) prompted
the eleventh; the twelfth read its failures. `blind10`, written before the eleventh round and the held-out measure
of the eleventh and twelfth, is development since the thirteenth read its failures. `blind11`, written before the
thirteenth round and its held-out measure, is development since the fourteenth read its failures. `blind12`, written
before the fourteenth round and its held-out measure, is development since the fifteenth read its failures. `blind13`, written before the fifteenth round and its held-out
measure, is development since the sixteenth read its failures. `blind14`, written before the sixteenth round's changes landed
and its held-out measure, is development since the seventeenth read its failures. `blind15`, written before the
seventeenth round's changes landed and its held-out measure, is development since the eighteenth read its failures. `blind16`, written before the eighteenth
round's changes landed and its held-out measure, is development since the nineteenth read its failures. `blind17`, written before the nineteenth round's changes
landed and its held-out measure, is development since its aggregates prompted the twentieth and the twenty-first read its
failures. `blind18`, written before the twentieth round's changes landed and the held-out measure of the twentieth and
twenty-first, is development since the twenty-second read its failures. `blind20`, written after the twenty-second round's
changes landed and committed before its first run, is development since the twenty-third read its failures. `blind21`,
written before the twenty-third round's changes landed and its held-out measure, is development since the
twenty-fourth read its failures. `blind22`, written before the twenty-fourth round's changes landed and committed
before its first run, is development since the twenty-fifth read its failures. `blind23`, written before the
twenty-fifth round's changes landed and committed before its first run, is development since the twenty-sixth read its
failures. `blind19`, written before the twenty-second round's changes landed and committed before its first run, was
held out until the twenty-sixth round, when its aggregate figures decided one of that round's changes (a wider
reading was taken back because it added a harmful injection there): it is development since, its cases still unread.
`blind24`, written before the twenty-sixth round's changes landed and committed before its first run, is development
since the twenty-seventh read its failures. `blind25`, written before the twenty-seventh round's changes landed and
committed before its first run, is development since the twenty-eighth read its failures. `blind26`, written before the
twenty-eighth round's changes landed and committed before its first run, is development since the twenty-ninth read its
failures. `blind27`, written before the twenty-ninth round's changes landed and committed before its first run, is
development since the thirtieth read its failures. `blind28`, written after the twenty-ninth round and committed before
its first run (the thirtieth round's held-out measure), is development since the thirty-first read its failures.
`blind29`, written before the thirtieth round's changes landed and committed before its first run (the thirty-first
round's held-out measure), is development since the thirty-second read its failures. `blind30`, written before the
thirty-second round's changes landed and committed before its first run (that round's held-out measure), is
development since the thirty-third read its failures. `blind31`, written before the thirty-third round's changes landed
and committed before its first run (that round's held-out measure), is development since the thirty-fourth read its
failures. `blind32`, written before the thirty-fourth round's changes landed and committed before its first run (that round's
held-out measure), is development since the thirty-fifth read its failures. `blind33`, written before the thirty-fifth
round's changes landed and committed before its first run (that round's held-out measure), is development since the
thirty-sixth read its failures. `blind34`, written before the thirty-sixth round's changes landed and committed before
its first run (that round's held-out measure), is development since the thirty-seventh read its failures. `blind35`,
written before the thirty-seventh round's changes landed and committed before its first run (that round's held-out
measure), is development since the thirty-eighth read its failures. `blind36`, written before the thirty-eighth round's changes
landed and committed before its first run (that round's held-out measure), is development since the thirty-ninth read its
failures. `blind37`, written before the thirty-ninth round's changes landed and committed before its first run (that
round's held-out measure), is development since the fortieth read its failures. `blind38`, written before the fortieth
round's changes landed and committed before its first run (that round's held-out measure), is development since the
forty-first read its failures. `blind39`, written before the forty-first round's changes landed and committed before
its first run (that round's held-out measure), is development since the forty-second read its failures. `blind40`,
written before the forty-second round's changes landed and committed before its first run (that round's held-out
measure), is development since the forty-third read its failures. `blind41`, written before the forty-third round's changes
landed and committed before its first run (that round's held-out measure), is development since the forty-fourth read
its failures. `blind42`, written before the forty-fourth round's changes landed and committed before its first run
(that round's held-out measure), is development since the forty-fifth read its failures. `blind43`, written before the
forty-fifth round's changes landed and committed before its first run (that round's held-out measure), is development
since the forty-sixth read its failures. `blind44`, written before the forty-sixth round's changes landed and committed
before its first run (that round's held-out measure), is development since the forty-seventh read its failures.
`blind45`, written before the forty-seventh round's changes landed and committed before its first run (that round's
held-out measure), is development since the forty-eighth read its failures. `blind46`, written before the
forty-eighth round's changes landed and committed before its first run (that round's held-out measure), is development
since the forty-ninth read its failures. `blind47`, written before the forty-ninth round's changes landed and committed
before its first run (that round's held-out measure), is development since the fiftieth read its failures. `blind48`,
written before the fiftieth round's changes landed and committed before its first run (that round's held-out measure),
is development since the fifty-first read its failures. `blind49`, written before the fifty-first round's changes
landed and committed before its first run (that round's held-out measure), is development since the fifty-second
read its failures. `blind50`, written before the fifty-second round's changes landed and committed before its first
run (that round's held-out measure), is development since the fifty-third read its failures. `blind51`, written
before the fifty-third round's changes landed and committed before its first run (that round's held-out measure), is
development since the fifty-fourth read its failures. `blind52`, written before the fifty-fourth round's changes
landed and committed before its first run (that round's held-out measure), is development since the fifty-fifth read
its failures. `blind53`, written before the fifty-fifth round's changes landed and committed before its first run
(that round's held-out measure), is development since the fifty-sixth read its failures. `blind54`, written before
the fifty-sixth round's changes landed and committed before its first run (that round's held-out measure), is
development since the fifty-seventh read its failures. `blind55`, written before the fifty-seventh round's changes
landed and committed before its first run (that round's held-out measure), is development since the fifty-eighth read
its failures. `blind56`, written before the fifty-eighth round's changes landed and committed before its first run
(that round's held-out measure), is development since the fifty-ninth read its failures. `blind57`, written before
the fifty-ninth round's changes landed and committed before its first run (that round's held-out measure), is
development since the sixtieth read its failures. `blind58`, written before the sixtieth round's changes landed and
committed before its first run (that round's held-out measure), is development since the sixty-first read its
failures. `blind59`, written before the sixty-first round's changes landed and committed before its first run, is in
`UNREAD`, held out now. A held-out split is read by nobody who changes the product: for it the bench prints aggregate figures and failure classes only, never a case's text, label or context
(`--failures` refuses).
Each split is reported on its own, never only combined. Every scenario starts from a fresh rulebook (SQLite
in a temporary directory, or a namespace of a private redis-server for `backend: redis`), teaches its rules
through the product's own path (forge.rulebook.authoring.teaching: the grammar, else the configured compiler
model: the surrogate by default; `--compiler reference`: the case files' own compilations, `ref`), and runs
its queries: a decision context (a real CAGE-2 observation from `data/dc_bench/observations.yaml`, rendered
by the environment's text view in the role's own format, or an operator-written one), a role and a querying
actor, with the set of rules that must be injected (`expect`, FORMAT rules of the role included) and,
optionally, `also_applies`: rules whose own text applies there but that must still stay out (outranked in a
disagreement, replaced by their teacher's newer rule).

Harm first. A *harmful* injection is (i) a rule injected where its own text says it does not apply: neither
expected nor in `also_applies` (a withdrawn rule, one whose condition does not hold), or (ii) an injected rule
whose compiled action is the opposite of its text: against the case's `ref`, what the compiled action
prescribes the ref forbids, or the reverse (a `never` compiled as a `do`, a `prefer X over Y` reversed).
Then per split: missed injections (expected, not injected), exact-set accuracy (with its 95% interval),
silence accuracy (queries that expect nothing and get nothing), per dimension precision / recall and
injected tokens per query, and, labelled as surrogate results, behavioural compliance (the surrogate
ActionChooser / Planner called with what was injected, graded by `forge.rulebook.language.action.judge`).
Failure classes: harmful/not-applicable, harmful/inverted, missed, outranked-injected, each by dimension and
by what the compiler made of the rule (grammar, predicate, guarded, semantic, refused, dropped).

    PYTHONPATH=. .venv/bin/python scripts/bench/dc_bench.py [--split all|dev|heldout|model_style|blind|blind2|...|blind12] [--failures] [--set KEY=VALUE]

The last line printed is `overall exact-set accuracy: NN.N%`.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from forge.config import StoreKind  # noqa: E402  (after the path set-up above)
from forge.plumbing.local_redis import LocalRedis  # noqa: E402

DATA = ROOT / "data" / "dc_bench"
SPLITS = ("dev", "heldout", "model_style", "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
          "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17", "blind18",
          "blind19", "blind20", "blind21", "blind22", "blind23", "blind24", "blind25", "blind26",
          "blind27", "blind28", "blind29", "blind30", "blind31", "blind32", "blind33", "blind34", "blind35", "blind36", "blind37", "blind38", "blind39",
          "blind40", "blind41", "blind42", "blind43", "blind44", "blind45", "blind46", "blind47", "blind48", "blind49", "blind50", "blind51",
          "blind52", "blind53", "blind54", "blind55", "blind56", "blind57", "blind58", "blind59")
# What each split is, as the report names it: a split whose failures shaped a change is development.
SPLIT_NAMES = {"dev": "dev (development)", "heldout": "held-out", "model_style": "model-style (development)",
               "blind": "blind-1 (written blind; development: it steered issue 29's first and fifth rounds)",
               "blind2": "blind-2 (written blind; development: it steered issue 29's second and fifth rounds)",
               "blind3": "blind-3 (written blind; development: it steered issue 29's third and fifth rounds)",
               "blind4": "blind-4 (written blind; development: it steered issue 29's fifth round)",
               "blind5": "blind-5 (written blind; development: issue 29's sixth round was steered by its aggregates, "
                         "the seventh read its failures)",
               "blind6": "blind-6 (written blind; development: issue 29's eighth round read its failures)",
               "blind7": "blind-7 (written blind; development: issue 29's ninth round read its failures)",
               "blind8": "blind-8 (written blind; development: issue 29's tenth round was prompted by its aggregates)",
               "blind9": "blind-9 (written blind; development: its aggregates prompted issue 29's eleventh round, "
                         "the twelfth read its failures)",
               "blind10": "blind-10 (written blind; development: issue 29's thirteenth round read its failures)",
               "blind11": "blind-11 (written blind; development: issue 29's fourteenth round read its failures)",
               "blind12": "blind-12 (written blind; development: issue 29's fifteenth round read its failures)",
               "blind13": "blind-13 (written blind; development: issue 29's sixteenth round read its failures)",
               "blind14": "blind-14 (written blind; development: issue 29's seventeenth round read its failures)",
               "blind15": "blind-15 (written blind; development: issue 29's eighteenth round read its failures)",
               "blind16": "blind-16 (written blind; development: issue 29's nineteenth round read its failures)",
               "blind17": "blind-17 (written blind; development: its aggregates prompted issue 29's twentieth round, "
                          "the twenty-first read its failures)",
               "blind18": "blind-18 (written blind; development: issue 29's twenty-second round read its failures)",
               "blind19": "blind-19 (written blind; development: its aggregates decided a change of issue 29's twenty-sixth "
                          "round; its cases unread)",
               "blind20": "blind-20 (written blind; development: issue 29's twenty-third round read its failures)",
               "blind21": "blind-21 (written blind; development: issue 29's twenty-fourth round read its failures)",
               "blind22": "blind-22 (written blind; development: issue 29's twenty-fifth round read its failures)",
               "blind23": "blind-23 (written blind; development: issue 29's twenty-sixth round read its failures)",
               "blind24": "blind-24 (written blind; development: issue 29's twenty-seventh round read its failures)",
               "blind25": "blind-25 (written blind; development: issue 29's twenty-eighth round read its failures)",
               "blind26": "blind-26 (written blind; development: issue 29's twenty-ninth round read its failures)",
               "blind27": "blind-27 (written blind; development: issue 29's thirtieth round read its failures)",
               "blind28": "blind-28 (written blind; development: issue 29's thirty-first round read its failures)",
               "blind29": "blind-29 (written blind; development: issue 29's thirty-second round read its failures)",
               "blind30": "blind-30 (written blind; development: issue 29's thirty-third round read its failures)",
               "blind31": "blind-31 (written blind; development: issue 29's thirty-fourth round read its failures)",
               "blind32": "blind-32 (written blind; development: issue 29's thirty-fifth round read its failures)",
               "blind33": "blind-33 (written blind; development: issue 29's thirty-sixth round read its failures)",
               "blind34": "blind-34 (written blind; development: issue 29's thirty-seventh round read its failures)",
               "blind35": "blind-35 (written blind; development: issue 29's thirty-eighth round read its failures)",
               "blind36": "blind-36 (written blind; development: issue 29's thirty-ninth round read its failures)",
               "blind37": "blind-37 (written blind; development: issue 29's fortieth round read its failures)",
               "blind38": "blind-38 (written blind; development: issue 29's forty-first round read its failures)",
               "blind39": "blind-39 (written blind; development: issue 29's forty-second round read its failures)",
               "blind40": "blind-40 (written blind; development: issue 29's forty-third round read its failures)",
               "blind41": "blind-41 (written blind; development: issue 29's forty-fourth round read its failures)",
               "blind42": "blind-42 (written blind; development: issue 29's forty-fifth round read its failures)",
               "blind43": "blind-43 (written blind; development: issue 29's forty-sixth round read its failures)",
               "blind44": "blind-44 (written blind; development: issue 29's forty-seventh round read its failures)",
               "blind45": "blind-45 (written blind; development: issue 29's forty-eighth round read its failures)",
               "blind46": "blind-46 (written blind; development: issue 29's forty-ninth round read its failures)",
               "blind47": "blind-47 (written blind; development: issue 29's fiftieth round read its failures)",
               "blind48": "blind-48 (written blind; development: issue 29's fifty-first round read its failures)",
               "blind49": "blind-49 (written blind; development: issue 29's fifty-second round read its failures)",
               "blind50": "blind-50 (written blind; development: issue 29's fifty-third round read its failures)",
               "blind51": "blind-51 (written blind; development: issue 29's fifty-fourth round read its failures)",
               "blind52": "blind-52 (written blind; development: issue 29's fifty-fifth round read its failures)",
               "blind53": "blind-53 (written blind; development: issue 29's fifty-sixth round read its failures)",
               "blind54": "blind-54 (written blind; development: issue 29's fifty-seventh round read its failures)",
               "blind55": "blind-55 (written blind; development: issue 29's fifty-eighth round read its failures)",
               "blind56": "blind-56 (written blind; development: issue 29's fifty-ninth round read its failures)",
               "blind57": "blind-57 (written blind; development: issue 29's sixtieth round read its failures)",
               "blind58": "blind-58 (written blind; development: issue 29's sixty-first round read its failures)",
               "blind59": "blind-59 (held out, unread: aggregates only)"}
# Held-out splits whose cases are never printed (aggregates and failure classes only): a blind split joins this set
# when it is committed, and leaves it (relabelled development) once a change has been steered by it.
UNREAD: frozenset[str] = frozenset({"blind59"})
DIMENSIONS = ("behavioural_change", "conditional_activation", "exception_handling", "generalisation_boundary",
              "implicit_learning", "persistence", "recall", "scope_precision", "temporal_coherence")
VIEWS = ("alerts", "table", "planner", "chooser", "analyst")
ROLE_VIEW = {"planner": "planner", "action_chooser": "chooser", "analyst": "analyst"}


class CaseError(ValueError):
    """A case file that does not fit the format; the message names the file, scenario and key."""


# -- case files ---------------------------------------------------------------------------------------


def _read_yaml(path: Path):
    """A case file or the observations, read safely with libyaml: the pure-Python reader took 14.7 s to load every
    file of data/dc_bench, libyaml 2.1 s for the same data (equal, compared file by file), a few seconds off each
    bench run and each slow test that runs one. PyYAML's wheels ship libyaml; a build without it reads the same,
    slower."""
    return yaml.load(path.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_observations(path: Path = DATA / "observations.yaml") -> dict[str, dict]:
    data = _read_yaml(path)
    if not isinstance(data, dict):
        raise CaseError(f"{path}: expected a mapping of observation keys")
    return data


def load_split(split: str, observations: dict[str, dict]) -> list[dict]:
    path = DATA / f"{split}.yaml"
    data = _read_yaml(path) or {}
    scenarios = data.get("scenarios")
    if not isinstance(scenarios, list):
        raise CaseError(f"{path}: no 'scenarios' list")
    for scenario in scenarios:
        check_scenario(scenario, path, observations)
        scenario["split"] = split
    return scenarios


def check_scenario(s: dict, path: Path, observations: dict[str, dict]) -> None:
    where = f"{path.name}: scenario {s.get('id', '?')}"
    if s.get("dimension") not in DIMENSIONS:
        raise CaseError(f"{where}: dimension {s.get('dimension')!r} is not one of {', '.join(DIMENSIONS)}")
    if s.get("backend", StoreKind.sqlite) not in tuple(StoreKind):
        raise CaseError(f"{where}: backend {s.get('backend')!r} is neither sqlite nor redis")
    labels: set[str] = set()
    for step in s.get("steps") or []:
        if not isinstance(step, dict) or len(step) != 1:
            raise CaseError(f"{where}: a step must have exactly one key, got {step!r:.80}")
        (op, body), = step.items()
        if op == "teach":
            for item in body:
                missing = {"as", "actor", "role", "text"} - set(item)
                if missing:
                    raise CaseError(f"{where}: a taught item lacks {sorted(missing)}")
                if item.get("failure") and item["failure"] not in observations:
                    raise CaseError(f"{where}: unknown failure observation {item['failure']!r}")
                labels.add(item["as"])
        elif op in ("withdraw", "restore"):
            if body not in labels:
                raise CaseError(f"{where}: {op} names unknown label {body!r}")
        elif op == "query":
            if ("obs" in body) == ("context" in body):
                raise CaseError(f"{where}: a query gives exactly one of obs or context")
            if "obs" in body and body["obs"] not in observations:
                raise CaseError(f"{where}: unknown observation {body['obs']!r}")
            if body.get("view", "alerts") not in VIEWS:
                raise CaseError(f"{where}: view {body.get('view')!r} is not one of {', '.join(VIEWS)}")
            for key in ("expect", "also_applies"):
                if not isinstance(body.get(key) or [], list):
                    raise CaseError(f"{where}: {key} must be a list of labels")
                unknown = set(body.get(key) or []) - labels
                if unknown:
                    raise CaseError(f"{where}: {key} names labels not taught before it: {sorted(unknown)}")
        elif op != "reopen":
            raise CaseError(f"{where}: unknown step {op!r} (teach, withdraw, restore, reopen, query)")


def context_of(query: dict, observations: dict[str, dict]) -> str:
    if "context" in query:
        return query["context"]
    obs = observations[query["obs"]]
    view = query.get("view") or ROLE_VIEW.get(query["role"], "alerts")
    if view == "chooser":
        return chooser_context(obs["alerts"])
    if view not in obs:
        raise CaseError(f"observation {query['obs']!r} has no {view!r} view (a quiet network has no Analyst context)")
    return obs[view]


def chooser_context(alerts: str) -> str:
    """The ActionChooser's context as agents/defender.py builds it: the Planner's situation line (the hosts it
    names, each with its state, as the Planner writes them), then the alert lines."""
    rows = [line.replace(": Activity", " shows Activity", 1) for line in alerts.splitlines() if ": Activity" in line]
    return f"Situation (from the Planner): {', '.join(rows[:3]) or 'the network is quiet'}\n\nAlerts:\n{alerts}"


def reference_compilations(scenarios: list[dict]) -> dict[str, dict]:
    """Artifact text -> the case author's compilation (`ref`), for `--compiler reference`; also under the text the
    product sends the compiler (forge.rulebook.authoring.teaching.taught_words): without an opening that only says the
    teacher revises what they said before ("Actually, ..."), and of a chat log pasted whole, the message it settles on."""
    from forge.rulebook.authoring.teaching import taught_words

    refs: dict[str, dict] = {}
    for scenario in scenarios:
        for step in scenario["steps"]:
            for item in step.get("teach") or []:
                if "ref" in item:
                    refs[" ".join(item["text"].split())] = item["ref"]
                    refs.setdefault(" ".join(taught_words(item["text"])[1].split()), item["ref"])
    return refs


class ReferenceCompiler:
    """Answers the Rule Compiler's prompt (forge/rulebook/authoring/compiler_prompt.md) with the case author's compilations: the
    benchmark then measures the rulebook's gate, scope and resolution apart from any compiler. Its
    figures are labelled `compiler: reference`, never presented as a model's."""

    def __init__(self, refs: dict[str, dict]) -> None:
        import re

        self.refs = refs
        self._header = re.compile(r"^\[(\d+)\] (rule|example|correction) for ([a-z_]+), taught by (\S+)\s*$", re.MULTILINE)

    def complete(self, messages, *, seed=None, stop=None):
        import json

        from forge.llm.types import Completion, Usage

        artifacts = next(m.content for m in messages if m.role == "user")
        heads = list(self._header.finditer(artifacts))
        entries = []
        for index, head in enumerate(heads):
            end = heads[index + 1].start() if index + 1 < len(heads) else len(artifacts)
            text = " ".join(artifacts[head.end():end].split())
            ref = self.refs.get(text)
            if ref is None:
                entries.append({"item": int(head[1]), "verdict": "DROP", "reason": "no reference compilation"})
                continue
            rule_type = ref.get("type", "CONTENT")
            entries.append({"item": int(head[1]), "verdict": "RULE", "type": rule_type, "directive": text,
                            "roles": [head[3]], "when": ref.get("when", {"always": True} if rule_type == "FORMAT" else None),
                            "action": ref.get("action"), "unexpressed": ref.get("unexpressed", ""), "trigger": ""})
        return Completion(json.dumps({"rules": entries}), Usage(0, 0))


def actor_name(name: str) -> str:
    return name if name.startswith("user:") or "/" in name else f"user:{name}"


# -- results ------------------------------------------------------------------------------------------


@dataclass
class QueryResult:
    scenario: str
    split: str
    dimension: str
    role: str
    context: str
    expected: frozenset[str]
    injected: frozenset[str]
    tokens: int
    labels: dict[str, str]  # rule id -> label, for reports
    also: frozenset[str] = frozenset()  # rules whose text applies here but that must stay out (also_applies)
    inverted: frozenset[str] = frozenset()  # injected rules whose compiled action is the opposite of their ref's
    outcome: dict[str, str] = field(default_factory=dict)  # label -> what the compiler made of it (COMPILE_OUTCOMES)
    verdicts: list[str] = field(default_factory=list)  # surrogate behaviour, one per judged rule
    unjudged: int = 0  # expected rules with no structured action

    @property
    def exact(self) -> bool:
        return self.expected == self.injected

    @property
    def not_applicable(self) -> frozenset[str]:
        """Harm (i): injected where the rule's own text says it does not apply."""
        return self.injected - self.expected - self.also

    @property
    def harmful(self) -> frozenset[str]:
        """Every harmful injection: not applicable here, or inverted (harm ii)."""
        return self.not_applicable | (self.inverted & self.injected)

    @property
    def missed(self) -> frozenset[str]:
        return self.expected - self.injected

    @property
    def outranked(self) -> frozenset[str]:
        """Injected although its text applies here, where precedence or replacement keeps it out (not harm)."""
        return (self.injected & self.also) - self.expected

    @property
    def precision(self) -> float:
        return len(self.expected & self.injected) / len(self.injected) if self.injected else 1.0

    @property
    def recall(self) -> float:
        return len(self.expected & self.injected) / len(self.expected) if self.expected else 1.0

    def failure_classes(self) -> list[tuple[str, str]]:
        """(class, what the compiler made of the rule) for every wrong injection or miss of this query."""
        made = lambda rid: self.outcome.get(self.labels.get(rid, ""), "refused" if rid.startswith("<") else "?")  # noqa: E731
        found = [("harmful/not-applicable", made(r)) for r in sorted(self.not_applicable)]
        found += [("harmful/inverted", made(r)) for r in sorted(self.inverted & self.injected)]
        found += [("missed", made(r)) for r in sorted(self.missed)]
        found += [("outranked-injected", made(r)) for r in sorted(self.outranked)]
        return found


# What the compiler made of a taught rule, as the failure classes name it.
COMPILE_OUTCOMES = ("grammar", "predicate", "guarded", "semantic", "semantic/checked", "refused", "dropped")


def compile_outcome(record, result: str) -> str:
    """`grammar` | `predicate` | `guarded` (a predicate with an unexpressed rest) | `semantic` (no predicate) for a
    rule in the book; `refused` (the book refused it) or `dropped` (the compiler dropped it) for one that is not."""
    if record is None:
        return "dropped" if result == "dropped" else "refused"
    if record.compiled_by == "grammar":
        return "grammar"
    if record.when is None:
        # semantic/checked: the compiler's predicate failed the product's checks (wider than its text, the opposite,
        # or invalid), so the rule is judged by its words' claims alone
        return "semantic/checked" if record.semantic_reason.startswith(("predicate refused", "invalid predicate")) \
            else "semantic"
    return "guarded" if record.unexpressed else "predicate"


def refusal_check(reason: str) -> str:
    """Which of the product's checks refused a compiled predicate (forge.rulebook.authoring.checks.CHECKS), from
    the rule's semantic reason; `schema` for an invalid predicate or action."""
    if reason.startswith("invalid predicate"):
        # the error's words without the values it names (a verb, a host): a class of fault, not a case's text
        words = re.sub(r"'[^']*'|\"[^\"]*\"|\([^)]*\)|\b[A-Z][\w$]*\b|\$\w+|\d+", "_", reason.split(":", 1)[-1])
        return "schema(" + "_".join(w for w in words.split() if w.isalpha())[:40] + ")"
    tag = reason.removeprefix("predicate refused: ").split(":", 1)[0]
    return tag if tag.isidentifier() else "other"


def _moves(action: Optional[dict]) -> tuple[list[tuple[str, Optional[str]]], list[tuple[str, Optional[str]]]]:
    """(prescribed, forbidden) (verb, target) pairs of an action's JSON."""
    if not isinstance(action, dict):
        return [], []
    first = (str(action.get("verb")), action.get("target"))
    over = action.get("over") if isinstance(action.get("over"), dict) else None
    then = [(str(m.get("verb")), m.get("target")) for m in action.get("then") or [] if isinstance(m, dict)]
    mode = str(action.get("mode", "")).lower()
    if mode == "never":
        return [], [first]
    if mode == "prefer":
        return [first], [(str(over.get("verb")), over.get("target"))] if over else []
    return [first, *then], []


def _hosts_named(target: Optional[str], when: Optional[dict]) -> Optional[set]:
    """The hosts a move's target can name (None: any): `$matched` the hosts its own trigger can match, a class its
    hosts, a relative target (`$subnet`, `$next_subnet`) or none any."""
    from forge.env.catalog import HOST_CLASSES
    from forge.rulebook.language.predicate import parse_predicate, positive_hosts

    if target == "$matched" and isinstance(when, dict):
        try:
            return set(positive_hosts(parse_predicate(when)))
        except ValueError:
            return None
    if target is None or str(target).startswith("$") or target == "any":
        return None
    return set(HOST_CLASSES.get(target, (target,)))


def _targets_meet(a: Optional[str], b: Optional[str], when_a: Optional[dict] = None, when_b: Optional[dict] = None) -> bool:
    """Whether two targets can name one host (a relative target or a class may be any of its hosts; `$matched`, with
    its trigger given, only the hosts that trigger can match: "restore any of User1-4" never restores User0)."""
    ha, hb = _hosts_named(a, when_a), _hosts_named(b, when_b)
    return ha is None or hb is None or bool(ha & hb)


def inverted(compiled: Optional[dict], ref: Optional[dict], compiled_when: Optional[dict] = None,
             ref_when: Optional[dict] = None) -> bool:
    """Whether a compiled action is the opposite of the case author's (`ref`): it prescribes what the ref
    forbids, or forbids what the ref prescribes, on a host both can name (verb `any`: every verb; `$matched`: the
    hosts its own trigger can match, where the trigger is given)."""
    done, banned = _moves(compiled)
    ref_done, ref_banned = _moves(ref)
    if (done, banned) == (ref_done, ref_banned):
        return False  # the author's own action: "prefer Restore Op_Server0 over Restore $matched" may name one host twice

    def meets(x, y):
        return (x[0] == y[0] or "any" in (x[0], y[0])) and _targets_meet(x[1], y[1], compiled_when, ref_when)
    return any(meets(x, y) for x in done for y in ref_banned) or any(meets(x, y) for x in banned for y in ref_done)


@dataclass
class Bench:
    observations: dict[str, dict]
    cfg: Any
    clients: dict
    embedder: Any
    workdir: Path
    redis_url: Optional[str] = None
    behaviour: bool = True
    calibrate: bool = False
    semantic_scores: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    results: list[QueryResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    refusals: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))  # (split, check) -> rules

    def open_book(self, scenario: dict):
        from forge.rulebook.book import Rulebook
        from forge.rulebook.store import open_rulebook

        if scenario.get("backend") == StoreKind.redis:
            spec, namespace = self.redis_url, f"dcb-{scenario['id']}-{time.time_ns()}"
        else:
            spec, namespace = str(self.workdir / f"{scenario['split']}-{scenario['id']}.db"), "forge"
        return Rulebook(open_rulebook(spec, namespace), self.embedder), (spec, namespace)

    def run(self, scenario: dict) -> None:
        from forge.memory.model import Provenance
        from forge.rulebook.book import Rulebook
        from forge.rulebook.authoring import RuleCompiler
        from forge.rulebook.model import DecisionNode
        from forge.rulebook.store import open_rulebook
        from forge.rulebook.authoring import Correction, teach_text

        book, (spec, namespace) = self.open_book(scenario)
        if isinstance(self.clients["compiler"], ReferenceCompiler):
            # this scenario's author's compilations only: two splits may hold one sentence compiled two ways, and a
            # table over every split would answer one with the other's
            self.clients["compiler"].refs = reference_compilations([scenario])
        compiler = RuleCompiler(self.clients["compiler"])
        label_rule: dict[str, Optional[str]] = {}
        outcome: dict[str, str] = {}  # label -> what the compiler made of it
        refs: dict[str, dict] = {}  # label -> the case author's compilation (its when and action)
        try:
            for number, step in enumerate(scenario["steps"]):
                (op, body), = step.items()
                if op == "teach":
                    corrections = [Correction(
                        item["text"], item["role"], actor_name(item["actor"]), f"{scenario['id']}:{item['as']}",
                        kind=item.get("kind", "correction"),
                        failure=DecisionNode(self.observations[item["failure"]]["planner"]) if item.get("failure") else None,
                    ) for item in body]
                    taught = teach_text(book, compiler, corrections, provenance=Provenance(actor="dc-bench"),
                                        seed=number)
                    heads = book.heads()
                    for item, rule_id, result in zip(body, taught.rule_ids, taught.results):
                        label_rule[item["as"]] = rule_id
                        outcome[item["as"]] = compile_outcome(heads[rule_id].record if rule_id in heads else None, result)
                        if outcome[item["as"]] == "semantic/checked":
                            self.refusals[(scenario["split"], refusal_check(heads[rule_id].record.semantic_reason))] += 1
                        if "ref" in item:
                            refs[item["as"]] = item["ref"] or {}
                        if rule_id is None:
                            self.problems.append(f"{scenario['id']}: {item['as']} was {result}")
                    self.problems += [f"{scenario['id']}: {p}" for p in taught.compile.problems]
                elif op in ("withdraw", "restore") and label_rule.get(body):
                    self.curate(book, op, label_rule[body], f"{scenario['id']}: {op} {body}")
                elif op == "reopen":
                    book.store.close()
                    book = Rulebook(open_rulebook(spec, namespace, create=False), self.embedder)
                elif op == "query":
                    self.query(scenario, body, book, label_rule, outcome, refs)
        finally:
            book.store.close()

    def curate(self, book, op: str, rule_id: str, step: str) -> None:
        """An operator's withdrawal or restore of a taught label's rule. Two labels the product taught as one rule (the
        second merged into the first by meaning) share its id, so the second withdrawal finds it withdrawn already: the
        product refuses it as it would an operator's, and the scenario goes on with the book as it stands."""
        from forge.memory.model import Provenance
        from forge.rulebook.model import RulebookError

        try:
            if op == "withdraw":
                book.withdraw(rule_id, Provenance(actor="dc-bench"))
            else:
                book.restore(rule_id, provenance=Provenance(actor="dc-bench"))
        except RulebookError as refused:
            self.problems.append(f"{step} refused: {refused}")

    def query(self, scenario: dict, query: dict, book, label_rule: dict[str, Optional[str]],
              outcome: dict[str, str], refs: dict[str, dict]) -> None:
        from forge.rulebook.injection import RulebookInjection
        from forge.rulebook.retrieval import RetrievalSettings

        context = context_of(query, self.observations)
        role = query["role"]
        actor = actor_name(query["actor"]) if query.get("actor") else None
        injection = RulebookInjection(book, RetrievalSettings.from_config(self.cfg.rulebook), actor=actor,
                                      window=0, embedder=self.embedder)
        injected = injection.for_call(role, context)
        got = set(injection.stage_one_ids(role)) | {item.id.split("@", 1)[0] for item in injected.items}
        expected = {label_rule.get(label) or f"<{label}: not in the book>" for label in query.get("expect") or []}
        labels = {rid: label for label, rid in label_rule.items() if rid}
        also = {label_rule[label] for label in query.get("also_applies") or [] if label_rule.get(label)}
        heads = book.heads()
        turned = {rid for rid in got if rid in heads and any(
            inverted(heads[rid].record.action, refs[label].get("action"), heads[rid].record.when, refs[label].get("when"))
            for label, r in label_rule.items() if r == rid and label in refs)}
        result = QueryResult(scenario["id"], scenario["split"], scenario["dimension"], role, context,
                             frozenset(expected), frozenset(got), injected.tokens, labels, frozenset(also),
                             frozenset(turned), dict(outcome))
        if self.behaviour and role in ("action_chooser", "planner"):
            self.judge_behaviour(result, book, injected, context)
        if self.calibrate and scenario["split"] not in UNREAD:  # calibrating on a held-out split would tune to it
            self.score_semantic(book, context, role, actor, result.expected)
        self.results.append(result)

    def score_semantic(self, book, context: str, role: str, actor: Optional[str], expected: frozenset[str]) -> None:
        """The mixed cosine of every semantic rule of the role, labelled by whether the case expects it."""
        from forge.rulebook.retrieval import RetrievalSettings

        index = book.index(None)
        vector = self.embedder.encode_one(context)
        found = index.search(context, vector, vector, role, RetrievalSettings.from_config(self.cfg.rulebook), actor,
                             explain=len(index.content))
        for candidate in found.candidates:
            if candidate.gate is None:
                self.semantic_scores[0 if candidate.rule_id in expected else 1].append(candidate.cosine)

    def judge_behaviour(self, result: QueryResult, book, injected, context: str) -> None:
        """Surrogate compliance: its chosen action against each expected rule that has an action."""
        from forge.rulebook.language import judge
        from forge.rulebook.language import meaning_of
        from forge.rulebook.language import matched_hosts
        from forge.rulebook.language import read_situation

        heads = book.heads()
        judged = []
        for rule_id in result.expected:
            head = heads.get(rule_id)
            if head is None or head.record.type != "CONTENT":
                continue
            meaning = meaning_of(head.record)
            if meaning.action is None:
                result.unjudged += 1
                continue
            judged.append(meaning)
        if not judged:
            return
        chosen = choose_action(self.clients[result.role], result.role, injected, context, self.cfg)
        situation = read_situation(context)
        for meaning in judged:
            result.verdicts.append(judge(meaning.action, chosen or "", matched_hosts(meaning.when, situation)))


def choose_action(client, role: str, injected, context: str, cfg) -> Optional[str]:
    """What the (surrogate) model picks with these rules injected, through the defender's own prompts."""
    from agents.prompting import memory_sections, render
    from agents.react import parse_planner_turn, parse_suggestions
    from forge.env.catalog import action_name, action_reference
    from forge.llm.types import Message

    memory = memory_sections(injected, None)
    if role == "action_chooser":
        system = render("action_chooser", reference=action_reference(), memory=memory)
    else:
        system = render("planner", max_tools=cfg.agent.max_tool_calls_per_step, memory=memory)
    completion = client.complete([Message("system", system), *injected.prefix, Message("user", context)], seed=7)
    if role == "action_chooser":
        suggestions = parse_suggestions(completion.text)
        return action_name(suggestions[0].action) if suggestions else None
    return parse_planner_turn(completion.text).answer


# -- scoring and the report ---------------------------------------------------------------------------


def score(results: list[QueryResult]) -> dict[str, float]:
    n = len(results)
    silent = [r for r in results if not r.expected]
    verdicts = [v for r in results for v in r.verdicts]
    return {
        "queries": n,
        "exact": 100.0 * sum(r.exact for r in results) / n if n else 0.0,
        "exact_n": sum(r.exact for r in results),
        "precision": 100.0 * sum(r.precision for r in results) / n if n else 0.0,
        "recall": 100.0 * sum(r.recall for r in results) / n if n else 0.0,
        "silence": 100.0 * sum(not r.injected for r in silent) / len(silent) if silent else 100.0,
        "silent_queries": len(silent),
        "harmful": sum(len(r.harmful) for r in results),
        "harmful_queries": sum(bool(r.harmful) for r in results),
        "not_applicable": sum(len(r.not_applicable) for r in results),
        "inverted": sum(len(r.inverted & r.injected) for r in results),
        "missed": sum(len(r.missed) for r in results),
        "outranked": sum(len(r.outranked) for r in results),
        "tokens": sum(r.tokens for r in results) / n if n else 0.0,
        "compliance": 100.0 * sum(v == "followed" for v in verdicts) / len(verdicts) if verdicts else float("nan"),
        "judged": len(verdicts),
        "contradicted": sum(v == "contradicted" for v in verdicts),
        "unjudged": sum(r.unjudged for r in results),
    }


def interval(successes: float, n: int) -> str:
    """95% Wilson interval of a proportion, in percent."""
    if n == 0:
        return "-"
    p, z = successes / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return f"{100 * max(0.0, centre - half):.0f}-{100 * min(1.0, centre + half):.0f}"


def table(title: str, results: list[QueryResult], scenarios: list[dict]):
    from rich.table import Table

    t = Table(title=title)
    for column in ("dimension", "scen.", "queries", "exact-set %", "95% CI", "precision %", "recall %",
                   "silence %", "tokens/query", "surrogate compliance % (judged)"):
        t.add_column(column, justify="left" if column == "dimension" else "right")
    by_dim = defaultdict(list)
    for r in results:
        by_dim[r.dimension].append(r)
    for dimension in (*DIMENSIONS, "overall"):
        rows = results if dimension == "overall" else by_dim.get(dimension, [])
        if not rows:
            continue
        s = score(rows)
        count = len(scenarios) if dimension == "overall" else sum(1 for x in scenarios if x["dimension"] == dimension)
        compliance = "-" if s["judged"] == 0 else f"{s['compliance']:.1f} ({s['judged']})"
        t.add_row(dimension, str(count), str(s["queries"]), f"{s['exact']:.1f}",
                  interval(sum(r.exact for r in rows), len(rows)), f"{s['precision']:.1f}", f"{s['recall']:.1f}",
                  f"{s['silence']:.1f} ({s['silent_queries']})", f"{s['tokens']:.1f}", compliance,
                  style="bold" if dimension == "overall" else None)
    return t


def harm_table(title: str, results: list[QueryResult], splits: tuple[str, ...]):
    """Per split: harm first, then misses and accuracy."""
    from rich.table import Table

    t = Table(title=title)
    for column in ("split", "queries", "harmful injections", "queries with harm", "not applicable", "inverted",
                   "missed", "outranked injected", "exact-set %", "95% CI", "silence %"):
        t.add_column(column, justify="left" if column == "split" else "right")
    for split in splits:
        rows = [r for r in results if r.split == split]
        if not rows:
            continue
        s = score(rows)
        t.add_row(SPLIT_NAMES.get(split, split), str(s["queries"]), str(s["harmful"]),
                  f"{s['harmful_queries']} ({s['harmful'] / s['queries']:.2f}/query)", str(s["not_applicable"]),
                  str(s["inverted"]), str(s["missed"]), str(s["outranked"]), f"{s['exact']:.1f}",
                  interval(s["exact_n"], s["queries"]), f"{s['silence']:.1f} ({s['silent_queries']})",
                  style="bold red" if s["harmful"] else None)
    return t


def class_table(title: str, results: list[QueryResult]):
    """Failure classes (what went wrong, and what the compiler had made of the rule), by dimension: counts only."""
    from rich.table import Table

    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in results:
        for kind, made in r.failure_classes():
            counts[(kind, made)][r.dimension] += 1
    t = Table(title=title)
    t.add_column("failure class", no_wrap=True)
    t.add_column("compiled as", no_wrap=True)
    t.add_column("total", justify="right")
    dims = [d for d in DIMENSIONS if any(d in c for c in counts.values())]
    for d in dims:
        t.add_column("".join(w[:4] for w in d.split("_")), justify="right")  # behachan = behavioural_change
    for (kind, made), by_dim in sorted(counts.items()):
        t.add_row(kind, made, str(sum(by_dim.values())), *(str(by_dim.get(d, "")) for d in dims))
    if not counts:
        t.add_row("none", "-", "0")
    return t


# -- infrastructure -----------------------------------------------------------------------------------


class CachingEmbedder:
    """The configured embedder with every encode going through its text cache: scenarios repeat texts
    (the same observation, the same rule), and one warm-up batch is far cheaper than many small calls."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(self, texts):
        return self.inner.encode_cached(list(texts))

    def encode_one(self, text):
        return self.inner.encode_one(text)

    def encode_cached(self, texts):
        return self.inner.encode_cached(list(texts))

    def prepare(self) -> None:
        self.inner.prepare()


def likely_texts(scenarios: list[dict], observations: dict[str, dict]) -> list[str]:
    """Every text the run will probably embed: query contexts, failure observations, and the forms a
    taught text's trigger takes (as written, without its justification, a grammar When-clause)."""
    from forge.rulebook.language.grammar import parse_rule
    from forge.rulebook.authoring import strip_justification, when_clause

    texts: dict[str, None] = {}
    for scenario in scenarios:
        for step in scenario["steps"]:
            (op, body), = step.items()
            if op == "query":
                texts[context_of(body, observations)] = None
            elif op == "teach":
                for item in body:
                    if item.get("failure"):
                        texts[observations[item["failure"]]["planner"]] = None
                    stripped = strip_justification(item["text"])[:300]
                    texts[" ".join(item["text"].split())] = None
                    texts[stripped] = None
                    grammar = parse_rule(item["text"])
                    if grammar is not None:
                        texts[when_clause(grammar)] = None
    return list(texts)


def run_bench(splits: tuple[str, ...] = SPLITS, overrides: tuple[str, ...] = (), *, behaviour: bool = True,
              progress: bool = True, only: Optional[set[str]] = None, compiler: str = "model", calibrate: bool = False,
              refusals: Optional[dict] = None) -> tuple[list[QueryResult], list[dict], list[str]]:
    """Run the scenarios of `splits` (or only the ids in `only`); (query results, scenarios, problems). `refusals`,
    if given, receives per (split, check) how many taught rules the product's checks kept semantic.
    `compiler`: `model` (the configured compiler model) or `reference` (the case files' compilations)."""
    from rich.progress import Progress

    from forge.config import load_config
    from forge.rulebook.retrieval import embedder_from_config
    from forge.wiring import build_clients

    cfg = load_config(overrides=list(overrides))
    observations = load_observations()
    scenarios = [s for split in splits for s in load_split(split, observations) if only is None or s["id"] in only]
    clients, _ = build_clients(cfg)
    if compiler == "reference":
        clients = {**clients, "compiler": ReferenceCompiler(reference_compilations(scenarios))}
    elif compiler != "model":
        raise ValueError(f"compiler must be model or reference, got {compiler!r}")
    with tempfile.TemporaryDirectory(prefix="dc-bench-") as tmp:
        # a private redis-server for the `backend: redis` scenarios (stopped below)
        redis = LocalRedis(Path(tmp) / "redis").start() if any(s.get("backend") == StoreKind.redis for s in scenarios) else None
        embedder = CachingEmbedder(embedder_from_config(cfg))
        embedder.encode(likely_texts(scenarios, observations))
        bench = Bench(observations, cfg, clients, embedder, Path(tmp), redis.url if redis else None, behaviour,
                      calibrate)
        try:
            with Progress(disable=not progress, transient=True) as bar:
                task = bar.add_task("scenarios", total=len(scenarios))
                for scenario in scenarios:
                    bench.run(scenario)
                    bar.advance(task)
        finally:
            if redis is not None:
                redis.stop()
    if refusals is not None:
        refusals.update(bench.refusals)
    if calibrate:
        from forge.rulebook.retrieval import choose_floor

        positive, negative = bench.semantic_scores
        bench.problems.append("semantic floor calibration: " + (
            choose_floor(positive, negative).summary() if positive else "no applying semantic (context, rule) pairs"))
    return bench.results, scenarios, bench.problems


def main(argv=None) -> int:
    from rich.console import Console

    parser = argparse.ArgumentParser(description="decision-context benchmark for the CAGE-2 rulebook")
    parser.add_argument("--split", choices=("all", *SPLITS), default="all")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="configuration override, e.g. --set rulebook.relevance_floor=0.5 (repeatable)")
    parser.add_argument("--failures", action="store_true", help="print every query whose injected set is wrong")
    parser.add_argument("--no-behaviour", action="store_true", help="skip the surrogate behaviour column")
    parser.add_argument("--calibrate", action="store_true",
                        help="measure the relevance floor for semantic rules (no predicate) on these cases")
    parser.add_argument("--compiler", choices=("model", "reference"), default="model",
                        help="model: the configured compiler model (default; the surrogate unless configured); "
                             "reference: the case files' own compilations (measures the rulebook apart from the compiler)")
    args = parser.parse_args(argv)
    console = Console(width=170)
    splits = SPLITS if args.split == "all" else (args.split,)
    if args.failures and set(splits) <= UNREAD:
        print("dc_bench: --failures is refused on an unread held-out split: its cases stay unread by anyone who "
              "changes the product; it reports aggregate figures and failure classes only", file=sys.stderr)
        return 2
    started = time.perf_counter()
    refusals: dict[tuple[str, str], int] = {}
    results, scenarios, problems = run_bench(splits, tuple(args.overrides), behaviour=not args.no_behaviour,
                                             compiler=args.compiler, calibrate=args.calibrate, refusals=refusals)
    elapsed = time.perf_counter() - started
    from forge.wiring import model_label
    from forge.config import load_config

    compiler = (model_label(load_config(overrides=list(args.overrides))) if args.compiler == "model"
                else "reference (the case files' compilations, not a model)")
    for split in splits:
        rows = [r for r in results if r.split == split]
        console.print(table(f"dc_bench {SPLIT_NAMES[split]} split ({sum(s['split'] == split for s in scenarios)} "
                            f"scenarios); compiler: {compiler}", rows, [s for s in scenarios if s["split"] == split]))
    if len(splits) > 1:
        console.print(table(f"dc_bench all splits; compiler: {compiler}", results, scenarios))
    console.print(harm_table(f"dc_bench harm first; compiler: {compiler}", results, splits))
    for split in splits:
        console.print(class_table(f"failure classes, {SPLIT_NAMES[split]}; compiler: {compiler}",
                                  [r for r in results if r.split == split]))
    for split in splits:
        taught = sum(1 for sc in scenarios if sc["split"] == split for st in sc["steps"] for _ in st.get("teach") or [])
        kinds = {check: n for (sp, check), n in sorted(refusals.items()) if sp == split}
        console.print(f"{SPLIT_NAMES[split]}: {sum(kinds.values())} of {taught} taught rules kept semantic by the product's "
                      f"checks ({', '.join(f'{k} {n}' for k, n in kinds.items()) or 'none'})", soft_wrap=True)
    for p in problems:
        if p.startswith("semantic floor calibration"):
            console.print(p, soft_wrap=True)
    if args.failures:
        open_ids = {s["id"] for s in scenarios if s["split"] not in UNREAD}
        for r in results:
            if not r.exact and r.split not in UNREAD:
                name = lambda ids: sorted(r.labels.get(i, i) for i in ids)  # noqa: E731
                harm = f" HARMFUL {name(r.harmful)}" if r.harmful else ""
                console.print(f"[red]{r.scenario}[/red] {r.role}: expected {name(r.expected)} got {name(r.injected)}"
                              f"{harm} | {' '.join(r.context.split())[:140]}", soft_wrap=True)
        for p in problems:
            if p.split(":", 1)[0] in open_ids:
                console.print(f"[yellow]{p}[/yellow]", soft_wrap=True)
        if set(splits) & UNREAD:
            console.print("(an unread held-out split's failures are not printed: its classes are in the table above)")
    for split in splits:
        s = score([r for r in results if r.split == split])
        print(f"{split} exact-set accuracy: {s['exact']:.1f}% ({s['queries']} queries); harmful {s['harmful']}; "
              f"missed {s['missed']}; silence {s['silence']:.1f}%")
    print(f"{len(scenarios)} scenarios, {len(results)} queries in {elapsed:.1f} s "
          f"(behaviour column: surrogate results, not an LLM's)")
    print(f"overall exact-set accuracy: {score(results)['exact']:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
