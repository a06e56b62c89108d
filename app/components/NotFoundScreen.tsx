import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

import { notFoundText } from "~/content/not-found";

import { BrandMark } from "./BrandMark";

export function NotFoundScreen() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error(notFoundText.consoleMessage, pathname);
  }, [pathname]);
  return (
    <main
      id="main"
      className="on-ink relative isolate flex min-h-screen flex-col items-center justify-center overflow-hidden bg-ink-950 px-6 text-center text-white"
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute top-1/4 left-1/2 h-[30rem] w-[40rem] -translate-x-1/2 glow-accent-400 opacity-10" />
      </div>
      <BrandMark className="size-12" />
      <p className="mt-8 text-8xl font-bold tracking-tight text-accent-400 sm:text-9xl">
        {notFoundText.code}
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">{notFoundText.heading}</h1>
      <p className="mt-4 max-w-md text-lg text-ink-300">{notFoundText.message}</p>
      <a
        href="/"
        className="mt-10 inline-flex min-h-12 items-center rounded-full bg-accent-400 px-7 font-semibold text-ink-950 transition-colors hover:bg-accent-300"
      >
        {notFoundText.homeLink}
      </a>
    </main>
  );
}
