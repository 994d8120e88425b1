"""Rulebook query speed per encoder, side by side in one run: load, query latency, cold CLI, retrieval proxy.

    .venv/bin/python scripts/bench/rulebook_query.py [--encoders minilm-onnx-int8,minilm-onnx,minilm-int8,minilm-static]
        [--sizes 5,500,5000] [--queries 200] [--rulebook redis://...] [--cold-runs 3] [--no-cold] [--dc] [--episode]

The torch encoders (minilm-int8, the default before onnxruntime, and minilm) need the `torch` extra;
without it their rows say so. Any interpreter with the extra installed can run this file against this
checkout (PYTHONPATH=.) to put them beside the default.

For every encoder (`rulebook.encoder`, forge/rulebook/retrieval/embed.py):
- load s: a fresh interpreter imports the embedder, loads the encoder and embeds one text (a derived
  table, `minilm-static`, is built beforehand: that is a once-per-machine cost, printed when paid);
- query p50 / p99 at each size, embedding included: what an injection does per model call, embed the
  context (every query text is new, so no cache answers) and search the index (cosine mix, BM25, RRF,
  floor, gate, conflict resolution); search only: the same query with the embedding precomputed;
  p50 (seen): the same contexts again from a new embedder of the encoder (empty memory, as a new
  process): a context embedded before by any process is read from the on-disk vector cache
  (forge/rulebook/retrieval/encoders/vector_cache.py), not computed;
- cold CLI s: `forge rulebook query "..."` against the 500-rule book in a fresh interpreter (subprocess),
  best of --cold-runs after one warm-up run (which embeds the book's trigger nodes for that encoder),
  each run with a context never embedded before (the model loads and runs); (seen): the same context
  every run (its vector from the disk cache: neither onnxruntime nor the tokenizer is loaded). The
  default encoder is run as a user would, without `--set`; a run that writes to stderr fails the bench;
- retrieval proxy (cheap, no model calls): for grammar rules "When H shows C, then ..." and synthetic
  host tables, a pair applies when the table shows H with C. AUC = how well the cosine of rule and
  context ranks applying pairs above the others (1.0 perfect, 0.5 chance); "unrelated" = mean cosine
  of the rules with texts that have nothing to do with CAGE-2 (the relevance floor has to sit above
  it), and the share of those pairs at or above the relevance floor; "top-10 vs minilm" = overlap of each context's 10 nearest rules with float32 MiniLM's
  (minilm-onnx or minilm: the same vectors);
- with --dc, `scripts/bench/dc_bench.py --calibrate --no-behaviour --set rulebook.encoder=<name>` per
  encoder: its exact-set accuracy, and the semantic-floor separation (false-positive rate at the
  calibrated floor; cosine of applying pairs p5 against non-applying p95: the gap the floor sits in);
- with --episode, one surrogate episode with `memory.injection=rulebook` and the embedder's query-cache
  hit rate (a step's context is embedded once for all of that step's calls).

Each size gets a fresh rulebook (SQLite in a temporary directory, or `--rulebook redis://...`) filled
with synthetic CAGE-2 rules: grammar rules (gated) and free-text rules, each forged from its own
observation-like decision node; every encoder embeds the same book's trigger nodes under its own name.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, HOSTS  # noqa: E402
from forge.memory.model import Provenance  # noqa: E402
from forge.rulebook.store import open_rulebook  # noqa: E402
from forge.rulebook.book import Lesson, Rulebook  # noqa: E402
from forge.rulebook.authoring import RuleCompiler, SourceItem  # noqa: E402
from forge.rulebook.retrieval import DEFAULT_ENCODER, ENCODERS, Embedder, EmbeddingError, local_embedder  # noqa: E402
from forge.rulebook.model import DecisionNode, Evidence  # noqa: E402
from forge.rulebook.retrieval import RetrievalSettings  # noqa: E402

CONDITIONS = ("any compromise", "Activity Exploit", "Activity Scan", "Compromised User", "Compromised Privileged")
VERBS = ("Restore", "Remove", "Analyse", "DecoyApache", "DecoySSHD", "DecoyFemitter", "DecoyTomcat", "DecoyVsftpd")
ROLES = ("action_chooser", "planner", "analyst")
CLI_CONTEXT = "User1: Activity Exploit, Compromised User"
COLD_SIZE = 500
UNRELATED = ("Reply with JSON only.", "The weather in Lisbon is mild in spring.",
             "Answer with exactly one action, written as the verb followed by the hostname, and nothing else.",
             "Quarterly revenue grew by four percent.", "quiet")


def alerts(rng: random.Random, count: int) -> str:
    hosts = rng.sample(HOSTS, count)
    return "\n".join(f"{h}: Activity {rng.choice(ACTIVITIES)}, Compromised {rng.choice(COMPROMISE_LEVELS)}" for h in hosts)


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
            out.append((f"Prefer {rng.choice(VERBS)} {host} over Monitor while {rng.choice(HOSTS)} looks {rng.choice(COMPROMISE_LEVELS).lower()} "
                        f"(case {i})", role, actor))
    return out


def build(spec: str, n: int, rng: random.Random, embedder: Embedder, namespace: str) -> tuple[Rulebook, float]:
    store = open_rulebook(spec, namespace=namespace)
    book = Rulebook(store, embedder)
    sources = [SourceItem("correction", role, text, actor) for text, role, actor in synthetic_rules(n, rng)]
    compiled = RuleCompiler(None).compile(sources).rules  # grammar or as written: no model in a latency bench
    lessons = [Lesson(c, DecisionNode(observation(rng), (observation(rng),)) if c.type == "CONTENT" else None,
                      Evidence("correction", c.source.actor, f"bench-{i}")) for i, c in enumerate(compiled)]
    started = time.perf_counter()
    book.teach(lessons, Provenance(actor="user:bench"), note=f"{n} synthetic rules")
    return book, time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q / 100 * (len(ordered) - 1)))))]


@dataclass
class EncoderRow:
    name: str
    load_s: Optional[float] = None
    cold_s: Optional[float] = None
    cold_cpu_s: Optional[float] = None
    seen_cold_s: Optional[float] = None
    seen_cold_cpu_s: Optional[float] = None
    seen_p50: dict[int, float] = field(default_factory=dict)
    p50: dict[int, float] = field(default_factory=dict)
    p99: dict[int, float] = field(default_factory=dict)
    search_p50: dict[int, float] = field(default_factory=dict)
    injected: dict[int, float] = field(default_factory=dict)
    embed_nodes_s: dict[int, float] = field(default_factory=dict)
    auc: Optional[float] = None
    unrelated: Optional[float] = None
    unrelated_above: Optional[float] = None
    agreement: Optional[float] = None
    dc: Optional[str] = None
    semantic: Optional[str] = None
    error: Optional[str] = None


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    return env


LOAD_PROBE = """
import time, json
started = time.perf_counter()
from forge.rulebook.retrieval import local_embedder
embedder = local_embedder({encoder!r})
embedder.prepare()
embedder.encode_one("Enterprise0: Activity Exploit, Compromised User")
print(json.dumps({{"load_s": time.perf_counter() - started}}))
"""


def load_time(encoder: str) -> float:
    """Seconds from a fresh interpreter's import of the embedder to its first vector (best of 2)."""
    best = float("inf")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", LOAD_PROBE.format(encoder=encoder)], capture_output=True, text=True,
                              env=child_env(), cwd=ROOT, timeout=600)
        if done.returncode != 0:
            raise EmbeddingError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}")
        best = min(best, json.loads(done.stdout.strip().splitlines()[-1])["load_s"])
    return best


