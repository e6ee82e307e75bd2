import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../runtime/matching/url.js';
import type { RouteTable, UrlPart } from '../../runtime/types.js';

// The names of an app with `/posts/{year}/{slug}` and `/{lang?}/about` on `{tenant}.example.com`.
const names: Record<string, readonly UrlPart[]> = {
  'posts.show': ['/posts', ['year', 0, '/'], ['slug', 0, '/']],
  'posts.index': ['/posts'],
  about: [['lang', 1, '/'], '/about'],
};
const table = {
  names,
  hosts: { about: [['tenant', 0, ''], '.example.com'] },
} as unknown as RouteTable;

describe('url() errors, for a server run without tsc', () => {
  it('name the unknown key beside the missing parameter, with the near one', () => {
    expect(() => buildUrl(table, 'posts.show', { year: 2024, slugg: 'hi' })).toThrow(
      'course: url("posts.show") needs the parameter "slug"; the route has no parameter "slugg" (did you mean "slug"?)',
    );
    expect(() => buildUrl(table, 'posts.show', { year: 2024, page: 2 })).toThrow(
      /needs the parameter "slug"; the route has no parameter "page"$/,
    );
    // A host parameter is one of the route's: not reported as unknown.
    expect(() => buildUrl(table, 'about', { tennant: 'a', lang: 'en' })).toThrow(
      'course: url("about") needs the parameter "tenant"; the route has no parameter "tennant" (did you mean "tenant"?)',
    );
  });

  it('name a value no parameter takes: a query value, or one position too many', () => {
    expect(() => buildUrl(table, 'posts.show', { year: 2024, slug: 'hi', page: 2 })).toThrow(
      'course: url("posts.show") is given "page", which its route has no parameter for: a query value goes in the third argument, url(name, params, { page: … })',
    );
    expect(() => buildUrl(table, 'posts.show', [2024, 'hi', 'more'])).toThrow(
      'course: url("posts.show") is given 3 values for the 2 parameters of its route',
    );
    // An undefined value is no value.
    expect(buildUrl(table, 'posts.show', { year: 2024, slug: 'hi', page: undefined })).toBe(
      buildUrl(table, 'posts.show', { year: 2024, slug: 'hi' }),
    );
  });

  it('keep the plain message when every key is the route’s, or the values are positional', () => {
    expect(() => buildUrl(table, 'posts.show', { year: 2024 })).toThrow(
      /^course: url\("posts.show"\) needs the parameter "slug"$/,
    );
    expect(() => buildUrl(table, 'posts.show', [2024])).toThrow(
      /^course: url\("posts.show"\) needs the parameter "slug"$/,
    );
  });

  it('say a required parameter given empty or null is given so, not left out', () => {
    expect(() => buildUrl(table, 'posts.show', { year: 2024, slug: '' })).toThrow(
      /^course: url\("posts.show"\) gives the parameter "slug" an empty value, which fills no placeholder$/,
    );
    expect(() => buildUrl(table, 'posts.show', [2024, null])).toThrow(
      /^course: url\("posts.show"\) gives the parameter "slug" null, which fills no placeholder$/,
    );
  });

  it('suggest the near route name for an unknown one, and none when nothing is near', () => {
    expect(() => buildUrl(table, 'post.show')).toThrow(
      'course: url() found no route named "post.show": did you mean "posts.show"?',
    );
    expect(() => buildUrl(table, 'checkout')).toThrow(
      /^course: url\(\) found no route named "checkout"$/,
    );
    // A short word two edits away is another word; two letters swapped are one edit.
    expect(() => buildUrl(table, 'abut')).toThrow(/did you mean "about"\?$/);
    expect(() => buildUrl(table, 'abto')).toThrow(/^course: url\(\) found no route named "abto"$/);
    expect(() => buildUrl(table, 'abotu')).toThrow(/did you mean "about"\?$/);
  });

  it('build as before when nothing is wrong', () => {
    expect(buildUrl(table, 'posts.show', { year: 2024, slug: 'hi' })).toBe('/posts/2024/hi');
    expect(buildUrl(table, 'posts.index')).toBe('/posts');
  });
});
