"""`forge rulebook export|add|list|show|history|withdraw|restore|query|calibrate|stats|review|plan|apply|test|lint`:
the decision-context rulebook.

The rulebook lives in one store (default `runs/rulebook.db`, or `--rulebook SPEC`: a .db file or a
redis:// URL). Every change is a new version with provenance; `withdraw` is a tombstone, `restore`
brings an earlier version back. `plan`, `apply`, `test`, `lint` and `export --format yaml` keep rules in
reviewed files (the rulebook as code: forge/rulebook/code, docs/rulebook-as-code.md).
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime

from rich.table import Table
from rich.text import Text

from forge.commands.common import (
    bar_per_name, check_role, compiler_client, console, login, open_rulebook, progress_bars, rulebook_config, user_actor,
)
from forge.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--rulebook", metavar="SPEC", help="rulebook .db file or redis:// URL (default: rulebook.store, runs/rulebook.db)")
    common.add_argument("--namespace", default="forge", help="key namespace in the rulebook store (default: forge)")
    common.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="configuration override, e.g. --set rulebook.relevance_floor=0.5 (repeatable)")

    parser = subparsers.add_parser("rulebook", help="compile, inspect, query and correct the decision-context rulebook")
    actions = parser.add_subparsers(dest="rulebook_command", required=True)
    _register_teaching(actions, common)
    _register_reading(actions, common)
    _register_judging(actions, common)
    _register_code(actions, common)


def _register_teaching(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """export, add: how rules enter the book."""
    export = actions.add_parser("export", parents=[common],
                                help="compile a run's champion memory into the rulebook; or write a book (or a champion) as a rule file")
    export.add_argument("run_dir", metavar="RUN_DIR", nargs="?",
                        help="the run whose champion to compile (optional with --format yaml: then the book is written)")
    export.add_argument("--instance", help="the instance whose memory to export (default: the ledger's champion)")
    export.add_argument("--format", choices=("book", "yaml"), default="book",
                        help="book: compile into the rulebook (default); yaml: write a rule file for review (a run's "
                             "champion is compiled into a scratch book: the rulebook is not changed)")
    export.add_argument("--out", metavar="FILE", default="-", help="with --format yaml: the file to write (default: stdout)")
    export.set_defaults(func=_export)

    add = actions.add_parser("add", parents=[common], help="teach a rule: an explicit human correction")
    add.add_argument("text", help="the correction, e.g. \"When Op_Server0 shows any compromise, then Restore Op_Server0\"")
    add.add_argument("--actor", required=True, help="who teaches it: NAME (stored as user:NAME) or user:NAME")
    add.add_argument("--role", required=True, help="the agent role it is for: planner, analyst or action_chooser")
    add.add_argument("--context", help="the decision context it applies to (default: the situation the compiler states)")
    add.add_argument("--replaces", action="append", default=[], metavar="RULE",
                     help="a rule this one replaces (id or unique prefix; repeatable). Without it a new rule "
                          "replaces only the teacher's own rule on an equivalent trigger, or one on the same hosts "
                          "that its text says it revises (\"Actually, ...\", \"Update: ...\", \"from now on\")")
    add.set_defaults(func=_add)


def _register_reading(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """list, show, history, withdraw, restore, query: the book as it is and as it was."""
    listing = actions.add_parser("list", parents=[common], help="rules with status, support and actors")
    listing.add_argument("--all", action="store_true", help="include superseded and withdrawn rules")
    listing.add_argument("--role", help="only rules for this role")
    listing.add_argument("--actor", help="only rules this actor teaches")
    listing.set_defaults(func=_list)

    show = actions.add_parser("show", parents=[common], help="one rule: its head version and its edges")
    show.add_argument("rule", metavar="RULE", help="rule id (or a unique prefix, or <id>@v<n>)")
    show.set_defaults(func=_show)

    history = actions.add_parser("history", parents=[common], help="every version of a rule, or the book's commits")
    history.add_argument("rule", metavar="RULE", nargs="?", help="a rule (default: the whole book)")
    history.add_argument("--chain", action="store_true",
                         help="the rule's correction chain (supersedes / corrects), oldest first, with who, when and why")
    history.set_defaults(func=_history)

    withdraw = actions.add_parser("withdraw", parents=[common], help="withdraw a rule (tombstone): never injected again")
    withdraw.add_argument("rule", metavar="RULE")
    withdraw.add_argument("--actor", help="who withdraws it (default: user:<login>)")
    withdraw.add_argument("--note", default="", help="why")
    withdraw.set_defaults(func=_withdraw)

    restore = actions.add_parser("restore", parents=[common],
                                 help="bring a rule back with an earlier version's content, or the whole book to a book version")
    restore.add_argument("rule", metavar="RULE", nargs="?", help="the rule (omit with --book)")
    restore.add_argument("--version", type=int, help="the rule version to restore (default: its newest active one)")
    restore.add_argument("--book", type=int, metavar="N", help="restore every rule to how it was at book version N")
    restore.add_argument("--actor", help="who restores it (default: user:<login>)")
    restore.set_defaults(func=_restore)

    query = actions.add_parser("query", parents=[common], help="which rules a decision context retrieves, with scores")
    query.add_argument("context", help="the decision context (an observation, a host table, a situation)")
    query.add_argument("--role", help="the calling role (default: any role)")
    query.add_argument("--actor", help="the querying actor, for conflict resolution")
    query.add_argument("--top", type=int, default=10, help="candidates to show (default 10)")
    query.set_defaults(func=_query)


def _register_judging(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """calibrate, stats, review: how well the rules are found and what they did."""
    calibrate = actions.add_parser("calibrate", parents=[common],
                                   help="measure the relevance floor against predicate-labelled contexts of real episodes")
    calibrate.add_argument("run_dir", metavar="RUN_DIR")
    calibrate.add_argument("--instance", help="the instance whose memory to use (default: the ledger's champion)")
    calibrate.add_argument("--episodes", type=int, default=5)
    calibrate.add_argument("--target-recall", type=float, default=0.95)
    calibrate.set_defaults(func=_calibrate)

    stats = actions.add_parser("stats", parents=[common],
                               help="efficacy per rule from the aftermath of its injections in runs' traces")
    stats.add_argument("run_dirs", metavar="RUN_DIR", nargs="*",
                       help="run directories whose traces to read (default: every run under run.runs_dir)")
    stats.add_argument("--record", action="store_true",
                       help="record each verdict as evidence on its rule (helpful: SUPPORTED_BY, harmful: COUNTERED_BY)")
    stats.add_argument("--actor", help="who records the evidence (default: user:<login>)")
    stats.set_defaults(func=_stats)

    review = actions.add_parser("review", parents=[common],
                                help="rules that need a person: harmful, never followed, never triggered, outdone by a conflicting rule")
    review.add_argument("run_dirs", metavar="RUN_DIR", nargs="*", help="as for stats")
    review.set_defaults(func=_review)


def _register_code(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """plan, apply, test, lint: the rulebook as code."""
    plan = actions.add_parser("plan", parents=[common], help="what applying rule files would change, rule by rule")
    plan.add_argument("files", metavar="FILE", nargs="+", help="rule files (YAML): together, every rule they manage")
    plan.add_argument("--out", metavar="PLAN", help="save the plan (JSON): `apply --plan PLAN` applies exactly it, or nothing")
    plan.set_defaults(func=_plan)

    apply = actions.add_parser("apply", parents=[common], help="apply rule files to the rulebook: one versioned change")
    apply.add_argument("files", metavar="FILE", nargs="*", help="rule files (omit with --plan)")
    apply.add_argument("--plan", dest="plan_file", metavar="PLAN", help="apply a plan saved by `plan --out`, exactly")
    apply.add_argument("--plan-version", type=int, metavar="V",
                       help="refuse unless the rulebook is still at book version V (the plan you reviewed was made at V)")
    apply.add_argument("--actor", help="who applies (default: user:<login>)")
    apply.add_argument("--allow-uncommitted", action="store_true",
                       help="apply files with changes git has not committed (the provenance says so)")
    apply.set_defaults(func=_apply)

    test = actions.add_parser("test", parents=[common], help="rule tests: which rules decision contexts must (not) receive")
    test.add_argument("tests", metavar="TESTS", nargs="+", help="rule-test files (YAML)")
    test.add_argument("--rules", action="extend", nargs="+", default=[], metavar="FILE",
                      help="rule files applied to a scratch copy of the rulebook before the cases run")
    test.add_argument("--no-book", action="store_true", help="start from an empty book: only the rules of --rules")
    test.add_argument("--junit", metavar="PATH", help="also write the results as JUnit XML")
    test.set_defaults(func=_test)

    lint = actions.add_parser("lint", help="check rule files: schema, names, triggers that never or always fire, conflicts")
    lint.add_argument("files", metavar="FILE", nargs="+")
    lint.add_argument("--strict", action="store_true", help="warnings fail too")
    lint.set_defaults(func=_lint)


# -- plumbing -----------------------------------------------------------------------------------------


def _say(text) -> None:
    """One line of output, never wrapped (tests and scripts read these lines)."""
    console.print(text, soft_wrap=True)


def _short(text: str, limit: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- export -------------------------------------------------------------------------------------------


def _export(args: argparse.Namespace) -> int:
    if args.format == "yaml":
        return _export_yaml(args)
    if args.run_dir is None:
        raise UsageError("name the RUN_DIR whose champion to compile (or --format yaml to write the rulebook as a rule file)")
    found = _run_memory(args)
    _export_run(found, open_rulebook(args, found.cfg), console)
    return 0


def _run_memory(args: argparse.Namespace):
    from forge.wiring import open_run_memory

    return open_run_memory(args.run_dir, args.instance, args.overrides)


def _export_run(found, book, out) -> None:
    """Compile the run's champion memory into `book`, and print (to `out`) what became of each item."""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring import RuleCompiler
    from forge.rulebook.authoring import MemorySync
    from forge.rulebook.authoring import FailureLibrary
    from forge.wiring import build_clients, model_label

    cfg = found.cfg
    snapshot = found.snapshot()
    clients, _ = build_clients(cfg)
    sync = MemorySync(book, lambda: RuleCompiler(clients["compiler"]), FailureLibrary(found.run.path),
                      window=cfg.rulebook.context_window)
    out.print(f"[bold]Rulebook export[/bold] of {found.key} ({found.chosen_by}): {len(snapshot)} memory items, "
              f"digest {snapshot.digest[:12]}; compiler model {model_label(cfg)}\nrulebook {book.store.spec}", soft_wrap=True)
    with progress_bars() as progress:
        result = sync.sync(snapshot, provenance=Provenance(session=found.session, instance=found.instance,
                                                           actor=f"user:{login()}", model=cfg.models.for_role("compiler").model),
                           progress=bar_per_name(progress))
    table = Table(title=f"{found.key}: {result.kept} rules kept, {result.dropped} dropped, "
                        f"{result.already} already compiled, {result.refused} refused", show_lines=False)
    for column in ("item", "kind/role", "verdict", "by", "type", "group", "directive / reason", "trigger", "rule"):
        table.add_column(column)
    outcome_by_rule = {o.rule_id: o.result for o in (result.teach.outcomes if result.teach else ())}
    for entry in result.items:
        c = entry.compiled
        table.add_row(entry.item.id[:10], f"{entry.item.kind}/{entry.item.role}", c.verdict, c.compiled_by,
                      c.type if c.kept else "", c.group, Text(_short(c.directive if c.kept else c.reason, 90)),
                      entry.trigger, f"{entry.rule_id[:10]} {outcome_by_rule.get(entry.rule_id, '')}" if entry.rule_id else "")
    out.print(table)
    for problem in result.compile.problems:
        out.print(Text(f"  compiler: {problem}"), soft_wrap=True)
    summary = {"run_dir": str(found.run.path), "memory": found.key, "chosen_by": found.chosen_by,
               "memory_digest": snapshot.digest, "rulebook": book.store.spec, "model": model_label(cfg), **result.to_dict()}
    if summary["book_version"] is None:  # nothing new was taught: the book as it stands
        summary["book_version"] = book.book_version()
    path = found.run.write_json("reports/rulebook_export.json", summary)
    out.print(f"book version {summary['book_version']}; report {path}", soft_wrap=True)


