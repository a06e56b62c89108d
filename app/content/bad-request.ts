import { notFoundText } from "./not-found";
import { site } from "./site";
import type { StatusPageText } from "./types";

/** The page for an address that is not valid percent-encoding (`/%`): the site's own, not the server's. */
export const badRequestText = {
  code: "400",
  heading: "Bad Request",
  title: `Bad Request | ${site.brandName}`,
  message: "This address is not a valid web address, so there is no page here.",
  homeLink: notFoundText.homeLink,
} as const satisfies StatusPageText;
