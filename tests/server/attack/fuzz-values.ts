import type { JsonSchema, Random } from './fuzz-support.js';

/**
 * Hostile values for the fuzz suite: what a parameter, a body field or a whole body may hold
 * when someone other than QE's own client sends it.
 */

/** A piece of JSON text put into a body as it is (what JSON.stringify cannot write: 1e400, __proto__ keys). */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold Raw pieces. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return v;
  });
  // JSON.stringify writes NUL as \u0000, so the marker cannot clash with a real string
  return (text ?? '').replace(/"\\u0000raw(\d+)\\u0000"/g, (_, i: string) => raws[Number(i)]);
}

/** `depth` levels of arrays or objects. */
export function deepJson(depth: number, kind: 'array' | 'object'): Raw {
  return kind === 'array' ? new Raw(`${'['.repeat(depth)}1${']'.repeat(depth)}`) : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

const TEN_KB = 'x'.repeat(10_240);

/** Values for a body field (any type in the place of any other). */
export function hostileJsonValue(r: Random): unknown {
  const choices: (() => unknown)[] = [
    () => 2 ** 31,
    () => 2 ** 31 - 1,
    () => -(2 ** 31) - 1,
    () => 2 ** 32,
    () => 2 ** 53 + 2,
    () => -1,
    () => 0,
    () => 1.5,
    () => -0.000001,
    () => 1e308,
    () => -1e308,
    () => new Raw('1e400'),
    () => new Raw('-1e400'),
    () => new Raw('123456789012345678901234567890'),
    () => new Raw('1E+9999'),
    () => new Raw('-0'),
    () => 'Infinity',
    () => '-Infinity',
    () => 'NaN',
    () => '1e400',
    () => '2147483648',
    () => '12abc',
    () => TEN_KB,
    () => `${TEN_KB}${TEN_KB}`,
    () => '\u0000',
    () => 'a\u0000b',
    () => '\u0001\u0002\u001b[31m\u007f\u0085',
    () => '\r\n\t\v\f',
    () => '   ',
    () => '',
    () => '中文字𝒬\u202eé\u0301\u200b',
    () => '\ud800',
    () => '\udfff\ud800',
    () => '\uffff\ufeff',
    () => "' OR 1=1 --",
    () => '"; DROP TABLE users; --',
    () => '%00',
    () => '../../../../etc/passwd',
    () => '<script>alert(1)</script>',
    () => '%{x}{{7*7}}${7*7}',
    () => '__proto__',
    () => 'constructor',
    () => 'S'.repeat(31),
    () => '2025-02-30',
    () => '9999-99-99',
    () => '0000-00-00T25:61:61Z',
    () => null,
    () => true,
    () => false,
    () => [],
    () => [1, 2, 3],
    () => ['a', null, {}],
    () => ({}),
    () => ({ a: 1 }),
    () => Array.from({ length: 3000 }, (_, i) => i),
    () => deepJson(r.pick([64, 500, 5000]), r.pick(['array', 'object'] as const)),
    () => new Raw('{"__proto__":{"polluted":1}}'),
    () => ({ constructor: { prototype: { polluted: 1 } } }),
    () => new Raw('{"a":1,"a":2}'),
  ];
  return r.pick(choices)();
}

/** Strings for a path or query parameter, as they would appear in a URL (some not percent-encoded on purpose). */
export const HOSTILE_URL_VALUES = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '9223372036854775808',
  '1e400',
  '1e3',
  '1E2',
  'Infinity',
  '-Infinity',
  'NaN',
  '1.5',
  '0x10',
  '0b1',
  '%201',
  '1%00',
  '%00',
  'abc',
  '%E4%B8%AD%E6%96%87',
  '__proto__',
  'constructor',
  'prototype',
  'true',
  'null',
  'undefined',
  '%5B%5D',
  '%7B%7D',
  '%0d%0aSet-Cookie:%20x=1',
  '%EF%BC%91%EF%BC%92',
  "'%20OR%201=1",
  '9'.repeat(400),
  'a'.repeat(101),
  'a'.repeat(10_000),
  '..%2F..%2Fetc',
  '%252e',
  '%zz',
  '%',
  '%E0%A4%A',
  '%C0%AF',
] as const;

/** Extra query strings appended to a request: duplicated keys, brackets, prototype keys, unknown keys. */
export const HOSTILE_QUERY_EXTRAS = [
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'constructor=1',
  'a[b][c][d]=1',
  'page=1&page=2',
  'size[]=5',
  'id=1&id=2&id=abc',
  'id=2147483648',
  'unknown=1',
  `q=${'%F0%9F%98%80'.repeat(60)}`,
  'q=%00',
  '&&&==&=',
  'sort=__proto__&order=constructor',
] as const;

