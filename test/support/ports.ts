export { freePort } from "./server-process.mjs";
