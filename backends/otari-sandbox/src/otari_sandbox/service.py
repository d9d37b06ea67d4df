"""The contract's six operations, served by the runtime (generation gap: the generated
``ServiceBase`` is subclassed here and never edited)."""

from __future__ import annotations

import asyncio
import os
import posixpath
import uuid
from collections.abc import AsyncIterator

from starlette.responses import Response, StreamingResponse

from . import files as _files
from .api import errors, models
from .api.server import Binary, PutFileForm, ServiceBase
from .exceptions import (
    AtCapacity,
    FileMissing,
    InvalidPath,
    InvalidRequest,
    NotAFile,
    PathOutside,
    SandboxUnavailable,
    SessionNotFound,
    TooLarge,
    UnknownTool,
)
from .sessions import Session, SessionManager
from .tools import ExecOutcome

# Files up to this size are read in one go; larger ones are streamed.
_INLINE_BYTES = 1 << 20


def _error(detail: str) -> models.Error:
    return models.Error(detail=detail)


class SandboxService(ServiceBase):
    """Maps the contract onto a SessionManager."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager

    async def create_session(
        self, body: models.CreateSessionRequest | None = None
    ) -> models.SessionHandle:
        """Lease a warm sandbox (``image`` is a hint this backend ignores)."""
        hints = body or models.CreateSessionRequest()
        try:
            session = await self.manager.create(hints.idle_timeout_seconds, hints.max_lifetime_seconds)
        except (AtCapacity, SandboxUnavailable) as exc:
            raise errors.CreateSessionServiceUnavailable(
                _error(str(exc)), headers={"Retry-After": "1"}
            ) from exc
        return _handle(session)

    async def destroy_session(self, session_id: str) -> None:
        """Release a session; an unknown id is already in the desired state (204)."""
        await self.manager.destroy(session_id)

    async def execute(self, session_id: str, body: models.ExecRequest) -> models.ExecResponse:
        """Run one tool call; a failing program is still a 200."""
        tool_use_id = body.tool_use_id or f"srvtoolu_{uuid.uuid4().hex[:24]}"
        payload = body.input.model_dump(mode="json", by_alias=True)
        try:
            outcome = await self.manager.execute(session_id, body.tool, payload, body.timeout_seconds)
        except SessionNotFound as exc:
            raise errors.ExecuteNotFound(_error(str(exc))) from exc
        except UnknownTool as exc:
            raise errors.ExecuteBadRequest(_error(str(exc))) from exc
        except InvalidRequest as exc:
            raise errors.ExecuteUnprocessableContent(_error(str(exc))) from exc
        return _exec_response(tool_use_id, outcome)

    async def list_files(self, session_id: str, *, path: str = ".") -> models.FileList:
        """Every entry below ``path``; directories and symlinks are marked by ``type``."""
        try:
            workspace = self.manager.workspace(session_id)
            entries = await asyncio.to_thread(workspace.list, path)
        except PathOutside as exc:
            raise errors.ListFilesForbidden(_error(str(exc))) from exc
        except (SessionNotFound, FileMissing, NotAFile, InvalidPath) as exc:
            raise errors.ListFilesNotFound(_error(str(exc))) from exc
        return models.FileList(files=[_metadata(entry) for entry in entries])

    async def get_file(self, session_id: str, *, path: str) -> Binary:
        """The file's bytes, streamed when large, typed by its name."""
        try:
            workspace = self.manager.workspace(session_id)
            fd, size, mime = await asyncio.to_thread(workspace.open_read, path)
        except PathOutside as exc:
            raise errors.GetFileForbidden(_error(str(exc))) from exc
        except (NotAFile, InvalidPath) as exc:
            raise errors.GetFileBadRequest(_error(str(exc))) from exc
        except (SessionNotFound, FileMissing) as exc:
            raise errors.GetFileNotFound(_error(str(exc))) from exc
        if size <= _INLINE_BYTES:
            data = await asyncio.to_thread(lambda: b"".join(_files.iter_chunks(fd)))
            return Response(data, media_type=mime)
        return StreamingResponse(_stream(fd), media_type=mime)

    async def put_file(self, session_id: str, body: PutFileForm) -> models.FileUploadResult:
        """Store an upload atomically; over the cap nothing is left behind (413)."""
        destination = body.path or _upload_name(body.file.filename)
        cap = self.manager.config.max_upload_bytes
        try:
            workspace = self.manager.workspace(session_id)
            stored, size = await asyncio.to_thread(workspace.write, destination, body.file.file, cap)
        except PathOutside as exc:
            raise errors.PutFileForbidden(_error(str(exc))) from exc
        except TooLarge as exc:
            raise errors.PutFileContentTooLarge(_error(str(exc))) from exc
        except (NotAFile, InvalidPath) as exc:
            raise errors.ApiError(_error(str(exc)), status_code=400) from exc
        except (SessionNotFound, FileMissing) as exc:
            raise errors.ApiError(_error(str(exc)), status_code=404) from exc
        return models.FileUploadResult(path=stored, size_bytes=size)


def _handle(session: Session) -> models.SessionHandle:
    return models.SessionHandle(
        session_id=session.session_id,
        idle_timeout_seconds=session.idle_timeout_seconds,
        max_lifetime_seconds=session.max_lifetime_seconds,
        created_at=session.created_at,
        last_activity_at=session.last_activity_at,
    )


def _exec_response(tool_use_id: str, outcome: ExecOutcome) -> models.ExecResponse:
    produced = [
        models.CodeExecutionOutputFile(file_id=path, filename=posixpath.basename(path))
        for path in outcome.files
    ]
    result = models.CodeExecutionResult(
        stdout=outcome.stdout,
        stderr=outcome.stderr,
        return_code=outcome.return_code,
        content=produced,
    )
    block = models.ResultBlock(type=outcome.block_type, tool_use_id=tool_use_id, content=result)
    return models.ExecResponse(
        tool_use_id=tool_use_id, result_block=block, execution_time_ms=outcome.execution_time_ms
    )


def _metadata(entry: _files.FileInfo) -> models.FileMetadata:
    # `type` and `is_dir` are additive fields: the contract lets a backend add fields.
    return models.FileMetadata.model_validate(
        {
            "path": entry.path,
            "size_bytes": entry.size_bytes,
            "mime_type": entry.mime_type,
            "modified_at": entry.modified_at,
            "type": entry.kind,
            "is_dir": entry.kind == "directory",
        }
    )


def _upload_name(filename: str | None) -> str:
    name = posixpath.basename((filename or "").replace("\\", "/"))
    return name if name not in ("", ".", "..") else "upload.bin"


async def _stream(fd: int) -> AsyncIterator[bytes]:
    try:
        while chunk := await asyncio.to_thread(os.read, fd, _files.CHUNK):
            yield chunk
    finally:
        os.close(fd)
