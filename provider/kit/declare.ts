/**
 * The vocabulary a resource is declared in, once: each field's type, whether it is required, secret, its
 * description, its name on the wire, its default, what a change of it does, and where it applies; and the
 * outputs the resource adds. Everything else is derived from a declaration: the TypeScript types (below:
 * `Args`, `Inputs`, `Outputs`), the type checks with property paths (check.ts), the diff table (diff.ts),
 * the camelCase/snake_case wire mapping (wire.ts), the package schema (schema.ts) and the argument tables
 * of docs/ (docs.ts).
 *
 * ```ts
 * const name = string("Deployment name.", { required: true, onChange: "replace" });
 * ```
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * What a change of an input does: `replace` makes a new remote object; `update` changes it in place;
 * `revision` changes it in place by a new revision (a deployment's build); `local` is recorded in the state
 * and nothing is sent (a wait limit); `none` is no change at all (read only at creation).
 */
export type OnChange = "replace" | "update" | "revision" | "local" | "none";

/** A rule that a field applies to some resources only (`source github`): elsewhere it is refused, not sent and not compared. */
export interface AppliesIf {
    /** Whether the field applies, given the resource's whole inputs. */
    when: (inputs: Record<string, unknown>) => boolean;
    /** What it applies to, as the check says it: `${field} applies only to ${to}`. */
    to: string;
}

/** What every kind of field says. */
interface FieldOptions {
    /** Shown in the schema, the SDKs' docstrings and the docs' argument tables. */
    description: string;
    required?: boolean;
    /** Secret in the state, the engine's outputs and every SDK. */
    secret?: boolean;
    /**
     * What the service never returns of this field, in words ("secret values"): a read, hence `pulumi import`'s
     * generated code, leaves it `""`, and the check's refusal of an empty one says so and what to write.
     */
    neverReturned?: string;
    /** The field's name on the wire (default: the snake_case of its name); `false`: never sent. */
    wire?: string | false;
    /** The value an absent input stands for (filled by check, compared by diff). */
    default?: unknown;
    /** An input the resource's check always fills when the program leaves it out (an id the provider chooses): present once checked, and in the outputs. */
    filled?: boolean;
    /**
     * A filled input the check derives from the resource's identity (its URN), which the front doors hand it under
     * `__identity` (autoname.ts): two resources never derive the same value, and one resource always does.
     */
    fromIdentity?: boolean;
    /** What a change does (inputs only; a nested object's fields may each say it instead of the object). */
    onChange?: OnChange;
    /** The value diff compares instead of the value itself (a set as a sorted list, a timestamp as its instant). */
    compareAs?: (value: any, inputs: Record<string, any>) => unknown;
    appliesIf?: AppliesIf;
    /** An output that may be null; an input that takes null (as absent: another resource's nullable output, say). */
    nullable?: boolean;
    /**
     * An output the provider keeps in the state for its own use: not in the schema, the SDKs or the resource class.
     * An input so (`filled` by the check: the id an alert's create asks for) is not an argument either.
     */
    hidden?: boolean;
    /**
     * An output an update in place keeps (a deployment's URL, a creation time): the preview of an update
     * answers its current value, so a dependent neither shows it unknown nor plans a change it will not make
     * (preview.ts). A function says when, given the old outputs and the new inputs.
     */
    stable?: boolean | ((olds: Record<string, any>, news: Record<string, any>) => boolean);
}

/** How a field is autonamed: the service's rules for it (autoname.ts names the resource by them). */
export interface AutonameRule {
    /** The longest name the service takes (the logical name is cut to fit the suffix). */
    maxLength?: number;
    /** The logical name made into one the service takes (`My_Agent` -> `my-agent`). */
    normalize?: (logical: string) => string;
}

export type Fields = Record<string, Field>;

export type Field = StringField | NumberField | BooleanField | ObjectField | ListField | MapField | AnyField;
export interface StringField<T extends string = string> extends FieldOptions {
    kind: "string";
    /** The values the service takes (an enum); absent: any string. */
    values?: readonly T[];
    /** Other spellings a program may give, which check maps to `values` (stand-ins of the real wire values). */
    aliases?: Readonly<Record<string, T>>;
    /** A name a program may leave out: the resource is named after its logical name (autoname.ts). Declare it `filled`. */
    autoname?: AutonameRule;
}
export interface NumberField extends FieldOptions {
    kind: "number";
    integer?: boolean;
    /** A whole number that may pass 2^31 (a size in bytes): the schema says number, since its integer is Java's 32-bit Integer. */
    large?: boolean;
}
export interface BooleanField extends FieldOptions {
    kind: "boolean";
}
export interface ObjectField<F extends Fields = Fields> extends FieldOptions {
    kind: "object";
    /** The object type's name in the schema and the SDKs (`DeploymentSourceConfig`). */
    typeName: string;
    fields: F;
}
export interface ListField<I extends Field = Field> extends FieldOptions {
    kind: "list";
    items: I;
}
export interface MapField<V extends Field = Field> extends FieldOptions {
    kind: "map";
    values: V;
}
export interface AnyField extends FieldOptions {
    kind: "any";
}

