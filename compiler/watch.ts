import path from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { build, type BuildResult } from './build.js';
import { SourceIndex } from './source-index.js';

/** Options of `watch()`. */
export interface WatchOptions {
  /** The app folder. */
  root: string;
  /** Told about every build: its result, or the error that stopped it. */
  onBuild: (outcome: { result: BuildResult } | { error: unknown }) => void;
  /** Quiet period after a change before rebuilding, in ms [50]. */
  debounce?: number;
}

/** A running watcher. */
export interface Watcher {
  close(): Promise<void>;
  /** Resolves when the first build (and any rebuild it triggered) is done. */
  ready: Promise<void>;
}

/**
 * Builds, then rebuilds on every change under the app folder (route files, and every module
 * they import: controllers, middleware, helpers), except `node_modules`, `dist`, hidden folders
 * and the output. The
 * parsed sources are kept between builds and only changed files are read again. A failing
 * build is reported and watching goes on.
 *
 * @example const watcher = watch({ root: '.', onBuild: (o) => console.log(o) });
 */
export function watch(options: WatchOptions): Watcher {
  const index = new SourceIndex();
  const changed = new Set<string>();
  // The generated files (the module and its closures), known after the first build: writing
  // them is no change to rebuild for, whatever the configuration names them.
  const outputs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const rebuild = () => {
    running = running.then(async () => {
      index.refresh([...changed]);
      changed.clear();
      try {
        const result = await build({ root: options.root, index });
        outputs.add(path.resolve(result.config.outFile)).add(path.resolve(result.closuresFile));
        options.onBuild({ result });
      } catch (error) {
        options.onBuild({ error });
      }
    });
    return running;
  };

  const root = path.resolve(options.root);
  const watcher = chokidarWatch(root, {
    ignoreInitial: true,
    // Read below the app folder, wherever it is (an app may live in a `dist` or `.hidden`
    // folder): packages, the output, and hidden folders, where tools write their own builds
    // (`.wrangler/tmp`, `.git`, `.cache`).
    ignored: (file) =>
      /(^|[/\\])(node_modules|dist|\.[^/\\]+)([/\\]|$)/.test(path.relative(root, file)) ||
      /\.gen\.ts$|\.tmp$/.test(file) ||
      outputs.has(path.resolve(file)),
  });
  watcher.on('all', (_event, file) => {
    if (!/\.(?:ts|tsx|mts|js|mjs)$/.test(file)) return;
    changed.add(path.resolve(file));
    clearTimeout(timer);
    timer = setTimeout(() => void rebuild(), options.debounce ?? 50);
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve())).then(() =>
    rebuild(),
  );
  return {
    ready,
    async close() {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
