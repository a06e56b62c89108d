export { freePort } from "./remix-serve.mjs";
