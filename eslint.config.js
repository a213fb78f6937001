// Lint rules: typescript-eslint's recommended set, with type information for the promise rules (a promise neither
// awaited nor handled, or handed where a plain function is expected), and no console outside the CLI and console.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "dist/", "examples/", "bench/results*"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextDecoder: "readonly",
        TextEncoder: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        structuredClone: "readonly",
        setImmediate: "readonly",
        queueMicrotask: "readonly",
      },
    },
    rules: {
      "no-console": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["adapters/console/**", "src/cli.ts", "src/cli/**", "bin/**", "bench/**", "test/**"],
    rules: { "no-console": "off" },
  },
  {
    // bin/rl-chatops.js is CommonJS (bin/package.json): it requires the one-file programs of dist/.
    files: ["**/*.cjs", "bin/rl-chatops.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { module: "writable", require: "readonly", __dirname: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
);
