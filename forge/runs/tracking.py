"""MLflow tracking of a session: a parent run, one nested run per instance, metrics indexed by stage.

Uses `MlflowClient` (explicit run ids, no global active run), so the driver can log for every
instance from one place and resume logging into the same runs after a restart. Everything is sent in
batches. Params are the resolved configuration; keys never appear there (the config holds only the
*names* of the environment variables that hold them), and any value equal to a secret found in the
environment is masked anyway.

Which store (`tracking_store`): `tracking.tracking_uri`, else `$MLFLOW_TRACKING_URI`, else one store
per study: every session under a runs directory logs to
`sqlite:///<runs_dir>/mlflow.db` (artifacts under `<runs_dir>/mlartifacts`), one experiment per study
(`run.study`), one parent run per session with its instances nested, so conditions and repeats sit side
by side in one `mlflow ui`. Only the driver logs; workers never call MLflow.

A tracking server that refuses (401/403, 5xx) or cannot be reached is a `TrackingError`: one line naming the
tracking URI and what to check, never MLflow's traceback. The first contact is a quick probe (one retry, a
10 s timeout), so a wrong URI is reported in seconds; later calls keep MLflow's own retries, which ride out a
server restart of a few minutes.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Iterable, Optional
from urllib.parse import urlsplit

from forge.config import ConfigError, ForgeConfig, to_flat_dict
from forge.errors import ForgeError
from forge.llm.accounting import cost_by_role, role_prices
from forge.llm.replies import OUTCOMES, replies_by_role
from forge.protocol.ledger import StageRecord
from forge.plumbing.redact import mask_url, mask_urls_in_text
from forge.analysis.stats import ReturnStats


class Tags:
    """The MLflow tags FORGE sets and reads back (forge compare --mlflow, a report's nesting), in one place."""

    SESSION = "forge.session"
    INSTANCE = "forge.instance"
    STATUS = "forge.status"  # finished | budget_exhausted
    BUDGET_REACHED = "forge.budget_reached"
    LEARNER_FEEDBACK = "forge.learner_feedback"  # paper | privileged: what the learners read
    CONDITION = "forge.condition"
    REPRESENTATION = "forge.representation"
    MODEL = "forge.model"
    SURROGATE = "forge.surrogate"  # "true" when the surrogate answered any role
    CAVEAT = "forge.caveat"
    KIND = "forge.kind"  # a report's own run (e.g. cage2_protocol)
    MEMORY = "forge.memory"  # the memory a report evaluated
    PARENT_RUN = "mlflow.parentRunId"  # MLflow's own: a nested run's parent


_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD)", re.IGNORECASE)
_MAX_BATCH = 100  # MLflow accepts up to 100 params / 1000 metrics per batch
_PROBE_TIMEOUT_S = 10


class TrackingError(ForgeError):
    """The MLflow tracking server refused a request or could not be reached; the message names the
    tracking URI (credentials masked) and what to check."""


def is_server(uri: str) -> bool:
    """An MLflow tracking server (HTTP), as opposed to a store this process opens itself (SQLite, files)."""
    return uri.startswith(("http://", "https://"))


def ui_hint(uri: str) -> str:
    """Where to look at a session's stage curves: a server has its own UI at its URI; a local store is
    opened with `mlflow ui`."""
    if is_server(uri):
        return f"{mask_url(uri)} (the tracking server's UI)"
    return f"mlflow ui --backend-store-uri {mask_url(uri)}"


