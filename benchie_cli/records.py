"""The base of benchie's immutable records: ``class X(Record)`` is ``class X(NamedTuple)``.

To type checkers ``Record`` *is* :class:`typing.NamedTuple`. At run time it builds the same
class, a :func:`collections.namedtuple` with the class body's methods, defaults and
docstring, without what ``typing.NamedTuple`` adds on top: it checks every field's
annotation, and under ``from __future__ import annotations`` (every module here) each is a
string that it compiles into a ``ForwardRef``. That was a third of the time benchie's own
modules take to load (about 40 records load for a scoring run, 200 fields: 5-10 ms of a
0.2 s command, docs/performance.md). The annotations stay on the class as written
(``typing.get_type_hints`` reads them), and everything a ``NamedTuple`` class refuses is
refused here too. Only the class syntax, and no ``Generic`` base: type checkers would
accept ``Record("X", [...])`` and ``class X(Record, Generic[T])``, which are refused when
the module loads (``typing.NamedTuple`` itself serves those).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

#: ``collections.namedtuple``, called with names known only at run time.
_build: Callable[..., Any] = namedtuple

__all__ = ["Record", "Slotted"]

#: What a record's class body may not define: the namedtuple's own (as typing refuses them).
_PROHIBITED = frozenset(
    {
        "__new__",
        "__init__",
        "__slots__",
        "__getnewargs__",
        "_fields",
        "_field_defaults",
        "_make",
        "_replace",
        "_asdict",
        "_source",
    }
)
#: What the class body holds that the namedtuple sets itself.
_SPECIAL = frozenset({"__module__", "__qualname__", "__name__", "__annotations__"})


class _RecordMeta(type):
    """Builds each ``class X(Record)`` as :class:`typing.NamedTupleMeta` does, but for the
    annotations' check."""

    def __new__(mcs, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if bases != (_RecordBase,):
            raise TypeError(f"{typename}: a record inherits from Record alone")
        if "__annotations__" not in ns and "__annotate__" in ns:
            # (Python 3.14 without the future import: annotations evaluated lazily, which
            # would leave the record without fields)
            raise TypeError(
                f"{typename}: a record's module needs `from __future__ import annotations`"
            )
        annotations: dict[str, Any] = ns.get("__annotations__", {})
        defaults = []
        for field in annotations:
            if field in ns:
                defaults.append(field)
            elif defaults:
                raise TypeError(
                    f"{typename}: field {field} without a default follows one with a default"
                )
        cls = _build(
            typename,
            tuple(annotations),
            defaults=[ns[f] for f in defaults],
            module=ns["__module__"],
        )
        cls.__annotations__ = annotations
        cls.__qualname__ = ns.get("__qualname__", typename)
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError(f"{typename}: a record cannot overwrite {key}")
            if key not in _SPECIAL and key not in cls._fields:
                setattr(cls, key, value)
                set_name = getattr(type(value), "__set_name__", None)
                if set_name is not None:  # (a descriptor told its name, as a class tells it)
                    set_name(value, cls, key)
        return cls


_RecordBase = type.__new__(_RecordMeta, "Record", (), {})


def _record(typename: str, *args: Any, **kwargs: Any) -> Any:
    """Only a base class: the functional form is typing.NamedTuple's."""
    raise TypeError("Record is a base class: class X(Record) with annotated fields")


_record.__mro_entries__ = lambda bases: (_RecordBase,)  # type: ignore[attr-defined]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    Record = _record


class Slotted:
    """A mutable record: a plain class whose ``__slots__`` (its own and its bases') name its
    fields, compared and shown by them as a dataclass is (equal when the field values are,
    in the order of the slots). For the mutable records of every scoring run, whose
    dataclass methods would be compiled from generated source at each start (about 0.7 ms a
    class). A subclass names its own fields in ``__slots__``; one without (which would have
    a ``__dict__``) is refused."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__slots__" not in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a Slotted class names its fields in __slots__")
        names: list[str] = []
        for klass in reversed(cls.__mro__):  # (the bases' fields first, as a dataclass's)
            names += klass.__dict__.get("__slots__", ())
        cls._fields = tuple(names)

    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # (mutable: unhashable, as a dataclass is)
