"""Online evaluation as code, the Python twin of examples/evaluation-rules through the native plugin: a tracing
project, the feedback key `concise`, a review queue, a code evaluator and the rule sending the project's LLM runs
to the queue, scored by the evaluator, and an alert calling a webhook (its URL a secret) when more than 5 % of the
LLM runs of the last 15 minutes fail. Settings: Pulumi.yaml."""
import pulumi
import pulumi_langsmith as langsmith

config = pulumi.Config()
project = langsmith.TracingProject("support-bot", name=config.get("project") or "support-bot")
concise = langsmith.FeedbackConfig("concise", feedback_key="concise", type="continuous", min=0, max=1)
queue = langsmith.AnnotationQueue(
    "llm-review",
    name=project.name.apply(lambda n: f"{n} LLM review"),
    rubric_items=[{"feedback_key": "concise", "description": "1 when the answer is short enough"}],
)
evaluator = langsmith.Evaluator(
    "concise",
    name=project.name.apply(lambda n: f"{n} concise"),
    type="code",
    code="def perform_eval(run, example):\n    return {'concise': 1 if len(str(run['outputs'])) <= 60 else 0}",
)
rule = langsmith.RunRule(
    "llm-runs",
    name="LLM runs to review",
    session_id=project.id,
    filter='eq(run_type, "llm")',
    sampling_rate=1,
    add_to_annotation_queue_id=queue.id,
    evaluator_id=evaluator.id,
)

errors = langsmith.AlertRule(
    "llm-errors",
    session_id=project.id,
    name="LLM error rate",
    description="more than 5 % of the LLM runs of the last 15 minutes failed",
    attribute="error_count",
    aggregation="pct",
    window_minutes=15,
    operator="gt",
    threshold=5,
    filter='eq(run_type, "llm")',
    actions=[{"target": "webhook", "url": config.get_secret("alertWebhookUrl") or "https://hooks.example.com/support-bot/alerts"}],
)

pulumi.export("queueId", queue.id)
pulumi.export("ruleId", rule.id)
pulumi.export("alertRuleId", errors.id)
