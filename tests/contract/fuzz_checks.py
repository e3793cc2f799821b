"""The checks the fuzzer (fuzz.py) adds to schemathesis's own, loaded through SCHEMATHESIS_HOOKS.

- ``served_not_a_server_error``: no 5xx, and no 501 either: the fuzzer runs only the operations the provider calls
  (fuzzed.json), and the emulator answers each of them with its own handler; its 501 for what it does not emulate
  (emulator/COVERAGE.md) on one of them means the operation is not reached (a path the emulator does not route).
- ``valid_data_not_refused_as_invalid``: data the description allows is never refused as malformed (422), except for
  a rule of the service's own that no schema can say (``value_error``: an end before a start, an email without @)
  and a field the description does not declare (the emulator refuses unknown fields, as docs/service.md decides).
  A 422 for a declared field, a type, a length or a value the description allows means the emulator is stricter
  than the service: the description wins.
"""

import json
import os

import schemathesis

# The description the run judges by (fuzz.py sets it): where a 422's location is looked up.
_DOC = json.load(open(os.environ["LANGSMITH_FUZZ_DESCRIPTION"])) if os.environ.get("LANGSMITH_FUZZ_DESCRIPTION") else {}


@schemathesis.check
def served_not_a_server_error(ctx, response, case):
    if response.status_code == 501:
        raise AssertionError(
            f"501 for {case.method} {case.formatted_path}: the provider calls {case.operation.label} (fuzzed.json), "
            f"the emulator must answer it with its handler: {response.text[:300]}"
        )
    if response.status_code >= 500:
        raise AssertionError(f"Server error {response.status_code}: {response.text[:300]}")


@schemathesis.check
def valid_data_not_refused_as_invalid(ctx, response, case):
    if response.status_code != 422 or (case.meta and case.meta.generation.mode.is_negative):
        return
    try:
        errors = response.json().get("detail") or []
    except ValueError:
        raise AssertionError(f"422 whose body is not JSON: {response.text[:200]}")
    body = case.operation.definition.raw.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    wrong = [e for e in errors if not _allowed(e, body)]
    if wrong:
        raise AssertionError(f"422 for data the description allows: {json.dumps(wrong)[:400]}")


def _allowed(error, body_schema):
    kind = error.get("type")
    if kind == "value_error":
        return True
    loc = error.get("loc") or []
    if kind == "extra_forbidden" and loc[:1] == ["body"]:
        return not _declared(body_schema, loc[1:])
    return False


def _declared(schema, path):
    """Whether the field at `path` (keys and indexes below the body) is one the schema declares."""
    for step in path:
        schema = _resolve(schema)
        if schema is None:
            return False
        if isinstance(step, int):
            schema = _first(schema, lambda s: s.get("items")) or {}
            schema = schema.get("items")
            continue
        props = _first(schema, lambda s: s.get("properties") and step in s["properties"])
        if props is None:
            return False
        schema = props["properties"][step]
    return True


def _first(schema, test):
    for s in _branches(schema):
        if test(s):
            return s
    return None


def _branches(schema):
    schema = _resolve(schema) or {}
    members = schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", [])
    return [b for m in members for b in _branches(m)] if members else [schema]


def _resolve(schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = _DOC
        for token in schema["$ref"].lstrip("#/").split("/"):
            node = node.get(token.replace("~1", "/").replace("~0", "~"), {})
        schema = node
    return schema if isinstance(schema, dict) else None