type Opts = Omit<FieldOptions, "description">;

/** A string; `values` makes it an enum. */
export const string = <const O extends Opts & { values?: readonly string[]; aliases?: Readonly<Record<string, string>>; autoname?: AutonameRule } = {}>(
    description: string,
    o?: O,
) => ({ kind: "string", description, ...o }) as { kind: "string"; description: string } & O;
export const number = <const O extends Opts & { integer?: boolean; large?: boolean } = {}>(description: string, o?: O) =>
    ({ kind: "number", description, ...o }) as { kind: "number"; description: string } & O;
export const boolean = <const O extends Opts = {}>(description: string, o?: O) =>
    ({ kind: "boolean", description, ...o }) as { kind: "boolean"; description: string } & O;
/** An object type, named in the schema (`typeName`), with fields of its own. */
export const object = <const F extends Fields, const O extends Opts = {}>(typeName: string, description: string, fields: F, o?: O) =>
    ({ kind: "object", typeName, description, fields, ...o }) as { kind: "object"; typeName: string; description: string; fields: F } & O;
export const list = <const I extends Field, const O extends Opts = {}>(description: string, items: I, o?: O) =>
    ({ kind: "list", description, items, ...o }) as { kind: "list"; description: string; items: I } & O;
/** An object with keys of the program's choosing. */
export const map = <const V extends Field, const O extends Opts = {}>(description: string, values: V, o?: O) =>
    ({ kind: "map", description, values, ...o }) as { kind: "map"; description: string; values: V } & O;
export const any = <const O extends Opts = {}>(description: string, o?: O) => ({ kind: "any", description, ...o }) as { kind: "any"; description: string } & O;

/** A resource: its type name (`langsmith:index:<name>`), what it is, its inputs and the outputs it adds. */
export interface ResourceDeclaration<I extends Fields = Fields, O extends Fields = Fields> {
    name: string;
    description: string;
    inputs: I;
    /** What the resource computes, beside its inputs (every input is an output too). */
    outputs: O;
    /**
     * Its object exists once per scope (a workspace's retention settings): the front doors hand its check the
     * resource's identity (autoname.ts), so that a second resource of the program for the same scope is refused at
     * preview (scope.ts).
     */
    oncePerScope?: boolean;
}

export const resource = <const I extends Fields, const O extends Fields>(d: ResourceDeclaration<I, O>): ResourceDeclaration<I, O> => d;

/** A function (a look-up): its token name, what it does, its arguments and its result. */
export interface FunctionDeclaration<A extends Fields = Fields, R extends Fields = Fields> {
    name: string;
    description: string;
    args: A;
    result: R;
}

export const lookup = <const A extends Fields, const R extends Fields>(d: FunctionDeclaration<A, R>): FunctionDeclaration<A, R> => d;

// ---- Types derived from a declaration ----

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type KeysWhere<F extends Fields, C> = { [K in keyof F]: F[K] extends C ? K : never }[keyof F];
/** Present after check: required, filled by the check, or filled with a default (where it applies: a field that does not apply is dropped). */
type PresentKeys<F extends Fields> = {
    [K in keyof F]: F[K] extends { required: true } | { filled: true }
        ? K
        : F[K] extends { appliesIf: {} }
          ? never
          : F[K] extends { default: {} | null }
            ? K
            : never;
}[keyof F];

/** The value of a field once checked (aliases mapped, defaults filled). */
export type Value<F> = F extends { kind: "string"; values: readonly (infer T)[] }
    ? T
    : F extends { kind: "string" }
      ? string
      : F extends { kind: "number" }
        ? number
        : F extends { kind: "boolean" }
          ? boolean
          : F extends { kind: "object"; fields: infer Fs extends Fields }
            ? Shape<Fs>
            : F extends { kind: "list"; items: infer I }
              ? Value<I>[]
              : F extends { kind: "map"; values: infer V }
                ? Record<string, Value<V>>
                : unknown;

/** An object of fields once checked: those required or defaulted are present. */
export type Shape<F extends Fields> = Simplify<{ [K in PresentKeys<F>]: Value<F[K]> } & { [K in Exclude<keyof F, PresentKeys<F>>]?: Value<F[K]> }>;

/** The value a program may give for a field: any part may be an Output, an enum may be given by an alias, null where it says so. */
export type ArgValue<F> = F extends { nullable: true } ? GivenValue<F> | null : GivenValue<F>;
type GivenValue<F> = F extends { kind: "string"; values: readonly (infer T)[]; aliases: Readonly<Record<infer A, unknown>> }
    ? T | A
    : F extends { kind: "object"; fields: infer Fs extends Fields }
      ? ArgShape<Fs>
      : F extends { kind: "list"; items: infer I }
        ? pulumi.Input<ArgValue<I>>[]
        : F extends { kind: "map"; values: infer V }
          ? Record<string, pulumi.Input<ArgValue<V>>>
          : Value<F>;

