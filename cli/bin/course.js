#!/usr/bin/env node
// The `course` command; its code is built to dist/ (`npm run build`).
import '../dist/index.js';
