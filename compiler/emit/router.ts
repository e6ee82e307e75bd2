import type { ClassGroup, CompiledApp } from '../types.js';
import { code, type Chunk } from './_chunk.js';
import type { EmitContext } from './_context.js';
import { HOST_FLAGS } from '../groups.js';
import { regexLiteral, str } from './_print.js';
import { hostBound } from './bounds.js';
import { COMPILER_VERSION } from '../version.js';

/**
 * Router-wide parts: exception-handler groups for unmatched requests, boot managers, the CSRF
 * verifier, the error redirect, and the table itself.
 */
export function emitRouter(app: CompiledApp, context: EmitContext): Chunk[] {
  const groups = app.handlerGroups.map((g) => groupRow(g, context));
  const corsGroups = app.corsGroups.map((g) => groupRow(g, context));
  const fields = [
    'match',
    'allowed',
    'names',
    'hosts',
    `usesHost: ${app.routes.some((r) => r.domain !== undefined)}`,
    // With no group's exception handlers, an unmatched request is not looked up for them.
    ...(groups.length === 0
      ? []
      : [`handlersFor: (path: string, host: string) => handlersOf($handlerGroups, path, host)`]),
    ...(corsGroups.length === 0
      ? []
      : [`corsFor: (path: string, host: string) => handlersOf($corsGroups, path, host)`]),
    `bootManagers: [${app.bootManagers.map((b) => context.classLocal(b.class)).join(', ')}]`,
    `csrfVerifier: ${app.csrfVerifier ? context.classLocal(app.csrfVerifier.class) : 'undefined'}`,
    `errorRedirect: ${app.errorRedirect === undefined ? 'undefined' : str(app.errorRedirect)}`,
    `compiledBy: ${str(COMPILER_VERSION)}`,
  ];
  return [
    ...(groups.length === 0
      ? []
      : [
          code(`/** Groups with exception handlers, innermost first: an error goes to those around its request. */
const $handlerGroups: HandlerGroup[] = [${groups.join(', ')}];`),
        ]),
    ...(corsGroups.length === 0
      ? []
      : [
          code(`/** Groups with middleware that may be Cors, innermost first: a request no route takes gets its headers. */
const $corsGroups: HandlerGroup<unknown>[] = [${corsGroups.join(', ')}];`),
        ]),
    code(`const table = defineRoutes($routes, { ${fields.join(', ')} });
export default table;

/**
 * The URL of a named route of this app, checked by tsc; with no arguments, the current URL.
 * The names are given as a union (\`UrlNames\`, not \`keyof X\`), so that tsc's message for a
 * name that is not a route lists the routes.
 */
export function url(): string;
export function url<Names extends string = UrlNamesAlone<AppRoutesWithoutParams, AppRouteParams>, K extends Names = Names>(name: K): string;
export function url<Names extends string = UrlNames<AppRouteParams>, K extends Names = Names>(name: K, params: AppUrlParams[K], query?: Query): string;
export function url(name?: string, params?: AnyUrlParams, query?: Query): string {
  return name === undefined ? currentUrl() : buildUrl(loadedRoutes(routesTable), name, params as never, query);
}

/**
 * The table, through a function: \`url()\` called before it exists (at the top level of a module
 * imported above) says so.
 */
function routesTable(): typeof table {
  return table;
}`),
  ];
}

// --- internal ---

/** A group's row of the table: its prefix regex, host (and its bound), classes. */
function groupRow(group: ClassGroup, context: EmitContext): string {
  const classes = `[${group.classes.map((c) => context.classLocal(c.class)).join(', ')}]`;
  if (group.domain === undefined) return `[${regexLiteral(group.prefix)}, undefined, ${classes}]`;
  const host = regexLiteral(group.domain.regex, HOST_FLAGS);
  return `[${regexLiteral(group.prefix)}, ${host}, ${classes}, ${JSON.stringify(hostBound(group.domain.tokens))}]`;
}
