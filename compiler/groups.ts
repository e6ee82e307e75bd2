import { toList } from 'course-router/internal';
import type {
  ClassReference,
  GroupDefinition,
  Located,
  RegexLike,
  SourceLocation,
} from 'course-router/internal';
import type { Diagnostics } from './errors.js';
import { joinUrl, parsePattern, patternRegex } from './pattern.js';
import { regexValues } from './literal-values.js';
import { embedRegex } from './regex.js';
import type { DomainSpec, PatternToken } from './types.js';

/** A domain `{param}` matches one DNS label unless constrained. */
const DOMAIN_PARAM_REGEX = '[^.]+';

/**
 * The flags of a host regex (`DomainSpec.regex`): hosts compare case-insensitively, and
 * parameter regexes have Unicode semantics.
 */
export const HOST_FLAGS = 'iu';

/** Where a class value sits in the source: an attribute list of the call, or an argument. */
export interface ValueSite {
  loc: SourceLocation;
  kind: 'attribute' | 'argument';
  /** The attribute (`middleware`, `exceptionHandler`) for `attribute` sites. */
  attribute: string;
  /** Position in the attribute's list, or the argument index. */
  index: number;
}

/** A class reference with the place it was written. */
export interface SitedReference {
  value: ClassReference;
  site: ValueSite;
}

/** Outermost group first. */
export function groupChain(group: GroupDefinition | undefined): GroupDefinition[] {
  const chain: GroupDefinition[] = [];
  for (let g = group; g; g = g.parent) chain.unshift(g);
  return chain;
}

/** The list-valued attribute of each group, outermost first, with its sites. */
export function groupReferences(
  groups: readonly GroupDefinition[],
  attribute: 'middleware' | 'exceptionHandler',
): SitedReference[] {
  return groups.flatMap((group) =>
    toList(group.attributes[attribute]).map((value, index) => ({
      value,
      site: { loc: group.loc, kind: 'attribute' as const, attribute, index },
    })),
  );
}

/** The domain of the innermost group that sets one, parsed; `null` after an error. */
export function domainOf(
  groups: readonly GroupDefinition[],
  diagnostics: Diagnostics,
): DomainSpec | undefined | null {
  const group = [...groups].reverse().find((g) => g.attributes.domain !== undefined);
  if (!group) return undefined;
  const pattern = group.attributes.domain!.toLowerCase().replace(/:\d+$/, '');
  const parsed = parsePattern(pattern, 'host');
  if (!parsed.ok) {
    diagnostics.error(parsed.code, `domain: ${parsed.message}`, group.loc, parsed.hint);
    return null;
  }
  // In a host the character before a placeholder is a literal, and nothing is optional.
  const tokens: PatternToken[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === 'literal') tokens.push(token);
    else {
      if (token.separator) tokens.push({ kind: 'literal', text: token.separator });
      tokens.push({ ...token, separator: '', optional: false });
    }
  }
  const params = [];
  for (const token of tokens) {
    if (token.kind !== 'param') continue;
    const constraint = whereFor(token.name, groups);
    const embedded = embedRegex(constraint?.value ?? DOMAIN_PARAM_REGEX);
    if (!embedded.ok) {
      diagnostics.error(
        'E_REGEX',
        `domain parameter "${token.name}": ${embedded.reason}`,
        constraint?.loc ?? group.loc,
        embedded.hint,
      );
      return null;
    }
    token.regex = embedded.source;
    // Matched in any case: no values written out, but digits are digits in any case.
    const { digits } = regexValues(embedded.source, true);
    params.push({
      name: token.name,
      optional: token.optional,
      regex: embedded.source,
      ...(digits ? { digits } : {}),
    });
  }
  const regex = patternRegex(tokens).replace(/\\\/\?\$$/, '$');
  return { pattern, tokens, params, regex };
}

/** The anchored regex of a group's full prefix, for groups whose handlers see unmatched requests. */
export function prefixRegex(
  groups: readonly GroupDefinition[],
  basepath: string,
): string | undefined {
  const url = joinUrl(basepath, ...groups.map((g) => g.attributes.prefix ?? ''));
  if (url === '/') return '^\\/';
  const parsed = parsePattern(url);
  if (!parsed.ok) return undefined;
  for (const token of parsed.tokens) if (token.kind === 'param') token.regex = '[^/]+';
  return patternRegex(parsed.tokens).replace(/\\\/\?\$$/, '(?:\\/|$)');
}

/** A group `where` constraint for `name`, innermost first. */
export function whereFor(
  name: string,
  groups: readonly GroupDefinition[],
): Located<RegexLike> | undefined {
  for (let i = groups.length - 1; i >= 0; i--) {
    const where = groups[i]!.attributes.where;
    if (where && Object.hasOwn(where, name)) return { value: where[name]!, loc: groups[i]!.loc };
  }
  return undefined;
}
