"""The official LangSmith Python client (`langsmith` from PyPI) keeping a golden dataset, as an evaluation team does.

Usage: examples_client.py API_URL API_KEY DATASET_NAME

Makes the dataset and three examples (two in `train`, one in `test`), tags that version `prod`, then changes one,
deletes one and adds one; reads the examples `as_of="prod"`, as of the first version's time, and now; the splits
then and now; the versions; moves `prod` to the latest version and reads it again; shares the dataset and reads it
by its token. Prints one JSON line per call, `{"call": ..., "result": ...}`.
"""

import json
import sys
import warnings

from langsmith import Client

warnings.simplefilter("ignore")
api_url, api_key, name = sys.argv[1:4]
client = Client(api_url=api_url, api_key=api_key)


def say(call, result):
    print(json.dumps({"call": call, "result": result}, default=str), flush=True)


def questions(**kwargs):
    return sorted(e.inputs["q"] for e in client.list_examples(dataset_id=dataset.id, **kwargs))


dataset = client.create_dataset(name)
made = client.create_examples(
    dataset_id=dataset.id,
    examples=[
        {"inputs": {"q": "a"}, "outputs": {"a": 1}, "split": "train"},
        {"inputs": {"q": "b"}, "outputs": {"a": 2}, "split": "train"},
        {"inputs": {"q": "c"}, "outputs": {"a": 3}, "split": "test"},
    ],
)
say("created", made["count"])
versions = list(client.list_dataset_versions(dataset_id=dataset.id))
say("versions after create", len(versions))
v1 = versions[0].as_of
client.update_dataset_tag(dataset_id=dataset.id, as_of=v1, tag="prod")
ids = {e.inputs["q"]: e.id for e in client.list_examples(dataset_id=dataset.id)}
client.update_example(ids["a"], inputs={"q": "a2"}, outputs={"a": 10})
client.delete_example(ids["b"])
client.create_examples(dataset_id=dataset.id, examples=[{"inputs": {"q": "d"}, "outputs": {"a": 4}}])
say("prod", questions(as_of="prod"))
say("v1 by time", questions(as_of=v1))
say("latest", questions())
say("train at prod", questions(as_of="prod", splits=["train"]))
say("splits at prod", sorted(client.list_dataset_splits(dataset_id=dataset.id, as_of="prod")))
say("splits now", sorted(client.list_dataset_splits(dataset_id=dataset.id)))
say("versions", len(list(client.list_dataset_versions(dataset_id=dataset.id))))
latest = client.read_dataset_version(dataset_id=dataset.id, as_of=None, tag="prod")
say("prod version", str(latest.as_of) == str(v1))
client.update_dataset_tag(dataset_id=dataset.id, as_of=list(client.list_dataset_versions(dataset_id=dataset.id))[0].as_of, tag="prod")
say("prod moved", questions(as_of="prod"))
say("count", client.read_dataset(dataset_id=dataset.id).example_count)
share = client.share_dataset(dataset_id=dataset.id)
say("shared", sorted(e.inputs["q"] for e in client.list_shared_examples(share["share_token"])))
say("shared dataset", client.read_shared_dataset(share["share_token"]).name)
client.unshare_dataset(dataset.id)
try:
    list(client.list_shared_examples(share["share_token"]))
    say("unshared", "still readable")
except Exception as e:  # noqa: BLE001: the refusal's words are the result
    say("unshared", type(e).__name__)
