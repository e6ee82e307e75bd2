/* global console, process */
// The `prepack` of each package: refuses to pack one whose `dist/` was not built (a tarball of
// its manifest alone installs, then fails at its first import), and copies the repository's
// LICENSE in. Run in the package's folder.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';

const { name, main, exports } = JSON.parse(readFileSync('package.json', 'utf8'));
const entry = main ?? exports?.['.']?.default ?? exports?.['.'];
if (typeof entry !== 'string' || !existsSync(entry)) {
  console.error(`${name}: ${String(entry)} is missing: run npm run build first`);
  process.exit(1);
}
copyFileSync('../LICENSE', 'LICENSE');
