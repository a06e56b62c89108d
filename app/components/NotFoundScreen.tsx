import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

export function NotFoundScreen() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center px-6 text-center">
      <h1 className="text-8xl font-bold">404</h1>
      <p className="mt-4 text-lg">Oops! This page doesn&apos;t exist or has moved.</p>
      <a href="/" className="mt-8 inline-flex rounded-full px-6 py-3 font-semibold">
        Return to Home
      </a>
    </main>
  );
}
