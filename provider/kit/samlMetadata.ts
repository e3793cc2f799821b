/**
 * The one reader of SAML metadata XML (docs/service.md R20.1) that SsoSettings' check and the emulator share: whether
 * the document is well-formed XML (elements nested and closed, attributes quoted, entities known, one root, no
 * DOCTYPE: a DTD is refused, as identity services refuse one to keep external entities out) and whether it is an
 * identity provider's metadata (an `EntityDescriptor`, or `EntitiesDescriptor`, holding an `IDPSSODescriptor`).
 * A refusal says where, as `line L, column C`. Not a validating parser: no schema, no signature.
 */

export interface MetadataProblem {
    message: string;
    line: number;
    column: number;
}

const NAME = /^[A-Za-z_][\w.\-:]*/;
const ENTITY = /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;
/** What is passed over whole: its start, its end, what it is. */
const SKIPPED: ReadonlyArray<[string, string, string]> = [
    ["<!--", "-->", "a comment"],
    ["<![CDATA[", "]]>", "a CDATA section"],
    ["<?", "?>", "a processing instruction"],
];
const ATTRIBUTE = /^\s+([A-Za-z_][\w.\-:]*)\s*=\s*("[^"<]*"|'[^'<]*')/;

class Reader {
    pos = 0;
    readonly open: string[] = [];
    readonly seen = new Set<string>();
    root: string | undefined;
    rootClosed = false;

    constructor(readonly text: string) {}

    fail(message: string, at = this.pos): never {
        const before = this.text.slice(0, at).split("\n");
        throw { message, line: before.length, column: before[before.length - 1].length + 1 } satisfies MetadataProblem;
    }

    rest = () => this.text.slice(this.pos);

    /** Skips to just after `end`, from a construct opened at `from`. */
    skipTo(end: string, what: string, from: number): void {
        const i = this.text.indexOf(end, this.pos);
        if (i < 0) this.fail(`${what} is never closed (${end})`, from);
        this.pos = i + end.length;
    }

    /** Every & of `chunk` (at `at`) starts a known entity. */
    entities(chunk: string, at: number): void {
        for (let i = chunk.indexOf("&"); i >= 0; i = chunk.indexOf("&", i + 1))
            if (!ENTITY.test(chunk.slice(i))) this.fail("an & that starts no known entity (write &amp;)", at + i);
    }

    text_(): void {
        const next = this.text.indexOf("<", this.pos);
        const chunk = this.text.slice(this.pos, next < 0 ? undefined : next);
        this.entities(chunk, this.pos);
        if (chunk.trim() && (!this.open.length || this.rootClosed)) this.fail("text outside the root element", this.pos + chunk.search(/\S/));
        this.pos += chunk.length;
    }

    element(): void {
        const from = this.pos;
        const name = NAME.exec(this.text.slice(this.pos + 1))?.[0];
        if (!name) this.fail("a < that starts no element name", from);
        if (this.rootClosed || (!this.open.length && this.root)) this.fail(`element <${name}> after the root element closed: a document has one root`, from);
        this.pos += 1 + name.length;
        for (let m = ATTRIBUTE.exec(this.rest()); m; m = ATTRIBUTE.exec(this.rest())) {
            this.entities(m[0], this.pos);
            this.pos += m[0].length;
        }
        const end = /^\s*(\/?)>/.exec(this.rest());
        if (!end) this.fail(`element <${name}>: an attribute must be name="value" (quoted), and the tag must end with > or />`);
        this.pos += end[0].length;
        const local = name.split(":").pop() as string;
        this.root ??= local;
        this.seen.add(local);
        if (end[1]) this.rootClosed ||= !this.open.length;
        else this.open.push(name);
    }

    closing(): void {
        const from = this.pos;
        const m = /^<\/([A-Za-z_][\w.\-:]*)\s*>/.exec(this.rest());
        if (!m) this.fail("a closing tag must be </name>", from);
        const expected = this.open.pop();
        if (expected !== m[1]) this.fail(expected ? `</${m[1]}> closes <${expected}>` : `</${m[1]}> closes no open element`, from);
        this.pos += m[0].length;
        if (!this.open.length) this.rootClosed = true;
    }

    markup(): void {
        const r = this.rest();
        const from = this.pos;
        if (r.startsWith("<![CDATA[") && !this.open.length) this.fail("CDATA outside the root element", from);
        if (r.startsWith("<!DOCTYPE") || r.startsWith("<!ENTITY")) this.fail("a DOCTYPE (DTD) is not allowed in SAML metadata", from);
        const skipped = SKIPPED.find(([start]) => r.startsWith(start));
        if (skipped) this.skipTo(skipped[1], skipped[2], from);
        else if (r.startsWith("</")) this.closing();
        else this.element();
    }
}

/** Why `xml` is not an identity provider's SAML metadata, saying where; undefined when it is. */
export function samlMetadataProblem(xml: string): MetadataProblem | undefined {
    const r = new Reader(xml);
    try {
        if (!xml.trim()) r.fail("the document is empty");
        while (r.pos < xml.length) {
            if (xml[r.pos] === "<") r.markup();
            else r.text_();
        }
        if (r.open.length) r.fail(`<${r.open[r.open.length - 1]}> is never closed`);
        if (!r.root) r.fail("the document has no root element");
        if (r.root !== "EntityDescriptor" && r.root !== "EntitiesDescriptor")
            return { message: `the root element is <${r.root}>, not a SAML <EntityDescriptor>`, line: 1, column: 1 };
        if (!r.seen.has("IDPSSODescriptor"))
            return { message: "the EntityDescriptor holds no <IDPSSODescriptor>: it is not an identity provider's metadata", line: 1, column: 1 };
        return undefined;
    } catch (e) {
        if (e && typeof e === "object" && "line" in e) return e as MetadataProblem;
        throw e;
    }
}

/** A problem as one line: `<message> (line L, column C)`. */
export const problemText = (p: MetadataProblem): string => `${p.message} (line ${p.line}, column ${p.column})`;
