import type { LinkDescriptor, MetaDescriptor } from "@remix-run/node";

import { site } from "~/content/site";

/** Tags every document carries; the home route adds its canonical URL and structured data. */
export function documentMeta(): MetaDescriptor[] {
  return [{ title: site.title }, { name: "description", content: site.description }];
}

export function documentLinks(): LinkDescriptor[] {
  return [];
}
