import type { ZodType } from 'zod';
import type { Route } from '../../functions/lib/http';

/**
 * Bad inputs derived from a route's zod schemas: for every body and query field, values of the wrong
 * type, huge and hostile strings, out-of-range and NaN-like numbers; whole bodies that are malformed
 * JSON, of the wrong shape or content type, or miss their required fields; path parameters that are
 * not ids. Each probe names its category for the summary. On top, hostile probes (`hostileProbesFor`)
 * aimed at lookups by a caller-given name: built-in property names (`constructor`, `__proto__` ...) as
 * keys and as values in every field, path parameter and query, objects and arrays where scalars go,
 * extreme numbers and deeply nested arrays.
 */

export type Category =
  | 'malformed-json'
  | 'wrong-content-type'
  | 'wrong-shape'
  | 'missing-required'
  | 'wrong-type'
  | 'huge-string'
  | 'unicode'
  | 'numbers'
  | 'nan-like'
  | 'bad-path-param'
  | 'bad-query'
  | 'hostile'
  | 'unauthenticated';

export interface Probe {
  category: Category;
  /** path with parameters filled */
  path: string;
  query?: string;
  /** raw request body and its content type */
  body?: string;
  contentType?: string;
  label: string;
}

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'other';

interface Def {
  type: string;
  shape?: Record<string, ZodType>;
  in?: ZodType;
  innerType?: ZodType;
  options?: ZodType[];
}
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The fields of an object schema, through pipes, optionals and unions. */
export function fieldsOf(schema: ZodType | undefined): Record<string, ZodType> {
  if (!schema) return {};
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  if (def.type === 'pipe' && def.in) return fieldsOf(def.in);
  if (def.innerType) return fieldsOf(def.innerType);
  if (def.type === 'union') return Object.assign({}, ...(def.options ?? []).map(fieldsOf));
  return {};
}

function kindOf(schema: ZodType): Kind {
  const def = defOf(schema);
  if (def.type === 'string' || def.type === 'enum' || def.type === 'literal') return 'string';
  if (def.type === 'number' || def.type === 'int') return 'number';
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'array') return 'array';
  if (def.type === 'object') return 'object';
  if (def.type === 'pipe' && def.in) return kindOf(def.in);
  if (def.innerType) return kindOf(def.innerType);
  if (def.type === 'union' && def.options?.[0]) return kindOf(def.options[0]);
  return 'other';
}

const WRONG_TYPE: Record<Kind, unknown[]> = {
  string: [12345, true, { a: 1 }, ['x'], null],
  number: ['twelve', true, { n: 1 }, [1], null],
  boolean: ['yes', 2, { b: true }, [true], null],
  array: ['1,2', 7, { 0: 1 }, null, [{ deep: [[[]]] }]],
  object: ['{}', 3, [1, 2], null, true],
  other: [{ x: [] }, 'string', 0, null, [null]],
};
const HUGE = 'x'.repeat(100_000);
const UNICODE = ['💥🔥👩‍👩‍👧‍👦', 'nul\u0000byte', '\u202eevil\u200b', '\ud800 lone surrogate', 'ñ 漢字 𝕏 '.repeat(20)];
const NUMBERS = [-1, 0, -2_147_483_649, 1e308, Number.MAX_SAFE_INTEGER + 2, 1.5, -0.0001];
const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e400', '0x10', ' ', '', '9'.repeat(400)];
const BAD_PARAMS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  '%E0%A4%A',
  '%00',
  '%F0%9F%92%A5',
  'x'.repeat(5000),
];
const BAD_QUERY = ['[', '[1,2', '{"a":', 'NaN', '-1', '1e400', '%E0%A4%A', 'x'.repeat(10_000), '💥\u0000'];

/** A value that fits a path parameter's name, so body and query probes get past the params schema. */
function goodParam(name: string) {
  if (name === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (name === 'email') return 'nobody-fuzz@test.dev';
  if (name === 'lang') return 'xx';
  if (name === 'key') return 'fuzzUnknownSetting';
  return '999999';
}

const fill = (template: string, value: (name: string) => string) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => value(name));

/** Picks `count` items spread over the list, deterministically. */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}

const json = (value: unknown) => JSON.stringify(value);

export interface ProbeBudget {
  /** at most this many field probes per route (whole-body and param probes come on top) */
  fieldProbes: number;
}

