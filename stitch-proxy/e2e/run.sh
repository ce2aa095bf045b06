#!/usr/bin/env bash
# End to end: the official Python MCP SDK on both sides of stitch-proxy. The client of
# test_e2e.py starts stitch-proxy in front of server.py (an `MCPServer`) and checks what
# reaches the server's wire: refusals, repairs, values left alone, progress and notifications,
# and an error (not a hang) when the server dies mid-call; with --report-only and
# --log-format json, the list written as text reaches the server and the JSON record on the
# proxy's standard error names it (would-refuse). Then test_http.py does the same over
# Streamable HTTP in each topology (http_server.py is the SDK's HTTP server with server.py's
# tools), with two concurrent sessions, the Authorization header, Host/Origin refused, and a
# server restarted mid-session (the proxy opens a new session, unseen by the client). Every
# test runs in the SDK Client's three modes (legacy, auto, 2026-07-28). Last, test_rmcp.py
# puts an rmcp server (examples/mcp-server) behind the proxy, in the same three modes.
#
#   stitch-proxy/e2e/run.sh
#
# Needs python3 (3.10+, with venv) and the Rust toolchain; packages come from PyPI and
# crates.io. The venv and the SDK pin are examples/mcp-server/e2e/venv.sh's ($STITCH_E2E_VENV,
# default target/e2e-venv), made here if it is not there yet.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

source "$root/examples/mcp-server/e2e/venv.sh"

echo "== cargo build -p stitch-mcp-server -p stitch-proxy"
cargo build --quiet --locked -p stitch-mcp-server -p stitch-proxy

echo "== the Python MCP SDK ($MCP_VERSION) on both sides of stitch-proxy"
"$venv/bin/python" "$here/test_e2e.py" "$target_dir/debug/stitch-proxy"

echo "== over Streamable HTTP: --upstream, --listen (two sessions), both (the SDK's HTTP client and server)"
"$venv/bin/python" "$here/test_http.py" "$target_dir/debug/stitch-proxy"

echo "== the Python MCP SDK in front of an rmcp server (examples/mcp-server), through the proxy"
"$venv/bin/python" "$here/test_rmcp.py" "$target_dir/debug/stitch-proxy" "$target_dir/debug/stitch-mcp-server" "$root/examples/data/files"
