# Stand-in for python:3.11-slim built from Debian bookworm's packages (its python3 is 3.11):
# `python` on PATH and venv support, which is all the Civitas Dockerfile needs. extra-ca/ holds
# the CA certificates build-images.sh was given in EXTRA_CA_CERTS (usually none).
ARG BASE=civitas-offline/debian:bookworm
FROM ${BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y python3 python3-venv python-is-python3 ca-certificates \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY extra-ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates
CMD ["python"]
