"""The Docker check's look at the cluster session it just ran, from inside the ray-head container
(docker/check.sh pipes this file to `python -`): the session finished, every worker node ran instances and
the head none, its runs and reports are on the MLflow server, its ledger and memory are in Redis.

Prints what it found in a few lines; exits 1 naming each thing that is missing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mlflow import MlflowClient

from forge.runs.rundir import RunDirectory
from forge.runs.tracking import Tags, session_runs
from forge.wiring import open_ledger, open_memory

run = RunDirectory.open(Path("runs/latest").resolve())
cfg = run.load_config()
session = run.session_id
summary = json.loads((run.reports / "summary.json").read_text())
instances = summary["meta"]["instances"]
problems: list[str] = []

# The session and where its instances ran.
if summary["status"] != "finished":
    problems.append(f"session {session} is {summary['status']}, not finished")
nodes = summary["meta"].get("nodes", [])
workers = [n for n in nodes if not n["head"]]
print(f"session {session}: {summary['status']}; nodes: "
      + ", ".join(f"{n['node']}{' (head)' if n['head'] else ''} {len(n['instances'])}" for n in nodes))
if len(workers) < 2:
    problems.append(f"{len(workers)} worker node(s) in the placement, expected 2: {nodes}")
problems += [f"worker node {n['node']} ran no instance" for n in workers if not n["instances"]]
problems += [f"the head ran instances {n['instances']}" for n in nodes if n["head"] and n["instances"]]
if sorted(i for n in nodes for i in n["instances"]) != sorted(instances):
    problems.append(f"placement {nodes} does not hold every instance {instances} once")

# MLflow: the parent run and one nested run per instance, with metrics, the placement and the reports.
client = MlflowClient(cfg.tracking.tracking_uri)
parent, children = session_runs(client, cfg.run.study, session)
tags, metrics = parent.data.tags, parent.data.metrics
on_nodes = {k: v for k, v in metrics.items() if k.startswith("instances_on_node.")}
artifacts = [a.path for a in client.list_artifacts(parent.info.run_id, "reports")]
print(f"MLflow {cfg.tracking.tracking_uri}: run {parent.info.run_id} {parent.info.status}, "
      f"{len(children)} instance runs, eval_mean {metrics.get('eval_mean')}, {on_nodes}, artifacts {artifacts}")
if parent.info.status != "FINISHED" or tags.get(Tags.STATUS) != "finished":
    problems.append(f"MLflow parent run is {parent.info.status} / {Tags.STATUS}={tags.get(Tags.STATUS)}")
if len(children) != len(instances):
    problems.append(f"MLflow has {len(children)} instance runs, expected {len(instances)}")
if "eval_mean" not in metrics or not any(client.get_metric_history(c.info.run_id, "checkpoint_return") for c in children):
    problems.append("MLflow runs lack eval_mean / checkpoint_return")
if sum(on_nodes.values()) != len(instances) or metrics.get("instances_on_head") != 0:
    problems.append(f"MLflow placement metrics {on_nodes}, instances_on_head={metrics.get('instances_on_head')}")
if "reports/summary.json" not in artifacts:
    problems.append(f"MLflow parent run has no reports/summary.json (reports: {artifacts})")

# Redis: the ledger and the memory the instances learned.
ledger = open_ledger(cfg, str(run.path), session)
memory = open_memory(cfg, str(run.path), session)
learned = {i: len(memory.snapshot(f"{session}/{i}").items) for i in instances}
print(f"Redis {cfg.memory.redis_url}: ledger {ledger.status()}, {len(ledger.stages())} stages; memory items {learned}")
if ledger.status() != "finished" or not ledger.stages():
    problems.append(f"Redis ledger: status {ledger.status()}, {len(ledger.stages())} stages")
if not any(learned.values()):
    problems.append("no instance has memory in Redis")

for problem in problems:
    print(f"CHECK FAILED: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
