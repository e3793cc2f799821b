/**
 * Every request the emulator takes gets an answer: an unexpected error thrown while a request is handled
 * (after its body was read, when Node has already marked the request destroyed) answers
 * `500 {"detail": "Internal Server Error"}` instead of a connection closed without a word (what a client of
 * an emulator without bulk export's optional packages once saw: UND_ERR_SOCKET), through the provider's own
 * client as over raw HTTP; only an injected `drop` fault still closes the connection.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../provider/api/errors";
import { bulkExportClient, raw, rejection, startTestEmulator, type Emulator } from "../helpers/emulator";

const DESTINATION = {
    destination_type: "s3",
    display_name: "answered",
    config: { bucket_name: "exports", prefix: "p", endpoint_url: "http://127.0.0.1:9" },
    credentials: { access_key_id: "AKIA", secret_access_key: "secret" },
} as const;

describe("emulator: every request is answered", () => {
    let em: Emulator;
    before(async () => {
        em = await startTestEmulator();
        // An error the emulator did not foresee, thrown after the body was read.
        em.bulkExport.model.createDestination = async () => {
            throw new TypeError("unforeseen");
        };
    });
    after(() => em.close());

    it("an unexpected error after the body was read answers 500 with a detail, over raw HTTP", async () => {
        const r = await raw(em, "POST", "/api/v1/bulk-exports/destinations", { body: DESTINATION });
        assert.equal(r.status, 500);
        assert.deepEqual(r.body, { detail: "Internal Server Error" });
    });

    it("the provider's client sees that 500 (an ApiError), not a socket error", async () => {
        const e = await rejection(() => bulkExportClient(em, { maxRetries: 0, settleMs: 0 }).createDestination(DESTINATION));
        assert.ok(e instanceof ApiError, String(e));
        assert.equal(e.status, 500);
    });

    it("an injected drop fault still closes the connection without an answer", async () => {
        em.addFault({ method: "POST", path: "^/api/v1/bulk-exports/destinations$", kind: "drop" });
        const e = await rejection(() => raw(em, "POST", "/api/v1/bulk-exports/destinations", { body: DESTINATION }));
        assert.match(String((e as { code?: string }).code ?? e), /UND_ERR_SOCKET|ECONNRESET/);
    });
});
