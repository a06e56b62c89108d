import type { SectionIntro, Service } from "./types";

export const servicesIntro: SectionIntro = {
  eyebrow: "Solutions",
  heading: "AI that takes real work off your team's plate",
  lead: "Six proven ways we put AI to work in your business. Each one is scoped to a measurable outcome, built on the tools you already use and supported after launch.",
};

export const services: Service[] = [
  {
    title: "AI Chatbots and Virtual Assistants",
    description:
      "Assistants trained on your own knowledge base that answer customers, qualify leads and book appointments around the clock.",
    features: [
      "Website, SMS and social chat",
      "Lead qualification and booking",
      "Hand-off to a human when it matters",
    ],
    icon: "chat",
  },
  {
    title: "Intelligent Process Automation",
    description:
      "Workflows that read documents, move data between systems and trigger the next step, so nobody copies and pastes again.",
    features: ["Invoice and document processing", "CRM and spreadsheet sync", "Approvals and notifications"],
    icon: "workflow",
  },
  {
    title: "AI-Powered Data Analytics",
    description:
      "Dashboards and plain-language reports that turn scattered data into decisions, delivered to your inbox on schedule.",
    features: ["Automated weekly reporting", "Forecasts and trend alerts", "Ask questions in plain English"],
    icon: "chart",
  },
  {
    title: "Omnichannel Communication AI",
    description:
      "One consistent, on-brand voice across email, chat, phone and social, with every conversation logged in one place.",
    features: ["Unified inbox triage", "AI voice and call summaries", "Consistent answers on every channel"],
    icon: "channels",
  },
  {
    title: "Revenue Optimization AI",
    description:
      "Follow-ups, re-engagement and pricing insights that recover missed revenue and lift the value of every customer.",
    features: ["Automated follow-up sequences", "Abandoned quote recovery", "Upsell and churn signals"],
    icon: "revenue",
  },
  {
    title: "Custom AI Solutions",
    description:
      "When off-the-shelf will not do, we design and build an AI system around your process, data and compliance needs.",
    features: [
      "Discovery and ROI modelling",
      "Secure integration with your stack",
      "Training and ongoing support",
    ],
    icon: "spark",
  },
];

/** The first service's flow diagram: labels only, the card's text says it. */
export const chatbotFlow = {
  inputs: ["Website", "SMS", "Social"],
  hub: "AI",
  outputs: ["Qualified", "Booked", "Human"],
} as const;
