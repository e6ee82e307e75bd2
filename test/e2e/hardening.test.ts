import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, serveInChild } from '../_child.js';
import { cli } from '../_cli-session.js';
import {
  buildApp,
  httpRequest,
  importTable,
  removeApp,
  send,
  servedShapes,
  serve,
  writeApp,
  type Served,
} from '../_utils.js';

const ROUTES = `
import { Course, removeParam, url } from 'course-router';
Course.get('/a/b', () => 'a/b');
Course.get('/b', () => 'b');
Course.get('/p/{v}', (v) => 'p:' + v).where('v', '.*');
Course.get('/here', () => url());
Course.get('/strip', () => (removeParam() ? undefined : 'none'));
`;

let dir: string;
let served: Served;

beforeAll(async () => {
  dir = writeApp({ 'routes.ts': ROUTES });
  await buildApp(dir);
  served = await serve(await importTable(dir), { maxParamLength: 50 });
});

afterAll(async () => {
  await served?.close();
  removeApp(dir);
});

describe('request hardening (both adapters alike)', () => {
  it('dot segments are resolved, never above the root, also when written %2e', async () => {
    expect((await send(served, 'GET', '/a/x/../b')).body).toBe('a/b');
    expect((await send(served, 'GET', '/a/./b')).body).toBe('a/b');
    expect((await send(served, 'GET', '/../../b')).body).toBe('b');
    expect((await send(served, 'GET', '/a/%2e%2e/b')).body).toBe('b');
  });

  it('a fragment in the target is cut off as the URL parser does: its dot segments climb nothing', async () => {
    expect(await send(served, 'GET', '/b#/../a/b')).toMatchObject({ status: 200, body: 'b' });
    expect((await send(served, 'GET', '/p/x#/../../../a/b')).body).toBe('p:x');
    expect((await send(served, 'GET', '/here?q=1#/../y')).body).toBe('/here?q=1');
    expect((await send(served, 'GET', '/here#?q=1')).body).toBe('/here');
    // Over a raw socket, as no well-behaved client sends it.
    for (const target of ['/b#/../nothing', '/b/#/../../nothing', '/b#'])
      expect(
        await rawStatus(
          served.base,
          `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
        target,
      ).toBe(200);
  });

  it('empty segments and backslashes collapse, so the path never becomes a host', async () => {
    expect((await send(served, 'GET', '//a//b')).body).toBe('a/b');
    expect((await send(served, 'GET', '/a\\b')).body).toBe('a/b');
    expect((await send(served, 'GET', '//evil.example/here?x=1')).status).toBe(404);
    expect((await send(served, 'GET', '/here/..//here?x=1')).body).toBe('/here?x=1');
    // A path ending in a slash or a dot segment keeps its slash, as a browser writes it.
    expect((await send(served, 'GET', '/here/./x/..?q=1')).body).toBe('/here/?q=1');
    expect((await send(served, 'GET', '/x/../here/.')).body).toBe('/here/');
    expect((await send(served, 'GET', '/x/..//here//')).body).toBe('/here/');
    expect(await send(served, 'GET', '//strip?x=1')).toMatchObject({
      status: 302,
      headers: { location: '/strip' },
    });
  });

  it('%2F stays inside its segment and reaches the parameter decoded once', async () => {
    expect((await send(served, 'GET', '/p/a%2Fb')).body).toBe('p:a/b');
    expect((await send(served, 'GET', '/p/a%252F')).body).toBe('p:a%2F');
  });

  it('a parameter over maxParamLength is a 414; a target over 8 KiB is a 414', async () => {
    expect((await send(served, 'GET', `/p/${'x'.repeat(51)}`)).status).toBe(414);
    expect((await send(served, 'GET', `/p/${'x'.repeat(50)}`)).status).toBe(200);
    expect((await send(served, 'GET', `/b?${'q'.repeat(9000)}`)).status).toBe(414);
  });

  it('an empty or malformed Host is a 400; an absolute-form target uses its path', async () => {
    expect(
      await rawStatus(served.base, 'GET /b HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n'),
    ).toBe(400);
    expect((await httpRequest(served.base, 'GET', '/b', { host: 'a b' })).status).toBe(400);
    expect(
      (await httpRequest(served.base, 'GET', 'http://localhost/b', { host: 'localhost' })).body,
    ).toBe('b');
  });

  it('an empty Host is a 400 also as the first request a server sees', async () => {
    const child = await serveInChild(dir);
    try {
      const empty = 'GET /b HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n';
      expect((await rawExchange(child.port, [empty])).status).toBe(400);
      expect((await rawExchange(child.port, [empty])).status).toBe(400);
    } finally {
      await child.stop();
    }
  });
});

/** The status line of a request written byte for byte on a socket. */
function rawStatus(base: string, request: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

// A handler that trusts its parameter regex: `[^/]+` must mean no slash, also one sent as `%2F`.
const GUARDED = `
import { Course } from 'course-router';
Course.get('/files/{name}', (name: string) => 'file:' + name).where('name', '[^/]+');
Course.get('/pct/{v}', (v: string) => 'pct:' + v).where('v', '[0-9]+%');
Course.get('/doc/{base}.{ext}', (base: string, ext: string) => 'doc:' + base + '|' + ext)
  .where({ base: '[^/.]+', ext: '[a-z]+' });
Course.get('/doc/{any}', (any: string) => 'any:' + any).where('any', '.+');
`;

describe('a parameter regex tests the decoded value (both adapters, both matchers)', () => {
  const apps = servedShapes(GUARDED);

  it('an encoded slash never passes a [^/]+ guard: ..%2F..%2Fetc%2Fpasswd is a 404', async () => {
    for (const { label, served } of apps) {
      for (const target of [
        '/files/..%2F..%2Fetc%2Fpasswd',
        '/files/..%2f..%2fetc%2fpasswd',
        '/files/a%2Fb',
        '/files/%2F',
      ]) {
        expect((await send(served, 'GET', target)).status, `${label} ${target}`).toBe(404);
        expect(
          await rawStatus(
            served.base,
            `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
          ),
          `${label} ${target} (raw)`,
        ).toBe(404);
      }
      expect((await send(served, 'GET', '/files/notes.txt')).body, label).toBe('file:notes.txt');
      // Decoded once: `%252F` is the three characters `%2F`, no slash.
      expect((await send(served, 'GET', '/files/..%252F')).body, label).toBe('file:..%2F');
    }
  });

  it('an encoded percent is a percent to the regex: [0-9]+% takes 50%25', async () => {
    for (const { label, served } of apps) {
      expect(await send(served, 'GET', '/pct/50%25'), label).toMatchObject({
        status: 200,
        body: 'pct:50%',
      });
      expect((await send(served, 'GET', '/pct/50%2525')).status, label).toBe(404);
      expect((await send(served, 'GET', '/files/a%25b')).body, label).toBe('file:a%b');
    }
  });

  it('two parameters in a segment: each value is tested decoded, else the next route is tried', async () => {
    for (const { label, served } of apps) {
      expect((await send(served, 'GET', '/doc/50%25.txt')).body, label).toBe('doc:50%|txt');
      // `etc/passwd` is no `[^/.]+`: the route does not match, and the next one takes the path.
      expect((await send(served, 'GET', '/doc/etc%2Fpasswd.txt')).body, label).toBe(
        'any:etc/passwd.txt',
      );
    }
  });
});

