import { formatLocation, type Diagnostics } from './errors.js';
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
