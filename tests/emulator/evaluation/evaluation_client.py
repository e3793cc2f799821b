"""The official LangSmith Python client (`langsmith` from PyPI) on the emulator's feedback configs, annotation queues and feedback.

Usage: evaluation_client.py API_URL API_KEY WORKSPACE_ID KEY RUN_ID RUN_ID

With a feedback key not configured yet and two traced runs: makes the key's config (continuous, 0 to 1) and lists it
by key; makes a queue with a rubric item for the key, adds both runs, lists them, reads one by index, reads the queue,
lists queues by id; scores the first run (0.75, then 2: outside the range) and lists the run's feedback; takes the
second run out of the queue (by its run id, as the client sends it) and lists the queue again; deletes the config.
Prints one JSON line per call, `{"call": ..., "result": ...}`; tests/emulator/evaluation/http.test.ts judges them.
"""

import json
import sys
import warnings

from langsmith import Client

warnings.simplefilter("ignore")
api_url, api_key, workspace, key, first, second = sys.argv[1:]
client = Client(api_url=api_url, api_key=api_key, workspace_id=workspace)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


def attempt(call, fn):
    try:
        say(call, fn())
    except Exception as e:  # the class and words are what the test judges
        say(call, {"error": type(e).__name__, "message": str(e)[:400]})


made = client.create_feedback_config(key, feedback_config={"type": "continuous", "min": 0, "max": 1}, is_lower_score_better=True)
say("create_feedback_config", {"key": made.feedback_key, "config": dict(made.feedback_config), "lower": made.is_lower_score_better})
say("list_feedback_configs", [[c.feedback_key, dict(c.feedback_config)] for c in client.list_feedback_configs(feedback_key=[key])])

queue = client.create_annotation_queue(
    name=f"review {key}",
    description="what reviewers check",
    rubric_instructions="score it",
    rubric_items=[{"feedback_key": key, "description": "is it right"}],
)
client.add_runs_to_annotation_queue(queue.id, run_ids=[first, second])
say("list_runs_from_annotation_queue", [str(r.id) for r in client.list_runs_from_annotation_queue(queue.id)])
say("get_run_from_annotation_queue", str(client.get_run_from_annotation_queue(queue.id, index=1).id))
read = client.read_annotation_queue(queue.id)
say("read_annotation_queue", {"name": read.name, "rubric": [i["feedback_key"] if isinstance(i, dict) else i.feedback_key for i in read.rubric_items or []]})
say("list_annotation_queues", [[q.name, str(q.id)] for q in client.list_annotation_queues(queue_ids=[queue.id])])

attempt("create_feedback 0.75", lambda: client.create_feedback(first, key, score=0.75, comment="fine").score)
attempt("create_feedback 2", lambda: client.create_feedback(first, key, score=2, stop_after_attempt=1).score)
say("list_feedback", [[f.key, f.score] for f in client.list_feedback(run_ids=[first], feedback_key=[key])])

client.delete_run_from_annotation_queue(queue.id, run_id=second)
say("after delete_run_from_annotation_queue", [str(r.id) for r in client.list_runs_from_annotation_queue(queue.id)])
client.delete_feedback_config(key)
say("after delete_feedback_config", [c.feedback_key for c in client.list_feedback_configs(feedback_key=[key])])
