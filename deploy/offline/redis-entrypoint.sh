#!/usr/bin/env bash
# Entry point of the civitas-offline/redis stand-in: `redis-server ARGS` runs as the redis user,
# listening on every address without protected mode; any other command runs as given.
set -euo pipefail
if [[ "${1:-}" == redis-server ]]; then
    shift
    exec setpriv --reuid=redis --regid=redis --init-groups \
        redis-server --bind '* -::*' --protected-mode no --dir /var/lib/redis "$@"
fi
exec "$@"
