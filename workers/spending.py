"""The session limiter's spending store: the session ledger (forge.llm.limiter.SpendingStore).

Picklable (a ledger spec and a session name): Ray rebuilds a restarted limiter actor from its
constructor arguments, and the rebuilt limiter reads the spending committed so far from the ledger.
"""

from __future__ import annotations

from typing import Optional

from forge.llm.limiter import OpenLeases, Spent
from forge.protocol.ledger import SessionLedger


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
