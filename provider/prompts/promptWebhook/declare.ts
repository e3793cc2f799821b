/**
 * The PromptWebhook, declared once (kit/declare.ts): a URL the prompt hub calls when a prompt gets a commit or a
 * tag is made or moved (docs/service.md R8.6); its URL and headers secret. Everything changes in place. provider.ts holds
 * what a table cannot say.
 */
import { WEBHOOK_TRIGGERS } from "../../api/schemas/prompts";
import { asSet } from "../../kit/diff";
import { list, map, number, resource, string, type Inputs, type Outputs } from "../../kit/declare";
import { workspaceIdField } from "../../kit/workspace";

/** Version of the output shape written by this provider. */
export const SCHEMA_VERSION = 1;

const promptIds = (what: string) =>
    list(`The ids of the prompts it ${what} (a \`Prompt\`'s \`promptId\`); compared as a set. Updated in place.`, string("A prompt's id."), {
        onChange: "update",
        compareAs: asSet({ unique: true, caseless: true }),
    });

export const promptWebhook = resource({
    name: "PromptWebhook",
    description:
        "A URL the prompt hub calls (an HTTP POST) when a prompt of the workspace gets a new version (`commit`) or a tag is made (`tag:create`) or moved (`tag:update`): for every prompt, those `includePrompts` names, less those `excludePrompts` names. Everything changes in place.",
    inputs: {
        url: string("The http or https URL called: secret (an incoming webhook's URL is its credential). Updated in place.", {
            required: true,
            secret: true,
            onChange: "update",
        }),
        headers: map("Headers sent with each call (an `Authorization` token, say): secret. Updated in place.", string("A header's value."), {
            secret: true,
            onChange: "update",
        }),
        triggers: list(
            "What fires it: `commit`, `tag:create`, `tag:update` (at least one); compared as a set. Updated in place.",
            string("A trigger.", { values: WEBHOOK_TRIGGERS }),
            {
                required: true,
                onChange: "update",
                compareAs: asSet({ unique: true }),
            },
        ),
        includePrompts: promptIds("is called for (absent: every prompt of the workspace)"),
        excludePrompts: promptIds("is not called for"),
        workspaceId: workspaceIdField,
    },
    outputs: {
        createdAt: string("When it was made.", { stable: true }),
        schemaVersion: number("Version of the output shape.", { stable: true }),
    },
});

export type PromptWebhookInputs = Inputs<typeof promptWebhook>;
export type PromptWebhookOutputs = Outputs<typeof promptWebhook>;
