import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's folder, seen from one of its modules (`import.meta.url`): the nearest folder at or
 * above the module's that holds a `package.json`. The same folder from the TypeScript in `app/`
 * and from its build in `dist/app/`, whatever the current folder.
 */
export function appFolder(moduleUrl: string | URL): string {
  const start = path.dirname(fileURLToPath(moduleUrl));
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder)
      throw new Error(`course: no folder above ${start} holds a package.json: no app folder`);
  }
}