def _export_yaml(args: argparse.Namespace) -> int:
    """The rulebook, or a run's champion compiled into a scratch book, as a rule file."""
    import tempfile
    from pathlib import Path

    from rich.console import Console

    from forge.rulebook.book import open_book
    from forge.rulebook.code.workflow import book_as_rule_file

    to_stdout = args.out == "-"
    status = Console(stderr=True, width=console.width) if to_stdout else console
    target = None if to_stdout else args.out
    if args.run_dir is None:
        written = book_as_rule_file(open_rulebook(args, rulebook_config(args), create=False), target)
    else:
        if args.rulebook:
            raise UsageError("--format yaml compiles the champion into a scratch book (the rulebook is changed only by "
                             "`apply`): drop --rulebook, or export into it without --format yaml")
        found = _run_memory(args)
        with tempfile.TemporaryDirectory(prefix="forge-export-") as scratch:
            book = open_book(found.cfg, str(Path(scratch) / "champion.db"))
            _export_run(found, book, status)
            written = book_as_rule_file(book, target)
    if to_stdout:
        print(written.text, end="")
    else:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(written.text)
        status.print(f"wrote {written.rules} rules to {args.out}", soft_wrap=True)
    return 0


# -- add ----------------------------------------------------------------------------------------------


def _add(args: argparse.Namespace) -> int:
    from forge.rulebook.authoring import Correction, add_correction

    check_role(args.role)
    actor = user_actor(args.actor)
    if not args.text.strip():
        raise UsageError("the correction text is empty")
    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg)
    correction = Correction(args.text.strip(), args.role, actor, f"cli:{time.time_ns()}", context=args.context,
                            replaces=tuple(book.find(ref) for ref in args.replaces))
    added = add_correction(book, correction, compiler_client=lambda: compiler_client(cfg),
                           compiler_model=cfg.models.for_role("compiler").model)
    compiled, outcome, head = added.compiled, added.outcome, added.head
    _say(Text(f"{outcome.result} {head.ref}: [{compiled.type} {','.join(compiled.roles)} group {compiled.group}] "
              f"{compiled.directive} (compiled by {compiled.compiled_by}; book version {head.book_version})"))
    for line in _meaning_lines(head.record):
        _say(Text(f"  {line}"))
    for change in added.teach.changes:
        if change.record.rule_id != outcome.rule_id:
            _say(Text(f"  {change.op} {change.record.rule_id}: {_short(change.record.directive, 90)} "
                      f"(status {change.record.status})"))
    for problem in added.problems:
        _say(Text(f"  compiler: {problem}"))
    return 0


