"""The session limiter's spending store: the session ledger (forge.llm.limiter.SpendingStore).

Picklable (a ledger spec and a session name): Ray rebuilds a restarted limiter actor from its
constructor arguments, and the rebuilt limiter reads the spending committed so far from the ledger.

A session in remote storage with its ledger in SQLite (the working copy) would reach the storage only
at stage boundaries; its spending is pushed as `spending.json` whenever it changes (at most once a
second, `RunMirror.keep_pushed`), and folded back into the ledger when a driver resumes it elsewhere
(`fold_pushed_spending`): a driver's machine lost mid-stage loses at most the last second's charges.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Optional

from forge.llm.limiter import OpenLeases, Spent
from forge.protocol.ledger import SessionLedger

log = logging.getLogger(__name__)

PUSHED_SPENDING = "spending.json"


class LedgerSpending:
    def __init__(self, spec: str, session: str) -> None:
        self.spec = spec
        self.session = session
        self._ledger: Optional[SessionLedger] = None

    def __getstate__(self) -> dict:
        return {"spec": self.spec, "session": self.session}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["spec"], state["session"])

    def _open(self) -> SessionLedger:
        if self._ledger is None:
            self._ledger = SessionLedger.open(self.spec, self.session)
        return self._ledger

    def load(self) -> tuple[Spent, OpenLeases]:
        ledger = self._open()
        return Spent.of(ledger.spending()), ledger.open_leases()

    def commit(self, spent: Spent, open_leases: OpenLeases) -> Spent:
        return Spent.of(self._open().commit_spending(vars(spent), open_leases))


def spending_document(ledger: SessionLedger) -> str:
    """What `keep_pushed` sends: the ledger's spending and the calls in flight."""
    return json.dumps({"spent": ledger.spending(), "open_leases": ledger.open_leases()}, sort_keys=True)


def fold_pushed_spending(ledger: SessionLedger, run_path: Path) -> Optional[dict]:
    """The spending a driver pushed (`spending.json`, pulled with the run directory) into the ledger: each
    figure the larger of the two (a write never lowers one), and the calls in flight of the pushed document
    when it is at least as far on in every figure (the ledger's copy dates from the last stage boundary).
    The spending kept, or None when nothing was pushed."""
    path = run_path / PUSHED_SPENDING
    if not path.is_file():
        return None
    try:
        pushed = json.loads(path.read_text())
        pushed["spent"].items()
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        # Storage writes it whole; a copy that is not (a store without atomic writes) costs the charges since
        # the last stage boundary, never the resume.
        log.warning("%s is not a spending document (%s): the ledger's spending is kept", path, exc)
        return None
    kept = ledger.spending()
    newer = all(pushed["spent"].get(k, 0) >= v for k, v in kept.items())
    return ledger.commit_spending(pushed["spent"], pushed.get("open_leases", {}) if newer else None)
