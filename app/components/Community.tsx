import {
  communityIntro,
  communityStats,
  communityTiles,
  communityTilesHeading,
  popularBadge,
  tiers,
} from "~/content/community";
import type { CommunityTile, MembershipTier } from "~/content/types";
import { withoutLoneLastWord } from "~/lib/typography";

import { ExternalLink } from "./ExternalLink";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

export function CommunityContent() {
  return (
    <div className="shell">
      <SectionHeading intro={communityIntro} id="community-heading" align="center" />

      <ul className="mt-10 grid gap-4 lg:mt-14 lg:grid-cols-3 lg:items-stretch lg:gap-5">
        {tiers.map((tier) => (
          <li key={tier.name}>
            <TierCard tier={tier} />
          </li>
        ))}
      </ul>

      <ul className="mt-10 grid grid-cols-2 border-y border-white/10 lg:mt-14 lg:grid-cols-4">
        {communityStats.map((stat, index) => (
          <li
            key={stat.label}
            className={`px-1 py-5 text-center sm:px-2 sm:py-7 ${index % 2 === 1 ? "border-l border-white/10" : ""} ${
              index > 1 ? "border-t border-white/10 lg:border-t-0" : ""
            } ${index === 2 ? "lg:border-l" : ""}`}
          >
            <p>
              {/* "$500K+" must fit at 320 and 1024 px beside Firefox's scrollbar: narrow padding. */}
              <span className="block text-3xl font-bold tracking-tight text-white tabular-nums sm:text-5xl lg:text-4xl xl:text-5xl">
                {stat.number}
              </span>{" "}
              <span className="mt-1 block text-sm font-medium text-ink-300">
                {withoutLoneLastWord(stat.label)}
              </span>
            </p>
          </li>
        ))}
      </ul>

      <div className="mt-10 grid gap-5 lg:mt-14 lg:grid-cols-[0.7fr_2fr] lg:items-center lg:gap-10">
        <h3 className="text-2xl font-bold tracking-tight text-white">{communityTilesHeading}</h3>
        <ul className="grid gap-px overflow-hidden rounded-md border border-white/10 bg-white/10 sm:grid-cols-2">
          {communityTiles.map((tile) => (
            <li key={tile.title} className="bg-ink-950">
              <Tile tile={tile} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function TierCard({ tier }: { tier: MembershipTier }) {
  const popular = tier.popular;
  const headingId = `tier-${tier.name.toLowerCase().replace(/\+/g, "-plus")}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex h-full flex-col p-6 sm:p-7 ${
        popular
          ? "rounded-md border-2 border-accent-400 bg-white text-ink-950 shadow-lift lg:-my-3 lg:py-10"
          : "card-ink text-white"
      }`}
    >
      {popular ? (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-accent-400 px-4 py-1 text-xs font-bold tracking-wide whitespace-nowrap text-ink-950 uppercase">
          {popularBadge}
        </p>
      ) : null}
      <h3 id={headingId} className="text-lg font-bold">
        {tier.name}
      </h3>
      <p className="mt-3 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight sm:text-5xl">{tier.price}</span>
        <span className={popular ? "text-ink-600" : "text-ink-300"}>{tier.period}</span>
      </p>
      <p className={`mt-3 leading-relaxed ${popular ? "text-ink-600" : "text-ink-300"}`}>
        {withoutLoneLastWord(tier.description)}
      </p>
      <ul className="mt-5 mb-7 space-y-2">
        {tier.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2.5 text-sm font-medium text-balance">
            <Icon
              name="check"
              className={`mt-0.5 size-4 shrink-0 ${popular ? "text-accent-800" : "text-accent-400"}`}
            />
            {withoutLoneLastWord(feature)}
          </li>
        ))}
      </ul>
      <ExternalLink
        href={tier.cta.href}
        className={`btn mt-auto ${popular ? "btn-ink focus-visible:outline-accent-700" : "btn-line"}`}
      >
        {tier.cta.label}
      </ExternalLink>
    </article>
  );
}

const tileClass =
  "group flex h-full items-center gap-4 p-4 text-white transition-colors hover:bg-white/[0.06] sm:p-5";

function Tile({ tile }: { tile: CommunityTile }) {
  const Anchor = tile.kind === "external" ? ExternalLink : "a";
  return (
    <Anchor href={tile.href} className={tileClass}>
      <span className="icon-tile bg-white/10 text-accent-400 transition-colors group-hover:bg-accent-400 group-hover:text-ink-950">
        <Icon name={tile.icon} className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-bold">{tile.title}</span>
        <span className="mt-0.5 block text-sm leading-snug text-ink-300">
          {withoutLoneLastWord(tile.description)}
        </span>
        <span className="mt-1.5 inline-flex items-center gap-1.5 text-sm font-semibold text-accent-400">
          {tile.cta}
          <Icon name="arrow-right" className="size-4 transition-transform group-hover:translate-x-0.5" />
        </span>
      </span>
    </Anchor>
  );
}
