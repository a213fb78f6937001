// Lint rules: typescript-eslint's recommended set, with type information for the promise rules (a promise neither
// awaited nor handled, or handed where a plain function is expected), no console outside the CLI and console, and
// the size limits: 150 lines a function, 500 a file.
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
    // Sizes count every line, blank and comment lines too: a reader reads them all (and the figures in issues are
    // counted the same way). A function over 150 lines is split into named steps; a file over 500 into the pieces of
    // its concern. Test files' describe blocks are lists of cases, not functions a reader follows: only the file limit
    // holds there.
    files: ["**/*.ts", "**/*.js", "**/*.mjs", "**/*.cjs"],
    ignores: ["test/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: false, skipComments: false }],
      "max-lines": ["error", { max: 500, skipBlankLines: false, skipComments: false }],
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
