/**
 * The organization's SAML SSO settings (docs/service.md R20.1): `/api/v1/orgs/current/sso-settings[/{id}]`, one per
 * organization, kept in `--state-dir` (`sso-settings.json`). Bodies parse with the strict schemas of the shared wire
 * contract. **Decided** where the description is silent: a second create is 409 naming the one there; metadata by
 * exactly one of `metadata_url` (https) and `metadata_xml` (well-formed identity provider metadata, read by the same
 * reader as the provider's check: kit/samlMetadata.ts), else 400 saying where it fails; the role is a workspace role
 * of the organization and the workspaces live ones (400). A delete answers the settings deleted.
 */
import { randomUUID } from "node:crypto";
import { SsoSettingsCreateSchema, SsoSettingsUpdateSchema, type SsoProvider, type SsoSettingsUpdate } from "../../provider/api/schemas/orgSettings";
import { problemText, samlMetadataProblem } from "../../provider/kit/samlMetadata";
import { badRequest, conflict, EmulatorError, requireUuid } from "../core/errors";
import { parse, type Router } from "../core/http";
import { stableUuid } from "../core/ids";
import { Store } from "../core/store";
import { ORGANIZATION_ID, type OrgModel } from "./model";

const BASE = "/api/v1/orgs/current/sso-settings";

/** The service's defaults of the groups' switches (SSOSettingsCreate). */
const GROUP_DEFAULTS = { sso_groups_enabled: false, sso_groups_claim_field: "groups", sso_groups_required: false, sso_groups_role_sync_enabled: true };

/** Why a metadata URL or XML is refused (400), or nothing. */
function checkMetadata(url: string | null | undefined, xml: string | null | undefined): void {
    if (!url === !xml) throw badRequest("Exactly one of metadata_url and metadata_xml is required.");
    if (url) {
        let u: URL | undefined;
        try {
            u = new URL(url);
        } catch {}
        if (u?.protocol !== "https:") throw badRequest(`metadata_url must be an https URL (got ${JSON.stringify(url)}).`);
    }
    const p = xml ? samlMetadataProblem(xml) : undefined;
    if (p) throw badRequest(`metadata_xml is not valid SAML metadata: ${problemText(p)}.`);
}

export class SsoSettings {
    private items: SsoProvider[];
    private readonly store: Store<SsoProvider[]>;

    constructor(
        private readonly org: OrgModel,
        stateDir?: string,
    ) {
        this.store = new Store(stateDir, "sso-settings.json");
        this.items = this.store.load() ?? [];
    }

    reset(): void {
        this.items = [];
        this.store.save(this.items);
    }

    /** The organization's settings, if any (organization info's `sso_login_slug` reads it). */
    current = (): SsoProvider | undefined => this.items[0];

    private get(id: string): SsoProvider {
        const s = this.items.find((x) => x.id === id);
        if (!s) throw new EmulatorError(404, { detail: `SSO settings ${id} not found.` });
        return s;
    }

    private checkTargets(roleId: string | null | undefined, workspaceIds: string[] | null | undefined): void {
        if (roleId) this.org.roleOf(roleId, "workspace");
        if (workspaceIds && !workspaceIds.length) throw badRequest("default_workspace_ids must name at least one workspace.");
        for (const w of workspaceIds ?? []) if (this.org.workspace(w)?.is_deleted) throw badRequest(`Workspace ${w} not found.`);
    }

    private create(body: unknown): SsoProvider {
        const b = parse(SsoSettingsCreateSchema, body, "body");
        const held = this.current();
        if (held) throw conflict(`The organization already has SSO settings (${held.id}): change them (PATCH ${BASE}/${held.id}) or delete them first.`);
        checkMetadata(b.metadata_url, b.metadata_xml);
        this.checkTargets(b.default_workspace_role_id, b.default_workspace_ids);
        const id = randomUUID();
        const s: SsoProvider = {
            ...GROUP_DEFAULTS,
            ...b,
            metadata_url: b.metadata_url ?? null,
            metadata_xml: b.metadata_xml ?? null,
            attribute_mapping: b.attribute_mapping ?? null,
            id,
            organization_id: ORGANIZATION_ID,
            provider_id: stableUuid(`sso provider ${id}`, "4", "8"),
            attribute_mapping_load_error: null,
        };
        this.items = [s];
        this.store.save(this.items);
        return s;
    }

    private update(id: string, body: unknown): SsoProvider {
        const s = this.get(id);
        const b: SsoSettingsUpdate = parse(SsoSettingsUpdateSchema, body, "body");
        // Metadata given replaces the other kind (a URL for XML, say); null leaves it as it is.
        const url = b.metadata_url ?? (b.metadata_xml ? null : s.metadata_url);
        const xml = b.metadata_xml ?? (b.metadata_url ? null : s.metadata_xml);
        checkMetadata(url, xml);
        this.checkTargets(b.default_workspace_role_id, b.default_workspace_ids);
        for (const [k, v] of Object.entries(b)) if (v !== null && v !== undefined) (s as Record<string, unknown>)[k] = v;
        Object.assign(s, { metadata_url: url ?? null, metadata_xml: xml ?? null });
        this.store.save(this.items);
        return s;
    }

    register(router: Router): void {
        const id = (p: Record<string, string>) => requireUuid(p.id, "id");
        router
            .on("GET", BASE, () => ({ status: 200, body: this.items }))
            .on("POST", BASE, (c) => ({ status: 201, body: this.create(c.body) }))
            .on("PATCH", `${BASE}/{id}`, (c) => ({ status: 200, body: this.update(id(c.params), c.body) }))
            .on("DELETE", `${BASE}/{id}`, (c) => {
                const s = this.get(id(c.params));
                this.items = [];
                this.store.save(this.items);
                return { status: 200, body: s };
            });
    }
}
