import { notFoundText } from "./not-found";

/** The page for an address that is not valid percent-encoding (`/%`): the site's own, not the server's. */
export const badRequestText = {
  code: "400",
  heading: "Bad Request",
  title: "Bad Request",
  message: "This address is not a valid web address, so there is no page here.",
  homeLink: notFoundText.homeLink,
} as const;
