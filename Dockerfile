# Civitas server image: one app process per container; scale out behind a load balancer.
FROM python:3.11-slim
WORKDIR /srv/civitas
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 CIVITAS_HOST=0.0.0.0 CIVITAS_PORT=8000
COPY pyproject.toml ./
COPY app ./app
RUN pip install --no-cache-dir '.[postgres,redis]'
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
EXPOSE 8000
CMD ["python", "-m", "app.main"]
