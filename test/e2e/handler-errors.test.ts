import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../_cli-session.js';
import { removeApp, writeApp } from '../_utils.js';

// Every handler is checked against the whole list of what its route delivers (CONTRACT §5.2,
// §5.9). One build holds every mismatch (a build reports them all at once); another, correct
// handlers, some of whose parameters are named after other route parameters (warnings).

const SHOP = `export class Shop {
  byNumber(id: number) { return id; }
  tooMany(id: string, extra: string, more?: string) { return id + extra + more; }
  required(year: string) { return year; }
  defaulted(year = 2024) { return year; }
  ok(id: string) { return id; }
  rest(...all: number[]) { return all; }
  texts(...all: string[]) { return all; }
  maker() { return () => 'made'; }
  lang(lang: 'en' | 'fr') { return lang; }
  when(at: Date) { return at.getFullYear(); }
  list(ids: string[]) { return ids.join(); }
  failure() { return new RangeError('no'); }
  *items() { yield 1; }
  pair(...[a, b]: [string, string]) { return a + b; }
  count(...[n]: [number]) { return n.toFixed(2); }
  numbers(...all: Array<number>) { return all; }
  pairOk(...[a, b]: [string, string?]) { return a + b; }
  enumed(lang: Lang) { return lang; }
  generic<T extends string>(id: T) { return id; }
  numeral(id: \`\${number}\`) { return Number(id); }
}
export enum Lang { en = 'en', fr = 'fr' }
`;
const ROLE = `export class Role {
  handle(request: unknown, level: number) { return level; }
}
`;

const ERRORS = `import { Course } from 'course-router';
import { Shop } from './app/Components/Controller/Shop.js';
Course.get('/a/{id}', 'Shop@byNumber');
Course.get('/b/{id}', 'Shop@tooMany');
Course.get('/c/{year?}', 'Shop@required');
Course.get('/d/{year?}', 'Shop@defaulted');
Course.get('/e/{id}', [Shop, 'byNumber']);
Course.get('/f/{id}', (id: number) => id);
Course.get('/g/{a}/{b}', 'Shop@rest');
Course.get('/h', 'Shop@byNumber').setMatch('/^\\\\/h\\\\/(\\\\d+)$/');
Course.get('/i/{id}', 'Shop@ok').addMiddleware('Middleware\\\\Role:admin');
Course.group({ prefix: '/j/{gid}' }, () => {
  Course.get('/k', (gid: string, id: string) => gid + id);
});
Course.get('/l/{id}', 'Shop@ok').addMiddleware('Middleware\\\\Role');
Course.group({ prefix: '/n/{org}' }, () => {
  Course.get('/p/{pid?}', (org, pid) => org + pid);
});
Course.get('/q', () => 'q').addMiddleware('Middleware\\\\Gate');
Course.get('/r', () => 'r').addMiddleware('Middleware\\\\LateGate');
Course.get('/s', (name: string, id: string) => name + id).setMatch('/^\\\\/s\\\\/([a-z]+)(?:\\\\/(\\\\d+))?$/');
Course.group({ prefix: '/u', exceptionHandler: 'Handlers\\\\Missing' }, () => Course.get('/v', () => 'v'));
Course.get('/w', () => 'w').addMiddleware('Middleware\\\\Kind:root');
Course.get('/x/{a}/{b?}', 'Shop@texts');
Course.get('/y', () => () => 'y');
Course.get('/z', 'Shop@maker');
Course.get('/aa', () => 'aa').addMiddleware('Middleware\\\\WrongRequest');
Course.group({ prefix: '/ab', exceptionHandler: 'Handlers\\\\WrongTypes' }, () => Course.get('/ac', () => 'ac'));
Course.addBootManager('Boot\\\\WrongBoot');
Course.get('/ad/{lang}', 'Shop@lang').where('lang', 'en|fr|de');
Course.get('/ae/{lang}', 'Shop@lang').where('lang', '[a-z]{2}');
Course.get('/af/{at}', 'Shop@when');
Course.get('/ag/{ids}', 'Shop@list');
Course.get('/ah', () => 'ah').addMiddleware('Middleware\\\\Sized:5');
Course.get('/ai', () => 'ai').addMiddleware('Middleware\\\\Listed');
Course.group({ prefix: '/aj', exceptionHandler: 'Handlers\\\\Includes' }, () => Course.get('/ak', () => 'ak'));
Course.get('/al', () => new Map([['a', 1]]));
Course.get('/am', () => Symbol('x'));
Course.get('/an', async () => () => 1);
Course.get('/ao', 'Shop@failure');
Course.get('/ap', 'Shop@items');
Course.get('/aq/{a}', 'Shop@pair');
Course.get('/ar/{n}', 'Shop@count');
Course.get('/as/{a}', (...[a, b]: [string, string]) => a + b);
Course.get('/at/{a}', 'Shop@numbers');
Course.get('/au/{id}', 'Shop@ok').where('id', 'a|b').setMatch('/^\\\\/au\\\\/(\\\\w+)$/');
Course.get('/av', () => ({ tags: new Set(['a']) }));
Course.get('/aw', async () => [{ counts: new Map([['a', 1]]) }]);
Course.get('/ax', () => ({ n: 10n }));
Course.get('/ay', () => ({ data: Promise.resolve(1) }));
Course.get('/az/{id}', ({ length }: number[]) => length);
Course.get('/ba/{lang}', 'Shop@enumed').where('lang', 'en|de');
Course.group({ prefix: '/bb', exceptionHandler: ['Handlers\\\\Narrow', 'Handlers\\\\Swapped'] }, () => {
  Course.get('/bc', () => 'bc').addMiddleware('Middleware\\\\Native');
});
Course.get('/bd/{id}', 'Shop@numeral');
Course.get('/be/{id}', 'Shop@numeral').where('id', '[0-9a-f]+');
Course.get('/bf/{id}', 'Shop@numeral').where('id', '[0-9]*');
Course.get('/bg/{id}', 'Shop@byNumber').where('id', '[0-9]+');
`;

