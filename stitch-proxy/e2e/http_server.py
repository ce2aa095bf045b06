"""server.py's tools served over Streamable HTTP by the official Python SDK, for stitch-proxy's
HTTP end-to-end test (test_http.py).

    python http_server.py PORT WIRE_LOG

Every POST body that reaches the server is appended to WIRE_LOG as one JSON line
`{"authorization": <the Authorization header or null>, "session": <the Mcp-Session-Id header
or null>, "headers": <its Mcp-* headers>, "body": <the body as text>}`, so the test sees exactly what reached the server's
wire, with which credentials and in which session.
"""

import json
import sys

import uvicorn

from server import server


def recording(app, path: str):
    """An ASGI app that logs each POST's body and Authorization header, then runs `app`."""

    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        headers = dict(scope["headers"])
        authorization = headers.get(b"authorization")
        session = headers.get(b"mcp-session-id")
        with open(path, "a", encoding="utf-8") as log:
            log.write(
                json.dumps(
                    {
                        "authorization": authorization.decode() if authorization else None,
                        "session": session.decode() if session else None,
                        "headers": {
                            k.decode(): v.decode()
                            for k, v in headers.items()
                            if k.startswith(b"mcp-")
                        },
                        "body": body.decode("utf-8", "replace"),
                    }
                )
                + "\n"
            )
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    return wrapped


if __name__ == "__main__":
    port, wire = int(sys.argv[1]), sys.argv[2]
    app = server.streamable_http_app(host="127.0.0.1")
    uvicorn.run(recording(app, wire), host="127.0.0.1", port=port, log_level="warning")
