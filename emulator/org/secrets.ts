/**
 * Workspace secrets (docs/service.md R7): per workspace, upserted by key (`POST` of `[{key, value}]`, a null
 * value deleting; or `PUT .../secrets/{key}`), listed by key only, deleted. Values are sealed before they reach
 * the state (core/store.ts) and never answered.
 */
import type { SecretPutRequest, SecretsUpsertRequest } from "../../provider/api/schemas/organization";
import { badRequest } from "../core/errors";
import type { OrgModel, SecretRecord } from "./model";

const secretsOf = (org: OrgModel, tenantId: string): Record<string, SecretRecord> => {
    org.state.secrets[tenantId] ??= {};
    return org.state.secrets[tenantId];
};

export function listSecrets(org: OrgModel, tenantId: string, withConfigs: boolean) {
    return Object.entries(org.state.secrets[tenantId] ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, s]) => (withConfigs ? { key, configs: s.configs ?? [] } : { key }));
}

export function upsertSecrets(org: OrgModel, tenantId: string, body: SecretsUpsertRequest): void {
    const secrets = secretsOf(org, tenantId);
    for (const { key, value } of body) {
        if (value === null) delete secrets[key];
        else secrets[key] = { value: org.store.seal(value), configs: secrets[key]?.configs ?? null, updated_at: org.clock.iso() };
    }
    org.save();
}

/** PUT .../secrets/{key}: `value` required to create, kept when omitted; `configs` replaced (omitted or empty: none). */
export function putSecret(org: OrgModel, tenantId: string, key: string, body: SecretPutRequest) {
    const secrets = secretsOf(org, tenantId);
    const old = secrets[key];
    if (!old && body.value == null) throw badRequest("value is required to create a secret.");
    secrets[key] = {
        value: body.value == null ? old.value : org.store.seal(body.value),
        configs: body.configs?.length ? body.configs : null,
        updated_at: org.clock.iso(),
    };
    org.save();
    return { key, configs: secrets[key].configs ?? [] };
}

/** DELETE .../secrets/{key}: a missing key succeeds too. */
export function deleteSecret(org: OrgModel, tenantId: string, key: string): void {
    delete secretsOf(org, tenantId)[key];
    org.save();
}

/** A secret's value, for tests that check what was stored (`GET /__admin/org/secrets`). */
export function secretValue(org: OrgModel, tenantId: string, key: string): string | undefined {
    const s = org.state.secrets[tenantId]?.[key];
    return s ? org.store.open<string>(s.value) : undefined;
}
