import fc from 'fast-check';

/** The subset of JSON Schema that the zod → OpenAPI transform emits for our request shapes. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

const WORD = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 12 });

const isDateTime = (schema: JsonSchema) => schema.format === 'date-time';

function types(schema: JsonSchema): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (schema.properties) return ['object'];
  return [];
}

/**
 * Values that satisfy `schema` as far as JSON Schema can tell (refinements such as the
 * password rules are invisible here, so some of these are still refused by the server).
 */
export function validArbitrary(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArbitrary(s, depth + 1)));
  const base = validNonNull(schema, depth);
  return schema.nullable ? fc.option(base, { nil: null }) : base;
}

function validNonNull(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (types(schema)[0]) {
    case 'string': {
      if (isDateTime(schema)) {
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      }
      const min = schema.minLength ?? 0;
      const max = Math.max(min, Math.min(schema.maxLength ?? 24, 24));
      return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 3, 3));
      return fc.array(schema.items && depth < 4 ? validArbitrary(schema.items, depth + 1) : fc.constant(null), { minLength: min, maxLength: max });
    }
    case 'object': {
      const props = schema.properties ?? {};
      const required = schema.required ?? [];
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, s]) => [k, validArbitrary(s, depth + 1)])),
        { requiredKeys: required.filter((k) => k in props) },
      ) as fc.Arbitrary<Record<string, unknown>>;
      if (typeof schema.additionalProperties === 'object') {
        return fc.tuple(record, fc.dictionary(WORD, validArbitrary(schema.additionalProperties, depth + 1), { maxKeys: 3 }))
          .map(([known, extra]) => ({ ...extra, ...known }));
      }
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A JSON value of another type than every type `schema` allows. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const allowed = new Set(types(schema));
  if (allowed.size === 0) return null;
  if (schema.nullable) allowed.add('null');
  if (allowed.has('number')) allowed.add('integer');
  const candidates: [string, fc.Arbitrary<unknown>][] = [
    ['string', WORD],
    ['integer', fc.integer()],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    ['object', fc.dictionary(WORD, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })],
  ];
  const others = candidates.filter(([t]) => !allowed.has(t) && !(t === 'integer' && allowed.has('number'))).map(([, a]) => a);
  return others.length ? fc.oneof(...others) : null;
}

/**
 * Values that `schema` refuses: wrong types, unknown enum values, strings and arrays over their
 * maximum, numbers out of range, objects with a required field missing, an unknown field or one
 * bad field deep inside. Every candidate breaks a rule that zod enforces as well, so the server
 * must refuse all of them.
 */
export function invalidArbitrary(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    // A value must fail every alternative: a type none of them accepts.
    const allowed = alternatives.flatMap(types);
    const bad = wrongType({ type: [...new Set(allowed)], nullable: alternatives.some((a) => a.nullable) || schema.nullable });
    return bad ?? fc.constant(Symbol.for('skip'));
  }
  const options: fc.Arbitrary<unknown>[] = [];
  const bad = wrongType(schema);
  if (bad) options.push(bad);

  if (schema.enum) {
    options.push(WORD.map((w) => `${w}-not-in-enum`));
  } else if (types(schema)[0] === 'string') {
    if (schema.maxLength !== undefined) {
      const max = schema.maxLength;
      // No whitespace: a trimmed schema must not bring it back under the limit.
      options.push(fc.integer({ min: 1, max: 2000 }).map((extra) => 'x'.repeat(max + extra)));
    }
    if ((schema.minLength ?? 0) > 0) options.push(fc.constant(''));
    if (isDateTime(schema)) options.push(WORD.map((w) => `not-a-date-${w}`));
  } else if (types(schema)[0] === 'integer' || types(schema)[0] === 'number') {
    if (schema.minimum !== undefined) options.push(fc.integer({ min: 1, max: 1e6 }).map((d) => schema.minimum! - d));
    if (schema.maximum !== undefined) options.push(fc.integer({ min: 1, max: 1e6 }).map((d) => schema.maximum! + d));
    if (types(schema)[0] === 'integer') options.push(fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((f) => (schema.minimum ?? 0) + 1 + f));
  } else if (types(schema)[0] === 'array' && schema.items) {
    if (schema.maxItems !== undefined) {
      options.push(fc.array(validArbitrary(schema.items, depth + 1), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 3 }));
    }
    if ((schema.minItems ?? 0) > 0) options.push(fc.constant([]));
    if (depth < 4) {
      options.push(fc.tuple(validArbitrary({ ...schema, minItems: 0 }, depth + 1) as fc.Arbitrary<unknown[]>, invalidArbitrary(schema.items, depth + 1))
        .map(([list, item]) => [...list, item]));
    }
  } else if (types(schema)[0] === 'object') {
    const props = schema.properties ?? {};
    const valid = validArbitrary(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
    for (const key of schema.required ?? []) {
      options.push(valid.map((v) => {
        const copy = { ...v };
        delete copy[key];
        return copy;
      }));
    }
    if (typeof schema.additionalProperties === 'object' && depth < 4) {
      options.push(fc.tuple(valid, WORD, invalidArbitrary(schema.additionalProperties, depth + 1)).map(([v, k, x]) => ({ ...v, [k]: x })));
    }
    if (schema.additionalProperties === false) {
      options.push(fc.tuple(valid, WORD.filter((k) => !(k in props)), fc.jsonValue({ maxDepth: 1 }))
        .map(([v, k, x]) => ({ ...v, [`${k}_unknown`]: x })));
    }
    if (depth < 4) {
      for (const [key, propSchema] of Object.entries(props)) {
        options.push(fc.tuple(valid, invalidArbitrary(propSchema, depth + 1)).map(([v, x]) => ({ ...v, [key]: x })));
      }
    }
  }
  const usable = options.length ? fc.oneof(...options) : fc.constant(Symbol.for('skip'));
  // A bad value inside an otherwise valid parent must never be "no value": undefined would drop the key.
  return usable.filter((v) => v !== undefined);
}

/** Marks a schema for which no value is certainly invalid. */
export const SKIP = Symbol.for('skip');
export const containsSkip = (v: unknown): boolean =>
  v === SKIP || (typeof v === 'object' && v !== null && Object.values(v).some(containsSkip));

/** Raw request bodies that are not JSON at all, or JSON cut short. */
export const garbageBody: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }).filter((s) => s.trim() !== '' && !isJson(s)),
  fc.json({ maxDepth: 3 }).filter((s) => s.length > 1).map((s) => s.slice(0, -1)).filter((s) => !isJson(s)),
  fc.constantFrom('{', '[', '{"a":', 'null,', '{"__proto__":{"isAdmin":true}}', '\u0000', '{"constructor":{"prototype":{"x":1}}}'),
);

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