def _refusal(uri: str, status: Optional[int], detail: str) -> TrackingError:
    """The one-line error for a server at `uri` that answered `status` (None: no answer) with `detail`."""
    where = f"MLflow tracking server {mask_url(uri)}"
    detail = " ".join(mask_urls_in_text(detail).split())[:200]
    if status is None:
        return TrackingError(f"{where} cannot be reached ({detail}): check that `mlflow server` runs there and "
                             f"that this machine reaches its host and port, or set tracking.tracking_uri "
                             f"(MLFLOW_TRACKING_URI) to another store, or tracking.enabled=false")
    if status == 403 and "host header" in detail.lower():
        host = urlsplit(uri).netloc.rsplit("@", 1)[-1]
        return TrackingError(f"{where} refused the request (HTTP 403: {detail}): the server checks the Host header; "
                             f"start it with --allowed-hosts including {host}")
    if status in (401, 403):
        return TrackingError(f"{where} refused the request (HTTP {status}: {detail}): check the credentials "
                             f"(MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD, or MLFLOW_TRACKING_TOKEN)")
    if status >= 500:
        return TrackingError(f"{where} failed (HTTP {status}: {detail}): check the server's log and its backend "
                             f"store (--backend-store-uri)")
    return TrackingError(f"{where} answered HTTP {status} ({detail}): check that the URI is an MLflow "
                         f"tracking server's")


def check_server(uri: str, experiment: str) -> None:
    """First contact with the tracking server at `uri`: one request (one retry) that a working server answers
    200 or 404 (no such experiment yet); anything else is a `TrackingError` now, not after MLflow's retries
    (minutes, for a server that is not there)."""
    from mlflow.utils.credentials import get_default_host_creds
    from mlflow.utils.rest_utils import http_request

    try:
        response = http_request(get_default_host_creds(uri), "/api/2.0/mlflow/experiments/get-by-name", "GET",
                                params={"experiment_name": experiment}, max_retries=1, backoff_factor=1,
                                timeout=_PROBE_TIMEOUT_S, raise_on_status=False)
    except Exception as exc:  # noqa: BLE001 - MLflow wraps every transport error in an MlflowException
        raise _refusal(uri, None, _transport_reason(str(exc))) from None
    if response.status_code == 200 or (response.status_code == 404 and "RESOURCE_DOES_NOT_EXIST" in response.text):
        return
    raise _refusal(uri, response.status_code, response.text or response.reason)


def _transport_reason(text: str) -> str:
    """The cause at the end of a requests error chain ("Connection refused", "Name or service not known")."""
    for pattern in (r"\[Errno -?\d+\] ([^'\")\]]+)", r"(Connection refused|timed out|Name or service not known)",
                    r"(CERTIFICATE_VERIFY_FAILED[^'\"]*)", r"Caused by (\w+)"):
        found = re.search(pattern, text)
        if found:
            return found.group(1).strip()
    return text.splitlines()[0] if text else "no answer"


class _GuardedClient:
    """An `MlflowClient` whose calls turn a server's refusal (401/403, 5xx, no answer) into a `TrackingError`;
    any other MLflow error (a bad value, a missing run) is a bug and keeps its traceback."""

    def __init__(self, client, uri: str) -> None:
        self._client = client
        self._uri = uri

    def __getattr__(self, name: str):
        attribute = getattr(self._client, name)
        if not callable(attribute) or not is_server(self._uri):
            return attribute

        def guarded(*args, **kwargs):
            from mlflow.exceptions import MlflowException

            try:
                return attribute(*args, **kwargs)
            except MlflowException as exc:
                error = _server_refusal(self._uri, exc)
                if error is None:
                    raise
                raise error from None

        return guarded


def _server_refusal(uri: str, exc) -> Optional[TrackingError]:
    """The `TrackingError` for an MlflowException that says the server refused or was not reached, else None."""
    text = str(exc)
    if "failed with exception" in text:  # requests gave up: no answer, or the same 5xx after every retry
        status = re.search(r"too many (\d{3}) error responses", text)
        return _refusal(uri, int(status.group(1)) if status else None,
                       "retries exhausted" if status else _transport_reason(text))
    status = exc.get_http_status_code()
    if status in (401, 403) or status >= 500:
        body = re.search(r"Response body: '(.*)'", text, re.DOTALL)
        return _refusal(uri, status, body.group(1) if body else text)
    return None


