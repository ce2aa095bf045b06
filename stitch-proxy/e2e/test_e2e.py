"""End to end: the official Python MCP SDK on both sides of stitch-proxy.

    python test_e2e.py PROXY_BINARY

The SDK's `Client` (over `stdio_client`) starts `PROXY_BINARY -- python server.py WIRE_LOG`
(and once more with `--report-only --log-format json`, whose records are checked);
server.py is an `MCPServer` that logs every line reaching it to WIRE_LOG, so each test sees
exactly what the server received. Every test runs in each of the client's modes: `legacy`
(the initialize handshake), `auto` (the SDK's default: a `server/discover` probe, then the
modern era the server offers) and `2026-07-28` (the modern era pinned, no probe). It ends
with a line `<n> passed, <m> failed` and exits non-zero if anything failed.
"""

import asyncio
import json
import sys
import tempfile
import traceback
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

HERE = Path(__file__).resolve().parent
TEXT_LIST = "is a list written as text \u2014 pass the array itself, not JSON written as text"
# No call may take this long: a hang is a failure, not a stuck run.
TIMEOUT = 30
# The client's modes, and the protocol version each must end up speaking through the proxy:
# the proxy never downgrades a client the server can serve in the modern era.
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


class Context:
    """The running session and the server's wire log."""

    def __init__(self, session: Client, wire: Path, events: list, mode: str):
        self.session = session
        self.mode = mode
        self.wire = wire
        self.events = events
        self.wire_seen = 0

    def new_wire(self) -> list[dict]:
        """The messages that reached the server since the last look."""
        return [json.loads(line) for line in self.new_wire_lines()]

    def new_wire_lines(self) -> list[str]:
        """The lines that reached the server since the last look, as they came."""
        lines = self.wire.read_text(encoding="utf-8").splitlines()
        fresh, self.wire_seen = lines[self.wire_seen :], len(lines)
        return fresh

    async def call_raw(self, name: str, arguments: dict):
        """Calls a tool; returns the result and the tools/call lines the server got, as text."""
        self.new_wire_lines()
        result = await asyncio.wait_for(self.session.call_tool(name, arguments), TIMEOUT)
        lines = [l for l in self.new_wire_lines() if json.loads(l).get("method") == "tools/call"]
        return result, lines

    async def call(self, name: str, arguments: dict, **kwargs):
        """Calls a tool; returns the result and the tools/call messages the server got."""
        self.new_wire()
        result = await asyncio.wait_for(self.session.call_tool(name, arguments, **kwargs), TIMEOUT)
        calls = [m for m in self.new_wire() if m.get("method") == "tools/call"]
        return result, calls


def only_text(result) -> str:
    assert len(result.content) == 1, result.content
    (block,) = result.content
    assert isinstance(block, TextContent), block
    return block.text


def proxy_params(proxy: str, wire: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=proxy, args=["--log", "info", "--", sys.executable, str(HERE / "server.py"), str(wire)]
    )


# --- the tests -----------------------------------------------------------------------------


async def test_the_list_passes_through(cx: Context):
    listed = {tool.name: tool for tool in (await cx.session.list_tools()).tools}
    assert set(listed) == {"view", "tag", "search", "count", "label", "crash"}, set(listed)
    paths = listed["view"].input_schema["properties"]["paths"]
    assert paths["anyOf"] == [{"type": "string"}, {"items": {"type": "string"}, "type": "array"}], paths
    assert listed["search"].input_schema["properties"]["query"] == {"$ref": "#/$defs/Query"}


async def test_a_list_written_as_text_is_refused_by_name(cx: Context):
    result, calls = await cx.call("view", {"paths": '["a.png", "b.png"]'})
    assert result.is_error, result
    assert only_text(result) == f"paths {TEXT_LIST}", only_text(result)
    assert calls == [], f"a refused call reached the server: {calls}"


async def test_json_text_is_repaired_and_the_server_gets_a_real_list(cx: Context):
    result, calls = await cx.call("tag", {"tags": '["x", "y"]'})
    assert not result.is_error, result
    assert [c["params"]["arguments"] for c in calls] == [{"tags": ["x", "y"]}], calls
    assert json.loads(only_text(result)) == {"tags": ["x", "y"]}


