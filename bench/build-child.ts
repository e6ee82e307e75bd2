// One cold build in a fresh process, reporting its peak memory: `node build-child.js <appDir>`.
import { build } from '../compiler/index.js';

await build({ root: process.argv[2]! });
console.log(JSON.stringify({ maxRssMB: process.resourceUsage().maxRSS / 1024 }));