def cold_cli(encoder: str, spec: str, namespace: str, runs: int, *, new_text: bool) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system: what the run costs whatever else the machine is
    doing) of `forge rulebook query` in a fresh interpreter, after one warm-up run. `new_text`: every run
    asks a context never embedded before (the model is loaded and run); otherwise the same context each
    time (its vector comes from the on-disk vector cache, vector_cache.py). The default encoder is asked
    for as a user would, without `--set` (an override is read through OmegaConf)."""
    choose = [] if encoder == DEFAULT_ENCODER else ["--set", f"rulebook.encoder={encoder}"]
    times, cpu = [], []
    for attempt in range(runs + 1):
        context = f"{CLI_CONTEXT} (cold run {uuid.uuid4().hex[:8]})" if new_text else CLI_CONTEXT
        command = [sys.executable, "-m", "forge.cli", "rulebook", "query", context, "--rulebook", spec, "--namespace", namespace,
                   "--role", "action_chooser", *choose]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=900)
        elapsed = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise EmbeddingError(f"forge rulebook query failed: {done.stderr.strip()[-300:]}")
        if done.stderr.strip():
            raise EmbeddingError(f"forge rulebook query wrote to stderr: {done.stderr.strip()[:300]}")
        if attempt:  # the first run embeds the book's trigger nodes for this encoder
            times.append(elapsed)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), min(cpu)


def new_embedder(embedder: Embedder) -> Optional[Embedder]:
    """Another embedder of the same encoder with its own (empty) memory cache and the shared disk cache;
    None for an encoder without a disk cache."""
    from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEmbedder

    if not isinstance(embedder, OnnxEmbedder) or embedder._cache.disk is None:
        return None
    return OnnxEmbedder(quantized=embedder.quantized)


def query_latency(book: Rulebook, embedder: Embedder, rng: random.Random, queries: int, settings: RetrievalSettings,
                  row: EncoderRow, n: int) -> None:
    started = time.perf_counter()
    index = book.index(None)  # embeds the trigger nodes for this encoder if the book has none
    row.embed_nodes_s[n] = time.perf_counter() - started
    run = uuid.uuid4().hex[:8]  # texts of this run only: no cache (memory or disk, vector_cache.py) has seen them
    contexts = [f"Situation (from the Planner): query {i} of run {run} for {embedder.name}\n\nAlerts:\n"
                f"{alerts(rng, rng.randint(1, 4))}" for i in range(queries)]
    for warm in contexts[:5]:
        vector = embedder.encode([warm])[0]
        index.search(warm, vector, vector, "action_chooser", settings)
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
    row.p50[n], row.p99[n] = statistics.median(full), percentile(full, 99)
    # The same contexts again, from a new embedder of the encoder (empty memory, as in a new process):
    # what a context embedded before costs, by any process (the on-disk vector cache).
    fresh = new_embedder(embedder)
    if fresh is not None:
        seen = []
        for context in contexts:
            started = time.perf_counter()
            query = fresh.encode_one(context)
            index.search(context, query, query, "action_chooser", settings, "bench/i00")
            seen.append((time.perf_counter() - started) * 1000)
        row.seen_p50[n] = statistics.median(seen)

    row.search_p50[n], row.injected[n] = statistics.median(search_only), statistics.fmean(injected)


# -- retrieval proxy ----------------------------------------------------------------------------------


def proxy_cases(seed: int) -> tuple[list[str], list[str], np.ndarray]:
    """Grammar rules, host-table contexts and which (context, rule) pairs apply."""
    rng = random.Random(seed)
    rules = [(h, c, f"When {h} shows {c}, then {v} {h}") for h in HOSTS for c in CONDITIONS for v in VERBS[:2]]
    contexts, labels = [], []
    for i in range(150):
        rows = [(h, rng.choice(ACTIVITIES), rng.choice(COMPROMISE_LEVELS)) for h in rng.sample(HOSTS, rng.randint(1, 4))]
        contexts.append(f"Step {i % 30 + 1} of 30.\nAlerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows))
        labels.append([any(host == h and (c == f"Activity {a}" or c == f"Compromised {comp}"
                                          or (c == "any compromise" and comp in ("User", "Privileged")))
                           for h, a, comp in rows) for host, c, _ in rules])
    return [text for _, _, text in rules], contexts, np.array(labels)


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Probability that an applying pair outscores a non-applying one (Mann-Whitney, ties count half)."""
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores), dtype=np.float64)
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):  # average ranks over ties
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    positives = labels.sum()
    negatives = len(labels) - positives
    return float((ranks[labels].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def retrieval_proxy(rows: dict[str, EncoderRow], embedders: dict[str, Embedder], seed: int) -> None:
    rules, contexts, labels = proxy_cases(seed)
    nearest: dict[str, np.ndarray] = {}
    for name, embedder in embedders.items():
        rule_vectors = embedder.encode(rules)
        scores = embedder.encode(contexts) @ rule_vectors.T
        rows[name].auc = auc(scores.ravel(), labels.ravel())
        unrelated = embedder.encode(list(UNRELATED)) @ rule_vectors.T
        rows[name].unrelated = float(unrelated.mean())
        # what the relevance floor has to stop: a semantic rule passes on its cosine alone
        rows[name].unrelated_above = float((unrelated >= RetrievalSettings().relevance_floor).mean())
        nearest[name] = np.argsort(-scores, axis=1)[:, :10]
    reference = next((name for name in ("minilm-onnx", "minilm") if name in nearest), None)
    if reference is not None:
        for name, top in nearest.items():
            rows[name].agreement = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, nearest[reference])]))


