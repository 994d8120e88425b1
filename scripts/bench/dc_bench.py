"""Decision-context benchmark for the CAGE-2 rulebook (DC-Bench, adapted): are the right rules injected at
the right decision points, and nothing else?

Case files (`data/dc_bench/{dev,heldout,model_style}.yaml`, format in their header) hold scenarios across
nine dimensions; `model_style` holds rules written the way models write reflections (negations, exceptions
taught first, attack phases, history, plans, conditions the predicate language cannot express). Each
split is reported on its own, never only combined. Every scenario starts from a fresh rulebook (SQLite in a temporary directory, or a
namespace of a private redis-server for `backend: redis`), teaches its rules through the product's own
path (forge.rulebook.authoring.teaching: the grammar, else the configured compiler model: the surrogate by
default), and runs its queries: a decision context (a real CAGE-2 observation from
`data/dc_bench/observations.yaml`, rendered by the environment's text view, or an operator-written
one), a role and a querying actor, with the set of rules that must be injected (FORMAT rules of the
role included) and nothing else.

Scores per dimension and overall: exact-set accuracy, precision, recall, silence accuracy (queries
that expect nothing and get nothing), injected tokens per query; and, labelled as surrogate results,
behavioural compliance: the surrogate ActionChooser / Planner is called with what was injected, and
`forge.rulebook.language.action.judge` says whether its chosen action followed each expected rule that has a
structured action (rules the compiler left semantic have no action to judge and are counted apart).

    PYTHONPATH=. .venv/bin/python scripts/bench/dc_bench.py [--split all|dev|heldout|model_style] [--failures] [--set KEY=VALUE]

The last line printed is `overall exact-set accuracy: NN.N%`.
"""

from __future__ import annotations

import argparse
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
from forge.local_redis import LocalRedis  # noqa: E402

DATA = ROOT / "data" / "dc_bench"
SPLITS = ("dev", "heldout", "model_style")
DIMENSIONS = ("behavioural_change", "conditional_activation", "exception_handling", "generalisation_boundary",
              "implicit_learning", "persistence", "recall", "scope_precision", "temporal_coherence")
VIEWS = ("alerts", "table", "planner", "chooser", "analyst")
ROLE_VIEW = {"planner": "planner", "action_chooser": "chooser", "analyst": "analyst"}


class CaseError(ValueError):
    """A case file that does not fit the format; the message names the file, scenario and key."""


# -- case files ---------------------------------------------------------------------------------------


def load_observations(path: Path = DATA / "observations.yaml") -> dict[str, dict]:
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict):
        raise CaseError(f"{path}: expected a mapping of observation keys")
    return data


def load_split(split: str, observations: dict[str, dict]) -> list[dict]:
    path = DATA / f"{split}.yaml"
    data = yaml.safe_load(path.read_text()) or {}
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
            unknown = set(body.get("expect") or []) - labels
            if unknown:
                raise CaseError(f"{where}: expect names labels not taught before it: {sorted(unknown)}")
        elif op != "reopen":
            raise CaseError(f"{where}: unknown step {op!r} (teach, withdraw, restore, reopen, query)")


def context_of(query: dict, observations: dict[str, dict]) -> str:
    if "context" in query:
        return query["context"]
    obs = observations[query["obs"]]
    view = query.get("view") or ROLE_VIEW.get(query["role"], "alerts")
    if view == "chooser":
        return f"Situation (from the Planner): see the alerts\n\nAlerts:\n{obs['alerts']}"
    if view not in obs:
        raise CaseError(f"observation {query['obs']!r} has no {view!r} view (a quiet network has no Analyst context)")
    return obs[view]


def reference_compilations(scenarios: list[dict]) -> dict[str, dict]:
    """Artifact text -> the case author's compilation (`ref`), for `--compiler reference`."""
    refs: dict[str, dict] = {}
    for scenario in scenarios:
        for step in scenario["steps"]:
            for item in step.get("teach") or []:
                if "ref" in item:
                    refs[" ".join(item["text"].split())] = item["ref"]
    return refs


