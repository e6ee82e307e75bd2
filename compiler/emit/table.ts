import {
  callbackParts,
  classRefParts,
  type RouteMore,
  type RouteRow,
} from 'course-router/internal';
import { formatLocation } from '../errors.js';
import type { ClassImport, CompiledApp, RouteRecord } from '../types.js';
import { printed, type Chunk } from './_chunk.js';
import type { EmitContext } from './_context.js';
import { matchesNormalOnly } from './normal-only.js';
import { key, rowsCall } from './_print.js';

/**
 * The route table (runtime `RouteRow`): one line per route, in registration order, with what a
 * reader looks for (verbs, URL, name, handler, middleware, where it was defined), and the
 * classes its routes name, by the names they give them.
 */
export function emitTable(app: CompiledApp, context: EmitContext, closures: boolean): Chunk[] {
  const names = new ClassNames(context);
  const rows = app.routes.map((route) => JSON.stringify(routeRow(route, app.root, names)));
  const classes = names.entries();
  const classList =
    classes.length === 0
      ? 'const $classes = {};'
      : `const $classes = {\n${classes.map(([name, local]) => `  ${name === local ? local : `${key(name)}: ${local}`},`).join('\n')}\n};`;
  return [
    printed(`/** The classes the routes below name, by the names the route files give them. */
${classList}`),
    printed(`/**
 * The routes, one per line in registration order: \`$routes.at(n)\` is the line \`[n, ...]\`,
 * \`[n, verbs, URL, handler, defined at, name, { domain, middleware, exceptionHandlers, ... }]\`;
 * \`sync\`: the build found the route's code synchronous, and it is served without a context store.
 * A closure's function is \`closures[n]\`; a class is \`$classes\` by the name the route gives it.
 */
const $routes = ${rowsCall('new RouteList', [closures ? 'closures' : '{}', '$classes'], rows)};`),
  ];
}

// --- internal ---

function routeRow(route: RouteRecord, root: string, names: ClassNames): RouteRow {
  const { handler, domain, match, middleware, handlers } = route;
  let label = route.handlerLabel;
  if (handler.kind === 'method') {
    const [written, method] = callbackParts(label)!;
    label = `${names.name(written, handler.class)}@${method}`;
  }
  const more: RouteMore = {
    ...(domain ? { domain: domain.pattern } : {}),
    ...(match ? { match: `/${match.source}/${match.flags}`, captures: match.captures } : {}),
    ...(middleware.length === 0
      ? {}
      : {
          middleware: middleware.map((m) => {
            const { name, args } = classRefParts(m.label);
            return [names.name(name, m.class), ...args].join(':');
          }),
        }),
    ...(handlers.length === 0
      ? {}
      : { exceptionHandlers: handlers.map((h) => names.name(h.label, h.class)) }),
    ...(matchesNormalOnly(route) ? {} : { normalOnly: false as const }),
    ...(route.sync ? { sync: true as const } : {}),
  };
  const at = formatLocation(route.source, root);
  const row = [route.index, route.verbs.join('|'), route.url, label, at] as const;
  if (Object.keys(more).length > 0) return [...row, route.name ?? null, more];
  return route.name === undefined ? row : [...row, route.name];
}

/**
 * The names the route table gives classes: as written, unless the name already stands for
 * another class (`Admin` and the app's namespace both hold a `UserController`): then `Name#2`.
 */
class ClassNames {
  readonly #context: EmitContext;
  readonly #byName = new Map<string, string>();
  readonly #byClass = new Map<string, string>();

  constructor(context: EmitContext) {
    this.#context = context;
  }

  name(written: string, klass: ClassImport): string {
    const id = `${klass.file}\0${klass.exportName}\0${written}`;
    const known = this.#byClass.get(id);
    if (known !== undefined) return known;
    const local = this.#context.classLocal(klass);
    let name = written;
    for (let n = 2; this.#byName.has(name) && this.#byName.get(name) !== local; n++)
      name = `${written}#${n}`;
    this.#byName.set(name, local);
    this.#byClass.set(id, name);
    return name;
  }

  /** `[name, local]` in first-use order. */
  entries(): [string, string][] {
    return [...this.#byName];
  }
}
