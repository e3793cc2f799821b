"""The official Python client (`langgraph-sdk` from PyPI) against an emulated agent server: each call a
client makes, its answer printed as one JSON line `{"call": ..., "result": ...}` for
tests/emulator/agentServer.python.test.ts to judge: runs, threads, assistants with their versions, crons
(which fire once the emulator's clock is pushed an hour on). Usage:
agent_client.py <agent server url> <api key> <emulator url> <assistant id>."""
import asyncio
import json
import sys

import httpx
from langgraph_sdk import get_client


def human(text):
    return {"messages": [{"role": "user", "content": text}]}


def emit(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


async def main(url, api_key, emulator, assistant_id):
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
    system = await client.assistants.search(graph_id="agent", metadata={"created_by": "system"})
    emit("assistants.search", system)
    emit("assistants.get", await client.assistants.get(system[0]["assistant_id"]))
    await assistants(client, assistant_id)
    await crons(client, emulator, assistant_id)


async def assistants(client, aid):
    emit("assistants.create", await client.assistants.create(
        "agent", {"tags": ["py"]}, assistant_id=aid, if_exists="raise", name="py assistant", metadata={"owner": "py"}))
    emit("assistants.update", await client.assistants.update(aid, config={"tags": ["py2"]}, metadata={"stage": "two"}))
    emit("assistants.get_versions", await client.assistants.get_versions(aid))
    emit("assistants.set_latest", await client.assistants.set_latest(aid, 1))
    emit("assistants.search owner", await client.assistants.search(metadata={"owner": "py"}))
    emit("assistants.count owner", await client.assistants.count(metadata={"owner": "py"}))


async def crons(client, emulator, aid):
    thread = await client.threads.create()
    tid = thread["thread_id"]
    on_thread = await client.crons.create_for_thread(tid, aid, schedule="*/10 * * * *", input=human("tick tock"), metadata={"kind": "thread"})
    stateless = await client.crons.create(aid, schedule="0 * * * *", input=human("hourly"), on_run_completed="keep", metadata={"kind": "stateless"})
    emit("crons.create_for_thread", on_thread)
    emit("crons.create", stateless)
    emit("crons.update", await client.crons.update(stateless["cron_id"], metadata={"v": 2}, timezone="Europe/Paris"))
    emit("crons.search", await client.crons.search(assistant_id=aid, sort_by="created_at", sort_order="asc"))
    emit("crons.count", await client.crons.count(assistant_id=aid))
    async with httpx.AsyncClient() as admin:
        (await admin.post(f"{emulator}/__admin/clock/advance", json={"ms": 3_600_000})).raise_for_status()
    emit("crons.runs", await client.runs.list(tid, limit=20))
    emit("crons.kept threads", await client.threads.search(metadata={"kind": "stateless"}))
    await client.crons.delete(on_thread["cron_id"])
    emit("crons.count after delete", await client.crons.count(assistant_id=aid))
    await client.assistants.delete(aid)
    emit("crons.count after assistant delete", await client.crons.count())


asyncio.run(main(*sys.argv[1:5]))
