"""End to end over Streamable HTTP: the official Python MCP SDK's HTTP client and server on
either side of stitch-proxy, in each topology.

    python test_http.py PROXY_BINARY

- `--upstream`: the SDK's stdio client runs `PROXY --upstream URL --header "Authorization: …"`
  in front of http_server.py (the SDK's Streamable HTTP server, server.py's tools);
- `--listen`: two SDK Streamable HTTP clients at once against `PROXY --listen … -- python
  server.py` (a stdio server): each session has its own child, and none is left afterwards;
  a foreign `Origin` and a foreign `Host` are refused with 403 and start nothing;
- both: the SDK's HTTP client against `PROXY --listen … --upstream URL`, the client's own
  `Authorization` reaching the server;
- a restarted server: `--upstream` in front of an http_server.py that is stopped and started
  again mid-session; it answers the old session id with 404, and the proxy opens a new
  session with the client's own `initialize` and sends the call again, unseen by the client.

In each: a list written as text is refused by name and never reaches the server, JSON text is
repaired on the server's wire, and progress and log notifications arrive in order. It ends
with a line `<n> passed, <m> failed` and exits non-zero if anything failed.
"""

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextContent

HERE = Path(__file__).resolve().parent
TEXT_LIST = "is a list written as text \u2014 pass the array itself, not JSON written as text"
TIMEOUT = 30
# The SDK client's modes (its default is auto), and the version each must end up speaking.
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}
SECRET = "Bearer e2e-header-secret"
CLIENT_SECRET = "Bearer e2e-client-secret"


