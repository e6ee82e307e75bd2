export { build, compile } from './build.js';
export { defineConfig, loadConfig, resolveConfig } from './config.js';
export { BuildError, RouteDefinitionError, formatLocation } from './errors.js';
export { SourceIndex } from './source-index.js';
export { formatSource } from './format.js';

export type { BuildOptions, BuildResult } from './build.js';
export type { MatcherThresholds } from './emit/match.js';
export type { CourseConfig, ResolvedConfig } from './config.js';
export type { ErrorCode } from './errors.js';
export type * from './types.js';
export { watch } from './watch.js';
export type { WatchOptions, Watcher } from './watch.js';
