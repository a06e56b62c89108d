// on-headers ships no types: the one function this server uses.
declare module "on-headers" {
  import type { ServerResponse } from "node:http";

  /** Runs `listener` just before the response writes its headers, with the response as `this`. */
  export default function onHeaders(res: ServerResponse, listener: (this: ServerResponse) => void): void;
}
