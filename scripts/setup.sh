#!/usr/bin/env bash
# Idempotent set-up on a fresh machine (Debian, Python 3.11): redis-server, a .venv with FORGE and
# its exact dependency set. Re-running is a no-op until pyproject.toml or this script changes.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null
  else
    echo "setup: redis-server is missing; install it (apt-get install redis-server) for the Redis store and its tests" >&2
  fi
fi

stamp=".venv/.forge-setup-$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)"
[ -f "$stamp" ] && exit 0

python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3
"$python" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
  || { echo "setup: FORGE needs Python 3.11 (set PYTHON=...)" >&2; exit 1; }
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install --upgrade pip 2>&1 | grep -v 'is ignored' || true
# torch first, pinned: an unpinned torch pulled in by a dependency would download a multi-GB CUDA
# build. On the development machines the CPU wheel lies on local disk; elsewhere (Docker) set
# TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu to get the CPU build.
"${pip[@]}" install torch==2.13.0 ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"} 2>&1 | grep -v 'is ignored' || true
"${pip[@]}" install -e ".[dev]" 2>&1 | grep -v 'is ignored' || true
# The CAGE-2 Scenario 2 dict only: gym-csle-cyborg's declared dependencies are ~1.3 GB of unrelated
# csle-* packages, none of which the constants module needs.
"${pip[@]}" install --no-deps gym-csle-cyborg==0.10.1 2>&1 | grep -v 'is ignored' || true
.venv/bin/python -c 'import forge, csle_cyborg.main, gym_csle_cyborg.constants.constants, ray, mlflow, redis' \
  || { echo "setup: the install is incomplete (see pip's messages above)" >&2; exit 1; }
# The default rulebook encoder's derived file (MiniLM quantized to int8 and traced, ~20 s) into
# ~/.cache/forge, so that the first `forge rulebook query` does not pay for it.
.venv/bin/python -c 'from forge.rulebook.embed import prepare_encoders; raise SystemExit(prepare_encoders())' \
  || { echo "setup: cannot prepare the rulebook encoder (see above)" >&2; exit 1; }
rm -f .venv/.forge-setup-*
touch "$stamp"
