"""One exception tree under ExecutorError, drawn in exceptions.py's docstring (as otari-sandbox's)."""

from __future__ import annotations

import pytest
from tpmjs_executor import exceptions
from tpmjs_executor.exceptions import ExecutorError


@pytest.mark.parametrize("name", exceptions.__all__)
def test_every_runtime_failure_is_an_executor_error_drawn_in_the_tree(name: str) -> None:
    cls = getattr(exceptions, name)
    assert issubclass(cls, ExecutorError)
    assert f"── {name}" in (exceptions.__doc__ or "") or name == "ExecutorError"


def test_value_errors_stay_value_errors() -> None:
    # Callers that catch ValueError around spec and JSON checks keep working.
    assert issubclass(exceptions.InvalidSpec, ValueError)
    assert issubclass(exceptions.JsonProblem, ValueError)
