// Flat ESLint config: JS + TypeScript recommended rules, React hooks and JSX accessibility.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".builds/",
      ".cache/",
      ".data/",
      "node_modules/",
      "bench/results/",
      "test-results/",
      "coverage/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{js,mjs,cjs,ts,tsx,mts}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
  {
    // Everything under app/ may run in the browser; tests drive a browser through page.evaluate,
    // whose callbacks run in the page. (bench/ scripts declare their page globals themselves.)
    files: ["app/**/*.{ts,tsx}", "test/**/*.{ts,tsx,js,mjs}"],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
  },
  {
    files: ["**/*.{jsx,tsx}"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // React code: the app and the component tests (elsewhere a `useX` is a test helper, not a hook).
    files: ["app/**/*.{ts,tsx}", "**/*.tsx"],
    ...reactHooks.configs.flat["recommended-latest"],
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (placeholders in signatures and destructuring).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
);
