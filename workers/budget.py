"""A session's rate limit and budget, driver side: the limiter every worker installs, the spending it
commits, and the stop when a unit of work is refused for budget.

The limiter (forge.llm.limiter) commits every charge to the session ledger and starts (and restarts) from
what the ledger kept, never from figures the driver hands it. In remote storage a SQLite ledger's
spending is pushed as it changes (workers/spending.py).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import ray

from forge.config import BudgetConfig, ForgeConfig, StoreKind
from forge.llm.limiter import BudgetExhausted, BudgetLimits, describe_budget, start_session_limiter
from forge.protocol.ledger import SessionLedger
from forge.runs.rundir import RunDirectory
from forge.wiring import ledger_spec
from workers.ray_runtime import causes
from workers.spending import PUSHED_SPENDING, LedgerSpending, fold_pushed_spending, spending_document


class SessionBudgetStop(Exception):
    """Raised inside the driver when a unit of work was refused for budget; caught by the driver's `run`."""

    def __init__(self, figures: dict[str, Any]):
        super().__init__(describe_budget(figures))
        self.figures = figures

    def __reduce__(self):
        return (type(self), (self.figures,))


def budget_limits(budget: BudgetConfig) -> BudgetLimits:
    return BudgetLimits(budget.max_prompt_tokens, budget.max_completion_tokens, budget.max_usd)


def budget_refusal(exc: BaseException) -> Optional[dict[str, Any]]:
    """The budget figures when `exc` (a worker's error as Ray delivers it) is a budget refusal."""
    return next((cause.figures for cause in causes(exc) if isinstance(cause, BudgetExhausted)), None)


class SessionLimiter:
    """The session-wide limiter actor, started and stopped with the driver's run."""

    def __init__(self, cfg: ForgeConfig, ledger: SessionLedger, run_dir: RunDirectory) -> None:
        self.cfg = cfg
        self.ledger = ledger
        self.run_dir = run_dir
        self._actor = None
        self._stop_pushing: Optional[Callable[[], None]] = None  # the spending pushed to remote storage

    def start(self) -> None:
        fold_pushed_spending(self.ledger, self.run_dir.path)
        store = LedgerSpending(ledger_spec(self.cfg, str(self.run_dir.path)), self.ledger.session)
        self._actor = start_session_limiter(self.ledger.session, budget_limits(self.cfg.budget), store,
                                            self.cfg.ray.slot_lease_s)
        if self.run_dir.mirror is not None and self.cfg.memory.store is StoreKind.sqlite:
            self._stop_pushing = self.run_dir.mirror.keep_pushed(PUSHED_SPENDING, lambda: spending_document(self.ledger))

    def save_spent(self) -> dict[str, Any]:
        """The limiter's figures, and its spending mirrored into the ledger's meta for the reports (the
        limiter has already committed it: a figure there is never lower than one written before)."""
        figures = ray.get(self._actor.figures.remote())
        meta = self.ledger.meta()
        meta["spent"] = self.ledger.commit_spending(figures["spent"])
        meta["slots_reclaimed"] = sum(figures.get("reclaimed", {}).values())
        self.ledger.update_meta(meta)
        return {**figures, "spent": meta["spent"]}

    def reclaim(self, process: str) -> None:
        """A dead worker process's model-call slots back now, not when their leases expire."""
        if self._actor is not None:
            ray.get(self._actor.reclaim_holder.remote(process))

    def stop(self) -> None:
        if self._actor is not None:
            ray.kill(self._actor)
            self._actor = None
        if self._stop_pushing is not None:
            self._stop_pushing()
            self._stop_pushing = None
