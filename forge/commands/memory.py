"""`forge memory list|show|diff|history|restore`: read and restore the versioned agent memory of a run."""

from __future__ import annotations

import argparse
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Callable

from rich.table import Table
from rich.text import Text

from forge.commands.common import console, login
from forge.errors import UsageError

DEFAULT_STORE = Path("runs") / "latest"


def register(subparsers: argparse._SubParsersAction) -> None:
    store_options = argparse.ArgumentParser(add_help=False)
    store_options.add_argument(
        "--store", metavar="SPEC",
        help=f"run directory, .db file or redis:// URL (default: {DEFAULT_STORE} if it exists)",
    )
    store_options.add_argument("--namespace", default="forge", help="store namespace (default: forge)")

    parser = subparsers.add_parser("memory", help="inspect, diff and restore versioned agent memory")
    actions = parser.add_subparsers(dest="memory_command", required=True)

    listing = actions.add_parser("list", parents=[store_options], help="instances with their head version")
    listing.set_defaults(func=partial(_with_manager, action=_list))

    show = actions.add_parser("show", parents=[store_options], help="the items of one instance's memory")
    show.add_argument("instance")
    show.add_argument("--version", type=int, help="a past version (default: the head)")
    show.add_argument("--full", action="store_true", help="do not shorten long examples")
    show.set_defaults(func=partial(_with_manager, action=_show))

    diff = actions.add_parser("diff", parents=[store_options], help="what changed between two versions")
    diff.add_argument("instance")
    diff.add_argument("a", type=int, metavar="A", help="older version")
    diff.add_argument("b", type=int, metavar="B", help="newer version")
    diff.set_defaults(func=partial(_with_manager, action=_diff))

    history = actions.add_parser("history", parents=[store_options], help="every version of one instance")
    history.add_argument("instance")
    history.set_defaults(func=partial(_with_manager, action=_history))

    restore = actions.add_parser("restore", parents=[store_options], help="make an old version the head again")
    restore.add_argument("instance")
    restore.add_argument("version", type=int, metavar="N")
    restore.set_defaults(func=partial(_with_manager, action=_restore))


def _with_manager(args: argparse.Namespace, action: Callable[[Any, argparse.Namespace], int]) -> int:
    """Open the store and run `action(manager, args)`; an unknown instance is reported with the known ones."""
    from forge.memory import MemoryManager, MemoryStoreError, UnknownInstanceError, open_store
    from forge.memory.refs import resolve_instance

    spec = args.store
    if spec is None:
        if not DEFAULT_STORE.exists():
            raise UsageError(f"no --store given and {DEFAULT_STORE} does not exist")
        spec = str(DEFAULT_STORE)
    with open_store(spec, args.namespace, create=False) as store:
        manager = MemoryManager(store)
        try:
            if getattr(args, "instance", None):
                args.instance = resolve_instance(manager, args.instance)
            return action(manager, args)
        except UnknownInstanceError as exc:
            known = manager.instances()
            listed = ", ".join(known[:8]) + (", …" if len(known) > 8 else "")
            hint = f"known instances: {listed}" if known else f"namespace {args.namespace!r} of this store is empty"
            raise MemoryStoreError(f"{exc} in {spec} ({hint})") from None


def _head(manager: Any, instance: str) -> Any:
    from forge.memory import UnknownInstanceError

    head = manager.head(instance)
    if head is None:
        raise UnknownInstanceError(instance)
    return head


def _counts(snapshot: Any, role: str) -> str:
    return f"{snapshot.count(role, 'rule')}r {snapshot.count(role, 'example')}e"


def _list(manager: Any, args: argparse.Namespace) -> int:
    from forge.config import ROLES

    instances = manager.instances()
    if not instances:
        console.print(f"no memory in namespace {args.namespace!r} of this store")
        return 0
    table = Table(title=f"agent memory ({len(instances)} instances; r = rules, e = examples)")
    for column in ("instance", "version", "digest", "last op", "frozen", *ROLES):
        table.add_column(column, justify="right" if column == "version" else "left")
    for instance in instances:
        head = _head(manager, instance)
        snapshot = manager.store.get_snapshot(head.digest)
        table.add_row(
            Text(instance), str(head.number), head.digest[:12], head.op, "yes" if head.frozen else "",
            *(_counts(snapshot, role) for role in ROLES),
        )
    console.print(table)
    return 0


def _show(manager: Any, args: argparse.Namespace) -> int:
    from forge.config import ROLES

    head = _head(manager, args.instance)
    version = head if args.version is None else manager.version(args.instance, args.version)
    snapshot = manager.store.get_snapshot(version.digest)
    state = "frozen" if version.frozen else ("head" if version.number == head.number else f"head is {head.number}")
    console.print(Text(
        f"{args.instance}  version {version.number} ({state})  digest {version.digest[:12]}  "
        f"{len(snapshot)} items, {len(snapshot.withdrawn)} withdrawn"
    ))
    if not len(snapshot):
        console.print("empty memory")
    for role in ROLES:
        items = snapshot.items_for(role)
        if not items:
            continue
        table = Table(title=f"{role}: {_counts(snapshot, role)}", show_lines=True)
        for column in ("kind", "id", "support", "seq", "text", "provenance"):
            table.add_column(column, justify="right" if column in ("support", "seq") else "left")
        for item in items:
            text = item.text if args.full or item.kind == "rule" else _shorten(item.text, 300)
            if item.title:
                text = f"{item.title}\n{text}"
            table.add_row(item.kind, item.id, str(item.support), str(item.seq), Text(text), Text(item.provenance.summary()))
        console.print(table)
    return 0


def _diff(manager: Any, args: argparse.Namespace) -> int:
    _head(manager, args.instance)
    a, b = manager.version(args.instance, args.a), manager.version(args.instance, args.b)
    console.print(Text(f"{args.instance}: version {a.number} ({a.digest[:12]}) -> version {b.number} ({b.digest[:12]})"))
    console.print(Text(manager.diff_versions(args.instance, a.number, b.number).render()))
    return 0


def _history(manager: Any, args: argparse.Namespace) -> int:
    _head(manager, args.instance)
    table = Table(title=f"memory history of {args.instance}")
    for column in ("version", "op", "frozen", "digest", "+added -removed ~updated", "rules", "examples", "provenance", "at"):
        table.add_column(column, justify="right" if column in ("version", "rules", "examples") else "left")
    for version in manager.history(args.instance):
        snapshot = manager.store.get_snapshot(version.digest)
        table.add_row(
            str(version.number), version.op, "yes" if version.frozen else "", version.digest[:12],
            f"+{len(version.added)} -{len(version.removed)} ~{len(version.updated)}",
            str(snapshot.count(kind="rule")), str(snapshot.count(kind="example")),
            Text(version.provenance.summary()),
            datetime.fromtimestamp(version.created_at).strftime("%Y-%m-%d %H:%M:%S"),
        )
    console.print(table)
    return 0


def _restore(manager: Any, args: argparse.Namespace) -> int:
    from forge.memory import Provenance

    _head(manager, args.instance)
    version = manager.restore(args.instance, args.version, Provenance(actor=f"user:{login()}"))
    console.print(Text(
        f"{args.instance}: version {version.number} restores the memory of version {args.version} "
        f"(digest {version.digest[:12]}; +{len(version.added)} -{len(version.removed)} ~{len(version.updated)})"
    ))
    return 0


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
