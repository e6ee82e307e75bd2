import { formatLocation } from '../errors.js';
import type { CompiledApp, RouteRecord } from '../types.js';
import type { EmitContext } from './_context.js';

/** The route entries: verbs, URL, name, the call of the callback, middleware, source. */
export function emitTable(app: CompiledApp, context: EmitContext): string {
  const entries = app.routes.map((route) => emitEntry(route, app, context));
  return `const routes: RouteEntry[] = [\n${entries.join(',\n')}\n];`;
}

// --- internal ---

function emitEntry(route: RouteRecord, app: CompiledApp, context: EmitContext): string {
  const middleware = route.middleware.map(
    (m) => `{ use: ${context.classLocal(m.class)}, args: ${JSON.stringify(m.args)} }`,
  );
  return `{
    methods: ${JSON.stringify(route.verbs)},
    url: ${JSON.stringify(route.url)},
    name: ${route.name === undefined ? 'undefined' : JSON.stringify(route.name)},
    handler: ${JSON.stringify(route.handlerLabel)},
    call: ${emitCall(route, context)},
    middleware: [${middleware.join(', ')}],
    source: ${JSON.stringify(formatLocation(route.source, app.root))},
  }`;
}

/** `(p) => new $c0().show(p[0], p[1])`: the callback called with its parameters by position. */
function emitCall(route: RouteRecord, context: EmitContext): string {
  const args = route.params.map((_, i) => `p[${i}]`).join(', ');
  const head = route.params.length === 0 ? '()' : '(p)';
  const handler = route.handler;
  if (handler.kind === 'closure') return `${head} => $h${handler.closure}(${args})`;
  const method = /^[A-Za-z_$][\w$]*$/.test(handler.method)
    ? `.${handler.method}`
    : `[${JSON.stringify(handler.method)}]`;
  return `${head} => new ${context.classLocal(handler.class)}()${method}(${args})`;
}
