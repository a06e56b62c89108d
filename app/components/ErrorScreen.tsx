interface ErrorScreenProps {
  message: string;
}

/** The default view for an unhandled error: the spec's heading, then the error's text. */
export function ErrorScreen({ message }: ErrorScreenProps) {
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center px-6 py-24">
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-4 font-mono text-base">{message}</p>
    </main>
  );
}
