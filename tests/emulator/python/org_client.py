"""The official LangSmith Python clients (`langsmith` from PyPI) against the emulator with a service key made through it.

Usage: org_client.py API_URL API_KEY WORKSPACE_ID use|denied

`use`: the classic `Client`, given no workspace id (the key's own workspace is meant), makes, reads and lists a
tracing project; the generated `Langsmith` client, given the workspace id, upserts, lists and deletes a
workspace secret. `denied`: the same first calls, each expected to fail; prints the error's class and status.
Prints one JSON line per call, `{"call": ..., "result": ...}`; tests/emulator/org.clients.test.ts judges them.
"""

import json
import sys

from langsmith import Client, Langsmith

api_url, api_key, workspace, mode = sys.argv[1:5]
classic = Client(api_url=api_url, api_key=api_key)
generated = Langsmith(api_key=api_key, base_url=api_url, tenant_id=workspace, max_retries=0)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


def failure(call, fn):
    try:
        fn()
        say(call, "succeeded")
    except Exception as e:  # the class and status are what the test judges
        say(call, {"error": type(e).__name__, "status": getattr(getattr(e, "response", None), "status_code", None)})


if mode == "use":
    made = classic.create_project("org-client-project", description="made with a service key")
    say("create_project", {"id": str(made.id), "tenant_id": str(made.tenant_id)})
    say("read_project", classic.read_project(project_name="org-client-project").name)
    say("list_projects", sorted(p.name for p in classic.list_projects()))
    generated.workspace_secrets.upsert("OPENAI_API_KEY", value="sk-from-python")
    say("secrets_after_upsert", [s.key for s in generated.workspace_secrets.list()])
    generated.workspace_secrets.delete("OPENAI_API_KEY")
    say("secrets_after_delete", [s.key for s in generated.workspace_secrets.list()])
else:
    failure("list_projects", lambda: list(classic.list_projects()))
    failure("secrets_list", lambda: generated.workspace_secrets.list())