# -- reading ------------------------------------------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    from forge.rulebook.model import RuleStatus

    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    heads = book.heads()
    rows = [v for v in heads.values()
            if (args.all or v.record.status == RuleStatus.ACTIVE)
            and (args.role is None or args.role in v.record.roles)
            and (args.actor is None or args.actor in v.record.actors)]
    if not rows:
        _say(f"no rules ({len(heads)} in {book.store.spec}, book version {book.book_version()})")
        return 0
    table = Table(title=f"rulebook {book.store.spec}: {len(rows)} of {len(heads)} rules, book version {book.book_version()}")
    for column in ("rule", "status", "type", "roles", "group", "support", "actors", "directive", "flags"):
        table.add_column(column, justify="right" if column == "support" else "left")
    for v in sorted(rows, key=lambda v: (v.record.group, v.rule_id)):
        r = v.record
        flags = ", ".join(f for f in (f"supersedes {len(r.supersedes)}" if r.supersedes else "",
                                      f"conflicts {len(r.conflicts_with)}" if r.conflicts_with else "") if f)
        table.add_row(v.ref, r.status, r.type, ",".join(r.roles), r.group, str(r.support), Text(", ".join(r.actors)),
                      Text(_short(r.directive, 80)), flags)
    console.print(table)
    return 0


