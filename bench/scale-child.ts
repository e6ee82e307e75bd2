// One round of the scale benchmark in a fresh process: `tsx scale-child.ts <size> [first] [--smoke]`
// (`first`: the contender measured first, counted round the list).
import { scaleRound } from './scale.js';

const size = Number(process.argv[2]);
const first = Number(process.argv[3] ?? 0) || 0;
const result = await scaleRound(size, { smoke: process.argv.includes('--smoke') }, first);
console.log(JSON.stringify(result));
