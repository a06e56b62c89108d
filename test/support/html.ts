import { Window } from "happy-dom";

/** A parsed HTML document, as the tests read what the server sent (no script, no stylesheet runs). */
export type Doc = ReturnType<InstanceType<typeof Window>["document"]["implementation"]["createHTMLDocument"]>;

export function parseHtml(html: string): Doc {
  const window = new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
    },
  });
  return new window.DOMParser().parseFromString(html, "text/html") as unknown as Doc;
}