// Guards that answer "go on" with true: a middleware's value answers the request.
const GATES = {
  'app/Middleware/Gate.ts': `export class Gate {
  handle(request: { getHeader(name: string): string | undefined }) { return request.getHeader('x-ok') === 'yes'; }
}
`,
  'app/Middleware/LateGate.ts': `export class LateGate {
  async handle(): Promise<boolean | undefined> { return undefined; }
}
`,
};

const CORRECT = `import { Course } from 'course-router';
Course.get('/a/{id}', 'Shop@ok');
Course.get('/b/{id?}', (id?: string) => id);
Course.get('/c/{id}', (id: unknown, ...rest: string[]) => [id, rest]);
Course.group({ prefix: '/g/{gid}' }, () => {
  Course.get('/posts/{id}', 'Shop@ok');
  Course.get('/more/{id}', (gid: string, id: string) => gid + id);
});
Course.group({ domain: '{account}.example.com' }, () => {
  Course.get('/team/{id}', (account, id) => account + id);
});
Course.get('/m', (first: string) => first).setMatch('/^\\\\/m\\\\/(\\\\w+)$/');
Course.get('/n', () => 'n').addMiddleware('Middleware\\\\Open:admin');
Course.get('/o', () => 'o').addMiddleware('Middleware\\\\Kind:admin');
Course.get('/t', (a: string, b?: string) => a + b).setMatch('/^\\\\/t\\\\/(\\\\w+)(?:-(\\\\d+))?$/');
Course.get('/u/{lang}', 'Shop@lang').where('lang', '(?:en|fr)');
Course.get('/v/{a}', 'Shop@pairOk');
Course.get('/w/{a}', (a: string | undefined, first: string) => first + a).setMatch('/^\\\\/w\\\\/(\\\\w+)$/');
// What JSON writes in full, or a route sends as it is: no error.
type Tree = { name: string; children: Tree[]; parent?: Tree };
class Point { constructor(public x: number) {} norm() { return Math.abs(this.x); } }
Course.get('/x', () => ({ at: new Date(), list: [1, 2], nested: { words: ['a'] }, maybe: undefined as string | undefined }));
Course.get('/y', () => new Response('y'));
Course.get('/z', (): Tree => ({ name: 'root', children: [] }));
Course.get('/za', () => [new Point(1)]);
Course.get('/zc/{lang}', 'Shop@enumed').where('lang', 'en|fr');
Course.get('/zd/{id}', 'Shop@generic');
Course.get('/ze/{id}', 'Shop@numeral').where('id', '[0-9]+');
Course.get('/zf/{id}', 'Shop@numeral').where('id', '(?:0|[1-9]\\\\d*)');
Course.get('/zg/{year}/{id}', (year: \`\${number}\`, id: \`\${number}\`) => year + id).where({ year: '\\\\d{4}', id: '\\\\d+' });
Course.get('/zb', () => ({ big: String(10n), on: () => 1, bytes: new Uint8Array(2).length }));
Course.group({ prefix: '/zh/{team}' }, () => {
  Course.get('/up/{period?}', (team) => team.toUpperCase());
});
`;

