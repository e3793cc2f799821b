"""The official Python client (`langgraph-sdk` from PyPI) against an emulated agent server: each call a
client makes, its answer printed as one JSON line `{"call": ..., "result": ...}` for
tests/emulator/agentServer.python.test.ts to judge. Usage: agent_client.py <agent server url> <api key>."""
import asyncio
import json
import sys

from langgraph_sdk import get_client


def human(text):
    return {"messages": [{"role": "user", "content": text}]}


def emit(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


async def main(url, api_key):
    client = get_client(url=url, api_key=api_key)
    thread = await client.threads.create(metadata={"user": "py"})
    tid = thread["thread_id"]
    emit("runs.wait", await client.runs.wait(tid, "agent", input=human("one two three")))
    emit("runs.wait stateless", await client.runs.wait(None, "agent", input=human("four five")))
    parts = []
    async for part in client.runs.stream(tid, "agent", input=human("six seven eight"), stream_mode=["values", "updates", "messages"]):
        parts.append({"event": part.event, "data": part.data})
    emit("runs.stream", parts)
    stateless = [p.event async for p in client.runs.stream(None, "agent", input=human("nine"), stream_mode="updates")]
    emit("runs.stream stateless", stateless)
    # An interrupted run's stream: a second run with multitask_strategy interrupt stops the first.
    first = []
    async def read_first():
        async for part in client.runs.stream(tid, "agent", input=human(" ".join(f"w{i}" for i in range(40))), stream_mode="messages"):
            first.append({"event": part.event, "data": part.data})
    reader = asyncio.create_task(read_first())
    while not any(p["event"] == "messages/partial" for p in first):
        await asyncio.sleep(0.01)
    await client.runs.wait(tid, "agent", input=human("stop"), multitask_strategy="interrupt")
    await asyncio.wait_for(reader, 10)
    emit("runs.stream interrupted", first)
    emit("runs.list", await client.runs.list(tid, limit=3))
    emit("runs.list interrupted", await client.runs.list(tid, status="interrupted"))
    emit("threads.search", await client.threads.search(metadata={"user": "py"}))
    emit("assistants.search", await client.assistants.search(graph_id="agent"))
    emit("assistants.get", await client.assistants.get("agent"))


asyncio.run(main(sys.argv[1], sys.argv[2]))
