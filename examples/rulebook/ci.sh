#!/usr/bin/env bash
# What CI runs on a pull request that changes rules/ or tests/ (docs/rulebook-as-code.md, "In CI").
# RULEBOOK: the production rulebook (a .db file or a redis:// URL); without it, only lint and the tests run.
set -euo pipefail
cd "$(dirname "$0")"
forge rulebook lint rules/*.yaml
forge rulebook test tests/*.yaml --rules rules/*.yaml --no-book --junit reports/rule-tests.xml
if [[ -n "${RULEBOOK:-}" ]]; then
  forge rulebook plan rules/*.yaml --rulebook "$RULEBOOK" --out reports/plan.json
fi
