import { useEffect, useLayoutEffect } from "react";

/**
 * `useLayoutEffect` in the browser (runs after React has changed the DOM and before the browser
 * paints it), `useEffect` on the server, where a layout effect means nothing and React warns about it.
 */
export const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
