import { formatLocation } from '../errors.js';
import type { CompiledApp, RouteRecord } from '../types.js';
import type { Chunk, ListEntry } from './_chunk.js';
import type { EmitContext } from './_context.js';
import { str, strings } from './_print.js';

/** The route entries: verbs, URL, name, the call of the callback, middleware, source. */
export function emitTable(app: CompiledApp, context: EmitContext): Chunk {
  return {
    kind: 'list',
    open: 'const routes: RouteEntry[] = [',
    close: '];',
    empty: 'const routes: RouteEntry[] = [];',
    entries: app.routes.map((route) => emitEntry(route, app, context)),
  };
}

// --- internal ---

function emitEntry(route: RouteRecord, app: CompiledApp, context: EmitContext): ListEntry {
  const middleware = route.middleware.map(
    (m) => `{ use: ${context.classLocal(m.class)}, args: ${strings(m.args)} }`,
  );
  const text = [
    '  {',
    `    methods: ${strings(route.verbs)},`,
    `    url: ${str(route.url)},`,
    `    name: ${route.name === undefined ? 'undefined' : str(route.name)},`,
    `    handler: ${str(route.handlerLabel)},`,
    `    call: ${emitCall(route, context)},`,
    `    middleware: [${middleware.join(', ')}],`,
    `    handlers: [${route.handlers.map((h) => context.classLocal(h.class)).join(', ')}],`,
    ...(route.domain ? [`    domain: ${str(route.domain.pattern)},`] : []),
    `    source: ${str(formatLocation(route.source, app.root))},`,
    '  }',
  ].join('\n');
  // Prettier breaks an array of two or more multi-property objects one per line.
  return { text, loose: middleware.length > 1 };
}

/** `(p) => new $c0().show(p[0], p[1])`: the callback called with its parameters by position. */
function emitCall(route: RouteRecord, context: EmitContext): string {
  // Domain parameters, URL parameters, then setMatch captures (CONTRACT 5.2).
  const count =
    (route.domain?.params.length ?? 0) + route.params.length + (route.match?.captures ?? 0);
  const args = Array.from({ length: count }, (_, i) => `p[${i}]`).join(', ');
  const head = count === 0 ? '()' : '(p)';
  const handler = route.handler;
  if (handler.kind === 'closure') return `${head} => $h${handler.closure}(${args})`;
  const method = /^[A-Za-z_$][\w$]*$/.test(handler.method)
    ? `.${handler.method}`
    : `[${str(handler.method)}]`;
  return `${head} => new ${context.classLocal(handler.class)}()${method}(${args})`;
}
