// `npm run test:unit`: the tests that need no build, no browser and no server process, listed in
// test/unit-files.ts, in well under a minute. `npm test` runs them too, with everything else.
import { defineConfig } from "vitest/config";

import { unitTestFiles } from "./test/unit-files";
import base from "./vitest.config";

export { UNIT_TESTS, unitTestFiles } from "./test/unit-files";

export default defineConfig({
  resolve: base.resolve,
  // Nothing here starts a server or a browser: files may share the two cores.
  test: {
    ...base.test,
    projects: undefined,
    include: unitTestFiles(),
    isolate: false,
    passWithNoTests: false,
    fileParallelism: true,
  },
});
