"""Benchmark program (npm run bench chaos): `chaos:units` units of ten resources, one of each of ten kinds across the
service's areas, in one stack through the native plugin. Each unit: a Deployment and an Assistant on its agent
server (control plane, agent server), a TracingProject and a Dataset (tracing), an ExportDestination (a MinIO
bucket) and a ScheduledExport of the project into it (bulk export), a ServiceKey (organization), a Prompt and a
PromptVersion of it (prompt hub), an AnnotationQueue reading the project (evaluation)."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
stack = pulumi.get_stack()


def manifest(text: str) -> dict:
    """A string prompt, as `langchain_core.load.dumps` writes a PromptTemplate."""
    return {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "prompts", "prompt", "PromptTemplate"],
        "kwargs": {"input_variables": ["question"], "template": text + " {question}", "template_format": "f-string"},
    }


for u in range(config.require_int("units")):
    agent = langsmith.Deployment(
        f"agent-{u}",
        name=f"chaos-{stack}-{u}",
        source="github",
        source_config={"integration_id": config.require("integrationId"), "repo_url": "https://github.com/acme/agent", "build_on_push": False},
        source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
    )
    langsmith.Assistant(f"assistant-{u}", url=agent.custom_url.apply(lambda url: url or ""), graph_id="agent", name=f"assistant-{u}")
    project = langsmith.TracingProject(f"project-{u}", name=f"chaos-{stack}-{u}", description="traces")
    langsmith.Dataset(f"dataset-{u}", name=f"chaos-{stack}-{u}", description="evaluations")
    bucket = langsmith.ExportDestination(
        f"bucket-{u}",
        display_name=f"chaos {u}",
        config={"bucket_name": config.require("bucket"), "prefix": f"chaos/{u}", "endpoint_url": config.require("endpointUrl"), "addressing_style": "path"},
        credentials={"access_key_id": config.require("accessKeyId"), "secret_access_key": config.require_secret("secretAccessKey")},
    )
    langsmith.ScheduledExport(f"export-{u}", destination_id=bucket.id, session_id=project.id, start_time=config.require("startTime"), interval_hours=24)
    langsmith.ServiceKey(f"key-{u}", description=f"chaos {stack} {u}")
    prompt = langsmith.Prompt(f"prompt-{u}", handle=f"chaos-{u}", description="what the agent is told")
    langsmith.PromptVersion(f"version-{u}", prompt_handle=prompt.handle, manifest=manifest(f"Answer in unit {u}:"), description="first")
    langsmith.AnnotationQueue(f"queue-{u}", name=f"chaos {stack} {u} review", session_ids=[project.id])
