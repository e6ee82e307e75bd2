import type { Recording } from './types.js';

// Route files may load a copy of the runtime other than the compiler's (a loader namespace,
// a test runner's module graph): the recording lives on a global symbol so every copy writes
// into the one the compiler opened.
const KEY = Symbol.for('course-router.recording');
type Holder = { [KEY]?: Recording };

/** Opens a fresh recording; route files evaluated from now on write into it. */
export function beginRecording(): Recording {
  const recording: Recording = {
    routes: [],
    groups: [],
    router: { error: undefined, bootManagers: [], csrfVerifier: undefined },
    current: undefined,
    basepath: '',
    defaultNamespace: undefined,
    files: new Set(),
  };
  (globalThis as Holder)[KEY] = recording;
  return recording;
}

/** Closes the recording and returns what it holds. */
export function endRecording(): Recording {
  const recording = activeRecording();
  delete (globalThis as Holder)[KEY];
  return recording;
}

/** The open recording; outside a build, a throwaway one so route files never crash a server. */
export function activeRecording(): Recording {
  return (globalThis as Holder)[KEY] ?? beginRecording();
}
