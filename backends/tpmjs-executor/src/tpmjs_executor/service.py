"""The protocol's operations, served by the runtime (subclass of the generated ServiceBase)."""

from __future__ import annotations

import datetime
import sys
from typing import Any

from fastapi.responses import JSONResponse

from . import PROTOCOL_VERSION, __version__
from .api import errors, models
from .api.server import ServiceBase
from .executor import ExecutionRequest, ExecutionResult, Executor, ExecutorBusy, RequestError

__all__ = ["ExecutorService"]


def _error(code: models.ErrorResponseErrorCode, message: str) -> models.ErrorResponse:
    return models.ErrorResponse(
        success=False, error=models.ErrorResponseError(code=code, message=message)
    )


class ExecutorService(ServiceBase):
    """Health, info and execute-tool over an Executor; OPTIONS answer empty (CORS is added
    to every response by the middleware)."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.settings = executor.settings

    async def get_health(self) -> models.HealthResponse:
        """Always immediate: nothing here waits for installs or runs."""
        return models.HealthResponse(
            status="ok",
            protocolVersion=PROTOCOL_VERSION,
            implementationVersion=__version__,
            runtime=models.HealthResponseRuntime.NODE,
            timestamp=datetime.datetime.now(datetime.UTC),
        )

    async def options_health(self) -> None:
        """CORS preflight."""
        return None

    async def options_execute_tool(self) -> None:
        """CORS preflight."""
        return None

    async def options_info(self) -> None:
        """CORS preflight."""
        return None

    async def get_info(self, *, x_tpmjs_protocol_version: str | None = None) -> models.InfoResponse:
        """Capabilities, with the limits this executor enforces."""
        runtime: dict[str, Any] = {}
        if sys.platform in ("linux", "darwin", "win32"):
            runtime["platform"] = models.RuntimeInfoPlatform(sys.platform)
        if self.executor.node_version:
            runtime["nodeVersion"] = self.executor.node_version
        if self.settings.region:
            runtime["region"] = self.settings.region
        return models.InfoResponse(
            name=self.settings.name,
            version=__version__,
            protocolVersion=PROTOCOL_VERSION,
            capabilities=models.ExecutorCapabilities(
                isolation=models.ExecutorCapabilitiesIsolation(self.executor.isolation),
                executionModes=[models.ExecutorCapabilitiesExecutionModesItem.SYNC],
                maxExecutionTimeMs=round(self.settings.execution_timeout_s * 1000),
                maxRequestBodyBytes=self.settings.max_body_bytes,
                supportsStreaming=False,
                supportsCallbacks=False,
                supportsCaching=True,
            ),
            runtime=models.RuntimeInfo(**runtime),
        )

    async def execute_tool(
        self,
        body: models.ExecuteToolRequest,
        *,
        x_tpmjs_protocol_version: str | None = None,
    ) -> Any:
        """Run the tool; every outcome of the tool is a 200 answer."""
        request = ExecutionRequest(
            package_name=body.packageName,
            name=body.name,
            version=body.version,
            params=body.params,
            env=body.env,
        )
        try:
            result = await self.executor.execute(request)
        except RequestError as exc:
            code = models.ErrorResponseErrorCode.INVALID_REQUEST
            raise errors.ExecuteToolBadRequest(_error(code, str(exc))) from None
        except ExecutorBusy as exc:
            code = models.ErrorResponseErrorCode.INTERNAL_ERROR
            raise errors.ExecuteToolInternalServerError(
                _error(code, str(exc)), headers={"Retry-After": "1"}
            ) from None
        return self.render(result)

    def render(self, result: ExecutionResult) -> Any:
        """The answer for a result: the contract's shapes (plus `logs` when there are any),
        or the legacy shape with `error` as a string when configured."""
        extra: dict[str, Any] = {"logs": list(result.logs)} if result.logs else {}
        if result.success:
            return models.ExecuteToolSuccessResponse(
                success=True,
                output=result.output,
                executionTimeMs=result.execution_time_ms,
                **extra,
            )
        code = models.ExecutionErrorCode(result.error_code or "INTERNAL_ERROR")
        message = result.error_message or code.value
        if self.settings.legacy_errors:
            return JSONResponse(
                {
                    "success": False,
                    "error": message,
                    "errorCode": code.value,
                    "executionTimeMs": result.execution_time_ms,
                    **extra,
                }
            )
        return models.ExecuteToolErrorResponse(
            success=False,
            error=models.ExecutionError(code=code, message=message),
            executionTimeMs=result.execution_time_ms,
            **extra,
        )
