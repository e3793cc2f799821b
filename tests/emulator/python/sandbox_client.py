"""The official LangSmith sandbox client (`langsmith.sandbox.SandboxClient` from PyPI) against the emulator's sandboxes.

Usage: sandbox_client.py API_URL API_KEY

Builds a snapshot from an image (the client waits until it is `ready`), starts a sandbox from it, tries to delete the
snapshot (refused while the sandbox uses it), captures a snapshot from the sandbox, then deletes the sandbox and both
snapshots. Prints one JSON line per call, `{"call": ..., "result": ...}`; tests/emulator/sandboxes.test.ts judges them.
"""

import json
import sys

from langsmith.sandbox import SandboxClient

api_url, api_key = sys.argv[1:3]
client = SandboxClient(api_endpoint=f"{api_url}/api/v2/sandboxes", api_key=api_key, max_retries=0)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


snap = client.create_snapshot("py-base", "python:3.12-slim", 1024**3, timeout=30)
say("create_snapshot", {"id": snap.id, "status": snap.status})
box = client.create_sandbox(snapshot_id=snap.id, name="py-box", timeout=30)
say("create_sandbox", {"name": box.name, "status": getattr(box, "status", None)})
try:
    client.delete_snapshot(snap.id)
    say("delete_snapshot_in_use", "succeeded")
except Exception as e:  # the class and words are what the test judges
    say("delete_snapshot_in_use", {"error": type(e).__name__, "message": str(e)})
warm = client.capture_snapshot("py-box", "py-warm", timeout=30)
say("capture_snapshot", {"status": warm.status, "source_sandbox_id": getattr(warm, "source_sandbox_id", None)})
say("list_snapshots", sorted(s.name for s in client.list_snapshots()))
client.delete_sandbox("py-box")
client.delete_snapshot(warm.id)
client.delete_snapshot(snap.id)
say("after", sorted(s.name for s in client.list_snapshots()))