def tracking_store(cfg: ForgeConfig, runs_dir: Path, remote_storage: bool = False) -> tuple[str, Optional[Path]]:
    """The tracking URI for a session whose run directory is under `runs_dir`, and the artifact root to
    give a new experiment (None: the tracking server's own). `remote_storage`: the run directory is a
    working copy of remote storage, where no SQLite store can be kept."""
    uri = cfg.tracking.tracking_uri or os.environ.get("MLFLOW_TRACKING_URI")
    if uri:
        local = uri.startswith(("sqlite:", "file:")) or "://" not in uri
        return uri, default_artifact_root(runs_dir) if local else None
    if remote_storage:
        raise ConfigError(
            f"run.storage={cfg.run.storage} is remote and MLflow's default store is a SQLite file, which cannot "
            f"live there: set tracking.tracking_uri (e.g. an `mlflow server`, http://host:5000) or "
            f"MLFLOW_TRACKING_URI, or tracking.enabled=false")
    return default_tracking_uri(runs_dir), default_artifact_root(runs_dir)


def default_tracking_uri(runs_dir: Path) -> str:
    """The study store shared by every session under `runs_dir` (the parent of each run directory)."""
    return f"sqlite:///{(runs_dir / 'mlflow.db').resolve()}"


def default_artifact_root(runs_dir: Path) -> Path:
    return runs_dir / "mlartifacts"


def experiment_id(client, name: str, artifact_root: Optional[Path]) -> str:
    """The id of the experiment `name`, created if missing (its artifacts under `artifact_root`, None: where
    the tracking server keeps them)."""
    found = client.get_experiment_by_name(name)
    if found is not None:
        return found.experiment_id
    if artifact_root is None:
        return client.create_experiment(name)
    artifact_root.mkdir(parents=True, exist_ok=True)
    return client.create_experiment(name, artifact_location=artifact_root.resolve().as_uri())


def session_runs(client, study: str, session: str) -> tuple[Any, list[Any]]:
    """A session's parent run and its instance runs in the study's experiment (a store holds many sessions)."""
    experiment = client.get_experiment_by_name(study)
    if experiment is None:
        raise LookupError(f"no MLflow experiment named {study!r} in {client.tracking_uri}")
    runs = client.search_runs([experiment.experiment_id], filter_string=f"tags.`{Tags.SESSION}` = '{session}'")
    parents = [r for r in runs if Tags.PARENT_RUN not in r.data.tags]
    if not parents:
        raise LookupError(f"no run of session {session!r} in experiment {study!r}")
    parent = parents[0]
    return parent, [r for r in runs if r.data.tags.get(Tags.PARENT_RUN) == parent.info.run_id]


def secret_values() -> set[str]:
    """Values of environment variables whose names look like credentials (to mask, never to log)."""
    return {v for k, v in os.environ.items() if _SECRET_NAME.search(k) and len(v) >= 6}


def scrub(value: Any, secrets: set[str]) -> str:
    text = mask_urls_in_text(str(value))
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, "***")
    return text[:5000]


