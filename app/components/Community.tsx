import {
  communityIntro,
  communityStats,
  communityTiles,
  communityTilesHeading,
  popularBadge,
  tiers,
} from "~/content/community";
import type { CommunityTile, MembershipTier } from "~/content/types";

import { ExternalLink } from "./ExternalLink";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** The inside of the section (its <section> frame is `sectionFrames.community`): static HTML, never hydrated. */
export function CommunityContent() {
  return (
    <>
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute top-1/3 left-1/2 h-[40rem] w-[70rem] -translate-x-1/2 glow-indigo-500 opacity-10" />
      </div>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading intro={communityIntro} id="community-heading" tone="dark" align="center" />

        <ul className="mt-16 grid items-stretch gap-6 lg:grid-cols-3">
          {tiers.map((tier) => (
            <li key={tier.name}>
              <TierCard tier={tier} />
            </li>
          ))}
        </ul>

        <ul className="mt-16 grid grid-cols-2 gap-px overflow-hidden rounded-3xl border border-white/10 bg-white/10 lg:grid-cols-4">
          {communityStats.map((stat) => (
            <li key={stat.label} className="bg-ink-950 px-3 py-8 text-center sm:px-6">
              <p>
                {/* Sized to the tile, which is half the screen on a phone and a quarter of the row from lg:
                    "$500K+" must fit at 320 px and at 1024 px. */}
                <span className="block text-2xl font-bold tracking-tight text-white min-[360px]:text-3xl sm:text-5xl lg:text-4xl xl:text-5xl">
                  {stat.number}
                </span>{" "}
                <span className="mt-2 block text-sm font-medium text-ink-300">{stat.label}</span>
              </p>
            </li>
          ))}
        </ul>

        <h3 className="mt-20 text-center text-2xl font-bold tracking-tight text-white">
          {communityTilesHeading}
        </h3>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {communityTiles.map((tile) => (
            <li key={tile.title}>
              <Tile tile={tile} />
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

function TierCard({ tier }: { tier: MembershipTier }) {
  const popular = tier.popular;
  const headingId = `tier-${tier.name.toLowerCase().replace(/\+/g, "-plus")}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex h-full flex-col rounded-3xl p-8 transition duration-300 ${
        popular
          ? "bg-white text-ink-950 shadow-2xl shadow-accent-400/10 ring-2 ring-accent-400 lg:-my-4 lg:py-12"
          : "border border-white/10 bg-white/[0.04] text-white hover:border-white/25 hover:bg-white/[0.07]"
      }`}
    >
      {popular ? (
        <p className="absolute -top-4 left-1/2 -translate-x-1/2 rounded-full bg-accent-400 px-4 py-1.5 text-xs font-bold tracking-wide text-ink-950 uppercase">
          {popularBadge}
        </p>
      ) : null}
      <h3 id={headingId} className="text-lg font-bold">
        {tier.name}
      </h3>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-5xl font-bold tracking-tight">{tier.price}</span>
        <span className={popular ? "text-ink-600" : "text-ink-300"}>{tier.period}</span>
      </p>
      <p className={`mt-4 leading-relaxed ${popular ? "text-ink-600" : "text-ink-300"}`}>
        {tier.description}
      </p>
      <ul className="mt-8 mb-10 space-y-3">
        {tier.features.map((feature) => (
          <li key={feature} className="flex items-start gap-3 text-sm font-medium">
            <Icon
              name="check"
              className={`mt-0.5 size-4 shrink-0 ${popular ? "text-accent-800" : "text-accent-400"}`}
            />
            {feature}
          </li>
        ))}
      </ul>
      <ExternalLink
        href={tier.cta.href}
        className={`mt-auto inline-flex min-h-12 items-center justify-center gap-2 rounded-full px-6 font-semibold transition-colors ${
          popular
            ? "bg-ink-950 text-white hover:bg-ink-800 focus-visible:outline-accent-700"
            : "bg-white/10 text-white ring-1 ring-white/20 hover:bg-accent-400 hover:text-ink-950 hover:ring-accent-400"
        }`}
      >
        {tier.cta.label}
      </ExternalLink>
    </article>
  );
}

const tileClass =
  "group flex h-full flex-col rounded-3xl border border-white/10 bg-white/[0.04] p-6 text-white transition duration-300 hover:-translate-y-1 hover:border-accent-400/60 hover:bg-white/[0.08]";

function Tile({ tile }: { tile: CommunityTile }) {
  const body = (
    <>
      <span className="flex size-11 items-center justify-center rounded-2xl bg-white/10 text-accent-400 transition-colors group-hover:bg-accent-400 group-hover:text-ink-950">
        <Icon name={tile.icon} className="size-6" />
      </span>
      <span className="mt-5 block text-lg font-bold">{tile.title}</span>
      <span className="mt-2 block text-sm leading-relaxed text-ink-300">{tile.description}</span>
      <span className="mt-5 inline-flex items-center gap-1.5 text-sm font-semibold text-accent-400">
        {tile.cta}
        <Icon name="arrow-right" className="size-4 transition-transform group-hover:translate-x-0.5" />
      </span>
    </>
  );
  return tile.kind === "external" ? (
    <ExternalLink href={tile.href} className={tileClass}>
      {body}
    </ExternalLink>
  ) : (
    <a href={tile.href} className={tileClass}>
      {body}
    </a>
  );
}
