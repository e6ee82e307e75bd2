import type { CourseConfig } from 'course-kit';

/** The demo app in fixtures/app, built to generated/routes.gen.ts (`npx course build`). */
const config: CourseConfig = {
  routes: 'fixtures/app/routes.ts',
  routers: 'fixtures/app/routers',
  namespaces: { App: 'fixtures/app/app' },
  out: 'generated/routes.gen.ts',
};

export default config;
