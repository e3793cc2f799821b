/**
 * Whether an address range is written in CIDR notation (`203.0.113.0/24`, `2001:db8::/32`), as an IP allowlist takes
 * it: shared by OrganizationSettings' check and the emulator (docs/service.md R20.2).
 */
import { isIPv4, isIPv6 } from "node:net";

/** Why `range` is not a CIDR range, or undefined. */
export function cidrProblem(range: string): string | undefined {
    const [address, bits, more] = range.split("/");
    const v4 = isIPv4(address);
    if (!v4 && !isIPv6(address)) return `${JSON.stringify(range)} does not start with an IPv4 or IPv6 address`;
    const max = v4 ? 32 : 128;
    if (bits === undefined) return `${JSON.stringify(range)} has no prefix length: write ${address}/${max} for that one address`;
    if (more !== undefined || !/^\d{1,3}$/.test(bits) || Number(bits) > max)
        return `${JSON.stringify(range)}: the prefix length after / must be a whole number from 0 to ${max}`;
    return undefined;
}
