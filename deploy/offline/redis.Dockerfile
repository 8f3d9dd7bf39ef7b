# Stand-in for redis:7 built from Debian bookworm's redis-server (7.0). Like the official image
# it runs as the redis user with protected mode off (the compose network is private).
ARG BASE=civitas-offline/debian:bookworm
FROM ${BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY redis-entrypoint.sh /usr/local/bin/redis-entrypoint.sh
ENTRYPOINT ["/usr/local/bin/redis-entrypoint.sh"]
EXPOSE 6379
CMD ["redis-server"]