/** The arguments of an object of fields, as a program gives them. */
export type ArgShape<F extends Fields> = Simplify<
    { [K in KeysWhere<F, { required: true }>]: pulumi.Input<ArgValue<F[K]>> } & {
        [K in Exclude<keyof F, KeysWhere<F, { required: true }>>]?: pulumi.Input<ArgValue<F[K]>>;
    }
>;

/** The fields but the hidden ones (declare.ts `hidden`). */
type Visible<F extends Fields> = { [K in keyof F as F[K] extends { hidden: true } ? never : K]: F[K] };

/** A resource's arguments, as a program gives them (its hidden inputs aside). */
export type Args<D extends ResourceDeclaration> = ArgShape<Visible<D["inputs"]>>;
/** A resource's inputs once checked: what create, update and diff receive. */
export type Inputs<D extends ResourceDeclaration> = Shape<D["inputs"]>;
/** A resource's outputs (its checked inputs and what it computes): what the state holds. */
export type Outputs<D extends ResourceDeclaration> = Simplify<Inputs<D> & ComputedShape<D["outputs"]>>;
type ComputedShape<F extends Fields> = { -readonly [K in keyof F]: F[K] extends { nullable: true } ? Value<F[K]> | null : Value<F[K]> };
/** The outputs a dynamic resource class exposes (its hidden ones aside, inputs and computed). */
export type OutputProperties<D extends ResourceDeclaration> = {
    readonly [K in Exclude<keyof Outputs<D>, KeysWhere<D["outputs"], { hidden: true }> | KeysWhere<D["inputs"], { hidden: true }>>]-?: pulumi.Output<
        Outputs<D>[K]
    >;
};

/** A function's arguments (each may be an Output) and its result. */
export type FunctionArgs<D extends FunctionDeclaration> = ArgShape<D["args"]>;
export type FunctionInputs<D extends FunctionDeclaration> = Shape<D["args"]>;
export type FunctionResult<D extends FunctionDeclaration> = Shape<D["result"]>;

// ---- Reading a declaration ----

/** `repoRef` -> `repo_ref`. */
export const snakeCase = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field's wire name, or undefined when it is never sent. */
export const wireName = (key: string, f: Field): string | undefined => (f.wire === false ? undefined : (f.wire ?? snakeCase(key)));

/** The names of a resource's outputs: its inputs, then what it computes (hidden ones included). */
export const outputNames = (d: ResourceDeclaration): string[] => [...Object.keys(d.inputs), ...Object.keys(d.outputs)];

/** The names of what a resource computes (not inputs). */
export const computedNames = (d: ResourceDeclaration): string[] => Object.keys(d.outputs);

/** The inputs declared secret (the dynamic class wraps them with `pulumi.secret` and lists them in `additionalSecretOutputs`). */
export const secretInputs = (d: ResourceDeclaration): string[] => Object.keys(d.inputs).filter((k) => d.inputs[k].secret);

/**
 * The outputs declared secret, inputs and computed ones (a service key's `key`): both front doors keep them
 * encrypted in the state (the dynamic class lists them in `additionalSecretOutputs`; the native plugin marks them).
 */
export const secretOutputs = (d: ResourceDeclaration): string[] => [...secretInputs(d), ...Object.keys(d.outputs).filter((k) => d.outputs[k].secret)];

/**
 * The inputs of `o` the resource declares (a read's inputs never carry what the resource only outputs). `o`
 * comes from the resource's own state or the service's answer read into that shape, so its inputs are
 * taken for checked ones.
 */
export function declaredInputs<D extends ResourceDeclaration>(d: D, o: Record<string, unknown>): Inputs<D> {
    return Object.fromEntries(Object.entries(o).filter(([k, v]) => k in d.inputs && v !== undefined)) as Inputs<D>;
}

/** Whether a read is an import: no state (the native plugin sends `{}`, the dynamic-provider host may send nothing). */
export const isImport = (stored: Record<string, unknown> | undefined): boolean => !stored || Object.keys(stored).length === 0;

/** What the engine hands a dynamic provider beside the declared values: the serialized provider object. */
export type Stored = { __provider?: unknown };

/**
 * A resource's provider, typed by its declaration: `check` receives what the program gave and answers the
 * checked inputs; every later method receives them (and the stored outputs) in the declared shapes. (Pulumi's
 * own `ResourceProvider<Inputs, Outputs>` types a read's inputs as outputs; this says what a read answers.)
 * Any such object is a `pulumi.dynamic.ResourceProvider`, whose parameters are untyped.
 */
export interface ProviderOf<D extends ResourceDeclaration> {
    configure?(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
    check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
    diff(id: string, olds: Outputs<D> & Stored, news: Inputs<D> & Stored): Promise<pulumi.dynamic.DiffResult>;
    create(inputs: Inputs<D> & Stored): Promise<{ id: string; outs: Outputs<D> }>;
    read(id: string, props?: Outputs<D> & Stored): Promise<{ id?: string; props?: Outputs<D>; inputs?: Inputs<D> }>;
    update(id: string, olds: Outputs<D> & Stored, news: Inputs<D> & Stored): Promise<{ outs: Outputs<D> }>;
    delete(id: string, props: Outputs<D> & Stored): Promise<void>;
}
