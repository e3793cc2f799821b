/**
 * What the built-in graph takes: a run's request as the model reads it, and its input messages (role `user`
 * or `human`, content a string or content blocks) turned into thread messages.
 */
import { randomUUID } from "node:crypto";
import { messageText } from "../../provider/api/values";
import { invalidField } from "../core/errors";

/** What a run does when its thread already has one in progress (the run request's `multitask_strategy`). */
export const MULTITASK_STRATEGIES = ["reject", "interrupt", "rollback", "enqueue"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

export interface Message {
    type: "human" | "ai";
    content: string | unknown[];
    id: string;
}

export interface RunRequest {
    assistant_id: string;
    input?: { messages?: Array<{ role?: string; type?: string; content: string | unknown[] }> } | null;
    multitask_strategy?: MultitaskStrategy | null;
    metadata?: Record<string, unknown> | null;
}

/** Input messages (role `user` or `human`, content a string or content blocks) as thread messages. */
export function inputMessages(input: RunRequest["input"]): Message[] {
    const messages = input?.messages ?? [];
    return messages.map((m, i) => {
        const role = m.role ?? m.type;
        if (role !== "user" && role !== "human") {
            throw invalidField(["body", "input", "messages", i, "role"], "Input messages of the built-in graph have role 'user' or 'human'", "value_error");
        }
        return { type: "human", content: m.content, id: randomUUID() };
    });
}

/** The text of the last message: the string, or the text blocks of an array. */
export function lastText(messages: Message[]): string {
    return messageText(messages.at(-1)?.content);
}
