"""Ruleset-agnostic, pure game engine: contract, randomness, diffs, registry, shared checks."""
