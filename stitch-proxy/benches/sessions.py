"""What a --listen session leaves behind: the proxy's resident memory and threads with no
session, with 100 idle sessions open, and after 1000 sessions opened and ended (DELETE).

    python3 stitch-proxy/benches/sessions.py target/release/stitch-proxy target/release/examples/stitch-proxy-fake-server

Linux (/proc). Prints one line per state; the figures go to BENCHMARKS.md.
"""

import http.client
import json
import subprocess
import sys
import time

INIT = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}})


def status(pid: int) -> tuple[int, int]:
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])


def request(port: int, method: str, body: str = "", session: str | None = None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    c.request(method, "/mcp", body=body, headers=headers)
    r = c.getresponse()
    r.read()
    c.close()
    return r


def main(proxy: str, server: str) -> None:
    p = subprocess.Popen([proxy, "--listen", "127.0.0.1:0", "--max-sessions", "200", "--", server],
                         stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    try:
        time.sleep(0.3)
        rss, threads = status(p.pid)
        print(f"no session:               {rss} KiB resident, {threads} threads")
        open_ = [request(port, "POST", INIT).getheader("mcp-session-id") for _ in range(100)]
        time.sleep(0.5)
        rss2, threads2 = status(p.pid)
        print(f"100 idle sessions:        {rss2} KiB resident, {threads2} threads "
              f"({(rss2 - rss) / 100:.0f} KiB a session)")
        for s in open_:
            request(port, "DELETE", session=s)
        for _ in range(1000):
            s = request(port, "POST", INIT).getheader("mcp-session-id")
            request(port, "DELETE", session=s)
        time.sleep(4)
        rss3, threads3 = status(p.pid)
        print(f"after 1100 sessions ended: {rss3} KiB resident, {threads3} threads")
    finally:
        p.terminate()
        p.wait(10)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
