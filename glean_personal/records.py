"""Record classes, declared as dataclasses are, without importing `dataclasses`.

Every `search` command builds queries, filters, hits and results. Importing
`dataclasses` costs that command about 10 ms (it imports `inspect`, and that
`ast`, `dis` and `tokenize`), and making each class about half a millisecond
more (dataclasses writes and compiles its methods): some 15 ms of a 100 ms
budget (docs/benchmarks.md). So the types on the search path are `Record`s:

    class Term(Record, frozen=True):
        tokens: Tuple[str, ...]
        prefix: bool = False
        extra: List[str] = field(default_factory=list)

The fields are the class's annotations in order; a class attribute is a
field's default, `field(default_factory=...)` gives each record a fresh list
or dict. A record is made by position or keyword, compares equal to a record
of the same class with equal fields, shows as `Term(tokens=('a',), ...)` and
makes a changed copy with `replace(**changes)`. `frozen=True` forbids
assigning any attribute and makes the record hashable; without it a record is
unhashable, as a dataclass with the default `eq` is. Types elsewhere stay
dataclasses.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, Tuple

_MISSING = object()


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A default made anew for each record (a list or a dict of its own)."""
    return _Factory(default_factory)


class Record:
    """Fields from annotations; `__init__`, `==`, `repr` and `replace` over them."""

    _record_fields: Tuple[str, ...] = ()
    _record_defaults: Dict[str, Any] = {}
    _record_frozen = False
    _record_after: Tuple[Tuple[Tuple[str, Any], ...], ...] = ((),)
    _record_names: FrozenSet[str] = frozenset()

    def __init_subclass__(cls, frozen: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = tuple(name for name in cls.__dict__.get("__annotations__", {})
                    if name not in cls._record_fields)
        defaults = dict(cls._record_defaults)
        for name in own:
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
                if isinstance(defaults[name], _Factory):   # as dataclasses: no class attribute
                    delattr(cls, name)
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default "
                                "follows one with a default")
        cls._record_fields = cls._record_fields + own
        cls._record_defaults = defaults
        cls._record_frozen = frozen or cls._record_frozen
        # For each count of positional arguments, the fields after them with their default,
        # factory, or _MISSING (required), in order: what `__init__` fills in.
        rest = tuple((name, defaults.get(name, _MISSING)) for name in cls._record_fields)
        cls._record_after = tuple(rest[i:] for i in range(len(rest) + 1))
        cls._record_names = frozenset(cls._record_fields)
        if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
            cls.__hash__ = Record._hash if cls._record_frozen else None  # type: ignore[assignment]
        if cls._record_frozen:
            cls.__setattr__ = Record._frozen_setattr  # type: ignore[assignment]
            cls.__delattr__ = Record._frozen_delattr  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Each field is set through object.__setattr__, which keeps the instance's compact
        # attribute storage (its dict filled by `update` lost it, and reading a field then
        # cost a third more); the fields after the positional ones come from a list made
        # once per class and count of positional arguments (`_record_after`).
        cls = type(self)
        given = len(args)
        after = cls._record_after
        if given >= len(after):
            raise TypeError(f"{cls.__name__}() takes {len(after) - 1} positional arguments "
                            f"but {given} were given")
        put = object.__setattr__
        for name, value in zip(cls._record_fields, args):
            put(self, name, value)
        for name, value in kwargs.items():
            if name not in cls._record_names:
                raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {name!r}")
            if given and name in cls._record_fields[:given]:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            put(self, name, value)
        for name, value in after[given]:
            if name in kwargs:
                continue
            if value is _MISSING:
                raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
            put(self, name, value.make() if type(value) is _Factory else value)

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._record_fields)

    def replace(self, **changes: Any) -> Any:
        """A copy with the given fields changed (as `dataclasses.replace`)."""
        values = {name: getattr(self, name) for name in self._record_fields}
        values.update(changes)
        return type(self)(**values)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def _hash(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_fields)
        return f"{type(self).__qualname__}({shown})"

    def _frozen_setattr(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def _frozen_delattr(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")
