"""Where a session's instances run: every Ray node's share, as the ledger, the summary and MLflow keep it.

The driver asks each worker process which node it landed on (workers/instance_actor.py places them with
Ray's SPREAD strategy) and turns the answers into one record per node, including the nodes that got no
instance (a head started with --num-cpus=0 is kept free of them: its share says so).
"""

from __future__ import annotations

from typing import Any

HEAD_RESOURCE = "node:__internal_head__"  # the resource Ray gives the head node only


def node_label(node: dict[str, Any]) -> str:
    """A node as people can tell it apart: its address and the start of its id (nodes on one machine, as in
    docker/compose.yaml, share the address)."""
    return f"{node['NodeManagerAddress']}/{node['NodeID'][:8]}"


def node_shares(nodes: list[dict[str, Any]], placed: dict[str, str]) -> list[dict[str, Any]]:
    """One record per alive node of `nodes` (as `ray.nodes()` gives them), head first, then by label:
    {"node": label, "head": bool, "cpus": float, "instances": [...]}. `placed`: instance -> the id of the
    node its worker process runs on. A node id missing from `nodes` (it died meanwhile) still gets a record."""
    alive = {n["NodeID"]: n for n in nodes if n.get("Alive", True)}
    shares = {
        node_id: {"node": node_label(n), "head": HEAD_RESOURCE in n.get("Resources", {}),
                  "cpus": float(n.get("Resources", {}).get("CPU", 0.0)), "instances": []}
        for node_id, n in alive.items()
    }
    for instance, node_id in sorted(placed.items()):
        share = shares.setdefault(node_id, {"node": f"?/{node_id[:8]}", "head": False, "cpus": 0.0, "instances": []})
        share["instances"].append(instance)
    return sorted(shares.values(), key=lambda s: (not s["head"], s["node"]))
