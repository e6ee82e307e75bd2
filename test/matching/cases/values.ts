import { bad, hit, miss, notAllowed, tooLong, type Case } from '../_case.js';

/** What a parameter may hold: regexes, percent-decoding, normalised paths, the length limit. */
export const VALUES: Case[] = [
  {
    name: 'regexes: where() runs of a class, [^/]+, and .* over slashes',
    app: 'main',
    routes: {
      num: `get('/r/num/{id}').where('id', '[0-9]+')`,
      any: `get('/r/any/{v}').where('v', '[^/]+')`,
      rest: `get('/r/rest/{rest}').where({ rest: '.*' })`,
    },
    requests: [
      hit('GET /r/num/42', 'num', '42'),
      miss('GET /r/num/4a'),
      hit('GET /r/any/a-b.c~d', 'any', 'a-b.c~d'),
      hit('GET /r/any/a%20b', 'any', 'a b'),
      miss('GET /r/any/a/b'),
      hit('GET /r/rest/a/b/c', 'rest', 'a/b/c'),
      hit('GET /r/rest/x', 'rest', 'x'),
      hit('GET /r/rest/a/b/', 'rest', 'a/b'),
    ],
  },
  {
    name: 'regexes: i and Unicode \\p{L}, on a percent-encoded non-ASCII value',
    app: 'main',
    routes: {
      hex: String.raw`get('/r/hex/{c}').where('c', /[a-f0-9]+/i)`,
      word: String.raw`get('/r/uni/{w}').where('w', '[\\p{L}-]+')`,
      wordr: String.raw`get('/r/unir/{w}').where('w', /[\p{L}-]+/u)`,
    },
    requests: [
      hit('GET /r/hex/ABCdef09', 'hex', 'ABCdef09'),
      miss('GET /r/hex/xyz'),
      miss('GET /R/hex/abc'),
      hit('GET /r/uni/Dermatolog%C3%ADa', 'word', 'Dermatología'),
      hit('GET /r/uni/%C3%A9t%C3%A9-long', 'word', 'été-long'),
      miss('GET /r/uni/a1'),
      miss('GET /r/uni/%7BL%7D'),
      hit('GET /r/unir/%D0%BC%D0%B8%D1%80', 'wordr', 'мир'),
    ],
  },
  {
    // `/^[a-z]{3}$/i.test('ſſſ')` is false; with `iu`, U+017F folds to s and U+212A to k.
    name: 'regexes: i folds case as JavaScript does without u, iu as with it',
    app: 'main',
    routes: {
      code: String.raw`get('/r/code/{c}').where('c', /[a-z]{3}/i)`,
      codeu: String.raw`get('/r/codeu/{c}').where('c', /[a-z]{3}/iu)`,
      notk: String.raw`get('/r/notk/{c}/x').where('c', /[^k]+/i)`,
    },
    requests: [
      hit('GET /r/code/AbC', 'code', 'AbC'),
      miss('GET /r/code/%C5%BF%C5%BF%C5%BF'),
      miss('GET /r/code/%E2%84%AAab'),
      miss('GET /r/code/%C3%A9ab'),
      hit('GET /r/codeu/AbC', 'codeu', 'AbC'),
      hit('GET /r/codeu/%C5%BF%C5%BF%C5%BF', 'codeu', 'ſſſ'),
      hit('GET /r/codeu/%E2%84%AAab', 'codeu', '\u212Aab'),
      hit('GET /r/notk/ab%E2%84%AA/x', 'notk', 'ab\u212A'),
      miss('GET /r/notk/aK/x'),
      miss('GET /r/notk/ak/x'),
    ],
  },
  {
    name: 'percent-decoding: once, after the structure; %2F never splits a parameter',
    app: 'main',
    routes: {
      enc: `get('/e/one/{v}').where('v', '[^/]+')`,
      encrest: `get('/e/rest/{v}').where('v', '.*')`,
      encword: `get('/e/word/{v}')`,
    },
    requests: [
      hit('GET /e/rest/a%2Fb', 'encrest', 'a/b'),
      hit('GET /e/rest/a%2fb/c', 'encrest', 'a/b/c'),
      hit('GET /e/rest/a%252F', 'encrest', 'a%2F'),
      hit('GET /e/one/100%25', 'enc', '100%'),
      hit('GET /e/one/caf%C3%A9', 'enc', 'café'),
      hit('GET /e/word/%61bc', 'encword', 'abc'),
      miss('GET /e/word/a%2Fb'),
      bad('GET /e/one/%zz'),
      bad('GET /e/one/a%00'),
    ],
  },
  {
    name: 'percent-decoding: a parameter regex tests the decoded value (%2F a slash, %25 a percent)',
    app: 'main',
    routes: {
      encfile: `get('/e/file/{name}').where('name', '[^/]+')`,
      encpct: `get('/e/pct/{v}').where('v', '[0-9]+%')`,
      encopt: `get('/e/opt/{v?}').where('v', '[^/]+')`,
      encname: `get('/e/name/{base}.{ext}').where({ base: '[^/.]+', ext: '[a-z]+' })`,
      encany: `get('/e/name/{any}').where('any', '.+')`,
    },
    requests: [
      hit('GET /e/file/notes.txt', 'encfile', 'notes.txt'),
      miss('GET /e/file/a%2Fb'),
      miss('GET /e/file/..%2F..%2Fetc%2Fpasswd'),
      miss('GET /e/file/..%2f..%2fetc%2fpasswd'),
      hit('GET /e/file/a%25b', 'encfile', 'a%b'),
      // A 405 names the verbs of the routes whose regexes take the decoded value, and only them.
      notAllowed('POST /e/file/a%25b', 'GET, HEAD'),
      miss('POST /e/file/a%2Fb'),
      hit('GET /e/pct/50%25', 'encpct', '50%'),
      // Decoded once: `%2525` is the value `%25`, not `%`.
      miss('GET /e/pct/50%2525'),
      miss('GET /e/pct/50%2F'),
      hit('GET /e/opt', 'encopt', null),
      hit('GET /e/opt/a%25b', 'encopt', 'a%b'),
      miss('GET /e/opt/a%2Fb'),
      // Two parameters in one segment: the route regex, then each value decoded.
      hit('GET /e/name/notes.txt', 'encname', 'notes', 'txt'),
      hit('GET /e/name/50%25.txt', 'encname', '50%', 'txt'),
      // `a/b` is no `[^/.]+`: the route does not match, and the next one takes the path.
      hit('GET /e/name/a%2Fb.txt', 'encany', 'a/b.txt'),
      hit('GET /e/name/..%2F..%2Fetc.txt', 'encany', '../../etc.txt'),
    ],
  },
  {
    name: "percent-decoding: on a domain's routes and a setMatch route's URL parameters too",
    app: 'main',
    group: `{ domain: 'enc.example.com' }`,
    routes: {
      dencfile: `get('/e/d/file/{name}').where('name', '[^/]+')`,
      dencname: `get('/e/d/name/{base}.{ext}').where({ base: '[^/.]+', ext: '[a-z]+' })`,
      dencm: String.raw`get('/e/d/m/{name}').where('name', '[^/]+').setMatch(/^\/e\/d\/m\/(.*)$/)`,
    },
    requests: [
      hit('GET /e/d/file/a%25b enc.example.com', 'dencfile', 'a%b'),
      miss('GET /e/d/file/a%2Fb enc.example.com'),
      hit('GET /e/d/name/50%25.txt enc.example.com', 'dencname', '50%', 'txt'),
      miss('GET /e/d/name/a%2Fb.txt enc.example.com'),
      notAllowed('POST /e/d/name/50%25.txt enc.example.com', 'GET, HEAD'),
      miss('POST /e/d/name/a%2Fb.txt enc.example.com'),
      hit('GET /e/d/m/a%25b enc.example.com', 'dencm', 'a%b', 'a%b'),
      // The setMatch regex matches; the URL's `{name}` does not, decoded: it is absent.
      hit('GET /e/d/m/a%2Fb enc.example.com', 'dencm', null, 'a/b'),
    ],
  },
  {
    name: 'path normalisation: dot segments, empty segments and backslashes, before matching',
    app: 'main',
    routes: {},
    requests: [
      hit('GET /static//tea', 'tea'),
      hit('GET /static/x/../tea', 'tea'),
      hit('GET /static/./tea/.', 'tea'),
      hit('GET /static\\tea', 'tea'),
      hit('GET /r/rest/a/../b', 'rest', 'b'),
      hit('GET /r/rest/a//b', 'rest', 'a/b'),
      hit('GET /r/rest/a/%2e%2e/b', 'rest', 'b'),
      miss('GET /p/user/7/..%2F8'),
      miss('GET /r/rest/%2e%2e/x'),
    ],
  },
  {
    name: 'limits: a parameter over maxParamLength (1,000) is a 414, in a segment or across them',
    app: 'main',
    routes: {},
    requests: [
      hit(`GET /p/user/${'x'.repeat(1000)}`, 'user', 'x'.repeat(1000)),
      tooLong(`GET /p/user/${'x'.repeat(1001)}`),
      hit(`GET /r/rest/${'a/'.repeat(499)}a`, 'rest', `${'a/'.repeat(499)}a`),
      tooLong(`GET /r/rest/${'a/'.repeat(500)}a`),
      tooLong(`GET /p/range/${'1'.repeat(1001)}-2`),
    ],
  },
];
