"""Signed webhooks, the Standard Webhooks scheme (https://www.standardwebhooks.com/).

Copied verbatim into every package whose contract declares webhooks or callbacks. A request
carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`: space
separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per key while keys rotate.
The receiver refuses a missing or wrong signature and a timestamp outside the tolerance window
(a replay); the sender signs with the first key.
"""

import base64
import hashlib
import hmac
import time
import uuid
from collections.abc import Callable, Mapping, Sequence


class SignatureError(Exception):
    """A webhook's signature is missing, wrong, or its timestamp outside the window."""


def _key(secret: str | bytes) -> bytes:
    """A `whsec_<base64>` secret's key; other text is the key's UTF-8 bytes."""
    if isinstance(secret, bytes):
        return secret
    if secret.startswith("whsec_"):
        return base64.b64decode(secret.removeprefix("whsec_"))
    return secret.encode()


class StandardWebhooks:
    """Signs and verifies with `secrets` (the first signs; any verifies: rotate by adding the
    new key first, then dropping the old one), accepting timestamps within `tolerance` seconds.
    """

    def __init__(
        self,
        secrets: str | bytes | Sequence[str | bytes],
        *,
        tolerance: float = 300.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        listed = [secrets] if isinstance(secrets, str | bytes) else list(secrets)
        if not listed:
            raise ValueError("StandardWebhooks needs at least one secret")
        self._keys = [_key(secret) for secret in listed]
        self.tolerance = tolerance
        self._clock = clock

    def signature(self, msg_id: str, timestamp: int, body: bytes) -> str:
        """The `webhook-signature` value: one `v1,<base64>` per key."""
        signed = f"{msg_id}.{timestamp}.".encode() + body
        return " ".join(
            "v1,"
            + base64.b64encode(hmac.new(k, signed, hashlib.sha256).digest()).decode()
            for k in self._keys[:1]
        )

    def headers(self, body: bytes, msg_id: str | None = None) -> dict[str, str]:
        """The three headers that sign `body` now."""
        msg_id = msg_id or f"msg_{uuid.uuid4().hex}"
        timestamp = int(self._clock())
        return {
            "webhook-id": msg_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": self.signature(msg_id, timestamp, body),
        }

    def __call__(self, headers: Mapping[str, str], body: bytes) -> None:
        """Verify a received request; raises `SignatureError`."""
        lowered = {name.lower(): value for name, value in headers.items()}
        msg_id = lowered.get("webhook-id")
        stamp = lowered.get("webhook-timestamp", "")
        given = lowered.get("webhook-signature", "").split()
        if not msg_id or not stamp.isdigit() or not given:
            raise SignatureError(
                "missing webhook-id, webhook-timestamp or webhook-signature"
            )
        if abs(self._clock() - int(stamp)) > self.tolerance:
            raise SignatureError("webhook-timestamp outside the tolerance window")
        signed = f"{msg_id}.{stamp}.".encode() + body
        expected = [
            base64.b64encode(hmac.new(k, signed, hashlib.sha256).digest()).decode()
            for k in self._keys
        ]
        offered = [part.split(",", 1)[1] for part in given if part.startswith("v1,")]
        if not any(hmac.compare_digest(o, e) for o in offered for e in expected):
            raise SignatureError("no webhook-signature matches")


# A verifier a receiver takes: raises SignatureError (or any ValueError) to refuse.
Verifier = Callable[[Mapping[str, str], bytes], None]
