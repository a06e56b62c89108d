import { describe, expect, it } from "vitest";

import { claims } from "~/content/claims";
import { communityStats, tiers } from "~/content/community";
import { faqs } from "~/content/faq";
import { services } from "~/content/services";
import { site } from "~/content/site";
import { testimonials } from "~/content/testimonials";

describe("services", () => {
  it("lists the six services with the spec's exact titles, in order", () => {
    expect(services.map((service) => service.title)).toEqual([
      "AI Chatbots and Virtual Assistants",
      "Intelligent Process Automation",
      "AI-Powered Data Analytics",
      "Omnichannel Communication AI",
      "Revenue Optimization AI",
      "Custom AI Solutions",
    ]);
  });

  it("gives every service a description and at least one feature", () => {
    for (const service of services) {
      expect(service.description.trim().length).toBeGreaterThan(20);
      expect(service.features.length).toBeGreaterThan(0);
      for (const feature of service.features) expect(feature.trim()).not.toBe("");
    }
  });
});

describe("membership tiers", () => {
  it("are Free $0, Insiders $50 (the only popular one) and Insiders+ $100, per month", () => {
    expect(tiers.map(({ name, price, period, popular }) => ({ name, price, period, popular }))).toEqual([
      { name: "Free", price: "$0", period: "/month", popular: false },
      { name: "Insiders", price: "$50", period: "/month", popular: true },
      { name: "Insiders+", price: "$100", period: "/month", popular: false },
    ]);
  });

  it("each have a description and features", () => {
    for (const tier of tiers) {
      expect(tier.description.trim()).not.toBe("");
      expect(tier.features.length).toBeGreaterThan(0);
    }
  });
});

describe("community", () => {
  it("shows the spec's four stats", () => {
    expect(communityStats).toEqual([
      { number: "450+", label: "new monthly members" },
      { number: "75+", label: "launches" },
      { number: "$500K+", label: "client revenue" },
      { number: "95%", label: "satisfaction" },
    ]);
  });
});

describe("testimonials", () => {
  // Six on the page, each rated 5: test/http/page.test.ts.
  it("each have a name of their own, a role and content", () => {
    for (const testimonial of testimonials) {
      expect(testimonial.name.trim()).not.toBe("");
      expect(testimonial.role.trim()).not.toBe("");
      expect(testimonial.content.trim().length).toBeGreaterThan(20);
    }
    expect(new Set(testimonials.map((testimonial) => testimonial.name)).size).toBe(testimonials.length);
  });
});

describe("FAQ", () => {
  // Eight on the page, four shown by default: test/http/page.test.ts.
  it("has plain-text entries: a question, and an answer without markup", () => {
    for (const faq of faqs) {
      expect(faq.question.trim()).toMatch(/\?$/);
      expect(faq.answer.trim().length).toBeGreaterThan(40);
      expect(faq.answer).not.toMatch(/[<>]/);
    }
  });

  it("covers the spec's topics in order", () => {
    const topics = [
      /first step/i,
      /industr/i,
      /technical expertise/i,
      /secur/i,
      /existing software/i,
      /support/i,
      /approach/i,
      /consultation/i,
    ];
    faqs.forEach((faq, index) => expect(faq.question).toMatch(topics[index]!));
  });
});

describe("marketing claims", () => {
  it("are the thirteen claims of spec section 9", () => {
    expect(Object.values(claims)).toEqual([
      "Up to 80% less manual work",
      "ROI in 3-6 months",
      "Start in 2 weeks",
      "90% faster customer response",
      "24/7",
      "80+ automations deployed",
      "Up to 60% cost reduction",
      "500+ implementations",
      "Initial response 24-48h",
      "Proof of concept 1-2 weeks",
      "Full implementation 30 days",
      "50+ hours of courses",
      "2,000+ members",
    ]);
  });
});

describe("site", () => {
  it("keeps external links absolute https addresses and the e-mail a plain address", () => {
    for (const href of Object.values(site.links)) expect(href).toMatch(/^https:\/\/[^\s]+$/);
    expect(site.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    expect(site.location.label).toBe("Cincinnati, OH");
    expect(site.links.membershipCheckout).not.toBe(site.links.communityChat);
  });
});
