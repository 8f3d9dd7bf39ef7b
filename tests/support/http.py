"""HTTP to the test server processes (browser tests): one client with a generous timeout, since
a loaded machine answers slowly and a slow answer is no test result (httpx's default is 5 s)."""

from __future__ import annotations

import httpx

_client = httpx.Client(timeout=httpx.Timeout(120.0, connect=30.0))
get = _client.get
post = _client.post
