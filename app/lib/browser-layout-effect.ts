import { useEffect, useLayoutEffect } from "react";

/** `useLayoutEffect` in the browser, `useEffect` on the server (where React warns about it). */
export const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
