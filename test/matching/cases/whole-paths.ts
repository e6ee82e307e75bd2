import { hit, miss, notAllowed, type Case } from '../_case.js';

/**
 * Routes that can take whole paths: setMatch, a root optional, a catch-all (in apps of their own
 * where they would take other cases' requests).
 */
export const WHOLE_PATHS: Case[] = [
  {
    name: 'setMatch: a PHP-style delimited regex with flags; its captures are the parameters',
    app: 'main',
    routes: {
      ajax: String.raw`all('/m/ajax').setMatch('/\\/m\\/ajax\\/([\\w]+)\\/?([0-9]+)?\\/?/is')`,
    },
    requests: [
      hit('GET /m/ajax/abc/123', 'ajax', 'abc', '123'),
      hit('POST /m/ajax/abc/', 'ajax', 'abc', null),
      hit('GET /M/AJAX/abc', 'ajax', 'abc', null),
      hit('DELETE /m/ajax/abc/123?x=9', 'ajax', 'abc', '123'),
      hit('HEAD /m/ajax/abc', 'ajax', 'abc', null),
      miss('GET /m/ajax/'),
    ],
  },
  {
    name: 'setMatch: a RegExp; its captures follow the URL parameters',
    app: 'main',
    routes: {
      tester: String.raw`get('/m/tester/{param}').setMatch(/^\/m\/tester\/(.*)$/i)`,
    },
    requests: [
      hit('GET /m/tester/one', 'tester', 'one', 'one'),
      hit('GET /m/tester/abepik/ko', 'tester', null, 'abepik/ko'),
      hit('GET /M/TESTER/x', 'tester', null, 'x'),
      hit('GET /m/tester/x?y=1', 'tester', 'x', 'x'),
      notAllowed('POST /m/tester/x', 'GET, HEAD'),
    ],
  },
  {
    name: 'optionals: a root /{lang?} is absent for the root, and takes one \\w+ segment',
    app: 'root',
    routes: {
      lang: `get('/{lang?}')`,
      about: `get('/{lang}/about')`,
      late: `get('/late')`,
      pricing: `get('/pricing-page')`,
    },
    requests: [
      hit('GET /', 'lang', null),
      hit('GET /?x=1', 'lang', null),
      hit('GET /fr', 'lang', 'fr'),
      hit('GET /fr/', 'lang', 'fr'),
      hit('GET /fr/about', 'about', 'fr'),
      hit('GET /late', 'lang', 'late'),
      hit('GET /pricing-page', 'pricing'),
      miss('GET /fr/x'),
      notAllowed('POST /', 'GET, HEAD'),
      notAllowed('POST /fr', 'GET, HEAD'),
    ],
  },
  {
    name: 'first registered wins: a setMatch catch-all takes what earlier routes leave',
    app: 'fallback',
    routes: {
      fstatic: `get('/f/static')`,
      fparam: `get('/f/{id}')`,
      fall: `all('/fallback').setMatch('/^(.*)$/')`,
    },
    requests: [
      hit('GET /f/static', 'fstatic'),
      hit('GET /f/static/?q=1', 'fstatic'),
      hit('POST /f/static', 'fall', '/f/static'),
      hit('GET /f/5?q', 'fparam', '5'),
      hit('DELETE /f/5', 'fall', '/f/5'),
      hit('GET /x/y/z', 'fall', '/x/y/z'),
      hit('GET /other?q=1', 'fall', '/other'),
      hit('GET /', 'fall', '/'),
      hit('GET /fallback', 'fall', '/fallback'),
    ],
  },
];
