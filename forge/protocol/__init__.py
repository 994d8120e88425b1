"""The FORGE protocol: episodes, the inner (Reflexion) loop and the outer (stage) loop, and the session ledger.
The failure trigger and the failure snapshot they use are in `forge.failure`."""
