"""Every Ray node's share of a session's instances (workers/placement.py) and the line the summary prints."""

from __future__ import annotations

from forge.analysis.reporting import describe_nodes
from workers.placement import HEAD_RESOURCE, node_shares


def ray_node(node_id: str, address: str, cpus: float, head: bool = False, alive: bool = True) -> dict:
    resources = {"CPU": cpus, f"node:{address}": 1.0, **({HEAD_RESOURCE: 1.0} if head else {})}
    return {"NodeID": node_id, "Alive": alive, "NodeManagerAddress": address, "Resources": resources}


def test_every_alive_node_gets_its_share_head_first_and_an_idle_head_says_zero():
    nodes = [ray_node("bb" * 28, "127.0.0.1", 2), ray_node("aa" * 28, "192.0.2.2", 0, head=True),
             ray_node("cc" * 28, "127.0.0.1", 2), ray_node("dd" * 28, "127.0.0.1", 2, alive=False)]
    placed = {"i02": "cc" * 28, "i00": "bb" * 28, "i01": "bb" * 28}
    shares = node_shares(nodes, placed)
    assert shares == [
        {"node": "192.0.2.2/aaaaaaaa", "head": True, "cpus": 0.0, "instances": []},
        {"node": "127.0.0.1/bbbbbbbb", "head": False, "cpus": 2.0, "instances": ["i00", "i01"]},
        {"node": "127.0.0.1/cccccccc", "head": False, "cpus": 2.0, "instances": ["i02"]},
    ]
    assert describe_nodes(shares) == \
        "instances per node: 192.0.2.2/aaaaaaaa (head) 0, 127.0.0.1/bbbbbbbb 2, 127.0.0.1/cccccccc 1"


def test_an_instance_on_a_node_that_died_meanwhile_is_still_counted():
    shares = node_shares([ray_node("aa" * 28, "10.0.0.1", 4, head=True)], {"i00": "aa" * 28, "i01": "ee" * 28})
    assert [(s["node"], s["instances"]) for s in shares] == [("10.0.0.1/aaaaaaaa", ["i00"]), ("?/eeeeeeee", ["i01"])]
