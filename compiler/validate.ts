import type {
  GroupAttributes,
  Recording,
  RouteSettings,
  SourceLocation,
} from 'course-router/internal';
import { formatLocation, type Diagnostics } from './errors.js';
import { suggestion } from 'course-router/internal';
import type { RouteDraft } from './normalize.js';

const VERB = /^[A-Z]+$/;

/** Checks across routes: unique names, sane verbs. */
export function validateDrafts(
  drafts: readonly RouteDraft[],
  root: string,
  diagnostics: Diagnostics,
): void {
  const names = new Map<string, RouteDraft>();
  for (const draft of drafts) {
    for (const verb of draft.verbs) {
      if (verb !== '*' && !VERB.test(verb)) {
        diagnostics.error(
          'E_SETTING',
          `invalid verb ${JSON.stringify(verb)}`,
          draft.definition.loc,
          "verbs are words like 'get' or 'post'",
        );
      }
    }
    const name = draft.name;
    if (!name) continue;
    if (name.value === '' || name.value === '__proto__') {
      diagnostics.error('E_SETTING', `invalid route name ${JSON.stringify(name.value)}`, name.loc);
      continue;
    }
    const first = names.get(name.value);
    if (first) {
      diagnostics.error(
        'E_DUPLICATE_NAME',
        `the route name "${name.value}" is already used at ${formatLocation(first.name!.loc, root)}`,
        name.loc,
        'give each route its own name',
      );
    } else {
      names.set(name.value, draft);
    }
  }
}

/**
 * Group attributes and route settings Course does not know are an error: they would be
 * ignored, and a misspelt `middleware` would leave the group's routes unguarded.
 */
export function validateAttributes(recording: Recording, diagnostics: Diagnostics): void {
  for (const group of recording.groups)
    unknownKeys(group.attributes, GROUP_KEYS, 'group attribute', group.loc, diagnostics);
  for (const route of recording.routes)
    unknownKeys(route.settings, ROUTE_KEYS, 'route setting', route.loc, diagnostics);
}

// --- internal ---

const GROUP_KEYS: readonly string[] = Object.keys({
  prefix: 0,
  middleware: 0,
  namespace: 0,
  domain: 0,
  defaultParameterRegex: 0,
  as: 0,
  where: 0,
  exceptionHandler: 0,
} satisfies Record<keyof GroupAttributes, 0>);

const ROUTE_KEYS: readonly string[] = Object.keys({
  unsafeRegex: 0,
  defaultParameterRegex: 0,
  where: 0,
  as: 0,
  middleware: 0,
  namespace: 0,
  prefix: 0,
} satisfies Record<keyof RouteSettings, 0>);

function unknownKeys(
  value: object,
  known: readonly string[],
  what: string,
  loc: SourceLocation,
  diagnostics: Diagnostics,
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    diagnostics.error(
      'E_SETTING',
      `unknown ${what} ${JSON.stringify(key)}`,
      loc,
      suggestion(key, known, `${what}s`),
    );
  }
}