def _show(args: argparse.Namespace) -> int:
    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    rule_id = book.find(args.rule)
    head = book.store.head(rule_id)
    r = head.record
    _say(Text(f"{head.ref}  status {r.status}  {r.type} for {', '.join(r.roles)}  group {r.group}  "
              f"support {r.support}  compiled by {r.compiled_by}"))
    _say(Text(f"directive: {r.directive}"))
    for line in _meaning_lines(r):
        _say(Text(line))
    nodes = book.store.nodes([*(e for e in r.evidence), *([r.trigger] if r.trigger else [])])
    table = Table(title="edges")
    table.add_column("edge")
    table.add_column("target")
    table.add_column("detail")
    for _, edge, target in r.edges():
        node = nodes.get(target)
        detail = ""
        if edge == "FORGED_FROM" and node is not None:
            detail = _short(node.text, 140) + (f" (after {len(node.context)} earlier contexts)" if node.context else "")
        elif edge == "SUPPORTED_BY" and node is not None:
            detail = f"{node.kind} by {node.actor}: {node.source} (weight {node.weight})"
        elif edge in ("SUPERSEDES", "CONFLICTS_WITH"):
            other = book.store.head(target)
            detail = f"{other.record.status}: {_short(other.record.directive, 100)}" if other else ""
        table.add_row(edge, target, Text(detail))
    console.print(table)
    return 0


def _meaning_lines(record) -> list[str]:
    """The rule's trigger predicate and action, as JSON and in words (or why it is semantic)."""
    from forge.rulebook.language import meaning_of
    from forge.rulebook.model import canonical_json
    from forge.rulebook.language import describe, predicate_to_json
    from forge.rulebook.language import rule_action_to_json

    meaning = meaning_of(record)
    if meaning.when is None:
        why = record.semantic_reason or "no predicate"
        return [f"when: semantic ({why}): applies by retrieval above the relevance floor"]
    origin = "" if record.when is not None else " (read from the grammar directive)"
    lines = [f"when: {canonical_json(predicate_to_json(meaning.when))}  = {describe(meaning.when)}{origin}"]
    if meaning.action is not None:
        lines.append(f"action: {canonical_json(rule_action_to_json(meaning.action))}  = {meaning.action}")
    else:
        lines.append("action: none")
    if record.unexpressed:
        from forge.rulebook.language.guard import guard_claims

        guard = guard_claims(record.unexpressed, meaning.when)
        judged = "no guard: a story, a justification or a restatement" if guard is None else \
            "guard: applies only where this also holds: " + describe(guard).replace("not (always)", "never (the product "
                                                                                 "cannot judge it from a context)")
        lines.append(f"unexpressed: {record.unexpressed}  ({judged})")
    return lines


def _history(args: argparse.Namespace) -> int:
    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    if args.rule is None:
        versions = book.store.book_history()
        table = Table(title=f"book history of {book.store.spec}")
        for column in ("book version", "op", "changes", "provenance", "note", "at"):
            table.add_column(column)
        for b in versions:
            changes = ", ".join(f"{rid[:10]}@v{n} {op}" for rid, n, op in b.changes[:6]) + (
                f", … ({len(b.changes)})" if len(b.changes) > 6 else "")
            table.add_row(str(b.number), b.op, Text(changes), Text(b.provenance.summary()), Text(_short(b.note, 60)),
                          datetime.fromtimestamp(b.created_at).strftime("%Y-%m-%d %H:%M:%S"))
        console.print(table)
        return 0
    rule_id = book.find(args.rule)
    if args.chain:
        return _chain(book, rule_id)
    table = Table(title=f"history of rule {rule_id}")
    for column in ("version", "op", "status", "book version", "support", "actors", "edges", "provenance", "at"):
        table.add_column(column)
    for v in book.history(rule_id):
        r = v.record
        edges = f"sup {len(r.supersedes)} conf {len(r.conflicts_with)} ev {len(r.evidence)}"
        table.add_row(str(v.number), v.op, r.status, str(v.book_version), str(r.support), Text(", ".join(r.actors)), edges,
                      Text(v.provenance.summary()), datetime.fromtimestamp(v.created_at).strftime("%Y-%m-%d %H:%M:%S"))
    console.print(table)
    return 0