let failing: { dir: string; stderr: string; code: number };
let correct: { dir: string; stderr: string; code: number };

async function run(routes: string) {
  const dir = writeApp({
    'routes.ts': routes,
    'app/Components/Controller/Shop.ts': SHOP,
    'app/Middleware/Role.ts': ROLE,
    ...GATES,
    'app/Middleware/Kind.ts': `export class Kind {
  handle(request: unknown, kind: 'admin' | 'owner') { return undefined; }
}
`,
    'app/Middleware/WrongRequest.ts': `export class WrongRequest {
  handle(request: string) { return request.length > 100 ? 'long' : undefined; }
}
`,
    'app/Handlers/WrongTypes.ts': `export class WrongTypes {
  handleError(request: number, error: string) { return error + request; }
}
`,
    'app/Boot/WrongBoot.ts': `export class WrongBoot {
  boot(router: string, request: number) { return router + request; }
}
`,
    'app/Handlers/Narrow.ts': `import { HttpException, type CourseRequest } from 'course-router';
export class Narrow {
  handleError(request: CourseRequest, error: HttpException) { return error.status > 0 ? 'x' : undefined; }
}
`,
    'app/Handlers/Swapped.ts': `import type { CourseRequest, HandledError } from 'course-router';
export class Swapped {
  handleError(error: HandledError, request: CourseRequest) { return error.message; }
}
`,
    'app/Middleware/Native.ts': `export class Native {
  handle = (request: Request) => (request.headers.get('x') ? 'x' : undefined);
}
`,
    'app/Handlers/Missing.ts': `export class Missing {
  handleError(request: unknown, error: { status?: number }) { return error.status === 404; }
}
`,
    'app/Middleware/Sized.ts': `export class Sized {
  handle(request: unknown, max: Map<string, number>) { return max.has('x') ? 'no' : undefined; }
}
`,
    'app/Middleware/Listed.ts': `export class Listed {
  handle(request: { getHeader(name: string): string | undefined }) {
    return ['a'].some((x) => x === request.getHeader('x')) || undefined;
  }
}
`,
    'app/Handlers/Includes.ts': `export class Includes {
  handleError(request: unknown, error: Error) { return error.message.includes('boom') || undefined; }
}
`,
    'app/Middleware/Open.ts':
      'export class Open {\n  handle(request: unknown) { return undefined; }\n}\n',
  });
  const result = await cli(['build', '--root', dir]);
  return { dir, stderr: result.stderr, code: result.code };
}

beforeAll(async () => {
  [failing, correct] = await Promise.all([run(ERRORS), run(CORRECT)]);
});

afterAll(() => {
  removeApp(failing.dir);
  removeApp(correct.dir);
});

const SHOP_FILE = 'app/Components/Controller/Shop.ts';

