"""The dependency audit's fallback (scripts/pypi_audit.py) decides from canned PyPI project JSON,
with no network: only a package installed at its latest release is audited, any listed (not
withdrawn) vulnerability fails, and nothing unchecked is ever reported as clean."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "pypi_audit", Path(__file__).resolve().parents[2] / "scripts" / "pypi_audit.py"
)
audit = importlib.util.module_from_spec(_spec)
sys.modules["pypi_audit"] = audit  # dataclasses look their module up there
_spec.loader.exec_module(audit)


def project(latest, vulnerabilities=()):
    return {"info": {"version": latest}, "vulnerabilities": list(vulnerabilities)}


VULN = {"id": "PYSEC-2099-1", "aliases": ["CVE-2099-1"], "fixed_in": ["2.1"], "withdrawn": None}


def test_the_latest_release_without_vulnerabilities_is_clean():
    assert audit.judge("lib", "2.0", project("2.0")).kind == "clean"
    assert audit.judge("lib", "2.0.0", project("2.0")).kind == "clean"  # same version, spelled otherwise


def test_the_latest_release_with_a_vulnerability_fails_the_run():
    verdict = audit.judge("lib", "2.0", project("2.0", [VULN]))
    assert verdict.kind == "vulnerable" and verdict.ids == ("PYSEC-2099-1",)
    code, lines = audit.report([verdict, audit.judge("ok", "1", project("1"))])
    assert code == 1 and any("VULNERABLE lib 2.0: PYSEC-2099-1" in line for line in lines)


def test_a_withdrawn_advisory_does_not_count():
    withdrawn = dict(VULN, withdrawn="2099-01-02T00:00:00Z")
    assert audit.judge("lib", "2.0", project("2.0", [withdrawn])).kind == "clean"


@pytest.mark.parametrize(
    "installed, data, problem",
    [
        ("1.9", project("2.0"), ""),  # older than latest: the list is not ours
        ("1.9", project("2.0", [VULN]), ""),
        ("2.0", {"info": {"version": "2.0"}}, ""),  # no vulnerability data at all
        ("2.0", None, "unreachable: URLError"),  # no answer
        ("2.0", None, "not on PyPI"),
    ],
)
def test_what_cannot_be_checked_is_not_audited(installed, data, problem):
    assert audit.judge("lib", installed, data, problem).kind == "not_audited"


def test_the_report_names_the_unaudited_on_one_loud_line_and_never_calls_them_clean():
    verdicts = [
        audit.judge("fresh", "3.0", project("3.0")),
        audit.judge("old", "1.0", project("1.1", [VULN])),
        audit.judge("gone", "0.1", None, "not on PyPI"),
    ]
    code, lines = audit.report(verdicts)
    assert code == 0
    loud = [line for line in lines if "NOT AUDITED" in line]
    assert len(loud) == 1 and "old 1.0" in loud[0] and "gone 0.1" in loud[0]
    assert "fresh" not in loud[0]
    assert not any("no known vulnerabilities" in line.lower() for line in lines)
    assert any("1 of 3 packages checked" in line for line in lines)


def test_without_any_network_it_says_not_audited_and_does_not_fail():
    verdicts = [audit.judge(n, "1.0", None, "unreachable: URLError") for n in ("a", "b")]
    code, lines = audit.report(verdicts)
    assert code == 0 and lines and all("NOT AUDITED" in line for line in lines)
    assert not any("checked" in line for line in lines)
