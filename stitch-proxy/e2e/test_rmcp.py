"""End to end: the official Python MCP SDK's `Client` → stitch-proxy → an rmcp 3.x server
(examples/mcp-server, `stitch-mcp-server`), over stdio, in each of the client's modes.

    python test_rmcp.py PROXY_BINARY SERVER_BINARY FILES_DIR

The server is itself built with stitch, and refuses in its own words ("failed to
deserialize parameters: …") and logs its own repairs: a refusal in the proxy's words, and no
repair logged by the server, show that the proxy acted and that the server never saw the
call as the client wrote it. It ends with a line `<n> passed, <m> failed`.
"""

import asyncio
import sys
import tempfile
import traceback
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

TEXT_LIST = "is a list written as text \u2014 pass the array itself, not JSON written as text"
TIMEOUT = 30
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


def texts(result) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


async def run_mode(proxy: str, server: str, files: str, mode: str, tmp: Path) -> None:
    params = StdioServerParameters(command=proxy, args=["--log", "info", "--", server, files])
    errpath = tmp / f"rmcp-{mode}.log"
    with open(errpath, "w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=mode, cache=None) as client:
            assert client.protocol_version == MODES[mode], client.protocol_version
            # A list written as text: refused by the proxy, in its words.
            result = await asyncio.wait_for(client.call_tool("view_file", {"paths": '["a.txt"]'}), TIMEOUT)
            assert result.is_error, result
            assert texts(result) == [f"paths {TEXT_LIST}"], texts(result)
            # JSON text where no string is expected: repaired by the proxy, run by the server.
            rows = '[{"line": 1, "names": "quick"}]'
            result = await asyncio.wait_for(
                client.call_tool("edit", {"file": "a.txt", "rows": rows, "action": {"kind": "rename", "to": "slow"}}),
                TIMEOUT,
            )
            assert not result.is_error, result
            assert 'would rename to "slow" "quick" (found)' in texts(result)[0], texts(result)
            # A real list passes.
            result = await asyncio.wait_for(client.call_tool("view_file", {"paths": ["a.txt"]}), TIMEOUT)
            assert not result.is_error, result
            assert texts(result)[0].startswith("a.txt:\n"), texts(result)
    log = errpath.read_text(encoding="utf-8")
    assert "to view_file refused: paths" in log, log
    assert "to edit repaired: rows" in log, log
    # The server saw the list itself: it logged no refusal and no repair of its own.
    assert "tool arguments refused" not in log and "tool arguments repaired" not in log, log


async def run(proxy: str, server: str, files: str) -> int:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="stitch-proxy-rmcp-") as tmp:
        for mode in MODES:
            try:
                await run_mode(proxy, server, files, mode, Path(tmp))
            except Exception:  # noqa: BLE001 - report every failure, go on
                failed += 1
                print(f"FAIL [{mode}] the rmcp server behind the proxy")
                traceback.print_exc(file=sys.stdout)
            else:
                passed += 1
                print(f"ok   [{mode}] the rmcp server behind the proxy")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(asyncio.run(run(*sys.argv[1:])))
