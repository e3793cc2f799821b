"""An explicit provider configured from another resource's output, unknown at the first preview: tests/e2e/python.test.ts
previews and applies it. The deployment `first` (through the default provider) is made first; the provider `late` takes
the control plane's address once `first` has an id, and the deployment `second` is made through it. Keys: `prefix`,
`integrationId`, `url` (where the control plane is), and the default provider's `langsmith:*`."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
prefix = config.require("prefix")
langsmith_config = pulumi.Config("langsmith")


def deployment(name: str, opts: pulumi.ResourceOptions | None = None) -> langsmith.Deployment:
    return langsmith.Deployment(
        name,
        name=f"{prefix}-{name}",
        source="github",
        source_config={"integration_id": config.require("integrationId"), "repo_url": "https://github.com/acme/agent"},
        source_revision_config={"repo_ref": "main", "graph_config_path": "langgraph.json"},
        wait_for_deployed=False,
        opts=opts,
    )


first = deployment("first")
late = langsmith.Provider(
    "late",
    control_plane_url=first.id.apply(lambda _: config.require("url")),
    api_key=langsmith_config.require_secret("apiKey"),
    workspace_id=langsmith_config.require("workspaceId"),
)
second = deployment("second", pulumi.ResourceOptions(provider=late))
pulumi.export("secondId", second.id)
