"""A prompt promoted by `pulumi up`, the Python twin of examples/prompt-promotion through the native plugin: the
prompt `support`, one version per entry of RELEASES (each written on the one before) and the `prod` tag the agent
pulls (`client.pull_prompt("support:prod")`) on the last. A release is a pull request adding an entry: its preview
shows one version to create and `prod` to update in place. Settings: Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

# The system message of each release, oldest first.
RELEASES = [
    "You are the support agent of Acme. Answer the customer's question politely.",
    "You are the support agent of Acme. Answer the customer's question politely, in three sentences at most.",
]

config = pulumi.Config()
handle = config.get("handle") or "support"
release = config.get_int("release") or len(RELEASES)


def template(text: str, variables: list[str]) -> dict:
    return {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "prompts", "prompt", "PromptTemplate"],
        "kwargs": {"input_variables": variables, "template": text, "template_format": "f-string"},
    }


def chat(system: str) -> dict:
    """A chat prompt of a system message and the customer's question, as `langchain_core.load.dumps` writes it
    (with langchain-core installed: `json.loads(dumps(ChatPromptTemplate.from_messages([...])))`)."""
    message = lambda kind, text, variables: {  # noqa: E731
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "prompts", "chat", kind],
        "kwargs": {"prompt": template(text, variables)},
    }
    return {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "prompts", "chat", "ChatPromptTemplate"],
        "kwargs": {
            "input_variables": ["question"],
            "messages": [message("SystemMessagePromptTemplate", system, []), message("HumanMessagePromptTemplate", "{question}", ["question"])],
        },
    }


prompt = langsmith.Prompt("prompt", handle=handle, description="What the support agent is told", tags=["support"])

# Each version on the one before (depends_on), so their order in the hub is the program's.
versions: list[langsmith.PromptVersion] = []
for i, system in enumerate(RELEASES[:release]):
    versions.append(
        langsmith.PromptVersion(
            f"v{i + 1}",
            prompt_handle=prompt.handle,
            manifest=chat(system),
            description=f"release {i + 1}",
            opts=pulumi.ResourceOptions(depends_on=versions[-1:]),
        )
    )

prod = langsmith.PromptTag("prod", prompt_handle=prompt.handle, name="prod", commit_hash=versions[-1].commit_hash)

pulumi.export("pull", pulumi.Output.concat(prompt.full_name, ":", prod.name))
pulumi.export("prodCommit", prod.commit_hash)
pulumi.export("commits", [v.commit_hash for v in versions])
