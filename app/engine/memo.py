"""Per-game memo of view parts: what lets the diff between a seat's consecutive views skip the
parts a move did not change, by identity, without a cache in any ruleset module (issue 31).

Rules may also keep what a state's moves cost to list (`derived`, `remember` and `recall`): the live
game's memo is active around its moves as well, and a search around each decision.

A ruleset's `view` builds a part through `part(key, build, *args)` (the key a hashable summary of
everything the part shows; JSON types that Python keys confuse, true and 1, must not share a
place in it) or `derived(source, build, *args)` (the part depends only on `source`,
an object of the state that moves replace rather than change), or builds it afresh and passes
it through `shared(tag, part)`, which gives each of its subtrees equal to the one at the same
place in the part last passed under `tag` that older object (never changing the part passed: it
may hold the state's own objects, which moves replace rather than change). `latest(source, tag, build, *args)`
is `derived` for a part built from the whole state: one entry, for the newest state only. While a game's `Memo` is active
(`with memo:` around its views; the live game owns one), a part asked for again is the object
built before; with no memo active every part is built afresh (tests, tools, bots). Views are
never changed after they are built: they are sent, compared and diffed.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar, Token
from typing import Any, TypeVar

T = TypeVar("T")

# Two generations of at most GENERATION parts: a full new generation pushes out the old one, and
# a part used again moves to the new one, so the parts of the views in use stay while a game's
# memo stays small: a version of 4-player Fortuna asks for about 20 distinct parts over its five
# views, of 6-player Tiny Towns at most 12, and a move changes a few of them.
GENERATION = 64

_ACTIVE: ContextVar[Memo | None] = ContextVar("civitas_view_memo", default=None)


class Memo:
    """One game's view parts, shared between its consecutive views."""

    __slots__ = ("_new", "_old", "_tokens")

    def __init__(self) -> None:
        self._new: dict[Any, Any] = {}
        self._old: dict[Any, Any] = {}
        self._tokens: list[Token[Memo | None]] = []

    def __enter__(self) -> Memo:
        self._tokens.append(_ACTIVE.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _ACTIVE.reset(self._tokens.pop())

    def __len__(self) -> int:
        return len(self._new) + len(self._old)

    def holds(self, source: Any, tag: Any) -> bool:
        """Whether an entry for the object `source` is filed under `tag`."""
        entry = self._new.get((id(source), tag)) or self._old.get((id(source), tag))
        return entry is not None and entry[0] is source

    def get(self, key: Any) -> Any:
        """The entry filed under `key`, moved to the new generation, or None."""
        entry = self._new.get(key)
        if entry is None:
            entry = self._old.get(key)
            if entry is not None:
                self.put(key, entry)
        return entry

    def drop(self, key: Any) -> None:
        """Forget the entry filed under `key`, if any."""
        self._new.pop(key, None)
        self._old.pop(key, None)

    def put(self, key: Any, entry: Any) -> None:
        """File `entry` under `key` in the new generation (turning the generations when full)."""
        if len(self._new) >= GENERATION:
            self._old, self._new = self._new, {}
        self._new[key] = entry


def part(key: Any, build: Callable[..., T], *args: Any) -> T:
    """The view part summarised by `key`, built by `build(*args)` unless the active memo holds it."""
    memo = _ACTIVE.get()
    if memo is None:
        return build(*args)
    hit: T | None = memo.get(key)
    if hit is None:
        hit = build(*args)
        memo.put(key, hit)
    return hit


def ensure() -> AbstractContextManager[Any]:
    """The active memo left as it is, or a fresh one for the duration of one call: a ruleset's
    entry points wrap themselves in it, so that what a call derives several times (a borough's
    cells, say) is derived once even where no game's memo is active (tests, tools)."""
    return nullcontext() if _ACTIVE.get() is not None else Memo()


def recall(source: Any, tag: Any) -> Any:
    """What `remember(source, tag, value)` filed for this very object in the active memo, or
    None (also with no memo active)."""
    memo = _ACTIVE.get()
    if memo is None:
        return None
    hit = memo.get((id(source), tag))
    return hit[1] if hit is not None and hit[0] is source else None


def remember(source: Any, tag: Any, value: Any) -> None:
    """File `value` under the state object `source` (which moves replace, never change) in the
    active memo, if any: a later `recall` or `derived` for the same object finds it."""
    memo = _ACTIVE.get()
    if memo is not None:
        memo.put((id(source), tag), (source, value))


def forget(source: Any, tag: Any) -> None:
    """Drop what the active memo keeps for `source` under `tag` (a private object no longer used:
    the memo would otherwise keep it alive until its generation turns)."""
    memo = _ACTIVE.get()
    if memo is not None:
        memo.drop((id(source), tag))


def derived(source: Any, tag: Any, build: Callable[..., T], *args: Any) -> T:
    """The view part `tag` that depends only on the state object `source` (which moves replace,
    never change), built by `build(*args)` unless the active memo holds one made from that same
    object. The entry keeps `source`, so its identity cannot be reused meanwhile."""
    memo = _ACTIVE.get()
    if memo is None:
        return build(*args)
    key = (id(source), tag)
    hit = memo.get(key)
    if hit is not None and hit[0] is source:
        return hit[1]  # type: ignore[no-any-return]  # entries are (source, part) pairs
    made = build(*args)
    memo.put(key, (source, made))
    return made


def latest(source: Any, tag: Any, build: Callable[..., T], *args: Any) -> T:
    """The view part `tag` built from the state object `source` (which moves replace, never
    change), reused while `source` is the object it was last built from (every viewer of one
    version) and built afresh for the next: one entry per tag, which keeps only the newest
    `source` alive (`derived` keeps one per source object until its generation turns over)."""
    memo = _ACTIVE.get()
    if memo is None:
        return build(*args)
    key = ("latest", tag)
    hit = memo.get(key)
    if hit is not None and hit[0] is source:
        return hit[1]  # type: ignore[no-any-return]  # entries are (source, part) pairs
    made = build(*args)
    memo.put(key, (source, made))
    return made


_NOTHING = object()


def shared(tag: Any, new: T) -> T:
    """`new` (a freshly built view part) with every subtree equal to the one at the same place in
    the part last passed under `tag` replaced by that older object (the whole older part when
    all is equal), so diffs between consecutive views skip them by identity; remembered for the
    next call. With no memo active, `new` as it is. Equality is Python's ==, so a place of the
    part must hold one JSON type (never true where it held 1), as a view's places do."""
    memo = _ACTIVE.get()
    if memo is None:
        return new
    key = ("shared", tag)
    old = memo.get(key)
    got: T = new if old is None else _share(old, new)
    memo.put(key, got)
    return got


def _share(old: Any, new: Any) -> Any:
    """`old` where equal to `new`, else `new` with its equal subtrees taken from `old`: a new
    container wherever one differs, so `new` itself is never changed (a part may hold a state's
    own objects, which moves replace and nothing changes)."""
    if old is new or type(old) is not type(new):
        return new
    if old == new:
        return old
    if type(new) is dict:
        out = {}
        for k, v in new.items():
            o = old.get(k, _NOTHING)
            out[k] = _share(o, v) if type(o) is type(v) and type(v) in (dict, list) else v
        return out
    if type(new) is list and len(new) == len(old):
        return [
            _share(o, v) if type(o) is type(v) and type(v) in (dict, list) else v for o, v in zip(old, new)
        ]
    return new
