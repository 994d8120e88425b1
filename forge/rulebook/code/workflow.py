"""Rule files against a real book: plan, save a plan, apply it by compare-and-set, and scratch copies.

- `plan_files(book, paths, ...)` reads the files (schema-checked), compiles what has no stated meaning,
  reads the book at one version and returns the pure plan (plan.py) with the files' origins (git commit).
- `save_plan` / `load_plan`: a plan kept in a JSON file (`forge rulebook plan --out`), like
  `terraform plan -out`: `apply --plan FILE` applies exactly it, or nothing.
- `apply_planned(book, planned, ...)`: one commit of the plan's changes against the book version it was
  planned on. The book moved since (another writer committed): refused, nothing written; plan again.
  A file changed since a saved plan, or with uncommitted changes in git: refused too (the provenance
  would not say what was applied). Applying a plan with no changes writes nothing: apply is idempotent.
- `copy_book(book, directory)`: the book's rules in a scratch SQLite book (for `forge rulebook test
  --rules`, which applies a pull request's rule files to a copy, never to the book).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence

from forge.llm.types import ChatClient
from forge.memory.model import Provenance
from forge.rulebook.authoring.step_corrections import load_trace_step
from forge.rulebook.book import Rulebook
from forge.rulebook.code.export import book_entries, dump_rule_file
from forge.rulebook.code.meaning import entry_meanings
from forge.rulebook.code.origin import FileOrigin, file_origin
from forge.rulebook.code.plan import FilePlan, entry_rule_id, plan_rule_files
from forge.rulebook.code.rulefile import RuleFile, TestFile, read_rule_file, read_test_file
from forge.rulebook.code.ruletest import CaseResult, run_cases
from forge.rulebook.model import BookVersion, ConcurrentBookUpdate, DecisionNode, RuleChange, RuleRecord, RulebookError, check_actor
from forge.rulebook.query import query_rules
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.rulebook.store.backends import open_rulebook
from forge.runs.rundir import local_run_path

PLAN_FORMAT = "forge-rulebook-plan"
PLAN_FORMAT_VERSION = 1


class PlanRefused(RulebookError):
    """A plan that cannot be applied as it is: errors in it, a book or a file that moved since it was made."""


@dataclass(frozen=True)
class PlannedFiles:
    """A plan and what it was made from: which book (and at which version: `plan.book_version`) and which files."""

    plan: FilePlan
    rulebook: str  # the book's identity (book_identity)
    origins: tuple[FileOrigin, ...]
    model: Optional[str] = None  # the compiler model, when the plan compiled an entry with one

    def note(self) -> str:
        """The book version's note: which files, at which commits, made it."""
        return "rule files: " + "; ".join(o.describe() for o in self.origins)

    def to_dict(self) -> dict[str, Any]:
        return {"format": PLAN_FORMAT, "version": PLAN_FORMAT_VERSION, "rulebook": self.rulebook,
                "origins": [o.to_dict() for o in self.origins], "model": self.model, "plan": self.plan.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PlannedFiles":
        if data.get("format") != PLAN_FORMAT or data.get("version") != PLAN_FORMAT_VERSION:
            raise RulebookError(f"not a saved rulebook plan (format {data.get('format')!r}, version {data.get('version')!r})")
        return cls(FilePlan.from_dict(data["plan"]), data["rulebook"],
                   tuple(FileOrigin.from_dict(o) for o in data["origins"]), data.get("model"))


@dataclass(frozen=True)
class Applied:
    planned: PlannedFiles
    book_version: Optional[BookVersion]  # None: nothing to change


def book_identity(book: Rulebook) -> str:
    """The book a plan is for: a SQLite file by its resolved path, a Redis book by its (masked) URL and namespace."""
    path = getattr(book.store, "path", None)
    where = str(Path(path).resolve()) if path is not None else book.store.spec
    return f"{where}#{book.store.namespace}"


def _consistent_read(book: Rulebook) -> tuple[int, dict[str, RuleRecord]]:
    """The book's head records and the version they belong to (read again if a commit landed in between)."""
    for _ in range(10):
        version = book.store.book_head()
        heads = book.records()
        if book.store.book_head() == version:
            return version, heads
    raise RulebookError(f"the rulebook {book.store.spec} keeps moving; plan again when it is quiet")


def read_rule_files(paths: Sequence[str | Path]) -> list[RuleFile]:
    if not paths:
        raise RulebookError("name at least one rule file")
    missing = [str(p) for p in paths if not Path(p).is_file()]
    if missing:
        raise RulebookError(f"no rule file {missing[0]}")
    return [read_rule_file(p) for p in paths]


def plan_files(book: Rulebook, paths: Sequence[str | Path], *, compiler_client: Callable[[], Optional[ChatClient]],
               compiler_model: Optional[str] = None, seed: int = 0) -> PlannedFiles:
    """What applying the rule files at `paths` to `book` would change (see the module docstring)."""
    files = read_rule_files(paths)
    origins = tuple(file_origin(p) for p in paths)
    version, heads = _consistent_read(book)
    entries = [e for rf in files for e in rf.entries]
    meanings, problems = entry_meanings(entries, heads, compiler_client, entry_rule_id, seed=seed)
    records = list(heads.values())
    trigger_texts = {node_id: node.text for node_id, node in book.trigger_nodes(records).items()}
    plan = plan_rule_files(version, heads, meanings, trigger_texts=trigger_texts, evidence=book.evidence_of(records),
                           near_duplicate_threshold=book.near_duplicate_threshold, compiler_problems=problems)
    schema_errors = tuple(f for rf in files for f in rf.findings)
    if schema_errors:
        plan = replace(plan, errors=schema_errors + plan.errors)
    by_model = any(m.origin == "compiled" and m.compiled is not None and m.compiled.compiled_by == "model" for m in meanings)
    return PlannedFiles(plan, book_identity(book), origins, compiler_model if by_model else None)


def save_plan(planned: PlannedFiles, path: str | Path) -> Path:
    if planned.plan.errors:
        raise PlanRefused(f"a plan with {len(planned.plan.errors)} error(s) is not saved: fix the files and plan again")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(planned.to_dict(), indent=1, sort_keys=True) + "\n")
    return target


