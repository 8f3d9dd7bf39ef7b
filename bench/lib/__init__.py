"""Shared pieces of the benchmarks: servers, clients, percentiles, the bench game, machine facts."""
