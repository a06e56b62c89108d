import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import {
  type LeadState,
  leadStates,
  type Outside,
  type Transition,
  type TransitionName,
  TRANSITIONS,
} from "~/lib/leads/lead-states";

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");

const node = (state: LeadState | Outside) => (state === "(new)" || state === "(erased)" ? "[*]" : state);

/** The table as a Mermaid state diagram (one edge per pair, labelled with its transitions). */
function stateDiagram(): string {
  const edges = new Map<string, string[]>();
  for (const [name, transition] of Object.entries(TRANSITIONS) as [TransitionName, Transition][]) {
    const sources = [
      ...transition.from,
      ...("expiredLease" in transition && transition.expiredLease ? ["sending" as const] : []),
    ];
    for (const from of sources)
      for (const to of "inPlace" in transition && transition.inPlace ? [from as LeadState] : transition.to) {
        const key = `${node(from)} --> ${node(to)}`;
        edges.set(key, [...(edges.get(key) ?? []), name]);
      }
  }
  return ["stateDiagram-v2", ...[...edges].map(([edge, names]) => `    ${edge}: ${names.join(", ")}`)].join(
    "\n",
  );
}

/** The lead's state machine is one table in code; the lead store document's diagram is made from it (issue 40). */
describe("the lead state machine", () => {
  it("the diagram in docs/lead-store.md is the table's", () => {
    const docs = read("docs/lead-store.md");
    const block = /<!-- lead-states:start -->\s*```mermaid\n([\s\S]*?)\n```\s*<!-- lead-states:end -->/.exec(
      docs,
    )?.[1];
    expect(block, "docs/lead-store.md has the lead-states block").toBeDefined();
    expect(block).toBe(stateDiagram());
  });

  it("every transition is one of the store's statements, and every state is reached and left", () => {
    // The store's operations, one module each by what they do (bound in store.server.ts).
    const store = ["admit", "claims", "erasure"]
      .map((name) => read(`app/lib/leads/${name}.server.ts`))
      .join("");
    for (const [name, transition] of Object.entries(TRANSITIONS))
      expect(store, `${name}: ${transition.statement}`).toMatch(
        new RegExp(`\\nexport (async function |const )${transition.statement}\\b`),
      );
    const targets = new Set(
      Object.values(TRANSITIONS).flatMap((transition) => transition.to as readonly string[]),
    );
    const sources = new Set(
      Object.values(TRANSITIONS).flatMap((transition) => transition.from as readonly string[]),
    );
    for (const state of leadStates) {
      expect(targets.has(state), `${state} is reached`).toBe(true);
      expect(sources.has(state), `${state} is left`).toBe(true);
    }
  });
});
