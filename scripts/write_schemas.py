"""Write the published JSON Schemas (schemas/*.schema.json) from forge.rulebook.code.schema.

The schemas are built from the vocabulary the product reads (hosts, verbs, values, phases); run this after
changing it, and commit the result (tests/test_rulebook_code.py fails while they differ).

    PYTHONPATH=. .venv/bin/python scripts/write_schemas.py
"""

from __future__ import annotations

import json
from pathlib import Path

from forge.rulebook.code.schema import SCHEMAS

ROOT = Path(__file__).resolve().parent.parent


def schema_text(build) -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    for name, build in SCHEMAS.items():
        path = ROOT / "schemas" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(schema_text(build))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