# -- DC benchmark and episode cache -------------------------------------------------------------------


def dc_score(encoder: str) -> tuple[str, str]:
    """(exact-set accuracy, semantic-floor separation) of the DC benchmark under `encoder`."""
    script = ROOT / "scripts" / "bench" / "dc_bench.py"
    if not script.is_file():
        return "no dc_bench.py", "-"
    done = subprocess.run([sys.executable, str(script), "--calibrate", "--no-behaviour", "--set", f"rulebook.encoder={encoder}"],
                          capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=3600)
    text = " ".join(done.stdout.split())
    found = re.findall(r"overall exact-set accuracy: ([0-9.]+%)", text)
    floor = re.search(r"recommended relevance floor ([0-9.]+).*?false positive rate ([0-9.]+).*?applying pairs p5/p50/p95 "
                      r"([0-9.]+)/[0-9.]+/[0-9.]+, of non-applying [0-9.]+/[0-9.]+/([0-9.]+)", text)
    semantic = (f"FP {floor[2]} at {floor[1]}; {floor[3]} vs {floor[4]}" if floor else "-")
    return (found[-1] if found else f"failed (exit {done.returncode})"), semantic


def episode_cache(console: Console, encoder: str, seed: int) -> None:
    """One surrogate episode with rulebook injection over a small book of corrections; the query cache's
    hits say how often a context was embedded once and reused by later calls."""
    from agents.defender import Defender
    from forge.config import load_config
    from forge.env import Cage2Env
    from forge.protocol.episode import play_episode
    from forge.rulebook.injection import RulebookInjection
    from forge.wiring import build_clients

    cfg = load_config(overrides=[f"rulebook.encoder={encoder}", "memory.injection=rulebook"])
    embedder = local_embedder(encoder)
    with tempfile.TemporaryDirectory() as tmp:
        book, _ = build(str(Path(tmp) / "episode.db"), 24, random.Random(seed), embedder, "episode")
        before = embedder.cache_stats()
        injection = RulebookInjection(book, RetrievalSettings.from_config(cfg.rulebook), window=cfg.rulebook.context_window)
        clients, _ = build_clients(cfg)
        env = Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
        defender = Defender(clients, injection, cfg.agent, cfg.env.max_steps)
        with console.status("one surrogate episode with memory.injection=rulebook ..."):
            result = play_episode(env, defender, seed=seed)
        after = embedder.cache_stats()
        book.store.close()
    hits, misses = after.hits - before.hits, after.misses - before.misses
    calls = sum(len(s.calls) for s in result.steps)
    console.print(f"episode cache ({encoder}, surrogate model, {len(result.steps)} steps, {calls} model calls, 24-rule book): "
                  f"{hits + misses} context lookups, {hits} served from the cache, {misses} embedded; "
                  f"hit rate {hits / max(hits + misses, 1):.1%}")


