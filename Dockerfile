# Civitas server image: one app process per container; scale out behind a load balancer.
# Two stages: dependencies are built in the first, the runtime image carries only what runs,
# and the server runs as an unprivileged user.
FROM python:3.11-slim AS build
WORKDIR /build
COPY pyproject.toml ./
COPY app ./app
RUN pip install --no-cache-dir --prefix=/install '.[postgres,redis]'

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 CIVITAS_HOST=0.0.0.0 CIVITAS_PORT=8000
WORKDIR /srv/civitas
COPY --from=build /install /usr/local
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
