{
  "compilerOptions": {
    "lib": ["deno.window", "ES2023"]
  }
}
