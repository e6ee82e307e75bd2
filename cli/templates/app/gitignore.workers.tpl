node_modules/
dist/
.wrangler/