# -- main ---------------------------------------------------------------------------------------------


def fmt(value: Optional[float], spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoders", default=",".join(ENCODERS), help=f"comma-separated, from {', '.join(ENCODERS)}")
    parser.add_argument("--sizes", default="5,500,5000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rulebook", help="a redis:// URL (default: SQLite in a temporary directory)")
    parser.add_argument("--cold-runs", type=int, default=3, help="cold CLI runs per encoder (best is reported)")
    parser.add_argument("--no-cold", action="store_true", help="skip the load and cold CLI measurements")
    parser.add_argument("--dc", action="store_true", help="also run scripts/bench/dc_bench.py per encoder")
    parser.add_argument("--episode", action="store_true", help="also measure the query-cache hit rate in one surrogate episode")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    encoders = [e.strip() for e in args.encoders.split(",") if e.strip()]
    unknown = [e for e in encoders if e not in ENCODERS]
    if unknown:
        parser.error(f"--encoders: unknown {', '.join(unknown)} (known: {', '.join(ENCODERS)})")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    console = Console(width=200)
    settings = RetrievalSettings()
    rows = {name: EncoderRow(name) for name in encoders}
    embedders: dict[str, Embedder] = {}
    for name in encoders:
        try:
            started = time.perf_counter()
            with console.status(f"preparing {name} (a derived table is built once per machine) ..."):
                embedder = local_embedder(name)
                embedder.prepare()
            embedders[name] = embedder
            console.print(f"{name}: ready in {time.perf_counter() - started:.1f} s in this process ({embedder.name})")
        except EmbeddingError as exc:
            rows[name].error = str(exc)
            console.print(f"[yellow]{name}: unavailable: {exc}[/yellow]")
    first = next(iter(embedders.values()), None)
    if first is None:
        console.print("no encoder is available")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        cold_spec = None
        for n in sorted(set(sizes) | ({COLD_SIZE} if not args.no_cold else set())):
            rng = random.Random(args.seed + n)
            spec = args.rulebook or str(Path(tmp) / f"bench-{n}.db")
            with console.status(f"teaching {n} rules ..."):
                book, _ = build(spec, n, rng, first, f"bench{n}")
            if n == COLD_SIZE:
                cold_spec = spec
            if n in sizes:
                for name, embedder in embedders.items():
                    with console.status(f"{name}: {args.queries} queries against {n} rules ..."):
                        query_latency(Rulebook(book.store, embedder), embedder, rng, args.queries, settings, rows[name], n)
            book.store.close()
        if not args.no_cold and cold_spec is not None:
            for name in embedders:
                with console.status(f"{name}: load time and cold `forge rulebook query` ..."):
                    try:
                        rows[name].load_s = load_time(name)
                        rows[name].cold_s, rows[name].cold_cpu_s = cold_cli(name, cold_spec, f"bench{COLD_SIZE}",
                                                                             max(args.cold_runs, 1), new_text=True)
                        rows[name].seen_cold_s, rows[name].seen_cold_cpu_s = cold_cli(
                            name, cold_spec, f"bench{COLD_SIZE}", max(args.cold_runs, 1), new_text=False)
                    except (EmbeddingError, subprocess.TimeoutExpired) as exc:
                        rows[name].error = str(exc)
    with console.status("retrieval proxy ..."):
        retrieval_proxy(rows, embedders, args.seed)
    if args.dc:
        for name in embedders:
            with console.status(f"{name}: DC benchmark ..."):
                rows[name].dc, rows[name].semantic = dc_score(name)

    detail = Table(title=f"Rulebook query latency per encoder and book size ({args.queries} queries each, "
                         f"{'Redis' if args.rulebook else 'SQLite'}, CPU, 2 cores)")
    for column in ("encoder", "rules", "embed triggers s", "query p50 ms", "query p99 ms", "search only p50 ms", "injected / query"):
        detail.add_column(column, justify="left" if column == "encoder" else "right")
    for n in sizes:
        for name in embedders:
            r = rows[name]
            detail.add_row(name, str(n), fmt(r.embed_nodes_s.get(n), ".2f"), fmt(r.p50.get(n), ".2f"), fmt(r.p99.get(n), ".2f"),
                           fmt(r.search_p50.get(n), ".2f"), fmt(r.injected.get(n), ".2f"))
    console.print(detail)

    middle = COLD_SIZE if COLD_SIZE in sizes else sizes[len(sizes) // 2]
    summary = Table(title="Encoders side by side (query = embedding the context + search; targets for the default: p50 at 500 "
                          "rules <= 2 ms, cold CLI <= 0.6 s)")
    columns = ["encoder", "dim", "load s", "cold CLI s", "cold CLI CPU s", "cold CLI s (seen)", "cold CLI CPU s (seen)"] + [
        f"p50 ms @{n}" for n in sizes] + [f"p50 ms @{n} (seen)" for n in sizes] + [
        f"p99 ms @{middle}", f"search p50 ms @{middle}", "proxy AUC", "unrelated cos", "unrelated >= floor", "top-10 vs minilm", "DC exact-set",
        "semantic: FP at floor; applying p5 vs non-applying p95"]
    for column in columns:
        summary.add_column(column, justify="left" if column == "encoder" else "right")
    for name in encoders:
        r = rows[name]
        label = name + (" (default)" if name == DEFAULT_ENCODER else "")
        if name not in embedders:
            summary.add_row(label, *["-"] * (len(columns) - 2), r.error or "unavailable")
            continue
        summary.add_row(label, str(embedders[name].dim), fmt(r.load_s, ".2f"), fmt(r.cold_s, ".2f"), fmt(r.cold_cpu_s, ".2f"),
                        fmt(r.seen_cold_s, ".2f"), fmt(r.seen_cold_cpu_s, ".2f"),
                        *[fmt(r.p50.get(n), ".2f") for n in sizes], *[fmt(r.seen_p50.get(n), ".2f") for n in sizes],
                        fmt(r.p99.get(middle), ".2f"),
                        fmt(r.search_p50.get(middle), ".2f"), fmt(r.auc, ".3f"), fmt(r.unrelated, ".2f"),
                        fmt(None if r.unrelated_above is None else 100 * r.unrelated_above, ".0f") + ("%" if r.unrelated_above is not None else ""),
                        fmt(r.agreement, ".2f"), r.dc or ("not run (--dc)" if not args.dc else "-"), r.semantic or "-")
    console.print(summary)
    for name, r in rows.items():
        if r.error and name in embedders:
            console.print(f"[yellow]{name}: {r.error}[/yellow]")
    console.print(f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times stretch with it; "
                  "CPU times do not). load = fresh interpreter to first vector; cold CLI = `forge rulebook query` against "
                  f"{COLD_SIZE} rules, fresh interpreter, best of {args.cold_runs} (wall, and user+system CPU), a context never "
                  "embedded before; (seen): a context embedded before by any process, its vector read from the on-disk vector "
                  "cache (FORGE_VECTOR_CACHE); p50: embedding a new context + search; p50 (seen): the same contexts from a new "
                  "embedder (empty memory, the disk cache); proxy AUC: applying vs not applying "
                  "grammar rule/context pairs ranked by cosine (0.5 = chance); unrelated cos: mean cosine of the rules "
                  "with non-CAGE-2 text (rulebook.relevance_floor must sit above it for that encoder); unrelated >= floor: the "
                  f"share of those pairs at or above the configured relevance floor ({RetrievalSettings().relevance_floor}), which "
                  "a semantic rule would pass on its cosine alone; the DC calibration has few non-applying semantic pairs, "
                  "so this is the column that tells a static table from MiniLM there.")
    if args.episode:
        episode_cache(console, DEFAULT_ENCODER if DEFAULT_ENCODER in embedders else next(iter(embedders)), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
