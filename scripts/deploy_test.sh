#!/usr/bin/env bash
# make deploy-test: the compose stack for real, on this machine (docs/SCALING.md, "Deployment
# shape"). Installs what it needs where it may (Debian's docker.io, docker-compose and
# debootstrap, as root), starts a Docker engine if none answers (and stops it again at the end),
# builds the stand-in base images once (deploy/offline/build-images.sh; kept, so later runs skip
# it), then runs scripts/compose_smoke.py --offline and scripts/deploy_test.py --offline, each of
# which brings its own stack up and takes it down. Not part of `make test`: about 10 minutes here
# once the images exist (a first run adds about 30: the packages, the stand-in images, and the
# app image compiling its rules). DEPLOY_TEST_ARGS passes options to scripts/deploy_test.py
# (e.g. "--games 20 --duration 10"). The figures land in $STATE/figures.json and the replicas'
# and nginx's logs after each step in $STATE/logs/ (STATE: /tmp/civitas-deploy-test).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
STATE="${DEPLOY_TEST_STATE:-/tmp/civitas-deploy-test}"
mkdir -p "$STATE"

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing ${need[*]} (Debian's packages)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null
  else
    echo "deploy-test needs ${need[*]}: apt-get install ${need[*]} as root" >&2
    exit 1
  fi
fi

# A Docker engine: the one running, or one started here (no service manager on this machine).
# Its storage driver is overlay2 and its bridge networks use iptables (both work here as root).
started_dockerd=""
if ! docker info >/dev/null 2>&1; then
  echo "== starting dockerd (log: $STATE/dockerd.log)"
  dockerd >"$STATE/dockerd.log" 2>&1 &
  started_dockerd=$!
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start: $STATE/dockerd.log" >&2; exit 1; }
fi
stop_dockerd() {
  if [ -n "$started_dockerd" ] && [ -z "${DEPLOY_TEST_KEEP_DOCKERD:-}" ]; then
    echo "== stopping the dockerd started here"
    kill "$started_dockerd" 2>/dev/null || true
    wait "$started_dockerd" 2>/dev/null || true
  fi
}
trap stop_dockerd EXIT

# The stand-in base images, once. Where outgoing HTTPS passes a proxy with its own certificate
# authority, the CA certificates this machine added locally go into the Python stand-in (pip in
# the app build needs them); EXTRA_CA_CERTS overrides the choice.
missing=0
for image in $(grep -E '^(PYTHON|POSTGRES|REDIS|NGINX)_IMAGE=' deploy/offline/images.env | cut -d= -f2); do
  docker image inspect "$image" >/dev/null 2>&1 || missing=1
done
if [ "$missing" = 1 ]; then
  if [ -z "${EXTRA_CA_CERTS+set}" ]; then
    EXTRA_CA_CERTS="$(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null | sort | paste -sd: -)"
    export EXTRA_CA_CERTS
  fi
  echo "== building the stand-in base images (deploy/offline/build-images.sh)"
  bash deploy/offline/build-images.sh
fi

# When and under what load (the figures depend on it: docs/SCALING.md quotes both).
stamp() { echo "== $1 $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
stamp "started"
status=0
echo "== scripts/compose_smoke.py --offline"
"$PY" scripts/compose_smoke.py --offline --port "${DEPLOY_TEST_SMOKE_PORT:-18600}" || status=1
echo "== scripts/deploy_test.py --offline"
# shellcheck disable=SC2086 - DEPLOY_TEST_ARGS is a list of options
"$PY" scripts/deploy_test.py --offline --port "${DEPLOY_TEST_PORT:-18601}" \
  --figures "$STATE/figures.json" --logs "$STATE/logs" ${DEPLOY_TEST_ARGS:-} || status=1
stamp "ended"
exit "$status"
