import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
// The published package carries this code bundled in dist/vendor (`bundle.mjs`): a server
// installs one package. The sources, run as they are in this repository, load the packages.
const BUNDLED = import.meta.url.includes('/dist/');

/** A third-party library the runtime ships, loaded when a feature first needs it. */
export function vendored<T>(name: 'qs' | 'busboy'): T {
  return load(BUNDLED ? `./vendor/${name}.cjs` : name) as T;
}
