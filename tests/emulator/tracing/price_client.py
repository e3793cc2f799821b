"""The official LangSmith Python client (`langsmith` from PyPI) tracing an LLM call with its token usage, as cost tracking asks.

Usage: price_client.py API_URL API_KEY PROJECT MODEL

Traces into PROJECT one `@traceable(run_type="llm")` call whose metadata names `ls_provider` `openai` and
`ls_model_name` MODEL and whose usage (27 input tokens of which 10 read from the cache, 13 output tokens) it sets with
`run.set(usage_metadata=...)`, as the service's cost tracking guide shows; then reads the run back with `read_run` and
`list_runs`. Prints one JSON line per call, `{"call": ..., "result": ...}`: the run's id, and what each read says of its
tokens and costs (costs as the text of the client's Decimal).
"""

import json
import sys
import warnings

from langsmith import Client, get_current_run_tree, traceable, tracing_context

warnings.simplefilter("ignore")
api_url, api_key, project, model = sys.argv[1:5]
client = Client(api_url=api_url, api_key=api_key)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


@traceable(run_type="llm", name="chat", client=client, project_name=project,
           metadata={"ls_provider": "openai", "ls_model_name": model})
def chat(messages):
    run = get_current_run_tree()
    run.set(usage_metadata={"input_tokens": 27, "output_tokens": 13, "total_tokens": 40,
                            "input_token_details": {"cache_read": 10}})
    say("run_id", str(run.id))
    return {"role": "assistant", "content": "A table for two at eight."}


def costs(run):
    return [run.prompt_tokens, run.completion_tokens, run.total_tokens,
            None if run.prompt_cost is None else str(run.prompt_cost),
            None if run.completion_cost is None else str(run.completion_cost),
            None if run.total_cost is None else str(run.total_cost)]


with tracing_context(enabled=True):
    chat([{"role": "user", "content": "I'd like to book a table for two."}])
client.flush()
runs = list(client.list_runs(project_name=project, run_type="llm"))
say("list_runs", [costs(r) for r in runs])
say("read_run", costs(client.read_run(runs[0].id)))
