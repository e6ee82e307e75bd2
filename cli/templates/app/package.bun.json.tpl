{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course build && bun --watch server.ts",
    "build": "course build",
    "start": "bun server.ts",
    "check": "course build --check && tsc --noEmit"
  },
  "dependencies": {
    "course-router": "%%version%%"
  },
  "devDependencies": {
    "@types/node": "^20.19.0",
    "course-kit": "%%version%%",
    "typescript": "~5.9.3"
  },
  "allowScripts": {
    "esbuild": true
  }
}
