"""benchie's record bases (``benchie_cli/records.py``): a ``Record`` class is the class
``typing.NamedTuple`` builds from the same body, but for the annotations' evaluation; a
``Slotted`` class compares and shows itself by its slots, as a dataclass does."""

from __future__ import annotations

import pickle
from typing import NamedTuple, get_type_hints

import pytest

from benchie_cli.records import Record, Slotted


class Point(Record):
    """A point of a curve."""

    x: float
    label: str
    weights: tuple[int, ...] = ()
    note: str | None = None

    def doubled(self) -> float:
        return 2 * self.x

    @property
    def named(self) -> bool:
        return bool(self.label)


class TypedPoint(NamedTuple):
    """A point of a curve."""

    x: float
    label: str
    weights: tuple[int, ...] = ()
    note: str | None = None

    def doubled(self) -> float:
        return 2 * self.x

    @property
    def named(self) -> bool:
        return bool(self.label)


def test_a_record_is_the_named_tuple_of_the_same_body() -> None:
    ours, theirs = Point(1.5, "a", weights=(2,)), TypedPoint(1.5, "a", weights=(2,))
    assert ours == theirs == (1.5, "a", (2,), None)
    assert isinstance(ours, tuple)
    assert Point._fields == TypedPoint._fields == ("x", "label", "weights", "note")
    assert Point._field_defaults == TypedPoint._field_defaults == {"weights": (), "note": None}
    assert repr(ours) == repr(theirs).replace("TypedPoint", "Point")
    assert ours._replace(label="b") == (1.5, "b", (2,), None)
    assert ours._asdict() == theirs._asdict()
    assert Point._make([0.0, "", (), "n"]).note == "n"
    assert (ours.doubled(), ours.named) == (theirs.doubled(), theirs.named) == (3.0, True)
    assert Point.__doc__ == TypedPoint.__doc__ == "A point of a curve."
    assert (Point.__module__, Point.__qualname__) == (__name__, "Point")
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert hash(ours) == hash(theirs)
    assert get_type_hints(Point) == get_type_hints(TypedPoint)
    with pytest.raises(AttributeError):
        ours.x = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point(1.0)  # type: ignore[call-arg]


def test_what_a_named_tuple_refuses_a_record_refuses() -> None:
    with pytest.raises(TypeError, match="without a default follows one with a default"):

        class Late(Record):
            a: int = 0
            b: int

    with pytest.raises(AttributeError, match="cannot overwrite _make"):

        class Own(Record):
            a: int

            def _make(self) -> None: ...  # type: ignore[override]

    with pytest.raises(ValueError, match="underscore"):

        class Hidden(Record):
            _a: int

    with pytest.raises(TypeError, match="Record alone"):

        class Both(Record, Point):  # type: ignore[misc]
            a: int

    with pytest.raises(TypeError, match="base class"):
        Record("P", [("a", int)])


class Facts(Slotted):
    __slots__ = ("lines", "path")

    def __init__(self, path: str, lines: int = 0) -> None:
        self.path = path
        self.lines = lines


class MoreFacts(Facts):
    __slots__ = ("extra",)

    def __init__(self, path: str, extra: float) -> None:
        super().__init__(path)
        self.extra = extra


def test_a_slotted_subclass_has_its_bases_fields_too() -> None:
    """Its bases' fields first, as a dataclass's; a NaN field equal to itself, as in a
    dataclass's comparison of field tuples."""
    nan = float("nan")
    assert MoreFacts("f", nan) == MoreFacts("f", nan)  # (the same NaN object, as tuples are)
    assert MoreFacts("f", 1.0) != MoreFacts("g", 1.0)  # (a base's field)
    assert repr(MoreFacts("f", 1.0)) == "MoreFacts(lines=0, path='f', extra=1.0)"
    with pytest.raises(TypeError, match="names its fields in __slots__"):

        class Loose(Facts):
            pass


def test_a_record_module_without_the_future_import_is_refused() -> None:
    """Python 3.14 without ``from __future__ import annotations`` hands the class body an
    ``__annotate__`` function, not ``__annotations__``: a record would have no fields."""
    namespace = {"__module__": __name__, "__qualname__": "Lazy", "__annotate__": lambda f: {}}
    from benchie_cli.records import _RecordBase, _RecordMeta

    with pytest.raises(TypeError, match="needs `from __future__ import annotations`"):
        _RecordMeta("Lazy", (_RecordBase,), namespace)


def test_a_slotted_class_compares_and_shows_its_fields() -> None:
    a, b = Facts("f"), Facts("f")
    assert a == b
    b.lines = 3
    assert a != b
    assert a != ("f", 0)  # (another class: never equal)
    assert repr(b) == "Facts(lines=3, path='f')"
    with pytest.raises(TypeError):
        hash(a)  # (mutable)
    with pytest.raises(AttributeError):
        a.other = 1  # type: ignore[attr-defined]
