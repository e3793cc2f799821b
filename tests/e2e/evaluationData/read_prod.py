"""The official LangSmith Python client reading a golden dataset as an experiment pins it, for tests/e2e/evaluationData.test.ts.

Usage: read_prod.py API_URL API_KEY WORKSPACE_ID DATASET_ID [AS_OF]

Prints one JSON object: `prod`, the examples `as_of="prod"`, and `at`, those as of the time AS_OF (when given), each
example as `{question, answer}`, sorted by question.
"""

import datetime
import json
import sys
import warnings

from langsmith import Client

warnings.simplefilter("ignore")
api_url, api_key, workspace, dataset = sys.argv[1:5]
client = Client(api_url=api_url, api_key=api_key, workspace_id=workspace)


def rows(as_of):
    found = client.list_examples(dataset_id=dataset, as_of=as_of)
    return sorted(({"question": e.inputs["question"], "answer": (e.outputs or {}).get("answer")} for e in found), key=lambda r: r["question"])


out = {"prod": rows("prod")}
if len(sys.argv) > 5:
    out["at"] = rows(datetime.datetime.fromisoformat(sys.argv[5].replace("Z", "+00:00")))
print(json.dumps(out))
