"""Traces runs into a LangSmith endpoint with the official Python client (`langsmith`), as an application
would: `traces` calls of a `@traceable` RAG chain with three children (a retriever, an LLM call with token
usage, a tool), so four runs per trace, sent by the client's own background batching (multipart, zstd
when the server's /info allows it and LANGSMITH_DISABLE_RUN_COMPRESSION is not set). Prints one JSON
line: the runs made, the seconds from the first run created to `client.flush()` returning, and the
transport. Usage: trace_runs.py <url> <api key> <project> <traces>; for bench/tracedRuns.ts."""
import json
import sys
import time

from langsmith import Client, traceable

url, api_key, project, traces = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
client = Client(api_url=url, api_key=api_key)


@traceable(run_type="retriever", name="retrieve")
def retrieve(question):
    return [{"page_content": f"passage {i} on {question}", "metadata": {"source": f"kb/doc-{i}.md"}} for i in range(3)]


@traceable(run_type="llm", name="ChatOpenAI", metadata={"ls_provider": "openai", "ls_model_name": "gpt-4o-mini"})
def chat(question, docs):
    content = f"From {len(docs)} passages: the answer to {question!r}."
    return {
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage_metadata": {"input_tokens": 180 + len(question), "output_tokens": 42, "total_tokens": 222 + len(question)},
    }


@traceable(run_type="tool", name="format_answer")
def format_answer(reply):
    return reply["choices"][0]["message"]["content"].strip()


@traceable(run_type="chain", name="rag")
def rag(question):
    return format_answer(chat(question, retrieve(question)))


client.info  # the /info read (batching and compression settings) happens before the clock starts
started = time.perf_counter()
for i in range(traces):
    extra = {"client": client, "project_name": project, "metadata": {"user_id": f"user-{i % 50}"}, "tags": ["bench"]}
    rag(f"question {i}", langsmith_extra=extra)
client.flush()
seconds = time.perf_counter() - started
transport = "multipart+zstd" if client.compressed_traces is not None else "multipart"
print(json.dumps({"runs": traces * 4, "seconds": seconds, "transport": transport}), flush=True)