def only_text(result) -> str:
    assert len(result.content) == 1, result.content
    (block,) = result.content
    assert isinstance(block, TextContent), block
    return block.text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check, seconds: float = 20):
    """Polls `check` until it returns something true; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Wire:
    """What reached a server: the tools/call messages and Authorization headers, new since the
    last look. `http` logs are http_server.py's records; the others server.py's lines."""

    def __init__(self, path: Path, http: bool):
        self.path, self.http, self.seen = path, http, 0

    def records(self) -> list[dict]:
        if not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        fresh, self.seen = lines[self.seen :], len(lines)
        out = []
        for line in fresh:
            if self.http:
                record = json.loads(line)
                body = json.loads(record["body"])
                for message in body if isinstance(body, list) else [body]:
                    out.append({"authorization": record["authorization"],
                                "session": record["session"], "headers": record["headers"],
                                "message": message})
            else:
                out.append({"authorization": None, "message": json.loads(line)})
        return out

    def calls(self) -> list[dict]:
        return [r["message"] for r in self.records() if r["message"].get("method") == "tools/call"]


async def check_the_rule(session: ClientSession, wire: Wire, events: list, label: str,
                         every_log: bool = True):
    """Refusal, repair, progress and notifications through one session. `every_log`: each
    log notification arrives; without, those that arrive are this call's, in order (the
    modern era's shared child names no request in a log notification, so while two clients'
    calls are in flight the proxy drops it rather than send it to the wrong client)."""
    wire.calls()
    result = await asyncio.wait_for(session.call_tool("view", {"paths": '["a.png", "b.png"]'}), TIMEOUT)
    assert result.is_error, (label, result)
    assert only_text(result) == f"paths {TEXT_LIST}", (label, only_text(result))
    calls = wire.calls()
    assert [c for c in calls if c["params"]["name"] == "view"] == [], (label, calls)

    # The label tells this session's call from a concurrent session's on a shared wire.
    text = json.dumps(["x", label])
    result = await asyncio.wait_for(session.call_tool("tag", {"tags": text}), TIMEOUT)
    assert not result.is_error, (label, result)
    assert json.loads(only_text(result)) == {"tags": ["x", label]}, label
    calls = [c for c in wire.calls() if c["params"]["name"] == "tag" and label in json.dumps(c)]
    assert [c["params"]["arguments"] for c in calls] == [{"tags": ["x", label]}], (label, calls)

    progress = []

    async def on_progress(done, total, message):
        progress.append((done, total))

    events.clear()
    result = await asyncio.wait_for(
        session.call_tool("count", {"steps": 3}, progress_callback=on_progress), TIMEOUT
    )
    assert only_text(result) == "counted 3", label
    assert progress == [(1, 3), (2, 3), (3, 3)], (label, progress)
    steps = [event.data for event in events]
    if every_log:
        assert steps == ["step 1", "step 2", "step 3"], (label, events)
    else:
        expected = iter(["step 1", "step 2", "step 3"])
        assert all(step in expected for step in steps), (label, events)


def check_era(session: Client, mode: str, label: str):
    assert session.protocol_version == MODES[mode], (label, session.protocol_version)


def check_modern_headers(records: list[dict], mode: str):
    """In the modern era every POST the server got names no session and mirrors its body in
    Mcp-Method (and, for a call, Mcp-Name); in the handshake era calls go in a session."""
    calls = [r for r in records if r["message"].get("method") == "tools/call"]
    assert calls, records
    for r in calls:
        if MODES[mode] == "2026-07-28":
            assert r["session"] is None, r
            assert r["headers"].get("mcp-method") == "tools/call", r
            assert r["headers"].get("mcp-name") == r["message"]["params"]["name"], r
            assert r["headers"].get("mcp-protocol-version") == "2026-07-28", r
        else:
            assert r["session"] is not None, r


async def upstream(proxy: str, tmp: Path, server_url: str, wire: Wire, mode: str):
    """The SDK's stdio client → stitch-proxy --upstream → the SDK's HTTP server."""
    events = []

    async def on_log(params):
        events.append(params)

    params = StdioServerParameters(
        command=proxy,
        args=["--log", "debug", "--upstream", server_url, "--header", f"Authorization: {SECRET}"],
    )
    stderr_path = tmp / f"upstream-{mode}-stderr.log"
    wire.records()
    start = wire.seen
    with open(stderr_path, "w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode, cache=None,
                          logging_callback=on_log, log_level="debug") as session:
            check_era(session, mode, "--upstream")
            await check_the_rule(session, wire, events, f"--upstream {mode}")
    wire.seen = start
    everything = wire.records()
    assert everything and all(r["authorization"] == SECRET for r in everything), everything[:3]
    check_modern_headers(everything, mode)
    stderr = stderr_path.read_text(encoding="utf-8")
    assert "e2e-header-secret" not in stderr, "the Authorization value reached the log"
    assert "to view refused: paths" in stderr, stderr


async def upstream_restarted(proxy: str, tmp: Path):
    """The SDK's stdio client → stitch-proxy --upstream → an SDK HTTP server restarted between
    two calls (it forgets its sessions: 404)."""
    port = free_port()
    wire = Wire(tmp / "restart-wire.jsonl", http=True)

    def start():
        process = subprocess.Popen(
            [sys.executable, str(HERE / "http_server.py"), str(port), str(wire.path)], cwd=HERE
        )
        wait_for("the SDK's HTTP server", lambda: port_open(port) or process.poll() is not None)
        assert process.poll() is None, "the SDK's HTTP server did not start"
        return process

    server = start()
    params = StdioServerParameters(
        command=proxy, args=["--log", "info", "--upstream", f"http://127.0.0.1:{port}/mcp"]
    )
    stderr_path = tmp / "restart-stderr.log"
    try:
        with open(stderr_path, "w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await asyncio.wait_for(session.initialize(), TIMEOUT)
                    result = await asyncio.wait_for(
                        session.call_tool("tag", {"tags": '["before"]'}), TIMEOUT
                    )
                    assert json.loads(only_text(result)) == {"tags": ["before"]}, result
                    server.terminate()
                    server.wait(10)
                    server = start()
                    result = await asyncio.wait_for(
                        session.call_tool("tag", {"tags": '["after"]'}), TIMEOUT
                    )
                    assert not result.is_error, result
                    assert json.loads(only_text(result)) == {"tags": ["after"]}, result
                    # The rule still holds in the new session.
                    result = await asyncio.wait_for(
                        session.call_tool("view", {"paths": '["a.png"]'}), TIMEOUT
                    )
                    assert result.is_error and only_text(result) == f"paths {TEXT_LIST}", result
    finally:
        server.terminate()
        server.wait(10)
    records = wire.records()
    initializes = [r for r in records if r["message"].get("method") == "initialize"]
    assert len(initializes) == 2, initializes
    first, again = initializes[0]["message"], initializes[1]["message"]
    assert str(again["id"]).startswith("stitch-proxy-") and initializes[1]["session"] is None, again
    assert again["params"] == first["params"], initializes
    calls = [(r["session"], r["message"]["params"]["arguments"]) for r in records
             if r["message"].get("method") == "tools/call"]
    # The second call went in the old session (404), then once in the new one.
    (old, before), (old_again, after), (new, retried) = calls
    assert before == {"tags": ["before"]} and after == retried == {"tags": ["after"]}, calls
    assert old == old_again and new not in (None, old), calls
    stderr = stderr_path.read_text(encoding="utf-8")
    assert "ended the session (HTTP 404): opening a new one" in stderr, stderr


def start_listen(proxy: str, tmp: Path, name: str, args: list[str]):
    """Starts `proxy --listen 127.0.0.1:0 …`; returns the process, its URL and its log path."""
    log = tmp / f"{name}-stderr.log"
    errlog = open(log, "w", encoding="utf-8")
    process = subprocess.Popen(
        [proxy, "--log", "debug", "--listen", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=errlog,
    )
    errlog.close()

    def url():
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.startswith("stitch-proxy: listening on "):
                return line.split("listening on ", 1)[1].strip()
        assert process.poll() is None, log.read_text(encoding="utf-8")
        return None

    return process, wait_for("the proxy to listen", url), log


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux: /proc/PID/task/*/children)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def post(url: str, headers: dict) -> int:
    """POSTs an `initialize` with `headers` (Host included, as given); returns the status."""
    port = int(url.split(":")[2].split("/")[0])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"}}})
    connection.putrequest("POST", "/mcp", skip_host=True, skip_accept_encoding=True)
    all_headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream", **headers}
    for name, value in all_headers.items():
        connection.putheader(name, value)
    connection.endheaders(body.encode())
    status = connection.getresponse().status
    connection.close()
    return status


async def http_session(url: str, wire: Wire, label: str, mode: str, ready=None, headers=None,
                       every_log: bool = True):
    """One SDK Streamable HTTP client session through the proxy; `ready` is awaited once the
    session is up (the concurrent test checks the children there)."""
    events = []

    async def on_log(params):
        events.append(params)

    async with create_mcp_http_client(headers=headers) as client:
        async with Client(streamable_http_client(url, http_client=client), mode=mode, cache=None,
                          logging_callback=on_log, log_level="debug") as session:
            check_era(session, mode, label)
            if ready is not None:
                await ready()
            await check_the_rule(session, wire, events, label, every_log)


async def listen(proxy: str, tmp: Path, mode: str):
    """Two SDK HTTP clients at once → stitch-proxy --listen → server.py: in the handshake era
    a child each; in the modern era one child serves both, each request carrying its state."""
    wire = Wire(tmp / f"listen-{mode}-wire.jsonl", http=False)
    process, url, log = start_listen(
        proxy, tmp, f"listen-{mode}", ["--", sys.executable, str(HERE / "server.py"), str(wire.path)]
    )
    try:
        # DNS rebinding: refused before any MCP processing, no child started.
        assert post(url, {"Origin": "http://evil.example"}) == 403
        assert post(url, {"Host": "evil.example"}) == 403
        assert post(url, {"Host": "localhost.evil.example:80"}) == 403
        assert children(process.pid) == [], children(process.pid)
        # The same probe from an allowed origin is served (and its session ends when idle or
        # with the proxy).
        up = asyncio.Barrier(2)
        seen = []

        async def ready():
            await up.wait()
            seen.append(sorted(children(process.pid)))

        # Each session reads the shared log with its own position.
        modern = MODES[mode] == "2026-07-28"
        await asyncio.wait_for(
            asyncio.gather(
                http_session(url, Wire(wire.path, http=False), f"--listen {mode} session 1", mode, ready,
                             every_log=not modern),
                http_session(url, Wire(wire.path, http=False), f"--listen {mode} session 2", mode, ready,
                             every_log=not modern),
            ),
            3 * TIMEOUT,
        )
        if modern:
            # One child serves both (none yet at connect time when the era is pinned: no
            # request has been made).
            assert len(seen) == 2 and all(len(set(pids)) <= 1 for pids in seen), seen
            assert len(children(process.pid)) == 1, children(process.pid)
            # Alone, a modern client gets every log notification of its call.
            await http_session(url, Wire(wire.path, http=False), f"--listen {mode} alone", mode)
        else:
            assert len(seen) == 2 and all(len(set(pids)) == 2 for pids in seen), seen
            # Each session's DELETE ended its child.
            wait_for("no child left", lambda: children(process.pid) == [], 10)
    finally:
        process.terminate()
        process.wait(10)
    stderr = log.read_text(encoding="utf-8")
    assert "to view refused: paths" in stderr, stderr
    if MODES[mode] != "2026-07-28":
        assert stderr.count("session ") >= 4, stderr


async def both(proxy: str, tmp: Path, server_url: str, wire: Wire, mode: str):
    """The SDK's HTTP client → stitch-proxy --listen --upstream → the SDK's HTTP server."""
    process, url, log = start_listen(proxy, tmp, f"both-{mode}", ["--upstream", server_url])
    try:
        wire.records()
        start = wire.seen
        await http_session(url, wire, f"HTTP on both sides {mode}", mode,
                           headers={"Authorization": CLIENT_SECRET})
        assert post(url, {"Origin": "http://evil.example"}) == 403
    finally:
        process.terminate()
        process.wait(10)
    wire.seen = start
    records = wire.records()
    everything = [r for r in records if r["message"].get("method") == "tools/call"]
    assert everything and all(r["authorization"] == CLIENT_SECRET for r in everything), everything
    check_modern_headers(records, mode)
    stderr = log.read_text(encoding="utf-8")
    assert "e2e-client-secret" not in stderr, "the Authorization value reached the log"


async def run(proxy: str) -> int:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="stitch-proxy-http-e2e-") as tmp:
        tmp = Path(tmp)
        port = free_port()
        server_wire = tmp / "http-wire.jsonl"
        server = subprocess.Popen(
            [sys.executable, str(HERE / "http_server.py"), str(port), str(server_wire)],
            cwd=HERE,
        )
        try:
            wait_for("the SDK's HTTP server", lambda: port_open(port) or server.poll() is not None)
            assert server.poll() is None, "the SDK's HTTP server did not start"
            server_url = f"http://127.0.0.1:{port}/mcp"
            tests = []
            for mode in MODES:
                tests += [
                    (f"[{mode}] upstream", lambda mode=mode: upstream(proxy, tmp, server_url, Wire(server_wire, http=True), mode)),
                    (f"[{mode}] listen_two_sessions", lambda mode=mode: listen(proxy, tmp, mode)),
                    (f"[{mode}] both_sides_http", lambda mode=mode: both(proxy, tmp, server_url, Wire(server_wire, http=True), mode)),
                ]
            tests.append(("[legacy] upstream_server_restarted", lambda: upstream_restarted(proxy, tmp)))
            for name, test in tests:
                # Each test reads the server's log from its own start.
                try:
                    await asyncio.wait_for(test(), 4 * TIMEOUT)
                except Exception:  # noqa: BLE001 - report every failure, go on
                    failed += 1
                    print(f"FAIL {name}")
                    traceback.print_exc(file=sys.stdout)
                    for log in sorted(tmp.glob("*-stderr.log")):
                        print(f"--- {log.name}\n{log.read_text(encoding='utf-8')[-3000:]}")
                else:
                    passed += 1
                    print(f"ok   {name}")
        finally:
            server.terminate()
            server.wait(10)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    return asyncio.run(run(sys.argv[1]))


if __name__ == "__main__":
    sys.exit(main())
