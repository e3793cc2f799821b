"""A property-based run of LangSmith's own OpenAPI descriptions against a running emulator (schemathesis).

Over the operations the provider calls (fuzzed.json; the contract check fails a call of our clients that is not
listed there), it sends what the descriptions allow (and, for robustness, what they do not), with a fixed seed so
that a run can be repeated, and fails on:
- a server error, 501 included (every operation fuzzed is one the emulator serves: fuzz_checks.py);
- an answer whose body does not fit the description's schema for its status;
- data the description allows refused as malformed (fuzz_checks.py).

Each description is fuzzed from a copy with these changes: a property's `{"$ref": ".../Missing"}` alternative is
dropped (it stands for "absent" in the service's framework, a default of `{"__missing__": ...}`, not for a value
a client sends); an operation without an operationId gets one; a path parameter its template names and the
operation omits is declared a string (`named`).

    python tests/contract/fuzz.py --url http://127.0.0.1:8787 --api-key KEY --tenant WORKSPACE_ID [--seed N] [--max-examples N] [--only REGEX]

Prints schemathesis's summary per description and exits 1 when any check failed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = "response_schema_conformance,served_not_a_server_error,valid_data_not_refused_as_invalid"


def without_missing(node):
    """The description with every `Missing` alternative of an `anyOf` dropped."""
    if isinstance(node, list):
        return [without_missing(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: without_missing(v) for k, v in node.items()}
    if "anyOf" in out:
        out["anyOf"] = [m for m in out["anyOf"] if not (isinstance(m, dict) and m.get("$ref", "").endswith("/Missing"))]
        if isinstance(out.get("default"), dict) and "__missing__" in out["default"]:
            del out["default"]
    return out


def named(doc):
    """The description with an operationId for each operation that has none (the prompt hub's commits), so that it
    can be selected like the others, and each path parameter its template names declared (the reads of a prompt's
    tags omit `owner`), which schemathesis refuses to run without."""
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if not (isinstance(op, dict) and "responses" in op):
                continue
            if "operationId" not in op:
                op["operationId"] = f"{method}_{path}".replace("/", "_").replace("{", "").replace("}", "")
            declared = {p.get("name") for p in op.get("parameters", []) if p.get("in") == "path"}
            for name in re.findall(r"\{([^}]+)\}", path):
                if name not in declared:
                    op.setdefault("parameters", []).append({"name": name, "in": "path", "required": True, "schema": {"type": "string"}})
    return doc


def operation_ids(doc, keys):
    ids = []
    for key in keys:
        method, path = key.split(" ", 1)
        op = doc["paths"].get(path, {}).get(method.lower())
        if op is None:
            sys.exit(f"fuzzed.json names {key}, which the description lacks")
        ids.append(op["operationId"])
    return ids


def fuzz(name, keys, args, workdir):
    doc = named(without_missing(json.load(open(os.path.join(HERE, "descriptions", f"{name}.openapi.json")))))
    path = os.path.join(workdir, f"{name}.openapi.json")
    json.dump(doc, open(path, "w"))
    command = [
        os.path.join(os.path.dirname(sys.executable), "schemathesis"), "run", path, "--url", args.url,
        "--checks", CHECKS, "--exclude-checks", "not_a_server_error",
        "--phases", "examples,coverage,fuzzing", "--mode", "all",
        "--max-examples", str(args.max_examples), "--seed", str(args.seed), "--workers", "1",
        "--generation-database", "none", "--no-color",
        "--header", f"X-Api-Key: {args.api_key}", "--header", f"X-Tenant-Id: {args.tenant}",
    ]
    for op_id in operation_ids(doc, keys):
        command += ["--include-operation-id", op_id]
    env = {**os.environ, "PYTHONPATH": HERE, "SCHEMATHESIS_HOOKS": "fuzz_checks", "LANGSMITH_FUZZ_DESCRIPTION": path}
    run = subprocess.run(command, env=env, capture_output=True, text=True, cwd=workdir)
    summary = run.stdout[run.stdout.find("= FAILURES ="):] if "= FAILURES =" in run.stdout else run.stdout[run.stdout.find("= SUMMARY ="):]
    print(f"--- {name}: {len(keys)} operations, seed {args.seed}, at most {args.max_examples} examples each\n{summary.strip()}")
    if run.returncode not in (0, 1):
        print(run.stderr[-3000:], file=sys.stderr)
    return run.returncode


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", required=True)
    p.add_argument("--api-key", required=True)
    p.add_argument("--tenant", required=True)
    p.add_argument("--seed", type=int, default=20261126)
    # 10 random examples per operation on top of the coverage phase's boundary cases: 25 found no more of the bugs the
    # fuzzer has found (the emulator before edec913 and before 518f729 fail the same operations at 10), and cost CI time.
    p.add_argument("--max-examples", type=int, default=10)
    p.add_argument("--only", help="a regular expression: fuzz only the operations (`METHOD path`) it matches")
    args = p.parse_args()
    operations = json.load(open(os.path.join(HERE, "fuzzed.json")))
    if args.only:
        operations = {d: [k for k in keys if re.search(args.only, k)] for d, keys in operations.items()}
        operations = {d: keys for d, keys in operations.items() if keys}
    with tempfile.TemporaryDirectory(prefix="langsmith-fuzz-") as workdir:
        codes = [fuzz(name, keys, args, workdir) for name, keys in operations.items()]
    sys.exit(0 if all(c == 0 for c in codes) else 1)


if __name__ == "__main__":
    main()
