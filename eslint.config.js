import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules", "public", "dist", "data", "coverage"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  // Layer rules (docs/ARCHITECTURE.md, Layer rules): a wrong-way import fails the build.
  {
    files: ["src/db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/modules/**", "**/http/**", "**/services.ts", "**/app.ts"],
              message: "db/ knows no feature: the composition root (src/services.ts) builds repositories.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/analysis/**/*.ts", "src/pages/**/*.ts", "src/client/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "**/modules/**",
                "!**/modules/*/*.schemas.ts",
                "**/http/**",
                "**/db/**",
                "**/services.ts",
                "**/app.ts",
              ],
              message: "analysis/, pages/ and client/ are pure: they get plain data, never storage or HTTP.",
            },
            {
              // The enums the API publishes (experience kinds, insight types) are declared once by its schemas.
              group: ["**/modules/*/*.schemas.ts"],
              allowTypeImports: true,
              message:
                "analysis/, pages/ and client/ take only types from the API contract (modules/*/*.schemas.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/http/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/modules/**", "**/db/**", "**/services.ts", "**/app.ts"],
              message:
                "http/ is cross-cutting: it declares the interfaces it needs; modules depend on it, not the reverse.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/metrics/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "**/modules/**",
                "**/http/**",
                "**/services.ts",
                "**/app.ts",
                "**/main.ts",
                "**/cli/**",
              ],
              message:
                "metrics/ knows no module: it declares the interfaces parts report through; the composition root hands them out.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/modules/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/services.ts", "**/app.ts", "**/main.ts", "**/cli/**"],
              message: "Modules are given what they need by the composition root (src/services.ts).",
            },
            {
              // Another module's folder: one level up, then a repository file.
              regex: "^\\.\\./[^/]+/[^/]+\\.repository\\.ts$",
              allowTypeImports: true,
              message:
                "A module calls another module's service, not its repository (repositories are built in src/services.ts).",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name=/Repository$/]",
          message: "Services are handed their repositories by the composition root (src/services.ts).",
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
