"""Benchmark program (npm run bench scale): `scale:units` units of ten resources, mixed in fixed proportions,
in one stack through the native plugin. Each unit: 2 Deployments, an Assistant on each one's agent server,
2 TracingProjects, a Dataset, an ExportDestination (a MinIO bucket), a ScheduledExport of the unit's first
project into it, and a ServiceKey. With `scale:providerVersion`, every resource asks the engine for that version of
the plugin instead of the SDK's: bench/scale.ts gives the floor's, the provider that does nothing (bench/floor/main.ts),
so that the very same program, SDK and resources measure it."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
stack = pulumi.get_stack()
version = config.get("providerVersion")
opts = pulumi.ResourceOptions(version=version) if version else None
for u in range(config.require_int("units")):
    for k in range(2):
        agent = langsmith.Deployment(
            f"agent-{u}-{k}",
            name=f"scale-{stack}-{u}-{k}",
            source="github",
            source_config={"integration_id": config.require("integrationId"), "repo_url": "https://github.com/acme/agent", "build_on_push": False},
            source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
            opts=opts,
        )
        langsmith.Assistant(
            f"assistant-{u}-{k}",
            url=agent.custom_url.apply(lambda url: url or ""),
            graph_id="agent",
            name=f"assistant-{u}-{k}",
            config={"configurable": {"model": "gpt-4o"}},
            opts=opts,
        )
    projects = [langsmith.TracingProject(f"project-{u}-{k}", name=f"scale-{stack}-{u}-{k}", description="traces", opts=opts) for k in range(2)]
    langsmith.Dataset(f"dataset-{u}", name=f"scale-{stack}-{u}", description="evaluations", opts=opts)
    bucket = langsmith.ExportDestination(
        f"bucket-{u}",
        display_name=f"scale {u}",
        config={"bucket_name": config.require("bucket"), "prefix": f"scale/{u}", "endpoint_url": config.require("endpointUrl"), "addressing_style": "path"},
        credentials={"access_key_id": config.require("accessKeyId"), "secret_access_key": config.require_secret("secretAccessKey")},
        opts=opts,
    )
    langsmith.ScheduledExport(
        f"export-{u}",
        destination_id=bucket.id,
        session_id=projects[0].id,
        start_time=config.require("startTime"),
        interval_hours=24,
        opts=opts,
    )
    langsmith.ServiceKey(f"key-{u}", description=f"scale {stack} {u}", opts=opts)
