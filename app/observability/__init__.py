"""Metrics in Prometheus text format and structured (JSON) logs, with no extra dependencies."""
