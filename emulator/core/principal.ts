/**
 * Who a request speaks for (docs/service.md R7 rules 1-6): the organization admin (any key the emulator did
 * not make, as before service keys existed: it may do everything, in any workspace) or a service key made by
 * `POST /api/v1/orgs/current/service-keys`, with its scope and roles. The server resolves it once per request
 * (emulator/org/auth.ts) and hands it to the routes that judge more than a permission.
 */
export type Principal =
    | {
          kind: "admin";
          key: string;
          /** The workspace a request naming none speaks to, when not the key's own (a personal access token's default: org/tokens.ts). */
          workspace?: string;
      }
    | {
          kind: "service";
          keyId: string;
          scope: "organization" | "workspace";
          /** The workspaces of a workspace-scoped key, in the order given at creation. */
          workspaces: string[];
          role: { id: string; name: string; permissions: string[] };
          /** Null for a workspace-scoped key. */
          orgRole: { id: string; name: string; permissions: string[] } | null;
          /** Per workspace, the role there when it differs by workspace (a service account's token: org/tokens.ts). */
          roleIn?: Record<string, { id: string; name: string; permissions: string[] }>;
      };