class ReferenceCompiler:
    """Answers the Rule Compiler's prompt (agents/prompts/compiler.md) with the case author's compilations: the
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
    verdicts: list[str] = field(default_factory=list)  # surrogate behaviour, one per judged rule
    unjudged: int = 0  # expected rules with no structured action

    @property
    def exact(self) -> bool:
        return self.expected == self.injected

    @property
    def precision(self) -> float:
        return len(self.expected & self.injected) / len(self.injected) if self.injected else 1.0

    @property
    def recall(self) -> float:
        return len(self.expected & self.injected) / len(self.expected) if self.expected else 1.0


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
    guard_scores: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    condition_scores: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    results: list[QueryResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

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
        compiler = RuleCompiler(self.clients["compiler"])
        label_rule: dict[str, Optional[str]] = {}
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
                    for item, rule_id, result in zip(body, taught.rule_ids, taught.results):
                        label_rule[item["as"]] = rule_id
                        if rule_id is None:
                            self.problems.append(f"{scenario['id']}: {item['as']} was {result}")
                    self.problems += [f"{scenario['id']}: {p}" for p in taught.compile.problems]
                elif op == "withdraw" and label_rule.get(body):
                    book.withdraw(label_rule[body], Provenance(actor="dc-bench"))
                elif op == "restore" and label_rule.get(body):
                    book.restore(label_rule[body], provenance=Provenance(actor="dc-bench"))
                elif op == "reopen":
                    book.store.close()
                    book = Rulebook(open_rulebook(spec, namespace, create=False), self.embedder)
                elif op == "query":
                    self.query(scenario, body, book, label_rule)
        finally:
            book.store.close()

    def query(self, scenario: dict, query: dict, book, label_rule: dict[str, Optional[str]]) -> None:
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
        result = QueryResult(scenario["id"], scenario["split"], scenario["dimension"], role, context,
                             frozenset(expected), frozenset(got), injected.tokens, labels)
        if self.behaviour and role in ("action_chooser", "planner"):
            self.judge_behaviour(result, book, injected, context)
        if self.calibrate:
            self.score_semantic(book, context, role, actor, result.expected)
        self.results.append(result)

    def score_semantic(self, book, context: str, role: str, actor: Optional[str], expected: frozenset[str]) -> None:
        """The mixed cosine of every semantic rule of the role, and the guard cosine (unexpressed text to the
        context) of every guarded rule whose predicate holds here, each labelled by whether the case expects it."""
        from forge.rulebook.retrieval import RetrievalSettings

        index = book.index(None)
        vector = self.embedder.encode_one(context)
        found = index.search(context, vector, vector, role, RetrievalSettings.from_config(self.cfg.rulebook), actor,
                             explain=len(index.content))
        from forge.rulebook.language.condition import condition_of

        position = {v.rule_id: i for i, v in enumerate(index.content)}
        for candidate in found.candidates:
            label = 0 if candidate.rule_id in expected else 1
            # The guard's proxy: the rule's own condition phrase against the context (what a guard compares).
            condition = condition_of(index.content[position[candidate.rule_id]].record.directive)
            self.condition_scores[label].append(float(self.embedder.encode_one(condition) @ vector))
            if candidate.gate is None:
                self.semantic_scores[label].append(candidate.cosine)
            elif candidate.gate and index.guarded[position[candidate.rule_id]]:
                self.guard_scores[label].append(float(index.guard_matrix[position[candidate.rule_id]] @ vector))

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
        "precision": 100.0 * sum(r.precision for r in results) / n if n else 0.0,
        "recall": 100.0 * sum(r.recall for r in results) / n if n else 0.0,
        "silence": 100.0 * sum(not r.injected for r in silent) / len(silent) if silent else 100.0,
        "silent_queries": len(silent),
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
    from forge.grammar import parse_rule
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
              progress: bool = True, only: Optional[set[str]] = None,
              compiler: str = "model", calibrate: bool = False) -> tuple[list[QueryResult], list[dict], list[str]]:
    """Run the scenarios of `splits` (or only the ids in `only`); (query results, scenarios, problems).
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
    if calibrate:
        from forge.rulebook.retrieval import choose_floor

        positive, negative = bench.semantic_scores
        bench.problems.append("semantic floor calibration: " + (
            choose_floor(positive, negative).summary() if positive else "no applying semantic (context, rule) pairs"))
        positive, negative = bench.guard_scores
        bench.problems.append("semantic floor calibration, guard (rulebook.guard_floor; cosine of a guarded rule's "
                              f"unexpressed text to contexts where its predicate holds; {len(positive)} expected, "
                              f"{len(negative)} not): " + (
            choose_floor(positive, negative).summary().replace("relevance floor", "guard floor")
            if positive else "no expected guarded (context, rule) pairs"))
        positive, negative = bench.condition_scores
        bench.problems.append("semantic floor calibration, guard proxy (cosine of every rule's condition phrase to "
                              f"each context; {len(positive)} expected, {len(negative)} not): " + (
            choose_floor(positive, negative).summary().replace("relevance floor", "guard floor")
            if positive else "no expected (context, rule) pairs"))
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
    started = time.perf_counter()
    results, scenarios, problems = run_bench(splits, tuple(args.overrides), behaviour=not args.no_behaviour,
                                             compiler=args.compiler, calibrate=args.calibrate)
    elapsed = time.perf_counter() - started
    from forge.wiring import model_label
    from forge.config import load_config

    compiler = (model_label(load_config(overrides=list(args.overrides))) if args.compiler == "model"
                else "reference (the case files' compilations, not a model)")
    for split in splits:
        rows = [r for r in results if r.split == split]
        console.print(table(f"dc_bench {split} split ({sum(s['split'] == split for s in scenarios)} scenarios); "
                            f"compiler: {compiler}", rows, [s for s in scenarios if s["split"] == split]))
    if len(splits) > 1:
        console.print(table(f"dc_bench all splits; compiler: {compiler}", results, scenarios))
    for p in problems:
        if p.startswith("semantic floor calibration"):
            console.print(p, soft_wrap=True)
    if args.failures:
        for r in results:
            if not r.exact:
                name = lambda ids: sorted(r.labels.get(i, i) for i in ids)  # noqa: E731
                console.print(f"[red]{r.scenario}[/red] {r.role}: expected {name(r.expected)} got {name(r.injected)} "
                              f"| {' '.join(r.context.split())[:140]}", soft_wrap=True)
        for p in problems:
            console.print(f"[yellow]{p}[/yellow]", soft_wrap=True)
    for split in splits:
        s = score([r for r in results if r.split == split])
        print(f"{split} exact-set accuracy: {s['exact']:.1f}% ({s['queries']} queries); silence {s['silence']:.1f}%")
    print(f"{len(scenarios)} scenarios, {len(results)} queries in {elapsed:.1f} s "
          f"(behaviour column: surrogate results, not an LLM's)")
    print(f"overall exact-set accuracy: {score(results)['exact']:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