def _withdraw(args: argparse.Namespace) -> int:
    from forge.memory.model import Provenance

    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    rule_id = book.find(args.rule)
    actor = user_actor(args.actor)
    version = book.withdraw(rule_id, Provenance(actor=actor), note=args.note)
    head = book.store.head(rule_id)
    _say(Text(f"withdrew {head.ref} (book version {version.number}); it is never injected again unless restored"))
    return 0


def _restore(args: argparse.Namespace) -> int:
    from forge.memory.model import Provenance

    if (args.rule is None) == (args.book is None):
        raise UsageError("name a RULE to restore, or give --book N to restore the whole book (not both)")
    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    if args.book is not None:
        version = book.restore_book(args.book, Provenance(actor=user_actor(args.actor)))
        if version is None:
            _say(f"the rulebook already is as it was at book version {args.book}")
        else:
            _say(f"book version {version.number} restores book version {args.book} ({len(version.changes)} rules changed)")
        return 0
    rule_id = book.find(args.rule)
    version = book.restore(rule_id, args.version, Provenance(actor=user_actor(args.actor)))
    head = book.store.head(rule_id)
    _say(Text(f"restored {head.ref} ({version.note}; book version {version.number})"))
    return 0


# -- query --------------------------------------------------------------------------------------------


def _query(args: argparse.Namespace) -> int:
    from forge.rulebook.query import query_rules
    from forge.rulebook.retrieval import PRECEDENCE
    from forge.rulebook.retrieval import RetrievalSettings

    if args.role is not None:
        check_role(args.role)
    # `--actor alice` means the human user:alice, as for `add`; an instance is <session>/<instance>.
    actor = args.actor if args.actor is None or "/" in args.actor else user_actor(args.actor)
    cfg = rulebook_config(args)
    settings = RetrievalSettings.from_config(cfg.rulebook)
    result = query_rules(open_rulebook(args, cfg, create=False), args.context, settings, role=args.role, actor=actor,
                         explain=args.top)
    table = Table(title=f"query against {len(result.index.content)} CONTENT rules (semantic floor {settings.relevance_floor}, "
                        f"k {settings.rrf_k}, node weight {settings.node_weight}, gate {'on' if settings.condition_gate else 'off'}); "
                        f"{result.elapsed_ms:.1f} ms, query embedding included")
    for column in ("rule", "bm25", "r_bm25", "cos node", "cos acc", "cosine", "r_emb", "fused", "floor", "gate", "directive"):
        table.add_column(column, justify="left" if column in ("rule", "directive") else "right")
    for c in result.retrieval.candidates:
        table.add_row(c.ref, f"{c.bm25:.3f}", str(c.r_bm25 or "-"), f"{c.node_cos:.3f}", f"{c.acc_cos:.3f}",
                      f"{c.cosine:.3f}", str(c.r_emb), f"{c.fused:.5f}",
                      "-" if c.gate is not None else ("pass" if c.above_floor else "below"),
                      {None: "-", True: "holds", False: "fails"}[c.gate], Text(_short(c.directive, 70)))
    console.print(table)
    for decision in result.retrieval.decisions:
        members = ", ".join(m[:10] for m in decision.members)
        outcome = f"winner {decision.winner[:10]}" if decision.winner else "abstain (none injected)"
        if decision.elsewhere:
            outcome += f"; {', '.join(m[:10] for m in decision.elsewhere)} kept for the hosts the winner does not dispute"
        if decision.allies:
            outcome += f"; {', '.join(m[:10] for m in decision.allies)} kept: it disagrees only with rules that lost"
        _say(Text(f"conflict among {members}: {decision.tier}: {outcome} ({decision.detail})"))
    if result.formats:
        _say(Text("FORMAT rules (routed separately, always delivered at stage 1): "
                  + "; ".join(f"{v.ref} {_short(v.record.directive, 60)}" for v in result.formats)))
    if result.injected:
        from forge.rulebook.language.meaning import in_words
        _say(Text("injected: " + "; ".join(f"{v.ref} {_short(in_words(v.record), 160)}" for v in result.injected)))
    else:
        _say("injected: nothing (no rule applies)")
    _say(Text("precedence where applying rules disagree: "
              + "; ".join(f"{n}. {tier}: {why}" for n, (tier, why) in enumerate(PRECEDENCE, 1))))
    return 0


