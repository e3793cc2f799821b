/**
 * Pieces the wire schemas share. `filledString`: a string the service takes only when it holds something (a name,
 * a key). The descriptions declare such fields as plain strings, so the refusal is a rule of the service's own,
 * not of its schema: a 422 of type `value_error`, as its framework words a validator's refusal (the emulator maps
 * a zod `custom` issue to that type: emulator/core/errors.ts). `dateTime`: what the descriptions' `date-time`
 * format takes (RFC 3339, the zone optional as the service's framework allows), a real moment (no 12:99).
 */
import { z } from "zod";

export const filledString = z.string().refine((s) => s.trim() !== "", "must not be empty");

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
export const dateTime = z.string().refine((s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)), "Input should be a valid datetime");
