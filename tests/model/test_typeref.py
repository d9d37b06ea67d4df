"""TypeRef's copying helpers keep every field they do not mean to change."""

from __future__ import annotations

import dataclasses

from contractgen.model.typeref import TypeRef

FULL = TypeRef(kind="union", name="n", args=(TypeRef("builtin", "int"),), literals=(1,),
               constraints=(("ge", "1"),), discriminator="kind", nullable=True,
               excluded=(("string",), ("x",)), checks=("unique_items",))


def _others(ref: TypeRef, changed: set[str]) -> dict[str, object]:
    return {f.name: getattr(ref, f.name) for f in dataclasses.fields(TypeRef)
            if f.name not in changed}


def test_with_nullable_changes_only_nullable() -> None:
    off = FULL.with_nullable(False)
    assert off.nullable is False
    assert _others(off, {"nullable"}) == _others(FULL, {"nullable"})
    assert FULL.with_nullable(True) is FULL  # nothing to change: the value itself
    assert off == dataclasses.replace(FULL, nullable=False)


def test_bare_drops_constraints_nullability_and_exclusions_only() -> None:
    bare = FULL.bare()
    assert (bare.constraints, bare.nullable, bare.excluded) == ((), False, None)
    dropped = {"constraints", "nullable", "excluded"}
    assert _others(bare, dropped) == _others(FULL, dropped)
    assert bare.bare() is bare
    assert bare == dataclasses.replace(FULL, constraints=(), nullable=False, excluded=None)
