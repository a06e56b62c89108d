import { site } from "./site";
import type { CommunityStat, CommunityTile, MembershipTier, SectionIntro } from "./types";

export const communityIntro: SectionIntro = {
  eyebrow: "Insiders community",
  heading: "Start your own AI automation agency",
  lead: "Learn the exact playbooks we use with clients, get feedback on your builds and land your first deals alongside thousands of founders doing the same.",
};

export const tiers: MembershipTier[] = [
  {
    name: "Free",
    price: "$0",
    period: "/month",
    description: "Meet the community and learn the fundamentals of AI automation.",
    features: ["Community chat access", "Weekly automation tips", "Starter templates", "Public Q&A threads"],
    popular: false,
    cta: { label: "Join Free", href: site.links.communityChat },
  },
  {
    name: "Insiders",
    price: "$50",
    period: "/month",
    description: "Everything you need to launch and sign your first clients.",
    features: [
      "Everything in Free",
      "Full course library",
      "Live weekly build sessions",
      "Client-ready automation templates",
      "Sales scripts and proposal kits",
    ],
    popular: true,
    cta: { label: "Become an Insider", href: site.links.membershipCheckout },
  },
  {
    name: "Insiders+",
    price: "$100",
    period: "/month",
    description: "Closer support to scale your agency faster.",
    features: [
      "Everything in Insiders",
      "Monthly 1:1 strategy call",
      "Deal and proposal reviews",
      "Priority answers from our engineers",
      "Early access to new playbooks",
    ],
    popular: false,
    cta: { label: "Go Insiders+", href: site.links.membershipCheckout },
  },
];

export const popularBadge = "Most Popular";

export const communityStats: CommunityStat[] = [
  { number: "450+", label: "new monthly members" },
  { number: "75+", label: "launches" },
  { number: "$500K+", label: "client revenue" },
  { number: "95%", label: "satisfaction" },
];

export const communityTilesHeading = "Find us where founders hang out";

export const communityTiles: CommunityTile[] = [
  {
    kind: "external",
    title: "Discord",
    description: "Chat with members, share wins and get unstuck fast.",
    icon: "discord",
    href: site.links.communityChat,
    cta: "Join the chat",
  },
  {
    kind: "anchor",
    title: "Success Stories",
    description: "See what clients and members say about working with us.",
    icon: "trophy",
    href: "#testimonials",
    cta: "Read reviews",
  },
  {
    kind: "external",
    title: "Instagram",
    description: "Automation ideas and behind-the-scenes builds.",
    icon: "camera",
    href: site.links.imageSharingProfile,
    cta: "Follow us",
  },
  {
    kind: "external",
    title: "TikTok",
    description: "Quick tutorials you can apply in minutes.",
    icon: "video",
    href: site.links.shortVideoProfile,
    cta: "Watch now",
  },
];
