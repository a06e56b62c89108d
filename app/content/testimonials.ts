import type { SectionIntro, Testimonial } from "./types";

export const testimonialsIntro: SectionIntro = {
  eyebrow: "Reviews",
  heading: "Owners who got their time back",
  lead: "Business owners and community members on what changed after we automated the work they used to do by hand.",
};

export const testimonialsRowLabel = "More reviews";

export const ratingLabel = "Rated {rating} out of {max}";
export const ratingMax = 5;

export const testimonials: Testimonial[] = [
  {
    name: "Sarah Mitchell",
    role: "Owner, Mitchell Dental Group",
    content:
      "Our AI assistant now books and confirms appointments after hours. No-shows dropped and my front desk finally has time for patients in the chair.",
    rating: 5,
  },
  {
    name: "David Chen",
    role: "Operations Director, Queen City Logistics",
    content:
      "They automated our invoice processing in two weeks. What took three people every Friday now runs on its own, and the error rate is basically zero.",
    rating: 5,
  },
  {
    name: "Maria Gonzalez",
    role: "Founder, Bloom Boutique",
    content:
      "The chatbot answers sizing and shipping questions instantly on our site and Instagram. Sales are up and my inbox is finally under control.",
    rating: 5,
  },
  {
    name: "James Robert Walker",
    role: "Managing Partner, Walker & Associates CPA",
    content:
      "Client documents are sorted, named and filed automatically. Tax season used to mean weekends at the office. Not anymore.",
    rating: 5,
  },
  {
    name: "Aisha Thompson",
    role: "Insiders member, Founder of Elevate Automations",
    content:
      "I joined the community with zero clients. The templates and weekly build sessions helped me sign three retainers within my first two months.",
    rating: 5,
  },
  {
    name: "Kevin O'Brien",
    role: "CEO, Riverbend Home Services",
    content:
      "Every missed call now gets an instant text back and a booking link. We recovered jobs we used to lose to competitors without hiring anyone.",
    rating: 5,
  },
];