describe('a handler parameter that cannot take what the route gives is a build error', () => {
  it('fails the build, every mismatch reported at once', () => {
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('build failed: 56 errors');
  });

  it("'Class@method': a parameter typed number, at the route call and the method's declaration", () => {
    expect(failing.stderr).toContain(
      `routes.ts:3:8: error E_HANDLER: Shop@byNumber: its parameter id: number cannot take {id}, a string (declared at ${SHOP_FILE}:2:12)\n` +
        '  hint: route parameters arrive as strings: declare id: string and convert it\n' +
        "  2 | import { Shop } from './app/Components/Controller/Shop.js';\n" +
        "> 3 | Course.get('/a/{id}', 'Shop@byNumber');",
    );
  });

  it('more required parameters than the route gives', () => {
    expect(failing.stderr).toContain(
      `routes.ts:4:8: error E_HANDLER: Shop@tooMany: its parameter extra is required, but the route gives only one parameter (declared at ${SHOP_FILE}:3:23)`,
    );
    // An optional one past the end is fine.
    expect(failing.stderr).not.toContain('its parameter more');
  });

  it('an optional route parameter reaching a parameter that cannot be undefined', () => {
    expect(failing.stderr).toContain(
      `routes.ts:5:8: error E_HANDLER: Shop@required: its parameter year: string cannot take {year?}, which is undefined when the URL leaves it out (declared at ${SHOP_FILE}:4:12)`,
    );
    expect(failing.stderr).toContain(
      "hint: declare year?: string, or give it a default (year = '…')",
    );
  });

  it('a default that is not a string', () => {
    expect(failing.stderr).toContain(
      `routes.ts:6:8: error E_HANDLER: Shop@defaulted: its parameter year: number cannot take {year?}, a string (declared at ${SHOP_FILE}:5:13)`,
    );
  });

  it("[Class, 'method'] and a closure", () => {
    expect(failing.stderr).toContain(
      `routes.ts:7:8: error E_HANDLER: Shop@byNumber: its parameter id: number cannot take {id}, a string (declared at ${SHOP_FILE}:2:12)`,
    );
    expect(failing.stderr).toContain(
      'routes.ts:8:8: error E_HANDLER: the closure: its parameter id: number cannot take {id}, a string (declared at routes.ts:8:24)',
    );
  });

  it('a rest parameter, a setMatch() capture, and a middleware argument', () => {
    expect(failing.stderr).toContain(
      `routes.ts:9:8: error E_HANDLER: Shop@rest: its rest parameter ...all: number[] cannot take {a}, a string (declared at ${SHOP_FILE}:7:11)`,
    );
    expect(failing.stderr).toContain(
      `routes.ts:10:8: error E_HANDLER: Shop@byNumber: its parameter id: number cannot take capture 1 of setMatch(), a string (declared at ${SHOP_FILE}:2:12)`,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:11:\d+: error E_HANDLER: Middleware\\Role:admin \(middleware Role\.handle\): its parameter level: number cannot take the argument "admin", a string \(declared at app\/Middleware\/Role\.ts:2:28\)\n {2}hint: middleware arguments arrive as strings: declare level: string and convert it/,
    );
  });

  it('a setMatch() capture whose group may not take part reaching a parameter that cannot be undefined', () => {
    expect(failing.stderr).toContain(
      'routes.ts:21:8: error E_HANDLER: the closure: its parameter id: string cannot take capture 2 of setMatch(), which is undefined when the URL leaves it out (declared at routes.ts:21:33)',
    );
    expect(failing.stderr).not.toContain('its parameter name');
  });

  it('a parameter typed with literals takes a route parameter whose where() writes out only those', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:30:\d+: error E_HANDLER: Shop@lang: its parameter lang: 'en' \| 'fr' cannot take \{lang\}, which its where\(\) lets be "de" \(declared at app\/Components\/Controller\/Shop\.ts:10:8\)/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:31:\d+: error E_HANDLER: Shop@lang: its parameter lang: 'en' \| 'fr' cannot take \{lang\}, a string \(declared at [^)]*\)\n {2}hint: give \{lang\} a where\(\) that writes out values 'en' \| 'fr' takes \(where\('lang', 'en\|fr'\)\), or declare lang: string/,
    );
    expect(correct.stderr).not.toContain('Shop@lang');
  });

  it("a parameter of the language's types (Date, string[], Map) cannot take a string; a boolean from its methods is one", () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:32:\d+: error E_HANDLER: Shop@when: its parameter at: Date cannot take \{at\}, a string/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:33:\d+: error E_HANDLER: Shop@list: its parameter ids: string\[\] cannot take \{ids\}, a string/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:34:\d+: error E_HANDLER: Middleware\\Sized:5 \(middleware Sized\.handle\): its parameter max: Map<string, number> cannot take the argument "5", a string/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:35:\d+: error E_HANDLER: Middleware\\Listed \(middleware Listed\.handle\) returns a boolean/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:36:\d+: error E_HANDLER: Handlers\\Includes \(exception handler Includes\.handleError\) returns a boolean/,
    );
  });

  it('a middleware argument its literal type does not take; one it does builds', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:23:\d+: error E_HANDLER: Middleware\\Kind:root \(middleware Kind\.handle\): its parameter kind: 'admin' \| 'owner' cannot take the argument "root", a string \(declared at app\/Middleware\/Kind\.ts:2:28\)\n {2}hint: give it one of the values 'admin' \| 'owner' takes, or declare kind: string/,
    );
    expect(correct.stderr).not.toMatch(/E_HANDLER: Middleware\\Kind/);
  });

  it('a rest parameter of strings given an optional parameter: the hint takes undefined too', () => {
    expect(failing.stderr).toContain(
      `routes.ts:24:8: error E_HANDLER: Shop@texts: its rest parameter ...all: string[] cannot take {b?}, a string or undefined (declared at ${SHOP_FILE}:8:12)\n` +
        '  hint: declare ...all: (string | undefined)[]\n',
    );
  });

  it('a route that returns a function, which has no response form: a closure or a method', () => {
    expect(failing.stderr).toContain(
      "routes.ts:25:8: error E_HANDLER: the closure returns a function, which has no response form: a route's value is its answer\n" +
        '  hint: call it, and return what it gives (() => helper() rather than () => helper)\n',
    );
    expect(failing.stderr).toContain(
      "routes.ts:26:8: error E_HANDLER: Shop@maker returns a function, which has no response form: a route's value is its answer\n",
    );
  });

  it('a route that returns a symbol, or an object JSON would send as {}: a Map, an Error, an iterator', () => {
    const at = (line: number, what: string, hint: string) =>
      `routes.ts:${line}:8: error E_HANDLER: ${what}, which has no response form: a route's value is its answer\n` +
      `  hint: ${hint}\n`;
    expect(failing.stderr).toContain(
      at(37, 'the closure returns a Map', 'return Object.fromEntries(map), or [...map]'),
    );
    expect(failing.stderr).toContain(
      at(38, 'the closure returns a symbol', 'return a string: String(symbol.description)'),
    );
    // An async closure's value is what its promise gives.
    expect(failing.stderr).toContain(
      at(
        39,
        'the closure returns a function',
        'call it, and return what it gives (() => helper() rather than () => helper)',
      ),
    );
    expect(failing.stderr).toContain(
      at(
        40,
        'Shop@failure returns an Error',
        'throw it: an exception handler, or the status answer, takes it',
      ),
    );
    expect(failing.stderr).toContain(
      at(41, 'Shop@items returns an iterator', 'return [...iterator]'),
    );
  });

  it('inside the value: what JSON writes as {} (a Set, a Map, a promise) or throws for (a bigint)', () => {
    const at = (line: number, what: string, hint: string) =>
      `routes.ts:${line}:8: error E_HANDLER: the closure returns ${what}, which has no response form: a route's value is its answer\n` +
      `  hint: ${hint}\n`;
    expect(failing.stderr).toContain(at(47, 'a Set (at .tags)', 'return [...set]'));
    expect(failing.stderr).toContain(
      at(48, 'a Map (at [].counts)', 'return Object.fromEntries(map), or [...map]'),
    );
    expect(failing.stderr).toContain(
      at(49, 'a bigint (at .n)', 'JSON has no bigint: write it as String(value)'),
    );
    expect(failing.stderr).toContain(at(50, 'a promise (at .data)', 'await it first'));
  });

  it("a string enum takes its members' strings, and only them", () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:52:8: error E_HANDLER: Shop@enumed: its parameter lang: Lang cannot take \{lang\}, which its where\(\) lets be "de"/,
    );
    expect(correct.stderr).not.toMatch(/Shop@enumed|Shop@generic/);
  });

  it('a `${number}` takes a parameter whose where() matches digits alone, and only that', () => {
    const numeral = (line: number, what: string, hint: string) =>
      `routes.ts:${line}:8: error E_HANDLER: Shop@numeral: its parameter id: \`\${number}\` cannot take {id}, ${what} (declared at ${SHOP_FILE}:21:11)\n` +
      `  hint: ${hint}`;
    const digits = "give {id} a where() of digits (where('id', '[0-9]+')), or declare id: string";
    expect(failing.stderr).toContain(numeral(56, 'a string', digits));
    expect(failing.stderr).toContain(numeral(57, 'a string', digits));
    expect(failing.stderr).toContain(numeral(58, 'a string', digits));
    expect(correct.stderr).not.toMatch(/Shop@numeral|routes\.ts:(?:28|29|30):/);
  });

  it('a destructured parameter: the hint names no declaration it cannot have', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:51:8: error E_HANDLER: the closure: its parameter \{ length \}: number\[\] cannot take \{id\}, a string \(declared at routes\.ts:51:25\)\n {2}hint: route parameters arrive as strings: take each as a string parameter and convert it\n/,
    );
  });

  it('a rest parameter of a tuple type: each element is checked as a parameter, named as its pattern', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:42:8: error E_HANDLER: Shop@pair: its parameter b is required, but the route gives only one parameter/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:43:8: error E_HANDLER: Shop@count: its parameter n: number cannot take \{n\}, a string/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:44:8: error E_HANDLER: the closure: its parameter b is required, but the route gives only one parameter/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:45:8: error E_HANDLER: Shop@numbers: its rest parameter \.\.\.all: Array<number> cannot take \{a\}, a string/,
    );
    expect(correct.stderr).not.toContain('Shop@pairOk');
  });

  it("a setMatch() route's URL placeholder, filled only when its URL matches too, may be undefined", () => {
    expect(failing.stderr).toContain(
      'routes.ts:46:8: error E_HANDLER: Shop@ok: its parameter id: string cannot take {id}, which is undefined when the request matches setMatch() but not the URL (declared at app/Components/Controller/Shop.ts:6:6)\n' +
        '  hint: declare id: string | undefined\n',
    );
    expect(correct.stderr).not.toMatch(/routes\.ts:18:\d+: (error|warning)/);
  });

  it('a middleware, exception handler or boot manager declaring a primitive for what it is given', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:27:\d+: error E_HANDLER: Middleware\\WrongRequest \(middleware WrongRequest\.handle\): its parameter request: string is given the request \(CourseRequest\) \(declared at app\/Middleware\/WrongRequest\.ts:2:10\)\n {2}hint: declare request: CourseRequest/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:28:\d+: error E_HANDLER: Handlers\\WrongTypes \(exception handler WrongTypes\.handleError\): its parameter request: number is given the request/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:28:\d+: error E_HANDLER: Handlers\\WrongTypes \(exception handler WrongTypes\.handleError\): its parameter error: string is given the error \(HandledError\)/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:29:\d+: error E_HANDLER: Boot\\WrongBoot \(boot manager WrongBoot\.boot\): its parameter router: string is given the router \(BootRouter\)/,
    );
  });

  it("a class of the package's where the router gives another: a narrower error, swapped parameters, the runtime's request", () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:53:\d+: error E_HANDLER: Handlers\\Narrow \(exception handler Narrow\.handleError\): its parameter error: HttpException is given the error \(HandledError\), which is every error thrown, not only one class of them \(declared at app\/Handlers\/Narrow\.ts:3:\d+\)\n {2}hint: declare it HandledError, and tell an HttpException by instanceof/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:53:\d+: error E_HANDLER: Handlers\\Swapped \(exception handler Swapped\.handleError\): its parameter error: HandledError is given the request \(CourseRequest\), not the error \(declared at app\/Handlers\/Swapped\.ts:3:\d+\)\n {2}hint: declare the parameters in the order they are given: \(CourseRequest, HandledError\)/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:53:\d+: error E_HANDLER: Handlers\\Swapped \(exception handler Swapped\.handleError\): its parameter request: CourseRequest is given the error \(HandledError\), not the request/,
    );
    expect(failing.stderr).toMatch(
      /routes\.ts:54:\d+: error E_HANDLER: Middleware\\Native \(middleware Native\.handle\): its parameter request: Request is given the request \(CourseRequest\), not the runtime's own \(declared at app\/Middleware\/Native\.ts:2:\d+\)\n {2}hint: declare it CourseRequest: the runtime's own request is request\.raw/,
    );
  });

  it('an exception handler whose handleError() returns a boolean', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:22:\d+: error E_HANDLER: Handlers\\Missing \(exception handler Missing\.handleError\) returns a boolean: a handler that returns anything but undefined or null answers the request with it \(false would be sent as the page, a 200\)\n {2}hint: return nothing to pass the error on, or a response to answer it/,
    );
  });

  it('a middleware named without the argument its handle() requires: the hint is the colon', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:15:\d+: error E_HANDLER: Middleware\\Role \(middleware Role\.handle\): its parameter level is required, but the middleware is given no argument \(declared at app\/Middleware\/Role\.ts:2:28\)\n {2}hint: give it after a colon in the middleware's name \('Name:value'\), or make it optional/,
    );
  });

  it('a middleware whose handle() returns a boolean, or a promise of one', () => {
    expect(failing.stderr).toMatch(
      /routes\.ts:19:\d+: error E_HANDLER: Middleware\\Gate \(middleware Gate\.handle\) returns a boolean: a middleware that returns anything but undefined or null answers the request with it \(true would be sent as the page\)\n {2}hint: return nothing to let the request go on, or a response to stop it/,
    );
    expect(failing.stderr).toMatch(/routes\.ts:20:\d+: error E_HANDLER: Middleware\\LateGate /);
    // Role's handle() returns a number: not this error.
    expect(failing.stderr).not.toMatch(/Role.* returns a boolean/);
  });

  it('a closure requiring more than its group and route give', () => {
    expect(failing.stderr).toContain(
      'routes.ts:13:10: error E_HANDLER: the closure: its parameter id is required, but the route gives only one parameter (declared at routes.ts:13:34)',
    );
  });

  it('an unannotated closure parameter typed by the route call, which sees no group prefix', () => {
    // tsc types `pid` a string (the second position of `/p/{pid?}` plus nothing); it receives
    // `{pid?}`, which a request to /n/acme/p leaves undefined.
    expect(failing.stderr).toContain(
      "routes.ts:17:10: error E_HANDLER: the closure: its parameter pid: string (as the route's own URL types it) cannot take {pid?}, which is undefined when the URL leaves it out (declared at routes.ts:17:33)\n" +
        "  hint: annotate the closure's parameters: (org: string, pid?: string)",
    );
    expect(failing.stderr).not.toContain('its parameter org');
  });

  it('a number for a where() of digits: the hint names `${number}` too', () => {
    expect(failing.stderr).toContain(
      `routes.ts:59:8: error E_HANDLER: Shop@byNumber: its parameter id: number cannot take {id}, a string of digits (declared at ${SHOP_FILE}:2:12)\n` +
        '  hint: route parameters arrive as strings: declare id: string (or `${number}`: its where() matches digits alone) and convert it\n',
    );
  });
});

