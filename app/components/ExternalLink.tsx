import type { AnchorHTMLAttributes, ReactNode } from "react";

import { newTabHint } from "~/content/external-link";

interface ExternalLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "target" | "rel"> {
  href: string;
  children: ReactNode;
}

/** A link that leaves the site: a new tab, without giving the opened page access to this one. */
export function ExternalLink({ href, children, ...rest }: ExternalLinkProps) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
      {children}
      <span className="sr-only"> {newTabHint}</span>
    </a>
  );
}
