"""Format check for a blind case file (standalone: needs only PyYAML). Prints problems, or OK with counts."""
import json
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).parent
DIMENSIONS = {"behavioural_change", "conditional_activation", "exception_handling", "generalisation_boundary",
              "implicit_learning", "persistence", "recall", "scope_precision", "temporal_coherence"}
ROLES = {"planner", "action_chooser", "analyst"}
VIEWS = {"alerts", "table", "planner", "chooser", "analyst"}


def main(path: str) -> int:
    keys = set(json.loads((HERE / "observation_keys.json").read_text()))
    # a quiet observation has no analyst record, so an analyst view of it cannot be rendered
    quiet = {row.split("|")[1].strip() for row in (HERE / "observations-index.md").read_text().splitlines()
             if row.startswith("|") and row.split("|")[2].strip() == "quiet"}
    data = yaml.safe_load(Path(path).read_text())
    problems, ids = [], set()
    rules = queries = empty = 0
    roles_q = set()
    for s in (data or {}).get("scenarios") or []:
        where = f"scenario {s.get('id')}"
        if s.get("id") in ids:
            problems.append(f"{where}: duplicate id")
        ids.add(s.get("id"))
        if s.get("dimension") not in DIMENSIONS:
            problems.append(f"{where}: dimension {s.get('dimension')!r}")
        if s.get("backend", "sqlite") not in ("sqlite", "redis"):
            problems.append(f"{where}: backend {s.get('backend')!r}")
        labels = set()
        for step in s.get("steps") or []:
            if not isinstance(step, dict) or len(step) != 1:
                problems.append(f"{where}: a step must have exactly one key: {step!r:.80}")
                continue
            (op, body), = step.items()
            if op == "teach":
                for item in body if isinstance(body, list) else []:
                    missing = {"as", "actor", "role", "text", "ref"} - set(item)
                    if missing:
                        problems.append(f"{where}: taught item lacks {sorted(missing)}")
                    if item.get("role") not in ROLES:
                        problems.append(f"{where}: role {item.get('role')!r}")
                    if item.get("failure") and item["failure"] not in keys:
                        problems.append(f"{where}: unknown failure key {item['failure']!r}")
                    if item.get("kind", "correction") not in ("rule", "correction"):
                        problems.append(f"{where}: kind {item.get('kind')!r}")
                    if item.get("as") in labels:
                        problems.append(f"{where}: label {item.get('as')!r} taught twice")
                    labels.add(item.get("as"))
                    rules += 1
            elif op in ("withdraw", "restore"):
                if body not in labels:
                    problems.append(f"{where}: {op} of unknown label {body!r}")
            elif op == "reopen":
                pass
            elif op == "query":
                if ("obs" in body) == ("context" in body):
                    problems.append(f"{where}: a query gives exactly one of obs or context")
                if "obs" in body and body["obs"] not in keys:
                    problems.append(f"{where}: unknown observation {body['obs']!r}")
                if body.get("view", "alerts") not in VIEWS:
                    problems.append(f"{where}: view {body.get('view')!r}")
                default_view = {"planner": "planner", "action_chooser": "chooser", "analyst": "analyst"}
                if body.get("obs") in quiet and body.get("view", default_view.get(body.get("role"))) == "analyst":
                    problems.append(f"{where}: observation {body['obs']!r} is quiet: it has no analyst view "
                                    "(choose another view, or write the analyst context inline)")
                if body.get("role") not in ROLES:
                    problems.append(f"{where}: query role {body.get('role')!r}")
                for field in ("expect", "also_applies"):
                    if not isinstance(body.get(field, []), list):
                        problems.append(f"{where}: {field} must be a list")
                    bad = set(body.get(field) or []) - labels
                    if bad:
                        problems.append(f"{where}: {field} names labels not taught before: {sorted(bad)}")
                if "expect" not in body:
                    problems.append(f"{where}: a query needs expect (use [] for nothing)")
                queries += 1
                empty += not body.get("expect")
                roles_q.add(body.get("role"))
            else:
                problems.append(f"{where}: unknown step {op!r}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"OK: {len(ids)} scenarios, {rules} taught rules, {queries} queries ({empty} expect nothing), "
          f"query roles {sorted(roles_q)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
