node_modules/
dist/
database.sqlite
