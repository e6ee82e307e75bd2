import { format } from 'prettier';

/** The prettier options of generated code: fixed, so output does not depend on the app's setup. */
const OPTIONS = { parser: 'typescript', printWidth: 100, singleQuote: true } as const;

/** Formats generated TypeScript. */
export function formatSource(source: string): Promise<string> {
  return format(source, OPTIONS);
}
