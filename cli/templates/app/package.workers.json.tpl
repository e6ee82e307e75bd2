{
  "name": "%%name%%",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "course watch --serve worker.ts --runtime workers",
    "build": "course build",
    "deploy": "course build && wrangler deploy",
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
    "typescript": "~5.9.3",
    "wrangler": "^4.0.0"
  },
  "allowScripts": {
    "esbuild": true,
    "sharp": false,
    "workerd": true
  }
}
