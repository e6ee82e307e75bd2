import { describe, expect, it } from 'vitest';
import { send, servedApp } from '../_utils.js';

const ROUTES = `
import { Course } from 'course-router';

Course.get('/before', () => 'no basepath');
Course.setDefaultBasepath('/forum');
Course.get('/t', () => 'thread').name('thread');
Course.get('/settings/{id}', (id) => 'settings ' + id, { as: 'by.settings', where: { id: '[a-z]+' }, prefix: '/pre', middleware: 'Middleware\\\\Tag:s' });
Course.get('/regex/{x}/{y}', (x, y) => x + y, { defaultParameterRegex: '[0-9]' });
Course.setDefaultNamespace('\\\\Other\\\\Controllers');
Course.get('/other', 'Thing@hello');
`;

const FILES = {
  'course.config.ts': `export default { namespaces: { App: 'app', Other: 'lib/other' } };\n`,
  'routes.ts': ROUTES,
  'lib/other/Controllers/Thing.ts':
    'export class Thing {\n  hello() { return "other namespace"; }\n}\n',
  'app/Middleware/Tag.ts': `
export class Tag {
  handle(_request: unknown, tag: string) { return tag === 's' ? undefined : 'blocked'; }
}`,
};

const app = servedApp(FILES);

describe('router-wide and per-route settings', () => {
  it('setDefaultBasepath() prefixes routes registered after it', async () => {
    expect((await send(app.served, 'GET', '/before')).body).toBe('no basepath');
    expect((await send(app.served, 'GET', '/forum/t')).body).toBe('thread');
    expect((await send(app.served, 'GET', '/t')).status).toBe(404);
  });

  it('per-route settings: as, where, prefix, middleware', async () => {
    expect((await send(app.served, 'GET', '/forum/pre/settings/abc')).body).toBe('settings abc');
    expect((await send(app.served, 'GET', '/forum/pre/settings/123')).status).toBe(404);
    const { buildUrl } = await import('course-router/internal');
    expect(buildUrl(app.served.app.table, 'by.settings', { id: 'x' })).toBe(
      '/forum/pre/settings/x',
    );
  });

  it('a per-route defaultParameterRegex applies to each parameter', async () => {
    expect((await send(app.served, 'GET', '/forum/regex/1/2')).body).toBe('12');
    expect((await send(app.served, 'GET', '/forum/regex/12/2')).status).toBe(404);
  });

  it('setDefaultNamespace() and a second namespace root from course.config.ts', async () => {
    expect((await send(app.served, 'GET', '/forum/other')).body).toBe('other namespace');
  });
});
