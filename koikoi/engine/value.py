"""Immutable records for the compiled core: equal, hashed, shown and pickled by their fields.

A frozen dataclass or a named tuple made in a compiled module still runs an interpreted
``__init__`` or ``__new__`` (made at run time by :mod:`dataclasses` or
:mod:`collections`), a large part of a compiled round for the records every round makes (its
deal, its result). A subclass of :class:`Value` sets ``Final`` attributes in a plain
``__init__`` instead: compiled, they are read-only, and from source mypy holds every
assignment to them. :class:`Value` gives it a dataclass's equality (with its own class
only), hashing, ``repr`` and pickling, from the fields :meth:`Value.names` names.
"""

from __future__ import annotations

from typing import Any


class Value:
    __slots__ = ()

    def names(self) -> tuple[str, ...]:
        """The fields' names, in order."""
        raise NotImplementedError

    def fields(self) -> tuple[Any, ...]:
        """The fields' values, in :meth:`names`'s order."""
        return tuple(getattr(self, name) for name in self.names())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Value)
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        named = ", ".join(f"{n}={v!r}" for n, v in zip(self.names(), self.fields(), strict=True))
        return f"{type(self).__name__}({named})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self.fields())
