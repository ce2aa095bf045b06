"""End to end: the official Python MCP SDK drives stitch-mcp-server over stdio.

    python test_e2e.py SERVER_BINARY DATA_FOLDER

The test copies DATA_FOLDER into a temporary folder (the source is never changed), adds the
files a wrong reading of the arguments would touch, serves the copy, and checks what a client
sees: the advertised schemas, real file contents, and stitch's refusals delivered as tool
results with isError set. The server logs every file it reads to standard error
(`read <path> (<n> bytes)`); the test reads that log to show a refused call read nothing.

It ends with a line `<n> passed, <m> failed` and exits non-zero if anything failed.
"""

import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import ImageContent, TextContent

TEXT_LIST = "is a list written as text \u2014 pass the array itself, not JSON written as text"


class Context:
    """The running session, the served folder and the server's read log."""

    def __init__(self, session, served: Path, log: Path, stitch_tools: dict):
        self.session = session
        self.served = served
        self.log = log
        self.stitch_tools = stitch_tools
        self.log_seen = 0
        self.fresh: list[str] = []

    def new_reads(self) -> list[str]:
        """The `read …` lines the server logged since the last call."""
        lines = self.log.read_text(encoding="utf-8").splitlines()
        self.fresh, self.log_seen = lines[self.log_seen :], len(lines)
        return [line for line in self.fresh if line.startswith("read ")]

    def stitch_events(self) -> list[str]:
        """stitch's `tracing` lines (one per refused issue or repair) of the last call."""
        return [line for line in self.fresh if " stitch: " in line]

    async def call(self, name: str, arguments: dict):
        self.new_reads()
        result = await self.session.call_tool(name, arguments)
        return result, self.new_reads()


def texts(result) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


def images(result) -> list[ImageContent]:
    return [block for block in result.content if isinstance(block, ImageContent)]


def only_text(result) -> str:
    assert len(result.content) == 1, result.content
    (text,) = texts(result)
    return text


