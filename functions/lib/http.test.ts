import { describe, expect, it } from 'vitest';
import { parseQuery } from './http';

describe('query strings', () => {
  it('repeated keys become arrays, also keys named like built-in properties, which hold only what was sent', () => {
    const query = parseQuery({ rawQueryString: 'constructor=a&constructor=b&__proto__=x&tags[]=1&tags[]=2&one=1' });
    expect(query).toEqual({ constructor: ['a', 'b'], ['__proto__']: 'x', tags: ['1', '2'], one: '1' });
    expect(Object.hasOwn(query, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
  });
});
