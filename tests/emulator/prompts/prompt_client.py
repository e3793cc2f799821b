"""The official LangSmith Python client (`langsmith` from PyPI) reading the emulator's prompt hub.

Usage: prompt_client.py API_URL API_KEY WORKSPACE_ID IDENTIFIER...

For each identifier (`handle:tag`, `handle:<commit hash>`, `handle`), pulls the prompt with `pull_prompt` (a LangChain
prompt template, loaded by langchain-core) and prints what it renders from fixed variables; then lists the commits of
the first identifier's prompt with `list_prompt_commits`. Prints one JSON line per call, `{"call": ..., "result":
...}`; tests/emulator/prompts/http.test.ts judges them.
"""

import json
import sys

from langsmith import Client

api_url, api_key, workspace, *identifiers = sys.argv[1:]
client = Client(api_url=api_url, api_key=api_key, workspace_id=workspace)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


for identifier in identifiers:
    try:
        prompt = client.pull_prompt(identifier, skip_cache=True)
        variables = {name: f"<{name}>" for name in prompt.input_variables}
        say(f"pull {identifier}", {"class": type(prompt).__name__, "text": prompt.format(**variables)})
    except Exception as e:  # the class is what the test judges
        say(f"pull {identifier}", {"error": type(e).__name__, "message": str(e)[:300]})

handle = identifiers[0].split(":")[0]
say("list_prompt_commits", [c.commit_hash for c in client.list_prompt_commits(handle)])
