{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course watch --serve server.ts --runtime deno",
    "build": "course build",
    "start": "deno run --allow-net --allow-env --allow-read server.ts",
    "test": "course build && deno test --allow-env --allow-read",
    "check": "course build --check && tsc --noEmit && deno check server.ts"
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
