import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ts } from 'ts-morph';
import type { Checkout } from './checkout.js';
import { measureLookups, median, type LookupResult, type RunOptions } from './lookup.js';
import { scaleRoutes } from './route-sets.js';
import * as routers from './routers.js';
import { benchDir } from './temp.js';

/** Lookups at one app size. */
export interface ScaleResult {
  routes: number;
  lookups: LookupResult[];
  /** Routers that refused the route set, with their reason. */
  refused: [router: string, reason: string][];
}

/** Start-up time and heap of loading a route table, per router, in a fresh process. */
export interface StartupResult {
  router: string;
  ms: number;
  heapMB: number;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Lookup speed on apps of each size, every route looked up in turn with fresh strings. Each
 * measurement runs in a new process holding one app, as a server does (two apps in one process
 * would share the routers' code between them), and the sizes alternate over three rounds, so
 * that a slower spell of the machine does not land on one size alone and skew the growth.
 */
export async function runScale(
  sizes: readonly number[],
  options: RunOptions,
): Promise<ScaleResult[]> {
  const runs = sizes.map(() => [] as ScaleResult[]);
  for (let round = 0; round < (options.smoke ? 1 : 3); round++) {
    for (const [k, size] of sizes.entries()) {
      // Each process starts its measurements with another router: none is always first.
      const args = [
        '--expose-gc',
        '--import',
        'tsx',
        path.join(HERE, 'scale-child.ts'),
        String(size),
        String(round),
      ];
      const text = execFileSync(process.execPath, options.smoke ? [...args, '--smoke'] : args, {
        cwd: path.join(HERE, '..'),
        maxBuffer: 1 << 24,
      }).toString();
      runs[k]!.push(JSON.parse(text.trim().split('\n').at(-1)!) as ScaleResult);
    }
  }
  return runs.map((results) => ({
    routes: results[0]!.routes,
    lookups: results[0]!.lookups.map(({ router }) => {
      const of = results.map((r) => r.lookups.find((l) => l.router === router)!);
      return {
        router,
        fresh: median(of.map((l) => l.fresh)),
        literal: median(of.map((l) => l.literal)),
      };
    }),
    refused: results[0]!.refused,
  }));
}

/** One round of lookups on an app of `size` routes, in this process, from contender `first`. */
export async function scaleRound(
  size: number,
  options: RunOptions,
  first = 0,
): Promise<ScaleResult> {
  const app = await prepare(size);
  return {
    routes: app.routes,
    lookups: await measureLookups(app.usable, app.requests, options, 1, first),
    refused: app.refused,
  };
}

/** The routers that accept an app of `size` routes and find every one of its URLs. */
async function prepare(size: number) {
  const { routes, urls } = scaleRoutes(size);
  const refused: [string, string][] = [];
  const contenders = [await routers.course(routes, `scale${size}`)];
  const others = [
    () => routers.medley(routes),
    () => routers.memoirist(routes),
    () => routers.rou3(routes),
    () => routers.findMyWay(routes),
    () => routers.honoRegExp(routes),
    () => routers.koaTree(routes),
  ];
  for (const make of others) {
    try {
      const contender = make();
      contender.lookup('GET', urls[0]!);
      contenders.push(contender);
    } catch (error) {
      refused.push([
        make.toString().match(/routers\.(\w+)/)?.[1] ?? '?',
        String(error).split('\n')[0]!.slice(0, 120),
      ]);
    }
  }
  const requests = urls.map((url) => ['GET', url] as const);
  const usable = contenders.filter((c) => {
    try {
      for (const [m, u] of requests)
        if (c.lookup(m, u) == null) throw new Error(`no route for ${u}`);
      return true;
    } catch (error) {
      refused.push([c.name, String(error).slice(0, 120)]);
      return false;
    }
  });
  return { routes: routes.length, requests, usable, refused };
}

/**
 * Start-up for `size` routes: importing Course's generated module (as JavaScript, as a
 * production server runs it) and `Course.start()`, against the others registering the same
 * routes. Each in a new process with `--expose-gc`; median of `runs`.
 */
export async function runStartup(size: number, options: RunOptions): Promise<StartupResult[]> {
  const { routes } = scaleRoutes(size);
  const dir = benchDir(`startup-${size}`);
  await writeStartupApp(dir, routes);
  writeFileSync(path.join(dir, 'routes.json'), JSON.stringify(routes));
  const runs = options.smoke ? 1 : 5;
  const out: StartupResult[] = [];
  for (const router of ['course', '@medley/router', 'memoirist', 'rou3', 'find-my-way']) {
    const samples: { ms: number; heapMB: number }[] = [];
    for (let i = 0; i < runs; i++) {
      if (router === 'course') {
        samples.push(startCourse(dir));
        continue;
      }
      const text = execFileSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', path.join(HERE, 'startup-child.ts'), router, dir],
        { cwd: path.join(HERE, '..') },
      ).toString();
      samples.push(JSON.parse(text.trim().split('\n').at(-1)!) as { ms: number; heapMB: number });
    }
    out.push({
      router,
      ms: median(samples.map((s) => s.ms)),
      heapMB: median(samples.map((s) => s.heapMB)),
    });
  }
  return out;
}

/**
 * Writes the Course app of `routes` to `dir` for `startCourse`, built by the compiler of `code`
 * (this checkout's sources by default) and turned into JavaScript as a production server loads it: the
 * generated modules and the controller. Returns the generated modules' size in bytes.
 */
export async function writeStartupApp(
  dir: string,
  routes: Parameters<typeof routers.writeCourseApp>[1],
  code?: Checkout,
): Promise<number> {
  routers.writeCourseApp(dir, routes, false, code);
  const compiler =
    code === undefined
      ? await import('../compiler/index.js')
      : ((await import(pathToFileURL(code.compiler).href)) as {
          build: (options: { root: string }) => Promise<unknown>;
        });
  await compiler.build({ root: dir });
  let bytes = 0;
  const generated = path.join(dir, 'generated');
  for (const name of readdirSync(generated).filter((n) => n.endsWith('.ts'))) {
    const source = readFileSync(path.join(generated, name), 'utf8');
    bytes += Buffer.byteLength(source);
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(path.join(generated, name.replace(/\.ts$/, '.js')), js);
  }
  const controller = path.join(dir, 'app/Components/Controller/Bench');
  writeFileSync(`${controller}.js`, readFileSync(`${controller}.ts`, 'utf8'));
  // Beside the app, so that `course-router` is the app's own (`code`'s runtime).
  copyFileSync(path.join(HERE, 'startup-course.mjs'), path.join(dir, 'startup-course.mjs'));
  return bytes;
}

/** One start-up of the app `writeStartupApp` wrote, in a fresh process. */
export function startCourse(dir: string): { ms: number; heapMB: number } {
  // Plain Node, as a server starts, without tsx's loader in the way.
  const text = execFileSync(
    process.execPath,
    ['--expose-gc', path.join(dir, 'startup-course.mjs'), dir],
    { cwd: dir },
  ).toString();
  return JSON.parse(text.trim().split('\n').at(-1)!) as { ms: number; heapMB: number };
}
