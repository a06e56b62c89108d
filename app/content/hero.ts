import { claims } from "./claims";
import type { IconName, NavLink } from "./types";

export type PipelineState = "done" | "active";

export const hero = {
  eyebrow: "AI automation agency · Cincinnati, OH",
  heading: "Put your busywork on autopilot.",
  headingAccent: "Grow with AI that works 24/7.",
  lead: "We design, build and run AI automations for small and mid-sized businesses: chatbots that answer in seconds, workflows that move data without copy-paste, and reports that write themselves.",
  primaryCta: { label: "Transform Your Business with AI", href: "#contact" } satisfies NavLink,
  secondaryCta: { label: "Join the Community", href: "#community" } satisfies NavLink,
  highlights: [claims.lessManualWork, claims.roi, claims.startIn],
  panel: {
    title: "A new lead, handled while you sleep",
    status: "Running 24/7",
    stateLabels: { done: "Done", active: "In progress" } satisfies Record<PipelineState, string>,
    steps: [
      { title: "Enquiry arrives", detail: "Website chat, 11:42 pm", icon: "chat", state: "done" },
      {
        title: "AI qualifies the lead",
        detail: "Budget, timeline and needs captured",
        icon: "spark",
        state: "done",
      },
      {
        title: "CRM updated",
        detail: "Contact, notes and deal stage created",
        icon: "workflow",
        state: "done",
      },
      {
        title: "Reply and booking sent",
        detail: "Personal answer plus a calendar link",
        icon: "calendar",
        state: "active",
      },
    ] satisfies { title: string; detail: string; icon: IconName; state: PipelineState }[],
  },
} as const;
