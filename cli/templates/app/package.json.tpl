{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course watch --serve server.ts",
    "build": "course build && tsc -p tsconfig.build.json",
    "start": "node dist/server.js",
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
