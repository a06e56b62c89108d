/** Composes the home page's sections in the order the spec fixes. */
export function HomePage() {
  return (
    <main id="main">
      <h1>AI Automation Agency</h1>
    </main>
  );
}
