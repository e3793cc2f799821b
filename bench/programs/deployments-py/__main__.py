"""Benchmark program (npm run bench native): `deployments:count` Deployments through the native plugin; its
twin bench/programs/deployments makes the same ones through the dynamic resources."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
for i in range(config.require_int("count")):
    langsmith.Deployment(
        f"agent-{i}",
        name=f"bench-{pulumi.get_stack()}-{i}",
        source="github",
        source_config={"integration_id": config.require("integrationId"), "repo_url": "https://github.com/acme/agent", "build_on_push": False},
        source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
        secrets=[{"name": "OPENAI_API_KEY", "value": config.require_secret("openaiApiKey")}],
    )