# -- calibrate ----------------------------------------------------------------------------------------


def _calibrate(args: argparse.Namespace) -> int:
    from forge.runs.calibration import calibrate_run
    from forge.wiring import build_clients, open_run_memory

    if args.episodes < 1:
        raise UsageError(f"--episodes must be >= 1, got {args.episodes}")
    if not 0.0 < args.target_recall <= 1.0:
        raise UsageError(f"--target-recall must be in (0, 1], got {args.target_recall}")
    found = open_run_memory(args.run_dir, args.instance, args.overrides)
    book = open_rulebook(args, found.cfg)
    clients, _ = build_clients(found.cfg)
    with progress_bars() as progress:
        task = progress.add_task("episodes", total=args.episodes)
        result = calibrate_run(found, book, clients, episodes=args.episodes, target_recall=args.target_recall,
                               on_episode=lambda: progress.advance(task))
    table = Table(title=f"relevance floor calibration on {found.key}: {result.positives} applying and "
                        f"{result.negatives} non-applying (context, rule) pairs from {args.episodes} episodes")
    for column in ("floor", "recall", "false positive rate"):
        table.add_column(column, justify="right")
    for floor, recall, fpr in result.curve:
        table.add_row(f"{floor:.2f}", f"{recall:.3f}", f"{fpr:.3f}")
    console.print(table)
    _say(Text(result.summary()))
    path = found.run.write_json("reports/rulebook_calibration.json", result.to_dict())
    _say(f"written to {path}")
    return 0



# -- correction chains --------------------------------------------------------------------------------


def _chain(book, rule_id: str) -> int:
    from forge.rulebook.store import correction_chain

    links = correction_chain(book, rule_id)
    table = Table(title=f"correction chain of {rule_id[:10]}: {len(links)} rules, oldest first")
    for column in ("#", "rule", "status", "link", "who", "when", "why", "where", "directive"):
        table.add_column(column)
    for i, link in enumerate(links, 1):
        table.add_row(str(i), link.rule_id[:10], link.status, link.link, Text(link.who),
                      datetime.fromtimestamp(link.when).strftime("%Y-%m-%d %H:%M:%S"), Text(_short(link.why, 50)),
                      Text(_short(link.where, 60)), Text(_short(link.directive, 70)))
    console.print(table)
    return 0


# -- efficacy -----------------------------------------------------------------------------------------


def _efficacy(args: argparse.Namespace):
    """The book and its efficacy report over the named runs (default: every run with traces)."""
    from forge.rulebook.model import RulebookError
    from forge.rulebook.outcomes import VerdictSettings, efficacy_report, runs_with_traces
    from forge.runs.rundir import local_run_path

    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg, create=False)
    # A run kept in remote storage is read from a working copy pulled from it.
    run_dirs = [local_run_path(d) for d in args.run_dirs] or runs_with_traces(cfg.run.runs_dir)
    if not run_dirs:
        raise RulebookError(f"no run directories with traces under {cfg.run.runs_dir}; name them: stats RUN_DIR ...")
    return book, efficacy_report(book, run_dirs, VerdictSettings.from_config(cfg.rulebook))


def _p_text(raw, adjusted) -> str:
    return "-" if raw is None else f"{raw:.3g} ({adjusted:.3g})"


def _stats(args: argparse.Namespace) -> int:
    from forge.rulebook.outcomes import interval_text, record_efficacy

    book, report = _efficacy(args)
    k = report.settings.window
    table = Table(title=f"rule efficacy over {len(report.traces)} rulebook traces in {len(report.run_dirs)} run(s); "
                        f"outcomes: a failure in the next {k} steps, and the return of the step and the next {k}")
    for column in ("rule", "directive", "episodes", "injected", "triggered", "followed", "ignored", "contradicted",
                   "operator contradicted (overridden)",
                   "failure after followed", "failure after not followed", "difference [95%, by episode]",
                   "window return: followed - not [95%, by episode]", "ablation: episode return with - without [95%]",
                   "p (Holm)", "verdict"):
        table.add_column(column, justify="left" if column in ("rule", "directive", "verdict") else "right")
    for rule_id in report.ordered():
        eff, head = report.rules[rule_id], report.heads[rule_id]
        table.add_row(head.ref, Text(_short(head.record.directive, 50)), str(eff.episodes),
                      str(eff.injected), str(eff.triggered), str(eff.followed), str(eff.ignored),
                      str(eff.contradicted), f"{eff.operator_contradicted} ({eff.overridden})",
                      str(eff.rate_followed()), str(eff.rate_not()),
                      interval_text(eff.difference()), interval_text(eff.return_difference()),
                      interval_text(eff.ablation_difference()) + (f" ({len(eff.ablation)})" if eff.ablation else ""),
                      _p_text(eff.ablation_p(report.settings.min_pairs), report.adjusted_p(rule_id)),
                      report.verdict(rule_id))
    console.print(table)
    harm = report.live_harm()
    _say(Text(f"live harm: {harm['contradicted_injections']} of {harm['injections']} injections were contradicted by an "
              f"operator ({len(harm['contradicted_rules'])} rules; {harm['overridden_injections']} injections at steps an "
              f"operator overrode); {len(harm['corrected_rules'])} rules corrected by an operator's `forge correct`"))
    _say(Text(report.settings.rule()))
    for problem in report.problems:
        _say(Text(f"  skipped {problem}"))
    if args.record:
        version = record_efficacy(book, report, user_actor(args.actor))
        if version is None:
            _say("recorded: nothing new (no helpful or harmful verdict, or already recorded from these traces)")
        else:
            _say(f"recorded {len(version.changes)} efficacy evidence entries (book version {version.number})")
    import json
    from pathlib import Path

    path = Path(report.run_dirs[0]) / "reports" / "rulebook_stats.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.to_dict(), indent=1))
    _say(f"written to {path}")
    return 0


