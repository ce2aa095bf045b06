#!/usr/bin/env bash
# End to end: builds stitch-mcp-server and drives it over stdio with the official Python MCP
# SDK (the `mcp` package, pinned below), against a temporary copy of examples/data/files
# (test_e2e.py makes the copy and adds its decoy files there; the bundled folder is untouched).
#
#   examples/mcp-server/e2e/run.sh
#
# Needs python3 (3.10+, with venv) and the Rust toolchain; packages come from PyPI and
# crates.io. The venv lives in $STITCH_E2E_VENV (default: target/e2e-venv) and is reused.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$root"

source "$here/venv.sh"

# Built beside stitch-proxy: cargo resolves dependencies' features per invocation, and this is
# the set the proxy's e2e and CI build too, so one build serves them all.
echo "== cargo build -p stitch-mcp-server -p stitch-proxy"
cargo build --quiet --locked -p stitch-mcp-server -p stitch-proxy

echo "== the Python MCP SDK ($MCP_VERSION) against the server"
exec "$venv/bin/python" "$here/test_e2e.py" "$target_dir/debug/stitch-mcp-server" "$root/examples/data/files"