export function probesFor(routeKey: string, route: Route, budget: ProbeBudget): Probe[] {
  const [method, template] = routeKey.split(' ') as [string, string];
  const path = fill(template, goodParam);
  const out: Probe[] = [];
  const sendsBody = method !== 'GET' && method !== 'DELETE';

  for (const name of [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))
    for (const bad of BAD_PARAMS) {
      const value = (n: string) => (n === name ? bad : goodParam(n));
      out.push({ category: 'bad-path-param', path: fill(template, value), label: `${name}=${bad.slice(0, 20)}` });
    }

  if (sendsBody) {
    out.push(
      { category: 'malformed-json', path, body: '{"a":', contentType: 'application/json', label: 'cut' },
      { category: 'malformed-json', path, body: '{"a":1,,}', contentType: 'application/json', label: 'commas' },
      { category: 'malformed-json', path, body: '\u0000\u0001', contentType: 'application/json', label: 'binary' },
      { category: 'wrong-content-type', path, body: 'hello', contentType: 'text/plain', label: 'text' },
      { category: 'wrong-content-type', path, body: '<a>1</a>', contentType: 'application/xml', label: 'xml' },
      {
        category: 'wrong-content-type',
        path,
        body: 'a=1&a=2',
        contentType: 'application/x-www-form-urlencoded',
        label: 'form',
      },
      {
        category: 'wrong-content-type',
        path,
        body: '--x\r\n',
        contentType: 'multipart/form-data',
        label: 'no boundary',
      },
      {
        category: 'wrong-content-type',
        path,
        body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
        contentType: 'multipart/form-data; boundary=b',
        label: 'truncated multipart',
      },
      { category: 'wrong-shape', path, body: '[]', contentType: 'application/json', label: 'array' },
      { category: 'wrong-shape', path, body: 'null', contentType: 'application/json', label: 'null' },
      { category: 'wrong-shape', path, body: '"text"', contentType: 'application/json', label: 'string' },
      {
        category: 'wrong-shape',
        path,
        body: json({ a: { b: { c: [HUGE.slice(0, 1000)] } } }),
        contentType: 'application/json',
        label: 'unknown keys',
      },
      { category: 'missing-required', path, body: '{}', contentType: 'application/json', label: 'empty object' },
    );
  }

  const fieldProbes: Probe[] = [];
  const bodyFields = sendsBody ? fieldsOf(route.options.body) : {};
  for (const [field, schema] of Object.entries(bodyFields)) {
    const values: [Category, unknown][] = [
      ...WRONG_TYPE[kindOf(schema)].map((v): [Category, unknown] => ['wrong-type', v]),
      ['huge-string', HUGE],
      ...UNICODE.map((v): [Category, unknown] => ['unicode', v]),
      ...NUMBERS.map((v): [Category, unknown] => ['numbers', v]),
      ...NAN_LIKE.map((v): [Category, unknown] => ['nan-like', v]),
    ];
    for (const [category, value] of values)
      fieldProbes.push({
        category,
        path,
        body: json({ [field]: value }),
        contentType: 'application/json',
        label: `${field}=${String(json(value)).slice(0, 24)}`,
      });
  }
  for (const field of Object.keys(fieldsOf(route.options.query)))
    for (const value of BAD_QUERY)
      fieldProbes.push({
        category: 'bad-query',
        path,
        query: `${encodeURIComponent(field)}=${value.startsWith('%') ? value : encodeURIComponent(value)}`,
        label: `${field}=${value.slice(0, 20)}`,
      });
  if (fieldsOf(route.options.query).cursor === undefined && method === 'GET')
    fieldProbes.push({ category: 'bad-query', path, query: 'cursor=abc.def&limit=-5', label: 'stray cursor' });

  out.push(...spread(fieldProbes, budget.fieldProbes));
  return out;
}

/** Names every plain object answers through its prototype: a lookup `table[name]` must not find them. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString'];
const DEEP = JSON.parse(`${'['.repeat(2000)}1${']'.repeat(2000)}`);
/** Raw JSON: `JSON.stringify` drops a `__proto__` key, a parser reading these keeps it as an own key. */
const POLLUTED = '{"__proto__":{"polluted":true,"super":true},"constructor":{"prototype":{"polluted":true}}}';
/** Raw JSON values aimed at a walk or a number that trusts its input: one per field in turn (the run stays short). */
const ODD = [POLLUTED, json(DEEP), '1e308', '-0', '18446744073709551616', json([[PROTOTYPE_NAMES]])];

/** Raw JSON values sent in one body field: one odd value, and a built-in name where a name may go. */
function hostileValues(kind: Kind, turn: number): string[] {
  const out = [ODD[turn % ODD.length]!];
  if (kind === 'string' || kind === 'other') out.push(json(PROTOTYPE_NAMES[turn % 2]));
  if (kind === 'array') out.push(json(PROTOTYPE_NAMES));
  if (kind === 'object' || kind === 'other') out.push(`{${PROTOTYPE_NAMES.map((n) => `"${n}":"x"`).join(',')}}`);
  return out;
}

export function hostileProbesFor(routeKey: string, route: Route): Probe[] {
  const [method, template] = routeKey.split(' ') as [string, string];
  const path = fill(template, goodParam);
  const out: Probe[] = [];
  const probe = (p: Omit<Probe, 'category'>) => out.push({ category: 'hostile', ...p });

  for (const [turn, name] of [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).entries())
    for (const bad of ['constructor', turn % 2 ? '__proto__' : 'toString'])
      probe({ path: fill(template, (n) => (n === name ? bad : goodParam(n))), label: `${name}=${bad}` });

  if (method !== 'GET' && method !== 'DELETE') {
    const contentType = 'application/json';
    probe({ path, body: POLLUTED, contentType, label: 'body {__proto__, constructor}' });
    probe({ path, body: json(DEEP), contentType, label: 'body nested 2000 deep' });
    for (const [turn, [field, schema]] of Object.entries(fieldsOf(route.options.body)).entries())
      for (const value of hostileValues(kindOf(schema), turn))
        probe({ path, body: `{${json(field)}:${value}}`, contentType, label: `${field}=${value.slice(0, 24)}` });
  }

  // only where a query is read: elsewhere a harmless query would let the probe run the route for real
  const queryFields = Object.keys(fieldsOf(route.options.query));
  if (queryFields.length)
    for (const name of ['__proto__', 'constructor'])
      probe({ path, query: `${name}=1&${name}=2`, label: `query key ${name}` });
  for (const [turn, field] of queryFields.entries()) {
    const key = encodeURIComponent(field);
    const query = [`${key}=constructor`, `${key}=__proto__`, `${key}[]=1&${key}=1e308`][turn % 3]!;
    probe({ path, query, label: decodeURIComponent(query) });
  }
  return out;
}
