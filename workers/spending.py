"""The session limiter's spending store: the session ledger (forge.llm.limiter.SpendingStore).

Picklable (a ledger spec and a session name): Ray rebuilds a restarted limiter actor from its
constructor arguments, and the rebuilt limiter reads the spending committed so far from the ledger.
"""

from __future__ import annotations

from typing import Optional

from forge.llm.limiter import Spent
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

    def load(self) -> Spent:
        return Spent.of(self._open().spending())

    def commit(self, spent: Spent) -> Spent:
        return Spent.of(self._open().commit_spending(vars(spent)))
