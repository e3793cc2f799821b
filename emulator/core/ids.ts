/** Identifiers the emulator derives instead of drawing at random, so the same input always gives the same one. */
import { createHash } from "node:crypto";

/**
 * A uuid-shaped id from a SHA-256 of `text`, with the given version and variant digits (a real uuid's
 * shape, so clients that validate ids accept it).
 */
export function stableUuid(text: string, version: string, variant: string): string {
    const h = createHash("sha256").update(text).digest("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${version}${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