async def test_the_nested_model_is_repaired_and_refused_by_path(cx: Context):
    # `filters` (a list of models) written as JSON text: repaired on the server's wire.
    query = {"name": "q", "filters": '[{"field": "kind", "values": ["png"]}]'}
    result, calls = await cx.call("search", {"query": query})
    assert not result.is_error, result
    assert [c["params"]["arguments"] for c in calls] == [
        {"query": {"name": "q", "filters": [{"field": "kind", "values": ["png"]}]}}
    ], calls
    # `match` takes a string or a list: a list written as text there is refused by its path,
    # every issue at once, one per line.
    query = {"name": "q", "filters": [{"field": "a", "values": ["1"], "match": '["x"]'},
                                      {"field": "b", "values": ["2"], "match": '["y", "z"]'}]}
    result, calls = await cx.call("search", {"query": query})
    assert result.is_error, result
    assert only_text(result).split("\n") == [
        f"query.filters.0.match {TEXT_LIST}",
        f"query.filters.1.match {TEXT_LIST}",
    ], only_text(result)
    assert calls == [], calls


async def test_strings_that_are_not_a_list_stay_one_value(cx: Context):
    for text in ["[preview].png", "null", "123", "[1,2", "a.png"]:
        result, calls = await cx.call("view", {"paths": text})
        # The server's wire has the string, unchanged.
        assert [c["params"]["arguments"] for c in calls] == [{"paths": text}], (text, calls)
        # What the Python SDK then makes of `null` is its own reading (it parses JSON text
        # for a parameter not typed plain `str`): only the wire is the proxy's.
        if text != "null":
            assert not result.is_error, (text, result)
            assert json.loads(only_text(result)) == {"paths": text}, only_text(result)


async def test_a_real_list_passes(cx: Context):
    result, calls = await cx.call("view", {"paths": ["a.png", "[b].png"]})
    assert not result.is_error, result
    assert [c["params"]["arguments"] for c in calls] == [{"paths": ["a.png", "[b].png"]}], calls


async def test_progress_and_notifications_pass_through(cx: Context):
    progress = []

    async def on_progress(done, total, message):
        progress.append((done, total))

    cx.events.clear()
    result, calls = await cx.call("count", {"steps": 3}, progress_callback=on_progress)
    assert not result.is_error, result
    assert only_text(result) == "counted 3"
    assert progress == [(1, 3), (2, 3), (3, 3)], progress
    assert [event.data for event in cx.events] == ["step 1", "step 2", "step 3"], cx.events
    wire = [json.loads(line) for line in cx.wire.read_text(encoding="utf-8").splitlines()]
    if cx.mode == "legacy":
        # The client's own notifications reach the server too.
        assert any(m.get("method") == "notifications/initialized" for m in wire)
    else:
        # Modern: every request the server got carries the envelope, the proxy's own included.
        requests = [m for m in wire if "id" in m and "method" in m]
        assert requests, wire
        for m in requests:
            meta = m.get("params", {}).get("_meta", {})
            assert meta.get("io.modelcontextprotocol/protocolVersion") == "2026-07-28", m


async def test_an_unknown_tool_is_the_servers_answer(cx: Context):
    result, calls = await cx.call("nope", {"paths": '["a"]'})
    assert result.is_error, result
    assert len(calls) == 1, calls


def arguments_text(line: str) -> str:
    """The text of `params.arguments` in a tools/call line as the server got it."""
    start = line.index('"arguments":') + len('"arguments":')
    depth = 0
    in_string = escaped = False
    for i, c in enumerate(line[start:], start):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return line[start : i + 1]
    raise AssertionError(f"no arguments in {line}")


async def test_what_the_server_judges_reaches_it_as_sent(cx: Context):
    # Issue #19, item 1: pydantic reads "1" and 5.0 as integers; the proxy does not judge them.
    for n in ["1", 5.0, 100.0]:
        result, lines = await cx.call_raw("label", {"n": n})
        assert not result.is_error, (n, result)
        assert json.loads(only_text(result))["n"] == int(float(n)), only_text(result)
        assert [json.loads(arguments_text(l)) for l in lines] == [{"n": n}], lines
    # What the server refuses, the server says (not the proxy).
    result, lines = await cx.call_raw("label", {"n": "one"})
    assert result.is_error, result
    assert len(lines) == 1, lines


