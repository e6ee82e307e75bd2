// Reads README.md the way `test/readme*.test.ts` run it: every fenced block comes right after a
// marker comment saying what it is, and the comments in its code that state a result.

/** What a marker says its block is. */
export type Marker =
  /** The repository's own commands. */
  | { kind: 'repository' }
  /** Shell commands pasted in the folder `dir` of the user's workspace; `serves`: the last one keeps serving. */
  | { kind: 'sh'; dir: string; serves: boolean }
  /** What the shell block before it prints. */
  | { kind: 'output' }
  /** The file `course init` wrote at `path` of the first app. */
  | { kind: 'same-as-init'; path: string }
  /** A file the user writes at `path` of `app`; with `sameAsInit`, also what init wrote there. */
  | { kind: 'file'; app: string; path: string; sameAsInit: boolean }
  /** What `course build` prints for `app`. */
  | { kind: 'build-output'; app: string }
  /** A file of the deployment sections (`path`), run by the tests of test/deploy/. */
  | { kind: 'deploy'; path: string };

export interface Block {
  /** The line of the opening fence, 1-based. */
  line: number;
  lang: string;
  /** The lines between the fences, each ending with a newline. */
  text: string;
  marker: Marker;
}

/** `<!-- readme: copy A to B -->`: an app's file is another app's, shown once. */
export interface Copy {
  from: { app: string; path: string };
  to: { app: string; path: string };
}

export interface Readme {
  blocks: Block[];
  copies: Copy[];
  /** Opening-fence lines with no marker before them. */
  unmarked: number[];
  /** Markers that do not parse, with their lines. */
  unreadable: string[];
}

/** The blocks, markers and copies of a README. */
export function readReadme(markdown: string): Readme {
  const lines = markdown.split('\n');
  const readme: Readme = { blocks: [], copies: [], unmarked: [], unreadable: [] };
  let pending: { line: number; text: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^<!-- readme: (.*) -->$/.exec(line);
    if (marker) {
      if (pending) directive(pending, readme);
      pending = { line: i + 1, text: marker[1]! };
      continue;
    }
    // A fence may be indented (inside a list item); every one counts.
    const fence = /^\s*```(\S*)\s*$/.exec(line);
    if (fence) {
      const end = lines.findIndex((next, k) => k > i && next.trim() === '```');
      if (end === -1) throw new Error(`README.md:${i + 1}: a fence that never closes`);
      const text = lines.slice(i + 1, end).join('\n') + '\n';
      const parsed = pending && parseMarker(pending.text);
      if (!pending) readme.unmarked.push(i + 1);
      else if (!parsed) readme.unreadable.push(`README.md:${pending.line}: ${pending.text}`);
      else readme.blocks.push({ line: i + 1, lang: fence[1]!, text, marker: parsed });
      pending = undefined;
      i = end;
      continue;
    }
    if (line.trim() !== '' && pending) {
      directive(pending, readme);
      pending = undefined;
    }
  }
  if (pending) directive(pending, readme);
  return readme;
}

/** `app/rest/of/path` as the app and the path inside it. */
export function splitPath(where: string): { app: string; path: string } {
  const slash = where.indexOf('/');
  return { app: where.slice(0, slash), path: where.slice(slash + 1) };
}

/** A request a comment says the app answers, and the answer. */
export interface Expected {
  method: string;
  target: string;
  host?: string;
  headers: Record<string, string>;
  /** A urlencoded form body. */
  form?: string;
  status: number;
  body?: string;
  location?: string;
  /** The clause as written, for messages. */
  source: string;
}

/**
 * The requests the `// GET /path → answer` comments of `source` state, clauses separated by
 * `;`: `METHOD target [form=body] [(header: value, …)] → [status] ['text' | JSON | /location]`.
 * `unreadable` lists the comments with an arrow that do not follow that form.
 */
export function expectedRequests(source: string): { expected: Expected[]; unreadable: string[] } {
  const expected: Expected[] = [];
  const unreadable: string[] = [];
  for (const comment of source.matchAll(/\/\/ (.*)$/gm)) {
    if (!comment[1]!.includes('→')) continue;
    for (const clause of comment[1]!.split('; ')) {
      const request = parseClause(clause.trim());
      if (request) expected.push(request);
      else unreadable.push(clause);
    }
  }
  return { expected, unreadable };
}

/** The lines `console.log(…); // line` of `source` say it prints, in order; none: `undefined`. */
export function expectedPrint(source: string): string[] | undefined {
  const lines = [...source.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]!);
  return lines.length > 0 ? lines : undefined;
}

// --- internal ---

function directive(pending: { line: number; text: string }, readme: Readme): void {
  const copy = /^copy (\S+) to (\S+)$/.exec(pending.text);
  if (copy) readme.copies.push({ from: splitPath(copy[1]!), to: splitPath(copy[2]!) });
  else readme.unreadable.push(`README.md:${pending.line}: ${pending.text} (no block follows)`);
}

function parseMarker(text: string): Marker | undefined {
  let m: RegExpExecArray | null;
  if (text === 'repository') return { kind: 'repository' };
  if (text === 'output') return { kind: 'output' };
  if ((m = /^sh (\S+)(; serves)?$/.exec(text)))
    return { kind: 'sh', dir: m[1]!, serves: m[2] !== undefined };
  if ((m = /^same-as-init (\S+)$/.exec(text))) return { kind: 'same-as-init', path: m[1]! };
  if ((m = /^deploy (\S+)$/.exec(text))) return { kind: 'deploy', path: m[1]! };
  if ((m = /^file (\S+?)\/(\S+?)(; same-as-init)?$/.exec(text)))
    return { kind: 'file', app: m[1]!, path: m[2]!, sameAsInit: m[3] !== undefined };
  if ((m = /^build-output (\S+)$/.exec(text))) return { kind: 'build-output', app: m[1]! };
  return undefined;
}

const CLAUSE =
  /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+)(?: (\S+=\S*))?(?: \(([^)]*)\))? → (?:(\d{3}))? ?(.*)$/;

function parseClause(clause: string): Expected | undefined {
  const m = CLAUSE.exec(clause);
  if (!m) return undefined;
  const [, method, where, form, headerList, status, answer] = m as unknown as string[];
  const url = new URL(where!, 'http://localhost');
  const headers: Record<string, string> = {};
  for (const header of headerList ? headerList.split(', ') : []) {
    const colon = header.indexOf(': ');
    if (colon === -1) return undefined;
    headers[header.slice(0, colon)] = header.slice(colon + 2);
  }
  const request: Expected = {
    method: method!,
    target: url.pathname + url.search,
    headers,
    status: status ? Number(status) : 200,
    source: clause,
  };
  if (where!.startsWith('http://')) request.host = url.host;
  if (form) request.form = form;
  if (/^'.*'$/.test(answer!)) request.body = answer!.slice(1, -1);
  else if (/^[[{]/.test(answer!)) request.body = answer;
  else if (answer!.startsWith('/')) request.location = answer;
  else if (answer !== '' || !status) return undefined;
  return request;
}

/** The deployment file `path` as README.md shows it (`<!-- readme: deploy path -->`). */
export function deployFile(markdown: string, path: string): string {
  const block = readReadme(markdown).blocks.find(
    (b) => b.marker.kind === 'deploy' && b.marker.path === path,
  );
  if (!block) throw new Error(`README.md shows no deploy ${path}`);
  return block.text;
}
