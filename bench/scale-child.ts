// One round of the scale benchmark in a fresh process: `tsx scale-child.ts <size> [--smoke]`.
import { scaleRound } from './scale.js';

const size = Number(process.argv[2]);
const result = await scaleRound(size, { smoke: process.argv.includes('--smoke') });
console.log(JSON.stringify(result));