async def test_a_repair_changes_nothing_but_the_repaired_string(cx: Context):
    # Item 2: a big integer, -0.0, the key order: the server's bytes are the client's, but for
    # the list written in `tags`, which is the list as written inside the string.
    arguments = {"tags": '["x",  "y"]', "big": 123456789012345678901234567890, "z": -0.0, "e": 1e2, "n": 1}
    result, lines = await cx.call_raw("label", arguments)
    assert not result.is_error, result
    assert len(lines) == 1, lines
    got = arguments_text(lines[0])
    assert got.startswith('{"tags":["x",  "y"],'), got
    assert '"big":123456789012345678901234567890' in got, got
    assert '"z":-0.0' in got, got
    keys = list(json.loads(got))
    assert keys == ["tags", "big", "z", "e", "n"], keys
    assert json.loads(only_text(result)) == {"n": 1, "tags": ["x", "y"], "big": 123456789012345678901234567890}


async def test_an_unrelated_deep_value_does_not_let_a_text_list_through(cx: Context):
    # Item 3: a value nested 150 deep (past serde_json's 128; at 200 the SDK's own JSON reader
    # never answered here) beside a list written as text.
    deep = 1
    for _ in range(150):
        deep = [deep]
    result, lines = await cx.call_raw("view", {"paths": '["a.png"]', "pad": deep})
    assert result.is_error, result
    assert only_text(result) == f"paths {TEXT_LIST}", only_text(result)
    assert lines == [], lines
    # Beside a repair: repaired, and the deep value reaches the server as it was sent.
    result, lines = await cx.call_raw("label", {"tags": '["t"]', "n": 2, "pad": deep})
    assert not result.is_error, result
    assert len(lines) == 1, lines
    got = arguments_text(lines[0])
    assert got.startswith('{"tags":["t"],"n":2,"pad":' + "[" * 150 + "1"), got[:80]


TESTS = [
    test_the_list_passes_through,
    test_a_list_written_as_text_is_refused_by_name,
    test_json_text_is_repaired_and_the_server_gets_a_real_list,
    test_the_nested_model_is_repaired_and_refused_by_path,
    test_strings_that_are_not_a_list_stay_one_value,
    test_a_real_list_passes,
    test_progress_and_notifications_pass_through,
    test_an_unknown_tool_is_the_servers_answer,
    test_what_the_server_judges_reaches_it_as_sent,
    test_a_repair_changes_nothing_but_the_repaired_string,
    test_an_unrelated_deep_value_does_not_let_a_text_list_through,
]


def client(proxy: str, wire: Path, errlog, mode: str, **kwargs) -> Client:
    return Client(stdio_client(proxy_params(proxy, wire), errlog=errlog), mode=mode, cache=None, **kwargs)


async def crash_gives_an_error(proxy: str, tmp: Path, mode: str) -> None:
    """A server that dies mid-call: the client gets an error answer, not a hang."""
    wire = tmp / f"crash-wire-{mode}.jsonl"
    with open(tmp / f"crash-stderr-{mode}.log", "w", encoding="utf-8") as errlog:
        async with client(proxy, wire, errlog, mode) as session:
            try:
                result = await asyncio.wait_for(session.call_tool("crash", {}), TIMEOUT)
            except MCPError as error:
                assert "exited before answering" in str(error), error
            else:
                raise AssertionError(f"the crashed call was answered: {result}")
    stderr = (tmp / f"crash-stderr-{mode}.log").read_text(encoding="utf-8")
    assert "request(s) unanswered: each got an error" in stderr, stderr


