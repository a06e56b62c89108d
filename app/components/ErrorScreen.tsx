import { errorText } from "~/content/not-found";

interface ErrorScreenProps {
  message: string;
}

export function ErrorScreen({ message }: ErrorScreenProps) {
  return (
    <main
      id="main"
      className="on-ink flex min-h-screen flex-col justify-center bg-ink-950 px-6 py-24 text-white"
    >
      <div className="mx-auto w-full max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{errorText.heading}</h1>
        <p className="mt-6 rounded-md border border-white/10 bg-white/5 p-5 font-mono text-base break-words text-ink-200">
          {message}
        </p>
      </div>
    </main>
  );
}
