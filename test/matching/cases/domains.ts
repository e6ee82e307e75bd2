import { hit, miss, notAllowed, type Case } from '../_case.js';

/** Domain groups: fixed hosts and labels, and the routes of every host. */
export const DOMAINS: Case[] = [
  {
    name: 'domains: a fixed host, in any case, with a port or a trailing dot',
    app: 'main',
    group: `{ domain: 'admin.example.com' }`,
    routes: { dpanel: `get('/d/panel')` },
    requests: [
      hit('GET /d/panel admin.example.com', 'dpanel'),
      hit('GET /d/panel ADMIN.Example.COM:8080', 'dpanel'),
      hit('GET /d/panel admin.example.com.', 'dpanel'),
      hit('GET /d/panel admin.example.com.:80', 'dpanel'),
      notAllowed('POST /d/panel admin.example.com', 'GET, HEAD'),
    ],
  },
  {
    name: 'domains: a {sub} label is one DNS label, and the first parameter',
    app: 'main',
    group: `{ domain: '{sub}.example.com' }`,
    routes: { dwho: `get('/d/who')`, ditem: `get('/d/item/{id}')` },
    requests: [
      hit('GET /d/who acme.example.com', 'dwho', 'acme'),
      hit('GET /d/who ACME.example.com:3000', 'dwho', 'acme'),
      hit('GET /d/who admin.example.com', 'dwho', 'admin'),
      hit('GET /d/item/5 acme.example.com', 'ditem', 'acme', '5'),
      hit('GET /d/item/5?x=1 acme.example.com.', 'ditem', 'acme', '5'),
      miss('GET /d/item/5 a.b.example.com'),
      miss('GET /d/item/5 example.com'),
      miss('GET /d/item/5'),
    ],
  },
  {
    name: "domains: a label constrained by the group's where",
    app: 'main',
    group: `{ domain: '{tenant}.shop.test', where: { tenant: '[a-z]+' } }`,
    routes: { dtenant: `get('/d/tenant/{id}')` },
    requests: [
      hit('GET /d/tenant/5 acme.shop.test', 'dtenant', 'acme', '5'),
      miss('GET /d/tenant/5 acme1.shop.test'),
      miss('GET /d/tenant/5 shop.test'),
    ],
  },
  {
    name: 'domains: routes without a domain answer every other host',
    app: 'main',
    routes: { dpublic: `get('/d/panel')`, dnone: `get('/d/who')`, devery: `get('/d/every')` },
    requests: [
      hit('GET /d/panel', 'dpublic'),
      hit('GET /d/panel other.example.com', 'dpublic'),
      hit('GET /d/who', 'dnone'),
      hit('GET /d/who a.b.example.com', 'dnone'),
      notAllowed('POST /d/panel', 'GET, HEAD'),
    ],
  },
  {
    name: 'domains: a route for every host registered first wins on a domain too',
    app: 'main',
    group: `{ domain: 'admin.example.com' }`,
    routes: { dlate: `get('/d/every')` },
    requests: [hit('GET /d/every admin.example.com', 'devery'), hit('GET /d/every', 'devery')],
  },
];