async def report_only_lets_the_text_list_through_and_records_it(proxy: str, tmp: Path, mode: str) -> None:
    """Issue #34: `--report-only --log-format json`: the list written as text reaches the
    server as the client sent it, and the JSON record on the proxy's standard error names the
    tool, the path, the rule and `would-refuse`, never the value."""
    wire = tmp / f"report-wire-{mode}.jsonl"
    errpath = tmp / f"report-stderr-{mode}.log"
    params = StdioServerParameters(
        command=proxy,
        args=["--report-only", "--log-format", "json", "--", sys.executable, str(HERE / "server.py"), str(wire)],
    )
    with open(errpath, "w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode, cache=None) as session:
            result = await asyncio.wait_for(session.call_tool("view", {"paths": '["secret-a.png"]'}), TIMEOUT)
            # The server's own answer, not a refusal. (The SDK's server reads the JSON text
            # for a parameter typed `str | list[str]` into a list: what the rule refuses.)
            assert not result.is_error, result
            assert json.loads(only_text(result)) == {"paths": ["secret-a.png"]}, only_text(result)
            result = await asyncio.wait_for(session.call_tool("tag", {"tags": '["x"]'}), TIMEOUT)
            calls = [json.loads(l) for l in wire.read_text(encoding="utf-8").splitlines()]
            calls = [m["params"]["arguments"] for m in calls if m.get("method") == "tools/call"]
            assert calls == [{"paths": '["secret-a.png"]'}, {"tags": '["x"]'}], calls
    # The proxy's lines (the server's own stderr shares the file: not JSON, or not ours).
    records = []
    for line in errpath.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "event" in record:
            records.append(record)
    calls = [r for r in records if r["event"] == "call"]
    assert [(r["tool"], r["action"], r["issues"]) for r in calls] == [
        ("view", "would-refuse", [{"path": "paths", "rule": "R3"}]),
        ("tag", "would-repair", [{"path": "tags", "rule": "R1"}]),
    ], calls
    era = "handshake" if mode == "legacy" else "2026-07-28"
    assert all(r["era"] == era for r in calls), calls
    assert "secret-a" not in errpath.read_text(encoding="utf-8")
    (summary,) = [r for r in records if r["event"] == "summary"]
    assert summary["total"]["would_refuse"] == 1 and summary["total"]["would_repair"] == 1, summary
    print(f"       [{mode}] record: {json.dumps(calls[0])}")


async def run_mode(proxy: str, tmp: Path, mode: str) -> tuple[int, int]:
    passed = failed = 0
    wire = tmp / f"wire-{mode}.jsonl"
    events = []

    async def on_log(params):
        events.append(params)

    with open(tmp / f"stderr-{mode}.log", "w", encoding="utf-8") as errlog:
        async with client(proxy, wire, errlog, mode, logging_callback=on_log, log_level="debug") as session:
            version = session.protocol_version
            print(f"[{mode}] connected through stitch-proxy, protocol {version}")
            if version != MODES[mode]:
                failed += 1
                print(f"FAIL [{mode}] the client speaks {version}, not {MODES[mode]}")
            cx = Context(session, wire, events, mode)
            for test in TESTS:
                try:
                    await test(cx)
                except Exception:  # noqa: BLE001 - report every failure, go on
                    failed += 1
                    print(f"FAIL [{mode}] {test.__name__}")
                    traceback.print_exc(file=sys.stdout)
                else:
                    passed += 1
                    print(f"ok   [{mode}] {test.__name__}")
    stderr = (tmp / f"stderr-{mode}.log").read_text(encoding="utf-8")
    # The proxy said what it did (--log info), on standard error only.
    for expected in ["to view refused: paths", "to tag repaired", "to search repaired"]:
        if expected not in stderr:
            failed += 1
            print(f"FAIL [{mode}] the proxy's log lacks {expected!r}:\n{stderr}")
    for test in [crash_gives_an_error, report_only_lets_the_text_list_through_and_records_it]:
        try:
            await test(proxy, tmp, mode)
        except Exception:  # noqa: BLE001
            failed += 1
            print(f"FAIL [{mode}] {test.__name__}")
            traceback.print_exc(file=sys.stdout)
        else:
            passed += 1
            print(f"ok   [{mode}] {test.__name__}")
    return passed, failed


async def run(proxy: str) -> int:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="stitch-proxy-e2e-") as tmp:
        for mode in MODES:
            p, f = await run_mode(proxy, Path(tmp), mode)
            passed += p
            failed += f
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    return asyncio.run(run(sys.argv[1]))


if __name__ == "__main__":
    sys.exit(main())