def load_plan(path: str | Path) -> PlannedFiles:
    try:
        data = json.loads(Path(path).read_text())
    except ValueError as exc:
        raise RulebookError(f"{path} is not a saved plan: {exc}") from None
    try:
        return PlannedFiles.from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise RulebookError(f"{path} is not a readable saved plan ({type(exc).__name__}: {exc})") from None


def check_files_unchanged(planned: PlannedFiles) -> None:
    """A saved plan applies only to the files it was made from, byte for byte."""
    for origin in planned.origins:
        path = Path(origin.path)
        if not path.is_file():
            raise PlanRefused(f"{origin.path}, which the plan was made from, is gone")
        if hashlib.sha256(path.read_bytes()).hexdigest() != origin.sha256:
            raise PlanRefused(f"{origin.path} changed since the plan was made: plan again")


def apply_planned(book: Rulebook, planned: PlannedFiles, *, actor: str, allow_uncommitted: bool = False,
                  expected_version: Optional[int] = None) -> Applied:
    """Commit the plan's changes as one book version, compare-and-set on the version it was planned on."""
    plan = planned.plan
    if plan.errors:
        raise PlanRefused(f"the plan has {len(plan.errors)} error(s) (listed above): fix the files and plan again")
    if planned.rulebook != book_identity(book):
        raise PlanRefused(f"the plan is for the rulebook {planned.rulebook}, not {book_identity(book)}")
    dirty = [o for o in planned.origins if o.in_git and o.uncommitted]
    if dirty and not allow_uncommitted:
        raise PlanRefused(f"{dirty[0].path} has changes git has not committed: commit it (its commit is the "
                          f"provenance of what is applied), or pass --allow-uncommitted")
    if expected_version is not None and expected_version != plan.book_version:
        raise PlanRefused(f"the rulebook moved since the plan you reviewed: it was at book version {expected_version}, "
                          f"it is at {plan.book_version}; plan again and review")
    now = book.store.book_head()
    if now != plan.book_version:
        raise PlanRefused(f"the rulebook moved since the plan: planned at book version {plan.book_version}, now "
                          f"{now}; plan again")
    if plan.empty:
        return Applied(planned, None)
    book.ensure_vectors([n for n in plan.nodes if isinstance(n, DecisionNode)])
    book.store.put_nodes(plan.nodes)
    try:
        version = book.store.commit(plan.changes, expected_book=plan.book_version, op="apply",
                                    provenance=Provenance(actor=check_actor(actor), model=planned.model),
                                    note=planned.note())
    except ConcurrentBookUpdate as exc:
        raise PlanRefused(f"the rulebook moved while applying: planned at book version {exc.expected}, another writer "
                          f"committed {exc.actual}; nothing was applied, plan again") from None
    return Applied(planned, version)


