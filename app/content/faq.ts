import type { Faq, SectionIntro } from "./types";

export const faqIntro: SectionIntro = {
  eyebrow: "FAQ",
  heading: "Questions, answered",
  lead: "Everything business owners usually ask before their first automation project.",
};

/** How many questions show before "View More Questions". */
export const faqInitialCount = 4;

export const faqText = {
  viewMore: "View More Questions",
  viewLess: "View Less",
  moreQuestions: "Still have a question?",
  emailUs: "Email us",
} as const;

export const faqs: Faq[] = [
  {
    question: "What is the first step to automating my business?",
    answer:
      "Request a free AI assessment through the contact form. We review how your team spends its time, identify the processes with the highest return and send you a clear plan with expected savings before any work begins.",
  },
  {
    question: "Which industries do you work with?",
    answer:
      "We work with service businesses of every kind, including healthcare and dental practices, professional services, retail and e-commerce, logistics, real estate and home services. If your team repeats the same tasks every week, AI can help.",
  },
  {
    question: "Do I need technical expertise to use your solutions?",
    answer:
      "No. We design, build and maintain everything for you, and we train your team to use it in plain English. If you can use email and a spreadsheet, you can work with our automations.",
  },
  {
    question: "How do you keep my data secure?",
    answer:
      "Your data stays under your control. We use encrypted connections, least-privilege access and reputable providers, never use your data to train public models, and can sign an NDA and data processing agreement.",
  },
  {
    question: "Will your automations work with my existing software?",
    answer:
      "Almost certainly. We integrate with the CRMs, accounting tools, calendars, inboxes and spreadsheets you already use. Where a tool has no integration, we connect it through its API or a secure workaround.",
  },
  {
    question: "What support do you offer after launch?",
    answer:
      "Every project includes monitoring, fixes and a support channel with a named engineer. Ongoing plans add regular improvements, new automations and monthly reporting on time and money saved.",
  },
  {
    question: "How do you approach a new project?",
    answer:
      "We start small and prove value fast: an initial response within 24-48 hours, a proof of concept in 1-2 weeks, then full implementation within 30 days. You approve each stage before we move on.",
  },
  {
    question: "What happens during the free consultation?",
    answer:
      "In a 30-minute call we discuss your goals, walk through your current processes and point out the quickest wins. You leave with concrete recommendations, whether or not you decide to work with us.",
  },
];
