/**
 * ts-morph, required rather than imported: it is CommonJS, and importing it from an ES module
 * has Node's loader scan its whole bundle for export names on every build (about 130 ms of a
 * cold build's start). It and the TypeScript it bundles load with the code cache. Types come
 * from the package as usual.
 */
import type * as TsMorph from 'ts-morph';
import { requireCached } from './code-cache.js';

const tsMorph = requireCached('ts-morph', import.meta.url) as typeof TsMorph;

export const { Node, Project, SyntaxKind, ts } = tsMorph;
export type Node = TsMorph.Node;
export type Project = TsMorph.Project;
export type {
  ArrowFunction,
  CallExpression,
  Expression,
  MethodDeclaration,
  ParameterDeclaration,
  SourceFile,
} from 'ts-morph';