class SessionTracker:
    """Logs one session. `ids` (parent and instance run ids) is kept in the ledger so a resumed session
    continues the same runs."""

    def __init__(self, tracking_uri: str, experiment: str, artifact_root: Optional[Path]) -> None:
        """`artifact_root`: where a new experiment keeps its artifacts (None: where the server says)."""
        import logging

        from mlflow import MlflowClient

        # The SQLite store announces its schema migrations at INFO on every new run directory.
        logging.getLogger("mlflow").setLevel(logging.WARNING)
        # No mlflow.set_tracking_uri: it writes $MLFLOW_TRACKING_URI, which would send every later session of
        # this process to this one's store. The client is given its store explicitly.
        self.tracking_uri = tracking_uri
        if is_server(tracking_uri):
            check_server(tracking_uri, experiment)
        self.client = _GuardedClient(MlflowClient(tracking_uri), tracking_uri)
        self.experiment_id = experiment_id(self.client, experiment, artifact_root)
        self.ids: dict[str, Any] = {}
        self._prices: dict = {}  # role -> forge.llm.prices.Price

    # -- runs ---------------------------------------------------------------------------------------

    def start(self, session: str, cfg: ForgeConfig, instances: Iterable[str], tags: dict[str, str],
              ids: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        self._prices = role_prices(cfg)
        if ids:
            self.ids = ids
            for run_id in [ids["parent"], *ids["instances"].values()]:
                self.client.update_run(run_id, status="RUNNING")
            return self.ids
        secrets = secret_values()
        tags = {**tags, Tags.LEARNER_FEEDBACK: cfg.learner.feedback.value}
        tags = {k: scrub(v, secrets) for k, v in tags.items()}
        parent = self.client.create_run(self.experiment_id, run_name=session, tags={**tags, Tags.SESSION: session})
        parent_id = parent.info.run_id
        from mlflow.entities import Param

        params = [Param(k, scrub(v, secrets)) for k, v in sorted(to_flat_dict(cfg).items())]
        for chunk in range(0, len(params), _MAX_BATCH):
            self.client.log_batch(parent_id, params=params[chunk : chunk + _MAX_BATCH])
        children = {}
        for instance in instances:
            child = self.client.create_run(
                self.experiment_id, run_name=f"{session}/{instance}",
                tags={**tags, Tags.PARENT_RUN: parent_id, Tags.INSTANCE: instance, Tags.SESSION: session},
            )
            children[instance] = child.info.run_id
        self.ids = {"parent": parent_id, "instances": children}
        return self.ids

    def finish(self, status: str = "FINISHED") -> None:
        if status == "FINISHED":
            self.client.set_tag(self.ids["parent"], Tags.STATUS, "finished")
        for run_id in [self.ids["parent"], *self.ids["instances"].values()]:
            self.client.set_terminated(run_id, status=status)

    def stopped_for_budget(self, figures: dict[str, Any]) -> None:
        """The session stopped on its budget: the figures on the parent run, every run ended KILLED
        (a resume sets them running again)."""
        parent = self.ids["parent"]
        self.client.set_tag(parent, Tags.STATUS, "budget_exhausted")
        self.client.set_tag(parent, Tags.BUDGET_REACHED, ",".join(figures["reached"]))
        spent = figures["spent"]
        self._log(parent, {"spent_prompt_tokens": spent["prompt_tokens"], "spent_completion_tokens": spent["completion_tokens"],
                           "spent_usd": spent["usd"]}, figures["stopped_in"]["stage"])
        self.finish("KILLED")

    # -- metrics ------------------------------------------------------------------------------------

    def _log(self, run_id: str, values: dict[str, float], step: int, only_missing: bool = False) -> None:
        """`only_missing`: skip a metric that already has this value at this step (a re-log after a crash
        mid-logging must not add a second point)."""
        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        metrics = [Metric(k, float(v), now, step) for k, v in values.items() if v is not None]
        if only_missing:
            metrics = [m for m in metrics if not self._has_point(run_id, m.key, step, m.value)]
        for chunk in range(0, len(metrics), 1000):
            self.client.log_batch(run_id, metrics=metrics[chunk : chunk + 1000])

    def _has_point(self, run_id: str, key: str, step: int, value: float) -> bool:
        return any(m.step == step and m.value == value for m in self.client.get_metric_history(run_id, key))

    def log_stage(self, record: StageRecord, graduates_so_far: int, only_missing: bool = False) -> None:
        step = record.stage
        for instance, run_id in self.ids["instances"].items():
            values: dict[str, float] = {"active": float(instance in record.active_after)}
            if instance in record.checkpoint:
                values["checkpoint_return"] = record.checkpoint[instance]
            if instance in record.failures:
                values["failures_triggered"] = record.failures[instance]
            memory = record.memory.get(instance)
            if memory:
                values["memory_rules"] = memory["rules"]
                values["memory_examples"] = memory["examples"]
            for role, usage in record.tokens.get(instance, {}).items():
                values[f"prompt_tokens.{role}"] = usage["prompt"]
                values[f"completion_tokens.{role}"] = usage["completion"]
                values[f"cached_prompt_tokens.{role}"] = usage.get("cached_prompt", 0)
                values[f"reasoning_tokens.{role}"] = usage.get("reasoning", 0)
            for role, usd in cost_by_role(record.tokens.get(instance, {}), self._prices).items():
                values[f"cost_usd.{role}"] = usd
            for role, counts in replies_by_role([record.tokens.get(instance, {})]).items():
                for outcome in OUTCOMES:
                    values[f"replies.{outcome}.{role}"] = counts[outcome]
            values["graduated"] = float(instance in record.graduated)
            values["champion"] = float(instance == record.champion)
            if instance in record.active_before:
                for kind, count in record.faults.get(instance, {}).items():
                    values[f"provider_faults.{kind}"] = count
                values["work_retries"] = record.retries.get(instance, 0)
            self._log(run_id, values, step, only_missing)
        scores = list(record.checkpoint.values())
        totals: dict[str, float] = {}
        for per_role in record.tokens.values():
            for role, usage in per_role.items():
                totals[f"prompt_tokens.{role}"] = totals.get(f"prompt_tokens.{role}", 0) + usage["prompt"]
                totals[f"completion_tokens.{role}"] = totals.get(f"completion_tokens.{role}", 0) + usage["completion"]
                for kind in ("cached_prompt", "reasoning"):
                    totals[f"{kind}_tokens.{role}"] = totals.get(f"{kind}_tokens.{role}", 0) + usage.get(kind, 0)
            for role, usd in cost_by_role(per_role, self._prices).items():
                totals[f"cost_usd.{role}"] = totals.get(f"cost_usd.{role}", 0.0) + usd
        totals["cost_usd"] = sum(v for k, v in totals.items() if k.startswith("cost_usd."))
        for role, counts in replies_by_role(record.tokens.values()).items():
            for outcome in OUTCOMES:
                totals[f"replies.{outcome}.{role}"] = counts[outcome]
        self._log(self.ids["parent"], {
            "active_instances": len(record.active_after),
            "graduates": graduates_so_far,
            "graduated_this_stage": len(record.graduated),
            "checkpoint_mean": sum(scores) / len(scores) if scores else None,
            "checkpoint_best": max(scores) if scores else None,
            "failures_triggered": sum(record.failures.values()),
            "stage_wall_s": record.wall_s,
            "provider_faults": sum(sum(kinds.values()) for kinds in record.faults.values()),
            "work_retries": sum(record.retries.values()),
            **totals,
        }, step, only_missing)

    def log_evaluation(self, per_instance: dict[str, ReturnStats], pooled: ReturnStats, step: int,
                       extra: Optional[dict[str, float]] = None, only_missing: bool = False) -> None:
        for instance, stats in per_instance.items():
            self._log(self.ids["instances"][instance], _eval_metrics(stats), step, only_missing)
        self._log(self.ids["parent"], {**_eval_metrics(pooled), **(extra or {})}, step, only_missing)

    def log_nodes(self, shares: list[dict[str, Any]]) -> None:
        """Every Ray node's share of the instances (workers/placement.py) on the parent run:
        `instances_on_node.<address>/<id>` per node and `instances_on_head`; step 0, once per driver start."""
        values = {f"instances_on_node.{s['node']}": len(s["instances"]) for s in shares}
        values["instances_on_head"] = sum(len(s["instances"]) for s in shares if s["head"])
        self._log(self.ids["parent"], values, 0)

    def log_artifact(self, path: Path, artifact_path: Optional[str] = None, instance: Optional[str] = None) -> None:
        run_id = self.ids["instances"][instance] if instance else self.ids["parent"]
        self.client.log_artifact(run_id, str(path), artifact_path)


def _eval_metrics(stats: ReturnStats) -> dict[str, float]:
    return {
        "eval_mean": stats.mean, "eval_sd": stats.sd, "eval_min": stats.min, "eval_max": stats.max,
        "eval_tail_lt_100": stats.tail_100, "eval_tail_lt_150": stats.tail_150,
    }