def copy_book(book: Rulebook, directory: str | Path) -> Rulebook:
    """The book's head records, with the nodes and vectors they cite, in a new SQLite book under `directory`
    (one commit: a copy for trying changes on, not a history)."""
    store = open_rulebook(Path(directory) / "scratch-rulebook.db", book.store.namespace)
    copy = Rulebook(store, embedder_factory=lambda: book.embedder, near_duplicate_threshold=book.near_duplicate_threshold)
    heads = book.records()
    if not heads:
        return copy
    cited = {n for r in heads.values() for n in (r.trigger, *r.evidence, *r.counter_evidence,
                                                 *(f"actor:{a}" for a in r.actors), f"group:{r.group}") if n}
    store.put_nodes(book.store.nodes(cited).values())
    name = book.embedder.name
    vectors = book.store.vectors(name, [n for n in cited if n.startswith("dn-")])
    if vectors:
        store.put_vectors(name, vectors)
    store.commit([RuleChange(record, "add") for record in heads.values()], expected_book=0, op="copy",
                 note=f"a scratch copy of {book.store.spec} at book version {book.store.book_head()}")
    return copy


@dataclass(frozen=True)
class RuleTestRun:
    """The cases' results, and which rules they ran against."""

    results: tuple[CaseResult, ...]  # in file order
    files: tuple[TestFile, ...]
    book: str  # what the cases ran against, in words
    book_version: int
    applied: Optional[PlannedFiles] = None  # the rule files applied to the scratch copy

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if not r.passed)


def run_rule_tests(book: Optional[Rulebook], test_paths: Sequence[str | Path], rule_paths: Sequence[str | Path], *,
                   settings: RetrievalSettings, compiler_client: Callable[[], Optional[ChatClient]], embedder_factory: Callable[[], Any],
                   near_duplicate_threshold: float = 0.9) -> RuleTestRun:
    """Run the rule tests at `test_paths` against `book` (None: an empty book), with the rule files at
    `rule_paths` applied to a scratch copy first, so a change to the rules and its tests run together."""
    missing = [str(p) for p in test_paths if not Path(p).is_file()]
    if missing:
        raise RulebookError(f"no rule-test file {missing[0]}")
    files = tuple(read_test_file(p) for p in test_paths)
    problems = [f for tf in files for f in tf.findings if f.error]
    if problems:
        raise RulebookError(f"{problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    with tempfile.TemporaryDirectory(prefix="forge-rule-tests-") as scratch:
        described = f"{book.store.spec}" if book is not None else "an empty book"
        target = book
        planned = None
        if rule_paths:
            if book is None:
                target = Rulebook(open_rulebook(Path(scratch) / "scratch-rulebook.db"), embedder_factory=embedder_factory,
                                  near_duplicate_threshold=near_duplicate_threshold)
            else:
                target = copy_book(book, scratch)
            planned = plan_files(target, rule_paths, compiler_client=compiler_client)
            if planned.plan.errors:
                raise PlanRefused(f"the rule files cannot be applied: {planned.plan.errors[0]}"
                                  + (f" (and {len(planned.plan.errors) - 1} more)" if len(planned.plan.errors) > 1 else ""))
            apply_planned(target, planned, actor="user:rule-tests", allow_uncommitted=True)
            described += f" + {', '.join(str(p) for p in rule_paths)} (on a scratch copy)"
        elif book is None:
            raise RulebookError("no rulebook to test: name one with --rulebook, or rule files with --rules")
        heads = target.records()

        def injected_for(context: str, role: str, actor: Optional[str]) -> list[str]:
            return [v.rule_id for v in query_rules(target, context, settings, role=role, actor=actor, explain=0).injected]

        def load_step(run: str, instance: str, episode: str, step: int) -> str:
            return load_trace_step(local_run_path(run), instance, episode, step, 0).observation

        entries = frozenset(s.entry for s in planned.plan.steps) if planned is not None else frozenset()
        results = run_cases(files, heads, injected_for, load_step, entries)
        return RuleTestRun(tuple(results), files, described, target.store.book_head(), planned)


SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schemas" / "rulebook.schema.json"


@dataclass(frozen=True)
class RuleFileText:
    text: str
    rules: int


def book_as_rule_file(book: Rulebook, out: Optional[str | Path] = None) -> RuleFileText:
    """The book's active rules as a rule file's text (export.py). Written to `out`, the file names the
    published schema by its path from there, for editors."""
    heads = book.records()
    texts = {node_id: node.text for node_id, node in book.trigger_nodes(heads.values()).items()}
    schema_ref = None
    if out is not None and SCHEMA_FILE.is_file():
        schema_ref = Path(os.path.relpath(SCHEMA_FILE, Path(out).resolve().parent)).as_posix()
    entries = book_entries(heads, texts)
    return RuleFileText(dump_rule_file(entries, schema_ref), len(entries))
