import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The heap in use after two forced collections, in MiB. */
export function heapMB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** A heap figure as a log line writes it. */
export function mb(value: number): string {
  return value.toFixed(1);
}