const PATTERN_CANDIDATES = ['S1001', 'fuzz-1', 'abc', 'A1', 'x@demo-qe.example', '2025-09-01', '07:30', 'QE', 'k-abcdefgh12', '3A', '1', 'a.b'];

/** A plausible value for a schema (valid where that is easy), so hostile values land beside otherwise-good ones. */
export function sampleOf(schema: JsonSchema | undefined, r: Random, name = '', depth = 0, pool: (name: string) => unknown[] | null = () => null): unknown {
  if (!schema || depth > 6) return null;
  const fromPool = pool(name);
  if (fromPool?.length) return r.pick(fromPool);
  if (schema.enum?.length) return r.pick(schema.enum);
  if (schema.default !== undefined && r.chance(0.3)) return schema.default;
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type ?? (schema.properties ? 'object' : 'string')];
  const type = r.pick(types.length ? types : ['string']);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [k, p] of Object.entries(schema.properties ?? {})) {
        if (p.readOnly) continue;
        if (required.has(k) || r.chance(0.4)) out[k] = sampleOf(p, r, k, depth + 1, pool);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(schema.minItems ?? 0, r.int(0, 2));
      return Array.from({ length: n }, () => sampleOf(schema.items, r, name.replace(/s$/, ''), depth + 1, pool));
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 50;
      return r.int(min, Math.min(max, min + 50));
    }
    case 'boolean':
      return r.chance(0.5);
    default: {
      if (schema.format === 'date') return '2025-09-01';
      if (schema.format === 'date-time') return new Date(Date.UTC(2025, 8, 1)).toISOString();
      if (schema.format === 'email') return 'fuzz@demo-qe.example';
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        return PATTERN_CANDIDATES.find((c) => re.test(c)) ?? 'fuzz';
      }
      const min = schema.minLength ?? 1;
      return 'fuzz'.padEnd(min, 'z').slice(0, schema.maxLength ?? 100);
    }
  }
}

/** A multipart/form-data body, well made or broken in one of the ways a parser meets. */
export function multipartBody(r: Random): { payload: Buffer; contentType: string; kind: string } {
  const boundary = `----qe-fuzz-${r.int(0, 1e9)}`;
  const file = Buffer.from(Array.from({ length: r.int(0, 512) }, () => r.int(0, 255)));
  const part = (headers: string, content: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const filePart = (name = 'file', filename = 'fuzz.xlsx', type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') =>
    part(`Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}`, file);
  const good = Buffer.concat([filePart(), end]);
  const kinds: (() => { payload: Buffer; contentType?: string; kind: string })[] = [
    () => ({ payload: good, kind: 'well made, random bytes' }),
    () => ({ payload: Buffer.concat([filePart('file', 'x.png', 'image/png'), end]), kind: 'an image that is not one' }),
    () => ({ payload: good, contentType: 'multipart/form-data', kind: 'no boundary' }),
    () => ({ payload: good, contentType: 'multipart/form-data; boundary=', kind: 'empty boundary' }),
    () => ({ payload: good, contentType: 'multipart/form-data; boundary=other', kind: 'another boundary' }),
    () => ({ payload: good.subarray(0, r.int(1, Math.max(1, good.length - 1))), kind: 'truncated' }),
    () => ({ payload: Buffer.concat([Buffer.from(`--${boundary}\r\nthis is no header\r\n\r\nx\r\n`), end]), kind: 'malformed part header' }),
    () => ({ payload: Buffer.concat([part('Content-Type: text/plain', 'x'), end]), kind: 'no content-disposition' }),
    () => ({ payload: Buffer.concat([filePart(), filePart(), end]), kind: 'two files' }),
    () => ({ payload: Buffer.concat([part('Content-Disposition: form-data; name="__proto__"', 'x'), filePart(), end]), kind: 'a __proto__ field' }),
    () => ({ payload: Buffer.concat([filePart('__proto__'), end]), kind: 'a __proto__ file' }),
    () => ({ payload: Buffer.concat([filePart('file', '../../../../etc/passwd'), end]), kind: 'a file name climbing out' }),
    () => ({ payload: Buffer.concat([...Array.from({ length: 8 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'v')), filePart(), end]), kind: 'too many fields' }),
    () => ({ payload: end, kind: 'no parts' }),
    () => ({ payload: Buffer.alloc(0), kind: 'empty' }),
    () => ({ payload: Buffer.from('{"file":"x"}'), kind: 'JSON sent as multipart' }),
    () => ({ payload: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n`), Buffer.alloc(20_000, 0x41)]), kind: 'a header that never ends' }),
  ];
  const made = r.pick(kinds)();
  return { payload: made.payload, contentType: made.contentType ?? `multipart/form-data; boundary=${boundary}`, kind: `multipart: ${made.kind}` };
}
