import { badRequestText } from "~/content/bad-request";

import { BrandMark } from "./BrandMark";

/** Looks like the 404 screen: the visitor mistyped or was sent a broken link; the way home is the same. */
export function BadRequestScreen() {
  return (
    <main
      id="main"
      className="on-ink relative isolate flex min-h-screen flex-col items-center justify-center overflow-hidden bg-ink-950 px-6 text-center text-white"
    >
      <BrandMark className="size-12" />
      <p className="mt-8 text-8xl font-bold tracking-tight text-accent-400 sm:text-9xl">
        {badRequestText.code}
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">{badRequestText.heading}</h1>
      <p className="mt-4 max-w-md text-lg text-ink-300">{badRequestText.message}</p>
      <a
        href="/"
        className="mt-10 inline-flex min-h-12 items-center rounded-full bg-accent-400 px-7 font-semibold text-ink-950 transition-colors hover:bg-accent-300"
      >
        {badRequestText.homeLink}
      </a>
    </main>
  );
}
