"""The official LangSmith Python client traces a support bot into a project and reads what the project's run rule
did with the runs: the runs in the annotation queue and the scores under the feedback key (tests/emulator/evaluation/rules.test.ts, tests/e2e/evaluation.test.ts).

Usage: rules_client.py API_URL API_KEY WORKSPACE_ID PROJECT QUEUE_ID KEY

Traces three questions, each a chain (`answer`) calling an LLM run (`model`): a short answer, a long one, a short
one. Waits (up to 60 s) until the queue holds every LLM run traced, then prints one JSON line:
{"llm": [ids], "chains": [ids], "queued": [ids], "scores": {run_id: score}}.
"""

import json
import sys
import time

from langsmith import Client, traceable, tracing_context

api_url, api_key, workspace, project, queue_id, key = sys.argv[1:7]
client = Client(api_url=api_url, api_key=api_key, workspace_id=workspace)
llm, chains = [], []


@traceable(name="model", run_type="llm")
def model(question, long):
    from langsmith import get_current_run_tree

    llm.append(str(get_current_run_tree().id))
    return {"answer": ("A long answer that goes on and on about " + question) if long else "Yes."}


@traceable(name="answer", run_type="chain")
def answer(question, long=False):
    from langsmith import get_current_run_tree

    chains.append(str(get_current_run_tree().id))
    return model(question, long)


with tracing_context(client=client, enabled=True, project_name=project):
    answer("can I get a refund?")
    answer("how do I reset my password?", long=True)
    answer("do you ship abroad?")
client.flush()

queued, scores = [], {}
deadline = time.time() + 60
while time.time() < deadline:
    queued = [str(r.id) for r in client.list_runs_from_annotation_queue(queue_id)]
    scores = {str(f.run_id): f.score for f in client.list_feedback(run_ids=llm + chains, feedback_key=[key])}
    if set(llm) <= set(queued) and set(llm) <= set(scores):
        break
    time.sleep(0.5)
print(json.dumps({"llm": llm, "chains": chains, "queued": queued, "scores": scores}))
