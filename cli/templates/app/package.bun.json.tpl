{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course watch --serve server.ts --runtime bun",
    "build": "course build",
    "start": "bun server.ts",
    "test": "course build && bun test",
    "check": "course build --check && tsc --noEmit"
  },
  "dependencies": {
    "course-router": "%%version%%"
  },
  "devDependencies": {
    "@types/bun": "^1.4.5",
    "@types/node": "^20.19.0",
    "course-kit": "%%version%%",
    "typescript": "~5.9.3"
  },
  "allowScripts": {
    "esbuild": true
  }
}
