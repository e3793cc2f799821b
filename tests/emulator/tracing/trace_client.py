"""The official LangSmith Python client (`langsmith` from PyPI) against the emulator, as a user's code calls it.

Usage: trace_client.py API_URL API_KEY WORKSPACE_ID|- PROJECT

Traces into PROJECT with the client's default transport (multipart, compressed when /info says so):
three `@traceable` traces of a parent with two children, one of which raises, and one run made by
`create_run`/`update_run` without a trace id (the non-batch `POST /runs` and `PATCH /runs/{id}`). Then
makes, reads, lists, upserts and deletes projects and datasets. Prints one JSON line per call,
`{"call": ..., "result": ...}`; tests/emulator/tracing/clients.test.ts judges them.
"""

import datetime
import json
import sys
import uuid

from langsmith import Client, get_current_run_tree, traceable, tracing_context

api_url, api_key, workspace, project = sys.argv[1:5]
client = Client(api_url=api_url, api_key=api_key, workspace_id=None if workspace == "-" else workspace)
traced = []


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


def note():
    run = get_current_run_tree()
    traced.append({"id": str(run.id), "name": run.name, "parent": str(run.parent_run_id) if run.parent_run_id else None, "trace": str(run.trace_id)})


@traceable(name="lookup", run_type="tool", tags=["tool"])
def lookup(q):
    note()
    return {"answer": q.upper()}


@traceable(name="fails", run_type="llm")
def fails(q):
    note()
    raise ValueError(f"no model for {q}")


@traceable(name="agent", tags=["prod"], metadata={"customer": "acme"})
def agent(q):
    note()
    try:
        fails(q)
    except ValueError:
        pass
    return lookup(q)


with tracing_context(client=client, enabled=True, project_name=project):
    for q in ["one", "two", "three"]:
        agent(q)

plain = uuid.uuid4()
client.create_run("plain", {"q": "hi"}, "chain", id=plain, project_name=project, tags=["plain"], extra={"metadata": {"k": "v"}})
client.update_run(plain, outputs={"a": "yo"}, end_time=datetime.datetime.now(datetime.timezone.utc))
traced.append({"id": str(plain), "name": "plain", "parent": None, "trace": str(plain)})
client.flush()
say("traced", traced)

read = client.read_project(project_name=project)
say("read_project by name", {"id": str(read.id), "name": read.name, "tenant_id": str(read.tenant_id), "run_count": read.run_count})
say("read_project by id", client.read_project(project_id=str(read.id)).name)
say("has_project", [client.has_project(project), client.has_project(project + "-missing")])

made = client.create_project(project + "-crud", description="d", metadata={"m": 1})
again = client.create_project(project + "-crud", description="d2", upsert=True)
say("create_project upsert", {"same": again.id == made.id, "description": again.description})
experiment = client.create_project(project + "-exp", num_examples=3, num_repetitions=1, evaluator_keys=["accuracy"])
say("list_projects name_contains", sorted(p.name for p in client.list_projects(name_contains=project + "-")))

dataset = client.create_dataset(project + "-ds", description="dd", metadata={"x": 1})
say("read_dataset", {"by_name": str(client.read_dataset(dataset_name=project + "-ds").id) == str(dataset.id), "description": dataset.description})
client.delete_dataset(dataset_name=project + "-ds")
client.delete_project(project_name=project + "-crud")
client.delete_project(project_id=str(experiment.id))
say("after deletes", sorted(p.name for p in client.list_projects(name_contains=project + "-")))
