# Sourced by the end-to-end scripts (examples/mcp-server/e2e/run.sh, stitch-proxy/e2e/run.sh):
# the one pin of the Python MCP SDK, and the venv both share ($STITCH_E2E_VENV, default
# target/e2e-venv), made and given that version if it is not there yet. Needs $root.
MCP_VERSION="2.3.0"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
venv="${STITCH_E2E_VENV:-$target_dir/e2e-venv}"

if [ ! -x "$venv/bin/python" ]; then
    echo "== python3 -m venv $venv"
    python3 -m venv "$venv"
fi
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null)" != "$MCP_VERSION" ]; then
    echo "== pip install mcp==$MCP_VERSION"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
fi