describe('build-time regex safety', () => {
  it('E_REGEX_UNSAFE: a where() regex open to catastrophic backtracking fails the build at its line', async () => {
    const app = writeApp({
      'routes.ts': `import { Course } from 'course-router';\nCourse.get('/x/{v}', () => 'x')\n  .where('v', '(a+)+b');\n`,
    });
    try {
      const result = await cli(['build', '--root', app]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /routes\.ts:3:4: error E_REGEX_UNSAFE: parameter "v": the regex \/\^\(\?:\(\?:a\+\)\+b\)\$\/u, as the matcher runs it, can take exponential time/,
      );
      expect(result.stderr).toContain('allowUnsafeRegex()');
      // The checker's attack, as the expression it writes, unquoted.
      expect(result.stderr).toMatch(/\(slow on the input 'a+'( \+ |\.)/);
    } finally {
      removeApp(app);
    }
  });

  it('setMatch() regexes are checked too; allowUnsafeRegex() accepts one explicitly', async () => {
    const unsafe = `Course.all('/m', () => 'm').setMatch('/^(\\\\w+\\\\s?)*$/')`;
    const app = writeApp({ 'routes.ts': `import { Course } from 'course-router';\n${unsafe};\n` });
    const allowed = writeApp({
      'routes.ts': `import { Course } from 'course-router';\n${unsafe}.allowUnsafeRegex();\n`,
    });
    try {
      const refused = await cli(['build', '--root', app]);
      expect(refused.stderr).toContain('error E_REGEX_UNSAFE: setMatch()');
      expect((await cli(['build', '--root', allowed])).code).toBe(0);
    } finally {
      removeApp(app);
      removeApp(allowed);
    }
  });
});
