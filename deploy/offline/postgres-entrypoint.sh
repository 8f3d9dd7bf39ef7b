#!/usr/bin/env bash
# Entry point of the civitas-offline/postgres stand-in. `postgres` (the default command) creates
# the cluster on first start (superuser postgres with POSTGRES_PASSWORD, database POSTGRES_DB,
# password logins from any address), then runs the server as the postgres user, listening on all
# addresses. Any other command runs as given.
set -euo pipefail
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

if [[ "${1:-}" != postgres ]]; then
    exec "$@"
fi
shift
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD for the first start}"
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --encoding=UTF8 \
        --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    db="${POSTGRES_DB:-postgres}"
    if [[ "$db" != postgres ]]; then
        # A private socket directory: pg_isready (the health check) must not see this server.
        init_socket="$(mktemp -d)"
        chown postgres "$init_socket"
        as_postgres pg_ctl -D "$PGDATA" -w start \
            -o "-c listen_addresses='' -c unix_socket_directories='$init_socket'"
        as_postgres psql -v ON_ERROR_STOP=1 -h "$init_socket" -U postgres -d postgres \
            -c "CREATE DATABASE \"${db//\"/\"\"}\""
        as_postgres pg_ctl -D "$PGDATA" -m fast -w stop
        rm -rf "$init_socket"
    fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
