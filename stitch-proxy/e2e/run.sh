#!/usr/bin/env bash
# End to end: the official Python MCP SDK on both sides of stitch-proxy. The client of
# test_e2e.py starts stitch-proxy in front of server.py (an `MCPServer`) and checks what
# reaches the server's wire: refusals, repairs, values left alone, progress and notifications,
# and an error (not a hang) when the server dies mid-call.
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

echo "== cargo build -p stitch-proxy"
cargo build --quiet --locked -p stitch-proxy

echo "== the Python MCP SDK ($MCP_VERSION) on both sides of stitch-proxy"
exec "$venv/bin/python" "$here/test_e2e.py" "$target_dir/debug/stitch-proxy"