def walk(schema):
    """Every key anywhere in a schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key
            yield from walk(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from walk(value)


# --- the tests -----------------------------------------------------------------------------


async def test_lists_stitchs_schemas(cx: Context):
    listed = {tool.name: tool for tool in (await cx.session.list_tools()).tools}
    assert set(listed) == {"view_file", "edit", "browse"}, set(listed)
    for name, tool in listed.items():
        ours = dict(cx.stitch_tools[name]["inputSchema"])
        seen = dict(tool.input_schema)
        # rmcp adds the dialect and moves the type's description to the tool; nothing else.
        assert seen.pop("$schema") == "https://json-schema.org/draft/2020-12/schema"
        ours.pop("description")
        assert seen == ours, f"{name}:\n{json.dumps(seen, indent=1)}\n!=\n{json.dumps(ours, indent=1)}"
        keys = set(walk(tool.input_schema))
        assert not keys & {"$ref", "$defs", "definitions"}, keys
    paths = listed["view_file"].input_schema["properties"]["paths"]
    assert paths["anyOf"] == [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 20},
    ], paths
    assert "JSON array (not as JSON text)" in paths["description"], paths
    rows = listed["edit"].input_schema["properties"]["rows"]
    names = rows["items"]["properties"]["names"]
    assert names["anyOf"][1]["maxItems"] == 8, names
    assert listed["edit"].input_schema["required"] == ["file", "rows", "action"]
    # An internally tagged enum as the whole arguments: one object at the root, as MCP requires,
    # with no anyOf/oneOf/allOf at its top (Anthropic's API, which clients pass it on to,
    # refuses them there): its tag's values are one enum.
    browse = listed["browse"].input_schema
    assert browse["type"] == "object", browse
    assert not {"anyOf", "oneOf", "allOf"} & set(browse), browse
    assert browse["properties"]["kind"]["enum"] == ["find", "count"], browse
    assert cx.stitch_tools["browse"]["description"].startswith("Look around the served folder"), cx.stitch_tools


async def test_enum_tool_runs(cx: Context):
    result, reads = await cx.call("browse", {"kind": "find", "name": ".md"})
    assert not result.is_error, result
    assert only_text(result) == "notes.md\nreadme.md", only_text(result)
    assert reads == [], reads
    result, reads = await cx.call("browse", {"kind": "count", "paths": ["a.txt", "notes.md"]})
    assert not result.is_error, result
    assert only_text(result) == "a.txt: 2 lines\nnotes.md: 2 lines\n", only_text(result)
    assert reads == ["read a.txt (39 bytes)", "read notes.md (40 bytes)"], reads


async def test_enum_tool_refuses_a_text_list_in_a_variant(cx: Context):
    result, reads = await cx.call("browse", {"kind": "count", "paths": '["a.txt", "notes.md"]'})
    assert result.is_error, result
    assert only_text(result) == f"failed to deserialize parameters: paths {TEXT_LIST}", only_text(result)
    assert reads == [], reads


async def test_view_real_array(cx: Context):
    result, reads = await cx.call("view_file", {"paths": ["a.txt", "notes.md", "logo.png"]})
    assert not result.is_error, result
    shown = texts(result)
    for i, name in enumerate(["a.txt", "notes.md"]):
        assert shown[i] == f"{name}:\n" + (cx.served / name).read_text(encoding="utf-8"), shown[i]
    assert shown[2].startswith("logo.png: PNG image 8\u00d72"), shown[2]
    (image,) = images(result)
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data) == (cx.served / "logo.png").read_bytes()
    assert reads == ["read a.txt (39 bytes)", "read notes.md (40 bytes)", "read logo.png (74 bytes)"], reads


async def test_view_one_string(cx: Context):
    result, reads = await cx.call("view_file", {"paths": "readme.md"})
    assert not result.is_error, result
    assert only_text(result) == "readme.md:\n" + (cx.served / "readme.md").read_text(encoding="utf-8")
    assert reads == ["read readme.md (48 bytes)"], reads


async def test_bracketed_name_is_one_path(cx: Context):
    # Starts with "[" but is not a JSON array: one plain file name.
    result, reads = await cx.call("view_file", {"paths": "[preview].png"})
    assert not result.is_error, result
    assert texts(result) == ["[preview].png: PNG image 4\u00d74, 73 bytes"], texts(result)
    assert reads == ["read [preview].png (73 bytes)"], reads


async def test_text_list_refused_before_reading(cx: Context):
    # A naive server would read the file literally named ["a.png"] and show it; it exists here.
    result, reads = await cx.call("view_file", {"paths": '["a.png"]'})
    assert result.is_error, result
    text = only_text(result)
    assert text == f"failed to deserialize parameters: paths {TEXT_LIST}", text
    assert reads == [], f"a refused call read files: {reads}"
    # One log line for the one issue, without the value that was sent.
    events = cx.stitch_events()
    assert len(events) == 1, events
    line = events[0]
    assert line.lstrip().startswith("WARN stitch: tool arguments refused"), line
    for field in ('tool="stitch_mcp_server::ViewFile"', 'path="paths"', 'kind="text_list"', 'outcome="refused"'):
        assert field in line, line
    assert "a.png" not in line, line


async def test_nested_text_list_named_by_path(cx: Context):
    result, reads = await cx.call(
        "edit",
        {
            "file": "notes.md",
            "rows": [{"line": 1, "names": "release"}, {"line": 2, "names": '["fox", "quick"]'}],
            "action": {"kind": "mark"},
        },
    )
    assert result.is_error, result
    assert only_text(result) == f"failed to deserialize parameters: rows.1.names {TEXT_LIST}"
    assert reads == [], reads

    result, reads = await cx.call(
        "edit",
        {
            "file": "notes.md",
            "rows": [{"line": 1, "names": '["fox"]'}],
            "action": {"kind": "tag", "labels": '["x", "y"]'},
        },
    )
    assert result.is_error, result
    # Every issue at once, one per line (in the order stitch walks them).
    prefix, _, issues = only_text(result).partition(": ")
    assert prefix == "failed to deserialize parameters", only_text(result)
    assert sorted(issues.split("\n")) == [f"action.labels {TEXT_LIST}", f"rows.0.names {TEXT_LIST}"], issues
    assert reads == [], reads


async def test_wrong_type_has_path_and_reason(cx: Context):
    result, reads = await cx.call(
        "edit",
        {"file": "notes.md", "rows": [{"line": "two", "names": "fox"}], "action": {"kind": "mark"}},
    )
    assert result.is_error, result
    assert only_text(result) == (
        'failed to deserialize parameters: rows.0.line: invalid type: string "two", expected u32'
    ), only_text(result)
    assert reads == [], reads


async def test_edit_runs_with_repaired_rows(cx: Context):
    # `rows` is a Vec, where no string is expected: JSON text there is repaired, not refused.
    result, reads = await cx.call(
        "edit",
        {
            "file": "notes.md",
            "rows": '[{"line": 1, "names": "release"}, {"line": 2, "names": ["fox", "cat"]}]',
            "action": {"kind": "rename", "to": "dog"},
        },
    )
    assert not result.is_error, result
    assert only_text(result) == (
        'line 1 "Notes on the release.": would rename to "dog" "release" (found)\n'
        'line 2 "The fox is quick.": would rename to "dog" "fox" (found)\n'
        'line 2 "The fox is quick.": would rename to "dog" "cat" (not on this line)\n'
    ), only_text(result)
    assert reads == ["read notes.md (40 bytes)"], reads
    events = cx.stitch_events()
    assert len(events) == 1, events
    assert "DEBUG stitch: tool arguments repaired" in events[0], events
    for field in ('tool="stitch_mcp_server::Edit"', 'path="rows"', 'kind="json_text"', 'outcome="repaired"'):
        assert field in events[0], events


async def test_bounds_of_the_array(cx: Context):
    result, reads = await cx.call("view_file", {"paths": ["a.txt"] * 21})
    assert result.is_error, result
    assert only_text(result) == "failed to deserialize parameters: paths: at most 20 items", only_text(result)
    assert reads == [], reads


async def test_outside_the_folder_refused(cx: Context):
    result, reads = await cx.call("view_file", {"paths": ["../outside.txt", "escape.txt", "a.txt"]})
    assert not result.is_error, result  # one of the three is served
    shown = texts(result)
    assert shown[:2] == ["../outside.txt: outside the served folder", "escape.txt: outside the served folder"], shown
    assert all("secret" not in text for text in shown), shown
    assert reads == ["read a.txt (39 bytes)"], reads
    assert cx.stitch_events() == [], "a call stitch accepted as sent logs nothing"


TESTS = [
    test_lists_stitchs_schemas,
    test_view_real_array,
    test_view_one_string,
    test_bracketed_name_is_one_path,
    test_text_list_refused_before_reading,
    test_nested_text_list_named_by_path,
    test_wrong_type_has_path_and_reason,
    test_edit_runs_with_repaired_rows,
    test_bounds_of_the_array,
    test_outside_the_folder_refused,
    test_enum_tool_runs,
    test_enum_tool_refuses_a_text_list_in_a_variant,
]


async def run(binary: str, data: Path) -> int:
    stitch_tools = json.loads(subprocess.run([binary, "--schemas"], check=True, capture_output=True, text=True).stdout)
    with tempfile.TemporaryDirectory(prefix="stitch-e2e-") as tmp:
        tmp = Path(tmp)
        served = tmp / "served"
        shutil.copytree(data, served)
        # What wrong readings of the arguments would reach: a file literally named ["a.png"],
        # a file next to the served folder, and a link out of it.
        (served / '["a.png"]').write_text("the wrong file: a list written as text read as a name\n")
        (served / "a.png").write_bytes((served / "logo.png").read_bytes())
        (tmp / "outside.txt").write_text("secret\n")
        os.symlink(tmp / "outside.txt", served / "escape.txt")
        log = tmp / "server.log"
        passed = failed = 0
        with open(log, "w", encoding="utf-8") as errlog:
            params = StdioServerParameters(command=binary, args=[str(served)])
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    print(f"connected to {init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}")
                    cx = Context(session, served, log, stitch_tools)
                    for test in TESTS:
                        try:
                            await test(cx)
                        except Exception:  # noqa: BLE001 - report every failure, go on
                            failed += 1
                            print(f"FAIL {test.__name__}")
                            traceback.print_exc(file=sys.stdout)
                        else:
                            passed += 1
                            print(f"ok   {test.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    return asyncio.run(run(sys.argv[1], Path(sys.argv[2])))


if __name__ == "__main__":
    sys.exit(main())
