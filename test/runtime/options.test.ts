import { describe, expect, it } from 'vitest';
import { Course, MemoryStore } from '../../runtime/index.js';
import { checkOptions } from '../../runtime/http/options.js';

describe('the options of Course.start()', () => {
  it('accepts every documented option, and none', () => {
    expect(() => checkOptions(undefined)).not.toThrow();
    expect(() =>
      checkOptions({
        debug: false,
        onError: () => undefined,
        secret: 's',
        maxParamLength: 100,
        bodyLimit: 1 << 20,
        multipartLimit: 1 << 24,
        store: new MemoryStore(),
        identify: () => 'me',
        trustProxy: 0,
        pepper: '',
        redirectHosts: ['example.com'],
        allowedHosts: ['example.com', '.example.org', '[::1]', '*'],
      }),
    ).not.toThrow();
    // An option left undefined takes its default.
    expect(() => checkOptions({ store: undefined, bodyLimit: undefined })).not.toThrow();
  });

  it('names a misspelt option with the one meant, and every value of the wrong kind', () => {
    expect(() => Course.start(undefined, { bodyLimt: 5 } as never)).toThrow(
      'course: Course.start(): "bodyLimt" is not an option (did you mean bodyLimit?)',
    );
    // Another form of a name: past two edits, but all of it less its last letter.
    expect(() => checkOptions({ trustProxies: 1 })).toThrow(
      '"trustProxies" is not an option (did you mean trustProxy?)',
    );
    expect(() =>
      checkOptions({ bodyLimit: '1mb', trustProxy: -1, redirectHosts: 'a.com', debug: 1 }),
    ).toThrow(
      '"bodyLimit" must be a whole number above 0; "trustProxy" must be a whole number, 0 or more; "redirectHosts" must be a list of host names; "debug" must be true or false',
    );
    expect(() => checkOptions({ colour: 'red' })).toThrow(
      '"colour" is not an option (the options are debug, onError, secret',
    );
    for (const allowedHosts of [['example.com:80'], ['https://example.com'], ['.'], [''], 'a.com'])
      expect(() => checkOptions({ allowedHosts }), String(allowedHosts)).toThrow(
        `"allowedHosts" must be a list of host names, '.example.com' or '*' (no port, no scheme)`,
      );
    expect(() => checkOptions('fast')).toThrow('are not an object');
    expect(() => checkOptions(JSON.parse('{"__proto__": 1}'))).toThrow(
      '"__proto__" is not an option',
    );
  });
});
