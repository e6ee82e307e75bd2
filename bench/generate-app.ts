import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Paths of a generated app, for benchmarks: 60% static, 35% with 1–2 params, 5% regex-constrained. */
export interface GeneratedApp {
  dir: string;
  /** One request path per route, matching it. */
  paths: string[];
}

/**
 * Writes an app of `count` routes over 20 controllers to `dir`, with `course-router` linked
 * in `node_modules` as an installed package would be.
 */
export function generateApp(dir: string, count: number): GeneratedApp {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  mkdirSync(path.join(dir, 'app/Components/Controller'), { recursive: true });
  symlinkSync(path.join(ROOT, 'runtime'), path.join(dir, 'node_modules/course-router'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const controllers = 20;
  for (let c = 0; c < controllers; c++) {
    writeFileSync(
      path.join(dir, `app/Components/Controller/C${c}.ts`),
      `export class C${c} {\n  one(): string { return 'one'; }\n  two(a: string, b?: string): string { return a + (b ?? ''); }\n}\n`,
    );
  }
  const lines = ["import { Course } from 'course-router';", ''];
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const c = `C${i % controllers}`;
    const base = `/r${Math.floor(i / 10)}`;
    const kind = i % 20;
    if (kind < 12) {
      lines.push(`Course.get('${base}/s${i}', '${c}@one').name('s${i}');`);
      paths.push(`${base}/s${i}`);
    } else if (kind < 19) {
      const two = kind % 2 === 0;
      lines.push(
        `Course.get('${base}/p${i}/{a}${two ? '/x/{b}' : ''}', '${c}@two').name('p${i}');`,
      );
      paths.push(`${base}/p${i}/v${i}${two ? '/x/w' : ''}`);
    } else {
      lines.push(`Course.get('${base}/n${i}/{a}', '${c}@two').where('a', '[0-9]+').name('n${i}');`);
      paths.push(`${base}/n${i}/${i}`);
    }
  }
  writeFileSync(path.join(dir, 'routes.ts'), `${lines.join('\n')}\n`);
  return { dir, paths };
}