describe('correct handlers build; a parameter receiving another name is a warning', () => {
  it('builds, the only warnings those of parameters named after another', () => {
    expect(correct.code, correct.stderr).toBe(0);
    expect(correct.stderr).not.toContain('error');
    expect(correct.stderr.match(/warning E_HANDLER/g)).toHaveLength(3);
  });

  it('an unannotated closure parameter tsc types undefined from the route URL, where the group gives a string', () => {
    // tsc types `team` by the first position of `/up/{period?}`: `team.toUpperCase()` is a tsc
    // error, though the route always gives it.
    expect(correct.stderr).toContain(
      "routes.ts:33:10: warning E_HANDLER: the closure: its parameter team: string | undefined (as the route's own URL types it) receives {team} of the group prefix, which is never undefined: tsc sees only the route's own URL (declared at routes.ts:33:32)\n" +
        "  hint: annotate the closure's parameters: (team: string, period?: string)\n",
    );
  });

  it('a middleware argument its handle() has no parameter for: not used, a warning', () => {
    expect(correct.stderr).toMatch(
      /routes\.ts:13:\d+: warning E_HANDLER: Middleware\\Open:admin \(middleware Open\.handle\) is given the argument "admin", which its handle\(\) has no parameter for: it is not used\n {2}hint: declare a parameter for it after the request, or leave it out of the name/,
    );
  });

  it("names both: the method's parameter and the group's parameter it receives", () => {
    expect(correct.stderr).toContain(
      `routes.ts:6:10: warning E_HANDLER: Shop@ok: its parameter id receives {gid} of the group prefix (parameters arrive by position, declared at ${SHOP_FILE}:6:6)\n` +
        '  hint: name it gid, or take the parameters before it too',
    );
  });
});
