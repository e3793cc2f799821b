/**
 * The contract check: every exchange the emulators of a test run logged (emulator/core/exchangeLog.ts), judged
 * against the service's own OpenAPI descriptions (description.ts):
 * - every request **our clients** sent (user agent `pulumi-langsmith`) to `/api/v1` or `/v2`: it targets an
 *   operation of a description or one listed as newer (newer.ts), and its headers, parameters and body are
 *   what that operation takes;
 * - every **answer** the emulator gave to an operation of a description, whoever asked (the official clients,
 *   tests' raw requests): its status is one the operation declares and its body fits the schema.
 * Answers made by injected faults and streamed answers are not judged; the agent servers' API
 * (`/__agents/...`) is not in these descriptions and is only counted. Every operation our clients call must be
 * one the fuzzer covers (fuzzed.json).
 *
 * `npm test` runs it after the tests (`node ... tests/contract/check.ts <dir>`): it prints its figures and the
 * violations grouped by operation and message, and exits 1 when there is any.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Exchange } from "../../emulator/core/exchangeLog";
import { Descriptions } from "./description";
import { newerField, newerOperation } from "./newer";
import { probeOf } from "./probes";

/** The operations the fuzzer covers (fuzz.py): each one our clients call must be among them. */
const FUZZED = new Set(
    Object.entries(JSON.parse(readFileSync(join(__dirname, "fuzzed.json"), "utf8")) as Record<string, string[]>).flatMap(([d, keys]) =>
        keys.map((k) => `${d} ${k}`),
    ),
);

/** A user agent our clients send (provider/api/client.ts), and only they. */
export const OUR_USER_AGENT = /^pulumi-langsmith\b/;

export interface Violation {
    /** `METHOD template` of the operation, or `METHOD path` when no operation matched. */
    operation: string;
    side: "request" | "answer";
    message: string;
    /** The exchange, for the report. */
    exchange: Exchange;
}

export interface Figures {
    exchanges: number;
    operationsSeen: Set<string>;
    requestsValidated: number;
    answersValidated: number;
    newerSeen: Set<string>;
    /** Requests to the agent servers' API, which no description here covers. */
    agentServer: number;
    /** Requests from other clients to paths no description has (the official clients' own calls, tests' probes). */
    undescribedOthers: number;
    skipped: number;
    /** Departures known for what they are: fields newer than the descriptions (newer.ts), the tests' deliberate probes (probes.ts). */
    newerFields: number;
    probes: number;
}

export class ContractCheck {
    readonly violations: Violation[] = [];
    readonly figures: Figures = {
        exchanges: 0,
        operationsSeen: new Set(),
        requestsValidated: 0,
        answersValidated: 0,
        newerSeen: new Set(),
        agentServer: 0,
        undescribedOthers: 0,
        skipped: 0,
        newerFields: 0,
        probes: 0,
    };

    constructor(private readonly descriptions = new Descriptions()) {}

    judge(x: Exchange): void {
        this.figures.exchanges++;
        if (x.path.startsWith("/__admin/")) return void this.figures.skipped++;
        if (x.path.startsWith("/__agents/")) return void this.figures.agentServer++;
        const ours = OUR_USER_AGENT.test(x.headers.userAgent ?? "");
        const op = this.descriptions.find(x.method, x.path);
        if (!op) {
            const newer = newerOperation(x.method, x.path);
            if (newer) this.figures.newerSeen.add(`${newer.method} ${newer.path}`);
            else if (ours)
                this.add(`${x.method} ${x.path}`, "request", "no operation of the descriptions, and none listed as newer (tests/contract/newer.ts)", x);
            else this.figures.undescribedOthers++;
            return;
        }
        this.figures.operationsSeen.add(op.key);
        if (ours) {
            this.figures.requestsValidated++;
            if (!FUZZED.has(`${op.description} ${op.key}`))
                this.add(op.key, "request", "our clients call it, and the fuzzer does not cover it (tests/contract/fuzzed.json)", x);
            for (const m of this.descriptions.requestViolations(op, x)) this.add(op.key, "request", m, x);
        }
        if (x.status === 0 || x.injected || x.streamed) return void this.figures.skipped++;
        this.figures.answersValidated++;
        for (const m of this.descriptions.answerViolations(op, x)) this.add(op.key, "answer", m, x);
    }

    private add(operation: string, side: Violation["side"], message: string, exchange: Exchange): void {
        if (newerField(operation, side, message)) this.figures.newerFields++;
        else if (probeOf(exchange.method, exchange.path, side, message)) this.figures.probes++;
        else this.violations.push({ operation, side, message, exchange });
    }

    /** The figures and the violations, grouped by operation, side and message, with one example each. */
    report(): string {
        const f = this.figures;
        const lines = [
            `contract check: ${f.exchanges} exchanges logged; ${f.operationsSeen.size} operations of the descriptions seen`,
            `  requests of our clients validated: ${f.requestsValidated}; answers validated: ${f.answersValidated}`,
            `  newer than the descriptions, seen: ${f.newerSeen.size} (${[...f.newerSeen].sort().join(", ") || "none"})`,
            `  not judged: ${f.agentServer} agent-server requests (no description here), ${f.undescribedOthers} other clients' requests to undescribed paths, ${f.skipped} admin, injected, dropped or streamed`,
            `  known departures: ${f.newerFields} fields newer than the descriptions (newer.ts), ${f.probes} deliberate probes of the tests (probes.ts)`,
            `  violations: ${this.violations.length}`,
        ];
        const groups = new Map<string, Violation[]>();
        for (const v of this.violations) {
            const k = `${v.side} ${v.operation}: ${v.message}`;
            groups.set(k, [...(groups.get(k) ?? []), v]);
        }
        for (const [k, vs] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
            const x = vs[0].exchange;
            lines.push(`  ${vs.length} x ${k}`, `      e.g. ${x.method} ${x.prefix}${x.path} -> ${x.status} (${x.headers.userAgent ?? "no user agent"})`);
        }
        return lines.join("\n");
    }
}

/** Every exchange of every `*.jsonl` file in `dir`. */
export function* readExchanges(dir: string): Generator<Exchange> {
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl"))) {
        for (const line of readFileSync(join(dir, f), "utf8").split("\n")) if (line.trim()) yield JSON.parse(line) as Exchange;
    }
}

if (require.main === module) {
    const dir = process.argv[2];
    if (!dir) {
        console.error("usage: check.ts <directory of exchange logs>");
        process.exit(2);
    }
    const check = new ContractCheck();
    for (const x of readExchanges(dir)) check.judge(x);
    console.log(check.report());
    process.exit(check.violations.length ? 1 : 0);
}
