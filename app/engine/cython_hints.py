"""What the compiled modules (app.engine.rng; Suburbia's effects, geo, legal, market and dale)
use of Cython's pure-Python-mode names, for running without Cython installed (the Docker runtime,
a machine without the build tool): the hints do nothing. Each of those modules imports `cython`
itself (the compiler reads the hints only from a module's own `import cython`)."""

from __future__ import annotations

from typing import Any, Callable

compiled = False
ulonglong = int
Py_ssize_t = int
bint = bool


def declare(kind: Any, value: Any = None, **options: Any) -> Any:
    """A typed variable (or extension-type field) when compiled; here just its value."""
    return value


def locals(**kinds: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:  # noqa: A001
    """Typed local variables when compiled; here the function unchanged."""
    return lambda function: function


def cfunc(function: Callable[..., Any]) -> Callable[..., Any]:
    """A C function (not callable from Python) when compiled; here the function unchanged."""
    return function


def inline(function: Callable[..., Any]) -> Callable[..., Any]:
    """Inlined by the C compiler when compiled; here the function unchanged."""
    return function


def returns(kind: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A typed return value when compiled; here the function unchanged."""
    return lambda function: function


def cclass(cls: Any) -> Any:
    """An extension type when compiled; here the class unchanged."""
    return cls


def final(obj: Any) -> Any:
    """A class that cannot be subclassed when compiled; here unchanged."""
    return obj


def ccall(function: Any) -> Any:
    """A method also callable from C when compiled; here unchanged."""
    return function
