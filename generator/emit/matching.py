"""The order the server registers its routes in: concrete paths before the templated ones that
would take their requests.

Starlette tries routes in the order they were added and takes the first whose path and method
match, so `GET /numbers/{sid}.json` added before `GET /numbers/Local.json` answers every request
for the second (with `sid="Local"`, usually a 422). OpenAPI says the opposite: "concrete
(non-templated) paths would be matched before their templated counterparts". Routes keep the
contract's order, except that a route waits until every route of the same method that could
match one of its URLs and is more concrete has been added: segment by segment from the left, a
literal segment is more concrete than a templated one, and of two templated segments the one
with more literal text (`{sid}.json` over `{sid}`). A contract with no such pair keeps its order.
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict
from collections.abc import Sequence

from ..model.ir import Operation
from ..model.paths import answered_by, bare

_PARAM = re.compile(r"\{[^{}/]*\}")


def routed(operations: Sequence[Operation]) -> list[Operation]:
    """The operations the server adds a route for, in the order it adds them: all but those
    another operation answers (`model.paths.answered_by`), concrete paths first."""
    unreachable = answered_by(operations)
    return in_match_order([op for op in operations if op.id not in unreachable])


def in_match_order(operations: Sequence[Operation]) -> list[Operation]:
    """`operations` in the order their routes must be added (see the module's docstring)."""
    shapes = [_Shape(op.path) for op in operations]
    groups: defaultdict[tuple[str, int], list[int]] = defaultdict(list)
    for index, (op, shape) in enumerate(zip(operations, shapes, strict=True)):
        groups[op.http_method.upper(), len(shape.segments)].append(index)
    # after[i]: the routes that must wait for route i; waiting[j]: how many route j waits for.
    after: defaultdict[int, list[int]] = defaultdict(list)
    waiting = [0] * len(operations)
    for members in groups.values():
        for position, i in enumerate(members):
            for j in members[position + 1:]:
                if shapes[i].key == shapes[j].key or not shapes[i].overlaps(shapes[j]):
                    continue
                first, then = (i, j) if shapes[i].key < shapes[j].key else (j, i)
                after[first].append(then)
                waiting[then] += 1
    if not after:
        return list(operations)
    # Kahn's algorithm, always taking the earliest route of the contract that is free to go.
    ready = [index for index, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    order: list[Operation] = []
    while ready:
        index = heapq.heappop(ready)
        order.append(operations[index])
        for then in after[index]:
            waiting[then] -= 1
            if waiting[then] == 0:
                heapq.heappush(ready, then)
    return order


class _Shape:
    """A path's segments, how concrete each is, and what each matches."""

    def __init__(self, path: str) -> None:
        # A request never carries a `#fragment` (Box lists variants of a path as `/x#variant`).
        self.segments = bare(path).strip("/").split("/")
        # Literal segment (0, 0); templated (1, -its literal characters): smaller is more concrete.
        self.key = tuple(
            (1, -len(_PARAM.sub("", segment))) if _PARAM.search(segment) else (0, 0)
            for segment in self.segments
        )
        self._patterns = [
            re.compile("[^/]+".join(re.escape(part) for part in _PARAM.split(segment)))
            for segment in self.segments
        ]
        # A URL segment the template matches: each parameter read as "x".
        self._sample = [_PARAM.sub("x", segment) for segment in self.segments]

    def overlaps(self, other: _Shape) -> bool:
        """Whether some URL matches both paths (of the same length), segment by segment: a
        segment matches the other's literal text, or one's sample value matches the other."""
        return all(
            mine.fullmatch(theirs_sample) is not None
            or theirs.fullmatch(my_sample) is not None
            for mine, theirs, my_sample, theirs_sample in zip(
                self._patterns, other._patterns, self._sample, other._sample, strict=True)
        )
