import * as serverBuild from "@remix-run/dev/server-build";
import type { ServerBuild } from "@remix-run/node";

/**
 * This server's own build, for the few places that hand a request to the app from inside it (the
 * home document's warm-up, /metrics answering as an unknown path). It is a circular import the
 * compiler resolves: read it once every module has been evaluated (on a request, or after the
 * build has loaded), never while modules are still loading.
 */
export function ownBuild(): ServerBuild {
  return serverBuild as unknown as ServerBuild;
}
