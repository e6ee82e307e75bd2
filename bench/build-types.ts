import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type RunOptions } from './lookup.js';
import { scaleRoutes } from './route-sets.js';
import { writeCourseApp } from './routers.js';
import { benchDir } from './temp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'cli/dist/index.js');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** Cold `course build` (a new process) of an app of `size` routes, median of `runs`, in ms. */
export function coldBuild(
  size: number,
  options: RunOptions,
): { routes: number; ms: number; peakMB: number } {
  const dir = benchDir(`build-${size}`);
  writeCourseApp(dir, scaleRoutes(size).routes, true);
  const times: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < (options.smoke ? 1 : 3); i++) {
    rmSync(path.join(dir, 'generated'), { recursive: true, force: true });
    const started = performance.now();
    execFileSync(process.execPath, [CLI, 'build', '--root', dir, '--quiet']);
    times.push(performance.now() - started);
    // The same build again in a process that reports its peak memory.
    rmSync(path.join(dir, 'generated'), { recursive: true, force: true });
    const report = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/build-child.ts'), dir],
      { cwd: ROOT },
    );
    peaks.push(
      (JSON.parse(report.toString().trim().split('\n').at(-1)!) as { maxRssMB: number }).maxRssMB,
    );
  }
  return { routes: size, ms: median(times), peakMB: median(peaks) };
}

/**
 * `tsc --noEmit` on an app of `names` named routes and `calls` calls of the generated typed
 * `url()`, against the same app (its generated module included) making the same calls of an
 * untyped `url(name: string, params?: object)` imported the same way.
 */
export async function typeCheck(
  names: number,
  calls: number,
  options: RunOptions,
): Promise<{ typed: number; untyped: number }> {
  const dir = benchDir(`types-${names}`);
  const { routes, urls } = scaleRoutes(names);
  writeCourseApp(dir, routes, true);
  await (await import('../compiler/index.js')).build({ root: dir });
  const lines = Array.from({ length: calls }, (_, i) => {
    const k = (i * 7919) % routes.length;
    const params = routes[k]!.path.match(/:(\w+)/g)?.map((p) => `${p.slice(1)}: 'x'`) ?? [];
    return `export const u${i} = url('r${k}'${params.length ? `, { ${params.join(', ')} }` : ''});`;
  });
  void urls;
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: true,
      types: [],
    },
  };
  const variants = {
    typed: `import { url } from './generated/routes.gen.js';\n${lines.join('\n')}\n`,
    untyped: `import { url } from './untyped-url.js';\n${lines.join('\n')}\n`,
  };
  writeFileSync(
    path.join(dir, 'untyped-url.ts'),
    'export function url(name: string, params?: object): string {\n  return name;\n}\n',
  );
  const files = ['uses.ts', 'untyped-url.ts', 'generated/routes.gen.ts'];
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...config, files }));
  // The variants alternate, so that a slower spell of the machine lands on both.
  const times = { typed: [] as number[], untyped: [] as number[] };
  for (let i = 0; i < (options.smoke ? 1 : 5); i++) {
    for (const [variant, source] of Object.entries(variants) as ['typed' | 'untyped', string][]) {
      writeFileSync(path.join(dir, 'uses.ts'), source);
      const started = performance.now();
      execFileSync(process.execPath, [TSC, '-p', dir]);
      times[variant].push(performance.now() - started);
    }
  }
  const result = { typed: median(times.typed), untyped: median(times.untyped) };
  return result;
}
