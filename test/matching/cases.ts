import type { Case } from './_case.js';
import { DOMAINS } from './cases/domains.js';
import { PATHS } from './cases/paths.js';
import { VALUES } from './cases/values.js';
import { VERBS } from './cases/verbs.js';
import { WHOLE_PATHS } from './cases/whole-paths.js';

/**
 * The routing cases, in registration order within each app. Route lines are route-file source
 * (`String.raw` where a regex is, so that it reads as in a route file); ids are unique within
 * an app, and a request may name a route of another case of its app.
 */
export const CASES: Case[] = [...PATHS, ...VALUES, ...VERBS, ...DOMAINS, ...WHOLE_PATHS];
