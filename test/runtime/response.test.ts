import { describe, expect, it } from 'vitest';
import { CourseResponse } from '../../runtime/http/response.js';

describe('CourseResponse headers', () => {
  it('keep every name as an own key, prototype names included, and reach no prototype', () => {
    const response = new CourseResponse();
    response.header('__proto__', 'a').header('Constructor', 'b').header('toString', 'c');
    expect(Object.keys(response.headers)).toEqual(['__proto__', 'constructor', 'tostring']);
    expect(response.headers['__proto__']).toBe('a');
    expect(({} as Record<string, unknown>)['a']).toBeUndefined();
    expect(Object.getPrototypeOf(Object.getPrototypeOf(response.headers))).toBeNull();
  });

  it('start empty, with no name inherited', () => {
    const response = new CourseResponse();
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])
      expect(response.headers[name], name).toBeUndefined();
    expect(Object.keys(response.headers)).toEqual([]);
  });

  it('are separate per response', () => {
    const one = new CourseResponse().header('x-one', '1');
    expect(new CourseResponse().headers['x-one']).toBeUndefined();
    expect(one.headers['x-one']).toBe('1');
  });
});
