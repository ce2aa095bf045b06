"""An MCP server written with the official Python SDK (`MCPServer`), for stitch-proxy's
end-to-end test (test_e2e.py).

    python server.py WIRE_LOG

Before the SDK reads anything, the server puts a pipe in place of its standard input and
copies every line that arrives to WIRE_LOG, then to the pipe: the log is exactly what reached
the server on its wire. (The SDK parses JSON text for parameters not typed plain `str` before
a tool function runs, so the function's own view cannot tell a repaired call from one that
was not.)
"""

import json
import os
import sys
import threading
import warnings

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPDeprecationWarning

# The test uses log notifications as server notifications; the SDK warns they are deprecated.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)


def log_the_wire(path: str) -> None:
    """Fd 0 becomes a pipe fed by a thread that logs each line it copies."""
    wire = os.dup(0)
    read_end, write_end = os.pipe()
    os.dup2(read_end, 0)
    os.close(read_end)

    def pump() -> None:
        with os.fdopen(wire, "rb") as source, open(path, "ab", buffering=0) as log, os.fdopen(
            write_end, "wb", buffering=0
        ) as sink:
            for line in source:
                log.write(line)
                sink.write(line)

    threading.Thread(target=pump, daemon=True).start()


class Filter(BaseModel):
    """One condition of a search."""

    field: str
    values: list[str]
    match: str | list[str] = "any"


class Query(BaseModel):
    """A search: a name and its filters."""

    name: str
    filters: list[Filter]


server = MCPServer("stitch-proxy-e2e")


@server.tool()
def view(paths: str | list[str]) -> str:
    """Show one file or several."""
    return json.dumps({"paths": paths})


@server.tool()
def tag(tags: list[str]) -> str:
    """Tag with a list of labels."""
    return json.dumps({"tags": tags})


@server.tool()
def search(query: Query) -> str:
    """Search with a nested query."""
    return query.model_dump_json()


@server.tool()
async def count(steps: int, ctx: Context) -> str:
    """Count, reporting progress and logging each step."""
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps)
        await ctx.info(f"step {step}")
    return f"counted {steps}"


@server.tool()
def label(n: int, tags: list[str] = [], big: int = 0, z: float = 0.0, e: float = 0.0, pad: object = None) -> str:
    """Label with a count: pydantic reads `n` as it reads integers (lax: "1", 5.0)."""
    return json.dumps({"n": n, "tags": tags, "big": big})


@server.tool()
def crash() -> str:
    """Dies in the middle of the call."""
    os._exit(3)


if __name__ == "__main__":
    log_the_wire(sys.argv[1])
    server.run()
