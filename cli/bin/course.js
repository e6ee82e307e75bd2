#!/usr/bin/env node
/* global console, process */
// The `course` command; its code is built to dist/ (`npm run build`). A package it needs that is
// missing, or was installed without its built files, is one line, not a stack.
import('../dist/index.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  const first = String(error.message).split('\n')[0];
  console.error(
    `course: ${first}\ncourse: a package is missing or was installed without its dist/: run npm install again (npm ci in CI)`,
  );
  process.exitCode = 1;
});
