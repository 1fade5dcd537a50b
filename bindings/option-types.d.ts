// The generic option types of the public API, hand-written: what a scheme id must be for a call
// (CheckedId) and rp.attention's options by scheme (AttentionOptionsOf), over the per-scheme and
// per-call types that scripts/gen-types.mjs generates into bindings/schemes.d.ts.
import type {
  AttentionSchemeId,
  CallOptionsByName,
  RequiredOptionsByName,
  SchemeId,
  SchemeParamsById,
  SchemesOffering,
} from './schemes.js';
import type { SchemeParams } from './index.js';

/** true when Id is a union of several literals (a reading's or a preset's `scheme`), false for one literal. */
export type IsUnion<Id, All = Id> = Id extends unknown ? ([All] extends [Id] ? false : true) : never;

/**
 * The type a call's scheme argument must have. A literal id must be one of the ids that offer the
 * call (`Offering`), so an unknown or unsuitable id is an error on the id itself, naming that list
 * ("'bogus' is not assignable to parameter of type 'BiasSchemeId'"), not on the options; a union of
 * known ids (`reading.scheme` of rp.fromConfig or a preset) and a plain string are checked by the core.
 */
export type CheckedId<Id extends string, Offering extends string> = string extends Id
  ? Id
  : [Id] extends [Offering]
    ? Id
    : [IsUnion<Id>] extends [false]
      ? Offering
      : [Id] extends [SchemeId]
        ? Id
        : SchemeId;

/**
 * The options of a call (its own options Call) for scheme Id: the scheme's parameters win over an
 * option of the same name (they are what the call validates); what the call cannot do without
 * (Required) stays required.
 */
export type OptionsFor<Call, Id extends SchemeId, Required extends keyof Call = never> = Omit<
  Call,
  keyof SchemeParamsById[Id]
> &
  SchemeParamsById[Id] &
  Pick<Call, Required>;

/**
 * The options a call (own options Call, offered by the schemes Offering) takes for an id of type Id:
 * a literal id its OptionsFor; a plain string (an id chosen at run time) the loose SchemeParams; a
 * union of ids (a reading's scheme), per id, its options, or for an id without this call its
 * parameters (the core refuses that id when called), so rp.bias(reading.scheme, reading.params)
 * compiles for a reading typed as a union keyed by scheme.
 */
export type OptionsOf<
  Call,
  Offering extends SchemeId,
  Id extends string,
  Required extends keyof Call = never,
> = string extends Id
  ? SchemeParams & Pick<Call, Required>
  : [IsUnion<Id>] extends [false]
    ? Id extends Offering
      ? OptionsFor<Call, Id, Required>
      : never
    : Id extends Offering
      ? OptionsFor<Call, Id, Required>
      : Id extends SchemeId
        ? SchemeParamsById[Id]
        : never;

/** A call that takes a scheme: encoding, bias, buckets, frequencies, rotate, scores, attention. */
export type CallName = keyof CallOptionsByName;

// What call Op cannot do without, as keys of its options (RequiredOptionsByName says which).
type RequiredOf<Op extends CallName> = Extract<RequiredOptionsByName[Op], keyof CallOptionsByName[Op]>;

/** The options of call Op for scheme Id: the scheme's parameters and the call's own options. */
export type CallOptionsFor<Op extends CallName, Id extends SchemesOffering<Op>> = OptionsFor<
  CallOptionsByName[Op],
  Id,
  RequiredOf<Op>
>;

/**
 * The options call Op takes for an id of type Id: a literal id picks its options; a plain string (an
 * id chosen at run time) takes the loose SchemeParams; an unknown literal id is an error (OptionsOf).
 * rp.attention's are AttentionOptionsOf, a discriminated union on `scheme`.
 */
export type CallOptionsOf<Op extends CallName, Id extends string> = OptionsOf<
  CallOptionsByName[Op],
  SchemesOffering<Op>,
  Id,
  RequiredOf<Op>
>;

/** rp.attention's own options (besides the scheme's parameters). */
export type AttentionCallOptions = CallOptionsByName['attention'];

/** The options of rp.attention without a scheme (a given B or P, or content only). */
export type AttentionPlainOptions = AttentionCallOptions & { scheme?: undefined; params?: Record<string, never> };

/** The options of rp.attention with a scheme: its parameters stand beside the call's options or in `params` (which wins; a parameter named like one of the call's options of another meaning goes in `params`). */
export type AttentionSchemeOptions<Id extends AttentionSchemeId> = CallOptionsFor<'attention', Id> & {
  scheme: Id;
  params?: SchemeParamsById[Id];
};

/** The options of rp.attention: a discriminated union on `scheme`. */
export type AttentionOptions =
  AttentionPlainOptions | { [Id in AttentionSchemeId]: AttentionSchemeOptions<Id> }[AttentionSchemeId];

/**
 * The options of rp.attention for a scheme typed as a union of ids — a layer group's or a reading's
 * `scheme` with its `params` (rp.attention({ scheme: g.scheme, params: g.params, q, k })): the
 * parameters under `params`, checked by the core.
 */
export type AttentionGroupOptions<Id extends string> = AttentionCallOptions & { scheme: Id; params?: SchemeParams };

/** The options rp.attention takes for a scheme of type Id (a plain string: the loose form). */
export type AttentionOptionsOf<Id extends string> = [Id] extends [never]
  ? AttentionPlainOptions
  : [IsUnion<Id>] extends [true]
    ? AttentionGroupOptions<Id>
    : Id extends AttentionSchemeId
      ? AttentionSchemeOptions<Id>
      : string extends Id
        ? AttentionCallOptions & { scheme: string; params?: SchemeParams; [name: string]: unknown }
        : never;
