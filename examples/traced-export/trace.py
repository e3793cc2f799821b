"""A few lines of traced code: an agent whose tool call and model call are traced into the project Pulumi
made. The official client (`pip install langsmith`) reads where to send them from the environment:
LANGSMITH_ENDPOINT, LANGSMITH_API_KEY, LANGSMITH_WORKSPACE_ID, LANGSMITH_TRACING=true (the line
`langsmith-emulator --sandbox` prints) and LANGSMITH_PROJECT (`pulumi stack output projectName`)."""
from langsmith import Client, traceable, tracing_context


@traceable(run_type="tool")
def search_orders(customer: str) -> dict:
    return {"orders": [f"{customer}-1", f"{customer}-2"]}


@traceable(run_type="llm", metadata={"ls_model_name": "stub-model"})
def answer(question: str, orders: dict) -> dict:
    return {"content": f"{question}: {len(orders['orders'])} orders"}


@traceable(name="support-agent", tags=["example"])
def agent(customer: str, question: str) -> dict:
    return answer(question, search_orders(customer))


client = Client()
with tracing_context(client=client):
    for customer in ["acme", "globex", "initech"]:
        agent(customer, "How many orders?")
client.flush()
print("traced 3 conversations (9 runs)")
