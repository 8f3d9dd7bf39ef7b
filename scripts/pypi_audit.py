"""Fallback dependency audit from PyPI's project JSON, for when pip-audit cannot reach its service.

`https://pypi.org/pypi/<name>/json` carries a `vulnerabilities` list that applies to the project's
*latest* release only. So a distribution is audited only when its installed version is that latest
release (any listed vulnerability fails the run); every other one is named, on one loud line, as
NOT AUDITED, never counted as clean. Exit codes: 0 nothing known-vulnerable among those audited,
1 a known vulnerability, 0 with "NOT AUDITED" when nothing could be checked (no network).
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

URL = "https://pypi.org/pypi/{name}/json"
PER_REQUEST_SECONDS = 10
TOTAL_SECONDS = 120


@dataclass(frozen=True)
class Verdict:
    """What the audit concluded for one installed distribution."""

    name: str
    installed: str
    kind: str  # "clean" | "vulnerable" | "not_audited"
    why: str = ""
    ids: tuple[str, ...] = ()


def _same(a: str, b: str) -> bool:
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def judge(name: str, installed: str, project: dict[str, Any] | None, problem: str = "") -> Verdict:
    """The verdict for one distribution from its project JSON (None: it could not be fetched,
    `problem` says why). Only an installed version equal to the latest release is audited."""
    if project is None:
        return Verdict(name, installed, "not_audited", problem or "no project data")
    latest = str((project.get("info") or {}).get("version") or "")
    if not latest or not _same(installed, latest):
        return Verdict(name, installed, "not_audited", f"latest is {latest or 'unknown'}")
    found = project.get("vulnerabilities")
    if not isinstance(found, list):
        return Verdict(name, installed, "not_audited", "no vulnerability data")
    live = [v for v in found if isinstance(v, dict) and not v.get("withdrawn")]
    if live:
        ids = tuple(str(v.get("id") or (v.get("aliases") or ["?"])[0]) for v in live)
        return Verdict(name, installed, "vulnerable", "", ids)
    return Verdict(name, installed, "clean")


def report(verdicts: list[Verdict]) -> tuple[int, list[str]]:
    """(exit code, lines to print) for a set of verdicts."""
    bad = [v for v in verdicts if v.kind == "vulnerable"]
    clean = [v for v in verdicts if v.kind == "clean"]
    unchecked = sorted((v for v in verdicts if v.kind == "not_audited"), key=lambda v: v.name)
    lines = [f"pypi-json audit: VULNERABLE {v.name} {v.installed}: {', '.join(v.ids)}" for v in bad]
    if verdicts and not clean and not bad:
        lines.append(
            f"pypi-json audit: NOT AUDITED: none of the {len(verdicts)} installed packages "
            f"could be audited ({unchecked[0].why if unchecked else 'no data'})."
        )
        return 0, lines
    if unchecked:
        lines.append(
            f"pypi-json audit: NOT AUDITED ({len(unchecked)} of {len(verdicts)}, not the "
            "latest release or no data): " + ", ".join(f"{v.name} {v.installed} ({v.why})" for v in unchecked)
        )
    lines.append(
        f"pypi-json audit: {len(clean) + len(bad)} of {len(verdicts)} packages checked "
        f"(installed = latest release); {len(bad)} with a known vulnerability."
    )
    return (1 if bad else 0), lines


def fetch(name: str) -> tuple[dict[str, Any] | None, str]:
    """A project's JSON, or (None, why)."""
    try:
        with urllib.request.urlopen(URL.format(name=name), timeout=PER_REQUEST_SECONDS) as answer:
            return json.load(answer), ""
    except urllib.error.HTTPError as exc:
        return None, "not on PyPI" if exc.code == 404 else f"HTTP {exc.code}"
    except (OSError, ValueError) as exc:
        return None, f"unreachable: {type(exc).__name__}"


def installed() -> tuple[dict[str, str], list[Verdict]]:
    """Installed distributions of this interpreter (canonical name -> version), and verdicts for
    those installed from a local directory (this project): a PyPI project of the same name is
    someone else's, so they cannot be audited this way."""
    found: dict[str, str] = {}
    local: list[Verdict] = []
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if not name or canonicalize_name(name) in found:
            continue
        origin = json.loads(dist.read_text("direct_url.json") or "{}")
        if "dir_info" in origin:
            local.append(
                Verdict(
                    canonicalize_name(name), dist.version, "not_audited", "installed from a local directory"
                )
            )
        else:
            found[canonicalize_name(name)] = dist.version
    return found, local


def main() -> int:
    """Audit every installed distribution; print the report; return its exit code."""
    packages, verdicts = installed()
    deadline = time.monotonic() + TOTAL_SECONDS
    pool = ThreadPoolExecutor(8)
    futures = {pool.submit(fetch, name): name for name in packages}
    try:
        for future in as_completed(futures, timeout=max(1.0, deadline - time.monotonic())):
            name = futures[future]
            project, problem = future.result()
            verdicts.append(judge(name, packages[name], project, problem))
    except TimeoutError:  # never hang the test run: what did not answer is named, unaudited
        pass
    pool.shutdown(wait=False, cancel_futures=True)
    done = {v.name for v in verdicts}
    verdicts += [Verdict(n, v, "not_audited", "timed out") for n, v in packages.items() if n not in done]
    code, lines = report(verdicts)
    print("\n".join(lines), file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
