"""The official LangSmith Python client (`langsmith` from PyPI) reading back what it traced, as a team's CI code does.

Usage: read_client.py API_URL API_KEY PROJECT

PROJECT, its dataset PROJECT-ds and a run rule copying its `lookup` runs into that dataset exist already
(tests/emulator/tracing/reads.test.ts makes them). Traces into PROJECT three `@traceable` traces of an `agent` with
a failing `llm` child and a `tool` child, and one `broken` trace whose root raises; 120 one-run traces into
PROJECT-many (more than a page). Then reads: `list_runs` by project and `error`, `is_root`, `run_type`, `filter`,
`trace_filter`, `tree_filter`, `trace_id`, `run_ids`, `select`, `limit`, over several pages; `read_run` with its
child runs; `runs.query` (the newer API); feedback it gives the runs with `list_feedback`; `list_projects` by ids, by
reference dataset, reference-free and by metadata; `list_examples` of the dataset the rule filled. Prints one JSON
line per call, `{"call": ..., "result": ...}`.
"""

import asyncio
import json
import sys
import urllib.request
import warnings

from langsmith import Client, get_current_run_tree, traceable, tracing_context

# list_runs and create_feedback without a project warn that the newer API replaces them: these are what CI code calls.
warnings.simplefilter("ignore")
api_url, api_key, project = sys.argv[1:4]
client = Client(api_url=api_url, api_key=api_key)
traced = []


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


def note(errs=False):
    run = get_current_run_tree()
    traced.append({"id": str(run.id), "name": run.name, "parent": str(run.parent_run_id) if run.parent_run_id else None,
                   "trace": str(run.trace_id), "error": errs})


@traceable(name="lookup", run_type="tool", tags=["tool"])
def lookup(q):
    note()
    return {"answer": q.upper()}


@traceable(name="fails", run_type="llm")
def fails(q):
    note(errs=True)
    raise ValueError(f"no model for {q}")


@traceable(name="agent", tags=["prod"])
def agent(q):
    note()
    try:
        fails(q)
    except ValueError:
        pass
    return lookup(q)


@traceable(name="broken")
def broken(q):
    note(errs=True)
    raise RuntimeError(f"broken on {q}")


@traceable(name="tick")
def tick(i):
    return i


with tracing_context(client=client, enabled=True, project_name=project):
    for q in ["one", "two", "three"]:
        agent(q)
    try:
        broken("four")
    except RuntimeError:
        pass
with tracing_context(client=client, enabled=True, project_name=project + "-many"):
    for i in range(120):
        tick(i)
client.flush()
say("traced", traced)


def ids(runs):
    return sorted(str(r.id) for r in runs)


say("error=True", ids(client.list_runs(project_name=project, error=True)))
say("error=False", ids(client.list_runs(project_name=project, error=False)))
say("is_root", ids(client.list_runs(project_name=project, is_root=True)))
say("run_type=llm", ids(client.list_runs(project_name=project, run_type="llm")))
say("filter", ids(client.list_runs(project_name=project, filter='has(tags, "tool")')))
say("trace_filter", ids(client.list_runs(project_name=project, filter='eq(run_type, "tool")', trace_filter='eq(name, "agent")')))
say("tree_filter", ids(client.list_runs(project_name=project, is_root=True, tree_filter='eq(name, "fails")')))
first_trace = next(t["trace"] for t in traced if t["name"] == "agent")
say("trace_id", ids(client.list_runs(trace_id=first_trace)))
some = [t["id"] for t in traced[:2]]
say("run_ids", ids(client.list_runs(run_ids=some)))
selected = list(client.list_runs(project_name=project, is_root=True, select=["name", "outputs", "error"]))
say("select", sorted(([r.name, r.outputs, r.error] for r in selected), key=json.dumps))
many = ids(client.list_runs(project_name=project + "-many"))
say("pages", [len(many), len(set(many))])
say("limit", len(list(client.list_runs(project_name=project + "-many", limit=5))))
root = client.read_run(first_trace, load_child_runs=True)
say("read_run load_child_runs", [root.name, sorted(c.name for c in root.child_runs)])

project_id = str(client.read_project(project_name=project).id)


async def query_v2():
    # This client's `runs` is the generated asynchronous resource: its pages are read with `async for`.
    pages = client.runs.query(project_ids=[project_id], has_error=True, selects=["ID", "NAME", "STATUS"])
    return sorted([[str(r.id), r.name, r.status] async for r in pages])


say("runs.query", asyncio.run(query_v2()))

by_name = {}
for t in traced:
    by_name.setdefault(t["name"], []).append(t["id"])
client.create_feedback(run_id=by_name["lookup"][0], key="correct", score=1)
client.create_feedback(run_id=by_name["fails"][0], key="correct", score=0)
client.create_feedback(run_id=by_name["lookup"][1], key="helpful", score=1, feedback_source_type="model")
feedback_runs = [by_name["lookup"][0], by_name["fails"][0], by_name["lookup"][1]]
say("list_feedback run_ids", sorted([str(f.run_id), f.key, f.score] for f in client.list_feedback(run_ids=feedback_runs)))
say("list_feedback key", sorted(str(f.run_id) for f in client.list_feedback(run_ids=feedback_runs, feedback_key=["helpful"])))
say("list_feedback source", sorted(str(f.run_id) for f in client.list_feedback(run_ids=feedback_runs, feedback_source_type=["model"])))
scored = client.list_runs(project_name=project, filter='and(eq(feedback_key, "correct"), eq(feedback_score, 1))')
say("feedback filter", [[str(r.id), r.feedback_stats["correct"]["n"], r.feedback_stats["correct"]["avg"]] for r in scored])

dataset = client.read_dataset(dataset_name=project + "-ds")
client.create_project(project + "-exp", reference_dataset_id=dataset.id)
client.create_project(project + "-meta", metadata={"team": project})
say("list_projects project_ids", sorted(p.name for p in client.list_projects(project_ids=[project_id])))
say("list_projects reference_dataset_id", sorted(p.name for p in client.list_projects(reference_dataset_id=dataset.id)))
say("list_projects reference_free", sorted(p.name for p in client.list_projects(name_contains=project, reference_free=True)))
say("list_projects metadata", sorted(p.name for p in client.list_projects(metadata={"team": project})))

# The rule copies each `lookup` run into the dataset once the engine has taken it (off the request's path).
urllib.request.urlopen(urllib.request.Request(api_url.rstrip("/") + "/__admin/evaluation/idle", method="POST"))
examples = list(client.list_examples(dataset_name=project + "-ds"))
say("list_examples", sorted(str(e.source_run_id) for e in examples))
first = examples[0].id
say("list_examples example_ids", [str(e.id) for e in client.list_examples(dataset_id=dataset.id, example_ids=[first])])
say("list_examples limit offset", len(list(client.list_examples(dataset_id=dataset.id, offset=1, limit=1))))
