"""The official Python client (`langgraph-sdk` from PyPI) reads what a Pulumi program made on an agent server:
the assistant, its versions, the crons running it and the runs they started, printed as one JSON object for
tests/e2e/agentObjects.test.ts to judge. Usage: agent_objects_judge.py <agent server url> <api key> <assistant id>."""
import asyncio
import json
import sys

from langgraph_sdk import get_client
from langgraph_sdk.errors import NotFoundError


async def main(url, api_key, assistant_id):
    client = get_client(url=url, api_key=api_key)
    try:
        assistant = await client.assistants.get(assistant_id)
    except NotFoundError:
        print(json.dumps({"assistant": None}))
        return
    versions = await client.assistants.get_versions(assistant_id)
    crons = await client.crons.search(assistant_id=assistant_id)
    runs = []
    for thread in await client.threads.search(limit=100):
        runs += [r for r in await client.runs.list(thread["thread_id"]) if r["assistant_id"] == assistant_id]
    print(json.dumps({"assistant": assistant, "versions": versions, "crons": crons, "runs": runs}, default=str))


asyncio.run(main(*sys.argv[1:4]))
