// Tailwind 4 writes colours as oklch()/oklab() (its palette, and every opacity modifier such as
// bg-white/5). Browsers render them, but axe-core cannot parse them and silently skips its
// colour-contrast rule. The oklab plugin rewrites them to sRGB at build time (gamut-mapped as CSS
// Color 4 says), so the contrast check really runs (test/e2e/accessibility.test.ts, decision 028).
export default {
  plugins: {
    "@tailwindcss/postcss": {},
    "@csstools/postcss-oklab-function": { preserve: false },
  },
};
