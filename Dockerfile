# Civitas server image: one app process per container; scale out behind a load balancer.
# Two stages: dependencies are installed into a venv in the first, the runtime image carries only
# the venv and the code, and the server runs as an unprivileged user. The base image is a build
# argument (the official slim image by default; deploy/offline/images.env names stand-ins built
# from Debian's packages, for machines without Docker Hub). A venv works the same on both.
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
WORKDIR /build
RUN python -m venv /opt/venv
COPY pyproject.toml ./
COPY app ./app
RUN /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check '.[postgres,redis]' \
    && /opt/venv/bin/pip uninstall --yes --disable-pip-version-check pip setuptools

FROM ${PYTHON_IMAGE}
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    CIVITAS_HOST=0.0.0.0 CIVITAS_PORT=8000
WORKDIR /srv/civitas
COPY --from=build /opt/venv /opt/venv
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY app ./app
RUN useradd --system --uid 10001 --home-dir /srv/civitas --shell /usr/sbin/nologin civitas \
    && mkdir -p var && chown civitas var
USER civitas
EXPOSE 8000
# Liveness only; readiness (database and broker reachable) is /readyz, used by the compose file.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["python", "-m", "app.main"]