def _review(args: argparse.Namespace) -> int:
    from forge.rulebook.outcomes import needs_review

    _, report = _efficacy(args)
    found = needs_review(report)
    if not found:
        _say(f"no rule needs review ({len(report.heads)} rules, {len(report.traces)} rulebook traces)")
        return 0
    table = Table(title=f"{len(found)} rules need a person ({len(report.traces)} rulebook traces in "
                        f"{len(report.run_dirs)} run(s))")
    for column in ("rule", "directive", "why", "to withdraw"):
        table.add_column(column)
    for head, reasons in found:
        table.add_row(head.ref, Text(_short(head.record.directive, 60)), Text("; ".join(reasons)),
                      f"forge rulebook withdraw {head.rule_id[:10]} --note \"review\"")
    console.print(table)
    return 0


# -- the rulebook as code: plan, apply, test, lint ------------------------------------------------------

_KIND_MARK = {"add": ("+", "green"), "new version": ("~", "yellow"), "withdraw": ("-", "red"), "unchanged": ("=", "dim")}
_ORIGIN = {"file": "meaning stated in the file", "kept": "compiled before; kept from the book",
           "compiled": "compiled now"}


def _render_plan(planned, compiler: str = "") -> None:
    """The plan rule by rule: each changed rule's meaning in words (as `show` prints it), then its consequences."""
    plan = planned.plan
    _say(Text(f"Plan for rulebook {planned.rulebook} at book version {plan.book_version}, from "
              + "; ".join(o.describe() for o in planned.origins)))
    unchanged = [s for s in plan.steps if s.kind == "unchanged"]
    for step in plan.steps:
        if step.kind == "unchanged":
            continue
        sign, colour = _KIND_MARK[step.kind]
        record = step.record
        head = Text(f" {sign} {step.kind:<12}", style=colour)
        head.append(f" {step.entry}  rule {step.rule_id}")
        if record is not None:
            head.append(f"  [{record.type} {','.join(record.roles)}; {', '.join(record.actors)}]")
        _say(head)
        if record is not None:
            _say(Text(f"     {_short(record.directive, 150)}"))
        if step.detail:
            _say(Text(f"     ({step.detail})"))
        if record is not None and step.kind != "withdraw":
            origin = _ORIGIN.get(step.origin, step.origin)
            if step.origin == "compiled":
                origin += f" by the {record.compiled_by}" + (f" ({compiler})" if record.compiled_by == "model" and compiler else "")
            for line in _meaning_lines(record):
                _say(Text(f"     {line}"))
            _say(Text(f"     ({origin})"))
            if step.before is not None and (step.before.when, step.before.action) != (record.when, record.action):
                for line in _meaning_lines(step.before)[:2]:
                    _say(Text(f"     was {line}", style="dim"))
        for note in step.notes:
            _say(Text(f"     note: {note}"))
    if unchanged:
        _say(Text(f" = unchanged    {len(unchanged)}: " + ", ".join(s.entry for s in unchanged), style="dim"))
    if plan.consequences:
        _say("consequences (rule maintenance, as for any teaching):")
        for consequence in plan.consequences:
            _say(Text(f"   {consequence.op:<10} {consequence.detail}"))
    for problem in plan.compiler_problems:
        _say(Text(f"   compiler: {problem}"))
    for error in plan.errors:
        _say(Text(f"error: {error}", style="red"))
    _say(Text(f"Plan: {plan.summary()}."))


def _compiler_label(cfg) -> str:
    from forge.wiring import model_label

    return f"compiler model {model_label(cfg)}"


