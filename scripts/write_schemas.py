"""Write the published JSON Schemas (schemas/*.schema.json) from forge.rulebook.code.schema.

The schemas are built from the vocabulary the product reads (hosts, verbs, values, phases); run this after
changing it, and commit the result (tests/test_rulebook_code.py fails while they differ).

    PYTHONPATH=. .venv/bin/python scripts/write_schemas.py [--out DIR]   # default: schemas/
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from forge.rulebook.code.schema import SCHEMAS

ROOT = Path(__file__).resolve().parent.parent


def schema_text(build) -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "schemas", help="directory to write them to (default: schemas/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, build in SCHEMAS.items():
        path = args.out / name
        path.write_text(schema_text(build))
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
