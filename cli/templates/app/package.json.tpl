{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course watch --serve server.ts",
    "build": "course build && tsc -p tsconfig.build.json",
    "start": "node dist/server.js",
    "test": "course build && node --import tsx --test test/*.test.ts",
    "check": "course build --check && tsc --noEmit"
  },
  "dependencies": {
    "course-router": "%%version%%"
  },
  "devDependencies": {
    "@types/node": "^20.19.0",
    "course-kit": "%%version%%",
    "tsx": "^4.23.15",
    "typescript": "~5.9.3"
  },
  "allowScripts": {
    "esbuild": true
  }
}
