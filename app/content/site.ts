/** The defaults are honest placeholders (docs/requirements.md, section 2). */
export const site = {
  brandName: "AI Automation Agency",
  title: "AI Automation Agency | AI Business Automation Services",
  description:
    "AI chatbots, process automation and analytics that cut manual work by up to 80% and pay back in 3-6 months. Based in Cincinnati, OH. Request a free AI assessment.",
  email: "hello@example.com",
  location: {
    city: "Cincinnati",
    region: "OH",
    country: "US",
    label: "Cincinnati, OH",
  },
  links: {
    communityChat: "https://example.com/community-chat-invite",
    membershipCheckout: "https://example.com/membership-checkout",
    imageSharingProfile: "https://example.com/image-sharing-profile",
    shortVideoProfile: "https://example.com/short-video-profile",
  },
} as const;
