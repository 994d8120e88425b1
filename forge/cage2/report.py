"""The official CAGE-2 protocol's tables: rendered for the console, written to a run's reports, logged to MLflow.

One row per policy (the champion, the sleep policy, a package agent), one column per cell (`mean ± sd`
of the episode return, as the challenge prints them), and the total (the sum of the nine means, the
challenge's score). The sleep policy's cells that have a published figure get a second table: the
figure against the mean's 95% bootstrap interval over the episodes played.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from rich.table import Table

from forge.cage2.protocol import KnownCheck, PolicyResult
from forge.config import ForgeConfig
from forge.runs.rundir import RunDirectory
from forge.runs.tracking import Tags, experiment_id, session_runs, tracking_store

REPORT_NAME = "cage2_protocol"


def protocol_table(results: Mapping[str, PolicyResult], seeds: Sequence[int]) -> Table:
    first = next(iter(results.values()))
    caption = "; ".join(f"{r.name}: {r.label}" for r in results.values())
    table = Table(title=f"CAGE-2 official protocol: {len(seeds)} episodes per cell, the same seeds for every policy",
                  caption=caption)
    table.add_column("policy", justify="left")
    for cell in first.cells:
        table.add_column(f"{cell.red} {cell.steps}", justify="right")
    table.add_column("total", justify="right")
    for result in results.values():
        table.add_row(result.name, *(f"{c.mean:.1f} ± {c.sd:.1f}" for c in result.cells),
                      f"{result.total:.1f}")
    return table


def known_table(checks: Sequence[KnownCheck]) -> Table:
    table = Table(title="sleep policy against the published sleep figures (95% bootstrap interval over episodes)")
    for column in ("cell", "published", "source", "measured mean [95%]", "within"):
        table.add_column(column, justify="left" if column in ("cell", "source") else "right")
    for check in checks:
        interval = "" if check.low is None else f" [{check.low:.2f}, {check.high:.2f}]"
        table.add_row(f"{check.red} {check.steps}", f"{check.known:.2f}", check.source, f"{check.mean:.2f}{interval}",
                      "yes" if check.within else "NO")
    return table


def write_protocol_report(run: RunDirectory, markdown: str, data: dict[str, Any]) -> Path:
    """`reports/cage2_protocol.md` and `.json` in the run directory; the markdown's path."""
    path = run.path / "reports" / f"{REPORT_NAME}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown)
    run.write_json(f"reports/{REPORT_NAME}.json", data)
    return path


def protocol_metrics(results: Mapping[str, PolicyResult]) -> dict[str, float]:
    metrics = {}
    for result in results.values():
        for cell in result.cells:
            metrics[f"cage2.{result.name}.{cell.red}_{cell.steps}.mean"] = cell.mean
            metrics[f"cage2.{result.name}.{cell.red}_{cell.steps}.sd"] = cell.sd
        metrics[f"cage2.{result.name}.total"] = result.total
    return metrics


def log_protocol(cfg: ForgeConfig, run: RunDirectory, results: Mapping[str, PolicyResult], report: Path,
                 tags: Mapping[str, str]) -> Optional[str]:
    """The figures as metrics and the report as an artifact, in a run nested under the session's MLflow run
    (a run of its own in the study when the session logged none); its run id, or None with tracking off."""
    if not cfg.tracking.enabled:
        return None
    from mlflow import MlflowClient
    from mlflow.entities import Metric

    logging.getLogger("mlflow").setLevel(logging.WARNING)
    runs_dir = run.path.parent
    uri, root = tracking_store(cfg, runs_dir)  # the store the session logged to
    client = MlflowClient(uri)
    experiment = experiment_id(client, cfg.run.study, root)
    all_tags = {**tags, Tags.SESSION: run.session_id, Tags.KIND: REPORT_NAME}
    try:
        parent, _ = session_runs(client, cfg.run.study, run.session_id)
        if parent.data.tags.get(Tags.KIND) != REPORT_NAME:  # not an earlier report's own run
            all_tags[Tags.PARENT_RUN] = parent.info.run_id
    except LookupError:
        pass
    created = client.create_run(experiment, run_name=f"{run.session_id}/{REPORT_NAME}", tags=all_tags)
    run_id = created.info.run_id
    metrics = [Metric(key, float(value), 0, 0) for key, value in sorted(protocol_metrics(results).items())]
    for chunk in range(0, len(metrics), 500):
        client.log_batch(run_id, metrics=metrics[chunk:chunk + 500])
    client.log_artifact(run_id, str(report))
    client.set_terminated(run_id)
    return run_id
