# Civitas server image: one app process per container; scale out behind a load balancer.
# Two stages: dependencies are installed into a venv and the rules compiled (Cython, a C compiler)
# in the first; the runtime image carries only the venv, the code and the compiled rules, and the
# server runs as an unprivileged user. The base image is a build argument (the official slim image
# by default; deploy/offline/images.env names stand-ins built from Debian's packages, for machines
# without Docker Hub). A venv works the same on both.
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
WORKDIR /build
RUN python -m venv /opt/venv
# The compiler and Python's headers (Debian's python3-dev only where the image has none: the
# official image carries its own) live in this stage only.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc libc6-dev \
    && if [ ! -f "$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; \
       then DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-dev; fi \
    && rm -rf /var/lib/apt/lists/*
# The dependencies alone (pyproject.toml's, with the postgres and redis extras), in a layer of
# their own: a change to the code installs nothing again. The code itself runs from the work
# directory of the runtime stage, not from the venv.
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
extra = p['optional-dependencies']; \
print('\n'.join(p['dependencies'] + extra['postgres'] + extra['redis']))" > requirements.txt \
    && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check -r requirements.txt 'cython>=3.0'
# Only what the compiled rules are built from (the engine and the rulesets): a change elsewhere in
# app/ compiles nothing again, and the compile step (minutes) stays cached.
COPY app/__init__.py ./app/
COPY app/engine ./app/engine
COPY app/rulesets ./app/rulesets
COPY scripts/compile_rules.py ./scripts/
RUN /opt/venv/bin/python scripts/compile_rules.py \
    && /opt/venv/bin/pip uninstall --yes --disable-pip-version-check cython pip setuptools

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
COPY --from=build /build/.compiled ./.compiled
RUN useradd --system --uid 10001 --home-dir /srv/civitas --shell /usr/sbin/nologin civitas \
    && mkdir -p var && chown civitas var
USER civitas
EXPOSE 8000
# Liveness only; readiness (database and broker reachable) is /readyz, used by the compose file.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["python", "-m", "app.main"]
