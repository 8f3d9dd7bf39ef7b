# Stand-in for postgres:15 built from Debian bookworm's postgresql-15. The entry point does what
# the compose file relies on: a first start creates the cluster in /var/lib/postgresql/data with
# POSTGRES_PASSWORD for the postgres user and the database POSTGRES_DB, and the server listens on
# all addresses; pg_isready is on PATH for the health check.
ARG BASE=civitas-offline/debian:bookworm
FROM ${BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql-common \
    && sed -ri 's/^#?\s*create_main_cluster\s*=.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql-15 \
    && apt-get clean && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown postgres:postgres /var/lib/postgresql/data /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
EXPOSE 5432
STOPSIGNAL SIGINT
CMD ["postgres"]
