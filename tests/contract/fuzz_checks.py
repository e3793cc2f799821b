"""The checks the fuzzer (fuzz.py) adds to schemathesis's own, loaded through SCHEMATHESIS_HOOKS.

- ``served_not_a_server_error``: no 5xx, and no 501 either: the fuzzer runs only the operations the provider calls
  (fuzzed.json), and the emulator answers each of them with its own handler; its 501 for what it does not emulate
  (emulator/COVERAGE.md) on one of them means the operation is not reached (a path the emulator does not route).
- ``valid_data_not_refused_as_invalid``: data the description allows is never refused as malformed (422, or a
  platform operation's 400 naming the fields), except for a rule of the service's own that no schema can say
  (``value_error``: an end before a start, an email without @), a field the description does not declare (the
  emulator refuses unknown fields, as docs/service.md decides) and the refusals docs/service.md decides (``DECIDED``).
  A 422 for a declared field, a type, a length or a value the description allows means the emulator is stricter
  than the service: the description wins.
"""

import json
import os
import re

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


# Refusals docs/service.md decides where the description is silent (it requires no field), by operation: an access
# policy needs a name, an effect `allow` or `deny`, a condition group and a condition, each condition a key and value
# of `resource_tag_key` compared by `equals` or `not_equals`, on a kind of object that takes tags (R13.8).
# A data plane needs its name, region, role and external id, none empty (R17.1: the description calls the external id
# "Required" and requires nothing).
# A gateway policy needs a name, a type of the five, its matchers (at least one, each a key and value) and its config;
# its action is `block` (docs/service.md R19.1).
DECIDED = {
    "POST /v1/platform/orgs/current/access-policies": {"missing", "too_small", "invalid_value"},
    "POST /orgs/current/data-planes": {"missing", "too_small"},
    # R18: a tool's name, a server's name and URL, each header's name and value, a feature's model and a per-user
    # OAuth client's user are needed and not empty (the description requires none of the last four).
    "POST /v1/platform/tools": {"too_small"},
    "PATCH /v1/platform/tools/id/{id}": {"too_small"},
    "POST /v1/platform/fleet/mcp-servers": {"missing", "too_small", "invalid_type"},
    "PATCH /v1/platform/fleet/mcp-servers/{mcp_server_id}": {"missing", "too_small", "invalid_type"},
    "POST /v1/platform/fleet/mcp-servers/{mcp_server_id}/oauth-provider": {"missing", "too_small"},
    "PUT /v1/platform/features/{feature}/default-model": {"missing", "too_small"},
    "PUT /v1/platform/features/{feature}/disabled-models": {"missing", "too_small"},
    "POST /v1/platform/gateway-policies": {"missing", "too_small", "invalid_value"},
    "PATCH /v1/platform/gateway-policies/{id}": {"missing", "too_small", "invalid_value"},
}


@schemathesis.check
def valid_data_not_refused_as_invalid(ctx, response, case):
    if response.status_code not in (400, 422) or (case.meta and case.meta.generation.mode.is_negative):
        return
    try:
        errors = _refusals(response.status_code, response.json())
    except ValueError:
        raise AssertionError(f"{response.status_code} whose body is not JSON: {response.text[:200]}")
    body = case.operation.definition.raw.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    decided = DECIDED.get(case.operation.label, set())
    wrong = [e for e in errors if not (_allowed(e, body) or e.get("type") in decided)]
    if wrong:
        raise AssertionError(f"{response.status_code} for data the description allows: {json.dumps(wrong)[:400]}")


# A platform operation's 400 for what the schemas refuse (emulator/core/errors.ts asPlatformError):
# `{"error": "body.name: Field required (missing); ..."}`, one `location: words (type)` per field.
_PLATFORM_REFUSAL = re.compile(r"^((?:body|query|path)(?:\.[^:\s]+)*): (.*) \((\w+)\)$")


def _refusals(status, body):
    """The refusals, each `{loc, msg, type}`: a 422's `detail`, or those a platform operation's 400 words carry."""
    if not isinstance(body, dict):
        return []
    if status == 422:
        return body.get("detail") or []
    parts = [_PLATFORM_REFUSAL.match(p) for p in str(body.get("error", "")).split("; ")]
    if not all(parts):
        return []  # a rule of the service's own, in words (a name held, a child of the wrong type)
    return [{"loc": [int(s) if s.isdigit() else s for s in m.group(1).split(".")], "msg": m.group(2), "type": m.group(3)} for m in parts]


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
