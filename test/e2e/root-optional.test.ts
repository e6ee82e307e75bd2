import { describe, expect, it } from 'vitest';
import { send, servedApp, WALKED_ROUTES } from '../_utils.js';

const ROUTES = `import { Course } from 'course-router';
Course.get('/{lang?}', (lang = 'en') => 'lang ' + lang);
Course.get('/{lang}/about', (lang: string) => 'about ' + lang);
`;

const small = servedApp({ 'routes.ts': ROUTES });
const large = servedApp({ 'routes.ts': `${ROUTES}${WALKED_ROUTES}\n` });

describe('an optional parameter that is the whole path', () => {
  it('is absent for the root, in generated code and in the shared walker', async () => {
    for (const app of [small, large]) {
      expect((await send(app.served, 'GET', '/')).body).toBe('lang en');
      expect((await send(app.served, 'GET', '/?x=1')).body).toBe('lang en');
      expect((await send(app.served, 'GET', '/fr')).body).toBe('lang fr');
      expect((await send(app.served, 'GET', '/fr/')).body).toBe('lang fr');
      expect((await send(app.served, 'GET', '/fr/about')).body).toBe('about fr');
      expect((await send(app.served, 'GET', '/fr/x')).status).toBe(404);
    }
  });
});
