"""Rulebook query latency (p50 / p99) and index build time at 5, 500 and 5,000 rules.

    .venv/bin/python scripts/bench/rulebook_query.py [--sizes 5,500,5000] [--queries 200] [--rulebook SPEC]

Each size gets a fresh rulebook (SQLite in a temporary directory, or `--rulebook redis://...`) filled
with synthetic CAGE-2 rules: grammar rules (gated by their When-clause) and free-text rules, each forged
from its own observation-like decision node. A query is what an injection does per model call: embed
the context (every query text is new, so the embedder's cache never answers) and search the index
(cosine mix, BM25, RRF, floor, condition gate, conflict resolution). "query" includes the embedding of
the query; "search only" is the same query with the embedding precomputed.

Build figures: "teach" stores the rules and embeds their trigger nodes (batch-encoded); "index" loads
every head, its vectors and builds BM25 and the gate tables (what the first injection of a new book
version pays).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from forge.env.catalog import HOSTS  # noqa: E402
from forge.memory.model import Provenance  # noqa: E402
from forge.rulebook.book import Lesson, Rulebook  # noqa: E402
from forge.rulebook.compile import RuleCompiler, SourceItem  # noqa: E402
from forge.rulebook.embed import local_embedder  # noqa: E402
from forge.rulebook.model import DecisionNode, Evidence  # noqa: E402
from forge.rulebook.retrieve import RetrievalSettings  # noqa: E402
from forge.rulebook.store import open_rulebook  # noqa: E402

CONDITIONS = ("any compromise", "Activity Exploit", "Activity Scan", "Compromised User", "Compromised Privileged")
VERBS = ("Restore", "Remove", "Analyse", "DecoyApache", "DecoySSHD", "DecoyFemitter", "DecoyTomcat", "DecoyVsftpd")
ROLES = ("action_chooser", "planner", "analyst")
ACTIVITY = ("None", "Scan", "Exploit")
COMPROMISED = ("No", "Unknown", "User", "Privileged")


def alerts(rng: random.Random, count: int) -> str:
    hosts = rng.sample(HOSTS, count)
    return "\n".join(f"{h}: Activity {rng.choice(ACTIVITY)}, Compromised {rng.choice(COMPROMISED)}" for h in hosts)


def observation(rng: random.Random) -> str:
    step = rng.randint(1, 30)
    return f"Step {step} of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step.\nAlerts:\n{alerts(rng, rng.randint(1, 4))}"


def synthetic_rules(n: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(text, role, actor): distinct grammar rules first, then free-text rules."""
    grammar = [f"When {h} shows {c}, then {v} {h}" for h in HOSTS for c in CONDITIONS for v in VERBS]
    rng.shuffle(grammar)
    out = []
    for i in range(n):
        role = ROLES[i % len(ROLES)]
        actor = f"bench/i{i % 10:02d}"
        if i < len(grammar):
            out.append((grammar[i], role, actor))
        else:
            host = rng.choice(HOSTS)
            out.append((f"Prefer {rng.choice(VERBS)} {host} over Monitor while {rng.choice(HOSTS)} looks {rng.choice(COMPROMISED).lower()} "
                        f"(case {i})", role, actor))
    return out


def build(spec: str, n: int, rng: random.Random) -> tuple[Rulebook, float, float]:
    store = open_rulebook(spec, namespace=f"bench{n}")
    book = Rulebook(store, local_embedder())
    sources = [SourceItem("correction", role, text, actor) for text, role, actor in synthetic_rules(n, rng)]
    compiled = RuleCompiler(None).compile(sources).rules  # grammar or as written: no model in a latency bench
    lessons = [Lesson(c, DecisionNode(observation(rng), (observation(rng),)) if c.type == "CONTENT" else None,
                      Evidence("correction", c.source.actor, f"bench-{i}")) for i, c in enumerate(compiled)]
    started = time.perf_counter()
    book.teach(lessons, Provenance(actor="user:bench"), note=f"{n} synthetic rules")
    teach_s = time.perf_counter() - started
    started = time.perf_counter()
    book.index(None)
    index_s = time.perf_counter() - started
    return book, teach_s, index_s


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q / 100 * (len(ordered) - 1)))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5,500,5000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rulebook", help="a redis:// URL (default: SQLite in a temporary directory)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    console = Console(width=160)
    embedder = local_embedder()
    embedder.prepare()
    settings = RetrievalSettings()
    table = Table(title=f"Rulebook query latency ({args.queries} queries per size, all-MiniLM-L6-v2 on CPU, "
                        f"{'Redis' if args.rulebook else 'SQLite'})")
    for column in ("rules", "teach s (store + embed triggers)", "index build ms", "query p50 ms", "query p99 ms",
                   "search only p50 ms", "search only p99 ms", "injected / query"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            rng = random.Random(args.seed + n)
            spec = args.rulebook or str(Path(tmp) / f"bench-{n}.db")
            book, teach_s, index_s = build(spec, n, rng)
            index = book.index(None)
            contexts = [f"Situation (from the Planner): query {i}\n\nAlerts:\n{alerts(rng, rng.randint(1, 4))}" for i in range(args.queries)]
            for warm in contexts[:5]:
                index.search(warm, embedder.encode([warm])[0], embedder.encode([warm])[0], "action_chooser", settings)
            full, search_only, injected = [], [], []
            for context in contexts:
                started = time.perf_counter()
                query = embedder.encode_one(context)
                found = index.search(context, query, query, "action_chooser", settings, "bench/i00")
                full.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                index.search(context, query, query, "action_chooser", settings, "bench/i00")
                search_only.append((time.perf_counter() - started) * 1000)
                injected.append(len(found.selected))
            table.add_row(str(n), f"{teach_s:.1f}", f"{index_s * 1000:.0f}", f"{statistics.median(full):.2f}",
                          f"{percentile(full, 99):.2f}", f"{statistics.median(search_only):.2f}",
                          f"{percentile(search_only, 99):.2f}", f"{statistics.fmean(injected):.2f}")
            book.store.close()
    console.print(table)
    console.print("query = embedding the context (uncached) + search; search only = the same with the embedding precomputed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