def _plan(args: argparse.Namespace) -> int:
    from forge.rulebook.code.workflow import plan_files, save_plan

    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg)
    planned = plan_files(book, args.files, compiler_client=lambda: compiler_client(cfg),
                         compiler_model=cfg.models.for_role("compiler").model)
    _render_plan(planned, _compiler_label(cfg))
    if planned.plan.errors:
        raise UsageError(f"the plan has {len(planned.plan.errors)} error(s) (above): the files cannot be applied as they are")
    if args.out:
        path = save_plan(planned, args.out)
        _say(f"saved to {path}: `forge rulebook apply --plan {path}` applies exactly this plan, or nothing")
    elif not planned.plan.empty:
        _say(f"apply it with `forge rulebook apply {' '.join(args.files)} --plan-version {planned.plan.book_version}`"
             f" (refused if the book moved), or save it with --out")
    return 0


def _apply(args: argparse.Namespace) -> int:
    from forge.rulebook.code.workflow import apply_planned, check_files_unchanged, load_plan, plan_files

    if (args.plan_file is None) == (not args.files):
        raise UsageError("name the rule files to apply, or --plan PLAN (a plan saved by `forge rulebook plan --out`)")
    cfg = rulebook_config(args)
    book = open_rulebook(args, cfg)
    if args.plan_file is not None:
        planned = load_plan(args.plan_file)
        check_files_unchanged(planned)
    else:
        planned = plan_files(book, args.files, compiler_client=lambda: compiler_client(cfg),
                             compiler_model=cfg.models.for_role("compiler").model)
    _render_plan(planned, _compiler_label(cfg))
    applied = apply_planned(book, planned, actor=user_actor(args.actor), allow_uncommitted=args.allow_uncommitted,
                            expected_version=args.plan_version)
    if applied.book_version is None:
        _say(f"nothing to apply: the rulebook already holds what the files state (book version {planned.plan.book_version})")
    else:
        version = applied.book_version
        _say(Text(f"applied: book version {version.number} ({len(version.changes)} rule versions, op {version.op}); "
                  f"provenance {version.provenance.summary()}; {version.note}"))
    return 0


def _test(args: argparse.Namespace) -> int:
    from pathlib import Path

    from forge.rulebook.code.ruletest import PASS, context_summary, junit_xml
    from forge.rulebook.code.workflow import run_rule_tests
    from forge.rulebook.model import RulebookError
    from forge.rulebook.retrieval import RetrievalSettings
    from forge.rulebook.retrieval.embed import embedder_from_config

    cfg = rulebook_config(args)
    book = None
    if not args.no_book:
        try:
            book = open_rulebook(args, cfg, create=False)
        except RulebookError:
            if not args.rules:
                raise
            _say(f"no rulebook at {args.rulebook or 'the default location'}: the rules of {', '.join(args.rules)} alone")
    run = run_rule_tests(book, args.tests, args.rules, settings=RetrievalSettings.from_config(cfg.rulebook),
                         compiler_client=lambda: compiler_client(cfg), embedder_factory=lambda: embedder_from_config(cfg),
                         near_duplicate_threshold=cfg.memory.near_duplicate_threshold)
    table = Table(title=f"rule tests against {run.book} (book version {run.book_version})")
    for column in ("file", "case", "role", "context", "expected", "injected", "result"):
        table.add_column(column)
    for result in run.results:
        case = result.case
        expected = (f"exactly {', '.join(case.expect) or 'nothing'}" if case.expect is not None else
                    "; ".join(p for p in (f"must {', '.join(case.must)}" if case.must else "",
                                          f"must not {', '.join(case.must_not)}" if case.must_not else "") if p))
        verdict = Text("pass", style="green") if result.verdict == PASS else Text(result.verdict.upper(), style="red")
        table.add_row(f"{Path(case.path).name}:{case.line}", Text(case.name), case.role,
                      Text(_short(case.trace or context_summary(result.context), 60)), Text(expected),
                      Text(", ".join(result.injected) or "nothing"), verdict)
    console.print(table)
    for result in run.results:
        if not result.passed:
            _say(Text(f"{result.verdict.upper()}: {result.case.path}:{result.case.line}: {result.case.name}: {result.why()}",
                      style="red"))
    _say(f"{len(run.results) - run.failed} passed, {run.failed} failed ({len(run.results)} cases)")
    if args.junit:
        path = Path(args.junit)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(junit_xml(run.results, {tf.path: Path(tf.path).stem for tf in run.files}))
        _say(f"JUnit XML: {path}")
    return 1 if run.failed else 0


def _lint(args: argparse.Namespace) -> int:
    from forge.rulebook.code.lint import lint_entries, unlinted
    from forge.rulebook.code.workflow import read_rule_files

    files = read_rule_files(args.files)
    findings = lint_entries(files)
    for finding in findings:
        _say(Text(str(finding), style="red" if finding.error else "yellow"))
    errors = sum(1 for f in findings if f.error)
    warnings = len(findings) - errors
    entries = sum(len(rf.entries) for rf in files)
    compiled = unlinted(files)
    _say(f"{errors} error(s), {warnings} warning(s) in {len(files)} file(s), {entries} entries"
         + (f" ({compiled} without a stated trigger: compiled at plan time, their text checked only)" if compiled else ""))
    return 1 if errors or (args.strict and warnings) else 0
