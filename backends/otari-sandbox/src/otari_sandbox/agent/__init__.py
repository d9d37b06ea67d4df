"""The agent that runs inside every sandbox, under the system ``python3 -I``.

It is standard-library only and is copied read-only into each sandbox, where it is imported
as the top-level package ``otari_agent``; inside this distribution it is
``otari_sandbox.agent`` so the host can unit-test its pieces. Modules import each other
relatively for that reason.

Protocol (one control socket, never stdout/stderr): the service sends a 4-byte big-endian
length and a JSON request; a request that captures output carries two pipe write ends as
SCM_RIGHTS on its first bytes, which the agent installs as fd 1 and 2 for the call. The agent
answers with one length-prefixed JSON frame per request. The first frame it sends is
``{"ready": true}``.
"""
